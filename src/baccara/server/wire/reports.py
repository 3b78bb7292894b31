"""The hold reports' answers (``/api/admin/reports/...``), as pydantic models:
``/openapi.json`` documents them. Money is in minor units (``handle: 1250`` is 12.50);
a theoretical win and its standard deviation are expectations, so they have decimals.

>>> HoldSeries(table=None, start="2026-11-01", end="2026-11-30", points=[]).model_dump_json()
'{"table":null,"start":"2026-11-01","end":"2026-11-30","points":[]}'
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

__all__ = [
    "HoldLine",
    "HoldReport",
    "HoldSeries",
    "InterruptedReport",
    "InterruptedRound",
    "RtpLine",
    "RtpReport",
    "SeriesPoint",
    "StakeRtp",
]


class _Answer(BaseModel):
    model_config = ConfigDict(extra="forbid")


class HoldLine(_Answer):
    """One group of a hold report: ``key`` (the table, game, bet kind, stake band's floor,
    shoe or day), rounds with a bet in it, bets, handle, the house's ``win``, ``hold``
    (win / handle), the theoretical win ``theo`` and ``theo_hold``, its standard
    deviation ``sd`` and the z-score ``z`` = (win - theo) / sd (null: nothing varies)."""

    key: str
    rounds: int
    bets: int
    handle: int
    win: int
    hold: float | None
    theo: float
    theo_hold: float | None
    sd: float
    z: float | None


class HoldReport(_Answer):
    """A hold report grouped ``by``, over the UTC days ``start`` to ``end`` (inclusive),
    of one ``table`` or all (null); ``total`` sums every row."""

    by: str
    table: str | None
    start: str
    end: str
    rows: list[HoldLine]
    total: HoldLine


class RtpLine(_Answer):
    """The return to player on one game's bet kind in one stake band (``band``: its
    floor, minor units): ``rtp`` as played, ``theo_rtp`` as the exact theory says for
    those stakes and shoes (the table's rounding of commission included)."""

    game: str
    kind: str
    band: int
    bets: int
    handle: int
    returned: int
    rtp: float | None
    theo_rtp: float | None


class StakeRtp(_Answer):
    """What a ``stake`` (minor units) on a game's bet kind gets back per unit staked from
    a full shoe, the table's rounding included (the commission's at small stakes)."""

    game: str
    kind: str
    stake: int
    rtp: float


class RtpReport(_Answer):
    """The return to player at every stake band, over the days ``start`` to ``end``, and
    (``stakes``) the theory at stake levels where rounding moves it, for each game and
    Banker or Player bet kind played."""

    table: str | None
    start: str
    end: str
    rows: list[RtpLine]
    stakes: list[StakeRtp]


class SeriesPoint(_Answer):
    """One day of the plot: the day's win and theory, and the running totals from the
    first day shown (``cumulative_sd``: the running theory's standard deviation, for a
    band of +-2 sd around it)."""

    day: str
    win: int
    theo: float
    cumulative_win: int
    cumulative_theo: float
    cumulative_sd: float


class HoldSeries(_Answer):
    """Actual against theoretical, day by day (days with no settled bet are left out)."""

    table: str | None
    start: str
    end: str
    points: list[SeriesPoint]


class InterruptedRound(_Answer):
    """A round that did not settle as dealt and how it ended: ``voided`` (no bet on it),
    ``refunded`` (voided, every bet given back) or ``settled_after_restart``."""

    round_id: int
    table: str
    number: int
    day: str | None
    at: float | None
    resolution: str
    reason: str
    bets: int
    handle: int


class InterruptedReport(_Answer):
    """The interrupted rounds over the days ``start`` to ``end``, oldest first."""

    table: str | None
    start: str
    end: str
    rounds: list[InterruptedRound]
