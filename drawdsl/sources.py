"""Sources with replacement: coins, dice and any weighted alphabet that never runs out.

Weights are exact: integers or :class:`fractions.Fraction`.  Floats are refused,
because ``0.1`` is not one tenth; write ``Fraction(1, 10)`` or ``Fraction("0.1")``.

>>> coin()
Weighted({'H': 1, 'T': 1})
>>> Weighted({"H": Fraction(2, 3), "T": Fraction(1, 3)})
Weighted({'H': 2, 'T': 1})
>>> die(4).probability(3)
Fraction(1, 4)
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Iterator, Mapping
from fractions import Fraction
from functools import reduce
from math import gcd, lcm
from typing import Any, Generic, TypeVar

from drawdsl.cards import _check_card, _same_card, _same_counts
from drawdsl.errors import InvalidArgument

__all__ = ["Weighted", "coin", "die"]

C = TypeVar("C", bound=Hashable)


def _exact_weight(symbol: object, weight: object) -> Fraction:
    if isinstance(weight, float):
        raise TypeError(
            f"weights: symbol {symbol!r} has the float weight {weight!r}; floats are not "
            f"exact, give an int or a Fraction instead (for example Fraction({str(weight)!r}))"
        )
    if isinstance(weight, bool) or not isinstance(weight, (int, Fraction)):
        raise TypeError(
            f"weights: symbol {symbol!r} has weight {weight!r} ({type(weight).__name__}); "
            "give an int or a fractions.Fraction"
        )
    if weight <= 0:
        raise InvalidArgument(
            f"weights: symbol {symbol!r} has weight {weight}; weights must be positive "
            "(leave the symbol out instead)"
        )
    return Fraction(weight)


class Weighted(Generic[C]):
    """A source that draws with replacement: each draw is symbol ``s`` with chance ``w[s]/sum(w)``.

    Build it from an iterable of equally likely symbols or a mapping ``symbol -> weight``.
    Weights are stored as the smallest equivalent positive integers.

    >>> Weighted(range(1, 7)) == die(6)
    True
    """

    __slots__ = ("_weights", "_total")

    _weights: dict[C, int]

    def __init__(self, symbols: Iterable[C] | Mapping[C, int | Fraction]) -> None:
        exact: dict[C, Fraction] = {}
        if isinstance(symbols, Mapping):
            for symbol, weight in symbols.items():
                _check_card(symbol, "weights", "symbol")
                exact[symbol] = _exact_weight(symbol, weight)
        elif isinstance(symbols, Iterable):
            firsts: dict[C, C] = {}
            for symbol in symbols:
                _check_card(symbol, "symbols", "symbol")
                _same_card(firsts.setdefault(symbol, symbol), symbol, "symbols")
                exact[symbol] = exact.get(symbol, Fraction(0)) + 1
        else:
            raise TypeError(
                f"symbols: expected an iterable of symbols or a mapping symbol -> weight, got {symbols!r}"
            )
        if not exact:
            raise InvalidArgument("symbols: a weighted source needs at least one symbol")
        scale = reduce(lcm, (w.denominator for w in exact.values()), 1)
        ints = {s: int(w * scale) for s, w in exact.items()}
        common = reduce(gcd, ints.values())
        self._weights = {s: w // common for s, w in ints.items()}
        self._total = sum(self._weights.values())

    @property
    def total(self) -> int:
        """The sum of the integer weights (the denominator of one draw)."""
        return self._total

    def weight(self, symbol: C) -> int:
        """The integer weight of ``symbol`` (0 if absent)."""
        return self._weights.get(symbol, 0)

    def probability(self, symbol: C) -> Fraction:
        """The chance that one draw gives ``symbol``.

        >>> Weighted({"H": 3, "T": 1}).probability("H")
        Fraction(3, 4)
        """
        return Fraction(self._weights.get(symbol, 0), self._total)

    def distinct(self) -> tuple[C, ...]:
        """The symbols, in first-given order."""
        return tuple(self._weights)

    def items(self) -> Iterator[tuple[C, int]]:
        """Pairs ``(symbol, integer weight)``."""
        return iter(self._weights.items())

    def __len__(self) -> int:
        return len(self._weights)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Weighted) and _same_counts(self._weights, other._weights)

    def __hash__(self) -> int:
        return hash(frozenset(self._weights.items()))

    def __repr__(self) -> str:
        return f"Weighted({self._weights!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (Weighted, (self._weights,))


def coin(heads: int | Fraction | None = None) -> Weighted[str]:
    """A coin with sides ``"H"`` and ``"T"``; fair unless ``heads`` gives P(H) exactly.

    >>> coin(Fraction(2, 3)).probability("T")
    Fraction(1, 3)
    """
    if heads is None:
        return Weighted("HT")
    if isinstance(heads, float):
        raise TypeError(
            f"coin: heads is the float {heads!r}; give an exact int or Fraction "
            f"(for example Fraction({str(heads)!r}))"
        )
    if isinstance(heads, bool) or not isinstance(heads, (int, Fraction)):
        raise TypeError(f"coin: heads must be a Fraction probability, got {heads!r}")
    p = Fraction(heads)
    if not 0 < p < 1:
        raise InvalidArgument(f"coin: heads must be a probability strictly between 0 and 1, got {heads}")
    return Weighted({"H": p, "T": 1 - p})


def die(sides: int = 6) -> Weighted[int]:
    """A fair die with faces ``1..sides``.

    >>> die(6).distinct()
    (1, 2, 3, 4, 5, 6)
    """
    if isinstance(sides, bool) or not isinstance(sides, int):
        raise TypeError(f"die: sides must be an int, got {sides!r}")
    if sides < 1:
        raise InvalidArgument(f"die: sides must be >= 1, got {sides}")
    if sides > MAX_SIDES:
        raise InvalidArgument(
            f"die: sides must be at most {MAX_SIDES:,} (a weighted source stores every face), "
            f"got {sides}; map the faces to the aspect the spec looks at instead"
        )
    return Weighted(range(1, sides + 1))


#: The most faces :func:`die` builds (each face is stored; a million take about 100 MB).
MAX_SIDES = 1_000_000
