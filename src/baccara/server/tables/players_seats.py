"""Who sits at a players' table and who is there to play (`baccara.server.tables.players`):
the seats in order, a player sitting down, adding chips, leaving, sitting out and
coming back.

Between coups all of it happens at once: chips added or taken away are a seat's own act
of the shoe in play (`baccara.skill.actions.SEAT_ACTS`), stored with the wallet's money
in one transaction, so the shoe's record and the books agree. A player with money in
the coup being played leaves as soon as it is settled. A player on whom the clock runs
out twice in a row sits out: their turns are passed at once until they act; a shoe
whose players are all away or sitting out waits for them (`PlayersSeats.awaited`).
"""

from __future__ import annotations

import asyncio
import random
import secrets
from collections import deque
from functools import partial
from typing import Generic

from baccara.db.auth import User
from baccara.db.chips import Chips
from baccara.db.ledger import BetError
from baccara.db.shoes import ShoeBook
from baccara.fair import FairError, FairShoe, check_client_seed
from baccara.money import format_money
from baccara.server.infra.services import TableServices
from baccara.server.tables.audience import Audience
from baccara.server.tables.base import TableBase
from baccara.server.tables.contract import Record
from baccara.server.tables.game import Engine, PlayersPhase, PlayersTiming
from baccara.server.tables.refusal import Refused
from baccara.server.tables.turns import Taken
from baccara.shoe import ShoeSettings
from baccara.skill import records
from baccara.skill.actions import Act, Action
from baccara.skill.players import PlayersPhases
from baccara.variants import Variant

__all__ = ["PlayersSeats"]


class PlayersSeats(TableBase[PlayersPhase], Generic[Engine, PlayersPhase]):
    """The seats of a players' table and the players' presence; `PlayersRunner` plays
    the shoes."""

    phases: PlayersPhases[PlayersPhase]
    """The game's phases the runner names (`baccara.skill.players.PlayersPhases`)."""

    def __init__(
        self,
        *,
        table_id: str,
        variant: Variant,
        services: TableServices,
        timing: PlayersTiming,
        decks: int | None = None,
        minimum: int = 1_000,
        seats: int = 12,
        bots: int = 0,
        audience: Audience | None = None,
    ) -> None:
        super().__init__(
            table_id=table_id,
            variant=variant,
            services=services,
            audience=audience,
            kept=200,
            phase=self.phases.starting,
        )
        self.timing = timing
        self.shoe_settings = records.default_shoe_settings(variant)
        if decks:
            self.shoe_settings = ShoeSettings(decks=decks, burn=self.shoe_settings.burn)
        self.minimum = minimum
        self.max_seats = min(seats, variant.seats)
        self.chips = Chips(self.ledger, table_id)
        self.shoes = ShoeBook(self.ledger, table_id)
        self.players: list[str] = []  # seated, in seat order
        self.leaving: set[str] = set()  # asked to leave with money in the coup: after it
        self.away: set[str] = set()  # sitting out: their turns are passed at once
        self.missed: dict[str, int] = {}  # clocks run out in a row, by player
        self.paused = False  # nobody who plays the shoe is at the table
        self.defaults = 0  # the house's decisions for absent players since a coup or a wake
        self.client_seeds: dict[str, str] = {}
        self.table: Engine | None = None
        self.fair: FairShoe | None = None
        self.shoe_id: int | None = None
        self.taken: list[Taken] = []  # the decisions of the shoe in play, stored
        self.deadline = 0.0
        self.grace_until = 0.0  # after a restart, absent players get one clock to return
        self.shoe_ended = False  # the game ended the shoe early (nobody bid for the bank)
        self.news: deque[str] = deque(maxlen=12)
        self.records: deque[Record] = deque(maxlen=20)
        # a space: no player can register a bot's name
        self.bots = [f"bot {n}" for n in range(1, min(bots, self.max_seats) + 1)]
        self.rng = random.Random(secrets.randbits(64))  # the bots' choices only
        self.wake = asyncio.Event()
        self.lock = asyncio.Lock()

    # -- what the runner does (`baccara.server.tables.players.PlayersRunner`) ----------------

    def emit_state(self) -> None:
        """Send the table's state to everybody."""
        raise NotImplementedError

    async def _decide_locked(self, action: Action, *, timed_out: bool) -> None:
        """Apply and store ``action`` (the table's lock held)."""
        raise NotImplementedError

    # -- presence --------------------------------------------------------------------------

    def connected(self, name: str) -> bool:
        """Whether ``name`` has a connection to this table now."""
        return self.audience.connected(name)

    def present(self, name: str) -> bool:
        """Whether ``name`` is at the table to decide: connected (or may still come back
        after a restart) and not sitting out."""
        return name not in self.away and (
            self.connected(name) or self.clock.now() < self.grace_until
        )

    def awaited(self, table: Engine) -> bool:
        """Whether a person (no bot) who plays this shoe is at the table to decide: if
        not, the table pauses, writing nothing, until one comes back."""
        return any(
            self.present(name)
            for seat, name in enumerate(table.names)
            if seat not in table.gone and name not in self.bots
        )

    def seat_of(self, name: str) -> int | None:
        """``name``'s seat in the shoe in play, unless they are not in it or have left it."""
        table = self.table
        if table is None or name not in table.names:
            return None
        seat = list(table.names).index(name)
        return None if seat in table.gone else seat

    # -- players ---------------------------------------------------------------------------

    async def sit(self, user: User, buy_in: int) -> int:
        """Buy ``buy_in`` of chips from the wallet: a new player takes the next seat (play
        starts at the next shoe); one who plays this shoe adds them at once, between
        coups. The chips at the table now."""
        name = user.name
        if name not in self.players and len(self.players) >= self.max_seats:
            raise Refused("table_full", f"all {self.max_seats} seats are taken")
        if buy_in < self.minimum:
            raise BetError("under_limit", f"the buy-in is at least {format_money(self.minimum)}")
        async with self.lock:
            seat = self.seat_of(name)
            if seat is not None and self.table is not None:
                if not self.table.can_leave(seat):
                    raise Refused(
                        "in_play", "you have money in the coup being played: add chips after it"
                    )
                await self._decide_locked(
                    Action(act=Act.ADD_CHIPS, seat=seat, amount=buy_in), timed_out=False
                )
                self._back(name)
                return int(self.table.bankrolls[seat])
            chips = await self.db_write(  # the money gate: protections, loss limit, balance
                partial(self.chips.buy_in, name, buy_in, now=self.clock.now())
            )
            if name in self.players:
                self.news.append(
                    f"{name} adds {format_money(buy_in)}: {format_money(chips)} in chips."
                )
            else:
                self.players.append(name)
                self.news.append(f"{name} sits down with {format_money(chips)}.")
            self._back(name)
        self.emit_state()
        self.wake.set()
        return chips

    async def leave(self, user: User, *, stay: bool = False) -> None:
        """Leave the table with the chips, at once; with money in the coup being played, as
        soon as it is settled (until then ``stay`` cancels it). Two leaves at once: the
        second is told the player is not seated."""
        async with self.lock:
            await (self._stay if stay else self._leave)(user.name)
        self.emit_state()
        self.wake.set()

    async def _leave(self, name: str) -> None:
        if name not in self.players or name in self.leaving:
            raise Refused("not_seated", "you are not seated at this table")
        seat = self.seat_of(name)
        if seat is None:  # not in the shoe in play (a shoe being shuffled deals without)
            await self.db_write(partial(self.chips.cash_out, name, now=self.clock.now()))
            self._unseat(name)
            self.news.append(f"{name} leaves the table.")
        elif self.table is not None and self.table.can_leave(seat):
            await self._seat_leaves(seat)
        else:
            self.leaving.add(name)
            self.news.append(f"{name} leaves when this coup is settled.")

    async def _stay(self, name: str) -> None:
        if name not in self.players:  # the coup was settled first: gone with the chips
            raise Refused("not_seated", "you have already left the table: sit down to play")
        if name not in self.leaving:
            raise Refused("not_leaving", "you are not leaving: there is nothing to cancel")
        self.leaving.discard(name)
        self.news.append(f"{name} stays at the table.")

    async def _seat_leaves(self, seat: int) -> None:
        """The seat leaves the shoe in play with its chips, cashed out in the same
        transaction (`Act.LEAVE`)."""
        assert self.table is not None
        name = self.table.names[seat]
        self.leaving.discard(name)
        await self._decide_locked(Action(act=Act.LEAVE, seat=seat), timed_out=False)
        self._unseat(name)

    async def _let_leave(self) -> None:
        """Those who asked to leave during a coup go, now that they may."""
        table = self.table
        for name in sorted(self.leaving):
            seat = self.seat_of(name)
            if table is not None and seat is not None and table.can_leave(seat):
                await self._seat_leaves(seat)

    def sit_out(self, user: User, out: bool) -> None:
        """Sit out (the player's turns are passed at once by the house's rule) or come back."""
        name = user.name
        if name not in self.players:
            raise Refused("not_seated", "you are not seated at this table")
        if out == (name in self.away):
            return  # as it is already
        if out:
            self.away.add(name)
            self.news.append(f"{name} sits out.")
        else:
            self._back(name)
        self.emit_state()
        self.wake.set()

    def _back(self, name: str) -> None:
        """``name`` acts: no longer sitting out."""
        self.missed.pop(name, None)
        if name in self.away:
            self.away.discard(name)
            self.news.append(f"{name} is back.")

    def _missed(self, name: str) -> None:
        """The clock ran out on ``name`` at the table: twice in a row, they sit out."""
        self.missed[name] = self.missed.get(name, 0) + 1
        if self.missed[name] >= 2 and name not in self.away:
            self.away.add(name)
            self.news.append(f"{name} sits out (the clock ran out twice): act to come back.")

    def _unseat(self, name: str) -> None:
        if name in self.players:
            self.players.remove(name)
        self.leaving.discard(name)
        self.away.discard(name)
        self.missed.pop(name, None)

    def add_client_seed(self, user: User, seed: str) -> None:
        """A seated player's seed for the next shoe (all seats' seeds shuffle it)."""
        if user.name not in self.players:
            raise Refused("not_seated", "sit down to shuffle: only players' seeds count")
        if self.fair is None or self.fair.sealed:
            raise Refused("shoe_sealed", "the shoe is already shuffled: try at the next shoe")
        try:
            check_client_seed(seed)
        except FairError as error:
            raise Refused("bad_seed", str(error)) from None
        self.client_seeds[user.name] = seed
