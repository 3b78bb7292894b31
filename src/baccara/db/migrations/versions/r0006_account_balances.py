"""What a bet reads no longer grows with the player's history.

Each account keeps its balance, ``table_accounts.balance``, moved in the transaction
that posts its entries (a player's thousandth bet read a thousand entries to find the
balance). A balance is still the sum of the account's entries: the column starts as
that sum, and `baccara.db.books.check_invariants` checks that they agree. And a round's
bets are indexed by round and player (``ix_bets_round_account``, in place of the round
alone), so the sum a player has on each bet of a round (the limits) reads that round's
bets of that player, not every bet the player ever made.

Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"


def upgrade() -> None:
    op.add_column(
        "table_accounts",
        sa.Column("balance", sa.BigInteger, nullable=False, server_default="0"),
    )
    op.execute(
        "UPDATE table_accounts SET balance = COALESCE("
        "(SELECT SUM(amount) FROM table_entries WHERE account_id = table_accounts.id), 0)"
    )
    op.create_index("ix_bets_round_account", "bets", ["round_id", "account_id"])
    op.drop_index("ix_bets_round", table_name="bets")


def downgrade() -> None:
    op.create_index("ix_bets_round", "bets", ["round_id"])
    op.drop_index("ix_bets_round_account", table_name="bets")
    with op.batch_alter_table("table_accounts") as batch:
        batch.drop_column("balance")
