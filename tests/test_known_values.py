"""Famous exact values, and deep specs that must not hit recursion limits."""

from __future__ import annotations

from fractions import Fraction
from math import comb
from typing import Any

import pytest

from drawdsl import (
    Card,
    Spec,
    chance,
    chances,
    coin,
    die,
    done,
    draw,
    draw_count,
    draw_groups_on,
    draw_until,
    ensure,
    fail,
    keyed,
    loop,
    standard_deck,
)
from drawdsl.examples import ace_within, aces_deck, blackjack_natural, first_ace_mean, flush

DECK = standard_deck()
HANDS = comb(52, 5)


def is_ace(card: Card) -> bool:
    return card.is_ace


def test_ace_within_three_cards() -> None:
    assert chance(ace_within(3), aces_deck()) == Fraction(1201, 5525)


def test_ace_within_three_cards_on_the_unmapped_deck() -> None:
    """Mapping the deck to an aspect never changes the answer, only the speed."""
    assert chance(draw_until(is_ace, limit=3), DECK) == Fraction(1201, 5525)


def test_first_ace_position_distribution() -> None:
    dist = chances(draw_until(lambda ace: ace).map(len), aces_deck())
    # The first ace is at position k when the other three aces lie among the last 52-k cards.
    expected = {k: Fraction(comb(52 - k, 3), comb(52, 4)) for k in range(1, 50)}
    assert dict(dist) == expected
    assert dist.expectation() == Fraction(53, 5) == first_ace_mean()


def test_blackjack_natural_one_deck() -> None:
    values = DECK.map(lambda card: 11 if card.rank == 14 else min(card.rank, 10))
    assert chance(blackjack_natural(), values) == Fraction(32, 663)


def test_flush_as_an_ordered_loop() -> None:
    suits = DECK.map(lambda card: card.suit)
    assert chance(flush(), suits) == Fraction(4 * comb(13, 5), HANDS) == Fraction(33, 16660)


def test_flush_on_the_unmapped_deck() -> None:
    def step(state: tuple[int, str | None], card: Card) -> Any:
        drawn, suit = state
        if suit is not None and card.suit != suit:
            return fail()
        return done(True) if drawn == 4 else (drawn + 1, card.suit)

    assert chance(loop((0, None), step), DECK) == Fraction(33, 16660)


@pytest.mark.parametrize(
    ("sizes", "count"),
    [
        ([4, 1], 624),
        ([3, 2], 3744),
        ([3, 1, 1], 54912),
        ([2, 2, 1], 123552),
        ([2, 1, 1, 1], 1098240),
    ],
)
def test_poker_rank_categories(sizes: list[int], count: int) -> None:
    ranks = DECK.map(lambda card: card.rank)
    assert chance(draw_groups_on(lambda rank: rank, sizes), ranks) == Fraction(count, HANDS)


def test_two_dice_sum_to_seven() -> None:
    spec = draw().bind(lambda a: draw().bind(lambda b: ensure(a + b == 7)))
    assert chance(spec, die(6)) == Fraction(1, 6)


def test_biased_coin_three_heads() -> None:
    heads = draw_count(lambda side: side == "H", 3)
    dist = chances(heads, coin(Fraction(2, 3)))
    assert dist[3] == Fraction(8, 27)
    assert dist[0] == Fraction(1, 27)


def test_whole_deck_52_deep() -> None:
    """A spec that reads all 52 cards: every red/black count is 26, exactly."""
    colours = DECK.map(lambda card: card.color)
    assert chances(draw_count(lambda colour: colour == "red", 52), colours) == chances(done(26), colours)


def _flip(total: int) -> Spec[int]:
    return keyed(("flip", total), lambda: draw().map(lambda side: total + (side == "H")))


def test_500_deep_left_nested_binds() -> None:
    """500 binds nested the 'wrong' way, each a draw: no recursion error, exact binomial."""
    spec: Spec[int] = done(0)
    for _ in range(500):
        spec = spec.bind(_flip)
    dist = chances(spec, coin())
    assert dist == chances(draw_count(lambda side: side == "H", 500), coin())
    assert dist[250] == Fraction(comb(500, 250), 2**500)


def test_deep_recursive_spec_on_a_deck() -> None:
    """A right-nested recursive spec (Haskell's drawUntil shape) 48 cards deep."""

    def until_ace() -> Spec[tuple[bool, ...]]:
        return draw().bind(lambda ace: done((ace,)) if ace else until_ace().map(lambda rest: (ace, *rest)))

    assert chances(until_ace().map(len), aces_deck()).expectation() == Fraction(53, 5)
