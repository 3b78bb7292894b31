"""``/metrics`` (issue 34, point 8): the server's figures in Prometheus' text format,
scraped from real server processes after real bets and checked against the database
counted on its own; every process of a machine in one scrape; who may read them; the
Grafana dashboard reads only what the server exports."""

from __future__ import annotations

import asyncio
import json
import os
import re
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from prometheus_client.parser import text_string_to_metric_families
from tests.support.harness import Player, ServerProcess
from tests.test_hardening_http import in_process

from baccara.cli import main
from baccara.db.auth import Auth
from baccara.db.database import database_at
from baccara.db.ledger import Ledger
from baccara.db.staff import Role
from baccara.server.app import ServerConfig, create_app
from baccara.server.infra.metrics import (
    MADE,
    METRIC_NAMES,
    Metrics,
    MetricsFolder,
    fresh_folder,
)

pytestmark = pytest.mark.timeout(240)

TABLE = "m1"
TOKEN = "a-metrics-token-for-the-tests"
PASSWORD = "long password"
DASHBOARD = Path(__file__).resolve().parents[1] / "docs" / "grafana-baccara.json"

Sample = tuple[dict[str, str], float]


def _config(url: str, **changes: Any) -> ServerConfig:
    settings: dict[str, Any] = {
        "database_url": url,
        "tables": (f"{TABLE}=punto-banco",),
        "decks": 1,
        "bet_seconds": 3.0,  # every bet of a round answered within it, on a busy machine
        "card_seconds": 0.01,
        "result_seconds": 0.1,
        "welcome": 100_000,
        "bets_per_second": 1000,
        "bet_burst": 1000,
        "logins_per_minute": 60_000,
        "metrics_token": TOKEN,
        "dead_seconds": 2.0,
        "takeover_seconds": 0.2,
    }
    return ServerConfig(**(settings | changes))


def scrape(server: ServerProcess, **headers: str) -> dict[str, list[Sample]]:
    """Every sample of ``/metrics``, by its name (``baccara_bets_total``, ...)."""
    reply = httpx.get(f"{server.url}/metrics", headers=headers, timeout=10)
    assert reply.status_code == 200, reply.text
    assert reply.headers["content-type"].startswith("text/plain")
    found: dict[str, list[Sample]] = {}
    for family in text_string_to_metric_families(reply.text):
        for sample in family.samples:
            found.setdefault(sample.name, []).append((dict(sample.labels), sample.value))
    return found


def total(samples: dict[str, list[Sample]], name: str, **labels: str) -> float:
    """The sum of ``name``'s samples whose labels include ``labels``."""
    return sum(
        value
        for found, value in samples.get(name, [])
        if all(found.get(k) == v for k, v in labels.items())
    )


def eventually(test: Callable[[], bool], what: str, timeout: float = 15.0) -> None:
    """Wait for ``test()``: a socket closing, a table paused, a round stored are told to the
    figures a moment after the test sees them."""
    deadline = time.monotonic() + timeout
    while not test():
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


def _count(url: str, query: str) -> int:
    database = database_at(url)
    try:
        with database.connect() as conn:
            return int(conn.execute(sa.text(query)).scalar_one())
    finally:
        database.dispose()


BETS_SQL = f"SELECT COUNT(*) FROM bets JOIN rounds ON rounds.id = bets.round_id WHERE rounds.table_id = '{TABLE}'"
SETTLED_SQL = f"SELECT COUNT(*) FROM rounds WHERE table_id = '{TABLE}' AND phase = 'settled'"


async def _play_rounds(players: list[Player], rounds: int) -> Counter[str]:
    """Each player bets in ``rounds`` rounds: two bets each, and one past the wallet
    (refused); every answer counted by its type or refusal's code."""
    answers: Counter[str] = Counter()
    watcher = players[0]

    async def bets(player: Player) -> None:
        for amount in (1_000, 2_000, 10_000_000):
            reply = await player.bet("banker", amount)
            answers[reply["type"] if reply["type"] == "bet_ack" else reply["code"]] += 1

    for _ in range(rounds):
        watcher.inbox.clear()
        await watcher.expect(lambda m: m["type"] == "round_open")
        await asyncio.gather(*(bets(player) for player in players))
        await watcher.expect(lambda m: m["type"] == "result")
    return answers


def test_the_figures_count_what_the_database_holds(database_url: str, tmp_path: Path) -> None:
    server = ServerProcess(_config(database_url), log=tmp_path / "server.log").start()
    try:
        assert server.proc is not None
        pid = str(server.proc.pid)
        first = scrape(server)
        assert first["baccara_open_sockets"] == [({"pid": pid}, 0.0)]
        assert total(first, "baccara_tables", state="open") == 1
        players = [Player(server, f"metrics{n}") for n in range(3)]

        async def scenario() -> Counter[str]:
            for player in players:
                await player.register()
                await player.join(TABLE)
            eventually(
                lambda: scrape(server)["baccara_open_sockets"] == [({"pid": pid}, 3.0)],
                "three sockets open",
            )
            answers = await _play_rounds(players, 3)
            for player in players:
                await player.close()
            return answers

        answers = asyncio.run(scenario())
        eventually(
            lambda: scrape(server)["baccara_open_sockets"] == [({"pid": pid}, 0.0)],
            "the sockets closed",
        )
        acked = answers.pop("bet_ack")
        assert acked == _count(database_url, BETS_SQL) == 18  # 3 rounds, 3 players, 2 bets
        assert sum(answers.values()) == 9, answers  # the bets past the wallet
        figures = scrape(server)
        assert total(figures, "baccara_bets_total", outcome="accepted") == acked
        assert total(figures, "baccara_bets_total", outcome="accepted", code="duplicate") == 0
        refused = {
            labels["code"]: value
            for labels, value in figures["baccara_bets_total"]
            if labels["outcome"] == "refused"
        }
        assert refused == {code: float(n) for code, n in answers.items()}
        assert total(figures, "baccara_bet_ack_seconds_count") == acked
        assert total(figures, "baccara_bet_ack_seconds_bucket", le="+Inf") == acked
        assert 0 < total(figures, "baccara_bet_ack_seconds_sum") < 30 * acked

        def rounds_match() -> bool:  # the table plays on with nobody: read between rounds
            before = _count(database_url, SETTLED_SQL)
            counted = total(
                scrape(server), "baccara_rounds_total", kind="punto-banco", ended="settled"
            )
            return before == counted == _count(database_url, SETTLED_SQL) and counted >= 3

        eventually(rounds_match, "the rounds settled, as stored")
        assert total(figures, "baccara_rounds_total", ended="voided") == 0
        assert [labels for labels, _ in figures["baccara_writer_queue"]] == [{"pid": pid}]
        assert total(figures, "baccara_db_errors_total") == 0
        names = {re.sub(r"_(bucket|count|sum)$", "", name) for name in figures}
        assert set(METRIC_NAMES) <= names, set(METRIC_NAMES) - names
        folder = tmp_path / "server.metrics"  # the harness's, as `baccara serve` makes one
        assert (folder / f"counter_{pid}.db").exists()
    finally:
        server.stop()
    assert not folder.exists()  # its last process stopped: a folder a server made goes


VOIDED_SQL = f"SELECT COUNT(*) FROM rounds WHERE table_id = '{TABLE}' AND phase = 'voided'"


def test_a_round_voided_after_a_crash_and_a_settlement_retried_are_counted(
    tmp_path: Path,
) -> None:
    """Killed with a bet committed in an open round: the next start voids the round (and
    clears the dead process's figures from the folder first); the settlement made to
    fail twice (the crash tests' hook) is two database errors (the writer's), each tried
    again (by the table)."""
    url = f"sqlite:///{tmp_path / 'money.db'}"
    server = ServerProcess(_config(url), log=tmp_path / "server.log")
    player = Player(server, "metricsv")

    async def bet_and_die() -> None:
        await player.register()
        await player.join(TABLE)
        await player.send({"type": "bet", "bet_id": "v1", "kind": "banker", "amount": 1_000})
        assert server.wait_exit(30) == -9  # killed after the bet's commit, before its ack
        await player.close()

    server.start(BACCARA_CRASH_AT="after_debit")
    try:
        asyncio.run(bet_and_die())
        server.start(BACCARA_FAIL_AT="settling", BACCARA_FAIL_TIMES="2")
        figures = scrape(server)
        assert _count(url, VOIDED_SQL) == 1
        assert total(figures, "baccara_rounds_total", ended="voided") == 1
        assert total(figures, "baccara_bets_total") == 0  # the dead process's bet left with it

        async def bet_once() -> None:  # a round with a bet: its settlement is stored
            await player.join(TABLE)
            await player.expect(lambda m: m["type"] == "round_open")
            assert (await player.bet("banker", 1_000))["type"] == "bet_ack"
            await player.expect(lambda m: m["type"] == "result")
            await player.close()

        asyncio.run(bet_once())
        figures = scrape(server)
        assert total(figures, "baccara_db_errors_total", where="writer") == 2
        assert total(figures, "baccara_db_errors_total") == 2  # each failure counted once
        assert total(figures, "baccara_db_retries_total", where="table") == 2
    finally:
        server.stop()


def test_only_the_loopback_or_the_token_reads_them(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'money.db'}"
    with ServerProcess(_config(url), log=tmp_path / "server.log") as server:
        endpoint = f"{server.url}/metrics"
        forwarded = {"X-Forwarded-For": "203.0.113.9"}  # through a proxy: not this machine
        refused = httpx.get(endpoint, headers=forwarded)
        assert refused.status_code == 403
        assert refused.json()["error"] == "metrics_forbidden"
        assert httpx.get(endpoint, headers={"Forwarded": "for=203.0.113.9"}).status_code == 403
        wrong = httpx.get(endpoint, headers={**forwarded, "Authorization": "Bearer nope"})
        assert wrong.status_code == 401
        assert wrong.json()["error"] == "bad_token"
        assert scrape(server, **forwarded, Authorization=f"Bearer {TOKEN}")
        assert scrape(server)  # from the loopback, as Prometheus on the machine asks


def test_the_tables_by_state_follow_the_operator(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'money.db'}"
    with ServerProcess(_config(url), log=tmp_path / "server.log") as server:
        ledger = Ledger.connect(url)
        try:
            Auth(ledger).create_staff("olga", PASSWORD, Role.OPERATOR, actor="cli")
        finally:
            ledger.database.dispose()

        def states() -> dict[str, float]:
            return {labels["state"]: value for labels, value in scrape(server)["baccara_tables"]}

        none = {"open": 0.0, "paused": 0.0, "closing": 0.0, "closed": 0.0}
        assert states() == none | {"open": 1.0}
        with httpx.Client(base_url=server.url, timeout=10) as client:
            login = client.post("/api/login", json={"name": "olga", "password": PASSWORD})
            assert login.status_code == 200, login.text
            for change, state in (("pause", "paused"), ("resume", "open"), ("close", "closed")):
                assert client.post(f"/api/admin/tables/{TABLE}/{change}", json={}).is_success
                eventually(lambda state=state: states() == none | {state: 1.0}, state)
            opened = client.post("/api/admin/tables", json={"id": "m2", "variant": "ez"})
            assert opened.status_code == 201, opened.text
            eventually(lambda: states() == none | {"open": 1.0, "closed": 1.0}, "m2 open")


def test_one_scrape_shows_every_process_of_the_machine(database_url: str, tmp_path: Path) -> None:
    if not database_url.startswith("postgresql"):
        pytest.skip("several processes share a PostgreSQL; SQLite serves one process")
    config = _config(database_url, metrics_dir=str(tmp_path / "metrics"))
    servers = [ServerProcess(config, log=tmp_path / f"server{n}.log") for n in range(2)]
    try:
        for server in servers:
            server.start()
        pids = [str(s.proc.pid) for s in servers]
        players = [Player(server, f"metricsp{n}") for n, server in enumerate(servers)]

        async def scenario() -> Counter[str]:
            for player in players:
                await player.register()
                await player.join(TABLE)
            for server in servers:  # either process answers for both
                eventually(
                    lambda server=server: _by_pid(scrape(server)) == dict.fromkeys(pids, 1.0),
                    "a socket open on each process",
                )
            answers = await _play_rounds(players, 1)  # one table: one process forwards
            for player in players:
                await player.close()
            return answers

        answers = asyncio.run(scenario())
        stored = _count(database_url, BETS_SQL)
        assert answers["bet_ack"] == stored == 4
        for server in servers:
            figures = scrape(server)
            assert total(figures, "baccara_bets_total", outcome="accepted") == stored
            assert total(figures, "baccara_bet_ack_seconds_count") == stored
            assert sorted(labels["pid"] for labels, _ in figures["baccara_writer_queue"]) == sorted(
                pids
            )
        servers[1].kill()  # killed without a word: its live gauges go at the next scrape,
        figures = scrape(servers[0])  # its counts stay in the sums
        assert [labels["pid"] for labels, _ in figures["baccara_open_sockets"]] == [pids[0]]
        assert total(figures, "baccara_bets_total", outcome="accepted") == stored
    finally:
        for server in servers:
            server.stop()


def _by_pid(samples: dict[str, list[Sample]]) -> dict[str, float]:
    return {labels["pid"]: value for labels, value in samples["baccara_open_sockets"]}


def test_a_shared_folder_is_cleared_by_the_first_process_and_the_last(tmp_path: Path) -> None:
    folder = tmp_path / "shared"
    folder.mkdir()  # the operator's: kept
    (folder / "counter_4000000.db").write_bytes(b"an earlier run's")
    first = MetricsFolder(str(folder))
    assert list(folder.glob("*.db")) == []  # nobody used it: cleared
    (folder / "counter_1.db").write_bytes(b"the first process's")
    second = MetricsFolder(str(folder))  # another holder of the lock
    assert [p.name for p in folder.glob("*.db")] == ["counter_1.db"]  # kept
    first.close()
    assert [p.name for p in folder.glob("*.db")] == ["counter_1.db"]  # one still runs
    second.close()
    assert folder.is_dir() and list(folder.glob("*.db")) == []  # the last one out
    made = tmp_path / "made"
    MetricsFolder(str(made)).close()
    assert not made.exists()  # a server made it: removed


def test_a_fresh_folder_left_by_a_killed_process_is_removed_by_the_next(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    dead = tmp_path / "baccara-metrics-dead"  # its process was SIGKILLed: nobody holds it
    dead.mkdir()
    (dead / MADE).touch()
    (dead / "counter_4000000.db").write_bytes(b"figures")
    live = MetricsFolder(fresh_folder())  # a process that runs
    young = tmp_path / "baccara-metrics-young"  # being made by a process starting now
    young.mkdir()
    (young / MADE).touch()
    old = time.time() - 3600
    for folder in (dead, Path(live.path)):
        os.utime(folder, (old, old))
    try:
        made = fresh_folder()
        assert not dead.exists()
        assert Path(live.path).is_dir() and young.is_dir()
        assert Path(made).parent == tmp_path and not Path(made).exists()
    finally:
        live.close()
    assert not Path(live.path).exists()


def test_a_metrics_token_too_short_is_refused_at_start(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    token = tmp_path / "token"
    token.write_text("short\n")
    assert main(["serve", "--metrics-token-file", str(token)]) == 2
    assert "must be one word of 16 characters or more" in capsys.readouterr().err


def test_metrics_in_memory_count_without_a_folder() -> None:
    metrics = Metrics()
    metrics.bet_acked(0.004)
    metrics.bet_answer_text('{"type":"bet_ack","duplicate":true}', 0.2)
    metrics.bet_answer_text('{"type":"error","code":"too_late","bet_id":"b1"}', 0.1)
    metrics.bet_answer_text('{"type":"error","code":"not_joined","bet_id":null}', 0.1)
    metrics.bet_answer_text('{"type":"bets","players":[]}', 0.1)
    samples = {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(metrics.exposition().decode())
        for s in family.samples
    }
    assert samples[("baccara_bets_total", (("code", "ok"), ("outcome", "accepted")))] == 1
    assert samples[("baccara_bets_total", (("code", "duplicate"), ("outcome", "accepted")))] == 1
    assert samples[("baccara_bets_total", (("code", "too_late"), ("outcome", "refused")))] == 1
    assert samples[("baccara_bet_ack_seconds_count", ())] == 2
    assert samples[("baccara_bet_ack_seconds_bucket", (("le", "0.005"),))] == 1


# -- the dashboard -------------------------------------------------------------------------


def _panels(board: dict[str, Any]) -> Iterator[dict[str, Any]]:
    for panel in board["panels"]:
        yield panel
        yield from panel.get("panels", [])


def test_the_grafana_dashboard_reads_only_what_the_server_exports() -> None:
    board = json.loads(DASHBOARD.read_text(encoding="utf-8"))
    assert board["title"] and board["uid"] and isinstance(board["schemaVersion"], int)
    exprs = [
        target["expr"]
        for panel in _panels(board)
        for target in panel.get("targets", [])
        if "expr" in target
    ]
    assert len(exprs) >= 8
    exported = set(METRIC_NAMES)
    named: set[str] = set()
    for expr in exprs:
        assert expr.count("(") == expr.count(")"), expr
        found = {re.sub(r"_(bucket|count|sum)$", "", n) for n in re.findall(r"baccara_\w+", expr)}
        assert found, f"a panel reads no figure of the server: {expr}"
        assert found <= exported, (expr, found - exported)
        named |= found
    assert named == exported  # every figure has a panel
    assert any(re.search(r"rate\(baccara_bets_total(\{[^}]*\})?\[1m\]\)", e) for e in exprs)
    assert {q for e in exprs for q in re.findall(r"histogram_quantile\((0\.\d+)", e)} >= {
        "0.5",
        "0.99",
    }
    for panel in _panels(board):
        if panel.get("type") != "row":
            assert panel["datasource"]["uid"] == "${datasource}", panel["title"]


@pytest.mark.parametrize(
    ("proxies", "headers"),
    [
        (("127.0.0.1",), {}),  # a proxy on the machine that adds no header (nginx's plain pass)
        ((), {"X-Real-IP": "203.0.113.9"}),
        ((), {"Via": "1.1 proxy"}),
    ],
)
def test_a_request_a_proxy_passed_on_needs_the_token(
    tmp_path: Path, proxies: tuple[str, ...], headers: dict[str, str]
) -> None:
    """From the loopback but through a proxy (declared with ``--trusted-proxy``, or
    naming the client in a header of its own): refused without the token, read with it."""
    app = create_app(_config(f"sqlite:///{tmp_path / 'm.db'}", tables=(), trusted_proxies=proxies))
    seen: list[int] = []

    async def scenario(client: httpx.AsyncClient) -> None:
        seen.append((await client.get("/metrics", headers=headers)).status_code)
        bearer = {**headers, "Authorization": f"Bearer {TOKEN}"}
        seen.append((await client.get("/metrics", headers=bearer)).status_code)

    in_process(app, scenario)
    assert seen == [403, 200]
