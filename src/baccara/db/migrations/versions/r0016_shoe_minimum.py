"""A players' shoe keeps the minimum it was dealt at (``online_shoes.minimum``, minor
units; null: a house shoe, or one dealt before this revision): the house may change a
table's minimum between shoes, and a shoe's seating is sealed with its own, so a restart
rebuilds the shoe, and its record, with that one (`baccara.db.chips.Chips.set_seats`).

Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"


def upgrade() -> None:
    with op.batch_alter_table("online_shoes") as table:
        table.add_column(sa.Column("minimum", sa.BigInteger, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("online_shoes") as table:
        table.drop_column("minimum")
