"""Wrong numbers found by a review of the traced runs' reach search (2026-11-25), each a
pure spec that tells cards apart by C code it reaches in a way the search did not follow.

The first card of a 12-card deck decides a flag ("x" for the deck's last card); three
more cards are drawn, so the frontier passes the point where chances() tries the traced
symmetry.  The truth (no reductions) is {"x": 1/12, "y": 11/12}; each of these specs was
answered {"y": 1} (or {"x": 1}) before its fix.
"""

from __future__ import annotations

import copyreg
import operator
import pickle
import sqlite3
import sys
import types
import weakref
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import pytest

import drawdsl.keys
from drawdsl import Cards, chances, done, loop
from drawdsl.atoms import Atom

DECK = Cards("abcdefghijkl")
FIRST = DECK.distinct()[0]
LAST = DECK.distinct()[-1]


def _spec(test: Callable[[Any], bool]) -> Any:
    def step(state: Any, card: Any) -> Any:
        if state is None:
            return ("x" if test(card) else "y", (card,))
        flag, held = state
        held = held + (card,)
        return done(flag) if len(held) == 4 else (flag, held)

    return loop(None, step)


def _exact(spec: Any) -> None:
    truth = chances(spec, DECK, symmetric=False, lump=False, probe=False)
    assert chances(spec, DECK) == truth


# F1: special methods of builtin types held under another name.
_OBJECT_EQ = object.__eq__
_LAST_EQ = LAST.__eq__
_OBJECT_HASH = object.__hash__
# F2: a module handed over by a helper.
_M = types.ModuleType("m")
_M.same = operator.is_  # type: ignore[attr-defined]


def _get() -> types.ModuleType:
    return _M


# F3, F9: a weak reference and a slice hold what the collector does not show.
_WEAK = weakref.ref(operator.is_)
_SLICE = slice(operator.is_)


class _Ref(weakref.ref):  # type: ignore[type-arg]
    pass


_SUB_WEAK = _Ref(operator.is_)


# F4, F5: classes claiming to be builtins; what a class inherits.
class _Builtin:
    __module__ = "builtins"
    same = staticmethod(operator.is_)


class _Base:
    same = staticmethod(operator.is_)


class _Derived(_Base):
    pass


_INSTANCE = _Derived()


class _Meta(type):
    same = staticmethod(operator.is_)


class _WithMeta(metaclass=_Meta):
    pass


# F6: a container cached clean while a module in it was searched for another code's names.
_BOX = (_M, 1)


def _h() -> int:
    return len(_BOX)


def _g(card: Any) -> bool:
    return bool(_BOX[0].same(card, LAST))


def _f6(card: Any) -> bool:
    _h()
    return _g(card)


# F10: a frame taken at import.
_FRAME = sys._getframe()
_IS = operator.is_

# A second round (G2-G8).
_LAZY = types.ModuleType("lazy")
_LAZY.__getattr__ = {"same": operator.is_}.get  # type: ignore[attr-defined, method-assign]


def _made_const() -> Any:
    return 0


_made_const.__code__ = _made_const.__code__.replace(
    co_consts=tuple(operator.is_ if const == 0 else const for const in _made_const.__code__.co_consts)
)


def _by_class_pattern(card: Any) -> bool:
    match operator:
        case object(is_=found):
            result = bool(found(card, LAST))
            del found
            return result
    return False


def _by_kept_hash(card: Any) -> bool:
    return bool(done(card).map(str)._hash == _LAST_HASH)  # type: ignore[attr-defined]


_LAST_HASH = done(LAST).map(str)._hash  # type: ignore[attr-defined]
_T = type
_NS = types.SimpleNamespace(cards=frozenset(), use=None, armed=False, signals=0)


def _by_reinit(card: Any) -> bool:
    _T(card).__init__(card, _NS)
    return bool(card == LAST)


class _Globals(dict):  # type: ignore[type-arg]
    __missing__ = {"same": operator.is_}.get


def _proto(card: Any) -> Any:
    return same(card, LAST)  # type: ignore[name-defined]  # noqa: F821  (given by the odd globals)


_ODD_GLOBALS = types.FunctionType(_proto.__code__, _Globals(LAST=LAST))
_ODD_BUILTINS = types.FunctionType(
    _proto.__code__, {"LAST": LAST, "__builtins__": types.MappingProxyType({"same": operator.is_})}
)


def _by_itself(card: Any) -> bool:
    from drawdsl.keys import _Itself

    return bool(_Itself(card) == _Itself(LAST))


# A metaclass shadowing what the search reads of a class (G12).
class _FlagsMeta(type):
    __flags__ = 0


class _Flags(metaclass=_FlagsMeta):
    same = staticmethod(operator.is_)


class _DictMeta(type):
    __dict__ = property(lambda cls: {})  # type: ignore[assignment, misc]


class _Dict(metaclass=_DictMeta):
    same = staticmethod(operator.is_)


class _BasesMeta(type):
    __bases__ = ()


class _Bases(_Base, metaclass=_BasesMeta):
    pass


# Two functions sharing one code with other globals (G13).
def _harmless(a: Any, b: Any) -> bool:
    return False


_SOURCE = "def pick(card):\n    return same(card, LAST)\n"
_HARMLESS_NS: dict[str, Any] = {"same": _harmless, "LAST": LAST}
exec(_SOURCE, _HARMLESS_NS)
_PICK = _HARMLESS_NS["pick"]
_SAME_CODE = types.FunctionType(_PICK.__code__, {"same": operator.is_, "LAST": LAST})


def _by_shared_code(card: Any) -> bool:
    _PICK(card)
    return bool(_SAME_CODE(card))


# A function's own attributes (G16), a type-named global shadowed in a class body (G17),
# a refused builtin under another name (G18).
def _holder() -> None:
    pass


_holder.same = operator.is_  # type: ignore[attr-defined]
X = str
_G = globals


def _by_class_body(card: Any) -> bool:
    class Shadow:
        X = LAST
        found = card is X

    return Shadow.found


# A bound method compares its self by identity (G9), an `is` reached by a jump (G10),
# ctypes' address of an object (G11), the public strict_key of a tuple (G14), the
# library's code run with the spec's globals (G15).
def _plain() -> None:
    pass


_METHOD = types.MethodType
_LAST_METHOD = types.MethodType(_plain, LAST)
ON = 1


def _by_ctypes(card: Any) -> bool:
    import ctypes as c

    return bytes(c.py_object(card)) == bytes(c.py_object(LAST))


def _by_strict_key(card: Any) -> bool:
    from drawdsl.keys import strict_key as key

    return bool(key((card,)) == key((LAST,)))


def _by_library_code(card: Any) -> bool:
    import functools

    from drawdsl.probes import is_name

    # is_name's code is `return type(value) in NAME_TYPES`: with these globals, `card is LAST`.
    rebuilt = types.FunctionType(is_name.__code__, {
        "type": functools.partial(operator.is_, LAST), "NAME_TYPES": (True,)})
    return bool(rebuilt(card))


# The two findings left open in the fourth session (G9b, G20).
def _plain_function() -> None:
    return None


_CODE = _plain_function.__code__


def _by_made_code(card: Any) -> bool:
    # Code objects compare their constants by identity, in C.
    return bool(_CODE.replace(co_consts=(card,)) == _CODE.replace(co_consts=(LAST,)))


def _by_marshalled_code(card: Any) -> bool:
    import marshal

    made = marshal.loads(marshal.dumps(_CODE))
    return bool(made.replace(co_consts=(card,)) == made.replace(co_consts=(LAST,)))


_REPLACE = _CODE.replace


def _by_held_replace(card: Any) -> bool:
    return bool(_REPLACE(co_consts=(card,)) == _REPLACE(co_consts=(LAST,)))


def _own_placeholder() -> Any:
    from drawdsl.probes import Hidden, Watch

    watch = Watch()
    watch.signals = 10**9  # past the signals: every use goes to the value held
    return Hidden("f", watch, operator.is_)


_PLACEHOLDER = _own_placeholder()


CASES: list[tuple[str, Callable[[Any], bool]]] = [
    ("object.__eq__ under another name", lambda card: _OBJECT_EQ(card, LAST) is True),
    ("a bound special method of a card", lambda card: _LAST_EQ(card) is True),
    ("object.__hash__ under another name", lambda card: (_OBJECT_HASH(card) >> 4) % 12 == 0),
    ("a module returned by a helper", lambda card: _get().same(card, LAST)),
    ("a weak reference's referent", lambda card: _WEAK()(card, LAST)),  # type: ignore[misc]
    ("a slice's stop", lambda card: _SLICE.stop(card, LAST)),
    ("a subclass of weakref.ref", lambda card: _SUB_WEAK()(card, LAST)),  # type: ignore[misc]
    ("a class claiming the builtins module", lambda card: _Builtin.same(card, LAST)),
    ("an inherited attribute", lambda card: _Derived.same(card, LAST)),
    ("an instance's inherited attribute", lambda card: _INSTANCE.same(card, LAST)),
    ("a metaclass attribute", lambda card: _WithMeta.same(card, LAST)),  # type: ignore[attr-defined]
    ("a module in a container searched by another code", _f6),
    ("a frame's globals", lambda card: _FRAME.f_globals["_IS"](card, LAST)),
    ("pickle.loads of a name in bytes", lambda card: pickle.loads(b"c_operator\nis_\n.")(card, LAST)),
    ("a module's __getattr__", lambda card: _LAZY.same(card, LAST)),
    ("a code object's constant", lambda card: _made_const()(card, LAST)),
    ("a class pattern's attribute", _by_class_pattern),
    ("the hash a library object keeps", _by_kept_hash),
    ("type under another name, an atom made again", _by_reinit),
    ("globals of another mapping kind", _ODD_GLOBALS),
    ("builtins of another mapping kind", _ODD_BUILTINS),
    ("the library's identity-keyed wrapper", _by_itself),
    ("a metaclass shadowing __flags__", lambda card: _Flags.same(card, LAST)),
    ("a metaclass shadowing __dict__", lambda card: _Dict.same(card, LAST)),
    ("a metaclass shadowing __bases__", lambda card: _Bases.same(card, LAST)),
    ("one code with other globals", _by_shared_code),
    ("a function's attribute", lambda card: _holder.same(card, LAST)),  # type: ignore[attr-defined]
    ("a type-named global shadowed in a class body", _by_class_body),
    ("globals under another name", lambda card: _G()["_IS"](card, LAST)),
    ("methods bound to cards compared", lambda card: _METHOD(_plain, card) == _LAST_METHOD),
    ("an is reached by a jump", lambda card: card is (LAST if ON else None)),
    ("ctypes' address of a card", _by_ctypes),
    ("strict_key of a tuple holding a card", _by_strict_key),
    ("the library's code with the spec's globals", _by_library_code),
    ("code objects made with a card as a constant", _by_made_code),
    ("code objects made from marshal's bytes", _by_marshalled_code),
    ("a code object's replace held beforehand", _by_held_replace),
    ("a probe placeholder of the spec's own", lambda card: _PLACEHOLDER(card, LAST)),
]


@pytest.mark.parametrize("title, test", CASES, ids=[title for title, _ in CASES])
def test_reached_c_code_never_gives_a_wrong_number(title: str, test: Callable[[Any], bool]) -> None:
    _exact(_spec(test))


def test_the_library_keying_a_card_at_the_spec_call_is_refused() -> None:
    # F13: done(card)._keyed() called by the spec stored the atom's constant hash.
    last = done(LAST)
    last._keyed()  # type: ignore[attr-defined]
    wanted = last._hash  # type: ignore[attr-defined]

    def keyed_like_last(card: Any) -> bool:
        made = done(card)
        made._keyed()  # type: ignore[attr-defined]
        return bool(made._hash == wanted)  # type: ignore[attr-defined]

    _exact(_spec(keyed_like_last))


def test_code_planted_in_a_library_module_is_not_trusted(monkeypatch: pytest.MonkeyPatch) -> None:
    # F7: the library's code is collected when drawdsl is imported, not at the first
    # traced run, so a function compiled under a library file name and planted in its
    # module afterwards is the spec's code.
    namespace: dict[str, Any] = {}
    exec(compile("def same(a, b):\n    return a is b\n", drawdsl.keys.__file__, "exec"), namespace)
    monkeypatch.setattr(drawdsl.keys, "_same_helper", namespace["same"], raising=False)
    _exact(_spec(lambda card: drawdsl.keys._same_helper(card, LAST)))  # type: ignore[attr-defined]


def test_a_pickling_hook_compiled_as_frozen_code_is_seen() -> None:
    # F8: calls were not recorded for code named "<frozen ...>"; now only the frozen
    # modules' own code is exempt, by identity.
    namespace: dict[str, Any] = {"FIRST": FIRST}
    exec(compile("def red(obj):\n    return (str, (FIRST,))\n", "<frozen spec>", "exec"), namespace)
    copyreg.pickle(Atom, namespace["red"])
    try:
        _exact(_spec(lambda card: pickle.loads(pickle.dumps(card)) == FIRST))
    finally:
        copyreg.dispatch_table.pop(Atom, None)


def test_sqlite_parameter_adapters_are_seen() -> None:
    # F11: a connection adapts a parameter by its type, through a table keyed by classes.
    sqlite3.register_adapter(Atom, FIRST.format)
    connection = sqlite3.connect(":memory:")
    try:
        _exact(_spec(lambda card: connection.execute("select ?", (card,)).fetchone()[0] == FIRST))
    finally:
        sqlite3.adapters.pop((Atom, sqlite3.PrepareProtocol), None)
        connection.close()


def test_the_truth_of_the_harness() -> None:
    truth = chances(_spec(lambda card: card == LAST), DECK, symmetric=False, lump=False, probe=False)
    assert truth == chances(_spec(lambda card: card == LAST), DECK)
    assert truth["x"] == Fraction(1, 12)
