"""Laws: generator syntax is bind, the monad laws hold, sampling agrees with the exact answer."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from oracle import orderings
from strategies import Branch, Summary, decks, gen_bind, specs

from drawdsl import Cards, Spec, chances, done, draw, generate, play, simulate

pairs_of_options = st.tuples(specs, specs)


def _same(a: Spec[Any], b: Spec[Any], deck: Cards[str]) -> None:
    """Equal exact distributions, and equal results on every single deal."""
    assert chances(a, deck) == chances(b, deck)
    for deal in orderings(deck):
        assert play(a, deal) == play(b, deal)


@given(specs, pairs_of_options, decks)
def test_generator_syntax_equals_bind(
    m: Spec[Any], options: tuple[Spec[Any], Spec[Any]], deck: Cards[str]
) -> None:
    f = Branch(options)
    _same(gen_bind(m, f), m.bind(f), deck)


@given(st.integers(0, 3), pairs_of_options, decks)
def test_left_identity(a: int, options: tuple[Spec[Any], Spec[Any]], deck: Cards[str]) -> None:
    f = Branch(options)
    _same(done(a).bind(f), f(a), deck)


@given(specs, decks)
def test_right_identity(m: Spec[Any], deck: Cards[str]) -> None:
    _same(m.bind(done), m, deck)


@given(specs, pairs_of_options, pairs_of_options, decks)
def test_associativity(
    m: Spec[Any],
    f_options: tuple[Spec[Any], Spec[Any]],
    g_options: tuple[Spec[Any], Spec[Any]],
    deck: Cards[str],
) -> None:
    f, g = Branch(f_options), Branch(g_options)
    _same(m.bind(f).bind(g), m.bind(lambda x: f(x).bind(g)), deck)


@given(specs, st.integers(2, 3), decks)
def test_map_is_bind_done(m: Spec[Any], k: int, deck: Cards[str]) -> None:
    summary = Summary(k)
    _same(m.map(summary), m.bind(lambda v: done(summary(v))), deck)


def test_generator_loops_equal_bind_chain() -> None:
    """A generator with a Python loop and branching equals the hand-written bind chain."""

    @generate
    def first_repeat(limit: int) -> Any:
        seen: list[str] = []
        for _ in range(limit):
            card = yield draw()
            if card in seen:
                return (len(seen) + 1, card)
            seen.append(card)
        return (limit, None)

    def chain(seen: tuple[str, ...], limit: int) -> Spec[Any]:
        if len(seen) == limit:
            return done((limit, None))
        return draw().bind(lambda c: done((len(seen) + 1, c)) if c in seen else chain((*seen, c), limit))

    deck = Cards({"a": 2, "b": 2, "c": 1})
    _same(first_repeat(4), chain((), 4), deck)


def _within_bound(observed: int, n: int, p: Fraction) -> bool:
    """Observed count within 5 standard deviations (plus a hair) of n*p."""
    sd = math.sqrt(n * float(p) * (1 - float(p)))
    return abs(observed - n * float(p)) <= 5 * sd + 1e-9


@settings(max_examples=25)
@given(specs, decks, st.integers(0, 2**32 - 1))
def test_sampling_agrees_with_exact(spec: Spec[Any], deck: Cards[str], seed: int) -> None:
    n = 2000
    exact = chances(spec, deck)
    tally = simulate(spec, deck, n=n, seed=seed)
    assert set(tally) <= set(exact)
    for outcome, p in exact.items():
        assert _within_bound(tally[outcome], n, p), (outcome, tally[outcome], p)
    assert _within_bound(tally.failures, n, exact.failure)


def test_same_seed_same_tally() -> None:
    deck = Cards({"a": 3, "b": 2, "c": 4})
    spec = draw().bind(lambda a: draw().map(lambda b: a + b))
    assert simulate(spec, deck, n=500, seed=11) == simulate(spec, deck, n=500, seed=11)
    assert simulate(spec, deck, n=500, seed=11) != simulate(spec, deck, n=500, seed=12)
