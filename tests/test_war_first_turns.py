"""The exact chance of a pattern of first turns (a draw program) against every deal of small decks
played by the rules engine, which reports each turn (comparison of face-up cards)."""

from __future__ import annotations

import itertools
from collections import deque
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from drawdsl import InvalidArgument
from games.war import Rules
from games.war.engine import battle, deal_hands
from games.war.first_turns import TURN_RESULTS, first_turns_chance


def engine_turns(deal: tuple[int, ...], rules: Rules, top: int, count: int) -> list[str]:
    """The first ``count`` turns of the game of ``deal``, as the rules engine plays them."""
    hand_a, hand_b = deal_hands(deal)
    a, b = deque(hand_a), deque(hand_b)
    turns: list[str] = []
    while len(turns) < count and a and b:
        result, _, _ = battle(a, b, rules, top, turns=turns)
        if len(result) > 1:
            break
    return turns[:count]


def brute_force(pattern: list[str], rules: Rules, ranks: int, suits: int) -> Fraction:
    cards = [r for r in range(2, ranks + 2) for _ in range(suits)]
    deals = set(itertools.permutations(cards))
    hits = sum(engine_turns(d, rules, ranks + 1, len(pattern)) == pattern for d in deals)
    return Fraction(hits, len(deals))


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(TURN_RESULTS), min_size=1, max_size=4), st.integers(0, 2),
       st.sampled_from(["never", "battles", "always"]), st.sampled_from([(3, 2), (4, 2), (2, 4)]))
def test_the_draw_program_equals_every_deal_played(pattern: list[str], face_down: int, deuce: str,
                                                   shape: tuple[int, int]) -> None:
    ranks, suits = shape
    rules = Rules(face_down=face_down, deuce_beats_ace=deuce)
    hand = ranks * suits // 2
    if len(pattern) + face_down * pattern[:-1].count("tie") > hand:
        with pytest.raises(InvalidArgument, match="estimate it by simulation"):
            first_turns_chance(pattern, rules, ranks=ranks, suits=suits)
        return
    assert first_turns_chance(pattern, rules, ranks=ranks, suits=suits) == brute_force(
        pattern, rules, ranks, suits)


def test_the_full_deck() -> None:
    # P(turn 1 ties) = 3/51 exactly; after a tie and one card face down each, A's next card wins
    # as often as B's, so P(tie, then A) = 3/51 * (1 - P(tie on the next pair)) / 2.
    assert first_turns_chance("tie") == Fraction(3, 51)
    assert first_turns_chance("A") == first_turns_chance("B") == Fraction(24, 51)
    assert first_turns_chance("tie A") == first_turns_chance("tie B")
    total = first_turns_chance("tie A") + first_turns_chance("tie B") + first_turns_chance("tie tie")
    assert total == Fraction(3, 51)


def test_bad_patterns() -> None:
    for bad in ([], ["win"], "A C"):
        with pytest.raises(InvalidArgument, match="first_turns"):
            first_turns_chance(bad)
