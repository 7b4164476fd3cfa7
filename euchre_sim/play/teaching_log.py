"""Training's log of PIMC's decisions (`play.teaching`), in a record of its own.

A playout whose card players' work is a `TeachingWork` (a card player's `PimcWork` and the
log) asks PIMC at every decision and logs its card: the seat's features (`net_features`), the
candidates, PIMC's card and each candidate's mean points (`log_pimc_decision`). The playout
reads the record at three points, `card_work`, `keeps_log` and `log_choice`, each settled by
the record's type when a kernel is compiled (Numba's `overload`, registered through `core.jit`
when Numba loads): for a run-time `PimcWork` they are the work itself, False and nothing, so
that path neither carries a log nor checks for one. In Python they do the same.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..core.jit import njit, overload
from ..core.seats import team_of
from .net_features import GENERAL_LAYOUT, STANDARD_LAYOUT, NetLayout, encode, net_slots
from .pimc import PimcWork, discard_candidates, option_candidates
from .state import S_MAKER, settled


class TeachingWork(NamedTuple):
    """A card player's work that logs its PIMC decisions: rows of one layout
    (`log_width`), each decision's candidates valued by slot where `values` has rows, and
    count[0] the rows logged."""

    work: PimcWork
    log: np.ndarray
    values: np.ndarray
    count: np.ndarray


def log_width(nl: NetLayout) -> int:
    """A logged decision's columns: the logged features, the candidates by slot, PIMC's card."""
    return nl.n_logged + nl.n_slots + 1


def _teaching(work_type) -> bool:
    """Is a Numba type a TeachingWork's (the named tuple's class that Numba keeps)?"""
    from numba import types

    return isinstance(work_type, types.BaseNamedTuple) and \
        work_type.instance_class is TeachingWork


def card_work(work):
    """The card player's PimcWork: `work` itself, or a TeachingWork's."""
    return work.work if isinstance(work, TeachingWork) else work


@overload(card_work, inline="always")
def _card_work(work):
    if _teaching(work):
        return lambda work: work.work
    return lambda work: work


def keeps_log(work) -> bool:
    """Does `work` keep a log (so PIMC decides even where a learned player has its card)?"""
    return isinstance(work, TeachingWork)


@overload(keeps_log, inline="always")
def _keeps_log(work):
    logs = _teaching(work)
    return lambda work: logs


def log_choice(work, *decision):
    """Log PIMC's choice where `work` keeps a log (`log_pimc_decision`'s arguments but the
    last); nothing otherwise."""
    if isinstance(work, TeachingWork):
        log_pimc_decision(*decision, work)


@overload(log_choice)
def _log_choice(work, *decision):
    if _teaching(work):
        return lambda work, *decision: log_pimc_decision(*decision, work)
    return lambda work, *decision: None


@njit(nrt=False)
def log_pimc_decision(tb, at, discard, card, n_worlds, tw):
    """Log PIMC's `card` for at.seat's decision (a `state.Position`; discard: the dealer's)
    into tw's log, unless the decision is forced or, for a card, the hand is settled (the
    cases PIMC does not decide by its worlds); where tw keeps values, each candidate's mean
    points for the seat's side over its n_worlds worlds too (PIMC's sums, just made)."""
    lay, hands, st, pm, seat = at
    pw = tw.work
    cands = pw.candidates
    if discard:
        n = discard_candidates(lay, hands, st, pm, False, cands)
    else:
        n = option_candidates(lay, hands, st, pm, seat, False, cands)
        if settled(st):
            return
    if n == 1:
        return
    k = tw.count[0]
    log_decision(tb, at, discard, cands[:n], card, tw.log, tw.count, pw.net_work)
    if tw.values.shape[0] and tw.count[0] > k:
        side = 1.0 if team_of(seat) == team_of(st[S_MAKER]) else -1.0
        log_values(tw.values[k], pw.net_work.slots, cands, n, pw.sums, side / n_worlds)


@njit(nrt=False)
def log_decision(tb, at, discard, cands, card, log, log_n, nw):
    """Append at.seat's decision (its features, its candidates `cands` and the card chosen)
    to the log, a log of one layout (its width says which); nothing when the log is full or
    the deal is the other layout's."""
    _, hands, st, pm, seat = at
    k = log_n[0]
    if k >= log.shape[0]:
        return
    nl = GENERAL_LAYOUT
    if net_slots(tb, at, nw.slots, True, True) == 0:  # logged in the seat's order
        nl = STANDARD_LAYOUT
    if log.shape[1] != nl.n_logged + nl.n_slots + 1:
        return
    n = encode(tb, nl, at, discard, nw.slots, nw.active)
    row = log[k]
    row[:] = 0
    for i in range(n):
        if nw.active[i] < nl.n_logged:
            row[nw.active[i]] = 1
    for i in range(cands.shape[0]):
        row[nl.n_logged + nw.slots[cands[i]]] = 1
    row[nl.n_logged + nl.n_slots] = nw.slots[card]
    log_n[0] = k + 1


@njit(nrt=False)
def log_values(row, slots, cands, n_cands, sums, scale):
    """A logged decision's candidates valued into row (by slot, NaN where no candidate):
    each candidate's points summed over the worlds (`sums`), times `scale`."""
    row[:] = np.nan
    for i in range(n_cands):
        row[slots[cands[i]]] = sums[i] * scale
