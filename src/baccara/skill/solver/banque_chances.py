"""Baccarat Banque's chances: every coup enumerated, for any shoe or with replacement.

A coup uses at most nine cards: each tableau's two and its third if it draws, the
banker's two and his third if he draws. Drawn from the cards left (no replacement),
the nine are exchangeable: the chance of a deal does not depend on the order the
dealer takes them in (left, right, banker, twice, then the thirds in turn), so each
hand may be given its own places in the shoe (the left's two and third, the right's,
the banker's) and a third card nobody draws simply stays in the shoe. With
replacement (Kemeny and Snell's model, the solver's default) a card is a 0 with
chance 4/13 and each other value with 1/13. Both are one rule, `Draws`: the next card
is v with chance (n_v - dec * drawn_v) / (size - dec * drawn), dec 1 for the cards
left (``n`` their counts by point value) and 0 with replacement (``n`` the chances).

The enumeration runs over the 55 unordered two-card hands of each of the three
(by point values: two orders for two different values), and over the tableaux'
third cards (a value, or none); the banker's third is summed out exactly. It gives
tensors over [left type, right type, banker total 0-7, left column, right column]:
a tableau's type is `BOUND` (a total the punter may not choose on, or a natural),
`DRAWS_ON_5` or `STANDS_ON_5` (a 5, and what he does with it); a column is the
third card 0-9, `STOOD` or `NATURAL`. With the punters drawing on 5 with chances p
and q, every figure of the coup is the sum of a tensor weighed [1, p, 1 - p] on the
left's types and [1, q, 1 - q] on the right's. The right tableau's tensors are the
left's with the two tableaux swapped (the chances are symmetric).

>>> ch = banque_chances()
>>> full = ch.chance[BOUND] + ch.chance[DRAWS_ON_5]  # the punters draw on 5 (p = 1)
>>> round(float(full[BOUND].sum() + full[DRAWS_ON_5].sum()) + ch.banker_natural, 12)
1.0
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from baccara import rules
from baccara.cards import hand_total
from baccara.skill.solver.models import FULL_DECK, Array, Ints, shoe_counts
from baccara.skill.tableaux import Cell, punter_cell

__all__ = [
    "BOUND",
    "COLUMNS",
    "COUP_CARDS",
    "DRAWS_ON_5",
    "NATURAL",
    "PAIRS",
    "STANDS_ON_5",
    "STOOD",
    "BanqueChances",
    "Draws",
    "banque_chances",
    "clear_cache",
    "hand_chances",
    "swap_halves",
]

STOOD = rules.NO_CARD
"""Tableau column: the punter stood on two cards."""
NATURAL = STOOD + 1
"""Tableau column: the punter showed a natural (settled at once)."""
COLUMNS = NATURAL + 1
"""The number of columns."""
COUP_CARDS = 9
"""A Banque coup's most cards: two tableaux and the banker, three each."""
BOUND, DRAWS_ON_5, STANDS_ON_5 = 0, 1, 2
"""A tableau's types: bound by the rule (or a natural), a 5 drawn, a 5 stood."""

PAIRS = tuple((a, b) for a in range(10) for b in range(a, 10))
"""The 55 two-card hands by point values, lower first."""
_NO_THIRD = 10  # the third-card index of a tableau that does not draw
_TOTAL = np.array([[hand_total([a, b]) for b in range(10)] for a in range(10)], dtype=np.int64)
_PAIR_TOTAL = np.array([_TOTAL[a, b] for a, b in PAIRS], dtype=np.int64)
_PAIR_ORDERS = np.array([1.0 if a == b else 2.0 for a, b in PAIRS])
_PAIR_CARDS = np.array([np.bincount([a, b], minlength=10) for a, b in PAIRS], dtype=np.int64)
_PAIR_NATURAL = np.array([rules.is_natural(int(t)) for t in _PAIR_TOTAL])
# a tableau's final total by its hand and third card (_NO_THIRD: its two cards')
_FINAL = np.concatenate([_TOTAL[_PAIR_TOTAL], _PAIR_TOTAL[:, None]], axis=1)


def _where_counted() -> tuple[list[tuple[int, Ints]], list[tuple[int, int, Ints]]]:
    """Where the banker counts a tableau's hand: the hands that draw, by type (the
    third card is the column); the hands that do not, by type and column. A hand that
    must draw, or may not, is counted once; a 5 both ways."""
    drawers: dict[int, list[int]] = {}
    standers: dict[tuple[int, int], list[int]] = {}
    for hand, total in enumerate(_PAIR_TOTAL):
        cell = None if _PAIR_NATURAL[hand] else punter_cell(int(total))
        if cell is None:
            standers.setdefault((BOUND, NATURAL), []).append(hand)
        elif cell is Cell.STAND:
            standers.setdefault((BOUND, STOOD), []).append(hand)
        elif cell is Cell.DRAW:
            drawers.setdefault(BOUND, []).append(hand)
        else:  # his 5: both ways
            drawers.setdefault(DRAWS_ON_5, []).append(hand)
            standers.setdefault((STANDS_ON_5, STOOD), []).append(hand)
    return (
        [(kind, np.array(hands)) for kind, hands in drawers.items()],
        [(kind, column, np.array(hands)) for (kind, column), hands in standers.items()],
    )


_DRAWERS, _STANDERS = _where_counted()


def _counted(x: Array) -> Array:
    """Sum ``x`` [hand, third (10: none), ...] into [type, column, ...]."""
    out = np.zeros((3, COLUMNS, *x.shape[2:]))
    for kind, hands in _DRAWERS:
        out[kind, :10] = x[hands, :10].sum(axis=0)
    for kind, column, hands in _STANDERS:
        out[kind, column] = x[hands, _NO_THIRD].sum(axis=0)
    return out


@dataclass(frozen=True, slots=True)
class Draws:
    """The chance model: the next card is v with chance (n_v - dec * drawn_v) /
    (size - dec * drawn), given the cards drawn before it.

    >>> Draws.replacement().size, Draws.shoe((16, 4, 4, 4, 4, 4, 4, 4, 4, 4)).size
    (1.0, 52.0)
    """

    n: Array
    size: float
    dec: float

    @classmethod
    def replacement(cls) -> Draws:
        """Cards drawn with replacement: a 0 with chance 4/13, any other value 1/13."""
        deck = np.array(FULL_DECK, dtype=np.float64)
        return cls(deck / deck.sum(), 1.0, 0.0)

    @classmethod
    def shoe(cls, counts: tuple[int, ...]) -> Draws:
        """Cards drawn from ``counts`` (by point value, tens first), none put back."""
        n = np.array(counts, dtype=np.float64)
        return cls(n, float(n.sum()), 1.0)


def _six(draws: Draws, banker: int) -> tuple[Array, Array]:
    """For the banker's hand ``banker`` (an index of `PAIRS`): the chance of each pair of
    tableau hands with it, [left hand, right hand], and the cards left after the six
    (or, with replacement, each value's chance), [left hand, right hand, value]."""
    drawn = _PAIR_CARDS[:, None, :] + _PAIR_CARDS[None, :, :] + _PAIR_CARDS[banker]
    falling = np.ones((10, 7))  # falling[v, k]: n_v (n_v - dec) ..., k factors
    for k in range(1, 7):
        falling[:, k] = falling[:, k - 1] * (draws.n - draws.dec * (k - 1))
    orders = _PAIR_ORDERS[:, None] * _PAIR_ORDERS[None, :] * _PAIR_ORDERS[banker]
    first = float(np.prod(draws.size - draws.dec * np.arange(6)))
    chance = orders * np.prod(falling[np.arange(10), drawn], axis=-1) / first
    return chance, draws.n - draws.dec * drawn


def _thirds(draws: Draws, rest: Array) -> Array:
    """The chance of the tableaux' third cards given the six first (``rest``: the cards
    left, from `_six`), [left hand, left third, right hand, right third] (third 10: he
    does not draw)."""
    m = draws.size - 6 * draws.dec
    hands = rest.shape[:2]
    out = np.ones((hands[0], 11, hands[1], 11))
    by_left = rest.transpose(0, 2, 1)  # [left hand, value, right hand]
    both = by_left[:, :, :, None] * (rest[:, None, :, :] - draws.dec * np.eye(10)[:, None, :])
    out[:, :10, :, :10] = both / (m * (m - draws.dec))
    out[:, :10, :, _NO_THIRD] = by_left / m
    out[:, _NO_THIRD, :, :10] = rest / m
    return out


def hand_chances(banker: tuple[int, int], counts: tuple[int, ...] | None = None) -> Array:
    """The chance of every deal with the banker's two cards ``banker`` (point values):
    [left hand, right hand, left third, right third], hands as indexed in `PAIRS`,
    third 10 when the tableau does not draw; from ``counts`` or with replacement.

    >>> w = hand_chances((0, 7), (16, 4, 4, 4, 4, 4, 4, 4, 4, 4))
    >>> five, ten_three = PAIRS.index((5, 5)), PAIRS.index((0, 3))
    >>> round(float(w[five, ten_three, 2, 10]) * 52 * 51 * 50 * 49 * 48 * 47 * 46)
    737280
    """
    draws = Draws.replacement() if counts is None else Draws.shoe(_checked(counts))
    six, rest = _six(draws, PAIRS.index(tuple(sorted(banker))))
    weight = six[:, None, :, None] * _thirds(draws, rest)
    return np.asarray(weight.transpose(0, 2, 1, 3), dtype=np.float64)


@dataclass(frozen=True, slots=True, kw_only=True)
class BanqueChances:
    """A shoe's coups, summed (see the module docstring).

    ``chance``: the chance of the deals in each banker cell, by the tableaux' types;
    ``draw`` and ``stand``: the banker's result against the left tableau (+1 he wins,
    -1 he loses) if he draws and if he stands, summed over those deals with their
    chances (a natural's is settled: the same both ways); ``settled``: the same over
    the banker's naturals, whose chance is ``banker_natural``. ``counts``: the cards
    left by point value, None with replacement.
    """

    counts: tuple[int, ...] | None
    chance: Array
    draw: Array
    stand: Array
    settled: float
    banker_natural: float


def swap_halves(tensor: Array) -> Array:
    """The right tableau's tensor from the left's: the tableaux swapped."""
    return tensor.transpose(1, 0, 2, 4, 3)


def _checked(counts: tuple[int, ...]) -> tuple[int, ...]:
    return shoe_counts(counts=tuple(counts), least=COUP_CARDS)


def banque_chances(counts: tuple[int, ...] | None = None) -> BanqueChances:
    """The tensors of the shoe ``counts`` (the cards left by point value, tens first, at
    least `COUP_CARDS`), or with replacement when None.

    >>> ch = banque_chances((16, 4, 4, 4, 4, 4, 4, 4, 4, 4))
    >>> round(ch.banker_natural, 6), round(banque_chances().banker_natural, 6)
    (0.190045, 0.189349)
    """
    return _cached(None if counts is None else _checked(counts))


def clear_cache() -> None:
    """Forget the shoes enumerated so far (`banque_chances` keeps the last 16)."""
    _cached.cache_clear()


@lru_cache(maxsize=16)
def _cached(counts: tuple[int, ...] | None) -> BanqueChances:
    if counts is None:
        return _tensors(Draws.replacement(), None)
    return _tensors(Draws.shoe(counts), counts)


def _tensors(draws: Draws, counts: tuple[int, ...] | None) -> BanqueChances:
    shape = (3, 3, 8, COLUMNS, COLUMNS)
    chance, draw, stand = np.zeros(shape), np.zeros(shape), np.zeros(shape)
    settled = natural = 0.0
    used = (np.arange(11) < 10).astype(np.float64)
    in_shoe = draws.size - draws.dec * (6 + used[:, None] + used[None, :])
    for banker, total in enumerate(_PAIR_TOTAL):
        six, rest = _six(draws, banker)
        if _PAIR_NATURAL[banker]:  # both tableaux settled on two cards
            natural += float(six.sum())
            settled += float(np.sign(total - _PAIR_TOTAL) @ six.sum(axis=1))
            continue
        # result[f, d]: his result against a final f if he draws a d
        result = np.sign(_TOTAL[total][None, :] - np.arange(10)[:, None]).astype(np.float64)
        padded = np.concatenate([result, np.zeros((10, 1))], axis=1)
        summed = rest @ result.T  # [left hand, right hand, f]: over the cards left
        finals = np.broadcast_to(_FINAL[:, None, :], (*summed.shape[:2], 11))
        expected = np.take_along_axis(summed, finals, axis=2)  # [left, right, left third]
        # a third card drawn by a tableau is not the banker's: taken out of the sum
        taken = padded[_FINAL, np.arange(11)][:, :, None] + padded[_FINAL]  # [i, a, c]
        # from here on [left hand, left third, right hand, right third]
        drawn = expected.transpose(0, 2, 1)[..., None] - draws.dec * taken[:, :, None, :]
        drawn /= in_shoe[:, None, :]
        stood = np.sign(total - _FINAL).astype(np.float64)[:, :, None, None]
        drawn = np.where(_PAIR_NATURAL[:, None, None, None], stood, drawn)
        weight = six[:, None, :, None] * _thirds(draws, rest)
        x = np.stack([weight, weight * stood, weight * drawn], axis=-1)
        by_left = _counted(x)  # [tL, cL, j, c, what]
        cells = _counted(by_left.transpose(2, 3, 0, 1, 4))  # [tR, cR, tL, cL, what]
        for what, target in enumerate((chance, stand, draw)):
            target[:, :, total] += cells[..., what].transpose(2, 0, 3, 1)
    for array in (chance, draw, stand):
        array.setflags(write=False)
    return BanqueChances(
        counts=counts,
        chance=chance,
        draw=draw,
        stand=stand,
        settled=settled,
        banker_natural=natural,
    )
