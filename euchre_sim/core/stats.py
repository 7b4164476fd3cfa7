"""Rates, means and their standard errors, and the z of a two-sided 95 % interval: the one
definition every table, summary and advice reports."""

from __future__ import annotations

import numpy as np

Z95 = 1.959963984540054  # two-sided 95 % normal quantile


def rate_se(p, n):
    """Standard error of a rate `p` over `n` independent trials (binomial); arrays too."""
    return np.sqrt(p * (1 - p) / n)


def squares_of(n, mean, se):
    """The sum of squares of n values rebuilt from their mean and its standard error (the
    inverse of `mean_se_of_sums`; a standard error of NaN, as for a single value, adds no
    spread of its own). Elementwise for arrays and Series."""
    return (n - 1) * n * np.nan_to_num(se) ** 2 + n * mean ** 2


def mean_se_of_sums(total, squares, n) -> tuple:
    """Mean and its standard error from a sum, a sum of squares and a count (elementwise for
    arrays and Series); the standard error is NaN below two values."""
    n = np.asarray(n, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        var = np.where(n > 1, (squares - total ** 2 / n) / (n - 1), np.nan)
        return total / n, np.sqrt(np.clip(var, 0, None) / n)


def mean_se(values) -> tuple[float, float]:
    """Mean of a sample and its standard error (NaN below two values; both NaN when empty;
    exactly 0 when every value is alike, which sums of squares of fractions miss by a
    rounding)."""
    x = np.asarray(values, dtype=np.float64)
    if len(x) == 0:
        return float("nan"), float("nan")
    mean, se = mean_se_of_sums(x.sum(), (x * x).sum(), len(x))
    if len(x) > 1 and x.min() == x.max():
        se = 0.0
    return float(mean), float(se)


def interval95(mean: float, se: float) -> list[float]:
    """The normal 95 % interval of a mean with standard error `se`."""
    return [mean - Z95 * se, mean + Z95 * se]


def bounded_interval95(mean: float, se: float, n: int, low: float, high: float) -> list[float]:
    """The 95 % interval of a mean of n values, each within low..high: the normal one, but
    where the sample shows no spread at all (se 0: every value alike) the rule of three (a
    value other than the one seen in n draws has a chance below 3 / n at 95 %), as far
    towards either end as that share of the other values could move the mean."""
    if not se == 0 or n < 1:
        return interval95(mean, se)
    share = min(1.0, 3.0 / n)
    return [mean - share * (mean - low), mean + share * (high - mean)]


def points_interval95(mean: float, se: float, n: int, bound: float) -> list[float]:
    """`bounded_interval95` of a mean of points, each within -bound..bound."""
    return bounded_interval95(mean, se, n, -bound, bound)


def chance_interval95(p: float, se: float, n: int) -> list[float]:
    """`bounded_interval95` of a mean of chances (each within 0..1)."""
    return bounded_interval95(p, se, n, 0.0, 1.0)
