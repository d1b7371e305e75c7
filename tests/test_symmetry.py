"""Symmetric evaluation (opt-in) agrees with plain evaluation on equality-only specs."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st
from oracle import brute_force

from drawdsl import Cards, Spec, chances, done, draw_any, fail, loop


class RepeatWithin:
    """Draw until a card repeats (finish with how many cards it took), failing after ``limit``."""

    def __init__(self, limit: int) -> None:
        self.limit = limit

    def __call__(self, seen: frozenset[Any], card: Any) -> Any:
        if card in seen:
            return done(len(seen) + 1)
        if len(seen) + 1 >= self.limit:
            return fail()
        return seen | {card}


class TieFreeTurns:
    """War without ties: ``turns`` pairs of cards, each pair unequal."""

    def __init__(self, turns: int) -> None:
        self.turns = turns

    def __call__(self, state: tuple[int, Any], card: Any) -> Any:
        turn, first = state
        if first is None:
            return (turn, card)
        if card == first:
            return fail()
        return done(True) if turn + 1 == self.turns else (turn + 1, None)


class LongestRun:
    """Draw ``n`` cards; finish with the longest run of equal neighbours."""

    def __init__(self, n: int) -> None:
        self.n = n

    def __call__(self, state: tuple[int, Any, int, int], card: Any) -> Any:
        drawn, last, run, best = state
        run = run + 1 if card == last else 1
        best = max(best, run)
        return done(best) if drawn + 1 == self.n else (drawn + 1, card, run, best)


class DistinctThen:
    """Count distinct cards among ``n``, then continue with another loop (a spec after a loop)."""

    def __init__(self, n: int, after: Spec[Any]) -> None:
        self.n = n
        self.after = after

    def __call__(self, state: tuple[int, frozenset[Any]], card: Any) -> Any:
        drawn, seen = state
        seen = seen | {card}
        if drawn + 1 == self.n:
            return self.after.map(lambda v: (len(seen), v))
        return (drawn + 1, seen)


equality_loops: st.SearchStrategy[Spec[Any]] = st.one_of(
    st.integers(1, 5).map(lambda k: loop(frozenset(), RepeatWithin(k))),
    st.integers(1, 3).map(lambda t: loop((0, None), TieFreeTurns(t))),
    st.integers(1, 5).map(lambda n: loop((0, None, 0, 0), LongestRun(n))),
)
equality_specs = st.one_of(
    equality_loops,
    st.builds(lambda k, s: draw_any(k).then(s), st.integers(0, 2), equality_loops),
    st.builds(lambda n, s: loop((0, frozenset()), DistinctThen(n, s)), st.integers(1, 3), equality_loops),
    st.builds(lambda a, b: a | b, equality_loops, equality_loops),
)
decks = st.lists(st.integers(1, 3), min_size=1, max_size=5).map(
    lambda counts: Cards({chr(ord("a") + i): c for i, c in enumerate(counts)})
)


@given(equality_specs, decks)
def test_symmetric_equals_plain(spec: Spec[Any], deck: Cards[str]) -> None:
    assert chances(spec, deck, symmetric=True) == chances(spec, deck)


@given(equality_specs, decks.filter(lambda d: len(d) <= 7))
def test_symmetric_equals_brute_force(spec: Spec[Any], deck: Cards[str]) -> None:
    assert chances(spec, deck, symmetric=True) == brute_force(spec, deck)


def test_tie_free_war_merges_states() -> None:
    """On 4 ranks x 4 suits, symmetry must give the same answer as the plain evaluation."""
    deck = Cards({rank: 4 for rank in range(4)})
    spec = loop((0, None), TieFreeTurns(8))
    assert chances(spec, deck, symmetric=True) == chances(spec, deck)


class HigherFirst:
    """Not equality-only: compares cards with ``>``, so symmetry is NOT valid for it."""

    def __call__(self, state: Any, card: int) -> Any:
        if state is None:
            return card
        return done(card > state)


def test_symmetry_is_invalid_for_order_comparisons() -> None:
    """The documented counterexample: with '<' the symmetric answer is wrong."""
    deck = Cards({1: 1, 2: 1, 3: 2})
    spec = loop(None, HigherFirst())
    assert chances(spec, deck, symmetric=True) != chances(spec, deck)
