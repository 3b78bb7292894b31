"""The database writer: one thread that group-commits bets and runs the other writes."""

from __future__ import annotations

import asyncio
import threading
import time
from collections import deque
from collections.abc import Callable
from functools import partial
from typing import Any, TypeVar

from baccara.db.ledger import BetReceipt, Ledger

__all__ = ["BetBatcher"]

_T = TypeVar("_T")


class BetBatcher:
    """The database writer: one thread that group-commits bets and runs the other writes.

    Bets waiting for the database go in one transaction together (up to ``size``),
    so one commit serves many bets and a refused bet changes nothing; each bet is
    answered only after its batch commits. Other writes (`call`: rounds opened,
    closed, settled) run between batches, after any bets waiting. The thread takes its
    work straight from the queue, so a busy event loop delays the answers, never the
    writing. One thread serves both databases: SQLite has one writer at a time, and
    on PostgreSQL more writer threads measured slower (they fight over the GIL).
    """

    def __init__(
        self, ledger: Ledger, size: int = 200, linger: float = 0.004, busy_rate: float = 250.0
    ) -> None:
        self.ledger = ledger
        self.size = size
        self.linger = linger
        self.busy_rate = busy_rate
        self.rate = 0.0  # bets a second, lately (a moving average)
        self.taken = time.monotonic()
        self.bets: deque[tuple[dict[str, Any], asyncio.Future[Any]]] = deque()
        self.jobs: deque[tuple[Callable[[], Any], asyncio.Future[Any]]] = deque()
        self.ready = threading.Condition()
        self.stopping = False
        self.thread: threading.Thread | None = None
        self.loop: asyncio.AbstractEventLoop | None = None

    def start(self) -> None:
        """Start the writer thread (from the event loop that will await the answers)."""
        self.loop = asyncio.get_running_loop()
        self.thread = threading.Thread(target=self._work, name="baccara-writer", daemon=True)
        self.thread.start()

    def stop(self) -> None:
        """Finish the write in progress and stop the thread."""
        with self.ready:
            self.stopping = True
            self.ready.notify()
        if self.thread is not None:
            self.thread.join(timeout=10)

    async def submit(self, **request: Any) -> BetReceipt:
        """Queue one bet (`Ledger.place_bet`'s arguments); its receipt, or `BetError`."""
        future: asyncio.Future[BetReceipt] = asyncio.get_running_loop().create_future()
        with self.ready:
            self.bets.append((request, future))
            self.ready.notify()
        return await future

    async def call(self, fn: Callable[..., _T], *args: Any, **kwargs: Any) -> _T:
        """Run another write on the writer thread, after any bets waiting."""
        future: asyncio.Future[_T] = asyncio.get_running_loop().create_future()
        with self.ready:
            self.jobs.append((partial(fn, *args, **kwargs), future))
            self.ready.notify()
        return await future

    def _work(self) -> None:
        loop = self.loop
        assert loop is not None
        while (task := self._next()) is not None:
            futures, work = task
            try:
                answers = work()
            except Exception as error:
                answers = [error] * len(futures)
            loop.call_soon_threadsafe(_answer, list(zip(futures, answers, strict=True)))

    def _next(self) -> tuple[list[asyncio.Future[Any]], Callable[[], list[Any]]] | None:
        """The next batch of bets, or else the next other write (None: stop)."""
        with self.ready:
            while not (self.bets or self.jobs or self.stopping):
                self.ready.wait()
            if self.stopping:
                return None
            if self.bets and not self.jobs and self.rate > self.busy_rate:
                # busy: a few more bets join this commit (a batch costs mostly its commit)
                deadline = time.monotonic() + self.linger
                while len(self.bets) < self.size and not self.stopping:
                    left = deadline - time.monotonic()
                    if left <= 0:
                        break
                    self.ready.wait(left)
            if self.bets:
                batch = [self.bets.popleft() for _ in range(min(self.size, len(self.bets)))]
                now = time.monotonic()
                gap, self.taken = max(now - self.taken, 1e-3), now
                self.rate = 0.8 * self.rate + 0.2 * len(batch) / gap
                requests = [request for request, _ in batch]
                return [future for _, future in batch], partial(self.ledger.place_bets, requests)
            job, future = self.jobs.popleft()
            return [future], lambda: [job()]


def _answer(pairs: list[tuple[asyncio.Future[Any], Any]]) -> None:
    for future, answer in pairs:
        if future.done():
            continue
        if isinstance(answer, Exception):
            future.set_exception(answer)
        else:
            future.set_result(answer)
