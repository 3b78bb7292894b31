"""What the players' games in OpenSpiel share: chance from the cards left, the shoe and
the banker as parameters, the game's type, and an observer of strings.

Chance deals two cards at once as one outcome: their point values, unordered (cards are
exchangeable, so this is the dealer's chance of them in any deal order). A shoe is its
counts by point value, tens first; None deals with replacement (a deck's proportions),
where only a hand's total matters and each total is dealt as the pair (0, total).

>>> PAIRS[:3], len(PAIRS)
(((0, 0), (0, 1), (0, 2)), 55)
>>> shoe = (2, 1, 0, 0, 0, 0, 0, 0, 0, 1)  # two tens, an ace, a nine
>>> [(PAIRS[i], p) for i, p in pair_chances(shoe)]
[((0, 0), 0.16666666666666666), ((0, 1), 0.3333333333333333), ((0, 9), 0.3333333333333333), ((1, 9), 0.16666666666666666)]
>>> less(shoe, 0, 9), less(None, 0, 9)
((1, 1, 0, 0, 0, 0, 0, 0, 0, 0), None)
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from math import comb
from typing import Any

import numpy as np
import pyspiel

from baccara.skill.solver.information import SolverError
from baccara.skill.solver.models import FULL_DECK, shoe_counts

__all__ = [
    "PAIRS",
    "StringObserver",
    "banker_param",
    "counts_param",
    "game_type",
    "less",
    "pair_chances",
    "value_chances",
]

PAIRS: tuple[tuple[int, int], ...] = tuple((a, b) for a in range(10) for b in range(a, 10))
"""Two cards' point values, unordered (55): a chance outcome is an index into this."""


@lru_cache(maxsize=256)
def value_chances(counts: tuple[int, ...] | None) -> tuple[float, ...]:
    """The chance of each point value as the next card (None: with replacement).

    >>> value_chances(None)[:2]
    (0.3076923076923077, 0.07692307692307693)
    """
    shoe = FULL_DECK if counts is None else counts
    size = sum(shoe)
    return tuple(c / size for c in shoe)


@lru_cache(maxsize=4096)
def pair_chances(counts: tuple[int, ...] | None) -> tuple[tuple[int, float], ...]:
    """The chance of each unordered pair of point values as the next two cards, as
    (index into `PAIRS`, chance), the impossible left out. With replacement only the
    total matters (each side sees totals, and the next cards do not depend on these):
    each total is dealt as the pair (0, total)."""
    if counts is None:
        q = value_chances(None)
        by_total = [0.0] * 10
        for a in range(10):
            for b in range(10):
                by_total[(a + b) % 10] += q[a] * q[b]
        return tuple((PAIRS.index((0, t)), p) for t, p in enumerate(by_total))
    ways = comb(sum(counts), 2)
    found = [
        (i, (comb(counts[a], 2) if a == b else counts[a] * counts[b]) / ways)
        for i, (a, b) in enumerate(PAIRS)
    ]
    return tuple((i, p) for i, p in found if p > 0)


def less(counts: tuple[int, ...] | None, *values: int) -> tuple[int, ...] | None:
    """The cards left once ``values`` are dealt (None, with replacement, stays None)."""
    if counts is None:
        return None
    left = list(counts)
    for v in values:
        left[v] -= 1
    return tuple(left)


def counts_param(params: Mapping[str, Any], decks: int, least: int = 6) -> tuple[int, ...]:
    """The shoe a game's parameters give: ``counts`` ("c0,...,c9", tens first) if set,
    else ``decks`` full decks (``decks`` is the default), at least ``least`` cards.

    >>> counts_param({"counts": "10,3,0,4,2,6,1,4,3,2"}, 6)[:3], counts_param({}, 3)[0]
    ((10, 3, 0), 48)
    >>> counts_param({"counts": "4,1,1,0,0,0,0,0,0,0"}, 6, least=9)
    Traceback (most recent call last):
    ...
    baccara.skill.solver.information.SolverError: a shoe of 6 cards cannot deal a coup of this game: it needs at least 9
    """
    text = str(params.get("counts", "")).strip()
    try:
        given = tuple(int(c) for c in text.split(",")) if text else None
    except ValueError:
        raise SolverError(f"bad counts {text!r}: 10 counts by point value, tens first") from None
    counts = shoe_counts(int(params.get("decks", decks)), given)
    if sum(counts) < least:
        raise SolverError(
            f"a shoe of {sum(counts)} cards cannot deal a coup of this game: it needs at least {least}"
        )
    return counts


def banker_param(params: Mapping[str, Any], allowed: tuple[str, ...] = ("free", "tableau")) -> str:
    """The ``banker`` parameter, checked against the game's ``allowed`` values.

    >>> banker_param({"banker": "tableau"}, ("free",))
    Traceback (most recent call last):
    ...
    baccara.skill.solver.information.SolverError: bad banker 'tableau': free
    """
    banker = str(params.get("banker", "free"))
    if banker not in allowed:
        raise SolverError(f"bad banker {banker!r}: {' or '.join(allowed)}")
    return banker


def game_type(
    short_name: str, long_name: str, players: int, zero_sum: bool, params: dict[str, Any]
) -> Any:
    """A players' game's `pyspiel.GameType`: sequential, dealt by explicit chance, of
    imperfect information, rewarded at the end, with information-state strings."""
    return pyspiel.GameType(
        short_name=short_name,
        long_name=long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=(
            pyspiel.GameType.Utility.ZERO_SUM if zero_sum else pyspiel.GameType.Utility.GENERAL_SUM
        ),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=players,
        min_num_players=players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=False,
        provides_observation_tensor=False,
        parameter_specification=params,
    )


class StringObserver:
    """An OpenSpiel Python observer that gives strings only (``string_from``)."""

    def __init__(self) -> None:
        self.tensor = np.zeros(0, np.float32)  # strings only: no tensor
        self.dict: dict[str, Any] = {}

    def set_from(self, state: Any, player: int) -> None:
        pass

    def string_from(self, state: Any, player: int) -> str:
        raise NotImplementedError
