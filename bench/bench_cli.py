"""The command line: start-up of the commands that need no compiled code, and the CSV
path of ``odds --batch`` (issue 17).

Targets: a command that needs no compiled code answers in under 0.25 s (baseline:
``python -c pass``, the interpreter's own start, in the same run); the CSV path of a
batch within 3x of the ``.npy`` path (read, odds, write; the odds alone are the
floor).
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from .bench_exact import depleted_shoes

COMMANDS = (
    ["--help"],
    ["explain", "P:9h,Kd B:5s,Qc"],
    ["rules"],
    ["deal", "--hands", "5", "--seed", "1"],
    ["roads", "BBPPPBPPBBBBBBBBPBBPPTPBB"],
    ["verify", "--help"],
)
START_TARGET = 0.25
CSV_TARGET = 3.0


def _wall(argv: list[str], runs: int) -> float:
    """Median wall time of ``argv`` over ``runs`` runs, after one to warm the disk cache."""
    times = []
    for n in range(runs + 1):
        start = time.perf_counter()
        subprocess.run(argv, check=True, capture_output=True)
        if n:
            times.append(time.perf_counter() - start)
    return statistics.median(times)


def _startup(runs: int) -> None:
    base = _wall([sys.executable, "-c", "pass"], runs)
    print(f"   baseline python -c pass     : {1e3 * base:6.0f} ms")
    for args in COMMANDS:
        took = _wall([sys.executable, "-m", "baccara", *args], runs)
        verdict = "meets" if took < START_TARGET else "MISSES"
        print(
            f"   baccara {' '.join(args)[:20]:<20}: {1e3 * took:6.0f} ms "
            f"({took / base:4.1f}x the baseline; {verdict} the {1e3 * START_TARGET:.0f} ms target)"
        )


def _batch(shoes: int) -> None:
    from baccara.exact.batch_files import read_batch, write_batch
    from baccara.exact.odds import batch_odds

    comps = depleted_shoes(shoes)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        np.save(folder / "in.npy", comps)
        rows = "\n".join(",".join(map(str, row)) for row in comps.tolist())
        (folder / "in.csv").write_text("c0,c1,c2,c3,c4,c5,c6,c7,c8,c9\n" + rows + "\n")
        batch_odds(comps[:64])  # load the kernels
        write_batch(("x",), np.zeros((1, 1)), folder / "warm.csv")
        took = {}
        for kind in ("npy", "csv"):
            best = float("inf")
            for _ in range(3):
                start = time.perf_counter()
                result = batch_odds(read_batch(folder / f"in.{kind}"))
                write_batch(result.columns, result.values, folder / f"out.{kind}")
                best = min(best, time.perf_counter() - start)
            took[kind] = best
    for kind, seconds in took.items():
        print(
            f"   odds --batch .{kind}: {1e6 * seconds / shoes:6.2f} µs a shoe (read, odds, write)"
        )
    ratio = took["csv"] / took["npy"]
    verdict = "meets" if ratio <= CSV_TARGET else "MISSES"
    print(f"   CSV / npy         : {ratio:.2f}x ({verdict} the {CSV_TARGET:.0f}x target)")


def main(quick: bool) -> None:
    _startup(3 if quick else 9)
    _batch(20_000 if quick else 200_000)
