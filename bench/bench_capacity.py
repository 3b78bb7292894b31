"""Capacity: the most players the online tables hold with the 99th-percentile bet
acknowledgement within 50 ms (issue 16, point 12).

Each player bets once a second while betting is open, at its table (10 players a
table), from a load generator in its own process (`bench.loadgen`); the load is ramped
until p99 passes 50 ms, and the largest load that held is printed, for one server
process and for two (PostgreSQL: two processes share the tables, each player connected
to the process that runs its table, as a table-aware proxy routes), on SQLite and
PostgreSQL; then a thousand players at one table, seven seated and the rest betting
behind. Each step prints the CPU share of each server process, of the database's
processes and of the load generator, out of the machine's cores: where the cores are
the limit, the figures show it. Baseline in the same run: the ledger alone from one
thread, one commit per bet (what the database allows without the server).

``python -m bench capacity`` runs it (``--quick``: a short ramp).
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
from tests.support.enroll import enroll
from tests.support.harness import ServerProcess
from tests.support.services import private_schema

from baccara.server.app import ServerConfig

from .bench_server import ledger_baseline

TARGET = 0.050
PER_TABLE = 10
STEPS = (250, 500, 750, 1000, 1125, 1250, 1375, 1500, 1750, 2000, 2500, 3000)
QUICK_STEPS = (250, 500, 1000)


@dataclass
class Step:
    """One measured load."""

    database: str
    processes: int
    tables: int
    players: int
    result: dict[str, Any]
    cpu: dict[str, float]  # share of one core, by part

    @property
    def p99(self) -> float:
        return float(self.result["p99"] or float("inf"))

    pace: float | None = None  # bets acked a player a second at the ramp's lightest load

    @property
    def rate(self) -> float:
        """Bets acked a player a second."""
        return float(self.result["acked"]) / float(self.result["seconds"]) / self.players

    @property
    def kept_pace(self) -> bool:
        """Whether the tables kept their pace: a server past its limit slows its rounds
        (their deals and settlements take longer), so its players bet less often."""
        return self.pace is None or self.rate >= 0.85 * self.pace

    @property
    def held(self) -> bool:
        done = self.result
        return (
            self.p99 <= TARGET
            and self.kept_pace
            and done["failed"] == 0
            and done["acked"] >= 0.9 * done["sent"] > 0
        )

    def line(self) -> str:
        r = self.result
        cpu = " ".join(f"{k} {v:4.0%}" for k, v in self.cpu.items())
        errors = f" errors {r['errors']}" if r["errors"] else ""
        if not self.kept_pace:
            errors += (
                f" (rounds slowed: {self.rate:.2f} bets a player a second, "
                f"{self.pace or 0:.2f} at first)"
            )
        return (
            f"   {self.database:<10} {self.processes} proc {self.tables:4d} tables "
            f"{self.players:5d} players: {r['acked'] / r['seconds']:6.0f} bets/s acked, "
            f"p50 {1e3 * (r['p50'] or 0):5.1f} ms, p99 {1e3 * self.p99:6.1f} ms "
            f"{'held' if self.held else 'MISSED'} | cpu {cpu}{errors}"
        )


def _cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _postgres_pids() -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError), open(f"/proc/{entry}/comm") as f:
                if f.read().strip() == "postgres":
                    found.append(int(entry))
    return found


def _cpu(parts: dict[str, list[int]]) -> dict[str, float]:
    total = {}
    for name, pids in parts.items():
        seconds = 0.0
        for pid in pids:
            with contextlib.suppress(OSError, ValueError, IndexError):
                seconds += _cpu_seconds(pid)
        total[name] = seconds
    return total


def _config(url: str, tables: int, behind: bool) -> ServerConfig:
    names = ("m1=mini",) if behind else tuple(f"c{n}=punto-banco" for n in range(tables))
    return ServerConfig(
        database_url=url,
        tables=names,
        bet_seconds=8.0,
        card_seconds=0.2,
        result_seconds=1.0,
        bets_per_second=100,
        bet_burst=100,
        welcome=10**9,
        behind=5_000,
    )


def _owners(servers: list[ServerProcess], tables: list[str]) -> dict[str, ServerProcess]:
    """Which process runs each table, once every table runs and the processes share them
    evenly (a process that started late is handed its share, a table at a time)."""
    deadline = time.monotonic() + 90
    while True:
        owners = {}
        counts = []
        for server in servers:
            mine = httpx.get(f"{server.url}/api/health", timeout=10).json()["tables"]
            counts.append(len(mine))
            owners.update(dict.fromkeys(mine, server))
        even = max(counts) - min(counts) <= 1
        if (set(owners) >= set(tables) and even) or time.monotonic() > deadline:
            return owners
        time.sleep(0.2)


def step(
    url: str,
    database: str,
    tokens: dict[str, str],
    players: int,
    processes: int,
    folder: Path,
    *,
    behind: bool = False,
    seconds: float = 20.0,
) -> Step:
    """Run one load: start the servers, the generator, measure, stop."""
    tables = 1 if behind else max(1, players // PER_TABLE)
    config = _config(url, tables, behind)
    servers = [ServerProcess(config, log=folder / f"capacity-{n}.log") for n in range(processes)]
    with ThreadPoolExecutor(processes) as pool:  # started together: they share the tables
        list(pool.map(lambda s: s.start(), servers))
    try:
        ids = [spec.split("=")[0] for spec in config.tables]
        owners = _owners(servers, ids)
        names = list(tokens)[:players]
        plan = {
            "players": [
                {
                    "ws": owners[ids[n % len(ids)]].ws_url,
                    "table": ids[n % len(ids)],
                    "token": tokens[name],
                }
                for n, name in enumerate(names)
            ],
            "pace": 1.0,
            "warmup": 6.0 + players / 400,  # connect everybody, then a round starts
            "seconds": seconds,
        }
        generator = subprocess.Popen(
            [sys.executable, "-m", "bench.loadgen"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            cwd=Path(__file__).resolve().parents[1],
            text=True,
        )
        assert generator.stdin is not None and generator.stdout is not None
        generator.stdin.write(json.dumps(plan))
        generator.stdin.close()
        parts = {f"server{n + 1}": [s.proc.pid] for n, s in enumerate(servers) if s.proc}  # type: ignore[attr-defined]
        parts["load"] = [generator.pid]
        time.sleep(plan["warmup"])
        if database == "PostgreSQL":  # its sessions, opened by now
            parts["database"] = _postgres_pids()
        before, start = _cpu(parts), time.monotonic()
        time.sleep(seconds)
        after, elapsed = _cpu(parts), time.monotonic() - start
        result = json.loads(generator.stdout.read())
        generator.wait(60)
    finally:
        for server in servers:
            server.stop()
    cpu = {name: (after[name] - before[name]) / elapsed for name in parts}
    return Step(database, processes, tables, players, result, cpu)


def ramp(
    url: str,
    database: str,
    tokens: dict[str, str],
    processes: int,
    folder: Path,
    steps: tuple[int, ...],
) -> Step | None:
    """Ramp the players until p99 passes the target; the largest load that held."""
    best = None
    pace = None
    for players in steps:
        if players > len(tokens):
            break
        found = step(url, database, tokens, players, processes, folder)
        found.pace = pace
        pace = pace or found.rate
        print(found.line(), flush=True)
        if not found.held:
            break
        best = found
    return best


@contextlib.contextmanager
def _databases(folder: Path) -> Iterator[list[tuple[str, str]]]:
    found = [("SQLite", f"sqlite:///{folder / 'capacity.db'}")]
    pg = os.environ.get("BACCARA_TEST_POSTGRES_URL")
    with contextlib.ExitStack() as stack:
        if pg:
            found.append(("PostgreSQL", stack.enter_context(private_schema(pg, "cap"))))
        else:
            print("   PostgreSQL: skipped (set BACCARA_TEST_POSTGRES_URL)")
        yield found


def main(quick: bool) -> None:
    steps = QUICK_STEPS if quick else STEPS
    most = max(steps)
    summary: list[str] = []
    with tempfile.TemporaryDirectory() as tmp, _databases(Path(tmp)) as databases:
        folder = Path(tmp)
        for database, url in databases:
            names = [f"cap{uuid.uuid4().hex[:6]}{n}" for n in range(most)]
            tokens = enroll(url, names, balance=10**10)
            held: dict[int, Step | None] = {}
            for processes in (1, 2) if database == "PostgreSQL" else (1,):
                held[processes] = ramp(url, database, tokens, processes, folder, steps)
                best = held[processes]
                summary.append(
                    f"   {database:<10} {processes} process{'es' if processes > 1 else ''}: "
                    + (
                        f"{best.players} players over {best.tables} tables held "
                        f"(p99 {1e3 * best.p99:.1f} ms)"
                        if best
                        else "not even the first load held"
                    )
                )
            if database == "SQLite":
                summary.append("   SQLite     2 processes: SQLite serves one process")
            if held.get(2) and held.get(1):
                ratio = held[2].players / held[1].players  # type: ignore[union-attr]
                summary.append(f"   {database:<10} two processes hold {ratio:.2f}x one (aim 1.5x)")
            players = 1_000 if not quick else 500
            behind = step(url, database, tokens, players, 1, folder, behind=True)
            print(behind.line() + "  (one table: 7 seated, the rest behind)", flush=True)
            summary.append(
                f"   {database:<10} {players} players at one table (behind): p99 "
                f"{1e3 * behind.p99:.1f} ms, {'held' if behind.held else 'MISSED'}"
            )
            base = ledger_baseline(url, 300 if quick else 2000)
            summary.append(f"   {database:<10} baseline: the ledger alone {base:.0f} bets/s")
    print("   -- largest loads within p99 50 ms --")
    for line in summary:
        print(line)
