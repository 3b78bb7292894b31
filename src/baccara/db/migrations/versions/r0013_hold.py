"""Hold against theory: each settled coup's bets summed with the house's exact
theoretical win and its variance, by table, game, bet kind, stake band and day
(``hold_rollup``) and by table, game, shoe and day (``hold_shoes``), written in the
settlement's transaction; and how each round voided or settled after a restart ended
(``round_resolutions``). See `baccara.db.hold`.

Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"


def upgrade() -> None:
    op.create_table(
        "hold_rollup",
        sa.Column("table_id", sa.String(64), primary_key=True),
        sa.Column("variant", sa.String(40), primary_key=True),
        sa.Column("kind", sa.String(24), primary_key=True),
        sa.Column("band", sa.BigInteger, primary_key=True, autoincrement=False),
        sa.Column("day", sa.Date, primary_key=True),
        sa.Column("kind_rounds", sa.Integer, nullable=False),
        sa.Column("band_rounds", sa.Integer, nullable=False),
        sa.Column("bets", sa.Integer, nullable=False),
        sa.Column("handle", sa.BigInteger, nullable=False),
        sa.Column("win", sa.BigInteger, nullable=False),
        sa.Column("theo", sa.Float, nullable=False),
        sa.Column("variance", sa.Float, nullable=False),
        sa.Column("var_kind", sa.Float, nullable=False),
        sa.Column("var_band", sa.Float, nullable=False),
    )
    op.create_index("ix_hold_rollup_day", "hold_rollup", ["day"])
    op.create_table(
        "hold_shoes",
        sa.Column("table_id", sa.String(64), primary_key=True),
        sa.Column("variant", sa.String(40), primary_key=True),
        sa.Column("shoe_id", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("day", sa.Date, primary_key=True),
        sa.Column("rounds", sa.Integer, nullable=False),
        sa.Column("bets", sa.Integer, nullable=False),
        sa.Column("handle", sa.BigInteger, nullable=False),
        sa.Column("win", sa.BigInteger, nullable=False),
        sa.Column("theo", sa.Float, nullable=False),
        sa.Column("var_round", sa.Float, nullable=False),
    )
    op.create_index("ix_hold_shoes_day", "hold_shoes", ["day"])
    op.create_table(
        "round_resolutions",
        sa.Column("round_id", sa.Integer, sa.ForeignKey("rounds.id"), primary_key=True),
        sa.Column("table_id", sa.String(64), nullable=False),
        sa.Column("day", sa.Date, nullable=True),
        sa.Column("at", sa.Float, nullable=True),
        sa.Column("resolution", sa.String(24), nullable=False),
        sa.Column("reason", sa.String(200), nullable=False),
        sa.Column("bets", sa.Integer, nullable=False),
        sa.Column("handle", sa.BigInteger, nullable=False),
    )
    op.create_index("ix_round_resolutions_day", "round_resolutions", ["day"])


def downgrade() -> None:
    op.drop_index("ix_round_resolutions_day", "round_resolutions")
    op.drop_table("round_resolutions")
    op.drop_index("ix_hold_shoes_day", "hold_shoes")
    op.drop_table("hold_shoes")
    op.drop_index("ix_hold_rollup_day", "hold_rollup")
    op.drop_table("hold_rollup")
