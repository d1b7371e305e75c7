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

>>> from drawdsl import Cards, chances, draw_count
>>> chances(draw_count(lambda c: c == "A", 2), Cards({"A": 4, "x": 48}))
Distribution({0: 188/221, 1: 32/221, 2: 1/221})
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable, Hashable
from fractions import Fraction
from typing import Any, NoReturn, TypeVar

from drawdsl.cards import Cards
from drawdsl.cyclic import solve_chain
from drawdsl.distribution import Distribution
from drawdsl.errors import DrawdslError, EndlessProcess, InvalidArgument, StateLimitExceeded, add_note
from drawdsl.sources import Weighted
from drawdsl.spec import Spec, _Any, _Done, _Draw, _spec_or_raise, whnf

__all__ = ["chances", "chance", "DEFAULT_MAX_STATES", "DEFAULT_MAX_DRAWS"]

V = TypeVar("V", bound=Hashable)

#: Live states allowed at one depth before evaluation stops with StateLimitExceeded.
DEFAULT_MAX_STATES = 5_000_000
#: Draws allowed from a weighted (never-ending) source before evaluation stops.
DEFAULT_MAX_DRAWS = 10_000

_INF = math.inf


def _check_limit(name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an int, got {value!r} ({type(value).__name__})")
    if value <= 0:
        raise InvalidArgument(f"{name} must be a positive int, got {value}")
    return value


class _Outcomes:
    """Integer numerators of finished paths, per depth."""

    __slots__ = ("ends", "fails")

    def __init__(self) -> None:
        self.ends: list[dict[Any, int]] = []
        self.fails: list[int] = []

    def at(self, depth: int) -> tuple[dict[Any, int], list[int]]:
        while len(self.ends) <= depth:
            self.ends.append({})
            self.fails.append(0)
        return self.ends[depth], self.fails

    def distribution(self, denominator_at: list[int]) -> Distribution[Any]:
        """Put every depth over the deepest depth's denominator: one division per outcome."""
        top = len(self.ends) - 1
        big = denominator_at[top]
        scale = [big // denominator_at[d] for d in range(top + 1)]
        totals: dict[Any, int] = {}
        for d, end in enumerate(self.ends):
            s = scale[d]
            for value, num in end.items():
                totals[value] = totals.get(value, 0) + num * s
        failed = sum(num * scale[d] for d, num in enumerate(self.fails))
        if sum(totals.values()) + failed != big:  # pragma: no cover - an evaluator bug
            raise AssertionError("internal error: exact probabilities do not sum to 1")
        draws = sum(
            d * scale[d] * (sum(end.values()) + self.fails[d]) for d, end in enumerate(self.ends)
        )
        probs = {v: Fraction(num, big) for v, num in totals.items() if num}
        return Distribution._trusted(probs, Fraction(failed, big), Fraction(draws, big))


def _record(value: Any, weight: int, end: dict[Any, int]) -> None:
    try:
        end[value] = end.get(value, 0) + weight
    except TypeError:
        raise TypeError(
            f"the spec finished with {value!r} ({type(value).__name__}), which is not "
            "hashable; finish with a hashable value (a tuple instead of a list, a "
            "frozenset instead of a set)"
        ) from None


def chances(
    spec: Spec[V],
    source: Cards[Any] | Weighted[Any],
    *,
    merge: bool = True,
    symmetric: bool = False,
    max_states: int = DEFAULT_MAX_STATES,
    max_draws: int | None = None,
    progress: bool | Callable[[int, int], None] = False,
) -> Distribution[V]:
    """The exact distribution of the values ``spec`` finishes with when drawing from ``source``.

    ``source`` is a :class:`~drawdsl.Cards` deck (drawn without replacement) or a
    :class:`~drawdsl.Weighted` source (with replacement).  ``merge=False`` turns off
    the merging of equal states (same answer, slower; for testing).

    ``symmetric=True`` (opt-in) treats cards with equal remaining counts as
    interchangeable at the heads of :func:`~drawdsl.loop` specs: only one card per
    class is expanded, weighted by the class size, and decks that differ only by a
    renaming of cards merge.  It is valid when the spec compares cards only with
    each other for equality (never with ``<``, never with a named card such as
    ``card == "A"``), does not finish with a card, and remembers cards only in loop
    states (any value in a loop state equal to a card keeps that card apart).  It
    has no effect on weighted sources.

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
        return _evaluate(spec, source, None, merge, max_states, limit, symmetric, report)
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


def _pinned(state: object, index: dict[Any, int]) -> set[int]:
    """Indices of the cards that occur anywhere in a loop state (tuples, sets, dicts walked)."""
    found: set[int] = set()
    stack = [state]
    while stack:
        x = stack.pop()
        i = index.get(x)
        if i is not None:
            found.add(i)
        elif isinstance(x, (tuple, list, frozenset, set)):
            stack.extend(x)
        elif isinstance(x, dict):
            stack.extend(x.keys())
            stack.extend(x.values())
    return found


def _canonical(counts: tuple[int, ...], pinned: tuple[int, ...]) -> tuple[Any, ...]:
    """The deck up to a renaming of its unpinned cards: pinned counts, then sorted counts."""
    if not pinned:
        return ("sym", (), tuple(sorted(counts)))
    return (
        "sym",
        tuple(counts[i] for i in pinned),
        tuple(sorted(c for i, c in enumerate(counts) if i not in pinned)),
    )


def _symmetric_moves(counts: tuple[int, ...], pinned: tuple[int, ...]) -> list[tuple[int, int]]:
    """The draws to expand: pinned cards one by one, and one representative per class of
    unpinned cards with equal counts, weighted by the class size."""
    classes: dict[int, list[int]] = {}
    for i, count in enumerate(counts):
        if count and i not in pinned:
            classes.setdefault(count, []).append(i)
    moves = [(i, counts[i]) for i in pinned if counts[i]]
    moves.extend((members[0], count * len(members)) for count, members in classes.items())
    return moves


def _too_many(states: int, depth: int, max_states: int) -> NoReturn:
    raise StateLimitExceeded(
        f"exact evaluation reached {states} live states at draw {depth}, over "
        f"max_states={max_states}; map the deck to the aspect the spec looks at "
        "(deck.map(...)), write long processes with loop() so that paths merge, "
        "or pass a larger max_states"
    )


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
) -> Distribution[Any]:
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
    symmetric = symmetric and finite and merge
    seen: set[Spec[Any]] = set()  # every state so far (weighted sources: to find cycles)
    index = {card: i for i, card in enumerate(cards)}
    # A symmetric entry's key holds a canonical deck; its representative deck and the
    # draws to expand live here.
    plans: dict[tuple[Any, ...], tuple[tuple[int, ...], tuple[int, ...]]] = {}
    pinned_by_state: dict[Any, tuple[int, ...]] = {}
    outcomes = _Outcomes()
    # The frontier: key -> numerator (merging), or a list of (key, numerator).
    frontier: dict[tuple[Any, ...], int] | list[tuple[tuple[Any, ...], int]]
    frontier = {} if merge else []

    def settle(child: Spec[Any], counts: tuple[int, ...], drawn: int, left: float, anys: int,
               weight: int, into: Any, end: dict[Any, int], fails: list[int], depth: int) -> None:
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
            if symmetric and type(head.key) is tuple and head.key[0] == "loop":  # type: ignore[attr-defined]
                state = head.key[1].state  # type: ignore[attr-defined]
                pinned = pinned_by_state.get(state)
                if pinned is None:
                    pinned = pinned_by_state[state] = tuple(sorted(_pinned(state, index)))
                key = (_canonical(counts, pinned), anys, head)
                if key not in plans:
                    plans[key] = (counts, pinned)
            else:
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
                raise StateLimitExceeded(
                    f"the spec is still drawing after max_draws={max_draws} draws "
                    f"({len(frontier)} live states); pass a larger max_draws, or make sure the "
                    "process ends (a spec that can draw forever has no finite exact evaluation here)"
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
                    if type(counts[0]) is str:  # a canonical (symmetric) deck
                        counts, pinned = plans[key]
                        moves = _symmetric_moves(counts, pinned)
                    else:
                        moves = [(i, count) for i, count in enumerate(counts) if count]
                    for i, multiplier in moves:
                        card = cards[i]
                        child = _spec_or_raise(k(card), k, "the continuation")
                        settle(child, counts, i, left, anys, weight * multiplier, new, end, fails, depth)
            else:
                for (counts, _, head), weight in entries:
                    k = head.k
                    for i, w in enumerate(weights):
                        card = cards[i]
                        child = _spec_or_raise(k(card), k, "the continuation")
                        settle(child, counts, -1, _INF, 0, weight * w, new, end, fails, depth)
            if not finite:
                if any(key[2] in seen for key in new):
                    # A state came back: the process is cyclic; solve its chain instead.
                    return solve_chain(spec, weighted, max_states, report)  # type: ignore[arg-type]
                seen.update(key[2] for key in new)
            if report is not None:
                report(depth, len(new))
            frontier = new
            plans = {key: plan for key, plan in plans.items() if key in new} if symmetric else plans
    except (StateLimitExceeded, EndlessProcess):
        raise
    except Exception as err:
        where = f"after draw {depth} (card {card!r})" if depth else "before the first draw"
        add_note(err, f"drawdsl: raised while evaluating the spec {where}")
        if depth and isinstance(err, (AttributeError, TypeError)) and not isinstance(err, DrawdslError):
            add_note(
                err,
                f"drawdsl: the source holds cards like {card!r} ({type(card).__name__}); if the "
                "spec expects another card type, map the source (deck.map(...)) or fix the spec",
            )
        raise
    if deck is not None:
        denominators = [math.perm(n, d) for d in range(depth + 1)]
    else:
        total = weighted.total  # type: ignore[union-attr]
        denominators = [total**d for d in range(depth + 1)]
    # Trailing depths may hold nothing; the deepest recorded depth sets the denominator.
    outcomes.at(depth)
    return outcomes.distribution(denominators)
