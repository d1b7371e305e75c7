"""Blends: a lumped class of cards checked in one run (drawdsl/blends.py).

A blend stands for the names of a class of cards; every use must give all of them
strictly equal results, else the run disagrees and proves nothing.  The evaluator
uses it to check a lumped class in one run instead of one run per card; blends may
only make an evaluation faster: every answer equals the real cards' (``probe=False``)
and brute force, including specs that swallow the disagreement, keep the blended
value, hash it, or finish with it.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any, NamedTuple

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from oracle import brute_force

import drawdsl.exact as exact
from drawdsl import Cards, Spec, chances, done, draw, fail, generate, loop, standard_deck
from drawdsl.blends import SIGNALS, Blend, BlendWatch, Disagreed, _agree, blend_card
from drawdsl.probes import ProbePlan, named


class P(NamedTuple):
    """A small card: rank 1..4, suit "x" or "y"."""

    rank: int
    suit: str


DECK = Cards([P(rank, suit) for rank in range(1, 5) for suit in "xy"] + [P(4, "x")])


def blend(*values: Any) -> tuple[Blend, BlendWatch]:
    watch = BlendWatch()
    return Blend([named(v) for v in values], watch), watch


def disagrees(use: Callable[[Any], Any], *values: Any) -> bool:
    b, watch = blend(*values)
    try:
        use(b)
    except Disagreed:
        assert watch.disagreed
        return True
    return watch.disagreed


# ---------------------------------------------------------------- the blend on its own


def test_uses_that_agree_give_the_common_result() -> None:
    b, watch = blend(2, 3, 4)
    assert (b == 14, b != 14, b < 10, b < 10, b >= 2, b * 0, 0 * b, b // 10) == (
        False, True, True, True, True, 0, 0, 0)
    assert bool(b) is True and isinstance(b, int)
    assert min(b, 10) is b and max(b, 10) == 10  # 10 < b is False for every value
    assert not watch.disagreed


@pytest.mark.parametrize("use", [
    lambda b: b == 3, lambda b: b + 1, lambda b: str(b), lambda b: hash(b), lambda b: {b: 1},
    lambda b: iter(b), lambda b: b.bit_length(), lambda b: f"{b}",
    lambda b: b in {2, 3}, lambda b: [0] * b, lambda b: range(b), lambda b: b > 2,
])
def test_uses_that_differ_or_cannot_be_worked_out_disagree(use: Callable[[Any], Any]) -> None:
    assert disagrees(use, 2, 3, 4)


def test_results_must_be_strictly_equal() -> None:
    # 1 == True == 1.0 in Python, but they are different results.
    b, watch = blend(0, 1)
    with pytest.raises(Disagreed):
        _agree(b, lambda value: True if value else 1)
    assert watch.disagreed
    b, watch = blend(0, 1)
    assert _agree(b, lambda value: 1) == 1 and not watch.disagreed


def test_two_blends_always_disagree() -> None:
    b, watch = blend(2, 3)
    c = Blend([named(2), named(3)], watch)
    with pytest.raises(Disagreed):
        _ = b == c
    assert watch.disagreed


def test_a_run_that_swallows_disagreements_finishes_and_is_marked() -> None:
    b, watch = blend(2, 3)
    for _ in range(SIGNALS):
        with contextlib.suppress(BaseException):  # a spec's bare except
            _ = b == 2
    assert b == 2  # past SIGNALS the first value's result, without raising
    assert watch.disagreed


def test_blend_cards_only_for_classes_of_named_probe_cards() -> None:
    plan = ProbePlan.of(standard_deck())
    assert plan is not None
    by_rank, _ = plan.deck(frozenset({"rank"}))
    made = blend_card(by_rank.distinct()[:3])
    assert made is not None
    card, watch = made
    assert card.rank < 5 and type(card.rank).__name__ == "int" and not watch.disagreed
    assert blend_card(by_rank.distinct()[:1]) is None
    assert blend_card([1, 2, 3]) is None  # plain cards: no blend (type() would tell)
    both, _ = plan.deck(frozenset({"rank", "suit"}))
    assert blend_card(both.distinct()[:3]) is None  # plain field values, not names


# ---------------------------------------------------------------- in the evaluator


@generate
def swallows() -> Any:
    first = yield draw()
    try:
        high = first.rank > 2  # differs across a class of all ranks
    except BaseException:
        high = False
    del first  # the state keeps only the (swallowed) comparison
    yield draw()
    return high


@generate
def counts_fours() -> Any:
    count = 0
    for _ in range(3):
        card = yield draw()
        count += card.rank == 4
    return count


@generate
def keeps_rank() -> Any:
    first = yield draw()
    second = yield draw()
    return first.rank == second.rank


@generate
def hashes_rank() -> Any:
    seen: dict[int, int] = {}
    for _ in range(3):
        card = yield draw()
        seen[card.rank] = seen.get(card.rank, 0) + 1
    return max(seen.values())


@generate
def finishes_with_rank() -> Any:
    card = yield draw()
    if card.rank > 1:
        return card.rank
    return 0


@generate
def reads_type_name() -> Any:
    card = yield draw()
    other = yield draw()
    return (type(card.rank).__name__, card.rank < 4, other.rank == 4)


def _over(limit: int, card: Any) -> Any:
    return done("over") if card.rank > limit else fail()


def _swallowing(state: Any, card: Any) -> Any:
    if state is not None:
        return done(state)
    try:
        return card.rank > 2  # differs across a class of all ranks
    except BaseException:
        return False


def _total(state: int, card: Any) -> Any:
    total = state + (card.rank == 4) * 10 + (card.rank > 2)
    return done(total) if total >= 12 else total


SPECS: dict[str, Spec[Any]] = {
    "swallows the disagreement": swallows(),
    "counts fours": counts_fours(),
    "keeps the rank": keeps_rank(),
    "hashes the rank": hashes_rank(),
    "finishes with the rank": finishes_with_rank(),
    "reads the type's name": reads_type_name(),
    "a loop comparing with a bound": loop(2, _over),
    "a loop swallowing the disagreement": loop(None, _swallowing),
    "a loop adding what it sees": loop(0, _total),
}


@pytest.mark.parametrize("name", sorted(SPECS))
def test_answers_equal_the_real_cards_and_brute_force(name: str) -> None:
    spec = SPECS[name]
    assert chances(spec, DECK) == chances(spec, DECK, probe=False) == brute_force(spec, DECK)


def test_the_blend_is_what_checks_the_class(monkeypatch: pytest.MonkeyPatch) -> None:
    """The aces-style generator is checked by blends: card by card only once, when the
    first class (all ranks) splits into the fours and the rest."""
    calls: list[int] = []
    original = exact._check_class

    def counted(*args: Any) -> None:
        calls.append(1)
        original(*args)

    monkeypatch.setattr(exact, "_check_class", counted)
    assert chances(counts_fours(), DECK) == brute_force(counts_fours(), DECK)
    assert len(calls) == 1


@settings(max_examples=60, deadline=None)
@given(
    threshold=st.integers(0, 5),
    weight=st.integers(-2, 2),
    swallow=st.booleans(),
    draws=st.integers(1, 3),
)
def test_generated_generators_agree(threshold: int, weight: int, swallow: bool, draws: int) -> None:
    @generate
    def spec() -> Any:
        score = 0
        for _ in range(draws):
            card = yield draw()
            try:
                score += weight * (card.rank >= threshold)
            except BaseException:
                if not swallow:
                    raise
        return score

    s = spec()
    assert chances(s, DECK) == chances(s, DECK, probe=False) == brute_force(s, DECK)


SMALL = Cards([P(rank, "x") for rank in range(1, 5)] + [P(2, "y")])

# Uses of the rank that a blend can often work out for a whole class (results that
# agree), mixed with ones that never agree; the state keeps only what they give.
RANK_USES: list[Callable[[Any, int], Any]] = [
    lambda r, k: r == k,
    lambda r, k: r < k,
    lambda r, k: r >= k,
    lambda r, k: r in (k, k + 1),
    lambda r, k: min(r, k),
    lambda r, k: max(r, k) == k,
    lambda r, k: r // (k + 1),
    lambda r, k: r % 2 == k % 2,
    lambda r, k: abs(r - k) > 1,
    lambda r, k: bool(r) and r != k,
    lambda r, k: {1: "a", 2: "b"}.get(r, "?"),
    lambda r, k: str(r) == str(k),
    lambda r, k: (r > k) + 0.0,
    lambda r, k: 1 if r > k else True,  # equal to Python, not to a strict key (the repr tells)
]


@settings(max_examples=80, deadline=None)
@given(
    uses=st.lists(st.tuples(st.integers(0, len(RANK_USES) - 1), st.integers(0, 5)), min_size=1, max_size=3),
    draws=st.integers(1, 3),
    as_loop=st.booleans(),
)
def test_generated_rank_uses_agree(uses: list[tuple[int, int]], draws: int, as_loop: bool) -> None:
    def seen(rank: Any) -> tuple[Any, ...]:
        return tuple(RANK_USES[i](rank, k) for i, k in uses)

    if as_loop:
        def step(state: tuple[int, tuple[Any, ...]], card: Any) -> Any:
            left, acc = state
            acc = acc + seen(card.rank)
            return done(repr(acc)) if left == 1 else (left - 1, acc)  # repr: 1 is not True

        spec: Spec[Any] = loop((draws, ()), step)
    else:
        @generate
        def gen() -> Any:
            acc: tuple[Any, ...] = ()
            for _ in range(draws):
                card = yield draw()
                acc = acc + seen(card.rank)
            return repr(acc)

        spec = gen()
    assert chances(spec, SMALL) == chances(spec, SMALL, probe=False) == brute_force(spec, SMALL)
