"""The median of a few repetitions and a 95% interval for it, by a method that holds for that many.

- n >= 6: distribution-free: the order statistics x(j) and x(n+1-j) with the largest j whose binomial coverage
  is still at least 95% (for n = 6..8 that is the smallest and the largest value).
- 3 <= n <= 5: no pair of order statistics covers the median with 95% (n = 5 reaches 93.75%), so Student's t on
  the logarithms of the values: the interval holds at 95% if run-to-run variation is log-normal (latencies and
  ratios are positive and skewed); it is centred on the geometric mean, which is the median of a log-normal.
- n < 3: no interval ("n too small").

A quantity that can be 0 or negative (a difference of shares, in percentage points) has no logarithm:
``estimate_signed`` uses the same order statistics from n = 6 and, for n = 3..5, Student's t on the values
themselves (it holds at 95% if run-to-run variation is normal), centred on their mean.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

CONFIDENCE = 0.95
ORDER_STATISTICS = "order statistics"
T_ON_LOGS = "t on logs"
T_ON_VALUES = "t"
TOO_FEW = "n too small"
# Student's t, two-sided 95%, for the degrees of freedom the t method is used with (n = 3..5).
_T_975 = {2: 4.302653, 3: 3.182446, 4: 2.776445}


@dataclass(frozen=True)
class Estimate:
    values: tuple[float, ...]
    median: float
    low: float | None  # None when n is too small for an interval
    high: float | None
    method: str

    @property
    def n(self) -> int:
        return len(self.values)

    @property
    def has_interval(self) -> bool:
        return self.low is not None and self.high is not None

    def bounds(self) -> tuple[float, float]:
        """The interval, or the median alone (a point) when there is none."""
        if self.low is not None and self.high is not None:
            return self.low, self.high
        return self.median, self.median


def estimate(values: Sequence[float]) -> Estimate:
    if not values:
        raise ValueError("no values")
    ordered = tuple(sorted(values))
    median = statistics.median(ordered)
    n = len(ordered)
    if n < 3:
        return Estimate(ordered, median, None, None, TOO_FEW)
    if n >= 6:
        j = order_statistic_rank(n)
        return Estimate(ordered, median, ordered[j - 1], ordered[n - j], ORDER_STATISTICS)
    if ordered[0] <= 0:
        # Logarithms need positive values; every quantity charted here is one, so this is a data error.
        raise ValueError(f"values must be positive for an interval on logarithms: {ordered}")
    centre, half = _t_interval([math.log(v) for v in ordered])
    return Estimate(ordered, median, math.exp(centre - half), math.exp(centre + half), T_ON_LOGS)


def estimate_signed(values: Sequence[float]) -> Estimate:
    """As ``estimate``, for values that may be 0 or negative: Student's t on the values themselves for n = 3..5."""
    ordered = tuple(sorted(values))
    n = len(ordered)
    if n < 3 or n >= 6:
        return estimate(ordered)
    centre, half = _t_interval(ordered)
    return Estimate(ordered, statistics.median(ordered), centre - half, centre + half, T_ON_VALUES)


def _t_interval(values: Sequence[float]) -> tuple[float, float]:
    """The mean of 3..5 values and the half-width of Student's t 95% interval around it."""
    n = len(values)
    return statistics.fmean(values), _T_975[n - 1] * statistics.stdev(values) / math.sqrt(n)


def order_statistic_rank(n: int) -> int:
    """The largest j with P(B <= j - 1) <= 2.5% for B ~ Binomial(n, 1/2): [x(j), x(n+1-j)] covers the median
    with at least 95%. Defined for n >= 6."""
    if n < 6:
        raise ValueError(f"n = {n}: no order statistics cover the median with 95%")
    j, tail = 1, 0.0
    while True:
        tail += math.comb(n, j - 1) / 2**n
        following = tail + math.comb(n, j) / 2**n
        if following > (1 - CONFIDENCE) / 2:
            return j
        j += 1


def order_statistic_coverage(n: int, j: int) -> float:
    """Coverage of [x(j), x(n+1-j)] for the median."""
    return 1 - 2 * sum(math.comb(n, i) for i in range(j)) / 2**n
