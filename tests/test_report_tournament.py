"""table, export, compare and plot on tournament folders: the players table against plain
loops over games.parquet and hands.parquet, the files exported as written, two tournaments
compared, one-line errors for what cannot be read or compared."""

import json
import math

import pandas as pd
import pytest
from click.testing import CliRunner

from euchre_sim.cli.main import cli
from euchre_sim.core.limits import MAX_ROWS_SHOWN

from .helpers import run_cli as run


@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    """Two tournaments on the same deals (rules and human bidders against dd, dd play; about
    400 hands each) and a small simulation."""
    root = tmp_path_factory.mktemp("report_tournament")
    for name, ns in (("t1", "rules"), ("t2", "human")):
        run(["tournament", "--ns", ns, "--ew", "dd", "--games", "20", "--seed", "5", "--out",
             str(root / name), "--no-progress", "--workers", "1"])
    run(["simulate", "--deals", "50", "--seed", "1", "--out", str(root / "sim"),
         "--no-progress", "--workers", "1"])
    return root


def expected_player(root, player: str, side: str) -> dict:
    """A player's row recomputed hand by hand and game by game with plain loops."""
    games = pd.read_parquet(root / "games.parquet").to_dict("records")
    hands = pd.read_parquet(root / "hands.parquet").to_dict("records")
    won, per_game = [], {}
    for g in games:
        mine = "NS" if g["ns_player"] == player else "EW"
        if side in (mine, "both"):
            won.append(g["winner"] == mine)
            per_game.setdefault(g["game"], []).append(g["winner"] == mine)
    scored, net, called, made = [], [], 0, 0
    for h in hands:
        mine = "NS" if (h["copy"] == 0) == (player == "A") else "EW"
        if side not in (mine, "both"):
            continue
        ours, theirs = (h["ns_points"], h["ew_points"]) if mine == "NS" else \
            (h["ew_points"], h["ns_points"])
        scored.append(ours)
        net.append(ours - theirs)
        if isinstance(h["maker"], str) and (h["maker"] in "NS") == (mine == "NS"):
            called += 1
            made += ours > 0
    units = [sum(v) / len(v) for v in per_game.values()] if side == "both" else won

    def mean_se(xs):
        m = sum(xs) / len(xs)
        return m, math.sqrt(sum((x - m) ** 2 for x in xs) / (len(xs) - 1) / len(xs))

    rate, rate_se = mean_se([float(u) for u in units])
    return {"games": len(won), "wins": sum(won), "win_rate": rate, "win_rate_se": rate_se,
            "hands": len(scored), "points_per_hand": mean_se(scored)[0],
            "net_per_hand": mean_se(net)[0], "net_per_hand_se": mean_se(net)[1],
            "called_rate": called / len(scored), "make_rate": made / called}


def table_json(*args) -> pd.DataFrame:
    result = run(["table", *map(str, args), "--json", "--limit", str(MAX_ROWS_SHOWN)])
    return pd.DataFrame([json.loads(line) for line in result.stdout.splitlines()])


def test_players_table_matches_plain_loops_and_the_run_summary(folders):
    players = table_json(folders / "t1")
    assert list(zip(players["player"], players["side"], strict=True)) == [
        (p, s) for p in "AB" for s in ("NS", "EW", "both")]
    assert set(players["bidder"]) == {"rules", "dd"} and set(players["play"]) == {"dd"}
    assert players["hands"].iloc[2] > 300  # a few hundred hands
    for row in players.to_dict("records"):
        want = expected_player(folders / "t1", row["player"], row["side"])
        for key, value in want.items():
            assert row[key] == pytest.approx(value, rel=1e-9, abs=1e-12), (row, key)
    summary = json.loads((folders / "t1" / "run.json").read_text())["summary"]
    a = players[(players["player"] == "A") & (players["side"] == "both")].iloc[0]
    assert a["win_rate"] == pytest.approx(summary["a_win_rate"])
    assert a["win_rate_se"] == pytest.approx(summary["a_win_rate_se"])
    assert a["net_per_hand"] == pytest.approx(summary["a_points_per_hand"])
    assert a["net_per_hand_se"] == pytest.approx(summary["a_points_per_hand_se"])


def test_table_shows_the_players_by_default_and_the_games_and_hands_on_demand(folders):
    result = run(["table", str(folders / "t1")])
    assert "players: 6 rows" in result.stdout
    assert "A: rules bidder, dd play vs B: dd bidder, dd play; seed 5" in result.stdout
    games = pd.read_parquet(folders / "t1" / "games.parquet")
    shown = table_json(folders / "t1", "--table", "games", "--sort", "hands")
    assert len(shown) == len(games) == 40
    assert shown["hands"].tolist() == sorted(games["hands"], reverse=True)
    lone = table_json(folders / "t1", "--table", "hands", "--alone")
    hands = pd.read_parquet(folders / "t1" / "hands.parquet")
    assert len(lone) == int(hands["alone"].sum()) and lone["alone"].all()


def test_export_writes_a_tournament_s_tables_as_they_are(folders, tmp_path):
    out = tmp_path / "games.csv"
    run(["export", str(folders / "t1"), "--format", "csv", "--output", str(out)])
    pd.testing.assert_frame_equal(pd.read_csv(out),
                                  pd.read_parquet(folders / "t1" / "games.parquet"),
                                  check_dtype=False)
    result = run(["export", str(folders / "t1"), "--format", "json", "--table", "hands"])
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    hands = pd.read_parquet(folders / "t1" / "hands.parquet")
    assert len(lines) == len(hands)
    passed = hands["action"].isna()
    assert [r["tricks"] for r in lines] == [None if p else int(t) for p, t in
                                             zip(passed, hands["tricks"], strict=True)]
    players = run(["export", str(folders / "t1"), "--format", "json", "--table", "players"])
    assert len(players.stdout.splitlines()) == 6


def test_compare_two_tournaments_player_by_player(folders):
    result = run(["compare", str(folders / "t1"), str(folders / "t2"), "--json"])
    assert result.stderr == ""  # the same seed and games: no note
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    head, rows = lines[0], pd.DataFrame(lines[1:])
    assert head["kind"] == "overall" and head["run_2"]["players"]["A"] == "human bidder, dd play"
    assert (rows["kind"] == "row").all() and len(rows) == 6
    one, two = table_json(folders / "t1"), table_json(folders / "t2")
    for field in ("win_rate", "net_per_hand", "called_rate", "make_rate"):
        assert rows[f"{field}_diff"].tolist() == pytest.approx(
            (two[field] - one[field]).tolist())
    se = (one["net_per_hand_se"] ** 2 + two["net_per_hand_se"] ** 2) ** 0.5
    assert rows["z"].tolist() == pytest.approx(((two["net_per_hand"] - one["net_per_hand"])
                                                / se).tolist())
    same = run(["compare", str(folders / "t1"), str(folders / "t1"), "--json"])
    assert all(json.loads(line)["net_per_hand_diff"] == 0
               for line in same.stdout.splitlines()[1:])
    text = run(["compare", str(folders / "t1"), str(folders / "t2")]).stdout
    assert text.startswith(f"1: {folders / 't1'} (A: rules bidder") and "Δnet" in text


def test_what_cannot_be_compared_or_read_is_one_line_exit_2(folders):
    t1, t2, sim = (str(folders / n) for n in ("t1", "t2", "sim"))
    cases = [
        (["compare", t1, sim], "cannot compare a tournament"),
        (["compare", sim, t1], "cannot compare a simulation"),
        (["compare", t1, t2, "--by", "z"], "--by: tournaments are compared by their players"),
        (["compare", t1, t2, "--table", "hands"], "--table hands: tournaments are compared"),
        (["compare", t1, t2, "--table", "calls"], "is a tournament: its tables are players"),
        (["table", t1, "--table", "calls"], "its tables are players, games, hands (not calls)"),
        (["table", sim, "--table", "games"], "is a simulation: its tables are calls"),
        (["table", t1, "--seat", "1"], "no 'seat' column"),
        (["export", t1, "--format", "csv", "--table", "summary"], "(not summary)"),
        (["plot", t1, "--output", "x.png", "--table", "decisions"], "(not decisions)"),
        (["plot", sim, "--output", "x.png", "--table", "players"], "unknown plot 'players'"),
    ]
    for args, culprit in cases:
        result = CliRunner().invoke(cli, args)
        assert result.exit_code == 2, (args, result.output)
        assert culprit in result.stderr, (args, result.stderr)
        assert len(result.output.strip().splitlines()) == 1


def test_plot_draws_a_tournament_s_players(folders, tmp_path):
    pytest.importorskip("matplotlib")
    from PIL import Image

    out = tmp_path / "t.png"
    result = run(["plot", str(folders / "t1"), "--output", str(out)])
    assert f"wrote {out}" in result.stderr
    image = Image.open(out)
    assert image.size[0] > 800
    assert image.text["Title"] == ("Tournament: A: rules bidder, dd play vs B: dd bidder, dd "
                                   "play; seed 5, 20 duplicate pairs")
