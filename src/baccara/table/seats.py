"""A seat at the table: who sits there, the stack, the bets on the layout."""

from __future__ import annotations

from dataclasses import dataclass, field

from baccara.bets import BetKind
from baccara.money import format_money
from baccara.table.events import StackError

__all__ = ["Seat", "SeatState", "check_chips"]


@dataclass(slots=True)
class Seat:
    """A seat as the engine keeps it (mutable; `SeatState` is what it shows)."""

    number: int
    player: str
    stack: int
    strategy: str | None
    wallet: bool = False
    bets: dict[BetKind, int] = field(default_factory=dict)
    pushed: dict[BetKind, int] = field(default_factory=dict)
    last_bets: dict[BetKind, int] = field(default_factory=dict)

    def state(self) -> SeatState:
        """The seat as everybody sees it."""
        return SeatState(
            number=self.number,
            player=self.player,
            stack=self.stack,
            strategy=self.strategy,
            wallet=self.wallet,
            bets=tuple(sorted(self.bets.items())),
            pushed=tuple(sorted(self.pushed.items())),
            last_bets=tuple(sorted(self.last_bets.items())),
        )


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatState:
    """A seat as everybody sees it: who sits there, the stack, the bets on the layout.

    ``last_bets`` are the bets the seat had at the last deal (for a rebet);
    ``pushed`` the part of each bet that stayed on the layout after a tie; a
    ``wallet`` seat bets from the player's wallet, not from a stack (always 0).
    """

    number: int
    player: str
    stack: int
    strategy: str | None
    wallet: bool
    bets: tuple[tuple[BetKind, int], ...]
    pushed: tuple[tuple[BetKind, int], ...]
    last_bets: tuple[tuple[BetKind, int], ...]

    @property
    def staked(self) -> int:
        """Total on the layout."""
        return sum(amount for _, amount in self.bets)

    def bet(self, kind: BetKind) -> int:
        """The stake on ``kind`` (0 if none)."""
        return dict(self.bets).get(kind, 0)


def check_chips(amount: int, what: str) -> None:
    """Raise `StackError` unless ``amount`` is a positive whole number of minor units."""
    if isinstance(amount, bool) or not isinstance(amount, int) or amount <= 0:
        shown = (
            repr(amount)
            if isinstance(amount, bool) or not isinstance(amount, int)
            else format_money(amount)
        )
        raise StackError(f"bad {what} {shown}: an amount above {format_money(0)}")
