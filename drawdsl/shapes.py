"""Symmetric evaluation over *shapes*: decks kept as counts of counts.

Once :func:`~drawdsl.reductions.prove_symmetry` has shown that a spec cannot see
renamings of the cards, a deck matters only up to a renaming of the cards the spec
does not hold.  :mod:`drawdsl.exact` keeps such a deck as a sorted tuple of one count
per card; here it is its *shape*: the counts of the cards the spec holds (its
*pinned* cards, in the order of their indices), then how many of the other (*free*)
cards have 1, 2, ..., ``top`` copies left.  On War's 52 ranks of 4 that is about 5
numbers instead of 52, packed into one int (:class:`Packing`), and a child's shape is
a few integer operations on its parent's, without sorting.

A free class (the free cards with ``k`` copies left) is drawn once, weighted by
``k`` times its size, and always as the same card: the first free card (the lowest
index the spec does not hold), which the proven symmetry allows (any other card of
the class leads to the renamed future).  So a spec is asked once per draw, spec and
card, as in :mod:`drawdsl.exact`.

Proven symmetry also means a spec can only come to hold cards it held or just drew.
When a spec does hold another card (a state keeping a set of cards it never drew, all
alike), the shape cannot say which card that is: :class:`Unshaped` is raised and the
caller evaluates with per-card counts instead.

>>> from drawdsl import Cards, done, fail, loop
>>> def no_pair(last, card):
...     return fail() if card == last else (done(True) if last is not None else card)
>>> evaluate_shapes(loop(None, no_pair), Cards("aabbcc"), 100, 6)
Distribution({True: 4/5}, failure=1/5)
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import partial
from typing import Any, NoReturn

from drawdsl.atoms import Tracer, Untraced
from drawdsl.cards import Cards
from drawdsl.distribution import Distribution
from drawdsl.errors import StateLimitExceeded
from drawdsl.keys import strict_key
from drawdsl.outcomes import Outcomes, record, still_drawing
from drawdsl.probes import show
from drawdsl.reductions import CardIndex, _CannotRename, head_support, normal, rename_spec
from drawdsl.renaming_blind import rename_state
from drawdsl.spec import (
    Spec,
    _Done,
    _Draw,
    _Frames,
    _Loop,
    _MapFn,
    _Resume,
    _spec_or_raise,
    _WhereFn,
    reads_rest,
)

__all__ = ["Unshaped", "evaluate_shapes"]


class Unshaped(Exception):
    """A spec came to hold a card it neither held nor drew: its decks have no shape."""


class _Head:
    """A draw at the head of some states, with its pinned cards and its first free card."""

    __slots__ = (
        "draw", "pins", "where", "first_free", "verified", "groups", "positions", "offsets", "plan", "early",
        "canon",
    )

    def __init__(self, draw: _Draw[Any], size: int, pack: Packing, index: CardIndex, grouped: bool) -> None:
        top = pack.top
        self.draw = draw
        held, groups = _held(draw, index) if grouped else (head_support(draw, index), [])
        self.pins = pins = tuple(sorted(held))
        #: Card index -> its position in the shape.
        self.where = {card: i for i, card in enumerate(pins)}
        self.first_free = next((i for i in range(size) if i not in held), -1)
        #: The pinned cards whose draw a traced run has shown equivariant, with the cards
        #: then available (see _covered).
        self.verified: list[tuple[int, int]] = []
        #: Positions of pinned cards the state holds interchangeably (see _held),
        #: drawn as one while their draw ends the path; the other positions, drawn one by one.
        self.groups = [tuple(map(self.where.__getitem__, group)) for group in groups]
        together = {i for group in self.groups for i in group}
        self.positions = tuple(i for i in range(len(pins) + top) if i not in together)
        #: Each position's bit offset in the packed shape (see Packing).
        w = pack.width
        self.offsets = (*range(w * top, w * (top + len(pins)), w), *range(0, w * top, w))
        self.plan: tuple[tuple[int, int, int], ...] = ()
        self._plan()
        #: Moves made a draw early (by a pair plan, for its states without pending
        #: discards), by row, with the child head and its pending discards when they go
        #: on: the next draw's inner loop starts from them.
        self.early: dict[int, tuple[tuple[int, Any, Any, Any], int, int, int]] = {}
        #: The id of the head whose states this head's are, renamed (see evaluate_shapes's
        #: ``state_kind``); None: not looked at yet.
        self.canon: int | None = None

    def _plan(self) -> None:
        """The draws of the pinned positions drawn one by one, for the inner loop: (bit
        offset, the row of its transition, the card drawn).  The free classes are drawn
        by the inner loop from the shape's free digits, up to the last nonzero one."""
        p, offsets, pins = len(self.pins), self.offsets, self.pins
        self.plan = tuple((offsets[i], i, pins[i]) for i in self.positions if i < p)

    def ungroup(self, group: tuple[int, ...]) -> None:
        """Draw the pinned cards of ``group`` one by one from now on."""
        self.groups.remove(group)
        self.positions = tuple(sorted(self.positions + group))
        self._plan()


def _held(draw: _Draw[Any], index: CardIndex) -> tuple[set[int], list[list[int]]]:
    """The cards ``draw`` holds (:func:`~drawdsl.reductions.head_support`) and, in a
    loop's state, the groups of them it holds interchangeably: any permutation of a
    group leaves the state as it is (:meth:`~drawdsl.reductions.CardIndex.held`).

    For such cards ``c`` and ``d``, drawing ``d`` at the state ``s`` is drawing ``g c`` at
    ``g s`` for the swap ``g`` of the two, so a spec blind to renamings does there what
    it does with ``c``, renamed by ``g``.  When that ends the path (a finished value,
    which holds no card under a proven symmetry, or a failure), it is the same for
    every card of the group: one transition, weighted by the group's copies left.
    Until a rank repeats, a state holding ``k`` ranks then costs two transitions, not
    ``k + 1``.

    ``g s`` equals ``s`` as a set, but its table may list the members in another order,
    which code iterating the set could see (the evaluator keeps such states apart).  So
    this is used only where the step's bytecode is proven blind to renamings
    (:mod:`drawdsl.renaming_blind`), which refuses any iteration of a set of cards; not
    where a traced run or the state graph shows the symmetry, which compare states by
    their order too.
    """
    key = draw.key
    if type(key) is tuple and len(key) == 2 and key[0] == "loop" and type(key[1]) is _Loop:
        return index.held(key[1].state)
    held = head_support(draw, index)
    resume = _resumed(draw)
    if resume is None:
        return held, []
    groups = [[i for i in group if i in held] for group in index.frame_groups(resume.state)]
    return held, [group for group in groups if len(group) > 1]


def _resumed(draw: _Draw[Any]) -> _Resume | None:
    """The one suspended generator ``draw`` continues into, when it holds no card
    elsewhere and the generator's state is keyed by its frame (so states are equal by
    what the frame holds, not by history): the generator case of :func:`_held`.

    The grouping argument holds there as for a loop state.  The frame of a generator
    proven blind to renamings, resumed after the renamed history ``g h``, holds ``g``
    of what it holds after ``h``; when ``g`` permutes cards kept only as items of one
    set the code never iterates, that is the same frame key, so the two resumptions
    merge: they are the same state.
    """
    key = draw.key
    if type(key) is not tuple or len(key) != 3 or key[0] != "cont" or type(key[1]) is not _Draw:
        return None
    if key[1].key != ("draw",):
        return None  # the generator waits for a spec other than draw(), which may hold cards
    found: _Resume | None = None
    frames: _Frames | None = key[2]
    while frames is not None:
        f = frames.f
        if type(f) is _Resume:
            if found is not None:
                return None  # two generators: the other's history holds cards too
            found = f
        elif type(f) not in (_MapFn, _WhereFn):
            return None  # (the proof allows only these after a generator: they see its value)
        frames = frames.rest
    return found if found is not None and found.state is not None else None


#: Pinned cards whose draw was shown equivariant that :func:`_covered` tries a swap with.
_SWAPS_TRIED = 3


def _covered(parent: _Head, drawn: int, avail: int, index: CardIndex, size: int) -> bool:
    """Whether the traced run of another pinned card of ``parent`` already shows the spec
    equivariant where it draws the pinned card ``drawn``.

    A traced run at a state ``s`` and card ``c`` shows the spec equivariant on the whole
    orbit of ``(s, c)``: at every ``(g s, g c)`` for every renaming ``g``
    (:mod:`drawdsl.atoms`).  When swapping ``c`` and ``drawn`` leaves the state as it is
    (a loop state that keeps both in a set, ``g s == s`` as merging compares states),
    ``(s, drawn)`` is ``(g s, g c)``: in that orbit.  So a state holding a set of ``k``
    cards is traced once for them, not ``k`` times.  Only loop states are compared, and
    runs with as many cards available (``avail``: the discards a continuation makes, and
    whether it can read the rest, depend on it).
    """
    if drawn not in parent.where or not parent.verified:
        return False
    key = parent.draw.key
    if type(key) is not tuple or len(key) != 2 or key[0] != "loop" or type(key[1]) is not _Loop:
        return False
    state = key[1]
    for other in [card for card, then in parent.verified if then == avail][:_SWAPS_TRIED]:
        perm = list(range(size))
        perm[drawn], perm[other] = other, drawn
        try:
            if rename_spec(state, index, perm) == state:
                return True
        except _CannotRename:
            return False  # (two of its values would become one): the card's own run decides
    return False


# What a draw does to the shapes of a spec's states (the same for every state of it):
# the path ends (_DONE with the value, _FAILS, _REST: it reads ``how`` more cards and
# fails), or goes on into ``group`` with a child shape made by a _build function.
_DONE, _FAILS, _REST, _ON = 0, 1, 2, 3


class Packing:
    """Shapes packed into one int, ``width`` bits a count: the free classes' counts of
    counts first (how many free cards have ``k`` copies left, at digit ``k - 1``), then
    the pinned cards' counts (pinned position ``q`` at digit ``top + q``).  A child's
    shape is then a few integer operations on its parent's, and a dict key that hashes
    at once (a tuple was sliced, concatenated and hashed item by item).

    >>> pack = Packing(top=3, most=5)
    >>> x = pack.pack((2, 0), (0, 1, 4))
    >>> pack.unpack(x, 2)
    (2, 0, 0, 1, 4)
    """

    __slots__ = ("top", "width", "mask", "drawn_free", "lost", "joins")

    def __init__(self, top: int, most: int) -> None:
        #: The most copies a card has.
        self.top = top
        #: Bits a count takes: room for ``most``, the largest count a digit holds.
        self.width = w = max(most, top, 1).bit_length()
        self.mask = (1 << w) - 1
        ks = range(1, top + 1)
        #: By k: a free card of class k drawn and not kept (class k loses it, k - 1 gains it).
        self.drawn_free = [0] + [-(1 << w * (k - 1)) + ((1 << w * (k - 2)) if k > 1 else 0) for k in ks]
        #: By k: a free card of class k drawn and kept (class k loses it: it is pinned now).
        self.lost = [0] + [-(1 << w * (k - 1)) for k in ks]
        #: By c: a pinned card let go with c copies left joins free class c.
        self.joins = [0] + [1 << w * (c - 1) for c in ks]

    def pack(self, pinned: tuple[int, ...], free: tuple[int, ...]) -> int:
        """The shape with these pinned counts and counts of counts (``len(free) == top``)."""
        w, x = self.width, 0
        for q, count in enumerate(free):
            x |= count << (w * q)
        for q, count in enumerate(pinned):
            x |= count << (w * (self.top + q))
        return x

    def unpack(self, x: int, p: int) -> tuple[int, ...]:
        """The shape as a tuple: its ``p`` pinned counts, then its counts of counts."""
        w, m = self.width, self.mask
        return tuple((x >> (w * (self.top + q))) & m for q in range(p)) + tuple(
            (x >> (w * q)) & m for q in range(self.top)
        )


#: How a draw makes a child's shape: ``F(shape) + G[k]`` (``F`` None: the shape itself).
Build = tuple[Callable[[int], int] | None, list[int]]


def child_shape(build: Build, shape: int, k: int) -> int:
    """The child shape ``build`` makes of ``shape`` when a card of free class ``k`` (0: a
    pinned card) is drawn (the inner loop does this inline, ``F`` once per state)."""
    f, g = build
    return (shape if f is None else f(shape)) + g[k]


def _build(released: tuple[int, ...], drawn: int, insert_at: int, p: int, pack: Packing) -> Build:
    """How a child's shape is made from its parent's (``p`` pinned cards), given the
    parent's shape and ``k``, the count of the free class drawn (0: a pinned card was
    drawn, at parent position ``drawn``; else ``drawn`` is -1).

    The child pins the parent's pinned cards but the ``released`` ones (parent
    positions; they join the free classes of their counts), plus the free card just
    drawn when ``insert_at >= 0`` (its child position).  Both keep their pinned cards in
    index order, so the cards kept stay in order.

    It is ``F(shape) + G[k]``: what ``k`` changes (a free class's count, and the count
    of the card kept) is a number added to the rest, which never borrows from another
    digit.  So the inner loop calls ``F`` once per state for all its free classes (they
    share a transition: the first free card's), and adds.  The common cases get their
    own ``F``, a few integer operations on the packed shape (this is the inner loop).

    >>> pack = Packing(top=3, most=9)
    >>> parent = pack.pack((2,), (0, 3, 0))  # one pinned card with 2 left; 3 free cards with 2
    >>> kept = _build((), -1, 0, 1, pack)  # a free card drawn and pinned
    >>> pack.unpack(child_shape(kept, parent, 2), 2)
    (1, 2, 0, 2, 0)
    >>> let_go = _build((0,), -1, -1, 1, pack)  # a free card drawn, the pinned one let go
    >>> pack.unpack(child_shape(let_go, parent, 2), 0)
    (1, 3, 0)
    """
    w, top, mask = pack.width, pack.top, pack.mask
    keep = insert_at >= 0
    drawn_free, lost, joins = pack.drawn_free, pack.lost, pack.joins
    into = w * (top + insert_at)  # where a kept card's count goes (when keep)
    if drawn >= 0:
        g = [-(1 << w * (top + drawn))] * (top + 1)  # (only k = 0 is drawn)
    elif keep:
        g = [lost[k] + (((k - 1) << into) if k else 0) for k in range(top + 1)]
    else:
        g = drawn_free
    if not released and not keep:
        return None, g  # a card drawn, pinned or free: the shape gains g[k]
    if not released:
        # Kept at child position insert_at: the pinned cards from there move up.
        below = (1 << into) - 1

        def make_room(shape: int) -> int:
            return (shape & below) + ((shape >> into) << (into + w))
        return make_room, g
    if len(released) == 1 and drawn < 0:
        # The pinned card at position r, with c left, joins free class c; those above move down.
        cut = w * (top + released[0])
        below = (1 << cut) - 1
        if not keep:
            def let_go(shape: int) -> int:
                return (shape & below) + joins[(shape >> cut) & mask] + ((shape >> (cut + w)) << cut)
            return let_go, g
        below_into = (1 << into) - 1

        def let_go_make_room(shape: int) -> int:
            # The last card kept in place of another (no two adjacent ranks).
            rest = (shape & below) + joins[(shape >> cut) & mask] + ((shape >> (cut + w)) << cut)
            return (rest & below_into) + ((rest >> into) << (into + w))
        return let_go_make_room, g
    cuts = [w * (top + r) for r in released]
    gone = [w * (top + r) for r in sorted(released, reverse=True)]
    minus = -(1 << w * (top + drawn)) if drawn >= 0 else 0

    def general(shape: int) -> int:
        shape += minus  # a pinned card drawn (then g[0] is 0)
        for cut in cuts:
            shape += joins[(shape >> cut) & mask]  # (a pinned count: free classes are below)
        for cut in gone:
            shape = (shape & ((1 << cut) - 1)) + ((shape >> (cut + w)) << cut)
        if keep:
            shape = (shape & ((1 << into) - 1)) + ((shape >> into) << (into + w))
        return shape
    if drawn >= 0:
        g = [0] * (top + 1)
    return general, g


def _classes(free: int, pack: Packing) -> tuple[list[tuple[int, int]], int]:
    """The nonzero free classes of a shape whose free digits are ``free``: ``(k, k
    times the cards with k copies left)`` by ``k``, and the free cards in all.

    >>> pack = Packing(4, 13)
    >>> _classes(pack.pack((), (0, 3, 0, 10)), pack)
    ([(2, 6), (4, 40)], 46)
    """
    w, mask = pack.width, pack.mask
    classes = []
    total = 0
    k = 1
    while free:
        count = free & mask
        if count:
            classes.append((k, count * k))
            total += count * k
        free >>= w
        k += 1
    return classes, total


class _Pair:
    """Two free draws taken as one unordered pair: the plan of a head ``H0`` whose free
    move leads to a head ``H1`` pinning exactly ``H0``'s cards and the card drawn,
    ``x``, whose free move leads to a head ``H2`` pinning neither ``x`` nor that
    second card ``y`` (War's turn: A's card is kept until B's is drawn, then both go).

    Both moves are made once per head, for all free classes (the drawn card is the
    first free one, see :mod:`drawdsl.shapes`), so drawing ``x`` from the class of
    count ``i`` and then ``y`` from the class of count ``j`` reaches ``H2``, and its
    shape is the counts of counts of the deck left, with ``H2``'s pins: the deck
    without ``x`` and ``y`` is the same in either order, so ``(i, j)`` and ``(j, i)``
    reach the same state.  Their weights are equal too: ``H1`` pins ``x``, so its
    class ``j`` still has ``c_j`` cards when ``j != i`` (``c_i - 1`` when it is ``i``).
    So each unordered pair of classes is drawn once, twice weighted when ``i != j``,
    straight into the frontier after the next draw.  A second draw of ``H1``'s pinned
    cards (``x``'s rank again, or ``H0``'s pins) is made one by one, as usual.

    Where ``H1`` released a pin of ``H0`` the pairing would be wrong (the released
    card is free in ``H1``, not in ``H0``), and where ``H2`` pins ``x`` or ``y`` the two
    orders give different shapes: no plan then, the draws are made one at a time.
    """

    __slots__ = ("f", "g", "pinned", "into", "f2", "g2", "then", "kept", "fails")

    def __init__(
        self, parent: _Head, final: _Head, pack: Packing,
        f: Callable[[int], int] | None, g: list[int],
        pinned: list[tuple[int, tuple[int, Any, Any, Any]]],
        into: dict[int, int], f2: Callable[[int], int] | None, g2: list[int],
    ) -> None:
        self.f, self.g = f, g  # H0's free move: H1's shape is f(shape) + g[i]
        self.pinned = pinned  # H1's pinned positions: (bit offset, move)
        self.into = into  # H2's states after the pair (no pending discards)
        self.f2, self.g2 = f2, g2  # H1's free move: H2's shape is f2(shape) + g2[j]
        #: When H2 pins what H0 pins, in the same positions, f2(f(shape) + g[i]) is the
        #: shape with one free card of count i drawn (x is free again, with i - 1 left):
        #: shape + drawn_free[i], and H2's shape is shape + then[i][j].  None: made by
        #: f, g and f2.
        ks = range(pack.top + 1)
        self.then = (
            [[pack.drawn_free[i] + g2[j] for j in ks] for i in ks] if final.pins == parent.pins else None
        )
        #: H0's pins' bit offsets: their counts in H1 are those in H0 (H1 pins them all).
        self.kept = parent.offsets[: len(parent.pins)]
        #: Whether every second draw of a pinned card fails (x's rank again, in War).
        self.fails = all(move[0] == _FAILS for _, move in pinned)

    def draw(
        self, shape: int, weight: int, classes: list[tuple[int, int]], pack: Packing, counted: list[int],
        end: dict[Any, list[Any]], outcomes: Outcomes, depth: int, left: int,
        max_states: int, over: Callable[[int], NoReturn],
    ) -> int:
        """Draw the free classes of a state of ``H0`` (``shape``, ``weight`` paths;
        ``classes``: its free classes as :func:`_classes` lists them) as the pair's
        first card, at ``depth - 1``, and the card after it, at ``depth`` (``left``
        cards left then, ``end`` its outcomes); the states after both go to ``into``
        (``counted[0]``: how many there are).  Returns the weight that failed at
        ``depth``."""
        mask = pack.mask
        into, then = self.into, self.then
        get = into.get
        size = len(into)
        live = counted[0]
        failed = 0
        if self.fails:
            held = sum([(shape >> offset) & mask for offset in self.kept]) if self.kept else 0
        base = -1
        for at, (i, ways) in enumerate(classes):
            paths = weight * ways  # x from a class of i copies
            if self.fails:
                failed += paths * (i - 1 + held)  # then x's rank again (i - 1 left) or a pin
            else:
                if base < 0:
                    base = self.f(shape) if self.f is not None else shape
                added, lost = self._pinned(
                    base + self.g[i], paths, mask, end, outcomes, depth, left, max_states, over,
                    live + len(into) - size,
                )
                live += added
                failed += lost
            if then is not None:
                second, sums = shape, then[i]
            else:
                if base < 0:
                    base = self.f(shape) if self.f is not None else shape
                middle = base + self.g[i]
                second, sums = self.f2(middle) if self.f2 is not None else middle, self.g2
            if ways > i:  # another card of count i (x's rank is pinned in H1: one card less)
                child = second + sums[i]
                into[child] = get(child, 0) + paths * (ways - i)
            paths *= 2  # (i, j) and (j, i): the same state
            for j, ways_j in classes[at + 1:]:
                child = second + sums[j]
                into[child] = get(child, 0) + paths * ways_j
        if len(into) - size + live > max_states:
            over(len(into) - size + live)
        counted[0] = live + len(into) - size
        return failed

    def draw_all(
        self, states: dict[int, int], low: int, pack: Packing, counted: list[int],
        end: dict[Any, list[Any]], outcomes: Outcomes, depth: int, left: int, max_states: int,
        over: Callable[[int], NoReturn],
    ) -> int:
        """:meth:`draw` for every state of ``H0`` (``states``: shape -> paths), which
        pins no card (``low`` masks the free digits).  Returns the weight that failed at
        ``depth``."""
        failed = 0
        if not (self.fails and self.then is not None):
            for shape, weight in states.items():
                loose = shape & low
                if loose:
                    failed += self.draw(
                        shape, weight, _classes(loose, pack)[0], pack, counted, end, outcomes, depth, left,
                        max_states, over,
                    )
            return failed
        # War's turn, inline: x's rank again fails, and H2's shape is shape + then[i][j].
        into, then = self.into, self.then
        get = into.get
        size, live = len(into), counted[0]
        w, mask = pack.width, pack.mask
        for shape, weight in states.items():
            loose = shape & low
            classes = []  # (k, k times the cards with k left), as _classes makes them
            k = 1
            while loose:
                count = loose & mask
                if count:
                    classes.append((k, count * k))
                loose >>= w
                k += 1
            for at, (i, ways) in enumerate(classes):
                paths = weight * ways  # x from a class of i copies
                failed += paths * (i - 1)  # then x's rank again
                sums = then[i]
                if ways > i:  # another card of count i (x's rank is pinned in H1: one card less)
                    child = shape + sums[i]
                    into[child] = get(child, 0) + paths * (ways - i)
                paths *= 2  # (i, j) and (j, i): the same state
                for j, ways_j in classes[at + 1:]:
                    child = shape + sums[j]
                    into[child] = get(child, 0) + paths * ways_j
            if len(into) - size + live > max_states:
                over(len(into) - size + live)
        counted[0] = live + len(into) - size
        return failed

    def _pinned(
        self, middle: int, paths: int, mask: int, end: dict[Any, list[Any]], outcomes: Outcomes,
        depth: int, left: int, max_states: int, over: Callable[[int], NoReturn], live: int,
    ) -> tuple[int, int]:
        """Draw ``H1``'s pinned cards second, at its state ``middle`` reached by
        ``paths`` (``live`` states ahead so far); returns the new states and the weight
        that failed."""
        added = failed = 0
        for offset, (rule, group, how, add) in self.pinned:
            count = (middle >> offset) & mask
            if not count:
                continue
            if rule == _ON:
                child = (how(middle) if how is not None else middle) + add[0]
                old = group.get(child)
                if old is None:
                    if group is not self.into:  # (the pairs' own states are counted by draw)
                        added += 1
                        if live + added > max_states:
                            over(live + added)
                    group[child] = paths * count
                else:
                    group[child] = old + paths * count
            elif rule == _DONE:
                record(how, paths * count, end)
            elif rule == _FAILS:
                failed += paths * count
            else:  # _REST: it fails after reading `how` more cards
                deeper = depth + how
                outcomes.at(deeper)[1][deeper] += paths * count * math.perm(left, how)
        return added, failed


def _over(
    live: int, depth: int, max_states: int, heads: list[Any],
    too_many: Callable[[int, int, list[Any]], NoReturn] | None,
) -> NoReturn:
    """Raise for ``live`` states at ``depth``, past ``max_states``."""
    if too_many is None:
        raise StateLimitExceeded(
            f"exact evaluation reached {live} live states at draw {depth}, over max_states={max_states}"
        )
    too_many(live, depth, heads)


def _draw_groups(
    parent: _Head, shape: int, weight: int, row: list[tuple[int, Any, Any, Any] | None],
    end: dict[Any, list[Any]], outcomes: Outcomes, depth: int, left: int,
    transition: Callable[[int], tuple[int, Any, Any, Any]], mask: int,
) -> int:
    """Draw each group of interchangeable pinned cards of ``parent`` (see
    :func:`_held`) at one of its states as one card, when that ends the path;
    a group whose draw goes on is drawn one by one from now on (:meth:`_Head.ungroup`).
    Returns the weight that failed."""
    failed = 0
    for group in tuple(parent.groups):
        offsets = parent.offsets
        total, at = 0, -1
        for i in group:
            count = (shape >> offsets[i]) & mask
            if count:
                total += count
                if at < 0:
                    at = i
        if not total:
            continue
        move = row[at]
        if move is None:
            move = row[at] = transition(parent.pins[at])
        rule, _, how, _ = move
        if rule == _ON:
            parent.ungroup(group)  # its cards are drawn one by one, with the other positions
        elif rule == _DONE:
            record(how, weight * total, end)
        elif rule == _FAILS:
            failed += weight * total
        else:  # _REST: it fails after reading `how` more cards
            deeper = depth + how
            outcomes.at(deeper)[1][deeper] += weight * total * math.perm(left, how)
    return failed


def evaluate_shapes(
    spec: Spec[Any],
    deck: Cards[Any],
    max_states: int,
    max_draws: int,
    report: Callable[[int, int], None] | None = None,
    trace: list[tuple[int, int, int]] | None = None,
    too_many: Callable[[int, int, list[Any]], NoReturn] | None = None,
    annotate: Callable[[Exception, int, Any], None] | None = None,
    traced: bool = False,
    grouped: bool = False,
    paired: bool = True,
    state_kind: Any = None,
) -> Distribution[Any]:
    """Depth-by-depth evaluation over shapes, for a spec proven blind to renamings.

    The frontier maps ``(head id, pending discards) -> {shape: numerator}``, as in
    :mod:`drawdsl.exact`; ``too_many(live, depth, heads)`` raises when the live states
    pass ``max_states``, ``annotate(err, depth, card)`` notes where an error came
    from.  Raises :class:`Unshaped` when a spec holds a card it neither held nor drew.
    When ``traced``, the symmetry is not proven yet: every transition is checked by a
    traced run (:class:`~drawdsl.atoms.Tracer`), which raises
    :class:`~drawdsl.atoms.Untraced` when it does not show it.  When ``grouped`` (the
    symmetry shown by the step's bytecode, which never sees a set's order), the pinned
    cards a loop state holds interchangeably are drawn as one where that ends the path
    (see :func:`_held`).  When ``paired``, a free draw that pins the card drawn until
    the next free draw releases it is taken with that draw as one unordered pair (see
    :class:`_Pair`); the states between the two draws are then not kept.

    ``state_kind`` (a loop whose step's bytecode shows it blind to renamings of the plain
    cards dealt, :func:`~drawdsl.renaming_blind.rename_state`): a head holding one card
    ``d``, not the first card ``c``, is the head holding ``c`` with ``c`` and ``d``
    swapped in its state's card values (its other values as they are).  Its states go to
    that head: a state's shape (the held card's count, then the free counts' counts)
    is the same under the swap, and the future of the swapped state on the swapped deck
    is the same, renamed, so the finished values (plain) are the same.  Where the last
    card drawn is held (the longest run of a suit, no two neighbours of a rank), each
    such state then has one head, not one per card.
    """
    cards = deck.distinct()
    size = len(cards)
    index = CardIndex(cards)
    tracer = Tracer(cards) if traced else None
    n = len(deck)
    top = max(deck.count(card) for card in cards)
    # A digit holds a pinned card's count (at most top) or how many cards share a count.
    pack = Packing(top, max(size, top))
    mask = pack.mask
    width = pack.width
    low = (1 << (width * top)) - 1  # the free classes' digits
    sparse = top > 8  # (see the inner loop)
    outcomes = Outcomes()
    heads: list[_Head] = []
    head_ids: dict[_Draw[Any], int] = {}
    Group = dict[int, int]

    def intern(head: _Draw[Any], into_heads: list[_Head], into_ids: dict[_Draw[Any], int]) -> int:
        hid = into_ids.get(head)
        if hid is None:
            hid = into_ids[head] = len(into_heads)
            into_heads.append(_Head(head, size, pack, index, grouped))
        return hid

    renames = state_kind is not None and not traced and size > 1
    first_card = cards[0]

    def canonical(cid: int, into_heads: list[_Head], into_ids: dict[_Draw[Any], int], avail: int) -> int:
        """The head ``into_heads[cid]``'s states go to (see ``state_kind`` above)."""
        head = into_heads[cid]
        found = head.canon
        if found is not None:
            return found
        head.canon = cid
        if not renames or len(head.pins) != 1 or head.pins[0] == 0 or head.groups:
            return cid
        key = head.draw.key
        if not (type(key) is tuple and len(key) == 2 and key[0] == "loop" and type(key[1]) is _Loop):
            return cid
        held = cards[head.pins[0]]
        swap = {strict_key(held): first_card, strict_key(first_card): held}

        def rename(value: Any) -> Any:
            try:
                return swap.get(strict_key(value), value)
            except TypeError:
                return value

        loop = key[1]
        try:
            state = rename_state(loop.state, state_kind, rename)
        except ValueError:
            return cid
        renamed, extra = normal(_Loop(state, loop.step), avail)
        if type(renamed) is not _Draw or extra:
            return cid
        rid = intern(renamed, into_heads, into_ids)  # type: ignore[arg-type]
        target = into_heads[rid]
        if target.pins != (0,) or target.groups:
            return cid  # (it holds another card too: kept apart)
        target.canon = rid
        head.canon = rid
        return rid

    current: list[Any] = [None]
    #: The child head id and pending discards of the last _ON move made (see _Pair).
    #: And whether that child head's states went to another, renamed (then no pair plan:
    #: its checks and its shortcut read the renamed head's pins, review X).
    last_on: list[int] = [0, 0, 0]

    def transition(
        parent: _Head, anys: int, avail: int,
        new: dict[tuple[int, int], Group], new_heads: list[_Head], new_ids: dict[_Draw[Any], int], drawn: int,
    ) -> tuple[int, Any, Any, Any]:
        """What drawing card ``drawn`` does to ``parent``'s states: (rule, group, extra,
        and for _ON the child's shape as ``F(shape) + G[k]``: F there, G last)."""
        k = parent.draw.k
        current[0] = cards[drawn]
        card = show(cards[drawn])
        child, extra = normal(_spec_or_raise(k(card), k, "the continuation"), avail)
        if tracer is not None and not _covered(parent, drawn, avail, index, size):
            tracer.verify(parent.draw, drawn, child, extra, avail, card)
            if drawn in parent.where:
                parent.verified.append((drawn, avail))
        t = type(child)
        if t is _Draw:
            if reads_rest(child):
                return _REST, None, avail - extra, None
            cid = intern(child, new_heads, new_ids)  # type: ignore[arg-type]
            head = new_heads[cid]
            free_draw = drawn not in parent.where
            for card in head.pins:
                if card not in parent.where and card != drawn:
                    raise Unshaped(card)
            released = tuple(i for card, i in parent.where.items() if card not in head.where)
            kept = free_draw and drawn in head.where
            f, g = _build(released, -1 if free_draw else parent.where[drawn],
                          head.where[drawn] if kept else -1, len(parent.pins), pack)
            renamed = 0
            if renames:
                actual = cid
                cid = canonical(cid, new_heads, new_ids, avail - extra)
                renamed = int(cid != actual)
            group = new.get((cid, anys + extra))
            if group is None:
                group = new[cid, anys + extra] = {}
            last_on[0], last_on[1], last_on[2] = cid, anys + extra, renamed
            return _ON, group, f, g
        if t is _Done:
            return _DONE, None, child.value, None  # type: ignore[attr-defined]
        return _FAILS, None, None, None

    def pair_plan(
        parent: _Head, free_move: tuple[int, Any, Any, Any], cid: int, discards: int, new_heads: list[_Head],
        left: int, ahead: tuple[dict[tuple[int, int], Group], list[_Head], dict[_Draw[Any], int], list[int]],
    ) -> _Pair | None:
        """The pair plan of ``parent`` (no pending discards), whose free move is
        ``free_move`` (an _ON move to head ``cid`` with ``discards`` pending), or None
        where :class:`_Pair` does not apply."""
        middle = new_heads[cid]
        x = parent.first_free
        key = middle.draw.key
        if not (type(key) is tuple and len(key) == 2 and key[0] == "loop" and type(key[1]) is _Loop):
            # Only a loop's: a head of a generator takes its pins from the first history
            # that reaches it, and a pair plan reaching a head first, before a path drawing
            # a pinned card, can give it a card that path does not hold (Unshaped, review S).
            return None
        if (
            discards or middle.groups or middle.first_free < 0
            or set(middle.pins) != {*parent.pins, x}
        ):
            return None
        into, into_heads, into_ids, _ = ahead
        avail = left - 1
        early = middle.early

        def move(at: int, drawn: int) -> tuple[tuple[int, Any, Any, Any], int, int, int]:
            """``middle``'s move at row ``at`` (made once, and kept for its next draw),
            with its child head, pending discards and whether that head was renamed, when
            it goes on."""
            made = early.get(at)
            if made is None:
                made = early[at] = (
                    transition(middle, 0, avail, into, into_heads, into_ids, drawn), last_on[0], last_on[1],
                    last_on[2],
                )
            return made

        try:
            second, cid, anys, renamed = move(len(middle.pins), middle.first_free)
            if second[0] != _ON or anys or renamed:
                return None
            final = into_heads[cid]
            if x in final.where or middle.first_free in final.where:
                return None
            pinned = [(offset, move(at, drawn)[0]) for offset, at, drawn in middle.plan]
        except Exception:
            return None  # the draws are made one by one, where an error is told at its own draw
        _, _, f, g = free_move
        _, group, f2, g2 = second
        return _Pair(parent, final, pack, f, g, pinned, group, f2, g2)

    depth = 0
    frontier: dict[tuple[int, int], Group] = {}
    #: The frontier one draw ahead made by pairs: (frontier, heads, their ids, [live]).
    carry: tuple[dict[tuple[int, int], Group], list[_Head], dict[_Draw[Any], int], list[int]] | None = None
    try:
        end, fails = outcomes.at(0)
        first, anys = normal(spec, n)
        if type(first) is _Draw:
            hid = intern(first, heads, head_ids)  # type: ignore[arg-type]
            head = heads[hid]
            free = [0] * top
            for i, card in enumerate(cards):
                if i not in head.where and deck.count(card):
                    free[deck.count(card) - 1] += 1
            frontier[hid, anys] = {pack.pack(tuple(deck.count(cards[i]) for i in head.pins), tuple(free)): 1}
        elif type(first) is _Done:
            record(first.value, 1, end)  # type: ignore[attr-defined]
        else:
            fails[0] += 1
        while frontier or carry:
            if depth >= max_draws:
                waiting = sum(map(len, frontier.values()))
                raise still_drawing(max_draws, waiting + (sum(map(len, carry[0].values())) if carry else 0))
            depth += 1
            end, fails = outcomes.at(depth)
            left = n - depth
            new: dict[tuple[int, int], Group]
            new_heads: list[_Head]
            new_ids: dict[_Draw[Any], int]
            if carry is None:
                new, new_heads, new_ids, live = {}, [], {}, 0
            else:
                new, new_heads, new_ids, counted = carry
                live = counted[0]
            #: The frontier after the next draw, for the pairs drawn now.
            ahead: tuple[dict[tuple[int, int], Group], list[_Head], dict[_Draw[Any], int], list[int]] = (
                {}, [], {}, [0]
            )
            failed = paired_failed = 0
            nonzero: dict[int, tuple[list[tuple[int, int]], int]] = {}  # free digits -> _classes
            end_next: dict[Any, list[Any]] = {}  # the outcomes at the next draw (pairs' second cards)
            over_next = partial(
                _over, depth=depth + 1, max_states=max_states, heads=ahead[1], too_many=too_many
            )
            for (hid, anys), states in frontier.items():
                parent = heads[hid]
                p = len(parent.pins)
                # The transition of each pinned card (by position), then the free one's.
                row: list[tuple[int, Any, Any, Any] | None] = [None] * (p + 1)
                # row -> its _ON move's (child head, discards, whether the head was renamed)
                child_of: dict[int, tuple[int, int, int]] = {}
                if parent.early and not anys:
                    for at, (early, cid, discards, renamed) in parent.early.items():
                        row[at] = early  # made by a pair plan a draw ago, for this draw
                        child_of[at] = (cid, discards, renamed)
                # The pair plan of the free draws: None not looked at yet, False none (nor
                # where the pair's second card would be past max_draws).
                pair: _Pair | bool | None = (
                    None if paired and not anys and not parent.groups and depth < max_draws else False
                )
                ended = [0] * (p + 1)  # the paths each finishing move ends, recorded once after
                if pair is None and not parent.plan:
                    # No pinned card drawn one by one: when the free draws are pairs, every
                    # state is drawn by the pair plan in one call.
                    if row[p] is None and any(shape & low for shape in states):
                        row[p] = transition(parent, 0, left, new, new_heads, new_ids, parent.first_free)
                        child_of[p] = (last_on[0], last_on[1], last_on[2])
                    move = row[p]
                    if move is not None:
                        then_id, discards, renamed = child_of[p]
                        made = move[0] == _ON and not renamed and pair_plan(
                            parent, move, then_id, discards, new_heads, left, ahead
                        )
                        pair = made or False
                        if made:
                            end_next = outcomes.at(depth + 1)[0]
                            paired_failed += made.draw_all(
                                states, low, pack, ahead[3], end_next, outcomes, depth + 1, left - 1,
                                max_states, over_next,
                            )
                            continue
                for shape, weight in states.items():
                    if parent.groups:
                        draw_one = partial(transition, parent, anys, left - anys, new, new_heads, new_ids)
                        failed += _draw_groups(
                            parent, shape, weight, row, end, outcomes, depth, left, draw_one, mask
                        )
                    for offset, at, drawn in parent.plan:
                        count = (shape >> offset) & mask
                        if not count:
                            continue
                        move = row[at]
                        if move is None:
                            move = row[at] = transition(
                                parent, anys, left - anys, new, new_heads, new_ids, drawn
                            )
                        rule, into, how, add = move
                        if rule == _ON:
                            child = (how(shape) if how is not None else shape) + add[0]
                            old = into.get(child)
                            if old is None:
                                live += 1
                                if live > max_states:
                                    _over(live, depth, max_states, new_heads, too_many)
                                into[child] = weight * count
                            else:
                                into[child] = old + weight * count
                        elif rule == _DONE:
                            ended[at] += weight * count
                        elif rule == _FAILS:
                            failed += weight * count
                        else:  # _REST: it fails after reading `how` more cards
                            deeper = depth + how
                            outcomes.at(deeper)[1][deeper] += weight * count * math.perm(left, how)
                    loose = shape & low
                    if not loose:
                        continue
                    move = row[p]
                    if move is None:
                        move = row[p] = transition(
                            parent, anys, left - anys, new, new_heads, new_ids, parent.first_free
                        )
                        child_of[p] = (last_on[0], last_on[1], last_on[2])
                    if pair is None:
                        then_id, discards, renamed = child_of[p]
                        made = move[0] == _ON and not renamed and pair_plan(
                            parent, move, then_id, discards, new_heads, left, ahead
                        )
                        pair = made or False
                        if made:
                            end_next = outcomes.at(depth + 1)[0]
                    if pair:
                        paired_failed += pair.draw(  # type: ignore[union-attr]
                            shape, weight, _classes(loose, pack)[0], pack, ahead[3], end_next, outcomes,
                            depth + 1, left - 1, max_states, over_next,
                        )
                        continue
                    rule, into, how, add = move
                    if not sparse:
                        # The free classes, from the lowest digit (k = 1) to the last nonzero one.
                        k = 1
                        if rule == _ON:
                            base = how(shape) if how is not None else shape
                            while loose:
                                count = loose & mask
                                if count:
                                    child = base + add[k]
                                    old = into.get(child)
                                    if old is None:
                                        live += 1
                                        if live > max_states:
                                            _over(live, depth, max_states, new_heads, too_many)
                                        into[child] = weight * count * k
                                    else:
                                        into[child] = old + weight * count * k
                                loose >>= width
                                k += 1
                            continue
                        cards_free = 0
                        while loose:
                            cards_free += (loose & mask) * k
                            loose >>= width
                            k += 1
                    else:
                        # Many counts, few of them held: the nonzero classes, read once per
                        # free digits and draw (many states share them).
                        found = nonzero.get(loose)
                        if found is None:
                            found = nonzero[loose] = _classes(loose, pack)
                        classes, cards_free = found
                        if rule == _ON:
                            base = how(shape) if how is not None else shape
                            for k, ways in classes:
                                child = base + add[k]
                                old = into.get(child)
                                if old is None:
                                    live += 1
                                    if live > max_states:
                                        _over(live, depth, max_states, new_heads, too_many)
                                    into[child] = weight * ways
                                else:
                                    into[child] = old + weight * ways
                            continue
                    if rule == _DONE:
                        ended[p] += weight * cards_free
                    elif rule == _FAILS:
                        failed += weight * cards_free
                    else:  # _REST: it fails after reading `how` more cards
                        deeper = depth + how
                        outcomes.at(deeper)[1][deeper] += weight * cards_free * math.perm(left, how)
                for at, paths in enumerate(ended):
                    if paths:
                        record(row[at][2], paths, end)  # type: ignore[index]
            fails[depth] += failed
            if paired_failed:
                fails[depth + 1] += paired_failed
            if report is not None:
                report(depth, live)
            if trace is not None:
                # (A head whose states went to another, renamed, is not one more spec.)
                kept = len(new_heads) - sum(
                    [1 for i, head in enumerate(new_heads) if head.canon is not None and head.canon != i]
                ) if renames else len(new_heads)
                trace.append((depth, live, kept))
            frontier = {key: group for key, group in new.items() if group}
            heads = new_heads
            carry = ahead if ahead[0] else None
    except (StateLimitExceeded, Unshaped, Untraced):
        raise
    except Exception as err:
        if annotate is not None:
            annotate(err, depth, current[0])
        raise
    return outcomes.over_deck(n, depth)
