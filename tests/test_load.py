"""Load: many concurrent WebSocket players on loopback betting, resending and reconnecting
(the server in the test's process: what is checked is the books, not the throughput).

At full size (``pytest --slow``) 200 clients play over 20 tables; in CI 40 clients over
4 tables. Every loop is bounded in rounds and time, and traffic stays on 127.0.0.1.
Afterwards the ledger's invariants hold and every client's own record (the bets it
was told were accepted) matches the ledger exactly.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from tests.support.harness import Player
from tests.support.inprocess import ServerThread
from websockets.exceptions import ConnectionClosed

from baccara.db.ledger import Ledger, bets, wallet_account
from baccara.server.app import ServerConfig


async def _client(player: Player, table: str, rounds: int, seed: int) -> dict[str, Any]:
    """Bet ``rounds`` rounds: new bets, resends of old ids, random reconnects."""
    rng = random.Random(seed)
    accepted: dict[str, tuple[str, int]] = {}
    await player.join(table)
    played = 0
    while played < rounds:
        try:
            opened = await player.expect(lambda m: m["type"] == "round_open", 30)
            played += 1
            for _ in range(rng.randint(1, 3)):
                kind = rng.choice(["player", "banker", "tie", "player_pair"])
                amount = rng.choice([1_000, 2_000, 5_000]) if kind in ("player", "banker") else 100
                if accepted and rng.random() < 0.3:  # resend an old bet id
                    bet_id = rng.choice(list(accepted))
                    kind, amount = accepted[bet_id]
                    answer = await player.bet(kind, amount, bet_id=bet_id)
                    assert answer["type"] == "bet_ack" and answer["duplicate"], answer
                    continue
                bet_id = f"{player.name}-{len(accepted)}-{rng.randrange(10**6)}"
                answer = await player.bet(kind, amount, bet_id=bet_id, round=opened["round"])
                if answer["type"] == "bet_ack":
                    accepted[bet_id] = (kind, amount)
                else:
                    assert answer["code"] in ("betting_closed", "insufficient_funds"), answer
            if rng.random() < 0.2:  # drop the connection and come back with `since`
                await player.close()
                await player.join(table, since=player.seq)
        except (ConnectionClosed, TimeoutError):
            await player.close()
            await player.join(table, since=player.seq)
    await player.close()
    return accepted


@pytest.mark.slow
def test_many_clients_keep_the_books_right(tmp_path: Path, full_size: bool) -> None:
    clients, tables, rounds = (200, 20, 4) if full_size else (40, 4, 2)
    config = ServerConfig(
        database_url=f"sqlite:///{tmp_path / 'load.db'}",
        tables=tuple(f"L{i}=punto-banco" for i in range(tables)),
        bet_seconds=2.5,
        card_seconds=0.01,
        result_seconds=0.1,
        bets_per_second=1000,
        bet_burst=1000,
        logins_per_minute=60_000,
    )

    async def scenario(process: ServerThread) -> list[tuple[Player, dict[str, Any]]]:
        players = [Player(process, f"load{i}") for i in range(clients)]
        await asyncio.gather(*(p.register() for p in players))
        records = await asyncio.gather(
            *(_client(p, f"L{i % tables}", rounds, seed=i) for i, p in enumerate(players))
        )
        # One more round on every table so that every bet is settled.
        watchers = [Player(process, players[t].name) for t in range(tables)]
        for t, watcher in enumerate(watchers):
            watcher.token = players[t].token
            await watcher.join(f"L{t}")
        await asyncio.gather(*(_settled_round(w) for w in watchers))
        return list(zip(players, records, strict=True))

    with ServerThread(config, log=tmp_path / "server.log") as process:
        results = asyncio.run(asyncio.wait_for(scenario(process), 300))
    book = Ledger.connect(config.database_url)
    try:
        assert book.check_invariants() == []
        total = 0
        for player, accepted in results:
            account = book.create_account(wallet_account(player.name))
            for bet_id, (kind, amount) in accepted.items():
                stored = book.find_bet(account, bet_id)
                assert stored is not None and (stored.kind, stored.amount) == (kind, amount)
                assert stored.status == "settled"
            with book.database.connect() as rows:
                count = rows.execute(
                    sa.select(sa.func.count()).select_from(bets).where(bets.c.account_id == account)
                ).scalar_one()
            assert count == len(accepted)  # nothing the client was not told about
            total += count
        assert total > clients
    finally:
        book.database.dispose()


async def _settled_round(watcher: Player) -> None:
    opened = await watcher.expect(lambda m: m["type"] == "round_open", 30)
    await watcher.expect(lambda m: m["type"] == "result" and m["round"] == opened["round"], 30)
    await watcher.close()
