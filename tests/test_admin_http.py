"""The console's way in over HTTP, on SQLite and PostgreSQL: staff log in at
``/api/login`` as players do and ``/api/me`` says their role; ``GET /api/admin/audit``
is refused to anonymous (401), a player (403) and another site (403), read by each
role a page at a time; a staff session plays nothing (a player's route answers 403,
the table's socket closes)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import httpx
import pytest
from fastapi import Depends, FastAPI
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.support.inprocess import ServerThread
from tests.test_hardening_http import in_process
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from baccara.db import table_list
from baccara.db.audit import MAX_PAGE, verify
from baccara.db.auth import Auth
from baccara.db.books import wallet_account
from baccara.db.database import database_at
from baccara.db.ledger import Ledger
from baccara.db.migrate import upgrade
from baccara.db.staff import Role, Staff
from baccara.db.table_list import Actor, TableListError, TableState
from baccara.money import MoneyError, parse_money
from baccara.server.app import ServerConfig, create_app
from baccara.server.http.admin import whole_number
from baccara.server.http.depends import JsonBody, require_role
from baccara.server.infra.edge import Refusal
from baccara.server.state import SESSION_COOKIE
from baccara.server.wire.admin import StaffAccount, TableSetupRequest

JSON = {"Content-Type": "application/json"}
EVIL = "http://evil.example"
PASSWORD = "long password"
FAST = {"bet_seconds": 0.3, "card_seconds": 0.01, "result_seconds": 0.05}
STAFF = {"olga": Role.OPERATOR, "cora": Role.COMPLIANCE, "ivan": Role.AUDITOR}


@pytest.fixture
def app(database_url: str) -> FastAPI:
    config = ServerConfig(
        database_url=database_url, tables=("t1=punto-banco",), logins_per_minute=6000, **FAST
    )
    made = create_app(config)
    auth = made.state.baccara.auth
    for name, role in STAFF.items():
        auth.create_staff(name, PASSWORD, role, actor="cli")
    return made


Client = httpx.AsyncClient


async def _login(client: Client, name: str) -> dict[str, Any]:
    client.cookies.clear()
    reply = await client.post("/api/login", json={"name": name, "password": PASSWORD}, headers=JSON)
    assert reply.status_code == 200, reply.text
    answer: dict[str, Any] = reply.json()
    return answer


def _problem(reply: httpx.Response) -> tuple[int, str]:
    return reply.status_code, reply.json()["error"]


def test_the_audit_log_is_for_staff_only_and_every_role_reads_it(app: FastAPI) -> None:
    async def scenario(client: Client) -> None:
        assert _problem(await client.get("/api/admin/audit")) == (401, "not_logged_in")
        await client.post("/api/register", json={"name": "ann", "password": PASSWORD}, headers=JSON)
        assert _problem(await client.get("/api/admin/audit")) == (403, "staff_only")
        for name, role in STAFF.items():
            assert await _login(client, name) == {"name": name, "role": role.value}
            assert (await client.get("/api/me")).json() == {"name": name, "role": role.value}
            page = await client.get("/api/admin/audit")
            assert page.status_code == 200, page.text
            found = page.json()
            assert [e["target"] for e in found["entries"]] == list(STAFF)
            assert found["entries"][0]["actor"] == "cli" and found["entries"][0]["role"] is None
            assert (found["after"], found["limit"], found["next_after"]) == (0, 100, None)
            foreign = await client.get("/api/admin/audit", headers={"Origin": EVIL})
            assert _problem(foreign) == (403, "bad_origin")
            fetched = await client.get("/api/admin/audit", headers={"Sec-Fetch-Site": "cross-site"})
            assert _problem(fetched) == (403, "bad_origin")
        client.cookies.clear()  # another site is refused before the login is looked at
        foreign = await client.get("/api/admin/audit", headers={"Origin": EVIL})
        assert _problem(foreign) == (403, "bad_origin")

    in_process(app, scenario)


def test_the_audit_log_pages_within_bounds(app: FastAPI) -> None:
    async def scenario(client: Client) -> None:
        await _login(client, "ivan")
        first = (await client.get("/api/admin/audit?limit=2")).json()
        assert [e["id"] for e in first["entries"]] == [1, 2] and first["next_after"] == 2
        rest = (await client.get(f"/api/admin/audit?after={first['next_after']}&limit=2")).json()
        assert [e["id"] for e in rest["entries"]] == [3] and rest["next_after"] is None
        assert rest["entries"][0]["prev_hash"] == first["entries"][1]["hash"]
        assert (await client.get(f"/api/admin/audit?limit={MAX_PAGE}")).status_code == 200
        for query in (
            "limit=0",
            f"limit={MAX_PAGE + 1}",
            "limit=-1",
            "limit=ten",
            "after=-1",
            "after=1.5",
            "after=" + "9" * 30,
            "after=%EF%BC%91",  # a full-width digit: a digit to str.isdigit, not to us
        ):
            reply = await client.get(f"/api/admin/audit?{query}")
            assert _problem(reply) == (400, "bad_request"), query
        assert (await client.get("/api/admin/audit?after=99")).json()["entries"] == []

    in_process(app, scenario)


def test_a_staff_session_plays_nothing(app: FastAPI) -> None:
    async def scenario(client: Client) -> None:
        await _login(client, "olga")
        for url in ("/api/me/limits", "/api/me/records"):
            assert _problem(await client.get(url)) == (403, "staff_account")
        refused = await client.post("/api/me/exclusion", json={"days": 1}, headers=JSON)
        assert _problem(refused) == (403, "staff_account")
        assert (await client.post("/api/logout", json={}, headers=JSON)).status_code == 200
        assert _problem(await client.get("/api/me")) == (401, "not_logged_in")
        assert _problem(await client.get("/api/admin/audit")) == (401, "not_logged_in")

    in_process(app, scenario)


def test_a_staff_session_opens_no_table_socket(tmp_path: Path) -> None:
    """The table's socket (where a player sits, bets and buys in) is closed to a staff
    session before it opens, as to no session at all."""
    config = ServerConfig(
        database_url=f"sqlite:///{tmp_path / 'staff.db'}", tables=("t1=punto-banco",), **FAST
    )
    with ServerThread(config, log=tmp_path / "server.log") as server:

        async def scenario() -> None:
            async with httpx.AsyncClient(base_url=server.url) as client:
                await asyncio.to_thread(_staff, config.database_url, "olga", Role.OPERATOR)
                await _login(client, "olga")
                token = client.cookies[SESSION_COOKIE]
            headers = {"Cookie": f"{SESSION_COOKIE}={token}", "Origin": server.url}
            with pytest.raises(InvalidStatus):
                async with connect(server.ws_url, additional_headers=headers) as ws:
                    await ws.recv()

        asyncio.run(asyncio.wait_for(scenario(), 60))


def _staff(url: str, name: str, role: Role) -> None:
    ledger = Ledger.connect(url)
    try:
        Auth(ledger).create_staff(name, PASSWORD, role, actor="cli")
    finally:
        ledger.database.dispose()


Operator = Annotated[Staff, Depends(require_role(Role.OPERATOR))]


def test_a_route_for_one_role_refuses_the_others(app: FastAPI) -> None:
    """`require_role` on a route: the role it names passes, the other roles get 403
    ``wrong_role``, a player 403 ``staff_only``, nobody 401."""

    @app.get("/api/admin/for-operators")
    async def for_operators(staff: Operator) -> StaffAccount:
        return StaffAccount(name=staff.name, role=staff.role)

    async def scenario(client: Client) -> None:
        url = "/api/admin/for-operators"
        assert _problem(await client.get(url)) == (401, "not_logged_in")
        await client.post("/api/register", json={"name": "ann", "password": PASSWORD}, headers=JSON)
        assert _problem(await client.get(url)) == (403, "staff_only")
        await _login(client, "olga")
        assert (await client.get(url)).json() == {"name": "olga", "role": "operator"}
        assert _problem(await client.get(url, headers={"Origin": EVIL})) == (403, "bad_origin")
        for name in ("cora", "ivan"):
            await _login(client, name)
            refused = await client.get(url)
            assert _problem(refused) == (403, "wrong_role")
            assert refused.json()["message"] == "for the operator role only"

    in_process(app, scenario)
    with pytest.raises(ValueError, match="at least one role"):
        require_role()


@given(text=st.text(max_size=40) | st.from_regex(r"-?0*[0-9]{1,4}", fullmatch=True))
def test_a_paging_number_is_whole_and_bounded_or_refused(text: str) -> None:
    good = text.isascii() and text.isdigit() and len(text) <= 3 and 1 <= int(text) <= MAX_PAGE
    if good:
        assert whole_number(text, "limit", least=1, most=MAX_PAGE) == int(text)
    else:
        with pytest.raises(Refusal) as refused:
            whole_number(text, "limit", least=1, most=MAX_PAGE)
        assert (refused.value.status, refused.value.code) == (400, "bad_request")


# -- the tables as data (issue 34, point 3) ---------------------------------------------------

TABLE_ROUTES: list[tuple[str, str, dict[str, Any] | None]] = [
    ("POST", "/api/admin/tables", {"id": "n1", "variant": "ez"}),
    ("PATCH", "/api/admin/tables/t1", {"minimum": "20.00", "bet_seconds": 5}),
    ("POST", "/api/admin/tables/t1/pause", {}),
    ("POST", "/api/admin/tables/t1/resume", {}),
    ("POST", "/api/admin/play/stop", {"game": "chemin-de-fer"}),
    ("POST", "/api/admin/play/resume", {"game": "chemin-de-fer"}),
    ("POST", "/api/admin/tables/n1/close", {}),
]
"""Every change to the tables, in an order each succeeds in (the operator's)."""


async def _call(
    client: Client, method: str, url: str, body: dict[str, Any] | None, **headers: str
) -> httpx.Response:
    return await client.request(method, url, json=body, headers={**JSON, **headers})


async def until(test: Callable[[], bool], seconds: float = 20.0) -> None:
    """Wait for ``test`` to hold (the hall applies a change as its signal comes)."""
    async with asyncio.timeout(seconds):
        while not test():
            await asyncio.sleep(0.01)


def test_every_table_route_as_anonymous_a_player_each_role_and_another_site(app: FastAPI) -> None:
    """Anonymous 401, a player 403, the compliance and auditor roles 403 on a change and
    200 on the list, another site 403 and a body that is not JSON 415, before anything
    changes; the operator's changes each go through, audited."""

    async def scenario(client: Client) -> None:
        before = (await client.get("/api/admin/audit")).status_code
        assert before == 401
        for method, url, body in TABLE_ROUTES:
            assert _problem(await _call(client, method, url, body)) == (401, "not_logged_in")
            foreign = await _call(client, method, url, body, Origin=EVIL)
            assert _problem(foreign) == (403, "bad_origin"), url
        assert _problem(await client.get("/api/admin/tables")) == (401, "not_logged_in")
        await client.post("/api/register", json={"name": "ann", "password": PASSWORD}, headers=JSON)
        for method, url, body in TABLE_ROUTES:
            assert _problem(await _call(client, method, url, body)) == (403, "staff_only"), url
        assert _problem(await client.get("/api/admin/tables")) == (403, "staff_only")
        for name in ("cora", "ivan"):
            await _login(client, name)
            listed = await client.get("/api/admin/tables")
            assert listed.status_code == 200 and listed.json()["tables"][0]["id"] == "t1"
            for method, url, body in TABLE_ROUTES:
                assert _problem(await _call(client, method, url, body)) == (403, "wrong_role")
        await _login(client, "olga")
        for method, url, body in TABLE_ROUTES:
            foreign = await _call(client, method, url, body, Origin=EVIL)
            assert _problem(foreign) == (403, "bad_origin"), url
            text = await client.request(
                method, url, content=b"{}", headers={"Content-Type": "text/plain"}
            )
            assert _problem(text) == (415, "bad_request"), url
        entries = (await client.get("/api/admin/audit")).json()["entries"]
        assert len(entries) == len(STAFF)  # nothing refused was written
        for method, url, body in TABLE_ROUTES:
            reply = await _call(client, method, url, body)
            assert reply.status_code in (200, 201), (url, reply.text)
        actions = [e["action"] for e in (await client.get("/api/admin/audit")).json()["entries"]]
        assert actions[len(STAFF) :] == [
            "table.open",
            "table.setup",
            "table.pause",
            "table.resume",
            "play.stop",
            "play.resume",
            "table.close",
        ]

    in_process(app, scenario)


def test_an_operator_runs_the_tables_at_run_time(app: FastAPI) -> None:
    """Opened, a table runs; paused, its runner holds (its players told why); its limits
    and timings reach the runner; closed, it stops; each change audited with the row
    before and after; a stop of play holds every table, or a game's; a player's logins
    stopped is the house's suspension."""
    hall = app.state.baccara.hall

    async def scenario(client: Client) -> None:
        await client.post("/api/register", json={"name": "ann", "password": PASSWORD}, headers=JSON)
        await _login(client, "olga")
        listed = (await client.get("/api/admin/tables")).json()
        assert [(t["id"], t["state"], t["held"]) for t in listed["tables"]] == [
            ("t1", "open", None)
        ]
        opened = await _call(client, "POST", "/api/admin/tables", {"id": "c1", "variant": "chemmy"})
        assert opened.status_code == 201 and opened.json()["game"] == "chemin-de-fer", opened.text
        await until(lambda: hall.runner("c1") is not None)
        again = await _call(client, "POST", "/api/admin/tables", {"id": "c1", "variant": "ez"})
        assert _problem(again) == (409, "table_exists")
        for body in (
            {"id": "bad id", "variant": "ez"},
            {"id": "n2", "variant": "pai-gow"},
            {"id": "n2", "variant": "banque", "squeeze": True},
            {"id": "n2"},
            {"id": "n2", "variant": "ez", "extra": 1},
        ):
            assert _problem(await _call(client, "POST", "/api/admin/tables", body))[0] == 400

        paused = await _call(client, "POST", "/api/admin/tables/t1/pause", {})
        assert paused.json()["held"] == "paused by the house"
        await until(lambda: hall.runner("t1").house_paused == "paused by the house")
        assert _problem(await _call(client, "POST", "/api/admin/tables/zz/pause", {})) == (
            404,
            "no_such_table",
        )
        await _call(client, "POST", "/api/admin/tables/t1/resume", {})
        await until(lambda: hall.runner("t1").house_paused is None)

        setup = await _call(
            client, "PATCH", "/api/admin/tables/t1", {"minimum": "20.00", "bet_seconds": 5}
        )
        assert (setup.json()["minimum"], setup.json()["bet_seconds"]) == (2_000, 5.0)
        await until(lambda: hall.runner("t1").setup.minimum == 2_000)
        assert hall.runner("t1").setup.bet_seconds == 5.0
        cleared = await _call(client, "PATCH", "/api/admin/tables/t1", {"minimum": None})
        assert (cleared.json()["minimum"], cleared.json()["bet_seconds"]) == (None, 5.0)
        for body in (
            {"minimum": "-1"},
            {"minimum": "ten"},
            {"minimum": 1000},
            {"bet_seconds": 0},
            {"bet_seconds": True},
            {"bet_seconds": 4000},
            {"minimum": "50.00", "maximum": "10.00"},
            {"minimum": "9000.00"},  # over the configuration's maximum, 5,000.00
            {"seats": 3},
        ):
            reply = await _call(client, "PATCH", "/api/admin/tables/t1", body)
            assert _problem(reply) == (400, "bad_request") or reply.status_code == 400, body

        stop = await _call(client, "POST", "/api/admin/play/stop", {"game": "chemin-de-fer"})
        assert stop.json() == {"stopped": ["chemin-de-fer"]}
        await until(lambda: hall.runner("c1").house_paused == "Chemin de Fer stopped by the house")
        assert hall.runner("t1").house_paused is None
        await _call(client, "POST", "/api/admin/play/stop", {})
        await until(lambda: hall.runner("t1").house_paused == "play stopped by the house")
        bad = await _call(client, "POST", "/api/admin/play/stop", {"game": "poker"})
        assert _problem(bad) == (400, "bad_table")
        for game in ("all", "chemin-de-fer"):
            await _call(client, "POST", "/api/admin/play/resume", {"game": game})
        await until(lambda: hall.runner("t1").house_paused is None)
        await until(lambda: hall.runner("c1").house_paused is None)

        closed = await _call(client, "POST", "/api/admin/tables/c1/close", {})
        assert closed.json()["state"] == "closed"
        await until(lambda: hall.runner("c1") is None)
        assert _problem(await _call(client, "POST", "/api/admin/tables/c1/pause", {})) == (
            409,
            "table_closed",
        )

        stopped = await _call(client, "POST", "/api/admin/players/ann/logins", {"stopped": True})
        assert stopped.json() == {"name": "ann", "stopped": True}
        staff = await _call(client, "POST", "/api/admin/players/cora/logins", {"stopped": True})
        assert _problem(staff) == (404, "no_such_player")
        client.cookies.clear()
        login = await client.post(
            "/api/login", json={"name": "ann", "password": PASSWORD}, headers=JSON
        )
        assert _problem(login) == (403, "suspended")
        await _login(client, "olga")  # letting a player in again is compliance's
        again = await _call(client, "POST", "/api/admin/players/ann/logins", {"stopped": False})
        assert _problem(again) == (403, "wrong_role")
        await _login(client, "cora")
        again = await _call(client, "POST", "/api/admin/players/ann/logins", {"stopped": False})
        assert again.json() == {"name": "ann", "stopped": False}
        await _login(client, "ann")

        await _login(client, "ivan")
        entries = (await client.get("/api/admin/audit?limit=500")).json()["entries"]
        pause = next(e for e in entries if e["action"] == "table.pause")
        assert (pause["actor"], pause["role"], pause["target"]) == ("olga", "operator", "t1")
        assert (pause["before"]["state"], pause["after"]["state"]) == ("open", "paused")
        setups = [e for e in entries if e["action"] == "table.setup"]
        assert (setups[0]["before"]["minimum"], setups[0]["after"]["minimum"]) == (None, 2_000)
        assert [e["action"] for e in entries].count("table.open") == 1  # the refused: none

    in_process(app, scenario)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    body=st.dictionaries(
        st.sampled_from(
            ["minimum", "maximum", "bet_seconds", "decision_seconds", "result_seconds", "x"]
        ),
        st.none()
        | st.booleans()
        | st.integers(-10, 10**13)
        | st.floats(allow_nan=True, allow_infinity=True)
        | st.text(max_size=12)
        | st.from_regex(r"-?[0-9]{1,9}(\.[0-9]{1,3})?", fullmatch=True),
        max_size=4,
    )
)
def test_a_table_setup_is_stored_as_asked_or_refused_whole(body: dict[str, Any]) -> None:
    """Any JSON body for ``PATCH /api/admin/tables/{id}``: read and stored as asked (read
    back the same), or refused with a 400 and nothing stored."""
    database = database_at("sqlite://")
    upgrade(database)
    table_list.seed(database, [("t1", "punto-banco", False)], now=0.0)
    olga = Actor(name="olga", role="operator", now=1.0)
    text = json.dumps(body).encode()
    try:
        asked = JsonBody(TableSetupRequest).read(text)
        changes: dict[str, int | float | None] = {}
        for name in asked.model_fields_set:
            value = getattr(asked, name)
            changes[name] = (
                (None if value is None else parse_money(value, positive=True))
                if name in table_list.LIMITS
                else value
            )
        row = table_list.set_setup(database, olga, "t1", changes)
    except (Refusal, MoneyError, TableListError):
        (stored,) = table_list.table_rows(database)
        assert stored.setup() == (None,) * len(table_list.SETUP) and verify(database).count == 0
        return
    (stored,) = table_list.table_rows(database)
    assert stored == row and verify(database).count == 1
    for name, value in changes.items():
        assert getattr(stored, name) == value


@settings(max_examples=60, deadline=None)
@given(
    table=st.text(max_size=45), variant=st.sampled_from(["ez", "chemmy", "banque", "pai-gow", ""])
)
def test_a_new_table_is_opened_as_named_or_refused_whole(table: str, variant: str) -> None:
    database = database_at("sqlite://")
    upgrade(database)
    olga = Actor(name="olga", role="operator", now=1.0)
    try:
        row = table_list.add_table(database, olga, table=table, variant=variant, squeeze=False)
    except TableListError:
        assert table_list.table_rows(database) == [] and verify(database).count == 0
        return
    assert table_list.table_rows(database) == [row] and row.id == table
    assert verify(database).whole and verify(database).count == 1


def test_tables_seeds_the_list_only_on_a_first_start(tmp_path: Path) -> None:
    """A second start with other ``--tables`` runs the stored list: the first start's."""
    url = f"sqlite:///{tmp_path / 'seeded.db'}"
    seen: list[list[str]] = []

    async def lobby(client: Client) -> None:
        seen.append(sorted(line["id"] for line in (await client.get("/api/tables")).json()))

    for tables in (("t1=punto-banco", "c1=chemin-de-fer"), ("x9=ez",)):
        in_process(create_app(ServerConfig(database_url=url, tables=tables, **FAST)), lobby)
    assert seen == [["c1", "t1"], ["c1", "t1"]]


def test_a_table_closed_and_opened_again_with_another_game_runs_that_game(app: FastAPI) -> None:
    """Both changes read at once (one signal missed, say): the runner of the old game
    stops after its round and the new game's runs."""
    hall = app.state.baccara.hall
    database = app.state.baccara.ledger.database
    olga = Actor(name="olga", role="operator", now=1.0)

    def close_and_open() -> None:
        table_list.set_state(database, olga, "t1", TableState.CLOSED)
        table_list.add_table(database, olga, table="t1", variant="ez", squeeze=False)

    async def scenario(client: Client) -> None:
        old = hall.runner("t1")
        assert old is not None and old.variant.name == "punto-banco"
        await asyncio.to_thread(close_and_open)
        await hall.apply()
        assert old.closing
        await until(lambda: getattr(hall.runner("t1"), "variant", old.variant).name == "ez")

    in_process(app, scenario)


def test_a_table_closed_while_it_held_a_bet_is_finished_at_the_next_start(tmp_path: Path) -> None:
    """The process that ran a table died while closing it, a round open with a bet in
    it: the next start runs the table only to finish it (the round voided, the bet
    refunded), then lets it go; the table stays closed."""
    url = f"sqlite:///{tmp_path / 'closing.db'}"
    ledger = Ledger.connect(url)
    upgrade(ledger.database)
    table_list.seed(ledger.database, [("t1", "punto-banco", False)], now=0.0)
    wallet = ledger.create_account(wallet_account("ann"))
    ledger.deposit(wallet, 10_000, ref="test")
    round_id = ledger.open_round(table="t1", number=1, shoe_id=None, coup_index=0)
    placed = ledger.place_bet(
        account=wallet, round_id=round_id, bet_id="b1", kind="banker", amount=2_500
    )
    assert placed.balance == 7_500
    olga = Actor(name="olga", role="operator", now=1.0)
    table_list.set_state(ledger.database, olga, "t1", TableState.CLOSED)
    assert table_list.still_held(ledger.database, ["t1"]) == {"t1"}
    app = create_app(ServerConfig(database_url=url, tables=("t1=punto-banco",), **FAST))
    hall = app.state.baccara.hall

    async def scenario(client: Client) -> None:
        await until(lambda: not ledger.unfinished_rounds("t1") and hall.runner("t1") is None)
        lobby = (await client.get("/api/tables")).json()
        assert [line["id"] for line in lobby] == []

    in_process(app, scenario)
    assert ledger.balance(wallet) == 10_000
    assert table_list.still_held(ledger.database, ["t1"]) == set()
    assert [row.state for row in table_list.table_rows(ledger.database)] == [TableState.CLOSED]
    assert ledger.check_invariants() == []


def test_the_audit_chain_is_checked_by_every_role_and_a_broken_entry_named(
    tmp_path: Path,
) -> None:
    """``GET /api/admin/audit/verify`` walks the chain as ``baccara admin audit verify``
    does: it holds after the staff's actions, and an entry changed behind the database's
    back (its triggers dropped, as an attacker with the file would) is named."""
    url = f"sqlite:///{tmp_path / 'audit.db'}"
    app = create_app(ServerConfig(database_url=url, tables=("t1=punto-banco",), **FAST))
    for name, role in STAFF.items():
        app.state.baccara.auth.create_staff(name, PASSWORD, role, actor="cli")
    database = app.state.baccara.ledger.database
    seen: list[dict[str, Any]] = []

    async def scenario(client: Client) -> None:
        assert _problem(await client.get("/api/admin/audit/verify")) == (401, "not_logged_in")
        await _login(client, "olga")
        await _call(client, "POST", "/api/admin/tables/t1/pause", {})
        for name in STAFF:
            await _login(client, name)
            seen.append((await client.get("/api/admin/audit/verify")).json())
        with database.begin() as conn:
            conn.exec_driver_sql("DROP TRIGGER audit_log_no_update")
            conn.exec_driver_sql("UPDATE audit_log SET target = 't9' WHERE id = 4")
        seen.append((await client.get("/api/admin/audit/verify")).json())

    in_process(app, scenario)
    whole = {"count": 4, "whole": True, "broken": None, "reason": None}
    assert seen[:3] == [whole] * 3  # three staff made, one pause
    assert seen[3]["whole"] is False and seen[3]["broken"] == 4 == verify(database).broken
