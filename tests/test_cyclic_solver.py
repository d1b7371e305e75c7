"""The cyclic solver against the old dense Fraction Gauss-Jordan, brute force and published values.

Random absorbing chains come from hypothesis: each state sends each symbol of a
weighted source to a state or an outcome.  The sparse fraction-free elimination,
with and without lumping, and sympy's rref must give exactly what a dense
Gauss-Jordan over Fractions gives, and what enumerating every draw sequence up to a
depth bounds.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from drawdsl import Weighted, chances, coin, done, fail, loop
from drawdsl.cyclic import _FAILED, _absorb, _check_ends, _done, _Graph, _lump
from drawdsl.errors import EndlessProcess

# A chain: for each state, the target of each symbol: a state index, or an outcome name
# ("x", "y"), or None (a failed path).
Table = list[list[Any]]


def dense_gauss_jordan(table: Table, start: int) -> tuple[dict[Any, Fraction], Fraction]:
    """The old solver: Gauss-Jordan over Fractions on the dense augmented matrix.

    Returns the absorption probabilities from ``start`` (None for failure) and the
    expected number of draws.
    """
    n, total = len(table), len(table[0])
    outcomes = sorted({t for row in table for t in row if not isinstance(t, int)}, key=repr)
    width = len(outcomes) + 1
    rows = [[Fraction(0)] * (n + width) for _ in range(n)]
    for i, row in enumerate(table):
        rows[i][i] += total
        rows[i][n + width - 1] = Fraction(total)
        for t in row:
            if isinstance(t, int):
                rows[i][t] -= 1
            else:
                rows[i][n + outcomes.index(t)] += 1
    for col in range(n):
        pivot = next(r for r in range(col, n) if rows[r][col])
        rows[col], rows[pivot] = rows[pivot], rows[col]
        head = rows[col][col]
        rows[col] = [x / head for x in rows[col]]
        for r in range(n):
            factor = rows[r][col]
            if r != col and factor:
                rows[r] = [x - factor * y for x, y in zip(rows[r], rows[col], strict=True)]
    answer = rows[start][n:]
    return {o: answer[j] for j, o in enumerate(outcomes) if answer[j]}, answer[-1]


def can_end(table: Table) -> bool:
    ends = {i for i, row in enumerate(table) if any(not isinstance(t, int) for t in row)}
    grew = True
    while grew:
        grew = False
        for i, row in enumerate(table):
            if i not in ends and any(t in ends for t in row if isinstance(t, int)):
                ends.add(i)
                grew = True
    return len(ends) == len(table)


def graph_of(table: Table) -> _Graph:
    """The solver's graph for a table: weights summed per target, outcomes as done/fail."""
    graph = _Graph(10**6)
    graph.heads = list(range(len(table)))  # type: ignore[arg-type]
    for row in table:
        edges: dict[Any, int] = {}
        for t in row:
            key = t if isinstance(t, int) else _FAILED if t is None else _done(t)
            edges[key] = edges.get(key, 0) + 1
        graph.edges.append(edges)
    return graph


@st.composite
def chains(draw: st.DrawFn, max_states: int = 7) -> Table:
    n = draw(st.integers(1, max_states))
    symbols = draw(st.integers(2, 4))
    target = st.one_of(st.integers(0, n - 1), st.sampled_from(["x", "y", None]))
    table = draw(st.lists(st.lists(target, min_size=symbols, max_size=symbols), min_size=n, max_size=n))
    return table


@settings(max_examples=300, deadline=None)
@given(chains(), st.data())
def test_every_solver_agrees_with_dense_gauss_jordan(table: Table, data: st.DataObject) -> None:
    start = data.draw(st.integers(0, len(table) - 1))
    graph = graph_of(table)
    if not can_end(table):
        with pytest.raises(EndlessProcess):
            _check_ends(graph, start)
        return
    probs, draws = dense_gauss_jordan(table, start)
    for method, lump in [("sparse", True), ("sparse", False), ("sympy", True)]:
        dist = _absorb(graph_of(table), start, len(table[0]), method, lump)
        assert dist.failure == probs.get(None, 0)
        assert {k: v for k, v in dist.items()} == {k: v for k, v in probs.items() if k is not None}
        assert dist.expected_draws == draws


@settings(max_examples=150, deadline=None)
@given(chains(max_states=5), st.data())
def test_solutions_lie_within_brute_force_bounds(table: Table, data: st.DataObject) -> None:
    """Every draw sequence up to depth 8: the exact answer lies between what is decided by
    then and that plus what is still undecided."""
    if not can_end(table):
        return
    start = data.draw(st.integers(0, len(table) - 1))
    symbols = len(table[0])
    decided: dict[Any, int] = {}
    undecided = 0
    depth = 8
    for word in itertools.product(range(symbols), repeat=depth):
        state: Any = start
        for step, symbol in enumerate(word):
            state = table[state][symbol]
            if not isinstance(state, int):
                # This prefix decides; count each word once, on its shortest deciding prefix.
                if all(s == 0 for s in word[step + 1:]):
                    decided[state] = decided.get(state, 0) + symbols ** (depth - step - 1)
                break
        else:
            undecided += 1
    denominator = symbols**depth
    dist = _absorb(graph_of(table), start, symbols)
    for outcome in ("x", "y", None):
        exact = dist.failure if outcome is None else dist[outcome]
        low = Fraction(decided.get(outcome, 0), denominator)
        assert low <= exact <= low + Fraction(undecided, denominator)


@settings(max_examples=100, deadline=None)
@given(chains(), st.data())
def test_a_table_as_a_loop_spec_agrees_with_dense_gauss_jordan(table: Table, data: st.DataObject) -> None:
    """The whole path: chances collects the graph of a loop spec and solves it."""
    if not can_end(table):
        return
    start = data.draw(st.integers(0, len(table) - 1))
    symbols = len(table[0])

    def step(state: int, symbol: int) -> Any:
        t = table[state][symbol]
        return t if isinstance(t, int) else fail() if t is None else done(t)

    dist = chances(loop(start, step), Weighted(range(symbols)))
    probs, draws = dense_gauss_jordan(table, start)
    assert dist.failure == probs.get(None, 0)
    assert dict(dist.items()) == {k: v for k, v in probs.items() if k is not None}
    assert dist.expected_draws == draws


@settings(max_examples=200, deadline=None)
@given(chains())
def test_lumping_only_merges_states_with_equal_answers(table: Table) -> None:
    if not can_end(table):
        return
    graph = graph_of(table)
    quotient, _ = _lump(graph.edges, 0)
    answers = [dense_gauss_jordan(table, i) for i in range(len(table))]
    blocks = [_lump(graph.edges, i)[1] for i in range(len(table))]
    for i, j in itertools.combinations(range(len(table)), 2):
        if blocks[i] == blocks[j]:
            assert answers[i] == answers[j]
    assert len(quotient) == len(set(blocks))


def test_the_last_three_flips_lump_to_the_pattern_automaton() -> None:
    """HHT v THT on the window of the last three flips: 13 states, 5 once lumped
    ('', H, HH, T/TH-like classes), as many as the pattern automaton."""
    from drawdsl.cyclic import collect_graph

    def step(state: str, side: str) -> Any:
        state = (state + side)[-3:]
        return done(state) if state in ("HHT", "THT") else state

    graph, start = collect_graph(loop("", step), coin(), 100)
    quotient, _ = _lump(graph.edges, start)
    assert len(graph.edges) == 13
    assert len(quotient) < len(graph.edges)
    assert len(quotient) <= 1 + 2 * 2  # the automaton of two length-3 patterns


def _race(*patterns: str) -> Any:
    width = max(map(len, patterns))

    def step(state: str, side: str) -> Any:
        state = (state + side)[-width:]
        for pattern in patterns:
            if state.endswith(pattern):
                return done(pattern)
        return state

    return loop("", step)


@pytest.mark.parametrize(
    ("pattern", "wait"),
    # Expected flips of a fair coin until a pattern (Feller; Graham, Knuth and Patashnik,
    # Concrete Mathematics 8.4): HHHH 30, HTHT 20, HHTT 16, six heads 126, ten heads 2046.
    [("HHHH", 30), ("HTHT", 20), ("HHTT", 16), ("HHHHHH", 126), ("HHHHHHHHHH", 2046)],
)
def test_published_waiting_times(pattern: str, wait: int) -> None:
    assert chances(_race(pattern), coin()).expected_draws == wait


@pytest.mark.parametrize(
    ("first", "reply", "reply_wins"),
    # Penney's game, the best reply to each first choice (Gardner, Scientific American, 1974):
    # odds 7:1 against HHH, 3:1 against HHT, 2:1 against HTH and HTT.
    [("HHH", "THH", Fraction(7, 8)), ("HHT", "THH", Fraction(3, 4)), ("HTH", "HHT", Fraction(2, 3)),
     ("HTT", "HHT", Fraction(2, 3))],
)
def test_penneys_classic_odds(first: str, reply: str, reply_wins: Fraction) -> None:
    assert chances(_race(first, reply), coin())[reply] == reply_wins
