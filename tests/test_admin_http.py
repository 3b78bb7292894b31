"""The console's way in over HTTP, on SQLite and PostgreSQL: staff log in at
``/api/login`` as players do and ``/api/me`` says their role; ``GET /api/admin/audit``
is refused to anonymous (401), a player (403) and another site (403), read by each
role a page at a time; a staff session plays nothing (a player's route answers 403,
the table's socket closes)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Annotated, Any

import httpx
import pytest
from fastapi import Depends, FastAPI
from hypothesis import given
from hypothesis import strategies as st
from tests.support.inprocess import ServerThread
from tests.test_hardening_http import in_process
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from baccara.db.audit import MAX_PAGE
from baccara.db.auth import Auth
from baccara.db.ledger import Ledger
from baccara.db.staff import Role, Staff
from baccara.server.app import ServerConfig, create_app
from baccara.server.http.admin import whole_number
from baccara.server.http.depends import require_role
from baccara.server.infra.edge import Refusal
from baccara.server.state import SESSION_COOKIE
from baccara.server.wire.admin import StaffAccount

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
