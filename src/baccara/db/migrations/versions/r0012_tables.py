"""The tables as data: the list of tables the server runs (``tables``: each one's game,
whether it squeezes, its state, open, paused or closed, and its limits and timings,
null where the server's configuration holds) and the operator's switches that stop
play (``play_stops``: a row per scope stopped, ``all`` or a game family).
``baccara serve --tables`` only seeds ``tables`` on a first start
(`baccara.db.table_list`).

Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"


def upgrade() -> None:
    op.create_table(
        "tables",
        sa.Column("id", sa.String(40), primary_key=True),
        sa.Column("variant", sa.String(40), nullable=False),
        sa.Column("squeeze", sa.Boolean, nullable=False),
        sa.Column("state", sa.String(8), nullable=False),
        sa.Column("minimum", sa.BigInteger, nullable=True),
        sa.Column("maximum", sa.BigInteger, nullable=True),
        sa.Column("bet_seconds", sa.Float, nullable=True),
        sa.Column("decision_seconds", sa.Float, nullable=True),
        sa.Column("result_seconds", sa.Float, nullable=True),
        sa.Column("updated_at", sa.Float, nullable=False),
    )
    op.create_table(
        "play_stops",
        sa.Column("scope", sa.String(40), primary_key=True),
        sa.Column("updated_at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("play_stops")
    op.drop_table("tables")
