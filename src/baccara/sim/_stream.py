"""The shoes' random stream, compiled: numpy's SeedSequence, PCG64 and the shuffle.

Shoe ``i`` of the series ``seed`` draws from `baccara.shoe.shoe_generator(seed, i)`:
``PCG64(SeedSequence(seed, spawn_key=(i,)))``. Both are re-implemented here so that
they run inside the simulator's loop, and `_shuffle` is `baccara.shoe.fisher_yates`
with `baccara.shoe.generator_below`, numpy's ``Generator.permutation``, bit for bit.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from llvmlite import ir  # type: ignore[import-untyped]
from numba import njit, types
from numba.extending import intrinsic

__all__ = ["RING", "seed_state"]

_M32 = np.uint64(0xFFFFFFFF)
_INIT_A = np.uint64(0x43B0D7E5)
_MULT_A = np.uint64(0x931E8875)
_INIT_B = np.uint64(0x8B51F9DD)
_MULT_B = np.uint64(0x58F38DED)
_MIX_L = np.uint64(0xCA01F9DD)
_MIX_R = np.uint64(0x4973F715)
_S16 = np.uint64(16)
_S32 = np.uint64(32)


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


# -- PCG64 and numpy's bounded draw ---------------------------------------------------------

_MUL_HI = np.uint64(0x2360ED051FC65DA4)  # PCG's default 128-bit multiplier
_MUL_LO = np.uint64(0x4385DF649FCCF645)
_ONE = np.uint64(1)
_S58 = np.uint64(58)
_M6 = np.uint64(63)


@intrinsic
def _mul_high_intrinsic(typingctx: Any, x: Any, y: Any) -> Any:
    """The high 64 bits of the 128-bit product ``x * y`` (one machine multiply)."""
    sig = types.uint64(types.uint64, types.uint64)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        wide = ir.IntType(128)
        product = builder.mul(builder.zext(args[0], wide), builder.zext(args[1], wide))
        return builder.trunc(builder.lshr(product, ir.Constant(wide, 64)), ir.IntType(64))

    return sig, codegen


_mul_high: Any = _mul_high_intrinsic


@njit(cache=True, inline="always")
def _step(hi: Any, lo: Any, inc_hi: Any, inc_lo: Any) -> tuple[Any, Any]:
    """One PCG64 state step: ``state * multiplier + increment`` mod 2**128."""
    high = _mul_high(lo, _MUL_LO) + hi * _MUL_LO + lo * _MUL_HI
    low = lo * _MUL_LO + inc_lo
    return high + inc_hi + np.uint64(low < inc_lo), low


@njit(cache=True, inline="always")
def _output(hi: Any, lo: Any) -> Any:
    """PCG64's XSL-RR output of a state."""
    x = hi ^ lo
    r = hi >> _S58
    return (x >> r) | (x << ((np.uint64(64) - r) & _M6))


@njit(cache=True, inline="always")
def _pcg(entropy: Any, index: int) -> tuple[Any, Any, Any, Any]:
    """numpy's ``PCG64(SeedSequence(seed, spawn_key=(index,)))`` state (hi, lo, inc hi, inc lo)."""
    w0, w1, w2, w3 = _seed(entropy, index)
    inc_hi = (w2 << _ONE) | (w3 >> _M6)
    inc_lo = (w3 << _ONE) | _ONE
    hi, lo = _step(np.uint64(0), np.uint64(0), inc_hi, inc_lo)
    lo2 = lo + w1
    hi = hi + w0 + np.uint64(lo2 < w1)
    hi, lo = _step(hi, lo2, inc_hi, inc_lo)
    return hi, lo, inc_hi, inc_lo


_BLOCK = 64  # PCG64 outputs per refill of the word ring
RING = 256
"""Size of the `_shuffle` word ring (32-bit words in uint64; a power of two)."""
_RING_MASK = RING - 1


@njit(cache=True, inline="always")
def _refill(words: Any, filled: int, state: Any) -> Any:
    """Write `_BLOCK` outputs into the ring as 32-bit words (low half first) from ``filled``."""
    hi, lo, inc_hi, inc_lo = state
    for t in range(_BLOCK):
        hi, lo = _step(hi, lo, inc_hi, inc_lo)
        out = _output(hi, lo)
        words[(filled + 2 * t) & _RING_MASK] = out & _M32
        words[(filled + 2 * t + 1) & _RING_MASK] = out >> _S32
    return hi, lo, inc_hi, inc_lo


@njit(cache=True, inline="always")
def _shuffle(cards: Any, words: Any, entropy: Any, index: int) -> None:
    """`baccara.shoe.fisher_yates` with `baccara.shoe.generator_below`, on shoe ``index``.

    For ``i`` from ``n - 1`` down to 1, card ``i`` swaps with a uniform card of
    ``[0, i]``: the stream's 32-bit words (low half of each output first) masked
    until one is at most ``i``. The words are made in blocks ahead of the loop, in
    ``words`` (a work ring of `RING`), and four are tested at once, so that a
    rejection seldom costs a mispredicted branch.
    """
    state = _pcg(entropy, index)
    filled = 0
    pos: Any = 0
    for i in range(cards.shape[0] - 1, 0, -1):
        if pos + 4 > filled:
            state = _refill(words, filled, state)
            filled += 2 * _BLOCK
        top = np.uint64(i)
        mask = top | (top >> _ONE)
        mask |= mask >> np.uint64(2)
        mask |= mask >> np.uint64(4)
        mask |= mask >> np.uint64(8)
        mask |= mask >> _S16
        w0 = words[pos & _RING_MASK] & mask
        w1 = words[(pos + 1) & _RING_MASK] & mask
        w2 = words[(pos + 2) & _RING_MASK] & mask
        w3 = words[(pos + 3) & _RING_MASK] & mask
        # the first of the four at most ``top``, without a branch (selects as arithmetic)
        a0 = np.uint64(w0 <= top)
        a1 = np.uint64(w1 <= top)
        a2 = np.uint64(w2 <= top)
        r0, r1, r2 = _ONE - a0, _ONE - a1, _ONE - a2
        j = a0 * w0 + r0 * (a1 * w1 + r1 * (a2 * w2 + r2 * w3))
        r01 = r0 & r1
        used = np.int64(_ONE + r0 + r01 + (r01 & r2))
        pos += used
        while j > top:  # four rejections in a row: rare
            if pos >= filled:
                state = _refill(words, filled, state)
                filled += 2 * _BLOCK
            j = words[pos & _RING_MASK] & mask
            pos += 1
        card = cards[i]
        cards[i] = cards[j]
        cards[j] = card
