"""Natural specs: questions written the way a newcomer first writes them, beside the hand-tuned form.

Each row asks one question twice: the *natural* form (the whole standard deck, card
attributes, ``@generate`` with dicts, ``draw_until(...).map(len)``, card-valued loop
states, a die counted in a loop) and the *tuned* form (the deck mapped to the aspect,
a small loop state).  Both are timed in this process, in turns (best of ``--repeats``
each: the machine's speed moves between minutes, and reaches both alike), their
answers compared, and the ratio natural/tuned reported.  A natural form that stops at
a limit is reported as such ("limit: ..."): numbers are reported, never asserted.

    python -m bench.natural            # the Markdown table on stdout
    python -m bench.natural --repeats 1 --max-states 200000
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from drawdsl import (
    StateLimitExceeded,
    chances,
    die,
    done,
    draw,
    draw_count,
    draw_many,
    draw_same_on,
    draw_until,
    fail,
    generate,
    loop,
    standard_deck,
)

DECK = standard_deck()


@dataclass(frozen=True)
class Row:
    """One question: its two formulations, each a function returning the exact answer."""

    title: str
    natural: Callable[[int], Any]
    tuned: Callable[[int], Any]


# --------------------------------------------------------------------------- the questions


def first_king_natural(limit: int) -> Any:
    return chances(draw_until(lambda card: card.rank == 13).map(len), DECK, max_states=limit).expectation()


def first_king_tuned(limit: int) -> Any:
    kings = DECK.map(lambda card: card.rank == 13)
    return chances(draw_until(lambda king: king).map(len), kings, max_states=limit).expectation()


def hearts_natural(limit: int) -> Any:
    return chances(draw_count(lambda card: card.suit == "H", 13), DECK, max_states=limit)


def hearts_tuned(limit: int) -> Any:
    return chances(draw_count(lambda heart: heart, 13), DECK.map(lambda card: card.suit == "H"),
                   max_states=limit)


@generate
def two_pair_gen() -> Any:
    counts: dict[int, int] = {}
    for _ in range(5):
        card = yield draw()
        counts[card.rank] = counts.get(card.rank, 0) + 1
    return sorted(counts.values()) == [1, 2, 2]


def _pattern_step(state: tuple[tuple[int, int], ...], rank: int) -> Any:
    counts = dict(state)
    counts[rank] = counts.get(rank, 0) + 1
    if sum(counts.values()) == 5:
        return done(sorted(counts.values()) == [1, 2, 2])
    return tuple(sorted(counts.items()))


def two_pair_natural(limit: int) -> Any:
    return chances(two_pair_gen(), DECK, max_states=limit)[True]


def two_pair_tuned(limit: int) -> Any:
    return chances(loop((), _pattern_step), DECK.map(lambda card: card.rank), max_states=limit)[True]


def _value(card: Any) -> int:
    return 11 if card.rank == 14 else min(card.rank, 10)


def _dealer_on_cards(state: tuple[int, int], card: Any) -> Any:
    total, aces = state
    total, aces = total + _value(card), aces + (card.rank == 14)
    while total > 21 and aces:
        total, aces = total - 10, aces - 1
    if total > 21:
        return done("bust")
    return done(total) if total >= 17 else (total, aces)


def _dealer_on_values(state: tuple[int, bool], v: int) -> Any:
    total, ace = state
    total, ace = total + v, ace or v == 1
    best = total + 10 if ace and total + 10 <= 21 else total
    if best >= 17:
        return done(best if best <= 21 else "bust")
    return (total, ace)


def dealer_natural(limit: int) -> Any:
    return chances(loop((0, 0), _dealer_on_cards), DECK, max_states=limit)["bust"]


def dealer_tuned(limit: int) -> Any:
    values = DECK.map(lambda card: 1 if card.rank == 14 else min(card.rank, 10))
    return chances(loop((0, False), _dealer_on_values), values, max_states=limit)["bust"]


def _until_shared_rank(seen: frozenset[int], card: Any) -> Any:
    if card.rank in seen:
        return done(len(seen) + 1)
    return seen | {card.rank}


def _until_repeat(seen: frozenset[Any], card: Any) -> Any:
    if card in seen:
        return done(len(seen) + 1)
    return seen | {card}


def shared_rank_natural(limit: int) -> Any:
    return chances(loop(frozenset(), _until_shared_rank), DECK, max_states=limit)


def shared_rank_tuned(limit: int) -> Any:
    names = DECK.map(lambda card: f"r{card.rank}")
    return chances(loop(frozenset(), _until_repeat), names, max_states=limit)


@generate
def shared_rank_gen() -> Any:
    seen = set()
    drawn = 0
    while True:
        card = yield draw()
        drawn += 1
        if card.rank in seen:
            return drawn
        seen.add(card.rank)


def shared_rank_gen_natural(limit: int) -> Any:
    return chances(shared_rank_gen(), DECK, max_states=limit)


@generate
def flush_gen() -> Any:
    first = yield draw()
    for _ in range(4):
        card = yield draw()
        if card.suit != first.suit:
            return False
    return True


def flush_natural(limit: int) -> Any:
    return chances(flush_gen(), DECK, max_states=limit)[True]


def flush_tuned(limit: int) -> Any:
    suits = DECK.map(lambda card: card.suit)
    return chances(draw_same_on(lambda suit: suit, 5), suits, max_states=limit).success


def three_suited_natural(limit: int) -> Any:
    return chances(draw_many(3).map(lambda cards: len({c.suit for c in cards}) == 1), DECK,
                   max_states=limit)[True]


def three_suited_tuned(limit: int) -> Any:
    return chances(draw_same_on(lambda suit: suit, 3), DECK.map(lambda card: card.suit),
                   max_states=limit).success


class _Race:
    """Red/black Penney race on card colours: RBR against BRR, the last three colours kept."""

    def __call__(self, last: str, colour: str) -> Any:
        last = (last + colour)[-3:]
        if last == "RBR":
            return done("RBR")
        if last == "BRR":
            return done("BRR")
        return last


class _RaceOnCards(_Race):
    def __call__(self, last: str, card: Any) -> Any:  # type: ignore[override]
        return super().__call__(last, "R" if card.suit in "HD" else "B")


def race_natural(limit: int) -> Any:
    return chances(loop("", _RaceOnCards()), DECK, max_states=limit)


def race_tuned(limit: int) -> Any:
    colours = DECK.map(lambda card: "R" if card.suit in "HD" else "B")
    return chances(loop("", _Race()), colours, max_states=limit)


def _pair_rank(first: int | None, card: Any) -> Any:
    if first is None:
        return card.rank
    return done(True) if card.rank == first else fail()


def _pair(first: Any, rank: Any) -> Any:
    if first is None:
        return rank
    return done(True) if rank == first else fail()


def pocket_pair_natural(limit: int) -> Any:
    return chances(loop(None, _pair_rank), DECK, max_states=limit).success


def pocket_pair_tuned(limit: int) -> Any:
    return chances(loop(None, _pair), DECK.map(lambda card: f"r{card.rank}"), max_states=limit).success


def _no_adjacent_rank(state: tuple[int, int | None], card: Any) -> Any:
    left, previous = state
    if card.rank == previous:
        return fail()
    return done(True) if left == 1 else (left - 1, card.rank)


def _no_adjacent(state: tuple[int, Any], card: Any) -> Any:
    left, previous = state
    if card == previous:
        return fail()
    return done(True) if left == 1 else (left - 1, card)


def no_adjacent_natural(limit: int) -> Any:
    return chances(loop((52, None), _no_adjacent_rank), DECK, max_states=limit).success


def no_adjacent_tuned(limit: int) -> Any:
    names = DECK.map(lambda card: f"r{card.rank}")
    return chances(loop((52, None), _no_adjacent), names, max_states=limit).success


def _rolls_until_six(rolls: int, face: int) -> Any:
    return done(rolls + 1) if face == 6 else rolls + 1


def _until_six(state: None, face: int) -> Any:
    return done("six") if face == 6 else state


def die_count_natural(limit: int) -> Any:
    return chances(loop(0, _rolls_until_six), die(), max_states=limit).expectation()


def die_count_tuned(limit: int) -> Any:
    return chances(loop(None, _until_six), die(), max_states=limit).expected_draws


@generate
def aces_gen() -> Any:
    count = 0
    for _ in range(5):
        card = yield draw()
        count += card.rank == 14
    return count


def aces_natural(limit: int) -> Any:
    return chances(aces_gen(), DECK, max_states=limit)


def aces_tuned(limit: int) -> Any:
    return chances(draw_count(lambda ace: ace, 5), DECK.map(lambda card: card.rank == 14), max_states=limit)


ROWS = [
    Row("mean position of the first king", first_king_natural, first_king_tuned),
    Row("hearts in a 13-card hand", hearts_natural, hearts_tuned),
    Row("two pair, @generate with a dict of ranks", two_pair_natural, two_pair_tuned),
    Row("the dealer busts, written on cards", dealer_natural, dealer_tuned),
    Row("draw until two cards share a rank", shared_rank_natural, shared_rank_tuned),
    Row("the same, @generate with a set of ranks", shared_rank_gen_natural, shared_rank_tuned),
    Row("a flush, @generate", flush_natural, flush_tuned),
    Row("three cards of one suit, draw_many(3).map(...)", three_suited_natural, three_suited_tuned),
    Row("red/black Penney race RBR vs BRR on card colours", race_natural, race_tuned),
    Row("pocket pair, the rank in the loop state", pocket_pair_natural, pocket_pair_tuned),
    Row("no two adjacent cards share a rank", no_adjacent_natural, no_adjacent_tuned),
    Row("rolls until a six, a counter in the loop state", die_count_natural, die_count_tuned),
    Row("aces in five cards, @generate with a counter", aces_natural, aces_tuned),
]


# --------------------------------------------------------------------------- running


def _timed_pair(row: Row, limit: int, repeats: int) -> list[tuple[float, Any, str]]:
    """Both forms of ``row`` timed in turns (natural then tuned, then tuned then natural,
    ...), so that the machine's speed, which can move within minutes, reaches both
    alike.  Per form: (best seconds, answer, "" or the limit's message); a form that
    stops at a limit or takes over 5 s is not run again."""
    forms = (row.natural, row.tuned)
    best = [float("inf"), float("inf")]
    answers: list[Any] = [None, None]
    stops = ["", ""]
    for turn in range(repeats):
        for i in (0, 1) if turn % 2 == 0 else (1, 0):
            if stops[i] or 5 < best[i] < float("inf"):
                continue
            start = time.perf_counter()
            try:
                answers[i] = forms[i](limit)
            except StateLimitExceeded as err:
                best[i], stops[i] = time.perf_counter() - start, str(err).split(";")[0]
                continue
            best[i] = min(best[i], time.perf_counter() - start)
    return [(best[i], answers[i], stops[i]) for i in (0, 1)]


def _fmt(seconds: float) -> str:
    return f"{seconds * 1000:.3g} ms" if seconds < 1 else f"{seconds:.3g} s"


def main(argv: list[str] | None = None) -> int:
    """Print the natural-specs table."""
    parser = argparse.ArgumentParser(prog="python -m bench.natural", description=__doc__.splitlines()[0])
    parser.add_argument(
        "--repeats", type=int, default=3,
        help="runs per formulation, in turns with the other form, best kept (default 3)",
    )
    parser.add_argument("--max-states", type=int, default=1_000_000, help="max_states for every run")
    args = parser.parse_args(argv)
    print("| question | natural | tuned | natural/tuned | same answer |")
    print("|---|---|---|---|---|")
    for row in ROWS:
        print(f"running: {row.title}", file=sys.stderr)
        (t_nat, a_nat, stop), (t_tun, a_tun, stop_t) = _timed_pair(row, args.max_states, args.repeats)
        nat = f"limit after {_fmt(t_nat)}: {stop}" if stop else _fmt(t_nat)
        tun = f"limit: {stop_t}" if stop_t else _fmt(t_tun)
        ratio = "" if stop or stop_t else f"{t_nat / t_tun:.3g}"
        same = "" if stop or stop_t else ("yes" if a_nat == a_tun else "NO")
        print(f"| {row.title} | {nat} | {tun} | {ratio} | {same} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
