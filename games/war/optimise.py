"""The shortest or the longest game in which a situation happens, and what was proved about it.

:func:`optimise` looks for the deal whose game, among the games that end (a win or a
tie) and in which the situation (:mod:`games.war.situations`) happens, is the shortest
or the longest, counted in battles or in turns.  It gives the best deal it found and
the range ``[low, high]`` in which the optimum is *proved* to lie:

* a local search over deals (swap two cards, keep the swap when the game is no worse,
  kicks from the best deal and fresh random deals; seeded) finds good deals;
* exhaustive searches of the lazy game program (the deal is drawn card by card as
  the engine compares cards, :mod:`games.war.exact_game`, walked by
  :func:`drawdsl.witness`) prove bounds.  For the shortest game: "no deal where the
  situation happens ends within n battles", for n = 1, 2, ... (iterative
  deepening: each search is finite, as games are cut at n battles); the first n with
  a deal is the optimum.  For the longest game: "no deal where it happens ends after
  n battles or more", searched over whole games, which only finishes on small decks,
  or when the situation itself bounds the game (``the game ends within N battles``)
  or the rules cap it.

Each exhaustive search stops at ``max_states`` remembered states; then the bound
proved so far is reported, in numbers (``low``, ``high``) and in words (``proved``).
Endless and capped games have no length: they never count.

>>> best = optimise("B holds >= 6 cards after battle 2 and A wins", "shortest", ranks=4, suits=2)
>>> best.deal, best.length, best.low, best.high, best.status
((2, 4, 2, 5, 3, 3, 5, 4), 5, 5, 5, 'optimal')
>>> best.proved
'optimal: no deal where it happens ends within 4 battles (exhaustive search)'
>>> optimise("A wins", "longest", ranks=4, suits=2).length
14
"""

from __future__ import annotations

import random
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from drawdsl import InvalidArgument, Spec, StateLimitExceeded, done, fail, loop, witness
from games.war.engine import STANDARD, Hidden, NeedCard, _run, battle, deal_hands
from games.war.exact_game import _first_hidden, _has_hidden, _Play
from games.war.rules import Rules, as_rules
from games.war.search import _deal_from
from games.war.situations import (
    And,
    Ends,
    History,
    Holds,
    Not,
    Or,
    Situation,
    Then,
    Turn,
    War,
    _decided,
    _moments,
    history,
    holds,
    parse,
)
from games.war.sweep import deck as war_deck

__all__ = ["GOALS", "MEASURES", "Optimum", "optimise", "game_length", "optimum_dict", "optimum_text"]

#: What :func:`optimise` can look for.
GOALS = ("shortest", "longest")
#: How a game's length is counted: battles, or turns (comparisons of face-up cards: a
#: battle with w war rounds has w + 1 turns).
MEASURES = ("battles", "turns")

_ENDED = ("A", "B", "tie")
_START = History((), (), (), (), (), None)


# --------------------------------------------------------------------------- one deal


def game_length(situation: Situation | str, deal: tuple[int, ...], rules: Rules | str = STANDARD, *,
                measure: str = "battles", top: int | None = None) -> int | None:
    """The length of the deal's game when the game ends and the situation happens in it, else None.

    >>> game_length("A wins", (4, 2, 3, 3, 2, 4)), game_length("B wins", (4, 2, 3, 3, 2, 4))
    (2, None)
    >>> game_length("A wins", (4, 2, 3, 3, 2, 4), measure="turns")
    3
    """
    s = parse(situation)
    rules = as_rules(rules, "game_length")
    _choose(measure, MEASURES, "measure")
    h = history(*deal_hands(deal), rules, top=top)
    if h.winner is None or not holds(s, h):
        return None
    return len(h.wars) if measure == "battles" else len(h.turns)


# --------------------------------------------------------------------------- what the situation says


def _earliest(s: Situation) -> tuple[int, int, bool]:
    """A lower bound on any moment of ``s``: ``(battle, turn, at_end)``, the battle the moment
    lies in and the moment (a turn number; 0 is the start), and whether the moment is always
    its battle's last turn (a battle's atoms, the end, a decisive turn)."""
    if isinstance(s, Turn):
        return (1, s.k or 1, s.result != "tie")
    if isinstance(s, War):
        k = s.k or 1
        return (k, k + s.depth, True)  # battle k has s.depth + 1 turns, those before one at least
    if isinstance(s, Holds):
        return (s.k or 1, s.k or 1, True)
    if isinstance(s, Ends):
        return (s.n, s.n, True) if s.how == "after" else (1, 1, True)
    if isinstance(s, Not):
        return (0, 0, True)
    if not isinstance(s, (And, Or, Then)):
        return (1, 1, True)  # Wins: the end
    left, right = _earliest(s.left), _earliest(s.right)
    if isinstance(s, Or):
        return (min(left[0], right[0]), min(left[1], right[1]), left[2] and right[2])
    if isinstance(s, And):  # a moment of one side, once the other has held
        return (max(left[0], right[0]), max(left[1], right[1]), left[2] and right[2])
    # Then: a moment of the right side after a moment of the left; after a battle's last
    # turn comes the next battle
    return (max(right[0], left[0] + left[2]), max(right[1], left[1] + 1), right[2])


def _floor(s: Situation) -> tuple[int, int]:
    """``(battles, turns)`` every game where ``s`` happens lasts at least.

    >>> _floor(parse("battle 1 has a war then A wins")), _floor(parse("turn 3 tie"))
    ((2, 3), (1, 3))
    """
    battles, turns, _ = _earliest(s)
    return (max(1, battles), max(1, battles, turns))


def _ceiling(s: Situation) -> int | None:
    """The battles within which every game where ``s`` happens ends, when ``s`` says so."""
    if isinstance(s, Ends):
        return s.n
    if isinstance(s, (And, Then)):
        bounds = [b for b in (_ceiling(s.left), _ceiling(s.right)) if b is not None]
        return min(bounds) if bounds else None
    if isinstance(s, Or):
        left, right = _ceiling(s.left), _ceiling(s.right)
        return None if left is None or right is None else max(left, right)
    return None


def _turns_to_end(cards: int, rules: Rules, battles: int = 1) -> int:
    """The fewest turns in which a player holding ``cards`` can lose the game, in ``battles``
    battles or more.  A battle's first turn takes one card from each pile, a war round at
    most ``face_down + 1``, so ``t`` turns over ``b`` battles take at most
    ``t (face_down + 1) - b face_down``; the loser is left with no card, or
    (``short_war="lose"``) with at most ``face_down``.

    >>> _turns_to_end(26, Rules()), _turns_to_end(26, Rules(short_war="lose")), _turns_to_end(26, Rules(), 3)
    (14, 13, 15)
    """
    down = rules.face_down
    left = down if rules.short_war == "lose" else 0
    return max(1, battles, -(-(cards - left + battles * down) // (down + 1)))


# --------------------------------------------------------------------------- the lazy program


#: The judge's state: (turns so far, the history so far; None once the situation is sure to happen).
Judge = tuple[int, History | None]
#: A deal and its game's length.
Best = tuple[tuple[int, ...], int]


class _Lengths(_Play):
    """Loop step of the lazy game program (as :func:`games.war.exact_game.game_spec`) that
    judges the situation battle by battle and finishes with the game's length; it fails
    when the situation cannot happen, when the game cannot end, or (``most``) when the game
    is sure to be longer than ``most``."""

    def __init__(self, situation: Situation, rules: Rules, top: int, measure: str, most: int | None,
                 ceiling: int | None, reveal_after: int) -> None:
        super().__init__(rules, top, None, reveal_after)
        self.situation = situation
        self.measure = measure
        self.most = most
        self.ceiling = ceiling
        self._judge = (rules, top, reveal_after, situation, measure, most, ceiling)
        #: Set when a game was cut for being longer than ``most``: a search that found
        #: nothing and cut nothing has seen every game.
        self.cut = False

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Lengths) and self._judge == other._judge

    def __hash__(self) -> int:
        return hash(self._judge)

    def length(self, battles: int, turns: int) -> int:
        return battles if self.measure == "battles" else turns

    def too_long(self, a: tuple[Any, ...], b: tuple[Any, ...], battles: int, turns: int) -> bool:
        """Between battles, the game going on: is it sure to end too late (or not to end)?"""
        if self.ceiling is not None and battles >= self.ceiling:
            return True
        if self.most is None:
            return False
        if self.measure == "battles":
            cut = battles + 1 > self.most
        else:
            cut = turns + _turns_to_end(min(len(a), len(b)), self.rules) > self.most
        self.cut = self.cut or cut
        return cut

    def finish(self, battles: int, turns: int, past: History | None) -> Spec[Any]:
        """The game ended: its length if the situation happened and it is not too long."""
        length = self.length(battles, turns)
        if self.most is not None and length > self.most:
            self.cut = True
            return fail()
        if past is not None and not _moments(self.situation, past):
            return fail()
        return done(length)

    def advance(self, a: tuple[Any, ...], b: tuple[Any, ...], battles: int, wstate: Any) -> Any:
        """Play battles until a hidden card must be compared (a state) or the end (a spec)."""
        turns, past = wstate
        rules, top = self.rules, self.top
        if past is not None and battles == 0:
            verdict = _decided(self.situation, past, 0)
            if verdict is False:
                return fail()
            past = None if verdict else past
        while True:
            hidden = _has_hidden(a) or _has_hidden(b)
            if not hidden:
                return self.play_out(a, b, battles, turns, past)
            if battles >= self.reveal_after:
                return (a, b, battles, _first_hidden(a, b), (turns, past))
            da, db = deque(a), deque(b)
            seen: list[str] = []
            try:
                result, _, wars = battle(da, db, rules, top, turns=seen)
            except NeedCard as need:
                return (a, b, battles, (need.player, need.index), (turns, past))
            a, b = tuple(da), tuple(db)
            battles += 1
            turns += len(seen)
            if past is not None:
                past = History(past.turns + tuple(seen), past.wars + (wars,), past.last_turn + (
                    len(past.turns) + len(seen),), past.a_cards + (len(a),), past.b_cards + (len(b),), None)
            if len(result) > 1 or not a or not b:  # the game is over
                winner = ("tie" if result == "tie" else result[0]) if len(result) > 1 else (
                    "tie" if not a and not b else ("A" if a else "B"))
                return self.finish(battles, turns, None if past is None else _won(past, winner))
            if self.too_long(a, b, battles, turns):
                return fail()
            if past is not None:
                verdict = _decided(self.situation, past, 0)
                if verdict is False:
                    return fail()
                past = None if verdict else past
            if self.measure == "battles":
                turns = 0  # not needed: equal positions merge

    def play_out(self, a: tuple[Any, ...], b: tuple[Any, ...], battles: int, turns: int,
                 past: History | None) -> Spec[Any]:
        """Every card is known: the engine plays the rest of the game (cycles detected)."""
        winner, end, _, wars = _run(deque(a), deque(b), self.rules, self.top, None, battles=battles)
        if winner not in _ENDED or (self.ceiling is not None and end > self.ceiling):
            return fail()
        if past is not None:
            # the game ends: play it again battle by battle for the history
            da, db = deque(a), deque(b)
            seen, war_list, last, sizes_a, sizes_b = list(past.turns), list(past.wars), list(
                past.last_turn), list(past.a_cards), list(past.b_cards)
            while len(war_list) < end:
                _, _, w = battle(da, db, self.rules, self.top, turns=seen)
                war_list.append(w)
                last.append(len(seen))
                sizes_a.append(len(da))
                sizes_b.append(len(db))
            past = History(tuple(seen), tuple(war_list), tuple(last), tuple(sizes_a), tuple(sizes_b), winner)
        return self.finish(end, turns + (end - battles) + wars, past)


def _won(past: History, winner: str) -> History:
    return History(past.turns, past.wars, past.last_turn, past.a_cards, past.b_cards, winner)


def _program(step: _Lengths, half: int) -> Spec[int]:
    hidden = (Hidden(),) * half
    first = step.advance(hidden, hidden, 0, (0, _START))
    return first if isinstance(first, Spec) else loop(first, step)


# --------------------------------------------------------------------------- the answer


@dataclass(frozen=True)
class Optimum:
    """The answer of :func:`optimise`.

    ``deal``: the best deal found (dealing order, as ``war replay`` reads it), or None;
    ``length``: its game's length in ``measure``.  The optimum is proved to lie in
    ``[low, high]`` (None: no bound proved on that side); for ``"shortest"``
    ``high`` is ``length``, for ``"longest"`` ``low`` is.  ``exists``: False when it was
    proved that no game that ends has the situation.  ``proved``: all of that in words.
    ``tries``, ``seed``: the local search; ``max_states``: the bound of each exhaustive search.
    """

    situation: Situation
    goal: str
    measure: str
    deal: tuple[int, ...] | None
    length: int | None
    low: int | None
    high: int | None
    exists: bool | None
    proved: str
    tries: int
    seed: int
    max_states: int

    @property
    def optimal(self) -> bool:
        """True when ``length`` is proved to be the optimum."""
        return self.length is not None and self.low == self.high == self.length

    @property
    def status(self) -> str:
        """``"optimal"``, ``"bounded"`` (a deal, the optimum not proved), ``"none"`` (proved: no
        game that ends has the situation) or ``"not found"``."""
        if self.optimal:
            return "optimal"
        if self.exists is False:
            return "none"
        return "bounded" if self.deal is not None else "not found"


# --------------------------------------------------------------------------- the search


def _choose(value: object, allowed: tuple[str, ...], name: str) -> None:
    if value not in allowed:
        choices = ", ".join(map(repr, allowed))
        raise InvalidArgument(f"optimise: {name} must be one of {choices}, got {value!r}")


def _count(value: object, name: str, low: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise InvalidArgument(f"optimise: {name} must be an int >= {low}, got {value!r}")


class _Search:
    """One optimisation: the local search and the exhaustive searches share the deck and the rules."""

    def __init__(self, s: Situation, goal: str, measure: str, rules: Rules, ranks: int, suits: int,
                 max_states: int) -> None:
        self.s = s
        self.goal = goal
        self.measure = measure
        self.rules = rules
        self.cards = war_deck(ranks, suits)
        self.top = ranks + 1
        self.half = len(self.cards) // 2
        self.max_states = max_states
        ceilings = [c for c in (_ceiling(s), rules.max_battles) if c is not None]
        self.ceiling = min(ceilings) if ceilings else None  # battles
        self.memo: dict[tuple[int, ...], int | None] = {}
        self.cut = False

    def better(self, x: int, y: int) -> bool:
        return x < y if self.goal == "shortest" else x > y

    def length(self, deal: tuple[int, ...]) -> int | None:
        if deal not in self.memo:
            self.memo[deal] = game_length(self.s, deal, self.rules, measure=self.measure, top=self.top)
        return self.memo[deal]

    # ----------------------------------------------------------------- exhaustive searches

    def exhaustive(self, most: int | None = None, least: int | None = None) -> Best | None:
        """A deal whose game ends, has the situation and lasts at most ``most`` and at least
        ``least``; None is a proof that none exists.  Raises StateLimitExceeded.
        ``self.cut`` tells afterwards whether a game was cut for being longer than ``most``."""
        step = _Lengths(self.s, self.rules, self.top, self.measure, most, self.ceiling, 4 * len(self.cards))
        wanted: Callable[[Any], bool] | None = None if least is None else (lambda n: n >= least)
        hit = witness(_program(step, self.half), self.cards, wanted, max_states=self.max_states)
        self.cut = step.cut
        if hit is None:
            return None
        hand_a, hand_b = _deal_from(step, self.cards, (0, _START), hit.deal)
        deal = tuple(card for pair in zip(hand_a, hand_b, strict=True) for card in pair)
        if self.length(deal) != hit.value:  # pragma: no cover - would be a bug of the program
            raise AssertionError(f"optimise: the deal {deal} gives {self.length(deal)}, not {hit.value}")
        return deal, hit.value

    # ----------------------------------------------------------------- local search

    def local(self, starts: list[tuple[int, ...]], tries: int, rng: random.Random) -> Best | None:
        """The best deal of a local search of ``tries`` games, from ``starts`` (deals where the
        situation happens) and random deals."""
        cards = sorted(Counter(self.cards.counts()).elements())
        best: Best | None = None
        for deal in starts:
            n = self.length(deal)
            if n is not None and (best is None or self.better(n, best[1])):
                best = (deal, n)
        played = 0
        patience = 2 * len(cards)
        while played < tries:
            # a start: a kick from the best deal (a few random swaps), or a fresh random deal
            if best is not None and rng.random() < 0.5:
                current = list(best[0])
                for _ in range(rng.randint(2, 4)):
                    self.swap(current, rng)
            else:
                rng.shuffle(cards)
                current = list(cards)
            played += 1
            now = self.length(tuple(current))
            if now is None:
                continue
            idle = 0
            while idle < patience and played < tries:
                trial = current[:]
                self.swap(trial, rng)
                played += 1
                n = self.length(tuple(trial))
                if n is None or self.better(now, n):
                    idle += 1
                    continue
                idle = idle + 1 if n == now else 0
                current, now = trial, n
            if best is None or self.better(now, best[1]):
                best = (tuple(current), now)
        return best

    @staticmethod
    def swap(deal: list[int], rng: random.Random) -> None:
        """Swap two cards of different ranks (a deck of one rank is left as it is)."""
        if len(set(deal)) < 2:
            return
        while True:
            i, j = rng.randrange(len(deal)), rng.randrange(len(deal))
            if deal[i] != deal[j]:
                deal[i], deal[j] = deal[j], deal[i]
                return


def _unit(n: int, measure: str) -> str:
    return f"{n} {measure[:-1] if n == 1 else measure}"


def optimise(situation: Situation | str, goal: str = "shortest", measure: str = "battles",
             rules: Rules | str = STANDARD, *, ranks: int = 13, suits: int = 4, tries: int = 1000,
             seed: int = 0, max_states: int = 100_000) -> Optimum:
    """The deal of the shortest (``goal="shortest"``) or longest game where the situation
    happens, among games that end, counted in ``measure`` (``"battles"`` or ``"turns"``),
    and the range in which the optimum is proved to lie.

    ``tries`` games are played by the local search (``seed``); each exhaustive search
    stops at ``max_states`` remembered states.

    >>> best = optimise("a war then A wins", "shortest", "turns", ranks=4, suits=2)
    >>> best.deal, best.length, best.status
    ((4, 4, 3, 2, 5, 3, 5, 2), 3, 'optimal')
    >>> optimise("battle 1 has a war and A wins", ranks=4, suits=1).proved
    'no deal of 4 cards has it in a game that ends (exhaustive search of every deal)'
    """
    s = parse(situation)
    _choose(goal, GOALS, "goal")
    _choose(measure, MEASURES, "measure")
    rules = as_rules(rules, "optimise")
    _count(ranks, "ranks", 1)
    _count(suits, "suits", 1)
    _count(tries, "tries", 0)
    _count(seed, "seed", 0)
    _count(max_states, "max_states", 1)
    if ranks * suits % 2:
        raise InvalidArgument(f"optimise: a deck of {ranks} x {suits} cards cannot be dealt into two "
                              "equal hands; use an even number of cards")
    if not rules.deterministic:
        raise InvalidArgument(
            "optimise: gather='shuffled' makes a game random after the deal, so a deal has no "
            "one length; use a fixed gather order (winner_first, loser_first or as_played)")
    search = _Search(s, goal, measure, rules, ranks, suits, max_states)
    rng = random.Random(seed)
    best = search.local([], tries, rng)
    if goal == "shortest":
        return _shortest(search, best, tries, seed)
    notes: list[str] = []
    if best is None:  # the shortest games are the quickest to search for
        best, _, _, none = _deepen(search, None, notes)
        if none:
            return _none(search, tries, seed)
        best = search.local([best[0]], tries, rng) if best is not None else None
    return _longest(search, best, notes, tries, seed)


def _none(search: _Search, tries: int, seed: int) -> Optimum:
    return Optimum(search.s, search.goal, search.measure, None, None, None, None, False,
                   f"no deal of {len(search.cards)} cards has it in a game that ends (exhaustive search of "
                   "every deal)", tries, seed, search.max_states)


def _deepen(search: _Search, best: Best | None, notes: list[str]) -> tuple[Best | None, int, str, bool]:
    """Iterative deepening: prove "no game within n" for n = low, low + 1, ... below the best.
    Returns the best deal, the lower bound proved, why the games below it are impossible, and
    True when a search that cut no game found nothing: no game where it happens ends at all."""
    measure = search.measure
    floor = _floor(search.s)
    low, why = floor[0] if measure == "battles" else floor[1], "the situation needs a longer game"
    if measure == "turns" and _turns_to_end(search.half, search.rules, floor[0]) > low:
        low = _turns_to_end(search.half, search.rules, floor[0])
        why = f"a turn takes at most {search.rules.face_down + 1} cards from a pile" + (
            f", and the situation needs {floor[0]} battles" if floor[0] > 1 else "")
    while best is None or low < best[1]:
        if measure == "battles" and search.ceiling is not None and low > search.ceiling:
            break  # every game where it happens ends within the ceiling: none does
        try:
            hit = search.exhaustive(most=low)
        except StateLimitExceeded:
            notes.append(f"the search of games within {_unit(low, measure)} stopped at "
                         f"max_states={search.max_states:,}")
            break
        if hit is not None:
            best = hit
            break
        if not search.cut:
            return None, low, why, True
        low += 1
        why = "exhaustive search"
    return best, low, why, False


def _shortest(search: _Search, best: Best | None, tries: int, seed: int) -> Optimum:
    measure, s = search.measure, search.s
    notes: list[str] = []
    best, low, why, none = _deepen(search, best, notes)
    if none:
        return _none(search, tries, seed)
    if best is None:
        if measure == "battles" and search.ceiling is not None and low > search.ceiling:
            after = ("the rules stop a game there" if search.ceiling == search.rules.max_battles
                     else "the situation says so")
            return Optimum(s, search.goal, measure, None, None, None, None, False,
                           f"no deal where it happens ends within {_unit(low - 1, measure)} ({why}), "
                           f"and none ends later ({after})", tries, seed, search.max_states)
        proved = (f"no deal where it happens ends within {_unit(low - 1, measure)} ({why})" if low > 1
                  else "nothing proved")
        proved += "; none found, no proof that none exists"
        return Optimum(s, search.goal, measure, None, None, low, None, None,
                       _with(proved, notes), tries, seed, search.max_states)
    if low >= best[1]:
        proved = (f"optimal: no deal where it happens ends within {_unit(best[1] - 1, measure)} ({why})"
                  if best[1] > 1 else "optimal: no game is shorter")
    elif low > 1:
        proved = f"no deal where it happens ends within {_unit(low - 1, measure)} ({why})"
    else:
        proved = f"no bound beyond the trivial ({_unit(1, measure)}) proved"
    return Optimum(s, search.goal, measure, best[0], best[1], min(low, best[1]), best[1], True,
                   _with(proved, notes), tries, seed, search.max_states)


def _longest(search: _Search, best: Best | None, notes: list[str], tries: int, seed: int) -> Optimum:
    """Prove "no game of more than n" over whole games, from the best deal up."""
    measure = search.measure
    high: int | None = None
    proved_by = ""
    ceiling = search.ceiling if measure == "battles" else None
    while True:
        least = 1 if best is None else best[1] + 1
        if ceiling is not None and least > ceiling:
            break
        try:
            hit = search.exhaustive(least=least)
        except StateLimitExceeded:
            notes.append(f"the search for games of {_unit(least, measure)} or more stopped at "
                         f"max_states={search.max_states:,}")
            break
        if hit is None:
            if best is None:
                return _none(search, tries, seed)
            high = least - 1
            proved_by = "exhaustive search"
            break
        best = hit
    if high is None and search.ceiling is not None and measure == "battles":
        high = search.ceiling
        proved_by = ("the rules stop a game there" if search.ceiling == search.rules.max_battles
                     else "the situation says so")
    s = search.s
    if best is None:
        proved = ("no deal found, no proof that none exists" if high is None else
                  f"no deal where it happens ends after more than {_unit(high, measure)} ({proved_by}); "
                  "none found, no proof that none exists")
        return Optimum(s, search.goal, measure, None, None, None, high, None, _with(proved, notes),
                       tries, seed, search.max_states)
    if high is None:
        proved = "no upper bound proved"
    else:
        proved = f"no deal where it happens ends after more than {_unit(high, measure)} ({proved_by})"
        proved = "optimal: " + proved if high == best[1] else proved
    return Optimum(s, search.goal, measure, best[0], best[1], best[1], high, True, _with(proved, notes),
                   tries, seed, search.max_states)


def _with(proved: str, notes: list[str]) -> str:
    return proved + "".join(f"; {note}" for note in notes)


# --------------------------------------------------------------------------- output


def optimum_dict(best: Optimum) -> dict[str, Any]:
    """The answer of :func:`optimise` as plain data (``war find --shortest --json``)."""
    return {
        "situation": repr(best.situation),
        "goal": best.goal,
        "measure": best.measure,
        "found": best.deal is not None,
        "deal": None if best.deal is None else list(best.deal),
        "length": best.length,
        "low": best.low,
        "high": best.high,
        "optimal": best.optimal,
        "status": best.status,
        "proved": best.proved,
        "tries": best.tries,
        "seed": best.seed,
        "max_states": best.max_states,
    }


def optimum_text(best: Optimum) -> str:
    """The answer of :func:`optimise` for people.

    >>> print(optimum_text(optimise("a war then A wins", "longest", ranks=4, suits=2)))
    longest game that ends with it: 14 battles (optimal)
    deal: 3 3 2 4 4 5 5 2
      (replay it with: drawdsl war replay "3 3 2 4 4 5 5 2")
    proved: optimal: no deal where it happens ends after more than 14 battles (exhaustive search)
    """
    if best.deal is None or best.length is None:
        return f"no deal: {best.proved}"
    rng = ("optimal" if best.optimal else
           f"the optimum lies in [{best.low if best.low is not None else '?'}, "
           f"{best.high if best.high is not None else '?'}]")
    text = " ".join(map(str, best.deal))
    return "\n".join([
        f"{best.goal} game that ends with it: {_unit(best.length, best.measure)} ({rng})",
        f"deal: {text}",
        f"  (replay it with: drawdsl war replay \"{text}\")",
        f"proved: {best.proved}",
    ])
