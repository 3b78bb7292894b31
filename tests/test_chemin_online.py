"""Chemin de Fer online: three players at a real server (in the test's process), the money on the ledger.

Every player follows a simple script when the table says it is their turn: the banker
sets a bank of 50.00 and passes it after a win, the first punter calls banco, the
punter stands on 5, the banker stands in a free cell. One player goes silent for a
while, so the clock takes the house's rule for him. The ledger's invariants hold, no
money appears or disappears, and bad input changes nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families
from tests.support.harness import Player, act
from tests.support.inprocess import ServerThread

from baccara import rules
from baccara.cards import parse_cards
from baccara.db.books import HOUSE
from baccara.db.chips import POT, Chips
from baccara.db.ledger import Ledger, wallet_account
from baccara.db.shoes import ShoeBook
from baccara.fair import FairShoe
from baccara.server.app import ServerConfig
from baccara.server.infra.services import TableServices
from baccara.server.infra.writer import BetBatcher
from baccara.server.tables.chemin import CheminGame
from baccara.server.tables.players import PlayersRunner, PlayersTiming, money_state
from baccara.server.wire import protocol as P
from baccara.shoe import Shoe, ShoeSettings
from baccara.skill.actions import Act, Action
from baccara.skill.chemin import CheminTable
from baccara.skill.chemin_events import Phase
from baccara.skill.replay import verify
from baccara.variants import find_variant

WELCOME = 100_000
BUY_IN = 20_000


@pytest.fixture
def server(tmp_path: Path, database_url: str) -> Iterator[ServerThread]:
    config = ServerConfig(
        database_url=database_url,
        tables=("c1=chemin-de-fer",),
        decks=1,
        welcome=WELCOME,
        decision_seconds=1.5,
        seed_seconds=1.0,
        result_seconds=0.05,
    )
    with ServerThread(config, log=tmp_path / "server.log") as process:
        yield process


def _choose(state: dict[str, Any], me: str, silent: bool) -> dict[str, Any] | None:
    """The script: what ``me`` sends when the table waits for them."""
    if me in state["away"] and not silent:  # the clock ran out on him twice: he is back
        return {"type": "sit_out", "out": False}
    if state["to_act"] != me or silent:
        return None
    choices = state["choices"]
    if "open_bank" in choices:
        return act(state, "open_bank", amount=5_000)
    if "keep_bank" in choices:
        return act(state, "pass_bank")
    if "banco" in choices:
        return act(state, "banco")
    if "stake" in choices:  # the bank is more than his chips: he passes
        return act(state, "stake", amount=0)
    if "draw" in choices:
        return act(state, "stand")
    if "banker_draw" in choices:
        return act(state, "banker_stand")
    return None


async def _as_punter(player: Player, state: dict[str, Any], message: dict[str, Any]) -> Any:
    """The script's stand, or the draw the tableau binds him to: the public state offers
    the punter both on every total; his own ``chemin_hand``, sent right after the state,
    says which he may."""
    if message["action"] != "stand":
        return message
    hand = await _hand_after(player, state)
    assert hand["choices"] in (["draw"], ["draw", "stand"], ["stand"]), hand
    return act(hand, "stand" if "stand" in hand["choices"] else "draw")


async def _hand_after(player: Player, state: dict[str, Any]) -> dict[str, Any]:
    """The ``chemin_hand`` sent right after ``state``, whether ``player`` has read it
    already (the state was read from his own socket) or not."""
    if not any(m["type"] == "chemin" and m["seq"] == state["seq"] for m in player.inbox):
        await player.expect(lambda m: m["type"] == "chemin" and m["seq"] >= state["seq"])
    start = min(
        i for i, m in enumerate(player.inbox) if m["type"] == "chemin" and m["seq"] >= state["seq"]
    )
    for later in player.inbox[start + 1 :]:
        if later["type"] == "chemin":
            break  # the hands follow their state
        if later["type"] == "chemin_hand":
            return later
    return await player.expect(lambda m: m["type"] == "chemin_hand")


def test_three_players_a_shoe_of_chemin_de_fer(server: ServerThread) -> None:
    names = ("cdf_ann", "cdf_bob", "cdf_cy")
    players = {name: Player(server, name) for name in names}

    async def scenario() -> dict[str, Any]:
        try:
            return await play()
        finally:  # a failure leaves no socket open for the next test to trip on
            for player in players.values():
                with contextlib.suppress(Exception):
                    await player.close()

    async def play() -> dict[str, Any]:
        for player in players.values():
            await player.register()
            joined = await player.join("c1", first="chemin")
        # bad input first: nothing changes
        ann = players["cdf_ann"]
        await ann.send(act(joined, "banco"))
        refused = await ann.expect(lambda m: m["type"] == "error")
        assert refused["code"] == "not_your_turn"
        await ann.send({"type": "sit", "buy_in": WELCOME * 10})
        assert (await ann.expect(lambda m: m["type"] == "error"))["code"] == "insufficient_funds"
        await ann.send({"type": "bet", "bet_id": "x", "kind": "banker", "amount": 1000})
        assert (await ann.expect(lambda m: m["type"] == "error"))["code"] == "wrong_table"
        for player in players.values():
            await player.send({"type": "sit", "buy_in": BUY_IN})
        for name, player in players.items():
            await player.expect(lambda m, n=name: m["type"] == "chemin" and n in m["players"])
        shuffle = await ann.expect(lambda m: m["type"] == "chemin" and m["phase"] == "shuffle")
        assert shuffle["fair"]["server_seed_hash"]
        await ann.send({"type": "seed", "seed": "caf\u00e9"})  # not printable ASCII
        assert (await ann.expect(lambda m: m["type"] == "error"))["code"] == "bad_seed"
        for name, player in players.items():
            await player.send({"type": "seed", "seed": f"seed of {name}"})
        seen: list[dict[str, Any]] = []
        silent_until = 0.0
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 120
        bankers: set[str] = set()
        record: dict[str, Any] | None = None
        while loop.time() < deadline and record is None:
            state = await ann.expect(lambda m: m["type"] in ("chemin", "shoe_end"), 30)
            if state["type"] == "shoe_end":
                record = state["record"]
                break
            seen.append(state)
            if state["banker"]:
                bankers.add(state["banker"])
            for name, player in players.items():
                silent = name == "cdf_cy" and loop.time() < silent_until
                message = _choose(state, name, silent)
                if message is not None and message["type"] == "act":
                    await player.send(await _as_punter(player, state, message))
                elif message is not None:
                    await player.send(message)
            if len(seen) == 10:
                silent_until = loop.time() + 4  # cy says nothing for a while
        return {"seen": seen, "bankers": bankers, "record": record}

    got = asyncio.run(asyncio.wait_for(scenario(), 150))
    lobby = httpx.get(f"{server.url}/api/tables").json()
    assert [(t["id"], t["game"], t["seated"], t["roads"]) for t in lobby] == [
        ("c1", "chemin-de-fer", 3, None)
    ]
    news = " ".join(" ".join(state["news"]) for state in got["seen"])
    assert "Banco" in news, news[-2000:]
    assert len(got["bankers"]) >= 2, "the bank never passed"
    # each settled coup stays on the felt with its totals (the page shows the result)
    lasts = [s["last"] for s in got["seen"] if s["last"]]
    assert lasts and all(0 <= c["punter_total"] <= 9 and c["result"] in "PBT" for c in lasts)
    # the hand history: the shoe's coups with their decisions, as the record has them
    last = got["seen"][-1]["history"]
    assert last and all(
        {"cards", "banker", "stakes", "decisions", "result"} <= set(c) for c in last
    )
    # the whole shoe's record, every decision in it, checks out
    record = got["record"]
    assert record is not None and record["version"] == 3
    seeds = ["seed of cdf_ann", "seed of cdf_bob", "seed of cdf_cy"]
    assert record["client_seeds"][:-1] == seeds  # and the seating's seal
    assert [seat["name"] for seat in record["seats"]] == ["cdf_ann", "cdf_bob", "cdf_cy"]
    result = verify(record)
    assert result.ok, result.problems
    assert result.coups_checked == len(record["coups"]) > 3
    # the same record, rebuilt from the database, is what players download
    assert httpx.get(f"{server.url}/api/tables/c1/shoes").json()[0] == record
    book = Ledger.connect(server.config.database_url)
    try:
        assert book.check_invariants() == []
        names = ("cdf_ann", "cdf_bob", "cdf_cy")
        wallets = sum(book.balance(book.create_account(wallet_account(n))) for n in names)
        stacks = Chips(book, "c1").stacks(names)
        house = book.balance(book.create_account(HOUSE))
        assert wallets + sum(stacks.values()) + house == WELCOME * 3
        assert house >= 0
    finally:
        book.database.dispose()


def test_one_person_and_two_bots_play_a_whole_shoe(tmp_path: Path) -> None:
    """``bots``: the empty seats play the solver's equilibrium, so one person can play;
    at a free choice the state carries teaching mode's advice."""
    config = ServerConfig(
        database_url=f"sqlite:///{tmp_path / 'bots.db'}",
        tables=("c1=chemin-de-fer",),
        decks=1,
        bots=2,
        decision_seconds=1.0,
        seed_seconds=0.5,
        result_seconds=0.02,
        bot_seconds=0.01,
    )

    async def scenario(process: ServerThread) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        solo = Player(process, "solo_sam")
        try:
            return await play(solo)
        finally:
            with contextlib.suppress(Exception):
                await solo.close()

    hands: list[dict[str, Any]] = []

    async def play(solo: Player) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        await solo.register()
        first = await solo.join("c1", first="chemin")
        assert first["players"] == ["bot 1", "bot 2"]  # names no player can register
        await solo.send({"type": "sit", "buy_in": 30_000})
        states: list[dict[str, Any]] = []
        while True:
            state = await solo.expect(lambda m: m["type"] in ("chemin", "shoe_end"), 60)
            if state["type"] == "shoe_end":
                hands.extend(m for m in solo.inbox if m["type"] == "chemin_hand")
                return states, state["record"]
            states.append(state)
            message = _choose(state, "solo_sam", silent=False)
            if message is not None:
                await solo.send(await _as_punter(solo, state, message))

    with ServerThread(config, log=tmp_path / "server.log") as process:
        states, record = asyncio.run(asyncio.wait_for(scenario(process), 150))
        figures = httpx.get(f"{process.url}/metrics").text
    settled = sum(
        sample.value
        for family in text_string_to_metric_families(figures)
        for sample in family.samples
        if sample.name == "baccara_rounds_total"
        and sample.labels
        == {"kind": "chemin-de-fer", "variant": "chemin-de-fer", "ended": "settled"}
    )
    assert settled >= len(record["coups"]) > 0  # the shoe's coups counted (the next may begin)
    # whenever the solo player held a hand at a free choice, the cards came privately
    held = [s for s in states if s["phase"] in ("punter", "banker")]
    held = [s for s in held if "solo_sam" in (s["punter"], s["banker"])]
    assert bool(hands) == bool(held)
    assert {"bot 1", "bot 2", "solo_sam"} <= {s["to_act"] for s in states if s["to_act"]}
    advised = [m["advice"] for m in hands if m["advice"]]
    assert all("equilibrium" in text or "The tableau binds" in text for text in advised)
    # the first two cards of each hand are his alone: the state shows only face-up ones
    assert all(len(s["punter_cards"]) <= 1 and len(s["banker_cards"]) <= 1 for s in states)
    assert all(2 <= len(m["cards"]) <= 3 and 0 <= m["total"] <= 9 for m in hands)
    result = verify(record)
    assert result.ok, result.problems
    book = Ledger.connect(config.database_url)
    try:
        assert book.check_invariants() == []
    finally:
        book.database.dispose()


def test_players_named_like_the_pot_or_the_house_keep_their_own_money(tmp_path: Path) -> None:
    """A player may be called "pot" or "house": the table's own money keys are not names
    (a decision's money once went to the wrong account for such a player)."""
    book = Ledger.connect(f"sqlite:///{tmp_path / 'names.db'}")
    try:
        for name in ("pot", "house"):
            account = book.create_account(wallet_account(name))
            book.deposit(account, 50_000, ref=f"welcome:{name}")
            Chips(book, "c1").buy_in(name, 20_000)
        shoe = Shoe.stacked(parse_cards("2h 5s 3d Qc 9c 4d") * 9)
        table = CheminTable(names=("pot", "house"), bankrolls=(20_000, 20_000), shoe=shoe)
        chips = Chips(book, "c1")
        shoe_id = ShoeBook(book, "c1").add(FairShoe.new(table.variant, shoe.settings))
        before = money_state(table, table.bank + table.covered)
        action = table.default_action()
        table.apply(Action(act=Act.OPEN_BANK, seat=0, amount=5_000))
        after = money_state(table, table.bank + table.covered)
        moves = {k: after[k] - before[k] for k in after if after[k] != before[k]}
        chips.record(shoe_id, 0, Action(act=Act.OPEN_BANK, seat=0, amount=5_000), False, moves)
        assert action is not None
        assert chips.stacks(["pot", "house"]) == {"pot": 15_000, "house": 20_000, POT: 5_000}
        assert book.check_invariants() == []
    finally:
        book.database.dispose()


def _runner() -> PlayersRunner[CheminTable, Phase]:
    """A Chemin de Fer table of the server, not started: its views of an engine set by hand."""
    ledger = Ledger.connect("sqlite://")
    return PlayersRunner(
        game=CheminGame,
        table_id="c1",
        variant=find_variant("chemin-de-fer"),
        services=TableServices(
            ledger=ledger, executor=ThreadPoolExecutor(1), batcher=BetBatcher(ledger)
        ),
        timing=PlayersTiming(),
    )


def test_the_public_state_does_not_tell_the_punter_s_total() -> None:
    """Issue 23, finding 7: the table stopped at "punter to act" only when the punter's
    hidden total was 5, so the banker knew it before his own free decision. Now the punter
    of every coup without a natural is asked: the public state is the same on 4 as on 5;
    the punter's own message says what he may do (the tableau's rule in a bound cell)."""
    runner = _runner()
    public: dict[int, set[tuple[object, ...]]] = {}  # what all saw, by the punter's total
    hands: dict[int, list[P.CheminHand]] = {}
    for seed in range(80):
        shoe = Shoe.shuffled(ShoeSettings(decks=6), seed=seed)
        shoe.burn()
        table = runner.new_engine(["ann", "bob"], [500_000, 500_000], shoe, runner.new_fair().rules)
        runner.table = table
        table.apply(Action(act=Act.OPEN_BANK, seat=0, amount=1_000))
        table.apply(Action(act=Act.BANCO, seat=1))
        if rules.is_natural(table.punter_total) or rules.is_natural(table.banker_total):
            continue
        view = runner.view()
        seen = (view.phase, tuple(view.choices), tuple(view.labels.items()), view.to_act)
        public.setdefault(table.punter_total, set()).add((*seen, view.deadline))
        if table.phase is Phase.PUNTER:
            hand = runner.hands()["bob"]
            assert isinstance(hand, P.CheminHand)
            hands.setdefault(table.punter_total, []).append(hand)
            # a bot in his seat is asked the same way (the same thinking time before it
            # answers, `PlayersRunner.step`) and answers as the tableau lets him
            runner.seats.bots = ["bob"]
            bot = runner.bot_action(table)
            runner.seats.bots = []
            assert bot is not None and bot.act.value in (hand.choices or ())
    phases = {total: {seen[0] for seen in states} for total, states in public.items()}
    assert phases == {total: {"punter"} for total in range(8)}  # was "punter" only on 5
    assert len(set().union(*public.values())) == 1, public  # one public state for every total
    private = {total: {tuple(h.choices or ()) for h in got} for total, got in hands.items()}
    assert private == {
        **{total: {("draw",)} for total in range(5)},
        5: {("draw", "stand")},
        **{total: {("stand",)} for total in (6, 7)},
    }
