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

import numpy as np

from ..core.bits import low_index
from ..core.calls import call_open, call_row, may_pass
from ..core.cards import JOKER
from ..core.jit import njit
from ..core.ruletables import NO_TRUMP
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


@njit(_nrt=False)
def counted(value):
    """A hand's value to 1e-9: sums equal but for the order of their rounding are equal, so a
    tie between suits (or with a threshold) does not hang on the order cards were added."""
    return np.floor(value * 1e9 + 0.5) / 1e9


@njit(_nrt=False, inline="always")
def trump_value(tb, params, card, trump):
    """A trump's weight by its rank from the top of the trump suit."""
    rank = tb.order_pos[trump, card]
    return params[_TRUMP_1 + rank] if rank < 4 else params[_TRUMP_LOW]


@njit(_nrt=False, inline="always")
def hand_value(tb, params, hand, trump):
    """Points of a hand (card-id mask) for a trump (4: no-trump)."""
    value = 0.0
    m = hand
    if trump == NO_TRUMP:
        while m:
            c = low_index(m)
            m &= m - _ONE
            if c == JOKER:
                value += params[_NT_JOKER]
            elif tb.order_pos[trump, c] == 0:
                value += params[_NT_ACE]
            elif tb.order_pos[trump, c] == 1:
                value += params[_NT_KING]
        return counted(value)
    trumps = 0
    held = 0
    while m:
        c = low_index(m)
        m &= m - _ONE
        suit = tb.eff_suit[trump, c]
        if suit == trump:
            value += trump_value(tb, params, c, trump)
            trumps += 1
        else:
            held |= 1 << suit
            rank = tb.order_pos[trump, c]
            if rank == 0:
                value += params[_OFF_ACE]
            elif rank == 1:
                value += params[_OFF_KING]
    if trumps:
        for s in range(4):
            if s != trump and not (held >> s) & 1:
                value += params[_VOID]
    return counted(value)


@njit(_nrt=False, inline="always")
def dealer_value(tb, params, hand, upcard, trump):
    """The dealer's points after taking the upcard and discarding the card that costs least."""
    six = hand | (_ONE << np.uint64(upcard))
    best = -1e9
    m = six
    while m:
        c = low_index(m)
        m &= m - _ONE
        best = max(best, hand_value(tb, params, six & ~(_ONE << np.uint64(c)), trump))
    return best


@njit(inline="always")
def _round_2_threshold(params, trump, pos):
    """The value a hand needs to name `trump` in round 2 at position pos."""
    return params[_NT_CALL] if trump == NO_TRUMP else params[_CALL_1 + 4 + pos - 1]


@njit(_nrt=False)
def may_name(tb, params, hand, trump, pos):
    """False when the bidder surely does not name `trump` in round 2 at position pos: the
    hand's value for it is under the call's threshold and the seat may pass. One suit's value,
    not every suit's: a cheap first test for samplers that reject most hands."""
    return not may_pass(tb.flags, 2, pos) or \
        hand_value(tb, params, hand, trump) >= _round_2_threshold(params, trump, pos)


@njit(_nrt=False)
def conventional_choice(tb, params, hand, upcard, round_no, pos):
    """The call-table row the bidder calls at this turn, or -1 to pass."""
    flags = tb.flags
    if round_no == 1:
        if upcard == JOKER:
            return -1
        trump = upcard >> 3
        if pos == 4:
            with_partner = dealer_value(tb, params, hand, upcard, trump)
            alone_value = with_partner
        else:
            alone_value = hand_value(tb, params, hand, trump)
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
        value = hand_value(tb, params, hand, trump)
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
