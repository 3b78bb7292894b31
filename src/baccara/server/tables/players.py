"""The players' tables online: seats in order, shoes every seat shuffles, decisions on a clock.

`PlayersRunner` is the one players' table, whatever its game: it composes the game's own
part (a `baccara.server.tables.game.PlayersGame`: Chemin de Fer's
`baccara.server.tables.chemin.CheminGame`, Banque's `baccara.server.tables.banque.BanqueGame`),
the seating (`baccara.server.tables.players_seats.PlayersSeats`, a state that says what
each change means) and the decision due (`baccara.server.tables.turns`), and does the rest
itself: the fair shoe, the clock, the ledger and the broadcast. The engine is the
terminal's (`baccara.skill`). A new players' game is a small object of its own, no
subclass: ``tests/support/top_card.py``'s Top Card is one, registered by family
(`baccara.server.tables.make.players_kind`).

Players buy chips from their wallets and sit in order; each shoe is provably fair
(`baccara.fair`), shuffled from the server's committed seed and every seated player's
client seed in seat order, and played by the players seated when it starts. Whoever the
engine says must act is asked, with a deadline shown to all; a player who does not
answer in time (or is not connected) gets the house's fixed rule (the engine's
``default_action``). Each finished shoe's record, with every decision, is published for
``baccara verify``.

Every decision is one database transaction (`baccara.db.chips.Chips.record`): its row
and the money it moved, mirrored from the engine (each player's chips, the pot on the
felt, the house's commission). A restarted server seats again everybody who holds chips
at the table, rebuilds the shoe in play from its seeds, replays the decisions stored and
waits again where it stopped: nothing is lost or paid twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import random
import secrets
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import Any, Generic

from pydantic import BaseModel

from baccara.db.auth import User
from baccara.db.chips import Chips, SeatRow
from baccara.db.ledger import BetError
from baccara.db.shoes import ShoeBook
from baccara.fair import FairError, FairShoe, check_client_seed
from baccara.server.infra.services import TableServices
from baccara.server.tables import players_store as store
from baccara.server.tables.audience import Audience
from baccara.server.tables.base import TableBase
from baccara.server.tables.contract import Record, TableMessage
from baccara.server.tables.game import (
    Engine,
    PlayersGame,
    PlayersPhase,
    PlayersTiming,
    Shown,
    money_state,
)
from baccara.server.tables.players_seats import Leave, PlayersSeats, seat_in
from baccara.server.tables.refusal import Refused
from baccara.server.tables.turns import Due, Taken
from baccara.server.wire import protocol as P
from baccara.shoe import Shoe, ShoeSettings
from baccara.skill import records
from baccara.skill.actions import SEAT_ACTS, Act, Action
from baccara.skill.game_rules import Seating, game_table
from baccara.variants import Variant

__all__ = ["PlayersRunner", "PlayersTiming", "money_state"]

log = logging.getLogger("baccara.server")


class PlayersRunner(TableBase[PlayersPhase], Generic[Engine, PlayersPhase]):
    """One players' table of the server (see the module): ``game`` makes its game's part
    (`PlayersGame`, held as ``self.game``), ``self.seats`` holds its seating."""

    PAUSE_SECONDS = 30.0
    """How often a paused table looks again without being woken (a restart's grace ends)."""

    def __init__(
        self,
        *,
        game: Callable[[], PlayersGame[Engine, PlayersPhase]],
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
        self.game = game()
        super().__init__(
            table_id=table_id,
            variant=variant,
            services=services,
            audience=audience,
            kept=200,
            phase=self.game.phases.starting,
        )
        self.timing = self.base_timing = timing  # the configuration's: the house's setup
        self.base_minimum = minimum  # ... changes them from the next coup (the minimum: shoe)
        self.shoe_settings = records.default_shoe_settings(variant)
        if decks:
            self.shoe_settings = ShoeSettings(decks=decks, burn=self.shoe_settings.burn)
        self.minimum = minimum
        max_seats = min(seats, variant.seats)
        self.seats = PlayersSeats(
            max_seats=max_seats,
            minimum=minimum,
            # a space: no player can register a bot's name
            bots=[f"bot {n}" for n in range(1, min(bots, max_seats) + 1)],
            connected=self.audience.connected,
        )
        self.chips = Chips(self.ledger, table_id)
        self.shoes = ShoeBook(self.ledger, table_id)
        self.paused = False  # nobody who plays the shoe is at the table
        self.defaults = 0  # the house's decisions for absent players since a coup or a wake
        self.client_seeds: dict[str, str] = {}
        self.table: Engine | None = None
        self.fair: FairShoe | None = None
        self.shoe_id: int | None = None
        self.taken: list[Taken] = []  # the decisions of the shoe in play, stored
        self.deadline = 0.0
        self.shoe_ended = False  # the game ended the shoe early (nobody bid for the bank)
        self.news: deque[str] = deque(maxlen=12)
        self.records: deque[Record] = deque(maxlen=20)
        self.rng = random.Random(secrets.randbits(64))  # the bots' choices only
        self.wake = asyncio.Event()
        self.lock = asyncio.Lock()

    # -- the game's engine -------------------------------------------------------------------

    def new_engine(
        self, names: list[str], chips: list[int], shoe: Shoe, rules: Mapping[str, Any]
    ) -> Engine:
        """The game's engine for a shoe, as its committed ``rules`` say."""
        seating = Seating(names=tuple(names), chips=tuple(chips), minimum=self.minimum)
        table = game_table(rules, seating, shoe)
        assert isinstance(table, self.game.engine)
        return table

    def new_fair(self) -> FairShoe:
        """The table's next shoe: a fresh secret seed and the rules it commits to (the
        punter always speaks, so that being asked tells nobody his cards)."""
        return records.new_game_shoe(self.variant, self.shoe_settings, punter_speaks=True)

    def phase_now(self) -> PlayersPhase:
        """The phase the table shows: its engine's while a shoe is dealt (the game's own
        `Phase`), else the table's own."""
        table = self.table
        return self.phase if table is None else type(self.phase)(table.phase)

    def bot_action(self, table: Engine) -> Action | None:
        """What a bot does now, if a bot has something to do (the game says)."""
        return self.game.bot_action(table, self.seats.bot_seats(table), self.rng)

    def house_action(self, table: Engine) -> Action | None:
        """What the house does at once, asking nobody: a punter whose chips are under the
        table's minimum is not offered a stake (he declines; more chips let him play);
        then what the game's own rule does (`PlayersGame.house_action`)."""
        seat = table.to_act  # a punter to stake
        if seat is not None and table.bankrolls[seat] < self.minimum:
            action = table.default_action()
            if action is not None:
                reason = "his chips are under the table's minimum"
                return dataclasses.replace(action, reason=reason)
        return self.game.house_action(table, partial(self.seats.absent, now=self.clock.now()))

    def refusal(self, action: Action, table: Engine) -> str:
        """The error code of an action the engine refused."""
        if action.act in self.game.anytime:
            return "not_allowed"
        if table.actor is not None and action.seat != table.actor:
            return "not_your_turn"
        return "not_allowed"

    def money(self, table: Engine) -> dict[str, int]:
        """Where the engine's money is (`money_state`)."""
        return money_state(table, self.game.pot(table))

    # -- what the table shows --------------------------------------------------------------

    def view(self) -> P.PlayersState:
        """The table as everybody sees it (no card of the shoe before it is dealt)."""
        return self.game.view(self.table, self.shown())

    def hands(self) -> dict[str, BaseModel]:
        """Each player's private message now (their own cards, teaching's advice)."""
        table = self.table
        return {} if table is None else self.game.hands(table, self.id, self.due().named())

    def emit_state(self) -> None:
        """Log the table's state as an event and send it to every listener; whoever holds
        a hand in play gets it privately."""
        self.seq += 1
        self.send_logged(self.view().model_dump_json())
        for name, hand in self.hands().items():
            self.audience.send_to(name, hand)

    def tell(self, news: Sequence[str]) -> None:
        """Add ``news`` to what the table says."""
        self.news.extend(news)

    def shown(self) -> Shown[PlayersPhase]:
        """The fields every players' table shows (`P.PlayersState`)."""
        table, seats = self.table, self.seats
        who = None if table is None else table.actor
        in_shoe = (
            [] if table is None else [n for s, n in enumerate(table.names) if s not in table.gone]
        )
        return {
            "table": self.id,
            "seq": self.seq,
            "time": self.clock.now(),
            "phase": self.phase_now(),
            "players": list(seats.players),
            "in_shoe": in_shoe,
            "chips": None
            if table is None
            else {
                name: chips
                for seat, (name, chips) in enumerate(zip(table.names, table.bankrolls, strict=True))
                if seat not in table.gone
            },
            "away": sorted(seats.away & set(seats.players)),
            "leaving": sorted(seats.leaving),
            "paused": self.paused,
            "house_paused": self.house_paused,
            "to_act": None if who is None or table is None else table.names[who],
            # what the seat to act may stake or bid: its chips, the bank's open part
            "ranges": {}
            if who is None or table is None
            else {x.act.value: [x.low, x.high] for x in table.legal_actions(who) if x.high},
            "deadline": None
            if table is None or table.over or self.paused or self.held_now()
            else self.deadline,
            **self.due().named(),
            "news": list(self.news),
            "history": []
            if table is None
            else [c.to_json() for c in records.table_coups(table)][::-1][:10],
            "minimum": self.minimum,
            "fair": None if self.fair is None else P.Commitment(**self.fair.commitment()),
        }

    # -- the contract (`baccara.server.tables.contract`) -------------------------------------

    async def arrival(self, user: User | None) -> P.PlayersState:
        """The table's state (whoever joins: a player of a paused shoe wakes it)."""
        if user is not None and user.name in self.seats.players:
            self.wake.set()
        return self.view()

    def private_texts(self, user: User | None) -> list[str]:
        """The player's hand, when they come back to the felt with one in play."""
        hand = None if user is None else self.hands().get(user.name)
        return [] if hand is None else [hand.model_dump_json()]

    async def state(self, user: User | None) -> P.PlayersState:
        """The table as everybody sees it."""
        return self.view()

    def summary(self) -> P.TableSummary:
        """The lobby's line (no layout of bets, no roads)."""
        return self.lobby_line(
            phase=self.phase_now(),
            seats=self.seats.max_seats,
            seated=len(self.seats.players),
            squeeze=False,
            bets=[],
            limits={},
            roads=None,
            minimum=self.minimum,
            house_paused=self.house_paused,
        )

    async def handle(self, user: User, message: TableMessage) -> BaseModel | None:
        """Sitting down, leaving, a decision, or a seed for the next shoe."""
        match message:
            case P.SitMessage(buy_in=buy_in):
                await self.sit(user, buy_in)
            case P.LeaveMessage(stay=stay):
                await self.leave(user, stay=stay)
            case P.SitOutMessage(out=out):
                self.sit_out(user, out)
            case P.ActMessage():
                await self.act(user, message)
            case P.SeedMessage(seed=seed):
                self.add_client_seed(user, seed)
                return P.SeedAck(table=self.id, seed=seed)
            case _:
                raise Refused(
                    "wrong_table",
                    f"{message.type} is for the house-banked games, not a players' table",
                )
        return None

    async def edges(self) -> None:
        """None: a players' game has no house bets to give the edge of."""
        return

    def roads_svg(self) -> None:
        """None: a players' table draws no roads."""
        return

    async def shoe_records(self) -> list[Record]:
        """The last finished shoes' records, rebuilt from the database."""
        return await self.db(store.shoe_records, self)

    # -- the seats (`baccara.server.tables.players_seats`) -----------------------------------

    def present(self, name: str) -> bool:
        """Whether ``name`` is at the table to decide now (`PlayersSeats.present`)."""
        return self.seats.present(name, self.clock.now())

    def seat_of(self, name: str) -> int | None:
        """``name``'s seat in the shoe in play, unless they are not in it or have left it."""
        return seat_in(self.table, name)

    async def sit(self, user: User, buy_in: int) -> int:
        """Buy ``buy_in`` of chips from the wallet: a new player takes the next seat (play
        starts at the next shoe); one who plays this shoe adds them at once, between
        coups. The chips at the table now."""
        name = user.name
        self.seats.check_sit(name, buy_in)
        async with self.lock:  # the close cashes out under it: no chips bought after
            if self.closing or self.stopping:
                raise Refused("table_closed", "the house has closed the table")
            seat = self.seat_of(name)
            if seat is not None and self.table is not None:
                if not self.table.can_leave(seat):
                    raise Refused(
                        "in_play", "you have money in the coup being played: add chips after it"
                    )
                await self._decide_locked(
                    Action(act=Act.ADD_CHIPS, seat=seat, amount=buy_in), timed_out=False
                )
                self.tell(self.seats.back(name))
                return int(self.table.bankrolls[seat])
            chips = await self.db_write(  # the money gate: protections, loss limit, balance
                partial(self.chips.buy_in, name, buy_in, now=self.clock.now())
            )
            self.tell(self.seats.sat(name, buy_in, chips=chips))
        self.emit_state()
        self.wake.set()
        return chips

    async def leave(self, user: User, *, stay: bool = False) -> None:
        """Leave the table with the chips, at once; with money in the coup being played, as
        soon as it is settled (until then ``stay`` cancels it). Two leaves at once: the
        second is told the player is not seated."""
        name = user.name
        async with self.lock:
            if stay:
                self.tell(self.seats.stay(name))
            else:
                seat, table = self.seat_of(name), self.table
                can_leave = seat is not None and table is not None and table.can_leave(seat)
                match self.seats.leave(name, seat, can_leave=can_leave):
                    case Leave.NOW:  # not in the shoe in play (one being shuffled deals without)
                        await self.db_write(
                            partial(self.chips.cash_out, name, now=self.clock.now())
                        )
                        self.tell(self.seats.cashed_out(name))
                    case Leave.FROM_SHOE:
                        assert seat is not None
                        await self._seat_leaves(seat)
                    case Leave.AFTER_COUP:
                        self.tell(self.seats.waits(name))
        self.emit_state()
        self.wake.set()

    async def _seat_leaves(self, seat: int) -> None:
        """The seat leaves the shoe in play with its chips, cashed out in the same
        transaction (`Act.LEAVE`)."""
        assert self.table is not None
        name = self.table.names[seat]
        self.seats.leaving.discard(name)
        await self._decide_locked(Action(act=Act.LEAVE, seat=seat), timed_out=False)
        self.seats.unseat(name)

    async def _let_leave(self) -> None:
        """Those who asked to leave during a coup go, now that they may."""
        for seat in self.seats.going(self.table):
            await self._seat_leaves(seat)

    async def _let_go(self) -> None:
        """Cash out the players who asked to leave and are not in the shoe in play."""
        for name in self.seats.not_playing(() if self.table is None else self.table.names):
            await self.db_write(self.chips.cash_out, name)
            self.tell(self.seats.cashed_out(name))

    def sit_out(self, user: User, out: bool) -> None:
        """Sit out (the player's turns are passed at once by the house's rule) or come back."""
        news = self.seats.sit_out(user.name, out)
        if news:  # else as it is already
            self.tell(news)
            self.emit_state()
            self.wake.set()

    def add_client_seed(self, user: User, seed: str) -> None:
        """A seated player's seed for the next shoe (all seats' seeds shuffle it)."""
        if user.name not in self.seats.players:
            raise Refused("not_seated", "sit down to shuffle: only players' seeds count")
        if self.fair is None or self.fair.sealed:
            raise Refused("shoe_sealed", "the shoe is already shuffled: try at the next shoe")
        try:
            check_client_seed(seed)
        except FairError as error:
            raise Refused("bad_seed", str(error)) from None
        self.client_seeds[user.name] = seed

    # -- decisions (`baccara.server.tables.turns`) -------------------------------------------

    def due(self) -> Due:
        """The decision due (`baccara.server.tables.turns`): the shoe, the coup, its number."""
        table = self.table
        shoe, coup = (
            (None, 0) if table is None else (self.shoe_id, len(records.table_coups(table)) + 1)
        )
        return Due(shoe=shoe, coup=coup, taken=self.taken, deadline=self.deadline)

    @property
    def decisions(self) -> int:
        """The number of the decision due in the shoe in play (those taken so far)."""
        return len(self.taken)

    def taken_in(self, shoe_id: int | None) -> list[Taken]:
        """The decisions stored for shoe ``shoe_id``, in order (a database read)."""
        return [
            Taken(seat=action.seat, timed_out=timed_out, own=action.act in SEAT_ACTS)
            for action, timed_out in self.chips.actions(shoe_id or 0)
        ]

    async def act(self, user: User, asked: P.ActMessage) -> None:
        """``user`` decides (an `Act`), naming the decision they answer; refused with
        `Refused` if it is not the decision due (`baccara.server.tables.turns`), not theirs to
        take now, or the engine does not allow it."""
        async with self.lock:
            table = self.table
            if table is None or user.name not in table.names:
                raise Refused("not_your_turn", "you are not playing this shoe")
            if self.held_now():
                raise Refused("house_paused", f"{self.house_paused}: no new coup for now")
            seat = list(table.names).index(user.name)
            self.due().check(
                shoe=asked.shoe,
                coup=asked.coup,
                decision=asked.decision,
                seat=seat,
                now=self.clock.now(),
            )
            action = Action(
                act=Act(asked.action), seat=seat, amount=asked.amount or 0, tableau=asked.tableau
            )
            if action.act in SEAT_ACTS:
                raise Refused("not_allowed", "leave or add chips with their own messages")
            await self._decide_locked(action, timed_out=False)
            self.tell(self.seats.back(user.name))
            self.defaults = 0  # a person decided: the table is played

    async def _decide(self, action: Action, *, timed_out: bool) -> None:
        async with self.lock:
            await self._decide_locked(action, timed_out=timed_out)

    async def _default(self, due: int) -> None:
        """The house's rule for decision ``due``, unless somebody took it meanwhile; at a
        Banque auction nobody bid for, the shoe ends."""
        async with self.lock:
            table = self.table
            if table is None or self.decisions != due:
                return
            action = table.default_action()
            if action is not None:
                if action.seat is not None and self.present(name := table.names[action.seat]):
                    self.tell(self.seats.timed_out(name))  # there, and silent
                else:
                    self.defaults += 1  # for somebody away
                await self._decide_locked(action, timed_out=True)
            elif table.actor is None and not table.over:
                self.shoe_ended = True
                self.news.append("Nobody bid for the bank: the shoe ends.")

    async def _decide_locked(self, action: Action, *, timed_out: bool) -> None:
        """Apply and store ``action`` (the table's lock held)."""
        table = self.table
        assert table is not None and self.shoe_id is not None
        if self.shoe_ended:
            raise Refused("not_allowed", "the shoe is over")
        before, actor = self.money(table), table.actor
        coups = len(records.table_coups(table))
        try:
            events = table.apply(action)
        except self.game.errors as error:
            raise Refused(self.refusal(action, table), str(error)) from None
        after = self.money(table)
        moves = {key: after[key] - before[key] for key in after if after[key] != before[key]}
        own = action.act in SEAT_ACTS
        player = None if action.seat is None or not own else table.names[action.seat]
        if player is not None:  # the chips that came or went are the wallet's, moved apart
            moves[player] = moves.get(player, 0) - sum(moves.values())
        try:
            await self.db_write(
                partial(self.chips.record, player=player, now=self.clock.now()),
                self.shoe_id,
                len(self.taken),
                action,
                timed_out,
                {key: amount for key, amount in moves.items() if amount},
            )
        except Exception as error:
            if not isinstance(error, BetError | Refused):  # a refusal is expected
                log.exception("table %s: a decision was not stored: replaying the shoe", self.id)
            self.table = await self.db_write(store.rebuild, self, self.fair, self.shoe_id)
            self.taken = await self.db(self.taken_in, self.shoe_id)
            raise
        self.taken.append(Taken(seat=action.seat, timed_out=timed_out, own=own))
        for _ in range(len(records.table_coups(table)) - coups):  # a coup settled, stored
            self.services.metrics.round_ended(
                self.variant.family.value, self.variant.name, "settled"
            )
        self.fault("after_decision")  # stored, not yet shown to anybody
        # the news: each event as the engine lets everybody read it (none: not told)
        self.news.extend(words for event in events if (words := table.seen(event)) is not None)
        if not own or table.actor != actor:  # a seat's own act keeps the clock running
            self.deadline = self.clock.now() + self.timing.decision_seconds
        if not own:
            await self._let_leave()
        self.emit_state()
        self.wake.set()

    # -- shoes -------------------------------------------------------------------------------

    async def recover(self) -> None:
        """Seat again everybody with chips here, and resume the shoe in play."""
        found = await self.db_write(store.read_recovery, self)
        self.seats.seat([*found.players, *self.seats.bots])
        if found.shoe is not None:
            self.shoe_id, self.fair, self.table, self.taken = found.shoe
            # the players reconnect: the decision due waits a whole clock for them
            self.seats.grace_until = self.clock.now() + self.timing.decision_seconds
        for note in found.notes:
            log.warning("table %s: %s", self.id, note)
            self.news.append(note)

    async def _ready(self) -> tuple[list[str], dict[str, int]]:
        stacks = await self.db(self.chips.stacks, list(self.seats.players))
        return self.seats.ready(stacks), stacks

    async def _new_shoe(self) -> bool:
        """Commit to a shoe, take the seated players' seeds, shuffle and deal it to the
        players seated when the seeds close."""
        if self.seats.bots:
            await self.db_write(store.fund_bots, self)
            self.seats.seat(self.seats.bots)
        ready, _ = await self._ready()
        if not self.seats.playable(ready, self.clock.now()):
            return False
        self.fair = self.new_fair()
        self.shoe_id = await self.db_write(self.shoes.add, self.fair)
        self.client_seeds = {}
        self.phase = self.game.phases.shuffle
        self.deadline = self.clock.now() + self.timing.seed_seconds
        self.news.append("A new shoe: send your seeds to shuffle it.")
        self.emit_state()
        await self.clock.sleep(self.timing.seed_seconds)
        async with self.lock:  # a leave meanwhile is cashed out before or after the deal
            return await self._deal_shoe()

    async def _deal_shoe(self) -> bool:
        """Deal the committed shoe to the players seated now, or set it aside."""
        assert self.fair is not None and self.shoe_id is not None
        ready, stacks = await self._ready()
        if not self.seats.playable(ready, self.clock.now()):  # set aside: never dealt
            await self.db_write(partial(self.shoes.update, finished=True), self.shoe_id, self.fair)
            self.fair, self.shoe_id = None, None
            await self._let_go()
            return False
        seats = [SeatRow(name=name, chips=stacks[name]) for name in ready]
        seeds = [self.client_seeds.get(name, name) for name in ready]  # no seed: the name
        chips = [stacks[name] for name in ready]
        seating = Seating(names=tuple(ready), chips=tuple(chips), minimum=self.minimum)
        shoe = records.table_shoe(self.fair, seeds, seating)  # seals the seeds and seating
        self.table = self.new_engine(ready, chips, shoe, self.fair.rules)
        self.shoe_ended = False
        await self.db_write(self._start, seats)
        self.taken = []
        await self._let_go()  # who left during the shuffle and was not dealt in
        self.news.append(f"The shoe is shuffled, {len(ready)} players.")
        return True

    def _start(self, seats: list[SeatRow]) -> None:
        assert self.fair is not None and self.shoe_id is not None
        self.shoes.update(self.shoe_id, self.fair)
        self.chips.set_seats(self.shoe_id, seats, minimum=self.minimum)

    async def _finish_shoe(self) -> None:
        assert self.fair is not None and self.shoe_id is not None and self.table is not None
        await self.db_write(partial(self.shoes.update, finished=True), self.shoe_id, self.fair)
        if records.table_coups(self.table):
            record = records.game_record(self.fair, self.table)
            self.records.append(record)
            self.seq += 1
            event = P.ShoeEnd(table=self.id, seq=self.seq, time=self.clock.now(), record=record)
            self.send_logged(event.model_dump_json())
        self.table, self.fair, self.shoe_id = None, None, None
        await self._let_go()
        self.news.append("The shoe is finished.")

    # -- the loop ------------------------------------------------------------------------------

    async def run(self, delay: float = 0.0) -> None:
        """Recover, wait ``delay`` seconds, then play shoes until stopped."""
        await self.recover()
        await self.clock.sleep(delay)
        while not self.stopping:
            try:
                await self.step()
            except asyncio.CancelledError:
                raise
            except Exception:  # keep the table alive
                log.exception("table %s: step failed", self.id)
                await self.clock.sleep(1.0)

    async def step(self) -> None:
        """Start a shoe, or wait for the decision due and take the house's rule at the end;
        with nobody of the shoe at the table, wait for them (`PlayersSeats.awaited`)."""
        if self.closing and not self.coup_in_play():
            await self._close()
            return
        if self.held_now():
            self.emit_state()
            await self.held()
            return
        if not self.coup_in_play():
            self._take_setup()
        table = self.table
        if table is None or table.over or self.shoe_ended:
            if table is not None:
                await self._finish_shoe()
            self.phase = self.game.phases.waiting
            if not await self._new_shoe():
                await self._sleep(self.PAUSE_SECONDS)  # a sit or a return wakes it
                return
            table = self.table
            assert table is not None
        # nobody of the shoe here, or the house deciding for the absent round and round
        # with nobody else deciding and no coup dealt (a Banque banker whose only punter
        # is gone): wait for people
        stuck = self.defaults > 2 * len(table.names)
        if self.closing and stuck:  # closing, and the house's rule deals no coup: stop here
            await self._close()  # the coup not dealt ends; the chips as the books say
            return
        if not self.closing and (stuck or not self.seats.awaited(table, self.clock.now())):
            await self._pause()  # closing, the house decides for the absent: the coup ends
            return
        if self.paused:  # somebody came back: the decision due gets a whole clock
            self.paused = False
            self.deadline = self.clock.now() + self.timing.decision_seconds
            self.news.append("The table plays on.")
        settled = len(records.table_coups(table))
        bot = self.bot_action(table)
        if bot is not None:
            self.emit_state()
            await self.clock.sleep(self.timing.bot_seconds)
            with contextlib.suppress(BetError, Refused):
                await self._decide(bot, timed_out=False)
        elif (house := self.house_action(table)) is not None:
            self.defaults += 1
            with contextlib.suppress(BetError, Refused):
                await self._decide(house, timed_out=True)
        else:
            await self._wait(table)
        if len(records.table_coups(table)) != settled:  # a coup was settled: its result shows
            self.defaults = 0
            await self.clock.sleep(self.timing.result_seconds)

    # -- the house's control ------------------------------------------------------------------

    def look_again(self) -> None:
        """Wake the loop wherever it waits (the house's control changed)."""
        super().look_again()
        self.wake.set()

    def coup_in_play(self) -> bool:
        """Whether a coup is being played: some seat has money in it (its bank or a stake)."""
        table = self.table
        if table is None or table.over or self.shoe_ended:
            return False
        return any(table.in_play(seat) for seat in range(len(table.names)))

    def held_now(self) -> bool:
        """Whether the house holds the table now: paused, and no coup in play (the coup in
        play is finished first)."""
        return self.house_paused is not None and not self.coup_in_play()

    def _take_setup(self) -> None:
        """The house's timings (at once) and minimum (for the next shoe: a shoe's seating
        is sealed with its minimum), between coups."""
        setup, base = self.setup, self.base_timing
        self.timing = dataclasses.replace(
            base,
            decision_seconds=setup.decision_seconds or base.decision_seconds,
            result_seconds=setup.result_seconds or base.result_seconds,
        )
        if self.table is None:
            self.minimum = self.seats.minimum = setup.minimum or self.base_minimum

    async def _close(self) -> None:
        """The house closed the table, no coup in play: every seat leaves with its chips,
        cashed out to its wallet (the leave's own path), the shoe ends, whoever still
        holds chips here (as the books say) is cashed out, and the loop stops; all under
        the table's lock, which a buy-in takes to see the table closed."""
        async with self.lock:
            table = self.table
            if table is not None and not table.over and not self.shoe_ended:
                for seat in range(len(table.names)):
                    if not table.over and seat not in table.gone and table.can_leave(seat):
                        await self._seat_leaves(seat)
            if self.table is not None:
                await self._finish_shoe()
            for name in await self.db_write(self.chips.holders):
                await self.db_write(partial(self.chips.cash_out, name, now=self.clock.now()))
                self.tell(self.seats.cashed_out(name))
            self.stopping = True
        self.news.append("The house has closed the table: your chips are back in your wallet.")
        self.emit_state()

    async def _wait(self, table: Engine) -> None:
        """Wait for the decision due (the whole clock; none for an absent player), then
        take the house's rule."""
        seat = table.actor
        if seat is not None and not self.present(table.names[seat]):
            self.deadline = self.clock.now()
        elif self.deadline <= self.clock.now():  # a new decision: a new clock
            self.deadline = self.clock.now() + self.timing.decision_seconds
        self.emit_state()
        due, waiting_on = self.decisions, self.deadline

        def waiting() -> bool:  # for this decision, unless the house holds the table
            return self.decisions == due and not self.stopping and not self.held_now()

        while waiting() and self.clock.now() < waiting_on:
            await self._sleep(waiting_on - self.clock.now())
        if waiting():
            with contextlib.suppress(BetError, Refused):
                await self._default(due)

    async def _pause(self) -> None:
        """Nobody who plays the shoe is at the table: say so once, then wait for a join
        or a message, writing nothing (and looking again now and then)."""
        if not self.paused:
            self.paused = True
            self.deadline = float("inf")  # no clock runs: whoever comes back may act
            self.news.append("The table waits for its players to come back.")
            self.emit_state()
        self.wake.clear()  # our own decisions' wakes do not count: only a newcomer's
        if await self._sleep(self.PAUSE_SECONDS):  # a join, a sit, a decision: try again
            self.defaults = 0

    async def _sleep(self, seconds: float) -> bool:
        """Sleep ``seconds``, or until woken (a join, a sit, a decision): whether woken. A
        wake that came while the table was busy is not lost: it ends the next sleep."""
        woken = await self.clock.wait(self.wake, seconds)
        self.wake.clear()
        return woken
