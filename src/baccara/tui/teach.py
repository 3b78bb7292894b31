"""What the terminal Punto Banco game tells people: help, the primer, chips, edge notes.

The house edges come from the exact engine for the table's own variant and shoe,
computed once when the game starts (`TableEdges`); nothing here types a figure in.

>>> chips(12_650)
'100x1 25x1 1x1 0.25x2'
>>> from baccara.variants import find_variant
>>> edges = TableEdges.of(find_variant("punto-banco"), decks=8)
>>> edges.note(BetKind.BANKER)
'Banker pays 1:1 less 5% commission. House edge 1.06% (8 decks): the best bet at the table.'
"""

from __future__ import annotations

from dataclasses import dataclass

from baccara.bets import BetKind, bets_for, describe_pays
from baccara.exact.odds import full_shoe, odds
from baccara.money import format_money
from baccara.variants import Variant

__all__ = ["CHIPS", "HELP", "TableEdges", "chips", "primer"]

HELP = """\
Bets (amounts in whole units, e.g. 25 or 12.50), for the active seat:
  b 100  Banker   p 50  Player   t 10  Tie   pp 10 / bp 10  pairs
  bet KIND 10     any bet this table takes (bets: list them)
  undo  take back the last bet   rebet  last coup's bets   clear  take all back
deal (or d)  bots bet, the cards come out one at a time, bets are paid
seat N  switch to (or sit at) seat N    next  next human seat    leave  stand up
table  layout & stacks   roads  scoreboards   history [N]  last coups   limits
teach  teaching mode on/off   help  this text   q  save and quit (or Ctrl-D)"""

_PRIMER = """\
How baccarat works: bet on the Player, the Banker or a Tie before the deal. Each
hand gets two cards; a hand is worth its total's last digit (tens and faces count
0, aces 1). An 8 or 9 on two cards is a natural and ends the coup; otherwise the
tableau decides a third card for each side, never the players. The higher total
wins. {pays}; Player and Banker bets stay on the layout on a tie. Teaching mode
explains every draw and every payout."""


def primer(variant: Variant) -> str:
    """How the game works, with ``variant``'s own pay table for the main bets.

    >>> from baccara.variants import find_variant
    >>> primer(find_variant("tie-9")).split("wins. ")[1].split(";")[0]
    'Player pays 1:1, Banker 1:1 less 5% commission, Tie 9:1'
    """
    main = (BetKind.PLAYER, BetKind.BANKER, BetKind.TIE)
    pays = ", ".join(f"{k.label} {describe_pays(k, variant)}" for k in main)
    # one paragraph: the console wraps it at its own width
    return " ".join(_PRIMER.format(pays=pays.replace("Player ", "Player pays ", 1)).split())


CHIPS = (100_000, 50_000, 10_000, 2_500, 500, 100, 25, 1)
"""Chip values in minor units: 1,000, 500, 100, 25, 5, 1, 0.25 and 0.01."""


def chips(amount: int) -> str:
    """An amount as the fewest casino chips, largest first.

    >>> chips(150_000), chips(0)
    ('1,000x1 500x1', 'no chips')
    """
    parts = []
    for value in CHIPS:
        count, amount = divmod(amount, value)
        if count:
            parts.append(f"{format_money(value, trim=True)}x{count}")
    return " ".join(parts) or "no chips"


@dataclass(frozen=True, slots=True, kw_only=True)
class TableEdges:
    """Each bet's exact house edge at a table of ``variant`` with a full shoe of ``decks``."""

    variant: Variant
    decks: int
    edges: dict[str, float]

    @classmethod
    def of(cls, variant: Variant, *, decks: int) -> TableEdges:
        """The exact engine's edges for ``variant`` and ``decks`` (one composition)."""
        result = odds(full_shoe(decks), variant)
        return cls(
            variant=variant, decks=decks, edges={k: float(v) for k, v in result.edges.items()}
        )

    def note(self, kind: BetKind) -> str:
        """A teaching note: what ``kind`` pays and its house edge, and whether it is the best.

        >>> from fractions import Fraction
        >>> from baccara.variants import PUNTO_BANCO
        >>> three = PUNTO_BANCO.with_changes(banker_pays=Fraction(97, 100))
        >>> TableEdges.of(three, decks=8).note(BetKind.BANKER)
        'Banker pays 1:1 less 3% commission. House edge 0.141% (8 decks): the best bet at the table.'
        """
        note = f"{kind.label} pays {describe_pays(kind, self.variant)}."
        edge = self.edges.get(kind.value)
        if edge is None:
            return note
        percent = 100 * edge
        shown = f"{percent:.2f}" if abs(percent) >= 1 else f"{percent:.3f}"  # 3 figures
        note += f" House edge {shown}% ({self.decks} decks)"
        if edge < 0:
            return note + ": the player has the edge."
        best = min(self.edges[k.value] for k in bets_for(self.variant))
        return note + (": the best bet at the table." if edge == best else ".")
