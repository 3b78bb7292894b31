"""What the exact engine computes for a variant: outcome classes, their coups, the plan.

Every outcome class (Player total, Banker total, cards each) gets a real `Coup`, and
every bet's pay on it comes from `baccara.bets.payout`; the pair bets' chances are
closed formulas over the composition's moments.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import combinations_with_replacement
from typing import Any

import numpy as np

from baccara.bets import BetKind, payout
from baccara.cards import RANKS, SUITS, Card, Rank
from baccara.coup import Coup, Result
from baccara.exact import _kernels as ek
from baccara.variants import Variant

__all__ = ["Outcome", "outcomes"]

Number = float | Fraction

BETS: tuple[BetKind, ...] = tuple(BetKind)
"""Every bet the engine prices, in `BetKind` order (the keys of `Odds.edges`)."""

PAIR_BETS: tuple[BetKind, ...] = (
    BetKind.PLAYER_PAIR,
    BetKind.BANKER_PAIR,
    BetKind.EITHER_PAIR,
    BetKind.PERFECT_PAIR,
)
"""Bets settled by ranks or suits of the first two cards of each hand, not by points."""

VALUE_BETS: tuple[BetKind, ...] = tuple(k for k in BETS if k not in PAIR_BETS)
BET_KEYS: tuple[str, ...] = tuple(k.value for k in BETS)
_N_EDGES = len(BET_KEYS)
_PAIR_KEYS = tuple(k.value for k in PAIR_BETS)
MAIN_BETS: tuple[BetKind, ...] = tuple(k for k in BETS if k.is_main)
PROBABILITY_KEYS = ("banker", "player", "tie")
VALUE_NAMES = ("T/J/Q/K", "A", "2", "3", "4", "5", "6", "7", "8", "9")
"""Display names of the 10 point values, index 0 first."""


# -- outcome classes ------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class Outcome:
    """An outcome class: final totals and cards of each hand, with a coup that ends so."""

    player_total: int
    banker_total: int
    player_cards: int
    banker_cards: int
    coup: Coup

    @property
    def winner(self) -> Result:
        """Banker, Player or Tie."""
        return self.coup.winner

    @property
    def natural(self) -> bool:
        """Whether either side had a natural."""
        return self.coup.natural

    @property
    def cards(self) -> int:
        """Cards dealt: 4, 5 or 6."""
        return self.player_cards + self.banker_cards


def _card(value: int, position: int) -> Card:
    rank = Rank("TJQK"[position % 4]) if value == 0 else RANKS[value - 1]
    return Card(rank=rank, suit=SUITS[position % 4])


@cache
def outcomes() -> tuple[Outcome, ...]:
    """Every outcome class a coup can end in, in the outcome table's column order.

    >>> len(outcomes()), sum(o.natural for o in outcomes())
    (205, 36)
    """
    table = ek.outcome_table()
    found = []
    for flat, seq in zip(table.classes.tolist(), table.example.tolist(), strict=True):
        pt, rest = divmod(flat, 40)
        bt, rest = divmod(rest, 4)
        pn, bn = 2 + rest // 2, 2 + rest % 2
        coup = Coup.from_deal([_card(v, i) for i, v in enumerate(seq[: pn + bn])])
        if (coup.player_total, coup.banker_total, len(coup.player), len(coup.banker)) != (
            pt,
            bt,
            pn,
            bn,
        ):  # pragma: no cover - the two readings of the rulebook agree
            raise AssertionError(f"outcome table disagrees with the coup {coup}")
        found.append(
            Outcome(player_total=pt, banker_total=bt, player_cards=pn, banker_cards=bn, coup=coup)
        )
    return tuple(found)


# -- plans: what to compute for a variant ---------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class _Plan:
    names: tuple[str, ...]  # "p_banker", "p_player", "p_tie", then value bets' returns
    numerators: np.ndarray  # (classes, q) int64: weight x denominator
    denominators: tuple[int, ...]
    table: np.ndarray  # (5005, r) float64 basis columns
    table4: np.ndarray  # (715, r4) float64: four-card columns, lexicographic multisets
    table_t32: np.ndarray  # (r6, 5005) float32: one shoe's leaf columns, transposed
    table4_t32: np.ndarray  # (r4, 715) float32: one shoe's four-card columns
    coef: np.ndarray  # (q, r6 + r4 + 1): quantity = coef[:, 0] + coef[:, 1:] @ basis probs
    fast: Any  # `exact_kernels.SingleKernel`: edges, then probabilities (all-bets plans)
    slot: np.ndarray  # batch outputs: probabilities, then edges (`SingleKernel` encoding)


def _pair_coups() -> dict[BetKind, tuple[Coup, Coup]]:
    """A winning and a losing coup for each pair bet (naturals: nobody draws)."""
    hit_p, hit_b = Coup.parse("P:4s,4h B:9d,Kc"), Coup.parse("P:9d,Kc B:4s,4h")
    suited, miss = Coup.parse("P:4s,4s B:9d,Kc"), Coup.parse("P:4s,5h B:9d,Kc")
    return {
        BetKind.PLAYER_PAIR: (hit_p, miss),
        BetKind.BANKER_PAIR: (hit_b, miss),
        BetKind.EITHER_PAIR: (hit_p, miss),
        BetKind.PERFECT_PAIR: (suited, hit_p),
    }


_PAIR_PAYS: dict[int, tuple[Any, ...]] = {}
_PLANS: dict[tuple[int, bool], tuple[Variant, _Plan]] = {}


def _pair_pays(variant: Variant, exact: bool = True) -> dict[BetKind, tuple[Any, Any]]:
    """(win, lose) net pay per unit of each pair bet, from `bets.payout` (or as floats)."""
    hit = _PAIR_PAYS.get(id(variant))  # by identity: hashing a Variant costs microseconds
    if hit is None or hit[0] is not variant:
        coups = _pair_coups()
        pays = {
            kind: (
                payout(kind, coups[kind][0], variant).ratio,
                payout(kind, coups[kind][1], variant).ratio,
            )
            for kind in PAIR_BETS
        }
        floats = {k: (float(w), float(lo)) for k, (w, lo) in pays.items()}
        array = np.array([floats[k] for k in PAIR_BETS])
        hit = _PAIR_PAYS[id(variant)] = (variant, pays, floats, array)
    chosen: dict[BetKind, tuple[Any, Any]] = hit[1] if exact else hit[2]
    return chosen


def _pair_pay_array(variant: Variant) -> np.ndarray:
    """The pair bets' (win, lose) pays as a (4, 2) float array, for the compiled path."""
    hit = _PAIR_PAYS.get(id(variant))
    if hit is None or hit[0] is not variant:
        _pair_pays(variant)
        hit = _PAIR_PAYS[id(variant)]
    array: np.ndarray = hit[3]
    return array


def _plan(variant: Variant, side_bets: bool = True) -> _Plan:
    """The plan for ``variant``, built once per variant object."""
    hit = _PLANS.get((id(variant), side_bets))
    if hit is None or hit[0] is not variant:
        hit = _PLANS[(id(variant), side_bets)] = (variant, _make_plan(variant, side_bets))
    return hit[1]


def _make_plan(variant: Variant, side_bets: bool) -> _Plan:
    classes = outcomes()
    kinds = VALUE_BETS if side_bets else MAIN_BETS
    columns: list[list[Fraction]] = [
        [Fraction(o.winner is Result(word[0].upper())) for o in classes]
        for word in PROBABILITY_KEYS
    ]
    columns += [[payout(kind, o.coup, variant).ratio for o in classes] for kind in kinds]
    dens = tuple(int(np.lcm.reduce([w.denominator for w in col])) for col in columns)
    nums = np.array(
        [[int(w * d) for w in col] for col, d in zip(columns, dens, strict=True)], dtype=np.int64
    ).T
    # A basis of the columns' span, the constant column (probabilities sum to 1) for
    # free, columns the first four cards settle first (one shoe sums those over 715
    # four-card multisets instead of 5,005 leaves).
    settled, table4 = ek.four_card_table(nums)
    basis = [np.ones(len(classes))]
    chosen: list[int] = []
    for j in sorted(range(nums.shape[1]), key=lambda j: not settled[j]):
        trial = np.column_stack([*basis, nums[:, j]])
        if np.linalg.matrix_rank(trial) > len(basis):
            basis.append(nums[:, j].astype(np.float64))
            chosen.append(j)
    a = np.column_stack(basis)
    target = nums / np.array(dens)
    coef, *_ = np.linalg.lstsq(a, target, rcond=None)
    if np.abs(a @ coef - target).max() > 1e-9:  # pragma: no cover - exact span
        raise AssertionError("basis does not span the bet columns")
    coef = coef.T
    table = ek.outcome_table().counts @ nums[:, chosen]
    if np.abs(table).max() >= 2**24:  # pragma: no cover - float32 must stay exact
        raise AssertionError("basis table too large for float32")
    # One shoe: leaf columns (grouped leaf order), then four-card ones.
    six = [i for i, j in enumerate(chosen) if not settled[j]]
    four = [i for i, j in enumerate(chosen) if settled[j]]
    leaf_t = table[:, six].T[:, ek.monomial_tree().group_leaf]
    table_t32 = np.ascontiguousarray(leaf_t, dtype=np.float32)
    table4_t32 = np.ascontiguousarray(table4[:, chosen][:, four].T, dtype=np.float32)
    coef_one = np.column_stack([coef[:, :1], coef[:, 1:][:, six], coef[:, 1:][:, four]])
    # A batch: the same columns; four-card ones in lexicographic (depth-first) order.
    grouped = {tuple(m): i for i, m in enumerate(ek.monomial_tree().group_four.tolist())}
    lexical = [grouped[m] for m in combinations_with_replacement(range(10), 4)]
    names = (*(f"p_{w}" for w in PROBABILITY_KEYS), *(k.value for k in kinds))
    # Outputs as (index in [quantities, pair returns], sign): probabilities, then edges.
    index = {k: i for i, k in enumerate((*names, *_PAIR_KEYS))}
    probs = tuple((i, 1) for i in range(len(PROBABILITY_KEYS)))
    edges = tuple((index[k.value], -1) for k in (BETS if side_bets else MAIN_BETS))
    return _Plan(
        names=names,
        numerators=nums,
        denominators=dens,
        table=np.ascontiguousarray(table[:, six], dtype=np.float64),
        table4=np.ascontiguousarray(table4[:, chosen][:, four][lexical], dtype=np.float64),
        table_t32=table_t32,
        table4_t32=table4_t32,
        coef=np.ascontiguousarray(coef_one),
        fast=ek.SingleKernel(
            table_t32, table4_t32, coef_one, _pair_pay_array(variant), edges + probs
        )
        if side_bets
        else None,
        slot=np.array([(i + 1) * sign for i, sign in probs + edges], dtype=np.int64),
    )


# -- pairs ----------------------------------------------------------------------------


def _moments(parts: np.ndarray, replacement: bool) -> list[Any]:
    """Over the last axis: sum of n(n-1), of (n(n-1))**2 and of n(n-1)(n-2)(n-3).

    With replacement: sums of n**2, n**4 and n**4.
    """
    two = parts * parts if replacement else parts * (parts - 1)
    four = two * two if replacement else two * (parts - 2) * (parts - 3)
    return [two.sum(-1), (two * two).sum(-1), four.sum(-1)]


def _pair_returns(
    moments: Sequence[Any], n: Any, variant: Variant, exact: bool, replacement: bool = False
) -> dict[str, Any]:
    """Expected returns of the four pair bets from the six pair moments.

    One hand pairs with chance S2 / N(N-1); both hands with (S2**2 - SQ + S4) / N(N-1)(N-2)(N-3)
    (the two pairs of different ranks, or all four cards of one rank); likewise for
    suited pairs over cards. Works on floats, arrays (a batch) or ints (exact).
    """
    s2, sq, s4, t2, tq, t4 = moments
    if replacement:
        n2, n4 = n * n, n * n * n * n
    else:
        n2, n4 = n * (n - 1), n * (n - 1) * (n - 2) * (n - 3)
    div: Any = (lambda a, b: Fraction(int(a), int(b))) if exact else (lambda a, b: a / b)
    p_one, p_both = div(s2, n2), div(s2 * s2 - sq + s4, n4)
    s_one, s_both = div(t2, n2), div(t2 * t2 - tq + t4, n4)
    prob = (p_one, p_one, 2 * p_one - p_both, 2 * s_one - s_both)  # in PAIR_BETS order
    pays = _pair_pays(variant, exact)
    return {
        key: p * win + (1 - p) * lose
        for key, p, (win, lose) in zip(_PAIR_KEYS, prob, pays.values(), strict=True)
    }
