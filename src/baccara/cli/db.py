"""``baccara db``: the database's schema revision, its upgrade to the newest, and the
repair of a house table whose start-up recovery fails (`baccara.db.repair`).

The database is ``--db`` (a URL or a SQLite file path), else ``$BACCARA_DB``, else
SQLite in the user's data directory: the one that ``baccara play`` and
``baccara serve`` use.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

import click

from baccara.cli.common import echo_json, fail

if TYPE_CHECKING:
    from sqlalchemy.engine import Engine

__all__ = [
    "COMMANDS",
    "DB_HELP",
    "db_option",
    "open_database",
    "opened_database",
    "upgraded_database",
]

DB_HELP = "Database URL or SQLite file [default: $BACCARA_DB, else the user data folder]."
db_option = click.option("--db", "db", metavar="URL", default=None, help=DB_HELP)
"""The ``--db URL`` option: the database a command opens (`open_database`)."""


def open_database(db: str | None) -> tuple[str, Engine]:
    """The URL as shown (no password) and the database it opens; bad ones fail in one line."""
    import sqlalchemy as sa

    from baccara.db.database import database_at, resolve_url

    url = resolve_url(db)
    shown = re.sub(r"(://[^:/@]*:)[^@]*@", r"\1***@", url)
    try:
        shown = sa.engine.make_url(url).render_as_string(hide_password=True)
        database = database_at(url)
        with database.connect():
            pass
    except (sa.exc.ArgumentError, sa.exc.NoSuchModuleError) as error:
        fail(f"bad database URL {shown!r}: {error}")
    except (sa.exc.OperationalError, sa.exc.DBAPIError) as error:
        fail(f"cannot open the database {shown!r}: {str(error.orig).splitlines()[0]}")
    return shown, database


@contextlib.contextmanager
def opened_database(db: str | None) -> Iterator[tuple[str, Engine]]:
    """`open_database`'s URL as shown and database, disposed of on the way out."""
    shown, database = open_database(db)
    try:
        yield shown, database
    finally:
        database.dispose()


@contextlib.contextmanager
def upgraded_database(db: str | None) -> Iterator[Engine]:
    """The database ``db`` names, brought to the newest schema revision first (for a
    command that reads or writes what the server keeps), disposed of on the way out."""
    from baccara.db.migrate import upgrade

    with opened_database(db) as (_, database):
        upgrade(database)
        yield database


@click.group("db")
def db_group() -> None:
    """The database: its schema's revision and upgrade (Alembic migrations), and the
    repair of a table whose recovery fails."""


@db_group.command("upgrade")
@db_option
@click.option("--json", "as_json", is_flag=True, help="Print the revisions as JSON.")
def upgrade_command(db: str | None, as_json: bool) -> None:
    """Bring the database to the newest schema revision (a no-op when it is there)."""
    from baccara.db.migrate import upgrade

    with opened_database(db) as (shown, database):
        before, after = upgrade(database)
    if as_json:
        echo_json({"database": shown, "before": before, "after": after, "changed": before != after})
    elif before == after:
        click.echo(f"{shown}: already at revision {after}")
    else:
        click.echo(f"{shown}: upgraded from revision {before or 'none'} to {after}")


@db_group.command("current")
@db_option
@click.option("--json", "as_json", is_flag=True, help="Print the revisions as JSON.")
def current_command(db: str | None, as_json: bool) -> None:
    """Show the database's schema revision and the newest one."""
    from baccara.db.migrate import current, head

    with opened_database(db) as (shown, database):
        revision = current(database)
    newest = head()
    if as_json:
        echo_json(
            {
                "database": shown,
                "current": revision,
                "head": newest,
                "up_to_date": revision == newest,
            }
        )
    else:
        state = "up to date" if revision == newest else f"needs 'baccara db upgrade' to {newest}"
        click.echo(f"{shown}: revision {revision or 'none'} ({state})")


@db_group.command("repair")
@click.argument("table")
@db_option
@click.option("--json", "as_json", is_flag=True, help="Print what was done as JSON.")
def repair_command(table: str, db: str | None, as_json: bool) -> None:
    """Repair house table TABLE when its server logs "recovery failed; the table stays
    closed": void its unfinished rounds, refund every bet of them once, and retire its
    shoe in play (the seed revealed; the record keeps every coup dealt), so that the next
    start deals a new shoe. Nothing to do the second time.

    Stop the server running the table first: a SQLite file's server, or on PostgreSQL
    the process that runs the table, is refused in one line.
    """
    from baccara.db.ledger import Ledger
    from baccara.db.repair import RepairError, repair_table
    from baccara.db.serve_lock import DatabaseBusy, hold

    shown, database = open_database(db)
    lock = None
    try:  # no server beside the repair: the SQLite file's lock, PostgreSQL's table lock
        lock = hold(database.url.render_as_string(hide_password=False), "baccara db repair")
        with _table_lock(database, table):
            done = repair_table(Ledger(database), table)
    except (DatabaseBusy, RepairError) as error:
        fail(str(error))
    finally:
        if lock is not None:
            lock.release()
        database.dispose()
    if as_json:
        echo_json({"database": shown, **done.to_json()})
    else:
        for line in done.lines():
            click.echo(line)


@contextlib.contextmanager
def _table_lock(database: Engine, table: str) -> Iterator[None]:
    """On PostgreSQL, hold ``table``'s advisory lock (the one its server holds while it
    runs it, `baccara.db.table_locks.TableLocks`): refused if a server runs it."""
    if database.dialect.name != "postgresql":
        yield
        return
    from baccara.db.repair import RepairError
    from baccara.db.signals import namespace_of
    from baccara.db.table_locks import TableLocks

    locks = TableLocks(database, namespace_of(database))
    try:
        if not locks.take([table]):
            raise RepairError(
                f"table {table!r} is run by a server process now: stop it first (the "
                "process whose log says the table's recovery failed)"
            )
        yield
    finally:
        locks.close()


COMMANDS = (db_group,)
