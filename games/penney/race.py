"""Penney's race: flip (or roll) until one of the patterns appears; exact odds and length.

The race is a :func:`~drawdsl.loop` whose state is the automaton state of
:class:`~games.penney.patterns.Automaton`, run on a with-replacement source.  Its
state graph is cyclic, so :func:`~drawdsl.chances` solves it as an absorbing Markov
chain: the win probabilities are exact fractions, and the distribution's
``expected_draws`` is the exact expected number of flips.  That draw program is the
definition and the reference; :func:`odds` answers by default from the patterns'
correlations (:mod:`games.penney.correlation`), an m x m system instead of the
automaton's, and the tests compare the two exactly.

>>> odds("HHH", "THH")
Odds({'HHH': 1/8, 'THH': 7/8}, expected_length=7)
>>> odds("HT", "TH", alphabet="HT", weights=[2, 1]).wins["HT"]
Fraction(2, 3)
>>> length_distribution("HH", "TT", horizon=3)
Distribution({2: 1/2, 3: 1/4}, failure=1/4)
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from drawdsl import Distribution, InvalidArgument, Spec, Weighted, chances, done, fail, loop
from drawdsl.html import table, text
from games.penney.correlation import Correlations
from games.penney.patterns import Automaton, Weights, check_alphabet, check_patterns, source

__all__ = [
    "METHODS",
    "Odds",
    "Races",
    "race_spec",
    "timed_race_spec",
    "odds",
    "length_distribution",
    "odds_text",
]


#: How a race is solved: from the patterns' correlations (fast), or the draw program
#: over the automaton under :func:`~drawdsl.chances` (the reference).
METHODS = ("correlation", "automaton")


def check_method(method: str) -> str:
    """``method`` if it is one of :data:`METHODS`.

    >>> check_method("automata")
    Traceback (most recent call last):
    ...
    drawdsl.errors.InvalidArgument: method 'automata' is not one of 'correlation', 'automaton'
    """
    if method not in METHODS:
        raise InvalidArgument(f"method {method!r} is not one of {', '.join(map(repr, METHODS))}")
    return method


class _RaceStep:
    """Loop step: the automaton's next state, or ``done(pattern)`` when a pattern appears."""

    __slots__ = ("_moves",)

    def __init__(self, machine: Automaton) -> None:
        self._moves: dict[str, dict[str, Any]] = {
            state: {
                symbol: done(machine.patterns[to]) if isinstance(to, int) else to
                for symbol, to in machine.row(state).items()
            }
            for state in machine.states
        }

    def __call__(self, state: str, symbol: str) -> Any:
        return self._moves[state][symbol]


class _TimedStep:
    """Loop step with a clock: finish with ``(pattern, flips)``, fail at the horizon."""

    __slots__ = ("_machine", "_horizon")

    def __init__(self, machine: Automaton, horizon: int) -> None:
        self._machine = machine
        self._horizon = horizon

    def __call__(self, state: tuple[str, int], symbol: str) -> Any:
        where, flips = state
        flips += 1
        to = self._machine.move(where, symbol)
        if isinstance(to, int):
            return done((self._machine.patterns[to], flips))
        if flips == self._horizon:
            return fail()
        return (to, flips)


def race_spec(patterns: Iterable[str], alphabet: str = "HT") -> Spec[str]:
    """The draw program: read symbols until a pattern appears; finish with that pattern.

    One pattern is allowed (its waiting time).

    >>> from drawdsl import chances, coin
    >>> chances(race_spec(["HTH"]), coin()).expected_draws
    Fraction(10, 1)
    """
    alphabet = check_alphabet(alphabet)
    pats = check_patterns(patterns, alphabet, players=1)
    return loop("", _RaceStep(Automaton(pats, alphabet)))


def timed_race_spec(patterns: Iterable[str], horizon: int, alphabet: str = "HT") -> Spec[tuple[str, int]]:
    """The race cut off after ``horizon`` symbols: finish with ``(winner, flips)``, else fail.

    >>> from drawdsl import chances, coin
    >>> chances(timed_race_spec(["H", "TT"], 2), coin())
    Distribution({('H', 1): 1/2, ('H', 2): 1/4, ('TT', 2): 1/4})
    """
    alphabet = check_alphabet(alphabet)
    pats = check_patterns(patterns, alphabet, players=1)
    if isinstance(horizon, bool) or not isinstance(horizon, int):
        raise TypeError(f"horizon must be an int, got {horizon!r}")
    if horizon < 1:
        raise InvalidArgument(f"horizon must be a positive number of flips, got {horizon}")
    return loop(("", 0), _TimedStep(Automaton(pats, alphabet), horizon))


def odds_text(p: Fraction) -> str:
    """A win probability as odds for:against in lowest terms, as in "7:1".

    >>> odds_text(Fraction(7, 8)), odds_text(Fraction(2, 3)), odds_text(Fraction(1, 2))
    ('7:1', '2:1', '1:1')
    """
    against = 1 - p
    if not against:
        return "1:0"
    ratio = Fraction(p) / against
    return f"{ratio.numerator}:{ratio.denominator}"


@dataclass(frozen=True)
class Odds:
    """The exact result of a race: each pattern's chance of appearing first, and the mean length.

    >>> result = odds("HTH", "HHT")
    >>> result.wins["HHT"], result.expected_length
    (Fraction(2, 3), Fraction(6, 1))

    In Jupyter it shows as a table of exact chances with their decimals and odds:

    >>> print(result._repr_html_())  # doctest: +ELLIPSIS
    <table><caption>race: 6 flips expected</caption><thead>...<th>P(first)</th><th>odds</th>...
    <tr><td>HTH</td><td>1/3 <small>(&asymp; 0.333333)</small></td><td>1:2</td></tr>
    <tr><td>HHT</td><td>2/3 <small>(&asymp; 0.666667)</small></td><td>2:1</td></tr></tbody></table>
    """

    wins: dict[str, Fraction]
    expected_length: Fraction

    def __repr__(self) -> str:
        body = ", ".join(f"{pattern!r}: {p}" for pattern, p in self.wins.items())
        return f"Odds({{{body}}}, expected_length={self.expected_length})"

    def _repr_html_(self) -> str:
        """Each pattern's chance of appearing first (exact, with its decimal) and odds; the
        expected length in the caption."""
        rows = [[pattern, p, odds_text(p)] for pattern, p in self.wins.items()]
        caption = f"race: {text(self.expected_length)} flips expected"
        return table(["pattern", "P(first)", "odds"], rows, caption=caption)


class Races:
    """Races over one alphabet and weighting; on the automaton route, each solved once up to a renaming.

    Renaming equally weighted symbols (H <-> T on a fair coin) or reordering the
    players does not change a race, so the automaton route remembers results under a
    canonical form: a table or a best-reply search solves each race shape only once.
    The correlation route (the default) solves a race faster than it finds its
    canonical form, so it solves every race it is asked.

    >>> races = Races("HT", method="automaton")
    >>> races.odds(("HHT", "THH")).wins, races.odds(("TTH", "HTT")).wins
    ({'HHT': Fraction(1, 4), 'THH': Fraction(3, 4)}, {'TTH': Fraction(1, 4), 'HTT': Fraction(3, 4)})
    >>> races.solved
    1
    """

    def __init__(self, alphabet: str = "HT", weights: Weights = None, method: str = "correlation") -> None:
        self.alphabet = check_alphabet(alphabet)
        self.method = check_method(method)
        self.source: Weighted[str] = source(self.alphabet, weights)
        self.correlations = Correlations(self.alphabet, weights)
        classes: dict[int, list[str]] = {}
        for symbol in self.alphabet:
            classes.setdefault(self.source.weight(symbol), []).append(symbol)
        # symbol -> the symbols of equal weight, in alphabet order
        self._class_of = {s: classes[self.source.weight(s)] for s in self.alphabet}
        self._memo: dict[tuple[str, ...], tuple[tuple[Fraction, ...], Fraction]] = {}
        self.solved = 0

    def _relabel(self, patterns: Sequence[str]) -> tuple[str, ...]:
        """Rename symbols in order of first appearance to the first free symbol of their class."""
        names: dict[str, str] = {}
        used: dict[int, int] = {}  # weight -> how many symbols of that weight are named
        for symbol in "".join(patterns):
            if symbol not in names:
                weight = self.source.weight(symbol)
                k = used.get(weight, 0)
                names[symbol] = self._class_of[symbol][k]
                used[weight] = k + 1
        return tuple("".join(names[s] for s in p) for p in patterns)

    def _canonical(self, patterns: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[int, ...]]:
        """The canonical race and, for each of its players, the index of the original player."""
        orders: Iterable[tuple[int, ...]]
        if len(patterns) <= 4:
            orders = itertools.permutations(range(len(patterns)))
        else:
            orders = [tuple(sorted(range(len(patterns)), key=lambda i: patterns[i]))]
        best: tuple[tuple[str, ...], tuple[int, ...]] | None = None
        for order in orders:
            form = self._relabel([patterns[i] for i in order])
            if best is None or form < best[0]:
                best = (form, order)
        assert best is not None
        return best

    def solve_all(self, races: Iterable[Sequence[str]], executor: Executor | None = None) -> None:
        """Solve every race not solved yet, each shape once (through ``executor`` when given).

        >>> races = Races("HT", method="automaton")
        >>> races.solve_all([("HH", "HT"), ("TT", "TH"), ("HT", "TH")])
        >>> races.solved
        2
        """
        if self.method == "correlation":
            return  # each race is solved when asked: cheaper than looking it up
        forms = {self._canonical(check_patterns(p, self.alphabet))[0] for p in races}
        todo = sorted(forms - set(self._memo))
        n = len(todo)
        results: Iterable[tuple[tuple[Fraction, ...], Fraction]]
        if executor is None:
            results = (_solve(form, self.alphabet, self.source) for form in todo)
        else:
            results = executor.map(_solve, todo, [self.alphabet] * n, [self.source] * n)
        for form, found in zip(todo, results, strict=True):
            self._memo[form] = found
            self.solved += 1

    def odds(self, patterns: Sequence[str]) -> Odds:
        """The exact odds of a race between ``patterns`` (checked; at least two)."""
        pats = check_patterns(patterns, self.alphabet)
        if self.method == "correlation":
            self.solved += 1
            chances_, expected = self.correlations.solve(pats)
            return Odds(dict(zip(pats, chances_, strict=True)), expected)
        form, order = self._canonical(pats)
        found = self._memo.get(form)
        if found is None:
            found = self._memo[form] = _solve(form, self.alphabet, self.source)
            self.solved += 1
        probs, length = found
        wins = dict.fromkeys(pats, Fraction(0))
        for position, original in enumerate(order):
            wins[pats[original]] = probs[position]
        return Odds(wins, length)


def _solve(
    form: tuple[str, ...], alphabet: str, source: Weighted[str]
) -> tuple[tuple[Fraction, ...], Fraction]:
    """Each pattern's chance and the expected length of one race (top-level, so picklable)."""
    dist = chances(race_spec(form, alphabet), source)
    return tuple(dist[p] for p in form), dist.expected_draws or Fraction(0)


def odds(*patterns: str, alphabet: str = "HT", weights: Weights = None, method: str = "correlation") -> Odds:
    """The exact chance that each pattern appears first, and the exact expected number of flips.

    A pattern that contains another one never wins (probability 0): the inner pattern
    appears no later.  Naming a pattern twice is an error.  ``method="automaton"``
    evaluates the draw program instead of the correlation system (same answers, slower).

    >>> odds("HTH", "HHT", "TTH")
    Odds({'HTH': 3/16, 'HHT': 3/8, 'TTH': 7/16}, expected_length=17/4)
    >>> odds("1", "23", alphabet="123")
    Odds({'1': 3/4, '23': 1/4}, expected_length=9/4)
    """
    return Races(alphabet, weights, method).odds(patterns)


def length_distribution(
    *patterns: str, horizon: int, alphabet: str = "HT", weights: Weights = None
) -> Distribution[int]:
    """The exact distribution of the race's length up to ``horizon`` flips.

    The mass of the games still running after ``horizon`` flips is the distribution's
    ``failure``; use :func:`timed_race_spec` to keep the winner as well.

    >>> dist = length_distribution("HHT", "THH", horizon=4)
    >>> dist
    Distribution({3: 1/4, 4: 3/16}, failure=9/16)
    """
    alphabet = check_alphabet(alphabet)
    pats = check_patterns(patterns, alphabet)
    spec = timed_race_spec(pats, horizon, alphabet)
    dist = chances(spec, source(alphabet, weights), max_draws=horizon)
    return dist.map(lambda outcome: outcome[1])
