"""Hand classes: suit symmetry, the two readers of class keys agree on every rule set, and keys
and features match their naive twins read from the cards."""

import random

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from euchre_sim.core.cards import JOKER
from euchre_sim.core.handclass import KeyReader, class_features, class_key
from euchre_sim.core.rules import build_rules
from euchre_sim.core.ruletables import compile_rules
from euchre_sim.sim.chunk import ChunkJob, chunk_records

from . import naive
from .conftest import RULE_SETS
from .helpers import class_text_parts
from .naive import hand_class_parts


@pytest.mark.parametrize("name", sorted(RULE_SETS))
def test_vectorised_reader_matches_the_plain_one(name):
    rules = RULE_SETS[name]
    records, _ = chunk_records(ChunkJob.of(rules, 3, 0, 60), exact=False)
    keys = np.unique(records["hand_key"])
    read = KeyReader(rules)
    assert read.many(keys).to_pylist() == [read(int(k)) for k in keys]


def _key(rules, hand: str, trump: str, round_no: int, ref: str) -> int:
    deck = rules.card_deck
    masks = np.zeros(5, dtype=np.uint64)
    others = np.zeros(4, dtype=np.int64)
    return int(class_key(compile_rules(rules), np.uint64(deck.parse_hand(hand)),
                          deck.parse_suit(trump), round_no, deck.parse_card(ref), masks, others))


def test_suit_swapped_twins_share_a_class():
    rules = build_rules("standard")
    # hearts trump: clubs and spades are the two other suits and play alike
    a = _key(rules, "JH AH KS 9C QC", "H", 1, "9H")
    b = _key(rules, "JH AH KC 9S QS", "H", 1, "9H")
    assert a == b
    assert KeyReader(rules)(a) == "T=RA N=- O=Q9/K up=9"


def test_class_keeps_the_left_bower_and_the_next_suit():
    rules = build_rules("standard")
    with_left = _key(rules, "JD AH KS 9C QC", "H", 1, "9H")
    plain_jack = _key(rules, "JC AH KS 9D QD", "H", 1, "9H")
    assert with_left != plain_jack
    assert KeyReader(rules)(with_left).startswith("T=LA ")


def test_round_two_turned_down_relation():
    rules = build_rules("standard")
    read = KeyReader(rules)
    assert read(_key(rules, "JH AH KS 9C QC", "H", 2, "JD")).endswith("down=Lt")
    assert read(_key(rules, "JH AH KS 9C QC", "H", 2, "KD")).endswith("down=Kn")
    assert "D=K" in read(_key(rules, "JH AH KS 9C QC", "H", 2, "AS"))


@given(name=st.sampled_from(sorted(RULE_SETS)), seed=st.integers(0, 2**32),
       round_no=st.sampled_from([1, 2]))
def test_class_key_matches_the_naive_reading_of_the_hand(name, seed, round_no):
    rules = RULE_SETS[name]
    deck = rules.card_deck
    rng = random.Random(seed)
    cards = rng.sample(deck.cards, 6)
    hand, ref = sum(1 << c for c in cards[:5]), cards[5]
    if round_no == 1:
        if ref == JOKER:
            return  # a Benny upcard has no round 1
        trumps = [ref >> 3]
    else:
        trumps = [t for t in rules.trump_choices if ref == JOKER or t != ref >> 3]
    masks = np.zeros(5, dtype=np.uint64)
    others = np.zeros(4, dtype=np.int64)
    read = KeyReader(rules)
    for trump in trumps:
        ref_arg = -1 if ref == JOKER else ref
        key = int(class_key(compile_rules(rules), np.uint64(hand), trump, round_no, ref_arg,
                             masks, others))
        expected = hand_class_parts(hand, trump, round_no, None if ref == JOKER else ref,
                                    rules.yooker, deck)
        assert class_text_parts(read(key)) == expected


@given(name=st.sampled_from(sorted(RULE_SETS)), data=st.data())
def test_class_features_match_the_naive_reading_of_the_cards(name, data):
    rules = RULE_SETS[name]
    cards = data.draw(st.lists(st.sampled_from(rules.card_deck.cards), min_size=5, max_size=5,
                               unique=True), label="hand")
    trump = data.draw(st.sampled_from(rules.trump_choices), label="trump")
    hand = sum(1 << c for c in cards)
    tables = compile_rules(rules)
    masks = np.zeros(5, dtype=np.uint64)
    others = np.zeros(4, dtype=np.int64)
    class_key(tables, np.uint64(hand), trump, 1, -1, masks, others)  # fills the holdings
    out = np.zeros(5, dtype=np.int64)
    class_features(tables, trump, masks, out)
    assert tuple(out.tolist()) == naive.class_features(hand, trump, rules.yooker)
