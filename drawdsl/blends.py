"""Blends: one card standing for a whole class, to check a lumped class in one run.

When the evaluator draws a class of cards as one (see :mod:`drawdsl.probes` and the
lumping of :mod:`drawdsl.exact`), it must check that every card of the class leads
to the same continuation.  Done card by card, that is one run of the spec per card:
a ``@generate`` hand replays its whole history for each of them.  A *blend* does it
in one run: the spec is handed a card whose differing field is one :class:`Blend` of
the class's values (exact ints or exact strs, or their names, see
:func:`~drawdsl.probes.named`).  Every use of a blend (comparing, arithmetic,
``bool``, ``str``, reading an attribute, ...) is worked out for every value of the
class; when all the results are strictly equal (:func:`~drawdsl.keys.strict_key`:
``1``, ``True`` and ``1.0`` differ) the use gives that result, else it *disagrees*:
the watch records it and the run stops (:class:`Disagreed`, a ``BaseException``).
Uses that cannot be worked out value by value (hashing, iterating, pickling, another
blend as the other operand, ...) always disagree.

Why this is sound.  In a run where nothing disagreed, every use of the blend gave the
result each card of the class would have given, so the run is the run of every card
of the class with the blend in the card's place.  If the continuation it reaches
equals (by key) the one the class's first card reaches, the blend is not part of that
key, and every card reaches the same continuation.  A run that disagreed (or raised,
or whose continuation holds the blend) proves nothing: the caller checks the class
card by card, as before.  Nothing computed in a blend run is kept.

What a blend's methods cannot watch: ``type()``, ``id()``, ``is``, and C code that
checks a value's exact type (``sys.intern`` takes a str, not a blend of strs).  So the
evaluator runs a blend card under the watch of traced runs
(:func:`drawdsl.atoms.watching`): code that names ``type``, ``id`` or a special method,
an ``is`` with a value, a C encoder or pickler, or an error raised (even caught) makes
the run prove nothing; and the run must run the same code of the spec's as the first
card's (C code that writes an int itself but hands a blend to a hook takes another path).

>>> watch = BlendWatch()
>>> rank = Blend((2, 3, 4), watch)
>>> rank == 14, rank < 10, rank * 0, watch.disagreed
(False, True, 0, False)
>>> try:
...     rank == 3
... except Disagreed:
...     watch.disagreed
True
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable, Sequence
from typing import Any

from drawdsl.keys import strict_key
from drawdsl.probes import NAME_TYPES, Hidden, Token, Watch
from drawdsl.probes import SIGNALS as PROBE_SIGNALS

__all__ = ["Blend", "BlendWatch", "Disagreed", "blend_card"]


class Disagreed(BaseException):
    """A use of a blend gave different results for the cards of its class: the run
    proves nothing (a ``BaseException`` so that ``except Exception`` does not swallow
    it; the watch keeps the record in case a bare ``except`` does)."""


#: Disagreements a run signals before a blend gives the first card's result instead:
#: a spec that swallows the signal and tries again then finishes; the run is thrown away.
SIGNALS = 100


class BlendWatch:
    """What one blend run saw: whether any use disagreed.  ``spare`` is the watch of the
    blend card's hidden fields (its own, so the real run's record stays clean)."""

    __slots__ = ("disagreed", "signals", "spare")

    def __init__(self) -> None:
        self.disagreed = False
        self.signals = 0
        self.spare = Watch()

    def close(self) -> None:
        """The run is over: later uses (a suspended generator's ``finally`` when it is
        collected) give the first card's result without raising."""
        self.signals = SIGNALS + 1
        self.spare.signals = PROBE_SIGNALS + 1


def _disagree(watch: BlendWatch) -> None:
    watch.disagreed = True
    watch.signals += 1
    if watch.signals <= SIGNALS:
        raise Disagreed


def _agree(blend: Blend, use: Callable[..., Any], *args: Any) -> Any:
    """``use(value, *args)`` for every value of the blend: the common result, or a
    disagreement.  (Few Python frames: a blend run is watched frame by frame.)"""
    values = object.__getattribute__(blend, "_values")
    watch = object.__getattribute__(blend, "_watch")
    try:
        results = [use(value, *args) for value in values]
        first = results[0]
        if type(first) is bool:  # the usual comparison: strictly equal means all the same bool
            agreed = results.count(first) == len(results) and set(map(type, results)) == {bool}
        else:
            key = strict_key(first)
            agreed = all(strict_key(result) == key for result in results[1:])
    except (Disagreed, KeyboardInterrupt, SystemExit):
        raise
    except BaseException:
        agreed, results = False, [None]
    if not agreed:
        _disagree(watch)
    return results[0]


class Blend:
    """The values of one field over a class of cards, used as one value: every use must
    give all of them the same result (see the module's documentation)."""

    __slots__ = ("_values", "_watch")

    def __init__(self, values: Sequence[Any], watch: BlendWatch) -> None:
        object.__setattr__(self, "_values", tuple(values))
        object.__setattr__(self, "_watch", watch)

    def __getattribute__(self, name: str) -> Any:
        return _agree(self, getattr, name)

    def __setattr__(self, name: str, value: Any) -> None:
        _disagree(object.__getattribute__(self, "_watch"))
        raise AttributeError(name)

    def __delattr__(self, name: str) -> None:
        _disagree(object.__getattribute__(self, "_watch"))
        raise AttributeError(name)


def _binary(use: Callable[[Any, Any], Any]) -> Callable[[Blend, Any], Any]:
    def method(self: Blend, other: Any) -> Any:
        if type(other) is Blend:
            _disagree(object.__getattribute__(self, "_watch"))  # two blends: pairs unknown
        return _agree(self, use, other)

    return method


def _reflected(use: Callable[[Any, Any], Any]) -> Callable[[Blend, Any], Any]:
    def method(self: Blend, other: Any) -> Any:
        if type(other) is Blend:
            _disagree(object.__getattribute__(self, "_watch"))
        return _agree(self, _swapped, use, other)

    return method


def _swapped(value: Any, use: Callable[[Any, Any], Any], other: Any) -> Any:
    return use(other, value)


def _unary(use: Callable[[Any], Any]) -> Callable[..., Any]:
    def method(self: Blend, *args: Any) -> Any:
        if any(type(arg) is Blend for arg in args):
            _disagree(object.__getattribute__(self, "_watch"))
        return _agree(self, use, *args)

    return method


def _refused(self: Blend, *args: Any, **kwargs: Any) -> Any:
    _disagree(object.__getattribute__(self, "_watch"))
    raise TypeError("a blend cannot be used this way")


_BINARY: dict[str, Callable[[Any, Any], Any]] = {
    "eq": operator.eq, "ne": operator.ne, "lt": operator.lt, "le": operator.le,
    "gt": operator.gt, "ge": operator.ge, "add": operator.add, "sub": operator.sub,
    "mul": operator.mul, "truediv": operator.truediv, "floordiv": operator.floordiv,
    "mod": operator.mod, "pow": operator.pow, "and": operator.and_, "or": operator.or_,
    "xor": operator.xor, "lshift": operator.lshift, "rshift": operator.rshift, "divmod": divmod,
}
_UNARY: dict[str, Callable[..., Any]] = {
    "bool": bool, "int": int, "float": float, "index": operator.index, "neg": operator.neg,
    "pos": operator.pos, "abs": abs, "invert": operator.invert, "str": str, "repr": repr,
    "len": len, "round": round, "trunc": math.trunc, "floor": math.floor, "ceil": math.ceil,
    "format": format, "contains": lambda value, item: item in value,
    "getitem": lambda value, index: value[index],
}
for _name, _use in _BINARY.items():
    setattr(Blend, f"__{_name}__", _binary(_use))
    if _name not in ("eq", "ne", "lt", "le", "gt", "ge"):
        setattr(Blend, f"__r{_name}__", _reflected(_use))
for _name, _use in _UNARY.items():
    setattr(Blend, f"__{_name}__", _unary(_use))
# Everything else Python may look up on the type disagrees: hashing (a key must not hold
# a blend), iterating, pickling and copying, in-place operators, calls, context managers.
for _name in (
    "hash", "iter", "reversed", "next", "length_hint", "setitem", "delitem", "missing", "call",
    "complex", "bytes", "fspath", "matmul", "rmatmul", "iadd", "isub", "imul", "imatmul",
    "itruediv", "ifloordiv", "imod", "ipow", "ilshift", "irshift", "iand", "ixor", "ior",
    "enter", "exit", "aenter", "aexit", "await", "aiter", "anext", "reduce", "reduce_ex",
    "getstate", "setstate", "copy", "deepcopy", "dir", "sizeof", "getnewargs", "getnewargs_ex",
    "get", "set", "delete", "buffer", "release_buffer",
):
    setattr(Blend, f"__{_name}__", _refused)
del _name, _use


class _IntBlend(Blend):
    __slots__ = ()


class _StrBlend(Blend):
    __slots__ = ()


# Named like the names they blend (probes.named), so that ``type(card.rank).__name__``
# reads the same in the run of the class's first card and in the blend's.
_IntBlend.__name__ = _IntBlend.__qualname__ = "int"
_StrBlend.__name__ = _StrBlend.__qualname__ = "str"


# The values a blend stands for: exact ints or exact strs (or their names, probes.named).
_INTS = (int, NAME_TYPES[0])
_STRS = (str, NAME_TYPES[1])


def _fresh(made: dict[type[Blend], type[Blend]], base: type[Blend]) -> type[Blend]:
    """A new subclass of ``base`` (named like it), made once per blend card."""
    found = made.get(base)
    if found is None:
        found = made[base] = type(base.__name__, (base,), {"__slots__": (), "__qualname__": base.__name__})
    return found


def blend_card(members: Sequence[Any]) -> tuple[Any, BlendWatch] | None:
    """The card that stands for the class ``members`` in one run, and its watch; None
    when there is no such card: fewer than two cards, cards that are not probe cards
    (:class:`~drawdsl.probes.Token`), or a differing field whose values are not all
    exact ints or all exact strs (or their names, :func:`~drawdsl.probes.named`).

    It is a probe card whose fields the class agrees on are the class's values, whose
    differing field is a blend of the class's values, and whose hidden fields are fresh
    placeholders of a watch of its own (a use stops the run, as a disagreement does,
    without touching the real run's watch).  ``type()`` tells a blend from an ``int``:
    the caller runs it under :func:`drawdsl.atoms.watching` (see the module's text).

    >>> from drawdsl import standard_deck
    >>> from drawdsl.probes import ProbePlan
    >>> deck, _ = ProbePlan.of(standard_deck()).deck(frozenset({"rank"}))
    >>> card, watch = blend_card(deck.distinct()[:12])
    >>> card.rank == 14, card.rank < 20, watch.disagreed
    (False, True, False)
    """
    if len(members) < 2 or not all(type(member) is Token for member in members):
        return None
    watch = BlendWatch()
    first: Token = members[0]
    hidden = dict(first.hidden)
    values: list[Any] = []
    # A class of its own for each blend card: the C caches of abstract classes
    # (``isinstance(rank, Sized)``) remember a class, and would answer a later run
    # from the cache, unseen; a fresh class makes their Python hook run (and refuse).
    fresh: dict[type[Blend], type[Blend]] = {}
    for i, value in enumerate(first.values):
        if i in hidden:
            values.append(Hidden(hidden[i], watch.spare, value))
            continue
        column = [member.values[i] for member in members]
        try:
            key = strict_key(value)
            same = all(strict_key(other) == key for other in column[1:])
        except TypeError:
            same = False
        if same:
            values.append(value)
        elif all(type(other) in _INTS for other in column):
            values.append(_fresh(fresh, _IntBlend)(column, watch))
        elif all(type(other) in _STRS for other in column):
            values.append(_fresh(fresh, _StrBlend)(column, watch))
        else:
            return None
    return first.make(values), watch
