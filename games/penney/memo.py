"""A loop whose states are each turned into a spec once: the same draw program as
:func:`~drawdsl.loop`, cheaper when the evaluator visits very many states.

``memo_loop(start, step)`` means exactly ``loop(start, step)``.  The difference is
the cost: every state becomes one keyed :func:`~drawdsl.draw_one` spec, built the
first time the state is reached, and each of its moves (``step(state, card)``) is
computed once and remembered.  Paths that reach the same state with the same
remaining deck still merge, because the spec's key is the state.  On the card
version of Penney's game, where a 52-card deal visits tens of thousands of
(deck, state) pairs, this makes exact evaluation two to three times faster.

>>> from drawdsl import Cards, chances, done, loop
>>> def count_a(state, card):
...     seen, count = state
...     count += card == "a"
...     return done(count) if seen + 1 == 3 else (seen + 1, count)
>>> deck = Cards("aabb")
>>> chances(memo_loop((0, 0), count_a), deck) == chances(loop((0, 0), count_a), deck)
True
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

from drawdsl import Spec, draw_one

__all__ = ["memo_loop", "MemoLoop"]


class MemoLoop:
    """The specs of one looping process, one per state, each built once.

    >>> from drawdsl import done
    >>> machine = MemoLoop(lambda state, card: done(card) if state else 1)
    >>> machine.spec(0) is machine.spec(0)
    True
    """

    __slots__ = ("step", "_specs")

    def __init__(self, step: Callable[[Any, Any], Any]) -> None:
        if not callable(step):
            raise TypeError(f"memo_loop: step must be callable, got {step!r}")
        self.step = step
        self._specs: dict[Hashable, Spec[Any]] = {}

    def spec(self, state: Hashable) -> Spec[Any]:
        """The spec of the process from ``state``: draw a card, then ``step(state, card)``."""
        found = self._specs.get(state)
        if found is None:
            try:
                hash(state)
            except TypeError:
                raise TypeError(
                    f"memo_loop: the state {state!r} ({type(state).__name__}) is not hashable; "
                    "use tuples, frozensets or numbers for loop states"
                ) from None
            found = draw_one(_Moves(self, state).__getitem__, key=(self, state))
            self._specs[state] = found
        return found

    def __len__(self) -> int:
        """The number of states built so far."""
        return len(self._specs)


class _Moves(dict):  # type: ignore[type-arg]
    """The moves of one state, ``card -> spec``, each computed on first use.

    The spec draws through the dict's own ``__getitem__``, so a move already made costs
    the evaluator one dict lookup in C and no Python call.
    """

    __slots__ = ("machine", "state")

    def __init__(self, machine: MemoLoop, state: Hashable) -> None:
        super().__init__()
        self.machine = machine
        self.state = state

    def __missing__(self, card: Any) -> Spec[Any]:
        result = self.machine.step(self.state, card)
        found = result if isinstance(result, Spec) else self.machine.spec(result)
        self[card] = found
        return found

    def __repr__(self) -> str:
        return f"memo_loop state {self.state!r}"


def memo_loop(start: Hashable, step: Callable[[Any, Any], Any]) -> Spec[Any]:
    """``loop(start, step)``, with each state's spec and moves built once (see the module doc).

    ``step(state, card)`` returns the next state or a spec to finish with, as for
    :func:`~drawdsl.loop`; it must be a pure function of its arguments.

    >>> from drawdsl import Cards, chance, done
    >>> first_pair = memo_loop(None, lambda last, c: done(c) if c == last else c)
    >>> chance(first_pair, Cards("aabb"))
    Fraction(2, 3)
    """
    return MemoLoop(step).spec(start)
