"""Shared pieces of the command line: the parser that exits 2 with one line, formatting."""

from __future__ import annotations

import argparse
from fractions import Fraction
from typing import NoReturn

__all__ = ["Parser", "fraction_text", "positive_int"]


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line on stderr and exit code 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"drawdsl: error: {message}\n")


def fraction_text(p: Fraction) -> str:
    """``"p/q"``, the exact form every ``--json`` output uses."""
    return f"{p.numerator}/{p.denominator}"


def positive_int(text: str) -> int:
    """An argparse type: a positive integer."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {value}")
    return value
