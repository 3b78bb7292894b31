"""The players in the operator's console (issue 34, point 6), on SQLite and PostgreSQL:
found by name; a player's account, status, limits with their history and notes equal
what independent SQL reads; the last rounds replayed equal the cards the fair shoe
dealt; suspend and reinstate (and ``baccara account suspend``) audited, a staff account
refused, an open socket closed; every route's roles; the new inputs fuzzed."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from fastapi import FastAPI
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.support.harness import Player
from tests.support.inprocess import ServerThread
from tests.test_hardening_http import in_process

from baccara.cli import main
from baccara.coup import deal_shoe
from baccara.db import audit, people
from baccara.db.auth import Auth
from baccara.db.chips import POT, Chips
from baccara.db.database import writing
from baccara.db.ledger import Ledger
from baccara.db.protections import (
    FOREVER,
    LimitKind,
    Period,
    Protections,
    SuspendError,
    stop_logins,
    suspend,
)
from baccara.db.schema import online_shoes, player_notes
from baccara.db.staff import Role
from baccara.fair import fair_shoe, shoe_settings_of
from baccara.server.app import ServerConfig, create_app
from baccara.server.http.admin import whole_number
from baccara.server.http.depends import JsonBody
from baccara.server.infra.edge import Refusal
from baccara.server.wire.people import NoteRequest, SuspendRequest
from baccara.skill.actions import Act, Action

PASSWORD = "long password"
JSON = {"Content-Type": "application/json"}
EVIL = "http://evil.example"
NOW = 1_795_866_742.0  # 2026-11-28
DAY = 86_400.0
STAFF = {"olga": Role.OPERATOR, "cora": Role.COMPLIANCE, "ivan": Role.AUDITOR}


class Clock:
    """A clock the test moves."""

    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def book(database_url: str) -> Iterator[Ledger]:
    ledger = Ledger.connect(database_url)
    try:
        yield ledger
    finally:
        ledger.database.dispose()


# -- the database ------------------------------------------------------------------------


def test_a_search_finds_players_by_any_part_of_the_name_those_it_begins_first(
    book: Ledger,
) -> None:
    auth = Auth(book)
    for name in ("joanna", "Annie", "bob", "ann_2", "ANNA-B", "x_ann"):
        auth.register(name, PASSWORD)
    auth.create_staff("annette", PASSWORD, Role.AUDITOR, actor="cli")  # staff: no player
    names = [f.name for f in people.search(book.database, "aNn", now=NOW)]
    assert names == ["ann_2", "ANNA-B", "Annie", "joanna", "x_ann"]
    first = people.search(book.database, "ann", limit=2, now=NOW)
    rest = people.search(book.database, "ann", after=first[-1].name, limit=2, now=NOW)
    last = people.search(book.database, "ann", after=rest[-1].name, limit=2, now=NOW)
    assert [f.name for f in first + rest + last] == names
    assert [f.name for f in people.search(book.database, "_", now=NOW)] == ["ann_2", "x_ann"]
    assert [f.name for f in people.search(book.database, "%", now=NOW)] == []
    assert len(people.search(book.database, "", now=NOW)) == 6
    with pytest.raises(people.PeopleError, match="limit"):
        people.search(book.database, "a", limit=0)


def test_a_players_detail_equals_what_independent_sql_reads(book: Ledger) -> None:
    clock = Clock(NOW - 40 * DAY)
    auth = Auth(book, now=clock)
    ann = auth.register("ann", PASSWORD)
    auth.login("ann", PASSWORD)
    logged_in = clock.now
    protections = Protections(book.database)
    protections.set_loss_limit(ann.id, 5_000, now=NOW - 30 * DAY)
    protections.set_loss_limit(ann.id, 9_000, now=NOW - 20 * DAY)  # a raise: waits a day
    protections.set_period_limit(ann.id, LimitKind.DEPOSIT, Period.WEEK, 20_000, now=NOW - DAY)
    protections.set_reminder(ann.id, 45, now=NOW - 10)
    r = book.open_round(table="t1", number=1, shoe_id=None, coup_index=1)
    book.place_bet(account=ann.account, round_id=r, bet_id="b1", kind="banker", amount=1_250)
    suspend(book.database, "ann", NOW + DAY, now=NOW - 5, actor="cora", role="compliance")
    people.add_note(book.database, "ANN", "called: wants a break", actor="cora",
                    role="compliance", now=NOW - 1)  # fmt: skip

    found = people.player(book.database, "Ann", now=NOW, start=NOW - 25 * DAY)
    with book.database.connect() as conn:
        balance = conn.execute(
            sa.text(
                "SELECT SUM(e.amount) FROM table_entries e JOIN table_accounts a "
                "ON a.id = e.account_id WHERE a.name = 'wallet:ann'"
            )
        ).scalar()
        history = conn.execute(
            sa.text(
                "SELECT kind, days, amount, next_amount, until, actor FROM limit_changes "
                "WHERE user_id = :u AND at >= :s AND at < :e ORDER BY at DESC"
            ),
            {"u": ann.id, "s": NOW - 25 * DAY, "e": NOW},
        ).all()
        last_login = conn.execute(
            sa.text("SELECT last_login_at FROM web_users WHERE id = :u"), {"u": ann.id}
        ).scalar()
    assert found.balance == balance == 100_000 - 1_250
    assert found.last_login_at == last_login == logged_in
    assert [(c.kind, c.days, c.amount, c.next_amount, c.until, c.actor) for c in found.history] == [
        tuple(row) for row in history
    ]
    assert [c.kind for c in found.history] == ["suspension", "reminder", "deposit", "loss"]
    assert found.history[-1].raised and found.history[-1].next_amount == 9_000
    assert found.limits["loss"]["day"].amount == 9_000  # the raise's day has come
    assert found.limits["deposit"]["week"].amount == 20_000
    assert found.reminder_minutes == 45
    assert found.status == people.PlayerStatus(
        suspended_until=NOW + DAY, excluded_until=None, logins_stopped=False
    )
    assert [(n.actor, n.text) for n in found.notes] == [("cora", "called: wants a break")]
    auth.create_staff("cora", PASSWORD, Role.COMPLIANCE, actor="cli")
    with pytest.raises(people.PeopleError, match="no player named 'cora'"):
        people.player(book.database, "cora", now=NOW)


def test_notes_are_kept_for_good_and_audited(book: Ledger) -> None:
    Auth(book).register("ann", PASSWORD)
    note = people.add_note(book.database, "ann", "  first  ", actor="cora", role="compliance",
                           now=NOW)  # fmt: skip
    assert note.text == "first"
    entry = audit.entries(book.database)[-1]
    assert (entry.action, entry.target, entry.actor, entry.after) == (
        "player.note", "ann", "cora", {"note": note.id, "text": "first"},
    )  # fmt: skip
    for change in (player_notes.update().values(text="changed"), player_notes.delete()):
        with pytest.raises(sa.exc.DBAPIError, match="append-only"), writing(book.database) as conn:
            conn.execute(change)
    for bad in ("", "   ", "a\x00b", "x" * (people.MAX_NOTE + 1), "\ud800"):
        with pytest.raises(people.PeopleError):
            people.add_note(book.database, "ann", bad, actor="cora", role="compliance", now=NOW)
    with pytest.raises(people.PeopleError, match="no player"):
        people.add_note(book.database, "bob", "x", actor="cora", role="compliance", now=NOW)
    assert len(audit.entries(book.database)) == 1  # nothing refused was written


def test_a_suspension_is_audited_with_before_and_after_and_refuses_staff(book: Ledger) -> None:
    auth = Auth(book)
    auth.register("ann", PASSWORD)
    auth.create_staff("olga", PASSWORD, Role.OPERATOR, actor="cli")
    suspend(book.database, "ann", NOW + DAY, now=NOW, actor="cora", role="compliance")
    suspend(book.database, "ann", None, now=NOW + 1, actor="cora", role="compliance")
    stop_logins(book.database, "ann", stopped=True, actor="olga", role="operator", now=NOW + 2)
    with pytest.raises(SuspendError):
        suspend(book.database, "olga", NOW + DAY, now=NOW)
    found = [(e.action, e.before, e.after) for e in audit.entries(book.database)[1:]]
    assert found == [
        ("player.suspend", {"suspended_until": None}, {"suspended_until": NOW + DAY}),
        ("player.reinstate", {"suspended_until": NOW + DAY}, {"suspended_until": None}),
        ("player.logins_stop", {"stopped": False}, {"stopped": True}),
    ]
    status = people.player(book.database, "ann", now=NOW + 3).status
    assert status.logins_stopped and status.suspended_until == FOREVER


def test_baccara_account_suspend_is_audited_and_refuses_a_staff_account(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'cli.db'}"
    ledger = Ledger.connect(db)
    try:
        auth = Auth(ledger)
        auth.register("ann", PASSWORD)
        auth.create_staff("olga", PASSWORD, Role.OPERATOR, actor="cli")
        assert main(["account", "suspend", "ann", "--days", "2", "--db", db]) == 0
        assert main(["account", "suspend", "olga", "--db", db]) == 2
        assert main(["account", "reinstate", "ann", "--db", db]) == 0
        entries = audit.entries(ledger.database)
        assert [(e.actor, e.role, e.action, e.target) for e in entries[1:]] == [
            ("cli", None, "player.suspend", "ann"),
            ("cli", None, "player.reinstate", "ann"),
        ]
        assert entries[1].after is not None and entries[2].after == {"suspended_until": None}
        assert audit.verify(ledger.database).whole
    finally:
        ledger.database.dispose()


def test_a_players_shoe_is_replayed_as_its_decisions_in_order(book: Ledger) -> None:
    """At a players' table the shoes a player's chips moved in are replayed with every
    decision, in order, each with its seat's player, as ``skill_actions`` holds them."""
    auth = Auth(book)
    for name in ("ann", "bob", "cyd"):
        auth.register(name, PASSWORD)
    chips = Chips(book, "c1")
    chips.buy_in("ann", 20_000)
    chips.buy_in("bob", 20_000)
    with writing(book.database) as conn:
        shoe = conn.execute(
            online_shoes.insert().values(table_id="c1", server_seed="00" * 32, rules={},
                                         client_seeds=[], sealed=True, finished=False)
        ).inserted_primary_key[0]  # fmt: skip
    chips.set_seats(shoe, [{"name": "ann", "chips": 20_000}, {"name": "bob", "chips": 20_000}])
    decided = [
        (Action(act=Act.OPEN_BANK, seat=0, amount=1_000), {"ann": -1_000, POT: 1_000}),
        (Action(act=Act.BANCO, seat=1, amount=1_000), {"bob": -1_000, POT: 1_000}),
        (Action(act=Act.STAND, seat=1), {}),
    ]
    for seq, (action, moves) in enumerate(decided, start=1):
        chips.record(shoe, seq, action, False, moves)
    (replayed,) = people.player_rounds(book.database, "BOB")
    with book.database.connect() as conn:
        stored = conn.execute(
            sa.text("SELECT seq, seat, action, amount FROM skill_actions WHERE shoe_id = :s ORDER BY seq"),
            {"s": shoe},
        ).all()  # fmt: skip
    assert (replayed.kind, replayed.table, replayed.shoe_id, replayed.seats) == (
        "players", "c1", shoe, ["ann", "bob"],
    )  # fmt: skip
    assert replayed.decisions is not None
    assert [(d.seq, d.seat, d.action, d.amount) for d in replayed.decisions] == [
        tuple(row) for row in stored
    ]
    assert [d.player for d in replayed.decisions] == ["ann", "bob", "bob"]
    assert people.player_rounds(book.database, "cyd") == []


# -- over HTTP: the roles --------------------------------------------------------------------


@pytest.fixture
def app(database_url: str) -> FastAPI:
    config = ServerConfig(database_url=database_url, tables=(), logins_per_minute=6000)
    made = create_app(config)
    auth = made.state.baccara.auth
    for name, role in STAFF.items():
        auth.create_staff(name, PASSWORD, role, actor="cli")
    auth.register("ann", PASSWORD)
    return made


Client = httpx.AsyncClient


async def _login(client: Client, name: str) -> None:
    client.cookies.clear()
    reply = await client.post("/api/login", json={"name": name, "password": PASSWORD}, headers=JSON)
    assert reply.status_code == 200, reply.text


def _problem(reply: httpx.Response) -> tuple[int, str]:
    return reply.status_code, reply.json()["error"]


READS = [
    "/api/admin/players?q=an",
    "/api/admin/players/ann",
    "/api/admin/players/ann/rounds?last=10",
]
CHANGES: list[tuple[str, dict[str, Any]]] = [
    ("/api/admin/players/ann/suspend", {"days": 1}),
    ("/api/admin/players/ann/reinstate", {}),
    ("/api/admin/players/ann/notes", {"text": "spoke to ann"}),
]


def test_every_players_route_as_anonymous_a_player_each_role_and_another_site(
    app: FastAPI,
) -> None:
    """Anonymous 401, a player 403, every role reads, only compliance changes (the others
    403), another site 403 and a body not JSON 415 before anything changes; each change
    audited."""

    async def scenario(client: Client) -> None:
        for url in READS:
            assert _problem(await client.get(url)) == (401, "not_logged_in")
            assert _problem(await client.get(url, headers={"Origin": EVIL})) == (403, "bad_origin")
        for url, body in CHANGES:
            assert _problem(await client.post(url, json=body, headers=JSON)) == (
                401,
                "not_logged_in",
            )
        await client.post("/api/login", json={"name": "ann", "password": PASSWORD}, headers=JSON)
        for url in READS:
            assert _problem(await client.get(url)) == (403, "staff_only")
        for url, body in CHANGES:
            assert _problem(await client.post(url, json=body, headers=JSON)) == (403, "staff_only")
        for name in STAFF:
            await _login(client, name)
            for url in READS:
                reply = await client.get(url)
                assert reply.status_code == 200, (name, url, reply.text)
            if name != "cora":
                for url, body in CHANGES:
                    reply = await client.post(url, json=body, headers=JSON)
                    assert _problem(reply) == (403, "wrong_role"), (name, url)
        await _login(client, "cora")
        for url, body in CHANGES:
            foreign = await client.post(url, json=body, headers={**JSON, "Origin": EVIL})
            assert _problem(foreign) == (403, "bad_origin")
            text = await client.post(url, content=b"{}", headers={"Content-Type": "text/plain"})
            assert _problem(text) == (415, "bad_request")
        before = len((await client.get("/api/admin/audit")).json()["entries"])
        assert before == len(STAFF)  # nothing refused was written
        for url, body in CHANGES:
            reply = await client.post(url, json=body, headers=JSON)
            assert reply.status_code in (200, 201), (url, reply.text)
        entries = (await client.get("/api/admin/audit")).json()["entries"][before:]
        assert [(e["actor"], e["role"], e["action"], e["target"]) for e in entries] == [
            ("cora", "compliance", "player.suspend", "ann"),
            ("cora", "compliance", "player.reinstate", "ann"),
            ("cora", "compliance", "player.note", "ann"),
        ]
        shown = (await client.get("/api/admin/players/ANN")).json()
        assert shown["name"] == "ann" and shown["balance"] == 100_000
        assert [n["text"] for n in shown["notes"]] == ["spoke to ann"]
        assert [h["kind"] for h in shown["history"]] == ["suspension", "suspension"]
        for url, body in CHANGES:
            missing = await client.post(url.replace("ann", "nobody"), json=body, headers=JSON)
            assert _problem(missing) == (404, "no_such_player")
        assert _problem(await client.get("/api/admin/players/cora")) == (404, "no_such_player")
        assert _problem(await client.get("/api/admin/players/olga/rounds")) == (
            404,
            "no_such_player",
        )
        for bad in ("q=" + "a" * 25, "after=%00", "limit=0", "limit=101", "limit=x"):
            refused = await client.get(f"/api/admin/players?{bad}")
            assert _problem(refused) == (400, "bad_request"), bad
        for bad in ("last=0", "last=51", "last=ten"):
            refused = await client.get(f"/api/admin/players/ann/rounds?{bad}")
            assert _problem(refused) == (400, "bad_request"), bad
        for bad in ("from=2026-13-01", "from=2026-11-02&to=2026-11-01"):
            assert _problem(await client.get(f"/api/admin/players/ann?{bad}")) == (
                400,
                "bad_request",
            )
        assert _problem(await client.get("/api/admin/players/" + "a" * 30)) == (
            404,
            "no_such_player",
        )
        found = (await client.get("/api/admin/players?q=AN&limit=1")).json()
        assert [p["name"] for p in found["players"]] == ["ann"] and found["next_after"] == "ann"

    in_process(app, scenario)


_FUZZED = Ledger.connect("sqlite://")
Auth(_FUZZED).register("ann", PASSWORD)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    q=st.text(max_size=30),
    last=st.text(max_size=6) | st.integers(-5, 99).map(str),
    note=st.one_of(st.text(max_size=50), st.integers(), st.none(), st.booleans()),
    days=st.one_of(st.none(), st.booleans(), st.floats(allow_nan=True), st.text(max_size=5)),
)
def test_the_new_inputs_are_answered_or_refused_in_one_line(
    q: str, last: str, note: object, days: object
) -> None:
    """Whatever the search, the count, the note or the days: an answer, or a refusal
    with its code and nothing stored (never an error of another kind)."""
    database = _FUZZED.database
    if q.isprintable():
        found = people.search(database, q, after=q, now=NOW)
        assert all(q.lower() in f.name.lower() for f in found)
    if last.isascii() and last.isdigit() and len(last) <= 2 and 1 <= int(last) <= 50:
        count = whole_number(last, "last", least=1, most=people.MAX_ROUNDS)
        assert len(people.player_rounds(database, "ann", last=count)) == 0
    else:
        with pytest.raises(Refusal):
            whole_number(last, "last", least=1, most=people.MAX_ROUNDS)
    before = len(audit.entries(database, limit=500))
    try:
        asked = JsonBody(NoteRequest).read(json.dumps({"text": note}).encode())
        kept = people.add_note(database, "ann", asked.text, actor="cora", role="compliance",
                               now=NOW)  # fmt: skip
    except (Refusal, people.PeopleError):
        assert len(audit.entries(database, limit=500)) == before
    else:
        assert isinstance(note, str) and kept.text == note.strip()
        assert audit.entries(database, limit=500)[-1].after == {"note": kept.id, "text": kept.text}
    try:
        body = JsonBody(SuspendRequest).read(json.dumps({"days": days}).encode())
    except Refusal:
        assert days is not None and (isinstance(days, bool | str) or not 0 < days <= 36_500)
    else:
        assert body.days == days


# -- the last rounds, replayed; a suspension closes the sockets -------------------------------


FAST = {"bet_seconds": 0.4, "card_seconds": 0.01, "result_seconds": 0.05}


@pytest.fixture
def server(tmp_path: Path, database_url: str) -> Iterator[ServerThread]:
    config = ServerConfig(
        database_url=database_url, tables=("t1=punto-banco",), decks=1, logins_per_minute=6000,
        bets_per_second=1000, bet_burst=1000, **FAST,
    )  # fmt: skip
    with ServerThread(config, log=tmp_path / "server.log") as process:
        yield process


def _stored_shoes(url: str) -> dict[int, list[str]]:
    """Each house shoe dealt again from its stored seeds (`baccara.fair`, not the
    ledger's rounds): its coups' cards, in deal order."""
    engine = sa.create_engine(url.replace("postgresql://", "postgresql+psycopg://", 1))
    try:
        with engine.connect() as conn:
            rows = conn.execute(
                sa.text("SELECT id, server_seed, client_seeds, rules FROM online_shoes")
            ).all()
    finally:
        engine.dispose()
    out = {}
    for shoe_id, seed, seeds, rules in rows:
        seeds = json.loads(seeds) if isinstance(seeds, str) else seeds
        rules = json.loads(rules) if isinstance(rules, str) else rules
        shoe = fair_shoe(seed, list(seeds), shoe_settings_of(rules))
        out[int(shoe_id)] = [[str(c) for c in coup.deal_order()] for coup in deal_shoe(shoe)]
    return out


def test_the_last_rounds_replay_the_cards_the_fair_shoe_dealt_and_a_suspension_closes_the_socket(
    server: ServerThread,
) -> None:
    """A player bets on four rounds; the console's replay of their last rounds gives each
    coup's cards as the stored fair shoe deals them again, with the bets and what came
    back; then compliance suspends the player and the open socket closes."""
    url = server.config.database_url

    async def scenario() -> None:
        ann = Player(server, "annabel")
        await ann.register()
        ledger = Ledger.connect(url)
        try:
            Auth(ledger).create_staff("cora", PASSWORD, Role.COMPLIANCE, actor="cli")
        finally:
            ledger.database.dispose()
        await ann.join("t1")
        played: list[int] = []
        last_round = [0]
        while len(played) < 4:
            message = await ann.expect(lambda m: m["type"] == "round_open")
            if message["closes_at"] > time.time() + 0.2:  # time enough to bet in
                answer = await ann.bet("banker", 1_000 * (len(played) + 1), round=message["round"])
                if answer["type"] == "bet_ack":
                    last_round[0] = message["round"]
                    played.append(int(message["number"]))
        await ann.expect(lambda m: m["type"] == "payout" and m["round"] == last_round[0])
        async with httpx.AsyncClient(base_url=server.url, timeout=30) as staff:
            login = await staff.post("/api/login", json={"name": "cora", "password": PASSWORD})
            assert login.status_code == 200
            replay = (await staff.get("/api/admin/players/annabel/rounds?last=3")).json()
            dealt = _stored_shoes(url)
            rounds = replay["rounds"]
            assert [r["round"] for r in rounds] == played[::-1][:3]
            for one in rounds:
                assert one["kind"] == "house" and one["phase"] == "settled"
                assert one["cards"] == dealt[one["shoe_id"]][one["coup_index"] - 1]
                assert (
                    one["steps"][-1]["words"].endswith("wins.")
                    or "tie" in one["steps"][-1]["words"]
                )
                assert [b["kind"] for b in one["bets"]] == ["banker"]
                assert one["bets"][0]["returned"] is not None
            assert [r["bets"][0]["amount"] for r in rounds] == [4_000, 3_000, 2_000]

            suspended = await staff.post("/api/admin/players/annabel/suspend", json={})
            assert suspended.status_code == 200, suspended.text
            async with asyncio.timeout(5):
                while True:
                    try:
                        await ann.ws.recv()
                    except Exception:  # the socket closed
                        break
            assert ann.ws.close_code is not None

    asyncio.run(scenario())


def test_a_stored_history_reads_six_months_by_its_indexes(book: Ledger) -> None:
    """The reads the console makes go by an index (SQLite's plan names it)."""
    if book.database.dialect.name != "sqlite":
        pytest.skip("SQLite's plan is read here; PostgreSQL's planner chooses by size")
    with book.database.connect() as conn:
        plans = {
            "limit_changes": "SELECT * FROM limit_changes WHERE user_id = 1 AND at >= 0 AND at < 1",
            "table_transactions": "SELECT * FROM table_transactions WHERE created_at >= '2026-01-01'",
            "cashier_moves": "SELECT * FROM cashier_moves WHERE at >= 0 AND at < 1",
            "alerts": "SELECT * FROM alerts WHERE day >= '2026-01-01'",
        }
        for table, query in plans.items():
            plan = " ".join(
                str(row[-1]) for row in conn.execute(sa.text("EXPLAIN QUERY PLAN " + query))
            )
            assert "USING INDEX" in plan or "USING COVERING INDEX" in plan, (table, plan)
