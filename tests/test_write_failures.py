"""Every write that fails — an output file, a plot, standard output — is one line and exit 2,
and leaves no partial file; files are checked for writability before the work where the work
is long. A path under a plain file fails for every user (root too); /dev/full is a full disk."""

import errno
import os
import subprocess
import sys

import pytest

from euchre_sim.core.errors import UserError
from euchre_sim.core.output import written

from .helpers import run_cli

DEAL = "N:JH JD AH KS 9C/TH QH AD 9S TC/KC KD TS QS 9D/TD AS 9H QC JS"
FULL = "/dev/full"
needs_dev_full = pytest.mark.skipif(not os.path.exists(FULL), reason="no /dev/full here")


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """A finished simulation, a hand history, and a plain file to put paths under."""
    root = tmp_path_factory.mktemp("writes")
    run_cli(["simulate", "--deals", "300", "--seed", "1", "--out", str(root / "run"),
             "--workers", "1", "--no-progress"])
    run_cli(["play", "--games", "1", "--seed", "2", "--output", str(root / "hands.jsonl")])
    (root / "plain").write_text("a file, not a folder\n")
    return root


def leftovers(folder) -> list[str]:
    return sorted(name for name in os.listdir(folder) if name.endswith(".tmp"))


@needs_dev_full
@pytest.mark.parametrize("args", [
    ["rules"], ["rules", "standard", "--json"], ["solve", DEAL, "--dealer", "W", "--json"],
    ["solve", DEAL, "--dealer", "W"], ["replay", "{root}/hands.jsonl", "--json"],
    ["table", "{root}/run"],
    ["advise", "--hand", "JS AS 9H 9D TC", "--up", "9S", "--seat", "1", "--deals", "20",
     "--json"],
    ["export", "{root}/run", "--format", "csv"],
])
def test_a_full_standard_output_is_one_line_exit_2(files, args):
    with open(FULL, "w") as full:
        done = subprocess.run([sys.executable, "-m", "euchre_sim.cli",
                               *(a.replace("{root}", str(files)) for a in args)],
                              stdout=full, stderr=subprocess.PIPE, text=True, timeout=300)
    assert done.returncode == 2, done.stderr
    assert done.stderr.splitlines() == [
        "euchre-sim: error: cannot write to standard output: No space left on device"]


@needs_dev_full
@pytest.mark.parametrize("args", [
    ["plot", "{root}/run", "--output", FULL],
    ["export", "{root}/run", "--format", "json", "--output", FULL],
    ["play", "--games", "1", "--output", FULL],
])
def test_a_full_device_as_the_output_is_one_line_exit_2(files, args):
    result = run_cli([a.replace("{root}", str(files)) for a in args], code=2)
    assert result.output.splitlines() == [
        f"euchre-sim: error: cannot write '{FULL}': No space left on device"]


@pytest.mark.parametrize("args,path", [
    (["plot", "{root}/run", "--output", "{root}/plain/heat.png"], "plain/heat.png"),
    (["export", "{root}/run", "--format", "csv", "--output", "{root}/plain/calls.csv"],
     "plain/calls.csv"),
    (["play", "--games", "1", "--output", "{root}/plain/hands.jsonl"], "plain/hands.jsonl"),
    (["play", "--games", "2", "--output", "{root}/plain/games.egn"], "plain/games-1.egn"),
    (["review", "{root}/hands.jsonl", "--out", "{root}/plain/review"], "plain/review"),
    (["review", "{root}/hands.jsonl", "--egn", "{root}/plain/review.egn"], "plain/review.egn"),
])
def test_an_output_that_cannot_be_made_is_one_line_before_the_work(files, monkeypatch, args,
                                                                  path):
    """play's games and review's valuing never start: the path is checked first."""
    import euchre_sim.advice.review as review
    import euchre_sim.game.selfplay as selfplay

    def started(*_, **__):
        raise AssertionError("the work started")

    if args[0] != "plot" and args[0] != "export":
        monkeypatch.setattr(selfplay, "play_games", started)
        monkeypatch.setattr(review, "review_file", started)
    result = run_cli([a.replace("{root}", str(files)) for a in args], code=2)
    assert result.output.splitlines() == [
        f"euchre-sim: error: cannot write {str(files / path)!r}: Not a directory"]


def test_a_plot_cut_short_by_a_full_disk_leaves_no_file(files, monkeypatch, tmp_path):
    """The figure half written when the disk fills: one line, no PNG (not even an empty
    one), no temporary file; a plot already there is kept whole."""
    from matplotlib.figure import Figure

    def filling(fig, handle, **_):
        handle.write(b"\x89PNG half")
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    out = tmp_path / "heat.png"
    monkeypatch.setattr(Figure, "savefig", filling)
    result = run_cli(["plot", str(files / "run"), "--output", str(out)], code=2)
    assert result.output.splitlines() == [
        f"euchre-sim: error: cannot write {str(out)!r}: No space left on device"]
    assert os.listdir(tmp_path) == []
    out.write_bytes(b"an older plot")
    run_cli(["plot", str(files / "run"), "--output", str(out)], code=2)
    assert out.read_bytes() == b"an older plot" and leftovers(tmp_path) == []


def test_written_replaces_the_file_only_when_whole(tmp_path):
    path = tmp_path / "out.txt"
    with written(str(path)) as handle:
        handle.write("first")
    with pytest.raises(UserError, match="No space left on device"), written(str(path)) as handle:
        handle.write("second, cut")
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    with pytest.raises(ValueError), written(str(path)) as handle:  # any failure inside
        handle.write("third")
        raise ValueError("not an OSError")
    assert path.read_text() == "first" and leftovers(tmp_path) == []


def test_play_writes_egn_a_game_at_a_time(files, tmp_path):
    run_cli(["play", "--games", "3", "--seed", "4", "--output", str(tmp_path / "g.egn")])
    assert sorted(os.listdir(tmp_path)) == ["g-1.egn", "g-2.egn", "g-3.egn"]
    run_cli(["replay", str(tmp_path / "g-2.egn")])
