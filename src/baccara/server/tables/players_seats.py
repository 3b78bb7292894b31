"""Who sits at a players' table and who is there to play (`PlayersSeats`): the seats in
order, a player sitting down, leaving, sitting out and coming back.

It is a state the table (`baccara.server.tables.players.PlayersRunner`) holds and asks:
each change returns what it means for the table (the news to tell, whether a leave
waits for the coup, the players who may go now), and the table does the rest: the
money (a buy-in, a cash-out, a seat's own act in the shoe in play) and the broadcast.

Between coups all of it happens at once: chips added or taken away are a seat's own act
of the shoe in play (`baccara.skill.actions.SEAT_ACTS`), stored with the wallet's money
in one transaction, so the shoe's record and the books agree. A player with money in
the coup being played leaves as soon as it is settled. A player on whom the clock runs
out twice in a row sits out: their turns are passed at once until they act; a shoe
whose players are all away or sitting out waits for them (`PlayersSeats.awaited`).

>>> seats = PlayersSeats(max_seats=2, minimum=1_000, bots=[], connected=lambda name: True)
>>> seats.sat("ann", 5_000, chips=5_000), seats.sit_out("ann", True), seats.present("ann", 0.0)
(['ann sits down with 50.00.'], ['ann sits out.'], False)
>>> seats.back("ann"), seats.leave("ann", None), seats.cashed_out("ann"), seats.players
(['ann is back.'], <Leave.NOW: 'now'>, ['ann leaves the table.'], [])
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from baccara.db.ledger import BetError
from baccara.money import format_money
from baccara.server.tables.game import GameTable
from baccara.server.tables.refusal import Refused

__all__ = ["Leave", "PlayersSeats", "seat_in"]


class Leave(StrEnum):
    """How a player asking to leave goes: ``now`` (not in the shoe in play: cashed out
    at once), ``from_shoe`` (the seat leaves the shoe in play with its chips), or
    ``after_coup`` (money in the coup being played: as soon as it is settled)."""

    NOW = "now"
    FROM_SHOE = "from_shoe"
    AFTER_COUP = "after_coup"


def seat_in(table: GameTable | None, name: str) -> int | None:
    """``name``'s seat in the shoe ``table`` plays, unless they are not in it or have
    left it."""
    if table is None or name not in table.names:
        return None
    seat = list(table.names).index(name)
    return None if seat in table.gone else seat


@dataclass(slots=True, kw_only=True)
class PlayersSeats:
    """The seats of a players' table and the players' presence (see the module): at most
    ``max_seats`` players, each buying in for ``minimum`` at least; the table's ``bots``;
    whether a player has a connection to the table now (``connected``)."""

    max_seats: int
    minimum: int
    bots: list[str]
    connected: Callable[[str], bool]
    players: list[str] = field(default_factory=list)  # seated, in seat order
    leaving: set[str] = field(default_factory=set)  # asked to leave with money in the coup
    away: set[str] = field(default_factory=set)  # sitting out: their turns passed at once
    missed: dict[str, int] = field(default_factory=dict)  # clocks run out in a row
    grace_until: float = 0.0  # after a restart, absent players get one clock to return

    # -- presence ------------------------------------------------------------------------

    def present(self, name: str, now: float) -> bool:
        """Whether ``name`` is at the table to decide at ``now``: connected (or may still
        come back after a restart) and not sitting out."""
        return name not in self.away and (self.connected(name) or now < self.grace_until)

    def absent(self, name: str, now: float) -> bool:
        """Whether ``name`` is a person (no bot) not at the table to decide at ``now``."""
        return name not in self.bots and not self.present(name, now)

    def awaited(self, table: GameTable, now: float) -> bool:
        """Whether a person (no bot) who plays this shoe is at the table to decide: if
        not, the table pauses, writing nothing, until one comes back."""
        return any(
            self.present(name, now)
            for seat, name in enumerate(table.names)
            if seat not in table.gone and name not in self.bots
        )

    def bot_seats(self, table: GameTable) -> frozenset[int]:
        """The seats of the shoe ``table`` plays that the table's bots hold."""
        return frozenset(seat for seat, name in enumerate(table.names) if name in self.bots)

    # -- a shoe's players ----------------------------------------------------------------

    def seat(self, names: Sequence[str]) -> None:
        """Seat ``names`` (the bots, who held chips at a restart) while seats are free."""
        for name in names:
            if name not in self.players and len(self.players) < self.max_seats:
                self.players.append(name)

    def ready(self, stacks: Mapping[str, int]) -> list[str]:
        """The seated players who may be dealt the next shoe, given their chips
        (``stacks``, read while the table waited: whoever sat down meanwhile is dealt the
        shoe after): not leaving, with the table's minimum."""
        return [
            name
            for name in self.players
            if name in stacks and name not in self.leaving and stacks[name] >= self.minimum
        ]

    def playable(self, ready: Sequence[str], now: float) -> bool:
        """Whether ``ready`` may be dealt a shoe: two players or more, one of them a person
        at the table (bots never play alone, and nobody is dealt a shoe while away)."""
        return len(ready) >= 2 and any(
            name not in self.bots and self.present(name, now) for name in ready
        )

    # -- players -------------------------------------------------------------------------

    def check_sit(self, name: str, buy_in: int) -> None:
        """Refuse ``name``'s buy-in of ``buy_in`` if no seat is free or it is too small."""
        if name not in self.players and len(self.players) >= self.max_seats:
            raise Refused("table_full", f"all {self.max_seats} seats are taken")
        if buy_in < self.minimum:
            raise BetError("under_limit", f"the buy-in is at least {format_money(self.minimum)}")

    def sat(self, name: str, buy_in: int, *, chips: int) -> list[str]:
        """``name`` bought ``buy_in`` of chips, holding ``chips`` now: seated (a new player
        takes the next seat) and back. The news."""
        if name in self.players:
            news = [f"{name} adds {format_money(buy_in)}: {format_money(chips)} in chips."]
        else:
            self.players.append(name)
            news = [f"{name} sits down with {format_money(chips)}."]
        return news + self.back(name)

    def leave(self, name: str, seat: int | None, *, can_leave: bool = True) -> Leave:
        """How ``name`` goes (`Leave`), playing ``seat`` of the shoe in play (None: not in
        it), who ``can_leave`` it now or not; a leave after the coup is noted (`waits`)."""
        if name not in self.players or name in self.leaving:
            raise Refused("not_seated", "you are not seated at this table")
        if seat is None:
            return Leave.NOW
        if can_leave:
            return Leave.FROM_SHOE
        self.leaving.add(name)
        return Leave.AFTER_COUP

    @staticmethod
    def waits(name: str) -> list[str]:
        """The news of ``name``'s leave after the coup (`Leave.AFTER_COUP`)."""
        return [f"{name} leaves when this coup is settled."]

    def stay(self, name: str) -> list[str]:
        """``name`` cancels a leave after the coup. The news."""
        if name not in self.players:  # the coup was settled first: gone with the chips
            raise Refused("not_seated", "you have already left the table: sit down to play")
        if name not in self.leaving:
            raise Refused("not_leaving", "you are not leaving: there is nothing to cancel")
        self.leaving.discard(name)
        return [f"{name} stays at the table."]

    def going(self, table: GameTable | None) -> list[int]:
        """The seats of those who asked to leave during a coup and may go now."""
        seats = (seat_in(table, name) for name in sorted(self.leaving))
        return [
            seat
            for seat in seats
            if table is not None and seat is not None and table.can_leave(seat)
        ]

    def not_playing(self, playing: Sequence[str]) -> list[str]:
        """Those who asked to leave and are not in the shoe in play (``playing``): to be
        cashed out."""
        return sorted(self.leaving - set(playing))

    def sit_out(self, name: str, out: bool) -> list[str]:
        """``name`` sits out (``out``: their turns are passed at once by the house's rule) or
        comes back. The news: none if nothing changed."""
        if name not in self.players:
            raise Refused("not_seated", "you are not seated at this table")
        if out == (name in self.away):
            return []  # as it is already
        if out:
            self.away.add(name)
            return [f"{name} sits out."]
        return self.back(name)

    def back(self, name: str) -> list[str]:
        """``name`` acts: no longer sitting out. The news."""
        self.missed.pop(name, None)
        if name not in self.away:
            return []
        self.away.discard(name)
        return [f"{name} is back."]

    def timed_out(self, name: str) -> list[str]:
        """The clock ran out on ``name`` at the table: twice in a row, they sit out. The news."""
        self.missed[name] = self.missed.get(name, 0) + 1
        if self.missed[name] < 2 or name in self.away:
            return []
        self.away.add(name)
        return [f"{name} sits out (the clock ran out twice): act to come back."]

    def unseat(self, name: str) -> None:
        """``name`` has left the table with their chips (the shoe's record tells it)."""
        if name in self.players:
            self.players.remove(name)
        self.leaving.discard(name)
        self.away.discard(name)
        self.missed.pop(name, None)

    def cashed_out(self, name: str) -> list[str]:
        """``name``, in no shoe in play, has left the table with their chips. The news."""
        self.unseat(name)
        return [f"{name} leaves the table."]
