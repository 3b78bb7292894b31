"""The HTTP server's edges (issue 23, finding 9): each test here reproduced its fault
against the server before the fix (docs/server.md, "Hardening", 11 to 14).

Real server processes on loopback (`tests.support.harness`), on SQLite and on
PostgreSQL where the database matters. No test measures time: they count answers,
bytes and connections.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import httpx
import pytest
from tests.support.harness import ServerProcess
from tests.test_hardening_http import FAST

from baccara.db.betting import MAX_AMOUNT
from baccara.db.ledger import Ledger
from baccara.money import format_money
from baccara.server.app import ServerConfig
from baccara.server.throttle import LoginThrottle


@pytest.fixture
def server(database_url: str, tmp_path: Path) -> Iterator[ServerProcess]:
    """A server on SQLite and on PostgreSQL, its login limit out of the way."""
    config = ServerConfig(
        database_url=database_url,
        tables=("t1=punto-banco", "c=chemin-de-fer"),
        logins_per_minute=6000,
        **FAST,
    )
    with ServerProcess(config, log=tmp_path / "server.log") as process:
        yield process
    book = Ledger.connect(database_url)
    try:
        assert book.check_invariants() == []
    finally:
        book.engine.dispose()


def _post(client: httpx.Client, path: str, body: object) -> httpx.Response:
    return client.post(path, content=json.dumps(body), headers={"Content-Type": "application/json"})


# -- 14. hostile values ------------------------------------------------------------------

ODD_TEXT = [
    "99999999999999999999", "9" * 19, "-99999999999999999999", "-1", "-0", "²", "¹²³", "٣",
    "𝟙", "1_0", "0x10", "1e999", "NaN", "inf", " 1", "1.5", "\x00", "x" * 3000, "null",
]  # fmt: skip
ODD_JSON: list[object] = [10**30, -(10**30), 1.5, None, True, [], {}, *ODD_TEXT]


def test_hostile_values_get_a_4xx_never_a_500(server: ServerProcess) -> None:
    """A loss limit of 20 nines (or 19) was an HTTP 500 (an integer overflow in the
    database), and so was ``GET /api/me/records?before=²`` (``str.isdigit`` takes a
    superscript two, ``int`` does not). Now a loss limit above the largest amount
    (`baccara.db.betting.MAX_AMOUNT`) is a 400 naming it, ``before`` takes ASCII digits
    only, and every route's parameters and bodies, given huge, negative, NaN, unicode
    digits or very long strings, get a 4xx with an error and a message."""
    body = {"name": "hostile_hal", "password": "long enough"}
    with httpx.Client(base_url=server.url, timeout=60) as client:
        assert _post(client, "/api/register", body).status_code == 200
        for nines in ("9" * 20, "9" * 19, format_money(MAX_AMOUNT + 1).replace(",", "")):
            refused = _post(client, "/api/me/limits", {"loss_limit": nines})
            assert refused.status_code == 400, (nines, refused.text)
            assert format_money(MAX_AMOUNT) in refused.json()["message"]
        assert client.get("/api/me/limits").json()["loss_limit"] is None  # nothing changed
        largest = _post(client, "/api/me/limits", {"loss_limit": format_money(MAX_AMOUNT)})
        assert largest.json()["loss_limit"] == MAX_AMOUNT
        for digits in ("²", "¹²³", "٣", "𝟙"):
            refused = client.get("/api/me/records", params={"before": digits})
            assert refused.status_code == 400 and refused.json()["error"] == "bad_request"
        answers = []
        for value in ODD_TEXT:
            named = quote(value, safe="")
            for path in (
                f"/api/tables/{named}", f"/api/tables/{named}/roads.svg",
                f"/api/tables/{named}/shoes", f"/api/tables/{named}/edges",
                f"/api/learn/terms/{named}", f"/api/learn/drills/{named}",
            ):  # fmt: skip
                answers.append(client.get(path))
            answers.append(client.get("/api/me/records", params={"before": value}))
            answers.append(client.get("/api/learn/drills/shoe", params={"seed": value}))
            answers.append(client.get("/api/learn/drills/shoe", params={"seed": 1, "upto": value}))
            for hand in ("player", "banker", "third"):
                answers.append(client.get("/api/learn/tableau", params={hand: value}))
        for value in ODD_JSON:
            for path, field in (
                ("/api/me/limits", "loss_limit"), ("/api/me/limits", "reminder_minutes"),
                ("/api/me/exclusion", "days"), ("/api/learn/drills/payout", "answer"),
                ("/api/learn/drills/tableau", "answer"), ("/api/login", "name"),
                ("/api/login", "password"), ("/api/register", "name"),
            ):  # fmt: skip
                if path.startswith("/api/learn/drills/"):
                    client.get(path)  # a question waits for the answer
                sent = {**body, field: value} if path in ("/api/login", "/api/register") else {}
                answers.append(_post(client, path, sent or {field: value}))
        assert client.get("/api/me").status_code == 200  # ``{"days": true}`` excluded for a day
    assert len(answers) > 400
    for answer in answers:
        assert answer.status_code < 500, (answer.request.url, answer.status_code, answer.text)
        if answer.status_code >= 400:
            assert answer.json()["message"], answer.request.url


# -- 13. login throttling that cannot lock a player out ---------------------------------


def test_wrong_passwords_for_someone_elses_name_do_not_lock_the_owner_out(
    database_url: str, tmp_path: Path
) -> None:
    """One wrong password every 6 s for someone else's name kept that player's right
    password answered 429 (7 of 7 over 70 s): failed logins were counted per name,
    whatever the address, and that count was checked before the password. Here the
    attacker's budget is spent at once rather than over 70 s (its rate refilled it one
    guess at a time): 40 wrong passwords from one address, the owner logging in from
    another after every fourth. Now failures count per name and address: the guesser
    is stopped after its budget, the owner is let in every time."""
    config = ServerConfig(
        database_url=database_url,
        tables=("t1=punto-banco",),
        trusted_proxies=("127.0.0.1", "::1"),  # so that each login names its address
        logins_per_minute=6000,  # the per-address limit out of the way: not what is tested
        **FAST,
    )
    owner = {"name": "Owner_Olga", "password": "olga's password"}
    with (
        ServerProcess(config, log=tmp_path / "server.log") as server,
        httpx.Client(base_url=server.url, timeout=60) as client,
    ):
        assert _post(client, "/api/register", owner).status_code == 200

        def login(password: str, address: str) -> int:
            reply = client.post(
                "/api/login",
                json={"name": "owner_olga", "password": password},
                headers={"X-Forwarded-For": address},
            )
            return reply.status_code

        guesses, logins = [], []
        for n in range(40):
            guesses.append(login(f"guess {n:04}", "198.51.100.7"))
            if n % 4 == 3:
                logins.append(login(owner["password"], "203.0.113.5"))
    assert logins == [200] * 10, logins
    assert guesses.count(401) <= 5 and guesses[-10:] == [429] * 10, guesses


def test_the_audits_seventy_seconds_on_the_throttle_with_a_given_clock() -> None:
    """The audit's pattern, at its own pace on a given clock with the default limits: a
    wrong password every 6 s from one address for 70 s, the owner logging in from
    another every 10 s (7 times; 7 of 7 were 429). The owner is let in every time; the
    guesser, after its burst, is held to the rate of its own bucket."""
    defaults = ServerConfig(database_url="sqlite://")
    now = [0.0]
    throttle = LoginThrottle(
        per_pair=defaults.failed_logins_per_minute,
        per_name=defaults.failed_logins_per_name_per_minute,
        clock=lambda: now[0],
    )
    guesses, logins = [], []
    for second in range(71):
        now[0] = float(second)
        if second % 6 == 0:
            guess = throttle.attempt("owner_olga", "198.51.100.7")
            guesses.append(guess.refused is None)
            guess.failed()
        if second % 10 == 5:
            login = throttle.attempt("Owner_Olga", "203.0.113.5")
            logins.append(login.refused)
            login.succeeded()
    assert logins == [None] * 7
    assert guesses[:5] == [True] * 5 and guesses.count(True) <= 5 + 70 / 60 * 5 + 1, guesses
