"""The published figures the tests compare against, read from ``tests/data``.

``tests/data/numbers.toml`` holds the published baccarat figures (main bets, variants,
side bets, the shape of the game, Chemin de Fer) and ``tests/data/roads.toml`` the roads'
worked example; every table in them names its publication in a ``source`` field. A
figure lives there once; the tests read it here:

>>> NUMBERS.row("main", "8")["p_banker"]
Printed('0.458597423')
>>> NUMBERS.row("main", "8")["banker_5"].fraction
0.010579
>>> NUMBERS.ratio("side_bets", "pair", "pays"), NUMBERS.ratio("side_bets", "pair", "p_win")
(Fraction(11, 1), Fraction(31, 415))

A printed figure keeps the decimals its source printed: it matches a computed value to
that precision (half a unit of its last digit).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any, TypeVar

__all__ = ["DATA", "NUMBERS", "ROADS", "Printed", "Reference", "by_decks", "uncited"]

T = TypeVar("T")

DATA = Path(__file__).resolve().parents[1] / "data"


@dataclass(frozen=True)
class Printed:
    """A figure as its source printed it: ``"0.446760430"`` or ``"1.0117%"``."""

    text: str

    def __post_init__(self) -> None:
        Decimal(self.text.removesuffix("%"))  # refuses what is not a printed number

    def __repr__(self) -> str:
        return f"Printed({self.text!r})"

    @property
    def percent(self) -> bool:
        return self.text.endswith("%")

    @property
    def number(self) -> Decimal:
        """The number as printed (for a percentage, the percentage: 1.0117)."""
        return Decimal(self.text.removesuffix("%"))

    @property
    def digits(self) -> int:
        """The printed number of decimals."""
        exponent = self.number.as_tuple().exponent
        assert isinstance(exponent, int)
        return max(0, -exponent)

    @property
    def fraction(self) -> float:
        """The figure as a probability or an edge: 1.0117% is 0.010117."""
        return float(self.number / 100 if self.percent else self.number)

    def matches(self, value: object) -> bool:
        """``value`` (a fraction) equals the figure to its printed number of decimals."""
        scale = 100.0 if self.percent else 1.0
        got = scale * float(value)  # type: ignore[arg-type]
        return abs(got - float(self.number)) <= 0.5 * 10.0**-self.digits + 1e-15

    def rounded(self, digits: int) -> str:
        """The figure shown to ``digits`` decimals, as printed: ``"1.06%"``."""
        return f"{self.number:.{digits}f}" + ("%" if self.percent else "")


class Reference:
    """One data file of ``tests/data``: its tables, read by a path of keys."""

    def __init__(self, name: str) -> None:
        self.name = name

    @property
    def data(self) -> dict[str, Any]:
        return _load(self.name)

    @property
    def source(self) -> str:
        return str(self.data["source"])

    def get(self, *keys: str) -> Any:
        found: Any = self.data
        for key in keys:
            found = found[key]
        return found

    def text(self, *keys: str) -> str:
        found = self.get(*keys)
        assert isinstance(found, str), (self.name, keys)
        return found

    def count(self, *keys: str) -> int:
        found = self.get(*keys)
        assert isinstance(found, int), (self.name, keys)
        return found

    def counts(self, *keys: str) -> tuple[int, ...]:
        found = self.get(*keys)
        assert all(isinstance(n, int) for n in found), (self.name, keys)
        return tuple(found)

    def figure(self, *keys: str) -> Printed:
        return Printed(self.text(*keys))

    def printed(self, *keys: str) -> tuple[Printed, ...]:
        return tuple(Printed(str(text)) for text in self.get(*keys))

    def row(self, table: str, decks: str) -> dict[str, Printed]:
        """A row of printed figures of a table by decks, named by the table's columns."""
        names = self.get(table, "columns")
        return dict(zip(names, self.printed(table, "decks", decks), strict=True))

    def ratio(self, *keys: str) -> Fraction:
        """A pay ``"11:1"`` (``"push"`` is 0) or an exact fraction ``"31/415"``."""
        text = self.text(*keys)
        if text == "push":
            return Fraction(0)
        won, sep, staked = text.partition(":")
        if sep:
            return Fraction(won) / Fraction(staked)
        return Fraction(text)


def by_decks(rows: dict[str, T]) -> dict[int, T]:
    """Rows keyed by the number of decks; the infinite deck is 0."""
    return {0 if decks == "infinite" else int(decks): row for decks, row in rows.items()}


def uncited(data: dict[str, Any]) -> list[str]:
    """The tables of a data file that hold figures without naming their source.

    Each table under the file's own ``source`` names its publication in a ``source``
    field, or one of the tables holding it does, or every table it holds does.
    """
    missing: list[str] = []

    def walk(table: dict[str, Any], path: str, cited: bool) -> None:
        cited = cited or bool(table.get("source"))
        inner = {k: v for k, v in table.items() if isinstance(v, dict)}
        if not cited and len(inner) < len(table):
            missing.append(path)
        for key, value in inner.items():
            walk(value, f"{path}.{key}" if path else key, cited)

    for key, value in data.items():
        if isinstance(value, dict):
            walk(value, key, False)
    return missing


@cache
def _load(name: str) -> dict[str, Any]:
    with (DATA / name).open("rb") as f:
        return tomllib.load(f)


NUMBERS = Reference("numbers.toml")
ROADS = Reference("roads.toml")
