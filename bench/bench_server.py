"""The online table under load: bets per second and the 99th-percentile bet ack time.

200 WebSocket clients (40 with --quick) over 20 tables on loopback, each placing a
bet every PACE seconds (a brisk human player; the first at a random moment of the
window) during the betting windows, on SQLite and (when
BACCARA_TEST_POSTGRES_URL is set) PostgreSQL. Baseline in the same run: the same
bets placed straight on the ledger from one thread (no network, no server), which
bounds what the database alone allows. Target: p99 under 50 ms.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import os
import random
import statistics
import tempfile
import time
import uuid
from pathlib import Path

import uvloop
from tests.support.harness import Player, ServerProcess
from tests.support.services import private_schema

from baccara.db.ledger import Ledger, wallet_account
from baccara.server.app import ServerConfig

PACE = 1.0


async def _client(
    player: Player, table: str, until: float, times: list[float], tries: list[int]
) -> None:
    rng = random.Random(player.name)
    await player.join(table)
    while time.monotonic() < until:
        player.inbox.clear()  # the load generator keeps no history (a small, steady heap)
        opened = await player.expect(lambda m: m["type"] == "round_open", 30)
        closes = opened["closes_at"] - 0.3
        await asyncio.sleep(rng.uniform(0, PACE))  # players do not all click at once
        while time.time() < closes and time.monotonic() < until:
            start = time.perf_counter()
            answer = await player.bet("banker", 1_000, round=opened["round"])
            tries.append(1)
            if answer["type"] == "bet_ack":
                times.append(time.perf_counter() - start)
            elif answer["code"] in ("betting_closed", "insufficient_funds"):
                break
            await asyncio.sleep(max(0.0, PACE - (time.perf_counter() - start)))
    await player.close()


def _run(
    url: str, clients: int, tables: int, seconds: float, folder: Path
) -> tuple[int, float, float, float, float]:
    config = ServerConfig(
        database_url=url,
        tables=tuple(f"B{i}=punto-banco" for i in range(tables)),
        bet_seconds=4.0,
        card_seconds=0.01,
        result_seconds=0.2,
        bets_per_second=1000,
        bet_burst=1000,
        logins_per_minute=60_000,
        welcome=10**9,
    )
    times: list[float] = []
    tries: list[int] = []

    async def scenario(process: ServerProcess) -> float:
        players = [Player(process, f"b{uuid.uuid4().hex[:8]}") for _ in range(clients)]
        await asyncio.gather(*(p.register() for p in players))
        gc.collect()
        gc.freeze()  # no full collections of the set-up in the timed part (as the server)
        start = time.monotonic()
        until = start + seconds
        await asyncio.gather(
            *(_client(p, f"B{i % tables}", until, times, tries) for i, p in enumerate(players))
        )
        return time.monotonic() - start

    with ServerProcess(config, log=folder / "bench-server.log") as process:
        elapsed = uvloop.run(scenario(process))  # the load generator, not the server, is timed less
    times.sort()
    p99 = times[int(0.99 * (len(times) - 1))] if times else float("nan")
    p50 = statistics.median(times) if times else float("nan")
    return len(times), len(tries) / elapsed, len(times) / elapsed, p50, p99


def ledger_baseline(url: str, bets: int) -> float:
    book = Ledger.connect(url)
    account = book.create_account(wallet_account("baseline"))
    book.deposit(account, 10**12, ref="baseline")
    rnd = book.open_round(
        table=f"base-{uuid.uuid4().hex[:8]}", number=1, shoe_id=None, coup_index=1
    )
    start = time.perf_counter()
    for n in range(bets):
        book.place_bet(account=account, round_id=rnd, bet_id=f"x{n}", kind="banker", amount=1_000)
    rate = bets / (time.perf_counter() - start)
    book.void_round(rnd)
    book.database.dispose()
    return rate


def main(quick: bool) -> None:
    clients, tables, seconds = (40, 4, 10.0) if quick else (200, 20, 30.0)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        targets = [("SQLite", f"sqlite:///{folder / 'bench.db'}")]
        pg = os.environ.get("BACCARA_TEST_POSTGRES_URL")
        if pg:
            targets.append(("PostgreSQL", pg))
        else:
            print("   PostgreSQL: skipped (set BACCARA_TEST_POSTGRES_URL)")
        for name, target in targets:
            with contextlib.ExitStack() as stack:
                url = target
                if name == "PostgreSQL":
                    url = stack.enter_context(private_schema(target, "bench"))
                count, offered, rate, p50, p99 = _run(url, clients, tables, seconds, folder)
                base = ledger_baseline(url, 300 if quick else 2000)
            verdict = "meets" if p99 < 0.050 else "misses"
            print(
                f"   {name:<10}: {clients} clients, {tables} tables, one bet per client every "
                f"{PACE:g} s while betting is open ({offered:.0f} bets/s sent), {count} acked"
            )
            print(
                f"   {'':<10}  {rate:8.1f} bets/s, median ack {p50 * 1e3:.1f} ms, "
                f"p99 ack {p99 * 1e3:.1f} ms ({verdict} the 50 ms target)"
            )
            print(
                f"   {'':<10}  baseline: ledger alone {base:8.1f} bets/s, ratio {rate / base:.2f}"
            )
