"""The simulator's compiled hot loop (numba): shuffling and dealing real shoes.

The shuffle is `baccara.shoe`'s, bit for bit (`baccara.sim._stream`): shoe ``i`` of
the series ``seed`` is ``Shoe.shuffled(settings, seed=seed, index=i)``. The dealing
follows `baccara.shoe` and `baccara.coup` step by step: burn, cut card, last-hand
rule; who gets which card and how every coup ends come from the dealer's chance
model, `baccara.deal`, as lookup tables built at import (`DEAL`, the card slots).

Card codes are 0-51: rank order (A..K) * 4 + suit (s h d c); `CARDS` maps them to
cards. A coup is summarised by a key (totals, third cards, pair kinds); the caller
maps keys to payouts with `baccara.bets`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from baccara import deal
from baccara.cards import RANKS, SUITS, Card, full_deck
from baccara.sim._stream import _shuffle, seed_state

__all__ = [
    "CARDS",
    "DEAL",
    "ENDS",
    "NKEYS",
    "OUTCOME",
    "RESULT",
    "deal_cards",
    "decode",
    "key_of",
    "seed_state",
    "shoe_order",
    "shuffle_limit",
    "simulate_serial",
]

CARDS: tuple[Card, ...] = tuple(Card(rank=rank, suit=suit) for rank in RANKS for suit in SUITS)
"""The card of each code 0-51: rank order (A..K) * 4 + suit (s h d c)."""
_DECK = np.array([CARDS.index(card) for card in full_deck()], dtype=np.uint8)
"""One deck in `baccara.cards.full_deck` order (what the shuffle starts from), as codes."""


def _outcome_table() -> np.ndarray[Any, np.dtype[np.int64]]:
    """How a coup ends, by the two-card totals and the point values of the next two cards.

    Index `baccara.deal.ending_index` ``((pt * 10 + bt) * 10 + v5) * 10 + v6`` (v5, v6:
    the 5th and 6th cards out); value ``((final pt * 10 + final bt) * 2 + Player drew)
    * 2 + Banker drew``. Copied from `baccara.deal.ending_table`.
    """
    rows = np.array(deal.ending_table(), dtype=np.int64)
    p, b, p_cards, b_cards = rows.T
    table: np.ndarray[Any, np.dtype[np.int64]] = ((p * 10 + b) * 2 + p_cards - 2) * 2 + b_cards - 2
    return table


def _slot(side: deal.Side, number: int, player_cards: int, banker_cards: int) -> np.uint64:
    """Where the ``number``-th card (0-based) of ``side`` lies in a coup of these sizes."""
    order = deal.order_of(player_cards, banker_cards)
    return np.uint64([i for i, who in enumerate(order) if who is side][number])


# The card slots of a coup, from the dealer's order (P1, B1, P2, B2, P3, B3).
_P1 = _slot(deal.Side.PLAYER, 0, 3, 3)
_P2 = _slot(deal.Side.PLAYER, 1, 3, 3)
_B1 = _slot(deal.Side.BANKER, 0, 3, 3)
_B2 = _slot(deal.Side.BANKER, 1, 3, 3)
_P3 = _slot(deal.Side.PLAYER, 2, 3, 2)
_B3_STOOD = _slot(deal.Side.BANKER, 2, 2, 3)
_B3_DREW = _slot(deal.Side.BANKER, 2, 3, 3)
_FIFTH = np.uint64(4)  # the next two cards out index `DEAL`, used or not
_SIXTH = np.uint64(5)


OUTCOME = _outcome_table()
"""``OUTCOME[((pt * 10 + bt) * 10 + v5) * 10 + v6]``: how the coup ends (see `decode`)."""
ENDS = np.array(sorted(set(OUTCOME.tolist())), dtype=np.int64)
"""The endings the tableau can reach (205 of the 400 codes), densely numbered."""
_DENSE = {int(end): i for i, end in enumerate(ENDS)}
NKEYS = len(ENDS) * 9
"""Coup keys: a reachable ending times 9, plus the pair kinds (Player * 3 + Banker)."""
DEAL = np.array(
    [(_DENSE[int(end)] << 3) | (4 + (end >> 1 & 1) + (end & 1)) for end in OUTCOME], dtype=np.int16
)
"""The hot loop's table: the dense ending << 3 | the cards the coup takes (20 KB)."""


def decode(key: int) -> tuple[int, int, int, int, int, int]:
    """A key as (Player total, Banker total, Player drew, Banker drew, Player pair, Banker pair).

    Pair kinds are 0 none, 1 a pair, 2 a suited pair (the same card twice).

    >>> decode(key_of(6, 7, 1, 0, 2, 0))
    (6, 7, 1, 0, 2, 0)
    """
    end = int(ENDS[key // 9])
    return end // 40, (end // 4) % 10, (end >> 1) & 1, end & 1, key % 9 // 3, key % 3


def key_of(p_total: int, b_total: int, p_drew: int, b_drew: int, p_pair: int, b_pair: int) -> int:
    """The key of a coup with these totals, draws and pair kinds (KeyError if unreachable)."""
    end = ((p_total * 10 + b_total) * 2 + p_drew) * 2 + b_drew
    return _DENSE[end] * 9 + p_pair * 3 + b_pair


RESULT = np.array(
    [0 if b > p else 1 if p > b else 2 for p, b, *_ in map(decode, range(NKEYS))], dtype=np.int8
)
"""``RESULT[key]``: 0 Banker wins, 1 Player wins, 2 tie."""


def shuffle_limit(decks: int, cut_card: int) -> int:
    """How many cards of a shoe can ever be dealt: the kernels read the points of only these.

    A coup that starts before the cut card ends at most 5 cards past it; the one
    more coup then takes at most 6. A burn takes at most 12 cards, and if the cut
    card lies in it the one coup after it takes 6.

    >>> shuffle_limit(8, 14), shuffle_limit(1, 52), shuffle_limit(1, 0)
    (413, 18, 52)
    """
    n = 52 * decks
    return min(n, max(n - cut_card + 11, 18))


def _py_value(code: int) -> int:
    rank = code >> 2
    return rank + 1 if rank < 9 else 0


# the kernels compute point values by arithmetic: check it against the cards module
if [_py_value(code) for code in range(52)] != [card.points for card in CARDS]:  # pragma: no cover
    raise AssertionError("baccara.sim._kernels: card point values disagree with baccara.cards")
_value = njit(cache=True, inline="always")(_py_value)


@njit(cache=True, inline="always")
def _pair(a: Any, b: Any) -> Any:
    """0 no pair, 1 a pair (same rank), 2 a suited pair (the same card)."""
    return (np.int64(a) >> 2 == np.int64(b) >> 2) * (1 + (a == b))


@njit(cache=True, inline="always")
def _prepare(
    entropy: Any,
    index: int,
    cards: Any,
    base: Any,
    limit: int,
    burn: bool,
    burns: Any,
    values: Any,
) -> Any:
    """Shuffle shoe ``index``, burn, and return the first position.

    ``values`` receives the cards' point values; ``burns[v]`` is how many cards a
    first card of point value ``v`` burns.
    """
    n = base.shape[0]
    cards[:] = base
    _shuffle(cards, entropy, index)
    for i in range(np.uint64(limit)):
        values[i] = _value(cards[i])
    if not burn:
        return 0
    return min(burns[values[0]], n - 1) + 1


@njit(cache=True, inline="always")
def _coup(cards: Any, values: Any, pos: int) -> tuple[Any, Any]:
    """The coup dealt at ``pos``: (cards it takes, its key)."""
    p = np.uint64(pos)
    pt = np.int64(values[p + _P1]) + np.int64(values[p + _P2])
    bt = np.int64(values[p + _B1]) + np.int64(values[p + _B2])
    pt = pt - (pt >= 10) * 10
    bt = bt - (bt >= 10) * 10
    v5 = values[p + _FIFTH]
    v6 = values[p + _SIXTH]
    ending = np.int64(DEAL[np.uint64(((pt * 10 + bt) * 10 + v5) * 10 + v6)])
    pairs = _pair(cards[p + _P1], cards[p + _P2]) * 3
    pairs += _pair(cards[p + _B1], cards[p + _B2])
    return ending & 7, np.uint64((ending >> 3) * 9 + pairs)


@njit(cache=True, inline="always")
def last_coup(pos: Any, cut_index: Any, cut_out: Any) -> Any:
    """Whether the coup starting at card ``pos`` is the shoe's last: the last-hand rule, as
    `Shoe.start_coup` and `Shoe.finish_coup` keep it (the coup that starts at or past the
    cut card, or once it came out during a coup, is the last).

    >>> bool(last_coup(10, 11, False)), bool(last_coup(11, 11, False)), bool(last_coup(9, 11, True))
    (False, True, True)
    """
    return cut_out or pos >= cut_index


@njit(cache=True)
def _base(decks: int) -> Any:
    base = np.empty(52 * decks, dtype=np.uint8)
    for i in range(52 * decks):
        base[i] = _DECK[i % 52]
    return base


@njit(cache=True, nogil=True)
def _run_shoes(
    entropy: Any,
    first: int,
    last: int,
    decks: int,
    cut_index: int,
    limit: int,
    burn: bool,
    burns: Any,
    pay: Any,
    counts: Any,
    sums: Any,
    hands: Any,
    longest: Any,
) -> None:
    """Deal shoes ``first`` .. ``last - 1``, adding to the accumulators."""
    base = _base(decks)
    n = base.shape[0]
    nbets = pay.shape[1]
    cards = np.empty(n, dtype=np.uint8)
    values = np.zeros(n, dtype=np.uint8)
    net = np.zeros(nbets, dtype=np.int64)
    best_b = 0
    best_p = 0
    best_t = 0
    h_sum = 0
    h2_sum = 0
    for shoe in range(first, last):
        pos = _prepare(entropy, shoe, cards, base, limit, burn, burns, values)
        net[:] = 0
        h = 0
        cut_out = False
        run_side = 2
        run = 0
        ties = 0
        while n - pos >= 6:
            final = last_coup(pos, cut_index, cut_out)
            used, key = _coup(cards, values, pos)
            pos += used
            h += 1
            counts[key] += 1
            for b in range(nbets):
                net[b] += pay[key, b]
            # streaks: side 0 Banker, 1 Player, 2 tie; ties do not break a side's streak
            side: Any = np.int64(RESULT[key])
            tie = side == 2
            ties = ties + 1 if tie else 0
            run = run if tie else (run + 1 if side == run_side else 1)
            run_side = run_side if tie else side
            best_t = max(best_t, ties)
            best_b = max(best_b, run if run_side == 0 else 0)
            best_p = max(best_p, run if run_side == 1 else 0)
            if final:
                break
            if pos > cut_index:
                cut_out = True
        h_sum += h
        h2_sum += h * h
        for b in range(nbets):
            sums[0, b] += net[b]
            sums[1, b] += net[b] * net[b]
            sums[2, b] += net[b] * h
    hands[0] += h_sum
    hands[1] += h2_sum
    longest[0] = max(longest[0], best_b)
    longest[1] = max(longest[1], best_p)
    longest[2] = max(longest[2], best_t)


@njit(cache=True, nogil=True)
def shoe_order(entropy: Any, index: int, decks: int) -> Any:
    """The whole card order (codes) of shoe ``index``: the simulator deals its prefix."""
    cards = _base(decks)
    _shuffle(cards, entropy, index)
    return cards


@njit(cache=True, nogil=True)
def deal_cards(
    entropy: Any, start: int, count: int, decks: int, cut_card: int, burn: bool, burns: Any
) -> tuple[Any, Any, Any]:
    """Every coup of shoes ``start`` .. ``start + count - 1``, card by card.

    Returns ``coups[total, 6]`` (P1, B1, P2, B2, P3, B3 card codes, -1 for none),
    each coup's key, and the number of coups of each shoe.
    """
    base = _base(decks)
    n = base.shape[0]
    cut_index = n - cut_card
    limit = min(n, max(cut_index + 11, 18))
    cards = np.empty(n, dtype=np.uint8)
    values = np.zeros(n, dtype=np.uint8)
    per_shoe = np.zeros(count, dtype=np.int64)
    coups = np.full((count * (n // 4 + 1), 6), -1, dtype=np.int64)
    keys = np.empty(count * (n // 4 + 1), dtype=np.int64)
    total = 0
    for k in range(count):
        pos = _prepare(entropy, start + k, cards, base, limit, burn, burns, values)
        cut_out = False
        while n - pos >= 6:
            final = last_coup(pos, cut_index, cut_out)
            used, key = _coup(cards, values, pos)
            keys[total] = key
            end = ENDS[key // 9]
            p_drew = (end >> 1) & 1
            b_drew = end & 1
            p = np.uint64(pos)
            coups[total, 0] = cards[p + _P1]
            coups[total, 1] = cards[p + _B1]
            coups[total, 2] = cards[p + _P2]
            coups[total, 3] = cards[p + _B2]
            if p_drew:
                coups[total, 4] = cards[p + _P3]
            if b_drew:
                coups[total, 5] = cards[p + (_B3_DREW if p_drew else _B3_STOOD)]
            pos += used
            total += 1
            per_shoe[k] += 1
            if final:
                break
            if pos > cut_index:
                cut_out = True
    return coups[:total].copy(), keys[:total].copy(), per_shoe


@njit(cache=True, nogil=True)
def simulate_serial(
    entropy: Any,
    start: int,
    count: int,
    decks: int,
    cut_card: int,
    burn: bool,
    burns: Any,
    pay: Any,
) -> tuple[Any, Any, Any, Any]:
    """Deal shoes ``start`` .. ``start + count - 1`` and return their sums.

    ``pay[key, bet]`` is each bet's net per coup in units of 1/D of a stake.
    Returns the key histogram ``[1, NKEYS]``; per bet the sums over shoes of the
    shoe's net ``n``, ``n*n`` and ``n*h`` (``[1, 3, nbets]``); the sums of hands ``h``
    and ``h*h`` per shoe (``[1, 2]``); and the longest Banker and Player streaks (ties
    do not break them) and tie runs (``[1, 3]``). Every figure is an integer sum or a
    maximum, so the way shoes are split into calls never changes a result. The GIL
    is released: threads run calls side by side.
    """
    n = 52 * decks
    nbets = pay.shape[1]
    hist = np.zeros((1, NKEYS), dtype=np.int64)
    sums = np.zeros((1, 3, nbets), dtype=np.int64)
    hands = np.zeros((1, 2), dtype=np.int64)
    longest = np.zeros((1, 3), dtype=np.int64)
    _run_shoes(
        entropy,
        start,
        start + count,
        decks,
        n - cut_card,
        min(n, max(n - cut_card + 11, 18)),
        burn,
        burns,
        pay,
        hist[0],
        sums[0],
        hands[0],
        longest[0],
    )
    return hist, sums, hands, longest
