"""The one money gate: what every movement of a player's money passes, inside the
database transaction that moves it.

A house bet (`baccara.db.ledger.Ledger.place_bets`), a buy-in or more chips at a
players' table and a cash-out (`baccara.db.chips.Chips`) each run in one transaction
that first takes the player's lock in the database: on PostgreSQL the row of their
wallet (`lock_wallets`, ``FOR NO KEY UPDATE``, in account order), on SQLite the
database's one write lock (``BEGIN IMMEDIATE``, taken before anything is read). Then,
as stored at that moment, it reads the balance and the player's `Standing`: the session
they act under is live, they are neither self-excluded nor suspended, and their daily
loss limit with what they have lost today (`day_loss`). Whatever another connection or
process did before is seen; what it does next waits for the lock. So no check that
guards money or a player runs on a copy, and no number of sockets or processes passes
one together.

The daily loss (the UTC day of the clock the caller gives):

- at the house tables, what the player staked today less what those stakes returned
  (a stake still in play counts as lost), if more than zero;
- at each players' table, the chips bought there today and not cashed out again the
  same day, counting from the first buy-in after the seat was last emptied (a cash-out
  takes every chip): chips bought before midnight neither count after it nor make room,
  so cashing them out after midnight frees nothing, and neither does cashing out then
  buying in again. Winnings at one table never make room at another.

A bet or buy-in that would take the day's loss past the limit is refused.

>>> from baccara.db.ledger import Ledger
>>> book = Ledger.connect("sqlite://")
>>> ann = book.create_account("wallet:ann")
>>> _ = book.deposit(ann, 10_000, ref="welcome:ann")
>>> from baccara.db.engine import writing
>>> with writing(book.engine) as conn:
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
from sqlalchemy.engine import Connection

from baccara.db import betting, queries
from baccara.db.betting import BetError, BetReceipt, BetRequest
from baccara.db.books import Posting, among, balances, on_postgres, post_many
from baccara.db.limits import Limits
from baccara.db.schema import (
    RoundPhase,
    accounts,
    bets,
    entries,
    play_limits,
    transactions,
    users,
    web_sessions,
)
from baccara.money import format_money

__all__ = [
    "Mover",
    "Standing",
    "check_loss",
    "day_loss",
    "day_start",
    "ended",
    "lock_wallets",
    "place_bets",
    "stamp",
    "standings",
]

DAY = 86_400


@dataclass(frozen=True, slots=True, kw_only=True)
class Mover:
    """Who moves money through the gate: their wallet account and, for a person, their
    user id and the digest of the session they act under (None: a bot of the house)."""

    account: int
    user: int | None = None
    session: str | None = None


@dataclass(slots=True, kw_only=True)
class Standing:
    """A player as stored now: their name, the expiry of each of their sessions asked
    about, their limits' row (`baccara.db.limits.limits_of`) and any suspension."""

    name: str
    sessions: dict[str, float] = field(default_factory=dict)
    limits: Limits = field(default_factory=Limits)
    suspended_until: float | None = None
    known: bool = True

    def check(self, session: str | None, now: float) -> None:
        """Refuse (`BetError`) a player who may not move money under ``session`` at
        ``now``: unknown, self-excluded, suspended, or acting under a session that has
        ended (logged out, expired, or ended by a password change or an exclusion)."""
        if not self.known:
            raise BetError("unknown_player", "no such player")
        if self.limits.excluded(now):
            until = datetime.fromtimestamp(self.limits.excluded_until or 0, UTC)
            raise BetError(
                "self_excluded", f"you excluded yourself from play until {until:%Y-%m-%d %H:%M} UTC"
            )
        if self.suspended_until is not None and now < self.suspended_until:
            raise BetError("suspended", "your account is suspended by the house")
        if session is not None and self.sessions.get(session, 0.0) <= now:
            raise BetError("session_ended", "your session has ended: log in again")

    def loss_limit(self, now: float) -> int | None:
        """The daily loss limit in force at ``now`` (a raise waits its day)."""
        return self.limits.at(now).loss_limit


def day_start(now: float) -> datetime:
    """The start (00:00 UTC) of the day of ``now`` (epoch seconds).

    >>> day_start(86_400 * 3 + 5).isoformat()
    '1970-01-04T00:00:00+00:00'
    """
    return datetime.fromtimestamp(now - now % DAY, UTC)


def lock_wallets(conn: Connection, wallets: Iterable[int]) -> dict[int, int]:
    """Take the players' locks and read their balances under them: on PostgreSQL their
    wallet rows (``FOR NO KEY UPDATE``, in account order: no deadlock; settlements'
    foreign-key checks need not wait); on SQLite the transaction already holds the one
    write lock."""
    ids = sorted(set(wallets))
    if not on_postgres(conn):
        return balances(conn, ids)
    found = dict.fromkeys(ids, 0)
    found.update((int(a), int(b)) for a, b in conn.execute(_LOCK, {"accounts": ids}))
    return found


_LOCK = (
    sa.select(accounts.c.id, accounts.c.balance)
    .where(among(accounts.c.id, "accounts", postgres=True))
    .order_by(accounts.c.id)
    .with_for_update(key_share=True)
)


def standings(conn: Connection, movers: Iterable[Mover]) -> dict[int, Standing]:
    """The standing of each person among ``movers``, by user id: two queries however
    many (their users with their limits; their sessions asked about, by key)."""
    people = [m for m in movers if m.user is not None]
    ids = sorted({m.user for m in people if m.user is not None})
    if not ids:
        return {}
    pg = on_postgres(conn)
    found = {user: Standing(name="", known=False) for user in ids}
    for row in conn.execute(_PEOPLE[pg], {"users": ids}):
        found[int(row.id)] = Standing(
            name=row.name,
            limits=Limits(
                loss_limit=row.loss_limit,
                next_loss_limit=row.next_loss_limit,
                next_from=row.next_from,
                reminder_minutes=row.reminder_minutes,
                excluded_until=row.excluded_until,
            ),
            suspended_until=row.suspended_until,
        )
    tokens = sorted({m.session for m in people if m.session is not None})
    if tokens:
        for user, token, expires in conn.execute(_SESSIONS[pg], {"tokens": tokens}):
            if (standing := found.get(int(user))) is not None:
                standing.sessions[str(token)] = float(expires)
    return found


_PEOPLE = {
    pg: sa.select(
        users.c.id,
        users.c.name,
        users.c.suspended_until,
        play_limits.c.loss_limit,
        play_limits.c.next_loss_limit,
        play_limits.c.next_from,
        play_limits.c.reminder_minutes,
        play_limits.c.excluded_until,
    )
    .select_from(users.outerjoin(play_limits, play_limits.c.user_id == users.c.id))
    .where(among(users.c.id, "users", postgres=pg))
    for pg in (False, True)
}
_SESSIONS = {  # by the table's key: one lookup each
    pg: sa.select(web_sessions.c.user_id, web_sessions.c.token_hash, web_sessions.c.expires).where(
        among(web_sessions.c.token_hash, "tokens", postgres=pg)
    )
    for pg in (False, True)
}


def ended(conn: Connection, held: Iterable[tuple[int, str]], now: float) -> dict[str, BetError]:
    """Of the sessions ``held`` (user id, session digest), those that may no longer act
    at ``now``, each with why: logged out, expired, ended by a password change or an
    exclusion, or their player excluded or suspended (`Standing.check`)."""
    pairs = list(held)
    people = standings(conn, [Mover(account=0, user=user, session=s) for user, s in pairs])
    out: dict[str, BetError] = {}
    for user, session in pairs:
        try:
            people[user].check(session, now)
        except BetError as error:
            out[session] = error
    return out


def check_loss(limit: int | None, lost: int, amount: int) -> None:
    """Refuse (`BetError` ``loss_limit``) ``amount`` more at risk when ``lost`` today
    already counts against the daily ``limit``.

    >>> check_loss(5_000, 4_000, 1_000)
    >>> check_loss(5_000, 4_000, 2_000)
    Traceback (most recent call last):
    ...
    baccara.db.betting.BetError: your daily loss limit is 50.00: today 40.00 is lost or in play, so 20.00 more would pass it (the day starts again at 00:00 UTC)
    """
    if limit is not None and lost + amount > limit:
        raise BetError(
            "loss_limit",
            f"your daily loss limit is {format_money(limit)}: today {format_money(lost)} is "
            f"lost or in play, so {format_money(amount)} more would pass it "
            "(the day starts again at 00:00 UTC)",
        )


def day_loss(conn: Connection, wallet: int, name: str, now: float) -> int:
    """What player ``name`` (wallet ``wallet``) has lost or has in play today, as the
    module defines it; read inside the caller's transaction, under the player's lock."""
    start = day_start(now)
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
    balances: dict[int, int]
    stored: dict[tuple[int, object], Any]
    rounds: dict[int, Any]
    staked: dict[tuple[int, int, str], int]
    people: dict[int, Standing]
    lost: dict[int, int] = field(default_factory=dict)  # wallet -> today's loss, once read


def _place_valid(
    conn: Connection,
    valid: list[tuple[int, int, BetRequest]],
    answers: dict[int, BetReceipt | BetError],
) -> bool:
    pg = on_postgres(conn)
    reqs = [req for _, _, req in valid]
    players = sorted({req.account for req in reqs})
    balances = lock_wallets(conn, players)
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
    movers = [Mover(account=r.account, user=r.user, session=r.session) for r in reqs]
    batch = _Batch(
        conn, balances, stored, found, betting.staked(conn, players, reqs), standings(conn, movers)
    )
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
    limit = None
    if req.user is not None:
        person = batch.people[req.user]
        person.check(req.session, now)
        if (limit := person.loss_limit(now)) is not None and account not in batch.lost:
            batch.lost[account] = day_loss(batch.conn, account, person.name, now)
    betting.check_limits(req, stake, batch.staked.get((account, round_id, kind), 0))
    check_loss(limit, batch.lost.get(account, 0), stake)
    if balances[account] < stake:
        raise BetError(
            "insufficient_funds",
            f"a bet of {format_money(stake)} is over your balance of "
            f"{format_money(balances[account])}",
        )
    balances[account] -= stake
    batch.staked[account, round_id, kind] = batch.staked.get((account, round_id, kind), 0) + stake
    if limit is not None:
        batch.lost[account] += stake
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
