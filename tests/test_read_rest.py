"""A spec that needs more cards than are left reads the rest and fails, at once.

``draw_many(n)`` and ``draw_count(predicate, n)`` read ``n`` cards whatever they are.
When fewer are left, they become :data:`~drawdsl.spec.READ_REST` (read every card
left, then fail): one state, so the evaluator answers at once, and since the cards
are still read, ``or_else``, what follows it, and ``expected_draws`` are unchanged.
The reference below is a hand-written loop that reads the same cards and is not
shortened.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from hypothesis import given
from hypothesis import strategies as st
from oracle import brute_force
from strategies import decks

from drawdsl import (
    FAILED,
    Cards,
    Spec,
    chances,
    done,
    draw,
    draw_count,
    draw_many,
    fail,
    loop,
    replicate,
    sample,
    sequence,
    standard_deck,
    witness,
)
from drawdsl.spec import READ_REST


def _collect(n: int) -> Any:
    def step(state: tuple[Any, ...], card: Any) -> Any:
        state += (card,)
        return done(state) if len(state) == n else state

    return step


def slow_many(n: int) -> Spec[Any]:
    """draw_many(n) as a user writes it: read card by card, never shortened."""
    return loop((), _collect(n)) if n else done(())


def test_draw_many_past_the_deck_answers_at_once_on_the_whole_deck() -> None:
    dist = chances(draw_many(53), standard_deck())
    assert dist.failure == 1 and len(dist) == 0
    assert dist.expected_draws == 52  # every card was still read
    counted = chances(draw_count(lambda card: card.rank == 13, 60), standard_deck())
    assert counted.failure == 1 and counted.expected_draws == 52
    assert chances(draw_many(53), standard_deck(), lump=False, symmetric=False).failure == 1


def test_sampling_and_witness_agree() -> None:
    assert sample(draw_many(53), standard_deck(), rng=1) is FAILED
    assert witness(draw_many(53), standard_deck()) is None


def test_the_shortcut_is_one_state() -> None:
    assert draw_many(3)._expand(2) is READ_REST
    assert draw_many(3)._expand(3) is not READ_REST


@given(decks, st.integers(0, 7), st.integers(0, 3))
def test_draw_many_matches_an_unshortened_loop(deck: Cards[str], n: int, after: int) -> None:
    """Values, failure and expected_draws, also under or_else and what follows it."""
    fast = (draw_many(n) | done("short")).then(draw_many(after))
    slow = (slow_many(n) | done("short")).then(slow_many(after))
    got, want = chances(fast, deck), chances(slow, deck)
    assert got == want
    assert got.expected_draws == want.expected_draws
    assert got == brute_force(fast, deck)


@given(decks, st.integers(0, 7))
def test_draw_count_matches_brute_force(deck: Cards[str], n: int) -> None:
    spec = draw_count(lambda card: card == "a", n) | draw().map(lambda card: f"fallback {card}")
    got = chances(spec, deck)
    assert got == brute_force(spec, deck)
    assert sum((got[v] for v in got), Fraction(0)) + got.failure == 1


def test_a_user_loop_is_not_shortened() -> None:
    """Only combinators that declare how many cards they read are shortened."""
    spec = loop(0, lambda seen, card: fail() if seen == 99 else seen + 1)
    assert spec._expand(2) is not READ_REST


def slow_replicate(n: int, spec: Spec[Any]) -> Spec[Any]:
    """replicate as a user writes it with bind: never shortened."""
    if n == 0:
        return done(())
    return spec.bind(lambda first: slow_replicate(n - 1, spec).map(lambda rest: (first, *rest)))


def test_replicate_and_sequence_past_the_deck_answer_at_once() -> None:
    for spec in (replicate(53, draw()), sequence([draw()] * 53), replicate(27, draw_many(2)),
                 replicate(10**30, draw())):
        dist = chances(spec, standard_deck())
        assert dist.failure == 1 and dist.expected_draws == 52


@given(decks, st.integers(0, 4), st.integers(0, 3))
def test_replicate_matches_an_unshortened_bind(deck: Cards[str], n: int, size: int) -> None:
    fast = (replicate(n, draw_many(size)) | done("short")).then(draw())
    slow = (slow_replicate(n, slow_many(size)) | done("short")).then(draw())
    got, want = chances(fast, deck), chances(slow, deck)
    assert got == want and got.expected_draws == want.expected_draws
    assert got == brute_force(fast, deck)
    mixed = sequence([draw(), draw_many(size), draw().map(str)]) | draw()
    assert chances(mixed, deck) == brute_force(mixed, deck)
