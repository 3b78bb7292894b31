"""Several server processes on one PostgreSQL: each table run by one process, its
players connected to any.

Each table is run by the process holding its advisory lock (`baccara.db.table_locks`);
the other processes relay. They talk on the one signal path between processes
(`baccara.db.signals`, LISTEN/NOTIFY): on the cluster's topic, which every process hears
(each process's heartbeat, with the tables it runs and their lobby lines; the tables'
events), and to each process's inbox (messages forwarded to the tables it runs, their
answers, private messages). The messages are `baccara.server.cluster.messages`'s, as JSON.

- A player's message to a table another process runs is forwarded there (`Cluster.ask`)
  and the answer comes back; a join registers the player with the table's process,
  which sends the table's events on the cluster's topic while anybody elsewhere
  listens, and the player's private messages (payouts, hands) to the player's process.
- A process that stops beating for `Cluster.dead_seconds` is gone: its players are
  forgotten, questions waiting for it are answered "table moving". A process whose
  lock on a table comes free (its owner died: PostgreSQL ends the dead session and its
  locks) takes the table over, runs the recovery, and its heartbeat says so; every
  process then joins its players to the table again (a fresh snapshot each).
- While this process's listening connection is lost it forgets who runs the other
  processes' tables; once back it says hello, and the next heartbeats say again.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Protocol

from baccara.db.auth import User
from baccara.db.signals import Signals, Topic, cancel_and_wait
from baccara.server.cluster.messages import (
    Ask,
    AskedUser,
    Beat,
    ClusterMessage,
    Event,
    Gone,
    Hello,
    Private,
    Question,
    Reply,
    read_cluster,
)
from baccara.server.tables.audience import Audience

__all__ = ["Cluster", "Host", "Moving"]

log = logging.getLogger("baccara.server")


class Moving(Exception):
    """The table has no live process now (it is being taken over): ask again."""


class Host(Protocol):
    """What the cluster needs of its process's tables (`baccara.server.app`)."""

    def owned(self) -> list[str]:
        """The tables this process runs."""

    def configured(self) -> list[str]:
        """The tables this process may run (its ``--tables``)."""

    def lobby_line(self, table: str) -> str:
        """A table's lobby line (JSON), for the heartbeat."""

    def audience(self, table: str) -> Audience | None:
        """A table's audience on this process, if it has one."""

    def answer(
        self, process: str, table: str, what: Question, user: User | None, text: str
    ) -> Awaitable[list[str]]:
        """The answer (JSON texts) to a question forwarded from ``process``."""

    def rejoin(self, table: str) -> Awaitable[None]:
        """Join this process's players to ``table`` again (its process changed)."""


class Cluster:
    """This process's part in a cluster on one PostgreSQL (see the module)."""

    def __init__(
        self,
        signals: Signals,
        host: Host,
        *,
        beat_seconds: float = 1.0,
        dead_seconds: float = 5.0,
        ask_seconds: float = 10.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.signals = signals
        self.host = host
        self.process = signals.process
        self.beat_seconds = beat_seconds
        self.dead_seconds = dead_seconds
        self.ask_seconds = ask_seconds
        self.clock = clock
        self.owners: dict[str, str] = {}  # table -> the process that runs it, as last heard
        self.seen: dict[str, float] = {}  # process -> when last heard
        self.lines: dict[str, tuple[str, str]] = {}  # other processes' tables: (process, line)
        self.sent: dict[str, str] = {}  # the lobby lines this process last sent
        self.able: dict[str, set[str]] = {}  # process -> the tables it may run
        self.pending: dict[str, tuple[str, asyncio.Future[list[str]]]] = {}
        self.tasks: list[asyncio.Task[None]] = []
        self.background: set[asyncio.Task[None]] = set()  # answers and rejoins under way
        self._keys = itertools.count()

    # -- sending -------------------------------------------------------------------------

    def to_all(self, message: ClusterMessage) -> None:
        """Send a message to every process (queued: sent in order)."""
        self.signals.publish(Topic.CLUSTER, message.model_dump_json(by_alias=True))

    def to(self, process: str, message: ClusterMessage) -> None:
        """Send a message to ``process`` (queued: sent in order)."""
        self.signals.send(process, message.model_dump_json(by_alias=True))

    # -- what the tables use -------------------------------------------------------------

    def publish(self, table: str, seq: int | None, text: str) -> None:
        """A table's event for the other processes' players (`Relay`)."""
        self.to_all(Event(sender=self.process, table=table, seq=seq, text=text))

    def private(self, process: str, table: str, name: str, text: str) -> None:
        """``name``'s private message for their connections on ``process`` (`Relay`)."""
        self.to(process, Private(table=table, name=name, text=text))

    def alive(self, processes: set[str]) -> None:
        """The processes PostgreSQL says are alive
        (`baccara.db.table_locks.TableLocks.processes`): the others are gone now,
        whatever their last heartbeat."""
        for process in [p for p in self.seen if p not in processes]:
            self._dead(process)

    def knows(self, table: str) -> bool:
        """Whether another process runs ``table`` (as last heard)."""
        return self.owners.get(table, self.process) != self.process

    def took(self, table: str) -> None:
        """This process runs ``table`` now."""
        self.owners[table] = self.process

    def remote_lines(self) -> list[str]:
        """The lobby lines of the tables other processes run."""
        mine = set(self.host.owned())
        return [line for table, (_, line) in sorted(self.lines.items()) if table not in mine]

    async def ask(self, table: str, what: Question, user: User | None, text: str = "") -> list[str]:
        """Forward a question (``message``: a player's message; ``view``; ``shoes``;
        ``edges``) to the process running ``table``; its answer, or `Moving`."""
        owner = self.owners.get(table)
        if owner is None or owner == self.process:
            raise Moving(table)
        key = f"{self.process}.{next(self._keys)}"
        future: asyncio.Future[list[str]] = asyncio.get_running_loop().create_future()
        self.pending[key] = (owner, future)
        who = None if user is None else AskedUser.of(user)
        asked = Ask(sender=self.process, id=key, table=table, what=what, user=who, text=text)
        self.to(owner, asked)
        try:
            return await asyncio.wait_for(future, self.ask_seconds)
        except TimeoutError:
            raise Moving(table) from None
        finally:
            self.pending.pop(key, None)

    def gone(self, table: str, name: str) -> None:
        """One of ``name``'s connections here left ``table`` (run elsewhere)."""
        owner = self.owners.get(table)
        if owner is not None and owner != self.process:
            self.to(owner, Gone(sender=self.process, table=table, name=name))

    # -- running -------------------------------------------------------------------------

    async def start(self) -> None:
        """Hear the other processes (the signals are started), say hello and beat."""
        self.signals.on(Topic.CLUSTER, self._heard)
        self.signals.on_inbox(self._heard)
        self.signals.on_gap(lost=self._lost, back=self._hello)
        self._hello()
        self.tasks = [asyncio.create_task(self._beat())]

    async def stop(self) -> None:
        """Stop beating (the signals stop after)."""
        await cancel_and_wait(*self.tasks)

    def _hello(self) -> None:
        self.to_all(Hello(sender=self.process))

    def _lost(self) -> None:
        """What the others said is missed from now: forget who runs their tables (the
        heartbeats after the connection is back say it again, and the players rejoin)."""
        self.owners = {t: p for t, p in self.owners.items() if p == self.process}

    def _heard(self, text: str) -> None:
        try:
            message = read_cluster(text)
        except ValueError:
            log.exception("cluster: a message could not be read")
            return
        self._receive(message)

    async def _beat(self) -> None:
        while True:
            try:
                self.beat()
            except Exception:
                log.exception("cluster: a heartbeat failed")
            await asyncio.sleep(self.beat_seconds)

    def beat(self) -> None:
        """Say which tables this process runs, with their lobby lines that changed;
        forget the processes not heard for `dead_seconds`."""
        owned = self.host.owned()
        lines = {}
        for table in owned:
            line = self.host.lobby_line(table)
            if self.sent.get(table) != line:
                lines[table] = self.sent[table] = line
        beat = Beat(sender=self.process, tables=owned, can=self.host.configured(), lines=lines)
        self.to_all(beat)
        now = self.clock()
        for process, when in list(self.seen.items()):
            if now - when > self.dead_seconds:
                self._dead(process)

    def _dead(self, process: str) -> None:
        log.warning("cluster: process %s is gone", process)
        self.seen.pop(process, None)
        self.able.pop(process, None)
        for table in [t for t, p in self.owners.items() if p == process]:
            del self.owners[table]
        for table in [t for t, (p, _) in self.lines.items() if p == process]:
            del self.lines[table]
        for owner, future in list(self.pending.values()):
            if owner == process and not future.done():
                future.set_exception(Moving(process))
        for table in self.host.owned():
            audience = self.host.audience(table)
            if audience is not None:
                audience.forget([process])

    # -- receiving -----------------------------------------------------------------------

    def _receive(self, message: ClusterMessage) -> None:
        sender = getattr(message, "sender", "")
        if sender == self.process:
            return  # this process's own, heard on the shared channel
        if sender:
            self.seen[sender] = self.clock()
        match message:
            case Beat():
                self.able[sender] = set(message.can)
                self._on_beat(sender, message.tables, message.lines)
            case Hello():
                self.sent.clear()  # a new process: the next beat sends every line
            case Event(table=table):
                audience = self.host.audience(table)
                if audience is not None and self.owners.get(table) == sender:
                    audience.deliver(message.seq, message.text)
            case Private(table=table):
                audience = self.host.audience(table)
                if audience is not None:
                    audience.deliver_to(message.name, message.text)
            case Ask():
                self._spawn(self._answer(message))
            case Reply(id=key):
                waiting = self.pending.get(key)
                if waiting is not None and not waiting[1].done():
                    waiting[1].set_result(list(message.texts))
            case Gone(table=table):
                audience = self.host.audience(table)
                if audience is not None and table in self.host.owned():
                    audience.remote_leave(sender, message.name)

    def _on_beat(self, sender: str, tables: list[str], lines: dict[str, str]) -> None:
        for table, line in lines.items():
            self.lines[table] = (sender, line)
        for table in [t for t, (p, _) in self.lines.items() if p == sender and t not in tables]:
            del self.lines[table]
        for table in [t for t, p in self.owners.items() if p == sender and t not in tables]:
            del self.owners[table]  # let go (a clean stop): the next owner will say so
        mine = set(self.host.owned())
        for table in tables:
            if table in mine or self.owners.get(table) == sender:
                continue
            self.owners[table] = sender
            self._spawn(self.host.rejoin(table))

    def _spawn(self, work: Awaitable[None]) -> None:
        task = asyncio.ensure_future(work)
        self.background.add(task)
        task.add_done_callback(self.background.discard)

    async def _answer(self, asked: Ask) -> None:
        user = None if asked.user is None else asked.user.user()
        try:
            texts = await self.host.answer(asked.sender, asked.table, asked.what, user, asked.text)
        except Exception:
            log.exception("cluster: a forwarded %s failed", asked.what)
            texts = []
        self.to(asked.sender, Reply(id=asked.id, texts=texts))
