"""The ``drawdsl`` command: thin argument parsing and printing, no computing of its own.

Exit codes: 0 on success, 2 on bad input (one line on stderr, never a traceback).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import Any

import drawdsl
from drawdsl.cli import chance_cmd, examples_cmd, penney_cmd, war_cmd
from drawdsl.cli.common import Parser as _Parser

__all__ = ["main"]


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``drawdsl`` command (each command group adds its own)."""
    parser = _Parser(
        prog="drawdsl",
        description="Exact probabilities of card draws.",
        epilog="examples: drawdsl war sweep | drawdsl examples --json",
    )
    parser.add_argument("--version", action="version", version=f"drawdsl {drawdsl.__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for group in (chance_cmd, examples_cmd, war_cmd, penney_cmd):
        group.add_commands(sub)
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
