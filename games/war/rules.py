"""The rules of War as data: one frozen value per rule set, and the named presets.

Every engine (the reference game in :mod:`games.war.engine`, the batched simulator,
the exact small-deck evaluation and the deal search) reads the same :class:`Rules`.

>>> rules = Rules(face_down=3, deuce_beats_ace="battles")
>>> rules.face_down, rules.gather
(3, 'winner_first')
>>> preset("rblog").max_battles
5000
>>> sorted(PRESETS)
['no-face-down', 'rblog', 'standard', 'three-down']
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from drawdsl import InvalidArgument

__all__ = [
    "Rules",
    "PRESETS",
    "preset",
    "as_rules",
    "DEUCE_RULES",
    "GATHER_ORDERS",
    "SHORT_WAR_RULES",
    "OUTCOMES",
]

#: When a 2 beats an ace: never, only in the plain battle (the first pair), or also in wars.
DEUCE_RULES = ("never", "battles", "always")
#: The order in which won cards go under the winner's pile.
GATHER_ORDERS = ("winner_first", "loser_first", "as_played", "shuffled")
#: What happens when a player cannot lay down a whole war.
SHORT_WAR_RULES = ("lose", "last_card", "available", "b_takes")
#: How a game can finish: a winner, a tie (both ran out), an endless game, or the cap.
OUTCOMES = ("A", "B", "tie", "cycle", "capped")


def _choice(name: str, value: object, allowed: tuple[str, ...]) -> None:
    if value not in allowed:
        raise InvalidArgument(
            f"Rules: {name} must be one of {', '.join(map(repr, allowed))}, got {value!r}"
        )


@dataclass(frozen=True)
class Rules:
    """One rule set of War; validated when built, hashable, picklable.

    Cards are ranks ``2 .. top`` (ace high: ``top`` is the highest rank of the deck,
    14 for a full deck).  Each battle both players turn their top card; the higher
    wins and puts the cards on the table under their pile.  Equal cards start a
    *war*: each player lays ``face_down`` cards face down and one face up, and the
    face-up cards decide; wars repeat while they tie.

    * ``deuce_beats_ace``: ``"never"``; ``"battles"`` (a 2 beats an ace in the first
      comparison of a battle only, as in the R-bloggers game); ``"always"``.
    * ``gather``: the order of the won cards under the winner's pile.
      ``"winner_first"``/``"loser_first"``: one player's cards (in the order they
      left the pile), then the other's.  ``"as_played"``: the order the cards went
      into the pot: for each war round, A's face-up card with the face-down cards laid
      on it, then B's; finally the deciding pair, A's card first (a plain battle
      gives ``[A's card, B's card]`` whoever won).  ``"shuffled"``: a random order
      (the game then depends on a seed, and a repeated position no longer means an
      endless game, so it needs ``detect_cycles=False`` and a ``max_battles`` cap).
    * ``short_war``: when a player holds fewer than ``face_down + 1`` cards for a war
      round.  ``"lose"``: that player loses the game (both short: a tie).
      ``"last_card"``: the player lays what they can face down and their last card
      face up; a player with no card left loses (both: a tie).  ``"available"``: the
      same, but a player with no card left keeps their face-up card as their war
      card (both without cards: a tie).  ``"b_takes"``: the war is not fought and
      player B takes the cards on the table (the R-bloggers quirk).
    * ``max_battles``: stop after that many battles; the game is ``"capped"``.
    * ``detect_cycles``: a position (both piles, between battles) seen before means
      the game never ends: it finishes as ``"cycle"``, exactly.

    A game ends when a player has no cards (``"A"`` or ``"B"`` wins) or when both run
    out together (``"tie"``).

    >>> Rules(face_down=0).face_down
    0
    >>> Rules(gather="sideways")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    drawdsl.errors.InvalidArgument: Rules: gather must be one of 'winner_first', ...
    """

    face_down: int = 1
    deuce_beats_ace: str = "never"
    gather: str = "winner_first"
    short_war: str = "last_card"
    max_battles: int | None = None
    detect_cycles: bool = True

    def __post_init__(self) -> None:
        if isinstance(self.face_down, bool) or not isinstance(self.face_down, int):
            raise TypeError(f"Rules: face_down must be an int, got {self.face_down!r}")
        if self.face_down < 0:
            raise InvalidArgument(f"Rules: face_down must be >= 0, got {self.face_down}")
        _choice("deuce_beats_ace", self.deuce_beats_ace, DEUCE_RULES)
        _choice("gather", self.gather, GATHER_ORDERS)
        _choice("short_war", self.short_war, SHORT_WAR_RULES)
        if self.max_battles is not None:
            if isinstance(self.max_battles, bool) or not isinstance(self.max_battles, int):
                raise TypeError(f"Rules: max_battles must be an int or None, got {self.max_battles!r}")
            if self.max_battles < 1:
                raise InvalidArgument(f"Rules: max_battles must be >= 1, got {self.max_battles}")
        if not isinstance(self.detect_cycles, bool):
            raise TypeError(f"Rules: detect_cycles must be a bool, got {self.detect_cycles!r}")
        if self.gather == "shuffled" and (self.detect_cycles or self.max_battles is None):
            raise InvalidArgument(
                "Rules: gather='shuffled' makes the game random, so a repeated position does not "
                "mean an endless game; pass detect_cycles=False and a max_battles cap"
            )
        if not self.detect_cycles and self.max_battles is None:
            raise InvalidArgument(
                "Rules: with detect_cycles=False a game can go on forever; set max_battles "
                "(for example 5000) or keep detect_cycles=True"
            )

    @property
    def deterministic(self) -> bool:
        """True when play is a function of the deal alone (every gather order but shuffled).

        >>> Rules().deterministic, preset("rblog").deterministic
        (True, True)
        """
        return self.gather != "shuffled"

    def but(self, **changes: Any) -> Rules:
        """A copy with some rules changed (validated again).

        >>> preset("standard").but(face_down=2).face_down
        2
        """
        return replace(self, **changes)

    def describe(self) -> str:
        """A one-line human description.

        >>> Rules().describe()
        '1 face down, deuce beats ace: never, gather winner_first, short war: last_card, cycles detected'
        """
        parts = [
            f"{self.face_down} face down",
            f"deuce beats ace: {self.deuce_beats_ace}",
            f"gather {self.gather}",
            f"short war: {self.short_war}",
        ]
        if self.detect_cycles:
            parts.append("cycles detected")
        if self.max_battles is not None:
            parts.append(f"stop after {self.max_battles} battles")
        return ", ".join(parts)

    def in_words(self) -> str:
        """The rules in plain words, for people (``describe`` is the short, stable form).

        >>> print(Rules().in_words())
        equal cards start a war: each player lays 1 card face down and 1 face up; a 2 never
        beats an ace; the winner puts the won cards under their pile, their own first; a
        player short of cards for a war turns their last card face up; a game that comes back
        to an earlier position never ends (it is stopped and counted as endless)
        """
        k = self.face_down
        war = ("equal cards start a war: the next pair decides" if k == 0 else
               f"equal cards start a war: each player lays {k} card{'s' if k > 1 else ''} face down "
               "and 1 face up")
        deuce = {
            "never": "a 2 never beats an ace",
            "battles": "a 2 beats an ace in a plain battle but not in a war",
            "always": "a 2 beats an ace, in wars too",
        }[self.deuce_beats_ace]
        gather = "the winner puts the won cards under their pile, " + {
            "winner_first": "their own first",
            "loser_first": "the loser's first",
            "as_played": "in the order they were played",
            "shuffled": "shuffled",
        }[self.gather]
        short = {
            "lose": "a player short of cards for a war loses the game",
            "last_card": "a player short of cards for a war turns their last card face up",
            "available": "a player short of cards for a war lays what they have (with none left, "
                         "their last face-up card stands)",
            "b_takes": "when a player is short of cards for a war, B takes the cards on the table",
        }[self.short_war]
        parts = [war, deuce, gather, short]
        if self.detect_cycles:
            parts.append("a game that comes back to an earlier position never ends (it is stopped and "
                         "counted as endless)")
        if self.max_battles is not None:
            parts.append(f"a game still going after {self.max_battles:,} battles is stopped (capped)")
        return "; ".join(parts)


#: The named rule sets.  ``standard``: one card face down in a war (the Bicycle rules),
#: winner's cards first, a short player plays their last card face up.  ``three-down``:
#: the same with three cards face down.  ``no-face-down``: a war is just the next pair.
#: ``rblog``: the 2012 R-bloggers simulation, quirks included.
PRESETS: dict[str, Rules] = {
    "standard": Rules(),
    "three-down": Rules(face_down=3),
    "no-face-down": Rules(face_down=0),
    "rblog": Rules(
        face_down=3,
        deuce_beats_ace="battles",
        gather="as_played",
        short_war="b_takes",
        max_battles=5000,
        detect_cycles=False,
    ),
}


def as_rules(rules: Rules | str, what: str) -> Rules:
    """``rules`` itself, or the preset it names: every War function takes either.

    >>> as_rules("three-down", "play_game") == preset("three-down")
    True
    >>> as_rules(3, "play_game")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    TypeError: play_game: rules must be a Rules or a preset name (one of no-face-down, ...), got 3
    """
    if isinstance(rules, str):
        return preset(rules)
    if not isinstance(rules, Rules):
        raise TypeError(
            f"{what}: rules must be a Rules or a preset name (one of {', '.join(sorted(PRESETS))}), "
            f"got {rules!r}"
        )
    return rules


def preset(name: str) -> Rules:
    """The rule set called ``name`` (see :data:`PRESETS`).

    >>> preset("three-down").face_down
    3
    """
    try:
        return PRESETS[name]
    except (KeyError, TypeError):
        raise InvalidArgument(
            f"unknown preset {name!r}; choose one of {', '.join(sorted(PRESETS))}"
        ) from None
