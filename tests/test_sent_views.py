"""A ``@generate`` spec's lumped classes, checked by the views it takes of the sent card.

When every read of the card's local is a comparison of the card (or a field) with a
constant, the cards of a class that answer every comparison alike resume the
generator alike, and the evaluator skips the replays (drawdsl.sent_views).  Every
answer here is checked against the brute-force oracle and against the evaluation
without merging or lumping; the specs that could read the card another way (a frame
reader among the globals, the arguments or the defaults; the card kept or compared
with another card) must get no proof and still the right answer.
"""

from __future__ import annotations

import sys
import types
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from oracle import brute_force

import drawdsl.exact as exact
from drawdsl import Card, Cards, chances, draw, draw_count, generate, standard_deck
from drawdsl.order_blind import MODELLED
from drawdsl.sent_views import sent_views, view_groups

needs_model = pytest.mark.skipif(not MODELLED, reason="the bytecode proofs model Python 3.11 only")

SMALL = Cards([Card(2, "S"), Card(3, "S"), Card(3, "H"), Card(4, "H"), Card(5, "D"), Card(5, "S")])


@generate
def aces() -> Any:
    count = 0
    for _ in range(3):
        card = yield draw()
        count += card.rank == 14
    return count


@generate
def high_cards() -> Any:
    count = 0
    for _ in range(3):
        card = yield draw()
        count += card.rank >= 4
    return count


@generate
def reversed_and_contained() -> Any:
    score = 0
    for _ in range(3):
        card = yield draw()
        if 3 == card.rank:  # noqa: SIM300 - the constant first, on purpose
            score += 1
        if card.suit in "HD":
            score += 10
    return score


@generate
def dropped_then_seen() -> Any:
    yield draw()
    card = yield draw()
    return card.rank != 5


@generate
def keeps_card() -> Any:
    first = yield draw()
    card = yield draw()
    last = card
    return (first.rank == 3, last.rank)


@generate
def pair_of_ranks() -> Any:
    first = yield draw()
    card = yield draw()
    return card.rank == first.rank


def _peek() -> Any:
    return sys._getframe(1).f_locals["card"]


@generate
def peeks_by_global() -> Any:
    card = yield draw()
    seen = card.rank == 3
    return (seen, _peek().rank)


@generate
def peeks_by_default(peek: Any = _peek) -> Any:
    card = yield draw()
    seen = card.rank == 3
    return (seen, peek().rank)


@generate
def peeks_by_argument(peek: Any) -> Any:
    card = yield draw()
    seen = card.rank == 3
    return (seen, peek().rank)


def _closure() -> Any:
    box: list[Any] = []

    @generate
    def reads_outside() -> Any:
        card = yield draw()
        seen = card.rank == 3
        box.append(seen)
        return (seen, len(box) > 0)

    return reads_outside()


SPECS = {
    "aces": aces,
    "high": high_cards,
    "reversed": reversed_and_contained,
    "dropped": dropped_then_seen,
    "keeps": keeps_card,
    "pair": pair_of_ranks,
    "peek-global": peeks_by_global,
    "peek-default": peeks_by_default,
    "peek-argument": lambda: peeks_by_argument(_peek),
    "closure": _closure,
}


@pytest.mark.parametrize("name", list(SPECS))
def test_answers_equal_brute_force_and_no_reduction(name: str) -> None:
    spec = SPECS[name]()
    truth = brute_force(spec, SMALL)
    assert chances(spec, SMALL) == truth
    assert chances(spec, SMALL, merge=False, lump=False, symmetric=False, probe=False) == truth


def suspended(spec: Any, sends: list[Any]) -> tuple[Any, Any, Any, tuple[types.CodeType, int]]:
    """The generator of ``spec`` (a @generate spec) after ``sends``: (func, args, kwargs, where)."""
    gen = spec.func(*spec.args, **dict(spec.kwargs))
    gen.send(None)
    for value in sends:
        gen.send(value)
    frame = gen.gi_frame
    return spec.func, spec.args, spec.kwargs, (frame.f_code, frame.f_lasti)


def tokens(shown: frozenset[str] = frozenset({"rank"})) -> list[Any]:
    from drawdsl.probes import ProbePlan

    plan = ProbePlan.of(SMALL)
    assert plan is not None
    return list(plan.deck(shown)[0].distinct())


@needs_model
def test_views_group_the_cards_by_their_answers() -> None:
    func, args, kwargs, where = suspended(high_cards(), [])
    assert sent_views(*where).views == (("rank", ">=", 4, False),)  # type: ignore[union-attr]
    groups = view_groups(func, args, kwargs, where, tuple(tokens()))
    assert groups is not None
    assert [[t.values[0] for t in group] for group in groups] == [[2, 3], [4, 5]]
    func, args, kwargs, where = suspended(reversed_and_contained(), [])
    found = sent_views(*where)
    assert found is not None and set(found.views) == {("rank", "==", 3, True), ("suit", "in", "HD", False)}
    # The suit is hidden in a deck showing ranks only: no proof (the run reads it first).
    assert view_groups(func, args, kwargs, where, tuple(tokens())) is None
    func, args, kwargs, where = suspended(dropped_then_seen(), [])
    assert sent_views(*where).name is None  # type: ignore[union-attr]
    assert len(view_groups(func, args, kwargs, where, tuple(tokens())) or []) == 1


@needs_model
@pytest.mark.parametrize("name", ["keeps", "pair"])
def test_a_card_read_another_way_gets_no_proof(name: str) -> None:
    spec = SPECS[name]()
    where = suspended(spec, [Card(3, "S")])[3]
    assert sent_views(*where) is None


@needs_model
@pytest.mark.parametrize("name", ["peek-global", "peek-default", "peek-argument", "closure"])
def test_a_frame_reader_within_reach_gets_no_proof(name: str) -> None:
    spec = SPECS[name]()
    func, args, kwargs, where = suspended(spec, [])
    assert view_groups(func, args, kwargs, where, tuple(tokens())) is None


def _count_class_checks(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls: list[int] = []
    original = exact._check_class

    def counting(k: Any, members: Any, *rest: Any) -> None:
        calls.append(len(members))
        original(k, members, *rest)

    monkeypatch.setattr(exact, "_check_class", counting)
    return calls


@needs_model
def test_counting_aces_replays_no_class(monkeypatch: pytest.MonkeyPatch) -> None:
    deck = standard_deck()
    tuned = chances(draw_count(lambda ace: ace, 3), deck.map(lambda card: card.rank == 14))
    calls = _count_class_checks(monkeypatch)
    got = chances(aces(), deck)
    assert calls == []
    assert got == tuned
    # A generator keeping the card is checked by replays, as before.
    chances(keeps_card(), deck)
    assert calls


@needs_model
def test_the_first_views_split_the_class_before_the_first_run(monkeypatch: pytest.MonkeyPatch) -> None:
    deck = standard_deck()
    tuned = chances(draw_count(lambda ace: ace, 3), deck.map(lambda card: card.rank == 14))
    runs: list[int] = []
    original = exact._evaluate_deck

    def counted(*args: Any, **kwargs: Any) -> Any:
        runs.append(1)
        return original(*args, **kwargs)

    monkeypatch.setattr(exact, "_evaluate_deck", counted)
    views: list[int] = []
    original_views = exact.view_groups

    def viewed(*args: Any) -> Any:
        views.append(len(args[-1]))
        return original_views(*args)

    monkeypatch.setattr(exact, "view_groups", viewed)
    assert chances(aces(), deck) == tuned
    assert len(runs) == 1  # the ace split from the other ranks before it: no run thrown away
    assert views == [13]  # and the run's checks of the two classes reuse those answers


_TEMPLATE = """
def hand():
    score = 0
    for _ in range({draws}):
        card = yield draw()
        if {test}:
            score += 1
    return score
"""


@settings(max_examples=40, deadline=None)
@given(
    draws=st.integers(1, 3),
    field=st.sampled_from(["rank", "suit", None]),
    op=st.sampled_from(["==", "!=", "<", "<=", ">", ">=", "in", "not in"]),
    constant_first=st.booleans(),
    constant=st.sampled_from([3, 4, "H", "S", (2, 5), "HD", 3.0, True, None]),
    counts=st.lists(st.integers(1, 2), min_size=6, max_size=6),
)
def test_generated_views_equal_brute_force(
    draws: int, field: str | None, op: str, constant_first: bool, constant: Any, counts: list[int],
) -> None:
    value = "card" if field is None else f"card.{field}"
    left, right = (repr(constant), value) if constant_first else (value, repr(constant))
    namespace: dict[str, Any] = {"draw": draw}
    exec(_TEMPLATE.format(draws=draws, test=f"{left} {op} {right}"), namespace)
    spec = generate(namespace["hand"])()
    cards = [Card(2, "S"), Card(3, "S"), Card(3, "H"), Card(4, "H"), Card(5, "D"), Card(5, "S")]
    deck: Cards[Any] = Cards({card: n for card, n in zip(cards, counts, strict=True)})
    if field is None:
        deck = deck.map(lambda card: card.rank)  # plain cards, compared themselves
    while len(deck) > 7:
        deck = Cards(list(deck)[1:])
    try:
        truth = brute_force(spec, deck)
    except (TypeError, AttributeError):
        with pytest.raises((TypeError, AttributeError)):
            chances(spec, deck)
        return
    assert chances(spec, deck) == truth
    assert chances(spec, deck, merge=False, lump=False, probe=False) == truth
