"""The cashier: every deposit and withdrawal an operator records (``cashier_moves``:
the player, the amount, the reference, who, when, and the ledger's transaction that
booked it; a reference books once), and the limits a player sets over a period
(``period_limits``: deposits over 24 hours, 7 and 30 days; losses over 7 and 30 days
beside the daily loss limit of ``play_limits``), each with a raise waiting its day.

Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"


def upgrade() -> None:
    op.create_table(
        "cashier_moves",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("reference", sa.String(64), nullable=False),
        sa.Column("kind", sa.String(12), nullable=False),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("web_users.id"), nullable=False),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("table_accounts.id"), nullable=False),
        sa.Column("amount", sa.BigInteger, nullable=False),
        sa.Column("txn_id", sa.Integer, sa.ForeignKey("table_transactions.id"), nullable=False),
        sa.Column("actor", sa.String(24), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.CheckConstraint("amount > 0", name="cashier_amount_positive"),
        sa.UniqueConstraint("reference", name="uq_cashier_reference"),
    )
    op.create_index("ix_cashier_moves_account_at", "cashier_moves", ["account_id", "at"])
    op.create_table(
        "period_limits",
        sa.Column("user_id", sa.Integer, sa.ForeignKey("web_users.id"), primary_key=True),
        sa.Column("kind", sa.String(8), primary_key=True),
        sa.Column("days", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("table_accounts.id"), nullable=False),
        sa.Column("amount", sa.BigInteger, nullable=True),
        sa.Column("next_amount", sa.BigInteger, nullable=True),
        sa.Column("next_from", sa.Float, nullable=True),
    )
    op.create_index("ix_period_limits_account", "period_limits", ["account_id"])


def downgrade() -> None:
    op.drop_table("period_limits")
    op.drop_table("cashier_moves")
