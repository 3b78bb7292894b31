"""The house's control of a running table (issue 34, point 3), on the simulated clock:
a pause lets the round or coup in play finish and opens no new one, its players told;
a resume plays on; a close stops the table after its round (a players' table's chips
back in the wallets); limits and timings are taken from the next round."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from datetime import UTC, datetime
from functools import partial
from typing import Any

from tests.support.clock import settle
from tests.support.tables import Tables, act, house_table, players_table
from tests.support.tables import state_where as latest_state_where
from tests.test_table_clock import bet, opened

from baccara.db.books import HOUSE as HOUSE_ACCOUNT
from baccara.db.books import account_ids
from baccara.db.people import player_rounds
from baccara.db.schema import users
from baccara.server.tables.base import TableSetup
from baccara.server.tables.game import PlayersTiming
from baccara.server.tables.house import Timing
from baccara.server.wire import protocol as P
from baccara.skill.game_rules import Seating
from baccara.skill.records import table_coups

HOUSE = Timing(bet_seconds=15, card_seconds=0.7, result_seconds=4)
PLAYERS = PlayersTiming(decision_seconds=20, seed_seconds=8, result_seconds=3, bot_seconds=1)
SIT = P.SitMessage(type="sit", buy_in=20_000)
PAUSED = "paused by the house"
state_where = partial(latest_state_where, first=True)


def run(test: Callable[[], Coroutine[Any, Any, None]]) -> None:
    asyncio.run(test())


def test_a_paused_house_table_finishes_its_round_and_opens_no_other_until_resumed() -> None:
    async def test() -> None:
        async with house_table(timing=HOUSE) as tables:
            ann = await tables.join("ann")
            await tables.start()
            round_id = await opened(tables)
            assert (await ann.send(bet(round_id, "b1")) or {}).get("type") == "bet_ack"
            tables.runner.pause(PAUSED)
            (told,) = ann.of("house_pause")
            assert told["reason"] == PAUSED and told["table"] == "t1"
            await tables.clock.run_until(lambda: bool(ann.of("payout")))  # the round ends
            assert ann.of("result")[0]["round"] == round_id
            await tables.clock.advance(600)
            assert len(ann.of("round_open")) == 1  # no new round in ten minutes
            snapshot = await tables.runner.state(ann.user)
            assert snapshot.house_paused == PAUSED
            assert tables.runner.summary().house_paused == PAUSED
            late = await ann.send(bet(round_id, "b2"))
            assert late is not None and late["code"] == "betting_closed"
            tables.runner.pause(None)
            assert ann.of("house_pause")[-1]["reason"] is None
            await tables.clock.run_until(lambda: len(ann.of("round_open")) == 2, limit=60)
            assert (await tables.runner.state(None)).house_paused is None

    run(test)


def test_a_house_table_takes_new_limits_and_timings_from_its_next_round() -> None:
    async def test() -> None:
        async with house_table(timing=HOUSE) as tables:
            ann = await tables.join("ann")
            await tables.start()
            first = await opened(tables)
            tables.runner.configure(TableSetup(minimum=2_000, maximum=3_000, bet_seconds=5))
            ok = await ann.send(bet(first, "b1", amount=1_000))  # the round in play: as it was
            assert ok is not None and ok["type"] == "bet_ack", ok
            assert ann.of("round_open")[0]["seconds"] == 15
            await tables.clock.run_until(lambda: len(ann.of("round_open")) == 2)
            second = ann.of("round_open")[1]
            assert second["seconds"] == 5 and second["closes_at"] - second["time"] == 5
            low = await ann.send(bet(second["round"], "b2", amount=1_000))
            assert low is not None and low["code"] == "under_limit", low
            high = await ann.send(bet(second["round"], "b3", amount=3_500))
            assert high is not None and high["code"] == "over_limit", high
            ok = await ann.send(bet(second["round"], "b4", amount=2_500))
            assert ok is not None and ok["type"] == "bet_ack", ok
            spots = {s.kind: (s.min, s.max) for s in tables.runner.summary().bets}
            assert spots["banker"] == spots["player"] == (2_000, 3_000)
            assert spots["tie"] == (100, 50_000)  # the tie's own limits stay
            tables.runner.configure(TableSetup(minimum=900_000))  # over the maximum: refused
            await tables.clock.run_until(lambda: len(ann.of("round_open")) == 3)
            spots = {s.kind: (s.min, s.max) for s in tables.runner.summary().bets}
            assert spots["banker"] == (1_000, 500_000)  # the configuration's, not a crash

    run(test)


def test_a_closed_house_table_stops_after_its_round() -> None:
    async def test() -> None:
        async with house_table(timing=HOUSE) as tables:
            ann = await tables.join("ann")
            await tables.start()
            round_id = await opened(tables)
            await ann.send(bet(round_id, "b1"))
            tables.runner.close()
            assert tables.task is not None
            await tables.clock.run_until(lambda: tables.task is not None and tables.task.done())
            assert ann.of("payout")[0]["round"] == round_id  # settled before it stopped
            assert len(ann.of("round_open")) == 1
            assert tables.ledger.unfinished_rounds("t1") == []

    run(test)


async def _seated(tables: Tables, *names: str) -> list[Any]:
    seats = [await tables.join(name) for name in names]
    await tables.start()
    for seat in seats:
        assert await seat.send(SIT) is None
    return seats


def test_a_paused_players_table_waits_between_coups_and_refuses_a_new_one() -> None:
    async def test() -> None:
        async with players_table("chemin-de-fer", timing=PLAYERS) as tables:
            ann, _bob = await _seated(tables, "ann", "bob")
            bank = await state_where(tables, ann, lambda m: m["to_act"] == "ann")
            assert not tables.runner.coup_in_play()  # the bank's question: between coups
            tables.runner.pause(PAUSED)
            await tables.clock.advance(0)
            held = await latest_state_where(tables, ann, lambda m: m["house_paused"] == PAUSED)
            assert held["deadline"] is None
            await tables.clock.advance(600)  # no clock runs out: the house decides nothing
            assert tables.runner.decisions == bank["decision"]
            refused = await ann.send(act(bank, "open_bank", amount=5_000))
            assert refused is not None and refused["code"] == "house_paused", refused
            tables.runner.pause(None)
            await tables.clock.advance(0)
            again = await latest_state_where(tables, ann, lambda m: m["house_paused"] is None)
            assert again["deadline"] == again["time"] + 20  # a whole clock
            assert await ann.send(act(again, "open_bank", amount=5_000)) is None
            assert tables.runner.decisions == bank["decision"] + 1

    run(test)


def test_a_paused_players_table_finishes_the_coup_in_play() -> None:
    async def test() -> None:
        async with players_table("chemin-de-fer", timing=PLAYERS) as tables:
            ann, bob = await _seated(tables, "ann", "bob")
            bank = await state_where(tables, ann, lambda m: m["to_act"] == "ann")
            assert await ann.send(act(bank, "open_bank", amount=5_000)) is None
            assert tables.runner.coup_in_play()  # the bank is on the felt: stakes come
            tables.runner.pause(PAUSED)
            coups = len(tables.runner.view().history)
            stake = await latest_state_where(tables, bob, lambda m: m["to_act"] == "bob")
            assert await bob.send(act(stake, "banco")) is None  # the coup in play goes on
            await tables.clock.run_until(lambda: not tables.runner.coup_in_play(), limit=120)
            assert len(tables.runner.view().history) == coups + 1  # the coup was played out
            decided = tables.runner.decisions
            await tables.clock.advance(600)
            assert tables.runner.decisions == decided  # and none after it

    run(test)


def test_a_closed_players_table_gives_the_chips_back_and_stops() -> None:
    async def test() -> None:
        async with players_table("chemin-de-fer", timing=PLAYERS) as tables:
            ann, _bob = await _seated(tables, "ann", "bob")
            await state_where(tables, ann, lambda m: m["to_act"] == "ann")
            assert tables.balance("ann") == tables.balance("bob") == 80_000
            tables.runner.close()
            assert tables.task is not None
            await tables.clock.run_until(lambda: tables.task is not None and tables.task.done())
            assert tables.balance("ann") == tables.balance("bob") == 100_000
            last = ann.of("chemin")[-1]
            assert last["players"] == [] and any("closed" in line for line in last["news"])

    run(test)


def test_a_sit_racing_a_close_is_refused_and_leaves_no_chips_at_the_table() -> None:
    async def test() -> None:
        async with players_table("chemin-de-fer", timing=PLAYERS) as tables:
            await _seated(tables, "ann", "bob")
            carl = await tables.join("carl")
            runner = tables.runner
            write = runner.db_write
            sits: list[asyncio.Task[dict[str, Any] | None]] = []

            async def write_with_a_sit(fn: Any, /, *args: Any, **kwargs: Any) -> Any:
                if not sits and getattr(fn, "func", None) == runner.chips.cash_out:
                    sits.append(asyncio.create_task(carl.send(SIT)))  # as the close cashes out
                    await settle()
                return await write(fn, *args, **kwargs)

            runner.db_write = write_with_a_sit
            runner.close()
            assert tables.task is not None
            await tables.clock.run_until(lambda: tables.task is not None and tables.task.done())
            (sit,) = sits
            refused = await sit
            assert refused is not None and refused["code"] == "table_closed", refused
            assert runner.chips.holders() == []
            assert [tables.balance(name) for name in ("ann", "bob", "carl")] == [100_000] * 3

    run(test)


def test_a_paused_house_table_handed_over_stops_at_once() -> None:
    async def test() -> None:
        async with house_table(timing=HOUSE) as tables:
            await tables.start()
            tables.runner.pause(PAUSED)
            await tables.clock.run_until(lambda: tables.runner.holding, limit=60)
            tables.runner.hand_over()
            await tables.clock.advance(1)
            assert tables.task is not None and tables.task.done()  # not the held look's 30 s

    run(test)


def _close_after_a_crash(tables: Tables) -> None:
    """The table's process died while closing it: the next runner is told it is closed
    before it starts (as the hall tells a closed table that still holds money)."""
    tables.runner = tables.make()
    tables.runner.close()


def test_a_house_table_closed_by_a_crash_mid_round_refunds_the_round_and_retires_its_shoe() -> None:
    async def test() -> None:
        async with house_table(timing=HOUSE) as tables:
            ann = await tables.join("ann")
            await tables.start()
            round_id = await opened(tables)
            assert (await ann.send(bet(round_id, "b1", amount=3_000)) or {})["type"] == "bet_ack"
            assert tables.balance("ann") == 97_000
            await tables.stop()  # the process dies, the close not yet carried out
            _close_after_a_crash(tables)
            await tables.start()
            await tables.clock.run_until(lambda: tables.task is not None and tables.task.done())
            assert tables.ledger.unfinished_rounds("t1") == []
            assert tables.balance("ann") == 100_000  # the open round voided, the bet refunded
            assert tables.runner.shoes.unfinished() is None  # no shoe left in play
            ((shoe_id, _fair),) = tables.runner.shoes.finished()
            assert tables.runner.shoes.retired(shoe_id) == "the house closed the table"

    run(test)


def test_a_players_table_closed_by_a_crash_mid_coup_with_its_players_gone_gives_the_chips_back() -> (
    None
):
    async def test() -> None:
        async with players_table("chemin-de-fer", timing=PLAYERS) as tables:
            ann, *_punters = await _seated(tables, "ann", "bob", "carl", "dan")
            bank = await state_where(tables, ann, lambda m: m["to_act"] == "ann")
            assert await ann.send(act(bank, "open_bank", amount=5_000)) is None
            assert tables.runner.coup_in_play()  # the bank is on the felt
            await tables.stop()  # the process dies mid-coup; nobody comes back (the
            # restart's grace, one clock, runs out on the first punter's decision)
            _close_after_a_crash(tables)
            await tables.start()
            await tables.clock.run_until(
                lambda: tables.task is not None and tables.task.done(), limit=600
            )
            assert tables.runner.chips.holders() == []
            assert tables.runner.shoes.unfinished() is None
            with tables.ledger.database.connect() as conn:
                (house,) = account_ids(conn, [HOUSE_ACCOUNT]).values()
            commission = tables.ledger.balance(house)  # the banker's 5% if the bank won
            assert commission in (0, 250)
            wallets = sum(tables.balance(name) for name in ("ann", "bob", "carl", "dan"))
            assert wallets + commission == 400_000

    run(test)


def test_a_players_shoe_dealt_at_the_houses_minimum_is_resumed_at_that_minimum() -> None:
    """The house set the table's minimum to 20.00 before the shoe was dealt; after a
    restart (the configuration's 10.00 until the house's is read again) the shoe is
    rebuilt with the seating it was sealed with: its record verifies."""

    async def test() -> None:
        async with players_table("chemin-de-fer", timing=PLAYERS, minimum=1_000) as tables:
            tables.runner.configure(TableSetup(minimum=2_000))
            ann, _bob = await _seated(tables, "ann", "bob")
            await state_where(tables, ann, lambda m: m["to_act"] == "ann")
            assert tables.runner.table.minimum == 2_000
            sealed = tables.runner.fair.client_seeds[-1]
            await tables.restart()
            table = tables.runner.table
            assert table is not None and table.minimum == 2_000
            assert Seating.of(table).seal() == sealed

    run(test)


def test_a_players_shoe_is_replayed_for_the_house_with_the_cards_its_coups_were_dealt() -> None:
    """The console's replay of a players' shoe (`baccara.db.people.player_rounds`) deals
    it again from what the database holds, seeds, seating and decisions: its coups are
    those the table played, card for card."""

    async def test() -> None:
        async with players_table("chemin-de-fer", timing=PLAYERS, bots=2) as tables:
            await _seated(tables, "ann")  # at the table: the clock decides for her
            await tables.clock.run_until(
                lambda: (
                    tables.runner.table is not None and len(table_coups(tables.runner.table)) >= 1
                ),
                limit=3_600,
            )
            played = [coup.to_json() for coup in table_coups(tables.runner.table)]
            with tables.ledger.database.begin() as conn:  # a bot's account, as if registered
                conn.execute(users.insert().values(
                    name="bot 1", name_key="bot 1", password_hash="x", created_at=datetime.now(UTC)
                ))  # fmt: skip
            (shoe,) = [
                r for r in player_rounds(tables.ledger.database, "bot 1") if r.kind == "players"
            ]
            assert shoe.coups is not None and shoe.coups[: len(played)] == played

    run(test)
