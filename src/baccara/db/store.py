"""The store: sessions, seats, hand history and a double-entry ledger, in SQL.

SQLAlchemy Core only, so the same code runs on SQLite (the embedded default,
`baccara.db.database.default_url`) and on PostgreSQL (give its URL). The schema is the
one of `baccara.db.schema`, brought up to date by the migrations when the store opens.

Money goes through the one posting API (`baccara.db.books`), as the online table's:
accounts (the house, the outside world, each player's wallet, each seat at a session)
and transactions whose entries sum to zero. A table's events post to it: a seat taken
moves the buy-in from the wallet to the seat, a settlement moves each seat's net to or
from the house, a seat left moves the chips back to the wallet.

>>> from baccara.bets import BetKind
>>> from baccara.table.engine import Table
>>> store = Store("sqlite://")
>>> store.deposit("ann", 100_000)
1
>>> table = Table(seed=3)
>>> session = store.create_session(table, name="doc")
>>> _ = table.change_shoe(), table.seat(player="ann", stack=50_000)
>>> _ = table.place_bet(1, BetKind.PLAYER, 1000), table.deal(), table.settle()
>>> store.save(session, table)
5
>>> store.balance(wallet_account("ann")), store.balance(seat_account(session, 1)) == table.stack(1)
(50000, True)
>>> store.balance(HOUSE) == table.house
True
>>> store.load_table(session).stack(1) == table.stack(1)
True
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from baccara.db import books
from baccara.db.books import (
    EXTERNAL,
    HOUSE,
    AccountKind,
    LedgerError,
    account_kind,
    seat_account,
    wallet_account,
)
from baccara.db.database import database_at, default_url, writing
from baccara.db.migrate import upgrade
from baccara.db.schema import accounts, entries, events, hands, metadata, seats, sessions, shoes
from baccara.table.engine import Table
from baccara.table.events import CoupSettled, Event, SeatLeft, SeatTaken, ShoeChanged
from baccara.table.history import TableHistory, event_from_json, event_to_json, replay

__all__ = [
    "EXTERNAL",
    "HOUSE",
    "AccountKind",
    "HandRow",
    "SessionInfo",
    "Store",
    "StoreError",
    "default_url",
    "metadata",
    "seat_account",
    "wallet_account",
]

StoreError = LedgerError
"""What the store refuses (a posting, a session): the books' `LedgerError`."""


@dataclass(frozen=True, slots=True, kw_only=True)
class SessionInfo:
    """A stored session: its table's set-up and whether it is closed."""

    id: int
    name: str
    variant: str
    seed: int | None
    created_at: datetime
    updated_at: datetime
    closed: bool
    events: int


@dataclass(frozen=True, slots=True, kw_only=True)
class HandRow:
    """One coup of the hand history."""

    shoe: int
    coup: int
    notation: str
    winner: str
    player_total: int
    banker_total: int
    staked: int
    house_net: int


def _now() -> datetime:
    return datetime.now(UTC)


class Store:
    """Sessions, seats, hands and the ledger in one database (``url``: any SQLAlchemy URL).

    ``Store()`` opens the embedded default (`default_url`); ``Store("sqlite://")``
    an in-memory one; ``Store("postgresql+psycopg://…")`` a server.
    """

    def __init__(self, url: str | None = None, *, database: Engine | None = None) -> None:
        self.url = url or default_url()
        self.database = database if database is not None else database_at(self.url)
        upgrade(self.database)

    @classmethod
    def at(cls, path: str | Path) -> Store:
        """The SQLite store in the file ``path`` (``--db PATH``)."""
        path = Path(path).expanduser()
        path.parent.mkdir(parents=True, exist_ok=True)
        return cls(f"sqlite:///{path}")

    def close(self) -> None:
        """Release the database connections."""
        self.database.dispose()

    # -- the ledger -------------------------------------------------------------------

    def account_id(self, name: str, conn: Connection | None = None) -> int:
        """The id of account ``name``, created on first use."""
        if conn is None:
            with writing(self.database) as new:
                return books.account_id(new, name)
        return books.account_id(conn, name)

    def post(
        self,
        memo: str,
        amounts: Mapping[str, int],
        *,
        session: int | None = None,
        event_seq: int | None = None,
        conn: Connection | None = None,
    ) -> int:
        """Post one transaction: ``amounts`` by account name, summing to zero; return its id.

        Refused (`StoreError`, nothing written) if the amounts do not sum to zero or a
        wallet or seat would go negative (`baccara.db.books.post`).
        """
        if conn is None:
            with writing(self.database) as new:
                return self.post(memo, amounts, session=session, event_seq=event_seq, conn=new)
        lines = {name: amount for name, amount in amounts.items() if amount}
        for name, amount in lines.items():
            account_kind(name)
            if isinstance(amount, bool) or not isinstance(amount, int):
                raise StoreError(f"bad amount {amount!r} for {name}: whole minor units only")
        if not lines:
            raise StoreError(f"empty transaction {memo!r}")
        if sum(lines.values()) != 0:
            raise StoreError(
                f"unbalanced transaction {memo!r}: entries sum to {sum(lines.values())}"
            )
        ids = books.account_ids(conn, lines)
        moves = {ids[name]: amount for name, amount in lines.items()}
        return books.post(conn, memo, moves, session=session, event_seq=event_seq)

    def deposit(self, player: str, amount: int) -> int:
        """Money from outside into ``player``'s wallet; return the transaction id."""
        return self.post(f"deposit {player}", {EXTERNAL: -amount, wallet_account(player): amount})

    def withdraw(self, player: str, amount: int) -> int:
        """Money from ``player``'s wallet to the outside; return the transaction id."""
        return self.post(f"withdraw {player}", {wallet_account(player): -amount, EXTERNAL: amount})

    def balance(self, name: str) -> int:
        """The balance of account ``name``: the sum of its entries (0 if it has none)."""
        with self.database.connect() as conn:
            found = conn.execute(sa.select(accounts.c.id).where(accounts.c.name == name)).scalar()
            return 0 if found is None else books.balances(conn, [int(found)])[int(found)]

    def balances(self, kind: AccountKind | None = None) -> dict[str, int]:
        """Every account's balance (of one kind, if given), by name."""
        query = (
            sa.select(accounts.c.name, sa.func.coalesce(sa.func.sum(entries.c.amount), 0))
            .select_from(accounts.outerjoin(entries, entries.c.account_id == accounts.c.id))
            .group_by(accounts.c.name)
            .order_by(accounts.c.name)
        )
        if kind is not None:
            query = query.where(accounts.c.kind == kind.value)
        with self.database.connect() as conn:
            return {name: int(total) for name, total in conn.execute(query)}

    def unbalanced_transactions(self) -> list[int]:
        """Ids of transactions whose entries do not sum to zero (always empty)."""
        query = (
            sa.select(entries.c.transaction_id)
            .group_by(entries.c.transaction_id)
            .having(sa.func.sum(entries.c.amount) != 0)
        )
        with self.database.connect() as conn:
            return [int(row[0]) for row in conn.execute(query)]

    def check_invariants(self) -> list[str]:
        """Every broken money invariant, in words (`baccara.db.books.check_invariants`)."""
        with self.database.connect() as conn:
            return books.check_invariants(conn)

    # -- sessions -----------------------------------------------------------------------

    def create_session(self, table: Table, *, name: str = "table") -> int:
        """A new session for ``table`` (before its first event); return its id."""
        if table.log:
            raise StoreError("create the session before the table's first action")
        history = TableHistory.of(table).to_json()
        now = _now()
        with writing(self.database) as conn:
            result = conn.execute(
                sessions.insert().values(
                    name=name,
                    variant=table.variant.name,
                    rules=history[
                        "rules"
                    ],  # the column keeps its name "rules": it holds the settings
                    seed=table.seed,
                    house=table.house_start,
                    created_at=now,
                    updated_at=now,
                    closed=False,
                )
            )
            return _new_id(result)

    def save(self, session: int, table: Table) -> int:
        """Store ``table``'s events not stored yet, post their money, in one transaction.

        Return the number of events stored for the session.
        """
        with writing(self.database) as conn:
            stored = conn.execute(
                sa.select(sa.func.count()).select_from(events).where(events.c.session_id == session)
            ).scalar_one()
            closed = conn.execute(
                sa.select(sessions.c.closed).where(sessions.c.id == session)
            ).scalar()
            if closed is None:
                raise StoreError(f"unknown session {session}")
            if closed:
                raise StoreError(f"session {session} is closed")
            new = table.log[stored:]
            now = _now()
            rows: list[dict[str, Any]] = []
            for seq, event in enumerate(new, start=stored):
                data = event_to_json(event)
                row = {"session_id": session, "seq": seq, "type": data["type"], "data": data}
                rows.append({**row, "created_at": now})
            if rows:
                conn.execute(events.insert(), rows)
            for seq, event in enumerate(new, start=stored):
                self._store_event(conn, session, seq, event, table)
            conn.execute(
                sessions.update().where(sessions.c.id == session).values(updated_at=_now())
            )
            return stored + len(new)

    def _store_event(
        self, conn: Connection, session: int, seq: int, event: Event, table: Table
    ) -> None:
        seat_name = seat_account(session, getattr(event, "seat", 0))
        match event:
            case ShoeChanged():
                cards = table.shoes[event.shoe - 1]
                text = None if cards is None else ",".join(str(c) for c in cards)
                conn.execute(
                    shoes.insert().values(session_id=session, number=event.shoe, cards=text)
                )
            case SeatTaken():
                self.post(
                    f"seat {event.seat}: {event.player} buys in",
                    {wallet_account(event.player): -event.stack, seat_name: event.stack},
                    session=session,
                    event_seq=seq,
                    conn=conn,
                )
                conn.execute(
                    seats.insert().values(
                        session_id=session,
                        seat=event.seat,
                        player=event.player,
                        strategy=event.strategy,
                        buy_in=event.stack,
                        sat_seq=seq,
                    )
                )
            case SeatLeft():
                if event.stack:
                    self.post(
                        f"seat {event.seat}: {event.player} leaves",
                        {seat_name: -event.stack, wallet_account(event.player): event.stack},
                        session=session,
                        event_seq=seq,
                        conn=conn,
                    )
                conn.execute(
                    seats.update()
                    .where(
                        seats.c.session_id == session,
                        seats.c.seat == event.seat,
                        seats.c.left_seq.is_(None),
                    )
                    .values(cash_out=event.stack, left_seq=seq)
                )
            case CoupSettled():
                nets: dict[str, int] = {}
                for r in event.results:
                    name = seat_account(session, r.seat)
                    nets[name] = nets.get(name, 0) + r.net
                if any(nets.values()):
                    nets[HOUSE] = event.house
                    self.post(
                        f"shoe {event.shoe} coup {event.number}: {event.coup}",
                        nets,
                        session=session,
                        event_seq=seq,
                        conn=conn,
                    )
                conn.execute(
                    hands.insert().values(
                        session_id=session,
                        shoe=event.shoe,
                        coup=event.number,
                        notation=event.coup.notation(),
                        winner=event.coup.winner.value,
                        player_total=event.coup.player_total,
                        banker_total=event.coup.banker_total,
                        staked=sum(r.stake for r in event.results),
                        house_net=event.house,
                        created_at=_now(),
                    )
                )
            case _:
                pass

    def close_session(self, session: int) -> None:
        """Mark ``session`` closed (it stays readable)."""
        with writing(self.database) as conn:
            conn.execute(
                sessions.update()
                .where(sessions.c.id == session)
                .values(closed=True, updated_at=_now())
            )

    def list_sessions(self, *, open_only: bool = False) -> list[SessionInfo]:
        """The stored sessions, the most recently updated first."""
        count = (
            sa.select(sa.func.count())
            .select_from(events)
            .where(events.c.session_id == sessions.c.id)
            .scalar_subquery()
        )
        query = sa.select(sessions, count.label("events")).order_by(
            sessions.c.updated_at.desc(), sessions.c.id.desc()
        )
        if open_only:
            query = query.where(sessions.c.closed.is_(False))
        with self.database.connect() as conn:
            return [
                SessionInfo(
                    id=row.id,
                    name=row.name,
                    variant=row.variant,
                    seed=row.seed,
                    created_at=row.created_at,
                    updated_at=row.updated_at,
                    closed=bool(row.closed),
                    events=int(row.events),
                )
                for row in conn.execute(query)
            ]

    def history(self, session: int) -> TableHistory:
        """The session's `TableHistory`, read back from its rows."""
        with self.database.connect() as conn:
            row = conn.execute(sa.select(sessions).where(sessions.c.id == session)).first()
            if row is None:
                raise StoreError(f"unknown session {session}")
            shoe_rows = conn.execute(
                sa.select(shoes.c.cards)
                .where(shoes.c.session_id == session)
                .order_by(shoes.c.number)
            ).all()
            event_rows = conn.execute(
                sa.select(events.c.data)
                .where(events.c.session_id == session)
                .order_by(events.c.seq)
            ).all()
        data: dict[str, Any] = {
            "format": "baccara-table/1",
            "variant": row.variant,
            "rules": row.rules,  # the settings, saved under the record's key "rules"
            "seed": row.seed,
            "house": row.house,
            "shoes": [r.cards for r in shoe_rows],
            "events": [_as_dict(r.data) for r in event_rows],
        }
        return TableHistory.from_json(data)

    def load_table(self, session: int) -> Table:
        """The session's table, rebuilt by replaying its events (to resume play)."""
        return replay(self.history(session))

    def read_events(self, session: int, since: int = 0) -> list[Event]:
        """The session's events from number ``since`` on."""
        with self.database.connect() as conn:
            rows = conn.execute(
                sa.select(events.c.data)
                .where(events.c.session_id == session, events.c.seq >= since)
                .order_by(events.c.seq)
            ).all()
        return [event_from_json(_as_dict(r.data)) for r in rows]

    def hand_history(self, session: int, *, limit: int | None = None) -> list[HandRow]:
        """The session's coups, oldest first (the last ``limit`` if given)."""
        query = sa.select(hands).where(hands.c.session_id == session).order_by(hands.c.id.desc())
        if limit is not None:
            query = query.limit(limit)
        with self.database.connect() as conn:
            rows = conn.execute(query).all()
        return [
            HandRow(
                shoe=r.shoe,
                coup=r.coup,
                notation=r.notation,
                winner=r.winner,
                player_total=r.player_total,
                banker_total=r.banker_total,
                staked=r.staked,
                house_net=r.house_net,
            )
            for r in reversed(rows)
        ]

    def seat_history(self, session: int) -> list[dict[str, Any]]:
        """Who sat where at ``session``: player, strategy, buy-in and cash-out."""
        with self.database.connect() as conn:
            rows = conn.execute(
                sa.select(seats).where(seats.c.session_id == session).order_by(seats.c.id)
            ).all()
        return [
            {
                "seat": r.seat,
                "player": r.player,
                "strategy": r.strategy,
                "buy_in": r.buy_in,
                "cash_out": r.cash_out,
            }
            for r in rows
        ]


def _new_id(result: sa.CursorResult[Any]) -> int:
    key = result.inserted_primary_key
    if key is None:  # pragma: no cover - every table here has an integer key
        raise StoreError("the database returned no new id")
    return int(key[0])


def _as_dict(data: Any) -> dict[str, Any]:
    if isinstance(data, str):
        data = json.loads(data)
    if not isinstance(data, dict):
        raise StoreError("a stored event is not a JSON object")
    return data
