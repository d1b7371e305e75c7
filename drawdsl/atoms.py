"""Atoms: cards with no properties but identity, to show a spec cannot see renamings.

The renaming symmetry (see :mod:`drawdsl.reductions`) is sound when the spec is
*equivariant*: renaming the cards of a state and the card drawn gives the renamed next
state, at every state it can reach.  :func:`~drawdsl.reductions.prove_symmetry` shows
that by exploring the whole state graph.  A *traced* run shows it at the states the
evaluation visits, which is all it needs:

* every card the state holds where a renaming can see it (loop states and finished
  values, through tuples, frozensets and probe cards; a generator's history), and the
  card drawn, are replaced by :class:`Atom` objects, one per card;
* an atom lets the spec compare it with another atom (``==``, ``!=``: equal only to
  itself), pass it around, and hash it where the order of a set cannot show the hash
  (a lookup in a dict held in a local variable, ``x in s``, a dict display: see
  :mod:`drawdsl.lookups`); anything else (comparing it with another value, ordering,
  arithmetic, ``str``, ``bool``, an attribute, ``isinstance``, ``hash()``, a set
  display, another call that hashes it) is a *use a renaming could see*: the
  watch records it and the run stops (:class:`Unfaithful`, a ``BaseException``);
* the traced continuation must hold atoms only where a renaming can see them, no card
  of the deck there that was not an atom (a constant), and, once its atoms are turned
  back into the cards, equal the real continuation; neither run may raise an error in
  the spec's code, even one it catches (``sys.settrace``), and both must run the same
  functions of the spec (the collector is paused meanwhile).

Why this is sound.  A run that used its atoms only through identity computes the same
thing for every renaming of them: the traced run at a state ``s`` and card ``c`` is,
atom for atom, the run at every renamed ``(g s, g c)``.  So the spec is equivariant on
the whole orbit of every state the evaluation visits, and the symmetric evaluation
only reaches states in those orbits (each state it keeps stands for its renamings).
The comparison with the real continuation checks, at each visited state, that the
atoms behaved as the cards do.  ``type()`` is not watched, so a deck of more than one
type of card is never traced (with one type, a type test goes the same way for every
card, and the comparison with the real continuation sees the atom's differ); nor is
``is``, so code that compares with ``is`` other than with None, True, False or a type
refuses the run, and a deck holding None, True or False is never traced.  The trace
also refuses code that names ``id``, ``operator.is_`` or a comparison method, or
reaches such a C function under another name (an alias, a default argument), calls
of the library's own ``__eq__``/``__hash__`` from the spec's code (a spec's key
compares an atom by its type tag), and a thread started (the trace sees one thread).
Where hashing is allowed, an atom hashes by its address, the same wherever it is
hashed: the evaluator's own keys of a traced state do not depend on the cards, and a
set of n atoms is built in n steps (with one hash for all atoms it took n^2
comparisons).  C code that writes a card itself but hands other objects to a hook (json's
encoder, a pickler, ``sqlite3.adapt``) is refused by name, or when the code reaches one
(a global, a module's attribute, a local at a call, return or yield, or the first items
of a container there): its hook may be C code that ignores an atom.  Identity read
where the trace cannot see it (such an encoder held deeper, in a list inside a list,
with a C hook) is not watched: a spec that tells cards apart by identity must pass ``symmetric=False``.

>>> tracer = Tracer(("a", "b"))
>>> from drawdsl import loop, fail, done
>>> def pair(state, card):
...     return card if state is None else (done(True) if card == state else fail())
>>> head, _ = normal(loop(None, pair), 2)
>>> child, extra = normal(head.k("a"), 1)
>>> tracer.check(head, 0, child, extra, 1) is None
True
>>> def above(state, card):
...     return card if state is None else done(card > state)
>>> head, _ = normal(loop(None, above), 2)
>>> child, extra = normal(head.k("a"), 1)
>>> second, extra = normal(child.k("b"), 0)
>>> tracer.check(child, 1, second, extra, 0)
'the spec orders cards (<, >, sorted, min, max)'
"""

from __future__ import annotations

import _json
import _pickle
import _thread
import collections
import dis
import functools
import gc
import marshal
import operator
import os
import sys
import types
import weakref
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from drawdsl.keys import strict_key
from drawdsl.lookups import looks_up, makes_sets, prepare, set_maker
from drawdsl.order_blind import code_instructions, constant_strings, hash_blind_step, hash_fields
from drawdsl.own_code import codes_of, frozen_codes, functions_named, globals_of
from drawdsl.probes import NAME_TYPES, Hidden, Seen, Token, Watch, _hidden, _Probe, name_field, show
from drawdsl.reductions import CardIndex, head_support, normal, rename_spec
from drawdsl.spec import _Done, _Draw, _Fail, _spec_or_raise

__all__ = ["Atom", "Tracer", "Unfaithful", "Untraced", "watching"]

T = TypeVar("T")


class Unfaithful(BaseException):
    """A traced run used a card in a way a renaming could see: the run proves nothing
    (a ``BaseException`` so that ``except Exception`` does not swallow it; the watch
    keeps the record in case a bare ``except`` does)."""


class Untraced(Exception):
    """A traced run did not show the spec blind to renamings (``reason`` says why): the
    evaluation that assumed it starts again without it."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


#: Uses a run signals before atoms act as their cards instead (a spec that swallows
#: the signal and tries again then finishes; the run is thrown away).
SIGNALS = 100


class AtomWatch:
    """What one traced run saw: the first use a renaming could see (None: none)."""

    __slots__ = (
        "use", "signals", "armed", "cards", "calls", "chain", "recording", "lookup_hash", "looked_up",
        "makes_sets", "scan_sets", "clean", "again", "plain", "hashes", "trusted",
    )

    def __init__(self, cards: frozenset[Any] = frozenset(), lookup_hash: int | None = None) -> None:
        #: The deck's cards as plain values (a dict key equal to one is not safe).
        self.cards = cards
        #: The hash every atom gives the spec's lookups (drawdsl.lookups) in this run.
        self.lookup_hash = _ATOM_HASH if lookup_hash is None else lookup_hash
        #: Whether the spec looked an atom up (in a dict, or with ``in``).
        self.looked_up = False
        #: What in the spec's code can make a set of a dict's keys (None: nothing seen),
        #: looked for only when ``scan_sets`` (the runs after one that looked a card up).
        self.makes_sets: str | None = None
        self.scan_sets = lookup_hash is not None
        #: A run again with a card's hash (after one that looked a card up).
        self.again = lookup_hash is not None
        #: The classes searched for set makers in this run (see _reaches_set_makers).
        self.clean: dict[int, type] = {}
        #: What the searches for C code that tells a stand-in from a card found clean (see
        #: _reaches_hooked): this run's, or the evaluation's (a :class:`Tracer`'s runs share one).
        self.plain = _Searched()
        self.use: str | None = None
        self.signals = 0
        self.armed = True
        #: The code the spec ran (while ``recording``): both runs must run the same.
        self.calls: set[types.CodeType] = set()
        #: How often each of its functions was called from where in its own code (the
        #: caller's code and instruction): C code calling a hook for an atom only shows here.
        self.chain: collections.Counter[tuple[Any, ...]] = collections.Counter()
        self.recording = True
        #: The loop step shown to hash cards only where no order or plain value can
        #: show (:func:`~drawdsl.order_blind.hash_blind_step`), as (code, globals): its
        #: own frame may hash an atom; None: no code of the spec's may.
        self.hashes: tuple[types.CodeType, dict[str, Any]] | None = None
        #: Frames found (by id) whose callers up to the traced run are the evaluator's own,
        #: each called by name (see _evaluator_keys): held, so that no other frame takes
        #: their address, and a running frame's callers do not change (a generator's
        #: frame, which gets a new caller at each resume, is never kept).
        self.trusted: dict[int, types.FrameType] = {}

    def close(self) -> None:
        """The run is over: later uses (a suspended generator's ``finally``) do not raise."""
        self.armed = False
        self.trusted = {}


def _seen(atom: Atom, use: str) -> None:
    watch: AtomWatch = object.__getattribute__(atom, "_watch")
    if watch.use is None:
        watch.use = use
    if not watch.armed:
        return
    watch.signals += 1
    if watch.signals <= SIGNALS:
        raise Unfaithful(use)


_KEY_TYPES = (int, str, bool, float, bytes, type(None))
_OTHERS = frozenset({*_KEY_TYPES, tuple, frozenset})
# The evaluator's own modules, whose hashing only keys states (never decides a value).
_HERE = os.path.dirname(os.path.abspath(__file__))
_INTERNAL = frozenset(
    os.path.join(_HERE, name)
    for name in (
        "keys.py", "spec.py", "frames.py", "order_blind.py", "reductions.py", "atoms.py", "lookups.py",
    )
)


_ATOM_HASH = 0x5EED_A70
#: Code flags of functions whose frames are suspended and resumed (generators, coroutines).
_SUSPENDS = 0x20 | 0x80 | 0x200 | 0x100
# Lookups of atoms in dicts (drawdsl.lookups) are switched off: a review found tuple keys
# made of cards (``chart.get((a, b))``) never meeting a plain key in the reruns, and
# set types reached past the search (a base class, a metaclass, a weakref, a slice).
_LOOKUPS = False
# The evaluator's functions that hash a traced state to key it (by file and name).  Only
# these: a C function the spec supplies (``.map(frozenset)``, ``.map(dict.fromkeys)``)
# is called from the library's frames too, and its hashing is the spec's.
_KEYS_MADE = (
    ("keys.py", "strict_key"), ("keys.py", "_key"), ("keys.py", "set_layout"), ("frames.py", "_freeze"),
    ("reductions.py", "support"),
    ("spec.py", "__init__"), ("spec.py", "_keyed"),
)


class _Own:
    """The library's code objects (their ids, see :mod:`drawdsl.own_code`): a frame is
    the library's when its code object is one of these, whatever its file name says."""

    __slots__ = ("internal", "ours", "spec_files", "keys_made", "frozen", "globals", "entries", "addresses")

    def __init__(self) -> None:
        #: Code id -> its module's globals: a frame is the library's with both.
        self.globals = globals_of([os.path.basename(path) for path in _OURS])
        #: The traced runs' own frames, where the evaluator keys a traced state.
        self.entries = frozenset(id(f.__code__) for f in (Tracer._run, Tracer._raises, Tracer._traced))
        #: The code of the interpreter's frozen modules (abc's checks, run as its caches
        #: fill): by identity, since any code can be compiled under "<frozen ...>".
        self.frozen = frozen_codes()
        self.internal = codes_of([os.path.basename(path) for path in _INTERNAL])
        self.ours = codes_of([os.path.basename(path) for path in _OURS])
        self.spec_files = codes_of([os.path.basename(path) for path in _SPEC_FILES])
        self.keys_made = functions_named(_KEYS_MADE)
        #: The library's keys by identity, whose hash is their value's address: only the
        #: evaluator's keying may run them in a traced run (see _catching).
        from drawdsl.frames import _Same
        from drawdsl.keys import _Itself

        self.addresses = frozenset(id(kind.__hash__.__code__) for kind in (_Itself, _Same))


_OWN: list[_Own] = []


def _library(frame: types.FrameType, ids: frozenset[int]) -> bool:
    """Whether ``frame`` runs the library's code ``ids`` with the library's globals."""
    code = id(frame.f_code)
    return code in ids and _own().globals.get(code) is frame.f_globals


def _evaluator_keys(frame: types.FrameType | None, trusted: dict[int, types.FrameType] | None = None) -> bool:
    """Whether ``frame`` (a keying function's, hashing a traced card) and those above it
    are the library's, up to a traced run's own frame, each called by the one above it
    by name (:func:`_entered_by_name`): then the evaluator keys a traced state.

    Not when the spec called in (``done(card).map(g)._hash``, ``strict_key((card,))``),
    nor when the library called the spec's function and that function is the library's
    own (``spec.map(set_layout)``, ``spec.map(functools.partial(done))``): its result goes
    back to the spec, and a review found ``set_layout`` reading the atoms' hashes there.

    ``trusted`` (a run's :attr:`AtomWatch.trusted`) keeps the frames found so: the walk
    stops at one of them, once the call into the frame below it is checked."""
    if frame is None:
        return False
    own = _OWN[0]
    lib_globals, entries, pairs = own.globals, own.entries, _PAIRS
    trusted = {} if trusted is None else trusted
    below_code = id(frame.f_code)
    above = frame.f_back
    found: list[types.FrameType] = []
    while above is not None:
        code = id(above.f_code)
        if lib_globals.get(code) is not above.f_globals:
            return False  # the spec's frame (or the library's code with other globals)
        if code in entries:
            break
        known = pairs.get((code, above.f_lasti, below_code))
        if known is None:
            known = _entered_by_name(above, frame.f_code)
        if not known:
            return False
        if trusted.get(id(above)) is above:
            break
        found.append(above)
        frame, below_code, above = above, code, above.f_back
    else:
        return False
    for known_frame in found:
        if not known_frame.f_code.co_flags & _SUSPENDS:
            trusted[id(known_frame)] = known_frame
    return True


#: A continuation object is called by the name of the variable that holds it (``k(card)``,
#: ``f(value)``): a library frame running ``__call__`` runs the library's own method on the
#: library's object (a spec's function is the spec's code, and the walk stops there).
_ENTERED_ANYHOW = frozenset({"__call__"})
#: Special methods C code calls for the library's frame (a dict lookup hashes a spec with
#: its ``__hash__``): only at an operator of the library's own code (``d[k]``, ``k in s``)
#: or a call of one of these names.  Not at a call of the spec's function: ``.map(hash)``
#: on ``done(cards)`` ran ``_Done.__hash__`` for the spec and gave it the atoms' hashes
#: (a review found a wrong answer).
_FROM_C = frozenset({"__hash__", "__eq__", "__ne__"})
_HASHING_CALLS = frozenset({
    "get", "setdefault", "pop", "add", "discard", "remove", "update", "fromkeys", "union",
    "hash", "frozenset", "set", "dict", "tuple", "index", "count",
})
_UNSEEN = object()
#: What :func:`_callee` says of an instruction that is not a call (an operator).
_OPERATOR = "<operator>"
#: (library code, call offset) -> what the call there calls (see _callee).  The library's
#: code objects live as long as the process, so their ids are never reused.
_CALLEES: dict[tuple[int, int], Any] = {}


def _entered_by_name(above: types.FrameType, below: types.CodeType) -> bool:
    """Whether the library frame ``above`` is running a call of ``below``'s function by
    that function's own name (``strict_key(x)``, ``self._keyed()``, ``_Loop(s, f)`` for
    its ``__init__``), or of a comprehension it made, or whether ``below`` is one of
    :data:`_ENTERED_ANYHOW`, or ``above`` one of :data:`_RUNNERS`.  A function the spec
    handed the library is called by the name of the variable that holds it
    (``self.f(value)``, ``k(card)``), never its own."""
    pair = (id(above.f_code), above.f_lasti, id(below))
    known = _PAIRS.get(pair)
    if known is None:
        known = _PAIRS[pair] = _calls_by_name(above, below)
    return known


#: (library code, call offset, library code called) -> whether it is called by name there
#: (the walk checks that both are the library's: their ids are never reused).
_PAIRS: dict[tuple[int, int, int], bool] = {}


def _calls_by_name(above: types.FrameType, below: types.CodeType) -> bool:
    """:func:`_entered_by_name`, not kept."""
    name = below.co_name
    if name in _ENTERED_ANYHOW or id(above.f_code) in _RUNNERS:
        return True
    key = (id(above.f_code), above.f_lasti)
    callee = _CALLEES.get(key, _UNSEEN)
    if callee is _UNSEEN:
        callee = _CALLEES[key] = _callee(above.f_code, above.f_lasti)
    if name in _FROM_C:
        return callee is _OPERATOR or callee in _HASHING_CALLS or callee == name
    if callee is None or callee is _OPERATOR:
        return False
    if type(callee) is types.CodeType:
        return callee is below
    if callee == name:
        return True
    target = above.f_globals.get(callee)  # a global name: what it holds (an alias, a class)
    if type(target) is type:
        target = getattr(target, "__init__", None)
    return getattr(target, "__code__", None) is below


#: How many values an instruction takes from the stack and puts on it, for those a
#: call's arguments are made of (a function of its arg); any other ends the search.
_EFFECTS: dict[str, Callable[[int], tuple[int, int]]] = {
    **{name: (lambda arg: (0, 1)) for name in (
        "LOAD_FAST", "LOAD_CONST", "LOAD_DEREF", "LOAD_CLOSURE", "PUSH_NULL", "LOAD_ASSERTION_ERROR")},
    "LOAD_GLOBAL": lambda arg: (0, 1 + (arg & 1)),
    "LOAD_ATTR": lambda arg: (1, 1),
    "LOAD_METHOD": lambda arg: (1, 2),
    **{name: (lambda arg: (2, 1)) for name in (
        "BINARY_OP", "COMPARE_OP", "IS_OP", "CONTAINS_OP", "BINARY_SUBSCR")},
    **{name: (lambda arg: (1, 1)) for name in (
        "UNARY_NOT", "UNARY_NEGATIVE", "UNARY_POSITIVE", "UNARY_INVERT", "GET_ITER")},
    **{name: (lambda arg: (arg, 1)) for name in ("BUILD_TUPLE", "BUILD_LIST", "BUILD_SET", "BUILD_SLICE")},
    "BUILD_MAP": lambda arg: (2 * arg, 1),
    "BUILD_CONST_KEY_MAP": lambda arg: (arg + 1, 1),
    "CALL": lambda arg: (arg + 2, 1),
    "MAKE_FUNCTION": lambda arg: (1 + bin(arg & 0x0F).count("1"), 1),
    **{name: (lambda arg: (0, 0)) for name in (
        "PRECALL", "KW_NAMES", "NOP", "RESUME", "CACHE", "EXTENDED_ARG")},
}
#: The instructions that call (only ``CALL`` is followed to its callable).
_CALLS = frozenset({"CALL", "CALL_FUNCTION_EX", "PRECALL", "SEND", "FOR_ITER", "YIELD_VALUE", "RETURN_VALUE",
                    "BEFORE_WITH", "GET_AWAITABLE", "LOAD_BUILD_CLASS"})


def _callee(code: types.CodeType, lasti: int) -> str | types.CodeType | None:
    """What the ``CALL`` at offset ``lasti`` of ``code`` calls, read off the instruction
    that put it on the stack: a name (``LOAD_GLOBAL``, ``LOAD_METHOD``, or the
    ``LOAD_FAST``/``LOAD_ATTR`` after a ``PUSH_NULL``), or the code object of a function
    made there (a comprehension); :data:`_OPERATOR` at an instruction that calls nothing
    itself (``d[k]``, ``a == b``: C code may call a special method there); None when the
    search meets anything else (a branch, an instruction it does not follow, another
    kind of call)."""
    # Read with the trace paused: the trace refuses the code of dis (it names `is`), which
    # here runs for the library, not for the spec.  (Not kept: the callee is, per call.)
    trace = sys.gettrace()
    sys.settrace(None)
    try:
        instructions = code_instructions(code)
    finally:
        sys.settrace(trace)
    # (A frame in a call shows the last of the call's inline caches as its last instruction.)
    at = next((i for i in range(len(instructions) - 1, -1, -1) if instructions[i].offset <= lasti), None)
    if at is None:
        return None
    if instructions[at].opname not in _CALLS:
        return _OPERATOR
    if instructions[at].opname != "CALL":
        return None
    argc = instructions[at].arg or 0

    def pusher(depth: int) -> int | None:
        """The index of the instruction that put the value ``depth`` from the top (1: the
        top) on the stack just before the call."""
        need = depth
        for i in range(at - 1, -1, -1):
            ins = instructions[i]
            effect = _EFFECTS.get(ins.opname)
            if effect is None:
                return None
            pops, pushes = effect(ins.arg or 0)
            if need <= pushes:
                return i
            need += pops - pushes
            if ins.is_jump_target:
                return None  # the values below may come from elsewhere
        return None

    first = pusher(argc + 2)  # the NULL (or the method) under the callable
    if first is None:
        return None
    ins = instructions[first]
    if ins.opname in ("LOAD_GLOBAL", "LOAD_METHOD"):
        return str(ins.argval)
    if ins.opname == "MAKE_FUNCTION" and first > 0 and instructions[first - 1].opname == "LOAD_CONST":
        made = instructions[first - 1].argval
        return made if type(made) is types.CodeType else None
    if ins.opname == "PUSH_NULL":
        second = pusher(argc + 1)
        if second is not None and instructions[second].opname in ("LOAD_FAST", "LOAD_ATTR", "LOAD_DEREF"):
            return str(instructions[second].argval)
    return None


def _own() -> _Own:
    """The library's code objects, collected at the first traced run (every module loaded)."""
    if not _OWN:
        _OWN.append(_Own())
    return _OWN[0]


class Atom:
    """A card in a traced run: equal only to itself, and nothing else about it shows."""

    __slots__ = ("_watch",)  # not its card: no way around the watch can read it

    def __init__(self, watch: AtomWatch) -> None:
        try:
            object.__getattribute__(self, "_watch")
        except AttributeError:
            object.__setattr__(self, "_watch", watch)
            return
        _seen(self, "the spec calls a card's __init__")  # another watch put in the run's place

    def __eq__(self, other: object) -> bool:
        if type(other) is Atom:
            return self is other
        if not _unlike(self, other):
            _seen(self, "the spec compares a card with a value that is not a card it was handed")
            return False
        return False

    def __ne__(self, other: object) -> bool:
        if type(other) is Atom:
            return self is not other
        if not _unlike(self, other):
            _seen(self, "the spec compares a card with a value that is not a card it was handed")
            return True
        return True

    def __hash__(self) -> int:
        # Where hashing is allowed, an atom hashes by its address, which says nothing of
        # the card it stands for (its card's hash would tell): the evaluator's own keys of
        # a traced state do not depend on the cards, and a set of n atoms is built in n
        # steps (with one hash for all, n^2 comparisons).
        caller = sys._getframe(1)
        own = _OWN[0]
        code = id(caller.f_code)
        if code in own.keys_made and own.globals.get(code) is caller.f_globals:
            watch: AtomWatch = object.__getattribute__(self, "_watch")
            if _evaluator_keys(caller, watch.trusted):
                return id(self) >> 4
            # A key made at the spec's own call (``done(card).map(g)``, ``strict_key((card,))``):
            # what the library keeps of it could be read back, and it is not a card's.
            _seen(self, "the spec makes the library's key of a card itself")
            return _ATOM_HASH
        hashes = object.__getattribute__(self, "_watch").hashes
        if hashes is not None and (
            (caller.f_code is hashes[0] and caller.f_globals is hashes[1]) or caller.f_code is _RENAME_CODE
        ):
            return id(self) >> 4  # a loop step shown to hash cards where no order can show
        if not _LOOKUPS:
            _seen(self, "the spec hashes a card (a set or dict keyed by cards: a set's order could show "
                        "which card it is); keep cards in tuples and compare them with ==")
            return _ATOM_HASH
        if not looks_up(caller):
            _seen(self, "the spec hashes a card other than to look it up in a dict (a set's order could "
                        "show which card it is)")
            return _ATOM_HASH
        # A lookup: in this run every atom hashes as the watch says (see Tracer._check).
        looking: AtomWatch = object.__getattribute__(self, "_watch")
        looking.looked_up = True
        return looking.lookup_hash

    def __getattribute__(self, name: str) -> Any:
        if name == "__class__":
            caller = sys._getframe(1)
            if _library(caller, _own().internal) and _evaluator_keys(caller):
                return Atom  # isinstance() in the evaluator's own keys
        _seen(self, f"the spec reads .{name} of a card")
        raise AttributeError(name)

    def __setattr__(self, name: str, value: Any) -> None:
        _seen(self, "the spec sets an attribute of a card")
        raise AttributeError(name)

    def __delattr__(self, name: str) -> None:
        _seen(self, "the spec deletes an attribute of a card")
        raise AttributeError(name)


def _unlike(atom: Atom, other: Any) -> bool:
    """Whether every card is unequal to ``other``, so comparing any atom with it gives
    False: plain cards and a plain value (or None, a tuple) equal to none of them."""
    if type(other) not in _OTHERS:
        return False
    watch: AtomWatch = object.__getattribute__(atom, "_watch")
    try:
        return other not in watch.cards
    except TypeError:
        return False


_ORDER = ("lt", "le", "gt", "ge")


def _using(name: str) -> Callable[..., Any]:
    what = (
        "the spec orders cards (<, >, sorted, min, max)" if name in _ORDER
        else f"the spec uses a card with {name}()" if name in ("bool", "str", "repr", "format", "len", "iter")
        else f"the spec uses a card in __{name}__"
    )

    def use(self: Atom, *args: Any, **kwargs: Any) -> Any:
        _seen(self, what)
        raise TypeError(f"a traced card cannot be used with __{name}__")

    return use


# Every special method Python may look up on the type (as for probes.Hidden), but
# equality and hashing, which are the atoms' own.
_SPECIAL = (
    "lt", "le", "gt", "ge", "bool", "len", "length_hint", "iter", "reversed", "contains",
    "next", "getitem", "setitem", "delitem", "missing", "call", "int", "float", "complex",
    "index", "round", "trunc", "floor", "ceil", "str", "repr", "format", "bytes", "fspath",
    "add", "radd", "iadd", "sub", "rsub", "isub", "mul", "rmul", "imul", "matmul", "rmatmul",
    "imatmul", "truediv", "rtruediv", "itruediv", "floordiv", "rfloordiv", "ifloordiv", "mod",
    "rmod", "imod", "divmod", "rdivmod", "pow", "rpow", "ipow", "lshift", "rlshift", "ilshift",
    "rshift", "rrshift", "irshift", "and", "rand", "iand", "xor", "rxor", "ixor", "or", "ror",
    "ior", "neg", "pos", "abs", "invert", "enter", "exit", "aenter", "aexit", "await", "aiter",
    "anext", "reduce", "reduce_ex", "getstate", "setstate", "copy", "deepcopy", "dir",
    "sizeof", "getnewargs", "getnewargs_ex", "get", "set", "delete", "buffer", "release_buffer",
)
for _name in _SPECIAL:
    setattr(Atom, f"__{_name}__", _using(_name))
del _name


class _Refused(Exception):
    """A state a traced run cannot stand for (``args[0]`` says why)."""


class _Mapping:
    """Turns the cards a renaming can see into atoms (``to_atoms``) or back; duck-typed
    as the ``index`` of :func:`~drawdsl.reductions.rename_spec` (the renaming is this map)."""

    __slots__ = ("tracer", "atoms", "to_atoms", "values")

    def __init__(self, tracer: Tracer, atoms: Sequence[Atom], to_atoms: bool) -> None:
        self.tracer = tracer
        self.atoms = atoms
        self.to_atoms = to_atoms
        #: Each atom's card (a probe card's name), by the atom's identity.
        self.values = {id(atom): card.name if type(card) is Token else card
                       for atom, card in zip(atoms, tracer.cards, strict=True)}

    def rename(self, value: Any, perm: Any = None) -> Any:
        t = type(value)
        if t is Atom:
            return self.values[id(value)] if not self.to_atoms else value
        if t is tuple:
            items = [self.rename(x) for x in value]
            return value if all(a is b for a, b in zip(items, value, strict=True)) else tuple(items)
        if t is frozenset:
            members = list(value)
            moved = [self.rename(x) for x in members]
            if all(a is b for a, b in zip(moved, members, strict=True)):
                return value
            if self.to_atoms and (
                not self.atoms or object.__getattribute__(self.atoms[0], "_watch").hashes is None
            ):
                # A set of atoms would be found by the hashes of its cards: a lookup of a
                # value equal to a card could tell the atoms apart without touching them.
                # (Unless the step is shown to look up only cards and the state's values.)
                raise _Refused("the spec keeps a set of cards (its lookups could tell cards apart)")
            return frozenset(moved)
        if not self.to_atoms:
            if issubclass(t, _Probe):
                fields = tuple(tuple.__iter__(value))
                out = [self.rename(x) for x in fields]
                same = all(a is b for a, b in zip(out, fields, strict=True))
                return value if same else tuple.__new__(t, out)
            return value
        index = self.tracer.index
        if index.named:
            if t in NAME_TYPES:
                i = index.named.get(strict_key(value))
                return value if i is None else self.atoms[i]
            if issubclass(t, _Probe):
                fields = tuple(tuple.__iter__(value))
                out = [self.rename(x) for x in fields]
                same = all(a is b for a, b in zip(out, fields, strict=True))
                return value if same else tuple.__new__(t, out)
        try:
            i = index.index.get(strict_key(value))
        except TypeError:
            return value
        return value if i is None else self.atoms[i]


_QUIET = (StopIteration, StopAsyncIteration, GeneratorExit, Unfaithful, Seen)


# A cache of a function of code objects: None when an ``is`` may meet a card, else the
# global names its ``is`` compare with (each must name a type when the code runs).
_IDENTITY: dict[types.CodeType, tuple[str, ...] | None] = {}
_SINGLETONS = (None, True, False, Ellipsis)
_LOADS_NAME = frozenset({
    "LOAD_GLOBAL", "LOAD_NAME", "LOAD_ATTR", "LOAD_METHOD", "IMPORT_FROM", "IMPORT_NAME", "LOAD_DEREF",
})
_ATTRIBUTES = frozenset({"LOAD_ATTR", "LOAD_METHOD"})
# The library's own code whose ``is`` only tests types and its own objects.
_OURS = _INTERNAL | frozenset(os.path.join(_HERE, name) for name in ("probes.py", "combinators.py"))


def _dunder(name: Any) -> bool:
    """Whether ``name`` is a special method's or attribute's name (``__add__``) other than
    the harmless ones of a class's own code (``super().__init__``): called directly
    (``(0).__add__(card)``, ``object.__repr__(card)``), a builtin's method may treat a
    stand-in (an atom) unlike a card without calling it, and return
    ``NotImplemented``."""
    return type(name) is str and len(name) > 4 and name[:2] == "__" == name[-2:] and name not in _HARMLESS


# Special names a class's own code uses that cannot read a value without calling it:
# constructing, calling, iterating, naming.
_HARMLESS = frozenset({
    "__init__", "__new__", "__call__", "__post_init__", "__next__", "__enter__", "__exit__",
    "__name__", "__qualname__", "__module__", "__doc__", "__init_subclass__", "__set_name__",
})


def _compares_identity(frame: types.FrameType) -> bool:
    """Whether the code of ``frame`` has an ``is`` (or ``is not``) that could meet a card:
    one whose right side is not the constant None, True, False or ``...``, nor a global
    name of a type.  An atom is never a card of the deck to ``is`` (``card is ACE``)."""
    code = frame.f_code
    if code not in _IDENTITY:
        names: list[str] | None = []
        if any(const in _REVEALING or _dunder(const) for const in constant_strings(code.co_consts)):
            names = None  # such a name as a string, for getattr
        previous: Any = None
        for ins in dis.get_instructions(code):
            if ins.opname in _LOADS_NAME and (
                ins.argval in _REVEALING or (ins.opname in _ATTRIBUTES and _dunder(ins.argval))
            ):
                names = None  # a name that can tell an atom from a card, or such a method by name
                break
            if ins.opname == "IS_OP" and names is not None and ins.is_jump_target:
                names = None  # reached by a jump: the value compared may come from elsewhere
            elif ins.opname == "IS_OP" and names is not None:
                if previous is not None and previous.opname == "LOAD_CONST" \
                        and any(previous.argval is single for single in _SINGLETONS):
                    pass
                elif previous is not None and previous.opname == "LOAD_GLOBAL":
                    names.append(previous.argval)
                else:
                    names = None
            previous = ins
        _IDENTITY[code] = None if names is None else tuple(names)
    compared = _IDENTITY[code]
    if compared is None:
        return True
    builtins = frame.f_builtins
    for name in compared:
        value = frame.f_globals.get(name, builtins.get(name) if type(builtins) is dict else None)
        if not issubclass(type(value), type):  # (never isinstance: it reads __class__)
            return True
    return False


# Names whose use can compare cards without calling an atom's methods (identity, a
# comparison method called directly, reference counts): code that loads one refuses.
_REVEALING = frozenset({
    "__eq__", "__ne__", "__hash__", "__lt__", "__le__", "__gt__", "__ge__", "is_", "is_not", "id",
    "getrefcount", "get_referrers", "get_referents", "get_objects", "__getattribute__",
    # the evaluator's frames and hooks (a spec reading them could find the real card)
    "_getframe", "currentframe", "f_back", "f_locals", "tb_frame", "gi_frame", "settrace",
    "setprofile", "gettrace", "getprofile",
    # what tells an atom's type from a card's without calling it (type(card) is str)
    "type", "callable", "getsizeof", "builtins", "__builtins__", "globals", "vars", "locals", "modules",
    # the garbage collector and other introspection (gc.is_tracked(card): an atom is tracked)
    "gc", "is_tracked", "is_finalized", "inspect", "ctypes",
    # another thread or process, which this trace does not see
    "start_new_thread", "_start_new_thread", "start_joinable_thread", "_start_joinable_thread", "fork",
    # what a builtin's special method gives a stand-in it cannot handle
    "NotImplemented",
    # C code that writes a card itself but hands any other object to a hook, which may be
    # C code that ignores it (json's encoder with ``default=[].count``, a pickler's hooks)
    "c_make_encoder", "make_encoder", "Pickler", "reducer_override", "dispatch_table",
    # an attribute by a name built at run time (getattr(sys, "_get" + "frame"))
    "getattr", "attrgetter", "methodcaller",
    # the traced runs' own machinery (a second hook takes what runs under it out of the watch)
    "watching", "_catching", "AtomWatch", "Tracer",
    # a frame's or traceback's other ways in, and modules fetched by a name built at run time
    "f_globals", "f_builtins", "f_code", "f_trace", "tb_next", "gi_code", "cr_frame", "ag_frame",
    "__import__", "import_module", "register_adapter", "adapters",
    # the hash the library's objects keep (of a stand-in's key: not a card's)
    "_hash", "MethodType", "_ctypes", "py_object",
    # code objects made at run time: they compare their constants by identity, in C
    "__code__", "CodeType", "co_consts", "marshal", "cr_code", "ag_code",
})
# The C objects behind those names: a run whose code reaches one made beforehand (a global,
# a module's attribute, an argument or a closure's variable) is refused like a run naming it.
_HOOKED = (_json.make_encoder, _pickle.Pickler, _pickle.Unpickler)
# Objects reading an attribute by a name given when they were made (perhaps built).
_GETTERS = (operator.attrgetter, operator.methodcaller)
# Builtin types' methods, unbound and bound (a special one is refused: see _hooked).
_SLOTS = frozenset({
    types.WrapperDescriptorType, types.MethodWrapperType, types.MethodDescriptorType,
    types.ClassMethodDescriptorType, types.BuiltinFunctionType,
})
# What the search cannot look into and must not pass.
_OPAQUE = frozenset({types.FrameType, types.TracebackType, weakref.ProxyType, weakref.CallableProxyType})
# A cache of a function of code objects: the global names it loads, and the attributes it reads.
_REACHES: dict[types.CodeType, tuple[tuple[str, ...], frozenset[str]]] = {}


def _loaded(code: types.CodeType) -> tuple[tuple[str, ...], frozenset[str]]:
    """The global names ``code`` loads, and the attributes it reads (cached): by
    ``.name``, and any string among its constants (``getattr`` is refused, but a class
    pattern reads the attributes named in a tuple constant)."""
    reach = _REACHES.get(code)
    if reach is None:
        loaded: list[str] = []
        read: set[str] = set(constant_strings(code.co_consts))
        for ins in dis.get_instructions(code):
            if ins.opname in ("LOAD_GLOBAL", "LOAD_NAME"):
                loaded.append(ins.argval)
            elif ins.opname in _ATTRIBUTES:
                read.add(ins.argval)
        reach = _REACHES[code] = (tuple(dict.fromkeys(loaded)), frozenset(read))
    return reach


def _reached(frame: types.FrameType, names_too: bool) -> tuple[list[Any], frozenset[str]]:
    """The values ``frame``'s code can reach directly: its locals and, with ``names_too``,
    the global names it loads; and the attributes it reads (of a module among them)."""
    values = list(frame.f_locals.values())
    attributes: frozenset[str] = frozenset()
    if names_too:
        names, attributes = _loaded(frame.f_code)
        found = frame.f_globals
        builtins = frame.f_builtins
        if not isinstance(builtins, dict):
            builtins = {}
        values.extend([found[name] if name in found else builtins.get(name) for name in names])
        values.append(frame.f_code)  # its constants (code.replace(co_consts=...) can hold anything)
    return values, attributes


class _Searched:
    """What the searches of one evaluation found clean (see :func:`_reaches_hooked`)."""

    __slots__ = ("objects", "modules", "checked")

    def __init__(self) -> None:
        #: Objects searched, by id, kept alive here (so no id is used twice).
        self.objects: dict[int, Any] = {}
        #: Every module met (a global, an attribute, one held in an object): a code that
        #: reads an attribute may get one of these at run time (returned by a helper).
        self.modules: dict[int, types.ModuleType] = {}
        #: Code -> how many modules were known when its attributes were looked up in them.
        self.checked: dict[types.CodeType, int] = {}


def _reaches_hooked(
    frame: types.FrameType, names_too: bool = True, searched: _Searched | None = None,
) -> bool:
    """Whether the code of ``frame`` can reach what tells a stand-in from a card without
    calling it (:func:`_hooked`: a C encoder or pickler, ``id``, ``getattr``, an
    ``attrgetter``, C code handing other objects to a protocol's hook such as
    ``sqlite3.adapt``), made before it ran: from its locals and, with ``names_too``, the
    global names it loads and the attributes it reads of a module (two levels:
    ``json.encoder.X``), searched as deep as :func:`_search` goes (containers, objects'
    and classes' attributes, closures, defaults, partials, bound methods).  It was a
    scan of the first items of a container: ``[[id]]`` passed unseen.  ``searched``: the
    objects searched before in this run (by id, kept alive there), not searched again:
    what is added to one later was reached by the code adding it, and searched there."""
    searched = _Searched() if searched is None else searched
    values, attributes = _reached(frame, names_too)
    before = searched.objects
    values = [
        value for value in values
        if type(value) not in _FLAT and id(value) not in before
        and not (type(value) is tuple and all(type(item) in _FLAT for item in value))
    ]
    code = frame.f_code
    read = _loaded(code)[1]
    roots: list[Any] = []
    if read and searched.checked.get(code) != len(searched.modules):
        # Every module met so far, by the attributes this code reads: a helper may have
        # handed one over (``get().same``), which no name of this code shows.
        searched.checked[code] = len(searched.modules)
        for module in list(searched.modules.values()):
            roots.extend(_module_reach(module, read))
    if not values and not roots:
        return False  # the usual case: numbers, strings, atoms, what this evaluation searched
    roots.extend(_roots(values, attributes, searched.modules))
    found = _search(roots, {}, _hooked_why, read, searched.objects, _NEVER_HOOKED, _HOOK_SEARCH,
                    searched.modules)
    return found is not None


def _roots(
    values: list[Any], attributes: frozenset[str], modules: dict[int, types.ModuleType] | None = None,
) -> list[Any]:
    """The values a frame reaches, a module's read attributes (two levels) beside it
    (the module kept in ``modules``)."""
    roots: list[Any] = []
    for value in values:
        if type(value) is types.ModuleType:
            if modules is not None:
                modules[id(value)] = value
            roots.extend(_module_reach(value, attributes))
        else:
            roots.append(value)
    return roots


def _module_reach(module: types.ModuleType, attributes: frozenset[str]) -> list[Any]:
    """The attributes of ``module`` the code reads, and theirs when they are modules."""
    found: list[Any] = []
    if attributes:
        found.append(vars(module).get("__getattr__"))  # PEP 562: attributes the module makes
    for attribute in attributes:
        inner = vars(module).get(attribute)
        found.append(inner)
        if type(inner) is types.ModuleType:
            found.extend(vars(inner).get(a) for a in attributes)
    return found


# Kinds of object that are never what _hooked looks for (the search still looks inside).
_NEVER_HOOKED = frozenset({
    types.FunctionType, tuple, list, dict, set, frozenset, property, staticmethod, classmethod,
    types.GetSetDescriptorType, types.MemberDescriptorType,
})


def _ctypes_made(cls: type) -> bool:
    """Whether ``cls`` is or derives from one of ctypes' C types (read past any metaclass)."""
    for base in _TYPE_MRO.__get__(cls):
        try:
            if _TYPE_MODULE.__get__(base) == "_ctypes":
                return True
        except AttributeError:  # a class made without __module__
            continue
    return False


def _hooked_why(value: Any) -> str | None:
    return "reaches C code that can tell a stand-in from a card" if _hooked(value) else None


def _reaches_set_makers(
    frame: types.FrameType, names_too: bool = True, clean: dict[int, type] | None = None,
) -> str | None:
    """What can make a set of a dict's keys (:func:`~drawdsl.lookups.set_maker`) the
    frame's code reaches: from its locals, the global names it loads and the attributes
    it reads of a module (two levels), through containers, objects' and classes'
    attributes, closures, default arguments, partials and bound methods, up to
    :data:`_SET_SEARCH` objects (past that, as if found).  None when nothing.
    ``clean``: the classes already searched in this run (by id, kept alive there),
    skipped: a spec does not change its classes."""
    values, attributes = _reached(frame, names_too)
    return _search(_roots(values, attributes), {} if clean is None else clean, set_maker, attributes)


#: How many objects the search for set makers looks through before it gives up (refuses).
_SET_SEARCH = 5_000
#: How many objects the search for C code that tells a stand-in from a card looks through
#: in one search (each object once per evaluation, so a large table costs once).
_HOOK_SEARCH = 100_000
_NO_LOOK = (Atom,)
_HIDDEN_VALUE = vars(Hidden)["_value"].__get__


def _search(
    roots: list[Any], clean: dict[int, type], check: Callable[[Any], str | None],
    attributes: frozenset[str] = frozenset(), searched: dict[int, Any] | None = None,
    unchecked: frozenset[type] = frozenset(), budget: int = _SET_SEARCH,
    modules: dict[int, types.ModuleType] | None = None,
) -> str | None:
    """The first ``check(value)`` that is not None over the objects reachable from
    ``roots`` (containers' items, a dict's keys, closures' variables, default arguments,
    partials' parts, bound methods' parts, classes' own attributes, other objects'
    referents as the collector sees them; a module only through the ``attributes`` the
    code reads, two levels), looking through at most ``budget`` objects (past that: a
    reason, as if found).  ``clean``: classes searched before (by id, kept
    alive there), skipped: a spec does not change its classes.  ``searched``: objects
    searched before with the same ``check`` (by id, kept alive there), skipped; the
    objects searched now are added to it when none is found.  Objects of the kinds
    ``unchecked`` are searched through without being checked themselves."""
    stack = list(roots)
    seen: dict[int, Any] = {}
    before = {} if searched is None else searched
    classes: list[type] = []
    while stack:
        value = stack.pop()
        kind = type(value)
        if kind in _SCALARS or id(value) in seen or id(value) in before:
            continue
        if kind is types.ModuleType:
            # Held in an object: the attributes this code reads (never marked searched:
            # another code reads others; kept in ``modules`` for them).
            if modules is not None:
                modules[id(value)] = value
            stack.extend(_module_reach(value, attributes))
            continue
        if issubclass(kind, _NO_LOOK):
            continue
        if kind is Hidden:
            # A placeholder past its signals hands every use to the value it holds: the
            # library's hold a card's field, one the spec made may hold anything.
            seen[id(value)] = value
            stack.append(_HIDDEN_VALUE(value))
            continue
        seen[id(value)] = value
        if len(seen) > budget:
            return "more objects than the search looks through"
        if kind not in unchecked:
            found = check(value)
            if found is not None:
                return found
        if kind in _CONTAINERS:
            stack.extend(value.values() if kind is dict else value)
            if kind is dict:
                stack.extend(value)
        elif kind is types.CodeType:
            stack.extend(value.co_consts)  # code.replace(co_consts=...) can hold any object
        elif kind is types.FunctionType:
            stack.append(value.__code__)
            stack.extend(_FUNCTION_DICT.__get__(value).values())  # get.same = operator.is_
            if type(value.__globals__) is not dict:
                stack.append(value.__globals__)  # a mapping of another kind: its class too
            stack.extend(cell.cell_contents for cell in (value.__closure__ or ()) if _filled(cell))
            stack.extend(value.__defaults__ or ())
            stack.extend((value.__kwdefaults__ or {}).values())
        elif kind is types.MethodType:
            stack.extend((value.__self__, value.__func__))
        elif kind is types.BuiltinFunctionType:
            # A C function: a module's (nothing more to reach than its module's attributes,
            # which the code names) or an object's bound method (that object, searched).
            owner = value.__self__
            if owner is not None and type(owner) is not types.ModuleType:
                stack.append(owner)
        elif kind is functools.partial:
            stack.extend((value.func, *value.args, *value.keywords.values()))
        elif issubclass(kind, type):
            # A class the spec made (a heap type; never by its ``__module__``, which a
            # class may claim): its own attributes, its whole MRO and its metaclass, read
            # through type's own descriptors (a metaclass may shadow ``__flags__``,
            # ``__dict__`` or ``__bases__``; no attribute lookup runs the spec's code here).
            if _heap(value) and id(value) not in clean:
                classes.append(value)
                stack.extend(_TYPE_DICT.__get__(value).values())
                stack.extend(base for base in _TYPE_MRO.__get__(value) if _heap(base))
                if _heap(kind):
                    stack.append(kind)
        elif issubclass(kind, weakref.ReferenceType):
            stack.append(value())  # the collector does not see a weak reference's referent
            if kind is not weakref.ReferenceType:
                stack.extend(gc.get_referents(value))  # a subclass's own attributes
        elif kind is slice:
            stack.extend((value.start, value.stop, value.step))
        else:
            # Its attributes (and its class), as the collector sees them: reading
            # ``__dict__`` would make one where there was none, a change of state.
            stack.extend(gc.get_referents(value))
    clean.update((id(c), c) for c in classes)
    if searched is not None:
        searched.update(seen)
    return None


_SCALARS = frozenset({int, str, bool, float, bytes, complex, type(None), range})
_HEAP_TYPE = 1 << 9  # Py_TPFLAGS_HEAPTYPE: a class made by a class statement or type()
_TYPE_FLAGS = type.__dict__["__flags__"]
_TYPE_DICT = type.__dict__["__dict__"]
_TYPE_MRO = type.__dict__["__mro__"]
_TYPE_MODULE = type.__dict__["__module__"]
_FUNCTION_DICT = types.FunctionType.__dict__["__dict__"]


def _heap(cls: type) -> bool:
    """Whether ``cls`` is a class made by Python code (read past any metaclass)."""
    return bool(_TYPE_FLAGS.__get__(cls) & _HEAP_TYPE)
_CONTAINERS = frozenset({tuple, list, dict, set, frozenset})


def _hooked(value: Any, depth: int = 0) -> bool:
    """Whether ``value`` is, or wraps, C code that may hand a stand-in to a hook that ignores it."""
    # By type, never isinstance(): that reads ``__class__``, a use of a placeholder.
    kind = type(value)
    if issubclass(kind, _HOOKED) or id(value) in _DENIED_C:
        return True
    if issubclass(kind, _GETTERS):
        return True  # attrgetter("_get" + "frame"): an attribute by a name built at run time
    if kind is type and issubclass(value, (*_HOOKED, *_GETTERS)):
        return True  # the class itself: the spec can make one
    if kind in _SLOTS and _dunder(getattr(value, "__name__", None)):
        # A special method of a builtin type held under another name (object.__eq__,
        # object.__hash__, "c".__eq__): it answers NotImplemented, or an address, for a
        # stand-in without calling it.
        return True
    if kind in _OPAQUE:
        return True  # a frame (the evaluator's locals), a weak proxy (its referent unseen)
    if value is types.CodeType:
        return True  # the class of code objects: a code made with a card as a constant
    if "_ctypes" in sys.modules and (_ctypes_made(kind) or (issubclass(kind, type) and _ctypes_made(value))):
        return True  # ctypes data: a py_object's buffer is the object's address
    sqlite = sys.modules.get("_sqlite3")
    if sqlite is not None and (kind in (sqlite.Connection, sqlite.Cursor)
                               or value is sqlite.Connection or value is sqlite.Cursor):
        return True  # execute() adapts a parameter by its type: a hook for a stand-in only
    if kind is types.BuiltinFunctionType:  # a C function, or a C object's bound method
        if sqlite is not None and (value is getattr(sqlite, "adapt", None) or value is sqlite.connect):
            return True
        owner = value.__self__
        if type(owner) is types.CodeType:
            return True  # code.replace(co_consts=(card,)): compared by the constants' identity
        return issubclass(type(owner), _HOOKED) or (sqlite is not None and type(owner) in (
            sqlite.Connection, sqlite.Cursor))
    if depth >= 3:
        return False
    if kind is types.MethodType:
        return _hooked(value.__self__, depth + 1) or _hooked(value.__func__, depth + 1)
    if kind is functools.partial:
        parts = (value.func, *value.args, *value.keywords.values())
        return any(_hooked(part, depth + 1) for part in parts)
    return False


# Kinds of value that reach nothing: a frame whose values are all of these reaches no C
# code (the usual case, at C speed).
_FLAT = frozenset({int, str, bool, float, bytes, type(None), complex, range, Atom})


# C functions that tell objects apart without calling them, or run code this trace cannot
# see (another thread): a run whose code names one (see _REVEALING) or reaches one (see
# _reaches_hooked: an alias, a default argument, a partial) is refused.
_DENIED_C = frozenset(
    id(f) for f in (
        id, operator.is_, operator.is_not, sys.getrefcount, gc.get_referrers, gc.get_referents,
        gc.get_objects, sys._getframe, sys.settrace, sys.setprofile, object.__getattribute__,
        gc.is_tracked, *[vars(gc)[name] for name in ("is_finalized",) if name in vars(gc)],
        getattr, vars,  # an attribute by a name built at run time (sys, "_get" + "frame")
        type,  # under another name (T = type): a card's class, a stand-in's unlike it
        types.MethodType,  # a method bound to a card compares the card by identity
        # builtins whose names are refused, under other names (G = globals)
        globals, locals, eval, exec, compile, __import__, callable, sys.getsizeof, breakpoint,
        # pickle's C functions: a pickler built inside (hooks from copyreg for a stand-in
        # only), an unpickler handing over any global by a name in its data
        _pickle.dumps, _pickle.dump, _pickle.loads, _pickle.load,
        marshal.loads, marshal.load,  # code objects from bytes (compared by their constants' identity)
        _thread.start_new_thread,
        *[vars(_thread)[name] for name in ("start_joinable_thread",) if name in vars(_thread)],
        *([os.fork] if hasattr(os, "fork") else []),
    )
)
# The comparison and hashing methods of the library's own objects (specs): called from the
# spec's code on a traced state they would compare or hash its atoms by their keys.
_DUNDERS = frozenset({"__eq__", "__ne__", "__hash__"})
_SPEC_FILES = frozenset(
    os.path.join(_HERE, name) for name in ("spec.py", "combinators.py", "keys.py", "frames.py")
)


# Methods the evaluator's own keys call on the spec's objects (a step's ``__hash__``),
# as often in one run as the other's states need: not part of the code a run must share.
_KEYING = frozenset({"__hash__", "__eq__", "__ne__"})


def _catching(watch: AtomWatch) -> Callable[..., Any]:
    """A trace function (``sys.settrace``) recording in ``watch`` any error raised in the
    spec's own code, caught or not: an error a builtin raises on an atom but not on a
    card (``"".join([card])``), swallowed by the spec, would leave no other trace."""

    own = _own()
    internal, ours, spec_files, frozen = own.internal, own.ours, own.spec_files, own.frozen
    lib_globals, addresses = own.globals, own.addresses

    def library(frame: types.FrameType, ids: frozenset[int]) -> bool:
        code = id(frame.f_code)
        return code in ids and lib_globals.get(code) is frame.f_globals

    def local(frame: types.FrameType, event: str, arg: Any) -> Any:
        if event == "exception" and watch.use is None and not library(frame, internal) \
                and not issubclass(arg[0], _QUIET):
            watch.use = f"the spec raised {arg[0].__name__} on a traced card (caught or not)"
        elif event == "return" and watch.use is None and not library(frame, ours):
            if _reaches_hooked(frame, False, watch.plain):
                # made or fetched in the frame after it was called: the run proves nothing
                watch.use = _HOOKED_USE
            elif watch.scan_sets and watch.makes_sets is None:
                watch.makes_sets = _reaches_set_makers(frame, False, watch.clean)
        return local

    # Code whose global names were looked at in this run (its locals are, at every call,
    # every return and every yield).
    # (Keyed by the code and the globals it runs with, both kept alive: two functions may
    # share one code with other globals.)
    scanned: dict[tuple[int, int], tuple[Any, Any]] = {}

    def call(frame: types.FrameType, event: str, arg: Any) -> Any:
        code = frame.f_code
        cid = id(code)
        # The library's code with the library's globals (FunctionType(code, other_globals)
        # runs the library's code with the spec's names).
        lib = lib_globals.get(cid) is frame.f_globals
        if cid in addresses and watch.use is None and not _evaluator_keys(frame):
            # A key by identity hashes as its value's address, with no atom asked: made by
            # the spec (``keys._Itself(card)``) and shown by ``set_layout``, it told cards
            # apart by where they sit in memory (a review found a wrong answer).
            watch.use = "the spec reads the library's keys by identity (a value's address)"
        if lib and cid in internal:
            if code.co_name in _DUNDERS and cid in spec_files and watch.use is None:
                caller = frame.f_back
                if caller is not None and not library(caller, ours):
                    watch.use = _LIBRARY_USE
            return None  # the evaluator's own frames: their errors are not the spec's (see local)
        if code.co_name in _DUNDERS and cid in spec_files and watch.use is None:
            caller = frame.f_back
            if caller is not None and not library(caller, ours):
                watch.use = _LIBRARY_USE
        if watch.use is None and (type(frame.f_globals) is not dict or type(frame.f_builtins) is not dict):
            watch.use = "the spec runs code whose globals or builtins are not a dict"
        frame.f_trace_lines = False
        mine = lib and cid in ours
        if watch.recording and not mine and code.co_name not in _KEYING \
                and cid not in frozen:  # abc's checks, as caches fill
            caller = frame.f_back
            if caller is not None and not library(caller, ours) \
                    and id(caller.f_code) not in frozen:
                watch.chain[code, caller.f_code, caller.f_lasti] += 1
            else:
                watch.calls.add(code)  # called by the evaluator: as often as its replays need
        if watch.use is None and not mine:
            prepare(code)  # here, untraced: an atom hashed in this code may be a lookup (drawdsl.lookups)
            if watch.scan_sets and watch.makes_sets is None:
                watch.makes_sets = makes_sets(code) or _reaches_set_makers(
                    frame, (id(code), id(frame.f_globals)) not in scanned, watch.clean)
            key = (id(code), id(frame.f_globals))
            names_too = key not in scanned
            scanned[key] = (code, frame.f_globals)
            if _compares_identity(frame):
                watch.use = ("the spec compares values with `is` (other than with None, True, False or "
                             "a type), or names what can tell a traced card from a card (type, callable, id, "
                             "operator.is_, a special method, a C encoder or pickler, the interpreter's "
                             "frames or hooks)")
            elif _reaches_hooked(frame, names_too, watch.plain):
                watch.use = _HOOKED_USE
        return local

    call._drawdsl_watch = watch  # type: ignore[attr-defined]  # (see watching: runs do not nest)
    return call


_LIBRARY_USE = "the spec compares or hashes the library's objects (specs, keys) holding cards"
_HOOKED_USE = ("the spec reaches C code that can tell a traced card from a card without calling it "
               "(id, operator.is_, gc's, a C encoder or pickler: json's, pickle's, sqlite3.adapt)")


def watching(record: AtomWatch, run: Callable[[], T]) -> T:
    """``run()`` under :func:`_catching`, which records in ``record.use`` any error raised
    in the spec's code (caught or not) and any code that names what can tell objects
    apart without using them (``type``, ``id``, ``is`` with a value, a special method),
    and a spec that changes the hook.  A run with ``record.use`` None used its values
    only through their own methods: it computes alike for any stand-ins whose methods
    answer alike (a name and its plain value).

    >>> record = AtomWatch()
    >>> watching(record, lambda: type(13) is int), record.use is not None
    (True, True)
    """
    previous = sys.gettrace()
    outer: AtomWatch | None = getattr(previous, "_drawdsl_watch", None) if previous is not None else None
    if outer is not None:
        # Already in a traced run (the spec called this, or an evaluation inside the spec):
        # a second hook would take what runs under it out of the first run's watch (a review
        # found `is` and addresses read unseen that way).  The outer run is refused.
        if outer.use is None:
            outer.use = "the spec runs a traced run's watch itself (drawdsl.atoms.watching)"
        if record.use is None:
            record.use = "another traced run watches this one"
        return run()
    hook = _catching(record)
    sys.settrace(hook)
    try:
        return run()
    finally:
        if sys.gettrace() is not hook and record.use is None:
            record.use = "the spec changed the interpreter's trace hook"
        sys.settrace(previous)


#: The library's functions that run a callable they are handed (:func:`watching`, for
#: the real card's run): what they call is the caller's, whose own call is checked.
_RUNNERS = frozenset({id(watching.__code__)})


def _atoms_inside(value: Any, limit: int = 20_000) -> bool | None:
    """Whether an :class:`Atom` is reachable from ``value`` (through containers, objects,
    closures and suspended generators; not through modules, types, code or globals);
    None when more than ``limit`` objects would have to be looked at."""
    stack = [value]
    seen: set[int] = set()
    skip = (type, types.ModuleType, types.CodeType, str, bytes, int, float)
    while stack:
        x = stack.pop()
        t = type(x)
        if t is Atom:
            return True
        # By type, never isinstance(): that reads a placeholder's ``__class__``, a use.
        if t is Hidden or id(x) in seen or issubclass(t, skip) or x is None:
            continue
        seen.add(id(x))
        if len(seen) > limit:
            return None
        if t is types.FunctionType:
            stack.extend(cell.cell_contents for cell in (x.__closure__ or ()) if _filled(cell))
            stack.extend(x.__defaults__ or ())
            stack.extend((x.__kwdefaults__ or {}).values())
        elif t is types.GeneratorType:
            if x.gi_frame is not None:
                stack.extend(x.gi_frame.f_locals.values())
        elif t is types.MethodType:
            stack.append(x.__self__)
            stack.append(x.__func__)
        else:
            stack.extend(gc.get_referents(x))
    return False


def _filled(cell: Any) -> bool:
    try:
        cell.cell_contents  # noqa: B018 - an empty cell raises
    except ValueError:
        return False
    return True


class Tracer:
    """Traced runs over the distinct cards of one deck (see the module's documentation).

    ``verify(...)`` is ``check(...)`` raising :class:`Untraced` instead of returning
    a reason.  ``check(head, drawn, child, extra, avail)`` runs ``head``'s continuation on card
    ``drawn`` with atoms, given the real ``child`` (in normal form, ``extra`` discards
    first, ``avail`` cards left after the draw): None when the run shows the spec
    equivariant there, else what it saw.
    """

    __slots__ = ("cards", "index", "usable", "values", "named", "clean", "searched", "keys")

    def __init__(self, cards: Sequence[Any]) -> None:
        self.cards = tuple(cards)
        #: Whether the cards are probe cards handed as names (checked against plain runs).
        self.named = any(type(card) is Token and card.name is not None for card in self.cards)
        self.index = CardIndex(self.cards)
        #: Why traced runs cannot be used on these cards (None: they can).
        self.usable = _traceable(self.cards)
        self.values: frozenset[Any] = frozenset()
        #: The strict keys of the cards' values (a state's leaf is a card by its key).
        self.keys: frozenset[Any] = frozenset()
        #: The classes searched for set makers in this evaluation's runs (see
        #: _reaches_set_makers): a spec does not change its classes.
        self.clean: dict[int, type] = {}
        #: What the searches for C code that tells a stand-in from a card found clean in
        #: this evaluation's runs (see _reaches_hooked).
        self.searched = _Searched()
        if self.usable is None:
            try:
                self.values = frozenset(card.name if type(card) is Token else card for card in self.cards)
                self.keys = frozenset(strict_key(value) for value in self.values)
            except TypeError:
                self.usable = "cards that cannot be hashed"

    def verify(
        self, head: _Draw[Any], drawn: int, child: Any, extra: int, avail: int, shown: Any = None,
    ) -> None:
        why = self.check(head, drawn, child, extra, avail, shown)
        if why is not None:
            raise Untraced(why)

    def check(
        self, head: _Draw[Any], drawn: int, child: Any, extra: int, avail: int, shown: Any = None,
    ) -> str | None:
        if self.usable is not None:
            return self.usable
        collecting = gc.isenabled()
        gc.disable()  # no collector callbacks or finalizers in one run and not the other
        try:
            return self._check(head, drawn, child, extra, avail, shown)
        finally:
            if collecting:
                gc.enable()

    def _check(
        self, head: _Draw[Any], drawn: int, child: Any, extra: int, avail: int, shown: Any,
    ) -> str | None:
        record = AtomWatch()
        # The objects searched in this evaluation's runs are not searched again: a spec
        # is pure (drawdsl's contract), so what it reaches does not change between runs,
        # and what a run adds to one was reached by the code adding it, searched there.
        record.plain = self.searched
        raised = self._raises(head, drawn, child, extra, avail, record, shown)
        if raised is not None:
            return raised
        watch = AtomWatch(self.values)
        watch.plain = self.searched
        why = self._traced(head, drawn, child, extra, avail, shown, record, watch)
        if why is None and watch.looked_up:
            # The spec looked atoms up in dicts (drawdsl.lookups), where a key is compared
            # only with keys of the same hash: a plain key equal to a card (``d[14]``,
            # ``d[len(d)]``) next to an atom would never be compared with it, though
            # under some renaming it is that card.  So the run again with every atom
            # hashing as each card does: then any such key meets the atoms, and the
            # comparison is seen (an atom compared with a value equal to a card).
            # Each is compared with the card's run in full, and looks for code that can
            # make a set of a dict's keys (see _run): a stored key's own ``__eq__`` may
            # answer for the atom without asking it (``__eq__ = slice``), so a run may
            # take another path where its hash meets that key.
            for value_hash in sorted({hash(value) for value in self.values}):
                watch = AtomWatch(self.values, value_hash)
                watch.clean, watch.plain = self.clean, self.searched
                why = self._traced(head, drawn, child, extra, avail, shown, record, watch)
                if why is not None:
                    return why
        return why

    def _traced(
        self, head: _Draw[Any], drawn: int, child: Any, extra: int, avail: int, shown: Any,
        record: AtomWatch, watch: AtomWatch,
    ) -> str | None:
        """One traced run, watched by ``watch``, compared with the real card's (``record``)."""
        atoms = [Atom(watch) for _ in self.cards]
        spare = Watch()
        watch.hashes = self._hashes(head, drawn)  # (its proof reads bytecode: not in the trace)
        previous = sys.gettrace()
        sys.settrace(_catching(watch))
        trace = sys.gettrace()
        try:
            why = self._run(head, drawn, child, extra, avail, watch, atoms, spare, shown)
            if sys.gettrace() is not trace:
                return "the spec changed the interpreter's trace hook"
            uneven_calls = watch.calls != record.calls or watch.chain != record.chain
            if why is None and uneven_calls:
                # C code that handles a card itself but hands an atom to the spec's hook
                # (json's encoder, a pickler's reducer_override): another path, unseen.
                uneven = (watch.chain - record.chain) + (record.chain - watch.chain)
                extra_code = sorted(f"{c.co_name} ({os.path.basename(c.co_filename)})"
                                    for c in watch.calls ^ record.calls | {key[0] for key in uneven})
                return ("the traced card ran other code than the card (a hook called for it only): "
                        + ", ".join(extra_code[:3]))
            return why
        except _Refused as refused:
            return str(refused)
        except (Unfaithful, Seen):
            return watch.use or "the spec reads a field of a card it does not read otherwise"
        except Exception:  # any error in a traced run means: not shown
            return watch.use or "the spec raised an error on a traced card"
        finally:
            sys.settrace(previous)
            watch.close()
            spare.signals = sys.maxsize // 2

    def _raises(
        self, head: _Draw[Any], drawn: int, child: Any, extra: int, avail: int, record: AtomWatch,
        shown: Any = None,
    ) -> str | None:
        """Why the real card's run cannot be compared with a traced one: it raised an error
        in the spec's code, even one the spec caught (a builtin that rejects the card but
        accepts an atom, ``"x" % card``, would leave the traced run no trace of it).  The
        code it ran is kept in ``record.calls``.

        On probe cards handed as names (:func:`~drawdsl.probes.named`) the real card's
        run is the run on the plain values: the state with its names made plain, the
        card with its plain field.  It must reach ``child`` made plain: so a spec that
        tells a name from its value by any means (``type()``, a pickler's hook, ...)
        is seen at the first transition where it matters."""
        spare = Watch()
        try:
            if self.named:
                plain_head, more = normal(rename_spec(head, _PLAIN, None), avail + 1)  # type: ignore[arg-type]
                if type(plain_head) is not _Draw or more:
                    return "a state made plain is not a draw"
                token = self.cards[drawn]
                values = [_PLAIN.rename(value) for value in token.values]
                _placeholders(values, token, shown, spare)
                card = token.make(values)
                expected = normal(rename_spec(child, _PLAIN, None), avail)  # type: ignore[arg-type]
            else:
                plain_head, card, expected = head, show(self.cards[drawn]), (child, extra)
            k = plain_head.k  # type: ignore[attr-defined]
            got = watching(record, lambda: normal(_spec_or_raise(k(card), k, "the continuation"), avail))
        except (Exception, Seen):
            return "the spec raised an error on a card"
        if record.use is not None:
            return record.use.replace("a traced card", "a card") + " (an atom might not)"
        if spare.fields:
            return "the spec reads a field of a card it does not read otherwise"
        if self.named and (got[1] != extra or got[0] != expected[0] or expected[1]):
            return "the spec tells a card's field from its plain value (a name), e.g. by its type"
        return None

    def _hashes(self, head: _Draw[Any], drawn: int) -> tuple[types.CodeType, dict[str, Any]] | None:
        """The step's code and globals when the traced run may hash atoms in it: a loop
        whose step :func:`~drawdsl.order_blind.hash_blind_step` shows hashing only
        cards and the state's values, and whose state holds, through exact tuples and
        frozensets, only cards and plain values equal to no card (``1`` beside a card
        ``1.0`` would be found by its hash, never compared).  On probe cards handed as
        names, the step may read the one field that holds the name (``card.rank``:
        its atom), through the probe's own reader; on plain cards, no attribute."""
        key = getattr(head, "key", None)
        if type(key) is not tuple or len(key) != 2 or key[0] != "loop":
            return None
        state, step = key[1].state, key[1].step
        func = hash_blind_step(step, state)
        if func is None:
            return None
        card, (fields, whole) = self.cards[drawn], hash_fields(step)
        if self.named:
            # A probe card is of the spec's class: only its named field may be read (the
            # card itself would run the class's methods, whose results are not followed).
            field = name_field(card) if type(card) is Token else None
            if field is None or not fields <= {field} or whole:
                return None
            kinds: tuple[type, ...] = NAME_TYPES
        elif type(card) is Token or fields:
            return None
        else:
            kinds = (type(card),)
        if not _cards_or_strangers(state, self.values, kinds, self.keys):
            return None
        return func.__code__, func.__globals__

    def _run(
        self, head: _Draw[Any], drawn: int, child: Any, extra: int, avail: int,
        watch: AtomWatch, atoms: list[Atom], spare: Watch, shown: Any = None,
    ) -> str | None:
        into = _Mapping(self, atoms, True)
        traced_head, more = normal(rename_spec(head, into, None), avail + 1)  # type: ignore[arg-type]
        if type(traced_head) is not _Draw or more:
            return "a traced state is not a draw"
        card = self.cards[drawn]
        if type(card) is Token:
            values = list(card.values)
            values[next(i for i, v in enumerate(card.values) if v is card.name)] = atoms[drawn]
            _placeholders(values, card, shown, spare)
            handed: Any = card.make(values)
        else:
            handed = atoms[drawn]
        k = traced_head.k  # type: ignore[attr-defined]
        traced, traced_extra = normal(_spec_or_raise(k(handed), k, "the continuation"), avail)
        if watch.use is not None or spare.fields:
            return watch.use or "the spec reads a field of a card it does not read otherwise"
        if watch.looked_up and watch.makes_sets is not None:
            # A dict keeps the hashes of its keys, and a set made of a dict (``set(d)``,
            # ``{*d}``, ``d.keys() - x``) takes them without asking the atoms: its order
            # would be the atoms' (alike), not the cards' (see drawdsl.lookups).
            return ("the spec keeps cards in a dict and can make a set of its keys "
                    f"({watch.makes_sets}): a set's order could show which card is which")
        watch.armed = watch.recording = False  # from here on only the evaluator looks at the atoms
        if type(traced) is not type(child) or traced_extra != extra:
            return "a traced card leads elsewhere than the card"
        if type(traced) is _Fail:
            return None
        if type(traced) is _Done:
            if _atoms_inside(traced.value) is not False:  # type: ignore[attr-defined]
                return "the spec finishes with a value that holds a card"
            same = strict_key(traced.value) == strict_key(child.value)  # type: ignore[attr-defined]
            return None if same else "a traced card leads elsewhere than the card"
        if head_support(traced, self.index):
            return "the spec keeps a card it was not handed (a constant) where a renaming would move it"
        back = _Mapping(self, atoms, False)
        watch.armed = True  # restoring replays generators: user code runs again
        restored, more = normal(rename_spec(traced, back, None), avail)  # type: ignore[arg-type]
        watch.armed = False
        if watch.use is not None:
            return watch.use
        found = _atoms_inside(_own_part(restored, child))
        if found is None:
            return "a traced state is too large to look through"
        if found:
            return "the spec keeps a card where a renaming cannot see it (a closure, an object, a string)"
        if more or restored != child:
            return "a traced card leads elsewhere than the card"
        return None


_PLAIN_LEAVES = frozenset({int, str, float, bytes, bool, type(None)})


def _cards_or_strangers(
    value: Any, cards: frozenset[Any], kinds: tuple[type, ...], keys: frozenset[Any] | None = None,
    budget: int = 10_000,
) -> bool:
    """Whether ``value`` holds, through exact tuples and frozensets, only cards (of the
    cards' types ``kinds``: theirs, or the names' of probe cards; a plain card only when
    its strict key is a card's, ``keys``, as the renaming matches it: not ``-0.0`` for a
    card ``0.0``) and plain values equal to no card."""
    stack = [value]
    while stack:
        budget -= 1
        if budget < 0:
            return False
        x = stack.pop()
        t = type(x)
        if t is tuple or t is frozenset:
            stack.extend(x)
        elif t in kinds and (x in cards if keys is None or t in NAME_TYPES else strict_key(x) in keys):
            continue  # a card (or the name of one), which the renaming turns into an atom
        elif t not in _PLAIN_LEAVES or x in cards:
            return False
    return True


def _placeholders(values: list[Any], token: Token, shown: Any, spare: Watch) -> None:
    """Fill the hidden fields of a probe card's ``values``: with the placeholders of
    ``shown`` (the probe card the real continuation was made with), so that a state
    holding the card (a generator's local) has the same placeholders, which are keyed
    by identity; else (no such card) with new ones reporting to ``spare``."""
    if isinstance(shown, _Probe):
        held = tuple.__getitem__
        for i, _field in token.hidden:
            values[i] = held(shown, i)
        return
    for i, field in token.hidden:
        values[i] = _hidden(field, spare, values[i])


_RENAME_CODE = _Mapping.rename.__code__


class _Plain:
    """Duck-typed as the ``index`` of :func:`~drawdsl.reductions.rename_spec`: every name
    (:func:`~drawdsl.probes.named`) where a renaming sees values (tuples, frozensets,
    probe cards) turned into its plain value.  In a traced evaluation names are only
    there: an atom anywhere else refuses the transition."""

    __slots__ = ()

    def rename(self, value: Any, perm: Any = None) -> Any:
        t = type(value)
        if t in NAME_TYPES:
            return int(value) if isinstance(value, int) else str(value)
        if t is tuple or t is frozenset or issubclass(t, _Probe):
            items = tuple.__iter__(value) if t is not frozenset else iter(value)
            members = list(items)
            moved = [self.rename(x) for x in members]
            if all(a is b for a, b in zip(moved, members, strict=True)):
                return value
            if t is tuple:
                return tuple(moved)
            return frozenset(moved) if t is frozenset else tuple.__new__(t, moved)
        return value


_PLAIN = _Plain()


def _own_part(restored: Any, child: Any) -> Any:
    """What of ``restored`` may hold an atom: a loop's state alone when its step is the
    real child's own step object (a spec is pure, so the traced run cannot have put an
    atom into an object it shares with the real run), else all of it."""
    key, real = getattr(restored, "key", None), getattr(child, "key", None)
    if type(key) is tuple and type(real) is tuple and len(key) == 2 == len(real) \
            and key[0] == "loop" == real[0] and key[1].step is real[1].step:
        return key[1].state
    return restored


def _traceable(cards: tuple[Any, ...]) -> str | None:
    """Why traced runs cannot stand for these cards (None: they can): atoms are equal
    only to themselves, so distinct cards must not be ``==`` (``1`` and ``True``), every
    card must equal itself (a NaN does not), and probe cards need their one name."""
    if len(cards) > 400:
        return "too many distinct cards to compare pairwise"
    values = []
    for card in cards:
        if type(card) is Token:
            if card.name is None or sum(1 for v in card.values if v is card.name) != 1:
                return "the spec reads more than one field of a card"
            values.append(card.name)
        else:
            values.append(card)
    kinds = {type(value) for value in values}
    if len(kinds) > 1:
        return "cards of more than one type (a spec may test type(card))"
    if not kinds <= {str, int, float, bytes, *NAME_TYPES}:
        return "cards that are not plain str, int, float or bytes values"
    if any(value is None or type(value) is bool for value in values):
        return "a card is None, True or False (a spec may test it with `is`)"
    try:
        for i, a in enumerate(values):
            if a != a:
                return "a card is not equal to itself"
            for b in values[i + 1:]:
                if a == b:
                    return "two distinct cards are equal in Python (1 and True)"
    except Exception:
        return "cards that cannot be compared"
    return None
