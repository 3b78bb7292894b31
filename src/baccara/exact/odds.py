"""Exact odds for any shoe: every bet, every variant, in float64 or in exact integers.

A shoe is given as 10 counts by point value (tens and faces first, then A, 2..9),
13 counts by rank (A..K) or 52 counts by card (`Card.index` order: suit s h d c, then
rank A..K). Pairs need ranks and the Perfect Pair needs suits: from 10 counts, the
tens and faces are split as evenly as possible over T, J, Q, K (in that order) and,
from 10 or 13 counts, each rank's cards as evenly as possible over the suits
(s, h, d, c); a full or depleted shoe given card by card is exact.

>>> o = odds(full_shoe(8), exact=True)
>>> o.counts["banker"], o.counts["total"]
(2292252566437888, 4998398275503360)
>>> round(float(o.edges["banker"]), 6), round(float(o.edges["player"]), 6)
(0.010579, 0.012351)
>>> round(odds(full_shoe(8)).probabilities["tie"], 9)
0.095155968

Every outcome is classified by the rulebook (`baccara.exact._kernels`) and every
bet's pay comes from `baccara.bets.payout` on a real coup of that outcome class.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, lru_cache
from itertools import combinations_with_replacement
from numbers import Integral
from typing import Any

import numpy as np

from baccara.bets import BetKind, payout
from baccara.cards import RANKS, SUITS, Card, Rank, parse_cards
from baccara.coup import Coup, Result, Side
from baccara.exact import _kernels as ek
from baccara.exact import batch as eb
from baccara.shoe import MAX_DECKS
from baccara.variants import PUNTO_BANCO, Family, Variant, require_family

__all__ = [
    "BETS",
    "PAIR_BETS",
    "PROBABILITY_KEYS",
    "BalancedCount",
    "BatchOdds",
    "CompositionError",
    "EffectsOfRemoval",
    "Odds",
    "Outcome",
    "batch_odds",
    "composition",
    "effects_of_removal",
    "full_shoe",
    "odds",
    "outcome_counts",
    "outcomes",
    "remove_cards",
]

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


class CompositionError(ValueError):
    """A shoe composition that is malformed or cannot deal a coup."""


# -- compositions ---------------------------------------------------------------------


def full_shoe(decks: int = 8) -> tuple[int, ...]:
    """The 10 counts by point value of a full shoe of ``decks`` decks.

    >>> full_shoe(1)
    (16, 4, 4, 4, 4, 4, 4, 4, 4, 4)
    """
    if isinstance(decks, bool) or not isinstance(decks, Integral) or decks < 1:
        raise CompositionError(f"bad number of decks {decks!r}: expected a whole number >= 1")
    d = int(decks)
    return (16 * d, *(4 * d,) * 9)


def _split(count: int, parts: int) -> list[int]:
    """``count`` split as evenly as possible, the first parts getting the extra cards."""
    q, rem = divmod(count, parts)
    return [q + 1 if i < rem else q for i in range(parts)]


def _check_counts(counts: Sequence[Any]) -> tuple[int, ...]:
    values = tuple(counts)
    if len(values) not in (10, 13, 52):
        raise CompositionError(
            f"bad composition of {len(values)} counts: give 10 (by value), 13 (by rank) or 52 (by card)"
        )
    out = []
    for i, x in enumerate(values):
        if isinstance(x, bool) or not isinstance(x, Integral):
            raise CompositionError(f"bad count {x!r} at position {i}: counts are whole numbers")
        if x < 0:
            raise CompositionError(f"bad count {x} at position {i}: counts cannot be negative")
        out.append(int(x))
    if sum(out) < ek.DEAL_CARDS:
        raise CompositionError(
            f"a shoe of {sum(out)} cards cannot deal a coup: it needs at least {ek.DEAL_CARDS}"
        )
    return tuple(out)


def composition(counts: Sequence[int]) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """Counts by value (10), by rank (13) and by card (52) from 10, 13 or 52 counts.

    >>> values, ranks, cards = composition(full_shoe(1))
    >>> ranks[-4:], cards[:2], values == full_shoe(1)
    ((4, 4, 4, 4), (1, 1), True)
    """
    c = _check_counts(counts)
    if len(c) == 52:
        cards = c
        ranks = tuple(sum(cards[s * 13 + r] for s in range(4)) for r in range(13))
    else:
        ranks = (*c[1:10], *_split(c[0], 4)) if len(c) == 10 else c
        by_suit = [_split(n, 4) for n in ranks]
        cards = tuple(by_suit[r][s] for s in range(4) for r in range(13))
    values = [0] * 10
    for rank, n in zip(RANKS, ranks, strict=True):
        values[rank.points] += n
    return tuple(values), ranks, cards


def remove_cards(counts: Sequence[int], cards: str | Sequence[Card]) -> tuple[int, ...]:
    """``counts`` (10, 13 or 52) less the ``cards`` seen, in the same form.

    >>> remove_cards(full_shoe(1), "Kh 9s 9d")
    (15, 4, 4, 4, 4, 4, 4, 4, 4, 2)
    >>> remove_cards(full_shoe(1), "9s " * 5)
    Traceback (most recent call last):
    ...
    baccara.exact.odds.CompositionError: cannot remove 9s: no card of value 9 is left in the shoe
    """
    out = list(_check_counts(counts))
    seen = parse_cards(cards) if isinstance(cards, str) else tuple(cards)
    for card in seen:
        if len(out) == 52:
            i, what = card.index, f"no {card} is"
        elif len(out) == 13:
            i, what = card.rank.order, f"no card of rank {card.rank} is"
        else:
            i, what = card.points, f"no card of value {card.points} is"
        if out[i] == 0:
            raise CompositionError(f"cannot remove {card}: {what} left in the shoe")
        out[i] -= 1
    if sum(out) < ek.DEAL_CARDS:
        raise CompositionError(
            f"after removing {len(seen)} cards the shoe holds {sum(out)}: a coup needs {ek.DEAL_CARDS}"
        )
    return tuple(out)


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


# -- single compositions --------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class Odds:
    """Probabilities and house edges of every bet on one shoe.

    ``probabilities``: Banker, Player and Tie win probabilities. ``edges``: the house
    edge of each bet (minus the expected return per unit bet; Player and Banker push
    on a tie) keyed by `BetKind` value. In exact mode these are `Fraction` and
    ``counts`` gives the ordered 6-card deals won by each side, with their total.
    The distributions (`final_totals`, `cards_dealt`, `naturals`, `draws`,
    `outcome_probabilities`) are computed when first asked for.
    """

    composition: tuple[int, ...]
    variant: Variant
    exact: bool
    probabilities: dict[str, Number]
    edges: dict[str, Number]
    counts: dict[str, int] | None = None
    replacement: bool = False

    @property
    def returns(self) -> dict[str, Number]:
        """Expected return per unit bet of each bet (minus the edge)."""
        return {k: -v for k, v in self.edges.items()}

    @property
    def outcome_probabilities(self) -> dict[Outcome, Number]:
        """Probability of each outcome class."""
        probs = _class_probabilities(self.composition, self.exact, self.replacement)
        return dict(zip(outcomes(), probs, strict=True))

    def _sum(self, keep: Any) -> Number:
        zero: Number = Fraction(0) if self.exact else 0.0
        return sum((p for o, p in self.outcome_probabilities.items() if keep(o)), zero)

    @property
    def final_totals(self) -> dict[str, tuple[Number, ...]]:
        """Distribution of each hand's final total, index 0 to 9."""
        return {
            "player": tuple(self._sum(lambda o, t=t: o.player_total == t) for t in range(10)),
            "banker": tuple(self._sum(lambda o, t=t: o.banker_total == t) for t in range(10)),
        }

    @property
    def cards_dealt(self) -> dict[int, Number]:
        """Probability that 4, 5 or 6 cards are dealt."""
        return {n: self._sum(lambda o, n=n: o.cards == n) for n in (4, 5, 6)}

    @property
    def naturals(self) -> dict[str, Number]:
        """Naturals: each side's two-card 8 and 9, any natural, and a natural tie."""
        out = {
            f"{side.word}_{t}": self._sum(lambda o, s=side, t=t: _natural(o.coup, s) == t)
            for side in (Side.PLAYER, Side.BANKER)
            for t in (8, 9)
        }
        out["any"] = self._sum(lambda o: o.natural)
        out["tie"] = self._sum(lambda o: o.natural and o.winner is Result.TIE)
        return out

    @property
    def draws(self) -> dict[str, Number]:
        """Probability that the Player, and the Banker, draw a third card."""
        return {
            "player": self._sum(lambda o: o.player_cards == 3),
            "banker": self._sum(lambda o: o.banker_cards == 3),
        }


_SET = {f: getattr(Odds, f).__set__ for f in Odds.__slots__}


def _float_odds(composition: tuple[int, ...], variant: Variant, probs: Any, edges: Any) -> Odds:
    """``Odds(..., exact=False)`` at half the cost (slots set directly: the fast path)."""
    odds = object.__new__(Odds)
    _SET["composition"](odds, composition)
    _SET["variant"](odds, variant)
    _SET["exact"](odds, False)
    _SET["probabilities"](odds, probs)
    _SET["edges"](odds, edges)
    _SET["counts"](odds, None)
    _SET["replacement"](odds, False)
    return odds


def _natural(coup: Coup, side: Side) -> int | None:
    """The side's natural total (8 or 9), or None."""
    natural = coup.player_natural if side is Side.PLAYER else coup.banker_natural
    return coup.total(side) if natural else None


def _total(n: int, replacement: bool) -> int:
    return n**ek.DEAL_CARDS if replacement else ek.falling(n)


@lru_cache(maxsize=64)
def _class_counts(values: tuple[int, ...], replacement: bool = False) -> tuple[int, ...]:
    return tuple(ek.exact_leaf_products(values, ek.outcome_table().counts, replacement))


@lru_cache(maxsize=256)
def _class_probabilities(
    values: tuple[int, ...], exact: bool, replacement: bool = False
) -> tuple[Number, ...]:
    total = _total(sum(values), replacement)
    if exact:
        return tuple(Fraction(n, total) for n in _class_counts(values, replacement))
    mono = ek.leaf_monomials(np.array(values, dtype=np.float64), replacement)
    probs = (mono @ ek.outcome_table().counts) / float(total)
    return tuple(float(p) for p in probs)


def outcome_counts(counts: Sequence[int], *, replacement: bool = False) -> dict[Outcome, int]:
    """Exact number of ordered 6-card deals ending in each outcome class.

    >>> sum(outcome_counts(full_shoe(1)).values())
    14658134400
    """
    values = composition(counts)[0]
    return dict(zip(outcomes(), _class_counts(values, replacement), strict=True))


def odds(
    counts: Sequence[int],
    variant: Variant = PUNTO_BANCO,
    *,
    exact: bool = False,
    replacement: bool = False,
) -> Odds:
    """Odds of every bet for the shoe ``counts`` (10 by value, 13 by rank or 52 by card).

    With ``replacement`` the counts are weights of cards drawn with replacement: the
    infinite deck is ``odds(full_shoe(1), replacement=True)``.

    >>> from baccara.variants import find_variant
    >>> o = odds(full_shoe(8), find_variant("ez"))
    >>> round(o.edges["banker"], 6), round(o.edges["dragon_7"], 6), round(o.edges["panda_8"], 6)
    (0.010183, 0.076113, 0.101876)
    >>> round(odds(full_shoe(1), replacement=True).probabilities["tie"], 9)
    0.09542557
    >>> odds([1, 2, 3])
    Traceback (most recent call last):
    ...
    baccara.exact.odds.CompositionError: bad composition of 3 counts: give 10 (by value), 13 (by rank) or 52 (by card)
    >>> odds(full_shoe(6), find_variant("chemmy"))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    baccara.variants.FamilyError: chemin-de-fer is a players' game (Chemin de Fer); the exact engine covers the house-banked games: punto-banco, ...
    """
    if variant.family is not Family.PUNTO_BANCO:
        require_family(variant, Family.PUNTO_BANCO, user="the exact engine")
    plan = _plan(variant)
    if not exact and not replacement and len(counts) == 10 and _plain_ints(counts):
        out = plan.fast(counts)  # one compiled call: 16 edges, then 3 probabilities
        return _float_odds(
            tuple(counts),
            variant,
            dict(zip(PROBABILITY_KEYS, out[_N_EDGES:], strict=True)),
            dict(zip(BET_KEYS, out[:_N_EDGES], strict=True)),
        )
    values, ranks, cards = composition(counts)
    named = _quantities(values, ranks, cards, plan, variant, exact, replacement)
    counts_out = None
    if exact:
        total = _total(sum(values), replacement)
        counts_out = {w: int(named[f"p_{w}"] * total) for w in PROBABILITY_KEYS}
        counts_out["total"] = total
    return Odds(
        composition=values,
        variant=variant,
        exact=exact,
        probabilities={w: named[f"p_{w}"] for w in PROBABILITY_KEYS},
        edges={k: -named[k] for k in BET_KEYS},
        counts=counts_out,
        replacement=replacement,
    )


def _plain_ints(counts: Sequence[Any], _int_only: set[type] = {int}) -> bool:  # noqa: B006
    try:
        return (
            set(map(type, counts)) == _int_only
            and min(counts) >= 0
            and sum(counts) >= ek.DEAL_CARDS
        )
    except TypeError:
        return False


def _quantities(
    values: tuple[int, ...],
    ranks: tuple[int, ...],
    cards: tuple[int, ...],
    plan: _Plan,
    variant: Variant,
    exact: bool,
    replacement: bool,
) -> dict[str, Any]:
    n = sum(values)
    if exact:
        counts = _class_counts(values, replacement)
        total = _total(n, replacement)
        out: list[Any] = []
        for j, den in enumerate(plan.denominators):
            num = sum(c * w for c, w in zip(counts, plan.numerators[:, j].tolist(), strict=True))
            out.append(Fraction(num, total * den))
        moments: list[Any] = [
            int(m)
            for m in (
                *_moments(np.array(ranks, dtype=object), replacement),
                *_moments(np.array(cards, dtype=object), replacement),
            )
        ]
    else:
        c = np.array(values, dtype=np.float64)
        out = ek.single_quantities(
            c, plan.table_t32, plan.table4_t32, plan.coef, replacement
        ).tolist()
        out = out[: len(plan.names)]
        moments = [
            float(m)
            for m in (
                *_moments(np.array(ranks, dtype=np.float64), replacement),
                *_moments(np.array(cards, dtype=np.float64), replacement),
            )
        ]
    named = dict(zip(plan.names, out, strict=True))
    named.update(_pair_returns(moments, n, variant, exact, replacement))
    return named


# -- batches --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class BatchOdds:
    """Odds of many shoes: one row per shoe, one column per name in ``columns``.

    Columns: ``p_banker``, ``p_player``, ``p_tie``, then ``edge_<bet>`` for each bet.
    """

    columns: tuple[str, ...]
    values: np.ndarray

    def __getitem__(self, name: str) -> np.ndarray:
        """One column by name."""
        try:
            return self.values[:, self.columns.index(name)]
        except ValueError:
            raise KeyError(f"no column {name!r}: choose from {', '.join(self.columns)}") from None

    def __len__(self) -> int:
        return int(self.values.shape[0])


def _check_batch(compositions: Any) -> np.ndarray:
    try:
        arr = np.asarray(compositions)
    except (TypeError, ValueError) as error:
        raise CompositionError(f"bad batch of compositions: {error}") from None
    if arr.ndim != 2 or arr.shape[1] != 10:
        raise CompositionError(
            f"bad batch of shape {arr.shape}: expected K rows of 10 counts by point value"
        )
    if arr.dtype.kind not in "iuf" or (arr.dtype.kind == "f" and not np.isfinite(arr).all()):
        raise CompositionError("bad batch: counts must be whole numbers")
    ints = arr.astype(np.int64, copy=False)
    if arr.dtype.kind == "f" and (ints != arr).any():
        raise CompositionError("bad batch: counts must be whole numbers")
    if ints.size and ints.min() < 0:
        row = int(np.flatnonzero((ints < 0).any(axis=1))[0])
        raise CompositionError(f"bad batch: negative count in row {row}")
    small = ints.sum(axis=1) < ek.DEAL_CARDS
    if small.any():
        row = int(np.flatnonzero(small)[0])
        raise CompositionError(
            f"bad batch: row {row} holds fewer than {ek.DEAL_CARDS} cards, too few for a coup"
        )
    return ints


def batch_odds(
    compositions: Any, variant: Variant = PUNTO_BANCO, side_bets: bool = True
) -> BatchOdds:
    """Odds of K shoes at once, from a (K, 10) array of counts by point value.

    With ``side_bets=False`` only the main bets' edges are computed (faster).

    >>> b = batch_odds(np.array([full_shoe(8), full_shoe(1)]), side_bets=False)
    >>> b.columns
    ('p_banker', 'p_player', 'p_tie', 'edge_player', 'edge_banker', 'edge_tie')
    >>> b["edge_banker"].round(6).tolist()
    [0.010579, 0.010117]
    """
    require_family(variant, Family.PUNTO_BANCO, user="the exact engine")
    comps = _check_batch(compositions).astype(np.float64)
    plan = _plan(variant, side_bets)
    cols = eb.batch_columns(comps, plan.table, plan.table4)
    kinds = BETS if side_bets else MAIN_BETS
    # Pairs: ranks and suits split evenly, as for a single shoe of 10 counts.
    pays = _pair_pay_array(variant) if side_bets else np.zeros((0, 2))
    values = eb.finish_batch(cols, comps, plan.coef, pays, plan.slot, plan.table4.shape[1])
    columns = (*(f"p_{w}" for w in PROBABILITY_KEYS), *(f"edge_{k.value}" for k in kinds))
    return BatchOdds(columns=columns, values=values)


# -- effects of removal ---------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class BalancedCount:
    """A balanced card-counting system for one bet: integer tags by point value.

    Tags are proportional to the effect of removal on the bettor (a card whose
    removal helps the bet counts positive) and sum to zero over a full deck;
    ``correlation`` is their betting correlation with the exact effects.
    """

    bet: str
    tags: tuple[int, ...]
    correlation: float


@dataclass(frozen=True, slots=True, kw_only=True)
class EffectsOfRemoval:
    """Change in each probability and house edge when one card of each value is removed.

    ``edges[bet][v]`` is edge(shoe less one card of value ``v``) - edge(full shoe)
    (the ten removed for value 0); ``probabilities`` likewise for Banker/Player/Tie.
    """

    decks: int
    variant: Variant
    base: Odds
    probabilities: dict[str, tuple[float, ...]]
    edges: dict[str, tuple[float, ...]]

    def balanced_count(self, bet: str | BetKind = BetKind.BANKER, levels: int = 3) -> BalancedCount:
        """The best balanced count with tags in ``-levels..levels`` for ``bet``.

        >>> count = effects_of_removal(8).balanced_count("banker", levels=1)
        >>> len(count.tags), sum(t * n for t, n in zip(count.tags, full_shoe(1)))
        (10, 0)
        """
        key = BetKind.parse(bet).value if isinstance(bet, str) else bet.value
        gain = -np.array(self.edges[key])  # removal that lowers the edge helps the bettor
        tags, corr = _balanced_tags(gain, np.array(full_shoe(1), dtype=np.float64), levels)
        return BalancedCount(bet=key, tags=tags, correlation=corr)


def _correlation(tags: np.ndarray, gain: np.ndarray, weight: np.ndarray) -> float:
    mean_t = (weight * tags).sum() / weight.sum()
    mean_g = (weight * gain).sum() / weight.sum()
    t, g = tags - mean_t, gain - mean_g
    den = np.sqrt((weight * t * t).sum() * (weight * g * g).sum())
    return float((weight * t * g).sum() / den) if den > 0 else 0.0


def _balanced_tags(
    gain: np.ndarray, weight: np.ndarray, levels: int
) -> tuple[tuple[int, ...], float]:
    """Search the scales at which rounded tags change; fix the balance greedily."""
    top = np.abs(gain).max()
    if top == 0:
        return (0,) * 10, 0.0
    scales = {float(levels)}
    for g in np.abs(gain) / top:
        for h in np.arange(0.5, levels + 0.5):
            if g > 0:
                scales.add(float(h / g) * (1 + 1e-9))
    best: tuple[float, tuple[int, ...]] = (-2.0, (0,) * 10)
    for s in sorted(scales):
        tags = np.clip(np.rint(gain / top * s), -levels, levels)
        for _ in range(100):
            imbalance = float((weight * tags).sum())
            if imbalance == 0:
                break
            moves = []
            for v in range(10):
                for step in (-1, 1):
                    t2 = tags.copy()
                    t2[v] += step
                    if abs(t2[v]) > levels:
                        continue
                    after = abs(float((weight * t2).sum()))
                    if after < abs(imbalance):
                        moves.append((after, -_correlation(t2, gain, weight), v, step))
            if not moves:
                break
            _, _, v, step = min(moves)
            tags[v] += step
        if float((weight * tags).sum()) == 0 and tags.any():
            corr = _correlation(tags, gain, weight)
            if corr > best[0]:
                best = (corr, tuple(int(t) for t in tags))
    return best[1], best[0]


def _card_of_value(value: int) -> Card:
    return Card(rank=Rank("T") if value == 0 else RANKS[value - 1], suit=SUITS[0])


def effects_of_removal(decks: int = 8, variant: Variant = PUNTO_BANCO) -> EffectsOfRemoval:
    """Effects of removing one card of each value from a full shoe of ``decks`` decks.

    >>> e = effects_of_removal(8)
    >>> round(e.probabilities["player"][4], 10), round(e.probabilities["player"][0], 10)
    (-4.35175e-05, -3.7381e-05)
    """
    require_family(variant, Family.PUNTO_BANCO, user="the exact engine")
    if isinstance(decks, bool) or not isinstance(decks, Integral) or not 1 <= decks <= MAX_DECKS:
        raise CompositionError(f"bad number of decks {decks!r}: expected 1 to {MAX_DECKS}")
    full = (int(decks),) * 52
    base = odds(full, variant)
    prob: dict[str, list[float]] = {w: [] for w in PROBABILITY_KEYS}
    edge: dict[str, list[float]] = {k.value: [] for k in BETS}
    for v in range(10):
        less = odds(remove_cards(full, [_card_of_value(v)]), variant)
        for w in PROBABILITY_KEYS:
            prob[w].append(float(less.probabilities[w]) - float(base.probabilities[w]))
        for k in BETS:
            edge[k.value].append(float(less.edges[k.value]) - float(base.edges[k.value]))
    return EffectsOfRemoval(
        decks=int(decks),
        variant=variant,
        base=base,
        probabilities={k: tuple(v) for k, v in prob.items()},
        edges={k: tuple(v) for k, v in edge.items()},
    )
