"""Small hostile cases of issue 77 (item 8): a 100 KB mistake is echoed cut short, in one line
of a bounded length, exit 2; `export --output -` writes to standard output, not a file
named '-'."""

import subprocess
import sys

import pytest

from euchre_sim.core.errors import shown

from .helpers import run_cli

LONG = 100_000


def _cli(args: list[str], cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "euchre_sim.cli", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("args", [
    ["advise", "--hand", "X" * LONG, "--up", "9S", "--seat", "1", "--play", "dd"],
    ["advise", "--hand", "JS AS 9H 9D " + "T" * LONG, "--up", "9S", "--seat", "1"],
    ["solve", "N:" + "X" * LONG, "--dealer", "N"],
    ["solve", "X" * LONG, "--dealer", "N"],
])
def test_a_long_bad_value_is_echoed_cut_short_in_one_line(args):
    done = _cli(args)
    assert done.returncode == 2 and done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and len(lines[0]) < 300, lines[0][:300]
    assert lines[0].startswith("euchre-sim: error: ") and "characters)" in lines[0]


def test_a_short_value_is_echoed_whole():
    assert shown("ZZ") == "'ZZ'"
    assert shown("x" * 41) == "'" + "x" * 40 + "'… (41 characters)"
    assert shown(list(range(100))).startswith("[0, 1, 2") and len(shown(list(range(100)))) == 41


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    out = tmp_path_factory.mktemp("export") / "run"
    run_cli(["simulate", "--deals", "200", "--seed", "1", "--out", str(out), "--workers", "1",
             "--no-progress"])
    return out


@pytest.mark.parametrize("fmt", ["csv", "json"])
def test_export_to_a_dash_writes_standard_output(run, tmp_path, fmt):
    dashed = _cli(["export", str(run), "--format", fmt, "--output", "-"], cwd=tmp_path)
    plain = _cli(["export", str(run), "--format", fmt], cwd=tmp_path)
    assert dashed.returncode == 0 and plain.returncode == 0, dashed.stderr
    assert dashed.stdout == plain.stdout and len(dashed.stdout.splitlines()) > 100
    assert list(tmp_path.iterdir()) == []  # no file named '-'
