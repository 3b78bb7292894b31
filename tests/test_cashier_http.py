"""The cashier over HTTP, on SQLite and PostgreSQL: every route as anonymous, a player,
each role and another site; deposits and withdrawals with money as text or cents, bad
amounts refused in words with nothing booked; the player's deposit limits and their
loss limits over 7 and 30 days; a statement as JSON and CSV. Two operators on two
server processes racing on one wallet are in tests/test_money_gate.py."""

from __future__ import annotations

import asyncio
import csv
import io
import json
import time
from collections.abc import Callable
from typing import Any, TypeVar

import httpx
import pytest
from fastapi import FastAPI
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.test_hardening_http import in_process

from baccara.db.auth import Auth
from baccara.db.betting import MAX_AMOUNT
from baccara.db.ledger import Ledger, wallet_account
from baccara.db.protections import suspend
from baccara.db.staff import Role
from baccara.server.app import ServerConfig, create_app
from baccara.server.http.cashier import LAST_MOMENT, moment
from baccara.server.http.me import limit_asked
from baccara.server.infra.edge import Refusal

_T = TypeVar("_T")
JSON = {"Content-Type": "application/json"}
EVIL = "http://evil.example"
PASSWORD = "long password"
STAFF = {"olga": Role.OPERATOR, "cora": Role.COMPLIANCE, "ivan": Role.AUDITOR}
WELCOME = 100_000
DEPOSIT, WITHDRAWAL = "/api/admin/cashier/deposit", "/api/admin/cashier/withdrawal"
MINE = "/api/me/deposit-limits"

Client = httpx.AsyncClient


def _config(url: str) -> ServerConfig:
    return ServerConfig(
        database_url=url, tables=(), logins_per_minute=60_000, welcome=WELCOME, workers=8
    )


@pytest.fixture
def app(database_url: str) -> FastAPI:
    made = create_app(_config(database_url))
    auth = made.state.baccara.auth
    for name, role in STAFF.items():
        auth.create_staff(name, PASSWORD, role, actor="cli")
    return made


async def _as(client: Client, name: str | None) -> None:
    """Log in as ``name`` (None: nobody)."""
    client.cookies.clear()
    if name is None:
        return
    reply = await client.post("/api/login", json={"name": name, "password": PASSWORD}, headers=JSON)
    assert reply.status_code == 200, reply.text


async def _send(
    client: Client, method: str, url: str, body: Any = None, **headers: str
) -> httpx.Response:
    content = None if body is None else json.dumps(body)
    return await client.request(method, url, content=content, headers={**JSON, **headers})


def _problem(reply: httpx.Response) -> tuple[int, str]:
    return reply.status_code, reply.json()["error"]


async def _balance(app: FastAPI, player: str) -> int:
    """The player's wallet, as the ledger of ``app`` holds it."""
    ledger: Ledger = app.state.baccara.ledger
    return await asyncio.to_thread(
        lambda: ledger.balance(ledger.create_account(wallet_account(player)))
    )


def test_every_cashier_route_for_whom_it_is(app: FastAPI) -> None:
    """Anonymous 401, a player 403, a role the route is not for 403, another site 403;
    the operator books, every role reads a statement, a player sets their own limits
    (a staff account has none)."""
    body = {"player": "ann", "amount": "1.00", "reference": "r"}

    async def scenario(client: Client) -> None:
        await client.post("/api/register", json={"name": "ann", "password": PASSWORD}, headers=JSON)
        n = 0
        for url in (DEPOSIT, WITHDRAWAL):
            await _as(client, None)
            assert _problem(await _send(client, "POST", url, body)) == (401, "not_logged_in")
            await _as(client, "ann")
            assert _problem(await _send(client, "POST", url, body)) == (403, "staff_only")
            for name, role in STAFF.items():
                await _as(client, name)
                n += 1
                reply = await _send(client, "POST", url, {**body, "reference": f"r{n}"})
                if role is Role.OPERATOR:
                    assert reply.status_code == 200, reply.text
                else:
                    assert _problem(reply) == (403, "wrong_role")
                foreign = await _send(client, "POST", url, body, Origin=EVIL)
                assert _problem(foreign) == (403, "bad_origin")
            form = await client.post(url, content="a=b", headers={"Content-Type": "text/plain"})
            assert form.status_code == 415
        statement = "/api/admin/players/ann/movements"
        await _as(client, None)
        assert _problem(await client.get(statement)) == (401, "not_logged_in")
        await _as(client, "ann")
        assert _problem(await client.get(statement)) == (403, "staff_only")
        assert (await client.get(MINE)).status_code == 200
        assert (await _send(client, "PUT", MINE, {"day": "10"})).status_code == 200
        assert _problem(await _send(client, "PUT", MINE, {"day": "10"}, Origin=EVIL)) == (
            403,
            "bad_origin",
        )
        for name in STAFF:
            await _as(client, name)
            assert (await client.get(statement)).status_code == 200
            assert _problem(await client.get(statement, headers={"Origin": EVIL})) == (
                403,
                "bad_origin",
            )
            assert _problem(await client.get(MINE)) == (403, "staff_account")
            assert _problem(await _send(client, "PUT", MINE, {"day": "10"})) == (
                403,
                "staff_account",
            )
        await _as(client, None)
        assert _problem(await client.get(MINE)) == (401, "not_logged_in")
        assert _problem(await _send(client, "PUT", MINE, {"day": "10"})) == (401, "not_logged_in")

    in_process(app, scenario)


def test_deposits_and_withdrawals_over_http(app: FastAPI) -> None:
    async def scenario(client: Client) -> None:
        for name in ("ann", "bob"):
            await client.post(
                "/api/register", json={"name": name, "password": PASSWORD}, headers=JSON
            )
        await _as(client, "olga")
        done = (
            await _send(
                client, "POST", DEPOSIT, {"player": "Ann", "amount": "10.50", "reference": "s1"}
            )
        ).json()
        assert (done["player"], done["amount"], done["balance"], done["kind"]) == (
            "ann",
            1_050,
            WELCOME + 1_050,
            "deposit",
        )
        assert (done["actor"], done["duplicate"]) == ("olga", False)
        cents = (
            await _send(
                client, "POST", DEPOSIT, {"player": "ann", "amount": 950, "reference": "s2"}
            )
        ).json()
        assert cents["balance"] == WELCOME + 2_000
        again = (
            await _send(
                client, "POST", DEPOSIT, {"player": "ann", "amount": 950, "reference": "s2"}
            )
        ).json()
        assert (
            again["duplicate"]
            and again["id"] == cents["id"]
            and again["balance"] == WELCOME + 2_000
        )
        paid = (
            await _send(
                client,
                "POST",
                WITHDRAWAL,
                {"player": "ann", "amount": "1,020.00", "reference": "p1"},
            )
        ).json()
        assert paid["balance"] == 0 and paid["kind"] == "withdrawal"
        for body, status, code, words in (
            (
                {"player": "ann", "amount": "0", "reference": "x"},
                400,
                "bad_amount",
                "more than 0.00",
            ),
            (
                {"player": "ann", "amount": "-1", "reference": "x"},
                400,
                "bad_amount",
                "more than 0.00",
            ),
            ({"player": "ann", "amount": 0, "reference": "x"}, 400, "bad_amount", "more than 0.00"),
            (
                {"player": "ann", "amount": "ten", "reference": "x"},
                400,
                "bad_amount",
                "write it like",
            ),
            (
                {"player": "ann", "amount": "1.005", "reference": "x"},
                400,
                "bad_amount",
                "2 decimals",
            ),
            ({"player": "ann", "amount": 10**13, "reference": "x"}, 400, "bad_amount", "at most"),
            ({"player": "ann", "amount": 10.5, "reference": "x"}, 400, "bad_request", "amount"),
            ({"player": "ann", "amount": True, "reference": "x"}, 400, "bad_request", "amount"),
            (
                {"player": "ann", "amount": "1", "reference": " x"},
                400,
                "bad_reference",
                "reference",
            ),
            ({"player": "ann", "amount": "1"}, 400, "bad_request", "reference"),
            (
                {"player": "ann", "amount": "1", "reference": "x", "more": 1},
                400,
                "bad_request",
                "more",
            ),
            ({"player": "zed", "amount": "1", "reference": "x"}, 404, "unknown_player", "zed"),
            ({"player": "olga", "amount": "1", "reference": "x"}, 400, "staff_account", "staff"),
            ({"player": "ann", "amount": "1", "reference": "s1"}, 409, "reference_reused", "s1"),
        ):
            reply = await _send(client, "POST", DEPOSIT, body)
            assert _problem(reply) == (status, code), (body, reply.text)
            assert words in reply.json()["message"], reply.text
        database = app.state.baccara.ledger.database
        await asyncio.to_thread(
            lambda: suspend(database, "bob", 4e9, now=app.state.baccara.clock.now())
        )
        barred = await _send(
            client, "POST", DEPOSIT, {"player": "bob", "amount": "1", "reference": "b1"}
        )
        assert _problem(barred) == (409, "suspended")
        paid = await _send(
            client, "POST", WITHDRAWAL, {"player": "bob", "amount": "1", "reference": "b1"}
        )
        assert paid.json()["balance"] == WELCOME - 100
        over = await _send(
            client, "POST", WITHDRAWAL, {"player": "ann", "amount": "0.01", "reference": "p2"}
        )
        assert _problem(over) == (409, "insufficient_funds")
        assert "holds 0.00" in over.json()["message"]
        assert await _balance(app, "ann") == 0
        assert await _balance(app, "bob") == WELCOME - 100

    in_process(app, scenario)


def test_a_players_deposit_limits_and_longer_loss_limits(app: FastAPI) -> None:
    async def scenario(client: Client) -> None:
        await client.post("/api/register", json={"name": "ann", "password": PASSWORD}, headers=JSON)
        first = (await client.get(MINE)).json()
        assert first["day"] == {"amount": None, "next_amount": None, "next_from": None}
        assert first["raise_after_hours"] == 24
        set_ = (await _send(client, "PUT", MINE, {"day": "100.00", "week": 20_000})).json()
        assert (set_["day"]["amount"], set_["week"]["amount"], set_["month"]["amount"]) == (
            10_000,
            20_000,
            None,
        )
        raised = (await _send(client, "PUT", MINE, {"day": "150"})).json()
        assert raised["day"]["amount"] == 10_000 and raised["day"]["next_amount"] == 15_000
        assert raised["day"]["next_from"] > time.time() + 86_000
        for body in (
            {"day": "lots"},
            {"day": "-1"},
            {"week": 1.5},
            {"year": "1"},
            {"day": "1", "week": "x"},
        ):
            reply = await _send(client, "PUT", MINE, body)
            assert reply.status_code == 400, body
        assert (await client.get(MINE)).json() == raised  # nothing changed
        limits = (
            await _send(
                client,
                "POST",
                "/api/me/limits",
                {"loss_limit_week": "300", "loss_limit_month": "500"},
            )
        ).json()
        assert limits["loss_week"]["amount"] == 30_000 and limits["loss_month"]["amount"] == 50_000
        assert limits["loss_limit"] is None
        refused = await _send(
            client, "POST", "/api/me/limits", {"loss_limit": "5", "loss_limit_month": "x"}
        )
        assert refused.status_code == 400 and "loss_limit_month" in refused.json()["message"]
        assert (await client.get("/api/me/limits")).json()["loss_limit"] is None  # none set
        await _as(client, "olga")
        over = await _send(
            client, "POST", DEPOSIT, {"player": "ann", "amount": "100.01", "reference": "d1"}
        )
        assert _problem(over) == (409, "deposit_limit")
        assert "24-hour deposit limit is 100.00" in over.json()["message"]
        ok = await _send(
            client, "POST", DEPOSIT, {"player": "ann", "amount": "100.00", "reference": "d1"}
        )
        assert ok.status_code == 200

    in_process(app, scenario)


def test_a_statement_as_json_and_csv(app: FastAPI) -> None:
    async def scenario(client: Client) -> None:
        await client.post("/api/register", json={"name": "ann", "password": PASSWORD}, headers=JSON)
        await _as(client, "olga")
        for n, amount in enumerate(("5.00", "7.25")):
            await _send(
                client, "POST", DEPOSIT, {"player": "ann", "amount": amount, "reference": f"s{n}"}
            )
        await _send(
            client, "POST", WITHDRAWAL, {"player": "ann", "amount": "2.25", "reference": "p"}
        )
        await _as(client, "cora")
        found = (await client.get("/api/admin/players/ANN/movements")).json()
        assert found["player"] == "ann" and found["complete"]
        assert [(m["what"], m["amount"]) for m in found["movements"]] == [
            ("Deposit", WELCOME),
            ("Deposit", 500),
            ("Deposit", 725),
            ("Withdrawal", -225),
        ]
        assert found["net"] == WELCOME + 1_000
        later = (
            await client.get(
                f"/api/admin/players/ann/movements?from={int(time.time()) + 60}&to=9999999999"
            )
        ).json()
        assert later["movements"] == [] and later["net"] == 0
        dated = await client.get(
            "/api/admin/players/ann/movements?from=2026-01-01&to=2099-01-01T00:00:00"
        )
        assert len(dated.json()["movements"]) == 4
        sheet = await client.get("/api/admin/players/ann/movements?format=csv")
        assert sheet.headers["content-type"].startswith("text/csv")
        assert "attachment" in sheet.headers["content-disposition"]
        rows = list(csv.DictReader(io.StringIO(sheet.text)))
        assert [(r["what"], r["amount"], r["amount_cents"]) for r in rows][1:] == [
            ("Deposit", "5.00", "500"),
            ("Deposit", "7.25", "725"),
            ("Withdrawal", "-2.25", "-225"),
        ]
        for query in ("from=yesterday", "to=-5", "format=xml", "from=2030-01-01&to=2029-01-01"):
            reply = await client.get(f"/api/admin/players/ann/movements?{query}")
            assert _problem(reply) == (400, "bad_request"), query
        assert _problem(await client.get("/api/admin/players/nobody/movements")) == (
            404,
            "unknown_player",
        )

    in_process(app, scenario)


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    amount=st.one_of(
        st.integers(min_value=-(10**14), max_value=10**14),
        st.decimals(allow_nan=False, allow_infinity=False, places=3).map(str),
        st.text(max_size=12),
        st.floats(allow_nan=False, allow_infinity=False),
        st.none(),
    ),
    reference=st.text(max_size=70),
)
def test_any_amount_or_reference_over_http_is_booked_or_refused_in_words(
    tmp_path_factory: pytest.TempPathFactory, amount: object, reference: str
) -> None:
    """Whatever is sent, the answer is a booking or a 4xx that says why, and a refusal
    books nothing (the wallet is as it was)."""
    url = f"sqlite:///{tmp_path_factory.mktemp('fuzz') / 'c.db'}"
    made = create_app(_config(url))
    Auth(made.state.baccara.ledger).create_staff("olga", PASSWORD, Role.OPERATOR, actor="cli")

    async def scenario(client: Client) -> None:
        await client.post("/api/register", json={"name": "ann", "password": PASSWORD}, headers=JSON)
        await _as(client, "olga")
        body = {"player": "ann", "amount": amount, "reference": reference}
        reply = await _send(client, "POST", DEPOSIT, body)
        if reply.status_code == 200:
            assert await _balance(made, "ann") == WELCOME + reply.json()["amount"] > WELCOME
        else:
            assert 400 <= reply.status_code < 500 and reply.json()["message"], reply.text
            assert await _balance(made, "ann") == WELCOME

    in_process(made, scenario)


def _answer(read: Callable[[], _T]) -> _T | Refusal:
    """What ``read`` gives, or the `Refusal` it raised."""
    try:
        return read()
    except Refusal as refused:
        return refused


@given(
    text=st.one_of(
        st.text(max_size=40), st.datetimes().map(str), st.integers(-(10**13), 10**13).map(str)
    )
)
def test_a_moment_is_read_or_refused_in_words(text: str) -> None:
    """``from`` and ``to``: a moment from 1970 to 9999, or a 400 that says what is asked
    (never a server error, whatever the text)."""
    seconds = _answer(lambda: moment(text, "from", 7.0))
    if isinstance(seconds, Refusal):
        assert (seconds.status, seconds.code) == (400, "bad_request")
        assert "a date (2026-11-01)" in seconds.message
    else:
        assert 0 <= seconds <= LAST_MOMENT


@given(asked=st.one_of(st.none(), st.integers(-(10**13), 10**13), st.text(max_size=14)))
def test_a_limit_asked_is_read_or_refused_in_words(asked: int | str | None) -> None:
    """A deposit or loss limit: None, or cents from 0 to the largest amount, or a 400
    naming the field."""
    found = _answer(lambda: limit_asked(asked, "week"))
    if isinstance(found, Refusal):
        assert (found.status, found.code) == (400, "bad_request")
        assert found.message.startswith("week: ")
    elif asked is None:
        assert found is None
    else:
        assert found is not None and 0 <= found <= MAX_AMOUNT
        assert not isinstance(asked, int) or found == asked
