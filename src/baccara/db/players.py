"""The players' games (Chemin de Fer, Baccarat Banque) in the terminal store.

A players' game is a session of the store's one schema: its row holds the variant, the
seed and the set-up (the seats' names, who is human, the bankroll, the house tableau);
its events are the humans' decisions, one row each as they are made; the bots need no
record, since they play from the seed. Replaying the decisions with the same seed gives
the same table, so an unfinished game resumes where it was.

Money goes through the store's ledger: each seat buys in from outside; after each
action the seats' accounts are brought to what each seat holds (its stack, its stakes
and the bank), the difference going to or coming from the house (the commission); at
the end each seat's money goes to its player's wallet.

>>> from baccara.db.store import Store
>>> store = Store("sqlite://")
>>> games = PlayersStore(store)
>>> session = games.start(variant="chemin-de-fer", seed=7, names=("Me", "Ada"),
...                       humans=(True, False), bankroll=10_000, setup={"tableau": "french"})
>>> games.decided(session, "2500"); games.decided(session, "draw")
>>> games.holdings(session, [7_500, 12_450], 50)
>>> game = games.load(session)
>>> game.seed, game.names, game.decisions, game.setup["tableau"]
(7, ('Me', 'Ada'), ('2500', 'draw'), 'french')
>>> games.finish(session, [7_500, 12_450])
>>> store.balance("wallet:Ada"), store.balance("house") == 50, store.check_invariants()
(12450, True, [])
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa

from baccara.db.books import EXTERNAL, HOUSE, LedgerError, seat_account, wallet_account
from baccara.db.database import writing
from baccara.db.schema import events, seats, sessions
from baccara.db.store import SessionInfo, Store

__all__ = ["FORMAT", "PlayersGame", "PlayersStore"]

FORMAT = "baccara-players/1"
"""The ``format`` of a players' game's set-up (``table_sessions.rules``)."""
_DECISION = "decision"


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayersGame:
    """A stored players' game: enough to replay it to where it was."""

    session: int
    variant: str
    seed: int
    names: tuple[str, ...]
    humans: tuple[bool, ...]
    bankroll: int
    setup: Mapping[str, Any]
    decisions: tuple[str, ...]


class PlayersStore:
    """The players' games of one `Store`."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def open_games(self, variants: Collection[str]) -> list[SessionInfo]:
        """The unfinished sessions of these variants, the most recent first."""
        return [s for s in self.store.list_sessions(open_only=True) if s.variant in variants]

    def start(
        self,
        *,
        variant: str,
        seed: int,
        names: Sequence[str],
        humans: Sequence[bool],
        bankroll: int,
        setup: Mapping[str, Any],
    ) -> int:
        """A new session: its set-up stored, each seat bought in; return its id."""
        document = {
            "format": FORMAT,
            "names": list(names),
            "humans": list(humans),
            "bankroll": bankroll,
            **setup,
        }
        now = datetime.now(UTC)
        with writing(self.store.database) as conn:
            result = conn.execute(
                sessions.insert().values(
                    name="players",
                    variant=variant,
                    rules=document,  # the column keeps its name "rules": it holds the set-up
                    seed=seed,
                    house=0,
                    created_at=now,
                    updated_at=now,
                    closed=False,
                )
            )
            key = result.inserted_primary_key
            assert key is not None
            session = int(key[0])
            for seat, name in enumerate(names, start=1):
                self.store.post(
                    f"seat {seat}: {name} buys in",
                    {EXTERNAL: -bankroll, seat_account(session, seat): bankroll},
                    session=session,
                    conn=conn,
                )
                conn.execute(
                    seats.insert().values(
                        session_id=session,
                        seat=seat,
                        player=name,
                        strategy=None if humans[seat - 1] else "equilibrium",
                        buy_in=bankroll,
                        sat_seq=0,
                    )
                )
        return session

    def load(self, session: int) -> PlayersGame:
        """The stored game ``session``."""
        with self.store.database.connect() as conn:
            row = conn.execute(sa.select(sessions).where(sessions.c.id == session)).first()
            if row is None:
                raise LedgerError(f"unknown session {session}")
            rows = conn.execute(
                sa.select(events.c.data)
                .where(events.c.session_id == session, events.c.type == _DECISION)
                .order_by(events.c.seq)
            ).all()
        document = dict(row.rules)  # the set-up, in the column "rules"
        if document.get("format") != FORMAT:
            raise LedgerError(f"session {session} is not a players' game")
        return PlayersGame(
            session=session,
            variant=row.variant,
            seed=int(row.seed),
            names=tuple(document.pop("names")),
            humans=tuple(document.pop("humans")),
            bankroll=int(document.pop("bankroll")),
            setup={k: v for k, v in document.items() if k != "format"},
            decisions=tuple(str(_data(r.data)["answer"]) for r in rows),
        )

    def decided(self, session: int, answer: str) -> None:
        """Store a human's decision (the next event of the session)."""
        with writing(self.store.database) as conn:
            seq = conn.execute(
                sa.select(sa.func.count()).select_from(events).where(events.c.session_id == session)
            ).scalar_one()
            now = datetime.now(UTC)
            data = {"type": _DECISION, "answer": answer}
            conn.execute(
                events.insert().values(
                    session_id=session, seq=seq, type=_DECISION, data=data, created_at=now
                )
            )
            conn.execute(sessions.update().where(sessions.c.id == session).values(updated_at=now))

    def holdings(self, session: int, holdings: Sequence[int], house: int) -> None:
        """Bring each seat's account to what it holds; the difference is the house's.

        ``house`` is the game's whole take so far: the seats' losses to the house must
        add up to what it took since the last call (refused, nothing written, if not).
        """
        moves: dict[str, int] = {}
        for seat, held in enumerate(holdings, start=1):
            name = seat_account(session, seat)
            if change := held - self.store.balance(name):
                moves[name] = change
        if not moves:
            return
        taken = self._taken(session)
        if -sum(moves.values()) != house - taken:
            raise LedgerError(
                f"session {session}: the seats lost {-sum(moves.values())} "
                f"but the house took {house - taken}"
            )
        moves[HOUSE] = -sum(moves.values())
        self.store.post(f"session {session}: coup settled", moves, session=session)

    def _taken(self, session: int) -> int:
        """What the house took from ``session`` so far (its commission)."""
        with self.store.database.connect() as conn:
            text = sa.text(
                "SELECT COALESCE(SUM(e.amount), 0) FROM table_entries e "
                "JOIN table_transactions t ON t.id = e.transaction_id "
                "JOIN table_accounts a ON a.id = e.account_id "
                "WHERE t.session_id = :session AND a.name = :house"
            )
            return int(conn.execute(text, {"session": session, "house": HOUSE}).scalar_one())

    def finish(self, session: int, holdings: Sequence[int]) -> None:
        """Close ``session``: each seat's money goes to its player's wallet."""
        game = self.load(session)
        with writing(self.store.database) as conn:
            for seat, (name, held) in enumerate(zip(game.names, holdings, strict=True), start=1):
                if held:
                    self.store.post(
                        f"seat {seat}: {name} leaves",
                        {seat_account(session, seat): -held, wallet_account(name): held},
                        session=session,
                        conn=conn,
                    )
                conn.execute(
                    seats.update()
                    .where(seats.c.session_id == session, seats.c.seat == seat)
                    .values(cash_out=held)
                )
            conn.execute(
                sessions.update()
                .where(sessions.c.id == session)
                .values(closed=True, updated_at=datetime.now(UTC))
            )

    def abandon(self, session: int) -> None:
        """Close an unfinished ``session`` at what its seats' accounts hold now."""
        game = self.load(session)
        held = [self.store.balance(seat_account(session, s)) for s in range(1, len(game.names) + 1)]
        self.finish(session, held)


def _data(data: Any) -> dict[str, Any]:
    if isinstance(data, str):
        import json

        data = json.loads(data)
    assert isinstance(data, dict)
    return data
