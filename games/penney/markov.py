"""The Markov-chain view of a race: the transition matrix over pattern states, exact or in floats.

The states are the automaton's (:class:`~games.penney.patterns.Automaton`): the
longest suffix read that is a proper prefix of a pattern, ``""`` at the start; one
absorbing state per pattern follows them.  The matrix is in canonical form
``[[Q, R], [0, I]]``: ``Q`` between the transient states, ``R`` into the patterns.

The Markov-chain notebook raises the matrix to a large power in floats and reads the
start row; the absorbing-chain algebra gives the same limit exactly:
``B = (I - Q)^-1 R`` (each pattern's chance from each state) and ``t = (I - Q)^-1 1``
(the expected number of symbols still to come).  :func:`~games.penney.race.odds`
answers from the correlations instead (an m x m system); the tests check all three.

>>> chain = markov_chain(["HHH", "THH"])
>>> chain.states, chain.patterns
(('', 'H', 'HH', 'T', 'TH'), ('HHH', 'THH'))
>>> chain.matrix()[0, :]
Matrix([[0, 1/2, 0, 1/2, 0, 0, 0]])
>>> chain.absorption()[0, :], chain.expected_steps()[0]
(Matrix([[1/8, 7/8]]), 7)
>>> chain.matrix("numpy").shape
(7, 7)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import sympy

from drawdsl import InvalidArgument
from games.penney.patterns import Automaton, Weights, check_alphabet, check_patterns, source

__all__ = ["Chain", "markov_chain"]


@dataclass(frozen=True)
class Chain:
    """An absorbing Markov chain of a race: transient ``states``, then one absorbing state per pattern.

    ``moves[i]`` maps each next index (a state, or ``len(states) + k`` for pattern
    ``k``) to its exact probability from state ``i``.
    """

    states: tuple[str, ...]
    patterns: tuple[str, ...]
    moves: tuple[dict[int, Fraction], ...]

    def matrix(self, kind: str = "sympy") -> Any:
        """The full transition matrix ``[[Q, R], [0, I]]``: a sympy ``Matrix`` of exact
        rationals (``kind="sympy"``) or a NumPy float array (``kind="numpy"``)."""
        n, m = len(self.states), len(self.patterns)
        size = n + m
        if kind == "sympy":
            entries = {(i, j): sympy.Rational(p.numerator, p.denominator)
                       for i, row in enumerate(self.moves) for j, p in row.items()}
            entries.update({(n + k, n + k): sympy.Integer(1) for k in range(m)})
            return sympy.Matrix(size, size, lambda i, j: entries.get((i, j), 0))
        if kind == "numpy":
            import numpy as np

            array = np.zeros((size, size))
            for i, row in enumerate(self.moves):
                for j, p in row.items():
                    array[i, j] = float(p)
            for k in range(m):
                array[n + k, n + k] = 1.0
            return array
        raise InvalidArgument(f"kind must be 'sympy' (exact) or 'numpy' (floats), got {kind!r}")

    def _fundamental_solve(self, right: sympy.Matrix) -> sympy.Matrix:
        n = len(self.states)
        full = self.matrix()
        q = full[:n, :n]
        return (sympy.eye(n) - q).LUsolve(right)

    def absorption(self) -> sympy.Matrix:
        """``B = (I - Q)^-1 R``, exact: row ``i`` is each pattern's chance of winning from state ``i``."""
        n = len(self.states)
        return self._fundamental_solve(self.matrix()[:n, n:])

    def expected_steps(self) -> sympy.Matrix:
        """``t = (I - Q)^-1 1``, exact: the expected number of symbols still to come from each state."""
        return self._fundamental_solve(sympy.ones(len(self.states), 1))

    def power(self, steps: int) -> Any:
        """The float matrix to the power ``steps`` (NumPy), as the notebook computes it: the start
        row's last columns approach the patterns' chances as ``steps`` grows.

        >>> [round(float(p), 6) for p in markov_chain(["HHH", "THH"]).power(256)[0, -2:]]
        [0.125, 0.875]
        """
        import numpy as np

        return np.linalg.matrix_power(self.matrix("numpy"), steps)


def markov_chain(patterns: Iterable[str], alphabet: str = "HT", weights: Weights = None) -> Chain:
    """The absorbing chain of a race between ``patterns`` (one or more), start state first.

    A pattern that contains another keeps its absorbing state, which nothing reaches.

    >>> markov_chain(["1", "22"], alphabet="123", weights=[1, 1, 2]).moves[0]
    {2: Fraction(1, 4), 1: Fraction(1, 4), 0: Fraction(1, 2)}
    """
    alphabet = check_alphabet(alphabet)
    pats = check_patterns(patterns, alphabet, players=1)
    src = source(alphabet, weights)
    machine = Automaton(pats, alphabet)
    states = machine.states
    index = {s: i for i, s in enumerate(states)}
    n = len(states)
    moves = []
    for state in states:
        row: dict[int, Fraction] = {}
        for symbol, to in machine.row(state).items():
            j = n + to if isinstance(to, int) else index[to]
            row[j] = row.get(j, Fraction(0)) + src.probability(symbol)
        moves.append(row)
    return Chain(states, pats, tuple(moves))
