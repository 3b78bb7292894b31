"""The online table's money: a double-entry ledger, bets keyed by id, rounds settled once.

Every movement of money is a *transaction* whose *entries* (account, signed amount in
minor units) sum to zero. Entries are only ever inserted; a balance is the sum of an
account's entries. A bet is one database transaction (round open, balance check,
debit to the round's escrow) keyed by the player's own bet id; a round is settled
once (a unique row per round), moving the escrow to the players and the house.

Money moves through the one posting API (`baccara.db.books`), the store's; the database
comes from `baccara.db.database.database_at` (SQLite: ``BEGIN IMMEDIATE`` write
transactions; PostgreSQL: row locks, ``FOR NO KEY UPDATE`` on the player's account and
``FOR SHARE`` on the round, with retries on serialization failures and deadlocks).
A table's limits (minimum, maximum per bet kind) are checked under that lock.

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
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypedDict, TypeVar, cast

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import DBAPIError, IntegrityError, OperationalError

from baccara.bets import BetKind, settle
from baccara.coup import Coup
from baccara.db import betting, books, gate, hold, queries
from baccara.db.betting import MAX_AMOUNT, BetError, BetReceipt, BetRequest, check_amount
from baccara.db.books import EXTERNAL, HOUSE, LedgerError, wallet_account
from baccara.db.database import database_at, normalize_url, writing
from baccara.db.migrate import upgrade
from baccara.db.schema import (
    RoundPhase,
    accounts,
    bets,
    metadata,
    rounds,
    settlements,
    transactions,
)
from baccara.variants import find_variant

if TYPE_CHECKING:  # the exact engine loads when a table first prices a coup
    from baccara.exact.theory import Price

__all__ = [
    "MAX_AMOUNT",
    "BetError",
    "BetReceipt",
    "BetRequest",
    "BetRow",
    "Ledger",
    "LedgerError",
    "RoundPhase",
    "bets",
    "check_amount",
    "database_at",
    "metadata",
    "normalize_url",
    "rounds",
    "wallet_account",
]


_T = TypeVar("_T")


class BetRow(TypedDict):
    """A bet as stored: whose, its id and round, its kind and amount, the transaction
    that took it, its status (``placed``, ``settled``, ``refunded``) and what it returned."""

    id: int
    account_id: int
    bet_id: str
    round_id: int
    kind: str
    amount: int
    txn_id: int
    status: str
    returned: int | None


class Ledger:
    """The money store over one database (SQLite or PostgreSQL)."""

    def __init__(self, database: Engine):
        self.database = database
        self.postgres = database.dialect.name == "postgresql"
        # Single reads need no transaction: on PostgreSQL, autocommit spares each one
        # its BEGIN and ROLLBACK round trips.
        self.reader = (
            database.execution_options(isolation_level="AUTOCOMMIT") if self.postgres else database
        )
        upgrade(database)
        self._ids: dict[str, int] = {}
        self.fault: Callable[[str], None] | None = None
        """Test hook: called at named points inside write transactions (crash injection)."""
        self.house = self.create_account(HOUSE)
        self.cashier = self.create_account(EXTERNAL)

    @classmethod
    def connect(cls, url: str) -> Ledger:
        """Open (and create if needed) the ledger at a database URL."""
        return cls(database_at(url))

    # -- transactions -------------------------------------------------------------------

    def _point(self, name: str) -> None:
        if self.fault is not None:
            self.fault(name)

    def write(self, work: Callable[[Connection], _T]) -> _T:
        """Run ``work`` in one write transaction, retrying lock conflicts."""
        for attempt in range(30):
            try:
                # SQLite: BEGIN IMMEDIATE takes the write lock before the balance is
                # read, so two bets can never both see the same balance.
                with writing(self.database) as conn:
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
        """Post one balanced transaction (memo ``kind ref``); return its id."""
        return books.post(conn, f"{kind} {ref}", moves)

    # -- accounts -----------------------------------------------------------------------

    def create_account(self, name: str) -> int:
        """The id of the account ``name`` (``wallet:ann``, ``escrow:t1:7``...), created once."""
        if name in self._ids:
            return self._ids[name]

        def work(conn: Connection) -> int:
            return books.account_id(conn, name)

        try:
            account = self.write(work)
        except IntegrityError:  # created concurrently by another process
            account = self.write(work)
        self._ids[name] = account
        return account

    def balance(self, account: int, conn: Connection | None = None) -> int:
        """The balance of ``account``: the sum of its entries."""
        if conn is not None:
            return books.balances(conn, [account])[account]
        with self.reader.connect() as read:
            return books.balances(read, [account])[account]

    def balances(self, accounts: list[int]) -> dict[int, int]:
        """The balances of many accounts in one query."""
        with self.reader.connect() as read:
            return books.balances(read, accounts)

    def account_names(self, ids: Collection[int]) -> dict[int, str]:
        """The names of accounts ``ids`` (``wallet:ann``...), by id."""
        with self.reader.connect() as read:
            found = read.execute(
                sa.select(accounts.c.id, accounts.c.name).where(accounts.c.id.in_(ids))
            )
            return {int(key): str(name) for key, name in found}

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
            return self.write(work)
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
            escrow = books.account_id(conn, f"escrow:{table}:{number}")
            key = conn.execute(
                queries.INSERT_ROUND,
                {
                    "table_id": table,
                    "number": number,
                    "shoe_id": shoe_id,
                    "coup_index": coup_index,
                    "phase": RoundPhase.OPEN,
                    "escrow_id": escrow,
                    "closes_at": closes_at,
                },
            ).inserted_primary_key
            assert key is not None
            return int(key[0])

        return self.write(work)

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
            if coup is None:
                conn.execute(queries.CLOSE_ROUND, {"round": round_id})
            else:
                conn.execute(
                    rounds.update()
                    .where(rounds.c.id == round_id, rounds.c.phase == RoundPhase.OPEN)
                    .values(phase=RoundPhase.CLOSED, coup=coup.notation())
                )

        self.write(work)

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
        now: float | None = None,
    ) -> BetReceipt:
        """Place a bet in one transaction: checks, limits, balance, debit to escrow.

        ``minimum`` and ``maximum`` (minor units, optional) are the table's limits for
        ``kind``: the bet must be at least ``minimum``, and the account's total on
        ``kind`` in this round, this bet included, at most ``maximum``. The player's
        protections (exclusion, suspension, the daily loss limit at ``now``) are checked
        too (`baccara.db.gate`), all under the player's lock, so parallel connections
        cannot pass anything together.

        A resend of the same ``bet_id`` returns the stored bet (``duplicate``); a
        resend with another amount or kind is refused. A bet id names one bet for good:
        a resend in a later round (after a crash, say) gets the stored bet, with its
        round and its status (``placed``, ``settled`` or ``refunded``).
        """
        request = BetRequest(
            account=account,
            round_id=round_id,
            bet_id=bet_id,
            kind=kind,
            amount=amount,
            minimum=minimum,
            maximum=maximum,
            now=now,
        )
        (answer,) = self.place_bets([request])
        if isinstance(answer, BetError):
            raise answer
        return answer

    def place_bets(self, requests: Sequence[BetRequest]) -> list[BetReceipt | BetError]:
        """Place many bets in one transaction (group commit), in order, through the money
        gate (`baccara.db.gate.place_bets`): each answer is the bet's receipt or the
        `BetError` that refused it (a refused bet changes nothing)."""

        def work(conn: Connection) -> list[BetReceipt | BetError]:
            answers, placed = gate.place_bets(conn, requests)
            if placed:
                self._point("bet_debited")
            return answers

        try:
            return self.write(work)
        except IntegrityError:  # the same id raced in from another connection
            return self.write(work)

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
            return None if row is None else betting.receipt(row, self.balance(account, conn), True)

    def round_bets(self, round_id: int, account: int | None = None) -> list[BetRow]:
        """The bets of a round (of one account if given), oldest first."""
        query = sa.select(bets).where(bets.c.round_id == round_id)
        if account is not None:
            query = query.where(bets.c.account_id == account)
        with self.reader.connect() as conn:
            rows = conn.execute(query.order_by(bets.c.id)).mappings()
            return [cast(BetRow, dict(row)) for row in rows]

    # -- settlement -----------------------------------------------------------------------

    def settle_round(
        self,
        round_id: int,
        coup: Coup,
        variant: str,
        returns: Mapping[tuple[int, str], int] | None = None,
        *,
        price: Price | None = None,
        now: float | None = None,
        restarted: str | None = None,
    ) -> bool:
        """Settle every bet of a closed round once; False if it was already settled.

        A player's bets on one spot settle as one stake, as the table engine settles a
        seat's spot (so a 5% commission rounds once, not once per chip). ``returns``
        gives what the engine returned to each (account, bet kind); without it the
        ledger settles each spot itself with `baccara.bets.settle`.

        With ``price`` (the cards left before the coup, `baccara.exact.theory.price`)
        and ``now`` (the table's clock), the spots are added to the hold against theory
        (`baccara.db.hold`) in the same transaction; ``restarted`` (why) records a round
        settled after a restart among the interrupted ones.
        """
        game = find_variant(variant)
        if price is not None and now is None:
            raise LedgerError("a priced settlement needs the table's clock: give now")

        def work(conn: Connection) -> bool:
            row = conn.execute(queries.ROUND, {"id": round_id}).mappings().first()
            if row is None:
                raise LedgerError(f"unknown round {round_id}")
            if row["phase"] in (RoundPhase.SETTLED, RoundPhase.VOIDED):
                return False
            placed = conn.execute(queries.ROUND_BETS, {"id": round_id}).mappings()
            spots: dict[tuple[int, str], list[tuple[int, int]]] = {}
            for bet in placed:
                key = (int(bet["account_id"]), str(bet["kind"]))
                spots.setdefault(key, []).append((int(bet["id"]), int(bet["amount"])))
            moves: dict[int, int] = {row["escrow_id"]: 0, self.house: 0}
            results: list[tuple[int, int]] = []
            settled: list[hold.SettledSpot] = []
            seen: dict[tuple[str, int], int] = {}  # most spots repeat a kind and stake
            for (account, kind), rows in spots.items():
                stake = sum(amount for _, amount in rows)
                if returns is not None:
                    if (account, kind) not in returns:
                        raise LedgerError(f"no return given for account {account}'s {kind} bet")
                    returned = returns[(account, kind)]
                elif (returned := seen.get((kind, stake), -1)) < 0:
                    returned = seen[(kind, stake)] = settle(
                        BetKind(kind), stake, coup, game
                    ).returned
                moves[row["escrow_id"]] -= stake
                moves[account] = moves.get(account, 0) + returned
                moves[self.house] += stake - returned
                results.extend(_shares(rows, stake, returned))
                settled.append(
                    hold.SettledSpot(kind=kind, stake=stake, returned=returned, bets=len(rows))
                )
            txn = self._post(conn, "settle", f"settle:{round_id}", moves)
            if results:
                self._point("settling")
            conn.execute(
                queries.INSERT_SETTLEMENT, {"round_id": round_id, "txn_id": txn, "kind": "settle"}
            )
            by_return: dict[int, list[int]] = {}  # one UPDATE per distinct return, not per bet
            for bet_row, returned in results:
                by_return.setdefault(returned, []).append(bet_row)
            for returned, keys in by_return.items():
                conn.execute(queries.SETTLE_BETS, {"bet_ids": keys, "back": returned})
            conn.execute(
                queries.FINISH_ROUND,
                {"round": round_id, "new_phase": RoundPhase.SETTLED, "new_coup": coup.notation()},
            )
            if price is not None and now is not None:  # (checked above: both or none)
                hold.record_settlement(
                    conn,
                    table=str(row["table_id"]),
                    variant=game.name,
                    shoe_id=row["shoe_id"],
                    now=now,
                    spots=settled,
                    price=price,
                )
            if restarted is not None:
                hold.record_resolution(
                    conn,
                    round_id=round_id,
                    table=str(row["table_id"]),
                    now=now,
                    resolution=hold.Resolution.SETTLED_AFTER_RESTART,
                    reason=restarted,
                    bets=sum(s.bets for s in settled),
                    handle=sum(s.stake for s in settled),
                )
            return True

        try:
            return self.write(work)
        except IntegrityError:  # settled concurrently: the unique settlement row won
            return False

    def void_round(self, round_id: int, reason: str = "voided", now: float | None = None) -> bool:
        """Refund every bet of an unsettled round once; False if it was already finished.
        The round is listed among the interrupted ones with ``reason`` (at ``now``, the
        caller's clock; None: when its betting was to close)."""

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
            hold.record_resolution(
                conn,
                round_id=round_id,
                table=str(row["table_id"]),
                now=row["closes_at"] if now is None else now,
                resolution=hold.Resolution.REFUNDED if placed else hold.Resolution.VOIDED,
                reason=reason,
                bets=len(placed),
                handle=sum(int(bet["amount"]) for bet in placed),
            )
            return True

        try:
            return self.write(work)
        except IntegrityError:
            return False

    # -- invariants ---------------------------------------------------------------------

    def check_invariants(self) -> list[str]:
        """Every broken money invariant, in words (`baccara.db.books.check_invariants`)."""
        with self.database.connect() as conn:
            return books.check_invariants(conn)


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


def _shares(rows: list[tuple[int, int]], stake: int, returned: int) -> list[tuple[int, int]]:
    """A spot's return split over its bets in proportion to their amounts (the last bet
    takes the rounding), as (bet row, returned) pairs.

    >>> _shares([(1, 1010), (2, 1010)], 2020, 3939)
    [(1, 1969), (2, 1970)]
    """
    out = [(key, returned * amount // stake) for key, amount in rows[:-1]]
    out.append((rows[-1][0], returned - sum(share for _, share in out)))
    return out
