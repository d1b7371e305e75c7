"""Explain an exact evaluation: which reductions it found, how many states it kept, and why.

>>> from drawdsl import draw_count, standard_deck
>>> report = explain(draw_count(lambda card: card.rank == 13, 3), standard_deck())
>>> len(report.classes), report.peak
(2, 3)
>>> report.distribution.success
Fraction(1, 1)
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from drawdsl.cards import Cards
from drawdsl.distribution import Distribution
from drawdsl.errors import StateLimitExceeded
from drawdsl.exact import DEFAULT_MAX_STATES, _annotate, _check_limit, _evaluate_probed, _Log
from drawdsl.order_blind import why_ordered
from drawdsl.probes import Token
from drawdsl.score_vectors import ScoresTooSpread, evaluate_scored
from drawdsl.scoring import _Scored
from drawdsl.spec import Spec, generator_functions

__all__ = ["Explanation", "explain"]

V = TypeVar("V", bound=Hashable)

#: Classes listed by name in the text of an explanation; the rest are counted.
_SHOWN = 6

#: Why a scoring loop's route does not merge renamed decks, and what it does instead.
SCORED_NOTE = (
    "not tried: a scoring loop keeps every total of a state in one integer per (deck left, state), "
    "drawing the cards its step moves alike as one kind"
)
#: What a pot adds to the scoring route.
POT_NOTE = " (one per multiplier of its pot: the totals if a taker of that multiplier took it now)"


@dataclass(frozen=True)
class Explanation(Generic[V]):
    """What :func:`explain` found.

    ``shown``: the card fields the spec was shown (it used no other; cards that agree on
    them are drawn as one), or None when it was shown the real cards; ``classes``: the
    cards drawn as one (each tuple is a class the spec cannot tell apart); ``symmetric``:
    whether decks were merged up to renamings;
    ``symmetry_note``: why not, when the proof failed; ``states``: per draw, the live
    states and how many of them are different specs; ``restarts``: how often the
    evaluation started again with better reductions; ``distribution``: the answer,
    or None with ``error`` when a limit stopped it.
    """

    cards: int
    distinct: int
    shown: tuple[str, ...] | None
    classes: tuple[tuple[Any, ...], ...]
    symmetric: bool
    symmetry_note: str | None
    states: tuple[tuple[int, int], ...]
    restarts: int
    distribution: Distribution[V] | None
    error: str | None
    #: What kept states apart that the spec could change, in its own terms (a
    #: generator's dict kept in insertion order, and the line that reads it so).
    notes: tuple[str, ...] = ()

    @property
    def peak(self) -> int:
        """The most live states at any one draw."""
        return max((live for live, _ in self.states), default=0)

    def __str__(self) -> str:
        lines = [f"{self.cards} cards, {self.distinct} distinct"]
        if self.shown is not None:
            fields = ", ".join(self.shown) if self.shown else "no field"
            lines.append(f"read: {fields} (the spec used no other field of a card)")
        if len(self.classes) < self.distinct:
            shown = [
                "{" + ", ".join(map(repr, c[:4])) + (", ..." if len(c) > 4 else "") + "}"
                for c in self.classes[:_SHOWN] if len(c) > 1
            ]
            more = f" and {len(self.classes) - _SHOWN} more" if len(self.classes) > _SHOWN else ""
            lines.append(
                f"lumped: the spec tells only {len(self.classes)} kinds of card apart: "
                + "; ".join(shown) + more
            )
        else:
            lines.append("lumped: none (the spec tells every distinct card apart)")
        if self.symmetric:
            lines.append("symmetric: yes, proven (decks that differ by a renaming of cards merge)")
        else:
            lines.append(f"symmetric: no ({self.symmetry_note or 'not proven'})")
        if self.states:
            draw, (live, specs) = max(enumerate(self.states, 1), key=lambda item: item[1][0])
            lines.append(
                f"states: {len(self.states)} draws, at most {live:,} live states (at draw {draw}, "
                f"{specs:,} different specs)"
            )
            lines.append("  per draw: " + " ".join(f"{live:,}" for live, _ in self.states))
            last = max((i for i, (live, _) in enumerate(self.states) if live), default=-1)
            if any(not live for live, _ in self.states[:last]):
                # (a frontier never empties and then fills again, but over a pair)
                lines.append(
                    "  (a 0 before more states: the first card of a pair of free draws, taken "
                    "with the next as one; its states are not kept)"
                )
        lines.append(f"restarts: {self.restarts}")
        lines.extend(f"kept apart: {note}" for note in self.notes)
        if self.error is not None:
            lines.append(f"stopped: {self.error}")
        return "\n".join(lines)


def explain(
    spec: Spec[V],
    source: Cards[Any],
    *,
    lump: bool = True,
    symmetric: bool = True,
    probe: bool = True,
    max_states: int = DEFAULT_MAX_STATES,
) -> Explanation[V]:
    """Evaluate ``spec`` on a deck exactly and say how: the reductions and the states.

    Unlike :func:`~drawdsl.chances`, which tries to prove its reductions only when a
    frontier grows past a few hundred states, ``explain`` proves them at once, so its
    report always says whether the symmetry holds.  The answer is the same.

    >>> from drawdsl import Cards, done, draw_count, fail, loop
    >>> def no_pair(last, card):
    ...     return fail() if card == last else (done(True) if last is not None else card)
    >>> explain(loop(None, no_pair), Cards("aabbcc")).symmetric
    True
    >>> print(explain(draw_count(lambda c: c == "a", 2), Cards("aabbcc")))
    6 cards, 3 distinct
    lumped: the spec tells only 2 kinds of card apart: {'b', 'c'}
    symmetric: no (drawing 'b' instead of 'a' does more than rename the cards (the spec tells them apart))
    states: 2 draws, at most 2 live states (at draw 1, 2 different specs)
      per draw: 2 0
    restarts: 1
    """
    if not isinstance(spec, Spec):
        raise TypeError(f"explain: spec must be a Spec, got {spec!r} ({type(spec).__name__})")
    if not isinstance(source, Cards):
        raise TypeError(
            f"explain: source must be Cards (a deck), got {source!r} ({type(source).__name__}); "
            "explain describes the reductions over a deck"
        )
    max_states = _check_limit("max_states", max_states)
    log = _Log()
    dist: Distribution[Any] | None = None
    error = None
    try:
        if type(spec) is _Scored:  # the route chances takes (see drawdsl.exact._evaluate)
            try:
                dist = evaluate_scored(spec, source, max_states, len(source), lump, None, _annotate, log)
                log.proof = SCORED_NOTE if spec.pot is None else SCORED_NOTE + POT_NOTE
            except ScoresTooSpread:  # too far apart to pack: drawn card by card, as chances does
                log = _Log()
        if dist is None:
            dist = _evaluate_probed(
                spec, source, max_states, len(source), lump, symmetric, None, probe, log, 0
            )
    except StateLimitExceeded as err:
        error = str(err)
    return Explanation(
        cards=len(source),
        distinct=len(source.distinct()),
        shown=log.shown,
        classes=tuple(
            tuple(card for kind in part for card in (kind.members if type(kind) is Token else (kind,)))
            for part in log.classes
        ),
        symmetric=log.symmetric,
        symmetry_note=None if log.symmetric else (log.proof or ("not asked" if not symmetric else None)),
        states=tuple((live, specs) for _, live, specs in log.trace),
        restarts=log.restarts,
        distribution=dist,
        error=error,
        notes=_notes(spec),
    )


def _notes(spec: Spec[Any]) -> tuple[str, ...]:
    """The dicts of the @generate functions in ``spec`` kept in insertion order, and why."""
    notes = []
    for func in generator_functions(spec):
        code = getattr(func, "__code__", None)
        if code is None:
            continue
        for name, why in why_ordered(code).items():
            notes.append(
                f"{func.__qualname__} keeps its dict {name!r} in insertion order ({why}), so two orders "
                "of the same contents stay apart; read it only by key (d[k], d.get, in, del), len, "
                "sorted, max, min or sum and its orders merge"
            )
    return tuple(notes)

