"""The house's theoretical win on a coup's bets, exactly, from the cards left in the shoe.

Bets at a house table are placed before any card of the coup is dealt, so one `price`
of the cards left serves every bet of the round: the chance of each of the 205 outcome
classes (`baccara.exact.odds`), and for the pair bets the chance of a hit from the
ranks and suits the shoe holds. A spot (a player's stake on one bet kind, settled as
one, `baccara.db.ledger.Ledger.settle_round`) then returns, on each outcome, what
`baccara.bets.settle` pays with the table's rounding: the commission on a small Banker
stake is rounded as the table rounds it, so the theory is the table's, not the
nominal edge.

`Price.moments` gives the expectation and the variance of the house's win over a set of
spots of one coup: value bets (everything but the pairs) are functions of the same
outcome class, so their covariances are exact; a pair bet depends on ranks, and each
pair kind is taken as independent of the other bets (its own variance is exact).

>>> from baccara.shoe import Shoe, ShoeSettings
>>> shoe = Shoe.shuffled(ShoeSettings(decks=8), seed=1)
>>> price_ = price(shoe.cards, PUNTO_BANCO)
>>> m = price_.moments([(BetKind.BANKER, 2_000)])
>>> round(m.theo, 4), round(2_000 * 0.010579, 4)  # a full shoe: the Banker's edge
(21.1581, 21.158)
>>> small = price_.moments([(BetKind.BANKER, 10)])  # 5% of 10 rounds down to nothing
>>> small.theo < 0
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache

import numpy as np

from baccara.bets import BetKind, Rounding, payout, settle
from baccara.cards import Card, full_deck
from baccara.coup import Coup
from baccara.exact.odds import odds
from baccara.exact.outcomes import PAIR_BETS, outcomes, pair_coups, pair_pays
from baccara.variants import PUNTO_BANCO, Variant

__all__ = ["Moments", "Price", "Win", "by_card", "price", "stake_rtp"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Moments:
    """The house's expected win (``theo``) on a set of spots, and its ``variance``, in
    minor units (and their square)."""

    theo: float
    variance: float


@dataclass(frozen=True, slots=True, kw_only=True)
class Price:
    """One coup's pricing: the outcome classes' chances and the pair bets' hits."""

    variant: Variant
    classes: np.ndarray  # (205,) the chance of each outcome class
    pair_hits: dict[BetKind, float]  # the chance that each pair bet wins
    commission_rounding: Rounding = Rounding.DOWN
    payout_rounding: Rounding = Rounding.DOWN
    _returns: dict[tuple[BetKind, int], np.ndarray] = field(default_factory=dict, repr=False)

    def returns(self, kind: BetKind, stake: int) -> np.ndarray:
        """What a ``stake`` on ``kind`` returns (stake included) on each outcome: over the
        205 classes for a value bet, over (hit, miss) for a pair bet."""
        key = (kind, stake)
        found = self._returns.get(key)
        if found is None:
            coups, index = _representatives(self.variant, kind)
            paid = np.array(
                [
                    settle(
                        kind,
                        stake,
                        coup,
                        self.variant,
                        commission_rounding=self.commission_rounding,
                        payout_rounding=self.payout_rounding,
                    ).returned
                    for coup in coups
                ],
                dtype=np.float64,
            )
            found = self._returns[key] = paid[index]
        return found

    def win(self, kind: BetKind, stake: int) -> Win:
        """The house's win on a ``stake`` on ``kind``, outcome by outcome."""
        return Win(
            pair=kind if kind in PAIR_BETS else None, outcomes=stake - self.returns(kind, stake)
        )

    def moments(self, spots: Iterable[tuple[BetKind, int]]) -> Moments:
        """The house's expected win on ``spots`` (bet kind, stake) of this coup and its
        variance (see the module for the covariances)."""
        return self.combine([self.win(kind, stake) for kind, stake in spots])

    def combine(self, wins: Iterable[Win]) -> Moments:
        """The expectation and variance of the sum of ``wins`` on this coup."""
        value: np.ndarray | float = 0.0
        pairs: dict[BetKind, np.ndarray] = {}
        for win in wins:
            if win.pair is None:
                value = value + win.outcomes
            else:
                pairs[win.pair] = pairs.get(win.pair, 0.0) + win.outcomes
        mean = variance = 0.0
        if isinstance(value, np.ndarray):
            mean = float(self.classes @ value)
            variance = max(0.0, float(self.classes @ (value * value)) - mean * mean)
        for kind, outcomes_ in pairs.items():
            hit = self.pair_hits[kind]
            p = np.array([hit, 1.0 - hit])
            pair_mean = float(p @ outcomes_)
            mean += pair_mean
            variance += max(0.0, float(p @ (outcomes_ * outcomes_)) - pair_mean * pair_mean)
        return Moments(theo=mean, variance=variance)


@dataclass(frozen=True, slots=True, kw_only=True)
class Win:
    """The house's win on one spot, outcome by outcome: over the 205 outcome classes
    (``pair`` None), or over (hit, miss) of the pair bet ``pair``."""

    pair: BetKind | None
    outcomes: np.ndarray


def by_card(cards: Iterable[Card]) -> tuple[int, ...]:
    """The 52 counts by card (`Card.index` order) of ``cards``.

    >>> by_card([Card.parse("As"), Card.parse("As"), Card.parse("Kc")])[0]
    2
    """
    counts = [0] * 52
    for card in cards:
        counts[card.index] += 1
    return tuple(counts)


def price(
    cards_left: Sequence[Card],
    variant: Variant = PUNTO_BANCO,
    *,
    commission_rounding: Rounding = Rounding.DOWN,
    payout_rounding: Rounding = Rounding.DOWN,
) -> Price:
    """Price the coup to be dealt from ``cards_left`` (the shoe's cards not yet taken,
    card by card: ranks and suits exactly) under ``variant`` and the table's roundings."""
    found = odds(by_card(cards_left), variant)
    classes = np.array(list(found.outcome_probabilities.values()), dtype=np.float64)
    pays = pair_pays(variant, exact=False)
    hits = {}
    for kind in PAIR_BETS:
        win, lose = pays[kind]
        hits[kind] = (float(found.returns[kind.value]) - lose) / (win - lose)
    return Price(
        variant=variant,
        classes=classes,
        pair_hits=hits,
        commission_rounding=commission_rounding,
        payout_rounding=payout_rounding,
    )


def stake_rtp(
    variant: Variant,
    kind: BetKind,
    stake: int,
    *,
    decks: int = 8,
    commission_rounding: Rounding = Rounding.DOWN,
    payout_rounding: Rounding = Rounding.DOWN,
) -> float:
    """What a ``stake`` on ``kind`` gets back per unit staked from a full shoe of
    ``decks``, the table's rounding included: the Banker's 5% on a small stake rounds
    down, so the bettor keeps the fraction and the return rises.

    >>> [round(stake_rtp(PUNTO_BANCO, BetKind.BANKER, s), 5) for s in (10, 19, 20, 30, 1_000)]
    [1.01235, 1.01235, 0.98942, 0.99706, 0.98942]
    """
    found = _full_shoe(variant, decks, commission_rounding, payout_rounding)
    return 1.0 - found.moments([(kind, stake)]).theo / stake


@cache
def _full_shoe(
    variant: Variant, decks: int, commission_rounding: Rounding, payout_rounding: Rounding
) -> Price:
    cards = [card for card in full_deck() for _ in range(decks)]
    return price(
        cards, variant, commission_rounding=commission_rounding, payout_rounding=payout_rounding
    )


@cache
def _representatives(variant: Variant, kind: BetKind) -> tuple[tuple[Coup, ...], np.ndarray]:
    """A coup for each pay ``kind`` has under ``variant``, and each outcome's (for a pair
    bet: hit, miss) index among them."""
    if kind in PAIR_BETS:
        return pair_coups()[kind], np.array([0, 1])
    coups: list[Coup] = []
    seen: dict[object, int] = {}
    index = []
    for outcome in outcomes():
        ratio = payout(kind, outcome.coup, variant).ratio
        if ratio not in seen:
            seen[ratio] = len(coups)
            coups.append(outcome.coup)
        index.append(seen[ratio])
    return tuple(coups), np.array(index)
