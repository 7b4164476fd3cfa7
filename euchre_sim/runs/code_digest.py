"""The sha256 of the code a run's numbers come from: the wings that deal, bid, play, solve, score
and store a run (not the CLI, the page, the reports or the advice built on runs). A run's
identity holds it, so a resumed run never mixes chunks computed by two versions of the play, the
bidding or the scoring (`runner.ChunkedPlan.run_identity`)."""

from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path

from ..core import package_data

COMPUTING_WINGS = ("core", "bidding", "game", "play", "solver", "sim", "runs")
CODE_SUFFIXES = (".py", ".json")  # the sources, and the bidder's and nets' settings beside them


def code_files() -> list[tuple[str, Path]]:
    """(path under the package, file) of every source the digest covers, sorted by path."""
    found = []
    root = package_data.package_root()  # read at each call: a test may point it elsewhere
    pending = [(wing, root / wing) for wing in COMPUTING_WINGS]
    while pending:
        path, folder = pending.pop()
        for entry in folder.iterdir():
            name = f"{path}/{entry.name}"
            if entry.is_dir():
                if entry.name != "__pycache__":
                    pending.append((name, entry))
            elif entry.name.endswith(CODE_SUFFIXES):
                found.append((name, entry))
    return sorted(found, key=lambda item: item[0])


@lru_cache(maxsize=1)
def code_digest() -> str:
    """One sha256 over each covered file's path and sha256, once a process."""
    digest = hashlib.sha256()
    for name, source in code_files():
        digest.update(f"{name}\0{package_data.sha256_of(source)}\n".encode())
    return digest.hexdigest()
