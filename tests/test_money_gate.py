"""The money gate against real server processes (issue 23, findings 1 to 4).

Every movement of a player's money is one database transaction that takes the player's
lock and checks, inside it, the balance, the table limits and the player's own limits
as stored at that moment: so two sockets on two processes of one PostgreSQL cannot both
spend one wallet, eight sockets of one account cannot pass a daily loss limit together,
a limit cut while a socket is open applies to its next bet, and a revocation
(self-exclusion, logout) closes the sockets already open. The cashier goes through the
same gate: four operators on two processes withdrawing from one wallet at once never
pay more than it holds, nor book deposits past the player's limit.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.support.forker import Forker
from tests.support.harness import Player, ServerProcess
from tests.test_cashier_http import DEPOSIT, JSON, MINE, PASSWORD, WITHDRAWAL, _as, _send

from baccara.db import table_list
from baccara.db.auth import Auth
from baccara.db.ledger import Ledger, wallet_account
from baccara.db.signals import namespace_of
from baccara.db.staff import Role
from baccara.db.table_locks import TableLocks
from baccara.server.app import ServerConfig
from baccara.server.cluster.hall import table_specs

pytestmark = pytest.mark.timeout(240)

WELCOME = 100_000  # 1,000.00: every new player's wallet


def table_specs_of(tables: tuple[str, ...]) -> list[tuple[str, str, bool]]:
    """``--tables`` as the table list stores them (id, variant, squeeze)."""
    return [(spec.id, spec.variant, spec.squeeze) for spec in table_specs(tables)]


def _config(url: str, tables: tuple[str, ...]) -> ServerConfig:
    return ServerConfig(
        database_url=url,
        tables=tables,
        bet_seconds=4.0,
        card_seconds=0.01,
        result_seconds=0.1,
        welcome=WELCOME,
        bets_per_second=1000,
        bet_burst=1000,
        logins_per_minute=60_000,
        decision_seconds=5.0,
        seed_seconds=0.3,
        share_seconds=0.0,
        takeover_seconds=0.2,
    )


@pytest.fixture
def two_processes(
    forker: Forker, database_url: str, tmp_path: Path
) -> Iterator[tuple[ServerProcess, ...]]:
    """On PostgreSQL, two processes: ``c`` (Chemin de Fer) and ``t1`` (Punto Banco) run by
    one, ``b`` (Banque) by the other. On SQLite, one process runs the three."""
    if database_url.startswith("sqlite"):
        tables = ("c=chemin-de-fer", "t1=punto-banco", "b=banque")
        servers: tuple[ServerProcess, ...] = (
            ServerProcess(_config(database_url, tables), log=tmp_path / "one.log", launcher=forker),
        )
    else:
        # The table list is the database's: both processes run it. The first takes its
        # share, c and t1, while the test holds b's lock; the second, started, takes b
        # once the test lets it go (the first's share is full, and b is not overdue).
        tables = ("c=chemin-de-fer", "t1=punto-banco", "b=banque")
        config = replace(_config(database_url, tables), dead_seconds=60.0)
        servers = (
            ServerProcess(config, log=tmp_path / "first.log", launcher=forker),
            ServerProcess(config, log=tmp_path / "second.log", launcher=forker),
        )
    if len(servers) == 2:
        book = Ledger.connect(database_url)
        table_list.seed(book.database, table_specs_of(tables), now=time.time())
        held = TableLocks(book.database, namespace_of(book.database))
        assert held.take(["b"]) == ["b"]
        servers[0].start()
        deadline = time.monotonic() + 30
        while sorted(httpx.get(f"{servers[0].url}/api/health").json()["tables"]) != ["c", "t1"]:
            assert time.monotonic() < deadline, "the first process did not take c and t1"
            time.sleep(0.05)
        servers[1].start()
        held.close()
        book.database.dispose()
    else:
        servers[0].start()
    if len(servers) == 2:  # b is run by the second
        deadline = time.monotonic() + 30
        while httpx.get(f"{servers[1].url}/api/health").json()["tables"] != ["b"]:
            assert time.monotonic() < deadline, "the second process did not take b"
            time.sleep(0.05)
    for server in servers:  # each process knows every table (the others' by their beats)
        deadline = time.monotonic() + 30
        while {"c", "t1", "b"} - {t["id"] for t in httpx.get(f"{server.url}/api/tables").json()}:
            assert time.monotonic() < deadline, "the processes did not hear each other"
            time.sleep(0.05)
    try:
        yield servers
    finally:
        for server in servers:
            server.stop()


def _owner(servers: tuple[ServerProcess, ...], table: str) -> ServerProcess:
    """The process that runs ``table``."""
    for server in servers:
        if table in httpx.get(f"{server.url}/api/health", timeout=5).json()["tables"]:
            return server
    raise AssertionError(f"nobody runs {table}")


def _again(player: Player, server: ServerProcess) -> Player:
    """Another connection of ``player``'s account (the same session) to ``server``."""
    other = Player(server, player.name)
    other.token = player.token
    return other


async def _sit(player: Player, buy_in: int) -> dict[str, Any]:
    """Buy in; the answer: an ``error``, or the state that seats the player."""
    await player.send({"type": "sit", "buy_in": buy_in})
    return await player.expect(
        lambda m: (
            m["type"] == "error"
            or (m["type"] in ("chemin", "banque") and player.name in m["players"])
        )
    )


def _books(url: str) -> tuple[list[str], dict[str, int]]:
    book = Ledger.connect(url)
    try:
        return book.check_invariants(), {}
    finally:
        book.database.dispose()


def _wallet(url: str, name: str) -> int:
    book = Ledger.connect(url)
    try:
        return book.balance(book.create_account(wallet_account(name)))
    finally:
        book.database.dispose()


async def _set_limits(server: ServerProcess, player: Player, body: dict[str, Any]) -> None:
    async with httpx.AsyncClient(base_url=server.url) as client:
        client.cookies.set("baccara_session", player.token)
        reply = await client.post(
            "/api/me/limits",
            content=json.dumps(body),
            headers={"Content-Type": "application/json"},
        )
        assert reply.status_code == 200, reply.text


def test_one_wallet_is_spent_once_across_two_processes(
    two_processes: tuple[ServerProcess, ...], database_url: str
) -> None:
    """Finding 1: the whole wallet bought in at ``c`` and at ``b`` at once, from two
    sockets (on two processes on PostgreSQL): one buy-in is taken, the other refused;
    then the whole wallet bought in at ``b`` and bet at ``t1`` at once: the same."""
    servers = two_processes
    c_home, b_home = _owner(servers, "c"), _owner(servers, "b")

    async def twice_at_once(n: int) -> list[dict[str, Any]]:
        first = Player(c_home, f"twice{n}")
        await first.register()
        second = _again(first, b_home)
        await first.join("c", first="chemin")
        await second.join("b", first="banque")
        answers = await asyncio.gather(_sit(first, WELCOME), _sit(second, WELCOME))
        await first.close()
        await second.close()
        return list(answers)

    async def bet_and_buy(n: int) -> list[dict[str, Any]]:
        first = Player(_owner(servers, "t1"), f"betbuy{n}")
        await first.register()
        second = _again(first, b_home)
        await first.join("t1")
        await second.join("b", first="banque")
        opened = await first.expect(lambda m: m["type"] == "round_open", 30)
        answers = await asyncio.gather(
            first.bet("banker", WELCOME, round=opened["round"]), _sit(second, WELCOME)
        )
        await first.close()
        await second.close()
        return list(answers)

    async def scenario() -> tuple[list[list[dict[str, Any]]], list[list[dict[str, Any]]]]:
        buys = [await twice_at_once(n) for n in range(3)]
        mixed = [await bet_and_buy(n) for n in range(2)]
        return buys, mixed

    buys, mixed = asyncio.run(scenario())
    for n, answers in enumerate(buys):
        refused = [a for a in answers if a["type"] == "error"]
        assert len(refused) == 1, answers
        assert refused[0]["code"] == "insufficient_funds"
        assert _wallet(database_url, f"twice{n}") == 0
    for answers in mixed:
        refused = [a for a in answers if a["type"] == "error"]
        assert len(refused) == 1, answers
        assert refused[0]["code"] == "insufficient_funds"
    assert _books(database_url)[0] == []


def test_chips_added_at_one_table_and_a_buy_in_at_another_spend_the_wallet_once(
    two_processes: tuple[ServerProcess, ...], database_url: str
) -> None:
    """Adding chips to a seat (issue 25) goes through the same gate: seated at ``c`` with
    half the wallet, the player adds the other half at ``c`` and buys in for it at ``b``
    at once (two processes on PostgreSQL): one is taken, the other refused; the seat
    the chips went to says so; leaving then puts everything back."""
    servers = two_processes
    c_home, b_home = _owner(servers, "c"), _owner(servers, "b")
    half = WELCOME // 2

    async def scenario(n: int) -> tuple[list[dict[str, Any]], int]:
        first = Player(c_home, f"addbuy{n}")
        await first.register()
        second = _again(first, b_home)
        await first.join("c", first="chemin")
        assert (await _sit(first, half))["type"] == "chemin"
        await second.join("b", first="banque")

        async def add() -> dict[str, Any]:
            await first.send({"type": "sit", "buy_in": half})
            added = f"{first.name} adds 500.00: 1,000.00 in chips."
            return await first.expect(
                lambda m: m["type"] == "error" or (m["type"] == "chemin" and added in m["news"])
            )

        answers = await asyncio.gather(add(), _sit(second, half))
        for player, kind in ((first, "chemin"), (second, "banque")):
            if kind == "chemin" or answers[1]["type"] == "banque":  # seated: leave, chips back
                await player.send({"type": "leave"})
                await player.expect(
                    lambda m, p=player, k=kind: m["type"] == k and p.name not in m["players"]
                )
        await first.close()
        await second.close()
        return list(answers)

    for n in range(3):
        answers = asyncio.run(scenario(n))
        refused = [a for a in answers if a["type"] == "error"]
        assert [a["code"] for a in refused] == ["insufficient_funds"], answers
    for n in range(3):
        assert _wallet(database_url, f"addbuy{n}") == WELCOME  # every chip back, none made
    assert _books(database_url)[0] == []


def test_a_daily_loss_limit_holds_against_many_sockets_and_processes(
    two_processes: tuple[ServerProcess, ...], database_url: str
) -> None:
    """Finding 2: with a 50.00 limit, eight sockets of one account each bet 50.00 in the
    same moment: one bet is placed; two buy-ins of 40.00 at ``c`` and ``b`` at once, or a
    buy-in and a bet of 40.00 at once: one is taken."""
    servers = two_processes
    t1_home, b_home, c_home = (_owner(servers, t) for t in ("t1", "b", "c"))

    async def eight_bets() -> list[dict[str, Any]]:
        first = Player(t1_home, "eightsock")
        await first.register()
        await _set_limits(t1_home, first, {"loss_limit": "50.00"})
        sockets = [first] + [_again(first, servers[n % len(servers)]) for n in range(1, 8)]
        for player in sockets:
            await player.join("t1")
        opened = await first.expect(lambda m: m["type"] == "round_open", 30)
        answers = await asyncio.gather(
            *(p.bet("banker", 5_000, round=opened["round"]) for p in sockets)
        )
        for player in sockets:
            await player.close()
        return list(answers)

    async def two_buy_ins() -> list[dict[str, Any]]:
        first = Player(c_home, "twobuys")
        await first.register()
        await _set_limits(c_home, first, {"loss_limit": "50.00"})
        second = _again(first, b_home)
        await first.join("c", first="chemin")
        await second.join("b", first="banque")
        answers = await asyncio.gather(_sit(first, 4_000), _sit(second, 4_000))
        await first.close()
        await second.close()
        return list(answers)

    async def buy_and_bet() -> list[dict[str, Any]]:
        first = Player(t1_home, "buybet")
        await first.register()
        await _set_limits(t1_home, first, {"loss_limit": "50.00"})
        second = _again(first, b_home)
        await first.join("t1")
        await second.join("b", first="banque")
        opened = await first.expect(lambda m: m["type"] == "round_open", 30)
        answers = await asyncio.gather(
            first.bet("player", 4_000, round=opened["round"]), _sit(second, 4_000)
        )
        await first.close()
        await second.close()
        return list(answers)

    async def scenario() -> list[list[dict[str, Any]]]:
        return [await eight_bets(), await two_buy_ins(), await buy_and_bet()]

    eight, buys, mixed = asyncio.run(scenario())
    placed = [a for a in eight if a["type"] == "bet_ack"]
    assert len(placed) == 1, eight
    assert {a["code"] for a in eight if a["type"] == "error"} == {"loss_limit"}
    for answers in (buys, mixed):
        refused = [a for a in answers if a["type"] == "error"]
        assert len(refused) == 1 and refused[0]["code"] == "loss_limit", answers
    assert _books(database_url)[0] == []


async def _closed_with(player: Player) -> tuple[dict[str, Any], int | None]:
    """Read until the server closes the socket: its last ``error`` and the close code."""
    from websockets.exceptions import ConnectionClosed

    last: dict[str, Any] = {}
    try:
        while True:
            message = await player.expect(lambda m: m["type"] == "error", 30)
            last = message
    except ConnectionClosed as closed:
        return last, closed.rcvd.code if closed.rcvd is not None else None


def test_a_cut_limit_reaches_the_open_socket(
    two_processes: tuple[ServerProcess, ...], database_url: str
) -> None:
    """Finding 3: a loss limit cut to 10.00 while a socket is open applies to that
    socket's next bet, and again after it joins again."""
    server = _owner(two_processes, "t1")

    async def scenario() -> list[dict[str, Any]]:
        player = Player(server, "cutlimit")
        await player.register()
        await player.join("t1")
        await _set_limits(server, player, {"loss_limit": "10.00"})
        opened = await player.expect(lambda m: m["type"] == "round_open", 30)
        first = await player.bet("banker", 10_000, round=opened["round"])
        await player.send({"type": "join", "table": "t1"})
        await player.expect(lambda m: m["type"] == "snapshot")
        again = await player.bet("banker", 10_000, round=opened["round"])
        small = await player.bet("banker", 1_000, round=opened["round"])
        await player.close()
        return [first, again, small]

    first, again, small = asyncio.run(scenario())
    assert (first["type"], first["code"]) == ("error", "loss_limit")
    assert (again["type"], again["code"]) == ("error", "loss_limit")
    assert small["type"] == "bet_ack"  # 10.00 is within the limit


def test_revocations_close_the_sockets_already_open(
    two_processes: tuple[ServerProcess, ...], database_url: str
) -> None:
    """Finding 4 and the live revocation: a self-exclusion closes every socket of the
    player, on every process (its bets and buy-ins refused meanwhile by the gate); a
    logout closes its session's sockets; a password change the other sessions'; an
    operator's suspension (a command, from another process) every socket."""
    servers = two_processes
    t1_home, b_home = _owner(servers, "t1"), _owner(servers, "b")

    async def post(server: ServerProcess, player: Player, path: str, body: Any) -> httpx.Response:
        async with httpx.AsyncClient(base_url=server.url) as client:
            client.cookies.set("baccara_session", player.token)
            return await client.post(
                path, content=json.dumps(body), headers={"Content-Type": "application/json"}
            )

    async def excluded() -> list[tuple[dict[str, Any], int | None]]:
        house = Player(t1_home, "leaving")
        await house.register()
        players_table = _again(house, b_home)
        await house.join("t1")
        await players_table.join("b", first="banque")
        assert (await post(b_home, house, "/api/me/exclusion", {"days": 7})).status_code == 200
        return [await _closed_with(house), await _closed_with(players_table)]

    async def logged_out() -> tuple[tuple[dict[str, Any], int | None], dict[str, Any]]:
        first = Player(t1_home, "loggingout")
        await first.register()
        other = Player(b_home, "loggingout")  # another device: its own session
        await other.register()
        await first.join("t1")
        await other.join("b", first="banque")
        assert (await post(t1_home, first, "/api/logout", {})).status_code == 200
        closed = await _closed_with(first)
        await other.send({"type": "ping"})
        alive = await other.expect(lambda m: m["type"] == "pong")
        await other.close()
        return closed, alive

    async def new_password() -> tuple[tuple[dict[str, Any], int | None], dict[str, Any]]:
        me = Player(t1_home, "newpass")
        await me.register()
        old_device = Player(b_home, "newpass")
        await old_device.register()
        await me.join("t1")
        await old_device.join("b", first="banque")
        body = {"old": me.password, "new": "a much better password"}
        assert (await post(t1_home, me, "/api/me/password", body)).status_code == 200
        closed = await _closed_with(old_device)
        await me.send({"type": "ping"})
        alive = await me.expect(lambda m: m["type"] == "pong")
        await me.close()
        return closed, alive

    async def suspended() -> list[tuple[dict[str, Any], int | None]]:
        house = Player(t1_home, "suspect")
        await house.register()
        players_table = _again(house, b_home)
        await house.join("t1")
        await players_table.join("b", first="banque")
        done = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "baccara", "account", "suspend", "suspect", "--db", database_url
        )
        assert await done.wait() == 0
        return [await _closed_with(house), await _closed_with(players_table)]

    async def scenario() -> dict[str, Any]:
        return {
            "excluded": await excluded(),
            "logged_out": await logged_out(),
            "new_password": await new_password(),
            "suspended": await suspended(),
        }

    got = asyncio.run(scenario())
    for last, code in got["excluded"]:
        assert (last.get("code"), code) == ("self_excluded", 1008)
    (last, code), alive = got["logged_out"]
    assert (last.get("code"), code, alive["type"]) == ("session_ended", 1008, "pong")
    (last, code), alive = got["new_password"]
    assert (last.get("code"), code, alive["type"]) == ("session_ended", 1008, "pong")
    for last, code in got["suspended"]:
        assert (last.get("code"), code) == ("suspended", 1008)


# -- the cashier: two operators on two processes (PostgreSQL) -----------------------------


def _enrol(url: str) -> None:
    ledger = Ledger.connect(url)
    try:
        auth = Auth(ledger, welcome=WELCOME)
        for n in range(4):
            auth.create_staff(f"op{n}", PASSWORD, Role.OPERATOR, actor="cli")
        auth.register("racer", PASSWORD)
        auth.register("limited", PASSWORD)
    finally:
        ledger.database.dispose()


def test_two_operators_at_once_never_take_more_than_the_wallet(
    two_processes: tuple[ServerProcess, ...], database_url: str
) -> None:
    """Four operators, on two processes on PostgreSQL, each withdraw 300.00 from a
    1,000.00 wallet, five times over at the same moment: three are paid; then deposits
    of 40.00 at once under a 24-hour limit of 100.00: two are booked."""
    servers = two_processes
    _enrol(database_url)

    async def scenario() -> tuple[list[int], list[int]]:
        clients = []
        for n in range(4):
            client = httpx.AsyncClient(base_url=servers[n % len(servers)].url, timeout=30)
            await _as(client, f"op{n}")
            clients.append(client)
        player = httpx.AsyncClient(base_url=servers[0].url)
        reply = await player.post(
            "/api/login", json={"name": "limited", "password": PASSWORD}, headers=JSON
        )
        assert reply.status_code == 200
        assert (await _send(player, "PUT", MINE, {"day": "100.00"})).status_code == 200
        withdrawals = await asyncio.gather(*(
            _send(clients[n % 4], "POST", WITHDRAWAL, {"player": "racer", "amount": "300", "reference": f"w{n}"})
            for n in range(20)
        ))  # fmt: skip
        deposits = await asyncio.gather(*(
            _send(clients[n % 4], "POST", DEPOSIT, {"player": "limited", "amount": "40", "reference": f"d{n}"})
            for n in range(20)
        ))  # fmt: skip
        for client in (*clients, player):
            await client.aclose()
        return [r.status_code for r in withdrawals], [r.status_code for r in deposits]

    paid, booked = asyncio.run(scenario())
    assert sorted(paid) == [200] * 3 + [409] * 17
    assert sorted(booked) == [200] * 2 + [409] * 18
    ledger = Ledger.connect(database_url)
    try:
        assert ledger.balance(ledger.create_account(wallet_account("racer"))) == WELCOME - 90_000
        assert ledger.balance(ledger.create_account(wallet_account("limited"))) == WELCOME + 8_000
        assert ledger.check_invariants() == []
    finally:
        ledger.database.dispose()
