"""Provably fair shoes: shuffle speed against numpy's shuffle, and the full chi-square test.

The chi-square test counts, over many fair 8-deck shoes, how often each rank lands at
each position (416 x 13 cells) and reports the statistic and its p-value.
"""

from __future__ import annotations

import hashlib
import time

from scipy.stats import chi2

from baccara.cards import full_deck
from baccara.fair import fair_cards
from baccara.shoe import Shoe, ShoeRules


def main(quick: bool) -> None:
    shoes = 2_000 if quick else 20_000
    decks = 8
    size = 52 * decks
    counts = [[0] * 13 for _ in range(size)]
    start = time.perf_counter()
    for number in range(shoes):
        seed = hashlib.sha256(f"bench shoe {number}".encode()).hexdigest()
        for position, card in enumerate(fair_cards(seed, [], decks)):
            counts[position][card.rank.order] += 1
    fair_time = time.perf_counter() - start
    expected = shoes / 13
    stat = sum((c - expected) ** 2 / expected for row in counts for c in row)
    dof = size * 12
    p_value = float(chi2.sf(stat, dof))
    start = time.perf_counter()
    for number in range(shoes):
        Shoe.shuffled(ShoeRules(decks=decks), seed=number)
    base_time = time.perf_counter() - start
    print(f"   fair shoes        : {shoes} x {decks} decks ({len(full_deck()) * decks} cards)")
    print(f"   fair shuffle      : {fair_time / shoes * 1e3:.3f} ms/shoe (HMAC-SHA256 + rejection)")
    print(f"   baseline (numpy)  : {base_time / shoes * 1e3:.3f} ms/shoe (Shoe.shuffled)")
    print(f"   ratio             : {fair_time / base_time:.1f}x slower than numpy")
    print(f"   chi-square        : {stat:.1f} on {dof} dof, p = {p_value:.3f}")
    print(f"   verdict           : {'no bias found' if p_value > 0.001 else 'BIAS (p <= 0.001)'}")
