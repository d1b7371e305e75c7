"""Symmetric evaluation over shapes (counts of counts) agrees with per-card counts and brute force.

drawdsl/shapes.py keeps a deck, once a spec is proven blind to renamings, as the counts
of the cards the spec holds and how many other cards have 1, 2, ... copies left.  It
must give exactly the answer of the per-card symmetric evaluation (drawdsl/exact.py's
``_evaluate_deck`` in symmetric mode) and of brute force over every ordering, on
specs that pin cards from the start, pin and let go of cards, hold exhausted cards,
discard unseen cards, read the rest of the deck, and on decks of unequal counts.  A
spec that comes to hold a card it neither held nor drew has no shape: the evaluator
falls back to per-card counts, with the same answer.
"""

from __future__ import annotations

from typing import Any

import pytest
from eager import eager_proofs
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from oracle import brute_force
from test_symmetry import LongestRun, equality_specs

from drawdsl import Cards, Spec, StateLimitExceeded, chances, done, draw_any, draw_many, explain, fail, loop
from drawdsl.exact import _evaluate_deck
from drawdsl.reductions import prove_symmetry
from drawdsl.shapes import Unshaped, evaluate_shapes


class Until:
    """Draw until the card held in the state comes (a card pinned from the start)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit

    def __call__(self, state: tuple[Any, int], card: Any) -> Any:
        target, drawn = state
        if card == target:
            return done(drawn + 1)
        return fail() if drawn + 1 == self.limit else (target, drawn + 1)


class Swap:
    """Keep the last card, but only every other draw (pins it, then lets it go)."""

    def __call__(self, state: tuple[int, Any], card: Any) -> Any:
        left, kept = state
        if left == 1:
            return done(card == kept)
        return (left - 1, card if kept is None else None)


class Others:
    """Holds every card but the first drawn: cards it neither held nor drew (no shape)."""

    def __init__(self, cards: frozenset[Any]) -> None:
        self.cards = cards

    def __call__(self, state: Any, card: Any) -> Any:
        if state is None:
            return self.cards - {card}
        return done(card in state)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Others) and other.cards == self.cards

    def __hash__(self) -> int:
        return hash(self.cards)


uneven_decks = st.lists(st.integers(1, 3), min_size=2, max_size=4).map(
    lambda counts: Cards({chr(ord("a") + i): c for i, c in enumerate(counts)})
)
shaped_specs = st.one_of(
    equality_specs,
    st.integers(1, 4).map(lambda k: loop(("a", 0), Until(k))),
    st.integers(1, 5).map(lambda n: loop((n, None), Swap())),
    st.builds(lambda k, s: s.bind(lambda v: draw_any(k).then(done(v))), st.integers(0, 3), equality_specs),
    st.builds(lambda s: s.bind(lambda v: draw_many(9).map(lambda _: v)), equality_specs),
)


def by_cards(spec: Spec[Any], deck: Cards[Any]) -> Any:
    return _evaluate_deck(spec, deck, 10**6, len(deck), True, None)


@settings(max_examples=200, deadline=None)
@given(shaped_specs, uneven_decks)
def test_shapes_agree_with_per_card_counts_and_brute_force(spec: Spec[Any], deck: Cards[str]) -> None:
    assume(prove_symmetry(spec, deck.distinct(), len(deck)).proven)
    try:
        shaped = evaluate_shapes(spec, deck, 10**6, len(deck))
    except Unshaped:
        shaped = None
    assert shaped is None or shaped == by_cards(spec, deck)
    assert by_cards(spec, deck) == brute_force(spec, deck)


@pytest.mark.parametrize("spec", [loop(("a", 0), Until(4)), loop((5, None), Swap())], ids=["pinned", "swap"])
def test_pinned_and_released_cards(spec: Spec[Any]) -> None:
    deck = Cards({"a": 2, "b": 1, "c": 3, "d": 2})
    assert prove_symmetry(spec, deck.distinct(), len(deck)).proven
    assert evaluate_shapes(spec, deck, 1000, len(deck)) == by_cards(spec, deck) == brute_force(spec, deck)


def test_a_spec_holding_cards_it_never_drew_falls_back_to_per_card_counts() -> None:
    deck = Cards({"a": 2, "b": 2, "c": 1})
    spec = loop(None, Others(frozenset(deck.distinct())))
    assert prove_symmetry(spec, deck.distinct(), len(deck)).proven
    with pytest.raises(Unshaped):
        evaluate_shapes(spec, deck, 1000, len(deck))
    with eager_proofs():
        assert chances(spec, deck) == brute_force(spec, deck)
    assert explain(spec, deck).symmetric


def test_shapes_keep_the_limit_and_say_why() -> None:
    deck = Cards({chr(ord("a") + i): 4 for i in range(13)})
    spec = loop((0, None, 0, 0), LongestRun(20))
    with pytest.raises(StateLimitExceeded, match="max_states=3"):
        evaluate_shapes(spec, deck, 3, len(deck))


many_copies = st.lists(st.integers(1, 12), min_size=2, max_size=4).filter(lambda counts: max(counts) > 8).map(
    lambda counts: Cards({chr(ord("a") + i): c for i, c in enumerate(counts)})
)


runs = st.integers(1, 7).map(lambda n: loop((0, None, 0, 0), LongestRun(n)))


@settings(max_examples=60, deadline=None)
@given(st.one_of(equality_specs, runs), many_copies)
def test_shapes_with_many_copies_agree_with_per_card_counts(spec: Spec[Any], deck: Cards[str]) -> None:
    # More than 8 copies of a card: the inner loop reads a state's nonzero free classes
    # once per free digits and draw (the sparse path), not digit by digit.
    assume(prove_symmetry(spec, deck.distinct(), len(deck)).proven)
    try:
        shaped = evaluate_shapes(spec, deck, 10**6, len(deck))
    except Unshaped:
        return
    assert shaped == by_cards(spec, deck)
