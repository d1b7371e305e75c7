"""The draw-spec type: what to draw, described as a value and run later by an interpreter.

A spec has four forms (:func:`fail`, :func:`done`, :func:`draw_one`, :func:`draw_any`);
everything else (bind, map, ``or_else``, loops, generator syntax, the combinator
catalogue) is built from them.  A spec means the same thing under every interpreter:
deal the source in a uniformly random order, read the cards one by one as the spec
asks, and finish with a value or fail.  Running out of cards fails the path.

>>> from drawdsl import Cards, chances
>>> two = draw().bind(lambda a: draw().map(lambda b: a + b))
>>> chances(two, Cards("ab"))
Distribution({'ab': 1/2, 'ba': 1/2})

Equality of specs is *sound*, never clever: two specs compare equal only when they
are known to behave identically (same form, same values, the same function objects).
The exact evaluator merges paths whose remaining deck and spec compare equal, so
specs built from shared functions and hashable states (see :func:`loop`) merge, and
specs built from fresh lambdas are still evaluated correctly, just without merging.
"""

from __future__ import annotations

import types
from collections.abc import Callable, Generator, Hashable
from typing import Any, Generic, TypeVar

from drawdsl.errors import InvalidArgument, NotASpec
from drawdsl.frames import FRAME_KEYS, frame_key
from drawdsl.keys import strict_key
from drawdsl.order_blind import loop_key

__all__ = [
    "Spec",
    "done",
    "fail",
    "draw",
    "draw_one",
    "draw_any",
    "loop",
    "keyed",
]

V = TypeVar("V", covariant=True)
W = TypeVar("W")
T = TypeVar("T")
S = TypeVar("S")

#: A card as a spec sees it: any hashable value.
Card = Any


def _describe(obj: object) -> str:
    """A short human name for a user function, for error messages."""
    own = getattr(obj, "_name", None)
    if callable(own):
        return str(own())
    name = getattr(obj, "__qualname__", None) or getattr(obj, "__name__", None)
    return f"{name}()" if name else repr(obj)


def _spec_or_raise(result: object, source: object, what: str) -> Spec[Any]:
    if isinstance(result, Spec):
        return result
    raise NotASpec(
        f"{what} {_describe(source)} returned {result!r} ({type(result).__name__}), "
        "which is not a spec; return done(value) to finish with a value, "
        "or another spec such as draw() to keep drawing"
    )


def _key_or_none(key: object) -> Any:
    """The strict key of ``key`` (see :mod:`drawdsl.keys`) when it is hashable, else None
    (compare by identity)."""
    try:
        return strict_key(key)
    except TypeError:
        return None


class Spec(Generic[V]):
    """A description of draws ending in a value of type ``V`` (or failing).

    Build specs with the constructors and combinators; never subclass.

    >>> spec = draw().map(str.upper)
    >>> from drawdsl import Cards, chances
    >>> chances(spec, Cards("aab"))
    Distribution({'A': 2/3, 'B': 1/3})
    """

    __slots__ = ()

    # Subclasses that are not one of the four head forms rewrite themselves into a
    # simpler spec given how many cards are still available (``avail``).
    def _expand(self, avail: float) -> Spec[Any]:  # pragma: no cover - abstract
        raise NotImplementedError

    def bind(self, f: Callable[[V], Spec[W]]) -> Spec[W]:
        """Continue with ``f(value)`` once this spec finishes with ``value``.

        >>> from drawdsl import Cards, chance, draw_where
        >>> pair = draw().bind(lambda c: draw_where(lambda d: d == c))
        >>> chance(pair, Cards("aabb"))
        Fraction(1, 3)
        """
        if not callable(f):
            raise TypeError(f"bind: f must be callable, got {f!r}; pass a function value -> spec")
        return _Bind(self, f)

    def map(self, f: Callable[[V], W]) -> Spec[W]:
        """Apply ``f`` to the final value.

        >>> from drawdsl import Cards, chances
        >>> chances(draw().map(len), Cards(["x", "yy"]))
        Distribution({1: 1/2, 2: 1/2})
        """
        if not callable(f):
            raise TypeError(f"map: f must be callable, got {f!r}; pass a function value -> value")
        if f is len and type(self) is _Loop:
            # A loop that collects cards only to be counted (draw_until(...).map(len))
            # can count instead: same values, far fewer states.
            counted = getattr(self.step, "counted", None)
            if counted is not None:
                short = counted(self.state)
                if short is not None:
                    return short  # type: ignore[no-any-return]
        return _Bind(self, _MapFn(f))

    def then(self, other: Spec[W]) -> Spec[W]:
        """Run ``other`` after this spec, ignoring this spec's value.

        >>> from drawdsl import Cards, chances
        >>> chances(draw_any().then(draw()), Cards("ab"))
        Distribution({'a': 1/2, 'b': 1/2})
        """
        return _Bind(self, _Const(_check_spec(other, "then", "other")))

    def where(self, predicate: Callable[[V], bool]) -> Spec[V]:
        """Keep the paths whose value satisfies ``predicate``; the others fail.

        >>> from drawdsl import Cards, chance
        >>> chance(draw().where(lambda c: c == "a"), Cards("aab"))
        Fraction(2, 3)
        """
        if not callable(predicate):
            raise TypeError(f"where: predicate must be callable, got {predicate!r}")
        return _Bind(self, _WhereFn(predicate))

    def or_else(self, other: Spec[W]) -> Spec[V | W]:
        """Use ``other`` on exactly the deals where this spec fails (``a | b`` is the same).

        Both sides read the *same* cards, in step, as game-probability's ``<|>``: on a
        deal where this spec fails (even after drawing cards), the value is what
        ``other`` gives on that deal.  Cards are never put back: whatever follows
        starts after every card that either side has read.

        >>> from drawdsl import Cards, chances, draw_where
        >>> first_a = draw_where(lambda c: c == "a").map(lambda c: "first")
        >>> second_a = draw_any().then(draw_where(lambda c: c == "a")).map(lambda c: "second")
        >>> chances(first_a | second_a, Cards("abb"))
        Distribution({'first': 1/3, 'second': 1/3}, failure=1/3)
        """
        return _OrElse(self, _check_spec(other, "or_else", "other"))

    def __or__(self, other: Spec[W]) -> Spec[V | W]:
        return self.or_else(other)

    def __ror__(self, other: object) -> Spec[Any]:
        raise NotASpec(
            f"or_else: the left side of | must be a spec, got {other!r} ({type(other).__name__}); "
            "wrap a plain value with done(value)"
        )


def _check_spec(obj: object, func: str, arg: str) -> Spec[Any]:
    if isinstance(obj, Spec):
        return obj
    raise NotASpec(
        f"{func}: {arg} must be a spec, got {obj!r} ({type(obj).__name__}); "
        "wrap a plain value with done(value)"
    )


# --------------------------------------------------------------------------- the four forms


class _Fail(Spec[Any]):
    __slots__ = ()

    def __repr__(self) -> str:
        return "fail()"

    def __reduce__(self) -> str:
        return "FAIL"


FAIL: Spec[Any] = _Fail()


class _Done(Spec[T]):
    __slots__ = ("value", "_key", "_hash")

    def __init__(self, value: T) -> None:
        self.value = value
        # The strict key, made on demand: most finished values (the card of draw()
        # inside a bind) are handed on at once and never compared.
        self._hash: int | None = None

    def _keyed(self) -> Any:
        if self._hash is None:
            self._key = _key_or_none(self.value)
            self._hash = hash(self._key) if self._key is not None else id(self)
        return self._key

    def __reduce__(self) -> tuple[Any, ...]:
        return (_Done, (self.value,))  # the strict key is made again (it holds types)

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if type(other) is not _Done:
            return False
        key = self._keyed()
        return key is not None and self._hash == hash(other) and key == other._key

    def __hash__(self) -> int:
        self._keyed()
        return self._hash  # type: ignore[return-value]

    def __repr__(self) -> str:
        return f"done({self.value!r})"


class _Draw(Spec[V]):
    """Look at the next card ``c`` and continue with ``k(c)``.

    ``key`` names the continuation: two draws with equal keys behave the same.  A
    draw without a key is only equal to itself.
    """

    __slots__ = ("k", "key", "_hash")

    def __init__(self, k: Callable[[Card], Spec[V]], key: Hashable | None = None) -> None:
        self.k = k
        self.key = key
        self._hash = hash(key) if key is not None else id(self)

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        return (
            type(other) is _Draw
            and self.key is not None
            and other.key is not None
            and self._hash == other._hash
            and self.key == other.key
        )

    def __hash__(self) -> int:
        return self._hash

    def __repr__(self) -> str:
        if self is _DRAW:
            return "draw()"
        if type(self.key) is tuple and self.key and self.key[0] in ("loop", "cont"):
            return repr(self.key[1])
        return f"draw_one({_describe(self.k)})"


class _Any(Spec[V]):
    """Remove the next card unseen and continue with ``next``."""

    __slots__ = ("next", "_hash")

    def __init__(self, next: Spec[V]) -> None:
        self.next = next
        self._hash = hash(("any", next))

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        return type(other) is _Any and self._hash == other._hash and self.next == other.next

    def __hash__(self) -> int:
        return self._hash

    def __repr__(self) -> str:
        return f"draw_any().then({self.next!r})"


def fail() -> Spec[Any]:
    """The spec that fails: this path does not count (a "bad hand").

    >>> from drawdsl import Cards, chances
    >>> chances(fail(), Cards("ab"))
    Distribution({}, failure=1)
    """
    return FAIL


def done(value: T) -> Spec[T]:
    """The spec that draws nothing and finishes with ``value`` (``pure``/``return``).

    >>> from drawdsl import Cards, chances
    >>> chances(done(7), Cards("ab"))
    Distribution({7: 1})
    """
    return _Done(value)


_DRAW: Spec[Any] = _Draw(_Done, key=("draw",))


def draw() -> Spec[Card]:
    """Draw one card and finish with it.

    >>> from drawdsl import Cards, chances
    >>> chances(draw(), Cards("aab"))
    Distribution({'a': 2/3, 'b': 1/3})
    """
    return _DRAW


def draw_one(k: Callable[[Card], Spec[V]], *, key: Hashable | None = None) -> Spec[V]:
    """Draw one card ``c`` and continue with ``k(c)``.

    Give a hashable ``key`` when you know that two such specs with equal keys behave
    the same: the exact evaluator then merges the paths that reach them.

    >>> from drawdsl import Cards, chances
    >>> chances(draw_one(lambda c: done(c * 2)), Cards("ab"))
    Distribution({'aa': 1/2, 'bb': 1/2})
    """
    if not callable(k):
        raise TypeError(f"draw_one: k must be callable, got {k!r}; pass a function card -> spec")
    if key is not None:
        try:
            hash(key)
        except TypeError:
            raise TypeError(f"draw_one: key must be hashable, got {key!r}") from None
        key = ("draw_one", strict_key(key))
    return _Draw(k, key)


def draw_any(n: int = 1) -> Spec[None]:
    """Remove ``n`` cards without looking at them (cheap: it never branches).

    >>> from drawdsl import Cards, chances
    >>> chances(draw_any(2).then(draw()), Cards("aab"))
    Distribution({'a': 2/3, 'b': 1/3})
    """
    if isinstance(n, bool) or not isinstance(n, int):
        raise TypeError(f"draw_any: n must be an int, got {n!r}")
    if n < 0:
        raise InvalidArgument(f"draw_any: n must be >= 0, got {n}")
    if n > _EAGER_DISCARDS:
        return _Discards(n)  # built lazily: draw_any(10**30) costs nothing until it runs
    spec: Spec[None] = _Done(None)
    for _ in range(n):
        spec = _Any(spec)
    return spec


#: Up to this many discards, draw_any builds its chain of unseen draws at once.
_EAGER_DISCARDS = 64


class _Discards(Spec[None]):
    """``n`` unseen draws, unfolded one at a time (a huge ``n`` never builds a huge chain)."""

    __slots__ = ("n", "_hash")

    def __init__(self, n: int) -> None:
        self.n = n
        self._hash = hash(("discards", n))

    def __eq__(self, other: object) -> bool:
        return self is other or (type(other) is _Discards and self.n == other.n)

    def __hash__(self) -> int:
        return self._hash

    def __repr__(self) -> str:
        return f"draw_any({self.n})"

    def _expand(self, avail: float) -> Spec[Any]:
        # No shortcut when n > avail: under or_else the other side keeps reading the
        # cards this side discards, so the discards must run out card by card.
        rest: Spec[None] = _Discards(self.n - 1) if self.n - 1 > _EAGER_DISCARDS else draw_any(self.n - 1)
        return _Any(rest)


# --------------------------------------------------------------------------- composites


class _Bind(Spec[W]):
    __slots__ = ("m", "f", "_hash")

    def __init__(self, m: Spec[Any], f: Callable[[Any], Spec[W]]) -> None:
        self.m = m
        self.f = f
        self._hash = hash(("bind", m, f))

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        return (
            type(other) is _Bind
            and self._hash == other._hash
            and self.f == other.f
            and self.m == other.m
        )

    def __hash__(self) -> int:
        return self._hash

    def __repr__(self) -> str:
        return f"{self.m!r}.bind({_describe(self.f)})"


class _MapFn:
    """``value -> done(f(value))`` with equality by ``f``, so maps merge."""

    __slots__ = ("f",)

    def __init__(self, f: Callable[[Any], Any]) -> None:
        self.f = f

    def __call__(self, value: Any) -> Spec[Any]:
        return _Done(self.f(value))

    def __eq__(self, other: object) -> bool:
        return type(other) is _MapFn and self.f == other.f

    def __hash__(self) -> int:
        return hash(("map", self.f))

    def _name(self) -> str:
        return f"map({_describe(self.f)})"


class _Const:
    """``value -> spec`` ignoring the value."""

    __slots__ = ("spec",)

    def __init__(self, spec: Spec[Any]) -> None:
        self.spec = spec

    def __call__(self, value: Any) -> Spec[Any]:
        return self.spec

    def __eq__(self, other: object) -> bool:
        return type(other) is _Const and self.spec == other.spec

    def __hash__(self) -> int:
        return hash(("then", self.spec))


class _WhereFn:
    __slots__ = ("predicate",)

    def __init__(self, predicate: Callable[[Any], bool]) -> None:
        self.predicate = predicate

    def __call__(self, value: Any) -> Spec[Any]:
        return _Done(value) if self.predicate(value) else FAIL

    def __eq__(self, other: object) -> bool:
        return type(other) is _WhereFn and self.predicate == other.predicate

    def __hash__(self) -> int:
        return hash(("where", self.predicate))


class _Frames:
    """A persistent stack of bind continuations, innermost first, hash cached."""

    __slots__ = ("f", "rest", "_hash")

    def __init__(self, f: Callable[[Any], Spec[Any]], rest: _Frames | None) -> None:
        self.f = f
        self.rest = rest
        self._hash = hash((f, rest))

    def __eq__(self, other: object) -> bool:
        a: _Frames | None = self
        b: object = other
        while a is not None:
            if a is b:
                return True
            if type(b) is not _Frames or a._hash != b._hash or a.f != b.f:
                return False
            a, b = a.rest, b.rest
        return b is None

    def __hash__(self) -> int:
        return self._hash


def _push_all(inner: _Frames, outer: _Frames | None) -> _Frames:
    """The stack that runs ``inner``'s continuations, then ``outer``'s."""
    if outer is None:
        return inner
    items = []
    node: _Frames | None = inner
    while node is not None:
        items.append(node.f)
        node = node.rest
    stack = outer
    for f in reversed(items):
        stack = _Frames(f, stack)
    return stack


class _Cont(Spec[Any]):
    """A spec followed by a stack of bind continuations (internal)."""

    __slots__ = ("spec", "frames", "_hash")

    def __init__(self, spec: Spec[Any], frames: _Frames) -> None:
        self.spec = spec
        self.frames = frames
        # Hashed on demand: most are unwrapped by whnf at once and never hashed (hashing
        # a generator spec means a strict key of its whole history).
        self._hash: int | None = None

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        return (
            type(other) is _Cont
            and hash(self) == hash(other)
            and self.spec == other.spec
            and self.frames == other.frames
        )

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(("cont", self.spec, self.frames))
        return self._hash


class _ContK:
    """The continuation of a draw under a stack of binds: ``c -> k(c) >>= frames``."""

    __slots__ = ("k", "frames")

    def __init__(self, k: Callable[[Card], Spec[Any]], frames: _Frames) -> None:
        self.k = k
        self.frames = frames

    def __call__(self, card: Card) -> Spec[Any]:
        return _Cont(_spec_or_raise(self.k(card), self.k, "the continuation"), self.frames)

    def _name(self) -> str:
        return _describe(self.k)


def whnf(spec: Spec[Any], avail: float) -> Spec[Any]:
    """Rewrite ``spec`` to one of the four forms, given ``avail`` cards still available.

    A draw (seen or not) with no card available becomes :func:`fail`, so every
    interpreter treats running out of cards the same way.  Runs in a loop, so long
    chains of binds never hit Python's recursion limit.
    """
    frames: _Frames | None = None
    while True:
        t = type(spec)
        if t is _Bind:
            f = spec.f  # type: ignore[attr-defined]
            if type(f) in STEP_TYPES and avail < _NO_LIMIT and fixed_reads(spec) > avail:
                # A replicate or sequence that reads more cards than are left,
                # whatever they are: it reads the rest and fails (one state).
                spec, frames = READ_REST, None
                continue
            frames = _Frames(f, frames)
            spec = spec.m  # type: ignore[attr-defined]
        elif t is _Done:
            if frames is None:
                return spec
            f = frames.f
            frames = frames.rest
            spec = _spec_or_raise(f(spec.value), f, "the function")  # type: ignore[attr-defined]
        elif t is _Draw:
            if avail <= 0:
                return FAIL
            if frames is None:
                return spec
            return _Draw(_ContK(spec.k, frames), ("cont", spec, frames))  # type: ignore[attr-defined]
        elif t is _Any:
            if avail <= 0:
                return FAIL
            if frames is None:
                return spec
            return _Any(_Cont(spec.next, frames))  # type: ignore[attr-defined]
        elif t is _Fail:
            return FAIL
        elif t is _Cont:
            frames = _push_all(spec.frames, frames)  # type: ignore[attr-defined]
            spec = spec.spec  # type: ignore[attr-defined]
        elif isinstance(spec, Spec):
            spec = spec._expand(avail)
        else:
            raise NotASpec(
                f"expected a spec, got {spec!r} ({type(spec).__name__}); "
                "wrap a plain value with done(value)"
            )


# --------------------------------------------------------------------------- or_else


class _OrElse(Spec[Any]):
    """Run ``left`` and ``right`` in lockstep on the same deal; ``right`` where ``left`` fails."""

    __slots__ = ("left", "right", "_hash")

    def __init__(self, left: Spec[Any], right: Spec[Any]) -> None:
        self.left = left
        self.right = right
        self._hash = hash(("or", left, right))

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        return (
            type(other) is _OrElse
            and self._hash == other._hash
            and self.left == other.left
            and self.right == other.right
        )

    def __hash__(self) -> int:
        return self._hash

    def __repr__(self) -> str:
        return f"({self.left!r} | {self.right!r})"

    def _expand(self, avail: float) -> Spec[Any]:
        left = whnf(self.left, avail)
        tl = type(left)
        if tl is _Fail:
            return self.right
        if tl is _Done:
            return left
        right = whnf(self.right, avail)
        tr = type(right)
        if tr is _Fail:
            return left
        if tl is _Any:
            if tr is _Any:
                return _Any(_OrElse(left.next, right.next))  # type: ignore[attr-defined]
            if tr is _Draw:
                return _Draw(_OrK(None, left.next, right.k, None), ("or", left, right))  # type: ignore[attr-defined]
            return _Any(_OrElse(left.next, right))  # type: ignore[attr-defined]
        # left is a seen draw
        if tr is _Any:
            return _Draw(_OrK(left.k, None, None, right.next), ("or", left, right))  # type: ignore[attr-defined]
        if tr is _Draw:
            return _Draw(_OrK(left.k, None, right.k, None), ("or", left, right))  # type: ignore[attr-defined]
        return _Draw(_OrK(left.k, None, None, right), ("or", left, right))  # type: ignore[attr-defined]


class _OrK:
    """After a card: each side either sees it (``*_k``) or had discarded it (``*_next``)."""

    __slots__ = ("left_k", "left_next", "right_k", "right_next")

    def __init__(
        self,
        left_k: Callable[[Card], Spec[Any]] | None,
        left_next: Spec[Any] | None,
        right_k: Callable[[Card], Spec[Any]] | None,
        right_next: Spec[Any] | None,
    ) -> None:
        self.left_k = left_k
        self.left_next = left_next
        self.right_k = right_k
        self.right_next = right_next

    def __call__(self, card: Card) -> Spec[Any]:
        if self.left_k is not None:
            left = _spec_or_raise(self.left_k(card), self.left_k, "the continuation")
        else:
            left = self.left_next  # type: ignore[assignment]
        if self.right_k is not None:
            right = _spec_or_raise(self.right_k(card), self.right_k, "the continuation")
        else:
            right = self.right_next  # type: ignore[assignment]
        return _OrElse(left, right)


# --------------------------------------------------------------------------- loop and keys


class _Loop(Spec[Any]):
    __slots__ = ("state", "step", "_key", "_hash")

    def __init__(self, state: Hashable, step: Callable[[Any, Card], Any]) -> None:
        self.state = state
        self.step = step
        self._key = loop_key(state, step)
        self._hash = hash(("loop", step, self._key))

    def __reduce__(self) -> tuple[Any, ...]:
        return (_Loop, (self.state, self.step))  # the strict key is made again (it holds types)

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        return (
            type(other) is _Loop
            and self._hash == other._hash
            and (self.step is other.step or self.step == other.step)
            and self._key == other._key
        )

    def __hash__(self) -> int:
        return self._hash

    def __repr__(self) -> str:
        return f"loop({self.state!r}, {_describe(self.step)})"

    def _expand(self, avail: float) -> Spec[Any]:
        if type(self.step) in STEP_TYPES and self.step.reads(self.state) > avail:  # type: ignore[attr-defined]
            # It reads every card it needs whatever they are, and fewer are left: it
            # can only read the rest and fail, which one merged state does at once.
            return READ_REST
        return _Draw(_LoopK(self.state, self.step), ("loop", self))


#: The loop step types (the combinators' ``_Step``) that can tell about themselves:
#: ``step.reads(state)``, exactly how many more cards their loop reads before it
#: finishes whatever the cards are (-1 when that depends on the cards);
#: ``f.reads_after()``, the same for the rest of a bind whose function it is
#: (``replicate``, ``sequence``); and
#: ``step.sees()``, the user function through which alone the step looks at a card
#: (None when it looks at the card itself), so that cards it maps to strictly equal
#: values are the same card to it at every state.
STEP_TYPES: set[type] = set()


def _read_rest(state: None, card: Card) -> None:
    """The step of :data:`READ_REST`: look at the card and go on."""
    return None


#: Read every card left, then fail (no card left is a failure).  What ``draw_many(53)``
#: does on 52 cards: it reads them all, then cannot finish.  Being one state, every
#: path into it merges, so the exact evaluator answers at once; and as the cards are
#: still read, ``or_else`` and ``expected_draws`` see what they saw before.
READ_REST: Spec[Any]


class _LoopK:
    __slots__ = ("state", "step")

    def __init__(self, state: Hashable, step: Callable[[Any, Card], Any]) -> None:
        self.state = state
        self.step = step

    def __call__(self, card: Card) -> Spec[Any]:
        result = self.step(self.state, card)
        if isinstance(result, Spec):
            return result
        try:
            return _Loop(result, self.step)  # its strict key checks that the state is hashable
        except TypeError:
            _hashable_state(result, self.step)  # the loop's own error, when that is the cause
            raise

    def _name(self) -> str:
        return _describe(self.step)


READ_REST = _Loop(None, _read_rest)

_NO_LIMIT = float("inf")


def fixed_reads(spec: Spec[Any]) -> int:
    """Exactly how many cards ``spec`` looks at before it finishes, whatever they are,
    or -1 when that depends on the cards (or is not known).

    >>> from drawdsl import draw, draw_many, replicate, draw_until
    >>> fixed_reads(replicate(3, draw_many(2)).map(len)), fixed_reads(draw_until(bool))
    (6, -1)
    """
    total = 0
    while True:
        t = type(spec)
        if t is _Done:
            return total
        if spec is _DRAW:
            return total + 1
        if t is _Loop:
            step = spec.step  # type: ignore[attr-defined]
            if type(step) not in STEP_TYPES:
                return -1
            n: int = step.reads(spec.state)  # type: ignore[attr-defined]
            return -1 if n < 0 else total + n
        if t is not _Bind:
            return -1
        f = spec.f  # type: ignore[attr-defined]
        if type(f) in STEP_TYPES:
            after: int = f.reads_after()
            if after < 0:
                return -1
            total += after
        elif type(f) is not _MapFn:
            return -1
        spec = spec.m  # type: ignore[attr-defined]


def reads_rest(head: Spec[Any]) -> bool:
    """Whether the draw ``head`` (in normal form) is :data:`READ_REST`: it only fails."""
    return type(head) is _Draw and type(head.k) is _LoopK and head.k.step is _read_rest  # type: ignore[attr-defined]


def _hashable_state(state: object, step: object) -> Hashable:
    try:
        hash(state)
    except TypeError:
        raise TypeError(
            f"loop: the state {state!r} ({type(state).__name__}) returned by "
            f"{_describe(step)} is not hashable; use tuples, frozensets or numbers "
            "for loop states (return a spec such as done(value) to stop the loop)"
        ) from None
    return state  # type: ignore[return-value]


def loop(state: Hashable, step: Callable[[Any, Card], Any]) -> Spec[Any]:
    """Draw cards one by one, threading a hashable ``state``.

    ``step(state, card)`` returns either the next state (draw again) or a spec to
    finish with: ``done(value)``, ``fail()``, or any other spec.  Paths that reach the
    same state with the same remaining deck are merged by the exact evaluator, which
    is what makes long processes cheap.  Define ``step`` once (not inside a function
    called per path): the step function is part of the key.

    >>> from drawdsl import Cards, chances
    >>> def count_a(state, card):
    ...     seen, count = state
    ...     count += card == "a"
    ...     return done(count) if seen + 1 == 3 else (seen + 1, count)
    >>> chances(loop((0, 0), count_a), Cards("aabb"))
    Distribution({1: 1/2, 2: 1/2})
    """
    if not callable(step):
        raise TypeError(
            f"loop: step must be callable, got {step!r}; pass a function (state, card) -> state or spec"
        )
    try:
        hash(state)
    except TypeError:
        raise TypeError(
            f"loop: the initial state {state!r} ({type(state).__name__}) is not hashable; "
            "use tuples, frozensets or numbers for loop states"
        ) from None
    return _Loop(state, step)


class _Keyed(Spec[Any]):
    __slots__ = ("key", "thunk", "_key", "_hash")

    def __init__(self, key: Hashable, thunk: Callable[[], Spec[Any]]) -> None:
        self.key = key
        self.thunk = thunk
        self._key = strict_key(key)
        self._hash = hash(("keyed", self._key))

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        return type(other) is _Keyed and self._hash == other._hash and self._key == other._key

    def __hash__(self) -> int:
        return self._hash

    def __repr__(self) -> str:
        return f"keyed({self.key!r}, {_describe(self.thunk)})"

    def _expand(self, avail: float) -> Spec[Any]:
        head = whnf(_spec_or_raise(self.thunk(), self.thunk, "keyed: the thunk"), avail)
        if type(head) is _Draw:
            return _Draw(head.k, ("keyed", self._key))  # type: ignore[attr-defined]
        if type(head) is _Any:
            rest = head.next  # type: ignore[attr-defined]
            return _Any(_Keyed(("after draw_any", self.key), lambda: rest))
        return head


def keyed(key: Hashable, make: Callable[[], Spec[V]]) -> Spec[V]:
    """The spec ``make()``, named by ``key``: you promise equal keys mean equal specs.

    Use it for recursive specs written as functions, so that the exact evaluator can
    merge paths: ``keyed(("until", n), lambda: until(n))``.

    >>> from drawdsl import Cards, chances
    >>> def hits(n):
    ...     if n == 0:
    ...         return done(0)
    ...     return keyed(("hits", n), lambda: draw().bind(
    ...         lambda c: hits(n - 1).map(lambda h: h + (c == "a"))))
    >>> chances(hits(2), Cards("aab"))
    Distribution({1: 2/3, 2: 1/3})
    """
    try:
        hash(key)
    except TypeError:
        raise TypeError(f"keyed: key must be hashable, got {key!r}") from None
    if not callable(make):
        raise TypeError(f"keyed: make must be a function of no arguments returning a spec, got {make!r}")
    return _Keyed(key, make)


# --------------------------------------------------------------------------- generator syntax


_UNKEYED = object()


class _Gen(Spec[Any]):
    """A generator-syntax spec, resumed by replaying the values sent so far."""

    __slots__ = ("func", "args", "kwargs", "history", "live", "_key", "_hash", "given")

    def __init__(
        self,
        func: Callable[..., Generator[Spec[Any], Any, Any]],
        args: tuple[Any, ...],
        kwargs: tuple[tuple[str, Any], ...],
        history: tuple[Any, ...],
        live: list[Generator[Spec[Any], Any, Any]] | None = None,
        given: tuple[Any, ...] | None = None,
    ) -> None:
        self.func = func
        self.args = args
        self.kwargs = kwargs
        self.history = history
        # A one-element box holding the generator already positioned at ``history``
        # (handed over once, then replay takes over).
        self.live = live
        # The strict key of the whole history, made on demand: resuming a generator
        # never needs it, only comparing two generator specs does.
        self._key: Any = _UNKEYED
        self._hash = 0
        # What the generator is handed (see _given), when made already by the spec it
        # resumes.
        self.given = given

    def _keyed(self) -> Any:
        if self._key is _UNKEYED:
            self._key = _key_or_none((self.func, self.args, self.kwargs, self.history))
            self._hash = hash(self._key) if self._key is not None else id(self)
        return self._key

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if type(other) is not _Gen:
            return False
        key = self._keyed()
        return key is not None and hash(self) == hash(other) and key == other._keyed()

    def __hash__(self) -> int:
        self._keyed()
        return self._hash

    def __repr__(self) -> str:
        return f"{_describe(self.func)}{self.args!r}"

    def _given(self) -> tuple[Any, ...]:
        """What the generator is handed: its arguments and its function's defaults."""
        if self.given is not None:
            return self.given
        func = self.func
        given = (*self.args, *(value for _, value in self.kwargs))
        defaults = getattr(func, "__defaults__", None)
        kwdefaults = getattr(func, "__kwdefaults__", None)
        if defaults:
            given += tuple(defaults)
        if kwdefaults:
            given += tuple(kwdefaults.values())
        if type(func) is not types.FunctionType:
            given += (func,)  # a callable object, a partial: what it holds is handed over too
        return given

    def _start(self) -> Generator[Spec[Any], Any, Any]:
        gen = self.func(*self.args, **dict(self.kwargs)) if self.kwargs else self.func(*self.args)
        if type(gen) is not types.GeneratorType and not isinstance(gen, Generator):
            raise TypeError(
                f"generate: {_describe(self.func)} returned {gen!r}, not a generator; "
                "decorate a function that uses `card = yield draw()` and `return value`"
            )
        return gen

    def _expand(self, avail: float) -> Spec[Any]:
        box = self.live
        gen = box.pop() if box else None
        try:
            if gen is not None:
                yielded = gen.send(self.history[-1])
            else:
                gen = self._start()
                yielded = gen.send(None)
                for value in self.history:
                    yielded = gen.send(value)
        except StopIteration as stop:
            return _Done(stop.value)
        if not isinstance(yielded, Spec):
            raise NotASpec(
                f"generate: {_describe(self.func)} yielded {yielded!r} "
                f"({type(yielded).__name__}) after {len(self.history)} value(s); "
                "yield a spec such as draw(), and use `return value` to finish"
            )
        state = frame_key(gen, self._given()) if FRAME_KEYS else None
        frame = gen.gi_frame  # type: ignore[attr-defined]
        return _Bind(yielded, _Resume(self, [gen], state, (frame.f_code, frame.f_lasti)))


class _Resume:
    """Send a value into the generator: hands the live generator to the first caller.

    ``state`` is the suspended generator's frame state (:func:`drawdsl.frames.frame_key`)
    when this interpreter allows it: two resumptions of the same function in equal
    states behave the same, whatever their histories, so they compare equal (and
    their paths merge).  Otherwise resumptions are equal only with equal histories.
    """

    __slots__ = ("gen_spec", "box", "state", "where", "_hash")

    def __init__(
        self, gen_spec: _Gen, box: list[Generator[Spec[Any], Any, Any]], state: Any = None,
        where: tuple[types.CodeType, int] | None = None,
    ) -> None:
        self.gen_spec = gen_spec
        self.box = box
        self.state = state
        # Where the generator is suspended (its code and offset): what
        # drawdsl.sent_views reads to skip a lumped class's replays.
        self.where = where
        if state is not None:
            try:
                self._hash = hash(("resume", gen_spec.func, state))
            except TypeError:
                self.state = None
        if self.state is None:
            self._hash = hash(("resume", gen_spec))

    def __call__(self, value: Any) -> Spec[Any]:
        g = self.gen_spec
        box = [self.box.pop()] if self.box else None
        # The resumptions share what the generator is handed, made once per evaluation
        # (not kept on the spec the user holds, whose function's defaults may change).
        return _Gen(g.func, g.args, g.kwargs, g.history + (value,), box, g._given())

    def __eq__(self, other: object) -> bool:
        if type(other) is not _Resume:
            return False
        if self.state is not None and other.state is not None:
            return (
                self._hash == other._hash
                and self.gen_spec.func is other.gen_spec.func
                and self.state == other.state
            )
        return self.state is None and other.state is None and self.gen_spec == other.gen_spec

    def __hash__(self) -> int:
        return self._hash

    def _name(self) -> str:
        return _describe(self.gen_spec.func)


def generator_functions(spec: Spec[Any], limit: int = 100) -> list[Callable[..., Any]]:
    """The ``@generate`` functions found in ``spec`` and the specs it holds (not behind a
    continuation, which is only known once called), first found first, each once.

    >>> from drawdsl import draw, generate
    >>> @generate
    ... def hand():
    ...     card = yield draw()
    ...     return card
    >>> [f.__name__ for f in generator_functions(hand().map(str))]
    ['hand']
    """
    found: list[Callable[..., Any]] = []
    stack: list[Any] = [spec]
    seen = 0
    while stack and seen < limit:
        node = stack.pop()
        seen += 1
        if type(node) is _Gen:
            if node.func not in found:
                found.append(node.func)
            continue
        for slot in getattr(type(node), "__slots__", ()):
            part = getattr(node, slot, None)
            if isinstance(part, Spec):
                stack.append(part)
    return found
