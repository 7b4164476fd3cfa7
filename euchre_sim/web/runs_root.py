"""The folder `serve --runs` reads from: every path a query names (a run folder, a decision
table, odds, bidder weights, a hand history) is taken under it, links followed, and so is
every file a folder named holds; the run folders and hand histories it holds are listed."""

from __future__ import annotations

import itertools
import os
from collections import deque

from ..api import Error as UserError

MAX_DEPTH = 3  # how deep the listing looks below the root
MAX_RUNS = 200  # run folders (and hand histories) listed at most
MAX_FOLDERS = 5_000  # folders looked into (and entries read in one folder) at most


class OutsideRoot(UserError):
    """A path that leads out of the runs folder (answered 403, whether it exists or not)."""

    def __init__(self, path: str):
        super().__init__(f"{path!r} is outside the runs folder (serve --runs)")


class RunsRoot:
    """The runs folder, symlinks resolved."""

    def __init__(self, root: str):
        self.path = os.path.realpath(root)

    def place(self, path: str) -> str:
        """`path` (relative to the root, or absolute) with symlinks and `..` resolved;
        OutsideRoot unless that is the root or lies under it, and, for a folder, unless every
        link it holds leads under it too (the files read from a run folder, a decision table
        or odds are its entries: `calls.parquet`, `run.json`...). Links are resolved without
        opening their targets, so the answer is the same whether a target exists or not."""
        if "\0" in path:
            raise UserError(f"{path!r} is not a path")
        real = os.path.realpath(os.path.join(self.path, path))
        if not self.holds(real) or (os.path.isdir(real) and not self._links_inside(real)):
            raise OutsideRoot(path)
        return real

    def holds(self, real: str) -> bool:
        """Whether the resolved path `real` is the root or lies under it."""
        return os.path.commonpath([self.path, real]) == self.path

    def _links_inside(self, folder: str) -> bool:
        """Whether every entry of `folder` that is a symlink leads under the root."""
        try:
            with os.scandir(folder) as entries:
                return all(self.holds(os.path.realpath(e.path)) for e in entries
                           if e.is_symlink())
        except OSError:  # not listed, its links not seen: refused
            return False

    def runs(self) -> dict:
        """The run folders (holding run.json, every link in them leading under the root)
        under the root, relative to it, at most MAX_DEPTH down; hidden folders and symlinks
        are not entered, a run's folder neither."""
        found, waiting, looked = [], deque([(self.path, 0)]), 0
        while waiting and len(found) < MAX_RUNS and looked < MAX_FOLDERS:
            folder, depth = waiting.popleft()
            looked += 1
            if os.path.isfile(os.path.join(folder, "run.json")):
                if self._links_inside(folder):
                    found.append(os.path.relpath(folder, self.path))
            elif depth < MAX_DEPTH:
                waiting.extend((sub, depth + 1) for sub in _entries(folder, True))
        return {"root": self.path, "runs": sorted(found), "truncated": bool(waiting)}

    def files(self, extensions: tuple[str, ...]) -> dict:
        """The files named `*EXTENSION` under the root, relative to it, at most MAX_DEPTH
        down; hidden files and folders and symlinks are left out."""
        found, waiting, looked = [], deque([(self.path, 0)]), 0
        while waiting and len(found) < MAX_RUNS and looked < MAX_FOLDERS:
            folder, depth = waiting.popleft()
            looked += 1
            found += [os.path.relpath(f, self.path) for f in _entries(folder, False)
                      if f.endswith(extensions)][:MAX_RUNS - len(found)]
            if depth < MAX_DEPTH:
                waiting.extend((sub, depth + 1) for sub in _entries(folder, True))
        return {"root": self.path, "files": sorted(found),
                "truncated": bool(waiting) or len(found) >= MAX_RUNS}


def _entries(folder: str, folders: bool) -> list[str]:
    """The folders (or plain files) in `folder`, neither hidden nor symlinks."""
    try:
        with os.scandir(folder) as entries:
            return sorted(e.path for e in itertools.islice(entries, MAX_FOLDERS)
                          if not e.name.startswith(".") and not e.is_symlink()
                          and (e.is_dir() if folders else e.is_file()))
    except OSError:
        return []
