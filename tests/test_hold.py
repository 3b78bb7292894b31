"""Hold against theory (issue 34, point 5), on SQLite and PostgreSQL: each bet's exact
theoretical win from the cards left when it was placed, stored with its settlement;
the reports equal an independent sum over the bets of real rounds played at a house
table; a shoe dealt with a changed pay table shows a z-score past 4; the interrupted
rounds are listed with how each ended; the routes are for staff only."""

from __future__ import annotations

import asyncio
import csv
import io
import itertools
import math
from collections import defaultdict
from dataclasses import replace
from datetime import UTC, date, datetime
from fractions import Fraction
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.support.tables import Tables, house_table
from tests.test_admin_http import EVIL, FAST, JSON, PASSWORD, STAFF, _login, _problem
from tests.test_hardening_http import in_process

from baccara.bets import BetKind, settle
from baccara.cards import Card, parse_cards
from baccara.coup import deal_coup
from baccara.db import reports
from baccara.db.hold import BANDS
from baccara.db.ledger import Ledger, wallet_account
from baccara.db.reports import By
from baccara.exact.odds import full_shoe, odds
from baccara.exact.theory import by_card, price
from baccara.money import format_money
from baccara.server.app import ServerConfig, create_app
from baccara.server.http.reports import day
from baccara.server.infra.edge import Refusal
from baccara.server.tables.house import Timing
from baccara.server.wire import protocol as P
from baccara.shoe import Shoe, ShoeSettings
from baccara.variants import PUNTO_BANCO, Variant

TIMING = Timing(bet_seconds=5, card_seconds=0.1, result_seconds=0.5)
NOW = 1_800_000_000.0


# -- the theory of one coup --------------------------------------------------------------


def _enumerated(cards: list[Card], spots: list[tuple[BetKind, int]]) -> tuple[Fraction, Fraction]:
    """The house's expected win on ``spots`` and its variance, by dealing every ordered
    draw of six of ``cards`` (each order equally likely), in exact fractions."""
    total, total_sq, n = Fraction(0), Fraction(0), 0
    for order in itertools.permutations(range(len(cards)), 6):
        coup = deal_coup(Shoe.stacked([cards[i] for i in order]))
        win = sum(stake - settle(kind, stake, coup).returned for kind, stake in spots)
        total, total_sq, n = total + win, total_sq + win * win, n + 1
    mean = total / n
    return mean, total_sq / n - mean * mean


@pytest.mark.parametrize(
    "spots",
    [
        [(BetKind.BANKER, 10)],  # 5% of 0.10 rounds down to nothing: the win pays 1:1
        [(BetKind.BANKER, 2_010)],
        [(BetKind.PLAYER, 500), (BetKind.TIE, 300), (BetKind.BANKER, 130)],
        [(BetKind.PLAYER_PAIR, 100)],
        [(BetKind.EITHER_PAIR, 250)],
    ],
)
def test_the_theory_of_a_tiny_shoe_is_its_enumeration(spots: list[tuple[BetKind, int]]) -> None:
    """Seven cards left: the theory of a set of spots is the mean and variance of the
    house's win over every order the cards can come in, rounding of the commission
    included."""
    cards = list(parse_cards("4s 4h 9d Kc 6h 7c 4d"))
    mean, variance = _enumerated(cards, spots)
    found = price(cards).moments(spots)
    assert found.theo == pytest.approx(float(mean), abs=1e-9)
    assert found.variance == pytest.approx(float(variance), rel=1e-9)


# -- the ledger: a shoe dealt with a changed pay table -----------------------------------


def _deal_shoe(ledger: Ledger, paid: Variant, *, seed: int, table: str) -> int:
    """Deal a whole seeded 8-deck shoe at ``table``, 100.00 on the Banker every coup,
    settled as ``paid`` says and priced as Punto Banco; the number of coups."""
    ann = ledger.create_account(wallet_account(f"ann-{table}"))
    ledger.deposit(ann, 10**10, ref=f"welcome:{table}")
    shoe = Shoe.shuffled(ShoeSettings(decks=8), seed=seed)
    shoe.burn()
    number = 0
    while not shoe.finished:
        number += 1
        rnd = ledger.open_round(table=table, number=number, shoe_id=seed, coup_index=number)
        ledger.place_bet(
            account=ann, round_id=rnd, bet_id=f"{table}-{number}", kind="banker", amount=10_000
        )
        ledger.close_round(rnd)
        priced = price(shoe.cards[shoe.position :], PUNTO_BANCO)
        coup = deal_coup(shoe)
        returned = settle(BetKind.BANKER, 10_000, coup, paid).returned
        ledger.settle_round(
            rnd, coup, "punto-banco", {(ann, "banker"): returned}, price=priced, now=NOW + number
        )
    return number


def test_a_shoe_paid_by_a_changed_pay_table_shows_past_four_sd(database_url: str) -> None:
    """The same seeded shoe at two tables, each coup 100.00 on the Banker: one pays as
    Punto Banco (1:1 less 5%), the other a Banker win 3:1 without commission; both are
    priced as Punto Banco, exactly. The first holds near its theory, the second's
    z-score is past -4 (the house lost far more than its theory allows)."""
    ledger = Ledger.connect(database_url)
    try:
        wrong = replace(PUNTO_BANCO, banker_pays=Fraction(3))  # 3:1, no commission
        coups = _deal_shoe(ledger, PUNTO_BANCO, seed=11, table="fair")
        assert _deal_shoe(ledger, wrong, seed=11, table="hot") == coups
        rows = {r.key: r for r in reports.hold(ledger.database, By.TABLE)}
        fair, hot = rows["fair"], rows["hot"]
        assert fair.rounds == hot.rounds == coups and fair.handle == coups * 10_000
        assert fair.theo == pytest.approx(hot.theo) and fair.sd == pytest.approx(hot.sd)
        assert fair.z is not None and abs(fair.z) < 3, fair
        assert hot.z is not None and hot.z < -4, hot
        # the win as an independent sum over the bets
        with ledger.database.connect() as conn:
            won = dict(
                conn.execute(
                    sa.text(
                        "SELECT r.table_id, SUM(b.amount - b.returned) FROM bets b "
                        "JOIN rounds r ON r.id = b.round_id GROUP BY r.table_id"
                    )
                ).all()
            )
        assert (fair.win, hot.win) == (int(won["fair"]), int(won["hot"]))
    finally:
        ledger.database.dispose()


# -- a day of play at a house table --------------------------------------------------------

# each round: (player, bet kind, stake); 5% of 10.10 on the Banker is 0.505, paid 0.50
BETS = [
    ("ann", "banker", 50_000),
    ("ann", "player_pair", 100),
    ("bob", "player", 1_000),
    ("bob", "tie", 300),
    ("cy", "banker", 1_010),
    ("cy", "banker_pair", 25_000),
]
ROUNDS = 8


def _bet(round_id: int, bet_id: str, kind: str, amount: int) -> P.BetMessage:
    return P.BetMessage(type="bet", bet_id=bet_id, kind=kind, amount=amount, round=round_id)


async def _play_day(tables: Tables) -> None:
    seats = {name: await tables.join(name, 10_000_000) for name in ("ann", "bob", "cy")}
    await tables.start()
    runner = tables.runner
    for n in range(ROUNDS):
        await tables.clock.run_until(lambda: runner.phase == "betting")
        round_id = int(runner.round.id)
        for name, kind, amount in BETS:
            ack = await seats[name].send(_bet(round_id, f"{name}-{n}-{kind}", kind, amount))
            assert ack is not None and ack["type"] == "bet_ack", ack
        await tables.clock.run_until(lambda r=round_id: runner.round.id != r, step=0.5)


def _band(stake: int) -> int:
    return max(b for b in BANDS if b <= stake)


def _expected(tables: Tables) -> dict[str, Any]:
    """The day's figures from the bets and rounds as stored, and the theory of each spot
    from the exact engine's edges on the shoe as the fair shoe's cards and the coups
    stored say (the commission's rounding on 0.10 from the Banker's win chance)."""
    runner = tables.runner
    shoe = runner.table.shoe
    with tables.ledger.database.connect() as conn:
        coups = conn.execute(
            sa.text(
                "SELECT id, coup FROM rounds WHERE table_id = 't1' AND coup IS NOT NULL "
                "ORDER BY number"
            )
        ).all()
        spots = conn.execute(
            sa.text(
                "SELECT b.round_id, b.account_id, b.kind, SUM(b.amount), SUM(b.returned), "
                "COUNT(*) FROM bets b JOIN rounds r ON r.id = b.round_id "
                "WHERE r.phase = 'settled' GROUP BY b.round_id, b.account_id, b.kind"
            )
        ).all()
    left = Counter52(shoe.cards[len(shoe.burned) :])
    before: dict[int, tuple[int, ...]] = {}
    for round_id, notation in coups:
        before[int(round_id)] = left.counts()
        left.remove(parse_cards(notation.replace("P:", "").replace("B:", "").replace(",", " ")))
    by_kind: dict[str, dict[str, Any]] = defaultdict(
        lambda: {"rounds": set(), "bets": 0, "handle": 0, "win": 0, "theo": 0.0, "var": 0.0}
    )
    for round_id, _account, kind, amount, returned, count in spots:
        counts = before[int(round_id)]
        found = odds(_by_rank(counts), PUNTO_BANCO)
        theo = int(amount) * float(found.edges[kind])
        if kind == "banker" and int(amount) % 20:  # the bettor keeps the commission's fraction
            kept = Fraction(int(amount), 20) % 1
            theo -= float(kept) * float(found.probabilities["banker"])
        group = by_kind[kind]
        group["rounds"].add(int(round_id))
        group["bets"] += int(count)
        group["handle"] += int(amount)
        group["win"] += int(amount) - int(returned)
        group["theo"] += theo
        if kind == "tie":  # one spot a round: its variance, from the tie's chance
            p = float(found.probabilities["tie"])
            mean = int(amount) * (1 - 9 * p)
            group["var"] += int(amount) ** 2 * (p * 64 + (1 - p)) - mean * mean
    return by_kind


class Counter52:
    """The cards left, by card."""

    def __init__(self, cards: Any) -> None:
        self.left = list(by_card(cards))

    def counts(self) -> tuple[int, ...]:
        return tuple(self.left)

    def remove(self, cards: Any) -> None:
        for card in cards:
            self.left[card.index] -= 1
            assert self.left[card.index] >= 0


def _by_rank(counts: tuple[int, ...]) -> list[int]:
    return [sum(counts[suit * 13 + rank] for suit in range(4)) for rank in range(13)]


def test_the_reports_equal_an_independent_sum_over_a_day_of_play(database_url: str) -> None:
    """Three players bet six spots a round for eight rounds at a house table; the hold
    report by bet kind equals the sums over the stored bets, and the theory the exact
    engine's edges on the cards left before each coup (with the commission's rounding
    on a 0.10 Banker stake); by table, band, shoe and day the same totals."""

    async def test() -> None:
        async with house_table(timing=TIMING, database_url=database_url) as tables:
            await _play_day(tables)
            expected = _expected(tables)
            database = tables.ledger.database
            rows = {r.key: r for r in reports.hold(database, By.KIND)}
            assert sorted(rows) == sorted(expected)
            for kind, want in expected.items():
                got = rows[kind]
                assert got.rounds == len(want["rounds"]) == ROUNDS, kind
                assert (got.bets, got.handle, got.win) == (
                    want["bets"],
                    want["handle"],
                    want["win"],
                ), kind
                assert got.theo == pytest.approx(want["theo"], rel=1e-6, abs=1e-6), kind
            assert rows["tie"].sd == pytest.approx(math.sqrt(expected["tie"]["var"]), rel=1e-6)
            handle = sum(w["handle"] for w in expected.values())
            win = sum(w["win"] for w in expected.values())
            theo = sum(w["theo"] for w in expected.values())
            today = datetime.fromtimestamp(tables.clock.now(), UTC).date().isoformat()
            for by in (By.TABLE, By.GAME, By.SHOE, By.DAY):
                (row,) = reports.hold(database, by)
                assert (row.rounds, row.handle, row.win) == (ROUNDS, handle, win), by
                assert row.theo == pytest.approx(theo, rel=1e-6)
            assert reports.hold(database, By.DAY)[0].key == today
            assert reports.hold(database, By.GAME)[0].key == "punto-banco"
            bands = {r.key: r for r in reports.hold(database, By.BAND)}
            want_bands: dict[int, int] = defaultdict(int)
            for _name, _kind, amount in BETS:
                want_bands[_band(amount)] += amount * ROUNDS
            assert {int(k): r.handle for k, r in bands.items()} == want_bands
            assert all(r.rounds == ROUNDS for r in bands.values())
            # the RTP at every stake: 10.10 on the Banker gets back more than 500.00 does
            rtp = {(r.kind, r.band): r for r in reports.rtp(database)}
            small, big = rtp["banker", _band(1_010)], rtp["banker", _band(50_000)]
            assert small.theo_rtp is not None and big.theo_rtp is not None
            assert small.theo_rtp > big.theo_rtp
            edge = float(odds(full_shoe(8)).edges["banker"])
            assert big.theo_rtp == pytest.approx(1 - edge, abs=0.01)
            # the plot: one day, its running totals the day's
            (point,) = reports.series(database)
            assert (point.day, point.cumulative_win) == (today, win)
            assert point.cumulative_theo == pytest.approx(theo, rel=1e-6)

    asyncio.run(test())


# -- interrupted rounds -------------------------------------------------------------------


def test_interrupted_rounds_are_listed_with_how_each_ended(database_url: str) -> None:
    """A table stopped while betting is open, restarted: the round is voided and its bet
    refunded; stopped once the betting closed, restarted: the round is dealt and settled
    after the restart, its theory stored. The report lists both, with why."""

    async def test() -> None:
        async with house_table(timing=TIMING, database_url=database_url) as tables:
            ann = await tables.join("ann", 100_000)
            await tables.start()
            runner = tables.runner
            await tables.clock.run_until(lambda: runner.phase == "betting")
            first = int(runner.round.id)
            assert (await ann.send(_bet(first, "a1", "player", 1_000)) or {})["type"] == "bet_ack"
            await tables.restart()  # betting was open: voided
            ann = await tables.join("ann")
            runner = tables.runner
            await tables.clock.run_until(lambda: runner.phase == "betting")
            second = int(runner.round.id)
            assert (await ann.send(_bet(second, "a2", "tie", 700)) or {})["type"] == "bet_ack"
            await tables.clock.run_until(lambda: runner.phase == "dealing", step=0.05)
            await tables.restart()  # betting had closed: dealt and settled at the restart
            await tables.clock.run_until(lambda: tables.runner.phase == "betting")
            found = reports.interrupted(tables.ledger.database)
            assert [(r.round_id, r.resolution, r.bets, r.handle) for r in found] == [
                (first, "refunded", 1, 1_000),
                (second, "settled_after_restart", 1, 700),
            ]
            assert "was open: voided" in found[0].reason
            assert "was closed: dealt" in found[1].reason
            (tie,) = reports.hold(tables.ledger.database, By.KIND)
            assert (tie.key, tie.rounds, tie.handle) == ("tie", 1, 700)
            assert tie.theo > 0

    asyncio.run(test())


# -- the routes -----------------------------------------------------------------------------


def test_the_reports_are_for_staff_only_in_json_and_csv(database_url: str) -> None:
    """Anonymous 401, a player 403, another site 403; every staff role reads the reports
    (compliance's, the auditor reads everything, the operator watches the tables): the
    shoe dealt at table z1 by table, in JSON and CSV, the plot's series, the RTP and
    the interrupted rounds; bad input is a 400 that names it."""
    config = ServerConfig(database_url=database_url, tables=("t1=punto-banco",), **FAST)
    app = create_app(config)
    state = app.state.baccara
    for name, role in STAFF.items():
        state.auth.create_staff(name, PASSWORD, role, actor="cli")
    coups = _deal_shoe(state.ledger, PUNTO_BANCO, seed=3, table="z1")
    day = datetime.fromtimestamp(NOW, UTC).date().isoformat()
    span = f"from={day}&to={day}"

    async def scenario(client: httpx.AsyncClient) -> None:
        url = f"/api/admin/reports/hold?by=table&{span}"
        assert _problem(await client.get(url)) == (401, "not_logged_in")
        await client.post("/api/register", json={"name": "ann", "password": PASSWORD}, headers=JSON)
        assert _problem(await client.get(url)) == (403, "staff_only")
        for name in STAFF:
            await _login(client, name)
            report = (await client.get(url)).json()
            assert len(report["rows"]) == 1, report
            (row,) = report["rows"]
            assert (row["key"], row["rounds"], row["handle"]) == ("z1", coups, coups * 10_000)
            assert report["total"] == {**row, "key": "total"} and (
                report["start"],
                report["end"],
            ) == (day, day)
            assert _problem(await client.get(url, headers={"Origin": EVIL})) == (403, "bad_origin")
        table = (await client.get(url)).json()["rows"][0]
        sheet = await client.get(url + "&format=csv")
        assert sheet.headers["content-type"].startswith("text/csv")
        lines = list(csv.reader(io.StringIO(sheet.text)))
        assert lines[0][:5] == ["key", "rounds", "bets", "handle", "win"]
        assert lines[1][:5] == ["z1", str(coups), str(coups), format_money(coups * 10_000),
                                format_money(table["win"])]  # fmt: skip
        assert lines[2][0] == "total"
        by_kind = (await client.get(f"/api/admin/reports/hold?by=kind&{span}")).json()
        assert [r["key"] for r in by_kind["rows"]] == ["banker"]
        assert by_kind["total"]["win"] == table["win"]
        series = (await client.get(f"/api/admin/reports/hold/series?{span}&table=z1")).json()
        (point,) = series["points"]
        assert (point["day"], point["cumulative_win"]) == (day, table["win"])
        assert point["cumulative_sd"] == pytest.approx(table["sd"])
        rtp = (await client.get(f"/api/admin/reports/rtp?{span}")).json()
        assert [(r["kind"], r["band"], r["handle"]) for r in rtp["rows"]] == [
            ("banker", 10_000, coups * 10_000)
        ]
        # a full shoe's Banker at each stake: 5% of 0.10 rounds to nothing, a win pays 1:1
        by_stake = {s["stake"]: s["rtp"] for s in rtp["stakes"]}
        full = odds(full_shoe(8))
        paid_even = 1 + float(full.probabilities["banker"] - full.probabilities["player"])
        assert by_stake[10] == pytest.approx(paid_even)
        assert by_stake[1_000] == pytest.approx(1 - float(full.edges["banker"]))
        gone = (await client.get(f"/api/admin/reports/interrupted?{span}")).json()
        assert gone["rounds"] == []
        assert (await client.get(f"/api/admin/reports/hold?{span}&table=none")).json()["rows"] == []
        for bad in ("by=colour", "from=28/11/2026", "format=xml", f"from={day}&to=2000-01-01"):
            assert _problem(await client.get(f"/api/admin/reports/hold?{bad}")) == (
                400,
                "bad_request",
            ), bad

    try:
        in_process(app, scenario)
    finally:
        state.ledger.database.dispose()


def _day_or_refusal(text: str) -> date | Refusal:
    try:
        return day(text, "from", date(2000, 1, 1))
    except Refusal as refusal:
        return refusal


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=12))
def test_a_day_asked_is_a_day_or_a_refusal_that_names_it(text: str) -> None:
    """Whatever a query's ``from`` says: a UTC day, or a 400 naming ``from``; never a 500."""
    found = _day_or_refusal(text)
    if isinstance(found, Refusal):
        assert (found.status, found.code) == (400, "bad_request")
        assert found.message.startswith("from:")
    elif text == "":
        assert found == date(2000, 1, 1)
    else:
        assert found.isoformat() == text
