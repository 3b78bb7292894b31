"""The operator's console over HTTP (``/api/admin/...``): every route takes the
logged-in staff member from a dependency that checks the role it allows
(`baccara.server.http.depends.StaffMember`, `require_role`): anonymous 401, a player or
another role 403, another site's page 403, before the route reads anything.

``GET /api/admin/audit``: the audit log (`baccara.db.audit`), a page at a time
(``?after=ID&limit=N``: the entries past entry ``ID``, oldest first, 1 to
`baccara.db.audit.MAX_PAGE` of them), for every role.

The tables as data (`baccara.db.table_list`; every role reads, the ``operator`` role
changes): ``GET /api/admin/tables``; ``POST /api/admin/tables`` (open one:
``{"id": "n1", "variant": "ez"}``); ``POST /api/admin/tables/{id}/pause``,
``.../resume``, ``.../close``; ``PATCH /api/admin/tables/{id}`` (limits and timings);
``GET /api/admin/variants`` (the games a table may be opened with);
``POST /api/admin/play/stop`` and ``.../resume`` (``{"game": "all"}`` or a game
family); ``POST /api/admin/players/{name}/logins`` (``{"stopped": true}``: the house's
suspension). Each change is written with its audit entry in one transaction, and
signalled on the control channel: every process applies it within a second
(`baccara.server.cluster.hall`). A post that is not JSON from this site is refused
before the login is looked at.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Annotated

from fastapi import APIRouter, Depends, Query

from baccara.db import audit, table_list
from baccara.db.protections import SuspendError, stop_logins
from baccara.db.staff import Role, Staff
from baccara.db.table_list import Actor, TableListError, TableRow, TableState
from baccara.money import MoneyError, parse_money
from baccara.server.cluster.hall import pause_reason
from baccara.server.http.depends import (
    SAME_SITE_JSON,
    JsonBody,
    Operator,
    StaffMember,
    require_role,
)
from baccara.server.infra.edge import Refusal
from baccara.server.state import ServerState
from baccara.server.tables.make import TABLE_KINDS
from baccara.server.wire.admin import (
    AdminTable,
    AuditPage,
    AuditRecord,
    AuditVerdict,
    LoginsAnswer,
    LoginsRequest,
    NewTable,
    PlayStop,
    StopsAnswer,
    TableList,
    TableSetupRequest,
    VariantChoice,
    VariantList,
)
from baccara.variants import find_variant, variants_of

__all__ = ["admin_router", "admin_table", "refused", "whole_number"]

DEFAULT_PAGE = 100
NewTableBody = Annotated[NewTable, Depends(JsonBody(NewTable))]
SetupBody = Annotated[TableSetupRequest, Depends(JsonBody(TableSetupRequest))]
StopBody = Annotated[PlayStop, Depends(JsonBody(PlayStop))]
LoginsBody = Annotated[LoginsRequest, Depends(JsonBody(LoginsRequest))]
_STATUS = {"no_such_table": 404, "table_exists": 409, "table_closed": 409}


def refused(error: TableListError) -> Refusal:
    """A refused change to the table list as its answer (404 no such table, 409 one that
    exists or is closed, 400 otherwise), naming the bad input."""
    return Refusal(_STATUS.get(error.code, 400), error.code, str(error))


def admin_table(row: TableRow, stopped: set[str]) -> AdminTable:
    """A stored table as the console shows it."""
    return AdminTable(
        id=row.id,
        variant=row.variant,
        game=find_variant(row.variant).family.value,
        squeeze=row.squeeze,
        state=row.state,
        held=None if row.state is TableState.CLOSED else pause_reason(row, stopped),
        minimum=row.minimum,
        maximum=row.maximum,
        bet_seconds=row.bet_seconds,
        decision_seconds=row.decision_seconds,
        result_seconds=row.result_seconds,
        updated_at=row.updated_at,
    )


def _cents(text: str | None, name: str) -> int | None:
    """An amount typed (``"10.00"``) in minor units, above zero; None stays None."""
    if text is None:
        return None
    try:
        return parse_money(text, positive=True)
    except MoneyError as error:
        raise Refusal(400, "bad_request", f"{name}: {error}") from None


def whole_number(text: str, name: str, *, least: int, most: int) -> int:
    """``text`` as a whole number from ``least`` to ``most``, or a 400 `Refusal` naming
    ``name``.

    >>> whole_number("42", "limit", least=1, most=500)
    42
    >>> whole_number("-1", "after", least=0, most=10**12)
    Traceback (most recent call last):
    ...
    baccara.server.infra.edge.Refusal: 400 bad_request: after: a whole number from 0 to 1000000000000
    """
    if not (text.isascii() and text.isdigit() and len(text) <= len(str(most))):
        raise Refusal(400, "bad_request", f"{name}: a whole number from {least} to {most}")
    number = int(text)
    if not least <= number <= most:
        raise Refusal(400, "bad_request", f"{name}: a whole number from {least} to {most}")
    return number


OperatorOrCompliance = Annotated[Staff, Depends(require_role(Role.OPERATOR, Role.COMPLIANCE))]
"""A staff member who may stop a player's logins (the operator at the tables, compliance)."""


def admin_router(state: ServerState) -> APIRouter:
    """The console's routes of the server whose state is ``state``."""
    router = APIRouter()
    database = state.ledger.database

    @router.get("/api/admin/audit")
    async def audit_log(
        staff: StaffMember,
        after: Annotated[str, Query(description="the id of the last entry already read")] = "0",
        limit: Annotated[str, Query(description=f"how many entries, 1 to {audit.MAX_PAGE}")] = str(
            DEFAULT_PAGE
        ),
    ) -> AuditPage:
        """The audit log's entries past ``after``, oldest first (every role may read it)."""
        since = whole_number(after, "after", least=0, most=2**63 - 1)
        most = whole_number(limit, "limit", least=1, most=audit.MAX_PAGE)
        found = await state.run(partial(audit.entries, database, after=since, limit=most))
        return AuditPage(
            entries=[
                AuditRecord(
                    id=e.id, at=e.at, actor=e.actor, role=e.role, action=e.action,
                    target=e.target, before=e.before, after=e.after, prev_hash=e.prev_hash,
                    hash=e.hash,
                )
                for e in found
            ],
            after=since,
            limit=most,
            next_after=found[-1].id if len(found) == most else None,
        )  # fmt: skip

    @router.get("/api/admin/audit/verify")
    async def audit_verify(staff: StaffMember) -> AuditVerdict:
        """Walk the audit log's chain of hashes and name its first broken entry, as
        ``baccara admin audit verify`` does (every role may ask)."""
        found = await state.run(audit.verify, database)
        return AuditVerdict(
            count=found.count, whole=found.whole, broken=found.broken, reason=found.reason
        )

    def actor(staff: Staff) -> Actor:
        return Actor(name=staff.name, role=staff.role.value, now=state.clock.now())

    async def shown(row: TableRow) -> AdminTable:
        return admin_table(row, await state.run(table_list.stops, database))

    async def change(fn: Callable[[], TableRow]) -> AdminTable:
        """Make a change to the table list on the worker threads; its table as it is now."""
        try:
            return await shown(await state.run(fn))
        except TableListError as error:
            raise refused(error) from None

    @router.get("/api/admin/tables")
    async def tables(staff: StaffMember) -> TableList:
        """Every table, closed ones too, and the stops of play (every role may read them)."""
        rows = await state.run(table_list.table_rows, database)
        stopped = await state.run(table_list.stops, database)
        return TableList(
            tables=[admin_table(row, stopped) for row in rows], stopped=sorted(stopped)
        )

    @router.get("/api/admin/variants")
    async def variants(staff: StaffMember) -> VariantList:
        """The games a table may be opened with (every role may read them)."""
        return VariantList(
            variants=[
                VariantChoice(
                    name=v.name, title=v.title, game=v.family.value, squeeze=v.house_banked
                )
                for v in variants_of(TABLE_KINDS)
            ]
        )

    @router.post("/api/admin/tables", dependencies=[SAME_SITE_JSON], status_code=201)
    async def open_table(staff: Operator, asked: NewTableBody) -> AdminTable:
        """Open a table (or open a closed one again): every process runs it within a second."""
        return await change(
            partial(
                table_list.add_table,
                database,
                actor(staff),
                table=asked.id,
                variant=asked.variant,
                squeeze=asked.squeeze,
            )
        )

    def to_state(target: TableState, what: str) -> None:
        @router.post(f"/api/admin/tables/{{table_id}}/{what}", dependencies=[SAME_SITE_JSON])
        async def set_state(staff: Operator, table_id: str) -> AdminTable:
            return await change(
                partial(table_list.set_state, database, actor(staff), table_id, target)
            )

        set_state.__name__ = f"{what}_table"
        set_state.__doc__ = {
            "pause": "Pause a table: the round in play finishes, no new one; players are told.",
            "resume": "Let a paused table play again.",
            "close": "Close a table after its round in play (a players' table's chips go "
            "back to the wallets).",
        }[what]

    for target, what in (
        (TableState.PAUSED, "pause"),
        (TableState.OPEN, "resume"),
        (TableState.CLOSED, "close"),
    ):
        to_state(target, what)

    @router.patch("/api/admin/tables/{table_id}", dependencies=[SAME_SITE_JSON])
    async def set_up(staff: Operator, table_id: str, asked: SetupBody) -> AdminTable:
        """Change a table's limits and timings, from its next round (a field left out is
        left; null: the server's configuration's)."""
        changes: dict[str, int | float | None] = {}
        for name in sorted(asked.model_fields_set):
            value = getattr(asked, name)
            changes[name] = _cents(value, name) if name in table_list.LIMITS else value
        return await change(
            partial(table_list.set_setup, database, actor(staff), table_id, changes)
        )

    def stopping(stopped: bool) -> None:
        what = "stop" if stopped else "resume"

        @router.post(f"/api/admin/play/{what}", dependencies=[SAME_SITE_JSON])
        async def set_stop(staff: Operator, asked: StopBody) -> StopsAnswer:
            try:
                await state.run(
                    partial(
                        table_list.set_stop, database, actor(staff), asked.game, stopped=stopped
                    )
                )
            except TableListError as error:
                raise refused(error) from None
            return StopsAnswer(stopped=sorted(await state.run(table_list.stops, database)))

        set_stop.__name__ = f"{what}_play"
        set_stop.__doc__ = (
            "Stop play everywhere (``all``) or at one game: each table finishes its round "
            "in play and holds."
            if stopped
            else "Let play go on where it was stopped."
        )

    stopping(True)
    stopping(False)

    @router.post("/api/admin/players/{name}/logins", dependencies=[SAME_SITE_JSON])
    async def player_logins(
        staff: OperatorOrCompliance, name: str, asked: LoginsBody
    ) -> LoginsAnswer:
        """Stop a player's logins (every session ends now, their sockets close within a
        second; the round in play is settled as usual): the operator or compliance; or
        let them log in again: compliance only, who acts on the players (it lifts any
        suspension in force, a compliance one too)."""
        if not asked.stopped and staff.role is not Role.COMPLIANCE:
            raise Refusal(403, "wrong_role", "letting a player log in again: compliance only")
        try:
            await state.run(
                partial(
                    stop_logins,
                    database,
                    name,
                    stopped=asked.stopped,
                    actor=staff.name,
                    role=staff.role.value,
                    now=state.clock.now(),
                )
            )
        except SuspendError as error:
            raise Refusal(404, "no_such_player", str(error)) from None
        state.watch.poke()  # the sockets here close at once; the others' hear the signal
        return LoginsAnswer(name=name, stopped=asked.stopped)

    return router
