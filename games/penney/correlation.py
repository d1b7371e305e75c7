"""Races through correlations (Conway; Guibas and Odlyzko): an m x m exact system, no automaton.

For words ``X`` and ``Y`` over an alphabet whose symbols have integer weights ``w``
(total ``W``), the *leading number* ``X:Y`` sums ``1 / P(Y[:k])`` over every ``k`` for
which the last ``k`` symbols of ``X`` are the first ``k`` of ``Y`` (Conway's ``2^k``
on a fair coin).  Put a gambler on ``Y`` at every flip; when pattern ``X`` ends the
race, the gamblers still alive hold ``X:Y``, and each paid one stake per flip, so for
patterns none of which contains another (Guibas and Odlyzko):

    sum_j P(A_j wins) * (A_j : A_i) = E[length]   for every i,   sum_j P(A_j wins) = 1.

The code keeps everything in integers: ``w(Y) * (X:Y) = sum_k W^k * w(Y[k:])`` (the
*correlation* below), and the ``(m + 1) x (m + 1)`` system is solved by fraction-free
elimination, with one division per unknown at the end.  Two players use Conway's
closed form of the same system.

A pattern that contains another never wins: the inner one appears no later (and, when
both end on the same flip, the shorter one takes it, as in the automaton).  Such
patterns get chance 0 and are left out of the system; the others then contain none
of each other, which is what the system needs.

>>> race_odds(("HHH", "THH"))
((Fraction(1, 8), Fraction(7, 8)), Fraction(7, 1))
>>> race_odds(("HTH", "T"))
((Fraction(0, 1), Fraction(1, 1)), Fraction(2, 1))
>>> race_odds(("11", "223"), alphabet="123", weights=[1, 2, 3])[0]
(Fraction(3, 10), Fraction(7, 10))
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction

from drawdsl import InvalidArgument
from games.penney.patterns import Weights, check_alphabet, check_patterns, source

__all__ = ["Correlations", "race_odds", "pair_chances", "pair_matrix"]


class Correlations:
    """Integer correlations between patterns over one weighted alphabet, remembered per pattern.

    ``correlation(x, y)`` is ``w(y) * (x:y)``, an integer; ``weight(y)`` is ``w(y)``, the
    product of the symbols' integer weights.  On a fair coin both weights are 1 and the
    correlation is Conway's leading number.

    >>> c = Correlations("HT")
    >>> c.correlation("HHH", "HHH"), c.correlation("THH", "HHH"), c.correlation("HHH", "THH")
    (14, 6, 0)
    >>> Correlations("HT", [2, 1]).correlation("HT", "TH"), Correlations("HT", [2, 1]).weight("TH")
    (6, 2)
    """

    __slots__ = ("alphabet", "_weights", "_total", "_tails", "_powers", "_pairs")

    def __init__(self, alphabet: str = "HT", weights: Weights = None) -> None:
        self.alphabet = check_alphabet(alphabet)
        src = source(self.alphabet, weights)
        # Integer weights with no common factor, so that equal weights give 1 each.
        self._weights = {s: src.weight(s) for s in self.alphabet}
        self._total = sum(self._weights.values())
        self._tails: dict[str, tuple[int, ...]] = {}
        self._powers = [1]
        self._pairs: dict[tuple[str, str], int] = {}  # searches race the same patterns again and again

    def _tail_weights(self, y: str) -> tuple[int, ...]:
        """``w(y[k:])`` for k = 0 .. len(y) (the last is 1)."""
        found = self._tails.get(y)
        if found is None:
            tails = [1]
            for symbol in reversed(y):
                tails.append(tails[-1] * self._weights[symbol])
            found = self._tails[y] = tuple(reversed(tails))
        return found

    def _power(self, k: int) -> int:
        powers = self._powers
        while len(powers) <= k:
            powers.append(powers[-1] * self._total)
        return powers[k]

    def weight(self, y: str) -> int:
        """``w(y)``: the product of the integer weights of ``y``'s symbols."""
        return self._tail_weights(y)[0]

    def correlation(self, x: str, y: str) -> int:
        """``w(y) * (x:y)``: the sum of ``W^k * w(y[k:])`` over the overlaps ``k`` (x ends as y starts)."""
        found = self._pairs.get((x, y))
        if found is not None:
            return found
        tails = self._tail_weights(y)
        total = 0
        for k in range(1, min(len(x), len(y)) + 1):
            if x.endswith(y[:k]):
                total += self._power(k) * tails[k]
        self._pairs[(x, y)] = total
        return total

    def cross_correlations(self, patterns: Sequence[str]) -> dict[str, dict[str, int]]:
        """``correlation(x, y)`` for every ordered pair, as ``{x: {y: c}}`` with the zeros left out.

        Grouping the patterns by their prefixes visits only the overlaps that exist
        (about one per pair on a coin) instead of testing every length for every pair.

        >>> Correlations("HT").cross_correlations(["HH", "HT", "TH"])
        {'HH': {'HH': 6, 'HT': 2}, 'HT': {'TH': 2, 'HT': 4}, 'TH': {'HH': 2, 'HT': 2, 'TH': 4}}
        """
        result: dict[str, dict[str, int]] = {x: {} for x in patterns}
        longest = max(map(len, patterns), default=0)
        for k in range(1, longest + 1):
            weight_k = self._power(k)
            starting: dict[str, list[tuple[str, int]]] = {}
            for y in patterns:
                if len(y) >= k:
                    starting.setdefault(y[:k], []).append((y, weight_k * self._tail_weights(y)[k]))
            for x in patterns:
                if len(x) >= k:
                    found = starting.get(x[-k:])
                    if found:
                        row = result[x]
                        for y, value in found:
                            row[y] = row.get(y, 0) + value
        return result

    def solve(self, patterns: Sequence[str]) -> tuple[tuple[Fraction, ...], Fraction]:
        """Each pattern's chance of appearing first, and the expected length (patterns already checked)."""
        live = [i for i, p in enumerate(patterns) if not any(q != p and q in p for q in patterns)]
        chances = [Fraction(0)] * len(patterns)
        if len(live) == 1:
            (only,) = live
            chances[only] = Fraction(1)
            alone = patterns[only]
            return tuple(chances), Fraction(self.correlation(alone, alone), self.weight(alone))
        if len(live) == 2:
            i, j = live
            a, b = patterns[i], patterns[j]
            wa, wb = self.weight(a), self.weight(b)
            aa, ab = self.correlation(a, a), self.correlation(a, b)
            ba, bb = self.correlation(b, a), self.correlation(b, b)
            # Conway: odds for a are (BB - BA) : (AA - AB), each scaled by w(a) w(b).
            x = bb * wa - ba * wb
            y = aa * wb - ab * wa
            chances[i] = Fraction(x, x + y)
            chances[j] = Fraction(y, x + y)
            return tuple(chances), Fraction(x * aa + y * ba, (x + y) * wa)
        pats = [patterns[i] for i in live]
        m = len(pats)
        # Row i: sum_j q_j corr(A_j, A_i) - E w(A_i) = 0; last row: sum_j q_j = 1.
        rows = [[self.correlation(pats[j], pats[i]) for j in range(m)] + [-self.weight(pats[i]), 0]
                for i in range(m)]
        rows.append([1] * m + [0, 1])
        solution = _solve_integer(rows)
        for position, i in enumerate(live):
            chances[i] = solution[position]
        return tuple(chances), solution[m]


def _solve_integer(rows: list[list[int]]) -> list[Fraction]:
    """Solve the n x (n + 1) augmented integer system by fraction-free Gauss-Jordan (Bareiss).

    After step k every entry is a k x k minor of the matrix, so each division is exact;
    at the end the left side is ``det * I`` and the last column ``det * x``.

    >>> _solve_integer([[2, 1, 5], [1, 3, 10]])
    [Fraction(1, 1), Fraction(3, 1)]
    """
    n = len(rows)
    previous = 1
    for k in range(n):
        pivot = next((r for r in range(k, n) if rows[r][k]), None)
        if pivot is None:
            raise ArithmeticError("the race's linear system is singular")  # cannot happen for valid races
        if pivot != k:
            rows[k], rows[pivot] = rows[pivot], rows[k]
        top = rows[k]
        lead = top[k]
        for r in range(n):
            if r == k:
                continue
            row = rows[r]
            factor = row[k]
            rows[r] = [(lead * v - factor * t) // previous for v, t in zip(row, top, strict=True)]
        previous = lead
    return [Fraction(rows[i][n], rows[i][i]) for i in range(n)]


def race_odds(
    patterns: Iterable[str], alphabet: str = "HT", weights: Weights = None
) -> tuple[tuple[Fraction, ...], Fraction]:
    """Each pattern's exact chance of appearing first, and the exact expected length, by correlations.

    The same numbers as the automaton route (:func:`games.penney.race.race_spec` under
    :func:`drawdsl.chances`); one pattern is allowed (its waiting time).

    >>> race_odds(("HTH", "HHT", "TTH"))
    ((Fraction(3, 16), Fraction(3, 8), Fraction(7, 16)), Fraction(17, 4))
    >>> race_odds(["HTH"])
    ((Fraction(1, 1),), Fraction(10, 1))
    """
    alphabet = check_alphabet(alphabet)
    pats = check_patterns(patterns, alphabet, players=1)
    return Correlations(alphabet, weights).solve(pats)


def pair_chances(
    patterns: Sequence[str], alphabet: str = "HT", weights: Weights = None
) -> dict[tuple[str, str], Fraction]:
    """For every ordered pair ``(a, b)`` of distinct ``patterns``: the chance that ``b`` appears first.

    Each unordered pair is solved once, by Conway's closed form in integers.

    >>> pair_chances(["HH", "HT", "TH"])[("HH", "TH")]
    Fraction(3, 4)
    """
    alphabet = check_alphabet(alphabet)
    pats = check_patterns(patterns, alphabet, players=1)
    if len(set(map(len, pats))) > 1 or len(pats) < 2:
        raise InvalidArgument(
            "pair_chances needs two or more patterns of one length; use race_odds for other races"
        )
    result: dict[tuple[str, str], Fraction] = {}
    for a, row in zip(pats, pair_matrix(pats, Correlations(alphabet, weights)), strict=True):
        for b, p in zip(pats, row, strict=True):
            if p is not None:
                result[(a, b)] = p
    return result


def pair_matrix(patterns: Sequence[str], table: Correlations) -> list[list[Fraction | None]]:
    """``[i][j]``: the chance that ``patterns[j]`` appears before ``patterns[i]`` (None when i == j),
    for distinct checked patterns of one length, each unordered pair solved once.

    >>> pair_matrix(["HH", "TH"], Correlations("HT"))
    [[None, Fraction(3, 4)], [Fraction(1, 4), None]]
    """
    cross = table.cross_correlations(patterns)
    weight = [table.weight(p) for p in patterns]
    rows = [cross[p] for p in patterns]
    n = len(patterns)
    result: list[list[Fraction | None]] = [[None] * n for _ in range(n)]
    for i, a in enumerate(patterns):
        row_a, wa = rows[i], weight[i]
        aa = row_a[a]
        out_a = result[i]
        for j in range(i + 1, n):
            b = patterns[j]
            row_b, wb = rows[j], weight[j]
            x = row_b[b] * wa - row_b.get(a, 0) * wb  # a's odds
            y = aa * wb - row_a.get(b, 0) * wa  # b's odds
            out_a[j] = Fraction(y, x + y)
            result[j][i] = Fraction(x, x + y)
    return result
