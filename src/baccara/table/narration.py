"""The deal told card by card: the croupier's words and the rule behind every draw.

The terminal game and the web table both show a coup with `reveal`.
"""

from __future__ import annotations

from collections.abc import Sequence

from baccara import rules as tableau
from baccara.cards import Card, hand_total
from baccara.coup import NUMBER_WORDS, Coup, Side
from baccara.deal import FIRST_CARDS
from baccara.table.events import Reveal

__all__ = ["reveal"]


def _spaced(cards: Sequence[Card]) -> str:
    return " ".join(str(card) for card in cards)


def reveal(coup: Coup, *, by_hand: bool = False) -> tuple[Reveal, ...]:
    """The deal shown one card at a time, with the croupier's words and the rule.

    ``by_hand``: each hand's first two cards turned together, the Player's first (the
    order of a squeeze table, where a hand's cards are squeezed and turned by its bettor).

    >>> for step in reveal(Coup.parse("P:2h,3d,4c B:5s,Qc,9d")):
    ...     print(step.card, "|", step.words)
    2h | Card for the Player: 2h.
    5s | Card for the Banker: 5s.
    3d | Player: 2h 3d, five.
    Qc | Banker: 5s Qc, five.
    4c | Player draws: 4c, nine.
    9d | Banker draws: 9d, four.
    None | Nine to the Player, four to the Banker: Player wins.
    >>> [str(step.card) for step in reveal(Coup.parse("P:2h,3d,4c B:5s,Qc,9d"), by_hand=True)][:4]
    ['2h', '3d', '5s', 'Qc']
    """
    shown = {Side.PLAYER: 0, Side.BANKER: 0}
    steps: list[Reveal] = []

    def step(side: Side | None, words: str, card: Card | None = None, reason: str = "") -> None:
        player, banker = coup.player[: shown[Side.PLAYER]], coup.banker[: shown[Side.BANKER]]
        steps.append(
            Reveal(card=card, side=side, player=player, banker=banker, words=words, reason=reason)
        )

    def turn(side: Side) -> tuple[Card, tuple[Card, ...], str]:
        shown[side] += 1
        hand = coup.hand(side)[: shown[side]]
        return hand[-1], hand, NUMBER_WORDS[hand_total(hand)]

    first = sorted(FIRST_CARDS, key=lambda side: side is Side.BANKER) if by_hand else FIRST_CARDS
    for side in first:
        card, hand, total = turn(side)
        name = side.word.title()
        words = (
            f"Card for the {name}: {card}."
            if len(hand) == 1
            else f"{name}: {_spaced(hand)}, {total}."
        )
        step(side, words, card)
    p2, b2 = hand_total(coup.player[:2]), hand_total(coup.banker[:2])
    natural = tableau.natural_decision(p2, b2)
    if natural is not None:
        step(None, "A natural: no more cards.", reason=natural.reason)
    else:
        third: int | None = None
        for side in (Side.PLAYER, Side.BANKER):
            rule = (
                tableau.player_decision(p2)
                if side is Side.PLAYER
                else tableau.banker_decision(b2, third)
            )
            name = side.word.title()
            if rule.draws:
                card, _, total = turn(side)
                third = card.points if side is Side.PLAYER else third
                step(side, f"{name} draws: {card}, {total}.", card, rule.reason)
            else:
                step(side, f"{name} stands.", reason=rule.reason)
    step(None, coup.announcement())
    return tuple(steps)
