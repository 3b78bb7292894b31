"""Crash injection: SIGKILL the server at named points, restart it, resend every bet.

Points (``BACCARA_CRASH_AT``): ``after_debit`` (bet committed, no reply sent),
``bet_debited`` (inside the bet transaction), ``settling`` (inside the settlement
transaction), ``mid_deal`` (after the third card is shown), and at the players' table
``decided`` (inside a decision's transaction) and ``after_decision`` (stored, not yet
shown). The crash cycles (`tests.support.cycles`) arm them in rotation, and every
seventh cycle kill the server at a random moment instead: a cycle starts the server
(whose start-up recovers: closed rounds dealt and settled, open ones voided, the
players' shoe replayed), the punters reconnect and resend every bet they had no answer
for under its id and round, bet on, and the server dies. After every cycle: the
ledger's invariants hold, the money is what was deposited, every acked bet is booked
exactly once in the round it was acked in and no refused one is, no wallet was paid
twice (each is its deposit less the stakes plus the returns). One cycle per point (7)
on each database in CI, 1,000 on each with ``--slow`` (and ``python -m bench crash``).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from pathlib import Path

import pytest
from tests.support.cycles import POINTS, run_cycles
from tests.support.harness import Player, ServerProcess

from baccara.coup import Coup
from baccara.db.ledger import Ledger
from baccara.server.app import ServerConfig


@pytest.mark.slow
def test_crash_cycles_lose_nothing_and_pay_nothing_twice(
    database_url: str, tmp_path: Path, full_size: bool
) -> None:
    cycles = 1_000 if full_size else len(POINTS)
    report = run_cycles(database_url, cycles, tmp_path)
    print("\n".join(report.lines()))
    assert report.problems == []
    assert report.cycles == cycles
    assert sum(report.kills.values()) == cycles  # each cycle died where it was armed
    assert set(report.kills) == set(POINTS)


def test_recovered_coup_is_the_one_being_dealt(tmp_path: Path) -> None:
    """Killed mid-deal, the restarted server deals the same coup from the stored shoe."""
    config = ServerConfig(
        database_url=f"sqlite:///{tmp_path / 'deal.db'}",
        tables=("c1=punto-banco",),
        decks=1,
        bet_seconds=0.6,
        card_seconds=0.05,
        result_seconds=0.1,
    )
    process = ServerProcess(config, log=tmp_path / "server.log")

    async def watch() -> tuple[list[str], int]:
        viewer = Player(process, "deal_viewer")
        await viewer.register()
        await viewer.join("c1")
        opened = await viewer.expect(lambda m: m["type"] == "round_open")
        ack = await viewer.bet("banker", 1_000, bet_id="view-1")
        assert ack["type"] == "bet_ack"
        with contextlib.suppress(Exception):
            while True:
                await viewer.expect(lambda m: m["type"] == "card", 10)
        cards = [
            m["card"]
            for m in viewer.inbox
            if m["type"] == "card" and m["card"] and m["round"] == opened["round"]
        ]
        return cards, opened["round"]

    try:
        process.start(BACCARA_CRASH_AT="mid_deal")
        shown, round_id = asyncio.run(asyncio.wait_for(watch(), 60))
        assert process.wait_exit(30) == -9
        assert len(shown) == 3
        process.start()
        book = Ledger.connect(config.database_url)
        try:
            # the table recovers in its own task once the server answers (pricing the
            # coup first loads the exact engine): wait for the round to be settled
            deadline = time.monotonic() + 30
            while (row := book.round(round_id))["phase"] != "settled":
                assert time.monotonic() < deadline, row
                time.sleep(0.05)
            coup = Coup.parse(row["coup"])
            assert [str(c) for c in coup.deal_order()[:3]] == shown
            assert book.check_invariants() == []
            (bet,) = book.round_bets(round_id)
            assert bet["status"] == "settled"
        finally:
            book.database.dispose()
    finally:
        process.kill()
