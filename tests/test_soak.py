"""A soak (`bench.bench_soak`), 45 s in CI and five minutes with ``--slow``: simulated people at
a Punto Banco, a Chemin de Fer and a Baccarat Banque table (one server process each)
join, bet, decide, pass, leave and come back, add chips, go idle and sit out, drop their
connection and reconnect; then everybody walks away, some leaving chips seated.

Every table played; nothing was written while nobody was there; each player who asked
to leave had the chips back within a coup (a few seconds at these timings: before,
"leaves at the end of the shoe", never with one player left); the books balance. The
CPU figures are the benchmark's to print, not a test's to assert.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow
@pytest.mark.early
def test_people_play_then_walk_away(full_size: bool) -> None:
    minutes, idle = (5.0, 60.0) if full_size else (0.75, 20.0)
    # in a process of its own, as the benchmark runs: its many clients stay out of this one
    run = [sys.executable, "-m", "bench.bench_soak", str(minutes), str(idle)]
    done = subprocess.run(run, cwd=ROOT, capture_output=True, text=True, timeout=900)
    print(done.stdout.strip().splitlines()[-1] if done.stdout.strip() else "")  # the figures
    assert done.returncode == 0, done.stderr[-3000:]
    got = json.loads(done.stdout.strip().splitlines()[-1])
    for table, seen in got.items():
        assert seen["books_balanced"], table
        assert seen["coups"] > 0, (table, seen)
        assert seen["rows_per_minute_idle"] == 0, (table, seen)
    for table in ("c1", "b1"):
        seen = got[table]
        assert seen["decisions"] > 0 and seen["leaves"] > 0, (table, seen)
        assert seen["longest_chips_back"] < 15, (table, seen)  # a coup, at these timings
