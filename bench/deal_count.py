"""Two-player card games counted deal by deal: the dedicated counter the draw program is measured against.

Penney's 52-card game (:mod:`games.penney.cards`) is answered by its draw program, a
:func:`~drawdsl.scoring_loop` under :func:`drawdsl.chances`.  This module is the
method written by hand for two players, as a counting expert writes it: the bench's
peer (``python -m bench.penney``, issue 15's goal 4) and a reference the tests compare
the draw program with exactly.

Every order of the colours is equally likely, so a chance is a count of colour
sequences over ``comb(red + black, red)``.  This module counts them in one forward pass
over the cards, layer by layer: a layer holds, for each (reds turned so far, automaton
state of the current trick), how many sequences reach it, split by the first player's
lead (tricks or cards, depending on the count).  A lead that only matters for its final
sign is never merged away; instead the whole split is one Python integer, each lead a
fixed-width slot of bits (a vector packed into an int), so that a move of one card is
a shift and an addition of big integers whatever the number of leads.

Counting cards needs the size of the current trick as well as the lead, but only
through three numbers: the lead if the first player takes the trick (lead + size), if
the second does (lead - size), or if nobody does (the lead).  Each is a linear function
of the paths, so a state keeps three packed vectors, shifted one slot up, one slot down
and not at all by every card of the trick; when a trick is taken, the taker's vector
becomes the lead of the fresh trick.  (The draw program's pot does the same: one packed
integer per multiplier of the pot.)

>>> deal_counts(("RRB", "BRR"), red=4, black=4, count="tricks")  # of comb(8, 4) = 70 deals
(12, 47, 11)
>>> deal_counts(("RRB", "BRR"), red=4, black=4, count="cards")
(12, 51, 7)
"""

from __future__ import annotations

from math import comb
from typing import TypeAlias

from games.penney.patterns import Automaton

__all__ = ["deal_counts"]

_COLOURS = "RB"

#: automaton state -> its moves, (colour, next state or the index of the pattern completed)
_Moves: TypeAlias = "dict[str, tuple[tuple[str, str | int], ...]]"


def deal_counts(patterns: tuple[str, str], red: int, black: int, count: str) -> tuple[int, int, int]:
    """The deals (orders of ``red`` red and ``black`` black cards) that the first pattern wins,
    that the second wins, and that are drawn; they add up to ``comb(red + black, red)``.

    ``count`` is ``"tricks"``, ``"cards"`` or ``"first"`` as for
    :func:`games.penney.card_odds`; the arguments are taken as already checked.

    >>> deal_counts(("RB", "BR"), red=2, black=2, count="first")
    (3, 3, 0)
    """
    machine = Automaton(patterns, _COLOURS)
    moves: _Moves = {state: tuple(machine.row(state).items()) for state in machine.states}
    if count == "first":
        return _first_trick(moves, red, black)
    n = red + black
    width = comb(n, red).bit_length()  # no count of sequences exceeds comb(n, red)
    # Leads run from -low to +low (tricks: at most one per pattern's length; cards: n), and
    # so do lead + size and lead - size (the cards turned bound both), so a shift never
    # spills into a neighbouring slot nor drops a non-empty one.
    low = n // min(map(len, patterns)) if count == "tricks" else n
    zero = 1 << (width * low)  # the packed vector "one sequence, lead 0"
    if count == "tricks":
        lead = _by_tricks(moves, red, black, zero, width)
    else:
        lead = _by_cards(moves, red, black, zero, width)
    mask = (1 << width) - 1
    slots = [(lead >> (width * i)) & mask for i in range(2 * low + 1)]
    return sum(slots[low + 1:]), sum(slots[:low]), slots[low]


def _reds_after(colour: str, reds: int, turned: int, red: int, black: int) -> int:
    """Reds turned after turning a ``colour`` card, or -1 when none of that colour is left."""
    if colour == "R":
        return reds + 1 if reds < red else -1
    return reds if turned - reds < black else -1


def _by_tricks(moves: _Moves, red: int, black: int, zero: int, width: int) -> int:
    """The packed vector of the first player's lead in tricks over every full deal."""
    layer: dict[tuple[int, str], int] = {(0, ""): zero}
    for turned in range(red + black):
        after: dict[tuple[int, str], int] = {}
        for (reds, state), lead in layer.items():
            for colour, to in moves[state]:
                key_reds = _reds_after(colour, reds, turned, red, black)
                if key_reds < 0:
                    continue
                if isinstance(to, int):
                    key = (key_reds, "")
                    moved = lead << width if to == 0 else lead >> width
                else:
                    key = (key_reds, to)
                    moved = lead
                after[key] = after.get(key, 0) + moved
        layer = after
    return sum(layer.values())


def _by_cards(moves: _Moves, red: int, black: int, zero: int, width: int) -> int:
    """The packed vector of the first player's lead in cards over every full deal.

    Each state keeps (lead + size, lead - size, lead) for the current trick's size."""
    layer: dict[tuple[int, str], tuple[int, int, int]] = {(0, ""): (zero, zero, zero)}
    for turned in range(red + black):
        after: dict[tuple[int, str], tuple[int, int, int]] = {}
        for (reds, state), (up, down, lead) in layer.items():
            for colour, to in moves[state]:
                key_reds = _reds_after(colour, reds, turned, red, black)
                if key_reds < 0:
                    continue
                if isinstance(to, int):  # taken, with this card: the taker's vector is the new lead
                    key = (key_reds, "")
                    new = up << width if to == 0 else down >> width
                    moved = (new, new, new)
                else:
                    key = (key_reds, to)
                    moved = (up << width, down >> width, lead)
                found = after.get(key)
                if found is None:
                    after[key] = moved
                else:
                    after[key] = (found[0] + moved[0], found[1] + moved[1], found[2] + moved[2])
        layer = after
    return sum(lead for _, _, lead in layer.values())


def _first_trick(moves: _Moves, red: int, black: int) -> tuple[int, int, int]:
    """Deals won by the first trick: sequences up to the trick, times the orders of the rest."""
    n = red + black
    won = [0, 0]
    layer: dict[tuple[int, str], int] = {(0, ""): 1}
    for turned in range(red + black):
        after: dict[tuple[int, str], int] = {}
        for (reds, state), ways in layer.items():
            for colour, to in moves[state]:
                key_reds = _reds_after(colour, reds, turned, red, black)
                if key_reds < 0:
                    continue
                if isinstance(to, int):
                    won[to] += ways * comb(n - turned - 1, red - key_reds)
                else:
                    key = (key_reds, to)
                    after[key] = after.get(key, 0) + ways
        layer = after
    return won[0], won[1], comb(n, red) - won[0] - won[1]
