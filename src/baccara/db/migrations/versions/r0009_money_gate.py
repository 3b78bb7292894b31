"""The money gate: a player's protections lie beside their wallet, so that the statement
that takes the player's lock reads them (``play_limits.account_id``), the house's
suspension among them (``play_limits.suspended_until``); sessions ended early are events every server process reads (``session_revocations``),
a house shoe remembers which accounts gave it a client seed (one each) and, if the
house retired it before its end (`baccara db repair`), why (``online_shoes.retired``).

Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"


def upgrade() -> None:
    with op.batch_alter_table("play_limits") as table:
        table.add_column(sa.Column("account_id", sa.Integer, nullable=True))
        table.add_column(sa.Column("suspended_until", sa.Float, nullable=True))
        table.create_foreign_key("fk_play_limits_account", "table_accounts", ["account_id"], ["id"])
        table.create_index("ix_play_limits_account", ["account_id"], unique=True)
    op.execute(  # each player's wallet, by name (an account made for a player without one)
        "INSERT INTO table_accounts (name, kind, created_at, balance) "
        "SELECT 'wallet:' || u.name, 'wallet', u.created_at, 0 FROM web_users u "
        "JOIN play_limits p ON p.user_id = u.id WHERE NOT EXISTS "
        "(SELECT 1 FROM table_accounts a WHERE a.name = 'wallet:' || u.name)"
    )
    op.execute(
        "UPDATE play_limits SET account_id = (SELECT a.id FROM table_accounts a "
        "JOIN web_users u ON a.name = 'wallet:' || u.name WHERE u.id = play_limits.user_id)"
    )
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
    with op.batch_alter_table("play_limits") as table:
        table.drop_index("ix_play_limits_account")
        table.drop_constraint("fk_play_limits_account", type_="foreignkey")
        table.drop_column("suspended_until")
        table.drop_column("account_id")
