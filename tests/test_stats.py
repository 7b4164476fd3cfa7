"""Rates, means and standard errors (core.stats) against hand calculations, and the result
columns of the decision tables (core.results, core.run_tables) against a written-out
table."""

import math

import numpy as np
import pandas as pd
import pytest

from euchre_sim.core.results import n_results, result_index, result_points
from euchre_sim.core.run_tables import result_names, share_names
from euchre_sim.core.stats import (
    Z95,
    chance_interval95,
    interval95,
    mean_se,
    mean_se_of_sums,
    points_interval95,
    rate_se,
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
    lo, hi = points_interval95(-2.0, 0.0, 119, 4)
    assert lo == pytest.approx(-2 - 3 / 119 * 2)
    assert hi == pytest.approx(-2 + 3 / 119 * 6)
    assert points_interval95(1.0, 0.0, 2, 4) == [-4.0, 4.0]  # 3 / n above 1: anything
    assert points_interval95(0.5, 0.1, 50, 4) == interval95(0.5, 0.1)


def test_a_chance_without_spread_gets_the_rule_of_three_within_0_and_1():
    # 150 deals whose game is won on every one: another outcome (0) could come up in up to
    # 3 / 150 of them, moving the chance down by at most 3 / 150, never above 1
    assert chance_interval95(1.0, 0.0, 150) == pytest.approx([1 - 3 / 150, 1.0])
    assert chance_interval95(0.25, 0.0, 30) == pytest.approx([0.25 - 0.1 * 0.25,
                                                              0.25 + 0.1 * 0.75])
    assert chance_interval95(0.4, 0.05, 80) == pytest.approx([0.4 - 1.959964 * 0.05,
                                                              0.4 + 1.959964 * 0.05])


def test_a_sample_of_one_value_repeated_has_no_spread_exactly():
    # three deals of the same chance: the sums of squares leave a rounding (8.6e-09 here),
    # which would print as an interval of zero width, not the rule of three's
    for value in (0.9127555772777217, 0.1, 2.0):
        mean, se = mean_se([value] * 3)
        assert se == 0.0 and mean == pytest.approx(value)
    assert chance_interval95(*mean_se([0.9127555772777217] * 3), 3) == pytest.approx(
        [0.0, 1.0])  # 3 / n is 1: any chance
