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
from eager import eager_proofs
from oracle import brute_force, orderings, run
from test_symmetry import RepeatWithin

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
    # docs/how-it-works.md shows (1000000, 10000).
    assert (DEFAULT_MAX_STATES, DEFAULT_MAX_DRAWS) == (1_000_000, 10_000)


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
    with eager_proofs():
        assert chances(spec, deck) == brute_force(spec, deck)


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


# --------------------------------------------------------------------------- the symmetric deck evaluator
#
# A second mutation run, over the rewritten drawdsl/exact.py (the frontier grouped by
# spec, sorted symmetric decks and their fast paths), left these paths unchecked.
# Answers are checked against the brute-force oracle (every ordering of the deck),
# worked out by hand, or, on the 7- and 8-card decks, checked three ways: symmetric
# and plain evaluation must equal merge=False, which runs the separate general
# evaluator (one frontier entry per path, no deck rules).


class _HeldTarget:
    """A loop that starts holding a card (so that card is pinned from the start, at any
    position of the deck): draw until the held card or a repeat of the previous card
    shows, at most ``limit`` draws.  It finishes with how it ended and how many cards
    it took; it compares cards only with each other."""

    def __init__(self, limit: int) -> None:
        self.limit = limit

    def __call__(self, state: tuple[Any, Any, int], card: Any) -> Any:
        target, last, drawn = state
        if card == target:
            return done(("target", drawn + 1))
        if card == last:
            return done(("repeat", drawn + 1))
        if drawn + 1 == self.limit:
            # a free card leaves the loop for a plain draw (a head without symmetry)
            return draw().map(lambda _: ("limit", drawn + 1))
        return (target, card, drawn + 1)


class _ForgetRepeat:
    """Draw until a card repeats within a window of the last ``window`` cards (cards
    leave the state again, so pinned sets shrink), at most ``limit`` draws."""

    def __init__(self, window: int, limit: int) -> None:
        self.window = window
        self.limit = limit

    def __call__(self, state: tuple[int, tuple[Any, ...]], card: Any) -> Any:
        drawn, recent = state
        if card in recent:
            return done(drawn + 1)
        if drawn + 1 == self.limit:
            return done(None)
        return (drawn + 1, (recent + (card,))[-self.window :])


class _TwoBack:
    """Draw ``n`` cards; finish with how many cards equal the previous one and how many
    equal the one before that.  The state holds the last two cards, so a card drawn
    again can leave the state with fewer cards pinned."""

    def __init__(self, n: int) -> None:
        self.n = n

    def __call__(self, state: tuple[int, Any, Any, int, int], card: Any) -> Any:
        drawn, older, newer, pairs, twos = state
        pairs += card == newer
        twos += card == older
        if drawn + 1 == self.n:
            return done((pairs, twos))
        return (drawn + 1, newer, card, pairs, twos)


class _DiscardBetween:
    """Draw until a card repeats, discarding one unseen card after every new card
    (draw_any inside a loop), at most ``limit`` cards looked at."""

    def __init__(self, limit: int) -> None:
        self.limit = limit

    def __call__(self, seen: frozenset[Any], card: Any) -> Any:
        if card in seen:
            return done(len(seen) + 1)
        if len(seen) + 1 == self.limit:
            return done(0)
        return draw_any(1).then(loop(seen | {card}, self))


class _PairThenDraws:
    """Look at two cards; a pair goes on with ``after_pair``, else with ``after_other``
    (continuations that differ per card and leave the loop)."""

    def __init__(self, after_pair: Spec[Any], after_other: Spec[Any]) -> None:
        self.after_pair = after_pair
        self.after_other = after_other

    def __call__(self, first: Any, card: Any) -> Any:
        if first is None:
            return card
        return (
            self.after_pair.map(lambda v: ("pair", v))
            if card == first
            else self.after_other.map(lambda v: ("other", v))
        )


_SYM_DECKS = [
    Cards({"x": 2, "a": 1, "c": 2, "b": 1, "d": 2}),  # several free classes of equal counts
    Cards({"a": 1, "b": 1, "c": 1, "d": 2, "e": 2}),
    Cards({"d": 3, "c": 1, "b": 2, "a": 1}),
    Cards({"p": 2, "q": 2, "c": 1, "s": 1}),
    Cards({"b": 1, "e": 2, "c": 2, "a": 1}),
]


def _sym_specs() -> list[tuple[str, Spec[Any]]]:
    repeat = loop(frozenset(), RepeatWithin(4))
    return [
        ("held-c", loop(("c", None, 0), _HeldTarget(4))),
        ("held-b", loop(("b", None, 0), _HeldTarget(3))),
        ("held-none", loop((None, None, 0), _HeldTarget(4))),
        ("two-back", loop((0, None, None, 0, 0), _TwoBack(4))),
        ("forget", loop((0, ()), _ForgetRepeat(1, 5))),
        ("forget2", loop((0, ()), _ForgetRepeat(2, 4))),
        ("discard-between", loop(frozenset(), _DiscardBetween(4))),
        ("any-first", draw_any(1).then(loop(("c", None, 0), _HeldTarget(3)))),
        ("pair-then", loop(None, _PairThenDraws(draw_any(1).then(repeat), draw().map(lambda c: 1)))),
        ("pair-then-loop", loop(None, _PairThenDraws(repeat, draw_any(2).then(draw().map(lambda c: 0))))),
        (
            "loop-then-any",
            loop((0, ()), _ForgetRepeat(1, 3)).bind(lambda v: draw_any(1).then(repeat.map(lambda w: (v, w)))),
        ),
    ]


_SYM_CASES = [(name, spec, deck) for name, spec in _sym_specs() for deck in _SYM_DECKS]


@pytest.mark.parametrize(
    ("name", "spec", "deck"),
    _SYM_CASES,
    ids=[f"{c[0]}-{i % len(_SYM_DECKS)}" for i, c in enumerate(_SYM_CASES)],
)
def test_symmetric_deck_paths_equal_brute_force(name: str, spec: Spec[Any], deck: Cards[str]) -> None:
    # merge=False takes the general evaluator (one entry per path), a separate code path.
    expected = chances(spec, deck, merge=False)
    with eager_proofs():
        assert chances(spec, deck) == expected
    assert chances(spec, deck) == expected
    assert chances(spec, deck, lump=False, symmetric=False) == expected
    if len(deck) <= 6:
        assert expected == brute_force(spec, deck)


def _discards_by_card(card: Any) -> Spec[Any]:
    # the continuation differs per card: two unseen discards after an "a", one otherwise
    return draw_any(2) if card == "a" else draw_any(1)


_EXHAUSTING_SPECS: list[tuple[str, Spec[Any]]] = [
    ("draw-then-discard-3", draw().then(draw_any(3))),
    ("discard-2-then-draw-2", draw_any(2).then(draw_many(2).map(len))),
    ("discards-by-card", draw().bind(_discards_by_card).then(draw())),
    ("discard-between", loop(frozenset(), _DiscardBetween(10))),
    ("discard-then-loop", draw_any(1).then(loop(frozenset(), RepeatWithin(9)))),
]
_SMALL_DECKS = [Cards("abc"), Cards("aabc"), Cards({"b": 2, "a": 1, "c": 2})]


@pytest.mark.parametrize(("name", "spec"), _EXHAUSTING_SPECS, ids=[s[0] for s in _EXHAUSTING_SPECS])
@pytest.mark.parametrize(
    "options", [{}, {"merge": False}, {"eager": True}], ids=["merge", "no-merge", "proven"]
)
def test_unseen_discards_that_run_out_of_cards(name: str, spec: Spec[Any], options: dict[str, Any]) -> None:
    # A discard or a draw with no card left fails the path: pending discards count.
    for deck in _SMALL_DECKS:
        if options.get("eager"):
            with eager_proofs():
                assert chances(spec, deck) == brute_force(spec, deck), deck
        else:
            assert chances(spec, deck, **options) == brute_force(spec, deck), deck


def test_unseen_discards_that_run_out_by_hand() -> None:
    # One card seen, then three discards: 3 cards are not enough, 4 are.
    for options in ({}, {"merge": False}):
        assert chances(draw().then(draw_any(3)), Cards("abc"), **options) == Distribution({}, Fraction(1))
        assert chances(draw().then(draw_any(3)), Cards("abcd"), **options) == Distribution({None: 1})


def test_symmetric_mode_keeps_one_live_state_per_draw() -> None:
    # Draw until a repeat (at most 3 cards) from a deck of three pairs.  Up to a renaming
    # of the cards there is one state per draw: {x} over (1, 2, 2), then {x, y} over
    # (1, 1, 2).  P(2 cards) = 1/5, P(3 cards) = 4/5 * 2/4 = 2/5, else it fails.
    spec = loop(frozenset(), RepeatWithin(3))
    deck = Cards({"a": 2, "b": 2, "c": 2})
    expected = Distribution({2: Fraction(1, 5), 3: Fraction(2, 5)}, Fraction(2, 5))
    seen: list[tuple[int, int]] = []
    # Past max_states=1 the evaluator proves the symmetry, then starts again with it.
    assert chances(spec, deck, max_states=1, progress=lambda d, s: seen.append((d, s))) == expected
    assert seen == [(1, 1), (2, 1), (3, 0)]
    with pytest.raises(StateLimitExceeded, match="reached 3 live states at draw 1, over max_states=2"):
        chances(spec, deck, max_states=2, symmetric=False)
    # With a single "c" the first card is one of two classes: {x} over (1, 1, 2) (x one
    # of the pairs) or over (0, 2, 2) (x the "c"): 2 live states, one over the limit.
    with pytest.raises(StateLimitExceeded, match="reached 2 live states at draw 1, over max_states=1"):
        chances(spec, Cards({"a": 2, "b": 2, "c": 1}), max_states=1)
    assert chances(spec, Cards({"a": 2, "b": 2, "c": 1}), max_states=3) == brute_force(
        spec, Cards({"a": 2, "b": 2, "c": 1})
    )


@pytest.mark.parametrize("source", [Cards("ab"), coin()], ids=["no-merge", "weighted"])
def test_error_note_in_the_general_evaluator(source: Any) -> None:
    with pytest.raises(ValueError, match="boom on") as info:
        chances(draw().bind(_boom), source, merge=False)
    card = source.distinct()[0]
    assert getattr(info.value, "__notes__", None) == [
        f"drawdsl: raised while evaluating the spec after draw 1 (card {card!r})"
    ]


@pytest.mark.parametrize(
    ("source", "merge"), [(Cards("abc"), False), (coin(), True)], ids=["no-merge", "weighted"]
)
def test_max_draws_boundary_in_the_general_evaluator(source: Any, merge: bool) -> None:
    # Both run the general evaluator: exactly max_draws draws are allowed, one more is not.
    spec = draw_many(2)
    assert chances(spec, source, merge=merge, max_draws=2) == _two_draws_expected(spec, source)
    with pytest.raises(StateLimitExceeded, match=r"after max_draws=1 draws"):
        chances(spec, source, merge=merge, max_draws=1)


def _two_draws_expected(spec: Spec[Any], source: Any) -> Distribution[Any]:
    if isinstance(source, Cards):
        return brute_force(spec, source)
    # two fair flips: each ordered pair has probability 1/4
    return Distribution({(a, b): Fraction(1, 4) for a in "HT" for b in "HT"})


def test_weighted_source_without_merging() -> None:
    # Found by mutation testing: the cycle check read the no-merge frontier (a list of
    # (key, weight) pairs) as if it were the merging one's keys (IndexError on draw 2).
    dist = chances(draw_many(2), coin(), merge=False)
    assert dist == Distribution({(a, b): Fraction(1, 4) for a in "HT" for b in "HT"})
    biased = coin(Fraction(1, 3))
    for spec in (draw_many(3), draw_until(lambda side: side == "H", 4)):
        assert chances(spec, biased, merge=False) == chances(spec, biased)


def test_max_states_boundary_on_a_weighted_source() -> None:
    # Two flips: after the first there are 2 live states (H or T seen so far).
    spec = draw_many(2)
    assert chances(spec, coin(), max_states=2) == _two_draws_expected(spec, coin())
    with pytest.raises(StateLimitExceeded, match="reached 2 live states at draw 1, over max_states=1"):
        chances(spec, coin(), max_states=1)


def _boom_on_b(card: Any) -> Spec[Any]:
    if card == "b":
        raise ValueError("boom on 'b'")
    return done(card)


@pytest.mark.parametrize("options", [{}, {"merge": False}], ids=["merge", "no-merge"])
def test_error_note_names_a_card_that_is_not_the_first(options: dict[str, Any]) -> None:
    # "b" is the second distinct card of the deck: the note names it, not "a" or None.
    with pytest.raises(ValueError, match="boom on 'b'") as info:
        chances(draw().bind(_boom_on_b), Cards("ab"), **options)
    assert getattr(info.value, "__notes__", None) == [
        "drawdsl: raised while evaluating the spec after draw 1 (card 'b')"
    ]
