"""Runs of equivalent cards: cards of one hand adjacent in power among the cards still live.

Playing (or discarding) any card of a run leaves equivalent positions, so the solver's discard
layer and the play models consider one card per run, its top (cards in the power layout of
`core.ruletables`, where a suit is a contiguous run of bits).
"""

import numpy as np

from ..core.bits import bits_above, low_index
from ..core.jit import njit

_ONE = np.uint64(1)


@njit(nrt=False)
def run_top(lay, live, hand, p):
    """The highest card of p's run: cards of `hand` adjacent in power among `live` cards."""
    while True:
        above = live & lay[p] & bits_above(p)
        if not above:
            return p
        nxt = above & (~above + _ONE)
        if not nxt & hand:
            return p
        p = low_index(nxt)


@njit(nrt=False)
def candidates(lay, hand, choices, live, cands):
    """One card per run of equivalent cards among `choices` (the run's top); returns count."""
    n = 0
    m = choices
    while m:
        p = low_index(m)
        m &= m - _ONE
        if run_top(lay, live, hand, p) == p:
            cands[n] = p
            n += 1
    return n
