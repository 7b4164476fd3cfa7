"""The shipped atlases' lookup files (advice/atlas_index.py): every row the index gives is
the row the Parquet file gives (read by pyarrow, the route it stands in for), an index it
cannot prove its own is built again or left aside, and an answer from it loads no pyarrow."""

import json
import math
import os
import random
import subprocess
import sys

import pytest

from euchre_sim.advice import atlas as atlas_module
from euchre_sim.advice.atlas import ATLAS_PRESETS, LEVEL_FILES, Atlas, atlas_file
from euchre_sim.advice.atlas_index import BLOCK_ROWS, cache_folder, open_index
from euchre_sim.core.package_data import manifest, shipped
from euchre_sim.core.schema import read_keyed_columns

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _shipped(preset: str, level: str):
    name = f"data/{atlas_file(preset, LEVEL_FILES[level])}"
    return shipped(name), manifest()[name]


def _same(a, b) -> bool:
    """Rows alike, NaN equal to NaN."""
    if a is None or b is None:
        return a is b
    return a.keys() == b.keys() and all(
        x == y or (isinstance(x, float) and math.isnan(x) and math.isnan(y))
        for x, y in ((a[k], b[k]) for k in a))


def _sample_keys(path, rng, count=300) -> list[int]:
    """Keys the file holds (first and last of the file among them) and keys it does not."""
    keys = [int(k) for k in read_keyed_columns(str(path), "the atlas",
                                               atlas_module.ATLAS_SCHEMA, None, ["key"])["key"]]
    keys.sort()
    held = [keys[0], keys[-1]] + rng.sample(keys, count)
    near = [k + 1 for k in rng.sample(keys, count // 3)] + [0, 2**64 - 1]
    return held + [k for k in near if k not in set(keys)]


@pytest.mark.parametrize("preset,level", [(p, lv) for p in ATLAS_PRESETS for lv in LEVEL_FILES
                                          if f"data/{atlas_file(p, LEVEL_FILES[lv])}"
                                          in manifest()])
def test_every_row_from_the_index_is_the_parquet_files_row(preset, level, tmp_path,
                                                            monkeypatch):
    monkeypatch.setenv("EUCHRE_SIM_CACHE_DIR", str(tmp_path))
    path, sha = _shipped(preset, level)
    indexed, parquet = Atlas(path, sha), Atlas(path)
    assert indexed.index is not None and parquet.index is None
    assert (indexed.provenance, indexed.top) == (parquet.provenance, parquet.top)
    keys = _sample_keys(path, random.Random(hash((preset, level)) & 0xFFFF))
    for got, want in zip(indexed.rows(keys), parquet.rows(keys), strict=True):
        assert _same(got, want)
    assert indexed.holds(keys[:5]) and not indexed.holds(keys[-3:])


def _index_file(tmp_path, monkeypatch):
    monkeypatch.setenv("EUCHRE_SIM_CACHE_DIR", str(tmp_path))
    path, sha = _shipped("standard", "class")
    assert open_index(str(path), sha, "the atlas", atlas_module.ATLAS_SCHEMA) is not None
    return path, sha, cache_folder() / f"{sha}.index"


@pytest.mark.parametrize("damage", ["cut short", "a block's byte flipped", "empty",
                                    "another file's", "another format"])
def test_an_index_that_is_not_provably_its_files_is_built_again(damage, tmp_path, monkeypatch):
    path, sha, index = _index_file(tmp_path, monkeypatch)
    data = index.read_bytes()
    damaged = {"cut short": data[:len(data) // 2], "empty": b"",
               "a block's byte flipped": data[:-100] + bytes([data[-100] ^ 0xFF]) + data[-99:],
               "another file's": data.replace(sha.encode(), b"0" * 64),
               "another format": data.replace(b"index 1", b"index 0")}[damage]
    index.write_bytes(damaged)
    keys = _sample_keys(path, random.Random(5), 50)
    opened = Atlas(path, sha)
    want = Atlas(path).rows(keys)
    assert all(_same(a, b) for a, b in zip(opened.rows(keys), want, strict=True))
    if damage == "a block's byte flipped":  # the header holds: the block is found out as read
        assert opened.index is None
        assert Atlas(path, sha).index is not None
    assert index.read_bytes() == data or damage == "a block's byte flipped"


def test_a_cache_that_cannot_be_written_leaves_the_parquet_file_to_answer(tmp_path,
                                                                          monkeypatch):
    blocked = tmp_path / "a file, not a folder"
    blocked.write_text("")
    monkeypatch.setenv("EUCHRE_SIM_CACHE_DIR", str(blocked))
    path, sha = _shipped("standard", "class")
    atlas = Atlas(path, sha)
    assert atlas.index is None
    keys = _sample_keys(path, random.Random(6), 20)
    assert all(_same(a, b) for a, b in zip(atlas.rows(keys), Atlas(path).rows(keys), strict=True))


def test_no_cache_turns_the_index_off(tmp_path, monkeypatch):
    monkeypatch.setenv("EUCHRE_SIM_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv("EUCHRE_SIM_NO_CACHE", "1")
    path, sha = _shipped("standard", "class")
    assert Atlas(path, sha).index is None and not any(tmp_path.iterdir())


def test_an_index_holds_its_rows_in_blocks_sorted_by_key_each_no_larger_than_the_block(
        tmp_path, monkeypatch):
    path, sha, _ = _index_file(tmp_path, monkeypatch)
    index = Atlas(path, sha).index
    firsts = index.first_keys
    assert firsts == sorted(firsts) and len(set(firsts)) == len(firsts)
    sizes = [n for _, _, n in index.blocks]
    assert all(n == BLOCK_ROWS for n in sizes[:-1]) and 0 < sizes[-1] <= BLOCK_ROWS
    assert sum(sizes) == len(read_keyed_columns(str(path), "the atlas",
                                                atlas_module.ATLAS_SCHEMA, None, ["key"])["key"])


_ADVISE = ["advise", "--hand", "JS AS 9H 9D TC", "--up", "9S", "--seat", "1", "--json"]
_LOADED = """
import json, runpy, sys
sys.argv = ["euchre-sim", *{args!r}]
try:
    runpy.run_module("euchre_sim.cli", run_name="__main__")
except SystemExit:
    pass
print(json.dumps(sorted(m for m in ("pyarrow", "pandas", "numba") if m in sys.modules)),
      file=sys.stderr)
"""


def test_an_atlas_answer_from_the_index_loads_no_pyarrow_and_says_what_parquet_says(tmp_path):
    env = os.environ | {"EUCHRE_SIM_CACHE_DIR": str(tmp_path)}
    runs = []
    for extra in ({}, {}, {"EUCHRE_SIM_NO_CACHE": "1"}):
        run = subprocess.run([sys.executable, "-c", _LOADED.format(args=_ADVISE)],
                             capture_output=True, text=True, cwd=ROOT, env=env | extra,
                             timeout=300)
        assert run.returncode == 0, run.stderr[-2000:]
        runs.append((json.loads(run.stdout), json.loads(run.stderr.strip().splitlines()[-1])))
    (built, loaded_first), (indexed, loaded), (parquet, _) = runs
    assert built == indexed == parquet and indexed["source"] == "atlas"
    assert "pyarrow" in loaded_first  # the first answer builds the index from the file
    assert loaded == []
