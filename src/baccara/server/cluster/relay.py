"""Several server processes on one PostgreSQL: each table run by one process, its
players connected to any.

Each table is run by the process holding its advisory lock (`baccara.db.table_locks`); the other
processes relay. They talk through PostgreSQL's LISTEN/NOTIFY on two channels each: one
that every process hears (``…_all``: each process's heartbeat, with the tables it runs
and their lobby lines; the tables' events) and one of its own (``…_<process>``:
messages forwarded to the tables it runs, their answers, private messages).

- A player's message to a table another process runs is forwarded there (`Cluster.ask`)
  and the answer comes back; a join registers the player with the table's process,
  which sends the table's events on ``…_all`` while anybody elsewhere listens, and the
  player's private messages (payouts, hands) to the player's process.
- A process that stops beating for `Cluster.dead_seconds` is gone: its players are
  forgotten, questions waiting for it are answered "table moving". A process whose
  lock on a table comes free (its owner died: PostgreSQL ends the dead session and its
  locks) takes the table over, runs the recovery, and its heartbeat says so; every
  process then joins its players to the table again (a fresh snapshot each).

A NOTIFY payload is at most 8,000 bytes: a longer message goes compressed, split into
parts sent in one transaction (so they arrive together and in order).
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import itertools
import logging
import secrets
import time
import zlib
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from baccara.db.auth import User
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

__all__ = ["Assembler", "Cluster", "Host", "Moving", "encode"]

log = logging.getLogger("baccara.server")
LIMIT = 7_900
"""The longest NOTIFY payload sent (PostgreSQL takes under 8,000 bytes)."""


class Moving(Exception):
    """The table has no live process now (it is being taken over): ask again."""


def encode(text: str, key: str) -> list[str]:
    """A message's JSON ``text`` as NOTIFY payloads: itself, or compressed (``~``), or
    compressed parts (``&key:i:n:``), each under `LIMIT` bytes.

    >>> encode('{"op":"hello","from":"p1"}', "k")
    ['{"op":"hello","from":"p1"}']
    >>> [p[0] for p in encode('{"text":"%s"}' % ("ab" * 5000), "k")]
    ['~']
    >>> parts = encode('{"text":"%s"}' % secrets.token_hex(20_000), "k")
    >>> len(parts) > 1, parts[1].startswith(f"&k:1:{len(parts)}:")
    (True, True)
    """
    if len(text.encode()) <= LIMIT:
        return [text]
    packed = base64.b64encode(zlib.compress(text.encode(), 6)).decode("ascii")
    if len(packed) < LIMIT:
        return ["~" + packed]
    size = LIMIT - 64
    chunks = [packed[i : i + size] for i in range(0, len(packed), size)]
    return [f"&{key}:{n}:{len(chunks)}:{chunk}" for n, chunk in enumerate(chunks)]


class Assembler:
    """Messages' JSON texts back from `encode`'s payloads (parts kept until the last comes).

    >>> joined = Assembler()
    >>> text = '{"text":"%s"}' % secrets.token_hex(20_000)
    >>> got = [joined.feed(p) for p in encode(text, "k")]
    >>> len(got) > 1, got[:-1] == [None] * (len(got) - 1), got[-1] == text
    (True, True, True)
    """

    def __init__(self) -> None:
        self.parts: dict[str, list[str]] = {}

    def feed(self, payload: str) -> str | None:
        """The message's text ``payload`` completes, if any."""
        if payload.startswith("{"):
            return payload
        if payload.startswith("~"):
            return self._unpack(payload[1:])
        key, index, count, chunk = payload[1:].split(":", 3)
        if index == "0":
            self.parts[key] = []
        got = self.parts.get(key)
        if got is None or len(got) != int(index):
            self.parts.pop(key, None)  # a part missed (a reconnect): drop the message
            return None
        got.append(chunk)
        if len(got) < int(count):
            return None
        del self.parts[key]
        return self._unpack("".join(got))

    @staticmethod
    def _unpack(packed: str) -> str:
        return zlib.decompress(base64.b64decode(packed)).decode()


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
        conninfo: str,
        namespace: str,
        host: Host,
        *,
        beat_seconds: float = 1.0,
        dead_seconds: float = 5.0,
        ask_seconds: float = 10.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.conninfo = conninfo
        self.namespace = namespace
        self.host = host
        self.process = secrets.token_hex(4)
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
        self.outbox: asyncio.Queue[tuple[str, list[str]]] = asyncio.Queue()
        self.ready = asyncio.Event()
        self.tasks: list[asyncio.Task[None]] = []
        self.background: set[asyncio.Task[None]] = set()  # answers and rejoins under way
        self._keys = itertools.count()
        self._parts = Assembler()

    # -- channels ----------------------------------------------------------------------

    @property
    def everyone(self) -> str:
        """The channel every process hears."""
        return f"{self.namespace}_all"

    def channel(self, process: str) -> str:
        """A process's own channel."""
        return f"{self.namespace}_{process}"

    def send(self, channel: str, message: ClusterMessage) -> None:
        """Queue a message (sent with the next batch, in order)."""
        text = message.model_dump_json(by_alias=True)
        self.outbox.put_nowait((channel, encode(text, f"{self.process}.{next(self._keys)}")))

    # -- what the tables use -------------------------------------------------------------

    def publish(self, table: str, seq: int | None, text: str) -> None:
        """A table's event for the other processes' players (`Relay`)."""
        self.send(self.everyone, Event(sender=self.process, table=table, seq=seq, text=text))

    def private(self, process: str, table: str, name: str, text: str) -> None:
        """``name``'s private message for their connections on ``process`` (`Relay`)."""
        self.send(self.channel(process), Private(table=table, name=name, text=text))

    @property
    def application_name(self) -> str:
        """The name of this process's listening session in PostgreSQL."""
        return f"{self.namespace}:{self.process}"

    def alive(self, processes: set[str]) -> None:
        """The processes PostgreSQL says are alive (`baccara.db.table_locks.TableLocks.processes`): the others
        are gone now, whatever their last heartbeat."""
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
        self.send(self.channel(owner), asked)
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
            self.send(self.channel(owner), Gone(sender=self.process, table=table, name=name))

    # -- running -------------------------------------------------------------------------

    async def start(self) -> None:
        """Start listening, publishing and beating; return once listening."""
        self.tasks = [
            asyncio.create_task(self._listen()),
            asyncio.create_task(self._publish()),
            asyncio.create_task(self._beat()),
        ]
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.ready.wait(), 10)

    async def stop(self) -> None:
        """Stop the tasks (the connections close)."""
        for task in self.tasks:
            task.cancel()
        for task in self.tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    async def _listen(self) -> None:
        import psycopg

        while True:
            try:
                async with await psycopg.AsyncConnection.connect(
                    self.conninfo, autocommit=True, application_name=self.application_name
                ) as conn:
                    for channel in (self.everyone, self.channel(self.process)):
                        await conn.execute(f'LISTEN "{channel}"')
                    self.ready.set()
                    self.send(self.everyone, Hello(sender=self.process))
                    async for note in conn.notifies():
                        try:
                            text = self._parts.feed(note.payload)
                            if text is not None:
                                self._receive(read_cluster(text))
                        except Exception:
                            log.exception("cluster: a message could not be read")
            except asyncio.CancelledError:
                raise
            except Exception as error:  # the listening connection dropped: start again
                log.warning("cluster: listening failed (%s); again in 1 s", error)
                self.owners = {t: p for t, p in self.owners.items() if p == self.process}
                await asyncio.sleep(1.0)

    async def _publish(self) -> None:
        import psycopg

        conn: Any = None
        try:  # stopped (cancelled) anywhere, waiting for messages too: the connection closes
            while True:
                batch = [await self.outbox.get()]
                while not self.outbox.empty() and len(batch) < 500:
                    batch.append(self.outbox.get_nowait())
                rows = [(channel, payload) for channel, parts in batch for payload in parts]
                try:
                    if conn is None or conn.closed:
                        conn = await psycopg.AsyncConnection.connect(self.conninfo)
                    async with conn.transaction(), conn.cursor() as cursor:  # one commit
                        await cursor.executemany("SELECT pg_notify(%s, %s)", rows)
                except asyncio.CancelledError:
                    raise
                except Exception as error:
                    log.warning("cluster: %d messages not sent (%s)", len(batch), error)
                    if conn is not None:
                        with contextlib.suppress(Exception):
                            await conn.close()
                    conn = None
                    await asyncio.sleep(0.2)
        finally:
            if conn is not None:
                with contextlib.suppress(Exception):
                    await conn.close()

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
        self.send(self.everyone, beat)
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
        self.send(self.channel(asked.sender), Reply(id=asked.id, texts=texts))
