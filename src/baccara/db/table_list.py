"""The tables as data: which tables the server runs, their state, limits and timings,
and the operator's stops of play, changed at run time.

A table is a row of ``tables`` (`TableRow`): its id, its game (a variant's name as
``--tables`` takes it), whether it squeezes, its state (`TableState`: open, paused,
closed) and its limits and timings (None: the server's configuration's). ``baccara
serve --tables`` only seeds the list on a first start (`seed`); afterwards the rows
say. A stop of play is a row of ``play_stops`` whose scope is ``all`` (every table) or
a game family (`STOP_ALL`, `stop_scope`).

Every change is made by a staff member or the command line (`Actor`), in one
transaction with its audit entry (`baccara.db.audit`, the row before and after) and a
signal on `baccara.db.signals.Topic.CONTROL` (the table's id, or ``*`` for a stop), so
that every process of a cluster hears it once it has committed and reads the rows again
(`baccara.server.cluster.hall`). A refused change (`TableListError`) changes nothing.

>>> from baccara.db.database import database_at
>>> from baccara.db.migrate import upgrade
>>> database = database_at("sqlite://")
>>> _ = upgrade(database)
>>> seed(database, [("t1", "punto-banco", False)], now=0.0), seed(database, [("x", "ez", False)], now=1.0)
(True, False)
>>> ann = Actor(name="ann", role="operator", now=10.0)
>>> add_table(database, ann, table="n1", variant="ez", squeeze=False).state
<TableState.OPEN: 'open'>
>>> set_state(database, ann, "n1", TableState.PAUSED).state.value
'paused'
>>> set_setup(database, ann, "n1", {"minimum": 2_000, "bet_seconds": 20.0}).minimum
2000
>>> [(row.id, row.state.value) for row in table_rows(database)]
[('n1', 'paused'), ('t1', 'open')]
>>> set_stop(database, ann, "chemin-de-fer", stopped=True), stops(database)
(True, {'chemin-de-fer'})
>>> set_state(database, ann, "zz", TableState.OPEN)
Traceback (most recent call last):
...
baccara.db.table_list.TableListError: no table 'zz'
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import asdict, dataclass, replace
from enum import StrEnum
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

from baccara.db import audit
from baccara.db.chips import chips_account
from baccara.db.database import writing
from baccara.db.schema import RoundPhase, accounts, game_tables, online_shoes, play_stops, rounds
from baccara.db.signals import Topic, signal
from baccara.table.events import SettingsError, TableSettings
from baccara.variants import FAMILIES, VariantError, find_variant

__all__ = [
    "LIMITS",
    "SETUP",
    "STOP_ALL",
    "TIMINGS",
    "Actor",
    "TableListError",
    "TableRow",
    "TableState",
    "add_table",
    "good_id",
    "seed",
    "set_setup",
    "set_state",
    "set_stop",
    "still_held",
    "stop_scope",
    "stops",
    "table_rows",
]

STOP_ALL = "all"
"""The scope of a stop of every table."""
LIMITS = ("minimum", "maximum")
"""A table's limits (minor units): a house table's main bets, a players' table's minimum."""
TIMINGS = ("bet_seconds", "decision_seconds", "result_seconds")
"""A table's timings (seconds): a house table's betting window, a players' table's
decision clock, the pause after a result."""
SETUP = LIMITS + TIMINGS
"""What `set_setup` changes."""
_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,39}")
_MOST_CENTS = 10**12  # 10,000,000,000.00
_MOST_SECONDS = 3_600.0


class TableState(StrEnum):
    """A table's state; the value is the word stored and shown."""

    OPEN = "open"
    PAUSED = "paused"  # the round in play finishes; no new one
    CLOSED = "closed"  # not run (a players' table's chips back in the wallets)


class TableListError(ValueError):
    """A refused change to the table list: ``code`` says which (``no_such_table``,
    ``table_exists``, ``table_closed``, ``bad_table``)."""

    def __init__(self, message: str, code: str = "bad_table") -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True, slots=True, kw_only=True)
class Actor:
    """Who changes the list (a staff member's name and role; ``cli``, None: the command
    line) and when (epoch seconds, the caller's clock)."""

    name: str
    role: str | None
    now: float


@dataclass(frozen=True, slots=True, kw_only=True)
class TableRow:
    """A table as stored (limits in minor units, timings in seconds; None: the
    server's configuration's)."""

    id: str
    variant: str
    squeeze: bool
    state: TableState
    minimum: int | None = None
    maximum: int | None = None
    bet_seconds: float | None = None
    decision_seconds: float | None = None
    result_seconds: float | None = None
    updated_at: float = 0.0

    def as_json(self) -> dict[str, audit.Json]:
        """The row as its audit entries hold it."""
        found: dict[str, audit.Json] = {
            key: value.value if isinstance(value, TableState) else value
            for key, value in asdict(self).items()
        }
        return found

    def setup(self) -> tuple[int | float | None, ...]:
        """Its limits and timings, in `SETUP`'s order (what a runner is told)."""
        return tuple(getattr(self, name) for name in SETUP)


def good_id(text: str) -> bool:
    """Whether ``text`` may be a table's id: 1 to 40 letters, digits, ``_`` or ``-``,
    beginning with a letter or a digit.

    >>> good_id("t1"), good_id("t\\x00"), good_id("-t"), good_id("x" * 41)
    (True, False, False, False)
    """
    return _ID.fullmatch(text) is not None


def _row(found: Mapping[Any, Any]) -> TableRow:
    return TableRow(
        id=str(found["id"]),
        variant=str(found["variant"]),
        squeeze=bool(found["squeeze"]),
        state=TableState(found["state"]),
        minimum=None if found["minimum"] is None else int(found["minimum"]),
        maximum=None if found["maximum"] is None else int(found["maximum"]),
        bet_seconds=found["bet_seconds"],
        decision_seconds=found["decision_seconds"],
        result_seconds=found["result_seconds"],
        updated_at=float(found["updated_at"]),
    )


def table_rows(database: Engine) -> list[TableRow]:
    """Every table, closed ones too, by id."""
    with database.connect() as conn:
        found = conn.execute(sa.select(game_tables).order_by(game_tables.c.id)).mappings()
        return [_row(row) for row in found]


def still_held(database: Engine, tables: Iterable[str]) -> set[str]:
    """Of ``tables`` (closed ones), those that still hold something: a round neither
    settled nor voided, a shoe not finished, or a player's chips at the table (a close
    that a crash or a process's end cut short). The server runs them again to finish
    what they hold: settle or void the round, retire the shoe, give the chips back.
    Each table is read by its indexes (its rounds, its shoes, its chips' accounts).

    >>> from baccara.db.database import database_at
    >>> from baccara.db.migrate import upgrade
    >>> database = database_at("sqlite://")
    >>> _ = upgrade(database)
    >>> still_held(database, ["t1"])
    set()
    """
    held = set()
    with database.connect() as conn:
        for table in tables:
            seats = chips_account(table, "")  # 'seat:web:t1:': the names between it and ...
            beyond = seats[:-1] + chr(ord(seats[-1]) + 1)  # ... 'seat:web:t1;'
            found = [
                sa.select(rounds.c.id).where(
                    rounds.c.table_id == table,
                    rounds.c.phase.in_([RoundPhase.OPEN, RoundPhase.CLOSED]),
                ),
                sa.select(online_shoes.c.id).where(
                    online_shoes.c.table_id == table, online_shoes.c.finished.is_(False)
                ),
                sa.select(accounts.c.id).where(
                    accounts.c.name >= seats, accounts.c.name < beyond, accounts.c.balance != 0
                ),
            ]
            if any(conn.execute(query.limit(1)).first() is not None for query in found):
                held.add(table)
    return held


def stops(database: Engine) -> set[str]:
    """The scopes where play is stopped (`STOP_ALL`, game families)."""
    with database.connect() as conn:
        return {str(scope) for scope in conn.execute(sa.select(play_stops.c.scope)).scalars()}


def seed(database: Engine, tables: Iterable[tuple[str, str, bool]], *, now: float) -> bool:
    """On a first start (no table stored yet), store ``tables`` (id, variant, squeeze)
    as open tables; whether it did (two processes starting at once: one seeds)."""
    rows = [
        {"id": table, "variant": variant, "squeeze": squeeze, "state": TableState.OPEN.value}
        for table, variant, squeeze in tables
    ]
    try:
        with writing(database) as conn:
            if conn.execute(sa.select(sa.func.count()).select_from(game_tables)).scalar():
                return False
            if rows:
                conn.execute(game_tables.insert(), [{**row, "updated_at": now} for row in rows])
            return True
    except IntegrityError:  # another process seeded it meanwhile
        return False


def stop_scope(text: str) -> str:
    """``text`` as a stop's scope: `STOP_ALL` or a game family's name.

    >>> stop_scope("all"), stop_scope("banque")
    ('all', 'banque')
    >>> stop_scope("poker")
    Traceback (most recent call last):
    ...
    baccara.db.table_list.TableListError: bad game 'poker': all, punto-banco, chemin-de-fer or banque
    """
    names = [STOP_ALL, *FAMILIES]
    if text not in names:
        raise TableListError(f"bad game {text!r}: {', '.join(names[:-1])} or {names[-1]}")
    return text


@contextlib.contextmanager
def _changing(database: Engine) -> Iterator[Connection]:
    """A change to the list: a write transaction holding the audit log's lock from its
    start, so that what it reads is not changed by another until it has committed."""
    with writing(database) as conn:
        audit.lock(conn)
        yield conn


def _find(conn: Connection, table: str) -> TableRow:
    found = conn.execute(sa.select(game_tables).where(game_tables.c.id == table)).mappings().first()
    if found is None:
        raise TableListError(f"no table {table!r}", "no_such_table")
    return _row(found)


def _record(
    conn: Connection, by: Actor, action: str, before: TableRow | None, after: TableRow
) -> None:
    audit.append(
        conn,
        actor=by.name,
        role=by.role,
        action=action,
        target=after.id,
        before=None if before is None else before.as_json(),
        after=after.as_json(),
        now=by.now,
    )
    signal(conn, Topic.CONTROL, after.id)


def add_table(database: Engine, by: Actor, *, table: str, variant: str, squeeze: bool) -> TableRow:
    """Open a new table (or open again a closed one, with this game); the row."""
    if not good_id(table):
        raise TableListError(
            f"bad table id {table!r}: 1 to 40 letters, digits, '-' or '_', from a letter or digit"
        )
    try:
        game = find_variant(variant)
    except VariantError as error:
        raise TableListError(str(error)) from None
    if squeeze and not game.house_banked:
        raise TableListError(f"bad table {table!r}: {game.family.label} is not squeezed")
    with _changing(database) as conn:
        try:
            before: TableRow | None = _find(conn, table)
        except TableListError:
            before = None
        if before is not None and before.state is not TableState.CLOSED:
            raise TableListError(f"table {table!r} exists ({before.state.value})", "table_exists")
        after = TableRow(
            id=table, variant=variant, squeeze=squeeze, state=TableState.OPEN, updated_at=by.now
        )
        values = {**after.as_json(), "state": after.state.value}
        if before is None:
            conn.execute(game_tables.insert().values(**values))
        else:
            conn.execute(game_tables.update().where(game_tables.c.id == table).values(**values))
        _record(conn, by, "table.open", before, after)
        return after


def set_state(database: Engine, by: Actor, table: str, state: TableState) -> TableRow:
    """Pause, resume (open) or close ``table``; the row after. Its state already: nothing
    changes, nothing is audited."""
    with _changing(database) as conn:
        before = _find(conn, table)
        if before.state is state:
            return before
        if before.state is TableState.CLOSED:
            raise TableListError(f"table {table!r} is closed: open it again", "table_closed")
        after = replace(before, state=state, updated_at=by.now)
        conn.execute(
            game_tables.update()
            .where(game_tables.c.id == table)
            .values(state=state.value, updated_at=by.now)
        )
        action = {TableState.OPEN: "resume", TableState.PAUSED: "pause"}.get(state, "close")
        _record(conn, by, f"table.{action}", before, after)
        return after


def _checked(name: str, value: int | float | None) -> int | float | None:
    if value is None:
        return None
    if name in LIMITS:
        if isinstance(value, bool) or not isinstance(value, int) or not 0 < value <= _MOST_CENTS:
            raise TableListError(f"bad {name} {value!r}: whole cents, 1 to {_MOST_CENTS}")
        return value
    if isinstance(value, bool) or not 0 < float(value) <= _MOST_SECONDS:
        raise TableListError(f"bad {name} {value!r}: seconds, over 0 and at most 3600")
    return float(value)


def set_setup(
    database: Engine, by: Actor, table: str, changes: Mapping[str, int | float | None]
) -> TableRow:
    """Change ``table``'s limits and timings (`SETUP`'s names; None: back to the
    server's configuration); the row after. A table's minimum over its maximum is
    refused."""
    unknown = sorted(set(changes) - set(SETUP))
    if unknown:
        raise TableListError(f"bad setting {unknown[0]!r}: {', '.join(SETUP)}")
    values = {name: _checked(name, value) for name, value in changes.items()}
    with _changing(database) as conn:
        before = _find(conn, table)
        if before.state is TableState.CLOSED:
            raise TableListError(f"table {table!r} is closed: open it again", "table_closed")
        after = _row({**before.as_json(), **values, "updated_at": by.now})
        low, high = after.minimum, after.maximum
        if low is not None and high is not None and low > high:
            raise TableListError(f"bad limits: minimum {low} over maximum {high}")
        if find_variant(after.variant).house_banked:  # the bets' own limits where not set
            try:
                TableSettings().with_main_limits(low, high)
            except SettingsError as error:
                raise TableListError(str(error)) from None
        conn.execute(
            game_tables.update()
            .where(game_tables.c.id == table)
            .values(**values, updated_at=by.now)
        )
        _record(conn, by, "table.setup", before, after)
        return after


def set_stop(database: Engine, by: Actor, scope: str, *, stopped: bool) -> bool:
    """Stop play in ``scope`` (`stop_scope`), or let it go on; whether that changed
    anything (a change is audited)."""
    scope = stop_scope(scope)
    with _changing(database) as conn:
        held = conn.execute(
            sa.select(play_stops.c.scope).where(play_stops.c.scope == scope)
        ).first()
        if (held is not None) == stopped:
            return False
        if stopped:
            conn.execute(play_stops.insert().values(scope=scope, updated_at=by.now))
        else:
            conn.execute(play_stops.delete().where(play_stops.c.scope == scope))
        audit.append(
            conn,
            actor=by.name,
            role=by.role,
            action="play.stop" if stopped else "play.resume",
            target=scope,
            before={"stopped": not stopped},
            after={"stopped": stopped},
            now=by.now,
        )
        signal(conn, Topic.CONTROL, "*")
        return True
