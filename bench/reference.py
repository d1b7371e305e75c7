"""Reference methods written directly for one question each (no drawdsl, no peer library).

* :func:`ace_within_formula`, :func:`flush_formula`, :func:`poker_formula`: the textbook
  closed forms (binomial coefficients).
* :func:`poker_brute_force`: every one of the 2,598,960 five-card hands.
* :func:`rbr_recursion`: a memoized recursion over (reds left, blacks left, automaton state).
* :func:`rbr_forward`: a forward pass over (reds turned, automaton state), integer counts.
* :func:`conway_table`: Penney races on a coin by Conway's leading numbers (closed form).
* :func:`war_sweep_abstract_deck`: Norvig's "abstract deck" for War, in floats.
* :func:`war_sweep_counts_of_counts`: War exactly, a forward pass over counts of counts.
* :func:`war_sweep_packed`: the same pass with each counts of counts packed into one integer.
* :func:`war_sweep_inclusion_exclusion`: War exactly in closed form, by inclusion-exclusion
  over the tied turns.
* :func:`no_adjacent_rank_counts_of_counts`: no equal neighbours, memoized over counts of counts.
* :func:`no_adjacent_rank_packed`: the same as a forward pass over packed counts of counts.
* :func:`no_adjacent_rank_inclusion_exclusion`: no equal neighbours in closed form.
* :func:`shared_rank_product`: cards until a rank repeats, a product formula.
* :func:`longest_suit_run_forward`: the longest same-suit run, a forward pass over sorted counts.
* :func:`longest_suit_run_packed`: the same pass with the other suits' counts as counts
  of counts packed in one integer (no sorting).

Each is checked against a brute force over every deal of small decks in
``tests/test_bench_references.py``.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Iterable
from fractions import Fraction
from functools import cache

from bench.peers import _category

__all__ = [
    "ace_within_formula",
    "flush_formula",
    "poker_formula",
    "poker_brute_force",
    "rbr_recursion",
    "rbr_forward",
    "leading_number",
    "conway_table",
    "war_sweep_abstract_deck",
    "war_sweep_counts_of_counts",
    "war_sweep_packed",
    "war_sweep_inclusion_exclusion",
    "no_adjacent_rank_counts_of_counts",
    "no_adjacent_rank_packed",
    "no_adjacent_rank_inclusion_exclusion",
    "shared_rank_product",
    "longest_suit_run_forward",
    "longest_suit_run_packed",
]


# --------------------------------------------------------------------------- 1-3. closed forms


def ace_within_formula(aces: int = 4, others: int = 48, within: int = 3) -> Fraction:
    """P(an ace among the first ``within`` cards): one minus the share of ace-free hands.

    >>> ace_within_formula()
    Fraction(1201, 5525)
    """
    return 1 - Fraction(math.comb(others, within), math.comb(aces + others, within))


def flush_formula(suits: int = 4, per_suit: int = 13, hand: int = 5) -> Fraction:
    """P(``hand`` cards all of one suit), straight flushes included.

    >>> flush_formula()
    Fraction(33, 16660)
    """
    return Fraction(suits * math.comb(per_suit, hand), math.comb(suits * per_suit, hand))


def poker_formula() -> dict[str, Fraction]:
    """The 10 categories of a 5-card hand from 52 cards, counted by the textbook formulas.

    >>> poker_formula()["full house"] * math.comb(52, 5)
    Fraction(3744, 1)
    """
    c = math.comb
    straight_flushes = 10 * 4  # 10 runs of five ranks (ace low to ace high), 4 suits
    counts = {
        "royal flush": 4,
        "straight flush": straight_flushes - 4,
        "four of a kind": 13 * 48,
        "full house": 13 * c(4, 3) * 12 * c(4, 2),
        "flush": 4 * c(13, 5) - straight_flushes,
        "straight": 10 * 4**5 - straight_flushes,
        "three of a kind": 13 * c(4, 3) * c(12, 2) * 4**2,
        "two pair": c(13, 2) * c(4, 2) ** 2 * 44,
        "one pair": 13 * c(4, 2) * c(12, 3) * 4**3,
        "high card": (c(13, 5) - 10) * (4**5 - 4),
    }
    total = c(52, 5)
    return {category: Fraction(n, total) for category, n in counts.items()}


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


def rbr_forward(reds: int = 26, blacks: int = 26) -> dict[str, Fraction]:
    """:func:`rbr_recursion` as a forward pass with integers, as a counting expert writes it.

    A layer maps (reds turned, automaton state) to the number of colour sequences
    reaching it without R B R; a sequence completing it at position ``t`` counts the
    ``C(cards left, reds left)`` orders of the rest.  Every colour sequence is equally
    likely, so each count is over ``C(reds + blacks, reds)``.

    >>> rbr_forward(2, 1) == rbr_recursion(2, 1)
    True
    """
    n = reds + blacks
    total = math.comb(n, reds)
    at: dict[str, int] = {}
    layer = {(0, 0): 1}
    for turned in range(n):
        nxt: dict[tuple[int, int], int] = {}
        for (r, matched), ways in layer.items():
            for colour in "RB":
                r2 = r + (colour == "R")
                if r2 > reds or turned + 1 - r2 > blacks:
                    continue
                m = _RBR_NEXT[matched, colour]
                if m == 3:
                    key = str(turned + 1)
                    at[key] = at.get(key, 0) + ways * math.comb(n - turned - 1, reds - r2)
                else:
                    nxt[r2, m] = nxt.get((r2, m), 0) + ways
        layer = nxt
    result = {position: Fraction(ways, total) for position, ways in at.items()}
    result["never"] = Fraction(sum(layer.values()), total)
    return result


def leading_number(x: str, y: str) -> int:
    """Conway's leading number x:y on a fair coin: the sum of 2^k over the overlaps k."""
    total = 0
    for k in range(1, min(len(x), len(y)) + 1):
        if x[-k:] == y[:k]:
            total += 1 << k
    return total


def conway_table(words: list[str]) -> dict[tuple[str, str], Fraction]:
    """P(b appears before a) for every ordered pair, by Conway's formula in Fractions, written
    as its experts would: each leading number once (integers), one Fraction per ordered pair.

    >>> conway_table(["HHT", "THH"])[("HHT", "THH")]
    Fraction(3, 4)
    """
    lead = {(x, y): leading_number(x, y) for x in words for y in words}
    out = {}
    for a in words:
        aa = lead[a, a]
        for b in words:
            if a != b:
                x = lead[b, b] - lead[b, a]
                y = aa - lead[a, b]
                out[(a, b)] = Fraction(y, x + y)
    return out


def penney_conway() -> dict[str, Fraction]:
    """P(first pattern wins) for all 56 ordered pairs of length-3 coin patterns, keyed
    ``"a>b"`` as the bench row's, by :func:`conway_table`."""
    words = ["".join(p) for p in itertools.product("HT", repeat=3)]
    table = conway_table(words)
    return {f"{a}>{b}": table[b, a] for a in words for b in words if a != b}


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


# --------------------------------------------------------------------------- counts of counts


def _shape(counts: Iterable[int], suits: int) -> tuple[int, ...]:
    """Counts of counts: entry ``k - 1`` is how many ranks have ``k`` cards left."""
    shape = [0] * suits
    for c in counts:
        if c:
            shape[c - 1] += 1
    return tuple(shape)


def war_sweep_counts_of_counts(ranks: int = 13, suits: int = 4) -> Fraction:
    """P(A wins every turn of War), exactly: a forward pass over counts of counts.

    The state after each turn is how many ranks have k cards left (k = 1..suits),
    with the integer number of ordered card sequences that reach it; a turn takes
    A's card and B's card of different ranks.  Both orders of a non-tied pair lead
    to the same state, and exactly one of them is A's win, so the sweep counts are
    the tie-free counts halved at every turn: ``P = tie-free / (N! 2^turns)``.
    """
    n = ranks * suits
    turns = n // 2
    layer: dict[tuple[int, ...], int] = {_shape([suits] * ranks, suits): 1}
    for _ in range(turns):
        nxt: dict[tuple[int, ...], int] = {}
        for shape, ways in layer.items():
            present = [k for k in range(suits) if shape[k]]
            for x, i in enumerate(present):
                mi = shape[i]
                for j in present[x:]:
                    if i == j:
                        if mi < 2:
                            continue
                        w = (i + 1) * (i + 1) * mi * (mi - 1)  # ordered pairs of two ranks of class i
                    else:
                        w = 2 * (i + 1) * mi * (j + 1) * shape[j]  # both orders
                    after = list(shape)
                    after[i] -= 1
                    after[j] -= 1
                    if i:
                        after[i - 1] += 1
                    if j:
                        after[j - 1] += 1
                    key = tuple(after)
                    nxt[key] = nxt.get(key, 0) + ways * w
        layer = nxt
    tie_free = sum(layer.values())
    return Fraction(tie_free, math.factorial(n) * 2**turns)


def _packing(ranks: int, suits: int) -> tuple[int, int, list[int]]:
    """Counts of counts in one integer: ``(width, mask, unit)``, the slot of count ``k``
    (``k = 1..suits``) at bits ``width (k - 1)``; ``unit[k]`` is one rank with ``k``
    cards left (``unit[0] = 0``: a rank with none is not kept)."""
    width = ranks.bit_length() + 1  # no slot holds more than `ranks`
    return width, (1 << width) - 1, [0] + [1 << (width * (k - 1)) for k in range(1, suits + 1)]


def war_sweep_packed(ranks: int = 13, suits: int = 4) -> Fraction:
    """:func:`war_sweep_counts_of_counts` with each counts of counts packed into one
    integer (a slot of bits per count), so that a turn's child is one addition of a
    precomputed difference and the dictionary keys are integers.

    >>> war_sweep_packed(2, 2) == war_sweep_counts_of_counts(2, 2) == Fraction(1, 6)
    True
    """
    n = ranks * suits
    turns = n // 2
    width, mask, unit = _packing(ranks, suits)
    # delta[i][j]: one rank of count i and one of count j each lose a card
    delta = [[unit[i - 1] - unit[i] + unit[j - 1] - unit[j] if i and j else 0 for j in range(suits + 1)]
             for i in range(suits + 1)]
    layer = {ranks * unit[suits]: 1}
    for _ in range(turns):
        nxt: dict[int, int] = {}
        get = nxt.get
        for shape, ways in layer.items():
            present = []  # (k, ranks with k cards left)
            rest, k = shape, 1
            while rest:
                m = rest & mask
                if m:
                    present.append((k, m))
                rest >>= width
                k += 1
            for x, (i, mi) in enumerate(present):
                moves = delta[i]
                if mi > 1:  # two ranks of the same count, in either order
                    key = shape + moves[i]
                    nxt[key] = get(key, 0) + ways * i * i * mi * (mi - 1)
                both = 2 * i * mi * ways  # both orders of a pair of different counts
                for j, mj in present[x + 1:]:
                    key = shape + moves[j]
                    nxt[key] = get(key, 0) + both * j * mj
        layer = nxt
    return Fraction(sum(layer.values()), math.factorial(n) * 2**turns)


def _pairings(suits: int) -> list[int]:
    """Entry ``m``: the ways to take ``m`` disjoint ordered pairs from ``suits`` cards of one rank."""
    return [math.factorial(suits) // (math.factorial(suits - 2 * m) * math.factorial(m))
            for m in range(suits // 2 + 1)]


def war_sweep_inclusion_exclusion(ranks: int = 13, suits: int = 4) -> Fraction:
    """P(A wins every turn of War) in closed form, by inclusion-exclusion over the tied turns.

    The orders of the ``n`` cards with ``k`` chosen turns tied number ``perm(turns, k)
    c_k (n - 2k)!``, where ``c_k`` is the coefficient of ``x^k`` in ``p(x)^ranks`` and
    ``p`` counts the ways to take disjoint ordered same-rank pairs from one rank
    (:func:`_pairings`); the alternating sum over ``k`` is the tie-free orders, and,
    as in :func:`war_sweep_counts_of_counts`, one in ``2^turns`` of them is A's sweep.

    >>> war_sweep_inclusion_exclusion(13, 4) == war_sweep_counts_of_counts(13, 4)
    True
    """
    n = ranks * suits
    turns = n // 2
    per_rank = _pairings(suits)
    poly = [1]
    for _ in range(ranks):
        poly = _times(poly, per_rank)
    tie_free = 0
    for k, c in enumerate(poly[: turns + 1]):
        term = math.perm(turns, k) * c * math.factorial(n - 2 * k)
        tie_free += -term if k & 1 else term
    return Fraction(tie_free, math.factorial(n) * 2**turns)


def _times(a: list[int], b: list[int]) -> list[int]:
    """The product of two integer polynomials (coefficient lists, lowest first)."""
    out = [0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b):
                out[i + j] += x * y
    return out


def no_adjacent_rank_counts_of_counts(ranks: int = 13, suits: int = 4) -> Fraction:
    """P(no two neighbouring cards share a rank) in a shuffled deck: a memoized recursion.

    ``arrangements(shape, last)`` counts the orders of the cards left (``shape``:
    counts of counts) with no equal neighbours whose first card is not of the rank
    just played, which has ``last`` cards left (0: none, or no card played yet).
    """

    @cache
    def arrangements(shape: tuple[int, ...], last: int) -> int:
        if not any(shape):
            return 1
        total = 0
        for k in range(1, suits + 1):
            m = shape[k - 1] - (k == last)
            if m <= 0:
                continue
            after = list(shape)
            after[k - 1] -= 1
            if k > 1:
                after[k - 2] += 1
            total += k * m * arrangements(tuple(after), k - 1)
        return total

    n = ranks * suits
    return Fraction(arrangements(_shape([suits] * ranks, suits), 0), math.factorial(n))


def no_adjacent_rank_packed(ranks: int = 13, suits: int = 4) -> Fraction:
    """:func:`no_adjacent_rank_counts_of_counts` as a forward pass: the state is the
    counts of counts packed into one integer (as in :func:`war_sweep_packed`) and the
    number of cards left of the rank just played, with integer numbers of orders.

    >>> no_adjacent_rank_packed(2, 2)
    Fraction(1, 3)
    """
    width, mask, unit = _packing(ranks, suits)
    move = [unit[k - 1] - unit[k] if k else 0 for k in range(suits + 1)]
    layer = {(ranks * unit[suits], 0): 1}
    for _ in range(ranks * suits):
        nxt: dict[tuple[int, int], int] = {}
        get = nxt.get
        for (shape, last), ways in layer.items():
            rest, k = shape, 1
            while rest:
                m = (rest & mask) - (k == last)  # not the rank just played
                if m > 0:
                    key = (shape + move[k], k - 1)
                    nxt[key] = get(key, 0) + ways * k * m
                rest >>= width
                k += 1
        layer = nxt
    return Fraction(sum(layer.values()), math.factorial(ranks * suits))


def no_adjacent_rank_inclusion_exclusion(ranks: int = 13, suits: int = 4) -> Fraction:
    """P(no two neighbouring cards share a rank) in closed form, by inclusion-exclusion.

    Glue each rank's ``suits`` cards into ``j`` blocks of neighbours (``C(suits - 1,
    j - 1)`` ways to cut, ``suits!`` orders) with the sign ``(-1)^(suits - j)``; the
    blocks of all ranks are then ordered freely, ``J!`` for ``J`` blocks in all, and
    the alternating sum counts the orders with no equal neighbours.  Per rank that is the
    polynomial ``g(x) = sum_j (-1)^(suits - j) C(suits - 1, j - 1) suits!/j! x^j`` (the
    blocks' own order divided out), and the count is ``sum_J [x^J] g(x)^ranks J!``.

    >>> no_adjacent_rank_inclusion_exclusion(13, 4) == no_adjacent_rank_counts_of_counts(13, 4)
    True
    """
    s = suits
    per_rank = [0] + [(-1) ** (s - j) * math.comb(s - 1, j - 1) * (math.factorial(s) // math.factorial(j))
                      for j in range(1, s + 1)]
    poly = [1]
    for _ in range(ranks):
        poly = _times(poly, per_rank)
    good = sum(c * math.factorial(blocks) for blocks, c in enumerate(poly) if c)
    return Fraction(good, math.factorial(ranks * suits))


def shared_rank_product(ranks: int = 13, suits: int = 4) -> dict[str, Fraction]:
    """The number of cards drawn when a rank first repeats: a product formula in Fractions.

    ``P(the first k cards have distinct ranks)`` is the product of ``suits (ranks - i)
    / (n - i)`` for ``i < k``; the next card repeats one of the k ranks seen with
    chance ``k (suits - 1) / (n - k)``.
    """
    n = ranks * suits
    result: dict[str, Fraction] = {}
    distinct = Fraction(1)
    for k in range(1, ranks + 1):
        distinct *= Fraction(suits * (ranks - k + 1), n - k + 1)
        repeat = distinct * Fraction(k * (suits - 1), n - k)
        if repeat:
            result[str(k + 1)] = repeat
    return result


def longest_suit_run_forward(cards: int = 13, suits: int = 4, per_suit: int = 13) -> dict[str, Fraction]:
    """The longest run of one suit among the first ``cards`` cards: a forward pass over states.

    State: (cards left of the last card's suit, the other suits' counts sorted, the
    current run, the longest so far), with integer numbers of ordered sequences;
    which suit is which does not matter, so the counts are sorted.
    """
    layer: dict[tuple[int, tuple[int, ...], int, int], int] = {(per_suit, (per_suit,) * (suits - 1), 0, 0): 1}
    first = True
    for _ in range(cards):
        nxt: dict[tuple[int, tuple[int, ...], int, int], int] = {}
        for (mine, others, run, best), ways in layer.items():
            if first:
                # No suit played yet: every card starts a run (the suits are alike).
                key = (per_suit - 1, (per_suit,) * (suits - 1), 1, 1)
                nxt[key] = nxt.get(key, 0) + ways * per_suit * suits
                continue
            if mine:  # the same suit again
                key = (mine - 1, others, run + 1, max(best, run + 1))
                nxt[key] = nxt.get(key, 0) + ways * mine
            for x, c in enumerate(others):  # another suit; equal counts are taken together
                if not c or (x and others[x - 1] == c):
                    continue
                same = others.count(c)
                rest = list(others)
                rest[x] = mine
                key = (c - 1, tuple(sorted(rest)), 1, max(best, 1))
                nxt[key] = nxt.get(key, 0) + ways * c * same
        layer = nxt
        first = False
    total = math.perm(suits * per_suit, cards)
    result: dict[str, Fraction] = {}
    for (_, _, _, best), ways in layer.items():
        result[str(best)] = result.get(str(best), Fraction(0)) + Fraction(ways, total)
    return result


def longest_suit_run_packed(cards: int = 13, suits: int = 4, per_suit: int = 13) -> dict[str, Fraction]:
    """:func:`longest_suit_run_forward` with the other suits' counts kept as counts of
    counts in one integer (slot ``k``: how many other suits have ``k`` cards left), so a
    child is one addition and nothing is sorted.

    >>> longest_suit_run_packed(13) == longest_suit_run_forward(13)
    True
    """
    width = suits.bit_length() + 1  # no slot holds more than `suits - 1`
    mask = (1 << width) - 1
    unit = [1 << (width * k) for k in range(per_suit + 1)]
    # Whatever the first card, it starts a run of its suit (the suits are alike).
    layer = {(per_suit - 1, (suits - 1) * unit[per_suit], 1, 1): per_suit * suits}
    for _ in range(cards - 1):
        nxt: dict[tuple[int, int, int, int], int] = {}
        get = nxt.get
        for (mine, others, run, best), ways in layer.items():
            if mine:  # the same suit again
                longer = run + 1
                key = (mine - 1, others, longer, best if best > longer else longer)
                nxt[key] = get(key, 0) + ways * mine
            swapped = others + unit[mine]  # the last suit joins the others
            rest, k = others >> width, 1  # (a suit with no card left is never drawn)
            while rest:
                m = rest & mask
                if m:  # one of the m other suits with k cards left
                    key = (k - 1, swapped - unit[k], 1, best)
                    nxt[key] = get(key, 0) + ways * k * m
                rest >>= width
                k += 1
        layer = nxt
    total = math.perm(suits * per_suit, cards)
    counts: dict[str, int] = {}
    for (_, _, _, best), ways in layer.items():
        counts[str(best)] = counts.get(str(best), 0) + ways
    return {best: Fraction(ways, total) for best, ways in counts.items()}
