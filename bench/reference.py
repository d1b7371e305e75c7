"""Reference methods written directly for one question each (no drawdsl, no peer library).

* :func:`poker_brute_force`: every one of the 2,598,960 five-card hands.
* :func:`rbr_recursion`: a memoized recursion over (reds left, blacks left, automaton state).
* :func:`war_sweep_abstract_deck`: Norvig's "abstract deck" for War, in floats.
"""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction
from functools import cache

from bench.peers import _category

__all__ = ["poker_brute_force", "rbr_recursion", "war_sweep_abstract_deck"]


# --------------------------------------------------------------------------- 3. poker, brute force


def poker_brute_force() -> dict[str, Fraction]:
    """Classify every hand of ``itertools.combinations(range(52), 5)``.

    Card ``i`` has rank ``2 + i // 4`` and suit ``i % 4``; hands come out in ascending
    order, so their ranks are already sorted.  The category of a rank tuple is cached
    (6,175 distinct rank multisets), the flush test is done per hand.
    """
    rank_of = [2 + i // 4 for i in range(52)]
    suit_of = [i % 4 for i in range(52)]
    counts: dict[tuple[tuple[int, ...], bool], int] = {}
    for a, b, c, d, e in itertools.combinations(range(52), 5):
        ranks: tuple[int, ...] = (rank_of[a], rank_of[b], rank_of[c], rank_of[d], rank_of[e])
        s = suit_of[a]
        flush = s == suit_of[b] == suit_of[c] == suit_of[d] == suit_of[e]
        key = (ranks, flush)
        counts[key] = counts.get(key, 0) + 1
    total = sum(counts.values())
    result: dict[str, Fraction] = {}
    for (ranks, flush), n in counts.items():
        category = _category(ranks, flush)
        result[category] = result.get(category, Fraction(0)) + Fraction(n, total)
    return result


# --------------------------------------------------------------------------- 4. first RBR


_RBR_NEXT = {
    (0, "R"): 1, (0, "B"): 0,
    (1, "R"): 1, (1, "B"): 2,
    (2, "R"): 3, (2, "B"): 0,
}


def rbr_recursion(reds: int = 26, blacks: int = 26) -> dict[str, Fraction]:
    """The position where R B R first completes, by a memoized recursion with Fractions.

    ``rest(r, b, m)`` is the distribution of "cards still to draw until R B R completes"
    (``None``: never) from ``r`` reds and ``b`` blacks left with ``m`` letters of the
    pattern matched.
    """

    @cache
    def rest(r: int, b: int, matched: int) -> dict[int | None, Fraction]:
        n = r + b
        if n == 0:
            return {None: Fraction(1)}
        out: dict[int | None, Fraction] = {}
        for colour, count in (("R", r), ("B", b)):
            if not count:
                continue
            p = Fraction(count, n)
            m = _RBR_NEXT[matched, colour]
            if m == 3:
                out[1] = out.get(1, Fraction(0)) + p
                continue
            for offset, q in rest(r - (colour == "R"), b - (colour == "B"), m).items():
                key = None if offset is None else offset + 1
                out[key] = out.get(key, Fraction(0)) + p * q
        return out

    return {("never" if k is None else str(k)): v for k, v in rest(reds, blacks, 0).items()}


# --------------------------------------------------------------------------- 5. War sweep


def war_sweep_abstract_deck(ranks: int = 13, suits: int = 4) -> float:
    """P(A wins every turn of War), Norvig-style, in floats.

    The deck is abstracted to the sorted tuple of per-rank counts (which rank has
    which count does not matter for what follows).  Each turn A draws a card, then B;
    a tie ends the sweep.  A's card beats B's in exactly half of the ordered non-tied
    pairs from a given deck (A and B draw alike), and both orders leave the same
    abstract deck, so the turn sums the ordered pairs of different ranks with weight
    1/2: that is the strictly-lower path sum, computed on the abstract deck.  Ranks
    with equal counts are taken together (a count class and its size).
    """

    @cache
    def sweep(counts: tuple[int, ...]) -> float:
        n = sum(counts)
        if n == 0:
            return 1.0
        classes = Counter(counts)  # count left -> how many ranks have it
        pairs = n * (n - 1)
        total = 0.0
        for ca, ma in classes.items():  # A's card: one of the ma ranks with ca cards left
            for cb, mb in classes.items():  # B's card: a different rank
                others = ma - 1 if cb == ca else mb
                if not others:
                    continue
                after = list(counts)
                after[after.index(ca)] -= 1
                after[after.index(cb)] -= 1
                weight = ca * ma * cb * others / pairs
                total += 0.5 * weight * sweep(tuple(sorted(c for c in after if c)))
        return total

    return sweep(tuple([suits] * ranks))
