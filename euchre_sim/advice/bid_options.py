"""Every option of one bid (pass, and each order or call, alone or not) valued in points to the
bidding seat's side, as a review needs it.

`dd`: the true deal, every card seen: a call by its contract solved (the dealer discarding
best for its side, a defender defending alone when that pays), a pass by the rest of the
auction under the review's bidder, then solved. `pimc`: `advise --bidding B` with K deals
from what the seat knew (its hand, the card turned up or down, the passes before it under
the bidder), each solved.
"""

from __future__ import annotations

import numpy as np

from ..core.calls import may_pass
from ..core.cards import JOKER
from ..core.errors import UserError
from ..core.ruletables import compile_rules
from ..core.seats import seat_at, side_sign
from ..game.engine import HandState
from ..play.player import Player
from ..sim.chunk import SIM_DEALER, run_auctions
from ..solver.calltable import analyze_deals
from .auction_advice import advise_in_auction, turn_of
from .question import AdviceQuestion, call_actions


def bid_question(state: HandState, player: Player, deals: int, seed: int) -> AdviceQuestion:
    """The `advise --bidding` question of the seat to bid, `player` bidding (its model the
    solver's: each deal solved)."""
    deck = state.rules.card_deck
    card = deck.card_name(state.upcard)
    round_card = {"up": card} if state.round == 1 else {"turned_down": card}
    return AdviceQuestion(state.rules, deck.format_hand(state.hands[state.turn]),
                          state.position(state.turn), deals=deals, seed=seed, player=player,
                          **round_card)


def _option(action: str, suit, alone: bool) -> dict:
    return {"action": action, "suit": suit, "alone": alone}


def bid_options(state: HandState, question: AdviceQuestion, deals: list[list[int]],
                advised: bool = True) -> list[dict]:
    """The seat's bid options: `option` ({"action", "suit", "alone"}), `dd` (the mean over
    `deals`: the true deal, or deals with a record's hidden cards sampled; None when empty),
    `pimc` and `pimc_se` (None unless `advised`: the seat's own hand is known)."""
    rules = state.rules
    q = question.cards
    sampled = {}
    if advised:
        try:
            advice = advise_in_auction(question)
            sampled = {(a["action"], a["suit"], a["alone"]): a for a in advice["actions"]}
        except UserError:  # the bidder never lets the auction reach this seat from its hand
            pass
    exact: dict = {}
    for dealt in deals:
        for key, value in _deal_values(state, question, dealt).items():
            exact[key] = exact.get(key, 0.0) + value / len(deals)
    options = []
    keys = [("pass", None, False)] if may_pass(compile_rules(rules).flags, q.round_no,
                                               q.position) else []
    keys += [(action, rules.card_deck.suit_name(trump), alone)
             for action, trump, alone, _ in call_actions(rules, q.round_no, q.position,
                                                         q.ref_card)]
    for key in keys:
        advice = sampled.get(key)
        options.append({"option": _option(*key), "dd": exact.get(key),
                        "pimc": advice["mean_points"] if advice else None,
                        "pimc_se": advice["points_se"] if advice else None})
    return options


def _deal_values(state: HandState, question: AdviceQuestion, dealt: list[int]) -> dict:
    """Each option's points to the seat's side on the deal `dealt` (by seat; the dealer
    turned to SIM_DEALER as the auction kernels read it)."""
    rules, q = question.rules, question.cards
    if state.upcard == JOKER and q.round_no == 1:
        return {}
    hands = np.zeros((1, 4), dtype=np.uint64)
    for position in range(1, 5):
        hands[0, seat_at(SIM_DEALER, position)] = dealt[seat_at(state.dealer, position)]
    ups = np.array([state.upcard], dtype=np.int64)
    calls = analyze_deals(rules, hands, ups, SIM_DEALER, exact=True, defence=True)
    auction = run_auctions(rules, question.player.record(), hands, ups, calls)[0]
    out = {("pass", None, False): float(side_sign(seat_at(SIM_DEALER, q.position))
                                        * auction.values[0, turn_of(question) + 1])}
    for action, trump, alone, row in call_actions(rules, q.round_no, q.position, q.ref_card):
        out[(action, rules.card_deck.suit_name(trump), alone)] = float(
            auction.contracts[0, row, 0])
    return out
