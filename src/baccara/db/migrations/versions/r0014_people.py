"""The players and the alerts of the operator's console (issue 34, points 6 and 7):

- ``limit_changes``: every change to a player's limits, reminder, exclusion and the
  house's suspension, with when and by whom (the history the console shows, and what
  the alert "limits raised again and again" counts);
- ``player_notes``: the staff's notes on a player, append-only (triggers);
- ``alerts``: the markers of harm a scan raised, one per marker, subject and day
  (a rescan raises none twice), with their evidence and acknowledgement;
- ``web_users.last_login_at``: when the account last logged in;
- indexes for six months of history at hand: the transactions and the cashier's moves
  by time.

Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"  # chained after hold's 0013 on merge

_NOTES = "player_notes"


def upgrade() -> None:
    op.add_column("web_users", sa.Column("last_login_at", sa.Float, nullable=True))
    op.create_table(
        "limit_changes",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("web_users.id"), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("actor", sa.String(24), nullable=False),
        sa.Column("kind", sa.String(12), nullable=False),
        sa.Column("days", sa.Integer, nullable=True),
        sa.Column("amount", sa.BigInteger, nullable=True),
        sa.Column("next_amount", sa.BigInteger, nullable=True),
        sa.Column("next_from", sa.Float, nullable=True),
        sa.Column("until", sa.Float, nullable=True),
        sa.Column("raised", sa.Boolean, nullable=False),
    )
    op.create_index("ix_limit_changes_user_at", "limit_changes", ["user_id", "at"])
    op.create_index("ix_limit_changes_at", "limit_changes", ["at"])
    op.create_table(
        _NOTES,
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("web_users.id"), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("actor", sa.String(24), nullable=False),
        sa.Column("role", sa.String(16), nullable=True),
        sa.Column("text", sa.String(2000), nullable=False),
    )
    op.create_index("ix_player_notes_user_at", _NOTES, ["user_id", "at"])
    op.create_table(
        "alerts",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("marker", sa.String(24), nullable=False),
        sa.Column("subject", sa.String(64), nullable=False),
        sa.Column("day", sa.String(10), nullable=False),
        sa.Column("raised_at", sa.Float, nullable=False),
        sa.Column("summary", sa.String(200), nullable=False),
        sa.Column("evidence", sa.Text, nullable=False),
        sa.Column("acknowledged_at", sa.Float, nullable=True),
        sa.Column("acknowledged_by", sa.String(24), nullable=True),
        sa.UniqueConstraint("marker", "subject", "day", name="uq_alerts_marker_subject_day"),
    )
    op.create_index("ix_alerts_day", "alerts", ["day"])
    op.create_index("ix_table_transactions_created_at", "table_transactions", ["created_at"])
    op.create_index("ix_cashier_moves_at", "cashier_moves", ["at"])
    if op.get_bind().dialect.name == "sqlite":
        for action in ("UPDATE", "DELETE"):
            op.execute(
                f"CREATE TRIGGER {_NOTES}_no_{action.lower()} BEFORE {action} ON {_NOTES} "
                f"BEGIN SELECT RAISE(ABORT, '{_NOTES} are append-only'); END"
            )
        return
    op.execute(  # the function of revision 0001, in case the database lacks it
        "CREATE OR REPLACE FUNCTION baccara_append_only() RETURNS trigger AS $$ "
        "BEGIN RAISE EXCEPTION '% are append-only', TG_TABLE_NAME; END $$ LANGUAGE plpgsql"
    )
    op.execute(
        f"CREATE TRIGGER {_NOTES}_append_only BEFORE UPDATE OR DELETE ON {_NOTES} "
        "FOR EACH ROW EXECUTE FUNCTION baccara_append_only()"
    )


def downgrade() -> None:
    op.drop_index("ix_cashier_moves_at", "cashier_moves")
    op.drop_index("ix_table_transactions_created_at", "table_transactions")
    op.drop_table("alerts")
    op.drop_table(_NOTES)  # its triggers go with it
    op.drop_table("limit_changes")
    with op.batch_alter_table("web_users") as table:
        table.drop_column("last_login_at")
