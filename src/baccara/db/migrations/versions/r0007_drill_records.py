"""The Learn section's drills keep each player's record: per drill and per question
kind (a cell of the tableau, a bet of a pay table), how often it was asked and how
often missed, so that what a learner misses comes back more often.

Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"


def upgrade() -> None:
    op.create_table(
        "drill_records",
        sa.Column("user_id", sa.Integer, sa.ForeignKey("web_users.id"), primary_key=True),
        sa.Column("drill", sa.String(16), primary_key=True),
        sa.Column("cell", sa.String(40), primary_key=True),
        sa.Column("seen", sa.Integer, nullable=False),
        sa.Column("missed", sa.Integer, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("drill_records")
