"""A bounded pool for the server's CPU-heavy work: argon2 password hashing.

Registrations and logins hash on their own threads (``hash_workers``), not on the
threads the database calls share, with at most ``hash_queue`` more waiting. Beyond
that a request is refused at once (`Busy`: HTTP 503 with ``Retry-After``, the
expected wait from the jobs' recent durations) rather than left to time out while
everybody's work waits behind it.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import ParamSpec, TypeVar

__all__ = ["BoundedPool", "Busy"]

_T = TypeVar("_T")
_P = ParamSpec("_P")


class Busy(RuntimeError):
    """The pool and its queue are full: try again in ``retry_after`` seconds."""

    def __init__(self, retry_after: int) -> None:
        super().__init__(f"busy: try again in {retry_after} s")
        self.retry_after = retry_after


class BoundedPool:
    """``workers`` threads and a queue of ``queue`` jobs; more are refused with `Busy`.

    >>> pool = BoundedPool(workers=1, queue=0)
    >>> async def two():
    ...     first = asyncio.ensure_future(pool.run(time.sleep, 0.2))
    ...     await asyncio.sleep(0)
    ...     try:
    ...         await pool.run(time.sleep, 0)
    ...     except Busy as busy:
    ...         return busy.retry_after, await first
    >>> asyncio.run(two())
    (1, None)
    >>> pool.shutdown()
    """

    def __init__(self, *, workers: int, queue: int, name: str = "baccara-hash") -> None:
        self.executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix=name)
        self.workers = workers
        self.limit = workers + queue
        self.pending = 0  # running and waiting (the event loop's count: no lock needed)
        self.seconds = 0.05  # a job's recent duration (moving average)

    async def run(self, fn: Callable[_P, _T], /, *args: _P.args, **kwargs: _P.kwargs) -> _T:
        """Run ``fn(*args)`` on the pool; `Busy` at once when it is full."""
        if self.pending >= self.limit:
            raise Busy(max(1, math.ceil(self.pending * self.seconds / self.workers)))
        self.pending += 1
        try:
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(
                self.executor, partial(self._timed, partial(fn, *args, **kwargs))
            )
        finally:
            self.pending -= 1

    def _timed(self, job: Callable[[], _T]) -> _T:
        started = time.monotonic()
        try:
            return job()
        finally:
            self.seconds = 0.8 * self.seconds + 0.2 * (time.monotonic() - started)

    def shutdown(self) -> None:
        """Stop the threads (jobs not started are dropped)."""
        self.executor.shutdown(wait=False, cancel_futures=True)
