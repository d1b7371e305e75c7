"""The --deck grammar: every form gives the right deck, and bad text names the bad token."""

from __future__ import annotations

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from drawdsl import RANKS, SUITS, Card, Cards, InvalidArgument, shoe, standard_deck
from drawdsl.deck_text import parse_deck


def test_standard_is_the_52_playing_cards() -> None:
    deck = parse_deck("standard")
    assert deck == standard_deck()
    assert len(deck) == 52 and all(isinstance(card, Card) for card in deck.distinct())


def test_ranks_suits_colors_are_views_of_the_standard_deck() -> None:
    assert parse_deck("ranks") == Cards({rank: 4 for rank in RANKS})
    assert parse_deck("suits") == Cards({suit: 13 for suit in SUITS})
    assert parse_deck("colors") == Cards({"red": 26, "black": 26})


@pytest.mark.parametrize("decks", [1, 2, 6, 8])
def test_shoe(decks: int) -> None:
    deck = parse_deck(f"shoe:{decks}")
    assert deck == shoe(decks)
    assert len(deck) == 52 * decks


@pytest.mark.parametrize("text", ["RANKS", " ranks ", "Ranks", "SHOE:2", "shoe: 2", " shoe : 2 "])
def test_names_ignore_case_and_spaces(text: str) -> None:
    expected = shoe(2) if "2" in text else parse_deck("ranks")
    assert parse_deck(text) == expected


def test_explicit_counts_give_string_cards() -> None:
    assert parse_deck("A:4,x:48") == Cards({"A": 4, "x": 48})
    deck = parse_deck("2:4,3:1")
    assert deck.count("2") == 4 and deck.count(2) == 0  # "2" stays a string
    assert parse_deck(" A : 4 , x:48 ") == Cards({"A": 4, "x": 48})
    assert parse_deck("A:1") == Cards({"A": 1})
    assert parse_deck("red card:2,*:1") == Cards({"red card": 2, "*": 1})


def test_explicit_counts_keep_label_case_and_order() -> None:
    deck = parse_deck("b:1,A:2,a:3")
    assert deck.distinct() == ("b", "A", "a")


def test_a_label_named_like_a_deck_is_a_label() -> None:
    assert parse_deck("shoe:3,x:1") == Cards({"shoe": 3, "x": 1})
    assert parse_deck("ranks:2,x:1") == Cards({"ranks": 2, "x": 1})


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", r"empty deck text"),
        ("   ", r"empty deck text"),
        ("standrad", r"unknown deck 'standrad'; did you mean 'standard'\?"),
        ("banana", r"unknown deck 'banana'; write one of standard, ranks"),
        ("__import__('os')", r"unknown deck"),
        ("shoe", r"'shoe' needs a number of decks; write shoe:N"),
        ("shoe:0", r"the number of decks in 'shoe:0' must be at least 1, got 0"),
        ("shoe:x", r"the number of decks in 'shoe:x' must be a positive whole number, got 'x'"),
        ("shoe:2.5", r"must be a positive whole number, got '2.5'"),
        ("A:4,,x:1", r"empty item in 'A:4,,x:1'"),
        ("A:4,", r"empty item"),
        ("A:4,x48", r"cannot read 'x48'; write LABEL:COUNT"),
        (":4", r"':4' has no label"),
        ("A:4:5", r"'A:4:5' has more than one ':'"),
        ("A:2,A:2", r"the label 'A' appears twice"),
        ("A:0", r"the count in 'A:0' must be at least 1, got 0"),
        ("A:-1", r"the count in 'A:-1' must be a positive whole number, got '-1'"),
        ("A:1.5", r"the count in 'A:1.5' must be a positive whole number"),
        ("A:", r"the count in 'A:' must be a positive whole number, got ''"),
        ("A:\u0663", r"must be a positive whole number"),  # an Arabic-Indic digit
    ],
)
def test_bad_text_names_the_token(text: str, message: str) -> None:
    with pytest.raises(InvalidArgument, match=message):
        parse_deck(text)


def test_not_a_string() -> None:
    with pytest.raises(TypeError, match=r"parse_deck: text must be a str"):
        parse_deck(52)  # type: ignore[arg-type]


_LABELS = st.text(
    alphabet=st.characters(blacklist_characters=",:", blacklist_categories=("Cs", "Zs", "Cc", "Zl", "Zp")),
    min_size=1,
    max_size=5,
)


@given(st.dictionaries(_LABELS, st.integers(1, 60), min_size=1, max_size=6))
def test_explicit_counts_round_trip(counts: dict[str, int]) -> None:
    assume(list(counts) != ["shoe"] and [label.lower() for label in counts] != ["shoe"])  # shoe:N is a shoe
    text = ",".join(f"{label}:{count}" for label, count in counts.items())
    deck = parse_deck(text)
    assert deck == Cards(counts)
    assert deck.distinct() == tuple(counts)
