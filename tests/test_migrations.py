"""Schema migrations on SQLite and PostgreSQL: an old database upgrades with nothing lost.

The "before" is a database made by baccara before migrations: the frozen schema of
``tests/support/schema_v0.py`` (``create_all``, triggers included) holding the rows of
``tests/data/schema_v0_rows.json`` (a terminal session and an online table's rounds,
made by that code: ``tests/support/make_schema_v0_rows.py``).
"""

from __future__ import annotations

import json
import threading
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from alembic import command as migration
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from argon2 import PasswordHasher
from sqlalchemy.engine import Engine
from tests.support import schema_v0

from baccara.cli import main
from baccara.coup import Coup
from baccara.db.audit import verify
from baccara.db.auth import Auth, AuthError
from baccara.db.books import check_invariants
from baccara.db.cashier import Cashier, CashierError, Clerk
from baccara.db.database import DB_ENV, database_at, default_url, resolve_url, writing
from baccara.db.ledger import Ledger, wallet_account
from baccara.db.migrate import MIGRATIONS, MigrationError, current, head, upgrade
from baccara.db.protections import LimitKind, Period, Protections
from baccara.db.schema import metadata, online_shoes, skill_actions
from baccara.db.staff import Role
from baccara.db.store import Store, seat_account

ROWS = Path(__file__).with_name("data") / "schema_v0_rows.json"


def _load_v0(url: str, tables: list[str] | None = None) -> Engine:
    """Today's schema with today's rows, as ``create_all`` made it (no version table)."""
    database = database_at(url)
    chosen = [t for t in schema_v0.metadata.sorted_tables if tables is None or t.name in tables]
    schema_v0.metadata.create_all(database, tables=chosen)
    data = json.loads(ROWS.read_text(encoding="utf-8"))
    with database.begin() as conn:
        for table in chosen:
            rows = [_typed(table, row) for row in data[table.name]]
            if rows:
                conn.execute(table.insert(), rows)
            if database.dialect.name == "postgresql" and "id" in table.c and rows:
                # as in a database that made these rows itself: its sequences are past them
                conn.execute(
                    sa.text(f"SELECT setval(pg_get_serial_sequence('{table.name}', 'id'), :top)"),
                    {"top": max(row["id"] for row in rows)},
                )
    return database


def _typed(table: sa.Table, row: dict[str, Any]) -> dict[str, Any]:
    return {
        key: datetime.fromisoformat(value)
        if isinstance(table.c[key].type, sa.DateTime) and value is not None
        else value
        for key, value in row.items()
    }


def _snapshot(database: Engine) -> dict[str, Any]:
    """Every row of every table, and every account's balance."""
    found: dict[str, Any] = {}
    with database.connect() as conn:
        for name, table in schema_v0.metadata.tables.items():
            query = sa.select(table).order_by(*table.primary_key.columns)
            found[name] = [dict(row) for row in conn.execute(query).mappings()]
        found["balances"] = dict(
            conn.execute(
                sa.text(
                    "SELECT a.name, COALESCE(SUM(e.amount), 0) FROM table_accounts a "
                    "LEFT JOIN table_entries e ON e.account_id = a.id GROUP BY a.name"
                )
            ).all()
        )
    return found


def test_old_database_upgrades_with_nothing_lost(database_url: str) -> None:
    database = _load_v0(database_url)
    before = _snapshot(database)
    assert current(database) is None
    assert sum(len(rows) for rows in before.values()) > 80
    assert upgrade(database) == (None, head())
    after = _snapshot(database)
    assert after == before
    assert after["balances"]["wallet:ann"] == 50_000 - 2_500 - 500 + 2_500 + 2_375 - 1_200
    assert after["balances"]["wallet:bob"] == 50_000 - 1_000
    assert after["balances"]["wallet:cy"] == 50_000
    assert current(database) == head()
    with database.connect() as conn:
        assert check_invariants(conn) == []
    with pytest.raises(sa.exc.DBAPIError, match="append-only"), database.begin() as conn:
        conn.execute(sa.text("UPDATE table_entries SET amount = 1"))
    _add_decision(database, seq=1)
    _decisions_are_append_only(database)
    database.dispose()


def _upgrade_to(database: Engine, revision: str) -> None:
    """Migrate to ``revision`` only (an older baccara's head), as `upgrade` migrates."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with writing(database) as conn:
        config.attributes["connection"] = conn
        migration.upgrade(config, revision)


def _add_decision(database: Engine, seq: int) -> None:
    """A decision of a players' shoe, as `baccara.db.chips.Chips.record` stores one."""
    with writing(database) as conn:
        shoe = conn.execute(sa.select(sa.func.max(online_shoes.c.id))).scalar()
        if shoe is None or seq == 1:
            shoe = conn.execute(
                online_shoes.insert().values(
                    table_id="c1",
                    server_seed="ab" * 32,
                    rules={"decks": 6},
                    client_seeds=[],
                    sealed=True,
                    finished=False,
                    seats=[{"name": "ann", "stack": 20_000}],
                )
            ).inserted_primary_key[0]
        conn.execute(
            skill_actions.insert().values(
                shoe_id=shoe, seq=seq, seat=1, action="banco", amount=500, timed_out=False
            )
        )


def _decisions(database: Engine) -> list[dict[str, Any]]:
    """The stored decisions, in the columns of revision 0002 (later ones add columns)."""
    columns = [c for c in skill_actions.c if c.name != "tableau"]
    with database.connect() as conn:
        query = sa.select(*columns).order_by(skill_actions.c.id)
        return [dict(row) for row in conn.execute(query).mappings()]


def _decisions_are_append_only(database: Engine) -> None:
    """The database refuses to change or delete a stored decision (and still adds one)."""
    before = _decisions(database)
    assert before  # the triggers are per row: a table with rows shows them
    for statement in (
        "UPDATE skill_actions SET amount = 1",
        "UPDATE skill_actions SET timed_out = NOT timed_out",
        "DELETE FROM skill_actions",
    ):
        with pytest.raises(sa.exc.DBAPIError, match="append-only"), database.begin() as conn:
            conn.execute(sa.text(statement))
    assert _decisions(database) == before
    _add_decision(database, seq=len(before) + 1)
    assert len(_decisions(database)) == len(before) + 1


def test_decisions_stored_before_they_were_append_only_upgrade(database_url: str) -> None:
    """A database at revision 0002 (the players' games, no triggers on their decisions)
    keeps its decisions and refuses their changes after the upgrade."""
    database = database_at(database_url)
    _upgrade_to(database, "0002")
    assert current(database) == "0002"
    _add_decision(database, seq=1)
    _add_decision(database, seq=2)
    stored = _decisions(database)
    assert upgrade(database) == ("0002", head())
    assert _decisions(database) == stored
    _decisions_are_append_only(database)
    with database.connect() as conn:
        assert check_invariants(conn) == []
    database.dispose()


def test_names_that_differ_only_in_case_upgrade_to_one_key(database_url: str) -> None:
    """Before revision 0005 ``Case`` and ``case`` could be two accounts: both keep
    working (each logs in by its exact name), the first registered holds the name's
    key, and no third case of it can register."""
    database = database_at(database_url)
    _upgrade_to(database, "0004")
    digest = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1).hash
    with writing(database) as conn:
        for name in ("Case", "case", "other"):
            conn.execute(
                sa.text(
                    "INSERT INTO web_users (name, password_hash, created_at) VALUES (:n, :h, :t)"
                ),
                {"n": name, "h": digest(f"pw of {name}"), "t": datetime(2026, 1, 1)},
            )
    database.dispose()
    ledger = Ledger.connect(database_url)  # migrates on open
    try:
        with ledger.database.connect() as conn:
            keys = dict(conn.execute(sa.text("SELECT name, name_key FROM web_users")).all())
        assert keys == {"Case": "case", "case": None, "other": "other"}
        auth = Auth(ledger)
        for name in ("Case", "case"):
            user = auth.user_for_token(auth.login(name, f"pw of {name}"))
            assert user is not None and user.name == name
        with pytest.raises(AuthError, match="taken"):
            auth.register("CASE", "long enough")
    finally:
        ledger.database.dispose()


def test_players_stay_players_after_the_staff_revision(database_url: str) -> None:
    """A database at revision 0009 upgrades with its players as players (no role; a
    session of theirs is a player's), and its new audit log refuses change at once."""
    database = database_at(database_url)
    _upgrade_to(database, "0009")
    digest = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1).hash("pw of ann")
    with writing(database) as conn:
        conn.execute(
            sa.text(
                "INSERT INTO web_users (name, name_key, password_hash, created_at) "
                "VALUES ('ann', 'ann', :h, :t)"
            ),
            {"h": digest, "t": datetime(2026, 1, 1)},
        )
    database.dispose()
    ledger = Ledger.connect(database_url)  # migrates on open
    try:
        assert current(ledger.database) == head()
        auth = Auth(ledger)
        token = auth.login("ann", "pw of ann")
        assert auth.staff_for_token(token) is None
        user = auth.user_for_token(token)
        assert user is not None and user.name == "ann"
        auth.create_staff("olga", "olga password", Role.OPERATOR, actor="cli")
        with (
            pytest.raises(sa.exc.DBAPIError, match="append-only"),
            writing(ledger.database) as conn,
        ):
            conn.execute(sa.text("UPDATE audit_log SET actor = 'x'"))
        assert verify(ledger.database).count == 1
    finally:
        ledger.database.dispose()


def test_a_players_limits_and_wallet_survive_the_cashier_revision(database_url: str) -> None:
    """A database at revision 0010 with a player, their wallet and a daily loss limit
    upgrades with all three as they were; the cashier then books a deposit for them and
    their new deposit limit applies."""
    database = database_at(database_url)
    _upgrade_to(database, "0010")
    digest = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1).hash("pw of ann")
    with writing(database) as conn:
        conn.execute(
            sa.text(
                "INSERT INTO web_users (id, name, name_key, password_hash, created_at) "
                "VALUES (1, 'ann', 'ann', :h, :t)"
            ),
            {"h": digest, "t": datetime(2026, 1, 1)},
        )
        conn.execute(
            sa.text(
                "INSERT INTO table_accounts (name, kind, created_at, balance) "
                "VALUES ('wallet:ann', 'wallet', :t, 0)"
            ),
            {"t": datetime(2026, 1, 1)},
        )
        conn.execute(
            sa.text(
                "INSERT INTO play_limits (user_id, loss_limit, account_id) "
                "SELECT 1, 2000, id FROM table_accounts WHERE name = 'wallet:ann'"
            )
        )
    database.dispose()
    ledger = Ledger.connect(database_url)
    try:
        assert current(ledger.database) == head()
        wallet = ledger.create_account(wallet_account("ann"))
        ledger.deposit(wallet, 5_000, ref="welcome:ann")
        protections = Protections(ledger.database)
        cashier, clerk = Cashier(ledger), Clerk(name="cli", role=None)
        assert cashier.deposit("ann", 1_000, "s1", clerk, now=10.0).balance == 6_000
        protections.set_period_limit(1, LimitKind.DEPOSIT, Period.DAY, 1_500, now=20.0)
        with pytest.raises(CashierError, match=r"24-hour deposit limit is 15\.00"):
            cashier.deposit("ann", 501, "s2", clerk, now=30.0)
        assert protections.get(1, now=40.0).loss_limit == 2_000
        assert ledger.check_invariants() == []
    finally:
        ledger.database.dispose()


def test_upgraded_database_keeps_working(database_url: str) -> None:
    """The store resumes the old session; the ledger settles the old open round."""
    _load_v0(database_url).dispose()
    ledger = Ledger.connect(database_url)  # migrates on open
    try:
        ann = ledger.create_account(wallet_account("ann"))
        (open_round,) = ledger.unfinished_rounds("t1")
        ledger.close_round(open_round["id"])
        assert ledger.settle_round(open_round["id"], Coup.parse("P:7h,Kd B:6s,Kc"), "punto-banco")
        assert ledger.balance(ann) == 50_675 + 2_400
        user = Auth(ledger).user_for_token("nope")
        assert user is None
        assert Auth(ledger).login("ann", "correct horse")
        assert ledger.check_invariants() == []
    finally:
        ledger.database.dispose()
    store = Store(database_url)
    try:
        (session,) = store.list_sessions()
        table = store.load_table(session.id)
        assert table.stack(1) == store.balance(seat_account(session.id, 1))
        assert len(store.hand_history(session.id)) == 3
        assert store.check_invariants() == []
    finally:
        store.close()


def test_terminal_only_database_gets_the_online_tables(database_url: str) -> None:
    """A database made by ``baccara play`` alone had the store's tables only."""
    store_tables = [name for name in schema_v0.metadata.tables if name.startswith("table_")]
    database = _load_v0(database_url, store_tables)
    before = _snapshot_of(database, store_tables)
    assert upgrade(database) == (None, head())
    assert _snapshot_of(database, store_tables) == before
    assert set(sa.inspect(database).get_table_names()) >= set(metadata.tables)
    database.dispose()


def _snapshot_of(database: Engine, names: list[str]) -> dict[str, Any]:
    with database.connect() as conn:
        return {
            name: [
                dict(row)
                for row in conn.execute(sa.select(schema_v0.metadata.tables[name])).mappings()
            ]
            for name in names
        }


def test_fresh_database_gets_the_head_revision_and_the_schema(database_url: str) -> None:
    database = database_at(database_url)
    assert upgrade(database) == (None, head())
    assert upgrade(database) == (head(), head())
    with database.connect() as conn:
        differences = compare_metadata(MigrationContext.configure(conn), metadata)
        assert differences == []
        assert check_invariants(conn) == []
    _add_decision(database, seq=1)
    _decisions_are_append_only(database)
    database.dispose()


def test_a_newer_database_is_refused_in_one_line(
    database_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    database = database_at(database_url)
    upgrade(database)
    with database.begin() as conn:
        conn.execute(sa.text("UPDATE alembic_version SET version_num = '9999'"))
    with pytest.raises(MigrationError, match="revision '9999', which this baccara does not know"):
        upgrade(database)
    database.dispose()
    code, out, err = run(["db", "upgrade", "--db", database_url], capsys)
    assert code == 2 and out == "" and "use a newer baccara" in err


def test_parallel_starts_migrate_once(database_url: str) -> None:
    """Processes starting together on a fresh database: one migrates, the others wait."""
    engines = [database_at(database_url) for _ in range(3)]
    results: list[tuple[str | None, str]] = []
    start = threading.Barrier(len(engines))

    def starting(database: Engine) -> None:
        start.wait()
        results.append(upgrade(database))

    threads = [threading.Thread(target=starting, args=(e,)) for e in engines]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(results, key=str) == sorted([(None, head())] + [(head(), head())] * 2, key=str)
    for database in engines:
        database.dispose()


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def test_db_upgrade_command_twice_is_a_noop(
    database_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    _load_v0(database_url).dispose()
    code, out, _ = run(["db", "current", "--db", database_url, "--json"], capsys)
    assert code == 0
    assert json.loads(out) | {"database": ""} == {
        "database": "",
        "current": None,
        "head": head(),
        "up_to_date": False,
    }
    code, out, _ = run(["db", "upgrade", "--db", database_url, "--json"], capsys)
    first = json.loads(out)
    assert (code, first["before"], first["after"], first["changed"]) == (0, None, head(), True)
    database = database_at(database_url)
    snapshot = _snapshot(database)
    code, out, _ = run(["db", "upgrade", "--db", database_url], capsys)
    assert code == 0 and f"already at revision {head()}" in out
    assert _snapshot(database) == snapshot
    database.dispose()
    code, out, _ = run(["db", "current", "--db", database_url], capsys)
    assert code == 0 and "up to date" in out


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("nosuchdb://x/y", "bad database URL 'nosuchdb://x/y'"),
        ("bogus:://u:secret@x", "bad database URL 'bogus:://u:***@x'"),
        ("postgresql://nobody:secret@127.0.0.1:1/none", "cannot open the database"),
    ],
)
def test_db_command_bad_url_is_one_line(
    url: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    for command in ("upgrade", "current"):
        code, out, err = run(["db", command, "--db", url], capsys)
        assert code == 2 and out == ""
        assert message in err and len(err.strip().splitlines()) == 1
        assert "secret" not in err


def test_one_default_location(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """``play`` and ``serve`` resolve ``--db`` alike: a URL, a file, else $BACCARA_DB."""
    monkeypatch.setenv(DB_ENV, str(tmp_path / "mine.db"))
    assert resolve_url(None) == default_url() == f"sqlite:///{tmp_path / 'mine.db'}"
    assert resolve_url(str(tmp_path / "x" / "other.db")) == f"sqlite:///{tmp_path}/x/other.db"
    assert resolve_url("postgres://u@h/d") == "postgresql+psycopg://u@h/d"
    monkeypatch.delenv(DB_ENV)
    assert resolve_url(None).endswith("/baccara/baccara.db")
