"""The wallet seats of a house-banked table: taken on joining or betting, freed when
their player has gone; and the places behind them: `Seats`, a small state the house
table composes.

Beyond the seats, players bet behind (`TableSettings.behind`, on the main bets only, as
at live casino tables), so a table holds a thousand players: a player who finds every
seat taken gets a place behind, and takes a seat on joining again once one is free
(with nothing on the layout).

A seat is held while its player has a connection joined to the table, or a bet on the
layout. When a seated player's last connection leaves, the seat is kept for
`Timing.seat_grace_seconds` (a page that reconnects finds it again); after that, with
no bet in the round, it is freed, and the table gets a ``seat`` event with ``left``.
So a seat is never held for ever by an account that joined once (the lobby's
``seated`` counts the seats truly held).

Seats are freed only while bets are open, never during the deal, and never under a
bet in flight: a bet is placed from a connection joined to the table, which keeps its
player present until the bet is answered (and then it is on the layout). The places
behind are freed the same way, once a round and without an event.

`Seats` keeps what seating alone knows (since when a seated player is gone, the round
whose places behind were looked at, the wallet accounts by player) and seats players at
the engine's seats (`baccara.table.engine.Table`, given on each call). It is told the
moment (`Moment`: the time, who is connected, whether bets are open, the round) and
returns the seats taken and freed (`SeatChange`, a ``seat`` event each) for the table
to send.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from baccara.db.auth import User
from baccara.table.engine import Table
from baccara.table.events import Phase

__all__ = ["Moment", "SeatChange", "Seated", "Seats"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Moment:
    """What seating is told of the table when it is asked: the time (``now``), whether a
    player is connected (``present``), whether bets are open (``betting``) and the
    round in play (``round``: its places behind are looked at once)."""

    now: float
    present: Callable[[str], bool]
    betting: bool
    round: int | None


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatChange:
    """A seat taken by ``player``, or freed (``left``): a ``seat`` event to send."""

    seat: int
    player: str
    left: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class Seated:
    """Where a player was put (``place``: a seat, or a place behind above the table's
    seats; None when all are held) and the seats taken and freed meanwhile."""

    place: int | None
    changes: tuple[SeatChange, ...] = ()


class Seats:
    """One table's seating: since when a seated player is gone, and who plays from which
    wallet account (``accounts``, for the ledger's layout and settlement).

    >>> from baccara.table.engine import TableSettings
    >>> from baccara.variants import find_variant
    >>> settings = TableSettings(seats=1, behind=5)
    >>> table = Table(variant=find_variant("punto-banco"), settings=settings)
    >>> seats, here = Seats(grace_seconds=60.0), {"ann", "bob"}
    >>> def moment(now: float) -> Moment:
    ...     return Moment(now=now, present=here.__contains__, betting=True, round=1)
    >>> seats.take(table, User(id=1, name="ann", account=11), moment(0.0))
    Seated(place=1, changes=(SeatChange(seat=1, player='ann', left=False),))
    >>> seats.take(table, User(id=2, name="bob", account=12), moment(0.0)).place  # behind
    2
    >>> here.discard("ann")
    >>> seats.free_absent(table, moment(30.0)), seats.free_absent(table, moment(90.0))
    ((), (SeatChange(seat=1, player='ann', left=True),))
    >>> seats.accounts
    {11: 'ann', 12: 'bob'}
    """

    def __init__(self, *, grace_seconds: float) -> None:
        self.grace_seconds = grace_seconds
        self.accounts: dict[int, str] = {}  # wallet account -> player
        self.absent: dict[str, float] = {}  # seated player -> when first seen gone
        self.behind_round: int | None = None  # the round whose places behind were looked at

    def take(self, table: Table, user: User, moment: Moment) -> Seated:
        """Seat a player (or find their seat), or give them a place behind the seats;
        the place is None when every seat and every place behind is truly held (a seat
        whose player has gone is freed first)."""
        name = user.name
        self.accounts[user.account] = name
        place = table.seat_of(name)
        if table.phase is Phase.DEALING:  # nobody sits down while the cards are out
            return Seated(place=place)
        freed: tuple[SeatChange, ...] = ()
        if place is not None:
            behind = place > table.settings.seats
            if not behind or not table.free_seats() or table.seat_state(place).bets:
                return Seated(place=place)
            table.leave(place)  # a seat is free: from behind to the seat
        elif not table.free_seats() and not (freed := self.free_absent(table, moment)):
            if not table.can_seat(player=name, stack=0, wallet=True, behind=True):
                return Seated(place=None)
            self.absent.pop(name, None)
            return Seated(place=table.seat(player=name, stack=0, wallet=True, behind=True).seat)
        if not table.can_seat(player=name, stack=0, wallet=True):
            return Seated(place=None, changes=freed)
        seat = table.seat(player=name, stack=0, wallet=True).seat
        self.absent.pop(name, None)
        return Seated(place=seat, changes=(*freed, SeatChange(seat=seat, player=name)))

    def free_absent(self, table: Table, moment: Moment) -> tuple[SeatChange, ...]:
        """Free the seats of players gone for the grace period with nothing on the
        layout (only while bets are open; the places behind once a round): the seats
        freed."""
        if not moment.betting:
            return ()
        seated = table.seats
        if self.behind_round != moment.round:  # the places behind: once a round
            self.behind_round = moment.round
            seated += table.behind
            places = {s.player for s in seated}
            self.absent = {n: t for n, t in self.absent.items() if n in places}
        freed: list[SeatChange] = []
        for state in seated:
            if moment.present(state.player):
                self.absent.pop(state.player, None)
                continue
            since = self.absent.setdefault(state.player, moment.now)
            if state.bets or moment.now - since < self.grace_seconds:
                continue
            table.leave(state.number)
            del self.absent[state.player]
            if state.number <= table.settings.seats:
                freed.append(SeatChange(seat=state.number, player=state.player, left=True))
        return tuple(freed)

    def learn(self, names: Mapping[int, str]) -> None:
        """Name wallet accounts (the ledger's names, after a restart)."""
        self.accounts.update(names)

    def unknown(self, accounts: Iterable[int]) -> set[int]:
        """Those of ``accounts`` not yet named."""
        return set(accounts) - set(self.accounts)

    def wallets(self) -> dict[str, int]:
        """Each player's wallet account."""
        return {name: account for account, name in self.accounts.items()}
