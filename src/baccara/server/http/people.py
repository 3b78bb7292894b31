"""The console's players and alerts over HTTP (issue 34, points 6 and 7).

Every staff role reads a player: ``GET /api/admin/players?q=ann`` (a search, paged with
``after``), ``GET /api/admin/players/{name}`` (account, balance, status, limits with
their history in a period, notes), ``GET /api/admin/players/{name}/rounds?last=10``
(the last rounds replayed); the statement is the cashier's
``/api/admin/players/{name}/movements``. The ``compliance`` role suspends and
reinstates (``POST .../suspend``, ``.../reinstate``: audited, every socket of the
player in every process closed within a second by the revocation channel) and writes
notes (``POST .../notes``, append-only, audited).

Alerts (`baccara.db.alerts`): ``GET /api/admin/alerts`` for the ``compliance`` and
``auditor`` roles; ``POST /api/admin/alerts/scan`` (a period) and ``POST
/api/admin/alerts/{id}/acknowledge`` (audited) for ``compliance``.
"""

from __future__ import annotations

from functools import partial
from typing import Annotated

from fastapi import APIRouter, Depends, Query

from baccara.db import alerts, people
from baccara.db.alerts import AlertError, HoldScores, Marker, Thresholds
from baccara.db.protections import FOREVER, SuspendError, suspend
from baccara.db.staff import Role, Staff
from baccara.server.http.admin import whole_number
from baccara.server.http.cashier import moment
from baccara.server.http.depends import SAME_SITE_JSON, JsonBody, StaffMember, require_role
from baccara.server.http.me import deal_steps, period_answer
from baccara.server.infra.edge import Refusal
from baccara.server.state import ServerState
from baccara.server.wire.people import (
    AlertAnswer,
    AlertList,
    FoundPlayer,
    LimitChangeAnswer,
    NoteAnswer,
    NoteRequest,
    PlayerAnswer,
    PlayerSearch,
    PlayerStatusAnswer,
    ReplayedBetAnswer,
    ReplayedDecisionAnswer,
    ReplayedRoundAnswer,
    RoundsAnswer,
    ScanAnswer,
    ScanRequest,
    SuspendRequest,
    SuspensionAnswer,
)

__all__ = ["HISTORY_DAYS", "people_router"]

HISTORY_DAYS = 183
"""A player's history without ``from`` covers this many days (six months)."""
ALERT_DAYS = 30
"""The alerts listed without ``from``: this many days."""

Compliance = Annotated[Staff, Depends(require_role(Role.COMPLIANCE))]
Watchers = Annotated[Staff, Depends(require_role(Role.COMPLIANCE, Role.AUDITOR))]
SuspendBody = Annotated[SuspendRequest, Depends(JsonBody(SuspendRequest))]
NoteBody = Annotated[NoteRequest, Depends(JsonBody(NoteRequest))]
ScanBody = Annotated[ScanRequest, Depends(JsonBody(ScanRequest))]
_STATUS = {"no_such_player": 404, "no_such_alert": 404, "acknowledged": 409}


def _refused(error: people.PeopleError | AlertError) -> Refusal:
    return Refusal(_STATUS.get(error.code, 400), error.code, str(error))


def _status(found: people.PlayerStatus) -> PlayerStatusAnswer:
    return PlayerStatusAnswer(
        suspended_until=found.suspended_until,
        excluded_until=found.excluded_until,
        logins_stopped=found.logins_stopped,
    )


def _alert(found: alerts.Alert) -> AlertAnswer:
    return AlertAnswer(
        id=found.id, marker=found.marker, subject=found.subject, day=found.day,
        raised_at=found.raised_at, summary=found.summary, evidence=found.evidence,
        acknowledged_at=found.acknowledged_at, acknowledged_by=found.acknowledged_by,
    )  # fmt: skip


def _replayed(one: people.ReplayedRound) -> ReplayedRoundAnswer:
    return ReplayedRoundAnswer(
        kind=one.kind, table=one.table, at=one.at, round=one.round, phase=one.phase,
        shoe_id=one.shoe_id, coup_index=one.coup_index, coup=one.coup, cards=one.cards,
        steps=None if one.kind != "house" else deal_steps(one.coup), seats=one.seats,
        bets=None if one.bets is None else [
            ReplayedBetAnswer(kind=b.kind, amount=b.amount, returned=b.returned, status=b.status)
            for b in one.bets
        ],
        decisions=None if one.decisions is None else [
            ReplayedDecisionAnswer(
                seq=d.seq, seat=d.seat, player=d.player, action=d.action, amount=d.amount,
                tableau=d.tableau, timed_out=d.timed_out,
            )
            for d in one.decisions
        ],
    )  # fmt: skip


def _name(text: str) -> str:
    """A player's name from the path: 1 to 24 printable characters, or 404 (no account
    has another)."""
    if not 1 <= len(text) <= 24 or not text.isprintable():
        raise Refusal(404, "no_such_player", f"no player named {text[:40]!r}")
    return text


def people_router(
    state: ServerState, *, thresholds: Thresholds | None = None, hold: HoldScores | None = None
) -> APIRouter:
    """The players' and alerts' routes of the server whose state is ``state``; the
    alerts' ``thresholds`` (the defaults if None) and the tables' z-scores (``hold``:
    the hold report's; None: the ``table_hold`` marker is not computed)."""
    router = APIRouter()
    database = state.ledger.database
    run, now = state.run, state.clock.now
    limits = thresholds or Thresholds()

    @router.get("/api/admin/players")
    async def find_players(
        staff: StaffMember,
        q: Annotated[
            str, Query(description="a part of the name, any case (at most 24 characters)")
        ] = "",
        after: Annotated[str, Query(description="the last name of the page before")] = "",
        limit: Annotated[str, Query(description=f"1 to {people.MAX_FOUND}")] = "50",
    ) -> PlayerSearch:
        """Players whose name holds ``q`` (those it begins first), a page at a time."""
        most = whole_number(limit, "limit", least=1, most=people.MAX_FOUND)
        if not (q + after).isprintable() or len(q) > 24 or len(after) > 24:
            raise Refusal(400, "bad_request", "q and after: at most 24 printable characters")
        found = await run(partial(people.search, database, q, after=after, limit=most, now=now()))
        return PlayerSearch(
            q=q,
            players=[
                FoundPlayer(name=f.name, created_at=f.created_at, last_login_at=f.last_login_at,
                            status=_status(f.status))
                for f in found
            ],
            next_after=found[-1].name if len(found) == most else None,
        )  # fmt: skip

    @router.get("/api/admin/players/{name}")
    async def show_player(
        staff: StaffMember,
        name: str,
        start: Annotated[
            str | None,
            Query(alias="from", description="the history from (a date, ISO time or epoch s)"),
        ] = None,
        end: Annotated[
            str | None, Query(alias="to", description="to, excluded (default: now)")
        ] = None,
    ) -> PlayerAnswer:
        """A player's account, status, limits with their history in a period (default:
        the last six months) and the notes."""
        at = now()
        until = moment(end, "to", at)
        since = moment(start, "from", max(0.0, until - HISTORY_DAYS * 86_400))
        if since > until:
            raise Refusal(400, "bad_request", "from: before to")
        try:
            found = await run(
                partial(people.player, database, _name(name), now=at, start=since, end=until)
            )
        except people.PeopleError as error:
            raise _refused(error) from None
        return PlayerAnswer(
            name=found.name, created_at=found.created_at, last_login_at=found.last_login_at,
            balance=found.balance, status=_status(found.status),
            limits={kind: {period: period_answer(limit) for period, limit in by.items()}
                    for kind, by in found.limits.items()},
            reminder_minutes=found.reminder_minutes, start=since, end=until,
            history=[LimitChangeAnswer(
                id=c.id, at=c.at, actor=c.actor, kind=c.kind, days=c.days, amount=c.amount,
                next_amount=c.next_amount, next_from=c.next_from, until=c.until, raised=c.raised,
            ) for c in found.history],
            notes=[NoteAnswer(id=n.id, at=n.at, actor=n.actor, role=n.role, text=n.text)
                   for n in found.notes],
        )  # fmt: skip

    @router.get("/api/admin/players/{name}/rounds")
    async def player_rounds(
        staff: StaffMember,
        name: str,
        last: Annotated[
            str, Query(description=f"how many rounds, 1 to {people.MAX_ROUNDS}")
        ] = "10",
    ) -> RoundsAnswer:
        """The last rounds the player took part in, newest first, replayed step by step:
        a house round's cards in deal order and the player's bets; a players' shoe's
        decisions in order."""
        most = whole_number(last, "last", least=1, most=people.MAX_ROUNDS)
        try:
            found = await run(partial(people.player_rounds, database, _name(name), last=most))
        except people.PeopleError as error:
            raise _refused(error) from None
        return RoundsAnswer(name=name, rounds=[_replayed(one) for one in found])

    async def set_suspension(
        staff: Staff, name: str, until: float | None, at: float
    ) -> SuspensionAnswer:
        try:
            await run(
                partial(suspend, database, _name(name), until, now=at, actor=staff.name,
                        role=staff.role.value)
            )  # fmt: skip
        except SuspendError as error:
            raise Refusal(404, "no_such_player", str(error)) from None
        state.watch.poke()  # the sockets here close at once; the others' hear the signal
        return SuspensionAnswer(name=name, suspended_until=until)

    @router.post("/api/admin/players/{name}/suspend", dependencies=[SAME_SITE_JSON])
    async def suspend_player(staff: Compliance, name: str, asked: SuspendBody) -> SuspensionAnswer:
        """Suspend a player for ``days`` (null: until reinstated): no login, every session
        ended and every socket closed now, in every process; audited."""
        at = now()
        until = FOREVER if asked.days is None else at + asked.days * 86_400
        return await set_suspension(staff, name, until, at)

    @router.post("/api/admin/players/{name}/reinstate", dependencies=[SAME_SITE_JSON])
    async def reinstate_player(staff: Compliance, name: str) -> SuspensionAnswer:
        """Lift a player's suspension (they may log in again); audited."""
        return await set_suspension(staff, name, None, now())

    @router.post("/api/admin/players/{name}/notes", dependencies=[SAME_SITE_JSON], status_code=201)
    async def add_note(staff: Compliance, name: str, asked: NoteBody) -> NoteAnswer:
        """Append a note on a player (never changed nor removed); audited."""
        try:
            note = await run(
                partial(people.add_note, database, _name(name), asked.text, actor=staff.name,
                        role=staff.role.value, now=now())
            )  # fmt: skip
        except people.PeopleError as error:
            raise _refused(error) from None
        return NoteAnswer(id=note.id, at=note.at, actor=note.actor, role=note.role, text=note.text)

    @router.get("/api/admin/alerts")
    async def list_alerts(
        staff: Watchers,
        start: Annotated[
            str | None, Query(alias="from", description="the first day (a date or a time)")
        ] = None,
        end: Annotated[
            str | None, Query(alias="to", description="the last day, included (default: today)")
        ] = None,
        open_only: Annotated[
            str, Query(alias="open", description="true: those not acknowledged")
        ] = "false",
        marker: Annotated[str | None, Query(description="one marker only")] = None,
        limit: Annotated[str, Query(description=f"1 to {alerts.MAX_LIST}")] = "100",
    ) -> AlertList:
        """The alerts stored for a period of days (default: the last 30), newest first."""
        if open_only not in ("true", "false"):
            raise Refusal(400, "bad_request", "open: true or false")
        try:
            only = None if marker is None else Marker(marker)
        except ValueError:
            raise Refusal(
                400, "bad_request", f"marker: one of {', '.join(m.value for m in Marker)}"
            ) from None
        most = whole_number(limit, "limit", least=1, most=alerts.MAX_LIST)
        last = moment(end, "to", now())
        first = moment(start, "from", max(0.0, last - ALERT_DAYS * 86_400))
        if first > last:
            raise Refusal(400, "bad_request", "from: before to")
        first_day, last_day = alerts.day_of(first), alerts.day_of(last)
        found = await run(
            partial(alerts.alerts_in, database, first_day=first_day, last_day=last_day,
                    open_only=open_only == "true", marker=only, limit=most)
        )  # fmt: skip
        return AlertList(first_day=first_day, last_day=last_day, alerts=[_alert(a) for a in found])

    @router.post("/api/admin/alerts/scan", dependencies=[SAME_SITE_JSON])
    async def scan_alerts(staff: Compliance, asked: ScanBody) -> ScanAnswer:
        """Scan whole UTC days for the markers of harm; the alerts newly raised (the scan
        audited)."""
        first, last = moment(asked.start, "start", 0.0), moment(asked.end, "end", 0.0)
        try:
            raised = await run(
                partial(alerts.scan, database, start=first, end=last, now=now(),
                        thresholds=limits, hold=hold, actor=staff.name, role=staff.role.value)
            )  # fmt: skip
        except AlertError as error:
            raise _refused(error) from None
        days = round((alerts.period(first, last)[1] - alerts.period(first, last)[0]) / alerts.DAY)
        return ScanAnswer(raised=[_alert(a) for a in raised], days=days)

    @router.post("/api/admin/alerts/{alert_id}/acknowledge", dependencies=[SAME_SITE_JSON])
    async def acknowledge_alert(staff: Compliance, alert_id: str) -> AlertAnswer:
        """Acknowledge an alert (once); audited."""
        number = whole_number(alert_id, "alert", least=1, most=2**31 - 1)
        try:
            done = await run(
                partial(alerts.acknowledge, database, number, actor=staff.name,
                        role=staff.role.value, now=now())
            )  # fmt: skip
        except AlertError as error:
            raise _refused(error) from None
        return _alert(done)

    return router
