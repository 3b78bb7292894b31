"""A round whose settlement (or deal) fails is settled before the next round opens.

The server's table (its runner and ledger, in process on a simulated clock:
`tests.support.tables`) with a fault hook that raises (`tests.support.harness.CrashPoints`'
failures) inside the settlement transaction, or in the middle of the deal: the runner
must store the round's settlement, exactly once, before it opens another round; a
write that keeps failing closes the table (the players get a ``notice``) until it
succeeds or a restart's recovery settles it. Each test runs on SQLite and on
PostgreSQL (the ``database_url`` fixture).
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator, Callable, Coroutine
from contextlib import asynccontextmanager
from typing import Any

import pytest
import sqlalchemy as sa
from tests.support.harness import CrashPoints
from tests.support.tables import Seat, Tables, house_table

from baccara.bets import BetKind, settle
from baccara.coup import Coup
from baccara.db.ledger import Ledger, bets, rounds, wallet_account
from baccara.db.schema import accounts, settlements, transactions
from baccara.server.tables.house import Timing
from baccara.server.wire import protocol as P
from baccara.variants import find_variant

FAST = Timing(bet_seconds=1.2, card_seconds=0.02, result_seconds=0.1)
WELCOME = 100_000
# Banker's 5% commission on 10.10 is 0.505: the cents must come out right.
STAKES = {"ann": [("banker", 1_010)], "bob": [("player", 2_000), ("tie", 500)]}


def run(test: Callable[[], Coroutine[Any, Any, None]]) -> None:
    asyncio.run(asyncio.wait_for(test(), 120))


def failing(at: str, times: int) -> CrashPoints:
    """The fault hook failing at ``at`` its first ``times`` times (-1: every time)."""
    points = CrashPoints()
    points.fail_at, points.fail_times = at, times
    return points


@asynccontextmanager
async def table(url: str, table_id: str, fault: CrashPoints) -> AsyncIterator[Tables]:
    """The one-deck Punto Banco table ``table_id`` on the database at ``url``."""
    async with house_table(
        timing=FAST, decks=1, table_id=table_id, database_url=url, fault=fault
    ) as tables:
        yield tables


def bet(kind: str, amount: int, round_id: int | None = None) -> P.BetMessage:
    return P.BetMessage(
        type="bet", bet_id=uuid.uuid4().hex[:16], kind=kind, amount=amount, round=round_id
    )


async def _bet_one_round(tables: Tables, prefix: str) -> tuple[dict[str, Seat], int]:
    """Both players join the table and bet `STAKES` in the next round; its id."""
    players = {name: await tables.join(f"{prefix}_{name}", WELCOME) for name in STAKES}
    await tables.start()
    runner = tables.runner
    await tables.clock.run_until(lambda: runner.phase == "betting")
    round_id = int(runner.round.id)
    for name, placed in STAKES.items():
        for kind, amount in placed:
            ack = await players[name].send(bet(kind, amount, round_id))
            assert ack is not None and ack["type"] == "bet_ack", ack
    return players, round_id


def _of(seat: Seat, kind: str, round_id: int) -> list[dict[str, Any]]:
    return [m for m in seat.of(kind) if m.get("round") == round_id]


def _shown(seat: Seat, round_id: int) -> list[str]:
    return [m["card"] for m in _of(seat, "card", round_id)]


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
        with book.database.connect() as conn:
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
        book.database.dispose()


def test_failed_settlement_is_retried_before_the_next_round(
    database_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    """The first settlement write raises: it is retried and stored, the round's result
    and payouts go out, and only then does the next round open."""
    table_id, prefix = "rs1", "retry"

    async def test() -> None:
        async with table(database_url, table_id, failing("settling", 1)) as tables:
            players, round_id = await _bet_one_round(tables, prefix)
            ann = players["ann"]
            await tables.clock.run_until(
                lambda: any(m["round"] != round_id for m in ann.of("round_open"))
            )
            kinds = [(m["type"], m.get("round")) for m in ann.seen]
            assert ("result", round_id) in kinds, "the next round opened before it was settled"
            assert ("payout", round_id) in kinds
            (payout,) = _of(ann, "payout", round_id)
            (result,) = _of(ann, "result", round_id)
            coup = Coup.parse(result["coup"])
            returned = settle(BetKind.BANKER, 1_010, coup, find_variant("punto-banco")).returned
            assert (payout["returned"], payout["balance"]) == (
                returned,
                WELCOME - 1_010 + returned,
            )
            await tables.stop()
        assert "injected failure 1 at settling" in caplog.text
        _check_books(database_url, table_id, prefix, round_id, settled=True)

    run(test)


def test_settlement_that_keeps_failing_closes_the_table_until_recovery(
    database_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    """Every settlement write raises: the table closes with a notice and opens no round;
    stopped and restarted, recovery settles the round once, with the coup dealt."""
    table_id, prefix = "rs2", "stuck"
    fault = failing("settling", -1)

    async def test() -> None:
        async with table(database_url, table_id, fault) as tables:
            players, round_id = await _bet_one_round(tables, prefix)
            ann = players["ann"]
            await tables.clock.run_until(lambda: bool(ann.of("notice")))
            (notice,) = ann.of("notice")
            assert "closed" in notice["text"] and "settle" in notice["text"], notice
            opened = len(ann.of("round_open"))
            await tables.clock.advance(2.5)  # no round opens while this one is unsettled
            assert len(ann.of("round_open")) == opened
            assert tables.runner.summary().phase == "closed"
            late = await players["bob"].send(bet("banker", 1_000))
            assert late is not None and late["code"] == "betting_closed"
            assert not _of(ann, "result", round_id)
            shown = _shown(ann, round_id)
            await tables.stop()
            assert _check_books(database_url, table_id, prefix, round_id, settled=False) is None
            fault.fail_at = None  # no fault now: recovery settles it before the first round
            await tables.restart()
            viewer = await tables.join(f"{prefix}_viewer")
            await tables.clock.run_until(lambda: bool(viewer.of("round_open")))
            assert viewer.of("round_open")[0]["round"] != round_id
            await tables.stop()
        assert "injected failure 3 at settling" in caplog.text
        coup = _check_books(database_url, table_id, prefix, round_id, settled=True)
        assert coup is not None
        assert [str(card) for card in coup.deal_order()] == [card for card in shown if card]

    run(test)


def test_round_that_fails_mid_deal_is_settled_before_the_next(
    database_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    """The round loop fails after the close (mid-deal): before the next round opens the
    table recovers in place, dealing the same coup from the stored shoe and settling it."""
    table_id, prefix = "rs3", "middeal"

    async def test() -> None:
        async with table(database_url, table_id, failing("mid_deal", 1)) as tables:
            players, round_id = await _bet_one_round(tables, prefix)
            ann = players["ann"]
            await tables.clock.run_until(
                lambda: any(m["round"] != round_id for m in ann.of("round_open"))
            )
            notes = [m["text"] for m in ann.of("notice")]
            shown = _shown(ann, round_id)
            await tables.stop()
        assert "injected failure 1 at mid_deal" in caplog.text
        coup = _check_books(database_url, table_id, prefix, round_id, settled=True)
        assert coup is not None
        assert any("dealt" in text and "settled" in text for text in notes), notes
        assert len([card for card in shown if card]) == 3
        assert [str(card) for card in coup.deal_order()[:3]] == [card for card in shown if card]

    run(test)
