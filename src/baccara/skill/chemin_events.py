"""The vocabulary of a Chemin de Fer table (`baccara.skill.chemin`): its phases, its error,
and its events, immutable, with their words.

Each action of `CheminTable` returns the events it caused and appends them to its log;
``text`` says each one for people, with amounts as money (`baccara.money`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

from baccara.cards import Card
from baccara.coup import Result
from baccara.skill.players import GameError, GameEvent, Observation, PlayersPhases

__all__ = [
    "PHASES",
    "BancoCalled",
    "BankOpened",
    "BankPassed",
    "BankerDecided",
    "CheminError",
    "CheminEvent",
    "CheminObservation",
    "CoupSettled",
    "Dealt",
    "NaturalShown",
    "Phase",
    "PunterDecided",
    "StakePlaced",
]


class CheminError(GameError):
    """An action the table's rules do not allow now."""


class Phase(StrEnum):
    """Where the table is; the value is its name. One enum for the engine, the table
    online and the wire: the first three are the online table's, before a shoe is dealt
    (the engine never takes them)."""

    STARTING = "starting"  # the table opens
    SHUFFLE = "shuffle"  # a shoe is committed: the seated players send their seeds
    WAITING = "waiting"  # for players: two, one of them a person
    BANK = "bank"  # the seat holding the shoe sets the bank (or declines it)
    STAKES = "stakes"  # the punters cover the bank in turn, or call banco
    PUNTER = "punter"  # the punter chooses on 5
    BANKER = "banker"  # the banker chooses in a free cell
    AFTER = "after"  # the banker won: he keeps the bank or passes it
    OVER = "over"  # the shoe is finished


PHASES = PlayersPhases.of(Phase)
"""The phases every players' game has (`PlayersPhases`), as Chemin de Fer names them."""


@dataclass(frozen=True, slots=True, kw_only=True)
class CheminEvent(GameEvent):
    """Something that happened at the table; ``text`` says it in words."""


@dataclass(frozen=True, slots=True, kw_only=True)
class BankOpened(CheminEvent):
    """A seat holds the bank for ``amount``."""

    seat: int
    amount: int


@dataclass(frozen=True, slots=True, kw_only=True)
class BankPassed(CheminEvent):
    """The bank left ``seat`` (``reason``: lost, passed, declined, uncovered, broke)."""

    seat: int
    to_seat: int
    reason: str
    returned: int


@dataclass(frozen=True, slots=True, kw_only=True)
class StakePlaced(CheminEvent):
    """A punter covered ``amount`` of the bank (0: he declined)."""

    seat: int
    amount: int


@dataclass(frozen=True, slots=True, kw_only=True)
class BancoCalled(CheminEvent):
    """A punter called banco for the whole bank (``suivi``: after losing one)."""

    seat: int
    amount: int
    suivi: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class Dealt(CheminEvent):
    """The four cards: two to the punter who plays (``seat``), two to the banker.

    With the coup's money: the banker's seat, the ``bank``, the ``stakes`` (seat,
    amount) in the order placed, and whether the punter called ``banco``.
    """

    seat: int
    punter: tuple[Card, ...]
    banker: tuple[Card, ...]
    banker_seat: int = -1
    bank: int = 0
    stakes: tuple[tuple[int, int], ...] = ()
    banco: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class NaturalShown(CheminEvent):
    """A natural (8 or 9 on two cards) was shown: nobody draws."""


@dataclass(frozen=True, slots=True, kw_only=True)
class PunterDecided(CheminEvent):
    """The punter drew (``card``) or stood; ``free`` if the tableau left him the choice."""

    seat: int
    draws: bool
    card: Card | None
    free: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class BankerDecided(CheminEvent):
    """The banker (at ``seat``) drew (``card``) or stood; ``free`` if the choice was his."""

    draws: bool
    card: Card | None
    free: bool
    seat: int = -1


@dataclass(frozen=True, slots=True, kw_only=True)
class CoupSettled(CheminEvent):
    """The coup's result; ``payouts`` maps seats to what they got back; the commission."""

    result: Result
    punter_total: int
    banker_total: int
    payouts: tuple[tuple[int, int], ...]
    commission: int


@dataclass(frozen=True, slots=True, kw_only=True)
class CheminObservation(Observation):
    """What a seat sees of a Chemin de Fer table (`CheminTable.observation`).

    Besides `Observation`'s: the ``phase``, the ``stakes`` (seat, amount) in the order
    placed, the seat that lost the last banco (``suivi``), and while a coup is played
    the ``punter``'s seat, the cards ``shown`` face up (the third cards) and the number
    ``hidden`` face down, both keyed ``P`` (the punter) and ``B`` (the banker). The
    seat's own ``hands`` are keyed the same way.
    """

    phase: Phase
    stakes: tuple[tuple[int, int], ...]
    suivi: int | None
    punter: int | None
    shown: Mapping[str, tuple[Card, ...]]
    hidden: Mapping[str, int]


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatChanged(CheminEvent):
    """A seat left between coups (``amount`` its chips, negative) or added chips."""

    seat: int
    amount: int
