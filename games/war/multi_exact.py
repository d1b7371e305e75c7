"""Exact results of War with any number of players, over every deal of a small deck.

The program is the literal one: deal the whole deck (``draw_many(n)``), deal it round
the table (:func:`~games.war.multi.deal_round_robin`) and play it
(:func:`~games.war.multi.play_multi`).  The value is ``(winner, battles)``; for an
endless game ``("cycle", None)``.  Every deal of the deck is equally likely, so the
law is exact; ``tests/test_war_multi.py`` checks it against playing every distinct
deal, and, for two players, against :func:`~games.war.exact_game.exact_outcomes`.

>>> result = exact_multi(ranks=3, suits=2, players=3)
>>> result.p("A"), result.p("B"), result.p("C")
(Fraction(5, 18), Fraction(13, 45), Fraction(3, 10))
>>> result.p("tie"), result.mean_battles
(Fraction(2, 15), Fraction(12, 5))
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from drawdsl import Cards, Distribution, InvalidArgument, Spec, chances, draw_many
from games.war.exact_game import mean_of_law
from games.war.multi import check_players, deal_round_robin, play_multi, seat_name
from games.war.rules import Rules, as_rules

__all__ = ["ExactMulti", "exact_multi", "multi_deck", "multi_spec"]


class _PlayDeal:
    """``deal -> (winner, battles)`` for ``players`` players: what the program maps over deals."""

    def __init__(self, rules: Rules, top: int, players: int) -> None:
        self._key = (rules, top, players)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _PlayDeal) and self._key == other._key

    def __hash__(self) -> int:
        return hash(self._key)

    def __call__(self, cards: tuple[int, ...]) -> tuple[str, int | None]:
        rules, top, players = self._key
        game = play_multi(deal_round_robin(cards, players), rules, top=top)
        return game.winner, None if game.winner == "cycle" else game.battles


def _check_rules(rules: Rules | str, what: str) -> Rules:
    rules = as_rules(rules, what)
    if not rules.deterministic:
        raise InvalidArgument(
            f"{what}: gather='shuffled' makes play random after the deal; exact results need a "
            "fixed gather order (winner_first, loser_first or as_played)"
        )
    return rules


def multi_deck(ranks: int, suits: int, what: str = "multi_deck") -> Cards[int]:
    """Ranks ``2 .. ranks+1``, ``suits`` of each: any size, since the deal need not be even.

    >>> multi_deck(3, 1)
    Cards({2: 1, 3: 1, 4: 1})
    """
    for name, value in (("ranks", ranks), ("suits", suits)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"{what}: {name} must be an int, got {value!r}")
        if value < 1:
            raise InvalidArgument(f"{what}: {name} must be >= 1, got {value}")
    return Cards({rank: suits for rank in range(2, ranks + 2)})


def multi_spec(cards: Cards[int], players: int,
               rules: Rules | str = "standard") -> Spec[tuple[str, int | None]]:
    """The draw program of a whole game of ``players`` players on ``cards``.

    >>> chances(multi_spec(multi_deck(2, 2), 2), multi_deck(2, 2))
    Distribution({('A', 2): 1/6, ('B', 2): 1/6, ('tie', 1): 1/3, ('tie', 3): 1/3})
    """
    rules = _check_rules(rules, "multi_spec")
    players = check_players(players, len(cards), "multi_spec")
    return draw_many(len(cards)).map(_PlayDeal(rules, max(cards.distinct()), players))


@dataclass(frozen=True)
class ExactMulti:
    """Exact results of War with ``players`` players on one small deck.

    ``outcomes`` maps ``(winner, battles)`` to its probability; ``winner`` is a seat
    name, ``"tie"``, ``"cycle"`` (``battles`` None) or ``"capped"``.
    """

    ranks: int
    suits: int
    players: int
    rules: Rules
    outcomes: Distribution[tuple[str, int | None]]

    def p(self, winner: str) -> Fraction:
        """The probability that the game finishes as ``winner`` (a seat name, "tie", "cycle", "capped")."""
        return self.outcomes.probability(lambda o: o[0] == winner)

    @property
    def winners(self) -> dict[str, Fraction]:
        """Every seat, "tie", "cycle" and "capped" -> its probability (seats first).

        >>> w = exact_multi(2, 2, 3).winners  # A is dealt two cards, B and C one each
        >>> list(w), w["A"], w["B"]
        (['A', 'B', 'C', 'tie', 'cycle', 'capped'], Fraction(2, 3), Fraction(1, 6))
        """
        names = [seat_name(seat) for seat in range(self.players)] + ["tie", "cycle", "capped"]
        return {name: self.p(name) for name in names}

    @property
    def battles(self) -> dict[int, Fraction]:
        """battles -> P(the game ends (won or tied) after exactly that many battles)."""
        law: dict[int, Fraction] = {}
        for (winner, battles), p in self.outcomes.items():
            if winner not in ("cycle", "capped") and battles is not None:
                law[battles] = law.get(battles, Fraction(0)) + p
        return dict(sorted(law.items()))

    @property
    def mean_battles(self) -> Fraction | None:
        """The expected number of battles of a game that ends (None if none does)."""
        return mean_of_law(self.battles)


def exact_multi(ranks: int = 3, suits: int = 2, players: int = 3, rules: Rules | str = "standard", *,
                max_states: int = 5_000_000) -> ExactMulti:
    """The exact law of the winner and of the game's length over every deal of a small deck.

    >>> result = exact_multi(3, 2, players=2)
    >>> sum(result.winners.values())
    Fraction(1, 1)
    """
    rules = _check_rules(rules, "exact_multi")
    cards = multi_deck(ranks, suits, "exact_multi")
    players = check_players(players, len(cards), "exact_multi")
    outcomes = chances(multi_spec(cards, players, rules), cards, max_states=max_states)
    return ExactMulti(ranks, suits, players, rules, outcomes)
