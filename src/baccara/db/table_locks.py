"""The tables' advisory locks on PostgreSQL (`TableLocks`): the process holding a table's
lock runs it (`baccara.server.cluster.hall`); a process that dies loses its locks with its
session. The locks' keys carry the database's namespace (`baccara.db.signals.namespace_of`),
so clusters sharing one PostgreSQL server stay apart.
"""

from __future__ import annotations

import contextlib
import zlib

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

__all__ = ["TableLocks"]


class TableLocks:
    """The tables' advisory locks, held on one connection for the life of the process."""

    def __init__(self, database: Engine, namespace: str) -> None:
        self.database = database
        self.namespace = namespace
        self.conn: Connection | None = None
        self.held: set[str] = set()

    def key(self, table_id: str) -> int:
        """The lock's key for a table (a 32-bit number: one bigint lock)."""
        return zlib.crc32(f"baccara-table:{self.namespace}:{table_id}".encode())

    def take(self, ids: list[str], most: int | None = None) -> list[str]:
        """Try the locks of ``ids`` not held yet, in order, until ``most`` are newly
        held; those. A lost connection raises (its locks are gone: the caller stops
        those tables)."""
        conn = self._connection()
        got: list[str] = []
        for table_id in ids:
            if table_id in self.held:
                continue
            if most is not None and len(got) >= most:
                break
            found = conn.execute(
                sa.text("SELECT pg_try_advisory_lock(:k)"), {"k": self.key(table_id)}
            ).scalar()
            if found:
                self.held.add(table_id)
                got.append(table_id)
        conn.commit()
        return got

    def _connection(self) -> Connection:
        if self.conn is None:
            self.conn = self.database.connect()
            self.held.clear()
        return self.conn

    def release(self, table_id: str) -> None:
        """Let another process take ``table_id`` (its runner has stopped)."""
        if table_id in self.held and self.conn is not None:
            self.conn.execute(sa.text("SELECT pg_advisory_unlock(:k)"), {"k": self.key(table_id)})
            self.conn.commit()
        self.held.discard(table_id)

    def processes(self) -> set[str]:
        """The cluster's processes alive now: their listening sessions, by the name each
        gives it (`baccara.db.signals.PostgresSignals.application_name`); a killed
        process's session ends with it."""
        conn = self._connection()
        prefix = f"{self.namespace}:"
        names = conn.execute(
            sa.text("SELECT application_name FROM pg_stat_activity WHERE application_name LIKE :p"),
            {"p": prefix + "%"},
        ).scalars()
        found = {str(name).removeprefix(prefix) for name in names}
        conn.commit()
        return found

    def check(self) -> bool:
        """Whether the locks are still held (their connection alive); if not, they are
        forgotten and the connection is opened again at the next `take`."""
        if self.conn is None:
            return not self.held
        try:
            self.conn.execute(sa.text("SELECT 1")).scalar()
            self.conn.commit()
            return True
        except sa.exc.DBAPIError:
            with contextlib.suppress(Exception):
                self.conn.close()
            self.conn = None
            return False

    def close(self) -> None:
        """Release every lock (the connection closes)."""
        if self.conn is not None:
            with contextlib.suppress(Exception):
                self.conn.close()
            self.conn = None
        self.held.clear()
