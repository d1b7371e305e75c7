"""Generated adversarial specs: every automatic reduction still gives the brute-force answer.

Each leaf below is built to trip a reduction that trusted too much: cards hidden where
the renaming cannot see them (a str, a dataclass, a ``Cards``), order comparisons,
comparisons with a named card, specs finishing with a card, values equal in Python
but of different types (1, True, 1.0; 0, False, 0.0, -0.0) whose futures differ, and
the same in ``@generate`` specs.  Hypothesis composes them with every combinator, and
the evaluator (proving its reductions at once, see tests/eager.py) must agree with
brute force and with plain evaluation.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from eager import eager_proofs
from hypothesis import given, settings
from hypothesis import strategies as st
from oracle import brute_force
from strategies import ALPHABET, _extend, decks, leaves

from drawdsl import Cards, Spec, chances, done, draw, fail, generate, loop


@dataclass(frozen=True)
class Held:
    cards: tuple[Any, ...]


class Hider:
    """Distinct cards until ``n``, kept in a container the renaming cannot see into."""

    KINDS = ("str", "dataclass", "Cards", "frozenset")

    def __init__(self, kind: str, n: int) -> None:
        self.kind = kind
        self.n = n

    def start(self) -> Any:
        return {"str": "", "dataclass": Held(()), "Cards": Cards(), "frozenset": frozenset()}[self.kind]

    def __call__(self, seen: Any, card: Any) -> Any:
        held = seen.cards if self.kind == "dataclass" else seen
        if card in held:
            return fail()
        if self.kind == "str":
            seen = seen + card
        elif self.kind == "dataclass":
            seen = Held((*seen.cards, card))
        elif self.kind == "Cards":
            seen = seen + Cards([card])
        else:
            seen = seen | {card}
        size = len(seen.cards) if self.kind == "dataclass" else len(seen)
        return done(size) if size == self.n else seen

    def __repr__(self) -> str:
        return f"Hider({self.kind!r}, {self.n})"


class Ordered:
    """Two cards compared by ``op``."""

    def __init__(self, op: str) -> None:
        self.op = op

    def __call__(self, first: Any, card: Any) -> Any:
        if first is None:
            return card
        return done({"<": card < first, ">": card > first, "<=": card <= first}[self.op])

    def __repr__(self) -> str:
        return f"Ordered({self.op!r})"


class Named:
    """Is the first card ``name``, and the second another?"""

    def __init__(self, name: str) -> None:
        self.name = name

    def __call__(self, first: Any, card: Any) -> Any:
        if first is None:
            return card
        return done(first == self.name and card != first)

    def __repr__(self) -> str:
        return f"Named({self.name!r})"


def finish_with_card(first: Any, card: Any) -> Any:
    if first is None:
        return card
    return done(card) if card == first else done(None)


class Twins:
    """A state equal in Python for every card but of a type chosen by the card; what
    follows reads the type (``str``)."""

    def __init__(self, values: tuple[Any, ...]) -> None:
        self.values = values

    def __call__(self, state: Any, card: Any) -> Any:
        if state is None:
            return ("twin", self.values[ALPHABET.index(card) % len(self.values)])
        return done(str(state[1]) + ("=" if card == "a" else "!"))

    def __repr__(self) -> str:
        return f"Twins({self.values!r})"


@generate
def gen_named(name: str) -> Any:
    first = yield draw()
    second = yield draw()
    return first == name and second != first


@generate
def gen_ordered() -> Any:
    first = yield draw()
    second = yield draw()
    return second > first


@generate
def gen_keeps() -> Any:
    first = yield draw()
    second = yield draw()
    return first if second == first else None


@generate
def gen_in_str(n: int) -> Any:
    seen = ""
    for _ in range(n):
        card = yield draw()
        if card in seen:
            return False
        seen += card
    return True


@generate
def gen_twins(values: tuple[Any, ...]) -> Any:
    card = yield draw()
    twin = values[ALPHABET.index(card) % len(values)]
    other = yield draw()
    return str(twin) + ("=" if other == "a" else "!")


twin_sets = st.sampled_from([(1, True), (1, True, 1.0), (0, False), (0.0, -0.0), (0, False, 0.0)])

adversarial_leaves: st.SearchStrategy[Spec[Any]] = st.one_of(
    st.builds(lambda kind, n: (lambda h: loop(h.start(), h))(Hider(kind, n)),
              st.sampled_from(Hider.KINDS), st.integers(1, 3)),
    st.sampled_from(["<", ">", "<="]).map(lambda op: loop(None, Ordered(op))),
    st.sampled_from(ALPHABET).map(lambda name: loop(None, Named(name))),
    st.just(loop(None, finish_with_card)),
    twin_sets.map(lambda values: loop(None, Twins(values))),
    st.sampled_from(ALPHABET).map(gen_named),
    st.just(gen_ordered()),
    st.just(gen_keeps()),
    st.integers(1, 3).map(gen_in_str),
    twin_sets.map(gen_twins),
)

adversarial_specs: st.SearchStrategy[Spec[Any]] = st.recursive(
    st.one_of(adversarial_leaves, adversarial_leaves, leaves), _extend, max_leaves=4
)


@settings(max_examples=150)
@given(adversarial_specs, decks)
def test_reductions_agree_with_brute_force_on_adversarial_specs(spec: Spec[Any], deck: Cards[str]) -> None:
    with eager_proofs():
        reduced = chances(spec, deck)
    assert reduced == brute_force(spec, deck)
    assert reduced == chances(spec, deck, merge=False)
    assert chances(spec, deck) == reduced  # the default (proofs only past ESCALATE_AT states)
