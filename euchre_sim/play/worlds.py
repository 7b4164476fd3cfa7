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

With inference on (a bidder named in the player's `inference`), a world must also agree with
what the auction and the pickup tell: every seat in play that passed before the call would have
passed under the bidder with the world's hand (its cards played so far put back), the maker
would have made the call, and when the dealer took the upcard the dealer's six cards are
sampled and the conventional discard rule must throw one of the sampled cards ("the dealer
probably made a void"). Rejection sampling for MAX_INFERRED tries, then the plain world; the
counters say how often each happened.
"""

from __future__ import annotations

import numpy as np

from ..bidding.auction import NO_WINS, bidder_choice
from ..core.bits import low_index, one_bit, popcount
from ..core.calls import call_row
from ..core.dealing import deal_key, draw, shuffle
from ..core.jit import njit
from ..core.ruletables import LAYOUT_SUITS
from .conventional import conventional_discard
from .state import (
    P_BY,
    P_KNOWN_OUT,
    P_VOID,
    S_ACTIVE,
    S_DEALER,
    S_DEFENDER_ALONE,
    S_MAKER,
    S_MAKER_ALONE,
    S_MAKER_TURN,
    S_TRUMP,
    S_UP,
    S_UPCARD,
    new_state,
    unseen_by,
)

MAX_REJECTS = 24
MAX_INFERRED = 64  # worlds tried for one that agrees with the auction and the discard
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
def sample_world(tb, lay, hands, st, pm, seat, key, cards, out, inference):
    """Fill out[0:4] (power layout, by seat) with a deal consistent with what `seat` knows,
    and, when the player infers (a bidder in `inference`), with the auction and the dealer's
    discard.

    cards: int64 work buffer of 64; inference: (bidder params, decision table, counters,
    [0 or 1 + the bidder]) as play.pimc.inference_of makes it."""
    if inference[3][0] > 0 and _inferred_world(tb, lay, hands, st, pm, seat, key, cards, out,
                                               inference):
        return
    _plain_world(lay, hands, st, pm, seat, key, cards, out)


@njit
def _start_discard(lay, st, pm, six):
    """The dealer's discard from `six` as the conventional rule makes it before any play."""
    st0, pm0 = new_state(st[S_TRUMP], st[S_DEALER], st[S_MAKER], st[S_MAKER_ALONE],
                         st[S_DEFENDER_ALONE], st[S_ACTIVE], 0, st[S_UP], pm[P_KNOWN_OUT])
    held = np.zeros(4, dtype=np.uint64)
    held[st[S_DEALER]] = six
    return conventional_discard(lay, held, st0, pm0)


@njit
def _to_cards(tb, trump, power):
    """A power-layout mask as a card-id mask."""
    mask = _ZERO
    m = power
    while m:
        p = low_index(m)
        m &= m - _ONE
        mask |= one_bit(tb.power_card[trump, p])
    return mask


@njit
def _agrees_with_auction(tb, st, pm, seat, world, discard, bidder, params, table):
    """Would the bidder have passed with every hand before the call, and made the call with
    the maker's? Seats out of play (their cards unknown) and `seat` itself are not asked."""
    dealer = st[S_DEALER]
    trump = st[S_TRUMP]
    upcard = st[S_UPCARD]
    maker_turn = st[S_MAKER_TURN]
    for k in range(maker_turn + 1):
        round_no = k // 4 + 1
        pos = k % 4 + 1
        s = (dealer + pos) & 3
        if s == seat or not (st[S_ACTIVE] >> s) & 1:
            continue
        held = world[s] | pm[P_BY + s]
        if s == dealer and st[S_UP] >= 0:  # the dealer's five before the pickup
            held = (held | discard) & ~one_bit(st[S_UP])
        hand = _to_cards(tb, trump, held)
        # the rules bidder also stands in for dd (whose passes need every outcome)
        choice = bidder_choice(bidder, tb, params, table, hand, upcard, round_no, pos, NO_WINS)
        want = -1 if k < maker_turn else call_row(round_no, pos, trump, st[S_MAKER_ALONE])
        if choice != want:
            return False
    return True


@njit
def _inferred_world(tb, lay, hands, st, pm, seat, key, cards, out, inference):
    """Rejection sampling of a world that also agrees with the auction under the bidder and,
    when the dealer took the upcard, with the dealer's discard (the dealer's six cards are
    sampled and the conventional rule discards one of the sampled ones). False after
    MAX_INFERRED tries (counted: counters = worlds asked, found, fallen back)."""
    params, table, counters, mode = inference
    counters[0] += 1
    dealer = st[S_DEALER]
    infer_discard = st[S_UP] >= 0 and seat != dealer and (st[S_ACTIVE] >> dealer) & 1
    fixed = np.zeros(5, dtype=np.uint64)
    room = np.zeros(5, dtype=np.int64)
    n = _known(lay, hands, st, pm, seat, cards, fixed, room)
    if infer_discard:
        room[dealer] += 1  # the discard, sampled with the dealer's cards
    for attempt in range(MAX_INFERRED):
        shuffle(deal_key(key, np.uint64(MAX_REJECTS + 1 + attempt)), cards, n)
        k = 0
        for s in range(4):
            dealt = _ZERO
            for _ in range(room[s]):
                dealt |= one_bit(cards[k])
                k += 1
            out[s] = fixed[s] | dealt
        discard = _ZERO
        if infer_discard:
            d = _start_discard(lay, st, pm, out[dealer] | pm[P_BY + dealer])
            if not one_bit(d) & out[dealer] & ~fixed[dealer]:
                continue
            discard = one_bit(d)
            out[dealer] &= ~discard
        ok = True
        for s in range(4):
            if s != seat and out[s] & pm[P_VOID + s]:
                ok = False
        if ok and _agrees_with_auction(tb, st, pm, seat, out, discard, mode[0] - 1, params,
                                       table):
            counters[1] += 1
            return True
    counters[2] += 1
    return False


@njit
def _known(lay, hands, st, pm, seat, cards, fixed, room):
    """What every world keeps: fixed[s] (the seat's own hand, the upcard in the dealer's hand
    while unplayed) and room[s] (cards still to deal to each seat in play); the unseen cards
    to deal are listed in cards[:n]. Returns n."""
    dealer = st[S_DEALER]
    hidden = unseen_by(lay, hands, st, pm, seat)
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
    for s in range(4):
        if s != seat and (st[S_ACTIVE] >> s) & 1:
            room[s] = popcount(hands[s]) - popcount(fixed[s])
    return n


@njit
def _plain_world(lay, hands, st, pm, seat, key, cards, out):
    """A world from what `seat` has seen (hands, voids, the upcard), nothing else."""
    room = np.zeros(5, dtype=np.int64)
    voids = np.zeros(5, dtype=np.uint64)
    fixed = np.zeros(5, dtype=np.uint64)
    n = _known(lay, hands, st, pm, seat, cards, fixed, room)
    for s in range(4):
        if s != seat:
            voids[s] = pm[P_VOID + s]
    room[OUT] = n - room[:4].sum()
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
