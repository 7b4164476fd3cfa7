"""Package data verified on load (`core.package_data`): the manifest names every net, atlas,
chart and odds file the package ships with its sha256, and a file that is not the one shipped
(cut short, or changed and still readable) is one line naming it and saying to reinstall,
exit 2: never a traceback, never an answer from it."""

import contextlib
import hashlib
import json
import os
import threading
import time
from importlib import resources
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from euchre_sim.advice import atlas
from euchre_sim.core import package_data
from euchre_sim.core.errors import DamagedInstall
from euchre_sim.play import net_weights

from .helpers import run_cli

ROOT = resources.files("euchre_sim")
HAND = ["--hand", "JS AS 9H 9D TC", "--up", "9S", "--seat", "1"]


def test_the_manifest_names_every_shipped_data_file_with_its_sha256():
    package = Path(str(ROOT))
    shipped = sorted(path.relative_to(package).as_posix() for suffix in ("npz", "parquet")
                     for path in package.rglob(f"*.{suffix}"))
    manifest = json.loads((ROOT / package_data.MANIFEST).read_text())
    assert sorted(manifest) == shipped
    for name, digest in manifest.items():
        assert hashlib.sha256((ROOT / name).read_bytes()).hexdigest() == digest, name


def _replace(folder, name: str, data: bytes) -> str:
    path = folder / name
    path.unlink()
    path.write_bytes(data)
    return str(path)


def _cut_short(folder, name: str) -> str:
    data = (ROOT / name).read_bytes()
    return _replace(folder, name, data[:min(100_000, len(data) // 2)])


def _changed_net(folder, name: str) -> str:
    """The net with one weight changed: still a net of the right shape, finite."""
    with np.load(ROOT / name) as z:
        arrays = dict(z)
    arrays["w1"][0, 0] += 0.5
    path = folder / name
    path.unlink()
    np.savez_compressed(path, **arrays)
    return str(path)


def _changed_table(folder, name: str) -> str:
    """The table with one value changed: still a table of its schema."""
    frame = pd.read_parquet(ROOT / name)
    frame.loc[0, "n"] += 1
    path = folder / name
    path.unlink()
    frame.to_parquet(path)
    return str(path)


@pytest.mark.parametrize("name, damage, args", [
    ("data/atlas_standard.parquet", _cut_short, ["advise", *HAND]),
    ("data/pooled_standard.parquet", _cut_short, ["advise", *HAND]),
    ("play/card_net.npz", _changed_net, ["advise", *HAND, "--deals", "50"]),
    ("play/card_net_general.npz", _changed_net, ["advise", *HAND, "--deals", "50"]),
    ("data/chart_online.parquet", _changed_table,
     ["chart", "atlas:online", "--output", "{tmp}/chart.html"]),
    ("data/odds_yooker.parquet", _cut_short,
     ["chart", "atlas:yooker", "--score", "8-9", "--output", "{tmp}/chart.html"])],
    ids=lambda v: v if isinstance(v, str) else getattr(v, "__name__", None))
def test_a_shipped_file_not_the_one_shipped_is_one_line_saying_to_reinstall(package_copy,
                                                                            tmp_path, name,
                                                                            damage, args):
    path = damage(package_copy, name)
    lines = run_cli([a.format(tmp=tmp_path) for a in args], code=2).output.splitlines()
    assert lines == [f"euchre-sim: error: {path}: not the file this version ships (its sha256 "
                     f"is not {package_data.MANIFEST}'s); reinstall euchre-sim"]


def test_a_shipped_file_that_is_a_fifo_is_one_line_not_a_hang(package_copy):
    """Issue 77 item 8: a net that is a FIFO hung advise while it was hashed. (Were it read,
    a writer opened after 30 s ends the wait, so that the test fails instead of hanging.)"""
    path = package_copy / "play" / "card_net.npz"
    path.unlink()
    os.mkfifo(path)

    def release() -> None:  # a reader blocked in open() gets the end of the file
        with contextlib.suppress(OSError):
            os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))

    timer = threading.Timer(30, release)
    timer.daemon = True
    timer.start()
    started = time.monotonic()
    try:
        lines = run_cli(["advise", *HAND, "--deals", "50"], code=2).output.splitlines()
    finally:
        timer.cancel()
    assert lines == [f"euchre-sim: error: {path}: cannot be read (not a regular file); "
                     "reinstall euchre-sim"]
    assert time.monotonic() - started < 20


def test_a_damaged_manifest_is_one_line_too(package_copy):
    path = _replace(package_copy, package_data.MANIFEST, b"{")
    lines = run_cli(["advise", *HAND], code=2).output.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"euchre-sim: error: {path}: not the ")
    assert lines[0].endswith("; reinstall euchre-sim")


def test_each_file_is_hashed_once_a_process(package_copy, monkeypatch):
    hashed = []
    sha256_of = package_data.sha256_of
    monkeypatch.setattr(package_data, "sha256_of", lambda source: hashed.append(source.name)
                        or sha256_of(source))
    for _ in range(3):
        assert atlas.shipped_file("standard", "odds") is not None
        net_weights.card_nets()
    assert sorted(hashed) == ["card_net.npz", "card_net_general.npz", "odds_standard.parquet"]


def test_a_tool_records_what_it_writes_so_the_manifest_cannot_drift(package_copy):
    name = "data/chart_standard.parquet"
    path = package_copy / name
    _changed_table(package_copy, name)
    with pytest.raises(DamagedInstall):
        package_data.shipped(name)
    package_data.record([str(path)])
    assert package_data.shipped(name) == path
    manifest = json.loads((package_copy / package_data.MANIFEST).read_text())
    assert manifest[name] == hashlib.sha256(path.read_bytes()).hexdigest()
    assert len(manifest) == len(json.loads((ROOT / package_data.MANIFEST).read_text()))
