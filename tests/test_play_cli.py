"""--play through the CLI: simulate tables per model on the same deals, compare, advise, play."""

import json

import pandas as pd
import pytest

from euchre_sim.core.dealing import deal_batch
from euchre_sim.core.rules import build_rules
from euchre_sim.play.player import Player
from euchre_sim.play.playout import Playout, play_deals

from .helpers import run_cli as run


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    root = tmp_path_factory.mktemp("play")
    for model, deals in (("dd", 60), ("rules", 60), ("pimc", 12)):
        run(["simulate", "--deals", str(deals), "--seed", "3", "--out", str(root / model),
             "--no-progress", "--workers", "1", "--play", model, "--worlds", "5",
             "--keep-deals"])
    return root


@pytest.mark.parametrize("model", ["rules", "pimc"])
def test_simulate_with_a_play_model_writes_complete_tables_of_that_model(runs, model):
    out = runs / model
    info = json.loads((out / "run.json").read_text())
    assert info["play"] == model and (info["worlds"] == 5) == (model == "pimc")
    outcomes = pd.read_parquet(out / "outcomes.parquet")
    rules = build_rules("standard")
    hands, ups = deal_batch(rules, 3, 0, info["deals"])
    want = play_deals(rules, Playout(Player(play=model, worlds=5)), (hands, ups, 0), seed=3,
                      start=0)
    assert len(outcomes) == (want >= 0).sum()
    assert sorted(outcomes["maker_tricks"]) == sorted(want[want >= 0].tolist())
    calls = pd.read_parquet(out / "calls.parquet")
    assert calls["n"].sum() == len(outcomes)


def test_models_play_the_same_deals_and_compare_joins_them(runs):
    dd = pd.read_parquet(runs / "dd" / "outcomes.parquet")
    rules = pd.read_parquet(runs / "rules" / "outcomes.parquet")
    keys = ["deal", "round", "trump", "maker", "alone"]
    assert dd[keys].equals(rules[keys])  # the same calls of the same deals
    assert (dd["maker_tricks"] != rules["maker_tricks"]).any()
    result = run(["compare", str(runs / "dd"), str(runs / "rules"), "--table", "summary",
                  "--min-n", "5", "--json"])
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert lines[0]["kind"] == "overall" and len(lines) > 1


@pytest.mark.parametrize("model,named", [
    ("dd", "dd: double dummy: every seat sees every hand and plays perfectly"),
    ("rules", "rules: conventional player: own hand and cards played only"),
    ("pimc", "pimc: perfect-information Monte Carlo over sampled worlds, 5 worlds"),
])
def test_plot_title_names_the_runs_play_model(runs, tmp_path, model, named):
    from PIL import Image

    png = tmp_path / "plot.png"
    run(["plot", str(runs / model), "--output", str(png), "--round", "2"])
    with Image.open(png) as image:
        title = image.text["Title"]
    assert title == f"Round 2 (name another suit), {named} — seat 1 = dealer's left, 4 = dealer"


def test_simulate_resume_refuses_another_play_model(runs, tmp_path):
    out = tmp_path / "r"
    run(["simulate", "--deals", "20", "--out", str(out), "--no-progress", "--workers", "1",
         "--play", "rules", "--chunk-size", "10"])
    result = run(["simulate", "--deals", "20", "--out", str(out), "--no-progress", "--resume",
                  "--play", "rules"])
    assert "already complete" in result.output
    result = run(["simulate", "--deals", "20", "--out", str(out), "--no-progress", "--resume",
                  "--play", "pimc"], code=2)
    assert "different play" in result.output and len(result.output.strip().splitlines()) == 1


def test_unknown_play_model_is_one_line_and_exit_2(tmp_path):
    result = run(["simulate", "--deals", "5", "--out", str(tmp_path / "x"), "--play", "oracle"],
                 code=2)
    assert len(result.output.strip().splitlines()) == 1


def test_advise_json_reports_the_model_beside_double_dummy():
    result = run(["advise", "--hand", "JS AS 9H 9D TC", "--up", "9S", "--seat", "1",
                  "--deals", "60", "--play", "rules", "--json"])
    data = json.loads(result.stdout)
    assert data["play"] == "rules" and data["deals"] == 60
    dd = run(["advise", "--hand", "JS AS 9H 9D TC", "--up", "9S", "--seat", "1",
              "--deals", "60", "--play", "dd", "--json"])
    dd_actions = {a["alone"]: a for a in json.loads(dd.stdout)["actions"]}
    for action in data["actions"]:
        assert action["dd"]["mean_points"] == dd_actions[action["alone"]]["mean_points"]


def test_play_with_a_model_records_hands_that_replay(tmp_path):
    out = tmp_path / "hands.jsonl"
    result = run(["play", "--games", "1", "--seed", "3", "--play", "pimc", "--worlds", "4",
                  "--output", str(out)])
    assert "(rules bidder, pimc play)" in result.output
    run(["replay", str(out)])

