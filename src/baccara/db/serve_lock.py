"""One server per SQLite file: an operating-system lock beside the database.

A server keeps each table's shoe, round and clock in its memory, so two server
processes on one SQLite file deal one table twice: the second one's start-up recovery
voids the first one's open round, whose coup the first one deals anyway, and the
table's record no longer replays (its recovery fails at every start since; `baccara db
repair` puts it right, `baccara.db.repair`). So ``baccara serve`` takes an exclusive
``flock`` on a sidecar file, ``<database>.serve.lock``, before its app starts, and
holds it for the life of the process; the kernel releases it when the process ends,
however it ends (a SIGKILL too), so a stale file never blocks a start. A second process
is refused in one line naming the file and the process holding it (its pid and command,
written in the lock file). ``baccara db repair`` takes the same lock, so it never runs
beside a server.

PostgreSQL needs none (several processes share its tables by design,
`baccara.server.cluster.hall`), nor does an in-memory SQLite database (it lives in one process);
nor a system without ``flock``.

>>> import tempfile
>>> url = f"sqlite:///{tempfile.mkdtemp()}/game.db"
>>> held = hold(url, "baccara serve")
>>> hold(url, "baccara serve")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
baccara.db.serve_lock.DatabaseBusy: the SQLite database .../game.db is in use by `baccara serve` (pid ...): ...
>>> held.release()  # (or the process ends)
>>> again = hold(url, "baccara serve")
>>> again.path.name, again.path.read_text() == f"{os.getpid()} baccara serve\\n"
('game.db.serve.lock', True)
>>> again.release()
>>> hold("sqlite://", "baccara serve") is None, hold("postgresql://u@h/db", "x") is None
(True, True)
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import IO

import sqlalchemy as sa

__all__ = ["DatabaseBusy", "ServeLock", "hold", "lock_path"]

SUFFIX = ".serve.lock"


class DatabaseBusy(ValueError):
    """The SQLite file is held by another process (or its lock cannot be taken)."""


@dataclass(slots=True)
class ServeLock:
    """A held lock: released by `release`, or by the end of the process."""

    path: Path
    handle: IO[str]

    def release(self) -> None:
        """Let another process take the database (the file stays; the lock is the flock)."""
        self.handle.close()


def lock_path(url: str) -> Path | None:
    """The lock file of a SQLite file database; None for any other database.

    >>> lock_path("sqlite:////srv/baccara.db"), lock_path("sqlite:///:memory:")
    (PosixPath('/srv/baccara.db.serve.lock'), None)
    """
    parsed = sa.engine.make_url(url)
    if parsed.get_backend_name() != "sqlite" or parsed.database in (None, "", ":memory:"):
        return None
    database = Path(parsed.database).expanduser().resolve()
    return database.with_name(database.name + SUFFIX)


def hold(url: str, command: str) -> ServeLock | None:
    """Take the lock of the database at ``url`` for ``command`` (``baccara serve``, say)
    until `ServeLock.release` or the process ends; None when the database needs none.

    Raises `DatabaseBusy` naming the file, and the holder if it can, when another process
    holds it.
    """
    path = lock_path(url)
    if path is None or sys.platform == "win32":
        return None
    import fcntl

    database = path.with_name(path.name.removesuffix(SUFFIX))
    try:
        handle = path.open("a+", encoding="utf-8")
    except OSError as error:
        raise DatabaseBusy(
            f"cannot lock the SQLite database {database}: {path}: {error.strerror or error}"
        ) from None
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.seek(0)
        holder = handle.read().strip()
        handle.close()
        who = holder.partition(" ")
        by = f"`{who[2]}` (pid {who[0]})" if who[0].isdigit() and who[2] else "another process"
        raise DatabaseBusy(
            f"the SQLite database {database} is in use by {by}: stop it first (one "
            "process per SQLite file; several share a PostgreSQL database)"
        ) from None
    handle.seek(0)
    handle.truncate()
    handle.write(f"{os.getpid()} {command}\n")
    handle.flush()
    return ServeLock(path=path, handle=handle)
