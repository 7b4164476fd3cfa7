"""The scores an action can make (advice.possible_scores): by hand for standard rules, and
against a slow twin read from the rule texts (tests/naive.py) for every rule set."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from euchre_sim.advice.possible_scores import action_points, action_scores
from euchre_sim.core.rules import build_rules
from tests.conftest import RULE_SETS
from tests.naive import call_points, open_calls


def test_standard_scores_by_hand():
    """A call scores -2 (euchred), 1 or 2 (marched); alone -2, 1 or 4. A pass in round 1
    leaves the rest of the auction to both sides: -4 (their lone march) to 4 (partner's); in
    round 2 at position 3 only the dealer is left, an opponent: -4 .. 2 (we euchre them) or 0
    (passed out); the dealer's pass in round 2 passes the deal out: exactly 0."""
    rules = build_rules("standard")
    up = rules.card_deck.parse_card("9S")
    assert action_points(rules, 1, 1, up, "order_up", False) == (-2, 1, 2)
    assert action_points(rules, 1, 1, up, "order_up", True) == (-2, 1, 4)
    assert action_scores(rules, 1, 1, up, "pass", False) == (-4, 4)
    assert action_points(rules, 2, 3, up, "pass", False) == (-4, -2, -1, 0, 2)
    assert action_points(rules, 2, 4, up, "pass", False) == (0,)


def test_the_rules_scoring_options_move_the_ends():
    """Defending alone: a euchre by a lone defender costs 4; the other options as set."""
    up = 5
    lone_defence = build_rules("standard", ["defend_alone=true"])
    assert action_scores(lone_defence, 1, 2, up, "order_up", False) == (-4, 2)
    assert action_scores(lone_defence, 2, 3, up, "pass", False) == (-4, 4)
    scored = build_rules("standard", ["euchre_points=3", "lone_march_points=6",
                                      "march_points=3"])
    assert action_points(scored, 1, 1, up, "order_up", True) == (-3, 1, 6)
    assert action_scores(scored, 1, 3, up, "pass", False) == (-6, 6)
    stuck = build_rules("standard", ["stick_the_dealer=true"])
    assert 0 not in action_points(stuck, 2, 3, up, "pass", False)  # the dealer must call


def _twin_points(rules, round_no, position, upcard, action, alone):
    """Every score of the action, from the rule texts: a call's by its tricks (and a lone
    defender where allowed); a pass's by every call a later turn may make, by either side, and
    0 where none has to call."""
    defended = (False, True) if rules.defend_alone else (False,)

    def scores(is_alone):
        return {call_points(rules, t, is_alone, d) for t in range(6) for d in defended}

    if action != "pass":
        return tuple(sorted(scores(alone)))
    later = [(r, p) for r in (1, 2) for p in (1, 2, 3, 4) if (r, p) > (round_no, position)]
    points = set()
    if not (rules.stick_the_dealer and (2, 4) in later):
        points.add(0)
    for r, p in later:
        sign = 1 if p % 2 == position % 2 else -1
        for alone_call in {a for _, a in open_calls(rules, r, p, upcard)}:
            points |= {sign * x for x in scores(alone_call)}
    return tuple(sorted(points))


@given(st.sampled_from(sorted(RULE_SETS)), st.integers(1, 2), st.integers(1, 4),
       st.integers(0, 31), st.sampled_from([("pass", False), ("call", False),
                                            ("call", True)]))
def test_every_rule_set_s_scores_match_the_rule_texts(name, round_no, position, card, action):
    rules = RULE_SETS[name]
    cards = [c for c in range(64) if rules.card_deck.mask >> c & 1]
    upcard = cards[card % len(cards)]
    kind, alone = action
    if kind == "call" and alone and not rules.allow_alone:
        return
    got = action_points(rules, round_no, position, upcard, kind, alone)
    assert got == _twin_points(rules, round_no, position, upcard, kind, alone)


@pytest.mark.parametrize("name", ["standard", "online", "yooker", "drinking"])
def test_the_atlas_presets_never_score_past_their_most(name):
    rules = build_rules(name)
    for round_no in (1, 2):
        for position in (1, 2, 3, 4):
            low, high = action_scores(rules, round_no, position, 5, "pass", False)
            assert -rules.max_hand_points <= low <= high <= rules.max_hand_points
