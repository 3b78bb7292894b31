"""One online Chemin de Fer table: seats in order, the bank passing round, decisions on a clock.

The engine is the terminal's, `baccara.skill.chemin.CheminTable`; the runner adds the
clock, the ledger and the broadcast. Players buy chips from their wallets and sit in
order; each shoe is provably fair (`baccara.fair`), shuffled from the server's
committed seed and every seated player's client seed in seat order, and played by the
players seated when it starts. Whoever the engine says must act is asked, with a
deadline shown to all; a player who does not answer in time (or is not connected)
gets the house's fixed rule (`house_default`).

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
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import partial
from typing import Any, TypeVar

from baccara.db.books import HOUSE
from baccara.db.chips import POT, Action, Chips
from baccara.db.ledger import BetError, Ledger
from baccara.fair import FairShoe
from baccara.money import format_money
from baccara.server import protocol as P
from baccara.server.auth import User
from baccara.server.runner import Fault, Listener, no_fault
from baccara.server.shoes import ShoeBook
from baccara.server.writer import BetBatcher
from baccara.shoe import Shoe, ShoeRules
from baccara.skill import tableaux
from baccara.skill.chemin import CheminError, CheminEvent, CheminTable, Phase
from baccara.variants import Variant

__all__ = ["ACTIONS", "CheminRunner", "CheminTiming", "house_default"]

log = logging.getLogger("baccara.server")
_T = TypeVar("_T")

ACTIONS = (
    "open_bank",
    "pass_bank",
    "keep_bank",
    "stake",
    "banco",
    "draw",
    "stand",
    "banker_draw",
    "banker_stand",
)
"""Every decision a player can send, by the engine's action names."""

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


def actor(table: CheminTable) -> int | None:
    """The seat that must decide now, or None (between shoes)."""
    if table.phase in (Phase.BANK, Phase.AFTER, Phase.BANKER):
        return table.banker
    if table.phase is Phase.STAKES:
        return table.to_act
    if table.phase is Phase.PUNTER:
        return table.player_seat
    return None


def house_default(table: CheminTable) -> Action:
    """The house's fixed rule for the seat that does not answer: the bank passes on, a
    punter declines to cover it, a punter on 5 and a banker in a free cell play as the
    house tableau binds them.

    >>> from baccara.cards import parse_cards
    >>> table = CheminTable(names=("Ann", "Bob"), bankrolls=(10_000,) * 2,
    ...     shoe=Shoe.stacked(parse_cards("2h 5s 3d Qc 9c 4d") * 9))
    >>> house_default(table)
    Action(seat=0, action='pass_bank', amount=None, timed_out=True)
    """
    seat = actor(table)
    if seat is None:
        raise CheminError("nobody has to decide now")
    phase = table.phase
    if phase in (Phase.BANK, Phase.AFTER):
        return Action(seat=seat, action="pass_bank", timed_out=True)
    if phase is Phase.STAKES:
        return Action(seat=seat, action="stake", amount=0, timed_out=True)
    if phase is Phase.PUNTER:
        draws = tableaux.house_punter_draws(table.punter_total)
        return Action(seat=seat, action="draw" if draws else "stand", timed_out=True)
    draws = tableaux.house_banker_draws(table.banker_total, table.punter_third, table.tableau)
    return Action(seat=seat, action="banker_draw" if draws else "banker_stand", timed_out=True)


def apply(table: CheminTable, action: Action) -> tuple[CheminEvent, ...]:
    """Play ``action`` on ``table`` (the engine checks it: `CheminError` if not allowed)."""
    if actor(table) != action.seat:
        who = actor(table)
        raise CheminError(
            "it is nobody's turn now"
            if who is None
            else f"it is {table.names[who]}'s turn, not {table.names[action.seat]}'s"
        )
    name = action.action
    if name in ("open_bank", "stake"):
        if action.amount is None:
            raise CheminError(f"{name.replace('_', ' ')} needs an amount")
        return (
            table.open_bank(action.amount)
            if name == "open_bank"
            else table.stake(action.seat, action.amount)
        )
    plays: dict[str, Callable[[], tuple[CheminEvent, ...]]] = {
        "pass_bank": table.pass_bank,
        "keep_bank": table.keep_bank,
        "banco": lambda: table.banco(action.seat),
        "draw": table.draw,
        "stand": table.stand,
        "banker_draw": table.banker_draw,
        "banker_stand": table.banker_stand,
    }
    if name not in plays:
        raise CheminError(f"unknown decision {name!r}: one of {', '.join(ACTIONS)}")
    return plays[name]()


def money(table: CheminTable) -> dict[str, int]:
    """Where the engine's money is: each seat's chips, the pot, the house's commission."""
    state = dict(zip(table.names, table.bankrolls, strict=True))
    return {**state, POT: table.bank + table.covered, HOUSE: table.house}


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
    ) -> None:
        self.id = table_id
        self.variant = variant
        self.ledger = ledger
        self.executor = executor
        self.batcher = batcher
        self.timing = timing
        self.fault = fault
        self.shoe_rules = ShoeRules(decks=decks or variant.decks)
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
        self.news: deque[str] = deque(maxlen=12)
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
        """Log the table's state as an event and send it to every listener."""
        self.seq += 1
        text = self.view(P.CheminState, seq=self.seq).model_dump_json()
        self.events.append((self.seq, text))
        for listener in list(self.listeners):
            listener.send_text(text)

    def view(self, kind: type[P.CheminState], **extra: Any) -> P.CheminState:
        """The table as everybody sees it (no card of the shoe before it is dealt)."""
        table = self.table
        who = None if table is None else actor(table)
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
            choices=[] if table is None else list(_CHOICES.get(table.phase, ())),
            deadline=self.deadline if who is not None else None,
            punter=None
            if table is None or table.player_seat is None or not dealt
            else (table.names[table.player_seat]),
            punter_cards=[] if table is None or not dealt else [str(c) for c in table.punter_cards],
            banker_cards=[] if table is None or not dealt else [str(c) for c in table.banker_cards],
            news=list(self.news),
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
        if not 1 <= len(seed) <= 64:
            raise BetError("bad_seed", "bad client seed: a string of 1 to 64 characters")
        self.client_seeds[user.name] = seed

    async def act(self, user: User, name: str, amount: int | None) -> None:
        """``user`` decides (an action of `ACTIONS`); refused with `BetError` if it is not
        theirs to take now or the engine does not allow it."""
        table = self.table
        if table is None or user.name not in table.names:
            raise BetError("not_your_turn", "you are not playing this shoe")
        action = Action(seat=table.names.index(user.name), action=name, amount=amount)
        await self._decide(action)

    async def _decide(self, action: Action) -> None:
        async with self.lock:
            table = self.table
            assert table is not None and self.shoe_id is not None
            before = money(table)
            try:
                events = apply(table, action)
            except CheminError as error:
                raise BetError("not_allowed", str(error)) from None
            after = money(table)
            moves = {key: after[key] - before[key] for key in after if after[key] != before[key]}
            try:
                await self.db_write(self.chips.record, self.shoe_id, self.decisions, action, moves)
            except Exception:
                log.exception("table %s: a decision was not stored: replaying the shoe", self.id)
                await self.db_write(self._replay)
                raise
            self.decisions += 1
            self.news.extend(event.text for event in events)
            self.deadline = time.time() + self.timing.decision_seconds
            self.emit_state()
            self.wake.set()

    # -- shoes -------------------------------------------------------------------------------

    def recover(self) -> list[str]:
        """Rebuild the shoe a crash left and replay its decisions (nothing to settle: each
        decision's money was stored with it)."""
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
        return [f"shoe resumed after {self.decisions} decisions"]

    def _replay(self) -> None:
        """The engine at the last stored decision of the shoe in play."""
        assert self.fair is not None and self.shoe_id is not None
        seats = self.chips.seats(self.shoe_id)
        assert seats is not None
        self.table = self._engine([s["name"] for s in seats], [s["chips"] for s in seats])
        actions = self.chips.actions(self.shoe_id)
        for action in actions:
            apply(self.table, action)
        self.decisions = len(actions)

    def _engine(self, names: list[str], chips: list[int]) -> CheminTable:
        assert self.fair is not None
        shoe = self.fair.shoe()
        cards = Shoe(shoe.cards, rules=self.shoe_rules)
        cards.burn()
        return CheminTable(
            names=names, bankrolls=chips, variant=self.variant, shoe=cards, minimum=self.minimum
        )

    async def _new_shoe(self) -> bool:
        """Commit to a shoe, take the seated players' seeds, shuffle and deal it."""
        seated = list(self.players)
        stacks = await self.db(self.chips.stacks, seated)
        ready = [p for p in seated if p not in self.leaving and stacks[p] >= self.minimum]
        if len(ready) < 2:
            return False
        self.fair = FairShoe.new(self.variant, self.shoe_rules)
        self.shoe_id = await self.db_write(self.shoes.add, self.fair)
        self.client_seeds = {}
        self.phase = "shuffle"
        self.deadline = time.time() + self.timing.seed_seconds
        self.news.append("A new shoe: send your seeds to shuffle it.")
        self.emit_state()
        await asyncio.sleep(self.timing.seed_seconds)
        for name in ready:  # in seat order
            if name in self.client_seeds:
                self.fair.add_client_seed(self.client_seeds[name])
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
        assert self.fair is not None and self.shoe_id is not None
        await self.db_write(partial(self.shoes.update, finished=True), self.shoe_id, self.fair)
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
        seat = actor(table)
        assert seat is not None
        present = self.connected(table.names[seat]) and table.names[seat] not in self.leaving
        if not present:
            self.deadline = time.time()
        elif self.deadline < time.time():
            self.deadline = time.time() + self.timing.decision_seconds
        self.emit_state()
        due, waiting_on = self.decisions, self.deadline
        while self.decisions == due and time.time() < waiting_on and not self.stopping:
            await self._sleep(waiting_on - time.time())
        if self.decisions == due and not self.stopping:
            with contextlib.suppress(BetError):  # somebody decided at the last moment
                await self._decide(house_default(table))
        if table.phase is Phase.OVER or (table.phase is Phase.BANK and self.decisions != due):
            await asyncio.sleep(self.timing.result_seconds)

    async def _sleep(self, seconds: float) -> None:
        self.wake.clear()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.wake.wait(), max(0.0, seconds))
