"""Work a table cannot go on without (a round's settlement, say): retried until done.

`until_done` runs the work again after each failure, waiting a little longer each
time (``first`` seconds, doubled up to ``longest``, on the ``sleep`` given). After ``quick`` failures it calls
``stuck`` (the table closes and tells its players) and keeps trying; once the work
succeeds after that, it calls ``unstuck``. Only a cancellation (the server stopping)
ends it otherwise: what was not stored is left to the recovery at the next start.
Each failure is told to ``failed`` (the server counts it: an error, tried again).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TypeVar

__all__ = ["until_done"]

log = logging.getLogger("baccara.server")
_T = TypeVar("_T")


async def until_done(
    work: Callable[[], Awaitable[_T]],
    *,
    what: str,
    stuck: Callable[[], None],
    unstuck: Callable[[], None],
    first: float = 0.05,
    longest: float = 5.0,
    quick: int = 3,
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    failed: Callable[[], None] = lambda: None,
) -> _T:
    """``work()``'s answer, however many attempts it takes (see the module)."""
    delay, failures = first, 0
    while True:
        try:
            answer = await work()
        except Exception:
            failures += 1
            failed()
            log.exception("%s failed (attempt %d): retrying in %.2f s", what, failures, delay)
            if failures == quick + 1:
                stuck()
            await sleep(delay)
            delay = min(delay * 2, longest)
            continue
        if failures > quick:
            log.warning("%s done after %d failed attempts", what, failures)
            unstuck()
        return answer
