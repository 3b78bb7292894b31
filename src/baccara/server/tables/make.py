"""The server's tables in a registry (`TABLE_KINDS`): for each game family, the runner
that plays it, with the timings the configuration gives it, and the messages its table
takes. The hall (`baccara.server.cluster.hall`) makes its tables here (`make_runner`)
and speaks only to the `Runner` it gets; the dispatcher
(`baccara.server.tables.dispatch`) refuses at the edge a message a table does not take;
the published schema (`protocol_schema`, ``/api/protocol``) says what each takes.

The keys are the families of `baccara.variants`; a family no runner plays is refused in
one line (`table_kind`), and a new game registers its kind (`register_table_kind`). A
players' game registers the class of its part of the table (`players_kind`: a
`baccara.server.tables.game.PlayersGame`), which the one players' table,
`baccara.server.tables.players.PlayersRunner`, is given: no runner of its own.

>>> [(family.value, kind.message_types) for family, kind in TABLE_KINDS.items()]
[('punto-banco', ('bet', 'squeeze', 'seed')), ('chemin-de-fer', ('sit', 'leave', 'sit_out', 'act', 'seed')), ('banque', ('sit', 'leave', 'sit_out', 'act', 'seed'))]
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from types import UnionType
from typing import TypedDict

from pydantic import JsonValue

from baccara.server.infra.config import ServerConfig
from baccara.server.infra.services import TableServices
from baccara.server.tables.audience import Audience
from baccara.server.tables.banque import BanqueGame
from baccara.server.tables.chemin import CheminGame
from baccara.server.tables.contract import Runner, TableMessage
from baccara.server.tables.game import Engine, PlayersGame, PlayersPhase
from baccara.server.tables.house import HouseRunner, Timing
from baccara.server.tables.players import PlayersRunner, PlayersTiming
from baccara.server.wire import protocol as P
from baccara.variants import Family, Variant, require_family

__all__ = [
    "HOUSE_MESSAGES",
    "PLAYERS_MESSAGES",
    "TABLE_KINDS",
    "MakeRunner",
    "NewTable",
    "TableArgs",
    "TableKind",
    "make_runner",
    "players_kind",
    "protocol_schema",
    "register_table_kind",
    "table_kind",
]

HOUSE_MESSAGES = P.BetMessage | P.SqueezeMessage | P.SeedMessage
"""What a house-banked table takes: bets, a squeezer's peel, a seed for the next shoe."""
PLAYERS_MESSAGES = P.SitMessage | P.LeaveMessage | P.SitOutMessage | P.ActMessage | P.SeedMessage
"""What a players' table takes: sitting down and leaving, sitting out, a decision, a seed."""


class TableArgs(TypedDict):
    """What every table's runner is made with: its id, its game, its services, its
    shoe's decks (None: the game's) and its connections (kept on a takeover)."""

    table_id: str
    variant: Variant
    services: TableServices
    decks: int | None
    audience: Audience | None


@dataclass(frozen=True, slots=True, kw_only=True)
class NewTable:
    """A table to make: ``table`` (its id), a table of ``game``, as ``config`` sets it,
    given ``services``; whether it is a squeeze table; its connections (``audience``)."""

    table: str
    game: Variant
    config: ServerConfig
    services: TableServices
    squeeze: bool = False
    audience: Audience | None = None

    def args(self) -> TableArgs:
        """What every runner is made with (`TableArgs`)."""
        return TableArgs(
            table_id=self.table,
            variant=self.game,
            services=self.services,
            decks=self.config.decks,
            audience=self.audience,
        )


MakeRunner = Callable[[NewTable], Runner]
"""How a kind of table makes the runner of a `NewTable`."""


@dataclass(frozen=True, slots=True, kw_only=True)
class TableKind:
    """One game's table on the server: how to make its runner from its arguments
    (``runner``: a class, or the players' runner given its game), how the configuration
    makes one (``make``), and the messages it takes (``takes``: a union of the client's
    table messages, `TableMessage`)."""

    family: Family
    runner: Callable[..., Runner]
    make: MakeRunner
    takes: UnionType

    @property
    def message_types(self) -> tuple[str, ...]:
        """The ``type`` of every message the table takes (from ``takes``, its tags)."""
        return P.message_types(self.takes)

    def accepts(self, message: TableMessage) -> bool:
        """Whether the table takes ``message``."""
        return isinstance(message, self.takes)


TABLE_KINDS: dict[Family, TableKind] = {}
"""Every kind of table the server runs, by family, in registration order."""


def register_table_kind(kind: TableKind) -> TableKind:
    """Add ``kind`` to `TABLE_KINDS` under its family."""
    TABLE_KINDS[kind.family] = kind
    return kind


def table_kind(game: Variant) -> TableKind:
    """The kind of table that plays ``game``; `baccara.variants.FamilyError` in one line
    for a family the server does not play."""
    require_family(game, TABLE_KINDS, user="the server")
    return TABLE_KINDS[game.family]


def make_runner(
    table: str,
    game: Variant,
    config: ServerConfig,
    services: TableServices,
    *,
    squeeze: bool = False,
    audience: Audience | None = None,
) -> Runner:
    """The runner of ``table``, a table of ``game``, as ``config`` times it."""
    new = NewTable(
        table=table, game=game, config=config, services=services, squeeze=squeeze, audience=audience
    )
    return table_kind(game).make(new)


def protocol_schema() -> dict[str, dict[str, JsonValue]]:
    """The wire's JSON Schema (`baccara.server.wire.protocol.schema`) with, under
    ``tables``, the messages each kind of table takes: served at ``/api/protocol``."""
    return P.schema(tables={f.value: kind.takes for f, kind in TABLE_KINDS.items()})


def _house(new: NewTable) -> Runner:
    config = new.config
    timing = Timing(
        bet_seconds=config.bet_seconds,
        card_seconds=config.card_seconds,
        result_seconds=config.result_seconds,
        squeeze_seconds=config.squeeze_seconds,
        seat_grace_seconds=config.seat_grace_seconds,
    )
    return HouseRunner(**new.args(), timing=timing, squeeze=new.squeeze, behind=config.behind)


def players_kind(
    family: Family, game: Callable[[], PlayersGame[Engine, PlayersPhase]]
) -> TableKind:
    """The kind of table of a players' game: the one `PlayersRunner`, given ``game`` (the
    class of the game's part, `baccara.server.tables.game.PlayersGame`), timed by the
    configuration's decision, seed, result and bot clocks."""

    def make(new: NewTable) -> Runner:
        config = new.config
        timing = PlayersTiming(
            decision_seconds=config.decision_seconds,
            seed_seconds=config.seed_seconds,
            result_seconds=config.result_seconds,
            bot_seconds=config.bot_seconds,
        )
        return PlayersRunner(game=game, **new.args(), timing=timing, bots=config.bots)

    runner = partial(PlayersRunner, game=game)
    return TableKind(family=family, runner=runner, make=make, takes=PLAYERS_MESSAGES)


register_table_kind(
    TableKind(family=Family.PUNTO_BANCO, runner=HouseRunner, make=_house, takes=HOUSE_MESSAGES)
)
register_table_kind(players_kind(Family.CHEMIN_DE_FER, CheminGame))
register_table_kind(players_kind(Family.BANQUE, BanqueGame))
