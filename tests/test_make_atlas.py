"""tools/make_atlas.py builds into its work folder and installs into the package only with
--install, once every file is built (issue 58 item 10): a failed step is one line with its
status, never a traceback, and the shipped atlas is untouched."""

import hashlib
import importlib.util
import subprocess
import sys
from pathlib import Path

import pandas as pd

from euchre_sim.advice.atlas import pooled_text

ROOT = Path(__file__).resolve().parent.parent
ATLAS = ROOT / "euchre_sim" / "data" / "atlas_standard.parquet"


def test_a_failed_step_is_one_line_and_installs_nothing(tmp_path):
    before = hashlib.sha256(ATLAS.read_bytes()).hexdigest()
    result = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "make_atlas.py"), "--preset", "standard",
         "--deals", "200", "--work", str(tmp_path), "--workers", "0", "--install"],
        capture_output=True, text=True, timeout=300)
    assert result.returncode != 0
    assert "Traceback" not in result.stderr
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith("make_atlas: the step 'euchre-sim simulate") and "nothing was " \
        "installed" in last, result.stderr
    assert "--workers" in result.stderr  # the command's own line: workers 0 was passed on
    assert hashlib.sha256(ATLAS.read_bytes()).hexdigest() == before
    assert not (tmp_path / "atlas").exists()


def _make_atlas_module():
    """tools/make_atlas.py, imported as a module (it is a script, not in the package)."""
    spec = importlib.util.spec_from_file_location("make_atlas", ROOT / "tools" / "make_atlas.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_coverage_counts_a_pool_over_the_turns_no_level_before_answers():
    """min_n 3, one turn (round 1, seat 1): classes A, B and C of one pool (only their
    off-suit ranks below the king differ: `pooled_text`) and D of a pool of its own. A is
    reached 5 times (its class answers), B, C and D once: the pool holds B's and C's 2 deals
    once A's are answered, too few (with A's it would hold 7), so by hand the class level
    answers 5 of 8 deals and so does every level after it. With C reached twice the pool
    holds 3 and answers them: 8 of 9."""
    make_atlas = _make_atlas_module()
    hands = {"A": "T=RA N=K9 O=9/AT up=9", "B": "T=RA N=KQ O=Q/A9 up=9",
             "C": "T=RA N=KT O=A9/T up=9", "D": "T=- N=KQT O=A9/T up=9"}
    frame = pd.DataFrame({"round": 1, "seat": 1, "hand": list(hands.values()),
                          "hand_key": [11, 12, 13, 14], "action": "pass", "suit": None,
                          "alone": False, "n": [5, 1, 1, 1]})
    pools = {name: pooled_text(hand) for name, hand in hands.items()}
    assert pools["A"] == pools["B"] == pools["C"] != pools["D"]
    covered = make_atlas.coverage([frame], 3)["round_1"]["seat_1"]
    assert covered == {"class": 5 / 8, "pooled": 5 / 8, "broad": 5 / 8, "coarse": 5 / 8}
    frame.loc[frame["hand"] == hands["C"], "n"] = 2
    covered = make_atlas.coverage([frame], 3)["round_1"]["seat_1"]
    assert covered == {"class": 5 / 9, "pooled": 8 / 9, "broad": 8 / 9, "coarse": 8 / 9}
