"""The shipped strategies drive every rule set end to end, legally and reproducibly."""

from math import comb

import pytest

from euchre_sim.game.history import replay_record, state_to_record
from euchre_sim.game.selfplay import play_games

from .conftest import RULE_SETS


@pytest.mark.parametrize("name", sorted(RULE_SETS))
def test_self_play_games_replay_and_reach_the_target(name):
    rules = RULE_SETS[name]
    hands = list(play_games(rules, 2, seed=4, strategy_names=("rules", "random")))
    assert max(hands[-1].score_after) >= rules.target
    for i, hand in enumerate(hands):
        record = state_to_record(hand.state, i)
        assert replay_record(record, rules).points() == hand.state.points()


def test_self_play_is_reproducible_from_the_seed():
    rules = RULE_SETS["online"]
    first = [h.score_after for h in play_games(rules, 2, seed=9)]
    again = [h.score_after for h in play_games(rules, 2, seed=9)]
    assert first == again


def test_rule_player_beats_random_player():
    """A sign test: were the players equally strong, each game would be a fair coin, and NS
    would win `wins` or more of 20 with probability sum(C(20, k), k >= wins) / 2^20; that
    must be below 0.001 (18 wins or more)."""
    rules = RULE_SETS["standard"]
    finals = {}
    for hand in play_games(rules, 20, seed=1, strategy_names=("rules", "random")):
        finals[hand.game] = hand.score_after
    wins = sum(ns > ew for ns, ew in finals.values())
    games = len(finals)
    assert games == 20
    assert sum(comb(games, k) for k in range(wins, games + 1)) / 2**games < 0.001
