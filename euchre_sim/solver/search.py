"""Double-dummy solver: alpha-beta over card plays with a transposition table.

Values are NS tricks from a trick boundary on. Hands are moved into the rule tables' power
layout (each effective suit a contiguous run of bits, trump on top), so following suit,
trick winners and equivalent cards are a few bit operations. The search keeps
- a transposition table at trick boundaries, keyed canonically: ranks compressed to the cards
  still out, suits named by their place in power order, the owner of every card and the
  leader; keys are exact, so entries stay valid across the solves of a deal, across deals and
  across trumps, decks and rule sets (`_table_class` keeps apart the one rule that changes
  values: a trump that may not be led);
- one card per run of equivalent cards (same hand, adjacent in power among the live cards;
  cards already beaten in the current trick are dead), found with one carry;
- move ordering: on lead first a card of the suit that leaves the opponents the fewest
  distinct answers (the top of that suit where the leader holds it), following the cheapest
  card that takes the trick from the other side, else the lowest card;
- two bounds on the tricks a side surely takes: the leader's quick tricks (`quick_tricks`)
  and each side's sure trumps (`sure_trump_tricks`);
- with 3-4 seats in play, every trick boundary left open by the table and the bounds searched
  by `endgame`: the plays of one trick in nested loops, the positions after it through the
  table again; the last trick resolved directly, the last two by plain minimax. An explicit
  stack (`search_at`, the current node in locals) serves a search that starts inside a trick
  (PIMC) and a lone maker against a lone defender;
- `at_least` answers one threshold by a zero-window search; `exact_tricks` is one
  full-window search (the table's bounds serve both).
What a first run compiles (docs/performance.md, "Cold start"): the big helpers (`quick_tricks`,
`sure_trump_tricks`, `_two_tricks`) are called, not inlined; `_gen_moves`, `_probe` and the loops'
small steps are typed once and inlined by LLVM (`forceinline`), not copied into each caller's
Numba IR; kernels above reach the search through `call_search_at`, one compiled copy of it.
"""

from __future__ import annotations

import threading
from typing import NamedTuple

import numpy as np

from ..core.bits import above_highest, bits_above, high_bit, low_index, one_bit, pext, popcount
from ..core.jit import compile_for, njit, unlinked
from ..core.ruletables import LAYOUT_NO_LEAD, LAYOUT_SUIT_LOWS, LAYOUT_TRUMPS
from ..core.seats import left_of, partner_of, right_of, team_of
from ..core.trick import legal_cards, next_active

_ONE = np.uint64(1)
_ZERO = np.uint64(0)
TT_BITS = 14  # 256 KiB: stays in cache; a bigger table saves few nodes and costs misses
MAX_DEPTH = 24

# columns of a node's row in the search stack: ints, then masks
_SEAT, _POS, _WBIT, _WSEAT, _ALPHA, _BETA, _A0, _B0, _BEST, _LO, _HI, _SLOT, _CARD, _WON, \
    _N_INTS = range(15)
_M_LED, _M_KEY, _M_FIRST, _M_REST, _N_MASKS = range(5)


class SolverTT(NamedTuple):
    """Transposition table (open addressing, always replace) and counters.

    An entry is two words written one after the other, and threads of one process (a Dask
    worker's) share the table without a lock, so a reader may see one word of one entry and
    one of another. Entries are therefore stored lockless (Hyatt): word 0 is key ^ meta, word 1
    is meta, and a probe accepts an entry only if the two words XOR to its key: a torn entry
    fails that check (but for a 2^-64 coincidence) and counts as a miss."""

    table: np.ndarray  # uint64[size, 2]: key ^ meta, meta = class | lo << 8 | hi << 16
    stats: np.ndarray  # int64[5] (threads may lose counts): boundary nodes, table hits, all
    # nodes, searches, and PIMC decisions that solved sampled worlds


def new_tt(bits: int = TT_BITS) -> SolverTT:
    return SolverTT(np.zeros((1 << bits, 2), np.uint64), np.zeros(5, np.int64))


class TrickPoint(NamedTuple):
    """Where in a trick a search starts: `seat` plays the trick's card number `pos`; `led` the
    led suit's bits, (wbit, wseat) the winning card so far and its seat (unused when pos is
    0)."""

    seat: int
    pos: int
    led: np.uint64
    wbit: int
    wseat: int


class Search(NamedTuple):
    """What one search keeps to its end: the trump's layout (`lay`, a row of the rule tables'),
    the seats in play (`active`, a bit mask) and how many (`n_active`), and the transposition
    table (`tt`)."""

    lay: np.ndarray
    active: int
    n_active: int
    tt: SolverTT


@njit
def new_work():
    """The solver's scratch: the search stack, a row per depth (ints: see _SEAT..., masks: see
    _M_LED...), and room for the hands of a solve (`to_power`)."""
    return (np.zeros((MAX_DEPTH, _N_INTS), np.int64), np.zeros((MAX_DEPTH, _N_MASKS), np.uint64),
            np.zeros(4, np.uint64))


@njit(nrt=False)
def to_power(tb, trump, hands_in, active, out):
    """Hands by seat in card ids -> power layout, written to `out` (which may be hands_in);
    sitting-out seats (bits of `active`) empty. A byte of a mask per lookup. It returns
    nothing: compiled without reference counting (as the play wing's kernels that call it
    are), an array it returned would reach a counting caller uncounted."""
    table = tb.power_bytes[trump]
    for s in range(4):
        m = hands_in[s] if (active >> s) & 1 else _ZERO
        power = _ZERO
        for i in range(table.shape[0]):
            power |= table[i, (m >> np.uint64(8 * i)) & np.uint64(0xFF)]
        out[s] = power


@njit(inline="always")
def _position_key(lay, hands, leader):
    """The position at a trick boundary with ranks compressed to the cards still out (at most
    20), in power order: where each suit begins (its lowest live card) and where the cards
    end, whether the top suit is trumps, who holds each card (two bit planes) and the leader.
    Suits are named by their place in that order, not by suit, so a position reached under
    another trump or from a bigger deck has the same key and value. 64 bits in all."""
    live = hands[0] | hands[1] | hands[2] | hands[3]
    starts = pext(live & ~_successors(lay, live, live), live) | one_bit(popcount(live))
    key = starts << _ONE
    if live & lay[LAYOUT_TRUMPS]:
        key |= _ONE
    key = (key << np.uint64(20)) | pext(hands[2] | hands[3], live)
    key = (key << np.uint64(20)) | pext(hands[1] | hands[3], live)
    return (key << np.uint64(2)) | np.uint64(leader)


@njit(inline="always")
def _table_class(lay):
    """What a key leaves out that changes values: whether a trump may not be led (Benny in
    no-trump). Entries of one class are exact for every trump, deck and rule set."""
    return np.uint64(2) if lay[LAYOUT_NO_LEAD] else _ONE


@njit(inline="always")
def _tt_slot(table, key, cls):
    h = key ^ (cls * np.uint64(0x9E3779B97F4A7C15))
    h = (h ^ (h >> np.uint64(31))) * np.uint64(0xBF58476D1CE4E5B9)
    return np.int64(h >> np.uint64(32)) & (table.shape[0] - 1)


@njit(inline="always")
def _tt_store(table, slot, key, cls, lo, hi):
    """Write an entry (bounds lo..hi on NS tricks) in its two lockless words (see SolverTT)."""
    meta = cls | (np.uint64(lo) << np.uint64(8)) | \
        (np.uint64(hi) << np.uint64(16))
    table[slot, 0] = key ^ meta
    table[slot, 1] = meta


@njit(inline="always")
def _last_trick(lay, hands, leader):
    """NS tricks (0 or 1) of the final trick, each active seat holding one card: the highest
    of the cards in the led suit or trumps wins."""
    led = lay[low_index(hands[leader])]
    winner = high_bit((hands[0] | hands[1] | hands[2] | hands[3]) & (led | lay[LAYOUT_TRUMPS]))
    return 1 if winner & (hands[0] | hands[2]) else 0


@njit(inline="always")
def _successors(lay, cards, live):
    """For each card of `cards` (all live), the next live card above it in its suit."""
    gaps = ~live & ~lay[LAYOUT_SUIT_LOWS]
    return ((cards << _ONE) + gaps) & live & ~lay[LAYOUT_SUIT_LOWS]


@njit(inline="always")
def _worst(seat):
    """A value below (NS) or above (EW) any count of tricks: where `seat`'s best starts."""
    return -1 if team_of(seat) == 0 else 99


@njit(inline="always")
def _better(seat, best, v):
    """The better of two NS trick counts for `seat`'s side (NS maximise)."""
    if team_of(seat):
        return v if v < best else best
    return v if v > best else best


@njit(inline="always")
def _pop_lowest(cards):
    """(the lowest card of a non-empty mask as a bit, its index, the other cards)."""
    b = cards & (~cards + _ONE)
    return b, low_index(b), cards ^ b


@njit(nrt=False, forceinline=True)
def _takes(b, p, eligible, wbit):
    """Does card b (index p) take the trick from the winning card wbit? (`eligible`: the led
    suit's bits and the trumps.)"""
    return (b & eligible) != 0 and p > wbit


@njit(nrt=False)
def _two_tricks(lay, hands, leader, active, n_active):
    """NS tricks of the last two tricks, each of the 2-4 seats in play holding two cards:
    plain minimax over the first of them (at most 16 lines), the last resolved directly."""
    trumps = lay[LAYOUT_TRUMPS]
    s1 = next_active(active, leader)
    s2 = next_active(active, s1)
    s3 = next_active(active, s2)
    best0 = _worst(leader)
    live = hands[0] | hands[1] | hands[2] | hands[3]
    m0 = legal_cards(lay, hands[leader], _ZERO) & ~_successors(lay, hands[leader], live)
    while m0:
        b0, p0, m0 = _pop_lowest(m0)
        led = lay[p0]
        eligible = led | trumps
        hands[leader] ^= b0
        best1 = _worst(s1)
        m1 = legal_cards(lay, hands[s1], led)
        while m1:
            b1, p1, m1 = _pop_lowest(m1)
            hands[s1] ^= b1
            w1, ws1 = (p1, s1) if _takes(b1, p1, eligible, p0) else (p0, leader)
            best2 = _worst(s2)
            m2 = legal_cards(lay, hands[s2], led) if n_active > 2 else _ZERO
            if n_active == 2:  # a lone maker against a lone defender
                best2 = 1 - team_of(ws1) + _last_trick(lay, hands, ws1)
            while m2:
                b2, p2, m2 = _pop_lowest(m2)
                hands[s2] ^= b2
                w2, ws2 = (p2, s2) if _takes(b2, p2, eligible, w1) else (w1, ws1)
                if n_active == 3:
                    v = 1 - team_of(ws2) + _last_trick(lay, hands, ws2)
                else:
                    v = _worst(s3)
                    m3 = legal_cards(lay, hands[s3], led)
                    while m3:
                        b3, p3, m3 = _pop_lowest(m3)
                        hands[s3] ^= b3
                        ws3 = s3 if _takes(b3, p3, eligible, w2) else ws2
                        v = _better(s3, v, 1 - team_of(ws3) + _last_trick(lay, hands, ws3))
                        hands[s3] ^= b3
                hands[s2] ^= b2
                best2 = _better(s2, best2, v)
            hands[s1] ^= b1
            best1 = _better(s1, best1, best2)
        hands[leader] ^= b0
        best0 = _better(leader, best0, best1)
    return best0


@njit(nrt=False)
def quick_tricks(lay, hands, leader):
    """Tricks the leader's side surely takes when the leader cashes its top cards: first its
    trumps above all others, which draw the opponents' trumps when they outnumber each
    opponent's (else 0), then in each suit its cards above all others (Benny in no-trump
    counts as trump and is never counted: it may not lead). When the opponents hold no
    trump and the partner can follow or discard without trumping, the cashed plain cards
    plus the longer trumps of the two (each wins the trick it is played in)."""
    live = hands[0] | hands[1] | hands[2] | hands[3]
    trumps = lay[LAYOUT_TRUMPS]
    mine = hands[leader] & ~lay[LAYOUT_NO_LEAD]
    partner = hands[partner_of(leader)]
    theirs = live & trumps & ~(hands[leader] | partner)
    if theirs:
        others = live & trumps & ~mine
        top = mine & trumps & above_highest(others)
        if popcount(top) < max(popcount(theirs & hands[left_of(leader)]),
                               popcount(theirs & hands[right_of(leader)])):
            return 0
    sure = plain = 0
    m = mine
    while m:  # a suit of the leader's at a time
        r = lay[low_index(m)]
        m &= ~r
        mine_r = mine & r
        others = live & r & ~mine
        if others:
            mine_r &= above_highest(others)
        sure += popcount(mine_r)
        if r != trumps:
            plain += popcount(mine_r)
    if partner and not theirs and popcount(partner & ~trumps) >= plain:
        sure = max(sure, plain + max(popcount(hands[leader] & trumps), popcount(partner & trumps)))
    return sure


@njit(nrt=False)
def sure_trump_tricks(lay, hands):
    """(NS, EW): tricks each side surely takes with the trumps of one of its seats. Each of a
    seat's trumps wins the trick it is played in unless an opposing trump above it is played
    there too; an opposing trump beats at most one of them, and every card gets played. So
    the seat's side takes at least its trumps less the most of them the opponents can beat:
    the fewer of their trumps above its lowest and of its trumps below their highest."""
    trumps = lay[LAYOUT_TRUMPS]
    ns_trumps = (hands[0] | hands[2]) & trumps
    ew_trumps = (hands[1] | hands[3]) & trumps
    ns = ew = 0
    for seat in range(4):
        mine = hands[seat] & trumps
        if mine:
            theirs = ew_trumps if team_of(seat) == 0 else ns_trumps
            lowest = mine & (~mine + _ONE)
            over = popcount(theirs & above_highest(lowest))
            under = popcount(mine & (high_bit(theirs) - _ONE)) if theirs else 0
            k = popcount(mine) - min(over, under)
            if team_of(seat):
                ew = max(ew, k)
            else:
                ns = max(ns, k)
    return ns, ew


@njit(inline="always")
def _replies(hand, runs, suit):
    """How many distinct cards an opponent (`hand`, its runs of equivalent cards `runs`) may
    answer a lead of `suit` with: its runs in the suit, or every run when void (at least 1:
    a seat out of play answers nothing). A lead is a cut node's move, and every answer of the
    opponents must be refuted: fewer answers, a smaller proof."""
    choices = runs & suit if hand & suit else runs
    return max(popcount(choices), 1)


@njit(nrt=False, forceinline=True)
def _gen_moves(lay, hands, seat, led, wbit, wseat):
    """Candidate cards as (first, rest): `first` is tried before `rest`, lowest first (both).
    `led` is the led suit's bits (0 when leading), (`wbit`, `wseat`) the trick's winning card
    so far and its seat.

    One card per run of equivalent cards: the seat's cards with no live card between them
    (cards already beaten in this trick are dead) win the same tricks, so only the lowest of
    each run is tried. First on lead: one card of the suit that leaves the opponents the
    fewest distinct replies (`_replies`), the top of the suit where the seat holds it;
    following, the cards that take the trick from the other side."""
    hand = hands[seat]
    legal = legal_cards(lay, hand, led)
    live = hands[0] | hands[1] | hands[2] | hands[3]
    if led != 0:
        live |= one_bit(wbit)
    reps = legal & ~_successors(lay, hand, live)
    first = _ZERO
    if led == 0:
        others = live & ~hand
        left = hands[left_of(seat)]
        right = hands[right_of(seat)]
        left_runs = left & ~_successors(lay, left, live)
        right_runs = right & ~_successors(lay, right, live)
        fewest = 1 << 30
        m = reps
        while m:  # a suit at a time
            r = lay[low_index(m)]
            m &= ~r
            o = others & r
            top = reps & r & above_highest(o) if o else reps & r
            cost = 2 * _replies(left, left_runs, r) * _replies(right, right_runs, r) + \
                (0 if top else 1)
            if cost < fewest:
                fewest = cost
                pick = top if top else reps & r
                first = pick & (~pick + _ONE)
    elif team_of(wseat) != team_of(seat):
        first = reps & (led | lay[LAYOUT_TRUMPS]) & bits_above(wbit)
    return first, reps & ~first


@njit(nrt=False, forceinline=True)
def _next_card(first, rest):
    """The next card to try, `first` before `rest`: (its bit, its index, first, rest left)."""
    if first:
        b, p, first = _pop_lowest(first)
    else:
        b, p, rest = _pop_lowest(rest)
    return b, p, first, rest


@njit(nrt=False, forceinline=True)
def _child_value(seat, best, alpha, beta, v):
    """A child's value v taken into `seat`'s best and window: (best, alpha, beta)."""
    if team_of(seat):
        return _better(seat, best, v), alpha, min(beta, v)
    return _better(seat, best, v), max(alpha, v), beta


@njit(inline="always")
def _bounds_of(v, alpha, beta, lo, hi):
    """A node's bounds (lo, hi) narrowed by v, its fail-soft value searched in (alpha, beta):
    at or below alpha an upper bound, at or above beta a lower one, else exact."""
    if v <= alpha:
        return lo, min(hi, v)
    if v >= beta:
        return max(lo, v), hi
    return v, v


@njit(nrt=False, forceinline=True)
def _probe(lay, hands, seat, n, alpha, beta, table, stats):
    """A trick boundary (`seat` to lead, n >= 2 tricks left): (key, slot, lo, hi), bounds on NS
    tricks from the quick and sure-trump tricks and, unless they already decide the window
    (alpha, beta), from its table entry (key and slot then name it for `_store`)."""
    stats[0] += 1
    lo = 0
    hi = n
    sure = quick_tricks(lay, hands, seat)
    if team_of(seat):
        hi = n - sure
    else:
        lo = sure
    if lo >= beta or lo == hi or hi <= alpha:
        return _ZERO, 0, lo, hi
    ns_sure, ew_sure = sure_trump_tricks(lay, hands)
    lo = max(lo, ns_sure)
    hi = min(hi, n - ew_sure)
    if lo >= beta or lo == hi or hi <= alpha:
        return _ZERO, 0, lo, hi
    key = _position_key(lay, hands, seat)
    cls = _table_class(lay)
    slot = _tt_slot(table, key, cls)
    meta = table[slot, 1]
    if (table[slot, 0] ^ meta) == key and (meta & np.uint64(0xFF)) == cls:
        stats[1] += 1
        lo = max(lo, np.int64((meta >> np.uint64(8)) & np.uint64(0xFF)))
        hi = min(hi, np.int64((meta >> np.uint64(16)) & np.uint64(0xFF)))
    return key, slot, lo, hi


@njit(inline="always")
def _store(search, slot, key, v, alpha, beta, lo, hi):
    """Narrow an entry's bounds by v, the fail-soft value searched in (alpha, beta), and
    write them."""
    lo, hi = _bounds_of(v, alpha, beta, lo, hi)
    _tt_store(search.tt.table, slot, key, _table_class(search.lay), lo, hi)


@njit(inline="always")
def _rest_value(search, hands, seat, won, n, alpha, beta):
    """Value (fail-soft in (alpha, beta)) of a position of `endgame` after its first trick:
    `won` NS tricks so far, `seat` to lead the remaining n, through the table and the bounds,
    else solved: the last two outright, more by `endgame`."""
    if won + n <= alpha:
        return won + n
    if won >= beta:
        return won
    lay, active, n_active = search.lay, search.active, search.n_active
    table, stats = search.tt
    stats[2] += 1
    alpha -= won
    beta -= won
    key, slot, lo, hi = _probe(lay, hands, seat, n, alpha, beta, table, stats)
    if lo >= beta or lo == hi:
        return won + lo
    if hi <= alpha:
        return won + hi
    alpha = max(alpha, lo)
    beta = min(beta, hi)
    if n == 2:
        v = _two_tricks(lay, hands, seat, active, n_active)
    else:
        v = endgame(search, hands, seat, alpha, beta, n)
    _store(search, slot, key, v, alpha, beta, lo, hi)
    return won + v


# no reference counts: it allocates nothing, and its arrays outlive it. It calls itself (through
# `_rest_value`) for the tricks after the first: one function, as Numba's cache cannot load
# functions that call each other.
@njit(nrt=False)
def endgame(search, hands, leader, alpha, beta, n):
    """NS tricks of the last n tricks (3 to 5), each of the 3-4 seats in play holding n cards:
    alpha-beta (fail-soft in (alpha, beta)) over the plays of the first of them in nested
    loops, one card per run of equivalent cards in `_gen_moves`' order, the positions after
    it through `_rest_value`."""
    lay, active, n_active = search.lay, search.active, search.n_active
    trumps = lay[LAYOUT_TRUMPS]
    s1 = next_active(active, leader)
    s2 = next_active(active, s1)
    s3 = next_active(active, s2)
    best0 = _worst(leader)
    a0 = alpha
    b0 = beta
    f0, r0 = _gen_moves(lay, hands, leader, _ZERO, np.int64(0), np.int64(0))
    while (f0 | r0) and a0 < b0:
        c0, p0, f0, r0 = _next_card(f0, r0)
        led = lay[p0]
        eligible = led | trumps
        hands[leader] ^= c0
        a1 = a0
        b1 = b0
        best1 = _worst(s1)
        f1, r1 = _gen_moves(lay, hands, s1, led, p0, leader)
        while (f1 | r1) and a1 < b1:
            c1, p1, f1, r1 = _next_card(f1, r1)
            hands[s1] ^= c1
            w1, ws1 = (p1, s1) if _takes(c1, p1, eligible, p0) else (p0, leader)
            a2 = a1
            b2 = b1
            best2 = _worst(s2)
            f2, r2 = _gen_moves(lay, hands, s2, led, w1, ws1)
            while (f2 | r2) and a2 < b2:
                c2, p2, f2, r2 = _next_card(f2, r2)
                hands[s2] ^= c2
                w2, ws2 = (p2, s2) if _takes(c2, p2, eligible, w1) else (w1, ws1)
                # the trick's fourth card (none with three seats: one pass, no card), then the
                # position after the trick: one call of _rest_value, inlined once
                a3 = a2
                b3 = b2
                v = _worst(s3)
                three = n_active == 3
                f3, r3 = (_ZERO, _ZERO) if three else _gen_moves(lay, hands, s3, led, w2, ws2)
                while (three or (f3 | r3)) and a3 < b3:
                    c3 = _ZERO
                    ws3 = ws2
                    if not three:
                        c3, p3, f3, r3 = _next_card(f3, r3)
                        if _takes(c3, p3, eligible, w2):
                            ws3 = s3
                    hands[s3] ^= c3
                    v3 = _rest_value(search, hands, ws3, 1 - team_of(ws3), n - 1, a3, b3)
                    hands[s3] ^= c3
                    v, a3, b3 = _child_value(s3, v, a3, b3, v3)
                    if three:
                        break
                hands[s2] ^= c2
                best2, a2, b2 = _child_value(s2, best2, a2, b2, v)
            hands[s1] ^= c1
            best1, a1, b1 = _child_value(s1, best1, a1, b1, best2)
        hands[leader] ^= c0
        best0, a0, b0 = _child_value(leader, best0, a0, b0, best1)
    return best0


# as endgame: the counts Numba keeps for arrays handed to inlined helpers cost a few per cent
@njit(nrt=False)
def search_at(search, hands, at, alpha, beta, work):
    """NS tricks of the `search` (`Search`) from any point of a trick (`TrickPoint`, the
    current trick included), fail-soft in (alpha, beta).

    Depth-first with an explicit stack: the node being worked on lives in locals, and is
    written to its row of `work` only while a child is searched."""
    lay, active, n_active = search.lay, search.active, search.n_active
    table, stats = search.tt.table, search.tt.stats
    seat, pos, led, wbit, wseat = at
    ints = work[0]
    masks = work[1]
    stats[3] += 1
    d = 0
    entering = True
    v = 0
    # the current node (a0, b0: its window after the boundary bounds; won: NS tricks of the
    # trick its current card completes)
    a0 = b0 = best = lo = hi = slot = p = won = np.int64(0)
    key = first = rest = _ZERO
    while True:
        if entering:
            entering = False
            stats[2] += 1
            known = False
            if pos == 0:
                n = popcount(hands[seat])
                if n <= 1:
                    v = 0 if n == 0 else _last_trick(lay, hands, seat)
                    known = True
                else:
                    key, slot, lo, hi = _probe(lay, hands, seat, n, alpha, beta, table, stats)
                    if lo >= beta or lo == hi:
                        v = lo
                        known = True
                    elif hi <= alpha:
                        v = hi
                        known = True
                    elif n == 2 or n_active >= 3:
                        alpha = max(alpha, lo)
                        beta = min(beta, hi)
                        if n == 2:  # the last two tricks: cheaper solved outright
                            v = _two_tricks(lay, hands, seat, active, n_active)
                        else:
                            v = endgame(search, hands, seat, alpha, beta, n)
                        _store(search, slot, key, v, alpha, beta, lo, hi)
                        known = True
                    else:
                        alpha = max(alpha, lo)
                        beta = min(beta, hi)
            if not known:
                a0 = alpha
                b0 = beta
                best = _worst(seat)
                first, rest = _gen_moves(lay, hands, seat, led, wbit, wseat)
        else:
            # the child of the current node returned v
            hands[seat] |= one_bit(p)
            v += won
            best, alpha, beta = _child_value(seat, best, alpha, beta, v)
            known = False
        if not known:
            if (first | rest) and alpha < beta:
                # try the next card: push this node, enter the child
                b, p, first, rest = _next_card(first, rest)
                hands[seat] &= ~b
                if pos == 0:
                    c_led = lay[p]
                    c_wbit = p
                    c_wseat = seat
                else:
                    c_led = led
                    c_wbit = wbit
                    c_wseat = wseat
                    if _takes(b, p, led | lay[LAYOUT_TRUMPS], wbit):
                        c_wbit = p
                        c_wseat = seat
                won = 0
                if pos + 1 == n_active:
                    won = 1 - team_of(c_wseat)
                row = ints[d]
                row[_SEAT] = seat
                row[_POS] = pos
                row[_WBIT] = wbit
                row[_WSEAT] = wseat
                row[_ALPHA] = alpha
                row[_BETA] = beta
                row[_A0] = a0
                row[_B0] = b0
                row[_BEST] = best
                row[_LO] = lo
                row[_HI] = hi
                row[_SLOT] = slot
                row[_CARD] = p
                row[_WON] = won
                mrow = masks[d]
                mrow[_M_LED] = led
                mrow[_M_KEY] = key
                mrow[_M_FIRST] = first
                mrow[_M_REST] = rest
                d += 1
                if pos + 1 == n_active:
                    seat = c_wseat
                    pos = 0
                    led = _ZERO
                    alpha -= won
                    beta -= won
                else:
                    seat = next_active(active, seat)
                    pos += 1
                    led = c_led
                wbit = c_wbit
                wseat = c_wseat
                entering = True
                continue
            v = best
            if pos == 0:
                _store(search, slot, key, v, a0, b0, lo, hi)
        # the current node's value is v: hand it to the node above
        if d == 0:
            return v
        d -= 1
        row = ints[d]
        seat = row[_SEAT]
        pos = row[_POS]
        wbit = row[_WBIT]
        wseat = row[_WSEAT]
        alpha = row[_ALPHA]
        beta = row[_BETA]
        a0 = row[_A0]
        b0 = row[_B0]
        best = row[_BEST]
        lo = row[_LO]
        hi = row[_HI]
        slot = row[_SLOT]
        p = row[_CARD]
        won = row[_WON]
        mrow = masks[d]
        led = mrow[_M_LED]
        key = mrow[_M_KEY]
        first = mrow[_M_FIRST]
        rest = mrow[_M_REST]


# every kernel above reaches the search through this call: one compiled copy of it (see unlinked)
call_search_at = unlinked(search_at)


@njit(nrt=False)
def _search(lay, hands, leader, active, alpha, beta, tt, work):
    """NS tricks from a trick boundary, `leader` to lead; fail-soft in (alpha, beta). The
    arguments search_at fixes here are int64s, not literals: a literal argument would
    compile search_at once more for its value."""
    return call_search_at(Search(lay, active, popcount(active), tt), hands,
                          TrickPoint(leader, np.int64(0), _ZERO, np.int64(-1), np.int64(-1)),
                          alpha, beta, work)


@njit(nrt=False)
def exact_tricks(lay, hands, leader, active, tt, work):
    """NS tricks under perfect play: one full-window search (`lay` the rule tables' layout of
    the trump, hands in power layout)."""
    n = popcount(hands[leader])
    return _search(lay, hands, leader, active, np.int64(-1), n + 1, tt, work)


@njit(nrt=False)
def at_least(lay, hands, leader, active, target, tt, work):
    """Does NS take at least `target` tricks? One zero-window search (as exact_tricks)."""
    return _search(lay, hands, leader, active, target - 1, target, tt, work) >= target


def compile_search() -> None:
    """Compile (or load from Numba's cache) the search for the argument types its callers pass
    (`call_search_at`), before the kernels above it: a warm-up compiles it in a second
    process meanwhile."""
    tt, work = new_tt(1), new_work()
    masks, i = np.zeros(4, np.uint64), np.int64(0)
    compile_for(search_at, Search(masks, i, i, tt), masks, TrickPoint(i, i, _ZERO, i, i), i, i,
                work)


_SHARED: list[np.ndarray] = []
_THREAD = threading.local()


def shared_tt() -> SolverTT:
    """The process's one transposition table, kept across calls, chunks and deals (entries are
    exact for their rule tables, so reuse only saves work) and shared by its threads, with
    counters of the calling thread's own: one counter written by every node of several threads
    would bounce between their cores (`benchmarks/bench_threads.py`)."""
    if not _SHARED:
        _SHARED.append(new_tt().table)
    tt = getattr(_THREAD, "tt", None)
    if tt is None:
        tt = _THREAD.tt = SolverTT(_SHARED[0], np.zeros(5, np.int64))
    return tt
