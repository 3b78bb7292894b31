"""One online table: the round loop on the server clock, bets, the deal, the settlement.

The table engine (`baccara.table.engine.Table`, the terminal's engine) keeps the shoe, the
seats, the layout, the limits, the coups, the settlement and the roads: every bet passes
its ``verify_place_bet`` and every result is its ``settle``. The runner adds only the
clock, the ledger and the broadcast. Players sit at wallet seats: the money goes
through the ledger (`baccara.db.ledger.Ledger`), one database transaction per batch of
bets and one per settlement, and the layout at the close is the ledger's. Before the
deal the coup is priced from the cards left in the shoe (`price`), and the settlement
stores each bet's exact theoretical win with it (`baccara.db.hold`). Shoes are provably fair
(`baccara.fair.FairShoe`), stored with their seed so that a restarted server deals
exactly the coups the shoe holds.

The round loop composes small states, each owning its part, told what it needs and
returning what changed, none holding the runner: the round in play
(`baccara.server.tables.house_round.HouseRound`), the seating (`seats.Seats`: the seat
events to send), the squeeze (`squeeze.Squeezes`); what the clients see is built by
`views` from the table's state as the views read it (`views.HouseState`).

Start-up recovery policy: a round whose betting had closed is dealt from its stored
shoe and settled; a round still open is voided and every bet refunded. No round opens
while another is unsettled: a settlement that fails to be stored is retried with a
back-off (`baccara.server.tables.retry`), the table closed if it keeps failing; a round that
fails otherwise is finished by the same recovery, in place, before the next one.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, replace
from functools import partial
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from pydantic import BaseModel, JsonValue

from baccara.bets import BetKind
from baccara.coup import Coup
from baccara.db.auth import User
from baccara.db.ledger import BetError, BetRequest, BetRow, RoundPhase
from baccara.db.shoes import ShoeBook
from baccara.fair import FairError, FairShoe
from baccara.server.infra.services import TableServices
from baccara.server.tables import views
from baccara.server.tables.audience import Audience
from baccara.server.tables.base import TableBase, TableSetup
from baccara.server.tables.contract import Record, TableMessage
from baccara.server.tables.house_round import HouseRound
from baccara.server.tables.refusal import Refused
from baccara.server.tables.retry import until_done
from baccara.server.tables.seats import Moment, SeatChange, Seats
from baccara.server.tables.squeeze import Side, Squeezes, Squeezing, squeezer_of
from baccara.server.wire import protocol as P
from baccara.server.wire.http import Edges
from baccara.shoe import ShoeSettings
from baccara.table.engine import Table, TableSettings
from baccara.table.events import CoupSettled, Phase, Reveal, TableError
from baccara.table.narration import reveal
from baccara.variants import Variant

if TYPE_CHECKING:
    from baccara.exact.theory import Price

__all__ = ["HouseRunner", "Timing"]

log = logging.getLogger("baccara.server")

IDLE_LOOK_SECONDS = 30.0
"""How often a table nobody is connected to looks again without being woken by a join
(a guard: a join wakes it at once)."""
CLOSED_BY_HOUSE = "the house closed the table"
"""Why the shoe in play at a table the house closed ended before its cut card."""
_T = TypeVar("_T")


@dataclass(frozen=True, slots=True, kw_only=True)
class Timing:
    """How long each part of a round lasts, in seconds."""

    bet_seconds: float = 15.0
    card_seconds: float = 0.7
    result_seconds: float = 4.0
    squeeze_seconds: float = 8.0  # each hand's squeeze, at squeeze tables
    retry_seconds: float = 0.05  # a failed settlement's (or recovery's) first back-off
    retry_max_seconds: float = 5.0  # the longest back-off, doubling (the table closed by then)
    seat_grace_seconds: float = 60.0  # a seat kept for a player gone, with no bet in the round
    layout_seconds: float = 0.5  # the layout (everybody's stakes) sent at most this often


class HouseRunner(TableBase[Phase]):
    """One table of the server: its engine, its round loop and its listeners."""

    movable: ClassVar[bool] = True

    def __init__(
        self,
        *,
        table_id: str,
        variant: Variant,
        services: TableServices,
        timing: Timing,
        decks: int | None = None,
        squeeze: bool = False,
        audience: Audience | None = None,
        behind: int = 0,
    ) -> None:
        super().__init__(
            table_id=table_id,
            variant=variant,
            services=services,
            audience=audience,
            kept=1000,
            phase=Phase.STARTING,
        )
        self.squeeze = squeeze
        self.squeezes = Squeezes(seconds=timing.squeeze_seconds, clock=services.clock)
        self.edges_key: tuple[int, int] | None = None  # (shoe, coups) of `edges_found`
        self.edges_found: Edges | None = None
        self.batcher = services.batcher
        self.timing = self.base_timing = timing  # the configuration's: the house's setup
        self.shoe_settings = ShoeSettings(decks=decks or variant.decks)
        self.settings = self.base_settings = TableSettings(  # ... changes them per round
            seats=min(14, variant.seats), shoe=self.shoe_settings, behind=behind
        )
        self.table = Table(variant=variant, settings=self.settings)
        self.fair: FairShoe | None = None
        self.shoes = ShoeBook(self.ledger, table_id)
        self.shoe_id: int | None = None
        self.seeders: set[int] = set()  # the accounts that gave the shoe to come a seed
        self.round = HouseRound()
        self.bets_changed = False
        self.history: deque[dict[str, JsonValue]] = deque(maxlen=10)
        self.records: deque[Record] = deque(maxlen=20)
        self.seats = Seats(grace_seconds=timing.seat_grace_seconds)
        self.roads = views.RoadsCache()  # the roads drawn once per change

    def emit(self, kind: type[P.Event], /, **data: Any) -> None:
        """Log an event of the protocol and send it to every listener."""
        self.seq += 1
        event = kind(table=self.id, seq=self.seq, time=self.clock.now(), **data)
        self.send_logged(event.model_dump_json())  # the text once, for every listener

    # -- recovery -----------------------------------------------------------------------

    def recover(self) -> list[str]:
        """Finish what a crash left: rebuild the shoe, settle closed rounds, void open ones."""
        notes: list[str] = []
        self.round.number = self.shoes.last_round_number()
        found = self.shoes.unfinished()
        if found is not None:
            self.shoe_id, self.fair = found
            self.seeders = self.shoes.seeders(self.shoe_id)
            if self.fair.sealed:
                self._replay_shoe()
                if self.table.phase is Phase.SHOE_CHANGE:  # crashed before the reveal
                    self._finish_shoe()
                    notes.append("the last shoe had ended: its seed is revealed")
            else:
                self.table.change_shoe(pending=True)
        for row in self.ledger.unfinished_rounds(self.id):
            now = self.clock.now()
            if row["phase"] == RoundPhase.OPEN:
                note = f"round {row['number']} was open: voided, bets refunded"
                self.ledger.void_round(row["id"], note, now=now)
                notes.append(note)
                continue
            if self.fair is None or row["shoe_id"] != self.shoe_id:
                note = f"round {row['number']} had no shoe: voided, bets refunded"
                self.ledger.void_round(row["id"], note, now=now)
                notes.append(note)
                continue
            if not self.fair.sealed:
                self._seal()
            placed = self.ledger.round_bets(row["id"])
            self._learn_accounts(placed)
            self.set_layout(placed)
            price = self.price() if self.table.on_layout else None
            coup = self.table.deal().coup
            settled = self.table.settle()
            note = f"round {row['number']} was closed: dealt {coup} and settled"
            self.ledger.settle_round(
                row["id"],
                coup,
                self.variant.name,
                self.returns(settled),
                price=price,
                now=now,
                restarted=note,
            )
            notes.append(note)
            if self.table.phase is Phase.SHOE_CHANGE:
                self._finish_shoe()
        return notes

    def price(self) -> Price | None:
        """The coup to be dealt priced from the cards left in the shoe, with this table's
        roundings (`baccara.exact.theory`): the theory of every bet on the layout."""
        shoe = self.table.shoe
        if shoe is None:
            return None
        from baccara.exact.theory import price  # the exact engine loads on first use

        return price(
            shoe.cards[shoe.position :],
            self.variant,
            commission_rounding=self.settings.commission_rounding,
            payout_rounding=self.settings.payout_rounding,
        )

    def _replay_shoe(self) -> None:
        assert self.fair is not None and self.shoe_id is not None
        self.table.change_shoe(self.fair.shoe().cards)
        for notation in self.shoes.dealt_coups(self.shoe_id):
            coup = self.table.deal().coup
            if coup.notation() != notation:
                raise RuntimeError(f"shoe {self.shoe_id} replays {coup}, the store has {notation}")
            self.table.settle()

    def _new_shoe(self) -> None:
        self.fair = FairShoe.new(self.variant, self.shoe_settings)
        self.shoe_id = self.shoes.add(self.fair)
        self.seeders = set()
        self.table.change_shoe(pending=True)  # bets open; the players' seeds until the seal

    def _seal(self) -> None:
        assert self.fair is not None and self.shoe_id is not None
        cards = self.fair.shoe().cards  # seals the client seeds
        self.shoes.update(self.shoe_id, self.fair)
        self.table.change_shoe(cards)

    def _finish_shoe(self, retired: str | None = None) -> Record:
        """End the shoe in play (at its cut card, or ``retired``: the house stopped it,
        why in words), its seed revealed; its record."""
        assert self.fair is not None and self.shoe_id is not None
        coups = [c.notation() for c in self.table.coups]
        record = self.fair.record(coups, retired).to_json()
        self.shoes.update(self.shoe_id, self.fair, finished=True, retired=retired)
        if coups:  # a shoe set aside before its first coup has no record to show
            self.records.append(record)
        self.fair = None
        return record

    def add_client_seed(self, user: User, seed: str) -> None:
        """A player's seed for the shoe not yet shuffled (stored before it is used): one
        seed per account a shoe, so that no account fills the shoe's places alone."""
        if self.fair is None or self.fair.sealed or self.shoe_id is None:
            raise Refused("shoe_sealed", "the shoe is already shuffled: try at the next shoe")
        if user.account in self.seeders:
            raise Refused("seed_given", "you have given this shoe its seed: one per player")
        self.fair.add_client_seed(seed)
        self.seeders.add(user.account)
        self.shoes.update(self.shoe_id, self.fair, seeders=self.seeders)

    # -- the round loop -------------------------------------------------------------------

    async def run(self, delay: float = 0.0) -> None:
        """Recover, wait ``delay`` seconds (the tables of a server start apart, so their
        rounds do not all close, deal and settle at the same moments), then play rounds
        until stopped."""
        try:
            notes = await self.db_write(self.recover)
        except Exception:
            log.exception(
                "table %s: recovery failed; the table stays closed: stop the server and "
                "run `baccara db repair %s` (docs/server.md)",
                self.id,
                self.id,
            )
            self.phase = Phase.CLOSED
            raise
        for note in notes:
            log.warning("table %s: %s", self.id, note)
            self.emit(P.Notice, text=note)
        await self.clock.sleep(delay)
        while not self.stopping and not self.handing_over and not self.closing:
            try:
                if self.house_paused is not None:  # the house holds it between rounds
                    self._take_setup()  # the next round's limits, shown while it holds
                    await self.held()
                    continue
                self._take_setup()
                await self.play_round()
            except asyncio.CancelledError:
                raise
            except Exception:  # the round is finished as a restart would, before the next
                log.exception("table %s: round failed", self.id)
                self.phase = Phase.CLOSED
                await self._until_done("the table's recovery", self._recover_in_place)
                await self.clock.sleep(1.0)
        if self.closing and not self.stopping and self.fair is not None:
            # the table is closed: its shoe ends here, its seed shown (a table opened
            # again under the id, of this game or another, starts a shoe of its own)
            record = await self.db_write(self._finish_shoe, CLOSED_BY_HOUSE)
            if record["coups"]:
                self.emit(P.ShoeEnd, record=record)

    @property
    def leaving(self) -> bool:
        """Whether the round in play is the last for now (handed over, paused or closed):
        it runs its clock out without waiting for players."""
        return self.handing_over or self.closing or self.house_paused is not None

    def look_again(self) -> None:
        """Wake the round loop, a table waiting for players too."""
        super().look_again()
        self.audience.arrived.set()

    def configure(self, setup: TableSetup) -> None:
        """The house's limits and timings, from the next round: at once while the table
        holds between rounds (its lobby line shows them)."""
        super().configure(setup)
        if self.holding:
            self._take_setup()

    def _take_setup(self) -> None:
        """The house's limits (on Player and Banker) and timings, before a round begins."""
        setup, base = self.setup, self.base_timing
        self.timing = replace(
            base,
            bet_seconds=setup.bet_seconds or base.bet_seconds,
            result_seconds=setup.result_seconds or base.result_seconds,
        )
        settings = base_settings = self.base_settings
        if setup.minimum is not None or setup.maximum is not None:
            try:
                settings = settings.with_main_limits(setup.minimum, setup.maximum)
            except TableError as error:  # refused when stored (`table_list.set_setup`)
                log.warning("table %s: the house's limits are not taken: %s", self.id, error)
                settings = base_settings
        self.settings = self.table.settings = settings

    def _announce_round(self) -> None:
        self.emit(P.RoundOpen, **self.round.announcement(seconds=self.timing.bet_seconds))

    async def _wait_for_players(self) -> None:
        """Nobody is at the table and nothing is bet: the betting window waits, writing
        nothing, until someone comes (or the table is handed over, paused or closed); then, after the
        usual pause between rounds (whoever comes with them is there), it opens again
        with its whole clock."""
        self.audience.arrived.clear()
        while self.audience.empty and not self.leaving:
            if await self.clock.wait(self.audience.arrived, IDLE_LOOK_SECONDS):
                break
        pause_ends = self.clock.now() + self.timing.result_seconds
        while (left := pause_ends - self.clock.now()) > 0:  # the window is still open:
            await self.clock.sleep(min(left, self.timing.layout_seconds))
            self._send_bets()  # a bet made in the pause is on everybody's layout
        self.round.closes_at = self.clock.now() + self.timing.bet_seconds
        self._announce_round()

    async def _recover_in_place(self) -> None:
        """Rebuild the engine from the database as a restart does: a round whose betting
        had closed is dealt from its stored shoe and settled, an open one voided."""
        self.table = Table(variant=self.variant, settings=self.settings)
        self.fair, self.shoe_id, self.squeezes.under_way = None, None, None
        for note in await self.db_write(self.recover):
            log.warning("table %s: %s", self.id, note)
            self.emit(P.Notice, text=note)

    async def _until_done(self, what: str, work: Callable[[], Awaitable[_T]]) -> _T:
        """``work`` retried until done (`until_done`): if it keeps failing, the table
        closes, with a notice to the players, and reopens when it is done."""
        before = self.phase

        def stuck() -> None:
            self.phase = Phase.CLOSED
            self.emit(P.Notice, text=f"the table is closed: {what} failed; retrying until done")

        def unstuck() -> None:
            self.phase = before
            self.emit(P.Notice, text=f"{what} done: the table reopens")

        return await until_done(
            work,
            what=f"table {self.id}: {what}",
            stuck=stuck,
            unstuck=unstuck,
            first=self.timing.retry_seconds,
            longest=self.timing.retry_max_seconds,
            sleep=self.clock.sleep,
        )

    async def play_round(self) -> None:
        """One round: bets, no more bets, the deal card by card, settlement."""
        if self.fair is None or (self.table.phase is Phase.SHOE_CHANGE and self.fair.sealed):
            await self.db_write(self._new_shoe)
            assert self.fair is not None
            self.emit(P.ShoeAnnounced, **self.fair.commitment())
        assert self.fair is not None
        number = self.round.begin(closes_at=self.clock.now() + self.timing.bet_seconds)
        round_id = await self.db_write(
            self.ledger.open_round,
            table=self.id,
            number=number,
            shoe_id=self.shoe_id,
            coup_index=len(self.table.coups) + 1 if self.fair.sealed else 1,
            closes_at=self.round.closes_at,
        )
        self.round.opened(round_id)
        self.phase = Phase.BETTING
        self._announce_round()
        while (left := self.round.time_left(self.clock.now())) > 0:
            if self.audience.empty and not self.table.on_layout and not self.leaving:
                await self._wait_for_players()
                continue
            # the seats of players gone (with no bet) are freed
            self._send_seats(self.seats.free_absent(self.table, self._moment()))
            await self.clock.sleep(min(left, self.timing.layout_seconds))
            self._send_bets()
        self.phase = Phase.CLOSING
        await self.db_write(self.ledger.close_round, round_id)
        self.phase = Phase.DEALING
        self.emit(P.NoMoreBets, round=round_id)
        assert self.fair is not None
        if not self.fair.sealed:
            await self.db_write(self._seal)
        self.set_layout(await self.db(self.ledger.round_bets, round_id))
        had_bets = bool(self.table.on_layout)
        price = await self.db(self.price) if had_bets else None  # off the loop: ~10 ms
        coup = self.round.showing = self.table.deal().coup
        self._send_bets()  # the last bets before the close
        for index, step in enumerate(reveal(coup, by_hand=self.squeeze)):
            squeezed = await self._squeeze(coup, step) if self.squeeze else 0
            shown = self.round.show(step)
            self.emit(P.CardShown, round=round_id, step=index, **dict(shown))
            await self.clock.sleep(0 if squeezed == 2 else self.timing.card_seconds)
            if index == 2 and had_bets:
                self.fault("mid_deal")  # three cards are out (and sent)
        settled = self.table.settle()
        store = partial(  # stored before anything else happens at this table
            self.db_write,
            self.ledger.settle_round,
            round_id,
            coup,
            self.variant.name,
            self.returns(settled),
            price=price,
            now=self.clock.now(),
        )
        await self._until_done(f"round {number}'s settlement", store)
        await self._announce(coup, settled)
        self.table.log.clear()  # the round is in the database; a server runs for months
        if self.table.phase is Phase.SHOE_CHANGE:
            record = await self.db_write(self._finish_shoe)
            self.emit(P.ShoeEnd, record=record)
        self.phase = Phase.SETTLED
        await self.clock.sleep(self.timing.result_seconds)

    @property
    def squeezing(self) -> Squeezing | None:
        """The squeeze under way, if any."""
        return self.squeezes.under_way

    async def _squeeze(self, coup: Coup, step: Reveal) -> int:
        """Before ``step`` turns a hand's first card or its third, that hand's biggest
        bettor here squeezes them (the first two together), for the squeeze's clock or
        until they are turned. The number of cards squeezed (a pair is turned together:
        its second card's step follows at once)."""

        def squeezer(side: Side) -> str | None:
            return squeezer_of(views.layout(self.table), self.audience.names(), side)

        squeezing = self.squeezes.start(coup, step, round=self.round.id, squeezer=squeezer)
        if squeezing is None:
            return 0

        def peeled(squeezing: Squeezing) -> None:
            self.relay(
                P.Peel(
                    table=self.id,
                    round=self.round.id,
                    side=squeezing.side,
                    by=squeezing.squeezer,
                    peel=squeezing.peel,
                    cards=squeezing.values(),
                )
            )

        try:
            self.phase = Phase.SQUEEZE
            self.emit(P.SqueezeStart, **squeezing.shown())
            await self.squeezes.watch(peeled)
        finally:  # over, or the table stopped under it: no squeeze is left under way
            self.squeezes.under_way = None
            self.phase = Phase.DEALING
        return len(squeezing.cards)

    def relay(self, message: BaseModel) -> None:
        """Send ``message`` to everybody, not logged (a squeezer's peel)."""
        self.audience.broadcast(None, message.model_dump_json())

    def _send_bets(self) -> None:
        """The layout: the seated players' stakes this round, everybody's totals and how
        many bet behind the seats (coalesced, not one event per bet)."""
        if not self.bets_changed:
            return
        self.bets_changed = False
        totals, behind = self.table.staked()
        self.emit(
            P.Bets,
            round=self.round.id,
            totals={kind.value: amount for kind, amount in totals.items()},
            players=views.layout(self.table),
            bettors_behind=behind,
        )

    def set_layout(self, placed: list[BetRow]) -> None:
        """Make the engine's layout the ledger's committed bets (the money's truth) before
        the deal: bets answered after the close, or lost in a restart, are put right."""
        want: dict[tuple[str, BetKind], int] = {}
        for bet in placed:
            if bet["status"] == "placed":
                key = (self.seats.accounts[bet["account_id"]], BetKind(bet["kind"]))
                want[key] = want.get(key, 0) + int(bet["amount"])
        for s in (*self.table.seats, *self.table.behind):
            for kind, amount in s.bets:
                if want.get((s.player, kind)) != amount:
                    self.table.cancel_bet(s.number, kind)
        for (name, kind), amount in want.items():
            seat = self.table.seat_of(name)
            if seat is None:
                behind = not self.table.free_seats()
                seat = self.table.seat(player=name, stack=0, wallet=True, behind=behind).seat
            missing = amount - self.table.seat_state(seat).bet(kind)
            if missing:
                log.warning("table %s: %s's %s bet set to the ledger's", self.id, name, kind)
                self.table.place_bet(seat, kind, missing)

    def returns(self, settled: CoupSettled) -> dict[tuple[int, str], int]:
        """The engine's settlement as the ledger takes it: returned per (account, bet)."""
        wallets = self.seats.wallets()
        return {
            (wallets[self.table.player_at(r.seat)], r.kind.value): r.returned
            for r in settled.results
        }

    def _learn_accounts(self, placed: list[BetRow]) -> None:
        """Name the wallet accounts of ``placed`` bets (after a restart)."""
        unknown = self.seats.unknown(int(bet["account_id"]) for bet in placed)
        if unknown:
            names = self.ledger.account_names(unknown)
            self.seats.learn({key: name.removeprefix("wallet:") for key, name in names.items()})

    async def _announce(self, coup: Coup, settled: CoupSettled) -> None:
        assert self.round.id is not None
        result, by_player = views.result(self.round, self.table, self.variant, coup, settled)
        self.history.appendleft(result)
        self.round.showing = None
        self.emit(P.RoundResult, **result, roads=self.roads.view(self.table.roads))
        here = self.audience.accounts(by_player)
        balances = await self.db(self.ledger.balances, list(here.values())) if here else {}
        for name, account in here.items():
            bets = by_player[name]
            self.audience.send_to(
                name,
                P.Payout(
                    table=self.id,
                    round=self.round.id,
                    balance=balances[account],
                    staked=sum(bet["staked"] for bet in bets.values()),
                    returned=sum(bet["returned"] for bet in bets.values()),
                    bets=bets,
                ),
            )

    # -- the contract (`baccara.server.tables.contract`) -------------------------------------

    async def arrival(self, user: User | None) -> P.Snapshot:
        """The snapshot for a player joining, seated first (or given a place behind the
        seats), so that it says where."""
        if user is not None:
            self.take_seat(user)
        return await self.state(user)

    async def state(self, user: User | None) -> P.Snapshot:
        """The table's snapshot as ``user`` sees it (their balance, bets and seat)."""
        balance = None if user is None else await self.db(self.ledger.balance, user.account)
        round_id = self.round.id
        mine = (
            []
            if user is None or round_id is None
            else await self.db(self.ledger.round_bets, round_id, user.account)
        )
        return views.snapshot(self._house_state(), user, balance=balance, mine=mine)

    def _house_state(self) -> views.HouseState:
        """The table as its snapshot reads it, now."""
        return views.HouseState(
            table_id=self.id,
            seq=self.seq,
            now=self.clock.now(),
            table=self.table,
            phase=self.phase,
            round=self.round,
            bet_seconds=self.timing.bet_seconds,
            squeeze=self.squeeze,
            squeeze_seconds=self.timing.squeeze_seconds,
            squeezing=self.squeezes.under_way,
            history=self.history,
            fair=None if self.fair is None else P.Commitment(**self.fair.commitment()),
            records=self.records,
            roads=self.roads.view(self.table.roads),
            house_paused=self.house_paused,
        )

    def summary(self) -> P.TableSummary:
        """The lobby's line."""
        spots = views.bet_spots(self.variant, self.settings)
        return self.lobby_line(
            phase=self.phase,
            seats=self.settings.seats,
            seated=len(self.table.seats),
            behind=len(self.table.behind),
            squeeze=self.squeeze,
            bets=spots,
            limits=views.limits(spots),
            roads=self.roads.view(self.table.roads),
            house_paused=self.house_paused,
        )

    async def handle(self, user: User, message: TableMessage) -> BaseModel | None:
        """A bet, a squeezer's peel or a seed for the shoe to come."""
        match message:
            case P.BetMessage():
                return await self.place_bet(user, message)
            case P.SqueezeMessage(side=side, peel=peel, first=first):
                self.squeezes.peel(user, side, float(peel), first)
                return None
            case P.SeedMessage(seed=seed):
                try:
                    await self.db_write(self.add_client_seed, user, seed)
                except FairError as error:
                    raise Refused("bad_seed", str(error)) from None
                return P.SeedAck(table=self.id, seed=seed)
        raise Refused("wrong_table", f"{message.type} is for the players' games, not this table")

    async def shoe_records(self) -> list[Record]:
        """The table's last finished shoes' records (from the database)."""
        return await self.db(self.shoes.records)

    async def edges(self) -> Edges:
        """Each bet's exact edge for the cards the shoe has not yet shown
        (`views.cards_left_edges`, on a worker thread, kept until the next coup): the
        coups whose result is out, as the history lists them; the coup being shown
        counts once its result is (its cards are not all shown before, and a third
        card's coming would show in the cards left)."""
        coups = list(self.table.coups)
        if self.round.showing is not None and coups and coups[-1] is self.round.showing:
            coups.pop()
        key = (self.table.shoe_number, len(coups))
        if self.edges_key != key or self.edges_found is None:
            found = await asyncio.to_thread(
                views.cards_left_edges, self.variant, self.shoe_settings.decks, coups
            )
            self.edges_key, self.edges_found = key, found
        return self.edges_found

    def roads_svg(self) -> str:
        """The roads as drawn (drawn once per coup)."""
        return self.roads.view(self.table.roads).svg

    # -- players --------------------------------------------------------------------------

    def take_seat(self, user: User) -> int | None:
        """Seat a player at a wallet seat, or behind the seats when they are taken (or
        find their place); None when the table and the places behind it are full
        (`baccara.server.tables.seats`: a seat whose player has gone is freed first)."""
        seated = self.seats.take(self.table, user, self._moment())
        self._send_seats(seated.changes)
        return seated.place

    def _moment(self) -> Moment:
        """What seating is told of the table now."""
        return Moment(
            now=self.clock.now(),
            present=self.audience.connected,
            betting=self.phase is Phase.BETTING,
            round=self.round.id,
        )

    def _send_seats(self, changes: Iterable[SeatChange]) -> None:
        """A ``seat`` event for each seat taken or freed."""
        for change in changes:
            self.emit(P.SeatEvent, seat=change.seat, player=change.player, left=change.left)

    async def place_bet(self, user: User, message: P.BetMessage) -> P.BetAck:
        """Check and place one bet (validated at the edge); its ack, or raise `BetError`
        (the money gate's refusal) or `Refused` (no seat free)."""
        bet_id, amount = message.bet_id, message.amount
        try:
            kind = BetKind.parse(message.kind)
        except ValueError as error:
            raise BetError("unknown_bet", str(error)) from None
        open_now = self.phase is Phase.BETTING and self.round.open_at(self.clock.now())
        if not open_now or not self.round.takes(message.round):
            stored = await self.db(self.ledger.find_bet, user.account, bet_id)
            if stored is not None and (stored.amount, stored.kind) == (amount, kind.value):
                return views.ack(stored, self.id)
            if stored is not None:
                raise BetError(
                    "bet_id_reused", f"bet id {bet_id!r} was already used for another bet"
                )
            raise BetError("betting_closed", "no more bets: wait for the next round")
        seat = self.take_seat(user)
        if seat is None:
            raise Refused(
                "table_full",
                f"all {self.settings.seats} seats and the places behind them are taken",
            )
        try:  # the engine's own checks: the bet, the limits on this seat's total
            self.table.verify_place_bet(seat, kind, amount)
        except TableError as error:
            raise BetError(error.code, str(error)) from None
        round_id = self.round.id
        assert round_id is not None
        limit = self.settings.limit(kind)  # checked again where the player's bets queue
        request = BetRequest(  # the money gate checks the rest, in the bet's transaction
            account=user.account,
            round_id=round_id,
            bet_id=bet_id,
            kind=kind.value,
            amount=amount,
            minimum=limit.minimum,
            maximum=limit.maximum,
            now=self.clock.now(),
        )
        receipt = await self.batcher.submit(request)
        self.fault("after_debit")
        if not receipt.duplicate:
            try:
                self.table.place_bet(seat, kind, amount)
            except TableError:  # answered after the close: the deal takes the ledger's layout
                log.warning("table %s: bet %s of %s came after the close", self.id, bet_id, user)
            self.bets_changed = True  # the round loop sends the layout a few times a second
        return views.ack(receipt, self.id, seat, self.settings.seats)
