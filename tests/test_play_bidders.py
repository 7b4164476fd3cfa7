"""play --ns/--ew take tournament's bidders (plus random): the same players on the same deals
play the same games as `tournament --no-duplicate` (dd play: every contract, lone defence and
score alike), the records replay, and a bad player is one line, exit 2."""

import json

import pandas as pd
import pytest
from click.testing import CliRunner

from euchre_sim.cli.main import cli

from .helpers import run_cli as run

BENNY_NT = ["--rules", "online", "--set", "joker=true", "--set", "no_trump=true", "--set",
            "defend_alone=true", "--set", "canadian_loner=true", "--set",
            "lone_player_plays_last=true"]


@pytest.fixture(scope="module")
def decisions(tmp_path_factory):
    """A small decisions table for the table bidder (simulate --bidding rules)."""
    out = tmp_path_factory.mktemp("play_bidders") / "table"
    run(["simulate", "--deals", "300", "--seed", "2", "--bidding", "rules", "--out", str(out),
         "--no-progress", "--workers", "1"])
    return out


def contracts_of_records(path) -> list[tuple]:
    out = []
    for line in path.read_text().splitlines():
        r = json.loads(line)
        call = next((b for b in r["bids"] if b["action"] != "pass"), None)
        out.append((r["game"] - 1, r["dealer"], r["upcard"], call and call["seat"],
                    call and call["alone"], r["defend_alone"], r["points"]["NS"],
                    r["points"]["EW"]))
    return out


def contracts_of_tournament(folder) -> list[tuple]:
    hands = pd.read_parquet(folder / "hands.parquet")
    def seat(value):
        return value if isinstance(value, str) else None

    return [(int(h.game), h.dealer, h.upcard, seat(h.maker),
             bool(h.alone) if seat(h.maker) else None, seat(h.defender), int(h.ns_points),
             int(h.ew_points)) for h in hands.itertuples()]


@pytest.mark.parametrize("ns,ew,rules", [
    ("dd", "rules", ["--rules", "standard"]),
    ("human", "dd", BENNY_NT),
    ("rules", "human", ["--rules", "online", "--set", "defend_alone=true"]),
    ("table", "rules", ["--rules", "standard"]),
])
def test_play_plays_the_tournament_s_games(ns, ew, rules, decisions, tmp_path):
    table = ["--bidder-table", str(decisions)] if "table" in (ns, ew) else []
    records = tmp_path / "hands.jsonl"
    result = run(["play", "--games", "4", "--seed", "11", "--ns", ns, "--ew", ew, *rules,
                  *table, "--output", str(records)])
    assert f"NS ({ns} bidder, dd play)" in result.stdout
    run(["tournament", "--games", "4", "--seed", "11", "--ns", ns, "--ew", ew, *rules, *table,
         "--no-duplicate", "--out", str(tmp_path / "t"), "--no-progress", "--workers", "1"])
    got, want = contracts_of_records(records), contracts_of_tournament(tmp_path / "t")
    assert len(got) == len(want) > 20
    assert got == want
    replayed = run(["replay", str(records), *rules])
    assert replayed.stdout.splitlines()[-1] == f"{len(got)} hands: {len(got)} ok, 0 rejected"


def test_random_bids_at_random_and_the_rules_bidder_beats_it(tmp_path):
    """A sign test: were the sides equally strong, NS would win 11 or more of 12 games with
    probability 13 / 2^12 < 0.004."""
    records = tmp_path / "hands.jsonl"
    result = run(["play", "--games", "12", "--seed", "2", "--ns", "rules", "--ew", "random",
                  "--play", "rules", "--output", str(records)])
    last = result.stdout.splitlines()[-1]
    assert "NS (rules bidder, rules play) won" in last and "EW (random bidder, rules play)" in last
    assert int(last.split(" won ")[1].split(",")[0]) >= 11
    bids = [b for line in records.read_text().splitlines() for b in json.loads(line)["bids"]
            if b["seat"] in "EW" and b["action"] != "pass"]
    assert 0.25 < sum(b["alone"] for b in bids) / len(bids) < 0.75  # half the calls alone
    run(["replay", str(records)])


@pytest.mark.parametrize("args,culprit", [
    (["--ns", "oracle"], "'oracle' is not one of"),
    (["--ew", "game"], "'game' is not one of"),
    (["--ns", "dd", "--ew", "random"], "the dd bidder bids knowing how the other side bids"),
    (["--ns", "table"], "the table bidder reads its decisions from --bidder-table"),
    (["--bidder-table", "somewhere"], "the table bidder reads its decisions from --bidder-table"),
    (["--ns-play", "oracle"], "'oracle' is not one of"),
])
def test_a_bad_player_is_one_line_exit_2(args, culprit, tmp_path):
    out = tmp_path / "hands.jsonl"
    result = CliRunner().invoke(cli, ["play", "--games", "1", "--output", str(out), *args])
    assert result.exit_code == 2, result.output
    assert culprit in result.output
    assert len(result.output.strip().splitlines()) == 1
    assert not out.exists()
