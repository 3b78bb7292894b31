"""Baccarat Banque: the banker's best decision against two tableaux, and an equilibrium.

The stated model (documented in docs/skill_variants.md): each punter sees only his
own total and chooses only on 5 (draws on 0-4, stands on 6-7); a punter's natural is
shown and settled at once against the banker's first two cards; the banker, without
a natural, sees his own total and what each tableau showed (its third card, "stood",
or a natural) and draws or stands once for both. The cards are drawn with
replacement (value 0 weighs 4/13), as in Kemeny and Snell's model, unless a shoe is
given (``counts``, the cards left by point value, or ``decks`` full decks): then every
card comes from the cards left. `baccara.skill.solver.banque_chances` enumerates the
coups either way. The banker weighs the two tableaux by their stakes (``left_stake``,
``right_stake``). No commission.

`banker_decisions` gives the banker's best decision in every cell for any pair of
punter strategies, `banker_values` and `punter_values` what drawing and standing are
each worth to the one who chooses (his expected result per unit staked, given what he
sees), `expected_results` each tableau's value to the banker; `solve_banque` finds the
symmetric equilibrium: both punters draw on 5 with the same probability, each
indifferent (or at a bound) given the banker's best response, the banker mixing where
he is indifferent.

>>> sol = solve_banque()
>>> 0 < sol.player_draw_on_5 < 1, sol.value > 0
(True, True)
>>> one = solve_banque(decks=1)
>>> round(one.player_draw_on_5, 6), round(100 * one.value, 4), one.counts[:2]
(0.761793, 0.925, (16, 4))
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
from scipy.optimize import brentq

from baccara.skill.solver.banque_chances import (
    COLUMNS,
    COUP_CARDS,
    DRAWS_ON_5,
    NATURAL,
    STANDS_ON_5,
    STOOD,
    BanqueChances,
    banque_chances,
    swap_halves,
)
from baccara.skill.solver.models import Array, ChoiceValue, SolverError, shoe_counts

__all__ = [
    "NATURAL",
    "STOOD",
    "BanqueSolution",
    "ChoiceValue",
    "banker_decisions",
    "banker_values",
    "expected_results",
    "punter_values",
    "solve_banque",
]

_TOL = 1e-12
Counts = tuple[int, ...] | None


def _weights(p: float) -> Array:
    return np.array([1.0, p, 1.0 - p])  # by type: BOUND, DRAWS_ON_5, STANDS_ON_5


def _mix(tensor: Array, p_left: float, p_right: float) -> Array:
    """A [left type, right type, ...] tensor summed with the punters' weights."""
    mixed: Array = np.einsum("i,j,ij...->...", _weights(p_left), _weights(p_right), tensor)
    return mixed


def _check_p(p: float, name: str) -> None:
    if not 0.0 <= p <= 1.0:
        raise SolverError(f"bad {name} {p!r}: a drawing probability is 0 to 1")


def _cell_values(
    ch: BanqueChances, p_left: float, p_right: float, left_stake: float, right_stake: float
) -> Array:
    """V[b, l, r]: the banker's gain from drawing, weighted by the cell's chance."""
    gain = ch.draw - ch.stand  # 0 against a natural, settled before he chooses
    both = left_stake * gain + right_stake * swap_halves(gain)
    return _mix(both, p_left, p_right)


def banker_decisions(
    p_left: float = 1.0,
    p_right: float = 1.0,
    *,
    left_stake: float = 1.0,
    right_stake: float = 1.0,
    counts: Counts = None,
) -> npt.NDArray[np.bool_]:
    """Whether the banker should draw, as a boolean array [total 0-7, left column, right column].

    Columns 0-9 are the tableau's third card, `STOOD` (10) and `NATURAL` (11);
    ``p_left``/``p_right`` are the punters' probabilities of drawing on 5; ``counts``
    the cards left by point value (tens first), None for cards drawn with replacement.
    A cell no coup reaches is a stand.

    >>> d = banker_decisions()
    >>> bool(d[6, 6, 6]), bool(d[6, STOOD, STOOD]), bool(d[6, 5, 5]), bool(d[3, 8, 8])
    (True, True, False, False)
    """
    _check_p(p_left, "left drawing probability")
    _check_p(p_right, "right drawing probability")
    return _cell_values(banque_chances(counts), p_left, p_right, left_stake, right_stake) > _TOL


def banker_values(
    total: int,
    left: int,
    right: int,
    p_left: float = 1.0,
    p_right: float = 1.0,
    *,
    left_stake: float = 1.0,
    right_stake: float = 1.0,
    counts: Counts = None,
) -> ChoiceValue:
    """What drawing and standing are worth to the banker with ``total`` (0-7) against the
    ``left`` and ``right`` columns: his expected result per unit staked on the tableaux
    still in play (a natural's is settled), each weighed by its stake, given the cell,
    the punters drawing on 5 with ``p_left`` and ``p_right``, the cards from ``counts``
    (None: with replacement).

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
    if not 0 <= total <= 7 or not (0 <= left < COLUMNS and 0 <= right < COLUMNS):
        raise SolverError(f"no banker cell {total!r} against {left!r} and {right!r}")
    live = [
        (stake, swap)
        for stake, swap, column in ((left_stake, False, left), (right_stake, True, right))
        if column != NATURAL
    ]
    if not live:
        raise SolverError("both tableaux showed a natural: the banker has no choice")
    scale = sum(stake for stake, _ in live)
    if scale <= 0:
        raise SolverError("nothing is staked on the tableaux still in play")
    ch = banque_chances(counts)
    cell = (total, left, right)
    chance = float(_mix(ch.chance, p_left, p_right)[cell])
    if chance <= 0.0:
        raise SolverError(
            f"no coup from this shoe reaches banker {total} against {left} and {right}"
        )
    draw = stand = 0.0
    for stake, swap in live:
        draws, stands = (swap_halves(t) if swap else t for t in (ch.draw, ch.stand))
        draw += stake * float(_mix(draws, p_left, p_right)[cell])
        stand += stake * float(_mix(stands, p_left, p_right)[cell])
    return ChoiceValue(draw=draw / (scale * chance), stand=stand / (scale * chance))


def _on_five(ch: BanqueChances, p_other: float, y: Array, kind: int) -> float:
    """The banker's gain on the left tableau over its 5s drawn or stood (``kind``),
    without a banker natural, summed with their chances."""
    rows = ch.stand[kind] + y * (ch.draw[kind] - ch.stand[kind])  # [right type, cell]
    return float(_weights(p_other) @ rows.reshape(3, -1).sum(axis=1))


def punter_values(p_other: float, y: Array, *, counts: Counts = None) -> ChoiceValue:
    """What drawing and standing on 5 are worth to a punter: his expected result per unit
    staked, given his 5 and the banker without a natural (as the model has it, he sees
    only his own total), the other tableau's punter drawing on 5 with ``p_other`` and the
    banker drawing with ``y[total, this column, other column]``, the cards from
    ``counts`` (None: with replacement).

    >>> sol = solve_banque()
    >>> v = punter_values(sol.player_draw_on_5, sol.banker_draw)  # he mixes: indifferent
    >>> v.indifferent, round(v.draw, 4)
    (True, -0.0035)
    """
    _check_p(p_other, "other drawing probability")
    ch = banque_chances(counts)
    chance = float(_weights(p_other) @ ch.chance[DRAWS_ON_5].reshape(3, -1).sum(axis=1))
    if chance <= 0.0:
        raise SolverError("no punter is dealt a 5 from this shoe")
    draw = -_on_five(ch, p_other, y, DRAWS_ON_5) / chance
    stand = -_on_five(ch, p_other, y, STANDS_ON_5) / chance
    return ChoiceValue(draw=draw, stand=stand)


def _punter_slope(ch: BanqueChances, p_right: float, y: Array) -> float:
    """The left punter's change in loss (per unit) from drawing on 5 rather than standing."""
    return _on_five(ch, p_right, y, DRAWS_ON_5) - _on_five(ch, p_right, y, STANDS_ON_5)


def _loss(ch: BanqueChances, p_left: float, p_right: float, y: Array, left: bool) -> float:
    """A punter's expected loss per unit (the banker's expected gain on that tableau)."""
    draw, stand = (t if left else swap_halves(t) for t in (ch.draw, ch.stand))
    return ch.settled + float(_mix(stand + y * (draw - stand), p_left, p_right).sum())


def expected_results(
    p_left: float, p_right: float, y: Array, *, counts: Counts = None
) -> tuple[float, float]:
    """The banker's expected result per unit staked on the left and on the right tableau,
    the punters drawing on 5 with ``p_left`` and ``p_right`` and the banker with
    ``y[total, left column, right column]``.

    >>> sol = solve_banque()
    >>> p, y = sol.player_draw_on_5, sol.banker_draw
    >>> [round(100 * v, 4) for v in expected_results(p, p, y)], round(sol.value * 100, 4)
    ([0.868, 0.868], 0.868)
    >>> round(100 * expected_results(1.0, p, y)[0], 4)  # the left punter is indifferent
    0.868
    """
    _check_p(p_left, "left drawing probability")
    _check_p(p_right, "right drawing probability")
    ch = banque_chances(counts)
    return _loss(ch, p_left, p_right, y, True), _loss(ch, p_left, p_right, y, False)


@dataclass(frozen=True, slots=True, kw_only=True)
class BanqueSolution:
    """The symmetric equilibrium of the stated Banque model (see the module docstring)
    for the cards ``counts`` (by point value, tens first), or with replacement (None)."""

    player_draw_on_5: float
    banker_draw: Array
    value: float
    house_value: float
    punter_gain: float
    banker_gain: float
    counts: tuple[int, ...] | None = None

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
            "model": "banque-replacement-totals" if self.counts is None else "banque-shoe-totals",
            "counts": None if self.counts is None else list(self.counts),
            "value": self.value,
            "player_draw_on_5": self.player_draw_on_5,
            "house_value": self.house_value,
            "banker_mixed": [
                {"total": b, "left": names[left], "right": names[right], "draw": p}
                for b, left, right, p in self.mixed_cells()
            ],
            "banker_draws": {
                str(b): [
                    [float(self.banker_draw[b, left, right]) for right in range(COLUMNS)]
                    for left in range(COLUMNS)
                ]
                for b in range(8)
            },
            "best_response_gains": {"banker": self.banker_gain, "punter": self.punter_gain},
        }


def _value(ch: BanqueChances, p: float, y: Array) -> float:
    return 0.5 * (_loss(ch, p, p, y, True) + _loss(ch, p, p, y, False))


def _best(ch: BanqueChances, p: float) -> Array:
    best: Array = (_cell_values(ch, p, p, 1.0, 1.0) > _TOL).astype(np.float64)
    return best


def _refine(ch: BanqueChances, p: float) -> float:
    """Move ``p`` to the exact point where a banker cell changes its decision, if one does."""
    if not 0.0 < p < 1.0:
        return p
    a, b = max(p - 1e-6, 0.0), min(p + 1e-6, 1.0)
    changed = np.argwhere(_best(ch, a) != _best(ch, b))
    if len(changed) == 0:
        return p
    cell = tuple(int(i) for i in changed[0])

    def v(q: float) -> float:
        return float(_cell_values(ch, q, q, 1.0, 1.0)[cell])

    return float(brentq(v, a, b, xtol=1e-16, rtol=4 * np.finfo(float).eps))


def solve_banque(
    *, iterations: int = 200, decks: int | None = None, counts: tuple[int, ...] | None = None
) -> BanqueSolution:
    """The symmetric equilibrium of the stated model, equal stakes on both tableaux:
    cards drawn with replacement, or from ``decks`` full decks, or from the cards left
    (``counts`` by point value, tens first; at least 9, a coup's most).

    ``value`` is the banker's expected gain per unit staked on a tableau;
    ``house_value`` the same when the punters draw on 5 and the banker answers
    with his best response (his decisions are his own in Banque). In a cell no coup
    from the shoe reaches, the banker plays as with replacement.
    """
    if decks is not None and counts is not None:
        raise SolverError("give a number of decks or the cards left, not both")
    shoe = (
        None if decks is None and counts is None else shoe_counts(decks, counts, least=COUP_CARDS)
    )
    ch = banque_chances(shoe)

    def phi(p: float) -> float:
        return _punter_slope(ch, p, _best(ch, p))

    lo, hi = 0.0, 1.0
    if phi(hi) < 0:
        p = 1.0
    elif phi(lo) > 0:
        p = 0.0
    else:
        for _ in range(iterations):
            mid = 0.5 * (lo + hi)
            if phi(mid) < 0:
                lo = mid
            else:
                hi = mid
            if hi - lo < 1e-15:
                break
        p = 0.5 * (lo + hi)
    p = _refine(ch, p)
    y_lo, y_hi = _best(ch, max(p - 1e-9, 0.0)), _best(ch, min(p + 1e-9, 1.0))
    s_lo, s_hi = _punter_slope(ch, p, y_lo), _punter_slope(ch, p, y_hi)
    if abs(s_hi - s_lo) > _TOL and s_lo * s_hi <= 0:
        q = s_lo / (s_lo - s_hi)  # mix the tied cells so the punter is indifferent
        y = y_lo + q * (y_hi - y_lo)
    else:
        y = y_lo if abs(s_lo) <= abs(s_hi) else y_hi
    unreached = ch.chance.sum(axis=(0, 1)) <= 0.0
    if unreached.any():  # cells no coup from the shoe reaches: as with replacement
        y = np.where(unreached, _best(banque_chances(), p), y)
    value = _value(ch, p, y)
    house = _value(ch, 1.0, _best(ch, 1.0))
    banker_gain = _value(ch, p, _best(ch, p)) - value
    slope = _punter_slope(ch, p, y)
    punter_gain = max(0.0, -slope * (1 - p), slope * p)
    return BanqueSolution(
        player_draw_on_5=p,
        banker_draw=y,
        value=value,
        house_value=house,
        punter_gain=punter_gain,
        banker_gain=banker_gain,
        counts=shoe,
    )
