"""Penney's race on coins and dice: checked against Conway's formula, brute force and famous values."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from drawdsl import InvalidArgument, chances, coin
from games import penney
from games.penney.patterns import Automaton

# --------------------------------------------------------------------------- independent checks


def leading_number(x: str, y: str, p: dict[str, Fraction]) -> Fraction:
    """Conway's leading number x:y, weighted: the sum over every k such that x's last k
    symbols are y's first k of 1 / P(y's first k symbols)."""
    total = Fraction(0)
    for k in range(1, min(len(x), len(y)) + 1):
        if x[-k:] == y[:k]:
            prob = Fraction(1)
            for symbol in y[:k]:
                prob *= p[symbol]
            total += 1 / prob
    return total


def conway_two(a: str, b: str, p: dict[str, Fraction]) -> tuple[Fraction, Fraction]:
    """P(a appears before b) and the expected length, by Conway's formulas."""
    aa, ab, ba, bb = (leading_number(x, y, p) for x, y in ((a, a), (a, b), (b, a), (b, b)))
    p_a = (bb - ba) / ((bb - ba) + (aa - ab))
    length = (aa * bb - ab * ba) / (aa + bb - ab - ba)
    return p_a, length


def conway_many(patterns: tuple[str, ...], p: dict[str, Fraction]) -> tuple[list[Fraction], Fraction]:
    """Win probabilities q and expected length E of a race of several patterns (none inside
    another) from the linear system sum_j q_j (A_j : A_i) = E for every i, sum_j q_j = 1."""
    m = len(patterns)
    rows = [
        [leading_number(patterns[j], patterns[i], p) for j in range(m)] + [Fraction(-1), Fraction(0)]
        for i in range(m)
    ]
    rows.append([Fraction(1)] * m + [Fraction(0), Fraction(1)])
    n = m + 1
    for col in range(n):  # Gauss-Jordan over the rationals
        pivot = next(r for r in range(col, n) if rows[r][col] != 0)
        rows[col], rows[pivot] = rows[pivot], rows[col]
        lead = rows[col][col]
        rows[col] = [v / lead for v in rows[col]]
        for r in range(n):
            if r != col and rows[r][col]:
                factor = rows[r][col]
                rows[r] = [v - factor * w for v, w in zip(rows[r], rows[col], strict=True)]
    return [rows[i][n] for i in range(m)], rows[m][n]


def brute_lengths(patterns: tuple[str, ...], horizon: int, p: dict[str, Fraction]) -> dict[object, Fraction]:
    """The distribution of (winner, length) over every sequence of ``horizon`` symbols;
    the key "unfinished" holds the sequences where no pattern appears."""
    result: dict[object, Fraction] = {}
    for word in itertools.product(list(p), repeat=horizon):
        text = "".join(word)
        prob = Fraction(1)
        for symbol in text:
            prob *= p[symbol]
        key: object = "unfinished"
        for end in range(1, horizon + 1):
            done = [q for q in patterns if text[:end].endswith(q)]
            if done:
                key = (min(done, key=len), end)
                break
        result[key] = result.get(key, Fraction(0)) + prob
    return result


FAIR = {"H": Fraction(1, 2), "T": Fraction(1, 2)}
WORDS_UP_TO_5 = [w for n in range(1, 6) for w in penney.all_patterns(n)]

# --------------------------------------------------------------------------- Conway


@pytest.mark.parametrize("a", WORDS_UP_TO_5)
def test_every_coin_pair_up_to_length_5_matches_conway(a: str) -> None:
    """Each unordered pair once: Conway where neither contains the other; else the inner wins."""
    for b in WORDS_UP_TO_5[WORDS_UP_TO_5.index(a) + 1:]:
        dist = chances(penney.race_spec([a, b]), coin())
        assert dist[a] + dist[b] == 1
        if b in a:
            assert (dist[a], dist[b]) == (0, 1)
        elif a in b:
            assert (dist[a], dist[b]) == (1, 0)
        else:
            p_a, length = conway_two(a, b, FAIR)
            assert dist[a] == p_a, (a, b)
            assert dist.expected_draws == length, (a, b)


@pytest.mark.parametrize(
    ("a", "b", "heads"),
    [(a, b, h) for a, b in itertools.combinations(penney.all_patterns(3), 2)
     for h in (Fraction(1, 3), Fraction(3, 5))],
)
def test_biased_coin_matches_weighted_conway(a: str, b: str, heads: Fraction) -> None:
    p = {"H": heads, "T": 1 - heads}
    result = penney.odds(a, b, weights=[heads, 1 - heads])
    p_a, length = conway_two(a, b, p)
    assert result.wins[a] == p_a
    assert result.expected_length == length


def test_weighted_three_symbol_alphabet_matches_conway() -> None:
    weights = {"a": Fraction(1, 6), "b": Fraction(1, 3), "c": Fraction(1, 2)}
    words = [w for n in (2, 3) for w in penney.all_patterns(n, "abc")]
    for a, b in itertools.combinations(words, 2):
        if a in b or b in a:
            continue
        result = penney.odds(a, b, alphabet="abc", weights=weights)
        p_a, length = conway_two(a, b, weights)
        assert (result.wins[a], result.expected_length) == (p_a, length), (a, b)


@pytest.mark.parametrize(
    ("patterns", "alphabet", "weights"),
    [
        (("HHT", "HTH", "TTH"), "HT", None),
        (("HHTT", "HTHT", "TTHH", "THTH"), "HT", None),
        (("HT", "TTH", "THHH"), "HT", [1, 3]),
        (("123", "231", "312"), "123", None),
        (("11", "223", "3132"), "123", [1, 2, 3]),
        (("12", "34", "56", "61"), "123456", None),
    ],
)
def test_several_players_match_the_conway_linear_system(
    patterns: tuple[str, ...], alphabet: str, weights: list[int] | None
) -> None:
    src = penney.source(alphabet, weights)
    p = {s: src.probability(s) for s in alphabet}
    q, length = conway_many(patterns, p)
    result = penney.odds(*patterns, alphabet=alphabet, weights=weights)
    assert list(result.wins.values()) == q
    assert result.expected_length == length
    assert sum(q) == 1


# --------------------------------------------------------------------------- truncated lengths


@pytest.mark.parametrize(
    ("patterns", "horizon", "alphabet", "weights"),
    [
        (("HHT", "THH"), 10, "HT", None),
        (("HTH", "HHTT", "T" * 4), 9, "HT", [2, 1]),
        (("H", "TT"), 6, "HT", None),
        (("12", "313"), 6, "123", [1, 1, 2]),
    ],
)
def test_truncated_length_distribution_matches_brute_force(
    patterns: tuple[str, ...], horizon: int, alphabet: str, weights: list[int] | None
) -> None:
    src = penney.source(alphabet, weights)
    p = {s: src.probability(s) for s in alphabet}
    expected = brute_lengths(patterns, horizon, p)
    joint = chances(penney.timed_race_spec(patterns, horizon, alphabet), src, max_draws=horizon)
    assert dict(joint) == {k: v for k, v in expected.items() if k != "unfinished"}
    assert joint.failure == expected.get("unfinished", 0)
    lengths = penney.length_distribution(*patterns, horizon=horizon, alphabet=alphabet, weights=weights)
    assert lengths.failure == joint.failure
    for n, prob in lengths.items():
        assert prob == sum(v for k, v in expected.items() if isinstance(k, tuple) and k[1] == n)


def test_long_horizon_tends_to_the_expected_length() -> None:
    horizon = 200
    lengths = penney.length_distribution("HHT", "THH", horizon=horizon)
    assert 0 < lengths.failure < Fraction(1, 10**17)
    truncated_mean = sum(n * p for n, p in lengths.items()) + horizon * lengths.failure  # E[min(N, h)]
    gap = penney.odds("HHT", "THH").expected_length - truncated_mean
    assert 0 < gap < Fraction(1, 10**15)


# --------------------------------------------------------------------------- defined behaviour


def test_a_pattern_that_contains_another_never_wins() -> None:
    assert penney.odds("HTH", "T").wins == {"HTH": 0, "T": 1}
    assert penney.odds("THH", "HH").wins == {"THH": 0, "HH": 1}  # HH ends with THH: the inner one
    result = penney.odds("HHTH", "HT", "TT")
    assert result.wins["HHTH"] == 0
    assert result.wins["HT"] + result.wins["TT"] == 1


@pytest.mark.parametrize(
    ("patterns", "alphabet", "message"),
    [
        (("HTH", "HTH"), "HT", "named twice"),
        (("HXT", "HTH"), "HT", "not in the alphabet"),
        (("", "HTH"), "HT", "empty"),
        (("HTH",), "HT", "at least 2 patterns"),
        (("HT", "TH"), "H", "at least 2"),
        (("HT", "TH"), "HTH", "repeats 'H'"),
    ],
)
def test_bad_races_are_refused_with_a_clear_message(
    patterns: tuple[str, ...], alphabet: str, message: str
) -> None:
    with pytest.raises(InvalidArgument, match=message):
        penney.odds(*patterns, alphabet=alphabet)


def test_bad_weights_are_refused() -> None:
    with pytest.raises(InvalidArgument, match="one weight per symbol"):
        penney.odds("HT", "TH", weights=[1, 2, 3])
    with pytest.raises(TypeError, match="float"):
        penney.odds("HT", "TH", weights=[0.5, 0.5])  # type: ignore[list-item]
    with pytest.raises(InvalidArgument, match="missing"):
        penney.odds("HT", "TH", weights={"H": 1})


def test_automaton_states_are_the_pattern_prefixes() -> None:
    machine = Automaton(("HHT", "HTH"), "HT")
    assert machine.states == ("", "H", "HH", "HT")
    assert machine.move("HT", "T") == ""
    assert machine.move("HT", "H") == 1


# --------------------------------------------------------------------------- laws (hypothesis)

alphabets = st.sampled_from(["HT", "abc", "1234"])


@st.composite
def races(draw: st.DrawFn) -> tuple[str, tuple[str, ...], list[int]]:
    alphabet = draw(alphabets)
    words = st.text(alphabet=alphabet, min_size=1, max_size=4)
    patterns = draw(st.lists(words, min_size=2, max_size=4, unique=True))
    weights = draw(st.lists(st.integers(1, 4), min_size=len(alphabet), max_size=len(alphabet)))
    return alphabet, tuple(patterns), weights


@settings(max_examples=60, deadline=None)
@given(races())
def test_win_probabilities_sum_to_exactly_one(race: tuple[str, tuple[str, ...], list[int]]) -> None:
    alphabet, patterns, weights = race
    result = penney.odds(*patterns, alphabet=alphabet, weights=weights)
    assert sum(result.wins.values()) == 1
    for pattern, p in result.wins.items():
        if any(other != pattern and other in pattern for other in patterns):
            assert p == 0
    assert result.expected_length >= min(map(len, patterns))


@settings(max_examples=40, deadline=None)
@given(races(), st.randoms(use_true_random=False))
def test_renaming_equal_symbols_and_reordering_players_is_exact(
    race: tuple[str, tuple[str, ...], list[int]], rnd: object
) -> None:
    """The memo's canonical forms agree with solving the race as given."""
    alphabet, patterns, _ = race
    src = penney.source(alphabet)
    direct = chances(penney.race_spec(patterns, alphabet), src)
    names = list(alphabet)
    rnd.shuffle(names)  # type: ignore[attr-defined]
    rename = str.maketrans(alphabet, "".join(names))
    renamed = tuple(p.translate(rename) for p in reversed(patterns))
    races_ = penney.Races(alphabet, method="automaton")
    races_.odds(renamed)
    result = races_.odds(patterns)
    assert races_.solved == 1
    assert result.wins == {p: direct[p] for p in patterns}
    assert result.expected_length == direct.expected_draws


# --------------------------------------------------------------------------- best replies

CLASSIC = {
    "HHH": ("THH", Fraction(7, 8), "7:1"),
    "HHT": ("THH", Fraction(3, 4), "3:1"),
    "HTH": ("HHT", Fraction(2, 3), "2:1"),
    "HTT": ("HHT", Fraction(2, 3), "2:1"),
    "THH": ("TTH", Fraction(2, 3), "2:1"),
    "THT": ("TTH", Fraction(2, 3), "2:1"),
    "TTH": ("HTT", Fraction(3, 4), "3:1"),
    "TTT": ("HTT", Fraction(7, 8), "7:1"),
}


def test_the_classic_length_3_table() -> None:
    table = penney.best_reply_table(3)
    assert {first: (r.patterns, r.probability, r.odds) for first, r in table.items()} == {
        first: ((reply,), p, odds) for first, (reply, p, odds) in CLASSIC.items()
    }


@pytest.mark.parametrize("length", [3, 4, 5])
def test_the_second_player_always_has_a_better_reply(length: int) -> None:
    """For n >= 3 every best reply wins more than half the time and has the form
    x + first[:-1]; for n = 3, x is the opposite of first's second symbol (docs/penney.md)."""
    rows = penney.pair_table(length)
    graph = penney.best_reply_graph(rows)
    chance = {(r.first, r.second): r.second_wins for r in rows}
    for first, replies in graph.items():
        for reply in replies:
            assert chance[(first, reply)] > Fraction(1, 2)
            assert reply[1:] == first[:-1]
            if length == 3:
                assert reply[0] != first[1]


def test_the_leading_numbers_quoted_in_the_docs() -> None:
    a, b = "HHH", "THH"
    numbers = [leading_number(x, y, FAIR) for x, y in ((a, a), (a, b), (b, b), (b, a))]
    assert numbers == [14, 0, 8, 6]
    assert penney.odds(a, b).wins[b] == Fraction(14, 14 + 2)


def test_length_2_has_no_guaranteed_edge() -> None:
    edge = penney.second_player_edge(2)
    assert edge.probability == Fraction(1, 2)
    assert edge.patterns == ("HT", "TH")


def test_best_reply_at_length_8_against_one_opponent() -> None:
    first = "HTHHTTHT"
    reply = penney.best_replies(first)
    assert reply.probability > Fraction(1, 2)
    assert all(r[1:] == first[:-1] for r in reply.patterns)
    # the best reply really is best: compare with the direct race for each of the two x + first[:-1]
    for x in "HT":
        assert penney.odds(first, x + first[:-1]).wins[x + first[:-1]] <= reply.probability


def test_best_reply_on_three_symbols_against_two_opponents_is_a_true_maximum() -> None:
    opponents = ("121", "312")
    reply = penney.best_replies(*opponents, alphabet="123")
    scores = {
        c: chances(penney.race_spec((*opponents, c), "123"), penney.source("123"))[c]
        for c in penney.all_patterns(3, "123") if c not in opponents
    }
    top = max(scores.values())
    assert reply.probability == top
    assert reply.patterns == tuple(c for c, p in scores.items() if p == top)


def test_best_reply_with_a_biased_coin() -> None:
    reply = penney.best_replies("HHH", weights=[2, 1])
    p = penney.odds("HHH", reply.patterns[0], weights=[2, 1]).wins[reply.patterns[0]]
    assert reply.probability == p


# --------------------------------------------------------------------------- tables


def test_pair_table_rows_and_cycles() -> None:
    rows = penney.pair_table(3)
    assert len(rows) == 8 * 7
    for row in rows:
        assert row.first_wins + row.second_wins == 1
    chance = {(r.first, r.second): r.second_wins for r in rows}
    for (a, b), p in chance.items():
        assert chance[(b, a)] == 1 - p
    assert penney.best_reply_cycles(rows) == [("HHT", "THH", "TTH", "HTT")]
    cycle = penney.best_reply_cycles(rows)[0]
    for a, b in zip(cycle, cycle[1:] + cycle[:1], strict=True):
        assert chance[(a, b)] > Fraction(1, 2)


def test_pair_table_through_an_executor_matches_conway() -> None:
    from concurrent.futures import ProcessPoolExecutor

    half = {"H": Fraction(1, 2), "T": Fraction(1, 2)}
    with ProcessPoolExecutor(2) as pool:
        rows = penney.pair_table(4, executor=pool)
    assert len(rows) == 16 * 15
    for row in rows:
        assert row.first_wins == conway_two(row.first, row.second, half)[0], row


def test_pair_table_on_a_die_alphabet() -> None:
    rows = penney.pair_table(2, alphabet="1234")
    assert len(rows) == 16 * 15
    assert all(0 <= r.second_wins <= 1 for r in rows)


def test_csv_export(tmp_path: object) -> None:
    import csv
    from pathlib import Path

    path = Path(str(tmp_path)) / "table.csv"
    rows = penney.pair_table(3)
    penney.write_csv(rows, path)
    with open(path, encoding="utf-8") as handle:
        read = list(csv.DictReader(handle))
    assert len(read) == 56
    by_pair = {(r["first"], r["second"]): Fraction(r["second_wins"]) for r in read}
    assert by_pair[("HHH", "THH")] == Fraction(7, 8)
    assert float(read[0]["second_wins_float"]) == float(Fraction(read[0]["second_wins"]))


def test_heatmap_without_matplotlib_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch, tmp_path: object
) -> None:
    import sys

    from games.penney.plot import MissingExtra, heatmap

    monkeypatch.setitem(sys.modules, "matplotlib", None)
    with pytest.raises(MissingExtra, match=r"drawdsl\[plot\]"):
        heatmap(penney.pair_table(2), f"{tmp_path}/x.png")


def test_heatmap_writes_an_image(tmp_path: object) -> None:
    pytest.importorskip("matplotlib")
    from games.penney.plot import heatmap

    path = f"{tmp_path}/table.png"
    heatmap(penney.pair_table(3), path)
    with open(path, "rb") as handle:
        assert handle.read(8) == b"\x89PNG\r\n\x1a\n"
