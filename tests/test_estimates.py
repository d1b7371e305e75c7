"""Confidence intervals: published values, closed forms, the definitions checked exactly, and Tally."""

from __future__ import annotations

import math
import statistics
from fractions import Fraction

import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from drawdsl import Cards, InvalidArgument, Tally, chances, draw, draw_many, simulate
from drawdsl.estimates import Estimate, mean_interval, proportion, regularized_beta

# Newcombe (1998), "Two-sided confidence intervals for the single proportion", Table I:
# (k, n): (Wilson score interval, Clopper-Pearson exact interval), to 4 decimals.
NEWCOMBE = {
    (81, 263): ((0.2553, 0.3662), (0.2527, 0.3676)),
    (15, 148): ((0.0624, 0.1605), (0.0578, 0.1617)),
    (0, 20): ((0.0000, 0.1611), (0.0000, 0.1684)),
    (1, 29): ((0.0061, 0.1718), (0.0009, 0.1776)),
}


@pytest.mark.parametrize(("k", "n"), sorted(NEWCOMBE))
def test_newcombes_published_intervals(k: int, n: int) -> None:
    wilson, exact = NEWCOMBE[(k, n)]
    got_w = proportion(k, n, method="wilson")
    got_e = proportion(k, n, method="exact")
    assert (round(got_w.low, 4), round(got_w.high, 4)) == wilson
    assert (round(got_e.low, 4), round(got_e.high, 4)) == exact


def test_r_binom_test_intervals() -> None:
    # R: binom.test(c(682, 243), p = 3/4) prints 0.7076683 0.7654066 (its documentation's example);
    # binom.test(7, 20) prints 0.1539092 0.5921885.
    for (k, n), (low, high) in {(682, 925): (0.7076683, 0.7654066), (7, 20): (0.1539092, 0.5921885)}.items():
        got = proportion(k, n, method="exact")
        assert (round(got.low, 7), round(got.high, 7)) == (low, high)


@pytest.mark.parametrize("n", [1, 2, 10, 1000, 10**6])
@pytest.mark.parametrize("confidence", [0.9, 0.95, 0.99])
def test_exact_interval_closed_forms_at_zero_and_all(n: int, confidence: float) -> None:
    alpha = 1 - confidence
    none = proportion(0, n, confidence=confidence, method="exact")
    assert none.low == 0 and math.isclose(none.high, 1 - (alpha / 2) ** (1 / n), rel_tol=1e-9)
    every = proportion(n, n, confidence=confidence, method="exact")
    assert every.high == 1 and math.isclose(every.low, (alpha / 2) ** (1 / n), rel_tol=1e-9)


def _tail_at_least(k: int, n: int, p: Fraction) -> Fraction:
    return sum((math.comb(n, i) * p**i * (1 - p) ** (n - i) for i in range(k, n + 1)), Fraction(0))


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 30).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))),
       st.sampled_from([0.8, 0.95, 0.99]))
def test_exact_interval_ends_solve_the_binomial_tails_exactly(kn: tuple[int, int], confidence: float) -> None:
    """Clopper-Pearson's definition, in exact arithmetic: just inside each end the tail is
    above alpha/2, just outside it is below."""
    k, n = kn
    half = Fraction(1 - confidence) / 2
    est = proportion(k, n, confidence=confidence, method="exact")
    shift = Fraction(1, 10**9)
    if k > 0:  # P(X >= k; p_low) = alpha/2, increasing in p
        low = Fraction(est.low)
        assert _tail_at_least(k, n, low * (1 - shift)) < half < _tail_at_least(k, n, low * (1 + shift))
    if k < n:  # P(X <= k; p_high) = alpha/2, decreasing in p
        high = Fraction(est.high)
        at_most = lambda p: 1 - _tail_at_least(k + 1, n, p)  # noqa: E731
        assert at_most(high * (1 + shift)) < half < at_most(high * (1 - shift))
    assert est.low <= k / n <= est.high


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 10**6).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))),
       st.sampled_from([0.9, 0.95, 0.99]))
def test_wilson_ends_are_the_roots_of_the_score_equation(kn: tuple[int, int], confidence: float) -> None:
    """(p_hat - p)^2 = z^2 p (1 - p) / n at both ends, which hold the observed fraction."""
    k, n = kn
    z = statistics.NormalDist().inv_cdf(0.5 + confidence / 2)
    est = proportion(k, n, confidence=confidence)
    for end in (est.low, est.high):
        assert math.isclose((k / n - end) ** 2, z * z * end * (1 - end) / n, rel_tol=1e-6, abs_tol=1e-15)
    assert est.low <= k / n <= est.high and (est.low == 0) == (k == 0) and (est.high == 1) == (k == n)


@pytest.mark.parametrize(("a", "b", "x"), [
    (1, 1, 0.3), (2.5, 7, 0.2), (50, 60, 0.45), (3, 10**5, 2e-5), (2000, 2001, 0.5), (10**4, 7, 0.999),
])
def test_regularized_beta_against_mpmath(a: float, b: float, x: float) -> None:
    with mpmath.workdps(40):
        want = float(mpmath.betainc(a, b, 0, x, regularized=True))
    assert math.isclose(regularized_beta(a, b, x), want, rel_tol=1e-9)


@pytest.mark.parametrize("a", [10**5, 10**6, 10**7])
def test_regularized_beta_of_large_counts_by_symmetry(a: int) -> None:
    """I_x(a, a) at x = 1/2 is 1/2, and I_x(a, b) = 1 - I_(1-x)(b, a) (the documented accuracy)."""
    assert math.isclose(regularized_beta(a, a, 0.5), 0.5, rel_tol=1e-7)
    assert math.isclose(regularized_beta(a, a + 3, 0.4999), 1 - regularized_beta(a + 3, a, 0.5001),
                        rel_tol=1e-8)


def test_estimate_text_and_bad_arguments() -> None:
    assert str(proportion(0, 2000)) == "0 (≤ 0.001917 at 95%)"
    # 0.005 ** (1 / 2000) = 0.99735...
    assert str(proportion(2000, 2000, method="exact", confidence=0.99)) == "1 (≥ 0.9974 at 99%)"
    assert str(Estimate(0.5, 0.25, 0.75)) == "0.5 [0.25, 0.75]"
    assert math.isnan(proportion(0, 0).value)
    with pytest.raises(InvalidArgument, match="confidence must be a number strictly between 0 and 1"):
        proportion(1, 2, confidence=95)
    with pytest.raises(InvalidArgument, match="method must be one of wilson, exact, got 'exakt'"):
        proportion(1, 2, method="exakt")
    with pytest.raises(InvalidArgument, match="need 0 <= k <= n, got k=3, n=2"):
        proportion(3, 2)
    with pytest.raises(TypeError, match="k must be an int"):
        proportion(1.0, 2)  # type: ignore[arg-type]
    assert math.isnan(mean_interval(0, 0, 0).value)


# --------------------------------------------------------------------------- Tally


@settings(max_examples=50, deadline=None)
@given(st.lists(st.one_of(st.integers(-5, 20), st.none()), min_size=1, max_size=60))
def test_tally_estimates_against_the_runs_themselves(runs: list[int | None]) -> None:
    """None is a failed run; the estimates agree with the list of values computed directly."""
    values = [v for v in runs if v is not None]
    counts: dict[int, int] = {}
    for v in values:
        counts[v] = counts.get(v, 0) + 1
    tally = Tally(counts, failures=len(runs) - len(values))
    big = tally.probability(lambda v: v > 3)
    assert big.value == sum(v > 3 for v in values) / len(runs)
    assert big == proportion(sum(v > 3 for v in values), len(runs))
    assert tally.probability(method="exact") == proportion(len(values), len(runs), method="exact")
    if not values:
        with pytest.raises(InvalidArgument, match="every run failed"):
            tally.mean()
        return
    assert tally.mean() == Fraction(sum(values), len(values))
    est = tally.mean_interval(confidence=0.9)
    assert math.isclose(est.value, statistics.fmean(values))
    if len(values) > 1:
        half = statistics.NormalDist().inv_cdf(0.95) * statistics.stdev(values) / math.sqrt(len(values))
        assert math.isclose(est.high - est.value, half, rel_tol=1e-9, abs_tol=1e-12)
        assert math.isclose(est.value - est.low, half, rel_tol=1e-9, abs_tol=1e-12)


def test_tally_mean_of_non_numbers_says_what_to_do() -> None:
    tally = Tally({"a": 2, "b": 1})
    with pytest.raises(TypeError, match=r"mean: the outcome 'a' \(str\) is not a number; .*spec.map"):
        tally.mean()
    with pytest.raises(TypeError, match="predicate must be a function"):
        tally.probability("a")  # type: ignore[arg-type]


def test_the_exact_answer_lies_in_the_simulated_interval() -> None:
    """A sanity check with a fixed seed: the exact chance is inside the 99% intervals."""
    deck = Cards({"A": 4, "x": 48})
    spec = draw_many(3).map(lambda hand: hand.count("A"))
    exact = chances(spec, deck)
    tally = simulate(spec, deck, n=20_000, seed=3)
    for method in ("wilson", "exact"):
        est = tally.probability(lambda aces: aces >= 1, confidence=0.99, method=method)
        assert est.low < exact.probability(lambda aces: aces >= 1) < est.high
    mean = tally.mean_interval(confidence=0.99)
    assert mean.low < exact.expectation() < mean.high
    assert simulate(draw(), deck, n=10, seed=1).probability().value == 1.0
