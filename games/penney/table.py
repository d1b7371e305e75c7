"""The table of pairwise odds for one pattern length, its CSV export and its non-transitive cycles.

Each row is one ordered matchup: the first player's pattern, the second player's
pattern, and the exact chance that the second one appears first.  Following best
replies from pattern to pattern always comes back around: those are the
non-transitive cycles (each pattern beats the one before it).

>>> rows = pair_table(3)
>>> len(rows), rows[0]
(56, Matchup('HHH', 'HHT', 1/2))
>>> best_reply_cycles(rows)
[('HHT', 'THH', 'TTH', 'HTT')]
"""

from __future__ import annotations

import csv
import itertools
import os
from collections.abc import Iterable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from fractions import Fraction
from typing import IO

from drawdsl.files import atomic_text
from drawdsl.html import latex_fraction, table
from games.penney.correlation import pair_matrix
from games.penney.patterns import Weights, all_patterns
from games.penney.race import Races

__all__ = ["Matchup", "Matchups", "pair_table", "write_csv", "best_reply_graph", "best_reply_cycles"]

CSV_COLUMNS = ("first", "second", "first_wins", "second_wins", "second_wins_float")
#: How many matchups a notebook shows of a longer table.
HTML_ROWS = 100


@dataclass(frozen=True)
class Matchup:
    r"""One ordered matchup of a two-player race: the chance that ``second`` appears first.

    >>> Matchup("HHH", "THH", Fraction(7, 8)).first_wins
    Fraction(1, 8)

    In Jupyter: a one-row table (HTML), or the second player's chance (LaTeX):

    >>> print(Matchup("HHH", "THH", Fraction(7, 8))._repr_latex_())
    $\text{P(THH before HHH)} = \frac{7}{8} \approx 0.875$
    """

    first: str
    second: str
    second_wins: Fraction

    @property
    def first_wins(self) -> Fraction:
        """The chance that ``first`` appears first (a race has no draws)."""
        return 1 - self.second_wins

    def __repr__(self) -> str:
        return f"Matchup({self.first!r}, {self.second!r}, {self.second_wins})"

    def _repr_html_(self) -> str:
        """The matchup as a one-row HTML table, both chances exact with their decimals."""
        return _matchups_html([self])

    def _repr_latex_(self) -> str:
        """The chance that ``second`` appears first, as one exact fraction with its decimal."""
        return latex_fraction(self.second_wins, f"P({self.second} before {self.first})")


class Matchups(list[Matchup]):
    """The rows of :func:`pair_table`: a list, shown in Jupyter as one table (its first
    :data:`HTML_ROWS` rows when longer).

    >>> html = pair_table(2)._repr_html_()
    >>> html.count("<tr>"), "<td>HH</td><td>TH</td><td>1/4" in html
    (13, True)
    """

    def _repr_html_(self) -> str:
        """One row per matchup: both patterns and both chances."""
        return _matchups_html(self)


def _matchups_html(rows: Sequence[Matchup]) -> str:
    shown: list[list[object]] = [[m.first, m.second, m.first_wins, m.second_wins] for m in rows[:HTML_ROWS]]
    caption = f"{len(rows)} ordered matchup{'s' if len(rows) != 1 else ''}"
    if len(rows) > HTML_ROWS:
        caption += f"; first {HTML_ROWS} shown"
        shown.append(["\u2026"] * 4)
    return table(["first", "second", "P(first wins)", "P(second wins)"], shown, caption=caption)


def pair_table(
    length: int,
    alphabet: str = "HT",
    weights: Weights = None,
    executor: Executor | None = None,
    method: str = "correlation",
) -> Matchups:
    """Every ordered pair of distinct patterns of ``length`` symbols, with exact odds.

    Rows are sorted by first pattern, then second.  Each unordered pair is solved once
    by Conway's formula in integers (:func:`~games.penney.correlation.pair_chances`).
    With ``method="automaton"`` each pair (up to renaming equally likely symbols) is
    raced as a draw program instead; pass an ``executor`` (such as a
    ``concurrent.futures.ProcessPoolExecutor``) to race those in parallel.

    >>> [row for row in pair_table(2) if row.first == "HH"]
    [Matchup('HH', 'HT', 1/2), Matchup('HH', 'TH', 3/4), Matchup('HH', 'TT', 1/2)]
    """
    races = Races(alphabet, weights, method)
    patterns = all_patterns(length, races.alphabet)
    rows = Matchups()
    if races.method == "correlation":
        matrix = pair_matrix(patterns, races.correlations)
        for first, row in zip(patterns, matrix, strict=True):
            pairs = zip(patterns, row, strict=True)
            rows.extend(Matchup(first, second, p) for second, p in pairs if p is not None)
        return rows
    races.solve_all(itertools.combinations(patterns, 2), executor)
    for first in patterns:
        for second in patterns:
            if first != second:
                rows.append(Matchup(first, second, races.odds((first, second)).wins[second]))
    return rows


def write_csv(rows: Iterable[Matchup], file: str | os.PathLike[str] | IO[str]) -> None:
    """Write the rows as CSV: exact ``p/q`` columns and a float column for spreadsheets.

    >>> import io
    >>> out = io.StringIO()
    >>> write_csv([Matchup("HHH", "THH", Fraction(7, 8))], out)
    >>> print(out.getvalue().strip())
    first,second,first_wins,second_wins,second_wins_float
    HHH,THH,1/8,7/8,0.875
    """
    if isinstance(file, (str, os.PathLike)):
        with atomic_text(file) as handle:  # whole or not at all
            write_csv(rows, handle)
        return
    writer = csv.writer(file, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for row in rows:
        writer.writerow([
            row.first,
            row.second,
            _text(row.first_wins),
            _text(row.second_wins),
            repr(float(row.second_wins)),
        ])


def _text(p: Fraction) -> str:
    return f"{p.numerator}/{p.denominator}"


def best_reply_graph(rows: Iterable[Matchup]) -> dict[str, tuple[str, ...]]:
    """For each first pattern, its best replies (the seconds with the highest chance).

    >>> best_reply_graph(pair_table(3))["HHH"]
    ('THH',)
    """
    best: dict[str, tuple[Fraction, list[str]]] = {}
    for row in rows:
        top, replies = best.get(row.first, (Fraction(-1), []))
        if row.second_wins > top:
            best[row.first] = (row.second_wins, [row.second])
        elif row.second_wins == top:
            replies.append(row.second)
    return {first: tuple(replies) for first, (_, replies) in best.items()}


def best_reply_cycles(rows: Iterable[Matchup] | dict[str, tuple[str, ...]]) -> list[tuple[str, ...]]:
    """Every cycle of best replies: each pattern is a best reply to the one before it.

    Each cycle is listed once, starting from its smallest pattern; a cycle is
    non-transitive (A loses to B, B to C, ..., and the last to A) whenever every
    step wins with probability above 1/2.

    >>> best_reply_cycles({"a": ("b",), "b": ("c", "a"), "c": ("a",)})
    [('a', 'b'), ('a', 'b', 'c')]
    """
    graph = rows if isinstance(rows, dict) else best_reply_graph(rows)
    cycles: list[tuple[str, ...]] = []
    for start in sorted(graph):
        # Paths through nodes larger than start only, so each cycle is found from its minimum.
        stack: list[tuple[str, Sequence[str]]] = [(start, (start,))]
        while stack:
            node, path = stack.pop()
            for nxt in graph.get(node, ()):
                if nxt == start:
                    cycles.append(tuple(path))
                elif nxt > start and nxt not in path:
                    stack.append((nxt, (*path, nxt)))
    return sorted(cycles, key=lambda c: (len(c), c))

