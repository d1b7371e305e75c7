"""The card version of Penney's game (Humble-Nishiyama): brute force over every deal of small
decks, seeded simulation with a 5-sigma bound on the 52-card deck, and the table's structure."""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bench.deal_count import deal_counts
from drawdsl import InvalidArgument, chances, loop
from games import penney
from games.penney.cards import _Deal, _solve_by_program, card_step
from games.penney.patterns import Automaton
from games.penney.reach import Reach

# --------------------------------------------------------------------------- the rules, literally


def winner_of_deal(patterns: tuple[str, ...], deal: str, count: str) -> str | None:
    """Score one deal by the rules, independently of the automaton: after each card, look for
    a pattern at the end of the cards turned since the last trick."""
    scores = [0] * len(patterns)
    start = 0
    for i in range(len(deal)):
        window = deal[start:i + 1]
        found = [j for j, p in enumerate(patterns) if window.endswith(p)]
        if found:
            j = min(found, key=lambda k: len(patterns[k]))
            if count == "first":
                return patterns[j]
            scores[j] += 1 if count == "tricks" else len(window)
            start = i + 1
    if count == "first":
        return None
    top = max(scores)
    leaders = [patterns[j] for j, s in enumerate(scores) if s == top]
    return leaders[0] if len(leaders) == 1 else None


def every_deal(patterns: tuple[str, ...], red: int, black: int, count: str) -> dict[str | None, Fraction]:
    """The exact odds by scoring every arrangement of the deck (all equally likely)."""
    n = red + black
    tally: Counter[str | None] = Counter()
    for reds in itertools.combinations(range(n), red):
        deal = ["B"] * n
        for i in reds:
            deal[i] = "R"
        tally[winner_of_deal(patterns, "".join(deal), count)] += 1
    total = math.comb(n, red)
    return {k: Fraction(v, total) for k, v in tally.items()}


def count_deals(patterns: tuple[str, ...], red: int, black: int, count: str) -> dict[str | None, Fraction]:
    """The exact odds by a forward pass over the deal, independent of the automaton: the state
    is the cards left, the last cards of the current trick (as many as a pattern can use) and
    the scores, and each state counts the arrangements of the cards turned so far that reach it.
    No early stop, no clamping: every deal is played to its last card."""
    keep = max(map(len, patterns)) - 1
    frontier: Counter[tuple[int, int, str, tuple[int, ...], int]] = Counter(
        {(red, black, "", (0,) * len(patterns), 0): 1}
    )
    for _ in range(red + black):
        after: Counter[tuple[int, int, str, tuple[int, ...], int]] = Counter()
        for (r, b, window, scores, size), ways in frontier.items():
            for colour, left in (("R", r), ("B", b)):
                if not left:
                    continue
                text = window + colour
                found = [j for j, p in enumerate(patterns) if text.endswith(p)]
                new_scores, new_size = scores, size + 1
                if found:
                    j = min(found, key=lambda k: len(patterns[k]))
                    raised = list(scores)
                    raised[j] += 1 if count == "tricks" else size + 1
                    new_scores, text, new_size = tuple(raised), "", 0
                last = text[-keep:] if keep else ""
                after[(r - (colour == "R"), b - (colour == "B"), last, new_scores, new_size)] += ways
        frontier = after
    tally: Counter[str | None] = Counter()
    for (_, _, _, scores, _), ways in frontier.items():
        top = max(scores)
        leaders = [patterns[j] for j, s in enumerate(scores) if s == top]
        tally[leaders[0] if len(leaders) == 1 else None] += ways
    total = math.comb(red + black, red)
    assert sum(tally.values()) == total
    return {k: Fraction(v, total) for k, v in tally.items()}


def as_outcomes(result: penney.CardOdds) -> dict[str | None, Fraction]:
    out: dict[str | None, Fraction] = {p: q for p, q in result.wins.items() if q}
    if result.draw:
        out[None] = result.draw
    return out


# --------------------------------------------------------------------------- brute force


@pytest.mark.parametrize("count", ["tricks", "cards", "first"])
def test_whole_length_3_table_on_4_red_4_black_matches_every_deal(count: str) -> None:
    rows = penney.card_table(3, red=4, black=4, count=count)
    assert len(rows) == 56
    for row in rows:
        expected = every_deal((row.first, row.second), 4, 4, count)
        assert expected.get(row.first, 0) == row.first_wins, row
        assert expected.get(row.second, 0) == row.second_wins, row
        assert expected.get(None, 0) == row.draw, row


@pytest.mark.parametrize(
    ("patterns", "red", "black"),
    [
        (("RRB", "BRR"), 5, 3),
        (("RB", "BBR"), 3, 5),
        (("RRB", "BRR", "RBR"), 4, 4),
        (("R", "BRB"), 3, 4),  # BRB contains R: it never takes a trick
        (("RRRR", "BB"), 6, 3),
        (("RBRB", "BRR", "BB", "RRR"), 5, 5),
        (("RR", "BB"), 0, 5),
        (("RB", "BR"), 7, 1),
    ],
)
@pytest.mark.parametrize("count", ["tricks", "cards", "first"])
def test_small_decks_match_every_deal(patterns: tuple[str, ...], red: int, black: int, count: str) -> None:
    result = penney.card_odds(*patterns, red=red, black=black, count=count)
    assert as_outcomes(result) == every_deal(patterns, red, black, count)
    assert sum(result.wins.values()) + result.draw == 1


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.text(alphabet="RB", min_size=1, max_size=4), min_size=2, max_size=2, unique=True),
    st.integers(0, 6),
    st.integers(0, 6),
)
def test_two_players_counting_cards_match_every_deal(patterns: list[str], red: int, black: int) -> None:
    """The clamped two-player state of the card count, on decks of up to 12 cards."""
    if red + black == 0:
        return
    result = penney.card_odds(*patterns, red=red, black=black, count="cards")
    assert as_outcomes(result) == every_deal(tuple(patterns), red, black, "cards")


@pytest.mark.parametrize("count", ["tricks", "cards", "first"])
def test_deal_counts_of_the_whole_length_3_table_on_4_red_4_black_match_every_deal(count: str) -> None:
    """The forward count of deals itself (no table, no symmetry), against every deal."""
    for pair in itertools.permutations(penney.all_patterns(3, "RB"), 2):
        first, second, draw = deal_counts(pair, 4, 4, count)
        expected = every_deal(pair, 4, 4, count)
        assert sum((first, second, draw)) == 70
        assert [Fraction(n, 70) for n in (first, second, draw)] == [
            expected.get(pair[0], 0), expected.get(pair[1], 0), expected.get(None, 0)
        ], pair


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.text(alphabet="RB", min_size=1, max_size=4), min_size=2, max_size=2, unique=True),
    st.integers(0, 6),
    st.integers(0, 6),
    st.sampled_from(["tricks", "cards", "first"]),
)
def test_two_player_deal_counts_and_the_draw_program_match_every_deal(
    patterns: list[str], red: int, black: int, count: str
) -> None:
    """Two-player odds by the draw program (a scoring loop, with a pot when counting cards)
    and by the bench's counter of deals, on decks of up to 12 cards, any pattern lengths."""
    if red + black == 0:
        return
    pair = (patterns[0], patterns[1])
    expected = every_deal(pair, red, black, count)
    deals = math.comb(red + black, red)
    counted = [Fraction(n, deals) for n in deal_counts(pair, red, black, count)]
    assert counted == [expected.get(pair[0], 0), expected.get(pair[1], 0), expected.get(None, 0)]
    (first, second), draw = _solve_by_program(pair, red, black, count)
    assert [first, second, draw] == counted


@pytest.mark.parametrize(("red", "black"), [(6, 6), (7, 5), (3, 9)])
@pytest.mark.parametrize("count", ["tricks", "cards", "first"])
def test_the_card_table_equals_the_deal_count_exactly(red: int, black: int, count: str) -> None:
    """Every ordered pair of length 3: the table (the draw program, each game solved once up
    to the players' order and a colour swap) against the bench's counter of deals."""
    deals = math.comb(red + black, red)
    for row in penney.card_table(3, red=red, black=black, count=count):
        counted = tuple(Fraction(n, deals) for n in deal_counts((row.first, row.second), red, black, count))
        assert (row.first_wins, row.second_wins, row.draw) == counted, row


def test_a_pattern_containing_another_never_takes_a_trick() -> None:
    for count in ("tricks", "cards", "first"):
        assert penney.card_odds("BRB", "R", red=4, black=4, count=count).wins["BRB"] == 0


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.text(alphabet="RB", min_size=1, max_size=4), min_size=2, max_size=3, unique=True),
    st.integers(0, 5),
    st.integers(0, 5),
    st.sampled_from(["tricks", "cards", "first"]),
)
def test_random_games_match_every_deal_and_sum_to_one(
    patterns: list[str], red: int, black: int, count: str
) -> None:
    if red + black == 0:
        return
    result = penney.card_odds(*patterns, red=red, black=black, count=count)
    assert sum(result.wins.values()) + result.draw == 1
    assert as_outcomes(result) == every_deal(tuple(patterns), red, black, count)


@pytest.mark.parametrize("patterns", [("RRB", "BRR", "BB"), ("RBR", "BBR")])
@pytest.mark.parametrize("count", ["tricks", "cards", "first"])
def test_memo_loop_is_the_same_program_as_loop(patterns: tuple[str, ...], count: str) -> None:
    """The card game written with drawdsl's plain loop gives the identical distribution."""
    deck = penney.card_deck(6, 6)
    plain = chances(loop(*card_step(patterns, 6, 6, count)), deck)
    assert plain == chances(penney.card_spec(patterns, 6, 6, count), deck)


@pytest.mark.parametrize("patterns", [("RRB", "BRR"), ("RBR", "BBR"), ("RB", "BBB"), ("R", "BB")])
def test_the_clamped_two_player_card_count_agrees_with_the_general_loop(patterns: tuple[str, ...]) -> None:
    """Two players counting cards use a smaller state; the general m-player step agrees."""
    deck = penney.card_deck(9, 8)
    deal = _Deal(patterns, 9, 8, "cards")
    general = chances(loop(deal.start(), deal), deck)
    assert general == chances(penney.card_spec(patterns, 9, 8, "cards"), deck)


def test_colour_swap_and_player_order_are_symmetries_on_an_even_deck() -> None:
    deck = penney.card_deck(6, 6)
    a = chances(penney.card_spec(("RRB", "RBB"), 6, 6, "cards"), deck)
    swapped = chances(penney.card_spec(("BBR", "BRR"), 6, 6, "cards"), deck)
    reordered = chances(penney.card_spec(("RBB", "RRB"), 6, 6, "cards"), deck)
    assert a["RRB"] != a["RBB"]
    assert (a["RRB"], a["RBB"], a[None]) == (swapped["BBR"], swapped["BRR"], swapped[None])
    assert a == reordered


def test_play_cards_follows_the_rules() -> None:
    deal = "RRBBRRRBBBRB"
    for count in ("tricks", "cards", "first"):
        assert penney.play_cards(["RRB", "BBR"], deal, count) == winner_of_deal(("RRB", "BBR"), deal, count)


def test_card_table_through_an_executor_gives_the_same_rows() -> None:
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(2) as pool:
        parallel = penney.card_table(3, red=5, black=5, count="cards", executor=pool)
    assert parallel == penney.card_table(3, red=5, black=5, count="cards")


def test_card_results_in_notebooks_name_the_game() -> None:
    """The HTML of CardOdds, the card table and the best replies: exact chances, and the
    patterns, deck and count in the caption (also after solving the colour-swapped game)."""
    odds = penney.card_odds("BBR", "RRB", red=5, black=4, count="cards")
    html = odds._repr_html_()
    assert "<caption>BBR v RRB: 5 red + 4 black cards, most cards wins</caption>" in html
    for label, p in (("P(BBR wins)", odds.first), ("P(RRB wins)", odds.second), ("P(draw)", odds.draw)):
        assert f"<th>{label}</th><td>{p.numerator}/{p.denominator} <small>" in html
    first = penney.card_odds("RB", "BR", red=3, black=3, count="first")._repr_html_()
    assert "3 red + 3 black cards, first trick wins" in first
    rows = penney.card_table(3, red=4, black=4, count="cards")
    html = rows._repr_html_()
    assert "<caption>56 ordered matchups: 4 red + 4 black cards, most cards wins</caption>" in html
    assert html.count("<tr>") == 57
    assert rows[0]._repr_html_().count("<tr>") == 2
    replies = penney.card_best_reply_table(rows)
    assert isinstance(replies, dict) and "<caption>best replies</caption>" in replies._repr_html_()


# --------------------------------------------------------------------------- the 52-card deck


def five_sigma(p: Fraction, n: int) -> float:
    return 5 * math.sqrt(float(p * (1 - p)) / n) + 1e-12


@pytest.mark.parametrize(("first", "second"), [("RRB", "BRR"), ("RBR", "RRB")])
def test_52_cards_by_tricks_agree_with_a_seeded_shuffle(first: str, second: str) -> None:
    exact = penney.card_odds(first, second)
    rng = random.Random(2024)
    deck = list("R" * 26 + "B" * 26)
    n = 3000
    tally: Counter[str | None] = Counter()
    for _ in range(n):
        rng.shuffle(deck)
        tally[winner_of_deal((first, second), "".join(deck), "tricks")] += 1
    for outcome, p in ((first, exact.first), (second, exact.second), (None, exact.draw)):
        assert abs(tally[outcome] / n - float(p)) < five_sigma(p, n), outcome


def test_52_cards_simulation_of_the_draw_program_agrees() -> None:
    exact = penney.card_odds("BBR", "RBB", count="cards")
    n = 1500
    tally = penney.simulate_cards("BBR", "RBB", count="cards", n=n, seed=7)
    assert tally == penney.simulate_cards("BBR", "RBB", count="cards", n=n, seed=7)
    for outcome, p in (("BBR", exact.first), ("RBB", exact.second), (None, exact.draw)):
        assert abs(tally[outcome] / n - float(p)) < five_sigma(p, n), outcome


def test_52_cards_first_trick_by_hand() -> None:
    """RRB against BRR for the first trick, by hand: if the deal starts R R, the first black
    completes RRB; otherwise the first R R is preceded by a black, which completes BRR.  With
    no two adjacent reds anywhere (27 of the C(52, 26) deals) nobody takes a trick."""
    result = penney.card_odds("RRB", "BRR", count="first")
    no_trick = Fraction(27, math.comb(52, 26))
    assert result.first == Fraction(26 * 25, 52 * 51)
    assert result.draw == no_trick
    assert result.second == 1 - result.first - no_trick
    assert penney.card_odds("RB", "BR", count="first").wins == {"RB": Fraction(1, 2), "BR": Fraction(1, 2)}


def test_best_reply_to_rrr_is_brr_and_to_bbb_is_rbb() -> None:
    reply = penney.card_best_replies("RRR")
    assert reply.patterns == ("BRR",)
    assert reply.probability > Fraction(9, 10)
    mirrored = penney.card_odds("BBB", "RBB")
    assert mirrored.second == reply.probability


@pytest.fixture(scope="module")
def trick_table() -> list[penney.CardMatchup]:
    """The 52-card table by tricks, computed once for the tests that read it."""
    return penney.card_table(3)


def test_the_52_card_trick_table_structure(trick_table: list[penney.CardMatchup]) -> None:
    rows = trick_table
    assert len(rows) == 56
    best = penney.card_best_reply_table(rows)
    for first, reply in best.items():
        for r in reply.patterns:
            assert r[1:] == first[:-1]  # the same shape of reply as with coins
        assert reply.probability > Fraction(1, 2)
    by_pair = {(r.first, r.second): r for r in rows}
    for (a, b), row in by_pair.items():
        swapped = by_pair[(b, a)]
        assert (row.first_wins, row.second_wins) == (swapped.second_wins, swapped.first_wins)
        assert row.draw == swapped.draw


# --------------------------------------------------------------------------- errors


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"patterns": ("RRB", "RRB")}, "named twice"),
        ({"patterns": ("RXB", "RRB")}, "not in the alphabet"),
        ({"patterns": ("RRB",)}, "at least 2"),
        ({"patterns": ("RRB", "BRR"), "red": 0, "black": 0}, "empty"),
        ({"patterns": ("RRB", "BRR"), "red": -1}, ">= 0"),
        ({"patterns": ("RRB", "BRR"), "count": "points"}, "count must be one of"),
    ],
)
def test_bad_card_games_are_refused(kwargs: dict[str, object], message: str) -> None:
    patterns = kwargs.pop("patterns")
    with pytest.raises(InvalidArgument, match=message):
        penney.card_odds(*patterns, **kwargs)  # type: ignore[arg-type, misc]


# --------------------------------------------------------------------------- an independent count of deals


@pytest.mark.parametrize("count", ["tricks", "cards"])
def test_whole_length_3_table_on_13_red_13_black_matches_the_deal_count(count: str) -> None:
    """All 56 ordered pairs on a half deck (10 million deals), against a forward count of deals
    that plays every deal to the end: the early stops and merged states change nothing."""
    rows = penney.card_table(3, red=13, black=13, count=count)
    done: dict[tuple[str, str], dict[str | None, Fraction]] = {}
    for row in rows:
        key = (min(row.first, row.second), max(row.first, row.second))
        if key not in done:
            done[key] = count_deals(key, 13, 13, count)
        expected = done[key]
        assert (row.first_wins, row.second_wins, row.draw) == (
            expected.get(row.first, 0), expected.get(row.second, 0), expected.get(None, 0)
        ), row


@pytest.mark.parametrize(("patterns", "red", "black"), [(("RB", "BBR", "RRR"), 7, 6), (("RRB", "BR"), 9, 4)])
@pytest.mark.parametrize("count", ["tricks", "cards"])
def test_other_games_match_the_deal_count(
    patterns: tuple[str, ...], red: int, black: int, count: str
) -> None:
    assert as_outcomes(penney.card_odds(*patterns, red=red, black=black, count=count)) == {
        k: v for k, v in count_deals(patterns, red, black, count).items() if v
    }


def every_order(red: int, black: int) -> list[str]:
    return ["".join("R" if i in reds else "B" for i in range(red + black))
            for reds in map(set, itertools.combinations(range(red + black), red))]


@pytest.mark.parametrize("patterns", [("RRB", "BRR"), ("RBR", "BBR"), ("RRR", "RB", "BBRB"), ("R", "BB")])
def test_reach_agrees_with_every_order_of_the_cards_left(patterns: tuple[str, ...]) -> None:
    """can_take and must_end are exact, on every order of the cards."""
    machine = Automaton(patterns, "RB")
    reach = Reach(machine, red=5, black=5)
    for where in machine.states:
        for red in range(6):
            for black in range(6):
                takers: set[int | None] = set()
                for order in every_order(red, black):
                    state: str | int = where
                    for colour in order:
                        state = machine.move(state, colour)  # type: ignore[arg-type]
                        if isinstance(state, int):
                            break
                    takers.add(state if isinstance(state, int) else None)
                for j in range(len(patterns)):
                    assert reach.can_take(j, where, red, black) == (j in takers), (where, red, black, j)
                assert reach.must_end(where, red, black) == (None not in takers), (where, red, black)


def test_52_cards_by_tricks_match_the_deal_count() -> None:
    """The 52-card trick odds of two games, against the independent forward count of deals."""
    for first, second in (("RRB", "BRR"), ("RBR", "RRB")):
        exact = penney.card_odds(first, second)
        assert as_outcomes(exact) == count_deals((first, second), 26, 26, "tricks")


@pytest.mark.parametrize(("first", "second"), [("RRB", "BRR"), ("BRB", "RRB")])
def test_52_cards_by_cards_equal_the_deal_count(first: str, second: str) -> None:
    """On the full deck, counting cards: the draw program's odds are the counted deals'."""
    exact = penney.card_odds(first, second, count="cards")
    counted = tuple(Fraction(n, math.comb(52, 26)) for n in deal_counts((first, second), 26, 26, "cards"))
    assert (exact.first, exact.second, exact.draw) == counted


# The published table (Wikipedia, "Penney's game", variation with playing cards, after Humble
# and Nishiyama): for each first choice and its best reply, the chances (in percent) that the
# first player wins, that the second wins and of a draw, by tricks; and the odds in favour of the
# second player when the first trick wins.
PUBLISHED = {
    ("BBB", "RBB"): ("0.11", "99.49", "0.40", "7.50"),
    ("BBR", "RBB"): ("2.62", "93.54", "3.84", "3.08"),
    ("BRB", "BBR"): ("11.61", "80.11", "8.28", "1.99"),
    ("BRR", "BBR"): ("5.18", "88.29", "6.53", "2.04"),
    ("RBB", "RRB"): ("5.18", "88.29", "6.53", "2.04"),
    ("RBR", "RRB"): ("11.61", "80.11", "8.28", "1.99"),
    ("RRB", "BRR"): ("2.62", "93.54", "3.84", "3.08"),
    ("RRR", "BRR"): ("0.11", "99.49", "0.40", "7.50"),
}


def test_52_card_odds_match_the_published_table(trick_table: list[penney.CardMatchup]) -> None:
    tricks = {(row.first, row.second): row for row in trick_table}
    first = {(row.first, row.second): row for row in penney.card_table(3, count="first")}
    for pair, published in PUBLISHED.items():
        row, race = tricks[pair], first[pair]
        computed = tuple(f"{float(p) * 100:.2f}" for p in (row.first_wins, row.second_wins, row.draw))
        assert (*computed, f"{float(race.second_wins / race.first_wins):.2f}") == published, pair


def test_every_column_of_the_table_in_the_docs(trick_table: list[penney.CardMatchup]) -> None:
    """docs/penney.md prints the 52-card table, by tricks and by cards; every cell is checked."""
    from pathlib import Path

    docs = Path(__file__).resolve().parent.parent / "docs" / "penney.md"
    tricks = {(row.first, row.second): row for row in trick_table}
    cards = {(row.first, row.second): row for row in penney.card_table(3, count="cards")}
    checked = 0
    for line in docs.read_text(encoding="utf-8").splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) == 6 and all(c in "RB" for c in cells[0] + cells[1]) and len(cells[0]) == 3:
            for column, table in ((2, tricks), (3, cards)):
                row = table[(cells[0], cells[1])]
                assert Fraction(cells[column]) == row.second_wins, cells
                split = " / ".join(f"{float(p):.4f}" for p in (row.second_wins, row.draw, row.first_wins))
                assert cells[column + 2] == split, cells
            checked += 1
    assert checked == 10
