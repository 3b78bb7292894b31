"""The console's players and alerts (``/api/admin/players...``, ``/api/admin/alerts...``)
as pydantic models: ``/openapi.json`` documents them. Amounts are minor units, times
seconds since the epoch.

>>> NoteRequest.model_validate_json('{"text": "called the player"}').text
'called the player'
>>> SuspendRequest.model_validate_json('{"days": true}')
Traceback (most recent call last):
...
pydantic_core._pydantic_core.ValidationError: 1 validation error for SuspendRequest
days
  Input should be a valid number [type=float_type, input_value=True, input_type=bool]
    For further information visit https://errors.pydantic.dev/2.../v/float_type
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, JsonValue

from baccara.db.alerts import MAX_DAYS, Marker
from baccara.db.people import MAX_NOTE
from baccara.server.wire.http import DealStep, PeriodLimitAnswer

__all__ = [
    "AlertAnswer",
    "AlertList",
    "FoundPlayer",
    "LimitChangeAnswer",
    "NoteAnswer",
    "NoteRequest",
    "PlayerAnswer",
    "PlayerSearch",
    "PlayerStatusAnswer",
    "ReplayedBetAnswer",
    "ReplayedDecisionAnswer",
    "ReplayedRoundAnswer",
    "RoundsAnswer",
    "ScanAnswer",
    "ScanRequest",
    "SuspendRequest",
    "SuspensionAnswer",
]


class _Answer(BaseModel):
    model_config = ConfigDict(extra="forbid")


class _Asked(BaseModel):
    """A request's body: strictly its fields, nothing else."""

    model_config = ConfigDict(extra="forbid", strict=True)


class PlayerStatusAnswer(_Answer):
    """What stops the player now: the house's suspension (its end; ``logins_stopped``:
    one with no end) and their own exclusion (its end); null: none."""

    suspended_until: float | None
    excluded_until: float | None
    logins_stopped: bool


class FoundPlayer(_Answer):
    """A player a search found."""

    name: str
    created_at: float
    last_login_at: float | None
    status: PlayerStatusAnswer


class PlayerSearch(_Answer):
    """The players whose name holds ``q`` (those it begins first, then by name), past
    ``after``; ``next_after``: the ``after`` of the next page (null: no more)."""

    q: str
    players: list[FoundPlayer]
    next_after: str | None


class LimitChangeAnswer(_Answer):
    """One change to the player's protections: what (``loss``, ``deposit`` over
    ``days``; ``reminder`` in minutes as ``amount``; ``exclusion``, ``suspension`` to
    ``until``), the limit after it (a raise asked: ``next_amount`` from ``next_from``),
    when and by whom (the player, a staff member, ``cli``)."""

    id: int
    at: float
    actor: str
    kind: str
    days: int | None
    amount: int | None
    next_amount: int | None
    next_from: float | None
    until: float | None
    raised: bool


class NoteAnswer(_Answer):
    """A staff member's note on the player: who, in which role, when."""

    id: int
    at: float
    actor: str
    role: str | None
    text: str


class PlayerAnswer(_Answer):
    """A player's account: balance (the wallet), when made and last logged in, the
    status, the limits in force by kind (``loss``, ``deposit``) and period (``day``,
    ``week``, ``month``), the reminder, the history of changes from ``start`` to
    ``end`` (newest first) and the notes (newest first). The statement is
    ``/api/admin/players/{name}/movements``."""

    name: str
    created_at: float
    last_login_at: float | None
    balance: int
    status: PlayerStatusAnswer
    limits: dict[str, dict[str, PeriodLimitAnswer]]
    reminder_minutes: int | None
    start: float
    end: float
    history: list[LimitChangeAnswer]
    notes: list[NoteAnswer]


class ReplayedBetAnswer(_Answer):
    """One of the player's bets in the round and what came back (null: not settled)."""

    kind: str
    amount: int
    returned: int | None
    status: str


class ReplayedDecisionAnswer(_Answer):
    """A decision at a players' table, in order: the seat (-1: the house's rule), its
    player, the act, the amount, a Banque stake's tableau, whether the clock took it."""

    seq: int
    seat: int
    player: str | None
    action: str
    amount: int | None
    tableau: str | None
    timed_out: bool


class ReplayedRoundAnswer(_Answer):
    """A round the player took part in. ``house``: the coup (``P:… B:…``), its cards in
    deal order (P1 B1 P2 B2, then the Player's third, the Banker's), the croupier's
    steps and the player's bets; ``players``: the shoe, its seats and every decision in
    order. ``at``: when the player's money first moved in it."""

    kind: str
    table: str
    at: float
    round: int | None = None
    phase: str | None = None
    shoe_id: int | None = None
    coup_index: int | None = None
    coup: str | None = None
    cards: list[str] | None = None
    steps: list[DealStep] | None = None
    bets: list[ReplayedBetAnswer] | None = None
    seats: list[str] | None = None
    decisions: list[ReplayedDecisionAnswer] | None = None


class RoundsAnswer(_Answer):
    """The player's last rounds, newest first."""

    name: str
    rounds: list[ReplayedRoundAnswer]


class SuspendRequest(_Asked):
    """The house's suspension: for ``days`` (null or left out: until reinstated)."""

    days: float | None = Field(default=None, gt=0, le=36_500)


class SuspensionAnswer(_Answer):
    """The player's suspension now (null: none)."""

    name: str
    suspended_until: float | None


class NoteRequest(_Asked):
    """A note on the player (kept for good: notes are never changed)."""

    text: str = Field(min_length=1, max_length=MAX_NOTE)


class AlertAnswer(_Answer):
    """An alert: its marker, subject (a player, or a table for ``table_hold``), UTC
    day, summary, the rows that raised it, and its acknowledgement (null: open)."""

    id: int
    marker: Marker
    subject: str
    day: str
    raised_at: float
    summary: str
    evidence: list[dict[str, JsonValue]]
    acknowledged_at: float | None
    acknowledged_by: str | None


class AlertList(_Answer):
    """The alerts of the days ``first_day`` to ``last_day``, newest day first."""

    first_day: str
    last_day: str
    alerts: list[AlertAnswer]


class ScanRequest(_Asked):
    """The period to scan: whole UTC days from ``start`` to ``end`` (excluded: a date is
    its midnight), dates, ISO 8601 times or epoch seconds as the statement takes them;
    at most the days `baccara.db.alerts.MAX_DAYS` says."""

    start: str = Field(min_length=1, max_length=40, examples=["2026-11-01"])
    end: str = Field(min_length=1, max_length=40, examples=["2026-11-28"])


class ScanAnswer(_Answer):
    """The alerts the scan newly raised (those already stored are not repeated)."""

    raised: list[AlertAnswer]
    days: int = Field(le=MAX_DAYS)
