"""Each player's drill record: per drill and question kind, how often asked and missed.

>>> from baccara.db.database import make_engine, writing
>>> from baccara.db.migrate import upgrade
>>> from baccara.db.schema import users
>>> from datetime import UTC, datetime
>>> engine = make_engine("sqlite://")
>>> _ = upgrade(engine)
>>> with writing(engine) as conn:
...     _ = conn.execute(users.insert().values(id=1, name="ann", password_hash="x",
...                                            created_at=datetime.now(UTC)))
>>> book = DrillRecords(engine)
>>> book.answered(1, "tableau", "B:3:8", correct=False)
>>> book.answered(1, "tableau", "B:3:8", correct=True)
>>> book.record(1, "tableau")
{'B:3:8': (2, 1)}
"""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from baccara.db.database import writing
from baccara.db.schema import drill_records

__all__ = ["DrillRecords"]

_BUMP = (
    drill_records.update()
    .where(
        drill_records.c.user_id == sa.bindparam("user"),
        drill_records.c.drill == sa.bindparam("which"),
        drill_records.c.cell == sa.bindparam("what"),
    )
    .values(
        seen=drill_records.c.seen + 1,
        missed=drill_records.c.missed + sa.bindparam("miss"),
    )
)


class DrillRecords:
    """The drills' records in the one database."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def answered(self, user: int, drill: str, cell: str, *, correct: bool) -> None:
        """Count one answer to a ``cell`` question of ``drill`` by ``user``."""
        params = {"user": user, "which": drill, "what": cell, "miss": 0 if correct else 1}
        with writing(self.engine) as conn:
            if conn.execute(_BUMP, params).rowcount == 0:
                conn.execute(
                    drill_records.insert().values(
                        user_id=user, drill=drill, cell=cell, seen=1, missed=params["miss"]
                    )
                )

    def record(self, user: int, drill: str) -> dict[str, tuple[int, int]]:
        """``user``'s record at ``drill``: (asked, missed) by cell."""
        query = sa.select(drill_records.c.cell, drill_records.c.seen, drill_records.c.missed).where(
            drill_records.c.user_id == user, drill_records.c.drill == drill
        )
        with self.engine.connect() as conn:
            return {str(c): (int(s), int(m)) for c, s, m in conn.execute(query)}
