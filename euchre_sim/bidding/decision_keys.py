"""A decision of the auction as one 64-bit key: the turn, the action and the hand's class.

The class reads the hand against the upcard (round 1) or the turned-down card (round 2: the
turned-down suit plays the part of trump in the key, its bowers included; with Benny turned
up, against no-trump), so a seat's pass and every call it may make share one class. The suit
a call names is read against the same card, so that suit-swapped twins share their decisions:
`up` (round 1: the upcard's suit), `next` (the turned-down card's colour), `other1` ...
(the remaining suits in the class key's canonical order) and `NT`. The key packs round
(1 bit), position (2), action (4: 0 pass, 1 + suit * 2 + alone a call, suit the index of its
label) and the class key without its round-2 bit (57): `simulate --bidding` sums decisions by
it and the `table` bidder looks decisions up by it.
"""

import numpy as np

from ..core.cards import JOKER
from ..core.handclass import class_features, class_key
from ..core.jit import njit
from ..core.ruletables import NO_TRUMP

_LOW56 = np.uint64((1 << 56) - 1)
_ROUND2_BIT, _NT_BIT = 56, 57  # the class key's round-2 and no-trump bits (core.handclass)
PASS_CODE = 0
SUIT_LABELS = ("up", "next", "other1", "other2", "other3", "other4", "NT")
_UP, _NEXT, _OTHER, _NT = 0, 1, 2, 6


@njit
def action_code(suit, alone):
    """The 4-bit code of a call naming the suit of label index `suit` (pass is PASS_CODE)."""
    return 1 + suit * 2 + alone


@njit
def relative_suit(tb, others, upcard, round_no, trump):
    """The label index (SUIT_LABELS) of a trump named at a turn; `others`: the suits in the
    class key's order, as turn_class leaves them."""
    if round_no == 1:
        return _UP
    if trump == NO_TRUMP:
        return _NT
    if upcard != JOKER and trump == tb.next_suit[upcard >> 3]:
        return _NEXT
    for i in range(4):
        if others[i] == trump:
            return _OTHER + i
    return -1


@njit
def turn_class(tb, hand, upcard, round_no, masks, others):
    """The class key of a hand at a turn of the auction (see the module's docstring); leaves
    the hand's holdings in `masks` (uint64[5]) and its suits' order in `others` (int64[4])
    for turn_features and relative_suit."""
    if upcard == JOKER:
        # int64s, not literals: a literal argument compiles class_key once more
        return class_key(tb, hand, np.int64(NO_TRUMP), np.int64(2), np.int64(-1), masks,
                         others)
    return class_key(tb, hand, upcard >> 3, round_no, upcard, masks, others)


@njit(inline="always")  # small, and called with literal codes
def decision_key(round_no, pos, code, key):
    """The 64-bit key of a decision: turn, action code, class."""
    compact = (key & _LOW56) | (((key >> np.uint64(_NT_BIT)) & np.uint64(1)) << np.uint64(56))
    return (np.uint64(round_no - 1) << np.uint64(63)) | (np.uint64(pos - 1) << np.uint64(61)) \
        | (np.uint64(code) << np.uint64(57)) | compact


@njit
def turn_features(tb, masks, upcard, feats):
    """The hand's summary features (core.handclass.class_features: trumps, right, left, aces,
    voids) read against the same card as turn_class; `masks` as turn_class leaves them."""
    class_features(tb, NO_TRUMP if upcard == JOKER else upcard >> 3, masks, feats)


FEATURE_NAMES = ("trumps", "right", "left", "aces", "voids")  # core.handclass.class_features
_FEATURE_SHIFTS = (8, 7, 6, 3, 0)  # packed: trumps 4 bits, right, left, aces 3, voids 3
_FEATURE_MASKS = (15, 1, 1, 7, 7)


@njit
def pack_features(feats):
    """The five features as one 12-bit number (layout: _FEATURE_SHIFTS)."""
    packed = 0
    for i in range(5):
        packed |= feats[i] << _FEATURE_SHIFTS[i]
    return packed


def unpack_features(packed: np.ndarray) -> dict[str, np.ndarray]:
    """trumps, right, left, aces, voids from pack_features numbers."""
    return {name: (packed >> shift) & mask for name, shift, mask
            in zip(FEATURE_NAMES, _FEATURE_SHIFTS, _FEATURE_MASKS, strict=True)}


def pack_feature_columns(columns) -> np.ndarray:
    """pack_features of table columns (a mapping of the five feature names to arrays)."""
    packed = np.zeros(len(columns["trumps"]), dtype=np.int64)
    for name, shift in zip(FEATURE_NAMES, _FEATURE_SHIFTS, strict=True):
        packed |= np.asarray(columns[name], dtype=np.int64) << shift
    return packed


@njit
def feature_key(round_no, pos, code, packed):
    """The key of a decision by the hand's features instead of its class (the table bidder's
    coarser fallback)."""
    return (np.uint64(round_no - 1) << np.uint64(63)) | (np.uint64(pos - 1) << np.uint64(61)) \
        | (np.uint64(code) << np.uint64(57)) | np.uint64(packed)


def split_decision_keys(keys: np.ndarray) -> dict[str, np.ndarray]:
    """round, seat, action (0 pass, 1 order_up, 2 call), suit (label index; -1: pass), alone
    and the class key, from decision keys."""
    round_no = (keys >> np.uint64(63)).astype(np.int8) + 1
    code = ((keys >> np.uint64(57)) & np.uint64(15)).astype(np.int64)
    compact = keys & np.uint64((1 << 57) - 1)
    hand_key = (compact & _LOW56) | (((compact >> np.uint64(56)) & np.uint64(1))
                                     << np.uint64(_NT_BIT))
    hand_key |= (round_no == 2).astype(np.uint64) << np.uint64(_ROUND2_BIT)
    return {"round": round_no,
            "seat": (((keys >> np.uint64(61)) & np.uint64(3)) + 1).astype(np.int8),
            "action": np.where(code == PASS_CODE, 0, np.where(round_no == 1, 1, 2)),
            "suit": np.where(code == PASS_CODE, -1, (code - 1) // 2),
            "alone": (code > PASS_CODE) & ((code - 1) % 2 == 1), "hand_key": hand_key}


def join_decision_keys(round_no: np.ndarray, seat: np.ndarray, suit: np.ndarray,
                       alone: np.ndarray, hand_key: np.ndarray | None = None,
                       packed_features: np.ndarray | None = None) -> np.ndarray:
    """Decision keys from table columns (suit: label index, -1 for a pass) and the class key
    (the inverse of split_decision_keys), or feature keys from packed features."""
    code = np.where(suit < 0, PASS_CODE, 1 + suit * 2 + alone.astype(np.int64))
    if hand_key is not None:
        hand_key = hand_key.astype(np.uint64)
        low = (hand_key & _LOW56) | (((hand_key >> np.uint64(_NT_BIT)) & np.uint64(1))
                                     << np.uint64(56))
    else:
        low = packed_features.astype(np.uint64)
    return ((round_no.astype(np.uint64) - np.uint64(1)) << np.uint64(63)) \
        | ((seat.astype(np.uint64) - np.uint64(1)) << np.uint64(61)) \
        | (code.astype(np.uint64) << np.uint64(57)) | low
