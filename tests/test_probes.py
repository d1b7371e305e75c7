"""Probe cards: the evaluator shows a spec only the card fields it uses, and is never wrong.

Decks of named-tuple cards are drawn as classes of the fields the spec has used so
far (drawdsl/probes.py).  Every answer must equal the answer on the real cards
(``probe=False``) and brute force over every ordering, for specs built to trip it:
fields read through attributes, indices and unpacking, cards compared, ordered,
hashed, printed, pickled, copied, serialised, replaced; cards and hidden fields kept
in states and returned; the watch's signal swallowed by ``except BaseException``.
"""

from __future__ import annotations

import copy
import json
import pickle
from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from math import comb
from typing import Any, NamedTuple

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from oracle import brute_force
from test_sent_views import aces  # three draws, counting aces

import drawdsl.exact as exact
from drawdsl import (
    Card,
    Cards,
    InvalidArgument,
    Spec,
    chances,
    done,
    draw,
    draw_any,
    draw_count,
    draw_many,
    draw_until,
    draw_where,
    explain,
    generate,
    loop,
    standard_deck,
)
from drawdsl.probes import Hidden, ProbePlan, Seen, Watch, holds_hidden


class P(NamedTuple):
    """A small card: rank 1..3, suit "x" or "y"."""

    rank: int
    suit: str


def swallow_exception(c: P, p: P) -> Any:
    try:
        return c.rank == 2
    except Exception:  # the watch's signal is a BaseException: not caught here
        return "swallowed"


def swallow_everything(c: P, p: P) -> Any:
    try:
        return c.rank == 2
    except BaseException:  # caught: the watch still has its record
        return "swallowed"


USES: dict[str, Callable[[P, P], Any]] = {
    "nothing": lambda c, p: 0,
    "rank": lambda c, p: c.rank,
    "rank is 2": lambda c, p: c.rank == 2,
    "suit by index": lambda c, p: c[1],
    "slice": lambda c, p: c[:1],
    "unpacked": lambda c, p: (lambda r, s: r * 10 + len(s))(*c),
    "same card": lambda c, p: c == p,
    "card order": lambda c, p: c < p,
    "same rank": lambda c, p: c.rank == p.rank,
    "rank above": lambda c, p: c.rank > p.rank,
    "same suit": lambda c, p: c.suit == p.suit,
    "set size": lambda c, p: len({c, p}),
    "suit counter": lambda c, p: tuple(sorted(Counter([c.suit, p.suit]).items())),
    "str": lambda c, p: str(c),
    "f-string": lambda c, p: f"{c.rank}{p.suit}",
    "repr": lambda c, p: repr(p),
    "replace": lambda c, p: c._replace(suit="x") == p,
    "asdict": lambda c, p: c._asdict()["rank"],
    "the card": lambda c, p: c,
    "the pair": lambda c, p: (c, p),
    "fields kept": lambda c, p: (c.suit, p.rank),
    "rank in a list": lambda c, p: [c.rank] == [2],
    "swallow Exception": swallow_exception,
    "swallow everything": swallow_everything,
    "isinstance": lambda c, p: isinstance(c.rank, int) and isinstance(c, P),
    "json": lambda c, p: json.dumps(c),
    "pickle": lambda c, p: len(pickle.dumps(c)),
    "copy": lambda c, p: copy.copy(c) == p,
    "sorted": lambda c, p: tuple(sorted([c, p])),
    "sum": lambda c, p: c.rank + p.rank,
    "hashes": lambda c, p: hash(c) == hash(p),
    "max by rank": lambda c, p: max([p, c], key=lambda x: x.rank).suit,
    "count": lambda c, p: c.count(2),
    "in": lambda c, p: 2 in c,
    "len": lambda c, p: len(c),
}


class Two:
    """A loop keeping the first card, finishing with ``use(second, first)``."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.use = USES[name]

    def __call__(self, first: Any, card: P) -> Any:
        return card if first is None else done(self.use(card, first))

    def __repr__(self) -> str:
        return f"Two({self.name!r})"


class Pair:
    def __init__(self, name: str) -> None:
        self.name = name
        self.use = USES[name]

    def __call__(self, cards: tuple[P, ...]) -> Any:
        return self.use(cards[1], cards[0])

    def __repr__(self) -> str:
        return f"Pair({self.name!r})"


@generate
def two_gen(name: str) -> Any:
    first = yield draw()
    second = yield draw()
    return USES[name](second, first)


def keep_rank(state: Any, card: P) -> Any:
    """Keeps a field it never looks at, and finishes with it."""
    return card.suit if state is None else done(state)


def keep_hidden(state: Any, card: P) -> Any:
    """Keeps the rank without using it; finishes with whether a later suit is 'x'."""
    return (card.rank,) if state is None else done(card.suit == "x")


SHAPES: dict[str, Callable[[str], Spec[Any]]] = {
    "loop": lambda name: loop(None, Two(name)),
    "draw_many": lambda name: draw_many(2).map(Pair(name)),
    "generate": two_gen,
}

names = st.sampled_from(sorted(USES))

small_decks: st.SearchStrategy[Cards[P]] = st.dictionaries(
    st.builds(P, st.integers(1, 3), st.sampled_from("xy")), st.integers(1, 2), min_size=2
).filter(lambda counts: sum(counts.values()) <= 5).map(Cards)

leaf_specs: st.SearchStrategy[Spec[Any]] = st.one_of(
    st.builds(lambda shape, name: SHAPES[shape](name), st.sampled_from(sorted(SHAPES)), names),
    st.just(loop(None, keep_rank)),
    st.just(loop(None, keep_hidden)),
    st.just(draw_until(lambda c: c.rank == 2).map(len)),
    st.just(draw_count(lambda c: c.suit == "x", 2)),
)

specs: st.SearchStrategy[Spec[Any]] = st.one_of(
    leaf_specs,
    st.builds(lambda a, b: a | b, leaf_specs, leaf_specs),
    st.builds(lambda k, a: draw_any(k).then(a), st.integers(0, 1), leaf_specs),
    st.builds(lambda a, b: a.bind(lambda v: b.map(lambda w: (v, w))), leaf_specs, leaf_specs),
)


def answer(spec: Spec[Any], deck: Cards[Any], **options: Any) -> Any:
    """The distribution, or the type and text of the error the spec raises."""
    try:
        return chances(spec, deck, **options)
    except Exception as err:  # compared between the two evaluations
        return (type(err), str(err).split("\n")[0])


@settings(max_examples=300, deadline=None)
@given(specs, small_decks)
def test_probing_agrees_with_the_real_cards_and_brute_force(spec: Spec[Any], deck: Cards[P]) -> None:
    probed = answer(spec, deck)
    real = answer(spec, deck, probe=False)
    assert probed == real
    if not isinstance(real, tuple):
        assert real == brute_force(spec, deck)


@pytest.mark.parametrize("name", sorted(USES))
@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_every_use_gives_the_real_answer(shape: str, name: str) -> None:
    deck = Cards({P(1, "x"): 2, P(2, "x"): 1, P(2, "y"): 1, P(3, "y"): 1})
    spec = SHAPES[shape](name)
    assert answer(spec, deck) == answer(spec, deck, probe=False)


def test_a_spec_reading_ranks_sees_thirteen_classes_of_the_whole_deck() -> None:
    first_king = draw_until(lambda c: c.rank == 13).map(len)
    deck = standard_deck()
    assert chances(first_king, deck).expectation() == Fraction(53, 5)
    report = explain(first_king, deck)
    assert report.shown == ("rank",)


def test_three_cards_of_one_suit_read_only_suits() -> None:
    deck = standard_deck()
    spec = draw_many(3).map(lambda cs: len({c.suit for c in cs}) == 1)
    assert chances(spec, deck)[True] == Fraction(4 * 13 * 12 * 11, 52 * 51 * 50)
    report = explain(spec, deck)
    assert report.shown == ("suit",)
    # The suits are read after the third draw: found by following the one path of the
    # deck with every field hidden, without a run thrown away.
    assert report.restarts == 0


def test_a_spec_that_finishes_with_a_card_gets_real_cards() -> None:
    deck = standard_deck()
    dist = chances(draw_where(lambda c: c.rank == 14), deck)
    assert set(dist) == {card for card in deck.distinct() if card.rank == 14}
    assert all(type(card) is Card for card in dist)
    assert explain(draw_where(lambda c: c.rank == 14), deck).shown is None


def test_a_spec_reading_nothing_draws_one_class() -> None:
    deck = standard_deck()
    spec = draw_many(5).map(len)  # on the real cards: 311,875,200 paths that never merge
    assert chances(spec, deck)[5] == 1
    assert explain(spec, deck).shown == ()


def _names_rank_reads_suit(state: Any, card: P) -> Any:
    """Names ``rank`` in a branch never taken; reads the suit by index."""
    if state == "never":
        return card.rank
    return done(card[1] == "x")


def _reads_rank_unnamed(state: Any, card: P) -> Any:
    """Reads the rank through a name its code does not hold."""
    return done(getattr(card, "ra" + "nk") == 2)


@generate
def _names_suit_reads_ranks() -> Any:
    """Names ``suit`` in a branch never taken; reads the ranks by index."""
    first = yield draw()
    second = yield draw()
    if first is None:
        return first.suit
    return second[0] > first[0]


GUESSES: list[Spec[Any]] = [
    loop(None, _names_rank_reads_suit),
    loop(None, _reads_rank_unnamed),
    _names_suit_reads_ranks(),
    draw_until(lambda c: c.rank == 2 or c[1] == "y").map(len),
]


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(range(len(GUESSES))), small_decks)
def test_fields_named_but_not_read_or_read_unnamed_never_change_an_answer(i: int, deck: Cards[P]) -> None:
    spec = GUESSES[i]
    probed = answer(spec, deck)
    real = answer(spec, deck, probe=False)
    assert probed == real
    if not isinstance(real, tuple):
        assert real == brute_force(spec, deck)


def _explained(spec: Spec[Any], deck: Cards[Any]) -> Any:
    try:
        report = explain(spec, deck)
    except Exception as err:  # compared between the two evaluations
        return (type(err), str(err).split("\n")[0])
    return report.shown, report.distribution


@settings(max_examples=200, deadline=None)
@given(st.one_of(specs, st.sampled_from(GUESSES)), small_decks)
def test_the_first_path_finds_what_the_first_run_would(spec: Spec[Any], deck: Cards[P]) -> None:
    # The field found by following the all-hidden deck's one path (exact._first_used)
    # is the one the first run would stop at: the fields shown in the end, and the
    # answer, are those found without it.
    found = _explained(spec, deck)
    original = exact._first_used
    exact._first_used = lambda *args: frozenset()
    try:
        without = _explained(spec, deck)
    finally:
        exact._first_used = original
    assert found == without


@generate
def _swallows_both() -> Any:
    """Reads the rank, then the suit of the next card, each signal swallowed (review V)."""
    first = yield draw()
    try:
        rank = first.rank
    except BaseException:
        rank = -1
    second = yield draw()
    try:
        suit = second.suit
    except BaseException:
        suit = "?"
    return (rank == 14, suit)


def test_the_first_path_goes_on_past_a_swallowed_signal() -> None:
    # The all-hidden run went on past the swallowed signals and saw both fields: so does
    # the path followed in its place, and the real cards are drawn at once (no run on
    # the ranks alone thrown away, nor the all-hidden run).
    deck = standard_deck()
    report = explain(_swallows_both(), deck)
    assert report.shown is None and report.restarts == 0
    assert report.distribution == chances(_swallows_both(), deck, probe=False)


def test_a_generator_reading_ranks_starts_with_the_ranks_shown() -> None:
    report = explain(aces(), standard_deck())
    assert report.shown == ("rank",)
    # One restart: the symmetry tried by traced runs and refused (the spec tells the ace
    # from the other ranks).  No run with every field hidden before it.
    assert report.restarts == 1 and not report.symmetric
    assert chances(aces(), standard_deck())[3] == Fraction(4 * 3 * 2, 52 * 51 * 50)


class _Tally:
    def __init__(self) -> None:
        self.red = 0


@generate
def _reds(n: int) -> Any:
    """Counts red cards in a user object (a frame that cannot be keyed); names the rank
    in a branch never taken (review U: shown first, it kept all 52 cards apart)."""
    tally = _Tally()
    for _ in range(n):
        card = yield draw()
        tally.red += card.color == "red"
        if tally.red > n:
            return card.rank
    return tally.red


def test_a_field_named_but_never_read_is_not_shown() -> None:
    deck = standard_deck()
    assert explain(_reds(4), deck).shown == ("suit",)
    hypergeometric = {k: Fraction(comb(26, k) * comb(26, 5 - k), comb(52, 5)) for k in range(6)}
    assert dict(chances(_reds(5), deck)) == hypergeometric


class _Rule:
    """A predicate whose ``__getattr__`` raises KeyError for names it lacks (review U)."""

    def __init__(self, **options: int) -> None:
        self._options = options

    def __getattr__(self, name: str) -> int:
        return self._options[name]

    def __call__(self, card: Card) -> bool:
        return card.rank >= self.min_rank


def test_a_predicate_raising_on_unknown_attributes_is_evaluated() -> None:
    spec = draw_until(_Rule(min_rank=12), limit=3).map(len)
    assert chances(spec, standard_deck()) == chances(spec, standard_deck(), probe=False)


def test_probe_cards_behave_like_cards_on_the_shown_fields() -> None:
    plan = ProbePlan.of(standard_deck())
    assert plan is not None
    deck, watch = plan.deck(frozenset({"suit"}))
    token = deck.distinct()[0]
    card = token.show()
    assert isinstance(card, Card) and card.suit == "S" and card.color == "black"
    assert card is not token.show()  # a fresh card at every draw
    for use in (lambda: card.rank, lambda: card[0], lambda: hash(card), lambda: str(card),
                lambda: card == token.show(), lambda: card.is_ace, lambda: tuple(card)):
        watch.fields.clear()
        with pytest.raises(Seen):
            use()
        assert watch.fields == {"rank"}


def test_a_hidden_field_watches_every_use() -> None:
    watch = Watch()
    hidden = Hidden("rank", watch)
    uses: list[Callable[[], Any]] = [
        lambda: hidden == 1, lambda: hidden < 1, lambda: hash(hidden), lambda: bool(hidden),
        lambda: int(hidden), lambda: hidden + 1, lambda: 1 + hidden, lambda: str(hidden),
        lambda: f"{hidden}", lambda: [0][hidden], lambda: hidden.real, lambda: isinstance(hidden, int),
        lambda: -hidden, lambda: copy.copy(hidden), lambda: pickle.dumps(hidden), lambda: len(hidden),
        lambda: iter(hidden), lambda: hidden(), lambda: round(hidden), lambda: hidden.__class__,
    ]
    for use in uses:
        watch.fields.clear()
        with pytest.raises(Seen):
            use()
        assert watch.fields == {"rank"}


def test_holds_hidden_looks_inside_objects_and_closures() -> None:
    hidden = Hidden("rank", Watch())

    class Box:
        def __init__(self) -> None:
            self.inside = [hidden]

    assert holds_hidden(Box())
    assert holds_hidden(lambda: hidden)
    assert not holds_hidden((1, "a", frozenset({2.0}), Box))


def test_decks_that_are_not_one_named_tuple_type_are_drawn_as_they_are() -> None:
    assert ProbePlan.of(Cards("abc")) is None
    assert ProbePlan.of(Cards([P(1, "x"), (2, "x")])) is None
    # A named tuple and the plain tuple it equals are two cards a deck cannot keep apart.
    with pytest.raises(InvalidArgument, match=r"equal in Python but different values"):
        Cards([P(1, "x"), (1, "x")])
    assert ProbePlan.of(Cards([P(1, "x")])) is None


def test_a_shoe_lumps_copies_by_the_fields_read() -> None:
    from drawdsl import shoe

    deck = shoe(2)
    spec = draw_count(lambda c: c.color == "red", 3)
    assert chances(spec, deck) == chances(spec, deck, probe=False)
    assert explain(spec, deck).shown == ("suit",)


def same_or_other(state: tuple[P, ...], card: P) -> Any:
    """Keeps the first card twice, or the first and the third (by the second's suit),
    then counts how many kept cards equal the first: a tuple's count finds the same
    object without comparing, so the kept objects matter, not only their classes."""
    if state[:1] == ("kept",):
        if state[1].suit != state[2].suit:
            return done(-1)
        return done(state[1:].count(state[1]))
    if len(state) < 3:
        return (*state, card)
    first, second, third = state
    return ("kept", first, first) if second.suit == "x" else ("kept", first, third)


def test_states_keep_which_cards_are_the_same_object() -> None:
    # Two paths reach ("kept", a, a) and ("kept", a, b) with a, b of one class and the
    # same cards left: they must not merge (the count is 2 for one, 1 or 2 for the other).
    deck = Cards([P(1, "x"), P(2, "x"), P(3, "x"), P(1, "y"), P(2, "y")])
    spec = loop((), same_or_other)
    assert chances(spec, deck) == chances(spec, deck, probe=False) == brute_force(spec, deck)


def test_past_the_signal_limit_a_placeholder_acts_as_the_value_and_the_run_is_discarded() -> None:
    from drawdsl.probes import SIGNALS

    watch = Watch()
    hidden = Hidden("rank", watch, 7)
    for _ in range(SIGNALS):
        with pytest.raises(Seen):
            hidden + 1
    assert hidden + 1 == 8 and str(hidden) == "7" and hidden.bit_length() == 3
    assert watch.fields == {"rank"}  # the run that saw this is thrown away


def test_a_deck_makes_its_probe_plan_once() -> None:
    """The plan (every card's field keys) is kept by the deck: asked again, the same
    one; a copy of the deck makes its own, and answers are unchanged."""
    import copy
    import pickle

    from drawdsl import chances, draw_until, standard_deck
    from drawdsl.probes import ProbePlan

    deck = standard_deck()
    plan = ProbePlan.of(deck)
    assert plan is not None and ProbePlan.of(deck) is plan
    for other in (copy.copy(deck), pickle.loads(pickle.dumps(deck))):
        assert other == deck and ProbePlan.of(other) is not plan
    spec = draw_until(lambda card: card.rank == 13).map(len)
    assert chances(spec, deck) == chances(spec, deck) == chances(spec, copy.copy(deck))
    assert ProbePlan.of(Cards("ab")) is None and ProbePlan.of(Cards("ab")) is None
