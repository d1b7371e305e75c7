"""Famous card-draw questions as specs, each with its exact answer computed on demand.

>>> famous_answers()["an ace within the first 3 cards"]
Fraction(1201, 5525)
"""

from __future__ import annotations

from fractions import Fraction

from drawdsl.cards import Cards
from drawdsl.combinators import draw_groups, draw_until, ensure
from drawdsl.exact import chance, chances
from drawdsl.playing import Card, standard_deck
from drawdsl.spec import Spec, done, draw, fail, loop

__all__ = ["ace_within", "blackjack_natural", "flush", "full_house", "first_ace_mean", "famous_answers"]


def _is_ace(card: Card) -> bool:
    return card.is_ace


def aces_deck(deck: Cards[Card] | None = None) -> Cards[bool]:
    """A deck seen only as ace / not ace (52 cards become two kinds)."""
    return (deck if deck is not None else standard_deck()).map(_is_ace)


def _is_true(ace: bool) -> bool:
    return ace


def ace_within(n: int) -> Spec[tuple[bool, ...]]:
    """Draw until an ace, failing after ``n`` cards: succeeds iff an ace is among the first ``n``.

    >>> chance(ace_within(3), aces_deck())
    Fraction(1201, 5525)
    """
    return draw_until(_is_true, limit=n)


def first_ace_mean() -> Fraction:
    """The mean position of the first ace in a shuffled 52-card deck.

    >>> first_ace_mean()
    Fraction(53, 5)
    """
    return chances(draw_until(_is_true).map(len), aces_deck()).expectation()


def _blackjack_value(card: Card) -> int:
    return 11 if card.rank == 14 else min(card.rank, 10)


def blackjack_natural() -> Spec[None]:
    """Two cards worth 21 (an ace and a ten-valued card), on a deck mapped to blackjack values.

    >>> chance(blackjack_natural(), standard_deck().map(_blackjack_value))
    Fraction(32, 663)
    """
    return draw().bind(lambda a: draw().bind(lambda b: ensure(a + b == 21)))


def _flush_step(state: tuple[int, str | None], suit: str) -> object:
    drawn, first = state
    if first is not None and suit != first:
        return fail()
    if drawn + 1 == 5:
        return done(True)
    return (drawn + 1, suit)


def flush() -> Spec[bool]:
    """Five cards of one suit, drawn in order with a loop state, on a deck mapped to suits.

    >>> chance(flush(), standard_deck().map(lambda card: card.suit))
    Fraction(33, 16660)
    """
    return loop((0, None), _flush_step)


def full_house() -> Spec[tuple[tuple[int, ...], ...]]:
    """A triple and a pair, on a deck mapped to ranks.

    >>> chance(full_house(), standard_deck().map(lambda card: card.rank))
    Fraction(6, 4165)
    """
    return draw_groups([3, 2])


def _suit(card: Card) -> str:
    return card.suit


def _rank(card: Card) -> int:
    return card.rank


def famous_answers() -> dict[str, Fraction]:
    """Each famous question's exact answer, computed now by the exact evaluator."""
    deck = standard_deck()
    return {
        "an ace within the first 3 cards": chance(ace_within(3), aces_deck(deck)),
        "mean position of the first ace": first_ace_mean(),
        "blackjack natural (one deck)": chance(blackjack_natural(), deck.map(_blackjack_value)),
        "5-card flush (straight flushes included)": chance(flush(), deck.map(_suit)),
        "5-card full house": chance(full_house(), deck.map(_rank)),
    }
