"""The online table end to end: a real server (in the test's process, on loopback), real
HTTP and WebSocket clients.

The ledger's invariants are checked after every test. Rounds are fast here (1.2 s of
betting, a one-deck shoe) so that whole shoes finish and can be verified.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from collections.abc import Coroutine, Iterator
from pathlib import Path
from typing import Any, TypeVar

import httpx
import pytest
from tests.support.harness import Player
from tests.support.inprocess import ServerThread
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from baccara.coup import Coup
from baccara.db.ledger import Ledger, wallet_account
from baccara.fair import verify
from baccara.server.app import ServerConfig
from baccara.server.cluster.hall import TableSpec, table_specs
from baccara.server.realtime.sockets import origin_allowed

T = TypeVar("T")
FAST = {"bet_seconds": 1.2, "card_seconds": 0.02, "result_seconds": 0.1}


def run(coro: Coroutine[Any, Any, T]) -> T:
    return asyncio.run(asyncio.wait_for(coro, 90))


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    folder = tmp_path_factory.mktemp("server")
    config = ServerConfig(
        database_url=f"sqlite:///{folder / 'table.db'}",
        tables=("t1=punto-banco", "t2=ez"),
        decks=1,
        bets_per_second=1000,
        bet_burst=1000,
        logins_per_minute=6000,
        **FAST,
    )
    with ServerThread(config, log=folder / "server.log") as process:
        yield process


@pytest.fixture(autouse=True)
def _invariants(request: pytest.FixtureRequest) -> Iterator[None]:
    yield
    if "server" in request.fixturenames:
        process: ServerThread = request.getfixturevalue("server")
        book = Ledger.connect(process.config.database_url)
        try:
            assert book.check_invariants() == []
        finally:
            book.database.dispose()


def _balance(server: ServerThread, name: str) -> int:
    book = Ledger.connect(server.config.database_url)
    try:
        return book.balance(book.create_account(wallet_account(name)))
    finally:
        book.database.dispose()


def test_accounts_and_cookies(server: ServerThread) -> None:
    with httpx.Client(base_url=server.url) as client:
        reply = client.post("/api/register", json={"name": "cookie_ann", "password": "long enough"})
        assert reply.status_code == 200
        assert reply.json() == {"name": "cookie_ann", "balance": 100_000}
        cookie = reply.headers["set-cookie"].lower()
        assert "httponly" in cookie and "samesite=strict" in cookie
        assert client.get("/api/me").json()["name"] == "cookie_ann"
        again = client.post("/api/register", json={"name": "cookie_ann", "password": "other pass"})
        assert again.status_code == 400 and "taken" in again.json()["message"]
        client.post("/api/logout", json={})  # JSON, as the page posts it
        assert client.get("/api/me").status_code == 401
        bad = client.post("/api/login", json={"name": "cookie_ann", "password": "wrong pass"})
        assert bad.status_code == 401 and bad.json()["error"] == "bad_login"
        for body in (
            {"name": "x", "password": "long enough"},
            {"name": "ok_name", "password": "short"},
        ):
            assert client.post("/api/register", json=body).status_code == 400
        not_json = client.post(
            "/api/login", content=b"not json", headers={"Content-Type": "application/json"}
        )
        assert not_json.status_code == 400
        good = client.post("/api/login", json={"name": "cookie_ann", "password": "long enough"})
        assert good.status_code == 200


def test_credentials_are_typed_json_only(server: ServerThread) -> None:
    """A form or text/plain post (what another site can send) logs nobody in; the body is
    validated by the protocol's `Credentials` model."""
    body = '{"name": "csrf_cat", "password": "long enough"}'
    with httpx.Client(base_url=server.url) as client:
        assert client.post("/api/register", json=json.loads(body)).status_code == 200
        client.post("/api/logout", json={})  # JSON, as the page posts it
        for kind in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data"):
            reply = client.post(
                "/api/login",
                content=body,
                headers={"Content-Type": kind, "Origin": "http://evil.example"},
            )
            assert reply.status_code == 415 and reply.json()["error"] == "bad_request"
            assert "set-cookie" not in reply.headers
        for bad in ({"name": 3, "password": "x" * 9}, {"name": "csrf_cat"}, ["csrf_cat"]):
            reply = client.post("/api/login", json=bad)
            assert reply.status_code == 400 and reply.json()["message"]
        assert client.get("/api/me").status_code == 401
        schema = client.get("/api/protocol").json()
        assert {"client", "server"} <= set(schema) and "oneOf" in json.dumps(schema["client"])


def test_websocket_needs_a_session_and_a_good_origin(server: ServerThread) -> None:
    async def scenario() -> None:
        with pytest.raises(InvalidStatus):
            async with connect(server.ws_url) as ws:
                await ws.recv()
        player = Player(server, "origin_bob")
        await player.register()
        headers = {"Cookie": f"baccara_session={player.token}", "Origin": "http://evil.example"}
        with pytest.raises(InvalidStatus):
            async with connect(server.ws_url, additional_headers=headers) as ws:
                await ws.recv()
        headers["Origin"] = server.url
        async with connect(server.ws_url, additional_headers=headers) as ws:
            await ws.send(json.dumps({"type": "ping"}))
            assert json.loads(await ws.recv())["type"] == "pong"

    run(scenario())
    assert origin_allowed("https://a.example", "b", ("https://a.example",))


def test_two_players_bet_deal_and_get_paid(server: ServerThread) -> None:
    async def scenario() -> None:
        ann, bob = Player(server, "round_ann"), Player(server, "round_bob")
        await ann.register()
        await bob.register()
        await ann.join("t1")
        await bob.join("t1")
        opened = await ann.expect(lambda m: m["type"] == "round_open")
        await bob.expect(lambda m: m["type"] == "round_open" and m["round"] == opened["round"])
        a = await ann.bet("banker", 5_000, round=opened["round"])
        b1 = await bob.bet("player", 3_000)
        b2 = await bob.bet("tie", 500)
        assert a["type"] == b1["type"] == b2["type"] == "bet_ack"
        assert (a["balance"], b2["balance"]) == (95_000, 96_500)
        seen = await ann.expect(
            lambda m: m["type"] == "bets" and m["players"].get("round_bob", {}).get("tie") == 500
        )
        assert seen["players"]["round_bob"] == {"player": 3_000, "tie": 500}
        assert seen["totals"]["banker"] >= 5_000
        result = await ann.expect(
            lambda m: m["type"] == "result" and m["round"] == opened["round"], 20
        )
        cards = [m for m in ann.inbox if m["type"] == "card" and m["round"] == opened["round"]]
        coup = Coup.parse(result["coup"])
        assert [m["card"] for m in cards if m["card"]] == [str(c) for c in coup.deal_order()]
        assert cards[-1]["words"] == coup.announcement()
        paid_a = await ann.expect(lambda m: m["type"] == "payout")
        paid_b = await bob.expect(lambda m: m["type"] == "payout")
        want_a = {"banker": 9_750, "player": 0, "tie": 5_000}[coup.winner.word]
        want_b = {"banker": 0, "player": 6_000, "tie": 3_000 + 4_500}[coup.winner.word]
        assert (paid_a["returned"], paid_b["returned"]) == (want_a, want_b)
        assert paid_a["balance"] == 95_000 + want_a == _balance(server, "round_ann")
        assert paid_b["balance"] == 96_500 + want_b == _balance(server, "round_bob")
        assert coup.winner.value in result["roads"]["results"]
        assert result["roads"]["svg"].startswith("<svg")
        await ann.close()
        await bob.close()

    run(scenario())


BAD_BETS: list[tuple[Any, Any, str]] = [
    ("banker", -100, "bad_amount"),
    ("banker", 0, "bad_amount"),
    ("banker", 1500.5, "bad_amount"),
    ("banker", "1000", "bad_amount"),
    ("banker", 10**40, "bad_amount"),
    ("banker", True, "bad_amount"),
    ("banker", None, "bad_amount"),
    ("dragon", 1000, "unknown_bet"),
    ("dragon_7", 1000, "unknown_bet"),  # an EZ side bet, not at a Punto Banco table
    ("banker", 999, "under_limit"),
    ("banker", 500_001, "over_limit"),
    ("tie", 60_000, "over_limit"),
]


def test_bad_input_gets_a_clear_error_and_changes_nothing(server: ServerThread) -> None:
    async def scenario() -> None:
        eve = Player(server, "bad_eve")
        await eve.register()
        await eve.join("t1")
        await eve.expect(lambda m: m["type"] == "round_open")
        for kind, amount, code in BAD_BETS:
            answer = await eve.bet(kind, amount)
            assert (answer["type"], answer["code"]) == ("error", code), (kind, amount, answer)
            assert answer["message"]
        for raw in ('{"type":"bet","bet_id":"n","kind":"banker","amount":NaN}',):
            await eve.send(raw)
            answer = await eve.expect(lambda m: m["type"] == "error")
            assert answer["code"] == "bad_amount"
        for raw, code in (
            ("not json", "bad_message"),
            ("[1, 2]", "bad_message"),
            ('{"type": "fly"}', "bad_message"),
            ("x" * 5000, "bad_message"),
        ):
            await eve.send(raw)
            assert (await eve.expect(lambda m: m["type"] == "error"))["code"] == code
        assert (await eve.bet("banker", 99_000))["type"] == "bet_ack"
        over = await eve.bet("player", 2_000)
        assert over["code"] == "insufficient_funds"
        ok = await eve.bet("tie", 100, bet_id="eve-fixed")
        assert ok["type"] == "bet_ack"
        again = await eve.bet("tie", 100, bet_id="eve-fixed")
        assert again["type"] == "bet_ack" and again["duplicate"] is True
        changed = await eve.bet("tie", 200, bet_id="eve-fixed")
        assert changed["code"] == "bet_id_reused"
        await eve.expect(lambda m: m["type"] == "no_more_bets")
        late = await eve.bet("banker", 1_000)
        assert late["code"] == "betting_closed"
        resent = await eve.bet("tie", 100, bet_id="eve-fixed")
        assert resent["type"] == "bet_ack" and resent["duplicate"] is True
        await eve.expect(lambda m: m["type"] == "payout", 20)
        await eve.close()

    run(scenario())
    book = Ledger.connect(server.config.database_url)
    try:
        account = book.create_account(wallet_account("bad_eve"))
        bets = book.find_bet(account, "eve-fixed")
        assert bets is not None and bets.amount == 100
    finally:
        book.database.dispose()


def test_reconnect_gets_snapshot_and_missed_events(server: ServerThread) -> None:
    async def scenario() -> None:
        kim = Player(server, "recon_kim")
        await kim.register()
        await kim.join("t2")
        opened = await kim.expect(lambda m: m["type"] == "round_open")
        ack = await kim.bet("player", 2_000, bet_id="kim-1")
        assert ack["type"] == "bet_ack"
        last_seen = kim.seq
        await kim.close()
        await asyncio.sleep(0.3)
        kim.inbox.clear()
        snap = await kim.join("t2", since=last_seen)
        assert snap["user"] == "recon_kim" and snap["seat"] is not None
        assert snap["variant"] == "ez" and "dragon_7" in snap["limits"]
        if snap["round"] == opened["round"]:
            assert [b["bet_id"] for b in snap["my_bets"]] == ["kim-1"]
        if snap["seq"] > last_seen:  # the missed events follow the snapshot
            await kim.expect(lambda m: m.get("missed") and m["seq"] == snap["seq"])
        missed = [m for m in kim.inbox if m.get("missed")]
        assert all(m["seq"] > last_seen for m in missed)
        assert [m["seq"] for m in missed] == list(range(last_seen + 1, snap["seq"] + 1))
        assert snap["balance"] == _balance(server, "recon_kim")
        await kim.close()

    run(scenario())


def test_shoe_ends_with_a_verifiable_record(server: ServerThread) -> None:
    async def scenario() -> dict[str, Any]:
        sam = Player(server, "seed_sam")
        await sam.register()
        snap = await sam.join("t1")
        await sam.send({"type": "seed", "seed": "sam's seed"})
        answer = await sam.expect(lambda m: m["type"] in ("seed_ack", "error"))
        end = await sam.expect(lambda m: m["type"] == "shoe_end", 60)
        await sam.close()
        return {"snap": snap, "seed": answer, "end": end}

    got = run(scenario())
    record = got["end"]["record"]
    result = verify(record)
    assert result.ok, result.problems
    assert result.coups_checked == result.coups_in_shoe > 3
    shoes = httpx.get(f"{server.url}/api/tables/t1/shoes").json()
    assert record in shoes
    assert all(verify(shoe).ok for shoe in shoes)
    lobby = httpx.get(f"{server.url}/api/tables").json()
    assert {t["id"] for t in lobby} == {"t1", "t2"}
    assert not any(t["squeeze"] for t in lobby)  # tables squeeze only when asked to
    assert httpx.get(f"{server.url}/api/tables/t1/roads.svg").text.startswith("<svg")
    assert httpx.get(f"{server.url}/api/tables/nope").status_code == 404


JAVASCRIPT = ("text/javascript", "application/javascript")


def test_page_is_served(server: ServerThread) -> None:
    page = httpx.get(server.url + "/")
    assert page.status_code == 200 and "<title>" in page.text
    for name in ("table.css", "app.js", "protocol.js", "reducer.js", "render.js", "squeeze.js"):
        reply = httpx.get(f"{server.url}/static/{name}")
        assert reply.status_code == 200
        if name.endswith(".js"):  # browsers run ES modules only with a JavaScript type
            assert reply.headers["content-type"].split(";")[0] in JAVASCRIPT
    # the icon a browser asks for (it got a 404: no favicon), linked from every page
    for path in ("/favicon.ico", "/static/favicon.svg"):
        icon = httpx.get(server.url + path)
        assert icon.status_code == 200 and icon.headers["content-type"] == "image/svg+xml"
        assert icon.text.startswith("<svg")
    for path in ("/", "/learn"):
        assert '<link rel="icon" href="/static/favicon.svg"' in httpx.get(server.url + path).text


def test_postgres_round(database_url: str, tmp_path: Path) -> None:
    """The same server on PostgreSQL (and on SQLite): a bet, a deal, a payout."""
    config = ServerConfig(database_url=database_url, tables=("pg1=super6",), decks=1, **FAST)

    async def scenario(process: ServerThread) -> tuple[dict[str, Any], int]:
        pat = Player(process, "pg_pat")
        await pat.register()
        await pat.join("pg1")
        await pat.expect(lambda m: m["type"] == "round_open")
        ack = await pat.bet("banker", 10_000)
        assert ack["type"] == "bet_ack"
        paid = await pat.expect(lambda m: m["type"] == "payout", 20)
        await pat.close()
        return paid, ack["balance"]

    with ServerThread(config, log=tmp_path / "server.log") as process:
        paid, after_bet = run(scenario(process))
    assert paid["balance"] == after_bet + paid["returned"]
    assert paid["returned"] in (0, 10_000, 15_000, 20_000)
    book = Ledger.connect(database_url)
    try:
        assert book.check_invariants() == []
    finally:
        book.database.dispose()


def testtable_specs() -> None:
    assert table_specs(("s=ez:squeeze", "mini"), squeeze=False) == [
        TableSpec("s", "ez", True),
        TableSpec("t2", "mini", False),
    ]
    assert table_specs(("ez",), squeeze=True) == [TableSpec("t1", "ez", True)]
    with pytest.raises(ValueError, match="bad table option 'peek'"):
        table_specs(("t1=ez:peek",))
    with pytest.raises(ValueError, match="unknown variant 'pai-gow'"):
        table_specs(("t1=pai-gow",))


@pytest.mark.parametrize("tables", ["pai-gow", "t1=ez:peek"])
def test_serve_refuses_bad_tables_in_one_line(tables: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "baccara", "serve", "--tables", tables, "--port", "1"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("baccara: error:")


def test_rate_limits_refuse_and_change_nothing(tmp_path: Path) -> None:
    config = ServerConfig(
        database_url=f"sqlite:///{tmp_path / 'limits.db'}",
        tables=("r1=punto-banco",),
        bets_per_second=0.5,
        bet_burst=3,
        bet_seconds=5.0,
        card_seconds=0.02,
        result_seconds=0.1,
    )

    async def scenario(server: ServerThread) -> None:
        rex = Player(server, "rate_rex")
        start = await rex.register()
        await rex.join("r1")
        await rex.expect(lambda m: m["type"] == "round_open")
        ids = [f"rex-{n}" for n in range(8)]
        for bet_id in ids:  # all at once, without waiting for the answers
            await rex.send({"type": "bet", "bet_id": bet_id, "kind": "banker", "amount": 1_000})
        answers = [
            await rex.expect(lambda m, b=b: m.get("bet_id") == b and m["type"] != "bets")
            for b in ids
        ]
        acked = [a for a in answers if a["type"] == "bet_ack"]
        limited = [a for a in answers if a.get("code") == "rate_limited"]
        assert len(acked) in (3, 4) and len(acked) + len(limited) == 8
        assert _balance(server, "rate_rex") == start - 1_000 * len(acked)
        for _ in range(100):
            await rex.send({"type": "ping"})
        replies = [
            await rex.expect(lambda m: m["type"] == "pong" or m.get("code") == "rate_limited")
            for _ in range(100)
        ]
        pongs = sum(m["type"] == "pong" for m in replies)
        assert 40 <= pongs <= 70 and all(m["message"] for m in replies if m["type"] == "error")
        await rex.close()

    with ServerThread(config, log=tmp_path / "server.log") as server:
        run(scenario(server))
        book = Ledger.connect(config.database_url)
        try:
            assert book.check_invariants() == []
        finally:
            book.database.dispose()


def test_every_tab_of_a_player_sees_its_bets_and_balance(server: ServerThread) -> None:
    """Two tabs of one account at one table: a bet placed in one is acknowledged in
    both, with the balance after it (a repeat of it in neither)."""

    async def scenario() -> tuple[dict[str, Any], dict[str, Any], list[dict[str, Any]]]:
        first, second = Player(server, "tabs_ann"), Player(server, "tabs_ann")
        await first.register()
        second.token = first.token
        await first.join("t1")
        await second.join("t1")
        await first.expect(lambda m: m["type"] == "round_open", 20)
        ack = await first.bet("banker", 1_500, bet_id="tab-one")
        seen = await second.expect(lambda m: m["type"] == "bet_ack", 10)
        again = await first.bet("banker", 1_500, bet_id="tab-one")  # the page resends it
        assert again["duplicate"] is True
        await second.expect(lambda m: m["type"] == "no_more_bets", 10)
        repeats = [m for m in second.inbox if m["type"] == "bet_ack"]
        await first.close()
        await second.close()
        return ack, seen, repeats

    ack, seen, repeats = run(scenario())
    assert ack["type"] == "bet_ack" and seen == ack
    assert seen["balance"] == 100_000 - 1_500
    assert len(repeats) == 1  # the first tab's repeat is not echoed
