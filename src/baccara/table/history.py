"""History as a value: a table's history saves to JSON and replays to the same state.

A `TableHistory` holds the variant, the house settings, the seed, every shoe's card
order (None for a manual shoe) and every event. `replay` runs the actions again
on a fresh table and checks that each one gives the recorded event.

>>> from baccara.bets import BetKind
>>> from baccara.table.engine import Table
>>> table = Table(seed=3)
>>> _ = table.change_shoe(), table.seat(player="ann", stack=50000)
>>> _ = table.place_bet(1, BetKind.PLAYER, 1000), table.deal(), table.settle()
>>> history = TableHistory.of(table)
>>> again = replay(TableHistory.from_json(history.to_json()))
>>> state(again) == state(table)
True
"""

from __future__ import annotations

import json
import types
import typing
from dataclasses import dataclass, fields, is_dataclass, replace
from enum import Enum
from pathlib import Path
from typing import Any

from baccara.cards import Card, parse_cards
from baccara.coup import Coup
from baccara.shoe import Shoe
from baccara.table.engine import Table
from baccara.table.events import (
    BetCancelled,
    BetPlaced,
    CoupDealt,
    CoupSettled,
    Event,
    SeatLeft,
    SeatTaken,
    ShoeChanged,
    TableError,
    TableSettings,
)
from baccara.variants import Variant, find_variant

__all__ = [
    "EVENT_TYPES",
    "FORMAT",
    "ReplayError",
    "TableHistory",
    "apply",
    "decode",
    "encode",
    "event_from_json",
    "event_to_json",
    "replay",
    "state",
]

FORMAT = "baccara-table/1"

EVENT_TYPES: dict[str, type[Any]] = {
    "seat_taken": SeatTaken,
    "seat_left": SeatLeft,
    "bet_placed": BetPlaced,
    "bet_cancelled": BetCancelled,
    "shoe_changed": ShoeChanged,
    "coup_dealt": CoupDealt,
    "coup_settled": CoupSettled,
}
"""The JSON ``type`` of each event."""
_TYPE_NAMES = {cls: name for name, cls in EVENT_TYPES.items()}


class ReplayError(ValueError):
    """A history that does not replay to the events it holds."""


# -- JSON codec ---------------------------------------------------------------------------


def encode(value: Any) -> Any:
    """A plain JSON value: cards and coups as notation, enums as their value.

    >>> from baccara.bets import BetKind
    >>> encode(Coup.parse("P:9h,Kd B:5s,Qc")), encode(BetKind.TIE)
    ('P:9h,Kd B:5s,Qc', 'tie')
    """
    if isinstance(value, Coup):
        return value.notation()
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, Enum):
        return value.value
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: encode(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, tuple | list):
        if value and all(isinstance(v, Card) for v in value):
            return ",".join(str(v) for v in value)
        return [encode(v) for v in value]
    return value


def decode(kind: Any, data: Any) -> Any:
    """Rebuild a value of type ``kind`` from what `encode` gave."""
    origin = typing.get_origin(kind)
    if origin in (typing.Union, types.UnionType):
        options = [a for a in typing.get_args(kind) if a is not type(None)]
        if data is None:
            return None
        return decode(options[0], data)
    if origin is tuple:
        item = typing.get_args(kind)[0]
        if item is Card:
            return parse_cards(data) if data else ()
        return tuple(decode(item, v) for v in data)
    if kind is Coup:
        return Coup.parse(data)
    if isinstance(kind, type) and issubclass(kind, Enum):
        return kind(data)
    if isinstance(kind, type) and is_dataclass(kind):
        hints = typing.get_type_hints(kind)
        return kind(
            **{f.name: decode(hints[f.name], data[f.name]) for f in fields(kind) if f.name in data}
        )
    return data


def event_to_json(event: Event) -> dict[str, Any]:
    """One event as a JSON object with its ``type``.

    >>> from baccara.bets import BetKind
    >>> event_to_json(BetPlaced(seat=1, kind=BetKind.TIE, amount=500, total=500))
    {'type': 'bet_placed', 'seat': 1, 'kind': 'tie', 'amount': 500, 'total': 500}
    """
    data = encode(event)
    return {"type": _TYPE_NAMES[type(event)], **data}


def event_from_json(data: dict[str, Any]) -> Event:
    """The event `event_to_json` wrote."""
    kind = EVENT_TYPES.get(data.get("type", ""))
    if kind is None:
        raise ReplayError(f"unknown event type {data.get('type')!r}")
    body = {k: v for k, v in data.items() if k != "type"}
    event: Event = decode(kind, body)
    return event


# -- the history -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class TableHistory:
    """Everything needed to rebuild a table: set-up, shoes and events."""

    variant: Variant
    settings: TableSettings
    seed: int | None
    house: int
    shoes: tuple[tuple[Card, ...] | None, ...]
    events: tuple[Event, ...]

    @classmethod
    def of(cls, table: Table) -> TableHistory:
        """The history of ``table`` as it stands."""
        return cls(
            variant=table.variant,
            settings=table.settings,
            seed=table.seed,
            house=table.house_start,
            shoes=tuple(table.shoes),
            events=tuple(table.log),
        )

    def to_json(self) -> dict[str, Any]:
        """The history as one JSON object (variant by name; a changed variant is refused)."""
        if find_variant(self.variant.name) != self.variant:
            raise ReplayError(f"variant {self.variant.name!r} differs from the registry's")
        return {
            "format": FORMAT,
            "variant": self.variant.name,
            # the saved key stays "rules" (the format old histories use); it holds the settings
            "rules": encode(self.settings),
            "seed": self.seed,
            "house": self.house,
            "shoes": [None if s is None else encode(s) for s in self.shoes],
            "events": [event_to_json(e) for e in self.events],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TableHistory:
        """The history `to_json` wrote."""
        if data.get("format") != FORMAT:
            raise ReplayError(f"not a table history: format {data.get('format')!r}, want {FORMAT}")
        return cls(
            variant=find_variant(data["variant"]),
            settings=decode(TableSettings, data["rules"]),  # saved as "rules"
            seed=data["seed"],
            house=data["house"],
            shoes=tuple(None if s is None else parse_cards(s) for s in data["shoes"]),
            events=tuple(event_from_json(e) for e in data["events"]),
        )

    def save(self, path: str | Path) -> None:
        """Write the history to a JSON file."""
        Path(path).write_text(json.dumps(self.to_json(), indent=1) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path) -> TableHistory:
        """Read a history written by `save`."""
        return cls.from_json(json.loads(Path(path).read_text(encoding="utf-8")))


# -- replay ----------------------------------------------------------------------------------


def apply(table: Table, event: Event, shoes: tuple[tuple[Card, ...] | None, ...]) -> Event:
    """Run the action that gave ``event`` on ``table``; check that it gives it again."""
    again: Event
    match event:
        case SeatTaken():
            again = table.seat(
                event.seat,
                player=event.player,
                stack=event.stack,
                strategy=event.strategy,
                wallet=event.wallet,
                behind=event.behind,
            )
        case SeatLeft():
            again = table.leave(event.seat)
        case BetPlaced():
            again = table.place_bet(event.seat, event.kind, event.amount)
        case BetCancelled():
            again = table.cancel_bet(event.seat, event.kind, event.amount)
        case ShoeChanged():
            if event.shoe - 1 >= len(shoes):
                raise ReplayError(f"shoe {event.shoe} is not in the history")
            cards = shoes[event.shoe - 1]
            if event.pending:
                again = table.change_shoe(pending=True)
            elif event.seed is not None and event.seed == table.seed:
                seeded = Shoe.shuffled(table.settings.shoe, seed=table.seed, index=len(table.shoes))
                if seeded.cards == cards:
                    again = table.change_shoe()  # the seed series gives the same cards again
                elif cards is None:
                    raise ReplayError(f"shoe {event.shoe} has no cards in the history")
                else:  # recorded before the one shuffle (2026-11): the history's cards rule
                    again = replace(table.change_shoe(cards), seed=event.seed)
            else:
                again = table.change_shoe(cards, manual=cards is None)
        case CoupDealt():
            again = table.deal(None if table.shoe is not None else event.coup.deal_order())
        case CoupSettled():
            again = table.settle()
    if again != event:
        raise ReplayError(f"replay diverged: recorded {event!r}, replayed {again!r}")
    return again


def replay(history: TableHistory) -> Table:
    """A new table with every event of ``history`` played again, in order.

    Raises `ReplayError` if an action gives another event than the recorded one.
    """
    table = Table(
        variant=history.variant, settings=history.settings, seed=history.seed, house=history.house
    )
    for event in history.events:
        try:
            apply(table, event, history.shoes)
        except TableError as error:
            raise ReplayError(f"replay failed at {event!r}: {error}") from None
    if len(table.shoes) != len(history.shoes):
        raise ReplayError("the history holds shoes that no event brought to the table")
    return table


def state(table: Table) -> dict[str, Any]:
    """The table's whole visible state as plain data (to compare two tables)."""
    return {
        "variant": table.variant.name,
        "phase": table.phase.value,
        "house": table.house,
        "chips": table.chips,
        "shoe": table.shoe_number,
        "position": None if table.shoe is None else table.shoe.position,
        "coups": [c.notation() for c in table.coups],
        "current": None if table.current is None else table.current.notation(),
        "seats": [encode(s) for s in table.seats],
        "log": [event_to_json(e) for e in table.log],
        "roads": table.roads.to_json(),
    }
