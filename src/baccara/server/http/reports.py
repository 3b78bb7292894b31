"""Hold against theory over HTTP (`baccara.db.reports`): every staff role reads them
(compliance's reports, the auditor reads everything, the operator watches the tables
they run); anonymous 401, a player 403, another site's page 403.

``GET /api/admin/reports/hold?by=table|game|kind|band|shoe|day&from=&to=&table=``: the
house's win against its exact theory per group, with the total; ``.../hold/series``:
actual against theoretical day by day, cumulative (the console's plot);
``.../rtp``: the return to player at every stake band; ``.../interrupted``: the
rounds voided, refunded or settled after a restart. ``from`` and ``to`` are UTC days
(``2026-11-28``), both included; without them the last 30 days to today. Each answers
JSON, or with ``format=csv`` CSV (money as people write it: ``12.50``).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from datetime import UTC, date, datetime, timedelta
from functools import partial
from typing import Annotated, Any

from fastapi import APIRouter, Query
from fastapi.responses import Response

from baccara.bets import BetKind
from baccara.db import reports
from baccara.db.reports import By, HoldRow
from baccara.money import format_money
from baccara.server.http.depends import StaffMember
from baccara.server.infra.edge import Refusal
from baccara.server.state import ServerState
from baccara.server.wire.reports import (
    HoldLine,
    HoldReport,
    HoldSeries,
    InterruptedReport,
    InterruptedRound,
    RtpLine,
    RtpReport,
    SeriesPoint,
    StakeRtp,
)
from baccara.variants import find_variant

__all__ = ["DEFAULT_DAYS", "day", "reports_router"]

DEFAULT_DAYS = 30
"""A report without ``from`` covers this many days to ``to``."""
STAKES = (1, 10, 19, 20, 30, 100, 110, 1_000, 1_010, 10_000)
"""The stakes (minor units) the RTP report prices from a full shoe: the 5% commission
rounds to nothing up to 0.19, and by half a cent or less from 0.20 on."""
_CSV: dict[int | str, dict[str, Any]] = {
    200: {"content": {"text/csv": {"schema": {"type": "string"}}}}
}
_BYS = "|".join(b.value for b in By)
Start = Annotated[str | None, Query(alias="from", description="first UTC day, 2026-11-01")]
End = Annotated[str | None, Query(alias="to", description="last UTC day (default: today)")]
Table = Annotated[str | None, Query(description="one table's id (default: every table)")]
Format = Annotated[str, Query(alias="format", description="json or csv")]


def day(text: str | None, name: str, default: date) -> date:
    """A UTC day given as ``2026-11-28``, ``default`` when not given; else a 400
    `Refusal` naming ``name``.

    >>> day("2026-11-28", "from", date(2000, 1, 1)), day(None, "to", date(2000, 1, 1))
    (datetime.date(2026, 11, 28), datetime.date(2000, 1, 1))
    >>> day("28/11/2026", "from", date(2000, 1, 1))
    Traceback (most recent call last):
    ...
    baccara.server.infra.edge.Refusal: 400 bad_request: from: a day as 2026-11-28
    """
    if text is None or text == "":
        return default
    try:
        if len(text) != 10:
            raise ValueError(text)
        return date.fromisoformat(text)
    except ValueError:
        raise Refusal(400, "bad_request", f"{name}: a day as 2026-11-28") from None


def _line(row: HoldRow) -> HoldLine:
    return HoldLine(
        key=row.key, rounds=row.rounds, bets=row.bets, handle=row.handle, win=row.win,
        hold=row.hold, theo=row.theo, theo_hold=row.theo_hold, sd=row.sd, z=row.z,
    )  # fmt: skip


def _cents(value: float) -> str:
    """An expectation in minor units as people read money (two decimals)."""
    return f"{value / 100:.2f}"


def _share(value: float | None, places: int = 4) -> str:
    return "" if value is None else f"{value:.{places}f}"


def _csv(header: Sequence[str], lines: Iterable[Sequence[Any]], name: str) -> Response:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(header)
    writer.writerows(lines)
    return Response(
        out.getvalue(),
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{name}.csv"'},
    )


def _hold_csv(report: HoldReport) -> Response:
    header = ["key", "rounds", "bets", "handle", "win", "hold", "theo", "theo_hold", "sd", "z"]
    lines = [
        [
            line.key, line.rounds, line.bets, format_money(line.handle), format_money(line.win),
            _share(line.hold), _cents(line.theo), _share(line.theo_hold), _cents(line.sd),
            _share(line.z, 2),
        ]
        for line in (*report.rows, report.total)
    ]  # fmt: skip
    return _csv(header, lines, f"hold-by-{report.by}-{report.start}-{report.end}")


def _stake_levels(played: list[tuple[str, str]]) -> list[StakeRtp]:
    """The theory's RTP at `STAKES` for each (game, kind) ``played``."""
    from baccara.exact.theory import stake_rtp  # the exact engine loads on first use

    return [
        StakeRtp(
            game=game, kind=kind, stake=stake,
            rtp=stake_rtp(find_variant(game), BetKind(kind), stake, decks=find_variant(game).decks),
        )
        for game, kind in played
        for stake in STAKES
    ]  # fmt: skip


def reports_router(state: ServerState) -> APIRouter:
    """The hold reports' routes of the server whose state is ``state``."""
    router = APIRouter()
    database, run = state.ledger.database, state.run

    def days(start: str | None, end: str | None) -> tuple[date, date]:
        today = datetime.fromtimestamp(state.clock.now(), UTC).date()
        last = day(end, "to", today)
        first = day(start, "from", last - timedelta(days=DEFAULT_DAYS - 1))
        if first > last:
            raise Refusal(400, "bad_request", "from: on or before to")
        return first, last

    def shape(text: str) -> str:
        if text not in ("json", "csv"):
            raise Refusal(400, "bad_request", "format: json or csv")
        return text

    @router.get("/api/admin/reports/hold", response_model=HoldReport, responses=_CSV)
    async def hold(
        staff: StaffMember,
        by: Annotated[str, Query(description=_BYS)] = By.TABLE.value,
        start: Start = None,
        end: End = None,
        table: Table = None,
        output: Format = "json",
    ) -> HoldReport | Response:
        """The house's win against its exact theory grouped ``by`` table, game, bet kind,
        stake band, shoe or day: rounds, bets, handle, win, hold, theoretical win, its
        standard deviation and the z-score."""
        if by not in By._value2member_map_:
            raise Refusal(400, "bad_request", f"by: one of {_BYS}")
        wanted, (first, last) = shape(output), days(start, end)
        read = partial(reports.hold, database, first=first, last=last, table=table)
        rows = await run(read, By(by))
        every = (
            rows if By(by) in (By.TABLE, By.GAME, By.SHOE, By.DAY) else await run(read, By.TABLE)
        )
        report = HoldReport(
            by=by, table=table, start=first.isoformat(), end=last.isoformat(),
            rows=[_line(r) for r in rows], total=_line(reports.total(every)),
        )  # fmt: skip
        return report if wanted == "json" else _hold_csv(report)

    @router.get("/api/admin/reports/hold/series")
    async def hold_series(
        staff: StaffMember, start: Start = None, end: End = None, table: Table = None
    ) -> HoldSeries:
        """Actual against theoretical, day by day and cumulative, for the console's plot."""
        first, last = days(start, end)
        found = await run(partial(reports.series, database, first=first, last=last, table=table))
        return HoldSeries(
            table=table, start=first.isoformat(), end=last.isoformat(),
            points=[
                SeriesPoint(
                    day=p.day, win=p.win, theo=p.theo, cumulative_win=p.cumulative_win,
                    cumulative_theo=p.cumulative_theo, cumulative_sd=p.cumulative_sd,
                )
                for p in found
            ],
        )  # fmt: skip

    @router.get("/api/admin/reports/rtp", response_model=RtpReport, responses=_CSV)
    async def rtp(
        staff: StaffMember,
        start: Start = None,
        end: End = None,
        table: Table = None,
        output: Format = "json",
    ) -> RtpReport | Response:
        """The return to player at every stake band of every game and bet kind, as played
        and as the exact theory says (the table's rounding of commission included)."""
        wanted, (first, last) = shape(output), days(start, end)
        found = await run(partial(reports.rtp, database, first=first, last=last, table=table))
        played = sorted({(r.game, r.kind) for r in found if r.kind in ("banker", "player")})
        stakes = await run(partial(_stake_levels, played))
        report = RtpReport(
            table=table, start=first.isoformat(), end=last.isoformat(), stakes=stakes,
            rows=[
                RtpLine(
                    game=r.game, kind=r.kind, band=r.band, bets=r.bets, handle=r.handle,
                    returned=r.returned, rtp=r.rtp, theo_rtp=r.theo_rtp,
                )
                for r in found
            ],
        )  # fmt: skip
        if wanted == "json":
            return report
        header = ["game", "kind", "band", "bets", "handle", "returned", "rtp", "theo_rtp"]
        lines = [
            [
                r.game, r.kind, format_money(r.band), r.bets, format_money(r.handle),
                format_money(r.returned), _share(r.rtp), _share(r.theo_rtp),
            ]
            for r in report.rows
        ]  # fmt: skip
        return _csv(header, lines, f"rtp-{report.start}-{report.end}")

    @router.get("/api/admin/reports/interrupted", response_model=InterruptedReport, responses=_CSV)
    async def interrupted(
        staff: StaffMember,
        start: Start = None,
        end: End = None,
        table: Table = None,
        output: Format = "json",
    ) -> InterruptedReport | Response:
        """The rounds voided, refunded or settled after a restart, with why."""
        wanted, (first, last) = shape(output), days(start, end)
        found = await run(
            partial(reports.interrupted, database, first=first, last=last, table=table)
        )
        report = InterruptedReport(
            table=table, start=first.isoformat(), end=last.isoformat(),
            rounds=[
                InterruptedRound(
                    round_id=r.round_id, table=r.table, number=r.number, day=r.day, at=r.at,
                    resolution=r.resolution, reason=r.reason, bets=r.bets, handle=r.handle,
                )
                for r in found
            ],
        )  # fmt: skip
        if wanted == "json":
            return report
        header = ["round", "table", "number", "day", "resolution", "reason", "bets", "handle"]
        lines = [
            [
                r.round_id, r.table, r.number, r.day or "", r.resolution, r.reason, r.bets,
                format_money(r.handle),
            ]
            for r in report.rounds
        ]  # fmt: skip
        return _csv(header, lines, f"interrupted-{report.start}-{report.end}")

    return router
