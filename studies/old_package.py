"""The package of an older commit imported beside this one (`conventional_versions`,
`pimc_versions`): its players, seated at the engine's table beside this version's
(`contract_play.engine_contract`).
"""

import importlib
import os
import subprocess
import sys
import tarfile
import tempfile

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")


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
