"""Jitted trick kernels: legal cards, the trick's winner, the next seat in play.

`playable` is the one rule of which cards may be played; `legal_mask` (card ids and the rule
tables) and `legal_cards` (the solver's power layout) only say where its masks come from, and
the engine calls its Python function.
"""

import numpy as np

from .jit import njit
from .ruletables import LAYOUT_NO_LEAD
from .seats import left_of


@njit(inline="always")
def playable(hand, no_lead, led):
    """The cards of `hand` that may be played: those of the led suit (`led`, its cards; 0 when
    leading) if it holds any; leading, those but the cards that may not lead (`no_lead`) if it
    holds others; else any card."""
    allowed = hand & ~no_lead if led == 0 else hand & led
    return allowed if allowed else hand


@njit
def legal_mask(tables, trump, hand, led_suit):
    """Cards of `hand` that may be played; led_suit -1 when leading."""
    led = tables.suit_mask[trump, led_suit] if led_suit >= 0 else np.uint64(0)
    return playable(hand, tables.lead_forbidden[trump], led)


@njit(inline="always")
def legal_cards(lay, hand, led):
    """`playable` in the power layout `lay` of one trump (`led` the led suit's bits, 0 when
    leading)."""
    return playable(hand, lay[LAYOUT_NO_LEAD], led)


@njit
def trick_winner(tables, trump, cards, n_played):
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


@njit(inline="always")
def next_active(active, seat):
    """The next seat clockwise whose bit is set in `active` (the seats in play)."""
    seat = left_of(seat)
    while not (active >> seat) & 1:
        seat = left_of(seat)
    return seat
