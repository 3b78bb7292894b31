"""Compile the numba kernels once, before the test workers start.

Each of pytest's workers would otherwise compile the kernels it meets for itself (a
minute and more of CPU each, on a fresh clone); compiled here, numba's cache gives them
to every worker in a fraction of a second. Run by ``make test`` (``python -m
tests.support.warm``); it checks nothing.
"""

from __future__ import annotations

import io
import time

import numpy as np

from baccara.cards import full_deck
from baccara.exact.batch_files import write_csv
from baccara.exact.odds import batch_odds, full_shoe, odds
from baccara.exact.theory import price
from baccara.research.gym_vector import PuntoBancoBettorVectorEnv
from baccara.shoe import ShoeSettings
from baccara.sim.shoes import keyed_coups, shoe_coups, simulated_shoe
from baccara.sim.simulation import Job, simulate
from baccara.variants import VARIANTS, Family


def main() -> None:
    started = time.perf_counter()
    simulate(Job(shoes=2, seed=1), threads=1)
    settings = ShoeSettings(decks=8)
    simulated_shoe(1, 0, settings)
    shoe_coups(1, 0, 2, settings)
    keyed_coups(1, 0, 2, settings)
    shoes = np.array([full_shoe(8), full_shoe(1)])
    for variant in VARIANTS.values():
        if variant.family is Family.PUNTO_BANCO:
            odds(full_shoe(8), variant)
            for counts, replacement in ((full_shoe(1), True), ([4] * 13, False)):
                _ = odds(counts, variant, replacement=replacement).outcome_probabilities
            found = batch_odds(shoes, variant)
            batch_odds(shoes, variant, side_bets=False)
            price(full_deck() * 2, variant)  # a coup's theory: the 52 counts by card
    write_csv(io.StringIO(), found.columns, found.values)
    env = PuntoBancoBettorVectorEnv(2)
    env.reset(seed=1)
    env.step(env.action_space.sample())
    print(f"warm: the kernels compiled or loaded in {time.perf_counter() - started:.1f} s")


if __name__ == "__main__":
    main()
