"""A player's own history (`GET /api/me/records`): every movement of their wallet with
its round, their last rounds step by step (the cards as the croupier dealt them, their
bets and what came back), this session's win or loss, and where their tables' shoe
records are to download for ``baccara verify``. And responsible play
(`/api/me/limits`, `/api/me/exclusion`): a daily loss limit the tables enforce, a
session-time reminder, and a self-exclusion that ends every session and refuses every
login until it is over."""

from __future__ import annotations

from datetime import UTC, datetime
from functools import partial
from typing import Annotated

from fastapi import APIRouter, Depends, Response
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field

from baccara.bets import BetKind
from baccara.coup import Coup, CoupError
from baccara.db.auth import User
from baccara.db.betting import MAX_AMOUNT
from baccara.db.history import PlayerHistory
from baccara.db.protections import (
    DELAY,
    LimitKind,
    Period,
    PeriodLimit,
    PlayerProtections,
    Protections,
)
from baccara.money import MoneyError, format_money, parse_money
from baccara.server.http.depends import (
    SAME_SITE_JSON,
    JsonBody,
    LoggedIn,
    Player,
    SessionSince,
)
from baccara.server.infra.edge import Refusal
from baccara.server.state import SESSION_COOKIE, ServerState
from baccara.server.wire.http import (
    EXCLUSION_DAYS,
    REMINDER_MINUTES,
    DealStep,
    ExclusionDays,
    LimitChoices,
    LimitsAnswer,
    Movement,
    MyRecords,
    PeriodLimitAnswer,
    PlayedBet,
    PlayedRound,
    ReminderMinutes,
    SessionTally,
    ShoeLink,
)
from baccara.table.narration import reveal

__all__ = ["deal_steps", "limit_asked", "me_router", "period_answer"]


def deal_steps(coup: str | None) -> list[DealStep]:
    """The deal of a stored coup, step by step, with the rule of each draw or stand."""
    if not coup:
        return []
    try:
        parsed = Coup.parse(coup)
    except CoupError:  # pragma: no cover - the ledger stores coups it dealt
        return []
    return [
        DealStep(words=step.words, reason=step.reason, player=[str(c) for c in step.player],
                 banker=[str(c) for c in step.banker])
        for step in reveal(parsed)
    ]  # fmt: skip


class LimitsRequest(BaseModel):
    """What the player sets: a loss limit for a day, 7 days and 30 days (``"100.00"``;
    null: none) and a reminder every so many minutes (null: none); a field left out is
    left as it is."""

    model_config = ConfigDict(extra="forbid")
    loss_limit: str | None = Field(default=None, max_length=20)
    loss_limit_week: str | None = Field(default=None, max_length=20)
    loss_limit_month: str | None = Field(default=None, max_length=20)
    reminder_minutes: ReminderMinutes | None = None


_LOSS_FIELDS = {"loss_limit_week": Period.WEEK, "loss_limit_month": Period.MONTH}


def limit_asked(text: int | str | None, name: str) -> int | None:
    """A limit the player typed (``"50.00"``) or gave in whole cents (``5000``), in minor
    units (None: none), or a 400 `Refusal` naming the field.

    >>> limit_asked("50", "loss_limit"), limit_asked(5000, "day"), limit_asked(None, "loss_limit")
    (5000, 5000, None)
    >>> limit_asked("-5", "loss_limit")
    Traceback (most recent call last):
    ...
    baccara.server.infra.edge.Refusal: 400 bad_request: loss_limit: a limit is zero or more
    """
    if text is None:
        return None
    try:
        amount = text if isinstance(text, int) else parse_money(text)
    except MoneyError as error:
        raise Refusal(400, "bad_request", f"{name}: {error}") from error
    if amount < 0:
        raise Refusal(400, "bad_request", f"{name}: a limit is zero or more")
    if amount > MAX_AMOUNT:
        raise Refusal(400, "bad_request", f"{name}: at most {format_money(MAX_AMOUNT)}")
    return amount


def period_answer(limit: PeriodLimit) -> PeriodLimitAnswer:
    """A limit over a period as the API answers it."""
    return PeriodLimitAnswer(
        amount=limit.amount, next_amount=limit.next_amount, next_from=limit.next_from
    )


def _not_a_boolean(value: object) -> object:
    """Refuse JSON's ``true`` and ``false`` where a number is asked: pydantic takes them
    as 1 and 0 against a literal of numbers, strict or not (``true`` excluded a player
    for a day)."""
    if isinstance(value, bool):
        raise ValueError("a number is required, not true or false")
    return value


class ExclusionRequest(BaseModel):
    """A self-exclusion for one of `EXCLUSION_DAYS` (a number: ``true`` is not a day)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    days: Annotated[ExclusionDays, BeforeValidator(_not_a_boolean)]


LimitsBody = Annotated[LimitsRequest, Depends(JsonBody(LimitsRequest))]
ExclusionBody = Annotated[ExclusionRequest, Depends(JsonBody(ExclusionRequest))]
Reader = Annotated[User, Depends(LoggedIn(message="log in to see your records"))]
"""The logged-in player reading their history (401 ``not_logged_in`` otherwise)."""


def _limits(found: PlayerProtections, session: float | None) -> LimitsAnswer:
    longer = dict(found.longer_losses)
    return LimitsAnswer(
        loss_limit=found.loss_limit,
        next_loss_limit=found.next_loss_limit,
        next_from=found.next_from,
        loss_week=period_answer(longer.get(Period.WEEK, PeriodLimit())),
        loss_month=period_answer(longer.get(Period.MONTH, PeriodLimit())),
        reminder_minutes=found.reminder_minutes,
        excluded_until=found.excluded_until,
        session_since=session,
        choices=LimitChoices(
            exclusion_days=list(EXCLUSION_DAYS),
            reminder_minutes=list(REMINDER_MINUTES),
            raise_after_hours=DELAY / 3600,  # a raised or removed loss limit waits this
        ),
    )


def me_router(state: ServerState, history: PlayerHistory, protections: Protections) -> APIRouter:
    """``/api/me/records``, ``/api/me/limits``, ``/api/me/exclusion`` of the server whose
    state is ``state`` (its worker threads, its clock, its session watch)."""
    router = APIRouter()
    run, now = state.run, state.clock.now

    @router.get("/api/me/limits")
    async def my_limits(user: Player, since: SessionSince) -> LimitsAnswer:
        """The player's limits (a raise or a removal waits a day: ``next_...``)."""
        return _limits(await run(partial(protections.get, user.id, now=now())), since)

    @router.post("/api/me/limits", dependencies=[SAME_SITE_JSON])
    async def set_limits(user: Player, asked: LimitsBody, since: SessionSince) -> LimitsAnswer:
        """Set the loss limits (a day, 7 and 30 days) and the session reminder; a cut
        applies to the next bet or buy-in at every table (the money gate reads it
        there), a raise or a removal a day later."""
        asked_set = asked.model_fields_set
        amounts = {  # every field read before any is set: a refusal changes nothing
            name: limit_asked(getattr(asked, name), name)
            for name in ("loss_limit", *_LOSS_FIELDS)
            if name in asked_set
        }
        if "loss_limit" in amounts:
            amount = amounts.pop("loss_limit")
            await run(partial(protections.set_loss_limit, user.id, amount, now=now()))
        for name, amount in amounts.items():
            await run(
                partial(
                    protections.set_period_limit, user.id, LimitKind.LOSS,
                    _LOSS_FIELDS[name], amount, now=now(),
                )
            )  # fmt: skip
        if "reminder_minutes" in asked.model_fields_set:
            await run(partial(protections.set_reminder, user.id, asked.reminder_minutes, now=now()))
        return _limits(await run(partial(protections.get, user.id, now=now())), since)

    @router.post("/api/me/exclusion", dependencies=[SAME_SITE_JSON])
    async def exclude(user: Player, asked: ExclusionBody, response: Response) -> LimitsAnswer:
        """Exclude the player for ``days`` (never shortened): every session ends now."""
        moment = now()
        done = await run(
            partial(protections.exclude, user.id, moment + asked.days * 86_400, now=moment)
        )
        state.watch.poke()  # every socket of the player closes at once
        response.delete_cookie(SESSION_COOKIE, path="/")
        return _limits(done, None)

    @router.get("/api/me/records")
    async def mine(user: Reader, since: SessionSince, before: str = "") -> MyRecords:
        """Movements (50, newest first; ``before``: older than that movement's id), the
        last 10 rounds, this session's win or loss, the shoe records' addresses."""
        if before and not (before.isascii() and before.isdigit() and len(before) < 19):
            raise Refusal(400, "bad_request", "before is a movement's id, a whole number")
        moves = await run(
            partial(history.movements, user.account, before=int(before) if before else None)
        )
        rounds = await run(history.rounds, user.account)
        start = since or 0.0
        session = await run(history.since, user.account, datetime.fromtimestamp(start, UTC))
        played = []
        for one in rounds:
            bets = [PlayedBet(**bet, label=BetKind(bet["kind"]).label) for bet in one.pop("bets")]
            played.append(PlayedRound(**one, bets=bets, steps=deal_steps(one["coup"])))
        tables = sorted({one.table for one in played})
        return MyRecords(
            movements=[Movement.model_validate(move) for move in moves],
            rounds=played,
            session=SessionTally(**session, since=start),
            shoes=[ShoeLink(table=t, url=f"/api/tables/{t}/shoes") for t in tables],
        )

    return router
