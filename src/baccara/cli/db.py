"""``baccara db``: the database's schema revision, and its upgrade to the newest.

The database is ``--db`` (a URL or a SQLite file path), else ``$BACCARA_DB``, else
SQLite in the user's data directory: the one that ``baccara play`` and
``baccara serve`` use.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import click

from baccara.cli.common import echo_json, fail

if TYPE_CHECKING:
    from sqlalchemy.engine import Engine

__all__ = ["COMMANDS", "DB_HELP", "open_database"]

DB_HELP = "Database URL or SQLite file [default: $BACCARA_DB, else the user data folder]."


def open_database(db: str | None) -> tuple[str, Engine]:
    """The URL as shown (no password) and an engine connected to it; bad ones fail in one line."""
    import sqlalchemy as sa

    from baccara.db.engine import make_engine, resolve_url

    url = resolve_url(db)
    shown = re.sub(r"(://[^:/@]*:)[^@]*@", r"\1***@", url)
    try:
        shown = sa.engine.make_url(url).render_as_string(hide_password=True)
        engine = make_engine(url)
        with engine.connect():
            pass
    except (sa.exc.ArgumentError, sa.exc.NoSuchModuleError) as error:
        fail(f"bad database URL {shown!r}: {error}")
    except (sa.exc.OperationalError, sa.exc.DBAPIError) as error:
        fail(f"cannot open the database {shown!r}: {str(error.orig).splitlines()[0]}")
    return shown, engine


@click.group("db")
def db_group() -> None:
    """The database's schema: its revision, and its upgrade (Alembic migrations)."""


@db_group.command("upgrade")
@click.option("--db", "db", metavar="URL", default=None, help=DB_HELP)
@click.option("--json", "as_json", is_flag=True, help="Print the revisions as JSON.")
def upgrade_command(db: str | None, as_json: bool) -> None:
    """Bring the database to the newest schema revision (a no-op when it is there)."""
    from baccara.db.migrate import upgrade

    shown, engine = open_database(db)
    try:
        before, after = upgrade(engine)
    finally:
        engine.dispose()
    if as_json:
        echo_json({"database": shown, "before": before, "after": after, "changed": before != after})
    elif before == after:
        click.echo(f"{shown}: already at revision {after}")
    else:
        click.echo(f"{shown}: upgraded from revision {before or 'none'} to {after}")


@db_group.command("current")
@click.option("--db", "db", metavar="URL", default=None, help=DB_HELP)
@click.option("--json", "as_json", is_flag=True, help="Print the revisions as JSON.")
def current_command(db: str | None, as_json: bool) -> None:
    """Show the database's schema revision and the newest one."""
    from baccara.db.migrate import current, head

    shown, engine = open_database(db)
    try:
        revision = current(engine)
    finally:
        engine.dispose()
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


COMMANDS = (db_group,)
