"""Penney's game speed, side by side in one run: ``python -m bench.penney [--sample N] [--floor]``.

Row 1, the 52-card table (Humble-Nishiyama): all 56 ordered pairs of length-3
colour patterns, counted by tricks and by cards, exactly.  drawdsl's table
(:func:`games.penney.card_table`) evaluates each game's draw program
(:func:`games.penney.card_spec`, a scoring loop, with a pot by cards) with
:func:`drawdsl.chances`, once per game up to the order of the players and a colour
swap: 16 games per count.  Issue 15's goal 4 (the draw program within 2x of the
dedicated counter): the same 16 games by the program and by the deal count written by
hand (:mod:`bench.deal_count`), in turns, best of ``--repeats``, by tricks, cards and
first trick, answers compared.  The other reference is icepool's ``map`` over a state
die for 52 steps, on the stopping loop's state design (the same step function as
:func:`games.penney.card_step`, with the cards left of each colour added to the state,
and the same early stops and merges).  icepool runs every game by default;
``--sample N`` runs N games per count and extrapolates its total from the mean per
game (said so in the output).  The exact tables are compared with icepool's answers
and with the one printed in docs/penney.md.

``--floor`` also counts the states drawdsl's evaluator visits (for two players, the
scoring loop's (cards left, trick state) keys, each holding every lead at once) and
the fewest that an exact evaluation keeping one state per lead must keep apart: the
distinct (cards left of each colour, distribution of the final result) pairs over
the deals not yet decided, from a backward count of deals.

Row 2, every ordered pair of coin patterns of length 6 (4,032) and 8 (65,280):
drawdsl's exact table (:func:`games.penney.pair_table`, from the patterns'
correlations) and its dict form (:func:`games.penney.pair_chances`) against Conway's
leading-number formula in Fractions, written as its experts would (each leading number
once, in integers, one Fraction per ordered pair); at length 6 also drawdsl's
automaton route (the draw program under ``chances``) and the transition-matrix power
in floats (NumPy: the automaton's matrix to the 4096th power, one per unordered pair).

Row 3, every three-player race of length-3 patterns over ``012`` (2,925 races): the
correlation route, exact, against the Markov-chain notebook's float matrix power (the
automaton's transition matrix to the 1024th power per race; the largest difference
from the exact values is reported).  Rows 2 and 3 keep the best of ``--repeats`` runs.

icepool and NumPy are optional: a missing one skips its reference column.
"""

from __future__ import annotations

import argparse
import itertools
import math
import re
import sys
import time
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

from bench.deal_count import deal_counts
from bench.reference import conway_table
from drawdsl import Spec, chances, play
from games import penney
from games.penney.cards import (
    _solve_by_program,  # the draw program's odds (what the table runs, game by game)
    card_step,  # the same loop step, to give icepool the same states
)
from games.penney.correlation import pair_chances
from games.penney.patterns import Automaton

DOCS = Path(__file__).resolve().parent.parent / "docs" / "penney.md"


def timed(f: Callable[[], Any]) -> tuple[Any, float, float]:
    """``f()``, its wall-clock time and this process's CPU time (less disturbed by other jobs
    sharing the machine; not meaningful when the work runs in other processes)."""
    start, cpu = time.perf_counter(), time.process_time()
    result = f()
    return result, time.perf_counter() - start, time.process_time() - cpu


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

    def step(state: tuple[int, int, Any]) -> Any:
        reds_left, blacks_left, inner = state
        if reds_left < 0:  # settled: (-1, -1, (winner or "",))
            return state
        weights: dict[Any, int] = {}
        for colour, n in (("R", reds_left), ("B", blacks_left)):
            if n:
                after = deal(inner, colour)
                if isinstance(after, Spec):
                    key: Any = (-1, -1, (play(after, []) or "",))
                else:
                    key = (reds_left - (colour == "R"), blacks_left - (colour == "B"), after)
                weights[key] = weights.get(key, 0) + n
        return icepool.Die(weights)

    final = icepool.map(step, icepool.Die([(red, black, start)]), repeat=total)
    return {
        outcome[2][0] or None: p
        for outcome, p in zip(final.outcomes(), final.probabilities(), strict=True)
    }


def docs_table() -> dict[tuple[str, str], tuple[str, ...]]:
    """The 52-card table printed in docs/penney.md: (first, reply) -> its other six columns."""
    found = {}
    pattern = re.compile(r"^\|\s*([RB]{3})\s*\|\s*([RB]{3})\s*\|(.*)\|\s*$")
    if DOCS.exists():
        for line in DOCS.read_text(encoding="utf-8").splitlines():
            m = pattern.match(line)
            if m:
                found[(m[1], m[2])] = tuple(cell.strip() for cell in m[3].split("|"))
    return found


def docs_row(tricks: Any, cards: Any) -> tuple[str, ...]:
    """One row of the docs table: P(reply wins) by tricks and cards, then win / draw / lose."""

    def split(row: Any) -> str:
        return " / ".join(f"{float(p):.4f}" for p in (row.second_wins, row.draw, row.first_wins))

    return (str(tricks.second_wins), str(cards.second_wins), split(tricks), split(cards))


def states_floor(patterns: tuple[str, ...], red: int, black: int, count: str) -> tuple[int, int]:
    """The states drawdsl visits (a scoring loop's keys hold every lead at once), and the
    fewest an exact evaluation keeping one state per lead must keep apart: the distinct
    (cards left of each colour, distribution of the result) over the reachable states of
    :func:`card_step`'s loop whose result is not yet certain, found by counting the deals
    below each state (integers, backward)."""
    sizes: list[int] = []
    chances(penney.card_spec(patterns, red, black, count), penney.card_deck(red, black),
            progress=lambda _, live: sizes.append(live))
    start, deal = card_step(patterns, red, black, count)
    below: dict[tuple[Any, int, int], tuple[int, ...]] = {}
    names: dict[Any, int] = {}
    sys.setrecursionlimit(max(10_000, sys.getrecursionlimit()))

    def count_below(state: Any, r: int, b: int) -> tuple[int, ...]:
        """Deals of the r + b cards left, by result (indexed as in ``names``)."""
        key = (state, r, b)
        found = below.get(key)
        if found is not None:
            return found
        tally: dict[int, int] = {}
        for colour, n, r2, b2 in (("R", r, r - 1, b), ("B", b, r, b - 1)):
            if not n:
                continue
            after = deal(state, colour)
            if isinstance(after, Spec):
                winner = names.setdefault(play(after, []), len(names))
                ways = math.comb(r2 + b2, r2)
                tally[winner] = tally.get(winner, 0) + ways
            else:
                for winner, ways in enumerate(count_below(after, r2, b2)):
                    tally[winner] = tally.get(winner, 0) + ways
        result = tuple(tally.get(i, 0) for i in range(len(patterns) + 1))
        below[key] = result
        return result

    names.update({None: 0})
    count_below(start, red, black)
    # States whose result is not yet certain: a correct evaluation can only merge those
    # with the same cards left and the same distribution of the result.
    distinct = {(r, b, ways) for (_, r, b), ways in below.items() if sum(map(bool, ways)) > 1}
    return sum(sizes), len(distinct)


def deal_count_odds(
    patterns: tuple[str, str], red: int, black: int, count: str
) -> tuple[tuple[Fraction, Fraction], Fraction]:
    """A two-player game's odds by the dedicated counter of deals (:mod:`bench.deal_count`),
    in the form of :func:`~games.penney.cards._solve_by_program`."""
    first, second, draw = deal_counts(patterns, red, black, count)
    deals = math.comb(red + black, red)
    return (Fraction(first, deals), Fraction(second, deals)), Fraction(draw, deals)


def card_row(sample: int | None, workers: int, floor: bool, repeats: int) -> None:
    print("Row 1: the 52-card table, length 3, 56 ordered pairs, by tricks and by cards (exact)")
    tables = {}
    ours: dict[str, float] = {}
    ours_cpu: dict[str, float] = {}
    for count in ("tricks", "cards"):
        rows, seconds, cpu = timed(lambda c=count: penney.card_table(3, count=c))  # type: ignore[misc]
        tables[count] = {(r.first, r.second): r for r in rows}
        ours[count], ours_cpu[count] = seconds, cpu
        print(f"  drawdsl  {count:<6}  {seconds:8.2f} s  (cpu {cpu:.2f} s; 16 distinct games, "
              f"{seconds / 16:.3f} s per game)")
    total, total_cpu = sum(ours.values()), sum(ours_cpu.values())
    print(f"  drawdsl  both    {total:8.2f} s  (cpu {total_cpu:.2f} s; the draw program under chances)")
    games = distinct_games()
    # Issue 15, goal 4: the draw program against the dedicated deal count, the same 16
    # games, one after the other in turns, best of `repeats`.
    for count in ("tricks", "cards", "first"):
        program = counted = math.inf
        for _ in range(repeats):
            solved, seconds, _ = timed(
                lambda c=count: {g: _solve_by_program(g, 26, 26, c) for g in games}  # type: ignore[misc]
            )
            program = min(program, seconds)
            by_deals, seconds, _ = timed(
                lambda c=count: {g: deal_count_odds(g, 26, 26, c) for g in games}  # type: ignore[misc]
            )
            counted = min(counted, seconds)
        same = "the same fractions" if solved == by_deals else "DIFFERENT fractions"
        print(f"  program  {count:<6}  {program:8.3f} s  against the deal count {counted:.3f} s: "
              f"{program / counted:.2f}x ({same}; 16 games, best of {repeats}, in turns)")
    if workers > 1:
        from concurrent.futures import ProcessPoolExecutor

        def both_in_parallel() -> None:
            with ProcessPoolExecutor(workers) as pool:
                for count in ("tricks", "cards"):
                    penney.card_table(3, count=count, executor=pool)

        _, parallel, _ = timed(both_in_parallel)
        print(f"  drawdsl  both    {parallel:8.2f} s  with {workers} worker processes")
    documented = docs_table()
    if documented:
        fresh = {key: docs_row(tables["tricks"][key], tables["cards"][key]) for key in documented}
        same = all(fresh[key] == value for key, value in documented.items())
        print(f"  docs/penney.md table ({len(documented)} rows): {'matches' if same else 'DIFFERS'}")
        if not same:
            for key, cells in fresh.items():
                print("    | " + " | ".join((*key, *cells)) + " |")
    if floor:
        for count in ("tricks", "cards"):
            visited = fewest = 0
            for game in games:
                v, f = states_floor(game, 26, 26, count)
                visited += v
                fewest += f
            print(f"  states   {count:<6}  drawdsl visits {visited} (every lead of a state at once), "
                  f"an evaluation with one state per lead at least {fewest}")
    try:
        import icepool  # noqa: F401
    except ImportError:
        print("  icepool  not installed: pip install icepool (reference skipped)")
        return
    chosen = games if sample is None else games[:: max(1, len(games) // sample)][:sample]
    reference: dict[str, float] = {}
    reference_cpu: dict[str, float] = {}
    for count in ("tricks", "cards"):
        per_game = []
        per_game_cpu = []
        for a, b in chosen:
            result, seconds, cpu = timed(lambda a=a, b=b, c=count: icepool_game((a, b), 26, 26, c))  # type: ignore[misc]
            per_game.append(seconds)
            per_game_cpu.append(cpu)
            exact = tables[count][(a, b)]
            if (result.get(a, 0), result.get(b, 0), result.get(None, 0)) != (
                exact.first_wins, exact.second_wins, exact.draw
            ):
                print(f"  icepool and drawdsl DIFFER on {a} v {b} ({count})")
        mean = sum(per_game) / len(per_game)
        reference[count] = mean * len(games)
        reference_cpu[count] = sum(per_game_cpu) / len(per_game_cpu) * len(games)
        how = "all 16 games measured" if sample is None else (
            f"{len(chosen)} of {len(games)} games measured, totals extrapolated"
        )
        print(f"  icepool  {count:<6}  {reference[count]:8.2f} s  (cpu {reference_cpu[count]:.2f} s; "
              f"{mean:.3f} s per game; {how})")
        print(f"  ratio icepool / drawdsl table, {count}: {reference[count] / ours[count]:.0f}x "
              f"(cpu {reference_cpu[count] / ours_cpu[count]:.0f}x)")
    both, both_cpu = sum(reference.values()), sum(reference_cpu.values())
    print(f"  icepool  both    {both:8.2f} s  (cpu {both_cpu:.2f} s)")
    print(f"  ratio icepool / drawdsl table, whole table: {both / total:.0f}x "
          f"(cpu {both_cpu / total_cpu:.0f}x; same answers on every game run)")


# --------------------------------------------------------------------------- row 2: coins


def matrix_power_odds(a: str, b: str, power: int = 4096) -> float:
    """P(b appears before a) in floats: the automaton's transition matrix to a large power."""
    return matrix_power_race((a, b), "HT", power)[1]


def matrix_power_race(patterns: tuple[str, ...], alphabet: str, power: int = 4096) -> list[float]:
    """Each pattern's chance of appearing first, in floats, as the Markov-chain notebook computes
    it: the automaton's transition matrix (fair symbols) raised to a large power."""
    import numpy as np

    machine = Automaton(patterns, alphabet)
    states = list(machine.states)
    index = {s: i for i, s in enumerate(states)}
    n, m = len(states), len(patterns)
    share = 1.0 / len(alphabet)
    matrix = np.zeros((n + m, n + m))
    for s in states:
        for symbol in alphabet:
            to = machine.move(s, symbol)
            j = n + to if isinstance(to, int) else index[to]
            matrix[index[s], j] += share
    for k in range(m):
        matrix[n + k, n + k] = 1.0
    limit = np.linalg.matrix_power(matrix, power)
    return [float(limit[index[""], n + k]) for k in range(m)]


def best_of(repeats: int, f: Callable[[], Any]) -> tuple[Any, float, float]:
    """``timed(f)`` ``repeats`` times: the last result and the best wall-clock and CPU times."""
    runs = [timed(f) for _ in range(repeats)]
    return runs[-1][0], min(r[1] for r in runs), min(r[2] for r in runs)


def coin_row(workers: int, repeats: int, lengths: tuple[int, ...] = (6, 8)) -> None:
    print("Row 2: every ordered pair of coin patterns of one length (exact unless said)")
    for n in lengths:
        words = penney.all_patterns(n)
        pairs = len(words) * (len(words) - 1)
        rows, ours, ours_cpu = best_of(repeats, lambda n=n: penney.pair_table(n))  # type: ignore[misc]
        peer, conway, conway_cpu = best_of(repeats, lambda w=words: conway_table(w))  # type: ignore[misc]
        same = all(peer[(r.first, r.second)] == r.second_wins for r in rows) and len(peer) == len(rows)
        print(f"  length {n}, {pairs} pairs:")
        print(f"    drawdsl  pair_table (correlations)  {ours * 1e3:9.1f} ms  (cpu {ours_cpu * 1e3:.1f} ms)")
        print(f"    Conway's formula, Fractions         {conway * 1e3:9.1f} ms  "
              f"(cpu {conway_cpu * 1e3:.1f} ms; "
              f"{'the same fractions' if same else 'DIFFERENT fractions'})")
        print(f"    ratio drawdsl / Conway: {ours / conway:.2f}x (cpu {ours_cpu / conway_cpu:.2f}x)")
        bare, seconds, cpu = best_of(repeats, lambda w=words: pair_chances(w))  # type: ignore[misc]
        print(f"    drawdsl  pair_chances (a dict, as Conway's) {seconds * 1e3:9.1f} ms  "
              f"(cpu {cpu * 1e3:.1f} ms; "
              f"{'the same fractions' if bare == peer else 'DIFFERENT fractions'}; "
              f"{seconds / conway:.2f}x Conway, cpu {cpu / conway_cpu:.2f}x)")
        if n <= 6:
            old, automaton, automaton_cpu = timed(lambda n=n: penney.pair_table(n, method="automaton"))  # type: ignore[misc]
            print(f"    drawdsl  automaton route (chances)  {automaton * 1e3:9.1f} ms  (cpu "
                  f"{automaton_cpu * 1e3:.1f} ms; {'the same rows' if old == rows else 'DIFFERENT rows'}; "
                  f"{automaton / ours:.0f}x the correlation route)")
        try:
            import numpy  # noqa: F401
        except ImportError:
            print("    numpy    not installed (float reference skipped)")
            continue
        if n > 6:
            continue

        def floats(w: list[str] = words) -> dict[tuple[str, str], float]:
            return {(a, b): matrix_power_odds(a, b) for a, b in itertools.combinations(w, 2)}

        approx, float_seconds, float_cpu = timed(floats)
        chance = {(r.first, r.second): r.second_wins for r in rows}
        worst = max(abs(float(chance[pair]) - p) for pair, p in approx.items())
        print(f"    numpy    matrix power, floats       {float_seconds * 1e3:9.1f} ms  (cpu "
              f"{float_cpu * 1e3:.1f} ms; unordered pairs; largest difference {worst:.1e})")
        print(f"    ratio drawdsl / matrix power: {ours / float_seconds:.2f}x "
              f"(cpu {ours_cpu / float_cpu:.2f}x)")


def three_player_row(repeats: int, alphabet: str = "012", length: int = 3) -> None:
    words = penney.all_patterns(length, alphabet)
    games = list(itertools.combinations(words, 3))
    print(f"Row 3: every three-player race of length-{length} patterns over {alphabet!r} "
          f"({len(games)} races)")
    from games.penney.correlation import Correlations

    def ours() -> list[tuple[Fraction, ...]]:
        table = Correlations(alphabet)
        return [table.solve(g)[0] for g in games]

    exact, seconds, cpu = best_of(repeats, ours)
    print(f"    drawdsl  correlations, exact        {seconds * 1e3:9.1f} ms  (cpu {cpu * 1e3:.1f} ms)")
    sample = games[:: max(1, len(games) // 40)]
    automaton = [penney.odds(*g, alphabet=alphabet, method="automaton") for g in sample]
    same = all(tuple(o.wins.values()) == exact[games.index(g)]
               for g, o in zip(sample, automaton, strict=True))
    print(f"    (the automaton route on {len(sample)} of them: "
          f"{'the same' if same else 'DIFFERENT'} fractions)")
    try:
        import numpy  # noqa: F401
    except ImportError:
        print("    numpy    not installed (float reference skipped)")
        return
    approx, float_seconds, float_cpu = best_of(
        repeats, lambda: [matrix_power_race(g, alphabet, 1024) for g in games]
    )
    worst = max(abs(float(q) - f)
                for e, a in zip(exact, approx, strict=True) for q, f in zip(e, a, strict=True))
    print(f"    numpy    matrix power 1024, floats  {float_seconds * 1e3:9.1f} ms  "
          f"(cpu {float_cpu * 1e3:.1f} ms; "
          f"largest difference {worst:.1e})")
    print(f"    ratio drawdsl / matrix power: {seconds / float_seconds:.2f}x (cpu {cpu / float_cpu:.2f}x)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.penney", description=__doc__.split("\n\n")[0])
    parser.add_argument("--sample", type=int, default=None,
                        help="run icepool on N of the 16 games per count and extrapolate (default: all)")
    parser.add_argument("--floor", action="store_true",
                        help="also count the states visited against the fewest possible (a few minutes)")
    parser.add_argument("--workers", type=int, default=2, help="also time the card table on N processes")
    parser.add_argument("--skip-cards", action="store_true", help="only the coin and die rows")
    parser.add_argument("--repeats", type=int, default=3, help="runs of each fast row, best kept (default 3)")
    args = parser.parse_args(argv)
    print(f"python {sys.version.split()[0]}")
    if not args.skip_cards:
        card_row(args.sample, args.workers, args.floor, args.repeats)
    coin_row(args.workers, args.repeats)
    three_player_row(args.repeats)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
