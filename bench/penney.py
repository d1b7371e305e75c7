"""Penney's game speed, side by side in one run: ``python -m bench.penney [--full]``.

Row 1, the 52-card table (Humble-Nishiyama): all 56 ordered pairs of length-3
colour patterns, counted by tricks and by cards, exactly.  drawdsl evaluates the
draw program (:func:`games.penney.card_table`); the reference is icepool's ``map``
over a state die for 52 steps, on the *same* state design (the same step function,
with the remaining reds added to the state, and the same early stop once the
result is settled), so the ratio compares the engines, not the modelling.  Both
solve each game once up to the order of the players and a colour swap: 16 games
per count.  icepool needs about a minute per game when counting cards, so by
default it runs on a sample of the 16 games and its total is extrapolated from the
mean per game (said so in the output); ``--full`` runs it on all of them.  The
exact tables are also compared with the one printed in docs/penney.md.

Row 2, every pair of coin patterns of length 6 (4032 ordered pairs): drawdsl's
exact table (:func:`games.penney.pair_table`, each race solved once up to H<->T)
against the transition-matrix-power method in floats (NumPy: the automaton's
transition matrix raised to the 4096th power, one matrix per unordered pair).
The ratio and the largest difference between the two are reported.

icepool and NumPy are optional: a missing one skips its reference column.
"""

from __future__ import annotations

import argparse
import itertools
import re
import sys
import time
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

from drawdsl import Spec, play
from games import penney
from games.penney.cards import card_step  # the same loop step, to give icepool the same states
from games.penney.patterns import Automaton

DOCS = Path(__file__).resolve().parent.parent / "docs" / "penney.md"


def timed(f: Callable[[], Any]) -> tuple[Any, float]:
    start = time.perf_counter()
    result = f()
    return result, time.perf_counter() - start


# --------------------------------------------------------------------------- row 1: cards


def distinct_games(length: int = 3) -> list[tuple[str, str]]:
    """One representative per unordered pair up to swapping colours (an even deck)."""
    seen: set[tuple[str, ...]] = set()
    games = []
    swap = str.maketrans("RB", "BR")
    for a, b in itertools.combinations(penney.all_patterns(length, "RB"), 2):
        form = min(tuple(sorted((a, b))), tuple(sorted((a.translate(swap), b.translate(swap)))))
        if form not in seen:
            seen.add(form)
            games.append((form[0], form[1]))
    return games


def icepool_game(patterns: tuple[str, ...], red: int, black: int, count: str) -> dict[str | None, Fraction]:
    """The card game by icepool: ``map`` the step over a die of states, 52 times."""
    import icepool

    start, deal = card_step(patterns, red, black, count)
    total = red + black

    def step(state: tuple[int, Any]) -> Any:
        reds_left, inner = state
        if reds_left < 0:  # settled: (-1, (winner or "",))
            return state
        blacks_left = total - inner[0] - reds_left
        weights: dict[Any, int] = {}
        for colour, n in (("R", reds_left), ("B", blacks_left)):
            if n:
                after = deal(inner, colour)
                if isinstance(after, Spec):
                    key: Any = (-1, (play(after, []) or "",))
                else:
                    key = (reds_left - (colour == "R"), after)
                weights[key] = weights.get(key, 0) + n
        return icepool.Die(weights)

    final = icepool.map(step, icepool.Die([(red, start)]), repeat=total)
    return {
        outcome[1][0] or None: p
        for outcome, p in zip(final.outcomes(), final.probabilities(), strict=True)
    }


def docs_table() -> dict[tuple[str, str], tuple[Fraction, Fraction]]:
    """The 52-card table printed in docs/penney.md: (first, reply) -> (P tricks, P cards)."""
    found = {}
    pattern = re.compile(r"^\|\s*([RB]{3})\s*\|\s*([RB]{3})\s*\|\s*(\d+/\d+)\s*\|\s*(\d+/\d+)\s*\|")
    if DOCS.exists():
        for line in DOCS.read_text(encoding="utf-8").splitlines():
            m = pattern.match(line)
            if m:
                found[(m[1], m[2])] = (Fraction(m[3]), Fraction(m[4]))
    return found


def card_row(full: bool, sample: int, workers: int) -> None:
    print("Row 1: the 52-card table, length 3, 56 ordered pairs, by tricks and by cards (exact)")
    tables = {}
    total = 0.0
    for count in ("tricks", "cards"):
        rows, seconds = timed(lambda c=count: penney.card_table(3, count=c))  # type: ignore[misc]
        tables[count] = {(r.first, r.second): r for r in rows}
        total += seconds
        print(f"  drawdsl  {count:<6}  {seconds:8.2f} s  (16 distinct games, {seconds / 16:.3f} s per game)")
    print(f"  drawdsl  both    {total:8.2f} s")
    if workers > 1:
        from concurrent.futures import ProcessPoolExecutor

        def both_in_parallel() -> None:
            with ProcessPoolExecutor(workers) as pool:
                for count in ("tricks", "cards"):
                    penney.card_table(3, count=count, executor=pool)

        _, parallel = timed(both_in_parallel)
        print(f"  drawdsl  both    {parallel:8.2f} s  with {workers} worker processes")
    documented = docs_table()
    if documented:
        same = all(
            (tables["tricks"][key].second_wins, tables["cards"][key].second_wins) == value
            for key, value in documented.items()
        )
        print(f"  docs/penney.md table ({len(documented)} rows): {'matches' if same else 'DIFFERS'}")
    try:
        import icepool  # noqa: F401
    except ImportError:
        print("  icepool  not installed: pip install icepool (reference skipped)")
        return
    games = distinct_games()
    chosen = games if full else games[:: max(1, len(games) // sample)][:sample]
    reference_total = 0.0
    for count in ("tricks", "cards"):
        per_game = []
        for a, b in chosen:
            result, seconds = timed(lambda a=a, b=b, c=count: icepool_game((a, b), 26, 26, c))  # type: ignore[misc]
            per_game.append(seconds)
            exact = tables[count][(a, b)]
            if (result.get(a, 0), result.get(b, 0), result.get(None, 0)) != (
                exact.first_wins, exact.second_wins, exact.draw
            ):
                print(f"  icepool and drawdsl DIFFER on {a} v {b} ({count})")
        mean = sum(per_game) / len(per_game)
        estimate = mean * len(games)
        reference_total += estimate
        how = "measured" if full else f"{len(chosen)} of {len(games)} games measured, total extrapolated"
        print(f"  icepool  {count:<6}  {estimate:8.2f} s  ({mean:.3f} s per game; {how})")
    print(f"  icepool  both    {reference_total:8.2f} s")
    print(f"  ratio icepool / drawdsl: {reference_total / total:.1f}x (same answers on every game run)")


# --------------------------------------------------------------------------- row 2: coins


def matrix_power_odds(a: str, b: str, power: int = 4096) -> float:
    """P(b appears before a) in floats: the automaton's transition matrix to a large power."""
    import numpy as np

    machine = Automaton((a, b), "HT")
    states = list(machine.states)
    index = {s: i for i, s in enumerate(states)}
    n = len(states)
    matrix = np.zeros((n + 2, n + 2))
    for s in states:
        for symbol in "HT":
            to = machine.move(s, symbol)
            j = n + to if isinstance(to, int) else index[to]
            matrix[index[s], j] += 0.5
    matrix[n, n] = matrix[n + 1, n + 1] = 1.0
    limit = np.linalg.matrix_power(matrix, power)
    return float(limit[index[""], n + 1])


def coin_row() -> None:
    print("Row 2: every ordered pair of coin patterns of length 6 (4032 pairs)")
    rows, exact_seconds = timed(lambda: penney.pair_table(6))
    print(f"  drawdsl  exact fractions      {exact_seconds:8.2f} s")
    try:
        import numpy  # noqa: F401
    except ImportError:
        print("  numpy    not installed (reference skipped)")
        return
    words = penney.all_patterns(6)

    def floats() -> dict[tuple[str, str], float]:
        return {(a, b): matrix_power_odds(a, b) for a, b in itertools.combinations(words, 2)}

    approx, float_seconds = timed(floats)
    chance = {(r.first, r.second): r.second_wins for r in rows}
    worst = max(abs(float(chance[pair]) - p) for pair, p in approx.items())
    print(f"  numpy    matrix power, floats {float_seconds:8.2f} s  (2016 unordered pairs; "
          f"largest difference from the exact value {worst:.1e})")
    print(f"  ratio drawdsl / matrix power: {exact_seconds / float_seconds:.2f}x")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.penney", description=__doc__.split("\n\n")[0])
    parser.add_argument("--full", action="store_true", help="run icepool on all 16 games (about 20 minutes)")
    parser.add_argument("--sample", type=int, default=3, help="games icepool runs without --full (default 3)")
    parser.add_argument("--workers", type=int, default=2, help="also time the card table on N processes")
    parser.add_argument("--skip-cards", action="store_true", help="only the coin row")
    args = parser.parse_args(argv)
    print(f"python {sys.version.split()[0]}")
    if not args.skip_cards:
        card_row(args.full, args.sample, args.workers)
    coin_row()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
