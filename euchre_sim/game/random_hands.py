"""A jitted complete hand (deal, bid, discard, defend, play, score) with uniformly random players.

Same rules as `engine.HandState`, read from the same tables and the same open calls
(`core.calls`); used for throughput and as a generator of records that the Python engine must
replay to the same points.
"""

import numpy as np

from ..core.bits import popcount
from ..core.calls import call_open, may_pass, opening_leader
from ..core.cards import JOKER
from ..core.dealing import deal_into, deal_key, draw, seed_to_u64
from ..core.jit import njit
from ..core.ruletables import FLAG_DEFEND_ALONE, FLAG_LONE_LAST
from ..core.seats import partner_of, seat_at, team_of
from ..core.trick import legal_mask, next_active, trick_winner

PASS, ORDER_UP, CALL = 0, 1, 2
_ONE = np.uint64(1)


_PLAY_SALT = np.uint64(0x5DEECE66D)


@njit
def play_key(seed, index):
    """The key the random players of hand `index` draw from (with counter 0, 1, ...)."""
    return deal_key(seed ^ _PLAY_SALT, index)


@njit
def _pick(key, counter, n):
    """Uniform integer in [0, n) from draw `counter` of `key`."""
    return np.int64(draw(key, counter) % np.uint64(n))


@njit
def _nth_card(mask, n):
    """The n-th lowest card id of `mask`."""
    index = 0
    while True:
        if (mask >> np.uint64(index)) & _ONE:
            if n == 0:
                return index
            n -= 1
        index += 1


@njit
def random_hand(tables, dealer, hands, upcard, key, bids, plays, out):
    """Play one hand with random players. hands (uint64[4]) is consumed.

    bids: int64[8, 5] rows (seat, round, action, suit, alone); plays: int64[20, 2] (seat, card);
    out: int64[8] = (n_bids, discard, defender_alone, n_plays, points NS, points EW, maker, trump).
    Returns False when the hand was passed out.
    """
    flags = tables.flags
    counter = 0
    n_bids = 0
    trump = -1
    maker = -1
    alone = 0
    round_no = 2 if upcard == JOKER else 1
    options = np.empty((12, 3), dtype=np.int64)  # action, suit, alone
    while trump < 0:
        for k in range(1, 5):
            seat = seat_at(dealer, k)
            pos = k
            n_opt = 0
            if may_pass(flags, round_no, pos):
                options[n_opt, 0] = PASS
                options[n_opt, 1] = -1
                options[n_opt, 2] = 0
                n_opt += 1
            for s in range(5):
                for a in range(2):
                    if call_open(flags, round_no, pos, s, a, upcard):
                        options[n_opt, 0] = ORDER_UP if round_no == 1 else CALL
                        options[n_opt, 1] = s
                        options[n_opt, 2] = a
                        n_opt += 1
            choice = _pick(key, counter, n_opt)
            counter += 1
            bids[n_bids, 0] = seat
            bids[n_bids, 1] = round_no
            bids[n_bids, 2] = options[choice, 0]
            bids[n_bids, 3] = options[choice, 1]
            bids[n_bids, 4] = options[choice, 2]
            n_bids += 1
            if options[choice, 0] != PASS:
                trump = options[choice, 1]
                maker = seat
                alone = options[choice, 2]
                break
        if trump < 0:
            if round_no == 2:
                out[0] = n_bids
                out[1] = -1
                out[2] = -1
                out[3] = 0
                out[4] = 0
                out[5] = 0
                out[6] = -1
                out[7] = -1
                return False
            round_no = 2
    out_seat = partner_of(maker) if alone else -1
    discard = -1
    if round_no == 1 and dealer != out_seat:
        hands[dealer] |= _ONE << np.uint64(upcard)
        discard = _nth_card(hands[dealer], _pick(key, counter, 6))
        counter += 1
        hands[dealer] &= ~(_ONE << np.uint64(discard))
    defender_alone = -1
    if flags[FLAG_DEFEND_ALONE]:
        for k in range(1, 5):
            seat = seat_at(dealer, k)
            if team_of(seat) != team_of(maker):
                yes = _pick(key, counter, 2)
                counter += 1
                if yes == 1:
                    defender_alone = seat
                    break
    active = 15
    if out_seat >= 0:
        active &= ~(1 << out_seat)
    if defender_alone >= 0:
        active &= ~(1 << partner_of(defender_alone))
    n_active = popcount(np.uint64(active))
    leader = opening_leader(dealer, active, maker if alone else -1, flags[FLAG_LONE_LAST] != 0)
    won = np.zeros(2, dtype=np.int64)
    trick_cards = np.empty(4, dtype=np.int64)
    trick_seats = np.empty(4, dtype=np.int64)
    n_plays = 0
    for _trick in range(5):
        seat = leader
        led = -1
        for i in range(n_active):
            legal = legal_mask(tables, trump, hands[seat], led)
            card = _nth_card(legal, _pick(key, counter, popcount(legal)))
            counter += 1
            hands[seat] &= ~(_ONE << np.uint64(card))
            if i == 0:
                led = tables.eff_suit[trump, card]
            trick_cards[i] = card
            trick_seats[i] = seat
            plays[n_plays, 0] = seat
            plays[n_plays, 1] = card
            n_plays += 1
            seat = next_active(active, seat)
        leader = trick_seats[trick_winner(tables, trump, trick_cards, n_active)]
        won[team_of(leader)] += 1
    maker_team = team_of(maker)
    value = tables.score[alone, 1 if defender_alone >= 0 else 0, won[maker_team]]
    out[0] = n_bids
    out[1] = discard
    out[2] = defender_alone
    out[3] = n_plays
    out[4] = 0
    out[5] = 0
    if value > 0:
        out[4 + maker_team] = value
    else:
        out[5 - maker_team] = -value
    out[6] = maker
    out[7] = trump
    return True


@njit
def _random_hands(tables, deck_cards, seed, start, count, totals):
    """Deal and play `count` random hands; totals += (hands played out, NS points, EW points)."""
    hands = np.empty(4, dtype=np.uint64)
    work = np.empty_like(deck_cards)
    bids = np.empty((8, 5), dtype=np.int64)
    plays = np.empty((20, 2), dtype=np.int64)
    out = np.empty(8, dtype=np.int64)
    for i in range(count):
        index = start + np.uint64(i)
        dealer = np.int64(index % np.uint64(4))
        upcard = deal_into(deck_cards, seed, index, dealer, hands, work)
        if random_hand(tables, dealer, hands, upcard, play_key(seed, index), bids, plays, out):
            totals[0] += 1
        totals[1] += out[4]
        totals[2] += out[5]


def random_hands(rules, seed: int, start: int, count: int) -> np.ndarray:
    """Play `count` random hands; returns (hands played out, NS points, EW points)."""
    from ..core.dealing import deck_array
    from ..core.ruletables import compile_rules

    totals = np.zeros(3, dtype=np.int64)
    _random_hands(compile_rules(rules), deck_array(rules), seed_to_u64(seed), np.uint64(start),
                  count, totals)
    return totals
