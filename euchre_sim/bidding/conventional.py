"""The conventional bidder (`--bidding rules`): a point count of the hand against thresholds.

Each candidate trump is valued by the weights of `params.PARAMS`: trumps by rank from the top,
plain-suit aces and kings, voids when holding a trump; in round 1 the upcard counts for the
dealer (who takes it and discards the card whose loss costs least), adds a share for the
dealer's partner and subtracts a share for the opponents. A seat calls when the value reaches
its round and seat threshold, alone when it reaches `alone`; in round 2 it names the suit (or
no-trump) with the largest margin over its threshold, the first in suit order on a tie (values
are counted to 1e-9). A stuck dealer names that suit anyway;
under Canadian loner the dealer's partner orders up only alone.
"""

from typing import NamedTuple

import numpy as np

from ..core.bits import one_bit, popcount
from ..core.calls import call_open, call_row, may_pass
from ..core.cards import JOKER
from ..core.jit import njit
from ..core.ruletables import (
    CARD_LAYOUT,
    NO_TRUMP,
    VALUE_ACES,
    VALUE_KINGS,
    VALUE_LOW_TRUMPS,
    VALUE_RANKS,
    VALUE_SUITS,
    VALUE_TRUMPS,
)
from .params import INDEX

_ONE = np.uint64(1)
_TRUMP_1 = INDEX["trump_1"]
_TRUMP_LOW = INDEX["trump_low"]
_OFF_ACE = INDEX["off_ace"]
_OFF_KING = INDEX["off_king"]
_VOID = INDEX["void"]
_UP_PARTNER = INDEX["upcard_partner"]
_UP_OPPONENT = INDEX["upcard_opponent"]
_NT_ACE = INDEX["nt_ace"]
_NT_KING = INDEX["nt_king"]
_NT_JOKER = INDEX["nt_joker"]
_CALL_1 = INDEX["call_1_1"]  # call_1_1 .. call_1_4, call_2_1 .. call_2_4 follow in order
_ALONE = INDEX["alone"]
_NT_CALL = INDEX["nt_call"]
_NT_ALONE = INDEX["nt_alone"]


class BidTables(NamedTuple):
    """The rule tables (`core.ruletables.RuleTables`) the rules bidder reads, under the same
    names. Callers in a hot loop pass these four arrays, not all of the rule tables: a struct
    of arrays passed to a function that is not inlined is copied at every call."""

    flags: np.ndarray
    value_masks: np.ndarray
    order_pos: np.ndarray
    power_bit: np.ndarray


@njit(inline="always")
def bid_tables(tb):
    """The rule tables' part the rules bidder reads (`BidTables`)."""
    return BidTables(tb.flags, tb.value_masks, tb.order_pos, tb.power_bit)


@njit(nrt=False)
def counted(value):
    """A hand's value to 1e-9: sums equal but for the order of their rounding are equal, so a
    tie between suits (or with a threshold) does not hang on the order cards were added."""
    return np.floor(value * 1e9 + 0.5) / 1e9


@njit(nrt=False, inline="always")
def trump_value(tb, params, card, trump):
    """A trump's weight by its rank from the top of the trump suit."""
    rank = tb.order_pos[trump, card]
    return params[_TRUMP_1 + rank] if rank < 4 else params[_TRUMP_LOW]


@njit(nrt=False, inline="always")
def hand_value_in(tb, params, hand, layout, trump):
    """Points of a hand (a mask in `layout`: a trump's power layout or CARD_LAYOUT) for a
    trump (4: no-trump)."""
    return counted(_sum_in(tb, params, hand, layout, trump))


@njit(nrt=False, inline="always")
def _sum_in(tb, params, hand, layout, trump):
    """`hand_value_in` before it is counted to 1e-9."""
    masks = tb.value_masks[layout, trump]
    if trump == NO_TRUMP:
        return popcount(hand & masks[VALUE_RANKS]) * params[_NT_JOKER] \
            + popcount(hand & masks[VALUE_ACES]) * params[_NT_ACE] \
            + popcount(hand & masks[VALUE_KINGS]) * params[_NT_KING]
    value = popcount(hand & masks[VALUE_LOW_TRUMPS]) * params[_TRUMP_LOW] \
        + popcount(hand & masks[VALUE_ACES]) * params[_OFF_ACE] \
        + popcount(hand & masks[VALUE_KINGS]) * params[_OFF_KING]
    for r in range(4):
        if hand & masks[VALUE_RANKS + r]:
            value += params[_TRUMP_1 + r]
    if hand & masks[VALUE_TRUMPS]:
        for s in range(4):
            if s != trump and not hand & masks[VALUE_SUITS + s]:
                value += params[_VOID]
    return value


@njit(nrt=False, inline="always")
def hand_value(tb, params, hand, trump):
    """Points of a hand (card-id mask) for a trump (4: no-trump)."""
    return hand_value_in(tb, params, hand, CARD_LAYOUT, trump)


@njit(nrt=False, inline="always")
def _layout_bit(tb, layout, card):
    """The bit of a card id in `layout`."""
    return one_bit(card if layout == CARD_LAYOUT else tb.power_bit[layout, card])


@njit(nrt=False, inline="always")
def dealer_value_in(tb, params, hand, layout, upcard, trump):
    """The dealer's points after taking the upcard and discarding the card that costs least
    (hand in `layout`, the upcard a card id)."""
    six = hand | _layout_bit(tb, layout, upcard)
    best = -1e9
    m = six
    while m:
        low = m & (~m + _ONE)
        m &= m - _ONE
        best = max(best, _sum_in(tb, params, six & ~low, layout, trump))
    return counted(best)  # the most of the counted values: counting keeps the order


@njit(nrt=False, inline="always")
def dealer_value(tb, params, hand, upcard, trump):
    """`dealer_value_in` for a card-id hand."""
    return dealer_value_in(tb, params, hand, CARD_LAYOUT, upcard, trump)


@njit(inline="always")
def _round_2_threshold(params, trump, pos):
    """The value a hand needs to name `trump` in round 2 at position pos."""
    return params[_NT_CALL] if trump == NO_TRUMP else params[_CALL_1 + 4 + pos - 1]


@njit(nrt=False)
def may_name(tb, params, hand, layout, trump, pos):
    """False when the bidder surely does not name `trump` in round 2 at position pos: the
    hand's value for it is under the call's threshold and the seat may pass. One suit's value,
    not every suit's: a cheap first test for samplers that reject most hands. The hand is a
    mask in `layout` (see `hand_value_in`)."""
    return not may_pass(tb.flags, 2, pos) or \
        hand_value_in(tb, params, hand, layout, trump) >= _round_2_threshold(params, trump, pos)


@njit(nrt=False, inline="always")
def conventional_choice(tb, params, hand, upcard, round_no, pos):
    """The call-table row the bidder calls at this turn with a card-id hand, or -1 to pass."""
    return conventional_choice_in(tb, params, hand, CARD_LAYOUT, upcard, round_no, pos)


@njit(nrt=False)
def conventional_choice_in(tb, params, hand, layout, upcard, round_no, pos):
    """The call-table row the bidder calls at this turn, or -1 to pass; the hand is a mask in
    `layout` (see `hand_value_in`), the upcard a card id."""
    flags = tb.flags
    if round_no == 1:
        if upcard == JOKER:
            return -1
        trump = upcard >> 3
        if pos == 4:
            with_partner = dealer_value_in(tb, params, hand, layout, upcard, trump)
            alone_value = with_partner
        else:
            alone_value = hand_value_in(tb, params, hand, layout, trump)
            share = params[_UP_PARTNER] if pos == 2 else -params[_UP_OPPONENT]
            with_partner = alone_value + share * trump_value(tb, params, upcard, trump)
        if call_open(flags, 1, pos, trump, 1, upcard) and alone_value >= params[_ALONE]:
            return call_row(1, pos, trump, 1)
        if call_open(flags, 1, pos, trump, 0, upcard) and \
                with_partner >= params[_CALL_1 + pos - 1]:
            return call_row(1, pos, trump, 0)
        return -1
    best = -1
    best_margin = -1e9
    best_value = 0.0
    for trump in range(5):
        if not (call_open(flags, 2, pos, trump, 0, upcard)
                or call_open(flags, 2, pos, trump, 1, upcard)):
            continue
        value = hand_value_in(tb, params, hand, layout, trump)
        threshold = _round_2_threshold(params, trump, pos)
        if value - threshold > best_margin:
            best = trump
            best_margin = value - threshold
            best_value = value
    if best < 0 or (best_margin < 0 and may_pass(flags, 2, pos)):
        return -1
    alone_threshold = params[_NT_ALONE] if best == NO_TRUMP else params[_ALONE]
    if call_open(flags, 2, pos, best, 1, upcard) and best_value >= alone_threshold:
        return call_row(2, pos, best, 1)
    if call_open(flags, 2, pos, best, 0, upcard):
        return call_row(2, pos, best, 0)
    return call_row(2, pos, best, 1)
