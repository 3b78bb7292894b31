"""A clock the test moves (`SimulatedClock`), and services that do the database's work
at once (`inline_services`): a table runs in the test's own event loop, and a betting
window, a decision's clock or a seat's grace passes in an instant, in order. For a
server in a process of its own, `JumpingClock`: the system's time, which the test moves
on at a signal (a decision's clock then runs out when the test says, never because a
loaded machine answered late).

>>> import asyncio
>>> async def demo() -> list[str]:
...     clock, woke = SimulatedClock(), []
...     async def nap(name: str, seconds: float) -> None:
...         await clock.sleep(seconds)
...         woke.append(f"{name}@{clock.now() - clock.start:g}")
...     tasks = [asyncio.create_task(nap("b", 2)), asyncio.create_task(nap("a", 1))]
...     await clock.advance(1.5)
...     await clock.advance(1.0)
...     await asyncio.gather(*tasks)
...     return woke
>>> asyncio.run(demo())
['a@1', 'b@2']
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import time
from collections.abc import Callable
from concurrent.futures import Executor, Future
from functools import partial
from typing import Any, TypeVar

from baccara.db.ledger import BetReceipt, BetRequest, Ledger
from baccara.server.infra.services import Fault, TableServices, no_fault
from baccara.server.infra.writer import BetBatcher

__all__ = [
    "InlineExecutor",
    "InlineWriter",
    "JumpingClock",
    "SimulatedClock",
    "SlowWriter",
    "ThreadWriter",
    "inline_services",
    "settle",
]

_T = TypeVar("_T")


async def settle(rounds: int = 50) -> None:
    """Let every task that can run, run (the database's work is done at once here)."""
    for _ in range(rounds):
        await asyncio.sleep(0)


class SimulatedClock:
    """`baccara.server.infra.clock.Clock` on a time that moves only when the test moves it."""

    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self.start = start
        self.time = start
        self._sleepers: list[tuple[float, int, asyncio.Future[None]]] = []
        self._order = itertools.count()

    def now(self) -> float:
        """The simulated time."""
        return self.time

    async def sleep(self, seconds: float) -> None:
        """Return when the test has moved the clock ``seconds`` on."""
        if seconds <= 0:
            await asyncio.sleep(0)
            return
        woken: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._sleepers, (self.time + seconds, next(self._order), woken))
        await woken

    async def wait(self, event: asyncio.Event, seconds: float) -> bool:
        """Wait for ``event`` until the clock has moved ``seconds`` on."""
        if event.is_set():
            return True
        waiter = asyncio.ensure_future(event.wait())
        timer = asyncio.ensure_future(self.sleep(seconds))
        try:
            await asyncio.wait({waiter, timer}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            waiter.cancel()
            timer.cancel()
        return event.is_set()

    async def advance(self, seconds: float) -> None:
        """Move the clock ``seconds`` on, waking each sleeper at its time, in order, and
        letting what it starts run before the next."""
        target = self.time + seconds
        await settle()
        while self._sleepers and self._sleepers[0][0] <= target:
            when, _, woken = heapq.heappop(self._sleepers)
            self.time = max(self.time, when)
            if not woken.done():
                woken.set_result(None)
                await settle()
        self.time = target
        await settle()

    async def run_until(
        self, done: Callable[[], bool], *, step: float = 0.1, limit: float = 600
    ) -> float:
        """Move the clock on ``step`` at a time until ``done()``; the seconds it took
        (an `AssertionError` after ``limit`` simulated seconds)."""
        began = self.time
        while not done():
            assert self.time - began < limit, f"not done after {limit} simulated seconds"
            await self.advance(step)
        return self.time - began


class JumpingClock:
    """`baccara.server.infra.clock.Clock` on the system's time, moved ``step`` seconds on
    at each `jump_soon` (a signal handler's call: `tests.support.harness` wires SIGUSR1
    to it). Every sleep and wait looks at the time again after a jump, so a clock that
    runs out within ``step`` runs out at once.

    >>> async def demo() -> tuple[bool, bool]:
    ...     clock, never = JumpingClock(step=60.0), asyncio.Event()
    ...     waiting = asyncio.create_task(clock.wait(never, 30.0))
    ...     await asyncio.sleep(0.01)
    ...     early = waiting.done()
    ...     clock.jump_soon()
    ...     return early, await asyncio.wait_for(waiting, 5.0)
    >>> asyncio.run(demo())
    (False, False)
    """

    def __init__(self, step: float) -> None:
        self.step = step
        self.ahead = 0.0  # seconds jumped so far
        self._jumped = asyncio.Event()  # set at a jump, then replaced
        self._loop: asyncio.AbstractEventLoop | None = None

    def now(self) -> float:
        """The system's time, plus the jumps."""
        return time.time() + self.ahead

    def jump_soon(self) -> None:
        """Move the clock ``step`` seconds on, from any thread or a signal handler: the
        sleepers look at the time again in the event loop."""
        self.ahead += self.step
        if self._loop is not None:
            self._loop.call_soon_threadsafe(self._wake)

    def _wake(self) -> None:
        jumped, self._jumped = self._jumped, asyncio.Event()
        jumped.set()

    async def sleep(self, seconds: float) -> None:
        """Return once the clock has moved ``seconds`` on."""
        await self.wait(asyncio.Event(), seconds)

    async def wait(self, event: asyncio.Event, seconds: float) -> bool:
        """Wait for ``event`` until the clock has moved ``seconds`` on; whether it was set."""
        self._loop = asyncio.get_running_loop()
        until = self.now() + seconds
        while not event.is_set() and (left := until - self.now()) > 0:
            waiters = {
                asyncio.ensure_future(event.wait()),
                asyncio.ensure_future(self._jumped.wait()),
            }
            try:
                await asyncio.wait(waiters, timeout=left, return_when=asyncio.FIRST_COMPLETED)
            finally:
                for waiter in waiters:
                    waiter.cancel()
        await asyncio.sleep(0)  # a sleep of none still lets the others run
        return event.is_set()


class InlineExecutor(Executor):
    """Runs each call at once, in the caller's thread."""

    def submit(self, fn: Callable[..., _T], /, *args: Any, **kwargs: Any) -> Future[_T]:
        """``fn(*args, **kwargs)`` done: its future holds its answer or its error."""
        future: Future[_T] = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as error:
            future.set_exception(error)
        return future


class InlineWriter(BetBatcher):
    """The database writer without its threads: each bet and write done at once (one
    bet a transaction), in the event loop's thread."""

    def start(self) -> None:
        """Nothing to start."""

    def stop(self) -> None:
        """Nothing to stop."""

    async def submit(self, request: BetRequest) -> BetReceipt:
        """The bet, placed now."""
        answer = self.ledger.place_bets([request])[0]
        if isinstance(answer, Exception):
            raise answer
        return answer

    async def call(self, fn: Callable[..., _T], *args: Any, **kwargs: Any) -> _T:
        """The write, done now."""
        return partial(fn, *args, **kwargs)()


class ThreadWriter(BetBatcher):
    """The server's writer for bets (`BetBatcher`: bets in flight together, group-committed
    on its thread, each answered when its batch commits); the other writes done at once,
    as `InlineWriter` does them. `start` it in the event loop that awaits the answers."""

    async def call(self, fn: Callable[..., _T], *args: Any, **kwargs: Any) -> _T:
        """The write, done now."""
        return partial(fn, *args, **kwargs)()


class SlowWriter(InlineWriter):
    """`InlineWriter` on a busy database: each write takes ``seconds`` on the clock
    before it is done (bets are still placed at once)."""

    def __init__(self, ledger: Ledger, clock: SimulatedClock, seconds: float) -> None:
        super().__init__(ledger)
        self.clock = clock
        self.seconds = seconds

    async def call(self, fn: Callable[..., _T], *args: Any, **kwargs: Any) -> _T:
        """The write, done ``seconds`` from now."""
        await self.clock.sleep(self.seconds)
        return partial(fn, *args, **kwargs)()


def inline_services(
    ledger: Ledger,
    clock: SimulatedClock,
    fault: Fault = no_fault,
    *,
    write_seconds: float = 0,
    bet_thread: bool = False,
) -> TableServices:
    """A table's services for a test: the ledger, the database's work done at once (each
    write ``write_seconds`` on the clock, if given; with ``bet_thread``, the bets on the
    server's writer thread, `ThreadWriter`), and the simulated clock."""
    batcher: BetBatcher = InlineWriter(ledger)
    if bet_thread:
        batcher = ThreadWriter(ledger)
    elif write_seconds:
        batcher = SlowWriter(ledger, clock, write_seconds)
    return TableServices(
        ledger=ledger, executor=InlineExecutor(), batcher=batcher, clock=clock, fault=fault
    )
