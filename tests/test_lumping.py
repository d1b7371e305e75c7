"""Automatic reductions never change an answer; natural specs on the whole deck are exact.

Lumping (cards the spec cannot tell apart) is on by default and checked at every
transition; the symmetry is used only once proven.  ``eager_proofs`` makes the small
decks here run the proofs too (by default they only run past a few hundred states).
"""

from __future__ import annotations

from fractions import Fraction
from math import comb
from typing import Any

import pytest
from eager import eager_proofs
from hypothesis import given
from hypothesis import strategies as st
from oracle import brute_force
from strategies import decks, predicates, specs

from drawdsl import (
    Card,
    Cards,
    Spec,
    StateLimitExceeded,
    chances,
    done,
    draw,
    draw_count,
    draw_many,
    draw_until,
    explain,
    fail,
    generate,
    loop,
    standard_deck,
)
from drawdsl.frames import FRAME_KEYS
from drawdsl.reductions import prove_lumping


@given(specs, decks)
def test_reductions_never_change_an_answer(spec: Spec[Any], deck: Cards[str]) -> None:
    plain = chances(spec, deck, merge=False)
    assert chances(spec, deck) == plain
    assert chances(spec, deck, lump=False, symmetric=False) == plain
    with eager_proofs():
        assert chances(spec, deck) == plain


@given(specs, decks.filter(lambda d: len(d) <= 5))
def test_reductions_agree_with_brute_force(spec: Spec[Any], deck: Cards[str]) -> None:
    with eager_proofs():
        assert chances(spec, deck) == brute_force(spec, deck)


@given(predicates, st.one_of(st.none(), st.integers(1, 4)), decks)
def test_draw_until_map_len_counts(predicate: Any, limit: int | None, deck: Cards[str]) -> None:
    counted = draw_until(predicate, limit).map(len)
    collected = draw_until(predicate, limit).map(lambda cards: len(cards))
    assert counted != collected  # the first is the counting loop, the second maps a tuple
    assert chances(counted, deck) == chances(collected, deck, merge=False) == brute_force(collected, deck)


class LateLook:
    """Counts cards for ``quiet`` draws without looking, then finishes with the next card:
    the cards are told apart only deep in the evaluation (a split after a long run)."""

    def __init__(self, quiet: int) -> None:
        self.quiet = quiet

    def __call__(self, drawn: int, card: Any) -> Any:
        return done(card) if drawn == self.quiet else drawn + 1


@pytest.mark.parametrize("quiet", [0, 2, 4])
def test_a_class_splits_when_two_cards_lead_apart_late(quiet: int) -> None:
    deck = Cards({"a": 2, "b": 2, "c": 2})
    spec = loop(0, LateLook(quiet))
    assert chances(spec, deck) == brute_force(spec, deck) == chances(spec, deck, lump=False)
    report = explain(spec, deck)
    assert len(report.classes) == 3


def test_the_proof_finds_the_coarsest_classes() -> None:
    spec = draw_count(lambda c: c in "ab", 2)
    assert prove_lumping(spec, "abcd", [[0, 1, 2, 3]], 4) == [[0, 1], [2, 3]]
    # A spec that finishes with the card tells every card apart.
    assert prove_lumping(draw(), "abcd", [[0, 1, 2, 3]], 4) == [[0], [1], [2], [3]]


# --------------------------------------------------------------------------- natural specs, whole deck

deck = standard_deck()


def test_first_king_on_the_whole_deck() -> None:
    # The famous (n + 1) / (k + 1): the first of 4 kings among 52 cards is at 53/5 on average.
    first_king = draw_until(lambda card: card.rank == 13).map(len)
    dist = chances(first_king, deck)
    assert dist.expectation() == Fraction(53, 5)
    assert dist == chances(draw_until(lambda king: king).map(len), deck.map(lambda card: card.rank == 13))


def test_hearts_in_a_bridge_hand_is_hypergeometric() -> None:
    hearts = chances(draw_count(lambda card: card.suit == "H", 13), deck)
    for k in range(14):
        assert hearts[k] == Fraction(comb(13, k) * comb(39, 13 - k), comb(52, 13))
    assert explain(draw_count(lambda card: card.suit == "H", 13), deck).classes.__len__() == 2


def blackjack_value(card: Any) -> int:
    return 11 if card.rank == 14 else min(card.rank, 10)


def dealer_on_cards(state: tuple[int, int], card: Any) -> Any:
    """The dealer draws to 17 (soft 17 stands), written on the cards themselves."""
    total, aces = state
    total += blackjack_value(card)
    aces += card.rank == 14
    while total > 21 and aces:
        total, aces = total - 10, aces - 1
    if total > 21:
        return done("bust")
    return done(total) if total >= 17 else (total, aces)


def test_the_dealer_on_cards_equals_the_cookbook_dealer() -> None:
    natural = chances(loop((0, 0), dealer_on_cards), deck)
    # The cookbook's dealer on the deck mapped to low values (ace = 1), published there.
    assert natural["bust"] == Fraction(2039239971, 7190920100)
    assert len(explain(loop((0, 0), dealer_on_cards), deck).classes) == 10


def test_a_rank_kept_in_the_loop_state_lumps_the_suits() -> None:
    def pair_rank(first: Any, card: Any) -> Any:
        if first is None:
            return card.rank
        return done(True) if card.rank == first else fail()

    spec = loop(None, pair_rank)
    assert chances(spec, deck).success == Fraction(1, 17)
    assert len(explain(spec, deck).classes) == 13


@generate
def aces_in_five() -> Any:
    count = 0
    for _ in range(5):
        card = yield draw()
        count += card.rank == 14
    return count


@generate
def cards_in_five() -> Any:
    cards = []
    for _ in range(5):
        cards.append((yield draw()))
    return sum(card.rank == 14 for card in cards)


@pytest.mark.skipif(not FRAME_KEYS, reason="generator frames cannot be read on this Python")
def test_a_generator_counting_aces_merges_and_lumps() -> None:
    # Its state after each card is (loop position, count): equal states merge whatever
    # the cards were, and the dead `card` variable lets the 52 cards lump into 2.
    dist = chances(aces_in_five(), deck)
    assert dist[0] == Fraction(comb(48, 5), comb(52, 5))
    assert dist == chances(draw_count(lambda card: card.rank == 14, 5), deck)
    assert len(explain(aces_in_five(), deck).classes) == 2


def test_a_generator_that_keeps_every_card_is_refused_with_the_reason() -> None:
    with pytest.raises(StateLimitExceeded, match="the @generate spec"):
        chances(cards_in_five(), deck, max_states=5_000)
    mapped = chances(cards_in_five(), Cards({Card(14, "S"): 4, Card(2, "S"): 48}))
    assert mapped[0] == Fraction(comb(48, 5), comb(52, 5))


@pytest.mark.parametrize("name", ["lump", "symmetric", "probe"])
def test_reduction_switches_must_be_bools(name: str) -> None:
    with pytest.raises(TypeError, match=f"chances: {name} must be True or False, got 'yes'"):
        chances(draw(), Cards("ab"), **{name: "yes"})


def _rolls_until_six(rolls: int, face: int) -> Any:
    return done(rolls + 1) if face == 6 else rolls + 1


def _until_six(state: None, face: int) -> Any:
    return done("six") if face == 6 else state


def test_a_die_counted_in_a_loop_points_to_expected_draws() -> None:
    from drawdsl import die

    with pytest.raises(StateLimitExceeded, match=r"no state ever came back.*expected_draws"):
        chances(loop(0, _rolls_until_six), die(), max_draws=300)
    assert chances(loop(None, _until_six), die()).expected_draws == 6


def test_a_frontier_that_will_pass_the_limit_is_refused_at_once() -> None:
    # 52 distinct cards in order: 2,652 states at draw 2, none merging, each going on with
    # 50 cards: 132,600 at draw 3, refused before a single one is built.
    with pytest.raises(StateLimitExceeded, match=r"would reach about 132,600 live states at draw 3"):
        chances(draw_many(5), deck, max_states=20_000, probe=False)
    # Probed, the ranks alone already pass the limit (the cards would be more still).
    ranks = draw_many(5).map(lambda cards: tuple(card.rank for card in cards))
    with pytest.raises(StateLimitExceeded, match=r"would reach about 28,561 live states at draw 4"):
        chances(ranks, deck, max_states=20_000)
    # A spec finishing with the cards themselves is evaluated on the real cards at once.
    with pytest.raises(StateLimitExceeded, match=r"would reach about 132,600 live states at draw 3"):
        chances(draw_many(5), deck, max_states=20_000)
    # The same growth, but every path ends at draw 3: nothing to refuse.
    first_rank = draw_many(3).map(lambda cards: cards[0].rank)
    assert chances(first_rank, deck, max_states=20_000)[14] == Fraction(1, 13)


def _show(state: Any, card: str) -> Any:
    return done(str(state))


def _one_or_true(state: int, card: str) -> Any:
    if state < 2:
        return state + 1
    return loop(1, _show) if card == "a" else loop(True, _show)


def test_the_quick_loop_check_compares_returned_specs_strictly() -> None:
    """The check that asks a loop step directly (and remembers the answer per head)
    must keep loop(1, ...) and loop(True, ...) apart: the class splits."""
    spec = loop(0, _one_or_true)
    deck = Cards("aabbc")
    assert chances(spec, deck) == brute_force(spec, deck)
    assert chances(spec, deck) == chances(spec, deck, lump=False)


def _late_split(state: int, card: str) -> Any:
    # Every card leads to the same state until the fourth draw, then "a" is told apart.
    if state < 3:
        return state + 1
    return done(card == "a")


def test_a_class_agreed_at_one_head_is_still_checked_at_the_next() -> None:
    spec = loop(0, _late_split)
    deck = Cards("aabbcc")
    assert chances(spec, deck) == brute_force(spec, deck) == chances(spec, deck, lump=False)


def _no_adjacent_rank(state: tuple[int, Any], card: Any) -> Any:
    left, previous = state
    if card.rank == previous:
        return fail()
    return done(True) if left == 1 else (left - 1, card.rank)


def _no_adjacent_rank_made(state: tuple[int, Any], card: Any) -> Any:
    left, previous = state
    if card.rank == previous:
        return fail()
    return done(True) if left == 1 else (left - 1, card.rank * 1)  # a number made from the rank


def test_a_rank_kept_as_made_number_is_told_to_keep_the_field() -> None:
    """The renaming cannot see a number made from the rank: the limit's message says what it can see."""
    with pytest.raises(StateLimitExceeded, match=r"in the state as it is.*the renaming sees cards"):
        chances(loop((52, None), _no_adjacent_rank_made), standard_deck(), max_states=2_000)


def test_a_rank_kept_as_it_is_is_renamed() -> None:
    """The rank field itself is handed as a name the renaming sees: the whole deck is as fast
    as the deck of rank names, with the same answer."""
    deck = standard_deck()
    names = deck.map(lambda card: f"r{card.rank}")

    def no_adjacent(state: tuple[int, Any], card: Any) -> Any:
        left, previous = state
        if card == previous:
            return fail()
        return done(True) if left == 1 else (left - 1, card)

    natural = chances(loop((52, None), _no_adjacent_rank), deck, max_states=20_000)
    assert natural == chances(loop((52, None), no_adjacent), names, max_states=20_000)
    report = explain(loop((52, None), _no_adjacent_rank), deck)
    assert report.shown == ("rank",) and report.symmetric
