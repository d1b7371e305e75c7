"""The symmetric evaluator's inner loop over a loop head that holds cards: each kind of
move for the cards held and for the free ones (go on, finish, fail, a held card let
go), and the state limit told where either kind of draw passes it.

The steps below hold the last rank played or the first ranks seen; on decks of eight
distinct cards or more the step is proven blind to renamings before the evaluation
starts and the decks are evaluated as shapes (:mod:`drawdsl.shapes`), checked here
against the evaluation without the symmetry, and on small decks against every
ordering.
"""

from __future__ import annotations

from typing import Any

import pytest
from oracle import brute_force
from test_renaming_blind_loops import no_adjacent  # the last rank again fails

from drawdsl import Cards, chances, done, fail, loop
from drawdsl.errors import StateLimitExceeded


def until_the_last_again(state: tuple[int, Any], card: Any) -> Any:
    """The last rank again finishes with the cards left; another goes on."""
    left, previous = state
    if card == previous:
        return done(left)
    return done(0) if left == 1 else (left - 1, card)


class TwoRanks:
    """Draw while the cards are of the first two ranks seen; another rank finishes, or
    fails when ``fails`` (a callable object: the bytecode proof reads its method)."""

    def __init__(self, fails: bool) -> None:
        self.fails = fails

    def __call__(self, state: tuple[Any, Any], card: Any) -> Any:
        a, b = state
        if a is None:
            return (card, None)
        if b is None:
            return (a, card) if card != a else (a, None)
        if card in (a, b):
            return state
        return fail() if self.fails else done(True)


two_ranks, two_ranks_or_fail = TwoRanks(fails=False), TwoRanks(fails=True)


def the_first_again_forgets(state: tuple[Any, Any], card: Any) -> Any:
    """Hold the first rank and the last other one; the first rank again forgets the
    other (a pinned card let go by a pinned draw); a third rank finishes."""
    a, b = state
    if a is None:
        return (card, None)
    if card == a:
        return (a, None)
    if b is None or card == b:
        return (a, card)
    return done(False)


STEPS = [no_adjacent, until_the_last_again, two_ranks, two_ranks_or_fail, the_first_again_forgets]


def _spec(step: Any, deck: Cards[Any]) -> Any:
    held = (two_ranks, two_ranks_or_fail, the_first_again_forgets)
    return loop((None, None) if step in held else (len(deck), None), step)


@pytest.mark.parametrize("step", STEPS)
@pytest.mark.parametrize("counts", [(2,) * 8, (3, 2, 2, 1, 1, 1, 1, 1), (4, 4, 3, 1, 1, 1, 1, 1, 1)])
def test_agrees_with_the_evaluation_without_symmetry(step: Any, counts: tuple[int, ...]) -> None:
    deck = Cards({f"r{i}": c for i, c in enumerate(counts)})
    spec = _spec(step, deck)
    found = chances(spec, deck)
    plain = chances(spec, deck, symmetric=False)
    assert found == plain
    assert found.expected_draws == plain.expected_draws


@pytest.mark.parametrize("step", STEPS)
@pytest.mark.parametrize("counts", [(2, 2, 2), (3, 2, 1), (2, 2, 1, 1)])
def test_small_decks_agree_with_every_ordering(step: Any, counts: tuple[int, ...]) -> None:
    deck = Cards({f"r{i}": c for i, c in enumerate(counts)})
    assert chances(_spec(step, deck), deck) == brute_force(_spec(step, deck), deck)


@pytest.mark.parametrize("max_states", [3, 4, 5])
def test_the_state_limit_where_pinned_draws_go_on(max_states: int) -> None:
    """Only draws of the two ranks held go on: the limit is passed by those moves."""
    deck = Cards({f"r{i}": 6 for i in range(8)})
    spec = loop((None, None), two_ranks)
    with pytest.raises(
        StateLimitExceeded,
        match=rf"reached {max_states + 1} live states at draw {max_states + 1}, over max_states={max_states}",
    ):
        chances(spec, deck, max_states=max_states)
    assert chances(spec, deck, max_states=12) == chances(spec, deck, symmetric=False)


def test_the_state_limit_where_free_draws_go_on() -> None:
    deck = Cards({f"r{i}": 4 for i in range(13)})
    with pytest.raises(StateLimitExceeded, match=r"reached 51 live states at draw 10, over max_states=50"):
        chances(loop((52, None), no_adjacent), deck, max_states=50)
