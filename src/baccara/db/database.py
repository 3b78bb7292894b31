"""The one database: where it is by default, and how it is opened (`database_at`).

Every part that opens the database (the terminal store, the web ledger, the server,
``baccara db``) gets it from `database_at`, as a SQLAlchemy ``Engine`` (held under the
name ``database``: an engine here is a game's), with one set of settings:

- SQLite: WAL journal (a file database), ``synchronous=FULL``, foreign keys on, a
  30-second busy timeout, and ``BEGIN IMMEDIATE`` for write transactions (`writing`),
  so a writer takes the lock before it reads what it will decide on.
- PostgreSQL (``postgresql://`` URLs use psycopg 3): a pool of 10 (+20), connections
  recycled after 30 minutes.

The default database is SQLite in the user's data directory; the environment variable
``BACCARA_DB`` (a URL or a file path) overrides it, and ``--db`` overrides both.

>>> normalize_url("postgresql://u@h/db"), normalize_url("sqlite:///x.db")
('postgresql+psycopg://u@h/db', 'sqlite:///x.db')
>>> resolve_url("postgres://u@h/db"), resolve_url("/tmp/game.db")
('postgresql+psycopg://u@h/db', 'sqlite:////tmp/game.db')
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

__all__ = [
    "DB_ENV",
    "after_commit",
    "database_at",
    "default_url",
    "normalize_url",
    "resolve_url",
    "writing",
]

DB_ENV = "BACCARA_DB"
"""The environment variable naming the database (a URL or a SQLite file path)."""

_MEMORY = ("sqlite://", "sqlite:///:memory:")


def normalize_url(url: str) -> str:
    """Use psycopg 3 for ``postgresql://`` URLs."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def default_url() -> str:
    """``$BACCARA_DB`` if set, else SQLite in the user's data directory (created if needed)."""
    if configured := os.environ.get(DB_ENV, "").strip():
        return resolve_url(configured)
    import platformdirs

    folder = Path(platformdirs.user_data_dir("baccara", appauthor=False))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'baccara.db'}"


def resolve_url(db: str | Path | None) -> str:
    """The database URL for ``--db``: a URL as given, a path as a SQLite file, None as default.

    A file path's folder is created if needed.
    """
    if db is None or str(db).strip() == "":
        return default_url()
    text = str(db).strip()
    if "://" in text:
        return normalize_url(text)
    path = Path(text).expanduser()
    path.parent.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{path}"


def database_at(url: str) -> Engine:
    """The database at ``url``, for the money and all the tables keep (see the module's settings)."""
    url = normalize_url(url)
    if not url.startswith("sqlite"):
        # No ping on every checkout (a round trip per transaction): the ledger retries
        # a transaction whose connection turned out to be dead.
        return sa.create_engine(url, pool_size=10, max_overflow=20, pool_recycle=1800)
    memory = url in _MEMORY
    kwargs: dict[str, Any] = {"connect_args": {"check_same_thread": False, "timeout": 30}}
    if memory:  # one connection, shared by every thread: the database lives in it
        kwargs["poolclass"] = sa.pool.StaticPool
    database = sa.create_engine(url, **kwargs)

    @sa.event.listens_for(database, "connect")
    def _on_connect(dbapi_conn: Any, record: Any) -> None:
        dbapi_conn.isolation_level = None  # SQLAlchemy's "begin" hook issues BEGIN
        cursor = dbapi_conn.cursor()
        if not memory:
            _set_wal(cursor)
        cursor.execute("PRAGMA synchronous=FULL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=30000")
        cursor.close()

    @sa.event.listens_for(database, "begin")
    def _on_begin(conn: Connection) -> None:
        write = conn.get_execution_options().get("baccara_write", False)
        conn.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")

    return database


def _set_wal(cursor: Any) -> None:
    """Switch a file database to WAL; retry the lock a new file's first writers race for.

    (SQLite answers "database is locked" at once, without waiting, to a connection that
    would deadlock: a process opening a fresh file while another one creates it.)
    """
    for attempt in range(100):
        try:
            cursor.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) or attempt == 99:
                raise
            time.sleep(0.05)


@contextmanager
def writing(database: Engine) -> Iterator[Connection]:
    """A write transaction: on SQLite it takes the write lock first (``BEGIN IMMEDIATE``);
    what `after_commit` asked runs once it has committed."""
    committed: list[Callable[[], None]] = []
    options = {"baccara_write": True, _AFTER_COMMIT: committed}
    with database.connect().execution_options(**options) as conn:
        with conn.begin():
            yield conn
        for call in committed:
            call()


_AFTER_COMMIT = "baccara_after_commit"


def after_commit(conn: Connection, call: Callable[[], None]) -> None:
    """Call ``call`` once the `writing` transaction of ``conn`` has committed (never if it
    rolls back); outside `writing`, a `ValueError`.

    >>> database = database_at("sqlite://")
    >>> with writing(database) as conn:
    ...     after_commit(conn, lambda: print("committed"))
    ...     print("in the transaction")
    in the transaction
    committed
    >>> try:
    ...     with writing(database) as conn:
    ...         after_commit(conn, lambda: print("committed"))
    ...         raise KeyError("no")
    ... except KeyError:
    ...     print("rolled back")
    rolled back
    """
    committed = conn.get_execution_options().get(_AFTER_COMMIT)
    if committed is None:
        raise ValueError("after_commit needs a `writing` transaction")
    committed.append(call)
