"""The HTTP API documents itself (`baccara.server.wire.http`): ``/openapi.json`` names
a model for every route's 2xx answer, and the real answers fit their models."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any, Union

import httpx
import pytest
from fastapi import FastAPI
from pydantic import TypeAdapter
from tests.test_hardening_http import in_process

from baccara.db.staff import Role
from baccara.learn import drills
from baccara.server.app import ServerConfig, create_app
from baccara.server.http.learn import CELLS
from baccara.server.tables.make import protocol_schema
from baccara.server.wire import admin as admin_models
from baccara.server.wire import cashier as cashier_models
from baccara.server.wire import http as http_models
from baccara.server.wire import protocol
from baccara.server.wire import reports as reports_models
from baccara.server.wire.http import Progress

JSON = {"Content-Type": "application/json"}


@pytest.fixture
def app(tmp_path: Path) -> FastAPI:
    url = f"sqlite:///{tmp_path / 'api.db'}"
    fast = {"bet_seconds": 0.3, "card_seconds": 0.01, "result_seconds": 0.05}
    return create_app(ServerConfig(database_url=url, tables=("t1=punto-banco",), **fast))


def published(app: FastAPI) -> Any:
    """The app's ``/openapi.json``, as a client reads it."""

    async def fetch() -> Any:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://baccara") as client:
            return (await client.get("/openapi.json")).json()

    return asyncio.run(fetch())


def names_a_model(found: dict[str, Any]) -> bool:
    """Whether a response schema is a named model: a reference, a list of them, or a
    choice between them (never ``{}``, nor an object with anything in it)."""
    if "$ref" in found:
        return True
    if found.get("type") == "array":
        return names_a_model(found.get("items", {}))
    choices = found.get("oneOf") or found.get("anyOf")
    return bool(choices) and all(names_a_model(one) for one in choices)


def test_a_schema_is_named_only_when_it_names_models() -> None:
    assert names_a_model({"$ref": "#/components/schemas/Health"})
    assert names_a_model({"type": "array", "items": {"$ref": "#/components/schemas/T"}})
    assert names_a_model({"oneOf": [{"$ref": "#/a"}, {"$ref": "#/b"}]})
    assert not names_a_model({})
    assert not names_a_model({"type": "object", "additionalProperties": True})
    assert not names_a_model({"anyOf": [{"$ref": "#/a"}, {"type": "object"}]})


def test_every_api_route_documents_its_answer(app: FastAPI) -> None:
    document = published(app)
    paths = document["paths"]
    routes = {
        (method, path) for path, item in paths.items() if path.startswith("/api") for method in item
    }
    assert len(routes) >= 23  # none left out: the routes and the form's page are all there
    for method, path in sorted(routes):
        answers = paths[path][method]["responses"]
        ok = [code for code in answers if code.startswith("2")]
        assert ok, (method, path)
        for kind, body in answers[ok[0]]["content"].items():
            if kind == "application/json":
                assert names_a_model(body["schema"]), (method, path, body)
            else:  # the roads, drawn; a statement as a spreadsheet
                assert kind in ("image/svg+xml", "text/csv"), (method, path, kind)
                assert body["schema"] == {"type": "string"}
    models = document["components"]["schemas"]
    assert {"Snapshot", "CheminState", "BanqueState", "MyRecords", "LimitsAnswer"} <= set(models)


def test_progress_has_a_field_per_drill() -> None:
    assert set(Progress.model_fields) == set(CELLS)


def test_real_answers_fit_their_models(app: FastAPI) -> None:
    """Each answer validates against the model ``/openapi.json`` names for it (extra keys
    refused): the documentation and the answers agree."""
    paths = published(app)["paths"]

    def model(found: dict[str, Any]) -> Any:
        """The type a documented schema names (`http_models`, `admin_models` or `protocol`)."""
        if "$ref" in found:
            name = found["$ref"].rsplit("/", 1)[1]
            for module in (http_models, admin_models, cashier_models, reports_models):
                if hasattr(module, name):
                    return getattr(module, name)
            return getattr(protocol, name)
        if found.get("type") == "array":
            return list[model(found["items"])]
        choices = [model(one) for one in found.get("oneOf") or found["anyOf"]]
        return Union[tuple(choices)]  # noqa: UP007

    def documented(method: str, path: str) -> TypeAdapter[Any]:
        body = paths[path][method.lower()]["responses"]["200"]["content"]["application/json"]
        return TypeAdapter(model(body["schema"]))

    checked = []

    async def scenario(client: httpx.AsyncClient) -> None:
        async def fits(method: str, path: str, url: str = "", body: Any = None) -> Any:
            reply = await client.request(
                method,
                url or path,
                content=None if body is None else json.dumps(body),
                headers=JSON,
            )
            assert reply.status_code == 200, (url or path, reply.text)
            checked.append((method, path))
            return documented(method, path).validate_json(reply.content)

        await fits("POST", "/api/register", body={"name": "olga", "password": "olga password"})
        assert (await fits("GET", "/api/me")).name == "olga"
        assert (await fits("GET", "/api/health")).tables == ["t1"]
        assert (await fits("GET", "/api/protocol")).model_dump() == protocol_schema()
        await fits("GET", "/api/me/limits")
        await fits("POST", "/api/me/limits", body={"reminder_minutes": 30})
        await fits("GET", "/api/me/records")
        await fits("GET", "/api/learn/terms/{name}", "/api/learn/terms/banco")
        await fits("GET", "/api/learn/tableau", "/api/learn/tableau?player=2h 3d&banker=5s Qc")
        question = await fits("GET", "/api/learn/drills/{drill}", "/api/learn/drills/tableau")
        said = "draw" if drills.grade_tableau(question.cell, "draw")[0] else "stand"
        graded = await fits(
            "POST", "/api/learn/drills/{drill}", "/api/learn/drills/tableau", {"answer": said}
        )
        assert graded.correct and graded.record.asked == 1
        await fits("GET", "/api/learn/drills/{drill}", "/api/learn/drills/payout")
        await fits("GET", "/api/learn/progress")
        await fits("GET", "/api/learn/drills/shoe", "/api/learn/drills/shoe?seed=7&upto=2")
        assert (await fits("GET", "/api/tables")) != []
        assert (await fits("GET", "/api/tables/{table_id}", "/api/tables/t1")).table == "t1"
        await fits("GET", "/api/tables/{table_id}/shoes", "/api/tables/t1/shoes")
        await fits("GET", "/api/tables/{table_id}/edges", "/api/tables/t1/edges")
        state = app.state.baccara  # a staff member: who, and the console's audit log
        await asyncio.to_thread(
            state.auth.create_staff, "ivan", "ivan password", Role.AUDITOR, actor="cli"
        )
        await fits("POST", "/api/login", body={"name": "ivan", "password": "ivan password"})
        assert (await fits("GET", "/api/me")).role == Role.AUDITOR
        page = await fits("GET", "/api/admin/audit", "/api/admin/audit?after=0&limit=5")
        assert [entry.target for entry in page.entries] == ["ivan"]
        statement = "/api/admin/players/{name}/movements"
        assert (await fits("GET", statement, statement.format(name="olga"))).player == "olga"
        assert (await fits("GET", "/api/admin/reports/hold")).total.rounds == 0
        await fits("GET", "/api/admin/reports/hold/series")
        await fits("GET", "/api/admin/reports/rtp")
        await fits("GET", "/api/admin/reports/interrupted")
        await asyncio.to_thread(
            state.auth.create_staff, "oleg", "oleg password", Role.OPERATOR, actor="cli"
        )
        await fits("POST", "/api/login", body={"name": "oleg", "password": "oleg password"})
        cash = {"player": "olga", "amount": "5.00", "reference": "s1"}
        paid = await fits("POST", "/api/admin/cashier/deposit", body=cash)
        out = {**cash, "reference": "p1"}
        assert (await fits("POST", "/api/admin/cashier/withdrawal", body=out)).balance == (
            paid.balance - 500
        )
        await fits("POST", "/api/login", body={"name": "olga", "password": "olga password"})
        await fits("GET", "/api/me/deposit-limits")
        assert (
            await fits("PUT", "/api/me/deposit-limits", body={"week": "50"})
        ).week.amount == 5_000

    in_process(app, scenario)
    assert len(set(checked)) == 28  # /api/login too
