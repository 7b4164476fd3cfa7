"""Jitted bit helpers on uint64 masks, shared by every kernel: counts, lowest and highest bits."""

import platform

import llvmlite.binding as llvm
import numba
import numpy as np
from llvmlite import ir
from numba.core import cgutils, types
from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros
from numba.extending import intrinsic

from .jit import njit

_ONE = np.uint64(1)


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


@njit(inline="always")
def above_highest(mask):
    """Bits strictly above the highest set bit of a non-zero mask."""
    return ~((high_bit(mask) << _ONE) - _ONE)


@intrinsic
def _ctpop(typingctx, mask):
    """LLVM's population count (one instruction where the CPU has one)."""
    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])
    return types.uint64(types.uint64), codegen


@njit(inline="always")
def popcount(mask):
    """Set bits of a uint64."""
    return np.int64(_ctpop(np.uint64(mask)))


def _host_has_pext() -> bool:
    """Whether the code Numba makes here may use the BMI2 `pext` instruction."""
    if platform.machine().lower() not in ("x86_64", "amd64") or numba.config.CPU_NAME:
        return False
    try:
        return bool(llvm.get_host_cpu_features().get("bmi2"))
    except RuntimeError:
        return False


HAS_PEXT = _host_has_pext()


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


@intrinsic
def _pext_instruction(typingctx, value, mask):
    def codegen(context, builder, signature, args):
        word = ir.IntType(64)
        fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(word, [word, word]),
                                            "llvm.x86.bmi.pext.64")
        return builder.call(fn, args)
    return types.uint64(types.uint64, types.uint64), codegen


if HAS_PEXT:
    @njit(inline="always")
    def pext(value, mask):
        """`pext_loop` in one instruction (BMI2)."""
        return _pext_instruction(np.uint64(value), np.uint64(mask))
else:
    pext = pext_loop
