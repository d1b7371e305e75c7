"""Games of War per second on one core: a plain deque loop, the reference engine, the batched
NumPy engine and the compiled (numba) engine, side by side in one run, for every preset.

Run: ``python -m bench.war_games [--games N] [--plain-games M] [--seed S]``

All engines play the same deals.  The batched and compiled engines' records must equal
the reference engine's game by game (checked here on the games all played); the plain
loops' statistics are printed next to the others.  Rates are games per second of the
process's CPU time, the best of three runs; the runs are interleaved (each round runs
every engine once), so that a busy moment of a shared machine falls on all of them
alike.  The compiled engine is timed after one small warm-up call (numba compiles, or
loads its cache, on the first call); without numba its row says so.  The plain loops
are written as a Python programmer would write them for speed: deques, the methods
bound to local names, a plain battle without building lists, no cycle detection, no
bookkeeping beyond the rules.
"""

from __future__ import annotations

import argparse
import time
from collections import deque
from collections.abc import Callable, Sequence

import numpy as np

from games.war import compiled
from games.war.batch import play_batch
from games.war.engine import play_game
from games.war.rules import OUTCOMES, preset
from games.war.simulate import BLOCK, deal_block


def plain_face_down(face_down: int) -> Callable[[Sequence[int], Sequence[int]], tuple[str, int]]:
    """The standard rules with ``face_down`` cards face down in a war (fewer when short: the
    last card is turned up), as a plain deque loop."""

    def play(hand_a: Sequence[int], hand_b: Sequence[int]) -> tuple[str, int]:
        a, b = deque(hand_a), deque(hand_b)
        take_a, take_b, give_a, give_b = a.popleft, b.popleft, a.extend, b.extend
        battles = 0
        while a and b:
            battles += 1
            x, y = take_a(), take_b()
            if x > y:
                give_a((x, y))
            elif y > x:
                give_b((y, x))
            else:  # a war, until the face-up cards differ
                took_a, took_b = [x], [y]
                while x == y:
                    if not a or not b:  # a player with no card left loses the war
                        return ("tie" if not a and not b else "A" if a else "B"), battles
                    for _ in range(min(face_down, len(a) - 1)):
                        took_a.append(take_a())
                    for _ in range(min(face_down, len(b) - 1)):
                        took_b.append(take_b())
                    x, y = take_a(), take_b()
                    took_a.append(x)
                    took_b.append(y)
                if x > y:
                    give_a(took_a)
                    give_a(took_b)
                else:
                    give_b(took_b)
                    give_b(took_a)
        return ("tie" if not a and not b else "A" if a else "B"), battles

    return play


def plain_standard(hand_a: Sequence[int], hand_b: Sequence[int]) -> tuple[str, int]:
    """The standard rules (one card face down in a war) as a plain deque loop."""
    a, b = deque(hand_a), deque(hand_b)
    take_a, take_b, give_a, give_b = a.popleft, b.popleft, a.extend, b.extend
    battles = 0
    while a and b:
        battles += 1
        x, y = take_a(), take_b()
        if x > y:
            give_a((x, y))
        elif y > x:
            give_b((y, x))
        else:  # a war, until the face-up cards differ
            took_a, took_b = [x], [y]
            while x == y:
                if not a or not b:  # a player with no card left loses the war
                    return ("tie" if not a and not b else "A" if a else "B"), battles
                if len(a) > 1:
                    took_a.append(take_a())  # one card face down
                if len(b) > 1:
                    took_b.append(take_b())
                x, y = take_a(), take_b()
                took_a.append(x)
                took_b.append(y)
            if x > y:
                give_a(took_a)
                give_a(took_b)
            else:
                give_b(took_b)
                give_b(took_a)
    return ("tie" if not a and not b else "A" if a else "B"), battles


def plain_rblog(hand_a: Sequence[int], hand_b: Sequence[int]) -> tuple[str, int]:
    """The R-bloggers rules as a plain deque loop."""
    a, b = deque(hand_a), deque(hand_b)
    take_a, take_b, give_a, give_b = a.popleft, b.popleft, a.extend, b.extend
    battles = 0
    while True:
        battles += 1
        x, y = take_a(), take_b()
        if x != y:
            # a 2 beats an ace in a plain battle; the pair goes under the winner as played
            if (x > y) != ((x == 14 and y == 2) or (x == 2 and y == 14)):
                give_a((x, y))
            else:
                give_b((x, y))
        else:  # a war: three down and one up while both can; when one cannot, B takes the table
            pot: list[int] = []
            while x == y and len(a) >= 4 and len(b) >= 4:
                pot.append(x)
                pot += [take_a() for _ in range(3)]
                pot.append(y)
                pot += [take_b() for _ in range(3)]
                x, y = take_a(), take_b()
            pot += (x, y)
            (give_a if x > y else give_b)(pot)
        if not a or not b:
            return ("A" if a else "B"), battles
        if battles >= 5000:
            return "capped", battles


#: Rounds of measurement; each engine's fastest run is kept.
REPEATS = 3


def rates(runs: dict[str, tuple[int, Callable[[], object]]]) -> dict[str, tuple[float, object]]:
    """Games per second of CPU time (this process's: one core, whatever else the machine
    runs) of each ``name: (games, run)``, the best of :data:`REPEATS` rounds; each round
    runs every engine once, so that all see the machine in the same state."""
    best = dict.fromkeys(runs, float("inf"))
    results: dict[str, object] = {}
    for _ in range(REPEATS):
        for name, (_, run) in runs.items():
            start = time.process_time()
            results[name] = run()
            best[name] = min(best[name], time.process_time() - start)
    return {name: (count / max(best[name], 1e-9), results[name]) for name, (count, _) in runs.items()}


def bench(name: str, decks: np.ndarray, plain: Callable[[Sequence[int], Sequence[int]], tuple[str, int]],
          plain_games: int) -> dict[str, float]:
    """Print one preset's rows; returns the rates (games/s) by engine."""
    rules = preset(name)
    rows = decks.tolist()
    few = rows[:plain_games]
    runs: dict[str, tuple[int, Callable[[], object]]] = {
        "plain": (len(few), lambda: [plain(r[0::2], r[1::2]) for r in few]),
        "reference": (len(few), lambda: [play_game(r[0::2], r[1::2], rules, top=14) for r in few]),
        "numpy": (len(rows), lambda: play_batch(decks, rules, top=14)),
    }
    if compiled.available():
        compiled.play_deals(decks[:2], rules, top=14)  # compile, or load the cache: not timed
        runs["compiled"] = (len(rows), lambda: compiled.play_deals(decks, rules, top=14))
    measured = rates(runs)
    plain_out = measured["plain"][1]
    reference = [(g.winner, g.battles) for g in measured["reference"][1]]  # type: ignore[attr-defined]

    def records(engine: str) -> list[tuple[str, int]]:
        rec = measured[engine][1]
        return [(OUTCOMES[w], b) for w, b in zip(rec.winner.tolist(), rec.battles.tolist(),  # type: ignore[attr-defined]
                                                 strict=True)]

    fast = records("numpy")
    assert fast[: len(few)] == reference, "the batched engine must equal the reference engine"
    same_as_plain = sum(p == r for p, r in zip(plain_out, reference, strict=False))  # type: ignore[call-overload]

    def stats(results: Sequence[tuple[str, int]]) -> str:
        wins = sum(w == "A" for w, _ in results) / len(results)
        ended = [b for w, b in results if w in ("A", "B", "tie")]
        return f"P(A wins) {wins:.4f}  mean battles {sum(ended) / max(1, len(ended)):7.1f}"

    out = {engine: rate for engine, (rate, _) in measured.items()}
    print(f"{name}:")
    print(f"  plain deque loop   {out['plain']:>9,.0f} games/s   ({len(few)} games; {stats(plain_out)})")  # type: ignore[arg-type]
    print(f"  reference engine   {out['reference']:>9,.0f} games/s   ({len(few)} games; {stats(reference)})")
    print(f"  batched (NumPy)    {out['numpy']:>9,.0f} games/s   ({len(rows)} games; {stats(fast)})")
    if "compiled" in out:
        comp = records("compiled")
        assert comp == fast, "the compiled engine must equal the batched and reference engines"
        print(f"  compiled (numba)   {out['compiled']:>9,.0f} games/s   ({len(rows)} games; {stats(comp)})")
    else:
        print("  compiled (numba)   not installed (pip install \"drawdsl[numba]\")")
    print(f"  batched / plain    {out['numpy'] / out['plain']:>9.1f} x")
    if "compiled" in out:
        print(f"  compiled / plain   {out['compiled'] / out['plain']:>9.1f} x")
    print(f"  the plain loop gives the reference engine's (winner, battles) on {same_as_plain} of "
          f"{len(few)} deals; the other engines on all of them")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=20 * BLOCK, help="games for the batched engine")
    parser.add_argument("--plain-games", type=int, default=2000, help="games for the plain loops")
    parser.add_argument("--seed", type=int, default=2012)
    args = parser.parse_args()
    blocks = -(-args.games // BLOCK)
    decks = np.concatenate([deal_block(args.seed, b)[0] for b in range(blocks)])[: args.games]
    print(f"War, one core, {args.games} deals (seed {args.seed}); games per CPU second, best of {REPEATS} "
          "interleaved rounds")
    bench("standard", decks, plain_standard, args.plain_games)
    bench("three-down", decks, plain_face_down(3), args.plain_games)
    bench("no-face-down", decks, plain_face_down(0), args.plain_games)
    bench("rblog", decks, plain_rblog, args.plain_games)


if __name__ == "__main__":
    main()
