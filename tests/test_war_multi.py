"""War with 3 or more players: the engine agrees with the two-player engine, the exact law
agrees with playing every distinct deal, the simulation is seeded and split-independent."""

from __future__ import annotations

import itertools
import random
from collections import Counter, deque
from concurrent.futures import ThreadPoolExecutor
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from drawdsl import InvalidArgument
from games.war.engine import play_game
from games.war.exact_game import exact_outcomes
from games.war.multi import check_players, deal_round_robin, multi_battle, play_multi
from games.war.multi_exact import exact_multi
from games.war.multi_simulate import simulate_multi
from games.war.rules import DEUCE_RULES, GATHER_ORDERS, PRESETS, SHORT_WAR_RULES, Rules
from games.war.simulate import simulate

rule_sets = st.builds(
    lambda face_down, deuce, gather, short: Rules(
        face_down=face_down, deuce_beats_ace=deuce, gather=gather, short_war=short,
        # A cap on every game: with cycle detection alone, a rare deal plays for millions of
        # battles (every position is kept), which once took 22 GB under a random profile.
        **({"detect_cycles": False, "max_battles": 300} if gather == "shuffled" else {"max_battles": 20_000}),
    ),
    st.integers(0, 3), st.sampled_from(DEUCE_RULES), st.sampled_from(GATHER_ORDERS),
    st.sampled_from(SHORT_WAR_RULES),
)


def record(game: object) -> tuple[object, ...]:
    return tuple(getattr(game, name) for name in ("winner", "battles", "plays", "wars"))


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_two_players_agree_with_play_game_on_random_deals(name: str) -> None:
    rules = PRESETS[name]
    rng = random.Random(name)
    for i in range(400):
        ranks, suits = rng.choice([(2, 2), (3, 4), (4, 2), (6, 4), (13, 4)])
        cards = [rank for rank in range(2, ranks + 2) for _ in range(suits)]
        rng.shuffle(cards)
        hands = deal_round_robin(cards, 2)
        assert record(play_multi(hands, rules, seed=i, top=ranks + 1)) == record(
            play_game(*hands, rules, seed=i, top=ranks + 1)), (name, cards)


@settings(max_examples=300, deadline=None)
@given(rule_sets, st.integers(1, 5), st.integers(1, 4), st.randoms(use_true_random=False))
def test_two_players_agree_with_play_game_under_any_rules(rules: Rules, ranks: int, suits: int,
                                                          rng: random.Random) -> None:
    cards = [rank for rank in range(2, ranks + 2) for _ in range(2 * suits)]
    rng.shuffle(cards)
    hands = deal_round_robin(cards, 2)
    game = play_multi(hands, rules, seed=3, trace=True)
    assert record(game) == record(play_game(*hands, rules, seed=3))
    two = play_game(*hands, rules, seed=3, trace=True).trace
    # A's pile after every battle; after the last one they may differ: when a short war ends
    # the two-player game, nobody takes the table, while here the last player left does.
    assert game.trace is not None and two is not None
    assert [t[0] for t in game.trace][:-1] == list(two)[:-1]


@settings(max_examples=300, deadline=None)
@given(rule_sets, st.integers(2, 5), st.integers(1, 4), st.integers(2, 5), st.randoms(use_true_random=False))
def test_cards_are_kept_and_the_winner_holds_them(rules: Rules, ranks: int, suits: int, players: int,
                                                  rng: random.Random) -> None:
    cards = [rank for rank in range(2, ranks + 2) for _ in range(suits)]
    if players > len(cards):
        players = len(cards)
    rng.shuffle(cards)
    piles = [deque(hand) for hand in deal_round_robin(cards, players)]
    total = len(cards)
    for _ in range(60):
        if sum(1 for pile in piles if pile) <= 1:
            break
        taker, _, _ = multi_battle(piles, rules, ranks + 1, random.Random(0))
        held = sum(len(pile) for pile in piles)
        assert held <= total  # cards only leave when a whole war's players leave
        if taker is not None:
            assert held == total and piles[taker]
        total = held
    game = play_multi(deal_round_robin(cards, players), rules, seed=1)
    assert game.winner in {"A", "B", "C", "D", "E"}.union({"tie", "cycle", "capped"})


def test_three_players_a_tie_for_highest_is_fought_among_the_tied() -> None:
    # A and C tie on 9, B's 5 stays on the table; A's war card 11 beats C's 3.
    piles = [deque([9, 4, 11]), deque([5, 6]), deque([9, 7, 3, 8])]
    assert multi_battle(piles, Rules(), top=14) == (0, 3, 1)
    assert [list(p) for p in piles] == [[9, 4, 11, 5, 9, 7, 3], [6], [8]]
    # as_played: B's face-up 5 (out of the war), A's 9 and 4, C's 9 and 7, then 11 and 3.
    piles = [deque([9, 4, 11]), deque([5, 6]), deque([9, 7, 3, 8])]
    multi_battle(piles, Rules(gather="as_played"), top=14)
    assert list(piles[0]) == [5, 9, 4, 9, 7, 11, 3]
    piles = [deque([9, 4, 11]), deque([5, 6]), deque([9, 7, 3, 8])]
    multi_battle(piles, Rules(gather="loser_first"), top=14)
    assert list(piles[0]) == [5, 9, 7, 3, 9, 4, 11]


def test_short_wars_with_three_players() -> None:
    # A and B tie on 9 and A has one card left: under "lose" A leaves, B takes everything.
    hands = [[9, 2], [9, 3, 4], [5]]
    piles = [deque(h) for h in hands]
    assert multi_battle(piles, Rules(short_war="lose"), top=14)[0] == 1
    assert [len(p) for p in piles] == [0, 6, 0]
    # "b_takes": the last tied seat (B) takes the table without a war.
    piles = [deque(h) for h in hands]
    assert multi_battle(piles, Rules(short_war="b_takes"), top=14) == (1, 1, 0)
    # "last_card": A plays the 2 face up, B lays 3 face down and 4 up (3 plays): B wins the war.
    piles = [deque(h) for h in hands]
    assert multi_battle(piles, Rules(short_war="last_card"), top=14) == (1, 3, 1)
    # Both tied players out of cards: they leave, the pot is set aside, C plays on alone.
    piles = [deque([9]), deque([9]), deque([5, 6])]
    assert multi_battle(piles, Rules(short_war="available"), top=14)[0] is None
    assert [list(p) for p in piles] == [[], [], [6]]
    assert play_multi([[9], [9], [5, 6]]).winner == "C"
    assert play_multi([[9], [9]]).winner == "tie"


def test_deuce_beats_an_ace_but_not_a_nine() -> None:
    rules = Rules(deuce_beats_ace="always")
    assert multi_battle([deque([14]), deque([2]), deque([9])], rules, top=14)[0] == 2
    # Three 2s over an ace: a war among the 2s; B has no card left and leaves, D's 4 beats C's 3.
    assert multi_battle([deque([14]), deque([2]), deque([2, 3]), deque([2, 4])], rules, top=14)[0] == 3
    assert multi_battle([deque([14]), deque([14])], Rules(deuce_beats_ace="always"), top=14)[0] is None


Law = dict[tuple[str, int | None], Fraction]


def brute_force(ranks: int, suits: int, players: int, rules: Rules | str) -> Law:
    """Play every distinct deal; each has the same probability."""
    cards = [rank for rank in range(2, ranks + 2) for _ in range(suits)]
    deals = set(itertools.permutations(cards))
    law: Counter[tuple[str, int | None]] = Counter()
    for deal in deals:
        game = play_multi(deal_round_robin(deal, players), rules, top=ranks + 1)
        law[game.winner, None if game.winner == "cycle" else game.battles] += 1
    return {outcome: Fraction(count, len(deals)) for outcome, count in law.items()}


@pytest.mark.parametrize(("ranks", "suits", "players", "rules"), [
    (3, 2, 3, "standard"), (2, 3, 3, "three-down"), (4, 2, 3, "standard"), (4, 2, 3, "rblog"),
    (2, 2, 4, "no-face-down"), (3, 2, 4, "standard"), (5, 1, 3, "standard"), (3, 3, 4, "no-face-down"),
    (3, 2, 5, Rules(short_war="lose", gather="as_played")), (4, 2, 2, "standard"),
])
def test_exact_multi_agrees_with_every_deal(ranks: int, suits: int, players: int, rules: Rules | str) -> None:
    result = exact_multi(ranks, suits, players, rules)
    assert dict(result.outcomes.items()) == brute_force(ranks, suits, players, rules)
    assert sum(result.winners.values()) == 1


def test_exact_multi_with_two_players_is_exact_game() -> None:
    for ranks, suits in [(2, 2), (3, 2), (4, 2), (2, 4)]:
        assert exact_multi(ranks, suits, 2).outcomes == exact_outcomes(ranks, suits)


def test_a_deck_that_does_not_divide_gives_the_first_seats_a_card_more() -> None:
    assert deal_round_robin(range(2, 9), 3) == ((2, 5, 8), (3, 6), (4, 7))
    result = exact_multi(3, 2, 4)  # A and B hold two cards, C and D one
    assert result.p("A") + result.p("B") > result.p("C") + result.p("D")


@pytest.mark.parametrize("rules", sorted(PRESETS))
def test_simulate_multi_with_two_players_tallies_as_simulate(rules: str) -> None:
    tally = simulate_multi(500, rules, seed=4, players=2, ranks=6, suits=4)
    table = simulate(500, rules, seed=4, ranks=6, suits=4, engine="reference")
    assert tally.counts == {k: v for k, v in sorted(Counter(table.winner.tolist()).items())}
    ends = [w in ("A", "B", "tie") for w in table.winner.tolist()]
    assert tally.battles == int(table.battles[ends].sum()) and tally.ended == sum(ends)


def test_simulate_multi_does_not_depend_on_the_split() -> None:
    one = simulate_multi(2100, "standard", seed=9, players=4, ranks=5, suits=4)
    with ThreadPoolExecutor(2) as pool:
        two = simulate_multi(2100, "standard", seed=9, players=4, ranks=5, suits=4, executor=pool, chunk=1)
    assert one == two and one.games == sum(one.counts.values()) == 2100
    assert one != simulate_multi(2100, "standard", seed=10, players=4, ranks=5, suits=4)


def test_bad_players() -> None:
    with pytest.raises(InvalidArgument, match="players must be at least 2, got 1"):
        exact_multi(3, 2, 1)
    with pytest.raises(InvalidArgument, match="7 players need at least 7 cards, but the deck has 6"):
        exact_multi(3, 2, 7)
    with pytest.raises(TypeError, match="players must be an int"):
        check_players(2.5, 8, "simulate_multi")
    with pytest.raises(InvalidArgument, match="War needs at least 2 hands"):
        play_multi([[2, 3]])
    with pytest.raises(InvalidArgument, match="shuffled"):
        exact_multi(3, 2, 3, Rules(gather="shuffled", detect_cycles=False, max_battles=10))


@pytest.mark.parametrize("rules", ["standard", Rules(gather="as_played")])
def test_a_cycle_is_the_first_repeated_position_and_never_ends(rules: Rules | str) -> None:
    base = PRESETS[rules] if isinstance(rules, str) else rules
    cycles = 0
    for deal in sorted(set(itertools.permutations([2, 2, 3, 3, 4, 4, 5, 5]))):
        hands = deal_round_robin(deal, 3)
        game = play_multi(hands, base)
        endless = play_multi(hands, base.but(detect_cycles=False, max_battles=500))
        if game.winner != "cycle":
            assert record(game) == record(endless)
            continue
        cycles += 1
        assert endless.winner == "capped"
        piles = [deque(hand) for hand in hands]
        positions = [tuple(map(tuple, piles))]
        for _ in range(game.battles):
            multi_battle(piles, base, top=5)
            positions.append(tuple(map(tuple, piles)))
        assert positions[-1] in positions[:-1]
        assert len(set(positions[:-1])) == len(positions) - 1
    assert cycles > 0
