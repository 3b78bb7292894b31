"""The staff: accounts with a role (`Role`), who run the house and play nothing.

A staff account is a row of ``web_users`` whose ``role`` is set (a player's is null):
one name space with the players (no staff member and player share a name, whatever
the case), one password rule, one login (``/api/login``) and one kind of session. It
holds no wallet: nothing creates one for it, and the money gate refuses any movement
of money into play for it, inside the transaction that would move it
(`baccara.db.gate.Held.check`). Staff are created by `baccara.db.auth.Auth.create_staff`
(``baccara admin create``), each creation written to the audit log
(`baccara.db.audit`).

>>> Role("operator"), find_role("Auditor")
(<Role.OPERATOR: 'operator'>, <Role.AUDITOR: 'auditor'>)
>>> find_role("croupier")
Traceback (most recent call last):
...
baccara.db.staff.StaffError: bad role 'croupier': operator, compliance or auditor
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from baccara.db import audit
from baccara.db.accounts import find_player
from baccara.db.database import writing
from baccara.db.schema import users, web_sessions
from baccara.db.sessions import revoke

__all__ = [
    "Role",
    "Staff",
    "StaffError",
    "StaffListing",
    "end_sessions",
    "find_role",
    "find_staff",
    "list_staff",
    "set_disabled",
]


class Role(StrEnum):
    """What a staff member may do; the value is the word stored and shown."""

    OPERATOR = "operator"  # the tables and the cashier
    COMPLIANCE = "compliance"  # the players, the reports, the alerts
    AUDITOR = "auditor"  # reads everything, changes nothing


class StaffError(ValueError):
    """A refused staff account (a bad role, a name taken)."""


def find_role(text: str) -> Role:
    """The role named ``text`` (any case), or `StaffError` naming the roles."""
    try:
        return Role(text.strip().lower())
    except ValueError:
        names = [role.value for role in Role]
        raise StaffError(f"bad role {text!r}: {', '.join(names[:-1])} or {names[-1]}") from None


@dataclass(frozen=True, slots=True, kw_only=True)
class Staff:
    """A logged-in staff member: who, their role, and the digest of the session they act
    under (None: a creation's answer, before any session). No wallet: a staff member
    has no money to move."""

    id: int
    name: str
    role: Role
    session: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class StaffListing:
    """A staff account as ``baccara admin list`` shows it."""

    name: str
    role: Role
    created_at: datetime
    disabled_at: float | None = None


def find_staff(conn: Connection, name: str) -> sa.RowMapping:
    """The ``users`` row of staff account ``name`` (any case), or `StaffError` (a
    player's name too: a player is no staff member)."""
    found = find_player(conn, name)
    if found is None or found["role"] is None:
        raise StaffError(f"no staff account {name!r}")
    return found


def end_sessions(conn: Connection, user: int, *, now: float) -> None:
    """End every session of account ``user`` in ``conn``'s `writing` transaction: each
    process drops them once it commits (`baccara.db.sessions.revoke`)."""
    conn.execute(sa.delete(web_sessions).where(web_sessions.c.user_id == user))
    revoke(conn, user, None, now=now)


def set_disabled(
    database: Engine, name: str, *, disabled: bool, actor: str, role: str | None, now: float
) -> StaffListing:
    """Disable staff account ``name`` (no sign-in; every session it has ends at once) or
    enable it again, as ``actor`` in ``role`` (None: the command line) at ``now``, written
    to the audit log (``staff.disable``, ``staff.enable``) in the same transaction; the
    account as it is now. Its entries in the audit log stay as they were.

    >>> from baccara.db.database import database_at
    >>> from baccara.db.migrate import upgrade
    >>> database = database_at("sqlite://")
    >>> _ = upgrade(database)
    >>> set_disabled(database, "olga", disabled=True, actor="cli", role=None, now=1.0)
    Traceback (most recent call last):
    ...
    baccara.db.staff.StaffError: no staff account 'olga'
    """
    with writing(database) as conn:
        found = find_staff(conn, name)
        before = found["disabled_at"]
        after = (before if before is not None else now) if disabled else None
        if after != before:
            conn.execute(users.update().where(users.c.id == found["id"]).values(disabled_at=after))
            if disabled:
                end_sessions(conn, int(found["id"]), now=now)
            audit.append(
                conn,
                actor=actor,
                role=role,
                action="staff.disable" if disabled else "staff.enable",
                target=str(found["name"]),
                before={"disabled_at": before},
                after={"disabled_at": after},
                now=now,
            )
    return StaffListing(
        name=str(found["name"]),
        role=Role(found["role"]),
        created_at=_aware(found["created_at"]),
        disabled_at=after,
    )


def list_staff(database: Engine) -> list[StaffListing]:
    """Every staff account, by name (players are not staff).

    >>> from baccara.db.database import database_at
    >>> from baccara.db.migrate import upgrade
    >>> database = database_at("sqlite://")
    >>> _ = upgrade(database)
    >>> list_staff(database)
    []
    """
    query = (
        sa.select(users.c.name, users.c.role, users.c.created_at, users.c.disabled_at)
        .where(users.c.role.is_not(None))
        .order_by(users.c.name_key, users.c.name)
    )
    with database.connect() as conn:
        return [
            StaffListing(name=name, role=Role(role), created_at=_aware(created), disabled_at=off)
            for name, role, created, off in conn.execute(query)
        ]


def _aware(moment: datetime) -> datetime:
    """A stored time in UTC (SQLite gives it back without its zone)."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)
