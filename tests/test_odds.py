"""Game-win odds by score: the dynamic programme against plain Monte-Carlo games on the same
hand results, symmetry, the target, monotonicity, the delta-method error by hand, and the CLI."""

import json
import random

import numpy as np
import pandas as pd
import pytest

from euchre_sim.core.rules import build_rules
from euchre_sim.game.odds import HandResults, odds_table, results_from_auction, win_odds
from euchre_sim.play.player import Player

from .helpers import run_cli

# a made-up but Euchre-like hand: the dealing side scores 1 (40 %), 2 (12 %), 4 (2 %);
# the other side 1 (20 %), 2 (18 %), 4 (1 %); 7 % passed out
RESULTS = HandResults(np.array([0, 400, 120, 0, 20]), np.array([0, 200, 180, 0, 10]), 70)


def _naive_game(results, target, us, them, we_deal, rng):
    """One game played hand by hand, each result drawn from the counts; does 'us' win?"""
    outcomes = ([("dealer", k, c) for k, c in enumerate(results.dealer) if c]
                + [("other", k, c) for k, c in enumerate(results.other) if c]
                + [("passed", 0, results.passed)])
    weights = [c for _, _, c in outcomes]
    while us < target and them < target:
        side, k, _ = rng.choices(outcomes, weights)[0]
        if side != "passed":
            ours = (side == "dealer") == we_deal
            us, them = (us + k, them) if ours else (us, them + k)
        we_deal = not we_deal
    return us >= target


@pytest.mark.parametrize("us,them,we_deal", [(0, 0, True), (0, 0, False), (8, 9, True),
                                             (9, 8, False), (5, 2, True)])
def test_dynamic_programme_agrees_with_played_games(us, them, we_deal):
    p, _ = win_odds(RESULTS, 10)
    rng = random.Random(us * 100 + them * 10 + we_deal)
    games = 20_000
    wins = sum(_naive_game(RESULTS, 10, us, them, we_deal, rng) for _ in range(games))
    mc = wins / games
    se = max((mc * (1 - mc) / games) ** 0.5, 1e-3)
    assert abs(p[us, them, int(we_deal)] - mc) < 4.5 * se


def test_the_two_sides_chances_add_up_and_the_target_decides():
    p, _ = win_odds(RESULTS, 10)
    for a in range(10):
        for b in range(10):
            assert p[a, b, 1] + p[b, a, 0] == pytest.approx(1.0)
        assert (p[10, a, :] == 1).all() and (p[a, 10, :] == 0).all()
    assert (np.diff(p[:10, :10, :], axis=0) >= -1e-12).all()  # more points, better odds
    assert (np.diff(p[:10, :10, :], axis=1) <= 1e-12).all()


def test_standard_error_by_the_delta_method_by_hand():
    """Target 1: p(deal) = (D + r O) / (1 - r^2) with D, O the chances that the dealing or
    the other side scores and r a pass-out; the error follows from its gradient."""
    _, se = win_odds(RESULTS, 1)
    n = RESULTS.deals
    cells = np.concatenate([RESULTS.dealer[1:], RESULTS.other[1:], [RESULTS.passed]]) / n
    d, o, r = cells[:4].sum(), cells[4:8].sum(), cells[8]
    grad = np.concatenate([np.full(4, 1 / (1 - r * r)), np.full(4, r / (1 - r * r)),
                           [o / (1 - r * r) + 2 * r * (d + r * o) / (1 - r * r) ** 2]])
    cov = (np.diag(cells) - np.outer(cells, cells)) / n
    assert se[0, 0, 1] == pytest.approx(np.sqrt(grad @ cov @ grad), rel=1e-3)


def test_hand_results_from_an_auction_table_by_hand():
    rules = build_rules("online", ["defend_alone=true"])
    auction = pd.DataFrame({
        "round": [0, 1, 2, 1], "seat": [0, 4, 1, 3], "alone": [False, False, True, True],
        "defended": [False, False, False, True], "n": [5, 10, 4, 2],
        "make_rate": [np.nan, 0.8, 0.5, 0.0], "march_rate": [np.nan, 0.2, 0.25, 0.0],
        "euchred_rate": [np.nan, 0.2, 0.5, 1.0]})
    got = results_from_auction(auction, rules)
    # seat 4 (dealing side): 6 made (1), 2 marched (2), 2 euchred (the other side 2);
    # seat 1 alone: 1 made (1 to the other side), 1 lone march (4), 2 euchred (dealer side 2);
    # seat 3 alone, defended alone: 2 euchred (the dealer side scores lone_defence_points 4)
    assert list(got.dealer) == [0, 6, 2 + 2, 0, 2]
    assert list(got.other) == [0, 1, 2, 0, 1]
    assert got.passed == 5


def test_odds_command(tmp_path):
    plain = tmp_path / "plain"
    run_cli(["simulate", "--deals", "300", "--seed", "1", "--out", str(plain), "--no-progress"])
    bad = run_cli(["odds", "--out", str(tmp_path / "o1"), "--from", str(plain)], code=2)
    assert "without --bidding" in bad.output
    out = tmp_path / "odds"
    result = run_cli(["odds", "--out", str(out), "--deals", "400", "--seed", "2", "--json"])
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    table = pd.read_parquet(out / "odds.parquet")
    assert len(lines) == len(table) == 11 * 11 * 2 - 2
    assert {"us", "them", "we_deal", "p_win", "p_win_se"} <= set(table.columns)
    assert json.loads((out / "run.json").read_text())["bidding"] == "rules"
    pd.testing.assert_frame_equal(odds_table(results_from_auction(
        pd.read_parquet(out / "auction.parquet"), build_rules("standard")), 10), table,
        check_dtype=False)


def test_at_nine_all_a_call_wins_the_game_exactly_when_it_is_made():
    """At 9-9 in a game to 10 any made call ends the game for the makers and any euchre for
    the defenders, so a call's chance of winning is its make rate, whatever the odds table."""
    from euchre_sim.advice.auction_advice import advise_in_auction
    from euchre_sim.advice.question import AdviceQuestion

    rules = build_rules("standard")
    result = advise_in_auction(AdviceQuestion(rules, "JS AS 9H 9D TC", 1, up="9S", deals=300,
                                              seed=4, player=Player("rules"), score=(9, 9)))
    calls = [a for a in result["actions"] if a["action"] != "pass"]
    assert calls and all(a["p_win"] == pytest.approx(a["make_rate"]) for a in calls)
    best = max(result["actions"], key=lambda a: a["p_win"])
    margin = result["game_margin"]
    assert {k: margin[k] for k in ("action", "suit", "alone")} == \
        {k: best[k] for k in ("action", "suit", "alone")}


@pytest.mark.parametrize("hand, seat", [("JS AS 9H 9D TC", 1), ("JS JC AS KS 9D", 2),
                                        ("QH KH 9C TC AD", 1)])
def test_the_best_for_the_game_is_stated_only_when_its_paired_lead_separates_it(
        tmp_path, hand, seat):
    """Issue 76: at 9-9 each deal's chance of winning is, by hand, 1 after a made call of
    ours or a euchre of theirs, 0 after theirs made or ours euchred, and the odds' chance at
    9-9 after a pass-out (odds[9, 9, we deal next]); the margin for the game is the top
    action's mean lead over the runner-up on the same deals, its standard error the paired
    one, and `best_for_game` is stated only when lead - 1.96 se > 0."""
    from euchre_sim.advice.auction_advice import advise_in_auction, reached_deals, turn_of
    from euchre_sim.advice.question import AdviceQuestion, call_actions
    from euchre_sim.core.seats import side_sign
    from euchre_sim.game.odds import read_odds

    out = tmp_path / "odds"
    run_cli(["odds", "--out", str(out), "--deals", "300", "--seed", "2"])
    rules = build_rules("standard")
    question = AdviceQuestion(rules, hand, seat, up="9S", deals=400, seed=4, odds=str(out),
                              player=Player("rules"), score=(9, 9))
    result = advise_in_auction(question)
    kept = reached_deals(question)
    q, passed_out = question.cards, read_odds(str(out), rules)[9, 9, int(seat % 2 == 1)]
    points = {("pass", None, False): side_sign(q.seat) * kept["values"][:, turn_of(question) + 1]}
    for action, trump, alone, row in call_actions(rules, 1, seat, q.ref_card):
        points[action, rules.card_deck.suit_name(trump), alone] = kept["contracts"][:, row, 0]
    chances = {key: np.where(p > 0, 1.0, np.where(p < 0, 0.0, passed_out))
               for key, p in points.items()}
    (top, first), (runner_up, second) = sorted(chances.items(), key=lambda kv: -kv[1].mean())[:2]
    diff = first - second
    lead, se = diff.mean(), diff.std(ddof=1) / np.sqrt(len(diff))
    margin = result["game_margin"]
    assert (margin["action"], margin["suit"], margin["alone"]) == top
    assert tuple(margin["runner_up"].values()) == runner_up
    assert margin["paired"] and margin["lead"] == pytest.approx(lead)
    if se == 0:  # every deal's difference alike: the rule of three's, never an error of 0
        assert margin["lead_se"] > 0
        return
    assert margin["lead_se"] == pytest.approx(se, rel=0.02)
    assert margin["lead_se"] >= se * (1 - 1e-12)
    if abs(lead / se - 1.959964) > 0.2:  # clear of the line: Wilson's bend moves it a little
        assert (result["best_for_game"] is not None) == (lead - 1.959964 * se > 0)


def test_advise_score_reads_an_odds_table_and_refuses_bad_input(tmp_path):
    out = tmp_path / "odds"
    run_cli(["odds", "--out", str(out), "--deals", "300", "--seed", "2"])
    args = ["advise", "--hand", "JS AS 9H 9D TC", "--up", "9S", "--seat", "2", "--deals", "100"]
    result = run_cli(args + ["--bidding", "rules", "--score", "3-7", "--odds", str(out),
                             "--json"])
    answer = json.loads(result.stdout)
    assert answer["score"] == {"us": 3, "them": 7}
    assert all(0 <= a["p_win"] <= 1 for a in answer["actions"])
    for bad, culprit in ((["--play", "dd", "--score", "3-7"], "--score needs --bidding"),
                         (["--bidding", "rules", "--score", "three"], "US-THEM"),
                         (["--bidding", "rules", "--score", "3-12"], "below the target"),
                         (["--bidding", "rules", "--score", "3-7", "--odds", str(tmp_path)],
                          "no odds.parquet")):
        error = run_cli(args + bad, code=2)
        assert culprit in error.output and len(error.output.strip().splitlines()) == 1


def test_plot_odds_and_decisions(tmp_path):
    from PIL import Image

    out = tmp_path / "odds"
    run_cli(["odds", "--out", str(out), "--deals", "300", "--seed", "2"])
    for name, title in (("odds", "Winning the game to 10 from each score"),
                        ("decisions", "Round 1 decisions, bidding rules, dd: double dummy: "
                                      "every seat sees every hand and plays perfectly")):
        png = tmp_path / f"{name}.png"
        run_cli(["plot", str(out), "--table", name, "--output", str(png)])
        with Image.open(png) as image:
            assert image.text["Title"] == title
    plain = tmp_path / "plain"
    run_cli(["simulate", "--deals", "200", "--seed", "1", "--out", str(plain), "--no-progress"])
    error = run_cli(["plot", str(plain), "--table", "odds", "--output", str(tmp_path / "x.png")],
                    code=2)
    assert "no odds.parquet" in error.output
    error = run_cli(["plot", str(plain), "--table", "decisions", "--output",
                     str(tmp_path / "y.png")], code=2)
    assert "no decisions.parquet" in error.output
