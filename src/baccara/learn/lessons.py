"""The Learn section's lessons: how the game works and its tableau, written out from
the rulebook (`baccara.rules`, `baccara.bets`: no rule or pay typed twice), an
interactive tableau, and the game's history as the seed documents tell it.

>>> [line for line in tableau_lines() if "an 8" in line]
["Player's third card an 8: the Banker draws on 0-2 and stands on 3-7."]
>>> decide("9h Kd", "5s Qc").player.reason
'Player has a natural 9: no more cards are drawn.'
>>> decide("2h 3d", "5s Qc", "4c").banker.reason
"Banker has 5 and the Player's third card is a 4: Banker draws on 0-5 against a 4 or a 5."
"""

from __future__ import annotations

from dataclasses import dataclass

from baccara import rules
from baccara.bets import BetKind, describe_pays
from baccara.cards import Card, CardError, hand_total, parse_cards
from baccara.variants import find_variant

__all__ = ["Decided", "TableauError", "decide", "history", "how_it_works", "tableau_lines"]


def how_it_works() -> list[str]:
    """How the game works, its numbers from the rulebook (`rules`, `bets`, `variants`)."""
    punto, tie9 = find_variant("punto-banco"), find_variant("tie-9")
    naturals = " or ".join(str(t) for t in range(10) if rules.is_natural(t))
    pays = {
        kind: describe_pays(kind, punto) for kind in (BetKind.PLAYER, BetKind.BANKER, BetKind.TIE)
    }
    example = parse_cards("8h 9d")
    return [
        "Before the deal, bets go on the Player, on the Banker or on a Tie. 'Player' and "
        "'Banker' are the names of the two hands, not of the customer and the house.",
        "Each hand gets two cards, dealt Player, Banker, Player, Banker. Tens and faces count "
        f"{Card.parse('Kh').points}, aces {Card.parse('Ah').points}, the other cards their "
        "number; a hand is worth the last digit of its total: "
        f"{example[0].points} and {example[1].points} make "
        f"{sum(c.points for c in example)}, a {hand_total(example)}.",
        f"A total of {naturals} on two cards is a natural: nobody draws and the higher total "
        "wins. Otherwise the tableau decides, for each hand, whether it takes a third card; "
        "nobody chooses in Punto Banco.",
        f"The hand closer to 9 wins; equal totals are a tie. Player bets pay "
        f"{pays[BetKind.PLAYER]}, Banker bets {pays[BetKind.BANKER]}, Tie bets "
        f"{pays[BetKind.TIE]} ({describe_pays(BetKind.TIE, tie9)} at some tables), and on a "
        "tie the Player and Banker bets stay on the layout.",
    ]


def history() -> list[str]:
    """The game's history as the seed documents tell it (its table sizes from `variants`)."""
    punto, mini = find_variant("punto-banco"), find_variant("mini")
    return [
        "Baccarat is believed to have come to France from Italy in the reign of Charles VIII "
        "(1483-1498); its name is the Italian for zero, the value of tens and faces and of "
        "the worst hand.",
        "Three games grew from it. In Baccarat Banque the bank is auctioned to whoever will "
        "risk the most and held for the whole shoe, against two tableaux. In Chemin de Fer "
        "the bank passes round the table like a train (the 'railway'): a banker keeps it "
        "while he wins, punters may call banco to play the whole bank alone, and both sides "
        "have a few choices of their own.",
        "Punto Banco, the North American form, is the casino's: the house banks every coup "
        "and the tableau decides every card, so the game is pure chance. It is the baccarat "
        "of the United States, Canada, Australia, Sweden, Finland and Macau, and of most "
        f"online casinos, with up to {punto.seats} players at a table "
        f"({mini.seats} at mini-baccarat); EZ Baccarat and Super 6 are other forms.",
    ]


def tableau_lines() -> list[str]:
    """The tableau in words, from the rulebook's own tables."""
    lines = [
        "A natural (8 or 9 on two cards) on either side: nobody draws.",
        "Player: draws on "
        + _totals([t for t in range(8) if rules.PLAYER_DRAWS[t]])
        + ", stands on "
        + _totals([t for t in range(8) if not rules.PLAYER_DRAWS[t]])
        + ".",
        "Player stood: the Banker draws on "
        + _totals([t for t in range(8) if rules.BANKER_DRAWS[t][rules.NO_CARD]])
        + " and stands on 6 or 7, as the Player does.",
    ]
    done = set()
    for third in (2, 3, 4, 5, 6, 7, 8, 9, 1, 0):
        limit = rules.BANKER_DRAW_LIMIT[third]
        if limit in done:
            continue
        done.add(limit)
        stands = _totals(list(range(limit + 1, 8)))
        lines.append(
            f"Player's third card {rules.card_group(third)}: the Banker draws on 0-{limit} "
            f"and stands on {stands}."
        )
    return lines


def _totals(totals: list[int]) -> str:
    return f"{totals[0]}-{totals[-1]}" if len(totals) > 1 else str(totals[0])


class TableauError(ValueError):
    """Cards that make no question for the tableau; the message says why."""


@dataclass(frozen=True, slots=True)
class Decided:
    """What the tableau says for two two-card hands (and the Player's third card)."""

    player_total: int
    banker_total: int
    player: rules.Decision
    banker: rules.Decision | None  # None: the Player draws and its third card is not given


def decide(player: str, banker: str, third: str | None = None) -> Decided:
    """The decisions for the Player's two cards, the Banker's two, and the Player's third
    card when it draws (cards as ``"9h Kd"``); bad input is a `TableauError`."""
    try:
        hands = [parse_cards(player), parse_cards(banker)]
        drawn = None if not third else parse_cards(third)
    except CardError as error:
        raise TableauError(str(error)) from None
    for side, cards in zip(("Player", "Banker"), hands, strict=True):
        if len(cards) != 2:
            raise TableauError(f"the {side} needs two cards to start, not {len(cards)}")
    p, b = (hand_total(cards) for cards in hands)
    natural = rules.natural_decision(p, b)
    if natural is not None:
        if drawn:
            raise TableauError(f"{natural.reason[:-1]}, so there is no third card")
        return Decided(p, b, natural, natural)
    decision = rules.player_decision(p)
    if not decision.draws:
        if drawn:
            raise TableauError(f"{decision.reason[:-1]}, so there is no third card")
        return Decided(p, b, decision, rules.banker_decision(b, None))
    if drawn is None:
        return Decided(p, b, decision, None)
    if len(drawn) != 1:
        raise TableauError(f"the Player draws one third card, not {len(drawn)}")
    card: Card = drawn[0]
    return Decided(p, b, decision, rules.banker_decision(b, card.points))
