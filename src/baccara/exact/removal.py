"""Effects of removal: how each card taken out moves every bet's edge, and balanced counts.

>>> eor = effects_of_removal(8)
>>> [round(eor.edges["banker"][v] * 1e4, 3) for v in (5, 8)]  # a 5 or an 8 taken out
[0.827, 0.502]
"""

from __future__ import annotations

from dataclasses import dataclass
from numbers import Integral

import numpy as np

from baccara.bets import BetKind
from baccara.cards import RANKS, SUITS, Card, Rank
from baccara.exact.composition import CompositionError, full_shoe, remove_cards
from baccara.exact.odds import Odds, odds
from baccara.exact.outcomes import BETS, PROBABILITY_KEYS
from baccara.shoe import MAX_DECKS
from baccara.variants import PUNTO_BANCO, Family, Variant, require_family

__all__ = ["BalancedCount", "EffectsOfRemoval", "effects_of_removal"]

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
