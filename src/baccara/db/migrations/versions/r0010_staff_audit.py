"""The staff and the audit log: a ``web_users`` row may be a staff account
(``web_users.role``: operator, compliance or auditor; null, as every row stored
before, a player), and every staff action is an entry of ``audit_log``, each carrying
the hash of the one before it (`baccara.db.audit`). The values before and after are
kept as the canonical JSON text that was hashed (a JSON column on SQLite reads a
``1.0`` stored alone back as ``1``).

The database refuses ``UPDATE`` and ``DELETE`` on ``audit_log`` as revision 0003 does on
``skill_actions`` (SQLite: ``RAISE(ABORT)``; PostgreSQL: the ``baccara_append_only()``
function, and ``TRUNCATE`` refused too).

Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"

_TABLE = "audit_log"


def upgrade() -> None:
    op.add_column("web_users", sa.Column("role", sa.String(16), nullable=True))
    op.create_table(
        _TABLE,
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("actor", sa.String(24), nullable=False),
        sa.Column("role", sa.String(16), nullable=True),
        sa.Column("action", sa.String(40), nullable=False),
        sa.Column("target", sa.String(200), nullable=False),
        sa.Column("before", sa.Text, nullable=False),  # canonical JSON, as hashed
        sa.Column("after", sa.Text, nullable=False),
        sa.Column("prev_hash", sa.String(64), nullable=False),
        sa.Column("hash", sa.String(64), nullable=False),
    )
    if op.get_bind().dialect.name == "sqlite":
        for action in ("UPDATE", "DELETE"):
            op.execute(
                f"CREATE TRIGGER {_TABLE}_no_{action.lower()} BEFORE {action} ON {_TABLE} "
                f"BEGIN SELECT RAISE(ABORT, '{_TABLE} are append-only'); END"
            )
        return
    op.execute(  # the function of revision 0001, in case the database lacks it
        "CREATE OR REPLACE FUNCTION baccara_append_only() RETURNS trigger AS $$ "
        "BEGIN RAISE EXCEPTION '% are append-only', TG_TABLE_NAME; END $$ LANGUAGE plpgsql"
    )
    op.execute(
        f"CREATE TRIGGER {_TABLE}_append_only BEFORE UPDATE OR DELETE ON {_TABLE} "
        "FOR EACH ROW EXECUTE FUNCTION baccara_append_only()"
    )
    op.execute(
        f"CREATE TRIGGER {_TABLE}_no_truncate BEFORE TRUNCATE ON {_TABLE} "
        "FOR EACH STATEMENT EXECUTE FUNCTION baccara_append_only()"
    )


def downgrade() -> None:
    op.drop_table(_TABLE)  # its triggers go with it
    with op.batch_alter_table("web_users") as table:
        table.drop_column("role")
