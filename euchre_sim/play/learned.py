"""The learned card player (`--play learned`): PIMC's decision rule with the net's scores in
place of the worlds (see `card_net`). A forced card is played, a settled hand takes the
conventional player's card, as PIMC does; elsewhere the candidate the net scores highest.
Where the net does not know the deal, the answer is -1 and the caller asks PIMC."""

from __future__ import annotations

from ..core.jit import njit
from .card_net import log_decision, net_choice
from .conventional import conventional_card
from .pimc import discard_candidates, option_candidates, option_of
from .state import S_DEALER, settled


@njit(_nrt=False)
def learned_card(tb, lay, hands, st, pm, seat, pw):
    """The card (power bit) `seat` plays by the net of pw (-1: the net does not apply)."""
    cands = pw.candidates
    n = option_candidates(lay, hands, st, pm, seat, False, cands)
    if n == 1:
        return cands[0]
    if settled(st):
        return option_of(lay, hands, st, pm, seat, conventional_card(lay, hands, st, pm, seat))
    return net_choice(tb, hands, st, pm, seat, False, cands, n, pw.net, pw.net_work)


@njit(_nrt=False)
def learned_discard(tb, lay, hands, st, pm, pw):
    """The dealer's discard by the net of pw (-1: the net does not apply)."""
    cands = pw.candidates
    n = discard_candidates(lay, hands, st, pm, False, cands)
    if n == 1:
        return cands[0]
    return net_choice(tb, hands, st, pm, st[S_DEALER], True, cands, n, pw.net, pw.net_work)


@njit(_nrt=False)
def log_pimc_decision(tb, lay, hands, st, pm, seat, discard, card, pw):
    """Log PIMC's `card` for `seat`'s decision into pw's log, unless the decision is forced
    or, for a card, the hand is settled (the cases PIMC does not decide by its worlds)."""
    cands = pw.candidates
    if discard:
        n = discard_candidates(lay, hands, st, pm, False, cands)
    else:
        n = option_candidates(lay, hands, st, pm, seat, False, cands)
        if settled(st):
            return
    if n > 1:
        log_decision(tb, hands, st, pm, seat, discard, cands, n, card, pw.log, pw.log_n,
                     pw.net_work)
