"""Equilibria of Penney's game: pure Nash profiles (or the best-reply cycles instead), and the
two-player zero-sum game's value and an optimal mixed strategy (an exact linear program).

Each of ``players`` players picks a different pattern of ``length`` symbols; a
player's payoff is their chance of appearing first.  The payoff depends on the player's
own pattern and the *set* of the others' patterns only, so profiles are listed as sets.
A profile is a pure Nash equilibrium when no player gains by switching to a pattern
nobody else holds.  When there is none, best replies go round: following them from
any profile ends in a cycle, listed here once per trap of the best-reply dynamics.

>>> found = pure_equilibria(2, 3)
>>> found.equilibria
()
>>> found.cycles
((('HHT', 'HTT'), ('HHT', 'THH'), ('THH', 'TTH'), ('HTT', 'TTH')),)
>>> pure_equilibria(2, 2).equilibria
(('HT', 'TH'),)

Played simultaneously by two players, the game is zero-sum (one wins what the other
loses; the same pattern twice is a draw, worth 1/2 each).  It is symmetric, so its value
is 1/2; the linear program finds a mixed strategy that guarantees it:

>>> game = zero_sum(3)
>>> game.value, game.strategy
(Fraction(1, 2), {'HTH': Fraction(2, 9), 'HTT': Fraction(17, 45), 'THH': Fraction(2, 5)})
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction

import sympy

from drawdsl import InvalidArgument
from games.penney.correlation import Correlations, pair_chances
from games.penney.patterns import Weights, all_patterns, check_alphabet

__all__ = ["Equilibria", "pure_equilibria", "ZeroSum", "zero_sum", "payoff_matrix"]

Profile = tuple[str, ...]


@dataclass(frozen=True)
class Equilibria:
    """The pure Nash equilibria (as sorted sets of patterns) and one best-reply cycle per trap.

    ``cycles`` lists, for every set of profiles that best-reply moves enter and never
    leave (beyond a single equilibrium), one cycle of profiles inside it: each profile
    follows from the one before by one player switching to a best reply (and the last
    leads back to the first).
    """

    players: int
    length: int
    equilibria: tuple[Profile, ...]
    cycles: tuple[tuple[Profile, ...], ...]
    #: each profile's payoffs: pattern -> chance of appearing first
    payoffs: dict[Profile, dict[str, Fraction]]


def _check_players_and_length(players: int, length: int, alphabet: str) -> int:
    for name, value in (("players", players), ("length", length)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"{name} must be an int, got {value!r}")
    if players < 2:
        raise InvalidArgument(f"players must be at least 2, got {players}")
    words: int = len(alphabet) ** length
    if words < players:
        raise InvalidArgument(
            f"{players} players need {players} different patterns; length {length} over {alphabet!r} "
            f"has only {words}; choose a longer length"
        )
    return words


def pure_equilibria(
    players: int = 2, length: int = 3, alphabet: str = "HT", weights: Weights = None
) -> Equilibria:
    """Every pure Nash equilibrium of ``players`` players choosing patterns of ``length``, or the
    best-reply cycles when there is none (every set of distinct patterns is raced once).

    >>> three = pure_equilibria(3, 2)
    >>> three.equilibria, three.cycles[0][:2]
    ((), (('HH', 'HT', 'TH'), ('HH', 'TH', 'TT')))
    """
    alphabet = check_alphabet(alphabet)
    _check_players_and_length(players, length, alphabet)
    words = all_patterns(length, alphabet)
    table = Correlations(alphabet, weights)
    payoffs: dict[Profile, dict[str, Fraction]] = {}
    for profile in itertools.combinations(words, players):
        payoffs[profile] = dict(zip(profile, table.solve(profile)[0], strict=True))

    replies: dict[Profile, tuple[Fraction, tuple[str, ...]]] = {}

    def best_reply(others: Profile) -> tuple[Fraction, tuple[str, ...]]:
        """The best chance against ``others`` and every pattern reaching it."""
        found = replies.get(others)
        if found is None:
            chance = {b: payoffs[tuple(sorted((*others, b)))][b] for b in words if b not in others}
            top = max(chance.values())
            found = replies[others] = (top, tuple(b for b, p in chance.items() if p == top))
        return found

    moves: dict[Profile, list[Profile]] = {}
    for profile, chances in payoffs.items():
        out: list[Profile] = []
        for a in profile:
            others = tuple(p for p in profile if p != a)
            top, best = best_reply(others)
            if chances[a] < top:
                out.extend(tuple(sorted((*others, b))) for b in best)
        moves[profile] = sorted(set(out))
    equilibria = tuple(p for p, out in moves.items() if not out)
    cycles = tuple(_one_cycle(trap, moves) for trap in _traps(moves) if len(trap) > 1)
    return Equilibria(players, length, equilibria, tuple(sorted(cycles, key=lambda c: (len(c), c))), payoffs)


def _traps(moves: dict[Profile, list[Profile]]) -> Iterator[set[Profile]]:
    """The strongly connected components with no move out of them (Tarjan's algorithm, iterative)."""
    index: dict[Profile, int] = {}
    low: dict[Profile, int] = {}
    on_stack: set[Profile] = set()
    stack: list[Profile] = []
    components: list[set[Profile]] = []
    for root in moves:
        if root in index:
            continue
        work = [(root, iter(moves[root]))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, edges = work[-1]
            nxt = next(edges, None)
            if nxt is not None:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(moves[nxt])))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                components.append(component)
    for component in components:
        if all(to in component for node in component for to in moves[node]):
            yield component


def _one_cycle(trap: set[Profile], moves: dict[Profile, list[Profile]]) -> tuple[Profile, ...]:
    """A cycle inside ``trap``: from its smallest profile, always take the smallest move, until a
    profile repeats; the cycle is what lies between the two visits, rotated to start at its minimum."""
    path: list[Profile] = []
    seen: dict[Profile, int] = {}
    node = min(trap)
    while node not in seen:
        seen[node] = len(path)
        path.append(node)
        node = min(moves[node])
    cycle = path[seen[node]:]
    start = cycle.index(min(cycle))
    return tuple(cycle[start:] + cycle[:start])


@dataclass(frozen=True)
class ZeroSum:
    """The value of the two-player game for the row player, and optimal mixed strategies for both
    (patterns with positive probability only).

    Each strategy guarantees the value exactly: the row strategy wins at least ``value``
    against every column pattern, the column strategy concedes at most ``value``.
    """

    value: Fraction
    strategy: dict[str, Fraction]
    column_strategy: dict[str, Fraction]
    rows: tuple[str, ...]
    columns: tuple[str, ...]
    payoff: tuple[tuple[Fraction, ...], ...]


def payoff_matrix(
    length: int = 3, alphabet: str = "HT", weights: Weights = None, column_length: int | None = None
) -> tuple[tuple[str, ...], tuple[str, ...], tuple[tuple[Fraction, ...], ...]]:
    """The row player's chance of appearing first, for every row and column pattern (a draw,
    worth 1/2, on the diagonal).

    >>> rows, columns, payoff = payoff_matrix(2)
    >>> payoff[rows.index("HH")][columns.index("TH")]
    Fraction(1, 4)
    """
    alphabet = check_alphabet(alphabet)
    _check_players_and_length(2, length, alphabet)
    other = length if column_length is None else column_length
    if isinstance(other, bool) or not isinstance(other, int):
        raise TypeError(f"column_length must be an int, got {other!r}")
    if other < 1:
        raise InvalidArgument(f"column_length must be >= 1, got {other}")
    rows, columns = tuple(all_patterns(length, alphabet)), tuple(all_patterns(other, alphabet))
    if other == length:
        chance = pair_chances(rows, alphabet, weights)
        payoff = tuple(tuple(Fraction(1, 2) if a == b else chance[(b, a)] for b in columns) for a in rows)
    else:
        table = Correlations(alphabet, weights)
        payoff = tuple(tuple(table.solve((a, b))[0][0] for b in columns) for a in rows)
    return rows, columns, payoff


def _optimal_mix(payoff: tuple[tuple[Fraction, ...], ...]) -> tuple[Fraction, list[Fraction]]:
    """max over mixes x of min over columns of x . payoff[:, j], by sympy's exact simplex."""
    from sympy.solvers.simplex import linprog  # sympy's exact LP (rational pivots)

    n, k = len(payoff), len(payoff[0])
    # Variables x_1..x_n >= 0 and v (free); minimise -v subject to v - sum_i x_i payoff[i][j] <= 0.
    rational = [[sympy.Rational(p.numerator, p.denominator) for p in row] for row in payoff]
    c = sympy.Matrix([[0] * n + [-1]])
    a = sympy.Matrix([[-rational[i][j] for i in range(n)] + [1] for j in range(k)])
    b = sympy.zeros(k, 1)
    a_eq = sympy.Matrix([[1] * n + [0]])
    b_eq = sympy.Matrix([1])
    optimum, solution = linprog(c, a, b, a_eq, b_eq, bounds={n: (None, None)})
    mix = [Fraction(int(sympy.fraction(x)[0]), int(sympy.fraction(x)[1])) for x in solution[:n]]
    value = -optimum
    return Fraction(int(sympy.fraction(value)[0]), int(sympy.fraction(value)[1])), mix


def zero_sum(
    length: int = 3, alphabet: str = "HT", weights: Weights = None, column_length: int | None = None
) -> ZeroSum:
    """The two-player simultaneous game over all patterns of ``length`` (the column player's of
    ``column_length``, by default the same): its value and optimal mixed strategies, exactly.

    >>> game = zero_sum(1, column_length=2)
    >>> game.value, game.strategy, game.column_strategy
    (Fraction(7, 8), {'H': Fraction(1, 2), 'T': Fraction(1, 2)}, {'HH': Fraction(1, 2), 'TT': Fraction(1, 2)})
    """
    rows, columns, payoff = payoff_matrix(length, alphabet, weights, column_length)
    value, mix = _optimal_mix(payoff)
    # The column player maximises their own chance 1 - payoff, over the transposed matrix.
    flipped = tuple(tuple(1 - payoff[i][j] for i in range(len(rows))) for j in range(len(columns)))
    column_value, column_mix = _optimal_mix(flipped)
    assert column_value == 1 - value  # the minimax theorem, exactly
    return ZeroSum(
        value,
        {p: x for p, x in zip(rows, mix, strict=True) if x},
        {p: x for p, x in zip(columns, column_mix, strict=True) if x},
        rows,
        columns,
        payoff,
    )
