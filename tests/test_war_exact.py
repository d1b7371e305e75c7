"""Exact full-game War on small decks: the lazy program, the literal program and brute force
agree; probabilities sum to 1; the simulator agrees within 5 sigma."""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction
from itertools import permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from drawdsl import Distribution, InvalidArgument, chances
from games.war import Rules, deal_hands, deck, exact_game, exact_outcomes, game_spec, literal_spec, play_game
from games.war import preset as war_preset
from games.war.simulate import simulate

VARIANTS = [
    war_preset("standard"),
    war_preset("three-down"),
    war_preset("no-face-down"),
    war_preset("rblog"),
    Rules(short_war="available", gather="loser_first"),
    Rules(short_war="lose", deuce_beats_ace="always", gather="as_played"),
    Rules(face_down=2, short_war="b_takes", deuce_beats_ace="battles"),
]


def multiset_orderings(cards: list[int]) -> list[tuple[int, ...]]:
    """Every distinct ordering of a small multiset (equally likely deals)."""
    counts = Counter(cards)
    out: list[tuple[int, ...]] = []
    prefix: list[int] = []

    def extend(left: int) -> None:
        if not left:
            out.append(tuple(prefix))
            return
        for card in sorted(counts):
            if counts[card]:
                counts[card] -= 1
                prefix.append(card)
                extend(left - 1)
                prefix.pop()
                counts[card] += 1

    extend(len(cards))
    return out


def brute_force(ranks: int, suits: int, rules: Rules) -> dict[tuple[str, int | None], Fraction]:
    """Play every deal with the engine and count."""
    cards = [r for r in range(2, ranks + 2) for _ in range(suits)]
    deals = multiset_orderings(cards)
    tally: Counter[tuple[str, int | None]] = Counter()
    for deal in deals:
        game = play_game(*deal_hands(deal), rules, top=ranks + 1)
        tally[(game.winner, None if game.winner == "cycle" else game.battles)] += 1
    return {k: Fraction(v, len(deals)) for k, v in tally.items()}


def test_orderings_helper_against_itertools() -> None:
    cards = [2, 2, 3, 4]
    assert sorted(multiset_orderings(cards)) == sorted(set(permutations(cards)))


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: r.describe()[:40])
@pytest.mark.parametrize(("ranks", "suits"), [(2, 2), (3, 2), (2, 4), (4, 2)])
def test_lazy_and_literal_programs_equal_brute_force(ranks: int, suits: int, rules: Rules) -> None:
    cards = deck(ranks, suits)
    expected = brute_force(ranks, suits, rules)
    assert dict(exact_outcomes(ranks, suits, rules)) == expected
    assert dict(chances(literal_spec(cards, rules), cards)) == expected


def test_three_ranks_four_suits_against_brute_force() -> None:
    expected = brute_force(3, 4, war_preset("standard"))
    result = exact_game(3, 4)
    assert dict(result.outcomes) == expected
    assert result.p_first_wins == result.p_second_wins == Fraction(53, 110)
    assert result.p_tie == Fraction(2, 55) and result.p_cycle == 0
    assert result.mean_battles == Fraction(23326, 3465)


def test_endless_games_on_four_ranks() -> None:
    result = exact_game(4, 2)
    assert result.p_cycle == Fraction(1, 36)
    assert dict(result.outcomes) == brute_force(4, 2, war_preset("standard"))
    assert sum(result.battles.values()) + result.p_cycle == 1


def test_cap_with_cycle_detection_uses_the_whole_history() -> None:
    rules = Rules(max_battles=6)  # endless games repeating within 6 battles count as cycles
    assert dict(exact_outcomes(4, 2, rules)) == brute_force(4, 2, rules)
    with pytest.raises(InvalidArgument, match="literal_spec"):
        game_spec(deck(4, 2), rules)


def test_shuffled_returns_are_refused() -> None:
    with pytest.raises(InvalidArgument, match="fixed gather order"):
        exact_game(2, 2, Rules(gather="shuffled", detect_cycles=False, max_battles=100))


RULES = st.builds(
    Rules,
    face_down=st.integers(0, 3),
    deuce_beats_ace=st.sampled_from(["never", "battles", "always"]),
    gather=st.sampled_from(["winner_first", "loser_first", "as_played"]),
    short_war=st.sampled_from(["lose", "last_card", "available", "b_takes"]),
)


@settings(max_examples=30)
@given(RULES, st.sampled_from([(2, 2), (3, 2), (2, 4), (4, 2), (2, 6)]))
def test_probabilities_sum_to_one_and_mirror(rules: Rules, shape: tuple[int, int]) -> None:
    result = exact_game(*shape, rules)
    total = result.p_first_wins + result.p_second_wins + result.p_tie + result.p_cycle + result.p_capped
    assert total == 1 and result.outcomes.failure == 0
    assert sum(result.battles.values()) == result.p_first_wins + result.p_second_wins + result.p_tie
    if rules.gather != "as_played" and rules.short_war != "b_takes":  # the rules treat A and B alike
        assert result.p_first_wins == result.p_second_wins


def five_sigma(p: float, n: int) -> float:
    return 5 * math.sqrt(max(p * (1 - p), 1e-12) / n) + 1e-9


@pytest.mark.parametrize("name", ["standard", "rblog"])
def test_simulator_agrees_with_the_exact_answer(name: str) -> None:
    rules = war_preset(name)
    exact = exact_game(3, 4, rules)
    n = 20_000
    table = simulate(n, rules, seed=11, ranks=3, suits=4)
    for outcome in ("A", "B", "tie", "cycle", "capped"):
        p = float(exact.p(outcome))
        assert abs(table.count(outcome) / n - p) <= five_sigma(p, n), outcome
    law: Distribution[int] = Distribution(exact.battles, failure=1 - sum(exact.battles.values()))
    finished = table.winner_code <= 2
    mean = float(exact.mean_battles or 0)
    var = float(law.given_success().expectation(lambda k: (k - exact.mean_battles) ** 2))  # type: ignore[operator]
    assert abs(table.battles[finished].mean() - mean) <= 5 * math.sqrt(var / int(finished.sum()))
    for k in (1, 2, 5):
        p = float(exact.battles.get(k, 0))
        assert abs(float((table.battles[finished] == k).sum()) / n - p) <= five_sigma(p, n)
