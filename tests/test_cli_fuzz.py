"""Fuzzing the ``drawdsl`` command: random and malformed arguments to every subcommand.

Whatever the arguments, the command ends with exit code 0, 1 (the user's own file
raised) or 2 (bad input), an error is exactly one line on stderr, and there is never a
traceback.  Runs are in-process (``main(argv)``) for speed, each under an alarm that
turns a hang into a failure; a few real subprocess runs check the installed entry point.

Absurd sizes (a deck of 10^30 ranks, 10^12 games, a pattern race of a million
symbols) must be rejected before any work starts: a run that computes them would trip
the alarm or exhaust memory, so this file is what keeps the command's bounds honest.
"""

from __future__ import annotations

import contextlib
import io
import signal
import subprocess
import sys
import textwrap
from pathlib import Path
from types import FrameType

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from drawdsl.cli import main

#: A run still going after this many seconds counts as a hang (a generous bound, not a speed claim).
HANG = 120

# --------------------------------------------------------------------------- running the command


class Hang(BaseException):
    """Raised by the alarm; a BaseException so that the command's own handlers let it through."""


def _alarm(signum: int, frame: FrameType | None) -> None:
    raise Hang(f"the command ran for more than {HANG} s")


def run(argv: list[str]) -> tuple[int, str, str]:
    """``drawdsl argv`` in this process: (exit code, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(HANG)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(argv)
            except SystemExit as stop:  # argparse: --help, --version, usage errors
                code = stop.code if isinstance(stop.code, int) else 2
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    return code, out.getvalue(), err.getvalue()


def check(argv: list[str], user_file: bool = False) -> tuple[int, str, str]:
    """Run and assert the contract: exit 0/1/2, one line on stderr for an error, no traceback."""
    code, out, err = run(argv)
    assert "Traceback" not in err and "Traceback" not in out, (argv, err)
    allowed = {0, 1, 2} if user_file else {0, 2}
    assert code in allowed, (argv, code, err)
    if code:
        assert err.count("\n") == 1 and err.startswith("drawdsl: error: "), (argv, err)
        assert "unexpected" not in err, (argv, err)  # the last-resort handler: a bug
    return code, out, err


# --------------------------------------------------------------------------- the user's files


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Spec files good and bad; returns name -> absolute path."""
    folder = tmp_path_factory.mktemp("specs")
    sources = {
        "good": """
            from drawdsl import draw, draw_many
            pair = draw_many(2)
            def first():
                return draw()
            number = 3
            def needs(x):
                return draw()
            def junk():
                return [1, 2]
            def boom():
                raise RuntimeError("no spec\\ntoday")
            deep = draw().bind(lambda card: 1 / 0)
            leave = draw().map(lambda card: exit(4))
        """,
        "raises": "raise ValueError('broken on import')\n",
        "exits": "import sys\nsys.exit(3)\n",
        "syntax": "def (:\n",
        "binary": "",
    }
    paths = {}
    for name, source in sources.items():
        path = folder / f"{name}.py"
        path.write_text(textwrap.dedent(source))
        paths[name] = str(path)
    (folder / "binary.py").write_bytes(b"\xff\xfe\x00bad")
    paths["folder"] = str(folder)
    return paths


# --------------------------------------------------------------------------- hostile values

HUGE = "9" * 40
NUMBERS = st.sampled_from(
    ["-1", "0", "1", "2", "1.5", "abc", "", " 3", "1e3", "0x10", HUGE, "-" + HUGE, "9" * 5000, "nan",
     "\uff12"]  # a fullwidth digit two
)
SMALL = st.sampled_from(["1", "2"])
NUMBER = st.one_of(SMALL, NUMBERS)
DECKS = st.one_of(
    st.sampled_from([
        "ranks", "colors", "A:4,x:48", "standard", "shoe:0", f"shoe:{HUGE}", "A:-1", "A:1.5", "A:0",
        ",", "", "A:4,A:4", "nonsense", "a:b:c", ":3", "A:" + HUGE, "SHOE", "rank",
    ]),
    st.text(max_size=12),
)
NAMES = st.sampled_from(["pair", "first", "number", "needs", "junk", "boom", "deep", "leave", "nope", "1x"])
PATTERN = st.text(alphabet="HTX1é♠ ", max_size=5)
COLOURS = st.text(alphabet="RBXr", min_size=0, max_size=4)
ALPHABETS = st.sampled_from(["HT", "H", "", "HH", "ab", "ABC", "x" * 2000, "é♠"])
WEIGHTS = st.sampled_from(
    ["1,1", "2/3,1/3", "1,0", "1,-1", "nan,1", "1e999999999,1", "1/0,1", "0.5,0.5", "a"]
)
JUNK = st.lists(st.text(max_size=8), max_size=4)

FUZZ = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _options(draw: st.DrawFn, options: dict[str, st.SearchStrategy[str]]) -> list[str]:
    argv: list[str] = []
    for option, values in options.items():
        if draw(st.booleans()):
            argv += [option, draw(values)]
    return argv


@st.composite
def chance_argv(draw: st.DrawFn, files: dict[str, str]) -> list[str]:
    command = draw(st.sampled_from(["chance", "sample"]))
    which = draw(
        st.sampled_from(["good", "good", "raises", "exits", "syntax", "binary", "missing", "folder"])
    )
    path = files.get(which, files["folder"] + "/missing.py")
    target = draw(st.sampled_from([f"{path}:{draw(NAMES)}", path, f"{path}:", ":pair", "pair"]))
    argv = [command, target]
    if draw(st.integers(0, 9)):
        argv += ["--deck", draw(DECKS)]
    if command == "chance":
        argv += _options(draw, {"--top": NUMBER, "--max-states": NUMBER})
        argv += ["--symmetric"] if draw(st.booleans()) else []
    else:
        argv += _options(draw, {"-n": NUMBER, "--seed": NUMBER})
    argv += ["--json"] if draw(st.booleans()) else []
    return argv + draw(st.lists(st.sampled_from(["--bogus", "-x", "extra"]), max_size=1))


@st.composite
def war_argv(draw: st.DrawFn, csv_folder: str) -> list[str]:
    question = draw(st.sampled_from(["sweep", "simulate", "exact", "search", "nope"]))
    argv = ["war", question]
    if question == "search":
        argv.append(draw(st.sampled_from(["war-then-win", "within", "nope", ""])))
    # Explicit small decks: the defaults (a whole 52-card deck) are valid but not quick.
    argv += ["--ranks", draw(NUMBER), "--suits", draw(NUMBER)]
    if question in ("simulate", "exact", "search"):
        argv += _options(draw, {
            "--preset": st.sampled_from(["standard", "rblog", "nope", ""]),
            "--face-down": NUMBER,
            "--max-battles": NUMBER,
            "--gather": st.sampled_from(["shuffled", "random", "nope"]),
            "--deuce": st.sampled_from(["never", "nope"]),
        })
    if question == "simulate":
        argv += _options(draw, {
            "--games": NUMBER, "--seed": NUMBER, "--workers": st.sampled_from(["1", "0", "100000", "-1"]),
            "--csv": st.sampled_from([f"{csv_folder}/t.csv", "/no/such/folder/t.csv", csv_folder, ""]),
        })
    if question == "search":
        argv += _options(draw, {"--battles": NUMBER, "--max-states": NUMBER, "--samples": NUMBER,
                                "--seed": NUMBER})
    return argv + (["--json"] if draw(st.booleans()) else [])


@st.composite
def penney_argv(draw: st.DrawFn, csv_folder: str) -> list[str]:
    question = draw(st.sampled_from(["odds", "best", "table", "cards", "nope"]))
    argv = ["penney", question]
    if question in ("odds", "best"):
        argv += draw(st.lists(PATTERN, min_size=0, max_size=3))
        argv += _options(draw, {"--alphabet": ALPHABETS, "--weights": WEIGHTS})
        if question == "best":
            argv += _options(draw, {"--length": st.one_of(SMALL, NUMBERS, st.just("65"))})
    elif question == "table":
        argv += ["--length", draw(st.one_of(SMALL, NUMBERS, st.just("64")))]
        argv += _options(draw, {
            "--alphabet": ALPHABETS, "--weights": WEIGHTS,
            "--csv": st.sampled_from([f"{csv_folder}/p.csv", "/no/such/folder/p.csv", ""]),
        })
    elif question == "cards":
        argv += draw(st.lists(COLOURS, min_size=0, max_size=4))
        argv += _options(draw, {
            "--red": st.one_of(st.sampled_from(["0", "1", "5"]), NUMBERS),
            "--black": st.one_of(st.sampled_from(["0", "1", "5"]), NUMBERS),
            "--count": st.sampled_from(["tricks", "cards", "first", "nope"]),
        })
    return argv + (["--json"] if draw(st.booleans()) else [])


# --------------------------------------------------------------------------- the fuzz tests


@FUZZ
@given(data=st.data())
def test_chance_and_sample_fuzz(files: dict[str, str], data: st.DataObject) -> None:
    argv = data.draw(chance_argv(files))
    code, _, err = check(argv, user_file=True)
    if code == 1:
        assert "raised" in err, err  # exit 1 is only ever the user's own code


@FUZZ
@given(data=st.data())
def test_war_fuzz(tmp_path_factory: pytest.TempPathFactory, data: st.DataObject) -> None:
    check(data.draw(war_argv(str(tmp_path_factory.getbasetemp()))))


@FUZZ
@given(data=st.data())
def test_penney_fuzz(tmp_path_factory: pytest.TempPathFactory, data: st.DataObject) -> None:
    check(data.draw(penney_argv(str(tmp_path_factory.getbasetemp()))))


@FUZZ
@given(argv=st.one_of(JUNK, st.tuples(st.sampled_from(["war", "penney", "examples", "chance"]), JUNK).map(
    lambda pair: [pair[0], *pair[1]])))
def test_unknown_commands_and_junk(argv: list[str]) -> None:
    check(argv)


# --------------------------------------------------------------------------- absurd sizes, named


ABSURD = [
    ["war", "sweep", "--ranks", HUGE],
    ["war", "sweep", "--ranks", HUGE, "--suits", HUGE],
    ["war", "sweep", "--ranks", "1000000"],
    ["war", "sweep", "--ranks", "13", "--suits", "8"],
    ["war", "exact", "--ranks", "100000"],
    ["war", "exact", "--ranks", "6", "--suits", "2"],
    ["war", "simulate", "--games", "1000000000000"],
    ["war", "simulate", "--workers", "100000"],
    ["war", "simulate", "--ranks", "100000", "--games", "1"],
    ["war", "search", "within", "--ranks", HUGE, "--battles", "3"],
    ["penney", "best", "HHH", "--length", "40"],
    ["penney", "best", "ab", "--alphabet", "abcdefghijklmnopqrstuvwxyz", "--length", "3"],
    ["penney", "table", "--length", "30"],
    ["penney", "table", "--length", HUGE],
    ["penney", "cards", "RRB", "BRR", "--red", "1000000000"],
    ["penney", "cards", "RRB", "BRR", "RBR", "BBR"],
    ["penney", "odds", "H" * 3000, "T" * 3000],
    ["penney", "odds", "HH", "TT", "--weights", "1e999999999,1"],
    ["penney", "odds", "HH", "TT", "--alphabet", "x" * 5000 + "HT"],
]


@pytest.mark.parametrize("argv", ABSURD, ids=lambda argv: " ".join(a[:12] for a in argv))
def test_absurd_sizes_are_rejected_up_front(argv: list[str]) -> None:
    code, out, err = check(argv)
    assert code == 2 and out == "", err


def test_sample_with_absurd_n(files: dict[str, str]) -> None:
    code, _, err = check(["sample", f"{files['good']}:pair", "--deck", "ranks", "-n", "10" * 20])
    assert code == 2 and "at most 10,000,000" in err


@pytest.mark.parametrize(("name", "code", "words"), [
    ("pair", 0, ""),
    ("number", 2, "not a spec"),
    ("needs", 2, "needs arguments"),
    ("junk", 2, "not a spec"),
    ("nope", 2, "has no spec or function named 'nope'"),
    ("boom", 1, "boom() in"),
    ("deep", 1, "ZeroDivisionError"),
    ("leave", 1, "SystemExit"),
])
def test_each_kind_of_name(files: dict[str, str], name: str, code: int, words: str) -> None:
    got, _, err = check(["chance", f"{files['good']}:{name}", "--deck", "A:2,b:1"], user_file=True)
    assert got == code and words in err, err


@pytest.mark.parametrize(("which", "words"), [
    ("raises", "raised on import: ValueError: broken on import"),
    ("exits", "raised on import: SystemExit: 3"),
    ("syntax", "raised on import: SyntaxError"),
    ("binary", "raised on import: SyntaxError"),
])
def test_files_that_fail_on_import_exit_1(files: dict[str, str], which: str, words: str) -> None:
    code, _, err = check(["chance", f"{files[which]}:spec", "--deck", "ranks"], user_file=True)
    assert code == 1 and words in err, err


def test_help_and_version_exit_0() -> None:
    for argv in (["--version"], ["--help"], ["war", "simulate", "--help"], ["penney", "cards", "-h"]):
        code, out, err = run(argv)
        assert code == 0 and out and not err


def test_a_huge_outcome_mean_is_printed_not_overflowed(tmp_path: Path) -> None:
    (tmp_path / "big.py").write_text("from drawdsl import draw\nspec = draw().map(lambda c: 10 ** 400)\n")
    code, out, _ = check(["chance", f"{tmp_path}/big.py:spec", "--deck", "A:1"])
    assert code == 0 and "E+400" in out


# --------------------------------------------------------------------------- the real command

SUBPROCESS_CASES = [
    (["war", "sweep", "--ranks", "0"], 2),
    (["penney", "odds", "HXH", "THH"], 2),
    (["frobnicate"], 2),
    ([], 2),
    (["war", "simulate", "--games", HUGE], 2),
    (["chance", "{raises}:spec", "--deck", "ranks"], 1),
]


@pytest.mark.parametrize(("argv", "expected"), SUBPROCESS_CASES)
def test_real_command_one_line_no_traceback(files: dict[str, str], argv: list[str], expected: int) -> None:
    argv = [arg.format(raises=files["raises"]) for arg in argv]
    done = subprocess.run(
        [sys.executable, "-m", "drawdsl", *argv], capture_output=True, text=True, timeout=HANG
    )
    assert done.returncode == expected, done.stderr
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("drawdsl: error: ")
    assert "Traceback" not in done.stderr


def test_real_version() -> None:
    done = subprocess.run([sys.executable, "-m", "drawdsl", "--version"], capture_output=True, text=True,
                          timeout=HANG)
    assert done.returncode == 0 and done.stdout.startswith("drawdsl ")

