"""Variants of the game as data: pay tables and table sizes in a registry with aliases.

House differences are fields, never ``if variant == ...`` elsewhere:

>>> find_variant("punto-2000").name
'super6'
>>> find_variant("Punto Banco").banker_pays
Fraction(19, 20)
>>> find_variant("chemmy-x")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
baccara.variants.VariantError: unknown variant 'chemmy-x': choose from punto-banco, tie-9, commission-4, super6, ez, mini...
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from fractions import Fraction

__all__ = ["VARIANTS", "Variant", "VariantError", "find_variant", "register_variant"]

_COMMON_SIDE_BETS = (
    "player_pair",
    "banker_pair",
    "either_pair",
    "perfect_pair",
    "dragon_bonus_player",
    "dragon_bonus_banker",
    "big",
    "small",
    "lucky_6",
    "banker_natural_9",
    "banker_natural_8",
)


class VariantError(ValueError):
    """An unknown variant name."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Variant:
    """The rules of one game: what each main bet pays and how the table is laid out.

    ``banker_pays`` is the Banker bet's win per unit (0.95 with a 5% commission);
    ``banker_six_pays`` replaces it when the Banker wins with 6 (Super 6: 1/2);
    ``banker_three_card_seven_pushes`` makes a Banker win with three cards totalling
    7 a push (EZ Baccarat).
    """

    name: str
    title: str
    description: str
    aliases: tuple[str, ...] = ()
    banker_pays: Fraction = Fraction(19, 20)
    banker_six_pays: Fraction | None = None
    banker_three_card_seven_pushes: bool = False
    tie_pays: int = 8
    decks: int = 8
    seats: int = 14
    side_bets: tuple[str, ...] = field(default=_COMMON_SIDE_BETS)

    @property
    def commission(self) -> Fraction:
        """The commission on a winning Banker bet (0 if the Banker pays even money)."""
        return 1 - self.banker_pays

    def with_changes(self, **changes: object) -> Variant:
        """A copy with some fields changed (a house's own rules)."""
        return replace(self, **changes)  # type: ignore[arg-type]


VARIANTS: dict[str, Variant] = {}
_ALIASES: dict[str, str] = {}


def _key(name: str) -> str:
    return "".join(ch for ch in name.lower() if ch.isalnum())


def register_variant(variant: Variant) -> Variant:
    """Add ``variant`` to the registry under its name and aliases."""
    VARIANTS[variant.name] = variant
    for alias in (variant.name, *variant.aliases):
        _ALIASES[_key(alias)] = variant.name
    return variant


def find_variant(name: str) -> Variant:
    """The variant called ``name`` or one of its aliases (case, spaces and dashes ignored)."""
    key = _ALIASES.get(_key(name))
    if key is None:
        choices = ", ".join(VARIANTS)
        raise VariantError(f"unknown variant {name!r}: choose from {choices}")
    return VARIANTS[key]


PUNTO_BANCO = register_variant(
    Variant(
        name="punto-banco",
        title="Punto Banco",
        description="The casino game: Player 1:1, Banker 0.95:1 (5% commission), Tie 8:1.",
        aliases=("baccarat", "standard", "american", "north-american"),
    )
)
register_variant(
    PUNTO_BANCO.with_changes(
        name="tie-9",
        title="Punto Banco, Tie 9:1",
        description="Punto Banco with the Tie paying 9:1.",
        aliases=("tie-9-1", "tie9"),
        tie_pays=9,
    )
)
register_variant(
    PUNTO_BANCO.with_changes(
        name="commission-4",
        title="Punto Banco, 4% commission",
        description="Punto Banco with a 4% commission: Banker pays 0.96:1.",
        aliases=("4-percent", "commission4"),
        banker_pays=Fraction(24, 25),
    )
)
register_variant(
    PUNTO_BANCO.with_changes(
        name="super6",
        title="Super 6 (no commission)",
        description="No commission: Banker pays 1:1, but a Banker win with 6 pays 1:2.",
        aliases=("super-6", "punto-2000", "no-commission", "nocommission"),
        banker_pays=Fraction(1),
        banker_six_pays=Fraction(1, 2),
    )
)
register_variant(
    PUNTO_BANCO.with_changes(
        name="ez",
        title="EZ Baccarat",
        description=(
            "No commission: Banker pays 1:1, but a Banker win with a three-card 7 pushes. "
            "Side bets Dragon 7 (40:1) and Panda 8 (25:1)."
        ),
        aliases=("ez-baccarat", "easy"),
        banker_pays=Fraction(1),
        banker_three_card_seven_pushes=True,
        side_bets=(*_COMMON_SIDE_BETS, "dragon_7", "panda_8"),
    )
)
register_variant(
    PUNTO_BANCO.with_changes(
        name="mini",
        title="Mini-Baccarat",
        description="Punto Banco's rules and pay table at a small table of 7 seats.",
        aliases=("mini-baccarat", "minibaccarat"),
        seats=7,
    )
)

# The skill variants (rules and table in `baccara.skill.chemin` and `baccara.skill.banque`).
register_variant(
    Variant(
        name="chemin-de-fer",
        title="Chemin de Fer",
        description=(
            "Six decks; the bank passes round the table; the punter chooses on 5, the banker "
            "in the tableau's free cells; 5% commission on the banker's wins."
        ),
        aliases=("chemmy", "chemin", "chemin-de-fer-baccara"),
        decks=6,
        seats=12,
        side_bets=(),
    )
)
register_variant(
    Variant(
        name="banque",
        title="Baccarat Banque",
        description=(
            "Three decks; the bank is auctioned and held for the shoe; the banker plays one hand "
            "against two tableaux and chooses knowing both; no commission."
        ),
        aliases=("baccarat-banque", "baccara-banque", "a-deux-tableaux"),
        banker_pays=Fraction(1),
        decks=3,
        seats=12,
        side_bets=(),
    )
)
