"""Roads: the cost of one incremental update, against rebuilding the roads every coup."""

from __future__ import annotations

import random
import time

from baccara.coup import Result
from baccara.roads.board import Roads


def _shoes(count: int, seed: int) -> list[list[Result]]:
    rng = random.Random(seed)
    weights = (0.4586, 0.4462, 0.0952)  # Banker, Player, Tie (8 decks)
    results = (Result.BANKER, Result.PLAYER, Result.TIE)
    return [rng.choices(results, weights, k=80) for _ in range(count)]


def main(quick: bool) -> None:
    shoes = _shoes(50 if quick else 1000, seed=4)
    coups = sum(len(shoe) for shoe in shoes)

    start = time.perf_counter()
    for shoe in shoes:
        roads = Roads()
        for result in shoe:
            roads.add(result)
            roads.predictions()
    incremental = (time.perf_counter() - start) / coups

    # baseline: rebuild all five roads from the whole shoe after every coup
    start = time.perf_counter()
    for shoe in shoes[: max(1, len(shoes) // 10)]:
        for n in range(1, len(shoe) + 1):
            Roads.from_results(shoe[:n]).predictions()
    rebuilt = (time.perf_counter() - start) / (80 * max(1, len(shoes) // 10))

    print(f"   {coups} coups of 80-coup shoes")
    print(f"   incremental add + ask road: {incremental * 1e6:8.1f} µs a coup")
    print(f"   rebuild every coup (base):  {rebuilt * 1e6:8.1f} µs a coup")
    print(f"   ratio: {rebuilt / incremental:.1f}x faster")
