"""The simulator's compiled hot loop (numba): seeding, shuffling and dealing real shoes.

The shuffle is `baccara.shoe`'s, bit for bit: shoe ``i`` of the series ``seed`` gets
its own stream, numpy's ``SeedSequence(seed, spawn_key=(i,))`` (`baccara.shoe.
shoe_seed_state`, re-implemented here so that it runs inside the loop) seeding
xoshiro256** (`baccara.shoe.ShoeStream`), and `baccara.shoe.shuffle_order`'s forward
Fisher-Yates (an unbiased 16-bit bounded integer per card, Lemire's method, four per
generator output), run only as far as the shoe can be dealt. So shoe ``i`` here is
``Shoe.shuffled(rules, seed=seed, index=i)``. The dealing follows `baccara.shoe` and
`baccara.coup` step by step: burn, cut card, last-hand rule; who gets which card and
how every coup ends come from the dealer's chance model, `baccara.deal`, as lookup
tables built at import (`DEAL`, the card slots).

Card codes are 0-51: `baccara.shoe.CARD_CODES` (rank order A..K * 4 + suit s h d c);
`CARDS` maps them to cards. A coup is summarised by a key (totals, third cards, pair kinds); the caller
maps keys to payouts with `baccara.bets`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from baccara import deal
from baccara.cards import Card
from baccara.shoe import CARD_CODES

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

CARDS: tuple[Card, ...] = CARD_CODES
"""The card of each code 0-51: rank order (A..K) * 4 + suit (s h d c)."""
_M32 = np.uint64(0xFFFFFFFF)
_INIT_A = np.uint64(0x43B0D7E5)
_MULT_A = np.uint64(0x931E8875)
_INIT_B = np.uint64(0x8B51F9DD)
_MULT_B = np.uint64(0x58F38DED)
_MIX_L = np.uint64(0xCA01F9DD)
_MIX_R = np.uint64(0x4973F715)
_S16 = np.uint64(16)
_S32 = np.uint64(32)
_S48 = np.uint64(48)
_M16 = np.uint64(0xFFFF)


# -- numpy's SeedSequence, for one spawn index -------------------------------------------


@njit(cache=True, inline="always")
def _hashmix(value: Any, hc: Any) -> tuple[Any, Any]:
    value = (value ^ hc) & _M32
    hc = (hc * _MULT_A) & _M32
    value = (value * hc) & _M32
    value ^= value >> _S16
    return value, hc


@njit(cache=True, inline="always")
def _mix(x: Any, y: Any) -> Any:
    result = (_MIX_L * x - _MIX_R * y) & _M32
    return result ^ (result >> _S16)


@njit(cache=True, inline="always")
def _seed(entropy: Any, index: int) -> tuple[Any, Any, Any, Any]:
    """`seed_state` as four values in registers (no allocation)."""
    e0 = np.uint64(entropy[0])
    e1 = np.uint64(entropy[1])
    e2 = np.uint64(entropy[2])
    e3 = np.uint64(entropy[3])
    e4 = np.uint64(index) & _M32
    hc = _INIT_A
    p0, hc = _hashmix(e0, hc)
    p1, hc = _hashmix(e1, hc)
    p2, hc = _hashmix(e2, hc)
    p3, hc = _hashmix(e3, hc)
    # every pool word mixes in the hash of every other, in numpy's order
    h, hc = _hashmix(p0, hc)
    p1 = _mix(p1, h)
    h, hc = _hashmix(p0, hc)
    p2 = _mix(p2, h)
    h, hc = _hashmix(p0, hc)
    p3 = _mix(p3, h)
    h, hc = _hashmix(p1, hc)
    p0 = _mix(p0, h)
    h, hc = _hashmix(p1, hc)
    p2 = _mix(p2, h)
    h, hc = _hashmix(p1, hc)
    p3 = _mix(p3, h)
    h, hc = _hashmix(p2, hc)
    p0 = _mix(p0, h)
    h, hc = _hashmix(p2, hc)
    p1 = _mix(p1, h)
    h, hc = _hashmix(p2, hc)
    p3 = _mix(p3, h)
    h, hc = _hashmix(p3, hc)
    p0 = _mix(p0, h)
    h, hc = _hashmix(p3, hc)
    p1 = _mix(p1, h)
    h, hc = _hashmix(p3, hc)
    p2 = _mix(p2, h)
    # the spawn key (the shoe index)
    h, hc = _hashmix(e4, hc)
    p0 = _mix(p0, h)
    h, hc = _hashmix(e4, hc)
    p1 = _mix(p1, h)
    h, hc = _hashmix(e4, hc)
    p2 = _mix(p2, h)
    h, hc = _hashmix(e4, hc)
    p3 = _mix(p3, h)
    hb = _INIT_B
    w0, hb = _hashmix_b(p0, hb)
    w1, hb = _hashmix_b(p1, hb)
    w2, hb = _hashmix_b(p2, hb)
    w3, hb = _hashmix_b(p3, hb)
    w4, hb = _hashmix_b(p0, hb)
    w5, hb = _hashmix_b(p1, hb)
    w6, hb = _hashmix_b(p2, hb)
    w7, hb = _hashmix_b(p3, hb)
    return (w0 | (w1 << _S32), w2 | (w3 << _S32), w4 | (w5 << _S32), w6 | (w7 << _S32))


@njit(cache=True, inline="always")
def _hashmix_b(value: Any, hb: Any) -> tuple[Any, Any]:
    value = (value ^ hb) & _M32
    hb = (hb * _MULT_B) & _M32
    value = (value * hb) & _M32
    value ^= value >> _S16
    return value, hb


@njit(cache=True)
def seed_state(entropy: Any, index: int) -> Any:
    """``SeedSequence(seed, spawn_key=(index,)).generate_state(4, uint64)``.

    ``entropy`` is the seed as 4 little-endian 32-bit words; ``index`` < 2**32.
    """
    s = _seed(entropy, index)
    return np.array([s[0], s[1], s[2], s[3]], dtype=np.uint64)


# -- xoshiro256** and Lemire's bounded draw ----------------------------------------------


@njit(cache=True, inline="always")
def _rotl(x: Any, k: int) -> Any:
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


@njit(cache=True, inline="always")
def _next(s: Any) -> tuple[Any, Any]:
    """One xoshiro256** step: (new state, 64 random bits)."""
    s0, s1, s2, s3 = s
    result = _rotl(s1 * np.uint64(5), 7) * np.uint64(9)
    t = s1 << np.uint64(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = _rotl(s3, 45)
    return (s0, s1, s2, s3), result


@njit(cache=True, inline="always")
def _lemire(word: Any, bound: Any, s: Any) -> tuple[Any, Any]:
    """An unbiased integer in [0, bound) from a 16-bit ``word``, bound <= 2**16 (Lemire, 2019).

    A rejected word (probability below bound / 2**16) is replaced by the top 16 bits
    of a fresh output of the stream.
    """
    m = word * bound
    low = m & _M16
    if low < bound:
        threshold = (_M16 + np.uint64(1) - bound) % bound
        while low < threshold:
            s, r = _next(s)
            m = (r >> _S48) * bound
            low = m & _M16
    return s, m >> _S16


@njit(cache=True, inline="always")
def _swap(cards: Any, pos: Any, j: Any) -> None:
    """Swap ``cards[pos + j]`` into ``pos`` (unsigned indices: no negative-index checks)."""
    k = np.uint64(pos) + j
    p = np.uint64(pos)
    card = cards[k]
    cards[k] = cards[p]
    cards[p] = card


@njit(cache=True, inline="always")
def _shuffle(cards: Any, count: int, n: int, s: Any) -> Any:
    """The first ``count`` steps of a forward Fisher-Yates shuffle of ``cards[:n]``.

    Step ``pos`` swaps a uniform card of ``[pos, n)`` into ``pos``; each 64-bit output
    of the generator serves four steps, 16 bits each from the top. The first
    ``count`` cards are those of a full shuffle, whatever ``count`` is.
    """
    pos = 0
    while pos + 4 <= count:
        s, r = _next(s)
        s, j = _lemire(r >> _S48, np.uint64(n - pos), s)
        _swap(cards, pos, j)
        s, j = _lemire((r >> _S32) & _M16, np.uint64(n - pos - 1), s)
        _swap(cards, pos + 1, j)
        s, j = _lemire((r >> _S16) & _M16, np.uint64(n - pos - 2), s)
        _swap(cards, pos + 2, j)
        s, j = _lemire(r & _M16, np.uint64(n - pos - 3), s)
        _swap(cards, pos + 3, j)
        pos += 4
    if pos < count:
        s, r = _next(s)
        for quarter in range(4):
            if pos < count:
                s, j = _lemire((r >> np.uint64(48 - 16 * quarter)) & _M16, np.uint64(n - pos), s)
                _swap(cards, pos, j)
                pos += 1
    return s


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
    """How many cards of a shoe can ever be dealt: the kernels shuffle only these.

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
    entropy: Any, index: int, cards: Any, base: Any, limit: int, burn: bool, burns: Any, values: Any
) -> Any:
    """Shuffle shoe ``index`` as far as it can be dealt, burn, and return the first position.

    ``values`` receives the cards' point values; ``burns[v]`` is how many cards a
    first card of point value ``v`` burns.
    """
    n = base.shape[0]
    cards[:] = base
    _shuffle(cards, limit, n, _seed(entropy, index))
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


@njit(cache=True)
def _base(decks: int) -> Any:
    base = np.empty(52 * decks, dtype=np.uint8)
    for i in range(52 * decks):
        base[i] = i % 52
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
        final = False
        run_side = 2
        run = 0
        ties = 0
        while n - pos >= 6:
            # the last-hand rule, as `Shoe.start_coup` and `Shoe.finish_coup` keep it
            if pos >= cut_index and not cut_out:
                cut_out = True
                final = True
            elif cut_out:
                final = True
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
    n = cards.shape[0]
    _shuffle(cards, n, n, _seed(entropy, index))
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
        final = False
        while n - pos >= 6:
            if pos >= cut_index and not cut_out:
                cut_out = True
                final = True
            elif cut_out:
                final = True
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
