"""What a seat knows, as the learned card player's features: the nets' layouts of canonical
card slots and the encoding of a position (`encode`, in Numba), with its twin for training.

Two layouts (`NetLayout`): the standard net's knows the 24-card French deck with a suit for
trump (slots the same whatever the trump); the general net's every other deal the rules
reach: 28 and 32 cards, Benny, Yooker's power card and shapes, and no-trump contracts, its
slots by suit class and rank from the top, with the deck, Benny, Yooker and no-trump as flags.
`net_slots` says which layout a decision is and, for a net made so, orders the plain suits that
play alike by what the seat has seen of them (SUIT_ORDER) rather than by suit id, so that
suit-swapped twins show the same features.

Features (`encode`, all 0/1, seats relative to the deciding seat: 0 itself, 1 the next to
play after it, 2 its partner, 3 the one before it): the seat's hand; the cards each seat has
played, and those the others played in the current trick; the cards known out of play (the
turned-down upcard, the seat's own discard); the upcard a dealer took; the cards whose place
the seat does not know; the suits each other seat has shown void in;
dealer, maker and the seats in play; alone and defending alone; trick number and place in it;
tricks won by each side; who wins the trick so far and the led suit; the auction turn of the
call; whether the decision is the dealer's discard; the general layout's rule flags. Those are
logged with each decision (`teaching_log`); two more are derived from them, in the kernel
(`encode`) and for training (`derived_features`): the seat's cards that no card it cannot
place beats (boss cards), and, following, the seat's cards that would take the trick if
played now.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..core.bits import above_highest, bits_above, low_index, popcount
from ..core.jit import njit
from .state import (
    P_BY,
    P_KNOWN_OUT,
    P_LED,
    P_PLAYED,
    P_TRICK,
    P_VOID,
    S_ACTIVE,
    S_DEALER,
    S_DEFENDER_ALONE,
    S_DISCARD,
    S_MAKER,
    S_MAKER_ALONE,
    S_MAKER_TRICKS,
    S_MAKER_TURN,
    S_POS,
    S_TRICKS,
    S_TRUMP,
    S_UP,
    S_WBIT,
    S_WSEAT,
)


class NetLayout(NamedTuple):
    """Where a net's features lie (`layout_of`): card sets of n_slots each, then one-hot
    groups, then the derived sets (boss, beats); class_of_slot[slot] is the slot's suit class
    (0 the trumps, then the plain suits). The logged features are the first n_logged."""

    general: bool
    n_slots: int
    n_classes: int
    class_of_slot: np.ndarray
    hand: int
    played: int  # + n_slots * relative seat
    trick: int  # + n_slots * (relative seat - 1): the current trick's
    out: int
    up: int
    unseen: int
    void: int  # + n_classes * (relative seat - 1) + suit class
    dealer: int
    maker: int
    alone: int  # maker alone, defender alone
    active: int
    trick_no: int
    place: int
    ours: int
    theirs: int
    winner: int
    led: int
    call_turn: int
    discard: int
    flags: int  # the general layout's rule flags (FLAG_*); none in the standard one
    n_logged: int
    boss: int  # the seat's cards no card it cannot place beats
    beats: int  # following: the seat's cards that would take the trick now
    n_features: int


def layout_of(general: bool, class_sizes: tuple[int, ...], n_flags: int) -> NetLayout:
    """The offsets of every feature group for suit classes of `class_sizes` slots."""
    n_slots, n_classes = sum(class_sizes), len(class_sizes)
    widths = {"hand": n_slots, "played": 4 * n_slots, "trick": 3 * n_slots, "out": n_slots,
              "up": n_slots, "unseen": n_slots, "void": 3 * n_classes, "dealer": 4, "maker": 4,
              "alone": 2, "active": 4, "trick_no": 5, "place": 4, "ours": 5, "theirs": 5,
              "winner": 4, "led": n_classes, "call_turn": 8, "discard": 1, "flags": n_flags,
              "n_logged": 0, "boss": n_slots, "beats": n_slots, "n_features": 0}
    offsets, at = {}, 0
    for name, width in widths.items():
        offsets[name] = at
        at += width
    return NetLayout(general, n_slots, n_classes,
                     np.repeat(np.arange(n_classes), class_sizes).astype(np.int64), **offsets)


# The standard net's layout: 24 slots, the same whatever the trump: 0-6 the trumps high to low
# (right bower first), 7-11 the suit of the trump's colour (its jack is the left bower), 12-17
# and 18-23 the two other suits (`canonical_slots`: the lower suit id first; a decision's,
# `net_slots`: in the seat's order, SUIT_ORDER), each high to low.
STANDARD_LAYOUT = layout_of(False, (7, 5, 6, 6), 0)
# The general net's layout: every deck, Benny, Yooker and no-trump. Class 0 the trumps (no-trump:
# Benny alone), ten slots high to low (Benny, the power card or the bowers, then the trump suit
# by rank); classes 1-4 the plain suits, eight slots each, high to low (a smaller deck leaves
# the lowest slots empty): under a suit trump the suit of its colour first where there are
# bowers, then the others, class 4 empty; under no-trump the four suits (`general_slots`: by
# suit id; a decision's, `net_slots`: in the seat's order, SUIT_ORDER).
GENERAL_CLASS_SIZES = (10, 8, 8, 8, 8)
FLAG_DECK_28, FLAG_DECK_32, FLAG_JOKER, FLAG_YOOKER, FLAG_NO_TRUMP = range(5)
GENERAL_LAYOUT = layout_of(True, GENERAL_CLASS_SIZES, 5)
LAYOUTS = {"standard": STANDARD_LAYOUT, "general": GENERAL_LAYOUT}
MAX_SLOTS = GENERAL_LAYOUT.n_slots


def feature_layout(nl: NetLayout) -> dict:
    """What a logged decision's columns mean and the plain suits' order (training data name
    it)."""
    return {name: value for name, value in nl._asdict().items()
            if name not in ("general", "class_of_slot")} | {"suit_order": list(SUIT_ORDER)}


def derived_features(logged: np.ndarray, nl: NetLayout = STANDARD_LAYOUT) -> np.ndarray:
    """The derived features (uint8[n, n_features - n_logged]) of logged decisions (their
    first n_logged columns): what `encode` writes at boss and beats, from the slots."""
    n_slots, classes = nl.n_slots, nl.class_of_slot

    def block(base, k=0):
        return logged[:, base + n_slots * k:base + n_slots * (k + 1)] > 0

    hand = block(nl.hand)
    placed = hand | block(nl.out)
    trick = np.zeros_like(hand)
    for k in range(4):
        placed |= block(nl.played, k)
    for k in range(3):
        trick |= block(nl.trick, k)
    boss, beats = np.zeros_like(hand), np.zeros_like(hand)
    for cls in range(nl.n_classes):
        clear = np.ones(len(logged), dtype=bool)  # no unplaced card above (slots run high to low)
        for slot in np.flatnonzero(classes == cls):
            boss[:, slot] = hand[:, slot] & clear
            clear &= placed[:, slot]
    led = logged[:, nl.led:nl.led + nl.n_classes] > 0
    following, led_class = led.any(axis=1), led.argmax(axis=1)
    trumps = classes == 0
    trumped = trick[:, trumps].any(axis=1)
    # the winning card's slot: the best trump played, else the best card of the led suit
    best = np.where(trumped, trick[:, trumps].argmax(axis=1),
                    (trick & (classes == led_class[:, None])).argmax(axis=1))
    for slot in range(n_slots):
        above = slot < best
        if classes[slot] == 0:
            wins = ~trumped | above
        else:
            wins = ~trumped & (led_class == classes[slot]) & above
        beats[:, slot] = hand[:, slot] & following & wins
    return np.hstack([boss, beats]).astype(np.uint8)


@njit(nrt=False)
def canonical_slots(tb, trump, slots):
    """slots[power bit] = the card's slot in the standard layout under `trump` (-1: none);
    False when the deck is not the one it knows (24 cards, bowers, a suit for trump)."""
    slots[:] = -1
    if trump >= 4 or tb.power_range[trump, 4] != 0:
        return False
    nxt = tb.next_suit[trump]
    if nxt < 0:  # no bowers (Yooker): with Benny its seven trumps would pass the count below
        return False
    others = 0
    for s in range(4):
        if s == trump:
            base, size = 0, 7
        elif s == nxt:
            base, size = 7, 5
        else:
            base, size = 12 + 6 * others, 6
            others += 1
        r = tb.power_range[trump, s]
        if popcount(r) != size:
            return False
        _put_slots(r, base, slots)
    return True


@njit(nrt=False)
def _put_slots(suit, base, slots):
    """The cards of one effective suit (power bits) into slots base, base + 1, ... high to
    low."""
    k = base + popcount(suit) - 1
    while suit:
        slots[low_index(suit)] = k
        suit &= suit - np.uint64(1)
        k -= 1


@njit(nrt=False)
def general_slots(tb, trump, slots):
    """slots[power bit] = the card's slot in the general layout under `trump` (-1: none)."""
    slots[:] = -1
    top = trump if trump < 4 else 4  # no-trump: Benny's own class
    _put_slots(tb.power_range[trump, top], 0, slots)
    nxt = tb.next_suit[trump]
    cls = 1
    if nxt >= 0:
        _put_slots(tb.power_range[trump, nxt], 10, slots)
        cls = 2
    for s in range(4):
        if s != trump and s != nxt:
            _put_slots(tb.power_range[trump, s], 10 + 8 * (cls - 1), slots)
            cls += 1


# The plain suits that play alike (both layouts' suits after the trump and its colour's suit)
# in a net's features: by suit id (ORDER_BY_ID: the nets made before) or in the seat's order
# (ORDER_SEEN): by a key from the deciding seat's view, part by part (`_seen_part`), the suit
# with the greater key in the earlier slots; two whose keys tie show the same features
# whichever goes first, so suit-swapped twins show the same features. A net names its order
# (`net_weights.CardNet.suit_order`); training data are logged in the seat's order, which
# they name (`feature_layout`), so data made under another order is refused.
ORDER_BY_ID, ORDER_SEEN = 0, 1
SUIT_ORDER = ("led", "hand", "up", "out", "played by seat 0", "played by seat 1",
              "played by seat 2", "played by seat 3", "trick by seat 1", "trick by seat 2",
              "trick by seat 3", "voids shown by seats 1-3")


N_SUIT_PARTS = len(SUIT_ORDER)


@njit(nrt=False)
def _known_out(st, pm, seat):
    """The cards `seat` knows are out of play: the turned-down upcard, its own discard."""
    out = pm[P_KNOWN_OUT]
    if seat == st[S_DEALER] and st[S_DISCARD] >= 0:
        out |= np.uint64(1) << np.uint64(st[S_DISCARD])
    return out


@njit(nrt=False)
def _pattern(cards, suit):
    """The cards of `cards` in `suit` (a range of power bits) as a number whose bits are the
    suit's ranks, the highest card the highest bit."""
    return (cards & suit) >> np.uint64(low_index(suit))


@njit(nrt=False)
def _seen_part(at, suit, part):
    """Part `part` (SUIT_ORDER) of the key of `suit` (power bits) from at.seat's view."""
    _, hands, st, pm, seat = at
    if part == 0:
        return np.uint64(1) if pm[P_LED] & suit else np.uint64(0)
    if part == 1:
        return _pattern(hands[seat], suit)
    if part == 2:
        up = np.uint64(1) << np.uint64(st[S_UP]) if st[S_UP] >= 0 else np.uint64(0)
        return _pattern(up, suit)
    if part == 3:
        return _pattern(_known_out(st, pm, seat), suit)
    if part < 8:
        return _pattern(pm[P_BY + ((seat + part - 4) & 3)], suit)
    if part < 11:
        return _pattern(pm[P_BY + ((seat + part - 7) & 3)] & pm[P_TRICK], suit)
    voids = np.uint64(0)
    for r in range(1, 4):
        if pm[P_VOID + ((seat + r) & 3)] & suit:
            voids |= np.uint64(1) << np.uint64(r - 1)
    return voids


@njit(nrt=False)
def _seen_first(at, a, b):
    """Does plain suit `a` (power bits) come before `b` in the seat's order: a greater key,
    or the same key and the lower suit id (their features are then the same)?"""
    for part in range(N_SUIT_PARTS):
        ka, kb = _seen_part(at, a, part), _seen_part(at, b, part)
        if ka != kb:
            return ka > kb
    return a < b  # ranges follow suit ids


@njit(nrt=False)
def _order_plain_suits(tb, at, trump, first, size, nxt, slots):
    """Slots first, first + size, ... to the plain suits other than the trump and `nxt`, in
    the seat's order (`_seen_first`)."""
    for s in range(4):
        if s == trump or s == nxt:
            continue
        suit = tb.power_range[trump, s]
        rank = 0
        for o in range(4):
            if o != s and o != trump and o != nxt and _seen_first(
                    at, tb.power_range[trump, o], suit):
                rank += 1
        _put_slots(suit, first + size * rank, slots)


@njit(nrt=False)
def net_slots(tb, at, slots, standard_seen, general_seen):
    """The layout (0 standard, 1 general) of at.seat's decision (`state.Position`), with its
    slots written into `slots`: the layout's, the plain suits that play alike in the seat's
    order where that layout's `*_seen` says so (ORDER_SEEN), else by suit id."""
    trump = at.st[S_TRUMP]
    nxt = tb.next_suit[trump]
    if canonical_slots(tb, trump, slots):
        if standard_seen:
            _order_plain_suits(tb, at, trump, 12, 6, nxt, slots)
        return 0
    general_slots(tb, trump, slots)
    if general_seen:
        _order_plain_suits(tb, at, trump, 18 if nxt >= 0 else 10, 8, nxt, slots)
    return 1


@njit(nrt=False)
def _put_cards(mask, base, slots, active, n):
    while mask:
        active[n] = base + slots[low_index(mask)]
        mask &= mask - np.uint64(1)
        n += 1
    return n


@njit(nrt=False)
def _suit_classes(mask, slots, classes):
    """The suit classes (a bit mask) of the cards in `mask`."""
    found = 0
    while mask:
        found |= 1 << classes[slots[low_index(mask)]]
        mask &= mask - np.uint64(1)
    return found


@njit(nrt=False)
def _boss_cards(tb, trump, hand, placed):
    """The cards of `hand` that no card outside `placed` of their suit beats."""
    boss = np.uint64(0)
    for s in range(5):
        suit = tb.power_range[trump, s]
        mine = hand & suit
        unplaced = suit & ~placed
        boss |= mine & above_highest(unplaced) if unplaced else mine
    return boss


@njit(nrt=False)
def _winning_cards(tb, trump, hand, led, wbit):
    """The cards of `hand` that would take the trick from its winning card (power bit
    `wbit`; `led` the led suit's bits): a card of the led suit or a trump above it, as
    `state.play_card` decides (no-trump: Benny is the trumps' range)."""
    top = trump if trump < 4 else 4
    return hand & (led | tb.power_range[trump, top]) & bits_above(wbit)


@njit(nrt=False)
def _rule_flags(tb, trump, nl, active, n):
    """The general layout's flags: the deck's size, Benny, Yooker, a no-trump contract."""
    joker = (tb.deck_mask[0] >> np.uint64(32)) & np.uint64(1)
    size = popcount(tb.deck_mask[0]) - np.int64(joker)
    for flag, on in ((FLAG_DECK_28, size == 28), (FLAG_DECK_32, size == 32),
                     (FLAG_JOKER, joker != 0), (FLAG_YOOKER, tb.next_suit[0] < 0),
                     (FLAG_NO_TRUMP, trump == 4)):
        if on:
            active[n] = nl.flags + flag
            n += 1
    return n


@njit(nrt=False, inline="always")
def encode(tb, nl, at, discard, slots, active):
    """The indices of the active features of at.seat (`state.Position`) in layout `nl` into
    `active` (slots from `net_slots` for that layout); returns their count."""
    _, hands, st, pm, seat = at
    n_slots, classes = nl.n_slots, nl.class_of_slot
    n = _put_cards(hands[seat], nl.hand, slots, active, 0)
    n = _put_cards(pm[P_BY + seat], nl.played, slots, active, n)
    for r in range(1, 4):
        s = (seat + r) & 3
        n = _put_cards(pm[P_BY + s], nl.played + n_slots * r, slots, active, n)
        n = _put_cards(pm[P_BY + s] & pm[P_TRICK], nl.trick + n_slots * (r - 1), slots, active,
                       n)
        voids = _suit_classes(pm[P_VOID + s], slots, classes)
        for c in range(nl.n_classes):
            if (voids >> c) & 1:
                active[n] = nl.void + nl.n_classes * (r - 1) + c
                n += 1
    out = _known_out(st, pm, seat)
    n = _put_cards(out, nl.out, slots, active, n)
    placed = hands[seat] | pm[P_PLAYED] | out
    if st[S_UP] >= 0:
        active[n] = nl.up + slots[st[S_UP]]
        n += 1
        placed |= np.uint64(1) << np.uint64(st[S_UP])
    trump = st[S_TRUMP]
    deck = np.uint64(0)
    for s in range(5):
        deck |= tb.power_range[trump, s]
    n = _put_cards(deck & ~placed, nl.unseen, slots, active, n)
    n = _put_cards(_boss_cards(tb, trump, hands[seat], hands[seat] | pm[P_PLAYED] | out),
                   nl.boss, slots, active, n)
    if st[S_POS] > 0:
        n = _put_cards(_winning_cards(tb, trump, hands[seat], pm[P_LED], st[S_WBIT]), nl.beats,
                       slots, active, n)
    for base, s in ((nl.dealer, st[S_DEALER]), (nl.maker, st[S_MAKER])):
        active[n] = base + ((s - seat) & 3)
        n += 1
    for j, flag in enumerate((st[S_MAKER_ALONE], st[S_DEFENDER_ALONE])):
        if flag:
            active[n] = nl.alone + j
            n += 1
    for r in range(4):
        if (st[S_ACTIVE] >> ((seat + r) & 3)) & 1:
            active[n] = nl.active + r
            n += 1
    ours = st[S_MAKER_TRICKS]
    if (seat & 1) != (st[S_MAKER] & 1):
        ours = st[S_TRICKS] - ours
    for base, k in ((nl.trick_no, st[S_TRICKS]), (nl.place, st[S_POS]), (nl.ours, ours),
                    (nl.theirs, st[S_TRICKS] - ours), (nl.call_turn, st[S_MAKER_TURN])):
        active[n] = base + k
        n += 1
    if st[S_POS] > 0:
        active[n] = nl.winner + ((st[S_WSEAT] - seat) & 3)
        active[n + 1] = nl.led + classes[slots[low_index(pm[P_LED])]]
        n += 2
    if discard:
        active[n] = nl.discard
        n += 1
    if nl.general:
        n = _rule_flags(tb, trump, nl, active, n)
    return n

