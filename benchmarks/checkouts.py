"""Older versions of this project beside this one: the command line of an older checkout run
in fresh processes (`bench_before_after`, `bench_realistic`), and the package of an older
commit imported in this process (`bench_conventional`, `bench_pimc_versions`).

An older checkout (`git worktree add /tmp/before <commit>`) runs with its own sources on
PYTHONPATH and a Numba cache of its own; its Click app is `euchre_sim.cli`, or the top-level
`cli/` folder of the commits before the app moved into the package.
"""

import importlib
import os
import subprocess
import sys
import tarfile
import tempfile

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")


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


def old_module(commit: str, part: str):
    """Module `part` (dotted, e.g. "play.pimc") of the package at `commit`: the package is
    taken with `git archive`, unpacked outside the repository under a name of its own (kept
    between runs, so its Numba cache is too; its imports are relative) and imported beside
    this one."""
    name = f"euchre_sim_{commit}"
    base = os.path.join(tempfile.gettempdir(), f"bench-{name}")
    if not os.path.isdir(os.path.join(base, name)):
        os.makedirs(base, exist_ok=True)
        archive = os.path.join(base, "old.tar")
        subprocess.run(["git", "archive", "-o", archive, commit, "euchre_sim"], cwd=ROOT,
                       check=True)
        with tarfile.open(archive) as tar:
            tar.extractall(base, filter="data")
        os.rename(os.path.join(base, "euchre_sim"), os.path.join(base, name))
    if base not in sys.path:
        sys.path.insert(0, base)
    return importlib.import_module(f"{name}.{part}")
