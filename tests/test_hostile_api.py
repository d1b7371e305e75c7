"""Hostile values for every argument of the public API, generated with hypothesis.

Each case feeds one argument a value drawn from a pool of junk (negative, zero, huge
and non-integer numbers, floats, NaN, strings, None, containers, unhashable and
unorderable objects) while the other arguments stay sensible.  The call must either
work (the value happened to be valid) or raise a documented exception (a
:class:`~drawdsl.DrawdslError`, or ``TypeError`` for a wrong type) whose message names
the argument.  Anything else (an ``AttributeError`` from deep inside, an
``OverflowError``, a ``MemoryError``, a hang) is a failure.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import drawdsl
from drawdsl import (
    Cards,
    DrawdslError,
    Weighted,
    chances,
    coin,
    die,
    done,
    draw,
    draw_any,
    draw_count,
    draw_groups,
    draw_many,
    draw_same,
    draw_until,
    loop,
    replicate,
    sample,
    shoe,
    simulate,
    witness,
)

DECK = Cards("aab")


class Unorderable:
    """Hashable, but refuses < (and equality with anything else)."""

    def __lt__(self, other: object) -> bool:
        raise TypeError("Unorderable cannot be ordered")

    def __hash__(self) -> int:
        return 7


HUGE = st.sampled_from([10**20, 10**30, -(10**30), 2**63, 2**63 - 1, 2**64])
NUMBERS = st.one_of(
    st.integers(-3, 40),
    HUGE,
    st.floats(allow_nan=True, allow_infinity=True),
    st.fractions(max_denominator=7),
    st.booleans(),
    st.complex_numbers(max_magnitude=5),
)
OBJECTS = st.one_of(
    st.none(),
    st.text(max_size=4),
    st.binary(max_size=3),
    st.lists(st.integers(0, 3), max_size=3),
    st.dictionaries(st.text(max_size=2), st.integers(), max_size=2),
    st.just(object()),
    st.just(Unorderable()),
    st.just(random.Random(1)),
    st.just(draw()),
)
JUNK = st.one_of(NUMBERS, OBJECTS)

#: name -> (argument named in the message, "|" between alternatives; call with the junk value)
CASES: dict[str, tuple[str, Callable[[Any], object]]] = {
    "Cards counts": ("counts", lambda x: Cards({"a": x})),
    "Cards cards": ("cards|counts", lambda x: Cards(x)),
    "Cards card": ("card", lambda x: Cards([x, "a"])),
    "Weighted weight": ("weight", lambda x: Weighted({"H": x, "T": 1})),
    "Weighted symbols": ("symbols|weights", lambda x: Weighted(x)),
    "coin heads": ("heads", lambda x: coin(x)),
    "die sides": ("sides", lambda x: die(x)),
    "shoe decks": ("decks", lambda x: shoe(x)),
    "draw_any n": ("n", lambda x: chances(draw_any(x), DECK)),
    "draw_many n": ("n", lambda x: chances(draw_many(x), DECK)),
    "draw_same n": ("n", lambda x: chances(draw_same(x), DECK)),
    "draw_until limit": ("limit", lambda x: chances(draw_until(lambda c: c == "b", x), DECK)),
    "draw_count n": ("n", lambda x: chances(draw_count(lambda c: c == "b", x), DECK)),
    "draw_groups sizes": ("sizes", lambda x: chances(draw_groups(x), DECK)),
    "replicate n": ("n", lambda x: chances(replicate(x, draw()), DECK)),
    "chances spec": ("spec", lambda x: chances(x, DECK)),
    "chances source": ("source", lambda x: chances(draw(), x)),
    "chances max_states": ("max_states", lambda x: chances(draw_many(2), DECK, max_states=x)),
    "chances max_draws": ("max_draws", lambda x: chances(draw_many(2), coin(), max_draws=x)),
    "chances progress": ("progress", lambda x: chances(draw(), DECK, progress=x)),
    "sample rng": ("rng", lambda x: sample(draw(), DECK, x)),
    "sample max_draws": ("max_draws", lambda x: sample(draw_many(2), coin(), 1, max_draws=x)),
    "simulate n": ("n", lambda x: simulate(draw(), DECK, n=x, seed=0)),
    "simulate seed": ("seed", lambda x: simulate(draw(), DECK, n=3, seed=x)),
    "simulate chunk": ("chunk", lambda x: simulate(draw(), DECK, n=3, seed=0, chunk=x)),
    "witness max_states": ("max_states", lambda x: witness(draw_many(2), DECK, max_states=x)),
    "witness wanted": ("wanted", lambda x: witness(draw_many(2), DECK, x)),
    "most_likely n": ("n", lambda x: chances(draw(), DECK).most_likely(x)),
    "probability predicate": ("predicate", lambda x: chances(draw(), DECK).probability(x)),
    "loop state": ("state", lambda x: chances(loop(x, lambda s, c: done(c)), DECK)),
}


@pytest.mark.parametrize("case", sorted(CASES))
@settings(max_examples=60, deadline=None)
@given(value=JUNK)
def test_junk_is_accepted_or_rejected_with_a_message_naming_the_argument(case: str, value: Any) -> None:
    argument, call = CASES[case]
    # 10**20 deals is a valid request that takes forever by design (and stays interruptible).
    assume(not (case == "simulate n" and isinstance(value, int) and value > 10**6))
    try:
        call(value)
    except (DrawdslError, TypeError, ValueError) as err:
        if isinstance(err, ValueError) and not isinstance(err, DrawdslError):
            pytest.fail(f"{case}({value!r}) raised a bare ValueError, not a DrawdslError: {err}")
        text = str(err)
        named = [*argument.split("|"), case.split()[0]]
        assert any(name in text for name in named), (case, value, text)
    except Exception as err:
        pytest.fail(f"{case}({value!r}) raised {type(err).__name__}: {err}")


@pytest.mark.parametrize("case", ["draw_any n", "draw_many n", "replicate n", "draw_until limit"])
@pytest.mark.parametrize("size", [10**20, 2**63, 10**30])
def test_absurd_but_valid_sizes_finish_on_a_small_deck(case: str, size: int) -> None:
    """A spec asking for 10**30 draws from 3 cards simply fails every path, at once."""
    _, call = CASES[case]
    dist = call(size)
    assert isinstance(dist, drawdsl.Distribution)
    assert dist.failure + dist.success == 1


def test_user_code_raising_inside_predicates_propagates_unchanged() -> None:
    class Boom(Exception):
        pass

    def predicate(card: str) -> bool:
        raise Boom(card)

    for run in (
        lambda: chances(draw_until(predicate, 3), DECK),
        lambda: sample(draw_count(predicate, 2), DECK, 1),
        lambda: chances(draw(), DECK).probability(predicate),
        lambda: witness(draw_many(2), DECK, predicate),
    ):
        with pytest.raises(Boom):
            run()


def test_fractions_are_exact_weights_and_floats_are_refused() -> None:
    assert chances(draw(), coin(Fraction(1, 3)))["H"] == Fraction(1, 3)
    with pytest.raises(TypeError, match="heads"):
        coin(0.5)  # type: ignore[arg-type]
