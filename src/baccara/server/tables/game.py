"""What the players' tables' runner (`baccara.server.tables.players`) needs of a game: the
engine's interface, where its money is, how long each part lasts.

>>> from baccara.skill.chemin import CheminTable
>>> table = CheminTable(names=("ann", "bob"), bankrolls=(5_000, 7_000), seed=1)
>>> money_state(table, 0)
{'ann': 5000, 'bob': 7000, '#pot': 0, '#house': 0}
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypedDict, TypeVar

from pydantic import JsonValue

from baccara.db.chips import HOUSE_KEY, POT
from baccara.fair import FairShoe
from baccara.server.tables.turns import Taken
from baccara.server.wire import protocol as P
from baccara.skill.actions import Action, Legal
from baccara.skill.banque_events import Phase as BanquePhase
from baccara.skill.chemin_events import Phase as CheminPhase
from baccara.skill.game_rules import RecordedTable
from baccara.skill.players import GameEvent

__all__ = [
    "BOT_BUY_IN",
    "Engine",
    "GameTable",
    "Labelled",
    "PlayersPhase",
    "PlayersTiming",
    "Recovered",
    "Shown",
    "money_state",
]

BOT_BUY_IN = 100_000
"""A bot's chips when it sits down (and again when it runs short)."""


class GameTable(RecordedTable, Protocol):
    """What the runner needs of a players' game engine (`CheminTable`, `BanqueTable`):
    what its record is made from, its turns (whether the shoe is over, the seat to act,
    the punter to stake), what each seat may do, and what each may read of an event
    (`PlayersTable.seen`)."""

    @property
    def over(self) -> bool: ...
    @property
    def actor(self) -> int | None: ...
    @property
    def to_act(self) -> int | None: ...
    def apply(self, action: Action) -> tuple[GameEvent, ...]: ...
    def seen(self, event: GameEvent, seat: int | None = None) -> str | None: ...
    def default_action(self) -> Action | None: ...
    def legal_actions(self, seat: int) -> tuple[Legal, ...]: ...
    @property
    def gone(self) -> set[int]: ...
    def can_leave(self, seat: int) -> bool: ...


Engine = TypeVar("Engine", bound=GameTable)
PlayersPhase = TypeVar("PlayersPhase", bound=CheminPhase | BanquePhase)
"""A players' game's `Phase`: one enum for its engine, its runner and the wire."""


def money_state(table: GameTable, pot: int) -> dict[str, int]:
    """Where a players' table's money is: each seat's chips, the ``pot`` on the felt (the
    bank and the stakes at risk) and the house's commission, keyed as
    `baccara.db.chips.Chips.record` posts it."""
    state = dict(zip(table.names, table.bankrolls, strict=True))
    return {**state, POT: pot, HOUSE_KEY: table.house}


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayersTiming:
    """How long each part lasts, in seconds."""

    decision_seconds: float = 20.0
    seed_seconds: float = 8.0  # between a shoe's commitment and its shuffle
    result_seconds: float = 3.0
    bot_seconds: float = 1.0  # how long a bot thinks


@dataclass(slots=True)
class Recovered:
    """What the database said at start-up (read on the writer thread, applied on the loop)."""

    players: list[str]
    notes: list[str] = field(default_factory=list)
    shoe: tuple[int, FairShoe, Any, list[Taken]] | None = None  # id, shoe, engine, decisions


class Labelled(TypedDict):
    """A view's choices and the words their buttons say."""

    choices: list[str]
    labels: dict[str, str]


class Shown(TypedDict, Generic[PlayersPhase]):
    """The fields every players' table shows (`P.PlayersState`)."""

    table: str
    seq: int
    time: float
    phase: PlayersPhase
    players: list[str]
    in_shoe: list[str]
    chips: dict[str, int] | None
    away: list[str]
    leaving: list[str]
    paused: bool
    to_act: str | None
    ranges: dict[str, list[int]]
    deadline: float | None
    shoe: int | None
    coup: int
    decision: int
    news: list[str]
    history: list[dict[str, JsonValue]]
    minimum: int
    fair: P.Commitment | None
