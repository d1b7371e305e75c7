"""Penney's game with a deck of cards (Humble-Nishiyama): exact odds by tricks, cards or first trick.

A deck of ``red`` red and ``black`` black cards is shuffled; each player names a colour
pattern (``"RRB"``, ``"BRR"``, ...).  Cards are turned one at a time; when a player's
pattern appears among the cards turned since the last trick, that player takes the
trick (those cards) and matching starts again.  Cards turned after the last trick
belong to nobody.  The winner has the most tricks (``count="tricks"``), the most
cards (``count="cards"``), or takes the first trick (``count="first"``, where a draw
means that no trick is taken at all); equal top scores are a draw.

The game is one draw program over ``Cards({"R": red, "B": black})``, and the odds
come from evaluating it with :func:`~drawdsl.chances` (one route).  For two players
:func:`card_spec` is a :func:`~drawdsl.scoring_loop` whose score is the first
player's lead and whose state is the automaton state of the current trick; counting
cards, each card goes into the loop's pot and the trick's taker takes it.  The exact
evaluator then keeps every lead of a state in one packed integer (one per multiplier
of the pot).  Three or more players, :func:`play_cards` and :func:`simulate_cards`
run a loop whose state is the number of cards turned, the automaton state of the
current trick and the score differences (plus the size of the current trick when
counting cards), which stops as soon as the result is settled: when the leader is
ahead by more than any other player can still gain, or when nobody can take the
current trick with the cards left (see :mod:`games.penney.reach`).  The tests check
both against every deal of small decks, and the two-player odds against a counter of
deals written by hand (``bench/deal_count.py``, the bench's peer).

>>> card_odds("RRB", "BRR", red=4, black=4)
CardOdds({'RRB': 6/35, 'BRR': 47/70}, draw=11/70)
>>> card_odds("RB", "BR", red=2, black=2, count="first")
CardOdds({'RB': 1/2, 'BR': 1/2}, draw=0)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar

from drawdsl import Cards, InvalidArgument, Spec, Tally, chances, done, scoring_loop, simulate
from drawdsl.html import fields, table
from drawdsl.sampling import BLOCK
from games.penney.best import Reply, ReplyTable
from games.penney.memo import memo_loop
from games.penney.patterns import Automaton, all_patterns, check_patterns
from games.penney.reach import Reach
from games.penney.table import HTML_ROWS

__all__ = [
    "COLOURS",
    "COUNTS",
    "card_deck",
    "card_step",
    "card_spec",
    "CardOdds",
    "card_odds",
    "CardMatchup",
    "CardMatchups",
    "card_table",
    "card_best_replies",
    "card_best_reply_table",
    "simulate_cards",
    "play_cards",
]

#: The two colours: red and black.
COLOURS = "RB"
#: What the winner has most of.
COUNTS = ("tricks", "cards", "first")


def _check_count(count: str) -> str:
    if count not in COUNTS:
        raise InvalidArgument(f"count must be one of {', '.join(COUNTS)}; got {count!r}")
    return count


def _check_cards(red: int, black: int) -> tuple[int, int]:
    for name, value in (("red", red), ("black", black)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"{name} must be an int, got {value!r}")
        if value < 0:
            raise InvalidArgument(f"{name} must be >= 0 cards, got {value}")
    if red + black == 0:
        raise InvalidArgument("the deck is empty (red=0, black=0); give it at least one card")
    return red, black


def card_deck(red: int = 26, black: int = 26) -> Cards[str]:
    """The deck as colours: ``red`` cards ``"R"`` and ``black`` cards ``"B"``.

    >>> card_deck(3, 0)
    Cards({'R': 3})
    """
    red, black = _check_cards(red, black)
    return Cards({colour: n for colour, n in (("R", red), ("B", black)) if n})


class _Deal:
    """The loop step of the card game; the state is ``(turned, automaton state, scores, size)``.

    ``scores`` are the players' scores minus the lowest one (only differences matter);
    ``size`` is the number of cards in the current trick, kept only when counting cards.
    The loop stops once the result is settled, judged by what the cards left allow
    (:class:`Reach`, for every split of them into reds and blacks the deck allows).
    """

    __slots__ = ("_moves", "_reach", "_total", "_count", "_ends", "_draw", "_info")

    def __init__(self, patterns: tuple[str, ...], red: int, black: int, count: str) -> None:
        machine = Automaton(patterns, COLOURS)
        self._moves = {state: machine.row(state) for state in machine.states}
        self._reach = Reach(machine, red, black)
        self._total = red + black
        self._count = count
        self._ends: tuple[Spec[str | None], ...] = tuple(done(p) for p in patterns)
        self._draw: Spec[str | None] = done(None)
        self._info: dict[tuple[str, int], tuple[Any, ...]] = {}

    def start(self) -> tuple[int, str, tuple[int, ...], int]:
        scores = () if self._count == "first" else (0,) * len(self._ends)
        return (0, "", scores, 0)

    def _bounds(self, where: str, left: int) -> tuple[Any, ...]:
        """For ``left`` cards to come from ``where``: the players who can still take this
        trick, whether it must end (only asked for the first trick), and the most tricks each
        can still take (tricks) or whether each can still take any trick at all (cards)."""
        reach = self._reach
        splits = reach.splits(left)
        players = range(len(self._ends))
        takers = tuple(i for i in players if any(reach.can_take(i, where, r, b) for r, b in splits))
        ends = self._count == "first" and all(reach.must_end(where, r, b) for r, b in splits)
        if self._count == "tricks":
            # Every trick holds a whole pattern; this one may also use the cards in ``where``.
            # (Counting the colours left instead is no tighter over all the splits, and slower.)
            most = tuple(
                (left + (len(where) if i in takers else 0)) // reach.length(i) for i in players
            )
        else:
            most = tuple(
                int(i in takers or any(reach.can_take(i, "", r, b) for r, b in splits)) for i in players
            )
        return takers, ends, most

    def __call__(self, state: tuple[int, str, tuple[int, ...], int], colour: str) -> Any:
        turned, where, scores, size = state
        turned += 1
        to = self._moves[where][colour]
        if type(to) is int:
            if self._count == "first":
                return self._ends[to]
            gain = 1 if self._count == "tricks" else size + 1
            raised = list(scores)
            raised[to] += gain
            low = min(raised)
            scores = tuple(x - low for x in raised)
            where, size = "", 0
        else:
            where = to  # type: ignore[assignment]
            if self._count == "cards":
                size += 1
        left = self._total - turned
        if left == 0:
            return self._result(scores)
        info = self._info.get((where, left))
        if info is None:
            info = self._info[(where, left)] = self._bounds(where, left)
        takers, ends, most = info
        if not takers:  # this trick never ends, so nobody takes another one
            return self._result(scores)
        if self._count == "first":
            if ends and len(takers) == 1:
                return self._ends[takers[0]]
        else:
            if self._count == "cards":  # at most every card of this trick and the ones to come
                most = tuple(m * (left + size) for m in most)
            settled = self._settled(scores, most)
            if settled is not None:
                return settled
        return (turned, where, scores, size)

    def _result(self, scores: tuple[int, ...]) -> Spec[str | None]:
        if not scores:
            return self._draw
        top = max(scores)
        leaders = [i for i, s in enumerate(scores) if s == top]
        return self._ends[leaders[0]] if len(leaders) == 1 else self._draw

    def _settled(self, scores: tuple[int, ...], most: tuple[int, ...]) -> Spec[str | None] | None:
        """The result, if no player can still change it (``most``: what each can still gain)."""
        if not any(most):
            return self._result(scores)
        top = max(scores)
        leaders = [i for i, s in enumerate(scores) if s == top]
        if len(leaders) == 1:
            i = leaders[0]
            if all(j == i or top > scores[j] + most[j] for j in range(len(scores))):
                return self._ends[i]
        return None


_OVER: tuple[Any, ...] = ("over",)  # no card left


class _TwoByCards:
    """The loop step for two players counting cards, with a smaller state.

    With ``d`` the first player's lead in cards and ``s`` the size of the current trick,
    the future only sees ``u = d + s`` (the lead if the first player takes this trick),
    ``v = d - s`` (if the second player does) and the sign of ``d`` (if nobody takes
    another trick).  What the cards still to come allow (:class:`Reach`, for every
    split of the cards left into reds and blacks that the deck allows) bounds what each
    of these can still change: ``u`` becomes None once the first player cannot take
    this trick any more, and is clamped where its exact value no longer matters (every
    larger ``u`` wins for the first player if they take this trick, every smaller one
    loses); likewise ``v``; the sign is forgotten (0) once the current trick must end.
    States with the same future then merge, which divides the states of a 52-card
    deal by up to three.  The state is ``(cards left, automaton state, u, v, sign of d)``;
    it leaves out how many of the cards left are red, so that the step and the spec of
    a state serve every deck they meet (the evaluator keeps the decks apart).
    """

    __slots__ = ("_moves", "_reach", "_ends", "_info", "_total")

    def __init__(self, patterns: tuple[str, ...], red: int, black: int) -> None:
        machine = Automaton(patterns, COLOURS)
        self._moves = {state: machine.row(state) for state in machine.states}
        self._reach = Reach(machine, red, black)
        self._total = red + black
        # indexed by the sign of the first player's lead: 0 draw, 1 first, -1 second
        self._ends: tuple[Spec[str | None], ...] = (done(None), done(patterns[0]), done(patterns[1]))
        self._info: dict[tuple[str, int], tuple[Any, ...]] = {}

    def _bounds(self, where: str, left: int) -> tuple[Any, ...]:
        """What ``left`` cards still to come allow from ``where``: whether each player can
        still take this trick, whether it must end, and the bounds beyond which ``u`` and
        ``v`` no longer matter."""
        if left == 0:
            return _OVER
        reach = self._reach
        splits = reach.splits(left)
        ja, jb = reach.need(0, where), reach.need(1, where)
        # What each player can gain after this trick: nothing if their pattern cannot be
        # completed with the cards left, else at most every card left after it.
        more_a = left - jb if any(reach.can_take(0, "", r, b) for r, b in splits) else 0
        more_b = left - ja if any(reach.can_take(1, "", r, b) for r, b in splits) else 0
        return (
            any(reach.can_take(0, where, r, b) for r, b in splits),
            any(reach.can_take(1, where, r, b) for r, b in splits),
            all(reach.must_end(where, r, b) for r, b in splits),
            -left,  # below: the first player loses even if they take this trick
            more_b - ja,  # above: the first player wins if they take this trick
            jb - more_a,  # below: the first player loses if the second takes this trick
            left,  # above: the first player wins even if the second takes this trick
        )

    def start(self) -> tuple[int, str, int | None, int | None, int]:
        return (self._total, "", 0, 0, 0)

    def __call__(self, state: tuple[int, str, int | None, int | None, int], colour: str) -> Any:
        left, where, u, v, sign = state
        left -= 1
        to = self._moves[where][colour]
        if type(to) is int:
            lead = u + 1 if to == 0 else v - 1  # type: ignore[operator]  # the trick's s cards and this one
            u = v = lead
            sign = (lead > 0) - (lead < 0)
            where = ""
        else:
            where = to  # type: ignore[assignment]
            if u is not None:
                u += 1
            if v is not None:
                v -= 1
        info = self._info.get((where, left))
        if info is None:
            info = self._info[(where, left)] = self._bounds(where, left)
        if info is _OVER:
            return self._ends[sign]
        can_a, can_b, ends, u_low, u_high, v_low, v_high = info
        if not can_a:
            u = None
        if not can_b:
            v = None
        if u is None and v is None:  # this trick never ends, so nobody takes another one
            return self._ends[sign]
        if (u is None or u > u_high) and (v is None or v > v_high) and (ends or sign > 0):
            return self._ends[1]
        if (u is None or u < u_low) and (v is None or v < v_low) and (ends or sign < 0):
            return self._ends[-1]
        if u is not None:
            u = min(max(u, u_low - 1), u_high + 1)
        if v is not None:
            v = min(max(v, v_low - 1), v_high + 1)
        if ends:
            sign = 0
        return (left, where, u, v, sign)


class _Lead:
    """Two players' deal as a scoring loop: the score is the first player's lead.

    The state is the automaton state of the current trick.  A trick scores 1 for the
    first player and -1 for the second; counting cards, each card goes into the pot
    instead, and the trick's taker takes it (``pot={0: 1, 1: -1}``, by the pattern's
    index): the state need not count the trick's cards.  The step never reads the
    lead, so the evaluator keeps every lead of a state in one packed integer (one per
    multiplier with a pot, see :func:`~drawdsl.scoring_loop`); the deck is played out
    (a trick left unfinished goes to nobody), or, counting the first trick, the loop
    stops with it (no trick at all: a lead of 0, a draw).

    >>> step = _Lead(("RB", "BR"), "cards")
    >>> step("R", "B")
    ('', 1, 0)
    >>> step("", "R")
    ('R', 1)
    """

    __slots__ = ("_moves", "_cards", "_first", "_game")

    #: Counting cards: the pot's takers (the patterns' indices) and their signs.
    POT: ClassVar[dict[int, int]] = {0: 1, 1: -1}

    def __init__(self, patterns: tuple[str, ...], count: str) -> None:
        machine = Automaton(patterns, COLOURS)
        self._moves = {state: machine.row(state) for state in machine.states}
        self._cards = count == "cards"
        self._first = count == "first"
        self._game = (patterns, count)

    def __eq__(self, other: object) -> bool:
        return type(other) is _Lead and other._game == self._game

    def __hash__(self) -> int:
        return hash(self._game)

    def __repr__(self) -> str:
        return f"_Lead{self._game!r}"

    def __call__(self, state: str, colour: str) -> tuple[str | None, int] | tuple[str, int, int]:
        to = self._moves[state][colour]
        if type(to) is int:
            if self._cards:
                return "", 1, to
            return (None if self._first else ""), (1 if to == 0 else -1)
        return to, int(self._cards)  # type: ignore[return-value]


class _Winner:
    """The result of a deal from the first player's lead: who wins, None for a draw."""

    __slots__ = ("_patterns",)

    def __init__(self, patterns: tuple[str, ...]) -> None:
        self._patterns = patterns

    def __call__(self, lead: int) -> str | None:
        return self._patterns[0] if lead > 0 else self._patterns[1] if lead < 0 else None

    def __eq__(self, other: object) -> bool:
        return type(other) is _Winner and other._patterns == self._patterns

    def __hash__(self) -> int:
        return hash(self._patterns)

    def __repr__(self) -> str:
        return f"_Winner({self._patterns!r})"


def card_step(
    patterns: Iterable[str], red: int = 26, black: int = 26, count: str = "tricks"
) -> tuple[Any, Any]:
    """The card game's loop: ``(start state, step)``, so that ``loop(start, step)`` is one deal.

    >>> from drawdsl import chances, loop
    >>> start, step = card_step(["RB", "BB"], red=1, black=2)
    >>> chances(loop(start, step), card_deck(1, 2))
    Distribution({'BB': 1/3, 'RB': 2/3})
    """
    pats = check_patterns(patterns, COLOURS)
    red, black = _check_cards(red, black)
    count = _check_count(count)
    if count == "cards" and len(pats) == 2:
        two = _TwoByCards(pats, red, black)
        return two.start(), two
    deal = _Deal(pats, red, black, count)
    return deal.start(), deal


def _stopping_spec(
    patterns: Iterable[str], red: int = 26, black: int = 26, count: str = "tricks"
) -> Spec[str | None]:
    """:func:`card_step`'s loop, which stops as soon as the result is settled: the draw
    program to sample and play (fewer cards turned per deal than the scoring loop)."""
    return memo_loop(*card_step(patterns, red, black, count))


def card_spec(
    patterns: Iterable[str], red: int = 26, black: int = 26, count: str = "tricks"
) -> Spec[str | None]:
    """The draw program of one deal: finishes with the winner's pattern, or None for a draw.

    Two players: a :func:`~drawdsl.scoring_loop` whose score is the first player's
    lead (:class:`_Lead`), so that every lead of a state is evaluated at once.  More
    players:
    :func:`card_step`'s loop written with :func:`~games.penney.memo.memo_loop`, which
    stops as soon as the result is settled (what :func:`play_cards` and
    :func:`simulate_cards` run, for any number of players).  Both give the same
    answers (the tests check them against each other and against every deal of small
    decks).

    >>> from drawdsl import chances
    >>> chances(card_spec(["RB", "BB"], red=1, black=2), card_deck(1, 2))
    Distribution({'BB': 1/3, 'RB': 2/3})
    """
    pats = check_patterns(patterns, COLOURS)
    red, black = _check_cards(red, black)
    if len(pats) == 2:
        _check_count(count)
        pot = _Lead.POT if count == "cards" else None
        return scoring_loop("", _Lead(pats, count), _Winner(pats), pot=pot)
    return _stopping_spec(pats, red, black, count)


@dataclass(frozen=True)
class CardOdds:
    """Each pattern's exact chance of winning a deal, and the chance of a draw; ``red``,
    ``black`` and ``count`` say which game (the deck and what the winner has most of).

    >>> result = card_odds("RRR", "BRR", red=3, black=3)
    >>> result.first, result.second, result.draw
    (Fraction(1, 20), Fraction(3, 5), Fraction(7, 20))

    In Jupyter it shows as a table of exact chances with their decimals:

    >>> print(result._repr_html_())  # doctest: +NORMALIZE_WHITESPACE
    <table><caption>RRR v BRR: 3 red + 3 black cards, most tricks wins</caption><tbody>
    <tr><th>P(RRR wins)</th><td>1/20 <small>(&asymp; 0.05)</small></td></tr>
    <tr><th>P(BRR wins)</th><td>3/5 <small>(&asymp; 0.6)</small></td></tr>
    <tr><th>P(draw)</th><td>7/20 <small>(&asymp; 0.35)</small></td></tr></tbody></table>
    """

    wins: dict[str, Fraction]
    draw: Fraction
    red: int = 26
    black: int = 26
    count: str = "tricks"

    @property
    def first(self) -> Fraction:
        """The chance that the first pattern named wins."""
        return next(iter(self.wins.values()))

    @property
    def second(self) -> Fraction:
        """The chance that the second pattern named wins."""
        return list(self.wins.values())[1]

    def __repr__(self) -> str:
        body = ", ".join(f"{pattern!r}: {p}" for pattern, p in self.wins.items())
        return f"CardOdds({{{body}}}, draw={self.draw})"

    def _repr_html_(self) -> str:
        """Each pattern's chance of winning and the chance of a draw (exact, with decimals);
        the patterns, the deck and the count in the caption."""
        rows: list[tuple[str, object]] = [(f"P({pattern} wins)", p) for pattern, p in self.wins.items()]
        rows.append(("P(draw)", self.draw))
        caption = f"{' v '.join(self.wins)}: {_game_text(self.red, self.black, self.count)}"
        return fields(rows, caption=caption)


#: How each count is said in captions.
_COUNT_TEXT = {"tricks": "most tricks wins", "cards": "most cards wins", "first": "first trick wins"}


def _game_text(red: int, black: int, count: str) -> str:
    """The deck and the count in words, for captions."""
    return f"{red} red + {black} black cards, {_COUNT_TEXT.get(count, count)}"


def _swap(pattern: str) -> str:
    return pattern.translate(_SWAP)


_SWAP = str.maketrans("RB", "BR")


def _solve(form: tuple[str, ...], red: int, black: int, count: str) -> tuple[tuple[Fraction, ...], Fraction]:
    """The exact chances of a game given in canonical form (a top-level function, so
    picklable): its draw program (:func:`card_spec`) evaluated by :func:`~drawdsl.chances`,
    for any number of players."""
    return _solve_by_program(form, red, black, count)


def _solve_by_program(
    form: tuple[str, ...], red: int, black: int, count: str
) -> tuple[tuple[Fraction, ...], Fraction]:
    """The exact chances of a game by evaluating its draw program (:func:`card_spec`) with
    :func:`~drawdsl.chances` (the one route: the bench times this one)."""
    dist = chances(card_spec(form, red, black, count), card_deck(red, black))
    if dist.failure:  # pragma: no cover - the loop always finishes before the deck runs out
        raise AssertionError(f"internal error: the card game {form} ran out of cards")
    return tuple(dist[p] for p in form), dist[None]


class _Book:
    """Card games solved once up to reordering the players (and swapping colours on an even deck)."""

    def __init__(self, red: int, black: int, count: str) -> None:
        self.red, self.black = _check_cards(red, black)
        self.count = _check_count(count)
        self.memo: dict[tuple[str, ...], tuple[tuple[Fraction, ...], Fraction]] = {}

    def canonical(self, patterns: Sequence[str]) -> tuple[tuple[str, ...], bool]:
        """The canonical game and whether its colours are swapped from ``patterns``."""
        form = tuple(sorted(patterns))
        if self.red == self.black:
            swapped = tuple(sorted(_swap(p) for p in patterns))
            if swapped < form:
                return swapped, True
        return form, False

    def solve_all(self, games: Iterable[Sequence[str]], executor: Executor | None = None) -> None:
        """Solve every game not solved yet (through ``executor`` when given)."""
        todo = sorted({self.canonical(g)[0] for g in games} - set(self.memo))
        if executor is None:
            results: Iterable[Any] = (_solve(f, self.red, self.black, self.count) for f in todo)
        else:
            n = len(todo)
            results = executor.map(_solve, todo, [self.red] * n, [self.black] * n, [self.count] * n)
        for form, result in zip(todo, results, strict=True):
            self.memo[form] = result

    def odds(self, patterns: tuple[str, ...]) -> CardOdds:
        form, swapped = self.canonical(patterns)
        if form not in self.memo:
            self.solve_all([form])
        probs, draw = self.memo[form]
        by_name = dict(zip(form, probs, strict=True))
        wins = {p: by_name[_swap(p) if swapped else p] for p in patterns}
        return CardOdds(wins, draw, self.red, self.black, self.count)


def card_odds(*patterns: str, red: int = 26, black: int = 26, count: str = "tricks") -> CardOdds:
    """The exact chance that each pattern wins a deal, and of a draw.

    ``count`` is ``"tricks"`` (most tricks wins), ``"cards"`` (most cards wins; cards
    turned after the last trick belong to nobody) or ``"first"`` (the first trick
    wins; a draw means no trick at all).  Any number of players, any pattern lengths.

    >>> card_odds("RRB", "BRR", "RBR", red=3, black=3, count="first")
    CardOdds({'RRB': 1/5, 'BRR': 9/20, 'RBR': 7/20}, draw=0)
    """
    pats = check_patterns(patterns, COLOURS)
    return _Book(red, black, count).odds(pats)


@dataclass(frozen=True)
class CardMatchup:
    """One ordered two-player card game: the chances of each side and of a draw.

    >>> row = card_table(2, red=3, black=3)[0]
    >>> print(row._repr_html_())  # doctest: +ELLIPSIS
    <table><caption>card matchup</caption><thead>...<th>P(draw)</th></tr></thead><tbody>
    <tr><td>BB</td><td>BR</td><td>1/5 <small>(&asymp; 0.2)</small></td>...<td>3/5 <small>...</tr>...
    """

    first: str
    second: str
    first_wins: Fraction
    second_wins: Fraction
    draw: Fraction

    def __repr__(self) -> str:
        return (
            f"CardMatchup({self.first!r}, {self.second!r}, "
            f"{self.first_wins}, {self.second_wins}, draw={self.draw})"
        )

    def _repr_html_(self) -> str:
        """The matchup as a one-row HTML table, the three chances exact with their decimals."""
        return _card_matchups_html([self], "card matchup")


class CardMatchups(list[CardMatchup]):
    """The rows of :func:`card_table`: a list, shown in Jupyter as one table (its first
    :data:`~games.penney.table.HTML_ROWS` rows when longer), with the deck and the count
    (attributes ``red``, ``black`` and ``counting``) in the caption.

    >>> html = card_table(2, red=3, black=3)._repr_html_()
    >>> html.count("<tr>"), "<td>BB</td><td>BR</td><td>1/5" in html
    (13, True)
    >>> html[:html.index("</caption>")]
    '<table><caption>12 ordered matchups: 3 red + 3 black cards, most tricks wins'
    """

    def __init__(
        self, rows: Iterable[CardMatchup] = (), red: int = 26, black: int = 26, count: str = "tricks"
    ) -> None:
        super().__init__(rows)
        self.red, self.black, self.counting = red, black, count

    def _repr_html_(self) -> str:
        """One row per matchup: both patterns and the three chances."""
        caption = f"{len(self)} ordered matchup{'s' if len(self) != 1 else ''}: "
        return _card_matchups_html(self, caption + _game_text(self.red, self.black, self.counting))


def _card_matchups_html(rows: Sequence[CardMatchup], caption: str) -> str:
    shown: list[list[object]] = [
        [m.first, m.second, m.first_wins, m.second_wins, m.draw] for m in rows[:HTML_ROWS]
    ]
    if len(rows) > HTML_ROWS:
        caption += f"; first {HTML_ROWS} shown"
        shown.append(["\u2026"] * 5)
    return table(["first", "second", "P(first wins)", "P(second wins)", "P(draw)"], shown, caption=caption)


def card_table(
    length: int = 3,
    red: int = 26,
    black: int = 26,
    count: str = "tricks",
    executor: Executor | None = None,
) -> CardMatchups:
    """Every ordered pair of distinct colour patterns of ``length`` cards, with exact chances.

    Each game is solved once up to the order of the players (and up to swapping the
    colours when ``red == black``); pass an ``executor`` (such as a
    ``concurrent.futures.ProcessPoolExecutor``) to solve them in parallel.

    >>> rows = card_table(2, red=3, black=3)
    >>> len(rows), rows[0]
    (12, CardMatchup('BB', 'BR', 1/5, 1/5, draw=3/5))
    """
    patterns = all_patterns(length, COLOURS)
    book = _Book(red, black, count)
    pairs = [(a, b) for a in sorted(patterns) for b in sorted(patterns) if a != b]
    book.solve_all(pairs, executor)
    rows = CardMatchups(red=red, black=black, count=count)
    for a, b in pairs:
        result = book.odds((a, b))
        rows.append(CardMatchup(a, b, result.wins[a], result.wins[b], result.draw))
    return rows


def card_best_reply_table(
    rows: Iterable[CardMatchup] | None = None, *, length: int = 3, red: int = 26, black: int = 26,
    count: str = "tricks",
) -> ReplyTable:
    """For every first choice, the replies with the highest chance of winning (from ``rows``,
    or from a fresh :func:`card_table`).

    >>> card_best_reply_table(length=2, red=3, black=3)["RR"]
    Reply(('BR',), 13/20)
    """
    if rows is None:
        rows = card_table(length, red, black, count)
    best: dict[str, tuple[Fraction, list[str]]] = {}
    for row in rows:
        top, replies = best.get(row.first, (Fraction(-1), []))
        if row.second_wins > top:
            best[row.first] = (row.second_wins, [row.second])
        elif row.second_wins == top:
            replies.append(row.second)
    return ReplyTable({first: Reply(tuple(replies), top) for first, (top, replies) in sorted(best.items())})


def card_best_replies(
    *opponents: str, length: int | None = None, red: int = 26, black: int = 26, count: str = "tricks"
) -> Reply:
    """Every colour pattern of ``length`` cards with the highest chance of beating ``opponents``.

    >>> card_best_replies("RRR", red=4, black=4)
    Reply(('BRR',), 27/35)
    """
    opponents = check_patterns(opponents, COLOURS, players=1)
    length = len(opponents[0]) if length is None else length
    book = _Book(red, black, count)
    candidates = [p for p in all_patterns(length, COLOURS) if p not in opponents]
    if not candidates:
        raise InvalidArgument(f"no colour pattern of length {length} is left once {opponents} are taken")
    book.solve_all([(*opponents, c) for c in candidates])
    scored = [(book.odds((*opponents, c)).wins[c], c) for c in candidates]
    top = max(p for p, _ in scored)
    return Reply(tuple(c for p, c in scored if p == top), top)


def play_cards(patterns: Iterable[str], deal: Iterable[str], count: str = "tricks") -> str | None:
    """The winner of one concrete deal (a string of colours), or None for a draw.

    >>> play_cards(["RRB", "BRR"], "RRBRRBBR"), play_cards(["RRB", "BRR"], "BRRBRRRB", "first")
    ('RRB', 'BRR')
    """
    from drawdsl import FAILED, play

    cards = "".join(deal)
    red, black = cards.count("R"), cards.count("B")
    result = play(_stopping_spec(patterns, red, black, count), cards)
    assert result is not FAILED
    return result  # type: ignore[return-value]


def simulate_cards(
    *patterns: str, red: int = 26, black: int = 26, count: str = "tricks", n: int = 10_000, seed: int = 0,
    executor: Executor | None = None, chunk: int = BLOCK,
) -> Tally[str | None]:
    """Play ``n`` random deals with a seeded generator: winner pattern (None: draw) -> count.

    As :func:`drawdsl.simulate`: the deals come in blocks of ``chunk``, each with its own
    seed, so the tally is the same with or without an ``executor`` (a process pool, or a
    Dask cluster's ``client.get_executor()``) and for any number of workers.

    >>> tally = simulate_cards("RRB", "BRR", red=4, black=4, n=2000, seed=1)
    >>> tally.n, sorted(tally, key=str)
    (2000, ['BRR', None, 'RRB'])
    """
    spec = _stopping_spec(patterns, red, black, count)
    return simulate(spec, card_deck(red, black), n=n, seed=seed, executor=executor, chunk=chunk)

