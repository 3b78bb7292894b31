"""Write tests/data/schema_v0_rows.json: a database made by baccara before migrations.

Run it with the code of commit 9f9fb5f (the last one that made its tables with
``create_all``) on the path, from the repository's root::

    git archive 9f9fb5f src | tar -x -C /tmp/v0
    PYTHONPATH=/tmp/v0/src python tests/support/make_schema_v0_rows.py

It plays a seeded terminal session (the store: deposits, seats, coups, hand history)
and an online table's rounds (the ledger: deposits, bets, a settlement, a void, a round
still open; a registered user; a shoe row), then dumps every table's rows.
"""

from __future__ import annotations

import json
import sys
import tempfile
from datetime import datetime
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from baccara.server.auth import Auth
from baccara.server.rounds import online_shoes

from baccara.bets import BetKind
from baccara.coup import Coup
from baccara.db.ledger import Ledger
from baccara.db.store import Store, metadata
from baccara.table.engine import Table

OUT = Path(__file__).resolve().parents[1] / "data" / "schema_v0_rows.json"


def _plain(value: Any) -> Any:
    return value.isoformat() if isinstance(value, datetime) else value


def main() -> None:
    folder = Path(tempfile.mkdtemp())
    url = f"sqlite:///{folder / 'v0.db'}"
    ledger = Ledger.connect(url)
    auth = Auth(ledger, welcome=50_000)
    ann, bob = auth.register("ann", "correct horse"), auth.register("bob", "battery staple")
    auth.login("ann", "correct horse")
    first = ledger.open_round(table="t1", number=1, shoe_id=1, coup_index=1, closes_at=1.5)
    ledger.place_bet(account=ann.account, round_id=first, bet_id="a1", kind="banker", amount=2_500)
    ledger.place_bet(account=ann.account, round_id=first, bet_id="a2", kind="tie", amount=500)
    ledger.place_bet(account=bob.account, round_id=first, bet_id="b1", kind="player", amount=1_000)
    ledger.close_round(first, Coup.parse("P:6h,Kd B:7s,Kc"))
    ledger.settle_round(first, Coup.parse("P:6h,Kd B:7s,Kc"), "punto-banco")
    second = ledger.open_round(table="t1", number=2, shoe_id=1, coup_index=2)
    ledger.place_bet(account=bob.account, round_id=second, bet_id="b2", kind="banker", amount=700)
    ledger.void_round(second)
    third = ledger.open_round(table="t1", number=3, shoe_id=1, coup_index=3)
    ledger.place_bet(account=ann.account, round_id=third, bet_id="a3", kind="player", amount=1_200)
    with ledger.database.begin() as conn:
        conn.execute(
            online_shoes.insert().values(
                table_id="t1",
                server_seed="ab" * 32,
                rules={"decks": 8},
                client_seeds=["c1"],
                sealed=True,
                finished=False,
            )
        )
    ledger.database.dispose()

    store = Store(url)
    store.deposit("cy", 100_000)
    table = Table(seed=3)
    session = store.create_session(table, name="v0")
    table.change_shoe()
    table.seat(player="cy", stack=50_000)
    for amount in (1_000, 2_000, 1_500):
        table.place_bet(1, BetKind.PLAYER, amount)
        table.deal()
        table.settle()
    store.save(session, table)
    store.close()

    database = sa.create_engine(url)
    rows: dict[str, Any] = {"source": "tests/support/make_schema_v0_rows.py at 9f9fb5f"}
    with database.connect() as conn:
        for name, table_ in metadata.tables.items():
            found = conn.execute(sa.select(table_).order_by(*table_.primary_key.columns))
            rows[name] = [{k: _plain(v) for k, v in row.items()} for row in found.mappings()]
    OUT.write_text(json.dumps(rows, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {OUT}: {sum(len(v) for v in rows.values() if isinstance(v, list))} rows")


if __name__ == "__main__":
    sys.exit(main())
