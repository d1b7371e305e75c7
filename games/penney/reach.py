"""What the cards still to come allow in the card game: who can still take the current trick,
and whether it must end.

These are facts about the remaining deck (``reds`` red and ``blacks`` black cards)
and the automaton state of the current trick, never about the order the cards will
come in.  The card game's loop uses them to stop as soon as the result is settled
and to forget what can no longer matter, so that more paths merge; the bounds only
need to be valid (a player who "can" take a trick may still fail to), and the tests
check every use against a brute force over all deals.

>>> from games.penney.patterns import Automaton
>>> reach = Reach(Automaton(("RRB", "BRR"), "RB"), red=4, black=4)
>>> reach.can_take(1, "RR", 4, 4)  # after R R, the first black completes RRB: BRR has no chance
False
>>> reach.must_end("RR", 2, 1), reach.must_end("RR", 2, 0)
(True, False)
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from games.penney.patterns import Automaton

__all__ = ["Reach"]

_NEVER = 1 << 30  # "no number of black cards is enough"


class Reach:
    """Feasibility tables for the card game between the automaton's patterns over ``"RB"``.

    >>> from games.penney.patterns import Automaton
    >>> reach = Reach(Automaton(("RB", "BB"), "RB"), red=1, black=2)
    >>> reach.need(0, ""), reach.need(1, "B"), reach.can_take(0, "B", 0, 1)
    (2, 1, False)
    """

    __slots__ = ("machine", "red", "black", "_blacks", "_open", "_shortest")

    def __init__(self, machine: Automaton, red: int, black: int) -> None:
        self.machine = machine
        self.red = red
        self.black = black
        players = range(len(machine.patterns))
        # _blacks[j][state][r]: the fewest black cards that, with at most r red ones,
        # let pattern j complete the current trick before any other pattern does.
        self._blacks = tuple(self._fewest_blacks(j) for j in players)
        self._shortest = {
            state: tuple(self._fewest_cards(j, state) for j in players) for state in machine.states
        }
        self._open = lru_cache(maxsize=None)(self._can_stay_open)

    def __getstate__(self) -> tuple[Any, ...]:
        """Pickled without its cache (a bound method's cache does not pickle), so that
        card specs can run in worker processes."""
        return self.machine, self.red, self.black, self._blacks, self._shortest

    def __setstate__(self, state: tuple[Any, ...]) -> None:
        self.machine, self.red, self.black, self._blacks, self._shortest = state
        self._open = lru_cache(maxsize=None)(self._can_stay_open)

    def _fewest_blacks(self, j: int) -> dict[str, list[int]]:
        states = self.machine.states
        table = {state: [_NEVER] * (self.red + 1) for state in states}
        changed = True
        while changed:  # Bellman-Ford: moves only add cards, so this settles
            changed = False
            for state in states:
                row = table[state]
                for colour, to in self.machine.row(state).items():
                    red, black = (1, 0) if colour == "R" else (0, 1)
                    for r in range(red, self.red + 1):
                        if to == j and isinstance(to, int):
                            cost = black
                        elif isinstance(to, int):
                            continue
                        else:
                            after = table[to][r - red]
                            cost = after + black if after < _NEVER else _NEVER
                        if cost < row[r]:
                            row[r] = cost
                            changed = True
        return table

    def _fewest_cards(self, j: int, state: str) -> int:
        row = self._blacks[j][state]
        return min((r + b for r, b in enumerate(row) if b < _NEVER), default=_NEVER)

    def can_take(self, j: int, state: str, reds: int, blacks: int) -> bool:
        """Whether some order of ``reds`` red and ``blacks`` black cards still to come lets
        pattern ``j`` take the current trick (now in ``state``)."""
        return self._blacks[j][state][min(reds, self.red)] <= blacks

    def splits(self, left: int) -> list[tuple[int, int]]:
        """Every ``(reds, blacks)`` the deck allows for ``left`` cards still to come.

        >>> from games.penney.patterns import Automaton
        >>> Reach(Automaton(("RB", "BR"), "RB"), red=3, black=1).splits(2)
        [(1, 1), (2, 0)]
        """
        return [(r, left - r) for r in range(max(0, left - self.black), min(left, self.red) + 1)]

    def length(self, j: int) -> int:
        """The length of pattern ``j``."""
        return len(self.machine.patterns[j])

    def need(self, j: int, state: str) -> int:
        """The fewest cards that complete pattern ``j`` first from ``state`` (_NEVER if none)."""
        return self._shortest[state][j]

    def _can_stay_open(self, state: str, reds: int, blacks: int) -> bool:
        if reds == 0 and blacks == 0:
            return True
        for colour, n in (("R", reds), ("B", blacks)):
            if n:
                to = self.machine.move(state, colour)
                if isinstance(to, str) and self._open(
                    to, reds - (colour == "R"), blacks - (colour == "B")
                ):
                    return True
        return False

    def must_end(self, state: str, reds: int, blacks: int) -> bool:
        """Whether every order of the cards still to come completes some pattern: the
        current trick is then surely taken by someone."""
        return not self._open(state, reds, blacks)
