"""One online Chemin de Fer table: seats in order, the bank passing round, decisions on a clock.

The engine is the terminal's, `baccara.skill.chemin.CheminTable`; the runner adds the
clock, the ledger and the broadcast. Players buy chips from their wallets and sit in
order; each shoe is provably fair (`baccara.fair`), shuffled from the server's
committed seed and every seated player's client seed in seat order, and played by the
players seated when it starts. Whoever the engine says must act is asked, with a
deadline shown to all; a player who does not answer in time (or is not connected)
gets the house's fixed rule (`CheminTable.default_action`). Each finished shoe's
record, with every decision, is published for ``baccara verify``.

Every decision is one database transaction (`baccara.db.chips.Chips.record`): its row
and the money it moved, mirrored from the engine (each player's chips, the pot on the
felt, the house's commission). A restarted server rebuilds the shoe from its seeds,
replays the decisions stored and waits again where it stopped: nothing is lost or paid
twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
import time
import uuid
from collections import deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import partial
from typing import Any, TypeVar

from baccara.cards import Card, hand_total
from baccara.db.chips import HOUSE_KEY, POT, Chips
from baccara.db.ledger import BetError, Ledger, wallet_account
from baccara.fair import FairError, FairShoe, check_client_seed
from baccara.money import format_money
from baccara.server import protocol as P
from baccara.server.auth import User
from baccara.server.runner import Fault, Listener, no_fault
from baccara.server.shoes import ShoeBook
from baccara.server.writer import BetBatcher
from baccara.shoe import ShoeSettings
from baccara.skill import records
from baccara.skill.actions import Act, Action
from baccara.skill.advice import banker_advice, punter_advice
from baccara.skill.bots import chemin_bot_action
from baccara.skill.chemin import (
    CheminError,
    CheminEvent,
    CheminTable,
    Dealt,
    Phase,
    PunterDecided,
)
from baccara.variants import Variant

__all__ = ["CheminRunner", "CheminTiming", "money"]

log = logging.getLogger("baccara.server")
_T = TypeVar("_T")

_CHOICES: dict[Phase, tuple[str, ...]] = {
    Phase.BANK: ("open_bank", "pass_bank"),
    Phase.STAKES: ("stake", "banco"),
    Phase.PUNTER: ("draw", "stand"),
    Phase.BANKER: ("banker_draw", "banker_stand"),
    Phase.AFTER: ("keep_bank", "pass_bank"),
}


@dataclass(frozen=True, slots=True, kw_only=True)
class CheminTiming:
    """How long each part lasts, in seconds."""

    decision_seconds: float = 20.0
    seed_seconds: float = 8.0  # between a shoe's commitment and its shuffle
    result_seconds: float = 3.0
    bot_seconds: float = 1.0  # how long a bot thinks


BOT_BUY_IN = 100_000
"""A bot's chips when it sits down (and again when it runs short)."""


def _advice(table: CheminTable) -> str | None:
    """Teaching mode's word at a free choice: the tableau's rule and the equilibrium."""
    if table.phase is Phase.PUNTER:
        return punter_advice(table).text
    if table.phase is Phase.BANKER and table.banker_free():
        return banker_advice(table).text
    return None


def _last(table: CheminTable) -> P.LastCoup | None:
    """The coup just settled (None before the shoe's first)."""
    coups = records.chemin_coups(table.log)
    if not coups:
        return None
    coup = coups[-1]
    return P.LastCoup(
        punter=table.names[coup.punter],
        banker=table.names[coup.banker],
        punter_cards=[str(c) for c in coup.punter_cards],
        banker_cards=[str(c) for c in coup.banker_cards],
        punter_total=hand_total(coup.punter_cards),
        banker_total=hand_total(coup.banker_cards),
        result=coup.result,  # type: ignore[arg-type]
    )


def _choices(table: CheminTable) -> list[str]:
    """What the seat to act may do now, as the engine allows it (a stake of 0 declines)."""
    seat = table.actor
    if seat is None:
        return []
    allowed = [
        act for act in _CHOICES.get(table.phase, ()) if act != "banco" or table.can_banco(seat)
    ]
    if table.phase is Phase.BANK and not table.can_open_bank(table.minimum):
        allowed.remove("open_bank")
    return allowed


def _face_up(cards: list[Card]) -> list[str]:
    """A hand's cards as everybody sees them during the coup: the third, dealt face up."""
    return [str(c) for c in cards[2:]]


def _public(event: CheminEvent, table: CheminTable) -> str:
    """An event in words for the whole table: nothing of a face-down hand before the
    coup is settled (the punter on 5 and the banker choose on what they alone know)."""
    if isinstance(event, Dealt):
        return f"{table.names[event.seat]} plays the hand against the bank."
    if isinstance(event, PunterDecided):
        if event.card is None:
            return "The punter stands."
        return f"The punter draws: {event.card}."
    return event.text


def _history(table: CheminTable, last: int = 10) -> list[dict[str, Any]]:
    """The shoe's last coups as its record holds them (hands, stakes, every decision)."""
    return [coup.to_json() for coup in reversed(records.chemin_coups(table.log)[-last:])]


def money(table: CheminTable) -> dict[str, int]:
    """Where the engine's money is: each seat's chips, the pot, the house's commission."""
    state = dict(zip(table.names, table.bankrolls, strict=True))
    return {**state, POT: table.bank + table.covered, HOUSE_KEY: table.house}


class CheminRunner:
    """One Chemin de Fer table of the server."""

    def __init__(
        self,
        *,
        table_id: str,
        variant: Variant,
        ledger: Ledger,
        executor: ThreadPoolExecutor,
        batcher: BetBatcher,
        timing: CheminTiming,
        fault: Fault = no_fault,
        decks: int | None = None,
        minimum: int = 1_000,
        seats: int = 12,
        bots: int = 0,
    ) -> None:
        self.id = table_id
        self.variant = variant
        self.ledger = ledger
        self.executor = executor
        self.batcher = batcher
        self.timing = timing
        self.fault = fault
        self.shoe_settings = ShoeSettings(decks=decks or variant.decks)
        self.minimum = minimum
        self.max_seats = min(seats, variant.seats)
        self.chips = Chips(ledger, table_id)
        self.shoes = ShoeBook(ledger, table_id)
        self.listeners: set[Listener] = set()
        self.events: deque[tuple[int, str]] = deque(maxlen=200)
        self.seq = 0
        self.players: list[str] = []  # seated, in seat order
        self.accounts: dict[str, int] = {}
        self.leaving: set[str] = set()
        self.client_seeds: dict[str, str] = {}
        self.table: CheminTable | None = None
        self.fair: FairShoe | None = None
        self.shoe_id: int | None = None
        self.decisions = 0  # decisions stored in this shoe
        self.deadline = 0.0
        self.grace_until = 0.0  # after a restart, absent players get one clock to return
        self.news: deque[str] = deque(maxlen=12)
        self.records: deque[dict[str, Any]] = deque(maxlen=20)
        # a space: no player can register a bot's name
        self.bots = [f"bot {n}" for n in range(1, min(bots, self.max_seats) + 1)]
        self.rng = random.Random(secrets.randbits(64))  # the bots' choices only
        self.stopping = False
        self.phase = "starting"
        self.wake = asyncio.Event()
        self.lock = asyncio.Lock()
        ledger.fault = fault

    # -- plumbing --------------------------------------------------------------------------

    async def db(self, fn: Callable[..., _T], *args: Any) -> _T:
        """Run a blocking database read on the worker threads."""
        return await asyncio.get_running_loop().run_in_executor(self.executor, partial(fn, *args))

    async def db_write(self, fn: Callable[..., _T], *args: Any) -> _T:
        """Run a database write on the writer thread."""
        return await self.batcher.call(fn, *args)

    def emit_state(self) -> None:
        """Log the table's state as an event and send it to every listener; the punter
        and the banker get their own two cards privately."""
        self.seq += 1
        text = self.view(P.CheminState, seq=self.seq).model_dump_json()
        self.events.append((self.seq, text))
        hands = self.hands()
        for listener in list(self.listeners):
            listener.send_text(text)
            if listener.user is not None and listener.user.name in hands:
                listener.send(hands[listener.user.name])

    def hands(self) -> dict[str, P.CheminHand]:
        """What the punter and the banker see of their own hands while the coup is played
        (and, for whoever must choose, teaching mode's advice)."""
        table = self.table
        if table is None or table.phase not in (Phase.PUNTER, Phase.BANKER):
            return {}
        assert table.player_seat is not None
        who = table.actor
        out = {}
        for side, seat, cards in (
            ("punter", table.player_seat, table.punter_cards),
            ("banker", table.banker, table.banker_cards),
        ):
            name = table.names[seat]
            out[name] = P.CheminHand(
                table=self.id,
                side=side,  # type: ignore[arg-type]
                cards=[str(c) for c in cards],
                total=hand_total(cards),
                advice=_advice(table) if seat == who else None,
            )
        return out

    def view(self, kind: type[P.CheminState], **extra: Any) -> P.CheminState:
        """The table as everybody sees it (no card of the shoe before it is dealt)."""
        table = self.table
        who = None if table is None else table.actor
        in_shoe = () if table is None else table.names
        dealt = table is not None and table.phase in (Phase.PUNTER, Phase.BANKER)
        return kind(
            table=self.id,
            seq=extra.pop("seq", self.seq),
            time=time.time(),
            phase=self.phase if table is None else table.phase.value,
            players=list(self.players),
            in_shoe=list(in_shoe),
            chips=None if table is None else dict(zip(table.names, table.bankrolls, strict=True)),
            banker=None if table is None else table.names[table.banker],
            bank=0 if table is None else table.bank,
            stakes={} if table is None else {table.names[s]: a for s, a in table.stakes.items()},
            to_act=None if who is None or table is None else table.names[who],
            choices=[] if table is None else _choices(table),
            deadline=self.deadline if who is not None else None,
            punter=None
            if table is None or table.player_seat is None or not dealt
            else (table.names[table.player_seat]),
            # the first two cards of each hand lie face down until the coup is settled
            punter_cards=[] if table is None or not dealt else _face_up(table.punter_cards),
            banker_cards=[] if table is None or not dealt else _face_up(table.banker_cards),
            hidden=2 if dealt else 0,
            news=list(self.news),
            last=None if table is None else _last(table),
            history=[] if table is None else _history(table),
            minimum=self.minimum,
            fair=None if self.fair is None else P.Commitment(**self.fair.commitment()),
            **extra,
        )

    def connected(self, name: str) -> bool:
        """Whether ``name`` has a connection to this table now."""
        return any(lst.user is not None and lst.user.name == name for lst in self.listeners)

    # -- players ---------------------------------------------------------------------------

    async def sit(self, user: User, buy_in: int) -> int:
        """Buy ``buy_in`` of chips from the wallet and take the next seat (play starts at
        the next shoe); the chips at the table now."""
        if user.name not in self.players and len(self.players) >= self.max_seats:
            raise BetError("table_full", f"all {self.max_seats} seats are taken")
        if buy_in < self.minimum:
            raise BetError("under_limit", f"the buy-in is at least {format_money(self.minimum)}")
        try:
            chips = await self.db_write(self.chips.buy_in, user.name, buy_in)
        except ValueError as error:
            raise BetError("insufficient_funds", str(error)) from None
        if user.name not in self.players:
            self.players.append(user.name)
        self.accounts[user.name] = user.account
        self.leaving.discard(user.name)
        self.news.append(f"{user.name} sits down with {format_money(chips)}.")
        self.emit_state()
        self.wake.set()
        return chips

    async def leave(self, user: User) -> None:
        """Leave the table: the chips go back to the wallet now, or at the shoe's end."""
        if user.name not in self.players:
            raise BetError("not_seated", "you are not seated at this table")
        if self.table is not None and user.name in self.table.names:
            self.leaving.add(user.name)
            self.news.append(f"{user.name} leaves at the end of the shoe.")
        else:
            await self.db_write(self.chips.cash_out, user.name)
            self.players.remove(user.name)
            self.news.append(f"{user.name} leaves the table.")
        self.emit_state()
        self.wake.set()

    def add_client_seed(self, user: User, seed: str) -> None:
        """A seated player's seed for the next shoe (all seats' seeds shuffle it)."""
        if user.name not in self.players:
            raise BetError("not_seated", "sit down to shuffle: only players' seeds count")
        if self.fair is None or self.fair.sealed:
            raise BetError("shoe_sealed", "the shoe is already shuffled: try at the next shoe")
        try:
            check_client_seed(seed)
        except FairError as error:
            raise BetError("bad_seed", str(error)) from None
        self.client_seeds[user.name] = seed

    async def act(self, user: User, name: str, amount: int | None) -> None:
        """``user`` decides (an action of `ACTIONS`); refused with `BetError` if it is not
        theirs to take now or the engine does not allow it."""
        table = self.table
        if table is None or user.name not in table.names:
            raise BetError("not_your_turn", "you are not playing this shoe")
        action = Action(act=Act(name), seat=table.names.index(user.name), amount=amount or 0)
        await self._decide(action, timed_out=False)

    async def _decide(self, action: Action, *, timed_out: bool) -> None:
        async with self.lock:
            await self._decide_locked(action, timed_out=timed_out)

    async def _default(self, due: int) -> None:
        """The house's rule for decision ``due``, unless somebody took it meanwhile."""
        async with self.lock:
            table = self.table
            if table is None or self.decisions != due:
                return
            action = table.default_action()
            if action is not None:
                await self._decide_locked(action, timed_out=True)

    async def _decide_locked(self, action: Action, *, timed_out: bool) -> None:
        table = self.table
        assert table is not None and self.shoe_id is not None
        before = money(table)
        try:
            events = table.apply(action)
        except CheminError as error:
            code = "not_your_turn" if action.seat != table.actor else "not_allowed"
            raise BetError(code, str(error)) from None
        after = money(table)
        moves = {key: after[key] - before[key] for key in after if after[key] != before[key]}
        try:
            await self.db_write(
                self.chips.record, self.shoe_id, self.decisions, action, timed_out, moves
            )
        except Exception:
            log.exception("table %s: a decision was not stored: replaying the shoe", self.id)
            await self.db_write(self._replay)
            raise
        self.decisions += 1
        self.fault("after_decision")  # stored, not yet shown to anybody
        self.news.extend(_public(event, table) for event in events)
        self.deadline = time.time() + self.timing.decision_seconds
        self.emit_state()
        self.wake.set()

    # -- shoes -------------------------------------------------------------------------------

    def seat_bots(self) -> None:
        """Fund and seat the table's bots (their chips come from the outside world, as a
        player's welcome does)."""
        for name in self.bots:
            short = BOT_BUY_IN - self.chips.stacks([name])[name]
            if short > BOT_BUY_IN - self.minimum:  # below the table's minimum: top up
                wallet = self.ledger.create_account(wallet_account(name))
                self.ledger.deposit(wallet, short, ref=f"bot:{self.id}:{name}:{uuid.uuid4()}")
                self.chips.buy_in(name, short)
            if name not in self.players:
                self.players.append(name)

    def recover(self) -> list[str]:
        """Rebuild the shoe a crash left and replay its decisions (nothing to settle: each
        decision's money was stored with it)."""
        self.seat_bots()
        found = self.shoes.unfinished()
        if found is None:
            return []
        self.shoe_id, self.fair = found
        seats = self.chips.seats(self.shoe_id)
        if seats is None or not self.fair.sealed:  # never dealt: set aside, a new one comes
            self.shoes.update(self.shoe_id, self.fair, finished=True)
            self.fair, self.shoe_id = None, None
            return ["the shoe had not started: a new one is made"]
        self.players = [seat["name"] for seat in seats]
        self._replay()
        # the players reconnect: the decision due waits a whole clock for them
        self.grace_until = time.time() + self.timing.decision_seconds
        return [f"shoe resumed after {self.decisions} decisions"]

    def _replay(self) -> None:
        """The engine at the last stored decision of the shoe in play."""
        assert self.fair is not None and self.shoe_id is not None
        self.table = self.rebuild(self.fair, self.shoe_id)
        self.decisions = len(self.chips.actions(self.shoe_id))

    def rebuild(self, fair: FairShoe, shoe_id: int) -> CheminTable:
        """Shoe ``shoe_id`` dealt again from its seeds with every decision stored."""
        seats = self.chips.seats(shoe_id)
        if seats is None:
            raise CheminError(f"shoe {shoe_id} was never dealt")
        shoe = fair.shoe()
        shoe.burn()
        table = CheminTable(
            names=[s["name"] for s in seats],
            bankrolls=[s["chips"] for s in seats],
            variant=self.variant,
            shoe=shoe,
            minimum=self.minimum,
        )
        for action, _ in self.chips.actions(shoe_id):
            table.apply(action)
        return table

    def shoe_records(self, limit: int = 20) -> list[dict[str, Any]]:
        """The finished shoes' records, every decision in them, for ``baccara verify``
        (rebuilt from the database, so they outlive a restart), newest first."""
        out = []
        for shoe_id, fair in self.shoes.finished(limit):
            if self.chips.seats(shoe_id) is None:
                continue  # set aside before it was dealt
            coups = records.chemin_coups(self.rebuild(fair, shoe_id).log)
            if coups:
                out.append(records.game_record(fair, coups))
        return out

    def _engine(self, names: list[str], chips: list[int]) -> CheminTable:
        """The engine for a new shoe: shuffled with each seat's seed (a player who sent
        none shuffles with the name)."""
        fair = self.fair
        assert fair is not None
        seeds = [self.client_seeds.get(name, name) for name in names]
        shoe = records.table_shoe(fair, seeds)
        return CheminTable(
            names=names, bankrolls=chips, variant=self.variant, shoe=shoe, minimum=self.minimum
        )

    async def _ready(self) -> tuple[list[str], dict[str, int]]:
        seated = list(self.players)
        stacks = await self.db(self.chips.stacks, seated)
        ready = [p for p in seated if p not in self.leaving and stacks[p] >= self.minimum]
        return ready, stacks

    async def _new_shoe(self) -> bool:
        """Commit to a shoe, take the seated players' seeds, shuffle and deal it to the
        players seated when the seeds close."""
        if self.bots:
            await self.db_write(self.seat_bots)
        ready, _ = await self._ready()
        if len(ready) < 2 or all(name in self.bots for name in ready):  # bots never play alone
            return False
        self.fair = records.new_game_shoe(self.variant, self.shoe_settings)
        self.shoe_id = await self.db_write(self.shoes.add, self.fair)
        self.client_seeds = {}
        self.phase = "shuffle"
        self.deadline = time.time() + self.timing.seed_seconds
        self.news.append("A new shoe: send your seeds to shuffle it.")
        self.emit_state()
        await asyncio.sleep(self.timing.seed_seconds)
        ready, stacks = await self._ready()
        if len(ready) < 2 or all(name in self.bots for name in ready):  # set aside: never dealt
            await self.db_write(partial(self.shoes.update, finished=True), self.shoe_id, self.fair)
            self.fair, self.shoe_id = None, None
            return False
        seats = [{"name": name, "chips": stacks[name]} for name in ready]
        self.table = self._engine(ready, [stacks[name] for name in ready])  # seals the seeds
        await self.db_write(self._start, seats)
        self.decisions = 0
        self.news.append(f"The shoe is shuffled; {ready[0]} holds the bank first.")
        return True

    def _start(self, seats: list[dict[str, Any]]) -> None:
        assert self.fair is not None and self.shoe_id is not None
        self.shoes.update(self.shoe_id, self.fair)
        self.chips.set_seats(self.shoe_id, seats)

    async def _finish_shoe(self) -> None:
        assert self.fair is not None and self.shoe_id is not None and self.table is not None
        await self.db_write(partial(self.shoes.update, finished=True), self.shoe_id, self.fair)
        coups = records.chemin_coups(self.table.log)
        if coups:
            record = records.game_record(self.fair, coups)
            self.records.append(record)
            self.seq += 1
            event = P.ShoeEnd(table=self.id, seq=self.seq, time=time.time(), record=record)
            self.events.append((self.seq, text := event.model_dump_json()))
            for listener in list(self.listeners):
                listener.send_text(text)
        for name in sorted(self.leaving):
            await self.db_write(self.chips.cash_out, name)
            self.players.remove(name)
        self.leaving.clear()
        self.table, self.fair, self.shoe_id = None, None, None
        self.news.append("The shoe is finished.")

    # -- the loop ------------------------------------------------------------------------------

    async def run(self) -> None:
        """Recover, then play shoes until stopped."""
        for note in await self.db_write(self.recover):
            log.warning("table %s: %s", self.id, note)
            self.news.append(note)
        while not self.stopping:
            try:
                await self.step()
            except asyncio.CancelledError:
                raise
            except Exception:  # keep the table alive
                log.exception("table %s: step failed", self.id)
                await asyncio.sleep(1.0)

    async def step(self) -> None:
        """Start a shoe, or wait for the decision due and take the house's rule at the end."""
        table = self.table
        if table is None or table.phase is Phase.OVER:
            if table is not None:
                await self._finish_shoe()
            self.phase = "waiting"
            if not await self._new_shoe():
                await self._sleep(1.0)
                return
            table = self.table
            assert table is not None
        seat = table.actor
        assert seat is not None
        name = table.names[seat]
        if name in self.bots:
            self.emit_state()
            await asyncio.sleep(self.timing.bot_seconds)
            with contextlib.suppress(BetError):
                await self._decide(chemin_bot_action(table, self.rng), timed_out=False)
            return
        present = name not in self.leaving and (
            self.connected(name) or time.time() < self.grace_until
        )
        if not present:
            self.deadline = time.time()
        elif self.deadline < time.time():
            self.deadline = time.time() + self.timing.decision_seconds
        self.emit_state()
        due, waiting_on = self.decisions, self.deadline
        while self.decisions == due and time.time() < waiting_on and not self.stopping:
            await self._sleep(waiting_on - time.time())
        if self.decisions == due and not self.stopping:
            with contextlib.suppress(BetError):
                await self._default(due)
        if table.phase is Phase.OVER or (table.phase is Phase.BANK and self.decisions != due):
            await asyncio.sleep(self.timing.result_seconds)

    async def _sleep(self, seconds: float) -> None:
        self.wake.clear()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.wake.wait(), max(0.0, seconds))
