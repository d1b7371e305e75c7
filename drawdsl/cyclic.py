"""Cyclic processes: a spec over a with-replacement source whose states repeat.

"Flip a coin until HHT or THT appears" can draw forever, but it only ever is in a
few states.  The exact evaluator collects the finite graph of reachable states (the
spec heads, compared as the merging keys are) and solves the absorbing Markov chain
exactly: with ``W`` the total weight of the source and ``w(s, t)`` the weight of the
symbols leading from state ``s`` to ``t``, the absorption probabilities ``x`` solve
``(W I - w) x = r`` and the expected numbers of draws ``e`` solve
``(W I - w) e = W``.  Before solving, states that no draw can tell apart are merged
(:func:`_lump`: "the last three flips" becomes the pattern automaton); then the
system is solved by sparse fraction-free elimination over the integers
(:func:`_eliminate`), with one division per answer at the end.  sympy's sparse
``DomainMatrix`` rref over ``QQ`` stays available (``method="sympy"``), but it lost
on every chain measured (``python -m bench.cyclic``), so it is never chosen by itself.

>>> from drawdsl import chances, coin, done, loop
>>> def until_hh(state, side):
...     return done("HH") if state == "H" and side == "H" else side
>>> dist = chances(loop("", until_hh), coin())
>>> dist, dist.expected_draws
(Distribution({'HH': 1}), Fraction(6, 1))
"""

from __future__ import annotations

import heapq
from collections.abc import Callable
from fractions import Fraction
from math import gcd
from typing import Any

from drawdsl.distribution import Distribution
from drawdsl.errors import EndlessProcess, StateLimitExceeded
from drawdsl.keys import outcome_key
from drawdsl.sources import Weighted
from drawdsl.spec import Spec, _Any, _Done, _Draw, _spec_or_raise, whnf

__all__ = ["solve_chain"]

_INF = float("inf")


# Where a draw leads: a state index, ("done", outcome key, value), or _FAILED.  The key
# (drawdsl.keys.outcome_key) keeps 1 and True apart where targets are compared.
_FAILED = ("fail",)


class _Value:
    """A finished value riding along with its key: targets compare by the key alone."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __eq__(self, other: object) -> bool:
        return type(other) is _Value

    def __hash__(self) -> int:
        return 0


def _done(value: Any) -> tuple[str, Any, _Value]:
    """The target of a path finishing with ``value``."""
    return ("done", outcome_key(value), _Value(value))


def _settle(spec: Spec[Any]) -> Spec[Any]:
    """The next head that draws or ends (unseen draws are free with replacement)."""
    head = whnf(spec, _INF)
    while type(head) is _Any:
        head = whnf(head.next, _INF)  # type: ignore[attr-defined]
    return head


class _Graph:
    """The reachable states and, for each, the total weight leading to each target."""

    def __init__(self, max_states: int) -> None:
        self.max_states = max_states
        self.index: dict[Spec[Any], int] = {}
        self.heads: list[Spec[Any]] = []
        self.edges: list[dict[Any, int]] = []

    def target(self, head: Spec[Any]) -> Any:
        t = type(head)
        if t is _Done:
            value = head.value  # type: ignore[attr-defined]
            try:
                return _done(value)
            except TypeError:
                raise TypeError(
                    f"the spec finished with {value!r} ({type(value).__name__}), which is not "
                    "hashable; finish with a hashable value (a tuple instead of a list)"
                ) from None
        if t is not _Draw:
            return _FAILED
        i = self.index.get(head)
        if i is None:
            if len(self.heads) >= self.max_states:
                raise StateLimitExceeded(
                    f"the cyclic state graph has more than max_states={self.max_states} states; "
                    "give loops small hashable states so that states repeat, or pass a "
                    "larger max_states"
                )
            i = self.index[head] = len(self.heads)
            self.heads.append(head)
            self.edges.append({})
        return i


def solve_chain(
    spec: Spec[Any],
    source: Weighted[Any],
    max_states: int,
    progress: Callable[[int, int], None] | None = None,
    method: str = "auto",
    lump: bool = True,
) -> Distribution[Any]:
    """The exact distribution of ``spec`` on ``source`` by solving its absorbing chain.

    ``method`` picks the linear solver: "sparse" (fraction-free elimination over the
    integers), "sympy" (sympy's sparse rref over QQ) or "auto" (see :func:`_solve`);
    ``lump=False`` solves the chain without merging equivalent states (for tests).
    """
    graph, start = collect_graph(spec, source, max_states, progress)
    if not isinstance(start, int):
        probs = {start[2].value: Fraction(1)} if start is not _FAILED else {}
        return Distribution(probs, Fraction(0 if probs else 1), Fraction(0))
    return _absorb(graph, start, source.total, method, lump)


def collect_graph(
    spec: Spec[Any],
    source: Weighted[Any],
    max_states: int,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[_Graph, Any]:
    """The reachable states of ``spec`` on ``source``, and where it starts (a state or an end)."""
    graph = _Graph(max_states)
    start = graph.target(_settle(spec))
    if not isinstance(start, int):
        return graph, start
    symbols = [(card, source.weight(card)) for card in source.distinct()]
    done_count = 0
    while done_count < len(graph.heads):
        head = graph.heads[done_count]
        edges = graph.edges[done_count]
        k = head.k  # type: ignore[attr-defined]
        for card, weight in symbols:
            to = graph.target(_settle(_spec_or_raise(k(card), k, "the continuation")))
            edges[to] = edges.get(to, 0) + weight
        done_count += 1
        if progress is not None and done_count % 1000 == 0:
            progress(done_count, len(graph.heads))
    return graph, start


def _lump(edges: list[dict[Any, int]], start: int) -> tuple[list[dict[Any, int]], int]:
    """The chain with states merged that no draw can tell apart (exact lumping).

    Two states whose draws lead, with the same total weights, to the same outcomes
    and to the same classes of states have the same absorption probabilities and
    expected draws: the coarsest such partition (a bisimulation, as in DFA
    minimisation) is found by refinement, and the quotient chain is solved instead.
    "The last three flips" as a loop state lumps to the pattern automaton this way.
    Only states one of whose targets moved are looked at again, so a long path of
    states costs one pass, not one pass per state.
    """
    n = len(edges)
    preds: list[list[int]] = [[] for _ in range(n)]
    for i, out in enumerate(edges):
        for to in out:
            if isinstance(to, int):
                preds[to].append(i)
    block = [0] * n
    members: list[list[int]] = [list(range(n))]
    shared: list[Any] = [None]  # the signature the unchanged members of a block share
    signature: list[Any] = [None] * n
    dirty = set(range(n))
    while dirty:
        touched: dict[int, dict[Any, list[int]]] = {}
        for i in dirty:
            weights: dict[Any, int] = {}
            for to, w in edges[i].items():
                key = block[to] if isinstance(to, int) else to
                weights[key] = weights.get(key, 0) + w
            signature[i] = sig = frozenset(weights.items())
            touched.setdefault(block[i], {}).setdefault(sig, []).append(i)
        dirty = set()
        for b, groups in touched.items():
            stay = shared[b]
            if len(groups) == 1 and (stay is None or stay in groups):
                shared[b] = next(iter(groups))
                continue
            if stay not in groups and len(members[b]) == sum(map(len, groups.values())):
                stay = max(groups, key=lambda s: len(groups[s]))  # the biggest group keeps the name
            shared[b] = stay
            for sig, states in groups.items():
                if sig == stay:
                    continue
                new = len(members)
                members.append(states)
                shared.append(sig)
                for i in states:
                    block[i] = new
                    dirty.update(preds[i])
            members[b] = [i for i in members[b] if block[i] == b]
    if len(members) == n:
        return edges, start
    quotient: list[dict[Any, int]] = []
    for states in members:
        merged: dict[Any, int] = {}
        for to, w in edges[states[0]].items():
            key = block[to] if isinstance(to, int) else to
            merged[key] = merged.get(key, 0) + w
        quotient.append(merged)
    return quotient, block[start]


def _rows(edges: list[dict[Any, int]], total: int) -> tuple[list[dict[int, int]], dict[Any, int]]:
    """The system ``(W I - w) [x | e] = [r | W]`` as sparse integer rows.

    Row ``i`` maps a column to its coefficient: columns below ``n`` are the states,
    column ``n + j`` is the right-hand side of outcome ``j`` and the last one the
    right-hand side of the expected number of draws.
    """
    n = len(edges)
    outcomes: dict[Any, int] = {}
    for out in edges:
        for to in out:
            if not isinstance(to, int) and to not in outcomes:
                outcomes[to] = len(outcomes)
    draws = n + len(outcomes)
    rows = []
    for i, out in enumerate(edges):
        row = {i: total, draws: total}
        for to, weight in out.items():
            if isinstance(to, int):
                row[to] = row.get(to, 0) - weight
            else:
                row[n + outcomes[to]] = weight
        if not row[i]:  # pragma: no cover - _check_ends refuses a state that only loops
            raise AssertionError("internal error: a state that only loops to itself")
        rows.append(row)
    return rows, outcomes


def _eliminate(rows: list[dict[int, int]], start: int) -> dict[int, int]:
    """Row ``start`` once every other state is eliminated: ``{start: a, n + j: b_j}``.

    Fraction-free sparse Gaussian elimination over the integers.  Eliminating state
    ``k`` touches only the rows that mention it (its predecessors): each becomes
    ``p * row - c * row_k`` divided by its content (the gcd of its entries), so the
    integers stay small and no Fraction is ever built.  States go in the order of
    least fill-in (Markowitz: fewest rows mentioning ``k`` times entries of row
    ``k``, kept in a heap and rechecked when popped).  The matrix ``W I - w`` is a
    nonsingular M-matrix (every state can end), and so is each Schur complement:
    every pivot is positive, whatever the order.  Only ``x[start]`` is wanted, so
    there is no back substitution: the start's row alone is left at the end.
    """
    n = len(rows)
    users: list[set[int]] = [set() for _ in range(n)]  # users[j]: live rows i != j with a column j
    for i, row in enumerate(rows):
        for j in row:
            if j < n and j != i:
                users[j].add(i)
    heap = [(len(users[k]) * len(rows[k]), k) for k in range(n) if k != start]
    heapq.heapify(heap)
    done = [False] * n
    while heap:
        cost, k = heapq.heappop(heap)
        if done[k]:  # pragma: no cover - every state is pushed once
            continue
        now = len(users[k]) * len(rows[k])
        if now > cost:
            heapq.heappush(heap, (now, k))
            continue
        done[k] = True
        pivot_row = rows[k]
        p = pivot_row.pop(k)
        for j in pivot_row:
            if j < n:
                users[j].discard(k)
        for i in users[k]:
            row = rows[i]
            c = row.pop(k)
            g = gcd(p, c)
            pk, ck = p // g, c // g
            if pk != 1:
                for j in row:
                    row[j] *= pk
            for j, v in pivot_row.items():
                if j in row:
                    new = row[j] - ck * v
                    if new:
                        row[j] = new
                    else:
                        del row[j]
                        if j < n:
                            users[j].discard(i)
                else:
                    row[j] = -ck * v
                    if j < n and j != i:
                        users[j].add(i)
            content = gcd(*row.values())
            if content > 1:
                for j in row:
                    row[j] //= content
        users[k].clear()
        rows[k] = {}
    return rows[start]


def _solve_sympy(rows: list[dict[int, int]], start: int, width: int) -> list[Fraction]:
    """Row ``start`` of the solution with sympy's sparse DomainMatrix rref over QQ."""
    from sympy import QQ
    from sympy.polys.matrices import DomainMatrix

    n = len(rows)
    augmented = DomainMatrix(
        {i: {j: QQ(v) for j, v in row.items()} for i, row in enumerate(rows)}, (n, n + width), QQ
    )
    reduced, _ = augmented.rref()
    row = reduced.to_dok()
    return [_fraction(row.get((start, n + j), QQ(0))) for j in range(width)]


def _fraction(q: Any) -> Fraction:
    return Fraction(int(q.numerator), int(q.denominator))


def _solve(rows: list[dict[int, int]], start: int, width: int, method: str = "auto") -> list[Fraction]:
    """``x[start]`` for every right-hand side, by ``method`` ("sparse", "sympy" or "auto")."""
    if method == "auto":  # measured (python -m bench.cyclic): sparse wins at every size tried
        method = "sparse"
    if method == "sympy":
        return _solve_sympy(rows, start, width)
    if method != "sparse":
        raise ValueError(f"method must be 'sparse' or 'sympy', got {method!r}")
    n = len(rows)
    row = _eliminate([dict(r) for r in rows], start)
    a = row[start]
    return [Fraction(row.get(n + j, 0), a) for j in range(width)]


def _absorb(
    graph: _Graph, start: int, total: int, method: str = "auto", lump: bool = True
) -> Distribution[Any]:
    _check_ends(graph, start)
    edges = graph.edges
    if lump:
        edges, start = _lump(edges, start)
    rows, outcomes = _rows(edges, total)
    m = len(outcomes)
    row = _solve(rows, start, m + 1, method)
    probs: dict[Any, Fraction] = {}
    values: dict[Any, Any] = {}
    failure = Fraction(0)
    for to, j in outcomes.items():
        p = row[j]
        if to is _FAILED:
            failure += p
        elif p:
            key = to[1]  # 1 and True are two outcomes (see drawdsl.keys)
            values.setdefault(key, to[2].value)
            probs[key] = probs.get(key, Fraction(0)) + p
    if sum(probs.values(), failure) != 1:  # pragma: no cover - guarded by _check_ends
        raise AssertionError("internal error: absorption probabilities do not sum to 1")
    return Distribution._trusted(probs, values, failure, row[m])


def _check_ends(graph: _Graph, start: int) -> None:
    """Refuse processes that can run forever with positive probability."""
    n = len(graph.heads)
    reverse: list[list[int]] = [[] for _ in range(n)]
    ends = []
    for i, edges in enumerate(graph.edges):
        for to in edges:
            if isinstance(to, int):
                reverse[to].append(i)
            else:
                ends.append(i)
    can_end = [False] * n
    stack = ends
    for i in stack:
        can_end[i] = True
    while stack:
        i = stack.pop()
        for j in reverse[i]:
            if not can_end[j]:
                can_end[j] = True
                stack.append(j)
    if not all(can_end):
        stuck = graph.heads[can_end.index(False)]
        raise EndlessProcess(
            "the process can draw forever: from the reachable state "
            f"{stuck!r} no sequence of draws ever finishes or fails, so it never ends "
            f"with positive probability ({can_end.count(False)} of {n} states are like this); "
            "make every state able to reach done(...) or fail()"
        )
