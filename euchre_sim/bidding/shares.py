"""Who makes trump under a bidder that bids from its own hand: the share of deals in which
each turn's seat makes the first call (round 1 and 2, position 1 = dealer's left .. 4 =
dealer), and the share passed out. Lone calls count in their seat's share.

The shares depend on the bidder and the cards only (not on the play), so they cost one auction
per deal: this is what the `human` bidder is fitted to (`tools/fit_human_bidder.py`).
"""

from __future__ import annotations

import numpy as np

from ..core.calls import turn_position
from ..core.dealing import deal_batch
from ..core.jit import njit
from ..core.ruletables import compile_rules
from ..core.seats import seat_at
from .auction import N_TURNS, NO_WINS, bidder_choice
from .params import BIDDER_RULES
from .table import empty_table

PASSED_OUT = N_TURNS  # the last entry of `first_call_counts`
DEALER = 0  # the seat that deals every deal counted


@njit
def _count_first_calls(bidder, tb, params, table, hands, ups, counts):
    """counts[k] += deals whose first call is at turn k; counts[N_TURNS]: passed out."""
    for i in range(hands.shape[0]):
        first = N_TURNS
        for k in range(N_TURNS):
            seat = seat_at(DEALER, turn_position(k))
            if bidder_choice(bidder, tb, params, table, hands[i, seat], ups[i], k,
                             NO_WINS) >= 0:
                first = k
                break
        counts[first] += 1


def first_call_counts(rules, params: np.ndarray, seed: int, deals: int, start: int = 0,
                      batch: int = 100_000) -> np.ndarray:
    """int64[N_TURNS + 1]: deals (seed's deals start..start+deals-1, seat 0 dealing) whose
    first call comes at each turn under the rules bidder with these weights; the last entry:
    passed out."""
    tb = compile_rules(rules)
    table = empty_table()
    counts = np.zeros(N_TURNS + 1, dtype=np.int64)
    for first in range(start, start + deals, batch):
        hands, ups = deal_batch(rules, seed, first, min(batch, start + deals - first), DEALER)
        _count_first_calls(BIDDER_RULES, tb, np.asarray(params, dtype=np.float64), table,
                           hands, ups, counts)
    return counts
