"""The money gate in the database (`baccara.db.gate`), on SQLite and PostgreSQL.

Each movement of a player's money checks, in its own transaction and under the
player's lock, the balance, the player's standing and their daily loss limit at the
clock's time; these tests drive it with a clock they set (midnight included) and with
threads racing on one wallet (issue 23, findings 1, 2 and 5).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime

import pytest
import sqlalchemy as sa

from baccara.coup import Coup
from baccara.db.chips import Chips
from baccara.db.database import writing
from baccara.db.gate import day_loss, ended
from baccara.db.ledger import BetError, Ledger, wallet_account
from baccara.db.protections import Protections, suspend
from baccara.db.schema import users, web_sessions

BANKER_WINS = Coup.parse("P:6h,Kd B:7s,Kc")
MIDNIGHT = 1_795_651_200.0  # 2026-11-26 00:00 UTC
assert MIDNIGHT % 86_400 == 0


@pytest.fixture
def ledger(database_url: str) -> Iterator[Ledger]:
    book = Ledger.connect(database_url)
    yield book
    assert book.check_invariants() == []
    book.database.dispose()


@dataclass(frozen=True)
class Person:
    """A registered player: their user id, wallet account and session's digest."""

    user: int
    account: int
    session: str


def _person(ledger: Ledger, user: int, name: str, amount: int = 100_000) -> Person:
    """A registered player with ``amount`` in the wallet and a live session ``s<user>``."""
    with writing(ledger.database) as conn:
        conn.execute(
            users.insert().values(
                id=user, name=name, name_key=name, password_hash="x", created_at=datetime.now(UTC)
            )
        )
        conn.execute(web_sessions.insert().values(token_hash=f"s{user}", user_id=user, expires=4e9))
    account = ledger.create_account(wallet_account(name))
    ledger.deposit(account, amount, ref=f"welcome:{name}")
    return Person(user=user, account=account, session=f"s{user}")


def _bet(ledger: Ledger, me: Person, rnd: int, bet_id: str, amount: int, now: float) -> str:
    """A banker bet through the gate: ``ok`` or the refusal's code."""
    try:
        ledger.place_bet(
            account=me.account,
            round_id=rnd,
            bet_id=bet_id,
            kind="player",
            amount=amount,
            now=now,
        )
    except BetError as error:
        return error.code
    return "ok"


def _lost_bets(ledger: Ledger, me: Person, now: float, tries: int = 11) -> list[str]:
    """``tries`` 50.00 bets on the Player, each in its own round that the Banker wins."""
    codes = []
    for n in range(tries):
        rnd = ledger.open_round(table=f"t{me.user}", number=n + 1, shoe_id=None, coup_index=1)
        codes.append(_bet(ledger, me, rnd, f"{now}-{n}", 5_000, now + n))
        ledger.close_round(rnd)
        ledger.settle_round(rnd, BANKER_WINS, "punto-banco")
    return codes


def test_chips_bought_before_midnight_make_no_room_after_it(ledger: Ledger) -> None:
    """Finding 5: chips bought at 23:59 and cashed out after midnight are not money won
    back that day: under a 50.00 limit the player has one losing 50.00 bet, as a player
    without such chips has."""
    me = _person(ledger, 1, "nightowl", 100_000)
    plain = _person(ledger, 2, "daybird", 100_000)
    chips = Chips(ledger, "c1")
    chips.buy_in("nightowl", 55_000, now=MIDNIGHT - 60)
    for user in (1, 2):
        Protections(ledger.database).set_loss_limit(user, 5_000, now=MIDNIGHT - 30)
    assert chips.cash_out("nightowl", now=MIDNIGHT + 60) == 55_000
    assert _lost_bets(ledger, me, MIDNIGHT + 120) == ["ok"] + ["loss_limit"] * 10
    assert _lost_bets(ledger, plain, MIDNIGHT + 120) == ["ok"] + ["loss_limit"] * 10


def test_cashing_out_and_buying_in_again_frees_nothing(ledger: Ledger) -> None:
    """Chips carried over midnight, cashed out and bought again at the same table: the
    new buy-in counts in full; one made the same day is freed by its cash-out."""
    me = _person(ledger, 1, "carrier", 200_000)
    chips = Chips(ledger, "c1")
    chips.buy_in("carrier", 100_000, now=MIDNIGHT - 10)
    Protections(ledger.database).set_loss_limit(1, 5_000, now=MIDNIGHT - 5)
    chips.cash_out("carrier", now=MIDNIGHT + 10)
    with pytest.raises(BetError, match=r"daily loss limit is 50\.00") as refused:
        chips.buy_in("carrier", 100_000, now=MIDNIGHT + 20)
    assert refused.value.code == "loss_limit"
    assert chips.buy_in("carrier", 4_000, now=MIDNIGHT + 30) == 4_000
    with writing(ledger.database) as conn:
        assert day_loss(conn, me.account, "carrier", MIDNIGHT + 40) == 4_000
    chips.cash_out("carrier", now=MIDNIGHT + 50)  # today's chips back: room again
    with writing(ledger.database) as conn:
        assert day_loss(conn, me.account, "carrier", MIDNIGHT + 60) == 0
    assert chips.buy_in("carrier", 5_000, now=MIDNIGHT + 70) == 5_000
    # ...and the day after, yesterday counts no more
    with writing(ledger.database) as conn:
        assert day_loss(conn, me.account, "carrier", MIDNIGHT + 86_400) == 0


def test_the_days_loss_adds_each_game_without_winnings_elsewhere(ledger: Ledger) -> None:
    """The house tables' net loss today, plus each players' table's chips bought and not
    cashed out today: winnings at one table never make room at another."""
    me = _person(ledger, 1, "wanderer", 100_000)
    now = MIDNIGHT + 3_600
    for n, (stake, coup) in enumerate(((2_000, BANKER_WINS), (3_000, None))):
        rnd = ledger.open_round(table="t1", number=n + 1, shoe_id=None, coup_index=1)
        ledger.place_bet(account=me.account, round_id=rnd, bet_id=f"b{n}", kind="player",
                         amount=stake, now=now)  # fmt: skip
        if coup is not None:
            ledger.close_round(rnd)
            ledger.settle_round(rnd, coup, "punto-banco")
    chips_c, chips_b = Chips(ledger, "c1"), Chips(ledger, "b1")
    chips_c.buy_in("wanderer", 1_000, now=now)
    chips_b.buy_in("wanderer", 4_000, now=now)
    with writing(ledger.database) as conn:  # winnings at b1 (moved into the seat)
        seat = conn.execute(
            sa.text("SELECT id FROM table_accounts WHERE name = 'seat:web:b1:wanderer'")
        ).scalar_one()
        house = ledger.house
        from baccara.db.books import post

        post(conn, "decision won", {house: -6_000, seat: 6_000})
    chips_b.cash_out("wanderer", now=now)  # 10,000 back for 4,000 in
    with writing(ledger.database) as conn:
        # 2,000 lost + 3,000 in play at the house, 1,000 at c1, nothing at b1
        assert day_loss(conn, me.account, "wanderer", now) == 6_000


def test_only_a_player_who_may_play_moves_money(ledger: Ledger) -> None:
    """A suspension and a self-exclusion are refused by the gate, in the transaction,
    for bets and buy-ins alike, read with the player's lock; and the sessions that
    may no longer act are named with why (what closes the sockets)."""
    me = _person(ledger, 1, "checked", 100_000)
    now = MIDNIGHT + 100
    rnd = ledger.open_round(table="t1", number=1, shoe_id=None, coup_index=1)
    chips = Chips(ledger, "c1")
    assert _bet(ledger, me, rnd, "a", 1_000, now) == "ok"
    with writing(ledger.database) as conn:
        gone = ended(conn, [(1, "s1"), (1, "not-a-session")], now)
    assert {k: v.code for k, v in gone.items()} == {"not-a-session": "session_ended"}
    suspend(ledger.database, "checked", now + 60, now=now)  # the house's hand: sessions end too
    assert _bet(ledger, me, rnd, "c", 1_000, now) == "suspended"
    with pytest.raises(BetError, match="suspended"):
        chips.buy_in("checked", 1_000, now=now)
    assert _bet(ledger, me, rnd, "c2", 1_000, now + 61) == "ok"  # the suspension is over
    suspend(ledger.database, "checked", None, now=now)
    with writing(ledger.database) as conn:
        assert ended(conn, [(1, "s1")], now)["s1"].code == "session_ended"  # ended by it
    Protections(ledger.database).exclude(1, now + 86_400)
    assert _bet(ledger, me, rnd, "f", 1_000, now) == "self_excluded"
    with pytest.raises(BetError, match="excluded yourself"):
        chips.buy_in("checked", 1_000, now=now)
    with writing(ledger.database) as conn:
        conn.execute(web_sessions.insert().values(token_hash="s1b", user_id=1, expires=4e9))
        found = ended(conn, [(1, "s1b")], now)
    assert {k: v.code for k, v in found.items()} == {"s1b": "self_excluded"}
    assert ledger.balance(me.account) == 100_000 - 2_000


@pytest.mark.parametrize("racers", [8])
def test_racing_connections_spend_one_wallet_once(ledger: Ledger, racers: int) -> None:
    """Finding 1 in the database: ``racers`` connections each buy in the whole wallet at
    their own table, and bet it, at the same moment: one movement is taken."""
    me = _person(ledger, 1, "racer", 10_000)
    rnd = ledger.open_round(table="t1", number=1, shoe_id=None, coup_index=1)
    start = threading.Barrier(racers)
    codes: list[str] = []

    def buy(n: int) -> None:
        start.wait()
        if n % 2:
            codes.append(_bet(ledger, me, rnd, f"r{n}", 10_000, MIDNIGHT))
            return
        try:
            Chips(ledger, f"c{n}").buy_in("racer", 10_000, now=MIDNIGHT)
            codes.append("ok")
        except BetError as error:
            codes.append(error.code)

    threads = [threading.Thread(target=buy, args=(n,)) for n in range(racers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(codes) == ["insufficient_funds"] * (racers - 1) + ["ok"]
    assert ledger.balance(me.account) == 0
