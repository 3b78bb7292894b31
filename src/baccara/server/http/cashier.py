"""The cashier over HTTP: an operator records a player's deposits and withdrawals
(``POST /api/admin/cashier/deposit``, ``.../withdrawal``: `baccara.db.cashier`, every
check inside the transaction that books it), every staff role reads a player's
statement (``GET /api/admin/players/{name}/movements?from=&to=``, JSON or, with
``format=csv``, CSV), and a player sets their deposit limits over 24 hours, 7 and 30
days (``GET``/``PUT /api/me/deposit-limits``: a cut at once, a raise a day later).

A refusal books nothing and says why: 400 ``bad_amount`` or ``bad_reference`` or
``staff_account``, 404 ``unknown_player``, 409 ``insufficient_funds``,
``deposit_limit``, ``reference_reused``, or for a deposit ``self_excluded`` or
``suspended`` (a withdrawal is paid to them).
"""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime
from functools import partial
from typing import Annotated

from fastapi import APIRouter, Depends, Query
from fastapi.responses import Response

from baccara.db.cashier import Cashier, CashierError, CashierReceipt, Clerk, check_cash_amount
from baccara.db.history import STATEMENT_ROWS, PlayerHistory
from baccara.db.protections import DELAY, FOREVER, LimitKind, Period, PeriodLimit, Protections
from baccara.db.staff import Staff
from baccara.money import MoneyError, format_money, parse_money
from baccara.server.http.depends import (
    SAME_SITE_JSON,
    JsonBody,
    Operator,
    Player,
    StaffMember,
)
from baccara.server.http.me import limit_asked, period_answer
from baccara.server.infra.edge import Refusal
from baccara.server.state import ServerState
from baccara.server.wire.cashier import (
    CashierMove,
    CashierRequest,
    DepositLimits,
    DepositLimitsRequest,
    Statement,
)
from baccara.server.wire.http import Movement

__all__ = ["LAST_MOMENT", "STATUS", "cash_amount", "cashier_router", "moment"]

STATUS = {
    "bad_amount": 400,
    "bad_reference": 400,
    "staff_account": 400,
    "unknown_player": 404,
    "insufficient_funds": 409,
    "deposit_limit": 409,
    "self_excluded": 409,
    "suspended": 409,
    "reference_reused": 409,
}
"""The status each of the cashier's refusals is answered with."""

LAST_MOMENT = FOREVER
"""The last second a statement may name (9999-12-31 23:59:59 UTC)."""
DEFAULT_DAYS = 30
"""A statement without ``from`` covers this many days before ``to``."""

CashierBody = Annotated[CashierRequest, Depends(JsonBody(CashierRequest))]
DepositLimitsBody = Annotated[DepositLimitsRequest, Depends(JsonBody(DepositLimitsRequest))]


def cash_amount(asked: int | str) -> int:
    """An amount of money asked (text such as ``"10.00"``, or whole cents) in cents, above
    0.00, or a 400 `Refusal` ``bad_amount`` that says why.

    >>> cash_amount("10.50"), cash_amount(1050)
    (1050, 1050)
    >>> cash_amount("-1")
    Traceback (most recent call last):
    ...
    baccara.server.infra.edge.Refusal: 400 bad_amount: bad amount '-1': it must be more than 0.00
    """
    try:
        cents = parse_money(asked, positive=True) if isinstance(asked, str) else asked
        return check_cash_amount(cents)
    except (MoneyError, CashierError) as error:
        raise Refusal(400, "bad_amount", str(error)) from None


def moment(text: str | None, name: str, default: float) -> float:
    """A moment given as a date or a time in ISO 8601 (UTC unless it says), or seconds
    since the epoch; ``default`` when not given; else a 400 `Refusal` naming ``name``.

    >>> moment("2026-11-01", "from", 0.0), moment("1790000000", "to", 0.0), moment(None, "to", 5.0)
    (1793491200.0, 1790000000.0, 5.0)
    """
    if text is None or text == "":
        return default
    bad = f"{name}: a date (2026-11-01), a time in ISO 8601 or epoch seconds, 1970 to 9999"
    if text.isascii() and text.isdigit() and len(text) <= 12:
        seconds = float(text)
    else:
        try:
            found = datetime.fromisoformat(text)
        except ValueError:
            raise Refusal(400, "bad_request", bad) from None
        seconds = (found if found.tzinfo else found.replace(tzinfo=UTC)).timestamp()
    if not 0 <= seconds <= LAST_MOMENT:
        raise Refusal(400, "bad_request", bad)
    return seconds


def _move(receipt: CashierReceipt) -> CashierMove:
    return CashierMove(
        id=receipt.id, kind=receipt.kind.value, player=receipt.player, amount=receipt.amount,
        reference=receipt.reference, actor=receipt.actor, at=receipt.at,
        balance=receipt.balance, duplicate=receipt.duplicate,
    )  # fmt: skip


def _refused(error: CashierError) -> Refusal:
    return Refusal(STATUS.get(error.code, 400), error.code, str(error))


def _deposit_limits(found: dict[Period, PeriodLimit]) -> DepositLimits:
    def one(period: Period) -> PeriodLimit:
        return found.get(period, PeriodLimit())

    return DepositLimits(
        day=period_answer(one(Period.DAY)),
        week=period_answer(one(Period.WEEK)),
        month=period_answer(one(Period.MONTH)),
        raise_after_hours=DELAY / 3600,
    )


def _csv(statement: Statement) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(["id", "time", "what", "memo", "table", "round", "amount", "amount_cents"])
    for line in statement.movements:
        when = datetime.fromtimestamp(line.time, UTC).isoformat(timespec="seconds")
        writer.writerow([
            line.id, when, line.what, line.memo, line.table or "",
            "" if line.round is None else line.round, format_money(line.amount), line.amount,
        ])  # fmt: skip
    return out.getvalue()


def cashier_router(
    state: ServerState, cashier: Cashier, history: PlayerHistory, protections: Protections
) -> APIRouter:
    """The cashier's routes and the player's deposit limits of the server whose state is
    ``state`` (its worker threads, its clock)."""
    router = APIRouter()
    run, now = state.run, state.clock.now

    async def book(staff: Staff, asked: CashierRequest, withdrawal: bool) -> CashierMove:
        amount = cash_amount(asked.amount)
        clerk = Clerk(name=staff.name, role=staff.role.value)
        do = cashier.withdraw if withdrawal else cashier.deposit
        try:
            receipt = await run(
                partial(do, asked.player, amount, asked.reference, clerk, now=now())
            )
        except CashierError as error:
            raise _refused(error) from None
        return _move(receipt)

    @router.post("/api/admin/cashier/deposit", dependencies=[SAME_SITE_JSON])
    async def deposit(staff: Operator, asked: CashierBody) -> CashierMove:
        """Book a deposit to a player's wallet (within the player's deposit limits); the
        same reference again books nothing more and answers the first (``duplicate``)."""
        return await book(staff, asked, withdrawal=False)

    @router.post("/api/admin/cashier/withdrawal", dependencies=[SAME_SITE_JSON])
    async def withdrawal(staff: Operator, asked: CashierBody) -> CashierMove:
        """Book a withdrawal from a player's wallet (never more than it holds; an excluded
        or suspended player is paid too); the same reference books once."""
        return await book(staff, asked, withdrawal=True)

    @router.get(
        "/api/admin/players/{name}/movements",
        response_model=Statement,
        responses={200: {"content": {"text/csv": {"schema": {"type": "string"}}}}},
    )
    async def movements(
        staff: StaffMember,
        name: str,
        start: Annotated[
            str | None, Query(alias="from", description="from (a date, ISO time or epoch s)")
        ] = None,
        end: Annotated[
            str | None, Query(alias="to", description="to, excluded (default: now)")
        ] = None,
        shape: Annotated[str, Query(alias="format", description="json or csv")] = "json",
    ) -> Statement | Response:
        """A player's statement: every movement of their wallet from ``from`` to ``to``
        (default: the last 30 days), oldest first; ``format=csv`` for a spreadsheet."""
        if shape not in ("json", "csv"):
            raise Refusal(400, "bad_request", "format: json or csv")
        until = moment(end, "to", now())
        since = moment(start, "from", max(0.0, until - DEFAULT_DAYS * 86_400))
        if since > until:
            raise Refusal(400, "bad_request", "from: before to")
        try:
            player, wallet = await run(cashier.wallet, name)
        except CashierError as error:
            raise _refused(error) from None
        found = await run(
            partial(
                history.statement, wallet, datetime.fromtimestamp(since, UTC),
                datetime.fromtimestamp(until, UTC), limit=STATEMENT_ROWS + 1,
            )
        )  # fmt: skip
        lines = [Movement.model_validate(move) for move in found[:STATEMENT_ROWS]]
        statement = Statement(
            player=player, start=since, end=until, movements=lines,
            net=sum(line.amount for line in lines), complete=len(found) <= STATEMENT_ROWS,
        )  # fmt: skip
        if shape == "json":
            return statement
        stamp = f"{datetime.fromtimestamp(since, UTC):%Y%m%d}-{datetime.fromtimestamp(until, UTC):%Y%m%d}"
        return Response(
            _csv(statement),
            media_type="text/csv; charset=utf-8",
            headers={"Content-Disposition": f'attachment; filename="{player}-{stamp}.csv"'},
        )

    @router.get("/api/me/deposit-limits")
    async def my_deposit_limits(user: Player) -> DepositLimits:
        """The player's deposit limits (a raise or a removal waits a day: ``next_...``)."""
        found = await run(partial(protections.period_limits, user.id, LimitKind.DEPOSIT, now=now()))
        return _deposit_limits(found)

    @router.put("/api/me/deposit-limits", dependencies=[SAME_SITE_JSON])
    async def set_deposit_limits(user: Player, asked: DepositLimitsBody) -> DepositLimits:
        """Set deposit limits over 24 hours (``day``), 7 days (``week``) and 30 days
        (``month``): a cut at once, a raise or a removal a day later."""
        amounts = {  # every field read before any is set: a refusal changes nothing
            period: limit_asked(getattr(asked, period.value), period.value)
            for period in Period
            if period.value in asked.model_fields_set
        }
        for period, amount in amounts.items():
            await run(
                partial(
                    protections.set_period_limit, user.id, LimitKind.DEPOSIT, period, amount,
                    now=now(),
                )
            )  # fmt: skip
        found = await run(partial(protections.period_limits, user.id, LimitKind.DEPOSIT, now=now()))
        return _deposit_limits(found)

    return router
