"""Responsible play: each player's own limits. A daily loss limit (a raise or a removal
takes effect a day after it is asked for, a cut at once), a session-time reminder, and
a self-exclusion the server enforces until it ends.

Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"


def upgrade() -> None:
    op.create_table(
        "play_limits",
        sa.Column("user_id", sa.Integer, sa.ForeignKey("web_users.id"), primary_key=True),
        sa.Column("loss_limit", sa.BigInteger, nullable=True),
        sa.Column("next_loss_limit", sa.BigInteger, nullable=True),
        sa.Column("next_from", sa.Float, nullable=True),
        sa.Column("reminder_minutes", sa.Integer, nullable=True),
        sa.Column("excluded_until", sa.Float, nullable=True),
    )


def downgrade() -> None:
    op.drop_table("play_limits")
