"""Euchre as a drinking game (002_831a3438ac97385b.txt), rule by rule."""

import pytest

from euchre_sim.core.rules import build_rules
from euchre_sim.game.drinks import count_drinks
from euchre_sim.game.history import replay_record

from .helpers import bid, new_hand, record

D = build_rules("drinking")


def test_drinking_rule_6_everyone_drinks_when_the_upcard_is_turned_down():
    state = new_hand(D)
    for _ in range(8):
        bid(state)
    assert count_drinks(state) == [1, 1, 1, 1]


HANDS = "JH JD AH KS 9C/TH QH AD 9S TC/KC KD TS QS 9D/TD AS 9H QC JS"


def test_drinking_rules_1_2_3_4_7_on_a_euchre():
    rec = record("W", HANDS, "AC", ["N order_up"], "9H", [
        "N:AH E:TH S:KC W:JS", "W:AC N:9C E:TC S:9D", "W:AS N:KS E:9S S:TS",
        "W:TD N:JD E:AD S:KD", "E:QH S:QS W:QC N:JH"])
    state = replay_record(rec, D)
    assert state.team_tricks() == [0, 5] and state.points() == [0, 2]
    # rule 1: E S W 1.  rule 2: N S lose five tricks, 5 each.  rule 3: EW score 2, N S 2 each.
    # rule 4: S cannot follow in tricks 1 2 5 (3), W in tricks 1 5 (2).  rule 7: N S 4 each.
    assert count_drinks(state) == [5 + 2 + 4, 1, 1 + 5 + 2 + 3 + 4, 1 + 2]


def test_drinking_rule_5_renege_costs_four_points_and_one_more_drink():
    rec = record("W", HANDS, "AC", ["N order_up"], "9H", [
        "N:AH E:TC S:KC W:JS", "W:AC N:9C E:9S S:9D", "W:AS N:KS E:AD S:TS",
        "W:TD N:JD E:TH S:KD", "S:QS W:QC N:JH E:QH"])
    state = replay_record(rec, D)
    assert state.renege == (0, 1, D.card_deck.parse_card("TC"))
    assert state.points() == [4, 0]
    # rule 1: E S W 1.  rule 2: EW win tricks 1 2 3 5 (N S 4 each), NS trick 4 (E W 1 each).
    # rule 4: N 1 (trick 5), E 4 (tricks 2-5), S 2 (1, 2), W 2 (1, 5).
    # rule 3/5: NS score the 4 renege points, E W drink 4 each; E, the reneger, 1 more.
    assert count_drinks(state) == [4 + 1, 1 + 1 + 4 + 4 + 1, 1 + 4 + 2, 1 + 1 + 2 + 4]


def test_drinking_renege_is_rejected_under_standard_rules():
    from euchre_sim.game.history import RecordError

    rec = record("W", HANDS, "AC", ["N order_up"], "9H", [
        "N:AH E:TC S:KC W:JS", "W:AC N:9C E:9S S:9D", "W:AS N:KS E:AD S:TS",
        "W:TD N:JD E:TH S:KD", "S:QS W:QC N:JH E:QH"])
    with pytest.raises(RecordError, match="trick 1, seat E: failure to follow suit"):
        replay_record(rec, build_rules("standard"))


def test_drinking_rule_8_failed_loner():
    rec = record("W", HANDS, "AC", ["N order_up alone"], "9H", [
        "N:AH E:TH W:JS", "W:AC N:9C E:TC", "W:AS N:KS E:9S", "W:TD N:JD E:AD",
        "E:QH W:QC N:JH"])
    state = replay_record(rec, D)
    assert state.points() == [0, 2]
    # N alone (S sits out), euchred. Each event costs N one extra drink.
    # rule 1: E S W 1.  rule 2: five lost tricks: N 2 each, S 1 each.  rule 4: W 2.
    # rule 3: EW score 2: N 3, S 2.  rule 7: N 5, S 4.  rule 8: partner S 1, failed loner N 5.
    assert count_drinks(state) == [10 + 3 + 5 + 5, 1, 1 + 5 + 2 + 4 + 1, 1 + 2]


def test_drinking_rule_8_lone_march_makes_the_losers_drink_one_more():
    rec = record("S", "9C TC QC KC AC/9D TD QD KD AD/9S TS QS KS AS/JH JD AH KH QH", "TH",
                 ["W order_up alone"], "9S", [
                     "W:JH N:9C S:TH", "W:JD N:TC S:TS", "W:AH N:QC S:QS",
                     "W:KH N:KC S:KS", "W:QH N:AC S:AS"])
    state = replay_record(rec, D)
    assert state.points() == [0, 4]
    # rule 1: N E S 1.  rule 2: N S lose five tricks.  rule 4: N cannot follow five times,
    # S four times.  rule 3: EW score 4.  rule 8: partner E 1; the march costs N and S 1 more.
    # The loner W has no drinking event, so no extra drink.
    assert count_drinks(state) == [1 + 5 + 5 + 4 + 1, 1 + 1, 1 + 5 + 4 + 4 + 1, 0]
