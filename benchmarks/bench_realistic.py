"""Realistic play at scale: `simulate --play pimc` with and without the auction, against
double dummy on the same auction and, with `--before TREE`, an older checkout of this project
measured side by side (not a timed test).

Each `simulate` configuration runs the CLI in a fresh process (one worker, warm Numba cache:
one small run first compiles) and reads the run's own `elapsed_seconds` from run.json
(compile time and start-up left out), in chunks of the size a million-deal run has (PIMC:
200 deals; a small run's default chunks of 10 deals would weigh each chunk's writing and
set-up 20 times as much as a big run does). Prints JSON: deals per second per core, the
median of BENCH_RUNS runs (the older tree on the same deals: the first deals of a seed cost
more or less than the average, so fewer of them would bias the ratio), the ratios, and what
a million deals would take on 2 cores here and on a 64-core Dask cluster from the measured
per-core rate. It also times the whole `advise … --play pimc
--bidding rules --deals 2000` command (warm cache, start-up included) on 1 and 2 worker
processes, the older tree's with its default workers.

    .venv/bin/python benchmarks/bench_realistic.py [--before /path/to/old/checkout]

An older checkout is one made with `git worktree add /tmp/before <commit>` (see `checkouts`).
"""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import tempfile
import time

from checkouts import cli_command, tree_env

from euchre_sim.play.player import Player
from euchre_sim.sim.simulate import default_chunk_size

RUNS = int(os.environ.get("BENCH_RUNS", "3"))
CONFIGS = {  # name: (simulate options, deals)
    "pimc_bidding_rules": (["--play", "pimc", "--bidding", "rules"], 400),
    "dd_bidding_rules": (["--play", "dd", "--bidding", "rules"], 20_000),
    "pimc_per_call": (["--play", "pimc"], 150),
}
BEFORE = ("pimc_bidding_rules", "pimc_per_call")
CHUNK_OVERHEAD_S = 2.0  # a Dask task's start, transfer and merge share, per chunk (measured
#                         on the local cluster in bench_simulate.py: well under a second)


def big_run_chunk(options: list[str]) -> int:
    """The chunk size of a million-deal run with these options (`--play` dd: 10,000)."""
    return default_chunk_size(1_000_000, Player(play=options[options.index("--play") + 1]))


def run(options: list[str], deals: int, tree: str | None = None) -> float:
    """Deals per second of one `simulate` run (its own elapsed_seconds)."""
    out = tempfile.mkdtemp(prefix="bench-realistic-")
    try:
        subprocess.run(cli_command(tree) + ["simulate", *options, "--deals", str(deals), "--seed",
                                            "5", "--workers", "1", "--chunk-size",
                                            str(big_run_chunk(options)), "--no-progress",
                                            "--out", os.path.join(out, "run")],
                       check=True, env=tree_env(tree), cwd=tree, capture_output=True)
        with open(os.path.join(out, "run", "run.json"), encoding="utf-8") as handle:
            return deals / json.load(handle)["elapsed_seconds"]
    finally:
        shutil.rmtree(out, ignore_errors=True)


ADVISE = ["advise", "--hand", "JS AS 9H 9D TC", "--up", "9S", "--seat", "1", "--play", "pimc",
          "--bidding", "rules", "--json"]
ADVISE_DEALS = 2000


def advise_seconds(deals: int, workers: int | None = None, tree: str | None = None,
                   command: list[str] = ADVISE) -> float:
    """Wall seconds of the whole `advise` command (start-up and loading the cached kernels
    included): the goal of issue 24 is for the command."""
    options = command + ["--deals", str(deals)] + (["--workers", str(workers)] if workers else [])
    started = time.perf_counter()
    subprocess.run(cli_command(tree) + options, check=True, env=tree_env(tree),
                   cwd=tree, capture_output=True)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--before", help="an older checkout to measure side by side")
    args = parser.parse_args()
    figures = {}
    for name, (options, deals) in CONFIGS.items():
        run(options, 20)  # compile (or load) once
        figures[name] = round(statistics.median(run(options, deals) for _ in range(RUNS)), 1)
    report = {"deals_per_s_per_core": figures}
    if args.before:
        before = {}
        for name in BEFORE:
            options, deals = CONFIGS[name]
            run(options, 4, args.before)
            before[name] = round(statistics.median(
                run(options, deals, args.before) for _ in range(RUNS)), 1)
        report["before_deals_per_s_per_core"] = before
        report["speedup_vs_before"] = {name: round(figures[name] / before[name], 1)
                                       for name in before}
    advise_s = {}
    for workers in (1, 2):
        advise_seconds(20, workers)
        advise_s[f"workers_{workers}"] = round(statistics.median(
            advise_seconds(ADVISE_DEALS, workers) for _ in range(RUNS)), 2)
    if args.before:
        advise_seconds(20, tree=args.before)
        advise_s["before_default_workers"] = round(statistics.median(
            advise_seconds(ADVISE_DEALS, tree=args.before) for _ in range(RUNS)), 2)
    report["advise_pimc_bidding_rules_2000_deals_seconds"] = advise_s
    rate = figures["pimc_bidding_rules"]
    report["pimc_bidding_rules_vs_dd"] = round(figures["dd_bidding_rules"] / rate, 1)
    chunks = 1_000_000 / big_run_chunk(CONFIGS["pimc_bidding_rules"][0])
    report["million_deals_hours"] = {
        "2_cores": round(1_000_000 / (2 * rate) / 3600, 2),
        "64_core_dask": round((1_000_000 / (64 * rate) + chunks * CHUNK_OVERHEAD_S / 64)
                              / 3600, 2)}
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
