"""The vocabulary of a Baccarat Banque table (`baccara.skill.banque`): its phases, the two
halves, its error, and its events, immutable, with their words.
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
    "BankAuctioned",
    "BankerDecided",
    "BankerLeft",
    "BanqueError",
    "BanqueEvent",
    "BanqueObservation",
    "BidPlaced",
    "Half",
    "HalfDecided",
    "HalfSettled",
    "HalvesDealt",
    "Phase",
    "StakePlaced",
]


class BanqueError(GameError):
    """An action the table's rules do not allow now."""


class Phase(StrEnum):
    """Where the table is; the value is its name. One enum for the engine, the table
    online and the wire: the first three are the online table's, before a shoe is dealt
    (the engine never takes them)."""

    STARTING = "starting"  # the table opens
    SHUFFLE = "shuffle"  # a shoe is committed: the seated players send their seeds
    WAITING = "waiting"  # for players: two, one of them a person
    AUCTION = "auction"  # the bank is auctioned
    STAKES = "stakes"  # the punters stake on a half in turn
    PUNTER = "punter"  # a half's punter chooses on 5
    BANKER = "banker"  # the banker chooses
    OVER = "over"  # the shoe is finished


PHASES = PlayersPhases.of(Phase)
"""The phases every players' game has (`PlayersPhases`), as Baccarat Banque names them."""


class Half(StrEnum):
    """The two halves of the table, left and right (Banque's *tableaux*), each a punters'
    hand against the banker's; the value is the notation."""

    LEFT = "L"
    RIGHT = "R"

    @property
    def word(self) -> str:
        """``'left'`` or ``'right'``."""
        return self.name.lower()


@dataclass(frozen=True, slots=True, kw_only=True)
class BanqueEvent(GameEvent):
    """Something that happened at the table; ``text`` says it in words."""


@dataclass(frozen=True, slots=True, kw_only=True)
class BidPlaced(BanqueEvent):
    """A seat bid ``amount`` for the bank."""

    seat: int
    amount: int


@dataclass(frozen=True, slots=True, kw_only=True)
class BankAuctioned(BanqueEvent):
    """The bank went to ``seat`` for ``amount``."""

    seat: int
    amount: int


@dataclass(frozen=True, slots=True, kw_only=True)
class BankerLeft(BanqueEvent):
    """The banker left the bank (``reason``: retired, broke, shoe), taking ``returned``."""

    seat: int
    reason: str
    returned: int


@dataclass(frozen=True, slots=True, kw_only=True)
class StakePlaced(BanqueEvent):
    """A punter staked ``amount`` on a half (0: he sat out)."""

    seat: int
    half: Half | None
    amount: int


@dataclass(frozen=True, slots=True, kw_only=True)
class HalvesDealt(BanqueEvent):
    """Two cards to each half and to the banker.

    With the coup's money: the banker's seat, the ``bank``, and each half's stakes
    (seat, amount) in the order placed (its largest, the first on a tie, plays it).
    """

    left: tuple[Card, ...]
    right: tuple[Card, ...]
    banker: tuple[Card, ...]
    banker_seat: int = -1
    bank: int = 0
    left_stakes: tuple[tuple[int, int], ...] = ()
    right_stakes: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class HalfDecided(BanqueEvent):
    """A half's punter (``seat``, None if unstaked) drew (``card``) or stood; ``free`` on 5."""

    half: Half
    draws: bool
    card: Card | None
    free: bool
    seat: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class BankerDecided(BanqueEvent):
    """The banker (at ``seat``) drew (``card``) or stood."""

    draws: bool
    card: Card | None
    seat: int = -1


@dataclass(frozen=True, slots=True, kw_only=True)
class HalfSettled(BanqueEvent):
    """One half against the banker: the result and what each seat got back."""

    half: Half
    result: Result
    punter_total: int
    banker_total: int
    payouts: tuple[tuple[int, int], ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class BanqueObservation(Observation):
    """What a seat sees of a Baccarat Banque table (`BanqueTable.observation`).

    Besides `Observation`'s: the ``phase``; at the auction the ``bids`` (seat, amount)
    and the least bid that may be made next (``next_bid``, else None); whether the
    banker may retire now (``can_retire``); each half's ``stakes`` (seat, amount,
    in the order placed) and the seat that plays it (``playing``), keyed ``L`` and
    ``R``; the ``live`` half whose punter must choose; and while a coup is played
    the cards ``shown`` face up and the number ``hidden`` face down, keyed ``L``, ``R``
    and ``B`` (the banker), as the seat's own ``hands`` are.
    """

    phase: Phase
    bids: tuple[tuple[int, int], ...]
    next_bid: int | None
    can_retire: bool
    stakes: Mapping[str, tuple[tuple[int, int], ...]]
    playing: Mapping[str, int | None]
    live: Half | None
    shown: Mapping[str, tuple[Card, ...]]
    hidden: Mapping[str, int]


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatChanged(BanqueEvent):
    """A seat left between coups (``amount`` its chips, negative) or added chips."""

    seat: int
    amount: int
