"""The Chemin de Fer house tableau: bound cells and the free ("optional") cells.

Two named tableaux (`House`), equal in every bound cell to Punto Banco's (a test
checks each cell against `baccara.rules`). The punter draws on 0-4, stands on 6-7
and chooses on 5; naturals (8, 9) are shown at once.

- ``french`` (the default): the banker is free in four cells, 3 against a 9, 4
  against an ace, 5 against a 4 and 6 when the punter stood. We could not find a
  published copy of the French casino « règle » that states the last two; they
  are the set commonly attributed to it (docs/skill_variants.md, "Sources").
- ``scarne``: only 3 against a 9 and 5 against a 4 are free; 4 against an ace and
  6 against a standing punter stand. This is the card-room rule card "Chemin de
  fer: game must be played according to rules" (as in Scarne), and a Spanish
  casino guide prints the same table.

>>> banker_cell(3, 9), banker_cell(3, 8), banker_cell(6, None)
(<Cell.FREE: 'O'>, <Cell.STAND: 'S'>, <Cell.FREE: 'O'>)
>>> banker_cell(6, None, House.SCARNE)
<Cell.STAND: 'S'>
>>> punter_cell(5), punter_cell(4)
(<Cell.FREE: 'O'>, <Cell.DRAW: 'D'>)
>>> FREE_CELLS, free_cells("scarne")
(((3, 9), (4, 1), (5, 4), (6, None)), ((3, 9), (5, 4)))
"""

from __future__ import annotations

from enum import StrEnum
from functools import cache

from baccara import deal, rules
from baccara.skill.named import parse_named

__all__ = [
    "BANKER_TABLE",
    "BANKER_TABLES",
    "FREE_CELLS",
    "HOUSE_FREE_CHOICE",
    "PUNTER_FIVE_DEFAULT",
    "PUNTER_TABLE",
    "Cell",
    "House",
    "banker_cell",
    "chance_tableau",
    "free_cells",
    "house_banker_draws",
    "house_punter_draws",
    "punter_cell",
    "punter_refusal",
]


class Cell(StrEnum):
    """A tableau cell: bound to draw, bound to stand, or free (the French "au choix")."""

    DRAW = "D"
    STAND = "S"
    FREE = "O"


class House(StrEnum):
    """A named house tableau; the value is the ``--house`` name."""

    FRENCH = "french"
    SCARNE = "scarne"

    @classmethod
    def parse(cls, text: str) -> House:
        """Parse a tableau name.

        >>> House.parse("Scarne")
        <House.SCARNE: 'scarne'>
        """
        return parse_named(cls, text, what="house tableau")

    @property
    def punter_draws_on_five(self) -> bool:
        """The house's default for a punter on 5 who does not choose (in time): draw.

        >>> House.SCARNE.punter_draws_on_five
        True
        """
        return PUNTER_FIVE_DEFAULT[self]


# Rows: the banker's two-card total 0-7. Columns: the punter's third card's points
# 0-9, then the last column for "the punter stood". D draws, S stands, O free.
_BANKER_ROWS = {
    House.FRENCH: (
        "DDDDDDDDDD D",
        "DDDDDDDDDD D",
        "DDDDDDDDDD D",
        "DDDDDDDDSO D",
        "SODDDDDDSS D",
        "SSSSODDDSS D",
        "SSSSSSDDSS O",
        "SSSSSSSSSS S",
    ),
    House.SCARNE: (
        "DDDDDDDDDD D",
        "DDDDDDDDDD D",
        "DDDDDDDDDD D",
        "DDDDDDDDSO D",
        "SSDDDDDDSS D",
        "SSSSODDDSS D",
        "SSSSSSDDSS S",
        "SSSSSSSSSS S",
    ),
}
BANKER_TABLES: dict[House, tuple[tuple[Cell, ...], ...]] = {
    house: tuple(tuple(Cell(ch) for ch in row.replace(" ", "")) for row in rows)
    for house, rows in _BANKER_ROWS.items()
}
"""``BANKER_TABLES[house][total][column]``: column 0-9 the punter's third card, 10 "stood"."""

PUNTER_FIVE_DEFAULT: dict[House, bool] = {House.FRENCH: True, House.SCARNE: True}
"""Each house's default on the punter's free 5 (as Punto Banco: he draws)."""

BANKER_TABLE = BANKER_TABLES[House.FRENCH]
"""The default (``french``) tableau."""

PUNTER_TABLE: tuple[Cell, ...] = (Cell.DRAW,) * 5 + (Cell.FREE, Cell.STAND, Cell.STAND)
"""``PUNTER_TABLE[total]`` for two-card totals 0-7: draw on 0-4, free on 5, stand on 6-7."""


def free_cells(house: House | str = House.FRENCH) -> tuple[tuple[int, int | None], ...]:
    """The banker's free cells of ``house`` as (total, punter's third card or None)."""
    return tuple(
        (total, None if col == rules.NO_CARD else col)
        for total, row in enumerate(BANKER_TABLES[House.parse(house)])
        for col, cell in enumerate(row)
        if cell is Cell.FREE
    )


FREE_CELLS = free_cells(House.FRENCH)
"""The free cells of the default (``french``) tableau."""

HOUSE_FREE_CHOICE = "punto-banco"
"""How "playing by the rule" settles a free cell: as the Punto Banco tableau does."""


def _column(third: int | None) -> int:
    if third is None:
        return rules.NO_CARD
    if not 0 <= third <= 9:
        raise ValueError(f"bad punter third card value {third!r}: expected 0-9 or None")
    return third


def banker_cell(total: int, third: int | None, house: House | str = House.FRENCH) -> Cell:
    """The ``house`` tableau's cell for a banker ``total`` 0-7 against the punter's ``third``.

    >>> banker_cell(5, 4), banker_cell(2, 8), banker_cell(7, None)
    (<Cell.FREE: 'O'>, <Cell.DRAW: 'D'>, <Cell.STAND: 'S'>)
    >>> banker_cell(4, 1), banker_cell(4, 1, "scarne")
    (<Cell.FREE: 'O'>, <Cell.STAND: 'S'>)
    """
    if not 0 <= total <= 7:
        raise ValueError(f"bad banker total {total!r}: the tableau covers 0-7")
    return BANKER_TABLES[House.parse(house)][total][_column(third)]


def punter_cell(total: int) -> Cell:
    """The tableau cell for a punter's two-card ``total`` 0-7."""
    if not 0 <= total <= 7:
        raise ValueError(f"bad punter total {total!r}: the tableau covers 0-7")
    return PUNTER_TABLE[total]


def punter_refusal(total: int, draws: bool) -> str | None:
    """Why a punter on a two-card ``total`` may not draw (``draws``) or stand: the
    tableau's rule in words; None if he may. A punter who speaks in every coup (as
    real Chemin de Fer is played: "carte" or "non") is held to it in a bound cell.

    >>> punter_refusal(4, False)
    'the punter has 4: the tableau has him draw on 0-4 (he is free only on 5)'
    >>> punter_refusal(6, True), punter_refusal(5, False), punter_refusal(3, True)
    ('the punter has 6: the tableau has him stand on 6 or 7 (he is free only on 5)', None, None)
    """
    cell = punter_cell(total)
    if cell is Cell.FREE or (cell is Cell.DRAW) == draws:
        return None
    rule = "draw on 0-4" if cell is Cell.DRAW else "stand on 6 or 7"
    return f"the punter has {total}: the tableau has him {rule} (he is free only on 5)"


def house_banker_draws(total: int, third: int | None, house: House | str = House.FRENCH) -> bool:
    """Whether a banker playing "by the rule" draws (free cells as in Punto Banco).

    Both tableaux bind like Punto Banco, so the answer is the same for each.

    >>> house_banker_draws(3, 9), house_banker_draws(6, None), house_banker_draws(4, 2)
    (True, False, True)
    """
    cell = banker_cell(total, third, house)
    if cell is Cell.FREE:
        return rules.banker_draws(total, third)
    return cell is Cell.DRAW


def house_punter_draws(total: int, house: House | str = House.FRENCH) -> bool:
    """Whether a punter playing "by the rule" draws (on 5: the house's default, to draw).

    >>> [house_punter_draws(t) for t in range(8)]
    [True, True, True, True, True, True, False, False]
    """
    cell = punter_cell(total)
    if cell is Cell.FREE:
        return House.parse(house).punter_draws_on_five
    return cell is Cell.DRAW


def chance_tableau(
    house: House | str = House.FRENCH, *, banker_free: bool = False
) -> deal.DrawingRules:
    """The ``house`` tableau for the dealer's chance model: free cells are None; with
    ``banker_free`` the banker chooses in every cell (as in the papers' game).

    >>> table = chance_tableau()
    >>> table.player[5], table.banker[3][9], table.banker[3][8], table.banker[6][rules.NO_CARD]
    (None, None, False, None)
    >>> chance_tableau(banker_free=True).banker[3][8], chance_tableau(banker_free=True).player[4]
    (None, True)
    """
    return _chance_tableau(House.parse(house), banker_free)


@cache
def _chance_tableau(house: House, banker_free: bool) -> deal.DrawingRules:
    def rule(cell: Cell) -> bool | None:
        return None if cell is Cell.FREE or banker_free else cell is Cell.DRAW

    return deal.DrawingRules.from_rows(
        player=[None if cell is Cell.FREE else cell is Cell.DRAW for cell in PUNTER_TABLE],
        banker=[[rule(cell) for cell in row] for row in BANKER_TABLES[house]],
    )
