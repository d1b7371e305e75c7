"""Whole games of War at compiled speed: the reference engine's game, one deal at a time, in numba.

The kernel below is :func:`~games.war.engine.play_game` written over arrays: each pile
is a ring buffer (a power of two long, so an index is a mask), a battle is
:func:`~games.war.engine.battle` line for line, and an endless game is found the same
way: then the period from where the game stands and the first repeat from the deal
(tortoise and hare).  Only the reference engine's Brent search for a repeat is
different: it starts at battle ``watch_from`` (by default 20 battles per card) instead
of at the deal, because watching every battle took a fifth of the run time (measured)
and most games end before.  The record does not depend on when a repeat is noticed: an endless game
repeats forever, and what is reported (the first repeat, or the cap) is computed from
the deal.  So every record equals the reference engine's, for every deterministic rule
set: the tests check it game by game, with and without numba, for several ``watch_from``.

numba is optional (the ``numba`` extra).  Without it the kernel is plain Python over
NumPy arrays: correct, and much slower than the batched NumPy engine
(:mod:`games.war.batch`), which :func:`games.war.simulate.simulate` then uses instead.
``gather="shuffled"`` depends on Python's ``random.Random``; those games are played by
the reference engine, as in the batched engine.

>>> import numpy as np
>>> deals = np.array([[5, 3, 2, 7, 9, 4, 6, 8], [5, 2, 3, 3, 4, 5, 2, 4]])
>>> records = play_deals(deals, Rules(), jit=False)
>>> [OUTCOMES[w] for w in records.winner], records.battles.tolist()
(['A', 'cycle'], [16, 9])
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from typing import Any, TypeVar, cast

import numpy as np
import numpy.typing as npt

from drawdsl.extras import require
from games.war.batch import Records, _reference
from games.war.rules import DEUCE_RULES, GATHER_ORDERS, OUTCOMES, SHORT_WAR_RULES, Rules

__all__ = ["available", "play_deals", "OUTCOMES"]

F = TypeVar("F", bound=Callable[..., Any])

# Battle results (the reference engine's "A", "B", "A wins", "B wins", "tie").
_TOOK_A, _TOOK_B, _A_WINS, _B_WINS, _TIE_END = range(5)
# Game outcomes: indices into OUTCOMES.
_A, _B, _TIE, _CYCLE, _CAPPED = range(5)
_NEVER, _BATTLES, _ALWAYS = range(3)
_WINNER_FIRST, _LOSER_FIRST, _AS_PLAYED = range(3)
_LOSE, _LAST_CARD, _AVAILABLE, _B_TAKES = range(4)
assert DEUCE_RULES[_ALWAYS] == "always" and GATHER_ORDERS[_AS_PLAYED] == "as_played"
assert SHORT_WAR_RULES[_B_TAKES] == "b_takes"


def available() -> bool:
    """True when numba is installed (the ``numba`` extra), so the kernel is compiled.

    >>> isinstance(available(), bool)
    True
    """
    return importlib.util.find_spec("numba") is not None


def _identity(fn: F) -> F:
    return fn


def _njit() -> Callable[[F], F]:
    if not available():
        return _identity
    import numba

    return cast("Callable[[F], F]", numba.njit(cache=True, nogil=True))


_jit = _njit()


@_jit
def _beats(x: int, y: int, deuce: bool, top: int) -> int:
    if x == y:
        return 0
    if deuce:
        if x == 2 and y == top:
            return 1
        if y == 2 and x == top:
            return -1
    return 1 if x > y else -1


# The kernel passes piles as (row of ``work``, head, count) and returns new heads and counts
# as tuples: every array handed to a compiled function costs a reference count in and out,
# which, measured, made a battle three times slower when the pile state was in arrays.


@_jit
def _battle(work: Any, ia: int, ib: int, ha: int, la: int, hb: int, lb: int, face_down: int,
            deuce_rule: int, gather: int, short: int, top: int) -> tuple[int, int, int, int, int, int, int]:
    """One battle (see :func:`games.war.engine.battle`) between A's ring in row ``ia`` of
    ``work`` (head ``ha``, ``la`` cards) and B's in row ``ib``; rows 6, 7, 8 are scratch
    (the cards A and B took, the pot).  Returns ``(result, ha, la, hb, lb, plays, wars)``."""
    mask = work.shape[1] - 1
    fa = work[ia, ha & mask]
    ha += 1
    la -= 1
    fb = work[ib, hb & mask]
    hb += 1
    lb -= 1
    work[6, 0] = fa
    work[7, 0] = fb
    nta = ntb = 1
    npot = 0
    plays = 1
    wars = 0
    need = face_down + 1
    in_war = False
    winner = _TOOK_A
    while True:
        deuce = deuce_rule == _ALWAYS or (deuce_rule == _BATTLES and not in_war)
        c = _beats(fa, fb, deuce, top)
        if c != 0:
            winner = _TOOK_A if c > 0 else _TOOK_B
            break
        ra = la
        rb = lb
        if ra < need or rb < need:
            if short == _B_TAKES:
                winner = _TOOK_B
                break
            if short == _LOSE or ra == 0 or rb == 0:
                if short == _LOSE:
                    a_out = ra < need
                    b_out = rb < need
                else:
                    a_out = ra == 0
                    b_out = rb == 0
                if short != _AVAILABLE or (a_out and b_out):
                    if a_out and b_out:
                        return _TIE_END, ha, la, hb, lb, plays, wars
                    return (_B_WINS if a_out else _A_WINS), ha, la, hb, lb, plays, wars
        wars += 1
        placed = 0
        if ra > 0:
            k = min(face_down, ra - 1)
            work[8, npot] = fa
            npot += 1
            for _ in range(k):
                card = work[ia, ha & mask]
                ha += 1
                la -= 1
                work[8, npot] = card
                npot += 1
                work[6, nta] = card
                nta += 1
            fa = work[ia, ha & mask]
            ha += 1
            la -= 1
            work[6, nta] = fa
            nta += 1
            placed = k + 1
        if rb > 0:
            k = min(face_down, rb - 1)
            work[8, npot] = fb
            npot += 1
            for _ in range(k):
                card = work[ib, hb & mask]
                hb += 1
                lb -= 1
                work[8, npot] = card
                npot += 1
                work[7, ntb] = card
                ntb += 1
            fb = work[ib, hb & mask]
            hb += 1
            lb -= 1
            work[7, ntb] = fb
            ntb += 1
            placed = max(placed, k + 1)
        plays += placed
        in_war = True
    if winner == _TOOK_A:
        row = ia
        tail = ha + la
        la += nta + ntb
    else:
        row = ib
        tail = hb + lb
        lb += nta + ntb
    if gather == _AS_PLAYED:
        work[8, npot] = fa
        work[8, npot + 1] = fb
        for i in range(npot + 2):
            work[row, (tail + i) & mask] = work[8, i]
    else:
        a_first = (winner == _TOOK_A) == (gather == _WINNER_FIRST)
        first = 6 if a_first else 7
        nfirst = nta if a_first else ntb
        for i in range(nfirst):
            work[row, (tail + i) & mask] = work[first, i]
        tail += nfirst
        second = 13 - first
        for i in range(nta + ntb - nfirst):
            work[row, (tail + i) & mask] = work[second, i]
    return winner, ha, la, hb, lb, plays, wars


@_jit
def _same(work: Any, x: int, hx: int, y: int, hy: int, count: int) -> bool:
    """Do the rings in rows ``x`` (from ``hx``) and ``y`` (from ``hy``) hold the same ``count`` cards?"""
    mask = work.shape[1] - 1
    for i in range(count):  # noqa: SIM110 (a plain loop compiles; all() over a generator may not)
        if work[x, (hx + i) & mask] != work[y, (hy + i) & mask]:
            return False
    return True


@_jit
def _save(work: Any, ia: int, ha: int, la: int, hb: int, lb: int, ic: int) -> None:
    """Copy the position in rows ``ia``, ``ia + 1`` to rows ``ic``, ``ic + 1`` (heads 0)."""
    mask = work.shape[1] - 1
    for i in range(la):
        work[ic, i] = work[ia, (ha + i) & mask]
    for i in range(lb):
        work[ic + 1, i] = work[ia + 1, (hb + i) & mask]


@_jit
def _deal(deal: Any, work: Any, ia: int) -> int:
    """Deal the cards into rows ``ia`` (A: even positions) and ``ia + 1``; returns the hand size."""
    half: int = deal.shape[0] // 2
    for i in range(half):
        work[ia, i] = deal[2 * i]
        work[ia + 1, i] = deal[2 * i + 1]
    return half


@_jit
def _play_one(deal: Any, face_down: int, deuce_rule: int, gather: int, short: int, top: int, cap: int,
              detect: bool, watch_from: int, work: Any, trace: Any, off: int) -> tuple[int, int, int, int]:
    """Play the game of ``deal``; returns ``(outcome, battles, plays, wars)``.

    ``work`` rows: A's ring, B's ring (rows 0, 1), a saved position (2, 3), the hare's
    rings (4, 5), then scratch for a battle.  With ``off >= 0``, A's pile size after each
    battle goes to ``trace[off:]`` and no battles are skipped.
    """
    mask = work.shape[1] - 1
    half = _deal(deal, work, 0)
    ha, la, hb, lb = 0, half, 0, half
    battles = plays = wars = 0
    tracing = off >= 0
    jump = not detect and cap >= 0 and not tracing
    # Positions are watched for a repeat only from battle ``watch_from`` on: a game that
    # never ends repeats forever, so it is caught all the same, and the record does not
    # depend on when (see the module's docstring); most games end before, unwatched.
    never = 1 << 62
    watch = False
    next_check = watch_from if detect or jump else never
    if cap >= 0:
        next_check = min(next_check, cap)
    sla = -1  # A's pile size in the saved position
    plain_deuce = deuce_rule != _NEVER
    saved_plays = saved_wars = 0
    power = lam = 1
    outcome = -1
    while True:
        if not tracing and not watch:
            # Plain battles in a tight loop (most battles): until a tie, an empty pile, or
            # the next check; the loop below then plays the war (or stops).
            while la > 0 and lb > 0 and battles < next_check:
                fa = work[0, ha & mask]
                fb = work[1, hb & mask]
                c = _beats(fa, fb, plain_deuce, top)
                if c == 0:
                    break
                if c > 0:
                    first, second = (fb, fa) if gather == _LOSER_FIRST else (fa, fb)
                    work[0, (ha + la) & mask] = first
                    work[0, (ha + la + 1) & mask] = second
                    la += 1
                    lb -= 1
                else:
                    first, second = (fb, fa) if gather != _LOSER_FIRST else (fa, fb)
                    if gather == _AS_PLAYED:
                        first, second = fa, fb
                    work[1, (hb + lb) & mask] = first
                    work[1, (hb + lb + 1) & mask] = second
                    lb += 1
                    la -= 1
                ha += 1
                hb += 1
                battles += 1
                plays += 1
        if la == 0 or lb == 0:
            outcome = _TIE if la == 0 and lb == 0 else (_A if la > 0 else _B)
            break
        if battles >= next_check:
            if cap >= 0 and battles >= cap:
                outcome = _CAPPED
                break
            watch = True
            _save(work, 0, ha, la, hb, lb, 2)
            sla = la
            saved_plays, saved_wars = plays, wars
            next_check = cap if cap >= 0 else never
        fa = work[0, ha & mask]
        fb = work[1, hb & mask]
        c = _beats(fa, fb, plain_deuce, top)
        if c != 0:
            # A plain battle (most of them), written out here: the two cards go under the
            # winner in the rule's order (as played: A's card first).
            if c > 0:
                first, second = (fb, fa) if gather == _LOSER_FIRST else (fa, fb)
                work[0, (ha + la) & mask] = first
                work[0, (ha + la + 1) & mask] = second
                la += 1
                lb -= 1
            else:
                first, second = (fb, fa) if gather != _LOSER_FIRST else (fa, fb)
                if gather == _AS_PLAYED:
                    first, second = fa, fb
                work[1, (hb + lb) & mask] = first
                work[1, (hb + lb + 1) & mask] = second
                lb += 1
                la -= 1
            ha += 1
            hb += 1
            result = _TOOK_A
            plays += 1
        else:
            result, ha, la, hb, lb, p, w = _battle(work, 0, 1, ha, la, hb, lb, face_down, deuce_rule,
                                                   gather, short, top)
            plays += p
            wars += w
        battles += 1
        if tracing:
            trace[off + battles - 1] = la
        if result >= _A_WINS:
            outcome = _A if result == _A_WINS else (_B if result == _B_WINS else _TIE)
            break
        if watch:
            if (la == sla and work[0, ha & mask] == work[2, 0] and _same(work, 0, ha, 2, 0, la)
                    and _same(work, 1, hb, 3, 0, lb)):
                if detect:
                    outcome = _CYCLE
                    break
                periods = (cap - battles) // lam
                battles += periods * lam
                plays += periods * (plays - saved_plays)
                wars += periods * (wars - saved_wars)
                watch = False
            if power == lam:
                _save(work, 0, ha, la, hb, lb, 2)
                sla = la
                saved_plays, saved_wars = plays, wars
                power *= 2
                lam = 0
            lam += 1
    if tracing or not (outcome == _CYCLE or (outcome == _CAPPED and detect)):
        return outcome, battles, plays, wars
    # An endless game: the period from where the game stands (within the cap), then the
    # battle at which the position first came back (see games.war.engine.play_game).
    _save(work, 0, ha, la, hb, lb, 2)
    sla = la
    period = 0
    found = False
    while cap < 0 or period < cap:
        result, ha, la, hb, lb, p, w = _battle(work, 0, 1, ha, la, hb, lb, face_down, deuce_rule, gather,
                                               short, top)
        period += 1
        if result >= _A_WINS or la == 0 or lb == 0:
            break
        if la == sla and _same(work, 0, ha, 2, 0, la) and _same(work, 1, hb, 3, 0, lb):
            found = True
            break
    if not found:
        return outcome, battles, plays, wars
    # Tortoise (rows 0, 1, from the deal) and hare (rows 4, 5, period battles ahead): they
    # meet at the first repeat; the hare's counts are the game's counts at that battle.
    half = _deal(deal, work, 0)
    _deal(deal, work, 4)
    ha, la, hb, lb = 0, half, 0, half
    xa, xla, xb, xlb = 0, half, 0, half
    hare_plays = hare_wars = 0
    for _ in range(period):
        _, xa, xla, xb, xlb, p, w = _battle(work, 4, 5, xa, xla, xb, xlb, face_down, deuce_rule, gather,
                                            short, top)
        hare_plays += p
        hare_wars += w
    mu = 0
    while not (la == xla and _same(work, 0, ha, 4, xa, la) and _same(work, 1, hb, 5, xb, lb)):
        _, ha, la, hb, lb, _, _ = _battle(work, 0, 1, ha, la, hb, lb, face_down, deuce_rule, gather,
                                          short, top)
        _, xa, xla, xb, xlb, p, w = _battle(work, 4, 5, xa, xla, xb, xlb, face_down, deuce_rule, gather,
                                            short, top)
        hare_plays += p
        hare_wars += w
        mu += 1
    first = mu + period
    if cap >= 0 and first > cap:
        return outcome, battles, plays, wars
    return _CYCLE, first, hare_plays, hare_wars


@_jit
def _play_all(decks: Any, face_down: int, deuce_rule: int, gather: int, short: int, top: int, cap: int,
              detect: bool, width: int, watch_from: int, winner: Any, battles: Any, plays: Any, wars: Any,
              trace: Any, offsets: Any) -> None:
    """Every row of ``decks``; with ``offsets``, a second pass writes the traces."""
    work = np.zeros((9, width), dtype=decks.dtype)
    tracing = offsets.shape[0] > 0
    for g in range(decks.shape[0]):
        if tracing:
            _play_one(decks[g], face_down, deuce_rule, gather, short, top, battles[g], False, watch_from,
                      work, trace, offsets[g])
            continue
        outcome, b, p, w = _play_one(decks[g], face_down, deuce_rule, gather, short, top, cap, detect,
                                     watch_from, work, trace, -1)
        winner[g] = outcome
        battles[g] = b
        plays[g] = p
        wars[g] = w


def play_deals(
    deals: npt.ArrayLike,
    rules: Rules,
    *,
    top: int | None = None,
    trace: bool = False,
    seeds: npt.ArrayLike | None = None,
    jit: bool = True,
    watch_from: int | None = None,
) -> Records:
    """Play every deal (one shuffled deck per row; A gets the even positions): the same
    records as :func:`games.war.batch.play_batch` and as the reference engine.

    ``jit=True`` needs numba (the ``numba`` extra); ``jit=False`` runs the same kernel
    whatever is installed (plain Python when numba is missing: for tests on small decks).
    ``seeds`` (one per game) are only used by ``gather="shuffled"``.  ``watch_from``: the
    battle from which positions are watched for a repeat (default ``20 * cards``; the
    records are the same for any value: for tests).

    >>> import numpy as np
    >>> from games.war import play_game
    >>> records = play_deals(np.array([[9, 2, 3, 7]]), Rules(), jit=False)
    >>> records.battles.tolist() == [play_game([9, 3], [2, 7]).battles] == [6]
    True
    """
    if jit:
        require("numba", "numba", "the compiled War engine")
    decks = np.asarray(deals, dtype=np.int64)
    if decks.ndim != 2 or decks.shape[1] % 2:
        raise ValueError(
            f"play_deals: deals must be a 2-d array with an even number of columns, got {decks.shape}"
        )
    games, n = decks.shape
    if top is None:
        top = int(decks.max()) if decks.size else 2
    if top > 127:
        raise ValueError(f"play_deals: ranks up to 127; got top {top}")
    winner = np.full(games, -1, dtype=np.int8)
    battles = np.zeros(games, dtype=np.int64)
    plays = np.zeros(games, dtype=np.int64)
    wars = np.zeros(games, dtype=np.int64)
    if not rules.deterministic or games == 0 or n == 0:
        seed_list = [0] * games if seeds is None else [int(s) for s in np.asarray(seeds).ravel()]
        traces: list[npt.NDArray[np.uint16]] | None = [] if trace else None
        for g in range(games):
            w, b, p, wr, tr = _reference(decks[g], rules, top, seed_list[g], trace)
            winner[g], battles[g], plays[g], wars[g] = w, b, p, wr
            if traces is not None and tr is not None:
                traces.append(tr)
        return Records(winner, battles, plays, wars, traces)
    if watch_from is None:
        watch_from = 20 * n
    width = 1 << max(3, (n + 2).bit_length())  # a ring longer than the deck plus a pot's slack
    cells = decks.astype(np.int8)
    params = (rules.face_down, DEUCE_RULES.index(rules.deuce_beats_ace), GATHER_ORDERS.index(rules.gather),
              SHORT_WAR_RULES.index(rules.short_war), top,
              -1 if rules.max_battles is None else rules.max_battles, rules.detect_cycles, width,
              watch_from)
    no_offsets = np.zeros(0, dtype=np.int64)
    no_trace = np.zeros(1, dtype=np.int64)
    _play_all(cells, *params, winner, battles, plays, wars, no_trace, no_offsets)
    out = Records(winner, battles, plays, wars)
    if trace:
        offsets = np.concatenate([[0], np.cumsum(battles)[:-1]]).astype(np.int64)
        flat = np.zeros(max(1, int(battles.sum())), dtype=np.int64)
        _play_all(cells, *params, winner, battles.copy(), plays.copy(), wars.copy(), flat, offsets)
        out.traces = [flat[o:o + b].astype(np.uint16) for o, b in zip(offsets.tolist(), battles.tolist(),
                                                                    strict=True)]
    return out
