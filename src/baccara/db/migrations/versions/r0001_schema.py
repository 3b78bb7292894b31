"""The schema as baccara created it before migrations (the store, the ledger, the server).

A database made then (by ``create_all``) has some or all of these tables and no
version table: this revision creates only the tables it lacks, so such a database
upgrades in place. The append-only triggers come with ``table_entries`` and
``table_events``.

Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.schema import SchemaItem

revision = "0001"
down_revision = None

_APPEND_ONLY = ("table_entries", "table_events")


def _tables() -> list[tuple[str, list[SchemaItem]]]:
    stamp = sa.DateTime(timezone=True)
    return [
        (
            "table_accounts",
            [
                sa.Column("id", sa.Integer, primary_key=True),
                sa.Column("name", sa.String(200), nullable=False, unique=True),
                sa.Column("kind", sa.String(20), nullable=False),
                sa.Column("created_at", stamp, nullable=False),
            ],
        ),
        (
            "table_sessions",
            [
                sa.Column("id", sa.Integer, primary_key=True),
                sa.Column("name", sa.String(200), nullable=False),
                sa.Column("variant", sa.String(50), nullable=False),
                sa.Column("rules", sa.JSON, nullable=False),
                sa.Column("seed", sa.BigInteger, nullable=True),
                sa.Column("house", sa.BigInteger, nullable=False),
                sa.Column("created_at", stamp, nullable=False),
                sa.Column("updated_at", stamp, nullable=False),
                sa.Column("closed", sa.Boolean, nullable=False),
            ],
        ),
        (
            "table_transactions",
            [
                sa.Column("id", sa.Integer, primary_key=True),
                sa.Column("created_at", stamp, nullable=False),
                sa.Column("memo", sa.String(200), nullable=False),
                sa.Column(
                    "session_id", sa.Integer, sa.ForeignKey("table_sessions.id"), nullable=True
                ),
                sa.Column("event_seq", sa.Integer, nullable=True),
            ],
        ),
        (
            "table_entries",
            [
                sa.Column("id", sa.Integer, primary_key=True),
                sa.Column(
                    "transaction_id",
                    sa.Integer,
                    sa.ForeignKey("table_transactions.id"),
                    nullable=False,
                ),
                sa.Column(
                    "account_id", sa.Integer, sa.ForeignKey("table_accounts.id"), nullable=False
                ),
                sa.Column("amount", sa.BigInteger, nullable=False),
                sa.CheckConstraint("amount <> 0", name="entry_not_zero"),
            ],
        ),
        (
            "table_shoes",
            [
                sa.Column(
                    "session_id", sa.Integer, sa.ForeignKey("table_sessions.id"), primary_key=True
                ),
                sa.Column("number", sa.Integer, primary_key=True, autoincrement=False),
                sa.Column("cards", sa.Text, nullable=True),
            ],
        ),
        (
            "table_events",
            [
                sa.Column(
                    "session_id", sa.Integer, sa.ForeignKey("table_sessions.id"), primary_key=True
                ),
                sa.Column("seq", sa.Integer, primary_key=True, autoincrement=False),
                sa.Column("type", sa.String(30), nullable=False),
                sa.Column("data", sa.JSON, nullable=False),
                sa.Column("created_at", stamp, nullable=False),
            ],
        ),
        (
            "table_seats",
            [
                sa.Column("id", sa.Integer, primary_key=True),
                sa.Column(
                    "session_id", sa.Integer, sa.ForeignKey("table_sessions.id"), nullable=False
                ),
                sa.Column("seat", sa.Integer, nullable=False),
                sa.Column("player", sa.String(200), nullable=False),
                sa.Column("strategy", sa.String(100), nullable=True),
                sa.Column("buy_in", sa.BigInteger, nullable=False),
                sa.Column("cash_out", sa.BigInteger, nullable=True),
                sa.Column("sat_seq", sa.Integer, nullable=False),
                sa.Column("left_seq", sa.Integer, nullable=True),
            ],
        ),
        (
            "table_hands",
            [
                sa.Column("id", sa.Integer, primary_key=True),
                sa.Column(
                    "session_id", sa.Integer, sa.ForeignKey("table_sessions.id"), nullable=False
                ),
                sa.Column("shoe", sa.Integer, nullable=False),
                sa.Column("coup", sa.Integer, nullable=False),
                sa.Column("notation", sa.String(60), nullable=False),
                sa.Column("winner", sa.String(1), nullable=False),
                sa.Column("player_total", sa.Integer, nullable=False),
                sa.Column("banker_total", sa.Integer, nullable=False),
                sa.Column("staked", sa.BigInteger, nullable=False),
                sa.Column("house_net", sa.BigInteger, nullable=False),
                sa.Column("created_at", stamp, nullable=False),
            ],
        ),
        (
            "rounds",
            [
                sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
                sa.Column("table_id", sa.String(64), nullable=False),
                sa.Column("number", sa.Integer, nullable=False),
                sa.Column("shoe_id", sa.Integer, nullable=True),
                sa.Column("coup_index", sa.Integer, nullable=False),
                sa.Column("phase", sa.String(12), nullable=False),
                sa.Column(
                    "escrow_id", sa.Integer, sa.ForeignKey("table_accounts.id"), nullable=False
                ),
                sa.Column("closes_at", sa.Float, nullable=True),
                sa.Column("coup", sa.String(64), nullable=True),
                sa.UniqueConstraint("table_id", "number", name="uq_rounds_table_number"),
            ],
        ),
        (
            "round_settlements",
            [
                sa.Column("round_id", sa.Integer, sa.ForeignKey("rounds.id"), primary_key=True),
                sa.Column(
                    "txn_id", sa.Integer, sa.ForeignKey("table_transactions.id"), nullable=False
                ),
                sa.Column("kind", sa.String(8), nullable=False),
            ],
        ),
        (
            "bets",
            [
                sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
                sa.Column(
                    "account_id", sa.Integer, sa.ForeignKey("table_accounts.id"), nullable=False
                ),
                sa.Column("bet_id", sa.String(64), nullable=False),
                sa.Column("round_id", sa.Integer, sa.ForeignKey("rounds.id"), nullable=False),
                sa.Column("kind", sa.String(24), nullable=False),
                sa.Column("amount", sa.BigInteger, nullable=False),
                sa.Column(
                    "txn_id", sa.Integer, sa.ForeignKey("table_transactions.id"), nullable=False
                ),
                sa.Column("status", sa.String(10), nullable=False),
                sa.Column("returned", sa.BigInteger, nullable=True),
                sa.UniqueConstraint("account_id", "bet_id", name="uq_bets_account_bet"),
            ],
        ),
        (
            "online_shoes",
            [
                sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
                sa.Column("table_id", sa.String(64), nullable=False),
                sa.Column("server_seed", sa.String(64), nullable=False),
                sa.Column("rules", sa.JSON, nullable=False),
                sa.Column("client_seeds", sa.JSON, nullable=False),
                sa.Column("sealed", sa.Boolean, nullable=False),
                sa.Column("finished", sa.Boolean, nullable=False),
            ],
        ),
        (
            "web_users",
            [
                sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
                sa.Column("name", sa.String(24), nullable=False, unique=True),
                sa.Column("password_hash", sa.String(200), nullable=False),
                sa.Column("created_at", stamp, nullable=False),
            ],
        ),
        (
            "web_sessions",
            [
                sa.Column("token_hash", sa.String(64), primary_key=True),
                sa.Column("user_id", sa.Integer, sa.ForeignKey("web_users.id"), nullable=False),
                sa.Column("expires", sa.Float, nullable=False),
            ],
        ),
    ]


_INDEXES = {
    "table_entries": [("table_entries_by_account", ["account_id"])],
    "bets": [("ix_bets_round", ["round_id"])],
    "online_shoes": [("ix_online_shoes_table_id", ["table_id"])],
}


def _append_only(table: str, dialect: str) -> list[str]:
    if dialect == "sqlite":
        return [
            f"CREATE TRIGGER {table}_no_{op_.lower()} BEFORE {op_} ON {table} "
            f"BEGIN SELECT RAISE(ABORT, '{table} are append-only'); END"
            for op_ in ("UPDATE", "DELETE")
        ]
    return [
        "CREATE OR REPLACE FUNCTION baccara_append_only() RETURNS trigger AS $$ "
        "BEGIN RAISE EXCEPTION '% are append-only', TG_TABLE_NAME; END $$ LANGUAGE plpgsql",
        f"CREATE TRIGGER {table}_append_only BEFORE UPDATE OR DELETE ON {table} "
        "FOR EACH ROW EXECUTE FUNCTION baccara_append_only()",
    ]


def upgrade() -> None:
    bind = op.get_bind()
    present = set(sa.inspect(bind).get_table_names())
    for name, items in _tables():
        if name in present:
            continue
        op.create_table(name, *items)
        for index, columns in _INDEXES.get(name, []):
            op.create_index(index, name, columns)
        if name in _APPEND_ONLY:
            for statement in _append_only(name, bind.dialect.name):
                op.execute(statement)


def downgrade() -> None:
    raise NotImplementedError("the first revision has no downgrade: it would drop the money")
