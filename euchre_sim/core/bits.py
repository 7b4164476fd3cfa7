"""Jitted bit helpers on uint64 masks, shared by every kernel: counts, lowest and highest bits.

Each helper that an LLVM instruction serves (`bit_instructions`, through `numba_internals`)
has a plain twin of bit tricks, `plain_*`, with the same results: the helper itself where that
door is shut, and when run as Python.
"""

import numpy as np

from .jit import dispatcher_of, lazy, njit

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


def _instruction(name: str, plain, door: str = "OPEN"):
    """`bit_instructions.<name>` where Numba's door (`numba_internals.<door>`) is open, else
    the plain twin; the twin's Python when run as Python (`core.jit.as_python`)."""
    def make():
        from . import numba_internals

        if not getattr(numba_internals, door):
            return dispatcher_of(plain)
        from . import bit_instructions

        return getattr(bit_instructions, name)

    return lazy(make, plain, name)


low_index = _instruction("low_index", plain_low_index)
high_bit = _instruction("high_bit", plain_high_bit)
popcount = _instruction("popcount", plain_popcount)
pext = _instruction("pext", pext_loop, door="HAS_PEXT")


@njit(inline="always")
def bits_above(p):
    """Bits strictly above bit p."""
    return ~((one_bit(p) << _ONE) - _ONE)


@njit(inline="always")
def above_highest(mask):
    """Bits strictly above the highest set bit of a non-zero mask."""
    return ~((high_bit(mask) << _ONE) - _ONE)
