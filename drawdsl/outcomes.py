"""The finished paths of an exact evaluation over a deck, per depth, as integer numerators.

Every path of depth ``d`` over ``n`` cards has the same denominator ``n!/(n-d)!``, so
a path only carries an integer (the product of the counts of the cards it drew); the
depths are put over one common denominator at the end.  Finished values are kept
apart by :func:`~drawdsl.keys.outcome_key` (``1`` and ``True`` are two outcomes).

>>> out = Outcomes()
>>> end, fails = out.at(1)
>>> record("a", 1, end); fails[1] += 1
>>> out.distribution([1, 2])
Distribution({'a': 1/2}, failure=1/2)
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from drawdsl.distribution import Distribution
from drawdsl.errors import StateLimitExceeded
from drawdsl.keys import outcome_key

__all__ = ["Outcomes", "record", "still_drawing"]


class Outcomes:
    """Integer numerators of finished paths, per depth."""

    __slots__ = ("ends", "fails")

    def __init__(self) -> None:
        #: Per depth: outcome key -> [the value, its numerator] (see :func:`record`).
        self.ends: list[dict[Any, list[Any]]] = []
        self.fails: list[int] = []

    def at(self, depth: int) -> tuple[dict[Any, list[Any]], list[int]]:
        while len(self.ends) <= depth:
            self.ends.append({})
            self.fails.append(0)
        return self.ends[depth], self.fails

    def over_deck(self, n: int, depth: int) -> Distribution[Any]:
        """The distribution after ``depth`` draws from ``n`` cards (paths of depth ``d``
        over ``n!/(n-d)!``; trailing depths may hold nothing, and READ_REST records
        failures deeper than the last depth evaluated)."""
        self.at(depth)
        return self.distribution([math.perm(n, d) for d in range(len(self.ends))])

    def distribution(self, denominator_at: list[int]) -> Distribution[Any]:
        """Put every depth over the deepest depth's denominator: one division per outcome."""
        top = len(self.ends) - 1
        big = denominator_at[top]
        scale = [big // denominator_at[d] for d in range(top + 1)]
        totals: dict[Any, int] = {}
        values: dict[Any, Any] = {}
        ended = []
        for d, end in enumerate(self.ends):
            s = scale[d]
            at_depth = 0
            for key, (value, num) in end.items():
                values.setdefault(key, value)
                totals[key] = totals.get(key, 0) + num * s
                at_depth += num
            ended.append(at_depth)
        failed = sum(num * scale[d] for d, num in enumerate(self.fails))
        if sum(totals.values()) + failed != big:  # pragma: no cover - an evaluator bug
            raise AssertionError("internal error: exact probabilities do not sum to 1")
        draws = sum(d * scale[d] * (ended[d] + self.fails[d]) for d in range(top + 1))
        probs = {key: Fraction(num, big) for key, num in totals.items() if num}
        return Distribution._trusted(probs, values, Fraction(failed, big), Fraction(draws, big))


def record(value: Any, weight: int, end: dict[Any, list[Any]]) -> None:
    """Add ``weight`` paths finishing with ``value`` to ``end`` (one depth's outcomes)."""
    try:
        key = outcome_key(value)
    except TypeError:
        raise TypeError(
            f"the spec finished with {value!r} ({type(value).__name__}), which is not "
            "hashable; finish with a hashable value (a tuple instead of a list, a "
            "frozenset instead of a set)"
        ) from None
    entry = end.get(key)
    if entry is None:
        end[key] = [value, weight]
    else:
        entry[1] += weight


def still_drawing(max_draws: int, live: int) -> StateLimitExceeded:
    """The error of a spec still drawing after ``max_draws`` draws (``live`` states left)."""
    return StateLimitExceeded(
        f"the spec is still drawing after max_draws={max_draws} draws "
        f"({live} live states); pass a larger max_draws, or "
        "make sure the process ends (a spec that can draw forever has no finite exact "
        "evaluation here)"
    )
