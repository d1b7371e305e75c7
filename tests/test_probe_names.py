"""Names: the one card field a spec reads, handed over so that the renaming can see it.

When a spec reads one field only (the rank), each class of cards has its own value of
it, and the spec gets that value as a *name* (drawdsl/probes.py ``named``): equal to the
value, hashing like it, doing what it does, but recognisable by the renaming of
drawdsl/reductions.py.  So ``loop((n, None), step)`` keeping ``card.rank`` is proved
symmetric like the same loop over a deck of rank names.  Names may only ever make an
evaluation faster: every answer equals the real cards' (``probe=False``) and brute
force, with the proofs made at once (``eager_proofs``) so that small decks use them.
"""

from __future__ import annotations

import copy
import io
import json
import pickle
from collections import Counter
from collections.abc import Callable
from typing import Any, NamedTuple

import pytest
from eager import eager_proofs
from hypothesis import given, settings
from hypothesis import strategies as st
from oracle import brute_force

from drawdsl import Cards, Spec, chances, done, draw, draw_many, explain, fail, generate, loop, standard_deck
from drawdsl.probes import ProbePlan, is_name, named


class P(NamedTuple):
    """A small card: rank 1..3, suit "x" or "y"."""

    rank: int
    suit: str


# Uses of the one field read (the rank or the suit of two cards ``c`` and ``p``).
USES: dict[str, Callable[[Any, Any], Any]] = {
    "equal": lambda c, p: c == p,
    "ordered": lambda c, p: c < p,
    "sum": lambda c, p: c + p,
    "kept": lambda c, p: c,
    "pair kept": lambda c, p: (c, p),
    "frozenset": lambda c, p: frozenset({c, p}),
    "set size": lambda c, p: len({c, p}),
    "dict lookup": lambda c, p: {1: "a", 2: "b", "x": "c"}.get(c, "?") + {1: "a", "y": "d"}.get(p, "?"),
    "dict keyed": lambda c, p: tuple(sorted(Counter([c, p]).values())),
    "str": lambda c, p: str(c) + repr(p),
    "f-string": lambda c, p: f"{c}-{p!r}",
    "type name": lambda c, p: type(c).__name__,
    "isinstance": lambda c, p: isinstance(c, (int, str)),
    "json": lambda c, p: json.dumps([c, p]),
    "pickle": lambda c, p: pickle.loads(pickle.dumps(c)) == p,
    "pickled type": lambda c, p: type(pickle.loads(pickle.dumps(c))).__name__,
    "deepcopy": lambda c, p: copy.deepcopy((c, p)),
    "max": lambda c, p: max(c, p),
    "hash": lambda c, p: hash(c) == hash(p),
    "identity": lambda c, p: c is p,
    "bool": lambda c, p: bool(c) and not p,
}

FIELDS = ("rank", "suit")


class Keep:
    """A loop keeping one field of the first card, finishing with ``use`` of the second's."""

    def __init__(self, field: str, use: str) -> None:
        self.field, self.use, self.f = field, use, USES[use]

    def __call__(self, first: Any, card: P) -> Any:
        value = getattr(card, self.field)
        return (value,) if first is None else done(self.f(value, first[0]))

    def __repr__(self) -> str:
        return f"Keep({self.field!r}, {self.use!r})"


class NoRepeat:
    """Fails when two neighbouring cards share the field; keeps the field (a name)."""

    def __init__(self, field: str, n: int) -> None:
        self.field, self.n = field, n

    def __call__(self, state: tuple[int, Any], card: P) -> Any:
        left, previous = state
        # Not getattr(card, self.field): a traced run refuses getattr, whose name may be
        # built at run time (getattr(sys, "_get" + "frame")).
        value = card.rank if self.field == "rank" else card.suit
        if value == previous:
            return fail()
        return done(True) if left == 1 else (left - 1, value)

    def __repr__(self) -> str:
        return f"NoRepeat({self.field!r}, {self.n})"


@generate
def counted(field: str, n: int) -> Any:
    """A dict of the field's values counted in draw order, finishing with the sorted counts."""
    counts: dict[Any, int] = {}
    for _ in range(n):
        card = yield draw()
        value = getattr(card, field)
        counts[value] = counts.get(value, 0) + 1
    return tuple(sorted(counts.values()))


small_decks: st.SearchStrategy[Cards[P]] = st.dictionaries(
    st.builds(P, st.integers(1, 3), st.sampled_from("xy")), st.integers(1, 2), min_size=2
).filter(lambda counts: sum(counts.values()) <= 5).map(Cards)

fields = st.sampled_from(FIELDS)
specs: st.SearchStrategy[Spec[Any]] = st.one_of(
    st.builds(lambda f, u: loop(None, Keep(f, u)), fields, st.sampled_from(sorted(USES))),
    st.builds(lambda f, n: loop((n, None), NoRepeat(f, n)), fields, st.integers(1, 4)),
    st.builds(counted, fields, st.integers(1, 3)),
    st.builds(lambda f, u: draw_many(2).map(lambda cs: USES[u](getattr(cs[1], f), getattr(cs[0], f))),
              fields, st.sampled_from(sorted(USES))),
)


def answer(spec: Spec[Any], deck: Cards[Any], **options: Any) -> Any:
    """The distribution (values with their exact types), or the type of the error raised."""
    try:
        dist = chances(spec, deck, **options)
    except Exception as err:  # compared between the evaluations
        return type(err)
    return sorted((repr(v), type(v).__name__, p) for v, p in dist.items())


@settings(max_examples=300, deadline=None)
@given(specs, small_decks)
def test_names_never_change_an_answer(spec: Spec[Any], deck: Cards[P]) -> None:
    with eager_proofs():
        named_answer = answer(spec, deck)
    assert named_answer == answer(spec, deck, probe=False)
    assert named_answer == answer(spec, deck, symmetric=False, lump=False, probe=False)
    if not isinstance(named_answer, type):
        assert chances(spec, deck, probe=False) == brute_force(spec, deck)


@pytest.mark.parametrize("use", sorted(USES))
@pytest.mark.parametrize("field", FIELDS)
def test_every_use_of_a_name_gives_the_real_answer(field: str, use: str) -> None:
    deck = Cards({P(1, "x"): 2, P(2, "x"): 1, P(2, "y"): 1, P(3, "y"): 1})
    spec = loop(None, Keep(field, use))
    with eager_proofs():
        assert answer(spec, deck) == answer(spec, deck, probe=False)


def test_a_value_holding_a_name_is_given_back_plain() -> None:
    """A spec finishing with the field gets the plain values (evaluated again without names)."""
    dist = chances(loop(None, Keep("rank", "pair kept")), standard_deck())
    assert all(type(a) is int and type(b) is int for a, b in dist)
    assert explain(loop(None, Keep("rank", "pair kept")), standard_deck()).shown == ("rank",)


def test_a_kept_rank_is_proved_symmetric_and_a_number_made_from_it_is_not() -> None:
    deck = standard_deck()
    kept = explain(loop((6, None), NoRepeat("rank", 6)), deck)
    assert kept.shown == ("rank",) and kept.symmetric

    def made(state: tuple[int, Any], card: Any) -> Any:
        left, previous = state
        if card.rank == previous:
            return fail()
        return done(True) if left == 1 else (left - 1, card.rank + 0)

    plain = explain(loop((6, None), made), deck)
    assert plain.shown == ("rank",) and not plain.symmetric
    assert kept.distribution == plain.distribution == chances(loop((6, None), made), deck, probe=False)


def test_an_ordering_of_names_fails_the_proof_and_answers_right() -> None:
    deck = Cards({P(r, s): 1 for r in (1, 2, 3) for s in "xy"})

    def rising(state: tuple[int, Any], card: P) -> Any:
        left, previous = state
        if previous is not None and card.rank < previous:
            return fail()
        return done(True) if left == 1 else (left - 1, card.rank)

    spec = loop((4, None), rising)
    with eager_proofs():
        report = explain(spec, deck)
        assert not report.symmetric
        assert chances(spec, deck) == brute_force(spec, deck)


def test_a_generator_counting_ranks_in_a_dict_agrees() -> None:
    deck = Cards({P(r, s): 1 for r in (1, 2, 3) for s in "xy"})
    with eager_proofs():
        assert chances(counted("rank", 3), deck) == brute_force(counted("rank", 3), deck)


def test_names_are_only_given_for_one_field_of_plain_ints_or_strs() -> None:
    plan = ProbePlan.of(standard_deck())
    assert plan is not None
    assert plan.names_for(frozenset({"rank"})) and plan.names_for(frozenset({"suit"}))
    assert not plan.names_for(frozenset({"rank", "suit"}))

    class B(NamedTuple):
        flag: bool
        mixed: Any

    odd = ProbePlan.of(Cards([B(True, 1), B(False, "a")]))
    assert odd is not None
    assert not odd.names_for(frozenset({"flag"})) and not odd.names_for(frozenset({"mixed"}))
    deck, _ = plan.deck(frozenset({"rank"}), names=True)
    card = deck.distinct()[0].show()
    assert is_name(card.rank) and card.rank == 2 and not is_name(card.rank + 0)
    deck, _ = plan.deck(frozenset({"rank"}), names=False)
    assert type(deck.distinct()[0].show().rank) is int


def test_a_name_does_what_its_value_does() -> None:
    n, s = named(7), named("H")
    assert (n == 7, n < 8, n * 2, -n, n // 2, hash(n)) == (True, True, 14, -7, 3, hash(7))
    assert (s.lower(), s + "x", s * 2, f"{s:>3}", hash(s)) == ("h", "Hx", "HH", "  H", hash("H"))
    assert type(n * 2) is int and type(s.lower()) is str and type(s + "x") is str
    assert repr(n) == "7" and repr(s) == "'H'" and type(n).__name__ == "int"
    assert type(copy.copy(n)) is int and type(pickle.loads(pickle.dumps(s))) is str
    assert {7: "seven"}[n] == "seven" and n in {7} and 7 in {n}


# Specs that could tell a name from its plain value: a name is not an ``int`` to ``type()``,
# and pickles to other bytes.  Names are handed in traced runs only, which refuse such code.
EIGHT = Cards({P(r, s): 1 for r in range(2, 10) for s in "xyzw"})
EIGHT_RANKS = Cards({P(r, "x"): 4 for r in range(2, 10)})  # the same question, one suit


def _typed(state: tuple[int, Any], card: P) -> Any:
    left, previous = state
    rank = card.rank
    if type(rank) is not int:
        return fail()
    if rank == previous:
        return fail()
    return done(True) if left == 1 else (left - 1, rank)


def _pickled(state: tuple[int, Any], card: P) -> Any:
    left, previous = state
    rank = card.rank
    if rank == previous or pickle.dumps(rank) == pickle.dumps(9):
        return fail()
    return done(True) if left == 1 else (left - 1, rank)


class _Hooked(pickle.Pickler):
    """Its hook is called for an int subclass (a name), never for an int (an eighth review)."""

    def reducer_override(self, obj: Any) -> Any:
        self.calls = getattr(self, "calls", 0) + 1
        return (int, (0,)) if self.calls == 1 else NotImplemented


def _hooked(state: tuple[int, Any], card: P) -> Any:
    left, previous = state
    rank = card.rank
    if rank == previous:
        return fail()
    written = io.BytesIO()
    _Hooked(written, 4).dump(rank)
    if len(written.getvalue()) > 8:  # a name went through the hook
        return done("name")
    return done(True) if left == 1 else (left - 1, rank)


@pytest.mark.parametrize("step", [_typed, _pickled, _hooked],
                         ids=["type(rank) is int", "pickled rank", "a pickler's hook"])
def test_a_spec_that_could_tell_a_name_from_its_value_is_answered_by_plain_values(
    step: Callable[[tuple[int, Any], P], Any],
) -> None:
    spec = loop((7, None), step)
    truth = chances(spec, EIGHT_RANKS, symmetric=False, probe=False)
    assert truth.success not in (0, 1)
    assert chances(spec, EIGHT) == truth
    report = explain(spec, EIGHT)
    assert report.shown == ("rank",) and not report.symmetric and report.distribution == truth


def test_the_same_spec_without_that_test_is_traced_with_names() -> None:
    def plain(state: tuple[int, Any], card: P) -> Any:
        left, previous = state
        if card.rank == previous:
            return fail()
        return done(True) if left == 1 else (left - 1, card.rank)

    spec = loop((7, None), plain)
    report = explain(spec, EIGHT)
    assert report.symmetric
    truth = chances(spec, EIGHT_RANKS, symmetric=False, probe=False)
    assert chances(spec, EIGHT) == report.distribution == truth
