"""Situations of War: the language, judging a played game, exact chances (against every deal of
small decks played by the rules engine), sampled estimates, finding deals, and `war find`."""

from __future__ import annotations

import itertools
import json
import random
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from drawdsl import play
from drawdsl.cli import main
from games.war import Rules
from games.war.engine import deal_hands, play_game
from games.war.first_turns import first_turns_chance
from games.war.replay import parse_deal
from games.war.situations import (
    And,
    Ends,
    Holds,
    Not,
    Or,
    SituationError,
    Then,
    Turn,
    War,
    Wins,
    estimate,
    exact_bounds,
    exact_chance,
    find,
    history,
    holds,
    horizon,
    parse,
    situation_spec,
    wilson,
)

# --------------------------------------------------------------------------- the language


@pytest.mark.parametrize(("text", "tree"), [
    ("turn 1 tie and turn 2 A", And(Turn(1, "tie"), Turn(2, "A"))),
    ("battle 1 war then A wins", Then(War(1), Wins("A"))),
    ("battle 3 has a war of depth >= 2", War(3, 2)),
    ("battle 3 war depth at least 2", War(3, 2)),
    ("a war then B wins", Then(War(None), Wins("B"))),
    ("A holds >= 40 cards after battle 10", Holds("A", ">=", 40, 10)),
    ("b holds at most 3 cards", Holds("B", "<=", 3, None)),
    ("the game ends within 50 battles", Ends("within", 50)),
    ("ends after 1 battle", Ends("after", 1)),
    ("turn tie or turn 2 B and not A wins", Or(Turn(None, "tie"), And(Turn(2, "B"), Not(Wins("A"))))),
    ("(turn 1 tie or turn 1 A) then turn 2 B then B wins",
     Then(Then(Or(Turn(1, "tie"), Turn(1, "A")), Turn(2, "B")), Wins("B"))),
    ("TURN 1 Tie AND NOT (A wins)", And(Turn(1, "tie"), Not(Wins("A")))),
])
def test_parse(text: str, tree: object) -> None:
    assert parse(text) == tree
    assert parse(tree) is tree


@pytest.mark.parametrize(("text", "words"), [
    ("turn 0 tie", "turn number must be >= 1, got 0 at word 2"),
    ("battle -1 has a war", "battle number must be >= 1, got -1 at word 2"),
    ("A holds >= -3 cards", "number of cards must be >= 0, got -3 at word 4"),
    ("the game ends within 0 battles", "got 0 at word 5"),
    ("turn 1 draw", "expected 'tie', 'A' or 'B' at word 3, got 'draw'"),
    ("turn 1 tie also turn 2 A", "'and', 'or', 'then' or the end at word 4, got 'also'"),
    ("battle 2 has a skirmish", "'war' at word 5, got 'skirmish'"),
    ("C wins", "a situation"),
    ("turn 1 tie and", "after the last word"),
    ("(turn 1 tie", "')' after the last word"),
    ("", "empty"),
])
def test_bad_text_names_the_word_and_its_place(text: str, words: str) -> None:
    with pytest.raises(SituationError, match=words.replace("(", r"\(").replace(")", r"\)")):
        parse(text)


@pytest.mark.parametrize("build", [lambda: Turn(0, "A"), lambda: Turn(1, "win"), lambda: War(1, 0),
                                   lambda: Holds("A", ">", 3, 1), lambda: Holds("A", ">=", -1, 1),
                                   lambda: Ends("before", 3), lambda: Wins("C"),
                                   lambda: And(Turn(1, "A"), War(-2)), lambda: Turn(True, "A")])
def test_trees_built_in_python_are_checked_when_built(build: Any) -> None:
    with pytest.raises(SituationError):
        build()


def test_a_tree_holds_situations() -> None:
    with pytest.raises(TypeError, match="expected a situation"):
        And(Turn(1, "A"), "turn 2 B")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="expected a situation"):
        parse(3)  # type: ignore[arg-type]


def test_horizon() -> None:
    assert horizon("turn 3 A and battle 2 has a war") == (2, 3)
    assert horizon("not A holds >= 30 cards after battle 4 or turn 1 tie") == (4, 1)
    assert horizon("a war") is None
    assert horizon("A wins") is None
    assert horizon("A wins and the game ends within 20 battles") == (20, 0)


# --------------------------------------------------------------------------- judging a game

# A: 7 9 3 2, B: 7 4 5 2.  Battle 1: 7 = 7 (a war), 9 and 4 face down, 3 < 5: B takes 6 cards
# and holds 7, A holds 1.  Battle 2: 2 = 2, A has no card left for the war: B wins.
GAME = ((7, 9, 3, 2), (7, 4, 5, 2))


@pytest.mark.parametrize(("text", "expected"), [
    ("turn 1 tie and turn 2 B", True),
    ("turn 1 tie then turn 2 B", True),
    ("turn 2 B then turn 1 tie", False),
    ("turn 3 tie", True),
    ("turn 4 tie or turn 4 A or turn 4 B", False),
    ("battle 1 has a war", True),
    ("battle 1 has a war of depth >= 2", False),
    ("battle 2 has a war", False),  # the war could not be fought: the game ended
    ("A holds <= 1 cards after battle 1", True),
    ("B holds >= 7 cards after battle 1", True),
    ("B holds >= 8 cards after battle 1", False),
    ("B wins", True),
    ("A wins", False),
    ("not A wins", True),
    ("the game ends within 2 battles", True),
    ("the game ends within 1 battle", False),
    ("the game ends after 2 battles", True),
    ("a war then B wins", True),
    ("B wins then a war", False),
    ("turn tie then turn tie", True),
    ("turn B then turn B", False),
    ("B holds >= 7 cards then turn 3 tie", True),
    ("turn 2 B and battle 1 war then B wins", True),
])
def test_holds_on_a_hand_made_game(text: str, expected: bool) -> None:
    assert holds(text, history(*GAME)) is expected


def test_history_of_a_hand_made_game() -> None:
    h = history(*GAME)
    assert h.turns == ("tie", "B", "tie")
    assert h.wars == (1, 0)
    assert h.last_turn == (2, 3)
    # the game ends with the tied 2s still on the table, as the engine leaves the piles
    assert (h.a_cards, h.b_cards, h.winner) == ((1, 0), (7, 6), "B")


def test_an_endless_game_never_ends() -> None:
    game = play_game((5, 3, 4, 2), (2, 3, 5, 4))
    assert game.winner == "cycle"
    h = history((5, 3, 4, 2), (2, 3, 5, 4))
    assert h.winner is None and len(h.wars) == 2 * game.battles
    assert holds(f"turn {len(h.turns)} A or turn {len(h.turns)} B", h)
    assert not holds("A wins or B wins or the game ends within 1000 battles", h)
    assert holds("not the game ends within 1000 battles", h)


@settings(max_examples=60, deadline=None)
@given(st.randoms(use_true_random=False),
       st.sampled_from(["standard", "three-down", "no-face-down", "rblog"]))
def test_history_agrees_with_play_game(rng: random.Random, rules: str) -> None:
    cards = [r for r in range(2, 8) for _ in range(4)]
    rng.shuffle(cards)
    hand_a, hand_b = deal_hands(cards)
    game = play_game(hand_a, hand_b, rules, log=True, hands=True)
    h = history(hand_a, hand_b, rules)
    assert game.log is not None and game.hands is not None
    if game.winner == "cycle":
        h = history(hand_a, hand_b, rules, battles=game.battles)
    assert len(h.wars) == game.battles
    assert h.wars == tuple(w for _, w in game.log)
    assert h.a_cards == tuple(len(a) for a, _ in game.hands[1:])
    assert h.b_cards == tuple(len(b) for _, b in game.hands[1:])
    assert h.winner == (game.winner if game.winner in ("A", "B", "tie") else None)
    assert len(h.turns) == h.last_turn[-1] == sum(w + 1 for w in h.wars)


# --------------------------------------------------------------------------- exact chances


def every_deal(ranks: int, suits: int) -> list[tuple[int, ...]]:
    cards = [r for r in range(2, ranks + 2) for _ in range(suits)]
    return sorted(set(itertools.permutations(cards)))


DEALS = {shape: every_deal(*shape) for shape in [(3, 2), (4, 2), (2, 4)]}


def atoms() -> st.SearchStrategy[object]:
    k = st.integers(1, 4)
    return st.one_of(
        st.builds(Turn, k, st.sampled_from(["A", "B", "tie"])),
        st.builds(War, k, st.integers(1, 2)),
        st.builds(Holds, st.sampled_from("AB"), st.sampled_from([">=", "<="]), st.integers(0, 8), k),
        st.builds(Ends, st.sampled_from(["within", "after"]), k),
    )


situations = st.recursive(atoms(), lambda inner: st.one_of(
    st.builds(Not, inner), st.builds(And, inner, inner), st.builds(Or, inner, inner),
    st.builds(Then, inner, inner)), max_leaves=4)


@settings(max_examples=120, deadline=None)
@given(situations, st.sampled_from(sorted(DEALS)), st.integers(0, 2),
       st.sampled_from(["never", "battles", "always"]), st.sampled_from(["winner_first", "as_played"]),
       st.sampled_from([None, 1, 2]))
def test_the_draw_program_agrees_with_every_deal_played(s: object, shape: tuple[int, int], face_down: int,
                                                       deuce: str, gather: str, cap: int | None) -> None:
    rules = Rules(face_down=face_down, deuce_beats_ace=deuce, gather=gather, max_battles=cap)
    ranks, suits = shape
    spec = situation_spec(s, rules, ranks=ranks, suits=suits)  # type: ignore[arg-type]
    reach = horizon(s)  # type: ignore[arg-type]
    assert reach is not None
    hits = 0
    for deal in DEALS[shape]:
        # the battles the situation needs (an endless game goes on past its first repeat)
        h = history(*deal_hands(deal), rules, top=ranks + 1, battles=max(reach))
        truth = holds(s, h)  # type: ignore[arg-type]
        hits += truth
        verdict = play(spec, deal)
        assert verdict is None or verdict is truth, (deal, verdict, truth)
    p = Fraction(hits, len(DEALS[shape]))
    bounds = exact_bounds(s, rules, ranks=ranks, suits=suits)  # type: ignore[arg-type]
    assert bounds is not None and bounds[0] <= p <= bounds[1]
    if bounds[0] == bounds[1]:
        assert exact_chance(s, rules, ranks=ranks, suits=suits) == p  # type: ignore[arg-type]


@pytest.mark.parametrize("text", ["turn 1 A and A holds >= 5 cards after battle 1",
                                  "turn 1 tie then turn 2 tie", "turn 1 B and not battle 2 has a war",
                                  "not turn 1 A then turn 2 B"])
def test_exact_chances_on_every_deal_of_4_x_2(text: str) -> None:
    deals = DEALS[(4, 2)]
    p = Fraction(sum(holds(text, history(*deal_hands(d), top=5)) for d in deals), len(deals))
    assert exact_chance(text, ranks=4, suits=2) == p


def test_bounds_when_a_war_runs_past_the_dealt_hands() -> None:
    # 4 x 2: a second tie in battle 1 leaves one dealt card per hand for the next war round, so
    # the round may use cards won earlier or be short: the program leaves those deals open
    text = "battle 1 has a war of depth >= 2"
    deals = DEALS[(4, 2)]
    p = Fraction(sum(holds(text, history(*deal_hands(d), top=5)) for d in deals), len(deals))
    bounds = exact_bounds(text, ranks=4, suits=2)
    assert bounds is not None and bounds[0] < bounds[1]
    assert bounds[0] <= p <= bounds[1]
    assert exact_chance(text, ranks=4, suits=2) is None
    # "battle 1 has a war" is settled at the first tie, whatever comes next
    p = Fraction(sum(holds("battle 1 has a war", history(*deal_hands(d), top=5)) for d in deals), len(deals))
    assert exact_chance("battle 1 has a war", ranks=4, suits=2) == p


def test_the_full_deck_agrees_with_first_turns() -> None:
    for pattern in ("tie", "A", "tie B", "tie tie A", "A B A B"):
        text = " and ".join(f"turn {i} {r}" for i, r in enumerate(pattern.split(), 1))
        assert exact_chance(text) == first_turns_chance(pattern)
    three = Rules(face_down=3)
    assert exact_chance("turn 1 tie and turn 2 tie", three) == first_turns_chance("tie tie", three)
    # a war in battle 1 is a tie on turn 1; depth >= 2 is a tie on turns 1 and 2
    assert exact_chance("battle 1 has a war") == Fraction(3, 51)
    assert exact_chance("battle 1 has a war of depth >= 2") == first_turns_chance("tie tie")
    # settled after the first turn: A wins it and holds 27, or does not and holds at most 25
    assert exact_chance("A holds >= 27 cards after battle 1 and turn 1 A") == Fraction(24, 51)


def test_whole_game_situations_have_no_exact_chance() -> None:
    assert exact_chance("A wins") is None
    assert exact_bounds("a war then A wins") is None
    assert exact_chance("turn 1 A", Rules(gather="shuffled", detect_cycles=False, max_battles=100)) is None
    with pytest.raises(Exception, match="estimate its chance by simulation"):
        situation_spec("A wins")


# --------------------------------------------------------------------------- estimates


def test_estimate_is_seeded_and_counts_the_deals() -> None:
    one = estimate("a war then A wins", ranks=4, suits=2, tries=300, seed=7)
    assert one == estimate("a war then A wins", ranks=4, suits=2, tries=300, seed=7)
    assert one != estimate("a war then A wins", ranks=4, suits=2, tries=300, seed=8)
    deals = DEALS[(4, 2)]
    p = sum(holds("a war then A wins", history(*deal_hands(d), top=5)) for d in deals) / len(deals)
    assert one.low <= p <= one.high  # seed 7 happens to cover it; the interval is 95%
    assert one.low < one.value < one.high


def test_wilson() -> None:
    for hits, tries in [(0, 10), (3, 10), (10, 10), (517, 1000)]:
        low, high = wilson(hits, tries)
        assert 0 <= low <= hits / tries <= high <= 1
        flipped = wilson(tries - hits, tries)
        assert flipped == pytest.approx((1 - high, 1 - low))
    # the textbook value: 0 of n gives (0, z^2 / (n + z^2))
    z = 1.959963984540054
    assert wilson(0, 50)[1] == pytest.approx(z * z / (50 + z * z))


# --------------------------------------------------------------------------- find


def test_find_by_exact_search_gives_a_replayable_deal() -> None:
    # "then" wants a later turn: battle 1 ends at turn 3, so "turn 3 A then ... after battle 1"
    # has no deal, and the search proves it
    assert find("turn 1 tie and turn 2 tie and turn 3 A then A holds >= 31 cards after battle 1").proved == (
        "no deal of 52 cards has it (every deal was covered)")
    found = find("turn 1 tie and turn 2 tie and A holds >= 31 cards after battle 1 then turn 4 B")
    assert found.method == "exhaustive" and found.deal is not None
    assert parse_deal(" ".join(map(str, found.deal))) == found.deal
    assert holds(found.situation, history(*deal_hands(found.deal)))
    assert found.chance is not None and found.chance > 0


def test_find_proves_that_no_deal_exists() -> None:
    for text, shape in [("battle 1 has a war", (4, 1)), ("turn 1 tie and turn 2 tie", (6, 1)),
                        ("turn 1 A and A holds <= 2 cards after battle 1", (3, 2))]:
        found = find(text, ranks=shape[0], suits=shape[1])
        assert found.deal is None and found.chance == 0 and "every deal" in found.proved
        assert not any(holds(text, history(*deal_hands(d))) for d in every_deal(*shape))


def test_find_by_random_search_is_seeded_and_reports_the_extremes() -> None:
    text = "a war then A wins"
    found = find(text, ranks=4, suits=2, tries=200, seed=3)
    assert found == find(text, ranks=4, suits=2, tries=200, seed=3)
    assert found.method == "random" and found.deal is not None and found.estimate is not None
    assert found.shortest is not None and found.longest is not None
    lengths = []
    for deal in (found.deal, found.shortest[1], found.longest[1]):
        h = history(*deal_hands(deal))
        assert holds(text, h)
        lengths.append(len(h.wars))
    assert found.shortest[0] == lengths[1] <= lengths[0] <= lengths[2] == found.longest[0]
    assert "among 200 random deals" in found.proved


def test_find_says_when_the_exact_search_gave_up() -> None:
    found = find("battle 1 has a war of depth >= 2 and turn 5 A", tries=20, max_states=1000)
    assert found.method == "random" and "stopped at max_states=1,000" in found.proved


def test_find_says_when_nothing_was_found() -> None:
    found = find("A wins and B wins", ranks=3, suits=2, tries=50)
    assert found.deal is None and found.estimate is not None and found.estimate.hits == 0
    assert "none found within the limits" in found.proved and "no proof" in found.proved


def test_find_gives_exact_bounds_when_the_hands_do_not_decide() -> None:
    found = find("A wins and the game ends within 6 battles", ranks=4, suits=2, tries=100)
    assert found.bounds is not None and found.bounds[0] < found.bounds[1]
    assert found.chance is None and found.estimate is not None
    assert found.deal is not None and holds(found.situation, history(*deal_hands(found.deal)))
    deals = DEALS[(4, 2)]
    p = Fraction(sum(holds(found.situation, history(*deal_hands(d))) for d in deals), len(deals))
    assert found.bounds[0] <= p <= found.bounds[1]
    # the sampled side: the same deals as estimate(), and the extremes among its hits
    assert found.estimate == estimate(found.situation, ranks=4, suits=2, tries=100)
    assert found.shortest is not None and found.longest is not None
    for battles, deal in (found.shortest, found.longest):
        game = play_game(*deal_hands(deal))
        assert game.battles == battles and holds(found.situation, history(*deal_hands(deal)))
    assert found.shortest[0] <= found.longest[0] <= 6


# --------------------------------------------------------------------------- war find


def test_cli_find_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["war", "find", "turn 1 tie and turn 2 A", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["found"] and data["method"] == "exhaustive"
    assert Fraction(data["probability"]) == first_turns_chance("tie A")
    assert holds("turn 1 tie and turn 2 A", history(*deal_hands(data["deal"])))


def test_cli_find_text_and_replay(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["war", "find", "a war then A wins", "--ranks", "4", "--suits", "2", "--tries", "100",
                 "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert "estimate:" in out and "Wilson" in out and "among 100 random deals (seed 2)" in out
    deal = out.split("drawdsl war replay \"")[1].split("\"")[0]
    assert main(["war", "replay", deal]) == 0


@pytest.mark.parametrize("argv", [["war", "find", "turn 0 tie"], ["war", "find", "A loses"],
                                  ["war", "find", "A wins", "--tries", "0"],
                                  ["war", "find", "A wins", "--ranks", "3", "--suits", "3"]])
def test_cli_find_bad_input(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    try:
        code = main(argv)
    except SystemExit as exit:  # argparse's own errors
        code = exit.code  # type: ignore[assignment]
    assert code == 2
    err = capsys.readouterr().err
    assert err.startswith("drawdsl") and "Traceback" not in err


def test_a_war_that_may_end_the_game_now_is_not_a_later_moment() -> None:
    # Found by the hypothesis test above on a random run: hands (3, 3, 2, 2) each tie four
    # times and the game ends in the war at turn 4, so battle 1's war is at turn 4, not
    # after turn 4; the draw program said True for "turn 4 tie, then battle 1 has a war".
    s = Then(Turn(4, "tie"), War(1, 1))
    rules = Rules(face_down=0, deuce_beats_ace="never", gather="winner_first", max_battles=None)
    spec = situation_spec(s, rules, ranks=2, suits=4)
    for deal in DEALS[(2, 4)]:
        truth = holds(s, history(*deal_hands(deal), rules, top=3, battles=4))
        verdict = play(spec, deal)
        assert verdict is None or verdict is truth, (deal, verdict, truth)
