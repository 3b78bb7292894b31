"""Shoe compositions for the exact engine: counts by value, rank or card, and removals.

>>> full_shoe(1)
(16, 4, 4, 4, 4, 4, 4, 4, 4, 4)
"""

from __future__ import annotations

from collections.abc import Sequence
from numbers import Integral
from typing import Any

from baccara.cards import RANKS, Card, parse_cards
from baccara.exact import _kernels as ek

__all__ = ["CompositionError", "composition", "full_shoe", "remove_cards"]


class CompositionError(ValueError):
    """A shoe composition that is malformed or cannot deal a coup."""


# -- compositions ---------------------------------------------------------------------


def full_shoe(decks: int = 8) -> tuple[int, ...]:
    """The 10 counts by point value of a full shoe of ``decks`` decks.

    >>> full_shoe(1)
    (16, 4, 4, 4, 4, 4, 4, 4, 4, 4)
    """
    if isinstance(decks, bool) or not isinstance(decks, Integral) or decks < 1:
        raise CompositionError(f"bad number of decks {decks!r}: expected a whole number >= 1")
    d = int(decks)
    return (16 * d, *(4 * d,) * 9)


def _split(count: int, parts: int) -> list[int]:
    """``count`` split as evenly as possible, the first parts getting the extra cards."""
    q, rem = divmod(count, parts)
    return [q + 1 if i < rem else q for i in range(parts)]


def _check_counts(counts: Sequence[Any]) -> tuple[int, ...]:
    values = tuple(counts)
    if len(values) not in (10, 13, 52):
        raise CompositionError(
            f"bad composition of {len(values)} counts: give 10 (by value), 13 (by rank) or 52 (by card)"
        )
    out = []
    for i, x in enumerate(values):
        if isinstance(x, bool) or not isinstance(x, Integral):
            raise CompositionError(f"bad count {x!r} at position {i}: counts are whole numbers")
        if x < 0:
            raise CompositionError(f"bad count {x} at position {i}: counts cannot be negative")
        out.append(int(x))
    if sum(out) < ek.DEAL_CARDS:
        raise CompositionError(
            f"a shoe of {sum(out)} cards cannot deal a coup: it needs at least {ek.DEAL_CARDS}"
        )
    return tuple(out)


def composition(counts: Sequence[int]) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """Counts by value (10), by rank (13) and by card (52) from 10, 13 or 52 counts.

    >>> values, ranks, cards = composition(full_shoe(1))
    >>> ranks[-4:], cards[:2], values == full_shoe(1)
    ((4, 4, 4, 4), (1, 1), True)
    """
    c = _check_counts(counts)
    if len(c) == 52:
        cards = c
        ranks = tuple(sum(cards[s * 13 + r] for s in range(4)) for r in range(13))
    else:
        ranks = (*c[1:10], *_split(c[0], 4)) if len(c) == 10 else c
        by_suit = [_split(n, 4) for n in ranks]
        cards = tuple(by_suit[r][s] for s in range(4) for r in range(13))
    values = [0] * 10
    for rank, n in zip(RANKS, ranks, strict=True):
        values[rank.points] += n
    return tuple(values), ranks, cards


def remove_cards(counts: Sequence[int], cards: str | Sequence[Card]) -> tuple[int, ...]:
    """``counts`` (10, 13 or 52) less the ``cards`` seen, in the same form.

    >>> remove_cards(full_shoe(1), "Kh 9s 9d")
    (15, 4, 4, 4, 4, 4, 4, 4, 4, 2)
    >>> remove_cards(full_shoe(1), "9s " * 5)
    Traceback (most recent call last):
    ...
    baccara.exact.compositions.CompositionError: cannot remove 9s: no card of value 9 is left in the shoe
    """
    out = list(_check_counts(counts))
    seen = parse_cards(cards) if isinstance(cards, str) else tuple(cards)
    for card in seen:
        if len(out) == 52:
            i, what = card.index, f"no {card} is"
        elif len(out) == 13:
            i, what = card.rank.order, f"no card of rank {card.rank} is"
        else:
            i, what = card.points, f"no card of value {card.points} is"
        if out[i] == 0:
            raise CompositionError(f"cannot remove {card}: {what} left in the shoe")
        out[i] -= 1
    if sum(out) < ek.DEAL_CARDS:
        raise CompositionError(
            f"after removing {len(seen)} cards the shoe holds {sum(out)}: a coup needs {ek.DEAL_CARDS}"
        )
    return tuple(out)
