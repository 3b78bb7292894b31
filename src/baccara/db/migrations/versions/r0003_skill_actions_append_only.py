"""The decisions of the players' games are append-only, as the ledger's entries are.

A row of ``skill_actions`` is a decision taken at a players' table with the ledger
transaction that moved its money: changing or deleting one would make the decisions
disagree with the money, and a restarted server replay another shoe. Triggers refuse
``UPDATE`` and ``DELETE`` on it, as revision 0001's do on ``table_entries`` and
``table_events`` (SQLite: ``RAISE(ABORT)``; PostgreSQL: the same
``baccara_append_only()`` function). The rows already stored are kept as they are.

A later revision that rebuilds ``skill_actions`` on SQLite (a batch "move and copy")
drops its triggers with the old table: it must create them again.

Create Date: 2026-12-01
"""

from __future__ import annotations

from alembic import op

revision = "0003"
down_revision = "0002"

_TABLE = "skill_actions"


def upgrade() -> None:
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


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        for action in ("update", "delete"):
            op.execute(f"DROP TRIGGER IF EXISTS {_TABLE}_no_{action}")
        return
    op.execute(f"DROP TRIGGER IF EXISTS {_TABLE}_append_only ON {_TABLE}")
