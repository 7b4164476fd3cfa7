"""The calls of a hand: which are open to a seat, the call table's row layout, who plays and leads.

A call is (round, position, trump, alone). Positions are 1-4 from the dealer's left (4 is the
dealer); round 1 orders up the upcard's suit, round 2 names another suit or no-trump (trump 4).
A deal's call table has one row per call, in the layout of `call_row`:
  rows 0-7     round 1: (position - 1) * 2 + alone;
  rows 8-47    round 2: 8 + ((position - 1) * 5 + trump) * 2 + alone;
and, where defending alone is on, one row per call and lone defender (`defence_row`):
  rows 48-143  48 + call row * 2 + j, j = 0 for the defender nearer the dealer's left.
This module is the one place that says which calls the rules open (`call_open`): the engine,
the solver's call table, the playouts, the random-hand engine and `advise` all ask it.
"""

from __future__ import annotations

from typing import NamedTuple

from .cards import JOKER
from .jit import njit
from .ruletables import (
    FLAG_ALLOW_ALONE,
    FLAG_CANADIAN,
    FLAG_DEFEND_ALONE,
    FLAG_NO_TRUMP,
    FLAG_STICK,
    NO_TRUMP,
)
from .seats import left_of, partner_of, seat_at

ROUND1_ROWS = 8  # (position 1-4) x (alone 0/1)
N_CALLS = ROUND1_ROWS + 4 * 5 * 2  # + round 2: position x trump (4 suits, NT) x alone
N_ROWS = N_CALLS * 3  # + each call against either defender alone
# what a call table holds (a bit mask): round 1, round 2, the lone-defence rows
ROUND_1, ROUND_2, WITH_DEFENCE = 1, 2, 4
BOTH_ROUNDS = ROUND_1 | ROUND_2
N_TRUMPS = 5  # trump ids 0-3 (suits) and 4 (no-trump)


class Contract(NamedTuple):
    """A call as it is played: the round it was made in (`round_no`), the `trump` named, the
    position playing alone (`alone_pos`) and the position defending alone (`def_pos`; 0:
    nobody)."""

    round_no: int
    trump: int
    alone_pos: int
    def_pos: int


@njit
def turn_round(k):
    """The round of auction turn k (0..7: four seats a round, position 1 first)."""
    return k // 4 + 1


@njit
def turn_position(k):
    """The position (1 = dealer's left) of auction turn k."""
    return k % 4 + 1


@njit
def turn_at(round_no, pos):
    """The turn of position `pos` in round `round_no` (turn_round's and turn_position's)."""
    return (round_no - 1) * 4 + pos - 1


# inlined: callers pass literal rounds and positions, each of which would compile a copy
@njit(inline="always")
def call_open(flags, round_no, pos, trump, alone, upcard):
    """Is the call open to position `pos`? `flags` are the rule tables' flags; `upcard` the card
    turned up (a joker names no suit: round 1 is skipped and every suit is open in round 2)."""
    if alone and not flags[FLAG_ALLOW_ALONE]:
        return False
    if round_no == 1:
        if upcard == JOKER or trump != upcard >> 3:
            return False
        return alone or pos != 2 or not flags[FLAG_CANADIAN]
    if trump == NO_TRUMP:
        return flags[FLAG_NO_TRUMP] != 0
    return upcard == JOKER or trump != upcard >> 3


@njit(inline="always")
def may_pass(flags, round_no, pos):
    """May the seat pass? Not the dealer in round 2 under stick-the-dealer."""
    return not (round_no == 2 and pos == 4 and flags[FLAG_STICK])


@njit(inline="always")
def call_row(round_no, pos, trump, alone):
    """Row of the call table for a call (trump is ignored in round 1)."""
    if round_no == 1:
        return (pos - 1) * 2 + alone
    return ROUND1_ROWS + ((pos - 1) * 5 + trump) * 2 + alone


@njit
def defence_row(row, j):
    """Row of the call `row` (below N_CALLS) against lone defender j (0: the defender nearer
    the dealer's left, 1: the other)."""
    return N_CALLS + row * 2 + j


@njit
def defender_position(maker_pos, j):
    """Position of the maker's defender j (0: nearer the dealer's left)."""
    return (2 if maker_pos & 1 else 1) + 2 * j


@njit(nrt=False)
def defence_open(flags):
    """May a defender play alone (asked after trump is fixed, from the dealer's left)?"""
    return flags[FLAG_DEFEND_ALONE] != 0


@njit
def row_call(row):
    """(round, position, trump, alone) of a call-table row; trump is -1 in round 1 (the upcard's
    suit)."""
    alone = row & 1
    if row < ROUND1_ROWS:
        return 1, row // 2 + 1, -1, alone
    r = row - ROUND1_ROWS
    return 2, r // 10 + 1, (r % 10) // 2, alone


def open_calls(flags, round_no: int, pos: int, upcard: int) -> list[tuple[int, bool]]:
    """(trump, alone) of every call open to the position, by trump then partner before alone."""
    return [(trump, bool(alone)) for trump in range(N_TRUMPS) for alone in (0, 1)
            if call_open(flags, round_no, pos, trump, alone, upcard)]


@njit
def opening_leader(dealer, active, loner, lone_last):
    """Dealer's left, or the lone maker's left under "lone player plays last" (loner -1: none);
    the next seat clockwise when that one sits out."""
    seat = left_of(loner) if loner >= 0 and lone_last else seat_at(dealer, 1)
    while not (active >> seat) & 1:
        seat = left_of(seat)
    return seat


@njit
def seats_in_play(dealer, alone_pos, defender_pos, lone_last):
    """(active seat mask, opening leader) when position alone_pos makes trump alone and
    position defender_pos defends alone (0: nobody); a lone defender leaves the leader rule
    as it is."""
    active = 15
    loner = -1
    if alone_pos > 0:
        loner = seat_at(dealer, alone_pos)
        active &= ~(1 << partner_of(loner))
    if defender_pos > 0:
        active &= ~(1 << seat_at(dealer, defender_pos + 2))
    return active, opening_leader(dealer, active, loner, lone_last)
