"""The everyday commands against an older checkout, side by side in the same run (not a timed
test): did a change to the code's shape cost speed?

Each command runs in a fresh process, this tree and the older one alternating (A B A B …, so
the machine's noise falls on both), after one warm-up run each (Numba's cache loaded or
compiled). Runs report their own `elapsed_seconds` (run.json: compile and start-up left out);
`advise` and `solve` are timed whole (start-up included). Prints JSON: the median seconds of
BENCH_RUNS runs (default 3) of each, and new / old.

    .venv/bin/python benchmarks/bench_before_after.py --before /tmp/before

where /tmp/before is `git worktree add /tmp/before <commit>` (see `checkouts`).
"""

import argparse
import json
import os
import statistics
import subprocess
import tempfile
import time

from checkouts import cli_command, tree_env

RUNS = int(os.environ.get("BENCH_RUNS", "3"))
DEAL = "N:JH JD AH KS 9C/TH QH AD 9S TC/KC KD TS QS 9D/TD AS 9H QC JS"
COMMANDS = {  # name: (arguments, output folder's run.json holds the time)
    "simulate_dd_100k_2_workers": (["simulate", "--deals", "100000", "--seed", "3",
                                    "--workers", "2", "--no-progress"], True),
    "simulate_bidding_rules_20k": (["simulate", "--deals", "20000", "--seed", "3",
                                    "--bidding", "rules", "--workers", "1", "--no-progress"],
                                   True),
    "tournament_dd_2000_pairs": (["tournament", "--ns", "rules", "--ew", "dd", "--games",
                                  "2000", "--seed", "3", "--workers", "1", "--no-progress"],
                                 True),
    "advise_bidding_rules_20k": (["advise", "--hand", "JS AS 9H 9D TC", "--up", "9S", "--seat",
                                  "1", "--bidding", "rules", "--deals", "20000", "--json"],
                                 False),
    "solve_one_deal": (["solve", DEAL, "--dealer", "W", "--json"], False),
}


def seconds(arguments: list[str], in_run: bool, tree: str | None) -> float:
    """One run's seconds: its own elapsed_seconds, or the whole process."""
    with tempfile.TemporaryDirectory(prefix="bench-before-after-") as out:
        extra = ["--out", os.path.join(out, "run")] if in_run else []
        start = time.perf_counter()
        subprocess.run([*cli_command(tree), *arguments, *extra], check=True,
                       env=tree_env(tree), cwd=tree, capture_output=True)
        wall = time.perf_counter() - start
        if not in_run:
            return wall
        with open(os.path.join(out, "run", "run.json"), encoding="utf-8") as handle:
            return json.load(handle)["elapsed_seconds"]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--before", required=True, help="an older checkout")
    args = parser.parse_args()
    report = {}
    for name, (arguments, in_run) in COMMANDS.items():
        times = {"new": [], "old": []}
        for tree in (None, args.before):  # warm-up: compile or load the kernels
            seconds(arguments, in_run, tree)
        for _ in range(RUNS):
            times["new"].append(seconds(arguments, in_run, None))
            times["old"].append(seconds(arguments, in_run, args.before))
        new, old = (statistics.median(times[k]) for k in ("new", "old"))
        report[name] = {"new_s": round(new, 3), "old_s": round(old, 3),
                        "new_over_old": round(new / old, 3)}
    print(json.dumps({"runs": RUNS, "before": os.path.abspath(args.before),
                      "commands": report}, indent=2))


if __name__ == "__main__":
    main()
