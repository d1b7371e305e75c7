"""War rules engine: the rules as data, one battle, whole games, exact cycles, the R-bloggers game."""

from __future__ import annotations

import random
from collections import deque

import pytest
from hypothesis import given
from hypothesis import strategies as st

from drawdsl import InvalidArgument
from games import war
from games.war import PRESETS, Rules, deal_hands, hand_features, play_game, preset
from games.war.engine import battle

RULES = st.builds(
    Rules,
    face_down=st.integers(0, 3),
    deuce_beats_ace=st.sampled_from(["never", "battles", "always"]),
    gather=st.sampled_from(["winner_first", "loser_first", "as_played"]),
    short_war=st.sampled_from(["lose", "last_card", "available", "b_takes"]),
)


def small_deal(ranks: int, suits: int) -> st.SearchStrategy[list[int]]:
    return st.permutations([r for r in range(2, ranks + 2) for _ in range(suits)])


# --------------------------------------------------------------------------- one battle


def test_plain_battle_and_gather_orders() -> None:
    for gather, expected in [("winner_first", [9, 4]), ("loser_first", [4, 9]), ("as_played", [9, 4])]:
        a, b = deque([9, 5]), deque([4, 6])
        assert battle(a, b, Rules(gather=gather), top=14) == ("A", 1, 0)
        assert list(a) == [5, *expected] and list(b) == [6]
    a, b = deque([4, 5]), deque([9, 6])
    battle(a, b, Rules(gather="as_played"), top=14)
    assert list(b) == [6, 4, 9]  # A's card first, whoever won


def test_war_gather_orders() -> None:
    # A: 7 (tied) 3 (down) 9 (up); B: 7 4 2: A wins the war
    def after(gather: str) -> list[int]:
        a, b = deque([7, 3, 9, 5]), deque([7, 4, 2, 6])
        assert battle(a, b, Rules(gather=gather), top=14) == ("A", 3, 1)
        return list(a)[1:]

    assert after("winner_first") == [7, 3, 9, 7, 4, 2]
    assert after("loser_first") == [7, 4, 2, 7, 3, 9]
    assert after("as_played") == [7, 3, 7, 4, 9, 2]  # stacks A's then B's, then the deciding pair


def test_deuce_beats_ace_where_the_rule_says() -> None:
    def winner(deuce: str, a: list[int], b: list[int]) -> str:
        return battle(deque(a), deque(b), Rules(deuce_beats_ace=deuce), top=14)[0]

    assert winner("never", [2], [14]) == "B"
    assert winner("battles", [2], [14]) == "A"
    assert winner("battles", [14], [2]) == "B"
    # in a war the deciding 2 vs ace follows the rule only under "always"
    assert winner("battles", [5, 0, 2, 1], [5, 0, 14, 1]) == "B"
    assert winner("always", [5, 0, 2, 1], [5, 0, 14, 1]) == "A"


@pytest.mark.parametrize(
    ("short", "expected"),
    [("lose", "B wins"), ("last_card", "B"), ("available", "B"), ("b_takes", "B")],
)
def test_short_wars(short: str, expected: str) -> None:
    # A has one card after the tie, B plenty; 3 face down
    a, b = deque([8, 3]), deque([8, 1, 1, 1, 9, 2])
    result = battle(a, b, Rules(face_down=3, short_war=short), top=14)
    assert result[0] == expected
    if short == "last_card":  # A's last card (3) is A's face-up card, against B's 9
        assert list(b) == [2, 8, 1, 1, 1, 9, 8, 3] and not a


def test_available_keeps_the_face_up_card_when_out() -> None:
    # A's tied 9 is A's last card: under "available" it stays A's war card, and beats B's 4
    a, b = deque([9]), deque([9, 1, 4, 6])
    assert battle(a, b, Rules(short_war="available"), top=14) == ("A", 3, 1)
    assert battle(deque([9]), deque([9, 1, 4]), Rules(short_war="last_card"), top=14)[0] == "B wins"


def test_both_out_is_a_tie() -> None:
    assert play_game([5], [5]).winner == "tie"
    assert play_game([5, 7], [5, 7], Rules(short_war="lose")).winner == "tie"


# --------------------------------------------------------------------------- rules


def test_rules_are_validated_with_helpful_messages() -> None:
    with pytest.raises(InvalidArgument, match="face_down must be >= 0"):
        Rules(face_down=-1)
    with pytest.raises(InvalidArgument, match="short_war must be one of"):
        Rules(short_war="flee")
    with pytest.raises(InvalidArgument, match="max_battles"):
        Rules(detect_cycles=False)
    with pytest.raises(InvalidArgument, match="detect_cycles=False and a max_battles cap"):
        Rules(gather="shuffled")
    with pytest.raises(InvalidArgument, match="unknown preset 'nope'"):
        preset("nope")
    with pytest.raises(TypeError, match="face_down must be an int"):
        Rules(face_down=1.5)  # type: ignore[arg-type]
    assert set(PRESETS) >= {"standard", "rblog"}


def test_hands_are_checked() -> None:
    with pytest.raises(TypeError, match="integer ranks"):
        play_game(["A"], [2])  # type: ignore[list-item]
    with pytest.raises(InvalidArgument, match="two equal hands"):
        deal_hands([2, 3, 4])
    assert hand_features((14, 2, 2, 9), top=14) == (27, 1, 2)


# --------------------------------------------------------------------------- whole games


def naive_play(hand_a: list[int], hand_b: list[int], rules: Rules) -> tuple[str, int]:
    """Independent game loop: every position kept in a dict, so the first repeat is exact."""
    a, b = deque(hand_a), deque(hand_b)
    top = max(hand_a + hand_b)
    seen: dict[tuple[tuple[int, ...], tuple[int, ...]], int] = {}
    battles = 0
    while True:
        if not a or not b:
            return ("tie" if not a and not b else "A" if a else "B"), battles
        key = (tuple(a), tuple(b))
        if key in seen:
            return "cycle", battles
        seen[key] = battles
        result, _, _ = battle(a, b, rules, top)
        battles += 1
        if len(result) > 1:
            return ("tie" if result == "tie" else result[0]), battles


@given(RULES, st.sampled_from([(2, 4), (3, 2), (4, 2), (3, 4), (5, 2)]), st.randoms(use_true_random=False))
def test_brent_cycle_detection_agrees_with_remembering_every_position(
    rules: Rules, deck: tuple[int, int], rnd: random.Random
) -> None:
    cards = [r for r in range(2, deck[0] + 2) for _ in range(deck[1])]
    rnd.shuffle(cards)
    a, b = deal_hands(cards)
    game = play_game(a, b, rules)
    assert (game.winner, game.battles) == naive_play(list(a), list(b), rules)


def test_a_cycle_reports_where_the_position_first_repeats() -> None:
    game = play_game((5, 3, 4, 2), (2, 3, 5, 4), trace=True, log=True)
    assert (game.winner, game.battles) == ("cycle", 9)
    assert game.trace is not None and len(game.trace) == 9
    assert game.log is not None and len(game.log) == 9
    assert sum(w for _, w in game.log) == game.wars


def test_counts_plays_and_wars() -> None:
    game = play_game([7, 3, 9, 5], [7, 4, 2, 6], log=True)
    assert game.log is not None
    assert game.plays == game.battles + sum(2 * w for _, w in game.log)  # 1 down + 1 up per round


def test_shuffled_returns_depend_on_the_seed_only() -> None:
    rules = Rules(gather="shuffled", detect_cycles=False, max_battles=10_000)
    cards = list(range(2, 15)) * 4
    random.Random(3).shuffle(cards)
    a, b = deal_hands(cards)
    runs = {play_game(a, b, rules, seed=s, trace=True) for s in range(6)}
    assert play_game(a, b, rules, seed=4, trace=True) in runs
    assert len(runs) > 1


def r_bloggers_game(p1: list[int], p2: list[int]) -> tuple[str, list[int]]:
    """A line-by-line transcription of the 2012 R-bloggers War simulation (p1 is A)."""
    n = len(p1) + len(p2)
    p1_cards = [len(p1)]
    while True:
        draw = [p1[0], p2[0]]
        booty: list[int] = []
        if p1[0] > p2[0]:
            if p1[0] == 14 and p2[0] == 2:
                p2, p1 = p2[1:] + draw, p1[1:]
            else:
                p1, p2 = p1[1:] + draw, p2[1:]
        elif p2[0] > p1[0]:
            if p2[0] == 14 and p1[0] == 2:
                p1, p2 = p1[1:] + draw, p2[1:]
            else:
                p2, p1 = p2[1:] + draw, p1[1:]
        else:
            while p1[0] == p2[0]:
                if len(p1) < 5 or len(p2) < 5:
                    break
                booty = booty + p1[:4] + p2[:4]
                p1, p2 = p1[4:], p2[4:]
            draw = [p1[0], p2[0]]
            if p1[0] > p2[0]:
                p1, p2 = p1[1:] + booty + draw, p2[1:]
            else:
                p2, p1 = p2[1:] + booty + draw, p1[1:]
        p1_cards.append(len(p1))
        if len(p1) in (n, 0):
            break
        if len(p1_cards) > 5000:
            break
    return ("W" if len(p1) == n else "L" if not p1 else "N"), p1_cards


def test_rblog_preset_reproduces_the_r_simulation_game_by_game() -> None:
    rnd = random.Random(1066)
    deck = [r for r in range(2, 15) for _ in range(4)]
    capped = 0
    for _ in range(60):
        rnd.shuffle(deck)
        p1, p2 = deck[:26], deck[26:]
        result, sizes = r_bloggers_game(list(p1), list(p2))
        game = play_game(p1, p2, preset("rblog"), trace=True)
        assert game.trace == tuple(sizes[1:])
        assert (game.winner == "A") == (result == "W")
        assert (game.winner == "capped") == (result == "N")
        capped += result == "N"
    assert capped  # the quirks (B takes short wars, the cap) are exercised


def test_capped_endless_games_skip_whole_periods_with_the_same_record() -> None:
    # Without a trace the engine skips the periods of an endless game up to the cap;
    # with one it plays every battle.  The records must agree.
    rnd = random.Random(2012)
    deck = [r for r in range(2, 15) for _ in range(4)]
    rules = preset("rblog")
    capped = 0
    for _ in range(150):
        rnd.shuffle(deck)
        a, b = deal_hands(deck)
        fast = play_game(a, b, rules)
        slow = play_game(a, b, rules, trace=True)
        assert (fast.winner, fast.battles, fast.plays, fast.wars) == (
            slow.winner, slow.battles, slow.plays, slow.wars)
        capped += fast.winner == "capped"
    assert capped >= 5
    for cap in (1, 8, 9, 10, 17, 97):  # a deal that repeats from battle 1 on, every 8 battles
        rules = Rules(max_battles=cap, detect_cycles=False)
        fast = play_game((5, 3, 4, 2), (2, 3, 5, 4), rules)
        slow = play_game((5, 3, 4, 2), (2, 3, 5, 4), rules, log=True)
        assert (fast.winner, fast.battles, fast.plays, fast.wars) == ("capped", cap, slow.plays, slow.wars)


def test_every_war_function_takes_a_preset_name_or_rules() -> None:
    hands = ([5, 2, 9, 3], [3, 7, 4, 9])
    for name in war.PRESETS:
        assert war.play_game(*hands, name) == war.play_game(*hands, war.preset(name))
    assert war.exact_game(2, 2, "three-down") == war.exact_game(2, 2, war.preset("three-down"))
    assert war.exact_outcomes(2, 2, "no-face-down") == war.exact_outcomes(2, 2, war.preset("no-face-down"))
    assert war.search("sweep", 3, 2, "standard") == war.search("sweep", 3, 2)
    for call in (lambda: war.play_game(*hands, 3), lambda: war.exact_game(2, 2, None),  # type: ignore[arg-type]
                 lambda: war.search("sweep", 3, 2, {"face_down": 1})):  # type: ignore[arg-type]
        with pytest.raises(TypeError, match="rules must be a Rules or a preset name"):
            call()
    with pytest.raises(InvalidArgument, match="unknown preset 'casino'"):
        war.play_game(*hands, "casino")
