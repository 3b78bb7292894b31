"""Schema changes as Alembic migrations (``baccara/db/migrations``), applied on start.

`upgrade` brings a database to the head revision: the store and the ledger call it
when they open a database, ``baccara db upgrade`` calls it by hand. It runs in one
write transaction (SQLite's write lock; a PostgreSQL advisory lock), so two processes
starting together migrate once. A database created before migrations (by
``create_all``) has no version table: the first revision creates only the tables it
lacks, so it upgrades in place with nothing lost.

>>> from baccara.db.database import database_at
>>> database = database_at("sqlite://")
>>> current(database) is None
True
>>> upgrade(database) == (None, head())
True
>>> upgrade(database) == (head(), head()), current(database) == head()
(True, True)
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from alembic.util import CommandError
from sqlalchemy.engine import Connection, Engine

from baccara.db.database import writing

__all__ = ["MIGRATIONS", "MigrationError", "current", "head", "upgrade"]

MIGRATIONS = Path(__file__).with_name("migrations")
"""The folder of the Alembic environment (``env.py``) and its ``versions/``."""

_LOCK = 0x62616363  # "bacc": the PostgreSQL advisory lock held while migrating


class MigrationError(ValueError):
    """A database this baccara cannot migrate (its revision is unknown here)."""


def _config(conn: Connection | None = None) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    if conn is not None:
        config.attributes["connection"] = conn
    return config


@cache
def head() -> str:
    """The newest revision (what a database is upgraded to)."""
    revision = ScriptDirectory.from_config(_config()).get_current_head()
    assert revision is not None
    return revision


def _known(revision: str) -> bool:
    try:
        return ScriptDirectory.from_config(_config()).get_revision(revision) is not None
    except CommandError:
        return False


def current(database: Engine) -> str | None:
    """The database's revision (None before the first migration)."""
    with database.connect() as conn:
        return _current(conn)


def _current(conn: Connection) -> str | None:
    if not sa.inspect(conn).has_table("alembic_version"):
        return None
    return MigrationContext.configure(conn).get_current_revision()


def upgrade(database: Engine) -> tuple[str | None, str]:
    """Bring the database to the head revision; return its revisions before and after."""
    before = current(database)
    if before == head():
        return before, before
    if before is not None and not _known(before):
        raise MigrationError(
            f"the database is at schema revision {before!r}, which this baccara does not "
            f"know (its newest is {head()!r}): use a newer baccara"
        )
    with writing(database) as conn:
        if conn.dialect.name == "postgresql":
            conn.execute(sa.select(sa.func.pg_advisory_xact_lock(_LOCK)))
        before = _current(conn)  # another process may have migrated meanwhile
        if before != head():
            command.upgrade(_config(conn), "head")
    return before, head()
