"""The auction of a deal over its call table: each turn's choice under a bidder, and its value.

Turns are k = 0..7: round k // 4 + 1, position k % 4 + 1 (1 = dealer's left). Where the rules
let a defender play alone, each call's outcome first takes the defenders' decision
(`resolve_contracts`). A choice is a row of the deal's call table (`core.calls`: the makers'
tricks of every open call, from the solver or a play model) or -1 for a pass. The value of the
auction from turn k on is the points to NS of the first call at or after k (0 when every later
seat passes: the deal is redealt), so a pass at turn k is worth the value from k + 1: an
auction costs table lookups.

The `dd` bidder is the perfect-information auction: by backward induction each seat takes the
action best for its side, knowing the outcome of every call and that later seats do the same.
Ties go to passing, then to the partnership call over the lone one, then to the lower trump id
(clubs, diamonds, hearts, spades, no-trump): nobody bids when bidding changes nothing.
"""

from typing import NamedTuple

import numpy as np

from ..core.calls import (
    N_CALLS,
    call_open,
    call_row,
    defence_open,
    defence_row,
    defender_position,
    may_pass,
    row_call,
    turn_position,
    turn_round,
)
from ..core.jit import njit, unlinked
from ..core.seats import seat_at, team_of
from .conventional import conventional_choice, dealer_value, hand_value
from .params import BIDDER_DD, BIDDER_GAME, BIDDER_TABLE, INDEX
from .table import table_choice

N_TURNS = 8
# which call-table rows a playout reads for a bidder from its own hand (`rows_read`): those its
# auction reads (`reached_rows`), those of round 2 after the round-1 caller's pass is forced
# (`forced_rows`); 0: every row
AUCTION_READS, FORCED_READS = 1, 2
NO_WINS = np.zeros(0)  # bidders that do not play for the game
_DEFEND_ALONE = INDEX["defend_alone"]


class Auction(NamedTuple):
    """A deal's auction as the kernels fill it: its call table (`calls`, the rows of
    `core.calls`), the contracts once the defenders have decided (`contracts`, N_CALLS x 3:
    see resolve_contracts), each turn's choice (`choices`, N_TURNS: a row or -1) and the NS
    points of the auction from each turn on (`values`, N_TURNS + 1). A batch's auctions: the
    same with the deals first."""

    calls: np.ndarray
    contracts: np.ndarray
    choices: np.ndarray
    values: np.ndarray


@njit
def bidder_choice(bidder, tb, params, table, hand, upcard, turn, wins):
    """The row a rules, table or game bidder calls with `hand` at turn `turn`, or -1 to pass
    (what it decides from its own hand alone). wins: the game bidder's chance of winning the
    game after each result (bidding.table; NO_WINS for the others)."""
    if bidder == BIDDER_TABLE:
        return table_choice(tb, params, table, hand, upcard, turn, NO_WINS)
    if bidder == BIDDER_GAME:
        return table_choice(tb, params, table, hand, upcard, turn, wins)
    return conventional_choice(tb, params, hand, upcard, turn_round(turn), turn_position(turn))


# the auctions above reach the bidder through this call: one compiled copy (`core.jit.unlinked`)
call_bidder_choice = unlinked(bidder_choice)


@njit
def defends_alone(tb, params, deal, round_no, pos, trump, j):
    """Does lone-defender candidate j (the earlier defender first) of a call at `pos` go
    alone under the rules and table bidders: its hand worth `defend_alone` for the trump?"""
    hands, upcard, dealer = deal
    d_pos = defender_position(pos, j)
    hand = hands[seat_at(dealer, d_pos)]
    value = dealer_value(tb, params, hand, upcard, trump) \
        if round_no == 1 and d_pos == 4 else hand_value(tb, params, hand, trump)
    return value >= params[_DEFEND_ALONE]


@njit
def lone_defender(tb, params, deal, round_no, pos, trump):
    """Which defender of a call at `pos` goes alone under the rules and table bidders: 0 the
    earlier, 1 the later (the earlier asked first), -1 neither."""
    for j in range(2):
        if defends_alone(tb, params, deal, round_no, pos, trump, j):
            return j
    return -1


_call_lone_defender = unlinked(lone_defender)


@njit
def reached_rows(player, tb, deal, passing, wanted):
    """wanted[row] = 1 for the call-table rows a rules or table bidder's auction and its
    decisions read (0 elsewhere): every call open at each turn the auction reaches (up to its
    first call), and the call that follows if the first caller passes instead (the value of
    its pass), each with the lone defence its defenders choose where the rules allow one
    (`resolve_contracts`); the seat at turn `passing` (-1: none) is taken to pass there.
    `player`: the bidder's record (`play.player.PlayerRecord`). Returns the turn of the first
    call (-1: passed out)."""
    bidder, params, table = player.bidder, player.weights, player.table
    hands, upcard, dealer = deal
    wanted[:] = 0
    first = -1
    for k in range(N_TURNS):
        pos = turn_position(k)
        if first < 0:
            _want_open_calls(tb, params, deal, turn_round(k), pos, wanted)
        choice = -1 if k == passing else call_bidder_choice(
            bidder, tb, params, table, hands[seat_at(dealer, pos)], upcard, k, NO_WINS)
        if choice >= 0:
            if first >= 0:
                _want(tb, params, deal, choice, wanted)
                return first
            first = k
    return first


@njit
def forced_rows(player, tb, deal, wanted):
    """Also set wanted[row] (never cleared here) for the rows that the first round-1
    caller's round-2 decision reads when its call is taken back as a pass (`forced_turn`),
    if the auction then reaches that seat again: every call open to it there, and the first
    call after it (the value of its pass), each with its lone defence. Returns that turn
    (-1: none)."""
    bidder, params, table = player.bidder, player.weights, player.table
    hands, upcard, dealer = deal
    choices = np.empty(N_TURNS, dtype=np.int64)
    for k in range(N_TURNS):
        choices[k] = call_bidder_choice(bidder, tb, params, table,
                                        hands[seat_at(dealer, turn_position(k))], upcard, k,
                                        NO_WINS)
    turn = forced_turn(choices)
    if turn < 0:
        return -1
    _want_open_calls(tb, params, deal, 2, turn_position(turn), wanted)
    after = first_call(choices, turn + 1)
    if after >= 0:
        _want(tb, params, deal, choices[after], wanted)
    return turn


@njit
def forced_turn(choices):
    """Of a deal's auction (choices[0:8], `auction_choices`): the round-2 turn of its first
    caller if that call was in round 1 and, taken back as a pass, no later seat calls before
    the auction comes back to it; else -1. There the seat decides as a player does who
    passed in round 1 what the table's bidder would have called."""
    first = first_call(choices, 0)
    if first < 0 or first >= 4:
        return -1
    after = first_call(choices, first + 1)
    return -1 if 0 <= after < first + 4 else first + 4


@njit
def rows_read(player, reads, tb, deal, wanted):
    """wanted[row] = 1 for the rows read by `reads` (AUCTION_READS, FORCED_READS or both) of
    the auction bid by `player`'s rules or table bidder, 0 elsewhere."""
    wanted[:] = 0
    if reads & AUCTION_READS:
        reached_rows(player, tb, deal, -1, wanted)
    if reads & FORCED_READS:
        forced_rows(player, tb, deal, wanted)


@njit
def advice_rows(bidder, tb, params, table, deal, turn, passing, wanted):
    """wanted[row] = 1 for the call-table rows that advice at `turn` reads under a rules or
    table bidder (0 elsewhere): every call open to the seat there, and the first call that
    follows its pass (the value of passing), each with the lone defence its defenders choose
    where the rules allow one; the seat at turn `passing` (-1: none) is taken to pass there.
    Returns the first turn before `turn` whose seat calls (the auction never reaches the
    seat: nothing is wanted), else -1."""
    hands, upcard, dealer = deal
    wanted[:] = 0
    for k in range(N_TURNS):
        pos = turn_position(k)
        if k == turn:
            _want_open_calls(tb, params, deal, turn_round(k), pos, wanted)
            continue
        if k == passing:
            continue
        choice = call_bidder_choice(bidder, tb, params, table, hands[seat_at(dealer, pos)],
                                    upcard, k, NO_WINS)
        if choice >= 0:
            if k < turn:
                wanted[:] = 0
                return k
            _want(tb, params, deal, choice, wanted)
            return -1
    return -1


@njit
def _want_open_calls(tb, params, deal, round_no, pos, wanted):
    """Mark every call open at this turn (`_want`)."""
    for trump in range(5):
        for alone in range(2):
            if call_open(tb.flags, round_no, pos, trump, alone, deal.upcard):
                _want(tb, params, deal, call_row(round_no, pos, trump, alone), wanted)


@njit
def _want(tb, params, deal, row, wanted):
    """Mark the call's row and, where the rules allow it, its lone defence if any."""
    wanted[row] = 1
    if defence_open(tb.flags):
        round_no, pos, trump, _ = row_call(row)
        named = deal.upcard >> 3 if round_no == 1 else trump
        j = _call_lone_defender(tb, params, deal, round_no, pos, named)
        if j >= 0:
            wanted[defence_row(row, j)] = 1


@njit
def resolve_contracts(bidders, weights, tb, deal, calls, contracts):
    """contracts[row] = (points to the makers, makers' tricks, lone defender's position or 0)
    of every open call once the defenders have decided, under their side's player
    (bidders[team] with weights[team], team 0 NS: `auction_choices` takes them from the
    players' records), whether
    one of them defends alone (only
    where the rules allow it); tricks -1 for a call not open.

    The dd defenders see the outcomes: the later one defends alone when that lowers the
    makers' points, the earlier one when that lowers them below what follows its pass (ties:
    both defend). The rules (and table) defenders go alone, the earlier first, when their hand
    is worth `defend_alone` for the trump named (`defends_alone`)."""
    _, upcard, dealer = deal
    flags = tb.flags
    for row in range(N_CALLS):
        tricks = calls[row]
        contracts[row, 1] = tricks
        contracts[row, 2] = 0
        if tricks < 0:
            contracts[row, 0] = 0
            continue
        round_no, pos, trump, alone = row_call(row)
        if round_no == 1:
            trump = upcard >> 3
        contracts[row, 0] = tb.score[alone, 0, tricks]
        if not defence_open(flags):
            continue
        team = 1 - team_of(seat_at(dealer, pos))
        if bidders[team] != BIDDER_DD:
            j = _call_lone_defender(tb, weights[team], deal, round_no, pos, trump)
            if j >= 0:
                contracts[row, 0] = tb.score[alone, 1, calls[defence_row(row, j)]]
                contracts[row, 1] = calls[defence_row(row, j)]
                contracts[row, 2] = defender_position(pos, j)
            continue
        for step in range(2):
            j = 1 - step
            lone_tricks = calls[defence_row(row, j)]
            points = tb.score[alone, 1, lone_tricks]
            if points < contracts[row, 0]:
                contracts[row, 0] = points
                contracts[row, 1] = lone_tricks
                contracts[row, 2] = defender_position(pos, j)


@njit
def ns_points(contracts, row, dealer):
    """Points to NS when the call of `row` is made (its resolved contract)."""
    pos = row_call(row)[1]
    points = contracts[row, 0]
    return points if team_of(seat_at(dealer, pos)) == 0 else -points


@njit
def _choose(bidders, weights, tables, tb, deal, contracts, choices):
    """choices[0:8] by backward induction: a dd seat takes the action best for its side,
    knowing every outcome and every later choice; a rules or table seat bids its hand."""
    hands, upcard, dealer = deal
    flags = tb.flags
    value = 0  # NS points of the auction from the turn after this one
    for k in range(N_TURNS - 1, -1, -1):
        round_no = turn_round(k)
        pos = turn_position(k)
        seat = seat_at(dealer, pos)
        team = team_of(seat)
        sign = 1 if team == 0 else -1
        if bidders[team] != BIDDER_DD:
            best = call_bidder_choice(bidders[team], tb, weights[team], tables[team],
                                      hands[seat], upcard, k, NO_WINS)
            choices[k] = best
            if best >= 0:
                value = ns_points(contracts, best, dealer)
            continue
        best = -1
        have = may_pass(flags, round_no, pos)
        best_value = sign * value
        for trump in range(5):
            for alone in range(2):
                if not call_open(flags, round_no, pos, trump, alone, upcard):
                    continue
                row = call_row(round_no, pos, trump, alone)
                mine = contracts[row, 0]
                if not have or mine > best_value:
                    best = row
                    best_value = mine
                    have = True
        choices[k] = best
        value = sign * best_value


@njit
def auction_choices(players, tb, deal, auction):
    """Fill the deal's `auction` from its call table: resolve the contracts (see
    resolve_contracts), fill choices[0:8] (row or -1) with each seat bidding under its side's
    player (players[team], team 0 NS: records with a bidder, its weights and decision table,
    `play.player`) and values[0:9] (NS points of the auction from each turn on; values[8] =
    0)."""
    ns, ew = players  # by field once: a record picked by a run-time index is copied whole
    bidders, weights = (ns.bidder, ew.bidder), (ns.weights, ew.weights)
    calls, contracts, choices, values = auction
    resolve_contracts(bidders, weights, tb, deal, calls, contracts)
    _choose(bidders, weights, (ns.table, ew.table), tb, deal, contracts, choices)
    values[N_TURNS] = 0
    for k in range(N_TURNS - 1, -1, -1):
        values[k] = values[k + 1] if choices[k] < 0 else ns_points(contracts, choices[k],
                                                                   deal.dealer)


@njit
def first_call(choices, start):
    """The first turn at or after `start` whose seat calls (-1: passed out)."""
    for k in range(start, N_TURNS):
        if choices[k] >= 0:
            return k
    return -1
