"""Baccarat Banque: the banker's best decision against two tableaux, and an equilibrium.

The stated model (documented in docs/skill_variants.md): cards are drawn with
replacement (value 0 weighs 4/13), as in Kemeny and Snell's model; each punter
sees only his own total and chooses only on 5 (draws on 0-4, stands on 6-7); a
punter's natural is shown and settled at once against the banker's first two
cards; the banker, without a natural, sees his own total and what each tableau
showed (its third card, "stood", or a natural) and draws or stands once for both.
The banker weighs the two tableaux by their stakes (``left_stake``,
``right_stake``). No commission.

`banker_decisions` gives the banker's best decision in every cell for any pair of
punter strategies, `banker_values` and `punter_values` what drawing and standing are
each worth to the one who chooses (his expected result per unit staked, given what he
sees); `solve_banque` finds the symmetric equilibrium: both punters draw on 5 with the
same probability, each indifferent (or at a bound) given the banker's best response,
the banker mixing where he is indifferent.

>>> sol = solve_banque()
>>> 0 < sol.player_draw_on_5 < 1, sol.value > 0
(True, True)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt
from scipy.optimize import brentq

from baccara import rules
from baccara.cards import hand_total
from baccara.skill.solver.models import Array, ChoiceValue, SolverError
from baccara.skill.tableaux import Cell, punter_cell

__all__ = [
    "NATURAL",
    "STOOD",
    "BanqueSolution",
    "ChoiceValue",
    "banker_decisions",
    "banker_values",
    "punter_values",
    "solve_banque",
]

STOOD = rules.NO_CARD
"""Tableau column: the punter stood on two cards."""
NATURAL = STOOD + 1
"""Tableau column: the punter showed a natural (settled at once)."""
_COLS = NATURAL + 1
_Q = np.array([4.0] + [1.0] * 9) / 13.0
_TOL = 1e-12


def _outcomes() -> tuple[Array, Array]:
    """out[b, p] = sign(b - p); drawn[b, p] = the banker's expected outcome if he draws."""
    out = np.sign(np.subtract.outer(np.arange(10), np.arange(10))).astype(np.float64)
    drawn = np.zeros((10, 10))
    for b in range(10):
        for c in range(10):
            drawn[b] += _Q[c] * out[hand_total([b, c])]
    return out, drawn


_OUT, _DRAWN = _outcomes()


def _two_card_totals() -> Array:
    probs = np.zeros(10)
    for a in range(10):
        for b in range(10):
            probs[hand_total([a, b])] += _Q[a] * _Q[b]
    return probs


_TWO = _two_card_totals()


def _tableau_tables() -> tuple[Array, Array, Array]:
    """Joint (column, punter final total) probabilities: forced part, and the 5 drawn/stood."""
    forced = np.zeros((_COLS, 10))
    five_draw = np.zeros((_COLS, 10))
    five_stand = np.zeros((_COLS, 10))
    for total in range(10):
        pr = _TWO[total]
        if rules.is_natural(total):
            forced[NATURAL, total] += pr
            continue
        cell = punter_cell(total)
        if cell is Cell.STAND:
            forced[STOOD, total] += pr
            continue
        target = forced if cell is Cell.DRAW else five_draw
        for c in range(10):
            target[c, hand_total([total, c])] += pr * _Q[c]
        if cell is Cell.FREE:
            five_stand[STOOD, total] += pr
    return forced, five_draw, five_stand


_FORCED, _FIVE_DRAW, _FIVE_STAND = _tableau_tables()


def _joint(p: float) -> Array:
    return _FORCED + p * _FIVE_DRAW + (1 - p) * _FIVE_STAND


def _check_p(p: float, name: str) -> None:
    if not 0.0 <= p <= 1.0:
        raise SolverError(f"bad {name} {p!r}: a drawing probability is 0 to 1")


def _cell_values(p_left: float, p_right: float, left_stake: float, right_stake: float) -> Array:
    """V[b, l, r]: the banker's gain from drawing, weighted by the cell's probability."""
    jl, jr = _joint(p_left), _joint(p_right)
    gain = _DRAWN - _OUT  # [b, p]
    dl = jl @ gain.T  # [col, b]: unnormalised gain against the left tableau
    dr = jr @ gain.T
    dl[NATURAL] = 0.0  # a natural tableau is settled before the banker draws
    dr[NATURAL] = 0.0
    pl, pr = jl.sum(axis=1), jr.sum(axis=1)
    v = left_stake * dl.T[:, :, None] * pr[None, None, :]
    v = v + right_stake * pl[None, :, None] * dr.T[:, None, :]
    return np.asarray(v[:8] * _TWO[:8, None, None], dtype=np.float64)


def banker_decisions(
    p_left: float = 1.0, p_right: float = 1.0, *, left_stake: float = 1.0, right_stake: float = 1.0
) -> npt.NDArray[np.bool_]:
    """Whether the banker should draw, as a boolean array [total 0-7, left column, right column].

    Columns 0-9 are the tableau's third card, `STOOD` (10) and `NATURAL` (11);
    ``p_left``/``p_right`` are the punters' probabilities of drawing on 5.

    >>> d = banker_decisions()
    >>> bool(d[6, 6, 6]), bool(d[6, STOOD, STOOD]), bool(d[6, 5, 5]), bool(d[3, 8, 8])
    (True, True, False, False)
    """
    _check_p(p_left, "left drawing probability")
    _check_p(p_right, "right drawing probability")
    return _cell_values(p_left, p_right, left_stake, right_stake) > _TOL


@lru_cache(maxsize=16)
def _tableau_results(p: float) -> tuple[Array, Array]:
    """The banker's expected result against one tableau given its column, [column, banker
    total], if he draws and if he stands, its punter drawing on 5 with probability ``p``.
    Against a natural (settled before he chooses) both are the natural's result."""
    joint = _joint(p)
    chance = joint.sum(axis=1)[:, None]
    draw, stand = (joint @ _DRAWN.T) / chance, (joint @ _OUT.T) / chance
    draw[NATURAL] = stand[NATURAL]
    for array in (draw, stand):
        array.setflags(write=False)
    return draw, stand


def banker_values(
    total: int,
    left: int,
    right: int,
    p_left: float = 1.0,
    p_right: float = 1.0,
    *,
    left_stake: float = 1.0,
    right_stake: float = 1.0,
) -> ChoiceValue:
    """What drawing and standing are worth to the banker with ``total`` (0-7) against the
    ``left`` and ``right`` columns: his expected result per unit staked on the tableaux
    still in play (a natural's is settled), each weighed by its stake, the punters
    drawing on 5 with ``p_left`` and ``p_right``.

    Drawing beats standing exactly where `banker_decisions` draws.

    >>> v = banker_values(6, STOOD, STOOD)  # the punters draw on 5, so stood means 6 or 7
    >>> [round(x, 4) for x in v]
    [-0.4231, -0.5]
    >>> v = banker_values(5, 4, STOOD, left_stake=3_000, right_stake=1_000)
    >>> [round(x, 4) for x in v], bool(banker_decisions(left_stake=3, right_stake=1)[5, 4, STOOD])
    ([-0.4049, -0.5286], True)
    """
    _check_p(p_left, "left drawing probability")
    _check_p(p_right, "right drawing probability")
    if not 0 <= total <= 7 or not (0 <= left < _COLS and 0 <= right < _COLS):
        raise SolverError(f"no banker cell {total!r} against {left!r} and {right!r}")
    live = [
        (stake, _tableau_results(p), column)
        for stake, p, column in ((left_stake, p_left, left), (right_stake, p_right, right))
        if column != NATURAL
    ]
    if not live:
        raise SolverError("both tableaux showed a natural: the banker has no choice")
    weights = [stake for stake, _, _ in live]
    scale = sum(weights)
    if scale <= 0:
        raise SolverError("nothing is staked on the tableaux still in play")
    draw = stand = 0.0
    for weight, (_, (draws, stands), column) in zip(weights, live, strict=True):
        draw += weight * float(draws[column, total])
        stand += weight * float(stands[column, total])
    return ChoiceValue(draw=draw / scale, stand=stand / scale)


def punter_values(p_other: float, y: Array) -> ChoiceValue:
    """What drawing and standing on 5 are worth to a punter: his expected result per unit
    staked, given his 5 and the banker without a natural (as the model has it, he sees
    only his own total), the other tableau's punter drawing on 5 with ``p_other`` and the
    banker drawing with ``y[total, this column, other column]``.

    >>> sol = solve_banque()
    >>> v = punter_values(sol.player_draw_on_5, sol.banker_draw)  # he mixes: indifferent
    >>> v.indifferent, round(v.draw, 4)
    (True, -0.0035)
    """
    _check_p(p_other, "other drawing probability")
    scale = _TWO[5] * float(_TWO[:8].sum())
    draw = -_punter_term(p_other, y, _FIVE_DRAW) / scale
    stand = -_punter_term(p_other, y, _FIVE_STAND) / scale
    return ChoiceValue(draw=float(draw), stand=float(stand))


def _punter_slope(p_left: float, p_right: float, y: Array) -> float:
    """The left punter's change in loss (per unit) from drawing on 5 rather than standing."""
    return _punter_term(p_right, y, _FIVE_DRAW - _FIVE_STAND)


def _punter_term(p_right: float, y: Array, rows: Array) -> float:
    """The banker's gain on the left tableau, over its joint [column, final total] ``rows``
    (the punter's 5 drawn, stood, or the difference), without a banker natural."""
    jr = _joint(p_right)
    pr = jr.sum(axis=1)
    total = 0.0
    for b in range(8):
        stand_part = rows @ _OUT[b]  # [col_left]
        draw_part = rows @ _DRAWN[b]
        draw_part[NATURAL] = stand_part[NATURAL]
        # y[b, l, r] averaged over the right tableau's columns
        per_left = stand_part[:, None] + y[b] * (draw_part - stand_part)[:, None]
        total += _TWO[b] * float(np.sum(per_left * pr[None, :]))
    return float(total)


def _loss(p_left: float, p_right: float, y: Array, left: bool = True) -> float:
    """A punter's expected loss per unit (the banker's expected gain on that tableau)."""
    jl, jr = _joint(p_left), _joint(p_right)
    if not left:
        jl, jr = jr, jl
        y = y.transpose(0, 2, 1)
    pr = jr.sum(axis=1)
    total = 0.0
    for b in range(10):
        if rules.is_natural(b):
            total += _TWO[b] * float(np.sum(_TWO * _OUT[b]))
            continue
        stand = jl @ _OUT[b]
        drawn = jl @ _DRAWN[b]
        drawn[NATURAL] = stand[NATURAL]
        per = stand[:, None] + y[b] * (drawn - stand)[:, None]
        total += _TWO[b] * float(np.sum(per * pr[None, :]))
    return float(total)


@dataclass(frozen=True, slots=True, kw_only=True)
class BanqueSolution:
    """The symmetric equilibrium of the stated Banque model (see the module docstring)."""

    player_draw_on_5: float
    banker_draw: Array
    value: float
    house_value: float
    punter_gain: float
    banker_gain: float

    def mixed_cells(self) -> list[tuple[int, int, int, float]]:
        """Cells (banker total, left column, right column, p) where the banker mixes."""
        out = []
        for b, left, right in zip(
            *np.nonzero((self.banker_draw > _TOL) & (self.banker_draw < 1 - _TOL)), strict=True
        ):
            out.append((int(b), int(left), int(right), float(self.banker_draw[b, left, right])))
        return out

    def to_json(self) -> dict[str, Any]:
        """Plain JSON data for ``baccara solve banque --json``."""
        names = [str(c) for c in range(10)] + ["stood", "natural"]
        return {
            "model": "banque-replacement-totals",
            "value": self.value,
            "player_draw_on_5": self.player_draw_on_5,
            "house_value": self.house_value,
            "banker_mixed": [
                {"total": b, "left": names[left], "right": names[right], "draw": p}
                for b, left, right, p in self.mixed_cells()
            ],
            "banker_draws": {
                str(b): [
                    [float(self.banker_draw[b, left, right]) for right in range(_COLS)]
                    for left in range(_COLS)
                ]
                for b in range(8)
            },
            "best_response_gains": {"banker": self.banker_gain, "punter": self.punter_gain},
        }


def _value(p: float, y: Array) -> float:
    return 0.5 * float(_loss(p, p, y, left=True) + _loss(p, p, y, left=False))


def _refine(p: float) -> float:
    """Move ``p`` to the exact point where a banker cell changes its decision, if one does."""
    if not 0.0 < p < 1.0:
        return p
    a, b = max(p - 1e-6, 0.0), min(p + 1e-6, 1.0)
    changed = np.argwhere(banker_decisions(a, a) != banker_decisions(b, b))
    if len(changed) == 0:
        return p
    cell = tuple(int(i) for i in changed[0])

    def v(q: float) -> float:
        return float(_cell_values(q, q, 1.0, 1.0)[cell])

    return float(brentq(v, a, b, xtol=1e-16, rtol=4 * np.finfo(float).eps))


def solve_banque(*, iterations: int = 200) -> BanqueSolution:
    """The symmetric equilibrium of the stated model, equal stakes on both tableaux.

    ``value`` is the banker's expected gain per unit staked on a tableau;
    ``house_value`` the same when the punters draw on 5 and the banker answers
    with his best response (his decisions are his own in Banque).
    """

    def phi(p: float) -> tuple[float, Array]:
        y = banker_decisions(p, p).astype(np.float64)
        return _punter_slope(p, p, y), y

    lo, hi = 0.0, 1.0
    f_lo, _ = phi(lo)
    f_hi, _ = phi(hi)
    if f_hi < 0:
        p = 1.0
    elif f_lo > 0:
        p = 0.0
    else:
        for _ in range(iterations):
            mid = 0.5 * (lo + hi)
            f_mid, _ = phi(mid)
            if f_mid < 0:
                lo = mid
            else:
                hi = mid
            if hi - lo < 1e-15:
                break
        p = 0.5 * (lo + hi)
    p = _refine(p)
    y_lo = banker_decisions(max(p - 1e-9, 0.0), max(p - 1e-9, 0.0)).astype(np.float64)
    y_hi = banker_decisions(min(p + 1e-9, 1.0), min(p + 1e-9, 1.0)).astype(np.float64)
    s_lo, s_hi = _punter_slope(p, p, y_lo), _punter_slope(p, p, y_hi)
    if abs(s_hi - s_lo) > _TOL and s_lo * s_hi <= 0:
        q = s_lo / (s_lo - s_hi)  # mix the tied cells so the punter is indifferent
        y = y_lo + q * (y_hi - y_lo)
    else:
        y = y_lo if abs(s_lo) <= abs(s_hi) else y_hi
    value = _value(p, y)
    house_y = banker_decisions(1.0, 1.0).astype(np.float64)
    house = _value(1.0, house_y)
    banker_best = banker_decisions(p, p).astype(np.float64)
    banker_gain = _value(p, banker_best) - value
    slope = _punter_slope(p, p, y)
    punter_gain = max(0.0, -slope * (1 - p), slope * p)
    return BanqueSolution(
        player_draw_on_5=p,
        banker_draw=y,
        value=value,
        house_value=house,
        punter_gain=punter_gain,
        banker_gain=banker_gain,
    )
