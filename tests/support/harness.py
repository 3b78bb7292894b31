"""Run a server process and drive it like players do (tests, load test, benchmark).

`ServerProcess` starts ``python -m tests.support.harness CONFIG_JSON`` (the app under
uvicorn, on 127.0.0.1 only, holding its SQLite file's lock as ``baccara serve`` does:
`baccara.db.serve_lock`) and waits until it answers; `Player` registers over HTTP
and plays over the WebSocket with the ``websockets`` client. Given a launcher
(`tests.support.forker.Forker`), it has the same server forked from a process that
imported it once, instead (the crash cycles' fast restarts).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import asdict
from pathlib import Path
from typing import Any, Protocol

import httpx

from baccara.server.app import ServerConfig
from baccara.server.wire.protocol import SERVER

__all__ = [
    "Child",
    "CrashPoints",
    "InjectedFault",
    "Launcher",
    "Player",
    "Served",
    "ServerProcess",
    "act",
    "free_port",
]

REPO_ROOT = Path(__file__).resolve().parents[2]
JUMP_VARIABLE = "BACCARA_CLOCK_JUMP"
"""Seconds: the server runs on a `tests.support.clock.JumpingClock` that SIGUSR1 moves on
by as many (`ServerProcess.jump`)."""


def free_port() -> int:
    """A free TCP port on the loopback interface."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Child(Protocol):
    """A running server process as `ServerProcess` handles it (`subprocess.Popen`'s
    calls; -9 as ``returncode`` after SIGKILL)."""

    returncode: int | None

    def poll(self) -> int | None: ...
    def wait(self, timeout: float | None = None) -> int: ...
    def send_signal(self, sig: int) -> None: ...


class Launcher(Protocol):
    """Starts ``python -m tests.support.harness ARGV...`` with ``env``, output to ``log``."""

    def launch(self, argv: list[str], env: dict[str, str], log: Path) -> Child: ...


class ServerProcess:
    """A ``baccara`` server in a child process on 127.0.0.1."""

    poll_seconds = 0.1
    """How often `start` asks ``/api/health`` while the server starts."""

    def __init__(
        self,
        config: ServerConfig,
        *,
        log: Path,
        env: dict[str, str] | None = None,
        launcher: Launcher | None = None,
    ) -> None:
        self.config = config
        self.port = free_port()
        self.log = log
        self.env = env or {}
        self.launcher = launcher
        self.proc: Child | None = None

    @property
    def url(self) -> str:
        """``http://127.0.0.1:PORT``."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        """The WebSocket address."""
        return f"ws://127.0.0.1:{self.port}/ws"

    def start(self, timeout: float = 60.0, **env: str) -> ServerProcess:
        """Start (or restart) the process and wait until ``/api/health`` answers."""
        data = asdict(self.config)
        # the figures' folder, as `baccara serve` has one: the test's, or beside the log
        # (a restart after a kill finds what the dead process left, and clears it)
        data["metrics_dir"] = data["metrics_dir"] or str(self.log.with_suffix(".metrics"))
        environment = {**os.environ, **self.env, **env}
        # ``-m tests.support.harness`` imports from the repository's root
        environment["PYTHONPATH"] = os.pathsep.join(
            filter(None, [str(REPO_ROOT), environment.get("PYTHONPATH")])
        )
        argv = [json.dumps(data), str(self.port)]
        if self.launcher is not None:
            self.proc = self.launcher.launch(argv, environment, self.log)
        else:
            with self.log.open("ab") as out:
                self.proc = subprocess.Popen(
                    [sys.executable, "-m", "tests.support.harness", *argv],
                    stdout=out,
                    stderr=subprocess.STDOUT,
                    env=environment,
                )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited ({self.proc.returncode}): see {self.log}")
            try:
                if httpx.get(f"{self.url}/api/health", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(self.poll_seconds)
        raise RuntimeError(f"the server did not start in {timeout} s: see {self.log}")

    def wait_exit(self, timeout: float = 60.0) -> int:
        """Wait for the process to end (a crash point kills it); return its status."""
        assert self.proc is not None
        return self.proc.wait(timeout)

    def kill(self) -> None:
        """SIGKILL the process (no clean shutdown)."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        """Stop the process cleanly (SIGTERM), or kill it."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.kill()

    def __enter__(self) -> ServerProcess:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def jump(self) -> None:
        """Move the server's clock on by its ``BACCARA_CLOCK_JUMP`` seconds (given in ``env``:
        `tests.support.clock.JumpingClock`): whatever clock runs out within them, runs out."""
        assert self.proc is not None and self.proc.poll() is None
        assert JUMP_VARIABLE in self.env, f"the server was started without {JUMP_VARIABLE}"
        self.proc.send_signal(signal.SIGUSR1)


def act(state: dict[str, Any], action: str, **fields: Any) -> dict[str, Any]:
    """A decision at a players' table, naming the one it answers as ``state`` (the
    table's state message) shows it: its shoe, coup and decision."""
    return {
        "type": "act",
        "action": action,
        **fields,
        "shoe": state.get("shoe") or 0,
        "coup": state.get("coup", 0),
        "decision": state.get("decision", 0),
    }


class Served(Protocol):
    """A server the players reach: a `ServerProcess`, or one in the test's process
    (`tests.support.inprocess.ServerThread`)."""

    @property
    def url(self) -> str: ...
    @property
    def ws_url(self) -> str: ...


class Player:
    """One player: an HTTP session (cookie) and a WebSocket at one table."""

    def __init__(self, server: Served, name: str | None = None) -> None:
        self.server = server
        self.name = name or f"p{uuid.uuid4().hex[:10]}"
        self.password = "pw-" + self.name
        self.token = ""
        self.ws: Any = None
        self.inbox: list[dict[str, Any]] = []
        self.seq = 0
        self.table = ""

    async def register(self) -> int:
        """Register (or log in if the name exists); return the balance. A server too
        busy hashing passwords answers 503: asked again after its ``Retry-After``."""
        body = {"name": self.name, "password": self.password}
        async with httpx.AsyncClient(base_url=self.server.url, timeout=30) as client:
            for path in ("/api/register", "/api/login"):
                while (reply := await client.post(path, json=body)).status_code == 503:
                    await asyncio.sleep(float(reply.headers.get("retry-after", "1")))
                if reply.status_code == 200:
                    break
            reply.raise_for_status()
            self.token = reply.cookies["baccara_session"]
            return int(reply.json()["balance"])

    async def join(
        self,
        table: str,
        *,
        since: int | None = None,
        first: str = "snapshot",
        or_error: bool = False,
    ) -> dict[str, Any]:
        """Open the WebSocket, join ``table`` and return its ``first`` message (the
        snapshot; ``chemin``, the table's state, at a Chemin de Fer table), or with
        ``or_error`` an ``error`` if that comes first."""
        from websockets.asyncio.client import connect

        self.table = table
        self.ws = await connect(
            self.server.ws_url,
            additional_headers={"Cookie": f"baccara_session={self.token}"},
            open_timeout=30,
            close_timeout=1,
            max_queue=None,  # a player the test reads late keeps every message (and its pongs)
        )
        message: dict[str, Any] = {"type": "join", "table": table}
        if since is not None:
            message["since"] = since
        await self.send(message)
        return await self.expect(
            lambda m: m["type"] == first or (or_error and m["type"] == "error")
        )

    async def send(self, message: dict[str, Any] | str) -> None:
        """Send one message (a dict as JSON, a str as it is)."""
        await self.ws.send(message if isinstance(message, str) else json.dumps(message))

    async def expect(
        self, match: Callable[[dict[str, Any]], bool], timeout: float = 30.0
    ) -> dict[str, Any]:
        """Read messages until one matches; all of them go to ``inbox``."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"{self.name}: no matching message in {timeout} s")
            text = await asyncio.wait_for(self.ws.recv(), left)
            message: dict[str, Any] = json.loads(text)
            SERVER.validate_python(message)  # every message the tests see fits the protocol
            if "seq" in message:
                self.seq = max(self.seq, int(message["seq"]))
            self.inbox.append(message)
            if match(message):
                return message

    async def bet(
        self, kind: str, amount: Any, bet_id: str | None = None, **extra: Any
    ) -> dict[str, Any]:
        """Place a bet and return its answer (``bet_ack`` or ``error``)."""
        bet_id = bet_id or uuid.uuid4().hex[:16]
        await self.send({"type": "bet", "bet_id": bet_id, "kind": kind, "amount": amount, **extra})
        return await self.expect(
            lambda m: m["type"] in ("bet_ack", "error") and m.get("bet_id") == bet_id
        )

    async def close(self) -> None:
        """Close the WebSocket."""
        if self.ws is not None:
            await self.ws.close()
            self.ws = None


class InjectedFault(RuntimeError):
    """What `CrashPoints` raises at ``BACCARA_FAIL_AT`` (a write that fails, say)."""


class CrashPoints:
    """The crash tests' fault hook: ``BACCARA_CRASH_AT=name`` SIGKILLs the server the
    ``BACCARA_CRASH_AFTER``-th (default 1st) time it reaches the point ``name``;
    ``BACCARA_FAIL_AT=name`` raises `InjectedFault` there instead, the first
    ``BACCARA_FAIL_TIMES`` (default 1; -1: every) times it is reached. With
    ``BACCARA_CRASH_NOTE=path`` the point and its count go to that file first (a line
    ``name count``), so that a test knows where the process died.

    Points: ``after_debit`` (bet committed, reply not sent), ``bet_debited`` (inside
    the bet transaction), ``settling`` (inside the settlement transaction),
    ``mid_deal`` (after the third card is shown): only rounds with bets reach the last
    two; at a players' table ``decided`` (inside a decision's transaction) and
    ``after_decision`` (stored, not yet shown).
    """

    def __init__(self) -> None:
        self.target = os.environ.get("BACCARA_CRASH_AT")
        self.after = int(os.environ.get("BACCARA_CRASH_AFTER", "1"))
        self.note = os.environ.get("BACCARA_CRASH_NOTE")
        self.hits = 0
        self.fail_at = os.environ.get("BACCARA_FAIL_AT")
        self.fail_times = int(os.environ.get("BACCARA_FAIL_TIMES", "1"))
        self.failed = 0

    def __call__(self, name: str) -> None:
        if name == self.fail_at and (self.fail_times < 0 or self.failed < self.fail_times):
            self.failed += 1
            raise InjectedFault(f"injected failure {self.failed} at {name}")
        if name != self.target:
            return
        self.hits += 1
        if self.hits >= self.after:
            if self.note:
                with open(self.note, "a") as note:
                    note.write(f"{name} {self.hits}\n")
            os.kill(os.getpid(), signal.SIGKILL)


def _main(argv: list[str]) -> None:
    import logging

    import uvicorn

    from baccara.db.serve_lock import hold
    from baccara.server.app import create_app
    from baccara.server.infra.clock import Clock
    from baccara.server.infra.edge import uvicorn_options

    logging.basicConfig(level=logging.WARNING)
    data = json.loads(argv[0])
    data = {key: tuple(value) if isinstance(value, list) else value for key, value in data.items()}
    config = ServerConfig(**data)
    lock = hold(config.database_url, "baccara serve")  # as `baccara serve` does
    clock: Clock | None = None  # the system's
    if step := os.environ.get(JUMP_VARIABLE):
        from tests.support.clock import JumpingClock

        jumping = clock = JumpingClock(float(step))
        signal.signal(signal.SIGUSR1, lambda *_: jumping.jump_soon())
    app = create_app(config, fault=CrashPoints(), clock=clock)
    # The settings of `baccara serve` (no permessage-deflate, proxy headers read by the
    # app from its trusted proxies only, ...).
    uvicorn.run(
        app, host="127.0.0.1", port=int(argv[1]), log_level="warning", **uvicorn_options(config)
    )
    if lock is not None:
        lock.release()


if __name__ == "__main__":
    _main(sys.argv[1:])


@contextlib.contextmanager
def watching(server: Served, table: str) -> Iterator[None]:
    """Someone watching ``table`` (a table nobody watches waits for players): a spectator's
    socket, read on a thread until the block ends."""
    from websockets.sync.client import connect

    name = f"watch{uuid.uuid4().hex[:8]}"
    reply = httpx.post(
        f"{server.url}/api/register", json={"name": name, "password": "watching you"}
    )
    reply.raise_for_status()
    cookie = f"baccara_session={reply.cookies['baccara_session']}"
    with connect(server.ws_url, additional_headers={"Cookie": cookie}, max_size=None) as link:
        link.send(json.dumps({"type": "join", "table": table}))

        def read() -> None:
            with contextlib.suppress(Exception):
                for _ in link:
                    pass

        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        yield
