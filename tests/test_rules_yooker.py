"""Yooker, rule by rule (000_f1b1c8211500ad38.txt, the Yooker half)."""

from euchre_sim.core.rules import build_rules
from euchre_sim.core.ruletables import make_points

from .helpers import winner_of

Y = build_rules("yooker")


def test_yooker_deck_has_ranks_one_to_six_in_four_shapes():
    deck = Y.card_deck
    assert len(deck.cards) == 24
    assert deck.ranks == "123456"
    assert deck.format_hand(deck.mask).count("S") == 6


def test_yooker_three_of_power_shape_beats_its_six():
    assert winner_of(Y, "Q", "6Q 3Q") == "3Q"


def test_yooker_power_card_is_the_highest_card():
    assert winner_of(Y, "Q", "6Q 5Q 3Q 6S") == "3Q"


def test_yooker_power_shape_beats_other_shapes():
    assert winner_of(Y, "Q", "6O 4Q") == "4Q"  # a 4 of Squares beats a 6 of Circles


def test_yooker_power_shape_order_after_the_three_is_6_5_4_2_1():
    assert winner_of(Y, "T", "1T 2T") == "2T"
    assert winner_of(Y, "T", "2T 4T") == "4T"
    assert winner_of(Y, "T", "6T 5T 4T") == "6T"


def test_yooker_other_shapes_rank_six_high():
    assert winner_of(Y, "T", "1S 6S 3S") == "6S"


def test_yooker_three_of_other_shape_is_plain():
    assert winner_of(Y, "T", "4S 3S") == "4S"


def test_yooker_no_bowers_no_card_changes_shape():
    from euchre_sim.core.ruletables import compile_rules

    tables = compile_rules(Y)
    for trump in range(4):
        for card in Y.card_deck.cards:
            assert tables.eff_suit[trump, card] == card >> 3


def test_yooker_scoring_sprint_and_yooked():
    assert make_points(Y, 5, False, False) == 2
    assert make_points(Y, 5, True, False) == 4
    assert make_points(Y, 2, False, False) == -2
