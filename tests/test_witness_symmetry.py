"""Witness search under a proven renaming symmetry: the same answers as the plain
search and as brute force, fewer states, and the symmetry used only where proven."""

from __future__ import annotations

import string
from typing import Any

import pytest
from adversarial import Hider, Named, Ordered, finish_with_card, gen_named, gen_ordered
from hypothesis import given, settings
from hypothesis import strategies as st
from oracle import brute_force, orderings, run
from strategies import ValuePredicate, decks, specs
from test_adversarial_properties import adversarial_specs
from test_symmetry import LongestRun, equality_loops, equality_specs

from drawdsl import Cards, Spec, StateLimitExceeded, chances, coin, done, fail, loop, play, witness
from drawdsl.reductions import prove_symmetry
from drawdsl.witness import _search, _Stats

#: Small decks, some with many distinct cards (where renamings matter most).
wide_decks = st.one_of(
    decks,
    st.lists(st.integers(1, 2), min_size=2, max_size=6).map(
        lambda counts: Cards({string.ascii_lowercase[i]: c for i, c in enumerate(counts)})
    ),
).filter(lambda deck: len(deck) <= 7)


def search(spec: Spec[Any], deck: Any, wanted: Any, symmetric: bool) -> tuple[Any, _Stats]:
    """The witness, proving the symmetry before the search (small decks never reach
    the escalation point), and what the search did."""
    stats = _Stats()
    return _search(spec, deck, wanted, 1_000_000, symmetric, 0, stats), stats


def check_against_brute_force(spec: Spec[Any], deck: Cards[Any], wanted: Any) -> _Stats:
    # Every deal's value as it is (a Distribution keys values by ==, so 0 and False,
    # which the predicate tells apart by repr, would share one key).
    results = [run(spec, deal) for deal in orderings(deck)]
    exists = any(result[0] != "fail" and wanted(result[1]) for result in results)
    with_symmetry, stats = search(spec, deck, wanted, True)
    plain, plain_stats = search(spec, deck, wanted, False)
    assert (with_symmetry is not None) == exists
    # Only dead branches are skipped, so the depth-first search finds the same deal.
    assert with_symmetry == plain
    assert witness(spec, deck, wanted) == plain
    assert witness(spec, deck, wanted, symmetric=False) == plain
    if with_symmetry is not None:
        assert wanted(with_symmetry.value)
        assert play(spec, with_symmetry.deal) == with_symmetry.value
        assert all(deck.count(c) >= with_symmetry.deal.count(c) for c in set(with_symmetry.deal))
    assert not plain_stats.symmetric
    assert stats.entered <= plain_stats.entered
    return stats


@settings(max_examples=150)
@given(specs, wide_decks, st.integers(1, 3))
def test_symmetric_search_agrees_with_plain_and_brute_force(
    spec: Spec[Any], deck: Cards[str], k: int
) -> None:
    check_against_brute_force(spec, deck, ValuePredicate(k))


@settings(max_examples=150)
@given(equality_specs, wide_decks, st.integers(1, 3))
def test_symmetric_search_on_specs_blind_to_renamings(spec: Spec[Any], deck: Cards[str], k: int) -> None:
    check_against_brute_force(spec, deck, ValuePredicate(k))


@given(equality_loops, wide_decks.filter(lambda deck: len(deck.distinct()) > 1))
def test_the_symmetry_is_used_where_proven(spec: Spec[Any], deck: Cards[str]) -> None:
    # Else the properties above would not exercise the symmetric search at all.
    stats = check_against_brute_force(spec, deck, lambda value: False)
    assert stats.symmetric == prove_symmetry(spec, deck.distinct(), len(deck)).proven
    assert stats.symmetric


@settings(max_examples=150)
@given(adversarial_specs, decks.filter(lambda deck: len(deck) <= 7), st.integers(1, 3))
def test_symmetric_search_on_adversarial_specs(spec: Spec[Any], deck: Cards[str], k: int) -> None:
    check_against_brute_force(spec, deck, ValuePredicate(k))


class RunLengths:
    """Draw ``n`` cards; finish with the lengths of the runs of equal neighbours.  The
    state holds only the last card, so states with one head can come from decks that
    differ in the count of that card: the dead-state key must keep it pinned."""

    def __init__(self, n: int) -> None:
        self.n = n

    def __call__(self, state: tuple[int, Any, tuple[int, ...]], card: Any) -> Any:
        drawn, last, runs = state
        runs = runs[:-1] + (runs[-1] + 1,) if card == last else (*runs, 1)
        return done(runs) if drawn + 1 == self.n else (drawn + 1, card, runs)


run_lengths = st.integers(1, 5).map(lambda n: loop((0, None, ()), RunLengths(n)))


@settings(max_examples=100)
@given(st.one_of(run_lengths, equality_loops), wide_decks)
def test_every_value_is_found_exactly_when_reachable(spec: Spec[Any], deck: Cards[str]) -> None:
    # Each value on its own: a wrongly merged dead state hides the only deals reaching it.
    values = set(brute_force(spec, deck))
    for value in values | {(), -1}:
        stats = check_against_brute_force(spec, deck, lambda v, value=value: v == value)  # type: ignore[misc]
        assert stats.symmetric or len(deck.distinct()) < 2


def test_a_pinned_card_keeps_its_count() -> None:
    # a b a leaves no a: dead for runs (1, 1, 2); b c a leaves one a: alive, same spec.
    spec = loop((0, None, ()), RunLengths(4))
    found, stats = search(spec, Cards({"a": 2, "b": 1, "c": 1}), lambda runs: runs == (1, 1, 2), True)
    assert stats.symmetric and found is not None and found.deal == ("b", "c", "a", "a")


ADVERSARIAL = {
    "order": loop(None, Ordered("<")),
    "cards in a str": loop("", Hider("str", 3)),
    "cards in a dataclass": loop(Hider("dataclass", 3).start(), Hider("dataclass", 3)),
    "a named card": loop(None, Named("a")),
    "finishes with a card": loop(None, finish_with_card),
    "generator, named card": gen_named("a"),
    "generator, order": gen_ordered(),
}


@pytest.mark.parametrize("name", sorted(ADVERSARIAL))
@pytest.mark.parametrize("value", [True, False, 3, "a", None])
def test_specs_that_see_renamings_are_searched_without_the_symmetry(name: str, value: Any) -> None:
    spec = ADVERSARIAL[name]
    deck = Cards("aabbcc")
    stats = check_against_brute_force(spec, deck, lambda v: v == value)
    assert not stats.symmetric and stats.proof is not None


def test_the_symmetry_makes_an_impossible_search_smaller() -> None:
    # No run of 5 equal cards among 12 drawn from 5 ranks x 4: every deal is dead.
    spec = loop((0, None, 0, 0), LongestRun(12))
    deck = Cards({rank: 4 for rank in "abcde"})
    wanted = lambda best: best > 4  # noqa: E731
    plain, plain_stats = search(spec, deck, wanted, False)
    # The default search: the proof is tried once PROVE_AT dead states are remembered,
    # within a share of the calls made so far, and again as the search grows.
    stats = _Stats()
    assert _search(spec, deck, wanted, 1_000_000, True, None, stats) is None
    assert plain is None and stats.symmetric and not plain_stats.symmetric
    # Measured: 8,429 states entered instead of 41,631.
    assert stats.entered * 4 < plain_stats.entered
    assert plain_stats.dead > 10_000
    assert witness(spec, deck, wanted, max_states=10_000) is None
    with pytest.raises(StateLimitExceeded):
        witness(spec, deck, wanted, max_states=10_000, symmetric=False)


def test_with_replacement_the_symmetry_is_not_tried() -> None:
    def step(state: str, side: str) -> Any:
        state = (state + side)[-2:]
        return done(state) if state == "HH" else (fail() if len(state) == 2 and state == "TT" else state)

    found, stats = search(loop("", step), coin(), lambda v: v == "HH", True)
    assert found is not None and play(loop("", step), found.deal) == "HH"
    assert stats.proof == "not tried" and not stats.symmetric


def test_symmetric_must_be_a_bool() -> None:
    with pytest.raises(TypeError, match="symmetric must be True or False"):
        witness(loop(None, Ordered("<")), Cards("ab"), symmetric="yes")  # type: ignore[arg-type]


def test_a_war_proof_that_needs_the_symmetry() -> None:
    """No deal of the full deck has a first battle with 13 war rounds: each hand holds
    26 cards, and a war round takes 2.  Tie chains differ by which ranks tie, so the
    plain search meets every choice of ranks and stops at max_states; under the
    symmetry one chain of each shape stands for all.

    The ranks are shifted to 102..114: the program's state holds a count of used cards
    as an int, which on ranks 2..14 the renaming cannot tell from a card (the proof
    then fails, and the search goes on without it).
    """
    from games.war.situations import situation_spec

    situation = "battle 1 has a war of depth >= 13"
    spec = situation_spec(situation)
    deck = Cards({100 + rank: 4 for rank in range(2, 15)})
    stats = _Stats()
    assert _search(spec, deck, lambda v: v is True, 5_000, True, None, stats) is None
    assert stats.symmetric and stats.dead <= 5_000
    with pytest.raises(StateLimitExceeded):
        witness(spec, deck, lambda v: v is True, max_states=5_000, symmetric=False)
    assert chances(spec, deck).get(True, 0) == 0  # the exact evaluator agrees


def test_the_numbers_quoted_in_how_it_works() -> None:
    """docs/how-it-works.md: 10,241 dead states without the symmetry, 896 with it."""

    def longest_run(state: tuple[int, Any, int, int], card: Any) -> Any:
        left, last, run, best = state
        run = run + 1 if card == last else 1
        best = max(best, run)
        return done(best) if left == 1 else (left - 1, card, run, best)

    runs = loop((10, None, 0, 0), longest_run)
    five_ranks = Cards({name: 3 for name in "AKQJT"})
    counted = []
    for symmetric in (False, True):
        stats = _Stats()
        assert _search(runs, five_ranks, lambda best: best > 3, 1_000_000, symmetric, None, stats) is None
        counted.append(stats.dead)
    assert counted == [10_241, 896]
