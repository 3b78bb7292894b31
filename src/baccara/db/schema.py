"""The one schema: every table of the terminal store and the online table.

The tables are created and changed only by the Alembic migrations
(``baccara/db/migrations``, applied by `baccara.db.migrate.upgrade`), which also add
the triggers that make ``table_entries``, ``table_events`` and ``skill_actions``
append-only (`APPEND_ONLY`), and ``audit_log`` (revision 0010). This
module is the schema as the code sees it; a test checks that it matches the head
revision.

Money (minor units, `BigInteger`):

- ``table_accounts``: the house, the outside world, wallets, seats, round escrows.
- ``table_transactions`` and ``table_entries``: double entry; a transaction's entries
  sum to zero (`baccara.db.books.post`).

The terminal store: ``table_sessions``, ``table_shoes``, ``table_events``,
``table_seats``, ``table_hands``. The online table: ``rounds``, ``bets``,
``round_settlements``, ``online_shoes``, ``web_users``, ``web_sessions``; the players'
games online add ``skill_actions`` (every decision of a shoe, in order, with a Banque
stake's tableau); the Learn section's drills keep each player's record in
``drill_records``, and each player's responsible-play limits are in ``play_limits``.

The staff: a ``web_users`` row with a ``role`` (`baccara.db.staff.Role`; a player's is
null), and every staff action in ``audit_log``, chained by hashes
(`baccara.db.audit`). The cashier's deposits and withdrawals are in ``cashier_moves``
(`baccara.db.cashier`), and a player's limits over a period (deposits over 24 hours, 7
and 30 days; losses over 7 and 30 days) in ``period_limits``.
The tables the server runs are rows of ``tables``, and the
operator's stops of play rows of ``play_stops`` (`baccara.db.table_list`). Every change
to a player's protections is kept in ``limit_changes``, the staff's notes on a player
in ``player_notes`` (append-only) and the markers of harm a scan raised in ``alerts``
(`baccara.db.people`, `baccara.db.alerts`).

>>> sorted(metadata.tables)[:3]
['alerts', 'audit_log', 'bets']
"""

from __future__ import annotations

import sqlalchemy as sa

__all__ = [
    "APPEND_ONLY",
    "RoundPhase",
    "accounts",
    "alerts",
    "audit_log",
    "bets",
    "cashier_moves",
    "drill_records",
    "entries",
    "events",
    "game_tables",
    "hands",
    "hold_rollup",
    "hold_shoes",
    "limit_changes",
    "metadata",
    "online_shoes",
    "period_limits",
    "play_limits",
    "play_stops",
    "player_notes",
    "round_resolutions",
    "rounds",
    "seats",
    "session_revocations",
    "sessions",
    "settlements",
    "shoes",
    "skill_actions",
    "transactions",
    "users",
    "web_sessions",
]

APPEND_ONLY = ("table_entries", "table_events", "skill_actions", "audit_log", "player_notes")
"""Tables whose rows the database refuses to update or delete (triggers)."""

metadata = sa.MetaData()

# -- money --------------------------------------------------------------------------------

accounts = sa.Table(
    "table_accounts",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("name", sa.String(200), nullable=False, unique=True),
    sa.Column("kind", sa.String(20), nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    # the sum of the account's entries, moved with them (revision 0006)
    sa.Column("balance", sa.BigInteger, nullable=False, server_default="0"),
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
sa.Index("ix_table_transactions_created_at", transactions.c.created_at)  # periods (0014)

# -- the terminal store: sessions, shoes, events, seats, hands ----------------------------

sessions = sa.Table(
    "table_sessions",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("name", sa.String(200), nullable=False),
    sa.Column("variant", sa.String(50), nullable=False),
    # the table's settings (a players' game: its set-up); the column keeps its old name
    sa.Column("rules", sa.JSON, nullable=False),
    sa.Column("seed", sa.BigInteger, nullable=True),
    sa.Column("house", sa.BigInteger, nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("closed", sa.Boolean, nullable=False, default=False),
)
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

# -- the online table: rounds, bets, settlements, shoes, users ----------------------------

rounds = sa.Table(
    "rounds",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("table_id", sa.String(64), nullable=False),
    sa.Column("number", sa.Integer, nullable=False),
    sa.Column("shoe_id", sa.Integer, nullable=True),
    sa.Column("coup_index", sa.Integer, nullable=False),
    sa.Column("phase", sa.String(12), nullable=False),
    sa.Column("escrow_id", sa.Integer, sa.ForeignKey(accounts.c.id), nullable=False),
    sa.Column("closes_at", sa.Float, nullable=True),
    sa.Column("coup", sa.String(64), nullable=True),
    sa.UniqueConstraint("table_id", "number", name="uq_rounds_table_number"),
)
settlements = sa.Table(
    "round_settlements",
    metadata,
    sa.Column("round_id", sa.Integer, sa.ForeignKey("rounds.id"), primary_key=True),
    sa.Column("txn_id", sa.Integer, sa.ForeignKey(transactions.c.id), nullable=False),
    sa.Column("kind", sa.String(8), nullable=False),
)
bets = sa.Table(
    "bets",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("account_id", sa.Integer, sa.ForeignKey(accounts.c.id), nullable=False),
    sa.Column("bet_id", sa.String(64), nullable=False),
    sa.Column("round_id", sa.Integer, sa.ForeignKey("rounds.id"), nullable=False),
    sa.Column("kind", sa.String(24), nullable=False),
    sa.Column("amount", sa.BigInteger, nullable=False),
    sa.Column("txn_id", sa.Integer, sa.ForeignKey(transactions.c.id), nullable=False),
    sa.Column("status", sa.String(10), nullable=False),
    sa.Column("returned", sa.BigInteger, nullable=True),
    sa.UniqueConstraint("account_id", "bet_id", name="uq_bets_account_bet"),
    # a round's bets, and a player's in a round (the limits' sums), whatever the history
    sa.Index("ix_bets_round_account", "round_id", "account_id"),
)
online_shoes = sa.Table(
    "online_shoes",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("table_id", sa.String(64), nullable=False, index=True),
    sa.Column("server_seed", sa.String(64), nullable=False),
    sa.Column("rules", sa.JSON, nullable=False),  # the published rules document (baccara.fair)
    sa.Column("client_seeds", sa.JSON, nullable=False),
    sa.Column("sealed", sa.Boolean, nullable=False),
    sa.Column("finished", sa.Boolean, nullable=False),
    sa.Column("seats", sa.JSON, nullable=True),  # a players' game: names and stacks at start
    sa.Column("seeders", sa.JSON, nullable=True),  # a house shoe: the accounts that gave a seed
    sa.Column("retired", sa.String(200), nullable=True),  # why the house stopped it early
)

skill_actions = sa.Table(
    "skill_actions",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("shoe_id", sa.Integer, sa.ForeignKey("online_shoes.id"), nullable=False),
    sa.Column("seq", sa.Integer, nullable=False),
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("action", sa.String(16), nullable=False),
    sa.Column("amount", sa.BigInteger, nullable=True),
    sa.Column("timed_out", sa.Boolean, nullable=False),
    sa.Column("transaction_id", sa.Integer, sa.ForeignKey(transactions.c.id), nullable=True),
    sa.Column("tableau", sa.String(1), nullable=True),  # Banque: a stake's tableau, L or R
    sa.UniqueConstraint("shoe_id", "seq", name="uq_skill_actions_shoe_seq"),
)
users = sa.Table(
    "web_users",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("name", sa.String(24), nullable=False, unique=True),  # as registered, as shown
    sa.Column("password_hash", sa.String(200), nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    # the name in lower case: one account whatever the case (null: an older case twin)
    sa.Column("name_key", sa.String(24), nullable=True),
    # a staff account's role (`baccara.db.staff.Role`); null: a player (revision 0010)
    sa.Column("role", sa.String(16), nullable=True),
    sa.Index("ix_web_users_name_key", "name_key", unique=True),
    sa.Column("last_login_at", sa.Float, nullable=True),  # epoch seconds (revision 0014)
)
drill_records = sa.Table(  # the Learn section's drills: each player's record
    "drill_records",
    metadata,
    sa.Column("user_id", sa.Integer, sa.ForeignKey("web_users.id"), primary_key=True),
    sa.Column("drill", sa.String(16), primary_key=True),  # tableau, payout
    sa.Column("cell", sa.String(40), primary_key=True),  # what the question asks
    sa.Column("seen", sa.Integer, nullable=False),
    sa.Column("missed", sa.Integer, nullable=False),
)
play_limits = sa.Table(  # a player's protections: their own limits, the house's suspension
    "play_limits",
    metadata,
    sa.Column("user_id", sa.Integer, sa.ForeignKey("web_users.id"), primary_key=True),
    sa.Column("loss_limit", sa.BigInteger, nullable=True),  # a day, minor units
    sa.Column("next_loss_limit", sa.BigInteger, nullable=True),  # a raise or removal asked
    sa.Column("next_from", sa.Float, nullable=True),  # ... and when it takes effect
    sa.Column("reminder_minutes", sa.Integer, nullable=True),
    sa.Column("excluded_until", sa.Float, nullable=True),  # epoch seconds
    # the player's wallet: the statement that takes the player's lock reads these with it
    sa.Column(
        "account_id",
        sa.Integer,
        sa.ForeignKey(accounts.c.id, name="fk_play_limits_account"),
        nullable=True,
    ),
    sa.Column("suspended_until", sa.Float, nullable=True),  # the house's suspension
    sa.Index("ix_play_limits_account", "account_id", unique=True),
)
period_limits = sa.Table(  # a player's limits over a period (revision 0011)
    "period_limits",
    metadata,
    sa.Column("user_id", sa.Integer, sa.ForeignKey("web_users.id"), primary_key=True),
    sa.Column("kind", sa.String(8), primary_key=True),  # deposit, loss
    sa.Column("days", sa.Integer, primary_key=True, autoincrement=False),  # 1, 7, 30
    sa.Column("account_id", sa.Integer, sa.ForeignKey(accounts.c.id), nullable=False),
    sa.Column("amount", sa.BigInteger, nullable=True),  # minor units; null: none
    sa.Column("next_amount", sa.BigInteger, nullable=True),  # a raise or removal asked
    sa.Column("next_from", sa.Float, nullable=True),  # ... and when it takes effect
    sa.Index("ix_period_limits_account", "account_id"),
)
cashier_moves = sa.Table(  # every deposit and withdrawal the cashier booked (revision 0011)
    "cashier_moves",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("reference", sa.String(64), nullable=False),  # books once
    sa.Column("kind", sa.String(12), nullable=False),  # deposit, withdrawal
    sa.Column("user_id", sa.Integer, sa.ForeignKey("web_users.id"), nullable=False),
    sa.Column("account_id", sa.Integer, sa.ForeignKey(accounts.c.id), nullable=False),
    sa.Column("amount", sa.BigInteger, nullable=False),  # minor units, above zero
    sa.Column("txn_id", sa.Integer, sa.ForeignKey(transactions.c.id), nullable=False),
    sa.Column("actor", sa.String(24), nullable=False),  # the operator
    sa.Column("at", sa.Float, nullable=False),  # epoch seconds, the caller's clock
    sa.CheckConstraint("amount > 0", name="cashier_amount_positive"),
    sa.UniqueConstraint("reference", name="uq_cashier_reference"),
    sa.Index("ix_cashier_moves_account_at", "account_id", "at"),
    sa.Index("ix_cashier_moves_at", "at"),  # a day's moves of every player (revision 0014)
)
session_revocations = sa.Table(  # sessions ended early, as events every process reads
    "session_revocations",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("user_id", sa.Integer, sa.ForeignKey("web_users.id"), nullable=False),
    sa.Column("token_hash", sa.String(64), nullable=True),  # None: every session of the user
    sa.Column("at", sa.Float, nullable=False),  # epoch seconds
)
audit_log = sa.Table(  # every staff action, chained by hashes (`baccara.db.audit`)
    "audit_log",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=False),  # 1, 2, ... in order
    sa.Column("at", sa.Float, nullable=False),  # epoch seconds, the caller's clock
    sa.Column("actor", sa.String(24), nullable=False),  # a staff member's name, or "cli"
    sa.Column("role", sa.String(16), nullable=True),  # the actor's role then (None: cli)
    sa.Column("action", sa.String(40), nullable=False),
    sa.Column("target", sa.String(200), nullable=False),
    # the canonical JSON text that was hashed, kept as text: SQLite would read a JSON
    # column's "1.0" as the number 1, and the entry would no longer match its hash
    sa.Column("before", sa.Text, nullable=False),
    sa.Column("after", sa.Text, nullable=False),
    sa.Column("prev_hash", sa.String(64), nullable=False),
    sa.Column("hash", sa.String(64), nullable=False),
)
game_tables = sa.Table(  # the tables the server runs (`baccara.db.table_list`)
    "tables",
    metadata,
    sa.Column("id", sa.String(40), primary_key=True),
    sa.Column("variant", sa.String(40), nullable=False),  # as --tables names it
    sa.Column("squeeze", sa.Boolean, nullable=False),
    sa.Column("state", sa.String(8), nullable=False),  # open, paused, closed
    # limits (minor units) and timings (seconds); null: the server's configuration
    sa.Column("minimum", sa.BigInteger, nullable=True),
    sa.Column("maximum", sa.BigInteger, nullable=True),
    sa.Column("bet_seconds", sa.Float, nullable=True),
    sa.Column("decision_seconds", sa.Float, nullable=True),
    sa.Column("result_seconds", sa.Float, nullable=True),
    sa.Column("updated_at", sa.Float, nullable=False),  # epoch seconds
)
play_stops = sa.Table(  # play stopped by the operator: "all", or a game family
    "play_stops",
    metadata,
    sa.Column("scope", sa.String(40), primary_key=True),
    sa.Column("updated_at", sa.Float, nullable=False),
)
hold_rollup = sa.Table(  # settled spots summed by kind and stake band (revision 0013)
    "hold_rollup",
    metadata,
    sa.Column("table_id", sa.String(64), primary_key=True),
    sa.Column("variant", sa.String(40), primary_key=True),
    sa.Column("kind", sa.String(24), primary_key=True),
    sa.Column("band", sa.BigInteger, primary_key=True, autoincrement=False),  # a stake band's floor
    sa.Column("day", sa.Date, primary_key=True),  # UTC, of the settlement
    # rounds counted once per round and kind, once per round and band
    sa.Column("kind_rounds", sa.Integer, nullable=False),
    sa.Column("band_rounds", sa.Integer, nullable=False),
    sa.Column("bets", sa.Integer, nullable=False),
    sa.Column("handle", sa.BigInteger, nullable=False),  # minor units staked
    sa.Column("win", sa.BigInteger, nullable=False),  # the house's: staked less returned
    sa.Column("theo", sa.Float, nullable=False),  # its exact expectation (minor units)
    # the variance of the win: of these spots, of each round's spots on the kind, in the band
    sa.Column("variance", sa.Float, nullable=False),
    sa.Column("var_kind", sa.Float, nullable=False),
    sa.Column("var_band", sa.Float, nullable=False),
    sa.Index("ix_hold_rollup_day", "day"),
)
hold_shoes = sa.Table(  # settled rounds summed by shoe (revision 0013)
    "hold_shoes",
    metadata,
    sa.Column("table_id", sa.String(64), primary_key=True),
    sa.Column("variant", sa.String(40), primary_key=True),
    sa.Column("shoe_id", sa.Integer, primary_key=True, autoincrement=False),  # 0: none
    sa.Column("day", sa.Date, primary_key=True),
    sa.Column("rounds", sa.Integer, nullable=False),
    sa.Column("bets", sa.Integer, nullable=False),
    sa.Column("handle", sa.BigInteger, nullable=False),
    sa.Column("win", sa.BigInteger, nullable=False),
    sa.Column("theo", sa.Float, nullable=False),
    sa.Column("var_round", sa.Float, nullable=False),  # the rounds' variances, summed
    sa.Index("ix_hold_shoes_day", "day"),
)
round_resolutions = sa.Table(  # how each round voided or settled after a restart ended
    "round_resolutions",
    metadata,
    sa.Column("round_id", sa.Integer, sa.ForeignKey("rounds.id"), primary_key=True),
    sa.Column("table_id", sa.String(64), nullable=False),
    sa.Column("day", sa.Date, nullable=True),  # UTC (null: no time known)
    sa.Column("at", sa.Float, nullable=True),  # epoch seconds, the caller's clock
    sa.Column(
        "resolution", sa.String(24), nullable=False
    ),  # voided, refunded, settled_after_restart
    sa.Column("reason", sa.String(200), nullable=False),
    sa.Column("bets", sa.Integer, nullable=False),
    sa.Column("handle", sa.BigInteger, nullable=False),
    sa.Index("ix_round_resolutions_day", "day"),
)
limit_changes = sa.Table(  # every change to a player's protections (revision 0014)
    "limit_changes",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("user_id", sa.Integer, sa.ForeignKey("web_users.id"), nullable=False),
    sa.Column("at", sa.Float, nullable=False),  # epoch seconds, the caller's clock
    sa.Column("actor", sa.String(24), nullable=False),  # the player, a staff member, "cli"
    # loss, deposit, reminder, exclusion, suspension (`baccara.db.people.ChangeKind`)
    sa.Column("kind", sa.String(12), nullable=False),
    sa.Column("days", sa.Integer, nullable=True),  # a limit's period: 1, 7, 30
    sa.Column("amount", sa.BigInteger, nullable=True),  # in force after the change
    sa.Column("next_amount", sa.BigInteger, nullable=True),  # a raise or removal asked
    sa.Column("next_from", sa.Float, nullable=True),  # ... and when it takes effect
    sa.Column("until", sa.Float, nullable=True),  # an exclusion's or suspension's end
    sa.Column("raised", sa.Boolean, nullable=False),  # a raise or removal was asked
    sa.Index("ix_limit_changes_user_at", "user_id", "at"),
    sa.Index("ix_limit_changes_at", "at"),
)
player_notes = sa.Table(  # the staff's notes on a player, append-only (revision 0014)
    "player_notes",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("user_id", sa.Integer, sa.ForeignKey("web_users.id"), nullable=False),
    sa.Column("at", sa.Float, nullable=False),
    sa.Column("actor", sa.String(24), nullable=False),
    sa.Column("role", sa.String(16), nullable=True),
    sa.Column("text", sa.String(2000), nullable=False),
    sa.Index("ix_player_notes_user_at", "user_id", "at"),
)
alerts = sa.Table(  # markers of harm a scan raised (`baccara.db.alerts`, revision 0014)
    "alerts",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("marker", sa.String(24), nullable=False),
    sa.Column("subject", sa.String(64), nullable=False),  # a player's name or a table's id
    sa.Column("day", sa.String(10), nullable=False),  # the UTC day, 2026-11-28
    sa.Column("raised_at", sa.Float, nullable=False),
    sa.Column("summary", sa.String(200), nullable=False),
    sa.Column("evidence", sa.Text, nullable=False),  # JSON: the rows that raised it
    sa.Column("acknowledged_at", sa.Float, nullable=True),
    sa.Column("acknowledged_by", sa.String(24), nullable=True),
    sa.UniqueConstraint("marker", "subject", "day", name="uq_alerts_marker_subject_day"),
    sa.Index("ix_alerts_day", "day"),
)
web_sessions = sa.Table(
    "web_sessions",
    metadata,
    sa.Column("token_hash", sa.String(64), primary_key=True),
    sa.Column("user_id", sa.Integer, sa.ForeignKey("web_users.id"), nullable=False),
    sa.Column("expires", sa.Float, nullable=False),
)


class RoundPhase:
    """A round's phase in the database (plain strings)."""

    OPEN = "open"
    CLOSED = "closed"
    SETTLED = "settled"
    VOIDED = "voided"
