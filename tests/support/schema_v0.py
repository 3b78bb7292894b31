"""Today's schema, frozen: the database baccara created before migrations (commit 9f9fb5f).

``metadata.create_all`` here builds a database exactly as the terminal store
(``Store``), the web ledger (``Ledger``), the server's users (``Auth``) and its shoes
(``server/rounds.py``) created it with ``create_all``, append-only triggers included.
It is the "before" of the migration tests: never change it.

Source: src/baccara/db/store.py, src/baccara/db/ledger.py, src/baccara/server/auth.py and
src/baccara/server/rounds.py at commit 9f9fb5f.
"""

from __future__ import annotations

import sqlalchemy as sa

__all__ = ["metadata"]

metadata = sa.MetaData()

accounts = sa.Table(
    "table_accounts",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("name", sa.String(200), nullable=False, unique=True),
    sa.Column("kind", sa.String(20), nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
)
sessions = sa.Table(
    "table_sessions",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("name", sa.String(200), nullable=False),
    sa.Column("variant", sa.String(50), nullable=False),
    sa.Column("rules", sa.JSON, nullable=False),
    sa.Column("seed", sa.BigInteger, nullable=True),
    sa.Column("house", sa.BigInteger, nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("closed", sa.Boolean, nullable=False, default=False),
)
transactions = sa.Table(
    "table_transactions",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("memo", sa.String(200), nullable=False),
    sa.Column("session_id", sa.Integer, sa.ForeignKey("table_sessions.id"), nullable=True),
    sa.Column("event_seq", sa.Integer, nullable=True),
)
entries = sa.Table(
    "table_entries",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("transaction_id", sa.Integer, sa.ForeignKey("table_transactions.id"), nullable=False),
    sa.Column("account_id", sa.Integer, sa.ForeignKey("table_accounts.id"), nullable=False),
    sa.Column("amount", sa.BigInteger, nullable=False),
    sa.CheckConstraint("amount <> 0", name="entry_not_zero"),
)
sa.Index("table_entries_by_account", entries.c.account_id)
shoes = sa.Table(
    "table_shoes",
    metadata,
    sa.Column("session_id", sa.Integer, sa.ForeignKey("table_sessions.id"), primary_key=True),
    sa.Column("number", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("cards", sa.Text, nullable=True),
)
events = sa.Table(
    "table_events",
    metadata,
    sa.Column("session_id", sa.Integer, sa.ForeignKey("table_sessions.id"), primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("type", sa.String(30), nullable=False),
    sa.Column("data", sa.JSON, nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
)
seats = sa.Table(
    "table_seats",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("session_id", sa.Integer, sa.ForeignKey("table_sessions.id"), nullable=False),
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("player", sa.String(200), nullable=False),
    sa.Column("strategy", sa.String(100), nullable=True),
    sa.Column("buy_in", sa.BigInteger, nullable=False),
    sa.Column("cash_out", sa.BigInteger, nullable=True),
    sa.Column("sat_seq", sa.Integer, nullable=False),
    sa.Column("left_seq", sa.Integer, nullable=True),
)
hands = sa.Table(
    "table_hands",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("session_id", sa.Integer, sa.ForeignKey("table_sessions.id"), nullable=False),
    sa.Column("shoe", sa.Integer, nullable=False),
    sa.Column("coup", sa.Integer, nullable=False),
    sa.Column("notation", sa.String(60), nullable=False),
    sa.Column("winner", sa.String(1), nullable=False),
    sa.Column("player_total", sa.Integer, nullable=False),
    sa.Column("banker_total", sa.Integer, nullable=False),
    sa.Column("staked", sa.BigInteger, nullable=False),
    sa.Column("house_net", sa.BigInteger, nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
)


def _ddl(statement: str) -> sa.DDL:
    return sa.DDL(statement)  # type: ignore[no-untyped-call]


_APPEND_ONLY = ("table_entries", "table_events")
for _name in _APPEND_ONLY:
    for _op in ("UPDATE", "DELETE"):
        sa.event.listen(
            metadata.tables[_name],
            "after_create",
            _ddl(
                f"CREATE TRIGGER {_name}_no_{_op.lower()} BEFORE {_op} ON {_name} "
                f"BEGIN SELECT RAISE(ABORT, '{_name} are append-only'); END"
            ).execute_if(dialect="sqlite"),
        )
    sa.event.listen(
        metadata.tables[_name],
        "after_create",
        _ddl(
            "CREATE OR REPLACE FUNCTION baccara_append_only() RETURNS trigger AS $$ "
            "BEGIN RAISE EXCEPTION '%% are append-only', TG_TABLE_NAME; END $$ LANGUAGE plpgsql"
        ).execute_if(dialect="postgresql"),
    )
    sa.event.listen(
        metadata.tables[_name],
        "after_create",
        _ddl(
            f"CREATE TRIGGER {_name}_append_only BEFORE UPDATE OR DELETE ON {_name} "
            "FOR EACH ROW EXECUTE FUNCTION baccara_append_only()"
        ).execute_if(dialect="postgresql"),
    )

rounds = sa.Table(
    "rounds",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("table_id", sa.String(64), nullable=False),
    sa.Column("number", sa.Integer, nullable=False),
    sa.Column("shoe_id", sa.Integer, nullable=True),
    sa.Column("coup_index", sa.Integer, nullable=False),
    sa.Column("phase", sa.String(12), nullable=False),
    sa.Column("escrow_id", sa.Integer, sa.ForeignKey("table_accounts.id"), nullable=False),
    sa.Column("closes_at", sa.Float, nullable=True),
    sa.Column("coup", sa.String(64), nullable=True),
    sa.UniqueConstraint("table_id", "number", name="uq_rounds_table_number"),
)
settlements = sa.Table(
    "round_settlements",
    metadata,
    sa.Column("round_id", sa.Integer, sa.ForeignKey("rounds.id"), primary_key=True),
    sa.Column("txn_id", sa.Integer, sa.ForeignKey("table_transactions.id"), nullable=False),
    sa.Column("kind", sa.String(8), nullable=False),
)
bets = sa.Table(
    "bets",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("account_id", sa.Integer, sa.ForeignKey("table_accounts.id"), nullable=False),
    sa.Column("bet_id", sa.String(64), nullable=False),
    sa.Column("round_id", sa.Integer, sa.ForeignKey("rounds.id"), nullable=False),
    sa.Column("kind", sa.String(24), nullable=False),
    sa.Column("amount", sa.BigInteger, nullable=False),
    sa.Column("txn_id", sa.Integer, sa.ForeignKey("table_transactions.id"), nullable=False),
    sa.Column("status", sa.String(10), nullable=False),
    sa.Column("returned", sa.BigInteger, nullable=True),
    sa.UniqueConstraint("account_id", "bet_id", name="uq_bets_account_bet"),
    sa.Index("ix_bets_round", "round_id"),
)

users = sa.Table(
    "web_users",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("name", sa.String(24), nullable=False, unique=True),
    sa.Column("password_hash", sa.String(200), nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
)
web_sessions = sa.Table(
    "web_sessions",
    metadata,
    sa.Column("token_hash", sa.String(64), primary_key=True),
    sa.Column("user_id", sa.Integer, sa.ForeignKey("web_users.id"), nullable=False),
    sa.Column("expires", sa.Float, nullable=False),
)

online_shoes = sa.Table(
    "online_shoes",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("table_id", sa.String(64), nullable=False, index=True),
    sa.Column("server_seed", sa.String(64), nullable=False),
    sa.Column("rules", sa.JSON, nullable=False),
    sa.Column("client_seeds", sa.JSON, nullable=False),
    sa.Column("sealed", sa.Boolean, nullable=False),
    sa.Column("finished", sa.Boolean, nullable=False),
)
