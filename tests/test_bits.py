"""The jitted bit helpers against plain Python on random masks."""

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from euchre_sim.core.bits import high_bit, low_index, pext, pext_loop, popcount

masks = st.integers(0, 2**64 - 1)


def _pext_by_hand(value: int, mask: int) -> int:
    out, k = 0, 0
    for b in range(64):
        if mask >> b & 1:
            out |= (value >> b & 1) << k
            k += 1
    return out


@given(mask=masks)
def test_popcount_counts_set_bits(mask):
    assert popcount(np.uint64(mask)) == bin(mask).count("1")


@given(mask=masks.filter(bool))
def test_lowest_and_highest_bit(mask):
    assert low_index(np.uint64(mask)) == (mask & -mask).bit_length() - 1
    assert int(high_bit(np.uint64(mask))) == 1 << (mask.bit_length() - 1)


@given(value=masks, mask=masks)
def test_pext_packs_the_masked_bits_in_order(value, mask):
    expected = _pext_by_hand(value, mask)
    assert int(pext(np.uint64(value), np.uint64(mask))) == expected
    assert int(pext_loop(np.uint64(value), np.uint64(mask))) == expected
