"""Baccarat Banque online: a stake's tableau in each stored decision.

At a Banque table a punter stakes on the left or the right tableau; the decision's row
keeps which (``L`` or ``R``; null for every other decision and at Chemin de Fer), so a
restarted server replays the shoe exactly.

Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"


def upgrade() -> None:
    op.add_column("skill_actions", sa.Column("tableau", sa.String(1), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("skill_actions") as batch:
        batch.drop_column("tableau")
