"""Each player's drill scores: per drill and question kind, how often asked and missed
(stored in ``drill_records``, sent as a drill's ``record``).

>>> from baccara.db.database import database_at, writing
>>> from baccara.db.migrate import upgrade
>>> from baccara.db.schema import users
>>> from datetime import UTC, datetime
>>> database = database_at("sqlite://")
>>> _ = upgrade(database)
>>> with writing(database) as conn:
...     _ = conn.execute(users.insert().values(id=1, name="ann", password_hash="x",
...                                            created_at=datetime.now(UTC)))
>>> book = DrillScores(database)
>>> book.answered(1, "tableau", "B:3:8", correct=False)
>>> book.answered(1, "tableau", "B:3:8", correct=True)
>>> book.score(1, "tableau")
{'B:3:8': (2, 1)}
"""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from baccara.db.database import writing
from baccara.db.schema import drill_records

__all__ = ["DrillScores"]

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


class DrillScores:
    """The drills' scores in the one database."""

    def __init__(self, database: Engine) -> None:
        self.database = database

    def answered(self, user: int, drill: str, cell: str, *, correct: bool) -> None:
        """Count one answer to a ``cell`` question of ``drill`` by ``user``."""
        params = {"user": user, "which": drill, "what": cell, "miss": 0 if correct else 1}
        with writing(self.database) as conn:
            if conn.execute(_BUMP, params).rowcount == 0:
                conn.execute(
                    drill_records.insert().values(
                        user_id=user, drill=drill, cell=cell, seen=1, missed=params["miss"]
                    )
                )

    def score(self, user: int, drill: str) -> dict[str, tuple[int, int]]:
        """``user``'s score at ``drill``: (asked, missed) by cell."""
        query = sa.select(drill_records.c.cell, drill_records.c.seen, drill_records.c.missed).where(
            drill_records.c.user_id == user, drill_records.c.drill == drill
        )
        with self.database.connect() as conn:
            return {str(c): (int(s), int(m)) for c, s, m in conn.execute(query)}
