"""The seats of a players' table online: who sits survives a restart, and a player who
leaves while a shoe is being shuffled is not dealt into it.

Both come from a review of the Chemin de Fer runner. After a restart the seats were
rebuilt only from the shoe in play: a player seated between shoes was forgotten, the
chips still at the table (the first test failed so). A player who left during the
shuffle was cashed out at once, racing the deal that read the seats a moment before;
now a leave while a shoe is committed waits for the deal, which leaves the player out,
and the chips go back right after it (the second test).
"""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path
from typing import Any

import httpx
from tests.support.harness import Player, ServerProcess, act

from baccara.db.chips import Chips
from baccara.db.ledger import Ledger, wallet_account
from baccara.server.app import ServerConfig

WELCOME = 100_000


def _config(tmp_path: Path, seed_seconds: float, decision_seconds: float = 5.0) -> ServerConfig:
    return ServerConfig(
        database_url=f"sqlite:///{tmp_path / 'seats.db'}",
        tables=("c1=chemin-de-fer",),
        decks=1,
        welcome=WELCOME,
        decision_seconds=decision_seconds,
        seed_seconds=seed_seconds,
        result_seconds=0.02,
    )


def _balances(url: str, names: tuple[str, ...]) -> tuple[dict[str, int], dict[str, int], list[str]]:
    book = Ledger.connect(url)
    try:
        wallets = {n: book.balance(book.create_account(wallet_account(n))) for n in names}
        stacks = Chips(book, "c1").stacks(names)
        return wallets, stacks, book.check_invariants()
    finally:
        book.engine.dispose()


async def _close(*players: Player) -> None:
    for player in players:
        with contextlib.suppress(Exception):
            await player.close()


def test_a_player_seated_between_shoes_is_seated_again_after_a_restart(tmp_path: Path) -> None:
    config = _config(tmp_path, seed_seconds=1.0)
    process = ServerProcess(config, log=tmp_path / "server.log")
    ann = Player(process, "seat_ann")

    async def sit() -> dict[str, Any]:
        try:
            await ann.register()
            await ann.join("c1", first="chemin")
            await ann.send({"type": "sit", "buy_in": 25_000})
            return await ann.expect(lambda m: m["type"] == "chemin" and "seat_ann" in m["players"])
        finally:
            await _close(ann)

    async def back() -> dict[str, Any]:
        try:
            await ann.register()
            state = await ann.join("c1", first="chemin")
            await ann.send({"type": "leave"})
            await ann.expect(lambda m: m["type"] == "chemin" and "seat_ann" not in m["players"])
            return state
        finally:
            await _close(ann)

    try:
        process.start()
        asyncio.run(asyncio.wait_for(sit(), 60))  # alone: no shoe starts
        process.stop()
        process.start()
        lobby = httpx.get(f"{process.url}/api/tables").json()
        assert [(t["id"], t["seated"]) for t in lobby] == [("c1", 1)]
        state = asyncio.run(asyncio.wait_for(back(), 60))
        assert state["players"] == ["seat_ann"]
    finally:
        process.stop()
    wallets, stacks, problems = _balances(config.database_url, ("seat_ann",))
    assert problems == [] and wallets == {"seat_ann": WELCOME} and stacks["seat_ann"] == 0


def test_a_player_who_leaves_during_the_shuffle_is_not_dealt_in(tmp_path: Path) -> None:
    config = _config(tmp_path, seed_seconds=2.0)
    names = ("shuf_ann", "shuf_bob", "shuf_cy")
    with ServerProcess(config, log=tmp_path / "server.log") as process:
        players = {name: Player(process, name) for name in names}

        async def play() -> dict[str, Any]:
            try:
                for player in players.values():
                    await player.register()
                    await player.join("c1", first="chemin")
                for player in players.values():
                    await player.send({"type": "sit", "buy_in": 20_000})
                cy = players["shuf_cy"]
                await cy.expect(
                    lambda m: (
                        m["type"] == "chemin" and m["phase"] == "shuffle" and len(m["players"]) == 3
                    )
                )
                await cy.send({"type": "leave"})
                return await cy.expect(lambda m: m["type"] == "chemin" and bool(m["in_shoe"]), 30)
            finally:
                await _close(*players.values())

        dealt = asyncio.run(asyncio.wait_for(play(), 60))
        assert dealt["in_shoe"] == ["shuf_ann", "shuf_bob"]
        assert "shuf_cy" not in dealt["players"]
        wallets, stacks, problems = _balances(config.database_url, names)
    assert problems == []
    assert wallets["shuf_cy"] == WELCOME and stacks["shuf_cy"] == 0  # every chip back


def test_a_decision_after_the_clock_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    """The first banker says nothing: the clock passes the bank for him (the house's
    rule); his late "set the bank" gets ``too_late`` and the bank stays passed."""
    config = _config(tmp_path, seed_seconds=0.5, decision_seconds=1.0)
    names = ("late_ann", "late_bob")
    with ServerProcess(config, log=tmp_path / "server.log") as process:
        players = {name: Player(process, name) for name in names}

        async def play() -> tuple[dict[str, Any], dict[str, Any]]:
            try:
                for player in players.values():
                    await player.register()
                    await player.join("c1", first="chemin")
                    await player.send({"type": "sit", "buy_in": 20_000})
                ann = players["late_ann"]
                mine = await ann.expect(
                    lambda m: m["type"] == "chemin" and m["to_act"] == "late_ann"
                )
                passed = await ann.expect(
                    lambda m: m["type"] == "chemin" and m["to_act"] == "late_bob"
                )
                await ann.send(act(mine, "open_bank", amount=5_000))  # her decision, too late
                return passed, await ann.expect(lambda m: m["type"] == "error")
            finally:
                await _close(*players.values())

        passed, refused = asyncio.run(asyncio.wait_for(play(), 60))
    assert passed["phase"] == "bank" and passed["chips"]["late_ann"] == 20_000
    assert any("late_ann" in line and "pass" in line for line in passed["news"]), passed["news"]
    assert refused["code"] == "too_late" and "clock" in refused["message"]
    _, stacks, problems = _balances(config.database_url, names)
    assert problems == [] and stacks["late_ann"] == stacks["late_bob"] == 20_000
