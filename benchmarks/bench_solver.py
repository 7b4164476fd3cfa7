"""Double-dummy solver throughput on a fixed seeded set of deals (one core, after warm-up).

Prints JSON: exact solves per second averaged over a deal's table (four trumps x partnership
and the four loners), four-hand and lone-hand solves separately, exact and by the makers'
scoring class (made?, then marched? when made: as simulations ask of a call), with
microseconds and nodes per solve, full-deal analyses per second (the dealer's discard layer
included), and the brute-force minimax of tests/naive.py timed in the same run.
"""

import json
import os
import statistics
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from euchre_sim.core.dealing import deal_batch  # noqa: E402
from euchre_sim.core.jit import njit  # noqa: E402
from euchre_sim.core.rules import build_rules  # noqa: E402
from euchre_sim.core.ruletables import compile_rules  # noqa: E402
from euchre_sim.solver.calltable import analyze_deals  # noqa: E402
from euchre_sim.solver.search import (  # noqa: E402
    at_least,
    exact_tricks,
    new_tt,
    new_work,
    to_power,
)
from tests.naive import brute_force_ns_tricks  # noqa: E402

RUNS = 5
DEALS = 1000
ANALYSIS_DEALS = 1000
REFERENCE_SOLVES = 12


@njit
def _class_tricks(tb, trump, hands, leader, active, team, tt, work):
    """The makers' (`team`'s) scoring class as a representative count: euchred 1 | made 3 |
    marched 5, by zero-window searches: made?, then marched? when made (what a simulation asks
    of a call)."""
    def makers_at_least(k):
        if team == 0:
            return at_least(tb, trump, hands, leader, active, k, tt, work)
        return not at_least(tb, trump, hands, leader, active, 6 - k, tt, work)

    if makers_at_least(3):
        return 5 if makers_at_least(5) else 3
    return 1


@njit
def _table_solves(tb, hands, which, exact, tt, out):
    """which: 0 every config, 1 four hands only, 2 loners only; exact or the scoring class of
    the makers (seat 0's side, or the loner's). Returns solves done."""
    work = new_work()
    k = 0
    for d in range(hands.shape[0]):
        for trump in range(4):
            for alone in range(-1, 4):
                if (which == 1 and alone >= 0) or (which == 2 and alone < 0):
                    continue
                active = 15
                if alone >= 0:
                    active &= ~(1 << ((alone + 2) % 4))
                leader = 1
                while not (active >> leader) & 1:
                    leader = (leader + 1) % 4
                hp = to_power(tb, trump, hands[d], active)
                if exact:
                    out[k] = exact_tricks(tb, trump, hp, leader, active, tt, work)
                else:
                    out[k] = _class_tricks(tb, trump, hp, leader, active,
                                           0 if alone < 0 else alone & 1, tt, work)
                k += 1
    return k


def measure(tb, hands, which, exact=True):
    rates, nodes = [], []
    out = np.zeros(hands.shape[0] * 20, dtype=np.int64)
    for _ in range(RUNS):
        tt = new_tt()
        start = time.perf_counter()
        n = _table_solves(tb, hands, which, exact, tt, out)
        rates.append(n / (time.perf_counter() - start))
        nodes.append(tt.stats[2] / n)
    rate = statistics.median(rates)
    return {"solves_per_s": round(rate), "us_per_solve": round(1e6 / rate, 2),
            "nodes_per_solve": round(statistics.median(nodes), 1)}


def main() -> None:
    rules = build_rules("standard")
    tb = compile_rules(rules)
    hands, ups = deal_batch(rules, 2024, 0, DEALS)
    for exact in (True, False):
        _table_solves(tb, hands[:5], 0, exact, new_tt(), np.zeros(100, dtype=np.int64))
    analyze_deals(rules, hands[:5], ups[:5], 0, exact=False, tt=new_tt())
    report = {"benchmark": "solver", "runs": RUNS, "deals": DEALS, "rules": "standard",
              "table": measure(tb, hands, 0), "four_hands": measure(tb, hands, 1),
              "loners": measure(tb, hands, 2),
              "four_hands_class": measure(tb, hands, 1, exact=False),
              "loners_class": measure(tb, hands, 2, exact=False)}
    for label, exact in (("full_deal_analysis", False), ("full_deal_analysis_exact", True)):
        rates = []
        for _ in range(RUNS):
            start = time.perf_counter()
            analyze_deals(rules, hands[:ANALYSIS_DEALS], ups[:ANALYSIS_DEALS], 0, exact=exact,
                          tt=new_tt())
            rates.append(ANALYSIS_DEALS / (time.perf_counter() - start))
        report[label] = {"deals_per_s": round(statistics.median(rates))}
    start = time.perf_counter()
    for i in range(REFERENCE_SOLVES):
        brute_force_ns_tricks([int(h) for h in hands[i]], i % 4, 1, [True] * 4, False)
    reference = REFERENCE_SOLVES / (time.perf_counter() - start)
    report["brute_force_reference"] = {"solves_per_s": round(reference, 2),
                                       "solves": REFERENCE_SOLVES}
    report["speedup_vs_reference_four_hands"] = round(
        report["four_hands"]["solves_per_s"] / reference)
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
