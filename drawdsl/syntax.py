"""Generator syntax: write a spec as a plain Python function.

Inside a function decorated with :func:`generate`, ``card = yield draw()`` draws a
card (any spec may be yielded; its value comes back) and ``return value`` finishes.
The result behaves exactly like the equivalent chain of ``bind`` calls.

>>> from drawdsl import Cards, chances, draw, fail
>>> @generate
... def pair():
...     first = yield draw()
...     second = yield draw()
...     if first != second:
...         yield fail()
...     return first
>>> chances(pair(), Cards("aabb"))
Distribution({'a': 1/6, 'b': 1/6}, failure=2/3)

The generator is re-run from the start to resume a path on another card, so it
must be deterministic and free of side effects (it may be started many times).
For long processes prefer :func:`~drawdsl.loop`, whose states merge.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Generator
from typing import Any, ParamSpec, TypeVar

from drawdsl.spec import Spec, _Gen

__all__ = ["generate"]

P = ParamSpec("P")
V = TypeVar("V")


def generate(func: Callable[P, Generator[Spec[Any], Any, V]]) -> Callable[P, Spec[V]]:
    """Turn a generator function into a function returning a spec (see the module doc).

    >>> from drawdsl import Cards, chances, draw
    >>> @generate
    ... def two_same(n):
    ...     cards = []
    ...     for _ in range(n):
    ...         cards.append((yield draw()))
    ...     return len(set(cards)) == 1
    >>> chances(two_same(2), Cards("aab"))
    Distribution({False: 2/3, True: 1/3})
    """
    if not inspect.isgeneratorfunction(func):
        raise TypeError(
            f"generate: {getattr(func, '__qualname__', func)!r} is not a generator function; "
            "it must use `card = yield draw()` (and `return value` to finish)"
        )

    @functools.wraps(func)
    def make(*args: P.args, **kwargs: P.kwargs) -> Spec[V]:
        return _Gen(func, args, tuple(sorted(kwargs.items())), ())

    return make
