"""Strict keys: what two values must share for the evaluator to treat them as the same state.

Python's ``==`` says ``1 == True == 1.0`` and ``0.0 == -0.0``, yet a spec can tell
them apart (``str(value)``, ``1 / value``).  Merging states that compare equal but
behave differently would give a wrong number, so every key that decides a merge (loop
states, finished values inside specs, generator histories, combinator parameters,
the witness search's memory) is a *strict key*: the value tagged with its exact type,
all the way down through tuples and frozensets, floats by their bits.  A frozenset is
keyed by its items and its table when every item sits in its own slot
(:func:`set_layout`), else by which object it is: two equal frozensets can list their
items in different orders (``frozenset({0}) | {8}`` gives ``[0, 8]``,
``frozenset({8}) | {0}`` gives ``[8, 0]``: both hash to slot 0), or list them alike
and hold them in different slots, and a step reading ``next(iter(state))`` (or the
order of ``state | {1}``) tells them apart.  An *outcome* is keyed by its items alone
(:func:`outcome_key`): the answer is about values, and equal frozensets are one outcome.

>>> strict_key(1) == strict_key(True)
False
>>> strict_key((1, "a")) == strict_key((1, "a"))
True
>>> strict_key(0.0) == strict_key(-0.0)
False
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import math
import struct
import sys
import types
from decimal import Decimal
from typing import Any

from drawdsl.probes import NAME_TYPES, Hidden, serial

__all__ = ["outcome_key", "set_layout", "strict_key"]

_PLAIN = frozenset({int, str, bool, bytes, type(None)})
_INT_NAME, _STR_NAME = NAME_TYPES


class _Itself:
    """A value keyed by identity (kept alive with the key): a NaN is not equal to itself,
    so containers holding two NaN objects compare by which objects they are."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __eq__(self, other: object) -> bool:
        return type(other) is _Itself and other.value is self.value

    def __hash__(self) -> int:
        return id(self.value)


def _dataclass_key(value: Any, t: type, ordered: bool, state: bool) -> Any:
    """A dataclass whose ``==`` is the one dataclass made (it compares the fields with
    ==, so 1 and True, 0.0 and -0.0, two orders of a frozenset are one to it): keyed by
    the fields it compares, strictly (read as its == reads them), and, as a ``state``,
    by all else it holds too (a field not compared, an attribute of its own).  A state
    that cannot be keyed so (something unhashable, a cycle, a container subclass) is kept
    apart; an outcome then falls back to its own ==.  A dataclass with an ``__eq__`` of
    its own is keyed by it, as any type's own == is."""
    hash(value)  # an unhashable dataclass raises, as it would as a plain key
    if not _made_eq(t):
        return (t, value)
    own = t.__dict__.get("__dataclass_params__")
    if not getattr(own, "frozen", False):
        # (Frozen only when the type itself is: a plain subclass of a frozen dataclass
        # takes new attributes, a review.)
        # A mutable one (hashed by identity, say): what else holds it can change it, so a
        # state keeps it apart (its fields now say nothing of its future: a review).
        return (t, _Itself(value)) if state else (t, value)
    try:
        if issubclass(t, (dict, list, set, frozenset, tuple, bytearray)):
            raise TypeError("its contents are not fields")
        compared = [f.name for f in dataclasses.fields(value) if f.compare]
        key = tuple([(name, _key(getattr(value, name), ordered, state)) for name in compared])
        if not state:
            return (t, "fields", key)
        rest = tuple([(name, _key(item, ordered, state)) for name, item in _attributes(value)
                      if name not in compared])
    except TypeError:
        return (t, _Itself(value)) if state else (t, value)
    return (t, "fields", key, rest)


def _made_eq(t: type) -> bool:
    """Whether ``t``'s ``__eq__`` is the one :mod:`dataclasses` wrote for a class of its MRO."""
    for klass in t.__mro__:
        if "__eq__" in klass.__dict__:
            eq = klass.__dict__["__eq__"]
            params = klass.__dict__.get("__dataclass_params__")
            code = getattr(eq, "__code__", None)
            return bool(params is not None and getattr(params, "eq", False) and code is not None
                        and code.co_filename == "<string>" and code.co_name == "__eq__")
    return False


def _attributes(value: Any) -> list[tuple[str, Any]]:
    """Every attribute an instance holds (its ``__dict__`` and its slots, private names
    included), by name."""
    found: dict[str, Any] = {}
    with contextlib.suppress(AttributeError):
        found.update(object.__getattribute__(value, "__dict__"))
    for klass in type(value).__mro__[:-1]:
        for name, descriptor in klass.__dict__.items():
            if type(descriptor) is types.MemberDescriptorType:
                try:
                    found.setdefault(name, descriptor.__get__(value, type(value)))
                except AttributeError:
                    continue
    return sorted(found.items())


def _own_attributes(value: Any) -> bool:
    """Whether an instance of a subclass of a built-in value can hold attributes of its
    own: an instance ``__dict__`` (even empty: one object held in two places of a state
    can gain one later), or slots of a subclass."""
    try:
        object.__getattribute__(value, "__dict__")
        return True
    except AttributeError:
        pass
    return any(klass.__dict__.get("__slots__") not in (None, ()) for klass in type(value).__mro__[:-1]
               if klass not in (tuple, frozenset, str, int, float, bytes, complex, Decimal))


_BUILT_INS = (str, int, float, bytes, complex, Decimal)


def _own_eq(t: type) -> bool:
    """Whether a subclass of a built-in value defines ``__eq__`` or ``__hash__`` of its own."""
    for klass in t.__mro__:
        if klass in _BUILT_INS:
            return False
        if "__eq__" in klass.__dict__ or "__hash__" in klass.__dict__:
            return True
    return False


def content_key(value: Any) -> Any:
    """The key that tells two cards of a deck apart: :func:`outcome_key`, and, for a
    dataclass whose == is the generated one, the outcome keys of every attribute it
    holds (a field that == does not compare), so two separate but identical cards are
    one card, and two that differ in such a field are refused.

    >>> content_key(3) == content_key(3), content_key(1) == content_key(True)
    (True, False)
    """
    key = outcome_key(value)
    if not _made_eq(type(value)):
        return key  # a type's own == is trusted: an attribute it ignores is its business
    kind = type(value)
    try:
        held = tuple([
            (name, outcome_key(item)) for name, item in _attributes(value)
            # (Not a cache: a cached property read on one card of two is no difference.)
            if not isinstance(getattr(kind, name, None), functools.cached_property)
        ])
    except (TypeError, RecursionError):
        return key
    return (key, held) if held else key


def strict_key(value: Any) -> Any:
    """A hashable key equal for two values only when they have the same types throughout
    and are equal (floats bit for bit; a NaN only to itself; frozensets by their items
    where every item sits in its own slot, else only to themselves).  Unhashable values
    raise TypeError.

    A dataclass comparing its fields (``eq=True``) is keyed by the fields it compares,
    strictly, and (as a state) by whatever else it holds; a ``range`` by its start, stop
    and step; a subclass of a built-in value by that value, strictly (``-0.0`` is not
    ``0.0``), and, as a state holding attributes of its own, by identity.  Values of
    other types are keyed by their type and themselves: a type's own ``==`` is trusted
    among values of that type (an aware ``datetime`` equal at the same instant in two
    zones, or ``PureWindowsPath("A") == PureWindowsPath("a")``, merge: a spec that tells
    such values apart should keep what it reads, the hour or the string).  The
    placeholder of a hidden card field (:class:`~drawdsl.probes.Hidden`) is keyed by
    which placeholder it is, never used.

    >>> strict_key((1, frozenset({2})))
    (<class 'tuple'>, ((<class 'int'>, 1), (<class 'frozenset'>, (frozenset({(<class 'int'>, 2)}), 8))))
    >>> nan = float("nan")
    >>> strict_key(nan) == strict_key(nan), strict_key(nan) == strict_key(float("nan"))
    (True, False)
    >>> strict_key(frozenset({0}) | {8}) == strict_key(frozenset({8}) | {0})
    False
    """
    try:
        return _key(value, True)
    except RecursionError:
        return (type(value), _Itself(value))  # too deep (or a cycle) to key by value: apart


def _key(value: Any, ordered: bool, state: bool = True) -> Any:
    """:func:`strict_key`, with frozensets keyed in their order (``ordered``) or not."""
    t = type(value)
    if t in _PLAIN:
        return (t, value)
    if t is tuple:
        return (tuple, tuple([
            (type(item), item) if type(item) in _PLAIN else _key(item, ordered, state) for item in value
        ]))
    if t is float:
        if value != value:
            return (float, _Itself(value))
        return (float, struct.pack("<d", value))
    if t is frozenset or (issubclass(t, frozenset) and type(t) is type):
        # (A subclass too: its own == ignores the order as frozenset's does.)
        items = [_key(item, ordered, state) for item in frozenset.__iter__(value)]
        if state and t is not frozenset and _own_attributes(value):
            # A state's attributes of its own (s.first = card): kept apart (an outcome is
            # keyed by its items, as == compares it).
            return (t, _Itself(value))
        if not ordered:
            return (t, frozenset(items))
        layout = set_layout(value)
        return (t, (frozenset(items), layout) if layout is not None else _Itself(value))
    if t is Hidden:
        return (Hidden, serial(value))
    if t is _INT_NAME:
        return (t, int.__int__(value))  # a name (drawdsl.probes): slotted, no == of its own
    if t is _STR_NAME:
        return (t, str.__str__(value))
    if t is complex:
        if value != value:
            return (complex, _Itself(value))
        return (complex, struct.pack("<dd", value.real, value.imag))
    if t is Decimal:
        if value.is_nan():
            return (Decimal, _Itself(value))
        return (Decimal, value.as_tuple())
    if issubclass(t, tuple) and type(t) is type:
        # A named tuple or another tuple subclass: its items, strictly (``Point(1, 2) ==
        # Point(True, 2)`` in Python, and tuple's == ignores a frozenset's order), read past
        # a probe card's watch (a key is not a use).  One with attributes of its own
        # (``s.first = card`` on a subclass without slots, which == ignores) is kept apart.
        if state and _own_attributes(value):
            return (t, _Itself(value))
        return (t, tuple([
            (type(item), item) if type(item) in _PLAIN else _key(item, ordered, state)
            for item in tuple.__iter__(value)
        ]))
    if t is range:
        return (range, (value.start, value.stop, value.step))  # == compares the sequences
    if isinstance(t, type) and issubclass(t, (str, int, float, bytes, complex, Decimal)):
        # A subclass of a built-in value: a state holding attributes of its own is kept
        # apart; otherwise (and for an outcome) the built-in value's strict key.
        if state and _own_attributes(value):
            return (t, _Itself(value))
        if not state and _own_eq(t):
            # An outcome compares by an == of its own (case-insensitive, say); a state keeps
            # the built-in value, which its future can read (str(v)): a review.
            hash(value)
            return (t, value)
        if isinstance(value, float):
            return (t, _Itself(value) if math.isnan(value) else struct.pack("<d", value))
        if isinstance(value, complex):
            parts = (complex.real.__get__(value), complex.imag.__get__(value))
            return (t, _Itself(value) if any(map(math.isnan, parts)) else struct.pack("<dd", *parts))
        if isinstance(value, Decimal):
            return (t, _Itself(value) if Decimal.is_nan(value) else Decimal.as_tuple(value))
        hash(value)
        # The built-in value itself (a subclass's own == may say R(1) == R(2)).
        if isinstance(value, int):
            return (t, int.__int__(value))
        return (t, str.__str__(value) if isinstance(value, str) else bytes(memoryview(value)))
    if getattr(t, "__dataclass_params__", None) is not None and isinstance(t, type):
        return _dataclass_key(value, t, ordered, state)
    hash(value)  # unhashable values raise here, as they would as plain keys (and an atom
    return (t, value)  # of a traced run checks who keys it: drawdsl.atoms)


_EMPTY_SIZE = sys.getsizeof(frozenset())
_SMALL_TABLE = 8  # the table a set holds inside itself (CPython's PySet_MINSIZE)


def set_layout(value: frozenset[Any] | set[Any]) -> int | None:
    """The size of a set's table when its items determine where each one sits (each at
    the slot its hash points to, none pushed along by another), else None.

    Two equal sets can list their items in different orders, and even in one order hold
    them in different slots, which the order of the sets made from them shows
    (``s | {1}``).  Where every item sits in its own slot, the items and the table's
    size say it all.

    >>> set_layout(frozenset({1, 2})), set_layout(frozenset({0, 8}))
    (8, None)
    """
    extra = sys.getsizeof(value) - (_SET_SIZE if isinstance(value, set) else _EMPTY_SIZE)
    table = _SMALL_TABLE if extra <= 0 else extra // 16
    mask = table - 1
    homes = []
    # (A plain loop, no comprehension: the hashing happens in this frame, which a traced
    # run knows as the evaluator's keys, see drawdsl.atoms._KEYS_MADE.)
    for item in (frozenset.__iter__(value) if isinstance(value, frozenset) else value):
        homes.append(hash(item) & mask)
    if len(set(homes)) != len(homes) or homes != sorted(homes):
        return None  # two items share a slot, or one sits past its own: the history shows
    return table


_SET_SIZE = sys.getsizeof(set())


def outcome_key(value: Any) -> Any:
    """The key of an outcome (or a card) in a result: its :func:`strict_key` with frozensets
    keyed by their items alone (equal frozensets are one outcome, whatever their order), or
    the value itself for an exact ``int`` or ``str`` (the common case, and no strict key of
    another value is an ``int`` or a ``str``).  So ``0``, ``False`` and ``0.0`` are three
    outcomes.

    >>> outcome_key(3), outcome_key("a"), outcome_key(True) == outcome_key(1)
    (3, 'a', False)
    >>> outcome_key(frozenset({0}) | {8}) == outcome_key(frozenset({8}) | {0})
    True
    """
    t = type(value)
    if t is int or t is str:
        return value
    try:
        return _key(value, False, state=False)
    except RecursionError:
        hash(value)
        return (t, value)  # too deep (or a cycle) to key strictly: by its own ==


def unordered_state_key(value: Any) -> Any:
    """:func:`strict_key` with frozensets keyed by their items alone: the key of a loop
    state whose step is shown blind to their order (:func:`drawdsl.order_blind.loop_key`),
    keeping all a state holds (unlike an outcome's key, which compares as ``==`` does).

    >>> unordered_state_key(frozenset({0}) | {8}) == unordered_state_key(frozenset({8}) | {0})
    True
    """
    try:
        return _key(value, False, state=True)
    except RecursionError:
        return (type(value), _Itself(value))
