"""Decisions with identity, and one client seed per account (issue 23, findings 6 and 8).

Every decision at a players' table names the shoe, the coup and the decision it
answers: a repeated one (a double click), a late one (after the clock), a stale one
(the table moved on) is refused with its own error and changes nothing; two leaves at
once are answered, never a server error. At a house table one account gives the shoe
to come one seed, so that no account fills its places alone.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest
from tests.support.harness import Player, ServerProcess, act

from baccara.db.chips import Chips
from baccara.db.ledger import Ledger
from baccara.server.app import ServerConfig

pytestmark = pytest.mark.timeout(180)


def _config(tmp_path: Path, **timing: Any) -> ServerConfig:
    return ServerConfig(
        database_url=f"sqlite:///{tmp_path / 'd.db'}",
        tables=("c1=chemin-de-fer", "b1=banque", "t1=punto-banco"),
        bet_seconds=30.0,
        result_seconds=0.05,
        seed_seconds=0.3,
        bets_per_second=1000,
        bet_burst=1000,
        **timing,
    )


async def _seated(server: ServerProcess, table: str, names: tuple[str, ...]) -> list[Player]:
    kind = "chemin" if table.startswith("c") else "banque"
    players = [Player(server, name) for name in names]
    for player in players:
        await player.register()
        await player.join(table, first=kind)
        await player.send({"type": "sit", "buy_in": 20_000})
    return players


def _state(player: Player, table: str, test: Any) -> Any:
    kind = "chemin" if table.startswith("c") else "banque"
    return player.expect(lambda m: m["type"] == kind and test(m))


def test_a_repeated_decision_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    """A punter's banco sent twice (a double click, a resend): the second is
    ``already_decided``, and the next decision is not touched by it."""

    async def scenario(server: ServerProcess) -> list[dict[str, Any]]:
        ann, bob = await _seated(server, "c1", ("rep_ann", "rep_bob"))
        bank = await _state(ann, "c1", lambda m: m["to_act"] == "rep_ann")
        await ann.send(act(bank, "open_bank", amount=2_000))
        stakes = await _state(bob, "c1", lambda m: m["to_act"] == "rep_bob")
        await bob.send(act(stakes, "banco"))
        await bob.send(act(stakes, "banco"))
        again = await bob.expect(lambda m: m["type"] == "error")
        await _state(bob, "c1", lambda m: m["decision"] > stakes["decision"])
        after = next(
            m for m in bob.inbox if m["type"] == "chemin" and m["decision"] > stakes["decision"]
        )
        for player in (ann, bob):
            await player.close()
        return [stakes, again, after]

    with ServerProcess(_config(tmp_path, decision_seconds=20.0), log=tmp_path / "s.log") as srv:
        stakes, again, after = asyncio.run(scenario(srv))
    assert again["code"] == "already_decided", again
    assert after["decision"] == stakes["decision"] + 1
    book = Ledger.connect(f"sqlite:///{tmp_path / 'd.db'}")
    try:
        shoe = after["shoe"]
        acts = [action.act.value for action, _ in Chips(book, "c1").actions(shoe)]
        assert acts.count("banco") == 1, acts
        assert book.check_invariants() == []
    finally:
        book.engine.dispose()


def test_a_decision_after_its_clock_is_refused(tmp_path: Path) -> None:
    """A Banque bid sent when the auction's clock has run out is refused (``too_late``
    while the house closes the auction, ``stale_decision`` once closed) and bids nothing;
    a bid that names the next decision out of turn is ``bad_decision``."""

    async def scenario(server: ServerProcess) -> dict[str, Any]:
        ann, bob = await _seated(server, "b1", ("late_bq_ann", "late_bq_bob"))
        auction = await _state(ann, "b1", lambda m: m["phase"] == "auction")
        ahead = {**act(auction, "bid", amount=auction["next_bid"]), "decision": 99}
        await ann.send(ahead)
        early = await ann.expect(lambda m: m["type"] == "error")
        await ann.send(act(auction, "bid", amount=auction["next_bid"]))
        bid = await _state(bob, "b1", lambda m: m["bids"])
        await asyncio.sleep(max(0.0, bid["deadline"] - time.time()) + 0.01)
        await bob.send(act(bid, "bid", amount=bid["next_bid"]))
        late = await bob.expect(lambda m: m["type"] == "error")
        closed = await _state(bob, "b1", lambda m: m["phase"] != "auction")
        for player in (ann, bob):
            await player.close()
        return {"early": early, "late": late, "closed": closed}

    config = _config(tmp_path, decision_seconds=1.0)
    with ServerProcess(config, log=tmp_path / "s.log") as server:
        got = asyncio.run(scenario(server))
    assert got["early"]["code"] == "bad_decision"
    assert got["late"]["code"] in ("too_late", "stale_decision"), got["late"]
    assert got["closed"]["banker"] == "late_bq_ann"  # the late bid took nothing


def test_two_leaves_at_once_are_answered(tmp_path: Path) -> None:
    """Two ``leave`` at once from two tabs: the chips come back once, the second is told
    the player is not seated (before: a server error and a traceback)."""

    async def scenario(server: ServerProcess) -> list[dict[str, Any]]:
        (ann,) = await _seated(server, "c1", ("twoleave",))
        other = Player(server, "twoleave")
        other.token = ann.token
        await other.join("c1", first="chemin")
        await _state(ann, "c1", lambda m: "twoleave" in m["players"])
        await asyncio.gather(ann.send({"type": "leave"}), other.send({"type": "leave"}))
        answer = await asyncio.wait_for(
            asyncio.shield(
                asyncio.gather(
                    ann.expect(lambda m: m["type"] == "error", 5),
                    other.expect(lambda m: m["type"] == "error", 5),
                    return_exceptions=True,
                )
            ),
            10,
        )
        errors = [a for a in answer if isinstance(a, dict)]
        seen = [m for m in ann.inbox + other.inbox if m["type"] == "chemin"]
        for player in (ann, other):
            await player.close()
        return [*errors, seen[-1]]

    with ServerProcess(_config(tmp_path), log=tmp_path / "s.log") as server:
        *errors, last = asyncio.run(scenario(server))
        log = (tmp_path / "s.log").read_text()
    assert [answer["code"] for answer in errors] == ["not_seated"], errors
    assert "twoleave" not in last["players"]
    assert "Traceback" not in log
    book = Ledger.connect(f"sqlite:///{tmp_path / 'd.db'}")
    try:
        assert book.check_invariants() == []
    finally:
        book.engine.dispose()


def test_one_account_gives_a_house_shoe_one_seed(tmp_path: Path) -> None:
    """Finding 8: one account sends 32 seeds before the shoe is shuffled: one is taken,
    the rest refused (``seed_given``), and another player's seed still finds a place."""

    async def scenario(server: ServerProcess) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        greedy, other = Player(server, "greedy"), Player(server, "modest")
        for player in (greedy, other):
            await player.register()
            await player.join("t1")
        await greedy.expect(lambda m: m["type"] == "round_open")  # the shoe to come is there
        answers = []
        for n in range(32):
            await greedy.send({"type": "seed", "seed": f"mine {n}"})
            answers.append(await greedy.expect(lambda m: m["type"] in ("seed_ack", "error")))
        await other.send({"type": "seed", "seed": "my own"})
        theirs = await other.expect(lambda m: m["type"] in ("seed_ack", "error"))
        for player in (greedy, other):
            await player.close()
        return answers, theirs

    with ServerProcess(_config(tmp_path), log=tmp_path / "s.log") as server:
        answers, theirs = asyncio.run(scenario(server))
    assert [a["type"] for a in answers] == ["seed_ack"] + ["error"] * 31
    assert {a["code"] for a in answers[1:]} == {"seed_given"}
    assert theirs["type"] == "seed_ack"
