"""The symmetric evaluation agrees with plain evaluation, and is used only where proven."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import pytest
from adversarial import gen_keeps, gen_named, gen_ordered
from eager import eager_proofs
from hypothesis import given
from hypothesis import strategies as st
from oracle import brute_force

from drawdsl import Cards, Spec, chances, done, draw, draw_any, draw_count, fail, generate, loop
from drawdsl.reductions import prove_symmetry


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


def reduced(spec: Spec[Any], deck: Cards[Any]) -> Any:
    """The answer with every reduction tried at once (see tests/eager.py)."""
    with eager_proofs():
        return chances(spec, deck)


@given(equality_specs, decks)
def test_symmetric_equals_plain(spec: Spec[Any], deck: Cards[str]) -> None:
    assert reduced(spec, deck) == chances(spec, deck, merge=False)
    assert chances(spec, deck) == chances(spec, deck, lump=False, symmetric=False)


@given(equality_specs, decks.filter(lambda d: len(d) <= 7))
def test_symmetric_equals_brute_force(spec: Spec[Any], deck: Cards[str]) -> None:
    assert reduced(spec, deck) == brute_force(spec, deck)


@given(equality_loops, decks)
def test_equality_loops_are_proven_symmetric(spec: Spec[Any], deck: Cards[str]) -> None:
    # The equality-only loops never tell cards apart: the proof must succeed, or the
    # properties above would not test the symmetric evaluator at all.
    assert prove_symmetry(spec, deck.distinct(), len(deck)).proven


def test_tie_free_war_merges_states() -> None:
    """On 4 ranks x 4 suits, symmetry must give the same answer as the plain evaluation."""
    deck = Cards({rank: 4 for rank in range(4)})
    spec = loop((Box(0), None), TieFreeBoxed(8))
    assert prove_symmetry(spec, deck.distinct(), len(deck)).proven
    assert reduced(spec, deck) == chances(spec, deck, lump=False, symmetric=False)


class Box:
    """A turn number the renaming cannot mistake for a card (the ranks here are ints)."""

    def __init__(self, n: int) -> None:
        self.n = n

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Box) and other.n == self.n

    def __hash__(self) -> int:
        return self.n


class TieFreeBoxed(TieFreeTurns):
    def __call__(self, state: tuple[Any, Any], card: Any) -> Any:
        turn, first = state
        result = super().__call__((turn.n, first), card)
        if isinstance(result, tuple):
            return (Box(result[0]), result[1])
        return result


# --------------------------------------------------------------------------- adversarial specs
# Each of these made the old unchecked symmetric mode answer wrongly.  Now the proof
# refuses the symmetry, and the answer is the brute-force one.


class HigherFirst:
    """Compares cards with ``>``."""

    def __call__(self, state: Any, card: Any) -> Any:
        if state is None:
            return card
        return done(card > state)


class DistinctIn:
    """Three distinct cards, remembered inside a container the renaming cannot see into."""

    def __init__(self, empty: Any, add: Any) -> None:
        self.empty = empty
        self.add = add

    def __call__(self, seen: Any, card: Any) -> Any:
        if card in seen:
            return fail()
        seen = self.add(seen, card)
        return done(True) if len(seen) == 3 else seen


@dataclass(frozen=True)
class Seen:
    cards: tuple[Any, ...]

    def __contains__(self, card: Any) -> bool:
        return card in self.cards

    def __len__(self) -> int:
        return len(self.cards)


def finish_with_pair(first: Any, card: Any) -> Any:
    if first is None:
        return card
    return done(card) if card == first else fail()


def named(first: Any, card: Any) -> Any:
    if first is None:
        return card
    return done(first == "a" and card != first)


ADVERSARIAL = {
    "order": loop(None, HigherFirst()),
    "cards-in-a-str": loop("", DistinctIn("", lambda s, c: s + c)),
    "cards-in-Cards": loop(Cards(), DistinctIn(Cards(), lambda s, c: s + Cards([c]))),
    "cards-in-a-dataclass": loop(Seen(()), DistinctIn(Seen(()), lambda s, c: Seen((*s.cards, c)))),
    "finishes-with-a-card": loop(None, finish_with_pair),
    "named-card": loop(None, named),
}


@pytest.mark.parametrize("name", list(ADVERSARIAL))
@pytest.mark.parametrize("deck", [Cards("aabbcc"), Cards({"a": 1, "b": 2, "c": 3})], ids=["pairs", "123"])
def test_adversarial_specs_are_refused_and_answered_exactly(name: str, deck: Cards[str]) -> None:
    spec = ADVERSARIAL[name]
    assert not prove_symmetry(spec, deck.distinct(), len(deck)).proven
    assert reduced(spec, deck) == chances(spec, deck, merge=False) == brute_force(spec, deck)


def test_the_reported_wrong_numbers_are_right() -> None:
    three = ADVERSARIAL["cards-in-Cards"]
    assert reduced(three, Cards("aabbcc")).success == Fraction(2, 5)
    ranks = Cards({r: 4 for r in range(2, 15)})
    pair = reduced(ADVERSARIAL["finishes-with-a-card"], ranks)
    assert pair[2] == Fraction(1, 221) and pair.success == Fraction(1, 17)
    assert reduced(ADVERSARIAL["order"], Cards({1: 1, 2: 1, 3: 2})) == brute_force(
        ADVERSARIAL["order"], Cards({1: 1, 2: 1, 3: 2})
    )


# --------------------------------------------------------------------------- generators
# A suspended generator is renamed by replaying the renamed history (what was sent
# into it); whatever it derives from the cards follows.  The proof's checks decide.


@generate
def distinct_run(n: int) -> Any:
    """Up to n cards, failing at the first repeat; finish with how many (a list in the frame)."""
    seen: list[Any] = []
    for _ in range(n):
        card = yield draw()
        if card in seen:
            return len(seen)
        seen.append(card)
    return n


@pytest.mark.parametrize("deck", [Cards("aabbcc"), Cards({"a": 1, "b": 2, "c": 3}), Cards("abcd")],
                         ids=["pairs", "123", "distinct"])
def test_a_generator_that_only_compares_cards_is_proven_symmetric(deck: Cards[str]) -> None:
    spec = distinct_run(3)
    assert prove_symmetry(spec, deck.distinct(), len(deck)).proven
    assert reduced(spec, deck) == chances(spec, deck, merge=False) == brute_force(spec, deck)


@pytest.mark.parametrize("spec", [gen_ordered(), gen_named("a"), gen_keeps()],
                         ids=["order", "named-card", "finishes-with-a-card"])
@pytest.mark.parametrize("deck", [Cards("aabbcc"), Cards({"a": 1, "b": 2, "c": 3})], ids=["pairs", "123"])
def test_adversarial_generators_are_refused_and_answered_exactly(spec: Spec[Any], deck: Cards[str]) -> None:
    assert not prove_symmetry(spec, deck.distinct(), len(deck)).proven
    assert reduced(spec, deck) == chances(spec, deck, merge=False) == brute_force(spec, deck)


def test_a_proof_is_retried_only_when_the_next_depths_fit_the_budget() -> None:
    from drawdsl.reductions import StateGraph

    graph = StateGraph(draw_count(lambda c: c == "a", 2), "abcdefghijklm", 13)
    # Rows grow thirteenfold per depth: the next two depths alone need far more calls.
    graph.per_depth, graph.calls = {0: 1, 1: 13, 2: 169, 3: 1500}, 20_000
    assert not graph.worth_more(200_000)
    # Widths alternating 1, 27, 1, 27 (War's pending card) grow by nothing over two depths.
    graph.per_depth = {d: (27 if d % 2 else 1) for d in range(40)}
    graph.calls = sum(graph.per_depth.values()) * 13
    assert graph.worth_more(200_000)
