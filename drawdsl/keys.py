"""Strict keys: what two values must share for the evaluator to treat them as the same state.

Python's ``==`` says ``1 == True == 1.0`` and ``0.0 == -0.0``, yet a spec can tell
them apart (``str(value)``, ``1 / value``).  Merging states that compare equal but
behave differently would give a wrong number, so every key that decides a merge (loop
states, finished values inside specs, generator histories, combinator parameters,
the witness search's memory) is a *strict key*: the value tagged with its exact type,
all the way down through tuples and frozensets, floats by their bits.

>>> strict_key(1) == strict_key(True)
False
>>> strict_key((1, "a")) == strict_key((1, "a"))
True
>>> strict_key(0.0) == strict_key(-0.0)
False
"""

from __future__ import annotations

import struct
from decimal import Decimal
from typing import Any

from drawdsl.probes import Hidden

__all__ = ["strict_key"]

_PLAIN = frozenset({int, str, bool, bytes, type(None)})


def strict_key(value: Any) -> Any:
    """A hashable key equal for two values only when they have the same types throughout
    and are equal (floats bit for bit).  Unhashable values raise TypeError.

    Values of other types are keyed by their type and themselves: a type's own ``==``
    is trusted among values of that type.  The placeholders of hidden card fields
    (:class:`~drawdsl.probes.Hidden`) are keyed by their order of first appearance in
    ``value``, never used: two values match when they hold placeholders at the same
    places and the same one where the other holds the same one.

    >>> strict_key((1, frozenset({2})))
    (<class 'tuple'>, ((<class 'int'>, 1), (<class 'frozenset'>, frozenset({(<class 'int'>, 2)}))))
    """
    t = type(value)
    if t in _PLAIN:
        return (t, value)
    return _key(value, t, {})


def _key(value: Any, t: type, hidden: dict[int, int]) -> Any:
    if t in _PLAIN:
        return (t, value)
    if t is tuple:
        return (tuple, tuple([
            (type(item), item) if type(item) in _PLAIN else _key(item, type(item), hidden)
            for item in value
        ]))
    if t is float:
        return (float, struct.pack("<d", value))
    if t is frozenset:
        return (frozenset, frozenset([_key(item, type(item), hidden) for item in value]))
    if t is Hidden:
        n = hidden.get(id(value))
        if n is None:
            n = hidden[id(value)] = len(hidden)
        return (Hidden, n)
    if t is complex:
        return (complex, struct.pack("<dd", value.real, value.imag))
    if t is Decimal:
        return (Decimal, value.as_tuple())
    if isinstance(value, tuple) and hasattr(value, "_fields"):
        # A named tuple: its fields, strictly (``Point(1, 2) == Point(True, 2)`` in Python),
        # read past a probe card's watch (a key is not a use).
        return (t, tuple([
            (type(item), item) if type(item) in _PLAIN else _key(item, type(item), hidden)
            for item in tuple.__iter__(value)
        ]))
    hash(value)  # unhashable values raise here, as they would as plain keys
    return (t, value)
