"""A house table on the clock it is given (issue 24): the betting window, the deal card
by card, the result's pause, the squeeze and a seat's grace, run in process on a
simulated clock (`tests.support.tables`), to the second and without waiting."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

from tests.support.tables import Tables, house_table

from baccara.bets import BetKind, bets_for, payout, settle
from baccara.coup import Coup
from baccara.server.tables.house import Timing
from baccara.server.wire import protocol as P

TIMING = Timing(bet_seconds=15, card_seconds=0.7, result_seconds=4, squeeze_seconds=8)


def run(test: Callable[[], Coroutine[Any, Any, None]]) -> None:
    asyncio.run(test())


def bet(
    round_id: int | None, bet_id: str, kind: str = "banker", amount: int = 1_000
) -> P.BetMessage:
    return P.BetMessage(type="bet", bet_id=bet_id, kind=kind, amount=amount, round=round_id)


async def opened(tables: Tables) -> int:
    """Wait (on the simulated clock) for betting to open; the round's id."""
    await tables.clock.run_until(lambda: tables.runner.phase == "betting")
    assert tables.runner.round.id is not None
    return int(tables.runner.round.id)


def test_a_round_keeps_the_clock_it_is_given() -> None:
    """Bets are taken until the window's last instant and refused after it; the cards
    come ``card_seconds`` apart, and the next round opens ``result_seconds`` after the
    result; every event carries the clock's time."""

    async def test() -> None:
        async with house_table(timing=TIMING) as tables:
            ann = await tables.join("ann", 100_000)
            await tables.start()
            round_id = await opened(tables)
            start = tables.clock.now()
            (open_event,) = ann.of("round_open")
            assert open_event["closes_at"] == start + 15 and open_event["time"] == start
            await tables.clock.advance(14.9)
            ack = await ann.send(bet(round_id, "b1"))
            assert ack is not None and ack["type"] == "bet_ack", ack
            await tables.clock.advance(0.1)  # the window closes: 15 s after it opened
            late = await ann.send(bet(round_id, "b2"))
            assert late is not None and late["code"] == "betting_closed"
            (closed,) = ann.of("no_more_bets")
            assert closed["time"] == start + 15
            await tables.clock.run_until(lambda: bool(ann.of("result")))
            cards = [m["time"] - start for m in ann.of("card")]
            assert cards[0] == 15 and all(
                abs(b - a - 0.7) < 1e-6 for a, b in itertools.pairwise(cards)
            ), cards
            (result,) = ann.of("result")
            (payout,) = ann.of("payout")
            assert payout["staked"] == 1_000 and tables.balance("ann") == payout["balance"]
            assert payout["balance"] == 100_000 - 1_000 + payout["returned"]
            await tables.clock.run_until(lambda: len(ann.of("round_open")) == 2)
            assert ann.of("round_open")[1]["time"] - result["time"] == 4  # the result's pause

    run(test)


def test_parallel_connections_cannot_pass_a_limit(tmp_path: Path) -> None:
    """One player on three connections sends 300.00 on Tie from each at once, against a
    500.00 maximum, the three bets in flight together on the server's writer thread
    (each passed the table's own check before any was placed): the limit holds where
    the player's bets are serialised, in the ledger's bet transaction, so one bet is
    placed and two are refused. The window stays open while they are written: the
    clock moves only when the test moves it."""

    async def test() -> None:
        database = f"sqlite:///{tmp_path / 'tie.db'}"
        async with house_table(timing=TIMING, bet_thread=True, database_url=database) as tables:
            tabs = [await tables.join("tom") for _ in range(3)]
            await tables.start()
            round_id = await opened(tables)
            sent = (
                tab.send(bet(round_id, f"tie-{n}", "tie", 30_000)) for n, tab in enumerate(tabs)
            )
            answers = [answer for answer in await asyncio.gather(*sent) if answer is not None]
            assert sorted(a["type"] for a in answers) == ["bet_ack", "error", "error"], answers
            refused = [a for a in answers if a["type"] == "error"]
            assert all(a["code"] == "over_limit" for a in refused), refused
            # the ledger's words: the bet placed on the same spot counted, by the database
            assert all(a["message"].endswith("with 300.00 on it") for a in refused), refused
            assert tables.balance("tom") == 100_000 - 30_000
            await tables.clock.run_until(lambda: bool(tabs[0].of("payout")))
            assert tables.balance("tom") in (100_000 - 30_000, 100_000 - 30_000 + 30_000 * 9)

    run(test)


def test_a_seat_is_kept_for_its_grace_then_freed() -> None:
    """A seated player whose page has gone keeps the seat ``seat_grace_seconds`` (with no
    bet in the round), then it is freed with a ``seat`` event saying so."""
    timing = Timing(bet_seconds=15, seat_grace_seconds=60)

    async def test() -> None:
        async with house_table(timing=timing) as tables:
            ann = await tables.join("ann")
            bob = await tables.join("bob")
            await tables.start()
            await opened(tables)
            assert tables.runner.table.seat_of("ann") is not None
            ann.leave()
            gone = tables.clock.now()
            await tables.clock.advance(1)  # seen gone at the next look (every layout_seconds)
            freed = await tables.clock.run_until(
                lambda: any(m.get("left") for m in bob.of("seat")), step=0.5
            )
            assert tables.runner.table.seat_of("ann") is None
            (left,) = [m for m in bob.of("seat") if m.get("left")]
            assert left["player"] == "ann"
            assert 60 <= left["time"] - gone <= 60 + 15 + 0.7 * 6 + 4 + 1, (
                freed
            )  # the grace, then the next window
            assert tables.runner.table.seat_of("bob") is not None

    run(test)


def test_the_result_says_what_each_spot_paid_and_swept() -> None:
    """The result marks every spot of the layout won (with what it paid), lost or
    pushed, with the table's stakes on it and what came back; each player's payout
    says it bet by bet (the page drew one net figure)."""

    async def test() -> None:
        async with house_table(timing=TIMING) as tables:
            ann = await tables.join("ann", 100_000)
            bob = await tables.join("bob", 100_000)
            await tables.start()
            round_id = await opened(tables)
            for who, bet_id, kind, amount in (
                (ann, "a1", "banker", 1_000),
                (ann, "a2", "tie", 500),
                (bob, "b1", "player", 2_000),
                (bob, "b2", "banker", 3_000),
            ):
                await who.send(bet(round_id, bet_id, kind, amount))
            await tables.clock.run_until(lambda: len(bob.of("payout")) == 1, step=0.5)
            (result,) = ann.of("result")
            coup = Coup.parse(result["coup"])
            spots = result["spots"]
            assert list(spots) == [kind.value for kind in bets_for(tables.runner.variant)]
            for kind, spot in spots.items():
                pay = payout(BetKind(kind), coup)
                assert (spot["outcome"], spot["paid"]) == (pay.outcome.value, pay.paid)
            stakes = {"banker": 4_000, "tie": 500, "player": 2_000}
            assert {k: s["staked"] for k, s in spots.items() if s["staked"]} == stakes
            (mine,) = ann.of("payout")
            for kind, amount in (("banker", 1_000), ("tie", 500)):
                back = settle(BetKind(kind), amount, coup)
                assert mine["bets"][kind] == {"staked": amount, "returned": back.returned}
            assert mine["returned"] == sum(b["returned"] for b in mine["bets"].values())
            banker = spots["banker"]
            assert banker["returned"] == sum(
                settle(BetKind.BANKER, amount, coup).returned for amount in (1_000, 3_000)
            )
            assert (spots[coup.winner.word]["outcome"], spots["player"]["staked"]) == ("win", 2_000)

    run(test)


def test_a_squeeze_goes_hand_by_hand_in_the_house_order() -> None:
    """At a squeeze table the Player's two cards are squeezed and turned, then the
    Banker's, then each third card, each by its hand's biggest bettor for
    ``squeeze_seconds`` or until turned; nobody else may peel them; the values go out
    once the corner is bent, and a hand nobody bet on is turned by the croupier."""

    async def test() -> None:
        async with house_table(timing=TIMING, squeeze=True) as tables:
            ann = await tables.join("ann")
            bob = await tables.join("bob")
            await tables.start()
            round_id = await opened(tables)
            await ann.send(bet(round_id, "a1", "player", 5_000))
            await bob.send(bet(round_id, "b1", "banker", 1_000))
            await tables.clock.run_until(lambda: tables.runner.phase == "squeeze")
            (start,) = ann.of("squeeze")
            assert (start["side"], start["squeezer"], start["first"], start["count"]) == (
                "player",
                "ann",
                0,
                2,
            )
            assert ann.of("card") == []
            refused = await bob.send(P.SqueezeMessage(type="squeeze", side="player", peel=1))
            assert refused is not None and refused["code"] == "not_squeezer"
            early = await bob.send(P.SqueezeMessage(type="squeeze", side="banker", peel=1))
            assert early is not None and early["code"] == "not_squeezing"
            await tables.clock.advance(2)
            assert tables.runner.phase == "squeeze"
            for amount in (0.1, 0.5):
                await ann.send(P.SqueezeMessage(type="squeeze", side="player", peel=amount))
                await tables.clock.advance(0.2)
            low, corner = bob.of("peel")
            assert (low["peel"], low["cards"]) == (0.1, None)  # the corner still down
            await ann.send(P.SqueezeMessage(type="squeeze", side="player", peel=1))
            await tables.clock.advance(0.2)
            first, second = ann.of("card")  # turned: both at once, the squeeze over
            assert (first["side"], second["side"], first["time"]) == ("player",) * 2 + (
                second["time"],
            )
            assert first["time"] - start["time"] < 3
            assert corner["cards"] == [first["card"], second["card"]]
            await tables.clock.run_until(lambda: len(ann.of("squeeze")) == 2)
            banker = ann.of("squeeze")[1]
            assert (banker["side"], banker["squeezer"]) == ("banker", "bob")
            await tables.clock.run_until(lambda: len(ann.of("result")) == 1, step=0.5)
            squeezes, cards = ann.of("squeeze"), ann.of("card")
            third = [c for c in cards if c["card"] and len(c[c["side"]]) == 3]
            assert [(s["side"], s["first"], s["count"]) for s in squeezes] == [
                ("player", 0, 2),
                ("banker", 0, 2),
            ] + [(c["side"], 2, 1) for c in third]
            for squeezed in squeezes[1:]:  # bob never peels: each lasts its 8 s
                turned = next(c for c in cards if c["time"] > squeezed["time"])
                assert turned["time"] - squeezed["time"] >= 8

            await tables.clock.run_until(lambda: len(ann.of("result")) == 2, step=0.5)
            assert len(ann.of("squeeze")) == len(squeezes)  # nobody bet: the croupier's

            # a squeezer who has gone would hold each squeeze up for its whole clock:
            # the hand goes to the next bettor at the table, or to the croupier
            round_id = await opened(tables)
            await ann.send(bet(round_id, "a2", "player", 5_000))
            await bob.send(bet(round_id, "b2", "player", 1_000))
            ann.leave()
            await tables.clock.run_until(lambda: len(bob.of("result")) == 3, step=0.5)
            third_round = [m for m in bob.of("squeeze") if m["round"] == round_id]
            assert third_round and {m["squeezer"] for m in third_round} == {"bob"}
            assert all(m["side"] == "player" for m in third_round)  # the Banker: the croupier's

    run(test)


def test_one_account_gives_a_house_shoe_one_seed() -> None:
    """Issue 23, finding 8: one account sends 32 seeds before the shoe is shuffled: one
    is taken, the rest refused (``seed_given``), and another player's seed still finds a
    place."""

    async def test() -> None:
        async with house_table(timing=TIMING) as tables:
            greedy = await tables.join("greedy")
            modest = await tables.join("modest")
            await tables.start()
            await opened(tables)
            answers = [
                await greedy.send(P.SeedMessage(type="seed", seed=f"mine {n}")) for n in range(32)
            ]
            assert [a and a["type"] for a in answers] == ["seed_ack"] + ["error"] * 31
            assert {a["code"] for a in answers[1:] if a} == {"seed_given"}
            theirs = await modest.send(P.SeedMessage(type="seed", seed="my own"))
            assert theirs is not None and theirs["type"] == "seed_ack"

    run(test)


def test_a_table_nobody_watches_deals_nothing_until_someone_comes() -> None:
    """An hour with nobody at the table: its first betting window waits, nothing more is
    written (before: a round every 20 s or so, for ever). The first to come finds the
    window opening again with its whole clock after the usual pause between rounds;
    once everybody has gone without a bet, it waits again."""
    import sqlalchemy as sa

    from baccara.db.schema import rounds

    def stored(tables: Tables) -> int:
        with tables.ledger.database.connect() as conn:
            return int(conn.execute(sa.select(sa.func.count()).select_from(rounds)).scalar_one())

    async def test() -> None:
        async with house_table(timing=TIMING) as tables:
            await tables.start()
            seq = tables.runner.seq
            for _ in range(60):
                await tables.clock.advance(60)
            assert stored(tables) == 1 and tables.runner.seq == seq
            ann = await tables.join("ann")
            await tables.clock.advance(TIMING.result_seconds)
            opened = ann.last("round_open")
            assert opened is not None and stored(tables) == 1
            assert opened["closes_at"] == tables.clock.now() + TIMING.bet_seconds
            ann.leave()
            seq = tables.runner.seq
            await tables.clock.advance(3_600)
            assert stored(tables) == 1 and tables.runner.seq <= seq + 1

    run(test)


def test_bets_made_while_an_idle_table_wakes_are_shown_at_once() -> None:
    """The first to come to a table nobody was at find its window open (the page says
    "Place your bets") while the table pauses before opening it again with its whole
    clock; bets made in that pause are on everybody's layout within a layout's beat
    (they were shown only when the window opened again: the page test's second player
    waited up to the pause for the first's chips)."""

    async def test() -> None:
        async with house_table(timing=TIMING) as tables:
            await tables.start()
            round_id = await opened(tables)
            await tables.clock.advance(2)  # nobody came yet: the window waits
            ann = await tables.join("ann", 100_000)
            bob = await tables.join("bob", 100_000)
            got = await ann.send(bet(round_id, "a1", "banker"))
            assert got is not None and got["type"] == "bet_ack", got
            assert (await bob.send(bet(round_id, "b1", "player")) or {}).get("type") == "bet_ack"
            await tables.clock.advance(TIMING.layout_seconds)
            assert ann.last("round_open") is None  # still in the pause
            for seen in (ann, bob):
                layout = seen.last("bets")
                assert layout is not None and layout["players"] == {
                    "ann": {"banker": 1_000},
                    "bob": {"player": 1_000},
                }

    run(test)


def test_the_edges_and_the_history_count_the_same_coups_at_every_moment() -> None:
    """The edges of the cards left (``/api/tables/{id}/edges``) and the table's history
    (``/api/tables/{id}``) read at one moment count the same coups, through the deal
    card by card and a settlement the database takes a second to store: a coup counts
    in the edges when its result is out, never before (a page that joined then showed
    the edges of a coup its history did not have yet)."""
    from baccara.exact.odds import full_shoe

    timing = Timing(bet_seconds=1, card_seconds=0.5, result_seconds=1)

    async def test() -> None:
        async with house_table(timing=timing, write_seconds=1) as tables:
            await tables.join("ann")
            await tables.start()
            moments = {"dealt": 0, "storing": 0}
            while len(tables.runner.history) < 3:
                await tables.clock.advance(0.1)
                runner = tables.runner
                if runner.phase == "dealing" and runner.round.revealed:
                    moments["dealt" if runner.table.current else "storing"] += 1
                edges = await runner.edges()
                history = (await runner.state(None)).history
                left = list(full_shoe(8))
                for result in history:
                    for hand in str(result["coup"]).split():
                        for card in hand[2:].split(","):
                            left["TA23456789".index(card[0]) if card[0] in "TA23456789" else 0] -= 1
                assert (edges.coups, edges.left) == (len(history), sum(left)), (
                    runner.phase,
                    edges,
                    history,
                )
            # the test went through both moments where the two could part
            assert moments["dealt"] > 0 and moments["storing"] > 0, moments

    run(test)
