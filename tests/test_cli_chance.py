"""``drawdsl chance`` and ``drawdsl sample``: the user's own spec from a file, on a --deck.

Answers are checked against the API; bad input exits 2 with one line, the user's own
code raising exits 1 with one line naming it, and nothing prints a traceback.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
import subprocess
import sys
import textwrap
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from drawdsl import Cards, chances, draw, draw_count, simulate, standard_deck
from drawdsl.cli import main

ROOT = Path(__file__).resolve().parent.parent

SPECS = '''
from dataclasses import dataclass
from drawdsl import done, draw, draw_count, fail, generate, loop

@generate
def pocket_pair():
    first = yield draw()
    second = yield draw()
    if first != second:
        yield fail()
    return first

first_card = draw()

def aces_in_two():
    return draw_count(lambda card: card == "A", 2)

def no_repeat(state, card):
    left, previous = state
    if card == previous:
        return fail()
    return done(True) if left == 1 else (left - 1, card)

def no_adjacent():
    return loop((12, None), no_repeat)

def pair_of_cards():
    return draw().bind(lambda a: draw().map(lambda b: (a, b)))

@dataclass(frozen=True)
class Box:
    value: int

def boxed():
    return draw().map(lambda card: Box(card))

def rank_of():
    return draw().map(lambda card: card.rank)

def needs_args(n):
    return draw()

def not_a_spec():
    return 42

def raises():
    raise KeyError("nope")

number = 3
'''


def run(argv: list[str]) -> tuple[int, str, str]:
    """The exit code, stdout and stderr of ``drawdsl argv`` run in this process."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as stop:
            code = int(stop.code or 0)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def specs(tmp_path: Path) -> str:
    path = tmp_path / "specs.py"
    path.write_text(SPECS)
    return str(path)


def _one_line_error(err: str) -> str:
    assert err.startswith("drawdsl: error: ")
    assert err.count("\n") == 1 and "Traceback" not in err
    return err


# --------------------------------------------------------------------------- chance


def test_chance_prints_the_exact_distribution(specs: str) -> None:
    code, out, err = run(["chance", f"{specs}:pocket_pair", "--deck", "ranks"])
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == "pocket_pair on ranks (52 cards), exact:"
    assert lines[1].split() == ["outcome", "probability", "decimal"]
    rows = [line.split() for line in lines[2:15]]
    assert [row[0] for row in rows] == [str(rank) for rank in range(2, 15)]
    assert all(row[1:3] == ["1/221", "0.00452489"] and row[3].startswith("#") for row in rows)
    assert lines[15].split() == ["(fails)", "16/17", "0.941176"]  # no bar: not an outcome
    assert lines[16] == "P(success) = 1/17 ~ 0.0588235"
    assert lines[17] == "mean given success = 8 ~ 8"


def test_chance_sorts_by_probability_with_proportional_bars(specs: str) -> None:
    code, out, _ = run(["chance", f"{specs}:first_card", "--deck", "a:1,b:3,c:2"])
    assert code == 0
    rows = [line.split() for line in out.splitlines()[2:]]
    assert [row[:2] for row in rows] == [["b", "1/2"], ["c", "1/3"], ["a", "1/6"]]
    assert [len(row[3]) for row in rows] == [30, 20, 10]
    assert "P(success)" not in out and "mean" not in out  # nothing fails; strings have no mean


def test_chance_mean_of_numeric_outcomes(specs: str) -> None:
    code, out, _ = run(["chance", f"{specs}:aces_in_two", "--deck", "A:4,x:48"])
    assert code == 0
    expected = chances(draw_count(lambda c: c == "A", 2), Cards({"A": 4, "x": 48})).expectation()
    assert f"mean = {expected} ~ " in out


def test_chance_json(specs: str) -> None:
    code, out, _ = run(["chance", f"{specs}:pocket_pair", "--deck", "ranks", "--json"])
    assert code == 0
    data = json.loads(out)
    assert data["spec"] == f"{specs}:pocket_pair" and data["deck"] == "ranks" and data["cards"] == 52
    assert [o["outcome"] for o in data["outcomes"]] == list(range(2, 15))
    assert {o["probability"] for o in data["outcomes"]} == {"1/221"}
    assert data["outcomes"][0]["decimal"] == pytest.approx(1 / 221)
    assert (data["failure"], data["success"], data["mean"]) == ("16/17", "1/17", "8/1")
    assert data["expected_draws"] == "2/1" and data["more_outcomes"] == 0


def test_chance_json_outcomes_tuples_as_lists_and_others_as_text(specs: str) -> None:
    _, out, _ = run(["chance", f"{specs}:pair_of_cards", "--deck", "a:1,b:1", "--json"])
    assert sorted(o["outcome"] for o in json.loads(out)["outcomes"]) == [["a", "b"], ["b", "a"]]
    _, out, _ = run(["chance", f"{specs}:first_card", "--deck", "shoe:1", "--json", "--top", "1"])
    data = json.loads(out)
    assert data["outcomes"][0]["outcome"] == "2C"  # a Card as its text; ties in card order
    assert data["more_outcomes"] == 51 and data["mean"] is None
    _, out, _ = run(["chance", f"{specs}:boxed", "--deck", "1:1", "--json"])
    assert json.loads(out)["outcomes"][0]["outcome"] == "Box(value='1')"


def test_chance_top_sums_the_rest(specs: str) -> None:
    code, out, _ = run(["chance", f"{specs}:pocket_pair", "--deck", "ranks", "--top", "2"])
    assert code == 0
    lines = out.splitlines()
    assert [line.split()[0] for line in lines[2:6]] == ["2", "3", "(11", "(fails)"]
    assert lines[4].split()[2:] == ["11/221", "0.0497738"]


def test_chance_on_each_named_deck(specs: str) -> None:
    decks: list[tuple[str, Cards[Any]]] = [
        ("standard", standard_deck()),
        ("ranks", standard_deck().map(lambda c: c.rank)),
        ("suits", standard_deck().map(lambda c: c.suit)),
        ("colors", standard_deck().map(lambda c: c.color)),
    ]
    for deck, expected in decks:
        _, out, _ = run(["chance", f"{specs}:first_card", "--deck", deck, "--json"])
        got = {o["outcome"]: Fraction(o["probability"]) for o in json.loads(out)["outcomes"]}
        want = {str(v) if not isinstance(v, int) else v: p for v, p in chances(draw(), expected).items()}
        assert got == want, deck


def test_chance_symmetric_gives_the_same_answer(specs: str) -> None:
    argv = ["chance", f"{specs}:no_adjacent", "--deck", "a:4,b:4,c:4", "--json"]
    _, plain, _ = run(argv)
    _, symmetric, _ = run([*argv, "--symmetric"])
    _, unreduced, _ = run([*argv, "--no-symmetric", "--no-lump"])
    assert json.loads(plain) == json.loads(symmetric) == json.loads(unreduced)
    assert json.loads(plain)["success"] != "0/1"


def test_chance_says_when_every_deal_fails(specs: str) -> None:
    code, out, _ = run(["chance", f"{specs}:pocket_pair", "--deck", "standard"])
    assert code == 0
    assert "P(success) = 0 ~ 0" in out and "does it expect the cards this deck holds?" in out


def test_the_file_can_import_its_neighbours_and_is_forgotten_afterwards(tmp_path: Path) -> None:
    (tmp_path / "helpers.py").write_text("def is_a(card):\n    return card == 'a'\n")
    (tmp_path / "mine.py").write_text(
        "from drawdsl import draw_where\nfrom helpers import is_a\nspec = draw_where(is_a)\n"
    )
    path_before, modules_before = list(sys.path), set(sys.modules)
    try:
        code, out, _ = run(["chance", f"{tmp_path / 'mine.py'}:spec", "--deck", "a:1,b:3"])
        assert code == 0 and "P(success) = 1/4" in out
        assert sys.path == path_before
        assert not any(name.startswith("_drawdsl_user_") for name in sys.modules)
    finally:
        sys.modules.pop("helpers", None)
        assert set(sys.modules) - modules_before <= {"helpers"}


def test_state_limit_is_bad_input_with_the_hint(specs: str) -> None:
    code, _, err = run(["chance", f"{specs}:pocket_pair", "--deck", "standard", "--max-states", "10"])
    assert code == 2
    assert "over max_states=10" in _one_line_error(err)


# --------------------------------------------------------------------------- bad input: exit 2


DECK = ["--deck", "ranks"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["chance", "{specs}:pocket_pair"], r"the following arguments are required: --deck"),
        (
            ["chance", "{specs}:pocket_pair", "--deck", "standrad"],
            r"argument --deck: unknown deck 'standrad'; did you mean 'standard'",
        ),
        (
            ["chance", "{specs}:pocket_pair", "--deck", "A:4,x:0"],
            r"argument --deck: the count in 'x:0' must be at least 1",
        ),
        (["chance", "{specs}", *DECK], r"expected FILE.py:NAME"),
        (["chance", "{specs}:", *DECK], r"expected FILE.py:NAME"),
        (["chance", "{specs}:2x", *DECK], r"'2x' in .* is not a Python name"),
        (["chance", "missing.py:spec", *DECK], r"no such file: 'missing.py'"),
        (
            ["chance", "{specs}:nope", *DECK],
            r"has no spec or function named 'nope'; it defines pocket_pair, first_card, aces_in_two",
        ),
        (["chance", "{specs}:number", *DECK], r"number in .* is 3 \(int\), not a spec"),
        (["chance", "{specs}:needs_args", *DECK], r"needs_args\(n\) in .* needs arguments"),
        (["chance", "{specs}:not_a_spec", *DECK], r"not_a_spec\(\) in .* returned 42 \(int\), not a spec"),
        (["chance", "{specs}:pocket_pair", *DECK, "--top", "0"], r"argument --top: expected a positive"),
        (["sample", "{specs}:pocket_pair", *DECK, "-n", "0"], r"argument -n: expected a positive integer"),
        (["sample", "{specs}:pocket_pair", *DECK, "--seed", "x"], r"argument --seed: invalid int value"),
        (["sample", "{specs}:nope", *DECK], r"has no spec or function named 'nope'"),
    ],
)
def test_bad_input_exits_2_with_one_line(specs: str, argv: list[str], message: str) -> None:
    code, out, err = run([arg.format(specs=specs) for arg in argv])
    assert code == 2 and out == ""
    assert re.search(message, _one_line_error(err)), err


# --------------------------------------------------------------------------- the user's code raising: exit 1


def test_a_file_that_raises_on_import_exits_1_naming_file_and_exception(tmp_path: Path) -> None:
    path = tmp_path / "broken.py"
    path.write_text("import math\nvalue = 1 / 0\n")
    code, _, err = run(["chance", f"{path}:value", "--deck", "ranks"])
    assert code == 1
    line = _one_line_error(err)
    assert line == f"drawdsl: error: {path} raised on import: ZeroDivisionError: division by zero\n"


def test_a_file_with_a_syntax_error_exits_1(tmp_path: Path) -> None:
    path = tmp_path / "typo.py"
    path.write_text("def f(:\n")
    code, _, err = run(["sample", f"{path}:f", "--deck", "ranks"])
    assert code == 1
    assert f"{path} raised on import: SyntaxError" in _one_line_error(err)


def test_a_function_that_raises_exits_1(specs: str) -> None:
    code, _, err = run(["chance", f"{specs}:raises", "--deck", "ranks"])
    assert code == 1
    assert "raises() in " in _one_line_error(err) and "raised: KeyError: 'nope'" in err


@pytest.mark.parametrize("command", ["chance", "sample"])
def test_a_spec_that_raises_while_drawing_exits_1_with_the_hint(specs: str, command: str) -> None:
    code, _, err = run([command, f"{specs}:rank_of", "--deck", "suits"])
    assert code == 1
    line = _one_line_error(err)
    assert "rank_of raised on --deck suits: AttributeError: 'str' object has no attribute 'rank'" in line
    if command == "chance":  # the evaluator's note about the card type comes along
        assert "the source holds cards like" in line


# --------------------------------------------------------------------------- sample


def test_sample_is_reproducible_and_agrees_with_simulate(specs: str) -> None:
    argv = ["sample", f"{specs}:aces_in_two", "--deck", "A:4,x:48", "-n", "500", "--seed", "3", "--json"]
    _, first, _ = run(argv)
    _, again, _ = run(argv)
    assert first == again
    data = json.loads(first)
    tally = simulate(draw_count(lambda c: c == "A", 2), Cards({"A": 4, "x": 48}), n=500, seed=3)
    assert {o["outcome"]: o["count"] for o in data["outcomes"]} == dict(tally)
    assert (data["n"], data["seed"], data["failures"]) == (500, 3, 0)


def test_sample_text_counts_failures_and_sorts_by_count(specs: str) -> None:
    code, out, _ = run(["sample", f"{specs}:pocket_pair", "--deck", "a:2,b:2", "-n", "3000", "--seed", "1"])
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "pocket_pair on a:2,b:2 (4 cards), 3000 random deals (seed 1):"
    assert lines[1].split() == ["outcome", "count", "frequency", "95%", "interval"]
    rows = [line.split() for line in lines[2:]]
    assert rows[-1][0] == "(fails)"
    assert sum(int(row[1]) for row in rows) == 3000
    fails = int(rows[-1][1]) / 3000
    assert abs(fails - 2 / 3) < 5 * (2 / 9 / 3000) ** 0.5  # exact: 2/3 of deals fail
    counts = [int(row[1]) for row in rows[:-1]]
    assert counts == sorted(counts, reverse=True)


# --------------------------------------------------------------------------- help and the real command


@pytest.mark.parametrize("command", ["chance", "sample"])
def test_help_has_examples(command: str) -> None:
    code, out, _ = run([command, "--help"])
    assert code == 0
    assert "examples:" in out and f"drawdsl {command} pairs.py:pocket_pair --deck ranks" in out
    assert "shoe:N" in out and "exit codes" in out


def test_the_top_level_help_lists_the_commands() -> None:
    _, out, _ = run(["--help"])
    assert "chance" in out and "sample" in out


def test_python_dash_m_drawdsl_end_to_end(specs: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "drawdsl", "chance", f"{specs}:pocket_pair", "--deck", "ranks", "--json"],
        capture_output=True, text=True, cwd=ROOT, check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["success"] == "1/17"
    bad = subprocess.run(
        [sys.executable, "-m", "drawdsl", "chance", f"{specs}:raises", "--deck", "ranks"],
        capture_output=True, text=True, cwd=ROOT, check=False,
    )
    assert bad.returncode == 1 and bad.stdout == ""
    assert bad.stderr.count("\n") == 1 and "Traceback" not in bad.stderr
    assert textwrap.shorten(bad.stderr, 200).startswith("drawdsl: error: ")


NATURAL = str(Path(__file__).resolve().parent.parent / "docs" / "examples" / "natural.py")


@pytest.mark.parametrize(
    ("name", "mean"),
    [("first_king", Fraction(53, 5)), ("hearts_in_13", Fraction(13, 4)), ("aces_in_five", Fraction(5, 13))],
)
def test_chance_on_natural_specs_over_the_standard_deck(name: str, mean: Fraction) -> None:
    code, out, _ = run(["chance", f"{NATURAL}:{name}", "--deck", "standard", "--json", "--explain"])
    assert code == 0
    data = json.loads(out)
    assert Fraction(data["mean"]) == mean
    assert data["explain"]["classes"] == 2 and data["explain"]["distinct_cards"] == 52
    _, unsymmetric, _ = run(["chance", f"{NATURAL}:{name}", "--deck", "standard", "--json", "--no-symmetric"])
    assert Fraction(json.loads(unsymmetric)["mean"]) == mean
    # Without lumping the 52 distinct cards keep the decks apart: the limit says so.
    argv = ["chance", f"{NATURAL}:{name}", "--deck", "standard", "--no-lump", "--max-states", "5000"]
    code, _, err = run(argv)
    assert code == 2 and "the decks left keep them apart" in err


def test_chance_explain_text_says_how() -> None:
    code, out, _ = run(["chance", f"{NATURAL}:first_king", "--deck", "standard", "--explain", "--top", "1"])
    assert code == 0
    assert "how it was evaluated:" in out and "lumped: the spec tells only 2 kinds of card apart" in out
    assert "mean = 53/5" in out


def test_chance_probes_the_fields_a_spec_reads_and_no_probe_agrees() -> None:
    argv = ["chance", f"{NATURAL}:aces_in_five", "--deck", "standard", "--json"]
    _, probed, _ = run(argv)
    _, whole, _ = run([*argv, "--no-probe"])
    assert json.loads(probed) == json.loads(whole)
    code, out, _ = run(["chance", f"{NATURAL}:aces_in_five", "--deck", "standard", "--explain"])
    assert code == 0 and "read: rank (the spec used no other field of a card)" in out
