"""`--aspect` for chance and sample, and sample's --top and mean."""

from __future__ import annotations

import contextlib
import io
import json
from collections import Counter
from fractions import Fraction
from itertools import permutations
from pathlib import Path
from typing import Any

import pytest

from drawdsl import Card, InvalidArgument, chances, draw_many, simulate, standard_deck
from drawdsl.cli import main
from drawdsl.deck_text import aspect, parse_deck, with_aspect

ROOT = Path(__file__).resolve().parent.parent
PAIRS = str(ROOT / "docs" / "examples" / "pairs.py")

# Each aspect written out independently, card by card, from its plain-words definition.
BY_HAND: dict[str, Any] = {
    "rank": lambda c: c.rank,
    "suit": lambda c: c.suit,
    "colour": lambda c: "red" if c.suit in "HD" else "black",
    "color": lambda c: "red" if c.suit in "HD" else "black",
    "value": lambda c: {14: 1, 11: 10, 12: 10, 13: 10}.get(c.rank, c.rank),
    "face": lambda c: str(c)[0] in "JQK",
    "is:K": lambda c: str(c)[0] == "K",
    "is:10": lambda c: str(c)[0] == "T",
    "is:t": lambda c: str(c)[0] == "T",
    "is:h": lambda c: c.suit == "H",
    "is:Red": lambda c: c.suit in "HD",
    "is:AS": lambda c: str(c) == "AS",
    "is: qd ": lambda c: str(c) == "QD",
}


def run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as stop:
            code = int(stop.code or 0)
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("name", sorted(BY_HAND))
@pytest.mark.parametrize("decks", [1, 3])
def test_each_aspect_counts_the_cards_as_its_definition_says(name: str, decks: int) -> None:
    by_hand = Counter(BY_HAND[name](card) for card in standard_deck() for _ in range(decks))
    deck = parse_deck("standard" if decks == 1 else f"shoe:{decks}", aspect=name)
    assert deck.counts() == dict(by_hand)
    assert len(deck) == 52 * decks


def test_aspect_errors_name_the_problem() -> None:
    with pytest.raises(InvalidArgument, match="unknown aspect 'rnak'; did you mean 'rank'"):
        aspect("rnak")
    with pytest.raises(InvalidArgument, match=r"cannot read 'Z' in is:X; write a rank \(2-10, J, Q, K, A\)"):
        aspect("is:Z")
    with pytest.raises(InvalidArgument, match=r"looks at playing cards, but --deck ranks holds 2 \(int\)"):
        parse_deck("ranks", aspect="rank")
    with pytest.raises(InvalidArgument, match=r"but the deck holds 'A' \(str\)"):
        with_aspect(parse_deck("A:4,x:48"), "face")
    with pytest.raises(TypeError, match="name must be a str"):
        aspect(3)  # type: ignore[arg-type]


def test_chance_with_an_aspect_is_the_exact_answer_on_that_view() -> None:
    """Against brute force: every ordered pair of two distinct cards of the deck."""
    for name in ("rank", "face", "is:K", "value"):
        argv = ["chance", f"{PAIRS}:pocket_pair", "--deck", "standard", "--aspect", name, "--json"]
        code, out, err = run(argv)
        assert (code, err) == (0, "")
        data = json.loads(out)
        assert (data["deck"], data["aspect"], data["cards"]) == ("standard", name, 52)
        view = BY_HAND[name]
        pairs = [(view(a), view(b)) for a, b in permutations(standard_deck().distinct(), 2)]
        same = Counter(a for a, b in pairs if a == b)
        want = {str(v): Fraction(count, len(pairs)) for v, count in same.items()}
        got = {str(o["outcome"]): Fraction(o["probability"]) for o in data["outcomes"]}
        assert got == want
        assert Fraction(data["failure"]) == 1 - sum(want.values())


def test_chance_text_names_the_aspect_and_bad_aspects_exit_2() -> None:
    argv = ["chance", f"{PAIRS}:pocket_pair", "--deck", "shoe:6", "--aspect", "rank", "--top", "1"]
    code, out, _ = run(argv)
    assert code == 0 and out.startswith("pocket_pair on shoe:6 --aspect rank (312 cards), exact:")
    assert "P(success) = 23/311" in out  # 13 ranks x 24 x 23 / (312 x 311)
    for argv, message in [
        (["--deck", "standard", "--aspect", "rnak"], "argument --aspect: unknown aspect 'rnak'"),
        (["--deck", "A:4,x:48", "--aspect", "rank"], "aspect: 'rank' looks at playing cards"),
    ]:
        for command in ("chance", "sample"):
            code, out, err = run([command, f"{PAIRS}:pocket_pair", *argv])
            assert code == 2 and out == "" and err.count("\n") == 1
            assert err.startswith("drawdsl: error: ") and message in err


def test_sample_with_an_aspect_top_and_mean() -> None:
    argv = ["sample", f"{PAIRS}:pocket_pair", "--deck", "standard", "--aspect", "rank", "-n", "3000",
            "--seed", "4"]
    code, out, _ = run([*argv, "--top", "3", "--json"])
    assert code == 0
    data = json.loads(out)
    deck = standard_deck().map(lambda card: card.rank)
    spec = draw_many(2).map(lambda hand: hand[0] if hand[0] == hand[1] else None)
    tally = simulate(spec.where(lambda v: v is not None), deck, n=3000, seed=4)
    assert data["aspect"] == "rank" and len(data["outcomes"]) == 3
    assert sum(o["count"] for o in data["outcomes"]) + sum(
        c for v, c in tally.items() if v not in [o["outcome"] for o in data["outcomes"]]
    ) + data["failures"] == 3000
    assert data["more_outcomes"] == len(tally) - 3
    assert data["failures"] == tally.failures
    mean = tally.mean_interval()
    assert data["mean"] == pytest.approx(mean.value)
    assert data["mean_ci95"] == pytest.approx([mean.low, mean.high])
    top = data["outcomes"][0]
    est = tally.probability(lambda v: v == top["outcome"])
    assert top["ci95"] == pytest.approx([est.low, est.high])
    code, out, _ = run([*argv, "--top", "2"])
    lines = out.splitlines()
    assert lines[0] == "pocket_pair on standard --aspect rank (52 cards), 3000 random deals (seed 4):"
    rows = [line.split() for line in lines[2:-1]]
    assert [row[0] for row in rows] == [*[str(o["outcome"]) for o in data["outcomes"][:2]], "(11", "(fails)"]
    assert sum(int(row[2] if row[0] == "(11" else row[1]) for row in rows) == 3000
    assert lines[-1] == (f"mean given success = {mean.value:.6g}, 95% interval {mean.low:.6g} to "
                         f"{mean.high:.6g}")
    # The exact answer, for comparison: the mean rank of a pair is 8.
    exact = chances(spec.where(lambda v: v is not None), deck).given_success().expectation()
    assert exact == 8 and mean.low < 8 < mean.high


def test_sample_prints_no_mean_for_non_numbers() -> None:
    code, out, _ = run(["sample", f"{PAIRS}:pocket_pair", "--deck", "colors", "-n", "200", "--json"])
    assert code == 0 and json.loads(out)["mean"] is None
    code, out, _ = run(["sample", f"{PAIRS}:pocket_pair", "--deck", "colors", "-n", "200"])
    assert code == 0 and "mean" not in out


def test_card_aspect_values_are_plain() -> None:
    assert aspect("value")(Card(14, "S")) == 1 and aspect("value")(Card(13, "S")) == 10
    assert aspect("is:10")(Card(10, "C")) and not aspect("is:10")(Card(11, "C"))
