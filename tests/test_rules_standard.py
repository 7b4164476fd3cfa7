"""Standard Euchre, rule by rule (000_f1b1c8211500ad38.txt, the Euchre half)."""

import pytest

from euchre_sim.core.rules import build_rules
from euchre_sim.core.ruletables import compile_rules, make_points
from euchre_sim.game.engine import IllegalMove

from .helpers import bid, new_hand, play_out, winner_of
from .kernels import legal_mask

R = build_rules("standard")


def test_deck_is_24_cards_nine_to_ace():
    assert len(R.card_deck.cards) == 24
    assert R.card_deck.ranks == "9TJQKA"


def test_right_bower_is_highest_card():
    assert winner_of(R, "D", "AD JH JD") == "JD"


def test_left_bower_is_second_highest():
    assert winner_of(R, "D", "AD JH KD") == "JH"


def test_left_bower_follows_trump_not_its_printed_suit():
    hand = R.card_deck.parse_hand("JC AH KH QH 9H")
    tables = compile_rules(R)
    spades, clubs = 3, 0
    assert legal_mask(tables, spades, hand, spades) == R.card_deck.parse_hand("JC", 1)
    # clubs led with spades trump: JC is a spade, so the hand holds no club and may play anything
    assert legal_mask(tables, spades, hand, clubs) == hand


def test_trump_beats_any_card_of_another_suit():
    assert winner_of(R, "D", "KH TD") == "TD"


def test_off_suit_order_is_a_k_q_j_t_9():
    assert winner_of(R, "S", "9H JH QH") == "QH"
    assert winner_of(R, "S", "JH TH") == "JH"


def test_trick_won_by_highest_of_suit_led_when_no_trump_played():
    assert winner_of(R, "S", "9H AC KH") == "KH"


def test_must_follow_suit_when_able():
    state = new_hand(R)
    bid(state, "order_up")  # N orders up clubs; W (dealer) picks up AC
    state.discard(R.card_deck.parse_card("9H"))
    state.play(0, R.card_deck.parse_card("AH"))  # N (dealer's left) leads a heart
    with pytest.raises(IllegalMove, match="follow"):
        state.play(1, R.card_deck.parse_card("TC"))  # E holds TH QH but trumps


def test_round_one_order_up_fixes_upcard_suit_and_dealer_discards():
    state = new_hand(R, upcard="AC", dealer="W")
    bid(state, "order_up")
    assert state.trump == 0 and state.phase == "discard"
    assert state.hands[3] >> R.card_deck.parse_card("AC") & 1


def test_dealer_may_discard_the_upcard_itself():
    state = new_hand(R)
    bid(state, "order_up")
    state.discard(R.card_deck.parse_card("AC"))
    assert state.phase == "play"


def test_turned_down_suit_cannot_be_called():
    state = new_hand(R, upcard="AC")
    for _ in range(4):
        bid(state)
    assert state.round == 2
    with pytest.raises(IllegalMove, match="turned-down"):
        bid(state, "call", "C")
    bid(state, "call", "H")
    assert state.trump == 2


def test_all_pass_twice_means_redeal():
    state = new_hand(R)
    for _ in range(8):
        bid(state)
    assert state.passed_out and state.points() == [0, 0]


def test_no_trump_not_callable_in_standard():
    state = new_hand(R)
    for _ in range(4):
        bid(state)
    with pytest.raises(IllegalMove, match="no-trump"):
        bid(state, "call", "NT")


def test_going_alone_partner_sits_out():
    state = new_hand(R, dealer="W")
    bid(state, "order_up", alone=True)  # N alone: S sits out
    state.discard(R.card_deck.parse_card("9H"))
    assert state.active_seats() == [0, 1, 3]


def test_opening_lead_dealers_left():
    state = new_hand(R, dealer="W")
    bid(state, "order_up")
    state.discard(R.card_deck.parse_card("9H"))
    assert state.opening_leader() == 0


def test_opening_lead_across_from_dealer_when_dealers_left_sits_out():
    state = new_hand(R, dealer="W")
    bid(state)  # N passes
    bid(state)  # E passes
    bid(state, "order_up", alone=True)  # S alone: N (dealer's left) sits out
    state.discard(R.card_deck.parse_card("9H"))
    assert state.opening_leader() == 1  # E sits across from the dealer W


def test_alone_declared_only_when_making_trump():
    state = new_hand(R)
    with pytest.raises(IllegalMove, match="alone"):
        bid(state, "pass", alone=True)


def test_dealers_partner_alone_dealer_does_not_pick_up():
    state = new_hand(R, dealer="W")
    bid(state)
    bid(state, "order_up", alone=True)  # E (dealer W's partner) alone: W sits out
    assert state.phase == "play" and state.discarded == -1


@pytest.mark.parametrize("tricks,alone,expected", [
    (3, False, 1), (4, False, 1), (5, False, 2), (3, True, 1), (4, True, 1), (5, True, 4),
    (2, False, -2), (0, True, -2),
])
def test_scoring_table(tricks, alone, expected):
    assert make_points(R, tricks, alone, False) == expected


def test_game_is_to_ten_points():
    assert R.target == 10


def test_a_complete_hand_scores_both_sides():
    """N orders up clubs (W deals, takes the AC, discards the 9H); each seat then plays its
    lowest legal card id (clubs, diamonds, hearts, spades; 9 upwards). Worked by hand from the
    rules (clubs trump: JS is the left bower and a club; JD stays a diamond):
      1. N 9C, E TC, S KC, W QC: trump led, KC highest: S (NS 1);
      2. S 9D, W TD, N JD, E AD: AD: E (EW 1);
      3. E TH, S KD (no heart), W AC (no heart, trumps), N JH: W (EW 2);
      4. W JS (left bower), N AH, E QH, S TS (no trump among them): W (EW 3);
      5. W AS, N KS, E 9S, S QS: W (EW 4).
    The makers (NS) take 1 trick: euchred, 2 points to EW."""
    state = new_hand(R)
    bid(state, "order_up")
    state.discard(R.card_deck.parse_card("9H"))
    play_out(state)
    assert state.phase == "done"
    played = [" ".join(R.card_deck.card_name(c) for _, c in t.plays) for t in state.tricks]
    assert played == ["9C TC KC QC", "9D TD JD AD", "TH KD AC JH", "JS AH QH TS", "AS KS 9S QS"]
    assert ["NESW"[t.winner] for t in state.tricks] == ["S", "E", "W", "W", "W"]
    assert state.team_tricks() == [1, 4]
    assert state.points() == [0, 2]
