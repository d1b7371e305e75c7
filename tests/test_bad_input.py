"""Every bad input gives a clear exception: the right type, naming the culprit, saying what to do.

Each test checks the exception type *and* (with ``match``) that the message names the
argument or the user function at fault, so a vague or misleading message fails here.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator, Mapping
from fractions import Fraction
from typing import Any

import pytest

from drawdsl import (
    FAILED,
    Cards,
    DrawdslError,
    InvalidArgument,
    NotASpec,
    Spec,
    StateLimitExceeded,
    Weighted,
    chances,
    coin,
    die,
    done,
    draw,
    draw_any,
    draw_count,
    draw_groups,
    draw_many,
    draw_until,
    draw_where,
    generate,
    loop,
    play,
    sample,
)

DECK = Cards("ab")


# --------------------------------------------------------------------------- the error types


def test_error_types_refine_builtin_types() -> None:
    assert issubclass(InvalidArgument, ValueError) and issubclass(InvalidArgument, DrawdslError)
    assert issubclass(NotASpec, TypeError) and issubclass(NotASpec, DrawdslError)
    assert issubclass(StateLimitExceeded, RuntimeError) and issubclass(StateLimitExceeded, DrawdslError)


# --------------------------------------------------------------------------- Cards


@pytest.mark.parametrize("count", [-1, 0])
def test_cards_nonpositive_count_is_invalid(count: int) -> None:
    with pytest.raises(InvalidArgument, match=rf"counts: card 'A' has count {count};.*leave the card out"):
        Cards({"A": count})


@pytest.mark.parametrize("count", [1.5, 2.0, True, "2"])
def test_cards_non_int_count_is_type_error(count: object) -> None:
    with pytest.raises(TypeError, match=r"counts: card 'A' has count .*positive integers"):
        Cards({"A": count})  # type: ignore[dict-item]


def test_cards_unhashable_card_from_iterable() -> None:
    with pytest.raises(TypeError, match=r"cards: card \['x'\] \(list\) is not hashable.*tuple"):
        Cards([["x"], ["y"]])  # type: ignore[misc, arg-type, type-var, return-value]


class _ListKeys(Mapping[Any, int]):
    """A mapping whose keys are lists (a dict cannot hold them, a custom mapping can)."""

    def __iter__(self) -> Iterator[Any]:
        return iter([["x"]])

    def __getitem__(self, key: Any) -> int:
        return 1

    def __len__(self) -> int:
        return 1


def test_cards_unhashable_card_in_mapping() -> None:
    with pytest.raises(TypeError, match=r"counts: card \['x'\] \(list\) is not hashable"):
        Cards(_ListKeys())


def test_cards_not_iterable() -> None:
    with pytest.raises(TypeError, match=r"cards: expected an iterable"):
        Cards(5)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- Weighted, coin, die


def test_weighted_float_weight_suggests_fraction() -> None:
    with pytest.raises(TypeError, match=r"weights: symbol 'H' has the float weight 0\.1.*Fraction\('0\.1'\)"):
        Weighted({"H": 0.1, "T": Fraction(9, 10)})


@pytest.mark.parametrize("weight", [0, -2, Fraction(-1, 3)])
def test_weighted_nonpositive_weight_is_invalid(weight: int | Fraction) -> None:
    with pytest.raises(InvalidArgument, match=r"weights: symbol 'T' has weight .*must be positive"):
        Weighted({"H": 1, "T": weight})


@pytest.mark.parametrize("symbols", [{}, "", []])
def test_weighted_empty_is_invalid(symbols: Any) -> None:
    with pytest.raises(InvalidArgument, match=r"symbols: .*at least one symbol"):
        Weighted(symbols)


def test_weighted_bool_weight_is_type_error() -> None:
    with pytest.raises(TypeError, match=r"weights: symbol 'H' has weight True"):
        Weighted({"H": True})


_COIN_WORDS_WEIGHTS = (
    "coin(heads) <= 0 is reported as 'weights: symbol 'H' has weight ...', which names neither coin nor heads"
)


@pytest.mark.parametrize(
    "heads",
    [
        1,
        2,
        Fraction(3, 2),
        0,
        Fraction(-1, 2),
    ],
)
def test_coin_heads_outside_unit_interval_names_heads(heads: int | Fraction) -> None:
    with pytest.raises(InvalidArgument, match=r"coin: heads must be .*between 0 and 1"):
        coin(heads)


def test_coin_float_heads_suggests_fraction() -> None:
    with pytest.raises(TypeError, match=r"float .*Fraction"):
        coin(0.5)  # type: ignore[arg-type]


def test_die_zero_sides() -> None:
    with pytest.raises(InvalidArgument, match=r"die: sides must be >= 1, got 0"):
        die(0)


def test_die_float_sides() -> None:
    with pytest.raises(TypeError, match=r"die: sides must be an int"):
        die(1.5)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- user functions returning junk


def returns_three(card: Any) -> Any:
    return 3


def test_continuation_returning_non_spec_names_the_function() -> None:
    with pytest.raises(NotASpec, match=r"returns_three\(\) returned 3 \(int\), which is not a spec.*done\("):
        chances(draw().bind(returns_three), DECK)


def test_lambda_continuation_returning_non_spec_is_named_lambda() -> None:
    with pytest.raises(NotASpec, match=r"<lambda>\(\) returned 3 \(int\)"):
        chances(draw().bind(lambda c: 3), DECK)  # type: ignore[misc, arg-type, type-var, return-value]


def test_continuation_returning_non_spec_when_sampling_and_playing() -> None:
    with pytest.raises(NotASpec, match=r"returns_three\(\) returned 3"):
        sample(draw().bind(returns_three), DECK, rng=1)
    with pytest.raises(NotASpec, match=r"returns_three\(\) returned 3"):
        play(draw().bind(returns_three), "ab")


def step_returning_list(state: Any, card: Any) -> Any:
    return [card]


def test_loop_step_returning_unhashable_state() -> None:
    with pytest.raises(
        TypeError, match=r"loop: the state \['a'\] \(list\) returned by step_returning_list\(\) is not hash"
    ):
        chances(loop(0, step_returning_list), Cards("a"))


def test_loop_unhashable_initial_state_is_rejected_at_once() -> None:
    with pytest.raises(TypeError, match=r"loop: .*state \[0\] \(list\).*not hashable.*tuples"):
        loop([0], step_returning_list)  # type: ignore[arg-type]


def test_loop_unhashable_initial_state_is_not_blamed_on_step() -> None:
    with pytest.raises(TypeError) as info:
        loop([0], step_returning_list)  # type: ignore[arg-type]
    assert "returned by" not in str(info.value)


@generate
def yields_three() -> Any:
    yield 3  # type: ignore[misc]


def test_generate_yielding_non_spec() -> None:
    with pytest.raises(NotASpec, match=r"generate: yields_three\(\) yielded 3 \(int\).*yield a spec"):
        chances(yields_three(), DECK)


def not_a_generator() -> Spec[Any]:
    return draw()


def test_generate_on_non_generator_function() -> None:
    with pytest.raises(TypeError, match=r"generate: 'not_a_generator' is not a generator function"):
        generate(not_a_generator)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- combinator arguments


@pytest.mark.parametrize("limit", [0, -1])
def test_draw_until_nonpositive_limit(limit: int) -> None:
    with pytest.raises(InvalidArgument, match=rf"draw_until: limit must be >= 1, got {limit}"):
        draw_until(bool, limit=limit)


def test_draw_until_float_limit() -> None:
    with pytest.raises(TypeError, match=r"draw_until: limit must be an int, got 1\.5"):
        draw_until(bool, limit=1.5)  # type: ignore[arg-type]


def test_draw_count_negative_n() -> None:
    with pytest.raises(InvalidArgument, match=r"draw_count: n must be >= 0, got -1"):
        draw_count(bool, n=-1)


def test_draw_any_negative_n() -> None:
    with pytest.raises(InvalidArgument, match=r"draw_any: n must be >= 0, got -1"):
        draw_any(-1)


def test_draw_groups_zero_size() -> None:
    with pytest.raises(InvalidArgument, match=r"draw_groups\w*: sizes must be >= 1, got 0"):
        draw_groups([0])


def test_draw_groups_string_sizes() -> None:
    with pytest.raises(TypeError, match=r"draw_groups\w*: sizes must be a sequence of ints, got 'ab'"):
        draw_groups("ab")  # type: ignore[misc, arg-type, type-var, return-value]


def test_or_with_non_spec() -> None:
    with pytest.raises(NotASpec, match=r"or_else: other must be a spec, got 3 \(int\).*done\(value\)"):
        draw() | 3  # type: ignore[operator]


# --------------------------------------------------------------------------- chances arguments


@pytest.mark.parametrize("max_states", [0, -1])
def test_chances_nonpositive_max_states(max_states: int) -> None:
    with pytest.raises(InvalidArgument, match=rf"max_states must be a positive int, got {max_states}"):
        chances(draw(), DECK, max_states=max_states)


def test_chances_float_max_states() -> None:
    with pytest.raises(TypeError, match=r"max_states must be an int, got 2\.5"):
        chances(draw(), DECK, max_states=2.5)  # type: ignore[arg-type]


def test_chances_bad_max_draws() -> None:
    with pytest.raises(InvalidArgument, match=r"max_draws must be a positive int, got 0"):
        chances(draw(), coin(), max_draws=0)


def test_chances_source_not_a_source() -> None:
    with pytest.raises(TypeError, match=r"chances: source must be Cards .* or Weighted .*got 'not a source'"):
        chances(draw(), "not a source")  # type: ignore[arg-type]


def test_chances_spec_not_a_spec() -> None:
    with pytest.raises(TypeError, match=r"chances: spec must be a Spec, got 'not a spec'"):
        chances("not a spec", DECK)  # type: ignore[arg-type]


def test_spec_finishing_with_unhashable_value() -> None:
    with pytest.raises(TypeError, match=r"finished with \[1\] \(list\), which is not hashable.*tuple"):
        chances(done([1]), DECK)  # type: ignore[misc, arg-type, type-var, return-value]


def test_spec_finishing_with_unhashable_value_after_draws() -> None:
    with pytest.raises(TypeError, match=r"finished with \['a'\] \(list\), which is not hashable"):
        chances(draw().map(lambda c: [c]), Cards("a"))  # type: ignore[misc, arg-type, type-var, return-value]


# --------------------------------------------------------------------------- limits


def test_state_limit_names_max_states_and_how_to_raise_it() -> None:
    with pytest.raises(StateLimitExceeded, match=r"max_states=5;.*pass a larger max_states"):
        chances(draw_many(3), Cards("abcdef"), max_states=5)


def test_state_limit_not_hit_when_large_enough() -> None:
    assert len(chances(draw_many(3), Cards("abcdef"), max_states=6 * 5 * 4)) == 120


def never_stop(state: int, card: Any) -> int:
    return state


def test_endless_weighted_loop_is_recognised_as_endless() -> None:
    from drawdsl import EndlessProcess

    with pytest.raises(EndlessProcess, match=r"can draw forever"):
        chances(loop(0, never_stop), coin(), max_draws=50)


def test_endless_unkeyed_weighted_spec_stops_at_max_draws() -> None:
    """Fresh lambdas never repeat a state, so no cycle is seen: max_draws stops it."""

    def forever() -> Spec[Any]:
        return draw().bind(lambda side: forever())

    with pytest.raises(StateLimitExceeded, match=r"max_draws=10 .*pass a larger max_draws"):
        chances(forever(), coin(), max_draws=10)


# --------------------------------------------------------------------------- running out of cards


def test_draw_from_empty_deck_fails_the_path() -> None:
    dist = chances(draw(), Cards([]))
    assert dist.failure == 1 and len(dist) == 0


def test_too_many_draws_fail_only_the_short_paths() -> None:
    dist = chances(draw_many(3), Cards("ab"))
    assert dist.failure == 1
    assert chances(draw_any(3), Cards("ab")).failure == 1


def test_sampling_and_playing_an_empty_deck_fail() -> None:
    assert sample(draw(), Cards([]), rng=0) is FAILED
    assert play(draw(), []) is FAILED


# --------------------------------------------------------------------------- exceptions from user code


class Boom(Exception):
    pass


BOOM = Boom("boom")


def explode_on_b(card: str) -> bool:
    if card == "b":
        raise BOOM
    return True


def divide_by_zero_on_b(card: str) -> bool:
    return 1 // (card != "b") == 1


def test_user_exception_propagates_unchanged() -> None:
    with pytest.raises(Boom) as info:
        chances(draw_where(explode_on_b), DECK)
    assert info.value is BOOM


def test_user_zero_division_keeps_its_type() -> None:
    with pytest.raises(ZeroDivisionError) as info:
        chances(draw_where(divide_by_zero_on_b), DECK)
    assert type(info.value) is ZeroDivisionError


@pytest.mark.skipif(sys.version_info < (3, 11), reason="exception notes need Python 3.11")
def test_user_exception_has_note_naming_the_draw() -> None:
    with pytest.raises(ZeroDivisionError) as info:
        chances(draw_where(divide_by_zero_on_b), DECK)
    notes = getattr(info.value, "__notes__", [])
    assert any("draw 1" in note and "'b'" in note for note in notes), notes


def test_user_exception_propagates_from_sampling() -> None:
    with pytest.raises(Boom) as info:
        play(draw_where(explode_on_b), "b")
    assert info.value is BOOM


@pytest.mark.skipif(sys.version_info < (3, 11), reason="exception notes are Python 3.11+")
def test_wrong_card_type_gets_a_hint() -> None:
    """A spec written for playing cards, run on a deck of strings: the error says so."""
    from drawdsl import standard_deck

    spec = draw().map(lambda card: card.rank)
    assert chances(spec, standard_deck())  # fine on the right deck
    with pytest.raises(AttributeError) as info:
        chances(spec, Cards("ab"))
    notes = " ".join(getattr(info.value, "__notes__", []))
    assert "holds cards like 'a' (str)" in notes and "another card type" in notes


def test_progress_callback_sees_every_draw() -> None:
    from drawdsl import draw_count

    seen: list[tuple[int, int]] = []
    chances(draw_count(lambda c: c == "a", 3), Cards("aabbc"), progress=lambda d, s: seen.append((d, s)))
    assert [d for d, _ in seen] == [1, 2, 3]
    assert all(s >= 0 for _, s in seen)


def test_progress_must_be_bool_or_callable() -> None:
    with pytest.raises(TypeError, match="progress"):
        chances(draw(), Cards("ab"), progress="yes")  # type: ignore[arg-type]


def test_progress_true_uses_tqdm_when_installed(monkeypatch: pytest.MonkeyPatch) -> None:
    import types

    from drawdsl import draw_count

    updates: list[int] = []

    class FakeBar:
        def __init__(self, **kwargs: Any) -> None:
            self.n = 0

        def update(self, k: int) -> None:
            self.n += k
            updates.append(self.n)

        def set_postfix(self, **kwargs: Any) -> None:
            pass

    monkeypatch.setitem(sys.modules, "tqdm", types.SimpleNamespace(tqdm=FakeBar))
    chances(draw_count(lambda c: c == "a", 2), Cards("aab"), progress=True)
    assert updates == [1, 2]


def test_progress_true_without_tqdm_prints_to_stderr(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from drawdsl import draw_count

    monkeypatch.setitem(sys.modules, "tqdm", None)  # makes `import tqdm` fail
    chances(draw_count(lambda c: c == "a", 2), Cards("aab"), progress=True)
    assert "2 draws" in capsys.readouterr().err
