"""Jitted trick kernels: the legal-card mask and the winner of a trick, read from RuleTables."""

import numpy as np
from numba.cpython.unsafe.numbers import trailing_zeros

from ._jit import njit

_M1 = np.uint64(0x5555555555555555)
_M2 = np.uint64(0x3333333333333333)
_M4 = np.uint64(0x0F0F0F0F0F0F0F0F)
_H01 = np.uint64(0x0101010101010101)


@njit
def _lowest_bit(mask):
    """Index of the lowest set bit of a non-zero uint64."""
    return np.int64(trailing_zeros(mask))


@njit
def _popcount(mask):
    """Set bits of a uint64 (SWAR, constant time)."""
    x = mask - ((mask >> np.uint64(1)) & _M1)
    x = (x & _M2) + ((x >> np.uint64(2)) & _M2)
    x = (x + (x >> np.uint64(4))) & _M4
    return np.int64((x * _H01) >> np.uint64(56))


@njit
def _legal_mask(tables, trump, hand, led_suit):
    """Cards of `hand` that may be played; led_suit -1 when leading."""
    if led_suit < 0:
        allowed = hand & ~tables.lead_forbidden[trump]
        return allowed if allowed else hand
    follow = hand & tables.suit_mask[trump, led_suit]
    return follow if follow else hand


@njit
def _trick_winner(tables, trump, cards, n_played):
    """Index into `cards` (play order, cards[0] led) of the card that wins the trick."""
    led = tables.eff_suit[trump, cards[0]]
    best = 0
    best_key = tables.win_key[trump, led, cards[0]]
    for i in range(1, n_played):
        key = tables.win_key[trump, led, cards[i]]
        if key > best_key:
            best = i
            best_key = key
    return best


def legal_mask(tables, trump: int, hand: int, led_suit: int) -> int:
    """Public wrapper: legal cards of `hand` (led_suit -1 when leading)."""
    return int(_legal_mask(tables, trump, np.uint64(hand), led_suit))


def trick_winner(tables, trump: int, cards: list[int]) -> int:
    """Public wrapper: position in `cards` of the winning card."""
    return int(_trick_winner(tables, trump, np.array(cards, dtype=np.int64), len(cards)))
