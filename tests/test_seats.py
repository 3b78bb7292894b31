"""The house table's seating (`baccara.server.tables.seats.Seats`), alone: told the moment,
it seats players at the engine's seats or behind them and returns the seats taken and
freed (the ``seat`` events the table sends); no runner, no clock."""

from __future__ import annotations

from baccara.bets import BetKind
from baccara.cards import parse_cards
from baccara.db.auth import User
from baccara.server.tables.seats import Moment, SeatChange, Seats
from baccara.shoe import ShoeSettings
from baccara.table.engine import Table
from baccara.table.events import TableSettings

GRACE = 60.0
USERS = {
    name: User(id=n, name=name, account=100 + n) for n, name in enumerate(("ann", "bob", "cy"))
}


def _table(seats: int = 2, behind: int = 2) -> Table:
    table = Table(
        settings=TableSettings(
            seats=seats, behind=behind, shoe=ShoeSettings(decks=1, cut_card=0, burn=False)
        )
    )
    table.change_shoe(parse_cards("6h 7d Jd Jc 2c 3c 4c 5c 6c 8c 9c Tc"))  # P:6h,Jd B:7d,Jc
    return table


def _at(now: float, here: set[str], *, betting: bool = True, round: int = 1) -> Moment:
    return Moment(now=now, present=here.__contains__, betting=betting, round=round)


def test_a_seat_is_kept_for_its_grace_then_freed_with_a_seat_event() -> None:
    table, seats, here = _table(), Seats(grace_seconds=GRACE), {"ann", "bob"}
    assert seats.take(table, USERS["ann"], _at(0, here)).changes == (
        SeatChange(seat=1, player="ann"),
    )
    seats.take(table, USERS["bob"], _at(0, here))
    here.discard("ann")
    assert seats.free_absent(table, _at(10, here)) == ()  # first seen gone at 10
    assert seats.free_absent(table, _at(10 + GRACE, here, betting=False)) == ()  # not now
    assert table.seat_of("ann") == 1
    assert seats.free_absent(table, _at(10 + GRACE, here)) == (
        SeatChange(seat=1, player="ann", left=True),
    )
    assert table.seat_of("ann") is None and table.seat_of("bob") == 2


def test_a_player_back_within_the_grace_or_with_a_bet_keeps_the_seat() -> None:
    table, seats, here = _table(), Seats(grace_seconds=GRACE), {"ann", "bob"}
    seats.take(table, USERS["ann"], _at(0, here))
    seats.take(table, USERS["bob"], _at(0, here))
    table.place_bet(2, BetKind.BANKER, 1_000)
    here.clear()
    seats.free_absent(table, _at(0, here))
    here.add("ann")  # back: the clock of her absence starts again when she goes
    seats.free_absent(table, _at(30, here))
    here.clear()
    assert seats.free_absent(table, _at(GRACE + 1, here)) == ()  # ann gone since 61; a bet
    assert [s.player for s in table.seats] == ["ann", "bob"]


def test_a_newcomer_at_a_full_table_takes_the_seat_of_a_player_gone() -> None:
    table, seats, here = _table(), Seats(grace_seconds=GRACE), {"ann", "bob", "cy"}
    for name in ("ann", "bob"):
        seats.take(table, USERS[name], _at(0, here))
    here.discard("ann")
    seats.free_absent(table, _at(0, here))
    early = seats.take(table, USERS["cy"], _at(GRACE - 1, here))
    assert (early.place, early.changes) == (3, ())  # a place behind, without an event
    assert seats.free_absent(table, _at(GRACE, here)) == (
        SeatChange(seat=1, player="ann", left=True),
    )
    late = seats.take(table, USERS["cy"], _at(GRACE, here))  # joining again: to the seat
    assert (late.place, late.changes) == (1, (SeatChange(seat=1, player="cy"),))
    assert table.seat_of("cy") == 1 and not table.behind


def test_the_freed_seat_is_sent_before_the_one_taken_and_a_full_table_says_none() -> None:
    table, seats, here = _table(behind=0), Seats(grace_seconds=GRACE), {"ann", "bob"}
    for name in ("ann", "bob"):
        seats.take(table, USERS[name], _at(0, here))
    assert seats.take(table, USERS["cy"], _at(0, here | {"cy"})).place is None  # all held
    here.discard("ann")
    seats.free_absent(table, _at(0, here))
    taken = seats.take(table, USERS["cy"], _at(GRACE, here | {"cy"}))
    assert (taken.place, taken.changes) == (
        1,
        (SeatChange(seat=1, player="ann", left=True), SeatChange(seat=1, player="cy")),
    )
    assert seats.accounts == {100: "ann", 101: "bob", 102: "cy"}
    assert seats.wallets()["cy"] == 102


def test_places_behind_are_freed_once_a_round_without_an_event() -> None:
    table, seats, here = _table(seats=1), Seats(grace_seconds=0.0), {"ann", "bob"}
    seats.take(table, USERS["ann"], _at(0, here))
    assert seats.take(table, USERS["bob"], _at(0, here)).place == 2  # behind
    here.discard("bob")
    assert seats.free_absent(table, _at(5, here, round=1)) == ()  # round 1's: looked at
    assert table.seat_of("bob") == 2
    assert seats.free_absent(table, _at(5, here, round=2)) == ()  # freed: no event
    assert table.seat_of("bob") is None


def test_nobody_sits_down_while_the_cards_are_out() -> None:
    table, seats, here = _table(), Seats(grace_seconds=GRACE), {"ann", "bob"}
    seats.take(table, USERS["ann"], _at(0, here))
    table.place_bet(1, BetKind.BANKER, 1_000)
    table.deal()
    assert seats.take(table, USERS["bob"], _at(0, here)).place is None
    assert seats.take(table, USERS["ann"], _at(0, here)).place == 1
    assert table.seat_of("bob") is None
