"""The database writer: threads that group-commit bets and run the other writes."""

from __future__ import annotations

import asyncio
import threading
import time
from collections import deque
from collections.abc import Callable
from functools import partial
from typing import Any, ParamSpec, TypeVar

from baccara.db.ledger import BetReceipt, BetRequest, Ledger
from baccara.server.infra.metrics import Metrics

__all__ = ["BetBatcher"]

_T = TypeVar("_T")
_P = ParamSpec("_P")


class BetBatcher:
    """The database writer: threads that group-commit bets and run the other writes.

    Bets waiting for the database go in one transaction together (up to ``size``),
    so one commit serves many bets and a refused bet changes nothing; each bet is
    answered only after its batch commits. Other writes (`call`: rounds opened,
    closed, settled) run alone, between batches, after the bets waiting, unless one
    has waited `job_wait` (then no new batch starts before it: the rounds keep their
    pace under load). The threads take their work straight from the queue, so a busy
    event loop delays the answers, never the writing.

    SQLite has one writer at a time: one thread. On PostgreSQL ``writers`` threads may
    run batches side by side, each on its own connection (the ledger's row locks keep
    concurrent batches safe, as they do across processes); measured on two cores, a
    second thread raised the bets written a second but also the slowest answers (the
    batches of one round wait for each other on its escrow's row), so one is the
    default. A write that fails is counted in ``metrics`` (``baccara_db_errors_total``,
    where ``writer``); `waiting` is the queue's length, which the server samples.
    """

    def __init__(
        self,
        ledger: Ledger,
        size: int = 200,
        linger: float = 0.004,
        busy_rate: float = 250.0,
        writers: int = 1,
        job_wait: float = 0.1,
        metrics: Metrics | None = None,
    ) -> None:
        self.ledger = ledger
        self.metrics = Metrics() if metrics is None else metrics
        self.size = size
        self.linger = linger
        self.busy_rate = busy_rate
        self.writers = writers
        self.job_wait = job_wait
        self.rate = 0.0  # bets a second, lately (a moving average)
        self.taken = time.monotonic()
        self.bets: deque[tuple[BetRequest, asyncio.Future[Any]]] = deque()
        self.jobs: deque[tuple[Callable[[], Any], asyncio.Future[Any], float]] = deque()
        self.ready = threading.Condition()
        self.stopping = False
        self.batches = 0  # batches being written
        self.job = False  # another write being written (it runs alone)
        self.threads: list[threading.Thread] = []
        self.loop: asyncio.AbstractEventLoop | None = None

    def start(self) -> None:
        """Start the writer threads (from the event loop that will await the answers)."""
        self.loop = asyncio.get_running_loop()
        for n in range(self.writers):
            thread = threading.Thread(target=self._work, name=f"baccara-writer-{n}", daemon=True)
            thread.start()
            self.threads.append(thread)

    def stop(self) -> None:
        """Finish the writes in progress and stop the threads."""
        with self.ready:
            self.stopping = True
            self.ready.notify_all()
        for thread in self.threads:
            thread.join(timeout=10)

    def waiting(self) -> int:
        """The bets and other writes waiting for a writer thread."""
        return len(self.bets) + len(self.jobs)

    async def submit(self, request: BetRequest) -> BetReceipt:
        """Queue one bet; its receipt, or `BetError`."""
        future: asyncio.Future[BetReceipt] = asyncio.get_running_loop().create_future()
        with self.ready:
            self.bets.append((request, future))
            self.ready.notify()
        return await future

    async def call(self, fn: Callable[_P, _T], /, *args: _P.args, **kwargs: _P.kwargs) -> _T:
        """Run another write on a writer thread, alone, after the bets waiting."""
        future: asyncio.Future[_T] = asyncio.get_running_loop().create_future()
        with self.ready:
            self.jobs.append((partial(fn, *args, **kwargs), future, time.monotonic()))
            self.ready.notify()
        return await future

    def _work(self) -> None:
        loop = self.loop
        assert loop is not None
        while (task := self._next()) is not None:
            futures, work, is_job = task
            try:
                answers = work()
            except Exception as error:
                answers = [error] * len(futures)
                self.metrics.db_failed("writer", retried=False)
            with self.ready:
                if is_job:
                    self.job = False
                else:
                    self.batches -= 1
                self.ready.notify_all()
            loop.call_soon_threadsafe(_answer, list(zip(futures, answers, strict=True)))

    def _next(self) -> tuple[list[asyncio.Future[Any]], Callable[[], list[Any]], bool] | None:
        """The next batch of bets, or else the next other write (None: stop)."""
        with self.ready:
            while True:
                if self.stopping:
                    return None
                overdue = bool(self.jobs) and time.monotonic() - self.jobs[0][2] > self.job_wait
                if self.bets and not self.job and not overdue:
                    return self._batch()
                if self.jobs and not self.job and self.batches == 0:
                    job, future, _ = self.jobs.popleft()
                    self.job = True
                    return [future], partial(_listed, job), True
                self.ready.wait(self.job_wait / 4 if self.jobs else None)

    def _batch(self) -> tuple[list[asyncio.Future[Any]], Callable[[], list[Any]], bool]:
        """Take the bets waiting (called holding the lock)."""
        if self.batches == 0 and not self.jobs and self.rate > self.busy_rate:
            # busy: a few more bets join this commit (a batch costs mostly its commit)
            deadline = time.monotonic() + self.linger
            while len(self.bets) < self.size and not self.stopping:
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                self.ready.wait(left)
        batch = [self.bets.popleft() for _ in range(min(self.size, len(self.bets)))]
        now = time.monotonic()
        gap, self.taken = max(now - self.taken, 1e-3), now
        self.rate = 0.8 * self.rate + 0.2 * len(batch) / gap
        self.batches += 1
        requests = [request for request, _ in batch]
        return [future for _, future in batch], partial(self.ledger.place_bets, requests), False


def _listed(job: Callable[[], Any]) -> list[Any]:
    return [job()]


def _answer(pairs: list[tuple[asyncio.Future[Any], Any]]) -> None:
    for future, answer in pairs:
        if future.done():
            continue
        if isinstance(answer, Exception):
            future.set_exception(answer)
        else:
            future.set_result(answer)
