"""A player's own records (`GET /api/me/records`): every movement of their wallet with
its round, their last rounds step by step (the cards as the croupier dealt them, their
bets and what came back), this session's win or loss, and where their tables' shoe
records are to download for ``baccara verify``. And responsible play
(`/api/me/limits`, `/api/me/exclusion`): a daily loss limit the tables enforce, a
session-time reminder, and a self-exclusion that ends every session and refuses every
login until it is over."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from functools import partial
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from baccara.bets import BetKind
from baccara.coup import Coup, CoupError
from baccara.db.auth import User
from baccara.db.betting import MAX_AMOUNT
from baccara.db.history import PlayerHistory
from baccara.db.protections import DELAY, PlayerProtections, Protections
from baccara.money import MoneyError, format_money, parse_money
from baccara.server.infra.edge import problem, reply
from baccara.server.state import Blocking
from baccara.server.wire.http import (
    EXCLUSION_DAYS,
    REMINDER_MINUTES,
    DealStep,
    ExclusionDays,
    LimitChoices,
    LimitsAnswer,
    Movement,
    MyRecords,
    PlayedBet,
    PlayedRound,
    ReminderMinutes,
    SessionTally,
    ShoeLink,
)
from baccara.table.narration import reveal

__all__ = ["me_router"]


def _steps(coup: str | None) -> list[DealStep]:
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
    """What the player sets: a daily loss limit (``"100.00"``; null: none) and a
    reminder every so many minutes (null: none); a field left out is left as it is."""

    model_config = ConfigDict(extra="forbid")
    loss_limit: str | None = Field(default=None, max_length=20)
    reminder_minutes: ReminderMinutes | None = None


class ExclusionRequest(BaseModel):
    """A self-exclusion for one of `EXCLUSION_DAYS` (a number: ``true`` is not a day)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    days: ExclusionDays


def _limits(found: PlayerProtections, session: float | None) -> JSONResponse:
    return reply(
        LimitsAnswer(
            loss_limit=found.loss_limit,
            next_loss_limit=found.next_loss_limit,
            next_from=found.next_from,
            reminder_minutes=found.reminder_minutes,
            excluded_until=found.excluded_until,
            session_since=session,
            choices=LimitChoices(
                exclusion_days=list(EXCLUSION_DAYS),
                reminder_minutes=list(REMINDER_MINUTES),
                raise_after_hours=DELAY / 3600,  # a raised or removed loss limit waits this
            ),
        )
    )


def me_router(
    records: PlayerHistory,
    limits: Protections,
    *,
    user: Callable[[Request], Awaitable[User | None]],
    started: Callable[[Request], Awaitable[float | None]],
    guard: Callable[[Request], JSONResponse | None],
    run: Blocking,
    revoked: Callable[[], None] = lambda: None,
    now: Callable[[], float] = time.time,
) -> APIRouter:
    """``/api/me/records``, ``/api/me/limits``, ``/api/me/exclusion``; ``user`` finds
    the logged-in player, ``started`` when their session began, ``guard`` refuses a post
    from another site or not in JSON, ``run`` runs a database call on the worker threads,
    ``revoked`` says that sessions have ended (their sockets close), ``now`` is the
    server's clock."""
    router = APIRouter()

    async def posted(request: Request, model: type[BaseModel]) -> tuple[User, Any] | JSONResponse:
        refused = guard(request)
        if refused is not None:
            return refused
        found = await user(request)
        if found is None:
            return problem(401, "not_logged_in", "log in first")
        try:
            return found, model.model_validate_json(await request.body())
        except ValidationError as error:
            first = error.errors()[0]
            where = ".".join(str(p) for p in first["loc"]) or "body"
            return problem(400, "bad_request", f"{where}: {first['msg']}")

    @router.get("/api/me/limits", response_model=LimitsAnswer)
    async def my_limits(request: Request) -> JSONResponse:
        """The player's limits (a raise or a removal waits a day: ``next_...``)."""
        found = await user(request)
        if found is None:
            return problem(401, "not_logged_in", "log in first")
        return _limits(await run(partial(limits.get, found.id, now=now())), await started(request))

    @router.post("/api/me/limits", response_model=LimitsAnswer)
    async def set_limits(request: Request) -> JSONResponse:
        """Set the daily loss limit and the session reminder; a cut applies to the next
        bet or buy-in at every table (the money gate reads it there)."""
        got = await posted(request, LimitsRequest)
        if isinstance(got, JSONResponse):
            return got
        found, asked = got
        if "loss_limit" in asked.model_fields_set:
            try:
                amount = None if asked.loss_limit is None else parse_money(asked.loss_limit)
            except MoneyError as error:
                return problem(400, "bad_request", f"loss_limit: {error}")
            if amount is not None and amount < 0:
                return problem(400, "bad_request", "loss_limit: a limit is zero or more")
            if amount is not None and amount > MAX_AMOUNT:
                most = format_money(MAX_AMOUNT)
                return problem(400, "bad_request", f"loss_limit: at most {most}")
            await run(partial(limits.set_loss_limit, found.id, amount, now=now()))
        if "reminder_minutes" in asked.model_fields_set:
            await run(limits.set_reminder, found.id, asked.reminder_minutes)
        return _limits(await run(partial(limits.get, found.id, now=now())), await started(request))

    @router.post("/api/me/exclusion", response_model=LimitsAnswer)
    async def exclude(request: Request) -> JSONResponse:
        """Exclude the player for ``days`` (never shortened): every session ends now."""
        got = await posted(request, ExclusionRequest)
        if isinstance(got, JSONResponse):
            return got
        found, asked = got
        moment = now()
        done = await run(
            partial(limits.exclude, found.id, moment + asked.days * 86_400, now=moment)
        )
        revoked()  # every socket of the player closes at once
        response = _limits(done, None)
        response.delete_cookie("baccara_session", path="/")
        return response

    @router.get("/api/me/records", response_model=MyRecords)
    async def mine(request: Request, before: str = "") -> JSONResponse:
        """Movements (50, newest first; ``before``: older than that movement's id), the
        last 10 rounds, this session's win or loss, the shoe records' addresses."""
        found = await user(request)
        if found is None:
            return problem(401, "not_logged_in", "log in to see your records")
        if before and not (before.isascii() and before.isdigit() and len(before) < 19):
            return problem(400, "bad_request", "before is a movement's id, a whole number")
        since = await started(request) or 0.0
        moves = await run(
            partial(records.movements, found.account, before=int(before) if before else None)
        )
        rounds = await run(records.rounds, found.account)
        session = await run(records.since, found.account, datetime.fromtimestamp(since, UTC))
        played = []
        for one in rounds:
            bets = [PlayedBet(**bet, label=BetKind(bet["kind"]).label) for bet in one.pop("bets")]
            played.append(PlayedRound(**one, bets=bets, steps=_steps(one["coup"])))
        tables = sorted({one.table for one in played})
        return reply(
            MyRecords(
                movements=[Movement.model_validate(move) for move in moves],
                rounds=played,
                session=SessionTally(**session, since=since),
                shoes=[ShoeLink(table=t, url=f"/api/tables/{t}/shoes") for t in tables],
            )
        )

    return router
