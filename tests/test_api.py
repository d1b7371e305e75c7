"""The public API behaves as documented: Distribution, Cards, Weighted, playing cards, Tally,
play/sample/simulate, and the ``drawdsl`` command line."""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
import sympy

import drawdsl
from drawdsl import (
    FAILED,
    JOKER,
    RANKS,
    SUITS,
    Card,
    Cards,
    Distribution,
    InvalidArgument,
    Tally,
    Weighted,
    chances,
    coin,
    die,
    done,
    draw,
    draw_count,
    draw_groups,
    draw_many,
    draw_until,
    draw_where,
    loop,
    play,
    replicate,
    sample,
    sequence,
    shoe,
    simulate,
    standard_deck,
)
from drawdsl.cli import main

ROOT = Path(__file__).resolve().parent.parent

F = Fraction
HALF = F(1, 2)
QUARTER = F(1, 4)


def partial() -> Distribution[str]:
    """{'a': 1/2, 'b': 1/4} with failure 1/4."""
    return Distribution({"a": HALF, "b": QUARTER}, failure=QUARTER)


# --------------------------------------------------------------------------- Distribution: construction


def test_distribution_accepts_complete_mass() -> None:
    dist = partial()
    assert dist["a"] == HALF and dist.failure == QUARTER and dist.success == F(3, 4)


@pytest.mark.parametrize(
    ("probs", "failure"),
    [({"a": HALF}, 0), ({"a": HALF, "b": HALF}, QUARTER), ({}, 0), ({"a": 1}, 1)],
)
def test_distribution_must_sum_to_one(probs: dict[str, Fraction], failure: Fraction) -> None:
    with pytest.raises(InvalidArgument, match=r"probabilities: outcomes and failure sum to .*not 1"):
        Distribution(probs, failure=failure)


@pytest.mark.parametrize("p", [0.5, True, "1/2"])
def test_distribution_rejects_inexact_probabilities(p: object) -> None:
    with pytest.raises(TypeError, match=r"probabilities: 'a' has .*int or Fraction"):
        Distribution({"a": p, "b": HALF})  # type: ignore[dict-item]


def test_distribution_rejects_negative_probability() -> None:
    with pytest.raises(InvalidArgument, match=r"'b' has negative probability"):
        Distribution({"a": F(3, 2), "b": -HALF})


def test_distribution_rejects_negative_failure() -> None:
    with pytest.raises(InvalidArgument, match=r"failure: must be >= 0"):
        Distribution({"a": F(3, 2)}, failure=-HALF)


def test_distribution_rejects_float_failure() -> None:
    with pytest.raises(TypeError, match=r"failure"):
        Distribution({"a": HALF}, failure=0.5)  # type: ignore[arg-type]


def test_distribution_drops_zero_outcomes() -> None:
    dist = Distribution({"a": 1, "b": 0})
    assert list(dist) == ["a"] and "b" not in dist


# --------------------------------------------------------------------------- Distribution: questions


def test_missing_outcome_has_probability_zero() -> None:
    dist = partial()
    assert dist["zzz"] == 0 and isinstance(dist["zzz"], Fraction)
    assert "zzz" not in dist and len(dist) == 2


def test_probability_without_predicate_is_success() -> None:
    assert partial().probability() == F(3, 4)


def test_probability_with_predicate() -> None:
    assert partial().probability(lambda v: v == "b") == QUARTER
    assert partial().probability(lambda v: False) == 0


def test_expectation() -> None:
    dist = Distribution({1: F(1, 3), 4: F(2, 3)})
    assert dist.expectation() == 3
    assert dist.expectation(lambda v: v * v) == F(1, 3) + F(32, 3)


def test_expectation_with_failure_points_to_given_success() -> None:
    dist = Distribution({2: HALF}, failure=HALF)
    with pytest.raises(InvalidArgument, match=r"expectation: .*probability 1/2.*given_success\(\)"):
        dist.expectation()
    assert dist.given_success().expectation() == 2


def test_expectation_rejects_float_values() -> None:
    with pytest.raises(TypeError, match=r"expectation: got the float"):
        Distribution({1: 1}).expectation(lambda v: v / 2)


@pytest.mark.parametrize(("outcomes", "f", "what"), [
    ({"a": 1}, None, r"the outcome is 'a' \(str\)"),
    ({("A", "K"): 1}, None, r"the outcome is \('A', 'K'\) \(tuple\)"),
    ({1: 1}, lambda v: str(v), r"f\(1\) is '1' \(str\)"),
    ({1: 1}, lambda v: None, r"f\(1\) is None \(NoneType\)"),
    ({1: 1}, lambda v: complex(v, 1), r"f\(1\) is \(1\+1j\) \(complex\)"),
])
def test_expectation_of_non_numbers_names_the_value_and_what_to_do(
    outcomes: dict[object, int], f: object, what: str
) -> None:
    with pytest.raises(TypeError, match=rf"expectation: {what}, not a number; .*pass f, such as"):
        Distribution(outcomes).expectation(f)  # type: ignore[arg-type]


def test_expectation_accepts_every_rational_number() -> None:
    import sympy

    dist = Distribution({"a": F(1, 4), "b": F(3, 4)})
    assert dist.expectation(lambda v: v == "a") == F(1, 4)
    assert dist.expectation(lambda v: sympy.Rational(1, 3) if v == "a" else 1) == F(1, 12) + F(3, 4)


def test_given_success() -> None:
    cond = partial().given_success()
    assert cond == Distribution({"a": F(2, 3), "b": F(1, 3)})
    assert cond.failure == 0


def test_given_success_of_certain_failure() -> None:
    with pytest.raises(InvalidArgument, match=r"given_success: the spec always fails"):
        Distribution({}, failure=1).given_success()


def test_map_merges_outcomes_and_keeps_failure() -> None:
    dist = Distribution({-1: QUARTER, 1: QUARTER, 2: QUARTER}, failure=QUARTER)
    assert dist.map(abs) == Distribution({1: HALF, 2: QUARTER}, failure=QUARTER)


def test_most_likely() -> None:
    dist = Distribution({"a": F(1, 6), "b": HALF, "c": F(1, 3)})
    assert dist.most_likely() == [("b", HALF)]
    assert dist.most_likely(2) == [("b", HALF), ("c", F(1, 3))]
    assert dist.most_likely(10) == [("b", HALF), ("c", F(1, 3)), ("a", F(1, 6))]
    with pytest.raises(InvalidArgument, match=r"most_likely: n must be a positive int"):
        dist.most_likely(0)


# --------------------------------------------------------------------------- Distribution: views


def test_to_sympy_gives_rationals() -> None:
    exact = partial().to_sympy()
    assert set(exact) == {"a", "b"}
    for outcome, value in exact.items():
        assert isinstance(value, sympy.Rational)
        assert (value.p, value.q) == (partial()[outcome].numerator, partial()[outcome].denominator)


def test_to_floats() -> None:
    floats = Distribution({"a": F(1, 3), "b": F(2, 3)}).to_floats()
    assert floats == {"a": pytest.approx(1 / 3), "b": pytest.approx(2 / 3)}
    assert all(type(v) is float for v in floats.values())


def test_repr() -> None:
    assert repr(partial()) == "Distribution({'a': 1/2, 'b': 1/4}, failure=1/4)"
    assert repr(Distribution({2: F(2, 3), 1: F(1, 3)})) == "Distribution({1: 1/3, 2: 2/3})"


def test_repr_latex() -> None:
    latex = partial()._repr_latex_()
    assert latex.startswith("$") and latex.endswith("$")
    assert r"\frac{1}{2}" in latex and r"\frac{1}{4}" in latex
    assert r"\text{failure}" in latex


def test_distribution_equality_and_hash() -> None:
    assert partial() == partial() and hash(partial()) == hash(partial())
    assert partial() != Distribution({"a": HALF, "b": HALF})
    assert Distribution({"a": 1}) != Distribution({"a": HALF}, failure=HALF)
    assert dict(partial()) == {"a": HALF, "b": QUARTER}


def test_chances_returns_a_distribution() -> None:
    dist: Distribution[str] = chances(draw_where(lambda c: c != "c"), Cards("aabc"))
    assert dist == partial()


# --------------------------------------------------------------------------- Cards


def test_cards_equality_ignores_order() -> None:
    assert Cards("aab") == Cards("aba") == Cards({"b": 1, "a": 2})
    assert Cards("aab") != Cards("ab")
    assert Cards("ab") != "ab"


def test_cards_equal_decks_hash_equal() -> None:
    assert hash(Cards("aab")) == hash(Cards({"b": 1, "a": 2}))
    assert len({Cards("aab"), Cards("baa"), Cards("ab")}) == 2


def test_cards_remove() -> None:
    deck = Cards("aab")
    assert deck.remove("a") == Cards("ab")
    assert deck.remove("a", 2) == Cards("b")
    assert "a" not in deck.remove("a", 2)
    assert deck == Cards("aab")  # immutable
    with pytest.raises(InvalidArgument, match=r"remove: the deck holds 1 of 'b', cannot remove 2"):
        deck.remove("b", 2)
    with pytest.raises(InvalidArgument, match=r"remove: n must be a non-negative int"):
        deck.remove("a", -1)


def test_cards_sub_and_add() -> None:
    assert Cards("aabc") - Cards("ab") == Cards("ac")
    assert Cards("aabc") - "ca" == Cards("ab")
    assert Cards("ab") + Cards("bc") == Cards({"a": 1, "b": 2, "c": 1})
    with pytest.raises(InvalidArgument, match=r"cannot remove 2"):
        Cards("ab") - Cards("aa")


def test_cards_map_merges_counts() -> None:
    deck = Cards({"AS": 2, "AH": 1, "KS": 3})
    assert deck.map(lambda card: card[0]) == Cards({"A": 3, "K": 3})
    assert deck.map(lambda card: card[1]).count("S") == 5


def test_cards_len_count_and_iteration() -> None:
    deck = Cards({"x": 3, "y": 1})
    assert len(deck) == deck.size == 4
    assert deck.count("x") == 3 and deck.count("z") == 0
    assert list(deck) == ["x", "x", "x", "y"]
    assert deck.distinct() == ("x", "y")
    assert Cards(list(deck)) == deck
    assert len(Cards()) == 0


# --------------------------------------------------------------------------- Weighted


def test_weighted_normalizes_to_smallest_integers() -> None:
    assert Weighted({"H": F(2, 3), "T": F(1, 3)}) == Weighted({"H": 2, "T": 1})
    assert Weighted({"H": 4, "T": 2}) == Weighted({"H": 2, "T": 1})
    assert Weighted({"H": 4, "T": 2}).total == 3


def test_weighted_from_iterable_and_probability() -> None:
    source = Weighted("aab")
    assert source.probability("a") == F(2, 3) and source.probability("z") == 0
    assert Weighted(range(1, 7)) == die(6)
    assert Weighted("123456") != die(6)  # str faces are not int faces
    assert coin(F(1, 3)).probability("T") == F(2, 3)


def test_chances_from_weighted_is_with_replacement() -> None:
    two = draw().bind(lambda a: draw().map(lambda b: a + b))
    assert chances(two, coin()) == Distribution({"HH": QUARTER, "HT": QUARTER, "TH": QUARTER, "TT": QUARTER})


# --------------------------------------------------------------------------- playing cards


def test_standard_deck_has_52_distinct_cards() -> None:
    deck = standard_deck()
    assert len(deck) == 52 and len(deck.distinct()) == 52
    assert set(deck.distinct()) == {Card(rank, suit) for rank in RANKS for suit in SUITS}


def test_shoe_counts() -> None:
    six = shoe(6)
    assert len(six) == 312
    assert all(six.count(card) == 6 for card in standard_deck().distinct())
    with pytest.raises(InvalidArgument, match=r"shoe: decks must be a positive int"):
        shoe(0)


def test_jokers() -> None:
    deck = standard_deck(jokers=2)
    assert len(deck) == 54 and deck.count(JOKER) == 2
    assert JOKER not in standard_deck()
    assert str(JOKER) == "**" and Card.parse("**") == JOKER
    with pytest.raises(InvalidArgument, match=r"jokers must be a non-negative int"):
        standard_deck(jokers=-1)


@pytest.mark.parametrize("card", standard_deck().distinct(), ids=str)
def test_card_parse_round_trips(card: Card) -> None:
    assert Card.parse(str(card)) == card
    assert Card.parse(str(card).lower()) == card


def test_card_str_and_parse_of_ten() -> None:
    assert str(Card(10, "H")) == "TH"
    assert Card.parse("10H") == Card(10, "H")


@pytest.mark.parametrize("text", ["", "A", "ZS", "1S", "AX", "11H", "ASS"])
def test_card_parse_rejects_garbage(text: str) -> None:
    with pytest.raises(InvalidArgument, match=r"Card.parse: cannot read"):
        Card.parse(text)


def test_card_parse_rejects_joker_rank_with_a_suit() -> None:
    with pytest.raises(InvalidArgument, match=r"Card.parse: cannot read"):
        Card.parse("*S")


def test_card_parse_non_string_is_type_error() -> None:
    with pytest.raises(TypeError, match=r"Card.parse"):
        Card.parse(14)  # type: ignore[arg-type]


def test_card_properties() -> None:
    assert Card(14, "H").color == "red" and Card(2, "C").color == "black"
    assert Card(14, "S").is_ace and not Card(13, "S").is_ace


# --------------------------------------------------------------------------- Tally


def test_tally() -> None:
    tally = Tally({"a": 3, "b": 1}, failures=1)
    assert tally.n == 5
    assert tally["a"] == 3 and tally["zzz"] == 0
    assert tally.frequency("a") == F(3, 5) and tally.frequency("zzz") == 0
    assert tally == Tally({"b": 1, "a": 3}, failures=1)
    assert tally != Tally({"a": 3, "b": 1}, failures=0)
    assert tally != Tally({"a": 3, "b": 2}, failures=1)


# --------------------------------------------------------------------------- play


def test_play_on_concrete_deals() -> None:
    assert play(draw_many(2), "xyz") == ("x", "y")
    assert play(draw().bind(lambda a: draw().map(lambda b: a + b)), ["p", "q"]) == "pq"
    assert play(done(7), []) == 7


def test_play_failures() -> None:
    assert play(draw_where(lambda c: c == "A"), "KA") is FAILED
    assert play(draw_many(3), "ab") is FAILED  # runs out of cards
    assert play(draw(), []) is FAILED
    assert not FAILED and repr(FAILED) == "FAILED"


# --------------------------------------------------------------------------- sample and simulate


def test_sample_same_seed_same_result() -> None:
    spec = draw_many(5)
    deck = standard_deck()
    assert sample(spec, deck, rng=42) == sample(spec, deck, rng=42)
    assert sample(spec, deck, rng=42) == sample(spec, deck, random.Random(42))


def test_sample_advances_a_random_instance() -> None:
    rng = random.Random(7)
    spec = draw_many(5)
    first = sample(spec, standard_deck(), rng)
    second = sample(spec, standard_deck(), rng)
    assert first != second
    assert isinstance(first, tuple) and len(set(first)) == 5  # without replacement


def test_sample_from_weighted() -> None:
    assert sample(draw_many(3), die(6), rng=1) == sample(draw_many(3), die(6), rng=1)
    assert all(face in range(1, 7) for face in sample(draw_many(20), die(6), rng=1))  # type: ignore[union-attr]


@pytest.mark.parametrize("rng", ["seed", 1.5, True, None])
def test_sample_bad_rng_type(rng: object) -> None:
    with pytest.raises(TypeError, match=r"rng must be a random.Random or an int seed"):
        sample(draw(), Cards("ab"), rng=rng)  # type: ignore[arg-type]


def test_simulate_reproducible() -> None:
    spec = draw_many(2)
    deck = Cards("aabbc")
    assert simulate(spec, deck, n=300, seed=3) == simulate(spec, deck, n=300, seed=3)
    assert simulate(spec, deck, n=300, seed=3) != simulate(spec, deck, n=300, seed=4)
    assert simulate(spec, deck, n=300, seed=3) == simulate(spec, deck, n=300, seed=random.Random(3))  # type: ignore[arg-type]


def test_simulate_counts_failures_and_tracks_frequencies() -> None:
    tally: Tally[str] = simulate(draw_where(lambda c: c == "a"), Cards("aab"), n=3000, seed=1)
    assert tally.n == 3000 and tally.failures == 3000 - tally["a"]
    assert abs(tally.frequency("a") - F(2, 3)) < F(1, 20)


def test_simulate_bad_arguments() -> None:
    with pytest.raises(TypeError, match=r"rng must be a random.Random or an int seed"):
        simulate(draw(), Cards("ab"), n=3, seed="x")  # type: ignore[arg-type]
    with pytest.raises(InvalidArgument, match=r"simulate: n must be >= 0"):
        simulate(draw(), Cards("ab"), n=-1, seed=0)


# --------------------------------------------------------------------------- the command line


def test_cli_examples_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["examples", "--json"]) == 0
    answers = json.loads(capsys.readouterr().out)
    assert answers and all(re.fullmatch(r"\d+/\d+", value) for value in answers.values())
    assert answers["an ace within the first 3 cards"] == "1201/5525"
    assert answers["5-card full house"] == "6/4165"


def test_cli_examples_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["examples"]) == 0
    assert "1201/5525" in capsys.readouterr().out


def test_cli_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["--version"])
    assert info.value.code == 0
    assert drawdsl.__version__ in capsys.readouterr().out


def test_cli_unknown_subcommand_is_one_line_exit_2() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "drawdsl", "bogus"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("drawdsl: error:") and "bogus" in lines[0]


@pytest.mark.parametrize(
    "spec",
    [draw_many(2), draw_count(bool, 2), draw_until(bool).map(len), replicate(3, draw()),
     sequence([draw(), draw_many(2)]), done((1, True)), draw_groups([2, 1]), loop("", max)],
    ids=repr,
)
def test_specs_from_combinators_pickle(spec: Any) -> None:
    """The standard pickle carries combinator specs (to worker processes, for example)."""
    import pickle

    again = pickle.loads(pickle.dumps(spec))
    assert again == spec
    assert chances(again, Cards("aabc")) == chances(spec, Cards("aabc"))
