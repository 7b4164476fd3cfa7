"""Double-dummy solver: iterative alpha-beta over card plays with a transposition table.

Values are NS tricks from a trick boundary on. Hands are moved into the rule tables' power
layout (each effective suit a contiguous run of bits, trump on top), so following suit,
trick winners and equivalent cards are a few bit operations. The search keeps
- a transposition table at trick boundaries, keyed canonically: the owner of every card still
  out in power order, the count of each suit (ranks compressed to the cards still out) and
  the leader; keys are exact, so entries stay valid across the solves of a deal and across
  deals of the same rule tables;
- one card per run of equivalent cards (same hand, adjacent in power among the live cards);
- move ordering: top card on lead, cheapest winner, else lowest card;
- the last trick resolved directly, and a quick-trick bound (the leader's top cards when the
  opponents hold no trump);
- zero-window searches: `at_least` answers one threshold, `exact_tricks` narrows the
  exact count with a few of them (MTD-style).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..core.bits import high_bit, low_index, one_bit, popcount
from ..core.jit import njit
from ..core.ruletables import LAYOUT_NO_LEAD, LAYOUT_SUITS, LAYOUT_TRUMPS
from ..core.trick import next_active

_ONE = np.uint64(1)
_ZERO = np.uint64(0)
TT_BITS = 14  # 256 KiB: stays in cache; a bigger table saves few nodes and costs misses
MAX_DEPTH = 24

# columns of the per-depth state
_SEAT, _POS, _LED, _WBIT, _WSEAT, _ALPHA, _BETA, _BEST, _IDX, _NMV, _WON, _A0, _B0, _LO, _HI, \
    _SLOT = range(16)


class SolverTT(NamedTuple):
    """Transposition table (open addressing, always replace) and counters.

    An entry is two words written one after the other, and threads of one process (a Dask
    worker's) share the table without a lock, so a reader may see one word of one entry and
    one of another. Entries are therefore stored lockless (Hyatt): word 0 is key ^ meta, word 1
    is meta, and a probe accepts an entry only if the two words XOR to its key: a torn entry
    fails that check (but for a 2^-64 coincidence) and counts as a miss."""

    table: np.ndarray  # uint64[size, 2]: key ^ meta, meta = (trump + 1) | lo << 8 | hi << 16
    stats: np.ndarray  # int64[5] (threads may lose counts): boundary nodes, table hits, all
    # nodes, searches, and PIMC decisions that solved sampled worlds


def new_tt(bits: int = TT_BITS) -> SolverTT:
    return SolverTT(np.zeros((1 << bits, 2), np.uint64), np.zeros(5, np.int64))


@njit
def new_work():
    """Per-depth state: ints (see _SEAT...), masks (trick cards, led suit, key), moves."""
    return (np.zeros((MAX_DEPTH, 16), np.int64), np.zeros((MAX_DEPTH, 3), np.uint64),
            np.zeros((MAX_DEPTH, 8), np.int64))


@njit
def to_power(tb, trump, hands_in, active):
    """Hands by seat in card ids -> power layout; sitting-out seats (bits of `active`) empty."""
    hands = np.zeros(4, dtype=np.uint64)
    for s in range(4):
        if (active >> s) & 1:
            m = hands_in[s]
            out = _ZERO
            while m:
                c = low_index(m)
                m &= m - _ONE
                out |= one_bit(tb.power_bit[trump, c])
            hands[s] = out
    return hands


@njit(inline="always")
def _position_key(lay, hands, leader):
    live = hands[0] | hands[1] | hands[2] | hands[3]
    key = _ZERO
    m = live
    h1 = hands[1] | hands[3]
    h2 = hands[2] | hands[3]
    while m:
        b = m & (~m + _ONE)
        m ^= b
        owner = (np.uint64(1) if h1 & b else _ZERO) | (np.uint64(2) if h2 & b else _ZERO)
        key = (key << np.uint64(2)) | owner
    for s in range(5):
        key = (key << np.uint64(4)) | np.uint64(popcount(live & lay[LAYOUT_SUITS + s]))
    return (key << np.uint64(2)) | np.uint64(leader)


@njit(inline="always")
def _tt_slot(table, key, trump):
    h = (key ^ (np.uint64(trump + 1) * np.uint64(0x9E3779B97F4A7C15))) * \
        np.uint64(0xBF58476D1CE4E5B9)
    return np.int64(h >> np.uint64(32)) & (table.shape[0] - 1)


@njit(inline="always")
def _last_trick(lay, hands, leader, active):
    """NS tricks (0 or 1) of the final trick, each active seat holding one card."""
    p = low_index(hands[leader])
    eligible = lay[p] | lay[LAYOUT_TRUMPS]
    wbit = p
    winner = leader
    seat = next_active(active, leader)
    while seat != leader:
        q = low_index(hands[seat])
        if one_bit(q) & eligible and q > wbit:
            wbit = q
            winner = seat
        seat = next_active(active, seat)
    return 1 - (winner & 1)


@njit(inline="always")
def _quick_tricks(lay, hands, leader):
    """Tricks the leader surely wins by cashing its own top cards, when opponents hold no
    trump (Benny in no-trump counts as trump and is never counted: it may not lead)."""
    live = hands[0] | hands[1] | hands[2] | hands[3]
    side = hands[leader] | hands[(leader + 2) & 3]
    if (live & ~side) & lay[LAYOUT_TRUMPS]:
        return 0
    mine = hands[leader] & ~lay[LAYOUT_NO_LEAD]
    sure = 0
    for s in range(5):
        r = lay[LAYOUT_SUITS + s]
        mine_r = mine & r
        if not mine_r:
            continue
        others = live & r & ~mine
        if others:
            mine_r &= ~((high_bit(others) << _ONE) - _ONE)
        sure += popcount(mine_r)
    return sure


@njit(inline="always")
def _top_trump_run(lay, hands):
    """(seat, k): the seat holding the highest live trump holds the top k live trumps, and
    each of them wins a trick whenever it is played. (-1, 0) when no trump is out."""
    trumps = (hands[0] | hands[1] | hands[2] | hands[3]) & lay[LAYOUT_TRUMPS]
    if not trumps:
        return -1, 0
    top = high_bit(trumps)
    owner = 0
    while not hands[owner] & top:
        owner += 1
    run = 0
    while trumps and high_bit(trumps) & hands[owner]:
        run += 1
        trumps &= ~high_bit(trumps)
    return owner, run


@njit(inline="always")
def _move_score(p, led, eligible, wbit, partner_winning, top_live):
    if led == 0:
        return -1000 - p if one_bit(p) & top_live else p
    if not partner_winning and one_bit(p) & eligible and p > wbit:
        return p - 1000
    return p


@njit(inline="always")
def _gen_moves(lay, hands, seat, led, tmask, moves, wbit, partner_winning):
    """Candidate cards (one per run of equivalent cards), ordered; returns the count.

    `led` is the led suit's bits (0 when leading)."""
    hand = hands[seat]
    if led == 0:
        legal = hand & ~lay[LAYOUT_NO_LEAD]
    else:
        legal = hand & led
    if not legal:
        legal = hand
    live = hands[0] | hands[1] | hands[2] | hands[3] | tmask
    count = 0
    m = legal
    while m:
        p = low_index(m)
        m &= m - _ONE
        above = live & lay[p] & ~((one_bit(p) << _ONE) - _ONE)
        if above and (above & (~above + _ONE)) & hand:
            continue  # the next live card above in this suit is ours: equivalent
        moves[count] = p
        count += 1
    eligible = led | lay[LAYOUT_TRUMPS]
    top_live = _ZERO
    if led == 0:
        for s in range(5):
            r = live & lay[LAYOUT_SUITS + s]
            if r:
                top_live |= high_bit(r)
    for i in range(1, count):
        p = moves[i]
        sp = _move_score(p, led, eligible, wbit, partner_winning, top_live)
        j = i
        while j > 0 and _move_score(moves[j - 1], led, eligible, wbit, partner_winning,
                                    top_live) > sp:
            moves[j] = moves[j - 1]
            j -= 1
        moves[j] = p
    return count


@njit(inline="always")
def _enter(lay, trump, hands, active, table, stats, ints, masks, moves, d, seat, pos, led,
           wbit, wseat, tmask, alpha, beta):
    """Set up the node at depth d. Returns its value when known at once, else -1."""
    stats[2] += 1
    if pos == 0:
        n = popcount(hands[seat])
        if n == 0:
            return 0
        stats[0] += 1
        if n == 1:
            return _last_trick(lay, hands, seat, active)
        key = _position_key(lay, hands, seat)
        slot = _tt_slot(table, key, trump)
        lo = 0
        hi = n
        meta = table[slot, 1]
        if (table[slot, 0] ^ meta) == key and np.int64(meta & np.uint64(0xFF)) == trump + 1:
            stats[1] += 1
            lo = np.int64((meta >> np.uint64(8)) & np.uint64(0xFF))
            hi = np.int64((meta >> np.uint64(16)) & np.uint64(0xFF))
            if lo >= beta or lo == hi:
                return lo
            if hi <= alpha:
                return hi
        sure = _quick_tricks(lay, hands, seat)
        if seat & 1:
            hi = min(hi, n - sure)
        else:
            lo = max(lo, sure)
        owner, run = _top_trump_run(lay, hands)
        if run:
            if owner & 1:
                hi = min(hi, n - run)
            else:
                lo = max(lo, run)
        if lo >= beta or lo == hi:
            return lo
        if hi <= alpha:
            return hi
        alpha = max(alpha, lo)
        beta = min(beta, hi)
        ints[d, _LO] = lo
        ints[d, _HI] = hi
        ints[d, _SLOT] = slot
        masks[d, 2] = key
    ints[d, _SEAT] = seat
    ints[d, _POS] = pos
    ints[d, _WBIT] = wbit
    ints[d, _WSEAT] = wseat
    ints[d, _ALPHA] = alpha
    ints[d, _BETA] = beta
    ints[d, _A0] = alpha
    ints[d, _B0] = beta
    ints[d, _BEST] = -1 if (seat & 1) == 0 else 99
    ints[d, _IDX] = 0
    masks[d, 0] = tmask
    masks[d, 1] = led
    partner_winning = pos > 0 and (wseat & 1) == (seat & 1)
    ints[d, _NMV] = _gen_moves(lay, hands, seat, led, tmask, moves[d], wbit, partner_winning)
    return -1


@njit
def _search(lay, trump, hands, leader, active, n_active, alpha, beta, table, stats, work):
    """NS tricks from a trick boundary, `leader` to lead; fail-soft in (alpha, beta)."""
    return search_at(lay, trump, hands, leader, 0, _ZERO, -1, -1, _ZERO, active, n_active,
                      alpha, beta, table, stats, work)


@njit
def search_at(lay, trump, hands, seat, pos, led, wbit, wseat, tmask, active, n_active, alpha,
               beta, table, stats, work):
    """NS tricks from any point of a trick (the current one included): `seat` plays the
    trick's card number `pos`; `led` the led suit's bits, (wbit, wseat) the winning card so
    far and its seat, `tmask` the trick's cards (all unused when pos is 0)."""
    ints, masks, moves = work
    stats[3] += 1
    r = _enter(lay, trump, hands, active, table, stats, ints, masks, moves, 0, seat, pos, led,
               wbit, wseat, tmask, alpha, beta)
    if r >= 0:
        return r
    d = 0
    while True:
        v = -1
        if ints[d, _IDX] < ints[d, _NMV] and ints[d, _ALPHA] < ints[d, _BETA]:
            seat = ints[d, _SEAT]
            pos = ints[d, _POS]
            p = moves[d, ints[d, _IDX]]
            hands[seat] &= ~one_bit(p)
            if pos == 0:
                led = lay[p]
                wbit = p
                wseat = seat
            else:
                led = masks[d, 1]
                wbit = ints[d, _WBIT]
                wseat = ints[d, _WSEAT]
                if one_bit(p) & (led | lay[LAYOUT_TRUMPS]) and p > wbit:
                    wbit = p
                    wseat = seat
            if pos + 1 == n_active:
                won = 1 - (wseat & 1)
                ints[d, _WON] = won
                r = _enter(lay, trump, hands, active, table, stats, ints, masks, moves, d + 1,
                           wseat, 0, _ZERO, -1, -1, _ZERO, ints[d, _ALPHA] - won,
                           ints[d, _BETA] - won)
            else:
                ints[d, _WON] = 0
                r = _enter(lay, trump, hands, active, table, stats, ints, masks, moves, d + 1,
                           next_active(active, seat), pos + 1, led, wbit, wseat,
                           masks[d, 0] | one_bit(p), ints[d, _ALPHA], ints[d, _BETA])
            if r < 0:
                d += 1
                continue
            v = r
        else:
            v = ints[d, _BEST]
            if ints[d, _POS] == 0:
                lo = ints[d, _LO]
                hi = ints[d, _HI]
                if v <= ints[d, _A0]:
                    hi = min(hi, v)
                elif v >= ints[d, _B0]:
                    lo = max(lo, v)
                else:
                    lo = v
                    hi = v
                slot = ints[d, _SLOT]
                meta = np.uint64(trump + 1) | (np.uint64(lo) << np.uint64(8)) | \
                    (np.uint64(hi) << np.uint64(16))
                table[slot, 0] = masks[d, 2] ^ meta
                table[slot, 1] = meta
            if d == 0:
                return v
            d -= 1
        # the child of node d returned v
        seat = ints[d, _SEAT]
        hands[seat] |= one_bit(moves[d, ints[d, _IDX]])
        v += ints[d, _WON]
        if (seat & 1) == 0:
            if v > ints[d, _BEST]:
                ints[d, _BEST] = v
            if v > ints[d, _ALPHA]:
                ints[d, _ALPHA] = v
        else:
            if v < ints[d, _BEST]:
                ints[d, _BEST] = v
            if v < ints[d, _BETA]:
                ints[d, _BETA] = v
        ints[d, _IDX] += 1


@njit
def _n_active(active):
    return (active & 1) + ((active >> 1) & 1) + ((active >> 2) & 1) + ((active >> 3) & 1)


@njit
def exact_tricks(tb, trump, hands, leader, active, tt, work):
    """NS tricks under perfect play, by zero-window searches (hands in power layout)."""
    lay = tb.layout[trump]
    n_active = _n_active(active)
    n = popcount(hands[leader])
    lo = 0
    hi = n
    guess = (n + 1) // 2
    while lo < hi:
        beta = guess if guess > lo else lo + 1
        v = _search(lay, trump, hands, leader, active, n_active, beta - 1, beta, tt.table,
                    tt.stats, work)
        if v >= beta:
            lo = v
        else:
            hi = v
        guess = (lo + hi + 1) // 2
    return lo


@njit
def at_least(tb, trump, hands, leader, active, target, tt, work):
    """Does NS take at least `target` tricks? One zero-window search (power layout)."""
    v = _search(tb.layout[trump], trump, hands, leader, active, _n_active(active), target - 1,
                target, tt.table, tt.stats, work)
    return v >= target


_SHARED: list[SolverTT] = []


def shared_tt() -> SolverTT:
    """The process's one transposition table, kept across calls, chunks and deals (entries are
    exact for their rule tables, so reuse only saves work)."""
    if not _SHARED:
        _SHARED.append(new_tt())
    return _SHARED[0]
