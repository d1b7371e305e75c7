"""The bench's hand-written references against a brute force over every deal of small decks.

A bench row is only honest if its peer answers the same question: each reference is
checked here on decks small enough to enumerate, and the runner compares it with
ours at full size in every run.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from fractions import Fraction

import pytest
from test_renaming_blind_loops import no_adjacent

from bench.reference import (
    ace_within_formula,
    flush_formula,
    longest_suit_run_forward,
    longest_suit_run_packed,
    no_adjacent_rank_counts_of_counts,
    no_adjacent_rank_inclusion_exclusion,
    no_adjacent_rank_packed,
    penney_conway,
    poker_brute_force,
    poker_formula,
    rbr_forward,
    rbr_recursion,
    shared_rank_product,
    war_sweep_counts_of_counts,
    war_sweep_inclusion_exclusion,
    war_sweep_packed,
)
from drawdsl import Cards, chance, loop
from games.war import sweep_probability

DECKS = [(2, 2), (3, 2), (2, 4), (4, 2), (3, 4), (5, 2), (2, 3), (3, 3)]


def deals(ranks: int, suits: int) -> list[tuple[int, ...]]:
    """Every distinct order of ``suits`` cards of each of ``ranks`` ranks."""
    found: list[tuple[int, ...]] = []

    def extend(prefix: list[int], left: list[int]) -> None:
        if not any(left):
            found.append(tuple(prefix))
            return
        for rank, n in enumerate(left):
            if n:
                left[rank] -= 1
                prefix.append(rank)
                extend(prefix, left)
                prefix.pop()
                left[rank] += 1

    extend([], [suits] * ranks)
    return found


WAR_METHODS = [war_sweep_counts_of_counts, war_sweep_packed, war_sweep_inclusion_exclusion]
NO_ADJACENT_METHODS = [
    no_adjacent_rank_counts_of_counts, no_adjacent_rank_packed, no_adjacent_rank_inclusion_exclusion,
]


@pytest.mark.parametrize("method", WAR_METHODS)
@pytest.mark.parametrize(("ranks", "suits"), [d for d in DECKS if d[0] * d[1] % 2 == 0])
def test_war_sweep(method: Callable[[int, int], Fraction], ranks: int, suits: int) -> None:
    every = deals(ranks, suits)
    wins = sum(all(d[2 * t] > d[2 * t + 1] for t in range(len(d) // 2)) for d in every)
    assert method(ranks, suits) == Fraction(wins, len(every))


def test_war_sweep_methods_agree_with_the_game_module() -> None:
    assert {method(13, 4) for method in WAR_METHODS} == {sweep_probability(13, 4)}


@pytest.mark.parametrize(("ranks", "suits"), [(26, 4), (9, 6), (7, 6), (1, 2), (9, 2)])
def test_war_sweep_methods_agree_at_size(ranks: int, suits: int) -> None:
    answers = {method(ranks, suits) for method in WAR_METHODS}
    assert len(answers) == 1
    assert answers != {Fraction(0)} or ranks == 1  # one rank: every turn ties


@pytest.mark.parametrize("method", NO_ADJACENT_METHODS)
@pytest.mark.parametrize(("ranks", "suits"), [*DECKS, (4, 1), (1, 1), (1, 2)])
def test_no_adjacent_rank(method: Callable[[int, int], Fraction], ranks: int, suits: int) -> None:
    every = deals(ranks, suits)
    good = sum(all(a != b for a, b in itertools.pairwise(d)) for d in every)
    assert method(ranks, suits) == Fraction(good, len(every))


@pytest.mark.parametrize(("ranks", "suits"), [(13, 4), (8, 5), (20, 3)])
def test_no_adjacent_methods_agree_at_size(ranks: int, suits: int) -> None:
    answers = {method(ranks, suits) for method in NO_ADJACENT_METHODS}
    assert len(answers) == 1 and answers != {Fraction(0)}


@pytest.mark.parametrize(("ranks", "suits"), DECKS)
def test_shared_rank(ranks: int, suits: int) -> None:
    every = deals(ranks, suits)
    tally: dict[str, Fraction] = {}
    for d in every:
        seen: set[int] = set()
        for i, rank in enumerate(d):
            if rank in seen:
                tally[str(i + 1)] = tally.get(str(i + 1), Fraction(0)) + Fraction(1, len(every))
                break
            seen.add(rank)
    assert shared_rank_product(ranks, suits) == tally


@pytest.mark.parametrize(("suits", "per_suit"), DECKS)
def test_longest_suit_run(suits: int, per_suit: int) -> None:
    every = deals(suits, per_suit)
    for cards in range(1, suits * per_suit + 1):
        tally: dict[str, Fraction] = {}
        for d in every:
            best = run = 0
            last = None
            for suit in d[:cards]:
                run = run + 1 if suit == last else 1
                best = max(best, run)
                last = suit
            tally[str(best)] = tally.get(str(best), Fraction(0)) + Fraction(1, len(every))
        assert longest_suit_run_forward(cards, suits, per_suit) == tally
        assert longest_suit_run_packed(cards, suits, per_suit) == tally


# The draw programs against the closed forms, at sizes no brute force reaches: an
# independent check of the evaluator (the symmetric shapes, pairs and renamed heads).


@pytest.mark.parametrize(("ranks", "suits"), [(13, 4), (8, 5), (20, 3), (6, 7), (30, 2)])
def test_no_adjacent_draw_program_agrees_with_the_closed_form(ranks: int, suits: int) -> None:
    deck = Cards({f"r{rank}": suits for rank in range(ranks)})
    assert chance(loop((ranks * suits, None), no_adjacent), deck) == (
        no_adjacent_rank_inclusion_exclusion(ranks, suits)
    )


@pytest.mark.parametrize(("ranks", "suits"), [(13, 6), (20, 4), (5, 10), (40, 2)])
def test_war_sweep_draw_program_agrees_with_the_closed_form(ranks: int, suits: int) -> None:
    assert sweep_probability(ranks, suits) == war_sweep_inclusion_exclusion(ranks, suits)


# The closed forms and the forward pass of rows 1 to 4 and 12.


@pytest.mark.parametrize(
    ("aces", "others", "within"), [(1, 2, 1), (2, 3, 2), (2, 2, 3), (1, 4, 5), (3, 1, 2)]
)
def test_ace_within_formula(aces: int, others: int, within: int) -> None:
    every = list(itertools.permutations(["A"] * aces + ["x"] * others))
    hits = sum("A" in d[:within] for d in every)
    assert ace_within_formula(aces, others, within) == Fraction(hits, len(every))


@pytest.mark.parametrize(
    ("suits", "per_suit", "hand"), [(2, 3, 2), (3, 2, 2), (2, 3, 3), (3, 3, 3), (4, 2, 2)]
)
def test_flush_formula(suits: int, per_suit: int, hand: int) -> None:
    every = list(itertools.combinations([s for s in range(suits) for _ in range(per_suit)], hand))
    assert flush_formula(suits, per_suit, hand) == Fraction(sum(len(set(h)) == 1 for h in every), len(every))


def test_poker_formula_is_the_brute_force() -> None:
    assert poker_formula() == poker_brute_force()


@pytest.mark.parametrize(("reds", "blacks"), [(2, 1), (2, 2), (3, 2), (2, 4), (4, 3), (0, 3), (3, 0)])
def test_rbr_forward(reds: int, blacks: int) -> None:
    every = set(itertools.permutations("R" * reds + "B" * blacks))
    tally: dict[str, Fraction] = {}
    for d in every:
        text = "".join(d)
        key = str(text.index("RBR") + 3) if "RBR" in text else "never"
        tally[key] = tally.get(key, Fraction(0)) + Fraction(1, len(every))
    assert rbr_forward(reds, blacks) == tally
    assert rbr_forward(reds, blacks) == rbr_recursion(reds, blacks)


def test_rbr_forward_agrees_with_the_recursion_on_the_full_deck() -> None:
    assert rbr_forward(26, 26) == rbr_recursion(26, 26)


def test_conway_agrees_with_the_draw_program() -> None:
    from bench.ours import penney_all_pairs

    assert penney_conway() == penney_all_pairs()
