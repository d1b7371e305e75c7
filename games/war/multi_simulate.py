"""Monte Carlo of War with any number of players, on the reference engine.

The decks are those of :func:`games.war.simulate.simulate` (block ``b`` of a run comes
from ``SeedSequence(seed, spawn_key=(b,))``, :func:`~games.war.simulate.deal_block`), dealt
round the table (:func:`~games.war.multi.deal_round_robin`) and played with
:func:`~games.war.multi.play_multi`.  Game ``i`` depends only on ``seed`` and ``i``, so
the tally is the same for any executor and any chunk size; with two players it is the
tally of ``simulate(..., engine="reference")``.

>>> tally = simulate_multi(200, "standard", seed=1, players=3)
>>> tally.games, sum(tally.counts.values())
(200, 200)
>>> tally == simulate_multi(200, "standard", seed=1, players=3, chunk=1024)
True
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import Executor
from dataclasses import dataclass
from fractions import Fraction

from drawdsl import InvalidArgument
from games.war.multi import check_players, deal_round_robin, play_multi, seat_name
from games.war.rules import Rules, as_rules
from games.war.simulate import BLOCK, deal_block

__all__ = ["MultiTally", "simulate_multi"]


@dataclass(frozen=True)
class MultiTally:
    """The outcome of a run: how many games each seat won, and the games' lengths.

    ``counts``: outcome (a seat name, ``"tie"``, ``"cycle"``, ``"capped"``) -> games.
    ``battles``: the total of the battles of the games that end (won or tied), and
    ``ended`` how many those are.
    """

    games: int
    players: int
    counts: dict[str, int]
    battles: int
    ended: int

    def share(self, outcome: str) -> float:
        """The fraction of the games that finished as ``outcome``.

        >>> MultiTally(4, 3, {"A": 3, "C": 1}, 10, 4).share("A")
        0.75
        """
        return self.counts.get(outcome, 0) / self.games if self.games else math.nan

    @property
    def mean_battles(self) -> Fraction | None:
        """The mean length of the games that end (None if none does)."""
        return Fraction(self.battles, self.ended) if self.ended else None

    def outcomes(self) -> list[str]:
        """Every seat, then ``"tie"``, ``"cycle"``, ``"capped"``: the order to show counts in."""
        return [seat_name(seat) for seat in range(self.players)] + ["tie", "cycle", "capped"]


def _chunk(seed: int, first: int, count: int, rules: Rules, ranks: int, suits: int,
           players: int) -> tuple[Counter[str], int, int]:
    """Games ``first .. first+count-1`` of a run (``first`` is a multiple of BLOCK)."""
    counts: Counter[str] = Counter()
    battles = ended = 0
    top = ranks + 1
    for block in range(first // BLOCK, (first + count + BLOCK - 1) // BLOCK):
        decks, seeds = deal_block(seed, block, ranks, suits)
        lo = max(first, block * BLOCK) - block * BLOCK
        hi = min(first + count, (block + 1) * BLOCK) - block * BLOCK
        for row, game_seed in zip(decks[lo:hi].tolist(), seeds[lo:hi].tolist(), strict=True):
            game = play_multi(deal_round_robin(row, players), rules, seed=int(game_seed), top=top)
            counts[game.winner] += 1
            if game.winner not in ("cycle", "capped"):
                battles += game.battles
                ended += 1
    return counts, battles, ended


def _int(name: str, value: object, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"simulate_multi: {name} must be an int, got {value!r}")
    if value < minimum:
        raise InvalidArgument(f"simulate_multi: {name} must be >= {minimum}, got {value}")
    return value


def simulate_multi(n: int, rules: Rules | str = "standard", seed: int = 0, *, players: int = 3,
                   ranks: int = 13, suits: int = 4, executor: Executor | None = None,
                   chunk: int = 8 * BLOCK) -> MultiTally:
    """Play ``n`` random games of ``players`` players and tally who wins.

    ``executor``: any ``concurrent.futures.Executor`` (its tasks are chunks of ``chunk``
    games, rounded up to whole blocks); the tally does not depend on it.

    >>> simulate_multi(0, players=4).counts
    {}
    """
    n = _int("n", n, 0)
    rules = as_rules(rules, "simulate_multi")
    seed = _int("seed", seed, 0)
    ranks = _int("ranks", ranks, 1)
    suits = _int("suits", suits, 1)
    if ranks + 1 > 120:
        raise InvalidArgument(f"simulate_multi: ranks must be at most 119, got {ranks}")
    players = check_players(players, ranks * suits, "simulate_multi")
    size = max(BLOCK, -(-_int("chunk", chunk, 1) // BLOCK) * BLOCK)
    starts = range(0, n, size)
    args = [(seed, start, min(size, n - start), rules, ranks, suits, players) for start in starts]
    parts: Iterator[tuple[Counter[str], int, int]]
    if executor is None:
        parts = (_chunk(*a) for a in args)
    else:
        futures = [executor.submit(_chunk, *a) for a in args]
        parts = (future.result() for future in futures)
    counts: Counter[str] = Counter()
    battles = ended = 0
    for part_counts, part_battles, part_ended in parts:
        counts.update(part_counts)
        battles += part_battles
        ended += part_ended
    return MultiTally(n, players, dict(sorted(counts.items())), battles, ended)
