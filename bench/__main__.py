"""``make bench``: run every benchmark in this folder and print its figures.

Each ``bench/bench_*.py`` has ``main(quick: bool) -> None``; each measures its
target and, in the same run, a simple baseline, and prints the ratio.
``python -m bench NAME`` runs one (``exact``, ``simulate``, ...); ``--quick``
sizes them down.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
import time
from pathlib import Path


def main(argv: list[str]) -> int:
    quick = "--quick" in argv
    wanted = [arg for arg in argv if not arg.startswith("-")]
    here = Path(__file__).parent
    names = sorted(m.name for m in pkgutil.iter_modules([str(here)]) if m.name.startswith("bench_"))
    if "--help" in argv or "-h" in argv:
        print(
            __doc__.strip()
            + "\n\nBenchmarks: "
            + ", ".join(n.removeprefix("bench_") for n in names)
        )
        return 0
    unknown = set(wanted) - {n.removeprefix("bench_") for n in names}
    if unknown:
        print(f"bench: no benchmark {', '.join(sorted(unknown))} (see --help)", file=sys.stderr)
        return 2
    if wanted:
        names = [n for n in names if n.removeprefix("bench_") in wanted]
    sys.path.insert(0, str(here.parent))
    for name in names:
        print(f"== {name.removeprefix('bench_')} ==", flush=True)
        start = time.perf_counter()
        importlib.import_module(f"bench.{name}").main(quick)
        print(f"   ({time.perf_counter() - start:.1f} s)\n", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
