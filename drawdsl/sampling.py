"""The random interpreter: run a spec on random deals, reproducibly.

Randomness always comes from an explicit seed or ``random.Random``: same seed,
same answer, and no global state is touched.

>>> from drawdsl import Cards, draw
>>> sample(draw(), Cards("ab"), rng=7) == sample(draw(), Cards("ab"), rng=7)
True
>>> tally = simulate(draw(), Cards("aab"), n=3000, seed=1)
>>> tally.n, sorted(tally)
(3000, ['a', 'b'])
>>> play(draw().bind(lambda a: draw().map(lambda b: a + b)), ["x", "y", "z"])
'xy'
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Hashable, Iterable, Iterator, Mapping
from fractions import Fraction
from typing import Any, Final, Generic, TypeVar

from drawdsl.cards import Cards
from drawdsl.errors import InvalidArgument, add_note
from drawdsl.html import table
from drawdsl.sources import Weighted
from drawdsl.spec import Spec, _Any, _Done, _Draw, _spec_or_raise, whnf

__all__ = ["FAILED", "Tally", "sample", "simulate", "play"]

V = TypeVar("V", bound=Hashable)


class _Failed:
    """The result of a run whose path failed (a singleton, ``FAILED``)."""

    __slots__ = ()
    _instance: _Failed | None = None

    def __new__(cls) -> _Failed:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "FAILED"

    def __reduce__(self) -> str:
        return "FAILED"

    def __bool__(self) -> bool:
        return False


#: What :func:`sample` and :func:`play` return when the spec fails on that deal.
FAILED: Final = _Failed()


def _rng(rng: random.Random | int) -> random.Random:
    if isinstance(rng, random.Random):
        return rng
    if isinstance(rng, bool) or not isinstance(rng, int):
        raise TypeError(
            f"rng must be a random.Random or an int seed, got {rng!r}; "
            "pass a seed such as 42 for a reproducible run"
        )
    return random.Random(rng)


def _walk(spec: Spec[Any], next_card: Any, avail: float) -> Any:
    """Run ``spec`` reading cards from ``next_card()``; ``avail`` cards are left."""
    head = whnf(spec, avail)
    while True:
        t = type(head)
        if t is _Draw:
            card = next_card()
            avail -= 1
            k = head.k  # type: ignore[attr-defined]
            head = whnf(_spec_or_raise(k(card), k, "the continuation"), avail)
        elif t is _Any:
            next_card()
            avail -= 1
            head = whnf(head.next, avail)  # type: ignore[attr-defined]
        elif t is _Done:
            return head.value  # type: ignore[attr-defined]
        else:
            return FAILED


def play(spec: Spec[V], deal: Iterable[Any]) -> V | _Failed:
    """Run ``spec`` on one concrete deal (cards in the order they are turned).

    Returns the spec's value, or ``FAILED`` if it fails or runs out of cards.

    >>> from drawdsl import draw_where
    >>> play(draw_where(lambda c: c == "A"), "KA")
    FAILED
    """
    cards = list(deal)
    it = iter(cards)
    return _walk(spec, it.__next__, len(cards))  # type: ignore[no-any-return]


def _deck_drawer(deck: Cards[Any], rng: random.Random) -> Any:
    cards = list(deck.distinct())
    counts = [deck.count(c) for c in cards]
    left = [len(deck)]

    def next_card() -> Any:
        r = rng.randrange(left[0])
        for i, count in enumerate(counts):
            if r < count:
                counts[i] -= 1
                left[0] -= 1
                return cards[i]
            r -= count
        raise AssertionError("unreachable")  # pragma: no cover

    return next_card


def _weighted_drawer(source: Weighted[Any], rng: random.Random) -> Any:
    cards = list(source.distinct())
    weights = [source.weight(c) for c in cards]
    total = source.total

    def next_card() -> Any:
        r = rng.randrange(total)
        for i, w in enumerate(weights):
            if r < w:
                return cards[i]
            r -= w
        raise AssertionError("unreachable")  # pragma: no cover

    return next_card


def sample(spec: Spec[V], source: Cards[Any] | Weighted[Any], rng: random.Random | int) -> V | _Failed:
    """One random run of ``spec`` on ``source``: its value, or ``FAILED``.

    ``rng`` is a ``random.Random`` (advanced by the call) or an int seed.

    >>> from drawdsl import coin, draw
    >>> sample(draw(), coin(), rng=3) in ("H", "T")
    True
    """
    if not isinstance(spec, Spec):
        raise TypeError(f"sample: spec must be a Spec, got {spec!r}")
    r = _rng(rng)
    if isinstance(source, Cards):
        return _walk(spec, _deck_drawer(source, r), len(source))  # type: ignore[no-any-return]
    if isinstance(source, Weighted):
        return _walk(spec, _weighted_drawer(source, r), float("inf"))  # type: ignore[no-any-return]
    raise TypeError(
        f"sample: source must be Cards or Weighted, got {source!r} ({type(source).__name__})"
    )


class Tally(Mapping[V, int], Generic[V]):
    """Counts of the outcomes of ``n`` random runs; ``failures`` counts the failed runs.

    >>> t = Tally({"a": 3, "b": 1}, failures=1)
    >>> t.n, t["a"], t.frequency("a")
    (5, 3, Fraction(3, 5))
    """

    __slots__ = ("_counts", "failures", "n")

    def __init__(self, counts: Mapping[V, int], failures: int = 0) -> None:
        self._counts = dict(counts)
        self.failures = failures
        self.n = sum(self._counts.values()) + failures

    def __getitem__(self, outcome: V) -> int:
        return self._counts.get(outcome, 0)

    def __iter__(self) -> Iterator[V]:
        return iter(self._counts)

    def __len__(self) -> int:
        return len(self._counts)

    def frequency(self, outcome: V) -> Fraction:
        """The observed fraction of runs that finished with ``outcome``."""
        return Fraction(self._counts.get(outcome, 0), self.n)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Tally):
            return self._counts == other._counts and self.failures == other.failures
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Tally({self._counts!r}, failures={self.failures})"

    def _repr_html_(self) -> str:
        """Counts and observed frequencies, most frequent first (for Jupyter).

        >>> "<td>a</td><td>3</td><td>0.6</td>" in Tally({"a": 3, "b": 2})._repr_html_()
        True
        """
        items = sorted(self._counts.items(), key=lambda item: -item[1])
        rows: list[list[object]] = [[v, c, c / self.n] for v, c in items]
        if self.failures:
            rows.append(["(fails)", self.failures, self.failures / self.n])
        return table(["outcome", "runs", "frequency"], rows, caption=f"{self.n} runs")


def simulate(spec: Spec[V], source: Cards[Any] | Weighted[Any], n: int, seed: int) -> Tally[V]:
    """Run ``spec`` on ``n`` random deals from a ``random.Random(seed)``; same seed, same tally.

    >>> from drawdsl import coin, draw
    >>> simulate(draw(), coin(), n=1000, seed=5) == simulate(draw(), coin(), n=1000, seed=5)
    True
    """
    if isinstance(n, bool) or not isinstance(n, int):
        raise TypeError(f"simulate: n must be an int, got {n!r}")
    if n < 0:
        raise InvalidArgument(f"simulate: n must be >= 0, got {n}")
    rng = _rng(seed)
    counts: Counter[Any] = Counter()
    failures = 0
    done = 0
    try:
        for done in range(n):  # noqa: B007 - read after an interrupt
            value = sample(spec, source, rng)
            if value is FAILED:
                failures += 1
            else:
                counts[value] += 1
    except KeyboardInterrupt as err:
        # Ctrl-C: say how far the run got (the command line prints it in one line).
        add_note(err, f"drawdsl: simulate had finished {done:,} of {n:,} deals")
        raise
    return Tally(counts, failures)

