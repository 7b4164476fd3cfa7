"""Issue 76: every figure `advise` states keeps its interval within what can happen and its
standard error in agreement with it, and every "best" it states is separated from the
runner-up at 95 %; the questions drawn as a user meets them, from the shipped atlases (their
answers come at once) and from simulations."""

import json

import pytest

from euchre_sim.advice.advice_request import answer
from euchre_sim.advice.atlas import atlas_answer
from euchre_sim.advice.possible_scores import action_scores
from euchre_sim.advice.question import AdviceQuestion
from euchre_sim.core.dealing import deal_one
from euchre_sim.core.rules import build_rules
from euchre_sim.core.seats import seat_at
from euchre_sim.play.player import Player

from .helpers import run_cli

Z = 1.959963984540054
SCORES = ((9, 6), (8, 9), (4, 4), (0, 0))


def _check_figure(mean: float, se: float, interval: list[float], low: float, high: float):
    """Inside low..high, around the mean, and no reader's z from the stated error beyond
    what the interval allows (an error of 0 only beside an interval of no width)."""
    lo, hi = interval
    assert low - 1e-12 <= lo <= mean + 1e-12 and mean - 1e-12 <= hi <= high + 1e-12
    assert Z * se >= max(mean - lo, hi - mean) - 1e-12
    assert se > 0 or hi - lo == 0


def _check_margin(margin: dict | None, best: dict | None):
    """A best is stated exactly when the margin's interval lies above 0, and then it is the
    margin's top action with the margin's lead."""
    if margin is None:
        assert best is None
        return
    assert margin["separated"] == (margin["lead_ci95"][0] > 0)
    _check_figure(margin["lead"], margin["lead_se"], margin["lead_ci95"], -16, 16)
    if best is None:
        assert not margin["separated"]
    else:
        assert margin["separated"]
        assert (best["action"], best["suit"], best["alone"]) == \
            (margin["action"], margin["suit"], margin["alone"])
        assert (best["lead"], best["lead_se"]) == (margin["lead"], margin["lead_se"])


def _check_answer(result: dict, rules, round_no: int, ref_card: int):
    for a in result["actions"]:
        low, high = action_scores(rules, round_no, result["seat"], ref_card, a["action"],
                                  a["alone"])
        _check_figure(a["mean_points"], a["points_se"], a["ci95"], low, high)
        if a.get("dd_ci95") is not None:
            _check_figure(a["dd_mean_points"], a["dd_points_se"], a["dd_ci95"], low, high)
        if "p_win" in a:
            _check_figure(a["p_win"], a["p_win_se"], a["p_win_ci95"], 0.0, 1.0)
    _check_margin(result["margin"], result["best"])
    if "score" in result:
        _check_margin(result["game_margin"], result["best_for_game"])
        assert result["game_differs"] == (
            result["best"] is not None and result["best_for_game"] is not None
            and (result["best"]["action"], result["best"]["suit"], result["best"]["alone"])
            != (result["best_for_game"]["action"], result["best_for_game"]["suit"],
                result["best_for_game"]["alone"]))


@pytest.mark.parametrize("preset_name", ["standard", "online", "yooker"])
def test_every_atlas_answer_keeps_its_figures_possible_and_its_bests_separated(preset_name):
    """Questions as a user meets them (a random deal, a position and a round, the hand
    there, a score one question in two): the issue found points intervals below -2 for calls,
    chances below 0, zero errors beside intervals with width and a best for the game with
    no separation."""
    rules = build_rules(preset_name)
    deck, answered, by_level = rules.card_deck, 0, set()
    for index in range(160):
        hands, upcard = deal_one(rules, 7676, index, 0)
        position, round_no = index % 4 + 1, index // 4 % 2 + 1
        ref = {"up" if round_no == 1 else "turned_down": deck.card_name(upcard)}
        score = SCORES[index // 8 % 4] if index % 2 else None
        question = AdviceQuestion(rules, deck.format_hand(hands[seat_at(0, position)]),
                                  position, **ref, score=score)
        result = atlas_answer(question)
        if result is None:
            continue
        answered += 1
        by_level.add(result["atlas"]["level"])
        _check_answer(result, rules, round_no, upcard)
    assert answered >= 120 and {"class", "pooled"} <= by_level


def test_the_issue_s_yooker_hand_at_9_6_is_too_close_to_call_for_the_game():
    """Issue 76: order up 76.4 ± 1.6 % against pass 75.6 ± 3.8 % was printed as the best for
    the game; a fresh simulation said pass. The atlas keeps no paired error of the two, so the
    margin's is their sum, and a lead of 0.8 % is not separated."""
    args = ["advise", "--rules", "yooker", "--hand", "3S 1Q 3T 5O 2O", "--up", "6Q", "--seat",
            "1", "--score", "9-6"]
    result = json.loads(run_cli(args + ["--json"]).stdout)
    assert result["source"] == "atlas" and result["best_for_game"] is None
    margin = result["game_margin"]
    by_name = {(a["action"], a["alone"]): a for a in result["actions"]}
    order_up, passed = by_name["order_up", False], by_name["pass", False]
    assert (margin["action"], margin["runner_up"]["action"]) == ("order_up", "pass")
    assert margin["lead"] == pytest.approx(order_up["p_win"] - passed["p_win"])
    assert margin["lead_se"] >= order_up["p_win_se"] + passed["p_win_se"] - 1e-12
    assert not margin["paired"] and not result["game_differs"]
    text = run_cli(args).output
    assert "best for the game: too close to call (order up leads pass by +" in text


@pytest.mark.parametrize("fields", [
    {"play": "dd", "deals": 600},
    {"bidding": "rules", "play": "rules", "deals": 600, "score": "8-9"},
    {"bidding": "human", "play": "learned", "deals": 400, "score": "9-6"},
])
def test_every_simulated_answer_keeps_its_figures_possible_and_its_bests_separated(fields):
    rules = build_rules("standard")
    for hand, position, ref in (("JS AS 9H 9D TC", 1, {"up": "9S"}),
                                ("TS QC JC KS JD", 1, {"up": "JH"}),
                                ("JS JC AS KS 9D", 4, {"turned_down": "9H"})):
        player = Player(fields.get("bidding"), fields["play"])
        question = AdviceQuestion(rules, hand, position, **ref, deals=fields["deals"], seed=5,
                                  player=player, score=fields.get("score"))
        result = answer(question)
        _check_answer(result, rules, question.cards.round_no, question.cards.ref_card)
        assert result["margin"]["paired"]
        if "score" in result:
            assert result["game_margin"]["paired"]
