"""The players' games online: a shoe's seats, and every decision of a players' shoe.

``online_shoes.seats`` holds the names and stacks the shoe started with (a players'
game; null for the house-banked games). ``skill_actions`` holds, in order, each
decision taken at a players' table (who, what, how much, whether the clock took it)
with the ledger transaction that moved its money, so that a restarted server replays
the shoe to the decision it was waiting for.

Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"


def upgrade() -> None:
    op.add_column("online_shoes", sa.Column("seats", sa.JSON, nullable=True))
    op.create_table(
        "skill_actions",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("shoe_id", sa.Integer, sa.ForeignKey("online_shoes.id"), nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("action", sa.String(16), nullable=False),
        sa.Column("amount", sa.BigInteger, nullable=True),
        sa.Column("timed_out", sa.Boolean, nullable=False),
        sa.Column(
            "transaction_id", sa.Integer, sa.ForeignKey("table_transactions.id"), nullable=True
        ),
        sa.UniqueConstraint("shoe_id", "seq", name="uq_skill_actions_shoe_seq"),
    )


def downgrade() -> None:
    op.drop_table("skill_actions")
    op.drop_column("online_shoes", "seats")
