"""Patterns, alphabets and the pattern automaton that every Penney game runs on.

A pattern is a non-empty string; each character is one symbol of the alphabet
(``"HT"`` for a coin, ``"123456"`` for a die, ``"RB"`` for red and black cards).  The
automaton reads symbols one at a time and remembers only the longest suffix of what
it has read that is a proper prefix of some pattern, so a race between patterns of
length ``n`` has at most ``1 + players * (n - 1)`` states, whatever the alphabet.

When several patterns end on the same symbol, one is a suffix of the others, and the
shortest one wins: it is contained in the longer ones, which therefore never win.

>>> machine = Automaton(("HHT", "THH"), "HT")
>>> machine.states
('', 'H', 'HH', 'T', 'TH')
>>> machine.move("HH", "T"), machine.move("TH", "T")
(0, 'T')
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from typing import TypeAlias

from drawdsl import InvalidArgument, Weighted

__all__ = [
    "check_alphabet",
    "check_patterns",
    "all_patterns",
    "source",
    "contains_another",
    "Automaton",
    "Weights",
]

#: Weights for the symbols of an alphabet: a mapping symbol -> weight, or a sequence
#: of weights in alphabet order, or None for equally likely symbols.
Weights: TypeAlias = "Mapping[str, int | Fraction] | Sequence[int | Fraction] | None"


def check_alphabet(alphabet: str | Iterable[str]) -> str:
    """The alphabet as a string of distinct one-character symbols (at least two).

    >>> check_alphabet(["1", "2", "3"])
    '123'
    """
    if isinstance(alphabet, Iterable):
        symbols = list(alphabet)
    else:
        raise TypeError(f"alphabet must be a string such as 'HT', got {alphabet!r}")
    for symbol in symbols:
        if not isinstance(symbol, str) or len(symbol) != 1:
            raise TypeError(
                f"alphabet: every symbol must be one character, got {symbol!r}; "
                "write the alphabet as a string such as 'HT' or '123456'"
            )
    text = "".join(symbols)
    repeated = sorted({s for s in text if text.count(s) > 1})
    if repeated:
        raise InvalidArgument(
            f"alphabet {text!r} repeats {', '.join(map(repr, repeated))}; give each symbol "
            "once and use weights for unequal chances"
        )
    if len(text) < 2:
        raise InvalidArgument(
            f"alphabet {text!r} has {len(text)} symbol(s); Penney's game needs at least 2 (such as 'HT')"
        )
    return text


def check_patterns(patterns: Iterable[str], alphabet: str, *, players: int = 2) -> tuple[str, ...]:
    """The patterns as a tuple, checked: non-empty, over ``alphabet``, distinct, at least ``players``.

    >>> check_patterns(["HHT", "THH"], "HT")
    ('HHT', 'THH')
    >>> check_patterns(["HXT", "THH"], "HT")
    Traceback (most recent call last):
    ...
    drawdsl.errors.InvalidArgument: pattern 'HXT' uses 'X', which is not in the alphabet 'HT'; \
write patterns with the alphabet's symbols, or give the alphabet they use
    """
    if isinstance(patterns, str):
        raise TypeError(
            f"patterns must be a sequence of strings, got the single string {patterns!r}; "
            f"pass a list such as [{patterns!r}, ...]"
        )
    result = tuple(patterns)
    for pattern in result:
        if not isinstance(pattern, str):
            raise TypeError(
                f"pattern {pattern!r} ({type(pattern).__name__}) is not a string; write it as 'HTH'"
            )
        if not pattern:
            raise InvalidArgument(
                "a pattern is empty; every pattern needs at least one symbol, such as 'HTH'"
            )
        for symbol in pattern:
            if symbol not in alphabet:
                raise InvalidArgument(
                    f"pattern {pattern!r} uses {symbol!r}, which is not in the alphabet {alphabet!r}; "
                    "write patterns with the alphabet's symbols, or give the alphabet they use"
                )
    for a, b in itertools.combinations(result, 2):
        if a == b:
            raise InvalidArgument(
                f"pattern {a!r} is named twice; every player needs a different pattern"
            )
    if len(result) < players:
        raise InvalidArgument(
            f"Penney's game needs at least {players} patterns (one per player), got {len(result)}: "
            f"{', '.join(map(repr, result)) or 'none'}"
        )
    return result


def all_patterns(length: int, alphabet: str = "HT") -> list[str]:
    """Every pattern of ``length`` symbols, in alphabet order.

    >>> all_patterns(2)
    ['HH', 'HT', 'TH', 'TT']
    """
    if isinstance(length, bool) or not isinstance(length, int):
        raise TypeError(f"length must be an int, got {length!r}")
    if length < 1:
        raise InvalidArgument(f"length must be >= 1, got {length}")
    alphabet = check_alphabet(alphabet)
    return ["".join(word) for word in itertools.product(alphabet, repeat=length)]


def source(alphabet: str = "HT", weights: Weights = None) -> Weighted[str]:
    """The with-replacement source of symbols: equally likely, or with exact ``weights``.

    >>> source("HT", [2, 1]).probability("H")
    Fraction(2, 3)
    >>> source("abc", {"a": Fraction(1, 2), "b": Fraction(1, 4), "c": Fraction(1, 4)})
    Weighted({'a': 2, 'b': 1, 'c': 1})
    """
    alphabet = check_alphabet(alphabet)
    if weights is None:
        return Weighted(alphabet)
    if isinstance(weights, Mapping):
        extra = [s for s in weights if s not in alphabet]
        missing = [s for s in alphabet if s not in weights]
        if extra or missing:
            raise InvalidArgument(
                f"weights must give one weight per symbol of the alphabet {alphabet!r}; "
                f"missing {missing}, unknown {extra}"
            )
        return Weighted({s: weights[s] for s in alphabet})
    if isinstance(weights, (str, bytes)) or not isinstance(weights, Sequence):
        raise TypeError(f"weights must be a mapping symbol -> weight or a list of weights, got {weights!r}")
    if len(weights) != len(alphabet):
        raise InvalidArgument(
            f"weights: got {len(weights)} weight(s) for the {len(alphabet)} symbols of {alphabet!r}; "
            "give one weight per symbol, in alphabet order"
        )
    return Weighted(dict(zip(alphabet, weights, strict=True)))


def contains_another(pattern: str, patterns: Iterable[str]) -> bool:
    """Whether ``pattern`` contains one of the other ``patterns`` (then it never wins first).

    >>> contains_another("HTH", ["T", "HTH"]), contains_another("HTH", ["TT"])
    (True, False)
    """
    return any(other != pattern and other in pattern for other in patterns)


class Automaton:
    """The race automaton: states are the longest suffix read that is a proper prefix of a pattern.

    ``move(state, symbol)`` is the next state, or the index of the pattern that has just
    appeared (the shortest, when several end together).

    >>> Automaton(("HH", "T"), "HT").table()
    {('', 'H'): 'H', ('', 'T'): 1, ('H', 'H'): 0, ('H', 'T'): 1}
    """

    __slots__ = ("patterns", "alphabet", "states", "_moves")

    def __init__(self, patterns: Sequence[str], alphabet: str) -> None:
        self.patterns = tuple(patterns)
        self.alphabet = alphabet
        prefixes = {p[:i] for p in self.patterns for i in range(len(p))}
        by_length = sorted(range(len(self.patterns)), key=lambda i: (len(self.patterns[i]), i))
        moves: dict[str, dict[str, str | int]] = {}
        for state in sorted(prefixes, key=lambda s: (len(s), s)):
            row: dict[str, str | int] = {}
            for symbol in alphabet:
                text = state + symbol
                winner = next((i for i in by_length if text.endswith(self.patterns[i])), None)
                if winner is not None:
                    row[symbol] = winner
                    continue
                while text not in prefixes:
                    text = text[1:]
                row[symbol] = text
            moves[state] = row
        self._moves = moves
        self.states = tuple(sorted(self._reachable(), key=lambda s: (s[:1], len(s), s)))

    def _reachable(self) -> set[str]:
        seen = {""}
        stack = [""]
        while stack:
            for to in self._moves[stack.pop()].values():
                if isinstance(to, str) and to not in seen:
                    seen.add(to)
                    stack.append(to)
        return seen

    def move(self, state: str, symbol: str) -> str | int:
        """The next state after reading ``symbol``, or the index of the pattern completed."""
        return self._moves[state][symbol]

    def row(self, state: str) -> dict[str, str | int]:
        """Every move from ``state``: symbol -> next state or winner index."""
        return self._moves[state]

    def table(self) -> dict[tuple[str, str], str | int]:
        """All moves from the reachable states, as ``(state, symbol) -> move``."""
        return {(s, c): self._moves[s][c] for s in sorted(self.states) for c in self.alphabet}

    def __repr__(self) -> str:
        return f"Automaton({self.patterns!r}, {self.alphabet!r})"
