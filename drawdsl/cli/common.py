"""Shared pieces of the command line: the parser that exits 2 with one line, formatting, bounds."""

from __future__ import annotations

import argparse
import decimal
import os
import reprlib
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import NoReturn

from drawdsl.errors import add_note

__all__ = [
    "Parser",
    "fraction_text",
    "positive_int",
    "approx",
    "bounded_int",
    "output_file",
    "add_note",
    "one_line",
]

_SHORT = reprlib.Repr()
_SHORT.maxstring = 40


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line on stderr and exit code 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"drawdsl: error: {' '.join(message.split())}\n")


def fraction_text(p: Fraction) -> str:
    """``"p/q"``, the exact form every ``--json`` output uses."""
    return f"{p.numerator}/{p.denominator}"


def approx(value: Fraction, spec: str = ".6g") -> str:
    """``value`` as a decimal in ``spec``; past a float's range, in scientific notation."""
    try:
        return format(float(value), spec)
    except OverflowError:  # more than about 1.8e308
        with decimal.localcontext() as context:
            context.prec = 7
            return str(decimal.Decimal(value.numerator) / decimal.Decimal(value.denominator))


def _int(text: str, what: str) -> int:
    try:
        return int(text)
    except ValueError:  # also a string of more than 4300 digits
        raise argparse.ArgumentTypeError(f"expected {what}, got {_SHORT.repr(text)}") from None


def positive_int(text: str) -> int:
    """An argparse type: a positive integer."""
    value = _int(text, "a positive integer")
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {value}")
    return value


def bounded_int(low: int, high: int, why: str = "") -> Callable[[str], int]:
    """An argparse type: an integer from ``low`` to ``high``; ``why`` explains the upper bound.

    Bounds keep the command from starting work that would take hours or exhaust memory.
    """

    what = {0: "a non-negative integer", 1: "a positive integer"}.get(low, f"an integer >= {low:,}")

    def parse(text: str) -> int:
        value = _int(text, what)
        if value < low:
            raise argparse.ArgumentTypeError(f"expected {what}, got {value}")
        if value > high:
            shown = f"{value:,}" if value < 10**30 else f"about 10^{len(str(value)) - 1}"
            raise argparse.ArgumentTypeError(
                f"expected at most {high:,}, got {shown}" + (f" ({why})" if why else "")
            )
        return value

    parse.__name__ = "integer"  # argparse names the type in some messages
    return parse


def output_file(text: str) -> str:
    """An argparse type: a file to write, checked before any work starts (its folder must exist)."""
    if not text.strip():
        raise argparse.ArgumentTypeError("expected a file name, got an empty string")
    path = Path(text)
    if path.is_dir():
        raise argparse.ArgumentTypeError(f"{_SHORT.repr(text)} is a folder; give a file name")
    folder = path.parent
    if not folder.is_dir():
        raise argparse.ArgumentTypeError(f"cannot write {_SHORT.repr(text)}: no folder {str(folder)!r}")
    if not os.access(folder, os.W_OK):
        raise argparse.ArgumentTypeError(f"cannot write {_SHORT.repr(text)}: the folder is not writable")
    return text


def one_line(err: BaseException) -> str:
    """``Type: message`` plus any notes, on one line."""
    notes = [str(note).removeprefix("drawdsl: ") for note in getattr(err, "__notes__", ())]
    text = f"{type(err).__name__}: {err}" + "".join(f" ({note})" for note in notes)
    return " ".join(text.split())
