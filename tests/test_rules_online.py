"""Options of the online site (004_baf3b20d3e4ad955.txt), rule by rule."""

import pytest

from euchre_sim.core.cards import JOKER
from euchre_sim.core.rules import build_rules
from euchre_sim.core.ruletables import compile_rules, make_points
from euchre_sim.game.engine import IllegalMove

from .helpers import bid, new_hand, winner_of
from .kernels import legal_mask

ONLINE = build_rules("online")


def test_stick_the_dealer_on_by_default_on_the_site():
    assert ONLINE.stick_the_dealer


def test_stick_the_dealer_forbids_the_dealers_last_pass():
    state = new_hand(ONLINE)
    for _ in range(7):
        bid(state)
    assert state.turn == state.dealer and state.round == 2
    with pytest.raises(IllegalMove, match="stick the dealer"):
        bid(state)
    assert all(b.action == "call" for b in state.legal_bids())


def test_without_stick_the_dealer_the_dealer_passes_and_the_hand_is_redealt():
    rules = build_rules("online", ["stick_the_dealer=false"])
    state = new_hand(rules)
    for _ in range(8):
        bid(state)
    assert state.passed_out


def test_no_trump_call_in_round_two():
    rules = build_rules("online", ["no_trump=true"])
    state = new_hand(rules)
    for _ in range(4):
        bid(state)
    bid(state, "call", "NT")
    assert state.trump == 4


def test_no_trump_every_suit_ranks_normally_no_bowers():
    rules = build_rules("online", ["no_trump=true"])
    assert winner_of(rules, "NT", "AH JH JD") == "AH"
    assert winner_of(rules, "NT", "9H AS") == "9H"
    assert winner_of(rules, "NT", "QH JH") == "QH"


def test_no_trump_not_callable_in_round_one():
    rules = build_rules("online", ["no_trump=true"])
    state = new_hand(rules)
    assert all(b.action in ("pass", "order_up") for b in state.legal_bids())


def test_lone_player_plays_last_loners_left_leads():
    rules = build_rules("online", ["lone_player_plays_last=true"])
    state = new_hand(rules, dealer="W")
    bid(state)  # N
    bid(state)  # E
    bid(state, "order_up", alone=True)  # S alone
    state.discard(rules.card_deck.parse_card("9H"))
    assert state.opening_leader() == 3  # W, the loner's left, whoever dealt


def test_canadian_loner_dealers_partner_may_only_pass_or_go_alone():
    rules = build_rules("online", ["canadian_loner=true"])
    state = new_hand(rules, dealer="W")
    bid(state)  # N
    assert state.turn == 1  # E, the dealer's partner
    actions = {(b.action, b.alone) for b in state.legal_bids()}
    assert actions == {("pass", False), ("order_up", True)}
    with pytest.raises(IllegalMove, match="Canadian"):
        bid(state, "order_up")


def test_canadian_loner_only_in_round_one():
    rules = build_rules("online", ["canadian_loner=true"])
    state = new_hand(rules, dealer="W")
    for _ in range(5):
        bid(state)
    assert state.turn == 1 and state.round == 2
    bid(state, "call", "H")
    assert state.maker == 1 and not state.maker_alone


def test_defend_alone_scores_four_on_a_euchre():
    rules = build_rules("online", ["defend_alone=true"])
    assert make_points(rules, 2, False, True) == -4
    assert make_points(rules, 2, False, False) == -2
    state = new_hand(rules)
    bid(state, "order_up")
    state.discard(rules.card_deck.parse_card("9H"))
    assert state.phase == "defend"
    state.defend(1)
    assert state.active_seats() == [0, 1, 2]


def test_defend_alone_only_by_a_defender():
    rules = build_rules("online", ["defend_alone=true"])
    state = new_hand(rules)
    bid(state, "order_up")
    state.discard(rules.card_deck.parse_card("9H"))
    with pytest.raises(IllegalMove, match="defender"):
        state.defend(2)


def test_benny_beats_the_right_bower():
    rules = build_rules("online", ["joker=true"])
    assert winner_of(rules, "H", "JH JK AH") == "JK"


def test_benny_is_a_trump_for_following():
    rules = build_rules("online", ["joker=true"])
    tables = compile_rules(rules)
    hand = rules.card_deck.parse_hand("JK AS KS QS 9S")
    assert legal_mask(tables, 2, hand, 2) == 1 << JOKER


def test_benny_in_no_trump_only_when_unable_to_follow():
    rules = build_rules("online", ["joker=true", "no_trump=true"])
    tables = compile_rules(rules)
    hand = rules.card_deck.parse_hand("JK AS KS QS 9H")
    spades_only = rules.card_deck.parse_hand("AS KS QS", 3)
    assert legal_mask(tables, 4, hand, 3) == spades_only
    assert legal_mask(tables, 4, hand, 0) == hand  # no club: Benny may be played


def test_benny_in_no_trump_wins_any_trick():
    rules = build_rules("online", ["joker=true", "no_trump=true"])
    assert winner_of(rules, "NT", "AC JK KC") == "JK"


def test_benny_in_no_trump_may_not_lead_while_other_cards_are_held():
    rules = build_rules("online", ["joker=true", "no_trump=true"])
    tables = compile_rules(rules)
    hand = rules.card_deck.parse_hand("JK AS", 2)
    assert legal_mask(tables, 4, hand, -1) == rules.card_deck.parse_hand("AS", 1)
    assert legal_mask(tables, 4, 1 << JOKER, -1) == 1 << JOKER


def test_benny_turned_up_skips_round_one_and_every_suit_may_be_called():
    rules = build_rules("online", ["joker=true"])
    state = new_hand(rules, upcard="JK")
    assert state.round == 2
    assert {b.suit for b in state.legal_bids() if b.action == "call"} == {0, 1, 2, 3}
