"""A player's protections, kept in the one database beside their wallet: their own
limits (responsible play) and the house's suspension.

A daily loss limit: a cut (or a first limit) takes effect at once, a raise or a
removal one day after it is asked for (`DELAY`), as regulated sites do (`ask`, the one
rule for every limit a player sets). Limits over a period (`PeriodLimit`, kept in
``period_limits``): losses over 7 and 30 days beside the daily one, and deposits over
24 hours, 7 and 30 days (`Period`), each the same way; the lowest that a sum passes
refuses. A session-time
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
from enum import StrEnum
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from baccara.db import audit
from baccara.db.accounts import find_player
from baccara.db.books import account_id, wallet_account
from baccara.db.database import writing
from baccara.db.schema import limit_changes, period_limits, play_limits, users, web_sessions
from baccara.db.sessions import revoke

__all__ = [
    "DELAY",
    "FOREVER",
    "LOSS_PERIODS",
    "ChangeKind",
    "LimitKind",
    "Period",
    "PeriodLimit",
    "PlayerProtections",
    "Protections",
    "SuspendError",
    "ask",
    "period_limit",
    "period_limits_of",
    "protections_of",
    "record_change",
    "stop_logins",
    "suspend",
]

DELAY = 24 * 3600.0
"""Seconds before a raised or removed loss limit takes effect."""


class Period(StrEnum):
    """A period a limit counts over; the value is the word the API takes."""

    DAY = "day"  # deposits: the last 24 hours; losses: the UTC day
    WEEK = "week"  # the last 7 days (losses: the UTC day and the 6 before it)
    MONTH = "month"  # the last 30 days (losses: the UTC day and the 29 before it)

    @property
    def days(self) -> int:
        """How many days the period counts.

        >>> [period.days for period in Period]
        [1, 7, 30]
        """
        return _DAYS[self]


_DAYS = {Period.DAY: 1, Period.WEEK: 7, Period.MONTH: 30}


class LimitKind(StrEnum):
    """What a period limit bounds."""

    DEPOSIT = "deposit"
    LOSS = "loss"


LOSS_PERIODS = (Period.WEEK, Period.MONTH)
"""The loss limits kept in ``period_limits`` (the daily one is ``play_limits``')."""


class ChangeKind(StrEnum):
    """What a change to a player's protections changed (``limit_changes.kind``)."""

    LOSS = "loss"  # a loss limit (``days``: 1, 7 or 30)
    DEPOSIT = "deposit"  # a deposit limit (``days``: 1, 7 or 30)
    REMINDER = "reminder"  # the session reminder (``amount``: minutes)
    EXCLUSION = "exclusion"  # the player's own exclusion (``until``)
    SUSPENSION = "suspension"  # the house's (``until``; None: lifted)


def record_change(
    conn: sa.Connection,
    user: int,
    kind: ChangeKind,
    *,
    now: float,
    actor: str | None = None,
    days: int | None = None,
    limit: PeriodLimit | None = None,
    until: float | None = None,
) -> None:
    """Keep, in ``conn``'s transaction, a change to ``user``'s protections: what
    (``kind``, over ``days``), the limit as it stands after it (``limit``: a raise or a
    removal asked shows as ``next_amount`` from ``next_from``), an exclusion's or
    suspension's end (``until``), when and by whom (``actor``: the player themself when
    not given). The console's history, and what `baccara.db.alerts` counts."""
    if actor is None:
        actor = str(conn.execute(sa.select(users.c.name).where(users.c.id == user)).scalar_one())
    shown = limit or PeriodLimit()
    conn.execute(
        limit_changes.insert().values(
            user_id=user, at=now, actor=actor, kind=kind.value, days=days, amount=shown.amount,
            next_amount=shown.next_amount, next_from=shown.next_from, until=until,
            raised=shown.next_from is not None,
        )
    )  # fmt: skip


@dataclass(frozen=True, slots=True)
class PeriodLimit:
    """A limit as it stands (minor units; None: none), and a raise or removal asked
    (``next_amount``) with when it takes effect (``next_from``, epoch seconds)."""

    amount: int | None = None
    next_amount: int | None = None
    next_from: float | None = None

    def at(self, now: float) -> PeriodLimit:
        """This limit at ``now``: a raise whose day has come applies.

        >>> PeriodLimit(5_000, 9_000, 10.0).at(9.0).amount, PeriodLimit(5_000, 9_000, 10.0).at(10.0)
        (5000, PeriodLimit(amount=9000, next_amount=None, next_from=None))
        """
        if self.next_from is None or now < self.next_from:
            return self
        return PeriodLimit(self.next_amount)


def ask(found: PeriodLimit, amount: int | None, now: float) -> PeriodLimit:
    """The limit after the player asks for ``amount`` (None: no limit) at ``now``, from
    ``found`` (as it stands at ``now``): a cut or a first limit at once, a raise or a
    removal `DELAY` later (the limit in force stays until then).

    >>> ask(PeriodLimit(), 5_000, 0.0)
    PeriodLimit(amount=5000, next_amount=None, next_from=None)
    >>> ask(PeriodLimit(5_000), 9_000, 10.0)
    PeriodLimit(amount=5000, next_amount=9000, next_from=86410.0)
    >>> ask(PeriodLimit(5_000, 9_000, 86_410.0), 4_000, 20.0)
    PeriodLimit(amount=4000, next_amount=None, next_from=None)
    """
    if amount is not None and (found.amount is None or amount <= found.amount):
        return PeriodLimit(amount)
    return PeriodLimit(found.amount, amount, now + DELAY)


@dataclass(frozen=True, slots=True)
class PlayerProtections:
    """A player's limits as they stand (minor units, minutes, epoch seconds)."""

    loss_limit: int | None = None
    next_loss_limit: int | None = None
    next_from: float | None = None
    reminder_minutes: int | None = None
    excluded_until: float | None = None
    suspended_until: float | None = None  # the house's suspension
    # the loss limits over 7 and 30 days (`LOSS_PERIODS`), as stored
    longer_losses: tuple[tuple[Period, PeriodLimit], ...] = ()

    def loss_limits(self, now: float) -> list[tuple[Period, int]]:
        """The loss limits in force at ``now``, by period (the daily one first).

        >>> week = (Period.WEEK, PeriodLimit(20_000))
        >>> PlayerProtections(loss_limit=5_000, longer_losses=(week,)).loss_limits(0.0)
        [(<Period.DAY: 'day'>, 5000), (<Period.WEEK: 'week'>, 20000)]
        """
        found = [(Period.DAY, self.at(now).loss_limit)]
        found += [(period, limit.at(now).amount) for period, limit in self.longer_losses]
        return [(period, amount) for period, amount in found if amount is not None]

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
        day = self.daily_loss.at(now)  # the one rule: `PeriodLimit.at`
        if day == self.daily_loss:
            return self
        return replace(
            self, loss_limit=day.amount, next_loss_limit=day.next_amount, next_from=day.next_from
        )

    @property
    def daily_loss(self) -> PeriodLimit:
        """The daily loss limit as a `PeriodLimit`."""
        return PeriodLimit(self.loss_limit, self.next_loss_limit, self.next_from)


class Protections:
    """The players' limits."""

    def __init__(self, database: Engine) -> None:
        self.database = database

    def get(self, user: int, *, now: float | None = None) -> PlayerProtections:
        """``user``'s limits at ``now`` (a change whose day has come applies), the loss
        limits over 7 and 30 days with them."""
        moment = time.time() if now is None else now
        with self.database.connect() as conn:
            row = _row(conn, user)
            longer = period_limits_of(conn, user, LimitKind.LOSS, moment)
        found = protections_of(row, moment)
        return replace(found, longer_losses=tuple(sorted(longer.items(), key=_days)))

    def set_loss_limit(
        self, user: int, amount: int | None, *, now: float | None = None
    ) -> PlayerProtections:
        """Ask for a daily loss limit of ``amount`` (None: no limit); kept in the history."""
        moment = time.time() if now is None else now
        with writing(self.database) as conn:
            asked = ask(protections_of(_row(conn, user), moment).daily_loss, amount, moment)
            record_change(conn, user, ChangeKind.LOSS, now=moment, days=1, limit=asked)
            values = {
                "loss_limit": asked.amount,
                "next_loss_limit": asked.next_amount,
                "next_from": asked.next_from,
            }
            _upsert(conn, user, values)
            return protections_of(_row(conn, user), moment)

    def period_limits(
        self, user: int, kind: LimitKind, *, now: float | None = None
    ) -> dict[Period, PeriodLimit]:
        """``user``'s limits of ``kind`` over a period at ``now`` (those kept in
        ``period_limits``: a deposit's every period, a loss's `LOSS_PERIODS`)."""
        moment = time.time() if now is None else now
        with self.database.connect() as conn:
            return period_limits_of(conn, user, kind, moment)

    def set_period_limit(
        self,
        user: int,
        kind: LimitKind,
        period: Period,
        amount: int | None,
        *,
        now: float | None = None,
    ) -> PeriodLimit:
        """Ask for a limit of ``kind`` over ``period`` of ``amount`` (None: none), by
        the one rule (`ask`): a cut at once, a raise a day later. The daily loss limit
        is `set_loss_limit`'s."""
        if kind is LimitKind.LOSS and period not in LOSS_PERIODS:
            raise ValueError("the daily loss limit is set by set_loss_limit")
        moment = time.time() if now is None else now
        with writing(self.database) as conn:
            found = period_limits_of(conn, user, kind, moment).get(period, PeriodLimit())
            asked = ask(found, amount, moment)
            record_change(conn, user, ChangeKind(kind.value), now=moment, days=period.days,
                          limit=asked)  # fmt: skip
            key = {"user_id": user, "kind": kind.value, "days": period.days}
            values = {
                "amount": asked.amount,
                "next_amount": asked.next_amount,
                "next_from": asked.next_from,
            }
            done = conn.execute(
                period_limits.update()
                .where(*(period_limits.c[name] == value for name, value in key.items()))
                .values(**values)
            )
            if done.rowcount == 0:
                wallet = _wallet(conn, user)
                conn.execute(period_limits.insert().values(**key, account_id=wallet, **values))
            return asked

    def set_reminder(
        self, user: int, minutes: int | None, *, now: float | None = None
    ) -> PlayerProtections:
        """Remind the player every ``minutes`` of a session (None: never)."""
        moment = time.time() if now is None else now
        with writing(self.database) as conn:
            _upsert(conn, user, {"reminder_minutes": minutes})
            record_change(conn, user, ChangeKind.REMINDER, now=moment, limit=PeriodLimit(minutes))
            return protections_of(_row(conn, user), moment)

    def exclude(self, user: int, until: float, *, now: float | None = None) -> PlayerProtections:
        """Exclude ``user`` until ``until`` (never shortened) and end their sessions, at
        ``now`` (the system's time if not given)."""
        moment = time.time() if now is None else now
        with writing(self.database) as conn:
            found = protections_of(_row(conn, user), moment)
            longest = max(until, found.excluded_until or 0.0)
            _upsert(conn, user, {"excluded_until": longest})
            record_change(conn, user, ChangeKind.EXCLUSION, now=moment, until=longest)
            conn.execute(web_sessions.delete().where(web_sessions.c.user_id == user))
            revoke(conn, user, None, now=moment)  # every socket of the player closes
            return protections_of(_row(conn, user), moment)


class SuspendError(ValueError):
    """A suspension refused (no such player); nothing changed."""


def suspend(
    database: Engine,
    name: str,
    until: float | None,
    *,
    now: float,
    actor: str = "cli",
    role: str | None = None,
    action: str | None = None,
) -> int:
    """The house suspends player ``name`` (any case) until ``until`` (epoch seconds;
    None lifts it) at ``now``: no login, every session ended now (their sockets close
    within a second, `baccara.server.infra.revocation`); audited in the same transaction
    (``actor`` in ``role``: a staff member, or ``cli``; ``action``: ``player.suspend``
    or ``player.reinstate`` unless named) with the suspension before and after, and kept
    in the player's history; the player's id. A staff account is no player: refused.

    >>> from baccara.db.database import database_at, writing
    >>> from baccara.db.migrate import upgrade
    >>> from datetime import UTC, datetime
    >>> database = database_at("sqlite://")
    >>> _ = upgrade(database)
    >>> with writing(database) as conn:
    ...     _ = conn.execute(users.insert().values(id=7, name="Ann", name_key="ann",
    ...                                            password_hash="x", created_at=datetime.now(UTC)))
    >>> suspend(database, "ANN", 2e9, now=1e9), suspend(database, "ann", None, now=1e9 + 1)
    (7, 7)
    >>> [(e.action, e.before, e.after) for e in audit.entries(database)][0]
    ('player.suspend', {'suspended_until': None}, {'suspended_until': 2000000000.0})
    >>> suspend(database, "bob", None, now=1e9)
    Traceback (most recent call last):
    ...
    baccara.db.protections.SuspendError: no player named 'bob'
    """
    with writing(database) as conn:
        found, registered = _player(conn, name, players_only=True)
        held = PlayerProtections.of(_row(conn, found))
        was = held.suspended_until if held.suspended(now) else None
        _suspend(conn, found, until, now=now, actor=actor)
        audit.append(
            conn,
            actor=actor,
            role=role,
            action=action or ("player.reinstate" if until is None else "player.suspend"),
            target=registered,
            before={"suspended_until": was},
            after={"suspended_until": until},
            now=now,
        )
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
        found, registered = _player(conn, name, players_only=True)
        held = _row(conn, found)
        was = PlayerProtections.of(held).suspended(now)
        _suspend(conn, found, FOREVER if stopped else None, now=now, actor=actor)
        audit.append(
            conn,
            actor=actor,
            role=role,
            action="player.logins_stop" if stopped else "player.logins_resume",
            target=registered,
            before={"stopped": was},
            after={"stopped": stopped},
            now=now,
        )
        return found


def _player(conn: sa.Connection, name: str, *, players_only: bool = False) -> tuple[int, str]:
    """The id and registered name of the account ``name`` (`find_player`: exactly,
    then in any case); `SuspendError` if none (or, with ``players_only``, a staff
    account)."""
    found = find_player(conn, name)
    if found is None or (players_only and found["role"] is not None):
        raise SuspendError(f"no player named {name!r}")
    return int(found["id"]), str(found["name"])


def _suspend(
    conn: sa.Connection, user: int, until: float | None, *, now: float, actor: str
) -> None:
    _upsert(conn, user, {"suspended_until": until})
    record_change(conn, user, ChangeKind.SUSPENSION, now=now, actor=actor, until=until)
    if until is not None:
        conn.execute(web_sessions.delete().where(web_sessions.c.user_id == user))
        revoke(conn, user, None, now=now)


def _row(conn: sa.Connection, user: int) -> sa.RowMapping | None:
    return (
        conn.execute(sa.select(play_limits).where(play_limits.c.user_id == user)).mappings().first()
    )


def _wallet(conn: sa.Connection, user: int) -> int | None:
    """``user``'s wallet account (made if missing); None for a staff account, which
    holds none (suspended by the house, it still gets no wallet)."""
    name, role = conn.execute(sa.select(users.c.name, users.c.role).where(users.c.id == user)).one()
    return None if role is not None else account_id(conn, wallet_account(str(name)))


def _upsert(conn: sa.Connection, user: int, values: Mapping[str, object]) -> None:
    done = conn.execute(play_limits.update().where(play_limits.c.user_id == user).values(**values))
    if done.rowcount == 0:  # beside the player's wallet, where the money gate reads them
        wallet = _wallet(conn, user)
        conn.execute(play_limits.insert().values(user_id=user, account_id=wallet, **values))


_BY_DAYS = {period.days: period for period in Period}


def _days(limit: tuple[Period, PeriodLimit]) -> int:
    return limit[0].days


def period_limits_of(
    conn: sa.Connection, user: int, kind: LimitKind, now: float
) -> dict[Period, PeriodLimit]:
    """``user``'s limits of ``kind`` over a period, as they stand at ``now``, read in
    ``conn``'s transaction."""
    rows = conn.execute(
        sa.select(
            period_limits.c.days,
            period_limits.c.amount,
            period_limits.c.next_amount,
            period_limits.c.next_from,
        ).where(period_limits.c.user_id == user, period_limits.c.kind == kind.value)
    )
    return {_BY_DAYS[int(row.days)]: period_limit(row._mapping).at(now) for row in rows}


def period_limit(row: Mapping[Any, Any]) -> PeriodLimit:
    """The limit a ``period_limits`` row holds, as stored."""
    amount, later, since = row["amount"], row["next_amount"], row["next_from"]
    return PeriodLimit(
        None if amount is None else int(amount),
        None if later is None else int(later),
        None if since is None else float(since),
    )


def protections_of(row: Mapping[Any, Any] | None, now: float) -> PlayerProtections:
    """The limits a ``play_limits`` row (or None) stands for at ``now``."""
    return PlayerProtections.of(row).at(now)
