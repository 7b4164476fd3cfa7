"""Property tests: the table-driven jitted kernels agree with the naive references."""

import random

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from euchre_sim.core.cards import bit, cards_of
from euchre_sim.core.ruletables import compile_rules
from euchre_sim.core.trick import legal_cards as power_legal_cards

from .conftest import RULE_SETS
from .kernels import legal_mask, trick_winner
from .naive import effective_suit, legal_cards
from .naive import trick_winner as naive_winner

rule_names = st.sampled_from(sorted(RULE_SETS))


@given(name=rule_names, seed=st.integers(0, 2**32), n_played=st.integers(2, 4))
def test_trick_winner_matches_naive(name, seed, n_played):
    rules = RULE_SETS[name]
    rng = random.Random(seed)
    tables = compile_rules(rules)
    cards = rng.sample(rules.card_deck.cards, n_played)
    for trump in rules.trump_choices:
        assert trick_winner(tables, trump, cards) == naive_winner(cards, trump, rules.yooker)


@given(name=rule_names, seed=st.integers(0, 2**32), size=st.integers(1, 5),
       leading=st.booleans())
def test_legal_mask_matches_naive(name, seed, size, leading):
    rules = RULE_SETS[name]
    rng = random.Random(seed)
    tables = compile_rules(rules)
    cards = rng.sample(rules.card_deck.cards, size + 1)
    hand = sum(bit(c) for c in cards[:size])
    led_card = None if leading else cards[size]
    for trump in rules.trump_choices:
        if led_card is None:
            led = -1
        else:
            suit = effective_suit(led_card, trump, rules.yooker)
            led = 4 if suit is None else suit
        assert legal_mask(tables, trump, hand, led) == legal_cards(
            hand, led_card, trump, rules.yooker)


@given(name=rule_names, seed=st.integers(0, 2**32), size=st.integers(1, 5),
       leading=st.booleans())
def test_legal_cards_in_the_power_layout_match_naive(name, seed, size, leading):
    """The solver's and the play models' view of `playable`: cards as power bits, the led suit
    as its bits (0 when leading)."""
    rules = RULE_SETS[name]
    rng = random.Random(seed)
    tables = compile_rules(rules)
    cards = rng.sample(rules.card_deck.cards, size + 1)
    led_card = None if leading else cards[size]
    for trump in rules.trump_choices:
        power = [int(tables.power_bit[trump, c]) for c in cards]
        hand = np.uint64(sum(1 << p for p in power[:size]))
        lay = tables.layout[trump]
        led = np.uint64(0) if led_card is None else lay[power[size]]
        legal = int(power_legal_cards(lay, hand, led))
        expected = legal_cards(sum(bit(c) for c in cards[:size]), led_card, trump, rules.yooker)
        assert legal == sum(1 << int(tables.power_bit[trump, c]) for c in cards_of(expected))
