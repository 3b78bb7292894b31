"""Crash cycles: the server SIGKILLed and restarted again and again, clients resending.

1,000 cycles (30 with --quick) on SQLite and, when BACCARA_TEST_POSTGRES_URL is set,
PostgreSQL (a private schema), by `tests.support.cycles`: each cycle starts the
server, whose start-up recovers what the last kill left; the punters reconnect, resend
every unanswered bet under its id and bet on, the Chemin de Fer players play; the
server dies at the named point armed (``after_debit``, ``bet_debited``, ``settling``,
``mid_deal``, ``decided``, ``after_decision`` in rotation) or, every seventh cycle, at
a random moment; then the books are checked (the ledger's invariants, the money
deposited, every acked bet booked once, no wallet paid twice). Printed: the cycles,
where the server died (with counts), the time a cycle takes, the checks' result.

Baseline in the same run: a server start from a fresh interpreter
(``python -m tests.support.harness``) against the forked start the cycles use
(`tests.support.forker`), the part of a cycle that made 1,000 of them slow.
"""

from __future__ import annotations

import contextlib
import os
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from tests.support.cycles import Report, cycle_config, run_cycles
from tests.support.forker import Forker
from tests.support.harness import ServerProcess
from tests.support.services import private_schema


def _starts(url: str, folder: Path, fork: bool, times: int = 5) -> float:
    """The median time a server start takes (until ``/api/health`` answers)."""
    with contextlib.ExitStack() as stack:
        forker = stack.enter_context(Forker(folder / "forker.log")) if fork else None
        process = ServerProcess(cycle_config(url), log=folder / "starts.log", launcher=forker)
        process.poll_seconds = 0.02
        taken = []
        for _ in range(times):
            begun = time.perf_counter()
            process.start()
            taken.append(time.perf_counter() - begun)
            process.kill()
    return statistics.median(taken)


def _progress(name: str, total: int) -> Callable[[Report], None]:
    step = max(total // 10, 1)

    def show(report: Report) -> None:
        if report.cycles % step == 0 and report.cycles < total:
            print(
                f"   {name:<10}: {report.cycles} cycles, {report.seconds:.0f} s, "
                f"{len(report.problems)} problems",
                flush=True,
            )

    return show


def main(quick: bool) -> None:
    cycles = 30 if quick else 1_000
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        targets = [("SQLite", f"sqlite:///{folder / 'crash.db'}")]
        pg = os.environ.get("BACCARA_TEST_POSTGRES_URL")
        if pg:
            targets.append(("PostgreSQL", pg))
        else:
            print("   PostgreSQL: skipped (set BACCARA_TEST_POSTGRES_URL)")
        for name, target in targets:
            with contextlib.ExitStack() as stack:
                url = target
                if name == "PostgreSQL":
                    url = stack.enter_context(private_schema(target, "bench"))
                here = folder / name
                here.mkdir()
                report = run_cycles(
                    url, cycles, here, database=name, progress=_progress(name, cycles)
                )
                fresh, forked = _starts(url, here, False), _starts(url, here, True)
            for line in report.lines():
                print(f"   {name:<10}: {line}")
            print(
                f"   {name:<10}: baseline: a server start from a fresh interpreter "
                f"{fresh:.2f} s, forked {forked:.2f} s (ratio {fresh / forked:.1f})",
                flush=True,
            )
