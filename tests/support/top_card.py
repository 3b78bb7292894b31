"""Top Card: a third players' game, registered from the tests only (`registered`), to
show that a new game touches the registries and its own files, and no front end.

Seat 0 holds the bank for the whole shoe; the other seats in turn stake against it
(from the least, 1 cent, to what both hold). The punter and the banker each take one
card from the shoe; the higher point value wins the stake, equal points push. The shoe
ends when it is finished, the banker is broke or nobody is left to punt.

Its parts: the engine (`TopCardTable`, the `baccara.skill.games.GameEngine` protocol),
its coups as a record holds them (`TopCardCoup`, `top_card_coups`), its part of a table
on the server (`TopCardGame`, a `baccara.server.tables.game.PlayersGame` with its own
state message, which the one players' table composes: no runner of its own), each
registered by family in `baccara.variants`, `baccara.skill.games` and
`baccara.server.tables.make`.

>>> with registered():
...     table = TopCardTable(names=("ann", "bob"), bankrolls=(1_000, 1_000), seed=1)
...     events = table.apply(Action(act=Act.STAKE, seat=1, amount=300))
...     [c.to_json()["cards"] for c in top_card_coups(table.log)] == [events[0].notation]
True
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import Any, Literal

from pydantic import BaseModel

from baccara.cards import Card, parse_cards
from baccara.coup import Result
from baccara.fair import FairError
from baccara.money import format_money
from baccara.server.tables.game import Shown, labelled
from baccara.server.tables.make import (
    PLAYERS_MESSAGES,
    TABLE_KINDS,
    players_kind,
    register_table_kind,
)
from baccara.server.tables.turns import Named
from baccara.server.wire import protocol as P
from baccara.shoe import Shoe, ShoeSettings
from baccara.skill.actions import SEAT_ACTS, Act, Action, Legal
from baccara.skill.game_rules import GameRules, Seating
from baccara.skill.games import GAMES, PlayersGame, register_game
from baccara.skill.players import GameEvent, PlayersPhases, public_text
from baccara.variants import (
    _ALIASES,
    FAMILIES,
    VARIANTS,
    Banking,
    Drawing,
    Family,
    Variant,
    find_variant,
    register_family,
    register_variant,
)

__all__ = [
    "TOP_CARD",
    "TopCardCoup",
    "TopCardGame",
    "TopCardState",
    "TopCardTable",
    "registered",
    "top_card_coups",
]

TOP_CARD = Family(
    "top-card", label="Top Card", drawing=Drawing.BANKER_FREE, banking=Banking.PLAYERS
)
"""The test game's family (registered only inside `registered`)."""
VARIANT = Variant(
    name="top-card",
    title="Top Card",
    description="One card each, the higher point value wins; the bank stays with seat 0.",
    family=TOP_CARD,
    banker_pays=Fraction(1),
    decks=1,
    seats=6,
    side_bets=(),
)


class TopCardError(ValueError):
    """An action Top Card's rules do not allow now."""


class Phase(StrEnum):
    """One enum for the engine, its table online and the wire (the first three are the
    online table's, before a shoe is dealt)."""

    STARTING = "starting"
    SHUFFLE = "shuffle"
    WAITING = "waiting"
    STAKES = "stakes"  # the punter to act stakes: his card and the banker's are dealt
    PUNTER = "punter"  # a players' game's punter choosing on 5: never in Top Card
    OVER = "over"


PHASES = PlayersPhases.of(Phase)


@dataclass(frozen=True, slots=True, kw_only=True)
class CoupPlayed(GameEvent):
    seat: int
    stake: int
    punter_card: Card
    banker_card: Card
    result: Result

    @property
    def notation(self) -> str:
        return f"P:{self.punter_card} B:{self.banker_card}"


@dataclass(frozen=True, slots=True, kw_only=True)
class TopCardCoup:
    """One coup as a record holds it: the punter's seat and stake, both cards, the result."""

    punter: int
    stake: int
    punter_card: Card
    banker_card: Card
    result: str

    @property
    def notation(self) -> str:
        return f"P:{self.punter_card} B:{self.banker_card}"

    @property
    def dealt(self) -> int:
        return 2

    def to_json(self) -> dict[str, Any]:
        return {
            "cards": self.notation,
            "punter": self.punter,
            "stake": self.stake,
            "result": self.result,
        }

    @classmethod
    def from_json(cls, data: object) -> TopCardCoup:
        if not isinstance(data, dict):
            raise FairError(f"bad coup {data!r}: expected an object")
        punter, banker = (parse_cards(part[2:])[0] for part in str(data["cards"]).split())
        return cls(
            punter=int(data["punter"]),
            stake=int(data["stake"]),
            punter_card=punter,
            banker_card=banker,
            result=str(data["result"]),
        )


def top_card_coups(events: Sequence[Any]) -> list[TopCardCoup]:
    """The coups in a Top Card table's log."""
    return [
        TopCardCoup(
            punter=e.seat,
            stake=e.stake,
            punter_card=e.punter_card,
            banker_card=e.banker_card,
            result=e.result.value,
        )
        for e in events
        if isinstance(e, CoupPlayed)
    ]


class TopCardTable:
    """The engine: what `baccara.skill.games.GameEngine` and the players' runner ask."""

    def __init__(
        self,
        *,
        names: Sequence[str],
        bankrolls: Sequence[int],
        variant: Variant | None = None,
        shoe: Shoe | None = None,
        seed: int | None = None,
        minimum: int = 100,
    ) -> None:
        self.variant = variant or find_variant("top-card")
        self.names = tuple(names)
        self.bankrolls = list(bankrolls)
        self.chips_at_start = tuple(bankrolls)
        self.minimum = minimum
        self.shoe = shoe or Shoe.shuffled(ShoeSettings(decks=1, burn=False), seed=seed)
        self.house = 0
        self.log: list[GameEvent] = []
        self.actions: list[Action] = []
        self.gone: set[int] = set()
        self.punter: int | None = 0
        self.phase = Phase.STAKES
        self._next_punter()

    def _next_punter(self) -> None:
        """The next punter after the last (seats 1, 2, ... in turn), or the shoe's end."""
        seats, last = len(self.names), self.punter or 0
        order = [(last + i - 1) % (seats - 1) + 1 for i in range(1, seats)]
        able = [s for s in order if s not in self.gone and self.bankrolls[s] > 0]
        broke = self.bankrolls[0] <= 0 or 0 in self.gone
        if broke or not able or self.shoe.finished:
            self.phase, self.punter = Phase.OVER, None
        else:
            self.punter = able[0]

    @property
    def actor(self) -> int | None:
        return self.punter if self.phase is Phase.STAKES else None

    @property
    def to_act(self) -> int | None:
        """The punter whose turn it is to stake."""
        return self.actor

    @property
    def over(self) -> bool:
        return self.phase is Phase.OVER

    def legal_actions(self, seat: int) -> tuple[Legal, ...]:
        if seat != self.actor:
            return ()
        return (Legal(act=Act.STAKE, seat=seat, low=1, high=self._most(seat)),)

    def _most(self, seat: int) -> int:
        return min(self.bankrolls[seat], self.bankrolls[0])

    def default_action(self) -> Action | None:
        seat = self.actor
        if seat is None:
            return None
        return Action(act=Act.STAKE, seat=seat, amount=1, reason="the least stake")

    def seen(self, event: GameEvent, seat: int | None = None) -> str | None:
        """Every card is dealt face up: everybody reads every event's words."""
        return event.public

    def can_leave(self, seat: int) -> bool:
        return seat not in self.gone and self.phase is not Phase.OVER

    def in_play(self, seat: int) -> bool:
        """Nothing stays in play between two decisions: each stake is settled at once."""
        return False

    def apply(self, action: Action) -> tuple[GameEvent, ...]:
        seat = action.seat
        if seat is None or not 0 <= seat < len(self.names):
            raise TopCardError(f"no seat {seat}")
        if action.act in SEAT_ACTS:
            events = self._seat_act(action.act, seat, action.amount)
        elif action.act is Act.STAKE and seat == self.actor:
            events = self._stake(seat, action.amount)
        else:
            raise TopCardError(f"{action.act.value} is not {self.names[seat]}'s to do now")
        self.actions.append(action)
        self.log.extend(events)
        return events

    def _stake(self, seat: int, amount: int) -> tuple[GameEvent, ...]:
        if not 1 <= amount <= self._most(seat):
            raise TopCardError(f"bad stake {format_money(amount)}")
        punter, banker = self.shoe.draw(), self.shoe.draw()
        if punter.points == banker.points:
            result = Result.TIE
        else:
            result = Result.PLAYER if punter.points > banker.points else Result.BANKER
        if result is not Result.TIE:
            won = amount if result is Result.PLAYER else -amount
            self.bankrolls[seat] += won
            self.bankrolls[0] -= won
        text = f"{self.names[seat]} stakes {format_money(amount)}: {punter} against {banker}."
        event = CoupPlayed(
            **public_text(text),
            seat=seat,
            stake=amount,
            punter_card=punter,
            banker_card=banker,
            result=result,
        )
        self._next_punter()
        return (event,)

    def _seat_act(self, act: Act, seat: int, amount: int) -> tuple[GameEvent, ...]:
        if not self.can_leave(seat):
            raise TopCardError(f"{self.names[seat]} cannot {act.value} now")
        if act is Act.ADD_CHIPS:
            self.bankrolls[seat] += amount
            return (GameEvent(**public_text(f"{self.names[seat]} adds {format_money(amount)}.")),)
        self.gone.add(seat)
        self.bankrolls[seat] = 0
        if seat == self.punter or seat == 0:
            self._next_punter()
        return (GameEvent(**public_text(f"{self.names[seat]} leaves the table.")),)


def _from_rules(game: GameRules, seating: Seating, shoe: Shoe) -> TopCardTable:
    return TopCardTable(
        names=seating.names,
        bankrolls=seating.chips,
        variant=game.variant,
        shoe=shoe,
        minimum=seating.minimum,
    )


class TopCardState(P.PlayersState):
    """A Top Card table as everybody sees it (its own message: no front end knows it)."""

    type: Literal["top_card"] = "top_card"
    phase: Phase


class TopCardGame:
    """Top Card's part of a table on the server: all the rest is the players' table's."""

    engine = TopCardTable
    phases = PHASES
    errors = (TopCardError,)
    anytime: frozenset[Act] = frozenset()

    def pot(self, table: TopCardTable) -> int:
        return 0  # a coup is settled as it is staked

    def view(self, table: TopCardTable | None, shown: Shown[Any]) -> TopCardState:
        choices = [] if table is None or table.actor is None else ["stake"]
        banker = None if table is None else table.names[0]
        return TopCardState(**shown, banker=banker, bank=0, **labelled(choices))

    def hands(self, table: TopCardTable, table_id: str, due: Named) -> dict[str, BaseModel]:
        return {}  # every card is dealt face up

    def bot_action(
        self, table: TopCardTable, bots: frozenset[int], rng: random.Random
    ) -> Action | None:
        return None

    def house_action(self, table: TopCardTable, absent: Callable[[str], bool]) -> Action | None:
        return None


@contextlib.contextmanager
def registered() -> Iterator[Family]:
    """Top Card in every registry while the block runs (its family, variant, game and
    table kind), none of it after."""
    register_family(TOP_CARD)
    register_variant(VARIANT)
    register_game(
        PlayersGame(
            family=TOP_CARD,
            engine=TopCardTable,
            table=_from_rules,
            burn=False,
            house_tableau=False,
            coups=top_card_coups,
            read_coup=TopCardCoup.from_json,
        )
    )
    kind = players_kind(TOP_CARD, TopCardGame)
    assert kind.takes == PLAYERS_MESSAGES
    register_table_kind(kind)
    try:
        yield TOP_CARD
    finally:
        TABLE_KINDS.pop(TOP_CARD, None)
        GAMES.pop(TOP_CARD, None)
        VARIANTS.pop(VARIANT.name, None)
        _ALIASES.pop("topcard", None)
        FAMILIES.pop(TOP_CARD.value, None)
