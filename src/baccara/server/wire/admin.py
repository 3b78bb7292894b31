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

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, JsonValue

from baccara.db.staff import Role
from baccara.db.table_list import TableState

__all__ = [
    "AdminTable",
    "AuditPage",
    "AuditRecord",
    "AuditVerdict",
    "LoginsAnswer",
    "LoginsRequest",
    "NewTable",
    "PlayStop",
    "StaffAccess",
    "StaffAccount",
    "StopsAnswer",
    "TableList",
    "TableSetupRequest",
    "VariantChoice",
    "VariantList",
]


class _Answer(BaseModel):
    model_config = ConfigDict(extra="forbid")


class _Asked(BaseModel):
    """A request's body: its fields as the model says, strictly (no ``true`` for a
    number), nothing else."""

    model_config = ConfigDict(extra="forbid", strict=True)


Seconds = Annotated[float, Field(gt=0, le=3600)]
"""A timing, in seconds: over 0, at most an hour."""
Amount = Annotated[str, Field(min_length=1, max_length=20, examples=["10.00"])]
"""An amount as people write it (``"10.00"``)."""


class AdminTable(_Answer):
    """A table of the list (`baccara.db.table_list`): its game, state and the house's
    limits (minor units) and timings (seconds); null: the server's configuration's.
    ``held``: why the table holds now, in the players' words (paused, or play stopped
    everywhere or at its game), null when it plays."""

    id: str
    variant: str
    game: str
    squeeze: bool
    state: TableState
    held: str | None
    minimum: int | None
    maximum: int | None
    bet_seconds: float | None
    decision_seconds: float | None
    result_seconds: float | None
    updated_at: float


class VariantChoice(_Answer):
    """A game a table may be opened with: its name as ``--tables`` takes it, its title,
    its game family and whether a table of it may squeeze (a house-banked game)."""

    name: str
    title: str
    game: str
    squeeze: bool


class VariantList(_Answer):
    """The games this server runs, in the registry's order."""

    variants: list[VariantChoice]


class TableList(_Answer):
    """Every table, closed ones too, by id; the scopes where play is stopped (``all``,
    game families)."""

    tables: list[AdminTable]
    stopped: list[str]


class NewTable(_Asked):
    """A table to open: its id and game, as ``--tables`` names them (``n1``, ``ez``),
    and whether it squeezes (a house-banked game's)."""

    id: str = Field(min_length=1, max_length=40, examples=["n1"])
    variant: str = Field(min_length=1, max_length=40, examples=["ez"])
    squeeze: bool = False


class TableSetupRequest(_Asked):
    """A table's limits and timings to change, from its next round: a field left out is
    left as it is, null puts back the server's configuration's. ``minimum`` and
    ``maximum``: a house table's Player and Banker bets (a players' table: its least
    buy-in and bank, ``minimum`` only, from its next shoe)."""

    minimum: Amount | None = None
    maximum: Amount | None = None
    bet_seconds: Seconds | None = None
    decision_seconds: Seconds | None = None
    result_seconds: Seconds | None = None


class PlayStop(_Asked):
    """Where play stops or goes on: ``all``, or a game family (``chemin-de-fer``)."""

    game: str = Field(default="all", min_length=1, max_length=40)


class StopsAnswer(_Answer):
    """The scopes where play is stopped now."""

    stopped: list[str]


class LoginsRequest(_Asked):
    """Stop a player's logins (the house's suspension: every session ends now, the
    round in play is settled as usual) or let them log in again."""

    stopped: bool


class LoginsAnswer(_Answer):
    """Whether the player's logins are stopped now."""

    name: str
    stopped: bool


class StaffAccount(_Answer):
    """A logged-in staff member: who, and the role (no wallet: no balance)."""

    name: str
    role: Role


class StaffAccess(_Answer):
    """The logged-in staff member, and the console's routes their role may call, each
    as ``"METHOD /path"`` with the route's own path template
    (``"POST /api/admin/tables/{table_id}/pause"``)."""

    name: str
    role: Role
    may: list[str]


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


class AuditVerdict(_Answer):
    """The audit log's chain walked from its first entry (`baccara.db.audit.verify`):
    how many entries were read, and the first broken one and why (null: it holds)."""

    count: int
    whole: bool
    broken: int | None
    reason: str | None


class AuditPage(_Answer):
    """Entries of the audit log past ``after``, oldest first, at most ``limit``;
    ``next_after``: the ``after`` of the next page (null: none more now)."""

    entries: list[AuditRecord]
    after: int
    limit: int
    next_after: int | None
