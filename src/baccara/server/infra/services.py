"""What a table of the server is given: the ledger, the threads that read and write it,
the clock and the crash tests' fault hook (`TableServices`).

Both kinds of table (the house's and the players') take one, so the plumbing exists
once; the tests give theirs a simulated clock and threads that run the work at once.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import dataclass, field
from functools import partial
from typing import ParamSpec, TypeVar

from baccara.db.ledger import Ledger
from baccara.server.infra.clock import Clock, RealClock
from baccara.server.infra.metrics import Metrics
from baccara.server.infra.writer import BetBatcher

__all__ = ["Fault", "TableServices", "no_fault"]

_T = TypeVar("_T")
_P = ParamSpec("_P")

Fault = Callable[[str], None]
"""A hook a table calls at its named points (``after_debit``, ``mid_deal``,
``after_decision``; the ledger adds ``bet_debited`` and ``settling``): the crash tests
kill the process there."""


def no_fault(point: str) -> None:
    """The default `Fault`: nothing happens."""


@dataclass(frozen=True, slots=True, kw_only=True)
class TableServices:
    """The ledger, its reader threads (``executor``) and writer (``batcher``), the clock,
    the fault hook and the server's figures (``metrics``) of a table."""

    ledger: Ledger
    executor: Executor
    batcher: BetBatcher
    clock: Clock = field(default_factory=RealClock)
    fault: Fault = no_fault
    metrics: Metrics = field(default_factory=Metrics)

    async def db(self, fn: Callable[_P, _T], /, *args: _P.args, **kwargs: _P.kwargs) -> _T:
        """Run a blocking database call on the reader threads."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.executor, partial(fn, *args, **kwargs))

    async def db_write(self, fn: Callable[_P, _T], /, *args: _P.args, **kwargs: _P.kwargs) -> _T:
        """Run a database write on the writer (after any bets waiting)."""
        return await self.batcher.call(fn, *args, **kwargs)
