"""The chance that player A wins every turn of a game of War (the Riddler question).

The deck is dealt into two piles; each turn both players turn their next card, and
the higher rank wins.  A *sweep* is a deal where A's card is higher in every one of
the turns (a tied turn is not a win).  Each turn reads two cards, so the deal is a
draw program: ``sweep_spec`` is the literal one.

Fast exact answer: a sweep is a tie-free deal whose every pair falls A's way.  Given
the unordered pairs of a tie-free deal, each of the ``turns`` orientations is
equally likely, so ``P(sweep) = P(no tie) / 2**turns``.  The tie-free program only
compares cards for equality, so the evaluator's symmetry applies: ranks with equal
remaining counts are interchangeable and the 52-card answer takes a fraction of a
second (Norvig's "abstract deck", found by the evaluator).

The same number has a closed form, which visits no state at all: inclusion-exclusion
over the turns that tie (``bench.reference.war_sweep_inclusion_exclusion``, a
polynomial power and ``turns + 1`` terms, about 30 times faster than this program on
52 cards).  This module keeps the draw program, which is what the library is for; the
tests check the two against each other on decks up to 40 x 2 and 13 x 6, and against
every deal of small decks.

>>> sweep_probability(ranks=3, suits=2)
Fraction(1, 15)
>>> round(1 / float(sweep_probability()))
319240343
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from drawdsl import Cards, InvalidArgument, Spec, chance, done, fail, loop

__all__ = [
    "deck",
    "sweep_spec",
    "tie_free_spec",
    "sweep_probability",
    "no_tie_probability",
    "games_per_sweep",
]


def deck(ranks: int = 13, suits: int = 4) -> Cards[int]:
    """A War deck seen as ranks: ranks ``2 .. ranks+1`` (ace high), ``suits`` of each.

    >>> deck(2, 3)
    Cards({2: 3, 3: 3})
    """
    for name, value in (("ranks", ranks), ("suits", suits)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"{name} must be an int, got {value!r}")
        if value < 1:
            raise InvalidArgument(f"{name} must be >= 1, got {value}")
    if ranks * suits % 2:
        raise InvalidArgument(
            f"a deck of {ranks} ranks x {suits} suits has {ranks * suits} cards, which cannot be "
            "dealt into two equal piles; use an even number of cards"
        )
    return Cards({rank: suits for rank in range(2, ranks + 2)})


class _Turn:
    """A turn number kept in a box: a bare int in the loop state would look like a rank
    to the symmetric evaluator, which then keeps that rank apart (slower, still exact).
    One box per turn is shared, so comparing states is an identity check."""

    __slots__ = ("number",)

    def __init__(self, number: int) -> None:
        self.number = number

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Turn) and other.number == self.number

    def __hash__(self) -> int:
        return self.number

    def __repr__(self) -> str:
        return f"turn {self.number}"


class _Turns:
    """Loop step over turns of (A's card, B's card): a tie fails, and so does B's higher
    card when ``strict_order`` (the sweep); the state is (turn, A's card or None)."""

    def __init__(self, turns: int, strict_order: bool) -> None:
        self.turns = turns
        self.strict_order = strict_order
        self.boxes = [_Turn(i) for i in range(turns + 1)]

    def __call__(self, state: tuple[_Turn, int | None], card: int) -> Any:
        turn, a_card = state
        if a_card is None:
            return (turn, card)
        if card == a_card or (self.strict_order and card > a_card):
            return fail()
        return done(True) if turn.number + 1 == self.turns else (self.boxes[turn.number + 1], None)

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, _Turns)
            and (self.turns, self.strict_order) == (other.turns, other.strict_order)
        )

    def __hash__(self) -> int:
        return hash((self.turns, self.strict_order))


class _TieFree:
    """The tie-free step over turns of two cards: a tie fails.  It only compares the two
    cards of a turn for equality, so its bytecode shows it blind to renamings of the
    ranks (:mod:`drawdsl.renaming_blind`) and the evaluator uses the symmetry with no
    traced run.  The state is (the turn's label, A's card or None); a label is a string,
    never equal to a rank, so it pins no rank (see :class:`_Turn`), and plain (a label
    and its successor are looked up in a dict of strings)."""

    def __init__(self, turns: int) -> None:
        self.turns = turns
        labels = [f"turn {i}" for i in range(turns)]
        self.first = labels[0]
        #: Each turn's label -> the next turn's (None after the last turn).
        self.after = {label: labels[i + 1] if i + 1 < turns else None for i, label in enumerate(labels)}

    def __call__(self, state: tuple[str, int | None], card: int) -> Any:
        turn, a_card = state
        if a_card is None:
            return (turn, card)
        if card == a_card:
            return fail()
        following = self.after[turn]
        return done(True) if following is None else (following, None)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _TieFree) and other.turns == self.turns

    def __hash__(self) -> int:
        return hash(("tie-free", self.turns))


def sweep_spec(turns: int) -> Spec[bool]:
    """The literal program: ``turns`` times draw A's card then B's; fail unless A's is higher.

    >>> from drawdsl import chance
    >>> chance(sweep_spec(2), deck(2, 2))
    Fraction(1, 6)
    """
    step = _Turns(turns, strict_order=True)
    return loop((step.boxes[0], None), step)


def tie_free_spec(turns: int) -> Spec[bool]:
    """``turns`` times draw two cards; fail if they are equal (equality only: symmetric-safe).

    >>> from drawdsl import chance
    >>> chance(tie_free_spec(2), deck(2, 2))
    Fraction(2, 3)
    """
    if isinstance(turns, bool) or not isinstance(turns, int) or turns < 1:
        raise InvalidArgument(f"turns must be an int >= 1, got {turns!r}")
    step = _TieFree(turns)
    return loop((step.first, None), step)


def no_tie_probability(ranks: int = 13, suits: int = 4) -> Fraction:
    """The exact chance that no turn of the whole deal is a tie.

    >>> no_tie_probability(2, 2)
    Fraction(2, 3)
    """
    cards = deck(ranks, suits)
    return chance(tie_free_spec(len(cards) // 2), cards, symmetric=True)


def sweep_probability(ranks: int = 13, suits: int = 4) -> Fraction:
    """The exact chance that A wins every turn: ``P(no tie) / 2**turns``.

    >>> sweep_probability(4, 2)
    Fraction(1, 28)
    """
    turns = ranks * suits // 2
    return Fraction(no_tie_probability(ranks, suits), 2**turns)


def games_per_sweep(ranks: int = 13, suits: int = 4) -> Fraction | float:
    """The expected number of games until either player sweeps (``1 / (2 P(sweep))``).

    When no sweep is possible (one rank: every turn ties) the wait never ends, and the
    answer is ``math.inf``.

    >>> games_per_sweep(2, 2)
    Fraction(3, 1)
    >>> games_per_sweep(1, 2)
    inf
    """
    p = sweep_probability(ranks, suits)
    return math.inf if p == 0 else 1 / (2 * p)
