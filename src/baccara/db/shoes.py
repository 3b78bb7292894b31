"""The online tables' stored shoes: a row as its provably fair shoe, and its coups.

`baccara.server.shoes.ShoeBook` (a table's shoes for its runner) and
`baccara.db.repair` read them the same way.

>>> import sqlalchemy as sa
>>> from baccara.db.ledger import Ledger
>>> from baccara.db.schema import online_shoes
>>> ledger = Ledger.connect("sqlite://")
>>> with ledger.engine.begin() as conn:
...     _ = conn.execute(online_shoes.insert().values(id=1, table_id="t1", server_seed="00" * 32,
...         rules={}, client_seeds=["ann"], sealed=True, finished=False))
...     stored_shoe(conn.execute(sa.select(online_shoes)).mappings().one()).client_seeds
...     dealt_coups(conn, 1)
['ann']
[]
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from baccara.db.schema import RoundPhase, rounds
from baccara.fair import FairShoe

__all__ = ["dealt_coups", "stored_shoe"]


def stored_shoe(row: Mapping[Any, Any]) -> FairShoe:
    """An ``online_shoes`` row as its `FairShoe` (seeds, rules, sealed or not)."""
    return FairShoe(
        server_seed=row["server_seed"],
        rules=dict(row["rules"]),
        client_seeds=list(row["client_seeds"]),
        sealed=bool(row["sealed"]),
    )


def dealt_coups(conn: Connection, shoe_id: int) -> list[str]:
    """The coups dealt from shoe ``shoe_id``, in the shoe's order (compact notation).

    Those of its settled rounds, and of a round voided after its coup was dealt (two
    servers on one table left one; `baccara.db.repair` stores its coup): the record of
    the shoe and the replay of a restart deal the shoe through them.
    """
    query = (
        sa.select(rounds.c.coup)
        .where(
            rounds.c.shoe_id == shoe_id,
            rounds.c.phase.in_([RoundPhase.SETTLED, RoundPhase.VOIDED]),
            rounds.c.coup.is_not(None),
        )
        .order_by(rounds.c.coup_index, rounds.c.id)
    )
    return [str(coup) for (coup,) in conn.execute(query)]
