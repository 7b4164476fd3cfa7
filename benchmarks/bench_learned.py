"""The learned card player's speed (issue 41; not a timed test): `simulate --play learned`
(and `learned-search`) with the human bidder's auction and per call, against double dummy on
the same auction and PIMC (K = 50) as yardsticks measured in the same run, and the whole
`advise --play learned --bidding human` command.

Each `simulate` configuration runs the CLI in a fresh process (one worker, warm Numba cache:
a small run first compiles or loads) and reads the run's own `elapsed_seconds` from run.json
(start-up left out), in the chunks a big run would have. Prints JSON: deals per second per
core, the median of BENCH_RUNS runs; the ratios to the yardsticks; the `advise` command's wall
seconds (warm cache, start-up included) on 2 workers, median of BENCH_RUNS; and what 100M
realistic deals would take on a 64-core Dask cluster at the measured per-core rate. With
`--before TREE` (an older checkout, `git worktree add /tmp/before <commit>`) it also measures
`--play learned --bidding human` there, runs alternating with this tree's, and the ratio.

    .venv/bin/python benchmarks/bench_learned.py [--before /tmp/before]
"""

import argparse
import json
import os
import statistics

from bench_realistic import CHUNK_OVERHEAD_S, advise_seconds, big_run_chunk, run

RUNS = int(os.environ.get("BENCH_RUNS", "3"))
CONFIGS = {  # name: (simulate options, deals)
    "learned_bidding_human": (["--play", "learned", "--bidding", "human"], 20_000),
    "learned_search_bidding_human": (["--play", "learned-search", "--bidding", "human"], 4_000),
    "dd_bidding_human": (["--play", "dd", "--bidding", "human"], 20_000),
    "pimc_bidding_human": (["--play", "pimc", "--bidding", "human"], 400),
    "learned_per_call": (["--play", "learned"], 4_000),
    "pimc_per_call": (["--play", "pimc"], 100),
}
ADVISE = ["advise", "--hand", "JS AS 9H 9D TC", "--up", "9S", "--seat", "1", "--play",
          "learned", "--bidding", "human", "--json"]
ADVISE_DEALS = 20_000


def before_after(tree: str) -> dict:
    """`--play learned --bidding human` here and in `tree`, runs alternating."""
    options, deals = CONFIGS["learned_bidding_human"]
    run(options, 20, tree)
    now, before = [], []
    for _ in range(RUNS):
        now.append(run(options, deals))
        before.append(run(options, deals, tree))
    now_rate, before_rate = statistics.median(now), statistics.median(before)
    return {"learned_bidding_human_now": round(now_rate, 1),
            "learned_bidding_human_before": round(before_rate, 1),
            "now_over_before": round(now_rate / before_rate, 3)}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--before", help="an older checkout to measure side by side")
    args = parser.parse_args()
    figures = {}
    for name, (options, deals) in CONFIGS.items():
        run(options, 20)
        figures[name] = round(statistics.median(run(options, deals) for _ in range(RUNS)), 1)
    report = {"deals_per_s_per_core": figures}
    if args.before:
        report["before"] = before_after(args.before)
    learned = figures["learned_bidding_human"]
    report["learned_vs_pimc_bidding_human"] = round(learned / figures["pimc_bidding_human"], 1)
    report["dd_vs_learned_bidding_human"] = round(figures["dd_bidding_human"] / learned, 2)
    report["learned_search_vs_pimc_bidding_human"] = round(
        figures["learned_search_bidding_human"] / figures["pimc_bidding_human"], 1)
    report["learned_vs_pimc_per_call"] = round(figures["learned_per_call"]
                                                / figures["pimc_per_call"], 1)
    advise_seconds(20, 2, command=ADVISE)
    report["advise_learned_human_20000_deals_seconds_2_workers"] = round(statistics.median(
        advise_seconds(ADVISE_DEALS, 2, command=ADVISE) for _ in range(RUNS)), 2)
    chunk = big_run_chunk(CONFIGS["learned_bidding_human"][0])
    deals = 100_000_000
    report["hundred_million_deals_hours_64_core_dask"] = round(
        (deals / (64 * learned) + deals / chunk * CHUNK_OVERHEAD_S / 64) / 3600, 2)
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
