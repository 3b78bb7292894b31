"""Monte Carlo check of the solver: deal many coups and let two strategies play them.

Deals are drawn exactly as a model says (with replacement for ``kemeny-snell``,
otherwise six cards from a fresh shoe of N decks); the punter follows the
tableau except on 5, where he draws with his probability for his total or
composition; the banker draws with his probability in his cell. The result is
the banker's mean net gain per unit staked, to compare with the solver.

>>> from baccara.skill.solver.chemin import solve_chemin
>>> sol = solve_chemin("kemeny-snell")
>>> sim = simulate(sol.model, sol.x, sol.y, coups=20_000, seed=1)
>>> abs(sim.mean - sol.value) < 4 * sim.stderr
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from baccara import rules
from baccara.cards import hand_total
from baccara.skill.solver.models import (
    COMPOSITION_LABELS,
    FULL_DECK,
    Array,
    Model,
    SolverError,
    banker_compositions,
    shoe_counts,
)
from baccara.skill.tableaux import Cell, punter_cell

__all__ = ["SimulationResult", "deal_values", "simulate"]

Ints = npt.NDArray[np.int64]
_TOTAL = np.array([[hand_total([a, b]) for b in range(10)] for a in range(10)], dtype=np.int64)
_NATURAL = np.array([rules.is_natural(t) for t in range(10)])
_FORCED_DRAW = np.array([t < 8 and punter_cell(t) is Cell.DRAW for t in range(10)])
_CHUNK = 1_000_000
_FREE = np.array([t < 8 and punter_cell(t) is Cell.FREE for t in range(10)])


@dataclass(frozen=True, slots=True, kw_only=True)
class SimulationResult:
    """Mean net gain of the banker per coup, its standard error, and the number of coups."""

    mean: float
    stderr: float
    coups: int


def deal_values(
    model: Model,
    decks: int,
    coups: int,
    rng: np.random.Generator,
    counts: tuple[int, ...] | None = None,
) -> Ints:
    """``coups`` deals of six card values, shape (coups, 6), in deal order, each from a
    fresh shoe of ``decks`` decks (or of the cards left, ``counts`` by point value)."""
    if model is Model.KEMENY_SNELL:
        deck = np.array(FULL_DECK, dtype=np.float64)
        return rng.choice(10, size=(coups, 6), p=deck / deck.sum()).astype(np.int64)
    shoe = np.array(shoe_counts(decks, counts), dtype=np.float64)
    left = np.tile(shoe, (coups, 1))
    out = np.zeros((coups, 6), dtype=np.int64)
    rows = np.arange(coups)
    for k in range(6):
        cum = np.cumsum(left, axis=1)
        u = rng.random(coups) * cum[:, -1]
        value = (cum > u[:, None]).argmax(axis=1)
        out[:, k] = value
        left[rows, value] -= 1
    return out


def simulate(
    model: Model | str,
    x: Array,
    y: Array,
    *,
    coups: int,
    seed: int,
    decks: int = 6,
    commission: float = 0.0,
    counts: tuple[int, ...] | None = None,
) -> SimulationResult:
    """Play ``coups`` coups with punter draw probabilities ``x`` and banker's ``y``,
    each from a fresh shoe of ``decks`` decks or of the cards left (``counts``).

    ``x`` and ``y`` are laid out as the solver's (`AdditiveGame` order).
    """
    model = Model.parse(model) if isinstance(model, str) else model
    if coups < 2:
        raise SolverError(f"bad number of coups {coups}: at least 2")
    rng = np.random.default_rng(seed)
    total, squares, done = 0.0, 0.0, 0
    while done < coups:
        size = min(_CHUNK, coups - done)
        gain = _play(model, x, y, (decks, counts), commission, size, rng)
        total += float(gain.sum())
        squares += float((gain * gain).sum())
        done += size
    mean = total / coups
    variance = max(squares / coups - mean * mean, 0.0) * coups / (coups - 1)
    return SimulationResult(mean=mean, stderr=math.sqrt(variance / coups), coups=coups)


def _play(
    model: Model,
    x: Array,
    y: Array,
    shoe: tuple[int, tuple[int, ...] | None],
    commission: float,
    coups: int,
    rng: np.random.Generator,
) -> Array:
    """The banker's net gain in each of ``coups`` simulated coups."""
    d = deal_values(model, shoe[0], coups, rng, shoe[1])
    p1, b1, p2, b2, c5, c6 = d.T
    pt, bt = _TOTAL[p1, p2], _TOTAL[b1, b2]
    natural = _NATURAL[pt] | _NATURAL[bt]
    # The punter: forced by the tableau, or his probability on 5.
    if model is Model.COMPOSITIONS:
        lows = [int(label.split("-")[0]) for label in COMPOSITION_LABELS]
        lookup = np.zeros(10, dtype=np.int64)
        for i, low in enumerate(lows):
            lookup[low] = i
        set_index = lookup[np.minimum(p1, p2)]
    else:
        set_index = np.zeros(coups, dtype=np.int64)
    p_draw = np.where(_FREE[pt], x[set_index], _FORCED_DRAW[pt].astype(np.float64))
    punter_draws = ~natural & (rng.random(coups) < p_draw)
    pfin = np.where(punter_draws, _TOTAL[pt, c5], pt)
    # The banker's cell: his information and the punter's third card (10: stood).
    column = np.where(punter_draws, c5, rules.NO_CARD)
    if model.banker_sees_cards:
        comp_index = np.zeros((10, 10), dtype=np.int64)
        for i, (a, b) in enumerate(banker_compositions()):
            comp_index[a, b] = comp_index[b, a] = i
        info = comp_index[b1, b2]
    else:
        info = bt
    cell = np.where(natural, 0, info * (rules.NO_CARD + 1) + column)
    banker_draws = ~natural & (rng.random(coups) < y[cell])
    card = np.where(punter_draws, c6, c5)
    bfin = np.where(banker_draws, _TOTAL[bt, card], bt)
    outcome = np.sign(bfin - pfin).astype(np.float64)
    result: Array = np.where(outcome > 0, 1.0 - commission, outcome)
    return result
