"""What a bet must satisfy at a place of the table (a seat, or a place behind the
seats): the table's limits on the place's total, the chips in front of it, and, behind
the seats, the main bets only. The engine (`baccara.table.engine.Table`) checks every bet and every bet
taken back with these.

>>> settings = TableSettings()
>>> ann = Seat(number=1, player="ann", stack=5_000, strategy=None)
>>> check_bet(ann, BetKind.TIE, 500, settings, behind=False)
>>> check_bet(ann, BetKind.TIE, 50, settings, behind=False)
Traceback (most recent call last):
...
baccara.table.events.LimitError: 0.50 on Tie is below the table minimum 1.00
>>> check_bet(ann, BetKind.PLAYER_PAIR, 500, settings, behind=True)
Traceback (most recent call last):
...
baccara.table.events.LimitError: a player betting behind the seats bets on Player, Banker or Tie only, not Player Pair
"""

from __future__ import annotations

from baccara.bets import BetKind
from baccara.money import format_money
from baccara.table.events import LimitError, SeatError, StackError, TableSettings
from baccara.table.seats import Seat, check_chips

__all__ = ["check_bet", "check_take_back"]


def check_bet(
    place: Seat, kind: BetKind, amount: int, settings: TableSettings, *, behind: bool
) -> None:
    """Raise a `TableError` naming the problem unless ``place`` may add ``amount`` (a
    whole positive number of minor units) on ``kind``, a bet the table's game takes."""
    if behind and not kind.is_main:
        raise LimitError(
            f"a player betting behind the seats bets on Player, Banker or Tie only, "
            f"not {kind.label}",
            code="behind_main_only",
        )
    limit = settings.limit(kind)
    total = place.bets.get(kind, 0) + amount
    if total < limit.minimum:
        raise LimitError(
            f"{format_money(total)} on {kind.label} is below the table minimum "
            f"{format_money(limit.minimum)}",
            code="under_limit",
        )
    if total > limit.maximum:
        raise LimitError(
            f"{format_money(total)} on {kind.label} is over the table maximum "
            f"{format_money(limit.maximum)}"
        )
    if not place.wallet and amount > place.stack:
        raise StackError(
            f"seat {place.number} has {format_money(place.stack)} in chips: not enough for "
            f"{format_money(amount)}"
        )


def check_take_back(
    place: Seat, kind: BetKind, amount: int | None, free: int, settings: TableSettings
) -> int:
    """The amount ``place`` takes back from its bet on ``kind`` (all it may, ``free``,
    if ``amount`` is None); raise a `TableError` naming the problem if it may not."""
    stake = place.bets.get(kind, 0)
    if not stake:
        raise SeatError(f"seat {place.number} has no bet on {kind.label}")
    if amount is None:
        amount = free
    else:
        check_chips(amount, "amount to take back")
    if free == 0:
        raise LimitError(
            f"the {kind.label} bet at seat {place.number} pushed and stays on the layout "
            "(house rule): it plays the next coup"
        )
    if amount > free:
        raise StackError(
            f"seat {place.number} can take back at most {format_money(free)} from "
            f"{kind.label}, not {format_money(amount)}"
        )
    left = stake - amount
    minimum = settings.limit(kind).minimum
    if 0 < left < minimum:
        raise LimitError(
            f"taking back {format_money(amount)} would leave {format_money(left)} on "
            f"{kind.label}, below the table minimum {format_money(minimum)}"
        )
    return amount
