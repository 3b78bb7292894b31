"""The markers of harm (issue 34, point 7), on SQLite and PostgreSQL: each is raised by
seeded data built to pass its threshold, with the rows that raised it as evidence, and
not by data just under it; a rescan raises nothing twice; an acknowledgement is audited
and made once; the table hold's marker takes its z-scores from a function (here a
stub); every alerts route's roles; the period and thresholds refused when bad."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from fastapi import FastAPI
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy.engine import Engine
from tests.test_hardening_http import in_process

from baccara.cli import main
from baccara.coup import Coup
from baccara.db import audit
from baccara.db.alerts import (
    AlertError,
    Marker,
    TableScore,
    Thresholds,
    acknowledge,
    alerts_in,
    period,
    scan,
)
from baccara.db.auth import Auth
from baccara.db.cashier import Cashier, Clerk
from baccara.db.ledger import Ledger
from baccara.db.protections import Protections
from baccara.db.staff import Role
from baccara.server.app import ServerConfig, create_app

PASSWORD = "long password"
PLAYER_WINS = Coup.parse("P:2h,3d,4c B:5s,Qc,9d")
DAY = 86_400.0
MONDAY = datetime(2026, 11, 23, tzinfo=UTC).timestamp()  # 00:00 UTC
HOUR, MINUTE = 3_600.0, 60.0
OLGA = Clerk(name="olga", role="operator")
JSON = {"Content-Type": "application/json"}
EVIL = "http://evil.example"


class Table:
    """Rounds at a house table, each settled with the Player winning."""

    def __init__(self, ledger: Ledger) -> None:
        self.ledger = ledger
        self.number = 0

    def play(self, account: int, at: float, amount: int, *, win: bool = False) -> int:
        """One round: a bet of ``amount`` at ``at`` that wins or loses; the bet's row id."""
        self.number += 1
        r = self.ledger.open_round(table="t1", number=self.number, shoe_id=None, coup_index=1)
        kind = "player" if win else "banker"
        self.ledger.place_bet(account=account, round_id=r, bet_id=f"b{self.number}", kind=kind,
                              amount=amount, now=at)  # fmt: skip
        self.ledger.close_round(r)
        self.ledger.settle_round(r, PLAYER_WINS, "punto-banco")
        with self.ledger.database.connect() as conn:
            return int(conn.execute(sa.text("SELECT max(id) FROM bets")).scalar_one())


@pytest.fixture
def book(database_url: str) -> Iterator[Ledger]:
    ledger = Ledger.connect(database_url)
    try:
        yield ledger
    finally:
        ledger.database.dispose()


def _players(book: Ledger, *names: str) -> dict[str, Any]:
    auth = Auth(book, welcome=1_000_000)
    return {name: auth.register(name, PASSWORD) for name in names}


def _raised(database: Engine, marker: Marker) -> dict[str, Any]:
    return {a.subject: a for a in alerts_in(database, first_day="2000-01-01", last_day="2100-01-01",
                                            marker=marker, limit=500)}  # fmt: skip


def _scan(database: Engine, **given: Any) -> None:
    scan(database, start=MONDAY, end=MONDAY + 7 * DAY, now=MONDAY + 8 * DAY, **given)


def test_losses_chased_are_raised_at_three_raises_after_a_loss_not_at_two(book: Ledger) -> None:
    p = _players(book, "chaser", "steady")
    table, noon = Table(book), MONDAY + 12 * HOUR
    chased = [table.play(p["chaser"].account, noon + n * MINUTE, stake)
              for n, stake in enumerate((1_000, 2_000, 4_000, 8_000))]  # fmt: skip
    for n, stake in enumerate((1_000, 2_000, 4_000, 7_999)):  # the last: under 200 %
        table.play(p["steady"].account, noon + n * MINUTE, stake)
    _scan(book.database)
    found = _raised(book.database, Marker.LOSSES_CHASED)
    assert set(found) == {"chaser"}
    alert = found["chaser"]
    assert alert.day == "2026-11-23"
    with book.database.connect() as conn:  # the evidence's stakes are the bets stored
        stakes = dict(conn.execute(sa.text("SELECT id, amount FROM bets")).all())
    assert [(e["staked_before"], e["staked"], e["lost"]) for e in alert.evidence] == [
        (stakes[chased[n]], stakes[chased[n + 1]], stakes[chased[n]]) for n in range(3)
    ]


def test_a_long_session_is_raised_at_four_hours_with_no_long_pause_not_a_minute_under(
    book: Ledger,
) -> None:
    p = _players(book, "long", "short", "paused")
    table = Table(book)
    start = MONDAY + DAY + 10 * HOUR
    for n in range(9):  # every 30 minutes: 4 hours
        table.play(p["long"].account, start + n * 30 * MINUTE, 1_000)
    for n in range(8):
        table.play(p["short"].account, start + n * 30 * MINUTE, 1_000)
    table.play(p["short"].account, start + 239 * MINUTE, 1_000)  # 3 h 59
    for gap in (0, 30, 60, 90, 121, 150, 180, 210, 240):  # a pause of 31 minutes
        table.play(p["paused"].account, start + gap * MINUTE, 1_000)
    _scan(book.database)
    found = _raised(book.database, Marker.LONG_SESSION)
    assert set(found) == {"long"}
    (evidence,) = found["long"].evidence
    assert evidence["bets"] == 9 and evidence["staked"] == 9_000
    assert (evidence["from"], evidence["to"]) == (
        "2026-11-24T10:00:00+00:00",
        "2026-11-24T14:00:00+00:00",
    )


def test_night_play_is_raised_at_ten_bets_before_six_not_nine(book: Ledger) -> None:
    p = _players(book, "owl", "early")
    table = Table(book)
    night = MONDAY + 2 * DAY
    owl = [table.play(p["owl"].account, night + 1 * HOUR + n * MINUTE, 1_000) for n in range(10)]
    for n in range(9):
        table.play(p["early"].account, night + 5 * HOUR + n * MINUTE, 1_000)
    table.play(p["early"].account, night + 6 * HOUR, 1_000)  # 06:00: the night is over
    _scan(book.database)
    found = _raised(book.database, Marker.NIGHT_PLAY)
    assert set(found) == {"owl"}
    assert [e["bet"] for e in found["owl"].evidence] == owl


def test_limits_raised_again_and_again_within_thirty_days_not_twice(book: Ledger) -> None:
    p = _players(book, "raiser", "twice")
    protections = Protections(book.database)
    at = MONDAY + 3 * DAY
    for name in ("raiser", "twice"):
        protections.set_loss_limit(p[name].id, 1_000, now=at - 60 * DAY)
        protections.set_loss_limit(p[name].id, 2_000, now=at - 55 * DAY)  # a raise out of reach
    for n, amount in enumerate((3_000, 4_000, 5_000)):
        protections.set_loss_limit(p["raiser"].id, amount, now=at - 20 * DAY + n * 2 * DAY)
    for n, amount in enumerate((3_000, 4_000)):
        protections.set_loss_limit(p["twice"].id, amount, now=at - 20 * DAY + n * 2 * DAY)
    protections.set_loss_limit(p["twice"].id, 500, now=at - DAY)  # a cut is no raise
    scan(book.database, start=at - 30 * DAY, end=at + DAY, now=at + DAY)
    found = _raised(book.database, Marker.LIMITS_RAISED)
    assert set(found) == {"raiser"}
    with book.database.connect() as conn:
        raises = conn.execute(
            sa.text(
                "SELECT id FROM limit_changes WHERE user_id = :u AND raised AND at >= :s ORDER BY at"
            ),
            {"u": p["raiser"].id, "s": at - 30 * DAY},
        ).scalars().all()  # fmt: skip
    assert [e["change"] for e in found["raiser"].evidence] == list(raises)


def test_a_deposit_after_the_daily_loss_limit_was_reached_not_a_cent_under(book: Ledger) -> None:
    p = _players(book, "reached", "under")
    protections, cashier, table = Protections(book.database), Cashier(book), Table(book)
    day = MONDAY + 4 * DAY
    for name in ("reached", "under"):
        protections.set_loss_limit(p[name].id, 5_000, now=day - DAY)
    table.play(p["reached"].account, day + 9 * HOUR, 5_000)
    table.play(p["under"].account, day + 9 * HOUR, 4_999)
    cashier.deposit("reached", 10_000, "dep-1", OLGA, now=day + 10 * HOUR)
    cashier.deposit("under", 10_000, "dep-2", OLGA, now=day + 10 * HOUR)
    table.play(p["under"].account, day + 11 * HOUR, 1)  # after the deposit: not counted
    _scan(book.database)
    found = _raised(book.database, Marker.DEPOSIT_AFTER_LOSS_LIMIT)
    assert set(found) == {"reached"}
    (evidence,) = found["reached"].evidence
    assert (evidence["reference"], evidence["lost_before"], evidence["loss_limit"]) == (
        "dep-1",
        5_000,
        5_000,
    )


def test_money_moved_past_two_thousand_in_a_day_not_at_two_thousand(book: Ledger) -> None:
    _players(book, "mover", "exact")
    cashier, day = Cashier(book), MONDAY + 5 * DAY
    cashier.deposit("mover", 150_000, "m1", OLGA, now=day + HOUR)
    cashier.withdraw("mover", 50_001, "m2", OLGA, now=day + 2 * HOUR)
    cashier.deposit("exact", 150_000, "e1", OLGA, now=day + HOUR)
    cashier.withdraw("exact", 50_000, "e2", OLGA, now=day + 2 * HOUR)
    cashier.deposit("exact", 1, "e3", OLGA, now=day + DAY)  # the next day
    _scan(book.database)
    found = _raised(book.database, Marker.MONEY_MOVED)
    assert set(found) == {"mover"}
    with book.database.connect() as conn:
        total = conn.execute(
            sa.text("SELECT SUM(amount) FROM cashier_moves WHERE reference IN ('m1', 'm2')")
        ).scalar_one()
    assert sum(e["amount"] for e in found["mover"].evidence) == total == 200_001
    assert found["mover"].summary == "mover moved 2,000.01 in a day, past 2,000.00"


def test_a_tables_hold_past_four_deviations_from_the_hold_reports_z_scores(book: Ledger) -> None:
    asked: list[tuple[float, float]] = []

    def hold(database: Engine, start: float, end: float) -> list[TableScore]:
        asked.append((start, end))
        return [TableScore(table="hot", z=4.01), TableScore(table="cold", z=-4.2),
                TableScore(table="warm", z=4.0)]  # fmt: skip

    scan(book.database, start=MONDAY, end=MONDAY + 2 * DAY, now=MONDAY + 2 * DAY, hold=hold)
    assert asked == [(MONDAY, MONDAY + DAY), (MONDAY + DAY, MONDAY + 2 * DAY)]
    found = alerts_in(book.database, first_day="2026-11-23", last_day="2026-11-24",
                      marker=Marker.TABLE_HOLD)  # fmt: skip
    assert sorted((a.subject, a.day) for a in found) == [
        ("cold", "2026-11-23"), ("cold", "2026-11-24"), ("hot", "2026-11-23"), ("hot", "2026-11-24")
    ]  # fmt: skip
    _scan(book.database)  # no hold function: the marker is not computed
    assert len(alerts_in(book.database, first_day="2026-11-23", last_day="2026-11-30")) == 4


def test_a_rescan_raises_nothing_twice_and_an_acknowledgement_is_audited_once(
    book: Ledger,
) -> None:
    _players(book, "mover")
    Cashier(book).deposit("mover", 250_000, "m1", OLGA, now=MONDAY + HOUR)
    first = scan(book.database, start=MONDAY, end=MONDAY + DAY, now=MONDAY + DAY)
    assert [a.marker for a in first] == [Marker.MONEY_MOVED]
    assert scan(book.database, start=MONDAY, end=MONDAY + DAY, now=MONDAY + DAY + 1) == []
    done = acknowledge(
        book.database, first[0].id, actor="cora", role="compliance", now=MONDAY + 2 * DAY
    )
    assert (done.acknowledged_by, done.acknowledged_at) == ("cora", MONDAY + 2 * DAY)
    with pytest.raises(AlertError, match="acknowledged by cora") as twice:
        acknowledge(
            book.database, first[0].id, actor="ivan", role="compliance", now=MONDAY + 3 * DAY
        )
    assert twice.value.code == "acknowledged"
    with pytest.raises(AlertError) as missing:
        acknowledge(book.database, 999, actor="cora", role="compliance", now=MONDAY)
    assert missing.value.code == "no_such_alert"
    entry = audit.entries(book.database)[-1]
    assert (entry.actor, entry.role, entry.action) == ("cora", "compliance", "alert.acknowledge")
    assert (entry.before, entry.after) == ({"acknowledged_by": None},
                                           {"acknowledged_by": "cora", "at": MONDAY + 2 * DAY})  # fmt: skip
    assert entry.target == f"alert {first[0].id}: money_moved mover 2026-11-23"
    assert (
        alerts_in(book.database, first_day="2026-11-23", last_day="2026-11-23", open_only=True)
        == []
    )
    assert audit.verify(book.database).whole


def test_a_bad_period_or_threshold_is_refused() -> None:
    for start, end in ((DAY, DAY), (2 * DAY, DAY), (0.0, 185 * DAY)):
        with pytest.raises(AlertError, match="1 to 184 days"):
            period(start, end)
    assert period(MONDAY + HOUR, MONDAY + DAY) == (MONDAY, MONDAY + DAY)
    for bad in ({"night_start_hour": 6, "night_end_hour": 6}, {"chase_count": 0},
                {"hold_sigmas": 0.0}, {"daily_money_moved": -1}):  # fmt: skip
        with pytest.raises(ValueError, match="bad thresholds"):
            Thresholds(**bad)


@settings(max_examples=100, deadline=None)
@given(start=st.floats(-1e12, 1e12), length=st.floats(-1e9, 1e9) | st.floats(0, 2e7))
def test_any_period_is_whole_days_or_refused(start: float, length: float) -> None:
    try:
        first, last = period(start, start + length)
    except AlertError:
        assert not 0 <= start < start + length <= 253_402_300_799 or length > 183 * DAY
        return
    assert first <= start < last and (last - first) % DAY == 0 and last - first <= 184 * DAY


def test_baccara_admin_alerts_scan_stores_a_period_with_thresholds_from_a_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = f"sqlite:///{tmp_path / 'scan.db'}"
    ledger = Ledger.connect(db)
    try:
        _players(ledger, "mover")
        Cashier(ledger).deposit("mover", 150_000, "m1", OLGA, now=MONDAY + HOUR)
        lower = tmp_path / "lower.json"
        lower.write_text(json.dumps({"daily_money_moved": 100_000}))
        days = ["--from", "2026-11-23", "--to", "2026-11-24", "--db", db]
        assert main(["admin", "alerts", "scan", *days, "--json"]) == 0  # the default: none
        assert json.loads(capsys.readouterr().out) == []
        assert main(["admin", "alerts", "scan", *days, "--thresholds", str(lower), "--json"]) == 0
        (raised,) = json.loads(capsys.readouterr().out)
        assert (raised["marker"], raised["subject"], raised["day"]) == (
            "money_moved",
            "mover",
            "2026-11-23",
        )
        assert main(["admin", "alerts", "scan", *days, "--thresholds", str(lower)]) == 0
        assert capsys.readouterr().out == "0 alerts raised\n"  # stored once
        bad = tmp_path / "bad.json"
        bad.write_text(json.dumps({"night_bets": "ten"}))
        assert main(["admin", "alerts", "scan", *days, "--thresholds", str(bad)]) == 2
        assert "night_bets must be a whole number" in capsys.readouterr().err
        assert (
            main(
                [
                    "admin",
                    "alerts",
                    "scan",
                    "--from",
                    "2026-11-24",
                    "--to",
                    "2026-11-23",
                    "--db",
                    db,
                ]
            )
            == 2
        )
        assert main(["admin", "alerts", "scan", "--from", "someday", "--db", db]) == 2
    finally:
        ledger.database.dispose()


# -- over HTTP ---------------------------------------------------------------------------------

STAFF = {"olga": Role.OPERATOR, "cora": Role.COMPLIANCE, "ivan": Role.AUDITOR}


@pytest.fixture
def app(database_url: str) -> FastAPI:
    made = create_app(ServerConfig(database_url=database_url, tables=(), logins_per_minute=6000))
    auth = made.state.baccara.auth
    for name, role in STAFF.items():
        auth.create_staff(name, PASSWORD, role, actor="cli")
    auth.register("ann", PASSWORD)
    Cashier(made.state.baccara.ledger).deposit("ann", 250_000, "big", OLGA, now=MONDAY + HOUR)
    return made


async def _login(client: httpx.AsyncClient, name: str) -> None:
    client.cookies.clear()
    reply = await client.post("/api/login", json={"name": name, "password": PASSWORD}, headers=JSON)
    assert reply.status_code == 200, reply.text


def _problem(reply: httpx.Response) -> tuple[int, str]:
    return reply.status_code, reply.json()["error"]


LIST = "/api/admin/alerts?from=2026-11-23&to=2026-11-23"
SCAN = ("/api/admin/alerts/scan", {"start": "2026-11-23", "end": "2026-11-24"})


def test_every_alerts_route_as_anonymous_a_player_each_role_and_another_site(app: FastAPI) -> None:
    """The list: compliance and auditor; the scan and the acknowledgement: compliance;
    the others refused before anything changes."""

    async def scenario(client: httpx.AsyncClient) -> None:
        ack = "/api/admin/alerts/1/acknowledge"
        assert _problem(await client.get(LIST)) == (401, "not_logged_in")
        for url, body in (SCAN, (ack, {})):
            assert _problem(await client.post(url, json=body, headers=JSON)) == (
                401,
                "not_logged_in",
            )
            foreign = await client.post(url, json=body, headers={**JSON, "Origin": EVIL})
            assert _problem(foreign) == (403, "bad_origin")
        await client.post("/api/login", json={"name": "ann", "password": PASSWORD}, headers=JSON)
        assert _problem(await client.get(LIST)) == (403, "staff_only")
        await _login(client, "olga")
        assert _problem(await client.get(LIST)) == (403, "wrong_role")
        for name in ("olga", "ivan"):
            await _login(client, name)
            for url, body in (SCAN, (ack, {})):
                assert _problem(await client.post(url, json=body, headers=JSON)) == (
                    403,
                    "wrong_role",
                )
        assert (await client.get(LIST)).json()["alerts"] == []  # the auditor reads
        await _login(client, "cora")
        text = await client.post(SCAN[0], content=b"{}", headers={"Content-Type": "text/plain"})
        assert _problem(text) == (415, "bad_request")
        scanned = await client.post(SCAN[0], json=SCAN[1], headers=JSON)
        assert scanned.status_code == 200, scanned.text
        (raised,) = scanned.json()["raised"]
        assert (raised["marker"], raised["subject"], scanned.json()["days"]) == (
            "money_moved",
            "ann",
            1,
        )
        assert (await client.post(SCAN[0], json=SCAN[1], headers=JSON)).json()["raised"] == []
        listed = (await client.get(LIST)).json()["alerts"]
        assert [a["id"] for a in listed] == [raised["id"]] and listed[0]["evidence"][0][
            "reference"
        ] == "big"
        done = await client.post(
            f"/api/admin/alerts/{raised['id']}/acknowledge", json={}, headers=JSON
        )
        assert done.status_code == 200 and done.json()["acknowledged_by"] == "cora"
        again = await client.post(
            f"/api/admin/alerts/{raised['id']}/acknowledge", json={}, headers=JSON
        )
        assert _problem(again) == (409, "acknowledged")
        assert _problem(await client.post("/api/admin/alerts/99/acknowledge", json={}, headers=JSON)) == (
            404, "no_such_alert",
        )  # fmt: skip
        assert (await client.get(LIST + "&open=true")).json()["alerts"] == []
        for bad in ("&open=yes", "&marker=nope", "&limit=0", "&from=2026-12-01"):
            assert _problem(await client.get(LIST + bad)) == (400, "bad_request"), bad
        for body in ({"start": "2026-01-01", "end": "2026-11-24"}, {"start": "x", "end": "y"},
                     {"start": "2026-11-24", "end": "2026-11-23"}, {"end": "2026-11-23"},
                     {"from": "2026-11-23", "to": "2026-11-24"}):  # fmt: skip
            assert _problem(await client.post(SCAN[0], json=body, headers=JSON)) == (
                400,
                "bad_request",
            )
        actions = [
            e["action"] for e in (await client.get("/api/admin/audit?limit=500")).json()["entries"]
        ]
        assert actions.count("alert.acknowledge") == 1 and actions.count("alerts.scan") == 2
        scans = [e for e in (await client.get("/api/admin/audit?limit=500")).json()["entries"]
                 if e["action"] == "alerts.scan"]  # fmt: skip
        assert [(e["actor"], e["target"], e["after"]) for e in scans] == [
            ("cora", "2026-11-23 to 2026-11-23", {"raised": [raised["id"]]}),
            ("cora", "2026-11-23 to 2026-11-23", {"raised": []}),
        ]

    in_process(app, scenario)
