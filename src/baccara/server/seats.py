"""The wallet seats of a house-banked table: taken on joining or betting, freed when
their player has gone.

A seat is held while its player has a connection joined to the table, or a bet on the
layout. When a seated player's last connection leaves, the seat is kept for
`Timing.seat_grace_seconds` (a page that reconnects finds it again); after that, with
no bet in the round, it is freed, and the table gets a ``seat`` event with ``left``.
So a seat is never held for ever by an account that joined once (the lobby's
``seated`` counts the seats truly held).

Seats are freed only while bets are open, never during the deal, and never under a
bet in flight: a bet is placed from a connection joined to the table, which keeps its
player present until the bet is answered (and then it is on the layout).
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from baccara.server import protocol as P
from baccara.server.auth import User

if TYPE_CHECKING:
    from baccara.server.runner import TableRunner

__all__ = ["Seats"]


class Seats:
    """One table's wallet seats: who sits, and since when a seated player is gone."""

    def __init__(self, runner: TableRunner) -> None:
        self.runner = runner
        self.absent: dict[str, float] = {}  # seated player -> when first seen gone

    def take(self, user: User) -> int | None:
        """Seat a player (or find their seat); None when every seat is truly held."""
        runner = self.runner
        runner.accounts[user.account] = user.name
        seat = runner.table.seat_of(user.name)
        if seat is not None:
            return seat
        if not runner.table.can_seat(player=user.name, stack=0, wallet=True):
            if not self.free_absent():
                return None
            if not runner.table.can_seat(player=user.name, stack=0, wallet=True):
                return None
        seat = runner.table.seat(player=user.name, stack=0, wallet=True).seat
        self.absent.pop(user.name, None)
        runner.emit(P.SeatEvent, seat=seat, player=user.name)
        return seat

    def free_absent(self, now: float | None = None) -> int:
        """Free the seats of players gone for the grace period with nothing on the
        layout (only while bets are open); return how many were freed."""
        runner = self.runner
        if runner.phase != "betting":
            return 0
        now = time.monotonic() if now is None else now
        present = runner.audience.names()
        seated = runner.table.seats
        self.absent = {n: t for n, t in self.absent.items() if n in {s.player for s in seated}}
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
            runner.emit(P.SeatEvent, seat=state.number, player=state.player, left=True)
            freed += 1
        return freed
