"""The one posting API: double-entry transactions over the one schema.

The terminal store (`baccara.db.store.Store`) and the online table's ledger
(`baccara.db.ledger.Ledger`) post money only through `post` and `post_many`: a
transaction whose entries (account id, signed minor units) sum to zero. Entries are
only ever inserted (the database refuses updates and deletes); a balance is the sum of
an account's entries, kept in the account's row (``balance``) by the transaction that
posts them, so reading it costs the same however long the account's history.
`check_invariants` lists every broken money rule in words.

>>> from baccara.db.database import database_at, writing
>>> from baccara.db.migrate import upgrade
>>> database = database_at("sqlite://")
>>> _ = upgrade(database)
>>> with writing(database) as conn:
...     ann, cash = account_id(conn, wallet_account("ann")), account_id(conn, EXTERNAL)
...     _ = post(conn, "deposit ann", {cash: -1_000, ann: 1_000})
...     balances(conn, [ann, cash])
{1: 1000, 2: -1000}
>>> with writing(database) as conn:
...     post(conn, "gift", {ann: -1_500, cash: 1_500})
Traceback (most recent call last):
...
baccara.db.books.LedgerError: wallet:ann has 10.00: it cannot pay 15.00 (gift)
>>> with database.connect() as conn:
...     check_invariants(conn)
[]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql
from sqlalchemy.engine import Connection

from baccara.db.schema import RoundPhase, accounts, bets, entries, rounds, transactions
from baccara.money import format_money

__all__ = [
    "EXTERNAL",
    "HOUSE",
    "AccountKind",
    "LedgerError",
    "Posting",
    "account_id",
    "account_ids",
    "account_kind",
    "balances",
    "check_invariants",
    "post",
    "post_many",
    "seat_account",
    "wallet_account",
]

HOUSE = "house"
"""The house's account: what it wins and loses at every table."""
EXTERNAL = "external"
"""Money from and to the outside world (deposits and withdrawals)."""


class LedgerError(ValueError):
    """A posting (or another ledger operation) refused; nothing changed."""


class AccountKind(StrEnum):
    """What an account is; only the house and the outside world may go negative."""

    EXTERNAL = "external"
    HOUSE = "house"
    WALLET = "wallet"
    SEAT = "seat"
    ESCROW = "escrow"  # one per round of the online table


MAY_GO_NEGATIVE = (AccountKind.HOUSE.value, AccountKind.EXTERNAL.value)


def wallet_account(player: str) -> str:
    """The name of ``player``'s wallet account: ``'wallet:ann'``."""
    return f"wallet:{player}"


def seat_account(session: int, seat: int) -> str:
    """The name of the account of ``seat`` at ``session``: its stack plus its bets."""
    return f"seat:{session}:{seat}"


def account_kind(name: str) -> AccountKind:
    """The kind of account ``name`` (``house``, ``external``, ``wallet:…``, ``seat:…``, ``escrow:…``).

    >>> account_kind("wallet:ann"), account_kind("house")
    (<AccountKind.WALLET: 'wallet'>, <AccountKind.HOUSE: 'house'>)
    """
    try:
        return AccountKind(name.split(":", 1)[0])
    except ValueError:
        raise LedgerError(
            f"bad account name {name!r}: expected house, external, wallet:…, seat:… or escrow:…"
        ) from None


@dataclass(frozen=True, slots=True, kw_only=True)
class Posting:
    """One transaction to post: ``moves`` by account id, summing to zero, at time ``at``
    (None: now by the system clock)."""

    memo: str
    moves: Mapping[int, int]
    session: int | None = None
    event_seq: int | None = None
    at: datetime | None = None


_ACCOUNT = sa.select(accounts.c.id).where(accounts.c.name == sa.bindparam("name"))
_INSERT_ACCOUNT = accounts.insert()


def account_id(conn: Connection, name: str) -> int:
    """The id of account ``name``, inserted if missing, inside ``conn``'s transaction."""
    kind = account_kind(name)
    found = conn.execute(_ACCOUNT, {"name": name}).scalar()
    if found is None:
        key = conn.execute(
            _INSERT_ACCOUNT, {"name": name, "kind": kind.value, "created_at": datetime.now(UTC)}
        ).inserted_primary_key
        assert key is not None
        found = key[0]
    return int(found)


def account_ids(conn: Connection, names: Iterable[str]) -> dict[str, int]:
    """The ids of accounts by name, those missing inserted."""
    names = list(names)
    rows = conn.execute(
        sa.select(accounts.c.name, accounts.c.id).where(accounts.c.name.in_(names))
    ).all()
    ids = {str(name): int(key) for name, key in rows}
    for name in names:
        if name not in ids:
            ids[name] = account_id(conn, name)
    return ids


def among(column: sa.ColumnElement[Any], name: str, *, postgres: bool) -> sa.ColumnElement[bool]:
    """``column`` is one of the list bound as ``name``: an expanding ``IN`` on SQLite, ``=
    ANY`` of one array on PostgreSQL, where the statement's text then never changes with
    the list's length, so psycopg prepares it once per connection."""
    if postgres:
        return column == sa.any_(sa.bindparam(name, type_=postgresql.ARRAY(column.type)))
    return column.in_(sa.bindparam(name, expanding=True))


def on_postgres(conn: Connection) -> bool:
    """Whether ``conn`` is a PostgreSQL connection (the statements built for it differ)."""
    return conn.dialect.name == "postgresql"


_BALANCES = {
    pg: sa.select(accounts.c.id, accounts.c.balance).where(among(accounts.c.id, "ids", postgres=pg))
    for pg in (False, True)
}


def balances(conn: Connection, ids: Iterable[int]) -> dict[int, int]:
    """The balances of accounts by id (0 for an unknown account), in one query."""
    found = dict.fromkeys(ids, 0)
    found.update(
        (int(account), int(total))
        for account, total in conn.execute(_BALANCES[on_postgres(conn)], {"ids": list(found)})
    )
    return found


def post(
    conn: Connection,
    memo: str,
    moves: Mapping[int, int],
    *,
    session: int | None = None,
    event_seq: int | None = None,
    check_overdraft: bool = True,
    at: datetime | None = None,
) -> int:
    """Post one balanced transaction inside ``conn``'s transaction; return its id.

    Refused (`LedgerError`, nothing written) if an amount is not whole minor units,
    the amounts do not sum to zero, or (``check_overdraft``) an account that may not go
    negative (a wallet, a seat, an escrow) would.
    """
    posting = Posting(memo=memo, moves=moves, session=session, event_seq=event_seq, at=at)
    _check(posting)
    if check_overdraft:
        _refuse_overdraft(conn, posting)
    (txn,) = post_many(conn, [posting])
    return txn


_INSERT_TRANSACTIONS = transactions.insert().returning(
    transactions.c.id, sort_by_parameter_order=True
)
_INSERT_ENTRIES = entries.insert()
_MOVE_BALANCE = (
    accounts.update()
    .where(accounts.c.id == sa.bindparam("account"))
    .values(balance=accounts.c.balance + sa.bindparam("delta"))
)


def post_many(conn: Connection, postings: Sequence[Posting]) -> list[int]:
    """Post many balanced transactions in two statements; return their ids, in order.

    The caller has checked that no account goes negative (the ledger does, under the
    lock that serialises each account's bets).
    """
    for posting in postings:
        _check(posting)
    now = datetime.now(UTC)
    rows: list[dict[str, object]] = [
        {"memo": p.memo[:200], "created_at": p.at or now} for p in postings
    ]
    if any(p.session is not None or p.event_seq is not None for p in postings):
        for row, p in zip(rows, postings, strict=True):
            row.update(session_id=p.session, event_seq=p.event_seq)
    if len(rows) == 1:
        key = conn.execute(transactions.insert(), rows[0]).inserted_primary_key
        assert key is not None
        ids = [int(key[0])]
    else:  # executemany: one multi-row INSERT, compiled once, ids in order
        ids = [int(txn) for txn in conn.execute(_INSERT_TRANSACTIONS, rows).scalars()]
    legs = [
        {"transaction_id": txn, "account_id": account, "amount": amount}
        for txn, posting in zip(ids, postings, strict=True)
        for account, amount in posting.moves.items()
        if amount
    ]
    if legs:
        conn.execute(_INSERT_ENTRIES, legs)
        moved: dict[int, int] = {}
        for leg in legs:
            moved[leg["account_id"]] = moved.get(leg["account_id"], 0) + leg["amount"]
        # in account order, as every transaction takes the rows' locks: no deadlock
        conn.execute(_MOVE_BALANCE, [{"account": a, "delta": d} for a, d in sorted(moved.items())])
    return ids


def _check(posting: Posting) -> None:
    for account, amount in posting.moves.items():
        if isinstance(amount, bool) or not isinstance(amount, int):
            raise LedgerError(
                f"bad amount {amount!r} for account {account}: whole minor units only"
            )
    if (total := sum(posting.moves.values())) != 0:
        raise LedgerError(f"unbalanced transaction {posting.memo!r}: entries sum to {total}")


def _refuse_overdraft(conn: Connection, posting: Posting) -> None:
    paying = [account for account, amount in posting.moves.items() if amount < 0]
    if not paying:
        return
    guarded = {
        int(key): str(name)
        for key, name in conn.execute(
            sa.select(accounts.c.id, accounts.c.name).where(
                accounts.c.id.in_(paying), accounts.c.kind.not_in(MAY_GO_NEGATIVE)
            )
        )
    }
    if not guarded:
        return
    have = balances(conn, guarded)
    for account, name in guarded.items():
        if have[account] + posting.moves[account] < 0:
            raise LedgerError(
                f"{name} has {format_money(have[account])}: "
                f"it cannot pay {format_money(-posting.moves[account])} ({posting.memo})"
            )


def check_invariants(conn: Connection) -> list[str]:
    """Every broken money invariant, in words (empty when the books are right).

    All entries sum to 0, and so does each transaction; no wallet, seat or escrow is
    negative; each account keeps the sum of its entries; no bet, settlement or refund is
    posted twice; every finished round's
    escrow is empty; a bet's status agrees with its round's phase.
    """
    problems: list[str] = []
    total = conn.execute(sa.select(sa.func.coalesce(sa.func.sum(entries.c.amount), 0)))
    if (value := int(total.scalar_one())) != 0:
        problems.append(f"all entries sum to {value}, not 0")
    unbalanced = conn.execute(
        sa.select(entries.c.transaction_id, sa.func.sum(entries.c.amount))
        .group_by(entries.c.transaction_id)
        .having(sa.func.sum(entries.c.amount) != 0)
    ).all()
    problems.extend(f"transaction {t} sums to {s}" for t, s in unbalanced)
    negative = conn.execute(
        sa.select(accounts.c.name, sa.func.sum(entries.c.amount))
        .join(entries, entries.c.account_id == accounts.c.id)
        .where(accounts.c.kind.not_in(MAY_GO_NEGATIVE))
        .group_by(accounts.c.name)
        .having(sa.func.sum(entries.c.amount) < 0)
    ).all()
    problems.extend(f"account {n} is negative ({s})" for n, s in negative)
    summed = (
        sa.select(sa.func.coalesce(sa.func.sum(entries.c.amount), 0))
        .where(entries.c.account_id == accounts.c.id)
        .scalar_subquery()
    )
    drifted = conn.execute(
        sa.select(accounts.c.name, accounts.c.balance, summed).where(accounts.c.balance != summed)
    ).all()
    problems.extend(f"account {n} keeps {b}, its entries sum to {s}" for n, b, s in drifted)
    once = ("settle %", "refund %", "bet %")
    twice = conn.execute(
        sa.select(transactions.c.memo, sa.func.count())
        .where(sa.or_(*(transactions.c.memo.like(pattern) for pattern in once)))
        .group_by(transactions.c.memo)
        .having(sa.func.count() > 1)
    ).all()
    problems.extend(f"{r} posted {c} times" for r, c in twice)
    escrow = sa.select(sa.func.coalesce(sa.func.sum(entries.c.amount), 0)).where(
        entries.c.account_id == rounds.c.escrow_id
    )
    finished = conn.execute(
        sa.select(rounds.c.id, escrow.scalar_subquery()).where(
            rounds.c.phase.in_([RoundPhase.SETTLED, RoundPhase.VOIDED])
        )
    ).all()
    problems.extend(f"round {r} escrow holds {v}" for r, v in finished if v)
    stray = conn.execute(
        sa.select(bets.c.id, bets.c.status, rounds.c.phase)
        .join(rounds, rounds.c.id == bets.c.round_id)
        .where(
            sa.or_(
                sa.and_(
                    bets.c.status == "placed",
                    rounds.c.phase.in_([RoundPhase.SETTLED, RoundPhase.VOIDED]),
                ),
                sa.and_(
                    bets.c.status != "placed",
                    rounds.c.phase.in_([RoundPhase.OPEN, RoundPhase.CLOSED]),
                ),
            )
        )
    ).all()
    problems.extend(f"bet {b} is {s} in a round {p}" for b, s, p in stray)
    unpaid = conn.execute(
        sa.select(sa.func.count())
        .select_from(bets)
        .where(bets.c.status == "settled", bets.c.returned.is_(None))
    ).scalar_one()
    if unpaid:
        problems.append(f"{unpaid} settled bets have no return")
    return problems
