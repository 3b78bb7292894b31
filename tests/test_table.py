"""The table's phase state machine: legal flow, every illegal action, money, and a stateful test."""

from __future__ import annotations

import re
from collections import Counter

import pytest
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from baccara.bets import BetKind, BetOutcome, Rounding
from baccara.cards import Card, parse_cards
from baccara.coup import Coup, CoupError, Result
from baccara.shoe import ShoeSettings
from baccara.table.engine import Phase, Table
from baccara.table.events import (
    BetCancelled,
    BetPlaced,
    CoupDealt,
    CoupSettled,
    LimitError,
    PhaseError,
    SeatError,
    SeatLeft,
    SeatTaken,
    SettingsError,
    ShoeChanged,
    StackError,
    TableError,
    TableSettings,
)
from baccara.table.narration import reveal
from baccara.variants import VARIANTS, find_variant

SHORT = ShoeSettings(decks=1, cut_card=0, burn=False)
TIE = "7h 7s Qd Qc"  # P:7h,Qd B:7s,Qc  seven all
PLAYER = "9h 5s Kd Kc"  # P:9h,Kd B:5s,Kc  natural 9 beats 5
BANKER = "6h 7d Jd Jc"  # P:6h,Jd B:7d,Jc  seven beats six
FILLER = "2c 3c 4c 5c 6c 8c"


def stacked(*coups: str, settings: TableSettings | None = None, **kwargs: object) -> Table:
    """A table whose one-deck shoe deals ``coups`` in order, then the filler."""
    table = Table(settings=settings or TableSettings(shoe=SHORT), **kwargs)  # type: ignore[arg-type]
    table.change_shoe(parse_cards(" ".join((*coups, FILLER))))
    return table


def seated(*coups: str, stack: int = 100_000, settings: TableSettings | None = None) -> Table:
    table = stacked(*coups, settings=settings)
    table.seat(1, player="ann", stack=stack)
    return table


# -- the flow ----------------------------------------------------------------------------


def test_phases_of_one_coup() -> None:
    table = Table(seed=5)
    assert table.phase is Phase.SHOE_CHANGE
    changed = table.change_shoe()
    assert isinstance(changed, ShoeChanged)
    assert changed.shoe == 1 and changed.seed == 5 and changed.cards == 416
    assert len(changed.burned) >= 2  # the exposed card and at least one burned
    assert table.phase is Phase.SETTLED  # bets open, nothing dealt yet
    table.seat(player="ann", stack=50_000)
    table.place_bet(1, BetKind.BANKER, 1_000)
    assert table.phase is Phase.BETTING
    dealt = table.deal()
    assert table.phase is Phase.DEALING and dealt.number == 1 and dealt.shoe == 1
    settled = table.settle()
    assert table.phase is Phase.SETTLED and settled.number == 1
    assert table.coups == [dealt.coup]
    assert [type(e) for e in table.log] == [
        ShoeChanged,
        SeatTaken,
        BetPlaced,
        CoupDealt,
        CoupSettled,
    ]


def test_seeded_tables_deal_the_same_shoe() -> None:
    a, b = Table(seed=11), Table(seed=11)
    a.change_shoe()
    b.change_shoe()
    assert [a.deal().coup for _ in range(1)] == [b.deal().coup]
    assert a.shoe is not None and b.shoe is not None and a.shoe.cards == b.shoe.cards
    c = Table(seed=12)
    c.change_shoe()
    assert c.shoe is not None and c.shoe.cards != a.shoe.cards


def test_a_whole_shoe_ends_in_shoe_change_and_a_new_shoe_follows() -> None:
    table = Table(seed=2, settings=TableSettings(shoe=ShoeSettings(decks=1)))
    table.change_shoe()
    table.seat(player="ann", stack=1_000_000)
    last_flags = []
    while table.phase is not Phase.SHOE_CHANGE:
        table.place_bet(1, BetKind.PLAYER, 1_000)
        last_flags.append(table.deal().last)
        settled = table.settle()
    assert settled.shoe_finished and last_flags[-1] and not any(last_flags[:-1])
    assert table.roads.statistics().coups == len(table.coups) == settled.number
    with pytest.raises(PhaseError, match="the shoe is finished: change the shoe first"):
        table.deal()
    table.change_shoe()
    assert table.shoe_number == 2 and table.coups == [] and len(table.roads) == 0
    assert table.phase is Phase.SETTLED


def test_roads_follow_every_coup() -> None:
    table = seated(TIE, PLAYER, BANKER)
    for _ in range(3):
        table.deal()
        table.settle()
    stats = table.roads.statistics()
    assert (stats.coups, stats.banker, stats.player, stats.tie) == (3, 1, 1, 1)


# -- money ----------------------------------------------------------------------------------


def test_player_win_banker_commission_and_tie() -> None:
    table = stacked(PLAYER, BANKER, TIE)
    table.seat(1, player="ann", stack=100_000)
    table.seat(2, player="bob", stack=100_000)
    table.place_bet(1, BetKind.PLAYER, 2_000)
    table.place_bet(2, BetKind.BANKER, 3_000)
    table.deal()
    settled = table.settle()
    assert [(r.seat, r.outcome, r.net) for r in settled.results] == [
        (1, BetOutcome.WIN, 2_000),
        (2, BetOutcome.LOSE, -3_000),
    ]
    assert settled.house == 1_000 and table.house == 1_000
    assert (table.stack(1), table.stack(2)) == (102_000, 97_000)

    table.place_bet(2, BetKind.BANKER, 1_010)  # wins 1_010 less 5% = 50.5 -> 50 commission
    table.deal()
    result = table.settle().results[0]
    assert (result.net, result.commission, result.returned) == (960, 50, 1_970)
    assert table.stack(2) == 97_000 + 960

    table.place_bet(1, BetKind.PLAYER, 1_000)
    table.place_bet(1, BetKind.TIE, 500)
    table.deal()
    settled = table.settle()
    assert [(r.kind, r.outcome, r.net, r.returned, r.stays) for r in settled.results] == [
        (BetKind.PLAYER, BetOutcome.PUSH, 0, 1_000, 0),
        (BetKind.TIE, BetOutcome.WIN, 4_000, 4_500, 0),
    ]
    ann = table.seat_state(1)
    assert ann.bets == () and ann.pushed == ()  # a push goes back, as at the web table
    assert ann.stack == 102_000 - 1_500 + 1_000 + 4_500


def test_a_pushed_bet_stays_on_the_layout_by_house_rule() -> None:
    table = seated(TIE, settings=TableSettings(shoe=SHORT, pushes_stay=True))
    table.place_bet(1, BetKind.PLAYER, 1_000)
    table.deal()
    result = table.settle().results[0]
    assert (result.outcome, result.returned, result.stays) == (BetOutcome.PUSH, 0, 1_000)
    ann = table.seat_state(1)
    assert ann.bets == ((BetKind.PLAYER, 1_000),) and ann.pushed == ((BetKind.PLAYER, 1_000),)
    assert ann.stack == 99_000


def test_commission_rounding_is_a_house_rule() -> None:
    settings = TableSettings(shoe=SHORT, commission_rounding=Rounding.UP)
    table = seated(BANKER, settings=settings)
    table.place_bet(1, BetKind.BANKER, 1_010)
    table.deal()
    assert table.settle().results[0].commission == 51


def test_pushed_bet_may_be_withdrawn_or_not_by_house_rule() -> None:
    table = seated(TIE, settings=TableSettings(shoe=SHORT, pushes_stay=True))
    table.place_bet(1, BetKind.BANKER, 2_000)
    table.deal()
    table.settle()
    assert table.withdrawable(1, BetKind.BANKER) == 2_000
    assert table.cancel_bet(1, BetKind.BANKER) == BetCancelled(
        seat=1, kind=BetKind.BANKER, amount=2_000, total=0
    )
    assert table.stack(1) == 100_000

    strict_settings = TableSettings(shoe=SHORT, pushes_stay=True, pushed_bets_withdrawable=False)
    strict = seated(TIE, settings=strict_settings)
    strict.place_bet(1, BetKind.BANKER, 2_000)
    strict.deal()
    strict.settle()
    with pytest.raises(LimitError, match="pushed and stays on the layout"):
        strict.cancel_bet(1, BetKind.BANKER)
    strict.place_bet(1, BetKind.BANKER, 1_500)  # more may be added, and taken back
    assert strict.withdrawable(1, BetKind.BANKER) == 1_500
    strict.cancel_bet(1, BetKind.BANKER, 1_500)
    assert strict.seat_state(1).bet(BetKind.BANKER) == 2_000


def test_leave_returns_stack_and_bets() -> None:
    table = seated()
    table.place_bet(1, BetKind.BANKER, 5_000)
    left = table.leave(1)
    assert left == SeatLeft(seat=1, player="ann", stack=100_000, returned=5_000)
    assert table.seats == () and table.cashed_out == 100_000 and table.chips == 0


def test_bots_strategy_label_and_rebet_memory() -> None:
    table = stacked(PLAYER, BANKER)
    table.seat(3, player="bot", stack=10_000, strategy="martingale")
    table.place_bet(3, BetKind.BANKER, 1_000)
    table.place_bet(3, BetKind.TIE, 100)
    table.deal()
    table.settle()
    state = table.seat_state(3)
    assert state.strategy == "martingale"
    assert state.last_bets == ((BetKind.BANKER, 1_000), (BetKind.TIE, 100))
    assert state.bets == ()


# -- every illegal action, with its message ---------------------------------------------------


def test_no_shoe_yet() -> None:
    table = Table()
    table.seat(player="ann", stack=1_000)
    with pytest.raises(PhaseError, match="bets are closed: there is no shoe yet"):
        table.place_bet(1, BetKind.PLAYER, 1_000)
    with pytest.raises(PhaseError, match="there is no shoe yet: change the shoe first"):
        table.deal()
    with pytest.raises(PhaseError, match="no coup to settle: deal first"):
        table.settle()
    assert not table.can_deal() and not table.can_settle()


@pytest.mark.parametrize(
    ("seat", "player", "stack", "error", "message"),
    [
        (0, "ann", 1_000, SeatError, "unknown seat 0: this table has seats 1 to 7"),
        (8, "ann", 1_000, SeatError, "unknown seat 8: this table has seats 1 to 7"),
        (1, "bob", 1_000, SeatError, "seat 1 is taken by ann"),
        (2, " ", 1_000, SeatError, "a player needs a name"),
        (2, "bob", 0, StackError, "bad buy-in 0.00"),
        (2, "bob", -5, StackError, "bad buy-in -0.05"),
        (2, "bob", True, StackError, "bad buy-in True"),
    ],
)
def test_illegal_seat(seat: int, player: str, stack: int, error: type, message: str) -> None:
    table = seated()
    assert not table.can_seat(seat, player=player, stack=stack)
    with pytest.raises(error, match=re.escape(message)):
        table.seat(seat, player=player, stack=stack)
    assert len(table.log) == 2  # nothing logged


def test_full_table_and_seat_counts() -> None:
    table = Table(settings=TableSettings(seats=2))
    table.seat(player="a", stack=1)
    table.seat(player="b", stack=1)
    with pytest.raises(SeatError, match="the table is full: all 2 seats are taken"):
        table.seat(player="c", stack=1)
    with pytest.raises(TableError, match="a Mini-Baccarat table has at most 7"):
        Table(variant=find_variant("mini"), settings=TableSettings(seats=8))
    with pytest.raises(SettingsError, match="bad number of seats 15: a table has 1 to 14"):
        TableSettings(seats=15)
    assert Table(
        variant=find_variant("punto-banco"), settings=TableSettings(seats=14)
    ).free_seats() == tuple(range(1, 15))


@pytest.mark.parametrize(
    ("seat", "kind", "amount", "error", "message"),
    [
        (2, BetKind.PLAYER, 1_000, SeatError, "seat 2 is empty"),
        (9, BetKind.PLAYER, 1_000, SeatError, "unknown seat 9"),
        (1, BetKind.PLAYER, 999, LimitError, "9.99 on Player is below the table minimum 10.00"),
        (1, BetKind.TIE, 50_100, LimitError, "501.00 on Tie is over the table maximum 500.00"),
        (1, BetKind.DRAGON_7, 1_000, LimitError, "a Punto Banco table does not take Dragon 7 bets"),
        (1, BetKind.BANKER, 0, StackError, "bad bet 0.00"),
        (1, BetKind.BANKER, 6_000, StackError, "seat 1 has 50.00 in chips: not enough for 60.00"),
    ],
)
def test_illegal_bet(seat: int, kind: BetKind, amount: int, error: type, message: str) -> None:
    table = seated(stack=5_000)
    assert not table.can_place_bet(seat, kind, amount)
    with pytest.raises(error, match=re.escape(message)):
        table.place_bet(seat, kind, amount)
    assert table.stack(1) == 5_000 and table.on_layout == 0


def test_limit_counts_the_whole_bet() -> None:
    table = seated(settings=TableSettings(shoe=SHORT).with_limits({BetKind.TIE: (100, 1_000)}))
    table.place_bet(1, BetKind.TIE, 600)
    with pytest.raises(LimitError, match=re.escape("11.00 on Tie is over the table maximum 10.00")):
        table.place_bet(1, BetKind.TIE, 500)
    table.place_bet(1, BetKind.TIE, 400)
    assert table.seat_state(1).bet(BetKind.TIE) == 1_000


def test_a_table_without_limits_for_a_kind_refuses_it() -> None:
    settings = TableSettings(shoe=SHORT, limits=TableSettings().limits[:3])
    table = seated(settings=settings)
    with pytest.raises(LimitError, match="this table does not take Player Pair bets"):
        table.place_bet(1, BetKind.PLAYER_PAIR, 1_000)


def test_no_bets_or_changes_while_the_cards_are_out() -> None:
    table = seated(PLAYER)
    table.place_bet(1, BetKind.PLAYER, 1_000)
    table.deal()
    with pytest.raises(PhaseError, match="bets are closed: the cards are out"):
        table.place_bet(1, BetKind.PLAYER, 1_000)
    with pytest.raises(PhaseError, match="bets are locked: the cards are out"):
        table.cancel_bet(1, BetKind.PLAYER)
    with pytest.raises(PhaseError, match="the cards are already out: settle the coup first"):
        table.deal()
    with pytest.raises(PhaseError, match="settle the coup before changing the shoe"):
        table.change_shoe()
    with pytest.raises(PhaseError, match="seat 1 has bets in play"):
        table.leave(1)
    with pytest.raises(PhaseError, match="nobody sits down while the cards are out"):
        table.seat(player="bob", stack=1_000)
    table.settle()
    with pytest.raises(PhaseError, match="there is no coup to settle: deal first"):
        table.settle()


def test_bets_closed_when_the_shoe_is_finished() -> None:
    table = Table(settings=TableSettings(shoe=SHORT))
    table.change_shoe(parse_cards(PLAYER + " 2c 3c 4c 5c 6c"))  # then 5 cards: too few
    table.seat(1, player="ann", stack=100_000)
    table.deal()
    assert table.settle().shoe_finished and table.phase is Phase.SHOE_CHANGE
    with pytest.raises(PhaseError, match="bets are closed: the shoe is finished"):
        table.place_bet(1, BetKind.PLAYER, 1_000)


@pytest.mark.parametrize(
    ("amount", "error", "message"),
    [
        (3_000, StackError, "seat 1 can take back at most 20.00 from Banker, not 30.00"),
        (1_500, LimitError, "would leave 5.00 on Banker, below the table minimum 10.00"),
        (-1, StackError, "bad amount to take back -0.01"),
    ],
)
def test_illegal_cancel(amount: int, error: type, message: str) -> None:
    table = seated()
    table.place_bet(1, BetKind.BANKER, 2_000)
    with pytest.raises(error, match=re.escape(message)):
        table.cancel_bet(1, BetKind.BANKER, amount)
    with pytest.raises(SeatError, match="seat 1 has no bet on Tie"):
        table.cancel_bet(1, BetKind.TIE)
    assert table.cancel_bet(1, BetKind.BANKER, 1_000).total == 1_000


def test_manual_table_deals_given_cards_once_each() -> None:
    table = Table(settings=TableSettings(shoe=SHORT))
    assert table.change_shoe(manual=True).manual
    table.seat(player="ann", stack=10_000)
    table.place_bet(1, BetKind.PLAYER, 1_000)
    with pytest.raises(TableError, match="give the coup's cards"):
        table.deal()
    with pytest.raises(CoupError, match="too many cards"):
        table.deal(parse_cards("9h 5s Kd Kc 2c"))
    dealt = table.deal(parse_cards(PLAYER))
    assert dealt.coup == Coup.parse("P:9h,Kd B:5s,Kc")
    table.settle()
    with pytest.raises(TableError, match="card 9h would be dealt 2 times from a 1-deck shoe"):
        table.deal(parse_cards("9h 2s 3d 4c"))
    auto = seated()
    with pytest.raises(TableError, match="this table deals from its shoe"):
        auto.deal(parse_cards(PLAYER))


def test_illegal_shoes() -> None:
    table = Table(settings=TableSettings(shoe=SHORT))
    with pytest.raises(TableError, match="card Ah appears 2 times in a 1-deck shoe"):
        table.change_shoe(parse_cards("Ah Ah 2c 3c 4c 5c"))
    with pytest.raises(TableError, match="a shoe needs at least 6 cards"):
        table.change_shoe(parse_cards("Ah 2c"))
    with pytest.raises(TableError, match="give cards or manual, not both"):
        table.change_shoe(parse_cards(FILLER), manual=True)
    assert table.log == []


def test_reveal_shows_cards_one_at_a_time_with_reasons() -> None:
    steps = reveal(Coup.parse("P:9h,Kd B:5s,Qc"))
    assert [str(s.card) for s in steps[:4]] == ["9h", "5s", "Kd", "Qc"]
    assert [len(s.player) + len(s.banker) for s in steps] == [1, 2, 3, 4, 4, 4]
    assert steps[4].reason == "Player has a natural 9: no more cards are drawn."
    assert steps[-1].words == "Nine to the Player, five to the Banker: Player wins."
    stand = reveal(Coup.parse("P:6h,Kd B:3s,Qc,2d"))
    assert stand[4].words == "Player stands." and stand[4].reason.startswith("Player has 6")
    assert stand[5].words == "Banker draws: 2d, five."
    assert "Banker draws on 0-5" in stand[5].reason


# -- conformance: a whole seeded shoe at every variant conserves cards and money ------------


@pytest.mark.parametrize("name", ["punto-banco", "tie-9", "commission-4", "super6", "ez", "mini"])
def test_whole_shoe_conserves_cards_and_money(name: str) -> None:
    variant = VARIANTS[name]
    table = Table(
        variant=variant, settings=TableSettings(shoe=ShoeSettings(decks=2)), seed=9, house=0
    )
    table.change_shoe()
    for seat in (1, 2, 3):
        table.seat(seat, player=f"p{seat}", stack=200_000)
    table.seat(4, player="side", stack=200_000)
    while table.phase is not Phase.SHOE_CHANGE:
        for seat, kind in enumerate((BetKind.PLAYER, BetKind.BANKER, BetKind.TIE), start=1):
            if table.seat_state(seat).bet(kind) == 0 and table.can_place_bet(seat, kind, 1_000):
                table.place_bet(seat, kind, 1_000)
        if table.can_place_bet(4, BetKind.PLAYER_PAIR, 100):
            table.place_bet(4, BetKind.PLAYER_PAIR, 100)
        table.deal()
        table.settle()
        assert table.chips == 800_000
    assert table.shoe is not None
    dealt = [c for coup in table.coups for c in coup.deal_order()]
    assert tuple(dealt) == table.shoe.dealt[len(table.shoe.burned) :]
    assert max(Counter(table.shoe.dealt).values()) <= 2


# -- the stateful test ----------------------------------------------------------------------

KINDS = (BetKind.PLAYER, BetKind.BANKER, BetKind.TIE, BetKind.PLAYER_PAIR, BetKind.BIG)


class TableMachine(RuleBasedStateMachine):
    """Random actions; illegal ones must be refused by can_/verify_ alike and change nothing."""

    def __init__(self) -> None:
        super().__init__()
        settings = TableSettings(seats=4, shoe=ShoeSettings(decks=1, cut_card=10))
        self.table = Table(settings=settings, seed=17, house=1_000_000)
        self.start = 1_000_000
        self.settled: set[tuple[int, int]] = set()
        self.staked_at_deal = 0
        self.coups_this_shoe: list[Coup] = []
        self.burned: tuple[Card, ...] = ()

    def attempt(self, can: bool, action: object, *args: object, **kwargs: object) -> object:
        before = (len(self.table.log), self.table.chips, self.table.phase)
        if not can:
            with pytest.raises(TableError):
                action(*args, **kwargs)  # type: ignore[operator]
            assert (len(self.table.log), self.table.chips, self.table.phase) == before
            return None
        return action(*args, **kwargs)  # type: ignore[operator]

    @rule(seat=st.integers(0, 5), stack=st.integers(-10, 50_000))
    def seat(self, seat: int, stack: int) -> None:
        t = self.table
        event = self.attempt(
            t.can_seat(seat, player=f"p{seat}", stack=stack),
            t.seat,
            seat,
            player=f"p{seat}",
            stack=stack,
        )
        if event is not None:
            self.start += stack

    @rule(seat=st.integers(0, 5))
    def leave(self, seat: int) -> None:
        event = self.attempt(self.table.can_leave(seat), self.table.leave, seat)
        if isinstance(event, SeatLeft):
            self.start -= event.stack

    @rule(seat=st.integers(1, 4), kind=st.sampled_from(KINDS), amount=st.integers(0, 30_000))
    def place_bet(self, seat: int, kind: BetKind, amount: int) -> None:
        t = self.table
        self.attempt(t.can_place_bet(seat, kind, amount), t.place_bet, seat, kind, amount)

    @rule(
        seat=st.integers(1, 4),
        kind=st.sampled_from(KINDS),
        amount=st.none() | st.integers(0, 10_000),
    )
    def cancel_bet(self, seat: int, kind: BetKind, amount: int | None) -> None:
        t = self.table
        self.attempt(t.can_cancel_bet(seat, kind, amount), t.cancel_bet, seat, kind, amount)

    @rule()
    def deal(self) -> None:
        t = self.table
        staked = t.on_layout
        event = self.attempt(t.can_deal(), t.deal)
        if isinstance(event, CoupDealt):
            self.staked_at_deal = staked
            self.coups_this_shoe.append(event.coup)

    @rule()
    def settle(self) -> None:
        event = self.attempt(self.table.can_settle(), self.table.settle)
        if isinstance(event, CoupSettled):
            key = (event.shoe, event.number)
            assert key not in self.settled, f"coup {key} settled twice"
            self.settled.add(key)
            assert sum(r.stake for r in event.results) == self.staked_at_deal

    @precondition(lambda self: self.table.phase is not Phase.DEALING)
    @rule()
    def change_shoe(self) -> None:
        event = self.attempt(self.table.can_change_shoe(), self.table.change_shoe)
        if isinstance(event, ShoeChanged):
            self.coups_this_shoe = []
            self.burned = event.burned

    @invariant()
    def chips_are_conserved(self) -> None:
        t = self.table
        stacks = sum(s.stack for s in t.seats)
        assert t.house + stacks + t.on_layout == self.start
        assert t.chips == t.house_start + t.bought_in - t.cashed_out
        assert all(s.stack >= 0 for s in t.seats)

    @invariant()
    def each_card_is_dealt_once(self) -> None:
        shoe = self.table.shoe
        if shoe is None:
            return
        dealt = [c for coup in self.coups_this_shoe for c in coup.deal_order()]
        assert (*self.burned, *dealt) == shoe.dealt
        assert max(Counter(shoe.dealt).values(), default=0) <= shoe.settings.decks

    @invariant()
    def roads_match_the_coups(self) -> None:
        settled = self.coups_this_shoe[: len(self.table.coups)]
        assert self.table.coups == settled
        assert len(self.table.roads) == len(settled)
        if settled:
            assert self.table.roads.statistics().tie == sum(c.winner is Result.TIE for c in settled)


TestTableMachine = TableMachine.TestCase


def test_a_pending_shoe_takes_bets_and_keeps_them_when_sealed() -> None:
    """The online table's fair shoe: announced, bets placed, then sealed and dealt."""
    table = Table(settings=TableSettings(shoe=SHORT))
    table.seat(1, player="ann", stack=0, wallet=True)
    assert table.change_shoe(pending=True).pending
    table.place_bet(1, BetKind.PLAYER, 1_000)
    with pytest.raises(PhaseError, match="not sealed yet"):
        table.deal()
    sealed = table.change_shoe(cards=parse_cards(f"{PLAYER} {FILLER}"))
    assert (sealed.shoe, table.shoe_number, table.phase) == (1, 1, Phase.BETTING)
    assert table.seat_state(1).bets == ((BetKind.PLAYER, 1_000),)
    table.deal()
    result = table.settle().results[0]
    assert (result.outcome, result.returned) == (BetOutcome.WIN, 2_000)
    # a wallet seat keeps no stack: the chips came from outside and went back out
    assert table.stack(1) == 0 and (table.bought_in, table.cashed_out) == (1_000, 2_000)
    assert table.chips == table.house_start + table.bought_in - table.cashed_out
