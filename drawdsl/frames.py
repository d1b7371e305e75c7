"""The state of a suspended generator, as a key: what lets ``@generate`` specs merge.

A generator spec is resumed by replaying the values sent so far, so by default two
paths merge only when their histories are equal.  But two histories often leave the
generator in the same state (``counts = {"A": 1, "K": 1}`` after ``A, K`` or
``K, A``), and from the same state its future is the same.  :func:`frame_key` reads
that state: the code position, and every slot of the frame (locals, cells and the
values on the evaluation stack, such as a ``for`` loop's iterator), frozen deep
(lists, dicts in their order, sets in their iteration order, iterators by their
position, cells and functions by their contents), with shared objects kept shared.
A local that the code overwrites right after the ``yield`` before reading it (the
``card`` of ``card = yield draw()``) is dead, and left out.  What cannot be keyed is
kept apart (compared by identity, never merged): a dict's or a set's iterator (its
reduction lists what is left, not the dict it walks), a mutable set, a dict subclass
with slots; a generator whose name is on its own stack gets no key at all.

Outside what a key says: the internal table of a dict (two dicts with equal items in
equal order merge even when one had a key deleted, and code that adds and deletes keys
while iterating one can then see the difference; Python leaves what such an iteration
visits undefined).

The slots are read through :func:`gc.get_referents`, which CPython's generators
answer with their frame's slots; :data:`FRAME_KEYS` is True only when a self-check
at import shows that this interpreter does so (a hidden iterator position must make
two keys differ, equal states must make them equal).  Elsewhere generator specs
keep merging only equal histories: slower, never wrong.

>>> def g():
...     seen = 0
...     for _ in range(3):
...         card = yield
...         seen += card == "a"
>>> a, b = g(), g()
>>> for gen, cards in ((a, "ab"), (b, "ba")):
...     gen.send(None)
...     for card in cards:
...         _ = gen.send(card)
>>> FRAME_KEYS and frame_key(a) == frame_key(b)
True
"""

from __future__ import annotations

import dis
import gc
import types
from collections.abc import Generator
from typing import Any

from drawdsl.keys import set_layout, strict_key
from drawdsl.order_blind import blind_dicts, distinct_keys, given_safe, unordered
from drawdsl.probes import NAME_TYPES, Hidden, serial
from drawdsl.renaming_blind import unordered_sets

__all__ = ["FRAME_KEYS", "frame_key", "frame_parts"]

_ATOMS = (int, str, bytes, bool, float, complex, type(None))
#: Values keyed as ``(type, value)``, as :func:`~drawdsl.keys.strict_key` keys them
#: (a name, the one card field shown, is a value too).
_PLAIN = frozenset({int, str, bytes, bool, type(None), *NAME_TYPES})
_EXAMPLES: tuple[Any, ...] = (
    iter(range(1)), iter([]), iter(()), iter(""), iter({}), iter({}.values()), iter({}.items()),
    iter(set()), iter(b""), reversed([]), reversed(range(1)),
    enumerate(()), zip(), map(abs, ()), filter(None, ()),
)
#: Iterator types keyed by their position (``__reduce__``): a ``for`` loop's state.
_ITERATORS: tuple[type, ...] = tuple(type(example) for example in _EXAMPLES)
#: Iterators over a dict or a set: their reduction forgets what they walk.
_EMPTY: dict[Any, Any] = {}
_UNKEYED_ITERATORS = frozenset({
    type(iter(_EMPTY)), type(iter(_EMPTY.values())), type(iter(_EMPTY.items())), type(iter(set())),
})
#: Iterators whose position holds only plain values (a ``range``): keyed without
#: walking (``for _ in range(5)`` is in most generator specs).
_PLAIN_ITERATORS = frozenset({type(iter(range(1))), type(iter(range(2**64, 2**64 + 1)))})
_SKIP = frozenset({"RESUME", "NOP", "CACHE", "EXTENDED_ARG"})


class _Same:
    """An object compared by identity, kept alive (so its id is never reused)."""

    __slots__ = ("obj",)

    def __init__(self, obj: Any) -> None:
        self.obj = obj

    def __eq__(self, other: object) -> bool:
        return type(other) is _Same and other.obj is self.obj

    def __hash__(self) -> int:
        return id(self.obj)


class _Unfrozen(Exception):
    """A slot holds something that cannot be keyed."""


def _freeze(obj: Any, memo: dict[int, int], keep: list[Any]) -> Any:
    """A hashable key for ``obj``'s value and its sharing with objects seen before."""
    t = type(obj)
    if t in _PLAIN:
        return (t, obj)  # as strict_key keys it
    if t in _ATOMS:
        return strict_key(obj)
    if t in _PLAIN_ITERATORS:
        return ("iter", t, obj.__reduce__())
    seen = memo.get(id(obj))
    if seen is not None:
        return ("ref", seen)
    memo[id(obj)] = len(memo)
    keep.append(obj)  # alive until the key is made: ids stay unique
    if t is Hidden:
        return ("hidden", serial(obj))  # a hidden card field: which one it is
    if t is tuple:
        return (t, tuple([_freeze(x, memo, keep) for x in obj]))
    if t is frozenset:
        # Where each item sits in its own slot, the items and the table say where: two
        # equal sets can list their items in two orders, or in one order from other slots
        # (keys.set_layout).  Otherwise the set is kept apart (never merged).
        layout = set_layout(obj)
        if layout is None:
            return _Same(obj)
        return (t, frozenset([_freeze(x, memo, keep) for x in obj]), layout)
    if isinstance(obj, (set, frozenset)):
        # A mutable set that lost an item keeps a marker in its slot, which nothing shows,
        # and where the next item lands follows it: kept apart (a frozenset subclass too).
        return _Same(obj)
    if t is list or t is bytearray:
        return (t, tuple([_freeze(x, memo, keep) for x in obj]))
    if isinstance(obj, dict):
        if t is not dict and any(klass.__dict__.get("__slots__") not in (None, ())
                                 for klass in t.__mro__[:-1] if klass is not dict):
            return _Same(obj)  # a dict subclass with slots: what they hold is not keyed
        extra = _freeze(getattr(obj, "default_factory", None), memo, keep)
        attrs = _freeze(getattr(obj, "__dict__", {}), memo, keep) if t is not dict else None
        plain = _PLAIN
        items = tuple([
            ((type(k), k) if type(k) in plain else _freeze(k, memo, keep),
             (type(v), v) if type(v) in plain else _freeze(v, memo, keep))
            for k, v in obj.items()
        ])
        return (t, extra, attrs, items)
    if t is types.CellType:
        try:
            return ("cell", _freeze(obj.cell_contents, memo, keep))
        except ValueError:
            return ("cell",)
    if t is types.FunctionType:
        return (
            "function", _Same(obj.__code__), _Same(obj.__globals__),
            _freeze(obj.__defaults__, memo, keep), _freeze(obj.__kwdefaults__, memo, keep),
            _freeze(obj.__closure__, memo, keep), _freeze(obj.__dict__, memo, keep),
            # Its other attributes, which code can set and read (a review).
            _freeze((obj.__name__, obj.__qualname__, obj.__doc__, obj.__module__), memo, keep),
            _freeze(obj.__annotations__, memo, keep),
        )
    if isinstance(obj, tuple) and hasattr(t, "_fields"):
        # A named tuple (a card): its fields, read past a probe card's watch, and the
        # attributes of a subclass without slots.
        own = _freeze(vars(obj), memo, keep) if hasattr(obj, "__dict__") else None
        return (t, tuple([_freeze(x, memo, keep) for x in tuple.__iter__(obj)]), own)
    if t in _UNKEYED_ITERATORS:
        # A dict's or set's iterator reduces to what it has left, not to the dict it walks
        # (whose values can change under it): kept apart (a review).
        return _Same(obj)
    if t in _ITERATORS:
        return ("iter", t, _freeze(obj.__reduce__(), memo, keep))
    try:
        return strict_key(obj)  # hashable values: their own == (identity for most objects)
    except TypeError:
        return _Same(obj)


def _dead_after(code: types.CodeType, lasti: int) -> frozenset[str]:
    """Locals stored right after the suspension at ``lasti`` before being read."""
    dead: set[str] = set()
    started = False
    for ins in dis.get_instructions(code):
        if not started:
            started = ins.offset > lasti
            if not started:
                continue
        if ins.opname in _SKIP:
            continue
        if ins.opname == "STORE_FAST" and isinstance(ins.argval, str):
            dead.add(ins.argval)
            continue
        break
    return frozenset(dead)


_DEAD_CACHE: dict[tuple[types.CodeType, int], frozenset[str]] = {}
#: Each code's key part (compared by identity), made once; by id, the code kept alive
#: meanwhile (two code objects can be equal).
_SAME: dict[int, _Same] = {}
_UNPROVEN = object()


def _slots(
    refs: list[Any], code: types.CodeType, gi_code: types.CodeType, name_: str, qualname: str,
    frame: Any, local_values: Any,
) -> list[Any] | None:
    """The frame's slots among a generator's referents, its header's objects left out by
    identity, wherever this interpreter lists them; None when a slot could be taken for
    one of them (skipping it would shift the others, so which slot is which is unknown)."""
    function = types.FunctionType
    for value in local_values.values():
        if value is name_ or value is qualname or value is frame or value is local_values \
                or value is code or value is gi_code or (type(value) is function and value.__code__ is code):
            # A local holding the generator's own name or function (a card "g" in a
            # generator named g): its slot could not be told from the header's, and
            # skipping it would shift the others.  Unknown: histories are compared.
            return None
    names = functions = codes = 0
    slots = []
    for ref in refs:
        if ref is name_ or ref is qualname:
            names += 1
        elif ref is code or ref is gi_code:
            codes += 1
        elif type(ref) is function and ref.__code__ is code:
            functions += 1
        elif not (ref is frame or ref is local_values):
            slots.append(ref)
    if names > 2 or functions > 1 or codes > 2:
        # The generator's name or qualname elsewhere than its header (on the stack: a
        # string constant is the same object), or another function of its code or its
        # code on the stack (review W): which slot is which is not known (a review).
        return None
    return slots


#: Names through which code can hold its own frame's locals dict (or write into it).
_LOCALS_READERS = frozenset({
    "locals", "vars", "exec", "eval", "breakpoint", "_getframe", "currentframe", "_current_frames",
    "f_locals", "f_back", "gi_frame", "tb_frame", "__traceback__", "exc_info", "exception", "stack",
    "getouterframes", "getinnerframes", "getframeinfo", "walk_stack", "walk_tb", "settrace", "setprofile",
    "get_referrers", "get_referents", "get_objects",
})
#: Per code, made once: whether it names a way to its own frame's locals
#: (:func:`_reads_own_frame`), and its local names when it has no cells nor free
#: variables (else empty).
_CODE_FACTS: dict[types.CodeType, tuple[bool, frozenset[str]]] = {}


def _reads_own_frame(code: types.CodeType) -> bool:
    """Whether ``code`` (or code nested in it) names a way to its own frame's locals
    (``locals()``, ``sys._getframe()``, ...): then its frame is not read (see frame_key)."""
    if not _LOCALS_READERS.isdisjoint(code.co_names):
        return True
    return any(type(const) is types.CodeType and _reads_own_frame(const) for const in code.co_consts)


def _header_roles() -> tuple[str, ...] | None:
    """What this interpreter lists before a suspended generator's frame slots in
    :func:`gc.get_referents` (once its frame and locals have been read), as roles
    (``code``, ``name``, ``qualname``, ``frame``, ``locals``, ``function``); None when
    that is not a fixed header this module recognises."""

    def outer() -> Generator[Any, Any, Any]:
        def walk(first: int) -> Generator[Any, Any, Any]:
            for _ in range(2):
                first += yield first
        return walk(7)

    gen = outer()
    gen.send(None)
    frame = gen.gi_frame  # type: ignore[attr-defined]
    local_values = frame.f_locals
    roles: list[str] = []
    for ref in gc.get_referents(gen):
        if ref is gen.gi_code and "code" not in roles:  # type: ignore[attr-defined]
            roles.append("code")
        elif ref is gen.__name__:  # type: ignore[attr-defined]
            roles.append("name")
        elif ref is gen.__qualname__:  # type: ignore[attr-defined]
            roles.append("qualname")
        elif ref is frame:
            roles.append("frame")
        elif ref is local_values:
            roles.append("locals")
        elif type(ref) is types.FunctionType and ref.__code__ is gen.gi_code:  # type: ignore[attr-defined]
            roles.append("function")
        elif ref is gen.gi_code:  # type: ignore[attr-defined]
            roles.append("code")
        else:
            break
    if "name" not in roles or "qualname" not in roles:
        return None
    return tuple(roles)


def _header_at(roles: tuple[str, ...] | None) -> tuple[int, ...] | None:
    """Where each object of the header stands: ``(length, code, code again, name,
    qualname, frame, locals, function)``, -1 for one it does not list (None: no header)."""
    if roles is None or roles.count("code") > 2 or any(roles.count(role) > 1 for role in (
            "name", "qualname", "frame", "locals", "function")) or "frame" not in roles:
        return None
    codes = [i for i, role in enumerate(roles) if role == "code"] or [-1]
    return (
        len(roles), codes[0], codes[-1],
        *(roles.index(role) if role in roles else -1
          for role in ("name", "qualname", "frame", "locals", "function")),
    )


#: The header :func:`_header_roles` finds, by position (None: every reading takes the
#: generic way, :func:`_slots`).
_HEADER = _header_at(_header_roles())


def _after_header(
    refs: list[Any], code: types.CodeType, name_: str, qualname: str, frame: Any, local_values: Any,
) -> list[Any] | None:
    """The referents after this interpreter's header (:data:`_HEADER`) when ``refs``
    starts with exactly those objects, else None (then :func:`_slots` reads them)."""
    header = _HEADER
    if header is None:
        return None
    size, code1, code2, name_at, qualname_at, frame_at, locals_at, function_at = header
    if len(refs) < size or refs[name_at] is not name_ or refs[qualname_at] is not qualname \
            or refs[frame_at] is not frame:
        return None
    if code1 >= 0 and (refs[code1] is not code or refs[code2] is not code):
        return None
    if locals_at >= 0 and refs[locals_at] is not local_values:
        return None
    if function_at >= 0:
        function = refs[function_at]
        if type(function) is not types.FunctionType or function.__code__ is not code:
            return None
    return refs[size:]


def frame_key(gen: Any, given: tuple[Any, ...] = ()) -> Any:
    """The state of a suspended generator as a hashable key, or None when unknown.

    Only meaningful when :data:`FRAME_KEYS` is True; compare keys of generators of
    the same function.  ``given``: what the generator was handed (its arguments and its
    function's defaults): a dict is keyed by its items alone only when those, like the
    globals its code loads, reach no frame (a frame reader passed in could read the
    dict's order).
    """
    frame = gen.gi_frame
    if frame is None:
        return None
    code = frame.f_code
    facts = _CODE_FACTS.get(code)
    if facts is None:
        no_cells = not code.co_cellvars and not code.co_freevars
        local_names = frozenset(code.co_varnames) if no_cells else frozenset()
        facts = _CODE_FACTS[code] = (_reads_own_frame(code), local_names)
    reads, names = facts
    if reads:
        # Reading f_locals refreshes the dict locals() handed the code (CPython 3.11 and
        # 3.12): a generator holding it would see the evaluator's reading (review W).
        return None
    lasti = frame.f_lasti
    dead = _DEAD_CACHE.get((code, lasti))
    cells = code.co_cellvars
    if dead is None:
        # With cells of its own (locals a closure inside reads), which slot holds which
        # local is not known for sure: keep them all.  The cells of the variables it reads
        # from outside (a generator defined in a function) come after its locals' slots.
        dead = _DEAD_CACHE[code, lasti] = frozenset() if cells else _dead_after(code, lasti)
    local_values = frame.f_locals
    gi_code = gen.gi_code
    varnames = code.co_varnames
    # Every local bound and nothing else (no cells nor free variables, whose names f_locals
    # also holds, nor a name written into f_locals: review W): the names as they are.
    bound = varnames if names and type(local_values) is dict and local_values.keys() == names else \
        tuple([name for name in varnames if name in local_values])
    name_, qualname = gen.__name__, gen.__qualname__
    function = types.FunctionType
    refs = gc.get_referents(gen)
    slots = _after_header(refs, code, name_, qualname, frame, local_values)
    if slots is None:
        slots = _slots(refs, code, gi_code, name_, qualname, frame, local_values)
        if slots is None:
            return None
    else:
        for value in slots:
            if value is name_ or value is qualname or value is frame or value is local_values \
                    or value is code or value is gi_code \
                    or (type(value) is function and value.__code__ is code):
                # A slot holding one of the header's objects (or another function of the
                # generator's code, review W): unknown, histories are compared.
                return None
    memo: dict[int, int] = {}
    keep: list[Any] = []
    frozen: list[Any] = []
    proof: Any = _UNPROVEN  # the dicts whose order the code never reads (made on demand)
    plain = _PLAIN
    n_bound = len(bound)
    sets: frozenset[str] | None = None  # the locals whose sets are keyed by items (on demand)
    for i, value in enumerate(slots):
        name = bound[i] if i < n_bound else None
        t = type(value)
        if name in dead:
            frozen.append("dead")
        elif t in plain:
            frozen.append((t, value))  # as _freeze keys it
        elif t in _PLAIN_ITERATORS:
            frozen.append(("iter", t, value.__reduce__()))  # as _freeze keys it
        elif t is set and name is not None and id(value) not in memo \
                and name in (sets if sets is not None else (sets := unordered_sets(frame, given))) \
                and distinct_keys(value):
            # A set the code never iterates (drawdsl.renaming_blind): its items.
            memo[id(value)] = len(memo)
            keep.append(value)
            frozen.append(("unordered set", frozenset([(type(k), k) for k in value])))
        else:
            if proof is _UNPROVEN:
                proof = blind_dicts(code) if not cells else None
            if proof is not None and name in proof.names and unordered(frame, proof, value) \
                    and given_safe(given, (frame.f_globals, frame.f_builtins)):
                # A dict whose order the code never reads (drawdsl.order_blind): its items.
                frozen.append(("unordered", type(value), frozenset([
                    ((type(k), k), (type(v), v)) for k, v in value.items()])))
            else:
                frozen.append(_freeze(value, memo, keep))
    same = _SAME.get(id(code))
    if same is None or same.obj is not code:
        same = _SAME[id(code)] = _Same(code)
    return (same, lasti, bound, tuple(frozen))


def frame_parts(key: Any) -> tuple[list[frozenset[Any]], list[Any], bool] | None:
    """What a :func:`frame_key` holds, read through: the items of each set the code never
    iterates (``(type, value)`` pairs, as the key keeps them), every other plain value
    it keeps (the same pairs: locals, dict keys and values), and whether it also holds
    ``range`` iterators (ints it does not list).  None when the key holds anything else
    (a value keyed by identity, another iterator, a float, a container of its own):
    what that holds is not known.

    >>> from drawdsl import draw
    >>> def gen():
    ...     seen, drawn = set(), 0
    ...     while True:
    ...         card = yield draw()
    ...         seen.add(card)
    ...         drawn += 1
    >>> g = gen(); _ = g.send(None); _ = g.send("a"); _ = g.send("b")
    >>> sets, others, ranges = frame_parts(frame_key(g))
    >>> sorted(sets[0]), others, ranges
    ([(<class 'str'>, 'a'), (<class 'str'>, 'b')], [(<class 'int'>, 2)], False)
    """
    if type(key) is not tuple or len(key) != 4 or type(key[0]) is not _Same or type(key[3]) is not tuple:
        return None
    sets: list[frozenset[Any]] = []
    others: list[Any] = []
    ranges = False
    plain = _PLAIN

    def is_plain(pair: Any) -> bool:
        return type(pair) is tuple and len(pair) == 2 and pair[0] in plain and type(pair[1]) is pair[0]

    for part in key[3]:
        if part == "dead":
            continue
        if is_plain(part):
            others.append(part)
        elif type(part) is tuple and len(part) == 2 and part[0] == "unordered set":
            # (frame_key makes these of distinct_keys sets only: (type, item) pairs of one
            # exact type among int, str, bytes and names.)
            sets.append(part[1])
        elif type(part) is tuple and len(part) == 3 and part[0] == "unordered" \
                and type(part[2]) is frozenset \
                and all(type(item) is tuple and len(item) == 2 and is_plain(item[0]) and is_plain(item[1])
                        for item in part[2]):
            others.extend(pair for item in part[2] for pair in item)
        elif type(part) is tuple and len(part) == 3 and part[0] == "iter" and part[1] in _PLAIN_ITERATORS:
            ranges = True  # a ``for`` over a range (its key holds the range and the position)
        else:
            return None
    return sets, others, ranges


def _self_check() -> bool:
    """Whether :func:`frame_key` sees this interpreter's frames completely."""

    def walk(flags: list[bool]) -> Generator[None, Any, Any]:
        total = 0
        for flag in flags:
            card = yield
            total += card if flag else 0
        return total

    def at(cards: list[int]) -> Any:
        gen = walk([True, True, False])
        gen.send(None)
        for card in cards:
            gen.send(card)
        return frame_key(gen)

    try:
        # The iterator over the flags is only on the stack: after 1 card and after 2
        # cards (total 0) the locals are equal, the positions differ.
        hidden = at([0]) != at([0, 0])
        equal = at([1, 0]) == at([0, 1])
        dead = at([1]) == at([1]) and at([0, 1]) == at([1, 0])
        return bool(hidden and equal and dead)
    except Exception:
        return False


#: Whether generator specs merge by their frame state on this interpreter.
FRAME_KEYS = _self_check()
