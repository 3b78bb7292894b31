"""Revocation: an ended session closes its open sockets, in every process, at once.

A player's session ends early when they log out, change their password (their other
sessions), exclude themselves, or when the house suspends them: whichever process (or
command) ends it writes a revocation in the same transaction, with a revocation signal
that every process hears once it commits (`baccara.db.sessions`, `baccara.db.signals`).
The signal wakes the watch: it reads the revocations newer than the last it saw (one
indexed read, however many sockets are open), asks the database about the sessions of
the players they name (`baccara.db.gate.SessionEnds`) and closes the sockets that may no
longer act, after telling them why (an ``error`` with the code ``session_ended``,
``self_excluded`` or ``suspended``).

The rows, not the signals, say what ended: the watch also reads them every
`SessionWatch.seconds` whatever it heard, and at once when its listening connection is
back after a loss, so a signal missed (the connection lost meanwhile; a command run on
another process's SQLite file) is read within that time. Every
`SessionWatch.full_seconds` every socket is looked at (a session that expired), and old
revocations are forgotten.

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

from baccara.db.auth import User
from baccara.db.betting import BetError
from baccara.db.gate import SessionEnds
from baccara.db.signals import Signals, Topic, cancel_and_wait
from baccara.server.infra.clock import Clock, RealClock

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
        ends: SessionEnds,
        *,
        signals: Signals | None = None,
        seconds: float = 0.5,
        full_seconds: float = 60.0,
        clock: Clock | None = None,
        executor: Executor | None = None,
        failed: Callable[[], None] = lambda: None,
    ) -> None:
        self.ends = ends
        self.failed = failed  # told of each sweep that failed (the server counts them)
        self.signals = signals  # None: the periodic look only
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
        """Start watching (before any socket is open): from the newest revocation now,
        woken by every revocation signal (and when the signals' connection is back)."""
        if self.signals is not None:
            self.signals.on(Topic.REVOCATIONS, lambda _user: self.poke())
            self.signals.on_gap(back=self.poke)
        loop = asyncio.get_running_loop()
        self.last = await loop.run_in_executor(self.executor, self.ends.newest)
        self.looked = self.clock.now()
        self.task = asyncio.create_task(self._watch())

    async def stop(self) -> None:
        """Stop watching."""
        if self.task is not None:
            await cancel_and_wait(self.task)

    async def sweep(self) -> int:
        """Close the sockets whose session has ended (those the new revocations name;
        every socket, once in `full_seconds`); how many."""
        now = self.clock.now()
        full = now - self.looked >= self.full_seconds
        if full:
            self.looked = now
        watched = [(w.user.id, w.user.session) for w in self.sockets if w.user.session]
        self.last, gone = await asyncio.get_running_loop().run_in_executor(
            self.executor, partial(self.ends.since, self.last, watched, every=full, now=now)
        )
        closing = [(w, gone[w.user.session]) for w in list(self.sockets) if w.user.session in gone]
        for socket, why in closing:
            self.sockets.discard(socket)
            with contextlib.suppress(Exception):
                await socket.close(why)
        return len(closing)

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
                self.failed()
