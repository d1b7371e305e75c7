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

import hashlib
import numbers
import random
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from concurrent.futures import Executor, Future
from fractions import Fraction
from typing import Any, Final, Generic, TypeVar

from drawdsl.cards import Cards
from drawdsl.errors import InvalidArgument, StateLimitExceeded, add_note
from drawdsl.estimates import Estimate, mean_interval, proportion
from drawdsl.html import table
from drawdsl.keys import outcome_key
from drawdsl.sources import Weighted
from drawdsl.spec import Spec, _Any, _Done, _Draw, _spec_or_raise, whnf

__all__ = ["FAILED", "Tally", "sample", "simulate", "play", "DEFAULT_RUN_DRAWS", "BLOCK"]

V = TypeVar("V", bound=Hashable)

#: Cards one random run may read (seen or unseen) before it stops with StateLimitExceeded:
#: a process over a weighted source that never ends must not run forever.
DEFAULT_RUN_DRAWS = 1_000_000

#: Runs per block in :func:`simulate`: block ``i`` has its own seed, derived from the
#: seed and ``i`` only, so a tally never depends on how the blocks are spread over workers.
BLOCK = 10_000


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


def _walk(spec: Spec[Any], next_card: Any, avail: float, max_draws: float = float("inf")) -> Any:
    """Run ``spec`` reading cards from ``next_card()``; ``avail`` cards are left.

    An exception from the user's own functions propagates unchanged, with a note
    saying after which draw and on which card it was raised.
    """
    draws = 0
    card: Any = None
    try:
        head = whnf(spec, avail)
        while True:
            t = type(head)
            if t is _Draw or t is _Any:
                if draws >= max_draws:
                    raise StateLimitExceeded(
                        f"the run is still drawing after max_draws={max_draws} cards; pass a larger "
                        "max_draws, or make sure the process ends (a spec that can draw forever "
                        "never finishes a random run)"
                    )
                card = next_card()
                draws += 1
                avail -= 1
                if t is _Draw:
                    k = head.k  # type: ignore[attr-defined]
                    head = whnf(_spec_or_raise(k(card), k, "the continuation"), avail)
                else:
                    head = whnf(head.next, avail)  # type: ignore[attr-defined]
            elif t is _Done:
                return head.value  # type: ignore[attr-defined]
            else:
                return FAILED
    except StateLimitExceeded:
        raise
    except Exception as err:
        where = f"after draw {draws} (card {card!r})" if draws else "before the first draw"
        add_note(err, f"drawdsl: raised while running the spec {where}")
        raise


def play(spec: Spec[V], deal: Iterable[Any]) -> V | _Failed:
    """Run ``spec`` on one concrete deal (cards in the order they are turned).

    Returns the spec's value, or ``FAILED`` if it fails or runs out of cards.

    >>> from drawdsl import draw_where
    >>> play(draw_where(lambda c: c == "A"), "KA")
    FAILED
    """
    if not isinstance(spec, Spec):
        raise TypeError(f"play: spec must be a Spec, got {spec!r} ({type(spec).__name__})")
    if not isinstance(deal, Iterable):
        raise TypeError(
            f"play: deal must be an iterable of cards in the order they are turned, got {deal!r} "
            f"({type(deal).__name__})"
        )
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


def _run_limit(max_draws: int | None) -> int:
    if max_draws is None:
        return DEFAULT_RUN_DRAWS
    if isinstance(max_draws, bool) or not isinstance(max_draws, int):
        raise TypeError(f"max_draws must be an int, got {max_draws!r} ({type(max_draws).__name__})")
    if max_draws <= 0:
        raise InvalidArgument(f"max_draws must be a positive int, got {max_draws}")
    return max_draws


def sample(
    spec: Spec[V],
    source: Cards[Any] | Weighted[Any],
    rng: random.Random | int,
    *,
    max_draws: int | None = None,
) -> V | _Failed:
    """One random run of ``spec`` on ``source``: its value, or ``FAILED``.

    ``rng`` is a ``random.Random`` (advanced by the call) or an int seed.  A run that
    reads more than ``max_draws`` cards (default :data:`DEFAULT_RUN_DRAWS`) stops with
    :class:`~drawdsl.StateLimitExceeded`: a process that never ends cannot hang.

    >>> from drawdsl import coin, draw
    >>> sample(draw(), coin(), rng=3) in ("H", "T")
    True
    """
    if not isinstance(spec, Spec):
        raise TypeError(f"sample: spec must be a Spec, got {spec!r}")
    limit = _run_limit(max_draws)
    r = _rng(rng)
    if isinstance(source, Cards):
        return _walk(spec, _deck_drawer(source, r), len(source), limit)  # type: ignore[no-any-return]
    if isinstance(source, Weighted):
        return _walk(spec, _weighted_drawer(source, r), float("inf"), limit)  # type: ignore[no-any-return]
    raise TypeError(
        f"sample: source must be Cards or Weighted, got {source!r} ({type(source).__name__})"
    )


class Tally(Mapping[V, int], Generic[V]):
    """Counts of the outcomes of ``n`` random runs; ``failures`` counts the failed runs.

    Estimates with confidence intervals: :meth:`probability` and :meth:`mean_interval`.

    >>> t = Tally({"a": 3, "b": 1}, failures=1)
    >>> t.n, t["a"], t.frequency("a")
    (5, 3, Fraction(3, 5))
    >>> print(t.probability(lambda v: v == "a"))
    0.6 [0.2307, 0.8824]
    """

    __slots__ = ("_counts", "_values", "failures", "n")

    def __init__(self, counts: Mapping[V, int], failures: int = 0) -> None:
        if not isinstance(counts, Mapping):
            raise TypeError(f"Tally: counts must be a mapping outcome -> count, got {counts!r}")
        for outcome, count in [*counts.items(), ("failures", failures)]:
            if isinstance(count, bool) or not isinstance(count, int):
                raise TypeError(f"Tally: {outcome!r} has count {count!r}; counts must be ints")
            if count < 0:
                raise InvalidArgument(f"Tally: {outcome!r} has count {count}; counts must be >= 0")
        # Outcomes are told apart strictly, as in a Distribution (0, False and 0.0 are three).
        self._counts: dict[Any, int] = {}
        self._values: dict[Any, V] = {}
        for outcome, count in counts.items():
            self._add(outcome, count)
        self.failures = failures
        self.n = sum(self._counts.values()) + failures

    def _add(self, outcome: V, count: int) -> None:
        key = outcome_key(outcome)
        self._values.setdefault(key, outcome)
        self._counts[key] = self._counts.get(key, 0) + count

    def _pairs(self) -> list[tuple[V, int]]:
        return [(self._values[key], count) for key, count in self._counts.items()]

    def __getitem__(self, outcome: V) -> int:
        return self._counts.get(outcome_key(outcome), 0)

    def __iter__(self) -> Iterator[V]:
        return iter([self._values[key] for key in self._counts])

    def __len__(self) -> int:
        return len(self._counts)

    def frequency(self, outcome: V) -> Fraction:
        """The observed fraction of runs that finished with ``outcome``."""
        return Fraction(self[outcome], self.n)

    def probability(
        self,
        predicate: Callable[[V], bool] | None = None,
        *,
        confidence: float = 0.95,
        method: str = "wilson",
    ) -> Estimate:
        """The chance of finishing with a value that satisfies ``predicate`` (any value if
        None), estimated from the runs: the observed fraction with a confidence interval.

        ``method`` is ``"wilson"`` (Wilson's score interval) or ``"exact"``
        (Clopper-Pearson); see :func:`drawdsl.estimates.proportion`.  Failed runs count
        as runs that did not satisfy it, as in :meth:`Distribution.probability`.

        >>> t = Tally({1: 30, 2: 60}, failures=10)
        >>> print(t.probability(lambda v: v > 1))
        0.6 [0.502, 0.6906]
        >>> print(t.probability(lambda v: v > 2, method="exact"))
        0 (≤ 0.03622 at 95%)
        """
        if predicate is None:
            hits = self.n - self.failures
        else:
            if not callable(predicate):
                raise TypeError(
                    f"probability: predicate must be a function outcome -> bool, got {predicate!r}"
                )
            hits = sum(count for outcome, count in self._pairs() if predicate(outcome))
        return proportion(hits, self.n, confidence=confidence, method=method)

    def mean(self) -> Fraction:
        """The exact mean of the outcomes over the runs that did not fail (ints or Fractions).

        >>> Tally({1: 3, 2: 1}, failures=5).mean()
        Fraction(5, 4)
        """
        total, _, runs = self._moments("mean")
        if runs == 0:
            raise InvalidArgument("mean: every run failed, so there is no outcome to average")
        return Fraction(total, runs)

    def mean_interval(self, *, confidence: float = 0.95) -> Estimate:
        """The mean over the runs that did not fail, with the normal confidence interval.

        >>> print(Tally({2: 5, 4: 5}).mean_interval())
        3 [2.347, 3.653]
        """
        total, squares, runs = self._moments("mean_interval")
        return mean_interval(float(total), float(squares), runs, confidence=confidence)

    def _moments(self, method: str) -> tuple[Fraction, Fraction, int]:
        """The sum, the sum of squares and the number of the successful outcomes."""
        total = squares = Fraction(0)
        for outcome, count in self._pairs():
            if not isinstance(outcome, numbers.Rational):
                raise TypeError(
                    f"{method}: the outcome {outcome!r} ({type(outcome).__name__}) is not a number; "
                    "a mean needs int or Fraction outcomes (map the spec to a number first, "
                    "e.g. spec.map(len))"
                )
            total += count * Fraction(outcome)
            squares += count * Fraction(outcome) ** 2
        return total, squares, self.n - self.failures

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Tally):
            return self._counts == other._counts and self.failures == other.failures
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        body = ", ".join(f"{v!r}: {c}" for v, c in self._pairs())
        return f"Tally({{{body}}}, failures={self.failures})"

    def _repr_html_(self) -> str:
        """Counts and observed frequencies, most frequent first (for Jupyter).

        >>> "<td>a</td><td>3</td><td>0.6</td>" in Tally({"a": 3, "b": 2})._repr_html_()
        True
        """
        items = sorted(self._pairs(), key=lambda item: -item[1])
        rows: list[list[object]] = [[v, c, c / self.n] for v, c in items]
        if self.failures:
            rows.append(["(fails)", self.failures, self.failures / self.n])
        return table(["outcome", "runs", "frequency"], rows, caption=f"{self.n} runs")


def _block_seed(seed: int, block: int) -> int:
    """Block 0 uses the seed itself (so a short run is plain ``random.Random(seed)``);
    block ``i`` a number derived from ``(seed, i)`` alone, the same on every platform."""
    if block == 0:
        return seed
    digest = hashlib.sha256(f"drawdsl.simulate {seed} {block}".encode()).digest()
    return int.from_bytes(digest, "big")


def _run_block(
    job: tuple[Any, ...],
) -> tuple[list[tuple[Any, int]], int]:
    """``count`` runs with one generator: ((outcome, count) pairs, failures).  Module
    level: it pickles."""
    spec, source, rng, count, max_draws = job
    counts: Tally[Any] = Tally({})
    failures = 0
    for _ in range(count):
        value = sample(spec, source, rng, max_draws=max_draws)
        if value is FAILED:
            failures += 1
        else:
            counts._add(value, 1)
    return counts._pairs(), failures


def simulate(
    spec: Spec[V],
    source: Cards[Any] | Weighted[Any],
    n: int,
    seed: int,
    *,
    max_draws: int | None = None,
    executor: Executor | None = None,
    chunk: int = BLOCK,
) -> Tally[V]:
    """Run ``spec`` on ``n`` random deals; same seed, same tally.

    The runs are cut into blocks of ``chunk`` runs; block 0 draws from
    ``random.Random(seed)`` and block ``i`` from a generator seeded by ``(seed, i)``,
    so the tally depends on ``seed``, ``n`` and ``chunk`` only: never on the
    ``executor`` (a ``concurrent.futures`` executor running the blocks in parallel)
    or its number of workers.  With an executor the spec and source must pickle
    (module-level functions, not lambdas).  ``seed`` may also be a ``random.Random``,
    used for all the runs in one stream (without an executor).  ``max_draws`` bounds
    the cards of one run, as in :func:`sample`.

    >>> from drawdsl import coin, draw
    >>> simulate(draw(), coin(), n=1000, seed=5) == simulate(draw(), coin(), n=1000, seed=5)
    True
    """
    if isinstance(n, bool) or not isinstance(n, int):
        raise TypeError(f"simulate: n must be an int, got {n!r}")
    if n < 0:
        raise InvalidArgument(f"simulate: n must be >= 0, got {n}")
    if isinstance(chunk, bool) or not isinstance(chunk, int):
        raise TypeError(f"simulate: chunk must be an int, got {chunk!r} ({type(chunk).__name__})")
    if chunk < 1:
        raise InvalidArgument(f"simulate: chunk must be >= 1, got {chunk}")
    if not isinstance(spec, Spec):
        raise TypeError(f"simulate: spec must be a Spec, got {spec!r}")
    if not isinstance(source, (Cards, Weighted)):
        raise TypeError(
            f"simulate: source must be Cards or Weighted, got {source!r} ({type(source).__name__})"
        )
    limit = _run_limit(max_draws)
    if isinstance(seed, random.Random):
        if executor is not None:
            raise TypeError(
                "simulate: with an executor, seed must be an int (each block derives its own "
                "generator from it), not a random.Random"
            )
        jobs: Iterable[tuple[Any, ...]] = [(spec, source, seed, n, limit)]
    else:
        _rng(seed)  # the same checks and message as sample's rng
        jobs = (
            (spec, source, random.Random(_block_seed(seed, i)), min(chunk, n - start), limit)
            for i, start in enumerate(range(0, n, chunk))
        )
    counts: Tally[Any] = Tally({})
    failures = 0
    finished = 0
    futures: list[Future[tuple[list[tuple[Any, int]], int]]] = []
    try:
        if executor is None:
            # One block at a time in this process; a Ctrl-C says how many deals were done.
            for job in jobs:
                rng, count = job[2], job[3]
                for _ in range(count):
                    value = sample(spec, source, rng, max_draws=limit)
                    if value is FAILED:
                        failures += 1
                    else:
                        counts._add(value, 1)
                    finished += 1
        else:
            # One task per block through submit (Dask's executor maps no generators), merged
            # in block order, so even the order of first appearance is the same.
            futures = [executor.submit(_run_block, job) for job in jobs]
            for future in futures:
                block_counts, block_failures = future.result()
                for value, count in block_counts:
                    counts._add(value, count)
                failures += block_failures
                finished += sum(count for _, count in block_counts) + block_failures
    except KeyboardInterrupt as err:
        # Ctrl-C: drop the blocks not started, and say how far the run got (the command
        # line prints it in one line).
        for future in futures:
            future.cancel()
        add_note(err, f"drawdsl: simulate had finished {finished:,} of {n:,} deals")
        raise
    counts.failures = failures
    counts.n = sum(counts._counts.values()) + failures
    return counts
