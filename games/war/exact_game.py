"""Exact full-game results for small decks: the deal is a draw program, play is the engine.

Two programs give the same law:

* the literal one, ``draw_many(n).map(play)``: deal the whole deck, then play it with
  :func:`~games.war.engine.play_game` (:func:`literal_spec`);
* the lazy one, :func:`game_spec`: play as you deal.  Every card starts
  :class:`~games.war.engine.Hidden`; a card is drawn from the deck only when the
  engine has to compare it.  Until then nothing depends on its rank, and a card drawn
  later is a uniform card of those not yet seen (the deal is exchangeable), so the
  law is the same.  Games that end before every card was looked at finish early, and
  equal positions (with the same cards still unseen) merge in the exact evaluator.

Once every card is known, the rest of the game is a function of the position: the
engine finishes it in one step (with exact cycle detection).  The value is
``(winner, battles)``; for an endless game ``("cycle", None)``: it has no length.

>>> result = exact_game(ranks=4, suits=2)
>>> result.p_first_wins, result.p_cycle
(Fraction(379, 840), Fraction(1, 36))
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Protocol

from drawdsl import Cards, Distribution, InvalidArgument, Spec, chances, done, draw_many, loop
from drawdsl.html import fields
from games.war.engine import STANDARD, Hidden, NeedCard, _run, battle, deal_hands, play_game
from games.war.rules import Rules, as_rules
from games.war.sweep import deck as war_deck

__all__ = [
    "Watch",
    "game_spec",
    "literal_spec",
    "exact_outcomes",
    "exact_game",
    "ExactGame",
]

Piles = tuple[Any, ...]
#: The loop state: (A's pile, B's pile, battles so far, the card awaited, the watcher's state).
State = tuple[Piles, Piles, int, tuple[str, int], Hashable]

_HIDDEN = Hidden()


class Watch(Protocol):
    """Follows a game battle by battle and decides what the spec finishes with.

    Implementations must be hashable and compare equal when they behave the same
    (they are part of the loop's identity, so that equal positions merge).
    """

    @property
    def start(self) -> Hashable:
        """The watcher's state before the first battle."""

    def after(self, state: Hashable, result: str, wars: int, battles: int) -> Hashable | Spec[Any]:
        """After a battle that did not end the game: the next state, or a spec to finish with."""

    def end(self, state: Hashable, winner: str, battles: int | None) -> Spec[Any]:
        """The game is over (``battles`` is None for an endless game)."""

    def passive(self, state: Hashable) -> bool:
        """True when the watcher only needs the end: the engine may then finish the game."""


def _has_hidden(pile: Piles) -> bool:
    return any(type(card) is Hidden for card in pile)


def _first_hidden(a: Piles, b: Piles) -> tuple[str, int]:
    for player, pile in (("A", a), ("B", b)):
        for i, card in enumerate(pile):
            if type(card) is Hidden:
                return player, i
    raise AssertionError("no hidden card")  # pragma: no cover - callers check first


class _Play:
    """The loop step of :func:`game_spec`: put the drawn card where it was awaited,
    then play on until the engine needs another unseen card or the game is decided."""

    def __init__(self, rules: Rules, top: int, watch: Watch | None, reveal_after: int) -> None:
        self.rules = rules
        self.top = top
        self.watch = watch
        self.reveal_after = reveal_after
        self._key = (rules, top, watch, reveal_after)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Play) and self._key == other._key

    def __hash__(self) -> int:
        return hash(self._key)

    def __call__(self, state: State, card: int) -> State | Spec[Any]:
        a, b, battles, (player, index), wstate = state
        if player == "A":
            a = a[:index] + (card,) + a[index + 1:]
        else:
            b = b[:index] + (card,) + b[index + 1:]
        return self.advance(a, b, battles, wstate)

    def _over(self, winner: str, battles: int | None, wstate: Hashable) -> Spec[Any]:
        if self.watch is None:
            return done((winner, battles))
        return self.watch.end(wstate, winner, battles)

    def advance(self, a: Piles, b: Piles, battles: int, wstate: Hashable) -> State | Spec[Any]:
        """Play battles until a hidden card must be compared (a state) or the end (a spec)."""
        rules, top, watch = self.rules, self.top, self.watch
        cap = rules.max_battles
        while True:
            if not a or not b:
                return self._over("tie" if not a and not b else ("A" if a else "B"), battles, wstate)
            if cap is not None and battles >= cap:
                return self._over("capped", battles, wstate)
            hidden = _has_hidden(a) or _has_hidden(b)
            if not hidden and (watch is None or watch.passive(wstate)):
                winner, end, _, _ = _run(deque(a), deque(b), rules, top, None, battles=battles)
                return self._over(winner, None if winner == "cycle" else end, wstate)
            if hidden and battles >= self.reveal_after:
                # Long games: look at every card, so that cycles can be detected.
                return (a, b, battles, _first_hidden(a, b), wstate)
            da, db = deque(a), deque(b)
            try:
                result, _, wars = battle(da, db, rules, top)
            except NeedCard as need:
                return (a, b, battles, (need.player, need.index), wstate)
            a, b = tuple(da), tuple(db)
            battles += 1
            if len(result) > 1:  # the battle ended the game
                return self._over("tie" if result == "tie" else result[0], battles, wstate)
            if watch is not None and (a and b):
                after = watch.after(wstate, result, wars, battles)
                if isinstance(after, Spec):
                    return after
                wstate = after


def _check_rules(rules: Rules | str, what: str) -> Rules:
    rules = as_rules(rules, what)
    if not rules.deterministic:
        raise InvalidArgument(
            f"{what}: gather='shuffled' makes play random after the deal; exact results and deal "
            "search need a fixed gather order (winner_first, loser_first or as_played)"
        )
    return rules


def _start(step: _Play, a: Piles, b: Piles, start: Hashable) -> Spec[Any]:
    first = step.advance(a, b, 0, start)
    if isinstance(first, Spec):
        return first
    return loop(first, step)


def game_spec(
    cards: Cards[int],
    rules: Rules | str = STANDARD,
    watch: Watch | None = None,
    *,
    reveal_after: int | None = None,
) -> Spec[Any]:
    """The lazy draw program of a whole game on ``cards``: it draws a card only when the
    engine must compare it.  Finishes with ``(winner, battles)``, or as ``watch`` says.

    ``reveal_after`` (default: four times the deck size) is the battle after which
    every unseen card is looked at, so that an endless game is recognised.

    >>> from drawdsl import chances
    >>> chances(game_spec(war_deck(2, 2)), war_deck(2, 2))
    Distribution({('A', 2): 1/6, ('B', 2): 1/6, ('tie', 1): 1/3, ('tie', 3): 1/3})
    """
    rules = _check_rules(rules, "game_spec")
    if rules.detect_cycles and rules.max_battles is not None:
        raise InvalidArgument(
            "game_spec: with both a cap and cycle detection, whether a game counts as a cycle "
            "depends on its whole history; use literal_spec, or one of the two"
        )
    if len(cards) % 2:
        raise InvalidArgument(f"game_spec: a deck of {len(cards)} cards cannot be dealt into two equal hands")
    top = max(cards.distinct())
    half = len(cards) // 2
    step = _Play(rules, top, watch, 4 * len(cards) if reveal_after is None else reveal_after)
    return _start(step, (_HIDDEN,) * half, (_HIDDEN,) * half, watch.start if watch else None)


class _PlayDeal:
    """``deal -> (winner, battles)``: the function the literal program maps over deals."""

    def __init__(self, rules: Rules, top: int) -> None:
        self.rules = rules
        self.top = top

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _PlayDeal) and (self.rules, self.top) == (other.rules, other.top)

    def __hash__(self) -> int:
        return hash((self.rules, self.top))

    def __call__(self, cards: tuple[int, ...]) -> tuple[str, int | None]:
        game = play_game(*deal_hands(cards), self.rules, top=self.top)
        return game.winner, None if game.winner == "cycle" else game.battles


def literal_spec(cards: Cards[int], rules: Rules | str = STANDARD) -> Spec[tuple[str, int | None]]:
    """The literal program: deal the whole deck, then play it: ``draw_many(n).map(play)``.

    >>> from drawdsl import chances
    >>> chances(literal_spec(war_deck(2, 2)), war_deck(2, 2))
    Distribution({('A', 2): 1/6, ('B', 2): 1/6, ('tie', 1): 1/3, ('tie', 3): 1/3})
    """
    rules = _check_rules(rules, "literal_spec")
    return draw_many(len(cards)).map(_PlayDeal(rules, max(cards.distinct())))


def exact_outcomes(
    ranks: int = 3, suits: int = 4, rules: Rules | str = STANDARD, *, max_states: int = 5_000_000,
    progress: bool | Callable[[int, int], None] = False,
) -> Distribution[tuple[str, int | None]]:
    """The exact law of ``(winner, battles)`` over all deals of a small deck.

    ``progress``: as in :func:`drawdsl.chances` (True: a tqdm bar of the cards dealt so far).

    >>> exact_outcomes(2, 2)[("A", 2)]
    Fraction(1, 6)
    """
    rules = _check_rules(rules, "exact_outcomes")
    cards = war_deck(ranks, suits)
    if rules.detect_cycles and rules.max_battles is not None:
        return chances(literal_spec(cards, rules), cards, max_states=max_states, progress=progress)
    return chances(game_spec(cards, rules), cards, max_states=max_states, progress=progress)


@dataclass(frozen=True)
class ExactGame:
    """Exact full-game results on one small deck.

    ``outcomes`` maps ``(winner, battles)`` to its probability (``battles`` is None
    for an endless game).  In Jupyter it shows as a table of the exact chances, each
    with its decimal:

    >>> print(exact_game(2, 2)._repr_html_())  # doctest: +NORMALIZE_WHITESPACE
    <table><caption>War, 2 ranks x 2 suits: 1 face down, deuce beats ace: never, gather
    winner_first, short war: last_card, cycles detected</caption><tbody>
    <tr><th>P(A wins)</th><td>1/6 <small>(&asymp; 0.166667)</small></td></tr>
    <tr><th>P(B wins)</th><td>1/6 <small>(&asymp; 0.166667)</small></td></tr>
    <tr><th>P(tie)</th><td>2/3 <small>(&asymp; 0.666667)</small></td></tr>
    <tr><th>P(endless)</th><td>0</td></tr>
    <tr><th>mean battles (games that end)</th><td>2</td></tr></tbody></table>
    """

    ranks: int
    suits: int
    rules: Rules
    outcomes: Distribution[tuple[str, int | None]]

    def p(self, winner: str) -> Fraction:
        """The probability that the game finishes as ``winner`` ("A", "B", "tie", "cycle", "capped")."""
        return self.outcomes.probability(lambda o: o[0] == winner)

    @property
    def p_first_wins(self) -> Fraction:
        """P(A wins)."""
        return self.p("A")

    @property
    def p_second_wins(self) -> Fraction:
        """P(B wins)."""
        return self.p("B")

    @property
    def p_tie(self) -> Fraction:
        """P(both run out together)."""
        return self.p("tie")

    @property
    def p_cycle(self) -> Fraction:
        """P(the game never ends)."""
        return self.p("cycle")

    @property
    def p_capped(self) -> Fraction:
        """P(the game is stopped by ``max_battles``)."""
        return self.p("capped")

    @property
    def battles(self) -> dict[int, Fraction]:
        """battles -> P(the game ends (won, lost or tied) after exactly that many battles).

        >>> exact_game(2, 2).battles
        {1: Fraction(1, 3), 2: Fraction(1, 3), 3: Fraction(1, 3)}
        """
        law: dict[int, Fraction] = {}
        for (winner, battles), p in self.outcomes.items():
            if winner in ("A", "B", "tie") and battles is not None:
                law[battles] = law.get(battles, Fraction(0)) + p
        return dict(sorted(law.items()))

    @property
    def mean_battles(self) -> Fraction | None:
        """The expected number of battles of a game that ends (None if none does)."""
        return mean_of_law(self.battles)

    def battles_quantile(self, q: Fraction | float) -> int | None:
        """The least number of battles within which a fraction ``q`` of the games that end
        are over (``q = 1/2``: the median); None if no game ends.

        >>> exact_game(2, 2).battles_quantile(Fraction(1, 2))
        2
        """
        law = self.battles
        total = sum(law.values(), Fraction(0))
        if not total:
            return None
        if not 0 < q <= 1:
            raise InvalidArgument(f"battles_quantile: q must be in (0, 1], got {q}")
        running = Fraction(0)
        for k, p in law.items():
            running += p
            if running >= Fraction(q) * total:
                return k
        return max(law)  # pragma: no cover (q <= 1)

    def _repr_html_(self) -> str:
        """P(A wins), P(B wins), P(tie), P(endless) (P(capped) under a cap) and the mean length."""
        rows: list[tuple[str, object]] = [
            ("P(A wins)", self.p_first_wins),
            ("P(B wins)", self.p_second_wins),
            ("P(tie)", self.p_tie),
            ("P(endless)", self.p_cycle),
        ]
        if self.rules.max_battles is not None:
            rows.append(("P(capped)", self.p_capped))
        mean = self.mean_battles
        rows.append(("mean battles (games that end)", "no game ends" if mean is None else mean))
        caption = f"War, {self.ranks} ranks x {self.suits} suits: {self.rules.describe()}"
        return fields(rows, caption=caption)


def exact_game(ranks: int = 3, suits: int = 4, rules: Rules | str = STANDARD, *,
               max_states: int = 5_000_000, progress: bool | Callable[[int, int], None] = False) -> ExactGame:
    """Exact P(A wins), P(B wins), P(tie), P(cycle) and the law of the game's length.

    >>> result = exact_game(2, 4)
    >>> result.p_first_wins + result.p_second_wins + result.p_tie + result.p_cycle
    Fraction(1, 1)
    """
    rules = _check_rules(rules, "exact_game")
    outcomes = exact_outcomes(ranks, suits, rules, max_states=max_states, progress=progress)
    return ExactGame(ranks, suits, rules, outcomes)


def mean_of_law(law: dict[int, Fraction]) -> Fraction | None:
    """The mean of a (possibly incomplete) law of game lengths, over the games it holds;
    None when it holds none.

    >>> mean_of_law({1: Fraction(1, 4), 3: Fraction(1, 4)}), mean_of_law({})
    (Fraction(2, 1), None)
    """
    total = sum(law.values(), Fraction(0))
    if not total:
        return None
    return sum((k * p for k, p in law.items()), Fraction(0)) / total
