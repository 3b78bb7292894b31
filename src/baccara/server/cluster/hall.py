"""The tables a server process serves: those it runs, and (several processes on one
PostgreSQL) those the others run, whose players it relays (`baccara.server.cluster.relay`).

On SQLite one process runs every table. On PostgreSQL each table is run by the process
holding its advisory lock; every `takeover_seconds` each process tries the locks of its
tables that nobody runs (a process that died has lost its locks with its session), and
starts the tables it gets: the runner's recovery finishes what the dead process left,
and the players connected here get the table afresh. A process that finds its locks'
connection gone stops those tables at once (another process may be taking them).

The processes share the tables out: a process takes free tables only up to its share
(the tables over the live processes, rounded up), unless a table has had nobody to run
it for `ServerConfig.dead_seconds`. A starting process waits `ServerConfig.share_seconds`
before taking its first tables, so processes started together see each other and
split them evenly; a process that runs more than its share while another runs less
hands house tables over, each once its round is settled (no bet is open then): it lets
the table's lock go, and the other process takes the table, recovers it (nothing is
left open) and its players carry on there.

The tables are data (`baccara.db.table_list`): the configuration's tables (``--tables``)
only seed the list on a first start; afterwards every process reads the list, and the
operator's stops of play, from the database. An operator's change (a table opened,
paused, resumed or closed, its limits and timings, a stop of play) is written with a
signal on the control channel (`baccara.db.signals.Topic.CONTROL`): every process's hall
hears it and reads the list again at once, and also every `ServerConfig.control_seconds`
and when its listening connection is back (a signal missed). A table opened is run (on
PostgreSQL: taken by whichever process's share has room, at once); a table paused, or
stopped with all play or its game, finishes its round and holds
(`baccara.server.tables.base.TableBase.pause`); a table closed finishes its round (a
players' table gives the chips back to the wallets) and stops, its lock let go; the
limits and timings are taken from the next round.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import ParamSpec, TypeVar

from baccara.db import table_list
from baccara.db.auth import User
from baccara.db.shoes import ShoeBook
from baccara.db.signals import Signals, Topic, cancel_and_wait, namespace_of
from baccara.db.table_list import STOP_ALL, TableRow, TableState
from baccara.db.table_locks import TableLocks
from baccara.server.cluster.messages import Question
from baccara.server.cluster.relay import Cluster, Moving
from baccara.server.infra.config import ServerConfig
from baccara.server.infra.services import TableServices
from baccara.server.infra.throttle import RateLimiter
from baccara.server.tables.audience import Audience, Listener
from baccara.server.tables.base import TableSetup
from baccara.server.tables.contract import Record, Runner
from baccara.server.tables.dispatch import answer, first_seq, moving
from baccara.server.tables.make import make_runner
from baccara.server.wire.http import Edges
from baccara.server.wire.protocol import (
    ErrorMessage,
    JoinMessage,
    PingMessage,
    ProtocolError,
    read_client,
)
from baccara.variants import find_variant

__all__ = ["PAUSED_BY_HOUSE", "Hall", "TableSpec", "pause_reason", "table_specs"]

log = logging.getLogger("baccara.server")
_T = TypeVar("_T")
_P = ParamSpec("_P")


@dataclass(frozen=True, slots=True)
class TableSpec:
    """A table of the configuration: its id, game and whether it squeezes."""

    id: str
    variant: str
    squeeze: bool


def table_specs(specs: tuple[str, ...], squeeze: bool = False) -> list[TableSpec]:
    """``[id=]variant[:squeeze]`` specs as `TableSpec` values; a bad one raises.

    >>> table_specs(("punto-banco", "b1=ez:squeeze"))
    [TableSpec(id='t1', variant='punto-banco', squeeze=False), TableSpec(id='b1', variant='ez', squeeze=True)]
    >>> table_specs(("b2=pai-gow",))
    Traceback (most recent call last):
    ...
    baccara.variants.VariantError: unknown variant 'pai-gow': choose from punto-banco, tie-9, commission-4, super6, ez, mini, chemin-de-fer, banque
    >>> table_specs(("c=chemmy",))
    [TableSpec(id='c', variant='chemmy', squeeze=False)]
    >>> table_specs(("b=banque:squeeze",))
    Traceback (most recent call last):
    ...
    ValueError: bad table 'b=banque:squeeze': Baccarat Banque is not squeezed
    """
    out = []
    for number, spec in enumerate(specs, start=1):
        base, _, option = spec.partition(":")
        if option not in ("", "squeeze"):
            raise ValueError(f"bad table option {option!r} in {spec!r}: only ':squeeze'")
        name, _, variant = base.partition("=")
        table_id, variant = (name, variant) if variant else (f"t{number}", name)
        found = find_variant(variant)  # refused here, in one line, not at start-up
        if option and not found.house_banked:
            raise ValueError(f"bad table {spec!r}: {found.family.label} is not squeezed")
        out.append(TableSpec(table_id, variant, squeeze or option == "squeeze"))
    return out


PAUSED_BY_HOUSE = "paused by the house"
"""What the players of a table the operator paused are told."""


def pause_reason(row: TableRow, stopped: set[str]) -> str | None:
    """Why ``row``'s table is held, in words, if it is: paused, or play stopped (``stopped``:
    the scopes, `baccara.db.table_list.stops`) everywhere or at its game; None: it plays.

    >>> row = TableRow(id="c1", variant="chemmy", squeeze=False, state=TableState.OPEN)
    >>> pause_reason(row, set()), pause_reason(row, {"chemin-de-fer"}), pause_reason(row, {"all"})
    (None, 'Chemin de Fer stopped by the house', 'play stopped by the house')
    >>> pause_reason(TableRow(id="t", variant="ez", squeeze=False, state=TableState.PAUSED), set())
    'paused by the house'
    """
    if row.state is TableState.PAUSED:
        return PAUSED_BY_HOUSE
    if STOP_ALL in stopped:
        return "play stopped by the house"
    family = find_variant(row.variant).family
    return f"{family.label} stopped by the house" if family.value in stopped else None


def setup_of(row: TableRow) -> TableSetup:
    """The limits and timings ``row`` sets (None: the configuration's)."""
    return TableSetup(
        minimum=row.minimum,
        maximum=row.maximum,
        bet_seconds=row.bet_seconds,
        decision_seconds=row.decision_seconds,
        result_seconds=row.result_seconds,
    )


class Hall:
    """The tables this process serves (see the module)."""

    def __init__(
        self,
        config: ServerConfig,
        specs: list[TableSpec],
        *,
        services: TableServices,
        signals: Signals,
        bets: RateLimiter,
    ) -> None:
        self.config = config
        self.signals = signals  # started before the hall, stopped after
        self.seeds = specs  # the configuration's: the table list on a first start
        self.specs: dict[str, TableSpec] = {}  # the tables to run (open or paused), as stored
        self.rows: dict[str, TableRow] = {}
        self.drained: set[str] = set()  # closed tables found holding nothing (not read again)
        self.states: dict[str, TableState] = {}  # every table of the list, closed ones too
        self.ran: dict[str, TableSpec] = {}  # what each runner here was made for
        self.stopped: set[str] = set()  # the operator's stops of play (`table_list.stops`)
        self.read_again = asyncio.Event()  # a control signal, or a table's loop ended
        self._taking = asyncio.Lock()  # one `_take` at a time (the control's, the watch's)
        self._applying = asyncio.Lock()  # one `apply` at a time
        self._control: asyncio.Task[None] | None = None
        self.services = services
        self.ledger = services.ledger
        self.clock = services.clock
        self.runners: dict[str, Runner] = {}
        self.tasks: dict[str, asyncio.Task[None]] = {}
        self.audiences: dict[str, Audience] = {}
        self.locks: TableLocks | None = None
        self.cluster: Cluster | None = None
        self.bets = bets  # each player's bets a second, wherever they are connected
        self.stopping = False
        self.unrun: dict[str, float] = {}  # a table nobody runs -> since when (as seen here)
        self._watch: asyncio.Task[None] | None = None

    # -- what runs here ------------------------------------------------------------------

    def runner(self, table: str) -> Runner | None:
        """The runner of ``table`` if this process runs it."""
        return self.runners.get(table)

    def owned(self) -> list[str]:
        """The ids of the tables this process runs."""
        return sorted(self.runners)

    def configured(self) -> list[str]:
        """The ids of the tables this process may run (its configuration's)."""
        return sorted(self.specs)

    def audience(self, table: str) -> Audience | None:
        """``table``'s connections here (made for a table this process knows of)."""
        found = self.audiences.get(table)
        if found is None and (table in self.specs or self.remote(table)):
            found = self.audiences[table] = Audience(table)
        return found

    def remote(self, table: str) -> bool:
        """Whether another process runs ``table``."""
        return table not in self.runners and self.cluster is not None and self.cluster.knows(table)

    def lobby_line(self, table: str) -> str:
        """The lobby's line of a table run here (JSON)."""
        return self.runners[table].summary().model_dump_json()

    def lobby(self) -> list[str]:
        """Every table's lobby line (JSON), this process's and the others'."""
        lines = [self.lobby_line(table) for table in self.owned()]
        return lines if self.cluster is None else lines + self.cluster.remote_lines()

    # -- starting and stopping -------------------------------------------------------------

    async def _db(self, fn: Callable[_P, _T], /, *args: _P.args, **kwargs: _P.kwargs) -> _T:
        return await self.services.db(fn, *args, **kwargs)

    async def start(self) -> None:
        """Seed the table list on a first start, read it, and start the tables this process
        may run (and, where other processes hear its signals, on PostgreSQL, the
        cluster); then follow the operator's changes (see the module)."""
        database = self.ledger.database
        seeds = [(spec.id, spec.variant, spec.squeeze) for spec in self.seeds]
        await self._db(table_list.seed, database, seeds, now=self.clock.now())
        self.signals.on(Topic.CONTROL, lambda _table: self.read_again.set())
        self.signals.on_gap(back=self.read_again.set)
        await self._read()
        if self.signals.shared:
            database = self.ledger.database
            self.locks = TableLocks(database, await self._db(namespace_of, database))
            self.cluster = Cluster(self.signals, self, dead_seconds=self.config.dead_seconds)
            await self.cluster.start()
            await self.clock.sleep(self.config.share_seconds)  # hear who else is starting
            await self._take(first=True)
            self._watch = asyncio.create_task(self._takeovers())
        else:
            for n, table in enumerate(self.specs):
                self._run(table, self._stagger(n, len(self.specs)))
        self._control = asyncio.create_task(self._follow())
        self._count()

    async def stop(self) -> None:
        """Stop every table (their locks released), then the cluster."""
        self.stopping = True
        for task in (self._watch, self._control):
            if task is not None:
                task.cancel()
        for table in list(self.runners):
            await self._halt(table)
        if self.cluster is not None:
            await self.cluster.stop()
        if self.locks is not None:
            self.locks.close()

    def _run(self, table: str, delay: float = 0.0) -> Runner:
        spec, config = self.specs[table], self.config
        self.ran[table] = spec
        game = find_variant(spec.variant)
        audience = self.audience(table)
        runner = make_runner(
            table, game, config, self.services, squeeze=spec.squeeze, audience=audience
        )
        if audience is not None:
            audience.forget()  # the other processes' players join again
            audience.relay = self.cluster
        if self.cluster is not None:
            self.cluster.took(table)
        self._steer(runner)
        self.runners[table] = runner
        self.tasks[table] = asyncio.create_task(runner.run(delay))
        self.tasks[table].add_done_callback(lambda _task: self.read_again.set())
        return runner

    # -- the operator's control -----------------------------------------------------------

    def _steer(self, runner: Runner) -> None:
        """Tell ``runner`` what the stored list says of its table: held or not, closed or
        not, its limits and timings."""
        row = self.rows.get(runner.id)
        if (
            row is None
            or row.state is TableState.CLOSED
            or self.specs[runner.id] != self.ran.get(runner.id)
        ):
            runner.close()  # closed (or closed and opened again with another game)
            return
        runner.pause(pause_reason(row, self.stopped))
        runner.configure(setup_of(row))

    async def _read(self) -> None:
        """Read the table list and the stops of play: the tables to run are those open or
        paused, and those closed that still hold a round, a shoe or chips (run to close:
        a close that a crash cut short is finished)."""
        database = self.ledger.database
        rows = await self._db(table_list.table_rows, database)
        self.stopped = await self._db(table_list.stops, database)
        self.states = {row.id: row.state for row in rows}
        closed = {row.id for row in rows if row.state is TableState.CLOSED}
        self.drained &= closed  # a table opened again is looked at when closed again
        held = await self._db(table_list.still_held, database, closed - self.drained)
        self.drained |= closed - held  # closed and holding nothing: never again
        self.rows = {
            row.id: row for row in rows if row.state is not TableState.CLOSED or row.id in held
        }
        self.specs = {
            row.id: TableSpec(row.id, row.variant, row.squeeze) for row in self.rows.values()
        }

    async def apply(self) -> None:
        """Read the list again and apply it here: run the tables opened (on PostgreSQL,
        take them as the share allows), steer those that run here, let those closed go once
        their round is over (one at a time)."""
        async with self._applying:
            await self._read()
            for runner in list(self.runners.values()):
                self._steer(runner)
            await self._retire()
            self._count()
            if self.stopping:
                return
            if self.locks is not None:
                await self._take()
            else:
                for table in self.specs:
                    if table not in self.runners:
                        self._run(table)

    async def _retire(self) -> None:
        """Stop the tables closed whose loops have ended (their locks let go)."""
        for table, task in list(self.tasks.items()):
            runner = self.runners.get(table)
            if runner is not None and runner.closing and task.done():
                await self._halt(table)
                if table in self.rows and self.rows[table].state is TableState.CLOSED:
                    del self.rows[table], self.specs[table]  # finished: not run again
                if self.locks is not None:
                    await self._db(self.locks.release, table)
                log.warning("table %s: closed by the house", table)

    def _count(self) -> None:
        """The tables by state, for the figures (`baccara.server.infra.metrics`): a table
        closed that still holds a round, a shoe or chips, or whose last round still plays
        here or elsewhere, is ``closing``."""
        counts: dict[str, int] = {}
        for table, state in self.states.items():
            held = table in self.rows or table in self.runners or self.remote(table)
            closing = state is TableState.CLOSED and held
            name = "closing" if closing else state.value
            counts[name] = counts.get(name, 0) + 1
        self.services.metrics.tables_by_state(counts)

    async def _follow(self) -> None:
        """Apply the list at each control signal (and each table's loop that ends), and
        every `ServerConfig.control_seconds` whatever was heard."""
        while not self.stopping:
            await self.clock.wait(self.read_again, self.config.control_seconds)
            self.read_again.clear()
            try:
                await self.apply()
            except Exception:
                log.exception("reading the table list failed; trying again")
                self.services.metrics.db_failed("table_list", retried=True)

    def _stagger(self, n: int, count: int) -> float:
        """How long the ``n``-th of ``count`` tables started together waits before its
        first round: spread over a betting window (5 s at most), so that the tables'
        rounds do not close, deal and settle all at once."""
        return min(self.config.bet_seconds, 5.0) * n / count if count > 1 else 0.0

    async def _halt(self, table: str) -> None:
        runner, task = self.runners.pop(table, None), self.tasks.pop(table, None)
        if runner is None or task is None:
            return  # halted meanwhile (a close and a hand-over at once)
        runner.stopping = True
        await cancel_and_wait(task)
        audience = self.audiences.get(table)
        if audience is not None:
            audience.relay = None
            audience.forget()

    async def _take(self, *, first: bool = False) -> None:
        """Start the tables whose locks come free, up to this process's share, and any
        that nobody has run for a while (at the first try: say which run elsewhere)."""
        async with self._taking:
            await self._take_free(first=first)

    async def _take_free(self, *, first: bool) -> None:
        assert self.locks is not None and self.cluster is not None
        free = [t for t in self.specs if t not in self.runners]
        now = self.clock.now()
        for table in list(self.unrun):
            if table not in free:
                del self.unrun[table]
        for table in free:
            if not self.cluster.knows(table):
                self.unrun.setdefault(table, now)
        live = await self._db(self.locks.processes)
        self.cluster.alive(live)  # a process killed is gone at once, heartbeat or not
        share = -(-len(self.specs) // max(1, len(live | {self.cluster.process})))
        self._hand_over(share, live)
        room = max(0, share - len(self.runners))
        overdue = [t for t in free if now - self.unrun.get(t, now) > self.config.dead_seconds]
        got = await self._db(self.locks.take, free, room) if room else []
        if overdue:
            got += await self._db(self.locks.take, overdue)
        for n, table in enumerate(got):
            if self.stopping:
                return
            log.warning("table %s: run by this process", table)
            runner = self._run(table, self._stagger(n, len(got)) if first else 0.0)
            await self.rejoin_here(table, runner)
        for table in self.specs if first else ():
            if table not in self.runners:
                log.warning("table %s is run by another process", table)

    def _hand_over(self, share: int, live: set[str]) -> None:
        """Mark house tables to hand over while this process runs more than its share and
        another live process that may run them runs less (as the heartbeats say)."""
        cluster = self.cluster
        assert cluster is not None
        running: dict[str, int] = {}
        for owner in cluster.owners.values():
            running[owner] = running.get(owner, 0) + 1
        needy = [p for p in live - {cluster.process} if running.get(p, 0) < share]
        wanted = set().union(*(cluster.able.get(p, set()) for p in needy))
        movable = [r for r in self.runners.values() if r.movable]
        marked = sum(r.handing_over for r in movable)
        for runner in sorted(movable, key=lambda r: r.id)[::-1]:
            if marked >= len(self.runners) - share:
                break
            if not runner.handing_over and runner.id in wanted:
                log.warning("table %s: handed over to another process after this round", runner.id)
                runner.hand_over()
                marked += 1

    async def _let_go(self) -> None:
        """Let the tables handed over go, once their runners have stopped."""
        assert self.locks is not None
        for table, task in list(self.tasks.items()):
            runner = self.runners.get(table)
            if runner is not None and runner.handing_over and task.done():
                await self._halt(table)
                await self._db(self.locks.release, table)

    async def _takeovers(self) -> None:
        """Check the locks' connection, and take the tables whose locks come free."""
        assert self.locks is not None
        while not self.stopping:
            await self.clock.sleep(self.config.takeover_seconds)
            try:
                if not await self._db(self.locks.check):
                    log.error("the tables' locks were lost: their tables stop here")
                    for table in list(self.runners):
                        await self._halt(table)
                await self._let_go()
                await self._take()
            except Exception:
                log.exception("taking tables over failed; trying again")

    async def ask(self, table: str, what: Question) -> list[str]:
        """Ask the process running ``table`` (``view``, ``shoes``); `Moving` if none."""
        if self.cluster is None:
            raise Moving(table)
        return await self.cluster.ask(table, what, None)

    def roads_svg(self, table: str) -> str | None:
        """A house table's roads as drawn (None: no such table here or elsewhere)."""
        runner = self.runners.get(table)
        if runner is not None:
            return runner.roads_svg()
        if self.cluster is not None and table in self.cluster.lines:
            roads = json.loads(self.cluster.lines[table][1]).get("roads")
            return None if roads is None else str(roads["svg"])
        return None

    async def shoe_records(self, table: str) -> list[Record]:
        """A table's finished shoes, for ``baccara verify`` (from the database: a house
        table's need no runner; a players' table's are rebuilt by its runner)."""
        runner = self.runners.get(table)
        if runner is not None:
            return await runner.shoe_records()
        if self.remote(table):
            texts = await self.ask(table, "shoes")
            found = json.loads(texts[0]) if texts else None
            if not isinstance(found, list):
                raise Moving(table)
            return found
        spec = self.specs.get(table)
        if spec is None or not find_variant(spec.variant).house_banked:
            raise Moving(table)
        return await self._db(ShoeBook(self.ledger, table).records)

    async def edges(self, table: str) -> Edges:
        """Each bet's exact edge for the cards a house table's shoe has not yet shown
        (`views.cards_left_edges`, on a worker thread, kept until the next coup)."""
        runner = self.runners.get(table)
        if runner is None and self.remote(table):
            texts = await self.ask(table, "edges")
            try:
                return Edges.model_validate_json(texts[0])
            except (IndexError, ValueError):  # no answer, or "table moving"
                raise Moving(table) from None
        edges = None if runner is None else await runner.edges()
        if edges is None:
            raise Moving(table)
        return edges

    # -- players elsewhere, tables elsewhere -----------------------------------------------------

    async def forward(self, table: str, user: User | None, text: str) -> list[str]:
        """A player's message answered by the process running ``table`` (``table_moving``
        while none does)."""
        try:
            if self.cluster is None:
                raise Moving(table)
            return await self.cluster.ask(table, "message", user, text)
        except Moving:
            bet_id = None
            with contextlib.suppress(ProtocolError):
                bet_id = getattr(read_client(text), "bet_id", None)
            return [moving(table, bet_id).model_dump_json()]

    async def join_elsewhere(
        self, audience: Audience, listener: Listener, since: int | None = None
    ) -> None:
        """Join a connection here to a table another process runs: the table's events
        wait while its process answers with the snapshot."""
        listener.hold()
        audience.add(listener)
        join = JoinMessage(type="join", table=audience.table_id, since=since)
        texts = await self.forward(audience.table_id, listener.user, join.model_dump_json())
        listener.release(texts, after=first_seq(texts))

    async def rejoin(self, table: str) -> None:
        """Another process runs ``table`` now: join this process's players to it again."""
        audience = self.audiences.get(table)
        if audience is None:
            return
        for listener in list(audience.local):
            await self.join_elsewhere(audience, listener)

    async def rejoin_here(self, table: str, runner: Runner) -> None:
        """This process has taken ``table`` over: its players here get it afresh."""
        audience = self.audiences.get(table)
        for listener in [] if audience is None else list(audience.local):
            listener.release(await runner.join(listener.user, None))

    async def answer(
        self, process: str, table: str, what: Question, user: User | None, text: str
    ) -> list[str]:
        """The answer to a question forwarded from another process (`Cluster.ask`)."""
        runner = self.runners.get(table)
        if runner is None:
            return [moving(table).model_dump_json()]
        if what == "view":
            return [(await runner.state(None)).model_dump_json()]
        if what == "shoes":
            return [json.dumps(await self.shoe_records(table))]
        if what == "edges":
            return [(await self.edges(table)).model_dump_json()]
        assert user is not None
        try:
            message = read_client(text)
        except ProtocolError as error:
            return [ErrorMessage(code=error.code, message=str(error)).model_dump_json()]
        if isinstance(message, JoinMessage):
            runner.audience.remote_join(process, user.name, user.account)
            return await runner.join(user, message.since)
        if isinstance(message, PingMessage):
            return []
        reply = await answer(runner, user, message, self.bets)
        return [] if reply is None else [reply.model_dump_json()]
