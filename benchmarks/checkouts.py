"""Older versions of this project beside this one: the command line of an older checkout run
in fresh processes (`bench_before_after`, `bench_realistic`, `bench_families`).

An older checkout (`git worktree add /tmp/before <commit>`) runs with its own sources on
PYTHONPATH and a Numba cache of its own; its Click app is `euchre_sim.cli`, or the top-level
`cli/` folder of the commits before the app moved into the package.
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # this checkout


def tree_dir(tree: str | None) -> str:
    """The folder to run a tree's command in: its own (`python -m` and `-c` put the folder
    they start in first on the path, before PYTHONPATH: run in this checkout, an older
    tree's command would import this checkout's package)."""
    return tree or ROOT


def tree_env(tree: str | None) -> dict:
    """This environment, or for an older tree its sources first and a Numba cache of its own."""
    env = dict(os.environ)
    if tree is not None:
        env["PYTHONPATH"] = tree
        env["NUMBA_CACHE_DIR"] = os.path.join(tempfile.gettempdir(), "bench-before-numba")
    return env


def cli_command(tree: str | None) -> list[str]:
    """The arguments that start the command line of this package (None) or of `tree`."""
    old_layout = tree is not None and not os.path.isdir(os.path.join(tree, "euchre_sim", "cli"))
    return [sys.executable, "-m", "cli" if old_layout else "euchre_sim.cli"]


def timed_simulate(tree: str, cache: str, options: list[str], workers: int, scratch: str,
                   deals: int) -> dict:
    """One `simulate` of `deals` in a fresh process: deals a second a core by its own elapsed
    seconds (`per_core`) and by the whole command's (`whole_per_core`, `wall` seconds)."""
    out = tempfile.mkdtemp(prefix="run-", dir=scratch)
    command = cli_command(tree) + ["simulate", *options, "--deals", str(deals), "--seed", "5",
                                   "--workers", str(workers), "--no-progress",
                                   "--out", os.path.join(out, "run")]
    env = tree_env(tree) | {"NUMBA_CACHE_DIR": cache}
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # bytecode cached, as an install has it
    started = time.perf_counter()
    subprocess.run(command, check=True, capture_output=True, cwd=tree, env=env)
    wall = time.perf_counter() - started
    with open(os.path.join(out, "run", "run.json"), encoding="utf-8") as handle:
        elapsed = json.load(handle)["elapsed_seconds"]
    shutil.rmtree(out, ignore_errors=True)
    return {"per_core": deals / elapsed / workers, "wall": wall,
            "whole_per_core": deals / wall / workers}
