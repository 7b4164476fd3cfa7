"""What PIMC's inference from the auction and the discard changes (not a timing benchmark).

Prints JSON:
- the lone hand JS KS QS TS 9S, AS up, seat 3 alone, over the same deals where seats 1 and 2
  pass under the rules bidder: march rate and mean points of the lone call under PIMC with
  and without inference, and double dummy beside them;
- a probe deal: dealer N holds AH KH 9D TC QC, takes the AS and throws the 9D; W (seat 3)
  is alone with JS KS QS TS 9S; S, the dealer's partner, leads first. Leading a diamond lets
  the dealer ruff the loner's low trump with the AS; clubs do not. How often S leads each suit
  in RUNS decisions with and without inference;
- how often inference found its worlds and how often it fell back;
- head to head, teams swapped: on BENCH_MATCH deals (default 1,000) the rules bidder's contract
  is played out twice by PIMC, once with NS inferring and EW not, once the other way round;
  the inferring side's mean points per deal over the two, with its paired standard error.
BENCH_DEALS sets the deals of the lone hand (default 400), BENCH_WORLDS the worlds (50).
"""

import json
import os

import numpy as np
from contract_play import duplicate_gains

from euchre_sim.advice.auction_advice import advise_in_auction
from euchre_sim.advice.question import AdviceQuestion
from euchre_sim.core.bits import one_bit
from euchre_sim.core.rules import build_rules
from euchre_sim.core.ruletables import compile_rules
from euchre_sim.core.stats import mean_se
from euchre_sim.play.net_weights import no_card_nets
from euchre_sim.play.pimc import Worlds, inference_of, new_pimc_work, pimc_card
from euchre_sim.play.player import Player
from euchre_sim.play.state import (
    S_DISCARD,
    S_MAKER_TURN,
    S_UPCARD,
    Position,
    StateStart,
    new_state,
)
from euchre_sim.solver.search import new_tt

DEALS = int(os.environ.get("BENCH_DEALS", "400"))
MATCH = int(os.environ.get("BENCH_MATCH", "1000"))
WORLDS = int(os.environ.get("BENCH_WORLDS", "50"))
RUNS = 20


def lone_hand(rules) -> dict:
    out = {}
    for label, play, infer in (("pimc_inference", "pimc", True), ("pimc_plain", "pimc", False),
                               ("dd", "dd", False)):
        result = advise_in_auction(AdviceQuestion(rules, "JS KS QS TS 9S", 3, up="AS",
                                                  deals=DEALS, seed=1, infer=infer,
                                                  player=Player("rules", play, WORLDS)))
        lone = next(a for a in result["actions"] if a["action"] == "order_up" and a["alone"])
        out[label] = {"deals": result["deals"], "march_rate": lone["march_rate"],
                      "make_rate": lone["make_rate"], "mean_points": lone["mean_points"],
                      "points_se": lone["points_se"], "worlds": result["inference"]}
    return out


def probe_leads(rules) -> dict:
    tb = compile_rules(rules)
    deck = rules.card_deck
    trump = deck.parse_suit("S")
    dealer, loner, leader = 0, 3, 2  # N deals; W (position 3) alone; E sits out; S leads
    held = {0: "AH KH TC QC AS", 2: "AC KC AD KD 9H", 3: "JS KS QS TS 9S"}
    hands = np.zeros(4, dtype=np.uint64)
    for seat, text in held.items():
        for card in deck.parse_cards(text):
            hands[seat] |= one_bit(tb.power_bit[trump, card])
    active = 0b1101  # E out
    up = int(tb.power_bit[trump, deck.parse_card("AS")])
    counts = {}
    for label, inference in (("inference", inference_of(Player("rules").record())),
                             ("plain", inference_of())):
        suits = {}
        pw = new_pimc_work(inference, no_card_nets())
        for run in range(RUNS):
            st, pm = new_state(StateStart(trump, dealer, loner, 1, 0, active, leader, up,
                                          np.uint64(0)))
            st[S_DISCARD] = tb.power_bit[trump, deck.parse_card("9D")]
            st[S_UPCARD] = deck.parse_card("AS")
            st[S_MAKER_TURN] = 2  # round 1, position 3
            p = pimc_card(tb, Position(tb.layout[trump], hands.copy(), st, pm, leader),
                          Worlds(WORLDS, np.uint64(run + 1), False), new_tt(), pw)
            suit = deck.card_name(int(tb.power_card[trump, p]))[-1]
            suits[suit] = suits.get(suit, 0) + 1
        counts[label] = {"leads": suits, "worlds": [int(x) for x in inference[2]]}
    return counts


def head_to_head(rules) -> dict:
    """The inferring side's points per deal against the plain one, teams swapped."""
    inferring = new_pimc_work(inference_of(Player("rules").record()), no_card_nets())
    plain = new_pimc_work(inference_of(), no_card_nets())
    gains = duplicate_gains(rules, inferring, plain, MATCH, 7, WORLDS)
    mean, se = mean_se(gains)
    return {"deals_played": len(gains), "inferring_side_points_per_deal": mean, "se": se,
            "worlds_inferring": [int(x) for x in inferring.inference.counters]}


if __name__ == "__main__":
    rules = build_rules("standard")
    print(json.dumps({"deals": DEALS, "worlds": WORLDS, "lone_hand": lone_hand(rules),
                      "probe_first_lead": probe_leads(rules),
                      "head_to_head": head_to_head(rules)}, indent=2))
