"""``drawdsl examples``: famous card-draw answers, computed now."""

from __future__ import annotations

import argparse
import json
from typing import Any

from drawdsl import examples
from drawdsl.cli.common import fraction_text

__all__ = ["add_commands"]


def _run(args: argparse.Namespace) -> int:
    answers = examples.famous_answers()
    if args.json:
        print(json.dumps({name: fraction_text(p) for name, p in answers.items()}, indent=2))
        return 0
    width = max(len(name) for name in answers)
    for name, p in answers.items():
        print(f"{name:<{width}}  {fraction_text(p):>14}  ~ {float(p):.6f}")
    return 0


def add_commands(sub: Any) -> None:
    """Add the ``examples`` command."""
    ex = sub.add_parser(
        "examples",
        help="print famous exact card-draw answers, computed now",
        description="Compute a few famous card-draw probabilities exactly and print them.",
        epilog="example: drawdsl examples --json",
    )
    ex.add_argument("--json", action="store_true", help="print a JSON object name -> 'p/q'")
    ex.set_defaults(run=_run)
