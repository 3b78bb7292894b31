"""The players' tables on the clock they are given (issue 24): a decision's clock, the
house's rule when it runs out, the auction's clock, the seats across a restart and a
shuffle, and decisions with identity (issue 23, finding 6), in process on a simulated
clock (`tests.support.tables`), to the second and without waiting.

The seats come from a review of the Chemin de Fer runner. After a restart the seats were
rebuilt only from the shoe in play: a player seated between shoes was forgotten, the
chips still at the table. A player who left during the shuffle was cashed out at once,
racing the deal that read the seats a moment before; now a leave while a shoe is
committed waits for the deal, which leaves the player out, and the chips go back right
after it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from functools import partial
from typing import Any

from tests.support.tables import Seat, Tables, act, players_table
from tests.support.tables import state_where as latest_state_where

from baccara.db.chips import Chips
from baccara.server.tables.game import PlayersTiming
from baccara.server.wire import protocol as P

TIMING = PlayersTiming(decision_seconds=20, seed_seconds=8, result_seconds=3, bot_seconds=1)
SIT = P.SitMessage(type="sit", buy_in=20_000)

state_where = partial(latest_state_where, first=True)  # the first state that passes


def run(test: Callable[[], Coroutine[Any, Any, None]]) -> None:
    asyncio.run(test())


async def seated(tables: Tables, *names: str) -> list[Seat]:
    """``names`` join and sit down; the table starts."""
    seats = [await tables.join(name) for name in names]
    await tables.start()
    for seat in seats:
        assert await seat.send(SIT) is None
    return seats


def test_a_decision_s_clock_runs_out_at_its_deadline_and_the_house_s_rule_is_taken() -> None:
    """The banker who does not answer keeps the table waiting ``decision_seconds``, to
    the instant shown, then the house's rule decides for him (stored as timed out);
    his decision sent after that is refused and changes nothing."""

    async def test() -> None:
        async with players_table("chemin-de-fer", timing=TIMING) as tables:
            ann, _bob = await seated(tables, "ann", "bob")
            bank = await state_where(tables, ann, lambda m: m["to_act"] == "ann")
            assert bank["deadline"] == bank["time"] + 20
            await tables.clock.advance(bank["deadline"] - 0.01 - tables.clock.now())
            assert tables.runner.decisions == bank["decision"]  # still waiting
            await tables.clock.advance(0.01)
            assert tables.runner.decisions == bank["decision"] + 1  # the house's rule, at 20 s
            assert tables.runner.taken[-1].timed_out
            passed = await state_where(tables, ann, lambda m: m["decision"] > bank["decision"])
            assert passed["phase"] == "bank" and passed["to_act"] == "bob"
            assert passed["chips"]["ann"] == 20_000
            assert any("ann" in line and "pass" in line for line in passed["news"]), passed
            late = await ann.send(act(bank, "open_bank", amount=5_000))
            assert late is not None and late["code"] == "too_late" and "clock" in late["message"]
            assert tables.runner.decisions == bank["decision"] + 1
            stacks = Chips(tables.ledger, "c1").stacks(["ann", "bob"])
            assert stacks["ann"] == stacks["bob"] == 20_000

    run(test)


def test_a_repeated_decision_is_refused_and_changes_nothing() -> None:
    """A punter's banco sent twice (a double click, a resend): the second is
    ``already_decided``, and one banco is stored."""

    async def test() -> None:
        async with players_table("chemin-de-fer", timing=TIMING) as tables:
            ann, bob = await seated(tables, "ann", "bob")
            bank = await state_where(tables, ann, lambda m: m["to_act"] == "ann")
            assert await ann.send(act(bank, "open_bank", amount=2_000)) is None
            stakes = await state_where(tables, bob, lambda m: m["to_act"] == "bob")
            assert await bob.send(act(stakes, "banco")) is None
            again = await bob.send(act(stakes, "banco"))
            assert again is not None and again["code"] == "already_decided", again
            acts = [a.act.value for a, _ in Chips(tables.ledger, "c1").actions(stakes["shoe"])]
            assert acts.count("banco") == 1, acts

    run(test)


def test_a_bid_after_the_auction_s_clock_is_refused() -> None:
    """At Banque a bid naming a decision not yet asked is ``bad_decision``; one sent
    when the auction's clock has run out is refused and bids nothing: the bank goes to
    the last bid in time."""

    async def test() -> None:
        timing = PlayersTiming(decision_seconds=1, seed_seconds=8, result_seconds=3)
        async with players_table("banque", timing=timing) as tables:
            ann, bob = await seated(tables, "ann", "bob")
            auction = await state_where(tables, ann, lambda m: m["phase"] == "auction")
            ahead = await ann.send(
                act(auction, "bid", amount=auction["next_bid"]).model_copy(update={"decision": 99})
            )
            assert ahead is not None and ahead["code"] == "bad_decision"
            await ann.send(act(auction, "bid", amount=auction["next_bid"]))
            bid = await state_where(tables, bob, lambda m: bool(m["bids"]))
            await tables.clock.advance(bid["deadline"] - tables.clock.now())
            late = await bob.send(act(bid, "bid", amount=bid["next_bid"]))
            assert late is not None and late["code"] in ("too_late", "stale_decision"), late
            closed = await state_where(tables, bob, lambda m: m["decision"] > bid["decision"])
            assert closed["phase"] != "auction"
            assert closed["banker"] == "ann"

    run(test)


def test_two_leaves_at_once_are_answered() -> None:
    """Two ``leave`` at once from two tabs: the chips come back once, the second is told
    the player is not seated (before: a server error)."""

    async def test() -> None:
        async with players_table("chemin-de-fer", timing=TIMING) as tables:
            (ann,) = await seated(tables, "ann")
            other = await tables.join("ann")
            leave = P.LeaveMessage(type="leave")
            answers = await asyncio.gather(ann.send(leave), other.send(leave))
            errors = [a for a in answers if a is not None]
            assert [e["code"] for e in errors] == ["not_seated"], answers
            assert "ann" not in tables.runner.seats.players
            assert tables.balance("ann") == 100_000

    run(test)


def test_a_player_seated_between_shoes_is_seated_again_after_a_restart() -> None:
    """Alone at the table (no shoe starts), the server restarts: she is still seated
    (the lobby says so), and leaving gives her every chip back."""

    async def test() -> None:
        async with players_table("chemin-de-fer", timing=TIMING, decks=1) as tables:
            (_ann,) = await seated(tables, "ann")
            await tables.clock.advance(30)
            await tables.restart()
            assert tables.runner.summary().seated == 1
            back = await tables.join("ann")
            assert back.of("chemin")[0]["players"] == ["ann"]
            assert await back.send(P.LeaveMessage(type="leave")) is None
            assert tables.balance("ann") == 100_000
            assert Chips(tables.ledger, "c1").stacks(["ann"])["ann"] == 0

    run(test)


def test_a_player_who_leaves_during_the_shuffle_is_not_dealt_in() -> None:
    """Three sit; the third leaves while the shoe is being shuffled: the shoe is dealt
    to the other two, and every chip of hers goes back to her wallet."""

    async def test() -> None:
        async with players_table("chemin-de-fer", timing=TIMING, decks=1) as tables:
            _ann, _bob, cy = await seated(tables, "ann", "bob", "cy")
            await state_where(tables, cy, lambda m: m["phase"] == "shuffle")
            assert await cy.send(P.LeaveMessage(type="leave")) is None
            dealt = await state_where(tables, cy, lambda m: bool(m["in_shoe"]))
            assert dealt["in_shoe"] == ["ann", "bob"] and "cy" not in dealt["players"]
            assert tables.balance("cy") == 100_000
            assert Chips(tables.ledger, "c1").stacks(["cy"])["cy"] == 0

    run(test)
