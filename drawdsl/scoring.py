"""A loop that keeps a score: the cards move a state and add points, the total decides.

``scoring_loop(start, step, result)`` draws cards one by one: ``step(state, card)``
returns ``(next state, points)``, the points are added to a score that starts at 0,
and a next state of ``None`` stops the loop, as does running out of cards; the spec
then finishes with ``result(score)``.  The step never sees the score, so what happens
next depends on the state alone: the exact evaluator keeps, for each (deck left,
state), the whole distribution of the score in one packed integer
(:mod:`drawdsl.score_vectors`), where a :func:`~drawdsl.loop` holding the score in its
state keeps one state per score.  Every other interpreter draws it card by card.

With a *pot* (``pot={taker: multiplier}``), points go into the pot instead, and the
step says when someone takes it: the pot, times the taker's multiplier, goes to the
score (a trick won with all its cards).  What the pot holds is not in the state
either; the evaluator keeps one packed integer per multiplier.

>>> from drawdsl import Cards, chances
>>> def turn(state, card):  # a red scores 1, a black -1, to the end of the deck
...     return state, (1 if card == "R" else -1)
>>> chances(scoring_loop(0, turn, lambda lead: lead), Cards("RRRB"))
Distribution({2: 1})
>>> def first_three(seen, card):  # stop after three cards
...     return (None if seen == 2 else seen + 1), (1 if card == "R" else -1)
>>> chances(scoring_loop(0, first_three, lambda lead: lead), Cards("RRRB"))
Distribution({1: 3/4, 3: 1/4})
>>> def trick(state, card):  # two of a colour in a row: that colour takes the pot
...     if card == state:
...         return "", 1, card
...     return card, 1
>>> chances(scoring_loop("", trick, lambda lead: lead, pot={"R": 1, "B": -1}), Cards("RRBB"))
Distribution({-3: 1/6, 0: 2/3, 3: 1/6})
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from typing import Any, TypeVar

from drawdsl.combinators import _Step
from drawdsl.errors import InvalidArgument, NotASpec
from drawdsl.keys import outcome_key, strict_key
from drawdsl.spec import FAIL, Spec, _describe, _Done, _Draw

__all__ = ["scoring_loop", "advance", "finish"]

V = TypeVar("V")
W = TypeVar("W")


class Pot:
    """A scoring loop's pot: each taker's multiplier, and the multiplier of what is left
    in the pot when the loop ends (the key ``None``, 0 unless given).  Equal when the
    takers and multipliers are.

    >>> pot = Pot({"A": 1, "B": -1})
    >>> pot.multiplier("B"), pot.leftover
    (-1, 0)
    """

    __slots__ = ("takers", "leftover", "_names", "_items", "_hash")

    def __init__(self, pot: Mapping[Any, int]) -> None:
        if not isinstance(pot, Mapping):
            raise TypeError(
                f"scoring_loop: pot must be a mapping taker -> multiplier, got {pot!r} "
                f"({type(pot).__name__}); for example pot={{'A': 1, 'B': -1}}"
            )
        takers: dict[Any, int] = {}  # by the taker's outcome key: 1 and True are two takers
        names: dict[Any, Any] = {}
        for taker, times in pot.items():
            if isinstance(times, bool) or not isinstance(times, int):
                raise TypeError(
                    f"scoring_loop: the pot's multiplier for {taker!r} is {times!r} "
                    f"({type(times).__name__}); multipliers are ints (1: the pot is added to "
                    "the score, -1: taken from it, 0: dropped)"
                )
            if taker is None:
                continue
            key = outcome_key(taker)  # (a mapping's keys are hashable)
            takers[key] = times
            names[key] = taker
        #: Each taker's multiplier, by its outcome key (:func:`~drawdsl.keys.outcome_key`:
        #: equal values of the same types, as a finished value is matched).
        self.takers = takers
        #: The multiplier of what is left in the pot when the loop ends (the key None).
        self.leftover: int = pot.get(None, 0)
        self._names = names
        self._items = (frozenset(takers.items()), self.leftover)
        self._hash = hash(("pot", self._items))

    def multiplier(self, taker: Any) -> int:
        """The multiplier of ``taker`` (:class:`~drawdsl.InvalidArgument`, naming the
        takers, when it is not one)."""
        try:
            return self.takers[outcome_key(taker)]
        except (KeyError, TypeError):
            raise InvalidArgument(
                f"scoring_loop: {taker!r} takes the pot, but it is not one of the pot's takers "
                f"({', '.join(sorted(map(repr, self._names.values())))}); add it to pot= with its "
                "multiplier"
            ) from None

    def __eq__(self, other: object) -> bool:
        return type(other) is Pot and other._items == self._items

    def __hash__(self) -> int:
        return self._hash

    def mapping(self) -> dict[Any, int]:
        """The pot as given: taker -> multiplier (None: what is left at the end, when not 0)."""
        items = {self._names[key]: times for key, times in self.takers.items()}
        if self.leftover:
            items[None] = self.leftover
        return items

    def __repr__(self) -> str:
        return repr(self.mapping())

    def __reduce__(self) -> tuple[Any, ...]:
        return (Pot, (self.mapping(),))


def advance(
    step: Callable[[Any, Any], Any], state: Any, card: Any, pot: Pot | None = None
) -> tuple[Any, int, int | None]:
    """``step(state, card)`` checked: ``(next state or None, points, multiplier)``,
    points an int, multiplier that of the taker of the pot (None: nobody takes it;
    always None without a pot).

    >>> advance(lambda s, c: (s + 1, c == "R"), 0, "R")
    (1, True, None)
    >>> advance(lambda s, c: (s, 2, "B"), 0, "R", Pot({"A": 1, "B": -1}))
    (0, 2, -1)
    """
    out = step(state, card)
    if type(out) is not tuple and isinstance(out, tuple):
        out = tuple(out)  # (a named tuple)
    if type(out) is not tuple or not 2 <= len(out) <= 3:
        how = "(next state, points), or a triple (next state, points, taker)," if pot is not None else \
            "(next state, points)"
        raise NotASpec(
            f"scoring_loop: {_describe(step)} returned {out!r}; a step returns a pair {how}, with None "
            "as the next state to stop the loop"
        )
    if len(out) == 3 and pot is None:
        raise NotASpec(
            f"scoring_loop: {_describe(step)} returned {out!r}, three items, but the loop has no "
            "pot; a step returns (next state, points), or pass pot={taker: multiplier} to "
            "return (next state, points, taker)"
        )
    nxt, points = out[0], out[1]
    if not isinstance(points, int):
        raise NotASpec(
            f"scoring_loop: {_describe(step)} returned points {points!r} "
            f"({type(points).__name__}); points must be an int (or a bool, counted as 0 or 1)"
        )
    times = None
    if len(out) == 3 and out[2] is not None:
        times = pot.multiplier(out[2])  # type: ignore[union-attr]
    if nxt is not None:
        try:
            hash(nxt)
        except TypeError:
            raise NotASpec(
                f"scoring_loop: the state {nxt!r} ({type(nxt).__name__}) returned by "
                f"{_describe(step)} is not hashable; use tuples, frozensets or numbers"
            ) from None
    return nxt, points, times


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
        raise NotASpec(
            f"scoring_loop: {_describe(result)} returned the spec {value!r} for the score "
            f"{score}; result returns the value to finish with (or fail() to drop the path)"
        )
    return _Done(value)


class _Scored(Spec[Any]):
    """A scoring loop at ``state`` with ``score`` so far (and ``held`` points in its
    ``pot``, when it has one).  Expands, for every interpreter, to a draw (or to its
    result when no card is left); the exact interpreter over a deck reads its fields
    instead (:mod:`drawdsl.score_vectors`)."""

    __slots__ = ("state", "score", "step", "result", "pot", "held", "_key", "_hash")

    def __init__(
        self, state: Hashable, score: int, step: Callable[[Any, Any], Any], result: Callable[[int], Any],
        pot: Pot | None = None, held: int = 0,
    ) -> None:
        self.state = state
        self.score = score
        self.step = step
        self.result = result
        self.pot = pot
        self.held = held
        self._key = (strict_key(state), score, held)
        self._hash = hash(("scoring_loop", self._key, step, result, pot))

    def __reduce__(self) -> tuple[Any, ...]:
        return (_Scored, (self.state, self.score, self.step, self.result, self.pot, self.held))

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        return (
            type(other) is _Scored
            and self._hash == other._hash
            and self._key == other._key
            and (self.step is other.step or self.step == other.step)
            and (self.result is other.result or self.result == other.result)
            and self.pot == other.pot
        )

    def __hash__(self) -> int:
        return self._hash

    def __repr__(self) -> str:
        result, maps = self.result, []
        while type(result) is _Step and result.fn is _then:
            result, f = result.params
            maps.append(f".map({_describe(f)})")
        score = f", score={self.score}" if self.score else ""
        pot = "" if self.pot is None else f", pot={self.pot!r}" + (f", held={self.held}" if self.held else "")
        core = f"scoring_loop({self.state!r}, {_describe(self.step)}, {_describe(result)}{pot}{score})"
        return core + "".join(reversed(maps))

    def final(self, score: int, held: int) -> int:
        """The score when the loop ends at ``score`` with ``held`` points in the pot."""
        return score if self.pot is None else score + self.pot.leftover * held

    def __call__(self, card: Any) -> Spec[Any]:
        """The spec after drawing ``card``."""
        nxt, points, times = advance(self.step, self.state, card, self.pot)
        if self.pot is None:
            score, held = self.score + points, 0
        elif times is None:
            score, held = self.score, self.held + points
        else:
            score, held = self.score + times * (self.held + points), 0
        if nxt is None:
            return finish(self.result, self.final(score, held))
        return _Scored(nxt, score, self.step, self.result, self.pot, held)

    def map(self, f: Callable[[Any], W]) -> Spec[W]:
        """Apply ``f`` to the final value: the same scoring loop with ``f`` after ``result``.

        >>> from drawdsl import Cards, chances
        >>> spec = scoring_loop(0, lambda s, c: (None, c == "R"), lambda n: n).map(str)
        >>> chances(spec, Cards("RB"))
        Distribution({'0': 1/2, '1': 1/2})
        """
        if not callable(f):
            raise TypeError(f"map: f must be callable, got {f!r}; pass a function value -> value")
        return _Scored(self.state, self.score, self.step, _Step(_then, self.result, f), self.pot, self.held)

    def _expand(self, avail: float) -> Spec[Any]:
        if avail <= 0:
            return finish(self.result, self.final(self.score, self.held))
        return _Draw(self, ("scoring_loop", self))


def _then(params: tuple[Any, Any], score: int) -> Any:
    """``result`` followed by a map (a failure stays one)."""
    result, f = params
    value = result(score)
    return value if value is FAIL or isinstance(value, Spec) else f(value)


def scoring_loop(
    start: Hashable, step: Callable[[Any, Any], tuple[Any, ...]], result: Callable[[int], V],
    *, pot: Mapping[Any, int] | None = None,
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

    ``pot`` (a mapping ``taker -> multiplier``) sends the points into a pot instead of
    the score.  The step then returns ``(next state, points)`` or ``(next state,
    points, taker)``: with a taker, the pot (this card's points included) times the
    taker's multiplier goes to the score, and the pot is empty again.  What is left in
    the pot when the loop ends counts with the multiplier of the key ``None`` (0
    unless given: dropped).  A trick's cards going to whoever takes the trick is
    ``pot={"A": 1, "B": -1}`` with the score as A's lead; the state then need not count
    the trick's cards, and the evaluator keeps one packed integer per multiplier.

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
    return _Scored(start, 0, step, result, None if pot is None else Pot(pot))
