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

Large decks can be out of reach of the exhaustive search (it stops at ``max_states``).
With ``samples=N`` it then plays N random deals (NumPy, the ``sim`` extra) and returns
the first that answers yes, or raises :class:`SearchGaveUp`, which says how rare such
deals must be.  The exhaustive search finds no endless 10 x 2 deal within 20,000
states; sampling does:

>>> found = search("endless", ranks=10, suits=2, max_states=20_000, samples=100_000)
>>> found.method, found.game.winner
('sampled', 'cycle')
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

from drawdsl import Cards, InvalidArgument, MissingExtra, Spec, StateLimitExceeded, done, fail, witness
from drawdsl.extras import require
from drawdsl.html import fields
from games.war.engine import STANDARD, Game, Hidden, play_game
from games.war.exact_game import Watch, _check_rules, _Play, game_spec
from games.war.rules import OUTCOMES, Rules
from games.war.sweep import deck as war_deck

__all__ = ["QUESTIONS", "Found", "SearchGaveUp", "search", "question_spec"]

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


def question_spec(question: str, cards: Cards[int], rules: Rules | str = STANDARD, *,
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
    filled in and change nothing.  ``method`` is ``"exhaustive"`` (the depth-first
    search) or ``"sampled"`` (a random deal, see ``samples``; it looked at every card).
    In Jupyter it shows as a table:

    >>> print(search("sweep", ranks=2, suits=2)._repr_html_())  # doctest: +NORMALIZE_WHITESPACE
    <table><caption>Deal search: A takes every battle and wins the game</caption><tbody>
    <tr><th>question</th><td>sweep</td></tr>
    <tr><th>A&#x27;s hand (top first)</th><td>3 3</td></tr>
    <tr><th>B&#x27;s hand (top first)</th><td>2 2</td></tr>
    <tr><th>winner</th><td>A</td></tr>
    <tr><th>battles</th><td>2</td></tr>
    <tr><th>wars</th><td>0</td></tr>
    <tr><th>cards looked at</th><td>4 of 4</td></tr>
    <tr><th>found by</th><td>exhaustive search</td></tr></tbody></table>
    """

    question: str
    hand_a: tuple[int, ...]
    hand_b: tuple[int, ...]
    game: Game
    looked_at: int
    method: str = "exhaustive"

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
            ("found by", f"{self.method} search"),
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


class SearchGaveUp(StateLimitExceeded):
    """Neither a deal nor a proof: the exhaustive search stopped at ``max_states`` and
    none of the ``samples`` random deals (``seed``) answers the question yes.

    So if such deals exist, they are rarer than about 3 in ``samples`` (the 95% bound
    when none of ``samples`` draws is a hit); raise ``max_states`` or ``samples``.
    """

    def __init__(self, message: str, *, question: str, max_states: int, samples: int, seed: int) -> None:
        super().__init__(message)
        self.question = question
        self.max_states = max_states
        self.samples = samples
        self.seed = seed


#: The most random deals played at a time when sampling (16 blocks of the simulator).
SAMPLE_BATCH = 16_384


def _maybe(question: str, winner: str, battles: int, wars: int, half: int, limit: int | None) -> bool:
    """A cheap necessary condition on a game's record for the question (the game's log
    then decides): sweeps end within ``half`` battles, as every battle costs B a card."""
    if question == "endless":
        return winner == "cycle"
    if question == "within":
        return winner in ("A", "B", "tie") and limit is not None and battles <= limit
    if question == "sweep":
        return winner == "A" and battles <= half
    return wars > 0 and battles >= 2  # war-then-win


def _sample(question: str, ranks: int, suits: int, rules: Rules, battles: int | None,
            samples: int, seed: int) -> Found | None:
    """The first of ``samples`` random deals (the simulator's deals for ``seed``) that
    answers the question yes, or None."""
    from games.war.batch import play_batch
    from games.war.simulate import BLOCK, deal_block

    top = ranks + 1
    half = ranks * suits // 2
    first, size = 0, BLOCK  # batches grow from one block: a common answer comes at once
    while first < samples:
        count = min(size, samples - first)
        blocks = range(first // BLOCK, (first + count + BLOCK - 1) // BLOCK)
        decks = [row for b in blocks for row in deal_block(seed, b, ranks, suits)[0].tolist()][:count]
        records = play_batch(decks, rules, top=top)
        for row, code, length, wars in zip(decks, records.winner.tolist(), records.battles.tolist(),
                                           records.wars.tolist(), strict=True):
            if not _maybe(question, OUTCOMES[code], length, wars, half, battles):
                continue
            hand_a, hand_b = tuple(row[0::2]), tuple(row[1::2])
            game = play_game(hand_a, hand_b, rules, top=top, log=True)
            if _holds(question, game, battles):
                return Found(question, hand_a, hand_b, game, len(row), "sampled")
        first += count
        size = min(2 * size, SAMPLE_BATCH)
    return None


def search(
    question: str,
    ranks: int = 13,
    suits: int = 4,
    rules: Rules | str = STANDARD,
    *,
    battles: int | None = None,
    max_states: int = 5_000_000,
    samples: int = 0,
    seed: int = 0,
) -> Found | None:
    """A deal of ``ranks`` x ``suits`` cards answering ``question`` yes, or None: a proof
    that no deal does (the search is exhaustive).  See :data:`QUESTIONS`.

    If the exhaustive search stops at ``max_states`` (``StateLimitExceeded``), and
    ``samples`` is positive, ``samples`` random deals (the same deals as
    ``simulate(samples, rules, seed=seed)``) are played, and the first that answers yes
    is returned (``method="sampled"``); if none does, :class:`SearchGaveUp` is raised.

    >>> found = search("sweep", ranks=3, suits=2)
    >>> found.hand_a, found.hand_b, found.game.winner
    ((2, 3, 4), (2, 4, 3), 'A')
    """
    rules = _check_rules(rules, "search")
    watch = _watch(question, battles)
    if question == "endless" and not rules.detect_cycles:
        raise InvalidArgument(
            "search: the question 'endless' needs cycle detection; with detect_cycles=False an "
            f"endless game just stops at max_battles={rules.max_battles} ('capped'); pass "
            "rules.but(detect_cycles=True, max_battles=None)"
        )
    for name, value in (("samples", samples), ("seed", seed)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise InvalidArgument(f"search: {name} must be an int >= 0, got {value!r}")
    cards = war_deck(ranks, suits)
    spec = game_spec(cards, rules, watch)
    try:
        hit = witness(spec, cards, max_states=max_states)
    except StateLimitExceeded as err:
        if not samples:
            raise StateLimitExceeded(
                f"war search: no deal found and no proof that none exists: the exhaustive search "
                f"stopped at max_states={max_states:,}; raise max_states (--max-states), or play "
                "random deals with samples=N (--samples N)"
            ) from err
        try:
            require("numpy", "sim", "sampling")
        except MissingExtra:
            raise MissingExtra(
                f"war search: the exhaustive search stopped at max_states={max_states:,}, and sampling "
                'random deals needs numpy, which is not installed; pip install "drawdsl[sim]" (or pip '
                "install numpy), or pass samples=0 (--samples 0) to stop at the exhaustive search"
            ) from err
        found = _sample(question, ranks, suits, rules, battles, samples, seed)
        if found is None:
            ask = QUESTIONS[question].replace("--battles", str(battles))
            raise SearchGaveUp(
                f"war search: no deal found where {ask}, and no proof that none exists: the "
                f"exhaustive search stopped at max_states={max_states:,}, and none of {samples:,} "
                f"random deals (seed {seed}) answers yes, so such deals, if any, are fewer than "
                f"3 in {samples:,} (95% confidence); raise max_states or samples to search further",
                question=question, max_states=max_states, samples=samples, seed=seed,
            ) from err
        return found
    if hit is None:
        return None
    top = max(cards.distinct())
    step = _Play(rules, top, watch, 4 * len(cards))
    hand_a, hand_b = _deal_from(step, cards, watch.start, hit.deal)
    game = play_game(hand_a, hand_b, rules, top=top, log=True)
    if not _holds(question, game, battles):  # pragma: no cover - would be an engine bug
        raise AssertionError(f"search: the deal {hand_a} / {hand_b} does not answer {question!r}: {game}")
    return Found(question, hand_a, hand_b, game, len(hit.deal))
