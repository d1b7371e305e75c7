"""Exact evaluation of a scoring loop over a deck: every score of a state in one integer.

A :func:`~drawdsl.scoring_loop`'s step never sees the score, so the paths that reach
the same (deck left, state) with different scores go on alike.  The frontier keeps,
for each such pair, the number of paths reaching each score as one packed integer
(slot ``i`` of ``width`` bits counts the paths at score ``low + i``).  A card's points
only move ``low``; paths meeting at one key add their integers (the one with the
higher ``low`` shifted up first).

Paths are counted as sequences of kinds of card, one per draw, so a move adds and
never multiplies: each sequence stands for ``prod(count!/left!)`` sequences of cards
(``count`` a kind's cards in the deck, ``left`` those still in it), all of the same
probability, which is the weight a finished path gets (:mod:`drawdsl.outcomes`).
No slot can spill into the next: the sequences reaching a key are at most the
orderings of the whole deck by kind, ``n! / prod(count!)``, which sets ``width``.

Cards the step treats alike are one kind: the kinds start as one (split at once by
the first state's moves), and at every state the evaluation reaches the step is asked
for every card of each kind the deck still holds there; when two cards of one kind
move apart (another next state, or other points), the kinds are split there and the
evaluation starts again.  So a kind holds cards whose moves are equal at every state
where they can come, which is what lets their counts stand for them (``lump=False``
keeps every distinct card its own kind).  A state's moves are kept for the whole run
when every state so far is built of Python's own values; a state of a type with an
``==`` of its own has them asked again at each draw, so that, as on every route, its
``==`` merges paths within one draw only.

Decks that differ by a renaming of cards are not merged here (the symmetric
reduction of :mod:`drawdsl.exact` needs to rename states, and a scoring loop's states
are the user's own): a step whose state holds a rank, on 13 ranks, keeps every deck
apart, where the same process as a :func:`~drawdsl.loop` can be proven blind to
renamings and merged.  The state-limit error says so.

>>> from drawdsl import Cards, chances, scoring_loop
>>> def turn(seen, card):  # the first four cards: reds less blacks
...     return (None if seen == 3 else seen + 1), 1 if card == "R" else -1
>>> chances(scoring_loop(0, turn, lambda lead: lead), Cards({"R": 3, "B": 3}))
Distribution({-2: 1/5, 0: 3/5, 2: 1/5})
"""

from __future__ import annotations

import math
from collections.abc import Callable
from operator import add, lshift
from typing import Any

from drawdsl.cards import Cards
from drawdsl.distribution import Distribution
from drawdsl.errors import StateLimitExceeded, add_note
from drawdsl.keys import strict_key
from drawdsl.outcomes import Outcomes, record, still_drawing
from drawdsl.scoring import Pot, _Scored, advance, finish
from drawdsl.spec import _Fail

__all__ = ["evaluate_scored", "ScoresTooSpread", "SPAN"]


class _Split(Exception):
    """Two cards of one kind moved apart: start again with ``kinds``."""

    def __init__(self, kinds: list[list[int]]) -> None:
        super().__init__()
        self.kinds = kinds


class ScoresTooSpread(Exception):
    """The scores of one state lie too far apart to pack (more than :data:`SPAN` slots
    between the lowest and the highest): the caller draws the spec card by card."""


#: The most slots one packed integer may span; beyond, scores are too spread out for
#: packing to pay (``1 << 40`` points for a red card would take ``2**40`` slots).
SPAN = 4096

_PLAIN = (int, str, bool, float, bytes, type(None))


def _plain(value: Any) -> bool:
    """Whether ``value`` is built of Python's own values only (numbers, strings, None,
    tuples and frozensets of them), whose ``==`` tells apart whatever a step can read:
    such states share their moves across draws.  A state of another type has a ``==``
    of its own, trusted (as everywhere) only to merge paths within one draw."""
    t = type(value)
    if t in _PLAIN:
        return True
    if t is tuple or t is frozenset:
        return all(_plain(item) for item in value)
    return False


def _kind_move(
    step: Callable[[Any, Any], Any],
    state: Any,
    cards: list[Any],
    kinds: list[list[int]],
    j: int,
    asked: list[Any],
    pot: Pot | None,
) -> tuple[Any, Any, int, int | None]:
    """Kind ``j``'s move from ``state``: ``(next state, its key or None to stop, points,
    the multiplier of the pot's taker or None)``,
    asked of every card of the kind (``asked[0]``: the card being asked), and only of a
    kind the deck still holds.  Raises :class:`_Split` with finer kinds when its cards
    move apart (another next state, other points, another multiplier).

    (A card of a kind the deck holds can be drawn here: the paths on which it was drawn
    before reach this state as those on which another card of its kind was, since the
    two moved alike; so a step that raises for it raises on a path of the deal.)"""
    groups: dict[Any, list[int]] = {}
    first: tuple[Any, Any, int, int | None] | None = None
    for i in kinds[j]:
        asked[0] = cards[i]
        nxt, points, times = advance(step, state, cards[i], pot)
        nkey = strict_key(nxt)
        found = groups.get((nkey, points, times))
        if found is None:
            groups[(nkey, points, times)] = [i]
            if first is None:
                first = (nxt, None if nxt is None else nkey, points, times)
        else:
            found.append(i)
    if len(groups) > 1:
        raise _Split(kinds[:j] + list(groups.values()) + kinds[j + 1:])
    assert first is not None
    return first


def evaluate_scored(
    spec: _Scored,
    deck: Cards[Any],
    max_states: int,
    max_draws: int,
    lump: bool,
    report: Callable[[int, int], None] | None,
    annotate: Callable[[Exception, int, Any], None],
    log: Any = None,
) -> Distribution[Any]:
    """The exact distribution of ``spec``'s values over ``deck`` (see the module).

    Raises :class:`ScoresTooSpread` when the scores of a state lie too far apart to
    pack.  ``log`` (for :func:`~drawdsl.explain`, an ``exact._Log``) gets the kinds
    of the last run as ``classes``, the ``restarts`` and the last run's ``trace`` of
    ``(draw, live keys, different states)``."""
    cards = list(deck.distinct())
    counts = [deck.count(card) for card in cards]
    # One kind to start with (split at the first state), or every distinct card.
    kinds = [list(range(len(cards)))] if lump and cards else [[i] for i in range(len(cards))]
    while True:
        if log is not None:
            log.classes = [tuple(cards[i] for i in kind) for kind in kinds]
            log.trace = []
        try:
            return _run(spec, cards, counts, kinds, max_states, max_draws, report, annotate, log)
        except _Split as split:
            kinds = split.kinds
            if log is not None:
                log.restarts += 1


def _run(
    spec: _Scored,
    cards: list[Any],
    counts: list[int],
    kinds: list[list[int]],
    max_states: int,
    max_draws: int,
    report: Callable[[int, int], None] | None,
    annotate: Callable[[Exception, int, Any], None],
    log: Any,
) -> Distribution[Any]:
    step, result, pot = spec.step, spec.result, spec.pot
    full = tuple(sum(counts[i] for i in kind) for kind in kinds)
    n = sum(full)
    width = (math.factorial(n) // math.prod(math.factorial(c) for c in full)).bit_length()
    most = width * SPAN  # the most bits a packed integer may hold
    start_key = strict_key(spec.state)
    start: Any = (spec.score, 1)
    if pot is not None:
        ways = _Ways(pot, width, most)
        pot_move = ways.move
        start = ways.start(spec.score, spec.held)
    plain = _plain(spec.state)  # every state so far is plain: moves are kept across draws
    states: dict[Any, Any] = {start_key: spec.state}  # state key -> the state
    # state key -> per kind, its move (asked when a deck holding that kind meets the
    # state): in ``moves`` once every kind's is known, in ``partial`` until then
    moves: dict[Any, list[Any]] = {}
    partial: dict[Any, list[Any]] = {}
    # deck left -> state key -> (low, packed paths); stopped: deck left -> (low, packed)
    frontier: dict[tuple[int, ...], dict[Any, Any]] = {full: {start_key: start}}
    stopped: dict[tuple[int, ...], tuple[int, int]] = {}
    if n == 0:  # no card at all: the loop stops before it draws
        stopped[full] = start if pot is None else ways.ended(start)
        frontier = {}
    depth = 0
    live = len(frontier)
    asked: list[Any] = [None]  # the card the step was last asked about
    nkinds = range(len(kinds))
    pair = len(kinds) == 2
    try:
        while live:
            if depth >= max_draws:
                raise still_drawing(max_draws, live)
            depth += 1
            if not plain:
                moves, partial = {}, {}
                children: dict[Any, Any] = {}  # this draw's states, each first as met now
            else:
                children = states
            after: dict[tuple[int, ...], dict[Any, Any]] = {}
            for left, at_deck in frontier.items():
                there = nkinds if all(left) else [j for j in nkinds if left[j]]
                entries = []
                for skey, paths in at_deck.items():
                    here = moves.get(skey)
                    if here is None:  # moves not all asked yet: ask those this deck can make
                        here = partial.get(skey) or [None] * len(kinds)
                        for j in there:
                            if here[j] is None:
                                nxt, nkey, points, times = _kind_move(
                                    step, states[skey], cards, kinds, j, asked, pot
                                )
                                here[j] = (nxt, nkey, points) if pot is None else \
                                    (nxt, nkey, *pot_move(points, times))
                                if nkey is not None and nkey not in children:
                                    children[nkey] = nxt
                                    plain = plain and _plain(nxt)
                        if None in here:
                            partial[skey] = here
                        else:
                            moves[skey] = here
                            partial.pop(skey, None)
                    entries.append((here, paths))
                for j in there:
                    count = left[j]
                    if not pair:
                        child = left[:j] + (count - 1,) + left[j + 1:]
                    elif j:  # two kinds (colours): the child's counts built at once
                        child = (left[0], count - 1)
                    else:
                        child = (count - 1, left[1])
                    into = after.get(child)
                    if into is None:
                        into = after[child] = {}
                    if pot is not None:
                        _pot_moves(entries, j, into, stopped, child, ways)
                        continue
                    for here, (low, packed) in entries:
                        _, nkey, points = here[j]
                        if nkey is None:  # stopped (_add, its common cases written out)
                            low += points
                            found = stopped.get(child)
                            if found is None:
                                stopped[child] = (low, packed)
                            elif found[0] == low:
                                stopped[child] = (low, found[1] + packed)
                            else:
                                stopped[child] = _sum(found, (low, packed), width, most)
                            continue
                        low += points
                        found = into.get(nkey)
                        if found is None:
                            into[nkey] = (low, packed)
                            continue
                        # _add, written out: calling it here costs 16-19% on Penney's
                        # 52-card games (measured alternating both forms, best of 3).
                        was, other = found
                        if was == low:
                            into[nkey] = (low, other + packed)
                        elif was < low:
                            if low - was > SPAN:
                                raise ScoresTooSpread
                            other += packed << (width * (low - was))
                            if other.bit_length() > most:
                                raise ScoresTooSpread
                            into[nkey] = (was, other)
                        else:
                            if was - low > SPAN:
                                raise ScoresTooSpread
                            other = (other << (width * (was - low))) + packed
                            if other.bit_length() > most:
                                raise ScoresTooSpread
                            into[nkey] = (low, other)
            if children is not states:
                states = children
            if depth == n:  # the deck is played out: every loop left stops here
                for at_deck in after.values():
                    for entry in at_deck.values():
                        low, packed = entry if pot is None else ways.ended(entry)
                        _add(stopped, (0,) * len(full), low, packed, width, most)
                after = {}
            if pot is not None:
                ways.check(after)
            live = sum(map(len, after.values()))
            if report is not None:
                report(depth, live)
            if log is not None:
                log.trace.append((depth, live, len({key for keys in after.values() for key in keys})))
            if live > max_states:
                raise StateLimitExceeded(
                    f"exact evaluation of the scoring loop reached {live} live states "
                    f"(deck left, state) at draw {depth}, over max_states={max_states}; keep in the "
                    "state only what decides the next moves, or pass a larger max_states.  A scoring "
                    "loop's route does not merge decks that differ by a renaming of cards: if the "
                    "state holds what cards were (a rank, a suit), loop((state, score), step) with the "
                    "score in the state may merge them"
                )
            frontier = after
    except (StateLimitExceeded, _Split, ScoresTooSpread):
        raise
    except Exception as err:
        annotate(err, depth, asked[0])
        raise
    return _distribution(stopped, full, n, depth, result, width)


def _sum(a: tuple[int, int], b: tuple[int, int], width: int, most: int) -> tuple[int, int]:
    """The paths of ``a`` and ``b`` (each ``(low, packed)``) in one packed integer; raises
    :class:`ScoresTooSpread` when that would span more than :data:`SPAN` slots or hold
    more than ``most`` bits."""
    low, packed = a
    other_low, other = b
    if low == other_low:
        return low, packed + other
    if low > other_low:
        low, packed, other_low, other = other_low, other, low, packed
    if other_low - low > SPAN:
        raise ScoresTooSpread
    packed += other << (width * (other_low - low))
    if packed.bit_length() > most:
        raise ScoresTooSpread
    return low, packed


def _add(into: dict[Any, tuple[int, int]], key: Any, low: int, packed: int, width: int, most: int) -> None:
    """Add the paths ``packed`` (slot 0 at score ``low``) to ``into[key]`` (see :func:`_sum`)."""
    found = into.get(key)
    into[key] = (low, packed) if found is None else _sum(found, (low, packed), width, most)


class _Ways:
    """The packed paths of a state of a scoring loop with a pot.

    One packed integer per multiplier ``c`` of the pot (its takers', and the leftover's):
    the paths by ``score + c * pot``, what the score would be if a taker of multiplier
    ``c`` took the pot now.  A card's points into the pot move each by ``c * points``;
    a taker makes its integer the score, the pot empty, so every integer is that one.
    Each path is in every integer once, so a slot's width is the same as without a pot.

    An entry is ``(low, packed)`` when all its integers are the same (after a take, or
    at the start), else ``(low, (packed, ...))``, one per multiplier, slot 0 of each at
    the score ``low``: paths meeting at a state then add integer by integer, as the
    deal count does.

    >>> ways = _Ways(Pot({"A": 1, "B": -1}), width=4, most=400)
    >>> ways.coefs, ways.start(0, 2)
    ((-1, 0, 1), (-2, (1, 256, 65536)))
    """

    __slots__ = ("coefs", "index", "lo", "width", "most", "widest", "merged", "bound")

    def __init__(self, pot: Pot, width: int, most: int) -> None:
        self.coefs = tuple(sorted({*pot.takers.values(), pot.leftover}))
        self.index = {c: i for i, c in enumerate(self.coefs)}
        self.lo = self.index[pot.leftover]  # what is left in the pot counts with this one
        self.width = width
        self.most = most
        #: The slots a move adds to an integer at most (over the moves made so far), the
        #: most slots an integer merged with a shift holds (this draw), and a bound on
        #: the slots of every integer of the frontier: see :meth:`check`.
        self.widest = 0
        self.merged = 0
        self.bound = SPAN + 1

    def check(self, after: dict[Any, dict[Any, Any]]) -> None:
        """Raise :class:`ScoresTooSpread` when an integer of the frontier ``after`` (one
        draw on) holds more than ``most`` bits.

        A move adds at most ``widest`` slots to an integer, and a merge with a shift
        records what it makes (``merged``): so the bound on slots grows by ``widest``
        a draw, and the integers are measured only once it passes :data:`SPAN`."""
        self.bound = max(self.bound + self.widest, self.merged)
        self.merged = 0
        if self.bound <= SPAN:
            return
        longest = 0
        for at_deck in after.values():
            for _, ints in at_deck.values():
                longest = max(longest, (ints if type(ints) is int else max(ints)).bit_length())
        if longest > self.most:
            raise ScoresTooSpread
        self.bound = longest // self.width + 1

    def start(self, score: int, held: int) -> Any:
        """The entry of a loop at ``score`` with ``held`` points in the pot."""
        return self.shifted((score, 1), tuple(c * held for c in self.coefs))

    def shifted(self, entry: Any, shifts: tuple[int, ...]) -> Any:
        """``entry``, each integer moved by its shift."""
        low = min(shifts)
        if low == max(shifts):
            return (entry[0] + low, entry[1])
        width = self.width
        if max(shifts) - low > SPAN:
            raise ScoresTooSpread
        ints = (entry[1],) * len(shifts) if type(entry[1]) is int else entry[1]
        return (entry[0] + low, tuple([p << (width * (s - low)) for p, s in zip(ints, shifts, strict=True)]))

    def move(self, points: int, times: int | None) -> tuple[tuple[int, ...], int, int]:
        """A move's ``(shifts by multiplier, the lowest shift, the index of the taker's
        multiplier or -1)``, checked to span at most :data:`SPAN` slots."""
        shifts = tuple(c * points for c in self.coefs)
        low = min(shifts)
        if max(shifts) - low > SPAN:
            raise ScoresTooSpread
        self.widest = max(self.widest, max(shifts) - low)
        return tuple(self.width * (s - low) for s in shifts), low, -1 if times is None else self.index[times]

    def ended(self, entry: Any) -> tuple[int, int]:
        """The paths of ``entry`` by their final score (the loop ends: the pot left counts
        with the leftover's multiplier)."""
        return entry if type(entry[1]) is int else (entry[0], entry[1][self.lo])


def _pot_moves(
    entries: list[tuple[list[Any], Any]], j: int, into: dict[Any, Any],
    stopped: dict[tuple[int, ...], tuple[int, int]], child: tuple[int, ...], ways: _Ways,
) -> None:
    """Draw kind ``j`` from every entry ``(moves, packed paths)`` of one deck, with a pot
    (see :class:`_Ways`): the states go on into ``into``, the stopped paths to
    ``stopped[child]``."""
    width, most = ways.width, ways.most
    for here, entry in entries:
        _, nkey, shifts, least, settle = here[j]
        low, ints = entry
        if settle >= 0:  # taken: the taker's integer is every one's
            if type(ints) is not int:
                ints = ints[settle]
            moved = (low + least + shifts[settle] // width, ints)
        elif type(ints) is int:
            moved = (low + least, tuple(map(ints.__lshift__, shifts)))
        else:
            moved = (low + least, tuple(map(lshift, ints, shifts)))
        if nkey is None:  # stopped
            low, packed = ways.ended(moved)
            _add(stopped, child, low, packed, width, most)
            continue
        found = into.get(nkey)
        if found is None:
            into[nkey] = moved
        elif found[0] != moved[0] or type(found[1]) is not type(moved[1]):
            into[nkey] = _merge(found, moved, ways)
        # _merge's common cases, written out (a call cost 8% on Penney's game by cards)
        elif type(moved[1]) is int:
            into[nkey] = (found[0], found[1] + moved[1])
        else:
            into[nkey] = (found[0], tuple(map(add, found[1], moved[1])))


def _merge(found: Any, moved: Any, ways: _Ways) -> Any:
    """Two entries of one state (see :class:`_Ways`) in one."""
    size, width, most = len(ways.coefs), ways.width, ways.most
    low, ints = found
    other_low, other = moved
    if type(ints) is int and type(other) is int:
        if low == other_low:
            return (low, ints + other)
        merged = _sum(found, moved, width, most)
        ways.merged = max(ways.merged, merged[1].bit_length() // width + 1)
        return merged
    if type(ints) is int:
        ints = (ints,) * size
    elif type(other) is int:
        other = (other,) * size
    if low != other_low:
        if low > other_low:
            low, ints, other_low, other = other_low, other, low, ints
        if other_low - low > SPAN:
            raise ScoresTooSpread
        gap = width * (other_low - low)
        other = tuple([p << gap for p in other])
    summed = tuple(map(add, ints, other))
    longest = max(summed).bit_length()
    if longest > most:
        raise ScoresTooSpread
    ways.merged = max(ways.merged, longest // width + 1)
    return (low, summed)


def _distribution(
    stopped: dict[tuple[int, ...], tuple[int, int]],
    full: tuple[int, ...],
    n: int,
    depth: int,
    result: Callable[[int], Any],
    width: int,
) -> Distribution[Any]:
    """Weigh each stopped deck's sequences by the card sequences they stand for, add
    them up per depth and score, and record ``result(score)`` once per depth and score."""
    by_depth: dict[int, dict[int, int]] = {}
    mask = (1 << width) - 1
    # By kind and cards of it left: the orders of its cards drawn, count! / left!.
    orders = [[math.perm(c, c - rest) for rest in range(c + 1)] for c in full]
    for left, (low, packed) in stopped.items():
        weight = 1
        for kind, rest in enumerate(left):
            weight *= orders[kind][rest]
        at = by_depth.setdefault(n - sum(left), {})
        score = low
        while packed:
            ways = packed & mask
            if ways:
                at[score] = at.get(score, 0) + ways * weight
            packed >>= width
            score += 1
    outcomes = Outcomes()
    finished: dict[int, Any] = {}
    for d, at in sorted(by_depth.items()):
        end, failed = outcomes.at(d)
        for score, ways in at.items():
            outcome = finished.get(score)
            if outcome is None:
                try:
                    outcome = finished[score] = finish(result, score)
                except Exception as err:
                    add_note(err, f"drawdsl: raised by the scoring loop's result at the score {score}")
                    raise
            if type(outcome) is _Fail:
                failed[d] += ways
            else:
                record(outcome.value, ways, end)  # type: ignore[union-attr]
    return outcomes.over_deck(n, max(depth, len(outcomes.ends) - 1))
