"""Soak: simulated people at every table kind, as people play, then nobody (issue 25).

One server process per table kind (Punto Banco, Chemin de Fer, Baccarat Banque), each on
its own SQLite file, so that a process's CPU is its table's. People play through the
real protocol at fast timings: they join, bet or decide (sometimes passing, banco,
bidding), leave and come back, add chips, go idle (and sit out), drop their connection
and reconnect, for ``minutes`` (30; ``--quick``: 2). Then everybody walks away, some
leaving their chips seated, and the tables are watched for ``idle`` seconds.

It prints, for each table: the coups played, its CPU while played and while nobody is
there (share of one core), the rows written per minute with nobody there, the longest
a player waited from asking to leave to the chips being back in the wallet, and whether
the books balance. Targets: an idle table under 1% of a core and no rows; chips back
within one coup of asking; books balanced. Baseline in the same run: the same
processes' CPU before anybody came (the server doing nothing).

``python -m bench soak`` (``--quick``: 2 minutes); ``pytest --slow tests/test_soak.py``
runs five minutes and checks the targets.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from tests.support.harness import Player, ServerProcess

from baccara.db.ledger import Ledger
from baccara.server.app import ServerConfig

from .bench_capacity import _cpu_seconds

KINDS = {"t1": "punto-banco", "c1": "chemin-de-fer", "b1": "banque"}
PEOPLE = {"t1": 6, "c1": 4, "b1": 3}
ROWS = ("rounds", "bets", "skill_actions", "table_transactions", "online_shoes")
BUY_IN = 20_000


@dataclass
class Seen:
    """What the people at one table saw."""

    chips_back: list[float] = field(default_factory=list)  # seconds from asking to the wallet
    decisions: int = 0
    bets: int = 0
    drops: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    coups: dict[int, int] = field(default_factory=dict)  # a players' shoe: its coups seen


def _config(folder: Path, table: str) -> ServerConfig:
    return ServerConfig(
        database_url=f"sqlite:///{folder / f'{table}.db'}",
        tables=(f"{table}={KINDS[table]}",),
        decks=1,
        bet_seconds=1.5,
        card_seconds=0.02,
        result_seconds=0.2,
        decision_seconds=1.0,
        seed_seconds=0.5,
        logins_per_minute=60_000,
        bets_per_second=100,
        bet_burst=100,
    )


class Person:
    """One simulated person at one table: plays, and now and then does what people do."""

    def __init__(
        self, server: ServerProcess, table: str, name: str, seed: int, seen: Seen, seconds: float
    ) -> None:
        self.player = Player(server, name)
        # how long they stay before something happens: 15 s to a minute (a short soak: less)
        self.stints = (15.0, 60.0) if seconds >= 300 else (10.0, 25.0)
        self.table, self.seen = table, seen
        self.rng = random.Random(seed)
        self.state: dict[str, Any] = {}
        self.hand: dict[str, Any] = {}
        self.acted: tuple[Any, ...] = ()
        self.leave_asked: float | None = None

    @property
    def name(self) -> str:
        return self.player.name

    async def run(self, until: float) -> None:
        try:
            await self._run(until)
        finally:
            await self._drop()

    async def _run(self, until: float) -> None:
        await self.player.register()
        while time.monotonic() < until:
            await self._drop()  # the last connection, if it is still open
            await self.player.join(
                self.table, first="snapshot" if self.table == "t1" else KINDS_STATE[self.table]
            )
            self.state = self.player.inbox[-1]
            stint = time.monotonic() + self.rng.uniform(*self.stints)
            with contextlib.suppress(Exception):  # a dropped connection ends the stint
                if self.table != "t1":
                    await self._decide(arriving=True)
                await self._play(min(stint, until))
            episode = self.rng.random()
            if time.monotonic() >= until:
                break
            if episode < 0.4:  # the connection drops: back in a moment, where it was
                self.seen.drops += 1
                await self._drop()
                await asyncio.sleep(self.rng.uniform(0.5, 4))
            elif episode < 0.7 and self.table != "t1":  # asks to leave, comes back later
                await self._leave_and_wait()
                await self._drop()
                await asyncio.sleep(self.rng.uniform(2, 10))
            else:  # walks away a while, the page closed
                await self._drop()
                await asyncio.sleep(self.rng.uniform(5, 20))
        await self._walk_away()

    async def _drop(self) -> None:
        if self.player.ws is not None:
            with contextlib.suppress(Exception):
                await self.player.ws.close()

    async def _walk_away(self) -> None:
        """The end: the first of each table and about half the others leave with their
        chips, the rest just close the page."""
        if self.table != "t1" and (self.player.name.endswith("_0") or self.rng.random() < 0.5):
            with contextlib.suppress(Exception):
                await self.player.join(self.table, first=KINDS_STATE[self.table])
                self.state = self.player.inbox[-1]
                await self._leave_and_wait()
        await self._drop()

    async def _leave_and_wait(self) -> None:
        """Ask to leave; the seconds until the chips are in the wallet (the table's state
        no longer seats me)."""
        if self.name not in self.state.get("players", []):
            return
        asked = time.monotonic()
        await self.player.send({"type": "leave"})
        await self.player.expect(
            lambda m: m.get("type") == KINDS_STATE[self.table] and self.name not in m["players"], 60
        )
        self.seen.chips_back.append(time.monotonic() - asked)

    async def _play(self, until: float) -> None:
        idle_until = time.monotonic() + (self.rng.uniform(5, 15) if self.rng.random() < 0.2 else 0)
        while (left := until - time.monotonic()) > 0:
            message = await self.player.expect(lambda m: True, min(left, 30))
            kind = message["type"]
            if kind == "error":
                code = message.get("code", "?")
                self.seen.errors[code] = self.seen.errors.get(code, 0) + 1
                continue
            if time.monotonic() < idle_until:
                continue  # idle: not answering (the players' tables sit him out)
            if kind in ("round_open", "snapshot") and (
                kind == "round_open" or message["phase"] == "betting"
            ):
                await self._bet(message)
            elif kind in ("chemin", "banque"):
                self.state, self.hand = message, {}
                if message.get("shoe"):
                    held = self.seen.coups.get(message["shoe"], 0)
                    self.seen.coups[message["shoe"]] = max(
                        held, len(message["history"]), message["coup"] - 1
                    )
                await self._decide()
            elif kind in ("chemin_hand", "banque_hand"):
                self.hand = message
                await self._decide()

    async def _bet(self, opened: dict[str, Any]) -> None:
        for _ in range(self.rng.choice((0, 1, 1, 2))):
            kind = self.rng.choice(("banker", "player", "player", "tie"))
            amount = self.rng.choice((1_000, 2_500, 5_000))
            await self.player.send(
                {
                    "type": "bet",
                    "bet_id": f"s{self.rng.getrandbits(48):x}",
                    "kind": kind,
                    "amount": amount,
                    "round": opened["round"],
                }
            )
            self.seen.bets += 1

    async def _decide(self, arriving: bool = False) -> None:
        state, me = self.state, self.name
        if me not in state.get("players", []):
            if arriving and self.rng.random() < 0.9:
                await self.player.send({"type": "sit", "buy_in": BUY_IN})
            return
        if me in state.get("away", []):
            await self.player.send({"type": "sit_out", "out": False})
            return
        if state["phase"] == "auction" and not state.get("bids") and state.get("next_bid"):
            if (state["chips"] or {}).get(me, 0) >= state["next_bid"]:
                await self._act(state, "bid", amount=state["next_bid"])
            return
        if state["to_act"] != me:
            if self.rng.random() < 0.01 and (state["chips"] or {}).get(me) is not None:
                await self.player.send({"type": "sit", "buy_in": 2_000})  # more chips
            return
        due = self.hand if self.hand.get("choices") else state
        choices = due.get("choices") or state["choices"]
        if not choices:
            return
        action = self.rng.choice(choices)
        fields: dict[str, Any] = {}
        if action in ("open_bank", "stake", "bid"):
            low, high = state.get("ranges", {}).get(action, [0, 0])
            fields["amount"] = (
                0
                if action == "stake" and self.rng.random() < 0.3
                else self.rng.randint(max(low, min(high, 1_000)), high)
                if high
                else 0
            )
            if self.table == "b1" and action == "stake":
                fields["tableau"] = self.rng.choice("LR")
        await self._act(due, action, **fields)

    async def _act(self, due: dict[str, Any], action: str, **fields: Any) -> None:
        key = (due.get("shoe"), due.get("coup"), due.get("decision"), action)
        if key == self.acted:
            return
        self.acted = key
        await self.player.send(
            {
                "type": "act",
                "action": action,
                **fields,
                "shoe": due.get("shoe") or 0,
                "coup": due.get("coup", 0),
                "decision": due.get("decision", 0),
            }
        )
        self.seen.decisions += 1


KINDS_STATE = {"c1": "chemin", "b1": "banque"}


def _rows(server: ServerProcess) -> int:
    database = sa.create_engine(server.config.database_url)
    try:
        with database.connect() as conn:
            return sum(
                int(conn.execute(sa.text(f"SELECT count(*) FROM {table}")).scalar_one())
                for table in ROWS
            )
    finally:
        database.dispose()


def _coups(server: ServerProcess, table: str, seen: Seen) -> int:
    """The coups played: the house table's settled rounds; at a players' table, those the
    people saw (each shoe's last coup number)."""
    if table != "t1":
        return sum(seen.coups.values())
    database = sa.create_engine(server.config.database_url)
    try:
        with database.connect() as conn:
            query = "SELECT count(*) FROM rounds WHERE coup IS NOT NULL"
            return int(conn.execute(sa.text(query)).scalar_one())
    finally:
        database.dispose()


def _balanced(server: ServerProcess) -> bool:
    book = Ledger.connect(server.config.database_url)
    try:
        return book.check_invariants() == []
    finally:
        book.database.dispose()


async def _people(servers: dict[str, ServerProcess], seen: dict[str, Seen], seconds: float) -> None:
    until = time.monotonic() + seconds
    people = [
        Person(
            servers[table], table, f"soak_{table}_{n}", 1_000 * n + len(table), seen[table], seconds
        )
        for table, count in PEOPLE.items()
        for n in range(count)
    ]
    await asyncio.gather(*(p.run(until) for p in people), return_exceptions=True)


def soak(minutes: float, idle: float) -> dict[str, dict[str, Any]]:
    """Play ``minutes`` then watch ``idle`` seconds with nobody; the figures by table."""
    with tempfile.TemporaryDirectory() as tmp, contextlib.ExitStack() as stack:
        folder = Path(tmp)
        servers = {
            table: stack.enter_context(
                ServerProcess(_config(folder, table), log=folder / f"{table}.log")
            )
            for table in KINDS
        }
        assert all(s.proc is not None for s in servers.values())
        pids = {table: s.proc.pid for table, s in servers.items() if s.proc is not None}
        time.sleep(2.0)
        base = {table: _cpu_seconds(pid) for table, pid in pids.items()}
        quiet = min(15.0, idle / 3)
        time.sleep(quiet)
        baseline = {table: (_cpu_seconds(pid) - base[table]) / quiet for table, pid in pids.items()}
        seen = {table: Seen() for table in KINDS}
        start = {table: _cpu_seconds(pid) for table, pid in pids.items()}
        began = time.monotonic()
        asyncio.run(_people(servers, seen, minutes * 60))
        played = time.monotonic() - began
        playing = {
            table: (_cpu_seconds(pid) - start[table]) / played for table, pid in pids.items()
        }
        time.sleep(min(10.0, idle / 2))  # the coups under way end, the last leaves are paid
        rows = {table: _rows(s) for table, s in servers.items()}
        start = {table: _cpu_seconds(pid) for table, pid in pids.items()}
        time.sleep(idle)
        out = {}
        for table, server in servers.items():
            out[table] = {
                "game": KINDS[table],
                "coups": _coups(server, table, seen[table]),
                "cpu_playing": playing[table],
                "cpu_idle": (_cpu_seconds(pids[table]) - start[table]) / idle,
                "cpu_before": baseline[table],
                "rows_per_minute_idle": (_rows(server) - rows[table]) / idle * 60,
                "longest_chips_back": max(seen[table].chips_back, default=None),
                "leaves": len(seen[table].chips_back),
                "decisions": seen[table].decisions,
                "bets": seen[table].bets,
                "drops": seen[table].drops,
                "errors": seen[table].errors,
                "books_balanced": _balanced(server),
            }
        return out


def main(quick: bool) -> None:
    minutes, idle = (2.0, 60.0) if quick else (30.0, 300.0)
    print(f"{minutes:g} min of people, then {idle:g} s of nobody, one process a table")
    for got in soak(minutes, idle).values():
        back = got["longest_chips_back"]
        print(
            f"  {got['game']:<14} {got['coups']:>5} coups | cpu playing {got['cpu_playing']:6.1%}"
            f" | idle {got['cpu_idle']:6.2%} (before anybody came {got['cpu_before']:6.2%})"
            f" | rows/min idle {got['rows_per_minute_idle']:.1f}"
            f" | longest chips back {'-' if back is None else f'{back:.1f} s'} ({got['leaves']} leaves)"
            f" | books {'balanced' if got['books_balanced'] else 'NOT BALANCED'}"
        )
    print("  targets: idle under 1% of a core, no rows; chips back within one coup; books balanced")


if __name__ == "__main__":  # python -m bench.bench_soak MINUTES IDLE: the figures as JSON
    import sys

    print(json.dumps(soak(float(sys.argv[1]), float(sys.argv[2]))))
