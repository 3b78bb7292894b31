"""Simulator speed: flat-bet main-outcome simulation of 8-deck shoes on every core.

The baseline, in the same run, is a plain Python loop dealing the same shoes
(the same card orders, `baccara.shoe.Shoe.shuffled` with the run's seed) with `baccara.coup.deal_shoe`
on fewer of them; its counts must match the compiled loop's. Targets: at least 50
million hands a second, and at least 80 times the plain loop.
"""

from __future__ import annotations

import os
import time

from baccara.bets import BetKind
from baccara.coup import Result, deal_shoe
from baccara.shoe import Shoe, ShoeSettings
from baccara.sim.simulation import Job, run_chunk, simulate

MAIN = (BetKind.PLAYER, BetKind.BANKER, BetKind.TIE)
SEED = 2026


def _plain(shoes: int) -> tuple[int, dict[Result, int], float]:
    counts = dict.fromkeys(Result, 0)
    hands = 0
    start = time.perf_counter()
    for index in range(shoes):
        for coup in deal_shoe(Shoe.shuffled(ShoeSettings(decks=8), seed=SEED, index=index)):
            counts[coup.winner] += 1
            hands += 1
    return hands, counts, time.perf_counter() - start


def main(quick: bool) -> None:
    cores = os.cpu_count() or 1
    shoes = 100_000 if quick else 1_000_000
    plain_shoes = 100 if quick else 500
    job = Job(shoes=shoes, seed=SEED, settings=ShoeSettings(decks=8), bets=MAIN)
    run_chunk(job, 0, 64)  # load the compiled kernels first
    load = os.getloadavg()[0]
    print(f"   {cores} cores, load average {load:.2f} before the run (other work slows it)")
    best, cpu = None, 0.0
    for _ in range(1 if quick else 3):
        started = time.process_time()
        result = simulate(job, threads=cores)
        if best is None or result.seconds < best.seconds:
            best, cpu = result, time.process_time() - started
    assert best is not None
    fast = best.hands_per_second
    print(
        f"   compiled: {best.hands:,} hands in {best.seconds:.3f} s on "
        f"{cores} threads: {fast / 1e6:.1f} million hands/s "
        f"(best of {1 if quick else 3})"
    )
    print(f"   CPU time of that run: {cpu / best.hands * 1e9:.1f} ns per hand on one core")
    _plain(2)  # and the plain loop's
    hands, counts, seconds = _plain(plain_shoes)
    slow = hands / seconds
    check = simulate(Job(shoes=plain_shoes, seed=SEED, settings=ShoeSettings(decks=8), bets=MAIN))
    same = (check.banker, check.player, check.tie) == (
        counts[Result.BANKER],
        counts[Result.PLAYER],
        counts[Result.TIE],
    )
    print(
        f"   plain Python loop (shoe/coup): {hands:,} hands of the same first {plain_shoes} "
        f"shoes in {seconds:.2f} s: {slow:,.0f} hands/s; same outcomes: {same}"
    )
    print(f"   ratio: {fast / slow:,.0f}x (targets: 50 million hands/s and 80x)")
