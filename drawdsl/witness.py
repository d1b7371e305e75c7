"""The witness interpreter: find one concrete deal that reaches a wanted outcome.

The search walks the spec depth first, card by card, and remembers the states
(remaining deck, pending discards, spec) from which nothing wanted can be reached,
so equal states met again along other paths are not explored twice.  When it
returns None, no deal at all reaches a wanted outcome: the search was exhaustive.

>>> from drawdsl import Cards, draw_many
>>> found = witness(draw_many(2), Cards("aab"), lambda cards: cards[1] == "b")
>>> found
Witness(deal=('a', 'b'), value=('a', 'b'), probability=Fraction(1, 3))
>>> witness(draw_many(2), Cards("aab"), lambda cards: cards == ("b", "b")) is None
True
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Generic, TypeVar

from drawdsl.cards import Cards
from drawdsl.errors import StateLimitExceeded
from drawdsl.exact import DEFAULT_MAX_STATES, _check_limit
from drawdsl.sources import Weighted
from drawdsl.spec import Spec, _Any, _Done, _Draw, _spec_or_raise, reads_rest, whnf

__all__ = ["Witness", "witness"]

V = TypeVar("V", bound=Hashable)
_INF = float("inf")


@dataclass(frozen=True)
class Witness(Generic[V]):
    """A deal reaching a wanted outcome: ``play(spec, deal) == value``.

    ``deal`` lists every card the spec reads, in order, including the cards it
    discards unseen (any cards left in the deck serve for those).  ``probability``
    is the chance that a random deal starts with exactly the cards this path *looked
    at* (the discarded positions may hold anything).
    """

    deal: tuple[Any, ...]
    value: V
    probability: Fraction


def _always(value: Any) -> bool:
    return True


def witness(
    spec: Spec[V],
    source: Cards[Any] | Weighted[Any],
    wanted: Callable[[V], bool] | None = None,
    *,
    max_states: int = DEFAULT_MAX_STATES,
) -> Witness[V] | None:
    """A concrete deal on which ``spec`` finishes with a value satisfying ``wanted``, or None.

    ``wanted=None`` accepts any value (the spec just must not fail).  None means a
    proof: no deal reaches such a value.  ``max_states`` bounds the remembered states.

    >>> from drawdsl import Cards, draw_where
    >>> witness(draw_where(lambda c: c == "x"), Cards("ab")) is None
    True
    """
    if not isinstance(spec, Spec):
        raise TypeError(f"witness: spec must be a Spec, got {spec!r} ({type(spec).__name__})")
    if wanted is not None and not callable(wanted):
        raise TypeError(f"witness: wanted must be a predicate on outcomes, got {wanted!r}")
    accept = wanted if wanted is not None else _always
    max_states = _check_limit("max_states", max_states)
    if isinstance(source, Cards):
        cards = source.distinct()
        start: tuple[int, ...] = tuple(source.count(c) for c in cards)
        finite = True
        weights: tuple[int, ...] = ()
        total = len(source)
    elif isinstance(source, Weighted):
        cards = source.distinct()
        start = ()
        finite = False
        weights = tuple(source.weight(c) for c in cards)
        total = source.total
    else:
        raise TypeError(f"witness: source must be Cards or Weighted, got {source!r}")

    def settle(child: Spec[Any], counts: tuple[int, ...], anys: int) -> tuple[Spec[Any], int]:
        avail = (sum(counts) if finite else _INF) - anys
        head = whnf(child, avail)
        while type(head) is _Any:
            anys += 1
            avail -= 1
            head = whnf(head.next, avail)  # type: ignore[attr-defined]
        return head, anys

    def moves(counts: tuple[int, ...]) -> Iterator[tuple[int, int]]:
        if finite:
            return ((i, c) for i, c in enumerate(counts) if c)
        return enumerate(weights)

    def found(path: list[int], discards: list[int], counts: tuple[int, ...], value: Any) -> Witness[Any]:
        # discards[j]: unseen discards so far after j seen cards; they come before card j.
        # Any card still in the deck at the end can stand in an unseen position.
        if finite:
            spare = iter([cards[i] for i, c in enumerate(counts) for _ in range(c)])
        else:
            spare = iter(cards[0] for _ in range(discards[-1]))
        deal: list[Any] = []
        before = 0
        for j, total_discards in enumerate(discards):
            deal.extend(next(spare) for _ in range(total_discards - before))
            before = total_discards
            if j < len(path):
                deal.append(cards[path[j]])
        return Witness(tuple(deal), value, _path_probability(path))

    def _path_probability(path: list[int]) -> Fraction:
        p = Fraction(1)
        if finite:
            counts = list(start)
            left = total
            for i in path:
                p *= Fraction(counts[i], left)
                counts[i] -= 1
                left -= 1
        else:
            for i in path:
                p *= Fraction(weights[i], total)
        return p

    head, anys = settle(spec, start, 0)
    if type(head) is _Done:
        value = head.value  # type: ignore[attr-defined]
        return found([], [anys], start, value) if accept(value) else None
    if type(head) is not _Draw or reads_rest(head):
        return None
    dead: set[tuple[Any, ...]] = set()
    # A state's key; with replacement, unseen discards change nothing and are left out.
    root = (start, anys if finite else 0, head)
    on_path = {root}
    # Each frame: (state key, its move iterator, discards so far); path[j] is the card
    # drawn into frame j+1.
    stack: list[tuple[tuple[Any, ...], Iterator[tuple[int, int]], int]] = [(root, moves(start), anys)]
    path: list[int] = []
    while stack:
        key, options, anys = stack[-1]
        counts, _, head = key
        step = next(options, None)
        if step is None:
            stack.pop()
            on_path.discard(key)
            dead.add(key)
            if len(dead) > max_states:
                raise StateLimitExceeded(
                    f"witness search remembered more than max_states={max_states} dead states; "
                    "map the deck to the aspect the spec looks at, or pass a larger max_states"
                )
            if path:
                path.pop()
            continue
        i = step[0]
        k = head.k  # type: ignore[attr-defined]
        child = _spec_or_raise(k(cards[i]), k, "the continuation")
        next_counts = counts[:i] + (counts[i] - 1,) + counts[i + 1:] if finite else counts
        next_head, next_anys = settle(child, next_counts, anys)
        if type(next_head) is _Done:
            value = next_head.value  # type: ignore[attr-defined]
            if accept(value):
                discards = [frame[2] for frame in stack] + [next_anys]
                return found([*path, i], discards, next_counts, value)
            continue
        if type(next_head) is not _Draw or reads_rest(next_head):
            continue  # a dead end (READ_REST only reads on and fails)
        next_key = (next_counts, next_anys if finite else 0, next_head)
        if next_key in dead or next_key in on_path:
            continue
        path.append(i)
        on_path.add(next_key)
        stack.append((next_key, moves(next_counts), next_anys))
    return None
