"""Distribution: the exact answer, outcomes -> Fraction with the failure mass explicit.

>>> from drawdsl import Cards, chances, draw
>>> dist = chances(draw().where(lambda c: c != "c"), Cards("aabc"))
>>> dist
Distribution({'a': 1/2, 'b': 1/4}, failure=1/4)
>>> dist["a"], dist.failure, dist.success
(Fraction(1, 2), Fraction(1, 4), Fraction(3, 4))
>>> dist.given_success()
Distribution({'a': 2/3, 'b': 1/3})
"""

from __future__ import annotations

import numbers
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from fractions import Fraction
from typing import Any, Generic, TypeVar

from drawdsl.errors import InvalidArgument
from drawdsl.keys import outcome_key

__all__ = ["Distribution"]

V = TypeVar("V", bound=Hashable)
W = TypeVar("W", bound=Hashable)


def _ordered(items: list[tuple[Any, Fraction]]) -> list[tuple[Any, Fraction]]:
    """Outcomes sorted by value when comparable, else by decreasing probability."""
    try:
        return sorted(items, key=lambda item: item[0])
    except TypeError:
        return sorted(items, key=lambda item: -item[1])


class Distribution(Mapping[V, Fraction], Generic[V]):
    """An exact probability distribution over outcomes, plus the failure mass.

    It is a read-only mapping ``outcome -> Fraction`` over the successful outcomes
    (a missing outcome has probability 0); ``failure`` is the mass of the paths that
    failed.  The outcome probabilities and ``failure`` always sum to exactly 1.

    Outcomes are told apart strictly, as the evaluator keys its states
    (:func:`~drawdsl.keys.strict_key`): ``0``, ``False`` and ``0.0`` are equal in
    Python but three outcomes here, since a spec that finishes with one or the other
    finished differently; ``d[0]`` is the chance of the int ``0`` only, and
    ``d.probability(lambda v: v == 0)`` adds them up.  A plain dict cannot hold both:
    ``dict(d)`` keeps one key with the other's probability (Python's dict assignment), so
    use :meth:`to_floats` or :meth:`to_sympy`, which add them up, or ``d.items()``.

    >>> d = Distribution({"x": Fraction(1, 3), "y": Fraction(2, 3)})
    >>> d.probability(lambda v: v == "x")
    Fraction(1, 3)
    >>> from drawdsl import Cards, chances, draw
    >>> chances(draw().map(lambda c: 0 if c == "a" else False), Cards("ab"))
    Distribution({0: 1/2, False: 1/2})
    """

    __slots__ = ("_probs", "_values", "_failure", "_draws")

    def __init__(
        self,
        probabilities: Mapping[V, Fraction | int],
        failure: Fraction | int = 0,
        expected_draws: Fraction | int | None = None,
    ) -> None:
        if not isinstance(probabilities, Mapping):
            raise TypeError(
                f"probabilities: expected a mapping outcome -> probability, got {probabilities!r}; "
                "use Distribution.from_pairs for (outcome, probability) pairs"
            )
        self._set(*_keyed(probabilities.items()), failure, expected_draws)

    def _set(
        self, probs: dict[Any, Fraction], values: dict[Any, V], failure: Fraction | int,
        expected_draws: Fraction | int | None,
    ) -> None:
        if isinstance(failure, (float, bool)) or not isinstance(failure, (int, Fraction)):
            raise TypeError(f"failure: got {failure!r}; give an exact int or Fraction")
        failure = Fraction(failure)
        if failure < 0:
            raise InvalidArgument(f"failure: must be >= 0, got {failure}")
        total = sum(probs.values(), failure)
        if total != 1:
            raise InvalidArgument(
                f"probabilities: outcomes and failure sum to {total}, not 1; "
                "pass a complete distribution"
            )
        self._probs = probs
        self._values = values
        self._failure = failure
        self._draws = None if expected_draws is None else Fraction(expected_draws)

    @classmethod
    def from_pairs(
        cls, pairs: Iterable[tuple[W, Fraction | int]], failure: Fraction | int = 0,
    ) -> Distribution[W]:
        """A distribution from ``(outcome, probability)`` pairs, adding up the pairs of one
        outcome (strictly: a dict could not hold both ``0`` and ``False``).

        >>> Distribution.from_pairs([(0, Fraction(1, 4)), (False, Fraction(1, 4)), (0, Fraction(1, 2))])
        Distribution({0: 3/4, False: 1/4})
        """
        dist: Distribution[W] = object.__new__(cls)  # type: ignore[arg-type, assignment]
        dist._set(*_keyed(pairs), failure, None)
        return dist

    @classmethod
    def _trusted(
        cls, probs: dict[Any, Fraction], values: dict[Any, W], failure: Fraction,
        expected_draws: Fraction | None = None,
    ) -> Distribution[W]:
        """Wrap ``probs`` (outcome key -> nonzero probability) and ``values`` (outcome key
        -> the outcome), keyed by :func:`~drawdsl.keys.outcome_key` (internal)."""
        dist: Distribution[W] = object.__new__(cls)  # type: ignore[arg-type, assignment]
        dist._probs = probs
        dist._values = values
        dist._failure = failure
        dist._draws = expected_draws
        return dist

    def _pairs(self) -> list[tuple[V, Fraction]]:
        values = self._values
        return [(values[key], p) for key, p in self._probs.items()]

    # -- mapping
    def __getitem__(self, outcome: V) -> Fraction:
        return self._probs.get(outcome_key(outcome), Fraction(0))

    def __iter__(self) -> Iterator[V]:
        return iter([self._values[key] for key in self._probs])

    def __len__(self) -> int:
        return len(self._probs)

    def __contains__(self, outcome: object) -> bool:
        try:
            return outcome_key(outcome) in self._probs
        except TypeError:
            return False

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Distribution):
            return self._failure == other._failure and self._probs == other._probs
        return NotImplemented

    def __hash__(self) -> int:
        return hash((frozenset(self._probs.items()), self._failure))

    # -- questions
    @property
    def failure(self) -> Fraction:
        """The probability that the spec failed."""
        return self._failure

    @property
    def expected_draws(self) -> Fraction | None:
        """The exact mean number of cards looked at (``draw_any`` discards not counted)
        before the spec finished or failed, when it came from :func:`~drawdsl.chances`.

        >>> from drawdsl import Cards, chances, draw_until
        >>> chances(draw_until(lambda c: c == "A"), Cards("AAxx")).expected_draws
        Fraction(5, 3)
        """
        return self._draws

    @property
    def success(self) -> Fraction:
        """The probability that the spec finished with some value (``1 - failure``)."""
        return 1 - self._failure

    def probability(self, predicate: Callable[[V], bool] | None = None) -> Fraction:
        """The chance of finishing with a value that satisfies ``predicate`` (any value if None).

        >>> Distribution({1: Fraction(1, 4), 2: Fraction(3, 4)}).probability(lambda v: v > 1)
        Fraction(3, 4)
        """
        if predicate is None:
            return self.success
        _callable("probability", "predicate", predicate)
        return sum((p for v, p in self._pairs() if predicate(v)), Fraction(0))

    def expectation(self, f: Callable[[V], Any] | None = None) -> Fraction:
        """The exact mean of ``f(outcome)`` (of the outcome itself if ``f`` is None).

        Defined only when nothing fails; otherwise call ``given_success()`` first.

        >>> Distribution({1: Fraction(1, 2), 3: Fraction(1, 2)}).expectation()
        Fraction(2, 1)
        """
        if self._failure:
            raise InvalidArgument(
                f"expectation: the spec fails with probability {self._failure}, so the mean "
                "is not defined; use .given_success().expectation() for the mean over successes"
            )
        if f is not None:
            _callable("expectation", "f", f)
        total = Fraction(0)
        for v, p in self._pairs():
            x: Any = v if f is None else f(v)
            if isinstance(x, float):
                raise TypeError(f"expectation: got the float {x!r} for {v!r}; return ints or Fractions")
            if not _rational(x):
                what = "the outcome" if f is None else f"f({v!r})"
                raise TypeError(
                    f"expectation: {what} is {x!r} ({type(x).__name__}), not a number; a mean needs "
                    "int or Fraction values: pass f, such as .expectation(len) or "
                    ".expectation(lambda v: v == 'A'), to average a number computed from each outcome"
                )
            total += p * x
        return total

    def given_success(self) -> Distribution[V]:
        """The distribution conditioned on not failing.

        >>> Distribution({"a": Fraction(1, 4)}, failure=Fraction(3, 4)).given_success()
        Distribution({'a': 1})
        """
        if not self._probs:
            raise InvalidArgument("given_success: the spec always fails; there is nothing to condition on")
        s = self.success
        probs = {key: p / s for key, p in self._probs.items()}
        return Distribution._trusted(probs, self._values, Fraction(0))

    def map(self, f: Callable[[V], W]) -> Distribution[W]:
        """The distribution of ``f(outcome)``, merging outcomes that map together (strictly:
        ``1`` and ``True`` stay apart, as everywhere in a distribution).

        >>> Distribution({1: Fraction(1, 2), -1: Fraction(1, 2)}).map(abs)
        Distribution({1: 1})
        """
        _callable("map", "f", f)
        probs: dict[Any, Fraction] = {}
        values: dict[Any, W] = {}
        for v, p in self._pairs():
            w = f(v)
            try:
                key = outcome_key(w)
            except TypeError:
                raise TypeError(
                    f"map: f({v!r}) is {w!r} ({type(w).__name__}), which is not hashable; "
                    "return a hashable value (a tuple instead of a list)"
                ) from None
            values.setdefault(key, w)
            probs[key] = probs.get(key, Fraction(0)) + p
        return Distribution._trusted(probs, values, self._failure, self._draws)

    def most_likely(self, n: int = 1) -> list[tuple[V, Fraction]]:
        """The ``n`` most likely outcomes with their probabilities, most likely first.

        >>> Distribution({"a": Fraction(1, 4), "b": Fraction(3, 4)}).most_likely()
        [('b', Fraction(3, 4))]
        """
        if isinstance(n, bool) or not isinstance(n, int):
            raise TypeError(f"most_likely: n must be a positive int, got {n!r} ({type(n).__name__})")
        if n < 1:
            raise InvalidArgument(f"most_likely: n must be a positive int, got {n!r}")
        items = _ordered(self._pairs())
        return sorted(items, key=lambda item: -item[1])[:n]

    # -- views
    def to_sympy(self) -> dict[V, Any]:
        """The outcome probabilities as ``sympy.Rational`` (failure under ``failure``), in a
        plain dict: outcomes equal in Python (``0`` and ``False``) share one entry, their
        probabilities added.

        >>> Distribution({"a": Fraction(1, 3)}, failure=Fraction(2, 3)).to_sympy()
        {'a': 1/3}
        """
        import sympy

        return {v: sympy.Rational(p.numerator, p.denominator) for v, p in self._merged().items()}

    def to_floats(self) -> dict[V, float]:
        """The outcome probabilities as floats (for plotting; never for further arithmetic).
        Like :meth:`to_sympy`, a plain dict: outcomes equal in Python share an entry.

        >>> Distribution.from_pairs([(0, Fraction(1, 4)), (False, Fraction(3, 4))]).to_floats()
        {0: 1.0}
        """
        return {v: float(p) for v, p in self._merged().items()}

    def _merged(self) -> dict[V, Fraction]:
        """The probabilities in a plain dict, where outcomes equal in Python (``0`` and
        ``False``) share one entry: their probabilities are added, never overwritten."""
        merged: dict[V, Fraction] = {}
        for v, p in self._pairs():
            merged[v] = merged.get(v, Fraction(0)) + p
        return merged

    def __repr__(self) -> str:
        body = ", ".join(f"{v!r}: {p}" for v, p in _ordered(self._pairs()))
        fail = f", failure={self._failure}" if self._failure else ""
        return f"Distribution({{{body}}}{fail})"

    def _repr_html_(self) -> str:
        """An HTML table with exact fractions, decimals and bars (for Jupyter)."""
        rows = []
        items: list[tuple[Any, Fraction]] = _ordered(self._pairs())
        if self._failure:
            items.append(("failure", self._failure))
        for v, p in items:
            width = round(200 * float(p))
            rows.append(
                f"<tr><td>{_html_escape(v)}</td><td>{p.numerator}/{p.denominator}</td>"
                f"<td>{float(p):.6g}</td><td><div style='background:#4c78a8;height:0.8em;"
                f"width:{width}px'></div></td></tr>"
            )
        return (
            "<table><thead><tr><th>outcome</th><th>P</th><th>&asymp;</th><th></th></tr></thead>"
            f"<tbody>{''.join(rows)}</tbody></table>"
        )

    def _repr_latex_(self) -> str:
        rows = [
            rf"{_latex_text(v)} & \frac{{{p.numerator}}}{{{p.denominator}}} & {float(p):.6g} \\"
            for v, p in _ordered(self._pairs())
        ]
        if self._failure:
            f = self._failure
            rows.append(rf"\text{{failure}} & \frac{{{f.numerator}}}{{{f.denominator}}} & {float(f):.6g} \\")
        return (
            r"$\begin{array}{lrr}\text{outcome} & P & \approx \\ \hline "
            + " ".join(rows)
            + r"\end{array}$"
        )


def _keyed(pairs: Iterable[tuple[Any, Any]]) -> tuple[dict[Any, Fraction], dict[Any, Any]]:
    """Check ``(outcome, probability)`` pairs and add them up by outcome key."""
    probs: dict[Any, Fraction] = {}
    values: dict[Any, Any] = {}
    for outcome, p in pairs:
        if isinstance(p, (float, bool)) or not isinstance(p, (int, Fraction)):
            raise TypeError(f"probabilities: {outcome!r} has {p!r}; give an exact int or Fraction")
        if p < 0:
            raise InvalidArgument(f"probabilities: {outcome!r} has negative probability {p}")
        if p:
            key = outcome_key(outcome)
            values.setdefault(key, outcome)
            probs[key] = probs.get(key, Fraction(0)) + Fraction(p)
    return probs, values


def _rational(value: object) -> bool:
    """An int, a Fraction or any other rational number (a sympy Rational): what a mean adds up."""
    return isinstance(value, numbers.Rational)


def _callable(method: str, arg: str, value: object) -> None:
    if not callable(value):
        raise TypeError(
            f"{method}: {arg} must be a function of the outcome, got {value!r} ({type(value).__name__})"
        )


def _html_escape(value: object) -> str:
    import html

    return html.escape(str(value))


def _latex_text(value: object) -> str:
    text = str(value)
    for ch in "\\{}$&#^_%~":
        text = text.replace(ch, "\\" + ch if ch not in "\\^~" else "")
    return rf"\text{{{text}}}"
