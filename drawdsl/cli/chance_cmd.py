"""``drawdsl chance`` and ``drawdsl sample``: run a spec from the user's own file, exactly or by simulation.

``FILE.py:NAME`` names a spec value, or a function of no arguments returning one, in
the user's own Python file.  The file is run as Python (it is the user's own code);
the deck is text read by :func:`drawdsl.deck_text.parse_deck`, never run.

Exit codes: 0 on success; 1 when the user's file raises (on import, or while the spec
is evaluated); 2 on bad input (unreadable ``--deck``, a missing or wrong ``NAME``...).
"""

from __future__ import annotations

import argparse
import importlib.machinery
import importlib.util
import inspect
import json
import re
import reprlib
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from fractions import Fraction
from pathlib import Path
from types import ModuleType
from typing import Any, NamedTuple

from drawdsl import Cards, DrawdslError, InvalidArgument, Spec, StateLimitExceeded, chances, explain, simulate
from drawdsl.cli.common import add_note, approx, bounded_int, fraction_text, one_line, positive_int
from drawdsl.deck_text import ASPECT_HELP, DECK_HELP, aspect, parse_deck, with_aspect
from drawdsl.estimates import proportion
from drawdsl.exact import DEFAULT_MAX_STATES

__all__ = ["add_commands", "load_spec"]

_BAR = 30  # characters of the longest bar
#: The most deals one ``drawdsl sample`` runs: deals are played one by one in Python
#: (thousands a second), so more would take hours.
MAX_DEALS = 10_000_000
_MISSING = object()


class _Deck(NamedTuple):
    text: str
    cards: Cards[Any]


class UserCodeError(Exception):
    """The user's own code raised: reported in one line with exit code 1."""


def _deck_arg(text: str) -> _Deck:
    try:
        return _Deck(text, parse_deck(text))
    except InvalidArgument as err:
        raise argparse.ArgumentTypeError(str(err).removeprefix("deck: ")) from None


def _aspect_arg(text: str) -> str:
    try:
        aspect(text)
    except InvalidArgument as err:
        raise argparse.ArgumentTypeError(str(err).removeprefix("aspect: ")) from None
    return text.strip()


def _deck(args: argparse.Namespace) -> _Deck:
    """The ``--deck``, seen through ``--aspect`` when one is given."""
    deck: _Deck = args.deck
    if args.aspect is None:
        return deck
    cards = with_aspect(deck.cards, args.aspect, f"--deck {deck.text}")
    return _Deck(f"{deck.text} --aspect {args.aspect}", cards)


@contextmanager
def _user_module(path: Path) -> Iterator[ModuleType]:
    """Import ``path`` as a fresh module (its folder importable meanwhile), then forget it."""
    name = "_drawdsl_user_" + re.sub(r"\W", "_", path.stem)
    loader = importlib.machinery.SourceFileLoader(name, str(path))
    spec = importlib.util.spec_from_loader(name, loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    folder = str(path.resolve().parent)
    sys.path.insert(0, folder)
    # Registered while it runs: dataclasses and typing look their module up by name.
    sys.modules[name] = module
    try:
        try:
            loader.exec_module(module)
        except (Exception, SystemExit) as err:  # sys.exit() in the file is its own failure too
            raise UserCodeError(f"{path} raised on import: {one_line(err)}") from None
        yield module
    finally:
        sys.modules.pop(name, None)
        if folder in sys.path:
            sys.path.remove(folder)


def _candidates(module: ModuleType) -> list[str]:
    """The public specs and functions the file itself defines, for error messages."""
    names = []
    for key, value in vars(module).items():
        if key.startswith("_"):
            continue
        if isinstance(value, Spec) or (
            inspect.isfunction(value) and getattr(value, "__module__", None) == module.__name__
        ):
            names.append(key)
    return names


def load_spec(module: ModuleType, name: str, where: str) -> Spec[Any]:
    """The spec ``name`` in ``module``: a spec value, or what a no-argument function returns."""
    obj = getattr(module, name, _MISSING)
    if obj is _MISSING:
        found = _candidates(module)
        have = f"it defines {', '.join(found[:12])}" if found else "it defines no specs or functions"
        raise InvalidArgument(f"{where} has no spec or function named {name!r}; {have}")
    if isinstance(obj, Spec):
        return obj
    if not callable(obj):
        raise InvalidArgument(
            f"{name} in {where} is {reprlib.repr(obj)} ({type(obj).__name__}), not a spec; name a spec value "
            "or a function of no arguments that returns one"
        )
    try:
        inspect.signature(obj).bind()
    except TypeError:
        raise InvalidArgument(
            f"{name}{inspect.signature(obj)} in {where} needs arguments, and the command passes none; "
            "name a spec value, or a function of no arguments that returns one"
        ) from None
    except ValueError:  # no signature (a builtin): just try it
        pass
    try:
        result = obj()
    except (Exception, SystemExit) as err:
        raise UserCodeError(f"{name}() in {where} raised: {one_line(err)}") from None
    if not isinstance(result, Spec):
        raise InvalidArgument(
            f"{name}() in {where} returned {reprlib.repr(result)} ({type(result).__name__}), not a spec; "
            "return a spec such as draw(), loop(...) or a @generate function's result"
        )
    return result


def _split_target(target: str) -> tuple[Path, str]:
    file, colon, name = target.rpartition(":")
    if not colon or not file or not name:
        raise InvalidArgument(f"expected FILE.py:NAME, such as pairs.py:pocket_pair, got {target!r}")
    if not name.isidentifier():
        raise InvalidArgument(f"{name!r} in {target!r} is not a Python name; write FILE.py:NAME")
    path = Path(file)
    if not path.is_file():
        raise InvalidArgument(f"no such file: {file!r} (from {target!r})")
    return path, name


def _jsonable(value: Any) -> Any:
    """JSON's own types as they are, plain tuples as lists, anything else as its str."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if type(value) in (tuple, list):
        return [_jsonable(v) for v in value]
    return str(value)


def _by_probability(items: list[tuple[Any, Any]]) -> list[tuple[Any, Any]]:
    """Most likely first; ties in outcome order when outcomes compare, else as given."""
    with suppress(TypeError):
        items = sorted(items, key=lambda item: item[0])
    return sorted(items, key=lambda item: -item[1])


def _numeric(values: list[Any]) -> bool:
    return bool(values) and all(
        isinstance(v, (int, Fraction)) and not isinstance(v, bool) for v in values
    )


def _table(rows: list[tuple[str, ...]], weights: list[float | None]) -> list[str]:
    """Aligned columns (first left, others right), and a bar scaled to the largest weight;
    rows whose weight is None (the header, the failure row) get no bar."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    top = max((w for w in weights if w is not None), default=0.0) or 1.0
    lines = []
    for row, weight in zip(rows, weights, strict=True):
        cells = [row[0].ljust(widths[0])]
        cells += [cell.rjust(width) for cell, width in zip(row[1:], widths[1:], strict=True)]
        bar = "" if weight is None else "#" * round(_BAR * weight / top)
        lines.append(("  " + "  ".join(cells) + "  " + bar).rstrip())
    return lines


@contextmanager
def _spec_from(target: str) -> Iterator[tuple[Spec[Any], str]]:
    path, name = _split_target(target)
    with _user_module(path) as module:
        yield load_spec(module, name, str(path)), name


def _evaluating(err: BaseException, name: str, deck: _Deck) -> UserCodeError:
    return UserCodeError(f"{name} raised on --deck {deck.text}: {one_line(err)}")


class _Reached:
    """How far an exact evaluation got (its progress callback), for an interrupt's message."""

    def __init__(self) -> None:
        self.draws = 0
        self.states = 1

    def update(self, draws: int, states: int) -> None:
        self.draws, self.states = draws, states


def _chance(args: argparse.Namespace) -> int:
    deck = _deck(args)
    reached = _Reached()
    with _spec_from(args.target) as (spec, name):
        report = None
        try:
            if args.explain:
                report = explain(spec, deck.cards, lump=args.lump, symmetric=args.symmetric,
                                 probe=args.probe, max_states=args.max_states)
                if report.distribution is None:
                    raise StateLimitExceeded(report.error or "exact evaluation stopped")
                dist = report.distribution
            else:
                dist = chances(spec, deck.cards, lump=args.lump, symmetric=args.symmetric,
                               probe=args.probe, max_states=args.max_states, progress=reached.update)
        except KeyboardInterrupt as err:
            add_note(err, f"exact evaluation had reached draw {reached.draws} "
                          f"with {reached.states:,} live states")
            raise
        except DrawdslError:
            raise
        except (Exception, SystemExit) as err:
            raise _evaluating(err, name, deck) from None
    items = _by_probability(list(dist.items()))
    shown = items if args.top is None else items[: args.top]
    values = [v for v, _ in items]
    mean = None
    if _numeric(values):
        mean = (dist.given_success() if dist.failure else dist).expectation()
    if args.json:
        print(json.dumps({
            "spec": args.target,
            "deck": args.deck.text,
            "aspect": args.aspect,
            "cards": len(deck.cards),
            "outcomes": [
                {"outcome": _jsonable(v), "probability": fraction_text(p), "decimal": float(p)}
                for v, p in shown
            ],
            "more_outcomes": len(items) - len(shown),
            "failure": fraction_text(dist.failure),
            "success": fraction_text(dist.success),
            "mean": None if mean is None else fraction_text(mean),
            "expected_draws": None if dist.expected_draws is None else fraction_text(dist.expected_draws),
            **({} if report is None else {"explain": {
                "classes": len(report.classes),
                "distinct_cards": report.distinct,
                "symmetric": report.symmetric,
                "symmetry_note": report.symmetry_note,
                "live_states_per_draw": [live for live, _ in report.states],
                "specs_per_draw": [specs for _, specs in report.states],
                "restarts": report.restarts,
            }}),
        }, indent=2))
        return 0
    print(f"{name} on {deck.text} ({len(deck.cards)} cards), exact:")
    rows: list[tuple[str, ...]] = [("outcome", "probability", "decimal")]
    weights: list[float | None] = [None]
    for v, p in shown:
        rows.append((str(v), str(p), f"{float(p):.6g}"))
        weights.append(float(p))
    if len(shown) < len(items):
        rest = sum((p for _, p in items[len(shown):]), Fraction(0))
        rows.append((f"({len(items) - len(shown)} more)", str(rest), f"{float(rest):.6g}"))
        weights.append(None)
    if dist.failure:
        rows.append(("(fails)", str(dist.failure), f"{float(dist.failure):.6g}"))
        weights.append(None)
    for line in _table(rows, weights):
        print(line)
    if dist.failure:
        print(f"P(success) = {dist.success} ~ {float(dist.success):.6g}")
    if not dist.success:
        print("note: the spec failed on every deal; does it expect the cards this deck holds? (see --deck)")
    if mean is not None:
        given = " given success" if dist.failure else ""
        print(f"mean{given} = {mean} ~ {approx(mean)}")
    if report is not None:
        print("how it was evaluated:")
        for line in str(report).splitlines():
            print("  " + line)
    return 0


def _sample(args: argparse.Namespace) -> int:
    deck = _deck(args)
    with _spec_from(args.target) as (spec, name):
        try:
            tally = simulate(spec, deck.cards, n=args.n, seed=args.seed)
        except DrawdslError:
            raise
        except (Exception, SystemExit) as err:
            raise _evaluating(err, name, deck) from None
    counts = _by_probability(list(tally.items()))
    shown = counts if args.top is None else counts[: args.top]
    mean = tally.mean_interval() if _numeric([v for v, _ in counts]) else None

    def interval(count: int) -> list[float]:
        est = proportion(count, args.n)
        return [est.low, est.high]

    if args.json:
        print(json.dumps({
            "spec": args.target,
            "deck": args.deck.text,
            "aspect": args.aspect,
            "cards": len(deck.cards),
            "n": args.n,
            "seed": args.seed,
            "outcomes": [
                {"outcome": _jsonable(v), "count": c, "frequency": c / args.n, "ci95": interval(c)}
                for v, c in shown
            ],
            "more_outcomes": len(counts) - len(shown),
            "failures": tally.failures,
            "mean": None if mean is None else mean.value,
            "mean_ci95": None if mean is None else [mean.low, mean.high],
        }, indent=2))
        return 0
    print(f"{name} on {deck.text} ({len(deck.cards)} cards), {args.n} random deals (seed {args.seed}):")
    rows: list[tuple[str, ...]] = [("outcome", "count", "frequency", "95% interval")]
    weights: list[float | None] = [None]
    entries = [(str(v), c, True) for v, c in shown]
    if len(shown) < len(counts):
        entries.append((f"({len(counts) - len(shown)} more)", sum(c for _, c in counts[len(shown):]), False))
    if tally.failures:
        entries.append(("(fails)", tally.failures, False))
    for label, c, is_outcome in entries:
        low, high = interval(c)
        rows.append((label, str(c), f"{c / args.n:.4f}", f"{low:.4f} to {high:.4f}"))
        weights.append(c / args.n if is_outcome else None)
    for line in _table(rows, weights):
        print(line)
    if mean is not None:
        given = " given success" if tally.failures else ""
        print(f"mean{given} = {mean.value:.6g}, 95% interval {mean.low:.6g} to {mean.high:.6g}")
    return 0


def _run(command: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    """Report the user's own errors in one line with exit code 1."""

    def run(args: argparse.Namespace) -> int:
        try:
            return int(command(args))
        except UserCodeError as err:
            print(f"drawdsl: error: {err}", file=sys.stderr)
            return 1

    return run


_FILE_HELP = (
    "FILE.py:NAME, a spec (or a function of no arguments returning one) in your own Python file; "
    "the file is run as Python, so name only files you trust"
)
_EXAMPLE = '''\
example file pairs.py:

    from drawdsl import draw, fail, generate

    @generate
    def pocket_pair():
        first = yield draw()
        second = yield draw()
        if first != second:
            yield fail()
        return first

decks (--deck): ''' + DECK_HELP + ''';
  explicit counts give string cards ("A", "x").
exit codes: 0 done, 1 your file raised, 2 bad input.
'''


def add_commands(sub: Any) -> None:
    """Add the ``chance`` and ``sample`` commands."""
    chance = sub.add_parser(
        "chance",
        help="the exact distribution of your own spec on a deck",
        description="Evaluate a spec from your own file exactly and print its distribution, "
        "most likely outcome first: fractions, decimals and a bar.",
        epilog=_EXAMPLE + """
examples:
  drawdsl chance pairs.py:pocket_pair --deck ranks
  drawdsl chance pairs.py:pocket_pair --deck standard --explain
  drawdsl chance pairs.py:pocket_pair --deck ranks --json
  drawdsl chance pairs.py:pocket_pair --deck shoe:6 --aspect rank
  drawdsl chance aces.py:first_ace --deck A:4,x:48""",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    chance.add_argument("target", metavar="FILE.py:NAME", help=_FILE_HELP)
    chance.add_argument("--deck", required=True, type=_deck_arg, metavar="DECK", help=DECK_HELP)
    chance.add_argument("--aspect", type=_aspect_arg, metavar="ASPECT",
                        help="what the spec sees of each playing card: " + ASPECT_HELP)
    chance.add_argument(
        "--no-lump", dest="lump", action="store_false",
        help="do not draw cards the spec cannot tell apart as one class (same answer; for testing)",
    )
    chance.add_argument(
        "--no-probe", dest="probe", action="store_false",
        help="show the spec whole cards, not only the fields it reads (same answer; for testing)",
    )
    chance.add_argument(
        "--no-symmetric", dest="symmetric", action="store_false",
        help="do not merge decks that differ by a renaming of cards (same answer; for testing)",
    )
    chance.add_argument(
        "--symmetric", action="store_true", default=True,
        help="kept for old command lines: the symmetry is now found, proven for the spec and used "
        "automatically (it is never assumed)",
    )
    chance.add_argument(
        "--explain", action="store_true",
        help="also say how the answer was computed: cards lumped, symmetry proven or why not, "
        "live states per draw",
    )
    chance.add_argument("--top", type=positive_int, metavar="N", help="show only the N most likely outcomes")
    chance.add_argument(
        "--max-states", type=positive_int, default=DEFAULT_MAX_STATES, metavar="N",
        help=f"stop with an error beyond N live states at one draw (default {DEFAULT_MAX_STATES})",
    )
    chance.add_argument("--json", action="store_true", help="print a JSON object with exact 'p/q' strings")
    chance.set_defaults(run=_run(_chance))

    sample = sub.add_parser(
        "sample",
        help="simulate your own spec on random deals",
        description="Run a spec from your own file on N random deals and print the frequencies "
        "(same seed, same answer).",
        epilog=_EXAMPLE + """
examples:
  drawdsl sample pairs.py:pocket_pair --deck ranks -n 10000 --seed 1
  drawdsl sample pairs.py:pocket_pair --deck standard -n 1000 --seed 7 --json
  drawdsl sample pairs.py:pocket_pair --deck standard --aspect rank --top 3""",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sample.add_argument("target", metavar="FILE.py:NAME", help=_FILE_HELP)
    sample.add_argument("--deck", required=True, type=_deck_arg, metavar="DECK", help=DECK_HELP)
    sample.add_argument("--aspect", type=_aspect_arg, metavar="ASPECT",
                        help="what the spec sees of each playing card: " + ASPECT_HELP)
    sample.add_argument(
        "-n", type=bounded_int(1, MAX_DEALS, "a run plays deals one by one in Python; use several seeds"),
        default=10_000, metavar="N", help=f"number of deals (default 10000, at most {MAX_DEALS:,})",
    )
    sample.add_argument("--seed", type=int, default=0, metavar="S", help="random seed (default 0)")
    sample.add_argument("--top", type=positive_int, metavar="N",
                        help="show only the N most frequent outcomes")
    sample.add_argument("--json", action="store_true", help="print a JSON object")
    sample.set_defaults(run=_run(_sample))
