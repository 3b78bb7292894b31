"""The Chemin de Fer house tableau: bound cells and the free ("optional") cells.

Source: the classical French casino tableau of baccara chemin de fer, as
summarised by Ethier and Gámez (2013, Games 4(4):711-737, section 1); a card-room
rule card ("Chemin de fer: game must be played according to rules") agrees on the
free cells 3-9 and 5-4 but binds 4-A and 6-stood to stand (docs/skill_variants.md).
The punter draws on 0-4, stands on 6-7 and chooses on 5; naturals
(8, 9) are shown at once. The banker is bound in every cell but four, where the
choice is his: 3 against a 9, 4 against an ace, 5 against a 4, and 6 when the
punter stood. Everywhere else the tableau agrees with Punto Banco's (a test checks
it against `baccara.rules`).

>>> banker_cell(3, 9), banker_cell(3, 8), banker_cell(6, None)
(<Cell.FREE: 'O'>, <Cell.STAND: 'S'>, <Cell.FREE: 'O'>)
>>> punter_cell(5), punter_cell(4)
(<Cell.FREE: 'O'>, <Cell.DRAW: 'D'>)
>>> FREE_CELLS
((3, 9), (4, 1), (5, 4), (6, None))
"""

from __future__ import annotations

from enum import StrEnum

from . import rules

__all__ = [
    "BANKER_TABLE",
    "FREE_CELLS",
    "HOUSE_FREE_CHOICE",
    "PUNTER_TABLE",
    "Cell",
    "banker_cell",
    "house_banker_draws",
    "house_punter_draws",
    "punter_cell",
]


class Cell(StrEnum):
    """A tableau cell: bound to draw, bound to stand, or free (the French "au choix")."""

    DRAW = "D"
    STAND = "S"
    FREE = "O"


# Rows: the banker's two-card total 0-7. Columns: the punter's third card's points
# 0-9, then the last column for "the punter stood". Data transcribed from the
# printed tableau (source above); D draws, S stands, O free.
_BANKER_ROWS = (
    "DDDDDDDDDD D",
    "DDDDDDDDDD D",
    "DDDDDDDDDD D",
    "DDDDDDDDSO D",
    "SODDDDDDSS D",
    "SSSSODDDSS D",
    "SSSSSSDDSS O",
    "SSSSSSSSSS S",
)
BANKER_TABLE: tuple[tuple[Cell, ...], ...] = tuple(
    tuple(Cell(ch) for ch in row.replace(" ", "")) for row in _BANKER_ROWS
)
"""``BANKER_TABLE[total][column]``: column 0-9 is the punter's third card, 10 "stood"."""

PUNTER_TABLE: tuple[Cell, ...] = (Cell.DRAW,) * 5 + (Cell.FREE, Cell.STAND, Cell.STAND)
"""``PUNTER_TABLE[total]`` for two-card totals 0-7: draw on 0-4, free on 5, stand on 6-7."""

FREE_CELLS: tuple[tuple[int, int | None], ...] = tuple(
    (total, None if col == rules.NO_CARD else col)
    for total, row in enumerate(BANKER_TABLE)
    for col, cell in enumerate(row)
    if cell is Cell.FREE
)
"""The banker's free cells as (total, punter's third card or None)."""

HOUSE_FREE_CHOICE = "punto-banco"
"""How "playing by the rule" settles a free cell: as the Punto Banco tableau does."""


def _column(third: int | None) -> int:
    if third is None:
        return rules.NO_CARD
    if not 0 <= third <= 9:
        raise ValueError(f"bad punter third card value {third!r}: expected 0-9 or None")
    return third


def banker_cell(total: int, third: int | None) -> Cell:
    """The tableau cell for a banker ``total`` 0-7 against the punter's ``third`` card.

    >>> banker_cell(5, 4), banker_cell(2, 8), banker_cell(7, None)
    (<Cell.FREE: 'O'>, <Cell.DRAW: 'D'>, <Cell.STAND: 'S'>)
    """
    if not 0 <= total <= 7:
        raise ValueError(f"bad banker total {total!r}: the tableau covers 0-7")
    return BANKER_TABLE[total][_column(third)]


def punter_cell(total: int) -> Cell:
    """The tableau cell for a punter's two-card ``total`` 0-7."""
    if not 0 <= total <= 7:
        raise ValueError(f"bad punter total {total!r}: the tableau covers 0-7")
    return PUNTER_TABLE[total]


def house_banker_draws(total: int, third: int | None) -> bool:
    """Whether a banker playing "by the rule" draws (free cells as in Punto Banco).

    >>> house_banker_draws(3, 9), house_banker_draws(6, None), house_banker_draws(4, 2)
    (True, False, True)
    """
    cell = banker_cell(total, third)
    if cell is Cell.FREE:
        return rules.banker_draws(total, third)
    return cell is Cell.DRAW


def house_punter_draws(total: int) -> bool:
    """Whether a punter playing "by the rule" draws (on 5 he draws, as in Punto Banco).

    >>> [house_punter_draws(t) for t in range(8)]
    [True, True, True, True, True, True, False, False]
    """
    cell = punter_cell(total)
    if cell is Cell.FREE:
        return rules.player_draws(total)
    return cell is Cell.DRAW
