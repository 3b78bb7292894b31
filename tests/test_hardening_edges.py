"""The HTTP server's edges (issue 23, finding 9): each test here reproduced its fault
against the server before the fix (docs/hardening.md, 11, 13 and 14; 12, a
WebSocket that does not read, is in tests/test_hardening_table.py).

Real servers on loopback, in the test's process (`tests.support.inprocess`), on SQLite and on
PostgreSQL where the database matters. No test measures time: they count answers,
bytes and connections.
"""

from __future__ import annotations

import json
import os
import socket
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import httpx
import pytest
from tests.support.inprocess import ServerThread
from tests.test_hardening_http import FAST, _read_until_closed

from baccara.db.betting import MAX_AMOUNT
from baccara.db.ledger import Ledger
from baccara.money import format_money
from baccara.server.app import ServerConfig
from baccara.server.infra.throttle import LoginThrottle


@pytest.fixture
def server(database_url: str, tmp_path: Path) -> Iterator[ServerThread]:
    """A server on SQLite and on PostgreSQL, its login limit out of the way."""
    config = ServerConfig(
        database_url=database_url,
        tables=("t1=punto-banco", "c=chemin-de-fer"),
        logins_per_minute=6000,
        **FAST,
    )
    with ServerThread(config, log=tmp_path / "server.log") as process:
        yield process
    book = Ledger.connect(database_url)
    try:
        assert book.check_invariants() == []
    finally:
        book.database.dispose()


def _post(client: httpx.Client, path: str, body: object) -> httpx.Response:
    return client.post(path, content=json.dumps(body), headers={"Content-Type": "application/json"})


# -- 11. the size of a request's head -----------------------------------------------------


def _rss(pid: int) -> int:
    """A process's resident memory in bytes (Linux)."""
    with open(f"/proc/{pid}/status") as status:
        line = next(line for line in status if line.startswith("VmRSS:"))
    return int(line.split()[1]) * 1024


def test_a_request_head_over_the_limit_is_refused_as_it_arrives(
    tmp_path: Path, full_size: bool
) -> None:
    """Headers had no size limit: 20 clients each sending 20 MB of headers grew the
    server from 466 MB to 1,577 MB, and a single 100 MB header was read in full. Now a
    request's line and headers over ``header_bytes`` (64 KiB) get 431 and the
    connection is closed as soon as the limit is passed: the clients here could not
    send their headers whole, and the server's memory did not grow with them."""
    config = ServerConfig(
        database_url=f"sqlite:///{tmp_path / 'head.db'}",
        tables=("t1=punto-banco",),
        header_seconds=120,  # the headers' deadline is not what is tested
        **FAST,
    )
    clients, size = (20, 20_000_000) if full_size else (4, 16_000_000)
    piece = b"a" * 65536
    with ServerThread(config, log=tmp_path / "server.log") as server:
        before = _rss(os.getpid())  # the server runs in this process
        sockets, sent = [], []
        for _ in range(clients):  # each connection held open until the end
            sock = socket.create_connection(("127.0.0.1", server.port))
            sockets.append(sock)
            sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ")
            count = 0
            try:
                while count < size:
                    sock.sendall(piece)
                    count += len(piece)
            except OSError:  # answered and closed before the rest was read
                pass
            sent.append(count)
        grown = _rss(os.getpid()) - before
        answers = []
        for sock, count in zip(sockets, sent, strict=True):
            answers.append(_read_until_closed(sock) if count < size else b"")
            sock.close()
        assert httpx.get(f"{server.url}/api/health").status_code == 200
        fill = "a" * (60 * 1024)  # a long head within the limit is served, one over it not
        assert httpx.get(f"{server.url}/api/health", headers={"X-Fill": fill}).status_code == 200
        over = httpx.get(f"{server.url}/api/health", headers={"X-Fill": fill + fill[:5000]})
        assert over.status_code == 431 and over.json()["error"] == "too_large"
    assert grown < 16_000_000, f"the server grew by {grown:,} bytes"
    assert max(sent) < size, sent
    for answer in answers:
        assert answer.startswith(b"HTTP/1.1 431 "), answer[:200]
        head, _, body = answer.partition(b"\r\n\r\n")
        assert b"connection: close" in head.lower() and b"x-frame-options: deny" in head.lower()
        assert json.loads(body)["error"] == "too_large"


# -- 13. login throttling that cannot lock a player out ---------------------------------
# (the guesser against a server process, whose time it races: tests/test_hardening_http.py)


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


# -- 14. hostile values ------------------------------------------------------------------

ODD_TEXT = [
    "99999999999999999999", "9" * 19, "-99999999999999999999", "-1", "-0", "²", "¹²³", "٣",
    "𝟙", "1_0", "0x10", "1e999", "NaN", "inf", " 1", "1.5", "\x00", "x" * 3000, "null",
]  # fmt: skip
ODD_JSON: list[object] = [10**30, -(10**30), 1.5, None, True, [], {}, *ODD_TEXT]


def test_hostile_values_get_a_4xx_never_a_500(server: ServerThread) -> None:
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
