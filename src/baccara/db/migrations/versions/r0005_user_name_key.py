"""Players' names are unique whatever their case: ``Case``, ``case`` and ``CASE`` are
one account.

``web_users.name_key`` holds the name in lower case (names are ASCII letters, digits,
``_`` and ``-``), under a unique index; the name as registered stays in ``name`` and is
what everybody sees. Accounts that already differ only in case keep working: the first
registered gets the key, the others none (a unique index allows many nulls) and log in
by their exact name.

Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"


def upgrade() -> None:
    op.add_column("web_users", sa.Column("name_key", sa.String(24), nullable=True))
    op.execute(
        "UPDATE web_users SET name_key = lower(name) "
        "WHERE id IN (SELECT min(id) FROM web_users GROUP BY lower(name))"
    )
    op.create_index("ix_web_users_name_key", "web_users", ["name_key"], unique=True)


def downgrade() -> None:
    op.drop_index("ix_web_users_name_key", table_name="web_users")
    with op.batch_alter_table("web_users") as batch:
        batch.drop_column("name_key")
