"""The database writer (`baccara.server.infra.writer.BetBatcher`): bets group-committed, other
writes run alone and in order, on one thread or (PostgreSQL) several."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from baccara.db.ledger import BetError, BetRequest, Ledger, wallet_account
from baccara.server.infra.writer import BetBatcher


@pytest.mark.parametrize("writers", [1, 2])
def test_bets_and_writes_are_all_answered_in_order(database_url: str, writers: int) -> None:
    if writers > 1 and not database_url.startswith("postgresql"):
        pytest.skip("SQLite has one writer at a time")
    ledger = Ledger.connect(database_url)
    players = [ledger.create_account(wallet_account(f"w{writers}p{n}")) for n in range(20)]
    for n, account in enumerate(players):
        ledger.deposit(account, 50_000, ref=f"writer-{writers}-{n}")
    batcher = BetBatcher(ledger, writers=writers, job_wait=0.05)
    done: list[str] = []

    def job(name: str) -> str:
        done.append(name)
        return name

    async def scenario() -> tuple[list[Any], int]:
        batcher.start()
        rnd = await batcher.call(
            ledger.open_round, table=f"wr{writers}", number=1, shoe_id=None, coup_index=1
        )
        bets = [
            batcher.submit(
                BetRequest(
                    account=players[n % 20],
                    round_id=rnd,
                    bet_id=f"b{n}",
                    kind="banker",
                    amount=1_000,
                    minimum=100,
                    maximum=10_000,
                )
            )
            for n in range(200)
        ]
        jobs = [batcher.call(job, f"job{n}") for n in range(5)]
        answers = await asyncio.gather(*bets, *jobs, return_exceptions=True)
        await batcher.call(ledger.close_round, rnd)
        return answers, rnd

    try:
        answers, rnd = asyncio.run(scenario())
    finally:
        batcher.stop()
    receipts, named = answers[:200], answers[200:]
    assert named == [f"job{n}" for n in range(5)] and done == named  # alone, in order
    placed = [r for r in receipts if not isinstance(r, BaseException)]
    refused = [r for r in receipts if isinstance(r, BetError)]
    assert len(placed) == 200 and not refused, refused[:3]
    escrow = ledger.round(rnd)["escrow_id"]
    assert ledger.balance(escrow) == 200 * 1_000
    assert ledger.check_invariants() == []
    ledger.database.dispose()
