"""Revocation: how long an open socket lives after its session ends (issue 23).

Players hold a socket each at a table; each then excludes itself over HTTP, and the
time from the exclusion's answer to the socket's close is measured (the target: within
a second). On SQLite one process; on PostgreSQL (when BACCARA_TEST_POSTGRES_URL is
set) two, the sockets on one and the exclusions made on the other, and then the
house's suspension from the command line (a third process) for a socket on each,
timed from the command's start (the sockets close before it has exited), beside the
same command refused (no such player) from its start to its exit.
Baseline in the same run: a ping's round trip on the same sockets.
"""

from __future__ import annotations

import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

import httpx
from tests.support.harness import Player, ServerProcess
from tests.support.services import private_schema

from baccara.server.app import ServerConfig


def _config(url: str) -> ServerConfig:
    return ServerConfig(
        database_url=url, tables=("t1=punto-banco",), logins_per_minute=60_000, share_seconds=0.0
    )


async def _closed(player: Player) -> float:
    """When (monotonic) the server closed ``player``'s socket."""
    from websockets.exceptions import ConnectionClosed

    with_error = False
    try:
        while True:
            message = json.loads(await player.ws.recv())
            with_error = with_error or message.get("type") == "error"
    except ConnectionClosed:
        assert with_error, "closed without saying why"
        return time.monotonic()


async def _ping(player: Player) -> float:
    start = time.monotonic()
    await player.send({"type": "ping"})
    await player.expect(lambda m: m["type"] == "pong")
    return time.monotonic() - start


async def _exclusions(
    home: ServerProcess, other: ServerProcess, count: int
) -> tuple[list[float], list[float]]:
    players = [Player(home, f"rv{uuid.uuid4().hex[:8]}") for _ in range(count)]
    for player in players:
        await player.register()
        await player.join("t1")
    pings = [await _ping(p) for p in players]
    waits = []
    async with httpx.AsyncClient(base_url=other.url) as client:
        for player in players:
            closing = asyncio.create_task(_closed(player))
            client.cookies.set("baccara_session", player.token)
            reply = await client.post(
                "/api/me/exclusion",
                content=json.dumps({"days": 1}),
                headers={"Content-Type": "application/json"},
            )
            answered = time.monotonic()
            assert reply.status_code == 200, reply.text
            waits.append(await asyncio.wait_for(closing, 10) - answered)
    return waits, pings


async def _command(url: str, name: str) -> int:
    command = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "baccara", "account", "suspend", name, "--db", url,
        stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL,
    )  # fmt: skip
    return await command.wait()


async def _suspensions(
    servers: list[ServerProcess], url: str, count: int
) -> tuple[list[float], list[float]]:
    waits: list[float] = []
    refusals: list[float] = []
    for _ in range(count):
        name = f"sus{uuid.uuid4().hex[:8]}"
        sockets = [Player(server, name) for server in servers]
        await sockets[0].register()
        for player in sockets:
            player.token = sockets[0].token
            await player.join("t1")
        started = time.monotonic()
        assert await _command(url, f"nobody{uuid.uuid4().hex[:8]}") == 2  # refused
        refusals.append(time.monotonic() - started)
        closing = [asyncio.create_task(_closed(p)) for p in sockets]
        started = time.monotonic()  # the sockets close before the command has exited
        assert await _command(url, name) == 0
        waits.extend(t - started for t in await asyncio.wait_for(asyncio.gather(*closing), 10))
    return waits, refusals


def _line(
    what: str, waits: list[float], pings: list[float] | None = None, base: str = "a ping"
) -> str:
    ms = sorted(1e3 * w for w in waits)
    text = f"   {what:<44} close after {statistics.median(ms):6.0f} ms median, {ms[-1]:6.0f} ms max"
    if pings:
        text += f"  (baseline: {base} {1e3 * statistics.median(pings):.1f} ms)"
    return text


def main(quick: bool) -> None:
    count = 5 if quick else 20
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        url = f"sqlite:///{folder / 'revoke.db'}"
        with ServerProcess(_config(url), log=folder / "sqlite.log") as server:
            waits, pings = asyncio.run(_exclusions(server, server, count))
        print(_line("SQLite, one process: self-exclusion", waits, pings), flush=True)
        pg = os.environ.get("BACCARA_TEST_POSTGRES_URL")
        if not pg:
            print("   PostgreSQL: skipped (set BACCARA_TEST_POSTGRES_URL)")
            return
        with private_schema(pg, "rv") as pg_url:
            servers = [ServerProcess(_config(pg_url), log=folder / f"pg{n}.log") for n in (0, 1)]
            for server in servers:
                server.start()
            try:
                waits, pings = asyncio.run(_exclusions(servers[0], servers[1], count))
                print(_line("PostgreSQL, excluded on the other process", waits, pings), flush=True)
                waits, refusals = asyncio.run(_suspensions(servers, pg_url, max(2, count // 4)))
                what, base = (
                    "PostgreSQL, suspended by a command",
                    "the command refused, start to exit",
                )
                print(_line(what, waits, refusals, base), flush=True)
            finally:
                for server in servers:
                    server.stop()
