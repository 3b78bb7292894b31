"""The time a server is given: `Clock` (now, sleep, wait for an event).

The tables, the revocation watch and the sessions read the time only from the clock
they are given: `RealClock` in production; the tests give a simulated one (in
``tests/support/clock.py``) and move it on, so that a betting window, a decision's
clock or a seat's grace passes without waiting for it.

>>> import asyncio
>>> clock = RealClock()
>>> clock.now() > 1.7e9
True
>>> event = asyncio.Event()
>>> asyncio.run(clock.wait(event, 0.0))
False
"""

from __future__ import annotations

import asyncio
import time
from typing import Protocol

__all__ = ["Clock", "RealClock"]


class Clock(Protocol):
    """What a server reads the time from."""

    def now(self) -> float:
        """The time: seconds since the epoch (UTC)."""
        ...

    async def sleep(self, seconds: float) -> None:
        """Return after ``seconds`` (at once for none or fewer)."""
        ...

    async def wait(self, event: asyncio.Event, seconds: float) -> bool:
        """Wait for ``event`` at most ``seconds``; whether it was set."""
        ...


class RealClock:
    """The system's clock and the event loop's timers."""

    def now(self) -> float:
        """The system's time."""
        return time.time()

    async def sleep(self, seconds: float) -> None:
        """The event loop's sleep."""
        await asyncio.sleep(max(0.0, seconds))

    async def wait(self, event: asyncio.Event, seconds: float) -> bool:
        """``event.wait()`` with a timeout (`asyncio.timeout`: a cancellation that
        comes as the event is set is not lost, as it can be in ``wait_for``)."""
        try:
            async with asyncio.timeout(max(0.0, seconds)):
                await event.wait()
        except TimeoutError:
            return event.is_set()
        return True
