"""compare: joined numbers against pandas on the two Parquet files, sorting, JSON, errors."""

import json
import shutil
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from euchre_sim.cli.main import cli
from euchre_sim.core.limits import MAX_ROWS_SHOWN

from .helpers import run_cli as run

DEALS = 200


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """Two standard runs (seeds 1 and 2) and a Yooker run, 200 deals each."""
    root = tmp_path_factory.mktemp("compare")
    for name, extra in (("a", ["--seed", "1"]), ("b", ["--seed", "2"]),
                        ("yooker", ["--seed", "1", "--rules", "yooker"])):
        run(["simulate", "--deals", str(DEALS), "--out", str(root / name), "--no-progress",
             "--workers", "1", *extra])
    return root


def compare_json(runs, *args):
    result = run(["compare", str(runs / "a"), str(runs / "b"), "--json", *args])
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    return lines[0], pd.DataFrame(lines[1:])


def expected_join(runs, name, min_n):
    """The join recomputed from the Parquet files: same class (hand text for calls)."""
    a = pd.read_parquet(runs / "a" / f"{name}.parquet")
    b = pd.read_parquet(runs / "b" / f"{name}.parquet")
    keys = (["round", "seat", "alone", "hand"] if name == "calls" else
            ["round", "seat", "alone", "trumps", "right", "left", "aces", "voids"])
    both = a[a["n"] >= min_n].merge(b[b["n"] >= min_n], on=keys, suffixes=("_a", "_b"))
    both["make_rate_diff"] = both["make_rate_b"] - both["make_rate_a"]
    both["mean_points_diff"] = both["mean_points_b"] - both["mean_points_a"]
    se = np.hypot(both["points_se_a"], both["points_se_b"])
    both["z"] = [d / s if s > 0 else np.nan for d, s in zip(both["mean_points_diff"], se,
                                                                     strict=True)]
    return both.set_index(keys).sort_index(), keys


@pytest.mark.parametrize("name,min_n", [("calls", 1), ("summary", 5)])
def test_joined_rows_match_pandas_on_the_parquet_files(runs, name, min_n):
    head, rows = compare_json(runs, "--table", name, "--min-n", str(min_n), "--limit",
                              str(MAX_ROWS_SHOWN))
    want, keys = expected_join(runs, name, min_n)
    assert len(want) > 20 and head["joined"] == len(rows) == len(want)
    got = rows.set_index(keys).sort_index()
    assert list(got.index) == list(want.index)
    for column in ("n_a", "n_b"):
        assert (got[column].to_numpy() == want[column].to_numpy()).all()
    for column in ("make_rate_a", "make_rate_b", "make_rate_diff", "mean_points_a",
                   "mean_points_b", "mean_points_diff", "z"):
        np.testing.assert_allclose(got[column].astype(float), want[column], rtol=1e-9,
                                   atol=1e-9, err_msg=column)
    if name == "summary":  # classes of five cards rarely repeat in 200 deals: no z there
        assert got["z"].notna().sum() > 20
    else:
        assert (got["trumps"].to_numpy() == want["trumps_a"].to_numpy()).all()


@pytest.mark.parametrize("name", ["calls", "summary"])
def test_overall_pools_every_call_n_weighted(runs, name):
    head, _ = compare_json(runs, "--table", name)
    assert head["kind"] == "overall"
    for side, seed in (("a", 1), ("b", 2)):
        calls = pd.read_parquet(runs / side / "calls.parquet")
        n = calls["n"].sum()
        assert head[side]["n"] == n
        assert head[side]["make_rate"] == pytest.approx((calls["make_rate"] * calls["n"]).sum() / n)
        assert head[side]["mean_points"] == pytest.approx(
            (calls["mean_points"] * calls["n"]).sum() / n)
        assert (head[side]["play"], head[side]["seed"], head[side]["deals"]) == ("dd", seed, DEALS)
    assert head["mean_points_diff"] == pytest.approx(head["b"]["mean_points"]
                                                     - head["a"]["mean_points"])
    assert head["make_rate_diff"] == pytest.approx(head["b"]["make_rate"] - head["a"]["make_rate"])


@pytest.mark.parametrize("by,column", [("points", "mean_points_diff"),
                                       ("make_rate", "make_rate_diff"), ("z", "z")])
def test_sorted_by_absolute_difference_and_limited(runs, by, column):
    args = ["--table", "summary", "--min-n", "3", "--by", by]
    _, everything = compare_json(runs, *args, "--limit", str(MAX_ROWS_SHOWN))
    size = everything[column].astype(float).abs()
    known = size.dropna().to_numpy()
    assert len(known) > 20 and (np.diff(known) <= 0).all()
    assert size.isna().sum() == 0 or size.iloc[len(known):].isna().all()  # NaN z last
    _, top = compare_json(runs, *args, "--limit", "7")
    pd.testing.assert_frame_equal(top, everything.head(7))


def test_terminal_output_names_both_runs_and_notes_the_seeds(runs):
    result = run(["compare", str(runs / "a"), str(runs / "b"), "--table", "summary",
                  "--min-n", "5", "--limit", "5"])
    lines = result.stdout.splitlines()
    assert "(play dd, seed 1, 200 deals)" in lines[0] and "(play dd, seed 2, 200 deals)" in lines[0]
    assert lines[1].startswith("all calls pooled: A n=6400")
    assert "top 5 of" in result.stdout and "Δpoints" in result.stdout
    assert result.stderr.strip().splitlines() == [
        "euchre-sim: note: the runs differ in seed (1 vs 2): they do not play the same deals "
        "(a same-deal comparison needs the same seed and deal count)"]


def test_a_run_against_itself_differs_by_nothing(runs):
    result = run(["compare", str(runs / "a"), str(runs / "a"), "--json", "--min-n", "1",
                  "--limit", str(MAX_ROWS_SHOWN)])
    assert result.stderr == ""
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert lines[0]["mean_points_diff"] == 0 and len(lines) - 1 == lines[0]["joined"] > 1000
    assert all(row["kind"] == "row" and row["mean_points_diff"] == 0 and row["n_a"] == row["n_b"]
               for row in lines[1:])


def test_errors_are_one_line_exit_2(runs, tmp_path):
    unfinished = tmp_path / "unfinished"
    shutil.copytree(runs / "a", unfinished)
    (unfinished / "run.json").unlink()
    cases = [
        ([str(runs / "a"), str(runs / "yooker")], "different rules (yooker: false vs true)"),
        ([str(tmp_path / "nowhere"), str(runs / "a")], "no run folder"),
        ([str(runs / "a"), str(unfinished)], "is an unfinished run"),
        ([str(runs / "a"), str(tmp_path)], "no run.json in"),
        ([str(runs / "a"), str(runs / "b"), "--by", "nope"], "'nope' is not one of"),
    ]
    for args, culprit in cases:
        result = CliRunner().invoke(cli, ["compare", *args])
        assert result.exit_code == 2, result.output
        assert culprit in result.stderr
        assert len(result.output.strip().splitlines()) == 1


def test_import_does_not_load_numba():
    code = "import sys, euchre_sim.report.compare; assert 'numba' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True, capture_output=True)


@pytest.fixture(scope="module")
def bidding_runs(tmp_path_factory):
    """The same 300 deals bid by dd and by the rules bidder."""
    root = tmp_path_factory.mktemp("compare_bidding")
    for bidding in ("dd", "rules"):
        run(["simulate", "--deals", "300", "--seed", "3", "--out", str(root / bidding),
             "--no-progress", "--workers", "1", "--bidding", bidding])
    return root


def test_compare_decisions_joins_turn_class_and_action(bidding_runs):
    result = run(["compare", str(bidding_runs / "dd"), str(bidding_runs / "rules"), "--json",
                  "--table", "decisions", "--min-n", "1", "--by", "chosen_rate",
                  "--limit", str(MAX_ROWS_SHOWN)])
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    head, got = lines[0], pd.DataFrame(lines[1:])
    assert head["a"]["make_rate"] is None  # decisions hold no make rate
    a = pd.read_parquet(bidding_runs / "dd" / "decisions.parquet")
    b = pd.read_parquet(bidding_runs / "rules" / "decisions.parquet")
    keys = ["round", "seat", "hand", "action", "suit", "alone"]
    a["suit"], b["suit"] = a["suit"].fillna("-"), b["suit"].fillna("-")
    want = a.merge(b, on=keys, suffixes=("_a", "_b"))
    assert len(got) == len(want) > 50
    got["suit"] = got["suit"].fillna("-")
    merged = got.merge(want, on=keys, suffixes=("", "_want"))
    assert len(merged) == len(want)
    for field in ("chosen_rate", "mean_points"):
        for side in ("a", "b"):
            np.testing.assert_allclose(merged[f"{field}_{side}"],
                                       merged[f"{field}_{side}_want"], atol=1e-12)
        np.testing.assert_allclose(merged[f"{field}_diff"],
                                   merged[f"{field}_b_want"] - merged[f"{field}_a_want"],
                                   atol=1e-9)
    size = got["chosen_rate_diff"].abs().to_numpy()
    assert (np.diff(size) <= 0).all()
    bad = run(["compare", str(bidding_runs / "dd"), str(bidding_runs / "rules"), "--table",
               "decisions", "--by", "make_rate"], code=2)
    assert "no make rate" in bad.output


@pytest.mark.parametrize("change,why", [
    ({"rules": [1]}, "the rules must be an object of options, got [1]"),
    ({"rules": {"deck": "24"}}, "option 'deck' takes a whole number, got '24'"),
    ({"deals": "many"}, "'deals' is 'many'"),
    ({"seed": [1]}, "'seed' is [1]"),
    ({"players": {"A": 5}}, "'players' is {'A': 5}"),
])
def test_a_run_json_of_the_wrong_types_is_one_line(runs, tmp_path, change, why):
    """compare, and advise reading it as a table bidder's decisions, name the file."""
    damaged = tmp_path / "damaged"
    shutil.copytree(runs / "b", damaged)
    info = json.loads((damaged / "run.json").read_text())
    (damaged / "run.json").write_text(json.dumps(info | change))
    result = run(["compare", str(runs / "a"), str(damaged)], code=2)
    assert result.output.splitlines() == [
        f"euchre-sim: error: {str(damaged / 'run.json')!r} is damaged: {why}"]
    (damaged / "decisions.parquet").write_bytes(b"")
    result = run(["advise", "--hand", "JS AS 9H 9D TC", "--up", "9S", "--seat", "1",
                  "--bidding", "table", "--bidder-table", str(damaged)], code=2)
    assert len(result.output.splitlines()) == 1 and "Traceback" not in result.output
