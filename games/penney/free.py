"""Best replies when some players choose after us: at our worst case (max-min) or best case (max-max).

Some players have named their patterns; we choose next; the remaining players
choose after us, freely.  Against the worst case, each of our candidates is scored by
the lowest chance it keeps whatever the free players pick (our guaranteed chance);
against the best case, by the highest chance any choice of theirs leaves us (what the
Markov-chain notebook's ``find_best`` reports).  The best replies maximise that score.

Every player names a different pattern; the free players pick among the patterns of
the same length (a set: which free player picks which does not change our chance).

>>> reply = best_replies_with_free("HHT", players=3)
>>> reply
FreeReply(('THH', 'TTH'), 1/4, others='worst')
>>> reply.others["TTH"]  # the third player's answers that hold TTH to 1/4
(('HTT',), ('TTT',))
>>> best_replies_with_free("HHT", players=3, others="best").others
{'THH': (('HHH',),)}
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from drawdsl import InvalidArgument
from drawdsl.html import fields
from games.penney.correlation import Correlations
from games.penney.patterns import Weights, all_patterns, check_alphabet, check_patterns
from games.penney.race import odds_text

__all__ = ["OTHERS", "FreeReply", "best_replies_with_free", "free_races"]

#: How the free players are assumed to choose: against us (max-min) or for us (max-max).
OTHERS = ("worst", "best")


@dataclass(frozen=True, eq=True)
class FreeReply:
    """The best replies, their score, and for each one the free players' choices that reach it.

    ``probability`` is our chance when the free players choose as ``others`` says:
    the least we can be held to (``"worst"``), or the most they can leave us (``"best"``).

    >>> reply = best_replies_with_free("012", players=3, alphabet="012")
    >>> reply.patterns, reply.probability, reply.odds
    (('010', '011'), Fraction(2, 7), '2:5')
    """

    patterns: tuple[str, ...]
    probability: Fraction
    others: Mapping[str, tuple[tuple[str, ...], ...]]
    mode: str = "worst"

    @property
    def odds(self) -> str:
        """The chance as odds for:against, e.g. ``"2:1"``."""
        return odds_text(self.probability)

    def __repr__(self) -> str:
        return f"FreeReply({self.patterns!r}, {self.probability}, others={self.mode!r})"

    def _repr_html_(self) -> str:
        """The patterns, the free players' answers, the chance and the odds, as HTML."""
        answers = "; ".join(
            f"{p}: " + " | ".join(", ".join(choice) for choice in self.others[p]) for p in self.patterns
        )
        rows = [("patterns", ", ".join(self.patterns)), (f"others ({self.mode} case)", answers),
                ("P(wins)", self.probability), ("odds", self.odds)]
        return fields(rows, caption=f"best reply, free players at their {self.mode} for us")


def free_races(given: int, players: int, length: int, alphabet: str = "HT") -> int:
    """How many races :func:`best_replies_with_free` solves (to bound the work before starting).

    >>> free_races(1, 3, 3, "012")
    650
    """
    words: int = len(alphabet) ** length
    free = players - given - 1
    return (words - given) * math.comb(max(0, words - given - 1), free)


def best_replies_with_free(
    *given: str,
    players: int,
    others: str = "worst",
    length: int | None = None,
    alphabet: str = "HT",
    weights: Weights = None,
) -> FreeReply:
    """The patterns of ``length`` that maximise our chance when ``players - len(given) - 1`` players
    choose freely after us, assuming they choose at our ``others`` case ("worst" or "best").

    ``length`` defaults to the length of the first given pattern.

    >>> best_replies_with_free("HHH", players=2)  # no free player: the plain best reply
    FreeReply(('THH',), 7/8, others='worst')
    >>> best_replies_with_free("HTH", players=4, others="best").patterns
    ('HHT', 'TTH')
    """
    alphabet = check_alphabet(alphabet)
    taken = check_patterns(given, alphabet, players=0)
    if others not in OTHERS:
        raise InvalidArgument(f"others must be 'worst' (max-min) or 'best' (max-max), got {others!r}")
    if length is None:
        if not taken:
            raise InvalidArgument("give the patterns' length when no pattern is given")
        length = len(taken[0])
    if isinstance(players, bool) or not isinstance(players, int):
        raise TypeError(f"players must be an int, got {players!r}")
    free = players - len(taken) - 1
    if free < 0:
        raise InvalidArgument(
            f"players={players} leaves no place for us: {len(taken)} pattern(s) are given; "
            f"ask for players >= {len(taken) + 1}"
        )
    words = [w for w in all_patterns(length, alphabet) if w not in taken]
    if len(words) < free + 1:
        raise InvalidArgument(
            f"only {len(words)} pattern(s) of length {length} over {alphabet!r} are left for "
            f"{free + 1} player(s); choose a longer length or fewer players"
        )
    table = Correlations(alphabet, weights)
    worst = others == "worst"
    scores: dict[str, tuple[Fraction, list[tuple[str, ...]]]] = {}
    for candidate in words:
        pool = [w for w in words if w != candidate]
        score: Fraction | None = None
        reached: list[tuple[str, ...]] = []
        for choice in itertools.combinations(pool, free):
            p = table.solve((*taken, *choice, candidate))[0][-1]
            if score is None or (p < score if worst else p > score):
                score, reached = p, [choice]
            elif p == score:
                reached.append(choice)
        assert score is not None
        scores[candidate] = (score, reached)
    top = max(score for score, _ in scores.values())
    best = tuple(c for c, (score, _) in scores.items() if score == top)
    return FreeReply(best, top, {c: tuple(scores[c][1]) for c in best}, others)
