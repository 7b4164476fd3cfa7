"""The learned card player (`--play learned`): PIMC's decision rule with the net's scores in
place of the worlds (see `net_inference`). A forced card is played, a settled hand takes the
conventional player's card, as PIMC does; elsewhere the candidate the net scores highest.
With search on top (`searched_card`, `--play learned-search`), where other candidates score
within SEARCH_MARGIN of it (a close call), PIMC decides among those candidates only. Where
the player has no net for the deal (the standard or the general one), the answer is -1 and the
caller asks PIMC."""

from __future__ import annotations

import numpy as np

from ..core.jit import njit
from .conventional import conventional_card
from .models import SEARCH_MARGIN
from .net_inference import close_calls, net_choice
from .pimc import Worlds, discard_candidates, option_candidates, option_of, pimc_among
from .state import S_DEALER, Position, next_decision_key, settled


@njit(nrt=False)
def learned_card(tb, lay, hands, st, pm, seat, pw):
    """The card (power bit) `seat` plays by the net of pw (-1: pw has no net for the deal)."""
    return _net_card(tb, lay, hands, st, pm, seat, pw)[0]


@njit(nrt=False)
def learned_discard(tb, lay, hands, st, pm, pw):
    """The dealer's discard by the net of pw (-1: pw has no net for the deal)."""
    return _net_discard(tb, lay, hands, st, pm, pw)[0]


@njit(nrt=False)
def searched_card(tb, at, n_worlds, key, tt, pw):
    """`learned_card` for the Position `at`, its close calls (candidates within SEARCH_MARGIN
    of the net's best) decided by PIMC among them over n_worlds worlds from the hand's
    `key`."""
    lay, hands, st, pm, seat = at
    best, n = _net_card(tb, lay, hands, st, pm, seat, pw)
    return _settle(tb, at, np.bool_(False), best, n, Worlds(n_worlds, key, False), tt, pw)


@njit(nrt=False)
def searched_discard(tb, at, n_worlds, key, tt, pw):
    """`learned_discard` (at.seat: the dealer), its close calls decided as
    `searched_card`'s."""
    lay, hands, st, pm, _ = at
    best, n = _net_discard(tb, lay, hands, st, pm, pw)
    return _settle(tb, at, np.bool_(True), best, n, Worlds(n_worlds, key, False), tt, pw)


@njit(nrt=False)
def _net_card(tb, lay, hands, st, pm, seat, pw):
    """The net's card and how many candidates it chose from (1: forced or settled)."""
    cands = pw.candidates
    n = option_candidates(lay, hands, st, pm, seat, False, cands)
    if n == 1:
        return cands[0], 1
    if settled(st):
        return option_of(lay, hands, st, pm, seat,
                         conventional_card(lay, hands, st, pm, seat)), 1
    # np.bool_, not a literal: a literal compiles the net's choice once more
    return net_choice(tb, Position(lay, hands, st, pm, seat), np.bool_(False), cands, n,
                      pw.nets, pw.net_work), n


@njit(nrt=False)
def _net_discard(tb, lay, hands, st, pm, pw):
    """The net's discard and how many candidates it chose from."""
    cands = pw.candidates
    n = discard_candidates(lay, hands, st, pm, False, cands)
    if n == 1:
        return cands[0], 1
    return net_choice(tb, Position(lay, hands, st, pm, st[S_DEALER]), np.bool_(True), cands,
                      n, pw.nets, pw.net_work), n


@njit(nrt=False)
def _settle(tb, at, discard, best, n, hand_worlds, tt, pw):
    """The net's `best` of pw's n candidates, or PIMC's choice among those it scored within
    SEARCH_MARGIN of it, over `hand_worlds` (`Worlds`, the hand's key: the decision's is
    drawn from it)."""
    if best < 0 or n == 1:
        return best
    close = close_calls(pw.net_work, pw.candidates, n, best, SEARCH_MARGIN)
    if close == 1:
        return best
    worlds = Worlds(hand_worlds.n_worlds, next_decision_key(hand_worlds.key, at.st), False)
    return pimc_among(tb, at, discard, close, worlds, best, tt, pw)
