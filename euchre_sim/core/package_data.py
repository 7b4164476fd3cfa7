"""The package's data files (the learned player's nets, the atlases, their charts' cells and
odds) checked against the sha256 the manifest (`data/manifest.json`) gives each, once a
process, before any is read: one missing, cut short or not the file this version ships is a
DamagedInstall naming it. The tools that write the files record them in the manifest
(`record`), so that it cannot drift from them."""

from __future__ import annotations

import hashlib
import json
import os
import stat
from functools import cache, lru_cache
from pathlib import Path

from .errors import DamagedInstall

MANIFEST = "data/manifest.json"  # under the package: each data file's path there -> sha256
MAX_MANIFEST_BYTES = 1 << 20  # the manifest read, at most (it is a few KB)
DATA_FOLDERS = ("data", "play")  # under the package: where its data files lie
DATA_SUFFIXES = (".npz", ".parquet")  # a data file's, each listed in the manifest


def package_root() -> Path:
    """The package's folder (euchre_sim/) on disk: pip installs it as a folder, never in a
    zip (so its data files are plain files, read without importlib.resources)."""
    return Path(__file__).resolve().parent.parent


def damaged(path, why: str) -> DamagedInstall:
    """The line of a shipped file that cannot be used: it, why, and what to do."""
    return DamagedInstall(f"{path}: {why}; reinstall euchre-sim")


def sha256_of(source: Path) -> str:
    digest = hashlib.sha256()
    with source.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


@lru_cache(maxsize=1)
def manifest() -> dict[str, str]:
    """The manifest: each data file's path under the package -> its sha256. One that cannot
    be read, is larger than MAX_MANIFEST_BYTES, is not such a mapping, or lacks a data file the
    package holds is a DamagedInstall naming it (never a traceback, never a file used
    unchecked)."""
    source = package_root() / MANIFEST
    try:
        with source.open("rb") as handle:
            data = handle.read(MAX_MANIFEST_BYTES + 1)
    except OSError as error:
        raise damaged(source, f"not the package data's manifest ({error})") from None
    if len(data) > MAX_MANIFEST_BYTES:
        raise damaged(source, f"not the package data's manifest (over "
                              f"{MAX_MANIFEST_BYTES:,} bytes)")
    try:
        found = json.loads(data.decode("utf-8"))
    except ValueError as error:
        raise damaged(source, f"not the package data's manifest ({error})") from None
    if not isinstance(found, dict) or not all(
            isinstance(v, str) and len(v) == 64 for v in found.values()):
        raise damaged(source, "not the package data's manifest")
    unlisted = sorted(set(_data_files()) - set(found))
    if unlisted:
        more = f" and {len(unlisted) - 1:,} more" if len(unlisted) > 1 else ""
        raise damaged(source, f"the package data's manifest lacks {unlisted[0]}{more}")
    return found


def _data_files() -> list[str]:
    """The data files the package holds (its nets and tables, by their path under it)."""
    root, found = package_root(), []
    for folder in DATA_FOLDERS:
        try:
            entries = list((root / folder).iterdir())
        except (OSError, ValueError):
            continue
        found += [f"{folder}/{entry.name}" for entry in entries
                  if entry.name.endswith(DATA_SUFFIXES)]
    return found


@cache
def shipped(name: str) -> Path | None:
    """Package data file `name` (its path under the package, e.g. 'play/card_net.npz') once
    its sha256 is the manifest's (None: the manifest lists no such file)."""
    if name not in manifest():
        return None
    source = package_root() / name
    if _not_regular(source):  # a FIFO would block its reader
        raise damaged(source, "cannot be read (not a regular file)")
    try:
        digest = sha256_of(source)
    except OSError as error:
        raise damaged(source, f"cannot be read ({error.strerror or error})") from None
    if digest != manifest()[name]:
        raise damaged(source, f"not the file this version ships (its sha256 is not {MANIFEST}'s)")
    return source


def _not_regular(source: Path) -> bool:
    """Whether `source` is there and no regular file (a FIFO, a device, a folder)."""
    try:
        return not stat.S_ISREG(os.stat(source).st_mode)
    except (OSError, TypeError):  # missing (said as it is read), or not a file on disk
        return False


def record(paths: list[str]) -> None:
    """Write the sha256 of each of `paths` (files under the package, in a source tree) into
    the manifest: the tools call it for the data files they write."""
    root = package_root()
    target = root / MANIFEST
    entries = json.loads(target.read_text(encoding="utf-8")) if target.exists() else {}
    for path in paths:
        name = Path(path).resolve().relative_to(root.resolve()).as_posix()
        entries[name] = sha256_of(Path(path))
    target.write_text(json.dumps(dict(sorted(entries.items())), indent=1) + "\n",
                      encoding="utf-8")
    manifest.cache_clear()
    shipped.cache_clear()
