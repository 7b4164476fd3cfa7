"""Two trees of this project side by side, each with a fresh Numba cache of its own (issue 74;
not a timed test): did the code's speed move between a commit and HEAD on *this* machine?

Both trees are checked out afresh (`git worktree add`, removed after; a folder given instead is
used as it is) and run their own command line in fresh processes with a Numba cache made for the
run, so neither gains from a long-used cache. Each model (`--play learned` and the yardstick
`--play dd`, both after `--bidding human`) runs on one worker and on two, 20,000 deals a worker;
the trees alternate (A B, then B A, …) so the machine's drift falls on both. A run's figures:
its own `elapsed_seconds` (run.json: compile and start-up left out) and the whole command's wall
seconds. Before the timed runs each tree's first run compiles its kernels, and its seconds are
reported as the tree's cold start. Prints JSON: the machine (lscpu's model, family, caches and
vector flags; LLVM's name for the CPU), then per family, model and worker count the medians of
BENCH_RUNS runs (default 3) for each tree, in deals a second a core, and HEAD / before.

    .venv/bin/python benchmarks/bench_side_by_side.py --before f85a785 [--after HEAD]
        [--family standard yooker ...] [--workers 1 2]
"""

import argparse
import contextlib
import json
import os
import statistics
import subprocess
import tempfile

from bench_families import FAMILIES, MODELS
from checkouts import ROOT, timed_simulate
from machine import machine

RUNS = int(os.environ.get("BENCH_RUNS", "3"))
DEALS_A_WORKER = 20_000


@contextlib.contextmanager
def checkout(revision: str, scratch: str):
    """A fresh worktree of `revision` (removed after), or `revision` itself if it is a folder."""
    if os.path.isdir(revision):
        yield os.path.abspath(revision), revision
        return
    commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", revision],
                            check=True, capture_output=True, text=True).stdout.strip()
    folder = os.path.join(scratch, commit)
    subprocess.run(["git", "-C", ROOT, "worktree", "add", "--detach", folder, commit],
                   check=True, capture_output=True)
    try:
        yield folder, commit
    finally:
        subprocess.run(["git", "-C", ROOT, "worktree", "remove", "--force", folder],
                       capture_output=True)


def side_by_side(trees: dict, rules: list[str], workers: list[int], scratch: str) -> dict:
    """Each model and worker count in every tree, the trees alternating; medians."""
    names = list(trees)
    figures = {}
    for model in MODELS:
        options = [*rules, "--play", model, "--bidding", "human"]
        for count in workers:
            runs = {name: [] for name in names}
            for index in range(RUNS):
                for name in (names if index % 2 == 0 else names[::-1]):
                    tree, cache = trees[name]
                    runs[name].append(timed_simulate(tree, cache, options, count, scratch,
                                                     DEALS_A_WORKER * count))
            row = {}
            for name in names:
                row[f"{name}_deals_per_s_per_core"] = round(statistics.median(
                    run["per_core"] for run in runs[name]), 1)
                row[f"{name}_whole_command_s"] = round(statistics.median(
                    run["wall"] for run in runs[name]), 2)
            before, after = (row[f"{name}_deals_per_s_per_core"] for name in names)
            row["after_over_before"] = round(after / before, 3)
            figures[f"{model}_{count}_workers"] = row
    for count in workers:
        for name in names:
            figures[f"{name}_learned_over_dd_{count}_workers"] = round(
                figures[f"learned_{count}_workers"][f"{name}_deals_per_s_per_core"]
                / figures[f"dd_{count}_workers"][f"{name}_deals_per_s_per_core"], 3)
    return figures


def cold_start(trees: dict, rules: list[str], scratch: str) -> dict:
    """Each tree's first learned and dd run on its empty cache: the compile, whole command."""
    seconds = {}
    for name, (tree, cache) in trees.items():
        for model in MODELS:
            run = timed_simulate(tree, cache, [*rules, "--play", model, "--bidding", "human"],
                                 1, scratch, DEALS_A_WORKER)
            seconds[f"{name}_{model}_first_run_s"] = round(run["wall"], 1)
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--before", default="f85a785", help="a commit or a folder")
    parser.add_argument("--after", default="HEAD", help="a commit or a folder")
    parser.add_argument("--family", nargs="*", choices=list(FAMILIES), default=["standard"])
    parser.add_argument("--workers", nargs="*", type=int, default=[1, 2])
    args = parser.parse_args()
    report = {"machine": machine(), "runs": RUNS, "deals_a_worker": DEALS_A_WORKER}
    with tempfile.TemporaryDirectory(prefix="bench-side-by-side-") as scratch, \
            checkout(args.before, scratch) as (before, before_name), \
            checkout(args.after, scratch) as (after, after_name):
        report["before"], report["after"] = before_name, after_name
        trees = {}
        for name, tree in (("before", before), ("after", after)):
            cache = os.path.join(scratch, f"numba-cache-{name}")
            os.makedirs(cache)
            trees[name] = (tree, cache)
        for family in args.family:
            rules = FAMILIES[family][0]
            report[family] = cold_start(trees, rules, scratch) | side_by_side(
                trees, rules, args.workers, scratch)
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
