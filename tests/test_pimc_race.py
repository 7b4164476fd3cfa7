"""PIMC's race (play.pimc.race_survivors): which candidates a decision stops solving, against a
pure-Python twin on random world-by-world values (hypothesis), and two hand-made cases."""

import math

import numpy as np
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from euchre_sim.play.pimc import Race, race_survivors

POINTS = [-4, -2, -1, 0, 1, 2, 4]  # a world's points to the makers after a card


def naive_survivors(values, alive, maximize, cands, preferred, z):
    """The candidates (indices) still solved after these worlds (values[w][i]), by the rule
    in words: the leader is the best total among the alive (the preferred card on a tie for
    the best, else the first); another is dropped when the leader's mean lead over it, world
    by world, is positive and either the same in every world or at least z standard errors
    (sample standard deviation of the lead over sqrt(worlds)). A card that tied with the
    leader in every world is kept."""
    m = len(values)
    live = [i for i in range(len(cands)) if (alive >> i) & 1]
    sign = 1 if maximize else -1
    totals = {i: sign * sum(row[i] for row in values) for i in live}
    top = max(totals.values())
    tied = [i for i in live if totals[i] == top]
    leader = next((i for i in tied if cands[i] == preferred), tied[0])
    kept = set(live)
    for i in live:
        if i == leader:
            continue
        leads = [sign * (row[leader] - row[i]) for row in values]
        mean = sum(leads) / m
        same = all(x == leads[0] for x in leads)
        bar = z * math.sqrt(sum((x - mean) ** 2 for x in leads) / (m - 1)) / math.sqrt(m)
        assume(same or abs(mean - bar) > 1e-9)  # not on the edge, where rounding decides
        if mean > 0 and (same or mean >= bar):
            kept.discard(i)
    return kept


@settings(max_examples=300, deadline=None)
@given(data=st.data(), m=st.integers(2, 50), n=st.integers(2, 6), maximize=st.booleans(),
       z=st.sampled_from([1.7, 2.3, 3.0]))
def test_race_drops_the_candidates_the_rule_in_words_drops(data, m, n, maximize, z):
    # rows that repeat a few patterns, so that ties and constant leads are common
    patterns = data.draw(st.lists(st.lists(st.sampled_from(POINTS), min_size=n, max_size=n),
                                  min_size=1, max_size=3))
    values = [list(patterns[data.draw(st.integers(0, len(patterns) - 1))]) for _ in range(m)]
    alive = data.draw(st.integers(1, (1 << n) - 1))
    cands = np.arange(10, 10 + n, dtype=np.int64)
    preferred = int(cands[data.draw(st.integers(0, n - 1))])
    v = np.array(values, dtype=np.int64)
    sums = np.zeros(8, dtype=np.int64)
    cross = np.zeros((8, 8), dtype=np.int64)
    sums[:n] = v.sum(axis=0)
    cross[:n, :n] = v.T @ v
    got = race_survivors(Race(sums, cross, cands, n, preferred, maximize), alive, m, z)
    want = naive_survivors(values, alive, maximize, cands, preferred, z)
    assert {i for i in range(n) if (got >> i) & 1} == want


def test_race_keeps_a_card_tied_with_the_leader_in_every_world_and_drops_a_sure_loser():
    cands = np.array([5, 7, 9], dtype=np.int64)
    v = np.tile(np.array([[2, 2, -1]], dtype=np.int64), (45, 1))
    sums = np.zeros(8, dtype=np.int64)
    cross = np.zeros((8, 8), dtype=np.int64)
    sums[:3] = v.sum(axis=0)
    cross[:3, :3] = v.T @ v
    got = race_survivors(Race(sums, cross, cands, 3, 7, True), 0b111, 45, 3.0)
    # card 9 trails by 3 points in every world: dropped; 5 ties the preferred 7: kept
    assert {i for i in range(3) if (got >> i) & 1} == {0, 1}
    # the defenders' side: the least points to the makers leads, so 9 alone is left
    got = race_survivors(Race(sums, cross, cands, 3, 7, False), 0b111, 45, 3.0)
    assert {i for i in range(3) if (got >> i) & 1} == {2}
