"""The state of a hand being played out card by card, as the play models see it (Numba).

Cards are bits of the rule tables' power layout for the hand's trump (see `core.ruletables`), so a
suit is a contiguous run of bits and a higher bit beats a lower one it can meet in a trick.
A state is three small arrays:
  hands  uint64[4]   the true hands by seat;
  st     int64[N_ST] the integer fields S_*;
  pm     uint64[N_PM] the public card sets P_* (and each seat's shown voids).
What a seat may use: its own hand, `pm`, the public fields of `st`, and, for the dealer, the
card it discarded (S_DISCARD).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..core.bits import bits_above, high_bit, low_index, one_bit, popcount
from ..core.dealing import deal_key
from ..core.jit import njit
from ..core.ruletables import LAYOUT_SUITS, LAYOUT_TRUMPS
from ..core.seats import team_of
from ..core.trick import next_active

_ONE = np.uint64(1)
_ZERO = np.uint64(0)

# integer fields
(S_TRUMP, S_DEALER, S_MAKER, S_MAKER_ALONE, S_DEFENDER_ALONE, S_ACTIVE, S_N_ACTIVE, S_TURN,
 S_POS, S_WBIT, S_WSEAT, S_MAKER_TRICKS, S_TRICKS, S_UP, S_DISCARD, S_DECISIONS,
 S_UPCARD, S_MAKER_TURN, S_FAILED) = range(19)
N_ST = S_FAILED + 4
# S_UPCARD: the card turned up (a card id); S_MAKER_TURN: the auction turn (0-7) of the call;
# S_FAILED + seat: how often that seat could not follow suit
# public card sets: all cards played (the current trick's too), the current trick, the led
# suit's bits, cards known to be out of play (a turned-down upcard), shown voids by seat, the
# cards each seat has played
P_PLAYED, P_TRICK, P_LED, P_KNOWN_OUT, P_VOID = range(5)
P_BY = P_VOID + 4
N_PM = P_BY + 4
TRICKS_PER_HAND = 5


class Position(NamedTuple):
    """The play as it stands, for one seat: the trump's layout (`lay`, a row of the rule
    tables'), the hands (power layout, by seat: the true deal, or one of the seat's worlds),
    the state `st` and its public part `pm`, and the `seat` that decides or whose worlds are
    drawn."""

    lay: np.ndarray
    hands: np.ndarray
    st: np.ndarray
    pm: np.ndarray
    seat: int


class StateStart(NamedTuple):
    """What a fresh state (`new_state`, `start_state`) is made of: the `trump`, the `dealer`,
    the `maker`, whether the maker plays alone and whether a defender does (0/1), the seats in
    play (`active`, a bit per seat), the `leader` of the first trick, the power bit of an
    upcard the dealer took (`up`; -1: none) and the power-layout mask of cards everyone knows
    are out of play (`known_out`)."""

    trump: int
    dealer: int
    maker: int
    maker_alone: int
    defender_alone: int
    active: int
    leader: int
    up: int
    known_out: np.uint64


@njit(nrt=False)
def start_state(st, pm, start):
    """Write a fresh state before the first lead (`StateStart`) into st and pm."""
    st[:] = 0
    pm[:] = 0
    st[S_TRUMP] = start.trump
    st[S_DEALER] = start.dealer
    st[S_MAKER] = start.maker
    st[S_MAKER_ALONE] = start.maker_alone
    st[S_DEFENDER_ALONE] = start.defender_alone
    st[S_ACTIVE] = start.active
    st[S_N_ACTIVE] = popcount(np.uint64(start.active))
    st[S_TURN] = start.leader
    st[S_WBIT] = -1
    st[S_WSEAT] = -1
    st[S_UP] = start.up
    st[S_DISCARD] = -1
    st[S_UPCARD] = -1
    pm[P_KNOWN_OUT] = start.known_out


@njit
def new_state(start):
    """A fresh state before the first lead (`StateStart`), in new arrays."""
    st = np.zeros(N_ST, dtype=np.int64)
    pm = np.zeros(N_PM, dtype=np.uint64)
    start_state(st, pm, start)
    return st, pm


@njit(inline="always")
def deck_bits(lay):
    return (lay[LAYOUT_SUITS] | lay[LAYOUT_SUITS + 1] | lay[LAYOUT_SUITS + 2]
            | lay[LAYOUT_SUITS + 3] | lay[LAYOUT_SUITS + 4])


@njit(nrt=False)
def next_decision_key(key, st):
    """The key of the hand's next decision by sampled worlds (from the hand's `key`), counted."""
    k = deal_key(key, np.uint64(st[S_DECISIONS]))
    st[S_DECISIONS] += 1
    return k


@njit(inline="always")
def settled(st):
    """Are the hand's points already decided (made without march, or euchred)?"""
    made = st[S_MAKER_TRICKS]
    lost = st[S_TRICKS] - made
    return lost >= 3 or (made >= 3 and lost >= 1)


@njit(nrt=False)
def unseen_by(lay, hands, st, pm, seat):
    """Cards `seat` cannot place: not its own, not played, not known out (nor its discard)."""
    hidden = deck_bits(lay) & ~hands[seat] & ~pm[P_PLAYED] & ~pm[P_KNOWN_OUT]
    if seat == st[S_DEALER] and st[S_DISCARD] >= 0:
        hidden &= ~one_bit(st[S_DISCARD])
    return hidden


@njit(nrt=False)
def play_card(lay, hands, st, pm, p):
    """The seat to play plays power bit p: update the trick, voids, and tricks won."""
    seat = st[S_TURN]
    b = one_bit(p)
    hands[seat] &= ~b
    pm[P_PLAYED] |= b
    pm[P_BY + seat] |= b
    pm[P_TRICK] |= b
    if st[S_POS] == 0:
        pm[P_LED] = lay[p]
        st[S_WBIT] = p
        st[S_WSEAT] = seat
    else:
        led = pm[P_LED]
        if not b & led:
            pm[P_VOID + seat] |= led
            st[S_FAILED + seat] += 1
        if b & (led | lay[LAYOUT_TRUMPS]) and p > st[S_WBIT]:
            st[S_WBIT] = p
            st[S_WSEAT] = seat
    st[S_POS] += 1
    if st[S_POS] < st[S_N_ACTIVE]:
        st[S_TURN] = next_active(st[S_ACTIVE], seat)
        return
    winner = st[S_WSEAT]
    if team_of(winner) == team_of(st[S_MAKER]):
        st[S_MAKER_TRICKS] += 1
    st[S_TRICKS] += 1
    st[S_TURN] = winner
    st[S_POS] = 0
    st[S_WBIT] = -1
    st[S_WSEAT] = -1
    pm[P_TRICK] = _ZERO
    pm[P_LED] = _ZERO


@njit(inline="always")
def rank_from_top(lay, p):
    """0 for the highest card of its suit in the deck, 1 for the next, ..."""
    return popcount(lay[p] & bits_above(p))


@njit(inline="always")
def is_boss(lay, unseen, p):
    """No card `unseen` by the holder ranks above p in its suit."""
    return (unseen & lay[p] & bits_above(p)) == 0


@njit(nrt=False)
def lowest_card(lay, cards):
    """The lowest-ranked card (ties: the lower bit); cards non-empty."""
    best = -1
    best_rank = -1
    m = cards
    while m:
        p = low_index(m)
        m &= m - _ONE
        r = rank_from_top(lay, p)
        if r > best_rank:
            best = p
            best_rank = r
    return best


@njit
def top_card(cards):
    return low_index(high_bit(cards))
