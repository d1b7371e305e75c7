"""Generators that cannot see a renaming of the cards: the ``@generate`` hand counting ranks.

The newcomer's hand::

    @generate
    def two_pair():
        counts = {}
        for _ in range(5):
            card = yield draw()
            counts[card.rank] = counts.get(card.rank, 0) + 1
        return sorted(counts.values()) == [1, 2, 2]

only ever uses a rank as a key of ``counts``, and never reads a key back: renaming
the ranks (every 2 a 9, every 9 a 2) renames the dict's keys and changes nothing
else.  The evaluator's renaming symmetry (:mod:`drawdsl.shapes`: the deck kept as
counts of counts, a fresh rank always drawn as the lowest one not held) then applies,
and the 1,820 hands of four ranks become the handful of count patterns.  Traced runs
(:mod:`drawdsl.atoms`) check loop steps; a generator is resumed by replaying its
history, which they do not follow, so :func:`renaming_blind` proves it from the
bytecode instead, once per code object.

The proof is an abstract interpretation of the generator's bytecode (every path, to
a fixed point) over five kinds of value: a *card* (what a ``yield draw()`` sends),
a *class value* (the card's one shown field, ``card.rank``), a *blind dict* (made
empty in the code: ``{}``, ``dict()``, ``Counter()``, ``defaultdict(int)``), the
result of ``draw()`` (the only thing the generator may yield), and everything else
(*plain*: built without a card).  Allowed:

* a class value as a key of a blind dict: ``d[k]``, ``d[k] = v``, ``d[k] += v``,
  ``del d[k]``, ``k in d``, ``d.get(k[, v])``, ``d.setdefault(k[, v])``,
  ``d.pop(k[, v])``, with ``v`` plain; ``len(d)``; ``d.values()``, only iterated,
  searched for a plain value or handed whole to ``len``, ``sorted``, ``sum``, ``max``,
  ``min``, ``any``, ``all``, ``list`` or ``tuple`` (a view's ``mapping`` is the dict
  itself); its keys are never read back: no ``d.keys()``, ``d.items()``, iteration,
  ``sorted(d)``, ``max(d)``, ``d == e``; none of these calls with a keyword argument
  (``defaultdict(default_factory=int)`` is a dict holding a key, not a defaultdict);
* two class values compared with ``==`` or ``!=``;
* the card or a class value stored in a local, loaded, dropped or moved on the stack;
* any operation on plain values only.

Anything else (a card or class value compared with a constant, ordered, hashed
outside a blind dict, passed to a function, put in a container, returned, yielded,
tested for truth; a blind dict used any other way, made with items, or a plain key
used with it; a spec other than ``draw()`` yielded) is no proof.  Then every plain
value is the same after a renamed history, every class value and blind-dict key is
renamed, and so every yield and the return value are the same: the generator's
future after a renamed history is the renamed future.

What is checked when the proof is used (:func:`blind_generator`), for the spec as
given to the evaluator (only a bare ``@generate`` spec: code around it could read the
cards itself):

* the code passes :mod:`drawdsl.order_blind`'s checks for what may reach its frame
  (no cells, no exception caught, no import, no frame-reading names), and the
  globals it loads, its arguments, defaults and attributes hold only what reaches
  no frame; ``draw``, ``len`` and the dict makers it names are drawdsl's and the
  builtins;
* the deck's classes are told apart by class values that are all exactly ``int``
  or all exactly ``str``, pairwise unequal (so ``==`` and dict lookups see the
  classes, and a renaming keeps them apart): on a probed deck (:mod:`drawdsl.probes`)
  the classes of the one field the code reads, handed as names (so that the
  evaluator finds them in the generator's history); on a deck of plain values, the
  cards themselves (then the code may not read a field).

Only Python 3.11's bytecode is modelled (:data:`~drawdsl.order_blind.MODELLED`);
elsewhere there is no proof, and the evaluator goes on without the symmetry (slower,
never wrong).

>>> def hand():
...     counts = {}
...     for _ in range(5):
...         card = yield draw()
...         counts[card.rank] = counts.get(card.rank, 0) + 1
...     return sorted(counts.values()) == [1, 2, 2]
>>> proof = renaming_blind(hand.__code__)
>>> proof.fields, proof.direct
(frozenset({'rank'}), False)
>>> def aces():
...     count = 0
...     for _ in range(5):
...         card = yield draw()
...         count += card.rank == 14
...     return count
>>> renaming_blind(aces.__code__) is None
True
"""

from __future__ import annotations

import builtins
import dis
import types
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from drawdsl.order_blind import (
    _MAKERS,
    MODELLED,
    _code_ok,
    _safe_owner,
    _step_function,
    code_instructions,
    names_mean,
    reaches_no_frame,
)

__all__ = [
    "Proof", "renaming_blind", "renaming_blind_map", "renaming_blind_loop", "blind_generator", "blind_map",
    "blind_loop", "state_kind", "unordered_sets", "classes_told_apart", "rename_state", "forget_sets",
]


@dataclass(frozen=True)
class Proof:
    """What :func:`renaming_blind` showed of one generator's code.

    ``fields``: the card fields it reads (class values); ``direct``: whether it uses a
    card itself as a class value (a deck of plain values); ``called``: the global
    names whose meaning the proof relies on (``draw``, ``len``, the dict makers,
    ``set``); ``sets``: the locals that hold a blind set (made empty by ``set()``,
    never iterated: their order is never observed, see :func:`unordered_sets`).
    """

    fields: frozenset[str]
    direct: bool
    called: frozenset[str]
    sets: frozenset[str] = frozenset()
    #: (Loop steps) the kind of every state the loop reaches (see :func:`rename_state`).
    state: Any = None


# Kinds of abstract value.
_PLAIN, _CARD, _CLASS, _DICT, _DRAWN, _POISON = "plain", "card", "class", "dict", "drawn", "poison"
#: A blind dict's ``values()`` view (its ``mapping`` attribute is the dict: keys and all),
#: and a blind set (made by ``set()``; class values added, removed and looked up only).
_VALUES, _SET = "values", "set"
#: A tuple of cards (what ``draw_many(n)`` hands a mapped function), an iterator over one,
#: and a slice (what indexes a tuple of cards into a tuple, not a card).
_CARDS, _CARDS_ITER, _SLICE = "cards", "cards iterator", ("slice",)
#: A generator expression over the cards yielding class values (for ``Counter`` or ``set``).
_GEN_CLASS = "generator of class values"
#: Loop steps (:func:`renaming_blind_loop`): ``None`` (a plain value that may join a class
#: value), a class value or ``None``, a frozenset of class values (never iterated), a set
#: display of class values (``{card}``: only combined with such a frozenset or searched),
#: and what ``done(...)``/``fail()`` give (it ends the loop: never a state).  A state's
#: tuple is ``("tuple", kinds)``.
_NONE, _OPT, _FSET = "none", "class or None", "frozenset of class values"
_SETLIT, _SPEC = "set display", "spec"
#: (Loop steps) a plain value that may be a spec: what a call, an attribute, a lookup,
#: an unpacking or an iteration gives (drawdsl's spec makers are safe to call, and a
#: list or a set may hold what they made; a spec the step returns is run, reading
#: cards).  It may be used as any plain value, but never returned as the next state;
#: what is computed from it is such a value too.
_CALLED = "plain, maybe a spec"
_OPTIONAL = frozenset({_NONE, _CLASS, _OPT})
#: ``|``, ``&``, ``-``, ``^`` and their in-place forms (3.11's ``BINARY_OP`` arguments).
_SET_OPS = frozenset({7, 1, 10, 12, 20, 14, 23, 25})
_DICT_METHODS = frozenset({"get", "setdefault", "pop", "values"})
_SET_METHODS = frozenset({"add", "discard", "remove"})
#: Builtins that may take a values view (their first argument): they read its items only.
_READ_VALUES = frozenset({"len", "sorted", "sum", "max", "min", "any", "all", "list", "tuple"})
_SKIP = frozenset({"NOP", "RESUME", "CACHE", "PRECALL", "KW_NAMES"})
_COND_JUMPS = frozenset({
    "POP_JUMP_FORWARD_IF_FALSE", "POP_JUMP_FORWARD_IF_TRUE", "POP_JUMP_FORWARD_IF_NONE",
    "POP_JUMP_FORWARD_IF_NOT_NONE", "POP_JUMP_BACKWARD_IF_FALSE", "POP_JUMP_BACKWARD_IF_TRUE",
    "POP_JUMP_BACKWARD_IF_NONE", "POP_JUMP_BACKWARD_IF_NOT_NONE",
})
_JUMPS = frozenset({"JUMP_FORWARD", "JUMP_BACKWARD", "JUMP_BACKWARD_NO_INTERRUPT"})
_UNARY = frozenset({"UNARY_NEGATIVE", "UNARY_NOT", "UNARY_INVERT", "UNARY_POSITIVE"})
_BUILDS = frozenset({"BUILD_TUPLE", "BUILD_LIST", "BUILD_SET", "BUILD_STRING"})
#: Instructions that pop one plain value into a container ``argval`` deep, left in place.
_ADDS = frozenset({"LIST_APPEND", "SET_ADD", "LIST_EXTEND", "SET_UPDATE", "DICT_UPDATE", "DICT_MERGE"})

Kind = Any  # a kind name, or ("global", name) / ("method", name): plain values with a tag


def _plain(kind: Kind) -> bool:
    """Whether ``kind`` holds no class value (a tuple kind, only when none of its parts does)."""
    if kind is _PLAIN or kind is _NONE or kind is _SPEC or kind is _CALLED:
        return True
    if type(kind) is tuple:
        if kind[0] == "tuple":
            return all(_plain(k) for k in kind[1])
        return kind[0] != "spec or" or _plain(kind[1])
    return False


class _NoProof(Exception):
    """The code does something the proof does not follow."""


_CACHE: dict[types.CodeType, Proof | None] = {}
#: renaming_blind's answer by the code object's identity (kept alive meanwhile): a code
#: object never changes, and its constants need no second look.
_SEEN: dict[int, tuple[types.CodeType, Proof | None]] = {}


def renaming_blind(code: types.CodeType) -> Proof | None:
    """The proof that a generator of ``code`` cannot see a renaming of the cards it is sent
    (see the module docstring), or None."""
    seen = _SEEN.get(id(code))
    if seen is not None and seen[0] is code:
        return seen[1]  # (this very code object, looked at before: constants and proof)
    if not _literal_constants(code):
        found = None  # (a code object rebuilt with other constants: not what a compiler makes)
    elif code in _CACHE:
        found = _CACHE[code]
    else:
        found = _CACHE[code] = _prove(code)
    if len(_SEEN) >= 1024:
        _SEEN.clear()
    _SEEN[id(code)] = (code, found)
    return found


def _prove(code: types.CodeType) -> Proof | None:
    if not MODELLED or code.co_cellvars or code.co_freevars or not _code_ok(code):
        return None
    if not code.co_flags & 0x20:  # CO_GENERATOR
        return None
    instructions = code_instructions(code)
    if any(ins.opname == "EXTENDED_ARG" for ins in instructions):
        return None
    try:
        return _Interpreter(code, instructions).run()
    except _NoProof:
        return None


_MAP_CACHE: dict[types.CodeType, Proof | None] = {}


def renaming_blind_map(code: types.CodeType) -> Proof | None:
    """The proof that a function of ``code``, handed a tuple of cards (``draw_many(n)``'s
    value) as its first argument, returns the same plain value for every renaming of
    them: it reads them as a generator reads its cards (the module docstring), and
    may also iterate, index, unpack and count the tuple, and gather class values in a
    set comprehension (``len({c.suit for c in cards})``); None when not shown."""
    if not _literal_constants(code):
        return None
    if code in _MAP_CACHE:
        return _MAP_CACHE[code]
    found = None
    if MODELLED and not code.co_cellvars and not code.co_freevars and _code_ok(code) \
            and not code.co_flags & 0xA0 and code.co_argcount >= 1:  # not a generator or coroutine
        instructions = code_instructions(code)
        nested = [c for c in code.co_consts if type(c) is types.CodeType]
        if not any(ins.opname == "EXTENDED_ARG" for c in (code, *nested) for ins in code_instructions(c)):
            try:
                found = _Interpreter(code, instructions, first=_CARDS).run()
            except _NoProof:
                found = None
    _MAP_CACHE[code] = found
    return found


def blind_map(func: Any) -> Proof | None:
    """The proof for the mapped function ``func`` (:func:`renaming_blind_map`) when it
    holds now: no closure, and its globals, defaults and attributes reach no frame."""
    if type(func) is not types.FunctionType or func.__closure__:
        return None
    proof = renaming_blind_map(func.__code__)
    if proof is None:
        return None
    given = (*(func.__defaults__ or ()), *(func.__kwdefaults__ or {}).values(), *func.__dict__.values())
    if not _holds_now(func.__code__, proof, func.__globals__, getattr(func, "__builtins__", None), given):
        return None
    return proof


#: How deep in tuples a first state's kinds are followed (deeper: plain).
_DEEPEST = 8
#: The types of the constants a compiler makes (a tuple or a frozenset of them too).
_LITERALS = frozenset({type(None), bool, int, float, complex, str, bytes, type(Ellipsis), types.CodeType})


def _literal_constants(code: types.CodeType) -> bool:
    """Whether every constant of ``code`` (and of the code objects among them) is of a type
    a compiler makes, in tuples and frozensets at most 100 deep: a code object rebuilt
    with ``code.replace`` could hold a spec, a frame reader or an unhashable value."""
    stack = [(value, 0) for value in code.co_consts]
    while stack:
        value, depth = stack.pop()
        t = type(value)
        if t is tuple or t is frozenset:
            if depth >= 100:
                return False
            stack.extend((item, depth + 1) for item in value)
        elif t not in _LITERALS:
            return False
        elif t is types.CodeType:
            stack.extend((item, depth + 1) for item in value.co_consts)
    return True


def _constant_kind(value: Any, depth: int = 0) -> Kind:
    """The kind of a constant in a loop step's code: ``None``, a tuple of parts, or plain
    (a constant set's items are constants, never class values; past a few tuples deep,
    plain)."""
    if value is None:
        return _NONE
    if type(value) is tuple and depth < _DEEPEST:
        parts = tuple(_constant_kind(item, depth + 1) for item in value)
        return _PLAIN if all(k is _PLAIN for k in parts) else ("tuple", parts)
    return _PLAIN


def state_kind(state: Any, items: bool = True, depth: int = 0) -> Kind:
    """The kind of a loop's first state (:func:`renaming_blind_loop`): as a constant's,
    but an exact frozenset of exact ``int`` and ``str`` items is a frozenset of class
    values: an empty one, or (``items``: on a deck of plain values, where the evaluator
    pins every card value a state holds, so that the renamings it uses fix them) any.
    Past a few tuples deep a value is plain (a renaming fixes it: held, it is pinned).

    >>> state_kind((0, None, frozenset()))
    ('tuple', ('plain', 'none', 'frozenset of class values'))
    >>> state_kind(frozenset({2}), items=False)
    'plain'
    """
    t = type(state)
    if t is frozenset and (not state or items) and all(type(item) in (int, str) for item in state):
        return _FSET
    if t is tuple and depth < _DEEPEST:
        parts = tuple(state_kind(item, items, depth + 1) for item in state)
        return _PLAIN if all(k is _PLAIN for k in parts) else ("tuple", parts)
    return _NONE if state is None else _PLAIN


#: Code flags of generators and coroutines: calling their code makes an object.
_NOT_A_FUNCTION = 0x20 | 0x80 | 0x100 | 0x200
_LOOP_CACHE: dict[tuple[types.CodeType, int, Kind, bool], Proof | None] = {}


def renaming_blind_loop(code: types.CodeType, position: int, start: Kind, direct: bool) -> Proof | None:
    """The proof that a loop step of ``code`` (its state the parameter at ``position``, its
    card the next one) cannot see a renaming of the cards, from a first state of kind
    ``start`` (:func:`state_kind`); None when not shown.

    The step is interpreted as a generator is (the module docstring), with the card a
    class value itself (``direct``, a deck of plain values) or read through its fields,
    and these kinds more: ``None``; a class value or ``None`` (``last == card``,
    ``last is None``); a frozenset of class values, searched (``card in seen``),
    combined with another or with a set display of class values (``seen | {card}``),
    measured (``len``), compared with another, never iterated; a tuple of such values,
    built and unpacked.  The step returns ``done(plain)``, ``fail()``, or a state; the
    states' kind is joined with ``start`` until it no longer grows (so every state the
    loop reaches is of that kind), and the proof fails when a plain value would join a
    class value (a constant in a class value's place could be compared with a card).

    >>> def until_repeat(seen, rank):
    ...     return done(len(seen) + 1) if rank in seen else seen | {rank}
    >>> renaming_blind_loop(until_repeat.__code__, 0, state_kind(frozenset()), True) is not None
    True
    >>> def until_ace(seen, rank):
    ...     return done(len(seen) + 1) if rank == 14 else seen | {rank}
    >>> renaming_blind_loop(until_ace.__code__, 0, state_kind(frozenset()), True) is None
    True
    """
    if not _literal_constants(code):
        return None  # a spec or a frame reader among its constants (code.replace): no proof
    key = (code, position, start, direct)
    if key in _LOOP_CACHE:
        return _LOOP_CACHE[key]
    found = None
    if MODELLED and not code.co_cellvars and not code.co_freevars and _code_ok(code) \
            and not code.co_flags & _NOT_A_FUNCTION and code.co_argcount >= position + 2:
        instructions = code_instructions(code)
        nested = [c for c in code.co_consts if type(c) is types.CodeType]
        if not nested and not any(ins.opname == "EXTENDED_ARG" for ins in instructions):
            kind = start
            for _ in range(8):  # each round joins the states returned: a few at most
                params = {position: kind, position + 1: _CLASS if direct else _CARD}
                if position:
                    params[0] = _CALLED  # the step's object: a spec, for all the proof knows
                interpreter = _Interpreter(code, instructions, params=params)
                try:
                    proof = interpreter.run()
                except _NoProof:
                    break
                grown = kind if interpreter.returned is None else _join(kind, interpreter.returned)
                if grown is _POISON or not _state_kind(grown):
                    break
                if grown == kind:
                    found = Proof(proof.fields, direct, proof.called, state=kind)
                    break
                kind = grown
    _LOOP_CACHE[key] = found
    return found


def blind_loop(step: Any, state: Any) -> tuple[Proof, Any] | None:
    """The proof for a loop of ``step`` from ``state`` (:func:`renaming_blind_loop`) when
    it holds now, with the step's Python function: a plain function, a method or a
    callable object (its object holding only what reaches no frame), no closure, and its
    globals, the first state, its defaults and attributes reaching no frame; the deck's
    side is checked by the caller (:func:`classes_told_apart`)."""
    found = _step_function(step)
    if found is None:
        return None
    func, owner = found
    if func.__closure__ or (owner is not None and not _safe_owner(owner)):
        return None
    position = 0 if owner is None else 1
    # On a probed deck (a field read) the evaluator finds the classes a state holds by
    # their names only: a first state's frozenset of plain field values must be empty.
    proof = renaming_blind_loop(func.__code__, position, state_kind(state), True) \
        or renaming_blind_loop(func.__code__, position, state_kind(state, items=False), False)
    if proof is None:
        return None
    given = (state, *(func.__defaults__ or ()), *(func.__kwdefaults__ or {}).values(),
             *func.__dict__.values())
    if not _holds_now(func.__code__, proof, func.__globals__, getattr(func, "__builtins__", None), given):
        return None
    return proof, func


def rename_state(state: Any, kind: Kind, rename: Callable[[Any], Any]) -> Any:
    """``state``, a loop state of ``kind`` (a :class:`Proof`'s ``state``), with each class
    value renamed by ``rename`` and every plain value as it is (a label equal to a card
    is no card to the step, which never compares it with one); ValueError when the
    state is not of that kind's form.

    >>> kind = ("tuple", (_PLAIN, _OPT, _FSET))
    >>> rename_state(("a", "a", frozenset({"a"})), kind, {"a": "b"}.get)
    ('a', 'b', frozenset({'b'}))
    """
    if _plain(kind):
        return state
    if kind is _CLASS or kind is _OPT:
        return None if state is None else rename(state)
    if kind is _FSET:
        if type(state) is not frozenset:
            raise ValueError(f"not a frozenset of class values: {state!r}")
        return frozenset([rename(item) for item in state])
    if type(kind) is tuple and kind[0] == "tuple":
        parts = kind[1]
        if type(state) is not tuple or len(state) != len(parts):
            raise ValueError(f"not a tuple of {len(parts)}: {state!r}")
        return tuple([rename_state(item, part, rename) for item, part in zip(state, parts, strict=True)])
    raise ValueError(f"no renaming for a state of kind {kind!r}")


def _join(a: Kind, b: Kind) -> Kind:
    if a == b:
        return a
    if a in _OPTIONAL and b in _OPTIONAL:
        return _OPT
    unwrapped = (_state_of(a), _state_of(b))
    if _SPEC in (a, b) or unwrapped != (a, b):
        # A loop step's ``done(x) if ... else (n, card)``: a spec (the loop ends) or a state.
        states = [k for k in unwrapped if k is not _SPEC]
        state = states[0] if len(states) == 1 else _join(states[0], states[1])
        return _POISON if state is _POISON or not _state_kind(state) else ("spec or", state)
    if type(a) is tuple and type(b) is tuple and a[0] == b[0] == "tuple" and len(a[1]) == len(b[1]):
        parts = tuple(_join(x, y) for x, y in zip(a[1], b[1], strict=True))
        return _POISON if _POISON in parts else ("tuple", parts)
    if _plain(a) and _plain(b):
        return _CALLED if _tainted(a) or _tainted(b) else _PLAIN
    return _POISON


def _state_of(kind: Kind) -> Kind:
    """The state's kind in ``("spec or", state)`` (a spec or a state), else ``kind``."""
    return kind[1] if type(kind) is tuple and kind[0] == "spec or" else kind


def _tainted(kind: Kind) -> bool:
    """Whether a value of ``kind`` may be, or hold, a value that may be a spec."""
    if kind is _CALLED:
        return True
    if type(kind) is tuple and kind[0] in ("tuple", "spec or"):
        return any(_tainted(k) for k in (kind[1] if kind[0] == "tuple" else (kind[1],)))
    return False


def _taint(kind: Kind, *operands: Kind) -> Kind:
    """``kind``, or :data:`_CALLED` when it is plain and computed from a value that may be
    a spec (its own ``==``, ``+`` or ``[]`` may give anything)."""
    return _CALLED if kind is _PLAIN and any(_tainted(k) for k in operands) else kind


def _state_kind(kind: Kind) -> bool:
    """Whether a loop state may be of ``kind``: plain, ``None``, a class value or ``None``,
    a frozenset of class values, or a tuple of those."""
    if type(kind) is tuple and kind[0] == "tuple":
        return all(_state_kind(k) for k in kind[1])
    return _plain(kind) or kind in _OPTIONAL or kind is _FSET


class _Interpreter:
    """The abstract interpretation of one code object (see the module docstring)."""

    def __init__(
        self, code: types.CodeType, instructions: list[dis.Instruction], first: Kind = _PLAIN,
        returns: bool = False, yields: bool = False, params: dict[int, Kind] | None = None,
    ) -> None:
        """``first``: the kind of the first parameter (the rest are plain); ``returns``:
        whether the code may return a set of class values (a set comprehension), else it
        returns plain values only; ``yields``: a generator expression, which may yield
        class values (else only ``draw()`` is yielded, by a ``@generate`` function).
        ``params``: a loop step's parameters by position (its state and its card): the
        step may then build, return and take apart states (see
        :func:`renaming_blind_loop`), and :attr:`returned` joins the states it returns."""
        self.code = code
        self.instructions = instructions
        self.first = first
        self.params = params
        self.loop = params is not None
        self.returns = returns
        self.yields = yields
        self.returned: Kind | None = None
        self.yielded: Kind | None = None
        self.generator = bool(code.co_flags & 0x20)
        self.at = {ins.offset: i for i, ins in enumerate(instructions)}
        self.fields: set[str] = set()
        self.direct = False
        self.called: set[str] = set()
        self.sets: set[str] = set()
        self.stored: dict[str, set[Kind]] = {}  # every kind stored in each local

    def run(self) -> Proof:
        n_args = self.code.co_argcount + self.code.co_kwonlyargcount
        n_args += bool(self.code.co_flags & 0x04) + bool(self.code.co_flags & 0x08)
        names = self.code.co_varnames
        given = self.params if self.params is not None else ({0: self.first} if n_args else {})
        if any(i >= n_args for i in given):
            raise _NoProof
        start_locals = tuple(  # parameters and unbound locals: plain, but those given
            given.get(i, _PLAIN) for i in range(len(names))
        )
        states: dict[int, tuple[tuple[Kind, ...], tuple[Kind, ...]]] = {0: (start_locals, ())}
        work = [0]
        steps = 0
        while work:
            steps += 1
            if steps > 20_000:
                raise _NoProof  # a code this big is not worth the proof
            i = work.pop()
            local_kinds, stack = states[i]
            for j, state in self.step(i, list(local_kinds), list(stack)):
                old = states.get(j)
                if old is None:
                    states[j] = state
                    work.append(j)
                    continue
                if len(old[1]) != len(state[1]):
                    raise _NoProof
                joined = (
                    tuple(_join(a, b) for a, b in zip(old[0], state[0], strict=True)),
                    tuple(_join(a, b) for a, b in zip(old[1], state[1], strict=True)),
                )
                if joined != old:
                    states[j] = joined
                    work.append(j)
        if self.fields and self.direct:
            raise _NoProof
        params = set(names[:n_args])
        for name in self.sets:
            if name in params or self.stored[name] != {_SET}:
                raise _NoProof  # a set's local holds the sets made in the code only (frame keys)
        return Proof(frozenset(self.fields), self.direct, frozenset(self.called), frozenset(self.sets))

    def target(self, offset: int) -> int:
        j = self.at.get(offset)
        if j is None:
            raise _NoProof
        return j

    def step(
        self, i: int, local_kinds: list[Kind], stack: list[Kind],
    ) -> list[tuple[int, tuple[tuple[Kind, ...], tuple[Kind, ...]]]]:
        """The successors of instruction ``i`` with their abstract states."""
        ins = self.instructions[i]
        op = ins.opname
        names = self.code.co_varnames

        def pop() -> Kind:
            if not stack:
                raise _NoProof
            return stack.pop()

        def need_plain(*kinds: Kind) -> None:
            if not all(_plain(k) for k in kinds):
                raise _NoProof

        def after(j: int) -> tuple[int, tuple[tuple[Kind, ...], tuple[Kind, ...]]]:
            return (j, (tuple(local_kinds), tuple(stack)))

        nxt = i + 1
        if op in _SKIP:
            return [after(nxt)]
        if op == "RETURN_GENERATOR":
            if not self.generator:
                raise _NoProof
            stack.append(_PLAIN)
        elif op == "POP_TOP":
            pop()
        elif op == "LOAD_CONST":
            if type(ins.argval) is types.CodeType:
                stack.append(("code", ins.argval))
            else:
                stack.append(_constant_kind(ins.argval) if self.loop else _PLAIN)
        elif op == "LOAD_FAST":
            stack.append(local_kinds[names.index(ins.argval)])
        elif op == "STORE_FAST":
            value = pop()
            if value is _SET:
                self.sets.add(ins.argval)
            self.stored.setdefault(ins.argval, set()).add(value)
            local_kinds[names.index(ins.argval)] = value
        elif op == "DELETE_FAST":
            local_kinds[names.index(ins.argval)] = _PLAIN
        elif op == "LOAD_GLOBAL":
            if ins.arg is not None and ins.arg & 1:
                stack.append(_PLAIN)  # the NULL before a called global
            stack.append(("global", ins.argval))
        elif op in ("PUSH_NULL", "LOAD_ASSERTION_ERROR"):
            stack.append(_PLAIN)
        elif op == "LOAD_ATTR":
            value = pop()
            if value is _CARD:
                self.fields.add(str(ins.argval))
                stack.append(_CLASS)
            else:
                need_plain(value)
                stack.append(_CALLED if self.loop else _PLAIN)
        elif op == "LOAD_METHOD":
            value = pop()
            if value is _DICT or value is _SET:
                if ins.argval not in (_DICT_METHODS if value is _DICT else _SET_METHODS):
                    raise _NoProof
                stack.extend([("method", ins.argval), value])
            else:
                need_plain(value)
                stack.extend([_PLAIN, _PLAIN])
        elif op == "CALL":
            args = [pop() for _ in range(ins.argval)][::-1]
            second, first = pop(), pop()
            kind = self.call(first, second, args, self.keywords(i))
            if self.loop and kind is _PLAIN:
                if second == ("global", "len"):
                    self.called.add("len")  # an int, when len is the builtin (checked at use)
                else:
                    kind = _CALLED  # whatever a call gives may be a spec
            stack.append(kind)
        elif op == "CALL_FUNCTION_EX":
            parts = [pop() for _ in range(3 + (ins.argval & 1))]
            need_plain(*parts)
            stack.append(_CALLED if self.loop else _PLAIN)
        elif op == "BINARY_SUBSCR":
            key, container = pop(), pop()
            kind = self.keyed(container, key)
            stack.append(_CALLED if self.loop and kind is _PLAIN else kind)
        elif op == "STORE_SUBSCR":
            key, container, value = pop(), pop(), pop()
            need_plain(value)
            self.keyed(container, key)
        elif op == "DELETE_SUBSCR":
            key, container = pop(), pop()
            self.keyed(container, key)
        elif op == "CONTAINS_OP":
            container, item = pop(), pop()
            stack.append(self.keyed(container, item, contains=True))
        elif op == "COMPARE_OP":
            right, left = pop(), pop()
            if left is _CLASS and right is _CLASS and ins.argval in ("==", "!="):
                stack.append(_PLAIN)
            elif self.loop and ins.argval in ("==", "!=") and (
                    (left in _OPTIONAL and right in _OPTIONAL) or (left is _FSET and right is _FSET)):
                stack.append(_PLAIN)  # None is no class value: the answer is the same renamed
            elif left is _CARD and right is _CARD and ins.argval in ("==", "!="):
                self.direct = True
                stack.append(_PLAIN)
            else:
                need_plain(left, right)
                stack.append(_taint(_PLAIN, left, right))
        elif op == "BINARY_OP" and self.loop and len(stack) > 1 and stack[-2] is _FSET \
                and stack[-1] in (_FSET, _SETLIT) and ins.arg in _SET_OPS:
            pop(), pop()
            stack.append(_FSET)  # a frozenset | & - ^ another set: a frozenset
        elif op == "IS_OP" and self.loop and len(stack) > 1 and _NONE in stack[-2:] \
                and all(k in _OPTIONAL or _plain(k) for k in stack[-2:]):
            pop(), pop()
            stack.append(_PLAIN)  # ``x is None``: None is no class value
        elif op in ("BINARY_OP", "IS_OP"):
            right, left = pop(), pop()
            need_plain(left, right)
            stack.append(_taint(_PLAIN, left, right) if op == "BINARY_OP" else _PLAIN)
        elif op == "GET_ITER":
            value = pop()
            if value is _CARDS:
                stack.append(_CARDS_ITER)
            else:
                if value is not _VALUES:  # the items of a values view are plain
                    need_plain(value)
                stack.append(_CALLED if self.loop else _PLAIN)
        elif op in _UNARY:
            value = pop()
            need_plain(value)
            stack.append(_PLAIN if op == "UNARY_NOT" else _taint(_PLAIN, value))
        elif op == "FORMAT_VALUE":
            need_plain(*[pop() for _ in range(2 if ins.arg is not None and ins.arg & 4 else 1)])
            stack.append(_PLAIN)
        elif op == "BUILD_SET" and ins.argval == 0:
            stack.append(_SET)  # a fresh, empty set (a set comprehension's)
        elif op == "BUILD_SET" and self.loop and len(stack) >= ins.argval \
                and all(k is _CLASS for k in stack[len(stack) - ins.argval:]):
            del stack[len(stack) - ins.argval:]
            stack.append(_SETLIT)  # ``{card}``
        elif op == "BUILD_TUPLE" and self.loop and len(stack) >= ins.argval:
            items = tuple(stack[len(stack) - ins.argval:])
            del stack[len(stack) - ins.argval:]
            if not all(_state_kind(k) for k in items):
                raise _NoProof
            stack.append(_PLAIN if all(k is _PLAIN for k in items) else ("tuple", items))
        elif op in _BUILDS or op == "BUILD_SLICE":
            need_plain(*[pop() for _ in range(ins.argval)])
            stack.append(_SLICE if op == "BUILD_SLICE" else _PLAIN)
        elif op == "BUILD_MAP":
            if ins.argval == 0:
                stack.append(_DICT)  # a fresh, empty dict
            else:
                need_plain(*[pop() for _ in range(2 * ins.argval)])
                stack.append(_PLAIN)
        elif op == "BUILD_CONST_KEY_MAP":
            need_plain(*[pop() for _ in range(ins.argval + 1)])
            stack.append(_PLAIN)
        elif op == "SET_ADD" and len(stack) > ins.argval and stack[-1 - ins.argval] is _SET:
            item = pop()
            if item not in (_CLASS, _CARD):
                raise _NoProof
            self.direct |= item is _CARD
        elif op in _ADDS or op == "MAP_ADD":
            need_plain(*[pop() for _ in range(2 if op == "MAP_ADD" else 1)])
            if len(stack) < ins.argval:
                raise _NoProof
            need_plain(stack[-ins.argval])
        elif op == "UNPACK_SEQUENCE":
            value = pop()
            if type(value) is tuple and value[0] == "tuple":
                if len(value[1]) != ins.argval:
                    raise _NoProof
                stack.extend(reversed(value[1]))  # the first part on top
            elif value is _CARDS:
                stack.extend([_CARD] * ins.argval)
            else:
                need_plain(value)
                # (A loop step: a list's or a set's items may be specs put in it.)
                stack.extend([_CALLED if self.loop else _PLAIN] * ins.argval)
        elif op == "COPY":
            if len(stack) < ins.argval:
                raise _NoProof
            stack.append(stack[-ins.argval])
        elif op == "SWAP":
            if len(stack) < ins.argval:
                raise _NoProof
            stack[-1], stack[-ins.argval] = stack[-ins.argval], stack[-1]
        elif op == "MAKE_FUNCTION":
            flags = ins.argval
            parts = [pop() for _ in range(1 + bin(flags & 0x0F).count("1"))]
            need_plain(*parts)
            code = parts[-1]
            if flags == 0 and type(code) is tuple and code[0] == "code" \
                    and code[1].co_name in ("<setcomp>", "<genexpr>"):
                stack.append(("nested", code[1]))  # called at once on an iterator
            else:
                stack.append(_PLAIN)
        elif op == "YIELD_VALUE" and self.yields:
            value = pop()
            kind = _CLASS if value in (_CLASS, _CARD) else _PLAIN
            if kind is _PLAIN:
                need_plain(value)
            self.direct |= value is _CARD
            if self.yielded not in (None, kind):
                raise _NoProof  # class values and plain ones from one expression
            self.yielded = kind
            stack.append(_PLAIN)  # what is sent back: None
        elif op == "YIELD_VALUE":
            if not self.generator or pop() is not _DRAWN:
                raise _NoProof  # only draw() is yielded, by the generator itself
            stack.append(_CARD)
        elif op == "RETURN_VALUE" and self.loop:
            value = pop()
            value = _state_of(value)  # a spec (the loop ends), or a state of this kind
            if value is not _SPEC:  # a state: the next step's
                if not _state_kind(value) or value is _CALLED:
                    raise _NoProof  # (a value that may be a spec: the loop would run it)
                self.returned = value if self.returned is None else _join(self.returned, value)
                if self.returned is _POISON:
                    raise _NoProof
            return []
        elif op == "RETURN_VALUE":
            value = pop()
            if self.returns and value is _SET:
                if self.returned not in (None, _SET):
                    raise _NoProof
                self.returned = _SET
            else:
                need_plain(value)
                if self.returned is _SET:
                    raise _NoProof
                self.returned = _PLAIN
            return []
        elif op == "RAISE_VARARGS":
            need_plain(*[pop() for _ in range(ins.argval)])
            return []
        elif op in _JUMPS:
            return [after(self.target(ins.argval))]
        elif op in _COND_JUMPS:
            value = pop()
            if not (self.loop and op.endswith("NONE") and value in _OPTIONAL):
                need_plain(value)
            return [after(nxt), after(self.target(ins.argval))]
        elif op in ("JUMP_IF_FALSE_OR_POP", "JUMP_IF_TRUE_OR_POP"):
            if not stack:
                raise _NoProof
            need_plain(stack[-1])
            jumped = after(self.target(ins.argval))
            stack.pop()
            return [jumped, after(nxt)]
        elif op == "FOR_ITER":
            if not stack:
                raise _NoProof
            cards = stack[-1] is _CARDS_ITER
            if not cards:
                need_plain(stack[-1])
            done = (self.target(ins.argval), (tuple(local_kinds), tuple(stack[:-1])))
            stack.append(_CARD if cards else _CALLED if self.loop else _PLAIN)
            return [after(nxt), done]
        else:
            raise _NoProof
        if nxt >= len(self.instructions):
            raise _NoProof
        return [after(nxt)]

    def comprehension(self, code: types.CodeType) -> Kind:
        """What a set comprehension or a generator expression over the cards gives (its
        code proven here too): a set of class values, a generator of them, or plain."""
        if code.co_cellvars or code.co_freevars:
            raise _NoProof
        instructions = code_instructions(code)
        expression = code.co_name == "<genexpr>"
        inner = _Interpreter(code, instructions, first=_CARDS_ITER, returns=not expression, yields=expression)
        inner.run()
        self.fields |= inner.fields
        self.direct |= inner.direct
        self.called |= inner.called
        if expression:
            return _GEN_CLASS if inner.yielded is _CLASS else _PLAIN
        return inner.returned if inner.returned is not None else _PLAIN

    def keywords(self, i: int) -> int:
        """How many of the ``CALL`` at ``i``'s arguments are passed by keyword (3.11: a
        ``KW_NAMES`` before its ``PRECALL`` names them, counted in the ``CALL``'s own)."""
        j = i - 1
        while j >= 0 and self.instructions[j].opname in ("PRECALL", "NOP", "RESUME"):
            j -= 1
        if j >= 0 and self.instructions[j].opname == "KW_NAMES":
            names = self.code.co_consts[self.instructions[j].arg or 0]
            return len(names) if type(names) is tuple else len(self.instructions)
        return 0

    def call(self, first: Kind, second: Kind, args: list[Kind], keywords: int) -> Kind:
        """The kind a call returns (3.11: ``[NULL, callable, *args]`` or ``[method, self,
        *args]``, the last ``keywords`` of ``args`` passed by keyword)."""
        if type(first) is tuple and first[0] == "nested" and second is _CARDS_ITER and not args:
            return self.comprehension(first[1])
        if type(first) is tuple and first[0] == "method" and (second is _DICT or second is _SET):
            name = first[1]
            if keywords:
                raise _NoProof  # their methods take no keywords: not the call it looks like
            if second is _SET:
                if len(args) == 1 and args[0] in (_CLASS, _CARD):
                    self.direct |= args[0] is _CARD
                    return _PLAIN
                raise _NoProof
            if name == "values" and not args:
                return _VALUES
            if name in ("get", "setdefault", "pop") and 1 <= len(args) <= 2 \
                    and args[0] in (_CLASS, _CARD) and all(_plain(k) for k in args[1:]):
                self.direct |= args[0] is _CARD
                return _PLAIN
            raise _NoProof
        if type(second) is tuple and second[0] == "global" and _plain(first):
            name = second[1]
            positional = args[:len(args) - keywords]
            if not keywords:
                if name == "draw" and not args:
                    self.called.add(name)
                    return _DRAWN
                if name == "len" and len(args) == 1 and args[0] in (_DICT, _SET, _CARDS):
                    self.called.add(name)
                    return _PLAIN
                if name in ("dict", "Counter", "set") and not args:
                    self.called.add(name)
                    return _SET if name == "set" else _DICT
                if name in ("Counter", "set") and args == [_GEN_CLASS]:
                    self.called.add(name)  # the class values counted, or gathered
                    return _SET if name == "set" else _DICT
                if name == "defaultdict" and len(args) == 1 and args[0] == ("global", "int"):
                    self.called.update(("defaultdict", "int"))
                    return _DICT
                if self.loop:
                    found = self.loop_call(name, args)
                    if found is not None:
                        return found
            if name in _READ_VALUES and positional[:1] == [_VALUES] \
                    and all(_plain(k) for k in args[1:]):
                self.called.add(name)
                return _PLAIN
        if not all(_plain(k) for k in (first, second, *args)):
            raise _NoProof
        return _PLAIN

    def loop_call(self, name: str, args: list[Kind]) -> Kind | None:
        """What a loop step's call of the global ``name`` (positional ``args``) gives,
        when it is one it may make with class values or make a spec with; else None."""
        if name == "len" and args == [_FSET]:
            found: Kind = _PLAIN
        elif name == "frozenset" and (not args or (len(args) == 1 and args[0] in (_FSET, _SETLIT))):
            found = _FSET
        elif (name == "done" and len(args) == 1 and _plain(args[0])) or (name == "fail" and not args):
            found = _SPEC  # the loop ends with a plain value
        else:
            return None
        self.called.add(name)
        return found

    def keyed(self, container: Kind, key: Kind, contains: bool = False) -> Kind:
        """A lookup of ``key`` in ``container`` (subscript, store, delete; ``in`` when
        ``contains``)."""
        if container is _CARDS and not contains and _plain(key):
            return _CARDS if key == _SLICE else _CARD  # cards[i], cards[1:] (a read only)
        if self.loop and contains and (container is _FSET or container is _SETLIT) and key in _OPTIONAL:
            return _PLAIN  # a class value (or None) among class values
        if self.loop and contains and key in _OPTIONAL and type(container) is tuple \
                and container[0] == "tuple" and all(k in _OPTIONAL for k in container[1]):
            # ``card in (a, b)``: a class value (or None) compared with each of a tuple's
            # class values or Nones, by identity then ``==``, as ``card == a or card == b``
            # (a renaming maps equal cards to one card, distinct cards to distinct ones).
            return _PLAIN
        if container is _VALUES and contains and _plain(key):
            return _PLAIN  # ``v in d.values()``: a plain value among plain values
        if container is _SET and not contains:
            raise _NoProof  # a set has no items to subscript
        if container is _DICT or container is _SET:
            if key is _CLASS:
                return _PLAIN
            if key is _CARD:
                self.direct = True
                return _PLAIN
            raise _NoProof
        if not (_plain(container) and _plain(key)):
            raise _NoProof
        return _PLAIN


_MEANINGS: list[dict[str, Any]] = []


def _meanings() -> dict[str, Any]:
    """What the names a proof relies on mean: the builtins and drawdsl's functions, as
    they were when first asked (a builtin rebound later no longer means what it meant)."""
    if not _MEANINGS:
        import drawdsl  # here: drawdsl imports this module

        found = {name: getattr(builtins, name) for name in (*_READ_VALUES, "int", "set", "frozenset")}
        found.update(draw=drawdsl.draw, done=drawdsl.done, fail=drawdsl.fail, **_MAKERS)
        _MEANINGS.append(found)
    return _MEANINGS[0]


def _holds_now(
    code: types.CodeType, proof: Proof, module: Any, builtin: Any, given: tuple[Any, ...],
) -> bool:
    """Whether what ``code``'s proof relies on holds now: the names it calls mean what
    they meant, and its globals and what it was handed reach no frame."""
    if not names_mean(module, builtin, proof.called, _meanings()):
        return False
    return reaches_no_frame(code, module, builtin, given)


def blind_generator(func: Any, args: tuple[Any, ...], kwargs: tuple[tuple[str, Any], ...]) -> Proof | None:
    """The proof for the generator ``func(*args, **kwargs)`` when it holds now (its
    code's proof, and what its frame can reach: see the module docstring); the deck's
    side is checked by the caller (:func:`classes_told_apart`)."""
    if type(func) is not types.FunctionType or func.__closure__:
        return None
    proof = renaming_blind(func.__code__)
    if proof is None:
        return None
    given = (*args, *(value for _, value in kwargs), *(func.__defaults__ or ()),
             *(func.__kwdefaults__ or {}).values(), *func.__dict__.values())
    if not _holds_now(func.__code__, proof, func.__globals__, getattr(func, "__builtins__", None), given):
        return None
    return proof


def unordered_sets(frame: types.FrameType, given: tuple[Any, ...]) -> frozenset[str]:
    """The locals of a suspended generator's ``frame`` whose sets may be keyed by their
    items alone (:mod:`drawdsl.frames`): its code's proof holds now (``given``: what it
    was handed), so a set made there is never iterated, and its order never seen.

    Whether its globals and ``given`` reach no frame is kept for the same code, globals,
    builtins and ``given`` (the same objects) until :func:`forget_sets`, which each exact
    evaluation and witness search calls first (within one, the spec's globals stay as
    they are: a spec has no side effects); the names its proof calls are looked up again
    each time (a side effect rebinding ``len`` is still seen, review Y).
    """
    code, module, builtin = frame.f_code, frame.f_globals, frame.f_builtins
    last = _SETS_LAST[0]
    if last[0] is code and last[1] is given and last[2] is module and last[3] is builtin:
        proof = last[4]
    else:
        proof = renaming_blind(code)
        if proof is not None and (not proof.sets or not reaches_no_frame(code, module, builtin, given)):
            proof = None
        _SETS_LAST[0] = (code, given, module, builtin, proof)
    if proof is None or not names_mean(module, builtin, proof.called, _meanings()):
        return frozenset()
    return proof.sets


_SETS_LAST: list[tuple[Any, Any, Any, Any, Proof | None]] = [(None, None, None, None, None)]


def forget_sets() -> None:
    """Forget :func:`unordered_sets`'s last answer (a global rebound since is looked at again)."""
    _SETS_LAST[0] = (None, None, None, None, None)


def classes_told_apart(values: list[Any]) -> bool:
    """Whether the class values (one per class of the deck) are all exactly ``int`` or all
    exactly ``str`` (names of them count as such), pairwise unequal: then ``==`` and a
    dict lookup tell exactly the classes apart, before and after any renaming."""
    from drawdsl.probes import NAME_TYPES

    kinds = {int if type(v) in (int, NAME_TYPES[0]) else str if type(v) in (str, NAME_TYPES[1]) else None
             for v in values}
    if len(kinds) != 1 or None in kinds:
        return False
    return len(set(values)) == len(values)
