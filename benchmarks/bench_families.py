"""The learned player in every family of rules (issue 54; not a timed test): for each family,
`simulate --play learned --bidding human` against `--play dd --bidding human` on the same
deals in the same sitting (the yardstick: goal 0.4 of it), and the default `advise` of the
family's question as a user asks it (no --deals: the learned player's 20,000 deals or the
atlas), the whole command's wall seconds on 2 workers, warm (goal 3 s).

Each `simulate` runs the CLI in a fresh process (one worker, or --workers, warm Numba cache;
--deals a worker), timed by the run's own elapsed_seconds and by the whole command; the two
models alternate, median of BENCH_RUNS. Prints JSON, the machine first (`machine`).

    .venv/bin/python benchmarks/bench_families.py [--only NAME ...] [--workers 2]
"""

import argparse
import json
import os
import statistics
import subprocess
import tempfile
import time

from checkouts import ROOT, cli_command, timed_simulate
from machine import machine

RUNS = int(os.environ.get("BENCH_RUNS", "3"))
MODELS = ("learned", "dd")
FAMILIES = {  # name: (rules options, the question's options)
    "standard": (["--rules", "standard"],
                 ["--hand", "JS AS 9H 9D TC", "--up", "9S"]),
    "drinking": (["--rules", "drinking"],
                 ["--hand", "JS AS 9H 9D TC", "--up", "9S"]),
    "yooker": (["--rules", "yooker"],
               ["--hand", "3Q 6Q 5S 1T 2O", "--up", "4Q"]),
    "deck28": (["--set", "deck=28"],
               ["--hand", "JS AS 8H 8D TC", "--up", "9S"]),
    "deck32": (["--set", "deck=32"],
               ["--hand", "JS AS 7H 8D TC", "--up", "9S"]),
    "benny": (["--set", "joker=true"],
              ["--hand", "JS AS 9H 9D TC", "--up", "9S"]),
    "no_trump": (["--set", "no_trump=true"],
                 ["--hand", "JS AS 9H 9D TC", "--turned-down", "9S"]),
}


def advise_seconds(rules: list[str], question: list[str]) -> float:
    """Wall seconds of the default `advise` (start-up included), 2 workers."""
    started = time.perf_counter()
    subprocess.run(cli_command(None) + ["advise", *rules, *question, "--seat", "1",
                                        "--workers", "2", "--json"],
                   check=True, capture_output=True)
    return time.perf_counter() - started


def family(rules: list[str], question: list[str], workers: int, deals: int) -> dict:
    """Learned against dd in one family, the two alternating (medians), and its advise."""
    runs = {model: [] for model in MODELS}
    options = {model: [*rules, "--play", model, "--bidding", "human"] for model in MODELS}
    cache = os.environ.get("NUMBA_CACHE_DIR", os.path.join(ROOT, ".numba-cache"))
    with tempfile.TemporaryDirectory(prefix="bench-families-") as scratch:
        for model in MODELS:  # compile or load once
            timed_simulate(ROOT, cache, options[model], 1, scratch, 20)
        for _ in range(RUNS):
            for model in MODELS:
                runs[model].append(timed_simulate(ROOT, cache, options[model], workers,
                                                  scratch, deals * workers))
    figures = {"workers": workers, "deals": deals * workers}
    for model in MODELS:
        for key, name in (("per_core", "run"), ("whole_per_core", "whole_command")):
            figures[f"{model}_{name}_deals_per_s_per_core"] = round(
                statistics.median(run[key] for run in runs[model]), 1)
    for name in ("run", "whole_command"):
        figures[f"learned_over_dd_{name}"] = round(
            figures[f"learned_{name}_deals_per_s_per_core"]
            / figures[f"dd_{name}_deals_per_s_per_core"], 3)
    advise_seconds(rules, question)
    seconds = [advise_seconds(rules, question) for _ in range(RUNS)]
    figures["advise_seconds_2_workers"] = round(statistics.median(seconds), 2)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--only", nargs="*", choices=list(FAMILIES))
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--deals", type=int, default=20_000, help="a worker's")
    args = parser.parse_args()
    names = args.only or list(FAMILIES)
    report = {"machine": machine(), "runs": RUNS}
    report |= {name: family(*FAMILIES[name], args.workers, args.deals) for name in names}
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
