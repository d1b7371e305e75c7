"""A brute-force oracle: run a spec on every ordering of a small deck.

Distinct orderings of a multiset are equally likely, so the exact probability of an
outcome is the share of orderings that end with it.  The interpreter below is
written independently of the exact evaluator: it walks one concrete deal
recursively, and gives ``or_else`` and ``interleave`` their meaning by running each
side separately on the same deal and combining the results (cards read by either
side stay read), where the library runs both sides in lockstep.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from drawdsl import Cards, Distribution
from drawdsl.combinators import _feed, _Interleave
from drawdsl.spec import Spec, _Any, _Bind, _Cont, _Done, _Draw, _Fail, _OrElse, whnf

# A run's result: ("ok", value, next position) or ("fail", position where it failed).
Result = tuple[Any, ...]


def _or_else(left: Result, right: Result) -> Result:
    """Physical fallback: both sides read the same cards; cards read are never put back.

    If the left side succeeds, its result stands.  Otherwise the right side's value is
    used, and the next spec starts after the cards that *either* side had read.
    """
    if left[0] == "ok":
        return left
    if right[0] == "ok":
        return ("ok", right[1], max(left[1], right[2]))
    return ("fail", max(left[1], right[1]))


def run(spec: Spec[Any], deal: Sequence[Any], pos: int = 0) -> Result:
    """Run ``spec`` on ``deal`` from ``pos``."""
    t = type(spec)
    if t is _Done:
        return ("ok", spec.value, pos)  # type: ignore[attr-defined]
    if t is _Fail:
        return ("fail", pos)
    if t is _Draw:
        if pos >= len(deal):
            return ("fail", pos)
        return run(spec.k(deal[pos]), deal, pos + 1)  # type: ignore[attr-defined]
    if t is _Any:
        if pos >= len(deal):
            return ("fail", pos)
        return run(spec.next, deal, pos + 1)  # type: ignore[attr-defined]
    if t is _Bind:
        first = run(spec.m, deal, pos)  # type: ignore[attr-defined]
        if first[0] == "fail":
            return first
        return run(spec.f(first[1]), deal, first[2])  # type: ignore[attr-defined]
    if t is _Cont:
        result = run(spec.spec, deal, pos)  # type: ignore[attr-defined]
        frames = spec.frames  # type: ignore[attr-defined]
        while result[0] == "ok" and frames is not None:
            result = run(frames.f(result[1]), deal, result[2])
            frames = frames.rest
        return result
    if t is _OrElse:
        return _or_else(run(spec.left, deal, pos), run(spec.right, deal, pos))  # type: ignore[attr-defined]
    if t is _Interleave:
        return _interleave(spec.left, spec.right, deal, pos)  # type: ignore[attr-defined]
    # loop, keyed, generator syntax: unfold one step, then walk the result
    return run(spec._expand(len(deal) - pos), deal, pos)


def _interleave(left: Spec[Any], right: Spec[Any], deal: Sequence[Any], pos: int) -> Result:
    """Each card goes to the left spec if that can still succeed, else to the right one."""
    avail = len(deal) - pos
    lh, rh = whnf(left, avail), whnf(right, avail)
    if type(lh) is _Fail or type(rh) is _Fail:
        return ("fail", pos)
    if type(lh) is _Done:
        r = run(rh, deal, pos)
        return r if r[0] == "fail" else ("ok", (lh.value, r[1]), r[2])  # type: ignore[attr-defined]
    if type(rh) is _Done:
        r = run(lh, deal, pos)
        return r if r[0] == "fail" else ("ok", (r[1], rh.value), r[2])  # type: ignore[attr-defined]
    card = deal[pos]
    return _or_else(
        _interleave(_feed(lh, card), rh, deal, pos + 1),
        _interleave(lh, _feed(rh, card), deal, pos + 1),
    )


def orderings(deck: Cards[Any]) -> list[tuple[Any, ...]]:
    """Every distinct ordering of the deck (each equally likely), made one by one (the
    permutations of the multiset), not deduplicated from all ``n!`` orders of its cards:
    3 x 3 x 3 cards have 1,680 orderings, and 362,880 orders.

    >>> orderings(Cards("aab"))
    [('a', 'a', 'b'), ('a', 'b', 'a'), ('b', 'a', 'a')]
    """
    cards = list(deck.distinct())
    left = [deck.count(card) for card in cards]
    n = len(deck)
    found: list[tuple[Any, ...]] = []
    prefix: list[Any] = []

    def extend() -> None:
        if len(prefix) == n:
            found.append(tuple(prefix))
            return
        for i, card in enumerate(cards):
            if left[i]:
                left[i] -= 1
                prefix.append(card)
                extend()
                prefix.pop()
                left[i] += 1

    extend()
    return sorted(found, key=repr)


def brute_force(spec: Spec[Any], deck: Cards[Any]) -> Distribution[Any]:
    """The exact distribution of ``spec`` by running it on every ordering of ``deck``."""
    deals = orderings(deck)
    ends: list[tuple[Any, Fraction]] = []
    failures = 0
    n = len(deals)
    for deal in deals:
        result = run(spec, deal)
        if result[0] == "fail":
            failures += 1
        else:
            ends.append((result[1], Fraction(1, n)))
    # Outcomes equal in Python but of other types (0, False) stay apart, as in chances().
    return Distribution.from_pairs(ends, Fraction(failures, n))
