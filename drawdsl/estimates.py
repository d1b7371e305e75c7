"""Estimates from random runs: a value with a confidence interval.

Two intervals for a proportion (``k`` hits in ``n`` runs): Wilson's score interval
(short, good near 0 and 1) and the exact Clopper-Pearson interval (never shorter than
needed: its coverage is at least the confidence, for every true chance), whose ends are
beta quantiles; and the normal interval for a mean.

>>> proportion(7, 20, method="exact")  # doctest: +ELLIPSIS
Estimate(value=0.35, low=0.1539092..., high=0.5921885..., confidence=0.95, method='exact')
>>> print(proportion(0, 2000))
0 (≤ 0.001917 at 95%)
>>> print(proportion(500, 1000, confidence=0.99))
0.5 [0.4594, 0.5406]
"""

from __future__ import annotations

import math
import statistics
import struct
from collections.abc import Callable
from dataclasses import dataclass

from drawdsl.errors import InvalidArgument

__all__ = ["Estimate", "METHODS", "proportion", "mean_interval", "regularized_beta"]

#: The interval methods of :func:`proportion`.
METHODS = ("wilson", "exact")


@dataclass(frozen=True)
class Estimate:
    """A point estimate with a confidence interval ``[low, high]`` at ``confidence``.

    Printed as ``value [low, high]``; a proportion that was never (or always) seen as a
    one-sided bound, since its estimate sits at the end of the interval:

    >>> print(Estimate(0.0, 0.0, 0.0019, 0.95, "wilson"))
    0 (≤ 0.0019 at 95%)
    >>> print(Estimate(1.0, 0.9981, 1.0, 0.95, "wilson"))
    1 (≥ 0.9981 at 95%)
    """

    value: float
    low: float
    high: float
    confidence: float = 0.95
    method: str = ""

    def __str__(self) -> str:
        level = f"{self.confidence:.4g}" if self.confidence * 100 % 1 else f"{self.confidence:.0%}"
        if self.value == 0 and self.low == 0 and self.high < 1:
            return f"0 (≤ {self.high:.4g} at {level})"
        if self.value == 1 and self.high == 1 and self.low > 0:
            return f"1 (≥ {self.low:.4g} at {level})"
        return f"{self.value:.4g} [{self.low:.4g}, {self.high:.4g}]"


def _z(confidence: float) -> float:
    """The two-sided normal quantile for ``confidence`` (1.959964 for 0.95)."""
    if isinstance(confidence, bool) or not isinstance(confidence, (int, float)) or not 0 < confidence < 1:
        raise InvalidArgument(
            f"confidence must be a number strictly between 0 and 1, such as 0.95, got {confidence!r}"
        )
    return statistics.NormalDist().inv_cdf(0.5 + confidence / 2)


def _counts(k: int, n: int) -> None:
    for name, value in (("k", k), ("n", n)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"proportion: {name} must be an int, got {value!r} ({type(value).__name__})")
    if not 0 <= k <= n:
        raise InvalidArgument(f"proportion: need 0 <= k <= n, got k={k}, n={n}")


def regularized_beta(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function ``I_x(a, b)`` (a, b > 0, 0 <= x <= 1).

    ``I_p(k, n - k + 1)`` is the chance of at least ``k`` hits in ``n`` runs of chance ``p``.
    A continued fraction (Lentz's method): relative error about 1e-12 for counts up to 10^4,
    1e-9 up to 10^6 and 1e-7 up to 10^7 (the log-gamma terms lose digits as counts grow),
    far below the digits an interval is printed with.

    >>> regularized_beta(1, 1, 0.25)  # the uniform law
    0.25
    >>> round(regularized_beta(2, 3, 0.5), 12)  # P(at least 2 hits in 4 fair flips) = 11/16
    0.6875
    """
    if not (a > 0 and b > 0):
        raise InvalidArgument(f"regularized_beta: a and b must be positive, got a={a}, b={b}")
    if not 0 <= x <= 1:
        raise InvalidArgument(f"regularized_beta: x must be in [0, 1], got {x}")
    if x == 0 or x == 1:
        return float(x)
    log_front = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    # The fraction converges fast below the mean (a + 1) / (a + b + 2); above it, use the mirror.
    if x < (a + 1) / (a + b + 2):
        return math.exp(log_front) * _beta_fraction(a, b, x) / a
    return 1 - math.exp(log_front) * _beta_fraction(b, a, 1 - x) / b


def _beta_fraction(a: float, b: float, x: float) -> float:
    tiny = 1e-300
    c, d = 1.0, 1 - (a + b) * x / (a + 1)
    d = 1 / (d if abs(d) > tiny else tiny)
    result = d
    # Terms needed grow as sqrt(max(a, b)): a generous bound, never reached in practice.
    for m in range(1, 1000 + 10 * math.isqrt(int(a + b) + 1)):
        for numerator in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                          -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1 + numerator * d
            d = 1 / (d if abs(d) > tiny else tiny)
            c = 1 + numerator / c
            c = c if abs(c) > tiny else tiny
            result *= c * d
        if abs(c * d - 1) < 1e-16:
            return result
    raise ArithmeticError(f"regularized_beta({a}, {b}, {x}) did not converge")  # pragma: no cover


def _bits(x: float) -> int:
    return int(struct.unpack("<q", struct.pack("<d", x))[0])


def _float(bits: int) -> float:
    return float(struct.unpack("<d", struct.pack("<q", bits))[0])


def _smallest(increasing: Callable[[float], float], target: float) -> float:
    """The smallest float p in [0, 1] with ``increasing(p) >= target``: bisection on the
    floats' bit patterns (ordered like the floats), so tiny ends keep all their digits."""
    low, high = _bits(0.0), _bits(1.0)
    while high - low > 1:
        middle = (low + high) // 2
        if increasing(_float(middle)) >= target:
            high = middle
        else:
            low = middle
    return _float(high)


def _clopper_pearson(k: int, n: int, alpha: float) -> tuple[float, float]:
    """Beta quantiles: P(X >= k; p_low) = alpha/2 and P(X <= k; p_high) = alpha/2."""
    low = 0.0 if k == 0 else _smallest(lambda p: regularized_beta(k, n - k + 1, p), alpha / 2)
    high = 1.0 if k == n else _smallest(lambda p: regularized_beta(k + 1, n - k, p), 1 - alpha / 2)
    return low, high


def _wilson(k: int, n: int, z: float) -> tuple[float, float]:
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    # At k = 0 (or n) the end is 0 (or 1) exactly; rounding would leave 1e-19 there.
    return (0.0 if k == 0 else max(0.0, centre - half)), (1.0 if k == n else min(1.0, centre + half))


def proportion(k: int, n: int, *, confidence: float = 0.95, method: str = "wilson") -> Estimate:
    """The chance behind ``k`` hits in ``n`` runs: ``k / n`` with an interval.

    ``method``: ``"wilson"`` (Wilson's score interval) or ``"exact"`` (Clopper-Pearson).
    With ``n == 0`` nothing is known: the value is NaN and the interval ``[0, 1]``.
    The example is one of Newcombe's (1998, Table I: Wilson 0.2553 to 0.3662):

    >>> proportion(81, 263, method="wilson")  # doctest: +ELLIPSIS
    Estimate(value=0.30798..., low=0.25528..., high=0.36620..., confidence=0.95, method='wilson')
    """
    _counts(k, n)
    z = _z(confidence)
    if method not in METHODS:
        raise InvalidArgument(f"proportion: method must be one of {', '.join(METHODS)}, got {method!r}")
    if n == 0:
        return Estimate(math.nan, 0.0, 1.0, confidence, method)
    low, high = _wilson(k, n, z) if method == "wilson" else _clopper_pearson(k, n, 1 - confidence)
    return Estimate(k / n, low, high, confidence, method)


def mean_interval(total: float, squares: float, m: int, *, confidence: float = 0.95) -> Estimate:
    """The mean of ``m`` values from their sum and sum of squares, with the normal interval
    ``mean +- z s / sqrt(m)`` (``s`` the sample standard deviation).

    >>> print(mean_interval(total=30, squares=100, m=10))  # five 2s and five 4s
    3 [2.347, 3.653]
    """
    z = _z(confidence)
    if m == 0:
        return Estimate(math.nan, math.nan, math.nan, confidence, "normal")
    mean = total / m
    if m == 1:
        return Estimate(mean, mean, mean, confidence, "normal")
    variance = max(0.0, (squares - total * mean) / (m - 1))
    half = z * math.sqrt(variance / m)
    return Estimate(mean, mean - half, mean + half, confidence, "normal")
