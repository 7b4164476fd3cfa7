"""Double-dummy solver throughput on a fixed seeded set of deals (one core, after warm-up).

Prints JSON: exact solves per second averaged over a deal's table (four trumps x partnership
and the four loners), four-hand and lone-hand solves separately, exact and by the makers'
scoring class (made?, then marched? when made: as simulations ask of a call), with
microseconds and nodes per solve, full-deal analyses per second (the dealer's discard layer
included), and the brute-force minimax of tests/naive.py timed in the same run.

`--peer PATH` also times a public solver side by side on the same deals and configurations:
a file kept outside this repository (the Numba solver `bitcore.py` of
github.com/jamesterrell/Euchre_Calculator, entry `solve_canon`; the issue's yardstick is its
version 0ab7141, whose fastest table is 2^16 entries: `--peer-tt-bits`), loaded at run time,
checked to agree with ours on every solve, timed in passes that alternate with ours, and
reported with the ratio of the two medians.
"""

import argparse
import importlib
import json
import os
import statistics
import sys
import time

import numba
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from euchre_sim.core.calls import opening_leader  # noqa: E402
from euchre_sim.core.dealing import deal_batch  # noqa: E402
from euchre_sim.core.jit import njit  # noqa: E402
from euchre_sim.core.rules import build_rules  # noqa: E402
from euchre_sim.core.ruletables import compile_rules  # noqa: E402
from euchre_sim.solver.calltable import analyze_deals, team_at_least  # noqa: E402
from euchre_sim.solver.search import (  # noqa: E402
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
PEER_TT_BITS = 16  # the fastest table size of the peer's version the issue measured (0ab7141)


@njit
def _class_tricks(lay, hands, leader, active, team, tt, work):
    """The makers' (`team`'s) scoring class as a representative count: euchred 1 | made 3 |
    marched 5, by zero-window searches: made?, then marched? when made (what a simulation asks
    of a call)."""
    if team_at_least(lay, hands, leader, active, team, 3, tt, work):
        return 5 if team_at_least(lay, hands, leader, active, team, 5, tt, work) else 3
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
                leader = opening_leader(0, active, alone, False)  # dealer N
                hp = work[2]
                to_power(tb, trump, hands[d], active, hp)
                if exact:
                    out[k] = exact_tricks(tb.layout[trump], hp, leader, active, tt, work)
                else:
                    out[k] = _class_tricks(tb.layout[trump], hp, leader, active,
                                           0 if alone < 0 else alone & 1, tt, work)
                k += 1
    return k


def run_ours(tb, hands, which, exact, out):
    """One timed pass over the solves: (solves per second, nodes per solve, solves)."""
    tt = new_tt()
    start = time.perf_counter()
    n = _table_solves(tb, hands, which, exact, tt, out)
    return n / (time.perf_counter() - start), tt.stats[2] / n, n


def figures(runs):
    """Medians of several passes (run_ours / run_peer results) as the report's figures."""
    rate = statistics.median(r[0] for r in runs)
    return {"solves_per_s": round(rate), "us_per_solve": round(1e6 / rate, 2),
            "nodes_per_solve": round(statistics.median(r[1] for r in runs), 1)}


def measure(tb, hands, which, exact=True):
    out = np.zeros(hands.shape[0] * 20, dtype=np.int64)
    runs = [run_ours(tb, hands, which, exact, out) for _ in range(RUNS)]
    n = runs[0][2]
    return figures(runs), out[:n]


def makers_scores(out, hands, which, exact):
    """Our results as the makers' points (-2 euchred | 1 | 2 march | 4 lone march), in the
    order `_table_solves` writes them: what the peer's solver returns."""
    scores = []
    k = 0
    for _ in range(hands.shape[0]):
        for _trump in range(4):
            for alone in range(-1, 4):
                if (which == 1 and alone >= 0) or (which == 2 and alone < 0):
                    continue
                tricks = int(out[k])
                if exact and alone >= 0 and alone & 1:
                    tricks = 5 - tricks
                scores.append(-2 if tricks < 3 else 1 if tricks < 5 else 2 if alone < 0 else 4)
                k += 1
    return scores

def load_peer(path):
    """The public solver's module from a file outside this repository (side-by-side runs)."""
    folder, name = os.path.split(os.path.abspath(path))
    sys.path.insert(0, folder)  # imported by its own name, so Numba's cache can find it again
    return importlib.import_module(name.removesuffix(".py"))


def peer_hands(hands, trump, peer):
    """Our deals as the peer's canonical masks for `trump` (its ids: suit * 6 + rank, 9..A)."""
    out = np.zeros((hands.shape[0], 4), dtype=np.int64)
    for d in range(hands.shape[0]):
        for s in range(4):
            natural = 0
            for card in range(32):
                if (int(hands[d, s]) >> card) & 1:
                    natural |= 1 << ((card // 8) * 6 + card % 8 - 2)
            out[d, s] = peer.to_canon(np.int64(natural), trump)
    return out


def peer_solver_loop(peer):
    """A jitted loop over the same configurations as `_table_solves`, through the peer's
    `solve_canon` (its score: -2 | 1 | 2 | 4 for the caller's side); exact = one full-window
    solve, else its scoring class by two zero-window solves (made?, then marched?)."""
    solve = peer.solve_canon

    @numba.njit
    def loop(canon, which, exact, tt, ttmask, nodes, stk, out):
        k = 0
        for d in range(canon.shape[1]):
            for trump in range(4):
                h = canon[trump, d]
                for alone in range(-1, 4):
                    if (which == 1 and alone >= 0) or (which == 2 and alone < 0):
                        continue
                    caller = 0 if alone < 0 else alone
                    lone = 0 if alone < 0 else 1
                    if exact:
                        out[k] = solve(h[0], h[1], h[2], h[3], 1, caller, lone, tt, ttmask,
                                       nodes, stk, -1000, 1000)
                    else:
                        v = solve(h[0], h[1], h[2], h[3], 1, caller, lone, tt, ttmask, nodes,
                                  stk, 0, 1)
                        if v >= 1:
                            v = solve(h[0], h[1], h[2], h[3], 1, caller, lone, tt, ttmask,
                                      nodes, stk, 1, 2)
                        out[k] = v
                    k += 1
        return k

    return loop


def run_peer(peer, loop, canon, which, exact, bits, out):
    """One timed pass of the peer over the same solves (as run_ours)."""
    tt = peer.new_tt(bits)
    count = np.zeros(1, dtype=np.int64)
    start = time.perf_counter()
    n = loop(canon, which, exact, tt, peer.tt_mask(tt), count, peer.new_stack(), out)
    return n / (time.perf_counter() - start), count[0] / n, n


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--peer", help="the public solver's bitcore.py, outside this repository")
    parser.add_argument("--peer-tt-bits", type=int, default=PEER_TT_BITS,
                        help="the peer's table size, 2^bits entries")
    parser.add_argument("--deals", type=int, default=DEALS)
    args = parser.parse_args()
    rules = build_rules("standard")
    tb = compile_rules(rules)
    hands, ups = deal_batch(rules, 2024, 0, args.deals)
    for exact in (True, False):
        _table_solves(tb, hands[:5], 0, exact, new_tt(), np.zeros(100, dtype=np.int64))
    analyze_deals(rules, hands[:5], ups[:5], 0, exact=False, tt=new_tt())
    kinds = {"four_hands": (1, True), "loners": (2, True), "four_hands_class": (1, False),
             "loners_class": (2, False)}
    report = {"benchmark": "solver", "runs": RUNS, "deals": args.deals, "rules": "standard",
              "table": measure(tb, hands, 0)[0]}
    ours = {}
    for kind, (which, exact) in kinds.items():
        report[kind], ours[kind] = measure(tb, hands, which, exact)
    if args.peer:
        report["peer"] = compare_with_peer(args.peer, args.peer_tt_bits, tb, hands, kinds, ours)
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


def compare_with_peer(path, bits, tb, hands, kinds, ours):
    """The peer's figures per kind on the same solves, timed in passes that alternate with
    ours (a noisy spell of a shared machine then slows both), our speed over its speed from
    those medians, and a check that both give the makers the same points on every solve."""
    peer = load_peer(path)
    canon = np.stack([peer_hands(hands, trump, peer) for trump in range(4)])
    loop = peer_solver_loop(peer)
    for exact in (True, False):
        out = np.zeros(100, dtype=np.int64)
        tt = peer.new_tt(bits)
        loop(canon[:, :5], 0, exact, tt, peer.tt_mask(tt), np.zeros(1, dtype=np.int64),
             peer.new_stack(), out)
    report = {"file": os.path.basename(path), "tt_bits": bits}
    ours_out = np.zeros(hands.shape[0] * 20, dtype=np.int64)
    out = np.zeros(hands.shape[0] * 20, dtype=np.int64)
    for kind, (which, exact) in kinds.items():
        mine, theirs = [], []
        for _ in range(RUNS):
            mine.append(run_ours(tb, hands, which, exact, ours_out))
            theirs.append(run_peer(peer, loop, canon, which, exact, bits, out))
        n = len(ours[kind])
        expected = makers_scores(ours[kind], hands, which, exact)
        kind_report = figures(theirs)
        kind_report["disagreements"] = int(sum(int(a) != b for a, b in zip(out[:n], expected,
                                                                           strict=True)))
        kind_report["ours_alternating"] = figures(mine)
        kind_report["ours_speed_over_theirs"] = round(
            kind_report["ours_alternating"]["solves_per_s"] / kind_report["solves_per_s"], 2)
        report[kind] = kind_report
    return report


if __name__ == "__main__":
    main()
