"""The finished paths of an exact evaluation over a deck, per depth, as integer numerators.

Every path of depth ``d`` over ``n`` cards has the same denominator ``n!/(n-d)!``, so
a path only carries an integer (the product of the counts of the cards it drew); the
depths are put over one common denominator at the end.

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

__all__ = ["Outcomes", "record", "still_drawing"]


class Outcomes:
    """Integer numerators of finished paths, per depth."""

    __slots__ = ("ends", "fails")

    def __init__(self) -> None:
        self.ends: list[dict[Any, int]] = []
        self.fails: list[int] = []

    def at(self, depth: int) -> tuple[dict[Any, int], list[int]]:
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
        for d, end in enumerate(self.ends):
            s = scale[d]
            for value, num in end.items():
                totals[value] = totals.get(value, 0) + num * s
        failed = sum(num * scale[d] for d, num in enumerate(self.fails))
        if sum(totals.values()) + failed != big:  # pragma: no cover - an evaluator bug
            raise AssertionError("internal error: exact probabilities do not sum to 1")
        draws = sum(
            d * scale[d] * (sum(end.values()) + self.fails[d]) for d, end in enumerate(self.ends)
        )
        probs = {v: Fraction(num, big) for v, num in totals.items() if num}
        return Distribution._trusted(probs, Fraction(failed, big), Fraction(draws, big))


def record(value: Any, weight: int, end: dict[Any, int]) -> None:
    try:
        end[value] = end.get(value, 0) + weight
    except TypeError:
        raise TypeError(
            f"the spec finished with {value!r} ({type(value).__name__}), which is not "
            "hashable; finish with a hashable value (a tuple instead of a list, a "
            "frozenset instead of a set)"
        ) from None


def still_drawing(max_draws: int, live: int) -> StateLimitExceeded:
    """The error of a spec still drawing after ``max_draws`` draws (``live`` states left)."""
    return StateLimitExceeded(
        f"the spec is still drawing after max_draws={max_draws} draws "
        f"({live} live states); pass a larger max_draws, or "
        "make sure the process ends (a spec that can draw forever has no finite exact "
        "evaluation here)"
    )
