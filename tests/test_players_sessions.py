"""Real sessions at the players' tables (issue 25), on a simulated clock: a table left
alone, players who stop answering, leaving and adding chips between coups, a punter who
passes. Each test holds what an hour of play by people found broken:

- a Chemin de Fer table whose players had all gone passed the bank back and forth about
  100 times a second, writing a decision each time (83,000 rows);
- "Leave the table" kept the chips until the shoe's end (never, with one player left);
- a player who could not act but stayed connected stalled every coup for ever.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any

import sqlalchemy as sa
from tests.support.tables import Seat, Tables, act, players_table, state_where

from baccara.db.books import HOUSE
from baccara.db.schema import skill_actions
from baccara.server.tables.game import PlayersTiming
from baccara.server.wire import protocol as P
from baccara.skill.chemin import CheminTable
from baccara.skill.replay import verify

TIMING = PlayersTiming(decision_seconds=20, seed_seconds=8, result_seconds=3, bot_seconds=1)
BUY_IN = 20_000
SIT = P.SitMessage(type="sit", buy_in=BUY_IN)
LEAVE = P.LeaveMessage(type="leave")
STAY = P.LeaveMessage(type="leave", stay=True)
HOUR = 3_600.0


def run(test: Callable[[], Coroutine[Any, Any, None]]) -> None:
    asyncio.run(test())


def rows(tables: Tables) -> int:
    """The decisions stored so far."""
    with tables.ledger.database.connect() as conn:
        return int(conn.execute(sa.select(sa.func.count()).select_from(skill_actions)).scalar_one())


async def seated(tables: Tables, *names: str) -> list[Seat]:
    seats = [await tables.join(name) for name in names]
    await tables.start()
    for seat in seats:
        assert await seat.send(SIT) is None
    return seats


def test_a_table_its_players_left_waits_for_them_writing_nothing() -> None:
    """Both players close their pages in the middle of a shoe: the table says it waits,
    then stays still for an hour (no decision stored, no event sent); a player who comes
    back gets a whole clock for the decision due."""

    async def test() -> None:
        async with players_table("chemin-de-fer", timing=TIMING) as tables:
            ann, bob = await seated(tables, "ann", "bob")
            await state_where(tables, ann, lambda m: m["to_act"] == "ann")
            ann.leave()
            bob.leave()
            await tables.clock.advance(60)
            before, seq = rows(tables), tables.runner.seq
            assert tables.runner.paused and before <= 2, before
            for _ in range(60):  # an hour, a minute at a time
                await tables.clock.advance(60)
            assert rows(tables) == before and tables.runner.seq == seq
            back = await tables.join("ann")
            state = await state_where(tables, back, lambda m: not m["paused"] and m["deadline"])
            assert state["deadline"] == state["time"] + TIMING.decision_seconds

    run(test)


def test_players_who_stop_answering_sit_out_and_the_table_waits() -> None:
    """Connected but silent: after the clock runs out on a player twice in a row they sit
    out (their turns passed at once); with every player sitting out the table waits,
    writing nothing, until one comes back."""

    async def test() -> None:
        async with players_table("chemin-de-fer", timing=TIMING) as tables:
            ann, _bob = await seated(tables, "ann", "bob")
            waiting = await state_where(tables, ann, lambda m: m["paused"], limit=HOUR)
            assert sorted(waiting["away"]) == ["ann", "bob"]
            assert any("sits out" in line for line in waiting["news"])
            stored = rows(tables)
            assert stored <= 6, stored  # two clocks each, and no more
            await tables.clock.advance(HOUR)
            assert rows(tables) == stored
            assert await ann.send(P.SitOutMessage(type="sit_out", out=False)) is None
            state = await state_where(tables, ann, lambda m: not m["paused"] and m["deadline"])
            assert "ann" not in state["away"]

    run(test)


def test_a_player_leaves_between_coups_with_the_chips_at_once() -> None:
    """Three play; one who has not spoken leaves during the stakes: the chips are back in
    the wallet with the answer, the shoe goes on without him. A punter with a stake on
    the felt leaves as soon as the coup is settled. With one player left the shoe ends,
    and its record, with the leaves in it, verifies."""

    async def test() -> None:
        async with players_table("chemin-de-fer", timing=TIMING, decks=1) as tables:
            ann, bob, cy = await seated(tables, "ann", "bob", "cy")
            bank = await state_where(tables, ann, lambda m: m["to_act"] == "ann")
            assert await ann.send(act(bank, "open_bank", amount=5_000)) is None
            stakes = await state_where(tables, bob, lambda m: m["to_act"] == "bob")
            assert await cy.send(LEAVE) is None  # cy has not spoken: gone at once
            assert tables.balance("cy") == 100_000
            assert await bob.send(act(stakes, "stake", amount=1_000)) is None
            dealt = bob.of("chemin")[-1]
            assert await bob.send(LEAVE) is None
            if dealt["phase"] in ("punter", "banker"):  # his stake is in play: after the coup
                left = bob.of("chemin")[-1]
                assert "bob" in left["leaving"] and any("settled" in n for n in left["news"])
                assert tables.balance("bob") == 100_000 - BUY_IN
                await tables.clock.run_until(lambda: tables.balance("bob") != 100_000 - BUY_IN)
            after = bob.of("chemin")[-1]
            assert "bob" not in after["players"] and "cy" not in after["players"]
            # one player left: the shoe is over, its record verifies; her chips wait for her
            await tables.clock.run_until(lambda: bool(ann.of("shoe_end")))
            assert ann.of("chemin")[-1]["players"] == ["ann"]
            ends = ann.of("shoe_end")
            record = ends[0]["record"]
            assert [a["act"] for a in record["actions"]].count("leave") == 2
            result = verify(record)
            assert result.ok, result.problems
            assert await ann.send(LEAVE) is None  # no shoe now: her chips come back at once
            wallets = sum(tables.balance(name) for name in ("ann", "bob", "cy"))
            assert wallets + _commission(tables) == 300_000  # nothing appeared or vanished

    run(test)


def test_a_player_who_asked_to_leave_during_a_coup_may_stay() -> None:
    """ "Leave the table" during a coup waits for its settlement; until then "Stay"
    cancels it (there was no way back): the player is still seated, chips and all,
    once the coup is settled. A stay with no leave asked is refused and changes nothing."""

    async def test() -> None:
        async with players_table("chemin-de-fer", timing=TIMING, decks=1) as tables:
            ann, bob = await seated(tables, "ann", "bob")
            refused = await bob.send(STAY)
            assert refused is not None and refused["code"] == "not_leaving"
            seats = {"ann": ann, "bob": bob}
            for _ in range(40):  # coups until one waits for a choice, money on the felt
                state = await state_where(tables, ann, lambda m: m["to_act"] is not None)
                if state["phase"] in ("punter", "banker"):
                    break
                # a bank kept after its wins doubles (three naturals: 148.30, more than
                # the punter's 64.95 left): passed after a win, it is opened at 20.00
                # again, which the punter covers
                choice = "open_bank" if "open_bank" in state["choices"] else "banco"
                if "keep_bank" in state["choices"]:
                    choice = "pass_bank"
                assert choice in state["choices"], state
                amount = 2_000 if choice == "open_bank" else None
                assert await seats[state["to_act"]].send(act(state, choice, amount=amount)) is None
                await tables.clock.advance(0.1)
            else:
                raise AssertionError("no coup waited for a choice")
            other = "ann" if state["to_act"] == "bob" else "bob"
            before = tables.balance(other)
            assert await seats[other].send(LEAVE) is None
            assert other in seats[other].of("chemin")[-1]["leaving"]
            assert await seats[other].send(STAY) is None
            stays = seats[other].of("chemin")[-1]
            assert other not in stays["leaving"] and f"{other} stays at the table." in stays["news"]
            await tables.clock.run_until(
                lambda: seats[other].of("chemin")[-1]["phase"] not in ("punter", "banker")
            )
            after = seats[other].of("chemin")[-1]
            assert other in after["players"] and tables.balance(other) == before

    run(test)


def _commission(tables: Tables) -> int:
    """The house's commission taken so far."""
    return tables.ledger.balance(tables.ledger.create_account(HOUSE))


def test_a_player_adds_chips_between_coups_and_not_during_one() -> None:
    """More chips, sent as a ``sit`` by a player of the shoe: between coups they are
    bought and play at once; with a stake on the felt they are refused and nothing
    changes."""

    async def test() -> None:
        async with players_table("chemin-de-fer", timing=TIMING) as tables:
            ann, bob = await seated(tables, "ann", "bob")
            await state_where(tables, ann, lambda m: m["to_act"] == "ann")
            more = P.SitMessage(type="sit", buy_in=5_000)
            assert await bob.send(more) is None  # between coups: bought now
            assert tables.balance("bob") == 100_000 - BUY_IN - 5_000
            state = bob.of("chemin")[-1]
            assert state["chips"]["bob"] == BUY_IN + 5_000
            bank = ann.of("chemin")[-1]
            assert await ann.send(act(bank, "open_bank", amount=5_000)) is None
            refused = await ann.send(more)  # the banker's bank is in play
            assert refused is not None and refused["code"] == "in_play"
            assert tables.balance("ann") == 100_000 - BUY_IN

    run(test)


def test_a_punter_may_pass_and_one_who_cannot_cover_is_offered_his_chips() -> None:
    """The punter's offer says what he can do: a stake up to his chips (not the bank's
    size), and passing, which moves the coup on at once."""

    async def test() -> None:
        async with players_table("chemin-de-fer", timing=TIMING) as tables:
            ann = await tables.join("ann")
            bob = await tables.join("bob")
            await tables.start()
            assert await ann.send(P.SitMessage(type="sit", buy_in=50_000)) is None
            assert await bob.send(P.SitMessage(type="sit", buy_in=2_000)) is None
            bank = await state_where(tables, ann, lambda m: m["to_act"] == "ann")
            assert await ann.send(act(bank, "open_bank", amount=10_000)) is None
            offer = await state_where(tables, bob, lambda m: m["to_act"] == "bob")
            assert offer["choices"] == ["stake"] and offer["labels"]["stake"] == "Stake"
            assert offer["ranges"] == {"stake": [0, 2_000]}  # his chips, not the bank's 100.00
            assert await bob.send(act(offer, "stake", amount=0)) is None  # he passes
            moved = bob.of("chemin")[-1]
            assert moved["decision"] == offer["decision"] + 1 and any(
                "declines" in line for line in moved["news"]
            )

    run(test)


def test_a_punter_under_the_minimum_is_not_asked() -> None:
    """A punter whose chips fell under the table's minimum is not offered a stake for
    the clock to run out on: the house declines for him at once, saying why."""

    async def test() -> None:
        async with players_table("chemin-de-fer", timing=TIMING, minimum=1_000) as tables:
            table = CheminTable(
                names=("ann", "bob"), bankrolls=(50_000, 900), minimum=1_000, seed=1
            )
            table.open_bank(2_000)
            assert table.actor == 1
            action = tables.runner.house_action(table)
            assert action is not None and (action.act.value, action.seat, action.amount) == (
                "stake",
                1,
                0,
            )
            assert "minimum" in action.reason
            table.apply(action)
            rich = CheminTable(names=("ann", "bob"), bankrolls=(50_000, 5_000), seed=1)
            rich.open_bank(2_000)
            assert tables.runner.house_action(rich) is None  # he is asked

    run(test)


def test_banque_keeps_the_banker_s_cards_down_while_a_punter_chooses() -> None:
    """The right tableau's natural is paid at once, but the left punter still chooses on
    5: nobody sees the banker's two cards, nor his total in the news (before: both
    shown, 5 coups of 5)."""
    from baccara.cards import parse_cards
    from baccara.shoe import Shoe
    from baccara.skill.banque import BanqueTable
    from baccara.skill.banque_events import Half

    table = BanqueTable(
        names=("Ann", "Bob", "Cy"),
        bankrolls=(50_000, 10_000, 10_000),
        shoe=Shoe.stacked(parse_cards("2h 9d 5s 3d Kc Qc 4c 7h") * 8),
        punter_speaks=True,
    )
    table.bid(0, 20_000)
    table.close_auction()
    table.stake(1, Half.LEFT, 1_000)
    events = table.stake(2, Half.RIGHT, 2_000)
    assert table.phase.value == "punter" and table.actor == 1  # Bob chooses on 5
    for seat in (None, 1, 2):  # everybody but the banker himself
        seen = table.observation(seat)
        assert seen.shown["B"] == () and seen.hidden["B"] == 2
    news = [table.seen(event) for event in events]  # the news the runner tells
    assert "Right: a natural 9, the punters win 20.00." in news, news
    assert not any("to 5" in line for line in news), news  # the banker's 5s Qc: 5


def test_banque_waits_when_its_only_punter_is_gone() -> None:
    """The banker is at the table, his only punter has closed the page: the house sat
    the punter out of every round of stakes at once, for ever (a decision row each
    time). Now the table waits after a few, writing nothing, until somebody acts."""

    async def test() -> None:
        async with players_table("banque", timing=TIMING) as tables:
            ann, bob = await seated(tables, "ann", "bob")
            auction = await state_where(tables, ann, lambda m: m["phase"] == "auction")
            assert await ann.send(act(auction, "bid", amount=auction["next_bid"])) is None
            await state_where(tables, bob, lambda m: m["phase"] == "stakes")
            bob.leave()
            await tables.clock.advance(60)
            stored = rows(tables)
            assert tables.runner.paused and stored < 15, stored
            await tables.clock.advance(HOUR)
            assert rows(tables) == stored
            waiting = ann.of("banque")[-1]
            assert waiting["paused"] and waiting["deadline"] is None

    run(test)
