"""Cards: an immutable multiset of hashable cards, the deck a spec draws from without replacement.

>>> deck = Cards("AAKQ")
>>> len(deck), deck.count("A")
(4, 2)
>>> deck.remove("A")
Cards({'A': 1, 'K': 1, 'Q': 1})
>>> Cards({"red": 26, "black": 26}).map(lambda colour: colour[0])
Cards({'r': 26, 'b': 26})
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from typing import Any, Generic, TypeVar

from drawdsl.errors import InvalidArgument

__all__ = ["Cards"]

C = TypeVar("C", bound=Hashable)
D = TypeVar("D", bound=Hashable)


def _check_card(card: object, where: str, noun: str = "card") -> None:
    try:
        hash(card)
    except TypeError:
        raise TypeError(
            f"{where}: {noun} {card!r} ({type(card).__name__}) is not hashable; "
            f"{noun}s must be hashable values such as str, int, tuple or a frozen dataclass"
        ) from None


def _same_card(first: object, card: object, where: str) -> None:
    """Refuse ``card`` when the deck holds ``first``, equal to it in Python but not the
    same value (``1`` and ``True``, ``1`` and ``1.0``): a deck keyed by ``==`` would
    merge two cards a spec can tell apart (``str(card)``), silently."""
    if first is card or not _differ(first, card):
        return
    # Keyed as values (equal frozensets are one card, whatever their order), with all
    # they hold (a dataclass field its == does not compare: a review).
    from drawdsl.keys import content_key  # drawdsl.keys reads drawdsl.probes, which reads this module

    if content_key(first) != content_key(card):
        raise InvalidArgument(
            f"{where}: the cards {first!r} ({type(first).__name__}) and {card!r} "
            f"({type(card).__name__}) are equal in Python but different values; a deck "
            "would count them as one card, though a spec can tell them apart; give "
            "cards that differ (for example both as str)"
        )


def _same_counts(mine: Mapping[Any, Any], theirs: Mapping[Any, Any]) -> bool:
    """Equal counts of the same cards: equal by ``==``, and the same values (1 is not True)."""
    if mine != theirs:
        return False
    from drawdsl.keys import outcome_key

    keys = {outcome_key(card) for card in mine}
    return all(outcome_key(card) in keys for card in theirs)


def _differ(a: object, b: object) -> bool:
    """Whether two equal cards may be different values (the quick test before the full one)."""
    return type(a) is not type(b) or type(a) not in (str, int, bytes)


def _check_count(card: object, count: object, where: str) -> int:
    if isinstance(count, bool) or not isinstance(count, int):
        raise TypeError(
            f"{where}: card {card!r} has count {count!r} ({type(count).__name__}); "
            "counts must be positive integers"
        )
    if count <= 0:
        raise InvalidArgument(
            f"{where}: card {card!r} has count {count}; every count must be a positive "
            "integer (leave the card out instead of giving it count 0)"
        )
    return count


#: The most cards a deck may hold: ``len()`` cannot report more (``sys.maxsize``, 2**63 - 1).
MAX_CARDS = sys.maxsize


def _check_size(size: int, where: str) -> int:
    if size > MAX_CARDS:
        raise InvalidArgument(
            f"{where}: the deck would hold {size} cards, more than {MAX_CARDS} "
            "(2**63 - 1, the most len() can report); use a Weighted source for "
            "draws from a practically endless supply"
        )
    return size


#: A deck's probe plan not made yet (``Cards._plan``).
_NO_PLAN: Any = object()


class Cards(Generic[C]):
    """An immutable, hashable multiset of cards.

    Build it from an iterable of cards (repeats count) or from a mapping
    ``card -> count``.  Order is kept for display but never matters for equality.

    >>> Cards(["x", "y", "x"]) == Cards({"y": 1, "x": 2})
    True
    """

    __slots__ = ("_counts", "_size", "_hash", "_plan")

    _counts: dict[C, int]

    def __init__(self, cards: Iterable[C] | Mapping[C, int] = ()) -> None:
        counts: dict[C, int] = {}
        if isinstance(cards, Cards):
            counts = dict(cards._counts)
        elif isinstance(cards, Mapping):
            for card, count in cards.items():
                _check_card(card, "counts")
                counts[card] = _check_count(card, count, "counts")
        elif isinstance(cards, Iterable):
            firsts: dict[C, C] = {}
            for card in cards:
                _check_card(card, "cards")
                _same_card(firsts.setdefault(card, card), card, "cards")
                counts[card] = counts.get(card, 0) + 1
        else:
            raise TypeError(
                f"cards: expected an iterable of cards or a mapping card -> count, got {cards!r}"
            )
        self._counts = counts
        self._size = _check_size(sum(counts.values()), "counts" if isinstance(cards, Mapping) else "cards")
        self._hash: int | None = None
        #: How the evaluator probes this deck (drawdsl.probes.ProbePlan.of), made once.
        self._plan: Any = _NO_PLAN

    @classmethod
    def _trusted(cls, counts: dict[D, int]) -> Cards[D]:
        """Wrap counts already known to be valid (internal, skips checks)."""
        deck: Cards[D] = object.__new__(cls)  # type: ignore[arg-type, assignment]
        deck._counts = counts
        deck._size = sum(counts.values())
        deck._hash = None
        deck._plan = _NO_PLAN
        return deck

    def __len__(self) -> int:
        return self._size

    @property
    def size(self) -> int:
        """The number of cards, repeats included (``len(deck)``)."""
        return self._size

    def count(self, card: C) -> int:
        """How many copies of ``card`` the deck holds (0 if none).

        >>> Cards("aab").count("a")
        2
        """
        return self._counts.get(card, 0)

    def distinct(self) -> tuple[C, ...]:
        """The distinct cards, in first-seen order.

        >>> Cards("abab").distinct()
        ('a', 'b')
        """
        return tuple(self._counts)

    def items(self) -> Iterator[tuple[C, int]]:
        """Pairs ``(card, count)``."""
        return iter(self._counts.items())

    def counts(self) -> dict[C, int]:
        """A fresh dict ``card -> count``."""
        return dict(self._counts)

    def __iter__(self) -> Iterator[C]:
        """Every card, repeats included."""
        for card, count in self._counts.items():
            for _ in range(count):
                yield card

    def __contains__(self, card: object) -> bool:
        return card in self._counts

    def remove(self, card: C, n: int = 1) -> Cards[C]:
        """The deck without ``n`` copies of ``card``.

        >>> Cards("aab").remove("a", 2)
        Cards({'b': 1})
        """
        have = self._counts.get(card, 0)
        if isinstance(n, bool) or not isinstance(n, int):
            raise TypeError(f"remove: n must be a non-negative int, got {n!r} ({type(n).__name__})")
        if n < 0:
            raise InvalidArgument(f"remove: n must be a non-negative int, got {n!r}")
        if n > have:
            raise InvalidArgument(
                f"remove: the deck holds {have} of {card!r}, cannot remove {n}"
            )
        counts = dict(self._counts)
        if n == have:
            counts.pop(card, None)
        else:
            counts[card] = have - n
        return Cards._trusted(counts)

    def __sub__(self, other: Iterable[C] | Cards[C]) -> Cards[C]:
        """Remove every card of ``other`` (for example a known hand).

        >>> Cards("aabc") - Cards("ab")
        Cards({'a': 1, 'c': 1})
        """
        deck = self
        for card, n in Cards(other).items():
            deck = deck.remove(card, n)
        return deck

    def __add__(self, other: Iterable[C] | Cards[C]) -> Cards[C]:
        """The union with repeats added (two decks shuffled together).

        >>> Cards("ab") + Cards("b")
        Cards({'a': 1, 'b': 2})
        """
        counts = dict(self._counts)
        for card, n in Cards(other).items():
            if card in counts:
                # The card the dict found (by identity first, as a dict looks up: a NaN).
                _same_card(next(held for held in counts if held is card or held == card), card, "+")
            counts[card] = counts.get(card, 0) + n
        _check_size(sum(counts.values()), "+")
        return Cards._trusted(counts)

    def map(self, aspect: Callable[[C], D]) -> Cards[D]:
        """Map every card to an aspect (its rank, its suit), merging counts.

        Drawing from the mapped deck is exact and much faster whenever the spec only
        looks at that aspect: 52 cards become 13 ranks or 4 suits.

        >>> Cards(["AS", "AH", "KS"]).map(lambda card: card[0])
        Cards({'A': 2, 'K': 1})
        """
        counts: dict[D, int] = {}
        firsts: dict[D, D] = {}
        for card, n in self._counts.items():
            new = aspect(card)
            _check_card(new, "map")
            _same_card(firsts.setdefault(new, new), new, "map")
            counts[new] = counts.get(new, 0) + n
        return Cards._trusted(counts)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Cards) and _same_counts(self._counts, other._counts)

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(frozenset(self._counts.items()))
        return self._hash

    def __repr__(self) -> str:
        return f"Cards({self._counts!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (Cards, (self._counts,))
