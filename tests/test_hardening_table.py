"""The online table hardened against abuse, at the table (issue 16): each test here
reproduced its finding against the server before the fix (docs/server.md, "Hardening").

Real server processes on loopback (`tests.support.harness`); sizes of abuse are sized
down unless ``--slow`` is given. No test measures time: they wait for the table's
events and count messages and bytes.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, TypeVar

import httpx
from tests.support.harness import Player, ServerProcess

from baccara.db.ledger import Ledger, wallet_account
from baccara.server.app import ServerConfig

MAX_REPLAY = 200  # as in baccara.server.ws (the test runs against older servers too)
MAX_REPLAY_BYTES = 64 * 1024

T = TypeVar("T")
FAST = {"bet_seconds": 1.2, "card_seconds": 0.02, "result_seconds": 0.1}


def run(coro: Coroutine[Any, Any, T]) -> T:
    return asyncio.run(asyncio.wait_for(coro, 120))


def _check_invariants(url: str) -> Ledger:
    book = Ledger.connect(url)
    assert book.check_invariants() == []
    return book


# -- 1. seats are released --------------------------------------------------------------


def test_a_seat_is_freed_when_its_player_is_gone_with_no_bet(tmp_path: Path) -> None:
    """Seven throwaway accounts join a 7-seat mini table and go: the eighth player was
    refused (``table_full``) in every round until a restart, and the lobby said 7/7
    seated. Now a seat whose player has been gone for the grace period, with no bet in
    the round, is freed; a player gone with a bet in play keeps the seat until the
    round is settled (and is paid)."""
    config = ServerConfig(
        database_url=f"sqlite:///{tmp_path / 'seats.db'}",
        tables=("m1=mini",),
        seat_grace_seconds=0.5,
        **FAST,
    )

    async def scenario(server: ServerProcess) -> dict[str, Any]:
        ghosts = [Player(server, f"ghost_{n}") for n in range(7)]
        for ghost in ghosts[:6]:
            await ghost.register()
            await ghost.join("m1")
            await ghost.close()
        last = ghosts[6]
        await last.register()
        snap = await last.join("m1")
        minimum = snap["limits"]["banker"]["min"]
        staked = None
        while staked is None:  # a bet in this round's window, then gone
            opened = await last.expect(lambda m: m["type"] == "round_open")
            answer = await last.bet("banker", minimum, bet_id="ghost-bet", round=opened["round"])
            staked = opened["round"] if answer["type"] == "bet_ack" else None
        await last.close()
        lea = Player(server, "late_lea")
        await lea.register()
        await lea.join("m1")
        await lea.expect(lambda m: m["type"] == "no_more_bets" and m["round"] == staked)
        async with httpx.AsyncClient(base_url=server.url) as client:
            during = (await client.get("/api/tables/m1")).json()
        await lea.expect(lambda m: m["type"] == "result" and m["round"] == staked)
        answers = []
        for _ in range(6):  # a few rounds: the grace is 0.5 s, a round 1.3 s
            opened = await lea.expect(lambda m: m["type"] == "round_open")
            answers.append(await lea.bet("banker", minimum, round=opened["round"]))
            if answers[-1]["type"] == "bet_ack":
                break
        lobby: list[dict[str, Any]] = []
        for _ in range(6):  # the last ghost's seat goes once its round is settled
            await lea.expect(lambda m: m["type"] == "round_open")
            async with httpx.AsyncClient(base_url=server.url) as client:
                lobby = (await client.get("/api/tables")).json()
            if lobby[0]["seated"] == 1:
                break
        async with httpx.AsyncClient(base_url=server.url) as client:
            after = (await client.get("/api/tables/m1")).json()
        await lea.close()
        return {"during": during, "answers": answers, "lobby": lobby, "after": after}

    with ServerProcess(config, log=tmp_path / "server.log") as server:
        got = run(scenario(server))
    assert "ghost_6" in got["during"]["seats"]  # a bet in play keeps the seat
    assert got["answers"][-1]["type"] == "bet_ack", got["answers"]
    assert (got["lobby"][0]["seated"], got["lobby"][0]["seats"]) == (1, 7), got["lobby"]
    assert set(got["after"]["seats"]) == {"late_lea"}
    book = _check_invariants(config.database_url)
    try:
        account = book.create_account(wallet_account("ghost_6"))
        bet = book.find_bet(account, "ghost-bet")
        assert bet is not None and bet.status == "settled"
        assert book.balance(account) == 100_000 - bet.amount + (bet.returned or 0)
    finally:
        book.engine.dispose()


# -- 3. amplification -------------------------------------------------------------------


async def _join_bytes(player: Player, since: int) -> tuple[int, int, int, int]:
    """Send one ``join`` with ``since``; return the bytes of its snapshot, of the events
    replayed after it (``missed``), how many those were and the snapshot's ``seq``."""
    await player.send({"type": "join", "table": player.table, "since": since})
    snapshot = replayed = count = seq = 0
    while True:
        text = await asyncio.wait_for(player.ws.recv(), 30)
        message = json.loads(text)
        if message["type"] == "snapshot":
            snapshot, seq = len(text.encode()), message["seq"]
        elif message.get("missed"):
            replayed += len(text.encode())
            count += 1
        elif snapshot:  # the first live event: the replay is over
            return snapshot, replayed, count, seq


def test_a_join_replays_a_bounded_number_of_bytes(tmp_path: Path, full_size: bool) -> None:
    """A 40-byte ``join`` with ``since: 0`` replayed every event the table kept (up to
    1,000: megabytes, with the roads in each result). Now the replay is at most
    `MAX_REPLAY` events and `MAX_REPLAY_BYTES`, and only when every event missed is
    still kept: otherwise the snapshot alone is the table's state. Joins are rate
    limited per player, so repeating one cannot multiply the snapshots either."""
    config = ServerConfig(
        database_url=f"sqlite:///{tmp_path / 'replay.db'}",
        tables=("r1=punto-banco",),
        bet_seconds=0.2,
        card_seconds=0.0,
        result_seconds=0.0,
        decks=1,
        joins_per_second=0.01,
        join_burst=3,
    )
    events = 1_000 if full_size else 250

    async def scenario(server: ServerProcess) -> dict[str, Any]:
        eve = Player(server, "replay_eve")
        await eve.register()
        await eve.join("r1")
        await eve.expect(lambda m: m.get("seq", 0) >= events, 300)
        first = await _join_bytes(eve, since=0)
        since = first[3] - 3
        recent = (since, *await _join_bytes(eve, since=since))  # a short drop: replayed
        answers = []
        for _ in range(10):
            await eve.send({"type": "join", "table": "r1", "since": 0})
            answers.append(await eve.expect(lambda m: m["type"] in ("snapshot", "error")))
        await eve.close()
        return {"first": first, "recent": recent, "answers": answers}

    with ServerProcess(config, log=tmp_path / "server.log") as server:
        got = run(scenario(server))
    snapshot, replayed, count, _ = got["first"]
    assert replayed <= MAX_REPLAY_BYTES and count <= MAX_REPLAY, got["first"]
    assert snapshot < 64 * 1024, snapshot
    since, _, _, count, seq = got["recent"]
    assert count == seq - since >= 3, got["recent"]
    kinds = [(a["type"], a.get("code")) for a in got["answers"]]
    assert kinds.count(("snapshot", None)) <= 1 and ("error", "rate_limited") in kinds, kinds
