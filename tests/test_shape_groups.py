"""Pinned cards a loop state holds interchangeably are drawn as one (drawdsl/shapes.py).

When a loop's state holds some cards exactly once each, all as members of one
frozenset (the ranks seen so far), any permutation of them leaves the state as it
is, so a spec blind to renamings does the same with each of them, renamed.  When
that draw ends the path (a value without cards, a failure, reading the rest), the
shapes evaluator makes one transition for the group, weighted by its copies left.
These tests check the groups themselves (:meth:`CardIndex.held`: every permutation
of a group leaves the state unchanged) and the answers (brute force, per-card
counts, no merging) on loops whose pinned draws finish, fail, read the rest, go on
(the group is then drawn card by card), or finish with a card.
"""

from __future__ import annotations

import contextlib
import itertools
from typing import Any

import pytest
from eager import routes
from hypothesis import given, settings
from hypothesis import strategies as st
from oracle import brute_force

import drawdsl.reductions as reductions
from drawdsl import Cards, Spec, chances, done, draw, draw_many, fail, generate, loop
from drawdsl.exact import _evaluate_deck
from drawdsl.frames import frame_key, frame_parts
from drawdsl.keys import outcome_key
from drawdsl.reductions import CardIndex, prove_symmetry
from drawdsl.renaming_blind import blind_generator, blind_loop
from drawdsl.shapes import Unshaped, evaluate_shapes

CARDS = ("a", "b", "c", "d", 1, 2)

# --------------------------------------------------------------------------- the groups

leaves = st.sampled_from([*CARDS, "x", 7, True, 1.0, None])
states = st.recursive(
    leaves,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4).map(tuple),
        st.frozensets(st.sampled_from([*CARDS, "x", 7]), max_size=5),
        st.frozensets(inner, max_size=4),
    ),
    max_leaves=12,
)


@settings(max_examples=300, deadline=None)
@given(states)
def test_every_permutation_of_a_group_leaves_the_state_as_it_is(state: Any) -> None:
    index = CardIndex(CARDS)
    found, groups = index.held(state)
    assert found == index.support(state)
    for group in groups:
        assert len(group) >= 2 and set(group) <= found
        for order in itertools.permutations(group):
            perm = list(range(len(CARDS)))
            for i, j in zip(group, order, strict=True):
                perm[i] = j
            renamed = index.rename(state, perm)
            # Equal as values, and so as outcomes (a set's table may list them in another order).
            assert outcome_key(renamed) == outcome_key(state), (state, group, order)


def test_groups_are_cards_held_once_as_members_of_one_set() -> None:
    index = CardIndex(CARDS)
    a, b, c, d = range(4)
    assert index.held(frozenset({"a", "b", "c"}))[1] == [[a, b, c]]
    assert index.held((frozenset({"a", "b"}), frozenset({"c", "d"})))[1] == [[a, b], [c, d]]
    assert index.held((frozenset({"a", "b", "c"}), "a"))[1] == [[b, c]]  # "a" is held twice
    assert index.held(frozenset({"a", ("b",), "c"}))[1] == [[a, c]]  # "b" is inside a tuple
    assert index.held((frozenset({"a"}), frozenset({"b"})))[1] == []  # one card per set
    assert index.held(("a", "b", "c"))[1] == []  # a tuple's order is seen
    assert index.held(frozenset({frozenset({"a", "b"}), frozenset({"c", "d"})}))[1] == [[a, b], [c, d]]


def test_cards_that_are_tuples_are_never_grouped() -> None:
    index = CardIndex((("a",), ("b",), "c"))
    assert index.held(frozenset({("a",), ("b",)})) == ({0, 1}, [])


# --------------------------------------------------------------------------- the answers


class SeenCount:
    """Draw up to ``limit`` cards keeping the ranks seen in a frozenset (and, when
    ``last``, the last card too, which then is held twice); a repeat finishes with the
    number of cards drawn.  The classes below differ in what a repeat does: the first
    four are proven blind to renamings by their bytecode (chances() then groups), the
    last two are not (a spec returned, a card finished with)."""

    def __init__(self, limit: int, last: bool) -> None:
        self.limit, self.last = limit, last

    def __call__(self, state: tuple[int, frozenset[Any], Any], card: Any) -> Any:
        drawn, seen, _ = state
        if card in seen:
            return done(drawn + 1)
        seen = seen | {card}
        if drawn + 1 == self.limit:
            return done(len(seen))
        return (drawn + 1, seen, card if self.last else None)

    name = "SeenCount"  # (a repr naming type(self) would make the object unsafe to the proof)

    def __repr__(self) -> str:
        return f"{self.name}({self.limit}, {self.last})"


class SeenFail(SeenCount):
    """A repeat fails."""

    name = "SeenFail"

    def __call__(self, state: tuple[int, frozenset[Any], Any], card: Any) -> Any:
        drawn, seen, _ = state
        if card in seen:
            return fail()
        seen = seen | {card}
        if drawn + 1 == self.limit:
            return done(len(seen))
        return (drawn + 1, seen, card if self.last else None)


class SeenOn(SeenCount):
    """A repeat goes on (the group is then drawn card by card)."""

    name = "SeenOn"

    def __call__(self, state: tuple[int, frozenset[Any], Any], card: Any) -> Any:
        drawn, seen, _ = state
        seen = seen | {card}
        if drawn + 1 == self.limit:
            return done(len(seen))
        return (drawn + 1, seen, card if self.last else None)


class SeenDrop(SeenCount):
    """A repeat goes on without the card."""

    name = "SeenDrop"

    def __call__(self, state: tuple[int, frozenset[Any], Any], card: Any) -> Any:
        drawn, seen, _ = state
        seen = seen - {card} if card in seen else seen | {card}
        if drawn + 1 == self.limit:
            return done(len(seen))
        return (drawn + 1, seen, card if self.last else None)


class SeenRest(SeenCount):
    """A repeat reads the rest of the deck (and fails when fewer than 99 cards are left)."""

    name = "SeenRest"

    def __call__(self, state: tuple[int, frozenset[Any], Any], card: Any) -> Any:
        drawn, seen, _ = state
        if card in seen:
            return draw_many(99).then(done(0))
        seen = seen | {card}
        if drawn + 1 == self.limit:
            return done(len(seen))
        return (drawn + 1, seen, card if self.last else None)


class SeenCard(SeenCount):
    """A repeat finishes with the card."""

    name = "SeenCard"

    def __call__(self, state: tuple[int, frozenset[Any], Any], card: Any) -> Any:
        drawn, seen, _ = state
        if card in seen:
            return done(card)
        seen = seen | {card}
        if drawn + 1 == self.limit:
            return done(len(seen))
        return (drawn + 1, seen, card if self.last else None)


PROVEN = (SeenCount, SeenFail, SeenOn, SeenDrop)
seen_loops = st.builds(
    lambda limit, kind, last: loop((0, frozenset(), None), kind(limit, last)),
    st.integers(1, 6), st.sampled_from([*PROVEN, SeenRest, SeenCard]), st.booleans(),
)
decks = st.lists(st.integers(1, 3), min_size=2, max_size=4).filter(lambda counts: sum(counts) <= 8).map(
    lambda counts: Cards({chr(ord("a") + i): c for i, c in enumerate(counts)})
)  # (at most 8 cards: brute force plays every order)


@pytest.mark.parametrize("kind", [*PROVEN, SeenRest, SeenCard])
def test_which_steps_are_proven(kind: type[SeenCount]) -> None:
    """The generated loops reach the grouped draws through chances() (the first four)."""
    assert (blind_loop(kind(3, True), (0, frozenset(), None)) is not None) == (kind in PROVEN)


@settings(max_examples=200, deadline=None)
@given(seen_loops, decks)
def test_grouped_draws_agree_with_per_card_counts_and_brute_force(spec: Spec[Any], deck: Cards[str]) -> None:
    truth = brute_force(spec, deck)
    assert chances(spec, deck, merge=False) == truth
    if prove_symmetry(spec, deck.distinct(), len(deck)).proven:
        for grouped in (False, True):
            with contextlib.suppress(Unshaped):
                assert evaluate_shapes(spec, deck, 10**6, len(deck), grouped=grouped) == truth
        assert _evaluate_deck(spec, deck, 10**6, len(deck), True, None) == truth
    # Every route to the symmetry: the bytecode proof up front, traced runs at once.
    with routes(LOOP_PROOF_AT=2):
        assert chances(spec, deck) == truth
    with routes(LOOP_PROOF_AT=99, TRACE_AT=1):
        assert chances(spec, deck) == truth


class Counted:
    """A step that counts its calls."""

    def __init__(self, step: Any) -> None:
        self.step, self.calls = step, 0

    def __call__(self, state: Any, card: Any) -> Any:
        self.calls += 1
        return self.step(state, card)


def _until_repeat(seen: frozenset[Any], card: Any) -> Any:
    return done(len(seen) + 1) if card in seen else seen | {card}


def test_until_a_rank_repeats_draws_the_ranks_seen_as_one() -> None:
    """Each state holds its ranks as one group: two step calls a draw, not one per rank."""
    deck = Cards({f"r{i}": 4 for i in range(20)})
    step = Counted(_until_repeat)
    dist = evaluate_shapes(loop(frozenset(), step), deck, 10**6, len(deck), grouped=True)
    assert step.calls <= 2 * 21
    alone = Counted(_until_repeat)
    assert dist == evaluate_shapes(loop(frozenset(), alone), deck, 10**6, len(deck))
    assert alone.calls > 20 * 19 / 2
    assert dist == _evaluate_deck(loop(frozenset(), _until_repeat), deck, 10**6, len(deck), True, None)


def test_chances_draws_the_ranks_seen_as_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """chances() groups them: the step's bytecode is proven blind to renamings."""
    deck = Cards({f"r{i}": 4 for i in range(20)})
    spec = loop(frozenset(), _until_repeat)
    calls = []
    normal = reductions.normal

    def counted(*args: Any) -> Any:
        calls.append(args)
        return normal(*args)

    monkeypatch.setattr("drawdsl.shapes.normal", counted)
    assert chances(spec, deck) == _evaluate_deck(spec, deck, 10**6, len(deck), True, None)
    assert 20 < len(calls) <= 2 * 21 + 1
    small = Cards({f"r{i}": 2 for i in range(4)})
    assert chances(spec, small) == brute_force(spec, small)


def test_names_of_probed_classes_are_grouped_as_their_cards() -> None:
    """On the standard deck read by rank, the classes hand their ranks as names: a set of
    names is a group of those classes, and a name also held in a probe card is not."""
    from drawdsl import standard_deck
    from drawdsl.probes import ProbePlan

    plan = ProbePlan.of(standard_deck())
    assert plan is not None
    tokens = plan.deck(frozenset({"rank"}), names=True)[0].distinct()
    index = CardIndex(tokens)
    names = [token.name for token in tokens]
    held, groups = index.held((frozenset(names[:4]), 7))
    assert held == {0, 1, 2, 3} and groups == [[0, 1, 2, 3]]
    for order in itertools.permutations(range(4)):
        perm = [*order, *range(4, len(tokens))]
        assert outcome_key(index.rename(frozenset(names[:4]), perm)) == outcome_key(frozenset(names[:4]))
    probe = tokens[0].show()  # a probe card holding the first class's name
    assert index.held((frozenset(names[:3]), probe)) == ({0, 1, 2}, [[1, 2]])


# --------------------------------------------------------------------------- generators
#
# A @generate spec's state is its frame (drawdsl.frames.frame_key): a set it never
# iterates is keyed by its items, so the cards it keeps there are grouped the same way
# (CardIndex.frame_groups).  The generators take what a repeat does as an argument.


def _seen_count(limit: int, last: bool) -> Any:
    """Keep the cards seen in a set, and one of them in a local too (the last card when
    ``last``, else the first); a repeat finishes with the number of cards drawn and
    whether the card is that one.  The variants below differ in what a repeat does:
    this one, going on and dropping the card are proven blind to renamings by their
    bytecode (chances() then groups); failing, reading the rest (a spec other than
    draw() yielded) and finishing with the card are not."""
    card = yield draw()
    seen = set()
    seen.add(card)
    kept = card
    for drawn in range(1, limit):
        card = yield draw()
        if card in seen:
            return (drawn + 1, card == kept)
        seen.add(card)
        if last:
            kept = card
    return len(seen)


def _seen_fail(limit: int, last: bool) -> Any:
    seen = set()
    _last = None  # (held in the frame, never read)
    for _ in range(limit):
        card = yield draw()
        if card in seen:
            yield fail()
        seen.add(card)
        if last:
            _last = card
    return len(seen)


def _seen_on(limit: int, last: bool) -> Any:
    seen = set()
    _last = None  # (held in the frame, never read)
    for _ in range(limit):
        card = yield draw()
        seen.add(card)
        if last:
            _last = card
    return len(seen)


def _seen_drop(limit: int, last: bool) -> Any:
    seen = set()
    _last = None  # (held in the frame, never read)
    for _ in range(limit):
        card = yield draw()
        if card in seen:
            seen.discard(card)
        else:
            seen.add(card)
        if last:
            _last = card
    return len(seen)


def _seen_rest(limit: int, last: bool) -> Any:
    seen = set()
    _last = None  # (held in the frame, never read)
    for _ in range(limit):
        card = yield draw()
        if card in seen:
            yield draw_many(99)
        seen.add(card)
        if last:
            _last = card
    return len(seen)


def _seen_card(limit: int, last: bool) -> Any:
    seen = set()
    _last = None  # (held in the frame, never read)
    for _ in range(limit):
        card = yield draw()
        if card in seen:
            return card
        seen.add(card)
        if last:
            _last = card
    return len(seen)


PROVEN_GENS = (_seen_count, _seen_on, _seen_drop)
GENS = (*PROVEN_GENS, _seen_fail, _seen_rest, _seen_card)
seen_gens = st.builds(
    lambda limit, kind, last: generate(kind)(limit, last),
    st.integers(1, 6), st.sampled_from(GENS), st.booleans(),
)


def _frame_after(history: tuple[Any, ...], kind: Any, last: bool) -> Any:
    """The frame key of ``kind(9, last)`` resumed after ``history`` (None: it finished)."""
    gen = kind(9, last)
    try:
        gen.send(None)
        for card in history:
            gen.send(card)
    except StopIteration:
        return None
    return frame_key(gen, (9, last))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from("abcd"), max_size=6), st.sampled_from(PROVEN_GENS), st.booleans())
def test_every_permutation_of_a_frame_group_leaves_the_frame_key_as_it_is(
    history: list[str], kind: Any, last: bool,
) -> None:
    """Replaying the history renamed by any permutation of a group gives the same frame key."""
    key = _frame_after(tuple(history), kind, last)
    if key is None:
        return
    index = CardIndex(tuple("abcd"))
    for group in index.frame_groups(key):
        assert len(group) >= 2 and {index.cards[i] for i in group} <= set(history)
        for order in itertools.permutations(group):
            rename = {index.cards[i]: index.cards[j] for i, j in zip(group, order, strict=True)}
            assert _frame_after(tuple(rename.get(c, c) for c in history), kind, last) == key


def test_frame_groups_are_cards_kept_once_in_one_unread_set() -> None:
    index = CardIndex(tuple("abcd"))
    a, b, c = range(3)
    assert index.frame_groups(_frame_after(tuple("abc"), _seen_on, False)) == [[a, b, c]]
    assert index.frame_groups(_frame_after(tuple("abc"), _seen_on, True)) == [[a, b]]  # "c" is the last
    assert index.frame_groups(_frame_after(tuple("ab"), _seen_on, False)) == [[a, b]]
    assert index.frame_groups(_frame_after(tuple("abc"), _seen_count, False)) == [[b, c]]  # "a" is kept
    assert index.frame_groups(_frame_after(tuple("abc"), _seen_count, True)) == [[a, b]]  # "c" is kept
    assert index.frame_groups(_frame_after(tuple("a"), _seen_on, False)) == []  # one card
    assert index.frame_groups(_frame_after(tuple("abc"), _seen_card, False)) == []  # unproven: set by id
    assert index.frame_groups(None) == []
    assert CardIndex(("a", ("b",))).frame_groups(_frame_after(tuple("ab"), _seen_on, False)) == []
    # Int cards: the range the loop walks holds ints it does not list, which may be cards.
    assert CardIndex((5, 6, 7)).frame_groups(_frame_after((5, 6), _seen_on, False)) == []
    assert CardIndex(("5", "6", "7")).frame_groups(_frame_after(("5", "6"), _seen_on, False)) == [[0, 1]]
    # A part of the key it cannot read through (a value kept by identity): nothing is grouped.
    key = _frame_after(tuple("abc"), _seen_on, False)
    opaque = (*key[:3], (*key[3], _frame_after((), _seen_card, False)[3][2]))
    assert frame_parts(opaque) is None and index.frame_groups(opaque) == []


@pytest.mark.parametrize("kind", GENS)
def test_which_generators_are_proven(kind: Any) -> None:
    """The generated generators reach the grouped draws through chances() (the first three)."""
    assert (blind_generator(kind, (3, True), ()) is not None) == (kind in PROVEN_GENS)


@settings(max_examples=200, deadline=None)
@given(seen_gens, decks)
def test_grouped_generator_draws_agree_with_brute_force(spec: Spec[Any], deck: Cards[str]) -> None:
    truth = brute_force(spec, deck)
    assert chances(spec, deck, merge=False) == truth
    assert chances(spec, deck) == truth
    if prove_symmetry(spec, deck.distinct(), len(deck)).proven:
        for grouped in (False, True):
            with contextlib.suppress(Unshaped):
                assert evaluate_shapes(spec, deck, 10**6, len(deck), grouped=grouped) == truth


@generate
def _until_repeat_gen() -> Any:
    seen: set[Any] = set()
    while True:
        card = yield draw()
        if card in seen:
            return len(seen) + 1
        seen.add(card)


def test_a_generator_until_a_rank_repeats_groups_them(monkeypatch: pytest.MonkeyPatch) -> None:
    """chances() groups the set of a proven generator: two transitions a draw."""
    deck = Cards({f"r{i}": 4 for i in range(20)})
    spec = _until_repeat_gen()
    calls = []
    normal = reductions.normal

    def counted(*args: Any) -> Any:
        calls.append(args)
        return normal(*args)

    monkeypatch.setattr("drawdsl.shapes.normal", counted)
    assert chances(spec, deck) == _evaluate_deck(spec, deck, 10**6, len(deck), True, None)
    assert 20 < len(calls) <= 2 * 21 + 1
    calls.clear()
    evaluate_shapes(spec, deck, 10**6, len(deck))
    assert len(calls) > 20 * 19 / 2
    # Mapped and filtered after the generator: still grouped (those see its value only).
    mapped = spec.map(_double).where(_even)
    calls.clear()
    assert chances(mapped, deck) == _evaluate_deck(mapped, deck, 10**6, len(deck), True, None)
    assert 20 < len(calls) <= 2 * 21 + 1


def _double(n: int) -> int:
    return 2 * n


def _even(n: int) -> bool:
    return n % 4 == 0
