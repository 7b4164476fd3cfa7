"""Jitted bit helpers on uint64 masks, shared by every kernel: counts, lowest and highest bits.

Each helper that an LLVM instruction serves (`numba_internals`) has a plain twin of bit
tricks, `plain_*`, with the same results: the helper itself where that door is shut.
"""

import numpy as np

from . import numba_internals
from .jit import njit

_ONE = np.uint64(1)
_M1 = np.uint64(0x5555555555555555)
_M2 = np.uint64(0x3333333333333333)
_M4 = np.uint64(0x0F0F0F0F0F0F0F0F)
_H01 = np.uint64(0x0101010101010101)


@njit(inline="always")
def one_bit(p):
    """The mask with bit p set."""
    return _ONE << np.uint64(p)


@njit(inline="always")
def plain_popcount(mask):
    """Set bits of a uint64, summed in parallel within the word (SWAR)."""
    m = np.uint64(mask)
    m = m - ((m >> _ONE) & _M1)
    m = (m & _M2) + ((m >> np.uint64(2)) & _M2)
    m = (m + (m >> np.uint64(4))) & _M4
    return np.int64((m * _H01) >> np.uint64(56))


@njit
def plain_low_index(mask):
    """Index of the lowest set bit of a non-zero uint64: the set bits below it."""
    m = np.uint64(mask)
    return plain_popcount((m & (~m + _ONE)) - _ONE)


@njit(inline="always")
def plain_high_bit(mask):
    """The highest set bit of a non-zero mask, as a mask: every bit below it set, then the
    top one kept."""
    m = np.uint64(mask)
    m |= m >> _ONE
    m |= m >> np.uint64(2)
    m |= m >> np.uint64(4)
    m |= m >> np.uint64(8)
    m |= m >> np.uint64(16)
    m |= m >> np.uint64(32)
    return m ^ (m >> _ONE)


@njit(inline="always")
def pext_loop(value, mask):
    """The bits of `value` at the set bits of `mask`, packed to the bottom in order."""
    out = np.uint64(0)
    k = np.uint64(0)
    m = np.uint64(mask)
    while m:
        b = m & (~m + _ONE)
        m ^= b
        if value & b:
            out |= _ONE << k
        k += _ONE
    return out


if numba_internals.OPEN:
    from .numba_internals import ctpop, leading_zeros, trailing_zeros

    @njit
    def low_index(mask):
        """Index of the lowest set bit of a non-zero uint64."""
        return np.int64(trailing_zeros(mask))

    @njit(inline="always")
    def high_bit(mask):
        """The highest set bit of a non-zero mask, as a mask."""
        return _ONE << np.uint64(63 - leading_zeros(mask))

    @njit(inline="always")
    def popcount(mask):
        """Set bits of a uint64 (LLVM's population count: one instruction where the CPU has
        one)."""
        return np.int64(ctpop(np.uint64(mask)))
else:
    low_index, high_bit, popcount = plain_low_index, plain_high_bit, plain_popcount

if numba_internals.HAS_PEXT:
    from .numba_internals import pext_instruction

    @njit(inline="always")
    def pext(value, mask):
        """`pext_loop` in one instruction (BMI2)."""
        return pext_instruction(np.uint64(value), np.uint64(mask))
else:
    pext = pext_loop


@njit(inline="always")
def bits_above(p):
    """Bits strictly above bit p."""
    return ~((one_bit(p) << _ONE) - _ONE)


@njit(inline="always")
def above_highest(mask):
    """Bits strictly above the highest set bit of a non-zero mask."""
    return ~((high_bit(mask) << _ONE) - _ONE)
