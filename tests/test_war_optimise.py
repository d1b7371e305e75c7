"""The shortest and longest games where a situation happens: every claim of `optimise` (the
deal, its length, the proved range, "none exists") against every deal of small decks played
by the engine, the lower bounds it derives, and `war find --shortest|--longest`."""

from __future__ import annotations

import functools
import itertools
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from drawdsl import InvalidArgument
from drawdsl.cli import main
from games.war import Rules
from games.war.engine import deal_hands
from games.war.optimise import _floor, _turns_to_end, game_length, optimise
from games.war.situations import (
    And,
    Ends,
    History,
    Holds,
    Not,
    Or,
    Situation,
    Then,
    Turn,
    War,
    Wins,
    history,
    holds,
    parse,
)

SHAPES = [(3, 2), (2, 4), (4, 2)]


@functools.cache
def every_deal(ranks: int, suits: int) -> tuple[tuple[int, ...], ...]:
    cards = [r for r in range(2, ranks + 2) for _ in range(suits)]
    return tuple(sorted(set(itertools.permutations(cards))))


@functools.lru_cache(maxsize=64)
def finished_games(rules: Rules, ranks: int, suits: int) -> tuple[tuple[tuple[int, ...], History], ...]:
    """Every deal of the deck whose game ends, with its history (the brute-force oracle)."""
    games = ((deal, history(*deal_hands(deal), rules, top=ranks + 1)) for deal in every_deal(ranks, suits))
    return tuple((deal, h) for deal, h in games if h.winner is not None)


def lengths(s: Situation | str, rules: Rules, ranks: int, suits: int, measure: str) -> list[int]:
    """The lengths of every game that ends and has the situation."""
    return [len(h.wars) if measure == "battles" else len(h.turns)
            for _, h in finished_games(rules, ranks, suits) if holds(s, h)]


def check_claims(best: Any, s: Situation | str, rules: Rules, ranks: int, suits: int) -> None:
    """Every claim of the answer holds on the brute-force oracle."""
    found = lengths(s, rules, ranks, suits, best.measure)
    truth = None if not found else (min(found) if best.goal == "shortest" else max(found))
    if best.exists is False:
        assert truth is None, best
        return
    if best.deal is not None:
        assert game_length(s, best.deal, rules, measure=best.measure, top=ranks + 1) == best.length
        assert truth is not None
        assert (truth <= best.length) if best.goal == "shortest" else (truth >= best.length)
    if truth is not None:
        assert best.low is None or best.low <= truth, best
        assert best.high is None or truth <= best.high, best
    if best.optimal:
        assert best.length == truth


# --------------------------------------------------------------------------- optimum = brute force


CASES = ["A wins", "B wins", "a war then A wins", "battle 1 has a war and A wins", "turn 2 tie",
         "B holds >= 6 cards after battle 2 and A wins", "not a war",
         "A wins and the game ends within 3 battles", "battle 1 has a war then A wins"]


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("text", CASES)
def test_the_optimum_is_the_brute_force_optimum(text: str, shape: tuple[int, int]) -> None:
    rules = Rules()
    for goal, measure in itertools.product(("shortest", "longest"), ("battles", "turns")):
        best = optimise(text, goal, measure, rules, ranks=shape[0], suits=shape[1], tries=50, seed=1)
        check_claims(best, text, rules, *shape)
        assert best.status in ("optimal", "none"), best  # small decks: always decided


def atoms() -> st.SearchStrategy[Situation]:
    k = st.one_of(st.none(), st.integers(1, 4))
    return st.one_of(
        st.builds(Turn, k, st.sampled_from(["A", "B", "tie"])),
        st.builds(War, k, st.integers(1, 2)),
        st.builds(Holds, st.sampled_from("AB"), st.sampled_from([">=", "<="]), st.integers(0, 8), k),
        st.builds(Ends, st.sampled_from(["within", "after"]), st.integers(1, 6)),
        st.builds(Wins, st.sampled_from("AB")),
    )


situations = st.recursive(atoms(), lambda inner: st.one_of(
    st.builds(Not, inner), st.builds(And, inner, inner), st.builds(Or, inner, inner),
    st.builds(Then, inner, inner)), max_leaves=4)
rule_sets = st.builds(Rules, face_down=st.integers(0, 2),
                      deuce_beats_ace=st.sampled_from(["never", "always"]),
                      gather=st.sampled_from(["winner_first", "as_played"]),
                      short_war=st.sampled_from(["lose", "last_card", "available", "b_takes"]),
                      max_battles=st.sampled_from([None, 6]))


@settings(max_examples=60, deadline=None)
@given(situations, rule_sets, st.sampled_from(SHAPES), st.sampled_from(["shortest", "longest"]),
       st.sampled_from(["battles", "turns"]), st.sampled_from([1, 40, 100_000]), st.sampled_from([0, 30]),
       st.integers(0, 3))
def test_every_claim_holds_on_every_deal(s: Situation, rules: Rules, shape: tuple[int, int], goal: str,
                                         measure: str, max_states: int, tries: int, seed: int) -> None:
    best = optimise(s, goal, measure, rules, ranks=shape[0], suits=shape[1], tries=tries, seed=seed,
                    max_states=max_states)
    check_claims(best, s, rules, *shape)
    if max_states == 100_000:
        assert best.status in ("optimal", "none"), best


@settings(max_examples=60, deadline=None)
@given(situations, rule_sets, st.sampled_from(SHAPES))
def test_the_lower_bounds_hold_on_every_deal(s: Situation, rules: Rules, shape: tuple[int, int]) -> None:
    battles, turns = _floor(s)
    half = shape[0] * shape[1] // 2
    for _, h in finished_games(rules, *shape):
        assert len(h.turns) >= _turns_to_end(half, rules, len(h.wars))
        if holds(s, h):
            assert len(h.wars) >= battles and len(h.turns) >= max(turns, _turns_to_end(half, rules, battles))


def test_the_card_count_bound_is_reached() -> None:
    # 2 x 4 under the standard rules: two ties, then the last cards decide: 3 turns, one battle
    assert _turns_to_end(4, Rules()) == 3
    assert min(lengths("A wins or B wins", Rules(), 2, 4, "turns")) == 3


# --------------------------------------------------------------------------- the full deck


def test_full_deck_shortest_in_turns_is_proved_by_counting_cards() -> None:
    best = optimise("A wins", "shortest", "turns", tries=0)
    assert (best.length, best.low, best.status) == (14, 14, "optimal")
    assert "a turn takes at most 2 cards from a pile" in best.proved
    assert best.deal is not None and game_length("A wins", best.deal, measure="turns") == 14


def test_full_deck_shortest_in_battles_by_deepening() -> None:
    best = optimise("battle 1 has a war then A wins", "shortest", tries=0)
    assert (best.length, best.low, best.high, best.status) == (2, 2, 2, "optimal")
    assert best.deal is not None
    h = history(*deal_hands(best.deal))
    assert holds("battle 1 has a war then A wins", h) and len(h.wars) == 2 and h.winner == "A"


def test_full_deck_longest_is_bounded_by_the_situation() -> None:
    best = optimise("A wins and the game ends within 3 battles", "longest", tries=0, max_states=2_000)
    assert best.high == 3 and "the situation says so" in best.proved
    assert best.deal is not None and best.length is not None and best.length <= 3
    assert game_length("A wins", best.deal) == best.length


def test_full_deck_longest_without_a_proof_says_so() -> None:
    best = optimise("A wins", "longest", tries=30, seed=2, max_states=200)
    assert best.high is None and best.status == "bounded"
    assert "no upper bound proved" in best.proved and "stopped at max_states=200" in best.proved
    assert best.deal is not None and game_length("A wins", best.deal) == best.length == best.low


# --------------------------------------------------------------------------- the search itself


def test_local_search_is_seeded_and_beats_its_first_deal() -> None:
    # max_states=1: the exhaustive searches give up at once, so the deal is the local search's
    one = optimise("a war then A wins", "longest", ranks=6, suits=2, tries=300, seed=5, max_states=1)
    two = optimise("a war then A wins", "longest", ranks=6, suits=2, tries=300, seed=5, max_states=1)
    assert one == two and one.deal is not None and one.length is not None
    first = optimise("a war then A wins", "longest", ranks=6, suits=2, tries=1, seed=5, max_states=1)
    assert first.length is None or one.length >= first.length
    assert game_length("a war then A wins", one.deal) == one.length


def test_a_situation_no_game_has_is_proved_impossible() -> None:
    best = optimise("battle 1 has a war and A wins", ranks=4, suits=1)
    assert best.status == "none" and best.deal is None and best.exists is False
    assert not lengths("battle 1 has a war and A wins", Rules(), 4, 1, "battles")


def test_endless_and_capped_games_do_not_count() -> None:
    # under a cap of 2 battles, no game of 3 x 2 that lasts longer counts
    capped = Rules(max_battles=2)
    best = optimise("A wins", "longest", rules=capped, ranks=3, suits=2)
    assert best.optimal and best.length == max(lengths("A wins", capped, 3, 2, "battles")) <= 2


@pytest.mark.parametrize(("call", "words"), [
    (lambda: optimise("A wins", "quickest"), "goal"),
    (lambda: optimise("A wins", measure="moves"), "measure"),
    (lambda: optimise("A wins", tries=-1), "tries"),
    (lambda: optimise("A wins", max_states=0), "max_states"),
    (lambda: optimise("A wins", ranks=3, suits=3), "equal hands"),
    (lambda: optimise("A wins", rules=Rules(gather="shuffled", detect_cycles=False, max_battles=9)),
     "shuffled"),
    (lambda: optimise("A wns"), "'wns'"),
])
def test_bad_input_names_the_argument(call: Any, words: str) -> None:
    with pytest.raises(InvalidArgument, match=words):
        call()


def test_parse_is_shared() -> None:
    assert optimise(parse("A wins"), ranks=3, suits=2) == optimise("A wins", ranks=3, suits=2)


# --------------------------------------------------------------------------- war find --shortest|--longest


def test_cli_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["war", "find", "a war then A wins", "--longest", "--ranks", "4", "--suits", "2",
                 "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["goal"] == "longest" and data["measure"] == "battles" and data["status"] == "optimal"
    assert data["length"] == data["low"] == data["high"] == max(lengths("a war then A wins", Rules(), 4, 2,
                                                                          "battles"))
    assert game_length("a war then A wins", tuple(data["deal"])) == data["length"]
    assert data["proved"].startswith("optimal")


def test_cli_text_and_replay(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["war", "find", "a war then A wins", "--shortest", "--measure", "turns", "--ranks", "4",
                 "--suits", "2"]) == 0
    out = capsys.readouterr().out
    assert "shortest game that ends with it: 3 turns (optimal)" in out and "proved: optimal" in out
    deal = out.split("drawdsl war replay \"")[1].split("\"")[0]
    assert main(["war", "replay", deal]) == 0


@pytest.mark.parametrize("argv", [
    ["war", "find", "A wins", "--measure", "turns"],
    ["war", "find", "A wins", "--shortest", "--longest"],
    ["war", "find", "A wins", "--shortest", "--measure", "moves"],
    ["war", "find", "A wns", "--shortest"],
    ["war", "find", "battle 0 has a war", "--longest"],
    ["war", "find", "A wins", "--shortest", "--ranks", "3", "--suits", "3"],
    ["war", "find", "A wins", "--longest", "--gather", "shuffled", "--max-battles", "50"],
])
def test_cli_bad_input(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    try:
        code = main(argv)
    except SystemExit as exit:  # argparse's own errors
        code = exit.code  # type: ignore[assignment]
    assert code == 2
    err = capsys.readouterr().err
    assert err.startswith("drawdsl: error:") and err.count("\n") == 1 and "Traceback" not in err
