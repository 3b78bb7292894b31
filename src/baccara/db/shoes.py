"""The online tables' provably fair shoes in the database: committed, sealed, finished.

A shoe is stored with its server seed before it is used, so that a restarted server
rebuilds exactly the shoe it was dealing (`baccara.fair.FairShoe`); its record goes
to the players (``baccara verify``) once the shoe is finished. `ShoeBook` is one
table's shoes for its runner; `stored_shoe` and `dealt_coups` read a row and its coups
(`baccara.db.repair` reads them the same way).

>>> import sqlalchemy as sa
>>> from baccara.db.ledger import Ledger
>>> from baccara.db.schema import online_shoes
>>> ledger = Ledger.connect("sqlite://")
>>> with ledger.database.begin() as conn:
...     _ = conn.execute(online_shoes.insert().values(id=1, table_id="t1", server_seed="00" * 32,
...         rules={}, client_seeds=["ann"], sealed=True, finished=False))
...     stored_shoe(conn.execute(sa.select(online_shoes)).mappings().one()).client_seeds
...     dealt_coups(conn, 1)
['ann']
[]
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from baccara.db.ledger import Ledger
from baccara.db.schema import RoundPhase, online_shoes, rounds
from baccara.fair import FairShoe

__all__ = ["ShoeBook", "dealt_coups", "stored_shoe"]


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


class ShoeBook:
    """One table's shoes in the ledger's database."""

    def __init__(self, ledger: Ledger, table_id: str) -> None:
        self.database = ledger.database
        self.table_id = table_id

    def unfinished(self) -> tuple[int, FairShoe] | None:
        """The table's shoe in play (its id and the shoe), if a crash left one."""
        with self.database.connect() as conn:
            row = (
                conn.execute(
                    sa.select(online_shoes)
                    .where(
                        online_shoes.c.table_id == self.table_id,
                        online_shoes.c.finished.is_(False),
                    )
                    .order_by(online_shoes.c.id.desc())
                )
                .mappings()
                .first()
            )
        return None if row is None else (int(row["id"]), stored_shoe(row))

    def last_round_number(self) -> int:
        """The number of the table's last round (0 before the first)."""
        with self.database.connect() as conn:
            last = conn.execute(
                sa.select(sa.func.max(rounds.c.number)).where(rounds.c.table_id == self.table_id)
            ).scalar()
        return int(last or 0)

    def dealt_coups(self, shoe_id: int) -> list[str]:
        """The coups dealt from shoe ``shoe_id``, in order (`baccara.db.shoes.dealt_coups`)."""
        with self.database.connect() as conn:
            return dealt_coups(conn, shoe_id)

    def add(self, fair: FairShoe) -> int:
        """Store a new shoe (its seed before any use); its id."""
        with self.database.begin() as conn:
            key = conn.execute(
                online_shoes.insert().values(
                    table_id=self.table_id,
                    server_seed=fair.server_seed,
                    rules=fair.rules,
                    client_seeds=list(fair.client_seeds),
                    sealed=fair.sealed,
                    finished=False,
                )
            ).inserted_primary_key
        assert key is not None
        return int(key[0])

    def update(
        self,
        shoe_id: int,
        fair: FairShoe,
        *,
        finished: bool = False,
        seeders: Collection[int] | None = None,
        retired: str | None = None,
    ) -> None:
        """Store the shoe's client seeds and whether it is sealed (and finished), and
        which accounts gave the seeds (one each, at a house table); a shoe the house
        stopped before its end is ``retired`` (why, in words: finished, its seed shown)."""
        values: dict[str, object] = {
            "client_seeds": list(fair.client_seeds),
            "sealed": fair.sealed,
            "finished": finished or retired is not None,
        }
        if seeders is not None:
            values["seeders"] = sorted(seeders)
        if retired is not None:
            values["retired"] = retired
        with self.database.begin() as conn:
            conn.execute(online_shoes.update().where(online_shoes.c.id == shoe_id).values(values))

    def seeders(self, shoe_id: int) -> set[int]:
        """The accounts that gave shoe ``shoe_id`` a client seed."""
        with self.database.connect() as conn:
            found = conn.execute(
                sa.select(online_shoes.c.seeders).where(online_shoes.c.id == shoe_id)
            ).scalar()
        return {int(account) for account in found or ()}

    def finished(self, limit: int = 20) -> list[tuple[int, FairShoe]]:
        """The table's finished shoes (id and shoe, the seed revealed), newest first."""
        with self.database.connect() as conn:
            rows = conn.execute(
                sa.select(online_shoes)
                .where(
                    online_shoes.c.table_id == self.table_id,
                    online_shoes.c.finished.is_(True),
                )
                .order_by(online_shoes.c.id.desc())
                .limit(limit)
            ).mappings()
            return [(int(row["id"]), stored_shoe(row)) for row in rows]

    def records(self, limit: int = 20) -> list[dict[str, Any]]:
        """Finished shoes of a house-banked table as verify records, newest first (a
        shoe the house retired says why)."""
        out = []
        for shoe_id, fair in self.finished(limit):
            coups = self.dealt_coups(shoe_id)
            if coups:  # a shoe set aside before its first coup has no record
                out.append(fair.record(coups, self.retired(shoe_id)).to_json())
        return out

    def retired(self, shoe_id: int) -> str | None:
        """Why the house stopped shoe ``shoe_id`` before its end, if it did."""
        with self.database.connect() as conn:
            found = conn.execute(
                sa.select(online_shoes.c.retired).where(online_shoes.c.id == shoe_id)
            ).scalar()
        return None if found is None else str(found)
