"""The bit helpers that an LLVM instruction serves (`numba_internals`: population count,
trailing and leading zeros, BMI2 `pext`), used by `core.bits` where that door is open."""

import numpy as np

from .jit import njit
from .numba_internals import ctpop, leading_zeros, pext_instruction, trailing_zeros

_ONE = np.uint64(1)


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


@njit(inline="always")
def pext(value, mask):
    """`bits.pext_loop` in one instruction (BMI2; only where `numba_internals.HAS_PEXT`)."""
    return pext_instruction(np.uint64(value), np.uint64(mask))
