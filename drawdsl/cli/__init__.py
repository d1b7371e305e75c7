"""The ``drawdsl`` command: thin argument parsing and printing, no computing of its own.

The core commands (``chance``, ``sample``, ``examples``) live here; every other command
group is a plug-in found through the ``drawdsl.commands`` entry-point group
(:mod:`drawdsl.cli.plugins`): the games shipped beside drawdsl (``war``, ``penney``) plug in
exactly as a third-party game library does.

Exit codes: 0 on success; 1 when the user's own file raises (``chance``, ``sample``);
2 on bad input; 130 when interrupted (Ctrl-C).  Every error is one line on stderr,
never a traceback.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import Any

import drawdsl
from drawdsl.cli import chance_cmd, examples_cmd, plugins
from drawdsl.cli.common import Parser as _Parser
from drawdsl.cli.common import one_line

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
    for group in (chance_cmd, examples_cmd):
        group.add_commands(sub)
    plugins.add_plugin_commands(sub)

    def no_command(_: argparse.Namespace) -> int:
        commands = ", ".join(sub.choices)
        print(f"drawdsl: error: give a command: {commands} (see drawdsl --help)", file=sys.stderr)
        return 2

    parser.set_defaults(run=no_command)
    return parser


def _interrupted(err: KeyboardInterrupt) -> int:
    """Ctrl-C: one line with the progress made (the notes the work added), exit code 130."""
    notes = [str(note).removeprefix("drawdsl: ") for note in getattr(err, "__notes__", ())]
    print("drawdsl: interrupted" + "".join(f"; {note}" for note in notes), file=sys.stderr)
    return 130


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    try:
        parser = build_parser()
        args = parser.parse_args(argv)
        run: Any = args.run
        return int(run(args))
    except (drawdsl.DrawdslError, ValueError, TypeError, OSError) as err:
        if isinstance(err, BrokenPipeError):
            # The reader (say `| head`) went away: stop quietly, as Unix tools do.
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            return 0
        message = " ".join(str(err).split()) or type(err).__name__
        print(f"drawdsl: error: {message}", file=sys.stderr)
        return 2
    except KeyboardInterrupt as err:
        return _interrupted(err)
    except Exception as err:  # a bug in drawdsl: still one line
        print(f"drawdsl: error: unexpected {one_line(err)} (a bug in drawdsl; please report it)",
              file=sys.stderr)
        return 2
