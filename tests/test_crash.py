"""Crash injection: SIGKILL the server at named points, restart it, resend every bet.

Points (``BACCARA_CRASH_AT``): ``after_debit`` (bet committed, no reply sent),
``bet_debited`` (inside the bet transaction), ``settling`` (inside the settlement
transaction), ``mid_deal`` (after the third card is shown). Each cycle arms one point,
plays until the server dies, restarts it (the restart recovers: closed rounds are
dealt and settled, open ones voided) and makes every player resend every bet id it
ever sent. Afterwards: no bet lost (every acknowledged bet is in the ledger, every
resend is answered), none paid twice (each wallet equals welcome - stakes + returns,
each round settled once), and the ledger's invariants hold.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from tests.support.harness import Player, ServerProcess
from websockets.exceptions import ConnectionClosed

from baccara.coup import Coup
from baccara.db.ledger import Ledger, bets, rounds, wallet_account
from baccara.server.app import ServerConfig

POINTS = ("after_debit", "bet_debited", "settling", "mid_deal")
WELCOME = 100_000


async def _play_until_death(
    players: list[Player], sent: dict[str, dict[str, Any]], seed: int
) -> None:
    """Bet every round until the server dies (the socket closes)."""
    rng = random.Random(seed)
    for player in players:
        await player.join("c1")
    with contextlib.suppress(ConnectionClosed, ConnectionError):
        for _ in range(30):
            await players[0].expect(lambda m: m["type"] == "round_open", 20)
            for player in players:
                for _ in range(2):
                    bet_id = f"{player.name}-{len(sent)}"
                    kind = rng.choice(["player", "banker", "tie"])
                    amount = rng.choice([1_000, 2_000]) if kind != "tie" else 100
                    sent[bet_id] = {"player": player, "kind": kind, "amount": amount}
                    await player.send(
                        {"type": "bet", "bet_id": bet_id, "kind": kind, "amount": amount}
                    )
            await players[0].expect(lambda m: m["type"] == "result", 20)
    for player in players:
        with contextlib.suppress(Exception):
            await player.close()


async def _resend_all(players: list[Player], sent: dict[str, dict[str, Any]]) -> dict[str, Any]:
    answers: dict[str, Any] = {}
    for player in players:
        await player.join("c1")
    for bet_id, bet in sent.items():
        player: Player = bet["player"]
        answers[bet_id] = await player.bet(bet["kind"], bet["amount"], bet_id=bet_id)
    # Wait until a round that opened after the resends is settled, then leave.
    first = players[0]
    opened = await first.expect(lambda m: m["type"] == "round_open", 30)
    await first.expect(lambda m: m["type"] == "result" and m["round"] == opened["round"], 30)
    for player in players:
        await player.close()
    return answers


def _check_books(url: str, names: list[str]) -> dict[str, int]:
    book = Ledger.connect(url)
    try:
        assert book.check_invariants() == []
        accounts = {name: book.create_account(wallet_account(name)) for name in names}
        with book.engine.connect() as conn:
            unfinished = conn.execute(
                sa.select(sa.func.count()).select_from(bets).where(bets.c.status == "placed")
            ).scalar_one()
            for name, account in accounts.items():
                staked, returned = conn.execute(
                    sa.select(
                        sa.func.coalesce(sa.func.sum(bets.c.amount), 0),
                        sa.func.coalesce(sa.func.sum(bets.c.returned), 0),
                    ).where(bets.c.account_id == account)
                ).one()
                # Every stake debited once, every return credited once: nothing lost or doubled.
                assert book.balance(account, conn) == WELCOME - staked + returned, name
            counts = dict(
                conn.execute(
                    sa.select(rounds.c.phase, sa.func.count()).group_by(rounds.c.phase)
                ).all()
            )
        return {"unsettled_bets": int(unfinished), **{k: int(v) for k, v in counts.items()}}
    finally:
        book.engine.dispose()


@pytest.mark.slow
def test_crash_points_lose_nothing_and_pay_nothing_twice(tmp_path: Path, full_size: bool) -> None:
    cycles = [p for _ in range(5 if full_size else 1) for p in POINTS]  # 4 in CI, 20 with --slow
    config = ServerConfig(
        database_url=f"sqlite:///{tmp_path / 'crash.db'}",
        tables=("c1=punto-banco",),
        decks=1,
        bet_seconds=0.8,
        card_seconds=0.05,
        result_seconds=0.1,
        bets_per_second=1000,
        bet_burst=1000,
    )
    process = ServerProcess(config, log=tmp_path / "server.log")
    players_names = ["crash_a", "crash_b", "crash_c"]
    sent: dict[str, dict[str, Any]] = {}
    crashes = 0

    async def register(proc: ServerProcess) -> list[Player]:
        players = [Player(proc, name) for name in players_names]
        for player in players:
            assert await player.register() == WELCOME
        return players

    try:
        process.start()
        players = asyncio.run(register(process))
        process.stop()
        for number, point in enumerate(cycles):
            process.start(BACCARA_CRASH_AT=point)
            asyncio.run(asyncio.wait_for(_play_until_death(players, sent, number), 120))
            status = process.wait_exit(60)
            assert status == -9, f"cycle {number}: the server did not die at {point} ({status})"
            crashes += 1
            process.start()  # recovery runs before the first round
            answers = asyncio.run(asyncio.wait_for(_resend_all(players, sent), 180))
            for answer in answers.values():
                # A committed bet answers with its stored result; one that never committed
                # is placed now (or refused if the window closed): never taken twice.
                assert answer["type"] in ("bet_ack", "error"), answer
                if answer["type"] == "error":
                    assert answer["code"] == "betting_closed", answer
            process.stop()
            summary = _check_books(config.database_url, players_names)
            assert summary["unsettled_bets"] == 0, summary
        assert crashes == len(cycles)
    finally:
        process.kill()
    print(f"crash cycles: {crashes}, bets sent: {len(sent)}, rounds: {summary}")


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
            row = book.round(round_id)
            assert row["phase"] == "settled"
            coup = Coup.parse(row["coup"])
            assert [str(c) for c in coup.deal_order()[:3]] == shown
            assert book.check_invariants() == []
            (bet,) = book.round_bets(round_id)
            assert bet["status"] == "settled"
        finally:
            book.engine.dispose()
    finally:
        process.kill()
