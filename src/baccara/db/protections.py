"""A player's protections, kept in the one database beside their wallet: their own
limits (responsible play) and the house's suspension.

A daily loss limit: a cut (or a first limit) takes effect at once, a raise or a
removal one day after it is asked for (`DELAY`), as regulated sites do. A session-time
reminder (the page reminds every so many minutes). A self-exclusion: until it ends the
player cannot log in, nor use a session opened before; nothing lifts it early. The
house's suspension (`suspend`), the same until the house lifts it. The row carries the
player's wallet account, so the money gate reads it in the statement that takes the
player's lock (`baccara.db.gate.lock_wallets`).

>>> from datetime import UTC, datetime
>>> from baccara.db.database import database_at, writing
>>> from baccara.db.migrate import upgrade
>>> from baccara.db.schema import users
>>> database = database_at("sqlite://")
>>> _ = upgrade(database)
>>> with writing(database) as conn:
...     _ = conn.execute(users.insert().values(id=1, name="ann", password_hash="x",
...                                            created_at=datetime.now(UTC)))
>>> protections = Protections(database)
>>> protections.set_loss_limit(1, 5_000, now=0.0).loss_limit
5000
>>> later = protections.set_loss_limit(1, 9_000, now=10.0)   # a raise waits a day
>>> later.loss_limit, later.next_loss_limit, later.next_from
(5000, 9000, 86410.0)
>>> protections.get(1, now=90_000.0).loss_limit
9000
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from baccara.db import audit
from baccara.db.books import account_id, wallet_account
from baccara.db.database import writing
from baccara.db.schema import play_limits, users, web_sessions
from baccara.db.sessions import revoke

__all__ = [
    "DELAY",
    "FOREVER",
    "PlayerProtections",
    "Protections",
    "SuspendError",
    "protections_of",
    "stop_logins",
    "suspend",
]

DELAY = 24 * 3600.0
"""Seconds before a raised or removed loss limit takes effect."""


@dataclass(frozen=True, slots=True)
class PlayerProtections:
    """A player's limits as they stand (minor units, minutes, epoch seconds)."""

    loss_limit: int | None = None
    next_loss_limit: int | None = None
    next_from: float | None = None
    reminder_minutes: int | None = None
    excluded_until: float | None = None
    suspended_until: float | None = None  # the house's suspension

    def excluded(self, now: float) -> bool:
        """Whether the player is excluded at ``now``."""
        return self.excluded_until is not None and now < self.excluded_until

    def suspended(self, now: float) -> bool:
        """Whether the house has suspended the player at ``now``."""
        return self.suspended_until is not None and now < self.suspended_until

    @classmethod
    def of(cls, row: Mapping[Any, Any] | None) -> PlayerProtections:
        """The limits a ``play_limits`` row (or None) holds, as stored."""
        if row is None:
            return cls()
        limit, later, since = row["loss_limit"], row["next_loss_limit"], row["next_from"]
        return cls(
            loss_limit=None if limit is None else int(limit),
            next_loss_limit=None if later is None else int(later),
            next_from=None if since is None else float(since),
            reminder_minutes=row["reminder_minutes"],
            excluded_until=row["excluded_until"],
            suspended_until=row["suspended_until"],
        )

    def at(self, now: float) -> PlayerProtections:
        """These limits as they stand at ``now``: a change whose day has come applies.

        >>> PlayerProtections(loss_limit=5_000, next_loss_limit=9_000, next_from=10.0).at(10.0).loss_limit
        9000
        """
        if self.next_from is None or now < self.next_from:
            return self
        return replace(self, loss_limit=self.next_loss_limit, next_loss_limit=None, next_from=None)


class Protections:
    """The players' limits."""

    def __init__(self, database: Engine) -> None:
        self.database = database

    def get(self, user: int, *, now: float | None = None) -> PlayerProtections:
        """``user``'s limits at ``now`` (a change whose day has come applies)."""
        with self.database.connect() as conn:
            row = (
                conn.execute(sa.select(play_limits).where(play_limits.c.user_id == user))
                .mappings()
                .first()
            )
        return protections_of(row, time.time() if now is None else now)

    def set_loss_limit(
        self, user: int, amount: int | None, *, now: float | None = None
    ) -> PlayerProtections:
        """Ask for a daily loss limit of ``amount`` (None: no limit)."""
        moment = time.time() if now is None else now
        with writing(self.database) as conn:
            found = protections_of(_row(conn, user), moment)
            lower = amount is not None and (found.loss_limit is None or amount <= found.loss_limit)
            values: dict[str, object]
            if lower:
                values = {"loss_limit": amount, "next_loss_limit": None, "next_from": None}
            else:  # a raise, or no limit: in a day
                values = {
                    "loss_limit": found.loss_limit,
                    "next_loss_limit": amount,
                    "next_from": moment + DELAY,
                }
            _upsert(conn, user, values)
            return protections_of(_row(conn, user), moment)

    def set_reminder(self, user: int, minutes: int | None) -> PlayerProtections:
        """Remind the player every ``minutes`` of a session (None: never)."""
        with writing(self.database) as conn:
            _upsert(conn, user, {"reminder_minutes": minutes})
            return protections_of(_row(conn, user), time.time())

    def exclude(self, user: int, until: float, *, now: float | None = None) -> PlayerProtections:
        """Exclude ``user`` until ``until`` (never shortened) and end their sessions, at
        ``now`` (the system's time if not given)."""
        moment = time.time() if now is None else now
        with writing(self.database) as conn:
            found = protections_of(_row(conn, user), moment)
            longest = max(until, found.excluded_until or 0.0)
            _upsert(conn, user, {"excluded_until": longest})
            conn.execute(web_sessions.delete().where(web_sessions.c.user_id == user))
            revoke(conn, user, None, now=moment)  # every socket of the player closes
            return protections_of(_row(conn, user), moment)


class SuspendError(ValueError):
    """A suspension refused (no such player); nothing changed."""


def suspend(database: Engine, name: str, until: float | None) -> int:
    """The house suspends player ``name`` (any case) until ``until`` (epoch seconds;
    None lifts it): no login, every session ended now (their sockets close within a
    second, `baccara.server.infra.revocation`); the player's id.

    >>> from baccara.db.database import database_at, writing
    >>> from baccara.db.migrate import upgrade
    >>> from datetime import UTC, datetime
    >>> database = database_at("sqlite://")
    >>> _ = upgrade(database)
    >>> with writing(database) as conn:
    ...     _ = conn.execute(users.insert().values(id=7, name="Ann", name_key="ann",
    ...                                            password_hash="x", created_at=datetime.now(UTC)))
    >>> suspend(database, "ANN", 2e9), suspend(database, "ann", None)
    (7, 7)
    >>> suspend(database, "bob", None)
    Traceback (most recent call last):
    ...
    baccara.db.protections.SuspendError: no player named 'bob'
    """
    with writing(database) as conn:
        found = _player(conn, name)
        _suspend(conn, found, until, now=time.time())
        return found


FOREVER = 253_402_300_799.0
"""A suspension's end that never comes (the last second of the year 9999)."""


def stop_logins(
    database: Engine, name: str, *, stopped: bool, actor: str, role: str | None, now: float
) -> int:
    """The house stops player ``name``'s logins (`suspend`, with no end: every session
    ends now, the round in play is settled as any other) or lets them log in again,
    audited in the same transaction (`baccara.db.audit`); the player's id. A staff
    account is no player: refused.

    >>> from baccara.db.database import database_at, writing
    >>> from baccara.db.migrate import upgrade
    >>> from datetime import UTC, datetime
    >>> database = database_at("sqlite://")
    >>> _ = upgrade(database)
    >>> with writing(database) as conn:
    ...     _ = conn.execute(users.insert().values(id=7, name="Ann", name_key="ann",
    ...                                            password_hash="x", created_at=datetime.now(UTC)))
    >>> stop_logins(database, "ann", stopped=True, actor="olga", role="operator", now=1e9)
    7
    >>> Protections(database).get(7, now=2e9).suspended(2e9)
    True
    """
    with writing(database) as conn:
        found = _player(conn, name, players_only=True)
        held = _row(conn, found)
        was = PlayerProtections.of(held).suspended(now)
        _suspend(conn, found, FOREVER if stopped else None, now=now)
        audit.append(
            conn,
            actor=actor,
            role=role,
            action="player.logins_stop" if stopped else "player.logins_resume",
            target=name,
            before={"stopped": was},
            after={"stopped": stopped},
            now=now,
        )
        return found


def _player(conn: sa.Connection, name: str, *, players_only: bool = False) -> int:
    """The id of the account ``name`` (any case); `SuspendError` if none (or, with
    ``players_only``, a staff account)."""
    query = (
        sa.select(users.c.id)
        .where(sa.or_(users.c.name_key == name.lower(), users.c.name == name))
        .order_by(users.c.id)
    )
    if players_only:
        query = query.where(users.c.role.is_(None))
    found = conn.execute(query).scalar()
    if found is None:
        raise SuspendError(f"no player named {name!r}")
    return int(found)


def _suspend(conn: sa.Connection, user: int, until: float | None, *, now: float) -> None:
    _upsert(conn, user, {"suspended_until": until})
    if until is not None:
        conn.execute(web_sessions.delete().where(web_sessions.c.user_id == user))
        revoke(conn, user, None, now=now)


def _row(conn: sa.Connection, user: int) -> sa.RowMapping | None:
    return (
        conn.execute(sa.select(play_limits).where(play_limits.c.user_id == user)).mappings().first()
    )


def _upsert(conn: sa.Connection, user: int, values: Mapping[str, object]) -> None:
    done = conn.execute(play_limits.update().where(play_limits.c.user_id == user).values(**values))
    if done.rowcount == 0:  # beside the player's wallet, where the money gate reads them
        name, role = conn.execute(
            sa.select(users.c.name, users.c.role).where(users.c.id == user)
        ).one()
        # a staff account (suspended by the house) holds no wallet: none is made for it
        wallet = None if role is not None else account_id(conn, wallet_account(str(name)))
        conn.execute(play_limits.insert().values(user_id=user, account_id=wallet, **values))


def protections_of(row: Mapping[Any, Any] | None, now: float) -> PlayerProtections:
    """The limits a ``play_limits`` row (or None) stands for at ``now``."""
    return PlayerProtections.of(row).at(now)
