"""The wallet seats of a house-banked table: taken on joining or betting, freed when
their player has gone; and the places behind them.

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
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from baccara.db.auth import User
from baccara.server.wire import protocol as P
from baccara.table.events import Phase

if TYPE_CHECKING:
    from baccara.server.tables.house import HouseRunner

__all__ = ["Seats"]


class Seats:
    """One table's wallet seats: who sits, and since when a seated player is gone."""

    def __init__(self, runner: HouseRunner) -> None:
        self.runner = runner
        self.absent: dict[str, float] = {}  # seated player -> when first seen gone
        self.behind_round: int | None = None  # the round whose places behind were looked at

    def take(self, user: User) -> int | None:
        """Seat a player (or find their seat), or give them a place behind the seats;
        None when every seat and every place behind is truly held."""
        runner, table, name = self.runner, self.runner.table, user.name
        runner.accounts[user.account] = name
        place = table.seat_of(name)
        if table.phase is Phase.DEALING:  # nobody sits down while the cards are out
            return place
        if place is not None:
            behind = place > table.settings.seats
            if not behind or not table.free_seats() or table.seat_state(place).bets:
                return place
            table.leave(place)  # a seat is free: from behind to the seat
        elif not self._room():
            if not table.can_seat(player=name, stack=0, wallet=True, behind=True):
                return None
            self.absent.pop(name, None)
            return table.seat(player=name, stack=0, wallet=True, behind=True).seat
        if not table.can_seat(player=name, stack=0, wallet=True):
            return None
        seat = table.seat(player=name, stack=0, wallet=True).seat
        self.absent.pop(name, None)
        runner.emit(P.SeatEvent, seat=seat, player=name)
        return seat

    def _room(self) -> bool:
        """Whether a seat is free (freeing those whose players have gone, if need be)."""
        return bool(self.runner.table.free_seats() or self.free_absent())

    def free_absent(self, now: float | None = None) -> int:
        """Free the seats of players gone for the grace period with nothing on the
        layout (only while bets are open; the places behind once a round); return how
        many seats were freed."""
        runner = self.runner
        if runner.phase is not Phase.BETTING:
            return 0
        now = runner.clock.now() if now is None else now
        present = runner.audience.names()
        seated = runner.table.seats
        if self.behind_round != runner.round_id:  # the places behind: once a round
            self.behind_round = runner.round_id
            seated += runner.table.behind
            places = {s.player for s in seated}
            self.absent = {n: t for n, t in self.absent.items() if n in places}
        freed = 0
        for state in seated:
            if state.player in present:
                self.absent.pop(state.player, None)
                continue
            since = self.absent.setdefault(state.player, now)
            if state.bets or now - since < runner.timing.seat_grace_seconds:
                continue
            runner.table.leave(state.number)
            del self.absent[state.player]
            if state.number <= runner.settings.seats:
                runner.emit(P.SeatEvent, seat=state.number, player=state.player, left=True)
                freed += 1
        return freed
