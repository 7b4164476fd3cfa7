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
probably made a void"). Such worlds are drawn by exact rejection sampling while that finds
one: the maker's hand first (drawn from the unseen cards until its call agrees, up to
MAKER_TRIES draws), then the other places from the cards left, both drawn again until every
place agrees (up to EXACT_TRIES times; uniform over the agreeing deals, see `_exact_world`):
independent worlds. Once it does not, the decision's later worlds come from a Markov chain
(Metropolis over swaps of two unseen cards between places, a swap kept when the world still
agrees; symmetric proposals, so the chain's stationary law is the uniform law over agreeing
worlds, which is what exact rejection sampling gives): it starts from a random deal, walks to
an agreeing world by swaps that never add a disagreement, burns in, then gives one world every
few swaps. Its worlds are correlated, so the chain serves only where rejection is too slow.
Where no world agrees with everything (another seat bid unlike the bidder, so its bids cannot
all be explained), the chain keeps to the fewest disagreements it reached; the counters say
how often that happened. Nothing falls back to plain worlds.
"""

from __future__ import annotations

import numpy as np

from ..bidding.auction import NO_WINS
from ..bidding.conventional import bid_tables, conventional_choice_in, hand_value_in, may_name
from ..bidding.params import BIDDER_GAME, BIDDER_TABLE
from ..bidding.table import table_choice_into
from ..core.bits import low_index, one_bit, popcount
from ..core.calls import call_row
from ..core.dealing import deal_key, draw, shuffle, shuffle_tail
from ..core.jit import njit
from ..core.ruletables import LAYOUT_SUITS
from ..core.seats import seat_at
from .conventional import discard_from
from .state import (
    P_BY,
    P_KNOWN_OUT,
    P_VOID,
    S_ACTIVE,
    S_DEALER,
    S_MAKER,
    S_MAKER_ALONE,
    S_MAKER_TURN,
    S_TRUMP,
    S_UP,
    S_UPCARD,
    deck_bits,
    unseen_by,
)

MAX_REJECTS = 24
OUT = 4  # the out-of-play "seat"
# the samplers' work, so that nothing is allocated while worlds are drawn: int64s (guided_deal's
# from 0, the room by place, the table bidder's), uint64s (voids, dealt, fixed, the bidder's)
_ROOM, _TABLE_INTS, SCRATCH_INTS = 80, 85, 96
_VOIDS, _DEALT, _FIXED, _TABLE_WORDS, SCRATCH_WORDS = 0, 5, 10, 15, 24
_ONE = np.uint64(1)
_ZERO = np.uint64(0)


@njit(nrt=False)
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


@njit(inline="always")
def _deal_buffers(ints, words):
    """Cleared room, voids and dealt cards by place, from the samplers' work."""
    room = ints[_ROOM:_ROOM + 5]
    voids = words[_VOIDS:_VOIDS + 5]
    dealt = words[_DEALT:_DEALT + 5]
    room[:] = 0
    voids[:] = _ZERO
    dealt[:] = _ZERO
    return room, voids, dealt


@njit(nrt=False)
def guided_deal(lay, key, cards, n, room, voids, out, scratch):
    """Place cards[:n] into out[0:5] (room[b] each, no void broken); always succeeds when
    some placement exists. scratch: int64 work of at least 10 + n."""
    shuffle(key, cards, n)
    left = scratch[0:5]
    weights = scratch[5:10]
    suit_of = scratch[10:10 + n]
    left[:] = 0
    for i in range(n):
        for s in range(5):
            if one_bit(cards[i]) & lay[LAYOUT_SUITS + s]:
                suit_of[i] = s
                left[s] += 1
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


@njit(nrt=False, inline="always")  # a branch and a call: each caller holds its own copy
def sample_world(tb, at, key, w, cards, out, inference):
    """Fill out[0:4] (power layout, by seat) with world w of the decision keyed `key`: a deal
    consistent with what at.seat knows in position `at` (a `state.Position` of the true deal)
    and, when the player infers (a bidder in `inference`), with the auction and the dealer's
    discard (worlds 0, 1, ... of one key are the states of one chain, so ask for them in
    order).

    cards: int64 work buffer of 64; inference: a play.pimc.Inference, whose player's bidder
    the worlds agree with (NO_BIDDER: they infer nothing). (Inlined, so
    that a plain world's call takes only the arrays it reads: Numba copies a struct of arrays,
    the rule tables or the inference, at every call that is not inlined.)"""
    if inference.player.bidder >= 0 and seat_may_infer(at.st, at.seat):
        inferred_world(tb, at, key, w, cards, out, inference)
    else:
        _plain_world(at, deal_key(key, np.uint64(w)), cards, out, inference.ints,
                     inference.words)


@njit(nrt=False)
def seat_may_infer(st, seat):
    """Is there anything to infer: a seat other than `seat` in play that bid before or at
    the call, or the discard of a dealer who took the upcard?"""
    dealer = st[S_DEALER]
    if _holds_discard(st, seat, dealer):
        return True
    for k in range(st[S_MAKER_TURN] + 1):
        s = seat_at(dealer, k % 4 + 1)
        if s != seat and (st[S_ACTIVE] >> s) & 1:
            return True
    return False


@njit(nrt=False)
def _start_discard(lay, st, pm, six):
    """The dealer's discard from `six` as the conventional rule makes it before any play."""
    return discard_from(lay, six, st[S_UP], deck_bits(lay) & ~six & ~pm[P_KNOWN_OUT])


@njit(nrt=False)
def _to_cards(tb, trump, power):
    """A power-layout mask as a card-id mask."""
    mask = _ZERO
    m = power
    while m:
        p = low_index(m)
        m &= m - _ONE
        mask |= one_bit(tb.power_card[trump, p])
    return mask


@njit(nrt=False)
def _holds_discard(st, seat, s):
    """Does place s hold the dealer's six cards (the dealer took the upcard and `seat`, not
    the dealer, infers the discard)?"""
    return s == st[S_DEALER] and st[S_UP] >= 0 and s != seat and (st[S_ACTIVE] >> s) & 1


@njit(nrt=False)
def world_hand(lay, st, pm, seat, s, place, fixed):
    """The hand of seat s in a world whose place s holds `place` (the dealer's six less the
    conventional rule's discard, where the discard is inferred; in a world that could not
    agree with the discard, less its lowest dealt card)."""
    if not _holds_discard(st, seat, s):
        return place
    return place & ~_world_discard(lay, st, pm, s, place, fixed)[0]


@njit(inline="always")
def _world_discard(lay, st, pm, s, place, fixed):
    """(the discard of dealer place s holding `place`, is it the conventional rule's): the
    rule's discard from the six cards it held, where that is one of its dealt cards, else its
    lowest dealt card (a world that cannot agree with the discard)."""
    d = one_bit(_start_discard(lay, st, pm, place | pm[P_BY + s]))
    if d & place & ~fixed:
        return d, True
    return one_bit(low_index(place & ~fixed)), False


_AGREES, _DISAGREES, _BREAKS_VOID = 0, 1, 2


@njit(inline="always")
def _place_state(tb, at, s, place, fixed, inference):
    """How place s (a seat other than at.seat, or OUT) holding `place` stands with what at.seat
    knows: _BREAKS_VOID when its hand in the world (`world_hand`) holds a card of a suit it has
    shown void in (never allowed), _DISAGREES when the dealer's discard is not one of its
    unseen cards or a bid it made before and at the call is not the one the bidder makes with
    its hand (its played cards put back), else _AGREES. The dealer's discard is found once."""
    if s == OUT:
        return _AGREES
    lay, st, pm, seat = at.lay, at.st, at.pm, at.seat
    before = place | pm[P_BY + s]  # the hand it bid with
    hand = place
    discard_agrees = True
    if _holds_discard(st, seat, s):
        d, discard_agrees = _world_discard(lay, st, pm, s, place, fixed)
        hand = place & ~d
        before &= ~one_bit(st[S_UP])
    if hand & pm[P_VOID + s]:
        return _BREAKS_VOID
    if not discard_agrees:
        return _DISAGREES
    if _bids_agree(tb, st, s, before, inference):
        return _AGREES
    return _DISAGREES


@njit(inline="always", nrt=False)
def place_agrees(tb, at, s, place, fixed, inference):
    """Does place s agree with what at.seat knows (`_place_state`)?"""
    return _place_state(tb, at, s, place, fixed, inference) == _AGREES


@njit(inline="always")
def _bids_agree(tb, st, s, hand, inference):
    """Is every bid seat s made before and at the call the bidder's with `hand` (power
    layout)? The rules bidder also stands in for dd (whose passes need every outcome)."""
    player, ints, words = inference.player, inference.ints, inference.words
    params, table, bidder = player.weights, player.table, player.bidder
    bt = bid_tables(tb)
    dealer = st[S_DEALER]
    trump = st[S_TRUMP]
    for k in range(st[S_MAKER_TURN], -1, -1):  # the call first: a random hand seldom makes it
        pos = k % 4 + 1
        if seat_at(dealer, pos) != s:
            continue
        round_no = k // 4 + 1
        if bidder == BIDDER_TABLE or bidder == BIDDER_GAME:  # a direct call: see bidder_choice
            choice = table_choice_into(tb, params, table, _to_cards(tb, trump, hand),
                                       st[S_UPCARD], k, NO_WINS,
                                       (words[_TABLE_WORDS:_TABLE_WORDS + 5],
                                        ints[_TABLE_INTS:_TABLE_INTS + 9]))
        elif k == st[S_MAKER_TURN] and round_no == 2 and not may_name(bt, params, hand, trump,
                                                                       trump, pos):
            return False
        else:
            choice = conventional_choice_in(bt, params, hand, trump, st[S_UPCARD], round_no,
                                            pos)
        want = -1 if k < st[S_MAKER_TURN] else call_row(round_no, pos, trump,
                                                        st[S_MAKER_ALONE])
        if choice != want:
            return False
    return True


@njit(nrt=False)
def inferred_world(tb, at, key, w, cards, out, inference):
    """World w of at.seat's decision consistent with what it knows, the auction and the
    discard (module docstring): by exact rejection sampling while that finds one within
    EXACT_TRIES deals (independent worlds), else from then on in the decision a Markov chain's
    state; counters: worlds asked, worlds that agree with everything, worlds that had to leave
    something out (no agreeing world was found)."""
    lay, st, pm, seat = at.lay, at.st, at.pm, at.seat
    counters, chain, placed = inference.counters, inference.chain, inference.placed
    hopeless = inference.hopeless
    counters[0] += 1
    if w == 0:
        chain[_LIVE] = 0
    if chain[_LIVE] == 0 and _exact_world(tb, at, deal_key(key, np.uint64(3 + w)), cards, out,
                                          inference):
        counters[1] += 1
        return
    if chain[_LIVE] == 0:
        # where this seat found no agreeing world earlier in the hand, none exists now (what
        # it has seen since only narrows the worlds): a short search for the fewest
        search = 2 * chain[_N] if hopeless[seat] else SEARCH_STEPS
        _start_chain(tb, at, key, cards, search, inference)
        hopeless[seat] = chain[_TARGET] > 0
        chain[_LIVE] = 1
        steps = BURN_IN_SWEEPS * chain[_N]
    else:
        steps = max(1, chain[_N] // THIN_DIVISOR)
    total = _walk(tb, at, deal_key(key, np.uint64(2)), steps, chain[_TARGET], cards, inference)
    counters[1 if total == 0 else 2] += 1
    for s in range(4):
        out[s] = world_hand(lay, st, pm, seat, s, placed[s], placed[5 + s])


@njit(nrt=False, inline="always")  # one caller: no copy of the tables' structs per world
def _exact_world(tb, at, key, cards, out, inference):
    """Exact rejection sampling, the maker's hand first: up to MAKER_TRIES draws of the
    maker's cards from the unseen ones until its call agrees (`_place_state`), then the
    other places dealt from the cards left; the deal goes into out when every place agrees,
    else both are drawn again (up to EXACT_TRIES times). Uniform over the agreeing deals: the
    maker's hand is uniform over the hands that agree with it, and the rest uniform over the
    deals of the cards left, whose number is the same whatever the maker holds. Returns
    whether a deal was found."""
    lay, st, pm, seat = at.lay, at.st, at.pm, at.seat
    ints, words = inference.ints, inference.words
    room, _, dealt = _deal_buffers(ints, words)
    fixed = words[_FIXED:_FIXED + 5]
    fixed[:] = _ZERO
    n = _inferred_room(at, cards, fixed, room)
    first = st[S_MAKER] if st[S_MAKER] != seat else OUT  # OUT: no place drawn first
    taken = room[first] if first != OUT else 0
    left = n - taken  # cards[:left] are dealt to the others, cards[left:n] are the maker's
    others = room[:4].sum() - taken
    for attempt in range(EXACT_TRIES):
        key_attempt = deal_key(key, np.uint64(attempt))
        if taken > 0:
            found = False
            for t in range(MAKER_TRIES):
                shuffle_tail(deal_key(key_attempt, np.uint64(t)), cards, n, taken)
                dealt[first] = fixed[first] | _cards_mask(cards, left, n)
                if _place_state(tb, at, first, dealt[first], fixed[first],
                                inference) == _AGREES:
                    found = True
                    break
            if not found:
                return False
        shuffle_tail(deal_key(key_attempt, np.uint64(MAKER_TRIES)), cards, left, others)
        _deal_in_order(cards, left - others, room, fixed, dealt, first)
        agrees = True
        for s in range(4):
            if s != seat and s != first and (st[S_ACTIVE] >> s) & 1 and _place_state(
                    tb, at, s, dealt[s], fixed[s], inference) != _AGREES:
                agrees = False
                break
        if agrees:
            for s in range(4):
                out[s] = world_hand(lay, st, pm, seat, s, dealt[s], fixed[s])
            return True
    return False


@njit(inline="always")
def _cards_mask(cards, lo, hi):
    """The mask of cards[lo:hi]."""
    m = _ZERO
    for i in range(lo, hi):
        m |= one_bit(cards[i])
    return m


_BAD, _N, _TARGET, _STEP, _LIVE = 64, 69, 70, 71, 72
CHAIN_WORDS = 73  # int64 words of a chain: where[64], bad[5], n, target, step, started
EXACT_TRIES = 24  # deals tried by exact rejection for a world before the chain takes over
MAKER_TRIES = 64  # draws of the maker's hand for one of them
SEARCH_STEPS = 500  # swaps tried to reach a world that agrees with everything
BURN_IN_SWEEPS = 4  # swaps (in units of the unseen cards) before the first world
THIN_DIVISOR = 4  # a world every n // THIN_DIVISOR swaps after that


@njit(nrt=False)
def _walk(tb, at, key, steps, limit, cards, inference):
    """`steps` proposals of the chain, each a swap of two unseen cards between places; a
    swap is taken when the disagreements after it are at most `limit`. With limit -1 it is
    the search for an agreeing world: a swap is taken when it lowers the disagreements, or
    keeps them and does not weaken the maker's hand for the trump (by the rules bidder's
    count), and the walk stops at none. Returns the disagreements left."""
    st, pm, seat = at.st, at.pm, at.seat
    chain, placed, weights = inference.chain, inference.placed, inference.player.weights
    n = chain[_N]
    total = chain[_BAD:_BAD + 5].sum()
    if n < 2:
        return total
    maker = st[S_MAKER]
    guided = limit < 0 and maker != seat
    bt = bid_tables(tb)
    strength = _strength(bt, st, pm, maker, placed[maker], weights) if guided else 0.0
    for _ in range(steps):
        r = draw(key, chain[_STEP])
        chain[_STEP] += 1
        i = np.int64(r % np.uint64(n))
        j = np.int64((r >> np.uint64(32)) % np.uint64(n))
        a = chain[i]
        b = chain[j]
        if a == b:
            continue
        bi = one_bit(cards[i])
        bj = one_bit(cards[j])
        place_a = (placed[a] & ~bi) | bj
        place_b = (placed[b] & ~bj) | bi
        bad_a = _place_state(tb, at, a, place_a, placed[5 + a], inference)
        if bad_a == _BREAKS_VOID:
            continue  # shown voids hold in every world
        bad_b = _place_state(tb, at, b, place_b, placed[5 + b], inference)
        if bad_b == _BREAKS_VOID:
            continue
        after = total - chain[_BAD + a] - chain[_BAD + b] + bad_a + bad_b
        if limit >= 0:
            if after > limit:
                continue
        elif after > total:
            continue
        elif guided and after == total and (a == maker or b == maker):
            moved = _strength(bt, st, pm, maker, place_a if a == maker else place_b,
                              weights)
            if moved < strength:
                continue
            strength = moved
        placed[a] = place_a
        placed[b] = place_b
        chain[i] = b
        chain[j] = a
        chain[_BAD + a] = bad_a
        chain[_BAD + b] = bad_b
        total = after
        if limit < 0:
            if total == 0:
                break
            if guided:
                strength = _strength(bt, st, pm, maker, placed[maker], weights)
    return total


@njit(nrt=False)
def _strength(bt, st, pm, maker, place, params):
    """The rules bidder's count of the maker's hand (its played cards put back) for the
    trump (bt: `bidding.conventional.BidTables`): what the search climbs while the call is
    not yet explained."""
    trump = st[S_TRUMP]
    return hand_value_in(bt, params, place | pm[P_BY + maker], trump, trump)


@njit(nrt=False)
def forget_hopeless(inference):
    """A new hand: no seat is known to find no agreeing world."""
    inference.hopeless[:] = False


@njit(nrt=False)
def _start_chain(tb, at, key, cards, search, inference):
    """A random deal of the unseen cards (the dealer's six where its discard is inferred),
    then up to `search` swaps that never add a disagreement, until none is left: the chain
    keeps to the fewest disagreements reached (0 but where no world agrees)."""
    lay, st, pm, seat = at.lay, at.st, at.pm, at.seat
    chain, placed = inference.chain, inference.placed
    ints, words = inference.ints, inference.words
    room, voids, dealt = _deal_buffers(ints, words)
    fixed = placed[5:10]
    fixed[:] = _ZERO
    n = _inferred_room(at, cards, fixed, room)
    for s in range(4):
        if s != seat:
            voids[s] = pm[P_VOID + s]
    guided_deal(lay, deal_key(key, np.uint64(0)), cards, n, room, voids, dealt, ints)
    for k in range(n):
        for s in range(5):
            if dealt[s] & one_bit(cards[k]):
                chain[k] = s
    for s in range(5):
        placed[s] = fixed[s] | dealt[s]
        asked = s < 4 and s != seat and (st[S_ACTIVE] >> s) & 1
        chain[_BAD + s] = 1 if asked and not place_agrees(
            tb, at, s, placed[s], fixed[s], inference) else 0
    chain[_N] = n
    chain[_STEP] = 0
    chain[_TARGET] = _walk(tb, at, deal_key(key, np.uint64(1)), search, np.int64(-1), cards,
                           inference)  # an int64: a literal compiles it twice
    chain[_STEP] = 0


@njit(nrt=False)
def _known(at, cards, fixed, room):
    """What every world of at.seat keeps: fixed[s] (the seat's own hand, the upcard in the
    dealer's hand while unplayed) and room[s] (cards still to deal to each seat in play); the
    unseen cards to deal are listed in cards[:n]. Returns n."""
    lay, hands, st, pm, seat = at
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


@njit(inline="always")
def _deal_in_order(cards, k, room, fixed, dealt, skip):
    """Shuffled cards dealt in turn by room from cards[k] on: dealt[s] = fixed[s] and the next
    room[s] cards, seats 0..3 but `skip` (the out-of-play place takes the rest: its cards are
    never asked)."""
    for s in range(4):
        if s != skip:
            dealt[s] = fixed[s] | _cards_mask(cards, k, k + room[s])
            k += room[s]


@njit(nrt=False)
def _inferred_room(at, cards, fixed, room):
    """`_known` for an inferred world: the dealer's place holds six cards where its discard
    is inferred, the out-of-play place the rest. Returns the count of unseen cards."""
    n = _known(at, cards, fixed, room)
    st = at.st
    if _holds_discard(st, at.seat, st[S_DEALER]):
        room[st[S_DEALER]] += 1
    room[OUT] = n - room[:4].sum()
    return n


@njit(nrt=False)
def _plain_world(at, key, cards, out, ints, words):
    """A world from what at.seat has seen (hands, voids, the upcard), nothing else (ints,
    words: the samplers' work)."""
    lay, seat, pm = at.lay, at.seat, at.pm
    room, voids, dealt = _deal_buffers(ints, words)
    fixed = words[_FIXED:_FIXED + 5]
    fixed[:] = _ZERO
    n = _known(at, cards, fixed, room)
    for s in range(4):
        if s != seat:
            voids[s] = pm[P_VOID + s]
    room[OUT] = n - room[:4].sum()
    for attempt in range(MAX_REJECTS):
        shuffle(deal_key(key, np.uint64(attempt)), cards, n)
        _deal_in_order(cards, 0, room, fixed, dealt, OUT)
        ok = True
        for s in range(4):
            if dealt[s] & ~fixed[s] & voids[s]:
                ok = False
                break
        if ok:
            for s in range(4):
                out[s] = dealt[s]
            return
    dealt[:] = _ZERO
    guided_deal(lay, deal_key(key, np.uint64(MAX_REJECTS)), cards, n, room, voids, dealt, ints)
    for s in range(4):
        out[s] = fixed[s] | dealt[s]
