"""Revocation: an ended session closes its open sockets, in every process, within a second.

A player's session ends when they log out, change their password (their other
sessions), exclude themselves, or when the house suspends them; the session then
expires too. Whichever process (or command) ends it, the database says so: every server
process asks it, every `SessionWatch.seconds`, which of the sessions its sockets act
under may still act (`baccara.db.gate.ended`: one query for them all), and closes the
sockets of those that may not, after telling them why (an ``error`` with the code
``session_ended``, ``self_excluded`` or ``suspended``). A revocation made in this
process is looked at at once (`SessionWatch.poke`).

This closes what is open; it is not what guards the money. The money gate checks the
session and the player in the transaction of every bet and buy-in, so a socket that
the watch has not reached yet can still move nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor
from dataclasses import dataclass
from functools import partial

from sqlalchemy.engine import Engine

from baccara.db.betting import BetError
from baccara.db.gate import ended
from baccara.server.auth import User

__all__ = ["SessionWatch", "Watched"]

log = logging.getLogger("baccara.server")

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
        clock: Callable[[], float] = time.time,
        executor: Executor | None = None,
    ) -> None:
        self.engine = engine
        self.seconds = seconds
        self.clock = clock
        self.executor = executor
        self.sockets: set[Watched] = set()
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

    def start(self) -> None:
        """Start watching (from the event loop)."""
        self.task = asyncio.create_task(self._watch())

    async def stop(self) -> None:
        """Stop watching."""
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task

    async def sweep(self) -> int:
        """Close the sockets whose session has ended; how many."""
        held = [(w.user.id, w.user.session) for w in self.sockets if w.user.session is not None]
        if not held:
            return 0
        gone = await asyncio.get_running_loop().run_in_executor(
            self.executor, partial(self._ended, held, self.clock())
        )
        closing = [(w, gone[w.user.session]) for w in list(self.sockets) if w.user.session in gone]
        for watched, why in closing:
            self.sockets.discard(watched)
            with contextlib.suppress(Exception):
                await watched.close(why)
        return len(closing)

    def _ended(self, held: list[tuple[int, str]], now: float) -> dict[str, BetError]:
        with self.engine.connect() as conn:
            return ended(conn, held, now)

    async def _watch(self) -> None:
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.woken.wait(), self.seconds)
            self.woken.clear()
            try:
                await self.sweep()
            except Exception:  # the database is away: the next sweep tries again
                log.exception("the session watch failed; trying again")
