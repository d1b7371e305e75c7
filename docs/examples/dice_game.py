"""A third-party game's `drawdsl dice` command, plugged in through the drawdsl.commands entry points."""

import argparse

import drawdsl
from drawdsl.cli.common import fraction_text, positive_int


def _run(args: argparse.Namespace) -> int:
    double = drawdsl.draw_many(2).map(lambda pair: pair[0] == pair[1])
    p = drawdsl.chances(double, drawdsl.die(args.sides)).probability(lambda same: same)
    print(f"P(double) = {fraction_text(p)}")
    return 0  # the exit code


def add_commands(commands) -> None:  # commands: the sub-parsers of the `drawdsl` command
    dice = commands.add_parser("dice", help="a third-party game: doubles with two dice")
    dice.add_argument("--sides", type=positive_int, default=6, help="faces of each die")
    dice.set_defaults(run=_run)
