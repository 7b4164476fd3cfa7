"""The digest of the code a run computes with (`runs.code_digest`), against one computed by
hand over the package's files: it changes with a source of a computing wing, and not with the
CLI's, the page's or a compiled cache's."""

import hashlib
import os
import shutil
from pathlib import Path

import pytest

from euchre_sim.runs import code_digest as digest_module
from euchre_sim.runs.code_digest import code_digest

PACKAGE = Path(digest_module.__file__).parents[1]
WINGS = ["bidding", "core", "game", "play", "runs", "sim", "solver"]


def digest_by_hand(root: Path) -> str:
    """sha256 over 'path NUL sha256(bytes)' lines, every .py and .json file of the wings that
    compute a run, in path order."""
    lines = []
    for wing in WINGS:
        for folder, dirs, files in os.walk(root / wing):
            dirs[:] = [d for d in dirs if d != "__pycache__"]
            for name in files:
                if name.endswith((".py", ".json")):
                    path = Path(folder) / name
                    lines.append((path.relative_to(root).as_posix(),
                                  hashlib.sha256(path.read_bytes()).hexdigest()))
    text = "".join(f"{name}\0{sha}\n" for name, sha in sorted(lines))
    return hashlib.sha256(text.encode()).hexdigest()


@pytest.fixture
def package_copy(tmp_path, monkeypatch):
    """A copy of the package the digest reads instead (its cache cleared before and after)."""
    root = tmp_path / "euchre_sim"
    shutil.copytree(PACKAGE, root, ignore=shutil.ignore_patterns("*.parquet", "*.npz"))
    monkeypatch.setattr(digest_module.package_data, "package_root", lambda: root)
    code_digest.cache_clear()
    yield root
    code_digest.cache_clear()


def test_the_installed_code_digest_is_the_one_by_hand():
    assert code_digest() == digest_by_hand(PACKAGE)


def digest_after(root: Path, edit) -> str:
    edit(root)
    code_digest.cache_clear()
    return code_digest()


@pytest.mark.parametrize("edit,changes", [
    (lambda r: (r / "play" / "learned.py").write_text((r / "play" / "learned.py").read_text()
                                                      + "\n"), True),
    (lambda r: (r / "bidding" / "human.json").write_bytes(b"{}"), True),
    (lambda r: (r / "solver" / "extra.py").write_text("X = 1\n"), True),
    (lambda r: (r / "cli" / "main.py").write_text("# another CLI\n"), False),
    (lambda r: (r / "play" / "__pycache__").mkdir(exist_ok=True) or
     (r / "play" / "__pycache__" / "x.py").write_text("stale\n"), False),
    (lambda r: (r / "play" / "notes.txt").write_text("not code\n"), False),
], ids=["a play source", "the bidder's weights", "a new solver module", "the CLI",
        "a compiled cache", "a file that is not code"])
def test_the_digest_follows_the_computing_code(package_copy, edit, changes):
    before = code_digest()
    assert before == digest_by_hand(package_copy)
    after = digest_after(package_copy, edit)
    assert after == digest_by_hand(package_copy)
    assert (after != before) is changes
