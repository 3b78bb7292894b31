"""What every table of the server has, whatever its game: its id and game, the services
it is given (`baccara.server.infra.services`), its listeners and the log of the events it
sent, and the join that answers with them (`baccara.server.tables.contract`). The house's
table (`baccara.server.tables.house`) and the one players' table
(`baccara.server.tables.players`) are built on `TableBase`; each says its own state for
a player arriving (`Arriving`), which the join sends first.

A join is answered with the table's state (a house table's ``snapshot``, a players'
table's ``chemin`` or ``banque`` state), then the events missed since ``since`` (at
most `MAX_REPLAY` events and `MAX_REPLAY_BYTES`, and only when every one is still
kept: a small ``join`` never makes the server send megabytes), then the player's
private message, if any (a players' table's hand in play).
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, ClassVar, Generic, ParamSpec, Protocol, TypeVar

from baccara.db.auth import User
from baccara.server.infra.services import TableServices
from baccara.server.tables.audience import Audience
from baccara.server.wire import protocol as P
from baccara.variants import Variant

__all__ = [
    "HELD_LOOK_SECONDS",
    "MAX_REPLAY",
    "MAX_REPLAY_BYTES",
    "Arriving",
    "TableBase",
    "TableSetup",
    "missed_events",
]

_T = TypeVar("_T")
_P = ParamSpec("_P")
_Phase = TypeVar("_Phase", bound=StrEnum)  # the game's Phase: engine, runner and wire's
MAX_REPLAY = 200
"""The most events a ``join`` with ``since`` replays (more missed: the state alone)."""
MAX_REPLAY_BYTES = 64 * 1024
"""The most bytes of events a ``join`` replays."""
HELD_LOOK_SECONDS = 30.0
"""How often a table the house holds (paused) looks again without being woken."""


@dataclass(frozen=True, slots=True, kw_only=True)
class TableSetup:
    """A table's limits (minor units) and timings (seconds) as the house sets them at run
    time (`baccara.db.table_list`); None: the server's configuration's. A house table
    takes ``minimum`` and ``maximum`` on its Player and Banker bets; a players' table
    ``minimum`` as its least buy-in and bank (from its next shoe).

    >>> TableSetup(minimum=2_000, bet_seconds=10.0)
    TableSetup(minimum=2000, maximum=None, bet_seconds=10.0, decision_seconds=None, result_seconds=None)
    """

    minimum: int | None = None
    maximum: int | None = None
    bet_seconds: float | None = None
    decision_seconds: float | None = None
    result_seconds: float | None = None


def missed_events(events: Iterable[tuple[int, str]], since: int, upto: int) -> list[str]:
    """The events after ``since`` up to ``upto`` (the state's ``seq``) to replay: all
    of them, or none when one is no longer kept or they pass `MAX_REPLAY` events or
    `MAX_REPLAY_BYTES`.

    >>> kept = [(seq, "x" * 100) for seq in range(5, 11)]
    >>> len(missed_events(kept, 7, 10)), len(missed_events(kept, 4, 10)), missed_events(kept, 3, 10)
    (3, 6, [])
    >>> missed_events([(n, "x" * 1000) for n in range(1, 100)], 0, 99)
    []
    """
    if upto <= since:
        return []
    kept = list(events)
    if not kept or kept[0][0] > since + 1:
        return []  # some of the events missed are no longer kept
    picked = [text for seq, text in kept if since < seq <= upto]
    if len(picked) > MAX_REPLAY or sum(len(t.encode()) for t in picked) > MAX_REPLAY_BYTES:
        return []
    return picked


class Arriving(Protocol):
    """A table that answers a join (`TableBase.join`): its state for a player arriving
    (a house table seats them first), its events kept, and what the player is sent
    privately after the state."""

    @property
    def events(self) -> deque[tuple[int, str]]: ...
    async def arrival(self, user: User | None) -> P.Snapshot | P.PlayersState: ...
    def private_texts(self, user: User | None) -> list[str]: ...


class TableBase(Generic[_Phase]):
    """A table's id, game, services, listeners and sent events, and its phase (it opens
    in ``phase``: its game's ``STARTING``)."""

    movable: ClassVar[bool] = False
    """Whether the table may pass to another process between two rounds (a cluster's
    sharing out): the house's tables may; a players' table keeps its process."""

    def __init__(
        self,
        *,
        table_id: str,
        variant: Variant,
        services: TableServices,
        audience: Audience | None,
        kept: int,
        phase: _Phase,
    ) -> None:
        self.id = table_id
        self.variant = variant
        self.services = services
        self.ledger = services.ledger
        self.clock = services.clock
        self.fault = services.fault
        self.audience = Audience(table_id) if audience is None else audience  # kept on takeover
        # The last events as sent (seq, JSON text) for reconnecting clients: text, not
        # dicts, so that thousands of them give the garbage collector nothing to scan.
        self.events: deque[tuple[int, str]] = deque(maxlen=kept)
        self.seq = 0
        self.phase = phase
        self.stopping = False
        self.handing_over = False  # to another process of the cluster, after this round
        self.house_paused: str | None = None  # why the house paused the table (None: it plays)
        self.closing = False  # closed by the house: it stops once the round in play is over
        self.setup = TableSetup()  # the house's limits and timings, from the next round
        self.control = asyncio.Event()  # the house paused, resumed or closed the table
        self.holding = False  # the loop holds now, between rounds (`held`)
        services.ledger.fault = services.fault

    # -- the house's control (`baccara.server.cluster.hall`) ------------------------------------

    def pause(self, reason: str | None) -> None:
        """The house pauses the table (``reason``: why, in words) or lets it play again
        (None): the round or coup in play finishes, no new one starts; every listener is
        told (a ``house_pause`` event)."""
        if reason == self.house_paused:
            return
        self.house_paused = reason
        self.seq += 1
        told = P.HousePause(table=self.id, seq=self.seq, time=self.clock.now(), reason=reason)
        self.send_logged(told.model_dump_json())
        self.look_again()

    def close(self) -> None:
        """The house closes the table: it stops once the round in play is over (a
        players' table gives its chips back to the wallets first)."""
        self.closing = True
        self.look_again()

    def hand_over(self) -> None:
        """Stop after the round in play, for another process to run the table (a table
        held by the house or waiting for players stops at once)."""
        self.handing_over = True
        self.look_again()

    def configure(self, setup: TableSetup) -> None:
        """The house's limits and timings, taken from the next round."""
        self.setup = setup

    def look_again(self) -> None:
        """Wake the table's loop wherever it waits (the house's control changed)."""
        self.control.set()

    async def held(self) -> None:
        """Wait while the house holds the table (until it is resumed or closed)."""
        self.control.clear()
        if self.house_paused is not None and not (
            self.closing or self.stopping or self.handing_over
        ):
            self.holding = True
            try:
                await self.clock.wait(self.control, HELD_LOOK_SECONDS)
            finally:
                self.holding = False

    def lobby_line(self, *, phase: P.AnyPhase, **game: Any) -> P.TableSummary:
        """The table's line in the lobby: what every table says of itself, its phase
        and its game's own fields (``game``)."""
        return P.TableSummary(
            id=self.id,
            phase=phase,
            game=self.variant.family.value,
            variant=self.variant.name,
            title=self.variant.title,
            description=self.variant.description,
            players=len(self.audience.names()),
            **game,
        )

    def private_texts(self, user: User | None) -> list[str]:
        """What a player joining is sent privately after the table's state (nothing here)."""
        return []

    async def join(self: Arriving, user: User | None, since: int | None) -> list[str]:
        """A join's answer (see the module): the table's `Arriving.arrival` first."""
        first = await self.arrival(user)
        texts = [first.model_dump_json()]
        if since is not None:
            missed = missed_events(self.events, since, first.seq)
            texts += [text[:-1] + ',"missed":true}' for text in missed]
        return texts + self.private_texts(user)

    async def db(self, fn: Callable[_P, _T], /, *args: _P.args, **kwargs: _P.kwargs) -> _T:
        """Run a blocking database read on the reader threads."""
        return await self.services.db(fn, *args, **kwargs)

    async def db_write(self, fn: Callable[_P, _T], /, *args: _P.args, **kwargs: _P.kwargs) -> _T:
        """Run a database write on the writer (after any bets waiting)."""
        return await self.services.db_write(fn, *args, **kwargs)

    def send_logged(self, text: str) -> None:
        """Log the next event (its ``seq`` already taken) and send it to every listener."""
        self.events.append((self.seq, text))
        self.audience.broadcast(self.seq, text)
