"""Chemin de Fer as an additive game: exact chance weights for the four models.

Every deal is enumerated as six card values in shoe order (who gets which card
comes from the dealer's chance model, `baccara.deal`: `deal_finals`), with the exact probability of drawing them from the
shoe (or with replacement for the Kemeny-Snell model). The punter's information
is his two-card total or composition; the banker's is his total or composition
and the punter's third card (or that the punter stood). Each side's expected
result is then bilinear in the two sides' draw probabilities:

    B(x, y) = c + l.y + sum_c [(1 - x_c)(k[c, 0] + m[c, 0].y) + x_c (k[c, 1] + m[c, 1].y)]

where ``x_c`` is the punter's probability of drawing at his free information set
``c`` and ``y_I`` the banker's at cell ``I``. `AdditiveGame` holds these arrays
twice: for the banker's net gain (after commission) and for the punter's loss, and
keeps the chance of each cell and the banker's result there if he stands, so that the
value of each choice at a decision, given what the chooser sees, is a ratio of two
such sums (`AdditiveGame.banker_values`, `AdditiveGame.punter_values`).

>>> game = build_game("kemeny-snell")
>>> game.player_labels, len(game.cells)
(('5',), 88)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from baccara import deal, rules
from baccara.cards import RANKS, SUITS, hand_total
from baccara.shoe import MAX_DECKS, composition_by_value
from baccara.skill.solver.information import Model, SolverError
from baccara.skill.tableaux import Cell, punter_cell

__all__ = [
    "COMPOSITION_LABELS",
    "FULL_DECK",
    "INDIFFERENCE",
    "AdditiveGame",
    "ChoiceValue",
    "Model",
    "SolverError",
    "banker_compositions",
    "build_game",
    "deal_finals",
    "deal_weights",
    "shoe_counts",
]

Array = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]

COMPOSITION_LABELS = ("0-5", "1-4", "2-3", "6-9", "7-8")
"""The punter's five two-card compositions of 5, by point values."""


INDIFFERENCE = 1e-9
"""Two choices whose values differ by at most this (per unit staked) are worth the same."""


class ChoiceValue(NamedTuple):
    """What drawing and standing are each worth to the one who chooses: his expected
    result per unit staked, given what he sees, the other side playing its strategy.

    >>> v = ChoiceValue(draw=-0.05, stand=-0.07)
    >>> v.best, v.indifferent, v._asdict()
    ('draw', False, {'draw': -0.05, 'stand': -0.07})
    """

    draw: float
    stand: float

    @property
    def indifferent(self) -> bool:
        """Whether the two choices are worth the same (to 1e-9 a unit)."""
        return abs(self.draw - self.stand) <= INDIFFERENCE

    @property
    def best(self) -> str:
        """``"draw"``, ``"stand"``, or ``"either"`` when they are worth the same."""
        if self.indifferent:
            return "either"
        return "draw" if self.draw > self.stand else "stand"


@dataclass(frozen=True, slots=True, kw_only=True)
class AdditiveGame:
    """The bilinear payoffs of one model (see the module docstring).

    ``cells`` are the banker's information cells as (info, third) with info a
    total (``"5"``) or a composition (``"2-3"``) and third 0-9 or None (stood);
    ``cell_totals`` their banker totals. Arrays suffixed ``_b`` are the banker's
    net gain, ``_g`` the punter's loss (gross of commission). ``chance_lin`` and
    ``chance`` are the chance weights of the deals reaching each cell, ``stand_lin_b``
    and ``stand_b`` the banker's net gain there if he stands, laid out as ``lin_b`` and
    ``m_b`` (the punter's forced totals folded into ``_lin``, his free sets by action).
    """

    model: Model
    decks: int | None
    commission: float
    counts: tuple[int, ...] | None  # the cards left by point value (tens first), if given
    player_labels: tuple[str, ...]
    cells: tuple[tuple[str, int | None], ...]
    cell_totals: tuple[int, ...]
    const_b: float
    lin_b: Array
    k_b: Array
    m_b: Array
    const_g: float
    lin_g: Array
    k_g: Array
    m_g: Array
    reach: Array
    chance_lin: Array
    chance: Array
    stand_lin_b: Array
    stand_b: Array

    def banker_payoff(self, x: Array, y: Array) -> float:
        """The banker's expected net gain for draw probabilities ``x`` and ``y``."""
        return _payoff(self.const_b, self.lin_b, self.k_b, self.m_b, x, y)

    def punter_loss(self, x: Array, y: Array) -> float:
        """The punter's expected loss (the banker's gain before commission)."""
        return _payoff(self.const_g, self.lin_g, self.k_g, self.m_g, x, y)

    def banker_slopes(self, x: Array) -> Array:
        """For each cell, the banker's gain from drawing there rather than standing."""
        return _slopes(self.lin_b, self.m_b, x)

    def punter_slopes(self, y: Array) -> Array:
        """For each free punter set, the change in his loss from drawing rather than standing."""
        return (self.k_g[:, 1] - self.k_g[:, 0]) + (self.m_g[:, 1, :] - self.m_g[:, 0, :]) @ y

    def cell_chances(self, x: Array) -> Array:
        """For each cell, the chance a coup reaches it (no natural), the punter playing ``x``."""
        return _slopes(self.chance_lin, self.chance, x)

    def banker_values(self, x: Array) -> tuple[Array, Array]:
        """For each cell, the banker's expected net result per unit staked if he draws and if
        he stands there, given the cell (his information and the punter's third card), the
        punter playing ``x``: (draw, stand), NaN in a cell no coup reaches.

        >>> from baccara.skill.solver.chemin import solve_chemin
        >>> game, sol = build_game("kemeny-snell"), solve_chemin("kemeny-snell")
        >>> draw, stand = game.banker_values(sol.x)
        >>> i = game.cells.index(("6", None))  # the banker's mixed cell: indifferent
        >>> round(float(draw[i]), 6), round(float(stand[i]), 6)
        (-0.375, -0.375)
        """
        chance = self.cell_chances(x)
        stand = _slopes(self.stand_lin_b, self.stand_b, x)
        draw = stand + self.banker_slopes(x)
        reached = chance > 0.0
        out = np.full(chance.shape, np.nan)
        return (
            np.divide(draw, chance, out=out.copy(), where=reached),
            np.divide(stand, chance, out=out.copy(), where=reached),
        )

    def punter_values(self, y: Array) -> tuple[Array, Array]:
        """For each free punter set, his expected result per unit staked (minus his loss)
        if he draws and if he stands, given his cards and no natural, the banker playing
        ``y``: (draw, stand).

        >>> from baccara.skill.solver.chemin import solve_chemin
        >>> game, sol = build_game("kemeny-snell"), solve_chemin("kemeny-snell")
        >>> draw, stand = game.punter_values(sol.y)  # he mixes on 5: indifferent
        >>> round(float(draw[0]), 6), round(float(stand[0]), 6)
        (0.012396, 0.012396)
        """
        chance = self.chance[:, 0, :].sum(axis=1)  # every deal of a set, whatever he does
        draw = -(self.k_g[:, 1] + self.m_g[:, 1, :] @ y) / chance
        stand = -(self.k_g[:, 0] + self.m_g[:, 0, :] @ y) / chance
        return draw, stand


def _payoff(const: float, lin: Array, k: Array, m: Array, x: Array, y: Array) -> float:
    stand = k[:, 0] + m[:, 0, :] @ y
    draw = k[:, 1] + m[:, 1, :] @ y
    return float(const + lin @ y + np.sum((1 - x) * stand + x * draw))


def _slopes(lin: Array, m: Array, x: Array) -> Array:
    return lin + (1 - x) @ m[:, 0, :] + x @ m[:, 1, :]


FULL_DECK = composition_by_value((len(SUITS),) * len(RANKS))
"""One deck's cards by point value, tens and faces first: (16, 4, ..., 4)."""


def shoe_counts(
    decks: int | None = None, counts: tuple[int, ...] | None = None, *, least: int = 6
) -> tuple[int, ...]:
    """The cards of a shoe by point value: ``counts`` as given (10 counts, tens first,
    checked, at least ``least`` cards: a coup's most), or ``decks`` full decks.

    >>> shoe_counts(6)[:3], sum(shoe_counts(counts=(0, 1, 0, 0, 0, 0, 0, 0, 0, 5)))
    ((96, 24, 24), 6)
    """
    if counts is None:
        if decks is None or not 1 <= decks <= MAX_DECKS:
            raise SolverError(f"bad number of decks {decks}: expected 1 to {MAX_DECKS}")
        return tuple(decks * c for c in FULL_DECK)
    if len(counts) != 10 or any(c < 0 for c in counts):
        raise SolverError("a shoe is 10 counts by point value, tens first, none negative")
    if any(c > MAX_DECKS * full for c, full in zip(counts, FULL_DECK, strict=True)):
        raise SolverError(f"more cards of a value than {MAX_DECKS} decks hold")
    if sum(counts) < least:
        raise SolverError(
            f"a shoe of {sum(counts)} cards cannot deal a coup: it needs at least {least}"
        )
    return tuple(int(c) for c in counts)


def deal_weights(decks: int | None, counts: tuple[int, ...] | None = None) -> Array:
    """Probabilities of the ordered six-value deals, shape (10,) * 6, from ``decks``
    full decks or the cards left (``counts`` by point value, tens first).

    ``decks=None`` (and no counts) draws with replacement (value 0 weighs 4/13, the
    others 1/13).

    >>> w = deal_weights(1)
    >>> round(float(w.sum()), 12), round(float(w[0, 0, 0, 0, 0, 0] * 52 * 51 * 50 * 49 * 48 * 47))
    (1.0, 5765760)
    >>> bool((deal_weights(None, shoe_counts(2)) == deal_weights(2)).all())
    True
    """
    if decks is None and counts is None:
        q = np.array(FULL_DECK, dtype=np.float64) / 52.0
        w = np.ones((1,) * 6)
        for k in range(6):
            shape = [1] * 6
            shape[k] = 10
            w = w * q.reshape(shape)
        return np.asarray(w, dtype=np.float64)
    left = np.array(shoe_counts(decks, counts), dtype=np.float64)
    idx = np.indices((10,) * 6, dtype=np.int8)
    size = float(left.sum())
    w = np.ones((10,) * 6)
    for k in range(6):
        prior = np.zeros((10,) * 6, dtype=np.int8)
        for j in range(k):
            prior += idx[j] == idx[k]
        w *= np.clip(left[idx[k]] - prior, 0.0, None) / (size - k)  # none left: impossible
    return np.asarray(w, dtype=np.float64)


def banker_compositions() -> tuple[tuple[int, int], ...]:
    """The 44 unordered two-card compositions (by points) that are not naturals.

    >>> comps = banker_compositions()
    >>> len(comps), comps[:3]
    (44, ((0, 0), (0, 1), (0, 2)))
    """
    return tuple(
        (a, b) for a in range(10) for b in range(a, 10) if not rules.is_natural(hand_total([a, b]))
    )


# Lookup tables derived from the rules module: two-card totals and naturals.
_TOTAL = np.array([[hand_total([a, b]) for b in range(10)] for a in range(10)], dtype=np.int64)
_NATURAL = np.array([rules.is_natural(t) for t in range(10)])


def _slots(side: deal.Side, player_cards: int, banker_cards: int) -> list[int]:
    """Where ``side``'s cards lie in the shoe order of a coup of these hand sizes."""
    return [i for i, who in enumerate(deal.order_of(player_cards, banker_cards)) if who is side]


# The dealer's order: the first two cards of each hand, then the third cards
# (the banker's by whether the punter drew).
_PUNTER_TWO = _slots(deal.Side.PLAYER, 2, 2)
_BANKER_TWO = _slots(deal.Side.BANKER, 2, 2)
_PUNTER_THIRD = _slots(deal.Side.PLAYER, 3, 2)[2]
_BANKER_THIRD = (_slots(deal.Side.BANKER, 2, 3)[2], _slots(deal.Side.BANKER, 3, 3)[2])


def deal_finals(deals: Ints, punter_draws: bool) -> tuple[Ints, Ints, Ints, Ints, Ints]:
    """Totals of six-value deals (shape (6, n), in shoe order) by the punter's action.

    Returns the punter's and banker's two-card totals, the punter's final total, the
    banker's column (the punter's third card, or `rules.NO_CARD` if he stood) and the
    banker's total if he draws. Naturals are the caller's to set aside.

    >>> finals = deal_finals(np.array([[2], [5], [3], [0], [4], [9]]), punter_draws=True)
    >>> [int(x[0]) for x in finals]
    [5, 5, 9, 4, 4]
    """
    pt = _TOTAL[deals[_PUNTER_TWO[0]], deals[_PUNTER_TWO[1]]]
    bt = _TOTAL[deals[_BANKER_TWO[0]], deals[_BANKER_TWO[1]]]
    banker_third = deals[_BANKER_THIRD[punter_draws]]
    if punter_draws:
        third = deals[_PUNTER_THIRD]
        return pt, bt, _TOTAL[pt, third], third, _TOTAL[bt, banker_third]
    return pt, bt, pt, np.full(pt.shape, rules.NO_CARD), _TOTAL[bt, banker_third]


def _outcome(banker: npt.NDArray[np.int64], punter: npt.NDArray[np.int64]) -> Array:
    result: Array = np.sign(banker - punter).astype(np.float64)
    return result


@lru_cache(maxsize=32)
def build_game(
    model: Model | str,
    decks: int | None = 6,
    commission: float = 0.0,
    counts: tuple[int, ...] | None = None,
) -> AdditiveGame:
    """Enumerate the deals of ``model`` and return its `AdditiveGame`.

    The shoe: ``decks`` full decks, or the cards left (``counts`` by point value, tens
    first: any shoe, as ``baccara odds`` takes it); both are ignored by
    ``kemeny-snell`` (cards drawn with replacement). ``commission`` is the banker's
    commission on wins (0.05 for 5%).

    >>> full, left = build_game("totals", 1), build_game("totals", counts=shoe_counts(1))
    >>> full.const_b == left.const_b and (full.lin_b == left.lin_b).all()
    np.True_
    """
    model = Model.parse(model) if isinstance(model, str) else model
    if not 0.0 <= commission < 1.0:
        raise SolverError(f"bad commission {commission!r}: expected 0 to 1 (0.05 for 5%)")
    replaced = model is Model.KEMENY_SNELL
    deck_count = None if replaced or counts is not None else decks
    counts = None if replaced else counts
    if not replaced and decks is None and counts is None:
        raise SolverError(f"model {model.value} needs a number of decks or the cards left")
    w6 = deal_weights(deck_count, counts).reshape(-1)
    idx = np.indices((10,) * 6).reshape(6, -1)
    p1, p2 = idx[_PUNTER_TWO[0]], idx[_PUNTER_TWO[1]]
    b1, b2 = idx[_BANKER_TWO[0]], idx[_BANKER_TWO[1]]
    pt, bt = _TOTAL[p1, p2], _TOTAL[b1, b2]
    natural = _NATURAL[pt] | _NATURAL[bt]

    # The punter's group: 0 forced draw, 1 forced stand, 2 + c free set c.
    group = np.full(pt.shape, -1, dtype=np.int64)
    forced = {t: punter_cell(t) for t in range(8)}
    for t, cell in forced.items():
        if cell is Cell.DRAW:
            group[pt == t] = 0
        elif cell is Cell.STAND:
            group[pt == t] = 1
    free_totals = [t for t, cell in forced.items() if cell is Cell.FREE]
    labels: tuple[str, ...]
    if model is Model.COMPOSITIONS:
        labels = COMPOSITION_LABELS
        lo = np.minimum(p1, p2)
        for i, label in enumerate(labels):
            a = int(label.split("-")[0])
            group[(pt == 5) & (lo == a)] = 2 + i
    else:
        labels = tuple(str(t) for t in free_totals)
        for i, t in enumerate(free_totals):
            group[pt == t] = 2 + i

    # The banker's information and cells.
    if model.banker_sees_cards:
        comps = banker_compositions()
        comp_index = np.full((10, 10), -1, dtype=np.int64)
        for i, (a, b) in enumerate(comps):
            comp_index[a, b] = comp_index[b, a] = i
        info = comp_index[b1, b2]
        info_labels = [f"{a}-{b}" for a, b in comps]
        info_totals = [hand_total([a, b]) for a, b in comps]
    else:
        info = bt.copy()
        info_labels = [str(t) for t in range(8)]
        info_totals = list(range(8))
    cols = rules.NO_CARD + 1
    cells = tuple(
        (label, None if col == rules.NO_CARD else col)
        for label in info_labels
        for col in range(cols)
    )
    cell_totals = tuple(t for t in info_totals for _ in range(cols))
    n, k = len(cells), len(labels)
    groups = 2 + k

    win = 1.0 - commission
    play = ~natural
    # Naturals: nobody draws.
    nat_out = _outcome(bt[natural], pt[natural])
    const_b = float(np.sum(w6[natural] * np.where(nat_out > 0, win, nat_out)))
    const_g = float(np.sum(w6[natural] * nat_out))

    kb = np.zeros((groups, 2))
    kg = np.zeros((groups, 2))
    mb = np.zeros((groups, 2, n))
    mg = np.zeros((groups, 2, n))
    reach = np.zeros((groups, 2, n))
    stand_cells = np.zeros((groups, 2, n))
    for action in (0, 1):  # 0: the punter stands, 1: he draws
        sel = play & (group >= 0)
        sel &= (group != 1) if action == 1 else (group != 0)
        w = w6[sel]
        g = group[sel]
        _, btot, pfin, col, bdraw = deal_finals(idx[:, sel], punter_draws=action == 1)
        cell = info[sel] * cols + col
        stand_out = _outcome(btot, pfin)
        draw_out = _outcome(bdraw, pfin)
        stand_b = np.where(stand_out > 0, win, stand_out)
        draw_b = np.where(draw_out > 0, win, draw_out)
        key = g * n + cell
        kb[:, action] = np.bincount(g, weights=w * stand_b, minlength=groups)
        kg[:, action] = np.bincount(g, weights=w * stand_out, minlength=groups)
        size = groups * n
        mb[:, action, :] = np.bincount(key, weights=w * (draw_b - stand_b), minlength=size).reshape(
            groups, n
        )
        mg[:, action, :] = np.bincount(
            key, weights=w * (draw_out - stand_out), minlength=size
        ).reshape(groups, n)
        reach[:, action, :] = np.bincount(key, weights=w, minlength=size).reshape(groups, n)
        stand_cells[:, action, :] = np.bincount(key, weights=w * stand_b, minlength=size).reshape(
            groups, n
        )

    # Fold the forced groups into the constant and linear terms.
    const_b += float(kb[0, 1] + kb[1, 0])
    const_g += float(kg[0, 1] + kg[1, 0])
    lin_b = mb[0, 1] + mb[1, 0]
    lin_g = mg[0, 1] + mg[1, 0]
    reach_total = reach[0, 1] + reach[1, 0] + reach[2:].sum(axis=(0, 1))
    chance_lin = reach[0, 1] + reach[1, 0]
    stand_lin_b = stand_cells[0, 1] + stand_cells[1, 0]
    kb, kg, mb, mg = kb[2:].copy(), kg[2:].copy(), mb[2:].copy(), mg[2:].copy()
    chance, stand_b = reach[2:].copy(), stand_cells[2:].copy()
    shared = (lin_b, lin_g, kb, kg, mb, mg, reach_total, chance_lin, chance, stand_lin_b, stand_b)
    for array in shared:
        array.setflags(write=False)  # the games are cached: share them read-only
    return AdditiveGame(
        model=model,
        decks=deck_count,
        commission=commission,
        counts=None if counts is None else shoe_counts(counts=counts),
        player_labels=labels,
        cells=cells,
        cell_totals=cell_totals,
        const_b=const_b,
        lin_b=lin_b,
        k_b=kb,
        m_b=mb,
        const_g=const_g,
        lin_g=lin_g,
        k_g=kg,
        m_g=mg,
        reach=reach_total,
        chance_lin=chance_lin,
        chance=chance,
        stand_lin_b=stand_lin_b,
        stand_b=stand_b,
    )
