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

import euchre_sim
from euchre_sim.core.rules import build_rules
from euchre_sim.report.query import class_regret

RUNS = 3
ITERATIONS = 4
DEALS = int(os.environ.get("BENCH_DEALS", "50000"))
FEATURES = ("trumps", "right", "left", "aces", "voids")


def simulate(rules, out: str, seed: int, deals: int, bidding=None, table_dir=None) -> dict:
    """A run through the API on one worker, its bidder's default parameters; its
    run.json with the deals a second."""
    start = time.perf_counter()
    run = euchre_sim.simulate(deals, out=out, seed=seed, rules=rules, workers=1,
                              bidding=bidding, bidder_table=table_dir)
    return run.info | {"deals_per_second": deals / (time.perf_counter() - start)}


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
    """`advise` through the API, double dummy: plain, and in the auction of dd bidders."""
    def answer(seat: int, deals: int, bidding: str | None = None) -> dict:
        return euchre_sim.advise("JS AS 9H 9D TC", up="9S", seat=seat, rules=rules,
                                 deals=deals, play="dd", bidding=bidding).to_dict()

    answer(1, 200)  # warm the caches
    answer(4, 200, "dd")
    out = {}
    for label, run in (
            ("plain_seat1", lambda: answer(1, 20_000)),
            ("bidding_dd_seat1", lambda: answer(1, 20_000, "dd")),
            ("bidding_dd_seat4", lambda: answer(4, 20_000, "dd"))):
        times = []
        for _ in range(RUNS):
            start = time.perf_counter()
            result = run()
            times.append(time.perf_counter() - start)
        out[label] = {"seconds": statistics.median(times),
                      "reached": 1.0 if result.get("reached") is None else result["reached"]}
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
