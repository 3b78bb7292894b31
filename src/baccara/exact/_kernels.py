"""The compiled kernels of `baccara.exact.odds`: the monomial tree walked in numba.

The tables they read (the outcome table from the dealer, the monomial tree) are in
`baccara.exact._tables`; this module re-exports them.

>>> tree = monomial_tree()
>>> len(tree.prefix_depth) + len(tree.leaf_value), len(tree.leaf_value)
(8007, 5005)
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from baccara.exact._tables import (
    CLASS_SHAPE,
    DEAL_CARDS,
    MonomialTree,
    OutcomeTable,
    class_index,
    falling,
    four_card_table,
    monomial_tree,
    outcome_table,
)

__all__ = [
    "CLASS_SHAPE",
    "DEAL_CARDS",
    "MonomialTree",
    "OutcomeTable",
    "SingleKernel",
    "class_index",
    "exact_leaf_products",
    "falling",
    "four_card_table",
    "leaf_monomials",
    "monomial_tree",
    "outcome_table",
    "pair_moments",
    "single_quantities",
]


# -- kernels --------------------------------------------------------------------------


@njit(cache=True, fastmath=True)
def _reduce(table_t: np.ndarray, x: np.ndarray, out: np.ndarray) -> None:  # pragma: no cover
    # out[j] = table_t[j] @ x, four rows at a time, then two, then one.
    n = x.shape[0]
    r = table_t.shape[0]
    j = 0
    while j + 4 <= r:
        r0, r1, r2, r3 = table_t[j], table_t[j + 1], table_t[j + 2], table_t[j + 3]
        s0 = s1 = s2 = s3 = 0.0
        for i in range(n):
            xi = x[i]
            s0 += r0[i] * xi
            s1 += r1[i] * xi
            s2 += r2[i] * xi
            s3 += r3[i] * xi
        out[j], out[j + 1], out[j + 2], out[j + 3] = s0, s1, s2, s3
        j += 4
    while j + 2 <= r:
        r0, r1 = table_t[j], table_t[j + 1]
        s0 = s1 = 0.0
        for i in range(n):
            xi = x[i]
            s0 += r0[i] * xi
            s1 += r1[i] * xi
        out[j], out[j + 1] = s0, s1
        j += 2
    if j < r:
        r0 = table_t[j]
        s0 = 0.0
        for i in range(n):
            s0 += r0[i] * x[i]
        out[j] = s0


@njit(cache=True, fastmath=True, error_model="numpy", boundscheck=False)
def _single(
    c: np.ndarray,
    step: float,
    table_t: np.ndarray,
    ga: np.ndarray,
    gb: np.ndarray,
    run: np.ndarray,
    offsets: np.ndarray,
    out: np.ndarray,
    node: np.ndarray,
) -> None:  # pragma: no cover - compiled
    # Level by level in contiguous blocks (see MonomialTree.group_a), then the
    # reductions over the leaves (table_t's columns in grouped leaf order).
    # step = 1: drawn without replacement (falling factorials); 0: with replacement.
    # Every block through its own zero-based view: LLVM vectorises these loops (with
    # offsets into one array it did not, and the tree took 2.5x as long).
    # node: a work array of offsets[-1] floats, passed in (allocating its 64 KB on
    # every call cost microseconds in page faults).
    node[0] = 1.0
    for d in range(DEAL_CARDS):
        src = node[offsets[d] : offsets[d + 1]]
        dst = node[offsets[d + 1] : offsets[d + 2]]
        runs = run[offsets[d] : offsets[d + 1]]
        o = 0
        for u in range(10):
            a = ga[d, u]
            b = gb[d, u]
            cu = c[u]
            plain = dst[o : o + a]
            for i in range(a):
                plain[i] = src[i] * cu
            o += a
            again = dst[o : o + b - a]
            parent = src[a:b]
            copies = runs[a:b]
            for i in range(b - a):
                again[i] = parent[i] * (cu - copies[i] * step)
            o += b - a
    _reduce(table_t, node[offsets[DEAL_CARDS] :], out)


@njit(cache=True, fastmath=True)
def _odds_single(
    c: np.ndarray,
    step: float,
    table_t: np.ndarray,
    ga: np.ndarray,
    gb: np.ndarray,
    run: np.ndarray,
    offsets: np.ndarray,
    table4_t: np.ndarray,
    coef: np.ndarray,
    out: np.ndarray,
    node: np.ndarray,
) -> None:  # pragma: no cover - compiled
    # Columns: table_t's over the leaves, then table4_t's over the level-4 nodes times
    # (N-4)(N-5) (columns the first four cards settle, see `four_card_table`).
    # Quantities = coef[:, 0] + coef[:, 1:] @ (columns / N(N-1)...(N-5)); after them,
    # the six pair moments of the composition (see `pair_moments`).
    r6 = table_t.shape[0]
    r = r6 + table4_t.shape[0]
    cols = np.empty(r)
    _single(c, step, table_t, ga, gb, run, offsets, cols[:r6], node)
    n = 0.0
    for v in range(10):
        n += c[v]
    if r > r6:
        _reduce(table4_t, node[offsets[4] : offsets[5]], cols[r6:])
        rest = (n - 4.0 * step) * (n - 5.0 * step)
        for j in range(r6, r):
            cols[j] *= rest
    total = 1.0
    for i in range(DEAL_CARDS):
        total *= n - i * step
    q_all = coef.shape[0]
    _pair_moments(c, out[q_all:])
    for q in range(q_all):
        s = coef[q, 0]
        for j in range(r):
            s += coef[q, j + 1] * (cols[j] / total)
        out[q] = s


@njit(cache=True, fastmath=True, error_model="numpy", boundscheck=False)
def _odds_fast(
    c: np.ndarray,
    table_t: np.ndarray,
    table4_t: np.ndarray,
    coef: np.ndarray,
    pays: np.ndarray,
    groups: np.ndarray,
    ints: np.ndarray,
    floats: np.ndarray,
) -> np.ndarray:  # pragma: no cover - compiled
    # `_odds_single`, then the returns of the four pair bets from the moments:
    # pays[i] = (win, lose) of Player Pair, Banker Pair, Either Pair, Perfect Pair.
    # Output i is value slot[i] - 1 of [quantities, pair returns], or minus value
    # -slot[i] - 1 when slot[i] < 0 (edges are minus returns). Packed to save
    # dispatch time: groups = (group_a, group_b), ints = (offsets, slot), floats =
    # (group_run, a work array of the same size).
    ga = groups[:DEAL_CARDS]
    gb = groups[DEAL_CARDS:]
    offsets = ints[: DEAL_CARDS + 2]
    slot = ints[DEAL_CARDS + 2 :]
    run = floats[: offsets[-1]]
    node = floats[offsets[-1] :]
    q = coef.shape[0]
    tmp = np.empty(q + 6)
    _odds_single(c, 1.0, table_t, ga, gb, run, offsets, table4_t, coef, tmp, node)
    n = 0.0
    for v in range(10):
        n += c[v]
    _pair_returns(n, pays, tmp[q:])
    out = np.empty(slot.shape[0])
    _pick(tmp, slot, out)
    return out


@njit(cache=True, fastmath=True)
def _pair_returns(n: float, pays: np.ndarray, tmp: np.ndarray) -> None:  # pragma: no cover
    # tmp: the six pair moments of a shoe of n cards, replaced in its first four
    # places by the returns of Player, Banker, Either and Perfect Pair.
    n2 = n * (n - 1.0)
    n4 = n2 * (n - 2.0) * (n - 3.0)
    s2, sq, s4, t2, tq, t4 = tmp[0], tmp[1], tmp[2], tmp[3], tmp[4], tmp[5]
    one = s2 / n2
    both = (s2 * s2 - sq + s4) / n4
    suited = 2.0 * t2 / n2 - (t2 * t2 - tq + t4) / n4
    probs = (one, one, 2.0 * one - both, suited)
    for i in range(4):
        tmp[i] = probs[i] * pays[i, 0] + (1.0 - probs[i]) * pays[i, 1]


@njit(cache=True)
def _pick(values: np.ndarray, slot: np.ndarray, out: np.ndarray) -> None:  # pragma: no cover
    # out[i] = values[slot[i] - 1], or -values[-slot[i] - 1] when slot[i] < 0.
    for i in range(slot.shape[0]):
        s = slot[i]
        out[i] = values[s - 1] if s > 0 else -values[-s - 1]


@njit(cache=True)
def _split_moments(count: float, parts: int, out: np.ndarray) -> None:  # pragma: no cover
    # Adds sum n(n-1), sum (n(n-1))**2, sum n(n-1)(n-2)(n-3) over ``count`` split evenly.
    q = np.floor(count / parts)
    rem = count - q * parts
    for size, times in ((q + 1.0, rem), (q, parts - rem)):
        two = size * (size - 1.0)
        out[0] += times * two
        out[1] += times * two * two
        out[2] += times * two * (size - 2.0) * (size - 3.0)


@njit(cache=True)
def _pair_moments(c: np.ndarray, out: np.ndarray) -> None:  # pragma: no cover - compiled
    # out[0:3]: moments over ranks (tens and faces split over T J Q K); out[3:6]: over
    # cards (each rank split over the 4 suits). Splits: as even as possible.
    for i in range(6):
        out[i] = 0.0
    q = np.floor(c[0] / 4.0)
    rem = c[0] - 4.0 * q
    for i in range(13):
        n = c[i + 1] if i < 9 else (q + 1.0 if i - 9 < rem else q)
        two = n * (n - 1.0)
        out[0] += two
        out[1] += two * two
        out[2] += two * (n - 2.0) * (n - 3.0)
        _split_moments(n, 4, out[3:])


def pair_moments(counts: np.ndarray) -> np.ndarray:
    """Pair moments of 10 counts by value: over ranks, then over cards (6 floats).

    Each triple is (sum n(n-1), sum (n(n-1))**2, sum n(n-1)(n-2)(n-3)).

    >>> pair_moments(np.array([16.0] + [4.0] * 9)).tolist()
    [156.0, 1872.0, 312.0, 0.0, 0.0, 0.0]
    """
    out = np.empty(6)
    _pair_moments(np.asarray(counts, dtype=np.float64), out)
    return out


@njit(cache=True, fastmath=True)
def _leaves(
    c: np.ndarray,
    step: float,
    p_depth: np.ndarray,
    p_value: np.ndarray,
    p_k: np.ndarray,
    l_start: np.ndarray,
    l_end: np.ndarray,
    l_value: np.ndarray,
    l_k: np.ndarray,
    out: np.ndarray,
) -> None:  # pragma: no cover - compiled
    path = np.empty(DEAL_CARDS)
    path[0] = 1.0
    for node in range(p_depth.shape[0]):
        d = p_depth[node]
        path[d] = path[d - 1] * (c[p_value[node]] - p_k[node] * step)
        if d == DEAL_CARDS - 1:
            for leaf in range(l_start[node], l_end[node]):
                out[leaf] = path[d] * (c[l_value[leaf]] - l_k[leaf] * step)


def _tree_args(tree: MonomialTree) -> tuple[np.ndarray, ...]:
    return (
        tree.prefix_depth,
        tree.prefix_value,
        tree.prefix_k,
        tree.leaf_start,
        tree.leaf_end,
        tree.leaf_value,
        tree.leaf_k,
    )


def single_quantities(
    counts: np.ndarray,
    table_t: np.ndarray,
    table4_t: np.ndarray,
    coef: np.ndarray,
    replacement: bool = False,
) -> np.ndarray:
    """``coef[:, 0] + coef[:, 1:] @ columns / N(N-1)...(N-5)`` for one composition.

    Columns: ``table_t @ monomials(counts)`` (``table_t``: (r6, 5005) in
    `MonomialTree.group_leaf` order), then those of ``table4_t`` ((r4, 715) in
    `MonomialTree.group_four` order, see `four_card_table`).

    Followed by the six `pair_moments` of the composition.
    """
    tree = monomial_tree()
    out = np.empty(coef.shape[0] + 6)
    step = 0.0 if replacement else 1.0
    ga, gb, run, offsets = tree.group_a, tree.group_b, tree.group_run, tree.group_offsets
    node = np.empty(offsets[-1])
    _odds_single(counts, step, table_t, ga, gb, run, offsets, table4_t, coef, out, node)
    return out


class SingleKernel:
    """One shoe's quantities and pair returns, bound to one table (the per-hand path).

    Calling it with 10 counts returns the values ``order`` asks for, as a list: each
    entry ``(i, sign)`` picks value ``i`` of `single_quantities` (without the moments)
    followed by the returns of Player, Banker, Either and Perfect Pair (given ``pays``
    (4, 2): their win and lose pays), times ``sign`` (+1 or -1).
    """

    __slots__ = ("_args",)

    def __init__(
        self,
        table_t: np.ndarray,
        table4_t: np.ndarray,
        coef: np.ndarray,
        pays: np.ndarray,
        order: tuple[tuple[int, int], ...],
    ) -> None:
        tree = monomial_tree()
        slot = np.array([(i + 1) * sign for i, sign in order], dtype=np.int64)
        run = tree.group_run
        self._args: tuple[np.ndarray, ...] = (
            table_t,
            table4_t,
            np.ascontiguousarray(coef),
            np.ascontiguousarray(pays, dtype=np.float64),
            np.vstack([tree.group_a, tree.group_b]),
            np.concatenate([tree.group_offsets, slot]),
            np.concatenate([run, np.empty_like(run)]),  # then a work array (calls hold the GIL)
        )

    def __call__(self, counts: Any) -> list[float]:
        kernel: Any = _odds_fast
        result: list[float] = kernel(np.array(counts, dtype=np.float64), *self._args).tolist()
        return result


def leaf_monomials(counts: np.ndarray, replacement: bool = False) -> np.ndarray:
    """The 5,005 monomials of one composition, in float64."""
    out = np.empty(len(monomial_tree().leaf_value))
    c = np.asarray(counts, dtype=np.float64)
    kernel: Any = _leaves
    kernel(c, 0.0 if replacement else 1.0, *_tree_args(monomial_tree()), out)
    return out


def exact_leaf_products(
    counts: tuple[int, ...], table: np.ndarray, replacement: bool = False
) -> list[int]:
    """``table.T @ monomials(counts)`` in exact integers, for any shoe size.

    With ``replacement`` the monomials are plain powers (cards drawn with replacement).

    Monomials are Python ints; they are split into 30-bit digits so that each
    partial dot product fits in int64 (digit < 2**30, table entry <= 720, 5,005 rows).
    """
    tree = monomial_tree()
    step = 0 if replacement else 1
    factor = [[counts[v] - k * step for k in range(DEAL_CARDS)] for v in range(10)]
    path = [1] * DEAL_CARDS
    mono: list[int] = [0] * len(tree.leaf_value)
    depth, value, kk = (
        tree.prefix_depth.tolist(),
        tree.prefix_value.tolist(),
        tree.prefix_k.tolist(),
    )
    start, end = tree.leaf_start.tolist(), tree.leaf_end.tolist()
    lv, lk = tree.leaf_value.tolist(), tree.leaf_k.tolist()
    for node, d in enumerate(depth):
        path[d] = path[d - 1] * factor[value[node]][kk[node]]
        if d == DEAL_CARDS - 1:
            top = path[d]
            for leaf in range(start[node], end[node]):
                mono[leaf] = top * factor[lv[leaf]][lk[leaf]]
    if any(m < 0 for m in mono):  # pragma: no cover - counts are validated upstream
        raise ValueError("negative monomial: counts must be non-negative")
    bits = max(m.bit_length() for m in mono)
    digits = max(1, -(-bits // 30))
    mask = (1 << 30) - 1
    result = [0] * table.shape[1]
    for i in range(digits):
        part = np.array([(m >> (30 * i)) & mask for m in mono], dtype=np.int64)
        partial = part @ table
        for j, value_j in enumerate(partial.tolist()):
            result[j] += int(value_j) << (30 * i)
    return result
