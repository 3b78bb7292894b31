"""The players' tables' money and decisions: chips bought in, every decision with its money.

At a players' table (Chemin de Fer, Baccarat Banque) the money is the players': a
player buys chips from the wallet (``seat:web:TABLE:NAME``, a seat account), the bank
and the stakes on the felt lie in the table's pot (``escrow:pot:TABLE``), and the house
takes its commission. Each decision is one transaction: its row in ``skill_actions``
and the money it moved, so the decisions in the database and the money always agree.

>>> from baccara.db.ledger import Ledger
>>> book = Ledger.connect("sqlite://")
>>> ann = book.create_account("wallet:ann")
>>> _ = book.deposit(ann, 50_000, ref="welcome:ann")
>>> chips = Chips(book, "c1")
>>> chips.buy_in("ann", 20_000), book.balance(ann)
(20000, 30000)
>>> chips.cash_out("ann"), book.balance(ann)
(20000, 50000)
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any, TypedDict

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from baccara.db import gate
from baccara.db.betting import BetError
from baccara.db.books import HOUSE, account_ids, balances, post, wallet_account
from baccara.db.database import writing
from baccara.db.ledger import Ledger
from baccara.db.schema import accounts, online_shoes, skill_actions
from baccara.money import format_money
from baccara.skill.actions import Act, Action

__all__ = ["HOUSE_KEY", "POT", "Chips", "SeatRow", "chips_account"]

POT = "#pot"
"""The key, in a money state, of the table's pot (the bank and the stakes on the felt):
no player's name can be it (names are letters, digits, ``_`` and ``-``)."""
HOUSE_KEY = "#house"
"""The key, in a money state, of the house's commission."""


def stored_action(row: Mapping[Any, Any]) -> Action:
    """A ``skill_actions`` row as the decision it stores (seat -1: the house's rule)."""
    return Action(
        act=Act(row["action"]),
        seat=None if row["seat"] < 0 else int(row["seat"]),
        amount=int(row["amount"] or 0),
        tableau=row["tableau"],
    )


def chips_account(table: str, player: str) -> str:
    """The account of ``player``'s chips at players' table ``table``.

    >>> chips_account("c1", "ann")
    'seat:web:c1:ann'
    """
    return f"seat:web:{table}:{player}"


class SeatRow(TypedDict):
    """A seat of a shoe as stored: its player and the chips they had at its start."""

    name: str
    chips: int


class Chips:
    """The money and the decisions of one players' table."""

    def __init__(self, ledger: Ledger, table: str) -> None:
        self.ledger = ledger
        self.table = table
        self.pot = f"escrow:pot:{table}"

    def _names(self, players: Any) -> dict[str, str]:
        names = {player: chips_account(self.table, player) for player in players}
        return {**names, POT: self.pot, HOUSE_KEY: HOUSE}

    def buy_in(self, player: str, amount: int, *, now: float | None = None) -> int:
        """Move ``amount`` from ``player``'s wallet to chips at this table (a first buy-in
        or more chips); the chips now. Through the money gate (`baccara.db.gate`): one
        transaction under the player's lock checks the player's protections (exclusion,
        suspension, the daily loss limit at ``now``) and the balance. Refused with
        `BetError` (``insufficient_funds``, ``loss_limit``, ``self_excluded``...),
        nothing changed."""
        return self.ledger.write(lambda conn: self._buy(conn, player, amount, now))

    def _buy(self, conn: Connection, player: str, amount: int, now: float | None) -> int:
        if isinstance(amount, bool) or not isinstance(amount, int) or amount <= 0:
            raise BetError("bad_amount", f"bad buy-in {amount!r}: an amount above 0.00")
        moment = time.time() if now is None else now
        ids = account_ids(conn, [wallet_account(player), chips_account(self.table, player)])
        wallet, seat = ids[wallet_account(player)], ids[chips_account(self.table, player)]
        held = gate.lock_wallets(conn, [wallet])[wallet]
        held.check(moment)
        gate.check_losses(conn, held, wallet, amount, moment)
        if (have := held.balance) < amount:
            raise BetError(
                "insufficient_funds",
                f"a buy-in of {format_money(amount)} is over your balance of {format_money(have)}",
            )
        memo = f"buy-in {self.table} {player}"
        post(conn, memo, {wallet: -amount, seat: amount}, at=gate.stamp(now))
        return balances(conn, [seat])[seat]

    def cash_out(self, player: str, *, now: float | None = None) -> int:
        """Move all of ``player``'s chips here back to the wallet (under the player's lock,
        as every movement of their money); the amount moved."""
        return self.ledger.write(lambda conn: self._cash_out(conn, player, now))

    def _cash_out(self, conn: Connection, player: str, now: float | None) -> int:
        ids = account_ids(conn, [wallet_account(player), chips_account(self.table, player)])
        wallet, seat = ids[wallet_account(player)], ids[chips_account(self.table, player)]
        gate.lock_wallets(conn, [wallet])
        amount = balances(conn, [seat])[seat]
        if amount:
            memo = f"cash-out {self.table} {player}"
            post(conn, memo, {seat: -amount, wallet: amount}, at=gate.stamp(now))
        return amount

    def stacks(self, players: Any) -> dict[str, int]:
        """Each player's chips at this table, and the pot (under `POT`)."""
        names = self._names(players)
        with writing(self.ledger.database) as conn:
            ids = account_ids(conn, names.values())
            found = balances(conn, ids.values())
        return {key: found[ids[name]] for key, name in names.items() if key != HOUSE_KEY}

    def holders(self) -> list[str]:
        """The players who hold chips at this table, in the order they first bought in
        (after a restart, the table seats them again).

        >>> from baccara.db.ledger import Ledger
        >>> book = Ledger.connect("sqlite://")
        >>> for name in ("bo", "al"):
        ...     _ = book.deposit(book.create_account(f"wallet:{name}"), 5_000, ref=name)
        >>> chips = Chips(book, "c1")
        >>> _ = chips.buy_in("bo", 1_000), chips.buy_in("al", 1_000), chips.cash_out("bo")
        >>> chips.holders()
        ['al']
        """
        prefix = chips_account(self.table, "")
        with self.ledger.database.connect() as conn:
            rows = conn.execute(
                sa.select(accounts.c.name, accounts.c.balance)
                .where(accounts.c.name.startswith(prefix, autoescape=True), accounts.c.balance != 0)
                .order_by(accounts.c.id)
            ).all()
        return [str(name)[len(prefix) :] for name, _ in rows]

    def record(
        self,
        shoe_id: int,
        seq: int,
        action: Action,
        timed_out: bool,
        moves: Mapping[str, int],
        *,
        player: str | None = None,
        now: float | None = None,
    ) -> None:
        """Store decision ``seq`` of shoe ``shoe_id`` (``timed_out``: the clock took the
        house's rule) and the money it moved (by player, `POT` and `HOUSE_KEY`), in one
        transaction; a decision stored twice is refused. A seat's own act moves
        ``player``'s wallet in the same transaction: chips added are bought through the
        money gate first (refused with `BetError`, nothing stored), a seat that leaves
        is cashed out."""

        def work(conn: Connection) -> None:
            if action.act is Act.ADD_CHIPS:
                assert player is not None
                self._buy(conn, player, action.amount, now)
            at = None if now is None else datetime.fromtimestamp(now, UTC)  # the table's clock
            txn = self._post(conn, f"decision {shoe_id}:{seq}", moves, at=at)
            if action.act is Act.LEAVE:
                assert player is not None
                self._cash_out(conn, player, now)
            conn.execute(
                skill_actions.insert().values(
                    shoe_id=shoe_id,
                    seq=seq,
                    seat=-1 if action.seat is None else action.seat,
                    action=action.act.value,
                    amount=action.amount,
                    timed_out=timed_out,
                    transaction_id=txn,
                    tableau=action.tableau,
                )
            )
            self.ledger._point("decided")

        self.ledger.write(work)

    def _post(
        self, conn: Connection, memo: str, moves: Mapping[str, int], at: datetime | None = None
    ) -> int | None:
        if not any(moves.values()):
            return None
        names = self._names(key for key in moves if key not in (POT, HOUSE_KEY))
        ids = account_ids(conn, [names[key] for key in moves])
        return post(conn, memo, {ids[names[key]]: amount for key, amount in moves.items()}, at=at)

    def actions(self, shoe_id: int) -> list[tuple[Action, bool]]:
        """Shoe ``shoe_id``'s decisions in order, each with whether the clock took it."""
        with self.ledger.database.connect() as conn:
            rows = conn.execute(
                sa.select(skill_actions)
                .where(skill_actions.c.shoe_id == shoe_id)
                .order_by(skill_actions.c.seq)
            ).mappings()
            return [(stored_action(r), bool(r["timed_out"])) for r in rows]

    def set_seats(self, shoe_id: int, seats: list[SeatRow], *, minimum: int) -> None:
        """Store who sat in shoe ``shoe_id`` and with how many chips (at its start), and
        the table's minimum it was dealt at (its seating is sealed with it)."""
        with writing(self.ledger.database) as conn:
            conn.execute(
                online_shoes.update()
                .where(online_shoes.c.id == shoe_id)
                .values(seats=seats, minimum=minimum)
            )

    def minimum(self, shoe_id: int) -> int | None:
        """The minimum shoe ``shoe_id`` was dealt at (None: not stored, an older shoe)."""
        with self.ledger.database.connect() as conn:
            found = conn.execute(
                sa.select(online_shoes.c.minimum).where(online_shoes.c.id == shoe_id)
            ).scalar()
        return None if found is None else int(found)

    def seats(self, shoe_id: int) -> list[SeatRow] | None:
        """Who sat in shoe ``shoe_id`` and with how many chips, if it was dealt."""
        with self.ledger.database.connect() as conn:
            found = conn.execute(
                sa.select(online_shoes.c.seats).where(online_shoes.c.id == shoe_id)
            ).scalar()
        return None if found is None else list(found)
