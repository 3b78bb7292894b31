"""The Learn section's HTTP side: its page, the book (`baccara.learn.book`), a term of
the dictionary, the interactive tableau and the drills. Teaching needs no login; the
tableau and payout drills keep a score per account (`DrillScores`, sent as a drill's
``record``), so they need one.

The book is computed once, on a worker thread (the engines' first load takes a second
or two), and then sent from memory, gzipped. A drill's question waits for its answer
in this process (`Drills.waiting`): an answer with no question waiting is refused, and
a question is answered once.
"""

from __future__ import annotations

import asyncio
import gzip
import random
import secrets
from collections import OrderedDict
from dataclasses import asdict
from functools import partial
from pathlib import Path
from typing import Annotated

from fastapi import APIRouter, Depends, Request
from fastapi.responses import FileResponse, Response
from pydantic import BaseModel, ConfigDict, Field

from baccara.db.auth import User
from baccara.db.drills import DrillScores
from baccara.learn import drills, glossary
from baccara.learn.book import learn_book
from baccara.learn.lessons import TableauError, decide
from baccara.money import MoneyError, format_money, parse_money
from baccara.server.http.depends import SAME_SITE_JSON, JsonBody, LoggedIn
from baccara.server.infra.edge import Refusal
from baccara.server.state import Blocking
from baccara.server.wire.http import (
    BookTerm,
    Decision,
    DrillQuestion,
    DrillRecord,
    Graded,
    LearnBook,
    PayoutQuestion,
    Progress,
    ShoeDrill,
    TableauAnswer,
    TableauQuestion,
)

__all__ = ["learn_router"]

LONGEST = 24  # two cards and separators, generously
SHOES = 2  # shoes the shoe trainer deals at once (each takes a few milliseconds of a core)


class _Book:
    """The book as JSON bytes, plain and gzipped, built once."""

    def __init__(self) -> None:
        self.lock = asyncio.Lock()
        self.plain = b""
        self.packed = b""

    async def bytes(self) -> tuple[bytes, bytes]:
        async with self.lock:
            if not self.plain:
                found = LearnBook.model_validate(await asyncio.to_thread(learn_book))
                self.plain = found.model_dump_json(exclude_unset=True).encode()
                self.packed = gzip.compress(self.plain, 6)
        return self.plain, self.packed


CELLS: dict[str, tuple[str, ...]] = {
    "tableau": drills.TABLEAU_CELLS,
    "payout": drills.PAYOUT_CELLS,
}


class DrillAnswer(BaseModel):
    """An answer: ``draw`` or ``stand`` (tableau), an amount such as ``19.50`` (payout)."""

    model_config = ConfigDict(extra="forbid")
    answer: str = Field(max_length=24)


AnswerBody = Annotated[
    DrillAnswer, Depends(JsonBody(DrillAnswer, 'expected a JSON body {"answer": "..."}'))
]
Learner = Annotated[
    User,
    Depends(LoggedIn("login_required", "log in to drill: your record is kept per account")),
]
"""The logged-in player at a drill that keeps their score (401 ``login_required``)."""


async def known_drill(drill: str) -> str:
    """The drill the path names (404 ``unknown_drill`` for another)."""
    if drill not in CELLS:
        raise Refusal(404, "unknown_drill", f"no drill {drill[:20]!r}: {' or '.join(CELLS)}")
    return drill


Drill = Annotated[str, Depends(known_drill)]


class Drills:
    """The questions waiting for their answers, one a player and drill (the newest
    ``limit`` players kept), and the scores in the database."""

    def __init__(self, scores: DrillScores, limit: int = 100_000) -> None:
        self.scores = scores
        self.limit = limit
        self.waiting: OrderedDict[tuple[int, str], tuple[str, int]] = OrderedDict()

    def ask(self, user: User, drill: str, score: dict[str, tuple[int, int]]) -> DrillQuestion:
        cell = drills.pick_cell(CELLS[drill], score, random.Random(secrets.randbits(64)))
        seed = secrets.randbelow(2**31)
        self.waiting[user.id, drill] = (cell, seed)
        self.waiting.move_to_end((user.id, drill))
        while len(self.waiting) > self.limit:
            self.waiting.popitem(last=False)
        if drill == "tableau":
            question = drills.tableau_question(cell, seed)
            return TableauQuestion(**asdict(question), prompt=question.prompt)
        asked = drills.payout_question(cell, seed)
        return PayoutQuestion(**asdict(asked), prompt=asked.prompt)


def _summary(score: dict[str, tuple[int, int]]) -> DrillRecord:
    """A drill's score as the page shows it (the wire's `DrillRecord`): asked, missed, the
    most missed cells."""
    worst = sorted(score, key=lambda cell: (-score[cell][1], cell))
    return DrillRecord(
        asked=sum(seen for seen, _ in score.values()),
        missed=sum(missed for _, missed in score.values()),
        most_missed=[drills.cell_words(cell) for cell in worst if score[cell][1]][:5],
    )


def learn_router(
    static: Path,
    *,
    scores: DrillScores,
    run: Blocking,
) -> APIRouter:
    """The routes: ``/learn``, ``/api/learn``, ``/api/learn/terms/{name}``,
    ``/api/learn/tableau``, ``/api/learn/drills/...`` and ``/api/learn/progress``.
    ``run`` runs a database call on the worker threads."""
    router = APIRouter()
    book = _Book()
    state = Drills(scores)

    @router.get("/learn", include_in_schema=False)
    async def page() -> FileResponse:
        return FileResponse(static / "learn.html", headers={"Cache-Control": "no-cache"})

    @router.get("/api/learn", response_model=LearnBook)
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
    async def term(name: str) -> BookTerm:
        """One term of the dictionary (any case, or another of its names)."""
        try:
            found = glossary.lookup(name[:64])
        except glossary.UnknownTerm as error:
            raise Refusal(404, "unknown_term", str(error)) from error
        return BookTerm(
            name=found.name, text=found.text, also=list(found.also), see=list(found.see)
        )

    @router.get("/api/learn/tableau")
    async def tableau(player: str = "", banker: str = "", third: str = "") -> TableauAnswer:
        """What the tableau says for two hands of two cards (and the Player's third card
        when it draws): each side's decision and its reason, from the rulebook."""
        if max(len(player), len(banker), len(third)) > LONGEST:
            raise Refusal(400, "bad_cards", "a hand is two cards, like '9h Kd'")
        try:
            found = decide(player, banker, third or None)
        except TableauError as error:
            raise Refusal(400, "bad_cards", str(error)) from error
        side = (
            None
            if found.banker is None
            else Decision(draws=found.banker.draws, reason=found.banker.reason)
        )
        return TableauAnswer(
            player_total=found.player_total,
            banker_total=found.banker_total,
            player=Decision(draws=found.player.draws, reason=found.player.reason),
            banker=side,
        )

    dealing = [0]  # shoes being dealt now: anyone may ask, so at most SHOES at a time

    @router.get("/api/learn/drills/shoe")
    async def shoe(seed: str = "", upto: str = "0") -> ShoeDrill:
        """Shoe ``seed`` (8 decks) dealt up to coup ``upto``, with the exact edges of the
        cards not yet seen after each coup: the counting practice. No login."""
        if len(seed) > 20 or len(upto) > 4:
            raise Refusal(400, "bad_request", "seed and upto are whole numbers")
        if dealing[0] >= SHOES:
            raise Refusal(
                503, "busy", "many shoes are being dealt: try again", {"Retry-After": "1"}
            )
        dealing[0] += 1
        try:
            found = await asyncio.to_thread(drills.shoe_steps, int(seed), int(upto))
        except ValueError as error:  # DrillError too; int("x") says what it got
            text = (
                str(error)
                if isinstance(error, drills.DrillError)
                else "seed and upto are whole numbers"
            )
            raise Refusal(400, "bad_request", text) from error
        finally:
            dealing[0] -= 1
        return ShoeDrill.model_validate(found)

    @router.get("/api/learn/drills/{drill}")
    async def ask(drill: Drill, user: Learner) -> DrillQuestion:
        """The next question of ``drill`` (what this player misses comes back more)."""
        score = await run(scores.score, user.id, drill)
        return state.ask(user, drill, score)

    @router.post("/api/learn/drills/{drill}", dependencies=[Depends(known_drill), SAME_SITE_JSON])
    async def answer(drill: Drill, user: Learner, asked: AnswerBody) -> Graded:
        """Grade the answer to the question waiting, count it, and say why."""
        given = asked.answer
        question = state.waiting.get((user.id, drill))
        if question is None:
            raise Refusal(
                409, "out_of_turn", f"no {drill} question is waiting for you: ask for one"
            )
        cell, seed = question
        try:
            if drill == "tableau":
                said = given.strip().lower()
                right, why = drills.grade_tableau(cell, said)
                expected = said if right else {"draw": "stand", "stand": "draw"}[said]
            else:
                amount = parse_money(given)
                right, back, why = drills.grade_payout(cell, seed, amount)
                expected = format_money(back)
        except (drills.DrillError, MoneyError, ValueError) as error:
            raise Refusal(400, "bad_answer", str(error)) from error  # the question still waits
        del state.waiting[user.id, drill]
        await run(partial(scores.answered, user.id, drill, cell, correct=right))
        score = await run(scores.score, user.id, drill)
        return Graded(correct=right, expected=expected, why=why, record=_summary(score))

    @router.get("/api/learn/progress")
    async def progress(user: Learner) -> Progress:
        """This player's score at each drill."""
        done = {d: _summary(await run(scores.score, user.id, d)) for d in CELLS}
        return Progress(**done)

    return router
