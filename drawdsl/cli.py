"""The ``drawdsl`` command: thin argument parsing and printing, no computing of its own.

Exit codes: 0 on success, 2 on bad input (one line on stderr, never a traceback).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from fractions import Fraction
from typing import Any, NoReturn

import drawdsl
from drawdsl import examples

__all__ = ["main"]


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        self.exit(2, f"drawdsl: error: {message}\n")


def _fraction_text(p: Fraction) -> str:
    return f"{p.numerator}/{p.denominator}"


def _cmd_examples(args: argparse.Namespace) -> int:
    answers = examples.famous_answers()
    if args.json:
        print(json.dumps({name: _fraction_text(p) for name, p in answers.items()}, indent=2))
        return 0
    width = max(len(name) for name in answers)
    for name, p in answers.items():
        print(f"{name:<{width}}  {_fraction_text(p):>14}  ~ {float(p):.6f}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``drawdsl`` command."""
    parser = _Parser(
        prog="drawdsl",
        description="Exact probabilities of card draws.",
        epilog="example: drawdsl examples --json",
    )
    parser.add_argument("--version", action="version", version=f"drawdsl {drawdsl.__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    ex = sub.add_parser(
        "examples",
        help="print famous exact card-draw answers, computed now",
        description="Compute a few famous card-draw probabilities exactly and print them.",
        epilog="example: drawdsl examples --json",
    )
    ex.add_argument("--json", action="store_true", help="print a JSON object name -> 'p/q'")
    ex.set_defaults(run=_cmd_examples)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    run: Any = getattr(args, "run", None)
    if run is None:
        parser.print_help()
        return 2
    try:
        return int(run(args))
    except (drawdsl.DrawdslError, ValueError, TypeError) as err:
        print(f"drawdsl: error: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("drawdsl: interrupted", file=sys.stderr)
        return 130
