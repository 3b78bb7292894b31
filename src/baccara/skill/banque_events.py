"""The vocabulary of a Baccarat Banque table (`baccara.skill.banque`): its phases, the two
tableaux, its error, and its events, immutable, with their words.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from baccara.cards import Card
from baccara.coup import Result

__all__ = [
    "BankAuctioned",
    "BankerDecided",
    "BankerLeft",
    "BanqueError",
    "BanqueEvent",
    "BidPlaced",
    "Phase",
    "StakePlaced",
    "Tableau",
    "TableauDecided",
    "TableauSettled",
    "TableauxDealt",
]


class BanqueError(ValueError):
    """An action the table's rules do not allow now."""


class Phase(StrEnum):
    """Where the table is; the value is its name."""

    AUCTION = "auction"
    STAKES = "stakes"
    PUNTER = "punter"
    BANKER = "banker"
    OVER = "over"


class Tableau(StrEnum):
    """The two tableaux; the value is the notation."""

    LEFT = "L"
    RIGHT = "R"

    @property
    def word(self) -> str:
        """``'left'`` or ``'right'``."""
        return self.name.lower()


@dataclass(frozen=True, slots=True, kw_only=True)
class BanqueEvent:
    """Something that happened at the table; ``text`` says it in words."""

    text: str


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
    """A punter staked ``amount`` on a tableau (0: he sat out)."""

    seat: int
    tableau: Tableau | None
    amount: int


@dataclass(frozen=True, slots=True, kw_only=True)
class TableauxDealt(BanqueEvent):
    """Two cards to each tableau and to the banker.

    With the coup's money: the banker's seat, the ``bank``, and each tableau's stakes
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
class TableauDecided(BanqueEvent):
    """A tableau's punter (``seat``, None if unstaked) drew (``card``) or stood; ``free`` on 5."""

    tableau: Tableau
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
class TableauSettled(BanqueEvent):
    """One tableau against the banker: the result and what each seat got back."""

    tableau: Tableau
    result: Result
    punter_total: int
    banker_total: int
    payouts: tuple[tuple[int, int], ...]
