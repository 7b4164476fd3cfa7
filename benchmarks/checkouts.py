"""Older versions of this project beside this one: the command line of an older checkout run
in fresh processes (`bench_before_after`, `bench_realistic`, `bench_families`).

An older checkout (`git worktree add /tmp/before <commit>`) runs with its own sources on
PYTHONPATH and a Numba cache of its own; its Click app is `euchre_sim.cli`, or the top-level
`cli/` folder of the commits before the app moved into the package.
"""

import os
import sys
import tempfile

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
