"""Best replies: the patterns that give the last player to choose the best chance of winning.

Every candidate is raced exactly against the opponents' patterns (see
:mod:`games.penney.race`); races that differ only by renaming equally likely symbols
are solved once.

>>> best_replies("HHH")
Reply(('THH',), 7/8)
>>> best_replies("HTH").patterns, odds_text(best_replies("HTH").probability)
(('HHT',), '2:1')
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from drawdsl import InvalidArgument
from drawdsl.html import fields, latex_fraction, table
from games.penney.patterns import Weights, all_patterns, check_alphabet, check_patterns, contains_another
from games.penney.race import Races, odds_text

__all__ = ["Reply", "ReplyTable", "best_replies", "best_reply_table", "second_player_edge", "odds_text"]


@dataclass(frozen=True)
class Reply:
    r"""The best replies (every pattern reaching the best chance) and that chance of winning.

    >>> reply = best_replies("HHT")
    >>> reply.patterns, reply.probability, reply.odds
    (('THH',), Fraction(3, 4), '3:1')

    In Jupyter it shows as a table (HTML), or as the one fraction (LaTeX):

    >>> print(reply._repr_latex_())
    $\text{THH: best chance} = \frac{3}{4} \approx 0.75$
    """

    patterns: tuple[str, ...]
    probability: Fraction

    @property
    def odds(self) -> str:
        """The winning chance as odds for:against, e.g. ``"7:1"``."""
        return odds_text(self.probability)

    def __repr__(self) -> str:
        return f"Reply({self.patterns!r}, {self.probability})"

    def _repr_html_(self) -> str:
        """The patterns, the chance (exact, with its decimal) and the odds, as HTML."""
        rows = [("patterns", ", ".join(self.patterns)), ("P(wins)", self.probability), ("odds", self.odds)]
        return fields(rows, caption="best chance")

    def _repr_latex_(self) -> str:
        """The chance as one exact fraction with its decimal, labelled by the patterns."""
        return latex_fraction(self.probability, f"{', '.join(self.patterns)}: best chance")


class ReplyTable(dict[str, Reply]):
    """First choice -> the second player's :class:`Reply`: a dict, shown in Jupyter as one table.

    >>> replies = best_reply_table(2)
    >>> replies["HH"], "<td>HH</td><td>TH</td>" in replies._repr_html_()
    (Reply(('TH',), 3/4), True)
    """

    def _repr_html_(self) -> str:
        """One row per first choice: its best replies, their chance and the odds."""
        rows = [[first, ", ".join(r.patterns), r.probability, r.odds] for first, r in self.items()]
        return table(["first", "best replies", "P(wins)", "odds"], rows, caption="best replies")


def best_replies(
    *opponents: str,
    length: int | None = None,
    alphabet: str = "HT",
    weights: Weights = None,
    races: Races | None = None,
) -> Reply:
    """Every pattern of ``length`` symbols that maximises the chance of beating ``opponents``.

    ``length`` defaults to the length of the first opponent's pattern.  The opponents'
    own patterns are not candidates.  A candidate that contains an opponent's pattern
    can never win, so it is scored 0 without a race.  Pass ``races`` to share solved
    races between calls.

    >>> best_replies("HTH", "HHT", length=3)
    Reply(('TTH',), 7/16)
    >>> best_replies("123", "321", alphabet="123")
    Reply(('132', '312'), 8/21)
    """
    alphabet = check_alphabet(alphabet)
    opponents = check_patterns(opponents, alphabet, players=1)
    if length is None:
        length = len(opponents[0])
    races = races if races is not None else Races(alphabet, weights)
    if races.alphabet != alphabet:
        raise InvalidArgument(f"races is for the alphabet {races.alphabet!r}, not {alphabet!r}")
    best: list[str] = []
    top = Fraction(-1)
    for candidate in all_patterns(length, alphabet):
        if candidate in opponents:
            continue
        if contains_another(candidate, opponents):
            p = Fraction(0)
        else:
            p = races.odds((*opponents, candidate)).wins[candidate]
        if p > top:
            top, best = p, [candidate]
        elif p == top:
            best.append(candidate)
    if not best:
        raise InvalidArgument(
            f"no pattern of length {length} over {alphabet!r} is left for the reply once "
            f"{', '.join(opponents)} are taken; choose a longer length"
        )
    return Reply(tuple(best), top)


def best_reply_table(length: int = 3, alphabet: str = "HT", weights: Weights = None) -> ReplyTable:
    """For every first choice of ``length`` symbols, the second player's best replies.

    >>> {first: reply.odds for first, reply in best_reply_table(2).items()}
    {'HH': '3:1', 'HT': '1:1', 'TH': '1:1', 'TT': '3:1'}
    """
    races = Races(alphabet, weights)
    return ReplyTable(
        (first, best_replies(first, length=length, alphabet=races.alphabet, races=races))
        for first in all_patterns(length, races.alphabet)
    )


def second_player_edge(length: int = 3, alphabet: str = "HT", weights: Weights = None) -> Reply:
    """The second player's guaranteed chance: the worst first choices for the second player
    (those whose best reply wins least often) and that chance.

    It is above 1/2 for every length >= 3 on a coin: whatever the first player picks,
    the second has a reply that wins more often than not.

    >>> second_player_edge(3)
    Reply(('HTH', 'HTT', 'THH', 'THT'), 2/3)
    >>> second_player_edge(2)
    Reply(('HT', 'TH'), 1/2)
    """
    table = best_reply_table(length, alphabet, weights)
    low = min(reply.probability for reply in table.values())
    return Reply(tuple(first for first, reply in table.items() if reply.probability == low), low)
