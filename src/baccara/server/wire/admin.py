"""The console's answers (``/api/admin/...``) and who a staff member is (``/api/me``,
``/api/login``), as pydantic models: ``/openapi.json`` documents them. Times are
seconds since the epoch.

>>> StaffAccount(name="olga", role=Role.OPERATOR).model_dump_json()
'{"name":"olga","role":"operator"}'
>>> page = AuditPage(entries=[], after=0, limit=100, next_after=None)
>>> page.model_dump()
{'entries': [], 'after': 0, 'limit': 100, 'next_after': None}
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, JsonValue

from baccara.db.staff import Role

__all__ = ["AuditPage", "AuditRecord", "StaffAccount"]


class _Answer(BaseModel):
    model_config = ConfigDict(extra="forbid")


class StaffAccount(_Answer):
    """A logged-in staff member: who, and the role (no wallet: no balance)."""

    name: str
    role: Role


class AuditRecord(_Answer):
    """One entry of the audit log (`baccara.db.audit`): who acted, in which role
    (null: the command line), what on what, the value before and after, when, and the
    chain's hashes (``prev_hash``: the entry before it's ``hash``)."""

    id: int
    at: float
    actor: str
    role: str | None
    action: str
    target: str
    before: JsonValue
    after: JsonValue
    prev_hash: str
    hash: str


class AuditPage(_Answer):
    """Entries of the audit log past ``after``, oldest first, at most ``limit``;
    ``next_after``: the ``after`` of the next page (null: none more now)."""

    entries: list[AuditRecord]
    after: int
    limit: int
    next_after: int | None
