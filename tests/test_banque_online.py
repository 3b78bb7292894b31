"""Baccarat Banque online: players at a real server (in the test's process), the bank auctioned, the money
on the ledger.

The script: at each auction two players raise in steps of 10.00 up to their limits (so
the one with the higher limit takes the bank, the other having seen every bid and
raised); punters stake half of what the bank leaves open, on the left or the right
tableau; a punter stands on 5, the banker stands; the first banker retires as soon as he
may, so the bank goes to auction again. One player says nothing at his first stake and
the clock sits him out. The ledger's
invariants hold, no money appears or disappears, bad input (a bid out of the shoe, under
the least or the best, over the chips; a retire by a punter; a bad tableau; a stake over
the bank) changes nothing, and the shoe's record verifies with every decision.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.support.harness import Player, act
from tests.support.inprocess import ServerThread

from baccara import rules
from baccara.db.books import HOUSE
from baccara.db.chips import Chips
from baccara.db.ledger import Ledger, wallet_account
from baccara.server.app import ServerConfig
from baccara.server.infra.services import TableServices
from baccara.server.infra.writer import BetBatcher
from baccara.server.tables.banque import BanqueGame, banque_pot
from baccara.server.tables.players import PlayersRunner, PlayersTiming, money_state
from baccara.server.wire import protocol as P
from baccara.shoe import Shoe, ShoeSettings
from baccara.skill.actions import Act, Action
from baccara.skill.banque import BanqueTable
from baccara.skill.banque_events import Half, Phase
from baccara.skill.bots import banque_bot_action, banque_bot_bid
from baccara.skill.replay import verify
from baccara.variants import find_variant

WELCOME = 100_000
BUY_IN = 30_000
LIMITS = {"bq_ann": 6_000, "bq_bob": 9_000}  # how far each raises at an auction


@pytest.fixture
def server(tmp_path: Path, database_url: str) -> Iterator[ServerThread]:
    config = ServerConfig(
        database_url=database_url,
        tables=("b1=banque",),
        decks=1,
        welcome=WELCOME,
        decision_seconds=1.5,
        seed_seconds=1.0,
        result_seconds=0.05,
    )
    with ServerThread(config, log=tmp_path / "server.log") as process:
        yield process


async def _as_punter(player: Player, state: dict[str, Any], message: dict[str, Any]) -> Any:
    """The script's stand, or the draw the rule binds him to: the public state offers a
    punter both on every total; his own ``banque_hand``, sent right after the state, says
    which he may."""
    if message["action"] != "stand":
        return message
    await player.expect(lambda m: m["type"] == "banque" and m["seq"] >= state["seq"])
    hand = await player.expect(lambda m: m["type"] == "banque_hand")
    assert hand["choices"] in (["draw"], ["draw", "stand"], ["stand"]), hand
    return act(hand, "stand" if "stand" in hand["choices"] else "draw")


def _choose(state: dict[str, Any], me: str, retired: set[str]) -> dict[str, Any] | None:
    """The script: what ``me`` sends now (a banker who retired bids no more)."""
    if state["phase"] == "auction" and me in state["in_shoe"] and me not in retired:
        best = max(state["bids"].values(), default=0)
        if state["bids"].get(me) == best and best:
            return None  # holding the best bid
        amount = state["next_bid"] + 999 if best else state["next_bid"]
        return act(state, "bid", amount=amount) if me in LIMITS and (amount <= LIMITS[me]) else None
    if state["banker"] == me and state["can_retire"] and not retired:  # the first banker
        return act(state, "retire")
    if state["to_act"] != me:
        return None
    choices = state["choices"]
    if "stake" in choices:
        room = state["bank"] - sum(sum(s.values()) for s in state["stakes"].values())
        side = "L" if me != "bq_cy" else "R"
        return act(state, "stake", amount=min(2_000, room // 2), tableau=side)
    if "draw" in choices:
        return act(state, "stand")
    if "banker_draw" in choices:
        return act(state, "banker_stand")
    return None


def test_three_players_a_shoe_of_baccarat_banque(server: ServerThread) -> None:
    names = ("bq_ann", "bq_bob", "bq_cy")
    players = {name: Player(server, name) for name in names}

    async def scenario() -> dict[str, Any]:
        try:
            return await play()
        finally:
            for player in players.values():
                with contextlib.suppress(Exception):
                    await player.close()

    async def play() -> dict[str, Any]:
        for player in players.values():
            await player.register()
            joined = await player.join("b1", first="banque")
        ann, bob = players["bq_ann"], players["bq_bob"]
        await ann.send(act(joined, "bid", amount=5_000))
        assert (await ann.expect(lambda m: m["type"] == "error"))["code"] == "not_your_turn"
        for player in players.values():
            await player.send({"type": "sit", "buy_in": BUY_IN})
        await ann.expect(lambda m: m["type"] == "banque" and m["phase"] == "shuffle")
        for name, player in players.items():
            await player.send({"type": "seed", "seed": f"seed of {name}"})
        auction = await ann.expect(lambda m: m["type"] == "banque" and m["phase"] == "auction")
        assert auction["next_bid"] == 1_000 and auction["bids"] == {}
        # bad input at the auction: a bid under the least, a stake, a retire, a bad tableau
        await bob.send(act(auction, "bid", amount=999))
        refused = await bob.expect(lambda m: m["type"] == "error")
        assert refused["code"] == "not_allowed" and "10.00" in refused["message"]
        await bob.send(act(auction, "retire"))
        assert (await bob.expect(lambda m: m["type"] == "error"))["code"] == "not_allowed"
        await bob.send(act(auction, "stake", amount=100, tableau="Q"))
        assert (await bob.expect(lambda m: m["type"] == "error"))["code"] == "bad_tableau"
        await bob.send(act(auction, "bid", amount=BUY_IN + 1))
        over = await bob.expect(lambda m: m["type"] == "error")
        assert over["code"] == "not_allowed" and "300.00" in over["message"], over
        seen: list[dict[str, Any]] = []
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 150
        retired: set[str] = set()
        sat_out = False
        record: dict[str, Any] | None = None
        checked_low_bid = False
        over_bank: dict[str, Any] | None = None  # a stake over the bank, refused
        state: dict[str, Any] | None = auction  # the bad input changed nothing: bid on it
        while loop.time() < deadline:
            if state is None:
                state = await ann.expect(lambda m: m["type"] in ("banque", "shoe_end"), 30)
            if state["type"] == "shoe_end":
                record = state["record"]
                break
            seen.append(state)
            if state["phase"] == "auction" and state["bids"] and not checked_low_bid:
                best = max(state["bids"].values())
                await players["bq_cy"].send(act(state, "bid", amount=best))
                low = await players["bq_cy"].expect(lambda m: m["type"] == "error")
                assert low["code"] == "not_allowed" and "must beat" in low["message"]
                checked_low_bid = True
            if state["to_act"] and "stake" in state["choices"] and not over_bank:
                punter = players[state["to_act"]]
                over = state["bank"] + 100
                await punter.send(act(state, "stake", amount=over, tableau="L"))
                over_bank = await punter.expect(lambda m: m["type"] == "error")
                assert over_bank["code"] == "not_allowed" and "covers only" in over_bank["message"]
            sat_out = sat_out or any("bq_cy sits out" in line for line in state["news"])
            retired.update(
                line.split()[0] for line in state["news"] if "leaves the bank (retired)" in line
            )
            # the banker speaks first: a retire comes before the stakes
            for name, player in sorted(players.items(), key=lambda p: p[0] != state["banker"]):
                if name == "bq_cy" and not sat_out and state["phase"] == "stakes":
                    continue  # silent at his first stake: the clock sits him out
                message = _choose(state, name, retired)
                if message is not None:
                    await player.send(await _as_punter(player, state, message))
            state = None
        hands = [m for p in players.values() for m in p.inbox if m["type"] == "banque_hand"]
        assert over_bank is not None, "a stake over the bank was never tried"
        return {"seen": seen, "record": record, "hands": hands}

    got = asyncio.run(asyncio.wait_for(scenario(), 180))
    seen, record = got["seen"], got["record"]
    lobby = httpx.get(f"{server.url}/api/tables").json()
    assert [(t["id"], t["game"], t["seated"]) for t in lobby] == [("b1", "banque", 3)]
    news = " ".join(" ".join(state["news"]) for state in seen)
    assert "bq_bob takes the bank for" in news, news[-2000:]  # the higher limit wins
    assert "bq_ann bids" in news and "bq_bob bids" in news  # each saw the other's bid
    assert "retired" in news  # the banker gave the bank up: a new auction
    assert "sits out" in news  # the silent punter, by the clock
    # face down: the public state shows at most the third cards of an unsettled hand
    playing = [s for s in seen if s["phase"] in ("punter", "banker")]
    assert playing and all(
        s["hidden"][k] + len(s["cards"][k]) <= 3 and len(s["cards"][k]) in (0, 1, 2, 3)
        for s in playing
        for k in "LRB"
    )
    assert all(set(m["cards"]) <= {"L", "R", "B"} and m["cards"] for m in got["hands"])
    lasts = [s["last"] for s in seen if s["last"]]
    assert lasts and all(set(c["result"].values()) <= {"P", "B", "T"} for c in lasts)
    assert record is not None and record["version"] == 3
    assert record["client_seeds"][:-1] == [f"seed of {n}" for n in names]  # and the seal
    result = verify(record)
    assert result.ok, result.problems
    assert result.coups_checked == len(record["coups"]) >= 3
    assert httpx.get(f"{server.url}/api/tables/b1/shoes").json()[0] == record
    book = Ledger.connect(server.config.database_url)
    try:
        assert book.check_invariants() == []
        wallets = sum(book.balance(book.create_account(wallet_account(n))) for n in names)
        stacks = Chips(book, "b1").stacks(names)
        house = book.balance(book.create_account(HOUSE))
        assert wallets + sum(stacks.values()) + house == WELCOME * 3
    finally:
        book.database.dispose()


@pytest.mark.parametrize("seed", range(6))
def test_the_money_on_a_banque_table_is_conserved_at_every_decision(seed: int) -> None:
    """The runner mirrors the engine's money to the ledger after each decision: the
    chips, the pot (`banque_pot`) and the house always add up to what was brought, a
    natural settled in the middle of a coup included (it once counted its stakes twice)."""
    rng = random.Random(seed)
    table = BanqueTable(names=("A", "B", "C"), bankrolls=(40_000, 30_000, 20_000), seed=seed)
    total = 90_000
    decisions = 0
    while table.phase is not Phase.OVER and decisions < 400:
        if table.phase is Phase.AUCTION:
            bid = next((a for s in range(3) if (a := banque_bot_bid(table, s, 15_000))), 0)
            if bid:
                seat = next(s for s in range(3) if banque_bot_bid(table, s, 15_000) == bid)
                table.bid(seat, bid)
            else:
                table.close_auction()
        else:
            table.apply(banque_bot_action(table, rng))
        decisions += 1
        assert sum(money_state(table, banque_pot(table)).values()) == total, table.log[-1]
    assert table.phase is Phase.OVER


def test_the_public_state_does_not_tell_a_punter_s_total() -> None:
    """Issue 23, finding 7, at Banque: the table stopped for a tableau's punter only on a
    hidden 5. Now each played tableau's punter is asked whatever his total (the same
    public state on 4 as on 5), his own message saying what he may do."""
    ledger = Ledger.connect("sqlite://")
    runner = PlayersRunner(
        game=BanqueGame,
        table_id="b1",
        variant=find_variant("banque"),
        services=TableServices(
            ledger=ledger, executor=ThreadPoolExecutor(1), batcher=BetBatcher(ledger)
        ),
        timing=PlayersTiming(),
    )
    public: dict[int, set[tuple[object, ...]]] = {}  # what all saw, by the left punter's total
    hands: dict[int, list[P.BanqueHand]] = {}
    for seed in range(100):
        shoe = Shoe.shuffled(ShoeSettings(decks=3, burn=False), seed=seed)
        table = runner.new_engine(
            ["ann", "bob", "cy"], [500_000] * 3, shoe, runner.new_fair().rules
        )
        runner.table = table
        table.apply(Action(act=Act.BID, seat=0, amount=10_000))
        table.apply(Action(act=Act.CLOSE_AUCTION, seat=None))
        table.apply(Action(act=Act.STAKE, seat=1, amount=1_000, tableau="L"))
        table.apply(Action(act=Act.STAKE, seat=2, amount=1_000, tableau="R"))
        left = table.total(Half.LEFT)
        if rules.is_natural(left) or rules.is_natural(table.totals()["B"]):
            continue
        view = runner.view()
        seen = (view.phase, tuple(view.choices), tuple(view.labels.items()), view.to_act)
        public.setdefault(left, set()).add((*seen, view.live, view.deadline))
        if table.phase is Phase.PUNTER:
            hand = runner.hands()["bob"]
            assert isinstance(hand, P.BanqueHand)
            hands.setdefault(left, []).append(hand)
    phases = {total: {seen[0] for seen in states} for total, states in public.items()}
    assert phases == {total: {"punter"} for total in range(8)}  # was "punter" only on 5
    assert len(set().union(*public.values())) == 1, public  # one public state for every total
    private = {total: {tuple(h.choices or ()) for h in got} for total, got in hands.items()}
    assert private == {
        **{total: {("draw",)} for total in range(5)},
        5: {("draw", "stand")},
        **{total: {("stand",)} for total in (6, 7)},
    }
