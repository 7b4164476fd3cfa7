"""The reference files in data/: brute-force solve tables and hand-checked records."""

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from euchre_sim.cli.main import cli

DATA = Path(__file__).resolve().parent.parent / "data"
REFERENCE = [json.loads(line) for line in (DATA / "solve_reference.jsonl").read_text().splitlines()]


@pytest.mark.parametrize("case", REFERENCE, ids=lambda c: f"{c['preset']}-{c['deal'][:8]}")
def test_solve_matches_the_brute_force_reference(case):
    args = ["solve", case["deal"], "--dealer", case["dealer"], "--json", "--rules", case["preset"]]
    for setting in case["settings"]:
        args += ["--set", setting]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == {"dealer": case["dealer"], "table": case["table"]}


def test_hand_checked_records_replay_with_their_points():
    # 1: N orders up clubs and takes no trick (EW 2). 2: W alone marches in hearts (EW 4).
    # 3: everyone passes twice (redeal, 0). 4: N calls hearts in round 2, takes 3 (NS 1).
    result = CliRunner().invoke(cli, ["replay", str(DATA / "hand_records.jsonl"), "--json"])
    assert result.exit_code == 0, result.output
    points = [json.loads(line)["points"] for line in result.stdout.splitlines()]
    assert points == [{"NS": 0, "EW": 2}, {"NS": 0, "EW": 4}, {"NS": 0, "EW": 0},
                      {"NS": 1, "EW": 0}]
