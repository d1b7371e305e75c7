"""War deal search: found deals answer the question (replayed by the engine); "none" agrees
with brute force over every deal of small decks."""

from __future__ import annotations

import sys

import numpy as np
import pytest
from test_war_exact import multiset_orderings

from drawdsl import InvalidArgument, MissingExtra, StateLimitExceeded, chance
from games.war import QUESTIONS, Rules, deal_hands, deck, play_game, question_spec, search, simulate
from games.war import preset as war_preset
from games.war.search import SearchGaveUp, _holds, _sample
from games.war.simulate import BLOCK, deal_block

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
    with pytest.raises(InvalidArgument, match="'endless' needs cycle detection"):
        search("endless", 3, 2, "rblog")  # it used to answer None, a wrong "proof"
    rblog_detecting = war_preset("rblog").but(detect_cycles=True, max_battles=None)
    found = search("endless", 4, 2, rblog_detecting)
    assert (found is not None) == (answers("endless", 4, 2, rblog_detecting, None) > 0)
    with pytest.raises(InvalidArgument, match="fixed gather order"):
        search("sweep", 2, 2, Rules(gather="shuffled", detect_cycles=False, max_battles=10))


# --------------------------------------------------------------------------- sampling


def test_sampling_finds_what_the_exhaustive_search_cannot_reach() -> None:
    # 20 cards: 20,000 states are not enough for the depth-first search ...
    with pytest.raises(StateLimitExceeded, match=r"stopped at max_states=20,000; .*samples=N"):
        search("endless", 10, 2, max_states=20_000)
    # ... but about 1 deal in 30,000 never ends, and sampling finds one
    found = search("endless", 10, 2, max_states=20_000, samples=200_000, seed=3)
    assert found is not None and found.method == "sampled" and found.looked_at == 20
    assert found.game.winner == "cycle"
    assert play_game(found.hand_a, found.hand_b, Rules()).winner == "cycle"
    # it is the first endless deal among the simulator's deals for that seed
    decks = np.concatenate([deal_block(3, b, 10, 2)[0] for b in range(200_000 // BLOCK + 1)])
    table = simulate(len(decks), Rules(), seed=3, ranks=10, suits=2)
    first = int(np.flatnonzero(table.winner == "cycle")[0])
    assert (tuple(decks[first][0::2]), tuple(decks[first][1::2])) == (found.hand_a, found.hand_b)


@pytest.mark.parametrize(("question", "battles"),
                         [("war-then-win", None), ("sweep", None), ("within", 3), ("endless", None)])
def test_sampled_deals_answer_the_question(question: str, battles: int | None) -> None:
    rules = CYCLING if question == "endless" else war_preset("standard")
    found = _sample(question, 4, 2, rules, battles, 5_000, 0)  # what search() falls back to
    assert found is not None and found.method == "sampled"
    assert _holds(question, found.game, battles)
    assert sorted(found.hand_a + found.hand_b) == sorted(deck(4, 2))


def test_sampling_gives_up_with_a_bound_where_no_deal_exists() -> None:
    assert search("endless", 3, 4) is None  # a proof that no 3 x 4 game is endless
    bound = r"none of 3,000 random deals \(seed 5\).*fewer than 3 in 3,000"
    with pytest.raises(SearchGaveUp, match=bound) as err:
        search("endless", 3, 4, max_states=50, samples=3_000, seed=5)
    gave_up = err.value
    assert (gave_up.question, gave_up.samples, gave_up.seed, gave_up.max_states) == ("endless", 3000, 5, 50)
    assert isinstance(gave_up, StateLimitExceeded)  # code catching the old error still works
    for bad in (-1, 1.5, True):
        with pytest.raises(InvalidArgument, match="must be an int >= 0"):
            search("endless", 3, 4, samples=bad)  # type: ignore[arg-type]
        with pytest.raises(InvalidArgument, match="must be an int >= 0"):
            search("endless", 3, 4, seed=bad)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- a published cycle


def test_spiveys_cycling_deal() -> None:
    """Spivey, "Cycles in War", Integers 10 (2010) #G02: with 52 distinct ranks (1 the
    highest) and the winner's card first, this deal cycles, "over 30,000 battles" before
    the deck returns to this ordering.  Our engine: the position comes back after 31,920."""
    a = [26, 46, 1, 7, 8, 27, 9, 28, 29, 47, 2, 10, 11, 30, 12, 31, 32, 48, 3, 13, 14, 33, 15, 34, 35, 49]
    b = [16, 36, 17, 37, 38, 50, 4, 18, 19, 39, 20, 40, 41, 51, 5, 21, 22, 42, 23, 43, 44, 52, 6, 24, 25, 45]
    ours_a, ours_b = [54 - card for card in a], [54 - card for card in b]  # ranks 2..53, 53 the highest
    game = play_game(ours_a, ours_b, Rules(), trace=True)
    assert (game.winner, game.battles, game.wars) == ("cycle", 31_920, 0)
    assert game.trace is not None and game.trace[-1] == 26  # back to 26 cards each
    # the order of the returned cards matters: with the loser's card first the game ends
    assert play_game(ours_a, ours_b, Rules(gather="loser_first")).winner in ("A", "B")


def test_sampling_without_numpy_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "numpy", None)  # makes `import numpy` fail
    says = r'stopped at max_states=50, .*pip install "drawdsl\[sim\]".*samples=0'
    with pytest.raises(MissingExtra, match=says):
        search("endless", 3, 4, max_states=50, samples=10)
    with pytest.raises(StateLimitExceeded):  # without sampling, numpy is not needed
        search("endless", 3, 4, max_states=50)
    assert search("endless", 3, 4) is None
