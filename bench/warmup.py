"""One tiny, unrelated question per library, asked before the clock starts.

It pays each library's one-time costs (lazy imports, first use of its machinery) so
that a timing measures the question itself.  Every warm-up uses a different deck
from the benchmarked ones, so no library can answer a measured question from a
cache filled here.
"""

from __future__ import annotations

from drawdsl import done

__all__ = ["drawdsl_warmup", "icepool_warmup", "lea_warmup"]


def _step(state: int, card: str) -> object:
    from drawdsl import done

    return done(state + 1) if card == "a" or state == 1 else state + 1


def _until_again(seen: frozenset[str], card: str) -> object:
    return done(len(seen)) if card in seen else seen | {card}


class _Tally:
    """A loop step of a callable object: its class is looked at by the proofs too."""

    def __init__(self, most: int) -> None:
        self.most = most

    def __call__(self, state: tuple[int, str | None], card: str) -> object:
        seen, last = state
        return done(seen) if card == last or seen >= self.most else (seen + 1, card)


def drawdsl_warmup() -> None:
    """A loop, a draw_until and a mapped deck on a 5-card deck; two loops on nine kinds of
    card, whose steps (a function and a callable object, neither used by a measured
    question) the evaluator proves blind to renamings: the proofs' own first use (the
    bytecode reader, its interpreter) is paid here, each measured question's step is
    still proven in its own timed run."""
    from drawdsl import Cards, chance, chances, draw_until, loop

    deck = Cards({"a": 2, "b": 3})
    chance(draw_until(lambda card: card == "a", limit=2), deck)
    chances(loop(0, _step), deck.map(str.upper).map(str.lower))
    kinds = Cards({f"w{i}": 1 for i in range(9)})
    chances(loop(frozenset(), _until_again), kinds)
    chances(loop((0, None), _Tally(2)), kinds)


def icepool_warmup() -> None:
    """A deal, a sequence, an evaluator and a Markov map on a 5-card deck."""
    import icepool  # type: ignore[import-untyped, import-not-found]

    deck = icepool.Deck({"a": 2, "b": 3})
    deck.deal(2).largest_count()
    deck.sequence(2)
    icepool.map(lambda state: icepool.Die({state + 1: 1, state: 1}), icepool.Die([0]), repeat=2)


def lea_warmup() -> None:
    """An ordered and a sorted drawing from a 5-card deck, with Fraction probabilities."""
    import lea  # type: ignore[import-untyped, import-not-found]

    lea.set_prob_type("r")
    lea.drawing(*"aabbb", n=2).map(len).p(2)
    lea.drawing(*"aabbb", n=2, sorted=True).map(len).p(2)
