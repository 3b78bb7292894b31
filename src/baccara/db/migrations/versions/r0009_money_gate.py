"""The money gate: an operator may suspend a player (``web_users.suspended_until``),
sessions ended early are events every server process reads (``session_revocations``),
a house shoe remembers which accounts gave it a client seed (one each) and, if the
house retired it before its end (`baccara db repair`), why (``online_shoes.retired``).

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("web_users", sa.Column("suspended_until", sa.Float, nullable=True))
    op.add_column("online_shoes", sa.Column("seeders", sa.JSON, nullable=True))
    op.add_column("online_shoes", sa.Column("retired", sa.String(200), nullable=True))
    op.create_table(
        "session_revocations",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("web_users.id"), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=True),
        sa.Column("at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("session_revocations")
    with op.batch_alter_table("online_shoes") as table:
        table.drop_column("retired")
        table.drop_column("seeders")
    with op.batch_alter_table("web_users") as table:
        table.drop_column("suspended_until")
