"""Play-model throughput: complete hands per second on one core, bidding fixed (position 1,
the dealer's left, orders up the upcard; partnership play), after warm-up, median of runs.

Models: rules (the conventional player), pimc (K worlds per decision, default 50), and dd
(double-dummy play: one world, the true deal). References in the same run: the engine's
pure-Python rule player (strategies.TrumpCountStrategy) on the same deals, and PIMC's decisions per
second (decisions with more than one distinct card, points not yet settled: the ones that
sample and solve worlds). Also the mean points of the order-up under each model on the same
deals.
Env: BENCH_PLAY_HANDS (rules/dd hands per run, default 20000), BENCH_PIMC_HANDS (default 400).
"""

import json
import os
import statistics
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from euchre_sim.core.calls import Contract  # noqa: E402
from euchre_sim.core.cards import JOKER  # noqa: E402
from euchre_sim.core.dealing import Deal, deal_batch, deal_key, seed_to_u64  # noqa: E402
from euchre_sim.core.jit import njit  # noqa: E402
from euchre_sim.core.rules import build_rules  # noqa: E402
from euchre_sim.core.ruletables import compile_rules  # noqa: E402
from euchre_sim.play.models import play_model  # noqa: E402
from euchre_sim.play.net_weights import no_card_nets  # noqa: E402
from euchre_sim.play.pimc import inference_of, new_pimc_work  # noqa: E402
from euchre_sim.play.playout import new_play_work, play_contract  # noqa: E402
from euchre_sim.solver.search import new_tt  # noqa: E402

RUNS = 5
PIMC_RUNS = 3
HANDS = int(os.environ.get("BENCH_PLAY_HANDS", 20_000))
PIMC_HANDS = int(os.environ.get("BENCH_PIMC_HANDS", 400))
DEALER = 0


@njit
def _play_hands(model, tb, hands, ups, n_worlds, seed, tt, pws, out):
    cards = new_play_work((model, model), tb, n_worlds, pws)
    for i in range(hands.shape[0]):
        up = ups[i]
        if up == JOKER:  # Benny turned up: no round 1
            out[i] = -1
            continue
        out[i] = play_contract(cards, Deal(hands[i], up, DEALER), Contract(1, up >> 3, 0, 0),
                               (DEALER + 1) & 3, deal_key(seed, np.uint64(i)), tt)


def measure(tb, model, hands, ups, worlds, runs):
    """(hands/s, makers' tricks, searches/s, searched decisions/s, searched decisions/hand)."""
    rates, out = [], np.zeros(hands.shape[0], dtype=np.int64)
    searches, decisions = [], []
    for _ in range(runs):
        tt = new_tt()
        start = time.perf_counter()
        pw = new_pimc_work(inference_of(), no_card_nets())
        _play_hands(play_model(model).kernel, tb, hands, ups, worlds, seed_to_u64(1), tt, (pw, pw),
                    out)
        elapsed = time.perf_counter() - start
        rates.append(hands.shape[0] / elapsed)
        searches.append(tt.stats[3] / elapsed)
        decisions.append(tt.stats[4] / elapsed)
    per_hand = tt.stats[4] / hands.shape[0]
    return (statistics.median(rates), out.copy(), statistics.median(searches),
            statistics.median(decisions), per_hand)


def python_rule_player(rules, hands, ups, n):
    """The engine with the pure-Python TrumpCountStrategy for every seat, same bidding."""
    from euchre_sim.game.engine import Bid, HandState
    from euchre_sim.game.strategies import TrumpCountStrategy

    player = TrumpCountStrategy()
    start = time.perf_counter()
    for i in range(n):
        state = HandState(rules, DEALER, [int(h) for h in hands[i]], int(ups[i]))
        state.bid(Bid(state.turn, 1, "order_up", int(ups[i]) >> 3, False))
        state.discard(player.discard(state))
        state.defend(None)
        while state.phase == "play":
            state.play(state.turn, player.play(state, state.turn))
    return n / (time.perf_counter() - start)


def main():
    rules = build_rules("standard")
    tb = compile_rules(rules)
    hands, ups = deal_batch(rules, 1, 0, HANDS, DEALER)
    small_h, small_u = hands[:PIMC_HANDS], ups[:PIMC_HANDS]
    for model in ("rules", "dd", "pimc"):  # warm-up: compile or load the cache
        measure(tb, model, hands[:20], ups[:20], 50, 1)
    result = {"hands_rules_dd": HANDS, "hands_pimc": PIMC_HANDS, "runs": RUNS,
              "pimc_runs": PIMC_RUNS, "bidding": "position 1 orders up, partnership"}
    points = {}
    for model, h, u, runs in (("rules", hands, ups, RUNS), ("dd", hands, ups, RUNS),
                              ("pimc", small_h, small_u, PIMC_RUNS)):
        rate, tricks, searches, decisions, per_hand = measure(tb, model, h, u, 50, runs)
        result[f"{model}_hands_per_s"] = round(rate, 1)
        if model != "rules":
            result[f"{model}_searches_per_s"] = round(searches, 0)
            result[f"{model}_searched_decisions_per_s"] = round(decisions, 1)
            result[f"{model}_searched_decisions_per_hand"] = round(per_hand, 2)
        points[model] = tb.score[0, 0, tricks]
    for k in (10, 20):
        rate = measure(tb, "pimc", small_h, small_u, k, PIMC_RUNS)[0]
        result[f"pimc_k{k}_hands_per_s"] = round(rate, 1)
    n_py = min(HANDS, 2000)
    py = statistics.median(python_rule_player(rules, hands, ups, n_py) for _ in range(3))
    result["python_rule_player_hands_per_s"] = round(py, 1)
    result["rules_vs_python_rule_player"] = round(result["rules_hands_per_s"] / py, 1)
    result["pimc_vs_dd_time_ratio"] = round(result["dd_hands_per_s"]
                                            / result["pimc_hands_per_s"], 1)
    n = PIMC_HANDS
    result["mean_points_same_deals"] = {m: round(float(points[m][:n].mean()), 3)
                                        for m in points}
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
