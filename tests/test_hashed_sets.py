"""Traced runs of loop steps that keep cards in sets (drawdsl.order_blind.hash_blind_step).

A traced run stands for every renaming of the cards only if the atoms are used through
identity alone.  Hashing an atom is allowed in the one frame of a loop step whose
bytecode shows it never reads a set's order and hashes (looks up, puts in a set,
compares as sets) only cards and the state's values, and whose state holds only cards
and values equal to no card.  Then the renaming symmetry holds for "draw until a rank
repeats" written with a set of the ranks seen (it was refused: 52 ranks reached the
state limit).  Each adversarial step below hashes a value that may equal a card without
being compared with it, or reads a set's order: it must be refused by the proof or
the run, and the answer must be the one of the brute-force oracle and of the
evaluation without the symmetry.
"""

from __future__ import annotations

import cProfile
import functools
import pstats
import struct
import sys
from fractions import Fraction
from typing import Any, NamedTuple

import pytest
from eager import eager_proofs
from hypothesis import given, settings
from hypothesis import strategies as st
from oracle import brute_force
from test_atoms import traced, traced_first

import drawdsl.atoms as atoms
from drawdsl import Cards, chances, done, draw, explain, generate, loop
from drawdsl.atoms import AtomWatch
from drawdsl.atoms import watching as _run_watched
from drawdsl.frames import _Same
from drawdsl.keys import _Itself, set_layout, strict_key
from drawdsl.order_blind import MODELLED, hash_blind_step

#: The bytecode proofs model Python 3.11: elsewhere they show nothing (slower, never wrong).
MODELLED_ONLY = pytest.mark.skipif(not MODELLED, reason="the bytecode proofs model Python 3.11")

INT_DECKS = st.lists(st.sampled_from([0, 1, 2, 3]), min_size=2, max_size=5).map(Cards)
STR_DECKS = st.lists(st.sampled_from("abc"), min_size=2, max_size=5).map(Cards)

# --------------------------------------------------------------------------- shown blind


def until_repeat(seen: frozenset[Any], card: Any) -> Any:
    if card in seen:
        return done(len(seen) + 1)
    return seen | {card}


def last_and_seen(state: tuple[Any, frozenset[Any]], card: Any) -> Any:
    last, seen = state
    if card == last:
        return done("neighbours")
    if card in seen:
        return done(len(seen))
    return (card, seen | {card})


def pairs_seen(seen: frozenset[Any], card: Any) -> Any:
    if seen == {card}:
        return done("again")
    if card in seen:
        return seen - {card}
    return seen | {card}


def pairs_in_one_line(seen: frozenset[Any], card: Any) -> Any:
    if len(seen) == 3:
        return done(len(seen))
    return seen - {card} if card in seen else seen | {card}  # both arms return


BLIND = [until_repeat, last_and_seen, pairs_seen, pairs_in_one_line]


@MODELLED_ONLY
@pytest.mark.parametrize("step", BLIND)
def test_the_proof_shows_the_set_keeping_steps(step: Any) -> None:
    state = (None, frozenset()) if step is last_and_seen else frozenset()
    assert hash_blind_step(step, state) is step


@MODELLED_ONLY
def test_a_rank_repeating_is_symmetric_and_exact() -> None:
    deck = Cards({f"r{i}": 4 for i in range(13)})
    report = explain(loop(frozenset(), until_repeat), deck)
    assert report.symmetric
    assert report.distribution is not None
    # The product formula: the first k cards have distinct ranks with probability
    # prod_{i<k} (52 - 4 i) / (52 - i); the k+1-th repeats one of them.
    distinct = [Fraction(1)]
    for i in range(1, 15):
        distinct.append(distinct[-1] * Fraction(52 - 4 * (i - 1), 52 - (i - 1)))
    expected = {k + 1: distinct[k] - distinct[k + 1] for k in range(1, 14)}
    assert dict(report.distribution) == expected


@MODELLED_ONLY
def test_fifty_two_ranks_no_longer_reach_the_limit() -> None:
    deck = Cards({f"r{i}": 2 for i in range(52)})
    result = chances(loop(frozenset(), until_repeat), deck)
    assert sum(result.values()) == 1
    assert result[2] == Fraction(1, 103)  # the second card pairs the first


@MODELLED_ONLY
def test_a_traced_set_of_cards_is_built_without_comparing_every_pair() -> None:
    # Atoms hash by their address where hashing is allowed: a set of n atoms is built in
    # n steps.  With one hash for all, each run compared every pair (about 800,000
    # comparisons here), most of the time of "until a rank repeats" on 52 ranks.
    answer, calls = _traced_counting_calls(40)
    assert answer is not None and dict(answer) == until_repeat_formula(40, 2)
    assert calls.get("__hash__", 0) > 0  # the runs did hash atoms
    assert calls.get("__eq__", 0) < 1_000


@MODELLED_ONLY
def test_a_set_of_cards_is_traced_once_for_all_its_cards() -> None:
    # Drawing any of the k cards in the state's set leads to the same renamed future:
    # the swap of two of them leaves the state as it is, so one traced run shows the
    # symmetry for all k (drawdsl.shapes._covered); with a run per card, 20 ranks took
    # 2 + 3 + ... + 21 = 230 runs.
    answer, calls = _traced_counting_calls(20)
    assert answer is not None and dict(answer) == until_repeat_formula(20, 2)
    runs = calls.get("_check", 0)
    assert 0 < runs <= 2 * 21


def last_and_set(state: tuple[Any, frozenset[Any]], card: Any) -> Any:
    last, seen = state
    if card in seen:
        return done(card == last)  # the set's cards lead apart: the last one is not the others
    return (card, seen | {card})


def count_and_set(state: tuple[int, frozenset[Any]], card: Any) -> Any:
    n, seen = state
    if card in seen or n == 3:
        return done(n)
    return (n + 1, seen | {card})


def two_sets(state: tuple[frozenset[Any], frozenset[Any]], card: Any) -> Any:
    twice, once = state
    if card in twice:
        return done(len(once))
    if card in once:
        return (twice | {card}, once)  # a card moves from one set to the other
    return done(-1) if len(once) == 3 else (twice, once | {card})


SET_STATES: list[tuple[Any, Any]] = [(last_and_set, (None, frozenset())), (count_and_set, (0, frozenset())),
              (two_sets, (frozenset(), frozenset()))]


@settings(max_examples=60, deadline=None)
@given(deck=st.one_of(INT_DECKS, STR_DECKS), case=st.sampled_from(SET_STATES))
def test_only_cards_a_swap_cannot_tell_apart_share_a_run(deck: Cards[Any], case: Any) -> None:
    # A state that keeps more than a set: swapping two cards of the set may move the rest
    # (the last card, one set into another), and then each card has its own traced run.
    step, start = case
    spec = loop(start, step)
    truth = brute_force(spec, deck)
    answer = traced(spec, deck)
    assert answer is None or answer == truth
    assert chances(spec, deck) == truth


def until_repeat_formula(ranks: int, copies: int) -> dict[int, Fraction]:
    """Cards drawn until two share a rank, by the product formula."""
    n = ranks * copies
    distinct = [Fraction(1), Fraction(1)]  # P(the first k cards are of distinct ranks)
    for k in range(2, ranks + 2):
        distinct.append(distinct[-1] * Fraction(n - copies * (k - 1), n - (k - 1)))
    return {k: distinct[k - 1] - distinct[k] for k in range(2, ranks + 2)}


def _traced_counting_calls(ranks: int) -> tuple[Any, dict[str, int]]:
    """The traced evaluation of until_repeat on ``ranks`` ranks x 2, and how often each
    function of drawdsl.atoms was called (by name)."""
    deck = Cards({f"r{i}": 2 for i in range(ranks)})
    profile = cProfile.Profile()
    profile.enable()
    try:
        answer = traced(loop(frozenset(), until_repeat), deck)
    finally:
        profile.disable()
    calls: dict[str, int] = {}
    for (path, _, name), counts in pstats.Stats(profile).stats.items():  # type: ignore[attr-defined]
        if path == atoms.__file__:
            calls[name] = calls.get(name, 0) + counts[1]
    return answer, calls


# --------------------------------------------------------------------------- refused


def with_constant(seen: frozenset[Any], card: Any) -> Any:
    if card in {1, "b"}:  # a constant set: found by hash, never compared with an atom
        return done("named")
    return done(len(seen)) if card in seen else seen | {card}


def counts_in_set(seen: frozenset[Any], card: Any) -> Any:
    if card in seen:
        return done("again")
    return seen | {card, len(seen)}  # a number beside the cards, equal to a card 1


def number_joins(seen: frozenset[Any], card: Any) -> Any:
    if len(seen) == 2:
        return done(1 in seen)
    more = seen | {len(seen)}
    return more | {card}


def rebound_local(seen: frozenset[Any], card: Any) -> Any:
    x = len(seen)
    if card in seen:
        x = card
    if len(seen) >= 2:
        return done(x in seen)
    return seen | {card, x}


def first_item(seen: frozenset[Any], card: Any) -> Any:
    if len(seen) == 2:
        return done(next(iter(seen)) == card)
    return seen | {card}


def compares_computed(seen: frozenset[Any], card: Any) -> Any:
    if seen == {len(seen)}:
        return done("one")
    return done("none") if len(seen) == 2 else seen | {card}


def _helper(seen: frozenset[Any], card: Any) -> frozenset[Any]:
    return seen | {card, 1}


def through_helper(seen: frozenset[Any], card: Any) -> Any:
    if len(seen) >= 3:
        return done(card in seen)
    return _helper(seen, card)


def letter_of_name(state: tuple[str, frozenset[Any]], card: Any) -> Any:
    name, seen = state
    if name[1] in seen:  # a part of a string: may equal a card
        return done("found")
    return done("not") if len(seen) == 2 else (name, seen | {card})


def first_in_one_line(seen: frozenset[Any], card: Any) -> Any:
    return done(next(iter(seen)) == card) if len(seen) == 2 else seen | {card}


REFUSED = [first_in_one_line, with_constant, counts_in_set, number_joins, rebound_local, first_item,
           compares_computed, through_helper, letter_of_name]


@pytest.mark.parametrize("step", REFUSED)
def test_the_proof_refuses_every_hash_a_card_could_not_see(step: Any) -> None:
    state = ("xa", frozenset()) if step is letter_of_name else frozenset()
    assert hash_blind_step(step, state) is None


def _start(step: Any) -> Any:
    if step is last_and_seen:
        return (None, frozenset())
    if step is letter_of_name:
        return ("xa", frozenset())
    return frozenset()




@settings(max_examples=60, deadline=None)
@given(deck=st.one_of(INT_DECKS, STR_DECKS), step=st.sampled_from(BLIND + REFUSED))
def test_every_step_is_answered_exactly(deck: Cards[Any], step: Any) -> None:
    spec = loop(_start(step), step)
    expected = brute_force(spec, deck)
    assert chances(spec, deck) == expected
    assert chances(spec, deck, symmetric=False, lump=False) == expected
    # The symmetric evaluation with traced runs from the first draw (on small decks the
    # frontier never grows enough for chances to try them): refused, or exact.
    answer = traced(spec, deck)
    if answer is not None:
        assert answer == expected
    assert traced_first(spec, deck)[0] == expected


@MODELLED_ONLY
@pytest.mark.parametrize("step", BLIND)
def test_the_blind_steps_are_traced(step: Any) -> None:
    deck = Cards([0, 0, 1, 2, 3])
    spec = loop(_start(step), step)
    assert traced(spec, deck) == brute_force(spec, deck)


@MODELLED_ONLY
def test_a_value_equal_to_a_card_in_the_state_is_caught_by_the_run() -> None:
    """The state holds the int 1 beside float cards: ``1.0 in {1}`` is True, but an atom
    standing for 1.0 is found by its hash and would never meet the 1.  The proof shows
    the step blind; the check of the state at run time refuses the hashing (the traced
    run's other checks refuse this state too: this is a second guard)."""
    deck = Cards([1.0, 2.0, 3.0, 3.0])

    def step(seen: frozenset[Any], card: Any) -> Any:
        if card in seen:
            return done(len(seen))
        return done(0) if len(seen) == 3 else seen | {card}

    spec = loop(frozenset({1}), step)
    assert hash_blind_step(step, frozenset({1})) is step
    assert not atoms._cards_or_strangers(frozenset({1}), frozenset(deck.distinct()), (float,))
    assert chances(spec, deck) == brute_force(spec, deck)
    answer = traced(spec, deck)
    assert answer is None or answer == brute_force(spec, deck)


# --------------------------------------------------------------------------- probe cards


def until_rank_repeats(seen: frozenset[Any], card: Any) -> Any:
    if card.rank in seen:
        return done(len(seen) + 1)
    return seen | {card.rank}


@MODELLED_ONLY
def test_the_natural_form_on_the_standard_deck_is_symmetric() -> None:
    """``card.rank`` read off a probe card is the name of its class (in a traced run, its
    atom): the natural form is shown symmetric like the deck mapped to ranks."""
    from drawdsl import standard_deck

    natural = explain(loop(frozenset(), until_rank_repeats), standard_deck())
    tuned = chances(loop(frozenset(), until_repeat), Cards({r: 4 for r in range(13)}))
    assert natural.symmetric and natural.shown == ("rank",)
    assert natural.distribution is not None and dict(natural.distribution) == dict(tuned)


class Plain(NamedTuple):
    rank: int
    suit: str


class Computed(NamedTuple):
    rank: int
    suit: str

    @property
    def low(self) -> int:  # a value the class computes: equal to a card's rank 1
        return 1 if self.rank == self.rank else 0


class Overridden(Plain):
    @property
    def rank(self) -> int:  # type: ignore[override]
        return 1 if tuple.__getitem__(self, 0) == tuple.__getitem__(self, 0) else 0


def low_joins(seen: frozenset[Any], card: Any) -> Any:
    if len(seen) == 2:
        return done(1 in seen)
    return seen | {card.low}


def overridden_joins(seen: frozenset[Any], card: Any) -> Any:
    if len(seen) == 2:
        return done(1 in seen)
    return seen | {card.rank}


@pytest.mark.parametrize(("kind", "step"), [(Computed, low_joins), (Overridden, overridden_joins),
                                            (Plain, until_rank_repeats)])
def test_fields_the_class_computes_are_refused_or_exact(kind: type, step: Any) -> None:
    deck = Cards([kind(r, s) for r in (1, 2, 3) for s in "xy"])
    spec = loop(frozenset(), step)
    expected = brute_force(spec, deck)
    assert chances(spec, deck) == expected
    answer = traced(spec, deck)
    assert answer is None or answer == expected
    with eager_proofs():
        assert chances(spec, deck) == expected


# --------------------------------------------------------------------------- a review's wrong numbers


def union_of_nothing(seen: frozenset[Any], card: Any) -> Any:
    if card in seen or len(seen) == 6:
        return done(12 in seen.union())  # the set the method hands back is still the state's
    return seen | {card}


def first_of_union(seen: frozenset[Any], card: Any) -> Any:
    if len(seen) == 2:
        return done(next(iter(seen.union())) == card)
    return seen | {card}


def letters_looked_up(state: tuple[str, frozenset[Any]], card: Any) -> Any:
    name, seen = state
    new = seen | {card}
    if len(new) == 2:
        return done(new.isdisjoint(name))  # a string's letters, looked up by hash
    return (name, new)


class Walk:
    def step(a, b, c=None):
        if c in {12}:
            return done("hit")
        if c is None:
            return done(len(a)) if len(a) == 4 else a + (b,)
        if len(b) == 5:
            return done("none")
        return b + (c,)


def test_a_set_method_on_the_state_is_still_followed() -> None:
    """``seen.union()`` was tagged unknown, so ``12 in`` it was never checked: on 13 ranks
    x 4 the answer was ``{False: 1}``."""
    assert hash_blind_step(union_of_nothing, frozenset()) is None
    assert hash_blind_step(first_of_union, frozenset()) is None
    assert hash_blind_step(letters_looked_up, ("ab", frozenset())) is None
    deck = Cards({r: 4 for r in range(13)})
    spec = loop(frozenset(), union_of_nothing)
    assert chances(spec, deck) == chances(spec, deck, symmetric=False, lump=False)
    small = Cards([0, 1, 6])
    spec = loop(frozenset({13}), first_of_union)
    assert traced_first(spec, small)[0] == brute_force(spec, small)
    for name in ("c", "ab"):
        spec = loop((name, frozenset()), letters_looked_up)
        assert traced_first(spec, Cards("abc"))[0] == brute_force(spec, Cards("abc"))


def test_negative_zero_is_not_the_card_zero() -> None:
    """``-0.0 == 0.0``, but the renaming matches cards by their strict key and leaves
    ``-0.0`` as it is: beside an atom for 0.0 it was never compared (the outcome 1 went
    missing)."""

    def step(seen: frozenset[Any], card: Any) -> Any:
        if card in seen:
            return done(len(seen))
        if len(seen) == 7:
            return done("none")
        return seen | {card}

    deck = Cards({float(r): 4 for r in range(12, -1, -1)})
    assert not atoms._cards_or_strangers(frozenset({-0.0}), frozenset(deck.distinct()), (float,),
                                         frozenset((float, struct.pack("<d", v)) for v in deck.distinct()))
    spec = loop(frozenset({-0.0}), step)
    assert chances(spec, deck) == chances(spec, deck, symmetric=False, lump=False)


def test_a_proof_as_a_plain_step_is_not_taken_for_a_method() -> None:
    deck = Cards({r: 2 for r in range(5, 13)})
    bound = loop((), Walk().step)
    truth = chances(bound, deck, symmetric=False, lump=False)
    chances(loop((), Walk.step), deck)  # proves the function with the state first
    assert chances(bound, deck) == truth


# --------------------------------------------------------------------------- a second review's


class CountCard(NamedTuple):
    rank: int
    suit: str

    def count(self, value: Any = None) -> int:  # type: ignore[override]
        return self.rank  # the class's own method: the rank itself, not a number of items


class UnionCard(NamedTuple):
    rank: int
    suit: str

    def union(self, *others: Any) -> int:
        return 0  # a number equal to a card's rank, not a set


class LtCard(NamedTuple):
    rank: int
    suit: str

    def __lt__(self, other: Any) -> Any:  # type: ignore[override]
        return self.rank


def counts_itself(seen: frozenset[Any], card: Any) -> Any:
    if card.count() in {0}:
        return done("low")
    if card.rank in seen:
        return done("pair")
    if len(seen) == 7:
        return done("none")
    return seen | {card.rank}


def union_of_card(seen: frozenset[Any], card: Any) -> Any:
    u = card.union()
    if u in seen:
        return done("zero seen")
    if card.rank in seen:
        return done("pair")
    if len(seen) == 7:
        return done("none")
    return seen | {card.rank}


def less_than_itself(seen: frozenset[Any], card: Any) -> Any:
    if (card < card) in {0}:
        return done("low")
    if card.rank in seen:
        return done("pair")
    if len(seen) == 1:
        return done("two")
    return seen | {card.rank}


@pytest.mark.parametrize(("kind", "step"), [(CountCard, counts_itself), (UnionCard, union_of_card)])
def test_a_probe_cards_own_methods_are_not_followed(kind: type, step: Any) -> None:
    """On probe cards the step is handed the spec's own class: ``card.count()`` ran the
    class's method (the rank itself), which the proof took for a number; the outcome
    it decides went missing on 13 ranks x 4, the rank 0 listed last."""
    deck = Cards([kind(r, s) for r in range(12, -1, -1) for s in "shdc"])
    spec = loop(frozenset(), step)
    assert chances(spec, deck) == chances(spec, deck, symmetric=False)


def test_a_probe_cards_own_comparison_is_not_followed() -> None:
    deck = Cards([LtCard(r, s) for r in (2, 1, 0) for s in "xy"])
    spec = loop(frozenset(), less_than_itself)
    with eager_proofs():
        assert chances(spec, deck) == brute_force(spec, deck)


def test_a_generator_function_is_no_step_to_hash_in() -> None:
    def step(seen: frozenset[Any], card: Any) -> Any:
        yield seen | {card}

    assert hash_blind_step(step, frozenset()) is None


# --------------------------------------------------------------------------- a third review's


def default_kept(seen: frozenset[Any], card: Any, x: Any = 12) -> Any:
    if len(seen) == 99:  # never: x keeps its default, equal to a card
        x = card
    if card in seen:
        return done("pair")
    if len(seen) == 6:
        return done(x in seen)
    return seen | {card}


def keyword_default_kept(seen: frozenset[Any], card: Any, *, x: Any = 6) -> Any:
    if len(seen) == 99:
        x = card
    if len(seen) == 2:
        return done(x in seen)
    return seen | {card}


def test_a_parameters_default_is_not_taken_for_a_card() -> None:
    """A store that never runs made ``x`` a card in the proof, while it kept its default
    12: looked up by hash among the atoms, never found (the outcome True went missing)."""
    assert hash_blind_step(default_kept, frozenset()) is None
    assert hash_blind_step(keyword_default_kept, frozenset()) is None
    deck = Cards({r: 4 for r in range(13)})
    spec = loop(frozenset(), default_kept)
    assert chances(spec, deck) == chances(spec, deck, symmetric=False, lump=False)
    small = Cards(range(8))
    spec = loop(frozenset(), keyword_default_kept)
    with eager_proofs():
        assert chances(spec, small) == brute_force(spec, small)


# --------------------------------------------------------------------------- the library's keys as the spec's


def _two_in_a_tuple(state: tuple[Any, ...], card: Any) -> Any:
    return done(state + (card,)) if len(state) == 1 else state + (card,)


def _layout_parity(spec: Any) -> Any:
    return hash(spec) % 2


def _even(value: int) -> bool:
    return value % 2 == 0


KEYS_AS_CALLBACKS = [
    ("set_layout", lambda: loop((), _two_in_a_tuple).map(set_layout)),
    ("partial(set_layout)", lambda: loop((), _two_in_a_tuple).map(functools.partial(set_layout))),
    ("strict_key then hash",
     lambda: loop((), _two_in_a_tuple).map(strict_key).map(lambda k: hash(k) % 2)),
    ("partial(done) then hash",
     lambda: loop((), _two_in_a_tuple).map(functools.partial(done)).map(_layout_parity)),
    ("done then the builtin hash",
     lambda: loop((), _two_in_a_tuple).map(done).map(hash).map(_even)),
    ("done then partial(hash)",
     lambda: loop((), _two_in_a_tuple).map(done).map(functools.partial(hash)).map(_even)),
    ("partial(loop) then hash",
     lambda: loop((), _two_in_a_tuple).map(functools.partial(loop, step=_two_in_a_tuple))
     .map(_layout_parity)),
]


@pytest.mark.parametrize(("title", "make"), KEYS_AS_CALLBACKS, ids=[t for t, _ in KEYS_AS_CALLBACKS])
@pytest.mark.parametrize("deck", [Cards({i: 2 for i in range(5)}), Cards([1, 9, 2, 10, 3])],
                         ids=["pairs", "collide"])
def test_the_librarys_keying_handed_to_map_is_the_specs(title: str, make: Any, deck: Cards[Any]) -> None:
    # A review found `spec.map(set_layout)` trusted as the evaluator keying a traced state
    # (every frame above it is the library's): it read the atoms' hashes, and the answer
    # was wrong (on the second deck even before atoms hashed by their address).  A keying
    # function counts as the evaluator's only when each frame calls the next by its name.
    # A second review found `.map(done).map(hash)`: C's hash ran the library's
    # `_Done.__hash__` for the spec; a special method counts only at the library's own
    # operator or lookup.
    truth = chances(make(), deck, symmetric=False, lump=False)
    assert truth == brute_force(make(), deck)
    junk = []
    for attempt in range(8):
        junk.append([object() for _ in range(attempt * 7)])  # other addresses for the atoms
        with eager_proofs():
            assert chances(make(), deck) == truth, title


_MASK = 0xFFFF0  # set_layout hashes with `& (table - 1)`, the table being its value's size // 16


class _Big(list):  # type: ignore[type-arg]
    """A list whose size tells set_layout a table of _MASK + 1 slots."""

    def __sizeof__(self) -> int:
        return 216 + 16 * (_MASK + 1) - _HEADER


_HEADER = 0
_HEADER = sys.getsizeof(_Big()) - _Big().__sizeof__()  # the collector's header, added by getsizeof


@pytest.mark.parametrize("kind", [_Itself, _Same], ids=["keys._Itself", "frames._Same"])
def test_the_librarys_keys_by_identity_are_the_specs(kind: type) -> None:
    # A third review found a spec reading cards' addresses through the library's keys by
    # identity (their hash is id(value), no atom asked) and set_layout: two string cards
    # whose addresses collide under the mask were told from the others, and the traced runs
    # (atoms never collide) missed it.  Now a traced run refuses them outside the
    # evaluator's own keying.
    def same_home(x: Any, y: Any) -> bool:
        return set_layout(_Big([kind(x), kind(y)])) is None and set_layout(_Big([kind(y), kind(x)])) is None

    @generate
    def two() -> Any:
        a = yield draw()
        b = yield draw()
        return same_home(a, b)

    pool = [f"card{i:07d}" for i in range(200_000)]
    homes: dict[int, str] = {}
    first = second = None
    for name in pool:
        home = id(name) & _MASK
        if home in homes:
            first, second = homes[home], name
            break
        homes[home] = name
    assert first is not None and second is not None
    others = [name for name in pool[-5000:] if all((id(name) ^ id(c)) & _MASK for c in (first, second))][:2]
    deck = Cards({card: 2 for card in [*others, first, second]})
    truth = brute_force(two(), deck)
    assert truth == chances(two(), deck, symmetric=False, lump=False)
    assert traced(two(), deck) in (None, truth)
    with eager_proofs():
        assert chances(two(), deck) == truth


_ACE = "A"


@pytest.mark.parametrize("deck", [Cards({"B": 2, "A": 2, "C": 2}), Cards({"C": 2, "B": 2, "A": 2, "D": 2})])
def test_a_spec_cannot_run_a_traced_runs_watch_itself(deck: Cards[str]) -> None:
    # A fourth review found a spec calling drawdsl.atoms.watching itself: its new hook took
    # what ran under it out of the traced run's watch, so `card is ACE` went unseen.  Runs
    # do not nest now: the outer one is refused (here under another name, past the names
    # the trace refuses).
    @generate
    def two() -> Any:
        a = yield draw()
        yield draw()
        return _run_watched(AtomWatch(), lambda: a is _ACE)

    truth = brute_force(two(), deck)
    assert truth == chances(two(), deck, symmetric=False, lump=False)
    assert traced(two(), deck) in (None, truth)
    with eager_proofs():
        assert chances(two(), deck) == truth
