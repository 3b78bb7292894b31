"""The players' tables online: seats in order, shoes every seat shuffles, decisions on a clock.

`PlayersRunner` is what a Chemin de Fer table (`baccara.server.tables.chemin`) and a Baccarat
Banque table (`baccara.server.tables.banque`) share; each game adds its engine (the terminal's,
from `baccara.skill`), what the table shows, and its bots. Players buy chips from their
wallets and sit in order; each shoe is provably fair (`baccara.fair`), shuffled from the
server's committed seed and every seated player's client seed in seat order, and played
by the players seated when it starts. Whoever the engine says must act is asked, with a
deadline shown to all; a player who does not answer in time (or is not connected) gets
the house's fixed rule (the engine's ``default_action``). Each finished shoe's record,
with every decision, is published for ``baccara verify``.

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
from collections.abc import Mapping, Sequence
from functools import partial
from typing import Any, TypeVar

from pydantic import BaseModel

from baccara.db.auth import User
from baccara.db.chips import SeatRow
from baccara.db.ledger import BetError
from baccara.fair import FairShoe
from baccara.server.tables import players_store as store
from baccara.server.tables.contract import Record, TableMessage
from baccara.server.tables.game import (
    Engine,
    GameTable,
    Labelled,
    PlayersPhase,
    PlayersTiming,
    Shown,
    money_state,
)
from baccara.server.tables.players_seats import PlayersSeats
from baccara.server.tables.refusal import Refused
from baccara.server.tables.turns import Due, Taken
from baccara.server.wire import protocol as P
from baccara.shoe import Shoe
from baccara.skill import records
from baccara.skill.actions import SEAT_ACTS, Act, Action
from baccara.skill.game_rules import Seating, game_table

__all__ = ["PlayersRunner", "PlayersTiming", "money_state"]

log = logging.getLogger("baccara.server")
_T = TypeVar("_T")


class PlayersRunner(PlayersSeats[Engine, PlayersPhase]):
    """One players' table of the server; a game subclasses it."""

    errors: tuple[type[Exception], ...] = (ValueError,)
    """The engine's refusals (answered as ``not_allowed`` or ``not_your_turn``)."""

    # -- what a game adds ----------------------------------------------------------------

    engine: type[Engine]
    """The game's engine (`baccara.skill`), as the shoe's committed rules make it."""

    def new_engine(
        self, names: list[str], chips: list[int], shoe: Shoe, rules: Mapping[str, Any]
    ) -> Engine:
        """The game's engine for a shoe, as its committed ``rules`` say."""
        seating = Seating(names=tuple(names), chips=tuple(chips), minimum=self.minimum)
        table = game_table(rules, seating, shoe)
        assert isinstance(table, self.engine)
        return table

    def new_fair(self) -> FairShoe:
        """The table's next shoe: a fresh secret seed and the rules it commits to (the
        punter always speaks, so that being asked tells nobody his cards)."""
        return records.new_game_shoe(self.variant, self.shoe_settings, punter_speaks=True)

    def coups(self, table: Engine) -> Sequence[records.GameCoup]:
        """The finished coups of the shoe, as its record holds them."""
        raise NotImplementedError

    def pot(self, table: Engine) -> int:
        """The money on the felt: the bank and the stakes still at risk."""
        raise NotImplementedError

    def view(self) -> P.PlayersState:
        """The table as everybody sees it (no card of the shoe before it is dealt)."""
        raise NotImplementedError

    def phase_now(self) -> PlayersPhase:
        """The phase the table shows: its engine's while a shoe is dealt, else the
        runner's own (a game says it, its engine's phase being its `Phase`)."""
        raise NotImplementedError

    def hands(self) -> dict[str, BaseModel]:
        """Each player's private message now (their own cards, teaching's advice)."""
        raise NotImplementedError

    def bot_action(self, table: Engine) -> Action | None:
        """What a bot does now, if a bot has something to do."""
        raise NotImplementedError

    def house_action(self, table: Engine) -> Action | None:
        """What the house does at once, asking nobody: a punter whose chips are under the
        table's minimum is not offered a stake (he declines; more chips let him play)."""
        seat = table.to_act  # a punter to stake
        if seat is None or table.bankrolls[seat] >= self.minimum:
            return None
        action = table.default_action()
        reason = "his chips are under the table's minimum"
        return None if action is None else dataclasses.replace(action, reason=reason)

    @staticmethod
    def labelled(choices: list[str], *more: str) -> Labelled:
        """``choices`` and the words their buttons (and ``more``'s) say, for a view."""
        return {"choices": choices, "labels": {c: Act(c).label for c in (*choices, *more)}}

    def emit_state(self) -> None:
        """Log the table's state as an event and send it to every listener; whoever holds
        a hand in play gets it privately."""
        self.seq += 1
        self.send_logged(self.view().model_dump_json())
        for name, hand in self.hands().items():
            self.audience.send_to(name, hand)

    def shown(self) -> Shown[PlayersPhase]:
        """The fields every players' table shows (`P.PlayersState`)."""
        table = self.table
        who = None if table is None else table.actor
        return {
            "table": self.id,
            "seq": self.seq,
            "time": self.clock.now(),
            "phase": self.phase_now(),
            "players": list(self.players),
            "in_shoe": []
            if table is None
            else [name for seat, name in enumerate(table.names) if seat not in table.gone],
            "chips": None
            if table is None
            else {
                name: chips
                for seat, (name, chips) in enumerate(zip(table.names, table.bankrolls, strict=True))
                if seat not in table.gone
            },
            "away": sorted(self.away & set(self.players)),
            "leaving": sorted(self.leaving),
            "paused": self.paused,
            "to_act": None if who is None or table is None else table.names[who],
            # what the seat to act may stake or bid: its chips, the bank's open part
            "ranges": {}
            if who is None or table is None
            else {x.act.value: [x.low, x.high] for x in table.legal_actions(who) if x.high},
            "deadline": None if table is None or self.over(table) or self.paused else self.deadline,
            **self.due().named(),
            "news": list(self.news),
            "history": [] if table is None else [c.to_json() for c in self.coups(table)][::-1][:10],
            "minimum": self.minimum,
            "fair": None if self.fair is None else P.Commitment(**self.fair.commitment()),
        }

    def money(self, table: Engine) -> dict[str, int]:
        """Where the engine's money is (`money_state`)."""
        return money_state(table, self.pot(table))

    @staticmethod
    def over(table: GameTable) -> bool:
        """Whether ``table``'s shoe is finished."""
        return table.over

    # -- the contract (`baccara.server.tables.contract`) -------------------------------------

    async def arrival(self, user: User | None) -> P.PlayersState:
        """The table's state (whoever joins: a player of a paused shoe wakes it)."""
        if user is not None and user.name in self.players:
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
            seats=self.max_seats,
            seated=len(self.players),
            squeeze=False,
            bets=[],
            limits={},
            roads=None,
            minimum=self.minimum,
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

    def due(self) -> Due:
        """The decision due (`baccara.server.tables.turns`): the shoe, the coup, its number."""
        table = self.table
        shoe, coup = (None, 0) if table is None else (self.shoe_id, len(self.coups(table)) + 1)
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
            self._back(user.name)
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
                    self._missed(name)  # there, and silent
                else:
                    self.defaults += 1  # for somebody away
                await self._decide_locked(action, timed_out=True)
            elif table.actor is None and not self.over(table):
                self.shoe_ended = True
                self.news.append("Nobody bid for the bank: the shoe ends.")

    def refusal(self, action: Action, table: Engine) -> str:
        """The error code of an action the engine refused."""
        if table.actor is not None and action.seat != table.actor:
            return "not_your_turn"
        return "not_allowed"

    async def _decide_locked(self, action: Action, *, timed_out: bool) -> None:
        table = self.table
        assert table is not None and self.shoe_id is not None
        if self.shoe_ended:
            raise Refused("not_allowed", "the shoe is over")
        before, actor = self.money(table), table.actor
        try:
            events = table.apply(action)
        except self.errors as error:
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

    def _seat(self, names: Sequence[str]) -> None:
        for name in names:
            if name not in self.players and len(self.players) < self.max_seats:
                self.players.append(name)

    async def recover(self) -> None:
        """Seat again everybody with chips here, and resume the shoe in play."""
        found = await self.db_write(store.read_recovery, self)
        self._seat([*found.players, *self.bots])
        if found.shoe is not None:
            self.shoe_id, self.fair, self.table, self.taken = found.shoe
            # the players reconnect: the decision due waits a whole clock for them
            self.grace_until = self.clock.now() + self.timing.decision_seconds
        for note in found.notes:
            log.warning("table %s: %s", self.id, note)
            self.news.append(note)

    async def shoe_records(self) -> list[Record]:
        """The last finished shoes' records, rebuilt from the database."""
        return await self.db(store.shoe_records, self)

    async def _ready(self) -> tuple[list[str], dict[str, int]]:
        seated = list(self.players)
        stacks = await self.db(self.chips.stacks, seated)
        ready = [p for p in seated if p not in self.leaving and stacks[p] >= self.minimum]
        return ready, stacks

    def _playable(self, ready: list[str]) -> bool:
        """Two players or more, one of them a person at the table (bots never play alone,
        and nobody is dealt a shoe while away)."""
        return len(ready) >= 2 and any(
            name not in self.bots and self.present(name) for name in ready
        )

    async def _new_shoe(self) -> bool:
        """Commit to a shoe, take the seated players' seeds, shuffle and deal it to the
        players seated when the seeds close."""
        if self.bots:
            await self.db_write(store.fund_bots, self)
            self._seat(self.bots)
        ready, _ = await self._ready()
        if not self._playable(ready):
            return False
        self.fair = self.new_fair()
        self.shoe_id = await self.db_write(self.shoes.add, self.fair)
        self.client_seeds = {}
        self.phase = self.phases.shuffle
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
        if not self._playable(ready):  # set aside: never dealt
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
        self.chips.set_seats(self.shoe_id, seats)

    async def _let_go(self) -> None:
        """Cash out the players who asked to leave and are not in the shoe in play."""
        playing = () if self.table is None else self.table.names
        for name in sorted(self.leaving - set(playing)):
            await self.db_write(self.chips.cash_out, name)
            self._unseat(name)
            self.news.append(f"{name} leaves the table.")

    async def _finish_shoe(self) -> None:
        assert self.fair is not None and self.shoe_id is not None and self.table is not None
        await self.db_write(partial(self.shoes.update, finished=True), self.shoe_id, self.fair)
        coups = self.coups(self.table)
        if coups:
            record = records.game_record(self.fair, self.table)
            self.records.append(record)
            self.seq += 1
            event = P.ShoeEnd(table=self.id, seq=self.seq, time=self.clock.now(), record=record)
            self.events.append((self.seq, text := event.model_dump_json()))
            self.audience.broadcast(self.seq, text)
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
        with nobody of the shoe at the table, wait for them (`awaited`)."""
        table = self.table
        if table is None or self.over(table) or self.shoe_ended:
            if table is not None:
                await self._finish_shoe()
            self.phase = self.phases.waiting
            if not await self._new_shoe():
                await self._sleep(self.PAUSE_SECONDS)  # a sit or a return wakes it
                return
            table = self.table
            assert table is not None
        # nobody of the shoe here, or the house deciding for the absent round and round
        # with nobody else deciding and no coup dealt (a Banque banker whose only punter
        # is gone): wait for people
        if not self.awaited(table) or self.defaults > 2 * len(table.names):
            await self._pause()
            return
        if self.paused:  # somebody came back: the decision due gets a whole clock
            self.paused = False
            self.deadline = self.clock.now() + self.timing.decision_seconds
            self.news.append("The table plays on.")
        settled = len(self.coups(table))
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
        if len(self.coups(table)) != settled:  # a coup was settled: its result shows
            self.defaults = 0
            await self.clock.sleep(self.timing.result_seconds)

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
        while self.decisions == due and self.clock.now() < waiting_on and not self.stopping:
            await self._sleep(waiting_on - self.clock.now())
        if self.decisions == due and not self.stopping:
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

    PAUSE_SECONDS = 30.0
    """How often a paused table looks again without being woken (a restart's grace ends)."""

    async def _sleep(self, seconds: float) -> bool:
        """Sleep ``seconds``, or until woken (a join, a sit, a decision): whether woken. A
        wake that came while the table was busy is not lost: it ends the next sleep."""
        woken = await self.clock.wait(self.wake, seconds)
        self.wake.clear()
        return woken
