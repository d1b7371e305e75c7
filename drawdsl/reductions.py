"""Automatic reductions, and the proofs that make them safe for one spec.

Two reductions make natural specs fast without the user's help:

* **Lumping** (cards the spec cannot tell apart).  Cards ``a`` and ``b`` are lumped
  when, at every state the spec reaches, drawing ``a`` and drawing ``b`` lead to
  equal specs.  The deck is then drawn as classes (the whole 52-card deck behaves
  like 13 ranks when the spec only ever reads ranks).  The evaluator checks this at
  every state it visits, for every card of every class, and splits a class and
  starts again the moment two of its cards lead apart.  That is a proof: the lumped
  process is a lumping of the real one (a Markov chain), because at every state it
  reaches the next state depends only on the class drawn.
* **Renaming symmetry** (renamings the spec cannot see).  Decks that differ by a
  renaming of cards merge, as in Norvig's "abstract deck" for War.  This is only
  sound when the spec is *equivariant*: renaming the cards in a state and in the
  card drawn gives the renamed next state, at every state, including states the
  reduced evaluation never visits.  So it is used only when traced runs
  (:mod:`drawdsl.atoms`) show it at every state the evaluation visits, for all the
  renamings of each at once, or when :func:`prove_symmetry` has explored the spec's
  whole state graph (every state reachable by drawing any card at any point, closed
  under renaming) and checked, at every node, for two
  permutations that generate all renamings, that the continuation of the renamed
  state on the renamed card equals the renamed continuation, and that no finished
  value holds a card.  A spec whose graph is too big, or that fails one check,
  is evaluated without the symmetry (still exact).

The renaming of a spec (:func:`rename_spec`) changes cards only where it can see
them: in loop states and finished values, through tuples and frozensets, matched by
:func:`~drawdsl.keys.strict_key`; and in ``@generate`` specs, whose suspended state
is renamed by replaying the generator on the renamed cards sent into it (so what it
derives from them, a rank or a dict of ranks, follows).  Everything else (functions,
strings, dataclasses) is left as it is.  That is always safe: the checks compare what the
spec really does, so a card hidden where the renaming cannot see it makes a check
fail, and the symmetry is not used.

>>> from drawdsl import Cards, loop, done, fail
>>> def no_pair(state, card):
...     return fail() if card == state else (done(True) if state is not None else card)
>>> proof = prove_symmetry(loop(None, no_pair), ("a", "b", "c"), 3)
>>> proof.proven, proof.reason
(True, None)
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from drawdsl.frames import frame_parts
from drawdsl.keys import _PLAIN, strict_key
from drawdsl.probes import NAME_TYPES, Hidden, Token, _Probe, show
from drawdsl.spec import (
    Spec,
    _Any,
    _Bind,
    _Cont,
    _Done,
    _Draw,
    _Frames,
    _Gen,
    _Loop,
    _Resume,
    _spec_or_raise,
    whnf,
)

__all__ = ["CardIndex", "StateGraph", "SymmetryProof", "prove_lumping", "prove_symmetry", "rename_spec"]

#: Step calls a proof may spend at least before it gives up (the evaluation goes on without it).
PROOF_BUDGET = 20_000


def proof_budget(max_states: int) -> int:
    """The most step calls a proof may spend when the evaluation may keep ``max_states``
    live states: half of that (a call costs about what a live state costs, and the
    proof is only tried when the frontier is growing towards the limit), and never less
    than :data:`PROOF_BUDGET`.  The evaluator starts with :data:`PROOF_BUDGET` and
    raises it tenfold, up to this, each time the frontier grows tenfold past the last
    try.

    >>> proof_budget(1_000_000), proof_budget(1_000)
    (500000, 20000)
    """
    return max(PROOF_BUDGET, max_states // 2)


class _CannotRename(Exception):
    """A value whose renaming would not be a bijection (a frozenset that collapses)."""


class CardIndex:
    """The cards of a deck by strict key: which values in a state *are* cards.

    A class of probe cards (:class:`~drawdsl.probes.Token`) with a name (the one
    field the spec is shown, see :func:`~drawdsl.probes.named`) is also found by its
    name, inside probe cards too, and renamed to the other class's name: so a state
    that keeps ``card.rank`` can be renamed.

    >>> index = CardIndex(("a", 1))
    >>> sorted(index.support(("a", (True, 1))))
    [0, 1]
    """

    __slots__ = ("cards", "index", "containers", "names", "named")

    def __init__(self, cards: Sequence[Any]) -> None:
        self.cards = tuple(cards)
        self.index = {strict_key(card): i for i, card in enumerate(self.cards)}
        # Whether a tuple or frozenset can itself be a card (else they are only walked).
        self.containers = any(type(card) in (tuple, frozenset) for card in self.cards)
        #: Each card's name (None: it has none), and the cards by their names' keys.
        self.names = tuple(card.name if type(card) is Token else None for card in self.cards)
        self.named = {strict_key(name): i for i, name in enumerate(self.names) if name is not None}

    def support(self, value: Any) -> set[int]:
        """Indices of the cards found in ``value`` (through tuples and frozensets)."""
        found: set[int] = set()
        stack = [value]
        index = self.index
        named = self.named
        containers = self.containers
        while stack:
            x = stack.pop()
            t = type(x)
            if t is tuple or t is frozenset:
                if containers:
                    i = index.get(strict_key(x))
                    if i is not None:
                        found.add(i)
                        continue
                stack.extend(x)
                continue
            if named:
                if t in NAME_TYPES:
                    i = named.get((t, x))  # (a name: its key, as strict_key makes it)
                    if i is not None:
                        found.add(i)
                    continue
                if issubclass(t, _Probe):
                    for item in tuple.__iter__(x):  # (its fields: names inline, the rest walked)
                        u = type(item)
                        if u in NAME_TYPES:
                            i = named.get((u, item))
                            if i is not None:
                                found.add(i)
                        elif u is not Hidden:
                            stack.append(item)
                    continue
                if t is Hidden:
                    continue  # a hidden field's placeholder: never a card
            try:
                i = index.get(strict_key(x))
            except TypeError:
                continue
            if i is not None:
                found.add(i)
        return found

    def held(self, value: Any) -> tuple[set[int], list[list[int]]]:
        """:meth:`support`, and the groups of cards (indices, two or more each) that
        :meth:`rename` can permute among themselves in any way without changing ``value``:
        the cards held exactly once in ``value``, each as a member of the same frozenset.
        A permutation of a group renames that frozenset to itself and touches nothing
        else.  Cards that are themselves tuples or frozensets are never grouped.

        >>> index = CardIndex(("a", "b", "c", "d"))
        >>> index.held((frozenset({"a", "b", "c"}), "d"))[1]
        [[0, 1, 2]]
        >>> index.held((frozenset({"a", "b"}), "a"))  # "a" is also held elsewhere
        ({0, 1}, [])
        >>> index.held(frozenset({("a", 1), ("b", 1)}))[1]  # inside tuples: not members
        []
        """
        if self.containers:
            return self.support(value), []
        index = self.index
        named = self.named
        home: dict[int, int] = {}  # card -> the frozenset holding it as a member (a serial; -1: not so)
        sets = 0
        stack: list[tuple[Any, int]] = [(value, -1)]  # (value, the frozenset it is a member of)
        while stack:
            x, within = stack.pop()
            t = type(x)
            if t is tuple:
                stack.extend([(item, -1) for item in x])
                continue
            if t is frozenset:
                sets += 1
                for item in x:
                    if type(item) in _PLAIN and not named:  # (the common case, inline)
                        i = index.get((type(item), item))  # (strict_key's key of a plain value)
                        if i is not None:
                            home[i] = sets if i not in home else -1
                    else:
                        stack.append((item, sets))
                continue
            if named and t in NAME_TYPES:
                i = named.get((t, x))  # (a name: its key, as strict_key makes it)
            elif named and issubclass(t, _Probe):
                stack.extend([(item, -1) for item in tuple.__iter__(x)])
                continue
            elif t in _PLAIN:
                i = index.get((t, x))
            else:
                try:
                    i = index.get(strict_key(x))
                except TypeError:
                    continue
            if i is not None:
                home[i] = within if i not in home else -1
        groups: dict[int, list[int]] = {}
        for i, within in home.items():
            if within >= 0:
                groups.setdefault(within, []).append(i)
        return set(home), sorted(sorted(group) for group in groups.values() if len(group) > 1)

    def frame_groups(self, key: Any) -> list[list[int]]:
        """The groups of :meth:`held` in a suspended generator's state (a
        :func:`~drawdsl.frames.frame_key`): the cards it keeps exactly once each, all as
        items of the same set its code never iterates, and nowhere else.  No groups when
        the key holds something :func:`~drawdsl.frames.frame_parts` cannot read through.

        >>> from drawdsl import draw
        >>> from drawdsl.frames import frame_key
        >>> def gen():
        ...     seen, last = set(), None
        ...     while True:
        ...         card = yield draw()
        ...         seen.add(card)
        ...         last = card
        >>> g = gen(); _ = g.send(None)
        >>> for card in "abc": _ = g.send(card)
        >>> CardIndex(("a", "b", "c", "d")).frame_groups(frame_key(g))  # "c" is also the last
        [[0, 1]]
        """
        parts = frame_parts(key)
        if parts is None or self.containers:
            return []
        # A card's key, as the frame key keeps plain values: (type, value); a name's too.
        index, named = self.index, self.named
        sets, others, ranges = parts
        if ranges and any(k[0] is int for k in index if type(k) is tuple and len(k) == 2):
            return []  # an int card may be among a range's ints (not listed)
        home: dict[int, int] = {}  # card -> the set holding it (its number; -1: held otherwise too)
        for serial, items in enumerate(sets):
            for pair in items:
                i = index.get(pair)
                if i is None and named:
                    i = named.get(pair)
                if i is not None:
                    home[i] = serial if i not in home else -1
        for pair in others:
            i = index.get(pair)
            if i is None and named:
                i = named.get(pair)
            if i is not None:
                home[i] = -1
        groups: dict[int, list[int]] = {}
        for i, within in home.items():
            if within >= 0:
                groups.setdefault(within, []).append(i)
        return sorted(sorted(group) for group in groups.values() if len(group) > 1)

    def rename(self, value: Any, perm: Sequence[int]) -> Any:
        """``value`` with every card ``i`` it holds replaced by card ``perm[i]`` (``value``
        itself when that changes nothing).

        >>> index = CardIndex(("a", "b", "c"))
        >>> index.rename(("a", frozenset({"c"})), (1, 0, 2))
        ('b', frozenset({'c'}))
        >>> value = ("c", 1)
        >>> index.rename(value, (1, 0, 2)) is value
        True
        """
        t = type(value)
        if self.named:
            if t in NAME_TYPES:
                i = self.named.get(strict_key(value))
                if i is None or perm[i] == i:
                    return value
                name = self.names[perm[i]]
                if name is None:
                    raise _CannotRename(value)
                return name
            if issubclass(t, _Probe):
                fields = tuple(tuple.__iter__(value))
                out = [self.rename(x, perm) for x in fields]
                if all(a is b for a, b in zip(out, fields, strict=True)):
                    return value
                return t._make(out)  # type: ignore[attr-defined]
        if self.containers or (t is not tuple and t is not frozenset):
            try:
                i = self.index.get(strict_key(value))
            except TypeError:
                return value
            if i is not None:
                return value if perm[i] == i else self.cards[perm[i]]
        if t is tuple:
            items = [self.rename(x, perm) for x in value]
            if all(a is b for a, b in zip(items, value, strict=True)):
                return value
            return tuple(items)
        if t is frozenset:
            members = list(value)
            renamed = [self.rename(x, perm) for x in members]
            if all(a is b for a, b in zip(renamed, members, strict=True)):
                return value
            moved = frozenset(renamed)
            if len(moved) != len(value):
                raise _CannotRename(value)
            return moved
        return value


def rename_spec(spec: Spec[Any], index: CardIndex, perm: Sequence[int]) -> Spec[Any]:
    """``spec`` with the cards it visibly holds renamed by ``perm`` (loop states, finished
    values, through binds); any other part is kept as it is.

    >>> from drawdsl import loop
    >>> rename_spec(loop(("a",), max), CardIndex(("a", "b")), (1, 0))
    loop(('b',), max())
    """
    t = type(spec)
    if t is _Loop:
        state = index.rename(spec.state, perm)  # type: ignore[attr-defined]
        return spec if state is spec.state else _Loop(state, spec.step)  # type: ignore[attr-defined]
    if t is _Done:
        value = index.rename(spec.value, perm)  # type: ignore[attr-defined]
        return spec if value is spec.value else _Done(value)  # type: ignore[attr-defined]
    if t is _Draw:
        key = spec.key  # type: ignore[attr-defined]
        if type(key) is tuple and key:
            if key[0] == "loop":
                return rename_spec(key[1], index, perm)
            if key[0] == "cont":
                inner, frames = rename_spec(key[1], index, perm), _rename_frames(key[2], index, perm)
                if inner is key[1] and frames is key[2]:
                    return spec
                return _Cont(inner, frames)
        return spec
    if t is _Cont:
        inner, frames = rename_spec(spec.spec, index, perm), _rename_frames(spec.frames, index, perm)  # type: ignore[attr-defined]
        return spec if inner is spec.spec and frames is spec.frames else _Cont(inner, frames)  # type: ignore[attr-defined]
    if t is _Bind:
        inner = rename_spec(spec.m, index, perm)  # type: ignore[attr-defined]
        return spec if inner is spec.m else _Bind(inner, spec.f)  # type: ignore[attr-defined]
    if t is _Any:
        inner = rename_spec(spec.next, index, perm)  # type: ignore[attr-defined]
        return spec if inner is spec.next else _Any(inner)  # type: ignore[attr-defined]
    return spec


def _rename_frames(frames: _Frames, index: CardIndex, perm: Sequence[int]) -> _Frames:
    """``frames`` with each suspended generator renamed (see :func:`_rename_resume`);
    other continuations are kept as they are."""
    items: list[Any] = []
    node: _Frames | None = frames
    changed = False
    while node is not None:
        f = node.f
        if type(f) is _Resume:
            new = _rename_resume(f, index, perm)
            changed = changed or new is not f
            f = new
        items.append(f)
        node = node.rest
    if not changed:
        return frames
    stack: _Frames | None = None
    for f in reversed(items):
        stack = _Frames(f, stack)
    return stack  # type: ignore[return-value]


def _rename_resume(resume: _Resume, index: CardIndex, perm: Sequence[int]) -> _Resume:
    """A suspended generator renamed: the same function fed the renamed values.

    A generator's state cannot be edited, but it is made by replaying what was sent
    into it, so its renaming is the state reached by replaying the renamed history.
    Whatever the generator derives from a card (its rank, a dict keyed by ranks)
    follows.  As for every renaming here, the proof's checks decide whether the spec
    really cannot see it.
    """
    gen = resume.gen_spec
    history = index.rename(gen.history, perm)
    if history is gen.history:
        return resume
    expanded = _Gen(gen.func, gen.args, gen.kwargs, history)._expand(math.inf)
    if type(expanded) is not _Bind or type(expanded.f) is not _Resume:  # type: ignore[attr-defined]
        raise _CannotRename(gen.history)  # the replay finished: not a suspended state
    return expanded.f  # type: ignore[attr-defined,no-any-return]


def _frames_support(frames: _Frames, index: CardIndex) -> set[int]:
    """The cards a renaming of ``frames`` can move: those sent into its generators."""
    found: set[int] = set()
    node: _Frames | None = frames
    while node is not None:
        if type(node.f) is _Resume:
            found |= index.support(node.f.gen_spec.history)
        node = node.rest
    return found


def _suspends(head: Spec[Any]) -> bool:
    """Whether ``head`` holds a suspended generator (renaming it means a replay)."""
    key = getattr(head, "key", None)
    if type(key) is not tuple or len(key) != 3 or key[0] != "cont":
        return False
    frames: _Frames | None = key[2]
    while frames is not None:
        if type(frames.f) is _Resume:
            return True
        frames = frames.rest
    return False


def head_support(head: Spec[Any], index: CardIndex) -> set[int]:
    """The cards :func:`rename_spec` would move in ``head``: a renaming that fixes them
    leaves the head equal to itself."""
    t = type(head)
    if t is _Loop:
        return index.support(head.state)  # type: ignore[attr-defined]
    if t is _Done:
        return index.support(head.value)  # type: ignore[attr-defined]
    if t is _Draw:
        key = head.key  # type: ignore[attr-defined]
        if type(key) is tuple and key and key[0] == "loop":
            return head_support(key[1], index)
        if type(key) is tuple and key and key[0] == "cont":
            return head_support(key[1], index) | _frames_support(key[2], index)
        return set()
    if t is _Cont:
        return head_support(head.spec, index) | _frames_support(head.frames, index)  # type: ignore[attr-defined]
    if t is _Bind:
        return head_support(head.m, index)  # type: ignore[attr-defined]
    if t is _Any:
        return head_support(head.next, index)  # type: ignore[attr-defined]
    return set()


def normal(child: Spec[Any], avail: float) -> tuple[Spec[Any], int]:
    """``child`` in one of the four forms (never a discard), and the discards it adds first."""
    head = whnf(child, avail)
    extra = 0
    while type(head) is _Any:
        extra += 1
        avail -= 1
        head = whnf(head.next, avail)  # type: ignore[attr-defined]
    return head, extra


@dataclass(frozen=True)
class SymmetryProof:
    """The outcome of :func:`prove_symmetry`: ``proven``, or the ``reason`` it is not."""

    proven: bool
    reason: str | None
    states: int


def _generators(m: int) -> list[tuple[int, ...]]:
    """A transposition and an m-cycle: together they generate every renaming of m cards."""
    if m < 2:
        return []
    swap = (1, 0, *range(2, m))
    cycle = (*range(1, m), 0)
    return [swap] if m == 2 else [swap, cycle]


# A node of the state graph: (head, pending discards, draws so far).  An entry of a
# row: the node a card leads to, ("done", strict key of the value) or ("fail",).
Node = tuple[Any, int, int]


class _OverBudget(Exception):
    """The state graph needs more calls of the spec than the proof may spend."""


class StateGraph:
    """The states a spec reaches by drawing any card at any point, explored on demand:
    per node, the row of what each card leads to (shared by the two proofs).

    >>> from drawdsl import draw_count
    >>> graph = StateGraph(draw_count(lambda c: c == "a", 2), "ab", 2)
    >>> len(graph.row(graph.start))
    2
    """

    def __init__(self, spec: Spec[Any], cards: Sequence[Any], size: int, budget: int = PROOF_BUDGET) -> None:
        self.index = CardIndex(cards)
        self.size = size
        self.budget = budget
        self.calls = 0
        #: Whether a proof stopped at the budget (a larger budget may still prove it).
        self.over_budget = False
        self.rows: dict[Node, list[Any]] = {}
        #: One object per node (so that rows, caches and checks compare nodes by identity).
        self.nodes: dict[Node, Node] = {}
        #: Rows explored per depth (the proofs explore breadth first).
        self.per_depth: dict[int, int] = {}
        #: A finished value holds a card (so no renaming of those cards is invisible).
        self.card_outcome = False
        first, anys = normal(spec, size)
        self.start: Node | None = self.node((first, anys, 0)) if type(first) is _Draw else None
        if type(first) is _Done and self.index.support(first.value):  # type: ignore[attr-defined]
            self.card_outcome = True

    def worth_more(self, budget: int) -> bool:
        """Whether a proof that ran out of calls might finish with ``budget`` calls: False
        when the next two depths alone, at the growth of the last depths explored (over
        two depths, so that alternating widths do not mislead), need more.  Only decides
        whether to try again (a proof is never assumed).

        >>> from drawdsl import draw_count
        >>> StateGraph(draw_count(lambda c: c == "a", 2), "ab", 2).worth_more(100)
        True
        """
        if not self.per_depth:
            return True
        deepest = max(self.per_depth)
        last = self.per_depth.get(deepest - 1, 0)
        before = self.per_depth.get(deepest - 3, 0)
        if deepest < 3 or last == 0 or before == 0:
            return True
        growth: float = math.sqrt(last / before)
        ahead = last * (growth + growth * growth) - self.per_depth[deepest]
        return self.calls + ahead * len(self.index.cards) <= budget

    def node(self, node: Node) -> Node:
        """The one object standing for ``node`` (equal nodes are then the same object)."""
        return self.nodes.setdefault(node, node)

    def row(self, node: Node) -> list[Any]:
        """What each card leads to from ``node`` (computed once)."""
        found = self.rows.get(node)
        if found is not None:
            return found
        head, anys, depth = node
        avail = self.size - depth - 1 - anys
        cards = self.index.cards
        if self.calls + len(cards) > self.budget:
            self.over_budget = True
            raise _OverBudget
        self.calls += len(cards)
        self.per_depth[depth] = self.per_depth.get(depth, 0) + 1
        k = head.k
        row: list[Any] = []
        for card in cards:
            child, extra = normal(_spec_or_raise(k(show(card)), k, "the continuation"), avail)
            tc = type(child)
            if tc is _Draw:
                row.append(self.node((child, anys + extra, depth + 1)))
            elif tc is _Done:
                value = child.value  # type: ignore[attr-defined]
                if not self.card_outcome and self.index.support(value):
                    self.card_outcome = True
                row.append(("done", strict_key(value)))
            else:
                row.append(("fail",))
        self.rows[node] = row
        return row


def prove_lumping(
    spec: Spec[Any], cards: Sequence[Any], classes: Sequence[Sequence[int]], size: int,
    budget: int = PROOF_BUDGET, graph: StateGraph | None = None,
) -> list[list[int]] | None:
    """The coarsest refinement of ``classes`` (lists of card indices) whose cards lead
    to equal specs at every state reachable by drawing any card at any point (at most
    ``size`` draws); None when that graph needs more than ``budget`` calls of the
    spec, or the spec raises on the way.

    >>> from drawdsl import draw_count
    >>> prove_lumping(draw_count(lambda c: c < "c", 2), "abcd", [[0, 1, 2, 3]], 4)
    [[0, 1], [2, 3]]
    """
    graph = graph or StateGraph(spec, cards, size, budget)
    parts = [list(c) for c in classes]
    if graph.start is None:
        return parts
    todo = deque([graph.start])
    seen = {graph.start}
    try:
        while todo:
            row = graph.row(todo.popleft())
            for entry in row:
                if len(entry) == 3 and entry not in seen:
                    seen.add(entry)
                    todo.append(entry)
            refined: list[list[int]] = []
            for part in parts:
                if len(part) == 1:
                    refined.append(part)
                    continue
                groups: dict[Any, list[int]] = {}
                for i in part:
                    groups.setdefault(row[i], []).append(i)
                refined.extend(groups.values())
            parts = refined
    except Exception:
        return None
    return parts


def prove_symmetry(
    spec: Spec[Any], cards: Sequence[Any], size: int, budget: int = PROOF_BUDGET,
    graph: StateGraph | None = None,
) -> SymmetryProof:
    """Show that ``spec`` cannot see renamings of ``cards`` on a deck of ``size`` cards.

    Explores every state reachable by drawing any of ``cards`` at any point (at most
    ``size`` draws), closed under the renamings, spending at most ``budget`` calls
    of the spec; at every state and for both generating renamings it checks that
    the renamed state, given the renamed card, continues as the renamed continuation,
    and that finished values hold no card.  Any error the spec raises on the way
    ends the proof (not proven); the evaluation that follows raises it if it is real.
    ``graph`` may hold rows already explored over a superset of ``cards``.

    >>> from drawdsl import draw
    >>> prove_symmetry(draw(), ("a", "b"), 2).reason
    'the spec finishes with a value that holds a card'
    """
    graph = graph or StateGraph(spec, cards, size, budget)
    index = CardIndex(cards)
    where = {strict_key(card): i for i, card in enumerate(graph.index.cards)}
    positions = [where[strict_key(card)] for card in index.cards]
    gens = _generators(len(positions))
    if graph.card_outcome:
        return SymmetryProof(False, "the spec finishes with a value that holds a card", 0)
    if not gens or graph.start is None:
        return SymmetryProof(True, None, 0)
    images: dict[tuple[Node, int], Node | None] = {}

    def renamed(node: Node, g: int) -> Node | None:
        """The node of ``node``'s head renamed by generator ``g`` (cached)."""
        found = images.get((node, g), False)
        if found is not False:
            return found  # type: ignore[return-value]
        head, anys, depth = node
        if _suspends(head):
            # Renaming a suspended generator replays it: as costly as a call, it counts as one.
            if graph.calls >= graph.budget:
                graph.over_budget = True
                raise _OverBudget
            graph.calls += 1
        new, extra = normal(rename_spec(head, index, gens[g]), size - depth - anys)
        image = None if type(new) is not _Draw or extra else graph.node((new, anys, depth))
        images[node, g] = image
        return image

    todo = deque([graph.start])
    seen = {graph.start}
    rows: dict[Node, list[Any]] = {}
    # Checks waiting for the row of the image they compare with: image -> [(node, g)].
    waiting: dict[Node, list[tuple[Node, int]]] = {}

    def check(node: Node, g: int) -> SymmetryProof | None:
        """Equivariance at ``node`` for generator ``g`` (both rows known): None when it holds."""
        perm = gens[g]
        image_row = rows[renamed(node, g)]  # type: ignore[index]
        for y, entry in enumerate(rows[node]):
            want = renamed(entry, g) if len(entry) == 3 else entry
            if image_row[perm[y]] != want:
                card, other = index.cards[y], index.cards[perm[y]]
                what = (
                    f"drawing {other!r} instead of {card!r} does"
                    if perm[y] != y
                    else f"after a renaming of other cards, drawing {card!r} does"
                )
                return SymmetryProof(
                    False, f"{what} more than rename the cards (the spec tells them apart)", len(rows)
                )
        return None

    try:
        # Breadth first over every node and its images; each check is made as soon as
        # the two rows it compares are known, so a spec that sees renamings fails early.
        while todo:
            node = todo.popleft()
            full = graph.row(node)
            if graph.card_outcome:
                return SymmetryProof(False, "the spec finishes with a value that holds a card", len(rows))
            row = rows[node] = [full[i] for i in positions]
            nexts = [entry for entry in row if len(entry) == 3]
            ready: list[tuple[Node, int]] = waiting.pop(node, [])
            for g in range(len(gens)):
                image = renamed(node, g)
                if image is None:
                    return SymmetryProof(False, "a renamed state is not a draw", len(rows))
                nexts.append(image)
                if image in rows:
                    ready.append((node, g))
                else:
                    waiting.setdefault(image, []).append((node, g))
            for u, g in ready:
                failed = check(u, g)
                if failed is not None:
                    return failed
            for entry in nexts:
                if entry not in seen:
                    seen.add(entry)
                    todo.append(entry)
        # Every node and its images are explored, and every check made.
        assert not waiting, "every image is explored"
    except _OverBudget:
        return SymmetryProof(
            False, f"its state graph is larger than the proof's budget ({graph.budget:,} calls)", len(rows)
        )
    except _CannotRename:
        return SymmetryProof(False, "a state cannot be renamed", len(rows))
    except Exception:
        return SymmetryProof(False, "the spec raised an error on a state the proof explored", len(rows))
    return SymmetryProof(True, None, len(rows))
