"""War deal search: found deals answer the question (replayed by the engine); "none" agrees
with brute force over every deal of small decks."""

from __future__ import annotations

import pytest
from test_war_exact import multiset_orderings

from drawdsl import InvalidArgument, chance
from games.war import QUESTIONS, Rules, deal_hands, deck, play_game, question_spec, search
from games.war import preset as war_preset
from games.war.search import _holds

SMALL = [(3, 2), (4, 2), (2, 4), (3, 4)]
CYCLING = Rules(gather="as_played", face_down=3, short_war="b_takes", deuce_beats_ace="battles")


def answers(question: str, ranks: int, suits: int, rules: Rules, battles: int | None) -> int:
    """How many deals answer yes, by playing every deal."""
    cards = [r for r in range(2, ranks + 2) for _ in range(suits)]
    yes = 0
    for deal in multiset_orderings(cards):
        game = play_game(*deal_hands(deal), rules, top=ranks + 1, log=True)
        yes += _holds(question, game, battles)
    return yes


@pytest.mark.parametrize("rules", [war_preset("standard"), war_preset("three-down"), CYCLING],
                         ids=["standard", "three-down", "cycling"])
@pytest.mark.parametrize(("question", "battles"),
                         [("war-then-win", None), ("sweep", None), ("within", 2), ("endless", None)])
@pytest.mark.parametrize(("ranks", "suits"), SMALL[:3])
def test_search_agrees_with_brute_force(ranks: int, suits: int, question: str, battles: int | None,
                                        rules: Rules) -> None:
    found = search(question, ranks, suits, rules, battles=battles)
    yes = answers(question, ranks, suits, rules, battles)
    assert (found is not None) == (yes > 0)
    if found is not None:
        assert _holds(question, found.game, battles)
        assert sorted(found.hand_a + found.hand_b) == sorted(deck(ranks, suits))
    # the question's program counts the same deals exactly
    total = len(multiset_orderings([r for r in range(2, ranks + 2) for _ in range(suits)]))
    p = chance(question_spec(question, deck(ranks, suits), rules, battles=battles), deck(ranks, suits))
    assert p * total == yes


def test_question_programs_count_the_answering_deals() -> None:
    for question, battles in [("sweep", None), ("within", 3), ("war-then-win", None), ("endless", None)]:
        cards = [r for r in range(2, 6) for _ in range(2)]
        total = len(multiset_orderings(cards))
        p = chance(question_spec(question, deck(4, 2), battles=battles), deck(4, 2))
        assert p * total == answers(question, 4, 2, war_preset("standard"), battles)


def test_first_turn_war_then_a_wins_on_the_full_deck() -> None:
    found = search("war-then-win")
    assert found is not None and found.looked_at < 52
    log = found.game.log
    assert log is not None and log[0][1] >= 1 and log[1][0] == "A"


def test_sweep_and_short_games_on_the_full_deck() -> None:
    sweep = search("sweep", rules=war_preset("three-down"))
    assert sweep is not None and sweep.game.winner == "A"
    assert all(result in ("A", "A wins") for result, _ in sweep.game.log or ())
    quick = search("within", battles=5)
    assert quick is not None and quick.game.battles <= 5


def test_an_endless_deal_of_the_full_deck() -> None:
    found = search("endless", rules=CYCLING)
    assert found is not None and found.game.winner == "cycle"
    assert play_game(found.hand_a, found.hand_b, CYCLING).winner == "cycle"


def test_no_endless_game_on_three_ranks_four_suits() -> None:
    assert search("endless", 3, 4) is None  # a proof: the search covers every deal
    assert answers("endless", 3, 4, war_preset("standard"), None) == 0


def test_bad_questions() -> None:
    assert set(QUESTIONS) == {"war-then-win", "sweep", "within", "endless"}
    with pytest.raises(InvalidArgument, match="unknown question"):
        search("draw")
    with pytest.raises(InvalidArgument, match="needs a number of battles"):
        search("within")
    with pytest.raises(InvalidArgument, match="only applies to the question 'within'"):
        search("sweep", battles=3)
    with pytest.raises(InvalidArgument, match="fixed gather order"):
        search("sweep", 2, 2, Rules(gather="shuffled", detect_cycles=False, max_battles=10))
