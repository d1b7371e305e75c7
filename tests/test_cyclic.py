"""Cyclic processes on with-replacement sources, solved as absorbing Markov chains."""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any

import pytest

from drawdsl import (
    EndlessProcess,
    Spec,
    StateLimitExceeded,
    Weighted,
    chances,
    coin,
    die,
    done,
    draw_until,
    fail,
    loop,
    simulate,
)
from drawdsl.examples import aces_deck


class Race:
    """Flip until one of the patterns appears; finish with that pattern."""

    def __init__(self, patterns: tuple[str, ...]) -> None:
        self.patterns = patterns
        self.width = max(map(len, patterns))

    def __call__(self, state: str, side: str) -> Any:
        state = (state + side)[-self.width:]
        for pattern in self.patterns:
            if state.endswith(pattern):
                return done(pattern)
        return state


def race(*patterns: str) -> Spec[str]:
    return loop("", Race(patterns))


def correlation(x: str, y: str, p: dict[str, Fraction]) -> Fraction:
    """Conway's leading number, weighted: sum over k where x's last k symbols are y's
    first k, of 1 / P(y's first k symbols)."""
    total = Fraction(0)
    for k in range(1, min(len(x), len(y)) + 1):
        if x[-k:] == y[:k]:
            prob = Fraction(1)
            for symbol in y[:k]:
                prob *= p[symbol]
            total += 1 / prob
    return total


def conway_first_wins(a: str, b: str, p: dict[str, Fraction]) -> Fraction:
    """P(pattern a appears before pattern b), by Conway's formula (neither inside the other)."""
    odds_a = correlation(b, b, p) - correlation(b, a, p)
    odds_b = correlation(a, a, p) - correlation(a, b, p)
    return odds_a / (odds_a + odds_b)


FAIR = {"H": Fraction(1, 2), "T": Fraction(1, 2)}


def _pairs(max_len: int) -> list[tuple[str, str]]:
    words = ["".join(w) for n in range(1, max_len + 1) for w in itertools.product("HT", repeat=n)]
    return [(a, b) for a in words for b in words if a != b and a not in b and b not in a]


@pytest.mark.parametrize(("a", "b"), _pairs(4))
def test_two_pattern_races_match_conway(a: str, b: str) -> None:
    dist = chances(race(a, b), coin())
    assert dist[a] == conway_first_wins(a, b, FAIR)
    assert dist[a] + dist[b] == 1


@pytest.mark.parametrize(("a", "b"), [("HH", "TH"), ("HHT", "HTT"), ("HTH", "THH"), ("HHTT", "TTH")])
def test_biased_coin_races_match_weighted_conway(a: str, b: str) -> None:
    p = {"H": Fraction(2, 3), "T": Fraction(1, 3)}
    assert chances(race(a, b), coin(Fraction(2, 3)))[a] == conway_first_wins(a, b, p)


@pytest.mark.parametrize(("pattern", "wait"), [("HH", 6), ("HT", 4), ("HHH", 14), ("HTH", 10)])
def test_expected_waiting_times(pattern: str, wait: int) -> None:
    assert chances(race(pattern), coin()).expected_draws == wait


def test_biased_waiting_time_for_hh() -> None:
    p = Fraction(1, 3)
    assert chances(race("HH"), coin(p)).expected_draws == (1 + p) / p**2


def test_die_waiting_for_a_six() -> None:
    dist = chances(race("6"), Weighted("123456"))
    assert dist.expected_draws == 6


def test_three_players_sum_to_one_and_agree_with_sampling() -> None:
    spec = race("HHT", "HTH", "TTH")
    dist = chances(spec, coin())
    assert sum(dist.values()) == 1
    tally = simulate(spec, coin(), n=4000, seed=3)
    for pattern, p in dist.items():
        assert abs(tally.frequency(pattern) - p) < Fraction(1, 20)


def test_failure_mass_in_a_cyclic_process() -> None:
    """Roll a die until a 6 (win) or a 1 (fail): the 6 comes first half the time."""

    def step(state: None, face: int) -> Any:
        return done("six") if face == 6 else fail() if face == 1 else state

    dist = chances(loop(None, step), die(6))
    assert dist["six"] == Fraction(1, 2)
    assert dist.failure == Fraction(1, 2)
    assert dist.expected_draws == 3


def test_a_process_that_never_ends_is_refused() -> None:
    def forever(state: int, side: str) -> int:
        return (state + 1) % 3

    with pytest.raises(EndlessProcess, match="draw forever"):
        chances(loop(0, forever), coin())


def test_a_process_that_may_get_stuck_is_refused() -> None:
    def step(state: str, side: str) -> Any:
        if state == "stuck":
            return "stuck"
        return done(1) if side == "H" else "stuck"

    with pytest.raises(EndlessProcess):
        chances(loop("", step), coin())


def test_the_state_limit_applies_to_the_cyclic_graph() -> None:
    def step(state: int, side: str) -> Any:
        return done(state) if state >= 500 else (state + 1 if side == "H" else 0)

    with pytest.raises(StateLimitExceeded, match="max_states=100"):
        chances(loop(0, step), coin(), max_states=100)


def test_expected_draws_on_a_finite_deck() -> None:
    assert chances(draw_until(lambda ace: ace), aces_deck()).expected_draws == Fraction(53, 5)


@pytest.mark.parametrize(("a", "b"), [("HHT", "THT"), ("HTHT", "THHH"), ("HHTTH", "TTHHT")])
@pytest.mark.parametrize("lump", [True, False])
def test_both_linear_solvers_agree(a: str, b: str, lump: bool) -> None:
    """Sparse integer elimination and sympy's sparse rref, with and without lumping."""
    from drawdsl.cyclic import solve_chain

    spec = race(a, b)
    ours = solve_chain(spec, coin(), max_states=10_000, method="sparse", lump=lump)
    sympy = solve_chain(spec, coin(), max_states=10_000, method="sympy", lump=lump)
    assert ours == sympy and ours.expected_draws == sympy.expected_draws
    assert ours[a] == conway_first_wins(a, b, FAIR)


def test_a_large_sparse_chain() -> None:
    """509 states (the last 8 flips): the sparse solver handles it; Conway agrees."""
    a, b = "HHTTHHTH", "TTHHTHTT"
    dist = chances(race(a, b), coin())
    assert dist[a] == conway_first_wins(a, b, FAIR) == Fraction(131, 228)
