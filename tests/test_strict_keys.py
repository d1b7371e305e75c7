"""Values equal in Python but of different types (1, True, 1.0; 0.0, -0.0) never merge states.

Each spec below carries one of two "twin" values through a place where the evaluator
makes a key (a finished value inside a sequence, a loop state, a generator history, a
replicate or interleave accumulator, a keyed or draw_one key, the witness memory),
then reveals which twin it holds with ``repr``.  Merging the twins would report one
twin only; the truth (merge=False, and the brute-force oracle) has both.
"""

from __future__ import annotations

import abc
import dataclasses
import functools
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from oracle import brute_force

from drawdsl import (
    Cards,
    Distribution,
    InvalidArgument,
    Weighted,
    chances,
    done,
    draw,
    draw_many,
    draw_one,
    generate,
    interleave,
    keyed,
    loop,
    replicate,
    sequence,
    witness,
)
from drawdsl.keys import strict_key

DECK = Cards("abc")
TWINS = [
    (1, True), (0, False), (1, 1.0), (0.0, -0.0), (0, 0.0),
    ((1, 2), (True, 2)), (frozenset({1}), frozenset({True})),
]


def pick(twins: tuple[Any, Any]) -> Any:
    """A function of the first card: twin 0 on 'a', twin 1 otherwise."""
    return lambda card: twins[0] if card == "a" else twins[1]


def expected(twins: tuple[Any, Any]) -> dict[str, Fraction]:
    return {repr(twins[0]): Fraction(1, 3), repr(twins[1]): Fraction(2, 3)}


def in_sequence(twins: tuple[Any, Any]) -> Any:
    chooser = pick(twins)
    return sequence([draw().map(chooser), draw()]).map(lambda t: repr(t[0]))


def in_loop_state(twins: tuple[Any, Any]) -> Any:
    chooser = pick(twins)

    def step(state: Any, card: Any) -> Any:
        drawn, value = state
        if drawn == 0:
            return (1, chooser(card))
        return done(repr(value))

    return loop((0, None), step)


def in_generator(twins: tuple[Any, Any]) -> Any:
    chooser = pick(twins)

    @generate
    def hand() -> Any:
        value = yield draw().map(chooser)
        yield draw()
        return repr(value)

    return hand()


def in_replicate(twins: tuple[Any, Any]) -> Any:
    chooser = pick(twins)
    return replicate(2, draw()).map(lambda t: chooser(t[0])).bind(
        lambda v: draw().map(lambda _: repr(v))
    )


def in_replicate_acc(twins: tuple[Any, Any]) -> Any:
    chooser = pick(twins)
    return sequence([replicate(1, draw().map(chooser)), draw()]).map(lambda t: repr(t[0][0]))


def in_interleave(twins: tuple[Any, Any]) -> Any:
    chooser = pick(twins)
    return sequence([interleave(draw().map(chooser), draw_many(0)), draw()]).map(lambda t: repr(t[0][0]))


def in_keyed(twins: tuple[Any, Any]) -> Any:
    chooser = pick(twins)

    def then(value: Any) -> Any:
        return keyed(("after", value), lambda: draw().map(lambda _: repr(value)))

    return draw().map(chooser).bind(then)


def in_draw_one_key(twins: tuple[Any, Any]) -> Any:
    chooser = pick(twins)

    def then(value: Any) -> Any:
        return draw_one(lambda _: done(repr(value)), key=("after", value))

    return draw().map(chooser).bind(then)


BUILDERS = [
    in_sequence,
    in_loop_state,
    in_generator,
    in_replicate,
    in_replicate_acc,
    in_interleave,
    in_keyed,
    in_draw_one_key,
]


@given(st.sampled_from(BUILDERS), st.sampled_from(TWINS))
def test_twins_never_merge(build: Any, twins: tuple[Any, Any]) -> None:
    spec = build(twins)
    merged = chances(spec, DECK)
    assert dict(merged.items()) == expected(twins)
    assert merged == chances(spec, DECK, merge=False) == brute_force(spec, DECK)


def test_the_reported_example() -> None:
    spec = sequence([draw_many(2).map(lambda t: 1 if t[0] == "a" else True), draw()]).map(lambda t: str(t[0]))
    assert dict(chances(spec, DECK).items()) == {"1": Fraction(1, 3), "True": Fraction(2, 3)}


@given(st.sampled_from(TWINS))
def test_witness_finds_the_second_twin(twins: tuple[Any, Any]) -> None:
    # With merged memory, the search would have marked the state dead after the first
    # twin and answered None: a false proof.
    spec = in_sequence(twins)
    found = witness(spec, DECK, lambda v: v == repr(twins[1]))
    assert found is not None and found.value == repr(twins[1])
    assert found.deal[0] != "a"


def test_strict_key_separates_types_and_float_bits() -> None:
    assert strict_key(1) != strict_key(True) != strict_key(1.0)
    assert strict_key(0.0) != strict_key(-0.0)
    assert strict_key((1, "a")) == strict_key((1, "a"))
    assert strict_key(frozenset({1, 2})) == strict_key(frozenset({2, 1}))
    nan = float("nan")
    assert strict_key(nan) == strict_key(nan)  # the same bits behave the same


# --------------------------------------------------------------------------- results and decks
# The answer itself is a key too: outcomes, tallies and decks keep twins apart.


@given(st.sampled_from(TWINS))
def test_outcome_twins_are_two_outcomes(twins: tuple[Any, Any]) -> None:
    first, second = twins
    spec = draw().map(lambda card: first if card == "a" else second)
    dist = chances(spec, DECK)
    assert len(dist) == 2
    assert dist[first] == Fraction(1, 3) and dist[second] == Fraction(2, 3)
    assert dist == brute_force(spec, DECK) == chances(spec, DECK, merge=False)
    assert first in dist and second in dist
    assert sorted(map(repr, dist)) == sorted([repr(first), repr(second)])
    assert dist.probability(lambda v: v == first) == 1  # Python's == still adds them up
    # Mapped to their reprs they stay apart; mapped to one value they merge.
    assert dist.map(repr) == Distribution({repr(first): Fraction(1, 3), repr(second): Fraction(2, 3)})
    assert dist.map(lambda v: "same") == Distribution({"same": 1})
    assert dist.given_success() == dist
    # The plain-dict views add the twins up (a dict holds one of them), never overwrite.
    assert dist.to_floats() == {first: 1.0} and sum(dist.to_sympy().values()) == 1


def test_the_outcome_example_of_the_review() -> None:
    spec = draw().map(lambda card: 0 if card == "a" else False)
    assert repr(chances(spec, Cards("ab"))) == "Distribution({0: 1/2, False: 1/2})"
    pairs = [(0, Fraction(1, 2)), (False, Fraction(1, 2))]
    assert Distribution.from_pairs(pairs) == chances(spec, Cards("ab"))
    assert Distribution({0: Fraction(1)}) != chances(spec, Cards("ab"))


def test_cyclic_outcomes_keep_twins_apart() -> None:
    from drawdsl import coin

    def step(state: int, flip: str) -> Any:
        if flip == "H":
            return done(1 if state == 0 else True)
        return 1 - state

    dist = chances(loop(0, step), coin())
    assert dist[1] == Fraction(2, 3) and dist[True] == Fraction(1, 3)


@given(st.sampled_from(TWINS))
def test_simulated_tallies_keep_twins_apart(twins: tuple[Any, Any]) -> None:
    from concurrent.futures import ThreadPoolExecutor

    from drawdsl import simulate

    first, second = twins
    spec = draw().map(lambda card: first if card == "a" else second)
    tally = simulate(spec, DECK, n=300, seed=1)
    assert len(tally) == 2 and tally[first] + tally[second] == 300
    assert 0 < tally[first] < tally[second]
    with ThreadPoolExecutor(2) as pool:
        assert simulate(spec, DECK, n=300, seed=1, executor=pool, chunk=50) == simulate(
            spec, DECK, n=300, seed=1, chunk=50)


@given(st.sampled_from(TWINS))
def test_a_deck_refuses_twins(twins: tuple[Any, Any]) -> None:
    first, second = twins
    if first == second:
        with pytest.raises(InvalidArgument, match="equal in Python but different values"):
            Cards([first, second])
        with pytest.raises(InvalidArgument, match="map: the cards"):
            Cards("ab").map(lambda card: first if card == "a" else second)
        with pytest.raises(InvalidArgument, match=r"\+: the cards"):
            Cards([first]) + Cards([second])
        with pytest.raises(InvalidArgument, match="symbols: the cards"):
            Weighted([first, second])
        assert Cards([first]) != Cards([second])
        assert Weighted([first]) != Weighted([second])
    assert Cards([first, first]).count(first) == 2


def test_adding_decks_that_share_a_nan_card() -> None:
    # Found by review: the held card was looked for by == only, which a NaN never meets.
    nan = float("nan")
    assert (Cards([nan, 1]) + Cards([nan])).count(nan) == 2
    assert (Cards([nan]) + [nan]).count(nan) == 2


def _first_of_two(state: frozenset[int], card: int) -> Any:
    return done(next(iter(state))) if len(state) == 2 else state | {card}


@example([0, 8, 16])
@given(st.lists(st.sampled_from([0, 8, 16, 24, 1, 9]), min_size=3, max_size=5, unique=True))
def test_frozensets_in_one_order_or_another_never_merge(cards: list[int]) -> None:
    """0, 8, 16 and 24 share a slot in a small set, so ``frozenset({0}) | {8}`` lists 0
    first and ``frozenset({8}) | {0}`` lists 8 first: a step reading the order told them
    apart, and merging them by equality gave ``{0: 2/3, 8: 1/3}`` for the truth
    ``{0: 1/3, 8: 1/3, 16: 1/3}`` on the deck 0, 8, 16."""
    spec = loop(frozenset(), _first_of_two)
    deck = Cards(cards)
    assert chances(spec, deck) == chances(spec, deck, merge=False) == brute_force(spec, deck)
    # As outcomes, equal frozensets are one value whatever their order.
    both = chances(loop(frozenset(), lambda s, c: done(s) if len(s) == 2 else s | {c}), deck)
    assert sum(both.values()) == 1 and len(both) == len(cards) * (len(cards) - 1) // 2


# A review (older than the checks): hashable states merged by their own ==.


@dataclasses.dataclass(frozen=True)
class _Seen:
    ranks: frozenset = frozenset()  # type: ignore[type-arg]


def _two_seen_then(state: _Seen, card: int) -> Any:
    if len(state.ranks) == 2:
        return done(" then ".join(map(str, state.ranks)) + f", then {card}")
    return _Seen(state.ranks | {card})


@dataclasses.dataclass(frozen=True)
class _Held:
    x: Any


def _hold_then_show(state: Any, card: Any) -> Any:
    if state is None:
        return _Held(True if card == "a" else 1)
    return done(repr(state.x))


def _range_then_start(state: Any, card: Any) -> Any:
    if state is None:
        return range(2, 1) if card == "a" else range(3, 1)  # both empty: equal as sequences
    return done(state.start)


class _Tag(str):
    pass


def _tag_then_first(state: Any, card: Any) -> Any:
    if state is None:
        tag = _Tag("x")
        tag.first = card  # type: ignore[attr-defined]
        return tag
    return done(state.first)


@pytest.mark.parametrize("step, start, deck", [
    (_two_seen_then, _Seen(), Cards([0, 8, 1])),  # a frozenset's order, inside a dataclass
    (_hold_then_show, None, Cards("abc")),  # True and 1 inside a dataclass
    (_range_then_start, None, Cards("abc")),
    (_tag_then_first, None, Cards("abc")),
])
def test_a_state_equal_by_its_own_eq_is_keyed_strictly(step: Any, start: Any, deck: Cards[Any]) -> None:
    spec = loop(start, step)
    assert chances(spec, deck) == brute_force(spec, deck) == chances(spec, deck, symmetric=False)


# A second review: dataclasses with a base of another metaclass, fields not compared,
# private slots, fields kept outside the instance; subclasses of float.


class _Float(float):
    pass


@dataclasses.dataclass(frozen=True)
class _Abstract(abc.ABC):
    x: Any


@dataclasses.dataclass(frozen=True)
class _Logged:
    total: int
    log: list = dataclasses.field(default_factory=list, compare=False, hash=False)  # type: ignore[type-arg]


class _Marked:
    __slots__ = ("__mark",)

    def set_mark(self, mark: Any) -> None:
        object.__setattr__(self, "_Marked__mark", mark)

    def mark(self) -> Any:
        return self._Marked__mark  # type: ignore[attr-defined]


@dataclasses.dataclass(frozen=True)
class _MarkedCount(_Marked):
    n: int


_OUTSIDE: dict[int, Any] = {}


class _Outside:
    """A field kept in a dict beside the instance (its own == reads it there)."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, obj: Any, owner: type | None = None) -> Any:
        return self if obj is None else _OUTSIDE[id(obj), self.name]  # type: ignore[index]

    def __set__(self, obj: Any, value: Any) -> None:
        if value is self:
            value = None
        _OUTSIDE[id(obj), self.name] = value  # type: ignore[index]


@dataclasses.dataclass(frozen=True)
class _Kept:
    card: Any = _Outside()


def _first_step(make: Any, show: Any) -> Any:
    def step(state: Any, card: Any) -> Any:
        return make(card) if state is None else done(show(state))
    return step


def _marked(card: Any) -> _MarkedCount:
    held = _MarkedCount(0)
    held.set_mark(card)
    return held


_KEPT: list[Any] = []  # keeps each _Kept alive, so no id (the key of its field) is reused


def _kept(card: Any) -> _Kept:
    held = _Kept(card)
    _KEPT.append(held)
    return held


@pytest.mark.parametrize("make, show", [
    (lambda card: _Float(0.0 if card == "a" else -0.0), str),
    (lambda card: _Abstract(True if card == "a" else 1), lambda state: repr(state.x)),
    (lambda card: _Logged(0, [card]), lambda state: state.log[0]),
    (_marked, lambda state: state.mark()),
    (_kept, lambda state: state.card),
])
def test_a_state_is_keyed_by_all_it_holds(make: Any, show: Any) -> None:
    spec = loop(None, _first_step(make, show))
    deck = Cards("abc")
    assert chances(spec, deck) == brute_force(spec, deck)


def test_an_outcome_is_keyed_by_what_its_eq_compares() -> None:
    deck = Cards("abc")
    # A field not compared (and not hashable) leaves the outcomes one, as == has them.
    assert chances(draw().map(lambda card: _Logged(1, [card])), deck) == Distribution({_Logged(1): 1})

    class Tag(str):
        pass

    def tagged(card: str) -> Tag:
        tag = Tag("x")
        tag.first = card  # type: ignore[attr-defined]
        return tag

    got = chances(draw().map(tagged), deck)  # one outcome, as == has them (a str subclass's)
    assert len(got) == 1 and sum(got.values()) == 1


# A third review: a blind step's state keeps what it holds; a dataclass's own __eq__ is
# trusted; unhashable compared fields and cycles fall back instead of raising.


@dataclasses.dataclass(frozen=True)
class _Tagged:
    x: int
    tag: str = dataclasses.field(compare=False)


def _tag_after_two(state: Any, card: Any) -> Any:
    seen, held = state
    if len(seen) == 2:
        return done(1 if held.tag == "b" else 2)
    return (seen | {card[0]}, card[1])


def test_a_blind_steps_state_keeps_fields_it_does_not_compare() -> None:
    spec = loop((frozenset(), _Tagged(0, "")), _tag_after_two)
    deck = Cards([(1, _Tagged(0, "a")), (2, _Tagged(0, "b")), (3, _Tagged(0, "c")), (4, _Tagged(0, "d"))])
    assert chances(spec, deck) == brute_force(spec, deck)


@dataclasses.dataclass(frozen=True)
class _ReadsTag:
    x: int
    tag: str = dataclasses.field(compare=False)

    def __eq__(self, other: object) -> bool:  # its own: reads the field it does not compare
        return isinstance(other, _ReadsTag) and (self.x, self.tag) == (other.x, other.tag)

    def __hash__(self) -> int:
        return hash(self.x)


@dataclasses.dataclass(eq=True)
class _Listed:
    cards: list  # type: ignore[type-arg]

    def __hash__(self) -> int:
        return hash(tuple(self.cards))


@dataclasses.dataclass(eq=True)
class _Ring:
    name: str
    nxt: Any = None

    def __hash__(self) -> int:
        return hash(self.name)


def test_dataclass_outcomes_and_states_that_cannot_be_keyed_by_fields() -> None:
    deck = Cards("ab")
    own = chances(draw().map(lambda card: _ReadsTag(0, card)), deck)
    assert own == Distribution({_ReadsTag(0, "a"): Fraction(1, 2), _ReadsTag(0, "b"): Fraction(1, 2)})
    listed = draw().map(lambda card: _Listed([card, "z"]))
    assert chances(listed, deck) == brute_force(listed, deck)
    ring = _Ring("r")
    ring.nxt = ring

    def step(state: Any, card: Any) -> Any:
        count, node = state
        return done(node.nxt.name) if count == 1 else (count + 1, node)

    cycled = loop((0, ring), step)
    assert chances(cycled, Cards("abc")) == brute_force(cycled, Cards("abc"))


# A fourth review: mutable dataclasses shared between parts of a state, cycles, an
# inherited generated ==, cards equal by an == that skips a field, an int subclass's ==.


@dataclasses.dataclass
class _Mutable:
    n: int = 0
    __hash__ = object.__hash__


@dataclasses.dataclass(frozen=True)
class _Pair:
    left: Any
    right: Any


@generate
def _shared_or_not() -> Any:
    first = yield draw()
    a = _Mutable()
    pair = _Pair(a, a) if first == "a" else _Pair(a, _Mutable())
    first = None
    yield draw()
    a.n += 1
    return pair.right.n


@dataclasses.dataclass
class _Node:
    name: str
    links: tuple = ()  # type: ignore[type-arg]
    __hash__ = object.__hash__


def _cycle_then_name(state: Any, card: Any) -> Any:
    if state is None:
        node = _Node(card)
        node.links = (node, node)
        return node
    return done(state.name)


@dataclasses.dataclass(frozen=True)
class _Base:
    a: Any


@dataclasses.dataclass(frozen=True, eq=False)
class _Child(_Base):
    b: Any = None


@dataclasses.dataclass(frozen=True)
class _Art:
    rank: int
    art: str = dataclasses.field(compare=False)


def test_shared_mutable_dataclasses_cycles_and_inherited_eq() -> None:
    deck = Cards("abc")
    assert chances(_shared_or_not(), deck) == brute_force(_shared_or_not(), deck)
    cycled = loop(None, _cycle_then_name)
    assert chances(cycled, Cards("ab")) == brute_force(cycled, Cards("ab"))  # at once, not a hang
    inherited = loop(None, _first_step(lambda card: _Child(1, card), lambda state: state.b))
    assert chances(inherited, deck) == brute_force(inherited, deck)
    with pytest.raises(InvalidArgument, match="equal in Python but different values"):
        Cards([_Art(1, "x"), _Art(1, "y")])


# A fifth review: identical cards written twice are one card; a plain subclass of a
# frozen dataclass takes attributes, so it is not keyed as frozen.


@dataclasses.dataclass(unsafe_hash=True)
class _Unsafe:
    rank: int


class _NamedRank(int):
    def __new__(cls, value: int, name: str) -> _NamedRank:
        made = int.__new__(cls, value)
        made.name = name  # type: ignore[attr-defined]
        return made


@dataclasses.dataclass(frozen=True)
class _FrozenKind:
    kind: str = "counter"


class _Counting(_FrozenKind):
    pass


@generate
def _shared_counter() -> Any:
    first = yield draw()
    a, b = _Counting(), _Counting()
    a.n = 0  # type: ignore[attr-defined]
    b.n = 0  # type: ignore[attr-defined]
    pair = _Pair(a, a) if first == "a" else _Pair(a, b)
    first = None
    yield draw()
    a.n += 1  # type: ignore[attr-defined]
    return pair.right.n


def test_identical_cards_are_one_card_and_subclasses_of_frozen_are_not_frozen() -> None:
    assert Cards([_Unsafe(1), _Unsafe(1), _Unsafe(2)]) == Cards({_Unsafe(1): 2, _Unsafe(2): 1})
    assert len(Cards([_NamedRank(1, "A"), _NamedRank(1, "A")])) == 2
    deck = Cards("abc")
    assert chances(_shared_counter(), deck) == brute_force(_shared_counter(), deck)


# A sixth review: an int or str subclass's own == is trusted for outcomes; a cached
# property read on one card of two is no difference between them.


class _Caseless(str):
    def __eq__(self, other: object) -> bool:
        return isinstance(other, str) and self.lower() == other.lower()

    def __hash__(self) -> int:
        return hash(self.lower())


@dataclasses.dataclass(frozen=True)
class _Cached:
    rank: int

    @functools.cached_property
    def double(self) -> int:
        return 2 * self.rank


def test_own_eq_of_a_str_subclass_and_cached_properties_on_cards() -> None:
    got = chances(draw().map(_Caseless), Cards("aAbB"))
    assert sorted(got.values()) == [Fraction(1, 2), Fraction(1, 2)]
    read = _Cached(1)
    assert read.double == 2
    assert Cards([read, _Cached(1), _Cached(2)]) == Cards({_Cached(1): 2, _Cached(2): 1})


# A seventh review: a slotted str subclass with its own == keeps its string as a state;
# a deck trusts a user class's own == about the attributes it ignores.


class _CaselessSlots(str):
    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, str) and self.lower() == other.lower()

    def __hash__(self) -> int:
        return hash(self.lower())


def _remember_a(state: Any, card: str) -> Any:
    count, held = state
    held = _CaselessSlots(card) if card in "aA" else held
    return done(str(held)) if count + 1 == 2 else (count + 1, held)


class _Tile:
    def __init__(self, n: int) -> None:
        self.n = n

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Tile) and other.n == self.n

    def __hash__(self) -> int:
        return hash(self.n)


def test_a_slotted_subclass_state_and_a_user_classes_cards() -> None:
    spec = loop((0, _CaselessSlots("z")), _remember_a)
    assert chances(spec, Cards("aAb")) == brute_force(spec, Cards("aAb"))
    seen = _Tile(1)
    seen.seen = True  # type: ignore[attr-defined]
    assert len(Cards([seen, _Tile(1), _Tile(2)])) == 3
