"""The five roads (scoreboards): Bead Plate, Big Road, Big Eye Boy, Small Road, Cockroach Pig.

Build them from results or coups, in one go or one coup at a time (constant work per
coup). The convention, with its sources and the vendors' differences, is in
``docs/roads.md``.

>>> roads = Roads.from_results("BBPPPBPPBBBBBBBBPBBPPTPBB")
>>> roads.columns
(2, 3, 1, 2, 8, 1, 2, 3, 2)
>>> colors(roads.big_eye_boy)
'RBBBBBRBRRRRRBBBBRBBR'
>>> print(roads.big_road_grid())
BPBPBPBPB
BP.PB.BPB
.P..B..P.
....B....
....B....
....BBB..
>>> roads.predictions()[Side.BANKER]
Prediction(big_eye_boy=<Color.RED: 'red'>, small_road=<Color.BLUE: 'blue'>, cockroach_pig=<Color.RED: 'red'>)
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from baccara.coup import Coup, Result, Side

__all__ = [
    "DERIVED",
    "BeadCell",
    "BigRoadCell",
    "Color",
    "Mark",
    "Prediction",
    "Roads",
    "RoadsError",
    "Statistics",
    "Update",
    "colors",
    "derived_color",
    "parse_results",
]

#: The derived roads and the column offset ``k`` each compares with.
DERIVED: tuple[tuple[str, int], ...] = (("big_eye_boy", 1), ("small_road", 2), ("cockroach_pig", 3))


class RoadsError(ValueError):
    """A bad road input: an unknown result letter, or a bad number of rows."""


class Color(StrEnum):
    """A derived road's mark: red "the road repeats its structure", blue "it broke"."""

    RED = "red"
    BLUE = "blue"

    @property
    def letter(self) -> str:
        """``'R'`` or ``'B'``, as in the reference strings."""
        return "R" if self is Color.RED else "B"


@dataclass(frozen=True, slots=True, kw_only=True)
class BeadCell:
    """One coup on the Bead Plate (ties included)."""

    col: int
    row: int
    result: Result
    banker_pair: bool = False
    player_pair: bool = False
    natural: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class BigRoadCell:
    """One Banker or Player win on the Big Road.

    ``column`` is the logical column (the streak, counted from 0) and ``depth`` the
    entry's position in it; ``col``/``row`` are where it is drawn. ``ties`` counts the
    ties that came after it (leading ties are counted apart, in `Roads.leading_ties`).
    """

    col: int
    row: int
    side: Side
    ties: int = 0
    banker_pair: bool = False
    player_pair: bool = False
    natural: bool = False
    column: int = 0
    depth: int = 0


@dataclass(frozen=True, slots=True, kw_only=True)
class Mark:
    """One mark on a derived road, drawn at ``col``/``row``."""

    col: int
    row: int
    color: Color


@dataclass(frozen=True, slots=True, kw_only=True)
class Prediction:
    """The mark each derived road would add (None: no mark)."""

    big_eye_boy: Color | None
    small_road: Color | None
    cockroach_pig: Color | None

    def to_json(self) -> dict[str, str | None]:
        """``{"big_eye_boy": "red", ...}`` with None for no mark."""
        return {name: None if c is None else c.value for name, c in self._items()}

    def _items(self) -> tuple[tuple[str, Color | None], ...]:
        return (
            ("big_eye_boy", self.big_eye_boy),
            ("small_road", self.small_road),
            ("cockroach_pig", self.cockroach_pig),
        )


@dataclass(frozen=True, slots=True, kw_only=True)
class Update:
    """What one `Roads.add` changed.

    ``big_road`` is the new cell, or the cell whose tie count went up, or None for a
    leading tie; ``new_cell`` tells the first case from the others.
    """

    result: Result
    bead: BeadCell
    big_road: BigRoadCell | None
    new_cell: bool
    big_eye_boy: Mark | None = None
    small_road: Mark | None = None
    cockroach_pig: Mark | None = None

    @property
    def marks(self) -> dict[str, Mark | None]:
        """The derived roads' new marks by road name."""
        return {
            "big_eye_boy": self.big_eye_boy,
            "small_road": self.small_road,
            "cockroach_pig": self.cockroach_pig,
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class Statistics:
    """Counts by result, pairs, naturals, and the streaks (ties do not break a streak)."""

    coups: int
    banker: int
    player: int
    tie: int
    banker_pairs: int
    player_pairs: int
    naturals: int
    longest_banker: int
    longest_player: int
    current_side: Side | None
    current_length: int

    def to_json(self) -> dict[str, Any]:
        """Plain JSON: counts and streaks."""
        return {
            "coups": self.coups,
            "banker": self.banker,
            "player": self.player,
            "tie": self.tie,
            "banker_pairs": self.banker_pairs,
            "player_pairs": self.player_pairs,
            "naturals": self.naturals,
            "longest_streak": {"banker": self.longest_banker, "player": self.longest_player},
            "current_streak": {
                "side": None if self.current_side is None else self.current_side.value,
                "length": self.current_length,
            },
        }


def parse_results(text: str) -> list[Result]:
    """Parse a string of ``B``, ``P``, ``T``; case and whitespace are ignored.

    >>> "".join(parse_results("bb p T"))
    'BBPT'
    >>> parse_results("")
    []
    >>> parse_results("BPX")
    Traceback (most recent call last):
    ...
    baccara.roads.board.RoadsError: bad result 'X' at position 3 in 'BPX': expected B, P or T
    """
    results: list[Result] = []
    for index, char in enumerate(text, start=1):
        if char.isspace():
            continue
        try:
            results.append(Result(char.upper()))
        except ValueError:
            raise RoadsError(
                f"bad result {char!r} at position {index} in {text!r}: expected B, P or T"
            ) from None
    return results


def derived_color(lengths: Sequence[int], column: int, depth: int, k: int) -> Color | None:
    """The mark a derived road adds for a Big Road entry (None: no mark).

    ``lengths`` holds the logical column lengths *before* the entry; the entry is at
    logical ``column``, position ``depth`` in it; ``k`` is 1, 2 or 3 (Big Eye Boy,
    Small Road, Cockroach Pig). The three-case rule of ``docs/roads.md``:

    >>> derived_color([2], 1, 0, 1) is None          # too early for Big Eye Boy
    True
    >>> derived_color([2, 3], 2, 0, 1)               # new column: 3 != 2
    <Color.BLUE: 'blue'>
    >>> derived_color([2, 1], 1, 1, 1)               # column 0 has a cell in row 1
    <Color.RED: 'red'>
    >>> derived_color([2, 2], 1, 2, 1)               # column 0 ended one row above
    <Color.BLUE: 'blue'>
    >>> derived_color([2, 3], 1, 3, 1)               # straight drop
    <Color.RED: 'red'>
    """
    if depth == 0:
        if column - 1 - k < 0:
            return None
        return Color.RED if lengths[column - 1] == lengths[column - 1 - k] else Color.BLUE
    if column - k < 0:
        return None
    compared = lengths[column - k]
    return Color.BLUE if compared == depth else Color.RED


def colors(marks: Iterable[Mark]) -> str:
    """A derived road as a string of ``R`` and ``B``, in the order the marks were made."""
    return "".join(mark.color.letter for mark in marks)


class _Grid:
    """Places streaks of equal keys on a grid: down, then right (dragon tail).

    A new streak starts at row 0 in the column right of where the previous streak
    started (or, when a tail filled that top cell, right of the last top cell).
    """

    __slots__ = ("key", "occupied", "pos", "rows", "top_end", "turned", "width")

    def __init__(self, rows: int) -> None:
        self.rows = rows
        self.occupied: set[tuple[int, int]] = set()
        self.key: object = None
        self.pos = (-1, 0)
        self.top_end = -1  # the rightmost occupied column of row 0
        self.turned = False
        self.width = 0

    def copy(self) -> _Grid:
        other = copy.copy(self)
        other.occupied = self.occupied.copy()
        return other

    def place(self, key: object) -> tuple[int, int]:
        if self.key is None or key != self.key:
            col, row = self.top_end + 1, 0
            self.key, self.turned = key, False
        else:
            col, row = self.pos
            if not self.turned and row + 1 < self.rows and (col, row + 1) not in self.occupied:
                row += 1
            else:
                col += 1
                self.turned = True
        self.pos = (col, row)
        self.occupied.add(self.pos)
        if row == 0:
            self.top_end = col
        self.width = max(self.width, col + 1)
        return self.pos


class Roads:
    """The five roads of a shoe, updated one coup at a time.

    >>> roads = Roads()
    >>> update = roads.add(Coup.parse("P:9h,9d B:5s,Qc"))
    >>> update.big_road
    BigRoadCell(col=0, row=0, side=<Side.PLAYER: 'P'>, ties=0, banker_pair=False, player_pair=True, natural=True, column=0, depth=0)
    >>> roads.add(Result.TIE).big_road.ties
    1
    >>> roads.statistics().tie
    1
    """

    def __init__(self, rows: int = 6) -> None:
        if isinstance(rows, bool) or not isinstance(rows, int) or rows < 1:
            raise RoadsError(f"bad number of rows {rows!r}: expected a whole number >= 1")
        self.rows = rows
        self._bead: list[BeadCell] = []
        self._big: list[BigRoadCell] = []
        self._lengths: list[int] = []
        self._big_grid = _Grid(rows)
        self._marks: dict[str, list[Mark]] = {name: [] for name, _ in DERIVED}
        self._grids = {name: _Grid(rows) for name, _ in DERIVED}
        self.leading_ties = 0
        self._counts = dict.fromkeys(Result, 0)
        self._banker_pairs = 0
        self._player_pairs = 0
        self._naturals = 0
        self._longest = {Side.BANKER: 0, Side.PLAYER: 0}

    # -- building -----------------------------------------------------------------

    @classmethod
    def from_results(cls, results: Iterable[Result | str] | str, rows: int = 6) -> Roads:
        """Build the roads from results (or a string of ``B``/``P``/``T``)."""
        roads = cls(rows)
        items = parse_results(results) if isinstance(results, str) else results
        for item in items:
            roads.add(item)
        return roads

    @classmethod
    def from_coups(cls, coups: Iterable[Coup], rows: int = 6) -> Roads:
        """Build the roads from coups (pairs and naturals then show)."""
        roads = cls(rows)
        for coup in coups:
            roads.add(coup)
        return roads

    def add(self, item: Coup | Result | str) -> Update:
        """Add one coup or result; return what changed. Constant work."""
        if isinstance(item, Coup):
            result = item.winner
            bp, pp, nat = item.banker_pair, item.player_pair, item.natural
        else:
            result = item if isinstance(item, Result) else _one_result(item)
            bp = pp = nat = False
        n = len(self._bead)
        bead = BeadCell(
            col=n // self.rows,
            row=n % self.rows,
            result=result,
            banker_pair=bp,
            player_pair=pp,
            natural=nat,
        )
        self._bead.append(bead)
        self._counts[result] += 1
        self._banker_pairs += bp
        self._player_pairs += pp
        self._naturals += nat
        if result is Result.TIE:
            if not self._big:
                self.leading_ties += 1
                return Update(result=result, bead=bead, big_road=None, new_cell=False)
            last = replace(self._big[-1], ties=self._big[-1].ties + 1)
            self._big[-1] = last
            return Update(result=result, bead=bead, big_road=last, new_cell=False)
        side = Side(result.value)
        if self._big and self._big[-1].side is side:
            column, depth = len(self._lengths) - 1, self._lengths[-1]
        else:
            column, depth = len(self._lengths), 0
        new_marks: dict[str, Mark | None] = {}
        for name, k in DERIVED:
            color = derived_color(self._lengths, column, depth, k)
            if color is None:
                new_marks[name] = None
                continue
            col, row = self._grids[name].place(color)
            mark = Mark(col=col, row=row, color=color)
            self._marks[name].append(mark)
            new_marks[name] = mark
        if depth == 0:
            self._lengths.append(1)
        else:
            self._lengths[-1] += 1
        self._longest[side] = max(self._longest[side], self._lengths[-1])
        col, row = self._big_grid.place(side)
        cell = BigRoadCell(
            col=col,
            row=row,
            side=side,
            banker_pair=bp,
            player_pair=pp,
            natural=nat,
            column=column,
            depth=depth,
        )
        self._big.append(cell)
        return Update(
            result=result,
            bead=bead,
            big_road=cell,
            new_cell=True,
            big_eye_boy=new_marks["big_eye_boy"],
            small_road=new_marks["small_road"],
            cockroach_pig=new_marks["cockroach_pig"],
        )

    def copy(self) -> Roads:
        """An independent copy (to try a result without changing these roads).

        >>> roads = Roads.from_results("BP")
        >>> trial = roads.copy()
        >>> _ = trial.add(Result.BANKER)
        >>> len(roads), len(trial)
        (2, 3)
        """
        other = copy.copy(self)  # cells are frozen: copying the containers is enough
        other._bead = self._bead.copy()
        other._big = self._big.copy()
        other._lengths = self._lengths.copy()
        other._big_grid = self._big_grid.copy()
        other._marks = {name: marks.copy() for name, marks in self._marks.items()}
        other._grids = {name: grid.copy() for name, grid in self._grids.items()}
        other._counts = self._counts.copy()
        other._longest = self._longest.copy()
        return other

    # -- reading ------------------------------------------------------------------

    def __len__(self) -> int:
        return len(self._bead)

    @property
    def bead_plate(self) -> tuple[BeadCell, ...]:
        """Every coup, ties included, top to bottom then the next column."""
        return tuple(self._bead)

    @property
    def big_road(self) -> tuple[BigRoadCell, ...]:
        """One cell per Banker or Player win, in order."""
        return tuple(self._big)

    @property
    def columns(self) -> tuple[int, ...]:
        """The lengths of the Big Road's logical columns (streaks)."""
        return tuple(self._lengths)

    @property
    def big_eye_boy(self) -> tuple[Mark, ...]:
        """Big Eye Boy (compares with the column 1 to the left)."""
        return tuple(self._marks["big_eye_boy"])

    @property
    def small_road(self) -> tuple[Mark, ...]:
        """Small Road (compares with the column 2 to the left)."""
        return tuple(self._marks["small_road"])

    @property
    def cockroach_pig(self) -> tuple[Mark, ...]:
        """Cockroach Pig (compares with the column 3 to the left)."""
        return tuple(self._marks["cockroach_pig"])

    def derived(self, name: str) -> tuple[Mark, ...]:
        """A derived road by name: ``big_eye_boy``, ``small_road`` or ``cockroach_pig``."""
        if name not in self._marks:
            raise RoadsError(f"unknown road {name!r}: expected one of {', '.join(self._marks)}")
        return tuple(self._marks[name])

    def width(self, name: str) -> int:
        """How many columns a road uses (``bead_plate``, ``big_road`` or a derived road)."""
        if name == "bead_plate":
            return -(-len(self._bead) // self.rows)
        if name == "big_road":
            return self._big_grid.width
        self.derived(name)
        return self._grids[name].width

    def predictions(self) -> dict[Side, Prediction]:
        """Ask road: the mark each derived road would add if Banker, or Player, came next."""
        answer: dict[Side, Prediction] = {}
        for side in (Side.BANKER, Side.PLAYER):
            if not self._big:
                answer[side] = Prediction(big_eye_boy=None, small_road=None, cockroach_pig=None)
                continue
            if self._big[-1].side is side:
                column, depth = len(self._lengths) - 1, self._lengths[-1]
            else:
                column, depth = len(self._lengths), 0
            found = [derived_color(self._lengths, column, depth, k) for _, k in DERIVED]
            answer[side] = Prediction(
                big_eye_boy=found[0], small_road=found[1], cockroach_pig=found[2]
            )
        return answer

    def statistics(self) -> Statistics:
        """Counts by result, pairs, naturals, longest and current streaks."""
        current = self._big[-1].side if self._big else None
        return Statistics(
            coups=len(self._bead),
            banker=self._counts[Result.BANKER],
            player=self._counts[Result.PLAYER],
            tie=self._counts[Result.TIE],
            banker_pairs=self._banker_pairs,
            player_pairs=self._player_pairs,
            naturals=self._naturals,
            longest_banker=self._longest[Side.BANKER],
            longest_player=self._longest[Side.PLAYER],
            current_side=current,
            current_length=self._lengths[-1] if self._lengths else 0,
        )

    def big_road_grid(self) -> str:
        """The Big Road as text rows (``B``, ``P``, ``.`` for empty), top to bottom."""
        grid = [["."] * self._big_grid.width for _ in range(self.rows)]
        for cell in self._big:
            grid[cell.row][cell.col] = cell.side.value
        return "\n".join("".join(line) for line in grid)

    def to_json(self) -> dict[str, Any]:
        """The roads as plain JSON (the shape ``baccara roads --json`` prints).

        >>> data = Roads.from_results("TBT").to_json()
        >>> data["leading_ties"], data["big_road"]
        (1, [{'col': 0, 'row': 0, 'side': 'B', 'ties': 1, 'banker_pair': False, 'player_pair': False}])
        """
        predictions = self.predictions()
        return {
            "rows": self.rows,
            "bead_plate": [
                {
                    "col": c.col,
                    "row": c.row,
                    "result": c.result.value,
                    "banker_pair": c.banker_pair,
                    "player_pair": c.player_pair,
                    "natural": c.natural,
                }
                for c in self._bead
            ],
            "big_road": [
                {
                    "col": c.col,
                    "row": c.row,
                    "side": c.side.value,
                    "ties": c.ties,
                    "banker_pair": c.banker_pair,
                    "player_pair": c.player_pair,
                }
                for c in self._big
            ],
            "leading_ties": self.leading_ties,
            **{
                name: [{"col": m.col, "row": m.row, "color": m.color.value} for m in marks]
                for name, marks in self._marks.items()
            },
            "predictions": {
                "banker": predictions[Side.BANKER].to_json(),
                "player": predictions[Side.PLAYER].to_json(),
            },
            "statistics": self.statistics().to_json(),
        }

    def __repr__(self) -> str:
        letters = "".join(cell.result.value for cell in self._bead)
        return f"Roads.from_results({letters!r}, rows={self.rows})"


def _one_result(text: str) -> Result:
    found = parse_results(text)
    if len(found) != 1:
        raise RoadsError(f"bad result {text!r}: expected one of B, P or T")
    return found[0]
