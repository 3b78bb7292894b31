"""The machinery behind `baccara.exact.odds`: the outcome table, the monomial tree, the kernels.

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
(8,007 nodes), each node is its parent times one factor ``c_v - k``. The single-shoe
kernel here computes the tree level by level in contiguous blocks, then one reduction
per column; the batch kernel (`baccara.exact.batch`) walks it depth first for a block
of compositions at once. Exact mode walks the same tree in Python integers.

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
from numba import njit

from baccara import rules

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

DEAL_CARDS = 6
"""Cards in one deal sequence (the most a coup uses)."""

CLASS_SHAPE = (10, 10, 2, 2)
"""Outcome class axes: Player total, Banker total, Player drew, Banker drew."""


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
    group_four: np.ndarray  # (715, 4) sorted values of each grouped level-4 node


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
        group_four=np.array([sorted(node) for node in levels[4]], dtype=i64),
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
    sequence_column: np.ndarray  # (10**6,) int16: column of each 6-value deal sequence
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
    column = np.full(n_flat, -1, dtype=np.int16)
    column[classes] = np.arange(len(classes))
    return OutcomeTable(
        sequence_column=column[flat],
        counts=np.ascontiguousarray(full[:, classes]),
        classes=classes,
        example=seq[:, first[classes]].T.copy(),
    )


def four_card_table(weights: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Which columns of ``weights`` (classes x q) the first four cards settle, and their table.

    A column is settled by the first four cards when every deal sequence's class weight
    depends only on its first four values (naturals, the number of cards dealt). Its
    count of ordered deals is then ``(N-4)(N-5)`` times a dot product over the 715
    four-card multisets: returns (flags (q,), table (715, q) in `MonomialTree.group_four`
    order, zero in the unsettled columns).

    >>> flags, table = four_card_table(np.ones((len(outcome_table().classes), 1), dtype=int))
    >>> bool(flags[0]), int(table.sum())
    (True, 10000)
    """
    per_seq = weights[outcome_table().sequence_column].reshape(10**4, 100, -1)
    first = per_seq[:, 0, :]
    flags = (per_seq == first[:, None, :]).all(axis=(0, 1))
    prefixes = np.sort(np.indices((10,) * 4).reshape(4, -1).T, axis=1)
    key = ((prefixes[:, 0] * 10 + prefixes[:, 1]) * 10 + prefixes[:, 2]) * 10 + prefixes[:, 3]
    four = monomial_tree().group_four
    row = np.full(10**4, -1, dtype=np.int64)
    row[((four[:, 0] * 10 + four[:, 1]) * 10 + four[:, 2]) * 10 + four[:, 3]] = np.arange(len(four))
    table = np.zeros((len(four), first.shape[1]), dtype=np.int64)
    np.add.at(table, row[key], first)
    return flags, table * flags


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
