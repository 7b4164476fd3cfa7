"""Rates, means and standard errors (core.stats) against hand calculations, and the result
columns of the decision tables (core.results, core.run_tables) against a written-out
table."""

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from euchre_sim.core.results import n_results, result_index, result_points
from euchre_sim.core.run_tables import result_names, share_names
from euchre_sim.core.stats import (
    Z95,
    bounded_figures,
    bounded_interval95,
    chance_interval95,
    interval95,
    mean_se,
    mean_se_of_sums,
    rate_se,
    stated_se,
)


def test_mean_and_standard_error_by_hand():
    # 1, 2, 3, 6: mean 3, squared deviations 4 + 1 + 0 + 9 = 14, variance 14 / 3
    mean, se = mean_se([1, 2, 3, 6])
    assert mean == pytest.approx(3.0)
    assert se == pytest.approx(math.sqrt(14 / 3 / 4))
    assert mean_se([5, 5, 5]) == (5.0, 0.0)
    one = mean_se([2])
    assert one[0] == 2.0 and math.isnan(one[1])
    assert all(math.isnan(x) for x in mean_se([]))


def test_mean_and_standard_error_from_sums_by_column():
    # columns: values (1, 2, 3, 6), (-2, 4) and (1,)
    total = pd.Series([12.0, 2.0, 1.0])
    squares = pd.Series([50.0, 20.0, 1.0])
    n = pd.Series([4, 2, 1])
    mean, se = mean_se_of_sums(total, squares, n)
    assert list(mean) == pytest.approx([3.0, 1.0, 1.0])
    assert se[0] == pytest.approx(math.sqrt(14 / 3 / 4))
    assert se[1] == pytest.approx(math.sqrt(18 / 1 / 2))  # deviations 3, 3: variance 18
    assert math.isnan(se[2])


def test_a_rate_and_the_95_interval_by_hand():
    assert rate_se(0.25, 300) == pytest.approx(math.sqrt(0.25 * 0.75 / 300))
    assert list(rate_se(np.array([0.0, 0.5]), 4)) == pytest.approx([0.0, 0.25])
    assert Z95 == pytest.approx(1.959964, abs=1e-6)  # the two-sided 95 % normal quantile
    low, high = interval95(1.0, 0.5)
    assert (low, high) == pytest.approx((1.0 - 0.979982, 1.0 + 0.979982), abs=1e-6)


# the result columns for a game whose most points a hand scores is 4
COLUMNS_TOP_4 = [("us_1", 1), ("us_2", 2), ("us_3", 3), ("us_4", 4), ("them_1", -1),
                 ("them_2", -2), ("them_3", -3), ("them_4", -4), ("none", 0)]


def test_result_columns_match_a_written_table():
    assert result_names(4) == [name for name, _ in COLUMNS_TOP_4]
    assert share_names(4) == [f"p_{name}" for name, _ in COLUMNS_TOP_4]
    assert n_results(4) == len(COLUMNS_TOP_4)
    for column, (_, points) in enumerate(COLUMNS_TOP_4):
        assert result_index(points, 4) == column
        assert result_points(column, 4) == points


def test_a_sample_without_spread_gets_the_rule_of_three_not_a_zero_width_interval():
    # 119 deals all at -2 points, points within -4..4: another value could come up in up to
    # 3 / 119 of deals, moving the mean by at most 3 / 119 * 2 down and 3 / 119 * 6 up
    lo, hi = bounded_interval95(-2.0, 0.0, 119, -4, 4)
    assert lo == pytest.approx(-2 - 3 / 119 * 2)
    assert hi == pytest.approx(-2 + 3 / 119 * 6)
    assert bounded_interval95(1.0, 0.0, 2, -4, 4) == [-4.0, 4.0]  # 3 / n above 1: anything
    # a lone call euchred on all 150 deals (-2), its scores within -2..4: nothing below -2
    assert bounded_interval95(-2.0, 0.0, 150, -2, 4) == pytest.approx([-2.0, -2 + 3 / 150 * 6])


def test_the_standard_error_beside_an_interval_says_what_the_interval_says():
    """Issue 76: no standard error of 0 beside an interval with width. The stated error is
    the larger of the sample's and the interval's wider side over 1.96: 3 / 119 * 6 / 1.96
    for the rule of three above, the sample's own for a normal interval."""
    se, interval = bounded_figures(-2.0, 0.0, 119, -4, 4)
    assert interval == pytest.approx([-2 - 3 / 119 * 2, -2 + 3 / 119 * 6])
    assert se == pytest.approx(3 / 119 * 6 / 1.959964, rel=1e-6)
    assert stated_se(0.5, 0.1, [0.5 - 0.1959964, 0.5 + 0.1959964]) == pytest.approx(0.1)
    assert stated_se(0.5, 0.1, [0.3, 0.9]) == pytest.approx(0.4 / 1.959964, rel=1e-6)
    # one value that can only be what it is (a dealer's pass that passes the deal out)
    assert bounded_figures(0.0, 0.0, 500, 0, 0) == (0.0, [0.0, 0.0])


def test_an_interval_near_an_end_is_wilson_s_by_hand():
    """Wilson's score interval for 10 in 100 is 0.0552 .. 0.1744 (the textbook's figure; by
    hand: centre (0.1 + 1.96² / 200) / (1 + 1.96² / 100), half-width 1.96 / (1 + 1.96² / 100)
    x sqrt(0.1 x 0.9 / 100 + 1.96² / 40000)). Points within -2..2 that are -2 or 2 (a call
    euchred or marched) with 10 % at 2 have mean -1.6 and standard error 4 x 0.03: the same
    interval read on -2..2, not the normal one's -1.835 .. -1.365."""
    lo, hi = bounded_interval95(-1.6, 0.12, 100, -2, 2)
    assert (lo + 2) / 4 == pytest.approx(0.05523, abs=5e-5)
    assert (hi + 2) / 4 == pytest.approx(0.17437, abs=5e-5)
    assert chance_interval95(0.1, 0.03, 100) == pytest.approx([(lo + 2) / 4, (hi + 2) / 4])


def _score_interval(q: float, s: float) -> tuple[float, float]:
    """The slow twin of Wilson's interval on 0..1: every q0 with |q - q0| <= 1.96 times the
    standard error q0 (1 - q0) would have at the effective count q (1 - q) / s² (bisection
    for each end, not the closed form)."""
    n_eff = q * (1 - q) / s ** 2

    def inside(q0: float) -> bool:
        return abs(q - q0) <= Z95 * math.sqrt(q0 * (1 - q0) / n_eff)

    ends = []
    for outer in (0.0, 1.0):
        a, b = outer, q  # inside(b); an end between a and b
        if inside(a):
            ends.append(a)
            continue
        for _ in range(100):
            mid = (a + b) / 2
            a, b = (a, mid) if inside(mid) else (mid, b)
        ends.append(b)
    return ends[0], ends[1]


@given(st.floats(-4, 4), st.floats(1e-3, 2.0), st.integers(2, 100_000),
       st.sampled_from([(-2, 2), (-2, 4), (-4, 4), (-4, 2), (0, 1)]))
def test_a_bounded_interval_stays_inside_and_is_the_score_interval(mean, se, n, scores):
    low, high = scores
    mean = min(max(mean, low), high)
    lo, hi = bounded_interval95(mean, se, n, low, high)
    assert low <= lo <= mean <= hi <= high
    q, s = (mean - low) / (high - low), se / (high - low)
    if 1e-9 < q < 1 - 1e-9 and q * (1 - q) / s ** 2 > 1e-6:
        want = _score_interval(q, s)
        assert (lo - low) / (high - low) == pytest.approx(want[0], abs=1e-7)
        assert (hi - low) / (high - low) == pytest.approx(want[1], abs=1e-7)
    stated, _ = bounded_figures(mean, se, n, low, high)
    assert stated >= se and (hi - mean) <= Z95 * stated + 1e-12 and \
        (mean - lo) <= Z95 * stated + 1e-12


def test_far_from_either_end_the_interval_is_the_normal_one():
    lo, hi = bounded_interval95(0.5, 0.01, 20_000, -4, 4)
    assert [lo, hi] == pytest.approx(interval95(0.5, 0.01), abs=1e-4)  # to the figure shown


def test_a_mean_at_an_end_with_a_pool_s_spread_is_not_narrowed_to_the_rule_of_three():
    # every deal of the class at -2 (its own se 0), widened by its pool's spread to 0.05
    lo, hi = bounded_interval95(-2.0, 0.05, 300, -2, 4)
    assert lo == -2.0 and hi == pytest.approx(-2 + Z95 * 0.05)


def test_a_chance_without_spread_gets_the_rule_of_three_within_0_and_1():
    # 150 deals whose game is won on every one: another outcome (0) could come up in up to
    # 3 / 150 of them, moving the chance down by at most 3 / 150, never above 1
    assert chance_interval95(1.0, 0.0, 150) == pytest.approx([1 - 3 / 150, 1.0])
    assert chance_interval95(0.25, 0.0, 30) == pytest.approx([0.25 - 0.1 * 0.25,
                                                              0.25 + 0.1 * 0.75])
    # with a spread, Wilson's (the slow twin's), near the normal one away from 0 and 1
    assert chance_interval95(0.4, 0.05, 80) == pytest.approx(_score_interval(0.4, 0.05),
                                                             abs=1e-7)
    assert chance_interval95(0.4, 0.05, 80) == pytest.approx([0.4 - 1.959964 * 0.05,
                                                              0.4 + 1.959964 * 0.05], abs=6e-3)


def test_a_sample_of_one_value_repeated_has_no_spread_exactly():
    # three deals of the same chance: the sums of squares leave a rounding (8.6e-09 here),
    # which would print as an interval of zero width, not the rule of three's
    for value in (0.9127555772777217, 0.1, 2.0):
        mean, se = mean_se([value] * 3)
        assert se == 0.0 and mean == pytest.approx(value)
    assert chance_interval95(*mean_se([0.9127555772777217] * 3), 3) == pytest.approx(
        [0.0, 1.0])  # 3 / n is 1: any chance
