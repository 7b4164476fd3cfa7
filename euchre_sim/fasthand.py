"""A jitted complete hand (deal, bid, discard, defend, play, score) with uniformly random players.

Same rules as `engine.HandState`, read from the same tables; used for throughput and as a
generator of records that the Python engine must replay to the same points.
"""

import numpy as np

from ._jit import njit
from .deal import _deal_into, _deal_key, _draw, seed_to_u64
from .tables import (
    FLAG_ALLOW_ALONE,
    FLAG_CANADIAN,
    FLAG_DEFEND_ALONE,
    FLAG_LONE_LAST,
    FLAG_NO_TRUMP,
    FLAG_STICK,
)
from .trick import _legal_mask, _popcount, _trick_winner

JOKER_ID = 32
PASS, ORDER_UP, CALL = 0, 1, 2
_ONE = np.uint64(1)


# The random players of hand i draw from key(seed ^ _PLAY_SALT, i) with counter 0, 1, ...
_PLAY_SALT = np.uint64(0x5DEECE66D)


@njit
def _pick(key, counter, n):
    """Uniform integer in [0, n) from draw `counter` of `key`."""
    return np.int64(_draw(key, counter) % np.uint64(n))


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
def _random_hand(tables, dealer, hands, upcard, key, bids, plays, out):
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
    round_no = 2 if upcard == JOKER_ID else 1
    turned_down = -1 if upcard == JOKER_ID else upcard >> 3
    options = np.empty((12, 3), dtype=np.int64)  # action, suit, alone
    while trump < 0:
        for k in range(1, 5):
            seat = (dealer + k) % 4
            n_opt = 0
            stuck = round_no == 2 and seat == dealer and flags[FLAG_STICK]
            if not stuck:
                options[n_opt, 0] = PASS
                options[n_opt, 1] = -1
                options[n_opt, 2] = 0
                n_opt += 1
            if round_no == 1:
                canadian = flags[FLAG_CANADIAN] and seat == (dealer + 2) % 4
                for a in range(2):
                    if (a == 0 and canadian) or (a == 1 and not flags[FLAG_ALLOW_ALONE]):
                        continue
                    options[n_opt, 0] = ORDER_UP
                    options[n_opt, 1] = upcard >> 3
                    options[n_opt, 2] = a
                    n_opt += 1
            else:
                n_suits = 5 if flags[FLAG_NO_TRUMP] else 4
                for s in range(n_suits):
                    if s == turned_down and round_no == 2:
                        continue
                    for a in range(2):
                        if a == 1 and not flags[FLAG_ALLOW_ALONE]:
                            continue
                        options[n_opt, 0] = CALL
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
    out_seat = (maker + 2) % 4 if alone else -1
    discard = -1
    if round_no == 1 and dealer != out_seat:
        hands[dealer] |= _ONE << np.uint64(upcard)
        discard = _nth_card(hands[dealer], _pick(key, counter, 6))
        counter += 1
        hands[dealer] &= ~(_ONE << np.uint64(discard))
    defender_alone = -1
    if flags[FLAG_DEFEND_ALONE]:
        for k in range(1, 5):
            seat = (dealer + k) % 4
            if (seat & 1) != (maker & 1):
                yes = _pick(key, counter, 2)
                counter += 1
                if yes == 1:
                    defender_alone = seat
                    break
    active = np.ones(4, dtype=np.bool_)
    if out_seat >= 0:
        active[out_seat] = False
    if defender_alone >= 0:
        active[(defender_alone + 2) % 4] = False
    n_active = 4 - (out_seat >= 0) - (defender_alone >= 0)
    leader = (maker + 1) % 4 if alone and flags[FLAG_LONE_LAST] else (dealer + 1) % 4
    while not active[leader]:
        leader = (leader + 1) % 4
    won = np.zeros(2, dtype=np.int64)
    trick_cards = np.empty(4, dtype=np.int64)
    trick_seats = np.empty(4, dtype=np.int64)
    n_plays = 0
    for _trick in range(5):
        seat = leader
        led = -1
        for i in range(n_active):
            legal = _legal_mask(tables, trump, hands[seat], led)
            card = _nth_card(legal, _pick(key, counter, _popcount(legal)))
            counter += 1
            hands[seat] &= ~(_ONE << np.uint64(card))
            if i == 0:
                led = tables.eff_suit[trump, card]
            trick_cards[i] = card
            trick_seats[i] = seat
            plays[n_plays, 0] = seat
            plays[n_plays, 1] = card
            n_plays += 1
            seat = (seat + 1) % 4
            while not active[seat]:
                seat = (seat + 1) % 4
        leader = trick_seats[_trick_winner(tables, trump, trick_cards, n_active)]
        won[leader & 1] += 1
    maker_team = maker & 1
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
    salted = seed ^ _PLAY_SALT
    for i in range(count):
        index = start + np.uint64(i)
        dealer = np.int64(index % np.uint64(4))
        upcard = _deal_into(deck_cards, seed, index, dealer, hands, work)
        if _random_hand(tables, dealer, hands, upcard, _deal_key(salted, index), bids, plays, out):
            totals[0] += 1
        totals[1] += out[4]
        totals[2] += out[5]


def random_hands(rules, seed: int, start: int, count: int) -> np.ndarray:
    """Play `count` random hands; returns (hands played out, NS points, EW points)."""
    from .deal import deck_array
    from .tables import compile_rules

    totals = np.zeros(3, dtype=np.int64)
    _random_hands(compile_rules(rules), deck_array(rules), seed_to_u64(seed), np.uint64(start),
                  count, totals)
    return totals


def random_hand_record(rules, seed: int, index: int) -> dict:
    """One random hand as a SPEC hand-history record (for replay cross-checks)."""
    from .deal import deal_one
    from .seats import SEAT_NAMES
    from .tables import compile_rules

    deck = rules.card_deck
    dealer = index % 4
    hands, upcard = deal_one(rules, seed, index, dealer)
    work = np.array(hands, dtype=np.uint64)
    bids = np.zeros((8, 5), dtype=np.int64)
    plays = np.zeros((20, 2), dtype=np.int64)
    out = np.zeros(8, dtype=np.int64)
    key = np.uint64(_deal_key(seed_to_u64(seed) ^ _PLAY_SALT, np.uint64(index)))
    _random_hand(compile_rules(rules), dealer, work, upcard, key, bids, plays, out)
    n_bids, discard, defender, n_plays = (int(x) for x in out[:4])
    record_bids = []
    for seat, rnd, action, suit, alone in bids[:n_bids].tolist():
        entry = {"seat": SEAT_NAMES[seat], "round": rnd,
                 "action": ("pass", "order_up", "call")[action]}
        if action == CALL:
            entry["suit"] = deck.suit_name(suit)
        if action != PASS:
            entry["alone"] = bool(alone)
        record_bids.append(entry)
    tricks = []
    n_active = n_plays // 5 if n_plays else 0
    for t in range(5 if n_plays else 0):
        chunk = plays[t * n_active:(t + 1) * n_active].tolist()
        tricks.append({"leader": SEAT_NAMES[chunk[0][0]],
                       "plays": [{"seat": SEAT_NAMES[s], "card": deck.card_name(c)}
                                 for s, c in chunk]})
    return {
        "id": index, "dealer": SEAT_NAMES[dealer],
        "hands": [deck.format_hand(h).split() for h in hands],
        "upcard": deck.card_name(upcard), "bids": record_bids,
        "discard": deck.card_name(discard) if discard >= 0 else None,
        "defend_alone": SEAT_NAMES[defender] if defender >= 0 else None,
        "tricks": tricks,
        "points": {"NS": int(out[4]), "EW": int(out[5])},
    }
