"""The ``drawdsl`` command: thin argument parsing and printing, no computing of its own.

Exit codes: 0 on success, 2 on bad input (one line on stderr, never a traceback).
"""

from __future__ import annotations

import argparse
import json
import os
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


def _cmd_war_sweep(args: argparse.Namespace) -> int:
    from games import war

    p = war.sweep_probability(args.ranks, args.suits)
    no_tie = war.no_tie_probability(args.ranks, args.suits)
    games = war.games_per_sweep(args.ranks, args.suits)
    turns = args.ranks * args.suits // 2
    if args.json:
        print(json.dumps({
            "ranks": args.ranks,
            "suits": args.suits,
            "turns": turns,
            "probability": _fraction_text(p),
            "no_tie_probability": _fraction_text(no_tie),
            "games_per_sweep": float(games),
        }, indent=2))
        return 0
    print(f"War, {args.ranks} ranks x {args.suits} suits: P(A wins all {turns} turns)")
    print(f"  = {_fraction_text(p)}")
    print(f"  ~ {float(p):.10g}  (one in {float(1 / p):,.0f} games)")
    print(f"P(no tied turn) = {_fraction_text(no_tie)} ~ {float(no_tie):.10g}")
    print(f"Either player sweeps once in {float(games):,.1f} games on average")
    return 0


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {value}")
    return value


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

    war = sub.add_parser("war", help="the card game War", description="Exact questions about War.")
    war_sub = war.add_subparsers(dest="war_command", metavar="QUESTION")

    def war_help(_: argparse.Namespace) -> int:
        war.print_help(sys.stderr)
        return 2

    war.set_defaults(run=war_help)
    sweep = war_sub.add_parser(
        "sweep",
        help="the exact chance that player A wins every turn",
        description="The exact chance that player A wins every turn of a deal (a tie is not a win).",
        epilog="examples: drawdsl war sweep | drawdsl war sweep --ranks 4 --suits 2 --json",
    )
    sweep.add_argument("--ranks", type=_positive_int, default=13, help="number of ranks (default 13)")
    sweep.add_argument("--suits", type=_positive_int, default=4, help="cards of each rank (default 4)")
    sweep.add_argument("--json", action="store_true", help="print a JSON object")
    sweep.set_defaults(run=_cmd_war_sweep)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    run: Any = getattr(args, "run", None)
    if run is None:
        parser.print_help(sys.stderr)
        return 2
    try:
        return int(run(args))
    except (drawdsl.DrawdslError, ValueError, TypeError) as err:
        print(f"drawdsl: error: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("drawdsl: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader (say `| head`) went away: stop quietly, as Unix tools do.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
