"""The seating of a players' table (`baccara.server.tables.players_seats`): a state that
says what each change means (the news, how a leave goes, who may go now) and touches
nothing else; the table online plays it (tests/test_players_clock.py,
tests/test_players_sessions.py)."""

from __future__ import annotations

import pytest

from baccara.db.ledger import BetError
from baccara.server.tables.players_seats import Leave, PlayersSeats, seat_in
from baccara.server.tables.refusal import Refused
from baccara.skill.actions import Act, Action
from baccara.skill.chemin import CheminTable


def _seats(connected: set[str], *, bots: tuple[str, ...] = ()) -> PlayersSeats:
    return PlayersSeats(
        max_seats=3, minimum=1_000, bots=list(bots), connected=connected.__contains__
    )


def test_a_seat_is_refused_when_the_table_is_full_or_the_buy_in_small() -> None:
    seats = _seats(set())
    for name in ("ann", "bob", "cy"):
        seats.check_sit(name, 1_000)
        assert seats.sat(name, 1_000, chips=1_000) == [f"{name} sits down with 10.00."]
    with pytest.raises(Refused, match="all 3 seats"):
        seats.check_sit("dee", 5_000)
    seats.check_sit("ann", 1_000)  # a seated player adds chips
    assert seats.sat("ann", 1_000, chips=2_000) == ["ann adds 10.00: 20.00 in chips."]
    with pytest.raises(BetError, match=r"at least 10\.00"):
        seats.check_sit("ann", 999)
    assert seats.players == ["ann", "bob", "cy"]


def test_the_clock_running_out_twice_sits_a_player_out_until_they_act() -> None:
    seats = _seats({"ann"})
    seats.sat("ann", 1_000, chips=1_000)
    assert seats.timed_out("ann") == [] and seats.present("ann", 0.0)
    assert seats.timed_out("ann") == ["ann sits out (the clock ran out twice): act to come back."]
    assert not seats.present("ann", 0.0) and seats.absent("ann", 0.0)
    assert seats.back("ann") == ["ann is back."] and seats.present("ann", 0.0)
    assert seats.timed_out("ann") == []  # acting cleared the count
    assert seats.sit_out("ann", False) == []  # as it is already: nothing to tell


def test_a_restart_s_grace_keeps_the_absent_present_until_it_ends() -> None:
    seats = _seats(set(), bots=("bot 1",))
    seats.seat(["ann", "bot 1"])
    seats.grace_until = 20.0
    assert seats.present("ann", 19.9) and not seats.present("ann", 20.0)
    table = CheminTable(names=("ann", "bot 1"), bankrolls=(5_000, 5_000), seed=1)
    assert seats.awaited(table, 19.9) and not seats.awaited(table, 20.0)  # bots wait for none
    assert seats.bot_seats(table) == {1} and not seats.absent("bot 1", 20.0)
    assert seats.playable(["ann", "bot 1"], 19.9)
    assert not seats.playable(["ann", "bot 1"], 20.0)  # bots never play alone


def test_a_leave_goes_now_from_the_shoe_or_after_the_coup() -> None:
    seats = _seats({"ann", "bob", "cy"})
    seats.seat(["ann", "bob", "cy"])
    table = CheminTable(names=("ann", "bob"), bankrolls=(5_000, 5_000), seed=14)
    assert seat_in(table, "cy") is None and seat_in(None, "ann") is None
    assert seats.leave("cy", seat_in(table, "cy")) is Leave.NOW
    assert seats.cashed_out("cy") == ["cy leaves the table."] and "cy" not in seats.players
    assert seats.leave("ann", 0, can_leave=True) is Leave.FROM_SHOE
    table.apply(Action(act=Act.OPEN_BANK, seat=0, amount=1_000))
    table.apply(Action(act=Act.BANCO, seat=1))
    assert not table.can_leave(1)  # money in the coup being played
    assert seats.leave("bob", 1, can_leave=False) is Leave.AFTER_COUP
    assert seats.going(table) == [] and seats.not_playing(table.names) == []
    with pytest.raises(Refused, match="not seated"):  # a second leave
        seats.leave("bob", 1, can_leave=False)
    assert seats.stay("bob") == ["bob stays at the table."]
    with pytest.raises(Refused, match="nothing to cancel"):
        seats.stay("bob")
    seats.leave("bob", 1, can_leave=False)
    assert seats.not_playing(["ann"]) == ["bob"]  # once he is out of the shoe in play
    action = table.default_action()  # the punter's (no natural in this shoe's first coup)
    assert action is not None and action.seat == 1
    table.apply(action)
    assert table.can_leave(1) and seats.going(table) == [1]  # the coup is settled


def test_who_is_ready_is_read_from_the_stacks_read_while_others_sit_down() -> None:
    """The table reads the seated players' chips from the database, then asks who is
    ready: a player who sat down during that read is not in it (ready for the next
    shoe), one who left during it is not ready. A crash test once met the first as a
    KeyError that stopped the table."""
    seats = _seats(set())
    for name in ("ann", "bob"):
        seats.sat(name, 1_000, chips=1_000)
    stacks = {"ann": 1_000, "bob": 5_000}  # read while ann and bob were seated
    seats.sat("cy", 1_000, chips=1_000)  # cy sits down meanwhile
    assert seats.ready(stacks) == ["ann", "bob"]
    seats.leaving.add("bob")
    assert seats.ready(stacks) == ["ann"]
