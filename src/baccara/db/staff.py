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
from sqlalchemy.engine import Engine

from baccara.db.schema import users

__all__ = ["Role", "Staff", "StaffError", "StaffListing", "find_role", "list_staff"]


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
        sa.select(users.c.name, users.c.role, users.c.created_at)
        .where(users.c.role.is_not(None))
        .order_by(users.c.name_key, users.c.name)
    )
    with database.connect() as conn:
        return [
            StaffListing(name=name, role=Role(role), created_at=_aware(created))
            for name, role, created in conn.execute(query)
        ]


def _aware(moment: datetime) -> datetime:
    """A stored time in UTC (SQLite gives it back without its zone)."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)
