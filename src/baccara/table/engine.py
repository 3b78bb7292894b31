"""The table: a phase state machine for seats, bets, the deal and the settlement.

Every action comes as a triplet: ``can_x(...)`` answers yes or no, ``verify_x(...)``
raises a `TableError` (a ``ValueError``) whose message names the problem, and
``x(...)`` does it and returns an immutable event, also appended to ``table.log``.
Payouts come from `baccara.bets.settle`; money is integer minor units (cents).

>>> table = Table(seed=1)
>>> table.phase
<Phase.SHOE_CHANGE: 'shoe_change'>
>>> table.change_shoe().shoe
1
>>> table.seat(player="ann", stack=100000)
SeatTaken(seat=1, player='ann', stack=100000, strategy=None, wallet=False, behind=False)
>>> table.place_bet(1, BetKind.BANKER, 2500).total
2500
>>> table.can_place_bet(1, BetKind.TIE, 10**9)
False
>>> table.verify_place_bet(5, BetKind.TIE, 100)
Traceback (most recent call last):
...
baccara.table.events.SeatError: seat 5 is empty
>>> str(table.deal().coup)
'P:2d,Kh,8s B:5h,9h'
>>> table.place_bet(1, BetKind.PLAYER, 1000)
Traceback (most recent call last):
...
baccara.table.events.PhaseError: bets are closed: the cards are out (settle the coup first)
>>> settled = table.settle()
>>> settled.results[0].outcome.value, settled.results[0].net, table.stack(1)
('win', 2375, 102375)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TypeVar

from baccara.bets import BetKind, bets_for
from baccara.cards import Card
from baccara.coup import Coup, deal_coup
from baccara.roads.board import Roads
from baccara.shoe import Shoe
from baccara.table.events import (
    BetCancelled,
    BetPlaced,
    CoupDealt,
    CoupSettled,
    Event,
    LimitError,
    Phase,
    PhaseError,
    SeatError,
    SeatLeft,
    SeatTaken,
    ShoeChanged,
    StackError,
    TableError,
    TableSettings,
)
from baccara.table.limits import check_bet, check_take_back
from baccara.table.seats import Seat, SeatState, check_chips
from baccara.table.settlement import settle_places
from baccara.variants import PUNTO_BANCO, Family, Variant, require_family

__all__ = ["Phase", "SeatState", "Table", "TableError", "TableSettings"]

_E = TypeVar("_E", bound=Event)


class Table:
    """One baccarat table: a variant, house settings, seats, a shoe and the event log.

    ``seed`` makes the series of shoes reproducible (shoe ``n`` is
    ``Shoe.shuffled(settings.shoe, seed=seed, index=n - 1)``); without it shoes come
    from the operating system's CSPRNG. ``house`` is the house's starting bank.
    """

    def __init__(
        self,
        *,
        variant: Variant = PUNTO_BANCO,
        settings: TableSettings | None = None,
        seed: int | None = None,
        house: int = 0,
    ) -> None:
        self.variant = require_family(variant, Family.PUNTO_BANCO, user="the Punto Banco table")
        self.settings = (
            settings if settings is not None else TableSettings(seats=min(7, variant.seats))
        )
        if self.settings.seats > variant.seats:
            raise TableError(
                f"bad number of seats {self.settings.seats}: a {variant.title} table has at most "
                f"{variant.seats}"
            )
        self.seed = seed
        self.house = house
        self.house_start = house
        self.bought_in = 0
        self.cashed_out = 0
        self.log: list[Event] = []
        self.shoes: list[tuple[Card, ...] | None] = []
        self.coups: list[Coup] = []  # this shoe's coups, in order
        self.current: Coup | None = None
        self.roads = Roads()
        self._phase = Phase.SHOE_CHANGE
        self._shoe: Shoe | None = None
        self._pending = False  # a shoe announced, its order not yet sealed
        self._manual_dealt: Counter[Card] = Counter()
        self._seats: dict[int, Seat] = {}  # the seats and the places behind them
        self._places: dict[str, int] = {}  # player -> seat or place behind
        self._next_behind = self.settings.seats + 1
        self._bet_kinds = frozenset(bets_for(variant))

    # -- what the table looks like ---------------------------------------------------

    @property
    def phase(self) -> Phase:
        """The current phase."""
        return self._phase

    @property
    def shoe(self) -> Shoe | None:
        """The shoe in play (None before the first shoe and at a manual table)."""
        return self._shoe

    @property
    def shoe_number(self) -> int:
        """Number of the shoe in play, counting from 1 (0 before the first)."""
        return len(self.shoes)

    @property
    def manual(self) -> bool:
        """Whether coups are dealt from cards given to `deal` (a real shoe replayed)."""
        return bool(self.shoes) and self._shoe is None and not self._pending

    @property
    def coup_number(self) -> int:
        """Number of coups dealt from this shoe."""
        return len(self.coups) + (self.current is not None)

    @property
    def seats(self) -> tuple[SeatState, ...]:
        """The occupied seats, in seat order (not the places behind them)."""
        return tuple(self.seat_state(n) for n in sorted(self._seats) if n <= self.settings.seats)

    @property
    def behind(self) -> tuple[SeatState, ...]:
        """The places taken behind the seats, in order."""
        return tuple(self.seat_state(n) for n in sorted(self._seats) if n > self.settings.seats)

    def player_at(self, seat: int) -> str:
        """Who sits at ``seat`` (or bets from that place behind the seats)."""
        return self._occupied(seat).player

    def staked(self) -> tuple[dict[BetKind, int], int]:
        """Everybody's stakes on the layout by bet, and how many places behind the seats
        have a bet on (cheap at a thousand places: no `SeatState` is made)."""
        totals: dict[BetKind, int] = {}
        behind = 0
        for number, s in self._seats.items():
            for kind, amount in s.bets.items():
                totals[kind] = totals.get(kind, 0) + amount
            behind += number > self.settings.seats and bool(s.bets)
        return totals, behind

    def seat_state(self, seat: int) -> SeatState:
        """The seat ``seat`` as everybody sees it; raise `SeatError` if it is empty."""
        return self._occupied(seat).state()

    def stack(self, seat: int) -> int:
        """The chips in front of ``seat`` (bets on the layout not included)."""
        return self._occupied(seat).stack

    def free_seats(self) -> tuple[int, ...]:
        """The empty seats, in order."""
        return tuple(n for n in range(1, self.settings.seats + 1) if n not in self._seats)

    @property
    def on_layout(self) -> int:
        """All the chips bet on the layout."""
        return sum(sum(s.bets.values()) for s in self._seats.values())

    @property
    def chips(self) -> int:
        """House bank + stacks + bets: always ``house_start + bought_in - cashed_out``."""
        return self.house + self.on_layout + sum(s.stack for s in self._seats.values())

    # -- seat --------------------------------------------------------------------------

    def verify_seat(
        self,
        seat: int | None = None,
        *,
        player: str,
        stack: int,
        wallet: bool = False,
        behind: bool = False,
    ) -> int:
        """Check that ``player`` may sit at ``seat`` (the first free one if None) with
        ``stack`` chips (none at a ``wallet`` seat), or take a place ``behind`` the
        seats (the next one if None); return the seat or place number."""
        if self._phase is Phase.DEALING:
            raise PhaseError("nobody sits down while the cards are out: settle the coup first")
        if not player.strip():
            raise SeatError("a player needs a name")
        if wallet:
            if self.seat_of(player) is not None:  # one wallet, one seat
                raise SeatError(f"{player} is already seated")
            if stack != 0:
                raise StackError("a wallet seat has no stack: its bets come from the wallet")
        else:
            check_chips(stack, "buy-in")
        if behind:
            return self._verify_behind(seat)
        if seat is None:
            free = self.free_seats()
            if not free:
                raise SeatError(f"the table is full: all {self.settings.seats} seats are taken")
            return free[0]
        self._check_seat_number(seat)
        if seat in self._seats:
            raise SeatError(f"seat {seat} is taken by {self._seats[seat].player}")
        return seat

    def _verify_behind(self, place: int | None) -> int:
        taken = len(self._seats) - sum(1 for n in self._seats if n <= self.settings.seats)
        if self.settings.behind == 0:
            raise SeatError("this table takes no bets behind the seats")
        if taken >= self.settings.behind:
            raise SeatError(f"all {self.settings.behind} places behind the seats are taken")
        if place is None:
            return self._next_behind
        if isinstance(place, bool) or not isinstance(place, int) or place <= self.settings.seats:
            raise SeatError(f"bad place behind {place!r}: after seat {self.settings.seats}")
        if place in self._seats:
            raise SeatError(f"place {place} is taken by {self._seats[place].player}")
        return place

    def can_seat(
        self,
        seat: int | None = None,
        *,
        player: str,
        stack: int,
        wallet: bool = False,
        behind: bool = False,
    ) -> bool:
        """Whether `seat` would succeed."""
        return _can(
            self.verify_seat, seat, player=player, stack=stack, wallet=wallet, behind=behind
        )

    def seat(
        self,
        seat: int | None = None,
        *,
        player: str,
        stack: int,
        strategy: str | None = None,
        wallet: bool = False,
        behind: bool = False,
    ) -> SeatTaken:
        """Seat ``player`` with ``stack`` chips bought in (``strategy`` names a bot's play),
        or, with ``wallet``, a player who bets from a wallet kept outside the table;
        ``behind``: at a place behind the seats (`TableSettings.behind`)."""
        number = self.verify_seat(seat, player=player, stack=stack, wallet=wallet, behind=behind)
        self._seats[number] = Seat(
            number=number, player=player, stack=stack, strategy=strategy, wallet=wallet
        )
        self._places.setdefault(player, number)  # a name seated twice: its first seat
        if behind:
            self._next_behind = max(self._next_behind, number + 1)
        self.bought_in += stack
        taken = SeatTaken(
            seat=number, player=player, stack=stack, strategy=strategy, wallet=wallet, behind=behind
        )
        return self._emit(taken)

    def seat_of(self, player: str) -> int | None:
        """The seat (or place behind the seats) of ``player``, or None."""
        return self._places.get(player)

    # -- leave -------------------------------------------------------------------------

    def verify_leave(self, seat: int) -> None:
        """Check that the player at ``seat`` may leave (not with bets in play)."""
        s = self._occupied(seat)
        if self._phase is Phase.DEALING and s.bets:
            raise PhaseError(f"seat {seat} has bets in play: wait for the settlement to leave")

    def can_leave(self, seat: int) -> bool:
        """Whether `leave` would succeed."""
        return _can(self.verify_leave, seat)

    def leave(self, seat: int) -> SeatLeft:
        """The player at ``seat`` leaves with the stack and any bets on the layout."""
        self.verify_leave(seat)
        s = self._seats.pop(seat)
        if self._places.get(s.player) == seat:
            del self._places[s.player]
            again = next((n for n, x in self._seats.items() if x.player == s.player), None)
            if again is not None:
                self._places[s.player] = again
        returned = sum(s.bets.values())
        total = s.stack + returned
        self.cashed_out += total
        return self._emit(SeatLeft(seat=seat, player=s.player, stack=total, returned=returned))

    # -- place a bet --------------------------------------------------------------------

    def verify_place_bet(self, seat: int, kind: BetKind, amount: int) -> None:
        """Check a bet of ``amount`` on ``kind`` at ``seat`` (or a place behind the seats):
        phase, seat, bet, limits, stack (`baccara.table.limits`)."""
        self._check_betting_open()
        s = self._occupied(seat)
        check_chips(amount, "bet")
        if kind not in self._bet_kinds:
            raise LimitError(
                f"a {self.variant.title} table does not take {kind.label} bets", code="unknown_bet"
            )
        check_bet(s, kind, amount, self.settings, behind=seat > self.settings.seats)

    def can_place_bet(self, seat: int, kind: BetKind, amount: int) -> bool:
        """Whether `place_bet` would succeed."""
        return _can(self.verify_place_bet, seat, kind, amount)

    def place_bet(self, seat: int, kind: BetKind, amount: int) -> BetPlaced:
        """Add ``amount`` to ``seat``'s bet on ``kind``; chips move from the stack to the layout."""
        self.verify_place_bet(seat, kind, amount)
        s = self._seats[seat]
        if s.wallet:  # the chips come from the wallet, bought in bet by bet
            self.bought_in += amount
        else:
            s.stack -= amount
        s.bets[kind] = s.bets.get(kind, 0) + amount
        self._phase = Phase.BETTING
        return self._emit(BetPlaced(seat=seat, kind=kind, amount=amount, total=s.bets[kind]))

    # -- cancel a bet -------------------------------------------------------------------

    def withdrawable(self, seat: int, kind: BetKind) -> int:
        """How much of ``seat``'s bet on ``kind`` may be taken back now."""
        s = self._occupied(seat)
        locked = 0 if self.settings.pushed_bets_withdrawable else s.pushed.get(kind, 0)
        return s.bets.get(kind, 0) - locked

    def verify_cancel_bet(self, seat: int, kind: BetKind, amount: int | None = None) -> int:
        """Check taking back ``amount`` (all that may be, if None) of a bet; return the amount."""
        if self._phase is Phase.DEALING:
            raise PhaseError("bets are locked: the cards are out (settle the coup first)")
        s = self._occupied(seat)
        return check_take_back(s, kind, amount, self.withdrawable(seat, kind), self.settings)

    def can_cancel_bet(self, seat: int, kind: BetKind, amount: int | None = None) -> bool:
        """Whether `cancel_bet` would succeed."""
        return _can(self.verify_cancel_bet, seat, kind, amount)

    def cancel_bet(self, seat: int, kind: BetKind, amount: int | None = None) -> BetCancelled:
        """Take back ``amount`` (all that may be, if None) of ``seat``'s bet on ``kind``."""
        amount = self.verify_cancel_bet(seat, kind, amount)
        s = self._seats[seat]
        left = s.bets[kind] - amount
        self._give(s, amount)
        if left:
            s.bets[kind] = left
            if kind in s.pushed:
                s.pushed[kind] = min(s.pushed[kind], left)
        else:
            del s.bets[kind]
            s.pushed.pop(kind, None)
        return self._emit(BetCancelled(seat=seat, kind=kind, amount=amount, total=left))

    # -- deal --------------------------------------------------------------------------

    def verify_deal(self, cards: Sequence[Card] | None = None) -> None:
        """Check that a coup may be dealt (``cards`` in deal order at a manual table)."""
        if self._phase is Phase.DEALING:
            raise PhaseError("the cards are already out: settle the coup first")
        if self._phase is Phase.SHOE_CHANGE:
            what = "there is no shoe yet" if not self.shoes else "the shoe is finished"
            raise PhaseError(f"{what}: change the shoe first")
        if self._shoe is not None:
            if cards is not None:
                raise TableError("this table deals from its shoe: give no cards")
            return
        if self._pending:
            raise PhaseError("the shoe is not sealed yet: give its cards to change_shoe")
        if cards is None:
            raise TableError("a manual table is dealt from given cards: give the coup's cards")
        counts = self._manual_dealt + Counter(cards)
        for card, count in counts.items():
            if count > self.settings.shoe.decks:
                raise TableError(
                    f"card {card} would be dealt {count} times from a "
                    f"{self.settings.shoe.decks}-deck shoe"
                )
        Coup.from_deal(list(cards))  # raises CoupError (a ValueError) if impossible

    def can_deal(self, cards: Sequence[Card] | None = None) -> bool:
        """Whether `deal` would succeed."""
        return _can(self.verify_deal, cards)

    def deal(self, cards: Sequence[Card] | None = None) -> CoupDealt:
        """Deal a coup: from the shoe, or from ``cards`` (deal order) at a manual table.

        Bets are locked until `settle`. Show the cards one at a time with `reveal`.
        """
        self.verify_deal(cards)
        if self._shoe is not None:
            coup = deal_coup(self._shoe)
            last = self._shoe.finished
        else:
            assert cards is not None
            coup = Coup.from_deal(list(cards))
            self._manual_dealt.update(coup.deal_order())
            last = False
        for s in self._seats.values():
            if s.bets:
                s.last_bets = dict(s.bets)
        self.current = coup
        self._phase = Phase.DEALING
        return self._emit(
            CoupDealt(shoe=self.shoe_number, number=self.coup_number, coup=coup, last=last)
        )

    # -- settle ------------------------------------------------------------------------

    def verify_settle(self) -> None:
        """Check that there is a dealt coup to settle."""
        if self._phase is not Phase.DEALING or self.current is None:
            raise PhaseError("there is no coup to settle: deal first")

    def can_settle(self) -> bool:
        """Whether `settle` would succeed."""
        return _can(self.verify_settle)

    def settle(self) -> CoupSettled:
        """Collect losing bets, pay winning ones; pushed Player/Banker bets come back, or
        stay on the layout where the house rule says so (`TableSettings.pushes_stay`)."""
        self.verify_settle()
        coup = self.current
        assert coup is not None
        results = settle_places(self._seats, coup, self.variant, self.settings)
        for r in results:
            self._give(self._seats[r.seat], r.returned)
            self.house -= r.net
        self.coups.append(coup)
        self.current = None
        self.roads.add(coup)
        finished = self._shoe is not None and self._shoe.finished
        self._phase = Phase.SHOE_CHANGE if finished else Phase.SETTLED
        return self._emit(
            CoupSettled(
                shoe=self.shoe_number,
                number=len(self.coups),
                coup=coup,
                results=tuple(results),
                house=-sum(r.net for r in results),
                shoe_finished=finished,
            )
        )

    # -- change the shoe ---------------------------------------------------------------

    def verify_change_shoe(
        self, cards: Sequence[Card] | None = None, *, manual: bool = False, pending: bool = False
    ) -> None:
        """Check that the shoe may be changed now (between coups), with ``cards`` if given."""
        if self._phase is Phase.DEALING:
            raise PhaseError("the cards are out: settle the coup before changing the shoe")
        if manual and cards is not None:
            raise TableError("a manual shoe has no card order: give cards or manual, not both")
        if pending and cards is not None:
            raise TableError("a pending shoe has no card order yet: give its cards when sealed")
        if manual and pending:
            raise TableError("a shoe is manual or pending, not both")
        if cards is not None:
            counts = Counter(cards)
            extra = [c for c, n in counts.items() if n > self.settings.shoe.decks]
            if extra:
                raise TableError(
                    f"card {extra[0]} appears {counts[extra[0]]} times in a "
                    f"{self.settings.shoe.decks}-deck shoe"
                )
            if len(cards) < 6:
                raise TableError(f"a shoe needs at least 6 cards, got {len(cards)}")

    def can_change_shoe(
        self, cards: Sequence[Card] | None = None, *, manual: bool = False, pending: bool = False
    ) -> bool:
        """Whether `change_shoe` would succeed."""
        return _can(self.verify_change_shoe, cards, manual=manual, pending=pending)

    def change_shoe(
        self, cards: Sequence[Card] | None = None, *, manual: bool = False, pending: bool = False
    ) -> ShoeChanged:
        """Bring a new shoe and burn: the next of the ``seed`` series, ``cards`` in that
        order, or (``manual``) a real shoe whose coups are given to `deal`.

        A ``pending`` shoe opens the betting before its order is sealed; the next
        call (with its ``cards``) seals that same shoe and leaves the layout as it is.
        """
        self.verify_change_shoe(cards, manual=manual, pending=pending)
        betting = self._phase is Phase.BETTING
        if self._pending and not pending:  # the pending shoe sealed: the same shoe
            self.shoes.pop()
        self._pending = pending
        index = len(self.shoes)
        seed: int | None = None
        if manual or pending:
            self._shoe = None
            self._manual_dealt = Counter()
            self.shoes.append(None)
        else:
            if cards is not None:
                shoe = Shoe(tuple(cards), settings=self.settings.shoe, index=index)
            else:
                shoe = Shoe.shuffled(self.settings.shoe, seed=self.seed, index=index)
                seed = self.seed
            shoe.burn()
            self._shoe = shoe
            self.shoes.append(shoe.cards)
        self.coups = []
        self.roads = Roads()
        shoe_now = self._shoe
        if shoe_now is not None and shoe_now.finished:
            self._phase = Phase.SHOE_CHANGE
        else:
            self._phase = Phase.BETTING if betting and self.on_layout else Phase.SETTLED
        return self._emit(
            ShoeChanged(
                shoe=len(self.shoes),
                seed=seed,
                cards=len(shoe_now) if shoe_now is not None else 0,
                cut_index=shoe_now.cut_index if shoe_now is not None else 0,
                burned=shoe_now.burned if shoe_now is not None else (),
                manual=manual,
                pending=pending,
            )
        )

    # -- helpers -----------------------------------------------------------------------

    def _give(self, s: Seat, amount: int) -> None:
        """Chips back to a seat: to its stack, or out of the table to its wallet."""
        if s.wallet:
            self.cashed_out += amount
        else:
            s.stack += amount

    def _emit(self, event: _E) -> _E:
        self.log.append(event)
        return event

    def _check_seat_number(self, seat: int) -> None:
        if (
            isinstance(seat, bool)
            or not isinstance(seat, int)
            or not (1 <= seat <= self.settings.seats or seat in self._seats)
        ):
            raise SeatError(
                f"unknown seat {seat!r}: this table has seats 1 to {self.settings.seats}"
            )

    def _occupied(self, seat: int) -> Seat:
        self._check_seat_number(seat)
        found = self._seats.get(seat)
        if found is None:
            raise SeatError(f"seat {seat} is empty")
        return found

    def _check_betting_open(self) -> None:
        if self._phase is Phase.DEALING:
            raise PhaseError("bets are closed: the cards are out (settle the coup first)")
        if self._phase is Phase.SHOE_CHANGE:
            what = "there is no shoe yet" if not self.shoes else "the shoe is finished"
            raise PhaseError(f"bets are closed: {what} (change the shoe first)")

    def __repr__(self) -> str:
        return (
            f"<Table {self.variant.name} {self._phase.value}, shoe {self.shoe_number}, "
            f"coup {self.coup_number}, {len(self.seats)}/{self.settings.seats} seats>"
        )


def _can(check: object, *args: object, **kwargs: object) -> bool:
    try:
        check(*args, **kwargs)  # type: ignore[operator]
    except ValueError:
        return False
    return True
