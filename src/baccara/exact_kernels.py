"""The machinery behind `baccara.exact`: the outcome table, the monomial tree, the kernels.

Every coup is a sequence of six card values in deal order (P1, B1, P2, B2, then the
next two cards, used or not). Drawn without replacement from ``c`` (counts by value),
a sequence's chance is a product of falling factorials of the counts over
``N (N-1) ... (N-5)``, and it depends only on the sequence's multiset: one of 5,005
monomials ``prod_v c_v (c_v - 1) ... (c_v - m_v + 1)``. So the number of ordered deals
of any outcome is a dot product of a fixed integer table (orderings of each multiset
that give that outcome) with the monomials.

The table is built once by playing all 10**6 value sequences through the rulebook's
tables (`rules.PLAYER_DRAWS`, `rules.BANKER_DRAWS`, `rules.is_natural`); nothing here
re-types the tableau. An outcome *class* is (Player total, Banker total, Player cards,
Banker cards): every bet that looks only at point values is settled by its class.

The monomials share prefixes. Listed as a tree of nondecreasing value sequences
(8,007 nodes), each node is its parent times one factor ``c_v - k``. The batch kernel
walks the tree depth first for a block of compositions at once (one SIMD lane each),
keeping only the path, and folds each leaf into the outcome columns. The single-shoe
kernel computes the tree level by level in contiguous blocks, then one reduction per
column. Exact mode walks the same tree in Python integers.

>>> tree = monomial_tree()
>>> len(tree.prefix_depth) + len(tree.leaf_value), len(tree.leaf_value)
(8007, 5005)
>>> int(outcome_table().counts.sum())
1000000
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np
from numba import njit, prange

from . import rules

__all__ = [
    "CLASS_SHAPE",
    "DEAL_CARDS",
    "MonomialTree",
    "OutcomeTable",
    "SingleKernel",
    "batch_columns",
    "class_index",
    "exact_leaf_products",
    "falling",
    "leaf_monomials",
    "monomial_tree",
    "outcome_table",
    "pair_moments",
    "pair_moments_batch",
    "single_quantities",
]

DEAL_CARDS = 6
"""Cards in one deal sequence (the most a coup uses)."""

CLASS_SHAPE = (10, 10, 2, 2)
"""Outcome class axes: Player total, Banker total, Player drew, Banker drew."""


def _lanes(columns: int) -> int:
    """Compositions per SIMD block in the batch kernel (its arrays stay in L1/L2)."""
    return 512 if columns <= 4 else 256


def class_index(player_total: int, banker_total: int, player_cards: int, banker_cards: int) -> int:
    """Flat index of an outcome class (cards: 2 or 3 per hand).

    >>> class_index(9, 0, 2, 2), class_index(0, 0, 3, 3)
    (360, 3)
    """
    return ((player_total * 10 + banker_total) * 2 + player_cards - 2) * 2 + banker_cards - 2


def falling(n: int, k: int = DEAL_CARDS) -> int:
    """``n (n-1) ... (n-k+1)``, the number of ordered draws of ``k`` cards from ``n``.

    >>> falling(52)
    14658134400
    """
    out = 1
    for i in range(k):
        out *= n - i
    return out


@dataclass(frozen=True, slots=True, kw_only=True)
class MonomialTree:
    """Nondecreasing value sequences in depth-first order.

    Prefix nodes have depth 1 to 5; each node multiplies its parent by
    ``c[value] - k`` (``k``: copies of ``value`` already on the path). Depth-5 nodes own
    the leaves ``leaf_start[i]:leaf_end[i]`` (depth 6, one per 6-card multiset).
    """

    prefix_depth: np.ndarray
    prefix_value: np.ndarray
    prefix_k: np.ndarray
    leaf_start: np.ndarray
    leaf_end: np.ndarray
    leaf_value: np.ndarray
    leaf_k: np.ndarray
    leaf_multiset: np.ndarray  # (5005, 6) sorted values
    leaf_orderings: np.ndarray  # 6! / prod(m_v!) for each leaf
    # The same tree level by level, each level grouped by last value u: the nodes of
    # level d ending in u are the level d-1 nodes ending below u (a prefix of length
    # group_a[d-1, u]) times c_u, then those ending in u (up to group_b[d-1, u]) times
    # c_u - run (run: copies of u they hold). No gathers: every block is contiguous.
    group_a: np.ndarray  # (6, 10)
    group_b: np.ndarray  # (6, 10)
    group_run: np.ndarray  # (8008,) float: copies of its last value in each node
    group_offsets: np.ndarray  # (8,) start of each level in group_run (level 0: root)
    group_leaf: np.ndarray  # (5005,) depth-first leaf index of each grouped leaf


@cache
def monomial_tree() -> MonomialTree:
    """The prefix tree of the 5,005 six-card multisets (built once)."""
    depth: list[int] = []
    value: list[int] = []
    kk: list[int] = []
    start: list[int] = []
    end: list[int] = []
    leaf_value: list[int] = []
    leaf_k: list[int] = []
    leaves: list[tuple[int, ...]] = []

    def walk(path: tuple[int, ...]) -> None:
        low = path[-1] if path else 0
        for v in range(low, 10):
            k = path.count(v)
            if len(path) == DEAL_CARDS - 1:
                leaf_value.append(v)
                leaf_k.append(k)
                leaves.append((*path, v))
                continue
            node = len(depth)
            depth.append(len(path) + 1)
            value.append(v)
            kk.append(k)
            start.append(-1)
            end.append(-1)
            if len(path) + 1 == DEAL_CARDS - 1:
                start[node] = len(leaf_value)
                walk((*path, v))
                end[node] = len(leaf_value)
            else:
                walk((*path, v))

    walk(())
    multisets = np.array(leaves, dtype=np.int64)
    fact = [1, 1, 2, 6, 24, 120, 720]
    orderings = [720 // int(np.prod([fact[leaf.count(v)] for v in set(leaf)])) for leaf in leaves]
    levels: list[list[tuple[int, ...]]] = [[()]]
    group_a = np.zeros((DEAL_CARDS, 10), dtype=np.int64)
    group_b = np.zeros((DEAL_CARDS, 10), dtype=np.int64)
    for d in range(DEAL_CARDS):
        prev, cur = levels[-1], list[tuple[int, ...]]()
        last = [p[-1] if p else -1 for p in prev]
        for u in range(10):
            group_a[d, u] = sum(1 for x in last if x < u)
            group_b[d, u] = sum(1 for x in last if x <= u)
            assert all(x < u for x in last[: group_a[d, u]])  # grouped: a prefix
            cur.extend((*p, u) for p in prev[: group_b[d, u]])
        levels.append(cur)
    flat = [node for level in levels for node in level]
    run = [float(node.count(node[-1])) if node else 0.0 for node in flat]
    leaf_index = {leaf: i for i, leaf in enumerate(leaves)}
    grouped_leaves = [leaf_index[tuple(sorted(node))] for node in levels[-1]]
    i64 = np.int64
    return MonomialTree(
        group_a=group_a,
        group_b=group_b,
        group_run=np.array(run),
        group_offsets=np.cumsum([0, *(len(level) for level in levels)]).astype(i64),
        group_leaf=np.array(grouped_leaves, dtype=i64),
        prefix_depth=np.array(depth, dtype=i64),
        prefix_value=np.array(value, dtype=i64),
        prefix_k=np.array(kk, dtype=i64),
        leaf_start=np.array(start, dtype=i64),
        leaf_end=np.array(end, dtype=i64),
        leaf_value=np.array(leaf_value, dtype=i64),
        leaf_k=np.array(leaf_k, dtype=i64),
        leaf_multiset=multisets,
        leaf_orderings=np.array(orderings, dtype=i64),
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class OutcomeTable:
    """Orderings of each multiset (rows) that end in each realised outcome class (columns).

    ``classes[j]`` is the flat `class_index` of column ``j``; ``example[j]`` one
    6-value deal sequence that gives it.
    """

    counts: np.ndarray  # (5005, n_classes) int64
    classes: np.ndarray  # (n_classes,) flat class indices
    example: np.ndarray  # (n_classes, 6) values in deal order


def _play_all() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Play every 6-value sequence through the rulebook; (values, totals and draws)."""
    seq = np.indices((10,) * DEAL_CARDS).reshape(DEAL_CARDS, -1).astype(np.int64)
    p1, b1, p2, b2, x5, x6 = seq
    natural = np.array([rules.is_natural(t) for t in range(10)])
    player_draws = np.array(rules.PLAYER_DRAWS)
    banker_draws = np.array(rules.BANKER_DRAWS)
    p_two, b_two = (p1 + p2) % 10, (b1 + b2) % 10
    stop = natural[p_two] | natural[b_two]
    p_drew = ~stop & player_draws[p_two]
    column = np.where(p_drew, x5, rules.NO_CARD)
    b_drew = ~stop & banker_draws[b_two, column]
    b_card = np.where(p_drew, x6, x5)  # the Banker's third card is the next one out
    p_total = np.where(p_drew, (p_two + x5) % 10, p_two)
    b_total = np.where(b_drew, (b_two + b_card) % 10, b_two)
    return seq, p_total, b_total, p_drew, b_drew


@cache
def outcome_table() -> OutcomeTable:
    """The integer outcome table, from all 10**6 sequences played by the rulebook."""
    tree = monomial_tree()
    seq, p_total, b_total, p_drew, b_drew = _play_all()
    flat = ((p_total * 10 + b_total) * 2 + p_drew) * 2 + b_drew
    ordered = np.sort(seq, axis=0)
    key = np.zeros(seq.shape[1], dtype=np.int64)
    for row in ordered:
        key = key * 10 + row
    leaf_key = np.zeros(len(tree.leaf_value), dtype=np.int64)
    for col in tree.leaf_multiset.T:
        leaf_key = leaf_key * 10 + col
    lookup = np.full(10**DEAL_CARDS, -1, dtype=np.int64)
    lookup[leaf_key] = np.arange(len(leaf_key))
    leaf = lookup[key]
    n_flat = int(np.prod(CLASS_SHAPE))
    full = np.bincount(leaf * n_flat + flat, minlength=len(leaf_key) * n_flat)
    full = full.reshape(len(leaf_key), n_flat)
    classes = np.flatnonzero(full.sum(axis=0))
    first = np.full(n_flat, -1, dtype=np.int64)
    first[flat[::-1]] = np.arange(len(flat))[::-1]
    return OutcomeTable(
        counts=np.ascontiguousarray(full[:, classes]),
        classes=classes,
        example=seq[:, first[classes]].T.copy(),
    )


# -- kernels --------------------------------------------------------------------------


@njit(cache=True, fastmath=True)
def _reduce(table_t: np.ndarray, x: np.ndarray, out: np.ndarray) -> None:  # pragma: no cover
    # out[j] = table_t[j] @ x, four rows at a time, then two (the row count is even).
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
    while j < r:
        r0, r1 = table_t[j], table_t[j + 1]
        s0 = s1 = 0.0
        for i in range(n):
            xi = x[i]
            s0 += r0[i] * xi
            s1 += r1[i] * xi
        out[j], out[j + 1] = s0, s1
        j += 2


@njit(cache=True, fastmath=True)
def _single(
    c: np.ndarray,
    step: float,
    table_t: np.ndarray,
    ga: np.ndarray,
    gb: np.ndarray,
    run: np.ndarray,
    offsets: np.ndarray,
    out: np.ndarray,
) -> None:  # pragma: no cover - compiled
    # Level by level in contiguous blocks (see MonomialTree.group_a), then the
    # reductions over the leaves (table_t's columns in grouped leaf order).
    # step = 1: drawn without replacement (falling factorials); 0: with replacement.
    node = np.empty(offsets[-1])
    node[0] = 1.0
    for d in range(DEAL_CARDS):
        src = offsets[d]
        dst = offsets[d + 1]
        for u in range(10):
            a = ga[d, u]
            b = gb[d, u]
            cu = c[u]
            for i in range(a):
                node[dst + i] = node[src + i] * cu
            dst += a
            for i in range(a, b):
                node[dst + i - a] = node[src + i] * (cu - run[src + i] * step)
            dst += b - a
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
    coef: np.ndarray,
    out: np.ndarray,
) -> None:  # pragma: no cover - compiled
    # Quantities = coef[:, 0] + coef[:, 1:] @ (columns / N(N-1)...(N-5)); after them,
    # the six pair moments of the composition (see `pair_moments`).
    r = table_t.shape[0]
    cols = np.empty(r)
    _single(c, step, table_t, ga, gb, run, offsets, cols)
    n = 0.0
    for v in range(10):
        n += c[v]
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


@njit(cache=True, fastmath=True)
def _odds_fast(
    c: np.ndarray,
    table_t: np.ndarray,
    ga: np.ndarray,
    gb: np.ndarray,
    run: np.ndarray,
    offsets: np.ndarray,
    coef: np.ndarray,
    pays: np.ndarray,
    out: np.ndarray,
) -> None:  # pragma: no cover - compiled
    # `_odds_single`, then the returns of the four pair bets from the moments:
    # pays[i] = (win, lose) of Player Pair, Banker Pair, Either Pair, Perfect Pair.
    q = coef.shape[0]
    tmp = np.empty(q + 6)
    _odds_single(c, 1.0, table_t, ga, gb, run, offsets, coef, tmp)
    for i in range(q):
        out[i] = tmp[i]
    n = 0.0
    for v in range(10):
        n += c[v]
    n2 = n * (n - 1.0)
    n4 = n2 * (n - 2.0) * (n - 3.0)
    s2, sq, s4, t2, tq, t4 = tmp[q], tmp[q + 1], tmp[q + 2], tmp[q + 3], tmp[q + 4], tmp[q + 5]
    one = s2 / n2
    both = (s2 * s2 - sq + s4) / n4
    suited = 2.0 * t2 / n2 - (t2 * t2 - tq + t4) / n4
    probs = (one, one, 2.0 * one - both, suited)
    for i in range(4):
        out[q + i] = probs[i] * pays[i, 0] + (1.0 - probs[i]) * pays[i, 1]


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


@njit(cache=True, parallel=True)
def _pair_moments_batch(comps: np.ndarray, out: np.ndarray) -> None:  # pragma: no cover
    for i in prange(comps.shape[0]):
        _pair_moments(comps[i], out[i])


def pair_moments_batch(comps: np.ndarray) -> np.ndarray:
    """`pair_moments` of each row of a (K, 10) array: (K, 6)."""
    comps = np.ascontiguousarray(comps, dtype=np.float64)
    out = np.empty((comps.shape[0], 6))
    _pair_moments_batch(comps, out)
    return out


def pair_moments(counts: np.ndarray) -> np.ndarray:
    """Pair moments of 10 counts by value: over ranks, then over cards (6 floats).

    Each triple is (sum n(n-1), sum (n(n-1))**2, sum n(n-1)(n-2)(n-3)).

    >>> pair_moments(np.array([16.0] + [4.0] * 9)).tolist()
    [156.0, 1872.0, 312.0, 0.0, 0.0, 0.0]
    """
    out = np.empty(6)
    _pair_moments(np.asarray(counts, dtype=np.float64), out)
    return out


@njit(cache=True, fastmath=True, parallel=True)
def _batch(
    comps: np.ndarray,
    table: np.ndarray,
    p_depth: np.ndarray,
    p_value: np.ndarray,
    p_k: np.ndarray,
    l_start: np.ndarray,
    l_end: np.ndarray,
    l_value: np.ndarray,
    l_k: np.ndarray,
    out: np.ndarray,
    lanes: int,
) -> None:  # pragma: no cover - compiled
    # One SIMD lane per composition; columns in fused chunks of 4 or 2 (r is even).
    n = comps.shape[0]
    r = table.shape[1]
    blocks = (n + lanes - 1) // lanes
    for blk in prange(blocks):
        lo = blk * lanes
        hi = min(lo + lanes, n)
        # Rows padded by 24 doubles so that no two rows sit 4 KiB apart (aliasing).
        c = np.zeros((10, lanes + 24))
        for i in range(hi - lo):
            for v in range(10):
                c[v, i] = comps[lo + i, v]
        path = np.empty((DEAL_CARDS, lanes + 24))
        acc = np.zeros((r, lanes + 24))
        for b in range(lanes):
            path[0, b] = 1.0
        for node in range(p_depth.shape[0]):
            d = p_depth[node]
            pd = path[d]
            pp = path[d - 1]
            cv = c[p_value[node]]
            k = p_k[node]
            for b in range(lanes):
                pd[b] = pp[b] * (cv[b] - k)
            if d != DEAL_CARDS - 1:
                continue
            for leaf in range(l_start[node], l_end[node]):
                cl = c[l_value[leaf]]
                lk = l_k[leaf]
                j = 0
                while j + 4 <= r:
                    t0, t1, t2, t3 = (
                        table[leaf, j],
                        table[leaf, j + 1],
                        table[leaf, j + 2],
                        table[leaf, j + 3],
                    )
                    a0, a1, a2, a3 = acc[j], acc[j + 1], acc[j + 2], acc[j + 3]
                    for b in range(lanes):
                        x = pd[b] * (cl[b] - lk)
                        a0[b] += t0 * x
                        a1[b] += t1 * x
                        a2[b] += t2 * x
                        a3[b] += t3 * x
                    j += 4
                if j < r:
                    t0, t1 = table[leaf, j], table[leaf, j + 1]
                    a0, a1 = acc[j], acc[j + 1]
                    for b in range(lanes):
                        x = pd[b] * (cl[b] - lk)
                        a0[b] += t0 * x
                        a1[b] += t1 * x
        for i in range(hi - lo):
            for j in range(r):
                out[lo + i, j] = acc[j, i]


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
    counts: np.ndarray, table_t: np.ndarray, coef: np.ndarray, replacement: bool = False
) -> np.ndarray:
    """``coef[:, 0] + coef[:, 1:] @ (table_t @ monomials(counts)) / N(N-1)...(N-5)``.

    ``table_t``: (columns, 5005), its columns in `MonomialTree.group_leaf` order.

    Followed by the six `pair_moments` of the composition.
    """
    tree = monomial_tree()
    out = np.empty(coef.shape[0] + 6)
    step = 0.0 if replacement else 1.0
    ga, gb, run, offsets = tree.group_a, tree.group_b, tree.group_run, tree.group_offsets
    _odds_single(counts, step, table_t, ga, gb, run, offsets, coef, out)
    return out


class SingleKernel:
    """One shoe's quantities and pair returns, bound to one table (the per-hand path).

    Calling it with 10 float64 counts returns `single_quantities` (without the
    moments) followed by the returns of Player, Banker, Either and Perfect Pair,
    given ``pays`` (4, 2): their win and lose pays.
    """

    __slots__ = ("_args", "_size")

    def __init__(self, table_t: np.ndarray, coef: np.ndarray, pays: np.ndarray) -> None:
        tree = monomial_tree()
        coef = np.ascontiguousarray(coef)
        pays = np.ascontiguousarray(pays, dtype=np.float64)
        self._args: tuple[np.ndarray, ...] = (
            table_t,
            tree.group_a,
            tree.group_b,
            tree.group_run,
            tree.group_offsets,
            coef,
            pays,
        )
        self._size = coef.shape[0] + 4

    def __call__(self, counts: np.ndarray) -> list[float]:
        out = np.empty(self._size)
        kernel: Any = _odds_fast
        kernel(counts, *self._args, out)
        result: list[float] = out.tolist()
        return result


def batch_columns(comps: np.ndarray, table: np.ndarray) -> np.ndarray:
    """``monomials(comps) @ table`` for a (K, 10) float64 array, on every core.

    One SIMD lane per composition: each tree node is one vector multiply over a block
    of compositions, each leaf a few fused multiply-adds into the outcome columns.
    (Folding the leaves into a BLAS matrix product was slower here: the product is
    too skinny for BLAS to run near its peak.)
    """
    comps = np.ascontiguousarray(comps, dtype=np.float64)
    r = table.shape[1]
    padded = np.zeros((table.shape[0], r + r % 2))
    padded[:, :r] = table
    out = np.empty((comps.shape[0], padded.shape[1]))
    kernel: Any = _batch
    kernel(comps, padded, *_tree_args(monomial_tree()), out, _lanes(padded.shape[1]))
    return out[:, :r]


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
