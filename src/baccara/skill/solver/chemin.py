"""Optimal play in Chemin de Fer: the punter-banker game solved by linear programming.

Four information models (`Model`, named as in Ethier and Lee 2023):
``kemeny-snell`` (A1: cards drawn with replacement, each side sees its own
total; Kemeny and Snell 1957), ``totals`` (B1: a shoe of N decks dealt without
replacement, each side sees its own total), ``downton-lockwood`` (B2: the banker
sees his two cards, the punter his total; Downton and Lockwood 1975) and
``compositions`` (B3: each side sees its own two cards; Ethier and Gámez 2013).
The punter's only choice is on 5 (by composition in the last model); the
banker, when ``banker="free"``, chooses in every cell (his total or two cards,
against the punter's third card or "stood"), or only in the free cells of the
``house`` tableau (`tableaux.House`) with ``banker="tableau"``.

Without commission the game is zero-sum and solved as a pair of linear programs
(SciPy's HiGHS): the banker's maximin and the punter's minimax, whose values
must agree. With a commission the game is not zero-sum (the house takes its
share): the solver finds a Nash equilibrium (iterated strict dominance, then a
small mixed-integer program on the cells left), as Ethier and Lee (2023) do.

>>> sol = solve_chemin("kemeny-snell")
>>> round(sol.player_draw["5"] * 11, 6), round(sol.value, 4)
(9.0, 0.0128)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy.optimize import Bounds, LinearConstraint, linprog, milp

from baccara.skill import tableaux
from baccara.skill.solver.models import (
    AdditiveGame,
    Array,
    ChoiceValue,
    Model,
    SolverError,
    build_game,
)

__all__ = [
    "CheminSolution",
    "ChoiceValue",
    "ChoiceValues",
    "Model",
    "SolverError",
    "best_response_gains",
    "choice_values",
    "house_strategy",
    "solve_chemin",
    "solve_game",
]

_TOL = 1e-9


@dataclass(frozen=True, slots=True, kw_only=True)
class CheminSolution:
    """An equilibrium of one model.

    ``player_draw`` maps each punter choice ("5", or a composition "1-4") to his
    probability of drawing; ``banker_draw`` maps each banker cell (info, third)
    to his. ``value`` is the banker's expected gain per unit staked by the
    punter, net of commission; ``punter_loss`` the punter's expected loss (the
    same without commission); ``house_value`` the banker's gain when both play
    by the house tableau (its free cells settled as in Punto Banco, so the same
    for every `tableaux.House`); ``house`` names the tableau whose free cells
    are the only choices of a ``banker="tableau"``. ``primal_value`` and
    ``dual_value`` are the two linear programs' optima (zero-sum only; None with a
    commission).
    """

    model: Model
    decks: int | None
    counts: tuple[int, ...] | None  # the shoe's cards by point value, when given so
    commission: float
    banker: str
    house: str
    player_draw: dict[str, float]
    banker_draw: dict[tuple[str, int | None], float]
    value: float
    punter_loss: float
    house_value: float
    house_punter_loss: float
    primal_value: float | None
    dual_value: float | None
    x: Array
    y: Array

    @property
    def banker_mixed(self) -> dict[tuple[str, int | None], float]:
        """The banker cells where he mixes, with his drawing probability."""
        return {cell: p for cell, p in self.banker_draw.items() if _TOL < p < 1 - _TOL}

    def banker_draws(self, info: str, third: int | None) -> float:
        """The banker's drawing probability with ``info`` (total or composition) against ``third``."""
        key = (info, third)
        if key not in self.banker_draw:
            raise SolverError(f"no banker cell {info!r} against {third!r} in this model")
        return self.banker_draw[key]

    def departures(self) -> list[tuple[tuple[str, int | None], float, bool]]:
        """Banker cells where the equilibrium differs from the house tableau: (cell, p, house)."""
        out = []
        for cell, p in self.banker_draw.items():
            total = _total_of(cell[0])
            house = tableaux.house_banker_draws(total, cell[1])
            if abs(p - float(house)) > _TOL:
                out.append((cell, p, house))
        return out

    def to_json(self) -> dict[str, Any]:
        """The solution as plain JSON data (``baccara solve ... --json``)."""
        if self.model is Model.COMPOSITIONS:
            draw5: Any = {k: round(v, 12) for k, v in self.player_draw.items()}
        else:
            draw5 = round(self.player_draw["5"], 12)
        return {
            "model": self.model.value,
            "decks": self.decks,
            "counts": None if self.counts is None else list(self.counts),
            "commission": self.commission,
            "banker": self.banker,
            "house": self.house,
            "value": self.value,
            "punter_loss": self.punter_loss,
            "player_draw_on_5": draw5,
            "banker_mixed": [
                {"info": c[0], "third": c[1], "draw": p} for c, p in self.banker_mixed.items()
            ],
            "banker_departures": [
                {"info": c[0], "third": c[1], "draw": p, "house_draws": h}
                for c, p, h in self.departures()
            ],
            "banker_strategy": {
                info: [self.banker_draw[(info, t)] for t in (*range(10), None)]
                for info in dict.fromkeys(c[0] for c in self.banker_draw)
            },
            "house_value": self.house_value,
            "house_punter_loss": self.house_punter_loss,
            "primal_value": self.primal_value,
            "dual_value": self.dual_value,
        }


def _total_of(info: str) -> int:
    if "-" in info:
        a, b = (int(v) for v in info.split("-"))
        return (a + b) % 10
    return int(info)


def house_strategy(game: AdditiveGame) -> tuple[Array, Array]:
    """Both sides playing by the house tableau, free cells as in Punto Banco."""
    x = np.array([float(tableaux.house_punter_draws(5)) for _ in game.player_labels])
    y = np.array(
        [
            float(tableaux.house_banker_draws(t, third))
            for (_, third), t in zip(game.cells, game.cell_totals, strict=True)
        ]
    )
    return x, y


def _banker_bounds(
    game: AdditiveGame, banker: str, house: str = tableaux.House.FRENCH
) -> tuple[Array, Array]:
    """Bounds on the banker's draw probabilities: all free, or only the tableau's free cells."""
    n = len(game.cells)
    if banker == "free":
        return np.zeros(n), np.ones(n)
    if banker != "tableau":
        raise SolverError(f"bad banker model {banker!r}: choose free or tableau")
    lo, hi = np.zeros(n), np.ones(n)
    for i, ((_, third), total) in enumerate(zip(game.cells, game.cell_totals, strict=True)):
        cell = tableaux.banker_cell(total, third, house)
        if cell is not tableaux.Cell.FREE:
            lo[i] = hi[i] = float(cell is tableaux.Cell.DRAW)
    return lo, hi


def _zero_sum(game: AdditiveGame, lo: Array, hi: Array) -> tuple[Array, Array, float, float]:
    """Solve the zero-sum game: the banker's LP and the punter's LP."""
    k, n = len(game.player_labels), len(game.cells)
    # Banker: max c + l.y + sum_c w_c, w_c <= k[c,a] + m[c,a].y for both actions a.
    c_obj = np.concatenate([-game.lin_b, -np.ones(k)])
    rows, rhs = [], []
    for c in range(k):
        for a in (0, 1):
            row = np.zeros(n + k)
            row[:n] = -game.m_b[c, a]
            row[n + c] = 1.0
            rows.append(row)
            rhs.append(game.k_b[c, a])
    bounds = [(lo[i], hi[i]) for i in range(n)] + [(None, None)] * k
    primal = linprog(c_obj, A_ub=np.array(rows), b_ub=np.array(rhs), bounds=bounds, method="highs")
    if primal.status != 0:
        raise SolverError(f"the banker's linear program failed: {primal.message}")
    y = np.clip(primal.x[:n], lo, hi)
    primal_value = game.const_b - float(primal.fun)
    # Punter: min c + sum_c stand-terms + x.(draw-stand) + sum_I t_I,
    # t_I >= (hi_I - lo_I) slope_I(x), t_I >= 0, plus the slopes at lo.
    # slope_I(x) = l_I + sum_c m[c,0,I] + x_c (m[c,1,I] - m[c,0,I]).
    base = game.lin_b + game.m_b[:, 0, :].sum(axis=0)
    delta = (game.m_b[:, 1, :] - game.m_b[:, 0, :]).T  # n x k
    width = hi - lo
    const = game.const_b + float(game.k_b[:, 0].sum()) + float(base @ lo)
    c_x = (game.k_b[:, 1] - game.k_b[:, 0]) + delta.T @ lo
    c_obj2 = np.concatenate([c_x, np.ones(n)])
    a_ub = np.hstack([width[:, None] * delta, -np.eye(n)])
    b_ub = -width * base
    bounds2 = [(0.0, 1.0)] * k + [(0.0, None)] * n
    dual = linprog(c_obj2, A_ub=a_ub, b_ub=b_ub, bounds=bounds2, method="highs")
    if dual.status != 0:
        raise SolverError(f"the punter's linear program failed: {dual.message}")
    x = np.clip(dual.x[:k], 0.0, 1.0)
    dual_value = const + float(dual.fun)
    return x, y, primal_value, dual_value


def _nash(game: AdditiveGame, lo: Array, hi: Array) -> tuple[Array, Array]:
    """A Nash equilibrium of the non-zero-sum game (commission on the banker's wins)."""
    k = len(game.player_labels)
    xlo, xhi = np.zeros(k), np.ones(k)
    ylo, yhi = lo.copy(), hi.copy()
    d_b = game.m_b[:, 1, :] - game.m_b[:, 0, :]  # k x n: banker slope per x_c
    base_b = game.lin_b + game.m_b[:, 0, :].sum(axis=0)
    g0 = game.k_g[:, 1] - game.k_g[:, 0]
    d_g = game.m_g[:, 1, :] - game.m_g[:, 0, :]  # punter loss slope per y_I
    for _ in range(100):  # iterated strict dominance on boxes
        changed = False
        smin = base_b + np.minimum(d_b * xlo[:, None], d_b * xhi[:, None]).sum(axis=0)
        smax = base_b + np.maximum(d_b * xlo[:, None], d_b * xhi[:, None]).sum(axis=0)
        for cell in np.flatnonzero((smin > _TOL) & (ylo < yhi)):
            ylo[cell] = yhi[cell]
            changed = True
        for cell in np.flatnonzero((smax < -_TOL) & (ylo < yhi)):
            yhi[cell] = ylo[cell]
            changed = True
        gmin = g0 + np.minimum(d_g * ylo, d_g * yhi).sum(axis=1)
        gmax = g0 + np.maximum(d_g * ylo, d_g * yhi).sum(axis=1)
        for c in range(k):  # the punter draws where drawing lowers his loss
            if xlo[c] < xhi[c] and gmax[c] < -_TOL:
                xlo[c] = 1.0
                changed = True
            elif xlo[c] < xhi[c] and gmin[c] > _TOL:
                xhi[c] = 0.0
                changed = True
        if not changed:
            break
    free_x = [c for c in range(k) if xlo[c] < xhi[c]]
    free_y = [int(i) for i in np.flatnonzero(ylo < yhi)]
    x, y = xlo.copy(), ylo.copy()
    if not free_x and not free_y:
        return x, y
    # Complementarity as a MILP: variables x_f, y_f, then binaries (a, b) per variable.
    fx, fy = len(free_x), len(free_y)
    nv = fx + fy
    big = 4.0
    y0, x0 = y.copy(), x.copy()
    y0[free_y], x0[free_x] = 0.0, 0.0
    gconst = g0[free_x] + d_g[free_x] @ y0
    bconst = base_b[free_y] + x0 @ d_b[:, free_y]
    rows: list[Array] = []
    lbs: list[float] = []
    ubs: list[float] = []
    total = nv + 2 * nv

    def add(row: Array, lb: float, ub: float) -> None:
        rows.append(row)
        lbs.append(lb)
        ubs.append(ub)

    for j, c in enumerate(free_x):
        # a: x may be > 0 (then its loss slope <= 0); b: x may be < 1 (slope >= 0).
        a, b = nv + 2 * j, nv + 2 * j + 1
        row = np.zeros(total)
        row[j], row[a] = 1.0, -1.0
        add(row, -np.inf, 0.0)
        row = np.zeros(total)
        row[j], row[b] = -1.0, -1.0
        add(row, -np.inf, -1.0)
        slope = np.zeros(total)
        for jj, i in enumerate(free_y):
            slope[fx + jj] = d_g[c, i]
        row = slope.copy()
        row[a] = big
        add(row, -np.inf, big - gconst[j])
        row = -slope
        row[b] = big
        add(row, -np.inf, big + gconst[j])
    for jj, i in enumerate(free_y):
        ya, yb = nv + 2 * (fx + jj), nv + 2 * (fx + jj) + 1
        span = yhi[i] - ylo[i]
        row = np.zeros(total)
        row[fx + jj], row[ya] = 1.0, -span
        add(row, -np.inf, ylo[i])
        row = np.zeros(total)
        row[fx + jj], row[yb] = -1.0, -span
        add(row, -np.inf, -yhi[i])
        slope = np.zeros(total)
        for j, c in enumerate(free_x):
            slope[j] = d_b[c, i]
        row = -slope
        row[ya] = big
        add(row, -np.inf, big + bconst[jj])
        row = slope.copy()
        row[yb] = big
        add(row, -np.inf, big - bconst[jj])
    lower = np.concatenate([np.zeros(fx), ylo[free_y], np.zeros(2 * nv)])
    upper = np.concatenate([np.ones(fx), yhi[free_y], np.ones(2 * nv)])
    integrality = np.concatenate([np.zeros(nv), np.ones(2 * nv)])
    result = milp(
        np.zeros(total),
        constraints=LinearConstraint(np.array(rows), np.array(lbs), np.array(ubs)),
        integrality=integrality,
        bounds=Bounds(lower, upper),
    )
    if result.status != 0 or result.x is None:
        raise SolverError(f"no equilibrium found: {result.message}")
    x[free_x] = result.x[:fx]
    y[free_y] = result.x[fx:nv]
    return _polish(game, x, y, lo, hi)


def _polish(game: AdditiveGame, x: Array, y: Array, lo: Array, hi: Array) -> tuple[Array, Array]:
    """Sharpen the MILP's equilibrium (it is exact only to HiGHS's feasibility tolerance).

    Cells whose banker slope has a clear sign become pure best responses; the mixed
    probabilities are then solved from the indifference equations. The polished pair
    is kept only if it is a better equilibrium (smaller best-response gains).
    """
    d_b = game.m_b[:, 1, :] - game.m_b[:, 0, :]
    base_b = game.lin_b + game.m_b[:, 0, :].sum(axis=0)
    g0 = game.k_g[:, 1] - game.k_g[:, 0]
    d_g = game.m_g[:, 1, :] - game.m_g[:, 0, :]
    slopes = base_b + x @ d_b
    y2 = np.where(slopes > _TOL, hi, np.where(slopes < -_TOL, lo, y))
    x2 = x.copy()
    mix_y = np.flatnonzero((y2 > lo + _TOL) & (y2 < hi - _TOL))
    mix_x = np.flatnonzero((x2 > _TOL) & (x2 < 1 - _TOL))
    if len(mix_y) and len(mix_x):
        # the punter indifferent on his mixed sets: solve for the banker's mixed cells
        pure_y = y2.copy()
        pure_y[mix_y] = 0.0
        rhs = -(g0[mix_x] + d_g[mix_x] @ pure_y)
        y2[mix_y] = np.linalg.lstsq(d_g[np.ix_(mix_x, mix_y)], rhs, rcond=None)[0]
        # the banker indifferent in his mixed cells: solve for the punter's mixed sets
        pure_x = x2.copy()
        pure_x[mix_x] = 0.0
        rhs = -(base_b[mix_y] + pure_x @ d_b[:, mix_y])
        x2[mix_x] = np.linalg.lstsq(d_b[np.ix_(mix_x, mix_y)].T, rhs, rcond=None)[0]
    if not ((lo <= y2) & (y2 <= hi)).all() or not ((x2 >= 0) & (x2 <= 1)).all():
        return x, y
    before = max(abs(g) for g in _gains(game, x, y, lo, hi))
    after = max(abs(g) for g in _gains(game, x2, y2, lo, hi))
    return (x2, y2) if after < before else (x, y)


def best_response_gains(
    game: AdditiveGame,
    x: Array,
    y: Array,
    banker: str = "free",
    house: str = tableaux.House.FRENCH,
) -> tuple[float, float]:
    """What each side gains by switching to a best response: (banker, punter).

    The banker's gain is in his net result, the punter's in his loss avoided.
    At an equilibrium both are 0 (to rounding).
    """
    return _gains(game, x, y, *_banker_bounds(game, banker, house))


def _gains(game: AdditiveGame, x: Array, y: Array, lo: Array, hi: Array) -> tuple[float, float]:
    slopes = game.banker_slopes(x)
    y_best = np.where(slopes > 0, hi, lo)
    banker_gain = game.banker_payoff(x, y_best) - game.banker_payoff(x, y)
    x_best = (game.punter_slopes(y) < 0).astype(np.float64)
    punter_gain = game.punter_loss(x, y) - game.punter_loss(x_best, y)
    return banker_gain, punter_gain


def solve_game(
    game: AdditiveGame, banker: str = "free", house: str = tableaux.House.FRENCH
) -> CheminSolution:
    """Solve an `AdditiveGame` (see `solve_chemin`)."""
    house = tableaux.House.parse(house)
    lo, hi = _banker_bounds(game, banker, house)
    primal: float | None = None
    dual: float | None = None
    if game.commission == 0.0:
        x, y, primal, dual = _zero_sum(game, lo, hi)
    else:
        x, y = _nash(game, lo, hi)
    # Cells no deal reaches: play them as the house does.
    hx, hy = house_strategy(game)
    unreached = game.reach <= 0.0
    y = np.where(unreached, hy, y)
    x = np.where(np.abs(x - np.round(x)) < _TOL, np.round(x), x) + 0.0
    y = np.where(np.abs(y - np.round(y)) < _TOL, np.round(y), y) + 0.0
    return CheminSolution(
        model=game.model,
        decks=game.decks,
        counts=game.counts,
        commission=game.commission,
        banker=banker,
        house=house.value,
        player_draw={label: float(p) for label, p in zip(game.player_labels, x, strict=True)},
        banker_draw={cell: float(p) for cell, p in zip(game.cells, y, strict=True)},
        value=game.banker_payoff(x, y),
        punter_loss=game.punter_loss(x, y),
        house_value=game.banker_payoff(hx, hy),
        house_punter_loss=game.punter_loss(hx, hy),
        primal_value=primal,
        dual_value=dual,
        x=x,
        y=y,
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class ChoiceValues:
    """What each choice is worth at every decision of an equilibrium, given what the
    chooser sees, the other side playing the equilibrium.

    ``punter[label]``: the punter's expected result per unit he stakes (his win less
    his loss; the commission is the banker's) with that free total or composition of
    5 and no natural. ``banker[cell]``: the banker's expected net result per unit
    staked against him (after commission) in that cell, NaN where no coup goes.
    """

    punter: dict[str, ChoiceValue]
    banker: dict[tuple[str, int | None], ChoiceValue]


def choice_values(solution: CheminSolution) -> ChoiceValues:
    """The value of drawing and of standing at each decision of ``solution``'s game.

    Each is the cell's share of the game's payoff (`AdditiveGame`) divided by the
    cell's chance. Where the equilibrium mixes, the two are equal.

    >>> sol = solve_chemin("compositions", decks=6, commission=0.05)
    >>> values = choice_values(sol)
    >>> values.punter["1-4"].indifferent, round(values.punter["1-4"].draw, 4)  # he mixes
    (True, 0.0062)
    >>> [round(v, 4) for v in values.banker[("0-3", 9)]]  # drawing beats standing
    [0.1272, 0.0724]
    """
    game = build_game(solution.model, solution.decks, solution.commission, solution.counts)
    p_draw, p_stand = game.punter_values(solution.y)
    b_draw, b_stand = game.banker_values(solution.x)
    return ChoiceValues(
        punter={
            label: ChoiceValue(draw=float(d), stand=float(s))
            for label, d, s in zip(game.player_labels, p_draw, p_stand, strict=True)
        },
        banker={
            cell: ChoiceValue(draw=float(d), stand=float(s))
            for cell, d, s in zip(game.cells, b_draw, b_stand, strict=True)
        },
    )


def solve_chemin(
    model: Model | str = Model.KEMENY_SNELL,
    *,
    decks: int = 6,
    commission: float = 0.0,
    banker: str = "free",
    house: str = tableaux.House.FRENCH,
    counts: tuple[int, ...] | None = None,
) -> CheminSolution:
    """Solve Chemin de Fer under ``model`` with ``decks`` and a ``commission`` (0.05 for 5%).

    Any shoe: ``counts``, the cards left by point value (tens first), in place of
    ``decks``. ``banker="tableau"`` lets the banker choose only in the free cells of
    ``house``.

    >>> sol = solve_chemin("totals", decks=6)
    >>> abs(sol.primal_value - sol.dual_value) < 1e-12
    True
    >>> sol = solve_chemin("downton-lockwood", decks=6)
    >>> round(sol.player_draw["5"], 5), round(sol.value, 7), list(sol.banker_mixed)
    (0.80535, 0.0129367, [('0-6', None)])
    """
    return solve_game(build_game(model, decks, commission, counts), banker, house)
