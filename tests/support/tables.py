"""A table of the server run in the test's event loop, on a simulated clock, its
database work done at once (`tests.support.clock`): ``async with house_table() as
tables`` and ``async with players_table("chemin-de-fer") as tables``, then
``await tables.start()`` (after the first players have joined, if they should see it
from its first event).

Players are wallets with money (no password, no login: the table's contract starts at
a user); `Seat` is one connection, whose messages the test reads as dicts.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from tests.support.clock import SimulatedClock, inline_services, settle

from baccara.db.auth import User
from baccara.db.ledger import Ledger, wallet_account
from baccara.server.infra.services import Fault, no_fault
from baccara.server.infra.throttle import RateLimiter
from baccara.server.tables.audience import END, Listener
from baccara.server.tables.contract import Runner, TableMessage
from baccara.server.tables.dispatch import answer
from baccara.server.tables.game import PlayersTiming
from baccara.server.tables.house import HouseRunner, Timing
from baccara.server.tables.make import table_kind
from baccara.server.wire import protocol as P
from baccara.variants import find_variant

__all__ = ["Seat", "Tables", "act", "house_table", "players_table"]

_UNLIMITED = RateLimiter(rate=1_000_000, burst=1_000_000)  # the tests' bets are not rate-limited


def act(state: dict[str, Any], action: str, **fields: Any) -> P.ActMessage:
    """A decision at a players' table naming the one it answers as ``state`` (the
    table's state message) shows it: its shoe, coup and decision."""
    return P.ActMessage.model_validate(
        {
            "type": "act",
            "action": action,
            **fields,
            "shoe": state.get("shoe") or 0,
            "coup": state.get("coup", 0),
            "decision": state.get("decision", 0),
        }
    )


@dataclass
class Seat:
    """One player's connection to a table: what it was sent, in order."""

    user: User
    runner: Runner
    listener: Listener
    seen: list[dict[str, Any]] = field(default_factory=list)

    def read(self) -> list[dict[str, Any]]:
        """The messages sent since the last read (also kept in `seen`)."""
        got = []
        while not self.listener.queue.empty():
            text = self.listener.queue.get_nowait()
            if text != END:
                got.append(json.loads(text))
        self.seen += got
        return got

    def of(self, kind: str) -> list[dict[str, Any]]:
        """Every message of type ``kind`` sent so far."""
        self.read()
        return [m for m in self.seen if m.get("type") == kind]

    def last(self, kind: str) -> dict[str, Any] | None:
        """The last message of type ``kind`` sent so far."""
        found = self.of(kind)
        return found[-1] if found else None

    async def send(self, message: TableMessage) -> dict[str, Any] | None:
        """Send ``message`` as the page does; the answer (an ``error`` for a refusal)."""
        reply = await answer(self.runner, self.user, message, _UNLIMITED)
        await settle()
        return None if reply is None else json.loads(reply.model_dump_json())

    def leave(self) -> None:
        """Close the connection (the page is gone)."""
        self.runner.audience.discard(self.listener)


@dataclass
class Tables:
    """The table under test, its clock and ledger, and the players made so far."""

    runner: Any  # the runner under test, with its game's own attributes
    clock: SimulatedClock
    ledger: Ledger
    make: Callable[[], Any]  # a new runner of the same table (a restart)
    users: dict[str, User] = field(default_factory=dict)
    task: asyncio.Task[None] | None = None

    async def stop(self) -> None:
        """Stop the table's loop where it is (a crash between two awaits)."""
        self.runner.stopping = True
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
            self.task = None

    async def restart(self) -> None:
        """Stop the table and start a new runner on its database (its connections gone:
        the players join again)."""
        await self.stop()
        self.runner = self.make()
        await self.start()

    async def start(self) -> None:
        """Start the table's loop (its recovery, then its rounds or shoes)."""
        self.task = asyncio.create_task(self.runner.run())
        await settle()

    def player(self, name: str, money: int = 100_000) -> User:
        """A player with ``money`` (cents) in their wallet."""
        account = self.ledger.create_account(wallet_account(name))
        self.ledger.deposit(account, money, ref=f"test:{name}")
        user = self.users[name] = User(id=len(self.users) + 1, name=name, account=account)
        return user

    async def join(self, name: str, money: int = 100_000) -> Seat:
        """``name`` (made with ``money`` if new) connects and joins the table."""
        user = self.users.get(name) or self.player(name, money)
        listener = Listener(user)
        for text in await self.runner.join(user, None):
            listener.send_text(text)
        self.runner.audience.add(listener)
        seat = Seat(user, self.runner, listener)
        seat.read()
        return seat

    def balance(self, name: str) -> int:
        """The money in ``name``'s wallet."""
        return self.ledger.balance(self.users[name].account)


@contextlib.asynccontextmanager
async def _running(
    make: Callable[[], Runner], clock: SimulatedClock, ledger: Ledger
) -> AsyncIterator[Tables]:
    """A runner to play in this event loop (`Tables.start`); afterwards stopped, its
    books checked."""
    tables = Tables(make(), clock, ledger, make)
    try:
        yield tables
    finally:
        await tables.stop()
        try:
            assert ledger.check_invariants() == []
        finally:
            ledger.database.dispose()


@contextlib.asynccontextmanager
async def house_table(
    variant: str = "punto-banco",
    *,
    timing: Timing | None = None,
    squeeze: bool = False,
    behind: int = 0,
    decks: int | None = None,
    write_seconds: float = 0,
    bet_thread: bool = False,
    table_id: str = "t1",
    database_url: str = "sqlite://",
    fault: Fault = no_fault,
) -> AsyncIterator[Tables]:
    """A house table ``table_id`` of ``variant``, running on a simulated clock (each of
    its database writes taking ``write_seconds`` on it, if given: a busy database; with
    ``bet_thread``, its bets written on the server's writer thread, several in flight
    at once), on a database of its own in memory or the one at ``database_url``, with
    the fault hook ``fault`` (`tests.support.harness.CrashPoints`' failures, say)."""
    clock, ledger = SimulatedClock(), Ledger.connect(database_url)
    services = inline_services(
        ledger, clock, fault, write_seconds=write_seconds, bet_thread=bet_thread
    )
    make = partial(
        HouseRunner,
        table_id=table_id,
        variant=find_variant(variant),
        services=services,
        timing=timing or Timing(),
        squeeze=squeeze,
        behind=behind,
        decks=decks,
    )
    services.batcher.start()
    try:
        async with _running(make, clock, ledger) as tables:
            yield tables
    finally:
        services.batcher.stop()


@contextlib.asynccontextmanager
async def players_table(
    variant: str,
    *,
    timing: PlayersTiming | None = None,
    bots: int = 0,
    minimum: int = 1_000,
    decks: int | None = None,
) -> AsyncIterator[Tables]:
    """A players' table ``c1`` of ``variant`` (a players' game the server plays: its
    runner from `baccara.server.tables.make.TABLE_KINDS`), on a simulated clock."""
    clock, ledger = SimulatedClock(), Ledger.connect("sqlite://")
    game = find_variant(variant)
    make = partial(
        table_kind(game).runner,
        table_id="c1",
        variant=game,
        services=inline_services(ledger, clock),
        timing=timing or PlayersTiming(),
        bots=bots,
        minimum=minimum,
        decks=decks,
    )
    async with _running(make, clock, ledger) as tables:
        yield tables


async def state_where(
    tables: Tables,
    seat: Seat,
    test: Callable[[dict[str, Any]], bool],
    *,
    first: bool = False,
    limit: float = 600,
) -> dict[str, Any]:
    """The latest state of a players' table sent to ``seat`` that passes ``test`` (or
    the ``first``), moving the simulated clock on until there is one."""
    kind = tables.runner.view().type  # the table's state message: chemin, banque...

    def found() -> dict[str, Any] | None:
        sent = seat.of(kind)
        return next((m for m in (sent if first else reversed(sent)) if test(m)), None)

    await tables.clock.run_until(lambda: found() is not None, limit=limit)
    got = found()
    assert got is not None
    return got
