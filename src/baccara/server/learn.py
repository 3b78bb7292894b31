"""The Learn section's HTTP side: its page, the book (`baccara.learn.book`), a term of
the dictionary and the interactive tableau. No login: teaching is for everybody.

The book is computed once, on a worker thread (the engines' first load takes a second
or two), and then sent from memory, gzipped.
"""

from __future__ import annotations

import asyncio
import gzip
import json
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, JSONResponse, Response

from baccara.learn import glossary
from baccara.learn.book import learn_book
from baccara.learn.lessons import TableauError, decide
from baccara.server.protocol import Problem

__all__ = ["learn_router"]

LONGEST = 24  # two cards and separators, generously


def _problem(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse(Problem(error=code, message=message).model_dump(), status_code=status)


class _Book:
    """The book as JSON bytes, plain and gzipped, built once."""

    def __init__(self) -> None:
        self.lock = asyncio.Lock()
        self.plain = b""
        self.packed = b""

    async def bytes(self) -> tuple[bytes, bytes]:
        async with self.lock:
            if not self.plain:
                data: dict[str, Any] = await asyncio.to_thread(learn_book)
                self.plain = json.dumps(data, separators=(",", ":")).encode()
                self.packed = gzip.compress(self.plain, 6)
        return self.plain, self.packed


def learn_router(static: Path) -> APIRouter:
    """The routes: ``/learn``, ``/api/learn``, ``/api/learn/terms/{name}``,
    ``/api/learn/tableau``."""
    router = APIRouter()
    book = _Book()

    @router.get("/learn", include_in_schema=False)
    async def page() -> FileResponse:
        return FileResponse(static / "learn.html", headers={"Cache-Control": "no-cache"})

    @router.get("/api/learn")
    async def whole(request: Request) -> Response:
        """The lessons, the dictionary, the FAQs, the tips and every variant's pay table
        and house edges (figures from the exact engine and the solver)."""
        plain, packed = await book.bytes()
        if "gzip" in request.headers.get("accept-encoding", ""):
            return Response(
                packed,
                media_type="application/json",
                headers={"Content-Encoding": "gzip", "Vary": "Accept-Encoding"},
            )
        return Response(plain, media_type="application/json")

    @router.get("/api/learn/terms/{name}")
    async def term(name: str) -> JSONResponse:
        """One term of the dictionary (any case, or another of its names)."""
        try:
            found = glossary.lookup(name[:64])
        except glossary.UnknownTerm as error:
            return _problem(404, "unknown_term", str(error))
        return JSONResponse(
            {"name": found.name, "text": found.text, "also": found.also, "see": found.see}
        )

    @router.get("/api/learn/tableau")
    async def tableau(player: str = "", banker: str = "", third: str = "") -> Response:
        """What the tableau says for two hands of two cards (and the Player's third card
        when it draws): each side's decision and its reason, from the rulebook."""
        if max(len(player), len(banker), len(third)) > LONGEST:
            return _problem(400, "bad_cards", "a hand is two cards, like '9h Kd'")
        try:
            found = decide(player, banker, third or None)
        except TableauError as error:
            return _problem(400, "bad_cards", str(error))
        side = (
            None
            if found.banker is None
            else {"draws": found.banker.draws, "reason": found.banker.reason}
        )
        return JSONResponse(
            {
                "player_total": found.player_total,
                "banker_total": found.banker_total,
                "player": {"draws": found.player.draws, "reason": found.player.reason},
                "banker": side,
            }
        )

    return router
