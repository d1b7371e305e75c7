"""Hypothesis strategies: random specs built from the combinators, and small decks."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hypothesis import strategies as st

from drawdsl import (
    Cards,
    Spec,
    done,
    draw,
    draw_any,
    draw_count,
    draw_groups,
    draw_many,
    draw_same,
    draw_until,
    draw_where,
    fail,
    generate,
    interleave,
    keyed,
    loop,
    scoring_loop,
    sequence,
)

ALPHABET = "abc"


def _digest(value: Any) -> int:
    """A small deterministic number from a value (str hashes vary between runs)."""
    return sum(ord(ch) for ch in repr(value))


class InSet:
    """A predicate on cards with a readable repr (so failures print nicely)."""

    def __init__(self, members: frozenset[str]) -> None:
        self.members = members

    def __call__(self, card: Any) -> bool:
        return card in self.members

    def __repr__(self) -> str:
        return f"InSet({''.join(sorted(self.members))!r})"


class Branch:
    """``value -> one of several specs``, chosen by the value: a bind that really depends on it."""

    def __init__(self, options: tuple[Spec[Any], ...]) -> None:
        self.options = options

    def __call__(self, value: Any) -> Spec[Any]:
        return self.options[_digest(value) % len(self.options)]

    def __repr__(self) -> str:
        return f"Branch({self.options!r})"


class Summary:
    """``value -> small int``, for map."""

    def __init__(self, modulus: int) -> None:
        self.modulus = modulus

    def __call__(self, value: Any) -> int:
        return _digest(value) % self.modulus

    def __repr__(self) -> str:
        return f"Summary({self.modulus})"


class ValuePredicate:
    def __init__(self, modulus: int) -> None:
        self.modulus = modulus

    def __call__(self, value: Any) -> bool:
        return _digest(value) % self.modulus == 0

    def __repr__(self) -> str:
        return f"ValuePredicate({self.modulus})"


class CountTo:
    """A loop step counting the cards in a set; stops when the count reaches ``target``."""

    def __init__(self, predicate: InSet, target: int) -> None:
        self.predicate = predicate
        self.target = target

    def __call__(self, state: int, card: Any) -> Any:
        state += self.predicate(card)
        return done(state) if state >= self.target else state

    def __repr__(self) -> str:
        return f"CountTo({self.predicate!r}, {self.target})"


class ScoreIn:
    """A scoring-loop step: a card in the set scores 2, another -1; stops after ``target``
    cards (or when the deck runs out)."""

    def __init__(self, predicate: InSet, target: int) -> None:
        self.predicate = predicate
        self.target = target

    def __call__(self, seen: int, card: Any) -> tuple[int | None, int]:
        return (None if seen + 1 >= self.target else seen + 1), (2 if self.predicate(card) else -1)

    def __repr__(self) -> str:
        return f"ScoreIn({self.predicate!r}, {self.target})"


class TrickIn:
    """A scoring-loop step with a pot: every card puts 1 in the pot; two cards in a row
    in the set take it for the first taker, two out of it for the second; stops after
    ``target`` cards (or when the deck runs out, the pot left counting with its
    multiplier)."""

    def __init__(self, predicate: InSet, target: int) -> None:
        self.predicate = predicate
        self.target = target

    def __call__(self, state: tuple[int, Any], card: Any) -> tuple[Any, ...]:
        seen, last = state
        inside = self.predicate(card)
        nxt = None if seen + 1 >= self.target else (seen + 1, None if last == inside else inside)
        return (nxt, 1, "in" if inside else "out") if last == inside else (nxt, 1)

    def __repr__(self) -> str:
        return f"TrickIn({self.predicate!r}, {self.target})"


@generate
def gen_bind(m: Spec[Any], f: Callable[[Any], Spec[Any]]) -> Any:
    """``m.bind(f)`` written with generator syntax."""
    value = yield m
    result = yield f(value)
    return result


class KeyedCount:
    """A recursive spec written as a function, named with keyed()."""

    def __init__(self, predicate: InSet) -> None:
        self.predicate = predicate

    def __call__(self, n: int) -> Spec[int]:
        if n == 0:
            return done(0)
        rest = self(n - 1)
        return keyed((self, n), lambda: draw().bind(lambda c: rest.map(lambda h: h + self.predicate(c))))

    def __repr__(self) -> str:
        return f"KeyedCount({self.predicate!r})"


predicates = st.frozensets(st.sampled_from(ALPHABET), min_size=1, max_size=2).map(InSet)

leaves: st.SearchStrategy[Spec[Any]] = st.one_of(
    st.integers(0, 2).map(done),
    st.just(fail()),
    st.just(draw()),
    st.integers(0, 3).map(draw_any),
    predicates.map(draw_where),
    st.builds(draw_count, predicates, st.integers(0, 3)),
    st.builds(draw_until, predicates, st.one_of(st.none(), st.integers(1, 3))),
    st.integers(1, 2).map(draw_same),
    st.sampled_from([[1], [2], [2, 1], [1, 1]]).map(draw_groups),
    st.integers(0, 4).map(draw_many),
    st.builds(lambda p, t: loop(0, CountTo(p, t)), predicates, st.integers(1, 2)),
    st.builds(lambda p, t: scoring_loop(0, ScoreIn(p, t), abs), predicates, st.integers(1, 4)),
    st.builds(
        lambda p, t, pot: scoring_loop((0, None), TrickIn(p, t), abs, pot=pot),
        predicates, st.integers(1, 5),
        st.fixed_dictionaries(
            {"in": st.integers(-2, 2), "out": st.integers(-2, 2)}, optional={None: st.integers(-1, 1)}
        ),
    ),
    st.builds(lambda p, n: KeyedCount(p)(n), predicates, st.integers(0, 2)),
)


def _extend(children: st.SearchStrategy[Spec[Any]]) -> st.SearchStrategy[Spec[Any]]:
    return st.one_of(
        st.builds(lambda m, a, b: m.bind(Branch((a, b))), children, children, children),
        st.builds(lambda m, a, b: gen_bind(m, Branch((a, b))), children, children, children),
        st.builds(lambda m, k: m.map(Summary(k)), children, st.integers(2, 3)),
        st.builds(lambda m, k: m.where(ValuePredicate(k)), children, st.integers(2, 3)),
        st.builds(lambda a, b: a | b, children, children),
        st.builds(interleave, children, children),
        st.builds(lambda a, b: sequence([a, b]), children, children),
        st.builds(lambda a, b: a.then(b), children, children),
    )


specs: st.SearchStrategy[Spec[Any]] = st.recursive(leaves, _extend, max_leaves=6)

# Small decks, so that specs often run out of cards (the subtle cases).
decks: st.SearchStrategy[Cards[str]] = st.dictionaries(
    st.sampled_from(ALPHABET), st.integers(1, 3), min_size=1
).filter(lambda counts: sum(counts.values()) <= 5).map(Cards)
