"""Deals a seat cannot tell from the true one (Numba): the worlds PIMC solves.

A world keeps the seat's own hand, gives every other seat in play as many cards as it holds,
puts the upcard in the dealer's hand while the dealer has not played it, and respects every
void a seat has shown; the rest of the unseen cards (kitty, a sitting-out partner's hand, the
dealer's discard when the seat is not the dealer) are out of play.

Sampling is exact rejection sampling (shuffle the unseen cards, deal them, accept when no
void is broken) for up to MAX_REJECTS tries; after that a guided dealer places the cards one
at a time into a seat that can take them, keeping the rest placeable (Hall's condition over
the few seats), with chances in proportion to the room left. The draws come from the
counter-based generator of `core.dealing`, so a world is a pure function of its key.
"""

from __future__ import annotations

import numpy as np

from ..core.bits import low_index, one_bit, popcount
from ..core.dealing import deal_key, draw, shuffle
from ..core.jit import njit
from ..core.ruletables import LAYOUT_SUITS
from .state import P_VOID, S_ACTIVE, S_DEALER, S_UP, unseen_by

MAX_REJECTS = 24
OUT = 4  # the out-of-play "seat"
_ONE = np.uint64(1)
_ZERO = np.uint64(0)


@njit
def _room_fits(lay, room, voids, left):
    """Hall's condition: every set of places has at least as many cards it may take as room."""
    for subset in range(1, 32):
        need = 0
        suits = _ZERO
        for b in range(5):
            if (subset >> b) & 1:
                need += room[b]
                suits |= ~voids[b]
        have = 0
        for s in range(5):
            if suits & lay[LAYOUT_SUITS + s]:
                have += left[s]
        if need > have:
            return False
    return True


@njit
def guided_deal(lay, key, cards, n, room, voids, out):
    """Place cards[:n] into out[0:5] (room[b] each, no void broken); always succeeds when
    some placement exists."""
    shuffle(key, cards, n)
    left = np.zeros(5, dtype=np.int64)
    suit_of = np.empty(n, dtype=np.int64)
    for i in range(n):
        for s in range(5):
            if one_bit(cards[i]) & lay[LAYOUT_SUITS + s]:
                suit_of[i] = s
                left[s] += 1
    weights = np.zeros(5, dtype=np.int64)
    for i in range(n):
        b_card = one_bit(cards[i])
        left[suit_of[i]] -= 1
        total = 0
        for b in range(5):
            weights[b] = 0
            if room[b] > 0 and not b_card & voids[b]:
                room[b] -= 1
                if _room_fits(lay, room, voids, left):
                    weights[b] = room[b] + 1
                room[b] += 1
            total += weights[b]
        if total == 0:  # no consistent placement exists: keep the sizes right at least
            for b in range(5):
                if room[b] > 0:
                    weights[b] = room[b]
                    total += weights[b]
        r = np.int64(draw(key, n + i) % np.uint64(total))
        b = 0
        while r >= weights[b]:
            r -= weights[b]
            b += 1
        out[b] |= b_card
        room[b] -= 1


@njit
def sample_world(lay, hands, st, pm, seat, key, cards, out):
    """Fill out[0:4] (power layout, by seat) with a deal consistent with what `seat` knows.

    cards: int64 work buffer of 64."""
    dealer = st[S_DEALER]
    active = st[S_ACTIVE]
    hidden = unseen_by(lay, hands, st, pm, seat)
    room = np.zeros(5, dtype=np.int64)
    voids = np.zeros(5, dtype=np.uint64)
    fixed = np.zeros(5, dtype=np.uint64)
    fixed[seat] = hands[seat]
    up = st[S_UP]
    if up >= 0 and seat != dealer and hidden & one_bit(up):
        fixed[dealer] = one_bit(up)
        hidden &= ~one_bit(up)
    n = 0
    m = hidden
    while m:
        cards[n] = low_index(m)
        m &= m - _ONE
        n += 1
    placed = 0
    for s in range(4):
        if s != seat and (active >> s) & 1:
            room[s] = popcount(hands[s]) - popcount(fixed[s])
            voids[s] = pm[P_VOID + s]
            placed += room[s]
    room[OUT] = n - placed
    for attempt in range(MAX_REJECTS):
        shuffle(deal_key(key, np.uint64(attempt)), cards, n)
        k = 0
        ok = True
        for s in range(4):
            out[s] = fixed[s]
            m = _ZERO
            for _ in range(room[s]):
                m |= one_bit(cards[k])
                k += 1
            if m & voids[s]:
                ok = False
                break
            out[s] |= m
        if ok:
            return
    dealt = np.zeros(5, dtype=np.uint64)
    guided_deal(lay, deal_key(key, np.uint64(MAX_REJECTS)), cards, n, room, voids, dealt)
    for s in range(4):
        out[s] = fixed[s] | dealt[s]
