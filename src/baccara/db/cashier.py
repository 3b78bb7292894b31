"""The cashier: deposits and withdrawals an operator records for a player, booked in
the ledger by double entry (the outside world's account and the player's wallet).

Each is one transaction (`Cashier.deposit`, `Cashier.withdraw`) that, inside it:

- refuses an amount that is not a whole number of cents above 0.00 and at most
  `baccara.db.betting.MAX_AMOUNT`, and a reference that is not 1 to 64 printable
  characters (before anything is read);
- finds the player by name (any case): a staff account holds no wallet and is refused;
- takes the player's lock (`baccara.db.gate.lock_wallets`: the wallet's row on
  PostgreSQL, the one write lock on SQLite) and reads, under it, the wallet's balance;
- looks the reference up: one already booked, for the same kind, player and amount,
  is answered as it was (``duplicate``) and books nothing more; for anything else it is
  refused (``reference_reused``); the database's unique reference settles two at once;
- a deposit: refused while the player is excluded or suspended (``self_excluded``,
  ``suspended``); the player's deposits over the last 24 hours, 7 and 30 days
  (`baccara.db.protections.Period`) plus this one must stay within each deposit limit
  the player has in force (``deposit_limit``);
- a withdrawal: never more than the wallet holds (``insufficient_funds``): chips at a
  table and stakes in a round's escrow are not in the wallet. An excluded or suspended
  player is still paid;
- books the movement, records it in ``cashier_moves`` and appends the audit entry
  (`baccara.db.audit`), all kept or none.

>>> from baccara.db.auth import Auth
>>> from baccara.db.ledger import Ledger
>>> ledger = Ledger.connect("sqlite://")
>>> _ = Auth(ledger, welcome=1_000).register("ann", "a long password")
>>> cashier = Cashier(ledger)
>>> clerk = Clerk(name="olga", role="operator")
>>> cashier.deposit("Ann", 5_000, "slip-1", clerk, now=1_800_000_000.0).balance
6000
>>> cashier.deposit("ann", 5_000, "slip-1", clerk, now=1_800_000_001.0).duplicate
True
>>> cashier.withdraw("ann", 6_001, "slip-2", clerk, now=1_800_000_002.0)
Traceback (most recent call last):
...
baccara.db.cashier.CashierError: ann's wallet holds 60.00: a withdrawal of 60.01 would take it below 0.00 (chips at a table and stakes in play are not in the wallet)
>>> cashier.withdraw("ann", 2_000, "slip-2", clerk, now=1_800_000_002.0).balance
4000
>>> ledger.check_invariants()
[]
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum

import sqlalchemy as sa
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from baccara.db import audit, books, gate
from baccara.db.accounts import find_player
from baccara.db.betting import MAX_AMOUNT
from baccara.db.books import LedgerError, wallet_account
from baccara.db.ledger import Ledger
from baccara.db.protections import LimitKind, Period, period_limits_of
from baccara.db.schema import cashier_moves, users
from baccara.money import format_money

__all__ = [
    "MAX_REFERENCE",
    "Cashier",
    "CashierError",
    "CashierReceipt",
    "Clerk",
    "MoveKind",
    "check_cash_amount",
    "check_reference",
]

MAX_REFERENCE = 64
"""The most characters of a reference (a slip's, a payment's number)."""
DAY = 86_400.0


class CashierError(LedgerError):
    """A deposit or withdrawal refused, with a code; nothing was booked."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


class MoveKind(StrEnum):
    """What the cashier books; the value is the word stored and shown."""

    DEPOSIT = "deposit"
    WITHDRAWAL = "withdrawal"


@dataclass(frozen=True, slots=True, kw_only=True)
class Clerk:
    """Who books a movement: a staff member's name and role (the audit log's actor)."""

    name: str
    role: str | None


@dataclass(frozen=True, slots=True, kw_only=True)
class CashierReceipt:
    """A movement booked (or, ``duplicate``, booked before under the same reference):
    its id, kind, player, amount, reference, who booked it and when, and the wallet's
    balance now."""

    id: int
    kind: MoveKind
    player: str
    amount: int
    reference: str
    actor: str
    at: float
    balance: int
    duplicate: bool


def check_cash_amount(amount: object) -> int:
    """A whole number of cents above 0.00 and at most `MAX_AMOUNT`, or `CashierError`
    ``bad_amount``.

    >>> check_cash_amount(1)
    1
    >>> check_cash_amount(0)
    Traceback (most recent call last):
    ...
    baccara.db.cashier.CashierError: bad amount 0.00: it must be more than 0.00
    """
    if isinstance(amount, bool) or not isinstance(amount, int):
        raise CashierError("bad_amount", f"bad amount {amount!r}: a whole number of cents")
    if amount <= 0:
        raise CashierError(
            "bad_amount", f"bad amount {format_money(amount)}: it must be more than 0.00"
        )
    if amount > MAX_AMOUNT:
        raise CashierError("bad_amount", f"bad amount: at most {format_money(MAX_AMOUNT)}")
    return amount


def check_reference(reference: object) -> str:
    """1 to `MAX_REFERENCE` printable characters, no space at either end, or
    `CashierError` ``bad_reference``.

    >>> check_reference("slip 42")
    'slip 42'
    >>> check_reference(" x")
    Traceback (most recent call last):
    ...
    baccara.db.cashier.CashierError: bad reference ' x': 1 to 64 printable characters, no space at either end
    """
    if (
        not isinstance(reference, str)
        or not 1 <= len(reference) <= MAX_REFERENCE
        or not reference.isprintable()
        or reference != reference.strip()
    ):
        raise CashierError(
            "bad_reference",
            f"bad reference {reference!r}: 1 to {MAX_REFERENCE} printable characters, "
            "no space at either end",
        )
    return reference


class Cashier:
    """The cashier over the ledger's database."""

    def __init__(self, ledger: Ledger) -> None:
        self.ledger = ledger

    def deposit(
        self, player: str, amount: int, reference: str, clerk: Clerk, *, now: float | None = None
    ) -> CashierReceipt:
        """Book a deposit of ``amount`` to ``player``'s wallet (see the module)."""
        return self._book(MoveKind.DEPOSIT, player, amount, reference, clerk, now)

    def withdraw(
        self, player: str, amount: int, reference: str, clerk: Clerk, *, now: float | None = None
    ) -> CashierReceipt:
        """Book a withdrawal of ``amount`` from ``player``'s wallet (see the module)."""
        return self._book(MoveKind.WITHDRAWAL, player, amount, reference, clerk, now)

    def _book(
        self,
        kind: MoveKind,
        player: str,
        amount: int,
        reference: str,
        clerk: Clerk,
        now: float | None,
    ) -> CashierReceipt:
        amount, reference = check_cash_amount(amount), check_reference(reference)
        moment = time.time() if now is None else now

        def work(conn: Connection) -> CashierReceipt:
            return _book(conn, kind, player, amount, reference, clerk, moment, self.ledger.cashier)

        try:
            return self.ledger.write(work)
        except IntegrityError:  # the same reference booked meanwhile: answer as it stands
            return self.ledger.write(work)

    def wallet(self, player: str) -> tuple[str, int]:
        """The name (as registered) and wallet account of ``player`` (any case), or
        `CashierError` (``unknown_player``, ``staff_account``).

        >>> from baccara.db.ledger import Ledger
        >>> Cashier(Ledger.connect("sqlite://")).wallet("nobody")
        Traceback (most recent call last):
        ...
        baccara.db.cashier.CashierError: no player named 'nobody'
        """

        def work(conn: Connection) -> tuple[str, int]:
            _, name = _player(conn, player)
            return name, books.account_id(conn, wallet_account(name))

        return self.ledger.write(work)


_MOVE = sa.select(cashier_moves, users.c.name).join(users, users.c.id == cashier_moves.c.user_id)


def _player(conn: Connection, name: str) -> tuple[int, str]:
    """The id and name of the player ``name`` (any case), or `CashierError`."""
    row = find_player(conn, name) if 1 <= len(name) <= 24 else None
    if row is None:
        raise CashierError("unknown_player", f"no player named {name!r}")
    if row["role"] is not None:
        raise CashierError("staff_account", f"{row['name']} is a staff account: it holds no wallet")
    return int(row["id"]), str(row["name"])


def _book(
    conn: Connection,
    kind: MoveKind,
    asked: str,
    amount: int,
    reference: str,
    clerk: Clerk,
    now: float,
    external: int,
) -> CashierReceipt:
    user, name = _player(conn, asked)
    wallet = books.account_id(conn, wallet_account(name))
    held = gate.lock_wallets(conn, [wallet])[wallet]  # the player's lock, first
    old = conn.execute(_MOVE.where(cashier_moves.c.reference == reference)).first()
    if old is not None:
        if (old.kind, old.user_id, int(old.amount)) != (kind.value, user, amount):
            raise CashierError(
                "reference_reused",
                f"reference {reference!r} already booked a {old.kind} of "
                f"{format_money(int(old.amount))} for {old.name}: a new movement needs a new "
                "reference",
            )
        return _receipt(old, held.balance, duplicate=True)
    if kind is MoveKind.DEPOSIT:
        _check_standing(held, name, now)
        _check_deposit_limits(conn, user, wallet, amount, now)
        moves = {external: -amount, wallet: amount}
    else:
        if held.balance < amount:
            raise CashierError(
                "insufficient_funds",
                f"{name}'s wallet holds {format_money(held.balance)}: a withdrawal of "
                f"{format_money(amount)} would take it below 0.00 (chips at a table and "
                "stakes in play are not in the wallet)",
            )
        moves = {wallet: -amount, external: amount}
    txn = books.post(conn, f"{kind.value} cashier:{reference}", moves, at=gate.stamp(now))
    conn.execute(
        cashier_moves.insert().values(
            reference=reference, kind=kind.value, user_id=user, account_id=wallet,
            amount=amount, txn_id=txn, actor=clerk.name, at=now,
        )
    )  # fmt: skip
    audit.append(
        conn,
        actor=clerk.name,
        role=clerk.role,
        action=f"cashier.{kind.value}",
        target=name,
        before={"balance": held.balance},
        after={"balance": held.balance + moves[wallet], "amount": amount, "reference": reference},
        now=now,
    )
    row = conn.execute(_MOVE.where(cashier_moves.c.reference == reference)).one()
    return _receipt(row, held.balance + moves[wallet], duplicate=False)


def _receipt(row: sa.Row[object], balance: int, *, duplicate: bool) -> CashierReceipt:
    found = row._mapping
    return CashierReceipt(
        id=int(found["id"]),
        kind=MoveKind(found["kind"]),
        player=str(found["name"]),
        amount=int(found["amount"]),
        reference=str(found["reference"]),
        actor=str(found["actor"]),
        at=float(found["at"]),
        balance=balance,
        duplicate=duplicate,
    )


def _check_standing(held: gate.Held, name: str, now: float) -> None:
    """Refuse a deposit for a player excluded (``self_excluded``) or suspended
    (``suspended``) at ``now``: no money in while they may not play (a withdrawal is
    paid all the same)."""
    protections = held.protections
    if protections.excluded(now):
        until = datetime.fromtimestamp(protections.excluded_until or 0, UTC)
        raise CashierError(
            "self_excluded",
            f"{name} is excluded from play until {until:%Y-%m-%d %H:%M} UTC: no deposit "
            "until then (a withdrawal is paid)",
        )
    if protections.suspended(now):
        raise CashierError(
            "suspended",
            f"{name} is suspended by the house: no deposit (a withdrawal is paid)",
        )


_DEPOSITED = sa.select(sa.func.coalesce(sa.func.sum(cashier_moves.c.amount), 0)).where(
    cashier_moves.c.account_id == sa.bindparam("wallet"),
    cashier_moves.c.kind == MoveKind.DEPOSIT.value,
    cashier_moves.c.at > sa.bindparam("since"),
)


def _check_deposit_limits(
    conn: Connection, user: int, wallet: int, amount: int, now: float
) -> None:
    """Refuse (``deposit_limit``) a deposit that would take the deposits over any period
    with a limit in force past it; read under the player's lock."""
    for period, limit in sorted(
        period_limits_of(conn, user, LimitKind.DEPOSIT, now).items(), key=lambda p: p[0].days
    ):
        if limit.amount is None:
            continue
        since = now - period.days * DAY
        done = int(conn.execute(_DEPOSITED, {"wallet": wallet, "since": since}).scalar_one())
        if done + amount > limit.amount:
            raise CashierError(
                "deposit_limit",
                f"{_PERIOD_WORDS[period]} deposit limit is {format_money(limit.amount)}: "
                f"{format_money(done)} deposited in the last {_SPAN[period]}, so "
                f"{format_money(amount)} more would pass it (at most "
                f"{format_money(max(0, limit.amount - done))} now)",
            )


_PERIOD_WORDS = {Period.DAY: "the player's 24-hour", Period.WEEK: "the player's 7-day",
                 Period.MONTH: "the player's 30-day"}  # fmt: skip
_SPAN = {Period.DAY: "24 hours", Period.WEEK: "7 days", Period.MONTH: "30 days"}
