"""The PEER side: the same questions asked of icepool and lea (the ``bench`` extra).

Each function imports its library lazily (the worker imports it before the clock
starts, see ``bench.cases``), builds its own deck and answers in the runner's
canonical forms.  Probabilities are kept exact: icepool counts with integers, lea
is switched to ``Fraction`` probabilities (``lea.set_prob_type("r")``; its default
is ``float``).

Notes on the APIs (icepool 2.x, lea 4.x):

* icepool ``Deck.deal(n)`` is an unordered hand, evaluated outcome by outcome by a
  ``MultisetEvaluator``; ``Deck.sequence(n)`` is the ordered deal ("extremely
  expensive", says its docstring).  An ordered process with a state is a Markov chain
  ``icepool.map(step, state_die, repeat=n)`` whose state carries the deck's counts.
* lea ``vals(*cards).draw(n)`` draws n *distinct values* (a deck with repeated kinds
  such as 4 aces and 48 others cannot be dealt that way: "exceeds the number of
  possible values"); ``lea.drawing(*cards, n=n)`` treats every card as distinct and
  enumerates the ordered deals (``sorted=True``: the unordered hands).
"""

from __future__ import annotations

from collections.abc import Hashable
from fractions import Fraction
from typing import Any

__all__ = [
    "icepool_ace_sequence",
    "icepool_ace_deal",
    "lea_ace_ordered",
    "lea_ace_sorted",
    "icepool_flush_deal",
    "lea_flush_sorted",
    "icepool_poker",
    "icepool_rbr_markov",
    "icepool_penney_all_pairs",
    "icepool_poker_split",
    "icepool_penney_automaton",
    "icepool_shared_rank_13",
    "icepool_shared_rank_52",
]

_ACES = {True: 4, False: 48}
_SUITS = "SHDC"


def _lea() -> Any:
    import lea  # type: ignore[import-untyped, import-not-found]

    lea.set_prob_type("r")
    return lea


def _has_ace(hand: tuple[bool, ...]) -> bool:
    return any(hand)


# --------------------------------------------------------------------------- 1. an ace within 3


def icepool_ace_sequence() -> Fraction:
    """Ordered: ``Deck({ace: 4, other: 48}).sequence(3)``, then any ace among the three."""
    import icepool  # type: ignore[import-untyped, import-not-found]

    sequences = icepool.Deck(_ACES).sequence(3)
    return Fraction(sequences.map(_has_ace, star=False).probability(True))


def icepool_ace_deal() -> Fraction:
    """Unordered: ``Deck({1: 4, 0: 48}).deal(3).sum() >= 1`` (the number of aces in the hand)."""
    import icepool

    aces = icepool.Deck({1: 4, 0: 48}).deal(3).sum()
    return Fraction(aces.quantity(">=", 1), aces.denominator())


def lea_ace_ordered() -> Fraction:
    """Ordered: ``lea.drawing(*52 cards as ace/not, n=3)``, then any ace among the three."""
    lea = _lea()
    cards = [True] * 4 + [False] * 48
    return Fraction(lea.drawing(*cards, n=3).map(_has_ace).p(True))


def lea_ace_sorted() -> Fraction:
    """Unordered: the same with ``sorted=True`` (lea's combinatorial shortcut)."""
    lea = _lea()
    cards = [True] * 4 + [False] * 48
    return Fraction(lea.drawing(*cards, n=3, sorted=True).map(_has_ace).p(True))


# --------------------------------------------------------------------------- 2. a 5-card flush


def icepool_flush_deal() -> Fraction:
    """``Deck(4 suits x 13).deal(5).largest_count() == 5``."""
    import icepool

    largest = icepool.Deck({suit: 13 for suit in _SUITS}).deal(5).largest_count()
    return Fraction(largest.quantity(5), largest.denominator())


def _one_suit(hand: tuple[str, ...]) -> bool:
    return len(set(hand)) == 1


def lea_flush_sorted() -> Fraction:
    """``lea.drawing(*52 cards as suits, n=5, sorted=True)``, then all five of one suit."""
    lea = _lea()
    cards = [suit for suit in _SUITS for _ in range(13)]
    return Fraction(lea.drawing(*cards, n=5, sorted=True).map(_one_suit).p(True))


# --------------------------------------------------------------------------- 3. poker categories


def _category(ranks: tuple[int, ...], flush: bool) -> str:
    """The category of five ascending ranks (2..14, ace high or low in a straight)."""
    counts = sorted((ranks.count(r) for r in set(ranks)), reverse=True)
    straight = counts[0] == 1 and (ranks[4] - ranks[0] == 4 or ranks == (2, 3, 4, 5, 14))
    if straight and flush:
        return "royal flush" if ranks[0] == 10 else "straight flush"
    if counts[0] == 4:
        return "four of a kind"
    if counts == [3, 2]:
        return "full house"
    if flush:
        return "flush"
    if straight:
        return "straight"
    if counts[0] == 3:
        return "three of a kind"
    if counts == [2, 2, 1]:
        return "two pair"
    if counts[0] == 2:
        return "one pair"
    return "high card"


def _poker_evaluator() -> Any:
    """An icepool ``MultisetEvaluator`` over a deal of (rank, suit) cards, seen in sorted order.

    State: the ranks dealt so far (ascending) and the suit they all share ("" before
    the first card, "x" once two suits were seen).
    """
    import icepool

    class PokerHand(icepool.MultisetEvaluator):  # type: ignore[misc]
        def initial_state(self, order: Any, outcomes: Any, *sizes: Any) -> Hashable:
            if order != icepool.Order.Ascending:
                raise icepool.UnsupportedOrder()
            return ((), "")

        def next_state(self, state: Any, order: Any, outcome: Any, count: int) -> Hashable:
            if not count:
                return state  # type: ignore[no-any-return]
            ranks, suit = state
            rank, card_suit = outcome
            if suit == "":
                suit = card_suit
            elif suit != card_suit:
                suit = "x"
            return (ranks + (rank,) * count, suit)

        def final_outcome(self, state: Any, *args: Any) -> str:
            ranks, suit = state
            return _category(ranks, suit != "x")

    return PokerHand()


def icepool_poker() -> dict[str, Fraction]:
    """A custom ``MultisetEvaluator`` on ``Deck(52 (rank, suit) cards).deal(5)``."""
    import icepool

    deck = icepool.Deck([(rank, suit) for rank in range(2, 15) for suit in _SUITS])
    die = _poker_evaluator().evaluate(deck.deal(5))
    total = die.denominator()
    return {category: Fraction(die.quantity(category), total) for category in die.outcomes()}


# --------------------------------------------------------------------------- 4. first RBR


_RBR_NEXT = {
    (0, "R"): 1, (0, "B"): 0,
    (1, "R"): 1, (1, "B"): 2,
    (2, "R"): 3, (2, "B"): 0,
}


def _rbr_markov_step(reds: int, blacks: int, matched: int, position: int) -> Any:
    """One card of the ordered deal as a Markov step: the state carries the counts left.

    ``position`` is 0 until R B R completes, then the (1-based) position it completed at.
    """
    import icepool

    if position or reds + blacks == 0:
        return (reds, blacks, matched, position)
    seen = 52 - reds - blacks
    weights: dict[tuple[int, int, int, int], int] = {}
    for colour, count, left in (("R", reds, (reds - 1, blacks)), ("B", blacks, (reds, blacks - 1))):
        if count:
            m = _RBR_NEXT[matched, colour]
            after = (0, 0, 3, seen + 1) if m == 3 else (*left, m, 0)
            weights[after] = weights.get(after, 0) + count
    return icepool.Die(weights)


def icepool_rbr_markov() -> dict[str, Fraction]:
    """``icepool.map(step, Die([(26, 26, 0, 0)]), star=True, repeat=52)``: a 52-step Markov chain."""
    import icepool

    final = icepool.map(_rbr_markov_step, icepool.Die([(26, 26, 0, 0)]), star=True, repeat=52)
    total = final.denominator()
    result: dict[str, Fraction] = {}
    for (_, _, _, position), quantity in final.items():
        key = str(position) if position else "never"
        result[key] = result.get(key, Fraction(0)) + Fraction(quantity, total)
    return result


# --------------------------------------------------------------------------- 6. Penney races


def icepool_penney_all_pairs() -> dict[str, Fraction]:
    """icepool's absorbing ``map(..., repeat="inf")`` over a state die, for all 56 pairs."""
    import itertools

    import icepool  # type: ignore[import-untyped, import-not-found]

    patterns = ["".join(p) for p in itertools.product("HT", repeat=3)]
    flip = icepool.Die(["H", "T"])
    result: dict[str, Fraction] = {}
    for a in patterns:
        for b in patterns:
            if a == b:
                continue

            def step(state: str, side: str, a: str = a, b: str = b) -> str:
                if state in (a, b):
                    return state
                return (state + side)[-3:]

            die = icepool.map(step, icepool.Die([""]), flip, repeat="inf")
            result[f"{a}>{b}"] = Fraction(die.probability(a))
    return result


# --------------------------------------------------------------------------- 3b. poker, split like ours


def _poker_split_evaluators() -> tuple[Any, Any]:
    """Two small-state ``MultisetEvaluator``s over ranks seen in ascending order.

    ``RankShape`` keeps only the multiplicities (sorted) and the lowest, second
    highest and highest rank: enough for every rank category, including the wheel
    A-2-3-4-5, with far fewer states than the ranks themselves.  ``StraightKind``
    does the same on a deal of 5 distinct ranks.
    """
    import icepool

    class RankShape(icepool.MultisetEvaluator):  # type: ignore[misc]
        def initial_state(self, order: Any, outcomes: Any, *sizes: Any) -> Hashable:
            if order != icepool.Order.Ascending:
                raise icepool.UnsupportedOrder()
            return ((), 0, 0, 0)

        def next_state(self, state: Any, order: Any, outcome: Any, count: int) -> Hashable:
            if not count:
                return state  # type: ignore[no-any-return]
            counts, low, _, high = state
            return (tuple(sorted((*counts, count), reverse=True)), low or outcome, high, outcome)

        def final_outcome(self, state: Any, *args: Any) -> str:
            counts, low, second, high = state
            if counts[0] == 4:
                return "four of a kind"
            if counts == (3, 2):
                return "full house"
            if counts[0] == 3:
                return "three of a kind"
            if counts == (2, 2, 1):
                return "two pair"
            if counts[0] == 2:
                return "one pair"
            if high - low == 4 or (low, second, high) == (2, 5, 14):
                return "straight"
            return "high card"

    class StraightKind(icepool.MultisetEvaluator):  # type: ignore[misc]
        def initial_state(self, order: Any, outcomes: Any, *sizes: Any) -> Hashable:
            if order != icepool.Order.Ascending:
                raise icepool.UnsupportedOrder()
            return (0, 0, 0)

        def next_state(self, state: Any, order: Any, outcome: Any, count: int) -> Hashable:
            if not count:
                return state  # type: ignore[no-any-return]
            low, _, high = state
            return (low or outcome, high, outcome)

        def final_outcome(self, state: Any, *args: Any) -> str:
            low, second, high = state
            if low == 10:
                return "royal flush"
            if high - low == 4 or (low, second, high) == (2, 5, 14):
                return "straight flush"
            return "no"

    return RankShape(), StraightKind()


def icepool_poker_split() -> dict[str, Fraction]:
    """The 10 categories split the way ours is: ranks on a 13-rank deck (4 of each), a suit
    deal for flushes, straight flushes from 5 of 13 distinct ranks (times 4 suits)."""
    import icepool

    ranks = range(2, 15)
    rank_shape, straight_kind = _poker_split_evaluators()
    shape = rank_shape.evaluate(icepool.Deck(ranks, times=4).deal(5))
    total = shape.denominator()
    flushes = icepool.Deck(_SUITS, times=13).deal(5).largest_count().quantity(5)
    straights = straight_kind.evaluate(icepool.Deck(ranks).deal(5))
    royal, straight_flush = 4 * straights.quantity("royal flush"), 4 * straights.quantity("straight flush")
    plain_flush = flushes - royal - straight_flush
    counts = {
        "royal flush": royal,
        "straight flush": straight_flush,
        "four of a kind": shape.quantity("four of a kind"),
        "full house": shape.quantity("full house"),
        "flush": plain_flush,
        "straight": shape.quantity("straight") - royal - straight_flush,
        "three of a kind": shape.quantity("three of a kind"),
        "two pair": shape.quantity("two pair"),
        "one pair": shape.quantity("one pair"),
        "high card": shape.quantity("high card") - plain_flush,
    }
    return {category: Fraction(count, total) for category, count in counts.items()}


# --------------------------------------------------------------------------- 6b. Penney, the automaton


def _automaton_move(a: str, b: str, state: str, side: str) -> str:
    """The longest suffix of ``state + side`` that is a prefix of ``a`` or ``b`` (or a winner)."""
    s = state + side
    if s.endswith(a):
        return a
    if s.endswith(b):
        return b
    while s and not (a.startswith(s) or b.startswith(s)):
        s = s[1:]
    return s


def icepool_penney_automaton() -> dict[str, Fraction]:
    """The 56 races as absorbing chains over the minimal pattern automaton: a unary step
    returning a ``Die`` of next states (a winner maps to itself), ``Die.map(step, repeat="inf")``."""
    import itertools

    import icepool

    patterns = ["".join(p) for p in itertools.product("HT", repeat=3)]
    result: dict[str, Fraction] = {}
    for a in patterns:
        for b in patterns:
            if a == b:
                continue

            def step(state: str, a: str = a, b: str = b) -> Any:
                if state in (a, b):
                    return state
                return icepool.Die([_automaton_move(a, b, state, "H"), _automaton_move(a, b, state, "T")])

            die = icepool.Die([""]).map(step, repeat="inf")
            result[f"{a}>{b}"] = Fraction(die.probability(a))
    return result


# --------------------------------------------------------------------------- 9, 10. until a rank repeats


def _icepool_shared_rank(ranks: int, suits: int) -> dict[str, Fraction]:
    """The card at which a rank first repeats: ``P(the first k cards have distinct
    ranks)`` is ``Deck(ranks x suits).deal(k).largest_count() == 1``, for each ``k``
    (an unordered hand: the first ``k`` cards of a shuffle are a uniform ``k``-card
    hand); the repeat comes at card ``k + 1`` with the difference of two of them."""
    import icepool

    deck = icepool.Deck(range(ranks), times=suits)
    distinct = [Fraction(1)]
    for k in range(1, ranks + 1):
        largest = deck.deal(k).largest_count()
        distinct.append(Fraction(largest.quantity(1), largest.denominator()))
    distinct.append(Fraction(0))  # ranks + 1 cards always share a rank
    chances = {str(k + 1): distinct[k] - distinct[k + 1] for k in range(1, ranks + 1)}
    return {k: p for k, p in chances.items() if p}


def icepool_shared_rank_13() -> dict[str, Fraction]:
    """:func:`_icepool_shared_rank` on 13 ranks x 4."""
    return _icepool_shared_rank(13, 4)


def icepool_shared_rank_52() -> dict[str, Fraction]:
    """:func:`_icepool_shared_rank` on 52 ranks x 4."""
    return _icepool_shared_rank(52, 4)
