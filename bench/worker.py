"""Run one formulation once, in this (fresh) interpreter, and write what happened as JSON.

    python -m bench.worker MODULE:FUNCTION OUT.json [--needs m1,m2] [--warmup M:F] [--memory] [--args 26,4]

The modules in ``--needs`` are imported, and the ``--warmup`` function (a tiny
unrelated question, see :mod:`bench.warmup`) is run, before the clock starts: import
time and the library's one-time costs are not measured.  ``--memory`` runs under
:mod:`tracemalloc` and records the peak (tracing slows the run down, so the runner
never times a ``--memory`` run).
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
import time
import tracemalloc
from collections.abc import Callable
from fractions import Fraction
from typing import Any

__all__ = ["encode", "decode", "main"]


def encode(answer: object) -> dict[str, Any]:
    """An answer as JSON: ``{"fraction": "n/d"}``, ``{"float": x}`` or ``{"distribution": {...}}``."""
    if isinstance(answer, Fraction):
        return {"fraction": str(answer)}
    if isinstance(answer, float):
        return {"float": answer}
    if isinstance(answer, dict):
        return {"distribution": {str(k): str(Fraction(v)) for k, v in answer.items()}}
    raise TypeError(f"cannot encode an answer of type {type(answer).__name__}: {answer!r}")


def decode(data: dict[str, Any]) -> Fraction | float | dict[str, Fraction]:
    """The inverse of :func:`encode`."""
    if "fraction" in data:
        return Fraction(data["fraction"])
    if "float" in data:
        return float(data["float"])
    return {k: Fraction(v) for k, v in data["distribution"].items()}


def _resolve(target: str) -> Callable[..., object]:
    module_name, _, name = target.partition(":")
    function: Callable[..., object] = getattr(importlib.import_module(module_name), name)
    return function


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.worker")
    parser.add_argument("target", help="module:function to call with no arguments")
    parser.add_argument("out", help="where to write the JSON result")
    parser.add_argument("--needs", default="", help="comma-separated modules to import first")
    parser.add_argument("--warmup", default="", help="module:function to call before the clock starts")
    parser.add_argument("--memory", action="store_true", help="record the tracemalloc peak")
    parser.add_argument("--args", default="", help="comma-separated integers to call the function with")
    args = parser.parse_args(argv)
    call_args = [int(a) for a in args.args.split(",") if a]

    for module in filter(None, args.needs.split(",")):
        importlib.import_module(module)
    function = _resolve(args.target)
    if args.warmup:
        _resolve(args.warmup)()

    result: dict[str, Any] = {"target": args.target}
    try:
        if args.memory:
            tracemalloc.start()
            answer = function(*call_args)
            result["peak_bytes"] = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
        else:
            start = time.perf_counter()
            answer = function(*call_args)
            result["seconds"] = time.perf_counter() - start
        result["answer"] = encode(answer)
    except Exception as error:  # reported in the table, never raised
        result["error"] = f"{type(error).__name__}: {error}"
    with open(args.out, "w", encoding="utf-8") as handle:
        json.dump(result, handle)
    return 0


if __name__ == "__main__":
    sys.exit(main())
