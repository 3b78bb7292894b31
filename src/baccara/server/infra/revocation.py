"""Revocation: an ended session closes its open sockets, in every process, within a second.

A player's session ends early when they log out, change their password (their other
sessions), exclude themselves, or when the house suspends them: whichever process (or
command) ends it writes a revocation in the same transaction
(`baccara.db.sessions`). Every server process reads the revocations newer than the
last it saw, every `SessionWatch.seconds` (one indexed read when nothing happened,
however many sockets are open), asks the database about the sessions of the players
they name (`baccara.db.gate.ended`) and closes the sockets that may no longer act, after
telling them why (an ``error`` with the code ``session_ended``, ``self_excluded`` or
``suspended``). A revocation made in this process is looked at at once
(`SessionWatch.poke`); every `SessionWatch.full_seconds` every socket is looked at
(a session that expired), and old revocations are forgotten.

This closes what is open; it is not what guards the money. The money gate checks the
session and the player in the transaction of every bet and buy-in, so a socket that
the watch has not reached yet can still move nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor
from dataclasses import dataclass
from functools import partial

from sqlalchemy.engine import Engine

from baccara.db.auth import User
from baccara.db.betting import BetError
from baccara.db.database import writing
from baccara.db.gate import ended
from baccara.db.sessions import last_revocation, prune, revocations_since
from baccara.server.infra.clock import Clock, RealClock

__all__ = ["SessionWatch", "Watched"]

log = logging.getLogger("baccara.server")

KEEP_SECONDS = 86_400.0
"""How long a revocation is kept (every process has read it long before)."""
Close = Callable[[BetError], Awaitable[None]]
"""How a watched socket is closed, told why."""


@dataclass(eq=False, slots=True)
class Watched:
    """One open socket: its player, the session it acts under, how to close it."""

    user: User
    close: Close


class SessionWatch:
    """This process's open sockets by session, closed when their session ends."""

    def __init__(
        self,
        engine: Engine,
        *,
        seconds: float = 0.5,
        full_seconds: float = 60.0,
        clock: Clock | None = None,
        executor: Executor | None = None,
    ) -> None:
        self.engine = engine
        self.seconds = seconds
        self.full_seconds = full_seconds
        self.clock = RealClock() if clock is None else clock
        self.executor = executor
        self.sockets: set[Watched] = set()
        self.last = 0  # the newest revocation read (`start` reads it)
        self.looked = 0.0  # when every socket was last looked at
        self.woken = asyncio.Event()
        self.task: asyncio.Task[None] | None = None

    def add(self, user: User, close: Close) -> Watched:
        """Watch a socket of ``user`` (who acts under ``user.session``)."""
        found = Watched(user, close)
        self.sockets.add(found)
        return found

    def discard(self, watched: Watched) -> None:
        """Stop watching a socket (it closed)."""
        self.sockets.discard(watched)

    def poke(self) -> None:
        """A session may have ended here: look at once."""
        self.woken.set()

    async def start(self) -> None:
        """Start watching (before any socket is open): from the newest revocation now."""
        self.last = await asyncio.get_running_loop().run_in_executor(self.executor, self._newest)
        self.looked = self.clock.now()
        self.task = asyncio.create_task(self._watch())

    def _newest(self) -> int:
        with self.engine.connect() as conn:
            return last_revocation(conn)

    async def stop(self) -> None:
        """Stop watching."""
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task

    async def sweep(self) -> int:
        """Close the sockets whose session has ended (those the new revocations name;
        every socket, once in `full_seconds`); how many."""
        now = self.clock.now()
        full = now - self.looked >= self.full_seconds
        if full:
            self.looked = now
        watched = [(w.user.id, w.user.session) for w in self.sockets if w.user.session]
        self.last, gone = await asyncio.get_running_loop().run_in_executor(
            self.executor, partial(self._read, self.last, watched, full, now)
        )
        closing = [(w, gone[w.user.session]) for w in list(self.sockets) if w.user.session in gone]
        for socket, why in closing:
            self.sockets.discard(socket)
            with contextlib.suppress(Exception):
                await socket.close(why)
        return len(closing)

    def _read(
        self, last: int, watched: list[tuple[int, str]], full: bool, now: float
    ) -> tuple[int, dict[str, BetError]]:
        """On a worker thread: the newest revocation's id, and the sessions of ``watched``
        that have ended (those of the players the revocations since ``last`` name, or
        all of them when ``full``)."""
        with self.engine.connect() as conn:
            news = revocations_since(conn, last)
            named = {r.user for r in news}
            asked = watched if full else [(u, s) for u, s in watched if u in named]
            gone = ended(conn, asked, now) if asked else {}
            newest = news[-1].id if news else last
        if full:
            with writing(self.engine) as conn:
                prune(conn, now - KEEP_SECONDS)
        return newest, gone

    async def _watch(self) -> None:
        while True:
            await self.clock.wait(self.woken, self.seconds)
            self.woken.clear()
            if not self.sockets:
                continue  # nobody to close: nothing to read (a socket's session is checked
                # when it opens, and the revocations since are read at the next sweep)
            try:
                await self.sweep()
            except Exception:  # the database is away: the next sweep tries again
                log.exception("the session watch failed; trying again")
