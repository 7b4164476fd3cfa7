"""The engine's bids: what `bid` accepts and what `legal_bids` lists are both exactly the calls
the rules texts open (tests/naive.open_calls) and a pass unless the dealer is stuck."""

import copy
import random

import pytest

from euchre_sim.core.calls import N_TRUMPS
from euchre_sim.core.dealing import deal_one
from euchre_sim.core.seats import position_of
from euchre_sim.game.engine import Bid, HandState, IllegalMove

from .conftest import RULE_SETS
from .naive import open_calls


def _expected(state: HandState) -> set[tuple[str, int | None, bool]]:
    rules, rnd = state.rules, state.round
    pos = position_of(state.dealer, state.turn)
    action = "order_up" if rnd == 1 else "call"
    bids = {(action, trump, alone) for trump, alone in open_calls(rules, rnd, pos, state.upcard)}
    if not (rnd == 2 and pos == 4 and rules.stick_the_dealer):
        bids.add(("pass", None, False))
    return bids


def _accepted(state: HandState) -> set[tuple[str, int | None, bool]]:
    accepted = set()
    for action in ("pass", "order_up", "call"):
        for suit in (None, *range(N_TRUMPS)):
            for alone in (False, True):
                trial = copy.deepcopy(state)
                try:
                    trial.bid(Bid(state.turn, state.round, action, suit, alone))
                except IllegalMove:
                    continue
                named = {"pass": None,  # a pass names no suit, whatever it carries
                         "order_up": state.upcard >> 3,  # may be left out: only this one
                         "call": suit}[action]
                accepted.add((action, named, alone))
    return accepted


@pytest.mark.parametrize("name", sorted(RULE_SETS))
def test_bids_accepted_and_listed_are_the_calls_the_rules_open(name):
    rules = RULE_SETS[name]
    rng = random.Random(name)
    for deal in range(6):
        dealer = deal % 4
        hands, upcard = deal_one(rules, 11, deal, dealer=dealer)
        state = HandState(rules, dealer, [int(h) for h in hands], int(upcard))
        while state.phase == "bid":
            expected = _expected(state)
            listed = {(b.action, b.suit, b.alone) for b in state.legal_bids()}
            assert listed == expected
            assert _accepted(state) == expected
            passes = [b for b in state.legal_bids() if b.action == "pass"]
            state.bid(passes[0] if passes and rng.random() < 0.8 else rng.choice(
                state.legal_bids()))
