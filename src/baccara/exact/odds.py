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

Every outcome is classified by the dealer (`baccara.deal`, through
`baccara.exact._tables`) and every bet's pay comes from `baccara.bets.payout` on a real
coup of that outcome class (`baccara.exact._plan`); shoes are given as in
`baccara.exact.compositions`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from numbers import Integral
from typing import Any

import numpy as np

from baccara.bets import BetKind
from baccara.cards import RANKS, SUITS, Card, Rank
from baccara.coup import Coup, Result, Side
from baccara.exact import _kernels as ek
from baccara.exact import batch as eb
from baccara.exact._plan import (
    _N_EDGES,
    BET_KEYS,
    BETS,
    MAIN_BETS,
    PAIR_BETS,
    PROBABILITY_KEYS,
    VALUE_BETS,
    VALUE_NAMES,
    Number,
    Outcome,
    _moments,
    _pair_pay_array,
    _pair_returns,
    _Plan,
    _plan,
    outcomes,
)
from baccara.exact.compositions import (
    CompositionError,
    composition,
    full_shoe,
    remove_cards,
)
from baccara.shoe import MAX_DECKS
from baccara.variants import PUNTO_BANCO, Variant

__all__ = [
    "BETS",
    "PAIR_BETS",
    "PROBABILITY_KEYS",
    "VALUE_BETS",
    "VALUE_NAMES",
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
    baccara.exact.compositions.CompositionError: bad composition of 3 counts: give 10 (by value), 13 (by rank) or 52 (by card)
    """
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
