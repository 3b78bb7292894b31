"""The one money gate: what every movement of a player's money passes, inside the
database transaction that moves it.

A house bet (`baccara.db.ledger.Ledger.place_bets`), a buy-in or more chips at a
players' table and a cash-out (`baccara.db.chips.Chips`) each run in one transaction
whose first statement takes the player's lock and reads, under it, the wallet's balance
and the player's protections (`lock_wallets`): on PostgreSQL the wallet's row (``FOR NO
KEY UPDATE``, in account order), on SQLite the database's one write lock (``BEGIN
IMMEDIATE``, taken before anything is read). The protections lie beside the wallet
(`baccara.db.protections`): a self-exclusion or the house's suspension refuses every
movement into play, and the daily loss limit one that would take the day's loss past
it (`day_loss`). A wallet named for a staff account (`baccara.db.staff`: staff hold
none and play nothing) refuses every movement into play, read in the same statement.
Whatever another connection or process did before is seen; what it
does next waits for the lock. So no check that guards money or a player runs on a copy,
and no number of sockets or processes passes one together. (A session that ends closes
its sockets within a second: `baccara.server.infra.revocation`.)

The daily loss (the UTC day of the clock the caller gives):

- at the house tables, what the player staked today less what those stakes returned
  (a stake still in play counts as lost), if more than zero;
- at each players' table, the chips bought there today and not cashed out again the
  same day, counting from the first buy-in after the seat was last emptied (a cash-out
  takes every chip): chips bought before midnight neither count after it nor make room,
  so cashing them out after midnight frees nothing, and neither does cashing out then
  buying in again. Winnings at one table never make room at another.

A bet or buy-in that would take the day's loss past the limit is refused. The loss
limits over 7 and 30 days (`baccara.db.protections.LOSS_PERIODS`) count the same way
from 00:00 UTC of the 6th (29th) day before today (`loss_since`), read under the same
lock.

>>> from baccara.db.ledger import Ledger
>>> book = Ledger.connect("sqlite://")
>>> ann = book.create_account("wallet:ann")
>>> _ = book.deposit(ann, 10_000, ref="welcome:ann")
>>> from baccara.db.database import writing
>>> with writing(book.database) as conn:
...     day_loss(conn, ann, "ann", now=0.0)
0
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from baccara.db import betting, queries
from baccara.db.betting import BetError, BetReceipt, BetRequest
from baccara.db.books import AccountKind, Posting, among, on_postgres, post_many, wallet_account
from baccara.db.database import writing
from baccara.db.protections import (
    LOSS_PERIODS,
    LimitKind,
    Period,
    PeriodLimit,
    PlayerProtections,
    period_limit,
)
from baccara.db.schema import (
    RoundPhase,
    accounts,
    bets,
    entries,
    period_limits,
    play_limits,
    transactions,
    web_sessions,
)
from baccara.db.schema import users as web_users
from baccara.db.sessions import last_revocation, prune, revocations_since
from baccara.money import format_money

__all__ = [
    "Held",
    "SessionEnds",
    "check_loss",
    "check_losses",
    "day_loss",
    "day_start",
    "ended",
    "lock_wallets",
    "loss_since",
    "period_start",
    "place_bets",
    "stamp",
]

DAY = 86_400


@dataclass(frozen=True, slots=True, kw_only=True)
class Held:
    """A wallet as read under its player's lock: its balance, its player's name and
    protections (`baccara.db.protections.PlayerProtections`; none for a bot's or the house's)."""

    balance: int
    name: str
    protections: PlayerProtections
    staff: bool = False  # the wallet's name is a staff account's (`baccara.db.staff`)

    def check(self, now: float) -> None:
        """Refuse (`BetError`) money into play from a staff account (it plays nothing),
        or from a player excluded or suspended at ``now``.

        >>> Held(balance=100, name="olga", protections=PlayerProtections(), staff=True).check(0.0)
        Traceback (most recent call last):
        ...
        baccara.db.betting.BetError: a staff account cannot play
        """
        if self.staff:
            raise BetError("staff_account", "a staff account cannot play")
        if self.protections.excluded(now):
            until = datetime.fromtimestamp(self.protections.excluded_until or 0, UTC)
            raise BetError(
                "self_excluded", f"you excluded yourself from play until {until:%Y-%m-%d %H:%M} UTC"
            )
        if self.protections.suspended(now):
            raise BetError("suspended", "your account is suspended by the house")

    def loss_limits(self, now: float) -> list[tuple[Period, int]]:
        """The loss limits in force at ``now`` by period (a raise waits its day)."""
        return self.protections.loss_limits(now)


def day_start(now: float) -> datetime:
    """The start (00:00 UTC) of the day of ``now`` (epoch seconds).

    >>> day_start(86_400 * 3 + 5).isoformat()
    '1970-01-04T00:00:00+00:00'
    """
    return datetime.fromtimestamp(now - now % DAY, UTC)


def period_start(period: Period, now: float) -> datetime:
    """Where a loss limit over ``period`` starts counting at ``now``: 00:00 UTC of the
    day ``period.days - 1`` days before today.

    >>> period_start(Period.WEEK, 86_400 * 10 + 5).isoformat()
    '1970-01-05T00:00:00+00:00'
    """
    return datetime.fromtimestamp(now - now % DAY - (period.days - 1) * DAY, UTC)


def lock_wallets(conn: Connection, wallets: Iterable[int]) -> dict[int, Held]:
    """Take the players' locks and read, in the same statement, their wallets' balances
    and their protections: on PostgreSQL the wallet rows (``FOR NO KEY UPDATE``, in
    account order: no deadlock; settlements' foreign-key checks need not wait); on
    SQLite the transaction already holds the one write lock. Then, under the locks, one
    statement more reads the loss limits over 7 and 30 days (``period_limits``). An
    unknown wallet reads as empty."""
    ids = sorted(set(wallets))
    found = {key: Held(balance=0, name="", protections=PlayerProtections()) for key in ids}
    pg = on_postgres(conn)
    rows = conn.execute(_LOCK[pg], {"accounts": ids}).all()
    longer: dict[int, list[tuple[Period, PeriodLimit]]] = {}
    for limit in conn.execute(_LONGER_LOSSES[pg], {"accounts": ids}).mappings():
        period = next(p for p in LOSS_PERIODS if p.days == limit["days"])
        longer.setdefault(int(limit["account_id"]), []).append((period, period_limit(limit)))
    for row in rows:
        found[int(row.id)] = Held(
            balance=int(row.balance),
            name=str(row.name).removeprefix("wallet:"),
            protections=PlayerProtections(
                loss_limit=row.loss_limit,
                next_loss_limit=row.next_loss_limit,
                next_from=row.next_from,
                excluded_until=row.excluded_until,
                suspended_until=row.suspended_until,
                longer_losses=tuple(sorted(longer.get(int(row.id), []), key=_by_days)),
            ),
            staff=row.role is not None,
        )
    return found


def _by_days(limit: tuple[Period, PeriodLimit]) -> int:
    return limit[0].days


_LONGER_LOSSES = {  # read after the lock: under it
    pg: sa.select(period_limits).where(
        among(period_limits.c.account_id, "accounts", postgres=pg),
        period_limits.c.kind == LimitKind.LOSS.value,
    )
    for pg in (False, True)
}
_LOCK = {
    pg: sa.select(
        accounts.c.id,
        accounts.c.balance,
        accounts.c.name,
        play_limits.c.loss_limit,
        play_limits.c.next_loss_limit,
        play_limits.c.next_from,
        play_limits.c.excluded_until,
        play_limits.c.suspended_until,
        web_users.c.role,
    )
    .select_from(
        accounts.outerjoin(play_limits, play_limits.c.account_id == accounts.c.id).outerjoin(
            web_users,  # the wallet's owner by name: a staff account's name has a role
            sa.and_(
                accounts.c.kind == AccountKind.WALLET.value,
                web_users.c.name == sa.func.substr(accounts.c.name, len(wallet_account("")) + 1),
            ),
        )
    )
    .where(among(accounts.c.id, "accounts", postgres=pg))
    .order_by(accounts.c.id)
    for pg in (False, True)
}
_LOCK[True] = _LOCK[True].with_for_update(key_share=True, of=accounts)


def ended(conn: Connection, held: Iterable[tuple[int, str]], now: float) -> dict[str, BetError]:
    """Of the sessions ``held`` (user id, session digest), those that may no longer act
    at ``now``, each with why (`BetError`): their player excluded or suspended, or the
    session gone (logged out, ended by a password change) or expired. Two queries
    however many: the players' protections, the sessions by key."""
    pairs = list(held)
    if not pairs:
        return {}
    pg = on_postgres(conn)
    users = sorted({user for user, _ in pairs})
    barred: dict[int, BetError] = {}
    for user, row in zip(users, _protections(conn, users, pg), strict=True):
        try:
            Held(balance=0, name="", protections=row).check(now)
        except BetError as error:
            barred[user] = error
    live = {
        str(token): float(expires)
        for token, expires in conn.execute(
            _SESSIONS[pg], {"tokens": sorted({session for _, session in pairs})}
        )
    }
    out: dict[str, BetError] = {}
    for user, session in pairs:
        if user in barred:
            out[session] = barred[user]
        elif live.get(session, 0.0) <= now:
            out[session] = BetError("session_ended", "your session has ended: log in again")
    return out


KEEP_REVOCATIONS = 86_400.0
"""How long a revocation is kept, in seconds (every process has read it long before)."""


class SessionEnds:
    """What a server process's session watch reads (`baccara.server.infra.revocation`):
    the revocations since the last it saw (`baccara.db.sessions`), and which of its
    sockets' sessions have ended."""

    def __init__(self, database: Engine) -> None:
        self.database = database

    def newest(self) -> int:
        """The newest revocation's id (a watch starting reads from there)."""
        with self.database.connect() as conn:
            return last_revocation(conn)

    def since(
        self, last: int, held: list[tuple[int, str]], *, every: bool, now: float
    ) -> tuple[int, dict[str, BetError]]:
        """The newest revocation's id, and the sessions of ``held`` (user id, session
        digest) that have ended, as `ended` says: those of the players the revocations
        since ``last`` name, or all of them if ``every`` (which also forgets the
        revocations older than `KEEP_REVOCATIONS`)."""
        with self.database.connect() as conn:
            news = revocations_since(conn, last)
            named = {r.user for r in news}
            asked = held if every else [(u, s) for u, s in held if u in named]
            gone = ended(conn, asked, now) if asked else {}
            newest = news[-1].id if news else last
        if every:
            with writing(self.database) as conn:
                prune(conn, now - KEEP_REVOCATIONS)
        return newest, gone


def _protections(conn: Connection, users: list[int], pg: bool) -> list[PlayerProtections]:
    found = {
        int(row.user_id): PlayerProtections.of(row._mapping)
        for row in conn.execute(_PROTECTIONS[pg], {"users": users})
    }
    return [found.get(user, PlayerProtections()) for user in users]


_PROTECTIONS = {
    pg: sa.select(play_limits).where(among(play_limits.c.user_id, "users", postgres=pg))
    for pg in (False, True)
}
_SESSIONS = {
    pg: sa.select(web_sessions.c.token_hash, web_sessions.c.expires).where(
        among(web_sessions.c.token_hash, "tokens", postgres=pg)
    )
    for pg in (False, True)
}


def check_loss(limit: int | None, lost: int, amount: int, period: Period = Period.DAY) -> None:
    """Refuse (`BetError` ``loss_limit``) ``amount`` more at risk when ``lost`` in the
    ``period`` already counts against its ``limit``.

    >>> check_loss(5_000, 4_000, 1_000)
    >>> check_loss(5_000, 4_000, 2_000)
    Traceback (most recent call last):
    ...
    baccara.db.betting.BetError: your daily loss limit is 50.00: today 40.00 is lost or in play, so 20.00 more would pass it (the day starts again at 00:00 UTC)
    >>> check_loss(20_000, 19_000, 2_000, Period.WEEK)
    Traceback (most recent call last):
    ...
    baccara.db.betting.BetError: your 7-day loss limit is 200.00: in the last 7 days 190.00 is lost or in play, so 20.00 more would pass it (each day starts at 00:00 UTC)
    """
    if limit is None or lost + amount <= limit:
        return
    if period is Period.DAY:
        raise BetError(
            "loss_limit",
            f"your daily loss limit is {format_money(limit)}: today {format_money(lost)} is "
            f"lost or in play, so {format_money(amount)} more would pass it "
            "(the day starts again at 00:00 UTC)",
        )
    raise BetError(
        "loss_limit",
        f"your {period.days}-day loss limit is {format_money(limit)}: in the last "
        f"{period.days} days {format_money(lost)} is lost or in play, so "
        f"{format_money(amount)} more would pass it (each day starts at 00:00 UTC)",
    )


def check_losses(
    conn: Connection,
    held: Held,
    wallet: int,
    amount: int,
    now: float,
    lost: dict[tuple[int, Period], int] | None = None,
) -> None:
    """Refuse (`BetError` ``loss_limit``) ``amount`` more at risk past any of the loss
    limits ``held`` has in force at ``now``; each period's loss is read once into
    ``lost`` (by wallet and period), where the caller adds what it then places."""
    lost = {} if lost is None else lost
    for period, limit in held.loss_limits(now):
        if (wallet, period) not in lost:
            lost[wallet, period] = loss_since(conn, wallet, held.name, period_start(period, now))
        check_loss(limit, lost[wallet, period], amount, period)


def day_loss(conn: Connection, wallet: int, name: str, now: float) -> int:
    """What player ``name`` (wallet ``wallet``) has lost or has in play today, as the
    module defines it; read inside the caller's transaction, under the player's lock."""
    return loss_since(conn, wallet, name, day_start(now))


def loss_since(conn: Connection, wallet: int, name: str, start: datetime) -> int:
    """What player ``name`` (wallet ``wallet``) has lost or has in play since ``start``
    (00:00 UTC of a day), as the module defines a day's; read inside the caller's
    transaction, under the player's lock."""
    staked, returned = conn.execute(_HOUSE, {"account": wallet, "start": start}).one()
    lost = max(0, int(staked) - int(returned))
    today: dict[str, list[tuple[bool, int]]] = {}  # table -> (buy-in?, amount), in order
    for memo, amount in conn.execute(_CHIPS_TODAY, {"account": wallet, "start": start}):
        kind, table = _chips_move(str(memo), name)
        if table is not None:
            today.setdefault(table, []).append((kind == "buy-in", abs(int(amount))))
    if not today:
        return lost
    open_at_start = _seated_at(conn, wallet, name, start, list(today))
    for table, moves in today.items():
        carried, bought = table in open_at_start, 0
        old_bought = 0  # bought today into a seat that held chips from before midnight
        for buying, amount in moves:
            if buying and carried:
                old_bought += amount
            elif buying:
                bought += amount
            elif carried:
                carried = False  # the seat from before midnight emptied: frees nothing
            else:
                bought -= amount  # today's chips back
        lost += old_bought + max(0, bought)
    return lost


def _chips_move(memo: str, name: str) -> tuple[str, str | None]:
    """A buy-in's or cash-out's memo (``buy-in TABLE NAME``) as (kind, table).

    >>> _chips_move("buy-in c1 ann", "ann"), _chips_move("cash-out my table ann", "ann")
    (('buy-in', 'c1'), ('cash-out', 'my table'))
    """
    kind, _, rest = memo.partition(" ")
    suffix = f" {name}"
    return (kind, rest[: -len(suffix)]) if rest.endswith(suffix) else (kind, None)


def _seated_at(
    conn: Connection, wallet: int, name: str, start: datetime, tables: list[str]
) -> set[str]:
    """The tables of ``tables`` where the player's seat held chips bought before
    ``start`` (their last chips move before it was a buy-in)."""
    memos = [f"{kind} {table} {name}" for table in tables for kind in ("buy-in", "cash-out")]
    last: dict[str, str] = {}
    query = _CHIPS_BEFORE[on_postgres(conn)]
    for (memo,) in conn.execute(query, {"account": wallet, "start": start, "memos": memos}):
        kind, table = _chips_move(str(memo), name)
        if table is not None:
            last.setdefault(table, kind)  # newest first
    return {table for table, kind in last.items() if kind == "buy-in"}


_HOUSE = (
    sa.select(
        sa.func.coalesce(sa.func.sum(bets.c.amount), 0),
        sa.func.coalesce(sa.func.sum(bets.c.returned), 0),
    )
    .select_from(bets.join(transactions, transactions.c.id == bets.c.txn_id))
    .where(bets.c.account_id == sa.bindparam("account"))
    .where(transactions.c.created_at >= sa.bindparam("start"))
)
_CHIPS = sa.or_(transactions.c.memo.like("buy-in %"), transactions.c.memo.like("cash-out %"))
_CHIPS_TODAY = (
    sa.select(transactions.c.memo, entries.c.amount)
    .select_from(entries.join(transactions, transactions.c.id == entries.c.transaction_id))
    .where(entries.c.account_id == sa.bindparam("account"), _CHIPS)
    .where(transactions.c.created_at >= sa.bindparam("start"))
    .order_by(entries.c.id)
)
_CHIPS_BEFORE = {
    pg: sa.select(transactions.c.memo)
    .select_from(entries.join(transactions, transactions.c.id == entries.c.transaction_id))
    .where(entries.c.account_id == sa.bindparam("account"))
    .where(transactions.c.created_at < sa.bindparam("start"))
    .where(among(transactions.c.memo, "memos", postgres=pg))
    .order_by(entries.c.id.desc())
    for pg in (False, True)
}


# -- house bets: a batch in one transaction -------------------------------------------------


def place_bets(
    conn: Connection, requests: Sequence[BetRequest]
) -> tuple[list[BetReceipt | BetError], bool]:
    """Place a batch of house bets inside ``conn``'s write transaction, in order: each
    answered with its receipt or the `BetError` that refused it (a refused bet changes
    nothing); and whether any bet was placed. The players' locks are taken first, then
    every check reads what is stored under them; a batch costs a fixed handful of
    statements however many bets it holds."""
    answers: dict[int, BetReceipt | BetError] = {}
    valid: list[tuple[int, int, BetRequest]] = []  # (position, stake, request)
    for n, req in enumerate(requests):
        try:
            valid.append((n, betting.check_bet(req.bet_id, req.amount), req))
        except BetError as error:
            answers[n] = error
    placed = bool(valid) and _place_valid(conn, valid, answers)
    return [answers[n] for n in range(len(requests))], placed


@dataclass(slots=True)
class _Batch:
    """What a batch of bets read under the players' locks, and what it has placed."""

    conn: Connection
    held: dict[int, Held]
    balances: dict[int, int]
    stored: dict[tuple[int, object], Any]
    rounds: dict[int, Any]
    staked: dict[tuple[int, int, str], int]
    # (wallet, period) -> the period's loss, once read, with the bets placed since
    lost: dict[tuple[int, Period], int] = field(default_factory=dict)


def _place_valid(
    conn: Connection,
    valid: list[tuple[int, int, BetRequest]],
    answers: dict[int, BetReceipt | BetError],
) -> bool:
    pg = on_postgres(conn)
    reqs = [req for _, _, req in valid]
    players = sorted({req.account for req in reqs})
    held = lock_wallets(conn, players)
    stored: dict[tuple[int, object], Any] = {
        (row["account_id"], row["bet_id"]): row
        for row in conn.execute(
            queries.STORED_BETS[pg],
            {"accounts": players, "ids": sorted({str(req.bet_id) for req in reqs})},
        ).mappings()
    }
    query = queries.ROUNDS_SHARED if pg else queries.ROUNDS  # PostgreSQL: no close meanwhile
    found = {
        row.id: row for row in conn.execute(query, {"ids": sorted({r.round_id for r in reqs})})
    }
    balances = {key: wallet.balance for key, wallet in held.items()}
    batch = _Batch(conn, held, balances, stored, found, betting.staked(conn, players, reqs))
    new: list[tuple[dict[str, Any], int, float | None]] = []  # rows, their escrow and time
    for n, stake, req in valid:
        try:
            receipt = _decide(batch, req, stake)
        except BetError as error:
            answers[n] = error
            continue
        answers[n] = receipt
        if not receipt.duplicate:
            row = {**betting.bet_row(req, stake), "returned": None}
            stored[req.account, req.bet_id] = row  # a resend later in the batch
            new.append((row, found[req.round_id].escrow_id, req.now))
    if new:
        _post_bets(conn, new)
    return bool(new)


def _decide(batch: _Batch, req: BetRequest, stake: int) -> BetReceipt:
    """One bet's answer from what the batch read; debits the batch's balances (and adds
    to the player's day) when placed."""
    account, kind, balances = req.account, req.kind, batch.balances
    old = batch.stored.get((account, req.bet_id))
    if old is not None:
        if (old["amount"], old["kind"]) != (stake, kind):
            raise BetError(
                "bet_id_reused",
                f"bet id {req.bet_id!r} was already used for {old['kind']} {old['amount']} "
                f"in round {old['round_id']}: a new bet needs a new id",
            )
        return betting.receipt(old, balances[account], duplicate=True)
    round_id = req.round_id
    if round_id not in batch.rounds:
        raise BetError("unknown_round", f"unknown round {round_id}")
    if batch.rounds[round_id].phase != RoundPhase.OPEN:
        raise BetError(
            "betting_closed", f"no more bets: round {round_id} is {batch.rounds[round_id].phase}"
        )
    now = time.time() if req.now is None else req.now
    wallet = batch.held[account]
    wallet.check(now)
    betting.check_limits(req, stake, batch.staked.get((account, round_id, kind), 0))
    check_losses(batch.conn, wallet, account, stake, now, batch.lost)
    if balances[account] < stake:
        raise BetError(
            "insufficient_funds",
            f"a bet of {format_money(stake)} is over your balance of "
            f"{format_money(balances[account])}",
        )
    balances[account] -= stake
    batch.staked[account, round_id, kind] = batch.staked.get((account, round_id, kind), 0) + stake
    for key in batch.lost.keys() & {(account, period) for period in Period}:
        batch.lost[key] += stake
    return betting.receipt(betting.bet_row(req, stake), balances[account], duplicate=False)


def _post_bets(conn: Connection, new: list[tuple[dict[str, Any], int, float | None]]) -> None:
    """Post the debits of many bets (wallet to escrow, at each bet's time) and insert
    their rows."""
    postings = [
        Posting(
            memo=f"bet bet:{row['account_id']}:{row['bet_id']}",
            moves={row["account_id"]: -row["amount"], escrow: row["amount"]},
            at=stamp(now),
        )
        for row, escrow, now in new
    ]
    for (row, _, _), txn in zip(new, post_many(conn, postings), strict=True):
        row["txn_id"] = txn
    conn.execute(queries.INSERT_BETS, [row for row, _, _ in new])


def stamp(now: float | None) -> datetime | None:
    """A posting's time for the clock's ``now`` (None: the system's, when posted)."""
    return None if now is None else datetime.fromtimestamp(now, UTC)
