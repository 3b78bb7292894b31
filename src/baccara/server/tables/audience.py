"""Everyone connected to one table: this process's connections and, when several
processes share one PostgreSQL (`baccara.server.cluster.relay`), the players connected to the
others.

A table's runner speaks to its `Audience` only: `broadcast` (an event for all),
`send_to` (a player's private message), `names` and `connected` (who is here). The
audience delivers to this process's connections and, at a table this process runs,
passes the rest to the processes where the other players are connected (`Relay`). At a
table another process runs, the audience only delivers what its owner sent.

>>> hall = Audience("t1")
>>> ann = Listener(User(id=1, name="ann", account=11))
>>> hall.add(ann)
>>> hall.remote_join("p2", "bob", 12)
>>> hall.broadcast(1, '{"seq":1}'); ann.queue.get_nowait()
'{"seq":1}'
>>> sorted(hall.names()), hall.connected("bob"), sorted(hall.accounts(["ann", "bob", "cy"]).items())
(['ann', 'bob'], True, [('ann', 11), ('bob', 12)])
>>> hall.remote_leave("p2", "bob"); hall.connected("bob")
False
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Iterable
from typing import Protocol

from pydantic import BaseModel

from baccara.db.auth import User

__all__ = ["END", "SLICE", "Audience", "Listener", "Relay"]

END = ""
"""Queued after a listener's last message: the connection is to be closed (no message
of the protocol is empty)."""

SLICE = 100
"""The most connections a message is queued for before the event loop does something
else: a table of a thousand players fans each event out in slices, so a bet that comes
in meanwhile is answered without waiting for the whole fan-out."""


class Listener:
    """One connected client: a bounded queue of messages to send.

    A listener may be held (`hold`) while its snapshot comes from another process: the
    table's events meanwhile wait, and `release` sends the snapshot first, then the
    events newer than it.
    """

    def __init__(self, user: User | None) -> None:
        self.user = user
        self.queue: asyncio.Queue[str] = asyncio.Queue(maxsize=2000)
        self.dropped = False
        self.held: list[tuple[int | None, str]] | None = None

    def send(self, message: BaseModel) -> None:
        """Queue a message of the protocol (as JSON)."""
        self.send_text(message.model_dump_json())

    def send_text(self, text: str, seq: int | None = None) -> None:
        """Queue a JSON text; a client too slow to keep up is dropped (it will reconnect)."""
        if self.held is not None:
            self.held.append((seq, text))
            return
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:
            self.dropped = True

    def end(self, last: BaseModel) -> None:
        """Send ``last``, then close the connection (`END` tells the sender to)."""
        self.held = None
        self.send(last)
        self.send_text(END)

    def hold(self) -> None:
        """Keep what comes for this client until `release`."""
        if self.held is None:
            self.held = []

    def release(self, first: Iterable[str], after: int = 0) -> None:
        """Send ``first``, then what was held: the events after seq ``after`` and every
        private message."""
        held, self.held = self.held or [], None
        for text in first:
            self.send_text(text)
        for seq, text in held:
            if seq is None or seq > after:
                self.send_text(text)


class Relay(Protocol):
    """What an audience needs of the cluster to reach the other processes."""

    def publish(self, table: str, seq: int | None, text: str) -> None:
        """Send a table's event to every process."""

    def private(self, process: str, table: str, name: str, text: str) -> None:
        """Send ``name``'s private message to their connections on ``process``."""


class Audience:
    """One table's connections, here and (at a table this process runs) elsewhere."""

    def __init__(self, table_id: str) -> None:
        self.table_id = table_id
        self.local: set[Listener] = set()
        self.by_name: dict[str, set[Listener]] = {}  # this process's, by player
        self.remote: dict[str, dict[str, int]] = {}  # name -> process -> connections
        self.remote_accounts: dict[str, int] = {}
        self.relay: Relay | None = None  # set while this process runs the table, clustered
        self.fanning: deque[tuple[str | None, int | None, str]] = deque()  # (to, seq, text)
        self._fan: asyncio.Task[None] | None = None
        self.arrived = asyncio.Event()  # set at each join: a table with nobody waits on it

    @property
    def empty(self) -> bool:
        """Whether nobody, here or elsewhere, is connected to the table."""
        return not self.local and not self.remote

    def add(self, listener: Listener) -> None:
        """A connection of this process joins."""
        self.arrived.set()
        self.local.add(listener)
        if listener.user is not None:
            self.by_name.setdefault(listener.user.name, set()).add(listener)

    def discard(self, listener: Listener) -> None:
        """A connection of this process leaves."""
        self.local.discard(listener)
        if listener.user is not None:
            mine = self.by_name.get(listener.user.name, set())
            mine.discard(listener)
            if not mine:
                self.by_name.pop(listener.user.name, None)

    def remote_join(self, process: str, name: str, account: int) -> None:
        """A connection of ``name`` on another process joins (this process runs the table)."""
        self.arrived.set()
        here = self.remote.setdefault(name, {})
        here[process] = here.get(process, 0) + 1
        self.remote_accounts[name] = account

    def remote_leave(self, process: str, name: str) -> None:
        """One of ``name``'s connections on ``process`` leaves."""
        here = self.remote.get(name, {})
        left = here.get(process, 0) - 1
        if left > 0:
            here[process] = left
        else:
            here.pop(process, None)
        if not here:
            self.remote.pop(name, None)
            self.remote_accounts.pop(name, None)

    def forget(self, processes: Iterable[str] | None = None) -> None:
        """Drop the connections of ``processes`` (gone), or of every other process."""
        gone = None if processes is None else set(processes)
        for name in list(self.remote):
            for process in list(self.remote[name]):
                if gone is None or process in gone:
                    del self.remote[name][process]
            if not self.remote[name]:
                del self.remote[name]
                self.remote_accounts.pop(name, None)

    def names(self) -> set[str]:
        """Everybody connected to the table."""
        return set(self.by_name) | set(self.remote)

    def connected(self, name: str) -> bool:
        """Whether ``name`` has a connection to the table."""
        return name in self.by_name or name in self.remote

    def accounts(self, names: Iterable[str]) -> dict[str, int]:
        """The wallet accounts of those of ``names`` who are connected."""
        wanted = set(names)
        found = {n: a for n, a in self.remote_accounts.items() if n in wanted}
        for name in wanted & self.by_name.keys():
            user = next(iter(self.by_name[name])).user
            assert user is not None
            found[name] = user.account
        return found

    def broadcast(self, seq: int | None, text: str) -> None:
        """An event for everybody (``seq`` None: one not logged, a squeezer's peel)."""
        self.deliver(seq, text)
        if self.relay is not None and self.remote:
            self.relay.publish(self.table_id, seq, text)

    def deliver(self, seq: int | None, text: str) -> None:
        """An event for this process's connections (in slices at a crowded table)."""
        if len(self.local) <= SLICE and not self.fanning:
            for listener in list(self.local):
                listener.send_text(text, seq)
            return
        self.fanning.append((None, seq, text))
        if self._fan is None or self._fan.done():
            self._fan = asyncio.get_running_loop().create_task(self._fan_out())

    async def _fan_out(self) -> None:
        """Queue the waiting messages, in order, a slice of connections at a time."""
        while self.fanning:
            name, seq, text = self.fanning[0]
            targets = list(self.local if name is None else self.by_name.get(name, ()))
            for start in range(0, len(targets), SLICE):
                for listener in targets[start : start + SLICE]:
                    listener.send_text(text, seq)
                if start + SLICE < len(targets):
                    await asyncio.sleep(0)
            self.fanning.popleft()

    def send_to(self, name: str, message: BaseModel | str) -> None:
        """A private message to every connection of ``name``."""
        text = message if isinstance(message, str) else message.model_dump_json()
        self.deliver_to(name, text)
        if self.relay is not None:
            for process in self.remote.get(name, {}):
                self.relay.private(process, self.table_id, name, text)

    def echo(self, name: str, message: BaseModel, besides: Listener) -> None:
        """``name``'s answer, sent to ``besides``, to their other connections too: every tab
        of a player sees their stakes and balance."""
        text = message.model_dump_json()
        if self.fanning:
            self.fanning.append((name, None, text))  # (``besides`` has it already: a repeat)
        else:
            for listener in list(self.by_name.get(name, ())):
                if listener is not besides:
                    listener.send_text(text)
        if self.relay is not None:
            for process in self.remote.get(name, {}):
                self.relay.private(process, self.table_id, name, text)

    def deliver_to(self, name: str, text: str) -> None:
        """A private message to ``name``'s connections on this process (after the events
        still being fanned out)."""
        if self.fanning:
            self.fanning.append((name, None, text))
            return
        for listener in list(self.by_name.get(name, ())):
            listener.send_text(text)
