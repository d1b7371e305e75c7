"""Probe cards: showing a spec only the fields of a card it reads.

A newcomer writes ``draw_until(lambda c: c.rank == 13)`` on the whole 52-card deck.
The spec never looks at suits, so drawing the king of spades or of hearts must lead to
the same future: the deck behaves like 13 ranks.  The exact evaluator finds this out by
*probing*: it first shows the spec cards whose fields are all hidden, and reveals a
field (rank, suit) only once the spec touches it.  The cards that agree on the
revealed fields form one class, drawn once with the class's count, exactly as if the
user had written ``deck.map(lambda c: c.rank)``.

Why this is sound.  A hidden field holds a :class:`Hidden` placeholder, and *every*
use of a placeholder (reading it through the card's attribute or index, comparing,
hashing, printing, arithmetic, truth, iteration, conversion, pickling, ...) is recorded
and stops the run (:class:`Seen`, a ``BaseException``, so ``except Exception`` in a
spec does not swallow it; the record stays even if it is swallowed).  A run in which
nothing hidden was used computed the same thing for every card of a class, so its
answer is the answer over the real cards; a run that used a hidden field is thrown
away and started again with that field shown.  A card handed to the spec is a fresh
object at every draw (two draws are never the same object, as two different real cards
are not), and state keys tell placeholders apart by which one they are
(:func:`~drawdsl.keys.strict_key`): states holding different cards of a class never
merge (one card held twice and two cards of a class behave differently under ``is``
and container comparisons), while states holding no hidden field merge as before.  A
finished value that still holds a placeholder (the spec returned a card) sends the
evaluation back to the real cards.

The probe of a card of a named-tuple type ``T`` is an instance of a subclass of ``T``
(``isinstance(card, T)`` holds; ``card.color``, ``str(card)``, ``card._replace`` work,
reading fields through the watched accessors).  What cannot be watched: the exact type
(``type(card) is T`` is False on a probe), ``id()`` and ``is`` (on a shoe two copies of
a card are one object, two probes never are); a spec that tells cards apart that way
must pass ``probe=False``.  When the spec is shown one field only, traced runs
(:mod:`drawdsl.atoms`, which watch every transition) hand it that field's value as a
*name* (:func:`named`), so that the renaming symmetry can see a rank kept in a state;
every other run hands it the plain value.
Only decks of one named-tuple type are probed
(:class:`~drawdsl.Card` and the user's own); other decks are drawn as they are.

>>> from drawdsl import standard_deck
>>> plan = ProbePlan.of(standard_deck())
>>> plan.fields
('rank', 'suit')
>>> deck, watch = plan.deck(frozenset({"suit"}))
>>> len(deck), len(deck.distinct())
(52, 4)
>>> card = show(deck.distinct()[0])
>>> card.suit, card.color
('S', 'black')
>>> try:
...     card.rank
... except Seen:
...     sorted(watch.fields)
['rank']
"""

from __future__ import annotations

import functools
import gc
import operator
import types
from collections import namedtuple
from collections.abc import Callable, Iterable
from typing import Any

from drawdsl.cards import _NO_PLAN, Cards

__all__ = ["Hidden", "Seen", "Watch", "Token", "ProbePlan", "show", "holds_hidden", "NAME_TYPES", "is_name"]


_ATOMS = (int, str, bool, float, bytes, complex, type(None))


class Seen(BaseException):
    """A spec used a field the evaluator had hidden: the run stops and starts again with
    that field shown.  A ``BaseException`` so that a spec's ``except Exception`` does not
    swallow it (the evaluator also keeps a record, in case a bare ``except`` does)."""


class Watch:
    """The fields a probing run saw used (one per run: no global state)."""

    __slots__ = ("fields", "made", "signals")

    def __init__(self) -> None:
        self.fields: set[str] = set()
        #: Placeholders made so far: each gets its number, its key (see serial()).
        self.made = 0
        #: Uses signalled so far (see :data:`SIGNALS`).
        self.signals = 0


#: Uses a run signals before its placeholders stop raising and act as the field's value
#: of the class's first card: a spec that swallows the signal and tries again (``except
#: BaseException`` in a loop) then finishes instead of trying forever.  Nothing it
#: computes is kept: a run whose watch saw a use is always thrown away.
SIGNALS = 100


def serial(hidden: Hidden) -> tuple[int, int]:
    """What tells a placeholder apart in a key: its watch and its number there.  Two
    placeholders are the same only when they are the same object, so states holding
    different cards of one class never merge: a state can hold one card in two parts
    (a loop state and a bind's parameters), and a key made part by part could not tell
    one card held twice from two cards."""
    return (id(object.__getattribute__(hidden, "_watch")), object.__getattribute__(hidden, "_serial"))


def _touch(hidden: Hidden) -> Any:
    """Record the use and stop the run; past :data:`SIGNALS` uses, give the value instead."""
    field = object.__getattribute__(hidden, "_field")
    watch = object.__getattribute__(hidden, "_watch")
    watch.fields.add(field)
    watch.signals += 1
    if watch.signals <= SIGNALS:
        raise Seen(field)
    return object.__getattribute__(hidden, "_value")


class Hidden:
    """The placeholder of a hidden field: any use of it is recorded and stops the run.

    >>> watch = Watch()
    >>> h = Hidden("rank", watch)
    >>> try:
    ...     h == 13
    ... except Seen:
    ...     watch.fields
    {'rank'}
    """

    __slots__ = ("_field", "_watch", "_serial", "_value")

    def __init__(self, field: str, watch: Watch, value: Any = None) -> None:
        _fill(self, field, watch, value)

    def __getattribute__(self, name: str) -> Any:
        return getattr(_touch(self), name)

    def __setattr__(self, name: str, value: Any) -> None:
        _touch(self)
        raise AttributeError(name)

    def __delattr__(self, name: str) -> None:
        _touch(self)
        raise AttributeError(name)


def _touching(name: str) -> Callable[..., Any]:
    def use(self: Hidden, *args: Any, **kwargs: Any) -> Any:
        return getattr(_touch(self), name)(*args, **kwargs)

    return use


# Every special method Python may look up on the type, so that no implicit use (``==``,
# ``hash()``, ``str()``, ``+``, ``if``, ``len()``, ``for``, ``int()``, ``round()``,
# ``copy``/``pickle``, ``with``, ...) slips past the watch.
_SPECIAL = (
    "eq", "ne", "lt", "le", "gt", "ge", "hash", "bool", "len", "length_hint", "iter",
    "reversed", "contains", "next", "getitem", "setitem", "delitem", "missing", "call", "int",
    "float", "complex", "index", "round", "trunc", "floor", "ceil", "str", "repr", "format",
    "bytes", "fspath", "add", "radd", "iadd", "sub", "rsub", "isub", "mul", "rmul", "imul",
    "matmul", "rmatmul", "imatmul", "truediv", "rtruediv", "itruediv", "floordiv",
    "rfloordiv", "ifloordiv", "mod", "rmod", "imod", "divmod", "rdivmod", "pow", "rpow",
    "ipow", "lshift", "rlshift", "ilshift", "rshift", "rrshift", "irshift", "and", "rand",
    "iand", "xor", "rxor", "ixor", "or", "ror", "ior", "neg", "pos", "abs", "invert", "enter",
    "exit", "aenter", "aexit", "await", "aiter", "anext", "reduce", "reduce_ex", "getstate",
    "setstate", "copy", "deepcopy", "dir", "sizeof", "getnewargs", "getnewargs_ex", "get",
    "set", "delete", "set_name", "buffer", "release_buffer", "instancecheck", "subclasscheck",
    "class_getitem", "mro_entries", "init_subclass",
)
for _name in _SPECIAL:
    setattr(Hidden, f"__{_name}__", _touching(f"__{_name}__"))
del _name

# The slots written through their descriptors: a probe card is made at every draw.
_SET_FIELD, _SET_WATCH, _SET_SERIAL, _SET_VALUE = (
    vars(Hidden)[slot].__set__ for slot in ("_field", "_watch", "_serial", "_value")
)


def _fill(hidden: Hidden, field: str, watch: Watch, value: Any) -> None:
    _SET_FIELD(hidden, field)
    _SET_WATCH(hidden, watch)
    watch.made += 1
    _SET_SERIAL(hidden, watch.made)
    _SET_VALUE(hidden, value)


def _hidden(field: str, watch: Watch, value: Any) -> Hidden:
    """``Hidden(field, watch, value)``, made faster."""
    hidden = object.__new__(Hidden)
    _fill(hidden, field, watch, value)
    return hidden


class _Probe(tuple):  # type: ignore[type-arg]
    """Mixin of the probe types: reading a field, an index or iterating goes through the watch."""

    __slots__ = ()

    def __getitem__(self, index: Any) -> Any:
        value = tuple.__getitem__(self, index)
        for item in (value if isinstance(index, slice) else (value,)):
            if type(item) is Hidden:
                _touch(item)
        return value

    def __iter__(self) -> Any:
        for item in tuple.__iter__(self):
            if type(item) is Hidden:
                _touch(item)
            yield item

    def __reduce_ex__(self, protocol: Any) -> Any:
        _watch_all(self)
        return tuple.__reduce_ex__(self, protocol)

    def __reduce__(self) -> Any:
        _watch_all(self)
        return tuple.__reduce__(self)


def _watch_all(card: tuple[Any, ...]) -> None:
    for item in tuple.__iter__(card):
        if type(item) is Hidden:
            _touch(item)


def _field_reader(i: int) -> property:
    def read(self: tuple[Any, ...]) -> Any:
        value = tuple.__getitem__(self, i)
        if type(value) is Hidden:
            _touch(value)
        return value

    return property(read)


_READ = _field_reader(0).fget.__code__  # type: ignore[union-attr]


def name_field(token: Token) -> str | None:
    """The field a probe card of ``token`` hands its name in, read through the probe's own
    field reader (so ``card.<field>`` gives the name, or in a traced run its atom, and
    nothing the card's class computes); None when there is no such field.

    >>> from drawdsl import standard_deck
    >>> plan = ProbePlan.of(standard_deck())
    >>> name_field(plan.deck(frozenset({"rank"}), names=True)[0].distinct()[0])
    'rank'
    """
    if token.name is None:
        return None
    base = type(token.members[0])
    found = [i for i, value in enumerate(token.values) if value is token.name]
    if len(found) != 1:
        return None
    field = base._fields[found[0]]  # type: ignore[attr-defined]
    return str(field) if _own_reader(base, field, found[0]) else None


def _own_reader(base: type, field: str, i: int) -> bool:
    """Whether the probe type of ``base`` reads ``field`` through its own accessor of
    item ``i`` (no ``__getattribute__`` of the class's, no reader of another field)."""
    probe = _probe_type(base)
    if getattr(probe, "__getattribute__", None) is not tuple.__getattribute__:
        return False
    reader = probe.__dict__.get(field)
    if type(reader) is not property or getattr(reader.fget, "__code__", None) is not _READ:
        return False
    cells: tuple[Any, ...] = getattr(reader.fget, "__closure__", None) or ()
    return len(cells) == 1 and cells[0].cell_contents == i


_NOT_SHOWN = object()


def field_value(card: Any, field: str) -> Any:
    """The value a probe of the deck card ``card`` (a :class:`Token`) shows in ``field``,
    read through the probe type's own accessor (so nothing the card's class computes);
    an object of no plain type when that is not so (a hidden field, a class's own
    property or ``__getattribute__``, not a :class:`Token`).

    >>> from drawdsl import standard_deck
    >>> token = ProbePlan.of(standard_deck()).deck(frozenset({"rank"}))[0].distinct()[0]
    >>> field_value(token, "rank")
    2
    >>> type(field_value(token, "suit")) in (int, str)
    False
    """
    return field_values((card,), field)[0]


def field_values(cards: Iterable[Any], field: str) -> list[Any]:
    """:func:`field_value` of each of ``cards``, the probe type's accessor checked once
    per card type and hidden fields (a class's cards share them).

    >>> from drawdsl import standard_deck
    >>> tokens = ProbePlan.of(standard_deck()).deck(frozenset({"rank"}))[0].distinct()
    >>> field_values(tokens[:3], "rank")
    [2, 3, 4]
    """
    at: dict[tuple[type, tuple[tuple[int, str], ...]], int] = {}
    values = []
    for card in cards:
        if type(card) is not Token:
            values.append(_NOT_SHOWN)
            continue
        base = type(card.members[0])
        i = at.get((base, card.hidden))
        if i is None:
            i = at[base, card.hidden] = _shown_at(base, card.hidden, field)
        values.append(card.values[i] if i >= 0 else _NOT_SHOWN)
    return values


def _shown_at(base: type, hidden: tuple[tuple[int, str], ...], field: str) -> int:
    """Which item of a probe of ``base`` shows ``field``, read through the probe type's own
    accessor; -1 when none does (not a field, a hidden one, a reader of the class's own)."""
    fields = getattr(base, "_fields", ())
    if field not in fields:
        return -1
    i = fields.index(field)
    if any(j == i for j, _ in hidden) or not _own_reader(base, field, i):
        return -1
    return int(i)


_PROBE_TYPES: dict[type, type] = {}  # a cache of derived types, never of values
_TUPLEGETTER = type(vars(namedtuple("_Point", "x"))["x"])  # the type of a field's accessor


def _probe_type(base: type) -> type:
    """The watched subclass of the named-tuple type ``base`` (made once per type)."""
    probe = _PROBE_TYPES.get(base)
    if probe is None:
        fields = base._fields  # type: ignore[attr-defined]
        body: dict[str, Any] = {"__slots__": (), "__module__": base.__module__,
                                "__qualname__": base.__qualname__, "__doc__": base.__doc__}
        for i, name in enumerate(fields):
            # Only the named tuple's own accessor: a subclass's property of that name stays
            # (it reads the fields through the watched index or iteration).
            found = next((klass.__dict__[name] for klass in base.__mro__ if name in klass.__dict__), None)
            if type(found) is _TUPLEGETTER:
                body[name] = _field_reader(i)
        probe = _PROBE_TYPES[base] = type(base.__name__, (_Probe, base), body)
    return probe


class _IntName(int):
    """A shown ``int`` field labelled with its class of cards (see :func:`named`)."""

    __slots__ = ()

    def __reduce__(self) -> Any:
        return (int, (int(self),))  # a copy or a pickle is the plain value


class _StrName(str):
    """A shown ``str`` field labelled with its class of cards (see :func:`named`)."""

    __slots__ = ()

    def __reduce__(self) -> Any:
        return (str, (str(self),))


for _kind, _base in ((_IntName, int), (_StrName, str)):
    _kind.__name__ = _kind.__qualname__ = _base.__name__  # messages name the value's type
del _kind, _base

#: The types of labelled field values (:func:`named`).
NAME_TYPES: tuple[type, ...] = (_IntName, _StrName)
_NAME_OF = {int: _IntName, str: _StrName}


def named(value: Any) -> Any:
    """``value`` (an ``int`` or a ``str``) as a *name*: equal to it, hashing like it, doing
    everything it does (arithmetic and string methods give plain values), yet
    recognisable by the renaming of :mod:`drawdsl.reductions`.

    When the spec is shown one field only, every class of cards has its own value of
    that field, and the spec is handed it as a name: a loop state that keeps
    ``card.rank`` then holds a name the renaming can move, so the renaming symmetry
    (War's abstract deck) can be tried on it.  Only tried: the proof checks what the
    spec really does with the renamed states, so a name used as a number (``rank + 1``,
    ``rank > 10``) makes it fail.  A copy or a pickle of a name is the plain value;
    ``type(card.rank) is int`` is False on a name, and its pickle's bytes differ: so
    names are handed only in traced runs, whose watch refuses code that could see
    either (:func:`drawdsl.atoms.watching`).

    >>> n = named(13)
    >>> n == 13, hash(n) == hash(13), n + 1, type(n + 1) is int, is_name(n), is_name(13)
    (True, True, 14, True, True, False)
    >>> import copy
    >>> type(copy.copy(n)) is int
    True
    """
    return _NAME_OF[type(value)](value)


def is_name(value: Any) -> bool:
    """Whether ``value`` is a labelled field value (:func:`named`)."""
    return type(value) in NAME_TYPES


class Token:
    """A class of cards, as the evaluator holds it in its deck (compared by identity,
    never shown to a spec: :func:`show` makes a fresh probe card of it at every draw).
    ``name`` is its shown field's value as a :func:`named` value, when the spec is
    shown that field only (else None)."""

    __slots__ = ("values", "hidden", "make", "watch", "members", "name")

    def __init__(self, values: tuple[Any, ...], hidden: tuple[tuple[int, str], ...],
                 make: Callable[[Iterable[Any]], Any], watch: Watch, members: tuple[Any, ...],
                 name: Any = None) -> None:
        self.values = values
        self.hidden = hidden
        self.make = make
        self.watch = watch
        self.members = members
        self.name = name

    def show(self) -> Any:
        """A fresh probe card: the shown fields' values, a new placeholder in every hidden one."""
        values = list(self.values)
        for i, name in self.hidden:
            values[i] = _hidden(name, self.watch, values[i])
        return self.make(values)

    def __repr__(self) -> str:
        """The class as a card with its hidden fields as ``?``: ``Card(rank=14, suit=?)``."""
        card = self.members[0]
        hidden = {i for i, _ in self.hidden}
        fields = ", ".join(
            f"{name}=?" if i in hidden else f"{name}={value!r}"
            for i, (name, value) in enumerate(zip(card._fields, self.values, strict=True))
        )
        return f"{type(card).__name__}({fields})"


def show(card: Any) -> Any:
    """What the spec is handed for a deck card: a fresh probe for a :class:`Token`, else the card."""
    return card.show() if type(card) is Token else card


class ProbePlan:
    """How to probe a deck: its cards' named-tuple type, fields, and the strict keys of
    every card's fields (made once, so each run only groups them)."""

    __slots__ = ("source", "fields", "probe", "keys", "counts", "_classes", "_names")

    def __init__(self, source: Cards[Any], base: type) -> None:
        from drawdsl.keys import strict_key

        self.source = source
        self.fields: tuple[str, ...] = tuple(base._fields)  # type: ignore[attr-defined]
        self.probe = _probe_type(base)
        self.keys = [tuple([strict_key(value) for value in card]) for card in source.distinct()]
        self.counts = [source.count(card) for card in source.distinct()]
        #: shown fields -> the classes of cards they tell apart: (members, count)
        self._classes: dict[frozenset[str], list[tuple[tuple[Any, ...], int]]] = {}
        self._names: dict[frozenset[str], bool] = {}  # shown fields -> names_for (made once)

    @classmethod
    def of(cls, deck: Cards[Any]) -> ProbePlan | None:
        """The plan for ``deck``, or None when probing does not apply: fewer than two
        distinct cards, or cards that are not all of one named-tuple type.  Made once
        per deck (the deck keeps it: a deck never changes)."""
        plan = deck._plan
        if plan is _NO_PLAN:
            plan = deck._plan = cls._make(deck)
        return plan  # type: ignore[no-any-return]

    @classmethod
    def _make(cls, deck: Cards[Any]) -> ProbePlan | None:
        cards = deck.distinct()
        if len(cards) < 2:
            return None
        base = type(cards[0])
        if not (issubclass(base, tuple) and hasattr(base, "_fields")) or not base._fields:
            return None
        if any(type(card) is not base for card in cards):
            return None
        return cls(deck, base)

    def deck(self, shown: frozenset[str], names: bool = False,
             watch: Watch | None = None) -> tuple[Cards[Any], Watch]:
        """The deck of classes of cards that agree on the ``shown`` fields, and the
        watch its probes report to (``watch``, or a new one).  With ``names`` (for traced
        runs only, see :func:`named`), when one field is shown and its values are all
        ints or all strs, each class hands the spec its value as a :func:`named` value
        (see :meth:`names_for`); the classes come in the same order either way."""
        watch = Watch() if watch is None else watch
        shown_at = [i for i, name in enumerate(self.fields) if name in shown]
        hidden = tuple((i, name) for i, name in enumerate(self.fields) if name not in shown)
        make = functools.partial(tuple.__new__, self.probe)  # _make without its length check
        counts: dict[Any, int] = {}
        at = shown_at[0] if names and self.names_for(shown) else -1
        for members, count in self._grouped(shown, shown_at):
            values = tuple(members[0])
            name = None
            if at >= 0:
                name = named(values[at])
                values = values[:at] + (name,) + values[at + 1:]
            counts[Token(values, hidden, make, watch, members, name)] = count
        return Cards._trusted(counts), watch

    def _grouped(self, shown: frozenset[str], shown_at: list[int]) -> list[tuple[tuple[Any, ...], int]]:
        """The cards grouped by their ``shown`` fields' keys, first found first, and the
        number of cards in each group (made once per ``shown``: a plan never changes)."""
        found = self._classes.get(shown)
        if found is None:
            groups: dict[Any, list[int]] = {}
            if not shown_at:
                groups[()] = list(range(len(self.keys)))
            else:
                shown_keys = operator.itemgetter(*shown_at)  # one field: its key; more: a tuple
                for j, keys in enumerate(self.keys):
                    groups.setdefault(shown_keys(keys), []).append(j)
            cards, card_counts = self.source.distinct(), self.counts
            found = self._classes[shown] = [
                (tuple([cards[j] for j in positions]), sum([card_counts[j] for j in positions]))
                for positions in groups.values()
            ]
        return found

    def names_for(self, shown: frozenset[str]) -> bool:
        """Whether the classes for ``shown`` get names: one field shown, whose values are
        all exactly ``int`` or all exactly ``str`` (so distinct values are unequal, and
        each class has its own).

        >>> from drawdsl import standard_deck
        >>> plan = ProbePlan.of(standard_deck())
        >>> plan.names_for(frozenset({"rank"})), plan.names_for(frozenset({"rank", "suit"}))
        (True, False)
        """
        found = self._names.get(shown)
        if found is None:
            found = False
            if len(shown) == 1:
                i = self.fields.index(next(iter(shown)))
                kinds = {type(card[i]) for card in self.source.distinct()}
                found = kinds == {int} or kinds == {str}
            self._names[shown] = found
        return found


def holds_hidden(value: Any, budget: int = 100_000) -> bool:
    """Whether ``value`` holds a placeholder, a probe card or a name (:func:`named`)
    anywhere it can reach (through containers, object attributes, closures), or is too
    big to tell within ``budget`` objects (then True: the caller evaluates again without
    them).

    >>> holds_hidden((1, ("a", [2.0])))
    False
    >>> holds_hidden({"x": Hidden("rank", Watch())})
    True
    """
    seen: set[int] = set()
    stack = [value]
    while stack:
        x = stack.pop()
        if type(x) is Hidden or isinstance(x, _Probe) or type(x) in NAME_TYPES:
            return True  # a placeholder, a card of the probe type (made with type(card)(...)), a name
        if id(x) in seen:
            continue
        seen.add(id(x))
        if len(seen) > budget:
            return True
        t = type(x)
        if t in _ATOMS or isinstance(x, (type, types.ModuleType)):
            continue  # a class or a module is not part of the value
        if t is types.FunctionType:
            # Its closure and defaults, not the globals of its module.
            stack.extend((x.__closure__ or ()) + (x.__defaults__ or ()))
            stack.extend(((x.__kwdefaults__ or {}), x.__dict__))
            continue
        stack.extend(gc.get_referents(x))
    return False
