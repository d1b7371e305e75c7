"""Monte Carlo for the real deck: a per-game table, summaries with confidence intervals.

Deals come in blocks of :data:`BLOCK` games; block ``b`` is drawn from
``numpy.random.SeedSequence(seed, spawn_key=(b,))``, so game ``i`` of a run depends
only on ``seed`` and ``i``: not on how the work is split, nor on the number of
workers (any :class:`concurrent.futures.Executor`: a ``ProcessPoolExecutor``, or a
Dask ``Client.get_executor()`` to go past one machine).

>>> table = simulate(300, "standard", seed=1)
>>> len(table), table.columns[:4]
(300, ('game', 'winner', 'battles', 'plays'))
>>> table == simulate(300, "standard", seed=1, chunk=100)
True
>>> summary = table.summary()
>>> 0.3 < summary.p_first_wins.value < 0.7
True
"""

from __future__ import annotations

import csv
import importlib.util
import io
import itertools
import math
import statistics
import sys
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor, Future
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from drawdsl import InvalidArgument
from drawdsl.errors import add_note
from drawdsl.estimates import Estimate, mean_interval, proportion
from drawdsl.extras import require
from drawdsl.files import atomic_text
from drawdsl.html import table as html_table
from games.war.engine import play_game
from games.war.rules import OUTCOMES, Rules, as_rules

__all__ = [
    "BLOCK",
    "GameTable",
    "Estimate",
    "Summary",
    "Group",
    "Groups",
    "simulate",
    "deal_block",
    "ENGINES",
]

#: Games per block of deals (one seed per block).
BLOCK = 1024

#: How many rows of a :class:`GameTable` its notebook display shows.
HEAD = 5

#: Summary fields, in display order, with their labels in notebooks.
_LABELS = {
    "p_first_wins": "P(A wins)",
    "p_second_wins": "P(B wins)",
    "p_tie": "P(tie)",
    "p_cycle": "P(endless)",
    "p_capped": "P(capped)",
    "mean_battles": "mean battles",
    "median_battles": "median battles",
    "mean_plays": "mean plays",
    "mean_wars": "mean wars",
}


def _np() -> Any:
    return require("numpy", "sim", "simulating War")


def deal_block(seed: int, block: int, ranks: int = 13, suits: int = 4) -> Any:
    """The ``BLOCK`` shuffled decks of block ``block`` (rows), and one seed per game
    (for shuffled returns): a function of ``(seed, block)`` only.

    >>> decks, seeds = deal_block(7, 0, ranks=2, suits=2)
    >>> decks.shape, sorted(decks[0].tolist())
    ((1024, 4), [2, 2, 3, 3])
    """
    np = _np()
    rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(block,)))
    deck = np.repeat(np.arange(2, ranks + 2, dtype=np.int64), suits)
    decks = rng.permuted(np.tile(deck, (BLOCK, 1)), axis=1)
    seeds = rng.integers(0, 2**63 - 1, size=BLOCK, dtype=np.int64)
    return decks, seeds


def _play_chunk(seed: int, first: int, count: int, rules: Rules, ranks: int, suits: int,
                trace: bool, engine: str) -> dict[str, Any]:
    """Games ``first .. first+count-1`` of a run (``first`` is a multiple of BLOCK)."""
    np = _np()
    blocks = range(first // BLOCK, (first + count + BLOCK - 1) // BLOCK)
    parts = [deal_block(seed, b, ranks, suits) for b in blocks]
    decks = np.concatenate([d for d, _ in parts])[:count]
    seeds = np.concatenate([s for _, s in parts])[:count]
    top = ranks + 1
    out: dict[str, Any] = {}
    if engine in ("compiled", "numpy"):
        if engine == "compiled":
            from games.war.compiled import play_deals

            records = play_deals(decks, rules, top=top, trace=trace, seeds=seeds)
        else:
            from games.war.batch import play_batch

            records = play_batch(decks, rules, top=top, trace=trace, seeds=seeds)
        out.update(winner=records.winner, battles=records.battles, plays=records.plays, wars=records.wars,
                   traces=records.traces)
    else:
        games = [play_game(row[0::2], row[1::2], rules, seed=int(s), top=top, trace=trace)
                 for row, s in zip(decks.tolist(), seeds.tolist(), strict=False)]
        out.update(
            winner=np.array([OUTCOMES.index(g.winner) for g in games], dtype=np.int8),
            battles=np.array([g.battles for g in games], dtype=np.int64),
            plays=np.array([g.plays for g in games], dtype=np.int64),
            wars=np.array([g.wars for g in games], dtype=np.int64),
            traces=[np.array(g.trace, dtype=np.uint16) for g in games] if trace else None,
        )
    hands = decks[:, 0::2]
    out["strength"] = hands.sum(axis=1)
    out["aces"] = (hands == top).sum(axis=1)
    out["deuces"] = (hands == 2).sum(axis=1)
    return out


def _z(confidence: float) -> float:
    if not 0 < confidence < 1:
        raise InvalidArgument(f"confidence must be between 0 and 1, got {confidence}")
    return statistics.NormalDist().inv_cdf(0.5 + confidence / 2)


def _wilson(hits: int, n: int, confidence: float) -> Estimate:
    """A proportion with Wilson's score interval (good near 0 and 1)."""
    return proportion(hits, n, confidence=confidence, method="wilson")


def _mean(values: Sequence[float], confidence: float) -> Estimate:
    total = math.fsum(values)
    return mean_interval(total, math.fsum(v * v for v in values), len(values), confidence=confidence)


def _median(values: Sequence[float], confidence: float) -> Estimate:
    """The median with the distribution-free interval between two order statistics."""
    n = len(values)
    if n == 0:
        return Estimate(math.nan, math.nan, math.nan, confidence, "order statistics")
    z = _z(confidence)
    ordered = sorted(values)
    lo = max(0, math.floor(n / 2 - z * math.sqrt(n) / 2) - 1)
    hi = min(n - 1, math.ceil(n / 2 + z * math.sqrt(n) / 2))
    return Estimate(float(statistics.median(ordered)), float(ordered[lo]), float(ordered[hi]), confidence,
                    "order statistics")


@dataclass(frozen=True)
class Summary:
    """Summary statistics of a table, each with a confidence interval.

    Lengths (battles, plays) are over the games that end: won, lost or tied.  In Jupyter
    it shows as a table of estimates and interval ends:

    >>> html = simulate(300, "standard", seed=1).summary()._repr_html_()
    >>> html.startswith("<table><caption>300 games (95% confidence intervals")
    True
    """

    games: int
    confidence: float
    p_first_wins: Estimate
    p_second_wins: Estimate
    p_tie: Estimate
    p_cycle: Estimate
    p_capped: Estimate
    mean_battles: Estimate
    median_battles: Estimate
    mean_plays: Estimate
    mean_wars: Estimate

    def as_dict(self) -> dict[str, Any]:
        """Plain numbers (values, and ``*_ci`` pairs), for JSON."""
        out: dict[str, Any] = {"games": self.games, "confidence": self.confidence}
        for name in ("p_first_wins", "p_second_wins", "p_tie", "p_cycle", "p_capped",
                     "mean_battles", "median_battles", "mean_plays", "mean_wars"):
            est: Estimate = getattr(self, name)
            out[name] = est.value
            out[f"{name}_ci"] = [est.low, est.high]
        return out

    def __str__(self) -> str:
        pct = f"{self.confidence:.0%}"
        lines = [f"{self.games} games ({pct} intervals)"]
        for name in ("p_first_wins", "p_second_wins", "p_tie", "p_cycle", "p_capped",
                     "mean_battles", "median_battles", "mean_plays", "mean_wars"):
            lines.append(f"  {name:<15} {getattr(self, name)}")
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        """Each statistic with its interval, as an HTML table (for Jupyter)."""
        rows = []
        for name, label in _LABELS.items():
            est: Estimate = getattr(self, name)
            rows.append([label, est.value, est.low, est.high])
        caption = (f"{self.games:,} games ({self.confidence:.0%} confidence intervals; "
                   "lengths over the games that end)")
        return html_table(["statistic", "estimate", "low", "high"], rows, caption=caption)


@dataclass(frozen=True)
class Group:
    """One group of a grouped summary: games whose ``by`` lies in ``[low, high]``."""

    by: str
    low: float
    high: float
    games: int
    p_first_wins: Estimate
    mean_battles: Estimate

    @property
    def label(self) -> str:
        """The group's range of ``by`` as text: ``"3"``, or ``"64 to 78"``."""
        return f"{self.low:g}" if self.low == self.high else f"{self.low:g} to {self.high:g}"

    def _repr_html_(self) -> str:
        """The group as a one-row HTML table (for Jupyter)."""
        return _groups_html([self])


class Groups(list[Group]):
    """The groups of :meth:`GameTable.grouped`: a list, shown in Jupyter as one table.

    >>> groups = simulate(2000, "standard", seed=5).grouped("aces", bins=None)
    >>> [g.label for g in groups], "<th>aces</th>" in groups._repr_html_()
    (['0', '1', '2', '3', '4'], True)
    """

    def _repr_html_(self) -> str:
        """One row per group: its range, games, P(A wins) with its interval, mean length."""
        return _groups_html(self)


def _groups_html(groups: Sequence[Group]) -> str:
    by = groups[0].by if groups else "group"
    rows = [[g.label, g.games, g.p_first_wins.value, g.p_first_wins.low, g.p_first_wins.high,
             g.mean_battles.value] for g in groups]
    headers = [by, "games", "P(A wins)", "low", "high", "mean battles"]
    return html_table(headers, rows, caption=f"P(A wins) by {by}")


@dataclass(frozen=True, eq=False)
class GameTable:
    """One row per game: ``winner`` (``"A"``, ``"B"``, ``"tie"``, ``"cycle"``, ``"capped"``),
    ``battles``, ``plays``, ``wars``, and A's starting hand: ``strength`` (sum of ranks),
    ``aces`` (top cards), ``deuces``; ``traces`` (A's pile size after every battle) when
    asked for.  Columns are NumPy arrays; ``winner`` holds codes into ``OUTCOMES``.

    In Jupyter a table shows its size, the count of each outcome and its first
    :data:`HEAD` rows (never the millions of a big run):

    >>> print(simulate(300, "standard", seed=1)._repr_html_().split("<thead>")[0])
    <table><caption>300 games of War (13 ranks x 4 suits, seed 1): A 148, B 152; first 5 shown</caption>
    """

    rules: Rules
    seed: int
    ranks: int
    suits: int
    winner_code: Any
    battles: Any
    plays: Any
    wars: Any
    strength: Any
    aces: Any
    deuces: Any
    traces: list[Any] | None = field(default=None)

    columns = ("game", "winner", "battles", "plays", "wars", "strength", "aces", "deuces")

    def __len__(self) -> int:
        return int(self.battles.shape[0])

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GameTable):
            return NotImplemented
        np = _np()
        same = all(np.array_equal(getattr(self, c), getattr(other, c)) for c in
                   ("winner_code", "battles", "plays", "wars", "strength", "aces", "deuces"))
        if (self.traces is None) != (other.traces is None):
            return False
        if self.traces is not None and other.traces is not None:
            same = same and all(np.array_equal(x, y) for x, y in zip(self.traces, other.traces, strict=False))
        return bool(same and (self.rules, self.seed, self.ranks, self.suits)
                    == (other.rules, other.seed, other.ranks, other.suits))

    __hash__ = None  # type: ignore[assignment]

    @property
    def winner(self) -> Any:
        """The outcome of each game, as strings."""
        np = _np()
        return np.array(OUTCOMES)[self.winner_code]

    def count(self, outcome: str) -> int:
        """How many games finished as ``outcome``."""
        if outcome not in OUTCOMES:
            raise InvalidArgument(f"count: outcome must be one of {OUTCOMES}, got {outcome!r}")
        return int((self.winner_code == OUTCOMES.index(outcome)).sum())

    def rows(self) -> Iterator[dict[str, Any]]:
        """The table as dicts, one per game."""
        return self._rows(None)

    def head(self, n: int = HEAD) -> list[dict[str, Any]]:
        """The first ``n`` games as dicts (cheap on any size of table).

        >>> simulate(3, "standard", seed=3).head(1)[0]["game"]
        0
        """
        return list(self._rows(max(0, n)))

    def _rows(self, stop: int | None) -> Iterator[dict[str, Any]]:
        names = OUTCOMES
        columns = (self.winner_code, self.battles, self.plays, self.wars,
                   self.strength, self.aces, self.deuces)
        for i, (w, b, p, wr, s, a, d) in enumerate(zip(*(c[:stop].tolist() for c in columns), strict=True)):
            yield {"game": i, "winner": names[w], "battles": b, "plays": p, "wars": wr,
                   "strength": s, "aces": a, "deuces": d}

    def _repr_html_(self) -> str:
        """The size, the outcome counts and the first :data:`HEAD` rows, as HTML (for Jupyter)."""
        counts = ", ".join(f"{o} {self.count(o):,}" for o in OUTCOMES if self.count(o))
        shown = min(HEAD, len(self))
        caption = (f"{len(self):,} games of War ({self.ranks} ranks x {self.suits} suits, seed {self.seed})"
                   f"{': ' + counts if counts else ''}{f'; first {shown} shown' if shown else ''}")
        rows: list[list[object]] = [[row[c] for c in self.columns] for row in self.head(HEAD)]
        if len(self) > shown:
            rows.append(["\u2026"] * len(self.columns))
        return html_table(self.columns, rows, caption=caption)

    def to_csv(self, target: str | Path | IO[str]) -> None:
        """Write the table as CSV (with a ``trace`` column, ``;``-separated, when traced).

        A file is written whole or not at all: into a temporary file beside it, renamed
        at the end, so an interrupt never leaves a truncated table.
        """
        if isinstance(target, (str, Path)):
            with atomic_text(target) as handle:
                self._write_csv(handle)
        else:
            self._write_csv(target)

    def _write_csv(self, handle: IO[str]) -> None:
        writer = csv.writer(handle)
        traced = self.traces is not None
        writer.writerow(self.columns + (("trace",) if traced else ()))
        for row in self.rows():
            values = [row[c] for c in self.columns]
            if traced and self.traces is not None:
                values.append(";".join(map(str, self.traces[row["game"]].tolist())))
            writer.writerow(values)

    def csv_text(self) -> str:
        """The CSV as a string.

        >>> simulate(2, "standard", seed=3).csv_text().splitlines()[0]
        'game,winner,battles,plays,wars,strength,aces,deuces'
        """
        buffer = io.StringIO()
        self._write_csv(buffer)
        return buffer.getvalue()

    def _finished(self) -> Any:
        return self.winner_code <= OUTCOMES.index("tie")

    def summary(self, confidence: float = 0.95) -> Summary:
        """P(A wins), P(B wins), P(tie), P(cycle), P(capped) with Wilson intervals; the
        mean (normal interval) and median (order-statistic interval) length of the
        games that end; mean plays and wars."""
        _z(confidence)
        n = len(self)
        finished = self._finished()
        lengths = self.battles[finished].tolist()
        return Summary(
            games=n,
            confidence=confidence,
            p_first_wins=_wilson(self.count("A"), n, confidence),
            p_second_wins=_wilson(self.count("B"), n, confidence),
            p_tie=_wilson(self.count("tie"), n, confidence),
            p_cycle=_wilson(self.count("cycle"), n, confidence),
            p_capped=_wilson(self.count("capped"), n, confidence),
            mean_battles=_mean(lengths, confidence),
            median_battles=_median(lengths, confidence),
            mean_plays=_mean(self.plays[finished].tolist(), confidence),
            mean_wars=_mean(self.wars[finished].tolist(), confidence),
        )

    def grouped(self, by: str = "strength", bins: int | Sequence[float] | None = 5,
                confidence: float = 0.95) -> Groups:
        """P(A wins) and the mean length by groups of a starting-hand column: ``bins``
        equal-count groups, explicit edges, or None for one group per value.

        "Does the stronger starting hand win more often?" is the question this answers:

        >>> groups = simulate(2000, "standard", seed=5).grouped("strength", bins=2)
        >>> groups[0].p_first_wins.value < groups[1].p_first_wins.value
        True
        """
        if by not in ("strength", "aces", "deuces"):
            raise InvalidArgument(f"grouped: by must be 'strength', 'aces' or 'deuces', got {by!r}")
        np = _np()
        _z(confidence)
        values = getattr(self, by)
        if bins is None:
            edges = [(float(v), float(v)) for v in np.unique(values)]
        elif isinstance(bins, int):
            if bins < 1:
                raise InvalidArgument(f"grouped: bins must be >= 1, got {bins}")
            qs = np.quantile(values, np.linspace(0, 1, bins + 1)) if len(self) else np.zeros(bins + 1)
            edges = [(float(qs[i]), float(qs[i + 1])) for i in range(bins)]
        else:
            cuts = [float(x) for x in bins]
            edges = list(itertools.pairwise(cuts))
        groups = Groups()
        a_code = OUTCOMES.index("A")
        finished = self._finished()
        for i, (low, high) in enumerate(edges):
            last = i == len(edges) - 1
            inside = (values >= low) & ((values <= high) if last or low == high else (values < high))
            n = int(inside.sum())
            wins = int((self.winner_code[inside] == a_code).sum())
            lengths = self.battles[inside & finished].tolist()
            groups.append(Group(by, low, high, n, _wilson(wins, n, confidence), _mean(lengths, confidence)))
        return groups


def _rules(rules: Rules | str) -> Rules:
    return as_rules(rules, "simulate")


#: The engines :func:`simulate` can use; all give the same table.
ENGINES = ("fast", "compiled", "numpy", "reference")


def _engine(engine: str) -> str:
    """The engine that will play: ``"fast"`` is the compiled one when numba is installed,
    else the batched NumPy one; asking for ``"compiled"`` without numba is an error that
    names the extra."""
    if engine not in ENGINES:
        raise InvalidArgument(
            f"simulate: engine must be one of {', '.join(map(repr, ENGINES))}, got {engine!r}"
        )
    if engine == "fast":
        return "compiled" if importlib.util.find_spec("numba") is not None else "numpy"
    if engine == "compiled":
        require("numba", "numba", "simulate(engine='compiled')")
    return engine


def _positive(name: str, value: object, minimum: int = 1) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"simulate: {name} must be an int, got {value!r}")
    if value < minimum:
        raise InvalidArgument(f"simulate: {name} must be >= {minimum}, got {value}")
    return value


def _progress_bar(total: int, enabled: bool) -> Callable[[int], None]:
    if not enabled:
        return lambda done: None
    try:
        from tqdm import tqdm
    except ImportError:
        def to_stderr(done: int) -> None:
            print(f"drawdsl war: {done}/{total} games", file=sys.stderr)

        return to_stderr
    bar = tqdm(total=total, unit=" games", desc="war")

    def update(done: int) -> None:
        bar.update(done - bar.n)
        if done >= total:
            bar.close()

    return update


def simulate(
    n: int,
    rules: Rules | str = "standard",
    seed: int = 0,
    *,
    ranks: int = 13,
    suits: int = 4,
    executor: Executor | None = None,
    trace: bool = False,
    engine: str = "fast",
    chunk: int = 32 * BLOCK,
    progress: bool = False,
) -> GameTable:
    """Play ``n`` random games and return the per-game table.

    ``rules``: a :class:`Rules` or a preset name.  ``executor``: any
    ``concurrent.futures.Executor``; the chunks of ``chunk`` games (rounded up to
    whole blocks) are its tasks, and the table is the same for any executor and
    any ``chunk``.  ``engine`` (every engine gives the same table): ``"compiled"``
    (:mod:`games.war.compiled`, needs numba: the ``numba`` extra), ``"numpy"`` (batched
    NumPy, :mod:`games.war.batch`), ``"reference"`` (:func:`~games.war.engine.play_game`
    game by game), or ``"fast"``, the default: compiled when numba is installed, else NumPy.
    ``progress``: a tqdm bar (or lines on stderr without tqdm).

    >>> simulate(5, "rblog", seed=2).winner.tolist()
    ['B', 'B', 'A', 'A', 'B']
    """
    n = _positive("n", n, 0)
    rules = _rules(rules)
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise InvalidArgument(f"simulate: seed must be a non-negative int, got {seed!r}")
    _positive("ranks", ranks)
    _positive("suits", suits)
    if ranks * suits % 2:
        raise InvalidArgument(f"simulate: {ranks} x {suits} = {ranks * suits} cards cannot be dealt evenly")
    if ranks + 1 > 120:
        raise InvalidArgument(f"simulate: ranks must be at most 119, got {ranks}")
    engine = _engine(engine)
    size = max(BLOCK, -(-_positive("chunk", chunk) // BLOCK) * BLOCK)
    starts = list(range(0, n, size))
    report = _progress_bar(n, progress)
    parts: list[dict[str, Any]] = []
    futures: list[Future[dict[str, Any]]] = []
    try:
        if executor is None:
            for start in starts:
                count = min(size, n - start)
                parts.append(_play_chunk(seed, start, count, rules, ranks, suits, trace, engine))
                report(start + min(size, n - start))
        else:
            futures = [
                executor.submit(
                    _play_chunk, seed, start, min(size, n - start), rules, ranks, suits, trace, engine
                )
                for start in starts
            ]
            for start, future in zip(starts, futures, strict=False):
                parts.append(future.result())
                report(start + min(size, n - start))
    except KeyboardInterrupt as err:
        # Ctrl-C: drop the work not started, and say how far the run got.
        for future in futures:
            future.cancel()
        played = sum(len(part["winner"]) for part in parts)
        add_note(err, f"drawdsl: war simulate had played {played:,} of {n:,} games")
        raise
    np = _np()

    def column(name: str, dtype: Any) -> Any:
        if not parts:
            return np.zeros(0, dtype=dtype)
        return np.concatenate([p[name] for p in parts]).astype(dtype)

    traces = None
    if trace:
        traces = [t for p in parts for t in p["traces"]]
    return GameTable(rules, seed, ranks, suits, column("winner", np.int8), column("battles", np.int64),
                     column("plays", np.int64), column("wars", np.int64), column("strength", np.int64),
                     column("aces", np.int64), column("deuces", np.int64), traces)
