"""What a bet passes before the ledger places it: its amount, its id, the table's limits.

The ledger (`baccara.db.ledger.Ledger.place_bets`) runs these checks inside the
transaction that holds the player's lock, so what they read (the stakes already on the
round) cannot change under them. Refusals are `BetError` with a code for the client and
a message showing money as people read it.

>>> check_limits(BetRequest(account=1, round_id=1, bet_id="b", kind="tie", amount=30_000,
...                          minimum=100, maximum=50_000), 30_000, 30_000)
Traceback (most recent call last):
...
baccara.db.betting.BetError: Tie maximum is 500.00: 300.00 more is too much with 300.00 on it
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from baccara.bets import BetKind
from baccara.db import books
from baccara.db.books import LedgerError
from baccara.db.schema import bets
from baccara.money import format_money

__all__ = [
    "MAX_AMOUNT",
    "BetError",
    "BetReceipt",
    "BetRequest",
    "bet_row",
    "check_amount",
    "check_bet",
    "check_limits",
    "receipt",
    "staked",
]

MAX_AMOUNT = 10**12
"""No single amount may exceed this many minor units (ten billion major units)."""


class BetError(LedgerError):
    """A bet refused (bad amount, closed round, short balance, reused id); nothing changed."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code


@dataclass(frozen=True, slots=True, kw_only=True)
class BetRequest:
    """A bet asked for: from which wallet (``account``), the player's own ``bet_id``, the
    round, the bet kind and ``amount`` (checked by `check_bet`: it comes from the
    network), the table's ``minimum`` and ``maximum`` for the kind, and the clock's
    ``now`` (epoch seconds; None: the system's), which names the day the player's loss
    limit counts."""

    account: int
    round_id: int
    bet_id: object
    kind: str
    amount: object
    minimum: int | None = None
    maximum: int | None = None
    now: float | None = None


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


def check_amount(amount: object) -> int:
    """A stake must be a positive whole number of minor units below `MAX_AMOUNT`.

    >>> check_amount(2.5)
    Traceback (most recent call last):
    ...
    baccara.db.betting.BetError: bad amount 2.5: a whole number of minor units (cents) is required
    """
    if isinstance(amount, bool) or not isinstance(amount, int):
        raise BetError(
            "bad_amount",
            f"bad amount {amount!r}: a whole number of minor units (cents) is required",
        )
    if amount <= 0:
        raise BetError("bad_amount", f"bad amount {format_money(amount)}: it must be positive")
    if amount > MAX_AMOUNT:
        raise BetError("bad_amount", f"bad amount: at most {format_money(MAX_AMOUNT)}")
    return amount


def check_bet(bet_id: object, amount: object) -> int:
    stake = check_amount(amount)
    if not isinstance(bet_id, str) or not 1 <= len(bet_id) <= 64:
        raise BetError("bad_bet_id", f"bad bet id {bet_id!r}: 1 to 64 characters")
    return stake


def check_limits(req: BetRequest, stake: int, already: int) -> None:
    """Refuse a bet that leaves the account's total on its spot under the minimum or over
    the maximum (the table engine's rule, `baccara.table.engine.Table.verify_place_bet`)."""
    minimum, maximum = req.minimum, req.maximum
    if minimum is None and maximum is None:
        return
    kind = req.kind
    label = BetKind(kind).label if kind in BetKind._value2member_map_ else str(kind)
    if minimum is not None and already + stake < minimum:  # the spot's total, as the table
        raise BetError(
            "under_limit",
            f"{label} minimum is {format_money(minimum)}: "
            f"{format_money(already + stake)} on it is too little",
        )
    if maximum is not None and already + stake > maximum:
        raise BetError(
            "over_limit",
            f"{label} maximum is {format_money(maximum)}: {format_money(stake)} more is too much "
            f"with {format_money(already)} on it",
        )


def staked(
    conn: Connection, players: list[int], requests: list[BetRequest]
) -> dict[tuple[int, int, str], int]:
    """What each account has on each kind in the rounds of the limited requests."""
    limited = {req.round_id for req in requests if req.maximum is not None}
    if not limited:
        return {}
    statement = _STAKED[books.on_postgres(conn)]
    rows = conn.execute(statement, {"accounts": players, "rounds": sorted(limited)})
    return {(int(a), int(r), str(k)): int(total) for a, r, k, total in rows}


_STAKED = {
    pg: sa.select(bets.c.account_id, bets.c.round_id, bets.c.kind, sa.func.sum(bets.c.amount))
    .where(
        books.among(bets.c.account_id, "accounts", postgres=pg),
        books.among(bets.c.round_id, "rounds", postgres=pg),
    )
    .group_by(bets.c.account_id, bets.c.round_id, bets.c.kind)
    for pg in (False, True)
}


def bet_row(req: BetRequest, stake: int) -> dict[str, Any]:
    return {
        "account_id": req.account,
        "bet_id": req.bet_id,
        "round_id": req.round_id,
        "kind": req.kind,
        "amount": stake,
        "status": "placed",
    }


def receipt(row: Any, balance: int, duplicate: bool) -> BetReceipt:
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
