"""Witness search: finds a deal exactly when one exists, and the deal really works."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from oracle import brute_force, orderings, run
from strategies import ValuePredicate, decks, specs

from drawdsl import (
    Cards,
    Spec,
    StateLimitExceeded,
    coin,
    done,
    draw_many,
    draw_until,
    loop,
    play,
    standard_deck,
    witness,
)
from games import war


@given(specs, decks, st.integers(1, 3))
def test_witness_exists_exactly_when_brute_force_finds_one(spec: Spec[Any], deck: Cards[str], k: int) -> None:
    wanted = ValuePredicate(k)
    exists = any(wanted(value) for value in brute_force(spec, deck))
    found = witness(spec, deck, wanted)
    assert (found is not None) == exists
    if found is not None:
        assert wanted(found.value)
        assert play(spec, found.deal) == found.value
        # the deal is a real prefix of some ordering of the deck
        assert all(deck.count(c) >= found.deal.count(c) for c in set(found.deal))
        assert 0 < found.probability <= 1


@given(specs, decks)
def test_witness_probability_is_that_of_its_seen_cards(spec: Spec[Any], deck: Cards[str]) -> None:
    found = witness(spec, deck)
    if found is None:
        assert brute_force(spec, deck).success == 0
        return
    # Deals through this path: those whose run gives the value using the same seen cards.
    matching = [deal for deal in orderings(deck) if deal[: len(found.deal)] == found.deal]
    assert matching and all(run(spec, deal)[0] == "ok" for deal in matching)


def test_a_war_sweep_deal_on_the_full_deck() -> None:
    ranks = standard_deck().map(lambda card: card.rank)
    found = witness(war.sweep_spec(26), ranks)
    assert found is not None and len(found.deal) == 52
    a, b = found.deal[0::2], found.deal[1::2]
    assert all(x > y for x, y in zip(a, b, strict=True))
    assert found.probability == Fraction(1, 1) / _orderings_of_ranks(found.deal)


def _orderings_of_ranks(deal: tuple[int, ...]) -> int:
    from math import factorial

    n = factorial(len(deal))
    for rank in set(deal):
        n //= factorial(deal.count(rank))
    return n


def test_no_witness_is_a_proof() -> None:
    # Five cards can never hold a 6-card run of the same rank.
    assert witness(draw_until(lambda c: False, limit=5), Cards("abcde")) is None


def test_witness_on_a_cyclic_coin_process() -> None:
    def step(state: str, side: str) -> Any:
        state = (state + side)[-3:]
        return done(state) if state in ("HHT", "THT") else state

    found = witness(loop("", step), coin(), lambda v: v == "THT")
    assert found is not None and found.deal[-3:] == ("T", "H", "T")
    assert play(loop("", step), found.deal) == "THT"
    assert found.probability == Fraction(1, 2 ** len(found.deal))


def test_witness_fills_unseen_discards_from_the_deck() -> None:
    from drawdsl import draw_any

    spec = draw_any(2).then(draw_many(1))
    found = witness(spec, Cards("abc"), lambda v: v == ("a",))
    assert found is not None and len(found.deal) == 3
    assert play(spec, found.deal) == ("a",)


def test_witness_state_limit() -> None:
    with pytest.raises(StateLimitExceeded, match="max_states=3"):
        witness(draw_many(4), Cards("abcdef"), lambda v: False, max_states=3)


def test_witness_with_replacement_keeps_unseen_flips_in_the_deal() -> None:
    from drawdsl import draw, draw_any

    spec = draw_any(2).then(draw())
    found = witness(spec, coin(), lambda side: side == "T")
    assert found is not None and len(found.deal) == 3
    assert play(spec, found.deal) == "T"
