"""PIMC worlds that infer from the auction and the discard (play.worlds): every world agrees
with the auction under the bidder (naive twin), and the chain's worlds follow the law of exact
rejection sampling (a pure-Python twin), tested by chi-square over the maker's trump count."""

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from euchre_sim.bidding.params import PARAMS
from euchre_sim.core.calls import seats_in_play
from euchre_sim.core.dealing import deal_batch
from euchre_sim.core.rules import build_rules
from euchre_sim.core.ruletables import LAYOUT_TRUMPS, compile_rules
from euchre_sim.play.conventional import conventional_discard, discard_from
from euchre_sim.play.pimc import inference_of
from euchre_sim.play.player import Player
from euchre_sim.play.state import (
    P_KNOWN_OUT,
    S_ACTIVE,
    S_DISCARD,
    S_MAKER_ALONE,
    S_MAKER_TURN,
    S_TRUMP,
    S_UP,
    S_UPCARD,
    Position,
    StateStart,
    deck_bits,
    new_state,
    unseen_by,
)
from euchre_sim.play.worlds import sample_world
from euchre_sim.solver.search import to_power

from . import naive

PARAMS_DICT = {k: v for k, v, _ in PARAMS}
DEALER = 0
# chi-square's 0.999 quantiles by degrees of freedom (a false alarm once in 1,000 runs)
CHI2_999 = {1: 10.83, 2: 13.82, 3: 16.27, 4: 18.47, 5: 20.52, 6: 22.46}


def _contract(rules, index, round_no, pos, trump, alone):
    """(tables, layout, power hands, st, pm) at the first lead of deal `index` when position
    `pos` makes the call (round 1: orders up; the dealer discards by the conventional rule)."""
    tb = compile_rules(rules)
    hands, ups = deal_batch(rules, 11, index, 1, DEALER)
    up = int(ups[0])
    trump = up >> 3 if round_no == 1 else trump
    maker = (DEALER + pos) & 3
    active, leader = seats_in_play(DEALER, pos if alone else 0, 0, False)
    held = hands[0].copy()
    take_up = round_no == 1 and (active >> DEALER) & 1
    if take_up:
        held[DEALER] |= np.uint64(1) << np.uint64(up)
    to_power(tb, trump, held, active, held)
    hp = held
    known_out = np.uint64(0) if take_up else np.uint64(1) << np.uint64(tb.power_bit[trump, up])
    st_, pm = new_state(StateStart(trump, DEALER, maker, int(alone), 0, active, leader,
                                   tb.power_bit[trump, up] if take_up else -1, known_out))
    st_[S_UPCARD] = up
    st_[S_MAKER_TURN] = (round_no - 1) * 4 + pos - 1
    lay = tb.layout[trump]
    if take_up:
        d = conventional_discard(lay, hp, st_, pm)
        hp[DEALER] &= ~(np.uint64(1) << np.uint64(d))
        st_[S_DISCARD] = d
    return tb, lay, hp, st_, pm


def _cards(tb, trump, power_mask):
    return [int(tb.power_card[trump, p]) for p in range(64) if int(power_mask) >> p & 1]


def _bids_agree(rules, tb, st_, seat, s, hand_power):
    """The naive rules bidder's bids for seat s (its hand before any play, power bits)."""
    trump = int(st_[S_TRUMP])
    up = int(st_[S_UPCARD])
    for k in range(int(st_[S_MAKER_TURN]) + 1):
        pos = k % 4 + 1
        if (DEALER + pos) & 3 != s:
            continue
        round_no = k // 4 + 1
        got = naive.rules_bidder_choice(rules, PARAMS_DICT, _cards(tb, trump, hand_power), up,
                                        round_no, pos)
        want = None if k < st_[S_MAKER_TURN] else (round_no, pos, trump,
                                                         bool(st_[S_MAKER_ALONE]))
        if got != want:
            return False
    return True


def _rejection_world(rules, tb, lay, hp, st_, pm, seat, rng):
    """Exact rejection sampling at the first lead (no card played yet): deal the unseen cards
    at random (the dealer's six where it took the upcard and `seat` is not the dealer), keep
    the deal when every other seat in play bid as the naive bidder does and the dealer's rule
    discards one of its dealt cards. Returns the world's hands (power bits, by seat)."""
    up = int(st_[S_UP])
    active = int(st_[S_ACTIVE])
    unseen = int(unseen_by(lay, hp, st_, pm, seat))
    fixed = [0, 0, 0, 0]
    fixed[seat] = int(hp[seat])
    if up >= 0 and seat != DEALER:
        fixed[DEALER] = 1 << up
        unseen &= ~(1 << up)
    cards = [p for p in range(64) if unseen >> p & 1]
    asked = [s for s in range(4) if s != seat and active >> s & 1]
    room = [5 - bin(fixed[s]).count("1") if s in asked else 0 for s in range(4)]
    infer_discard = up >= 0 and DEALER in asked
    if infer_discard:
        room[DEALER] += 1
    deck = int(deck_bits(lay)) & ~int(pm[P_KNOWN_OUT])
    while True:
        rng.shuffle(cards)
        world, k = list(fixed), 0
        for s in range(4):
            for c in cards[k:k + room[s]]:
                world[s] |= 1 << c
            k += room[s]
        before = list(world)
        if infer_discard:
            six = world[DEALER]
            d = int(discard_from(lay, np.uint64(six), up, np.uint64(deck & ~six)))
            if not (six & ~fixed[DEALER]) >> d & 1:
                continue
            world[DEALER] = six & ~(1 << d)
            before[DEALER] = six & ~(1 << up)
        if all(_bids_agree(rules, tb, st_, seat, s, before[s]) for s in asked):
            return world


def _chain_world(tb, lay, hp, st_, pm, seat, key, inference):
    world = np.zeros(4, dtype=np.uint64)
    sample_world(tb, Position(lay, hp, st_, pm, seat), np.uint64(key), 0, np.zeros(64, np.int64),
                 world, inference)
    return [int(x) for x in world]


# (round, position of the maker, trump in round 2, alone, the seat whose worlds): the first
# deal from 0 whose true hands bid so under the rules bidder is taken
SCENARIOS = [
    (1, 2, 0, False, 3),  # the dealer's partner orders up; seen from the dealer's left
    (1, 1, 0, False, 2),  # the dealer's left orders up: the dealer's discard inferred too
    (2, 3, 1, False, 1),  # round 2 at position 3 after five passes
    (1, 3, 0, True, 0),  # an opponent orders the dealer up alone; seen from the dealer
]


def _true_deal(rules, round_no, pos, trump, alone):
    """The first deal from 0 whose true hands bid this auction under the naive rules bidder
    (every seat before the maker passes, the maker calls), and its state at the first lead."""
    maker_turn = (round_no - 1) * 4 + pos - 1
    for index in range(5000):
        hands, ups = deal_batch(rules, 11, index, 1, DEALER)
        up = int(ups[0])
        named = up >> 3 if round_no == 1 else trump
        bids = []
        for k in range(maker_turn + 1):
            seat = (DEALER + k % 4 + 1) & 3
            held = [c for c in range(64) if int(hands[0][seat]) >> c & 1]
            bids.append(naive.rules_bidder_choice(rules, PARAMS_DICT, held, up, k // 4 + 1,
                                                  k % 4 + 1))
        if bids == [None] * maker_turn + [(round_no, pos, named, alone)]:
            return _contract(rules, index, round_no, pos, trump, alone)
    raise AssertionError("no deal bids so")


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_chain_worlds_follow_the_law_of_exact_rejection_sampling(scenario):
    """Chi-square over the maker's trump count (and, where the discard is inferred, the
    dealer's): 1,500 independent chains' first worlds against 1,500 exact rejection samples."""
    round_no, pos, trump, alone, seat = scenario
    rules = build_rules("standard")
    tb, lay, hp, st_, pm = _true_deal(rules, round_no, pos, trump, alone)
    maker = (DEALER + pos) & 3
    trumps = int(lay[LAYOUT_TRUMPS])
    inference = inference_of(Player("rules").record())
    rng = random.Random(pos)
    n = 1500

    def classes(world):
        cls = bin(world[maker] & trumps).count("1")
        if int(st_[S_UP]) >= 0 and seat != DEALER and maker != DEALER:
            cls = cls * 6 + bin(world[DEALER] & trumps).count("1")
        return cls

    chain = [classes(_chain_world(tb, lay, hp, st_, pm, seat, 7919 * k + 1, inference))
             for k in range(n)]
    assert inference.counters[2] == 0, "every chain found a world that agrees"
    exact = [classes(_rejection_world(rules, tb, lay, hp, st_, pm, seat, rng))
             for _ in range(n)]
    stat, df = _chi_square(chain, exact)
    assert stat < CHI2_999[min(df, 6)] if df <= 6 else stat < df + 3.1 * (2 * df) ** 0.5, \
        (stat, df, sorted(set(chain)), sorted(set(exact)))


def _chi_square(a, b):
    """Two-sample chi-square statistic over the classes (classes with fewer than 10 samples
    in all pooled into one), and its degrees of freedom."""
    counts = {}
    for x in a:
        counts.setdefault(x, [0, 0])[0] += 1
    for x in b:
        counts.setdefault(x, [0, 0])[1] += 1
    bins, rare = [], [0, 0]
    for ca, cb in counts.values():
        if ca + cb < 10:
            rare = [rare[0] + ca, rare[1] + cb]
        else:
            bins.append((ca, cb))
    if sum(rare):
        bins.append(tuple(rare))
    na, nb = len(a), len(b)
    stat = 0.0
    for ca, cb in bins:
        total = ca + cb
        for count, size in ((ca, na), (cb, nb)):
            expected = total * size / (na + nb)
            stat += (count - expected) ** 2 / expected
    return stat, len(bins) - 1


@settings(max_examples=40, deadline=None)
@given(index=st.integers(0, 500), round_no=st.integers(1, 2), pos=st.integers(1, 4),
       trump=st.integers(0, 3), alone=st.booleans(), viewer=st.integers(0, 3),
       key=st.integers(0, 2**63))
def test_every_inferred_world_agrees_with_the_auction(index, round_no, pos, trump, alone,
                                                      viewer, key):
    """Every world of a chain (not only its first) has each other seat in play bidding as the
    naive rules bidder does, the dealer's rule discarding a dealt card, and the seat's own hand
    and the upcard where they belong; or the chain says it found none that agrees."""
    rules = build_rules("standard")
    tb, lay, hp, st_, pm = _contract(rules, index, round_no, pos, trump, alone)
    active = int(st_[S_ACTIVE])
    seat = viewer if active >> viewer & 1 else (DEALER + pos) & 3
    inference = inference_of(Player("rules").record())
    world = np.zeros(4, dtype=np.uint64)
    cards = np.zeros(64, dtype=np.int64)
    up = int(st_[S_UP])
    deck = int(deck_bits(lay)) & ~int(pm[P_KNOWN_OUT])
    for w in range(5):
        sample_world(tb, Position(lay, hp, st_, pm, seat), np.uint64(key), w, cards, world,
                     inference)
        if inference.counters[2]:
            return  # no agreeing world was found (counted): nothing to check
        got = [int(x) for x in world]
        assert got[seat] == int(hp[seat])
        assert sum(bin(x).count("1") for x in got) == 5 * bin(active).count("1")
        for s in range(4):
            if s == seat or not active >> s & 1:
                continue
            before = got[s]
            if s == DEALER and up >= 0:
                assert before >> up & 1, "the dealer holds the upcard"
                sixes = [before | 1 << c for c in range(64)
                         if deck >> c & 1 and not any(x >> c & 1 for x in got)]
                explained = [six for six in sixes
                             if int(discard_from(lay, np.uint64(six), up,
                                                 np.uint64(deck & ~six))) not in
                             (p for p in range(64) if before >> p & 1)
                             and _bids_agree(rules, tb, st_, seat, s, six & ~(1 << up))]
                assert explained, "some discard explains the dealer's five"
            else:
                assert _bids_agree(rules, tb, st_, seat, s, before)
