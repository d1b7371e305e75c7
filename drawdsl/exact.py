"""The exact interpreter: every path of a spec, depth by depth, with merging.

How it works (see docs/how-it-works.md):

* The frontier after ``d`` seen draws maps ``(remaining deck, pending unseen
  discards, spec) -> integer numerator``.  Paths that reach equal keys are summed,
  which is what makes keyed specs (loops, shared functions) cheap.
* Every path of depth ``d`` over ``n`` cards has the same denominator
  ``n!/(n-d)!`` (``W**d`` for a weighted source of total weight ``W``), so a path only
  carries an integer: the product of the counts of the cards it drew.  Outcomes are
  collected per depth and put over one common denominator at the end.
* ``draw_any`` never branches: it adds to the pending count, and a draw or discard
  with no card left fails the path.  A seen draw after pending discards is drawn
  from the cards not yet seen, which has the same law (the deal is exchangeable).
* Over a deck, the frontier is grouped by spec: what a card does to a spec (the
  continuation, its normal form, where the child goes) is worked out once per
  draw, spec and card, and the inner loop only builds decks and adds integers.
  In symmetric mode every class of free cards is read as the same card, and decks
  are kept as shapes, counts of counts (:mod:`drawdsl.shapes`), or, for a spec that
  holds cards it never drew, as sorted representatives (see :func:`_class_moves`).

>>> from drawdsl import Cards, chances, draw_count
>>> chances(draw_count(lambda c: c == "A", 2), Cards({"A": 4, "x": 48}))
Distribution({0: 188/221, 1: 32/221, 2: 1/221})
"""

from __future__ import annotations

import functools
import math
import sys
from bisect import bisect_right
from collections.abc import Callable, Hashable, Sequence
from fractions import Fraction
from operator import itemgetter
from typing import Any, NoReturn, TypeVar

from drawdsl.atoms import Tracer, Untraced
from drawdsl.cards import Cards
from drawdsl.combinators import _many_step, _Step
from drawdsl.cyclic import solve_chain
from drawdsl.distribution import Distribution
from drawdsl.errors import DrawdslError, EndlessProcess, InvalidArgument, StateLimitExceeded, add_note
from drawdsl.frames import FRAME_KEYS
from drawdsl.keys import strict_key
from drawdsl.order_blind import forget as forget_steps
from drawdsl.order_blind import given_safe, why_ordered
from drawdsl.outcomes import Outcomes as _Outcomes
from drawdsl.outcomes import record as _record
from drawdsl.outcomes import still_drawing
from drawdsl.probes import ProbePlan, Seen, Token, holds_hidden, name_field, show
from drawdsl.reductions import (
    PROOF_BUDGET,
    CardIndex,
    StateGraph,
    head_support,
    normal,
    proof_budget,
    prove_lumping,
    prove_symmetry,
)
from drawdsl.renaming_blind import (
    Proof,
    blind_generator,
    blind_loop,
    blind_map,
    classes_told_apart,
    forget_sets,
)
from drawdsl.score_vectors import ScoresTooSpread, evaluate_scored
from drawdsl.scoring import _Scored
from drawdsl.sent_views import PLAIN, view_groups
from drawdsl.shapes import Unshaped, evaluate_shapes
from drawdsl.sources import Weighted
from drawdsl.spec import (
    _DRAW,
    STEP_TYPES,
    Spec,
    _Any,
    _Bind,
    _ContK,
    _Done,
    _Draw,
    _Gen,
    _Loop,
    _LoopK,
    _MapFn,
    _Resume,
    _spec_or_raise,
    _WhereFn,
    reads_rest,
    whnf,
)

__all__ = ["chances", "chance", "DEFAULT_MAX_STATES", "DEFAULT_MAX_DRAWS"]

V = TypeVar("V", bound=Hashable)

#: Live states allowed at one depth before evaluation stops with StateLimitExceeded.
DEFAULT_MAX_STATES = 1_000_000
#: Draws allowed from a weighted (never-ending) source before evaluation stops.
DEFAULT_MAX_DRAWS = 10_000

_INF = math.inf


def _check_limit(name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an int, got {value!r} ({type(value).__name__})")
    if value <= 0:
        raise InvalidArgument(f"{name} must be a positive int, got {value}")
    return value


def chances(
    spec: Spec[V],
    source: Cards[Any] | Weighted[Any],
    *,
    merge: bool = True,
    lump: bool = True,
    symmetric: bool = True,
    probe: bool = True,
    max_states: int = DEFAULT_MAX_STATES,
    max_draws: int | None = None,
    progress: bool | Callable[[int, int], None] = False,
) -> Distribution[V]:
    """The exact distribution of the values ``spec`` finishes with when drawing from ``source``.

    ``source`` is a :class:`~drawdsl.Cards` deck (drawn without replacement) or a
    :class:`~drawdsl.Weighted` source (with replacement).  ``merge=False`` turns off
    the merging of equal states (same answer, slower; for testing).

    Three reductions over a deck are found automatically and used only where they are
    shown valid for this spec (see :mod:`drawdsl.probes` and :mod:`drawdsl.reductions`);
    each can be turned off, and the answer is the same with or without them:

    * ``probe``: on a deck of named-tuple cards (:func:`~drawdsl.standard_deck`), the
      spec is shown only the fields it uses (a card whose rank is hidden until the spec
      touches it); cards that agree on those fields are drawn as one, so
      ``draw_until(lambda c: c.rank == 13)`` draws 13 ranks, not 52 cards.  Any use
      of a hidden field starts the evaluation again with it shown.
    * ``lump``: cards that lead to equal specs at every state the spec reaches are
      drawn as one class (a spec that only reads ranks draws 13 classes from 52
      cards).  Checked at every transition; a class splits the moment two of its
      cards lead apart.
    * ``symmetric``: decks that differ by a renaming of cards the spec cannot see
      merge (War's "abstract deck").  Used only where it is shown: by traced runs
      (:mod:`drawdsl.atoms`) at every state the evaluation visits, or by exploring
      the spec's whole state graph; a finished value that holds a card, or any
      use a renaming could see, and the evaluation goes on without it.

    Neither applies to weighted sources or to ``merge=False``.

    A weighted source can make a process cyclic ("flip until HH"): when a state
    comes back, the finite graph of states is solved exactly as an absorbing Markov
    chain (see :mod:`drawdsl.cyclic`); ``max_states`` then bounds the graph.

    ``progress=True`` shows a tqdm bar when tqdm is installed (else a line per draw
    on stderr); a callable gets ``(draws so far, live states)`` after every draw.
    ``max_states``
    bounds the live states at one depth; ``max_draws`` bounds the depth (default:
    the deck size, or 10,000 draws from a weighted source).

    >>> from drawdsl import draw_until, standard_deck
    >>> aces = standard_deck().map(lambda card: card.is_ace)
    >>> first_ace = draw_until(lambda ace: ace).map(len)
    >>> chances(first_ace, aces).expectation()
    Fraction(53, 5)
    """
    if not isinstance(spec, Spec):
        raise TypeError(
            f"chances: spec must be a Spec, got {spec!r} ({type(spec).__name__}); "
            "build one with draw(), loop(), @generate ..."
        )
    max_states = _check_limit("max_states", max_states)
    report = _reporter(progress)
    if isinstance(source, Cards):
        limit = len(source) if max_draws is None else _check_limit("max_draws", max_draws)
        for name, flag in (("lump", lump), ("symmetric", symmetric), ("probe", probe)):
            if not isinstance(flag, bool):
                raise TypeError(f"chances: {name} must be True or False, got {flag!r}")
        return _evaluate(spec, source, None, merge, max_states, limit, symmetric, report, lump, probe)
    if isinstance(source, Weighted):
        limit = DEFAULT_MAX_DRAWS if max_draws is None else _check_limit("max_draws", max_draws)
        return _evaluate(spec, None, source, merge, max_states, limit, False, report)
    raise TypeError(
        f"chances: source must be Cards (without replacement) or Weighted (with "
        f"replacement), got {source!r} ({type(source).__name__}); "
        "for example Cards('AAKK') or coin()"
    )


def chance(spec: Spec[Any], source: Cards[Any] | Weighted[Any], **options: Any) -> Fraction:
    """The exact probability that ``spec`` does not fail (game-probability's ``chance``).

    >>> from drawdsl import Cards, draw_where
    >>> chance(draw_where(lambda c: c == "A"), Cards({"A": 4, "x": 48}))
    Fraction(1, 13)
    """
    return chances(spec, source, **options).success


def _canonical(counts: tuple[int, ...], free: tuple[int, ...] | None) -> tuple[int, ...]:
    """The representative of a deck up to a renaming of its free (unpinned) cards.

    Pinned cards keep their counts; the counts of the free cards are sorted and given
    back to the free positions in ascending order.  Two decks that differ by a renaming
    of free cards get the same representative.  ``free=None``: every card is free.

    >>> _canonical((3, 0, 2, 1), None)
    (0, 1, 2, 3)
    >>> _canonical((3, 0, 2, 1), (1, 2, 3))
    (3, 0, 1, 2)
    """
    if free is None:
        return tuple(sorted(counts))
    out = list(counts)
    for j, count in zip(free, sorted([counts[j] for j in free]), strict=True):
        out[j] = count
    return tuple(out)


def _class_moves(
    counts: tuple[int, ...],
    pinned: tuple[int, ...],
    offset: int,
    free: tuple[int, ...],
    free_counts: Callable[[tuple[int, ...]], Sequence[int]] | None = None,
) -> list[tuple[int, int, int]]:
    """The draws to expand from a representative deck (see :func:`_canonical`), as
    ``(card drawn, weight, position)``.

    A pinned card ``p`` is drawn as itself: ``(p, count, p)``.  A class of free cards
    with equal counts is drawn once, weighted by its size, and always as the *first*
    free card: rename the free cards so that it holds the class's count, the others
    keeping their ascending order (the ``position`` is where the class starts in the
    representative; :func:`_free_draw` builds the deck left).  So every class of a
    state reads the same card, and the continuation is asked once for all of them.

    ``offset >= 0`` says that the pinned cards are the first ``offset`` ones (the
    common case, since the drawn free card is the first), so the free counts ascend in
    ``counts[offset:]``; else ``free_counts`` picks the free counts out of ``counts``
    (a faster ``[counts[j] for j in free]``).

    >>> _class_moves((0, 1, 1, 3), (), 0, (0, 1, 2, 3))
    [(0, 2, 1), (0, 3, 3)]
    >>> _class_moves((2, 1, 1, 3), (0,), 1, (1, 2, 3))
    [(0, 2, 0), (1, 2, 1), (1, 3, 3)]
    >>> _class_moves((1, 2, 1, 3), (1,), -1, (0, 2, 3))
    [(1, 2, 1), (0, 2, 0), (0, 3, 3)]
    """
    moves = []
    for p in pinned:
        if counts[p]:
            moves.append((p, counts[p], p))
    if offset >= 0:
        size = len(counts)
        j = bisect_right(counts, 0, offset)  # the free counts ascend: skip exhausted cards
        while j < size:
            count = counts[j]
            after = bisect_right(counts, count, j)
            moves.append((offset, count * (after - j), j))
            j = after
        return moves
    values = [counts[j] for j in free] if free_counts is None else free_counts(counts)
    size = len(values)
    first = free[0] if free else -1
    j = bisect_right(values, 0)
    while j < size:
        count = values[j]
        after = bisect_right(values, count, j)
        moves.append((first, count * (after - j), free[j]))
        j = after
    return moves


def _free_draw(counts: tuple[int, ...], free: tuple[int, ...], position: int) -> tuple[int, ...]:
    """The deck left when the first free card is drawn for the class starting at
    ``position`` (see :func:`_class_moves`): that card holds the class's count minus
    one, the other free cards the remaining free counts, ascending.

    >>> _free_draw((0, 1, 1, 3), (0, 1, 2, 3), 3)
    (2, 0, 1, 1)
    >>> _free_draw((5, 1, 1, 3), (1, 2, 3), 3)
    (5, 2, 1, 1)
    """
    values = [counts[j] for j in free]
    at = free.index(position)
    values = [values[at] - 1] + values[:at] + values[at + 1:]
    out = list(counts)
    for j, count in zip(free, values, strict=True):
        out[j] = count
    return tuple(out)


def _too_many(states: int, depth: int, max_states: int, why: str | None = None) -> NoReturn:
    raise StateLimitExceeded(
        f"exact evaluation reached {states} live states at draw {depth}, over "
        f"max_states={max_states}; "
        + (why or "write long processes with loop() so that paths merge, or pass a larger max_states")
    )


def _diagnosis(live: int, heads: list[Any], lumped: int, distinct: int, symmetric: bool) -> str:
    """What keeps the live states apart, in the spec's terms, and what to do."""
    if len(heads) * 2 >= live:
        kind = "generator" if any(_is_generator(h) for h in heads[:50]) else "spec"
        if kind == "generator" and FRAME_KEYS:
            return (
                f"{len(heads):,} of them are different specs: the @generate spec's variables keep "
                "what was drawn (for example a list of the cards, or the cards themselves rather "
                "than their ranks)" + _ordered_dicts(heads) + "; keep only what later lines read "
                "(a count, a dict of ranks read by key), or pass a larger max_states"
            )
        if kind == "generator":
            return (
                f"{len(heads):,} of them are different specs: the @generate spec remembers every value "
                "it was sent, so only identical histories merge (on this Python its variables "
                "cannot be read); write the process as loop(state, step) keeping only what later "
                "steps read (a count, a rank, a total), or pass a larger max_states"
            )
        return (
            f"{len(heads):,} of them are different specs: the spec's state keeps what was drawn "
            "(for example a loop state or a value holding every card so far); keep only what "
            "later steps read (a count, a rank, a total; draw_until(...).map(len) counts), "
            "or pass a larger max_states"
        )
    told = (
        f"the spec tells {lumped} kinds of card apart among {distinct} distinct cards"
        if lumped < distinct else f"the spec tells all {distinct} distinct cards apart"
    )
    sym = "" if symmetric else " and renaming cards is not shown to be invisible to it"
    if lumped < distinct and not symmetric:
        fix = (
            "if the question treats those kinds alike (it only asks whether two are equal), "
            "keep the card, or the one field read (card.rank), in the state as it is, or draw "
            "from a deck of their names (deck.map(lambda card: f'r{card.rank}')) and keep the "
            "drawn name: the renaming sees cards and fields, not numbers or text made from them "
            "(see explain()); or pass a larger max_states"
        )
    else:
        fix = (
            "read only the aspect the question needs (card.rank rather than the card), "
            "or pass a larger max_states"
        )
    return f"only {len(heads):,} different specs: the decks left keep them apart ({told}{sym}); {fix}"


#: States sampled to estimate the next draw's frontier (see :func:`_refuse_early`).
_SAMPLE = 32


def _refuse_early(
    frontier: dict[tuple[int, int], dict[tuple[int, ...], int]], heads: list[Any], cards: Sequence[Any],
    left: int, live: int, depth: int, max_states: int, why: Callable[[], str],
) -> None:
    """Stop now, not a minute later, when the next draw will clearly pass ``max_states``.

    Only when no paths merge (nearly every live state is a different spec, so the next
    draw's states are the current ones' children, all different): the children that go
    on drawing from a sample of the states, scaled to the whole frontier, estimate the
    next frontier; past ``max_states`` the evaluation stops with that estimate.
    """
    if len(heads) * 10 < live * 9:
        return
    going = sampled = 0
    for (hid, anys), group in list(frontier.items())[:_SAMPLE]:
        k = heads[hid].draw.k
        for counts in list(group)[:2]:
            sampled += 1
            for i, count in enumerate(counts):
                if count:
                    child, _ = normal(
                        _spec_or_raise(k(show(cards[i])), k, "the continuation"), left - 1 - anys
                    )
                    going += type(child) is _Draw
    if not sampled:
        return
    estimate = live * going // sampled
    if estimate > max_states:
        raise StateLimitExceeded(
            f"exact evaluation would reach about {estimate:,} live states at draw {depth + 1} "
            f"({live:,} at draw {depth}, each going on with about {going / sampled:.3g} cards, and "
            f"no paths merge), over max_states={max_states}; {why()}"
        )


def _ordered_dicts(heads: list[Any]) -> str:
    """The dicts the first suspended generator among ``heads`` keeps in insertion order,
    and why (see :func:`drawdsl.order_blind.why_ordered`), as a clause of a message."""
    for head in heads[:50]:
        key = getattr(getattr(head, "draw", head), "key", None)
        frames = key[2] if type(key) is tuple and len(key) == 3 and key[0] == "cont" else None
        while frames is not None:
            if type(frames.f).__name__ == "_Resume":
                func = frames.f.gen_spec.func
                found = why_ordered(func.__code__) if hasattr(func, "__code__") else {}
                return "".join(
                    f"; its dict {name!r} keeps insertion order ({why}), so two orders of the "
                    "same contents stay apart (read by key, len, sorted, max, min or sum, they merge)"
                    for name, why in found.items()
                )
            frames = frames.rest
    return ""


def _is_generator(head: Any) -> bool:
    """Whether ``head`` is a draw inside a @generate spec (its continuation resumes one)."""
    key = getattr(getattr(head, "draw", head), "key", None)
    if type(key) is tuple and len(key) == 3 and key[0] == "cont":
        frames = key[2]
        while frames is not None:
            if type(frames.f).__name__ == "_Resume":
                return True
            frames = frames.rest
    return False


def _reporter(progress: bool | Callable[[int, int], None]) -> Callable[[int, int], None] | None:
    """The progress callback for ``progress=``: None, the user's callable, or a default."""
    if progress is False or progress is None:
        return None
    if callable(progress):
        return progress
    if progress is not True:
        raise TypeError(f"progress must be a bool or a callable (draws, states), got {progress!r}")
    try:
        from tqdm import tqdm
    except ImportError:

        def to_stderr(draws: int, states: int) -> None:
            print(f"drawdsl: {draws} draws, {states} live states", file=sys.stderr)

        return to_stderr
    bar = tqdm(unit=" draws", desc="drawdsl")

    def to_bar(draws: int, states: int) -> None:
        bar.update(draws - bar.n)
        bar.set_postfix(states=states)

    return to_bar


def _evaluate(
    spec: Spec[Any],
    deck: Cards[Any] | None,
    weighted: Weighted[Any] | None,
    merge: bool,
    max_states: int,
    max_draws: int,
    symmetric: bool = False,
    report: Callable[[int, int], None] | None = None,
    lump: bool = False,
    probe: bool = False,
) -> Distribution[Any]:
    """Dispatch: a deck with merging takes the fast path, the rest the general one; a
    scoring loop over a deck keeps its scores packed (:mod:`drawdsl.score_vectors`)."""
    if deck is not None and merge and type(spec) is _Scored:
        try:
            return evaluate_scored(spec, deck, max_states, max_draws, lump, report, _annotate)
        except ScoresTooSpread:
            pass  # scores too far apart to pack: drawn card by card below
    if deck is not None and merge:
        return _evaluate_probed(spec, deck, max_states, max_draws, lump, symmetric, report, probe)
    forget_sets()  # (a global rebound since the last evaluation is looked at again)
    return _evaluate_general(spec, deck, weighted, merge, max_states, max_draws, report)


def _evaluate_probed(
    spec: Spec[Any],
    deck: Cards[Any],
    max_states: int,
    max_draws: int,
    lump: bool,
    symmetric: bool,
    report: Callable[[int, int], None] | None,
    probe: bool,
    log: _Log | None = None,
    escalate_at: int | None = None,
) -> Distribution[Any]:
    """Evaluate over a deck showing the spec only the card fields it uses (see
    :mod:`drawdsl.probes`), then with the reductions of :func:`_evaluate_reduced`.

    The first run hides every field (but those found by following its one path, see
    :func:`_first_used`); each run that uses a hidden field is thrown away and the
    field shown in the next.  A run that raised (other than a limit), or whose
    finished values hold a hidden field, gives way to the real cards, so errors and
    values are the spec's own.
    """
    log = log or _Log()
    forget_steps()  # a global name rebound since the last evaluation is looked at again
    forget_sets()
    plan = ProbePlan.of(deck) if probe and lump else None
    # The fields the first run would use, found without the run.
    shown = _first_used(spec, plan, len(deck), max_draws) if plan is not None else frozenset()
    while plan is not None and len(shown) < len(plan.fields):
        probed, watch = plan.deck(shown)
        if len(probed.distinct()) == len(deck.distinct()):
            break  # the shown fields tell every card apart: nothing to gain
        # The same classes handing the one shown field as names (probes.named), for traced
        # runs only: there every transition is watched, so a spec that could tell a name
        # from its plain value (``type(card.rank) is int``) is caught.  The classes share
        # the watch, so a hidden field used in either run is seen.
        named = plan.deck(shown, names=True, watch=watch)[0] if symmetric and plan.names_for(shown) else None
        try:
            result = _evaluate_reduced(
                spec, probed, max_states, max_draws, lump, symmetric, report, log, escalate_at,
                len(deck.distinct()), named,
            )
        except Seen:
            if not watch.fields:
                raise  # another run's placeholder (a chances() inside the spec, on our card)
        except (StateLimitExceeded, EndlessProcess):
            if not watch.fields:
                raise  # as big with every card shown: no run on the real cards is smaller
        except Exception:
            if not watch.fields:
                break  # the real cards raise the spec's own error (or none)
        else:
            if not watch.fields:
                if any(holds_hidden(value) for value in result):
                    break  # the spec finishes with a card: evaluate the real ones
                log.shown = tuple(name for name in plan.fields if name in shown)
                return result
        shown |= watch.fields
        log.restarts += 1
    log.shown = None
    return _evaluate_reduced(spec, deck, max_states, max_draws, lump, symmetric, report, log, escalate_at)


def _first_used(spec: Spec[Any], plan: ProbePlan, n: int, max_draws: int) -> frozenset[str]:
    """The hidden fields the first probed run would use, found without the run.

    With every field hidden the deck is one class, so that run follows one path: each
    draw hands the spec a card of that class.  This follows the same path (the same
    cards left and discards pending at each draw) until the probe's signal stops it (a
    field used), the path ends, the spec raises, or ``max_draws``: the fields the run
    would have used, also past a signal the spec swallows (review V), or none (then the
    run goes as before).
    """
    probed, watch = plan.deck(frozenset())
    token = probed.distinct()[0]
    try:
        head, anys = normal(spec, n)
        depth = 0
        while type(head) is _Draw and depth < min(n, max_draws):
            depth += 1
            k = head.k
            head, extra = normal(_spec_or_raise(k(show(token)), k, "the continuation"), n - depth - anys)
            anys += extra
    except Seen:
        pass  # the watch has its record (none: another run's placeholder, met again in the run)
    except Exception:
        pass  # the run raises it again, or not, as before
    return frozenset(watch.fields)


class _Restart(Exception):
    """Internal: the evaluation stops and starts again with other reductions."""


class _Split(_Restart):
    """Two cards of a lumped class lead to different specs: split the class."""

    def __init__(self, groups: list[list[Any]]) -> None:
        super().__init__(groups)
        self.groups = groups


class _Escalate(_Restart):
    """The frontier grew large: try to prove the reductions before going on."""


#: Live states at one depth past which the evaluator tries to prove its reductions.
ESCALATE_AT = 500
#: Live states at one depth past which the evaluator first tries the renaming symmetry
#: by traced runs (:mod:`drawdsl.atoms`), before :data:`ESCALATE_AT`: that costs no
#: proof over the state graph, and a spec that is not blind to renamings is refused at
#: its first traced run, so trying it early costs little and saves the evaluation the
#: states it would keep apart until then.
TRACE_AT = 64

#: From how many distinct cards a loop's step is proven blind to renamings by its bytecode
#: before the evaluation starts (:mod:`drawdsl.renaming_blind`); on fewer, once the frontier
#: passes :data:`TRACE_AT` states.
LOOP_PROOF_AT = 8


def _check_class(
    k: Callable[[Any], Spec[Any]], members: tuple[Any, ...], child: Spec[Any], extra: int, avail: int,
    current: list[Any],
) -> None:
    """Raise :class:`_Split` unless every card of a lumped class continues like its first
    (``current[0]``: the card being tried, for error notes)."""
    results = [(child, extra)]
    for card in members[1:]:
        current[0] = card
        results.append(normal(_spec_or_raise(k(show(card)), k, "the continuation"), avail))
    if all(r[1] == extra and r[0] == child for r in results[1:]):
        return
    groups: dict[Any, list[Any]] = {}
    for card, result in zip(members, results, strict=True):
        groups.setdefault(result, []).append(card)
    raise _Split(list(groups.values()))


def _views_agree(sees: Callable[[Any], Any], members: tuple[Any, ...], current: list[Any]) -> bool:
    """Whether ``sees`` (a combinator step's predicate) gives every card of the class a
    strictly equal value: then the step cannot tell them apart at any state."""
    current[0] = members[0]
    try:
        key = strict_key(sees(show(members[0])))
        for card in members[1:]:
            current[0] = card
            if strict_key(sees(show(card))) != key:
                return False
    except TypeError:
        return False  # an unhashable view: compare the continuations in full
    return True


def _loop_members_agree(k: _LoopK, members: tuple[Any, ...], current: list[Any]) -> bool:
    """The quick form of :func:`_check_class` for a loop step: True when the step gives
    every card of the class the same next state (by strict key, as the merging of
    loop states compares them), so that the continuations are equal loops.  False
    when that is not shown this way (a step returning a spec, or unequal states):
    the caller then compares the continuations in full.
    """
    step, state = k.step, k.state
    current[0] = members[0]
    first = step(state, show(members[0]))
    if isinstance(first, Spec):
        # Equal specs (done(value) compares its value strictly) continue alike.
        for card in members[1:]:
            current[0] = card
            result = step(state, show(card))
            if result is not first and not (isinstance(result, Spec) and result == first):
                return False
        return True
    try:
        key = strict_key(first)
    except TypeError:
        return False  # not hashable: the full comparison raises the loop's own error
    for card in members[1:]:
        current[0] = card
        result = step(state, show(card))
        if result is first:
            continue
        if isinstance(result, Spec):
            return False
        try:
            if strict_key(result) != key:
                return False
        except TypeError:
            return False
    return True


def _lumped(deck: Cards[Any], cards: tuple[Any, ...], classes: list[list[int]]) -> tuple[
    Cards[Any], list[tuple[Any, ...] | None]
]:
    """The deck drawn as classes (each class as its first card) and each class's cards."""
    counts: dict[Any, int] = {}
    members: list[tuple[Any, ...] | None] = []
    for part in classes:
        counts[cards[part[0]]] = sum(deck.count(cards[i]) for i in part)
        members.append(tuple(cards[i] for i in part) if len(part) > 1 else None)
    return Cards._trusted(counts), members


class _Log:
    """What :func:`_evaluate_reduced` did: the reductions it used and the last run's trace."""

    def __init__(self) -> None:
        self.classes: list[tuple[Any, ...]] = []
        self.symmetric = False
        self.proof: str | None = None
        self.restarts = 0
        self.trace: list[tuple[int, int, int]] = []
        #: The card fields the spec was shown (None: the real cards).
        self.shown: tuple[str, ...] | None = None


def _evaluate_reduced(
    spec: Spec[Any],
    deck: Cards[Any],
    max_states: int,
    max_draws: int,
    lump: bool,
    symmetric: bool,
    report: Callable[[int, int], None] | None,
    log: _Log | None = None,
    escalate_at: int | None = None,
    distinct: int | None = None,
    named: Cards[Any] | None = None,
) -> Distribution[Any]:
    """Evaluate over a deck with the reductions that are shown valid for ``spec``
    (``distinct``: the distinct cards of the deck the user gave, for messages;
    ``named``: the probed deck's classes in the same order handing the spec names,
    used in traced runs only, see :func:`_evaluate_probed`).

    Lumping starts from one class of all cards and is checked at every transition; a
    class splits (and the evaluation starts again) as soon as two of its cards lead
    apart.  When the frontier grows past ``escalate_at`` (default
    :data:`ESCALATE_AT`) states, the reductions are proven over the spec's whole
    state graph (:func:`~drawdsl.reductions.prove_lumping`, then, when ``symmetric``,
    :func:`~drawdsl.reductions.prove_symmetry` on the lumped deck); what is proven
    is used without further checks, and the evaluation starts again.
    """
    log = log or _Log()
    cards = deck.distinct()
    n = len(deck)
    singles = [[i] for i in range(len(cards))]
    classes = [list(range(len(cards)))] if lump and len(cards) > 1 else singles
    checked = lump
    sym = False
    escalate = (lump or symmetric) and len(cards) > 1
    threshold = ESCALATE_AT if escalate_at is None else escalate_at
    # The first threshold, for the traced runs alone (when they may be tried).
    early = symmetric and escalate_at is None and threshold > TRACE_AT
    if early:
        threshold = TRACE_AT
    most = proof_budget(max_states)
    budget = min(PROOF_BUDGET, most) if escalate_at is None else most
    graphs: list[StateGraph] = []  # made at the first proof, its rows kept for the next
    # The symmetry checked by traced runs while the evaluation goes (drawdsl.atoms),
    # tried once, before any proof over the state graph.
    traced = tried = False

    def traceable() -> bool:
        """Whether traced runs can stand for the cards of the current classes."""
        return Tracer(_lumped(*traced_deck(), classes)[0].distinct()).usable is None

    def traced_deck() -> tuple[Cards[Any], tuple[Any, ...]]:
        """The deck of traced runs, and its distinct cards (the classes index both alike)."""
        return (deck, cards) if named is None else (named, named.distinct())

    def prove() -> StateGraph:
        """Prove the reductions over the whole state graph, and use what holds."""
        nonlocal classes, checked, sym
        if not graphs:
            graphs.append(StateGraph(spec, cards, n, budget))
        graph = graphs[0]
        graph.budget, graph.over_budget = budget, False
        # Classes of single cards have nothing to prove (and their checks nothing to check).
        proven = prove_lumping(spec, cards, classes, n, graph=graph) if lump and len(classes) < len(cards) \
            else singles
        if proven is None:
            log.proof = "lumping not proven: the state graph is too big to explore or the spec raised"
            if symmetric:
                proof = prove_symmetry(spec, cards, n, graph=graph)
                log.proof = proof.reason
                if proof.proven:
                    classes, checked, sym = singles, False, True
        else:
            classes, checked = sorted(proven), False
            if symmetric:
                proof = prove_symmetry(spec, [cards[part[0]] for part in classes], n, graph=graph)
                sym, log.proof = proof.proven, proof.reason
        return graph

    def sampled(transition: tuple[Any, ...] | None) -> bool:
        """Whether a traced run of the evaluation's last ``transition`` shows the spec
        blind to renamings there (True when it cannot be tried: the cards handed as
        names differ from the evaluation's): a spec that is not is refused at once,
        without starting again."""
        if transition is None or named is not None:
            return True
        tracer = Tracer(_lumped(deck, cards, classes)[0].distinct())
        return tracer.check(*transition) is None

    def escalated(transition: tuple[Any, ...] | None) -> tuple[int | None, bool]:
        """Try the proofs past the threshold: restart (:class:`_Escalate`) when they change
        the reductions, else go on with the next threshold and whether to keep checking."""
        nonlocal threshold, budget, escalate, sym, traced, tried, early
        if traced:
            return None, checked  # the traced runs check the symmetry: nothing to prove
        if loop_blind():
            raise _Escalate  # the loop step's bytecode shows the symmetry: use it from the start
        before = {frozenset(part) for part in classes}
        if symmetric and not sym and not tried and not (checked and len(classes) < len(cards)):
            # The classes are settled: try the symmetry by traced runs first (no graph).
            tried = True
            if traceable() and sampled(transition):
                sym = traced = True
                raise _Escalate
        if early:
            early = False  # past TRACE_AT: the proofs over the graph wait for ESCALATE_AT
            threshold = ESCALATE_AT
            return threshold, checked
        # A proof that ran out of calls is tried again, with ten times the calls,
        # once the frontier has grown tenfold: its cost stays a share of the work.
        # Not when the next depths alone would need more calls than that.
        graph = prove()
        grows = budget < most
        threshold *= 10
        budget = min(budget * 10, most)
        escalate = graph.over_budget and grows and graph.worth_more(budget) and not sym
        if not escalate:
            graphs.clear()  # no proof after this one: its rows are not kept through the evaluation
        if symmetric and not sym and not tried and not checked:
            tried = True  # the classes are proven now, the symmetry is not: traced runs may show it
            if traceable():
                sym = traced = True
        if sym or {frozenset(part) for part in classes} != before:
            raise _Escalate
        return (threshold if escalate else None), checked

    def too_many(live: int, depth: int, heads: list[Any]) -> NoReturn:
        _too_many(live, depth, max_states, _diagnosis(live, heads, len(cards), distinct or len(cards), True))

    # A loop whose step's bytecode may show it blind to renamings: on a deck of many kinds
    # of card at once; on one of a few, once the frontier grows (the first proof of a
    # step costs about half a millisecond, more than many a question on a few kinds).
    loop_core = symmetric and len(cards) > 1 and _loop_core(spec)
    loop_tried = blind = False
    #: The kind of the loop's states, when its step's bytecode shows it blind to renamings
    #: of the plain cards it is dealt (drawdsl.renaming_blind.rename_state).
    state_kind: list[Any] = [None]

    def loop_blind() -> bool:
        """Whether (tried once) the loop step's bytecode shows the spec blind to renamings;
        then the evaluation is symmetric on single cards from the start."""
        nonlocal classes, checked, sym, escalate, blind, loop_tried
        if not loop_core or loop_tried or sym:
            return False
        loop_tried = True
        proof = _blind_proof(spec, cards, named)
        if proof is None:
            return False
        classes, checked, sym, escalate, blind = singles, False, True, False, True
        if proof.direct and not proof.fields and type(spec) is _Loop:
            state_kind[0] = proof.state  # its heads may be renamed (see evaluate_shapes)
        return True

    shaped = True  # symmetric decks as shapes (drawdsl.shapes) until a spec has none
    graph_note: str | None = None
    # A @generate spec or a mapped draw_many(n) whose bytecode shows it blind to renamings
    # (drawdsl.renaming_blind): symmetric from the start, on the classes as they are.
    blind = symmetric and len(cards) > 1 and not loop_core and _blind_deck(spec, cards, named)
    if blind:
        classes, checked, sym, escalate = singles, False, True, False
    at_once = False  # explain: every proof before the evaluation, not when the frontier grows
    if escalate and threshold == 0:
        at_once = True
        if not loop_blind():
            escalate = False
            prove()
    elif len(cards) >= LOOP_PROOF_AT:
        loop_blind()
    alike: frozenset[tuple[Any, ...]] = frozenset()
    if checked and len(classes) == 1:
        # A generator's first suspension splits the class by its views of the card before
        # the first run, as that run's first check would (and start again).
        found = _first_views(spec, cards, n)
        if found is not None and len(found[0]) > 1:
            groups, base = found
            position = {card: i for i, card in enumerate(cards)}
            classes = sorted([position[c] for c in group] for group in groups)
            if base is not None:  # the run's checks of these classes there are answered
                alike = frozenset((*base, frozenset(group)) for group in groups)
    while True:
        if at_once and symmetric and not sym and not tried and not (checked and len(classes) < len(cards)):
            # The proofs at once (explain): where the graph proof does not show the symmetry,
            # traced runs may, as chances() tries them once the frontier grows and the
            # classes are settled (all proven, or split down to single cards): explain
            # reports what chances uses.  Even after the graph proof found two states that
            # do not match: it compares states by equality (a dict's order counts), and a
            # traced run may still show the spec blind to renamings.
            tried = True
            sym = traced = traceable()
            graph_note = log.proof  # if they do not, the graph proof's reason is the one to tell
        lumped, members = _lumped(*(traced_deck() if traced or blind else (deck, cards)), classes)
        log.classes = [tuple(cards[i] for i in part) for part in classes]
        log.symmetric = sym
        log.trace = []
        try:
            if sym and shaped:
                return evaluate_shapes(
                    spec, lumped, max_states, max_draws, report, log.trace, too_many, _annotate, traced,
                    grouped=blind, state_kind=state_kind[0] if blind else None,
                )
            return _evaluate_deck(
                spec, lumped, max_states, max_draws, sym, report,
                members if checked else None, threshold if escalate else None, log.trace,
                distinct or len(cards), escalated, traced, alike,
            )
        except _Split as split:
            position = {card: i for i, card in enumerate(cards)}
            first = position[split.groups[0][0]]
            rest = [part for part in classes if first not in part]
            parts = [[position[c] for c in group] for group in split.groups]
            classes = sorted(rest + parts)
        except _Escalate:
            pass  # escalated() proved new reductions
        except Unshaped:
            shaped = False  # a spec holding a card it neither held nor drew: per-card counts
        except Untraced as untraced:
            sym = traced = False  # not shown: on without it (the graph proof may still show it)
            log.proof = graph_note or untraced.reason
        log.restarts += 1


def _views_key(gen: Any, where: tuple[Any, ...]) -> tuple[Any, ...] | None:
    """What the views of the generator spec ``gen`` suspended at ``where`` depend on:
    its function, its arguments' key and the suspension; None when its arguments are
    not all plain values (then equal arguments need not mean alike: checked each time)."""
    args, kwargs = gen.args, gen.kwargs
    if not args and not kwargs:
        return (gen.func, (), where)
    if not all(type(a) in PLAIN for a in (*args, *(v for _, v in kwargs))):
        return None
    return (gen.func, strict_key((args, kwargs)), where)


def _first_views(
    spec: Spec[Any], cards: tuple[Any, ...], n: int,
) -> tuple[list[list[Any]], tuple[Any, ...] | None] | None:
    """The cards grouped by the views the generator ``spec`` first suspends on
    (:func:`~drawdsl.sent_views.view_groups`), with :func:`_views_key` there; None: not
    a generator's draw, no views shown, or the spec raised (the evaluation then raises
    its own error)."""
    try:
        first, _ = normal(spec, n)
    except Exception:
        return None
    if type(first) is not _Draw:
        return None
    k = first.k
    if type(k) is not _ContK or k.k is not _DRAW.k or type(k.frames.f) is not _Resume:  # type: ignore[attr-defined]
        return None
    resume = k.frames.f  # type: ignore[attr-defined]
    if resume.where is None:
        return None
    gen = resume.gen_spec
    groups = view_groups(gen.func, gen.args, gen.kwargs, resume.where, cards)
    return None if groups is None else (groups, _views_key(gen, resume.where))


def _renaming_proof(spec: Spec[Any]) -> Any:
    """The bytecode proof (:mod:`drawdsl.renaming_blind`) that ``spec`` cannot see a
    renaming of the cards, or None: a bare ``@generate`` spec, a ``loop`` whose step
    is proven, or ``draw_many(n)`` mapped by a proven function; any of them then
    mapped or filtered any number of times by functions that see its plain value
    only, and reach no frame (a frame reader there could read the evaluator's own
    variables: a review)."""
    after: list[Any] = []  # the functions mapped or filtered after the core
    core: Any = None
    while type(spec) is _Bind:
        f, inner = spec.f, spec.m  # type: ignore[attr-defined]
        if type(f) is _MapFn and type(inner) is _Loop and type(inner.step) is _Step \
                and inner.step.fn is _many_step and type(inner.state) is tuple and not inner.state:
            core = f.f
            proof = blind_map(core)
            break
        if type(f) not in (_MapFn, _WhereFn):
            return None
        after.append(f.f if type(f) is _MapFn else f.predicate)  # type: ignore[attr-defined]
        spec = inner
    else:
        if type(spec) is _Loop and type(spec.step) is not _Step:  # type: ignore[attr-defined]
            # (drawdsl's own steps hand the card to the user's function: never proven.)
            found = blind_loop(spec.step, spec.state)  # type: ignore[attr-defined]
            if found is None:
                return None
            proof, core = found
        elif type(spec) is _Gen:
            core = spec.func
            proof = blind_generator(spec.func, spec.args, spec.kwargs)
        else:
            return None
    if proof is None:
        return None
    # What runs after may not reach a frame, nor the core's namespaces (to rebind a name).
    namespaces = (getattr(core, "__globals__", None), getattr(core, "__builtins__", None))
    if after and not given_safe(tuple(after), tuple(ns for ns in namespaces if ns is not None)):
        return None
    return proof


def _loop_core(spec: Spec[Any]) -> bool:
    """Whether ``spec`` is a ``loop`` (mapped or filtered any number of times) of the kind
    :func:`_renaming_proof` may prove by its step: not ``draw_many(n)`` mapped, which is a
    core of its own."""
    while type(spec) is _Bind:
        f, inner = spec.f, spec.m  # type: ignore[attr-defined]
        if type(f) not in (_MapFn, _WhereFn) or (type(inner) is _Loop and type(inner.step) is _Step):
            return False
        spec = inner
    return type(spec) is _Loop and type(spec.step) is not _Step  # type: ignore[attr-defined]


def _blind_deck(spec: Spec[Any], cards: tuple[Any, ...], named: Cards[Any] | None) -> bool:
    """Whether ``spec`` is shown blind to renamings of the deck's classes
    (:func:`_renaming_proof`): its code's proof holds now, and the classes
    are told apart by the values it uses (on a probed deck, the one field it reads,
    handed as names in ``named``; else the plain cards themselves)."""
    return _blind_proof(spec, cards, named) is not None


def _blind_proof(spec: Spec[Any], cards: tuple[Any, ...], named: Cards[Any] | None) -> Proof | None:
    """The proof :func:`_blind_deck` finds, or None."""
    proof = _renaming_proof(spec)
    if proof is None:
        return None
    if proof.fields:
        if named is None or len(proof.fields) != 1:
            return None
        field = next(iter(proof.fields))
        tokens = named.distinct()
        if len(tokens) != len(cards) or any(name_field(token) != field for token in tokens):
            return None
        return proof if classes_told_apart([token.name for token in tokens]) else None
    if named is not None or any(type(card) is Token for card in cards):
        return None
    return proof if classes_told_apart(list(cards)) else None


def _annotate(err: Exception, depth: int, card: Any) -> None:
    """Say where evaluation was when the spec raised ``err`` (as exception notes)."""
    where = f"after draw {depth} (card {card!r})" if depth else "before the first draw"
    add_note(err, f"drawdsl: raised while evaluating the spec {where}")
    if depth and isinstance(err, (AttributeError, TypeError)) and not isinstance(err, DrawdslError):
        add_note(
            err,
            f"drawdsl: the source holds cards like {card!r} ({type(card).__name__}); if the "
            "spec expects another card type, map the source (deck.map(...)) or fix the spec",
        )


class _Layout:
    """Where the pinned and the free cards of a representative deck are (see
    :func:`_canonical`), for one set of pinned card indices; shared by the heads that
    pin the same cards.  ``free`` is ``None`` when every card is free."""

    __slots__ = ("pinned", "pinned_set", "free", "free_cards", "offset", "free_counts")

    def __init__(self, pinned: tuple[int, ...], size: int) -> None:
        self.pinned = pinned
        self.pinned_set = frozenset(pinned)
        self.free_cards = tuple(i for i in range(size) if i not in self.pinned_set)
        self.free = self.free_cards if pinned else None
        # The pinned cards are the first ``offset`` ones (-1: they are not).
        self.offset = len(pinned) if pinned == tuple(range(len(pinned))) else -1
        # counts -> the free counts, in C (an itemgetter of one index returns a bare item).
        self.free_counts: Callable[[tuple[int, ...]], Sequence[int]] | None = (
            itemgetter(*self.free_cards) if self.offset < 0 and len(self.free_cards) > 1 else None
        )


class _Head:
    """A draw at the head of some frontier states: ``symmetric`` says whether its decks
    are kept as representatives (:func:`_canonical`) of its ``layout``."""

    __slots__ = ("draw", "symmetric", "layout")

    def __init__(self, draw: _Draw[Any], symmetric: bool, layout: _Layout) -> None:
        self.draw = draw
        self.symmetric = symmetric
        self.layout = layout


class _Child:
    """How the deck of a child is built from its parent's in the cases without a fast
    path: drawn as the first free card (``shift_over``: the parent's free cards, see
    :func:`_free_draw`) or as itself, then made a representative when ``canonical``."""

    __slots__ = ("shift_over", "canonical", "free")

    def __init__(
        self, shift_over: tuple[int, ...] | None, canonical: bool, free: tuple[int, ...] | None
    ) -> None:
        self.shift_over = shift_over
        self.canonical = canonical
        self.free = free

    def __call__(self, counts: tuple[int, ...], position: int) -> tuple[int, ...]:
        if self.shift_over is not None:
            deck = _free_draw(counts, self.shift_over, position)
        else:
            deck = counts[:position] + (counts[position] - 1,) + counts[position + 1:]
        return _canonical(deck, self.free) if self.canonical else deck


# How a transition builds the child's deck from the parent's (``position``: the card
# removed, or where the drawn class starts): remove it (_RAW); draw it as the first
# free card of a representative whose pinned cards come first (_SHIFT, see _free_draw
# and the offset of _class_moves); remove it and sort the
# counts (_SORT, the child's cards are all free); any other case (_OTHER, a _Child).
# Or the path finishes (_DONE) or fails (_FAILS).
_RAW, _SHIFT, _SORT, _OTHER, _DONE, _FAILS, _REST = 0, 1, 2, 3, 4, 5, 6


def _deck_rule(parent: _Head, drawn: int, target: _Head) -> tuple[int, _Child | int | None]:
    """How the child's deck is built when ``parent`` draws card ``drawn`` and goes on with
    ``target``: one of the rules above, with its _Child for _OTHER and the parent's
    offset for _SHIFT.

    A representative child needs no sorting when the parent's free counts stay in
    order: a pinned card drawn from a parent whose pinned cards the child keeps
    pinned, or a free class drawn into a child that pins the drawn card too.  The
    renamed deck of a free draw has a fast path (_SHIFT, with the parent's offset)
    when the parent's pinned cards come first.
    """
    free_draw = parent.symmetric and drawn not in parent.layout.pinned_set
    shift_over = parent.layout.free_cards
    if not target.symmetric:
        if not free_draw:
            return _RAW, None
        if parent.layout.offset >= 0:
            return _SHIFT, parent.layout.offset
        return _OTHER, _Child(shift_over, False, None)
    if target.layout.free is None:
        return _SORT, None  # every card of the child is free: the layout does not matter
    if free_draw:
        if target.layout.pinned_set == parent.layout.pinned_set | {drawn}:
            if parent.layout.offset >= 0:
                return _SHIFT, parent.layout.offset
            return _OTHER, _Child(shift_over, False, None)
        if not target.layout.pinned_set & set(shift_over):
            return _OTHER, _Child(None, True, target.layout.free)  # the renamed cards get sorted anyway
        return _OTHER, _Child(shift_over, True, target.layout.free)
    if parent.symmetric and parent.layout.pinned_set <= target.layout.pinned_set:
        return _RAW, None
    return _OTHER, _Child(None, True, target.layout.free)


#: Up to how many distinct cards a non-symmetric draw goes card by card over the decks
#: that share a spec (a pass per card); with more, most decks lack most cards, and going
#: deck by deck over the cards each holds is faster (measured: 2 cards 1.4x faster card
#: by card, 4 the same, 13 and 52 up to 1.3x slower).
_CARD_MAJOR = 4


def _evaluate_deck(
    spec: Spec[Any],
    deck: Cards[Any],
    max_states: int,
    max_draws: int,
    symmetric: bool,
    report: Callable[[int, int], None] | None,
    members: Sequence[tuple[Any, ...] | None] | None = None,
    escalate_at: int | None = None,
    trace: list[tuple[int, int, int]] | None = None,
    distinct: int | None = None,
    on_escalate: Callable[[tuple[Any, ...] | None], tuple[int | None, bool]] | None = None,
    traced: bool = False,
    alike: frozenset[tuple[Any, ...]] = frozenset(),
) -> Distribution[Any]:
    """Depth-by-depth evaluation over a finite deck, merging equal states.

    The frontier is grouped by head: ``(head id, pending discards) -> {deck counts:
    numerator}``.  Within a depth, what drawing card ``i`` does to a group (the
    continuation, its normal form, the group the child joins) does not depend on the
    deck, so it is worked out once per group and card (a *transition*); the inner
    loop only builds the child's counts and adds integers.

    In symmetric mode (only once :func:`~drawdsl.reductions.prove_symmetry` has shown
    it valid for this spec) the counts of a head's states are a representative
    (:func:`_canonical`), the pinned cards being those the head visibly holds, and
    every class of free cards is drawn as the first free card (:func:`_class_moves`):
    a group asks its continuation once for all classes.

    ``members[i]``, when given, lists the cards that card ``i`` stands for (a lumped
    class): every transition checks that they all lead where card ``i`` leads, and
    raises :class:`_Split` when they do not.  Past ``escalate_at`` live states at one
    depth, ``on_escalate()`` tries to prove the reductions: it raises :class:`_Escalate`
    when they changed (the evaluation starts again), else says the next threshold
    (None: no more tries) and whether the classes still need checking, and the
    evaluation goes on where it was (without ``on_escalate``, :class:`_Escalate` is
    raised at once).
    ``trace`` collects ``(draw, live states, distinct specs)`` per draw; ``distinct``
    is the number of distinct cards before lumping (for error messages).  ``traced``:
    the symmetry is checked at every transition by a traced run (see
    :func:`~drawdsl.shapes.evaluate_shapes`).  ``alike`` holds ``(generator function,
    arguments' key, suspension, cards)`` for sets of cards that generator's views at that
    suspension answer alike (see :func:`_first_views`).
    """
    cards = deck.distinct()
    size = len(cards)
    card_index = CardIndex(cards)
    tracer = Tracer(cards) if traced and symmetric else None
    n = len(deck)
    heads: list[_Head] = []
    head_ids: dict[_Draw[Any], int] = {}
    all_free = _Layout((), size)
    layouts: dict[tuple[int, ...], _Layout] = {(): all_free}
    outcomes = _Outcomes()
    Group = dict[tuple[int, ...], int]
    frontier: dict[tuple[int, int], Group] = {}

    def intern(head: _Draw[Any], into_heads: list[_Head], into_ids: dict[_Draw[Any], int]) -> int:
        """The id of ``head`` among the next depth's heads (added when new)."""
        hid = into_ids.get(head)
        if hid is None:
            layout = all_free
            if symmetric:
                pinned = tuple(sorted(head_support(head, card_index)))
                found = layouts.get(pinned)
                if found is None:
                    found = layouts[pinned] = _Layout(pinned, size)
                layout = found
            hid = into_ids[head] = len(into_heads)
            into_heads.append(_Head(head, symmetric, layout))
        return hid

    def transition(
        parent: _Head, anys: int, drawn: int, avail: int,
        new: dict[tuple[int, int], Group], new_heads: list[_Head], new_ids: dict[_Draw[Any], int],
    ) -> tuple[Group | None, int, Any]:
        """What drawing card ``drawn`` does from the states of ``parent`` with ``anys``
        pending discards (``avail`` cards available): ``(group joined, rule, extra)``,
        extra being the rule's _Child, or the value for _DONE."""
        k = parent.draw.k
        current[0] = cards[drawn]
        card = show(cards[drawn])
        child, extra = normal(_spec_or_raise(k(card), k, "the continuation"), avail)
        if members is not None and members[drawn] is not None:
            _check_members(parent.draw, drawn, members[drawn], child, extra, avail)  # type: ignore[arg-type]
        if tracer is not None:
            tracer.verify(parent.draw, drawn, child, extra, avail, card)
        latest[0] = (parent.draw, drawn, child, extra, avail, card)
        t = type(child)
        if t is _Draw:
            if reads_rest(child):
                # READ_REST: the path reads its avail - extra cards left and fails.
                return None, _REST, avail - extra
            cid = intern(child, new_heads, new_ids)  # type: ignore[arg-type]
            if symmetric:
                rule, how = _deck_rule(parent, drawn, new_heads[cid])
            else:
                rule, how = _RAW, None
            into = new.get((cid, anys + extra))
            if into is None:
                into = new[cid, anys + extra] = {}
            return into, rule, how
        if t is _Done:
            return None, _DONE, child.value  # type: ignore[attr-defined]
        return None, _FAILS, None

    # What is known to hold whatever the deck: (loop head, class) pairs whose cards
    # all lead to the same state, and (step, class) pairs whose cards a combinator's
    # step sees alike (its predicate gives them strictly equal values).
    agreed: set[tuple[Any, int]] = set()

    def _check_members(
        head: _Draw[Any], drawn: int, group: tuple[Any, ...], child: Spec[Any], extra: int, avail: int
    ) -> None:
        """Check that every card of the lumped class ``group`` continues like its first."""
        k = head.k
        if type(k) is _LoopK:
            step = k.step
            sees = step.sees() if type(step) in STEP_TYPES else None  # type: ignore[attr-defined]
            if sees is not None:
                if (step, drawn) in agreed:
                    return
                if _views_agree(sees, group, current):
                    agreed.add((step, drawn))
                    return
            if (head, drawn) in agreed:
                return
            if _loop_members_agree(k, group, current):
                agreed.add((head, drawn))
                return
        elif type(k) is _ContK and k.k is _DRAW.k and type(k.frames.f) is _Resume:  # type: ignore[attr-defined]
            # ``card = yield draw()`` in a generator (whatever encloses it, which only
            # sees what the generator does): when its only views of the card agree
            # (drawdsl.sent_views), every card of the class resumes it alike.
            resume = k.frames.f
            gen = resume.gen_spec
            if resume.where is not None:
                # Kept per function and suspension when the generator's arguments are
                # plain values (equal means alike); other arguments are checked each time.
                known: Any = None
                base = _views_key(gen, resume.where)
                if base is not None:
                    known = (*base, drawn)
                    if known in agreed:
                        return
                    if (*base, frozenset(group)) in alike:
                        agreed.add(known)  # these cards answered alike before the run
                        return
                groups = view_groups(gen.func, gen.args, gen.kwargs, resume.where, group)
                if groups is not None and len(groups) == 1:
                    if known is not None:
                        agreed.add(known)
                    return
                if groups is not None:
                    raise _Split(groups)  # the cards' answers differ: the class splits along them
        _check_class(k, group, child, extra, avail, current)

    limit = max_states if escalate_at is None else min(max_states, escalate_at)

    def over(live: int, depth: int) -> int:
        """Past the limit: try the proofs (and go on under the new limit it returns), or stop."""
        nonlocal escalate_at, members
        while escalate_at is not None:
            if on_escalate is None:
                raise _Escalate
            escalate_at, checks = on_escalate(latest[0])  # raises _Escalate when the reductions changed
            if not checks:
                members = None
            limit = max_states if escalate_at is None else min(max_states, escalate_at)
            if live <= limit:
                return limit
        why = _diagnosis(live, new_heads, size, distinct or size, symmetric)
        _too_many(live, depth, max_states, why)

    depth = 0
    drawn = -1
    current: list[Any] = [None]  # the card whose continuation is being asked
    # The last transition made: (head, card index, child, discards, cards left, card shown).
    latest: list[tuple[Any, ...] | None] = [None]
    try:
        end, fails = outcomes.at(0)
        first, anys = normal(spec, n)
        if type(first) is _Draw:
            hid = intern(first, heads, head_ids)  # type: ignore[arg-type]
            counts = tuple(deck.count(c) for c in cards)
            if heads[hid].symmetric:
                counts = _canonical(counts, heads[hid].layout.free)
            frontier[hid, anys] = {counts: 1}
        elif type(first) is _Done:
            _record(first.value, 1, end)  # type: ignore[attr-defined]
        else:
            fails[0] += 1
        while frontier:
            if depth >= max_draws:
                raise still_drawing(max_draws, sum(map(len, frontier.values())))
            depth += 1
            end, fails = outcomes.at(depth)
            left = n - depth
            new: dict[tuple[int, int], Group] = {}
            new_heads: list[_Head] = []
            new_ids: dict[_Draw[Any], int] = {}
            live = 0
            failed = 0
            for (hid, anys), group in frontier.items():
                parent = heads[hid]
                sym = parent.symmetric
                layout = parent.layout
                pinned = layout.pinned
                free = layout.free_cards
                offset = layout.offset
                free_counts = layout.free_counts
                row: list[tuple[Group | None, int, Any] | None] = [None] * size
                if not sym and size <= _CARD_MAJOR:
                    # Card by card over the group's decks: one transition per card, and
                    # the paths that end are added up before they are recorded.
                    items = group.items()
                    for drawn in range(size):
                        if not any(counts[drawn] for counts in group):
                            continue  # no deck of this group holds the card
                        into, rule, how = row[drawn] = transition(
                            parent, anys, drawn, left - anys, new, new_heads, new_ids
                        )
                        if into is None:  # every path drawing it ends here
                            total = sum([weight * counts[drawn] for counts, weight in items])
                            if rule == 4:  # _DONE
                                _record(how, total, end)
                            elif rule == 5:  # _FAILS
                                failed += total
                            else:  # _REST: it fails after reading `how` more cards
                                outcomes.at(depth + how)[1][depth + how] += total * math.perm(left, how)
                            continue
                        get = into.get
                        after = drawn + 1
                        # Two kinds of card (colours, a card or not): the child's counts
                        # built at once, not sliced and joined (3 tuples fewer a path).
                        pair = size == 2
                        for counts, weight in items:
                            multiplier = counts[drawn]
                            if multiplier:
                                if not pair:
                                    c = counts[:drawn] + (multiplier - 1,) + counts[after:]
                                elif drawn:
                                    c = (counts[0], multiplier - 1)
                                else:
                                    c = (multiplier - 1, counts[1])
                                old = get(c)
                                if old is None:
                                    live += 1
                                    if live > limit:
                                        limit = over(live, depth)
                                    into[c] = weight * multiplier
                                else:
                                    into[c] = old + weight * multiplier
                    continue
                for counts, weight in group.items():
                    if sym and offset >= 0:
                        # The fast path: the free classes all read card `offset` and go
                        # where its transition says; pinned cards take the loop below.
                        moves = [(p, counts[p], p) for p in pinned if counts[p]] if pinned else []
                        j = bisect_right(counts, 0, offset)  # the first free card left
                        if j < size:
                            drawn = offset
                            move = row[drawn]
                            if move is None:
                                move = row[drawn] = transition(
                                    parent, anys, drawn, left - anys, new, new_heads, new_ids
                                )
                            into, rule, how = move
                            if into is None or rule == _OTHER:
                                moves += _class_moves(counts, (), offset, free)
                            else:
                                while j < size:
                                    count = counts[j]
                                    after = bisect_right(counts, count, j)
                                    if rule == 2:  # _SORT
                                        rest = list(counts)
                                        rest[j] -= 1
                                        rest.sort()
                                        c = tuple(rest)
                                    else:  # _SHIFT (how: the offset), see _free_draw
                                        c = counts[:how] + (count - 1,) + counts[how:j] + counts[j + 1:]
                                    old = into.get(c)
                                    if old is None:
                                        live += 1
                                        if live > limit:
                                            limit = over(live, depth)
                                        into[c] = weight * count * (after - j)
                                    else:
                                        into[c] = old + weight * count * (after - j)
                                    j = after
                    elif sym:
                        moves = _class_moves(counts, pinned, offset, free, free_counts)
                    else:
                        moves = [(i, count, i) for i, count in enumerate(counts) if count]
                    for drawn, multiplier, at in moves:
                        move = row[drawn]
                        if move is None:
                            move = row[drawn] = transition(
                                parent, anys, drawn, left - anys, new, new_heads, new_ids
                            )
                        into, rule, how = move
                        if into is None:  # the path ends here
                            if rule == 4:  # _DONE
                                _record(how, weight * multiplier, end)
                            elif rule == 5:  # _FAILS
                                failed += weight * multiplier
                            else:  # _REST: it fails after reading `how` more cards
                                outcomes.at(depth + how)[1][depth + how] += \
                                    weight * multiplier * math.perm(left, how)
                            continue
                        if rule == 0:  # _RAW (a free draw's _SHIFT only happens above)
                            c = counts[:at] + (counts[at] - 1,) + counts[at + 1:]
                        elif rule == 2:  # _SORT
                            rest = list(counts)
                            rest[at] -= 1
                            rest.sort()
                            c = tuple(rest)
                        else:  # _OTHER
                            c = how(counts, at)
                        old = into.get(c)
                        if old is None:
                            live += 1
                            if live > limit:
                                limit = over(live, depth)
                            into[c] = weight * multiplier
                        else:
                            into[c] = old + weight * multiplier
            fails[depth] += failed
            if report is not None:
                report(depth, live)
            if trace is not None:
                trace.append((depth, live, len(new_heads)))
            if not symmetric and escalate_at is None and live >= 256 and live * 64 > max_states \
                    and depth < max_draws:
                why = functools.partial(_diagnosis, live, new_heads, size, distinct or size, symmetric)
                _refuse_early(new, new_heads, cards, n - depth, live, depth, max_states, why)
            frontier = new
            heads = new_heads
            head_ids = new_ids
    except (StateLimitExceeded, EndlessProcess, _Restart, Untraced):
        raise
    except Exception as err:
        _annotate(err, depth, current[0] if drawn >= 0 else None)
        raise
    return outcomes.over_deck(n, depth)


def _evaluate_general(
    spec: Spec[Any],
    deck: Cards[Any] | None,
    weighted: Weighted[Any] | None,
    merge: bool,
    max_states: int,
    max_draws: int,
    report: Callable[[int, int], None] | None = None,
) -> Distribution[Any]:
    """Depth-by-depth evaluation, one frontier entry per state: weighted sources (with
    cycle detection) and ``merge=False``."""
    if deck is not None:
        cards = deck.distinct()
        start: tuple[int, ...] = tuple(deck.count(c) for c in cards)
        n = len(deck)
        weights: tuple[int, ...] = ()
    else:
        assert weighted is not None
        cards = weighted.distinct()
        weights = tuple(weighted.weight(c) for c in cards)
        start = ()
        n = 0
    finite = deck is not None
    seen: set[Spec[Any]] = set()  # every state so far (weighted sources: to find cycles)
    outcomes = _Outcomes()
    # The frontier: key -> numerator (merging), or a list of (key, numerator).
    frontier: dict[tuple[Any, ...], int] | list[tuple[tuple[Any, ...], int]]
    frontier = {} if merge else []

    def settle(child: Spec[Any], counts: tuple[int, ...], drawn: int, left: float, anys: int,
               weight: int, into: Any, end: dict[Any, list[Any]], fails: list[int], depth: int) -> None:
        """Route one child: to the outcomes, the failures, or the next frontier.

        ``counts`` is the parent's deck and ``drawn`` the index of the card just drawn
        from it (-1: none); the child's deck is only built when it is needed.
        """
        avail = left - anys
        head = whnf(child, avail)
        while type(head) is _Any:
            anys += 1
            avail -= 1
            head = whnf(head.next, avail)  # type: ignore[attr-defined]
        t = type(head)
        if t is _Draw:
            if drawn >= 0:
                counts = counts[:drawn] + (counts[drawn] - 1,) + counts[drawn + 1:]
            key = (counts, anys if finite else 0, head)
            if merge:
                old = into.get(key)
                if old is None:
                    if len(into) >= max_states:
                        _too_many(len(into) + 1, depth, max_states)
                    into[key] = weight
                else:
                    into[key] = old + weight
            else:
                if len(into) >= max_states:
                    _too_many(len(into) + 1, depth, max_states)
                into.append((key, weight))
        elif t is _Done:
            _record(head.value, weight, end)  # type: ignore[attr-defined]
        else:
            fails[depth] += weight

    depth = 0
    card: Any = None
    try:
        end, fails = outcomes.at(0)
        settle(spec, start, -1, n if deck is not None else _INF, 0, 1, frontier, end, fails, 0)
        while frontier:
            if depth >= max_draws:
                why = (
                    "pass a larger max_draws, or make sure the process ends (a spec that can draw "
                    "forever has no finite exact evaluation here)"
                )
                if not finite:
                    why = (
                        "no state ever came back, so the process cannot be solved as a cycle: its "
                        "state changes at every draw (a counter of draws, or the draws themselves, "
                        "in a loop state or a generator's variables).  Keep only what decides "
                        "the outcome: the number of draws is the distribution's expected_draws, and "
                        "'flip until HH' needs only the last flip; or pass a larger max_draws"
                    )
                raise StateLimitExceeded(
                    f"the spec is still drawing after max_draws={max_draws} draws "
                    f"({len(frontier)} live states); {why}"
                )
            depth += 1
            end, fails = outcomes.at(depth)
            new: Any = {} if merge else []
            entries = frontier.items() if merge else frontier  # type: ignore[union-attr]
            if deck is not None:
                left = n - depth
                for key, weight in entries:
                    counts, anys, head = key
                    k = head.k
                    for i, count in enumerate(counts):
                        if count:
                            card = cards[i]
                            child = _spec_or_raise(k(card), k, "the continuation")
                            settle(child, counts, i, left, anys, weight * count, new, end, fails, depth)
            else:
                for (counts, _, head), weight in entries:
                    k = head.k
                    for i, w in enumerate(weights):
                        card = cards[i]
                        child = _spec_or_raise(k(card), k, "the continuation")
                        settle(child, counts, -1, _INF, 0, weight * w, new, end, fails, depth)
            if not finite:
                # Without merging the frontier is a list of (key, weight) pairs.
                keys = new if merge else [key for key, _ in new]
                if any(key[2] in seen for key in keys):
                    # A state came back: the process is cyclic; solve its chain instead.
                    return solve_chain(spec, weighted, max_states, report)  # type: ignore[arg-type]
                seen.update(key[2] for key in keys)
            if report is not None:
                report(depth, len(new))
            frontier = new
    except (StateLimitExceeded, EndlessProcess):
        raise
    except Exception as err:
        _annotate(err, depth, card)
        raise
    if deck is not None:
        denominators = [math.perm(n, d) for d in range(depth + 1)]
    else:
        total = weighted.total  # type: ignore[union-attr]
        denominators = [total**d for d in range(depth + 1)]
    # Trailing depths may hold nothing; the deepest recorded depth sets the denominator.
    outcomes.at(depth)
    return outcomes.distribution(denominators)
