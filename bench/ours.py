"""OUR side of each benchmark: drawdsl specs, run by the exact evaluator.

Every function builds its deck and spec and evaluates them, so a timing covers the
whole question.  Answers are returned in the runner's canonical forms: a
``Fraction``, a ``dict[str, Fraction]`` (a distribution; ``"never"`` is a failed
path) or, for War, the exact ``Fraction`` (the runner compares it to the float
reference with a relative tolerance).
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

from drawdsl import Card, Cards, chance, chances, coin, done, fail, loop, standard_deck
from drawdsl.examples import ace_within, aces_deck, flush
from games.war import sweep_probability

__all__ = [
    "POKER_TOTAL",
    "ace_within_3",
    "flush_on_suits",
    "flush_on_52_cards",
    "poker_categories",
    "poker_categories_one_spec",
    "rbr_first_position",
    "war_sweep",
    "penney_all_pairs",
    "war_sweep_sized",
    "war_sweep_26x4",
    "war_sweep_13x8",
    "no_adjacent_rank",
    "shared_rank_13",
    "shared_rank_52",
    "longest_suit_run",
]

#: C(52, 5): the number of 5-card hands.
POKER_TOTAL = 2_598_960

# --------------------------------------------------------------------------- 1. an ace within 3


def ace_within_3() -> Fraction:
    """drawdsl.examples.ace_within(3), i.e. ``chance(draw_until(is_ace, limit=3), deck.map(is_ace))``:
    ordered draws on a deck of 2 kinds of card (4 aces, 48 others)."""
    return chance(ace_within(3), aces_deck(standard_deck()))


# --------------------------------------------------------------------------- 2. a 5-card flush


def _suit(card: Card) -> str:
    return card.suit


def flush_on_suits() -> Fraction:
    """drawdsl.examples.flush(): a loop over the deck mapped to suits (4 kinds of card)."""
    return chance(flush(), standard_deck().map(_suit))


def _flush_card_step(state: tuple[int, str | None], card: Card) -> object:
    """examples.flush's step, reading the suit off a real card (the deck is not mapped)."""
    drawn, first = state
    if first is not None and card.suit != first:
        return fail()
    if drawn + 1 == 5:
        return done(True)
    return (drawn + 1, card.suit)


def flush_on_52_cards() -> Fraction:
    """The same loop on the unmapped 52-card deck (52 kinds of card)."""
    return chance(loop((0, None), _flush_card_step), standard_deck())


# --------------------------------------------------------------------------- 3. poker categories


def _rank(card: Card) -> int:
    return card.rank


def _rank_shape(ranks: tuple[int, ...]) -> str:
    """The category of five sorted ranks, ignoring suits (no flushes here)."""
    counts = sorted((ranks.count(r) for r in set(ranks)), reverse=True)
    if counts[0] == 4:
        return "four of a kind"
    if counts == [3, 2]:
        return "full house"
    if counts[0] == 3:
        return "three of a kind"
    if counts == [2, 2, 1]:
        return "two pair"
    if counts[0] == 2:
        return "one pair"
    if ranks[4] - ranks[0] == 4 or ranks == (2, 3, 4, 5, 14):
        return "straight"
    return "high card"


#: (ranks seen once, twice, three times, four times) -> the category of the five ranks.
_PATTERNS = {
    (5, 0, 0, 0): "no pair", (3, 1, 0, 0): "one pair", (1, 2, 0, 0): "two pair",
    (2, 0, 1, 0): "three of a kind", (0, 1, 1, 0): "full house", (1, 0, 0, 1): "four of a kind",
}

_NONE_SEEN: frozenset[int] = frozenset()


def _multiplicity_step(
    state: tuple[int, frozenset[int], frozenset[int], frozenset[int], frozenset[int]], rank: int,
) -> object:
    """State: cards drawn, and the ranks seen once, twice, three and four times; at the
    fifth card, the pattern's category.  It only compares ranks with the ranks it keeps,
    so its bytecode shows it blind to renamings: the evaluator keeps one state per
    pattern (``drawdsl.renaming_blind``)."""
    drawn, ones, twos, threes, fours = state
    if rank in threes:
        threes, fours = threes - {rank}, fours | {rank}
    elif rank in twos:
        twos, threes = twos - {rank}, threes | {rank}
    elif rank in ones:
        ones, twos = ones - {rank}, twos | {rank}
    else:
        ones = ones | {rank}
    if drawn == 4:
        return done(_PATTERNS[(len(ones), len(twos), len(threes), len(fours))])
    return (drawn + 1, ones, twos, threes, fours)


def _can_be_straight(ranks: tuple[int, ...]) -> bool:
    """Can these sorted ranks still be completed into a 5-card straight (the ace plays low too)?"""
    if len(set(ranks)) != len(ranks):
        return False
    low_ace = sorted(1 if r == 14 else r for r in ranks)
    return ranks[-1] - ranks[0] <= 4 or low_ace[-1] - low_ace[0] <= 4


def _straight_step(ranks: tuple[int, ...], rank: int) -> object:
    """Fail at the first rank that rules out a straight; finish with "royal" (ten to
    ace) or "straight"."""
    ranks = tuple(sorted((*ranks, rank)))
    if not _can_be_straight(ranks):
        return fail()
    if len(ranks) == 5:
        return done("royal" if ranks[0] == 10 else "straight")
    return ranks


def poker_categories() -> dict[str, Fraction]:
    """The 10 categories from four small exact specs and exact set identities, split as
    the icepool peer splits them.

    * ``pattern``: one loop on the deck mapped to ranks whose state is the ranks seen
      once, twice, three and four times (no pair / one pair / ... / four of a kind).
    * ``straights``: one loop on the same deck that fails as soon as a straight is
      ruled out: five ranks in a row, any suits (flushes included).
    * ``one_suit``: the same loop on the 13 ranks of one suit: the straight flushes of
      that suit, royal or not; four suits have four times as many.
    * ``flush``: drawdsl.examples.flush() on the deck mapped to suits (flushes of all kinds).

    Then flush = flush - SF, straight = straights - SF, and high card = no pair -
    straights - flushes + SF (a hand of five ranks is a straight, a flush, both, or
    neither), with SF = royal + other straight flushes.
    """
    deck = standard_deck()
    ranks = deck.map(_rank)
    pattern = chances(loop((0, _NONE_SEEN, _NONE_SEEN, _NONE_SEEN, _NONE_SEEN), _multiplicity_step), ranks)
    straights = chance(loop((), _straight_step), ranks)
    one_suit = chances(loop((), _straight_step), Cards(range(2, 15)))
    any_flush = chance(flush(), deck.map(_suit))
    # The straight flushes of one suit among all 5-card hands: that suit's 5-card hands
    # are C(13, 5) of the C(52, 5); four suits.
    share = Fraction(4 * math.comb(13, 5), math.comb(52, 5))
    royal, other = share * one_suit["royal"], share * one_suit["straight"]
    straight_flushes = royal + other
    return {
        "royal flush": royal,
        "straight flush": other,
        "four of a kind": pattern["four of a kind"],
        "full house": pattern["full house"],
        "flush": any_flush - straight_flushes,
        "straight": straights - straight_flushes,
        "three of a kind": pattern["three of a kind"],
        "two pair": pattern["two pair"],
        "one pair": pattern["one pair"],
        "high card": pattern["no pair"] - straights - any_flush + straight_flushes,
    }


def _hand_category(ranks: tuple[int, ...], flush_: bool) -> str:
    shape = _rank_shape(ranks)
    if not flush_:
        return shape
    if shape == "straight":
        return "royal flush" if ranks[0] == 10 else "straight flush"
    return "flush"  # five distinct ranks of one suit, not a straight


def _one_spec_step(state: tuple[tuple[int, ...], str | None], card: Card) -> object:
    """State: the sorted ranks so far and the suit all cards share ("" at first, None once mixed)."""
    ranks, suit = state
    ranks = tuple(sorted((*ranks, card.rank)))
    if suit == "":
        suit = card.suit
    elif suit != card.suit:
        suit = None
    if len(ranks) == 5:
        return done(_hand_category(ranks, suit is not None))
    return (ranks, suit)


def poker_categories_one_spec() -> dict[str, Fraction]:
    """One loop over the unmapped 52-card deck (state: sorted ranks + flush suit): the literal spec.

    No card kinds merge on a 52-card deck, so the frontier holds every set of up to 4
    cards (270,725 at depth 4): correct, and slow.
    """
    dist = chances(loop(((), ""), _one_spec_step), standard_deck())
    return dict(dist.items())


# --------------------------------------------------------------------------- 4. first RBR


_RBR_NEXT = {  # the KMP automaton for R B R: state = length of the matched prefix
    (0, "R"): 1, (0, "B"): 0,
    (1, "R"): 1, (1, "B"): 2,
    (2, "R"): 3, (2, "B"): 0,
}


def _rbr_step(state: tuple[int, int], colour: str) -> object:
    """State: (cards seen, matched prefix of RBR); finish with the position of the last R."""
    seen, matched = state
    matched = _RBR_NEXT[matched, colour]
    if matched == 3:
        return done(seen + 1)
    return (seen + 1, matched)


def _colour(card: Card) -> str:
    return "R" if card.color == "red" else "B"


def rbr_first_position() -> dict[str, Fraction]:
    """The position at which R B R first completes; running out of cards (a failed path) is "never"."""
    dist = chances(loop((0, 0), _rbr_step), standard_deck().map(_colour))
    result: dict[str, Fraction] = {str(position): p for position, p in dist.items()}
    result["never"] = dist.failure
    return result


# --------------------------------------------------------------------------- 5. War sweep


def war_sweep() -> Fraction:
    """games.war.sweep_probability(): exact, through the evaluator's symmetric mode."""
    return sweep_probability()




# --------------------------------------------------------------------------- 6. Penney races


PENNEY_PATTERNS = tuple("".join(p) for p in itertools.product("HT", repeat=3))


class _Race:
    """Flip until ``a`` or ``b`` (length-3 coin patterns) appears; finish with the winner."""

    def __init__(self, a: str, b: str) -> None:
        self.a, self.b = a, b

    def __call__(self, state: str, flip: str) -> object:
        state = (state + flip)[-3:]
        if state == self.a or state == self.b:
            return done(state)
        return state


def penney_all_pairs() -> dict[str, Fraction]:
    """P(first pattern wins) for all 56 ordered pairs of length-3 coin patterns (cyclic, exact)."""
    result: dict[str, Fraction] = {}
    for a in PENNEY_PATTERNS:
        for b in PENNEY_PATTERNS:
            if a != b:
                result[f"{a}>{b}"] = chances(loop("", _Race(a, b)), coin())[a]
    return result


# --------------------------------------------------------------------------- 5b. War sweep, other decks


def war_sweep_sized(ranks: int, suits: int) -> Fraction:
    """games.war.sweep_probability(ranks, suits) (the scaling rows)."""
    return sweep_probability(ranks, suits)


def war_sweep_26x4() -> Fraction:
    """games.war.sweep_probability(26, 4)."""
    return sweep_probability(26, 4)


def war_sweep_13x8() -> Fraction:
    """games.war.sweep_probability(13, 8)."""
    return sweep_probability(13, 8)


# --------------------------------------------------------------------------- 7. no adjacent rank


def _rank_name(card: Card) -> str:
    return f"r{card.rank}"


def _no_adjacent(state: tuple[int, str | None], rank: str) -> object:
    """State: (cards still to draw, the last rank); the same rank twice in a row fails."""
    left, previous = state
    if rank == previous:
        return fail()
    return done(True) if left == 1 else (left - 1, rank)


def no_adjacent_rank() -> Fraction:
    """P(no two neighbouring cards of a shuffled deck share a rank): a loop on the deck mapped to ranks."""
    return chance(loop((52, None), _no_adjacent), standard_deck().map(_rank_name))


# --------------------------------------------------------------------------- 8. until a rank repeats


def _until_repeat(seen: frozenset[str], rank: str) -> object:
    """State: the ranks seen; finish with the number of cards drawn when one comes again."""
    if rank in seen:
        return done(len(seen) + 1)
    return seen | {rank}


def _shared_rank(ranks: int) -> dict[str, Fraction]:
    deck = Cards({f"r{r}": 4 for r in range(ranks)})
    dist = chances(loop(frozenset(), _until_repeat), deck)
    return {str(k): p for k, p in dist.items()}


def shared_rank_13() -> dict[str, Fraction]:
    """Cards drawn until two share a rank, 13 ranks x 4 (the standard deck mapped to ranks)."""
    return _shared_rank(13)


def shared_rank_52() -> dict[str, Fraction]:
    """The same on a deck of 52 ranks x 4 (208 cards)."""
    return _shared_rank(52)


# --------------------------------------------------------------------------- 9. longest same-suit run


SUIT_RUN_CARDS = 13


class _LongestRun:
    """Draw ``n`` cards; finish with the longest run of one suit."""

    def __init__(self, n: int) -> None:
        self.n = n

    def __call__(self, state: tuple[int, str | None, int, int], suit: str) -> object:
        drawn, last, run, best = state
        run = run + 1 if suit == last else 1
        best = max(best, run)
        return done(best) if drawn + 1 == self.n else (drawn + 1, suit, run, best)


def longest_suit_run() -> dict[str, Fraction]:
    """The longest run of one suit in the first 13 cards: a loop on the deck mapped to suits."""
    dist = chances(loop((0, None, 0, 0), _LongestRun(SUIT_RUN_CARDS)), standard_deck().map(_suit))
    return {str(k): p for k, p in dist.items()}
