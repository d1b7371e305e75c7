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
from games.penney.patterns import Weights, all_patterns
from games.penney.race import Races

__all__ = ["Matchup", "pair_table", "write_csv", "best_reply_graph", "best_reply_cycles"]

CSV_COLUMNS = ("first", "second", "first_wins", "second_wins", "second_wins_float")


@dataclass(frozen=True)
class Matchup:
    """One ordered matchup of a two-player race: the chance that ``second`` appears first.

    >>> Matchup("HHH", "THH", Fraction(7, 8)).first_wins
    Fraction(1, 8)
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


def pair_table(
    length: int, alphabet: str = "HT", weights: Weights = None, executor: Executor | None = None
) -> list[Matchup]:
    """Every ordered pair of distinct patterns of ``length`` symbols, with exact odds.

    Rows are sorted by first pattern, then second.  Each unordered pair (up to renaming
    equally likely symbols) is raced once; pass an ``executor`` (such as a
    ``concurrent.futures.ProcessPoolExecutor``) to race them in parallel.

    >>> [row for row in pair_table(2) if row.first == "HH"]
    [Matchup('HH', 'HT', 1/2), Matchup('HH', 'TH', 3/4), Matchup('HH', 'TT', 1/2)]
    """
    races = Races(alphabet, weights)
    patterns = all_patterns(length, races.alphabet)
    races.solve_all(itertools.combinations(patterns, 2), executor)
    rows = []
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

