"""The money model on SQLite and PostgreSQL: bets by id, settlement once, invariants.

Every test's ledger is checked after the test: all entries sum to 0, each transaction
sums to 0, no player balance is negative, each round settled at most once, every
finished round's escrow is 0.
"""

from __future__ import annotations

import math
import threading
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from baccara.bets import BetKind, settle
from baccara.coup import Coup
from baccara.db.ledger import (
    MAX_AMOUNT,
    BetError,
    BetRequest,
    Ledger,
    LedgerError,
    database_at,
    wallet_account,
)
from baccara.variants import PUNTO_BANCO

BANKER_WINS = Coup.parse("P:6h,Kd B:7s,Kc")
PLAYER_WINS = Coup.parse("P:7h,Kd B:6s,Kc")
TIE = Coup.parse("P:7h,Kd B:7s,Kc")


@pytest.fixture
def ledger(database_url: str) -> Iterator[Ledger]:
    book = Ledger.connect(database_url)
    yield book
    assert book.check_invariants() == []
    book.database.dispose()


def _player(ledger: Ledger, name: str, amount: int = 100_000) -> int:
    account = ledger.create_account(wallet_account(name))
    ledger.deposit(account, amount, ref=f"welcome:{name}")
    return account


def test_bet_settle_and_pay(ledger: Ledger) -> None:
    ann, bob = _player(ledger, "ann"), _player(ledger, "bob")
    rnd = ledger.open_round(table="t", number=1, shoe_id=None, coup_index=1)
    ledger.place_bet(account=ann, round_id=rnd, bet_id="a1", kind="banker", amount=10_000)
    ledger.place_bet(account=ann, round_id=rnd, bet_id="a2", kind="tie", amount=1_000)
    ledger.place_bet(account=bob, round_id=rnd, bet_id="b1", kind="player", amount=5_000)
    escrow = ledger.round(rnd)["escrow_id"]
    assert ledger.balance(escrow) == 16_000
    ledger.close_round(rnd)
    assert ledger.settle_round(rnd, BANKER_WINS, "punto-banco") is True
    assert ledger.settle_round(rnd, BANKER_WINS, "punto-banco") is False
    # Banker 1:1 less 5%: 10000 back + 9500; the tie and the player bets lose.
    assert ledger.balance(ann) == 100_000 - 11_000 + 19_500
    assert ledger.balance(bob) == 95_000
    assert ledger.balance(escrow) == 0
    assert ledger.balance(ledger.house) == 1_000 + 5_000 - 9_500
    statuses = {b["bet_id"]: (b["status"], b["returned"]) for b in ledger.round_bets(rnd)}
    assert statuses == {"a1": ("settled", 19_500), "a2": ("settled", 0), "b1": ("settled", 0)}


def test_tie_pushes_main_bets_and_void_refunds(ledger: Ledger) -> None:
    ann = _player(ledger, "ann")
    first = ledger.open_round(table="t", number=1, shoe_id=None, coup_index=1)
    ledger.place_bet(account=ann, round_id=first, bet_id="x", kind="player", amount=2_000)
    ledger.place_bet(account=ann, round_id=first, bet_id="y", kind="tie", amount=100)
    ledger.close_round(first)
    ledger.settle_round(first, TIE, "punto-banco")
    assert ledger.balance(ann) == 100_000 + 800
    second = ledger.open_round(table="t", number=2, shoe_id=None, coup_index=2)
    ledger.place_bet(account=ann, round_id=second, bet_id="z", kind="banker", amount=7_000)
    assert ledger.void_round(second) is True
    assert ledger.void_round(second) is False
    assert ledger.settle_round(second, BANKER_WINS, "punto-banco") is False
    assert ledger.balance(ann) == 100_800
    assert ledger.round(second)["phase"] == "voided"


def test_resend_is_answered_from_the_store(ledger: Ledger) -> None:
    ann = _player(ledger, "ann")
    rnd = ledger.open_round(table="t", number=1, shoe_id=None, coup_index=1)
    first = ledger.place_bet(account=ann, round_id=rnd, bet_id="same", kind="banker", amount=500)
    again = ledger.place_bet(account=ann, round_id=rnd, bet_id="same", kind="banker", amount=500)
    assert (first.duplicate, again.duplicate) == (False, True)
    assert again.balance == first.balance == 99_500
    with pytest.raises(BetError, match="already used for banker 500") as info:
        ledger.place_bet(account=ann, round_id=rnd, bet_id="same", kind="banker", amount=600)
    assert info.value.code == "bet_id_reused"
    with pytest.raises(BetError, match="already used"):
        ledger.place_bet(account=ann, round_id=rnd, bet_id="same", kind="player", amount=500)
    assert ledger.balance(ann) == 99_500
    # After settlement the resend still returns the stored bet, with its result.
    ledger.close_round(rnd)
    ledger.settle_round(rnd, BANKER_WINS, "punto-banco")
    late = ledger.place_bet(account=ann, round_id=rnd, bet_id="same", kind="banker", amount=500)
    assert (late.duplicate, late.status, late.returned) == (True, "settled", 975)
    assert ledger.balance(ann) == 99_500 + 975


@pytest.mark.parametrize(
    ("amount", "message"),
    [
        (-100, "must be positive"),
        (0, "must be positive"),
        (12.5, "whole number"),
        (math.nan, "whole number"),
        (math.inf, "whole number"),
        (MAX_AMOUNT + 1, "at most"),
        (10**30, "at most"),
        ("100", "whole number"),
        (True, "whole number"),
        (None, "whole number"),
    ],
)
def test_bad_amounts_change_nothing(ledger: Ledger, amount: Any, message: str) -> None:
    ann = _player(ledger, "ann")
    rnd = ledger.open_round(table="t", number=1, shoe_id=None, coup_index=1)
    with pytest.raises(BetError, match=message) as info:
        ledger.place_bet(account=ann, round_id=rnd, bet_id="b", kind="banker", amount=amount)
    assert info.value.code == "bad_amount"
    assert ledger.balance(ann) == 100_000
    assert ledger.round_bets(rnd) == []


def test_refusals_change_nothing(ledger: Ledger) -> None:
    ann = _player(ledger, "ann", 1_000)
    rnd = ledger.open_round(table="t", number=1, shoe_id=None, coup_index=1)
    with pytest.raises(BetError, match=r"over your balance of 10\.00") as info:
        ledger.place_bet(account=ann, round_id=rnd, bet_id="big", kind="banker", amount=1_001)
    assert info.value.code == "insufficient_funds"
    with pytest.raises(BetError, match="unknown round"):
        ledger.place_bet(account=ann, round_id=999, bet_id="x", kind="banker", amount=10)
    with pytest.raises(BetError, match="bad bet id"):
        ledger.place_bet(account=ann, round_id=rnd, bet_id="", kind="banker", amount=10)
    ledger.close_round(rnd)
    with pytest.raises(BetError, match="no more bets") as info:
        ledger.place_bet(account=ann, round_id=rnd, bet_id="late", kind="banker", amount=10)
    assert info.value.code == "betting_closed"
    assert ledger.balance(ann) == 1_000
    with pytest.raises(LedgerError, match="unknown round"):
        ledger.settle_round(12345, BANKER_WINS, "punto-banco")
    assert ledger.deposit(ann, 50, ref="gift") is True
    assert ledger.deposit(ann, 50, ref="gift") is False
    assert ledger.balance(ann) == 1_050


def test_concurrent_bets_never_overdraw_nor_double(ledger: Ledger, database_url: str) -> None:
    """Eight threads race the same player's bets and resends: one debit per id, no overdraft."""
    ann = _player(ledger, "ann", 10_000)
    rnd = ledger.open_round(table="t", number=1, shoe_id=None, coup_index=1)
    books = [Ledger(database_at(database_url)) for _ in range(4)]
    errors: list[str] = []
    accepted: list[str] = []
    lock = threading.Lock()

    def worker(index: int) -> None:
        book = books[index % len(books)]
        for n in range(12):
            bet_id = f"id{n % 8}"  # every id is sent by several threads
            try:
                receipt = book.place_bet(
                    account=ann, round_id=rnd, bet_id=bet_id, kind="player", amount=1_500
                )
            except BetError as error:
                with lock:
                    errors.append(error.code)
                continue
            if not receipt.duplicate:
                with lock:
                    accepted.append(bet_id)

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for book in books:
        book.database.dispose()
    placed = ledger.round_bets(rnd)
    assert len(placed) == len(accepted) == len(set(accepted)) == 6  # 6 x 1500 <= 10000 < 7 x
    assert set(errors) <= {"insufficient_funds"}
    assert ledger.balance(ann) == 10_000 - 6 * 1_500


def test_limits_hold_across_parallel_connections(ledger: Ledger, database_url: str) -> None:
    """Three connections send a 300.00 Tie at once against a 500.00 maximum: one passes.

    The limit is checked where the player's bets are serialised (the account's row lock
    on PostgreSQL, the single writer on SQLite), so no number of connections passes it.
    """
    ann = _player(ledger, "ann", 500_000)
    rnd = ledger.open_round(table="t", number=1, shoe_id=None, coup_index=1)
    books = [Ledger(database_at(database_url)) for _ in range(3)]
    start = threading.Barrier(len(books))
    placed: list[str] = []
    refused: list[BetError] = []
    lock = threading.Lock()

    def connection(index: int) -> None:
        start.wait()
        try:
            books[index].place_bet(
                account=ann,
                round_id=rnd,
                bet_id=f"tie{index}",
                kind="tie",
                amount=30_000,
                minimum=100,
                maximum=50_000,
            )
        except BetError as error:
            with lock:
                refused.append(error)
            return
        with lock:
            placed.append(f"tie{index}")

    threads = [threading.Thread(target=connection, args=(i,)) for i in range(len(books))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for book in books:
        book.database.dispose()
    assert len(placed) == 1
    assert [error.code for error in refused] == ["over_limit", "over_limit"]
    assert "500.00" in str(refused[0]) and "50000" not in str(refused[0])
    assert sum(bet["amount"] for bet in ledger.round_bets(rnd)) == 30_000
    assert ledger.balance(ann) == 500_000 - 30_000


def test_limits_count_the_round_and_the_batch(ledger: Ledger) -> None:
    """The maximum counts what the account has on that kind in that round, batch included."""
    ann, bob = _player(ledger, "ann", 200_000), _player(ledger, "bob")
    rnd = ledger.open_round(table="t", number=1, shoe_id=None, coup_index=1)
    limits = {"minimum": 1_000, "maximum": 50_000}
    ledger.place_bet(account=ann, round_id=rnd, bet_id="a1", kind="tie", amount=20_000, **limits)
    bets = [
        (ann, "a2", "tie", 30_000),
        (ann, "a3", "tie", 100),
        (ann, "a4", "banker", 50_000),
        (bob, "b1", "tie", 50_000),
        (ann, "a5", "tie", 500),
    ]
    answers = ledger.place_bets(
        [
            BetRequest(account=a, round_id=rnd, bet_id=b, kind=k, amount=v, **limits)
            for a, b, k, v in bets
        ]
    )
    codes = [a.code if isinstance(a, BetError) else "ok" for a in answers]
    # a3 and a5 would take ann's Tie spot (500.00 after a2) over its maximum
    assert codes == ["ok", "over_limit", "ok", "ok", "over_limit"]
    with pytest.raises(BetError, match=r"Tie maximum is 500\.00: .* 500\.00 on it") as info:
        ledger.place_bet(account=ann, round_id=rnd, bet_id="a6", kind="tie", amount=1_000, **limits)
    assert info.value.code == "over_limit"
    # The minimum is the spot's total, as at the table: 9.99 alone is too little, but
    # 5.00 more on a spot that holds 10.00 is fine.
    with pytest.raises(BetError, match=r"minimum is 10\.00: 9\.99 on it") as info:
        ledger.place_bet(
            account=bob, round_id=rnd, bet_id="b2", kind="player", amount=999, **limits
        )
    assert info.value.code == "under_limit"
    for bet_id, amount in (("b3", 1_000), ("b4", 500)):
        ledger.place_bet(
            account=bob, round_id=rnd, bet_id=bet_id, kind="player", amount=amount, **limits
        )
    # A resend of a placed bet is answered from the store, whatever the limits now say.
    again = ledger.place_bet(
        account=ann, round_id=rnd, bet_id="a2", kind="tie", amount=30_000, **limits
    )
    assert again.duplicate
    # Without limits, as before: no check.
    ledger.place_bet(account=ann, round_id=rnd, bet_id="a8", kind="tie", amount=1)
    assert ledger.balance(ann) == 200_000 - 20_000 - 30_000 - 50_000 - 1


class Crash(Exception):
    """A simulated process death inside a write transaction."""


class MoneyMachine(RuleBasedStateMachine):
    """Random bets, resends, bad input, settlements, voids, crashes and restarts.

    The model is plain Python: what every player should hold. A crash inside a
    transaction (after the debit, during settlement) must leave no trace; a restart
    (a new Ledger on the same file) must find every committed bet and settlement.
    """

    url = ""

    def __init__(self) -> None:
        super().__init__()
        self.book = Ledger.connect(self.url)
        self.tag = uuid.uuid4().hex[:8]  # examples share one database
        self.players = [_player(self.book, f"{self.tag}-{i}", 50_000) for i in range(3)]
        self.model = dict.fromkeys(self.players, 50_000)
        self.sent: dict[tuple[int, str], tuple[int, int, str]] = {}
        self.round: int | None = None
        self.number = 0
        self.crash_at: str | None = None
        self.closed = False

    def _fault(self, point: str) -> None:
        if point == self.crash_at:
            self.crash_at = None
            raise Crash(point)

    def teardown(self) -> None:
        self.book.database.dispose()

    @precondition(lambda self: self.round is None)
    @rule()
    def open_round(self) -> None:
        self.number += 1
        self.round = self.book.open_round(
            table=self.tag, number=self.number, shoe_id=None, coup_index=self.number
        )

    @precondition(lambda self: self.round is not None)
    @rule(
        who=st.integers(0, 2),
        bet=st.integers(0, 5),
        amount=st.one_of(st.integers(1, 30_000), st.sampled_from([0, -5, 2.5, math.nan, 10**13])),
        kind=st.sampled_from(["player", "banker", "tie", "player_pair"]),
        crash=st.booleans(),
    )
    def bet(self, who: int, bet: int, amount: Any, kind: str, crash: bool) -> None:
        assert self.round is not None
        account, bet_id = self.players[who], f"r{self.number}-{bet}"
        self.crash_at = "bet_debited" if crash else None
        self.book.fault = self._fault
        previous = self.sent.get((account, bet_id))
        try:
            receipt = self.book.place_bet(
                account=account, round_id=self.round, bet_id=bet_id, kind=kind, amount=amount
            )
        except Crash:
            return
        except BetError as error:
            self._check_refusal(error.code, previous, (amount, self.round, kind), account)
            return
        finally:
            self.book.fault = None
        if previous is None:
            assert not receipt.duplicate
            self.sent[(account, bet_id)] = (amount, self.round, kind)
            self.model[account] -= amount
        else:
            assert receipt.duplicate and (previous[0], previous[2]) == (amount, kind)
        assert receipt.balance == self.model[account]

    def _check_refusal(
        self, code: str, previous: object, sent: tuple[Any, int, str], account: int
    ) -> None:
        if code == "bet_id_reused":
            assert previous is not None and (previous[0], previous[2]) != (sent[0], sent[2])
        elif code == "insufficient_funds":
            assert self.model[account] < sent[0]
        elif code == "betting_closed":
            assert self.closed  # a settlement crashed after "no more bets"
        else:
            assert code == "bad_amount"

    @precondition(lambda self: self.round is not None)
    @rule(coup=st.sampled_from([BANKER_WINS, PLAYER_WINS, TIE]), crash=st.booleans())
    def settle(self, coup: Coup, crash: bool) -> None:
        assert self.round is not None
        self.book.close_round(self.round)
        self.closed = True
        self.crash_at = "settling" if crash else None
        self.book.fault = self._fault
        try:
            done = self.book.settle_round(self.round, coup, "punto-banco")
        except Crash:
            return  # the round stays closed; a later settle or void finishes it
        finally:
            self.book.fault = None
        assert done
        spots: dict[tuple[int, str], int] = {}  # a player's bets on a spot settle as one
        for bet in self.book.round_bets(self.round):
            key = (bet["account_id"], bet["kind"])
            spots[key] = spots.get(key, 0) + bet["amount"]
        for (account, kind), stake in spots.items():
            self.model[account] += settle(BetKind(kind), stake, coup, PUNTO_BANCO).returned
        assert self.book.settle_round(self.round, coup, "punto-banco") is False
        self.round, self.closed = None, False

    @precondition(lambda self: self.round is not None)
    @rule()
    def void(self) -> None:
        assert self.round is not None
        assert self.book.void_round(self.round)
        for bet in self.book.round_bets(self.round):
            self.model[bet["account_id"]] += bet["amount"]
        self.round, self.closed = None, False

    @rule()
    def restart(self) -> None:
        self.book.database.dispose()
        self.book = Ledger.connect(self.url)

    @invariant()
    def books_balance(self) -> None:
        for account, expected in self.model.items():
            assert self.book.balance(account) == expected
        assert self.book.check_invariants() == []


def test_money_model_stateful(database_url: str, full_size: bool) -> None:
    MoneyMachine.url = database_url
    MoneyMachine.TestCase.settings = settings(
        max_examples=200 if full_size else 8, stateful_step_count=30, deadline=None
    )
    MoneyMachine.TestCase().runTest()


def test_group_commit_places_each_bet_or_refuses_it_alone(ledger: Ledger) -> None:
    ann, bob = _player(ledger, "ann", 5_000), _player(ledger, "bob", 5_000)
    rnd = ledger.open_round(table="t", number=1, shoe_id=None, coup_index=1)

    def req(account: int, bet_id: str, amount: Any) -> BetRequest:
        return BetRequest(
            account=account, round_id=rnd, bet_id=bet_id, kind="banker", amount=amount
        )

    answers = ledger.place_bets(
        [
            req(ann, "a", 3_000),
            req(ann, "b", 3_000),
            req(bob, "c", -1),
            req(bob, "d", 5_000),
            req(ann, "a", 3_000),
        ]
    )
    assert [getattr(a, "code", "ok") for a in answers] == [
        "ok",
        "insufficient_funds",
        "bad_amount",
        "ok",
        "ok",
    ]
    assert answers[4].duplicate is True  # type: ignore[union-attr]
    assert (ledger.balance(ann), ledger.balance(bob)) == (2_000, 0)
    assert [b["bet_id"] for b in ledger.round_bets(rnd)] == ["a", "d"]


def test_each_account_keeps_the_sum_of_its_entries(ledger: Ledger) -> None:
    """A balance is read from the account's row (revision 0006), moved with its entries
    in the same transaction; the invariants check that the two agree."""
    import sqlalchemy as sa

    from baccara.db.schema import accounts, entries

    ann = _player(ledger, "keeps_ann")
    rnd = ledger.open_round(table="kb", number=1, shoe_id=None, coup_index=1)
    for n in range(5):
        ledger.place_bet(account=ann, round_id=rnd, bet_id=f"k{n}", kind="banker", amount=1_000)
    ledger.close_round(rnd)
    ledger.settle_round(rnd, Coup.parse("P:6h,Kd B:7s,Kc"), "punto-banco")
    with ledger.database.connect() as conn:
        kept = dict(conn.execute(sa.select(accounts.c.id, accounts.c.balance)).all())
        summed = dict(
            conn.execute(
                sa.select(entries.c.account_id, sa.func.sum(entries.c.amount)).group_by(
                    entries.c.account_id
                )
            ).all()
        )
    assert {a: b for a, b in kept.items() if b} == {a: int(s) for a, s in summed.items() if s}
    assert ledger.balance(ann) == 100_000 - 5_000 + 9_750
    assert ledger.check_invariants() == []
    with ledger.database.begin() as conn:  # a balance that drifted from its entries is found
        conn.execute(accounts.update().where(accounts.c.id == ann).values(balance=1))
    assert ledger.check_invariants() == [
        f"account wallet:keeps_ann keeps 1, its entries sum to {100_000 - 5_000 + 9_750}"
    ]
    with ledger.database.begin() as conn:  # put right, for the fixture's own check
        conn.execute(accounts.update().where(accounts.c.id == ann).values(balance=104_750))
