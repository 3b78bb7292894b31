"""The players as the console sees them (issue 34, point 6): found by name, each one's
account, balance, status, limits with their history and the staff's notes, and the
last rounds they took part in, replayed step by step from what the database holds.
Reads only, but for a note (`add_note`: appended with its audit entry).

A house table's round is its coup as stored (``rounds.coup``, dealt from the table's
fair shoe: ``online_shoes``), its cards in deal order, and the player's bets with what came back. A players' table
(Chemin de Fer, Banque) keeps a shoe's decisions (``skill_actions``): a shoe the player
sat in is replayed as those decisions in order, each with its seat's player.

Six months of history are at hand: every read takes a period, or a bound, and goes by
an index (a player's bets by their wallet, the transactions by their time, the limit
changes and notes by player and time).

>>> from baccara.db.ledger import Ledger
>>> from baccara.db.auth import Auth
>>> book = Ledger.connect("sqlite://")
>>> ann = Auth(book).register("Ann", "long password")
>>> [found.name for found in search(book.database, "an")]
['Ann']
>>> player(book.database, "ANN", now=0.0).status
PlayerStatus(suspended_until=None, excluded_until=None, logins_stopped=False)
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from baccara.coup import Coup, CoupError
from baccara.db import audit
from baccara.db.accounts import find_player
from baccara.db.books import wallet_account
from baccara.db.chips import chips_account
from baccara.db.database import writing
from baccara.db.protections import (
    FOREVER,
    LimitKind,
    Period,
    PeriodLimit,
    period_limits_of,
    protections_of,
)
from baccara.db.schema import (
    accounts,
    bets,
    entries,
    limit_changes,
    online_shoes,
    play_limits,
    player_notes,
    rounds,
    skill_actions,
    transactions,
    users,
)

__all__ = [
    "MAX_FOUND",
    "MAX_NOTE",
    "MAX_ROUNDS",
    "Found",
    "LimitChange",
    "Note",
    "PeopleError",
    "PlayerDetail",
    "PlayerStatus",
    "ReplayedBet",
    "ReplayedDecision",
    "ReplayedRound",
    "add_note",
    "limit_history",
    "player",
    "player_rounds",
    "search",
]

MAX_FOUND = 100
"""The most players one search page lists."""
MAX_ROUNDS = 50
"""The most rounds `player_rounds` replays at once."""
MAX_NOTE = 2000
"""The longest note, in characters."""
MAX_HISTORY = 500
"""The most limit changes one read lists."""


class PeopleError(ValueError):
    """A refused look-up or note (no such player, a bad note); ``code`` says which."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayerStatus:
    """What stops a player now: the house's suspension (``logins_stopped``: one with no
    end, `baccara.db.protections.stop_logins`), their own exclusion (epoch seconds)."""

    suspended_until: float | None
    excluded_until: float | None
    logins_stopped: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class Found:
    """A player a search found."""

    name: str
    created_at: float
    last_login_at: float | None
    status: PlayerStatus


@dataclass(frozen=True, slots=True, kw_only=True)
class LimitChange:
    """One change to a player's protections (``limit_changes``), as kept."""

    id: int
    at: float
    actor: str
    kind: str
    days: int | None
    amount: int | None
    next_amount: int | None
    next_from: float | None
    until: float | None
    raised: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class Note:
    """A staff member's note on a player."""

    id: int
    at: float
    actor: str
    role: str | None
    text: str


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayerDetail:
    """A player's account as the console shows it (amounts in minor units, times in
    epoch seconds): the limits in force by kind and period, the reminder, the history of
    changes in the period asked and every note, newest first."""

    id: int
    name: str
    created_at: float
    last_login_at: float | None
    balance: int
    status: PlayerStatus
    limits: dict[str, dict[str, PeriodLimit]]
    reminder_minutes: int | None
    history: list[LimitChange]
    notes: list[Note]


@dataclass(frozen=True, slots=True, kw_only=True)
class ReplayedBet:
    """One of the player's bets in a round: its kind, stake, what came back."""

    kind: str
    amount: int
    returned: int | None
    status: str


@dataclass(frozen=True, slots=True, kw_only=True)
class ReplayedDecision:
    """A decision of a players' shoe, in order: who (the seat and its player; the house's
    rule is seat -1), what, how much, and whether the clock took it."""

    seq: int
    seat: int
    player: str | None
    action: str
    amount: int | None
    tableau: str | None
    timed_out: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class ReplayedRound:
    """A round the player took part in. ``kind`` ``house``: a house table's round (its
    coup, its cards in deal order, the player's bets); ``players``:
    a shoe at a players' table (its decisions in order). ``at``: when the player's first
    money moved in it."""

    kind: str
    table: str
    at: float
    round: int | None = None
    phase: str | None = None
    shoe_id: int | None = None
    coup_index: int | None = None
    coup: str | None = None
    cards: list[str] | None = None
    bets: list[ReplayedBet] | None = None
    seats: list[str] | None = None
    decisions: list[ReplayedDecision] | None = None


def _stamp(moment: datetime | None) -> float | None:
    if moment is None:
        return None
    return (moment if moment.tzinfo else moment.replace(tzinfo=UTC)).timestamp()


def _status(row: Any, now: float) -> PlayerStatus:
    found = protections_of(row if row is not None and row["user_id"] is not None else None, now)
    suspended = found.suspended_until if found.suspended(now) else None
    return PlayerStatus(
        suspended_until=suspended,
        excluded_until=found.excluded_until if found.excluded(now) else None,
        logins_stopped=suspended is not None and suspended >= FOREVER,
    )


def _like(text: str) -> str:
    """``text`` for a LIKE pattern, its ``%``, ``_`` and ``\\`` as themselves."""
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def search(
    database: Engine, text: str, *, after: str = "", limit: int = 50, now: float = 0.0
) -> list[Found]:
    """The players whose name holds ``text`` (any case), those it begins first, then by
    name; past the name ``after`` (a page's last), at most ``limit`` (1 to `MAX_FOUND`).
    Staff accounts are not players.

    >>> from baccara.db.ledger import Ledger
    >>> from baccara.db.auth import Auth
    >>> book = Ledger.connect("sqlite://")
    >>> for name in ("bob", "Annie", "joanna", "ann_2"):
    ...     _ = Auth(book).register(name, "long password")
    >>> [f.name for f in search(book.database, "ANN")]
    ['ann_2', 'Annie', 'joanna']
    >>> [f.name for f in search(book.database, "_")]
    ['ann_2']
    """
    if not 1 <= limit <= MAX_FOUND:
        raise PeopleError("bad_request", f"limit: 1 to {MAX_FOUND} players")
    key = sa.func.lower(users.c.name)
    wanted = text.lower()
    starts = sa.case((key.like(_like(wanted) + "%", escape="\\"), 0), else_=1)
    query = (
        sa.select(users.c.name, users.c.created_at, users.c.last_login_at, play_limits)
        .outerjoin(play_limits, play_limits.c.user_id == users.c.id)
        .where(users.c.role.is_(None), key.like("%" + _like(wanted) + "%", escape="\\"))
        .order_by(starts, key, users.c.name)
    )
    if after:
        mark = sa.tuple_(starts, key, users.c.name)
        after_starts = 0 if after.lower().startswith(wanted) else 1
        query = query.where(mark > sa.tuple_(sa.literal(after_starts), after.lower(), after))
    with database.connect() as conn:
        rows = conn.execute(query.limit(limit)).mappings().all()
    return [
        Found(
            name=str(row["name"]),
            created_at=_stamp(row["created_at"]) or 0.0,
            last_login_at=row["last_login_at"],
            status=_status(row, now),
        )
        for row in rows
    ]


def _player_row(conn: Connection, name: str) -> sa.RowMapping:
    found = find_player(conn, name)
    if found is None or found["role"] is not None:
        raise PeopleError("no_such_player", f"no player named {name!r}")
    return found


def _change(row: Any) -> LimitChange:
    return LimitChange(
        id=int(row.id), at=float(row.at), actor=str(row.actor), kind=str(row.kind),
        days=row.days, amount=None if row.amount is None else int(row.amount),
        next_amount=None if row.next_amount is None else int(row.next_amount),
        next_from=row.next_from, until=row.until, raised=bool(row.raised),
    )  # fmt: skip


def limit_history(
    conn: Connection, user: int, start: float, end: float, *, limit: int = MAX_HISTORY
) -> list[LimitChange]:
    """``user``'s changes to their protections from ``start`` to ``end`` (excluded),
    newest first, at most ``limit``."""
    query = (
        sa.select(limit_changes)
        .where(
            limit_changes.c.user_id == user, limit_changes.c.at >= start, limit_changes.c.at < end
        )
        .order_by(limit_changes.c.at.desc(), limit_changes.c.id.desc())
        .limit(limit)
    )
    return [_change(row) for row in conn.execute(query)]


def player(
    database: Engine, name: str, *, now: float, start: float = 0.0, end: float | None = None
) -> PlayerDetail:
    """Player ``name`` (any case) at ``now``, with the history of their limits from
    ``start`` to ``end`` (default: up to ``now``); `PeopleError` ``no_such_player``."""
    with database.connect() as conn:
        row = _player_row(conn, name)
        user, registered = int(row["id"]), str(row["name"])
        held = conn.execute(
            sa.select(play_limits).where(play_limits.c.user_id == user)
        ).mappings().first()  # fmt: skip
        balance = conn.execute(
            sa.select(accounts.c.balance).where(accounts.c.name == wallet_account(registered))
        ).scalar()
        protections = protections_of(held, now)
        limits: dict[str, dict[str, PeriodLimit]] = {}
        for kind in LimitKind:
            found = period_limits_of(conn, user, kind, now)
            if kind is LimitKind.LOSS:
                found[Period.DAY] = protections.daily_loss
            limits[kind.value] = {
                period.value: found[period] for period in Period if period in found
            }
        history = limit_history(conn, user, start, now if end is None else end)
        notes = conn.execute(
            sa.select(player_notes)
            .where(player_notes.c.user_id == user)
            .order_by(player_notes.c.at.desc(), player_notes.c.id.desc())
            .limit(MAX_HISTORY)
        ).all()
    return PlayerDetail(
        id=user,
        name=registered,
        created_at=_stamp(row["created_at"]) or 0.0,
        last_login_at=row["last_login_at"],
        balance=int(balance or 0),
        status=_status({"user_id": user, **dict(held)} if held else None, now),
        limits=limits,
        reminder_minutes=protections.reminder_minutes,
        history=history,
        notes=[
            Note(id=int(n.id), at=float(n.at), actor=n.actor, role=n.role, text=n.text)
            for n in notes
        ],
    )


def check_note(text: object) -> str:
    """A note as it is kept: text, 1 to `MAX_NOTE` characters once trimmed, printable
    but for line breaks; else `PeopleError` ``bad_note``.

    >>> check_note("  called: asked for a cooling-off period  ")
    'called: asked for a cooling-off period'
    >>> check_note("a\\x00b")
    Traceback (most recent call last):
    ...
    baccara.db.people.PeopleError: a note is 1 to 2000 printable characters
    """
    bad = PeopleError("bad_note", f"a note is 1 to {MAX_NOTE} printable characters")
    if not isinstance(text, str):
        raise bad
    kept = text.strip()
    lines = kept.replace("\r\n", "\n").split("\n")
    if not kept or len(kept) > MAX_NOTE or not all(line.isprintable() for line in lines):
        raise bad
    try:
        kept.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate: no UTF-8 for the database
        raise bad from None
    return kept


def add_note(
    database: Engine, name: str, text: str, *, actor: str, role: str | None, now: float
) -> Note:
    """Append a note on player ``name`` by ``actor`` (in ``role``) at ``now``, with its
    audit entry in the same transaction; the note. Notes are never changed nor removed
    (the database refuses it)."""
    kept = check_note(text)
    with writing(database) as conn:
        row = _player_row(conn, name)
        key = conn.execute(
            player_notes.insert().values(
                user_id=int(row["id"]), at=now, actor=actor, role=role, text=kept
            )
        ).inserted_primary_key
        assert key is not None
        note = Note(id=int(key[0]), at=now, actor=actor, role=role, text=kept)
        audit.append(
            conn, actor=actor, role=role, action="player.note", target=str(row["name"]),
            after={"note": note.id, "text": kept}, now=now,
        )  # fmt: skip
    return note


# -- the last rounds, replayed ---------------------------------------------------------------


def _house_rounds(conn: Connection, wallet: int, last: int) -> list[ReplayedRound]:
    """The last ``last`` house rounds the wallet bet on (its bets by the wallet's index)."""
    recent = (
        sa.select(
            bets.c.round_id.label("round_id"),
            sa.func.min(transactions.c.created_at).label("at"),
        )
        .select_from(bets.join(transactions, transactions.c.id == bets.c.txn_id))
        .where(bets.c.account_id == wallet)
        .group_by(bets.c.round_id)
        .order_by(bets.c.round_id.desc())
        .limit(last)
    ).subquery()
    query = (
        sa.select(
            rounds.c.id, rounds.c.table_id, rounds.c.number, rounds.c.phase, rounds.c.shoe_id,
            rounds.c.coup_index, rounds.c.coup, recent.c.at, bets.c.kind, bets.c.amount,
            bets.c.returned, bets.c.status,
        )
        .select_from(
            rounds.join(recent, recent.c.round_id == rounds.c.id).join(
                bets, sa.and_(bets.c.round_id == rounds.c.id, bets.c.account_id == wallet)
            )
        )
        .order_by(rounds.c.id.desc(), bets.c.id)
    )  # fmt: skip
    found: dict[int, ReplayedRound] = {}
    for row in conn.execute(query):
        one = found.get(int(row.id))
        if one is None:
            cards = None
            if row.coup:
                try:
                    cards = [str(card) for card in Coup.parse(str(row.coup)).deal_order()]
                except CoupError:  # pragma: no cover - the ledger stores coups it dealt
                    cards = None
            one = found[int(row.id)] = ReplayedRound(
                kind="house", table=row.table_id, at=_stamp(row.at) or 0.0,
                round=int(row.number), phase=row.phase, shoe_id=row.shoe_id,
                coup_index=int(row.coup_index), coup=row.coup, cards=cards, bets=[],
            )  # fmt: skip
        assert one.bets is not None
        one.bets.append(
            ReplayedBet(
                kind=row.kind, amount=int(row.amount), status=row.status,
                returned=None if row.returned is None else int(row.returned),
            )
        )  # fmt: skip
    return list(found.values())


def _players_shoes(conn: Connection, name: str, last: int) -> list[ReplayedRound]:
    """The last ``last`` shoes at a players' table where ``name``'s chips moved on a
    decision (``decision SHOE:SEQ``), each with its decisions in order: the player's
    chips accounts at each players' table, found by name (`chips_account`)."""
    tables = conn.execute(
        sa.select(online_shoes.c.table_id).where(online_shoes.c.seats.is_not(None)).distinct()
    ).scalars()
    names = [chips_account(str(table), name) for table in tables]
    seats = sa.select(accounts.c.id).where(accounts.c.name.in_(names))
    moved = conn.execute(
        sa.select(transactions.c.memo, transactions.c.created_at)
        .select_from(entries.join(transactions, transactions.c.id == entries.c.transaction_id))
        .where(entries.c.account_id.in_(seats), transactions.c.memo.like("decision %"))
        .order_by(transactions.c.id.desc())
        .limit(20_000)
    )
    first: dict[int, datetime] = {}
    for memo, at in moved:
        shoe = str(memo).split(" ", 1)[1].split(":", 1)[0]
        if shoe.isdigit():
            first[int(shoe)] = at  # read newest first: ends at the earliest
    shoes = sorted(first, reverse=True)[:last]
    out = []
    for shoe_id in shoes:
        table, seated = conn.execute(
            sa.select(online_shoes.c.table_id, online_shoes.c.seats).where(
                online_shoes.c.id == shoe_id
            )
        ).one()
        names = [str(seat["name"]) for seat in (seated or [])]
        decided = conn.execute(
            sa.select(skill_actions)
            .where(skill_actions.c.shoe_id == shoe_id)
            .order_by(skill_actions.c.seq)
        ).mappings()
        out.append(
            ReplayedRound(
                kind="players", table=str(table), at=_stamp(first[shoe_id]) or 0.0,
                shoe_id=shoe_id, seats=names,
                decisions=[
                    ReplayedDecision(
                        seq=int(d["seq"]), seat=int(d["seat"]),
                        player=names[d["seat"]] if 0 <= d["seat"] < len(names) else None,
                        action=str(d["action"]),
                        amount=None if d["amount"] is None else int(d["amount"]),
                        tableau=d["tableau"], timed_out=bool(d["timed_out"]),
                    )
                    for d in decided
                ],
            )
        )  # fmt: skip
    return out


def player_rounds(database: Engine, name: str, *, last: int = 10) -> list[ReplayedRound]:
    """The last ``last`` rounds (1 to `MAX_ROUNDS`) player ``name`` took part in, newest
    first: house rounds with their cards and bets, players' shoes with their decisions.

    >>> from baccara.db.ledger import Ledger
    >>> from baccara.db.auth import Auth
    >>> book = Ledger.connect("sqlite://")
    >>> ann = Auth(book).register("ann", "long password")
    >>> r = book.open_round(table="t1", number=1, shoe_id=None, coup_index=1)
    >>> _ = book.place_bet(account=ann.account, round_id=r, bet_id="b1", kind="banker", amount=1_000)
    >>> [(one.table, one.round, one.bets[0].amount) for one in player_rounds(book.database, "ann")]
    [('t1', 1, 1000)]
    """
    if not 1 <= last <= MAX_ROUNDS:
        raise PeopleError("bad_request", f"last: 1 to {MAX_ROUNDS} rounds")
    with database.connect() as conn:
        row = _player_row(conn, name)
        registered = str(row["name"])
        wallet = conn.execute(
            sa.select(accounts.c.id).where(accounts.c.name == wallet_account(registered))
        ).scalar()
        found = [] if wallet is None else _house_rounds(conn, int(wallet), last)
        found += _players_shoes(conn, registered, last)
    found.sort(key=lambda one: one.at, reverse=True)
    return found[:last]
