"""The solver against the brute-force minimax; the outcome search against the exact one."""

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from euchre_sim.core.dealing import deal_one
from euchre_sim.core.rules import build_rules
from euchre_sim.core.ruletables import compile_rules
from euchre_sim.solver.calltable import solve_table
from euchre_sim.solver.search import new_tt

from .conftest import RULE_SETS
from .kernels import (
    active_mask,
    endgame_tricks,
    ns_at_least,
    solve,
    solve_mid_trick,
    sure_tricks,
    trick_seat_after,
)
from .naive import brute_force_ns_tricks, legal_cards

TT = new_tt(16)


def _configs():
    """Four seats in play, each seat alone (three), and a lone maker against a lone defender."""
    yield [True] * 4
    for alone in range(4):
        active = [True] * 4
        active[(alone + 2) % 4] = False
        yield active
    yield [True, False, False, True]


def _endgame_hands(rules, rng, active, tricks: int) -> list[int]:
    """Random hands of `tricks` cards for the seats in play (empty for the others)."""
    cards = rng.sample(rules.card_deck.cards, 4 * tricks)
    hands = [0, 0, 0, 0]
    for seat in range(4):
        if active[seat]:
            for card in cards[seat * tricks:(seat + 1) * tricks]:
                hands[seat] |= 1 << card
    return hands


def _leader(active, rng):
    return rng.choice([s for s in range(4) if active[s]])


def _random_endgame(name, seed, config, tricks):
    """(rules, active, hands, trump, leader) of a random position of `tricks` cards a hand."""
    rules = RULE_SETS[name]
    rng = random.Random(seed)
    active = list(_configs())[config]
    hands = _endgame_hands(rules, rng, active, tricks)
    return rules, active, hands, rng.choice(rules.trump_choices), _leader(active, rng)


@pytest.mark.parametrize("name", sorted(RULE_SETS))
def test_whole_deals_match_brute_force(name):
    rules = RULE_SETS[name]
    rng = random.Random(name)
    hands, _ = deal_one(rules, 2024, len(name))
    for trump in rules.trump_choices:
        for active in _configs():
            leader = _leader(active, rng)
            expected = brute_force_ns_tricks(hands, trump, leader, active, rules.yooker)
            assert solve(rules, hands, trump, leader, active, tt=TT) == expected


def test_a_table_shared_by_many_deals_and_rule_sets_changes_no_result():
    """Table entries are exact for every position with their key, whatever the trump, the seats
    in play, the deck or the rule set: one table shared by every solve of 150 deals under each
    rule set gives each solve the value a fresh table gives. (Keys that left out how many
    cards are still out let a position take another's value: 3-10 solves in 10,000 here.)"""
    shared = new_tt(14)
    for name in sorted(RULE_SETS):
        rules = RULE_SETS[name]
        for d in range(150):
            hands, _ = deal_one(rules, 11, d)
            for trump in rules.trump_choices:
                for active in _configs():
                    for leader in (s for s in range(4) if active[s]):
                        fresh = solve(rules, hands, trump, leader, active, tt=new_tt(8))
                        assert solve(rules, hands, trump, leader, active, tt=shared) == fresh


@given(name=st.sampled_from(sorted(RULE_SETS)), seed=st.integers(0, 2**32),
       tricks=st.integers(1, 4), config=st.integers(0, 5))
def test_endgames_match_brute_force(name, seed, tricks, config):
    rules, active, hands, trump, leader = _random_endgame(name, seed, config, tricks)
    expected = brute_force_ns_tricks(hands, trump, leader, active, rules.yooker)
    assert solve(rules, hands, trump, leader, active, tt=TT) == expected


@settings(max_examples=600)  # a wrong bound may show in one position of fifty
@given(name=st.sampled_from(sorted(RULE_SETS)), seed=st.integers(0, 2**32),
       tricks=st.integers(1, 4), config=st.integers(0, 5))
def test_sure_trick_bounds_never_exceed_brute_force(name, seed, tricks, config):
    """The cut-offs' bounds (the leader's cashed top cards after drawing trumps; one seat's
    trumps less those the other side can beat) are tricks that side takes under perfect play."""
    rules, active, hands, trump, leader = _random_endgame(name, seed, config, tricks)
    ns = brute_force_ns_tricks(hands, trump, leader, active, rules.yooker)
    quick, (ns_sure, ew_sure) = sure_tricks(rules, hands, trump, leader, active)
    assert quick <= (ns if leader % 2 == 0 else tricks - ns)
    assert ns_sure <= ns
    assert ew_sure <= tricks - ns


@settings(max_examples=300)
@given(name=st.sampled_from(sorted(RULE_SETS)), seed=st.integers(0, 2**32),
       config=st.integers(0, 4), tricks=st.integers(3, 4), alpha=st.integers(-1, 4),
       width=st.integers(1, 5))
def test_nested_loop_endgame_is_fail_soft_minimax(name, seed, config, tricks, alpha, width):
    """The nested-loop endgame of the last three or four tricks (three or four seats, the
    positions after its first trick through a table) in any window: a value at or below alpha
    bounds the minimax value from above, one at or above beta from below, one inside is
    exact."""
    rules, active, hands, trump, leader = _random_endgame(name, seed, config, tricks)
    beta = alpha + width
    expected = brute_force_ns_tricks(hands, trump, leader, active, rules.yooker)
    v = endgame_tricks(rules, hands, trump, leader, active, alpha, beta)
    if v <= alpha:
        assert expected <= v
    elif v >= beta:
        assert expected >= v
    else:
        assert expected == v


@given(name=st.sampled_from(sorted(RULE_SETS)), seed=st.integers(0, 2**32),
       tricks=st.integers(1, 4), config=st.integers(0, 5), played=st.integers(1, 3))
def test_positions_inside_a_trick_match_brute_force(name, seed, tricks, config, played):
    """The search from inside a trick (as PIMC asks it), where cards already beaten in the
    trick count as dead for equivalent cards, against minimax over every legal card."""
    rules = RULE_SETS[name]
    rng = random.Random(seed)
    active = list(_configs())[config]
    mask = active_mask(active)
    played = min(played, sum(active) - 1)
    hands = _endgame_hands(rules, rng, active, tricks)
    trump = rng.choice(rules.trump_choices)
    leader = _leader(active, rng)
    trick, seat = [], leader
    for _ in range(played):
        legal = legal_cards(hands[seat], trick[0] if trick else None, trump, rules.yooker)
        card = rng.choice([c for c in range(64) if legal >> c & 1])
        hands[seat] &= ~(1 << card)
        trick.append(card)
        seat = trick_seat_after(mask, seat)
    expected = brute_force_ns_tricks(hands, trump, leader, active, rules.yooker, tuple(trick))
    assert solve_mid_trick(rules, hands, trump, leader, active, trick, TT) == expected


@given(name=st.sampled_from(sorted(RULE_SETS)), index=st.integers(0, 10**6),
       config=st.integers(0, 5), target=st.integers(1, 5))
def test_outcome_search_agrees_with_exact(name, index, config, target):
    rules = RULE_SETS[name]
    hands, _ = deal_one(rules, 5, index)
    active = list(_configs())[config]
    leader = next(s for s in (1, 2, 3, 0) if active[s])
    tables = compile_rules(rules)
    for trump in rules.trump_choices:
        exact = solve(rules, hands, trump, leader, active, tt=TT)
        hit = ns_at_least(tables, trump, np.array(hands, dtype=np.uint64), leader,
                           active_mask(active), target, TT)
        assert hit == (exact >= target)


def test_table_independent_of_transposition_table_history():
    rules = build_rules("standard")
    hands, _ = deal_one(rules, 1, 1)
    first = solve_table(rules, hands, 0, tt=new_tt(12))
    warm = new_tt(12)
    for i in range(20):
        solve_table(rules, deal_one(rules, 1, 100 + i)[0], 0, tt=warm)
    assert solve_table(rules, hands, 0, tt=warm) == first


def test_both_bowers_and_ace_of_trump_on_lead_take_three():
    rules = build_rules("standard")
    deck = rules.card_deck
    hands = deck.parse_deal("N:JH JD AH 9C 9S/TH QH AD KS TC/KC KD TS QS 9D/TD AS 9H QC JS")
    assert solve(rules, hands, trump=2, leader=0) >= 3


def test_lone_hand_with_the_five_top_trumps_marches():
    rules = build_rules("standard")
    deck = rules.card_deck
    hands = deck.parse_deal("N:JH JD AH KH QH/TH 9H AD KS TC/KC KD TS QS 9D/TD AS 9C QC JS")
    assert solve(rules, hands, trump=2, leader=1, active=(True, True, False, True)) == 5


def test_yooker_power_three_wins_a_trick_for_a_lone_hand():
    rules = build_rules("yooker")
    deck = rules.card_deck
    hands = deck.parse_deal("N:3Q 1S 1T 1O 2S/6Q 5Q 4Q 2Q 1Q/6S 5S 4S 3S 2T/6T 5T 4T 3T 6O")
    assert solve(rules, hands, trump=2, leader=1, active=(True, True, False, True)) >= 1


def test_benny_takes_a_trick_in_no_trump():
    rules = build_rules("online", ["joker=true", "no_trump=true"])
    deck = rules.card_deck
    hands = deck.parse_deal("N:JK 9C 9D 9H 9S/AC AD AH AS KC/KD KH KS QC QD/QH QS JC JD JH")
    assert solve(rules, hands, trump=4, leader=1) >= 1


@pytest.mark.parametrize("name", sorted(RULE_SETS))
def test_a_torn_table_entry_is_never_used(name):
    """Threads sharing the table can leave a slot holding the first word of one write beside
    the second word of another. In a 16-slot table, where the solves of two deals write every
    slot, the first words of one deal's table beside the second words of the other's must
    still solve the first deal exactly (brute force)."""
    rules = RULE_SETS[name]
    for index in range(0, 8, 2):
        hands, _ = deal_one(rules, 99, index)
        others, _ = deal_one(rules, 99, index + 1)
        trump = rules.trump_choices[index % len(rules.trump_choices)]
        torn, other = new_tt(4), new_tt(4)
        solve(rules, hands, trump, 1, tt=torn)
        solve(rules, others, trump, 1, tt=other)
        torn.table[:, 1] = other.table[:, 1]
        assert solve(rules, hands, trump, 1, tt=torn) == \
            brute_force_ns_tricks(hands, trump, 1, [True] * 4, rules.yooker)


@pytest.mark.parametrize("name", sorted(RULE_SETS))
def test_batch_json_lines_are_the_json_of_each_deals_table(name):
    """solve --deals writes its lines from templates; they must be json.dumps of SPEC's rows."""
    import json

    from euchre_sim.solver.calltable import solve_json_lines, solve_tables

    rules = RULE_SETS[name]
    deals = [deal_one(rules, 8, i, i % 4)[0] for i in range(12)]
    dealers = [i % 4 for i in range(12)]
    lines = solve_json_lines(rules, dealers, solve_tables(rules, deals, dealers))
    for line, hands, dealer in zip(lines, deals, dealers, strict=True):
        want = {"dealer": "NESW"[dealer], "table": solve_table(rules, hands, dealer)}
        assert line == json.dumps(want)


def test_threads_share_the_process_table_but_count_on_their_own():
    """shared_tt: one table for the process, a counter array per thread (no cache line shared
    by every node of two threads), the same counters for a thread's every call."""
    import threading

    from euchre_sim.solver.search import shared_tt

    seen = {}

    def call(name):
        seen[name] = (shared_tt(), shared_tt())

    threads = [threading.Thread(target=call, args=(name,)) for name in ("a", "b")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    (a, a_again), (b, _) = seen["a"], seen["b"]
    assert a.table is b.table is shared_tt().table
    assert a.stats is a_again.stats
    assert a.stats is not b.stats and shared_tt().stats is not a.stats
