"""Dicts whose order a generator never looks at: what lets ``counts`` hands merge.

A ``@generate`` spec that counts ranks in a dict reaches ``{2: 1, 5: 1}`` after
drawing a 2 then a 5, and ``{5: 1, 2: 1}`` after a 5 then a 2.  The two dicts are
equal, but Python keeps their insertion order, and a spec *could* read it
(``list(counts)[0]``, ``for rank in counts``, ``counts.popitem()``), so the frame key
(:mod:`drawdsl.frames`) keys a dict in its order, and the two paths stay apart: a
5-card hand keeps about 12 times more states than it needs.

:func:`blind_dicts` reads a generator's bytecode and returns the locals whose dict
order the code can never observe.  A local qualifies when

* every value stored in it is a fresh dict: ``{...}``, ``dict()``, ``Counter()`` or
  ``defaultdict(int)`` (so nothing else holds it: not a parameter, not a cell);
* every use of it is one of ``d[k]``, ``d[k] = v``, ``d[k] += v``, ``del d[k]``,
  ``k in d``, ``d.get(...)``, ``d.setdefault(...)``, ``d.pop(k...)``, and ``len``,
  ``sorted``, ``max``, ``min``, ``sum``, ``any`` or ``all`` applied at once to ``d``,
  ``d.keys()`` or ``d.values()`` (only ``len`` and ``sorted`` to ``d.items()``), on one
  straight run of instructions (no jump in between); the dict is never compared
  (``d == e`` hands it to e's ``__eq__``), stored, passed, iterated, searched by value
  (``x in d.values()``), returned or yielded;
* the code catches no exception (a traceback holds the frames), imports nothing,
  rebinds no module name (``global``), and names nothing that reaches a frame or reads
  an attribute by a name built at run time (``locals``, ``sys._getframe``,
  ``__traceback__``, ``getattr``, ``__getattribute__``...), in its names or in its
  string constants.

:func:`unordered` then decides at each suspension, from the dict's contents and the
module: all keys of one exact type among ``int``, ``str``, ``bytes`` (or a shown card
field) with no two of one hash (a lookup by an object equal to both would find the
first inserted), all values of one such type (or ``bool``), the names the code calls
still the builtins (a module that rebinds ``sorted`` loses the reduction), and every
global name the code loads holding only what is shown to reach no frame: a plain
value or a container of them, a builtin of a short list (``range``, ``len``,
``sorted``...), drawdsl's own functions, or a Python function that passes the same
checks, with its own globals, closure, defaults and attributes (an allow-list:
``peek = functools.partial(locals)``, a class attribute or a module hold what may hand
over the generator's variables, and lose the reduction).  With one exact type of
integers or strings, equal means the same value, so ``sorted``, ``max``, ``min`` and
``sum`` give the same result in any order, and the frame key may key the dict by its
items alone.

Loop states get the same care for their frozensets (:func:`loop_key`, :func:`blind_step`):
``frozenset({0}) | {8}`` lists 0 first and ``frozenset({8}) | {0}`` lists 8 first, so a
state's frozensets are keyed in their order unless the step is shown blind to it.

Outside the proof, as outside the purity contract specs already follow: the cards'
own methods, code patching ``builtins`` while a spec runs, rebinding a name a step uses
between building a loop and evaluating it (that edits the spec), the spec's own classes'
``==`` (a frozen dataclass holding a frozenset is keyed by its ``==``), and the
identity of equal values (``max(d.values()) is x``, ``a is b`` for two equal parts of a
state: merging keys values, not objects, everywhere, not only here).

>>> def hand():
...     counts = {}
...     for _ in range(5):
...         card = yield
...         counts[card] = counts.get(card, 0) + 1
...     return sorted(counts.values())
>>> sorted(blind_dicts(hand.__code__).names)
['counts']
>>> def peeks():
...     counts = {}
...     card = yield
...     counts[card] = 1
...     return list(counts)[0]
>>> blind_dicts(peeks.__code__).names
frozenset()
"""

from __future__ import annotations

import builtins
import collections
import dataclasses
import dis
import inspect
import sys
import types
from dataclasses import dataclass
from typing import Any

from drawdsl.keys import strict_key
from drawdsl.keys import unordered_state_key as _unordered_key
from drawdsl.probes import NAME_TYPES

__all__ = ["Blind", "blind_dicts", "blind_step", "loop_key", "unordered", "why_ordered"]

#: The callables a blind dict may be handed to, with what they may be handed.  Sorting,
#: the largest, the smallest and a sum depend on the order where two items are equal
#: but different (0.0 and -0.0, 1 and 1.0, a NaN) or a sum of floats: they take only
#: the values, and only where every value the code stores is a whole number
#: (:data:`_IN_ORDER`).
_READERS: dict[str, frozenset[str]] = {
    **{name: frozenset({"dict", "keys", "values", "items"}) for name in ("len", "any", "all")},
    **{name: frozenset({"values"}) for name in ("sorted", "max", "min", "sum")},
}
_IN_ORDER = frozenset({"sorted", "max", "min", "sum"})
#: Operations that give a whole number from whole numbers (+, *, -, and in place).
_INT_OPS = frozenset({0, 5, 10, 13, 18, 23})
#: The methods a blind dict may be asked for.
_METHODS = frozenset({"get", "setdefault", "pop", "keys", "values", "items"})
_VIEWS = frozenset({"keys", "values", "items"})
#: Fresh dicts: the global called (with no argument, or ``int`` for a defaultdict).
_MAKERS: dict[str, Any] = {
    "dict": dict, "Counter": collections.Counter, "defaultdict": collections.defaultdict,
}
#: Names of what reaches a frame (the generator's own, whose variables hold the dict), or
#: finds objects by reference, or reads an attribute by a name built at run time.
_FRAME_READERS = frozenset({
    "locals", "vars", "globals", "eval", "exec", "compile", "breakpoint", "getattr", "__import__",
    "import_module", "_getframe", "currentframe", "_current_frames", "f_locals", "f_back", "f_globals",
    "f_code", "gi_frame", "ag_frame", "cr_frame", "gi_yieldfrom", "tb_frame", "tb_next", "__traceback__",
    "exc_info", "exception", "last_traceback", "walk_tb", "walk_stack", "extract_stack", "extract_tb",
    "TracebackException", "StackSummary", "get_referrers", "get_referents", "get_objects", "stack",
    "getframeinfo", "getouterframes", "trace", "settrace", "setprofile", "__getattribute__", "__dict__",
    "__globals__", "__closure__", "__code__", "__builtins__", "attrgetter", "methodcaller", "modules",
    "__subclasses__", "__bases__", "__base__", "__mro__",  # every class, and its functions' globals
    "__class__", "gi_code", "cr_code", "ag_code",  # type itself, and code to build functions from
    # str.format follows attributes and items named in the string, built at run time
    # ("{0.gi_frame.f_back.f_locals[card]}".format(gen), found by a review).
    "format", "format_map",
})
_QUIET = frozenset({"CACHE", "NOP", "EXTENDED_ARG", "PRECALL", "RESUME"})
_LOCAL_OPS = frozenset(dis.haslocal) | frozenset(dis.hasfree)
_JUMPS = frozenset(dis.hasjrel) | frozenset(dis.hasjabs)
#: Jumps that pop the value they test (its truth, or whether it is None).
_TESTS = frozenset(name for name in dis.opmap if name.startswith("POP_JUMP") and "IF" in name)
_BUILTINS = {name: getattr(builtins, name) for name in (*_READERS, "int", "dict")}

_KEY_TYPES = frozenset({int, str, bytes, *NAME_TYPES})
_VALUE_TYPES = _KEY_TYPES | {bool}


_DECODED: dict[int, tuple[types.CodeType, tuple[dis.Instruction, ...]]] = {}


def code_instructions(code: types.CodeType) -> list[dis.Instruction]:
    """The instructions of ``code`` but its CACHE entries, decoded once per code object
    (the bytecode proofs read a step's code several times, and decoding a short step
    takes about 60 µs); a fresh list each call.  Cached by identity, the code kept
    alive meanwhile (a code object rebuilt with an unhashable constant cannot be hashed).
    """
    hit = _DECODED.get(id(code))
    if hit is None or hit[0] is not code:
        if len(_DECODED) >= 1024:
            _DECODED.clear()
        decoded = tuple(ins for ins in dis.get_instructions(code) if ins.opname != "CACHE")
        hit = _DECODED[id(code)] = (code, decoded)
    return list(hit[1])


@dataclass(frozen=True)
class Blind:
    """The locals of one code object whose dict order is never observed.

    ``names``: those locals; ``builtins``: the builtin names the proof relies on;
    ``makers``: the global names (``Counter``, ``defaultdict``) it relies on;
    ``loaded``: every global name the code loads (none may hold a frame reader).
    """

    names: frozenset[str]
    builtins: frozenset[str] = frozenset()
    makers: frozenset[str] = frozenset()
    loaded: frozenset[str] = frozenset()


_NONE = Blind(frozenset())
_CACHE: dict[types.CodeType, Blind] = {}


def blind_dicts(code: types.CodeType) -> Blind:
    """The locals of ``code`` holding dicts whose order the code never observes."""
    found = _CACHE.get(code)
    if found is None:
        found = _CACHE[code] = _prove(code)
    return found


#: The bytecode the proofs model (their stack effects, opcodes and jumps): on another
#: Python they show nothing (orders kept, no hashing), which is slower, never wrong.
MODELLED = sys.version_info[:2] == (3, 11)


def _prove(code: types.CodeType) -> Blind:
    if not MODELLED or code.co_cellvars or code.co_freevars or not _code_ok(code):
        return _NONE
    n_args = code.co_argcount + code.co_kwonlyargcount
    n_args += bool(code.co_flags & 0x04) + bool(code.co_flags & 0x08)  # *args, **kwargs
    params = set(code.co_varnames[:n_args])
    instructions = code_instructions(code)
    loaded = _globals_loaded(code)
    stored = {ins.argval for ins in instructions if ins.opname == "STORE_FAST"}
    names: set[str] = set()
    used_builtins: set[str] = set()
    used_makers: set[str] = set()
    for name in stored - params:
        proof = _local(instructions, name, code.co_consts)
        if not isinstance(proof[0], dis.Instruction):
            names.add(name)
            used_builtins |= proof[0]
            used_makers |= proof[1]  # type: ignore[arg-type]
    if not names:
        return _NONE
    return Blind(frozenset(names), frozenset(used_builtins), frozenset(used_makers), loaded)


def _local(
    instructions: list[dis.Instruction], name: str, consts: tuple[Any, ...],
) -> tuple[set[str], set[str]] | tuple[dis.Instruction, str]:
    """The builtins and makers the proof for local ``name`` relies on, or the instruction
    where it fails and what happens there (for messages)."""
    used: set[str] = set()
    makers: set[str] = set()
    typed = True
    in_order: dis.Instruction | None = None
    for i, ins in enumerate(instructions):
        if ins.opcode not in _LOCAL_OPS or ins.argval != name:
            continue
        if ins.opname == "STORE_FAST":
            made = _fresh(instructions, i)
            if made is None:
                return ins, ("it is given a value that is not a new dict "
                             "({}, dict(), Counter(), defaultdict(int))")
            maker, empty = made
            makers |= maker
            typed = typed and empty
        elif ins.opname == "LOAD_FAST":
            reads = _window(instructions, i, name, consts)
            if isinstance(reads, dis.Instruction):
                return reads, _use(reads)
            used |= reads[0]
            typed = typed and reads[1]
            if reads[0] & _IN_ORDER and in_order is None:
                in_order = ins
        elif ins.opname != "DELETE_FAST":
            return ins, "it is used in a way this proof does not follow"
    if in_order is not None and not typed:
        return in_order, ("its values are sorted, summed or searched for the largest, and not every "
                          "value the code stores in it is shown a whole number (an int constant, or "
                          "one of its values plus, minus or times one)")
    return used, makers


def _use(ins: dis.Instruction) -> str:
    """What the instruction where the proof stopped does with the dict, in words."""
    op = ins.opname
    if op in ("GET_ITER", "FOR_ITER"):
        return "it is iterated (for, list, iter, a comprehension)"
    if op in ("CALL", "PRECALL", "CALL_FUNCTION_EX"):
        return "it (or a view of it) is passed to a function that may read it in order"
    if op == "LOAD_METHOD":
        return f"its method {ins.argval}() may read it in order"
    if op == "LOAD_ATTR":
        return f"its attribute {ins.argval} is read"
    if op in ("STORE_FAST", "STORE_DEREF", "STORE_ATTR", "STORE_GLOBAL"):
        return "it is stored in another variable"
    if op in ("RETURN_VALUE", "YIELD_VALUE"):
        return "it is returned or yielded"
    if op.startswith("BUILD_") or op.endswith("_APPEND") or op.endswith("_ADD"):
        return "it is put in a container"
    if op in ("COMPARE_OP", "IS_OP", "BINARY_OP"):
        return "it is compared or combined with another value"
    if ins.is_jump_target or ins.opcode in _JUMPS:
        return "it is used across a branch of the code"
    return f"it is used by {op}, which this proof does not follow"


def _fresh(instructions: list[dis.Instruction], i: int) -> tuple[set[str], bool] | None:
    """The globals ``instructions[i]`` (a store) relies on to store a fresh dict, and
    whether the dict is empty; None when the value stored is not shown a fresh dict."""
    if instructions[i].is_jump_target:
        return None
    before = [ins for ins in instructions[max(0, i - 5):i] if ins.opname not in _QUIET]
    if before and before[-1].opname == "BUILD_MAP":
        return set(), before[-1].arg == 0
    if len(before) >= 2 and before[-1].opname == "CALL" and before[-1].arg == 0:
        call = before[-2]
        if call.opname == "LOAD_GLOBAL" and _null(call) and call.argval in ("dict", "Counter"):
            return {call.argval}, True
    if len(before) >= 3 and before[-1].opname == "CALL" and before[-1].arg == 1:
        call, arg = before[-3], before[-2]
        if (call.opname == "LOAD_GLOBAL" and _null(call) and call.argval == "defaultdict"
                and arg.opname == "LOAD_GLOBAL" and not _null(arg) and arg.argval == "int"):
            return {"defaultdict", "int"}, True
    return None


def _null(ins: dis.Instruction) -> bool:
    """Whether a ``LOAD_GLOBAL`` also pushes the NULL of a call."""
    return bool((ins.arg or 0) & 1)


_D = "dict"  # the tag of the dict itself on the modelled stack
_CONTAINERS = (_D, ("view", "keys"))  # `x in ...` by hash (values are searched in order)


class _Stack(list):  # type: ignore[type-arg]
    """The modelled value stack of a window: values the model has not seen are unknown
    ("?"), padded in below as instructions reach them."""

    def pad(self, n: int) -> None:
        while len(self) < n:
            self.insert(0, "?")

    def take(self, n: int) -> list[Any]:
        self.pad(n)
        taken = self[len(self) - n:]
        del self[len(self) - n:]
        return taken


def _window(
    instructions: list[dis.Instruction], i: int, name: str, consts: tuple[Any, ...],
) -> tuple[set[str], bool] | dis.Instruction:
    """Follow the dict loaded at ``instructions[i]`` until no trace of it is on the stack.

    The builtins it is handed to and whether every value it stores there is shown a
    whole number, or the instruction where it may be observed in order.
    """
    stack = _Stack(_before(instructions, i, name))
    before = instructions[i - 1] if i else None
    if (not stack and not instructions[i].is_jump_target and before is not None
            and before.opname == "LOAD_GLOBAL" and _null(before) and before.argval in _READERS):
        stack.extend(["null", ("builtin", before.argval)])  # the line is past the model: the call at least
    stack.append(_D)
    used: set[str] = set()
    kw_names: Any = None
    typed = True  # every value stored here is a whole number

    pad, pop = stack.pad, stack.take

    def ours(tag: Any) -> bool:
        return tag == _D or (isinstance(tag, tuple) and tag[0] in ("method", "view"))

    for ins in instructions[i + 1:]:
        if not any(ours(tag) for tag in stack):
            return used, typed
        op, arg = ins.opname, ins.arg or 0
        if op in _TESTS and not ins.is_jump_target:
            pop(1)  # `if counts:`: a truth or a None test reads no order
            if any(ours(tag) for tag in stack):
                return ins
            continue
        if ins.is_jump_target or ins.opcode in _JUMPS:
            return ins
        if op in _QUIET:
            continue
        if op == "KW_NAMES":
            kw_names = consts[arg]  # (dis shows no value for it on 3.11)
        elif op == "LOAD_FAST":
            stack.append(_D if ins.argval == name else "?")
        elif op == "LOAD_CONST":
            stack.append("int" if type(ins.argval) is int else "?")
        elif op in ("LOAD_DEREF", "LOAD_NAME"):
            stack.append("?")
        elif op == "LOAD_GLOBAL":
            stack.extend(["?"] * (1 + _null(ins)))
        elif op == "LOAD_ATTR":
            if ours(pop(1)[0]):
                return ins
            stack.append("?")
        elif op == "LOAD_METHOD":
            owner = pop(1)[0]
            if owner == _D:
                if ins.argval not in _METHODS:
                    return ins
                stack.extend([("method", ins.argval)] * 2)
            elif ours(owner):
                return ins
            else:
                stack.extend(["?", "?"])
        elif op in ("BINARY_OP", "IS_OP", "COMPARE_OP"):
            # (Not even ``d == e``: when e's type is not dict, its __eq__ gets the dict.)
            pair = pop(2)
            if any(ours(t) for t in pair):
                return ins
            whole = op == "BINARY_OP" and arg in _INT_OPS and all(t in ("int", "dval") for t in pair)
            stack.append("int" if whole else "?")
        elif op in ("UNARY_NOT", "UNARY_NEGATIVE", "UNARY_POSITIVE", "UNARY_INVERT"):
            if ours(pop(1)[0]):
                return ins
            stack.append("?")
        elif op == "BINARY_SUBSCR":
            container, key = pop(2)
            if ours(key) or (ours(container) and container != _D):
                return ins
            stack.append("dval" if container == _D else "?")
        elif op == "STORE_SUBSCR":
            value, container, key = pop(3)
            if ours(key) or ours(value) or (ours(container) and container != _D):
                return ins
            if container == _D and value not in ("int", "dval"):
                typed = False
        elif op == "DELETE_SUBSCR":
            container, key = pop(2)
            if ours(key) or (ours(container) and container != _D):
                return ins
        elif op == "CONTAINS_OP":
            item, container = pop(2)
            if ours(item) or (ours(container) and container not in _CONTAINERS):
                return ins
            stack.append("?")
        elif op == "COPY":
            pad(arg)
            stack.append(stack[-arg])
        elif op == "SWAP":
            pad(arg)
            stack[-1], stack[-arg] = stack[-arg], stack[-1]
        elif op in ("BUILD_TUPLE", "BUILD_LIST", "BUILD_SET"):
            if any(ours(t) for t in pop(arg)):
                return ins
            stack.append("?")
        elif op in ("BUILD_MAP", "BUILD_CONST_KEY_MAP"):
            if any(ours(t) for t in pop(2 * arg if op == "BUILD_MAP" else arg + 1)):
                return ins
            stack.append("?")
        elif op == "CALL":
            args = pop(arg)
            null, func = pop(2)
            given, kw_names = kw_names, None
            keywords = len(given) if given else 0
            if isinstance(func, tuple) and func[0] == "method":
                if any(ours(t) for t in args):
                    return ins
                method = func[1]
                if method == "setdefault" and (len(args) < 2 or args[1] not in ("int", "dval")):
                    typed = False  # stores its default
                whole = method in ("get", "setdefault") and len(args) == 2 and args[1] in ("int", "dval")
                stack.append(("view", method) if method in _VIEWS else "dval" if whole else "?")
            elif isinstance(func, tuple) and func[0] == "builtin" and null == "null":
                reader = func[1]
                positional, named = args[:len(args) - keywords], args[len(args) - keywords:]
                if any(ours(t) for t in named) or len(positional) != 1:
                    return ins
                if keywords and not (reader == "sorted" and given == ("reverse",)):
                    return ins
                given_arg = positional[0]
                kind = "dict" if given_arg == _D else given_arg[1] if isinstance(given_arg, tuple) \
                    and given_arg[0] == "view" else None
                if kind is None or kind not in _READERS[reader]:
                    return ins
                used.add(reader)
                stack.append("?")
            else:
                if any(ours(t) for t in args) or ours(func) or ours(null):
                    return ins
                stack.append("?")
        elif op == "POP_TOP":
            pop(1)
        else:
            return ins
    return instructions[-1]


def _before(instructions: list[dis.Instruction], i: int, name: str) -> list[Any]:
    """The modelled stack just before ``instructions[i]``, from the start of its line:
    whole numbers ("int", "dval": a value read from the dict), the reader a dict is about
    to be handed to; empty when the line holds what the model does not follow."""
    start = i
    while start > 0 and instructions[start].starts_line is None:
        start -= 1
    stack: list[Any] = []
    for ins in instructions[start:i]:
        op, arg = ins.opname, ins.arg or 0
        if (ins.is_jump_target and ins is not instructions[start]) or ins.opcode in _JUMPS:
            return []
        if op in _QUIET:
            continue
        if op == "LOAD_CONST":
            stack.append("int" if type(ins.argval) is int else "?")
        elif op == "LOAD_GLOBAL":
            if _null(ins):
                stack.extend(["null", ("builtin", ins.argval) if ins.argval in _READERS else "?"])
            else:
                stack.append("?")
        elif op == "LOAD_FAST":
            stack.append(_D if ins.argval == name else "?")
        elif op == "LOAD_ATTR":
            if not stack:
                return []
            stack[-1] = "?"
        elif op == "LOAD_METHOD":
            if not stack:
                return []
            owner = stack.pop()
            stack.extend([("get", owner)] * 2 if ins.argval == "get" and owner == _D else ["?", "?"])
        elif op == "BINARY_OP":
            if len(stack) < 2:
                return []
            pair = [stack.pop(), stack.pop()]
            whole = arg in _INT_OPS and all(t in ("int", "dval") for t in pair)
            stack.append("int" if whole else "?")
        elif op == "BINARY_SUBSCR":
            if len(stack) < 2:
                return []
            stack.pop()
            stack[-1] = "?"
        elif op == "CALL":
            if len(stack) < arg + 2:
                return []
            args = stack[len(stack) - arg:]
            del stack[len(stack) - arg:]
            func = stack.pop()
            stack.pop()
            # A dict's get with a whole-number default gives a value of it: whole when every
            # value stored is (checked where the dict is loaded, as the local's own proof).
            dval = (isinstance(func, tuple) and func[0] == "get" and len(args) == 2
                    and args[1] in ("int", "dval"))
            stack.append("dval" if dval else "?")
        else:
            return []
    return stack


_DICT_MAKERS = frozenset({"dict", "Counter", "defaultdict", "OrderedDict"})


def why_ordered(code: types.CodeType) -> dict[str, str]:
    """For each local of ``code`` that looks like a dict kept in its insertion order (not
    shown blind to it), why, in words with the line: for messages, not for the proof.

    >>> def peeks():
    ...     seen = {}
    ...     card = yield
    ...     seen[card] = 1
    ...     return list(seen)[0]
    >>> why_ordered(peeks.__code__)
    {'seen': 'line 5: it (or a view of it) is passed to a function that may read it in order'}
    """
    instructions = code_instructions(code)
    dicts = []
    for i, ins in enumerate(instructions):
        if ins.opname == "STORE_FAST" and ins.argval not in dicts:
            before = [b for b in instructions[max(0, i - 6):i] if b.opname not in _QUIET]
            if before and (before[-1].opname in ("BUILD_MAP", "BUILD_CONST_KEY_MAP", "DICT_UPDATE") or any(
                    b.opname == "LOAD_GLOBAL" and b.argval in _DICT_MAKERS for b in before)):
                dicts.append(ins.argval)
    blind = blind_dicts(code).names
    found: dict[str, str] = {}
    whole = None
    if code.co_cellvars or code.co_freevars:
        whole = "a function defined inside the generator reads its variables"
    elif not _code_ok(code):
        whole = ("the generator catches an exception, imports a module, rebinds a module's name or "
                 "names what can reach its frame")
    for name in dicts:
        if name in blind:
            continue
        if whole is not None:
            found[name] = whole
            continue
        proof = _local(instructions, name, code.co_consts)
        if isinstance(proof[0], dis.Instruction):
            found[name] = f"line {_line(instructions, proof[0])}: {proof[1]}"
    return found


def _line(instructions: list[dis.Instruction], at: dis.Instruction) -> int | None:
    line = None
    for ins in instructions:
        if ins.starts_line is not None:
            line = ins.starts_line
        if ins is at:
            break
    return line


def unordered(frame: types.FrameType, blind: Blind, value: Any) -> bool:
    """Whether the blind local's ``value`` in ``frame`` may be keyed by its items alone."""
    t = type(value)
    if t is collections.defaultdict:
        if value.default_factory is not int or "defaultdict" not in blind.makers:
            return False
    elif t is collections.Counter:
        if "Counter" not in blind.makers:
            return False
    elif t is not dict:
        return False
    if value:
        value_types = {type(v) for v in value.values()}
        if not distinct_keys(value) or len(value_types) != 1 or not value_types <= _VALUE_TYPES:
            return False
    return _unchanged(frame, blind)


def distinct_keys(items: Any) -> bool:
    """Whether ``items`` (a dict's keys, a set's items) are all of one exact type among
    ``int``, ``str``, ``bytes`` and names, no two of one hash: then equal means the same
    item, and the items say all a lookup can tell (with ``-1`` and ``-2``, of one hash, a
    lookup by an object equal to both would find the one inserted first)."""
    kinds = {type(item) for item in items}
    if len(kinds) > 1 or not kinds <= _KEY_TYPES:
        return False
    return len({hash(item) for item in items}) == len(items)


_MISSING = object()


def _unchanged(frame: types.FrameType, blind: Blind) -> bool:
    """Whether the names the proof relies on still mean what they meant to the proof,
    and every global name the code loads holds what cannot reach a frame (:func:`_safe`)."""
    module, builtin = frame.f_globals, frame.f_builtins
    if type(module) is not dict or type(builtin) is not dict:
        return False  # a mapping of another kind answers a name by its own __getitem__
    for name in blind.builtins:
        if module.get(name, _MISSING) is not _MISSING or builtin.get(name) is not _BUILTINS[name]:
            return False
    for name in blind.makers:
        expected = _MAKERS.get(name, _BUILTINS.get(name))
        if module.get(name, builtin.get(name)) is not expected:
            return False
    return _all_safe([module.get(name, builtin.get(name)) for name in blind.loaded], (module, builtin))


def _all_safe(values: Any, namespaces: tuple[Any, ...] = ()) -> bool:
    """Whether every one of ``values`` is :func:`_safe`, and no namespace (``namespaces``,
    and the globals and builtins of every function met on the way) is among what they
    reach: a module's dict reached as a value lets the code rebind the names its proof
    relies on while it runs (``G["len"] = min``, a review)."""
    ids = _safe_ids()
    values = tuple(values)
    if all(type(value) in _SCALARS or id(value) in ids for value in values):
        return True  # (what _safe says at once of each, reaching nothing: the common case)
    seen: dict[int, Any] = {}
    budget = [_BUDGET]
    if not all(_safe(value, seen, budget) for value in values):
        return False
    reached: set[int] = seen.get(_NAMESPACES, set())
    return not any(i in seen for i in (*reached, *map(id, namespaces)))


#: The key under which :func:`_safe` notes the namespaces of the functions it meets
#: (never an object's id).
_NAMESPACES = -1


def reaches_no_frame(code: types.CodeType, module: Any, builtin: Any, given: tuple[Any, ...]) -> bool:
    """Whether every global name ``code`` loads (from ``module``, else ``builtin``) and
    every value it was ``given`` (arguments, defaults) holds only what reaches no frame
    (:func:`_safe`), the namespaces being plain dicts."""
    if type(module) is not dict or type(builtin) is not dict:
        return False
    parts = [module.get(name, builtin.get(name)) for name in _globals_loaded(code)]
    return _all_safe((*parts, *given), (module, builtin))


def given_safe(values: tuple[Any, ...], namespaces: tuple[Any, ...] = ()) -> bool:
    """Whether the values a generator was handed (its arguments, its function's defaults)
    reach no frame (:func:`_safe`), nor any of ``namespaces`` (the module and builtins
    its code looks names up in): a frame reader passed as an argument could read what
    the proofs here show unread.

    >>> given_safe((1, "a", (2, 3))), given_safe((locals,))
    (True, False)
    """
    if all(type(value) in _SCALARS for value in values):
        return True
    return _all_safe(values, namespaces)


#: Builtins a generator, or a function it calls, may load: none hands over a frame.
_SAFE_BUILTINS = (
    "range", "len", "sorted", "max", "min", "sum", "any", "all", "abs", "int", "str", "float", "bool",
    "bytes", "tuple", "list", "set", "frozenset", "dict", "enumerate", "zip", "reversed", "divmod",
    "round", "pow", "repr", "isinstance", "iter", "next", "map", "filter", "hash", "ord", "chr",
    "ValueError", "KeyError", "IndexError", "TypeError", "ZeroDivisionError", "AssertionError",
)
_SCALARS = frozenset({int, str, bytes, float, bool, complex, type(None), *NAME_TYPES})
_BUDGET = 2_000  # objects looked at per check; past it, not shown safe
_DEPTH = 50  # containers within containers looked into; deeper, not shown safe
_SAFE_IDS: list[frozenset[int]] = []


def _safe_ids() -> frozenset[int]:
    """The safe builtins, the dict makers and drawdsl's public functions, by id."""
    if not _SAFE_IDS:
        import drawdsl  # here: drawdsl imports this module

        found = [getattr(builtins, name) for name in _SAFE_BUILTINS] + list(_MAKERS.values())
        found += [getattr(drawdsl, name) for name in drawdsl.__all__]
        _SAFE_IDS.append(frozenset(id(value) for value in found))
    return _SAFE_IDS[0]


def _safe(value: Any, seen: dict[int, Any], budget: list[int], depth: int = 0) -> bool:
    """Whether ``value`` (what a global name holds) can be shown to reach no frame: a plain
    value, a container of safe values, a safe builtin, drawdsl's own function, or a Python
    function whose code passes :func:`_code_ok` and whose globals, closure, defaults and
    attributes are safe.  Anything else (a module, a class, a partial) is not shown safe:
    ``peek = functools.partial(locals)`` hands over the generator's own variables."""
    t = type(value)
    if type(t) is not type:
        return False  # a metaclass of the spec's: its == and hash answer for the type
    if t in _SCALARS or id(value) in seen:
        return True
    if id(value) in _safe_ids():
        return True
    budget[0] -= 1
    if budget[0] < 0 or depth > _DEPTH:
        return False
    seen[id(value)] = value
    if t is tuple or t is list or t is set or t is frozenset:
        return all(_safe(item, seen, budget, depth + 1) for item in value)
    if t is dict:
        return all(_safe(k, seen, budget, depth + 1) and _safe(v, seen, budget, depth + 1)
                   for k, v in value.items())
    if t is type:
        return _safe_class(value, seen, budget, depth)  # a class of the spec's (isinstance(x, C))
    if t is not types.FunctionType:
        return False
    code = value.__code__
    if not _code_ok(code):
        return False
    module, builtin = value.__globals__, value.__builtins__
    if type(module) is not dict or type(builtin) is not dict:
        return False
    seen.setdefault(_NAMESPACES, set()).update((id(module), id(builtin)))
    parts = [module.get(name, builtin.get(name)) for name in _globals_loaded(code)]
    parts += [cell.cell_contents for cell in value.__closure__ or () if _filled(cell)]
    parts += [*(value.__defaults__ or ()), *(value.__kwdefaults__ or {}).values(), *value.__dict__.values()]
    # Every other attribute that can hold any object (``f.__doc__ = locals``).
    parts += [value.__doc__, value.__module__, value.__name__, value.__qualname__, value.__annotations__]
    return all(_safe(part, seen, budget, depth + 1) for part in parts)


def _filled(cell: Any) -> bool:
    try:
        cell.cell_contents  # noqa: B018 - an empty cell raises
    except ValueError:
        return False
    return True


_CODE_OK: dict[types.CodeType, bool] = {}
_GLOBALS: dict[types.CodeType, frozenset[str]] = {}
#: Instructions that catch an exception (its traceback holds the frames), import a module
#: or rebind a module's name.
_REFUSED_OPS = frozenset({
    "PUSH_EXC_INFO", "BEFORE_WITH", "BEFORE_ASYNC_WITH", "IMPORT_NAME", "IMPORT_FROM", "IMPORT_STAR",
    "STORE_GLOBAL", "DELETE_GLOBAL", "STORE_NAME", "DELETE_NAME", "LOAD_NAME",
})
#: Their opcodes (those this Python has).
_REFUSED_CODES = frozenset(dis.opmap[name] for name in _REFUSED_OPS if name in dis.opmap)


def _codes(code: types.CodeType) -> list[types.CodeType]:
    """``code`` and the code nested in it (lambdas, comprehensions, inner functions)."""
    found, stack = [], [code]
    while stack:
        c = stack.pop()
        found.append(c)
        stack.extend(const for const in c.co_consts if type(const) is types.CodeType)
    return found


def _code_ok(code: types.CodeType) -> bool:
    """Whether ``code`` (and the code nested in it) catches no exception, imports nothing,
    rebinds no module name and names nothing that reaches a frame, in its names or in its
    string constants (``object.__getattribute__(tb, "tb_frame")``)."""
    ok = _CODE_OK.get(code)
    if ok is None:
        ok = _CODE_OK[code] = all(_one_code_ok(c) for c in _codes(code))
    return ok


def _one_code_ok(code: types.CodeType) -> bool:
    if _FRAME_READERS & set(code.co_names) or _FRAME_READERS & set(constant_strings(code.co_consts)):
        return False
    if any(name.startswith("__") and name.endswith("__") for name in code.co_names):
        # A special name reaches what no list can follow: ``len.__self__`` is the builtins
        # module, and from it the import machinery and sys._getframe (a review).
        return False
    # The opcodes straight from the bytecode (one byte of each two, as dis reads them: the
    # code units are (opcode, argument) pairs), without decoding every instruction.
    return not _REFUSED_CODES.intersection(code.co_code[::2])


def constant_strings(consts: Any) -> list[str]:
    """The strings among code constants, inside tuples and frozensets too (a class
    pattern's attribute names, ``case object(is_=f)``, are a tuple constant)."""
    found: list[str] = []
    stack = list(consts)
    while stack:
        const = stack.pop()
        if type(const) is str:
            found.append(const)
        elif type(const) in (tuple, frozenset):
            stack.extend(const)
    return found


_LOAD_GLOBAL = dis.opmap["LOAD_GLOBAL"]
_EXTENDED_ARG = dis.opmap["EXTENDED_ARG"]
#: From 3.11 LOAD_GLOBAL's argument is the name's index times two (plus a flag).
_GLOBAL_SHIFT = 1 if sys.version_info >= (3, 11) else 0


def _globals_loaded(code: types.CodeType) -> frozenset[str]:
    """The global names ``code`` and the code nested in it load.

    Read straight from the bytecode's (opcode, argument) units, an EXTENDED_ARG's
    argument carried into the next, as :mod:`dis` reads them (decoding every
    instruction costs about 3 us each, and a class's methods are read only for this).
    """
    names = _GLOBALS.get(code)
    if names is None:
        found: set[str] = set()
        for c in _codes(code):
            raw, extended = c.co_code, 0
            for at in range(0, len(raw), 2):
                op, arg = raw[at], raw[at + 1] | extended
                extended = arg << 8 if op == _EXTENDED_ARG else 0
                if op == _LOAD_GLOBAL:
                    found.add(c.co_names[arg >> _GLOBAL_SHIFT])
        names = _GLOBALS[code] = frozenset(found)
    return names


# --------------------------------------------------------------------------- loop states


#: Methods of a state's frozensets (and tuples, named tuples) that read no order.
_STATE_METHODS = frozenset({
    "union", "intersection", "difference", "symmetric_difference", "isdisjoint", "issubset",
    "issuperset", "count", "index", "_replace",
})
#: Callables a state's values may be handed to: their results do not depend on a
#: frozenset's order (its items are distinct, so sorted, max and min have one answer).
#: ``done`` and ``fail`` too, but a finished value holding the state's frozenset carries
#: its order out of the loop, to whatever reads it next (``.map(lambda s: next(iter(s)))``):
#: such a step keeps the strict key (the items and the slots, see keys.set_layout).
_STATE_READERS = frozenset({"len", "sorted", "max", "min", "any", "all", "done", "fail"})
_FINISH = frozenset({"done", "fail"})
#: ``%`` (text formatting, and in place).
_FORMATS = frozenset({6, 19})
_T = "state"  # the tag of a value of the loop state alone on the modelled stack
_TM = "mixed"  # a value holding the state's values and others
# Tags of the proof for hashing (see hash_blind_step): the state's values and the card.
_C = "cards"  # made of cards and of values equal to none (an atom, a leaf, a tuple of them)
_S = "set"  # a set or frozenset of such values (the result of a set operation on one)
#: ``&``, ``|``, ``-``, ``^`` and their in-place forms: on a set, a set of the operands' items.
_SET_OPS = frozenset({1, 7, 10, 12, 14, 20, 23, 25})
#: Set methods that hand back a set of the operands' items.
_SET_RESULTS = frozenset({"union", "intersection", "difference", "symmetric_difference"})
#: Set methods: they look their arguments' items up (a string's letters too).
_SET_METHODS = _SET_RESULTS | {"isdisjoint", "issubset", "issuperset"}
#: (hashing) Instructions that iterate, anywhere in the step: a set's order, read.
_ITERATES = frozenset({
    "GET_ITER", "FOR_ITER", "GET_YIELD_FROM_ITER", "LIST_EXTEND", "SET_UPDATE", "DICT_UPDATE",
    "DICT_MERGE", "CALL_FUNCTION_EX", "UNPACK_EX", "LIST_TO_TUPLE", "BUILD_LIST_UNPACK",
})
#: (hashing) The only globals a step may name: what else it calls could hash a card.
_HASH_GLOBALS = frozenset({"len", "any", "all", "done", "fail"})
#: Rank of a tag when a local is stored with two: the least a value may be taken for.
_RANK = {_S: 0, _C: 1, _T: 0, _TM: 2}


def _worse(a: str, b: str) -> str:
    """The tag of a local stored once with ``a`` and once with ``b``."""
    return a if _RANK[a] >= _RANK[b] else b


def _step_window(
    instructions: list[dis.Instruction], i: int, tainted: dict[str, str], consts: tuple[Any, ...],
    param: str, hashing: bool = False, stores: dict[int, str] | None = None,
    card: str | None = None, fields: set[str] | None = None,
) -> tuple[dict[str, str], set[str], bool] | None:
    """Follow a value of the state loaded at ``instructions[i]`` until none is on the stack.

    The locals it is stored in (each with its tag: the state's values alone, or mixed
    with others), the callables it is handed to, and whether the state itself is
    unpacked; None when a frozenset in it may be read in order.

    With ``hashing`` (see :func:`hash_blind_step`) the card is followed too, and every
    operation that may hash or look up a value of theirs (a set display, ``in``, a set
    operation, ``==``, a set method) must meet only values tagged ``_C`` or ``_S``:
    cards, values of the state (checked at run time to equal no card unless they are
    one), and tuples and sets built of them, never a value the step computed
    (``len(seen)``, ``name[1]``) or a constant set.  ``stores`` collects the tag of
    each store it follows (by offset); ``fields``, the attributes read straight off the
    parameter ``card`` (``card.rank``), which the caller checks at run time to be a
    probe card's field (the card's shown field, a card's own kind of value).

    Tags: ``_T`` a value of the state alone (the state, its parts, their unions and
    intersections); ``_TM`` one mixed with other values (``seen | {card}``, a tuple of
    them); "const" a constant; "lit" a container built of values not the state's; "?"
    anything else.  A state's value meets another value only where no code of the
    other's can read its order: a constant, a container the step builds, another value
    of the state (not ``First[seen]`` or ``seen == other``, whose methods get it).
    """
    stack = _Stack(_seed(instructions, i, tainted if hashing else None, card))
    before = instructions[i - 1] if i else None
    if (not stack and not instructions[i].is_jump_target and before is not None
            and before.opname == "LOAD_GLOBAL" and _null(before)):
        stack.extend(["null", ("global", before.argval)])
    stack.append(tainted[instructions[i].argval])
    stored: dict[str, str] = {}
    called: set[str] = set()
    unpacks = False
    kw_names: Any = None

    pad, pop = stack.pad, stack.take

    def ours(tag: Any) -> bool:
        return tag in (_T, _TM, _C, _S) or (isinstance(tag, tuple) and tag[0] == "method")

    def harmless(tag: Any) -> bool:
        """A value a state's value may meet: no code of its own gets the state's."""
        return ours(tag) or tag in ("const", "lit")

    def safe(tag: Any) -> bool:
        """(hashing) A value that may meet cards where they are hashed."""
        return tag in (_C, _S)

    previous = instructions[i]
    for at, ins in enumerate(instructions[i + 1:], start=i + 1):
        if not any(ours(tag) for tag in stack):
            return stored, called, unpacks
        op, arg = ins.opname, ins.arg or 0
        if op in _TESTS and not ins.is_jump_target:
            pop(1)  # `if seen:`, `if state is None:`: a truth or a None test reads no order
            if any(ours(tag) for tag in stack):
                return None
            continue
        if op == "JUMP_FORWARD" and _returns_at(instructions, ins.argval):
            pop(1)  # `return a if c else b`: the first arm jumps to the return of both
            previous = ins
            continue
        if (ins.is_jump_target and op != "RETURN_VALUE") or ins.opcode in _JUMPS:
            return None  # (both arms of `a if c else b` end at one return: it returns either)
        if op in _QUIET:
            continue
        if op == "KW_NAMES":
            kw_names = consts[arg]
        elif op == "LOAD_FAST":
            name = ins.argval
            stack.append(tainted.get(name, "?"))
        elif op == "LOAD_CONST":
            # (hashing) a constant set or tuple, looked up in, could hold a card's equal.
            stack.append("const" if not hashing or type(ins.argval) in _SCALARS else "lit")
        elif op == "LOAD_DEREF":
            stack.append("?")
        elif op == "LOAD_GLOBAL":
            stack.extend(["null", ("global", ins.argval)] if _null(ins) else ["?"])
        elif op == "LOAD_ATTR":
            owner = pop(1)[0]
            just = instructions[at - 1]  # the instruction right before (not the last one modelled)
            if hashing and fields is not None and just.opname == "LOAD_FAST" and just.argval == card:
                fields.add(ins.argval)  # card.rank: a field, checked at run time
                stack.append(_C)
            else:
                # A named tuple's field (hashing: ``n.real``, ``s.upper``, any value at all).
                stack.append((_TM if hashing else owner) if ours(owner) else "?")
        elif op == "LOAD_METHOD":
            owner = pop(1)[0]
            if ours(owner):
                if ins.argval not in _STATE_METHODS:
                    return None
                stack.extend([("method", ins.argval, owner)] * 2)
            else:
                stack.extend(["?", "?"])
        elif op == "BINARY_OP":
            pair = pop(2)
            if any(ours(t) for t in pair):
                if arg in _FORMATS or not all(harmless(t) for t in pair):
                    return None  # "%s" % (seen,); seen | other, whose __ror__ gets it
                if not hashing:
                    stack.append(_T if all(t == _T for t in pair) else _TM)
                elif arg in _SET_OPS:
                    if not all(safe(t) for t in pair):
                        return None  # seen | {len(seen)}: a set's items met by values that may equal a card
                    # A set of the operands' items (or a TypeError), or a number.
                    stack.append(_S if _S in pair else _TM)
                else:
                    stack.append(_TM)  # a sum, a concatenation: any value
            else:
                stack.append("?")
        elif op == "BINARY_SUBSCR":
            container, key = pop(2)
            if ours(key) and not ours(container):
                return None  # table[seen], First[seen]: the container's code gets it
            if hashing and ours(container):
                stack.append(_TM)  # a tuple's item, or a part of a string: any value
            else:
                stack.append(container if ours(container) else "?")
        elif op in ("COMPARE_OP", "IS_OP"):
            pair = pop(2)
            if any(ours(t) for t in pair) and not all(harmless(t) for t in pair):
                return None  # seen == other: other's __eq__ gets it
            if hashing and any(ours(t) for t in pair) and not all(safe(t) or t == "const" for t in pair):
                return None  # {n + 1} == seen: sets compare their items by their hashes
            stack.append("?")
        elif op == "CONTAINS_OP":
            item, container = pop(2)
            if ours(item) and not harmless(container):
                return None  # seen in other: other's __contains__ gets it
            if hashing and (ours(item) or ours(container)) and not (safe(item) and safe(container)):
                return None  # card in {"a"}, len(seen) in seen: found by hash, never compared
            stack.append("?")
        elif op == "UNARY_NOT":
            pop(1)
            stack.append("?")
        elif op in ("UNARY_NEGATIVE", "UNARY_POSITIVE", "UNARY_INVERT"):
            value = pop(1)[0]
            stack.append(_TM if ours(value) else "?")
        elif op == "UNPACK_SEQUENCE":
            # Only the state itself, straight from the parameter (a tuple: checked at run
            # time); unpacking a frozenset would read its order.
            if pop(1)[0] not in (_T, _C) or previous.opname != "LOAD_FAST" or previous.argval != param:
                return None
            unpacks = True
            stack.extend([_C if hashing else _T] * arg)
        elif op == "STORE_FAST":
            value = pop(1)[0]
            if ours(value):
                tag = value if value in (_T, _S, _C) else _TM
                stored[ins.argval] = _worse(stored[ins.argval], tag) if ins.argval in stored else tag
                if stores is not None:
                    stores[ins.offset] = _worse(stores[ins.offset], tag) if ins.offset in stores else tag
        elif op == "COPY":
            pad(arg)
            stack.append(stack[-arg])
        elif op == "SWAP":
            pad(arg)
            stack[-1], stack[-arg] = stack[-arg], stack[-1]
        elif op in ("BUILD_TUPLE", "BUILD_LIST", "BUILD_SET"):
            items = pop(arg)
            if not any(ours(t) for t in items):
                stack.append("lit")
            elif not hashing:
                stack.append(_TM)
            elif all(safe(t) for t in items):
                stack.append(_S if op == "BUILD_SET" else _C)
            elif op == "BUILD_SET":
                return None  # {card, len(seen)}: a value that may equal a card, beside one
            else:
                stack.append(_TM)
        elif op in ("BUILD_MAP", "BUILD_CONST_KEY_MAP"):
            items = pop(2 * arg if op == "BUILD_MAP" else arg + 1)
            if hashing and any(ours(t) for t in items):
                return None  # a dict of cards: looked up by hash
            stack.append(_TM if any(ours(t) for t in items) else "lit")
        elif op == "CALL":
            args = pop(arg)
            null, func = pop(2)
            given, kw_names = kw_names, None
            if isinstance(func, tuple) and func[0] == "method":
                if not all(harmless(t) for t in args):
                    return None  # seen.union(other): other is iterated by the frozenset
                if not hashing:
                    stack.append(_TM)
                elif func[2] not in (_S, _C) or not all(safe(t) for t in args):
                    return None  # seen.union([len(seen)]): found by hash, never compared
                elif func[1] in _SET_METHODS:
                    if not all(t == _S for t in args):
                        return None  # seen.isdisjoint(name): a string's letters looked up
                    # A set of the owner's and the arguments' items, or a truth value.
                    stack.append(_S if func[1] in _SET_RESULTS else "?")
                else:
                    # count, index: a number; _replace: a tuple holding anything.
                    stack.append("?" if func[1] != "_replace" else _TM)
            elif ours(func) or ours(null):
                return None  # a callable read off the state (seen.__iter__)
            elif any(ours(t) for t in args):
                # (No keyword: sorted(key=...) and max(key=...) keep the first of a tie.)
                if given or not (isinstance(func, tuple) and func[0] == "global" and null == "null"
                                 and func[1] in _STATE_READERS):
                    return None
                reader = func[1]
                if hashing and reader in _IN_ORDER:
                    return None  # sorted(seen): atoms are not ordered (and a tie would follow the order)
                if reader in _IN_ORDER and (len(args) != 1 or args[0] != _T):
                    # Over the state's values alone, whose types the run checks (not
                    # sorted(seen | {nan}), max(seen, other)).
                    return None
                called.add(reader)
                # sorted, max and min may hand back the state's own frozenset: still the state's.
                stack.append("?" if reader in ("len", "any", "all", *_FINISH) else _T)
            else:
                stack.append("?")
        elif op == "RETURN_VALUE" or op == "POP_TOP":
            pop(1)
        else:
            return None
        previous = ins
    return (stored, called, unpacks) if not any(ours(tag) for tag in stack) else None


def _returns_at(instructions: list[dis.Instruction], offset: int) -> bool:
    """Whether the instruction at ``offset`` is a ``RETURN_VALUE``."""
    return any(ins.offset == offset and ins.opname == "RETURN_VALUE" for ins in instructions)


def _seed(
    instructions: list[dis.Instruction], i: int, tainted: dict[str, str] | None = None,
    card: str | None = None,
) -> list[Any]:
    """The top of the modelled stack just before ``instructions[i]``, from the start of its
    line (or its last branch): the global functions about to be called
    (``done(sorted(seen)[0])``), and (given ``tainted``) the followed locals loaded
    straight (``card in seen``: the card, below the set), and ``card.field`` (the card's
    own window records the field for the check at run time); anything else unknown, and
    what lies below unknown."""
    start = i
    while start > 0 and instructions[start].starts_line is None:
        start -= 1
    stack: list[Any] = []

    def take(n: int) -> None:
        del stack[max(0, len(stack) - n):]

    previous = None
    for ins in instructions[start:i]:
        op, arg = ins.opname, ins.arg or 0
        after, previous = previous, ins
        if ins.is_jump_target or ins.opcode in _JUMPS:
            stack = []  # a branch: what is below is not known here
            if ins.opcode in _JUMPS:
                continue
        if op in _QUIET or op == "KW_NAMES":
            continue
        if op == "LOAD_GLOBAL":
            stack.extend(["null", ("global", ins.argval)] if _null(ins) else ["?"])
        elif op == "LOAD_FAST" and tainted is not None:
            stack.append(tainted.get(ins.argval, "?"))
        elif op in ("LOAD_CONST", "LOAD_FAST", "LOAD_DEREF"):
            stack.append("?")
        elif op == "LOAD_ATTR" and tainted is not None and card is not None and after is not None \
                and after.opname == "LOAD_FAST" and after.argval == card and stack:
            stack[-1] = _C
        elif op in ("LOAD_ATTR", "UNARY_NOT", "UNARY_NEGATIVE", "UNARY_INVERT", "UNARY_POSITIVE"):
            take(1)
            stack.append("?")
        elif op == "LOAD_METHOD":
            take(1)
            stack.extend(["?", "?"])
        elif op in ("BINARY_OP", "BINARY_SUBSCR", "COMPARE_OP", "CONTAINS_OP", "IS_OP"):
            take(2)
            stack.append("?")
        elif op in ("BUILD_TUPLE", "BUILD_LIST", "BUILD_SET"):
            take(arg)
            stack.append("?")
        elif op == "CALL":
            take(arg + 2)
            stack.append("?")
        elif op == "POP_TOP":
            take(1)
        else:
            stack = []
    return stack


@dataclass(frozen=True)
class _StepProof:
    """A step function's proof: the globals it relies on, and whether it unpacks the state."""

    code: types.CodeType
    called: frozenset[str]
    unpacks: bool
    #: (hashing) The attributes read off the card, each to be a probe card's field.
    card_fields: frozenset[str] = frozenset()
    #: (hashing) Whether the card itself is used, not only a field read off it: on a
    #: probe card, that runs the card's class's code (``count``, ``__lt__``, ``union``),
    #: whose results the proof cannot follow.
    card_whole: bool = True


def _prove_step(code: types.CodeType, position: int = 0, hashing: bool = False) -> _StepProof | None:
    """Whether the step function of ``code`` (the state its parameter ``position``: 1
    after a method's ``self``) never reads a frozenset of its state in order: its values
    are only unpacked (the state itself), indexed, compared, searched (``in``), combined
    (``|``, ``-``, ``+``), put in new tuples, returned, and handed to ``len``, ``sorted``,
    ``max``, ``min``, ``any``, ``all``, ``done`` or ``fail``.

    With ``hashing``, the card (the next parameter) is followed too, and the stricter
    rules of :func:`_step_window` hold: see :func:`hash_blind_step`."""
    if not MODELLED or code.co_argcount <= position + hashing or code.co_cellvars or code.co_freevars \
            or not _code_ok(code):
        return None
    param = code.co_varnames[position]
    card = code.co_varnames[position + 1] if hashing else None
    instructions = code_instructions(code)
    whole = True
    if hashing:
        if code.co_flags & (inspect.CO_GENERATOR | inspect.CO_COROUTINE | inspect.CO_ASYNC_GENERATOR):
            return None
        # No parameter assigned: a local is taken for a card only when every store to it
        # stores one, which holds only for locals with no value on entry (a default
        # ``x=12`` kept by a store that never runs would be taken for a card).
        params = code.co_varnames[:code.co_argcount + code.co_kwonlyargcount
                                  + bool(code.co_flags & inspect.CO_VARARGS)
                                  + bool(code.co_flags & inspect.CO_VARKEYWORDS)]
        if any(ins.opname in ("STORE_FAST", "DELETE_FAST") and ins.argval in params for ins in instructions):
            return None
        whole = any(
            ins.opname == "LOAD_FAST" and ins.argval == card
            and (j + 1 == len(instructions) or instructions[j + 1].opname != "LOAD_ATTR")
            for j, ins in enumerate(instructions)
        )
        # A safety net under the windows: no iteration anywhere (a set's order), no global
        # but len, any, all, done and fail (what else the step calls runs in its frame's
        # name, where atoms may be hashed), no unpacking but of the state itself.
        for j, ins in enumerate(instructions):
            if ins.opname in _ITERATES or (ins.opname in ("LOAD_GLOBAL", "LOAD_NAME")
                                           and ins.argval not in _HASH_GLOBALS):
                return None
            if ins.opname == "UNPACK_SEQUENCE" and not (
                    j and instructions[j - 1].opname == "LOAD_FAST" and instructions[j - 1].argval == param):
                return None
    # local -> its tag: the state's values alone, or mixed with others (hashing: cards or not)
    tainted: dict[str, str] = {param: _C, card: _C} if card is not None else {param: _T}
    called: set[str] = set()
    unpacks = False
    stores: dict[int, str] = {}
    fields: set[str] = set()
    while True:
        grew = False
        for i, ins in enumerate(instructions):
            if ins.opname != "LOAD_FAST" or ins.argval not in tainted:
                continue
            window = _step_window(
                instructions, i, tainted, code.co_consts, param, hashing, stores, card, fields,
            )
            if window is None:
                return None
            stored, reads, unpacked = window
            called |= reads
            unpacks = unpacks or unpacked
            for name, tag in stored.items():
                merged = _worse(tainted[name], tag) if name in tainted else tag
                if tainted.get(name) != merged:
                    tainted[name] = merged
                    grew = True
        if not grew and hashing:
            # A local is a card's kind only if every store to it is (``x = len(seen)``
            # on one line and ``x = card`` on another: x may hold a computed number).
            for ins in instructions:
                name = ins.argval
                if ins.opname == "STORE_FAST" and tainted.get(name) in (_S, _C) \
                        and stores.get(ins.offset) not in (_S, _C):
                    tainted[name] = _TM
                    grew = True
        if not grew:
            break
    watched = code.co_varnames[position:position + 1 + hashing]
    if any(ins.opname in ("STORE_FAST", "DELETE_FAST") and ins.argval in watched for ins in instructions):
        return None  # the parameter rebound: which value it holds is not followed
    return _StepProof(code, frozenset(called), unpacks, frozenset(fields), whole)


_STEP_PROOFS: dict[tuple[types.CodeType, int], _StepProof | None] = {}


def _step_function(step: Any) -> tuple[types.FunctionType, Any] | None:
    """The Python function a loop step runs, and the object it is a method of (None for a
    plain function): a function, a bound method, or an object whose class's ``__call__``
    is a function.  None for anything else."""
    t = type(step)
    if t is types.FunctionType:
        return step, None
    if t is types.MethodType:
        func = step.__func__
        return (func, step.__self__) if type(func) is types.FunctionType else None
    if type(t) is not type:
        return None
    call = next((klass.__dict__["__call__"] for klass in t.__mro__ if "__call__" in klass.__dict__), None)
    return (call, step) if type(call) is types.FunctionType else None


#: A class's own entries that hold no code of its (the others are checked, methods too).
_CLASS_DATA = frozenset({
    "__dict__", "__weakref__", "__module__", "__qualname__", "__doc__", "__slots__", "__annotations__",
    "__match_args__", "__dataclass_fields__", "__dataclass_params__",
})


def _safe_class(cls: type, seen: dict[int, Any], budget: list[int], depth: int) -> bool:
    """Whether a class of the spec's (no metaclass, no ``__getattr__`` of its own) holds
    only what :func:`_safe` shows harmless, through its MRO but object."""
    if type(cls) is not type or cls.__module__ == "builtins":
        return False
    for klass in cls.__mro__[:-1]:
        if type(klass) is not type or klass.__module__ == "builtins":
            return False
        for name, value in klass.__dict__.items():
            if name in ("__getattr__", "__getattribute__", "__setattr__", "__init_subclass__"):
                return False
            kind = type(value)
            if kind in (types.MemberDescriptorType, types.GetSetDescriptorType):
                if value.__objclass__ not in cls.__mro__:
                    # Another type's descriptor (``FunctionType.__globals__``) reads that
                    # type's objects: a review reached a module's globals through one.
                    return False
                continue  # a slot, ``__dict__`` or ``__weakref__``: its value is an instance's
            if name in _CLASS_DATA:
                # Class data can hold anything too (``__doc__ = peek``, a review): plain values,
                # annotations naming types, a dataclass's fields with safe defaults.
                if not _safe_class_data(name, value, seen, budget, depth):
                    return False
                continue
            if kind in (staticmethod, classmethod):
                value = value.__func__
            if not _safe(value, seen, budget, depth + 1):
                return False
    return True


def _annotation(value: Any) -> bool:
    """Whether an annotation is a string or a builtin type (nothing that can be called to
    reach a frame)."""
    return type(value) is str or (type(value) is type and value.__module__ == "builtins")


def _safe_class_data(name: str, value: Any, seen: dict[int, Any], budget: list[int], depth: int) -> bool:
    """Whether a class's data entry ``name`` (see :data:`_CLASS_DATA`) holds only what
    reaches no frame."""
    if name == "__annotations__":
        if type(value) is not dict:
            return False
        return all(type(k) is str and _annotation(v) for k, v in value.items())
    if name == "__dataclass_fields__":
        if type(value) is not dict:
            return False
        for field in value.values():
            if type(field) is not dataclasses.Field:
                return False
            parts = [field.default, field.default_factory, *field.metadata.values()]
            if not all(part is dataclasses.MISSING or _safe(part, seen, budget, depth + 1) for part in parts):
                return False
            if not _annotation(field.type):
                return False
        return True
    if name == "__dataclass_params__":
        slots = getattr(type(value), "__slots__", None)
        return type(value).__module__ == "dataclasses" and type(slots) is tuple and all(
            type(getattr(value, slot, None)) is bool for slot in slots
        )
    return _safe(value, seen, budget, depth + 1)


def _safe_owner(owner: Any) -> bool:
    """Whether the object a step method belongs to holds only what :func:`_safe` shows
    harmless: its class's attributes (every class of its MRO but object; no metaclass,
    no ``__getattr__`` of its own) and its own attributes (``self.limit``)."""
    t = type(owner)
    try:
        own = list(vars(owner).values()) if hasattr(owner, "__dict__") else []
    except Exception:  # the object's own __getattribute__ or __dict__ raised
        return False
    for klass in t.__mro__:
        # Every slot the class has (its descriptors), whatever `__slots__` says now.
        for descriptor in list(klass.__dict__.values()):
            if type(descriptor) is types.MemberDescriptorType:
                try:
                    own.append(descriptor.__get__(owner, t))
                except AttributeError:
                    continue
    return _all_safe([t, *own])


def blind_step(step: Any, state: Any) -> bool:
    """Whether the loop ``step`` cannot read the order of a frozenset in ``state``: a
    Python function (state first) proven by :func:`_prove_step`, whose globals hold only
    what :func:`_safe` shows harmless, and a tuple state where it unpacks one."""
    last = _LAST[0]
    if last[0] is step:
        blind, unpacks, sorts, escapes = last[1], last[2], last[3], last[4]
    else:
        found = _step_function(step)
        if found is None:
            return False
        func, owner = found
        code = func.__code__
        position = 0 if owner is None else 1
        if (code, position) not in _STEP_PROOFS:
            _STEP_PROOFS[code, position] = _prove_step(code, position)
        proof = _STEP_PROOFS[code, position]
        blind = _blind_now(func, proof) and (owner is None or _safe_owner(owner))
        unpacks = proof is not None and proof.unpacks
        sorts = proof is not None and bool(proof.called & (_IN_ORDER | _FINISH))
        escapes = proof is not None and bool(proof.called & _FINISH)
        _LAST[0] = (step, blind, unpacks, sorts, escapes)
    # Not when a finished value may carry the state's frozenset out of the loop, to
    # whatever reads it next, nor when the step sorts (or takes the largest or smallest):
    # two orders merged now hand one of them on to the next states, where a card that is
    # neither larger nor smaller than another (a NaN) makes the sort follow it.
    if not blind or escapes or sorts or (unpacks and type(state) is not tuple):
        return False
    return _plain_holders(state)


_HASH_PROOFS: dict[tuple[types.CodeType, int], _StepProof | None] = {}


def hash_blind_step(step: Any, state: Any) -> types.FunctionType | None:
    """The function of the loop ``step`` when it may hash cards in a traced run: it never
    reads the order of a set (as :func:`blind_step`), and every value that meets a card
    or a value of the state where it is hashed or looked up (a set display, ``in``, a set
    operation, ``==``, ``union``) is a card, a value of the state, or a tuple or set built
    of them (:func:`_prove_step` with ``hashing``).  The caller checks the state at run
    time: its values are cards or values equal to no card.  An atom hashes the same
    wherever it is hashed (by its address, which says nothing of its card), so in the
    traced run a lookup finds an atom that is there, and compares it with nothing else
    but values that are unequal to every card; with the cards, equal items hash alike,
    so the answers are the same, and no order is read.
    None when not shown (a plain function or method only, not a callable object).

    >>> def seen_twice(seen, card):
    ...     return done(len(seen)) if card in seen else seen | {card}
    >>> def with_constant(seen, card):
    ...     return done(0) if card in {"a", "b"} else seen | {card}
    >>> from drawdsl import done
    >>> hash_blind_step(seen_twice, frozenset()) is seen_twice, hash_blind_step(with_constant, frozenset())
    (True, None)
    """
    found = _hash_proof(step)
    if found is None:
        return None
    func, owner, proof = found
    if proof.called & (_IN_ORDER | _FINISH) or (proof.unpacks and type(state) is not tuple):
        return None
    if not _blind_now(func, proof) or (owner is not None and not _safe_owner(owner)):
        return None
    return func


def _hash_proof(step: Any) -> tuple[types.FunctionType, Any, _StepProof] | None:
    """The function of ``step``, the object it is a method of (or None), and its proof
    with ``hashing`` (kept per code and parameter position); None when there is none."""
    found = _step_function(step)
    if found is None:
        return None
    func, owner = found
    if owner is not None and type(step) is not types.MethodType:
        return None
    code, position = func.__code__, 0 if owner is None else 1
    if (code, position) not in _HASH_PROOFS:
        _HASH_PROOFS[code, position] = _prove_step(code, position, hashing=True)
    proof = _HASH_PROOFS[code, position]
    return None if proof is None else (func, owner, proof)


def hash_fields(step: Any) -> tuple[frozenset[str], bool]:
    """The attributes a step shown by :func:`hash_blind_step` reads off its card, and
    whether it uses the card itself too."""
    found = _hash_proof(step)
    return (found[2].card_fields, found[2].card_whole) if found is not None else (frozenset(), True)


def _plain_holders(value: Any) -> bool:
    """Whether every frozenset in ``value`` is held by plain tuples and frozensets only:
    a named tuple's own methods (``union``, ``count``, a property) are the class's code,
    which the proof does not read."""
    t = type(value)
    if t is frozenset:
        return True
    if t is tuple:
        return all(_plain_holders(item) or not _holds_any_frozenset(item) for item in value)
    return not _holds_any_frozenset(value)


def _holds_any_frozenset(value: Any) -> bool:
    """Whether ``value`` is or holds a frozenset (through tuples of any kind)."""
    t = type(value)
    if issubclass(t, frozenset):
        return True
    if issubclass(t, tuple) and type(t) is type:
        return any(_holds_any_frozenset(item) for item in tuple.__iter__(value))
    return False


def _uniform(value: Any) -> bool:
    """Whether every frozenset in ``value`` (through tuples) holds items of one exact type
    among ``int``, ``str``, ``bytes`` (or a shown card field)."""
    stack = [value]
    while stack:
        x = stack.pop()
        t = type(x)
        if t is frozenset:
            kinds = {type(item) for item in x}
            if len(kinds) > 1 or not kinds <= _KEY_TYPES:
                return False
        elif t is tuple or (issubclass(t, tuple) and hasattr(t, "_fields")):
            stack.extend(tuple.__iter__(x))
    return True


#: The last step asked about and its verdict: one loop asks for every state it makes.
#: Forgotten at the start of every evaluation (:func:`forget`), so that a global name
#: rebound between two evaluations is looked at again.
_LAST: list[tuple[Any, bool, bool, bool, bool]] = [(None, False, False, False, False)]


def forget() -> None:
    """Forget the last verdict of :func:`blind_step`."""
    _LAST[0] = (None, False, False, False, False)


def _blind_now(step: Any, proof: _StepProof | None) -> bool:
    """Whether ``step`` with ``proof`` is blind, its globals as they are now."""
    if proof is None:
        return False
    module, builtin = step.__globals__, getattr(step, "__builtins__", None)
    if not names_mean(module, builtin, proof.called, _state_readers()):
        return False
    return _all_safe([step], (module, builtin))


def names_mean(module: Any, builtin: Any, names: Any, meanings: dict[str, Any]) -> bool:
    """Whether each of ``names``, looked up as code looks it up (``module``, then
    ``builtin``, both plain dicts), is still the object in ``meanings``."""
    if type(module) is not dict or type(builtin) is not dict:
        return False
    return all(module.get(name, builtin.get(name)) is meanings[name] for name in names)


def _state_readers() -> dict[str, Any]:
    import drawdsl  # here: drawdsl imports this module

    return {**{name: getattr(builtins, name) for name in _STATE_READERS - _FINISH},
            "done": drawdsl.done, "fail": drawdsl.fail}


def loop_key(state: Any, step: Any) -> Any:
    """The key of a loop's state: :func:`~drawdsl.keys.strict_key` (frozensets in their
    iteration order), or, when ``step`` is shown blind to that order
    (:func:`blind_step`), the key with frozensets by their items alone, so that
    ``frozenset({0}) | {8}`` and ``frozenset({8}) | {0}`` merge.

    >>> def seen_twice(seen, card):
    ...     return len(seen) if card in seen else seen | {card}
    >>> def first(seen, card):
    ...     return next(iter(seen))
    >>> a, b = frozenset({0}) | {8}, frozenset({8}) | {0}
    >>> loop_key(a, seen_twice) == loop_key(b, seen_twice), loop_key(a, first) == loop_key(b, first)
    (True, False)
    """
    t = type(state)
    if t in _SCALARS or not (len(state) > 1 if t is frozenset else _holds_frozensets(state)) \
            or not blind_step(step, state):
        return strict_key(state)
    return _unordered_key(state)


def _holds_frozensets(value: Any) -> bool:
    """Whether ``value`` is a frozenset of two items or more, or a tuple holding one (one
    level down: the usual loop states).  A frozenset deeper down keeps the strict key,
    which is sound: this only chooses where the items-only key may be tried."""
    t = type(value)
    if t is frozenset:
        return len(value) > 1
    if t is tuple:
        for item in value:
            if type(item) is frozenset and len(item) > 1:
                return True
    return False
