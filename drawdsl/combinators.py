"""The combinator catalogue, each a few lines on top of the four forms and :func:`loop`.

They cover Haskell game-probability's ``Cards.Hand`` (``drawWhere``, ``drawUntil``,
``drawCount``, ``drawSame``, ``drawGroups``, ``interleave``...).  Values that hold
several cards are tuples, in the order the cards were drawn.  Every combinator is
keyed, so the exact evaluator merges the paths that reach the same state.

>>> from drawdsl import Cards, chance, chances
>>> ranks = Cards({"A": 4, "K": 4, "Q": 4})
>>> chance(draw_groups([3, 2]), ranks)  # a full house in five cards
Fraction(2, 11)
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Any, TypeVar

from drawdsl.errors import InvalidArgument
from drawdsl.spec import (
    FAIL,
    STEP_TYPES,
    Spec,
    _Any,
    _Bind,
    _check_spec,
    _Done,
    _Draw,
    _Fail,
    _key_or_none,
    _OrElse,
    _spec_or_raise,
    fixed_reads,
    loop,
    whnf,
)

__all__ = [
    "ensure",
    "draw_where",
    "draw_until",
    "draw_count",
    "draw_many",
    "draw_same",
    "draw_same_on",
    "draw_groups",
    "draw_groups_on",
    "interleave",
    "sequence",
    "replicate",
]

C = TypeVar("C")
V = TypeVar("V")
W = TypeVar("W")


class _Step:
    """A step or continuation ``fn(params, *args)`` that compares equal by ``(fn, params)``.

    Sharing one ``fn`` and comparing parameters by value is what lets two uses of a
    combinator with the same arguments merge in the exact evaluator.
    """

    __slots__ = ("fn", "params", "_key", "_hash")

    def __init__(self, fn: Callable[..., Any], *params: Any) -> None:
        self.fn = fn
        self.params = params
        self._key = _key_or_none((fn, params))
        self._hash = hash(self._key) if self._key is not None else id(self)

    def __call__(self, *args: Any) -> Any:
        return self.fn(self.params, *args)

    def __reduce__(self) -> tuple[Any, ...]:
        # Rebuilt from fn and params: the strict key holds types that do not pickle.
        return (_Step, (self.fn, *self.params))

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        return (
            type(other) is _Step
            and self._key is not None
            and self._hash == other._hash
            and self._key == other._key
        )

    def __hash__(self) -> int:
        return self._hash

    def _name(self) -> str:
        return self.fn.__name__.strip("_")

    def reads(self, state: Any) -> int:
        """For a loop step: exactly how many more cards its loop reads from ``state``
        before finishing, whatever they are, or -1 when that depends on the cards."""
        form = _READS.get(self.fn)
        return -1 if form is None else form(self.params, state)

    def reads_after(self) -> int:
        """As the function of a bind: exactly how many cards the rest reads after the
        first spec finishes, whatever they are, or -1."""
        form = _READS_AFTER.get(self.fn)
        return -1 if form is None else form(self.params)

    def sees(self) -> Callable[[Any], Any] | None:
        """For a loop step: the function through which alone it looks at a card (the
        user's predicate), or None when it looks at the card itself."""
        form = _SEES.get(self.fn)
        return None if form is None else form(self.params)

    def counted(self, state: Any) -> Spec[Any] | None:
        """The loop ``loop(state, self).map(len)`` written to count, when this step has one."""
        form = _COUNTED.get(self.fn)
        return None if form is None else form(self.params, state)


def _positive(func: str, arg: str, value: object, minimum: int = 1) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{func}: {arg} must be an int, got {value!r} ({type(value).__name__})")
    if value < minimum:
        raise InvalidArgument(f"{func}: {arg} must be >= {minimum}, got {value}")
    return value


def _callable(func: str, arg: str, value: object) -> None:
    if not callable(value):
        raise TypeError(f"{func}: {arg} must be callable, got {value!r} ({type(value).__name__})")


def ensure(condition: bool) -> Spec[None]:
    """``done(None)`` if ``condition`` holds, else ``fail()`` (Haskell's ``ensure``/guard).

    >>> from drawdsl import Cards, chance, draw
    >>> chance(draw().bind(lambda c: ensure(c != "x")), Cards("xyz"))
    Fraction(2, 3)
    """
    return _Done(None) if condition else FAIL


def _where_step(params: tuple[Any], card: Any) -> Spec[Any]:
    (predicate,) = params
    return _Done(card) if predicate(card) else FAIL


def draw_where(predicate: Callable[[C], bool]) -> Spec[C]:
    """Draw one card; the path fails unless it satisfies ``predicate``.

    >>> from drawdsl import Cards, chances
    >>> chances(draw_where(lambda c: c != "c"), Cards("abc"))
    Distribution({'a': 1/3, 'b': 1/3}, failure=1/3)
    """
    _callable("draw_where", "predicate", predicate)
    step = _Step(_where_step, predicate)
    return _Draw(step, ("draw_where", step))


def _until_step(params: tuple[Any, int | None], state: tuple[Any, ...], card: Any) -> Any:
    predicate, limit = params
    cards = state + (card,)
    if predicate(card):
        return _Done(cards)
    if limit is not None and len(cards) >= limit:
        return FAIL
    return cards


def _until_count_step(params: tuple[Any, int | None], drawn: int, card: Any) -> Any:
    predicate, limit = params
    drawn += 1
    if predicate(card):
        return _Done(drawn)
    if limit is not None and drawn >= limit:
        return FAIL
    return drawn


def _until_counted(params: tuple[Any, int | None], state: Any) -> Spec[Any] | None:
    if type(state) is not tuple:
        return None
    return loop(len(state), _Step(_until_count_step, *params))


#: Steps whose loops can count instead of collecting cards, when mapped with ``len``.
_COUNTED: dict[Callable[..., Any], Callable[[Any, Any], Spec[Any] | None]] = {}


def draw_until(predicate: Callable[[C], bool], limit: int | None = None) -> Spec[tuple[C, ...]]:
    """Draw until a card satisfies ``predicate``; finish with all the cards drawn.

    Only the last card satisfies ``predicate``.  With a ``limit``, the path fails
    if none of the first ``limit`` cards does (and when the deck runs out).
    ``draw_until(predicate).map(len)`` (the position of the first such card) is
    evaluated as a count, without keeping the cards: fast on a whole deck.

    >>> from drawdsl import Cards, chances
    >>> chances(draw_until(lambda c: c == "A").map(len), Cards("AAxx"))
    Distribution({1: 1/2, 2: 1/3, 3: 1/6})
    >>> chances(draw_until(lambda c: c == "A", limit=1).map(len), Cards("AAxx"))
    Distribution({1: 1/2}, failure=1/2)
    """
    _callable("draw_until", "predicate", predicate)
    if limit is not None:
        _positive("draw_until", "limit", limit)
    return loop((), _Step(_until_step, predicate, limit))


_COUNTED[_until_step] = _until_counted

#: The loop steps that read a fixed number of cards whatever they are (see
#: :data:`drawdsl.spec.STEP_TYPES`): how many they still read from a state.
_READS: dict[Callable[..., Any], Callable[[Any, Any], int]] = {}
#: The loop steps that look at a card only through ``bool(params[0](card))`` (the
#: user's predicate), never keeping the card: what the predicate gives is all they see.
_SEES: dict[Callable[..., Any], Callable[[Any], Callable[[Any], Any]]] = {
    _until_count_step: lambda params: params[0],
}
#: For the bind continuations of replicate and sequence: what the rest reads (or -1).
_READS_AFTER: dict[Callable[..., Any], Callable[[Any], int]] = {}
STEP_TYPES.add(_Step)


def _count_step(params: tuple[Any, int], state: tuple[int, int], card: Any) -> Any:
    predicate, n = params
    drawn, count = state
    drawn += 1
    count += bool(predicate(card))
    return _Done(count) if drawn == n else (drawn, count)


def draw_count(predicate: Callable[[C], bool], n: int) -> Spec[int]:
    """Draw ``n`` cards and count those that satisfy ``predicate``.

    Not the same as drawing ``n`` cards that all satisfy it: this fails only when
    fewer than ``n`` cards are left.

    >>> from drawdsl import Cards, chances
    >>> chances(draw_count(lambda c: c == "A", 2), Cards("AAxx"))
    Distribution({0: 1/6, 1: 2/3, 2: 1/6})
    """
    _callable("draw_count", "predicate", predicate)
    _positive("draw_count", "n", n, minimum=0)
    if n == 0:
        return _Done(0)
    return loop((0, 0), _Step(_count_step, predicate, n))


_READS[_count_step] = lambda params, state: params[1] - state[0]
_SEES[_count_step] = lambda params: params[0]


def _many_step(params: tuple[int], state: tuple[Any, ...], card: Any) -> Any:
    (n,) = params
    cards = state + (card,)
    return _Done(cards) if len(cards) == n else cards


def draw_many(n: int) -> Spec[tuple[Any, ...]]:
    """Draw ``n`` cards and finish with them in draw order.

    With fewer than ``n`` cards left it can only read them all and fail; the exact
    evaluator sees that at once (``draw_many(53)`` on 52 cards answers in
    milliseconds, with ``expected_draws`` 52 as before).

    >>> from drawdsl import Cards, chances
    >>> chances(draw_many(2), Cards("ab"))
    Distribution({('a', 'b'): 1/2, ('b', 'a'): 1/2})
    """
    _positive("draw_many", "n", n, minimum=0)
    if n == 0:
        return _Done(())
    return loop((), _Step(_many_step, n))


_READS[_many_step] = lambda params, state: params[0] - len(state)


def _same_step(params: tuple[Any, int], state: tuple[Any, ...], card: Any) -> Any:
    aspect, n = params
    if state and aspect(card) != aspect(state[0]):
        return FAIL
    cards = state + (card,)
    return _Done(cards) if len(cards) == n else cards


def draw_same_on(aspect: Callable[[C], Hashable], n: int) -> Spec[tuple[C, ...]]:
    """Draw ``n`` cards that agree on ``aspect`` (the path fails at the first that does not).

    >>> from drawdsl import Cards, chance
    >>> chance(draw_same_on(str.lower, 2), Cards("aAb"))
    Fraction(1, 3)
    """
    _callable("draw_same_on", "aspect", aspect)
    _positive("draw_same_on", "n", n)
    return loop((), _Step(_same_step, aspect, n))


def _identity(card: Any) -> Any:
    return card


def _first(cards: tuple[Any, ...]) -> Any:
    return cards[0]


def draw_same(n: int) -> Spec[Any]:
    """Draw ``n`` identical cards; finish with that card.

    >>> from drawdsl import Cards, chances
    >>> chances(draw_same(2), Cards("aab"))
    Distribution({'a': 1/3}, failure=2/3)
    """
    return draw_same_on(_identity, n).map(_first)


def _group_key(group: tuple[Any, tuple[Any, ...]]) -> Any:
    return group[0]


def _sorted_if_possible(cards: tuple[Any, ...]) -> tuple[Any, ...]:
    try:
        return tuple(sorted(cards))
    except TypeError:
        return cards


def _groups_step(
    params: tuple[Any, tuple[int, ...], tuple[int, ...]],
    state: tuple[tuple[Any, tuple[Any, ...]], ...],
    card: Any,
) -> Any:
    aspect, sizes, targets = params
    a = aspect(card)
    groups = list(state)
    for i, (key, cards) in enumerate(groups):
        if key == a:
            groups[i] = (key, _sorted_if_possible((*cards, card)))
            break
    else:
        groups.append((a, (card,)))
    # A canonical state (groups sorted by aspect, cards sorted within a group) lets
    # paths that drew the same cards in another order merge.
    with contextlib.suppress(TypeError):
        groups.sort(key=_group_key)
    have = sorted((len(cards) for _, cards in groups), reverse=True)
    if len(have) > len(targets) or any(h > t for h, t in zip(have, targets, strict=False)):
        return FAIL
    if have != list(targets):
        return tuple(groups)
    # Complete: hand each requested size the first free group of that size.
    result = []
    free = [cards for _, cards in groups]
    for size in sizes:
        for j, cards in enumerate(free):
            if len(cards) == size:
                result.append(cards)
                del free[j]
                break
    return _Done(tuple(result))


def draw_groups_on(
    aspect: Callable[[C], Hashable], sizes: Sequence[int], *, _name: str = "draw_groups_on"
) -> Spec[tuple[tuple[C, ...], ...]]:
    """Draw cards forming groups of exactly the given sizes, equal within a group by ``aspect``.

    Distinct groups have distinct aspects: ``[2, 2]`` is two pairs, never four of a
    kind.  The cards may come in any order; the path fails at the first card that
    cannot fit.  The result lists one tuple per requested size, in the order of
    ``sizes``; among groups of equal size, the one with the smaller aspect comes
    first, and cards are sorted within a group (when aspects and cards can be
    ordered; otherwise in the order they were drawn).  Because the order of drawing
    is forgotten, paths merge and big hands stay fast.

    >>> from drawdsl import Cards, chance, standard_deck
    >>> ranks = standard_deck().map(lambda card: card.rank)
    >>> chance(draw_groups_on(_identity, [3, 2]), ranks)  # a full house
    Fraction(6, 4165)
    """
    _callable(_name, "aspect", aspect)
    if isinstance(sizes, (str, bytes)) or not isinstance(sizes, Iterable):
        raise TypeError(f"{_name}: sizes must be a sequence of ints, got {sizes!r}")
    sizes = tuple(sizes)
    for size in sizes:
        _positive(_name, "sizes", size)
    if not sizes:
        return _Done(())
    targets = tuple(sorted(sizes, reverse=True))
    return loop((), _Step(_groups_step, aspect, sizes, targets))


def draw_groups(sizes: Sequence[int]) -> Spec[tuple[tuple[Any, ...], ...]]:
    """:func:`draw_groups_on` with the cards themselves as the aspect.

    >>> from drawdsl import Cards, chances
    >>> chances(draw_groups([2, 1]), Cards("aab"))
    Distribution({(('a', 'a'), ('b',)): 1})
    """
    return draw_groups_on(_identity, sizes, _name="draw_groups")


# --------------------------------------------------------------------------- interleave


class _Interleave(Spec[tuple[Any, Any]]):
    """Both specs read the same deal, each card going to one of them, left first."""

    __slots__ = ("left", "right", "_hash")

    def __init__(self, left: Spec[Any], right: Spec[Any]) -> None:
        self.left = left
        self.right = right
        self._hash = hash(("interleave", left, right))

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        return (
            type(other) is _Interleave
            and self._hash == other._hash
            and self.left == other.left
            and self.right == other.right
        )

    def __hash__(self) -> int:
        return self._hash

    def __repr__(self) -> str:
        return f"interleave({self.left!r}, {self.right!r})"

    def _expand(self, avail: float) -> Spec[Any]:
        left = whnf(self.left, avail)
        right = whnf(self.right, avail)
        tl, tr = type(left), type(right)
        if tl is _Fail or tr is _Fail:
            return FAIL
        if tl is _Done:
            return _Bind(right, _Step(_pair_right, left.value))  # type: ignore[attr-defined]
        if tr is _Done:
            return _Bind(left, _Step(_pair_left, right.value))  # type: ignore[attr-defined]
        if tl is _Any and tr is _Any:
            return _Any(_OrElse(_Interleave(left.next, right), _Interleave(left, right.next)))  # type: ignore[attr-defined]
        step = _Step(_interleave_step, left, right)
        return _Draw(step, ("interleave", step))


def _pair_right(params: tuple[Any], y: Any) -> Spec[Any]:
    return _Done((params[0], y))


def _pair_left(params: tuple[Any], x: Any) -> Spec[Any]:
    return _Done((x, params[0]))


def _feed(head: Spec[Any], card: Any) -> Spec[Any]:
    """The spec after ``head`` (a seen or unseen draw) consumes ``card``."""
    if type(head) is _Any:
        return head.next  # type: ignore[attr-defined, no-any-return]
    k = head.k  # type: ignore[attr-defined]
    return _spec_or_raise(k(card), k, "the continuation")


def _interleave_step(params: tuple[Spec[Any], Spec[Any]], card: Any) -> Spec[Any]:
    left, right = params
    return _OrElse(_Interleave(_feed(left, card), right), _Interleave(left, _feed(right, card)))


def interleave(left: Spec[V], right: Spec[W]) -> Spec[tuple[V, W]]:
    """Run two specs on one deal, each card going to one of them; finish with both values.

    Every way of sharing the cards out is tried, favouring the left spec first, so
    ``interleave(draw_same(2), draw_same(3))`` draws a pair and a triple in any order.

    >>> from drawdsl import Cards, chance
    >>> is_a = lambda c: c == "a"
    >>> is_b = lambda c: c == "b"
    >>> chance(interleave(draw_where(is_a), draw_where(is_b)), Cards("ab"))
    Fraction(1, 1)
    """
    return _Interleave(_check_spec(left, "interleave", "left"), _check_spec(right, "interleave", "right"))


# --------------------------------------------------------------------------- sequences


def _sequence_next(params: tuple[tuple[Spec[Any], ...], int, tuple[Any, ...]], value: Any) -> Spec[Any]:
    specs, i, acc = params
    acc = acc + (value,)
    if i + 1 == len(specs):
        return _Done(acc)
    return _Bind(specs[i + 1], _Step(_sequence_next, specs, i + 1, acc))


def sequence(specs: Iterable[Spec[V]]) -> Spec[tuple[V, ...]]:
    """Run the specs one after another; finish with the tuple of their values.

    >>> from drawdsl import Cards, chances, draw
    >>> chances(sequence([draw(), draw()]).map("".join), Cards("ab"))
    Distribution({'ab': 1/2, 'ba': 1/2})
    """
    if isinstance(specs, Spec):
        raise TypeError("sequence: specs must be an iterable of specs, got a single spec; wrap it in a list")
    if not isinstance(specs, Iterable):
        raise TypeError(
            f"sequence: specs must be an iterable of specs, got {specs!r} ({type(specs).__name__})"
        )
    items = tuple(_check_spec(s, "sequence", "specs") for s in specs)
    if not items:
        return _Done(())
    return _Bind(items[0], _Step(_sequence_next, items, 0, ()))


def replicate(n: int, spec: Spec[V]) -> Spec[tuple[V, ...]]:
    """Run ``spec`` ``n`` times in a row; finish with the tuple of values.

    >>> from drawdsl import Cards, chance, draw_where
    >>> chance(replicate(2, draw_where(lambda c: c == "a")), Cards("aab"))
    Fraction(1, 3)
    """
    _positive("replicate", "n", n, minimum=0)
    _check_spec(spec, "replicate", "spec")
    if n == 0:
        return _Done(())
    # Unfolded one run at a time, so replicate(10**30, spec) costs nothing until it runs.
    return _Bind(spec, _Step(_replicate_next, spec, n, ()))


def _replicate_next(params: tuple[Spec[Any], int, tuple[Any, ...]], value: Any) -> Spec[Any]:
    spec, n, acc = params
    acc = acc + (value,)
    if len(acc) == n:
        return _Done(acc)
    return _Bind(spec, _Step(_replicate_next, spec, n, acc))


def _reads_of_all(specs: Sequence[Spec[Any]]) -> int:
    total = 0
    for spec in specs:
        n = fixed_reads(spec)
        if n < 0:
            return -1
        total += n
    return total


_READS_AFTER[_sequence_next] = lambda params: _reads_of_all(params[0][params[1] + 1:])


def _replicate_reads(params: tuple[Spec[Any], int, tuple[Any, ...]]) -> int:
    spec, n, acc = params
    each = fixed_reads(spec)
    return -1 if each < 0 else each * (n - len(acc) - 1)


_READS_AFTER[_replicate_next] = _replicate_reads

