"""One coup: the Player's and the Banker's hands, dealt by the tableau.

The compact notation lists each hand's cards in the order they were dealt:

>>> coup = Coup.parse("P:9h,Kd B:5s,Qc")
>>> coup.winner, coup.player_total, coup.banker_total, coup.natural
(<Result.PLAYER: 'P'>, 9, 5, True)
>>> str(coup)
'P:9h,Kd B:5s,Qc'
>>> Coup.parse("P:2h,3d B:Ks,7c")
Traceback (most recent call last):
...
baccara.coup.CoupError: impossible coup 'P:2h,3d B:Ks,7c': Player has 5: Player draws on 0-5, but the Player has no third card
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import cache

from baccara import rules
from baccara.cards import Card, CardError, format_cards, hand_total, parse_cards
from baccara.deal import FIRST_CARDS, Deal, DealState, Side, step
from baccara.shoe import Shoe

__all__ = [
    "NUMBER_WORDS",
    "Coup",
    "CoupError",
    "Result",
    "Side",
    "deal_coup",
    "deal_shoe",
    "explain",
]

NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
"""How the croupier says each total."""
_NOTATION = re.compile(r"([PB])\s*:\s*([^PB:]*)", re.IGNORECASE)


class CoupError(ValueError):
    """A coup that is malformed or that the tableau forbids."""


class Result(StrEnum):
    """Who won a coup; the value is the road letter."""

    BANKER = "B"
    PLAYER = "P"
    TIE = "T"

    @property
    def word(self) -> str:
        """``'banker'``, ``'player'`` or ``'tie'`` (as in JSON output)."""
        return self.name.lower()

    @classmethod
    def parse(cls, text: str) -> Result:
        """Parse ``B``/``P``/``T`` or ``banker``/``player``/``tie`` (any case).

        >>> Result.parse("tie"), Result.parse("b")
        (<Result.TIE: 'T'>, <Result.BANKER: 'B'>)
        """
        token = text.strip().upper()
        for result in cls:
            if token in (result.value, result.name):
                return result
        raise ValueError(f"bad result {text!r}: expected B, P or T")

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True, slots=True, kw_only=True)
class Coup:
    """A finished coup. Construction checks it against the tableau.

    >>> coup = Coup.from_deal(Card.parse(c) for c in "2h 5s 3d Qc 4c 9d".split())
    >>> str(coup), coup.winner.word, coup.cards
    ('P:2h,3d,4c B:5s,Qc,9d', 'player', 6)
    """

    player: tuple[Card, ...]
    banker: tuple[Card, ...]

    def __post_init__(self) -> None:
        problem = _tableau_problem(self.player, self.banker)
        if problem:
            raise CoupError(f"impossible coup {self.notation()!r}: {problem}")

    # -- notation ------------------------------------------------------------------

    @classmethod
    def parse(cls, text: str) -> Coup:
        """Parse the compact notation ``P:9h,Kd B:5s,Qc,3d`` (hands in either order)."""
        hands: dict[str, tuple[Card, ...]] = {}
        rest = _NOTATION.sub("", text).strip()
        if rest:
            raise CoupError(
                f"bad coup {text!r}: expected 'P:<cards> B:<cards>', as in 'P:9h,Kd B:5s,Qc'"
            )
        for side, cards in _NOTATION.findall(text):
            key = side.upper()
            if key in hands:
                raise CoupError(f"bad coup {text!r}: hand {key} given twice")
            try:
                hands[key] = parse_cards(cards)
            except CardError as error:
                raise CoupError(f"bad coup {text!r}: {error}") from None
        if set(hands) != {"P", "B"}:
            raise CoupError(f"bad coup {text!r}: expected both hands, 'P:<cards> B:<cards>'")
        return cls(player=hands["P"], banker=hands["B"])

    @classmethod
    def from_deal(cls, cards: Sequence[Card] | Iterator[Card]) -> Coup:
        """Build a coup from its cards in deal order (`baccara.deal`: P1, B1, P2, B2, ...)."""
        order = list(cards)
        if len(order) < 4:
            raise CoupError(f"a coup needs at least 4 cards, got {len(order)}")
        hands: dict[Side, list[Card]] = {Side.PLAYER: [], Side.BANKER: []}
        state, rest = DealState(), order[::-1]
        while rest and isinstance(now := step(state), Deal):
            card = rest.pop()
            hands[now.side].append(card)
            state = state.given(now.side, card.points)
        natural = rules.natural_decision(*(hand_total(hands[side][:2]) for side in Side))
        if rest and len(hands[Side.BANKER]) == 2 and natural is None:
            hands[Side.BANKER].append(rest.pop())  # one the tableau refuses: the check names why
        if rest:
            raise CoupError(f"too many cards for one coup: {format_cards(order)}")
        return cls(player=tuple(hands[Side.PLAYER]), banker=tuple(hands[Side.BANKER]))

    def notation(self) -> str:
        """The compact notation, as `str` gives it."""
        return f"P:{format_cards(self.player)} B:{format_cards(self.banker)}"

    def __str__(self) -> str:
        return self.notation()

    def __repr__(self) -> str:
        return f"Coup.parse({self.notation()!r})"

    # -- facts ---------------------------------------------------------------------

    @property
    def player_total(self) -> int:
        """The Player's final total."""
        return hand_total(self.player)

    @property
    def banker_total(self) -> int:
        """The Banker's final total."""
        return hand_total(self.banker)

    def total(self, side: Side) -> int:
        """The final total of ``side``."""
        return self.player_total if side is Side.PLAYER else self.banker_total

    def hand(self, side: Side) -> tuple[Card, ...]:
        """The cards of ``side``."""
        return self.player if side is Side.PLAYER else self.banker

    @property
    def winner(self) -> Result:
        """Banker, Player or Tie."""
        p, b = self.player_total, self.banker_total
        return Result.PLAYER if p > b else Result.BANKER if b > p else Result.TIE

    @property
    def natural(self) -> bool:
        """Whether either side had a natural (a two-card 8 or 9)."""
        return self.player_natural or self.banker_natural

    @property
    def player_natural(self) -> bool:
        """Whether the Player's first two cards make 8 or 9."""
        return rules.is_natural(hand_total(self.player[:2]))

    @property
    def banker_natural(self) -> bool:
        """Whether the Banker's first two cards make 8 or 9."""
        return rules.is_natural(hand_total(self.banker[:2]))

    @property
    def player_pair(self) -> bool:
        """Whether the Player's first two cards have the same rank."""
        return self.player[0].rank is self.player[1].rank

    @property
    def banker_pair(self) -> bool:
        """Whether the Banker's first two cards have the same rank."""
        return self.banker[0].rank is self.banker[1].rank

    @property
    def marks(self) -> tuple[str, ...]:
        """What a result line notes besides the winner: ``natural``, ``P pair``, ``B pair``.

        >>> Coup.parse("P:9h,9d B:5s,Qc").marks, Coup.parse("P:2h,3d,4c B:5s,Qc,9d").marks
        (('natural', 'P pair'), ())
        """
        flags = (
            ("natural", self.natural),
            ("P pair", self.player_pair),
            ("B pair", self.banker_pair),
        )
        return tuple(name for name, flag in flags if flag)

    @property
    def cards(self) -> int:
        """Number of cards dealt: 4, 5 or 6."""
        return len(self.player) + len(self.banker)

    def deal_order(self) -> tuple[Card, ...]:
        """The cards in the order they came out of the shoe."""
        order = [self.player[0], self.banker[0], self.player[1], self.banker[1]]
        order.extend(self.player[2:])
        order.extend(self.banker[2:])
        return tuple(order)

    def announcement(self) -> str:
        """What the croupier says: ``'Seven to the Player, five to the Banker: Player wins.'``

        >>> Coup.parse("P:7h,Kd B:6s,Kc").announcement()
        'Seven to the Player, six to the Banker: Player wins.'
        """
        p, b = NUMBER_WORDS[self.player_total], NUMBER_WORDS[self.banker_total]
        outcome = "a tie" if self.winner is Result.TIE else f"{self.winner.word.title()} wins"
        return f"{p.capitalize()} to the Player, {b} to the Banker: {outcome}."


def _tableau_problem(player: tuple[Card, ...], banker: tuple[Card, ...]) -> str | None:
    """Why these hands break the tableau, or None if they follow it."""
    for name, hand in (("Player", player), ("Banker", banker)):
        if not 2 <= len(hand) <= 3:
            return f"the {name} holds {len(hand)} cards; a hand has 2 or 3"
    p2, b2 = hand_total(player[:2]), hand_total(banker[:2])
    natural = rules.natural_decision(p2, b2)
    if natural is not None:
        if len(player) == 3 or len(banker) == 3:
            return f"{natural.reason[:-1]}, but a third card was dealt"
        return None
    p_rule = rules.player_decision(p2)
    if p_rule.draws != (len(player) == 3):
        has = "has no third card" if p_rule.draws else "drew a third card"
        return f"{p_rule.reason[:-1]}, but the Player {has}"
    third = player[2].points if len(player) == 3 else None
    b_rule = rules.banker_decision(b2, third)
    if b_rule.draws != (len(banker) == 3):
        has = "has no third card" if b_rule.draws else "drew a third card"
        return f"{b_rule.reason[:-1]}, but the Banker {has}"
    return None


def deal_coup(shoe: Shoe) -> Coup:
    """Deal one coup from ``shoe`` as `baccara.deal` says (the shoe keeps the last-hand rule).

    >>> from baccara.cards import parse_cards
    >>> shoe = Shoe.stacked(parse_cards("2h 5s 3d Qc 4c 9d"))
    >>> deal_coup(shoe)
    Coup.parse('P:2h,3d,4c B:5s,Qc,9d')
    """
    shoe.start_coup()
    hands: dict[Side, list[Card]] = {Side.PLAYER: [], Side.BANKER: []}
    for first in FIRST_CARDS:
        hands[first].append(shoe.draw())
    p_two, b_two = hand_total(hands[Side.PLAYER]), hand_total(hands[Side.BANKER])
    third: int | None = None
    while (side := _next_card(p_two, b_two, third, len(hands[Side.BANKER]))) is not None:
        card = shoe.draw()
        hands[side].append(card)
        if side is Side.PLAYER:
            third = card.points
    shoe.finish_coup()
    return Coup(player=tuple(hands[Side.PLAYER]), banker=tuple(hands[Side.BANKER]))


@cache
def _next_card(p_two: int, b_two: int, third: int | None, banker_cards: int) -> Side | None:
    """Who gets the card after the first four (None: the coup is over), asked of the
    dealer (`baccara.deal.step`) once per cell: the two-card totals, the Player's third
    card if any, the Banker's card count. (A hand's later cards count through its
    total, so a stand-in ten for each hand's second card gives the same answer.)"""
    player = (p_two, 0) if third is None else (p_two, 0, third)
    banker = (b_two, 0) if banker_cards == 2 else (b_two, 0, 0)
    now = step(DealState(player=player, banker=banker))
    return now.side if isinstance(now, Deal) else None


def deal_shoe(shoe: Shoe) -> Iterator[Coup]:
    """Burn (if the shoe's settings say so) and deal every coup of ``shoe`` to its end.

    >>> from baccara.shoe import ShoeSettings
    >>> coups = list(deal_shoe(Shoe.shuffled(ShoeSettings(decks=8), seed=1)))
    >>> 70 < len(coups) < 90
    True
    """
    if shoe.position == 0:
        shoe.burn()
    while not shoe.finished:
        yield deal_coup(shoe)


def explain(coup: Coup) -> list[str]:
    """Explain a coup step by step, in plain words.

    >>> for line in explain(Coup.parse("P:2h,3d,4c B:5s,Qc,9d")):
    ...     print(line)
    Player's first two cards: 2h 3d, total 5. Banker's: 5s Qc, total 5.
    No natural: neither side has 8 or 9 on two cards.
    Player has 5: Player draws on 0-5. Player draws 4c: total 9.
    Banker has 5 and the Player's third card is a 4: Banker draws on 0-5 against a 4 or a 5. Banker draws 9d: total 4.
    Nine to the Player, four to the Banker: Player wins.
    """
    p2, b2 = coup.player[:2], coup.banker[:2]
    lines = [
        f"Player's first two cards: {_spaced(p2)}, total {hand_total(p2)}. "
        f"Banker's: {_spaced(b2)}, total {hand_total(b2)}."
    ]
    natural = rules.natural_decision(hand_total(p2), hand_total(b2))
    if natural is not None:
        lines.append(natural.reason)
    else:
        lines.append("No natural: neither side has 8 or 9 on two cards.")
        p_rule = rules.player_decision(hand_total(p2))
        line = p_rule.reason
        if p_rule.draws:
            line += f" Player draws {coup.player[2]}: total {coup.player_total}."
        lines.append(line)
        third = coup.player[2].points if len(coup.player) == 3 else None
        b_rule = rules.banker_decision(hand_total(b2), third)
        line = b_rule.reason
        if b_rule.draws:
            line += f" Banker draws {coup.banker[2]}: total {coup.banker_total}."
        lines.append(line)
    lines.append(coup.announcement())
    return lines


def _spaced(cards: Sequence[Card]) -> str:
    return " ".join(str(card) for card in cards)
