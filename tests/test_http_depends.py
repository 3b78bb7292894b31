"""The routes check what they need by FastAPI dependencies (`baccara.server.http.depends`):
every route that needs a login declares it (``/openapi.json`` shows it in the route's
``security``, and an anonymous request gets 401), every post refuses another site and a
body that is not JSON, every body a route reads is documented, and the checks run in
the order the routes have always run them. The walk over the routes is checked to
catch a route that does any of it by hand."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import fastapi.routing
import httpx
import pytest
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from tests.test_hardening_http import in_process
from tests.test_openapi import published

from baccara.server.app import ServerConfig, create_app
from baccara.server.cluster.relay import Moving
from baccara.server.http.depends import SAME_SITE_JSON, JsonBody, body_model
from baccara.server.infra.edge import Refusal, problem
from baccara.server.wire.protocol import Credentials

JSON = {"Content-Type": "application/json"}
EVIL = "http://evil.example"
FILLED = {"table_id": "t1", "drill": "tableau", "name": "banco", "alert_id": "1"}
"""A value for each path parameter, naming something that exists."""


@pytest.fixture
def app(tmp_path: Path) -> FastAPI:
    url = f"sqlite:///{tmp_path / 'depends.db'}"
    fast = {"bet_seconds": 0.3, "card_seconds": 0.01, "result_seconds": 0.05}
    config = ServerConfig(database_url=url, tables=("t1=punto-banco",), **fast)
    return create_app(config)


def operations(app: FastAPI) -> list[tuple[str, str, dict[str, Any]]]:
    """Each ``/api`` operation of ``/openapi.json``: method, address (its path's
    parameters filled in) and what the document says of it."""
    found = []
    for path, item in published(app)["paths"].items():
        if path.startswith("/api"):
            for method, operation in item.items():
                found.append((method.upper(), path.format(**FILLED), operation))
    return found


def needs_login(operation: dict[str, Any]) -> bool:
    return {"session": []} in operation.get("security", [])


async def ask(client: httpx.AsyncClient, method: str, url: str, **headers: str) -> httpx.Response:
    """An empty JSON object sent (a POST or PATCH, same site unless ``headers`` say), or a GET."""
    if method == "GET":
        return await client.get(url, headers=headers)
    return await client.request(method, url, content=b"{}", headers={**JSON, **headers})


def misfits(app: FastAPI) -> list[str]:
    """What is wrong with ``app``'s routes, walked from ``/openapi.json``: a route that
    answers an anonymous request with 401 and does not declare the login, or the
    reverse; a post that takes another site's post, or a body that is not JSON."""
    wrong: list[str] = []
    walked = operations(app)

    async def scenario(client: httpx.AsyncClient) -> None:
        for method, url, operation in walked:
            anonymous = await ask(client, method, url)
            if (anonymous.status_code == 401) != needs_login(operation):
                wrong.append(f"{method} {url}: {anonymous.status_code}, {needs_login(operation)=}")
            if anonymous.status_code == 401:
                assert anonymous.json()["error"] in ("not_logged_in", "login_required")
            if method == "GET":
                continue
            foreign = await ask(client, method, url, Origin=EVIL)
            if (foreign.status_code, foreign.json().get("error")) != (403, "bad_origin"):
                wrong.append(f"{method} {url} from another site: {foreign.status_code}")
            plain = {"Content-Type": "text/plain"}
            form = await client.request(method, url, content="a=b", headers=plain)
            if form.status_code != 415:
                wrong.append(f"{method} {url} in text/plain: {form.status_code}")

    in_process(app, scenario)
    return wrong


def test_every_route_checks_what_it_needs_by_its_dependencies(app: FastAPI) -> None:
    found = operations(app)
    assert len(found) >= 23
    logged_in = {(method, url) for method, url, operation in found if needs_login(operation)}
    assert logged_in == {
        ("GET", "/api/me"),
        ("POST", "/api/me/password"),
        ("GET", "/api/me/limits"),
        ("POST", "/api/me/limits"),
        ("POST", "/api/me/exclusion"),
        ("GET", "/api/me/records"),
        ("GET", "/api/learn/drills/tableau"),
        ("POST", "/api/learn/drills/tableau"),
        ("GET", "/api/learn/progress"),
        ("GET", "/api/admin/audit"),
        ("POST", "/api/admin/cashier/deposit"),
        ("POST", "/api/admin/cashier/withdrawal"),
        ("GET", "/api/admin/players/banco/movements"),
        ("GET", "/api/me/deposit-limits"),
        ("PUT", "/api/me/deposit-limits"),
        ("GET", "/api/admin/tables"),
        ("POST", "/api/admin/tables"),
        ("PATCH", "/api/admin/tables/t1"),
        ("POST", "/api/admin/tables/t1/pause"),
        ("POST", "/api/admin/tables/t1/resume"),
        ("POST", "/api/admin/tables/t1/close"),
        ("POST", "/api/admin/play/stop"),
        ("POST", "/api/admin/play/resume"),
        ("POST", "/api/admin/players/banco/logins"),
        ("GET", "/api/admin/variants"),
        ("GET", "/api/admin/access"),
        ("GET", "/api/admin/players"),
        ("GET", "/api/admin/players/banco"),
        ("GET", "/api/admin/players/banco/rounds"),
        ("POST", "/api/admin/players/banco/suspend"),
        ("POST", "/api/admin/players/banco/reinstate"),
        ("POST", "/api/admin/players/banco/notes"),
        ("GET", "/api/admin/alerts"),
        ("POST", "/api/admin/alerts/scan"),
        ("POST", "/api/admin/alerts/1/acknowledge"),
        ("GET", "/api/admin/reports/hold"),
        ("GET", "/api/admin/reports/hold/series"),
        ("GET", "/api/admin/reports/rtp"),
        ("GET", "/api/admin/reports/interrupted"),
    }
    assert misfits(app) == []


def test_a_route_checking_by_hand_is_caught(app: FastAPI) -> None:
    """The walk fails on a route that checks the login itself, and on a post that
    takes any body from anywhere."""

    @app.get("/api/by-hand")
    async def by_hand(request: Request) -> JSONResponse:
        if not request.cookies.get("baccara_session"):
            return problem(401, "not_logged_in", "log in first")
        return JSONResponse({})

    @app.post("/api/anything")
    async def anything() -> JSONResponse:
        return JSONResponse({})

    @app.post("/api/posted", dependencies=[SAME_SITE_JSON])
    async def posted() -> JSONResponse:
        return JSONResponse({})

    assert misfits(app) == [
        "GET /api/by-hand: 401, needs_login(operation)=False",
        "POST /api/anything from another site: 200",
        "POST /api/anything in text/plain: 200",
    ]


def routes_of(app: FastAPI) -> list[Any]:
    """The app's routes, those of its included routers too (which FastAPI may keep
    whole, as routers, in ``app.routes``)."""
    walk = getattr(fastapi.routing, "iter_route_contexts", None)
    if walk is None:  # an older FastAPI copies each route into the app
        return list(app.routes)
    return list(walk(app.routes))


def test_every_body_a_route_reads_is_documented(app: FastAPI) -> None:
    paths = published(app)["paths"]
    read = {}
    for route in routes_of(app):
        model = body_model(route) if hasattr(route, "dependant") else None
        if model is not None:
            for method in route.methods:
                read[method.lower(), route.path] = model
    assert {(method, path) for method, path in read} == {
        ("post", "/api/register"),
        ("post", "/api/login"),
        ("post", "/api/me/password"),
        ("post", "/api/me/limits"),
        ("post", "/api/me/exclusion"),
        ("post", "/api/learn/drills/{drill}"),
        ("post", "/api/admin/cashier/deposit"),
        ("post", "/api/admin/cashier/withdrawal"),
        ("put", "/api/me/deposit-limits"),
        ("post", "/api/admin/tables"),
        ("patch", "/api/admin/tables/{table_id}"),
        ("post", "/api/admin/play/stop"),
        ("post", "/api/admin/play/resume"),
        ("post", "/api/admin/players/{name}/logins"),
        ("post", "/api/admin/players/{name}/suspend"),
        ("post", "/api/admin/players/{name}/notes"),
        ("post", "/api/admin/alerts/scan"),
    }
    for (method, path), model in read.items():
        body = paths[path][method]["requestBody"]
        assert body["required"] is True
        schema = body["content"]["application/json"]["schema"]
        assert schema["title"] == model.__name__ and schema["additionalProperties"] is False
        assert set(schema["properties"]) == set(model.model_fields)
        required = {name for name, field in model.model_fields.items() if field.is_required()}
        assert set(schema.get("required", [])) == required
    documented = {
        (method, path)
        for path, item in paths.items()
        for method, operation in item.items()
        if "requestBody" in operation
    }
    assert documented == set(read)  # no route documents a body it does not read


def test_a_body_is_read_as_its_model_in_json_mode() -> None:
    read = JsonBody(Credentials, "expected a JSON body {name, password} of strings").read
    assert read(b'{"name": "ann", "password": "secret"}') == Credentials(
        name="ann", password="secret"
    )
    for bad in (
        b"",
        b"not json",
        b"[]",
        b'{"name": "ann"}',
        b'{"name": "\\ud800", "password": "x"}',
    ):
        with pytest.raises(Refusal) as refused:
            read(bad)
        assert (refused.value.status, refused.value.code) == (400, "bad_request")
        assert refused.value.message == "expected a JSON body {name, password} of strings"
    with pytest.raises(Refusal, match=r"400 bad_request: password: Field required"):
        JsonBody(Credentials).read(b'{"name": "ann"}')


def test_the_checks_run_in_the_order_they_always_have(app: FastAPI) -> None:
    """With two faults the first check answers, as before the dependencies: another
    site (403) or a body that is not JSON (415) before the login (401), the login before
    the body (400), an unknown drill (404) before anything else."""
    answers: dict[str, tuple[int, str]] = {}

    async def scenario(client: httpx.AsyncClient) -> None:
        async def post(name: str, url: str, body: bytes, **headers: str) -> None:
            reply = await client.post(url, content=body, headers={**JSON, **headers})
            answers[name] = (reply.status_code, reply.json().get("error", ""))

        await post("foreign, anonymous", "/api/me/limits", b"{}", Origin=EVIL)
        await post(
            "form, anonymous", "/api/me/exclusion", b"days=1", **{"Content-Type": "text/plain"}
        )
        await post("anonymous, not JSON", "/api/me/limits", b"{not json")
        await post("anonymous, bad field", "/api/me/password", b'{"old": 1}')
        await post("unknown drill, foreign", "/api/learn/drills/nope", b"{", Origin=EVIL)
        await post("foreign, not JSON", "/api/login", b"{", Origin=EVIL)
        await post("anonymous drill answer", "/api/learn/drills/payout", b"{")
        me = {"name": "order_olga", "password": "long enough"}
        await post("register", "/api/register", json.dumps(me).encode())
        await post("not JSON", "/api/me/limits", b"{not json")
        await post("bad field", "/api/me/exclusion", b'{"days": "7"}')
        await post("no question", "/api/learn/drills/payout", b'{"answer": "1.00"}')
        await post("foreign", "/api/me/exclusion", b'{"days": 1}', Origin=EVIL)

    in_process(app, scenario)
    assert answers == {
        "foreign, anonymous": (403, "bad_origin"),
        "form, anonymous": (415, "bad_request"),
        "anonymous, not JSON": (401, "not_logged_in"),
        "anonymous, bad field": (401, "not_logged_in"),
        "unknown drill, foreign": (404, "unknown_drill"),
        "foreign, not JSON": (403, "bad_origin"),
        "anonymous drill answer": (401, "login_required"),
        "register": (200, ""),
        "not JSON": (400, "bad_request"),
        "bad field": (400, "bad_request"),
        "no question": (409, "out_of_turn"),
        "foreign": (403, "bad_origin"),
    }


def test_a_refusal_raised_anywhere_is_answered_as_a_problem(app: FastAPI) -> None:
    @app.get("/api/refused")
    async def refused() -> None:
        raise Refusal(429, "rate_limited", "slow down", {"Retry-After": "3"})

    async def main() -> httpx.Response:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://baccara") as client:
            return await client.get("/api/refused")

    reply = asyncio.run(main())
    assert reply.status_code == 429 and reply.headers["retry-after"] == "3"
    assert reply.json() == {"error": "rate_limited", "message": "slow down"}
    assert reply.headers["x-frame-options"] == "DENY"  # the security headers, as on all


def test_a_table_moving_between_processes_is_answered_503(
    app: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A table another process runs, while it passes to another (`Moving`, or no
    answer to the view asked for): 503 ``table_moving`` with Retry-After, from the
    exception handler, on each route that asks that process."""
    hall = app.state.baccara.hall

    async def moving(table: str, *args: object) -> Any:
        raise Moving(table)

    async def nobody(table: str, what: str) -> list[str]:
        return []

    monkeypatch.setattr(hall, "runner", lambda table: None)
    monkeypatch.setattr(hall, "remote", lambda table: True)
    monkeypatch.setattr(hall, "ask", nobody)
    monkeypatch.setattr(hall, "edges", moving)
    monkeypatch.setattr(hall, "shoe_records", moving)
    replies = []

    async def scenario(client: httpx.AsyncClient) -> None:
        for path in ("/api/tables/t9", "/api/tables/t9/edges", "/api/tables/t9/shoes"):
            replies.append(await client.get(path))

    in_process(app, scenario)
    for reply in replies:
        assert reply.status_code == 503 and reply.headers["retry-after"] == "2"
        assert reply.json()["error"] == "table_moving" and "t9" in reply.json()["message"]
