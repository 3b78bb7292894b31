"""One online table: the round loop on the server clock, bets, the deal, the settlement.

The table engine (`baccara.table.engine.Table`) keeps the shoe, the phases, the coups and the
roads; the money goes through the ledger (`baccara.db.ledger.Ledger`), one database
transaction per bet and one per settlement. Shoes are provably fair
(`baccara.fair.FairShoe`), stored with their seed so that a restarted server deals
exactly the coups the shoe holds.

Start-up recovery policy: a round whose betting had closed is dealt from its stored
shoe and settled; a round still open is voided and every bet refunded.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import signal
import threading
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import partial
from typing import Any, TypeVar

import sqlalchemy as sa

from baccara.bets import BetKind, bets_for
from baccara.coup import Coup
from baccara.db.ledger import BetError, BetReceipt, Ledger, check_amount, rounds
from baccara.db.schema import online_shoes
from baccara.fair import FairShoe, ShoeRecord
from baccara.roads.render import render_svg
from baccara.server.auth import User
from baccara.shoe import ShoeRules
from baccara.table.engine import Table, TableRules, reveal
from baccara.table.events import Phase
from baccara.variants import Variant

__all__ = ["BetBatcher", "CrashPoints", "Listener", "TableRunner", "Timing"]

log = logging.getLogger("baccara.server")
_T = TypeVar("_T")


@dataclass(frozen=True, slots=True, kw_only=True)
class Timing:
    """How long each part of a round lasts, in seconds."""

    bet_seconds: float = 15.0
    card_seconds: float = 0.7
    result_seconds: float = 4.0
    squeeze_seconds: float = 8.0  # the face-down first four cards, at squeeze tables


class CrashPoints:
    """Crash injection for tests: ``BACCARA_CRASH_AT=name`` SIGKILLs the server at the
    ``BACCARA_CRASH_AFTER``-th (default 1st) time it reaches the point ``name``.

    Points: ``after_debit`` (bet committed, reply not sent), ``bet_debited`` (inside
    the bet transaction), ``settling`` (inside the settlement transaction),
    ``mid_deal`` (after the third card is shown). Only rounds with bets reach the last two.
    """

    def __init__(self, target: str | None = None, after: int = 1) -> None:
        self.target = target if target is not None else os.environ.get("BACCARA_CRASH_AT")
        self.after = int(os.environ.get("BACCARA_CRASH_AFTER", after))
        self.hits = 0

    def __call__(self, name: str) -> None:
        if name != self.target:
            return
        self.hits += 1
        if self.hits >= self.after:
            log.warning("crash point %s: SIGKILL", name)
            os.kill(os.getpid(), signal.SIGKILL)


class Listener:
    """One connected client of a table: a bounded queue of messages to send."""

    def __init__(self, user: User | None) -> None:
        self.user = user
        self.queue: asyncio.Queue[str] = asyncio.Queue(maxsize=2000)
        self.dropped = False

    def send(self, message: dict[str, Any]) -> None:
        """Queue a message (as JSON)."""
        self.send_text(json.dumps(message, separators=(",", ":")))

    def send_text(self, text: str) -> None:
        """Queue a JSON text; a client too slow to keep up is dropped (it will reconnect)."""
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:
            self.dropped = True


class BetBatcher:
    """The database writer: one thread that group-commits bets and runs the other writes.

    Bets waiting for the database go in one transaction together (up to ``size``),
    so one commit serves many bets and a refused bet changes nothing; each bet is
    answered only after its batch commits. Other writes (`call`: rounds opened,
    closed, settled) run between batches, after any bets waiting. The thread takes its
    work straight from the queue, so a busy event loop delays the answers, never the
    writing. One thread serves both databases: SQLite has one writer at a time, and
    on PostgreSQL more writer threads measured slower (they fight over the GIL).
    """

    def __init__(self, ledger: Ledger, size: int = 200) -> None:
        self.ledger = ledger
        self.size = size
        self.bets: deque[tuple[dict[str, Any], asyncio.Future[Any]]] = deque()
        self.jobs: deque[tuple[Callable[[], Any], asyncio.Future[Any]]] = deque()
        self.ready = threading.Condition()
        self.stopping = False
        self.thread: threading.Thread | None = None
        self.loop: asyncio.AbstractEventLoop | None = None

    def start(self) -> None:
        """Start the writer thread (from the event loop that will await the answers)."""
        self.loop = asyncio.get_running_loop()
        self.thread = threading.Thread(target=self._work, name="baccara-writer", daemon=True)
        self.thread.start()

    def stop(self) -> None:
        """Finish the write in progress and stop the thread."""
        with self.ready:
            self.stopping = True
            self.ready.notify()
        if self.thread is not None:
            self.thread.join(timeout=10)

    async def submit(self, **request: Any) -> BetReceipt:
        """Queue one bet (`Ledger.place_bet`'s arguments); its receipt, or `BetError`."""
        future: asyncio.Future[BetReceipt] = asyncio.get_running_loop().create_future()
        with self.ready:
            self.bets.append((request, future))
            self.ready.notify()
        return await future

    async def call(self, fn: Callable[..., _T], *args: Any, **kwargs: Any) -> _T:
        """Run another write on the writer thread, after any bets waiting."""
        future: asyncio.Future[_T] = asyncio.get_running_loop().create_future()
        with self.ready:
            self.jobs.append((partial(fn, *args, **kwargs), future))
            self.ready.notify()
        return await future

    def _work(self) -> None:
        loop = self.loop
        assert loop is not None
        while (task := self._next()) is not None:
            futures, work = task
            try:
                answers = work()
            except Exception as error:
                answers = [error] * len(futures)
            loop.call_soon_threadsafe(_answer, list(zip(futures, answers, strict=True)))

    def _next(self) -> tuple[list[asyncio.Future[Any]], Callable[[], list[Any]]] | None:
        """The next batch of bets, or else the next other write (None: stop)."""
        with self.ready:
            while not (self.bets or self.jobs or self.stopping):
                self.ready.wait()
            if self.stopping:
                return None
            if self.bets:
                batch = [self.bets.popleft() for _ in range(min(self.size, len(self.bets)))]
                requests = [request for request, _ in batch]
                return [future for _, future in batch], partial(self.ledger.place_bets, requests)
            job, future = self.jobs.popleft()
            return [future], lambda: [job()]


def _answer(pairs: list[tuple[asyncio.Future[Any], Any]]) -> None:
    for future, answer in pairs:
        if future.done():
            continue
        if isinstance(answer, Exception):
            future.set_exception(answer)
        else:
            future.set_result(answer)


class TableRunner:
    """One table of the server: its engine, its round loop and its listeners."""

    def __init__(
        self,
        *,
        table_id: str,
        variant: Variant,
        ledger: Ledger,
        executor: ThreadPoolExecutor,
        batcher: BetBatcher,
        timing: Timing,
        crash: CrashPoints,
        decks: int | None = None,
        squeeze: bool = False,
    ) -> None:
        self.id = table_id
        self.squeeze = squeeze
        self.squeezing: dict[str, Any] | None = None  # the squeeze under way, if any
        self.variant = variant
        self.ledger = ledger
        self.executor = executor
        self.batcher = batcher
        self.timing = timing
        self.crash = crash
        self.shoe_rules = ShoeRules(decks=decks or variant.decks)
        self.rules = TableRules(seats=min(14, variant.seats), shoe=self.shoe_rules)
        self.table = Table(variant=variant, rules=self.rules)
        self.kinds = frozenset(bets_for(variant))
        # The last events as sent (seq, JSON text) for reconnecting clients: text, not
        # dicts, so that thousands of them give the garbage collector nothing to scan.
        self.events: deque[tuple[int, str]] = deque(maxlen=1000)
        self.seq = 0
        self.listeners: set[Listener] = set()
        self.seats: dict[str, int] = {}
        self.fair: FairShoe | None = None
        self.shoe_id: int | None = None
        self.round_id: int | None = None
        self.round_number = 0
        self.phase = "starting"
        self.closes_at = 0.0
        self.round_bets: dict[str, dict[str, int]] = {}
        self.bets_changed = False
        self.history: deque[dict[str, Any]] = deque(maxlen=10)
        self.records: deque[dict[str, Any]] = deque(maxlen=20)
        self.revealed: list[dict[str, Any]] = []
        self.stopping = False
        ledger.fault = crash

    # -- plumbing ---------------------------------------------------------------------

    async def db(self, fn: Callable[..., _T], *args: Any, **kwargs: Any) -> _T:
        """Run a blocking database call on the worker threads."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.executor, partial(fn, *args, **kwargs))

    async def db_write(self, fn: Callable[..., _T], *args: Any, **kwargs: Any) -> _T:
        """Run a database write on the writer thread (after any bets waiting)."""
        return await self.batcher.call(fn, *args, **kwargs)

    def emit(self, kind: str, /, **data: Any) -> dict[str, Any]:
        """Log an event and send it to every listener."""
        self.seq += 1
        event = {"type": kind, "table": self.id, "seq": self.seq, "time": time.time(), **data}
        text = json.dumps(event, separators=(",", ":"))  # once, for every listener
        self.events.append((self.seq, text))
        for listener in list(self.listeners):
            listener.send_text(text)
        return event

    def send_to(self, name: str, message: dict[str, Any]) -> None:
        """Send a private message to every connection of player ``name``."""
        for listener in list(self.listeners):
            if listener.user is not None and listener.user.name == name:
                listener.send(message)

    # -- recovery -----------------------------------------------------------------------

    def recover(self) -> list[str]:
        """Finish what a crash left: rebuild the shoe, settle closed rounds, void open ones."""
        notes: list[str] = []
        with self.ledger.engine.connect() as conn:
            shoe = (
                conn.execute(
                    sa.select(online_shoes)
                    .where(online_shoes.c.table_id == self.id, online_shoes.c.finished.is_(False))
                    .order_by(online_shoes.c.id.desc())
                )
                .mappings()
                .first()
            )
            last = conn.execute(
                sa.select(sa.func.max(rounds.c.number)).where(rounds.c.table_id == self.id)
            ).scalar()
        self.round_number = int(last or 0)
        if shoe is not None:
            self.shoe_id = int(shoe["id"])
            self.fair = FairShoe(
                server_seed=shoe["server_seed"],
                rules=dict(shoe["rules"]),
                client_seeds=list(shoe["client_seeds"]),
                sealed=bool(shoe["sealed"]),
            )
            if self.fair.sealed:
                self._replay_shoe()
                if self.table.phase is Phase.SHOE_CHANGE:  # crashed before the reveal
                    self._finish_shoe()
                    notes.append("the last shoe had ended: its seed is revealed")
        for row in self.ledger.unfinished_rounds(self.id):
            if row["phase"] == "open":
                self.ledger.void_round(row["id"])
                notes.append(f"round {row['number']} was open: voided, bets refunded")
                continue
            if self.fair is None or row["shoe_id"] != self.shoe_id:
                self.ledger.void_round(row["id"])
                notes.append(f"round {row['number']} had no shoe: voided, bets refunded")
                continue
            if not self.fair.sealed:
                self._seal()
            coup = self.table.deal().coup
            self.ledger.settle_round(row["id"], coup, self.variant.name)
            self.table.settle()
            notes.append(f"round {row['number']} was closed: dealt {coup} and settled")
            if self.table.phase is Phase.SHOE_CHANGE:
                self._finish_shoe()
        return notes

    def _replay_shoe(self) -> None:
        assert self.fair is not None
        self.table.change_shoe(self.fair.shoe().cards)
        with self.ledger.engine.connect() as conn:
            done = conn.execute(
                sa.select(rounds.c.coup)
                .where(rounds.c.shoe_id == self.shoe_id, rounds.c.phase == "settled")
                .order_by(rounds.c.coup_index)
            ).all()
        for (notation,) in done:
            coup = self.table.deal().coup
            if coup.notation() != notation:
                raise RuntimeError(f"shoe {self.shoe_id} replays {coup}, the store has {notation}")
            self.table.settle()

    def _new_shoe(self) -> None:
        self.fair = FairShoe.new(self.variant, self.shoe_rules)
        with self.ledger.engine.begin() as conn:
            key = conn.execute(
                online_shoes.insert().values(
                    table_id=self.id,
                    server_seed=self.fair.server_seed,
                    rules=self.fair.rules,
                    client_seeds=[],
                    sealed=False,
                    finished=False,
                )
            ).inserted_primary_key
        assert key is not None
        self.shoe_id = int(key[0])

    def _seal(self) -> None:
        assert self.fair is not None
        with self.ledger.engine.begin() as conn:
            conn.execute(
                online_shoes.update()
                .where(online_shoes.c.id == self.shoe_id)
                .values(sealed=True, client_seeds=list(self.fair.client_seeds))
            )
        self.table.change_shoe(self.fair.shoe().cards)

    def _finish_shoe(self) -> dict[str, Any]:
        assert self.fair is not None
        record = self.fair.record([c.notation() for c in self.table.coups]).to_json()
        with self.ledger.engine.begin() as conn:
            conn.execute(
                online_shoes.update().where(online_shoes.c.id == self.shoe_id).values(finished=True)
            )
        self.records.append(record)
        self.fair = None
        return record

    def add_client_seed(self, seed: str) -> None:
        """A player's seed for the shoe not yet shuffled (stored before it is used)."""
        if self.fair is None or self.fair.sealed:
            raise BetError("shoe_sealed", "the shoe is already shuffled: try at the next shoe")
        self.fair.add_client_seed(seed)
        with self.ledger.engine.begin() as conn:
            conn.execute(
                online_shoes.update()
                .where(online_shoes.c.id == self.shoe_id)
                .values(client_seeds=list(self.fair.client_seeds))
            )

    # -- the round loop -------------------------------------------------------------------

    async def run(self) -> None:
        """Recover, then play rounds until stopped."""
        try:
            notes = await self.db_write(self.recover)
        except Exception:
            log.exception("table %s: recovery failed; the table stays closed", self.id)
            self.phase = "closed"
            raise
        for note in notes:
            log.warning("table %s: %s", self.id, note)
            self.emit("notice", text=note)
        while not self.stopping:
            try:
                await self.play_round()
            except asyncio.CancelledError:
                raise
            except Exception:  # keep the table alive; the next round starts clean
                log.exception("table %s: round failed", self.id)
                await asyncio.sleep(1.0)

    async def play_round(self) -> None:
        """One round: bets, no more bets, the deal card by card, settlement."""
        if self.fair is None or (self.table.phase is Phase.SHOE_CHANGE and self.fair.sealed):
            await self.db_write(self._new_shoe)
            assert self.fair is not None
            self.emit("shoe", **self.fair.commitment())
        assert self.fair is not None
        self.round_number += 1
        self.closes_at = time.time() + self.timing.bet_seconds
        self.round_bets = {}
        self.revealed = []
        self.round_id = await self.db_write(
            self.ledger.open_round,
            table=self.id,
            number=self.round_number,
            shoe_id=self.shoe_id,
            coup_index=len(self.table.coups) + 1 if self.fair.sealed else 1,
            closes_at=self.closes_at,
        )
        self.phase = "betting"
        self.emit(
            "round_open",
            round=self.round_id,
            number=self.round_number,
            closes_at=self.closes_at,
            seconds=self.timing.bet_seconds,
        )
        while (left := self.closes_at - time.time()) > 0:
            await asyncio.sleep(min(left, 0.25))
            self._send_bets()
        self.phase = "closing"
        await self.db_write(self.ledger.close_round, self.round_id)
        self.phase = "dealing"
        self.emit("no_more_bets", round=self.round_id)
        assert self.fair is not None
        if not self.fair.sealed:
            await self.db_write(self._seal)
        coup = self.table.deal().coup
        self._send_bets()  # the last bets before the close
        if self.squeeze:
            await self._squeeze()
        for index, step in enumerate(reveal(coup)):
            shown = {
                "card": None if step.card is None else str(step.card),
                "side": None if step.side is None else step.side.word,
                "player": [str(c) for c in step.player],
                "banker": [str(c) for c in step.banker],
                "words": step.words,
                "reason": step.reason,
            }
            self.revealed.append(shown)
            self.emit("card", round=self.round_id, step=index, **shown)
            await asyncio.sleep(self.timing.card_seconds)
            if index == 2 and self.round_bets:
                self.crash("mid_deal")  # the third card is out (and sent)
        await self.db_write(self.ledger.settle_round, self.round_id, coup, self.variant.name)
        self.table.settle()
        await self._announce(coup)
        if self.table.phase is Phase.SHOE_CHANGE:
            record = await self.db_write(self._finish_shoe)
            self.emit("shoe_end", record=record)
        self.phase = "settled"
        await asyncio.sleep(self.timing.result_seconds)

    async def _squeeze(self) -> None:
        """The first two cards of each hand lie face down while their squeezers peel them.

        A hand's squeezer is the player with the largest stake on it (the first to bet,
        on equal stakes); nobody's bet on it: the croupier turns it. No card value is
        sent: the values go out in the ``card`` events after the squeeze, which ends
        after ``Timing.squeeze_seconds`` or as soon as every squeezer has peeled fully.
        """
        squeezers: dict[str, str | None] = {}
        for side in ("player", "banker"):
            stakes = [(bets[side], n) for n, bets in self.round_bets.items() if bets.get(side)]
            squeezers[side] = max(stakes, key=lambda stake: stake[0])[1] if stakes else None
        ends_at = time.time() + self.timing.squeeze_seconds
        announced: dict[str, Any] = {
            "round": self.round_id,
            "cards": {"player": 2, "banker": 2},
            "squeezers": squeezers,
            "seconds": self.timing.squeeze_seconds,
            "ends_at": ends_at,
        }
        peel = {"player": 0.0, "banker": 0.0}
        self.squeezing = {**announced, "peel": peel}
        self.phase = "squeeze"
        self.emit("squeeze", **announced)
        sent = dict(peel)
        squeezed = [side for side, name in squeezers.items() if name is not None]
        while (left := ends_at - time.time()) > 0:
            await asyncio.sleep(min(left, 0.1))
            for side, value in peel.items():
                if value != sent[side]:  # the squeezer's hand, relayed (not logged)
                    sent[side] = value
                    self._relay(
                        {"type": "peel", "table": self.id, "round": self.round_id, "side": side}
                        | {"by": squeezers[side], "peel": value}
                    )
            if squeezed and all(peel[side] >= 1.0 for side in squeezed):
                break
        self.squeezing = None
        self.phase = "dealing"

    def peel(self, user: User, side: Any, amount: Any) -> None:
        """A squeezer bends a hand's cards (0 flat .. 1 turned); 1 ends their squeeze."""
        squeezing = self.squeezing
        if squeezing is None:
            raise BetError("not_squeezing", "no card is being squeezed now")
        if side not in ("player", "banker"):
            raise BetError("bad_side", f"bad side {side!r}: player or banker")
        if squeezing["squeezers"][side] != user.name:
            who = squeezing["squeezers"][side] or "the croupier"
            raise BetError("not_squeezer", f"the {side} cards are squeezed by {who}")
        if isinstance(amount, bool) or not isinstance(amount, int | float) or not 0 <= amount <= 1:
            raise BetError("bad_peel", "peel must be a number from 0 to 1")
        squeezing["peel"][side] = max(squeezing["peel"][side], float(amount))

    def _relay(self, message: dict[str, Any]) -> None:
        text = json.dumps(message, separators=(",", ":"))
        for listener in list(self.listeners):
            listener.send_text(text)

    def _send_bets(self) -> None:
        """The layout: every player's stakes this round (coalesced, not one event per bet)."""
        if not self.bets_changed:
            return
        self.bets_changed = False
        totals: dict[str, int] = {}
        for stakes in self.round_bets.values():
            for kind, amount in stakes.items():
                totals[kind] = totals.get(kind, 0) + amount
        players = {name: dict(stakes) for name, stakes in self.round_bets.items()}
        self.emit("bets", round=self.round_id, totals=totals, players=players)

    async def _announce(self, coup: Coup) -> None:
        assert self.round_id is not None
        placed = await self.db(self.ledger.round_bets, self.round_id)
        by_player: dict[int, dict[str, int]] = {}
        for bet in placed:
            mine = by_player.setdefault(bet["account_id"], {"staked": 0, "returned": 0})
            mine["staked"] += int(bet["amount"])
            mine["returned"] += int(bet["returned"] or 0)
        result = {
            "round": self.round_id,
            "number": self.round_number,
            "coup": coup.notation(),
            "winner": coup.winner.word,
            "player_total": coup.player_total,
            "banker_total": coup.banker_total,
            "announcement": coup.announcement(),
            "steps": list(self.revealed),
        }
        self.history.appendleft(result)
        self.emit("result", **result, roads=self.roads_json())
        names = {
            listener.user.account: listener.user.name
            for listener in self.listeners
            if listener.user
        }
        here = [account for account in by_player if account in names]
        balances = await self.db(self.ledger.balances, here) if here else {}
        for account in here:
            self.send_to(
                names[account],
                {
                    "type": "payout",
                    "table": self.id,
                    "round": self.round_id,
                    "balance": balances[account],
                    **by_player[account],
                },
            )

    # -- players --------------------------------------------------------------------------

    def take_seat(self, user: User) -> int | None:
        """Seat a player (or find their seat); None when the table is full."""
        if user.name in self.seats:
            return self.seats[user.name]
        taken = set(self.seats.values())
        for number in range(1, self.rules.seats + 1):
            if number not in taken:
                self.seats[user.name] = number
                self.emit("seat", seat=number, player=user.name)
                return number
        return None

    async def place_bet(self, user: User, message: dict[str, Any]) -> dict[str, Any]:
        """Check and place one bet; the answer is an ack or raises `BetError`."""
        bet_id = message.get("bet_id")
        if not isinstance(bet_id, str) or not 1 <= len(bet_id) <= 64:
            raise BetError("bad_bet_id", "bad bet id: a string of 1 to 64 characters")
        try:
            kind = BetKind.parse(str(message.get("kind", "")))
        except ValueError as error:
            raise BetError("unknown_bet", str(error)) from None
        if kind not in self.kinds:
            raise BetError(
                "unknown_bet", f"this {self.variant.title} table takes no {kind.label} bets"
            )
        amount = check_amount(message.get("amount"))
        open_now = self.phase == "betting" and time.time() < self.closes_at
        if not open_now or message.get("round") not in (None, self.round_id):
            stored = await self.db(self.ledger.find_bet, user.account, bet_id)
            if stored is not None and (stored.amount, stored.kind) == (amount, kind.value):
                return _ack(stored, self.id)
            if stored is not None:
                raise BetError(
                    "bet_id_reused", f"bet id {bet_id!r} was already used for another bet"
                )
            raise BetError("betting_closed", "no more bets: wait for the next round")
        if self.take_seat(user) is None:
            raise BetError("table_full", f"all {self.rules.seats} seats are taken")
        limit = self.rules.limit(kind)
        already = self.round_bets.get(user.name, {}).get(kind.value, 0)
        if amount < limit.minimum:
            raise BetError("under_limit", f"{kind.label} minimum is {limit.minimum}")
        if already + amount > limit.maximum:
            raise BetError(
                "over_limit", f"{kind.label} maximum is {limit.maximum} (you have {already} on it)"
            )
        assert self.round_id is not None
        request: dict[str, Any] = {
            "account": user.account,
            "round_id": self.round_id,
            "bet_id": bet_id,
            "kind": kind.value,
            "amount": amount,
        }
        receipt = await self.batcher.submit(**request)
        self.crash("after_debit")
        if not receipt.duplicate:
            mine = self.round_bets.setdefault(user.name, {})
            mine[kind.value] = mine.get(kind.value, 0) + amount
            self.bets_changed = True  # the round loop sends the layout a few times a second
        return _ack(receipt, self.id)

    # -- views ------------------------------------------------------------------------------

    def roads_json(self) -> dict[str, Any]:
        """Roads, ask-road predictions and statistics of the current shoe."""
        roads = self.table.roads
        return {
            "svg": render_svg(roads, cell=18),
            "predictions": {side.word: p.to_json() for side, p in roads.predictions().items()},
            "statistics": roads.statistics().to_json(),
            "results": "".join(cell.result.value for cell in roads.bead_plate),
        }

    def summary(self) -> dict[str, Any]:
        """The lobby's line for this table."""
        return {
            "id": self.id,
            "variant": self.variant.name,
            "title": self.variant.title,
            "description": self.variant.description,
            "phase": self.phase,
            "players": len({listener.user.name for listener in self.listeners if listener.user}),
            "seats": self.rules.seats,
            "seated": len(self.seats),
            "squeeze": self.squeeze,
            "limits": self.limits(),
            "roads": self.roads_json(),
        }

    def limits(self) -> dict[str, dict[str, int]]:
        """Minimum and maximum of each bet this table takes."""
        return {
            kind.value: {
                "min": self.rules.limit(kind).minimum,
                "max": self.rules.limit(kind).maximum,
            }
            for kind in bets_for(self.variant)
        }

    async def snapshot(self, user: User | None) -> dict[str, Any]:
        """Everything a (re)connecting client needs to draw the table."""
        balance = None if user is None else await self.db(self.ledger.balance, user.account)
        mine: list[dict[str, Any]] = []
        if user is not None and self.round_id is not None:
            rows = await self.db(self.ledger.round_bets, self.round_id, user.account)
            mine = [
                {
                    "bet_id": r["bet_id"],
                    "kind": r["kind"],
                    "amount": r["amount"],
                    "status": r["status"],
                }
                for r in rows
            ]
        return {
            "type": "snapshot",
            "table": self.id,
            "seq": self.seq,
            "variant": self.variant.name,
            "title": self.variant.title,
            "pays": _pays(self.variant),
            "limits": self.limits(),
            "phase": self.phase,
            "round": self.round_id,
            "number": self.round_number,
            "closes_at": self.closes_at,
            "server_time": time.time(),
            "time_left": max(0.0, self.closes_at - time.time()) if self.phase == "betting" else 0.0,
            "bet_seconds": self.timing.bet_seconds,
            "squeeze": self.squeeze,
            "squeeze_seconds": self.timing.squeeze_seconds if self.squeeze else 0.0,
            "squeezing": None if self.squeezing is None else dict(self.squeezing),
            "user": None if user is None else user.name,
            "seat": None if user is None else self.seats.get(user.name),
            "seats": dict(self.seats),
            "balance": balance,
            "my_bets": mine,
            "table_bets": {name: dict(b) for name, b in self.round_bets.items()},
            "revealed": list(self.revealed),
            "history": list(self.history),
            "roads": self.roads_json(),
            "fair": None if self.fair is None else self.fair.commitment(),
            "records": list(self.records)[-3:],
            "shoe_coups": len(self.table.coups),
        }


def _ack(receipt: Any, table: str) -> dict[str, Any]:
    return {
        "type": "bet_ack",
        "table": table,
        "bet_id": receipt.bet_id,
        "round": receipt.round_id,
        "kind": receipt.kind,
        "amount": receipt.amount,
        "balance": receipt.balance,
        "duplicate": receipt.duplicate,
        "status": receipt.status,
        "returned": receipt.returned,
    }


def _pays(variant: Variant) -> dict[str, str]:
    from baccara.bets import describe_pays

    return {kind.value: describe_pays(kind, variant) for kind in bets_for(variant)}


def shoe_records(ledger: Ledger, table_id: str, limit: int = 20) -> list[dict[str, Any]]:
    """Finished shoes of a table as verify records (seed revealed), newest first."""
    with ledger.engine.connect() as conn:
        shoes = conn.execute(
            sa.select(online_shoes)
            .where(online_shoes.c.table_id == table_id, online_shoes.c.finished.is_(True))
            .order_by(online_shoes.c.id.desc())
            .limit(limit)
        ).mappings()
        out = []
        for shoe in list(shoes):
            coups = conn.execute(
                sa.select(rounds.c.coup)
                .where(rounds.c.shoe_id == shoe["id"], rounds.c.phase == "settled")
                .order_by(rounds.c.coup_index)
            ).all()
            fair = FairShoe(
                server_seed=shoe["server_seed"],
                rules=dict(shoe["rules"]),
                client_seeds=list(shoe["client_seeds"]),
                sealed=True,
            )
            record: ShoeRecord = fair.record([c for (c,) in coups])
            out.append(record.to_json())
    return out
