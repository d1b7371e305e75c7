"""The Markov-chain view against the correlation route and the draw program."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from drawdsl import InvalidArgument
from games import penney
from games.penney.correlation import race_odds
from games.penney.markov import markov_chain


@st.composite
def weighted_races(draw: st.DrawFn) -> tuple[str, tuple[str, ...], list[int]]:
    alphabet = "abc"[: draw(st.integers(2, 3))]
    weights = draw(st.lists(st.integers(1, 5), min_size=len(alphabet), max_size=len(alphabet)))
    patterns = draw(st.lists(st.text(alphabet, min_size=1, max_size=4), min_size=1, max_size=4, unique=True))
    return alphabet, tuple(patterns), weights


@settings(max_examples=60, deadline=None)
@given(weighted_races())
def test_absorption_from_the_start_is_the_race(race: tuple[str, tuple[str, ...], list[int]]) -> None:
    alphabet, patterns, weights = race
    chain = markov_chain(patterns, alphabet, weights)
    matrix = chain.matrix()
    assert all(sum(matrix.row(i)) == 1 for i in range(matrix.rows))  # stochastic, exactly
    wins, length = race_odds(patterns, alphabet, weights)
    start = chain.states.index("")
    assert list(chain.absorption().row(start)) == [sympy.Rational(p.numerator, p.denominator) for p in wins]
    assert chain.expected_steps()[start] == sympy.Rational(length.numerator, length.denominator)


def test_the_float_matrix_power_approaches_the_exact_chances() -> None:
    chain = markov_chain(["012", "120", "201"], alphabet="012")
    exact = race_odds(("012", "120", "201"), "012")[0]
    limit = chain.power(2048)[0, -3:]
    assert np.allclose(limit, [float(p) for p in exact], rtol=0, atol=1e-12)
    assert np.array_equal(chain.matrix("numpy"), np.array(chain.matrix().tolist(), dtype=float))


def test_the_chain_of_a_classic_race() -> None:
    chain = markov_chain(["HTH", "HHT"])
    assert chain.states == penney.Automaton(("HTH", "HHT"), "HT").states
    assert chain.absorption()[0, :].tolist() == [[sympy.Rational(1, 3), sympy.Rational(2, 3)]]
    assert chain.moves[0] == {chain.states.index("H"): Fraction(1, 2), chain.states.index(""): Fraction(1, 2)}


def test_bad_kind_is_refused() -> None:
    with pytest.raises(InvalidArgument, match="kind must be 'sympy'"):
        markov_chain(["HH", "TT"]).matrix("float")
