"""War sweep: the fast answer agrees with the literal program, brute force and a formula."""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction
from math import comb, prod
from typing import Any

import pytest
from oracle import brute_force
from test_symmetry import TieFreeTurns

from drawdsl import Cards, InvalidArgument, chance, loop
from drawdsl.exact import _evaluate_deck
from drawdsl.reductions import prove_symmetry
from games import war


@pytest.mark.parametrize(
    ("ranks", "suits", "expected"),
    [(2, 2, Fraction(1, 6)), (3, 2, Fraction(1, 15)), (4, 2, Fraction(1, 28))],
)
def test_published_small_decks(ranks: int, suits: int, expected: Fraction) -> None:
    assert war.sweep_probability(ranks, suits) == expected


@pytest.mark.parametrize(("ranks", "suits"), [(2, 2), (3, 2), (2, 4), (4, 2), (1, 4), (8, 1)])
def test_sweep_equals_brute_force_of_the_literal_program(ranks: int, suits: int) -> None:
    deck = war.deck(ranks, suits)
    turns = len(deck) // 2
    assert brute_force(war.sweep_spec(turns), deck).success == war.sweep_probability(ranks, suits)
    assert brute_force(war.tie_free_spec(turns), deck).success == war.no_tie_probability(ranks, suits)


@pytest.mark.parametrize(("ranks", "suits"), [(3, 4), (5, 2), (4, 3)])
def test_sweep_equals_the_literal_program_on_larger_decks(ranks: int, suits: int) -> None:
    deck = war.deck(ranks, suits)
    assert chance(war.sweep_spec(len(deck) // 2), deck) == war.sweep_probability(ranks, suits)


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5])
def test_distinct_cards_sweep_is_a_coin_per_turn(n: int) -> None:
    """2N distinct cards: every turn is a fair coin, so P(sweep) = (1/2)^N."""
    assert war.sweep_probability(ranks=2 * n, suits=1) == Fraction(1, 2**n)


def _double_factorial_odd(n: int) -> int:
    """(2n-1)!! = the number of perfect matchings of 2n items."""
    return prod(range(1, 2 * n, 2))


def no_tie_by_inclusion_exclusion(ranks: int, suits: int) -> Fraction:
    """Independent method: a deal's turns pair the cards by a uniform perfect matching;
    count matchings with no same-rank pair by inclusion-exclusion over same-rank pairs."""
    # ways[j]: ways to pick j disjoint same-rank pairs within one rank of `suits` cards
    ways = [comb(suits, 2 * j) * _double_factorial_odd(j) for j in range(suits // 2 + 1)]
    poly = [1]
    for _ in range(ranks):
        poly = [
            sum(poly[i] * ways[k - i] for i in range(len(poly)) if 0 <= k - i < len(ways))
            for k in range(len(poly) + len(ways) - 1)
        ]
    half = ranks * suits // 2
    total = sum((-1) ** k * c * _double_factorial_odd(half - k) for k, c in enumerate(poly))
    return Fraction(total, _double_factorial_odd(half))


@pytest.mark.parametrize(("ranks", "suits"), [(2, 2), (3, 2), (4, 4), (13, 4), (13, 2), (6, 3)])
def test_no_tie_agrees_with_inclusion_exclusion(ranks: int, suits: int) -> None:
    assert war.no_tie_probability(ranks, suits) == no_tie_by_inclusion_exclusion(ranks, suits)


def test_the_52_card_answer() -> None:
    p = war.sweep_probability()
    assert p == no_tie_by_inclusion_exclusion(13, 4) / 2**26
    assert round(1 / float(p)) == 319_240_343
    assert war.games_per_sweep() == 1 / (2 * p)


def test_odd_decks_are_refused() -> None:
    with pytest.raises(InvalidArgument, match="two equal piles"):
        war.deck(3, 1)


def test_symmetry_does_not_change_the_literal_answer_on_unmapped_cards() -> None:
    deck = Cards({(rank, suit): 1 for rank in range(3) for suit in "xy"}).map(lambda card: card[0])
    assert chance(war.tie_free_spec(3), deck, symmetric=True) == chance(war.tie_free_spec(3), deck)


class _CountedTieFree(TieFreeTurns):
    """The tie-free turns with a call counter (cards are rank names, so the turn number
    in the state never equals a card)."""

    def __init__(self, turns: int) -> None:
        super().__init__(turns)
        self.calls = 0

    def __call__(self, state: tuple[int, Any], card: Any) -> Any:
        self.calls += 1
        return super().__call__(state, card)


def test_the_52_card_sweep_asks_each_turn_a_few_cards() -> None:
    """What keeps the 52-card answer fast: once the symmetry is proven, the evaluator asks
    the step once per draw, state and card, and reads every class of free cards as one
    card.  So A's card is asked once per turn, and B's card twice (the pinned rank: a
    tie; any other).  The graph proof asks each of the graph's states every card; the
    traced runs (drawdsl.atoms) that show the symmetry instead ask each of those
    3 * 26 questions twice more (the card again, watching for errors, then an atom)."""
    step = _CountedTieFree(26)
    deck = war.deck(13, 4).map(str)
    spec = loop((0, None), step)
    proof = prove_symmetry(spec, deck.distinct(), len(deck))
    assert proof.proven and proof.states == 26 + 26 * 13
    step.calls = 0
    assert _evaluate_deck(spec, deck, 10**6, 52, True, None).success == war.no_tie_probability()
    assert step.calls == 3 * 26
    step.calls = 0
    assert chance(spec, deck) == war.no_tie_probability()
    # A plain start (stopped at ESCALATE_AT states), then the symmetric evaluation with
    # its traced runs: no graph (its 364 states asked all 13 cards would be 4,732 calls).
    assert 3 * 3 * 26 < step.calls < 3 * 3 * 26 + 300  # the plain start: about 210 calls


def test_cli_war_sweep_json(capsys: pytest.CaptureFixture[str]) -> None:
    from drawdsl.cli import main

    assert main(["war", "sweep", "--ranks", "3", "--suits", "2", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["probability"] == "1/15"
    assert Fraction(data["no_tie_probability"]) == war.no_tie_probability(3, 2)
    assert data["games_per_sweep"] == pytest.approx(7.5)


def test_cli_war_sweep_text_has_the_exact_fraction(capsys: pytest.CaptureFixture[str]) -> None:
    from drawdsl.cli import main

    assert main(["war", "sweep"]) == 0
    out = capsys.readouterr().out
    p = war.sweep_probability()
    assert f"{p.numerator}/{p.denominator}" in out
    assert "one in 319,240,343 games" in out


@pytest.mark.parametrize(
    "argv",
    [["war", "sweep", "--ranks", "0"], ["war", "sweep", "--suits", "x"], ["war", "sweep", "--ranks", "3",
     "--suits", "1"], ["war"], ["war", "nonsense"]],
)
def test_cli_war_bad_arguments_exit_2_with_one_line(argv: list[str]) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "drawdsl", *argv], capture_output=True, text=True, check=False
    )
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    if argv != ["war"]:
        assert len(proc.stderr.strip().splitlines()) == 1


def test_a_single_rank_never_sweeps() -> None:
    # Every turn ties: P(sweep) = 0, and the expected wait for a sweep never ends.
    assert war.sweep_probability(1, 2) == 0
    assert war.games_per_sweep(1, 2) == float("inf")
    out = subprocess.run(
        [sys.executable, "-m", "drawdsl", "war", "sweep", "--ranks", "1", "--suits", "2", "--json"],
        capture_output=True, text=True, check=True,
    )
    data = json.loads(out.stdout)
    assert data["probability"] == "0/1" and data["games_per_sweep"] is None


def test_the_26_rank_sweep_is_proven_and_agrees_with_counts_of_counts() -> None:
    """Its symmetry proof needs more spec calls than the old fixed budget allowed (so
    it used to stop at the state limit); the budget now grows with max_states."""
    from bench.reference import war_sweep_counts_of_counts

    assert war.sweep_probability(26, 4) == war_sweep_counts_of_counts(26, 4)


def test_the_52_rank_sweep_is_proven_at_the_third_try() -> None:
    """208 cards: the proof needs about 290,000 calls, more than a quarter of the default
    max_states; with half of it, the sweep is proven and exact (it used to stop at the limit)."""
    from bench.reference import war_sweep_counts_of_counts

    assert war.sweep_probability(52, 4) == war_sweep_counts_of_counts(52, 4)
