"""Jitted bit helpers on uint64 masks, shared by every kernel: counts, lowest and highest bits."""

import numpy as np
from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros

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


@njit
def low_index(mask):
    """Index of the lowest set bit of a non-zero uint64."""
    return np.int64(trailing_zeros(mask))


@njit(inline="always")
def high_bit(mask):
    """The highest set bit of a non-zero mask, as a mask."""
    return _ONE << np.uint64(63 - leading_zeros(mask))


@njit(inline="always")
def bits_above(p):
    """Bits strictly above bit p."""
    return ~((one_bit(p) << _ONE) - _ONE)


@njit
def popcount(mask):
    """Set bits of a uint64 (SWAR, constant time)."""
    x = mask - ((mask >> np.uint64(1)) & _M1)
    x = (x & _M2) + ((x >> np.uint64(2)) & _M2)
    x = (x + (x >> np.uint64(4))) & _M4
    return np.int64((x * _H01) >> np.uint64(56))
