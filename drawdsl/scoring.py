"""A loop that keeps a score: the cards move a state and add points, the total decides.

``scoring_loop(start, step, result)`` draws cards one by one: ``step(state, card)``
returns ``(next state, points)``, the points are added to a score that starts at 0,
and a next state of ``None`` stops the loop, as does running out of cards; the spec
then finishes with ``result(score)``.  The step never sees the score, so what happens
next depends on the state alone: the exact evaluator keeps, for each (deck left,
state), the whole distribution of the score in one packed integer
(:mod:`drawdsl.score_vectors`), where a :func:`~drawdsl.loop` holding the score in its
state keeps one state per score.  Every other interpreter draws it card by card.

>>> from drawdsl import Cards, chances
>>> def turn(state, card):  # a red scores 1, a black -1, to the end of the deck
...     return state, (1 if card == "R" else -1)
>>> chances(scoring_loop(0, turn, lambda lead: lead), Cards("RRRB"))
Distribution({2: 1})
>>> def first_three(seen, card):  # stop after three cards
...     return (None if seen == 2 else seen + 1), (1 if card == "R" else -1)
>>> chances(scoring_loop(0, first_three, lambda lead: lead), Cards("RRRB"))
Distribution({1: 3/4, 3: 1/4})
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, TypeVar

from drawdsl.combinators import _Step
from drawdsl.keys import strict_key
from drawdsl.spec import FAIL, Spec, _describe, _Done, _Draw

__all__ = ["scoring_loop", "advance", "finish"]

V = TypeVar("V")
W = TypeVar("W")


def advance(step: Callable[[Any, Any], Any], state: Any, card: Any) -> tuple[Any, int]:
    """``step(state, card)`` checked: ``(next state or None, points)``, points an int.

    >>> advance(lambda s, c: (s + 1, c == "R"), 0, "R")
    (1, True)
    """
    out = step(state, card)
    if not isinstance(out, tuple) or len(out) != 2:
        raise TypeError(
            f"scoring_loop: {_describe(step)} returned {out!r}; a step returns a pair "
            "(next state, points), with None as the next state to stop the loop"
        )
    nxt, points = out
    if not isinstance(points, int):
        raise TypeError(
            f"scoring_loop: {_describe(step)} returned points {points!r} "
            f"({type(points).__name__}); points must be an int (or a bool, counted as 0 or 1)"
        )
    if nxt is not None:
        try:
            hash(nxt)
        except TypeError:
            raise TypeError(
                f"scoring_loop: the state {nxt!r} ({type(nxt).__name__}) returned by "
                f"{_describe(step)} is not hashable; use tuples, frozensets or numbers"
            ) from None
    return nxt, points


def finish(result: Callable[[int], Any], score: int) -> Spec[Any]:
    """What the loop finishes with at ``score``: ``done(result(score))``, or a failure
    when ``result`` returns :func:`~drawdsl.fail` ``()``.

    >>> finish(lambda s: s * 2, 3)
    done(6)
    """
    value = result(score)
    if value is FAIL:
        return FAIL  # type: ignore[no-any-return]
    if isinstance(value, Spec):
        raise TypeError(
            f"scoring_loop: {_describe(result)} returned the spec {value!r} for the score "
            f"{score}; result returns the value to finish with (or fail() to drop the path)"
        )
    return _Done(value)


class _Scored(Spec[Any]):
    """A scoring loop at ``state`` with ``score`` so far.  Expands, for every
    interpreter, to a draw (or to its result when no card is left); the exact
    interpreter over a deck reads its fields instead (:mod:`drawdsl.score_vectors`)."""

    __slots__ = ("state", "score", "step", "result", "_key", "_hash")

    def __init__(
        self, state: Hashable, score: int, step: Callable[[Any, Any], Any], result: Callable[[int], Any]
    ) -> None:
        self.state = state
        self.score = score
        self.step = step
        self.result = result
        self._key = (strict_key(state), score)
        self._hash = hash(("scoring_loop", self._key, step, result))

    def __reduce__(self) -> tuple[Any, ...]:
        return (_Scored, (self.state, self.score, self.step, self.result))

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        return (
            type(other) is _Scored
            and self._hash == other._hash
            and self._key == other._key
            and (self.step is other.step or self.step == other.step)
            and (self.result is other.result or self.result == other.result)
        )

    def __hash__(self) -> int:
        return self._hash

    def __repr__(self) -> str:
        result, maps = self.result, []
        while type(result) is _Step and result.fn is _then:
            result, f = result.params
            maps.append(f".map({_describe(f)})")
        score = f", score={self.score}" if self.score else ""
        core = f"scoring_loop({self.state!r}, {_describe(self.step)}, {_describe(result)}{score})"
        return core + "".join(reversed(maps))

    def __call__(self, card: Any) -> Spec[Any]:
        """The spec after drawing ``card``."""
        nxt, points = advance(self.step, self.state, card)
        if nxt is None:
            return finish(self.result, self.score + points)
        return _Scored(nxt, self.score + points, self.step, self.result)

    def map(self, f: Callable[[Any], W]) -> Spec[W]:
        """Apply ``f`` to the final value: the same scoring loop with ``f`` after ``result``.

        >>> from drawdsl import Cards, chances
        >>> spec = scoring_loop(0, lambda s, c: (None, c == "R"), lambda n: n).map(str)
        >>> chances(spec, Cards("RB"))
        Distribution({'0': 1/2, '1': 1/2})
        """
        if not callable(f):
            raise TypeError(f"map: f must be callable, got {f!r}; pass a function value -> value")
        return _Scored(self.state, self.score, self.step, _Step(_then, self.result, f))

    def _expand(self, avail: float) -> Spec[Any]:
        if avail <= 0:
            return finish(self.result, self.score)
        return _Draw(self, ("scoring_loop", self))


def _then(params: tuple[Any, Any], score: int) -> Any:
    """``result`` followed by a map (a failure stays one)."""
    result, f = params
    value = result(score)
    return value if value is FAIL or isinstance(value, Spec) else f(value)


def scoring_loop(
    start: Hashable, step: Callable[[Any, Any], tuple[Any, int]], result: Callable[[int], V]
) -> Spec[V]:
    """Draw cards one by one, moving a hashable state and adding up points.

    ``step(state, card)`` returns ``(next state, points)``: ``points`` (an int; a bool
    counts as 0 or 1) is added to the score, which starts at 0.  The loop stops when
    the next state is ``None`` (after this card) or when no card is left (the deck is
    played out), and the spec finishes with ``result(score)``; return
    :func:`~drawdsl.fail` ``()`` from ``result`` to drop the path.  The step does not
    see the score, so write into the state only what decides the next moves, and
    leave the rest to the points.

    It gives the answers of ``loop((start, 0), ...)`` with the score in the state
    (and the deck's end as a stop); the exact evaluator over a deck keeps all the
    scores of a state in one packed integer instead of one state per score, and
    draws cards the step treats alike at every state it reaches as one (see
    :mod:`drawdsl.score_vectors`).  It does not merge decks that differ by a renaming
    of cards: when the state holds what cards were (the last rank, on 13 ranks),
    a plain :func:`~drawdsl.loop` can be faster.

    >>> from drawdsl import Cards, chances
    >>> def hearts(seen, card):  # five cards: how many hearts?
    ...     return (None if seen == 4 else seen + 1), card.endswith("h")
    >>> deck = Cards({"Ah": 1, "Kh": 1, "Qh": 1, "As": 1, "Ks": 1, "Qs": 1})
    >>> chances(scoring_loop(0, hearts, lambda n: n), deck)
    Distribution({2: 1/2, 3: 1/2})
    """
    if not callable(step):
        raise TypeError(
            f"scoring_loop: step must be callable, got {step!r}; pass a function "
            "(state, card) -> (next state, points)"
        )
    if not callable(result):
        raise TypeError(
            f"scoring_loop: result must be callable, got {result!r}; pass a function score -> value"
        )
    if start is None:
        raise TypeError(
            "scoring_loop: the start state is None, which means 'stopped'; start from another state"
        )
    try:
        hash(start)
    except TypeError:
        raise TypeError(
            f"scoring_loop: the start state {start!r} ({type(start).__name__}) is not hashable; "
            "use tuples, frozensets or numbers"
        ) from None
    return _Scored(start, 0, step, result)
