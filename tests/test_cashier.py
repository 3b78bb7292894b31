"""The cashier in the database (`baccara.db.cashier`), on SQLite and PostgreSQL: deposits
and withdrawals booked by double entry with their audit entry, every check inside the
transaction that books them (the player, the reference, the deposit limits over 24
hours, 7 and 30 days, the wallet), and threads racing on one wallet; the loss limits
over 7 and 30 days at the money gate."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import cast

import pytest
import sqlalchemy as sa
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from baccara.coup import Coup
from baccara.db.audit import entries, verify
from baccara.db.auth import Auth
from baccara.db.cashier import MAX_REFERENCE, Cashier, CashierError, Clerk, check_reference
from baccara.db.chips import Chips
from baccara.db.database import writing
from baccara.db.ledger import BetError, Ledger, wallet_account
from baccara.db.protections import DELAY, LimitKind, Period, Protections, suspend
from baccara.db.schema import cashier_moves, transactions
from baccara.db.staff import Role

BANKER_WINS = Coup.parse("P:6h,Kd B:7s,Kc")
NOON = 1_795_694_400.0  # 2026-11-26 12:00 UTC
HOUR, DAY = 3_600.0, 86_400.0
OLGA = Clerk(name="olga", role=Role.OPERATOR.value)
WELCOME = 10_000


@pytest.fixture
def ledger(database_url: str) -> Iterator[Ledger]:
    book = Ledger.connect(database_url)
    auth = Auth(book, welcome=WELCOME)
    auth.hasher = type(auth.hasher)(time_cost=1, memory_cost=8, parallelism=1)
    for name in ("ann", "bob"):
        auth.register(name, "a long password")
    auth.create_staff("olga", "a long password", Role.OPERATOR, actor="cli")
    yield book
    assert book.check_invariants() == []
    assert verify(book.database).whole
    book.database.dispose()


def _wallet(ledger: Ledger, name: str) -> int:
    return ledger.balance(ledger.create_account(wallet_account(name)))


def _refused(call: object, code: str) -> CashierError:
    assert callable(call)
    with pytest.raises(CashierError) as refused:
        call()
    assert refused.value.code == code, str(refused.value)
    return refused.value


def _booked(ledger: Ledger) -> int:
    with ledger.database.connect() as conn:
        return int(conn.execute(sa.select(sa.func.count()).select_from(cashier_moves)).scalar_one())


def test_a_deposit_and_a_withdrawal_are_booked_once_with_their_audit_entry(ledger: Ledger) -> None:
    cashier = Cashier(ledger)
    done = cashier.deposit("ANN", 2_500, "slip-1", OLGA, now=NOON)
    assert (done.player, done.amount, done.balance, done.duplicate) == ("ann", 2_500, 12_500, False)
    again = cashier.deposit("ann", 2_500, "slip-1", OLGA, now=NOON + 5)
    assert (again.id, again.at, again.duplicate, again.balance) == (done.id, NOON, True, 12_500)
    out = cashier.withdraw("ann", 12_500, "pay-1", OLGA, now=NOON + 10)
    assert out.balance == 0 and _wallet(ledger, "ann") == 0
    assert cashier.withdraw("ann", 12_500, "pay-1", OLGA, now=NOON + 20).duplicate
    assert _wallet(ledger, "ann") == 0 and _booked(ledger) == 2
    found = [(e.actor, e.role, e.action, e.target, e.after) for e in entries(ledger.database)][1:]
    assert found == [
        ("olga", "operator", "cashier.deposit", "ann",
         {"amount": 2_500, "balance": 12_500, "reference": "slip-1"}),
        ("olga", "operator", "cashier.withdrawal", "ann",
         {"amount": 12_500, "balance": 0, "reference": "pay-1"}),
    ]  # fmt: skip
    with ledger.database.connect() as conn:
        memos = conn.execute(sa.select(transactions.c.memo).order_by(transactions.c.id)).scalars()
        assert list(memos)[-2:] == ["deposit cashier:slip-1", "withdrawal cashier:pay-1"]


def test_what_the_cashier_refuses_books_nothing(ledger: Ledger) -> None:
    cashier = Cashier(ledger)
    cashier.deposit("ann", 1_000, "slip-1", OLGA, now=NOON)
    before = (_wallet(ledger, "ann"), _booked(ledger), len(entries(ledger.database)))
    for call, code in (
        (lambda: cashier.deposit("nobody", 1_000, "x1", OLGA, now=NOON), "unknown_player"),
        (lambda: cashier.deposit("olga", 1_000, "x2", OLGA, now=NOON), "staff_account"),
        (lambda: cashier.deposit("ann", 0, "x3", OLGA, now=NOON), "bad_amount"),
        (lambda: cashier.deposit("ann", -5, "x3", OLGA, now=NOON), "bad_amount"),
        (lambda: cashier.withdraw("ann", 10**13, "x3", OLGA, now=NOON), "bad_amount"),
        (lambda: cashier.deposit("ann", 1_000, "", OLGA, now=NOON), "bad_reference"),
        (lambda: cashier.deposit("ann", 2_000, "slip-1", OLGA, now=NOON), "reference_reused"),
        (lambda: cashier.withdraw("ann", 1_000, "slip-1", OLGA, now=NOON), "reference_reused"),
        (lambda: cashier.deposit("bob", 1_000, "slip-1", OLGA, now=NOON), "reference_reused"),
        (lambda: cashier.withdraw("ann", 11_001, "x4", OLGA, now=NOON), "insufficient_funds"),
    ):
        _refused(call, code)
    assert (_wallet(ledger, "ann"), _booked(ledger), len(entries(ledger.database))) == before


def test_chips_at_a_table_and_stakes_in_play_are_not_paid_out(ledger: Ledger) -> None:
    cashier = Cashier(ledger)
    Chips(ledger, "c1").buy_in("ann", 4_000, now=NOON)
    ann = ledger.create_account(wallet_account("ann"))
    rnd = ledger.open_round(table="t1", number=1, shoe_id=None, coup_index=1)
    ledger.place_bet(account=ann, round_id=rnd, bet_id="b1", kind="banker", amount=5_000, now=NOON)
    error = _refused(
        lambda: cashier.withdraw("ann", 1_001, "p1", OLGA, now=NOON), "insufficient_funds"
    )
    assert "holds 10.00" in str(error)
    assert cashier.withdraw("ann", 1_000, "p1", OLGA, now=NOON).balance == 0


def test_an_excluded_or_suspended_player_is_still_paid_and_deposits_nothing(
    ledger: Ledger,
) -> None:
    cashier = Cashier(ledger)
    protections = Protections(ledger.database)
    protections.exclude(1, NOON + 30 * DAY, now=NOON)
    assert cashier.withdraw("ann", 4_000, "p1", OLGA, now=NOON + 1).balance == 6_000
    error = _refused(lambda: cashier.deposit("ann", 1, "d1", OLGA, now=NOON + 2), "self_excluded")
    assert "excluded from play until 2026-12-26 12:00 UTC" in str(error)
    suspend(ledger.database, "bob", NOON + DAY, now=NOON)
    assert cashier.withdraw("bob", 10_000, "p2", OLGA, now=NOON + 2).balance == 0
    _refused(lambda: cashier.deposit("bob", 1, "d2", OLGA, now=NOON + 3), "suspended")
    assert cashier.deposit("bob", 1, "d2", OLGA, now=NOON + DAY).balance == 1  # it is over
    assert _booked(ledger) == 3


def test_deposit_limits_over_24_hours_7_and_30_days_the_lowest_applying(ledger: Ledger) -> None:
    """Each limit bounds the deposits of its last 24 hours, 7 or 30 days, this one
    included; a cut applies at once, a raise a day later."""
    cashier, protections = Cashier(ledger), Protections(ledger.database)

    def limit(period: Period, amount: int | None, now: float) -> None:
        protections.set_period_limit(1, LimitKind.DEPOSIT, period, amount, now=now)

    def deposit(amount: int, ref: str, now: float) -> str:
        try:
            cashier.deposit("ann", amount, ref, OLGA, now=now)
        except CashierError as error:
            return error.code
        return "ok"

    limit(Period.DAY, 10_000, NOON)
    limit(Period.WEEK, 25_000, NOON)
    limit(Period.MONTH, 40_000, NOON)
    assert deposit(10_001, "d0", NOON) == "deposit_limit"
    assert deposit(10_000, "d1", NOON) == "ok"
    error = _refused(
        lambda: cashier.deposit("ann", 1, "d2", OLGA, now=NOON + 23 * HOUR), "deposit_limit"
    )
    assert "24-hour deposit limit is 100.00: 100.00 deposited in the last 24 hours" in str(error)
    assert deposit(10_000, "d2", NOON + DAY + 1) == "ok"  # 24 hours on: the day's is free
    assert deposit(5_001, "d3", NOON + 2 * DAY + 2) == "deposit_limit"  # the week's 250.00
    assert deposit(5_000, "d3", NOON + 2 * DAY + 2) == "ok"
    assert deposit(1, "d4", NOON + 6 * DAY) == "deposit_limit"
    assert deposit(10_000, "d4", NOON + 7 * DAY + 1) == "ok"  # d1 left the week
    assert deposit(5_001, "d5", NOON + 9 * DAY) == "deposit_limit"  # the month's 400.00
    limit(Period.MONTH, 60_000, NOON + 9 * DAY)  # a raise: a day later
    assert deposit(5_001, "d5", NOON + 9 * DAY + HOUR) == "deposit_limit"
    assert deposit(5_001, "d5", NOON + 10 * DAY) == "ok"
    limit(Period.DAY, 0, NOON + 20 * DAY)  # a cut: at once
    assert deposit(1, "d6", NOON + 20 * DAY) == "deposit_limit"
    found = protections.period_limits(1, LimitKind.DEPOSIT, now=NOON + 20 * DAY)
    assert found[Period.DAY].amount == 0 and found[Period.MONTH].amount == 60_000
    limit(Period.DAY, None, NOON + 20 * DAY)  # a removal waits a day too
    pending = protections.period_limits(1, LimitKind.DEPOSIT, now=NOON + 20 * DAY)[Period.DAY]
    assert (pending.amount, pending.next_amount, pending.next_from) == (
        0,
        None,
        NOON + 20 * DAY + DELAY,
    )
    assert deposit(1, "d6", NOON + 21 * DAY) == "ok"
    assert cashier.withdraw("ann", 100, "w1", OLGA, now=NOON + 21 * DAY).duplicate is False


def test_loss_limits_over_7_and_30_days_at_the_gate(ledger: Ledger) -> None:
    """A 7-day loss limit counts this UTC day and the six before it, as the daily one
    counts today; the lowest in force refuses; a raise waits a day."""
    protections = Protections(ledger.database)
    ann = ledger.create_account(wallet_account("ann"))
    protections.set_period_limit(1, LimitKind.LOSS, Period.WEEK, 3_000, now=NOON)
    protections.set_period_limit(1, LimitKind.LOSS, Period.MONTH, 5_000, now=NOON)
    with pytest.raises(ValueError, match="set_loss_limit"):
        protections.set_period_limit(1, LimitKind.LOSS, Period.DAY, 1, now=NOON)
    rounds = iter(range(1, 100))

    def lose(amount: int, now: float) -> str:
        rnd = ledger.open_round(table="t1", number=next(rounds), shoe_id=None, coup_index=1)
        try:
            ledger.place_bet(account=ann, round_id=rnd, bet_id=f"b{now}", kind="player",
                             amount=amount, now=now)  # fmt: skip
        except BetError as error:
            return str(error)
        finally:
            ledger.close_round(rnd)
            ledger.settle_round(rnd, BANKER_WINS, "punto-banco")
        return "ok"

    assert lose(2_000, NOON) == "ok"
    assert lose(1_000, NOON + DAY) == "ok"
    assert "7-day loss limit is 30.00" in lose(1, NOON + 6 * DAY)
    assert lose(1_000, NOON + 7 * DAY) == "ok"  # the first day left the week
    assert "30-day loss limit is 50.00" in lose(1_001, NOON + 14 * DAY)
    with pytest.raises(BetError, match="7-day loss limit"):
        Chips(ledger, "c1").buy_in("ann", 2_001, now=NOON + 8 * DAY)
    protections.set_period_limit(1, LimitKind.LOSS, Period.MONTH, 9_000, now=NOON + 14 * DAY)
    assert "30-day" in lose(1_001, NOON + 14 * DAY + HOUR)
    assert lose(1_001, NOON + 15 * DAY) == "ok"
    found = protections.get(1, now=NOON + 15 * DAY)
    assert dict(found.longer_losses)[Period.MONTH].amount == 9_000


@pytest.mark.parametrize("racers", [8])
def test_racing_withdrawals_never_take_more_than_the_wallet(ledger: Ledger, racers: int) -> None:
    """``racers`` operators (each its own connection) withdraw 40.00 from a 100.00
    wallet at the same moment, each under its own reference: two are paid."""
    start = threading.Barrier(racers)
    codes: list[str] = []

    def withdraw(n: int) -> None:
        start.wait()
        try:
            Cashier(ledger).withdraw("ann", 4_000, f"race-{n}", OLGA, now=NOON)
            codes.append("ok")
        except CashierError as error:
            codes.append(error.code)

    threads = [threading.Thread(target=withdraw, args=(n,)) for n in range(racers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(codes) == ["insufficient_funds"] * (racers - 2) + ["ok"] * 2
    assert _wallet(ledger, "ann") == 2_000


@pytest.mark.parametrize("racers", [8])
def test_racing_deposits_never_pass_the_limit_and_a_reference_books_once(
    ledger: Ledger, racers: int
) -> None:
    """Under a 24-hour limit of 100.00, ``racers`` deposits of 30.00 at once: three are
    booked; then ``racers`` deposits under one reference at once: one is booked."""
    Protections(ledger.database).set_period_limit(
        1, LimitKind.DEPOSIT, Period.DAY, 10_000, now=NOON
    )
    results: list[str] = []

    def race(work: object) -> None:
        start = threading.Barrier(racers)

        def one(n: int) -> None:
            start.wait()
            try:
                assert callable(work)
                results.append(work(n))
            except CashierError as error:
                results.append(error.code)

        threads = [threading.Thread(target=one, args=(n,)) for n in range(racers)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()

    race(lambda n: Cashier(ledger).deposit("ann", 3_000, f"lim-{n}", OLGA, now=NOON) and "ok")
    assert sorted(results) == ["deposit_limit"] * (racers - 3) + ["ok"] * 3
    results.clear()
    race(
        lambda n: (
            "dup" if Cashier(ledger).deposit("bob", 700, "same", OLGA, now=NOON).duplicate else "ok"
        )
    )
    assert sorted(results) == ["dup"] * (racers - 1) + ["ok"]
    assert (_wallet(ledger, "ann"), _wallet(ledger, "bob")) == (WELCOME + 9_000, WELCOME + 700)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    amount=st.one_of(
        st.integers(min_value=-(10**13), max_value=10**13),
        st.floats(),
        st.booleans(),
        st.text(max_size=8),
    ),
    reference=st.text(max_size=70),
)
def test_any_amount_and_reference_is_booked_as_asked_or_refused_whole(
    ledger: Ledger, amount: object, reference: str
) -> None:
    cashier = Cashier(ledger)
    before = (_wallet(ledger, "bob"), _booked(ledger))
    good_amount = isinstance(amount, int) and not isinstance(amount, bool) and 0 < amount <= 10**12
    try:
        check_reference(reference)
        good_reference = True
    except CashierError:
        good_reference = False
    assert good_reference == (
        0 < len(reference) <= MAX_REFERENCE
        and reference.isprintable()
        and reference == reference.strip()
    )
    try:
        done = cashier.deposit("bob", cast(int, amount), reference, OLGA, now=NOON)
    except CashierError as error:
        code = error.code
    else:
        code = None
    if code is not None:
        assert not (good_amount and good_reference) or code == "reference_reused"
        assert (_wallet(ledger, "bob"), _booked(ledger)) == before
        return
    assert good_amount and good_reference
    if done.duplicate:
        assert (_wallet(ledger, "bob"), _booked(ledger)) == before
    else:
        assert done.amount == amount and _wallet(ledger, "bob") == before[0] + done.amount
        assert _booked(ledger) == before[1] + 1


def test_a_statement_lists_the_period_oldest_first(ledger: Ledger) -> None:
    from baccara.db.history import PlayerHistory

    cashier = Cashier(ledger)
    for n in range(3):
        cashier.deposit("ann", 100 * (n + 1), f"s{n}", OLGA, now=NOON + n * DAY)
    ann = ledger.create_account(wallet_account("ann"))
    history = PlayerHistory(ledger.database)
    found = history.statement(
        ann, datetime.fromtimestamp(NOON + 1, UTC), datetime.fromtimestamp(NOON + 2 * DAY + 1, UTC)
    )
    assert [(m["what"], m["amount"]) for m in found] == [("Deposit", 200), ("Deposit", 300)]
    with writing(ledger.database) as conn:
        assert conn.execute(sa.select(sa.func.count()).select_from(cashier_moves)).scalar_one() == 3


def test_a_real_money_server_gives_no_welcome_money_the_cashier_brings_it_in(
    ledger: Ledger,
) -> None:
    """With ``welcome`` 0 a new wallet holds nothing and no money is made for it: the
    cashier's deposit is the only way money comes in."""
    before = ledger.check_invariants()
    with ledger.database.connect() as conn:
        moved = conn.execute(sa.select(sa.func.count()).select_from(transactions)).scalar()
    dora = Auth(ledger, welcome=0, now=lambda: 1_800_000_000.0).register("dora", "a long password")
    assert ledger.balance(dora.account) == 0
    with ledger.database.connect() as conn:
        assert conn.execute(sa.select(sa.func.count()).select_from(transactions)).scalar() == moved
    Cashier(ledger).deposit("dora", 2_500, "slip-d", OLGA, now=1_800_000_001.0)
    assert ledger.balance(dora.account) == 2_500
    assert ledger.check_invariants() == before == []
