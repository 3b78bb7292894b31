"""What each coup pays, for the compiled loop: a table by coup key, from `baccara.bets`.

A coup key (`baccara.sim._kernels.key_of`) is its totals, draws and pair kinds; every
bet the simulator offers is settled by it alone, so one real coup of each key stands
for all of them.
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import cache, lru_cache
from typing import Any

import numpy as np

from baccara import deal
from baccara.bets import BetKind, payout, settle
from baccara.cards import RANKS, SUITS, Card
from baccara.coup import Coup
from baccara.shoe import ShoeSettings
from baccara.sim import _kernels as kernels
from baccara.variants import Variant

__all__ = ["burn_counts", "pay_table", "settle_net"]


def _hand(total: int, kind: int, suit: int) -> list[Card] | None:
    """Two cards making ``total`` with pair kind ``kind`` (0 none, 1 pair, 2 suited pair)."""
    if kind == 0:
        ranks = [RANKS[9], RANKS[10] if total == 0 else RANKS[(total or 10) - 1]]
        return [Card(rank=r, suit=SUITS[suit]) for r in ranks]
    for value in range(10):
        if 2 * value % 10 == total:
            rank = RANKS[(value or 10) - 1]
            other = SUITS[suit] if kind == 2 else SUITS[(suit + 1) % 4]
            return [Card(rank=rank, suit=SUITS[suit]), Card(rank=rank, suit=other)]
    return None


@cache
def _representatives() -> dict[int, Coup]:
    """A real coup for every reachable key (the tableau decides which keys exist)."""
    by_end: dict[int, list[tuple[int, int, int, int]]] = {}
    for p2 in range(10):
        for b2 in range(10):
            for v5 in range(10):
                for v6 in range(10):
                    end = int(kernels.OUTCOME[deal.ending_index(p2, b2, v5, v6)])
                    by_end.setdefault(end, []).append((p2, b2, v5, v6))
    found: dict[int, Coup] = {}
    for end, combos in by_end.items():
        p_total, b_total, p_drew, b_drew = end // 40, (end // 4) % 10, (end >> 1) & 1, end & 1
        for pk in range(3):
            for bk in range(3):
                for p2, b2, v5, v6 in combos:
                    player, banker = _hand(p2, pk, 0), _hand(b2, bk, 2)
                    if player is None or banker is None:
                        continue
                    hands = {deal.Side.PLAYER: iter(player), deal.Side.BANKER: iter(banker)}
                    first = [next(hands[side]) for side in deal.FIRST_CARDS]
                    rest = [
                        Card(rank=RANKS[(v or 10) - 1], suit=SUITS[i])
                        for v, i in ((v5, 1), (v6, 3))
                    ]
                    coup = Coup.from_deal([*first, *rest][: 4 + p_drew + b_drew])
                    key = kernels.key_of(p_total, b_total, p_drew, b_drew, pk, bk)
                    found[key] = coup
                    break
    return found


@cache
def pay_table(
    variant: Variant, bets: tuple[BetKind, ...]
) -> tuple[np.ndarray[Any, np.dtype[np.int32]], int]:
    """``(table, D)``: ``table[key, i]`` is bet ``i``'s net per unit stake times ``D``.

    Derived from `baccara.bets.payout` on one real coup of each key.

    >>> from baccara.variants import PUNTO_BANCO
    >>> table, d = pay_table(PUNTO_BANCO, (BetKind.BANKER, BetKind.TIE))
    >>> banker_seven = kernels.key_of(6, 7, 0, 0, 0, 0)  # Banker wins 7 to 6
    >>> d, table[banker_seven].tolist(), table[kernels.key_of(5, 5, 1, 1, 0, 0)].tolist()
    (20, [19, -20], [0, 160])
    """
    coups = _representatives()
    ratios: dict[int, list[Fraction]] = {
        key: [payout(kind, coup, variant).ratio for kind in bets] for key, coup in coups.items()
    }
    denominator = math.lcm(1, *(r.denominator for row in ratios.values() for r in row))
    table = np.zeros((kernels.NKEYS, len(bets)), dtype=np.int32)
    for key, row in ratios.items():
        table[key] = [int(r * denominator) for r in row]
    table.setflags(write=False)
    return table, denominator


def burn_counts(settings: ShoeSettings) -> np.ndarray[Any, np.dtype[np.int64]]:
    """How many cards a first card of each point value burns, as `Shoe.burn` does."""
    return np.array(
        [settings.ten_burns, settings.ace_burns, *range(2, 10)] if settings.burn else [0] * 10,
        dtype=np.int64,
    )


@lru_cache(maxsize=65536)
def settle_net(kind: BetKind, amount: int, key: int, variant: Variant) -> int:
    """`baccara.bets.settle`'s net for a coup of this key (on the key's own coup)."""
    return settle(kind, amount, _representatives()[key], variant).net
