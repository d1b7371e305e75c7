"""Lumped classes: the evaluator draws the cards a spec cannot tell apart as one, and
checks every card of a class at every transition (drawdsl/exact.py).

These adversarial specs were written against *blends* (one run standing for a whole
class, with a stand-in value watched by a trace hook), which the evaluator used until
2026-11-25: C code that tells a value's type without calling it fooled them several
ways (json's encoder, sqlite3.adapt, the caches of abstract classes).  A class is now
checked card by card with real cards, which was as fast; the specs stay, each answer
compared with the real cards' (``probe=False``) and brute force.
"""

from __future__ import annotations

import functools
import json.encoder
import math
import operator
import sqlite3
import sys
from collections.abc import Callable
from decimal import Decimal
from fractions import Fraction
from typing import Any, NamedTuple

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from oracle import brute_force

from drawdsl import Cards, Spec, chances, done, draw, fail, generate, loop, standard_deck


class P(NamedTuple):
    """A small card: rank 1..4, suit "x" or "y"."""

    rank: int
    suit: str


# Small decks: brute force plays every ordering of the whole deck.
DECK = Cards([P(rank, "x") for rank in range(1, 5)] + [P(2, "y"), P(4, "y")])
SMALL = Cards([P(rank, "x") for rank in range(1, 5)] + [P(2, "y")])


# ---------------------------------------------------------------- in the evaluator


@generate
def swallows() -> Any:
    first = yield draw()
    try:
        high = first.rank > 2  # differs across a class of all ranks
    except BaseException:
        high = False
    del first  # the state keeps only the (swallowed) comparison
    yield draw()
    return high


@generate
def counts_fours() -> Any:
    count = 0
    for _ in range(3):
        card = yield draw()
        count += card.rank == 4
    return count


@generate
def keeps_rank() -> Any:
    first = yield draw()
    second = yield draw()
    return first.rank == second.rank


@generate
def hashes_rank() -> Any:
    seen: dict[int, int] = {}
    for _ in range(3):
        card = yield draw()
        seen[card.rank] = seen.get(card.rank, 0) + 1
    return max(seen.values())


@generate
def finishes_with_rank() -> Any:
    card = yield draw()
    if card.rank > 1:
        return card.rank
    return 0


@generate
def reads_type_name() -> Any:
    card = yield draw()
    other = yield draw()
    return (type(card.rank).__name__, card.rank < 4, other.rank == 4)


@generate
def checks_the_type() -> Any:
    """Tells the blend from the plain rank by its exact type: every blend run is refused."""
    card = yield draw()
    other = yield draw()
    if type(card.rank) is not int:
        return "blend"
    return (card.rank < 4, other.rank == 4)


@generate
def swallows_an_error() -> Any:
    """``sys.intern`` rejects a blend of strs, not a str: the caught error refuses the run."""
    card = yield draw()
    try:
        sys.intern(card.suit)
        seen = "str"
    except TypeError:
        seen = "other"
    other = yield draw()
    return (seen, card.suit < "H", other.suit == "S")


def _adds_directly(card: Any) -> Any:
    """``(0).__add__`` gives a blend NotImplemented without calling it (an eighth review)."""
    return done((0).__add__(card.rank) != NotImplemented and card.rank != 1)


def _over(limit: int, card: Any) -> Any:
    return done("over") if card.rank > limit else fail()


def _swallowing(state: Any, card: Any) -> Any:
    if state is not None:
        return done(state)
    try:
        return card.rank > 2  # differs across a class of all ranks
    except BaseException:
        return False


def _total(state: int, card: Any) -> Any:
    total = state + (card.rank == 4) * 10 + (card.rank > 2)
    return done(total) if total >= 12 else total


# A ninth review: C code that encodes an int itself but hands a blend to its hook, a C
# function that ignores it (no frame runs, nothing raises).
_SILENT = json.encoder.c_make_encoder(  # type: ignore[attr-defined]
    None, [].count, json.encoder.encode_basestring, None, ":", ",", False, False, True
)
# Held where the scan for C encoders does not look, with a Python hook: the blend's run
# runs code the first card's does not.
_HIDDEN = [json.encoder.c_make_encoder(  # type: ignore[attr-defined]
    None, lambda obj: "X", json.encoder.encode_basestring, None, ":", ",", False, False, True
)]


def _silent_hook(state: int, card: Any) -> Any:
    if _SILENT(card.rank, 0) == ["3"]:
        return fail()
    return done(state) if state == 2 else state + 1


def _hidden_hook(state: int, card: Any) -> Any:
    if _HIDDEN[0](card.rank, 0) == ["3"]:
        return fail()
    return done(state) if state == 2 else state + 1


class _Proto:
    """A protocol whose hook is C code that ignores its argument: sqlite3 adapts an int
    itself (by its exact type) but hands a blend to ``__adapt__``."""

    __adapt__ = [].count


sqlite3.adapters[(int, _Proto)] = str
# A C encoder wrapped (a partial, a bound method): the scan looks inside.
_WRAPPED = functools.partial(_SILENT)
_WRAPPED_METHOD = _SILENT.__call__


def _adapted(state: int, card: Any) -> Any:
    if sqlite3.adapt(card.rank, _Proto, None) == "3":
        return fail()
    return done(state) if state == 2 else state + 1


def _wrapped_hook(state: int, card: Any) -> Any:
    if _WRAPPED(card.rank, 0) == ["3"] or _WRAPPED_METHOD(card.rank, 0) == ["4"]:
        return fail()
    return done(state) if state == 2 else state + 1


# A second review: an encoder reached as a helper's argument on its second call in a
# run, one taken out of a list without a local name, and one made in the run under a
# name built at run time (its hook ``bool`` agrees on the blend: "true" for every rank).
_HELD = [json.encoder.c_make_encoder(  # type: ignore[attr-defined]
    None, bool, repr, None, ":", ",", False, False, True
)]
_MAKER = "_".join(("c", "make", "encoder"))


def _call(f: Any, *args: Any) -> Any:
    return f(*args)


def _second_call(state: int, card: Any) -> Any:
    _call(abs, 1)
    if "".join(_call(_HELD[0], card.rank, 0)) in ("true", "2"):
        return fail()
    return done(state) if state == 2 else state + 1


def _from_a_list(state: int, card: Any) -> Any:
    if "".join(_HELD[0](card.rank, 0)) in ("true", "2"):
        return fail()
    return done(state) if state == 2 else state + 1


def _made_in_the_run(state: int, card: Any) -> Any:
    encode = getattr(json.encoder, _MAKER)(None, bool, repr, None, ":", ",", False, False, True)
    if "".join(encode(card.rank, 0)) in ("true", "2"):
        return fail()
    return done(state) if state == 2 else state + 1


SPECS: dict[str, Spec[Any]] = {
    "sqlite3.adapt with a C hook": loop(0, _adapted),
    "a C encoder in a partial or a bound method": loop(0, _wrapped_hook),
    "a C encoder's silent hook": loop(0, _silent_hook),
    "a C encoder's Python hook, held in a list": loop(0, _hidden_hook),
    "swallows the disagreement": swallows(),
    "counts fours": counts_fours(),
    "keeps the rank": keeps_rank(),
    "hashes the rank": hashes_rank(),
    "finishes with the rank": finishes_with_rank(),
    "reads the type's name": reads_type_name(),
    "tests the type": checks_the_type(),
    "swallows an error only a blend raises": swallows_an_error(),
    "an int's __add__ called directly": draw().bind(_adds_directly),
    "a loop comparing with a bound": loop(2, _over),
    "a loop swallowing the disagreement": loop(None, _swallowing),
    "a loop adding what it sees": loop(0, _total),
}


@pytest.mark.parametrize("name", sorted(SPECS))
def test_answers_equal_the_real_cards_and_brute_force(name: str) -> None:
    spec = SPECS[name]
    assert chances(spec, DECK) == chances(spec, DECK, probe=False) == brute_force(spec, DECK)


@pytest.mark.parametrize("step", [_second_call, _from_a_list, _made_in_the_run])
def test_an_encoder_reached_late_is_seen(step: Any) -> None:
    """On the whole deck (classes of twelve ranks, checked by blends), each was wrong
    before: the blend run agreed with the twos, the first rank of its class."""
    spec = loop(0, step)
    deck = standard_deck()
    truth = chances(spec, deck, symmetric=False, lump=False, probe=False)
    assert truth.failure > 0
    assert chances(spec, deck) == truth


def test_a_cache_of_abstract_classes_does_not_remember_a_class() -> None:
    """A review: ``isinstance(rank, Sized)`` ran the abstract class's Python hook once (the
    run refused), but its C cache kept the blend's class, and the next evaluation's blend
    answered True from the cache, unseen: the second call gave {True: 1}."""
    from collections.abc import Iterable, Sized

    deck = standard_deck()
    for abstract in (Sized, Iterable):
        spec = draw().bind(lambda card, a=abstract: done(isinstance(card.rank, a) or card.rank == 2))
        truth = chances(spec, deck, symmetric=False, lump=False, probe=False)
        assert truth[True] == Fraction(1, 13)
        assert chances(spec, deck) == truth
        assert chances(spec, deck) == truth


@settings(max_examples=60, deadline=None)
@given(
    threshold=st.integers(0, 5),
    weight=st.integers(-2, 2),
    swallow=st.booleans(),
    draws=st.integers(1, 3),
)
def test_generated_generators_agree(threshold: int, weight: int, swallow: bool, draws: int) -> None:
    @generate
    def spec() -> Any:
        score = 0
        for _ in range(draws):
            card = yield draw()
            try:
                score += weight * (card.rank >= threshold)
            except BaseException:
                if not swallow:
                    raise
        return score

    s = spec()
    assert chances(s, SMALL) == chances(s, SMALL, probe=False) == brute_force(s, SMALL)


# Uses of the rank that a blend can often work out for a whole class (results that
# agree), mixed with ones that never agree; the state keeps only what they give.
RANK_USES: list[Callable[[Any, int], Any]] = [
    lambda r, k: r == k,
    lambda r, k: r < k,
    lambda r, k: r >= k,
    lambda r, k: r in (k, k + 1),
    lambda r, k: min(r, k),
    lambda r, k: max(r, k) == k,
    lambda r, k: r // (k + 1),
    lambda r, k: r % 2 == k % 2,
    lambda r, k: abs(r - k) > 1,
    lambda r, k: bool(r) and r != k,
    lambda r, k: {1: "a", 2: "b"}.get(r, "?"),
    lambda r, k: str(r) == str(k),
    lambda r, k: (r > k) + 0.0,
    lambda r, k: 1 if r > k else True,  # equal to Python, not to a strict key (the repr tells)
]


@settings(max_examples=80, deadline=None)
@given(
    uses=st.lists(st.tuples(st.integers(0, len(RANK_USES) - 1), st.integers(0, 5)), min_size=1, max_size=3),
    draws=st.integers(1, 3),
    as_loop=st.booleans(),
)
def test_generated_rank_uses_agree(uses: list[tuple[int, int]], draws: int, as_loop: bool) -> None:
    def seen(rank: Any) -> tuple[Any, ...]:
        return tuple(RANK_USES[i](rank, k) for i, k in uses)

    if as_loop:
        def step(state: tuple[int, tuple[Any, ...]], card: Any) -> Any:
            left, acc = state
            acc = acc + seen(card.rank)
            return done(repr(acc)) if left == 1 else (left - 1, acc)  # repr: 1 is not True

        spec: Spec[Any] = loop((draws, ()), step)
    else:
        @generate
        def gen() -> Any:
            acc: tuple[Any, ...] = ()
            for _ in range(draws):
                card = yield draw()
                acc = acc + seen(card.rank)
            return repr(acc)

        spec = gen()
    assert chances(spec, SMALL) == chances(spec, SMALL, probe=False) == brute_force(spec, SMALL)


# ---------------------------------------------------------------- an adversarial catalogue


class F(NamedTuple):
    """A card with a str field the spec reads: face "a".."d", colour "r" or "b"."""

    face: str
    colour: str


INTS = Cards([P(rank, "x") for rank in range(4)] + [P(1, "y")])  # a rank 0 too
STRS = Cards([F(face, "r") for face in "abcd"] + [F("b", "b")])


def _swallowing_use(use: Callable[[Any], Any]) -> Callable[[Any], Any]:
    def swallowed(card: Any) -> Any:
        try:
            return use(card)
        except BaseException:
            return "swallowed"

    return swallowed


def _as_generator(use: Callable[[Any], Any]) -> Spec[Any]:
    @generate
    def spec() -> Any:
        seen = []
        for _ in range(2):
            card = yield draw()
            seen.append(use(card))
        return repr(seen)

    return spec()


def _as_loop(use: Callable[[Any], Any]) -> Spec[Any]:
    def step(state: tuple[int, tuple[Any, ...]], card: Any) -> Any:
        left, seen = state
        seen = seen + (use(card),)
        return done(repr(seen)) if left == 1 else (left - 1, seen)

    return loop((2, ()), step)


INT_USES: dict[str, Callable[[Any], Any]] = {
 "divmod": lambda c: divmod(c.rank, 5),
 "round": lambda c: round(c.rank / 10),
 "format": lambda c: format(c.rank, "d")[:0],
 "float cmp": lambda c: c.rank < 2.5,
 "fraction cmp": lambda c: c.rank < Fraction(5, 2),
 "decimal cmp": lambda c: c.rank < Decimal("2.5"),
 "bool 0": lambda c: bool(c.rank),
 "index": lambda c: operator.index(c.rank) > 1,
 "int()": lambda c: int(c.rank) > 1,
 "math.floor": lambda c: math.floor(c.rank / 4),
 "sum": lambda c: sum([c.rank, 0]) > 1,
 "sorted key": lambda c: sorted([c.rank, 1], key=lambda x: -x)[0] > 1,
 "max key": lambda c: max(c.rank, 1, key=lambda x: x % 2),
 "in tuple": lambda c: c.rank in (1, 2),
 "in set": lambda c: c.rank in {1, 2},
 "in dict": lambda c: c.rank in {1: 0},
 "list mutate": lambda c: (lambda kept: (kept.append(c.rank), len(kept))[1])([]),
 "isinstance": lambda c: isinstance(c.rank, int),
 "getattr real": lambda c: c.rank.real > 1,
 "bit_length": lambda c: c.rank.bit_length(),
 "raise some": lambda c: 1 // (c.rank - 1) if c.rank != 1 else 0,
 "eq with card": lambda c: c == P(1, "x"),
 "card hash": lambda c: hash(c) == 0,
 "fstring": lambda c: f"{c.rank > 1}",
 "pow": lambda c: c.rank ** 0,
 "neg abs": lambda c: abs(-c.rank) > 1,
 "compare card ranks": lambda c: c.rank >= c.rank,
 "replace": lambda c: c._replace(suit="z").rank > 1,
 "asdict": lambda c: c._asdict()["rank"] > 1,
 "str(card)": lambda c: str(c)[:2],
 "bool and": lambda c: (c.rank and 5),
 "or": lambda c: (c.rank or 7) > 2,
 "nested chances": lambda c: str(chances(draw().map(lambda d: d == c.rank), Cards([1, 2]))),
 "closure": lambda c: (lambda: c.rank > 1)(),
 "eq float": lambda c: c.rank == 1.0,
 "eq True": lambda c: c.rank == True,  # noqa: E712 - the comparison itself is the test
}
STR_USES: dict[str, Callable[[Any], Any]] = {
 "in str": lambda c: c.face in "ab",
 "upper": lambda c: c.face.upper() == "A",
 "cmp": lambda c: c.face < "c",
 "concat": lambda c: (c.face + "x")[1:],
 "len": lambda c: len(c.face),
 "ord": lambda c: ord(c.face) > 98,
 "startswith": lambda c: c.face.startswith("a"),
 "eq": lambda c: c.face == "a",
 "getitem": lambda c: c.face[0] == "a",
 "mul": lambda c: len(c.face * 2),
 "fmt": lambda c: "%s" % (c.face < "b"),
}


CASES = [(INTS, name, use) for name, use in INT_USES.items()]
CASES += [(STRS, name, use) for name, use in STR_USES.items()]


@pytest.mark.parametrize(("deck", "name", "use"), CASES,
                         ids=[f"{'str' if d is STRS else 'int'}: {n}" for d, n, _ in CASES])
def test_adversarial_uses_of_the_field(deck: Cards[Any], name: str, use: Callable[[Any], Any]) -> None:
    """Each use, plain and swallowing every exception, in a generator and a loop: the
    same answer (or the same error) with blends as on the real cards and by brute force."""
    for form in (_as_generator, _as_loop):
        for wrapped in (use, _swallowing_use(use)):
            spec = form(wrapped)
            try:
                real = chances(spec, deck, probe=False)
            except Exception as error:
                with pytest.raises(type(error)):
                    chances(spec, deck)
                continue
            assert chances(spec, deck) == real == brute_force(spec, deck), name
