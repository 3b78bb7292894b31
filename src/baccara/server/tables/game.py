"""What the players' table (`baccara.server.tables.players`) needs of a game: the
engine's interface (`GameTable`), the game's own part (`PlayersGame`: its pot, its state
and private messages, its bots and the house's moves), where its money is and how long
each part lasts.

A players' game online is one small object that keeps `PlayersGame` (Chemin de Fer's
`baccara.server.tables.chemin.CheminGame`, Banque's `baccara.server.tables.banque.BanqueGame`,
the tests' Top Card): the table is the one `PlayersRunner`, given the game's class
(`baccara.server.tables.make.players_kind` registers it by family).

>>> from baccara.skill.chemin import CheminTable
>>> table = CheminTable(names=("ann", "bob"), bankrolls=(5_000, 7_000), seed=1)
>>> money_state(table, 0)
{'ann': 5000, 'bob': 7000, '#pot': 0, '#house': 0}
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypedDict, TypeVar

from pydantic import BaseModel, JsonValue

from baccara.db.chips import HOUSE_KEY, POT
from baccara.fair import FairShoe
from baccara.server.tables.turns import Named, Taken
from baccara.server.wire import protocol as P
from baccara.skill.actions import Act, Action, Legal
from baccara.skill.banque_events import Phase as BanquePhase
from baccara.skill.chemin_events import Phase as CheminPhase
from baccara.skill.games import GameEngine
from baccara.skill.players import GameEvent, PlayersPhases

__all__ = [
    "BOT_BUY_IN",
    "Engine",
    "GameTable",
    "Labelled",
    "PlayersGame",
    "PlayersPhase",
    "PlayersTiming",
    "Recovered",
    "Shown",
    "labelled",
    "money_state",
]

BOT_BUY_IN = 100_000
"""A bot's chips when it sits down (and again when it runs short)."""


class GameTable(GameEngine, Protocol):
    """What the runner needs of a players' game engine (`CheminTable`, `BanqueTable`)
    beyond what the record and the replay need of it (`GameEngine`): the punter to stake,
    what each seat may do, and what each may read of an event (`PlayersTable.seen`)."""

    @property
    def to_act(self) -> int | None: ...
    def apply(self, action: Action) -> tuple[GameEvent, ...]: ...
    def seen(self, event: GameEvent, seat: int | None = None) -> str | None: ...
    def default_action(self) -> Action | None: ...
    def legal_actions(self, seat: int) -> tuple[Legal, ...]: ...
    @property
    def gone(self) -> set[int]: ...
    def can_leave(self, seat: int) -> bool: ...
    def in_play(self, seat: int) -> bool: ...


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


def labelled(choices: list[str], *more: str) -> Labelled:
    """``choices`` and the words their buttons (and ``more``'s) say, for a view.

    >>> labelled(["draw", "stand"])
    {'choices': ['draw', 'stand'], 'labels': {'draw': 'Draw', 'stand': 'Stand'}}
    """
    return {"choices": choices, "labels": {c: Act(c).label for c in (*choices, *more)}}


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
    house_paused: str | None
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


class PlayersGame(Protocol[Engine, PlayersPhase]):
    """A players' game's own part of its table online: one object a table, made by the
    game's class (`baccara.server.tables.players.PlayersRunner` is given the class and
    holds the object; the table does everything else: the seats, the shoes, the clock,
    the ledger, the broadcast).

    It answers, of the engine in play, what only the game knows: the money on its felt,
    the state everybody sees and each player's private message, what a bot does, and
    what the house does at once beyond the rule of every players' table (Banque: a
    banker who has left retires); the coups are the game registry's
    (`baccara.skill.records.table_coups`). Its phases are its ``Phase``'s
    (`PlayersPhases`); the engine's refusals are its ``errors``, each answered
    ``not_your_turn`` when another seat is to act, except for the acts in ``anytime``
    (a Banque bid, retiring), which are nobody's turn and answered ``not_allowed``.
    """

    @property
    def engine(self) -> type[Engine]:
        """The engine's class (`baccara.skill`), as the shoe's committed rules make it."""
        ...

    @property
    def phases(self) -> PlayersPhases[PlayersPhase]:
        """The game's shared phases (the table's before a shoe is dealt among them)."""
        ...

    @property
    def errors(self) -> tuple[type[Exception], ...]:
        """The engine's refusals (answered ``not_allowed`` or ``not_your_turn``)."""
        ...

    @property
    def anytime(self) -> frozenset[Act]:
        """The acts taken out of turn: refused as ``not_allowed``, never ``not_your_turn``."""
        ...

    def pot(self, table: Engine) -> int:
        """The money on the felt: the bank and the stakes still at risk."""
        ...

    def view(self, table: Engine | None, shown: Shown[PlayersPhase]) -> P.PlayersState:
        """The table as everybody sees it (``shown``: what every players' table shows;
        ``table``: the shoe in play, if any): no card face down, no card of the shoe."""
        ...

    def hands(self, table: Engine, table_id: str, due: Named) -> dict[str, BaseModel]:
        """Each player's private message now (their own cards, teaching's advice), naming
        the decision ``due``."""
        ...

    def bot_action(self, table: Engine, bots: frozenset[int], rng: random.Random) -> Action | None:
        """What a bot (one of the seats ``bots``) does now, if a bot has something to do;
        its choices drawn from ``rng``."""
        ...

    def house_action(self, table: Engine, absent: Callable[[str], bool]) -> Action | None:
        """What the house does at once for the game, asking nobody, given who is a person
        ``absent`` from the table (the rule of every table is the runner's)."""
        ...
