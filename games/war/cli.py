"""``drawdsl war ...``: questions about the card game War."""

from __future__ import annotations

import argparse
import json
import sys
from fractions import Fraction
from typing import Any

from drawdsl.cli.common import approx, bounded_int, fraction_text, output_file, positive_int

__all__ = ["add_commands"]


#: The work ``war sweep`` takes on: its estimate of states x draws (13 x 4 needs 123,760).
MAX_SWEEP_WORK = 3_000_000
#: The most games one ``war simulate`` plays: the per-game table stays in memory.
MAX_GAMES = 10_000_000
#: The most worker processes (each is a whole Python process).
MAX_WORKERS = 64
#: The most deals ``war exact`` plays through (4 x 3 has 369,600).
MAX_EXACT_DEALS = 1_000_000
#: The most ranks or suits any war command accepts (each command then checks its own work).
MAX_RANKS = MAX_SUITS = 10_000
#: The most cards ``war search`` looks through (1,000 cards take seconds; 52 take one).
MAX_SEARCH_CARDS = 1_000
_RANKS = bounded_int(1, MAX_RANKS, "no deck of War has that many ranks")
_MAX_STATES = bounded_int(1, 50_000_000, "each state is kept in memory")
#: The most random deals ``war search`` plays after the exhaustive search gives up.
MAX_SEARCH_SAMPLES = 10_000_000
_SAMPLES = bounded_int(0, MAX_SEARCH_SAMPLES, "each deal is a whole game")
_SUITS = bounded_int(1, MAX_SUITS, "no deck of War has that many cards of a rank")
#: The most players ``war simulate`` and ``war exact`` seat (each needs a card).
MAX_PLAYERS = 1_000
_PLAYERS = bounded_int(2, MAX_PLAYERS, "each player needs a card")


def _check_sweep_size(ranks: int, suits: int) -> None:
    """Reject decks whose exact sweep would run for hours, before any work starts."""
    from math import comb

    cards = ranks * suits
    # Symmetric states are the decks' count profiles: about comb(ranks + suits, suits).
    work = comb(ranks + suits, suits) * cards if cards <= 10_000 else None
    if work is None or work > MAX_SWEEP_WORK:
        size = "over 10^30" if work is None and cards > 10**30 else f"about {work or cards:,}"
        raise ValueError(
            f"war sweep: a deck of {ranks} ranks x {suits} suits needs {size} state expansions, over "
            f"the command's {MAX_SWEEP_WORK:,} (13 x 4 needs 123,760); use fewer ranks or suits, or "
            "call games.war.sweep_probability from Python"
        )


def _sweep(args: argparse.Namespace) -> int:
    from games import war

    _check_sweep_size(args.ranks, args.suits)
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
            "games_per_sweep": None if p == 0 else float(games),
        }, indent=2))
        return 0
    print(f"War, {args.ranks} ranks x {args.suits} suits: P(A wins all {turns} turns)")
    print(f"  = {fraction_text(p)}")
    if p == 0:
        print("  no deal is a sweep: every deal has a tied turn")
    else:
        print(f"  ~ {float(p):.10g}  (one in {float(1 / p):,.0f} games)")
    print(f"P(no tied turn) = {fraction_text(no_tie)} ~ {float(no_tie):.10g}")
    if p == 0:
        print("Neither player ever sweeps")
    else:
        print(f"Either player sweeps once in {float(games):,.1f} games on average")
    return 0


def add_commands(sub: Any) -> None:
    """Add the ``war`` command group."""
    war = sub.add_parser(
        "war", help="the card game War",
        description="Questions about War: exact answers, simulation, and concrete deals.",
    )
    war_sub = war.add_subparsers(dest="war_command", metavar="QUESTION", parser_class=type(war))

    def war_help(_: argparse.Namespace) -> int:
        questions = ", ".join(war_sub.choices)
        print(f"drawdsl: error: war needs a question: {questions} (see drawdsl war --help)",
              file=sys.stderr)
        return 2

    war.set_defaults(run=war_help)
    sweep = war_sub.add_parser(
        "sweep",
        help="the exact chance that player A wins every turn",
        description="The exact chance that player A wins every turn of a deal (a tie is not a win).",
        epilog="examples: drawdsl war sweep | drawdsl war sweep --ranks 4 --suits 2 --json",
    )
    sweep.add_argument("--ranks", type=_RANKS, default=13, help="number of ranks (default 13)")
    sweep.add_argument("--suits", type=_SUITS, default=4, help="cards of each rank (default 4)")
    sweep.add_argument("--json", action="store_true", help="print a JSON object")
    sweep.set_defaults(run=_sweep)
    _add_full_game_commands(war_sub)


# --------------------------------------------------------------------------- the full game


def _non_negative_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a non-negative integer, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a non-negative integer, got {value}")
    return value


def _add_rule_options(parser: argparse.ArgumentParser) -> None:
    from games.war.rules import DEUCE_RULES, GATHER_ORDERS, PRESETS, SHORT_WAR_RULES

    rules = parser.add_argument_group("rules (a preset, then any changes to it)")
    rules.add_argument("--preset", choices=sorted(PRESETS), default="standard",
                       help="a named rule set (default standard)")
    rules.add_argument("--face-down", type=_non_negative_int, metavar="K",
                       help="cards laid face down in a war")
    rules.add_argument("--deuce", choices=DEUCE_RULES, help="when a 2 beats an ace")
    rules.add_argument("--gather", choices=GATHER_ORDERS, help="order of won cards under the pile")
    rules.add_argument("--short-war", choices=SHORT_WAR_RULES,
                       help="when a player cannot complete a war")
    rules.add_argument("--max-battles", type=positive_int, metavar="N", help="stop a game after N battles")
    rules.add_argument("--cycles", choices=("detect", "off"), help="detect endless games exactly, or not")


def _rules(args: argparse.Namespace) -> Any:
    from games.war.rules import preset

    changes: dict[str, Any] = {}
    for option, field in (("face_down", "face_down"), ("deuce", "deuce_beats_ace"), ("gather", "gather"),
                          ("short_war", "short_war"), ("max_battles", "max_battles")):
        value = getattr(args, option)
        if value is not None:
            changes[field] = value
    if args.cycles is not None:
        changes["detect_cycles"] = args.cycles == "detect"
    elif args.gather == "shuffled":
        changes["detect_cycles"] = False  # a random game repeats positions without being endless
    base = preset(args.preset)
    if changes.get("gather") == "shuffled" and changes.get("max_battles", base.max_battles) is None:
        raise ValueError("--gather shuffled needs a cap: add --max-battles N (for example 5000)")
    return base.but(**changes) if changes else base


def _quiet_worker() -> None:
    """Worker processes leave Ctrl-C to the main process (no traceback from each worker)."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _simulate(args: argparse.Namespace) -> int:
    import time

    from games.war.simulate import simulate

    rules = _rules(args)
    if args.players != 2:
        return _simulate_multi(args, rules)
    start = time.perf_counter()
    options: dict[str, Any] = dict(ranks=args.ranks, suits=args.suits,
                                   trace=args.plot is not None or args.trace_csv is not None,
                                   engine=args.engine, progress=args.progress)
    table = _on_workers(args.workers, simulate, args.games, rules, args.seed, **options)
    elapsed = time.perf_counter() - start
    speed = args.games / elapsed if elapsed > 0 else float("inf")
    if args.csv:
        table.to_csv(args.csv)
    if args.trace_csv:
        from games.war.replay import write_long_csv

        write_long_csv(table.traces or [], args.trace_csv)
    if args.plot:
        from games.war.plot import save_report

        save_report(table, args.plot)
    summary = table.summary()
    if args.json:
        data = summary.as_dict()
        data.update(
            games=args.games, seed=args.seed, ranks=args.ranks, suits=args.suits, workers=args.workers,
            rules=rules.describe(), rules_in_words=rules.in_words(), games_per_second=speed,
        )
        print(json.dumps(data, indent=2))
        return 0
    print(f"War, {args.games} games, {args.ranks} ranks x {args.suits} suits, seed {args.seed}")
    _print_rules(rules)
    print(summary)
    print(_wrapped(LENGTHS_LEGEND, "  "))
    print(f"{speed:,.0f} games per second ({args.workers} worker{'s' if args.workers > 1 else ''})")
    return 0


#: What the length columns count, in plain words (printed under the results).
LENGTHS_LEGEND = (
    "battles: rounds in which both players turn a card up (a war belongs to the battle it settles); "
    "plays: pairs of cards turned, face-down cards included; wars: war rounds. Lengths count the "
    "games that end."
)


def _wrapped(text: str, indent: str = "", first: str = "") -> str:
    import textwrap

    return textwrap.fill(text, width=100, initial_indent=indent + first, subsequent_indent=indent + "  ")


def _print_rules(rules: Any) -> None:
    print(_wrapped(f"{rules.in_words()}.", first="rules: "))


def _on_workers(workers: int, run: Any, *args: Any, **options: Any) -> Any:
    """``run(*args, **options)``, on a pool of ``workers`` processes when more than one
    (passed as ``executor=``); the pool's pending work is cancelled on Ctrl-C."""
    if workers <= 1:
        return run(*args, **options)
    from concurrent.futures import ProcessPoolExecutor

    pool = ProcessPoolExecutor(max_workers=workers, initializer=_quiet_worker)
    try:
        result = run(*args, executor=pool, **options)
    except KeyboardInterrupt:
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown()
    return result


def _simulate_multi(args: argparse.Namespace, rules: Any) -> int:
    """``war simulate --players M`` (M > 2): the reference engine, a tally of the winners."""
    import time

    from games.war.multi import check_players
    from games.war.multi_simulate import simulate_multi

    check_players(args.players, args.ranks * args.suits, "war simulate --players")
    for option, value in (("--csv", args.csv), ("--trace-csv", args.trace_csv), ("--plot", args.plot)):
        if value is not None:
            raise ValueError(f"war simulate: {option} is for two players; with --players "
                             f"{args.players} the command prints the tally (add --json for numbers)")
    if args.engine not in ("fast", "reference"):
        raise ValueError(f"war simulate: --engine {args.engine} plays two players only; with --players "
                         f"{args.players} games run on the reference engine (omit --engine)")
    start = time.perf_counter()
    options: dict[str, Any] = dict(players=args.players, ranks=args.ranks, suits=args.suits)
    tally = _on_workers(args.workers, simulate_multi, args.games, rules, args.seed, **options)
    elapsed = time.perf_counter() - start
    speed = args.games / elapsed if elapsed > 0 else float("inf")
    mean = tally.mean_battles
    if args.json:
        print(json.dumps({
            "games": args.games, "seed": args.seed, "ranks": args.ranks, "suits": args.suits,
            "players": args.players, "workers": args.workers, "rules": rules.describe(),
            "counts": {name: tally.counts.get(name, 0) for name in tally.outcomes()},
            "mean_battles": None if mean is None else float(mean),
            "games_per_second": speed,
        }, indent=2))
        return 0
    print(f"War, {args.players} players, {args.games} games, {args.ranks} ranks x {args.suits} suits, "
          f"seed {args.seed}")
    print(f"rules: {rules.describe()}")
    for name in tally.outcomes():
        label = f"{name} wins" if len(name) == 1 or name.startswith("P") else name
        print(f"  {label:<9} {tally.counts.get(name, 0):>10}  ({tally.share(name):.4f})")
    if mean is not None:
        print(f"  mean battles of a game that ends: {float(mean):.4f}")
    print(f"{speed:,.0f} games per second ({args.workers} worker{'s' if args.workers > 1 else ''})")
    return 0


def _count_deals(args: argparse.Namespace) -> int:
    """The distinct deals of the deck, or a clear error when there are too many."""
    from math import factorial

    cards = args.ranks * args.suits
    # Checked on the deck size first: the factorial of an absurd size would never finish.
    deals = factorial(cards) // factorial(args.suits) ** args.ranks if cards <= 24 else None
    if deals is None or deals > MAX_EXACT_DEALS:
        count = f"{deals:,}" if deals is not None else "too many"
        raise ValueError(
            f"a deck of {args.ranks} x {args.suits} cards has {count} deals, over the command's "
            f"{MAX_EXACT_DEALS:,}; exact full-game results are for small decks (for example "
            "--ranks 3 --suits 4): use `drawdsl war simulate`"
        )
    return int(deals)


def _exact_multi(args: argparse.Namespace, rules: Any, deals: int) -> int:
    """``war exact --players M`` (M > 2): the exact law of the winner and of the length."""
    from games.war.multi_exact import exact_multi

    result = exact_multi(args.ranks, args.suits, args.players, rules, max_states=args.max_states)
    mean = result.mean_battles
    if args.json:
        print(json.dumps({
            "ranks": args.ranks, "suits": args.suits, "players": args.players, "rules": rules.describe(),
            "winners": {name: fraction_text(p) for name, p in result.winners.items()},
            "battles": {str(k): fraction_text(p) for k, p in result.battles.items()},
            "mean_battles": None if mean is None else fraction_text(mean),
        }, indent=2))
        return 0
    print(f"War, {args.players} players, every deal of {args.ranks} ranks x {args.suits} suits "
          f"({deals:,} deals)")
    print(f"rules: {rules.describe()}")
    # Text shows fractions as Python does (0 for an exact zero), like the two-player output.
    for name, p in result.winners.items():
        shown = {"cycle": "endless"}.get(name, name)
        label = f"P({shown} wins)" if name not in ("tie", "cycle", "capped") else f"P({shown})"
        print(f"  {label:<13} = {p!s:>20}  ~ {float(p):.6f}")
    if mean is not None:
        print(f"  mean battles of a game that ends = {mean} ~ {float(mean):.4f}")
    print("  battles: " + ", ".join(f"{k}: {p}" for k, p in result.battles.items()))
    return 0


def _exact(args: argparse.Namespace) -> int:
    from games.war.exact_game import exact_game
    from games.war.multi import check_players

    rules = _rules(args)
    check_players(args.players, args.ranks * args.suits, "war exact --players")
    deals = _count_deals(args)
    if args.players != 2:
        return _exact_multi(args, rules, deals)

    progress = sys.stderr.isatty() if args.progress is None else args.progress
    result = exact_game(args.ranks, args.suits, rules, max_states=args.max_states, progress=progress)
    mean = result.mean_battles
    if args.plot:
        from games.war.plot import save_battles_law

        save_battles_law(result, args.plot)
    if args.json:
        print(json.dumps({
            "ranks": args.ranks,
            "suits": args.suits,
            "rules": rules.describe(),
            "rules_in_words": rules.in_words(),
            "p_first_wins": fraction_text(result.p_first_wins),
            "p_second_wins": fraction_text(result.p_second_wins),
            "p_tie": fraction_text(result.p_tie),
            "p_cycle": fraction_text(result.p_cycle),
            "p_capped": fraction_text(result.p_capped),
            "battles": {str(k): fraction_text(p) for k, p in result.battles.items()},
            "mean_battles": None if mean is None else fraction_text(mean),
            "median_battles": result.battles_quantile(Fraction(1, 2)),
        }, indent=2))
        return 0
    print(f"War, every deal of {args.ranks} ranks x {args.suits} suits ({deals:,} deals), exact")
    _print_rules(rules)
    rows = [("P(A wins)", result.p_first_wins), ("P(B wins)", result.p_second_wins),
            ("P(tie)", result.p_tie), ("P(endless)", result.p_cycle)]
    if rules.max_battles is not None:
        rows.append(("P(capped)", result.p_capped))
    width = max(len(str(p)) for _, p in rows)
    for name, p in rows:
        print(f"  {name:<10} = {p!s:>{width}}  ~ {float(p):.6f}")
    if mean is None:
        print("no game ends")
    else:
        for line in _battles_summary(result):
            print(line)
    if args.plot:
        print(f"wrote {args.plot}")
    return 0


def _battles_summary(result: Any, bars: int = 16, width: int = 40) -> list[str]:
    """The length law in a few lines: mean, median, range, and a text histogram."""
    law: dict[int, Fraction] = result.battles
    ends = sum(law.values(), Fraction(0))
    mean = result.mean_battles
    median = result.battles_quantile(Fraction(1, 2))
    nine = result.battles_quantile(Fraction(9, 10))
    share = "" if ends == 1 else f" (P = {approx(ends, '.6g')})"
    lines = [
        f"battles of a game that ends{share}: mean {mean} ~ {approx(mean, '.4f')}, "
        f"median {median}, 90% within {nine}, shortest {min(law)}, longest {max(law)}",
        "  (a battle: both players turn a card up; a war belongs to the battle it settles)",
    ]
    low, high = min(law), max(law)
    step = max(1, -(-(high - low + 1) // bars))
    groups: list[tuple[str, Fraction]] = []
    for start in range(low, high + 1, step):
        stop = min(start + step - 1, high)
        label = str(start) if stop == start else f"{start}-{stop}"
        groups.append((label, sum((p for k, p in law.items() if start <= k <= stop), Fraction(0)) / ends))
    top = max(p for _, p in groups)
    label_width = max(len(label) for label, _ in groups)
    for label, p in groups:
        bar = "#" * round(width * p / top) if top else ""
        lines.append(f"  {label:>{label_width}}  {float(p):6.1%}  {bar}".rstrip())
    lines.append("  (the exact law, every length: --json; a plot: --plot FILE)")
    return lines


def _search(args: argparse.Namespace) -> int:
    from games.war.search import QUESTIONS, search

    cards = args.ranks * args.suits
    if cards > MAX_SEARCH_CARDS:
        raise ValueError(
            f"war search: a deck of {args.ranks} ranks x {args.suits} suits has {cards:,} cards, over "
            f"the command's {MAX_SEARCH_CARDS:,}; use fewer ranks or suits, or call "
            "games.war.search from Python"
        )
    rules = _rules(args)
    if args.question == "endless" and not rules.detect_cycles:
        raise ValueError(
            f"war search endless needs cycle detection and no cap, but these rules stop a game at "
            f"--max-battles {rules.max_battles} without detecting cycles; start from a preset without a "
            "cap, e.g. the rblog rules with cycle detection: --preset standard --gather as_played "
            "--face-down 3 --short-war b_takes --deuce battles"
        )
    found = search(args.question, args.ranks, args.suits, rules, battles=args.battles,
                   max_states=args.max_states, samples=args.samples, seed=args.seed)
    if args.json:
        print(json.dumps({
            "question": args.question,
            "found": found is not None,
            "method": found.method if found else "exhaustive",
            "hand_a": list(found.hand_a) if found else None,
            "hand_b": list(found.hand_b) if found else None,
            "winner": found.game.winner if found else None,
            "battles": found.game.battles if found else None,
            "looked_at": found.looked_at if found else None,
        }, indent=2))
        return 0
    ask = QUESTIONS[args.question].replace("--battles", str(args.battles))
    print(f"War, {args.ranks} ranks x {args.suits} suits, rules: {rules.describe()}")
    print(f"a deal where {ask}:")
    if found is None:
        print("  none exists (the search covered every deal)")
        return 0
    print(f"  A: {' '.join(map(str, found.hand_a))}")
    print(f"  B: {' '.join(map(str, found.hand_b))}")
    if found.method == "sampled":
        print(f"  the game: {found.game.winner} after {found.game.battles} battles (a random deal, seed "
              f"{args.seed}: the exhaustive search stopped at --max-states {args.max_states:,})")
        return 0
    print(f"  the game: {found.game.winner} after {found.game.battles} battles "
          f"({found.looked_at} cards looked at by the search; the rest are arbitrary)")
    return 0


def _add_full_game_commands(war_sub: Any) -> None:
    from games.war.search import QUESTIONS

    sim = war_sub.add_parser(
        "simulate",
        help="play many random games: who wins, how long it lasts",
        description="Monte Carlo of whole games of War (batched with NumPy); same seed, same table.",
        epilog="example: drawdsl war simulate --games 100000 --seed 1 --preset rblog --json",
    )
    sim.add_argument("--games", type=bounded_int(1, MAX_GAMES, "the per-game table stays in memory; "
                                                 "combine several seeds"),
                     default=10_000, help=f"games to play (default 10000, at most {MAX_GAMES:,})")
    sim.add_argument("--seed", type=_non_negative_int, default=0, help="random seed (default 0)")
    sim.add_argument("--ranks", type=_RANKS, default=13, help="number of ranks (default 13)")
    sim.add_argument("--suits", type=_SUITS, default=4, help="cards of each rank (default 4)")
    sim.add_argument("--players", type=_PLAYERS, default=2,
                     help="players at the table (default 2; more play on the reference engine)")
    sim.add_argument("--workers", type=bounded_int(1, MAX_WORKERS), default=1,
                     help=f"processes (default 1, at most {MAX_WORKERS})")
    sim.add_argument("--csv", type=output_file, metavar="FILE", help="write the per-game table as CSV")
    sim.add_argument("--trace-csv", type=output_file, metavar="FILE",
                     help="write A's pile size after every battle, one row per battle (long format)")
    sim.add_argument("--plot", type=output_file, metavar="FILE", help="save plots (needs matplotlib)")
    sim.add_argument("--engine", choices=("fast", "compiled", "numpy", "reference"), default="fast",
                     help="fast: compiled (numba) if installed, else numpy; all give the same table")
    sim.add_argument("--progress", action="store_true", help="show a progress bar (tqdm)")
    sim.add_argument("--json", action="store_true", help="print a JSON object")
    _add_rule_options(sim)
    sim.set_defaults(run=_simulate)

    exact = war_sub.add_parser(
        "exact",
        help="exact win, tie and endless chances and the length law, for small decks",
        description="Exact full-game results over every deal of a small deck.",
        epilog="example: drawdsl war exact --ranks 3 --suits 4 --json",
    )
    exact.add_argument("--ranks", type=_RANKS, default=3, help="number of ranks (default 3)")
    exact.add_argument("--suits", type=_SUITS, default=4, help="cards of each rank (default 4)")
    exact.add_argument("--players", type=_PLAYERS, default=2, help="players at the table (default 2)")
    exact.add_argument("--max-states", type=_MAX_STATES, default=5_000_000, help=argparse.SUPPRESS)
    exact.add_argument("--json", action="store_true",
                       help="print a JSON object (with the exact law of the number of battles)")
    exact.add_argument("--plot", type=output_file, metavar="FILE",
                       help="save a bar chart of the law of the number of battles (needs matplotlib)")
    exact.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                       help="show progress on stderr (tqdm when installed; default: when stderr is a "
                       "terminal)")
    _add_rule_options(exact)
    exact.set_defaults(run=_exact)

    find = war_sub.add_parser(
        "search",
        help="find a deal for a question, or prove that none exists",
        description="Deal search: " + "; ".join(f"{q}: {text}" for q, text in QUESTIONS.items()) + ".",
        epilog="examples: drawdsl war search war-then-win | drawdsl war search within --battles 3",
    )
    find.add_argument("question", choices=list(QUESTIONS), help="the question")
    find.add_argument("--ranks", type=_RANKS, default=13, help="number of ranks (default 13)")
    find.add_argument("--suits", type=_SUITS, default=4, help="cards of each rank (default 4)")
    find.add_argument("--battles", type=positive_int, help="for 'within': the number of battles")
    find.add_argument("--max-states", type=_MAX_STATES, default=250_000,
                      help="search memory bound (default 250000: about 20 s on 52 cards before giving up)")
    find.add_argument("--samples", type=_SAMPLES, default=100_000,
                      help="random deals to play if the exhaustive search gives up (default 100000; 0: none)")
    find.add_argument("--seed", type=_non_negative_int, default=0, help="seed of those deals (default 0)")
    find.add_argument("--json", action="store_true", help="print a JSON object")
    _add_rule_options(find)
    find.set_defaults(run=_search)

    from games.war.replay import add_replay_command

    add_replay_command(war_sub, _add_rule_options, _rules)

    from games.war.situations import add_find_command

    add_find_command(war_sub, _add_rule_options, _rules)
