"""A player's own records (`GET /api/me/records`): every movement of their wallet with
its round, their last rounds step by step (the cards as the croupier dealt them, their
bets and what came back), this session's win or loss, and where their tables' shoe
records are to download for ``baccara verify``."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from functools import partial
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from baccara.coup import Coup, CoupError
from baccara.db.records import PlayerRecords
from baccara.server.auth import User
from baccara.server.protocol import Problem
from baccara.table.narration import reveal

__all__ = ["me_router"]


def _problem(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse(Problem(error=code, message=message).model_dump(), status_code=status)


def _steps(coup: str | None) -> list[dict[str, Any]]:
    """The deal of a stored coup, step by step, with the rule of each draw or stand."""
    if not coup:
        return []
    try:
        parsed = Coup.parse(coup)
    except CoupError:  # pragma: no cover - the ledger stores coups it dealt
        return []
    return [
        {"words": step.words, "reason": step.reason, "player": [str(c) for c in step.player],
         "banker": [str(c) for c in step.banker]}
        for step in reveal(parsed)
    ]  # fmt: skip


def me_router(
    records: PlayerRecords,
    *,
    user: Callable[[Request], Awaitable[User | None]],
    started: Callable[[Request], Awaitable[float | None]],
    run: Callable[..., Awaitable[Any]],
) -> APIRouter:
    """``/api/me/records``; ``user`` finds the logged-in player, ``started`` when their
    session began, ``run`` runs a database call on the worker threads."""
    router = APIRouter()

    @router.get("/api/me/records")
    async def mine(request: Request, before: str = "") -> JSONResponse:
        """Movements (50, newest first; ``before``: older than that movement's id), the
        last 10 rounds, this session's win or loss, the shoe records' addresses."""
        found = await user(request)
        if found is None:
            return _problem(401, "not_logged_in", "log in to see your records")
        if before and not (before.isdigit() and len(before) < 19):
            return _problem(400, "bad_request", "before is a movement's id, a whole number")
        since = await started(request) or 0.0
        moves = await run(
            partial(records.movements, found.account, before=int(before) if before else None)
        )
        rounds = await run(records.rounds, found.account)
        session = await run(records.since, found.account, datetime.fromtimestamp(since, UTC))
        for one in rounds:
            one["steps"] = _steps(one["coup"])
        tables = sorted({one["table"] for one in rounds})
        return JSONResponse(
            {
                "movements": moves,
                "rounds": rounds,
                "session": {**session, "since": since},
                "shoes": [{"table": t, "url": f"/api/tables/{t}/shoes"} for t in tables],
            }
        )

    return router
