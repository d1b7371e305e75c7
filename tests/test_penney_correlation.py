"""Races through correlations against the automaton route (the draw program), exactly."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from drawdsl import chances, coin
from games import penney
from games.penney.correlation import Correlations, _solve_integer, pair_chances, race_odds

WORDS_UP_TO_5 = [w for n in range(1, 6) for w in penney.all_patterns(n)]


def by_automaton(
    patterns: tuple[str, ...], alphabet: str = "HT", weights: list[int] | list[Fraction] | None = None
) -> tuple[tuple[Fraction, ...], Fraction]:
    dist = chances(penney.race_spec(patterns, alphabet), penney.source(alphabet, weights))
    assert dist.expected_draws is not None
    return tuple(dist[p] for p in patterns), dist.expected_draws


def leading_number(x: str, y: str, p: dict[str, Fraction]) -> Fraction:
    """The weighted leading number from its definition, in Fractions."""
    total = Fraction(0)
    for k in range(1, min(len(x), len(y)) + 1):
        if x[-k:] == y[:k]:
            prob = Fraction(1)
            for symbol in y[:k]:
                prob *= p[symbol]
            total += 1 / prob
    return total


@pytest.mark.parametrize("a", WORDS_UP_TO_5)
def test_every_coin_pair_up_to_length_5_matches_the_automaton(a: str) -> None:
    """All 1,891 unordered pairs of coin patterns of lengths 1 to 5 (containment included)."""
    for b in WORDS_UP_TO_5[WORDS_UP_TO_5.index(a) + 1:]:
        assert race_odds((a, b)) == by_automaton((a, b)), (a, b)


def test_every_pair_table_up_to_length_5_matches_the_automaton_route() -> None:
    for n in range(1, 6):
        assert penney.pair_table(n) == penney.pair_table(n, method="automaton"), n


@pytest.mark.parametrize("weights", [[1, 2], [Fraction(3, 7), Fraction(4, 7)]])
def test_biased_pair_tables_match_the_automaton_route(weights: list[int] | list[Fraction]) -> None:
    for n in (2, 3, 4):
        fast = penney.pair_table(n, weights=weights)
        assert fast == penney.pair_table(n, weights=weights, method="automaton")


def test_a_weighted_die_pair_table_matches_the_automaton_route() -> None:
    weights = [1, 2, 3]
    assert penney.pair_table(2, "123", weights) == penney.pair_table(2, "123", weights, method="automaton")


@st.composite
def weighted_races(draw: st.DrawFn) -> tuple[str, tuple[str, ...], list[int]]:
    """An alphabet of 2 to 4 symbols with integer weights and 1 to 5 distinct patterns of
    unequal lengths (some containing others)."""
    alphabet = "abcd"[: draw(st.integers(2, 4))]
    weights = draw(st.lists(st.integers(1, 9), min_size=len(alphabet), max_size=len(alphabet)))
    word = st.text(alphabet, min_size=1, max_size=5)
    patterns = draw(st.lists(word, min_size=1, max_size=5, unique=True))
    return alphabet, tuple(patterns), weights


@settings(max_examples=150, deadline=None)
@given(weighted_races())
def test_generated_races_match_the_automaton_route(race: tuple[str, tuple[str, ...], list[int]]) -> None:
    alphabet, patterns, weights = race
    assert race_odds(patterns, alphabet, weights) == by_automaton(patterns, alphabet, weights)
    result = penney.odds(*patterns, alphabet=alphabet, weights=weights) if len(patterns) > 1 else None
    if result is not None:
        assert tuple(result.wins.values()) == race_odds(patterns, alphabet, weights)[0]


@settings(max_examples=60, deadline=None)
@given(weighted_races(), st.data())
def test_rational_weights_give_the_same_race_as_their_integer_multiples(
    race: tuple[str, tuple[str, ...], list[int]], data: st.DataObject
) -> None:
    alphabet, patterns, weights = race
    scale = data.draw(st.fractions(min_value=Fraction(1, 50), max_value=50).filter(bool))
    scaled = [w * scale for w in weights]
    assert race_odds(patterns, alphabet, scaled) == race_odds(patterns, alphabet, weights)


@settings(max_examples=100, deadline=None)
@given(weighted_races())
def test_correlations_are_the_leading_numbers_scaled(race: tuple[str, tuple[str, ...], list[int]]) -> None:
    """w(y) * (x:y) for every pair, one at a time and all together."""
    alphabet, patterns, weights = race
    table = Correlations(alphabet, weights)
    src = penney.source(alphabet, weights)
    p = {s: src.probability(s) for s in alphabet}
    cross = table.cross_correlations(patterns)
    for x, y in itertools.product(patterns, repeat=2):
        value = table.correlation(x, y)
        assert Fraction(value, table.weight(y)) == leading_number(x, y, p)
        assert cross[x].get(y, 0) == value


def test_pair_chances_are_conway_in_both_orders() -> None:
    words = penney.all_patterns(4)
    fair = {"H": Fraction(1, 2), "T": Fraction(1, 2)}
    chance = pair_chances(words)
    for a, b in itertools.permutations(words, 2):
        aa, ab, ba, bb = (leading_number(x, y, fair) for x, y in ((a, a), (a, b), (b, a), (b, b)))
        assert chance[(a, b)] == (aa - ab) / ((aa - ab) + (bb - ba))
        assert chance[(a, b)] + chance[(b, a)] == 1


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 6).flatmap(
    lambda n: st.lists(st.lists(st.integers(-9, 9), min_size=n + 1, max_size=n + 1), min_size=n, max_size=n)
))
def test_fraction_free_elimination_matches_sympy(rows: list[list[int]]) -> None:
    n = len(rows)
    matrix = sympy.Matrix([row[:n] for row in rows])
    if matrix.det() == 0:
        return
    expected = matrix.LUsolve(sympy.Matrix([row[n] for row in rows]))
    got = _solve_integer([row[:] for row in rows])
    assert [sympy.Rational(q.numerator, q.denominator) for q in got] == list(expected)


def test_one_pattern_is_its_waiting_time() -> None:
    assert race_odds(["HTH"]) == ((Fraction(1),), Fraction(10))
    assert race_odds(["HHHHHH"])[1] == 126  # 2^7 - 2


def test_the_coin_pattern_race_through_the_public_api() -> None:
    assert penney.odds("HHH", "THH") == penney.odds("HHH", "THH", method="automaton")
    assert chances(penney.race_spec(["HHH", "THH"]), coin())["THH"] == Fraction(7, 8)
