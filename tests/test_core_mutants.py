"""Tests that kill the mutants of the evaluator core that the rest of the suite let live.

A mutation run over drawdsl/exact.py and drawdsl/spec.py (see the issue note) left
some mutants alive; each test here pins an exact answer at one of those spots: a
probability checked against the brute-force oracle (tests/oracle.py) or worked out
by hand in a comment, a limit's boundary, or a documented error message.
"""

from __future__ import annotations

import sys
import types
from fractions import Fraction
from typing import Any

import pytest
from oracle import brute_force, orderings, run

from drawdsl import (
    Cards,
    Distribution,
    Spec,
    Weighted,
    chances,
    coin,
    done,
    draw,
    draw_any,
    draw_many,
    draw_one,
    draw_until,
    generate,
    keyed,
    loop,
)
from drawdsl.errors import InvalidArgument, NotASpec, StateLimitExceeded
from drawdsl.exact import DEFAULT_MAX_DRAWS, DEFAULT_MAX_STATES
from drawdsl.spec import whnf

HALF = Fraction(1, 2)


def _count_up(state: int, card: Any) -> int:
    """A loop that never ends and never repeats a state: one live state per draw."""
    return state + 1


# --------------------------------------------------------------------------- limits


def test_documented_defaults() -> None:
    # docs/how-it-works.md shows (5000000, 10000).
    assert (DEFAULT_MAX_STATES, DEFAULT_MAX_DRAWS) == (5_000_000, 10_000)


def test_weighted_source_stops_at_the_default_max_draws() -> None:
    with pytest.raises(StateLimitExceeded, match=r"after max_draws=10000 draws \(1 live states\)"):
        chances(loop(0, _count_up), coin())


@pytest.mark.parametrize("name", ["max_states", "max_draws"])
def test_limits_reject_bools(name: str) -> None:
    with pytest.raises(TypeError, match=rf"{name} must be an int, got True \(bool\)"):
        options: dict[str, Any] = {name: True}
        chances(draw(), Cards("ab"), **options)


@pytest.mark.parametrize("name", ["max_states", "max_draws"])
def test_limits_reject_zero(name: str) -> None:
    with pytest.raises(InvalidArgument, match=f"{name} must be a positive int, got 0"):
        options: dict[str, Any] = {name: 0}
        chances(draw(), Cards("ab"), **options)


def test_limits_of_one_are_allowed() -> None:
    # A deck of one kind of card keeps one live state per draw.
    assert chances(draw_many(2), Cards("aaa"), max_states=1) == Distribution({("a", "a"): 1})
    assert chances(draw(), Cards("ab"), max_draws=1) == Distribution({"a": HALF, "b": HALF})


@pytest.mark.parametrize("merge", [True, False])
def test_max_states_is_the_largest_allowed_frontier(merge: bool) -> None:
    # After one draw from "abc" there are 3 live states (3 different remaining decks).
    spec = draw_many(2)
    assert chances(spec, Cards("abc"), merge=merge, max_states=3) == brute_force(spec, Cards("abc"))
    with pytest.raises(StateLimitExceeded, match="reached 3 live states at draw 1, over max_states=2"):
        chances(spec, Cards("abc"), merge=merge, max_states=2)


def test_max_draws_is_the_deepest_allowed_draw() -> None:
    spec = draw_many(2)
    assert chances(spec, Cards("abc"), max_draws=2) == brute_force(spec, Cards("abc"))
    with pytest.raises(StateLimitExceeded, match=r"after max_draws=1 draws \(3 live states\)"):
        chances(spec, Cards("abc"), max_draws=1)


# --------------------------------------------------------------------------- progress


def test_no_progress_output_by_default(capsys: pytest.CaptureFixture[str]) -> None:
    chances(draw_many(2), Cards("abc"))
    assert capsys.readouterr().err == ""


def test_progress_callable_gets_draws_and_live_states() -> None:
    seen: list[tuple[int, int]] = []
    chances(draw_many(2), Cards("abc"), progress=lambda d, s: seen.append((d, s)))
    assert seen == [(1, 3), (2, 0)]


def test_progress_bar_gets_draws_and_live_states(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[str, int]] = []

    class FakeBar:
        def __init__(self, **kwargs: Any) -> None:
            self.n = 0

        def update(self, k: int) -> None:
            self.n += k
            calls.append(("update", k))

        def set_postfix(self, *, states: int) -> None:
            calls.append(("states", states))

    monkeypatch.setitem(sys.modules, "tqdm", types.SimpleNamespace(tqdm=FakeBar))
    chances(draw_many(2), Cards("abc"), progress=True)
    assert calls == [("update", 1), ("states", 3), ("update", 1), ("states", 0)]


def test_progress_without_tqdm_prints_one_line_per_draw(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "tqdm", None)  # makes `from tqdm import tqdm` fail
    chances(draw_many(2), Cards("abc"), progress=True)
    assert capsys.readouterr().err == ("drawdsl: 1 draws, 3 live states\ndrawdsl: 2 draws, 0 live states\n")


def test_progress_rejects_other_values() -> None:
    with pytest.raises(TypeError, match="progress must be a bool or a callable"):
        chances(draw(), Cards("ab"), progress="yes")  # type: ignore[arg-type]


# --------------------------------------------------------------------------- errors


def _boom(card: Any) -> Spec[Any]:
    raise ValueError(f"boom on {card!r}")


def test_error_note_names_the_draw_and_card() -> None:
    with pytest.raises(ValueError, match="boom on 'a'") as info:
        chances(draw().bind(_boom), Cards("a"))
    assert getattr(info.value, "__notes__", None) == [
        "drawdsl: raised while evaluating the spec after draw 1 (card 'a')"
    ]


def test_error_note_before_the_first_draw() -> None:
    with pytest.raises(ValueError, match="boom on 7") as info:
        chances(done(7).bind(_boom), Cards("a"))
    assert getattr(info.value, "__notes__", None) == [
        "drawdsl: raised while evaluating the spec before the first draw"
    ]


def test_type_error_after_a_draw_names_the_card_type() -> None:
    with pytest.raises(TypeError) as info:
        chances(draw().map(lambda c: c + 1), Cards("a"))
    assert getattr(info.value, "__notes__", None) == [
        "drawdsl: raised while evaluating the spec after draw 1 (card 'a')",
        "drawdsl: the source holds cards like 'a' (str); if the spec expects another card "
        "type, map the source (deck.map(...)) or fix the spec",
    ]


# --------------------------------------------------------------------------- expected draws


def _brute_expected_draws(spec: Spec[Any], deck: Cards[Any]) -> Fraction:
    """Mean number of cards read over every ordering (for specs without draw_any)."""
    deals = orderings(deck)
    return Fraction(sum(run(spec, deal)[-1] for deal in deals), len(deals))


@pytest.mark.parametrize("limit", [None, 2, 3])
def test_expected_draws_over_paths_of_different_depths(limit: int | None) -> None:
    # Paths finish (or fail) after 1, 2, 3 or 4 cards: every depth has its own scale.
    spec: Spec[Any] = draw_until(lambda c: c == "a", limit=limit)
    deck = Cards("abbbc")
    dist = chances(spec, deck)
    assert dist == brute_force(spec, deck)
    assert dist.expected_draws == _brute_expected_draws(spec, deck)


def test_expected_draws_by_hand() -> None:
    # First "a" in "aabb": position 1 w.p. 1/2, 2 w.p. 1/3, 3 w.p. 1/6 -> 5/3.
    assert chances(draw_until(lambda c: c == "a"), Cards("aabb")).expected_draws == Fraction(5, 3)


# --------------------------------------------------------------------------- symmetric mode


class FrozenDict(dict):  # type: ignore[type-arg]
    """A hashable dict: a loop state may hold cards as its keys or values."""

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(frozenset(self.items()))


def _repeat_keys(seen: FrozenDict, card: Any) -> Any:
    """Draw until a card repeats; the cards seen are the state's keys."""
    if card in seen:
        return done(len(seen) + 1)
    return FrozenDict({**seen, card: True})


def _run_values(state: FrozenDict, card: Any) -> Any:
    """Draw 4 cards; finish with whether two neighbours were equal (last card as a value)."""
    drawn, last, pair = state["drawn"], state.get("last"), state["pair"]
    pair = pair or card == last
    if drawn + 1 == 4:
        return done(pair)
    return FrozenDict({"drawn": drawn + 1, "last": card, "pair": pair})


@pytest.mark.parametrize(
    "spec",
    [loop(FrozenDict(), _repeat_keys), loop(FrozenDict({"drawn": 0, "pair": False}), _run_values)],
    ids=["cards-as-keys", "cards-as-values"],
)
def test_symmetric_mode_pins_cards_held_in_dict_states(spec: Spec[Any]) -> None:
    deck = Cards({"a": 2, "b": 2, "c": 1, "d": 1})
    assert chances(spec, deck, symmetric=True) == brute_force(spec, deck)


# --------------------------------------------------------------------------- weighted sources


def test_weighted_draws_multiply_the_weights() -> None:
    # a has weight 1, b weight 2 (total 3): P(ab) = 1/3 * 2/3 = 2/9, P(bb) = 4/9.
    dist = chances(draw_many(2), Weighted({"a": 1, "b": 2}))
    assert dist == Distribution(
        {
            ("a", "a"): Fraction(1, 9),
            ("a", "b"): Fraction(2, 9),
            ("b", "a"): Fraction(2, 9),
            ("b", "b"): Fraction(4, 9),
        }
    )
    assert dist.expected_draws == 2


def test_weighted_process_that_never_repeats_a_state_stops_at_max_draws() -> None:
    with pytest.raises(StateLimitExceeded, match=r"after max_draws=3 draws \(1 live states\)"):
        chances(loop(0, _count_up), coin(), max_draws=3, max_states=100)


def _until_hh(state: str, side: str) -> Any:
    return done("HH") if state == "H" and side == "H" else side


def test_a_repeated_state_is_solved_as_a_chain() -> None:
    # Flip until HH: certain, after 6 flips on average (far below max_draws=50).
    dist = chances(loop("", _until_hh), coin(), max_draws=50)
    assert dist == Distribution({"HH": 1})
    assert dist.expected_draws == 6


def _const(value: Any) -> Any:
    return lambda card: done(value)


def test_keyless_draw_one_specs_never_merge() -> None:
    # With a weighted source every path has the same (empty) deck: only the spec
    # tells the two states apart, and two keyless draw_one specs are different.
    spec = draw().bind(lambda side: draw_one(_const(side)))
    assert chances(spec, coin()) == Distribution({"H": Fraction(1, 2), "T": Fraction(1, 2)})
    f = _const(1)
    assert draw_one(f) != draw_one(f)
    assert draw_one(f, key=1) == draw_one(_const(1), key=1)


# --------------------------------------------------------------------------- spec forms


def test_done_with_an_unhashable_value() -> None:
    value = [1]
    assert done(value) != done(value)  # no key: two such specs are never known equal
    with pytest.raises(TypeError, match=r"finished with \['a'\] \(list\), which is not hashable"):
        unhashable: Spec[Any] = draw().map(lambda c: [c])
        chances(unhashable, Cards("a"))


def test_long_discards_unfold_lazily() -> None:
    # More discards than the eager limit (64): the spec is built lazily, and runs exactly.
    deck = Cards({"a": 1, "x": 99})
    spec = draw_any(70).then(draw())
    assert draw_any(70) == draw_any(70) and hash(draw_any(70)) == hash(draw_any(70))
    assert draw_any(70) != draw_any(71)
    assert chances(spec, deck) == Distribution({"a": Fraction(1, 100), "x": Fraction(99, 100)})
    assert chances(draw_any(100).then(draw()), deck) == Distribution({}, failure=1)


@pytest.mark.parametrize("n", [True, 1.0])
def test_draw_any_rejects_non_ints(n: Any) -> None:
    with pytest.raises(TypeError, match=f"draw_any: n must be an int, got {n!r}"):
        draw_any(n)


def test_loop_rejects_an_unhashable_initial_state() -> None:
    with pytest.raises(TypeError, match=r"loop: the initial state \[1\] \(list\) is not hashable"):
        loop([1], _count_up)  # type: ignore[arg-type]


class _Steps:
    def bad(self, card: Any) -> Any:
        return 5


def test_error_messages_name_functions_by_qualified_name() -> None:
    with pytest.raises(NotASpec, match=r"the continuation _Steps\.bad\(\) returned 5 \(int\)"):
        chances(draw_one(_Steps().bad), Cards("a"))


def _to_list(state: Any, card: Any) -> Any:
    return [card]


def test_loop_rejects_an_unhashable_next_state() -> None:
    with pytest.raises(
        TypeError, match=r"loop: the state \['a'\] \(list\) returned by _to_list\(\) is not hashable"
    ):
        chances(loop(0, _to_list), Cards("a"))


def test_keyed_rejects_an_unhashable_key() -> None:
    with pytest.raises(TypeError, match=r"keyed: key must be hashable, got \[1\]"):
        keyed([1], draw)  # type: ignore[arg-type]


def test_draw_one_rejects_an_unhashable_key() -> None:
    with pytest.raises(TypeError, match=r"draw_one: key must be hashable, got \[1\]"):
        draw_one(_const(0), key=[1])  # type: ignore[arg-type]


# --------------------------------------------------------------------------- spec equality
#
# Spec equality is sound (module doc of drawdsl.spec): equal only when known to behave
# the same.  The evaluator compares keys only when their hashes agree, so each pair
# below differs by -1 versus -2 (equal hashes in CPython: hash(-1) == hash(-2)) to make
# __eq__ itself decide.


class _Tagged:
    """A function object equal (and hash-equal) to the ones with the same tag."""

    def __init__(self, tag: int) -> None:
        self.tag = tag

    def __call__(self, *args: Any) -> Any:
        return self.tag

    def __eq__(self, other: object) -> bool:
        return type(other) is _Tagged and self.tag == other.tag

    def __hash__(self) -> int:
        return hash(self.tag)


def _step(state: Any, card: Any) -> Any:
    return done(state)


def _make() -> Spec[Any]:
    return draw()


@generate
def _gen(tag: int) -> Any:
    card = yield draw()
    return (tag, card)


def _pairs(tag: int) -> list[Spec[Any]]:
    """One spec of each form, built fresh, that depends on ``tag`` only."""
    return [
        done(tag),
        draw_one(_const(0), key=tag),
        whnf(draw_any(1).then(done(tag)), 5),  # _Any over a _Cont over _Frames of _Const
        done(tag).map(str),
        done(0).map(_Tagged(tag)),
        done(0).where(_Tagged(tag)),
        done(0).then(done(tag)),
        done(tag) | draw(),
        loop(tag, _step),
        loop(0, _Tagged(tag)),  # equal steps that are different objects
        keyed(tag, _make),
        _gen(tag),
        whnf(_gen(tag), 5),  # a draw whose continuation resumes the generator
    ]


@pytest.mark.parametrize("i", range(len(_pairs(0))))
def test_spec_equality_is_structural_and_sound(i: int) -> None:
    a, same, other = _pairs(-1)[i], _pairs(-1)[i], _pairs(-2)[i]
    assert a is not same and hash(a) == hash(same) == hash(other)
    assert a == same
    assert a != other
    assert a == a


def test_different_discard_counts_differ() -> None:
    assert draw_any(70) == draw_any(70) and draw_any(70) != draw_any(71)
    assert draw_any(2) == draw_any(2) and draw_any(2) != draw_any(1)


def test_states_with_colliding_hashes_never_merge() -> None:
    # Both states after the first flip have an empty deck and hash-equal specs.
    spec = draw().bind(lambda side: loop(-1 if side == "H" else -2, _step))
    assert chances(spec, coin()) == Distribution({-1: Fraction(1, 2), -2: Fraction(1, 2)})
    gens = draw().bind(lambda side: _gen(-1 if side == "H" else -2))
    assert chances(gens, coin()) == Distribution({(t, s): Fraction(1, 4) for t in (-1, -2) for s in "HT"})


def test_specs_without_a_key_equal_themselves() -> None:
    keyless, unhashable = draw_one(_const(0)), done([1])
    assert keyless == keyless and unhashable == unhashable


def test_reprs_name_the_spec() -> None:
    assert repr(draw()) == "draw()"
    assert repr(whnf(loop(0, _step), 5)) == "loop(0, _step())"  # a loop's head shows the loop
    assert repr(whnf(draw().map(str), 5)) == "draw()"  # a draw under binds shows the draw
    assert repr(draw_one(_Steps().bad)) == "draw_one(_Steps.bad())"
    assert repr(draw_any(70)) == "draw_any(70)"
    assert repr(draw() | done(1)) == "(draw() | done(1))"


def _then_one_more_card(first: Any) -> Spec[Any]:
    return draw().map(str)


def test_equal_states_with_shared_continuations_merge() -> None:
    # After one flip both paths wait on equal specs (equal frames over one shared
    # tail) with the same empty deck: they merge into one live state.
    seen: list[tuple[int, int]] = []
    spec = draw().bind(_then_one_more_card).map(len)
    dist = chances(spec, coin(), progress=lambda d, s: seen.append((d, s)))
    assert dist == Distribution({1: 1})
    assert seen == [(1, 1), (2, 0)]
