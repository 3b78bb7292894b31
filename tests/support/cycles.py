"""Crash cycles: the server killed again and again at its named points, players resending.

One server (`cycle_config`) runs a house-banked table (``cyb``, punto banco) and a
players' table (``cyc``, Chemin de Fer). A cycle:

1. starts the server (a real process on 127.0.0.1, `ServerProcess`; forked by
   `tests.support.forker.Forker` unless ``fork=False``, which only makes the start
   faster). Its start-up recovers what the last kill left: closed rounds dealt from the
   stored shoe and settled, open ones voided, the players' shoe replayed decision by
   decision;
2. the punters reconnect to ``cyb`` and resend every bet they had no answer for, same
   id, same round (as the page does), and one bet they had an answer for with no round
   (as a careless client might: it must be answered as the stored bet, not placed
   again), then bet 1 or 2 times a round; the players at ``cyc`` play by the script of
   `tests.support.scripts` (buying chips again when short);
3. the server dies at the point armed for the cycle, the ``BACCARA_CRASH_AFTER``-th
   time (1 to `AFTER`) it is reached, which may be in the recovery itself (a round
   left closed is settled there); the points rotate (`POINTS`: each once a lap, each
   lap in an order of its own), one cycle a lap killed at a random moment instead
   (`ServerProcess.kill`);
4. the books are checked (`tests.support.books_check.Books`), every ``check_every``
   cycles, and the new part of the server's log is read for tracebacks.

Nothing here waits on a timing to decide a check; a server still alive after `STALL`
seconds is a problem (it never reached its point).

After the last cycle a clean start lets the punters resend what is still unanswered,
plays a round, stops, and checks that nothing is left unanswered or unsettled.
`run_cycles` returns a `Report`: cycles, where the server died (with counts), the time
a cycle takes (and its start), the checks and every problem found.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import sqlalchemy as sa
from tests.support.books_check import Books, Punters
from tests.support.forker import Forker
from tests.support.harness import Player, ServerProcess
from tests.support.scripts import play
from websockets.exceptions import WebSocketException

from baccara.db.database import database_at
from baccara.db.signals import namespace_of
from baccara.db.table_locks import TableLocks
from baccara.server.app import ServerConfig

__all__ = ["POINTS", "Report", "cycle_config", "run_cycles"]

POINTS = (
    "after_debit",
    "bet_debited",
    "settling",
    "mid_deal",
    "decided",
    "after_decision",
    "kill",
)
"""The named points in rotation (``kill``: a SIGKILL at a random moment)."""
AFTER = {
    "after_debit": 6,
    "bet_debited": 3,
    "settling": 2,
    "mid_deal": 2,
    "decided": 8,
    "after_decision": 8,
}
"""The server dies the N-th time it reaches the point, N drawn from 1 to this."""
BANKED, PLAYERS_TABLE = "cyb", "cyc"
PUNTERS = ("cy_pia", "cy_pat", "cy_pol")
CHEMIN = ("cy_cam", "cy_cid", "cy_cor")
WELCOME = 10_000_000
BUY_IN = 30_000
STALL = 60.0
"""A cycle whose server is still alive after this long has stalled (a problem)."""


def cycle_config(url: str) -> ServerConfig:
    """The server of the crash cycles: short rounds, short decisions."""
    return ServerConfig(
        database_url=url,
        tables=(f"{BANKED}=punto-banco", f"{PLAYERS_TABLE}=chemin-de-fer"),
        decks=1,
        bet_seconds=0.4,
        card_seconds=0.02,
        result_seconds=0.05,
        welcome=WELCOME,
        bets_per_second=1000,
        bet_burst=1000,
        logins_per_minute=60_000,
        decision_seconds=2.0,
        seed_seconds=0.2,
        share_seconds=0.0,  # one process: it takes its tables at once
    )


@dataclass
class Report:
    """What a run of crash cycles did and found."""

    database: str
    cycles: int = 0
    kills: Counter[str] = field(default_factory=Counter)
    """Where the server died: the point reached (``kill``: killed at a random moment)."""
    in_recovery: Counter[str] = field(default_factory=Counter)
    """Of those, the deaths inside the start-up's recovery (settling a round the last
    cycle left closed; the next start recovers it again)."""
    armed: Counter[str] = field(default_factory=Counter)
    """How many cycles each point was armed in."""
    point_seconds: Counter[str] = field(default_factory=Counter)
    """The time the cycles armed at each point took, in all."""
    seconds: float = 0.0
    start_seconds: float = 0.0
    check_seconds: float = 0.0
    checks: int = 0
    lock_waits: int = 0
    """Restarts that found the dead server's table locks still held (PostgreSQL)."""
    figures: dict[str, int] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        """The report in words."""
        each = self.seconds / max(self.cycles, 1)
        hits = ", ".join(f"{point} {self.kills[point]}" for point in POINTS)
        armed = self.armed
        times = ", ".join(f"{p} {self.point_seconds[p] / armed[p]:.2f}" for p in POINTS if armed[p])
        recovering = ", ".join(f"{p} {n}" for p, n in sorted(self.in_recovery.items()))
        out = [
            f"{self.cycles} cycles in {self.seconds:.0f} s: {each:.2f} s a cycle "
            f"(start {self.start_seconds / max(self.cycles, 1):.2f} s, "
            f"checks {self.check_seconds / max(self.checks, 1):.3f} s)",
            f"killed at: {hits}" + (f" (in the recovery: {recovering})" if recovering else ""),
            f"seconds a cycle, by point armed: {times}",
            ", ".join(f"{k} {v}" for k, v in self.figures.items()),
            f"checks: {self.checks} run, "
            + ("all passed" if not self.problems else f"{len(self.problems)} problems"),
        ]
        if self.lock_waits:
            out.append(f"restarts that waited for PostgreSQL to free the tables: {self.lock_waits}")
        out.extend(f"PROBLEM {p}" for p in self.problems[:20])
        return out


def run_cycles(
    url: str,
    cycles: int,
    folder: Path,
    *,
    database: str = "",
    seed: int = 0,
    fork: bool = True,
    check_every: int = 1,
    progress: Callable[[Report], None] | None = None,
) -> Report:
    """``cycles`` crash cycles on the database at ``url`` (files in ``folder``)."""
    rng = random.Random(seed)
    report = Report(database=database or url.partition(":")[0])
    punters = Punters(PUNTERS)
    with contextlib.ExitStack() as stack:
        forker = stack.enter_context(Forker(folder / "forker.log")) if fork else None
        process = ServerProcess(cycle_config(url), log=folder / "server.log", launcher=forker)
        process.poll_seconds = 0.02
        stack.callback(process.kill)  # before the forker closes
        players = {name: Player(process, name) for name in (*PUNTERS, *CHEMIN)}
        process.start()
        asyncio.run(_register(players))
        process.stop()
        books = Books(
            url,
            punters,
            deposited=dict.fromkeys(players, WELCOME),
            chips=(PLAYERS_TABLE, CHEMIN),
        )
        stack.callback(books.close)
        cycle = _Cycle(process, players, punters, rng, report, folder)
        stack.callback(cycle.close)
        begun = time.perf_counter()
        laps: list[str] = []
        checked = False  # whether the books were read after the last cycle
        for number in range(cycles):
            if not laps:  # every point once a lap, in an order of its own
                laps = rng.sample(POINTS, len(POINTS))
            point = laps.pop()
            recovering = checked and report.figures.get("rounds closed with bets", 0) > 0
            if recovering and "settling" in laps and rng.random() < 0.5:
                laps[laps.index("settling")] = point  # die inside the recovery's settlement
                point = "settling"
            label = f"cycle {number} ({point})"
            cycle.run(number, point, in_recovery=recovering)
            report.cycles += 1
            _heard(punters, report, label)
            checked = (number + 1) % check_every == 0 or number + 1 == cycles
            if checked:
                cycle.sit = _check(books, report, label)
            report.seconds = time.perf_counter() - begun
            if progress is not None:
                progress(report)
        cycle.finish()
        _heard(punters, report, "at the end")
        _check(books, report, "at the end", final=True)
    return report


def _heard(punters: Punters, report: Report, label: str) -> None:
    """The problems the punters' clients saw in the answers, labelled."""
    report.problems.extend(f"{label}: {p}" for p in punters.problems)
    punters.problems.clear()


def _check(books: Books, report: Report, label: str, *, final: bool = False) -> bool:
    """Check the books; whether the chemin players are short of chips."""
    begun = time.perf_counter()
    problems, report.figures = books.check(final=final)
    report.check_seconds += time.perf_counter() - begun
    report.checks += 1
    seen = {p.partition(": ")[2] for p in report.problems}
    report.problems.extend(f"{label}: {p}" for p in problems if p not in seen)  # first seen
    return report.figures.get("least chips", BUY_IN) < BUY_IN // 3


class _Cycle:
    """Runs one cycle after another on one server process."""

    def __init__(
        self,
        process: ServerProcess,
        players: dict[str, Player],
        punters: Punters,
        rng: random.Random,
        report: Report,
        folder: Path,
    ) -> None:
        self.process = process
        self.players = players
        self.punters = punters
        self.rng = rng
        self.report = report
        self.note = folder / "crash-point"
        self.sit = True  # the chemin players buy chips (at the first cycle, and when short)
        self.log_seen = process.log.stat().st_size
        url = process.config.database_url
        self.locks = database_at(url) if url.startswith("postgresql") else None

    def run(self, number: int, point: str, *, in_recovery: bool = False) -> None:
        """One cycle, the server killed at ``point``. ``in_recovery``: the last cycle
        left a closed round with bets, which the start-up settles before any other (so
        ``settling`` armed for its first time dies inside the recovery)."""
        env: dict[str, str] = {}
        kill_after = None
        after = 0
        if point == "kill":
            kill_after = self.rng.uniform(0.0, 1.2)
        else:
            after = 1 if in_recovery and point == "settling" else self.rng.randint(1, AFTER[point])
            env = {"BACCARA_CRASH_AT": point, "BACCARA_CRASH_AFTER": str(after)}
            env["BACCARA_CRASH_NOTE"] = str(self.note)
        self.note.unlink(missing_ok=True)
        self._wait_for_locks()
        begun = cycle_begun = time.perf_counter()
        try:
            self.process.start(**env)
            started = True
        except RuntimeError:  # it died before it answered (at its point, in the recovery)
            started = False
        self.report.start_seconds += time.perf_counter() - begun
        label = f"cycle {number} ({point})"
        if started:
            try:
                asyncio.run(asyncio.wait_for(self._session(kill_after), STALL))
            except TimeoutError:
                self.report.problems.append(f"{label}: still alive after {STALL} s (stalled)")
                self.process.kill()
        status = self.process.wait_exit(30)
        where = self.note.read_text().split()[0] if self.note.exists() else ""
        if point == "kill" and status == -9:
            where = "kill"
        if status != -9 or where != point:
            self.report.problems.append(
                f"{label}: the server ended with status {status} at {where or 'no point'}"
            )
        if where:
            self.report.kills[where] += 1
            if where == "settling" and in_recovery and after == 1:
                self.report.in_recovery[where] += 1
        self._read_log(label)
        self.report.point_seconds[point] += time.perf_counter() - cycle_begun
        self.report.armed[point] += 1

    async def _session(self, kill_after: float | None) -> None:
        chemin = {name: self.players[name] for name in CHEMIN}
        tasks = [_punter(self.players[name], self.punters, self.rng) for name in PUNTERS]
        tasks.append(
            play(
                chemin, "chemin", sit=self.sit, until_end=False, table=PLAYERS_TABLE, buy_in=BUY_IN
            )
        )
        if kill_after is not None:
            tasks.append(_kill_later(self.process, kill_after))
        await asyncio.gather(*tasks)
        self.sit = False

    def _wait_for_locks(self) -> None:
        """PostgreSQL: wait until the dead server's advisory locks on the tables are free
        (the database frees them when it sees the connection gone); a server started
        before would find its tables run by another process and leave them alone."""
        if self.locks is None:
            return
        table_locks = TableLocks(self.locks, namespace_of(self.locks))
        keys = {table_locks.key(t) for t in (BANKED, PLAYERS_TABLE)}
        query = sa.text("SELECT objid::bigint FROM pg_locks WHERE locktype = 'advisory'")
        deadline = time.monotonic() + 30
        waited = False
        with self.locks.connect() as conn:
            while keys & {int(k) for (k,) in conn.execute(query)}:
                if time.monotonic() > deadline:
                    raise RuntimeError("the dead server's table locks were never freed")
                waited = True
                time.sleep(0.005)
        self.report.lock_waits += waited

    def close(self) -> None:
        """Let the database go."""
        if self.locks is not None:
            self.locks.dispose()

    def _read_log(self, label: str) -> None:
        with self.process.log.open("rb") as log:
            log.seek(self.log_seen)
            text = log.read().decode(errors="replace")
            self.log_seen = log.tell()
        lines = text.splitlines()
        for n, line in enumerate(lines):
            if line.startswith("Traceback"):
                last = next((x for x in lines[n + 1 :] if x and not x.startswith(" ")), "?")
                self.report.problems.append(f"{label}: the server logged {last}")

    def finish(self) -> None:
        """A clean start: the unanswered bets resent and answered, a round played, a stop."""
        self._wait_for_locks()
        self.process.start()
        try:
            asyncio.run(asyncio.wait_for(self._last_round(), STALL))
        finally:
            self.process.stop()
        self._read_log("the last start")

    async def _last_round(self) -> None:
        await asyncio.gather(*(_answered(self.players[n], self.punters) for n in PUNTERS))
        first = self.players[PUNTERS[0]]
        await first.join(BANKED)
        opened = await first.expect(lambda m: m["type"] == "round_open")
        await first.expect(lambda m: m["type"] == "result" and m["round"] == opened["round"])
        await first.close()


async def _register(players: dict[str, Player]) -> None:
    for player in players.values():
        assert await player.register() == WELCOME


async def _kill_later(process: ServerProcess, seconds: float) -> None:
    await asyncio.sleep(seconds)
    process.kill()


async def _punter(player: Player, punters: Punters, rng: random.Random) -> None:
    """A punter's client until the server dies: reconnect, resend, bet every round."""
    with contextlib.suppress(WebSocketException, ConnectionError):
        try:
            snapshot = await player.join(BANKED)
            for bet in punters.mine(player.name, "pending"):  # the page's outbox
                punters.resent += 1
                await player.send(bet.message(with_round=True))
            answered = punters.mine(player.name, "acked")
            if answered:  # a careless resend of a bet already answered: never placed again
                punters.careless += 1
                await player.send(rng.choice(answered[-50:]).message(with_round=False))
            if snapshot["phase"] == "betting" and snapshot["closes_at"] > time.time() + 0.1:
                await _bet(player, punters, rng, int(snapshot["round"]))  # joined mid-round
            while True:
                message = await player.expect(lambda m: True, STALL)
                player.inbox.clear()
                if message["type"] in ("bet_ack", "error") and message.get("bet_id"):
                    punters.answer(player.name, message)
                elif message["type"] == "round_open":
                    await _bet(player, punters, rng, int(message["round"]))
        finally:
            with contextlib.suppress(Exception):
                await player.close()


async def _bet(player: Player, punters: Punters, rng: random.Random, round_id: int) -> None:
    for _ in range(rng.randint(1, 2)):
        bet = punters.new(player.name, round_id, rng)
        await player.send(bet.message(with_round=True))


async def _answered(player: Player, punters: Punters) -> None:
    """Resend every unanswered bet and wait for every answer."""
    await player.join(BANKED)
    waiting = {bet.bet_id for bet in punters.mine(player.name, "pending")}
    for bet in punters.mine(player.name, "pending"):
        punters.resent += 1
        await player.send(bet.message(with_round=True))
    while waiting:
        message = await player.expect(lambda m: m["type"] in ("bet_ack", "error"))
        if message.get("bet_id") in waiting:
            punters.answer(player.name, message)
            waiting.discard(message["bet_id"])
    await player.close()
