"""Provably fair shoes: shuffle speed against the seeded shuffle, and the full chi-square test.

The chi-square test counts, over many fair 8-deck shoes, how often each rank lands at
each position (416 x 13 cells). It runs on several independent sets of server seeds and
reports each set's statistic and p-value, then the pooled test over all of them: one
set's p-value alone is a draw from a uniform distribution, so a single small one is
expected now and then.
"""

from __future__ import annotations

import hashlib
import time

import numpy as np
from scipy.stats import chi2

from baccara.fair import fair_cards
from baccara.shoe import Shoe, ShoeSettings

DECKS = 8
SIZE = 52 * DECKS


def _chi_square(counts: np.ndarray, shoes: int) -> tuple[float, float]:
    expected = shoes * (4 * DECKS) / SIZE
    stat = float(((counts - expected) ** 2 / expected).sum())
    return stat, float(chi2.sf(stat, SIZE * 12))


def main(quick: bool) -> None:
    sets, shoes = (1, 2_000) if quick else (4, 20_000)
    pooled = np.zeros((SIZE, 13))
    rows = np.arange(SIZE)
    start = time.perf_counter()
    for label in "ABCD"[:sets]:
        counts = np.zeros((SIZE, 13))
        for number in range(shoes):
            seed = hashlib.sha256(f"bench shoe {label}{number}".encode()).hexdigest()
            ranks = [card.rank.order for card in fair_cards(seed, [], DECKS)]
            counts[rows, ranks] += 1
        stat, p_value = _chi_square(counts, shoes)
        print(
            f"   set {label}: {shoes} shoes   chi-square {stat:.1f} on {SIZE * 12} dof, p = {p_value:.3f}"
        )
        pooled += counts
    fair_time = (time.perf_counter() - start) / (sets * shoes)
    stat, p_value = _chi_square(pooled, sets * shoes)
    start = time.perf_counter()
    for number in range(shoes):
        Shoe.shuffled(ShoeSettings(decks=DECKS), seed=number)
    base_time = (time.perf_counter() - start) / shoes
    print(f"   pooled: {sets * shoes} shoes   chi-square {stat:.1f}, p = {p_value:.3f}")
    print(f"   verdict           : {'no bias found' if p_value > 0.001 else 'BIAS (p <= 0.001)'}")
    print(
        f"   fair shuffle      : {fair_time * 1e3:.3f} ms/shoe (HMAC-SHA256 + rejection, counting)"
    )
    print(f"   baseline (seeded) : {base_time * 1e3:.3f} ms/shoe (Shoe.shuffled, the one shuffle)")
    print(f"   ratio             : {fair_time / base_time:.1f}x the time of the seeded shuffle")
