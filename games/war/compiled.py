"""Whole games of War at compiled speed: the reference engine's game, one deal at a time, in numba.

The kernel below is :func:`~games.war.engine.play_game` written over arrays.  Both piles
are ring buffers in one array (a power of two long, so an index is a mask); a battle is
:func:`~games.war.engine.battle` rule for rule, with who wins a pair of cards looked up
in a table built from the reference engine's comparison.  Plain battles, most of them,
run in a tight loop without a branch on who won, and the war is written into that loop
rather than called (see :func:`_run`).  An endless game is found the same way as in the
reference engine: a repeated position, then the period from where the game stands and
the first repeat from the deal (tortoise and hare).  Only the search for a repeat is
different: it starts at battle ``watch_from`` (by default 20 battles per card) instead
of at the deal, because most games end before, and it compares positions every
``watch_every`` battles (Brent's search on those positions), because comparing after
every battle cost more than the battles.  The record does not depend on when or how
often a repeat is looked for: an endless game repeats forever (the positions
``watch_every`` battles apart repeat too, with a period that is a multiple of the
game's), and what is reported (the first repeat, or the battles left to the cap) is
computed from the deal and from whole periods.  So every record equals the reference
engine's, for every deterministic rule set: the tests check it game by game, with and
without numba, for several ``watch_from`` and ``watch_every``.

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
from functools import lru_cache
from typing import Any, Literal, TypeVar, cast

import numpy as np
import numpy.typing as npt

from drawdsl.extras import require
from games.war.batch import Records, _reference
from games.war.engine import _beats
from games.war.rules import GATHER_ORDERS, OUTCOMES, SHORT_WAR_RULES, Rules

__all__ = ["available", "play_deals", "OUTCOMES"]

F = TypeVar("F", bound=Callable[..., Any])

# Battle results (the reference engine's "A", "B", "A wins", "B wins", "tie").
_TOOK_A, _TOOK_B, _A_WINS, _B_WINS, _TIE_END = range(5)
# Game outcomes: indices into OUTCOMES.
_A, _B, _TIE, _CYCLE, _CAPPED = range(5)
_WINNER_FIRST, _LOSER_FIRST, _AS_PLAYED = range(3)
_LOSE, _LAST_CARD, _AVAILABLE, _B_TAKES = range(4)
assert GATHER_ORDERS[_AS_PLAYED] == "as_played"
assert SHORT_WAR_RULES[_B_TAKES] == "b_takes"


def available() -> bool:
    """True when numba is installed (the ``numba`` extra), so the kernel is compiled.

    >>> isinstance(available(), bool)
    True
    """
    return importlib.util.find_spec("numba") is not None


def _identity(fn: F) -> F:
    return fn


def _njit(inline: Literal["never", "always"] = "never") -> Callable[[F], F]:
    """numba's ``njit`` (cached); ``inline="always"`` inlines a function into its callers
    (in numba's own code, before LLVM).  Without numba, the functions stay plain Python."""
    if not available():
        return _identity
    import numba

    return cast("Callable[[F], F]", numba.njit(cache=True, nogil=True, inline=inline))


_jit = _njit()
_jit_inline = _njit("always")


# A pair of cards (A's, B's) decides a comparison through a table (see :func:`_tables`):
# who won and, for a plain battle, whose card goes first under the winner's pile.
_A_FIRST, _A_WON_B_FIRST, _B_WON_A_FIRST, _B_FIRST, _TIED = range(5)
#: A pair's index is ``fa << _SHIFT | fb`` (ranks up to 127); the war half of the table
#: starts at :data:`_WAR`.
_SHIFT = 7
_WAR = 1 << 2 * _SHIFT


@_jit_inline
def _pair(fa: int, fb: int) -> int:
    """The index of the pair ``(fa, fb)`` in a half of the table."""
    return (int(fa) << _SHIFT) | int(fb)


# Both piles live in one ring array: A's in the first half, B's in the second, each a power
# of two ``width`` long (so an index is a mask) and at least twice the deck (so the cards of
# a battle, still in the loser's and the winner's rings behind the heads, are not written
# over before they are gathered).  A pile is a head and a count; the functions take and
# return them as plain ints: every array handed to a compiled function costs a reference
# count in and out, which, measured, made a battle three times slower when the pile state
# was in arrays.


#: The longest ring: a pile's index is masked with at most this (see :func:`_mask`).
_MAX_MASK = (1 << 24) - 1


@_jit_inline
def _mask(ring: Any) -> int:
    """The index mask of the piles' rings in ``ring`` (half of it each).

    Masked with :data:`_MAX_MASK` so that the compiler knows every index is not negative
    and drops the check for negative (from the end) indices on every card read and write:
    measured, that check cost a fifth of the run time."""
    return (ring.shape[0] // 2 - 1) & _MAX_MASK  # type: ignore[no-any-return]


@_jit_inline
def _same(x: Any, hxa: int, hxb: int, y: Any, hya: int, hyb: int, la: int, lb: int) -> bool:
    """Do the rings ``x`` (heads ``hxa``, ``hxb``) and ``y`` hold the same piles (``la``, ``lb`` cards)?"""
    mask = _mask(x)
    width = mask + 1
    for i in range(la):
        if x[(hxa + i) & mask] != y[(hya + i) & mask]:
            return False
    for i in range(lb):  # noqa: SIM110 (a plain loop compiles; all() over a generator may not)
        if x[width + ((hxb + i) & mask)] != y[width + ((hyb + i) & mask)]:
            return False
    return True


@_jit_inline
def _save(ring: Any, ha: int, la: int, hb: int, lb: int, saved: Any) -> None:
    """Copy the position in ``ring`` to ``saved`` (heads 0)."""
    mask = _mask(ring)
    width = mask + 1
    for i in range(la):
        saved[i] = ring[(ha + i) & mask]
    for i in range(lb):
        saved[width + i] = ring[width + ((hb + i) & mask)]


@_jit_inline
def _deal(deal: Any, ring: Any) -> int:
    """Deal the cards into ``ring`` (A: even positions); returns the hand size."""
    width = ring.shape[0] // 2
    half: int = deal.shape[0] // 2
    for i in range(half):
        ring[i] = deal[2 * i]
        ring[width + i] = deal[2 * i + 1]
    return half


@_jit_inline
def _run(ring: Any, table: Any, ha: int, la: int, hb: int, lb: int, until: int, face_down: int,
         gather: int, short: int, rounds: Any) -> tuple[int, int, int, int, int, int, int, int]:
    """Play battles (see :func:`games.war.engine.battle`) until the game ends or ``until``
    battles are played; returns ``(outcome, ha, la, hb, lb, battles, plays, wars)``, the
    outcome -1 while the game goes on.  A's pile is ``la`` cards from head ``ha`` in
    ``ring``, B's ``lb`` from ``hb``; ``rounds`` is scratch.

    Plain battles (most of them) run in a tight loop on the piles' heads and tails, with no
    branch on who won (a coin flip, which a processor mispredicts half the time): one table
    look-up gives the winner and the order of the two cards, and selects pick where they
    go.  A tie leaves the loop for the war, written out below rather than called: arrays
    handed to a function cost two atomic reference counts each, even when numba inlines
    the function (measured: a fifth of the run time when the war was a function)."""
    mask = _mask(ring)
    width = mask + 1
    ta = ha + la
    tb = hb + lb
    battles = plays = wars = 0
    need = face_down + 1
    while True:
        start = ha
        while True:
            # no pile can run out in fewer plain battles than the shorter one holds cards
            stop = ha + min(ta - ha, tb - hb, until - battles - (ha - start))
            if stop <= ha:
                break
            while ha < stop:
                fa = ring[ha & mask]
                fb = ring[width + (hb & mask)]
                code = int(table[_pair(fa, fb)])
                if code == _TIED:
                    break
                b_won = code >> 1
                b_first = code & 1
                tail = tb if b_won else ta
                dest = width if b_won else 0
                ring[dest + (tail & mask)] = fb if b_first else fa
                ring[dest + ((tail + 1) & mask)] = fa if b_first else fb
                ta += 2 - 2 * b_won
                tb += 2 * b_won
                ha += 1
                hb += 1
            if ha < stop:
                break  # a tie
        battles += ha - start
        plays += ha - start
        if ha == ta or hb == tb:
            outcome = _TIE if ha == ta and hb == tb else (_B if ha == ta else _A)
            return outcome, ha, ta - ha, hb, tb - hb, battles, plays, wars
        if battles >= until:
            return -1, ha, ta - ha, hb, tb - hb, battles, plays, wars
        # A battle that starts with a tie (or any battle, when this one was not plain).  The
        # cards a player puts on the table are the next ones of their pile, so they stay in
        # their ring, behind the head, until the battle is decided; they are then copied
        # under the winner's pile in the rule's order.  The ring is more than twice the
        # deck long, so the winner's new cards do not reach them.
        ha0 = ha
        hb0 = hb
        fa = ring[ha & mask]
        fb = ring[width + (hb & mask)]
        ha += 1
        hb += 1
        la = ta - ha
        lb = tb - hb
        battles += 1
        plays += 1
        half = 0  # the table's half: battle, then war
        nrounds = 0
        a_won = True
        while True:
            c = table[half + _pair(fa, fb)]
            if c != _TIED:
                a_won = c < _B_WON_A_FIRST
                break
            if la < need or lb < need:
                if short == _B_TAKES:
                    a_won = False
                    break
                if short == _LOSE or la == 0 or lb == 0:
                    if short == _LOSE:
                        a_out = la < need
                        b_out = lb < need
                    else:
                        a_out = la == 0
                        b_out = lb == 0
                    if short != _AVAILABLE or (a_out and b_out):
                        outcome = _TIE if a_out and b_out else (_B if a_out else _A)
                        return outcome, ha, la, hb, lb, battles, plays, wars
            wars += 1
            # each player with cards left lays down face_down of them (fewer when short) and
            # turns the next; one without keeps their face-up card (short_war="available")
            na = min(face_down, la - 1) + 1 if la > 0 else 0
            nb = min(face_down, lb - 1) + 1 if lb > 0 else 0
            ha += na
            la -= na
            hb += nb
            lb -= nb
            if na > 0:
                fa = ring[(ha - 1) & mask]
            if nb > 0:
                fb = ring[width + ((hb - 1) & mask)]
            plays += max(na, nb)
            if gather == _AS_PLAYED:
                rounds[2 * nrounds] = na
                rounds[2 * nrounds + 1] = nb
            nrounds += 1
            half = _WAR
        took_a = ha - ha0
        took_b = hb - hb0
        if a_won:
            dest = 0
            tail = ha + la
        else:
            dest = width
            tail = hb + lb
        if gather == _AS_PLAYED:
            # the pot in the order it was laid: each round A's face-up card and the cards
            # laid on it, then B's; last the deciding pair, A's card first
            pa = ha0
            pb = hb0
            for r in range(nrounds + 1):
                na = rounds[2 * r] if r < nrounds else 1
                nb = rounds[2 * r + 1] if r < nrounds else 1
                for i in range(na):
                    ring[dest + ((tail + i) & mask)] = ring[(pa + i) & mask]
                tail += na
                pa += na
                for i in range(nb):
                    ring[dest + ((tail + i) & mask)] = ring[width + ((pb + i) & mask)]
                tail += nb
                pb += nb
        else:
            # one player's cards in the order they left the pile, then the other's
            if a_won == (gather == _WINNER_FIRST):
                for i in range(took_a):
                    ring[dest + ((tail + i) & mask)] = ring[(ha0 + i) & mask]
                tail += took_a
            for i in range(took_b):
                ring[dest + ((tail + i) & mask)] = ring[width + ((hb0 + i) & mask)]
            tail += took_b
            if a_won != (gather == _WINNER_FIRST):
                for i in range(took_a):
                    ring[dest + ((tail + i) & mask)] = ring[(ha0 + i) & mask]
        ta = ha + la
        tb = hb + lb
        if a_won:
            ta += took_a + took_b
        else:
            tb += took_a + took_b


@_jit_inline
def _play_one(deal: Any, table: Any, face_down: int, gather: int, short: int, cap: int, detect: bool,
              watch_from: int, every: int, ring: Any, saved: Any, hare: Any, rounds: Any, trace: Any,
              off: int) -> tuple[int, int, int, int]:
    """Play the game of ``deal``; returns ``(outcome, battles, plays, wars)``.

    ``ring`` holds the piles, ``saved`` a saved position, ``hare`` the hare's piles (when
    an endless game's first repeat is searched); ``rounds`` is a battle's scratch.  With
    ``off >= 0``, A's pile size after each battle goes to ``trace[off:]`` and no battles
    are skipped.
    """
    half = _deal(deal, ring)
    ha, la, hb, lb = 0, half, 0, half
    battles = plays = wars = 0
    tracing = off >= 0
    jump = not detect and cap >= 0 and not tracing
    # Positions are watched for a repeat only from battle ``watch_from`` on, and only
    # every ``every`` battles (see the module's docstring); most games end before.
    never = 1 << 62
    watch = False
    next_check = watch_from if detect or jump else never
    if cap >= 0:
        next_check = min(next_check, cap)
    sla = -1  # A's pile size in the saved position
    saved_battles = saved_plays = saved_wars = 0
    power = lam = 1  # Brent's search, counted in checks
    outcome = -1
    while True:
        until = next_check - battles
        if tracing:
            until = 1
        elif watch:
            until = min(until, every)
        outcome, ha, la, hb, lb, b, p, w = _run(ring, table, ha, la, hb, lb, until, face_down, gather, short,
                                                rounds)
        battles += b
        plays += p
        wars += w
        if tracing:
            trace[off + battles - 1] = la
        if outcome >= 0:
            break
        if battles >= next_check:
            if cap >= 0 and battles >= cap:
                outcome = _CAPPED
                break
            if not watch:
                watch = True
                _save(ring, ha, la, hb, lb, saved)
                sla = la
                saved_battles, saved_plays, saved_wars = battles, plays, wars
                next_check = cap if cap >= 0 else never
                continue
        if watch:
            if la == sla and _same(ring, ha, hb, saved, 0, 0, la, lb):
                if detect:
                    outcome = _CYCLE
                    break
                # the game repeats every ``battles - saved_battles`` battles (a multiple of
                # its period): skip as many of those as the cap leaves room for
                span = battles - saved_battles
                periods = (cap - battles) // span
                battles += periods * span
                plays += periods * (plays - saved_plays)
                wars += periods * (wars - saved_wars)
                watch = False
                continue
            if power == lam:
                _save(ring, ha, la, hb, lb, saved)
                sla = la
                saved_battles, saved_plays, saved_wars = battles, plays, wars
                power *= 2
                lam = 0
            lam += 1
    if tracing or not (outcome == _CYCLE or (outcome == _CAPPED and detect)):
        return outcome, battles, plays, wars
    # An endless game: the period from where the game stands (within the cap), then the
    # battle at which the position first came back (see games.war.engine.play_game).
    _save(ring, ha, la, hb, lb, saved)
    sla = la
    period = 0
    found = False
    while cap < 0 or period < cap:
        ended, ha, la, hb, lb, _, _, _ = _run(ring, table, ha, la, hb, lb, 1, face_down, gather, short,
                                              rounds)
        period += 1
        if ended >= 0:
            break
        if la == sla and _same(ring, ha, hb, saved, 0, 0, la, lb):
            found = True
            break
    if not found:
        return outcome, battles, plays, wars
    # Tortoise (``ring``, from the deal) and hare (``hare``, period battles ahead): they
    # meet at the first repeat; the hare's counts are the game's counts at that battle.
    half = _deal(deal, ring)
    _deal(deal, hare)
    ha, la, hb, lb = 0, half, 0, half
    _, xa, xla, xb, xlb, _, hare_plays, hare_wars = _run(hare, table, 0, half, 0, half, period, face_down,
                                                         gather, short, rounds)
    mu = 0
    while not (la == xla and _same(ring, ha, hb, hare, xa, xb, la, lb)):
        _, ha, la, hb, lb, _, _, _ = _run(ring, table, ha, la, hb, lb, 1, face_down, gather, short, rounds)
        _, xa, xla, xb, xlb, _, p, w = _run(hare, table, xa, xla, xb, xlb, 1, face_down, gather, short,
                                            rounds)
        hare_plays += p
        hare_wars += w
        mu += 1
    first = mu + period
    if cap >= 0 and first > cap:
        return outcome, battles, plays, wars
    return _CYCLE, first, hare_plays, hare_wars


@_jit
def _play_all(decks: Any, table: Any, face_down: int, gather: int, short: int, cap: int, detect: bool,
              width: int, watch_from: int, every: int, winner: Any, battles: Any, plays: Any, wars: Any,
              trace: Any, offsets: Any) -> None:
    """Every row of ``decks``; with ``offsets``, a second pass writes the traces."""
    ring = np.zeros(2 * width, dtype=decks.dtype)
    saved = np.zeros(2 * width, dtype=decks.dtype)
    hare = np.zeros(2 * width, dtype=decks.dtype)
    rounds = np.zeros(2 * decks.shape[1] + 2, dtype=np.int64)
    tracing = offsets.shape[0] > 0
    for g in range(decks.shape[0]):
        outcome, b, p, w = _play_one(decks[g], table, face_down, gather, short,
                                     battles[g] if tracing else cap, detect and not tracing, watch_from,
                                     every, ring, saved, hare, rounds, trace, offsets[g] if tracing else -1)
        if not tracing:
            winner[g] = outcome
            battles[g] = b
            plays[g] = p
            wars[g] = w


@lru_cache(maxsize=64)
def _tables(deuce_beats_ace: str, gather: str, top: int, ranks: int) -> npt.NDArray[np.uint8]:
    """Who wins each pair of cards below ``ranks`` (A's ``x``, B's ``y``: entry ``x << 7 | y``),
    from the reference engine's comparison: the battle half (with the pair's order under
    the winner's pile), then, from :data:`_WAR`, the half for the comparisons of a war.

    >>> table = _tables("never", "winner_first", 14, 15)
    >>> [int(table[x << 7 | y]) for x, y in ((9, 3), (3, 9), (9, 9))] == [_A_FIRST, _B_FIRST, _TIED]
    True
    """
    table = np.full(2 * _WAR, _TIED, dtype=np.uint8)
    for half, deuce in ((0, deuce_beats_ace in ("battles", "always")), (_WAR, deuce_beats_ace == "always")):
        for x in range(ranks):
            for y in range(ranks):
                c = _beats(x, y, deuce, top, 0, 0)
                if c != 0:
                    b_won = c < 0
                    b_first = gather != "as_played" and b_won == (gather == "winner_first")
                    table[half + (x << _SHIFT | y)] = 2 * b_won + b_first
    return table


def play_deals(
    deals: npt.ArrayLike,
    rules: Rules,
    *,
    top: int | None = None,
    trace: bool = False,
    seeds: npt.ArrayLike | None = None,
    jit: bool = True,
    watch_from: int | None = None,
    watch_every: int = 16,
) -> Records:
    """Play every deal (one shuffled deck per row; A gets the even positions): the same
    records as :func:`games.war.batch.play_batch` and as the reference engine.

    ``jit=True`` needs numba (the ``numba`` extra); ``jit=False`` runs the same kernel
    whatever is installed (plain Python when numba is missing: for tests on small decks).
    ``seeds`` (one per game) are only used by ``gather="shuffled"``.  ``watch_from``: the
    battle from which positions are watched for a repeat (default ``20 * cards``), and
    ``watch_every``: how many battles apart (the records are the same for any values:
    for tests).

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
    high = int(decks.max()) if decks.size else 2
    if top is None:
        top = high
    if max(top, high) > 127 or (decks.size and int(decks.min()) < 0):
        raise ValueError(f"play_deals: ranks up to 127, none negative; got top {top} and cards from "
                         f"{int(decks.min()) if decks.size else 0} to {high}")
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
    if watch_every < 1:
        raise ValueError(f"play_deals: watch_every must be at least 1, got {watch_every}")
    width = 1 << max(3, (2 * n).bit_length())  # a pile's ring: more than twice the deck (see _run)
    if width - 1 > _MAX_MASK:
        raise ValueError(f"play_deals: decks of fewer than {(_MAX_MASK + 1) // 2:,} cards; got {n:,}")
    table = _tables(rules.deuce_beats_ace, rules.gather, top, max(top, high) + 1)
    cells = decks.astype(np.uint8)
    params = (table, rules.face_down, GATHER_ORDERS.index(rules.gather),
              SHORT_WAR_RULES.index(rules.short_war), -1 if rules.max_battles is None else rules.max_battles,
              rules.detect_cycles, width, watch_from, watch_every)
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
