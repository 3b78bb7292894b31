"""The tables behind `baccara.exact.odds`: the outcome table and the monomial tree.

Every coup is a sequence of six card values in deal order (P1, B1, P2, B2, then the
next two cards, used or not). Drawn without replacement from ``c`` (counts by value),
a sequence's chance is a product of falling factorials of the counts over
``N (N-1) ... (N-5)``, and it depends only on the sequence's multiset: one of 5,005
monomials ``prod_v c_v (c_v - 1) ... (c_v - m_v + 1)``. So the number of ordered deals
of any outcome is a dot product of a fixed integer table (orderings of each multiset
that give that outcome) with the monomials.

The table is built once by looking up all 10**6 value sequences in the dealer's
`baccara.deal.ending_table` (the chance model played on every two-card totals and
next two cards); nothing here re-types the deal order or the tableau. An outcome *class* is (Player total, Banker total, Player cards,
Banker cards): every bet that looks only at point values is settled by its class.

The monomials share prefixes. Listed as a tree of nondecreasing value sequences
(8,007 nodes), each node is its parent times one factor ``c_v - k``. The single-shoe
kernel (`baccara.exact._kernels`) computes the tree level by level in contiguous
blocks, then one reduction per column; the batch kernel (`baccara.exact.batch`) walks it depth first for a block
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

import numpy as np

from baccara import deal

__all__ = [
    "CLASS_SHAPE",
    "DEAL_CARDS",
    "MonomialTree",
    "OutcomeTable",
    "class_index",
    "falling",
    "four_card_table",
    "monomial_tree",
    "outcome_table",
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
    """Every 6-value sequence as the dealer ends it: (values, totals and draws)."""
    seq = np.indices((10,) * DEAL_CARDS).reshape(DEAL_CARDS, -1).astype(np.int64)
    first = [seq[i] for i, _ in enumerate(deal.FIRST_CARDS)]
    player = [
        v for v, side in zip(first, deal.FIRST_CARDS, strict=True) if side is deal.Side.PLAYER
    ]
    banker = [
        v for v, side in zip(first, deal.FIRST_CARDS, strict=True) if side is deal.Side.BANKER
    ]
    p_two, b_two = sum(player) % 10, sum(banker) % 10
    ends = np.array(deal.ending_table(), dtype=np.int64)
    row = ends[deal.ending_index(p_two, b_two, seq[4], seq[5])]
    return seq, row[:, 0], row[:, 1], row[:, 2] - 2, row[:, 3] - 2


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
