"""Exact evaluation agrees with brute force over every ordering of small decks."""

from __future__ import annotations

from typing import Any

from hypothesis import example, given, settings
from oracle import brute_force
from strategies import decks, specs

from drawdsl import Cards, Spec, chances, draw, draw_any, draw_many, draw_where


@settings(max_examples=400)
@given(specs, decks)
@example(draw_any(1).then(draw_many(2)), Cards("ab"))
@example(draw_any(2).then(draw()), Cards("ab"))
@example(draw_where(lambda c: c == "a") | draw_any(1).then(draw()), Cards("b"))
@example(draw_many(2) | draw_any(1).then(draw()), Cards("a"))
def test_exact_equals_brute_force(spec: Spec[Any], deck: Cards[str]) -> None:
    assert chances(spec, deck) == brute_force(spec, deck)


@given(specs, decks)
def test_merged_equals_unmerged(spec: Spec[Any], deck: Cards[str]) -> None:
    assert chances(spec, deck, merge=True) == chances(spec, deck, merge=False)


@given(specs, decks)
def test_total_is_exactly_one(spec: Spec[Any], deck: Cards[str]) -> None:
    dist = chances(spec, deck)
    assert sum(dist.values()) + dist.failure == 1
