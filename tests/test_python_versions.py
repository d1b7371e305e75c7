"""Same seed, same results on every supported Python: the core run by each interpreter found.

The core needs nothing beyond the standard library for these questions (sympy is
imported only to solve big cyclic systems), so each other CPython 3.10+ on the machine
runs the program below straight from the source tree, and its output must equal this
interpreter's: exact distributions, sampled tallies (including blocks past the first,
whose seeds are derived with SHA-256), and a witness.
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

PROGRAM = """
from fractions import Fraction
from drawdsl import (Cards, chances, coin, draw, draw_groups, draw_many, draw_until, loop,
                     done, sample, simulate, witness, standard_deck)

deck = Cards({"x": 3, "y": 2, "z": 2})
print(sorted(chances(draw_groups([2, 1]), deck).items()))
print(chances(draw_until(lambda c: c == "z", 4), deck).expected_draws)
print(sorted(simulate(draw_many(2), deck, n=300, seed=5, chunk=100).items()))
print([sample(draw_many(3), standard_deck(), rng=seed) for seed in range(3)])
print(sorted(simulate(draw_many(3), coin(Fraction(1, 3)), n=250, seed=9, chunk=60).items()))

def step(run, side):
    run = run + 1 if side == "H" else 0
    return done("HH") if run == 2 else run

print(sorted(chances(loop(0, step), coin()).items()))
print(witness(draw_many(3), deck, lambda v: v == ("z", "y", "z")))

from drawdsl import generate

@generate
def shape():
    counts = {}
    for flag in (True, True, False, True):
        card = yield draw()
        if flag:
            counts[card] = counts.get(card, 0) + 1
    return tuple(sorted(counts.values()))

print(sorted(chances(shape(), deck).items()))
"""


def _interpreters() -> list[str]:
    """Other CPython 3.10+ interpreters on this machine (pyenv's, or python3.X on PATH)."""
    found: dict[str, str] = {}
    candidates = sorted(glob.glob(os.path.expanduser("~/.pyenv/versions/3.*/bin/python")))
    candidates += [p for v in range(10, 20) if (p := shutil.which(f"python3.{v}")) is not None]
    for path in candidates:
        try:
            version = subprocess.run(
                [path, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
                capture_output=True, text=True, timeout=60, check=True,
            ).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            continue
        major, minor = map(int, version.split("."))
        here = "{}.{}".format(*sys.version_info[:2])
        if (major, minor) >= (3, 10) and version != here:
            found.setdefault(version, path)
    return [found[v] for v in sorted(found)]


def _run(python: str) -> str:
    env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONHASHSEED="random")
    result = subprocess.run(
        [python, "-c", PROGRAM], capture_output=True, text=True, timeout=300, env=env, cwd=ROOT
    )
    assert result.returncode == 0, (python, result.stderr)
    return result.stdout


OTHERS = _interpreters()


def test_the_program_checks_something() -> None:
    out = _run(sys.executable)
    assert out.count("\n") == 8 and "Fraction" in out


@pytest.mark.skipif(not OTHERS, reason="no other CPython 3.10+ on this machine")
@pytest.mark.parametrize("python", OTHERS)
def test_same_results_on_another_python(python: str) -> None:
    assert _run(python) == _run(sys.executable)
