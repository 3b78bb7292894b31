"""The store: the double-entry ledger, sessions, hand history and resuming a table.

Runs on SQLite always and on PostgreSQL when ``BACCARA_TEST_POSTGRES_URL`` is set
(the ``database_url`` fixture of conftest.py).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa

from baccara.bets import BetKind
from baccara.db.ledger import Ledger
from baccara.db.store import (
    EXTERNAL,
    HOUSE,
    AccountKind,
    Store,
    StoreError,
    seat_account,
    wallet_account,
)
from baccara.shoe import ShoeSettings
from baccara.table.engine import Phase, Table
from baccara.table.events import CoupSettled, TableSettings
from baccara.table.history import state


@pytest.fixture
def store(database_url: str) -> Iterator[Store]:
    opened = Store(database_url)
    yield opened
    assert opened.check_invariants() == []
    opened.close()


def play(table: Table, coups: int) -> None:
    for _ in range(coups):
        if table.phase is Phase.SHOE_CHANGE:
            table.change_shoe()
        for seat in (1, 2):
            state_ = table.seat_state(seat)
            kind = BetKind.PLAYER if seat == 1 else BetKind.BANKER
            if state_.bet(kind) == 0 and table.can_place_bet(seat, kind, 1_000):
                table.place_bet(seat, kind, 1_000)
        table.deal()
        table.settle()


def test_ledger_postings(store: Store) -> None:
    assert store.deposit("ann", 10_000) > 0
    store.withdraw("ann", 2_500)
    assert store.balance(wallet_account("ann")) == 7_500
    assert store.balance(EXTERNAL) == -7_500
    assert store.balance("wallet:nobody") == 0
    with pytest.raises(StoreError, match="unbalanced transaction 'oops': entries sum to 5"):
        store.post("oops", {wallet_account("ann"): 5})
    with pytest.raises(StoreError, match=r"wallet:ann has 75\.00: it cannot pay 80\.00"):
        store.withdraw("ann", 8_000)
    with pytest.raises(StoreError, match="bad account name 'bank'"):
        store.post("x", {"bank": 1, EXTERNAL: -1})
    assert store.balances(AccountKind.WALLET) == {"wallet:ann": 7_500}
    assert sum(store.balances().values()) == 0
    assert store.unbalanced_transactions() == []


def test_entries_are_append_only(store: Store) -> None:
    store.deposit("ann", 100)
    for statement in ("UPDATE table_entries SET amount = 5", "DELETE FROM table_entries"):
        with pytest.raises(sa.exc.DBAPIError, match="append-only"), store.database.begin() as conn:
            conn.execute(sa.text(statement))
    assert store.balance(wallet_account("ann")) == 100


def test_session_posts_the_table_money_and_resumes(store: Store) -> None:
    store.deposit("ann", 200_000)
    store.deposit("bot", 50_000)
    table = Table(settings=TableSettings(shoe=ShoeSettings(decks=1)), seed=21, house=0)
    session = store.create_session(table, name="test")
    table.change_shoe()
    table.seat(1, player="ann", stack=100_000)
    table.seat(2, player="bot", stack=50_000, strategy="flat:banker")
    assert store.save(session, table) == 3
    play(table, 12)  # crosses a shoe change
    stored = store.save(session, table)
    assert stored == len(table.log) and store.save(session, table) == stored  # idempotent

    assert store.balance(wallet_account("ann")) == 100_000
    assert store.balance(wallet_account("bot")) == 0
    for seat in (1, 2):
        on_table = table.stack(seat) + table.seat_state(seat).staked
        assert store.balance(seat_account(session, seat)) == on_table
    assert store.balance(HOUSE) == table.house
    assert sum(store.balances().values()) == 0 and store.unbalanced_transactions() == []

    resumed = store.load_table(session)
    assert state(resumed) == state(table)
    play(resumed, 3)
    resumed.leave(2)
    store.save(session, resumed)
    assert store.balance(seat_account(session, 2)) == 0
    assert store.balance(wallet_account("bot")) == resumed.log[-1].stack  # type: ignore[union-attr]
    again = store.load_table(session)
    assert state(again) == state(resumed)

    hands = store.hand_history(session)
    assert len(hands) == 15 and [h.coup for h in hands[:3]] == [1, 2, 3]
    first = next(e for e in table.log if isinstance(e, CoupSettled))
    assert hands[0].notation == first.coup.notation()
    assert [h.notation for h in store.hand_history(session, limit=2)] == [
        h.notation for h in hands[-2:]
    ]
    seats = store.seat_history(session)
    assert [(s["seat"], s["player"], s["cash_out"] is None) for s in seats] == [
        (1, "ann", True),
        (2, "bot", False),
    ]
    info = store.list_sessions(open_only=True)
    assert [(i.id, i.name, i.variant, i.seed, i.events) for i in info] == [
        (session, "test", "punto-banco", 21, len(resumed.log))
    ]
    store.close_session(session)
    assert store.list_sessions(open_only=True) == []
    with pytest.raises(StoreError, match=f"session {session} is closed"):
        store.save(session, resumed)


def test_buy_in_needs_the_money_in_the_wallet(store: Store) -> None:
    table = Table(seed=1)
    session = store.create_session(table)
    table.change_shoe()
    table.seat(player="ann", stack=1_000)
    with pytest.raises(StoreError, match=r"wallet:ann has 0\.00: it cannot pay 10\.00"):
        store.save(session, table)
    assert store.read_events(session) == []  # nothing of the refused save was written
    store.deposit("ann", 1_000)
    assert store.save(session, table) == 2
    assert store.read_events(session, since=1) == table.log[1:]


def test_unknown_session_and_late_creation(store: Store) -> None:
    with pytest.raises(StoreError, match="unknown session 99"):
        store.history(99)
    table = Table(seed=1)
    table.change_shoe()
    with pytest.raises(StoreError, match="before the table's first action"):
        store.create_session(table)


def test_one_ledger_for_the_terminal_and_the_web(store: Store, database_url: str) -> None:
    """The store and the online ledger share one database, one schema and one posting API."""
    store.deposit("ann", 20_000)
    ledger = Ledger.connect(database_url)
    try:
        ann = ledger.create_account(wallet_account("ann"))
        assert ledger.balance(ann) == 20_000
        rnd = ledger.open_round(table="t", number=1, shoe_id=None, coup_index=1)
        ledger.place_bet(account=ann, round_id=rnd, bet_id="x", kind="player", amount=5_000)
        assert store.balance(wallet_account("ann")) == 15_000
        assert store.balances(AccountKind.ESCROW) == {"escrow:t:1": 5_000}
        ledger.void_round(rnd)
        assert ledger.check_invariants() == store.check_invariants() == []
    finally:
        ledger.database.dispose()
    assert store.balance(wallet_account("ann")) == 20_000


def test_one_set_of_sqlite_settings(tmp_path: Path) -> None:
    store = Store.at(tmp_path / "s.db")
    ledger = Ledger.connect(f"sqlite:///{tmp_path / 's.db'}")
    pragmas = ("journal_mode", "synchronous", "foreign_keys", "busy_timeout")
    found = []
    for database in (store.database, ledger.database):
        with database.connect() as conn:
            found.append([conn.exec_driver_sql(f"PRAGMA {p}").scalar() for p in pragmas])
        database.dispose()
    assert found[0] == found[1] == ["wal", 2, 1, 30_000]  # synchronous=2 is FULL


def test_sqlite_file_is_in_wal_mode(tmp_path: Path) -> None:
    store = Store.at(tmp_path / "deep" / "b.db")
    with store.database.connect() as conn:
        assert conn.execute(sa.text("PRAGMA journal_mode")).scalar() == "wal"
    store.deposit("ann", 1)
    store.close()
    assert Store.at(tmp_path / "deep" / "b.db").balance(wallet_account("ann")) == 1
