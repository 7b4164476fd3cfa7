"""Shared fixtures: every rule set the tool supports, for tests that loop over them."""

import pytest
from hypothesis import settings

from euchre_sim.core.rules import build_rules

settings.register_profile("ci", max_examples=150, deadline=None)
settings.load_profile("ci")

RULE_SETS = {
    "standard": build_rules("standard"),
    "yooker": build_rules("yooker"),
    "drinking": build_rules("drinking"),
    "online": build_rules("online"),
    "benny_nt": build_rules("online", ["joker=true", "no_trump=true", "defend_alone=true",
                                       "canadian_loner=true", "lone_player_plays_last=true"]),
    "deck28": build_rules("standard", ["deck=28"]),
    "deck32_joker": build_rules("standard", ["deck=32", "joker=true", "no_trump=true"]),
    "yooker_joker_nt": build_rules("yooker", ["joker=true", "no_trump=true"]),
}


@pytest.fixture(params=sorted(RULE_SETS))
def ruleset(request):
    return RULE_SETS[request.param]
