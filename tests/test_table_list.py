"""The table list as data (`baccara.db.table_list`): the changes it refuses, and two
operators changing it at once on PostgreSQL, where each transaction reads the rows
committed before it (READ COMMITTED): the second waits for the first and then sees its
change, as one after the other."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from baccara.db import audit, table_list
from baccara.db.ledger import Ledger
from baccara.db.table_list import Actor, TableListError, TableState

ANN = Actor(name="ann", role="operator", now=10.0)
BOB = Actor(name="bob", role="operator", now=11.0)


@pytest.fixture
def database(database_url: str) -> Iterator[Engine]:
    book = Ledger.connect(database_url)
    table_list.seed(book.database, [("t1", "punto-banco", False)], now=0.0)
    try:
        yield book.database
    finally:
        book.database.dispose()


def _refusal(change: Callable[[], object]) -> str:
    with pytest.raises(TableListError) as refused:
        change()
    return refused.value.code


def test_a_change_to_a_closed_table_is_refused(database: Engine) -> None:
    table_list.set_state(database, ANN, "t1", TableState.CLOSED)
    logged = len(audit.entries(database))
    change = lambda: table_list.set_setup(database, BOB, "t1", {"minimum": 2_000})  # noqa: E731
    assert _refusal(change) == "table_closed"
    (row,) = table_list.table_rows(database)
    assert row.minimum is None and len(audit.entries(database)) == logged


def test_a_minimum_over_the_configured_maximum_is_refused(database: Engine) -> None:
    over = lambda: table_list.set_setup(database, ANN, "t1", {"minimum": 900_000})  # noqa: E731
    assert _refusal(over) == "bad_table"  # Player and Banker take at most 5,000.00 here
    (row,) = table_list.table_rows(database)
    assert row.minimum is None
    assert table_list.set_setup(database, ANN, "t1", {"minimum": 500_000}).minimum == 500_000


def _outcome(change: Callable[[], object]) -> object:
    try:
        return change()
    except TableListError as error:
        return error.code


def _waiting_for(database: Engine, pid: int, waits: sa.TextClause) -> bool:
    with database.connect() as conn:  # a transaction reads pg_stat_activity once
        return bool(conn.execute(waits, {"pid": pid}).scalar_one())


def _race(
    monkeypatch: pytest.MonkeyPatch,
    database: Engine,
    first: Callable[[], object],
    second: Callable[[], object],
) -> object:
    """Run ``first`` until its change and audit entry are made, uncommitted; then
    ``second`` until it waits for ``first``'s transaction; then let ``first`` commit.
    What ``second`` gave (its refusal's code)."""
    inside, go = threading.Event(), threading.Event()
    held: list[int] = []
    told = table_list.signal

    def stalled_signal(conn: Connection, *args: Any) -> None:
        if threading.current_thread().name == "first":
            held.append(conn.execute(sa.text("SELECT pg_backend_pid()")).scalar_one())
            inside.set()
            assert go.wait(30)
        told(conn, *args)

    outcomes: dict[str, object] = {}

    def run(name: str, change: Callable[[], object]) -> None:
        outcomes[name] = _outcome(change)

    monkeypatch.setattr(table_list, "signal", stalled_signal)
    try:
        one = threading.Thread(target=run, args=("first", first), name="first")
        one.start()
        assert inside.wait(30)
        two = threading.Thread(target=run, args=("second", second), name="second")
        two.start()
        waits = sa.text(
            "SELECT count(*) FROM pg_stat_activity WHERE :pid = ANY(pg_blocking_pids(pid))"
        )
        deadline = time.monotonic() + 30
        while not _waiting_for(database, held[0], waits):  # a fresh snapshot each time
            assert time.monotonic() < deadline, "the second change never waited"
            time.sleep(0.01)
        go.set()
        one.join(30)
        two.join(30)
    finally:
        go.set()
    assert not isinstance(outcomes["first"], str), outcomes
    return outcomes["second"]


@pytest.fixture
def postgres(database: Engine) -> Engine:
    if database.dialect.name != "postgresql":
        pytest.skip("SQLite has one writer at a time: no two changes run at once")
    return database


def test_a_pause_racing_a_close_leaves_the_table_closed(
    postgres: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    second = _race(
        monkeypatch,
        postgres,
        lambda: table_list.set_state(postgres, ANN, "t1", TableState.CLOSED),
        lambda: table_list.set_state(postgres, BOB, "t1", TableState.PAUSED),
    )
    assert second == "table_closed"
    (row,) = table_list.table_rows(postgres)
    assert row.state is TableState.CLOSED
    assert [entry.action for entry in audit.entries(postgres)] == ["table.close"]


def test_two_operators_opening_one_table_at_once_are_told_it_exists(
    postgres: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    def open_n1(by: Actor) -> Callable[[], object]:
        return lambda: table_list.add_table(postgres, by, table="n1", variant="ez", squeeze=False)

    assert _race(monkeypatch, postgres, open_n1(ANN), open_n1(BOB)) == "table_exists"
    assert [entry.actor for entry in audit.entries(postgres)] == ["ann"]


def test_two_operators_stopping_play_at_once_change_it_once(
    postgres: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    def stop(by: Actor) -> Callable[[], object]:
        return lambda: table_list.set_stop(postgres, by, "all", stopped=True)

    assert _race(monkeypatch, postgres, stop(ANN), stop(BOB)) is False
    assert table_list.stops(postgres) == {"all"}
    assert [entry.actor for entry in audit.entries(postgres)] == ["ann"]
