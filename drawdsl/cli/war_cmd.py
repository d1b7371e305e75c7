"""``drawdsl war ...``: questions about the card game War."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from drawdsl.cli.common import fraction_text, positive_int

__all__ = ["add_commands"]


def _sweep(args: argparse.Namespace) -> int:
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
            "probability": fraction_text(p),
            "no_tie_probability": fraction_text(no_tie),
            "games_per_sweep": float(games),
        }, indent=2))
        return 0
    print(f"War, {args.ranks} ranks x {args.suits} suits: P(A wins all {turns} turns)")
    print(f"  = {fraction_text(p)}")
    print(f"  ~ {float(p):.10g}  (one in {float(1 / p):,.0f} games)")
    print(f"P(no tied turn) = {fraction_text(no_tie)} ~ {float(no_tie):.10g}")
    print(f"Either player sweeps once in {float(games):,.1f} games on average")
    return 0


def add_commands(sub: Any) -> None:
    """Add the ``war`` command group."""
    war = sub.add_parser("war", help="the card game War", description="Exact questions about War.")
    war_sub = war.add_subparsers(dest="war_command", metavar="QUESTION", parser_class=type(war))

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
    sweep.add_argument("--ranks", type=positive_int, default=13, help="number of ranks (default 13)")
    sweep.add_argument("--suits", type=positive_int, default=4, help="cards of each rank (default 4)")
    sweep.add_argument("--json", action="store_true", help="print a JSON object")
    sweep.set_defaults(run=_sweep)
