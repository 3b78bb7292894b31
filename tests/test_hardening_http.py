"""The online table hardened against abuse, over HTTP (issue 16): each test here
reproduced its finding against the server before the fix (docs/server.md, "Hardening").

Real server processes on loopback (`tests.support.harness`) on SQLite, and on
PostgreSQL where the database matters; sizes of abuse are sized down unless
``--slow`` is given. No test measures time: they count answers and bytes.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.support.harness import ServerProcess

from baccara.db.ledger import Ledger
from baccara.server.app import ServerConfig

FAST = {"bet_seconds": 1.2, "card_seconds": 0.02, "result_seconds": 0.1}


@pytest.fixture
def server(database_url: str, tmp_path: Path) -> Iterator[ServerProcess]:
    """A server on SQLite and on PostgreSQL, its login limit out of the way."""
    config = ServerConfig(
        database_url=database_url, tables=("t1=punto-banco",), logins_per_minute=6000, **FAST
    )
    with ServerProcess(config, log=tmp_path / "server.log") as process:
        yield process
    book = Ledger.connect(database_url)
    try:
        assert book.check_invariants() == []
    finally:
        book.engine.dispose()


def _post(client: httpx.Client, path: str, body: Any) -> httpx.Response:
    """POST ``body`` as JSON with every non-ASCII character escaped (a lone surrogate too)."""
    return client.post(path, content=json.dumps(body), headers={"Content-Type": "application/json"})


def _refused(reply: httpx.Response, *status: int) -> dict[str, Any]:
    assert reply.status_code in status, (reply.status_code, reply.text)
    body: dict[str, Any] = reply.json()
    assert body["error"] and body["message"]
    return body


# -- 2. names ---------------------------------------------------------------------------

BAD_NAMES = [
    "alice\n",  # re.match's $ matched before a trailing newline
    "a" * 24 + "\n",  # and 25 characters went to a VARCHAR(24): HTTP 500 on PostgreSQL
    "bob\x00",  # PostgreSQL stores no NUL
    "\ud800bob",  # a lone surrogate: no UTF-8 for the database driver
    "ab",
    "a" * 25,
    " carol",
    "dävid",
    "ｅｖｅ",  # fullwidth letters
    "robert'); DROP TABLE web_users;--",
]


def test_names_are_checked_whole_and_unique_whatever_their_case(server: ServerProcess) -> None:
    """``"alice\\n"`` registered beside ``"alice"``; on PostgreSQL 24 characters and a
    newline were an HTTP 500; ``Case``, ``case`` and ``CASE`` were three accounts. Now
    a bad name (or password) gets a clear 4xx from register and login on either
    database, and a name is one account whatever its case, shown as registered."""
    with httpx.Client(base_url=server.url) as client:
        assert client.post(
            "/api/register", json={"name": "alice", "password": "pw-alice!"}
        ).is_success
        for name in BAD_NAMES:
            body = {"name": name, "password": "long enough"}
            _refused(_post(client, "/api/register", body), 400)
            _refused(_post(client, "/api/login", body), 400, 401)
        for password in ("\ud800 long enough", "x" * 129):
            body = {"name": "pat_pw", "password": password}
            _refused(_post(client, "/api/register", body), 400)
            _refused(_post(client, "/api/login", {"name": "alice", "password": password}), 400, 401)
        first = client.post("/api/register", json={"name": "Case", "password": "case pass"})
        assert first.json()["name"] == "Case"
        for other in ("case", "CASE", "cASe"):
            refused = _refused(
                client.post("/api/register", json={"name": other, "password": "other pass"}), 400
            )
            assert "taken" in refused["message"]
        client.post("/api/logout", json={})
        again = client.post("/api/login", json={"name": "CASE", "password": "case pass"})
        assert again.status_code == 200 and again.json()["name"] == "Case"
        assert client.get("/api/me").json()["name"] == "Case"
        _refused(client.post("/api/login", json={"name": "case", "password": "other pass"}), 401)
