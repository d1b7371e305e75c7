"""Deal search: a concrete deal for a question about a game of War, or a proof that none exists.

Each question is the lazy game program of :mod:`games.war.exact_game` with a watcher
that fails a branch as soon as it cannot answer yes; :func:`drawdsl.witness` walks
the program depth first.  The program only draws the cards the engine compares, so
"the first turn is a war and A wins the second turn" looks at a handful of cards and
answers at once.  The cards the search never looked at can be anything: they are
filled in, and the whole deal is then played again by the engine to check the answer.

>>> found = search("war-then-win", ranks=13, suits=4)
>>> found.game.log[0][1] > 0, found.game.log[1][0]
(True, 'A')
>>> search("endless", ranks=3, suits=4) is None  # a proof: every 3 x 4 game ends
True
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

from drawdsl import Cards, InvalidArgument, Spec, done, fail, witness
from drawdsl.html import fields
from games.war.engine import STANDARD, Game, Hidden, play_game
from games.war.exact_game import Watch, _check_rules, _Play, game_spec
from games.war.rules import Rules
from games.war.sweep import deck as war_deck

__all__ = ["QUESTIONS", "Found", "search", "question_spec"]

#: The questions :func:`search` answers, with what they ask.
QUESTIONS = {
    "war-then-win": "the first turn is a war and A wins the second turn",
    "sweep": "A takes every battle and wins the game",
    "within": "the game ends (a win or a tie) within --battles battles",
    "endless": "the game never ends (a position comes back)",
}


@dataclass(frozen=True)
class _WarThenWin:
    start: Hashable = 0

    def after(self, state: Hashable, result: str, wars: int, battles: int) -> Hashable | Spec[Any]:
        if battles == 1:
            return 1 if wars else fail()
        return done(True) if result == "A" else fail()

    def end(self, state: Hashable, winner: str, battles: int | None) -> Spec[Any]:
        return done(True) if state == 1 and battles == 2 and winner == "A" else fail()

    def passive(self, state: Hashable) -> bool:
        return False


@dataclass(frozen=True)
class _Sweep:
    start: Hashable = None

    def after(self, state: Hashable, result: str, wars: int, battles: int) -> Hashable | Spec[Any]:
        return state if result == "A" else fail()

    def end(self, state: Hashable, winner: str, battles: int | None) -> Spec[Any]:
        return done(True) if winner == "A" else fail()

    def passive(self, state: Hashable) -> bool:
        return False


@dataclass(frozen=True)
class _Within:
    limit: int
    start: Hashable = None

    def after(self, state: Hashable, result: str, wars: int, battles: int) -> Hashable | Spec[Any]:
        return fail() if battles >= self.limit else state

    def end(self, state: Hashable, winner: str, battles: int | None) -> Spec[Any]:
        ok = winner in ("A", "B", "tie") and battles is not None and battles <= self.limit
        return done(True) if ok else fail()

    def passive(self, state: Hashable) -> bool:
        return False


@dataclass(frozen=True)
class _Endless:
    start: Hashable = None

    def after(self, state: Hashable, result: str, wars: int, battles: int) -> Hashable | Spec[Any]:
        return state

    def end(self, state: Hashable, winner: str, battles: int | None) -> Spec[Any]:
        return done(True) if winner == "cycle" else fail()

    def passive(self, state: Hashable) -> bool:
        return True


def _watch(question: str, battles: int | None) -> Watch:
    if question not in QUESTIONS:
        raise InvalidArgument(f"unknown question {question!r}; choose one of {', '.join(QUESTIONS)}")
    if question == "within":
        if battles is None:
            raise InvalidArgument("the question 'within' needs a number of battles (battles=K, --battles K)")
        if isinstance(battles, bool) or not isinstance(battles, int) or battles < 1:
            raise InvalidArgument(f"battles must be a positive int, got {battles!r}")
        return _Within(battles)
    if battles is not None:
        raise InvalidArgument(f"battles=... only applies to the question 'within', not {question!r}")
    watches: dict[str, Watch] = {"war-then-win": _WarThenWin(), "sweep": _Sweep(), "endless": _Endless()}
    return watches[question]


def question_spec(question: str, cards: Cards[int], rules: Rules = STANDARD, *,
                  battles: int | None = None) -> Spec[bool]:
    """The draw program of a question: it finishes with True exactly on the deals that answer yes.

    >>> from drawdsl import chance
    >>> chance(question_spec("sweep", war_deck(2, 2)), war_deck(2, 2))
    Fraction(1, 6)
    """
    return game_spec(cards, rules, _watch(question, battles))


def _holds(question: str, game: Game, battles: int | None) -> bool:
    """Does the full game answer the question yes? (checks a found deal)."""
    log = game.log or ()
    if question == "war-then-win":
        return len(log) >= 2 and log[0][1] > 0 and log[1][0] in ("A", "A wins")
    if question == "sweep":
        return game.winner == "A" and all(result in ("A", "A wins") for result, _ in log)
    if question == "within":
        return game.winner in ("A", "B", "tie") and battles is not None and game.battles <= battles
    return game.winner == "cycle"


@dataclass(frozen=True)
class Found:
    """A deal answering a question: both hands (tops first) and the game they give.

    ``looked_at`` is how many cards the search had to look at; the others were
    filled in and change nothing.  In Jupyter it shows as a table:

    >>> print(search("sweep", ranks=2, suits=2)._repr_html_())  # doctest: +NORMALIZE_WHITESPACE
    <table><caption>Deal search: A takes every battle and wins the game</caption><tbody>
    <tr><th>question</th><td>sweep</td></tr>
    <tr><th>A&#x27;s hand (top first)</th><td>3 3</td></tr>
    <tr><th>B&#x27;s hand (top first)</th><td>2 2</td></tr>
    <tr><th>winner</th><td>A</td></tr>
    <tr><th>battles</th><td>2</td></tr>
    <tr><th>wars</th><td>0</td></tr>
    <tr><th>cards looked at</th><td>4 of 4</td></tr></tbody></table>
    """

    question: str
    hand_a: tuple[int, ...]
    hand_b: tuple[int, ...]
    game: Game
    looked_at: int

    def _repr_html_(self) -> str:
        """The question, both hands and how the game went, as an HTML table (for Jupyter)."""
        rows: list[tuple[str, object]] = [
            ("question", self.question),
            ("A's hand (top first)", " ".join(map(str, self.hand_a))),
            ("B's hand (top first)", " ".join(map(str, self.hand_b))),
            ("winner", self.game.winner),
            ("battles", self.game.battles),
            ("wars", self.game.wars),
            ("cards looked at", f"{self.looked_at} of {len(self.hand_a) + len(self.hand_b)}"),
        ]
        return fields(rows, caption=f"Deal search: {QUESTIONS.get(self.question, self.question)}")


def _deal_from(step: _Play, cards: Cards[int], start: Hashable, seen: tuple[int, ...]
               ) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Replay the program on the cards the search saw, with every unseen card tagged by
    its place in the deal, to learn where each seen card lies; fill the rest in."""
    half = len(cards) // 2
    a = tuple(Hidden(("A", i)) for i in range(half))
    b = tuple(Hidden(("B", i)) for i in range(half))
    state: Any = step.advance(a, b, 0, start)
    placed: dict[Hashable, int] = {}
    for card in seen:
        pa, pb, _, (player, index), _ = state
        hidden = (pa if player == "A" else pb)[index]
        placed[hidden.tag] = card
        state = step(state, card)
    spare = Counter(cards.counts())
    spare.subtract(placed.values())
    filler = iter(sorted(spare.elements()))
    hand_a = tuple(placed[("A", i)] if ("A", i) in placed else next(filler) for i in range(half))
    hand_b = tuple(placed[("B", i)] if ("B", i) in placed else next(filler) for i in range(half))
    return hand_a, hand_b


def search(
    question: str,
    ranks: int = 13,
    suits: int = 4,
    rules: Rules = STANDARD,
    *,
    battles: int | None = None,
    max_states: int = 5_000_000,
) -> Found | None:
    """A deal of ``ranks`` x ``suits`` cards answering ``question`` yes, or None: a proof
    that no deal does (the search is exhaustive).  See :data:`QUESTIONS`.

    >>> found = search("sweep", ranks=3, suits=2)
    >>> found.hand_a, found.hand_b, found.game.winner
    ((2, 3, 4), (2, 4, 3), 'A')
    """
    _check_rules(rules, "search")
    watch = _watch(question, battles)
    cards = war_deck(ranks, suits)
    spec = game_spec(cards, rules, watch)
    hit = witness(spec, cards, max_states=max_states)
    if hit is None:
        return None
    top = max(cards.distinct())
    step = _Play(rules, top, watch, 4 * len(cards))
    hand_a, hand_b = _deal_from(step, cards, watch.start, hit.deal)
    game = play_game(hand_a, hand_b, rules, top=top, log=True)
    if not _holds(question, game, battles):  # pragma: no cover - would be an engine bug
        raise AssertionError(f"search: the deal {hand_a} / {hand_b} does not answer {question!r}: {game}")
    return Found(question, hand_a, hand_b, game, len(hit.deal))
