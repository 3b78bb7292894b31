"""The hold reports: what the house won against its exact theory, over a range of days.

Pure SQL over what the settlements stored (`baccara.db.hold`): ``hold_rollup`` (a row
per table, game, bet kind, stake band and day), ``hold_shoes`` (per table, game, shoe
and day) and ``round_resolutions``. A report groups the rows by one of `By` and sums
them; nothing reads the bets, so a report over a million bets reads a few thousand
rows (their number grows with tables and days, not with bets).

Per group: rounds (with a bet in the group), bets, handle, the house's win, hold (win
over handle), the theoretical win, its standard deviation and the z-score, (win -
theo) / sd: past 4 in either direction, the table or its pay table does not play as
its theory says.

>>> from baccara.db.ledger import Ledger
>>> book = Ledger.connect("sqlite://")
>>> hold(book.database, By.TABLE, first=date(2026, 11, 28), last=date(2026, 11, 28))
[]
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import date
from enum import StrEnum
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from baccara.db.schema import hold_rollup, hold_shoes, round_resolutions, rounds

__all__ = [
    "By",
    "HoldRow",
    "Interrupted",
    "RtpRow",
    "SeriesPoint",
    "hold",
    "interrupted",
    "rtp",
    "series",
    "total",
]


class By(StrEnum):
    """What a hold report groups by."""

    TABLE = "table"
    GAME = "game"
    KIND = "kind"
    BAND = "band"
    SHOE = "shoe"
    DAY = "day"


# by -> (the rows read, the key column, the rounds counted for it, the variance summed)
_GROUPS = {
    By.TABLE: (hold_shoes, "table_id", "rounds", "var_round"),
    By.GAME: (hold_shoes, "variant", "rounds", "var_round"),
    By.KIND: (hold_rollup, "kind", "kind_rounds", "var_kind"),
    By.BAND: (hold_rollup, "band", "band_rounds", "var_band"),
    By.SHOE: (hold_shoes, "shoe_id", "rounds", "var_round"),
    By.DAY: (hold_shoes, "day", "rounds", "var_round"),
}


@dataclass(frozen=True, slots=True, kw_only=True)
class HoldRow:
    """One group of a hold report; money in minor units (theo and sd are expectations)."""

    key: str
    rounds: int
    bets: int
    handle: int
    win: int
    theo: float
    sd: float

    @property
    def hold(self) -> float | None:
        """The house's win over the handle (None: no handle)."""
        return self.win / self.handle if self.handle else None

    @property
    def theo_hold(self) -> float | None:
        """The theoretical win over the handle."""
        return self.theo / self.handle if self.handle else None

    @property
    def z(self) -> float | None:
        """(win - theo) / sd; None when nothing varies."""
        return (self.win - self.theo) / self.sd if self.sd > 0 else None


def _where(
    first: date | None, last: date | None, table: str | None, day: Any, table_column: Any
) -> list[Any]:
    out = []
    if first is not None:
        out.append(day >= first)
    if last is not None:
        out.append(day <= last)
    if table is not None:
        out.append(table_column == table)
    return out


def hold(
    database: Engine,
    by: By,
    *,
    first: date | None = None,
    last: date | None = None,
    table: str | None = None,
) -> list[HoldRow]:
    """The hold report grouped ``by``, over the days ``first`` to ``last`` (UTC,
    inclusive; None: unbounded), of ``table`` only if given; ordered by key."""
    rows, key_name, rounds_name, var_name = _GROUPS[by]
    c = rows.c
    key = c[key_name]
    query = (
        sa.select(
            key,
            sa.func.sum(c[rounds_name]),
            sa.func.sum(c.bets),
            sa.func.sum(c.handle),
            sa.func.sum(c.win),
            sa.func.sum(c.theo),
            sa.func.sum(c[var_name]),
        )
        .where(*_where(first, last, table, c.day, c.table_id))
        .group_by(key)
        .order_by(key)
    )
    return [
        HoldRow(
            key=_text(k),
            rounds=int(n),
            bets=int(b),
            handle=int(h),
            win=int(w),
            theo=float(t),
            sd=math.sqrt(max(0.0, float(v))),
        )
        for k, n, b, h, w, t, v in _rows(database, query)
    ]


def _rows(database: Engine, query: Any) -> list[Any]:
    with database.connect() as conn:
        return list(conn.execute(query))


def total(rows: list[HoldRow]) -> HoldRow:
    """The sum of a report's rows grouped by table, game, shoe or day (each round in one
    row: their rounds and variances add up).

    >>> total([]).handle
    0
    """
    return HoldRow(
        key="total",
        rounds=sum(r.rounds for r in rows),
        bets=sum(r.bets for r in rows),
        handle=sum(r.handle for r in rows),
        win=sum(r.win for r in rows),
        theo=sum(r.theo for r in rows),
        sd=math.sqrt(sum(r.sd * r.sd for r in rows)),
    )


def _text(value: object) -> str:
    return value.isoformat() if isinstance(value, date) else str(value)


@dataclass(frozen=True, slots=True, kw_only=True)
class RtpRow:
    """What players got back on one game's bet kind in one stake band (``band``: its
    floor, minor units): actual and theoretical, the table's rounding included."""

    game: str
    kind: str
    band: int
    bets: int
    handle: int
    returned: int
    theo_returned: float

    @property
    def rtp(self) -> float | None:
        """What came back per unit staked."""
        return self.returned / self.handle if self.handle else None

    @property
    def theo_rtp(self) -> float | None:
        """What the theory says comes back per unit staked at these stakes and shoes."""
        return self.theo_returned / self.handle if self.handle else None


def rtp(
    database: Engine,
    *,
    first: date | None = None,
    last: date | None = None,
    table: str | None = None,
) -> list[RtpRow]:
    """The return to player at every stake band of every game and bet kind."""
    c = hold_rollup.c
    query = (
        sa.select(
            c.variant,
            c.kind,
            c.band,
            sa.func.sum(c.bets),
            sa.func.sum(c.handle),
            sa.func.sum(c.win),
            sa.func.sum(c.theo),
        )
        .where(*_where(first, last, table, c.day, c.table_id))
        .group_by(c.variant, c.kind, c.band)
        .order_by(c.variant, c.kind, c.band)
    )
    return [
        RtpRow(
            game=str(g),
            kind=str(k),
            band=int(band),
            bets=int(b),
            handle=int(h),
            returned=int(h) - int(w),
            theo_returned=int(h) - float(t),
        )
        for g, k, band, b, h, w, t in _rows(database, query)
    ]


@dataclass(frozen=True, slots=True, kw_only=True)
class SeriesPoint:
    """One day of the plot of actual against theoretical: the day's win and theory,
    and from the first day on, the cumulative win, theory and the theory's sd."""

    day: str
    win: int
    theo: float
    cumulative_win: int
    cumulative_theo: float
    cumulative_sd: float


def series(
    database: Engine,
    *,
    first: date | None = None,
    last: date | None = None,
    table: str | None = None,
) -> list[SeriesPoint]:
    """Actual against theoretical, day by day, cumulative (the console's plot)."""
    c = hold_shoes.c
    query = (
        sa.select(c.day, sa.func.sum(c.win), sa.func.sum(c.theo), sa.func.sum(c.var_round))
        .where(*_where(first, last, table, c.day, c.table_id))
        .group_by(c.day)
        .order_by(c.day)
    )
    points: list[SeriesPoint] = []
    won, theo, variance = 0, 0.0, 0.0
    for day, w, t, v in _rows(database, query):
        won, theo, variance = won + int(w), theo + float(t), variance + float(v)
        points.append(
            SeriesPoint(
                day=_text(day),
                win=int(w),
                theo=float(t),
                cumulative_win=won,
                cumulative_theo=theo,
                cumulative_sd=math.sqrt(max(0.0, variance)),
            )
        )
    return points


@dataclass(frozen=True, slots=True, kw_only=True)
class Interrupted:
    """A round that did not settle as dealt: voided (no bet), refunded, or settled after
    a restart; with its table, number, day, why, and the bets and handle it held."""

    round_id: int
    table: str
    number: int
    day: str | None
    at: float | None
    resolution: str
    reason: str
    bets: int
    handle: int


def interrupted(
    database: Engine,
    *,
    first: date | None = None,
    last: date | None = None,
    table: str | None = None,
) -> list[Interrupted]:
    """The interrupted rounds over the days, oldest first."""
    r = round_resolutions.c
    query = (
        sa.select(
            r.round_id,
            r.table_id,
            rounds.c.number,
            r.day,
            r.at,
            r.resolution,
            r.reason,
            r.bets,
            r.handle,
        )
        .select_from(round_resolutions.join(rounds, rounds.c.id == r.round_id))
        .where(*_where(first, last, table, r.day, r.table_id))
        .order_by(r.round_id)
    )
    return [
        Interrupted(
            round_id=int(i),
            table=str(t),
            number=int(n),
            day=None if d is None else _text(d),
            at=None if at is None else float(at),
            resolution=str(res),
            reason=str(why),
            bets=int(b),
            handle=int(h),
        )
        for i, t, n, d, at, res, why, b, h in _rows(database, query)
    ]
