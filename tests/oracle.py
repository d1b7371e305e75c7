"""A brute-force oracle: run a spec on every ordering of a small deck.

Distinct orderings of a multiset are equally likely, so the exact probability of an
outcome is the share of orderings that end with it.  The interpreter below is
written independently of the exact evaluator: it walks one concrete deal
recursively, and gives ``or_else`` and ``interleave`` their per-deal meaning by
backtracking (re-running the other side on the same deal), where the library runs
both sides in lockstep.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from fractions import Fraction
from itertools import permutations
from typing import Any

from drawdsl import Cards, Distribution
from drawdsl.combinators import _feed, _Interleave
from drawdsl.spec import Spec, _Any, _Bind, _Cont, _Done, _Draw, _Fail, _OrElse, whnf

_NONE = None


def run(spec: Spec[Any], deal: Sequence[Any], pos: int = 0) -> tuple[Any, int] | None:
    """``(value, next position)`` of ``spec`` on ``deal`` from ``pos``, or None if it fails."""
    t = type(spec)
    if t is _Done:
        return spec.value, pos  # type: ignore[attr-defined]
    if t is _Fail:
        return None
    if t is _Draw:
        if pos >= len(deal):
            return None
        return run(spec.k(deal[pos]), deal, pos + 1)  # type: ignore[attr-defined]
    if t is _Any:
        if pos >= len(deal):
            return None
        return run(spec.next, deal, pos + 1)  # type: ignore[attr-defined]
    if t is _Bind:
        first = run(spec.m, deal, pos)  # type: ignore[attr-defined]
        if first is None:
            return None
        value, pos = first
        return run(spec.f(value), deal, pos)  # type: ignore[attr-defined]
    if t is _Cont:
        first = run(spec.spec, deal, pos)  # type: ignore[attr-defined]
        frames = spec.frames  # type: ignore[attr-defined]
        while first is not None and frames is not None:
            value, pos = first
            first = run(frames.f(value), deal, pos)
            frames = frames.rest
        return first
    if t is _OrElse:
        left = run(spec.left, deal, pos)  # type: ignore[attr-defined]
        return left if left is not None else run(spec.right, deal, pos)  # type: ignore[attr-defined]
    if t is _Interleave:
        return _interleave(spec.left, spec.right, deal, pos)  # type: ignore[attr-defined]
    # loop, keyed, generator syntax: unfold one step, then walk the result
    return run(spec._expand(len(deal) - pos), deal, pos)


def _interleave(left: Spec[Any], right: Spec[Any], deal: Sequence[Any], pos: int) -> tuple[Any, int] | None:
    avail = len(deal) - pos
    lh, rh = whnf(left, avail), whnf(right, avail)
    if type(lh) is _Fail or type(rh) is _Fail:
        return None
    if type(lh) is _Done:
        r = run(rh, deal, pos)
        return None if r is None else ((lh.value, r[0]), r[1])  # type: ignore[attr-defined]
    if type(rh) is _Done:
        r = run(lh, deal, pos)
        return None if r is None else ((r[0], rh.value), r[1])  # type: ignore[attr-defined]
    card = deal[pos]
    first = _interleave(_feed(lh, card), rh, deal, pos + 1)
    if first is not None:
        return first
    return _interleave(lh, _feed(rh, card), deal, pos + 1)


def orderings(deck: Cards[Any]) -> list[tuple[Any, ...]]:
    """Every distinct ordering of the deck (each equally likely)."""
    return sorted(set(permutations(list(deck))), key=repr)


def brute_force(spec: Spec[Any], deck: Cards[Any]) -> Distribution[Any]:
    """The exact distribution of ``spec`` by running it on every ordering of ``deck``."""
    deals = orderings(deck)
    counts: Counter[Any] = Counter()
    failures = 0
    for deal in deals:
        result = run(spec, deal)
        if result is None:
            failures += 1
        else:
            counts[result[0]] += 1
    n = len(deals)
    return Distribution({v: Fraction(c, n) for v, c in counts.items()}, Fraction(failures, n))
