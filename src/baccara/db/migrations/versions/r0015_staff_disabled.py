"""A staff account can be disabled (``web_users.disabled_at``: when, null while it may
sign in): a member who leaves the house keeps their name in the audit log but signs in
no more (`baccara.db.staff.set_disabled`, ``baccara admin disable``).

Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"


def upgrade() -> None:
    with op.batch_alter_table("web_users") as table:
        table.add_column(sa.Column("disabled_at", sa.Float, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("web_users") as table:
        table.drop_column("disabled_at")
