"""The batch kernel of `baccara.exact.odds`: many compositions at once, on every core.

One SIMD lane per composition. The monomial tree (`baccara.exact._tables.MonomialTree`) is
walked depth first for a block of compositions, keeping only the path; each prefix
node is one vector multiply, and the leaves of each depth-5 node go through a kernel
compiled for its number of children, so that the accumulators are loaded and stored
once per node. A second compiled pass turns the columns into probabilities, edges
and pair returns row by row.

>>> from baccara.exact._kernels import outcome_table
>>> comps = np.array([[16.0] + [4.0] * 9, [128.0] + [32.0] * 9])
>>> cols = batch_columns(comps, outcome_table().counts[:, :2].astype(np.float64))
>>> cols.shape, float(cols[0].sum()) > 0
((2, 2), True)
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit, prange

from baccara.exact._kernels import (
    DEAL_CARDS,
    _pair_moments,
    _pair_returns,
    _pick,
    _tree_args,
    monomial_tree,
)

__all__ = ["batch_columns", "finish_batch"]


def _lanes(columns: int) -> int:
    """Compositions per SIMD block in the batch kernel (its arrays stay in L1/L2)."""
    return 512 if columns <= 2 else 256


@njit(cache=True, fastmath=True, error_model="numpy", boundscheck=False)
def _finish(
    cols: np.ndarray,
    comps: np.ndarray,
    coef: np.ndarray,
    pays: np.ndarray,
    slot: np.ndarray,
    r4: int,
    out: np.ndarray,
) -> None:  # pragma: no cover - compiled
    # Row by row: quantities = coef[:, 0] + coef[:, 1:] @ (columns / N(N-1)...(N-5)),
    # the last r4 columns four-card ones (over N(N-1)(N-2)(N-3)), then (if pays has 4
    # rows) the pair returns, then `_pick` into out. One thread: this pass is cheap,
    # and threads cost more CPU time than they save here.
    k = cols.shape[0]
    q = coef.shape[0]
    r = coef.shape[1] - 1
    tmp = np.empty(q + 6)
    for i in range(k):
        c = comps[i]
        n = 0.0
        for v in range(10):
            n += c[v]
        four = n * (n - 1.0) * (n - 2.0) * (n - 3.0)
        total = four * (n - 4.0) * (n - 5.0)
        for a in range(q):
            s = coef[a, 0]
            for j in range(r - r4):
                s += coef[a, j + 1] * (cols[i, j] / total)
            for j in range(r - r4, r):
                s += coef[a, j + 1] * (cols[i, j] / four)
            tmp[a] = s
        if pays.shape[0] == 4:
            _pair_moments(c, tmp[q:])
            _pair_returns(n, pays, tmp[q:])
        _pick(tmp, slot, out[i])


def finish_batch(
    cols: np.ndarray,
    comps: np.ndarray,
    coef: np.ndarray,
    pays: np.ndarray,
    slot: np.ndarray,
    r4: int = 0,
) -> np.ndarray:
    """Each row's values `SingleKernel` would give, from its `batch_columns` row.

    ``pays``: (4, 2) pair pays to append the pair returns, or (0, 2) for none;
    ``slot``: the output order, encoded as in `SingleKernel`; ``r4``: the number of
    four-card columns at the end of ``cols``.
    """
    out = np.empty((cols.shape[0], slot.shape[0]))
    kernel: Any = _finish
    kernel(cols, comps, coef, pays, slot, r4, out)
    return out


def _make_children(m: int) -> Any:
    """The kernel for the ``m`` leaves of one depth-5 node (``m`` fixed when compiled)."""

    @njit(cache=True, fastmath=True, error_model="numpy", boundscheck=False)
    def children(
        path: np.ndarray,
        c: np.ndarray,
        v: int,
        k: float,
        u: int,
        kk: float,
        table: np.ndarray,
        l0: int,
        acc: np.ndarray,
        lanes: int,
        xb: np.ndarray,
    ) -> None:  # pragma: no cover - compiled
        # Leaves with values u..u+m-1: the first takes c_u - kk, the others a plain
        # count. m is a constant, so the children loop unrolls inside the lane loop and
        # each accumulator is loaded and stored once per node, not once per leaf.
        # The node itself is path[4] times c_v - k. Only 2-D indexing: views would
        # cost reference counting on every node.
        r = table.shape[1]
        if r == 2 and m >= 3 and k == 0.0:  # main bets, many leaves, v new on the path:
            for b in range(lanes):  # sum T * count (c[10 + u] = c_u - 1), times the node
                s0 = table[l0, 0] * c[10 + u, b]
                s1 = table[l0, 1] * c[10 + u, b]
                for i in range(1, m):
                    s0 += table[l0 + i, 0] * c[u + i, b]
                    s1 += table[l0 + i, 1] * c[u + i, b]
                p = path[4, b] * c[v, b]
                acc[0, b] += p * s0
                acc[1, b] += p * s1
            return
        if r == 2 and m >= 3:
            for b in range(lanes):
                y = c[u, b] - kk
                s0 = table[l0, 0] * y
                s1 = table[l0, 1] * y
                for i in range(1, m):
                    s0 += table[l0 + i, 0] * c[u + i, b]
                    s1 += table[l0 + i, 1] * c[u + i, b]
                p = path[4, b] * (c[v, b] - k)
                acc[0, b] += p * s0
                acc[1, b] += p * s1
            return
        if r == 2 and k == 0.0:
            for b in range(lanes):
                p = path[4, b] * c[v, b]
                x = p * c[10 + u, b]
                s0 = acc[0, b] + table[l0, 0] * x
                s1 = acc[1, b] + table[l0, 1] * x
                for i in range(1, m):
                    x = p * c[u + i, b]
                    s0 += table[l0 + i, 0] * x
                    s1 += table[l0 + i, 1] * x
                acc[0, b] = s0
                acc[1, b] = s1
            return
        if r == 2:  # main bets: both columns in one pass
            for b in range(lanes):
                p = path[4, b] * (c[v, b] - k)
                x = p * (c[u, b] - kk)
                s0 = acc[0, b] + table[l0, 0] * x
                s1 = acc[1, b] + table[l0, 1] * x
                for i in range(1, m):
                    x = p * c[u + i, b]
                    s0 += table[l0 + i, 0] * x
                    s1 += table[l0 + i, 1] * x
                acc[0, b] = s0
                acc[1, b] = s1
            return
        # Many columns: the node's leaf monomials once, then one pass per column.
        for b in range(lanes):
            p = path[4, b] * (c[v, b] - k)
            xb[0, b] = p * (c[u, b] - kk)
            for i in range(1, m):
                xb[i, b] = p * c[u + i, b]
        for j in range(r):
            for b in range(lanes):
                s = acc[j, b]
                for i in range(m):
                    s += table[l0 + i, j] * xb[i, b]
                acc[j, b] = s

    return children


_C1, _C2, _C3, _C4, _C5, _C6, _C7, _C8, _C9, _C10 = (_make_children(m) for m in range(1, 11))


@njit(cache=True, fastmath=True, parallel=True, error_model="numpy", boundscheck=False)
def _batch(
    comps: np.ndarray,
    table: np.ndarray,
    table4: np.ndarray,
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
    # One SIMD lane per composition; the tree depth first, the leaves by `_make_children`.
    # table4: columns the first four cards settle, folded in at the depth-4 nodes (in
    # depth-first order) instead of at the leaves: (N-4)(N-5) times too small.
    n = comps.shape[0]
    r = table.shape[1]
    r4 = table4.shape[1]
    blocks = (n + lanes - 1) // lanes
    for blk in prange(blocks):
        lo = blk * lanes
        hi = min(lo + lanes, n)
        # Rows padded by 24 doubles so that no two rows sit 4 KiB apart (aliasing).
        c = np.zeros((20, lanes + 24))  # rows 10..19: the counts less one
        for i in range(hi - lo):
            for v in range(10):
                c[v, i] = comps[lo + i, v]
        for v in range(10):
            for b in range(lanes):
                c[10 + v, b] = c[v, b] - 1.0
        path = np.empty((DEAL_CARDS, lanes + 24))
        acc = np.zeros((r, lanes + 24))
        acc4 = np.zeros((r4, lanes + 24))
        xb = np.empty((10, lanes + 24))
        for b in range(lanes):
            path[0, b] = 1.0
        n4 = 0
        for node in range(p_depth.shape[0]):
            d = p_depth[node]
            v = p_value[node]
            k = float(p_k[node])
            if d != DEAL_CARDS - 1:
                if k < 2.0:  # c_v or c_v - 1: a stored row
                    row = v + 10 * int(k)
                    for b in range(lanes):
                        path[d, b] = path[d - 1, b] * c[row, b]
                else:
                    for b in range(lanes):
                        path[d, b] = path[d - 1, b] * (c[v, b] - k)
                if d == 4:
                    for j in range(r4):
                        t = table4[n4, j]
                        for b in range(lanes):
                            acc4[j, b] += t * path[4, b]
                    n4 += 1
                continue
            l0 = l_start[node]
            m = l_end[node] - l0
            u = l_value[l0]
            kk = float(l_k[l0])
            if m == 1:
                _C1(path, c, v, k, u, kk, table, l0, acc, lanes, xb)
            elif m == 2:
                _C2(path, c, v, k, u, kk, table, l0, acc, lanes, xb)
            elif m == 3:
                _C3(path, c, v, k, u, kk, table, l0, acc, lanes, xb)
            elif m == 4:
                _C4(path, c, v, k, u, kk, table, l0, acc, lanes, xb)
            elif m == 5:
                _C5(path, c, v, k, u, kk, table, l0, acc, lanes, xb)
            elif m == 6:
                _C6(path, c, v, k, u, kk, table, l0, acc, lanes, xb)
            elif m == 7:
                _C7(path, c, v, k, u, kk, table, l0, acc, lanes, xb)
            elif m == 8:
                _C8(path, c, v, k, u, kk, table, l0, acc, lanes, xb)
            elif m == 9:
                _C9(path, c, v, k, u, kk, table, l0, acc, lanes, xb)
            else:
                _C10(path, c, v, k, u, kk, table, l0, acc, lanes, xb)
        for i in range(hi - lo):
            for j in range(r):
                out[lo + i, j] = acc[j, i]
            for j in range(r4):
                out[lo + i, r + j] = acc4[j, i]


def batch_columns(
    comps: np.ndarray, table: np.ndarray, table4: np.ndarray | None = None
) -> np.ndarray:
    """``monomials(comps) @ table`` for a (K, 10) float64 array, on every core.

    With ``table4`` ((715, r4), four-card multisets in lexicographic order, see
    `baccara.exact._tables.four_card_table`), r4 more columns: the four-card monomials times
    that table (without the factor (N-4)(N-5)).

    One SIMD lane per composition: each tree node is one vector multiply over a block
    of compositions, each leaf a few fused multiply-adds into the outcome columns.
    (Folding the leaves into a BLAS matrix product was slower here: the product is
    too skinny for BLAS to run near its peak.)
    """
    comps = np.ascontiguousarray(comps, dtype=np.float64)
    table = np.ascontiguousarray(table, dtype=np.float64)
    if table4 is None:
        table4 = np.zeros((len(monomial_tree().group_four), 0))
    table4 = np.ascontiguousarray(table4, dtype=np.float64)
    out = np.empty((comps.shape[0], table.shape[1] + table4.shape[1]))
    kernel: Any = _batch
    kernel(comps, table, table4, *_tree_args(monomial_tree()), out, _lanes(table.shape[1]))
    return out
