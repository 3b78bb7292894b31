"""The online table's money: a double-entry ledger, bets keyed by id, rounds settled once.

Every movement of money is a *transaction* whose *entries* (account, signed amount in
minor units) sum to zero. Entries are only ever inserted; a balance is the sum of an
account's entries. A bet is one database transaction (round open, balance check,
debit to the round's escrow) keyed by the player's own bet id; a round is settled
once (a unique row per round), moving the escrow to the players and the house.

SQLite runs in WAL mode with ``synchronous=FULL`` and ``BEGIN IMMEDIATE`` write
transactions; PostgreSQL uses row locks (``FOR UPDATE`` on the player's account and
``FOR SHARE`` on the round) with retries on serialization failures and deadlocks.

>>> ledger = Ledger.connect("sqlite://")
>>> ann = ledger.create_account(wallet_account("ann"))
>>> _ = ledger.deposit(ann, 10_000, ref="welcome:ann")
>>> rnd = ledger.open_round(table="t1", number=1, shoe_id=None, coup_index=1)
>>> ledger.place_bet(account=ann, round_id=rnd, bet_id="b1", kind="banker", amount=2_500).balance
7500
>>> ledger.place_bet(account=ann, round_id=rnd, bet_id="b1", kind="banker", amount=2_500).duplicate
True
>>> ledger.close_round(rnd)
>>> from baccara.coup import Coup
>>> ledger.settle_round(rnd, Coup.parse("P:6h,Kd B:7s,Kc"), "punto-banco")
True
>>> ledger.balance(ann), ledger.check_invariants()
(12375, [])
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, TypeVar

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import DBAPIError, IntegrityError, OperationalError

from baccara.bets import BetKind, Settlement, settle
from baccara.coup import Coup
from baccara.db import store
from baccara.db.store import EXTERNAL, HOUSE, AccountKind, wallet_account
from baccara.table.events import money
from baccara.variants import find_variant

__all__ = [
    "MAX_AMOUNT",
    "BetError",
    "BetReceipt",
    "Ledger",
    "LedgerError",
    "RoundPhase",
    "metadata",
    "normalize_url",
    "wallet_account",
]

MAX_AMOUNT = 10**12
"""No single amount may exceed this many minor units (ten billion major units)."""

# The ledger's accounts, transactions and entries are the store's (append-only entries);
# the online table adds its rounds, bets and settlements to the same schema.
accounts = store.accounts
transactions = store.transactions
entries = store.entries
metadata = store.metadata
_MAY_GO_NEGATIVE = (AccountKind.HOUSE.value, AccountKind.EXTERNAL.value)

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
    sa.Index("ix_bets_round", "round_id"),
)


class RoundPhase:
    """A round's phase in the database (plain strings)."""

    OPEN = "open"
    CLOSED = "closed"
    SETTLED = "settled"
    VOIDED = "voided"


class LedgerError(ValueError):
    """A ledger operation refused; nothing changed."""


class BetError(LedgerError):
    """A bet refused (bad amount, closed round, short balance, reused id); nothing changed."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code


@dataclass(frozen=True, slots=True, kw_only=True)
class BetReceipt:
    """A placed bet as stored. ``duplicate`` is True when this answers a resend."""

    bet_id: str
    round_id: int
    kind: str
    amount: int
    balance: int
    duplicate: bool
    status: str
    returned: int | None


_T = TypeVar("_T")


def normalize_url(url: str) -> str:
    """Use psycopg 3 for ``postgresql://`` URLs.

    >>> normalize_url("postgresql://u@h/db"), normalize_url("sqlite:///x.db")
    ('postgresql+psycopg://u@h/db', 'sqlite:///x.db')
    """
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def check_amount(amount: object) -> int:
    """A stake must be a positive whole number of minor units below `MAX_AMOUNT`.

    >>> check_amount(2.5)
    Traceback (most recent call last):
    ...
    baccara.db.ledger.BetError: bad amount 2.5: a whole number of minor units (cents) is required
    """
    if isinstance(amount, bool) or not isinstance(amount, int):
        raise BetError(
            "bad_amount",
            f"bad amount {amount!r}: a whole number of minor units (cents) is required",
        )
    if amount <= 0:
        raise BetError("bad_amount", f"bad amount {amount}: it must be positive")
    if amount > MAX_AMOUNT:
        raise BetError("bad_amount", f"bad amount {amount}: at most {MAX_AMOUNT}")
    return amount


class Ledger:
    """The money store over one SQLAlchemy engine (SQLite or PostgreSQL)."""

    def __init__(self, engine: Engine):
        self.engine = engine
        self.postgres = engine.dialect.name == "postgresql"
        # Single reads need no transaction: on PostgreSQL, autocommit spares each one
        # its BEGIN and ROLLBACK round trips.
        self.reader = (
            engine.execution_options(isolation_level="AUTOCOMMIT") if self.postgres else engine
        )
        metadata.create_all(engine)
        self._ids: dict[str, int] = {}
        self.fault: Callable[[str], None] | None = None
        """Test hook: called at named points inside write transactions (crash injection)."""
        self.house = self.create_account(HOUSE)
        self.cashier = self.create_account(EXTERNAL)

    @classmethod
    def connect(cls, url: str) -> Ledger:
        """Open (and create if needed) the ledger at a database URL."""
        return cls(make_engine(url))

    # -- transactions -------------------------------------------------------------------

    def _point(self, name: str) -> None:
        if self.fault is not None:
            self.fault(name)

    @contextmanager
    def _write(self) -> Iterator[Connection]:
        # On SQLite the "begin" hook makes this BEGIN IMMEDIATE: the write lock is taken
        # before the balance is read, so two bets can never both see the same balance.
        with self.engine.connect().execution_options(baccara_write=True) as conn, conn.begin():
            yield conn

    def _retry(self, work: Callable[[Connection], _T]) -> _T:
        """Run ``work`` in one write transaction, retrying lock conflicts."""
        for attempt in range(30):
            try:
                with self._write() as conn:
                    return work(conn)
            except OperationalError as error:
                if not _retryable(error) or attempt == 29:
                    raise
            except DBAPIError as error:
                if not _retryable(error) or attempt == 29:
                    raise
            time.sleep(min(0.002 * 2**attempt, 0.2))
        raise AssertionError("unreachable")  # pragma: no cover

    def _post(self, conn: Connection, kind: str, ref: str, moves: dict[int, int]) -> int:
        """Insert one balanced transaction; return its id."""
        legs = {account: amount for account, amount in moves.items() if amount}
        if sum(legs.values()) != 0:
            raise LedgerError(
                f"unbalanced transaction {ref!r}: entries sum to {sum(legs.values())}"
            )
        memo = f"{kind} {ref}"[:200]
        txn = conn.execute(
            transactions.insert().values(memo=memo, created_at=datetime.now(UTC))
        ).inserted_primary_key
        assert txn is not None
        txn_id = int(txn[0])
        if legs:  # executemany, as in `_post_bets`: compiled once, whatever the count
            conn.execute(
                entries.insert(),
                [{"transaction_id": txn_id, "account_id": a, "amount": v} for a, v in legs.items()],
            )
        return txn_id

    # -- accounts -----------------------------------------------------------------------

    def create_account(self, name: str) -> int:
        """The id of the account ``name`` (``wallet:ann``, ``escrow:t1:7``...), created once."""
        if name in self._ids:
            return self._ids[name]

        def work(conn: Connection) -> int:
            return _account(conn, name)

        try:
            account = self._retry(work)
        except IntegrityError:  # created concurrently by another process
            account = self._retry(work)
        self._ids[name] = account
        return account

    def balance(self, account: int, conn: Connection | None = None) -> int:
        """The balance of ``account``: the sum of its entries."""
        query = sa.select(sa.func.coalesce(sa.func.sum(entries.c.amount), 0)).where(
            entries.c.account_id == account
        )
        if conn is not None:
            return int(conn.execute(query).scalar_one())
        with self.reader.connect() as read:
            return int(read.execute(query).scalar_one())

    def balances(self, accounts: list[int]) -> dict[int, int]:
        """The balances of many accounts in one query."""
        with self.reader.connect() as read:
            return _balances(read, accounts)

    def deposit(self, account: int, amount: int, *, ref: str) -> bool:
        """Credit ``amount`` from the cashier once per ``ref``; False if ``ref`` was done."""
        check_amount(amount)

        def work(conn: Connection) -> bool:
            memo = f"deposit {ref}"[:200]
            if conn.execute(
                sa.select(transactions.c.id).where(transactions.c.memo == memo)
            ).first():
                return False
            self._post(conn, "deposit", ref, {self.cashier: -amount, account: amount})
            return True

        try:
            return self._retry(work)
        except IntegrityError:
            return False

    # -- rounds -------------------------------------------------------------------------

    def open_round(
        self,
        *,
        table: str,
        number: int,
        shoe_id: int | None,
        coup_index: int,
        closes_at: float | None = None,
    ) -> int:
        """Open round ``number`` of ``table`` with its own escrow account; return its id."""

        def work(conn: Connection) -> int:
            escrow = _account(conn, f"escrow:{table}:{number}")
            key = conn.execute(
                rounds.insert().values(
                    table_id=table,
                    number=number,
                    shoe_id=shoe_id,
                    coup_index=coup_index,
                    phase=RoundPhase.OPEN,
                    escrow_id=escrow,
                    closes_at=closes_at,
                )
            ).inserted_primary_key
            assert key is not None
            return int(key[0])

        return self._retry(work)

    def round(self, round_id: int) -> dict[str, Any]:
        """The round's row as a dict."""
        with self.reader.connect() as conn:
            row = conn.execute(sa.select(rounds).where(rounds.c.id == round_id)).mappings().first()
        if row is None:
            raise LedgerError(f"unknown round {round_id}")
        return dict(row)

    def close_round(self, round_id: int, coup: Coup | None = None) -> None:
        """No more bets: move an open round to closed (and store its coup if known)."""

        def work(conn: Connection) -> None:
            values: dict[str, Any] = {"phase": RoundPhase.CLOSED}
            if coup is not None:
                values["coup"] = coup.notation()
            conn.execute(
                rounds.update()
                .where(rounds.c.id == round_id, rounds.c.phase == RoundPhase.OPEN)
                .values(**values)
            )

        self._retry(work)

    def unfinished_rounds(self, table: str | None = None) -> list[dict[str, Any]]:
        """Rounds neither settled nor voided (what start-up recovery looks at)."""
        query = sa.select(rounds).where(rounds.c.phase.in_([RoundPhase.OPEN, RoundPhase.CLOSED]))
        if table is not None:
            query = query.where(rounds.c.table_id == table)
        with self.reader.connect() as conn:
            return [dict(row) for row in conn.execute(query.order_by(rounds.c.id)).mappings()]

    # -- bets ---------------------------------------------------------------------------

    def place_bet(
        self,
        *,
        account: int,
        round_id: int,
        bet_id: str,
        kind: str,
        amount: object,
        minimum: int | None = None,
        maximum: int | None = None,
    ) -> BetReceipt:
        """Place a bet in one transaction: checks, limits, balance, debit to escrow.

        ``minimum`` and ``maximum`` (minor units, optional) are the table's limits for
        ``kind``: the bet must be at least ``minimum``, and the account's total on
        ``kind`` in this round, this bet included, at most ``maximum``. They are checked
        under the lock that serialises the account's bets, so parallel connections
        cannot pass them together.

        A resend of the same ``bet_id`` returns the stored bet (``duplicate``); a
        resend with another amount or kind is refused. A bet id names one bet for good:
        a resend in a later round (after a crash, say) gets the stored bet, with its
        round and its status (``placed``, ``settled`` or ``refunded``).
        """
        request = {
            "account": account,
            "round_id": round_id,
            "bet_id": bet_id,
            "kind": kind,
            "amount": amount,
            "minimum": minimum,
            "maximum": maximum,
        }
        (answer,) = self.place_bets([request])
        if isinstance(answer, BetError):
            raise answer
        return answer

    def place_bets(self, requests: list[dict[str, Any]]) -> list[BetReceipt | BetError]:
        """Place many bets in one transaction (group commit), in order.

        Each request has the keyword arguments of `place_bet`; each answer is its
        receipt or the `BetError` that refused it (a refused bet changes nothing). The
        whole batch costs a fixed handful of statements, however many bets it holds.
        """

        def work(conn: Connection) -> list[BetReceipt | BetError]:
            return self._place(conn, requests)

        try:
            return self._retry(work)
        except IntegrityError:  # the same id raced in from another connection
            return self._retry(work)

    def _place(
        self, conn: Connection, requests: list[dict[str, Any]]
    ) -> list[BetReceipt | BetError]:
        answers: dict[int, BetReceipt | BetError] = {}
        valid: list[tuple[int, int, dict[str, Any]]] = []  # (position, stake, request)
        for n, req in enumerate(requests):
            try:
                valid.append((n, _check_bet(req["bet_id"], req["amount"]), req))
            except BetError as error:
                answers[n] = error
        if valid:
            self._place_valid(conn, valid, answers)
        return [answers[n] for n in range(len(requests))]

    def _place_valid(
        self,
        conn: Connection,
        valid: list[tuple[int, int, dict[str, Any]]],
        answers: dict[int, BetReceipt | BetError],
    ) -> None:
        players = sorted({req["account"] for _, _, req in valid})
        if self.postgres:  # serialize each player's bets (ids in order: no deadlocks)
            # NO KEY UPDATE: settlements' foreign-key checks on these rows need not wait.
            conn.execute(
                sa.select(accounts.c.id)
                .where(accounts.c.id.in_(players))
                .order_by(accounts.c.id)
                .with_for_update(key_share=True)
            )
        stored: dict[tuple[int, str], Any] = {
            (row["account_id"], row["bet_id"]): row
            for row in conn.execute(
                sa.select(bets).where(
                    bets.c.account_id.in_(players),
                    bets.c.bet_id.in_({req["bet_id"] for _, _, req in valid}),
                )
            ).mappings()
        }
        query = sa.select(rounds.c.id, rounds.c.phase, rounds.c.escrow_id).where(
            rounds.c.id.in_({req["round_id"] for _, _, req in valid})
        )
        if self.postgres:  # the round may not close meanwhile
            query = query.with_for_update(read=True)
        found = {row.id: row for row in conn.execute(query)}
        balances = _balances(conn, players)
        staked = _staked(conn, players, [req for _, _, req in valid])
        new: list[tuple[dict[str, Any], int]] = []  # the bet rows to insert, with escrow
        for n, stake, req in valid:
            try:
                receipt = self._decide(req, stake, stored, found, balances, staked)
            except BetError as error:
                answers[n] = error
                continue
            answers[n] = receipt
            if not receipt.duplicate:
                row = {**_bet_row(req, stake), "returned": None}
                stored[req["account"], req["bet_id"]] = row  # a resend later in the batch
                new.append((row, found[req["round_id"]].escrow_id))
        if new:
            self._post_bets(conn, new)
            self._point("bet_debited")

    @staticmethod
    def _decide(
        req: dict[str, Any],
        stake: int,
        stored: dict[tuple[int, str], Any],
        found: dict[int, Any],
        balances: dict[int, int],
        staked: dict[tuple[int, int, str], int],
    ) -> BetReceipt:
        """One bet's answer from what the batch read; debits ``balances`` when placed."""
        account, bet_id, kind = req["account"], req["bet_id"], req["kind"]
        old = stored.get((account, bet_id))
        if old is not None:
            if (old["amount"], old["kind"]) != (stake, kind):
                raise BetError(
                    "bet_id_reused",
                    f"bet id {bet_id!r} was already used for {old['kind']} {old['amount']} "
                    f"in round {old['round_id']}: a new bet needs a new id",
                )
            return _receipt(old, balances[account], duplicate=True)
        round_id = req["round_id"]
        if round_id not in found:
            raise BetError("unknown_round", f"unknown round {round_id}")
        if found[round_id].phase != RoundPhase.OPEN:
            raise BetError(
                "betting_closed", f"no more bets: round {round_id} is {found[round_id].phase}"
            )
        _check_limits(req, stake, staked.get((account, round_id, kind), 0))
        if balances[account] < stake:
            raise BetError(
                "insufficient_funds", f"bet of {stake} is over the balance of {balances[account]}"
            )
        balances[account] -= stake
        staked[account, round_id, kind] = staked.get((account, round_id, kind), 0) + stake
        return _receipt(_bet_row(req, stake), balances[account], duplicate=False)

    def _post_bets(self, conn: Connection, new: list[tuple[dict[str, Any], int]]) -> None:
        """Insert the debits of many bets: their transactions, entries and bet rows."""
        now = datetime.now(UTC)
        txns = conn.execute(
            transactions.insert().returning(transactions.c.id, sort_by_parameter_order=True),
            [
                {"memo": f"bet bet:{row['account_id']}:{row['bet_id']}", "created_at": now}
                for row, _ in new
            ],
        ).scalars()
        legs: list[dict[str, int]] = []
        for (row, escrow), txn in zip(new, txns, strict=True):
            row["txn_id"] = txn
            legs.append(
                {"transaction_id": txn, "account_id": row["account_id"], "amount": -row["amount"]}
            )
            legs.append({"transaction_id": txn, "account_id": escrow, "amount": row["amount"]})
        # executemany: SQLAlchemy sends each as one multi-row INSERT, compiled once.
        conn.execute(entries.insert(), legs)
        conn.execute(bets.insert(), [row for row, _ in new])

    def find_bet(self, account: int, bet_id: str) -> BetReceipt | None:
        """The stored bet ``bet_id`` of ``account``, if any."""
        with self.reader.connect() as conn:
            row = (
                conn.execute(
                    sa.select(bets).where(bets.c.account_id == account, bets.c.bet_id == bet_id)
                )
                .mappings()
                .first()
            )
            return None if row is None else _receipt(row, self.balance(account, conn), True)

    def round_bets(self, round_id: int, account: int | None = None) -> list[dict[str, Any]]:
        """The bets of a round (of one account if given), oldest first."""
        query = sa.select(bets).where(bets.c.round_id == round_id)
        if account is not None:
            query = query.where(bets.c.account_id == account)
        with self.reader.connect() as conn:
            return [dict(row) for row in conn.execute(query.order_by(bets.c.id)).mappings()]

    # -- settlement -----------------------------------------------------------------------

    def settle_round(self, round_id: int, coup: Coup, variant: str) -> bool:
        """Settle every bet of a closed round once; False if it was already settled."""
        rules = find_variant(variant)

        def work(conn: Connection) -> bool:
            row = conn.execute(sa.select(rounds).where(rounds.c.id == round_id)).mappings().first()
            if row is None:
                raise LedgerError(f"unknown round {round_id}")
            if row["phase"] in (RoundPhase.SETTLED, RoundPhase.VOIDED):
                return False
            placed = conn.execute(sa.select(bets).where(bets.c.round_id == round_id)).mappings()
            moves: dict[int, int] = {row["escrow_id"]: 0, self.house: 0}
            results: list[tuple[int, int]] = []
            seen: dict[tuple[str, int], Settlement] = {}  # most bets repeat a kind and amount
            for bet in placed:
                key = (bet["kind"], int(bet["amount"]))
                if (done := seen.get(key)) is None:
                    done = seen[key] = settle(BetKind(key[0]), key[1], coup, rules)
                moves[row["escrow_id"]] -= done.stake
                moves[bet["account_id"]] = moves.get(bet["account_id"], 0) + done.returned
                moves[self.house] += done.stake - done.returned
                results.append((bet["id"], done.returned))
            txn = self._post(conn, "settle", f"settle:{round_id}", moves)
            if results:
                self._point("settling")
            conn.execute(settlements.insert().values(round_id=round_id, txn_id=txn, kind="settle"))
            by_return: dict[int, list[int]] = {}  # one UPDATE per distinct return, not per bet
            for bet_row, returned in results:
                by_return.setdefault(returned, []).append(bet_row)
            for returned, keys in by_return.items():
                conn.execute(
                    bets.update()
                    .where(bets.c.id.in_(keys), bets.c.status == "placed")
                    .values(status="settled", returned=returned)
                )
            conn.execute(
                rounds.update()
                .where(rounds.c.id == round_id)
                .values(phase=RoundPhase.SETTLED, coup=coup.notation())
            )
            return True

        try:
            return self._retry(work)
        except IntegrityError:  # settled concurrently: the unique settlement row won
            return False

    def void_round(self, round_id: int, reason: str = "voided") -> bool:
        """Refund every bet of an unsettled round once; False if it was already finished."""

        def work(conn: Connection) -> bool:
            row = conn.execute(sa.select(rounds).where(rounds.c.id == round_id)).mappings().first()
            if row is None:
                raise LedgerError(f"unknown round {round_id}")
            if row["phase"] in (RoundPhase.SETTLED, RoundPhase.VOIDED):
                return False
            placed = list(
                conn.execute(sa.select(bets).where(bets.c.round_id == round_id)).mappings()
            )
            moves: dict[int, int] = {row["escrow_id"]: 0}
            for bet in placed:
                moves[row["escrow_id"]] -= int(bet["amount"])
                moves[bet["account_id"]] = moves.get(bet["account_id"], 0) + int(bet["amount"])
            txn = self._post(conn, "refund", f"void:{round_id}", moves)
            conn.execute(settlements.insert().values(round_id=round_id, txn_id=txn, kind="void"))
            conn.execute(
                bets.update()
                .where(bets.c.round_id == round_id, bets.c.status == "placed")
                .values(status="refunded", returned=bets.c.amount)
            )
            conn.execute(
                rounds.update().where(rounds.c.id == round_id).values(phase=RoundPhase.VOIDED)
            )
            return True

        try:
            return self._retry(work)
        except IntegrityError:
            return False

    # -- invariants ---------------------------------------------------------------------

    def check_invariants(self) -> list[str]:
        """Every broken money invariant, in words (empty when the books are right)."""
        problems: list[str] = []
        with self.engine.connect() as conn:
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
                .where(accounts.c.kind.not_in(_MAY_GO_NEGATIVE))
                .group_by(accounts.c.name)
                .having(sa.func.sum(entries.c.amount) < 0)
            ).all()
            problems.extend(f"account {n} is negative ({s})" for n, s in negative)
            twice = conn.execute(
                sa.select(transactions.c.memo, sa.func.count())
                .where(
                    sa.or_(
                        transactions.c.memo.like("settle %"),
                        transactions.c.memo.like("refund %"),
                        transactions.c.memo.like("bet %"),
                    )
                )
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
                            bets.c.status == "placed", rounds.c.phase.in_(["settled", "voided"])
                        ),
                        sa.and_(bets.c.status != "placed", rounds.c.phase.in_(["open", "closed"])),
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


def _check_bet(bet_id: object, amount: object) -> int:
    stake = check_amount(amount)
    if not isinstance(bet_id, str) or not 1 <= len(bet_id) <= 64:
        raise BetError("bad_bet_id", f"bad bet id {bet_id!r}: 1 to 64 characters")
    return stake


def _check_limits(req: dict[str, Any], stake: int, already: int) -> None:
    """Refuse a bet under its minimum, or one taking the account's total over the maximum."""
    minimum, maximum = req.get("minimum"), req.get("maximum")
    if minimum is None and maximum is None:
        return
    kind = req["kind"]
    label = BetKind(kind).label if kind in BetKind._value2member_map_ else str(kind)
    if minimum is not None and stake < minimum:
        raise BetError(
            "under_limit", f"{label} minimum is {money(minimum)}: this bet is {money(stake)}"
        )
    if maximum is not None and already + stake > maximum:
        raise BetError(
            "over_limit",
            f"{label} maximum is {money(maximum)}: {money(stake)} more is too much "
            f"with {money(already)} on it",
        )


def _staked(
    conn: Connection, players: list[int], requests: list[dict[str, Any]]
) -> dict[tuple[int, int, str], int]:
    """What each account has on each kind in the rounds of the limited requests."""
    limited = {req["round_id"] for req in requests if req.get("maximum") is not None}
    if not limited:
        return {}
    rows = conn.execute(
        sa.select(bets.c.account_id, bets.c.round_id, bets.c.kind, sa.func.sum(bets.c.amount))
        .where(bets.c.account_id.in_(players), bets.c.round_id.in_(limited))
        .group_by(bets.c.account_id, bets.c.round_id, bets.c.kind)
    )
    return {(int(a), int(r), str(k)): int(total) for a, r, k, total in rows}


def _balances(conn: Connection, accounts: list[int]) -> dict[int, int]:
    found = dict.fromkeys(accounts, 0)
    found.update(
        (account, int(total))
        for account, total in conn.execute(
            sa.select(entries.c.account_id, sa.func.sum(entries.c.amount))
            .where(entries.c.account_id.in_(accounts))
            .group_by(entries.c.account_id)
        )
    )
    return found


def _account(conn: Connection, name: str) -> int:
    """The id of account ``name``, inserted if missing, inside ``conn``'s transaction."""
    found = conn.execute(sa.select(accounts.c.id).where(accounts.c.name == name)).scalar()
    if found is None:
        key = conn.execute(
            accounts.insert().values(
                name=name,
                kind=AccountKind(name.split(":", 1)[0]).value,
                created_at=datetime.now(UTC),
            )
        ).inserted_primary_key
        assert key is not None
        found = key[0]
    return int(found)


def _bet_row(req: dict[str, Any], stake: int) -> dict[str, Any]:
    return {
        "account_id": req["account"],
        "bet_id": req["bet_id"],
        "round_id": req["round_id"],
        "kind": req["kind"],
        "amount": stake,
        "status": "placed",
    }


def _receipt(row: Any, balance: int, duplicate: bool) -> BetReceipt:
    return BetReceipt(
        bet_id=row["bet_id"],
        round_id=int(row["round_id"]),
        kind=row["kind"],
        amount=int(row["amount"]),
        balance=balance,
        duplicate=duplicate,
        status=row["status"],
        returned=None if row.get("returned") is None else int(row["returned"]),
    )


def _retryable(error: DBAPIError) -> bool:
    if error.connection_invalidated:
        return True
    text = str(error.orig).lower()
    code = getattr(error.orig, "sqlstate", None)
    return (
        code in ("40001", "40P01", "55P03")
        or "database is locked" in text
        or "could not serialize" in text
        or "deadlock" in text
    )


def make_engine(url: str) -> Engine:
    """An engine set up for money: SQLite WAL + full sync + immediate writes, or PostgreSQL."""
    url = normalize_url(url)
    if url.startswith("sqlite"):
        memory = url in ("sqlite://", "sqlite:///:memory:")
        kwargs: dict[str, Any] = {"connect_args": {"check_same_thread": False, "timeout": 30}}
        if memory:
            kwargs["poolclass"] = sa.pool.StaticPool
        engine = sa.create_engine(url, **kwargs)

        @sa.event.listens_for(engine, "connect")
        def _on_connect(dbapi_conn: Any, record: Any) -> None:
            dbapi_conn.isolation_level = None  # we issue BEGIN ourselves
            cursor = dbapi_conn.cursor()
            if not memory:
                cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=FULL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute("PRAGMA busy_timeout=30000")
            cursor.close()

        @sa.event.listens_for(engine, "begin")
        def _on_begin(conn: Connection) -> None:
            write = conn.get_execution_options().get("baccara_write", False)
            conn.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")

        return engine
    # No ping on every checkout (a round trip per transaction): `Ledger._retry` retries
    # a transaction whose connection turned out to be dead.
    return sa.create_engine(url, pool_size=10, max_overflow=20, pool_recycle=1800)
