"""Replaying one game of War battle by battle, with both hands; traces in long format.

A deal is written as its cards in dealing order (A gets the 1st, 3rd, ... card, B the
2nd, 4th, ...), as numbers or the letters T J Q K A (10 to 14), or named by the
simulation that played it: ``(seed, game)`` gives the same deal as
:func:`~games.war.simulate.simulate` (see :func:`simulated_deal`).

>>> deal = parse_deal("4 2 3 3 2 4")  # 3 ranks x 2 suits
>>> print(replay_text(deal))  # the 3s tie: a war, 2 face down, B has no card left to turn
battle    took  wars  hands (tops first)
     0       -     -  A: 4 3 2  |  B: 2 3 4
     1       A     0  A: 3 2 4 2  |  B: 3 4
     2  A wins     1  A: 2  |  B: -
A wins after 2 battles
"""

from __future__ import annotations

import csv
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO, Any

from drawdsl import InvalidArgument
from drawdsl.files import atomic_text
from games.war.engine import Game, deal_hands, play_game
from games.war.rules import Rules, as_rules

__all__ = ["parse_deal", "simulated_deal", "replay", "replay_text", "replay_rows", "LONG_COLUMNS",
           "long_rows", "write_long_csv", "replay_csv", "add_replay_command"]

_LETTERS = {"T": 10, "J": 11, "Q": 12, "K": 13, "A": 14}

#: The columns of a game's trace in long format (one row per battle, battle 0 the deal).
LONG_COLUMNS = ("game", "battle", "took", "wars", "a_cards", "b_cards", "a_hand", "b_hand")


def parse_deal(text: str) -> tuple[int, ...]:
    """The cards of a deal written as text (numbers or T J Q K A, separated by spaces or
    commas); it must be a whole deck: ranks 2 to the highest, each as often as the others.

    >>> parse_deal("3,2 2 3")
    (3, 2, 2, 3)
    >>> parse_deal("2 3 3")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    drawdsl.errors.InvalidArgument: deal: 3 cards are not a deck of War (each rank 2..3 ...; counts 2:1 3:2
    """
    tokens = text.replace(",", " ").split()
    if not tokens:
        raise InvalidArgument("deal: no cards given; write the cards in dealing order, e.g. '2 3 3 2'")
    cards = []
    for token in tokens:
        word = token.upper()
        if word in _LETTERS:
            cards.append(_LETTERS[word])
        elif word.isdigit() and int(word) >= 2:
            cards.append(int(word))
        else:
            raise InvalidArgument(f"deal: {token!r} is not a card; use ranks 2, 3, ... or T J Q K A")
    _check_deck(cards)
    return tuple(cards)


def _check_deck(cards: Sequence[int]) -> None:
    counts = Counter(cards)
    top = max(counts)
    per_rank = {counts.get(r, 0) for r in range(2, top + 1)}
    if len(per_rank) != 1 or len(cards) % 2:
        shown = " ".join(f"{r}:{counts.get(r, 0)}" for r in range(2, top + 1))
        raise InvalidArgument(
            f"deal: {len(cards)} cards are not a deck of War (each rank 2..{top} as often as the others, "
            f"an even number of cards in all); counts {shown}"
        )


def simulated_deal(seed: int, game: int, ranks: int = 13, suits: int = 4) -> tuple[int, ...]:
    """The deal of game ``game`` of ``simulate(n, ..., seed=seed, ranks=ranks, suits=suits)``
    (any ``n`` above ``game``): a row of its table, played again.

    >>> from games.war import simulate
    >>> table = simulate(5, "standard", seed=3)
    >>> play_game(*deal_hands(simulated_deal(3, 4))).battles == int(table.battles[4])
    True
    """
    from games.war.simulate import BLOCK, deal_block

    if isinstance(game, bool) or not isinstance(game, int) or game < 0:
        raise InvalidArgument(f"simulated_deal: game must be a non-negative int, got {game!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise InvalidArgument(f"simulated_deal: seed must be a non-negative int, got {seed!r}")
    decks, _ = deal_block(seed, game // BLOCK, ranks, suits)
    return tuple(int(c) for c in decks[game % BLOCK].tolist())


def replay(deal: Sequence[int], rules: Rules | str = "standard", *, seed: int = 0) -> Game:
    """Play the deal, keeping both hands and who took each battle.

    >>> game = replay((4, 2, 3, 3, 2, 4))
    >>> game.winner, game.hands[1]
    ('A', ((3, 2, 4, 2), (3, 4)))
    """
    rules = as_rules(rules, "replay")
    hand_a, hand_b = deal_hands(deal)
    top = max(deal, default=2)
    return play_game(hand_a, hand_b, rules, seed=seed, top=top, log=True, hands=True, trace=True)


def replay_rows(game: Game, number: int = 0) -> list[dict[str, Any]]:
    """The game in long format: one row per battle (battle 0: the deal), columns
    :data:`LONG_COLUMNS`; hands are written tops first, separated by spaces.

    >>> replay_rows(replay((4, 2, 3, 3, 2, 4)))[1]
    {'game': 0, 'battle': 1, 'took': 'A', 'wars': 0, 'a_cards': 4, 'b_cards': 2, 'a_hand': '3 2 4 2',
     'b_hand': '3 4'}
    """
    if game.hands is None or game.log is None:
        raise InvalidArgument(
            "replay_rows: the game must be played with hands=True and log=True (use replay)"
        )
    rows = []
    for i, (a, b) in enumerate(game.hands):
        took, wars = ("", "") if i == 0 else game.log[i - 1]
        rows.append({"game": number, "battle": i, "took": took, "wars": wars, "a_cards": len(a),
                     "b_cards": len(b), "a_hand": " ".join(map(str, a)), "b_hand": " ".join(map(str, b))})
    return rows


def replay_text(deal: Sequence[int], rules: Rules | str = "standard") -> str:
    """The game of ``deal``, battle by battle, with both hands (tops first), as text."""
    game = replay(deal, rules)
    lines = ["battle    took  wars  hands (tops first)"]
    for row in replay_rows(game):
        took = row["took"] or "-"
        wars = "-" if row["battle"] == 0 else str(row["wars"])
        a_hand, b_hand = row["a_hand"] or "-", row["b_hand"] or "-"
        lines.append(f"{row['battle']:>6}  {took:>6}  {wars:>4}  A: {a_hand}  |  B: {b_hand}")
    ends = {"A": "A wins", "B": "B wins", "tie": "a tie (both ran out)",
            "cycle": "endless: the position repeats", "capped": "stopped at the cap"}
    lines.append(f"{ends[game.winner]} after {game.battles} battles")
    return "\n".join(lines)


def long_rows(traces: Sequence[Any]) -> list[dict[str, int]]:
    """A simulated table's traces in long format: one row per battle with A's pile size
    after it (B holds the rest, unless the battle ended the game in a war).

    >>> long_rows([[3, 4]])
    [{'game': 0, 'battle': 1, 'a_cards': 3}, {'game': 0, 'battle': 2, 'a_cards': 4}]
    """
    rows = []
    for g, trace in enumerate(traces):
        values = trace.tolist() if hasattr(trace, "tolist") else list(trace)
        for i, a_cards in enumerate(values):
            rows.append({"game": g, "battle": i + 1, "a_cards": int(a_cards)})
    return rows


def write_long_csv(traces: Sequence[Any], target: str | Path | IO[str]) -> None:
    """Write :func:`long_rows` as CSV (``game,battle,a_cards``): the R simulation's long format."""

    def write(handle: IO[str]) -> None:
        writer = csv.writer(handle)
        writer.writerow(("game", "battle", "a_cards"))
        for g, trace in enumerate(traces):
            values = trace.tolist() if hasattr(trace, "tolist") else list(trace)
            writer.writerows((g, i + 1, a) for i, a in enumerate(values))

    if isinstance(target, (str, Path)):
        with atomic_text(target) as handle:
            write(handle)
    else:
        write(target)


def replay_csv(game: Game, target: str | Path | IO[str]) -> None:
    """Write :func:`replay_rows` as CSV."""

    def write(handle: IO[str]) -> None:
        writer = csv.DictWriter(handle, fieldnames=LONG_COLUMNS)
        writer.writeheader()
        writer.writerows(replay_rows(game))

    if isinstance(target, (str, Path)):
        with atomic_text(target) as handle:
            write(handle)
    else:
        write(target)


def add_replay_command(war_sub: Any, add_rule_options: Callable[[Any], None],
                       rules_of: Callable[[Any], Rules]) -> None:
    """Register ``drawdsl war replay`` (the rule options and their reading come from the CLI)."""
    replay_cmd = war_sub.add_parser(
        "replay",
        help="play one deal battle by battle, with both hands",
        description="Play one deal battle by battle and print both hands after every battle. The deal "
                    "is its cards in dealing order (A gets the 1st, 3rd, ... card), or game G of a "
                    "simulation run with seed S (--seed S --game G, the row `game` of its CSV).",
        epilog='examples: drawdsl war replay "4 2 3 3 2 4" | '
               "drawdsl war replay --seed 1 --game 17 --csv g.csv",
    )
    replay_cmd.add_argument("deal", nargs="?", help="the cards in dealing order (2..14 or T J Q K A)")
    replay_cmd.add_argument("--seed", type=int, help="the seed of a `war simulate` run")
    replay_cmd.add_argument("--game", type=int, help="the game (a row of that run's table)")
    replay_cmd.add_argument("--ranks", type=int, default=13, help="with --seed: the run's ranks (default 13)")
    replay_cmd.add_argument("--suits", type=int, default=4, help="with --seed: the run's suits (default 4)")
    replay_cmd.add_argument("--csv", metavar="FILE",
                            help="also write the game in long format (a row per battle)")
    replay_cmd.add_argument("--json", action="store_true", help="print a JSON object")
    add_rule_options(replay_cmd)

    def run(args: Any) -> int:
        import json

        rules = rules_of(args)
        if (args.deal is None) == (args.seed is None and args.game is None):
            raise InvalidArgument("war replay: give a deal as text, or --seed S --game G (not both)")
        if args.deal is not None:
            deal = parse_deal(args.deal)
        else:
            if args.seed is None or args.game is None:
                raise InvalidArgument("war replay: --seed and --game go together")
            if not (1 <= args.ranks <= 119 and 1 <= args.suits <= 1000 and args.ranks * args.suits % 2 == 0):
                raise InvalidArgument(
                    f"war replay: no simulated deck has {args.ranks} ranks x {args.suits} suits"
                )
            deal = simulated_deal(args.seed, args.game, args.ranks, args.suits)
        game = replay(deal, rules)
        if args.csv:
            replay_csv(game, args.csv)
        if args.json:
            print(json.dumps({"deal": list(deal), "rules": rules.describe(), "winner": game.winner,
                              "battles": game.battles, "turns": replay_rows(game)}, indent=2))
            return 0
        print(f"rules: {rules.describe()}")
        print(replay_text(deal, rules))
        return 0

    replay_cmd.set_defaults(run=run)
