"""Adversarial building blocks: specs made to trip a reduction that trusts too much.

Cards hidden where the renaming cannot see them (a str, a dataclass, a ``Cards``),
order comparisons, comparisons with a named card, specs finishing with a card, and
values equal in Python but of different types whose futures differ; as loops and as
``@generate`` specs.  Used by tests/test_adversarial_properties.py and
tests/test_symmetry.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from strategies import ALPHABET

from drawdsl import Cards, done, draw, fail, generate


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


@generate
def gen_dict(mode: int, name: str) -> Any:
    """Cards as the keys of a dict, looked up (which a traced run allows, see
    drawdsl.lookups); in modes 1 to 3 a plain key equal to a card sits beside them, and
    mode 4 looks up a named card, so no renaming may be assumed."""
    counts: dict[Any, int] = {}
    for _ in range(2):
        card = yield draw()
        counts[card] = counts.get(card, 0) + 1
        if mode == 1:
            counts[name] = counts.get(name, 0)  # a constant equal to a card
        elif mode == 2:
            counts.setdefault(ALPHABET[len(counts) % len(ALPHABET)], 0)  # a computed one
        elif mode == 3:
            counts[name] = 9
            del counts[name]  # gone again within the step
            counts[card] = counts.get(card, 0) + len(counts)
    if mode == 4:
        return counts.get(name, -1)
    return tuple(counts.values())  # in the order of first sight
