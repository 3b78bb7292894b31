"""Metrics: what recording a bet in the figures costs on the bet path (issue 34, point 8).

A bet acknowledged is counted and its acknowledgement time observed in the multiprocess
files (`baccara.server.infra.metrics.Metrics.bet_acked`: three writes into memory-mapped
files); a refusal is counted by its code. Baseline in the same run: building and
serializing the bet's ``bet_ack``, which the server does for every bet anyway. Then a
scrape's time with the files of four processes. Run in a child process: the
multiprocess mode is chosen once per process.
"""

from __future__ import annotations

import os
import subprocess
import sys
import timeit
from pathlib import Path


def _child(count: int) -> None:
    from baccara.server.infra.metrics import Metrics, fresh_folder
    from baccara.server.wire.protocol import BetAck

    metrics = Metrics(fresh_folder())

    def ack() -> str:
        return BetAck(
            table="t1",
            bet_id="c-17",
            round=88,
            kind="banker",
            amount=2500,
            balance=97_500,
            duplicate=False,
            status="open",
            returned=None,
        ).model_dump_json()

    try:
        for _ in range(3):
            acked = timeit.timeit(lambda: metrics.bet_acked(0.004), number=count) / count
            refused = timeit.timeit(lambda: metrics.bet_refused("too_late"), number=count) / count
            baseline = timeit.timeit(ack, number=count) / count
            print(
                f"   a bet recorded {acked * 1e6:.2f} us, a refusal {refused * 1e6:.2f} us; "
                f"baseline, its bet_ack built and serialized: {baseline * 1e6:.2f} us "
                f"(recording: {acked / baseline:.2f}x the baseline)"
            )
        folder = Path(metrics.folder or "")
        for pid in range(1, 4):  # three more processes' files, as a machine of four has
            for name in ("counter", "histogram", "gauge_liveall", "gauge_livemax"):
                (folder / f"{name}_{pid}.db").write_bytes(
                    (folder / f"{name}_{os.getpid()}.db").read_bytes()
                )
        scrape = timeit.timeit(metrics.exposition, number=50) / 50
        print(f"   a scrape of four processes' files: {scrape * 1e3:.2f} ms")
    finally:
        metrics.close()


def main(quick: bool) -> None:
    count = 20_000 if quick else 200_000
    root = Path(__file__).resolve().parents[1]
    subprocess.run([sys.executable, "-m", "bench.bench_metrics", str(count)], check=True, cwd=root)


if __name__ == "__main__":
    _child(int(sys.argv[1]))
