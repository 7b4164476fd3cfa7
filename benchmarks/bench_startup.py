"""Start-up: `import euchre_sim`, `euchre-sim --help` and an `advise` answered from the atlas,
each a whole fresh process (median of BENCH_RUNS, alternating), this tree beside an older one
(`BENCH_BEFORE`, a `git worktree` of another commit: the yardstick in the same run), with the
machine's CPU named. The atlas answer twice: with the cache warm (its index built by the
warm-up) and with an empty cache (`EUCHRE_SIM_CACHE_DIR` a new folder each run: the first
answer of an install, which builds the index; a tree before the index reads Parquet either
way). Prints JSON.

    git worktree add /tmp/before 291394f
    BENCH_BEFORE=/tmp/before python benchmarks/bench_startup.py
"""

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

from checkouts import cli_command, tree_dir, tree_env
from machine import machine

RUNS = int(os.environ.get("BENCH_RUNS", "9"))
BEFORE = os.environ.get("BENCH_BEFORE")
ADVISE = ["advise", "--hand", "JS AS 9H 9D TC", "--up", "9S", "--seat", "1"]


EMPTY_CACHE = "advise (atlas), empty cache"


def cases(tree: str | None) -> dict[str, list[str]]:
    cli = cli_command(tree)
    return {"import euchre_sim": [sys.executable, "-c", "import euchre_sim"],
            "euchre-sim --help": cli + ["--help"],
            "advise (atlas)": cli + ADVISE, EMPTY_CACHE: cli + ADVISE}


def seconds(args: list[str], tree: str | None, cache: str) -> float:
    env = installed_env(tree) | {"EUCHRE_SIM_CACHE_DIR": cache}
    started = time.perf_counter()
    subprocess.run(args, env=env, cwd=tree_dir(tree), stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, check=True)
    return time.perf_counter() - started


def installed_env(tree: str | None) -> dict:
    """`tree_env`, run as an installed package runs: its bytecode cached (pip compiles it when
    it installs; PYTHONDONTWRITEBYTECODE would compile every module again at every start)."""
    env = tree_env(tree)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def main() -> None:
    trees = {"this tree": None} | ({"before": BEFORE} if BEFORE else {})
    with tempfile.TemporaryDirectory() as folder:
        warm = os.path.join(folder, "warm")
        for tree in trees.values():  # warm: bytecode written, the index built, kernels cached
            for args in cases(tree).values():
                seconds(args, tree, warm)
        times = {name: {case: [] for case in cases(None)} for name in trees}
        for run in range(RUNS):
            for name, tree in trees.items():
                for case, args in cases(tree).items():
                    cache = os.path.join(folder, f"empty-{name}-{run}") \
                        if case == EMPTY_CACHE else warm
                    times[name][case].append(seconds(args, tree, cache))
    print(json.dumps({
        "machine": machine(), "runs": RUNS,
        "median_seconds": {name: {case: round(statistics.median(v), 3)
                                  for case, v in per.items()} for name, per in times.items()},
    }, indent=1))


if __name__ == "__main__":
    main()
