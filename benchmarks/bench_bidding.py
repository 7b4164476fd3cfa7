"""The auction's cost and policy iteration with the table bidder.

Prints JSON:
- simulate on one worker (start-up and merge included, median of RUNS): deals/s without
  --bidding (the yardstick) and with --bidding rules and dd, and their ratios (goal >= 0.8);
- advise --bidding dd with 20,000 kept deals, warm: seconds for the eldest seat (every deal
  reaches it) and for the dealer in round 1 (rejection sampling), beside plain advise on the
  same hand as the yardstick;
- policy iteration: simulate --bidding rules, then --bidding table reading the previous run,
  ITERATIONS times (a new seed each run): per run the class regret of the bidder by summary
  features (n-weighted gap between the best action of a feature class and the bidder's mix,
  over classes whose actions all have >= 100 deals), the pass-out rate and the dealer side's
  points per deal.
BENCH_DEALS sets the simulated deals (default 50,000).
"""

import json
import os
import shutil
import statistics
import tempfile
import time

import pandas as pd

from euchre_sim.advice.advice_request import answer
from euchre_sim.advice.question import AdviceQuestion
from euchre_sim.bidding.params import bidder_weights
from euchre_sim.core.rules import build_rules
from euchre_sim.play.player import Player
from euchre_sim.report.query import class_regret
from euchre_sim.sim.simulate import RunPlan, finish_run, prepare_run, run_local

RUNS = 3
ITERATIONS = 4
DEALS = int(os.environ.get("BENCH_DEALS", "50000"))
PARAMS = bidder_weights()
FEATURES = ("trumps", "right", "left", "aces", "voids")


def simulate(rules, out: str, seed: int, deals: int, bidding=None, table_dir=None) -> dict:
    start = time.perf_counter()
    params = PARAMS if bidding in ("rules", "table") else ()
    plan = prepare_run(RunPlan(out, rules, seed, deals,
                               player=Player(bidding, weights=params, table_dir=table_dir)))
    run_local(plan, 1, lambda n: None)
    info = finish_run(plan, time.perf_counter() - start, 1)
    info["deals_per_second"] = deals / (time.perf_counter() - start)
    return info


def throughput(rules, tmp: str) -> dict:
    rates = {}
    for bidding in (None, "rules", "dd"):
        runs = []
        for r in range(RUNS):
            out = os.path.join(tmp, f"t-{bidding}-{r}")
            runs.append(simulate(rules, out, 1, DEALS, bidding)["deals_per_second"])
            shutil.rmtree(out)
        rates[bidding or "none"] = statistics.median(runs)
    return {"deals_per_second": rates,
            "ratio_rules": rates["rules"] / rates["none"],
            "ratio_dd": rates["dd"] / rates["none"]}


def advise_times(rules) -> dict:
    hand = "JS AS 9H 9D TC"
    def asked(seat: int, deals: int, bidding: str | None = None) -> AdviceQuestion:
        return AdviceQuestion(rules, hand, seat, up="9S", deals=deals, player=Player(bidding))

    answer(asked(1, 200))  # warm the caches
    answer(asked(4, 200, "dd"))
    out = {}
    for label, run in (
            ("plain_seat1", lambda: answer(asked(1, 20_000))),
            ("bidding_dd_seat1", lambda: answer(asked(1, 20_000, "dd"))),
            ("bidding_dd_seat4", lambda: answer(asked(4, 20_000, "dd")))):
        times = []
        for _ in range(RUNS):
            start = time.perf_counter()
            result = run()
            times.append(time.perf_counter() - start)
        out[label] = {"seconds": statistics.median(times), "reached": result.get("reached", 1.0)}
    return out


def policy_iteration(rules, tmp: str) -> list[dict]:
    rows = []
    previous = None
    for i in range(ITERATIONS):
        out = os.path.join(tmp, f"pi-{i}")
        bidding = "rules" if previous is None else "table"
        info = simulate(rules, out, 100 + i, DEALS, bidding, previous)
        decisions = pd.read_parquet(os.path.join(out, "decisions.parquet"))
        regret = class_regret(decisions, 100, FEATURES)
        rows.append({"iteration": i, "bidding": bidding, "feature_class_regret": regret["regret"],
                     "feature_classes": regret["classes"],
                     "pass_out_rate": info["auction"]["pass_out_rate"],
                     "dealer_side_points_per_deal": info["auction"]["points_per_deal"]["4"]})
        previous = out
    return rows


if __name__ == "__main__":
    rules = build_rules("standard")
    tmp = tempfile.mkdtemp(prefix="bench-bid-")
    try:
        simulate(rules, os.path.join(tmp, "warm"), 1, 2000, "dd")  # compile
        print(json.dumps({"deals": DEALS, "simulate_one_worker": throughput(rules, tmp),
                          "advise_20000_deals": advise_times(rules),
                          "policy_iteration": policy_iteration(rules, tmp)}, indent=2))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
