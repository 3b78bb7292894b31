"""The operator's console over HTTP (``/api/admin/...``): every route takes the
logged-in staff member from a dependency that checks the role it allows
(`baccara.server.http.depends.StaffMember`, `require_role`): anonymous 401, a player or
another role 403, another site's page 403, before the route reads anything.

``GET /api/admin/audit``: the audit log (`baccara.db.audit`), a page at a time
(``?after=ID&limit=N``: the entries past entry ``ID``, oldest first, 1 to
`baccara.db.audit.MAX_PAGE` of them), for every role.
"""

from __future__ import annotations

from functools import partial
from typing import Annotated

from fastapi import APIRouter, Query

from baccara.db import audit
from baccara.server.http.depends import StaffMember
from baccara.server.infra.edge import Refusal
from baccara.server.state import ServerState
from baccara.server.wire.admin import AuditPage, AuditRecord

__all__ = ["admin_router", "whole_number"]

DEFAULT_PAGE = 100


def whole_number(text: str, name: str, *, least: int, most: int) -> int:
    """``text`` as a whole number from ``least`` to ``most``, or a 400 `Refusal` naming
    ``name``.

    >>> whole_number("42", "limit", least=1, most=500)
    42
    >>> whole_number("-1", "after", least=0, most=10**12)
    Traceback (most recent call last):
    ...
    baccara.server.infra.edge.Refusal: 400 bad_request: after: a whole number from 0 to 1000000000000
    """
    if not (text.isascii() and text.isdigit() and len(text) <= len(str(most))):
        raise Refusal(400, "bad_request", f"{name}: a whole number from {least} to {most}")
    number = int(text)
    if not least <= number <= most:
        raise Refusal(400, "bad_request", f"{name}: a whole number from {least} to {most}")
    return number


def admin_router(state: ServerState) -> APIRouter:
    """The console's routes of the server whose state is ``state``."""
    router = APIRouter()
    engine = state.ledger.database

    @router.get("/api/admin/audit")
    async def audit_log(
        staff: StaffMember,
        after: Annotated[str, Query(description="the id of the last entry already read")] = "0",
        limit: Annotated[str, Query(description=f"how many entries, 1 to {audit.MAX_PAGE}")] = str(
            DEFAULT_PAGE
        ),
    ) -> AuditPage:
        """The audit log's entries past ``after``, oldest first (every role may read it)."""
        since = whole_number(after, "after", least=0, most=2**63 - 1)
        most = whole_number(limit, "limit", least=1, most=audit.MAX_PAGE)
        found = await state.run(partial(audit.entries, engine, after=since, limit=most))
        return AuditPage(
            entries=[
                AuditRecord(
                    id=e.id, at=e.at, actor=e.actor, role=e.role, action=e.action,
                    target=e.target, before=e.before, after=e.after, prev_hash=e.prev_hash,
                    hash=e.hash,
                )
                for e in found
            ],
            after=since,
            limit=most,
            next_after=found[-1].id if len(found) == most else None,
        )  # fmt: skip

    return router
