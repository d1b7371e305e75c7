"""Games of War per second on one core: a plain deque loop, the reference engine, the batched
NumPy engine and the compiled (numba) engine, side by side in one run, for every preset.

Run: ``python -m bench.war_games [--games N] [--plain-games M] [--seed S]``

All engines play the same deals.  The batched and compiled engines' records must equal
the reference engine's game by game (checked here on the games all played); the plain
loops' statistics are printed next to the others.  Rates are games per second of the
process's CPU time, the best of three runs.  The compiled engine is timed after
one small warm-up call (numba compiles, or loads its cache, on the first call); without
numba its row says so.  The plain loops are written as a Python programmer would write
them for speed: deques, no cycle detection, no bookkeeping beyond the rules.
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


def plain_standard(hand_a: Sequence[int], hand_b: Sequence[int]) -> tuple[str, int]:
    """The standard rules as a plain loop: one deque per hand, no cycle detection."""
    a, b = deque(hand_a), deque(hand_b)
    battles = 0
    while a and b:
        battles += 1
        took_a, took_b = [a.popleft()], [b.popleft()]
        while True:
            x, y = took_a[-1], took_b[-1]
            if x != y:
                won = took_a + took_b if x > y else took_b + took_a
                (a if x > y else b).extend(won)
                break
            if not a or not b:  # a player with no card left loses the war
                return ("tie" if not a and not b else "A" if a else "B"), battles
            for pile, took in ((a, took_a), (b, took_b)):
                if len(pile) > 1:
                    took.append(pile.popleft())  # one card face down
                took.append(pile.popleft())
    return ("tie" if not a and not b else "A" if a else "B"), battles


def plain_rblog(hand_a: Sequence[int], hand_b: Sequence[int]) -> tuple[str, int]:
    """The R-bloggers rules as a plain deque loop."""
    a, b = deque(hand_a), deque(hand_b)
    n = len(a) + len(b)
    battles = 0
    while True:
        x, y = a[0], b[0]
        if x != y:
            a.popleft()
            b.popleft()
            a_wins = (x > y) != ((x == 14 and y == 2) or (x == 2 and y == 14))
            (a if a_wins else b).extend((x, y))
        else:
            pot: list[int] = []
            while a[0] == b[0] and len(a) >= 5 and len(b) >= 5:
                pot += [a.popleft() for _ in range(4)]
                pot += [b.popleft() for _ in range(4)]
            x, y = a.popleft(), b.popleft()
            pot += (x, y)
            (a if x > y else b).extend(pot)
        battles += 1
        if len(a) in (0, n):
            return ("A" if a else "B"), battles
        if battles >= 5000:
            return "capped", battles


def plain_face_down(face_down: int) -> Callable[[Sequence[int], Sequence[int]], tuple[str, int]]:
    """The standard rules with ``face_down`` cards face down in a war, as a plain deque loop."""

    def play(hand_a: Sequence[int], hand_b: Sequence[int]) -> tuple[str, int]:
        a, b = deque(hand_a), deque(hand_b)
        battles = 0
        while a and b:
            battles += 1
            took_a, took_b = [a.popleft()], [b.popleft()]
            while True:
                x, y = took_a[-1], took_b[-1]
                if x != y:
                    won = took_a + took_b if x > y else took_b + took_a
                    (a if x > y else b).extend(won)
                    break
                if not a or not b:
                    return ("tie" if not a and not b else "A" if a else "B"), battles
                for pile, took in ((a, took_a), (b, took_b)):
                    for _ in range(min(face_down, len(pile) - 1)):
                        took.append(pile.popleft())
                    took.append(pile.popleft())
        return ("tie" if not a and not b else "A" if a else "B"), battles

    return play


#: Runs of each measurement; the fastest is kept.
REPEATS = 3


def rate(count: int, run: Callable[[], object]) -> tuple[float, object]:
    """Games per second of CPU time (this process's: one core, whatever else the machine
    runs), the best of :data:`REPEATS` runs."""
    best = float("inf")
    result: object = None
    for _ in range(REPEATS):
        start = time.process_time()
        result = run()
        best = min(best, time.process_time() - start)
    return count / max(best, 1e-9), result


def bench(name: str, decks: np.ndarray, plain: Callable[[Sequence[int], Sequence[int]], tuple[str, int]],
          plain_games: int) -> dict[str, float]:
    """Print one preset's rows; returns the rates (games/s) by engine."""
    rules = preset(name)
    rows = decks.tolist()
    few = rows[:plain_games]
    plain_rate, plain_out = rate(len(few), lambda: [plain(r[0::2], r[1::2]) for r in few])
    ref_rate, ref_out = rate(len(few), lambda: [play_game(r[0::2], r[1::2], rules, top=14) for r in few])
    fast_rate, records = rate(len(rows), lambda: play_batch(decks, rules, top=14))
    fast = [(OUTCOMES[w], b) for w, b in zip(records.winner.tolist(), records.battles.tolist(), strict=False)]  # type: ignore[attr-defined]
    reference = [(g.winner, g.battles) for g in ref_out]  # type: ignore[attr-defined]
    assert fast[: len(few)] == reference, "the batched engine must equal the reference engine"
    same_as_plain = sum(p == r for p, r in zip(plain_out, reference, strict=False))  # type: ignore[call-overload]
    rates = {"plain": plain_rate, "reference": ref_rate, "numpy": fast_rate}

    def stats(results: Sequence[tuple[str, int]]) -> str:
        wins = sum(w == "A" for w, _ in results) / len(results)
        ended = [b for w, b in results if w in ("A", "B", "tie")]
        return f"P(A wins) {wins:.4f}  mean battles {sum(ended) / max(1, len(ended)):7.1f}"

    print(f"{name}:")
    print(f"  plain deque loop   {plain_rate:>9,.0f} games/s   ({len(few)} games; {stats(plain_out)})")  # type: ignore[arg-type]
    print(f"  reference engine   {ref_rate:>9,.0f} games/s   ({len(few)} games; {stats(reference)})")
    print(f"  batched (NumPy)    {fast_rate:>9,.0f} games/s   ({len(rows)} games; {stats(fast)})")
    if compiled.available():
        compiled.play_deals(decks[:2], rules, top=14)  # compile, or load the cache: not timed
        comp_rate, comp_records = rate(len(rows), lambda: compiled.play_deals(decks, rules, top=14))
        comp = [(OUTCOMES[w], b) for w, b in zip(comp_records.winner.tolist(),  # type: ignore[attr-defined]
                                                 comp_records.battles.tolist(), strict=False)]  # type: ignore[attr-defined]
        assert comp == fast, "the compiled engine must equal the batched and reference engines"
        rates["compiled"] = comp_rate
        print(f"  compiled (numba)   {comp_rate:>9,.0f} games/s   ({len(rows)} games; {stats(comp)})")
    else:
        print("  compiled (numba)   not installed (pip install \"drawdsl[numba]\")")
    print(f"  batched / plain    {fast_rate / plain_rate:>9.1f} x")
    if "compiled" in rates:
        print(f"  compiled / plain   {rates['compiled'] / plain_rate:>9.1f} x")
    print(f"  the plain loop gives the reference engine's (winner, battles) on {same_as_plain} of "
          f"{len(few)} deals; the other engines on all of them")
    return rates


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=20 * BLOCK, help="games for the batched engine")
    parser.add_argument("--plain-games", type=int, default=2000, help="games for the plain loops")
    parser.add_argument("--seed", type=int, default=2012)
    args = parser.parse_args()
    blocks = -(-args.games // BLOCK)
    decks = np.concatenate([deal_block(args.seed, b)[0] for b in range(blocks)])[: args.games]
    print(f"War, one core, {args.games} deals (seed {args.seed}); games per CPU second, best of {REPEATS}")
    bench("standard", decks, plain_standard, args.plain_games)
    bench("three-down", decks, plain_face_down(3), args.plain_games)
    bench("no-face-down", decks, plain_face_down(0), args.plain_games)
    bench("rblog", decks, plain_rblog, args.plain_games)


if __name__ == "__main__":
    main()
