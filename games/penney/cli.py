"""``drawdsl penney ...``: Penney's game with coins, dice and cards (exact odds)."""

from __future__ import annotations

import argparse
import json
import re
import sys
from fractions import Fraction
from typing import Any

from drawdsl.cli.common import approx, bounded_int, fraction_text, output_file

#: Bounds that keep one command to seconds or minutes, checked before any work starts.
MAX_PATTERN_SYMBOLS = 1_000  # all the patterns of one race together
MAX_ALPHABET = 1_000
MAX_CANDIDATES = 2_048  # replies ``penney best`` races (2 ** 11)
MAX_FREE_RACES = 200_000  # races ``penney best --players`` solves (seconds each 30,000)
MAX_PAIRS = 5_000  # ordered pairs in ``penney table`` (length 6 over HT: 4,032)
MAX_CARDS = 1_000  # red or black cards
MAX_CARD_WORK = 300_000  # ``penney cards``: deck shapes x trick counts (26 + 26, 3 players: 236,196)
_LENGTH = bounded_int(1, 64, "patterns this long have astronomically many candidates")
_NUMBER = re.compile(r"\s*(\d+(/\d+)?|\d*\.\d+)\s*")

__all__ = ["add_commands"]


def _weights(text: str | None) -> list[Fraction] | None:
    """``"1,1"`` or ``"2/3,1/3"`` -> exact weights (None: equally likely)."""
    if text is None:
        return None
    parts = text.split(",")
    # Plain numbers only, each short: "1e999999999" would be an integer of a billion digits.
    if len(text) > 10_000 or not all(len(part) <= 40 and _NUMBER.fullmatch(part) for part in parts):
        shown = text if len(text) <= 60 else text[:57] + "..."
        raise ValueError(
            "--weights: expected comma-separated integers, fractions or decimals (at most 40 "
            f"characters each) such as 1,1 or 2/3,1/3 or 0.25,0.75, got {shown!r}"
        )
    try:
        return [Fraction(part.strip()) for part in parts]
    except ZeroDivisionError:
        raise ValueError(f"--weights: a weight in {text!r} divides by zero") from None


def _check_patterns(patterns: list[str], alphabet: str) -> None:
    """Reject races too big to finish in reasonable time, before any work starts."""
    size = sum(len(p) for p in patterns)
    if size > MAX_PATTERN_SYMBOLS:
        raise ValueError(
            f"the patterns have {size:,} symbols in all, over the command's {MAX_PATTERN_SYMBOLS:,}; "
            "give fewer or shorter patterns, or call games.penney from Python"
        )
    if len(alphabet) > MAX_ALPHABET:
        raise ValueError(f"--alphabet has {len(alphabet):,} symbols, over the command's {MAX_ALPHABET:,}")


def _all_patterns(alphabet: str, length: int) -> int:
    """How many patterns of ``length`` there are (``length`` is at most 64, so this is quick)."""
    count: int = len(set(alphabet)) ** length
    return count


def _cards_count(text: str) -> int:
    """An argparse type: a number of cards (0 to MAX_CARDS)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of cards, got {text[:40]!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a number of cards >= 0, got {value}")
    if value > MAX_CARDS:
        shown = f"{value:,}" if value < 10**30 else f"about 10^{len(str(value)) - 1}"
        raise argparse.ArgumentTypeError(
            f"expected at most {MAX_CARDS:,} cards, got {shown} (exact results for bigger decks take hours)"
        )
    return value


def _check_cards(patterns: list[str], red: int, black: int, count: str) -> None:
    """The card version keeps every player's tricks in its state: the work grows as a power."""
    _check_patterns(patterns, "RB")
    tricks = (red + black) // 3 + 1 if count != "first" else 1
    work = (red + 1) * (black + 1) * tricks ** max(1, len(patterns) - 1)
    if work > MAX_CARD_WORK:
        raise ValueError(
            f"{len(patterns)} players with {red} red + {black} black cards need about {work:,} exact "
            f"states, over the command's {MAX_CARD_WORK:,} (the 52-card game with 3 players needs "
            "236,196); use fewer players or cards, or --count first"
        )


def _odds(args: argparse.Namespace) -> int:
    from games import penney

    _check_patterns(args.patterns, args.alphabet)
    result = penney.odds(*args.patterns, alphabet=args.alphabet, weights=_weights(args.weights))
    if args.json:
        data: dict[str, str] = {p: fraction_text(q) for p, q in result.wins.items()}
        data["expected_length"] = fraction_text(result.expected_length)
        print(json.dumps(data, indent=2))
        return 0
    width = max(len(p) for p in result.wins)
    for pattern, p in result.wins.items():
        print(f"{pattern:<{width}}  wins {p!s:>12}  ~ {float(p):.6f}")
    length = result.expected_length
    print(f"expected length: {length} flips ~ {approx(length, '.6f')}")
    return 0


def _best(args: argparse.Namespace) -> int:
    from games import penney

    _check_patterns(args.patterns, args.alphabet)
    length = args.length if args.length is not None else len(args.patterns[0])
    candidates = _all_patterns(args.alphabet, length)
    if candidates > MAX_CANDIDATES:
        raise ValueError(
            f"there are {candidates:,} replies of length {length} over {args.alphabet!r}, over the "
            f"command's {MAX_CANDIDATES:,}; ask for a shorter --length or a smaller --alphabet"
        )
    if args.players is not None and args.players != len(args.patterns) + 1:
        return _best_with_free(args, length)
    reply = penney.best_replies(
        *args.patterns, length=args.length, alphabet=args.alphabet, weights=_weights(args.weights)
    )
    if args.json:
        print(json.dumps({
            "opponents": list(args.patterns),
            "best": list(reply.patterns),
            "probability": fraction_text(reply.probability),
            "odds": reply.odds,
        }, indent=2))
        return 0
    against = ", ".join(args.patterns)
    print(f"best reply to {against}: {', '.join(reply.patterns)}")
    p = reply.probability
    print(f"  wins {fraction_text(p)} ~ {float(p):.6f}  (odds {reply.odds})")
    return 0


def _best_with_free(args: argparse.Namespace, length: int) -> int:
    from games import penney
    from games.penney.free import free_races

    if args.players < len(args.patterns) + 1:
        raise ValueError(
            f"--players {args.players} leaves no place for the reply: {len(args.patterns)} pattern(s) "
            f"are given; ask for --players {len(args.patterns) + 1} or more"
        )
    races = free_races(len(args.patterns), args.players, length, args.alphabet)
    if races > MAX_FREE_RACES:
        raise ValueError(
            f"{args.players} players with {length}-symbol patterns over {args.alphabet!r} need {races:,} "
            f"races, over the command's {MAX_FREE_RACES:,}; give more patterns or ask for fewer --players"
        )
    reply = penney.best_replies_with_free(
        *args.patterns, players=args.players, others=args.others, length=length,
        alphabet=args.alphabet, weights=_weights(args.weights),
    )
    if args.json:
        print(json.dumps({
            "given": list(args.patterns),
            "players": args.players,
            "others": args.others,
            "best": list(reply.patterns),
            "probability": fraction_text(reply.probability),
            "odds": reply.odds,
            "answers": {p: [list(choice) for choice in reply.others[p]] for p in reply.patterns},
        }, indent=2))
        return 0
    free = args.players - len(args.patterns) - 1
    case = "the worst case for the reply" if args.others == "worst" else "the best case for the reply"
    print(f"best reply to {', '.join(args.patterns)} with {free} free player{'s' * (free != 1)} "
          f"({case}): {', '.join(reply.patterns)}")
    p = reply.probability
    print(f"  wins {fraction_text(p)} ~ {float(p):.6f}  (odds {reply.odds})")
    for pattern in reply.patterns:
        choices = " | ".join(", ".join(choice) for choice in reply.others[pattern])
        print(f"  {pattern}: the free players' choices reaching it: {choices}")
    return 0


def _table(args: argparse.Namespace) -> int:
    from games import penney

    _check_patterns([], args.alphabet)
    patterns = _all_patterns(args.alphabet, args.length)
    if patterns * (patterns - 1) > MAX_PAIRS:
        raise ValueError(
            f"length {args.length} over {args.alphabet!r} has {patterns * (patterns - 1):,} ordered "
            f"pairs, over the command's {MAX_PAIRS:,}; ask for a shorter --length or a smaller --alphabet"
        )
    rows = penney.pair_table(args.length, alphabet=args.alphabet, weights=_weights(args.weights))
    if args.csv:
        penney.write_csv(rows, args.csv)
    if args.plot:
        from games.penney.plot import heatmap

        heatmap(rows, args.plot, title=f"Penney's game, length {args.length} over {args.alphabet!r}")
    graph = penney.best_reply_graph(rows)
    chance = {(row.first, row.second): row.second_wins for row in rows}
    cycles = penney.best_reply_cycles(graph)
    if args.json:
        print(json.dumps({
            "length": args.length,
            "alphabet": args.alphabet,
            "pairs": [
                {"first": row.first, "second": row.second, "second_wins": fraction_text(row.second_wins)}
                for row in rows
            ],
            "best_replies": {
                first: {"replies": replies, "wins": fraction_text(chance[(first, replies[0])])}
                for first, replies in graph.items()
            },
            "cycles": [list(cycle) for cycle in cycles],
        }, indent=2))
        return 0
    width = args.length
    print(f"best replies, length {args.length} over {args.alphabet!r} ({len(rows)} ordered pairs):")
    for first, replies in graph.items():
        p = chance[(first, replies[0])]
        print(f"  {first:<{width}} -> {', '.join(replies)}  wins {fraction_text(p)} "
              f"(odds {penney.odds_text(p)})")
    for cycle in cycles:
        print("non-transitive cycle: " + " -> ".join((*cycle, cycle[0])))
    if args.csv:
        print(f"wrote {args.csv}")
    if args.plot:
        print(f"wrote {args.plot}")
    return 0


def _cards(args: argparse.Namespace) -> int:
    from games import penney

    _check_cards(args.patterns, args.red, args.black, args.count)
    result = penney.card_odds(*args.patterns, red=args.red, black=args.black, count=args.count)
    if args.json:
        data = {
            "first": fraction_text(result.first),
            "second": fraction_text(result.second),
            "draw": fraction_text(result.draw),
            "wins": {p: fraction_text(q) for p, q in result.wins.items()},
            "count": args.count,
            "red": args.red,
            "black": args.black,
        }
        print(json.dumps(data, indent=2))
        return 0
    print(f"{args.red} red + {args.black} black cards, the winner has the most {args.count}"
          if args.count != "first" else
          f"{args.red} red + {args.black} black cards, the first trick wins")
    draw = "no trick" if args.count == "first" else "draw"
    lines = [(f"{pattern} wins", p) for pattern, p in result.wins.items()] + [(draw, result.draw)]
    width = max(len(label) for label, _ in lines)
    for label, p in lines:
        print(f"  {label:<{width}}  {p!s:>32}  ~ {float(p):.6f}")
    return 0


def add_commands(sub: Any) -> None:
    """Add the ``penney`` command group."""
    penney = sub.add_parser(
        "penney",
        help="Penney's game: exact odds of pattern races (coins, dice, cards)",
        description="Exact odds of Penney's game: who sees their pattern first.",
    )
    penney_sub = penney.add_subparsers(dest="penney_command", metavar="QUESTION", parser_class=type(penney))

    def penney_help(_: argparse.Namespace) -> int:
        questions = ", ".join(penney_sub.choices)
        print(f"drawdsl: error: penney needs a question: {questions} (see drawdsl penney --help)",
              file=sys.stderr)
        return 2

    penney.set_defaults(run=penney_help)

    def add_source(parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--alphabet", default="HT", help="the symbols, one character each (default HT)")
        parser.add_argument("--weights", help="exact weights in alphabet order, such as 1,1 or 2/3,1/3")
        parser.add_argument("--json", action="store_true", help="print a JSON object with 'p/q' strings")

    odds = penney_sub.add_parser(
        "odds",
        help="the exact chance that each pattern appears first, and the expected length",
        description="The exact chance that each pattern appears first, and the expected number of flips.",
        epilog="examples: drawdsl penney odds HHH THH | drawdsl penney odds 11 12 --alphabet 123456 --json",
    )
    odds.add_argument("patterns", nargs="+", metavar="PAT", help="the players' patterns (at least two)")
    add_source(odds)
    odds.set_defaults(run=_odds)

    best = penney_sub.add_parser(
        "best",
        help="the best reply to the given patterns and its chance of winning",
        description="Every pattern of the given length that gives the best chance against the patterns.",
        epilog="examples: drawdsl penney best HHH | drawdsl penney best HTH HHT --length 3 --json | "
               "drawdsl penney best 012 --players 3 --alphabet 012 --others worst",
    )
    best.add_argument("patterns", nargs="+", metavar="PAT", help="the opponents' patterns")
    best.add_argument("--length", type=_LENGTH, help="the reply's length (default: the first pattern's)")
    best.add_argument("--players", type=bounded_int(2, 64, "races of that many players are out of reach"),
                      help="players in all; those not given choose freely after the reply")
    best.add_argument("--others", choices=("worst", "best"), default="worst",
                      help="the free players choose at the reply's worst case (max-min, the default) "
                           "or at its best case (max-max)")
    add_source(best)
    best.set_defaults(run=_best)

    table = penney_sub.add_parser(
        "table",
        help="all pairwise odds for one length: best replies, cycles, CSV and a heatmap",
        description="The odds of every ordered pair of patterns of one length.",
        epilog="examples: drawdsl penney table --length 3 | drawdsl penney table --length 4 --csv t.csv",
    )
    table.add_argument("--length", type=_LENGTH, required=True, help="the patterns' length")
    table.add_argument("--alphabet", default="HT", help="the symbols, one character each (default HT)")
    table.add_argument("--weights", help="exact weights in alphabet order, such as 1,1 or 2/3,1/3")
    table.add_argument("--csv", type=output_file, metavar="FILE",
                       help="write every ordered pair to FILE as CSV")
    table.add_argument("--plot", type=output_file, metavar="FILE",
                       help="draw a heatmap to FILE (needs matplotlib)")
    table.add_argument("--json", action="store_true",
                       help="print a JSON object: every pair, the best replies and the cycles")
    table.set_defaults(run=_table)

    cards = penney_sub.add_parser(
        "cards",
        help="the card version (Humble-Nishiyama): exact win/lose/draw chances",
        description=(
            "Penney's game with a deck of red and black cards: each time a pattern appears among the "
            "cards turned since the last trick, its player takes those cards."
        ),
        epilog="examples: drawdsl penney cards RRB BRR | drawdsl penney cards BBR RBB --count cards --json",
    )
    cards.add_argument("patterns", nargs="+", metavar="PAT", help="colour patterns over R, B (2 or more)")
    cards.add_argument("--red", type=_cards_count, default=26, help="red cards in the deck (default 26)")
    cards.add_argument("--black", type=_cards_count, default=26, help="black cards in the deck (default 26)")
    cards.add_argument(
        "--count", choices=("tricks", "cards", "first"), default="tricks",
        help="the winner has the most tricks, the most cards, or the first trick (default tricks)",
    )
    cards.add_argument("--json", action="store_true", help="print first/second/draw as 'p/q' strings")
    cards.set_defaults(run=_cards)
