"""Finding an account by the name someone typed: one rule for logins, the cashier and
the house's suspensions.

A name is unique in any case for accounts made now (``name_key``, its lower case, is
unique); older accounts that differ from another only in case keep no key (revision
0005). So the name as typed is looked up exactly first, and only then by its key:
"ANN" finds the legacy "ANN", never "Ann" whose key is "ann".
"""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from baccara.db.schema import users

__all__ = ["find_player"]


def find_player(conn: Connection, name: str) -> sa.RowMapping | None:
    """The ``users`` row of the account ``name``: exactly that name first, then the one
    whose key is its lower case; None if neither (staff accounts too: the caller reads
    ``role``).

    >>> from datetime import UTC, datetime
    >>> from baccara.db.database import database_at, writing
    >>> from baccara.db.migrate import upgrade
    >>> database = database_at("sqlite://")
    >>> _ = upgrade(database)
    >>> made = datetime.now(UTC)
    >>> with writing(database) as conn:
    ...     _ = conn.execute(users.insert(), [
    ...         {"id": 1, "name": "Ann", "name_key": "ann", "password_hash": "x", "created_at": made},
    ...         {"id": 2, "name": "ANN", "name_key": None, "password_hash": "x", "created_at": made},
    ...     ])
    ...     [find_player(conn, name)["id"] for name in ("ANN", "Ann", "aNN")]
    [2, 1, 1]
    >>> with database.connect() as conn:
    ...     find_player(conn, "bob") is None
    True
    """
    for column, key in ((users.c.name, name), (users.c.name_key, name.lower())):
        found = conn.execute(sa.select(users).where(column == key)).mappings().first()
        if found is not None:
            return found
    return None
