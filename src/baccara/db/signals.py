"""The one signal path between server processes (`Signals`): the cluster's messages
(tables' events, heartbeats, a process's questions to another and their answers), the
revocations of sessions and the operator's changes all travel on it, each on its
`Topic` or to one process's inbox.

- **PostgreSQL** (`PostgresSignals`): LISTEN/NOTIFY. Each process listens on one
  connection of its own, named ``<namespace>:<process>`` (so which processes are alive
  is PostgreSQL's to say: `baccara.db.table_locks.TableLocks.processes`), to one channel
  per topic (``<namespace>_all``, ``…_revoked``, ``…_control``) and to its inbox
  (``<namespace>_<process>``). A lost connection is opened again; the `Signals.on_gap`
  hooks are told when it is lost and when it is back, since what was sent meanwhile is
  missed (whoever may not miss a signal reads the database again then). `publish` and
  `send` queue a message, and a task sends the queue in order, many in one transaction;
  a batch that cannot be sent (the database away) is dropped with one warning: a signal
  is delivered at most once, so what must not be lost is in the database and is read
  again (the revocations, every half second).
- **SQLite** (`LocalSignals`; one server process per file, `baccara.db.serve_lock`): the
  same interface within the process: a signal reaches every `Signals` started on the
  same database here. A command run in another process (``baccara account suspend``)
  reaches no server: what it wrote is found by the readers' periodic look.

`signal` sends a signal inside the caller's `writing` transaction: it is heard if the
transaction commits, once its writes can be read, and never if it rolls back (NOTIFY is
transactional; on SQLite it is handed on after the commit).

A NOTIFY payload is under 8,000 bytes: a longer one goes compressed, or split into
parts sent in one transaction, so they arrive together and in order (`encode`,
`Assembler`).

>>> import asyncio
>>> from baccara.db.database import database_at, writing
>>> database = database_at("sqlite://")
>>> async def demo() -> list[str]:
...     heard: list[str] = []
...     signals = open_signals(database)
...     signals.on(Topic.REVOCATIONS, heard.append)
...     await signals.start()
...     with writing(database) as conn:
...         signal(conn, Topic.REVOCATIONS, "7")
...     try:
...         with writing(database) as conn:
...             signal(conn, Topic.REVOCATIONS, "8")
...             raise KeyError("rolled back")
...     except KeyError:
...         pass
...     signals.publish(Topic.REVOCATIONS, "9")
...     signals.publish(Topic.CONTROL, "nobody listens")
...     await asyncio.sleep(0)  # handed on by the event loop
...     await signals.stop()
...     return heard
>>> asyncio.run(demo())
['7', '9']
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import itertools
import logging
import secrets
import threading
import weakref
import zlib
from abc import ABC, abstractmethod
from collections.abc import Callable
from enum import StrEnum
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from baccara.db.database import after_commit

if TYPE_CHECKING:
    import psycopg
    from psycopg.rows import TupleRow

__all__ = [
    "LIMIT",
    "Assembler",
    "Handler",
    "Hook",
    "LocalSignals",
    "PostgresSignals",
    "Signals",
    "Topic",
    "cancel_and_wait",
    "encode",
    "namespace_of",
    "open_signals",
    "signal",
]

log = logging.getLogger("baccara.db")

LIMIT = 7_900
"""The longest NOTIFY payload sent (PostgreSQL takes under 8,000 bytes)."""


class Topic(StrEnum):
    """What a signal is about; every process listening hears each topic's signals."""

    CLUSTER = "all"
    """The cluster's shared messages: heartbeats with the lobby lines, tables' events."""
    REVOCATIONS = "revoked"
    """A session ended (`baccara.db.sessions.revoke`; the payload: the player's id)."""
    CONTROL = "control"
    """An operator's change that every process takes (a table opened, paused or closed,
    its limits)."""


Handler = Callable[[str], None]
"""What is called, in the event loop, with each payload heard."""
Hook = Callable[[], None]
"""What is called when the listening connection is lost, or back (`Signals.on_gap`)."""


def encode(text: str, key: str) -> list[str]:
    """``text`` as NOTIFY payloads: itself, or compressed (``~``), or compressed parts
    (``&key:i:n:``), each under `LIMIT` bytes (a text that starts like an encoded one
    goes compressed).

    >>> encode('{"op":"hello","from":"p1"}', "k"), encode("7", "k")
    (['{"op":"hello","from":"p1"}'], ['7'])
    >>> [p[0] for p in encode('{"text":"%s"}' % ("ab" * 5000), "k")], encode("~", "k")[0][0]
    (['~'], '~')
    >>> parts = encode('{"text":"%s"}' % secrets.token_hex(20_000), "k")
    >>> len(parts) > 1, parts[1].startswith(f"&k:1:{len(parts)}:")
    (True, True)
    """
    if len(text.encode()) <= LIMIT and not text.startswith(("~", "&")):
        return [text]
    packed = base64.b64encode(zlib.compress(text.encode(), 6)).decode("ascii")
    if len(packed) < LIMIT:
        return ["~" + packed]
    size = LIMIT - 64
    chunks = [packed[i : i + size] for i in range(0, len(packed), size)]
    return [f"&{key}:{n}:{len(chunks)}:{chunk}" for n, chunk in enumerate(chunks)]


class Assembler:
    """Texts back from `encode`'s payloads (parts kept until the last comes).

    >>> joined = Assembler()
    >>> text = '{"text":"%s"}' % secrets.token_hex(20_000)
    >>> got = [joined.feed(p) for p in encode(text, "k")]
    >>> len(got) > 1, got[:-1] == [None] * (len(got) - 1), got[-1] == text
    (True, True, True)
    >>> joined.feed(encode("~7", "k")[0]), joined.feed("7")
    ('~7', '7')
    """

    def __init__(self) -> None:
        self.parts: dict[str, list[str]] = {}

    def feed(self, payload: str) -> str | None:
        """The text ``payload`` completes, if any."""
        if payload.startswith("~"):
            return self._unpack(payload[1:])
        if not payload.startswith("&"):
            return payload
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


def namespace_of(database: Engine) -> str:
    """A name for this database and schema, so that clusters sharing a PostgreSQL server
    (the tests' private schemas) neither hear nor lock each other."""
    with database.connect() as conn:
        return _namespace(conn)


_NAMESPACES: weakref.WeakKeyDictionary[Engine, str] = weakref.WeakKeyDictionary()


def _namespace(conn: Connection) -> str:
    found = _NAMESPACES.get(conn.engine)
    if found is None:
        database, schema = conn.execute(
            sa.text("SELECT current_database(), current_schema()")
        ).one()
        found = _NAMESPACES[conn.engine] = f"bcr{zlib.crc32(f'{database}:{schema}'.encode()):08x}"
    return found


def signal(conn: Connection, topic: Topic, payload: str) -> None:
    """Send ``payload`` on ``topic`` inside ``conn``'s transaction (`writing`): every
    process listening hears it once the transaction has committed, never if it rolls
    back."""
    if conn.dialect.name == "postgresql":
        channel = f"{_namespace(conn)}_{topic.value}"
        for part in encode(payload, secrets.token_hex(6)):
            conn.execute(sa.select(sa.func.pg_notify(channel, part)))
    else:
        after_commit(conn, partial(_fan_out, _database_key(conn.engine), topic, payload))


def open_signals(database: Engine) -> Signals:
    """This process's end of the signal path of ``engine``'s database (not started)."""
    if database.dialect.name == "postgresql":
        return PostgresSignals(database)
    return LocalSignals(database)


async def cancel_and_wait(*tasks: asyncio.Task[None]) -> None:
    """Cancel ``tasks`` and wait until each has ended, whatever it raised on its way
    out (a stopped task's end is not its stopper's error): how the signals' loops and
    the server's stop.

    >>> async def stopped() -> bool:
    ...     task = asyncio.create_task(asyncio.sleep(60))
    ...     await cancel_and_wait(task)
    ...     return task.cancelled()
    >>> asyncio.run(stopped())
    True
    """
    for task in tasks:
        task.cancel()
    for task in tasks:
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task


class Signals(ABC):
    """This process's end of the signal path: whom to call with what is heard, and how
    to send (see the module)."""

    shared: ClassVar[bool]
    """Whether other processes hear this process's signals (PostgreSQL)."""

    def __init__(self, process: str | None = None) -> None:
        self.process = secrets.token_hex(4) if process is None else process
        """This process's name among those on the database (its inbox's)."""
        self.handlers: dict[Topic | None, list[Handler]] = {}  # None: the inbox
        self.lost: list[Hook] = []
        self.back: list[Hook] = []

    def on(self, topic: Topic, handler: Handler) -> None:
        """Call ``handler`` with every payload heard on ``topic``."""
        self.handlers.setdefault(topic, []).append(handler)

    def on_inbox(self, handler: Handler) -> None:
        """Call ``handler`` with every payload sent to this process (`send`)."""
        self.handlers.setdefault(None, []).append(handler)

    def on_gap(self, *, lost: Hook | None = None, back: Hook | None = None) -> None:
        """Call ``lost`` when the listening connection is lost, ``back`` when it listens
        again: signals sent between the two are missed."""
        if lost is not None:
            self.lost.append(lost)
        if back is not None:
            self.back.append(back)

    @abstractmethod
    def publish(self, topic: Topic, payload: str) -> None:
        """Send ``payload`` on ``topic`` (queued: sent in order, soon)."""

    @abstractmethod
    def send(self, process: str, payload: str) -> None:
        """Send ``payload`` to the inbox of ``process`` (queued: sent in order, soon)."""

    @abstractmethod
    async def start(self) -> None:
        """Start listening and sending; return once listening."""

    @abstractmethod
    async def stop(self) -> None:
        """Stop listening and sending (what is still queued is dropped)."""

    def _deliver(self, topic: Topic | None, payload: str) -> None:
        for handler in self.handlers.get(topic, ()):
            try:
                handler(payload)
            except Exception:
                log.exception("signals: a handler of %s failed", topic or "the inbox")

    @staticmethod
    def _call(hooks: list[Hook]) -> None:
        for hook in hooks:
            try:
                hook()
            except Exception:
                log.exception("signals: a hook failed")


class PostgresSignals(Signals):
    """LISTEN/NOTIFY (see the module)."""

    shared = True

    def __init__(
        self,
        database: Engine,
        *,
        process: str | None = None,
        retry_seconds: float = 1.0,
        ready_seconds: float = 10.0,
    ) -> None:
        super().__init__(process)
        self.database = database
        self.conninfo = database.url.set(drivername="postgresql").render_as_string(
            hide_password=False
        )
        self.retry_seconds = retry_seconds
        self.ready_seconds = ready_seconds
        self.namespace = ""  # `start` reads it
        self.listening = asyncio.Event()
        self.outbox: asyncio.Queue[list[tuple[str, str]]] = asyncio.Queue()
        self.tasks: list[asyncio.Task[None]] = []
        self._keys = itertools.count()

    @property
    def application_name(self) -> str:
        """The name of this process's listening session in PostgreSQL."""
        return f"{self.namespace}:{self.process}"

    def channel(self, topic: Topic) -> str:
        """The NOTIFY channel of ``topic``."""
        return self._named(topic.value)

    def inbox(self, process: str) -> str:
        """The NOTIFY channel of ``process``'s inbox (a process's name is hexadecimal:
        never a topic's)."""
        return self._named(process)

    def _named(self, name: str) -> str:
        if not self.namespace:
            raise RuntimeError("the signals are not started")
        return f"{self.namespace}_{name}"

    def publish(self, topic: Topic, payload: str) -> None:
        self._queue(self.channel(topic), payload)

    def send(self, process: str, payload: str) -> None:
        self._queue(self.inbox(process), payload)

    def _queue(self, channel: str, payload: str) -> None:
        parts = encode(payload, f"{self.process}.{next(self._keys)}")
        self.outbox.put_nowait([(channel, part) for part in parts])

    async def start(self) -> None:
        self.namespace = await asyncio.to_thread(namespace_of, self.database)
        self.tasks = [asyncio.create_task(self._listen()), asyncio.create_task(self._publish())]
        with contextlib.suppress(TimeoutError):  # not yet: it keeps trying
            await asyncio.wait_for(self.listening.wait(), self.ready_seconds)

    async def stop(self) -> None:
        await cancel_and_wait(*self.tasks)
        self.tasks = []
        self.listening.clear()

    async def _listen(self) -> None:
        import psycopg
        from psycopg import sql

        topics: dict[str, Topic | None] = {self.channel(t): t for t in Topic}
        topics[self.inbox(self.process)] = None
        missed = False  # whether signals may have been missed since the last listening
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(
                    self.conninfo, autocommit=True, application_name=self.application_name
                ) as conn:
                    for channel in topics:
                        await conn.execute(sql.SQL("LISTEN {}").format(sql.Identifier(channel)))
                    parts = Assembler()
                    self.listening.set()
                    if missed:
                        missed = False
                        self._call(self.back)
                    async for note in conn.notifies():
                        self._heard(parts, topics.get(note.channel), note.payload)
            except asyncio.CancelledError:
                raise
            except Exception as error:  # the connection dropped, or could not be opened
                log.warning(
                    "signals: listening failed (%s); again in %g s", error, self.retry_seconds
                )
            missed = True
            if self.listening.is_set():
                self.listening.clear()
                self._call(self.lost)
            await asyncio.sleep(self.retry_seconds)

    def _heard(self, parts: Assembler, topic: Topic | None, payload: str) -> None:
        try:
            text = parts.feed(payload)
        except Exception:
            log.exception("signals: a payload could not be read")
            return
        if text is not None:
            self._deliver(topic, text)

    async def _publish(self) -> None:
        import psycopg

        conn: psycopg.AsyncConnection[TupleRow] | None = None
        try:
            while True:
                batch = [await self.outbox.get()]
                while not self.outbox.empty() and len(batch) < 500:
                    batch.append(self.outbox.get_nowait())
                rows = [row for message in batch for row in message]
                try:
                    if conn is None or conn.closed:
                        conn = await psycopg.AsyncConnection.connect(self.conninfo)
                    async with conn.transaction(), conn.cursor() as cursor:  # one commit
                        await cursor.executemany("SELECT pg_notify(%s, %s)", rows)
                except Exception as error:
                    log.warning("signals: %d messages not sent (%s)", len(batch), error)
                    if conn is not None:
                        with contextlib.suppress(Exception):
                            await conn.close()
                    conn = None
                    await asyncio.sleep(0.2)
        finally:
            if conn is not None:
                with contextlib.suppress(Exception):
                    await conn.close()


_LOCAL: dict[str, list[LocalSignals]] = {}  # a database's key -> the signals started on it
_LOCAL_LOCK = threading.Lock()  # `signal`'s are handed on from the writers' threads


def _database_key(database: Engine) -> str:
    path = database.url.database
    if not path or path == ":memory:":
        return f"memory:{id(database)}"
    return str(Path(path).resolve())


def _started(key: str) -> list[LocalSignals]:
    with _LOCAL_LOCK:
        return list(_LOCAL.get(key, ()))


def _fan_out(key: str, topic: Topic, payload: str) -> None:
    for signals in _started(key):
        signals.post(topic, payload)


class LocalSignals(Signals):
    """The signal path within one process (SQLite: see the module)."""

    shared = False

    def __init__(self, database: Engine, *, process: str | None = None) -> None:
        super().__init__(process)
        self.key = _database_key(database)
        self.loop: asyncio.AbstractEventLoop | None = None

    def publish(self, topic: Topic, payload: str) -> None:
        _fan_out(self.key, topic, payload)

    def send(self, process: str, payload: str) -> None:
        for signals in _started(self.key):
            if signals.process == process:
                signals.post(None, payload)

    def post(self, topic: Topic | None, payload: str) -> None:
        """Hand ``payload`` to this process's handlers, in its event loop (from any thread)."""
        loop = self.loop
        if loop is not None:
            with contextlib.suppress(RuntimeError):  # the loop has closed
                loop.call_soon_threadsafe(self._deliver, topic, payload)

    async def start(self) -> None:
        self.loop = asyncio.get_running_loop()
        with _LOCAL_LOCK:
            _LOCAL.setdefault(self.key, []).append(self)

    async def stop(self) -> None:
        with _LOCAL_LOCK:
            started = _LOCAL.get(self.key, [])
            if self in started:
                started.remove(self)
            if not started:
                _LOCAL.pop(self.key, None)
        self.loop = None
