"""The exact chance of a pattern of first turns ("turn 1 is a tie, turn 2 goes to A"), as a
draw program.

A *turn* is one comparison of face-up cards: the first pair of a battle, or the pair
that ends a round of a war (the integer-programming model of War counts the same way
when no card is laid face down).  While both players still play from the hands they
were dealt, the first turns depend only on the first cards of the deal: A's cards are
the 1st, 3rd, ... cards of the shuffled deck, B's the 2nd, 4th, ..., and a war skips
``face_down`` cards of each hand.  So the pattern is a draw program over the deck,
evaluated exactly by :func:`drawdsl.chance`; ``tests/test_war_first_turns.py`` checks it
against every deal of small decks played by the rules engine.

>>> first_turns_chance(["tie", "A"])          # 52 cards, standard rules
Fraction(576, 20825)
>>> first_turns_chance(["A"], ranks=3, suits=2)
Fraction(2, 5)
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from drawdsl import InvalidArgument, Spec, chance, done, draw_any, fail, loop
from games.war.rules import Rules, as_rules
from games.war.sweep import deck

__all__ = ["TURN_RESULTS", "first_turns_spec", "first_turns_chance"]

#: What a turn can be: won by A, won by B, or tied.
TURN_RESULTS = ("A", "B", "tie")


class _Step:
    """Loop step: the state is (turn, A's card or None, in a war).  The face-down cards of a
    war are removed unseen (``draw_any``: no branching, as the rules never look at them)."""

    def __init__(self, pattern: tuple[str, ...], rules: Rules, top: int) -> None:
        self.pattern = pattern
        self.face_down = rules.face_down
        self.deuce = rules.deuce_beats_ace
        self.top = top

    def result(self, x: int, y: int, in_war: bool) -> str:
        if x == y:
            return "tie"
        deuce = self.deuce == "always" or (self.deuce == "battles" and not in_war)
        if deuce and {x, y} == {2, self.top} and self.top != 2:
            return "A" if x == 2 else "B"
        return "A" if x > y else "B"

    def __call__(self, state: tuple[int, int | None, bool], card: int) -> Any:
        turn, a_card, in_war = state
        if a_card is None:
            return (turn, card, in_war)
        result = self.result(a_card, card, in_war)
        if result != self.pattern[turn]:
            return fail()
        if turn + 1 == len(self.pattern):
            return done(True)
        if result == "tie":
            if self.face_down:
                return draw_any(2 * self.face_down).then(loop((turn + 1, None, True), self))
            return (turn + 1, None, True)
        return (turn + 1, None, False)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Step) and (self.pattern, self.face_down, self.deuce, self.top) == (
            other.pattern, other.face_down, other.deuce, other.top)

    def __hash__(self) -> int:
        return hash((self.pattern, self.face_down, self.deuce, self.top))


def _pattern(pattern: Sequence[str]) -> tuple[str, ...]:
    if isinstance(pattern, str):
        pattern = pattern.replace(",", " ").split()
    turns = tuple(pattern)
    if not turns:
        raise InvalidArgument(
            "first_turns: the pattern is empty; give one result per turn, e.g. ['tie', 'A']"
        )
    for t in turns:
        if t not in TURN_RESULTS:
            raise InvalidArgument(f"first_turns: a turn is 'A', 'B' or 'tie', got {t!r}")
    return turns


def first_turns_spec(pattern: Sequence[str], rules: Rules | str = "standard", top: int = 14) -> Spec[bool]:
    """The draw program: deal the cards in order, compare them as the turns do, fail at the
    first turn that differs from ``pattern``.

    >>> from drawdsl import chance
    >>> chance(first_turns_spec(["tie"], top=3), deck(2, 2))
    Fraction(1, 3)
    """
    step = _Step(_pattern(pattern), as_rules(rules, "first_turns_spec"), top)
    return loop((0, None, False), step)


def first_turns_chance(pattern: Sequence[str], rules: Rules | str = "standard", *, ranks: int = 13,
                       suits: int = 4) -> Fraction:
    """The exact chance that the first turns of a random deal go as ``pattern`` says
    (a list, or text such as ``"tie A"``).

    The answer is exact only while every turn of the pattern is played from the dealt
    hands (no won card comes back into play, no war is short of cards); a longer pattern
    is refused with the reason.

    >>> first_turns_chance("tie tie", Rules(face_down=3))
    Fraction(73, 20825)
    """
    turns = _pattern(pattern)
    rules = as_rules(rules, "first_turns_chance")
    cards = deck(ranks, suits)
    hand = ranks * suits // 2
    ties = sum(1 for t in turns[:-1] if t == "tie")
    pairs = len(turns) + rules.face_down * ties
    if pairs > hand:
        raise InvalidArgument(
            f"first_turns_chance: the pattern reads {pairs} cards of each hand of {hand}; past the "
            "dealt hands the turns depend on the cards won, not only on the first cards: estimate it "
            "by simulation instead"
        )
    return chance(first_turns_spec(turns, rules, top=ranks + 1), cards)
