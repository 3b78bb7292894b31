"""The HTTP answers: a pydantic model for every JSON body the API sends (refusals are
`baccara.server.wire.protocol.Problem`), so ``/openapi.json`` documents the whole API. The
routes build their answers from these models and send them unchanged; the WebSocket's
messages are in `baccara.server.wire.protocol`. Amounts are integer minor units (cents),
times seconds since the epoch.

>>> Health(ok=True, tables=["t1"], process=None).model_dump()
{'ok': True, 'tables': ['t1'], 'process': None}
>>> DrillRecord(asked=3, missed=1, most_missed=["Player on 5"]).model_dump_json()
'{"asked":3,"missed":1,"most_missed":["Player on 5"]}'
"""

from __future__ import annotations

from typing import Annotated, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, JsonValue

from baccara.server.wire.protocol import BanqueState, CheminState, Snapshot

__all__ = [
    "EXCLUSION_DAYS",
    "REMINDER_MINUTES",
    "BookBet",
    "BookTerm",
    "DealStep",
    "Decision",
    "Done",
    "DrillQuestion",
    "DrillRecord",
    "Edges",
    "ExclusionDays",
    "Faq",
    "Graded",
    "Health",
    "LearnBook",
    "LimitChoices",
    "LimitsAnswer",
    "Movement",
    "MyRecords",
    "PayoutQuestion",
    "PeriodLimitAnswer",
    "PlayedBet",
    "PlayedRound",
    "Progress",
    "ProtocolSchema",
    "ReminderMinutes",
    "SessionTally",
    "ShoeDrill",
    "ShoeLink",
    "ShoeRecord",
    "ShoeStep",
    "TableView",
    "TableauAnswer",
    "TableauQuestion",
    "TermAnswer",
    "VariantPage",
]


class _Answer(BaseModel):
    model_config = ConfigDict(extra="forbid")


# -- the house ------------------------------------------------------------------------------


class Health(_Answer):
    """``/api/health``: alive, the tables this process runs, its name in the cluster."""

    ok: bool
    tables: list[str]
    process: str | None


class Done(_Answer):
    """An account action done (``/api/logout``, ``/api/me/password``)."""

    ok: Literal[True]


class ProtocolSchema(_Answer):
    """``/api/protocol``: the JSON Schema of every WebSocket message, each way, and of
    the messages each kind of table takes (by game family)."""

    client: dict[str, JsonValue]
    server: dict[str, JsonValue]
    tables: dict[str, JsonValue]


TableView = Annotated[Snapshot | CheminState | BanqueState, Field(discriminator="type")]
"""``/api/tables/{id}``: a house table's snapshot, or a players' table's state."""


class Edges(_Answer):
    """``/api/tables/{id}/edges``: each bet's exact house edge (a fraction of the stake)
    for the cards this shoe has not yet shown (``left``, after ``coups`` coups)."""

    coups: int
    left: int
    edges: dict[str, float]


class ShoeRecord(BaseModel):
    """``/api/tables/{id}/shoes``: a finished shoe's record for ``baccara verify``, its
    seed revealed. Version 1 (a house table) lists its coups in notation (and says why,
    ``retired``, when the house stopped it early); version 3 (a players' game) also has
    the seating, every action and the chips at the end (`baccara.skill.records`)."""

    model_config = ConfigDict(extra="allow")
    version: int
    server_seed: str
    server_seed_hash: str
    rules: dict[str, JsonValue]
    rules_hash: str
    client_seeds: list[str]
    coups: list[JsonValue]


# -- the player's own (/api/me/...) ---------------------------------------------------------

ExclusionDays = Literal[1, 7, 30, 182, 365]
ReminderMinutes = Literal[15, 30, 60, 120]
EXCLUSION_DAYS: tuple[ExclusionDays, ...] = get_args(ExclusionDays)
REMINDER_MINUTES: tuple[ReminderMinutes, ...] = get_args(ReminderMinutes)


class LimitChoices(_Answer):
    """What the page offers: the exclusions, the reminders, and how long a raised or
    removed loss limit waits."""

    exclusion_days: list[ExclusionDays]
    reminder_minutes: list[ReminderMinutes]
    raise_after_hours: float


class PeriodLimitAnswer(_Answer):
    """A limit over a period as it stands (null: none), and a raise or removal asked
    (``next_amount``, in force from ``next_from``)."""

    amount: int | None
    next_amount: int | None
    next_from: float | None


class LimitsAnswer(_Answer):
    """``/api/me/limits``, ``/api/me/exclusion``: the player's limits as they stand (a
    raise or a removal waits: ``next_...``) and since when this session runs; the loss
    limits over 7 days (``loss_week``) and 30 days (``loss_month``) beside the daily one."""

    loss_limit: int | None
    next_loss_limit: int | None
    next_from: float | None
    loss_week: PeriodLimitAnswer
    loss_month: PeriodLimitAnswer
    reminder_minutes: int | None
    excluded_until: float | None
    session_since: float | None
    choices: LimitChoices


class Movement(_Answer):
    """A movement of the wallet, with its table and round if it has them."""

    id: int
    time: float
    memo: str
    what: str
    amount: int
    table: str | None
    round: int | None


class PlayedBet(_Answer):
    """One of the player's bets in a round, and what came back (None: not settled)."""

    kind: str
    amount: int
    returned: int | None
    status: str
    label: str


class DealStep(_Answer):
    """One step of a coup's deal: the words, the tableau's rule, the hands so far."""

    words: str
    reason: str
    player: list[str]
    banker: list[str]


class PlayedRound(_Answer):
    """A round the player bet on: the coup step by step and the player's bets."""

    table: str
    round: int
    phase: str  # the round in the database: open, closed, settled or voided
    coup: str | None
    bets: list[PlayedBet]
    steps: list[DealStep]


class SessionTally(_Answer):
    """This session's bets (since ``since``): staked, back, and the difference."""

    bets: int
    staked: int
    returned: int
    net: int
    since: float


class ShoeLink(_Answer):
    """Where a table's shoe records are."""

    table: str
    url: str


class MyRecords(_Answer):
    """``/api/me/records``."""

    movements: list[Movement]
    rounds: list[PlayedRound]
    session: SessionTally
    shoes: list[ShoeLink]


# -- the Learn section (/api/learn/...) ------------------------------------------------------


class BookTerm(_Answer):
    """A term of the dictionary: what it means, its other names, the terms to see."""

    name: str
    text: str
    also: list[str]
    see: list[str]


TermAnswer = BookTerm
"""``/api/learn/terms/{name}``."""


class Faq(_Answer):
    q: str
    a: str


class BookBet(_Answer):
    """A bet of a variant's pay table, with its house edge (``'1.06%'``)."""

    kind: str
    label: str
    pays: str
    edge: str
    main: bool


class VariantPage(_Answer):
    """A variant's page: a house game's pay table (``bets``), or a players' game's
    equilibrium in words (``solver``)."""

    name: str
    title: str
    family: str
    description: str
    decks: int
    seats: int
    bets: list[BookBet] | None = None
    solver: str | None = None


class LearnBook(_Answer):
    """``/api/learn``: the lessons, the dictionary, the FAQs, the tips and every
    variant's page (`baccara.learn.book.learn_book`)."""

    ranks: list[str]
    how_it_works: list[str]
    tableau: list[str]
    history: list[str]
    terms: list[BookTerm]
    faqs: list[Faq]
    tips: list[str]
    variants: list[VariantPage]


class Decision(_Answer):
    draws: bool
    reason: str


class TableauAnswer(_Answer):
    """``/api/learn/tableau``: each side's decision and its reason (the Banker's None
    while the Player's third card is not given)."""

    player_total: int
    banker_total: int
    player: Decision
    banker: Decision | None


class ShoeStep(_Answer):
    """A coup of the shoe trainer, and the edges of the cards left after it."""

    coup: str
    winner: str
    totals: list[int]
    left: int
    edges: dict[str, float]


class ShoeDrill(_Answer):
    """``/api/learn/drills/shoe``: a seeded shoe dealt up to a coup, with the edges."""

    seed: int
    decks: int
    coups: int
    start: dict[str, float]
    steps: list[ShoeStep]


class TableauQuestion(_Answer):
    """Does ``side`` draw? (`baccara.learn.drills.TableauQuestion`)"""

    cell: str
    seed: int
    side: Literal["player", "banker"]
    player: list[str]
    banker: list[str]
    third: str | None
    prompt: str


class PayoutQuestion(_Answer):
    """What goes back to the bettor? (`baccara.learn.drills.PayoutQuestion`)"""

    cell: str
    seed: int
    variant: str
    title: str
    kind: str
    label: str
    pays: str
    stake: int
    coup: str
    announcement: str
    prompt: str


DrillQuestion = TableauQuestion | PayoutQuestion
"""``GET /api/learn/drills/{drill}``: the next question of a drill."""


class DrillRecord(_Answer):
    """A drill's record: asked, missed, the cells missed most (in words)."""

    asked: int
    missed: int
    most_missed: list[str]


class Graded(_Answer):
    """``POST /api/learn/drills/{drill}``: the answer graded, and why."""

    correct: bool
    expected: str
    why: str
    record: DrillRecord


class Progress(_Answer):
    """``/api/learn/progress``: the player's record at each drill."""

    tableau: DrillRecord
    payout: DrillRecord
