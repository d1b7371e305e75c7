"""scoring_loop: the packed-score route over a deck gives the answers of every other route.

The exact evaluator runs a scoring loop at the top of a spec over a deck through
:mod:`drawdsl.score_vectors` (scores packed per state, cards the step treats alike
drawn as one kind); anywhere else (inside a bind, ``merge=False``, a weighted
source, sampling, the brute-force oracle) it is drawn card by card.  Every test
compares the routes, or one of them with a value known in closed form.
"""

from __future__ import annotations

import math
import pickle
from dataclasses import dataclass
from fractions import Fraction
from math import comb
from typing import Any

import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from oracle import brute_force

from drawdsl import (
    Cards,
    Distribution,
    StateLimitExceeded,
    chances,
    coin,
    done,
    explain,
    fail,
    loop,
    sample,
    scoring_loop,
    simulate,
    standard_deck,
)
from drawdsl.spec import Spec


def card_by_card(spec: Spec[Any]) -> Spec[Any]:
    """The same spec, not at the top: the general evaluator draws it card by card."""
    return done(None).then(spec)


def all_routes(spec: Spec[Any], deck: Cards[Any]) -> Any:
    """The distribution, checked to be the same on every route (and its expected draws)."""
    fast = chances(spec, deck)
    for other in (
        chances(spec, deck, lump=False),
        chances(card_by_card(spec), deck),
        chances(card_by_card(spec), deck, merge=False),
    ):
        assert other == fast
        assert other.expected_draws == fast.expected_draws
    return fast


@dataclass(frozen=True)
class Table:
    """A step read from a table: (state, card) -> (next state or None, points)."""

    moves: tuple[tuple[tuple[int, str], tuple[int | None, int]], ...]

    def __call__(self, state: int, card: str) -> tuple[int | None, int]:
        return dict(self.moves)[(state, card)]


@dataclass(frozen=True)
class Result:
    """score -> value, failing on the scores in ``drop``."""

    modulus: int
    drop: frozenset[int]

    def __call__(self, score: int) -> Any:
        return fail() if score in self.drop else score % self.modulus


STATES = 3
CARDS = "abc"


@st.composite
def tables(draw: Any) -> Table:
    moves = []
    for state in range(STATES):
        for card in CARDS:
            nxt = draw(st.one_of(st.none(), st.integers(0, STATES - 1)))
            moves.append(((state, card), (nxt, draw(st.integers(-3, 3)))))
    return Table(tuple(moves))


results = st.builds(Result, st.integers(1, 7), st.frozensets(st.integers(-6, 6), max_size=3))
small_decks = st.dictionaries(st.sampled_from(CARDS), st.integers(1, 3), min_size=1).map(Cards)


@given(tables(), results, small_decks, st.integers(0, STATES - 1))
@example(  # a and b move alike at the start and apart later: the kinds split mid-run
    Table(tuple(
        ((s, c), ((1, 0) if s == 0 else (None, 1 if c == "a" else 2)))
        for s in range(STATES) for c in CARDS
    )),
    Result(100, frozenset()),
    Cards("aabbc"),
    0,
)
def test_every_route_agrees_with_every_deal(
    table: Table, result: Result, deck: Cards[str], start: int
) -> None:
    spec = scoring_loop(start, table, result)
    assert all_routes(spec, deck) == brute_force(spec, deck)


@dataclass(frozen=True)
class PotTable:
    """A step with a pot, read from a table: (state, card) -> (next state or None, points, taker)."""

    moves: tuple[tuple[tuple[int, str], tuple[int | None, int, str | None]], ...]

    def __call__(self, state: int, card: str) -> tuple[int | None, int, str | None]:
        return dict(self.moves)[(state, card)]


TAKERS = ("A", "B", "C")


@st.composite
def pot_tables(draw: Any) -> PotTable:
    moves = []
    for state in range(STATES):
        for card in CARDS:
            nxt = draw(st.one_of(st.none(), st.integers(0, STATES - 1)))
            taker = draw(st.one_of(st.none(), st.sampled_from(TAKERS)))
            moves.append(((state, card), (nxt, draw(st.integers(-3, 3)), taker)))
    return PotTable(tuple(moves))


pots = st.fixed_dictionaries(
    {taker: st.integers(-2, 2) for taker in TAKERS},
    optional={None: st.integers(-2, 2)},
)


@given(pot_tables(), pots, results, small_decks, st.integers(0, STATES - 1))
@example(  # a pot left at the end, counted twice; takers of equal multipliers
    PotTable(tuple(
        ((s, c), ((s + 1) % STATES, 1, ("A" if c == "a" else "B" if s == 2 else None)))
        for s in range(STATES) for c in CARDS
    )),
    {"A": 1, "B": -1, "C": 1, None: 2},
    Result(100, frozenset()),
    Cards("aabbcc"),
    0,
)
def test_a_pot_gives_the_same_answers_on_every_route_and_every_deal(
    table: PotTable, pot: dict[Any, int], result: Result, deck: Cards[str], start: int
) -> None:
    spec = scoring_loop(start, table, result, pot=pot)
    assert all_routes(spec, deck) == brute_force(spec, deck)


def test_a_pot_is_the_same_as_its_points_kept_in_the_state() -> None:
    # Two of a colour in a row take the trick: R's tricks count for the lead, B's against;
    # the pot is the trick's cards.  The same game as a scoring loop whose state counts them.
    def with_pot(last: str, card: str) -> tuple[str, int] | tuple[str, int, str]:
        return ("", 1, card) if card == last else (card, 1)

    def counted(state: tuple[str, int], card: str) -> tuple[tuple[str, int], int]:
        last, size = state
        if card == last:
            return ("", 0), (size + 1 if card == "R" else -size - 1)
        return (card, size + 1), 0

    deck = Cards({"R": 5, "B": 4})
    lead = scoring_loop("", with_pot, lambda x: x, pot={"R": 1, "B": -1})
    assert all_routes(lead, deck) == chances(scoring_loop(("", 0), counted, lambda x: x), deck)
    # And with what is left at the end going to R.
    both = scoring_loop("", with_pot, lambda x: x, pot={"R": 1, "B": -1, None: 1})
    leftover = chances(scoring_loop(("", 0), counted, lambda x: x), deck)
    assert all_routes(both, deck) == brute_force(both, deck) != leftover


def test_cards_alike_at_first_and_apart_later() -> None:
    # a and b move alike at state 0 and apart at state 1: one kind at first, then two.
    def step(state: int, card: str) -> tuple[int | None, int]:
        if state == 0:
            return 1, 0
        return None, (1 if card == "a" else 2 if card == "b" else 3)

    spec = scoring_loop(0, step, lambda score: score)
    law = {1: Fraction(2, 5), 2: Fraction(2, 5), 3: Fraction(1, 5)}
    assert all_routes(spec, Cards("aabbc")) == Distribution(law)


def test_states_equal_but_of_other_types_stay_apart() -> None:
    # 1 and True are equal states to Python but not to this step.
    def step(state: object, card: str) -> tuple[object, int]:
        if state is True:
            return None, 10
        if state == 1:
            return None, 1
        return (True if card == "a" else 1), 0

    spec = scoring_loop(0, step, lambda score: score)
    deck = Cards("aab")
    law = {10: Fraction(2, 3), 1: Fraction(1, 3)}
    assert all_routes(spec, deck) == brute_force(spec, deck) == Distribution(law)


def test_a_played_out_deck_ends_the_loop() -> None:
    def reds_less_blacks(state: int, card: str) -> tuple[int, int]:
        return state, (1 if card == "R" else -1)

    spec = scoring_loop(0, reds_less_blacks, lambda lead: lead)
    assert all_routes(spec, Cards({"R": 5, "B": 3})) == Distribution({2: Fraction(1)})


def test_hearts_in_five_cards_from_a_standard_deck() -> None:
    # The step reads only the suit: 52 cards are drawn as two kinds (hypergeometric law).
    def hearts(seen: int, card: Any) -> tuple[int | None, bool]:
        return (None if seen == 4 else seen + 1), card.suit == "H"

    got = chances(scoring_loop(0, hearts, lambda n: n), standard_deck())
    assert got == Distribution({k: Fraction(comb(13, k) * comb(39, 5 - k), comb(52, 5)) for k in range(6)})


def test_map_and_failing_results() -> None:
    def step(state: int, card: str) -> tuple[int | None, int]:
        return (None if state == 2 else state + 1), (2 if card == "x" else -1)

    spec = scoring_loop(0, step, lambda s: fail() if s < 0 else s).map(str)
    deck = Cards("xxyyy")
    assert all_routes(spec, deck) == brute_force(spec, deck)
    assert all_routes(spec, deck).failure == Fraction(1, 10)
    assert set(all_routes(spec, deck)) == {"0", "3"}


def test_weighted_sources_and_sampling_draw_card_by_card() -> None:
    def heads(flips: int, side: str) -> tuple[int | None, bool]:
        return (None if flips == 2 else flips + 1), side == "H"

    spec = scoring_loop(0, heads, lambda n: n)
    thirds = {0: Fraction(1, 8), 1: Fraction(3, 8), 2: Fraction(3, 8), 3: Fraction(1, 8)}
    assert chances(spec, coin()) == Distribution(thirds)
    assert sample(spec, Cards("HHT"), 5) == 2


def test_pickles_and_compares_by_value() -> None:
    spec = scoring_loop((0, "a"), _Pickled(), abs)
    again = pickle.loads(pickle.dumps(spec))
    assert again == spec and hash(again) == hash(spec)
    assert scoring_loop((0, "a"), _Pickled(), abs) == spec
    assert scoring_loop((0, "b"), _Pickled(), abs) != spec


@dataclass(frozen=True)
class _Pickled:
    def __call__(self, state: Any, card: Any) -> tuple[Any, int]:
        return None, 1


def test_limits() -> None:
    def last(state: str, card: str) -> tuple[str, int]:
        return card, 1

    spec = scoring_loop("", last, lambda n: n)
    with pytest.raises(StateLimitExceeded, match="still drawing after max_draws=2"):
        chances(spec, Cards("abcd"), max_draws=2)
    with pytest.raises(StateLimitExceeded, match=r"scoring loop reached 3 live states .* max_states=2"):
        chances(spec, Cards("abc"), max_states=2)


@pytest.mark.parametrize(
    ("step", "result", "message"),
    [
        (lambda s, c: s, abs, "returns a pair"),
        (lambda s, c: (s, 1.0), abs, "points must be an int"),
        (lambda s, c: ([s], 1), abs, "is not hashable"),
        (lambda s, c: (None, 1), lambda n: done(n), "result returns the value"),
    ],
)
def test_bad_steps_and_results_say_what_to_return(step: Any, result: Any, message: str) -> None:
    spec = scoring_loop(0, step, result)
    for route in (spec, card_by_card(spec)):
        with pytest.raises(TypeError, match=message):
            chances(route, Cards("ab"))
    with pytest.raises(TypeError, match=message):
        sample(spec, Cards("ab"), 1)


def test_bad_arguments() -> None:
    with pytest.raises(TypeError, match="step must be callable"):
        scoring_loop(0, 1, abs)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="result must be callable"):
        scoring_loop(0, lambda s, c: (s, 0), 1)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="start state is None"):
        scoring_loop(None, lambda s, c: (s, 0), abs)
    with pytest.raises(TypeError, match="not hashable"):
        scoring_loop([], lambda s, c: (s, 0), abs)


def test_an_error_in_the_step_says_where() -> None:
    def step(state: int, card: str) -> tuple[int, int]:
        if card == "b":
            raise ValueError("no b")
        return state, 1

    with pytest.raises(ValueError, match="no b") as info:
        chances(scoring_loop(0, step, abs), Cards("ab"))
    assert any("after draw 1 (card 'b')" in note for note in info.value.__notes__)


def test_explain_reports_the_scoring_route() -> None:
    def hearts(seen: int, card: Any) -> tuple[int | None, bool]:
        return (None if seen == 4 else seen + 1), card.suit == "H"

    spec = scoring_loop(0, hearts, lambda n: n)
    report = explain(spec, standard_deck())
    assert report.distribution == chances(spec, standard_deck())
    assert sorted(map(len, report.classes)) == [13, 39]
    assert report.restarts == 1  # one kind at first, split by the first state's moves
    assert [live for live, _ in report.states] == [2, 3, 4, 5, 0]
    assert "scoring loop" in str(report)


def test_a_state_holding_ranks_is_told_to_use_a_loop() -> None:
    # A point each time a card has the rank of the one before, over 8 cards: the scoring
    # route does not merge renamed decks and says so; the plain loop is proven blind to
    # renamings and answers.
    def snap(state: tuple[int, int], card: Any) -> tuple[tuple[int, int] | None, bool]:
        last, seen = state
        return (None if seen == 7 else (card.rank, seen + 1)), card.rank == last

    def snap_loop(state: tuple[int, int, int], card: Any) -> Any:
        last, seen, points = state
        points += card.rank == last
        return done(points) if seen == 7 else (card.rank, seen + 1, points)

    with pytest.raises(StateLimitExceeded, match=r"does not merge decks .* loop\(\(state, score\), step\)"):
        chances(scoring_loop((0, 0), snap, lambda n: n), standard_deck(), max_states=2_000)
    answer = chances(loop((0, 0, 0), snap_loop), standard_deck(), max_states=2_000)
    assert answer.expectation() == Fraction(7 * 3, 51)  # 7 neighbouring pairs, each 3/51


def test_sampling_agrees_with_the_exact_law() -> None:
    def streaks(last: str, card: str) -> tuple[str, int]:
        return card, (card == last == "R") - 2 * (card == last == "B")

    spec = scoring_loop("", streaks, lambda total: total)
    deck = Cards({"R": 5, "B": 4, "G": 2})
    exact = chances(spec, deck)
    n = 4000
    tally = simulate(spec, deck, n=n, seed=7)
    assert set(tally) <= set(exact)
    for value, p in exact.items():
        spread = 5 * math.sqrt(float(p * (1 - p)) / n)
        assert abs(tally.get(value, 0) / n - float(p)) <= spread, value


def test_a_step_is_asked_only_about_cards_that_can_come() -> None:
    # The state is the cards left; the step cannot take a card that is not there.
    def take(rest: tuple[int, ...], card: int) -> tuple[tuple[int, ...] | None, int]:
        left = list(rest)
        left.remove(card)
        return (tuple(left) or None), card

    spec = scoring_loop((1, 2, 3, 3), take, lambda total: total % 4)
    deck = Cards([1, 2, 3, 3])
    assert all_routes(spec, deck) == brute_force(spec, deck)


def test_scores_too_spread_to_pack_are_drawn_card_by_card() -> None:
    # The colours as a binary number: scores 0 .. 2**8 - 1, far more slots than paths.
    def binary(place: int, card: str) -> tuple[int, int]:
        return place + 1, (1 << (3 * place)) if card == "R" else 0

    spec = scoring_loop(0, binary, lambda total: total % 5)
    deck = Cards({"R": 4, "B": 4})
    assert all_routes(spec, deck) == brute_force(spec, deck)

    def huge(state: int, card: str) -> tuple[int, int]:
        return state, (1 << 40) if card == "R" else -(1 << 40)

    spec = scoring_loop(0, huge, lambda total: total)
    assert all_routes(spec, Cards("RBB")) == Distribution({-(1 << 40): Fraction(1)})


def test_an_empty_deck_finishes_at_once() -> None:
    spec = scoring_loop(0, lambda state, card: (state, 1), lambda total: total)
    assert chances(spec, Cards([])) == chances(spec, Cards([]), max_draws=1) == Distribution({0: Fraction(1)})


def test_states_equal_by_their_own_eq_merge_only_within_a_draw() -> None:
    # Two states equal by their __eq__ but read apart by the step, met at different
    # draws: as on every other route, each decides its own moves.
    class State:
        __slots__ = ("v", "tag")

        def __init__(self, v: int, tag: str) -> None:
            self.v, self.tag = v, tag

        def __eq__(self, other: object) -> bool:
            return type(other) is State and other.v == self.v

        def __hash__(self) -> int:
            return hash(self.v)

    def step(state: State, card: str) -> tuple[State | None, int]:
        if state.v == 0:
            return (State(1, card) if card == "a" else State(5, card)), 0
        if state.v == 5:
            return State(1, "late"), 0
        return None, (10 if state.tag == "late" else 1)

    spec = scoring_loop(State(0, ""), step, lambda total: total)
    deck = Cards("abb")
    law = {1: Fraction(1, 3), 10: Fraction(2, 3)}
    assert all_routes(spec, deck) == brute_force(spec, deck) == Distribution(law)


def test_paths_whose_scores_lie_far_apart_meet_without_packing() -> None:
    # R B and B R meet at the same cards left and state with scores 2**40 apart.
    def first_red(seen: int, card: str) -> tuple[int, int]:
        return min(seen + 1, 2), (1 << 40) if card == "R" and seen == 0 else 0

    spec = scoring_loop(0, first_red, lambda total: total)
    assert all_routes(spec, Cards("RBB")) == Distribution({1 << 40: Fraction(1, 3), 0: Fraction(2, 3)})
    # The other way round: the path met first has the higher score.
    spec = scoring_loop(0, first_red, lambda total: total)
    assert all_routes(spec, Cards("BRR")) == Distribution({1 << 40: Fraction(2, 3), 0: Fraction(1, 3)})


def test_a_step_may_return_a_named_pair_and_maps_show_in_the_repr() -> None:
    from typing import NamedTuple

    class Move(NamedTuple):
        state: int | None
        points: int

    spec = scoring_loop(0, lambda state, card: Move(None, card == "R"), abs).map(str)
    assert all_routes(spec, Cards("RB")) == Distribution({"0": Fraction(1, 2), "1": Fraction(1, 2)})
    assert repr(spec).startswith("scoring_loop(0, ") and repr(spec).endswith(".map(str())")


def test_an_error_in_the_result_says_at_which_score() -> None:
    def result(total: int) -> int:
        if total == 2:
            raise ValueError("two")
        return total

    spec = scoring_loop(0, lambda state, card: (state, 1), result)
    with pytest.raises(ValueError, match="two") as info:
        chances(spec, Cards("ab"))
    assert any("result at the score 2" in note for note in info.value.__notes__)
    with pytest.raises(ValueError, match="two"):
        chances(card_by_card(spec), Cards("ab"))
    assert "score=1" in repr(spec("a"))


# --------------------------------------------------------------------------- pots


def _trick(last: str, card: str) -> tuple[str, int] | tuple[str, int, str]:
    """Two of a colour in a row take the pot (the trick's cards)."""
    return ("", 1, card) if card == last else (card, 1)


def test_a_pot_taken_mid_run_starts_from_what_it_holds() -> None:
    # A loop taken after one card holds that card in its pot; from there every route
    # agrees, and the repr shows the pot.
    spec = scoring_loop("", _trick, lambda lead: lead, pot={"R": 1, "B": -1, None: 2})
    later = spec("R")
    assert "pot={'R': 1, 'B': -1, None: 2}, held=1" in repr(later)
    deck = Cards({"R": 3, "B": 3})
    assert all_routes(later, deck) == brute_force(later, deck)
    assert all_routes(later("B"), deck) == brute_force(later("B"), deck)


def test_a_pot_pickles_and_compares_by_value() -> None:
    spec = scoring_loop("", _trick, abs, pot={"R": 1, "B": -1})
    again = pickle.loads(pickle.dumps(spec))
    assert again == spec and hash(again) == hash(spec)
    assert scoring_loop("", _trick, abs, pot={"B": -1, "R": 1}) == spec
    assert scoring_loop("", _trick, abs, pot={"R": 1, "B": -1, None: 0}) == spec
    assert scoring_loop("", _trick, abs, pot={"R": 1, "B": 1}) != spec
    assert scoring_loop("", _trick, abs, pot={"R": 1, "B": -1, None: 1}) != spec
    assert scoring_loop("", _trick, abs) != spec
    assert spec("R") != spec("B") and spec("R") == again("R")


def test_a_taker_equal_to_one_of_the_pot_but_of_another_type_is_not_that_one() -> None:
    # True == 1 to a dict, not here: a step returning True for the taker 1 is told so
    # rather than counted as 1 (as states, 1 and True are two states).
    def step(state: int, card: str) -> tuple[int, int, object]:
        return state, 1, (True if card == "a" else 1)

    spec = scoring_loop(0, step, lambda total: total, pot={1: 10, 0: -1})
    for route in (spec, card_by_card(spec)):
        with pytest.raises(ValueError, match=r"True takes the pot, but .* the pot's takers \(0, 1\)"):
            chances(route, Cards("ab"))
    ones = scoring_loop(0, lambda state, card: (state, 1, 1), lambda total: total, pot={1: 10, 0: -1})
    assert all_routes(ones, Cards("ab")) == Distribution({20: Fraction(1)})


@pytest.mark.parametrize(
    ("pot", "error", "message"),
    [
        ([("A", 1)], TypeError, "pot must be a mapping"),
        ({"A": 1.5}, TypeError, "multipliers are ints"),
        ({"A": True}, TypeError, "multipliers are ints"),
        ({None: "all"}, TypeError, "multipliers are ints"),
    ],
)
def test_a_bad_pot_is_refused_at_once(pot: Any, error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message):
        scoring_loop("", _trick, abs, pot=pot)


@pytest.mark.parametrize(
    ("step", "pot", "error", "message"),
    [
        (_trick, {"R": 1}, ValueError, r"'B' takes the pot, but it is not one of the pot's takers \('R'\)"),
        (_trick, None, TypeError, "three items, but the loop has no pot"),
        (lambda s, c: (s, 1, "R", 0), {"R": 1}, TypeError, r"or a triple \(next state, points, taker\)"),
        (lambda s, c: (s, "1", "R"), {"R": 1}, TypeError, "points must be an int"),
    ],
)
def test_a_bad_move_with_a_pot_says_what_to_return(
    step: Any, pot: Any, error: type[Exception], message: str
) -> None:
    spec = scoring_loop("", step, abs, pot=pot)
    deck = Cards("RRBB")
    for route in (spec, card_by_card(spec)):
        with pytest.raises(error, match=message):
            chances(route, deck)
    with pytest.raises(error, match=message):
        for seed in range(20):
            sample(spec, deck, seed)


def test_a_pot_too_spread_to_pack_is_drawn_card_by_card() -> None:
    # A move spreading the integers over more than SPAN slots at once, and moves that
    # spread them a little at a time (checked once the bound passes SPAN): every route
    # agrees with every deal.
    def wide(state: int, card: str) -> tuple[int, int] | tuple[int, int, str]:
        return (state + 1, 3000) if card == "R" else (state + 1, 1, "B")

    def creeping(state: int, card: str) -> tuple[int, int] | tuple[int, int, str]:
        return (state + 1, 1000) if card == "R" else (state + 1, -7, "B")

    def settling(state: int, card: str) -> tuple[int, int] | tuple[int, int, str]:
        # (measured once the bound passes SPAN, and packed: the integers stay short)
        return (state + 1, 1000, "B") if card == "R" else (state + 1, 3)

    for step in (wide, creeping, settling):
        spec = scoring_loop(0, step, lambda total: total % 7, pot={"B": -1, None: 1})
        deck = Cards({"R": 4, "B": 3})
        assert all_routes(spec, deck) == brute_force(spec, deck)


def test_explain_reports_a_pot() -> None:
    spec = scoring_loop("", _trick, lambda lead: lead, pot={"R": 1, "B": -1})
    report = explain(spec, Cards({"R": 5, "B": 5}))
    assert report.distribution == chances(spec, Cards({"R": 5, "B": 5}))
    assert "one per multiplier of its pot" in str(report)


class _Player(str):
    """A taker of a type of its own (a str subclass)."""


@dataclass(frozen=True)
class _Deals:
    """A step naming its takers afresh each time: a new _Player, a frozenset built in
    another order than the pot's key."""

    def __call__(self, state: int, card: str) -> tuple[int, int, Any]:
        if card == "a":
            return state, 1, _Player("A")
        return state, 2, frozenset({8}) | {0}


def test_a_taker_equal_to_a_key_of_the_pot_takes_it_after_pickling_too() -> None:
    pot = {_Player("A"): 1, frozenset({0}) | {8}: -1}
    spec = scoring_loop(0, _Deals(), int, pot=pot)
    law = Distribution({-3: Fraction(1)})
    assert all_routes(spec, Cards("abb")) == law
    again = pickle.loads(pickle.dumps(spec))
    assert again == spec and all_routes(again, Cards("abb")) == law
    # A str is not a _Player: two types, two takers (as for states and values).
    with pytest.raises(ValueError, match="takes the pot, but it is not one of the pot's takers"):
        chances(scoring_loop(0, _Deals(), abs, pot={"A": 1, frozenset({0, 8}): -1}), Cards("ab"))


def test_a_bad_move_is_told_without_a_hint_about_the_deck() -> None:
    # The step's move is wrong, not the cards: no note suggesting to map the source; and
    # points that are no int are told before a taker that is not one.
    spec = scoring_loop(0, lambda state, card: (state, 1, "R"), abs)
    with pytest.raises(TypeError, match="three items") as info:
        chances(spec, Cards("ab"))
    assert not any("map the source" in note for note in getattr(info.value, "__notes__", []))
    both_wrong = scoring_loop(0, lambda state, card: (state, "1", "nobody"), abs, pot={"R": 1})
    with pytest.raises(TypeError, match="points must be an int"):
        chances(both_wrong, Cards("ab"))
