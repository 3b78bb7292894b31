"""Variants of the game as data: game family, drawing rules, money model, pay table.

A variant names its game `Family`: the house-banked Punto Banco family (Punto Banco,
its 4% commission, Tie 9:1, Super 6, EZ and mini forms), or one of the players' games,
Chemin de Fer and Baccarat Banque. The family carries the drawing rules (`Drawing`:
Punto Banco's tableau, bound in every cell, or a tableau with free cells where the
players choose) and the money model (`Banking`: bets against the house on a pay table,
or stakes against a player's bank with the house taking a commission of the banker's
wins). House differences are fields, never ``if variant == ...`` elsewhere; an engine
or front end that plays only some families says so with `require_family`:

>>> find_variant("punto-2000").name
'super6'
>>> find_variant("Punto Banco").banker_pays
Fraction(19, 20)
>>> find_variant("chemmy-x")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
baccara.variants.VariantError: unknown variant 'chemmy-x': choose from punto-banco, tie-9, commission-4, super6, ez, mini...
>>> chemmy = find_variant("chemmy")
>>> chemmy.family, chemmy.drawing, chemmy.banking, chemmy.commission
(find_family('chemin-de-fer'), <Drawing.HOUSE_TABLEAU: 'house-tableau'>, <Banking.PLAYERS: 'players'>, Fraction(1, 20))
>>> require_family(chemmy, Family.PUNTO_BANCO, user="the exact engine")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
baccara.variants.FamilyError: chemin-de-fer is a players' game (Chemin de Fer); the exact engine covers the house-banked games: punto-banco, tie-9, commission-4, super6, ez, mini
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from enum import StrEnum
from fractions import Fraction
from typing import ClassVar

__all__ = [
    "FAMILIES",
    "VARIANTS",
    "Banking",
    "Drawing",
    "Family",
    "FamilyError",
    "Variant",
    "VariantError",
    "find_family",
    "find_variant",
    "register_family",
    "register_variant",
    "require_family",
    "variants_of",
]

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


class FamilyError(ValueError):
    """A variant of a game family that an engine or front end does not play."""


class Drawing(StrEnum):
    """Who decides a third card; the value is the name.

    ``PUNTO_BANCO``: `baccara.rules`, bound in every cell. ``HOUSE_TABLEAU``: the punter
    chooses on 5 and the banker in the free cells of a house tableau
    (`baccara.skill.tableaux`, French by default), bound elsewhere. ``BANKER_FREE``: the
    punters choose on 5 and the banker in every cell, knowing both tableaux (Banque).
    """

    PUNTO_BANCO = "punto-banco"
    HOUSE_TABLEAU = "house-tableau"
    BANKER_FREE = "banker-free"


class Banking(StrEnum):
    """Who holds the bank; the value is the name.

    ``HOUSE``: the players bet against the house, which pays by the variant's pay table.
    ``PLAYERS``: a player holds the bank and the others stake against it; the house takes
    the variant's `Variant.commission` of the banker's wins.
    """

    HOUSE = "house"
    PLAYERS = "players"


class Family(str):
    """A game: its title, drawing rules and money model come with it; the value (the
    string itself, as an enum's) is its name.

    The families are registered (`register_family`, `FAMILIES`), as the variants are:
    a new game adds its family and its variants, and the registries of each face
    (`baccara.skill.games`, the server's tables, the terminal's games) key their parts
    by it.

    >>> Family.BANQUE.label, Family.BANQUE.drawing, Family.BANQUE.banking
    ('Baccarat Banque', <Drawing.BANKER_FREE: 'banker-free'>, <Banking.PLAYERS: 'players'>)
    >>> Family.BANQUE, Family.BANQUE.value, find_family("banque") is Family.BANQUE
    (find_family('banque'), 'banque', True)
    """

    label: str
    drawing: Drawing
    banking: Banking

    PUNTO_BANCO: ClassVar[Family]
    CHEMIN_DE_FER: ClassVar[Family]
    BANQUE: ClassVar[Family]

    def __new__(cls, value: str, *, label: str, drawing: Drawing, banking: Banking) -> Family:
        family = super().__new__(cls, value)
        for name, given in (("label", label), ("drawing", drawing), ("banking", banking)):
            object.__setattr__(family, name, given)
        return family

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"a game family is frozen: cannot set {name}")

    @property
    def value(self) -> str:
        """The family's name."""
        return str.__str__(self)

    def __repr__(self) -> str:
        return f"find_family({self.value!r})"

    def __reduce__(self) -> tuple[Callable[[str], Family], tuple[str]]:
        """Pickled by name: the registered family in the process that loads it.

        >>> import pickle
        >>> pickle.loads(pickle.dumps(Family.BANQUE)) is Family.BANQUE
        True
        """
        return find_family, (self.value,)


FAMILIES: dict[str, Family] = {}
"""Every game family, by its name (`Family.value`), in registration order."""


def register_family(family: Family) -> Family:
    """Add ``family`` to `FAMILIES` under its name."""
    FAMILIES[family.value] = family
    return family


def find_family(name: str) -> Family:
    """The family called ``name``; `FamilyError` naming the families otherwise.

    >>> find_family("pai-gow")
    Traceback (most recent call last):
    ...
    baccara.variants.FamilyError: unknown game family 'pai-gow': punto-banco, chemin-de-fer, banque
    """
    found = FAMILIES.get(name)
    if found is None:
        raise FamilyError(f"unknown game family {name!r}: {', '.join(FAMILIES)}")
    return found


Family.PUNTO_BANCO = register_family(
    Family(
        "punto-banco",
        label="Punto Banco",
        drawing=Drawing.PUNTO_BANCO,
        banking=Banking.HOUSE,
    )
)
Family.CHEMIN_DE_FER = register_family(
    Family(
        "chemin-de-fer",
        label="Chemin de Fer",
        drawing=Drawing.HOUSE_TABLEAU,
        banking=Banking.PLAYERS,
    )
)
Family.BANQUE = register_family(
    Family(
        "banque",
        label="Baccarat Banque",
        drawing=Drawing.BANKER_FREE,
        banking=Banking.PLAYERS,
    )
)


@dataclass(frozen=True, slots=True, kw_only=True)
class Variant:
    """The rules of one game: its family, what each main bet pays, the table's size.

    ``family`` gives the drawing rules and the money model (`Family`). In the
    house-banked games ``banker_pays`` is the Banker bet's win per unit (0.95 with a 5%
    commission); ``banker_six_pays`` replaces it when the Banker wins with 6 (Super 6:
    1/2); ``banker_three_card_seven_pushes`` makes a Banker win with three cards
    totalling 7 a push (EZ Baccarat). In the players' games the banker keeps
    ``banker_pays`` of each unit he wins, the rest being the house's commission, and the
    pay-table fields (tie, side bets) do not apply.
    """

    name: str
    title: str
    description: str
    family: Family = Family.PUNTO_BANCO
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
        """The commission on a Banker win: a winning Banker bet's, or the players' banker's."""
        return 1 - self.banker_pays

    @property
    def drawing(self) -> Drawing:
        """Who decides a third card (from the family)."""
        return self.family.drawing

    @property
    def banking(self) -> Banking:
        """Who holds the bank (from the family)."""
        return self.family.banking

    @property
    def house_banked(self) -> bool:
        """Whether the players bet against the house on a pay table."""
        return self.family.banking is Banking.HOUSE

    @property
    def money_model(self) -> str:
        """The money model in one sentence.

        >>> find_variant("banque").money_model
        "Player-banked: the punters' stakes are against the banker's bank; the house takes no commission."
        """
        if self.house_banked:
            return "House-banked: every bet is against the house, paid by the pay table."
        taken = (
            f"{float(self.commission * 100):g}% of the banker's wins"
            if self.commission
            else "no commission"
        )
        return (
            "Player-banked: the punters' stakes are against the banker's bank; "
            f"the house takes {taken}."
        )

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


def variants_of(families: Iterable[Family]) -> tuple[Variant, ...]:
    """The registered variants of ``families``, in registration order.

    >>> [v.name for v in variants_of([Family.BANQUE, Family.CHEMIN_DE_FER])]
    ['chemin-de-fer', 'banque']
    """
    wanted = set(families)
    return tuple(v for v in VARIANTS.values() if v.family in wanted)


def _describe_families(families: tuple[Family, ...]) -> str:
    names = ", ".join(v.name for v in variants_of(families))
    if all(f.banking is Banking.HOUSE for f in families):
        return f"the house-banked games: {names}"
    return " and ".join(f.label for f in families) + f": {names}"


def require_family(variant: Variant, families: Family | Iterable[Family], *, user: str) -> Variant:
    """``variant`` if ``user`` (an engine, a command) plays its family; else `FamilyError`.

    The message names the variant's game and what ``user`` covers, in one line:

    >>> require_family(PUNTO_BANCO, Family.BANQUE, user="the Banque table")
    Traceback (most recent call last):
    ...
    baccara.variants.FamilyError: punto-banco is a house-banked game (Punto Banco); the Banque table covers Baccarat Banque: banque
    """
    wanted = (families,) if isinstance(families, Family) else tuple(families)
    if variant.family in wanted:
        return variant
    kind = "a house-banked game" if variant.house_banked else "a players' game"
    raise FamilyError(
        f"{variant.name} is {kind} ({variant.family.label}); "
        f"{user} covers {_describe_families(wanted)}"
    )


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

# The players' games (tableaux, tables and solvers in `baccara.skill`).
register_variant(
    Variant(
        name="chemin-de-fer",
        title="Chemin de Fer",
        description=(
            "Six decks; the bank passes round the table; the punter chooses on 5, the banker "
            "in the tableau's free cells; 5% commission on the banker's wins."
        ),
        family=Family.CHEMIN_DE_FER,
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
        family=Family.BANQUE,
        aliases=("baccarat-banque", "baccara-banque", "a-deux-tableaux"),
        banker_pays=Fraction(1),
        decks=3,
        seats=12,
        side_bets=(),
    )
)
