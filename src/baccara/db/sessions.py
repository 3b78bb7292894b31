"""Revocations of web sessions, as events every server process reads.

Whatever ends a session early (a logout, a password change for the player's other
sessions, a self-exclusion, the house's suspension) writes a row here in the same
transaction: the player, and the session's digest (None: every session of the
player); the same transaction sends a revocation signal (`baccara.db.signals`), heard
by every server process once it commits. A process woken by it, or every half second
whatever it heard (`baccara.server.infra.revocation`), reads the rows newer than the
last it saw and closes the sockets they name (asking `baccara.db.gate.ended` about
those players): the cost is one indexed read when nothing happened, however many
sockets are open. The rows are what counts: a signal missed is read at the next look.

>>> from baccara.db.database import database_at, writing
>>> from baccara.db.migrate import upgrade
>>> from datetime import UTC, datetime
>>> from baccara.db.schema import users
>>> database = database_at("sqlite://")
>>> _ = upgrade(database)
>>> with writing(database) as conn:
...     _ = conn.execute(users.insert().values(id=3, name="ann", name_key="ann",
...                                            password_hash="x", created_at=datetime.now(UTC)))
...     start = last_revocation(conn)
...     revoke(conn, 3, "ab12", now=10.0); revoke(conn, 3, None, now=11.0)
>>> with database.connect() as conn:
...     [(r.user, r.session) for r in revocations_since(conn, start)]
[(3, 'ab12'), (3, None)]
"""

from __future__ import annotations

from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from baccara.db.schema import session_revocations
from baccara.db.signals import Topic, signal

__all__ = ["Revocation", "last_revocation", "prune", "revocations_since", "revoke"]


@dataclass(frozen=True, slots=True)
class Revocation:
    """One session ended (``session`` None: every session of ``user``)."""

    id: int
    user: int
    session: str | None


def revoke(conn: Connection, user: int, session: str | None, *, now: float) -> None:
    """Say, in ``conn``'s `writing` transaction, that ``user``'s session ``session``
    (None: every one of theirs) has ended (and signal it, once it commits)."""
    conn.execute(session_revocations.insert().values(user_id=user, token_hash=session, at=now))
    signal(conn, Topic.REVOCATIONS, str(user))


def last_revocation(conn: Connection) -> int:
    """The id of the newest revocation (0: none): a process starting reads from there."""
    return int(conn.execute(sa.select(sa.func.max(session_revocations.c.id))).scalar() or 0)


def revocations_since(conn: Connection, last: int) -> list[Revocation]:
    """The revocations newer than id ``last``, oldest first."""
    rows = conn.execute(
        sa.select(
            session_revocations.c.id,
            session_revocations.c.user_id,
            session_revocations.c.token_hash,
        )
        .where(session_revocations.c.id > last)
        .order_by(session_revocations.c.id)
    )
    return [Revocation(int(i), int(u), None if t is None else str(t)) for i, u, t in rows]


def prune(conn: Connection, before: float) -> None:
    """Forget the revocations older than ``before`` (epoch seconds): every process has
    read them long since."""
    conn.execute(session_revocations.delete().where(session_revocations.c.at < before))
