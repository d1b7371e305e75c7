"""Lookups: where a traced run may hash a card (an atom) without a renaming seeing it.

An atom (see :mod:`drawdsl.atoms`) hashes like every other atom, so a container keyed
by atoms behaves like one keyed by any renaming of their cards only if the hash values
cannot show: a dictionary keeps its keys in the order they were inserted, and a lookup
(``d[card]``, ``card in d``, ``d.get(card)``) answers by equality, which an atom
answers by identity.  A set is not like that: its order follows the hashes, so
``next(iter({a, b}))`` could pick a different card under a renaming.  So a hash is
allowed only when the code hashing it is one of these lookups, read off the
instruction the spec's frame is running:

* ``d[key]``, ``d[key] = v``, ``del d[key]``, ``key in d`` (``not in``) where ``d`` is a
  local variable (not rebound while the key is computed) holding a plain ``dict``,
  ``defaultdict``, ``OrderedDict`` or ``Counter``; for ``in``, a ``set`` or
  ``frozenset`` too (membership shows no order);
* ``d.get(key, ...)``, ``d.setdefault(key, ...)``, ``d.pop(key, ...)`` on such a local
  dictionary, with positional arguments;
* a dict display or comprehension (``{card: 1}``).

Everything else that hashes an atom from the spec's code (``hash(card)``, a set
display, ``set.add``, ``Counter(cards)``, a dict compared with ``==``) refuses the
traced run, as before: slower (no renaming symmetry), never wrong.  The instructions
between the dictionary's load and the lookup must run straight through (no jump, no
``KW_NAMES``), so that reading them backwards finds which local the dictionary came from;
on any bytecode this reading does not recognise (another Python version), the answer
is no.

>>> import sys
>>> def lookup(d, key):
...     return d[key], sys._getframe()
>>> prepare(lookup.__code__)
>>> _, frame = lookup({1: 2}, 1)
>>> looks_up(frame)  # the frame's last instruction is the return, not the lookup
False
"""

from __future__ import annotations

import _pickle
import collections
import dis
import functools
import operator
import pickle
import types
from typing import Any

__all__ = ["looks_up", "makes_sets", "prepare", "set_maker"]

#: Dictionaries whose order is their insertion order and whose lookups compare by ``==``.
_DICTS = frozenset({dict, collections.defaultdict, collections.OrderedDict, collections.Counter})
#: Containers whose membership test shows no order.
_MEMBERSHIP = _DICTS | {set, frozenset}
#: Methods of those dictionaries that look a key up and show nothing of its hash.
_METHODS = frozenset({"get", "setdefault", "pop"})
#: A new dictionary made from keys: a display or a comprehension.
_NEW_DICT = frozenset({"BUILD_MAP", "MAP_ADD"})
#: Subscripts: the container is the item below the key (and the value, for a store).
_SUBSCRIPTS = frozenset({"BINARY_SUBSCR", "STORE_SUBSCR", "DELETE_SUBSCR"})
_CALLS = frozenset({"CALL", "CALL_METHOD"})
#: Instructions that only move the call along (3.11's ``PRECALL``).
_PASS = frozenset({"PRECALL", "CACHE", "EXTENDED_ARG", "NOP"})

#: Each prepared code object's instructions, and the index of each by its offset.
_CODE: dict[types.CodeType, tuple[dict[int, int], list[dis.Instruction]]] = {}


def prepare(code: types.CodeType) -> None:
    """Read ``code``'s instructions once, ahead of :func:`looks_up` (which reads only
    prepared code: it runs inside a traced run, where the disassembler's own Python
    code would count as the spec's)."""
    if code not in _CODE:
        listing = list(dis.get_instructions(code))
        _CODE[code] = ({ins.offset: i for i, ins in enumerate(listing)}, listing)


def _effect(ins: dis.Instruction) -> int | None:
    """The stack effect of an instruction that runs straight through (None: a jump, a
    jump target, or one whose effect is unknown)."""
    if ins.is_jump_target or ins.opcode in dis.hasjrel or ins.opcode in dis.hasjabs:
        return None
    try:
        return dis.stack_effect(ins.opcode, ins.arg if ins.opcode >= dis.HAVE_ARGUMENT else None, jump=False)
    except ValueError:
        return None


def _start(listing: list[dis.Instruction], end: int, items: int) -> int | None:
    """The index of the first instruction of the code that pushed the top ``items``
    stack items, the last of it at ``end - 1``: walking backwards until the
    instructions push exactly ``items`` (None: not straight-line code)."""
    total = 0
    i = end
    while i > 0:
        i -= 1
        effect = _effect(listing[i])
        if effect is None:
            return None
        total += effect
        if total == items:
            return i
        if total > items:
            return None
    return None


def _copies(listing: list[dis.Instruction], at: int) -> bool:
    """Whether the instructions just before ``at`` copy the two top items (the
    container and the key of ``d[k] += v``): ``COPY 2, COPY 2`` or ``DUP_TOP_TWO``."""
    before = listing[max(at - 2, 0):at]
    return ([(i.opname, i.arg) for i in before] == [("COPY", 2), ("COPY", 2)]
            or (at >= 1 and listing[at - 1].opname == "DUP_TOP_TWO"))


def _augmented(listing: list[dis.Instruction], at: int) -> int | None:
    """Where the container and key of the subscript at ``at`` were loaded from: the end
    of their code.  Plainly, ``at`` itself; in ``d[k] += v`` the subscripts work on
    copies (``COPY 2, COPY 2``, then ``SWAP 3, SWAP 2`` before the store), so the end is
    before the copies.  None: not a form read here."""
    op = listing[at].opname
    if op == "BINARY_SUBSCR" and _copies(listing, at):
        return at - (1 if listing[at - 1].opname == "DUP_TOP_TWO" else 2)
    if op == "STORE_SUBSCR" and at >= 2:
        before = [(i.opname, i.arg) for i in listing[at - 2:at]]
        rotated = listing[at - 1].opname == "ROT_THREE"
        if before == [("SWAP", 3), ("SWAP", 2)] or rotated:
            value_end = at - (1 if rotated else 2)
            value = _start(listing, value_end, 1)
            if value is None:
                return None
            # The value's code starts with the copies and their subscript.
            width = 1 if listing[value].opname == "DUP_TOP_TWO" else 2
            if value + width >= len(listing) or listing[value + width].opname != "BINARY_SUBSCR" \
                    or not _copies(listing, value + width):
                return None
            return value
    return at


def _local(listing: list[dis.Instruction], at: int, until: int) -> str | None:
    """The name of the local variable that instruction ``at`` loads, when it is a
    ``LOAD_FAST`` not stored to or deleted up to instruction ``until``; else None."""
    ins = listing[at]
    if ins.opname != "LOAD_FAST":
        return None
    name: str = ins.argval
    for later in listing[at + 1:until]:
        if later.opname in ("STORE_FAST", "DELETE_FAST", "LOAD_FAST_AND_CLEAR") and later.argval == name:
            return None
    return name


#: What each instruction of prepared code is, as a place that may hash a key: True (a
#: new dict), (the local holding the container, the container types allowed), or None.
_SITES: dict[tuple[types.CodeType, int], bool | tuple[str, frozenset[type]] | None] = {}


def _site(listing: list[dis.Instruction], at: int) -> bool | tuple[str, frozenset[type]] | None:
    """Read instruction ``at`` as a place that may hash a key (see :data:`_SITES`)."""
    ins = listing[at]
    op = ins.opname
    if op in _NEW_DICT:
        return True
    if op in _SUBSCRIPTS or op == "CONTAINS_OP":
        # The container's load, then the key's code (STORE_SUBSCR: the value came first;
        # CONTAINS_OP: the key first, the container last).
        if op == "CONTAINS_OP":
            start: int | None = at - 1
        else:
            end = _augmented(listing, at)
            key = None if end is None else _start(listing, end, 1)
            start = None if key is None else key - 1
        if start is None or start < 0:
            return None
        name = _local(listing, start, at)
        return None if name is None else (name, _MEMBERSHIP if op == "CONTAINS_OP" else _DICTS)
    if op in _CALLS:
        end = at
        while end > 0 and listing[end - 1].opname in _PASS:
            end -= 1
        count = ins.arg or 0
        first = _start(listing, end, count) if count else end
        if first is None or first < 2:
            return None
        method = listing[first - 1]
        if method.opname not in ("LOAD_METHOD", "LOAD_ATTR") or method.argval not in _METHODS:
            return None
        name = _local(listing, first - 2, at)
        return None if name is None else (name, _DICTS)
    return None


def looks_up(frame: types.FrameType) -> bool:
    """Whether the instruction ``frame`` is running hashes a key only to look it up in a
    dictionary held in a local variable, or to make a dict (see the module's text)."""
    code = frame.f_code
    where = (code, frame.f_lasti)
    if where in _SITES:
        site = _SITES[where]
    else:
        found = _CODE.get(code)
        if found is None:
            return False  # not prepared: read nothing here
        offsets, listing = found
        at = offsets.get(frame.f_lasti)
        site = _SITES[where] = None if at is None else _site(listing, at)
    if site is None or isinstance(site, bool):
        return site is True
    name, kinds = site
    return type(frame.f_locals.get(name)) in kinds


# --------------------------------------------------------------------------- sets of a dict's keys

#: Instructions that make or fill a set: ``{a, b}``, ``{*d}``, a set comprehension.
_SET_OPS = frozenset({"BUILD_SET", "SET_ADD", "SET_UPDATE"})
#: Names through which code can make a set of a dict's keys, which takes the hashes the
#: dict keeps (no ``__hash__`` is called): the set types, their methods that take any
#: iterable, a dict's keys view (``d.keys() - x`` is a set of ``d``'s keys), and the
#: ways to fetch a method by a name built at run time.
_SET_NAMES = frozenset({
    "set", "frozenset", "keys", "union", "update", "intersection", "difference",
    "symmetric_difference", "intersection_update", "difference_update",
    "symmetric_difference_update", "issubset", "issuperset", "isdisjoint",
    "getattr", "attrgetter", "methodcaller",
    # C code that looks a name up given as data: an unpickler (``pickle.loads(b"c...")``)
    "loads", "load", "Unpickler", "find_class",
})
_LOADS = frozenset({
    "LOAD_GLOBAL", "LOAD_NAME", "LOAD_ATTR", "LOAD_METHOD", "LOAD_DEREF", "IMPORT_FROM",
    "LOAD_FROM_DICT_OR_GLOBALS", "LOAD_FROM_DICT_OR_DEREF", "LOAD_SUPER_ATTR",
})
_MAKES_SETS: dict[types.CodeType, str | None] = {}
_KEYS_VIEW: type = type({}.keys())
#: Objects that fetch an attribute by a name they hold (``methodcaller("keys")``), or
#: that look any global up by a name in their data (an unpickler).
_GETTERS = (operator.attrgetter, operator.methodcaller, _pickle.Unpickler)
#: Functions that look a global up by a name in their data (``loads(b"cbuiltins\n...")``).
_RESOLVERS = frozenset({id(_pickle.loads), id(_pickle.load), id(pickle.loads), id(pickle.load)})


def makes_sets(code: types.CodeType) -> str | None:
    """What in ``code`` can make a set (a set instruction, a name of :data:`_SET_NAMES`,
    also as a string constant), None when nothing.  Read once per code object.

    >>> makes_sets((lambda d: list(set(d))).__code__)
    'set'
    >>> makes_sets((lambda d, c: d.get(c, 0) + 1).__code__) is None
    True
    """
    if code in _MAKES_SETS:
        return _MAKES_SETS[code]
    found: str | None = next(
        (const for const in code.co_consts if type(const) is str and const in _SET_NAMES), None
    )
    if found is None:
        for ins in dis.get_instructions(code):
            if ins.opname in _SET_OPS:
                found = "a set display"
                break
            if ins.opname in _LOADS and ins.argval in _SET_NAMES:
                found = ins.argval
                break
    _MAKES_SETS[code] = found
    return found


def set_maker(value: Any, depth: int = 0) -> str | None:
    """Whether ``value`` can make a set of a dict's keys when called or combined: the set
    types (and their subclasses), a keys view, a method of a set or of a keys view, a
    dict's ``keys`` method (bound or not), ``getattr``, an ``attrgetter`` or a
    ``methodcaller``, or one wrapped in a ``functools.partial`` or a bound method.
    What it is, or None."""
    kind = type(value)
    if isinstance(value, type) and issubclass(value, (set, frozenset)):
        return value.__name__  # the set types and their subclasses
    if kind is _KEYS_VIEW:
        return "a dict's keys view"
    if value is getattr or issubclass(kind, _GETTERS) or id(value) in _RESOLVERS:
        return "a getter of attributes by name"
    if isinstance(value, type) and issubclass(value, _pickle.Unpickler):
        return "an unpickler"
    if kind is types.BuiltinFunctionType:
        owner = type(value.__self__)
        if issubclass(owner, (set, frozenset, _KEYS_VIEW)):
            return f"a method of a {owner.__name__}"
        if issubclass(owner, dict) and value.__name__ == "keys":
            return "a dict's keys method"
        return None
    if kind is types.MethodDescriptorType or kind is types.WrapperDescriptorType:
        owner = value.__objclass__
        if issubclass(owner, dict) and value.__name__ == "keys":
            return "a dict's keys method"
        return f"a method of {owner.__name__}" if owner in (set, frozenset, _KEYS_VIEW) else None
    if depth >= 3:
        return None
    if kind is types.MethodType:
        return set_maker(value.__self__, depth + 1) or set_maker(value.__func__, depth + 1)
    if kind is functools.partial:
        for part in (value.func, *value.args, *value.keywords.values()):
            found = set_maker(part, depth + 1)
            if found is not None:
                return found
    return None
