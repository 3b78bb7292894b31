"""The hold reports over a million bets (100,000 with --quick): each report's time
(target: under 200 ms) beside, in the same run, a naive sum over the bets table (the
handle and win per table, with no theory at all), on SQLite and, when
BACCARA_TEST_POSTGRES_URL is set, PostgreSQL.

The data are seeded: 12 tables of four games over 30 days, coups dealt from seeded
8-deck shoes, 20 spots a coup from 500 players, each settled by the rulebook (what
`baccara.bets.settle` returns on the coup's outcome class, `baccara.exact.theory`) and
rolled up as a table's settlement rolls it up (`baccara.db.hold.rollup_rows`), priced
from the cards of each shoe at its start (a table prices every coup; here the seeding,
not the reports, is what costs), loaded in bulk.
"""

from __future__ import annotations

import contextlib
import os
import random
import statistics
import tempfile
import time
from collections.abc import Callable, Iterator
from datetime import UTC, date, datetime
from functools import cache, partial
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from tests.support.services import private_schema

from baccara.bets import BetKind, bets_for, payout
from baccara.coup import deal_coup
from baccara.db import hold, reports
from baccara.db.hold import Resolution, SettledSpot
from baccara.db.ledger import Ledger, wallet_account
from baccara.db.reports import By
from baccara.db.schema import (
    bets,
    hold_rollup,
    hold_shoes,
    round_resolutions,
    rounds,
    transactions,
)
from baccara.exact.outcomes import PAIR_BETS, outcomes
from baccara.exact.theory import Price, price
from baccara.shoe import Shoe, ShoeSettings
from baccara.variants import find_variant

TARGET_MS = 200.0
GAMES = ("punto-banco", "ez", "super6", "tie-9")
TABLES = [(f"t{n + 1}", GAMES[n % len(GAMES)]) for n in range(12)]
DAYS = 30
START = datetime(2026, 10, 30, tzinfo=UTC).timestamp()
CHIPS = (100, 500, 1_010, 2_500, 5_000, 10_000, 50_000, 250_000)
SPOTS = 20
PLAYERS = 500
CLASSES = {
    (o.player_total, o.banker_total, o.player_cards, o.banker_cards): n
    for n, o in enumerate(outcomes())
}


@cache
def _kinds(game: str) -> tuple[tuple[BetKind, ...], tuple[float, ...]]:
    kinds = bets_for(find_variant(game))
    weights = tuple(40.0 if k.is_main and k is not BetKind.TIE else 3.0 for k in kinds)
    return kinds, weights


def _seed(ledger: Ledger, bets_wanted: int, rng: random.Random) -> int:
    """Load ``bets_wanted`` settled bets and their rollup; the rounds loaded."""
    players = [ledger.create_account(wallet_account(f"bench{n}")) for n in range(PLAYERS)]
    escrow = ledger.create_account("escrow:bench")
    rounds_wanted = bets_wanted // SPOTS
    with ledger.database.begin() as conn:
        (txn,) = conn.execute(
            transactions.insert().returning(transactions.c.id),
            {"created_at": datetime.now(UTC), "memo": "bench"},
        ).one()
    shoes: dict[str, Shoe] = {}
    shoe_ids: dict[str, int] = {}
    priced: dict[int, Price] = {}
    round_rows: list[dict[str, Any]] = []
    bet_rows: list[dict[str, Any]] = []
    lines: list[dict[str, Any]] = []
    by_shoe: list[dict[str, Any]] = []
    gone: list[dict[str, Any]] = []
    next_shoe, numbers = 0, dict.fromkeys((t for t, _ in TABLES), 0)
    for n in range(rounds_wanted):
        table, game = TABLES[n % len(TABLES)]
        variant = find_variant(game)
        now = START + n * DAYS * 86_400 / rounds_wanted
        shoe = shoes.get(table)
        if shoe is None or shoe.finished:
            shoe = shoes[table] = Shoe.shuffled(ShoeSettings(decks=8), seed=rng.getrandbits(32))
            shoe.burn()
            next_shoe += 1
            shoe_ids[table] = next_shoe
        numbers[table] += 1
        round_id = n + 1
        if shoe_ids[table] not in priced:
            priced[shoe_ids[table]] = price(shoe.cards[shoe.position :], variant)
        rate = priced[shoe_ids[table]]
        coup = deal_coup(shoe)
        outcome = CLASSES[coup.player_total, coup.banker_total, len(coup.player), len(coup.banker)]
        hits = {k: payout(k, coup, variant).ratio > 0 for k in PAIR_BETS}
        if rng.random() < 0.005:  # an interrupted round: refunded
            round_rows.append(_round(round_id, table, numbers[table], shoe_ids[table], now, escrow))
            round_rows[-1].update(phase="voided", coup=None)
            gone.append(
                {"round_id": round_id, "table_id": table, "day": hold.day_of(now), "at": now,
                 "resolution": Resolution.REFUNDED, "reason": "bench: voided at a restart",
                 "bets": 3, "handle": 3_000}
            )  # fmt: skip
            continue
        round_rows.append(_round(round_id, table, numbers[table], shoe_ids[table], now, escrow))
        round_rows[-1]["coup"] = coup.notation()
        kinds, weights = _kinds(game)
        spots = []
        for s in range(SPOTS):
            kind = rng.choices(kinds, weights)[0]
            stake = rng.choice(CHIPS if kind.is_main else CHIPS[:4])
            paid = rate.returns(kind, stake)  # the rulebook's settlement, by outcome
            returned = int(paid[(0 if hits[kind] else 1) if kind in hits else outcome])
            spots.append(SettledSpot(kind=kind.value, stake=stake, returned=returned, bets=1))
            bet_rows.append(
                {"account_id": players[rng.randrange(PLAYERS)], "bet_id": f"{round_id}-{s}",
                 "round_id": round_id, "kind": kind.value, "amount": stake, "txn_id": txn,
                 "status": "settled", "returned": returned}
            )  # fmt: skip
        found = hold.rollup_rows(
            table=table, variant=variant.name, shoe_id=shoe_ids[table], now=now, spots=spots,
            price=rate,
        )  # fmt: skip
        lines += found.lines
        by_shoe.append(found.shoe)
    with ledger.database.begin() as conn:
        for chunk in range(0, len(round_rows), 20_000):
            conn.execute(rounds.insert(), round_rows[chunk : chunk + 20_000])
        for chunk in range(0, len(bet_rows), 50_000):
            conn.execute(bets.insert(), bet_rows[chunk : chunk + 50_000])
        for rows, table in ((lines, hold_rollup), (by_shoe, hold_shoes)):
            summed = hold.add_up(table, rows)
            for chunk in range(0, len(summed), 20_000):
                conn.execute(table.insert(), summed[chunk : chunk + 20_000])
        if gone:
            conn.execute(round_resolutions.insert(), gone)
    if ledger.postgres:
        with ledger.database.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
            conn.execute(sa.text("ANALYZE"))
    return len(round_rows)


def _round(
    round_id: int, table: str, number: int, shoe: int, now: float, escrow: int
) -> dict[str, Any]:
    return {
        "id": round_id, "table_id": table, "number": number, "shoe_id": shoe,
        "coup_index": number, "phase": "settled", "escrow_id": escrow, "closes_at": now,
    }  # fmt: skip


_NAIVE = sa.text(
    "SELECT r.table_id, COUNT(DISTINCT b.round_id), COUNT(*), SUM(b.amount), "
    "SUM(b.amount - b.returned) FROM bets b JOIN rounds r ON r.id = b.round_id "
    "WHERE r.phase = 'settled' GROUP BY r.table_id ORDER BY r.table_id"
)


def _naive(database: sa.Engine) -> list[Any]:
    with database.connect() as conn:
        return list(conn.execute(_NAIVE).all())


def _timed(work: Callable[[], Any], runs: int = 5) -> tuple[float, Any]:
    """The median of ``runs`` timings in ms, and the last answer."""
    found, times = None, []
    for _ in range(runs):
        start = time.perf_counter()
        found = work()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), found


@contextlib.contextmanager
def _databases(folder: Path) -> Iterator[list[tuple[str, str]]]:
    found = [("SQLite", f"sqlite:///{folder / 'reports.db'}")]
    pg = os.environ.get("BACCARA_TEST_POSTGRES_URL")
    with contextlib.ExitStack() as stack:
        if pg:
            found.append(("PostgreSQL", stack.enter_context(private_schema(pg, "rep"))))
        else:
            print("   PostgreSQL: skipped (set BACCARA_TEST_POSTGRES_URL)")
        yield found


def main(quick: bool) -> None:
    wanted = 100_000 if quick else 1_000_000
    first, last = date(2026, 10, 30), date(2026, 11, 28)
    with tempfile.TemporaryDirectory() as tmp, _databases(Path(tmp)) as databases:
        for name, url in databases:
            ledger = Ledger.connect(url)
            try:
                start = time.perf_counter()
                played = _seed(ledger, wanted, random.Random(34))
                print(
                    f"   {name}: {wanted:,} bets in {played:,} rounds at {len(TABLES)} tables "
                    f"over {DAYS} days, seeded in {time.perf_counter() - start:.0f} s",
                    flush=True,
                )
                database = ledger.database
                span = {"first": first, "last": last}
                slowest = 0.0
                total: reports.HoldRow | None = None
                for by in By:
                    ms, rows = _timed(partial(reports.hold, database, by, **span))
                    slowest = max(slowest, ms)
                    if by is By.TABLE:
                        total = reports.total(rows)
                    print(f"   {name:<10} hold by {by.value:<6} {len(rows):>5} rows {ms:8.1f} ms")
                for label, report in (
                    ("rtp", reports.rtp),
                    ("series", reports.series),
                    ("interrupted", reports.interrupted),
                ):
                    ms, rows = _timed(partial(report, database, **span))
                    slowest = max(slowest, ms)
                    print(f"   {name:<10} {label:<14} {len(rows):>5} rows {ms:8.1f} ms")
                naive_ms, naive = _timed(partial(_naive, database), runs=3)
                handle = sum(int(row[3]) for row in naive)
                assert total is not None and total.handle == handle, (total, handle)
                print(
                    f"   {name:<10} baseline: a naive SUM over the bets by table {naive_ms:8.1f} ms"
                    f" (no theory)\n   {name:<10} slowest report {slowest:.1f} ms against the "
                    f"{TARGET_MS:.0f} ms target ({'met' if slowest < TARGET_MS else 'MISSED'}); "
                    f"the naive sum takes {naive_ms / slowest:.0f}x as long",
                    flush=True,
                )
            finally:
                ledger.database.dispose()
