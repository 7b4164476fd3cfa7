"""Card, hand and deal notation on every deck; the counter-based dealer; seats by position."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from euchre_sim.core.cards import JOKER, Deck
from euchre_sim.core.dealing import deal_batch, deal_key, shuffle, shuffle_tail
from euchre_sim.core.errors import UserError
from euchre_sim.core.rules import build_rules
from euchre_sim.core.seats import (
    SEAT_NAMES,
    left_of,
    partner_of,
    position_of,
    right_of,
    seat_at,
    team_of,
)

DECKS = [Deck("french", 24), Deck("french", 28), Deck("french", 32), Deck("french", 24, True),
         Deck("french", 32, True), Deck("yooker", 24), Deck("yooker", 24, True)]


@pytest.mark.parametrize("deck", DECKS, ids=lambda d: f"{d.style}{d.size}{'J' if d.joker else ''}")
def test_every_card_round_trips(deck):
    assert len(deck.cards) == deck.size + deck.joker
    for card in deck.cards:
        assert deck.parse_card(deck.card_name(card)) == card
        assert deck.parse_card(deck.card_name(card).lower()) == card
    assert deck.parse_hand(deck.format_hand(deck.mask), None) == deck.mask


def test_ten_unicode_suits_and_commas_accepted():
    deck = Deck()
    assert deck.parse_hand("10♥, J♦ A♠ K♣ 9H") == deck.parse_hand("TH JD AS KC 9H")


def test_joker_spellings():
    deck = Deck("french", 24, True)
    assert {deck.parse_card(t) for t in ("JK", "joker", "Benny", "BN")} == {JOKER}


def test_yooker_spelling():
    deck = Deck("yooker", 24)
    assert deck.card_name(deck.parse_card("3Q")) == "3Q"
    assert deck.parse_card("3■") == deck.parse_card("3q")


@pytest.mark.parametrize("text,culprit", [
    ("JH JD AH KS XC", "'XC'"), ("JH JD AH KS 8C", "'8C'"),
    ("JH JD AH KS JH", "duplicate card 'JH'"),
    ("JH JD AH KS", "4 cards"), ("JH JD AH KS JK", "'JK'"),
])
def test_bad_hands_name_the_culprit(text, culprit):
    with pytest.raises(UserError, match=culprit):
        Deck().parse_hand(text)


def test_deal_round_trip_from_any_seat():
    deck = Deck()
    text = "E:JH JD AH KS 9C/TH QH AD 9S TC/KC KD TS QS 9D/TD AS 9H QC JS"
    hands = deck.parse_deal(text)
    assert deck.format_hand(hands[1]) == deck.format_hand(deck.parse_hand("JH JD AH KS 9C"))
    assert deck.parse_deal(deck.format_deal(hands, 2)) == hands


def test_deal_with_card_twice_rejected():
    with pytest.raises(UserError, match="duplicate card 'JH'"):
        Deck().parse_deal("N:JH JD AH KS 9C/JH QH AD 9S TC/KC KD TS QS 9D/TD AS 9H QC JS")


@pytest.mark.parametrize("preset,sets", [("standard", []), ("yooker", ["joker=true"]),
                                         ("standard", ["deck=32", "joker=true"])])
def test_deals_are_disjoint_hands_from_the_deck(preset, sets):
    rules = build_rules(preset, sets)
    hands, ups = deal_batch(rules, 9, 0, 500)
    for row, up in zip(hands, ups, strict=True):
        masks = [int(h) for h in row]
        union = masks[0] | masks[1] | masks[2] | masks[3]
        assert all(bin(m).count("1") == 5 for m in masks)
        assert bin(union).count("1") == 20
        assert not union >> int(up) & 1
        assert union & ~rules.card_deck.mask == 0


def test_deal_i_of_seed_s_independent_of_chunking():
    rules = build_rules("standard")
    whole, ups = deal_batch(rules, 42, 0, 1000)
    parts = [deal_batch(rules, 42, start, 250) for start in range(0, 1000, 250)]
    assert np.array_equal(whole, np.concatenate([p[0] for p in parts]))
    assert np.array_equal(ups, np.concatenate([p[1] for p in parts]))
    other, _ = deal_batch(rules, 43, 0, 1000)
    assert not np.array_equal(whole, other)


def test_every_card_equally_likely_to_be_the_upcard():
    rules = build_rules("standard")
    _, ups = deal_batch(rules, 1, 0, 48000)
    counts = np.bincount(ups, minlength=32)[rules.card_deck.cards]
    assert counts.min() > 1700 and counts.max() < 2300  # 2000 expected, sd ~44


@given(st.integers(0, 2**64 - 1), st.integers(1, 24), st.data())
def test_a_shuffles_tail_is_the_tail_of_the_whole_shuffle(key, n, data):
    """shuffle_tail's m steps are the whole shuffle's first m: the last m places as the full
    shuffle leaves them, and the cards a permutation of the ones given."""
    m = data.draw(st.integers(0, n))
    start = np.array(data.draw(st.permutations(range(40, 40 + n))), dtype=np.int64)
    whole, tail = start.copy(), start.copy()
    shuffle(np.uint64(key), whole, n)
    shuffle_tail(np.uint64(key), tail, n, m)
    assert sorted(tail) == sorted(start)
    assert list(tail[n - m:]) == list(whole[n - m:])


def test_a_shuffles_tail_draws_every_ordered_pair_alike():
    """Two of six cards: each of the 30 ordered pairs 1/30 of the time (chi-square, 29 degrees
    of freedom, 0.999 quantile 58.3)."""
    counts = np.zeros((6, 6))
    draws = 30_000
    for i in range(draws):
        cards = np.arange(6, dtype=np.int64)
        shuffle_tail(np.uint64(deal_key(np.uint64(3), np.uint64(i))), cards, 6, 2)
        counts[cards[4], cards[5]] += 1
    expected = draws / 30
    assert np.trace(counts) == 0
    assert ((counts - expected) ** 2 / expected)[~np.eye(6, dtype=bool)].sum() < 58.3


# the seat at each position (1-4 from the dealer's left; 4 the dealer), written out by hand
SEATS_BY_DEALER = {"N": "ESWN", "E": "SWNE", "S": "WNES", "W": "NESW"}


def test_seat_at_a_position_and_its_inverse_match_a_written_table():
    for dealer_name, by_position in SEATS_BY_DEALER.items():
        dealer = SEAT_NAMES.index(dealer_name)
        for pos, seat_name in enumerate(by_position, start=1):
            seat = SEAT_NAMES.index(seat_name)
            assert seat_at(dealer, pos) == seat
            assert position_of(dealer, seat) == pos
        assert seat_at(dealer, 0) == dealer


# seat: partner, team (0 NS, 1 EW), the seat on its left (next clockwise), on its right
NEIGHBOURS = {"N": ("S", 0, "E", "W"), "E": ("W", 1, "S", "N"), "S": ("N", 0, "W", "E"),
              "W": ("E", 1, "N", "S")}


@pytest.mark.parametrize("kind", [int, np.int64, np.int8, np.uint8])
def test_partner_team_and_neighbours_match_a_written_table_from_python(kind):
    """The jitted seat helpers take a Python int or any numpy int from Python callers."""
    for name, (partner, team, left, right) in NEIGHBOURS.items():
        seat = kind(SEAT_NAMES.index(name))
        got = (partner_of(seat), team_of(seat), left_of(seat), right_of(seat))
        assert got == (SEAT_NAMES.index(partner), team, SEAT_NAMES.index(left),
                       SEAT_NAMES.index(right))
        assert all(type(x) is int for x in got)
