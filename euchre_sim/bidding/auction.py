"""The auction of a deal over its call table: each turn's choice under a bidder, and its value.

Turns are k = 0..7: round k // 4 + 1, position k % 4 + 1 (1 = dealer's left). A choice is a
row of the deal's call table (`core.calls`: the makers' tricks of every open call, from the
solver or a play model) or -1 for a pass. The value of the auction from turn k on is the points
to NS of the first call at or after k (0 when every later seat passes: the deal is redealt), so
a pass at turn k is worth the value from k + 1: an auction costs table lookups.

The `dd` bidder is the perfect-information auction: by backward induction each seat takes the
action best for its side, knowing the outcome of every call and that later seats do the same.
Ties go to passing, then to the partnership call over the lone one, then to the lower trump id
(clubs, diamonds, hearts, spades, no-trump): nobody bids when bidding changes nothing.
"""

from ..core.calls import call_open, call_row, may_pass, row_call
from ..core.jit import njit
from .conventional import conventional_choice
from .params import BIDDER_DD, BIDDER_TABLE
from .table import table_choice

N_TURNS = 8


@njit
def turn_round(k):
    return k // 4 + 1


@njit
def turn_position(k):
    return k % 4 + 1


@njit
def ns_points(tb, calls, row, dealer):
    """Points to NS when the call of `row` is made and played (the call table's outcome)."""
    _, pos, _, alone = row_call(row)
    points = tb.score[alone, 0, calls[row]]
    return points if ((dealer + pos) & 1) == 0 else -points


@njit
def _dd_choices(tb, calls, upcard, dealer, choices):
    flags = tb.flags
    value = 0  # NS points of the auction from the turn after this one
    for k in range(N_TURNS - 1, -1, -1):
        round_no = turn_round(k)
        pos = turn_position(k)
        sign = 1 if ((dealer + pos) & 1) == 0 else -1
        best = -1
        have = may_pass(flags, round_no, pos)
        best_value = sign * value
        for trump in range(5):
            for alone in range(2):
                if not call_open(flags, round_no, pos, trump, alone, upcard):
                    continue
                row = call_row(round_no, pos, trump, alone)
                mine = tb.score[alone, 0, calls[row]]
                if not have or mine > best_value:
                    best = row
                    best_value = mine
                    have = True
        choices[k] = best
        value = sign * best_value


@njit
def auction_choices(bidder, tb, params, table, hands, upcard, dealer, calls, choices, values):
    """Fill choices[0:8] (row or -1) under the bidder and values[0:9] (NS points of the auction
    from each turn on; values[8] = 0). `table`: the table bidder's decisions."""
    if bidder == BIDDER_DD:
        _dd_choices(tb, calls, upcard, dealer, choices)
    else:
        for k in range(N_TURNS):
            pos = turn_position(k)
            hand = hands[(dealer + pos) & 3]
            if bidder == BIDDER_TABLE:
                choices[k] = table_choice(tb, params, table, hand, upcard, turn_round(k), pos)
            else:
                choices[k] = conventional_choice(tb, params, hand, upcard, turn_round(k), pos)
    values[N_TURNS] = 0
    for k in range(N_TURNS - 1, -1, -1):
        values[k] = values[k + 1] if choices[k] < 0 else ns_points(tb, calls, choices[k], dealer)


@njit
def first_call(choices, start):
    """The first turn at or after `start` whose seat calls (-1: passed out)."""
    for k in range(start, N_TURNS):
        if choices[k] >= 0:
            return k
    return -1
