"""The cyclic solver's crossover, measured: ``python -m bench.cyclic [--budget S]``.

Three families of absorbing chains, built as loop specs on with-replacement sources
and collected by :func:`drawdsl.cyclic.collect_graph`, each at growing sizes:

* ``window``: a race between two length-L coin patterns whose loop state is the
  last L flips (about 2^L states; they lump to the pattern automaton, 2L - 1 states);
* ``grid``: a walk on an L x L grid (N/S/E/W), finishing with the side it leaves by
  (L^2 states, nothing lumps, lots of fill-in);
* ``ring``: a die moving a token round a ring of m cells, home at 0, failing at m/2.

For each chain: the time to lump, then the time of each linear solver on the lumped
system (and on the unlumped one): the sparse fraction-free integer elimination and
sympy's sparse ``DomainMatrix`` rref over QQ.  Answers must be equal.  A solver that
took over ``--budget`` seconds is not run on the larger sizes of that family.
Numbers are reported, never asserted.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Iterator
from typing import Any

from drawdsl import Spec, Weighted, coin, die, done, fail, loop
from drawdsl.cyclic import _check_ends, _lump, _rows, _solve, collect_graph


class _Race:
    def __init__(self, a: str, b: str) -> None:
        self.a, self.b, self.width = a, b, len(a)

    def __call__(self, state: str, side: str) -> Any:
        state = (state + side)[-self.width:]
        return done(state) if state in (self.a, self.b) else state


_MOVES = {"N": (0, 1), "S": (0, -1), "E": (1, 0), "W": (-1, 0)}


class _Grid:
    def __init__(self, size: int) -> None:
        self.size = size

    def __call__(self, state: tuple[int, int], move: str) -> Any:
        dx, dy = _MOVES[move]
        x, y = state[0] + dx, state[1] + dy
        if not (0 <= x < self.size and 0 <= y < self.size):
            return done(move)
        return (x, y)


class _Ring:
    def __init__(self, cells: int) -> None:
        self.cells = cells

    def __call__(self, state: int, face: int) -> Any:
        cell = (state + face) % self.cells
        if cell == 0:
            return done("home")
        return fail() if cell == self.cells // 2 else cell


def families() -> Iterator[tuple[str, int, Spec[Any], Weighted[Any]]]:
    for length in range(4, 14):
        a, b = ("HT" * 10)[:length], ("TTH" * 10)[:length]
        yield "window", length, loop("", _Race(a, b)), coin()
    for size in (4, 8, 12, 16, 24, 32, 45):
        yield "grid", size, loop((size // 2, size // 2), _Grid(size)), Weighted("NSEW")
    for cells in (16, 64, 256, 1024, 4096):
        yield "ring", cells, loop(1, _Ring(cells)), die(6)


def _ms(seconds: float) -> str:
    return f"{seconds * 1e3:.3g} ms" if seconds < 1 else f"{seconds:.3g} s"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.cyclic", description=__doc__.split("\n\n")[0])
    parser.add_argument("--budget", type=float, default=10.0,
                        help="a solver slower than this is not run on larger chains of the family")
    args = parser.parse_args(argv)
    solvers = [("sparse", True), ("sympy", True), ("sparse", False), ("sympy", False)]
    header = ["family", "size", "states", "lumped", "lumping", *(
        f"{m}{'' if lump else ' unlumped'}" for m, lump in solvers), "same"]
    print("| " + " | ".join(header) + " |")
    print("|" + "|".join("---" for _ in header) + "|")
    given_up: set[tuple[str, str, bool]] = set()
    for family, size, spec, source in families():
        graph, start = collect_graph(spec, source, 10**6)
        _check_ends(graph, start)
        t = time.perf_counter()
        lumped, lumped_start = _lump(graph.edges, start)
        lumping = time.perf_counter() - t
        cells = [family, str(size), str(len(graph.edges)), str(len(lumped)), _ms(lumping)]
        answers = []
        for method, lump in solvers:
            if (family, method, lump) in given_up:
                cells.append(f"> {args.budget:g} s (not run)")
                continue
            edges, s = (lumped, lumped_start) if lump else (graph.edges, start)
            rows, outcomes = _rows(edges, source.total)
            t = time.perf_counter()
            answers.append(_solve(rows, s, len(outcomes) + 1, method))
            seconds = time.perf_counter() - t
            cells.append(_ms(seconds))
            if seconds > args.budget:
                given_up.add((family, method, lump))
        cells.append("yes" if all(a == answers[0] for a in answers) else "NO")
        print("| " + " | ".join(cells) + " |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
