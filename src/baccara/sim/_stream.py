"""The shoes' random stream, compiled: numpy's SeedSequence, xoshiro256** and the shuffle.

Shoe ``i`` of the series ``seed`` draws from `baccara.shoe.shoe_stream(seed, i)`:
numpy's ``SeedSequence(seed, spawn_key=(i,))`` (re-implemented here so that it runs
inside the simulator's loop) seeding xoshiro256**. `_shuffle` is `baccara.shoe.
fisher_yates` with `baccara.shoe.ShoeStream.below` (Lemire's unbiased 16-bit draws,
four per output), bit for bit.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

__all__ = ["seed_state"]

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
def _hashmix(value: Any, hash_const: Any, mult: Any) -> tuple[Any, Any]:
    """numpy's ``hashmix``: ``value`` hashed, and the hash constant moved on by ``mult``
    (`_MULT_A` while the pool mixes, `_MULT_B` while the state is drawn from it)."""
    value = (value ^ hash_const) & _M32
    hash_const = (hash_const * mult) & _M32
    value = (value * hash_const) & _M32
    value ^= value >> _S16
    return value, hash_const


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
    p0, hc = _hashmix(e0, hc, _MULT_A)
    p1, hc = _hashmix(e1, hc, _MULT_A)
    p2, hc = _hashmix(e2, hc, _MULT_A)
    p3, hc = _hashmix(e3, hc, _MULT_A)
    # every pool word mixes in the hash of every other, in numpy's order
    h, hc = _hashmix(p0, hc, _MULT_A)
    p1 = _mix(p1, h)
    h, hc = _hashmix(p0, hc, _MULT_A)
    p2 = _mix(p2, h)
    h, hc = _hashmix(p0, hc, _MULT_A)
    p3 = _mix(p3, h)
    h, hc = _hashmix(p1, hc, _MULT_A)
    p0 = _mix(p0, h)
    h, hc = _hashmix(p1, hc, _MULT_A)
    p2 = _mix(p2, h)
    h, hc = _hashmix(p1, hc, _MULT_A)
    p3 = _mix(p3, h)
    h, hc = _hashmix(p2, hc, _MULT_A)
    p0 = _mix(p0, h)
    h, hc = _hashmix(p2, hc, _MULT_A)
    p1 = _mix(p1, h)
    h, hc = _hashmix(p2, hc, _MULT_A)
    p3 = _mix(p3, h)
    h, hc = _hashmix(p3, hc, _MULT_A)
    p0 = _mix(p0, h)
    h, hc = _hashmix(p3, hc, _MULT_A)
    p1 = _mix(p1, h)
    h, hc = _hashmix(p3, hc, _MULT_A)
    p2 = _mix(p2, h)
    # the spawn key (the shoe index)
    h, hc = _hashmix(e4, hc, _MULT_A)
    p0 = _mix(p0, h)
    h, hc = _hashmix(e4, hc, _MULT_A)
    p1 = _mix(p1, h)
    h, hc = _hashmix(e4, hc, _MULT_A)
    p2 = _mix(p2, h)
    h, hc = _hashmix(e4, hc, _MULT_A)
    p3 = _mix(p3, h)
    hb = _INIT_B
    w0, hb = _hashmix(p0, hb, _MULT_B)
    w1, hb = _hashmix(p1, hb, _MULT_B)
    w2, hb = _hashmix(p2, hb, _MULT_B)
    w3, hb = _hashmix(p3, hb, _MULT_B)
    w4, hb = _hashmix(p0, hb, _MULT_B)
    w5, hb = _hashmix(p1, hb, _MULT_B)
    w6, hb = _hashmix(p2, hb, _MULT_B)
    w7, hb = _hashmix(p3, hb, _MULT_B)
    return (w0 | (w1 << _S32), w2 | (w3 << _S32), w4 | (w5 << _S32), w6 | (w7 << _S32))


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
def _swap(cards: Any, i: Any, j: Any) -> None:
    """Swap ``cards[i]`` and ``cards[j]`` (unsigned indices: no negative-index checks)."""
    k = np.uint64(i)
    card = cards[k]
    cards[k] = cards[j]
    cards[j] = card


@njit(cache=True, inline="always")
def _shuffle(cards: Any, entropy: Any, index: int) -> None:
    """`baccara.shoe.fisher_yates` with `baccara.shoe.ShoeStream.below`, on shoe ``index``.

    For ``i`` from ``n - 1`` down to 1, card ``i`` swaps with a uniform card of
    ``[0, i]``; each 64-bit output of the stream serves four steps, 16 bits each from
    the top.
    """
    s = _seed(entropy, index)
    i = cards.shape[0] - 1
    while i >= 4:
        s, r = _next(s)
        s, j = _lemire(r >> _S48, np.uint64(i + 1), s)
        _swap(cards, i, j)
        s, j = _lemire((r >> _S32) & _M16, np.uint64(i), s)
        _swap(cards, i - 1, j)
        s, j = _lemire((r >> _S16) & _M16, np.uint64(i - 1), s)
        _swap(cards, i - 2, j)
        s, j = _lemire(r & _M16, np.uint64(i - 2), s)
        _swap(cards, i - 3, j)
        i -= 4
    if i >= 1:
        s, r = _next(s)
        for quarter in range(4):
            if i >= 1:
                s, j = _lemire((r >> np.uint64(48 - 16 * quarter)) & _M16, np.uint64(i + 1), s)
                _swap(cards, i, j)
                i -= 1
