"""A round whose settlement (or deal) fails is settled before the next round opens.

A real server process whose fault hook raises (``BACCARA_FAIL_AT``, see
`tests.support.harness.CrashPoints`) inside the settlement transaction, or in the
middle of the deal: the runner must store the round's settlement, exactly once,
before it opens another round; a write that keeps failing closes the table (the
players get a ``notice``) until it succeeds or a restart's recovery settles it.
Each test runs on SQLite and on PostgreSQL (the ``database_url`` fixture).
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, TypeVar

import httpx
import pytest
import sqlalchemy as sa
from tests.support.forker import Forker
from tests.support.harness import Player, ServerProcess

from baccara.bets import BetKind, settle
from baccara.coup import Coup
from baccara.db.ledger import Ledger, bets, rounds, wallet_account
from baccara.db.schema import accounts, settlements, transactions
from baccara.server.app import ServerConfig
from baccara.variants import find_variant

T = TypeVar("T")
FAST = {"bet_seconds": 1.2, "card_seconds": 0.02, "result_seconds": 0.1}
WELCOME = 100_000
# Banker's 5% commission on 10.10 is 0.505: the cents must come out right.
STAKES = {"ann": [("banker", 1_010)], "bob": [("player", 2_000), ("tie", 500)]}


def run(coro: Coroutine[Any, Any, T]) -> T:
    return asyncio.run(asyncio.wait_for(coro, 90))


def _config(database_url: str, table: str) -> ServerConfig:
    return ServerConfig(
        database_url=database_url,
        tables=(f"{table}=punto-banco",),
        decks=1,
        bets_per_second=1000,
        bet_burst=1000,
        **FAST,
    )


async def _bet_one_round(
    process: ServerProcess, table: str, prefix: str
) -> tuple[dict[str, Player], int]:
    """Both players join ``table`` and bet `STAKES` in the next round; its id."""
    players = {name: Player(process, f"{prefix}_{name}") for name in STAKES}
    for player in players.values():
        await player.register()
        await player.join(table)
    opened = await players["ann"].expect(lambda m: m["type"] == "round_open")
    for name, placed in STAKES.items():
        for kind, amount in placed:
            ack = await players[name].bet(kind, amount, round=opened["round"])
            assert ack["type"] == "bet_ack", ack
    return players, int(opened["round"])


def _shown(player: Player, round_id: int) -> list[str]:
    return [m["card"] for m in player.inbox if m["type"] == "card" and m["round"] == round_id]


def _check_books(url: str, table: str, prefix: str, round_id: int, *, settled: bool) -> Coup | None:
    """The ledger after the test: invariants, the round settled once (or still closed,
    with nothing paid), every balance to the cent, no round opened before the settlement."""
    book = Ledger.connect(url)
    try:
        assert book.check_invariants() == []
        row = book.round(round_id)
        assert row["phase"] == ("settled" if settled else "closed"), row
        coup = Coup.parse(row["coup"]) if settled else None
        game = find_variant("punto-banco")
        with book.engine.connect() as conn:
            done = conn.execute(
                sa.select(sa.func.count())
                .select_from(settlements)
                .where(settlements.c.round_id == round_id)
            ).scalar_one()
            memo = f"settle settle:{round_id}"
            posted = conn.execute(
                sa.select(transactions.c.created_at).where(transactions.c.memo == memo)
            ).all()
            later = conn.execute(
                sa.select(accounts.c.created_at)
                .join(rounds, rounds.c.escrow_id == accounts.c.id)
                .where(rounds.c.table_id == table, rounds.c.number > row["number"])
            ).all()
            placed = {
                (int(r["account_id"]), str(r["kind"])): r
                for r in conn.execute(sa.select(bets).where(bets.c.round_id == round_id))
                .mappings()
                .all()
            }
        if not settled:
            assert (done, posted, later) == (0, [], [])  # no round opened after it
        else:
            assert done == 1 and len(posted) == 1  # settled exactly once
            # the later rounds' escrows were opened after the settlement was stored
            assert later and all(opened >= posted[0].created_at for (opened,) in later)
        assert len(placed) == sum(len(stakes) for stakes in STAKES.values())
        for name, stakes in STAKES.items():
            account = book.create_account(wallet_account(f"{prefix}_{name}"))
            want = WELCOME
            for kind, amount in stakes:
                bet = placed[(account, kind)]
                want -= amount
                if coup is None:
                    assert (bet["status"], bet["returned"]) == ("placed", None)
                    continue
                returned = settle(BetKind(kind), amount, coup, game).returned
                assert (bet["status"], bet["returned"]) == ("settled", returned), (name, kind)
                want += returned
            assert book.balance(account) == want, name
        return coup
    finally:
        book.engine.dispose()


def test_failed_settlement_is_retried_before_the_next_round(
    forker: Forker, database_url: str, tmp_path: Path
) -> None:
    """The first settlement write raises: it is retried and stored, the round's result
    and payouts go out, and only then does the next round open."""
    table, prefix = "rs1", "retry"
    process = ServerProcess(
        _config(database_url, table), log=tmp_path / "server.log", launcher=forker
    )

    async def scenario() -> int:
        players, round_id = await _bet_one_round(process, table, prefix)
        ann = players["ann"]
        await ann.expect(lambda m: m["type"] == "round_open" and m["round"] != round_id, 30)
        kinds = [(m["type"], m.get("round")) for m in ann.inbox]
        assert ("result", round_id) in kinds, "the next round opened before this one was settled"
        assert ("payout", round_id) in kinds
        (payout,) = [m for m in ann.inbox if m["type"] == "payout" and m["round"] == round_id]
        (result,) = [m for m in ann.inbox if m["type"] == "result" and m["round"] == round_id]
        coup = Coup.parse(result["coup"])
        returned = settle(BetKind.BANKER, 1_010, coup, find_variant("punto-banco")).returned
        assert (payout["returned"], payout["balance"]) == (returned, WELCOME - 1_010 + returned)
        for player in players.values():
            await player.close()
        return round_id

    try:
        process.start(BACCARA_FAIL_AT="settling", BACCARA_FAIL_TIMES="1")
        round_id = run(scenario())
        process.stop()
    finally:
        process.kill()
    assert "injected failure 1 at settling" in (tmp_path / "server.log").read_text()
    _check_books(database_url, table, prefix, round_id, settled=True)


def test_settlement_that_keeps_failing_closes_the_table_until_recovery(
    forker: Forker, database_url: str, tmp_path: Path
) -> None:
    """Every settlement write raises: the table closes with a notice and opens no round;
    stopped and restarted, recovery settles the round once, with the coup dealt."""
    table, prefix = "rs2", "stuck"
    config = _config(database_url, table)
    process = ServerProcess(config, log=tmp_path / "server.log", launcher=forker)

    async def stuck() -> tuple[int, list[str]]:
        players, round_id = await _bet_one_round(process, table, prefix)
        ann = players["ann"]
        notice = await ann.expect(lambda m: m["type"] == "notice", 30)
        assert "closed" in notice["text"] and "settle" in notice["text"], notice
        with pytest.raises(TimeoutError):  # no round opens while this one is unsettled
            await ann.expect(lambda m: m["type"] == "round_open", 2.5)
        lobby = httpx.get(f"{process.url}/api/tables").json()
        assert [t["phase"] for t in lobby] == ["closed"]
        late = await players["bob"].bet("banker", 1_000)
        assert late["code"] == "betting_closed"
        assert not [m for m in ann.inbox if m["type"] == "result" and m["round"] == round_id]
        for player in players.values():
            await player.close()
        return round_id, _shown(ann, round_id)

    async def reopened() -> dict[str, Any]:
        viewer = Player(process, f"{prefix}_viewer")
        await viewer.register()
        await viewer.join(table)
        opened = await viewer.expect(lambda m: m["type"] == "round_open", 30)
        await viewer.close()
        return opened

    try:
        process.start(BACCARA_FAIL_AT="settling", BACCARA_FAIL_TIMES="-1")
        round_id, shown = run(stuck())
        process.stop()
        assert _check_books(database_url, table, prefix, round_id, settled=False) is None
        process.start()  # no fault now: recovery settles the round before the first round
        assert run(reopened())["round"] != round_id
        process.stop()
    finally:
        process.kill()
    assert "injected failure 3 at settling" in (tmp_path / "server.log").read_text()
    coup = _check_books(database_url, table, prefix, round_id, settled=True)
    assert coup is not None
    assert [str(card) for card in coup.deal_order()] == [card for card in shown if card]


def test_round_that_fails_mid_deal_is_settled_before_the_next(
    forker: Forker, database_url: str, tmp_path: Path
) -> None:
    """The round loop fails after the close (mid-deal): before the next round opens the
    table recovers in place, dealing the same coup from the stored shoe and settling it."""
    table, prefix = "rs3", "middeal"
    process = ServerProcess(
        _config(database_url, table), log=tmp_path / "server.log", launcher=forker
    )

    async def scenario() -> tuple[int, list[str], list[str]]:
        players, round_id = await _bet_one_round(process, table, prefix)
        ann = players["ann"]
        await ann.expect(lambda m: m["type"] == "round_open" and m["round"] != round_id, 30)
        notes = [m["text"] for m in ann.inbox if m["type"] == "notice"]
        for player in players.values():
            await player.close()
        return round_id, _shown(ann, round_id), notes

    try:
        process.start(BACCARA_FAIL_AT="mid_deal", BACCARA_FAIL_TIMES="1")
        round_id, shown, notes = run(scenario())
        process.stop()
    finally:
        process.kill()
    assert "injected failure 1 at mid_deal" in (tmp_path / "server.log").read_text()
    coup = _check_books(database_url, table, prefix, round_id, settled=True)
    assert coup is not None
    assert any("dealt" in text and "settled" in text for text in notes), notes
    assert len([card for card in shown if card]) == 3
    assert [str(card) for card in coup.deal_order()[:3]] == [card for card in shown if card]
