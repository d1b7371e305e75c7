"""Equilibria: pure Nash profiles against every labelled profile on the automaton route, best-reply
cycles step by step, and the zero-sum strategies' guarantees checked exactly."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from drawdsl import InvalidArgument
from games import penney
from games.penney.equilibria import payoff_matrix, pure_equilibria, zero_sum


def labelled_equilibria(
    players: int, length: int, alphabet: str, weights: list[int] | None
) -> set[tuple[str, ...]]:
    """Every ordered profile (player i holds profile[i]) where no player gains by switching to a
    free pattern, from races on the automaton route; returned as sorted sets."""
    words = penney.all_patterns(length, alphabet)
    memo: dict[tuple[str, ...], dict[str, Fraction]] = {}

    def payoff(profile: tuple[str, ...], player: int) -> Fraction:
        if profile not in memo:
            memo[profile] = penney.odds(*profile, alphabet=alphabet, weights=weights, method="automaton").wins
        return memo[profile][profile[player]]

    found = set()
    for profile in itertools.permutations(words, players):
        stable = all(
            payoff(profile[:i] + (b,) + profile[i + 1:], i) <= payoff(profile, i)
            for i in range(players) for b in words if b not in profile
        )
        if stable:
            found.add(tuple(sorted(profile)))
    return found


@pytest.mark.parametrize(
    ("players", "length", "alphabet", "weights"),
    [(2, 2, "HT", None), (2, 3, "HT", None), (3, 2, "HT", None), (2, 2, "HT", [2, 1]),
     (2, 3, "HT", [3, 1]), (3, 3, "HT", None), (2, 1, "012", [1, 1, 2]), (2, 2, "012", None)],
)
def test_pure_equilibria_match_every_labelled_profile(
    players: int, length: int, alphabet: str, weights: list[int] | None
) -> None:
    found = pure_equilibria(players, length, alphabet, weights)
    assert set(found.equilibria) == labelled_equilibria(players, length, alphabet, weights)
    # Best-reply cycles: each step is one player switching to a best reply, and it closes.
    for cycle in found.cycles:
        assert len(set(cycle)) == len(cycle) > 1
        for here, there in zip(cycle, cycle[1:] + cycle[:1], strict=True):
            (left,) = set(here) - set(there)
            (came,) = set(there) - set(here)
            others = tuple(p for p in here if p != left)
            top = max(found.payoffs[tuple(sorted((*others, b)))][b]
                      for b in penney.all_patterns(length, alphabet) if b not in others)
            assert found.payoffs[there][came] == top > found.payoffs[here][left]
    if not found.equilibria:
        assert found.cycles  # a finite game without a pure equilibrium must cycle


def test_two_players_on_a_coin_have_an_equilibrium_only_at_length_2() -> None:
    assert pure_equilibria(2, 2).equilibria == (("HT", "TH"),)
    for n in (3, 4, 5):
        found = pure_equilibria(2, n)
        assert found.equilibria == ()
        # The classic chase of best replies, as sets of the two players' patterns.
        assert len(found.cycles) == 1
    classic = pure_equilibria(2, 3).cycles[0]
    assert {p for profile in classic for p in profile} == {"HHT", "THH", "TTH", "HTT"}


@pytest.mark.parametrize(
    ("length", "alphabet", "weights", "column_length"),
    [(2, "HT", None, None), (3, "HT", None, None), (4, "HT", None, None), (3, "HT", [2, 1], None),
     (1, "012", [1, 2, 3], None), (2, "HT", None, 3), (1, "HT", [1, 2], 2)],
)
def test_zero_sum_strategies_guarantee_the_value_exactly(
    length: int, alphabet: str, weights: list[int] | None, column_length: int | None
) -> None:
    game = zero_sum(length, alphabet, weights, column_length)
    rows, columns, payoff = game.rows, game.columns, game.payoff
    x = [game.strategy.get(p, Fraction(0)) for p in rows]
    y = [game.column_strategy.get(p, Fraction(0)) for p in columns]
    assert sum(x) == sum(y) == 1 and min(x) >= 0 and min(y) >= 0
    # The certificate: the row mix wins at least the value against every column, and the
    # column mix concedes at most the value against every row; so the value is the game's.
    assert min(sum(x[i] * payoff[i][j] for i in range(len(rows))) for j in range(len(columns))) == game.value
    assert max(sum(y[j] * payoff[i][j] for j in range(len(columns))) for i in range(len(rows))) == game.value
    if column_length is None:
        assert game.value == Fraction(1, 2)  # a symmetric game


def test_payoff_matrix_matches_the_automaton_route() -> None:
    rows, columns, payoff = payoff_matrix(3)
    for i, a in enumerate(rows):
        for j, b in enumerate(columns):
            expected = Fraction(1, 2) if a == b else penney.odds(a, b, method="automaton").wins[a]
            assert payoff[i][j] == expected
    rows, columns, payoff = payoff_matrix(1, column_length=2)
    assert payoff[rows.index("H")][columns.index("TT")] == Fraction(3, 4)


def test_bad_input_is_refused() -> None:
    with pytest.raises(InvalidArgument, match="players must be at least 2"):
        pure_equilibria(1, 3)
    with pytest.raises(InvalidArgument, match="has only 4; choose a longer length"):
        pure_equilibria(5, 2)
    with pytest.raises(InvalidArgument, match="column_length must be >= 1"):
        zero_sum(2, column_length=0)
    with pytest.raises(InvalidArgument, match="repeats"):
        zero_sum(2, alphabet="HH")
