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
    """The 95 % interval of a mean of n values, each within low..high, never past them.

    The mean is read as a share q = (mean - low) / (high - low) of the way from low to high,
    and its interval is Wilson's score interval for a proportion of n_eff = q (1 - q) / s²
    trials (s: the standard error on that scale; Korn and Graubard's effective count, which is
    n for values at low or high only and more where they spread less): the normal interval
    where q is far from either end, bent inside 0..1 near them, where a few rare results carry
    the mean. Where the sample shows no spread at all (se 0: every value alike) the rule of
    three (a value other than the one seen in n draws has a chance below 3 / n at 95 %), as far
    towards either end as that share of the other values could move the mean; a mean at low or
    high with a standard error from elsewhere (a pool's spread) gets the wider of that and the
    normal interval, clipped. Where low is high, that one value; a standard error of NaN (a
    single value) gives NaN."""
    if not high > low:
        return [float(low), float(low)]
    if n < 1 or not np.isfinite(se):
        return interval95(mean, se)
    width = high - low
    q = min(max((mean - low) / width, 0.0), 1.0)
    spread = q * (1 - q)
    if se == 0 or spread == 0:
        share = min(1.0, 3.0 / n)
        three = [mean - share * (mean - low), mean + share * (high - mean)]
        if se == 0:
            return three
        # at an end with a spread from elsewhere (a pool's): the wider of the two, clipped
        return [float(max(low, min(three[0], mean - Z95 * se))),
                float(min(high, max(three[1], mean + Z95 * se)))]
    n_eff = spread / (se / width) ** 2
    z2 = Z95 * Z95 / n_eff
    centre = (q + z2 / 2) / (1 + z2)
    half = Z95 / (1 + z2) * np.sqrt(spread / n_eff + z2 / (4 * n_eff))
    return [float(low + width * max(centre - half, 0.0)),
            float(low + width * min(centre + half, 1.0))]


def stated_se(mean: float, se: float, interval: list[float]) -> float:
    """The standard error stated beside a 95 % interval: the larger of the sample's and the
    interval's wider side over 1.96, so that a reader's z from it is never larger than the
    interval allows (the rule of three's and Wilson's intervals are not symmetric; a normal
    interval's side is 1.96 times the sample's exactly)."""
    if not np.isfinite(se):
        return se
    low, high = interval
    return float(max(se, (mean - low) / Z95, (high - mean) / Z95))


def bounded_figures(mean: float, se: float, n: int, low: float, high: float
                    ) -> tuple[float, list[float]]:
    """(the standard error to state, the 95 % interval) of a mean of n values within
    low..high: `bounded_interval95`, and `stated_se` beside it."""
    interval = bounded_interval95(mean, se, n, low, high)
    return stated_se(mean, se, interval), interval


def chance_interval95(p: float, se: float, n: int) -> list[float]:
    """`bounded_interval95` of a mean of chances (each within 0..1)."""
    return bounded_interval95(p, se, n, 0.0, 1.0)
