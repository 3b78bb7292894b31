"""The table engine and the store: coups a second through the state machine and saved.

Baseline: the bare `deal_coup` loop over the same shoes, with `settle` called for the
same bets (what the engine adds is the phases, checks, events, roads and the store).
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from baccara.bets import BetKind, settle
from baccara.coup import deal_coup
from baccara.db.store import Store
from baccara.shoe import Shoe, ShoeSettings
from baccara.table.engine import Phase, Table
from baccara.table.events import TableSettings

KINDS = (BetKind.PLAYER, BetKind.BANKER, BetKind.TIE)


def _play(table: Table, coups: int, store: Store | None = None, session: int = 0) -> None:
    for n in range(coups):
        if table.phase is Phase.SHOE_CHANGE:
            table.change_shoe()
        for seat in range(1, 8):
            kind = KINDS[(seat + n) % 3]
            if table.seat_state(seat).bet(kind) == 0:
                table.place_bet(seat, kind, 1_000)
        table.deal()
        table.settle()
        if store is not None:
            store.save(session, table)


def _table() -> Table:
    table = Table(settings=TableSettings(seats=7, shoe=ShoeSettings(decks=8)), seed=1)
    table.change_shoe()
    for seat in range(1, 8):
        table.seat(seat, player=f"p{seat}", stack=10**9)
    return table


def main(quick: bool) -> None:
    coups = 2_000 if quick else 20_000
    start = time.perf_counter()
    _play(_table(), coups)
    engine = time.perf_counter() - start

    start = time.perf_counter()
    dealt, index = 0, 0
    while dealt < coups:
        shoe = Shoe.shuffled(ShoeSettings(decks=8), seed=1, index=index)
        shoe.burn()
        while not shoe.finished and dealt < coups:
            coup = deal_coup(shoe)
            for seat in range(1, 8):
                settle(KINDS[(seat + dealt) % 3], 1_000, coup)
            dealt += 1
        index += 1
    base = time.perf_counter() - start

    saved = coups // 10
    with tempfile.TemporaryDirectory() as folder:
        store = Store.at(Path(folder) / "bench.db")
        table = Table(settings=TableSettings(seats=7, shoe=ShoeSettings(decks=8)), seed=1)
        session = store.create_session(table)
        for seat in range(1, 8):
            store.deposit(f"p{seat}", 10**9)
        table.change_shoe()
        for seat in range(1, 8):
            table.seat(seat, player=f"p{seat}", stack=10**9)
        start = time.perf_counter()
        _play(table, saved, store, session)
        stored = time.perf_counter() - start
        store.close()

    print(f"   coups             : {coups}, 7 seats betting every coup")
    print(f"   table engine      : {coups / engine:,.0f} coups/s")
    print(f"   baseline          : {coups / base:,.0f} coups/s (deal_coup + settle, no table)")
    print(f"   engine / baseline : {engine / base:.2f}x the time")
    print(f"   with SQLite store : {saved / stored:,.0f} coups/s (one save per coup, WAL)")
