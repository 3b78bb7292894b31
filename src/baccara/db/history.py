"""A player's own history at the online tables: every movement of their wallet with its
round, the rounds they bet on with their bets and payouts, and their win or loss since
a moment (a session's start). Reads only; the ledger writes.

>>> from baccara.db.ledger import Ledger, wallet_account
>>> book = Ledger.connect("sqlite://")
>>> ann = book.create_account(wallet_account("ann"))
>>> _ = book.deposit(ann, 10_000, ref="welcome")
>>> r = book.open_round(table="t1", number=1, shoe_id=None, coup_index=1)
>>> _ = book.place_bet(account=ann, round_id=r, bet_id="b1", kind="banker", amount=1_000)
>>> history = PlayerHistory(book.database)
>>> [(m["what"], m["amount"], m["round"]) for m in history.movements(ann)]
[('Bet on banker', -1000, 1), ('Deposit', 10000, None)]
>>> history.rounds(ann)[0]["bets"]
[{'kind': 'banker', 'amount': 1000, 'returned': None, 'status': 'placed'}]
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from baccara.db.schema import bets, entries, rounds, settlements, transactions

__all__ = ["STATEMENT_ROWS", "PlayerHistory"]

_BET_ROUND = bets.alias("bet_round")

STATEMENT_ROWS = 10_000
"""The most movements one statement lists."""


class PlayerHistory:
    """What a player may see of their own money and rounds."""

    def __init__(self, database: Engine) -> None:
        self.database = database

    def movements(
        self, account: int, *, limit: int = 50, before: int | None = None
    ) -> list[dict[str, Any]]:
        """The wallet's movements, newest first (``before``: older than this entry id),
        each with the table and round it belongs to, if any."""
        query = _movements(account).order_by(entries.c.id.desc()).limit(max(1, min(limit, 200)))
        if before is not None:
            query = query.where(entries.c.id < before)
        with self.database.connect() as conn:
            return [_movement(row) for row in conn.execute(query)]

    def statement(
        self, account: int, start: datetime, end: datetime, *, limit: int = STATEMENT_ROWS
    ) -> list[dict[str, Any]]:
        """The wallet's movements from ``start`` (included) to ``end`` (excluded), oldest
        first, at most ``limit`` of them (a statement: `movements`' fields)."""
        query = (
            _movements(account)
            .where(transactions.c.created_at >= start, transactions.c.created_at < end)
            .order_by(entries.c.id)
            .limit(limit)
        )
        with self.database.connect() as conn:
            return [_movement(row) for row in conn.execute(query)]

    def rounds(self, account: int, *, limit: int = 10) -> list[dict[str, Any]]:
        """The last ``limit`` rounds the player bet on, newest first: the table, the
        round's number and coup, and each of the player's bets with what came back."""
        recent = (
            sa.select(bets.c.round_id)
            .where(bets.c.account_id == account)
            .group_by(bets.c.round_id)
            .order_by(bets.c.round_id.desc())
            .limit(max(1, min(limit, 50)))
        ).subquery()
        query = (
            sa.select(
                rounds.c.id,
                rounds.c.table_id,
                rounds.c.number,
                rounds.c.phase,
                rounds.c.coup,
                bets.c.kind,
                bets.c.amount,
                bets.c.returned,
                bets.c.status,
            )
            .select_from(rounds.join(bets, bets.c.round_id == rounds.c.id))
            .where(rounds.c.id.in_(sa.select(recent.c.round_id)), bets.c.account_id == account)
            .order_by(rounds.c.id.desc(), bets.c.id)
        )
        found: dict[int, dict[str, Any]] = {}
        with self.database.connect() as conn:
            for row in conn.execute(query):
                one = found.setdefault(
                    int(row.id),
                    {
                        "table": row.table_id,
                        "round": int(row.number),
                        "phase": row.phase,
                        "coup": row.coup,
                        "bets": [],
                    },
                )
                one["bets"].append(
                    {
                        "kind": row.kind,
                        "amount": int(row.amount),
                        "returned": None if row.returned is None else int(row.returned),
                        "status": row.status,
                    }
                )
        return list(found.values())

    def since(self, account: int, start: datetime) -> dict[str, int]:
        """What the player staked and got back on the bets placed since ``start`` (the
        bets still in play count as staked)."""
        query = (
            sa.select(
                sa.func.coalesce(sa.func.sum(bets.c.amount), 0),
                sa.func.coalesce(sa.func.sum(bets.c.returned), 0),
                sa.func.count(),
            )
            .select_from(bets.join(transactions, transactions.c.id == bets.c.txn_id))
            .where(bets.c.account_id == account, transactions.c.created_at >= start)
        )
        with self.database.connect() as conn:
            staked, returned, count = conn.execute(query).one()
        return {"bets": int(count), "staked": int(staked), "returned": int(returned),
                "net": int(returned) - int(staked)}  # fmt: skip


def _movements(account: int) -> sa.Select[Any]:
    """The wallet's movements with their table and round, unordered."""
    round_id = sa.func.coalesce(_BET_ROUND.c.round_id, settlements.c.round_id)
    return (
        sa.select(
            entries.c.id,
            transactions.c.created_at,
            transactions.c.memo,
            entries.c.amount,
            rounds.c.table_id,
            rounds.c.number,
            _BET_ROUND.c.kind,
        )
        .select_from(
            entries.join(transactions, transactions.c.id == entries.c.transaction_id)
            .outerjoin(
                _BET_ROUND,
                sa.and_(
                    _BET_ROUND.c.txn_id == transactions.c.id,
                    _BET_ROUND.c.account_id == account,
                ),
            )
            .outerjoin(settlements, settlements.c.txn_id == transactions.c.id)
            .outerjoin(rounds, rounds.c.id == round_id)
        )
        .where(entries.c.account_id == account)
    )


def _movement(row: sa.Row[Any]) -> dict[str, Any]:
    return {
        "id": int(row.id),
        "time": _stamp(row.created_at),
        "memo": row.memo,
        "what": _what(row.memo, row.kind, int(row.amount)),
        "amount": int(row.amount),
        "table": row.table_id,
        "round": None if row.number is None else int(row.number),
    }


def _what(memo: str, kind: str | None, amount: int) -> str:
    """A movement in words: ``'Bet on banker'``, ``'Round paid'``, ``'Deposit'``."""
    head = memo.split(" ", 1)[0]
    if head == "bet" and kind:
        return f"Bet on {kind.replace('_', ' ')}"
    if head == "settle":
        return "Round paid" if amount > 0 else "Round settled"
    if head == "refund":
        return "Round voided: stakes back"
    return head.replace("_", " ").capitalize()


def _stamp(moment: datetime) -> float:
    """Seconds since the epoch (SQLite gives back naive UTC)."""
    return (moment if moment.tzinfo else moment.replace(tzinfo=UTC)).timestamp()
