"""Situations: statements about how a game of War goes ("turn 1 is a tie and A wins turn 2",
"battle 1 has a war, then A wins"), their chance, and a deal where they happen.

A situation is a small language over a game's history.  The atoms:

* ``turn K tie`` / ``turn K A`` / ``turn K B``: the K-th comparison of face-up cards (a
  *turn*, as in :mod:`games.war.first_turns`) is tied, won by A, won by B;
* ``battle K has a war`` (also ``battle K war``), ``battle K has a war of depth >= D``
  (at least D war rounds);
* ``A holds >= N cards after battle K`` (also ``<=``, ``at least``, ``at most``; B too);
* ``the game ends within N battles`` (a win or a tie by then), ``the game ends after N
  battles`` (exactly N); ``A wins``, ``B wins``.

Leave the number out (``turn tie``, ``a war``, ``A holds >= 40 cards``) and the atom
holds at any turn or battle.  Atoms combine with ``not``, ``then`` (the right side
holds at a later turn than the left), ``and``, ``or`` (binding in that order, tightest
first) and parentheses.

>>> s = parse("battle 1 has a war then A wins")
>>> s
Then(left=War(k=1, depth=1), right=Wins(player='A'))
>>> holds(s, history((7, 9, 3, 2), (7, 4, 5, 2)))  # 7 = 7, 9 and 4 face down, 3 < 5
False

Every atom happens at a *moment*: a turn at its own number, a battle's atoms at the
battle's last turn, the game's end at its last turn.  ``L then R`` holds at the moments
of R later than some moment of L; ``L and R`` once both have held; ``not S`` at the
start, when S never holds.  A game that never ends is judged on its first ``2 m``
battles, where its position first comes back at battle ``m`` (a situation decided within
its first battles, see :func:`horizon`, on the battles it needs).

The chance of a situation is exact (:func:`exact_chance`) when it depends only on the
battles played from the dealt hands (a draw program, like :mod:`games.war.first_turns`);
otherwise :func:`estimate` plays random deals.  :func:`find` gives a deal where the
situation happens, or proves that none exists.
"""

from __future__ import annotations

import math
import random
from collections import Counter, deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Union

from drawdsl import InvalidArgument, Spec, StateLimitExceeded, chances, done, draw_any, loop, witness
from games.war.engine import STANDARD, battle, deal_hands, play_game
from games.war.rules import Rules, as_rules
from games.war.sweep import deck as war_deck

__all__ = [
    "Turn", "War", "Holds", "Ends", "Wins", "Not", "And", "Or", "Then", "Situation",
    "SituationError", "parse", "History", "history", "holds", "horizon",
    "situation_spec", "exact_bounds", "exact_chance", "wilson", "found_dict", "found_text",
    "add_find_command", "Estimate", "estimate", "Found", "find",
]


class SituationError(InvalidArgument):
    """A situation that cannot be read: the message names the word and its position."""


# --------------------------------------------------------------------------- the language


@dataclass(frozen=True)
class Turn:
    """Turn ``k`` (None: any turn) is ``result``: ``"A"``, ``"B"`` or ``"tie"``."""

    k: int | None
    result: str

    def __post_init__(self) -> None:
        _check(self)


@dataclass(frozen=True)
class War:
    """Battle ``k`` (None: any battle) has at least ``depth`` war rounds."""

    k: int | None
    depth: int = 1

    def __post_init__(self) -> None:
        _check(self)


@dataclass(frozen=True)
class Holds:
    """``player`` holds ``op`` (``">="`` or ``"<="``) ``n`` cards after battle ``k`` (None: any)."""

    player: str
    op: str
    n: int
    k: int | None

    def __post_init__(self) -> None:
        _check(self)


@dataclass(frozen=True)
class Ends:
    """The game ends (a win or a tie) ``"within"`` ``n`` battles, or ``"after"`` exactly ``n``."""

    how: str
    n: int

    def __post_init__(self) -> None:
        _check(self)


@dataclass(frozen=True)
class Wins:
    """``player`` wins the game."""

    player: str

    def __post_init__(self) -> None:
        _check(self)


@dataclass(frozen=True)
class Not:
    """``inner`` never holds."""

    inner: Situation

    def __post_init__(self) -> None:
        _check(self)


@dataclass(frozen=True)
class And:
    """Both sides hold."""

    left: Situation
    right: Situation

    def __post_init__(self) -> None:
        _check(self)


@dataclass(frozen=True)
class Or:
    """Either side holds."""

    left: Situation
    right: Situation

    def __post_init__(self) -> None:
        _check(self)


@dataclass(frozen=True)
class Then:
    """``right`` holds at a later moment than ``left``."""

    left: Situation
    right: Situation

    def __post_init__(self) -> None:
        _check(self)


Situation = Union[Turn, War, Holds, Ends, Wins, Not, And, Or, Then]  # noqa: UP007 - used at runtime
_ATOMS = (Turn, War, Holds, Ends, Wins)


def _node(s: object) -> None:
    if not isinstance(s, (Turn, War, Holds, Ends, Wins, Not, And, Or, Then)):
        raise TypeError(f"situation: expected a situation (Turn, War, ..., Then), got {s!r}")


def _check(s: Situation) -> None:
    """Validate one node when it is built (its parts were checked when they were built)."""
    def index(value: int | None, what: str, low: int = 1) -> None:
        if value is None and what != "n":
            return
        if isinstance(value, bool) or not isinstance(value, int) or value < low:
            raise SituationError(f"situation: {what} must be an int >= {low}, got {value!r} in {s!r}")

    if isinstance(s, Turn):
        index(s.k, "turn")
        if s.result not in ("A", "B", "tie"):
            raise SituationError(f"situation: a turn is 'A', 'B' or 'tie', got {s.result!r}")
    elif isinstance(s, War):
        index(s.k, "battle")
        index(s.depth, "depth")
    elif isinstance(s, Holds):
        if s.player not in ("A", "B") or s.op not in (">=", "<="):
            raise SituationError(f"situation: Holds needs player 'A' or 'B' and op '>=' or '<=', got {s!r}")
        index(s.n, "n", 0)
        index(s.k, "battle")
    elif isinstance(s, Ends):
        if s.how not in ("within", "after"):
            raise SituationError(f"situation: Ends is 'within' or 'after', got {s.how!r}")
        index(s.n, "n")
    elif isinstance(s, Wins):
        if s.player not in ("A", "B"):
            raise SituationError(f"situation: the winner is 'A' or 'B', got {s.player!r}")
    elif isinstance(s, Not):
        _node(s.inner)
    elif isinstance(s, (And, Or, Then)):
        _node(s.left)
        _node(s.right)
    else:
        raise TypeError(f"situation: expected a situation (Turn, War, ..., or text), got {s!r}")


class _Reader:
    """A recursive-descent reader of the situation text."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.words = text.replace("(", " ( ").replace(")", " ) ").replace(">=", " >= ").replace(
            "<=", " <= ").split()
        self.at = 0

    def peek(self, ahead: int = 0) -> str | None:
        i = self.at + ahead
        return self.words[i].lower() if i < len(self.words) else None

    def error(self, wanted: str) -> SituationError:
        if self.at >= len(self.words):
            return SituationError(f"situation {self.text!r}: expected {wanted} after the last word")
        return SituationError(
            f"situation {self.text!r}: expected {wanted} at word {self.at + 1}, got {self.words[self.at]!r}")

    def take(self, *options: str) -> str:
        word = self.peek()
        if word not in options:
            raise self.error(" or ".join(repr(o) for o in options))
        self.at += 1
        return word

    def skip(self, *options: str) -> bool:
        if self.peek() in options:
            self.at += 1
            return True
        return False

    def number(self, what: str, low: int) -> int:
        word = self.peek()
        if word is None or not word.lstrip("-").isdigit():
            raise self.error(what)
        value = int(word)
        if value < low:
            raise SituationError(
                f"situation {self.text!r}: {what} must be >= {low}, got {value} at word {self.at + 1}")
        self.at += 1
        return value

    def maybe_number(self, what: str) -> int | None:
        word = self.peek()
        return self.number(what, 1) if word is not None and word.lstrip("-").isdigit() else None

    def whole(self) -> Situation:
        if not self.words:
            raise SituationError("situation: empty text; e.g. 'turn 1 tie and turn 2 A'")
        s = self.disjunction()
        if self.at < len(self.words):
            raise self.error("'and', 'or', 'then' or the end")
        return s

    def disjunction(self) -> Situation:
        s = self.conjunction()
        while self.skip("or"):
            s = Or(s, self.conjunction())
        return s

    def conjunction(self) -> Situation:
        s = self.sequence()
        while self.skip("and"):
            s = And(s, self.sequence())
        return s

    def sequence(self) -> Situation:
        s = self.unary()
        while self.skip("then"):
            s = Then(s, self.unary())
        return s

    def unary(self) -> Situation:
        if self.skip("not"):
            return Not(self.unary())
        if self.skip("("):
            s = self.disjunction()
            self.take(")")
            return s
        return self.atom()

    def war(self, k: int | None) -> War:
        self.take("war")
        depth = 1
        if self.skip("of"):
            self.take("depth")
            self.bound(">=")
            depth = self.number("a war depth", 1)
        elif self.skip("depth"):
            self.bound(">=")
            depth = self.number("a war depth", 1)
        return War(k, depth)

    def bound(self, *allowed: str) -> str:
        if self.skip(">=") or (self.peek() == "at" and self.peek(1) == "least" and self.skip("at")
                                and self.skip("least")):
            op = ">="
        elif self.skip("<=") or (self.peek() == "at" and self.peek(1) == "most" and self.skip("at")
                                  and self.skip("most")):
            op = "<="
        else:
            raise self.error(" or ".join(repr(a) for a in allowed) if allowed else "'>=' or '<='")
        if op not in (allowed or (">=", "<=")):
            raise self.error(repr(allowed[0]))
        return op

    def atom(self) -> Situation:
        word = self.peek()
        if word == "turn":
            self.at += 1
            k = self.maybe_number("a turn number")
            if self.peek() not in ("tie", "a", "b"):
                raise self.error("'tie', 'A' or 'B'")
            result = self.take("tie", "a", "b")
            return Turn(k, "tie" if result == "tie" else result.upper())
        if word == "battle":
            self.at += 1
            k = self.maybe_number("a battle number")
            self.skip("has")
            self.skip("a")
            return self.war(k)
        if word == "a" and self.peek(1) == "war":
            self.at += 1
            return self.war(None)
        if word in ("the", "game", "ends"):
            self.skip("the")
            self.skip("game")
            self.take("ends")
            how = self.take("within", "after")
            n = self.number("a number of battles", 1)
            self.take("battles", "battle")
            return Ends(how, n)
        if word in ("a", "b"):
            self.at += 1
            player = word.upper()
            if self.skip("wins"):
                return Wins(player)
            self.take("holds")
            op = self.bound()
            n = self.number("a number of cards", 0)
            self.take("cards", "card")
            k = None
            if self.skip("after"):
                self.take("battle")
                k = self.number("a battle number", 1)
            return Holds(player, op, n, k)
        raise self.error("a situation ('turn', 'battle', 'a war', 'A wins', 'A holds', 'the game ends', "
                         "'not' or '(')")


def parse(text: str | Situation) -> Situation:
    """The situation written in ``text`` (a situation passes through, checked).

    >>> parse("turn 1 tie and turn 2 A")
    And(left=Turn(k=1, result='tie'), right=Turn(k=2, result='A'))
    >>> parse("not (A wins or the game ends within 30 battles)")
    Not(inner=Or(left=Wins(player='A'), right=Ends(how='within', n=30)))
    >>> parse("turn 0 tie")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    games.war.situations.SituationError: situation 'turn 0 tie': a turn number must be >= 1, got 0 at word 2
    """
    if not isinstance(text, str):
        _node(text)
        return text
    return _Reader(text).whole()


# --------------------------------------------------------------------------- a game's history


@dataclass(frozen=True)
class History:
    """What a situation is judged on: every turn's result, and for every battle its war
    rounds, its last turn's number and A's and B's pile sizes after it.

    ``winner`` is ``"A"``, ``"B"`` or ``"tie"`` when the game ended within the
    recorded battles, else ``None`` (it went on, was capped, or never ends).
    """

    turns: tuple[str, ...]
    wars: tuple[int, ...]
    last_turn: tuple[int, ...]
    a_cards: tuple[int, ...]
    b_cards: tuple[int, ...]
    winner: str | None


def history(hand_a: Iterable[int], hand_b: Iterable[int], rules: Rules | str = STANDARD, *,
            seed: int = 0, top: int | None = None, battles: int | None = None) -> History:
    """Play the game of the two hands (tops first) and record its :class:`History`: the
    whole game, or its first ``battles`` battles.  An endless game is recorded over twice
    the battles until its position first comes back.

    >>> h = history((7, 9, 3, 2), (7, 4, 5, 2))
    >>> h.turns[:2], h.wars[0], h.a_cards[0], h.winner
    (('tie', 'B'), 1, 1, 'B')
    """
    rules = as_rules(rules, "history")
    a_cards, b_cards = tuple(hand_a), tuple(hand_b)
    if top is None:
        top = max(a_cards + b_cards, default=2)
    if battles is None:
        game = play_game(a_cards, b_cards, rules, seed=seed, top=top)
        # an endless game: its position first comes back at game.battles; twice that shows the
        # whole cycle after it, so that "X then Y" also sees Y coming round again
        battles = 2 * game.battles if game.winner == "cycle" else game.battles
    if rules.max_battles is not None:
        battles = min(battles, rules.max_battles)
    rng = random.Random(seed) if rules.gather == "shuffled" else None
    a, b = deque(a_cards), deque(b_cards)
    turns: list[str] = []
    wars: list[int] = []
    last: list[int] = []
    sizes_a: list[int] = []
    sizes_b: list[int] = []
    winner = None
    while len(wars) < battles and a and b:
        result, _, w = battle(a, b, rules, top, rng, turns=turns)
        wars.append(w)
        last.append(len(turns))
        sizes_a.append(len(a))
        sizes_b.append(len(b))
        if len(result) > 1:
            winner = "tie" if result == "tie" else result[0]
            break
        if not a or not b:
            winner = "tie" if not a and not b else ("A" if a else "B")
    return History(tuple(turns), tuple(wars), tuple(last), tuple(sizes_a), tuple(sizes_b), winner)


def _battle_moments(h: History, k: int | None, test: Any) -> frozenset[int]:
    ks = range(len(h.wars)) if k is None else ([k - 1] if k <= len(h.wars) else [])
    return frozenset(h.last_turn[i] for i in ks if test(i))


def _moments(s: Situation, h: History) -> frozenset[int]:
    """The moments (turn numbers; 0 is the start) at which ``s`` holds."""
    if isinstance(s, Turn):
        if s.k is None:
            return frozenset(i + 1 for i, r in enumerate(h.turns) if r == s.result)
        return frozenset([s.k]) if s.k <= len(h.turns) and h.turns[s.k - 1] == s.result else frozenset()
    if isinstance(s, War):
        return _battle_moments(h, s.k, lambda i: h.wars[i] >= s.depth)
    if isinstance(s, Holds):
        sizes = h.a_cards if s.player == "A" else h.b_cards
        if s.op == ">=":
            return _battle_moments(h, s.k, lambda i: sizes[i] >= s.n)
        return _battle_moments(h, s.k, lambda i: sizes[i] <= s.n)
    end = frozenset([len(h.turns)])
    if isinstance(s, Ends):
        n = len(h.wars)
        ok = h.winner is not None and (n <= s.n if s.how == "within" else n == s.n)
        return end if ok else frozenset()
    if isinstance(s, Wins):
        return end if h.winner == s.player else frozenset()
    if isinstance(s, Not):
        return frozenset() if _moments(s.inner, h) else frozenset([0])
    left = _moments(s.left, h)
    right = _moments(s.right, h)
    if isinstance(s, Or):
        return left | right
    if not left or not right:
        return frozenset()
    if isinstance(s, And):
        first_l, first_r = min(left), min(right)
        return frozenset(t for t in left if t >= first_r) | frozenset(t for t in right if t >= first_l)
    first = min(left)
    return frozenset(t for t in right if t > first)


def holds(situation: Situation | str, game: History) -> bool:
    """Does the situation happen in the recorded game?

    >>> holds("turn 1 tie and turn 2 B", history((7, 9, 3, 2), (7, 4, 5, 2)))
    True
    """
    return bool(_moments(parse(situation), game))


_Bound = tuple[frozenset[int], bool, bool]


def _bound(s: Situation, h: History, fought: int) -> _Bound:
    """What the history so far tells of the moments of ``s``, while the game goes on:
    ``(known, complete, later)``.  ``known`` are moments sure to be in the set; ``complete``
    says there are no others; ``later`` that some moment after now is sure to come.
    ``fought``: war rounds the battle under way is sure to have."""
    if isinstance(s, Turn):
        if s.k is not None and s.k <= len(h.turns):
            return _moments(s, h), True, False
        return frozenset(), False, False
    if isinstance(s, (War, Holds)):
        if s.k is not None and s.k <= len(h.wars):
            return _moments(s, h), True, False
        later = isinstance(s, War) and s.k == len(h.wars) + 1 and fought >= s.depth
        return frozenset(), False, later
    if isinstance(s, Ends):
        return frozenset(), len(h.wars) >= s.n, False
    if isinstance(s, Wins):
        return frozenset(), False, False
    if isinstance(s, Not):
        known, complete, later = _bound(s.inner, h, fought)
        if complete:
            return (frozenset() if known else frozenset([0])), True, False
        return frozenset(), bool(known or later), False
    lk, lc, ll = _bound(s.left, h, fought)
    rk, rc, rl = _bound(s.right, h, fought)
    if isinstance(s, Or):
        return lk | rk, lc and rc, ll or rl
    if (lc and not lk) or (rc and not rk):
        return frozenset(), True, False
    if isinstance(s, And):
        known = frozenset()
        if lk and rk:
            known = frozenset(t for t in lk if t >= min(rk)) | frozenset(t for t in rk if t >= min(lk))
        return known, lc and rc, bool((lk or ll) and (rk or rl))
    known = frozenset(t for t in rk if t > min(lk)) if lk and rk else frozenset()
    return known, lc and rc, bool(lk and rl)


def _decided(s: Situation, h: History, fought: int) -> bool | None:
    """True or False when the history so far decides ``s`` whatever comes next, else None."""
    known, complete, later = _bound(s, h, fought)
    if known or later:
        return True
    return False if complete else None


def horizon(situation: Situation | str) -> tuple[int, int] | None:
    """``(battles, turns)``: the situation is decided once that many battles and turns were
    played (or the game ended); None when it can depend on the whole game.

    >>> horizon("turn 3 A and battle 2 has a war"), horizon("A wins")
    ((2, 3), None)
    >>> horizon("A wins and the game ends within 20 battles")  # by then the game is over, or it fails
    (20, 0)
    """
    s = parse(situation)
    if isinstance(s, Turn):
        return None if s.k is None else (0, s.k)
    if isinstance(s, (War, Holds)):
        return None if s.k is None else (s.k, 0)
    if isinstance(s, Ends):
        return (s.n, 0)
    if isinstance(s, Wins):
        return None
    if isinstance(s, Not):
        return horizon(s.inner)
    if isinstance(s, And):
        for side in (s.left, s.right):
            if isinstance(side, Ends):  # past its battle the game has ended (all is known) or s fails
                other = horizon(s.right if side is s.left else s.left)
                return (side.n, 0) if other is None else (max(side.n, other[0]), other[1])
    left, right = horizon(s.left), horizon(s.right)
    if left is None or right is None:
        return None
    return (max(left[0], right[0]), max(left[1], right[1]))


# --------------------------------------------------------------------------- exact chances


class _Step:
    """Loop step of :func:`situation_spec`, dealing the cards in order (A, B, A, B, ...).

    The state: (turns of each finished battle, turns of the battle under way, cards
    each hand has used, A's face-up card or None).  While play stays within the dealt
    hands, no won card comes back into play, so the turns decide the whole history.
    A branch that would need more than the dealt cards finishes with None (unknown).
    """

    def __init__(self, situation: Situation, rules: Rules, top: int, half: int,
                 reach: tuple[int, int]) -> None:
        self.situation = situation
        self.face_down = rules.face_down
        self.deuce = rules.deuce_beats_ace
        self.top = top
        self.half = half
        self.reach = reach
        self.cap = rules.max_battles
        self._key = (situation, self.face_down, self.deuce, top, half, reach, self.cap)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Step) and self._key == other._key

    def __hash__(self) -> int:
        return hash(self._key)

    def result(self, x: int, y: int, in_war: bool) -> str:
        if x == y:
            return "tie"
        deuce = self.deuce == "always" or (self.deuce == "battles" and not in_war)
        if deuce and {x, y} == {2, self.top} and self.top != 2:
            return "A" if x == 2 else "B"
        return "A" if x > y else "B"

    def record(self, done_battles: tuple[tuple[str, ...], ...], current: tuple[str, ...],
               winner: str | None) -> History:
        """The history so far (no won card has come back into play, so the turns decide it)."""
        turns: list[str] = []
        wars: list[int] = []
        last: list[int] = []
        sizes: list[int] = []
        a = self.half
        for b in done_battles:
            turns.extend(b)
            wars.append(len(b) - 1)
            last.append(len(turns))
            gain = 1 + (len(b) - 1) * (self.face_down + 1)
            a += gain if b[-1] == "A" else -gain
            sizes.append(a)
        turns.extend(current)
        return History(tuple(turns), tuple(wars), tuple(last), tuple(sizes),
                       tuple(2 * self.half - n for n in sizes), winner)

    def decide(self, done_battles: tuple[tuple[str, ...], ...], current: tuple[str, ...], fought: int,
               otherwise: Any) -> Any:
        """Finish with the verdict if the history so far decides it, else ``otherwise``."""
        verdict = _decided(self.situation, self.record(done_battles, current, None), fought)
        return otherwise if verdict is None else done(verdict)

    def __call__(self, state: tuple[tuple[tuple[str, ...], ...], tuple[str, ...], int, int | None],
                 card: int) -> Any:
        battles, current, used, a_card = state
        if a_card is None:
            return (battles, current, used, card)
        r = self.result(a_card, card, bool(current))
        current += (r,)
        used += 1
        turn_count = sum(map(len, battles)) + len(current)
        if r == "tie":
            if len(battles) >= self.reach[0] and turn_count >= self.reach[1]:
                return done(bool(_moments(self.situation, self.record(battles, current, None))))
            if self.half - used < self.face_down + 1:
                # The war may reach cards won earlier, or be short and end the game now:
                # so this battle's end is not sure to come at a later turn (fought=0: a war
                # of the battle under way is not counted as a later moment).
                return self.decide(battles, current, 0, done(None))
            nxt = (battles, current, used + self.face_down, None)
            go = draw_any(2 * self.face_down).then(loop(nxt, self)) if self.face_down else nxt
            return self.decide(battles, current, len(current), go)
        battles += (current,)
        a = self.half + sum((1 + (len(b) - 1) * (self.face_down + 1)) * (1 if b[-1] == "A" else -1)
                            for b in battles)
        if a in (0, 2 * self.half):
            return done(bool(_moments(self.situation, self.record(battles, (), "A" if a else "B"))))
        if (len(battles) >= self.reach[0] and turn_count >= self.reach[1]) or len(battles) == self.cap:
            return done(bool(_moments(self.situation, self.record(battles, (), None))))
        return self.decide(battles, (), 0, done(None) if used >= self.half else (battles, (), used, None))


def situation_spec(situation: Situation | str, rules: Rules | str = STANDARD, *, ranks: int = 13,
                   suits: int = 4) -> Spec[bool | None]:
    """The draw program of a situation decided within its :func:`horizon`: it deals the
    cards in order and finishes with True or False, or None where the answer depends on
    cards won earlier coming back into play.

    >>> from drawdsl import chances
    >>> chances(situation_spec("turn 1 tie", ranks=3, suits=2), war_deck(3, 2))
    Distribution({False: 4/5, True: 1/5})
    """
    s = parse(situation)
    rules = as_rules(rules, "situation_spec")
    reach = horizon(s)
    if reach is None:
        raise InvalidArgument(
            f"situation_spec: {s!r} can depend on the whole game, not only on its first battles; "
            "estimate its chance by simulation (estimate) instead")
    cards = war_deck(ranks, suits)
    step = _Step(s, rules, ranks + 1, len(cards) // 2, reach)
    if reach == (0, 0):
        return done(bool(_moments(s, History((), (), (), (), (), None))))
    return loop(((), (), 0, None), step)


def exact_bounds(situation: Situation | str, rules: Rules | str = STANDARD, *, ranks: int = 13,
                 suits: int = 4, max_states: int = 1_000_000) -> tuple[Fraction, Fraction] | None:
    """Exact bounds ``(low, high)`` on the chance of the situation: ``low`` counts the deals
    decided yes by the dealt hands alone, ``high`` adds those the dealt hands leave open
    (cards won earlier come back into play first).  Equal bounds are the exact chance.
    None when the situation can depend on the whole game (no :func:`horizon`) or play
    is random (``gather="shuffled"``).

    >>> exact_bounds("turn 1 tie and turn 2 tie", ranks=2, suits=2)
    (Fraction(0, 1), Fraction(1, 3))
    """
    s = parse(situation)
    rules = as_rules(rules, "exact_bounds")
    if horizon(s) is None or not rules.deterministic:
        return None
    law = chances(situation_spec(s, rules, ranks=ranks, suits=suits), war_deck(ranks, suits),
                  max_states=max_states)
    low = law.get(True, Fraction(0))
    return low, low + law.get(None, Fraction(0))


def exact_chance(situation: Situation | str, rules: Rules | str = STANDARD, *, ranks: int = 13,
                 suits: int = 4, max_states: int = 1_000_000) -> Fraction | None:
    """The exact chance of the situation on a random deal, or None when it is not decided
    by the dealt hands alone (then :func:`estimate` it, or see :func:`exact_bounds`).

    >>> from games.war.first_turns import first_turns_chance
    >>> exact_chance("turn 1 tie and turn 2 A") == first_turns_chance("tie A")
    True
    >>> exact_chance("A wins") is None
    True
    """
    bounds = exact_bounds(situation, rules, ranks=ranks, suits=suits, max_states=max_states)
    if bounds is None or bounds[0] != bounds[1]:
        return None
    return bounds[0]


# --------------------------------------------------------------------------- random deals


@dataclass(frozen=True)
class Estimate:
    """A sampled chance: ``hits`` of ``tries`` random deals (``seed``), with the 95% Wilson interval."""

    hits: int
    tries: int
    seed: int
    low: float
    high: float

    @property
    def value(self) -> float:
        """``hits / tries``."""
        return self.hits / self.tries


def wilson(hits: int, tries: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """The Wilson score interval for ``hits`` of ``tries`` (95% by default).

    >>> [round(x, 4) for x in wilson(0, 100)]
    [0.0, 0.037]
    """
    p = hits / tries
    centre = (p + z * z / (2 * tries)) / (1 + z * z / tries)
    half = z * math.sqrt(p * (1 - p) / tries + z * z / (4 * tries * tries)) / (1 + z * z / tries)
    low = 0.0 if hits == 0 else max(0.0, centre - half)  # exact ends: rounding must not cut off p
    high = 1.0 if hits == tries else min(1.0, centre + half)
    return low, high


def _deals(ranks: int, suits: int, seed: int, tries: int) -> Iterable[tuple[int, ...]]:
    rng = random.Random(seed)
    cards = sorted(Counter(war_deck(ranks, suits).counts()).elements())
    for _ in range(tries):
        rng.shuffle(cards)
        yield tuple(cards)


def _judge(s: Situation, deal: tuple[int, ...], rules: Rules, top: int, reach: tuple[int, int] | None
           ) -> History:
    hand_a, hand_b = deal_hands(deal)
    limit = None if reach is None else max(reach[0], reach[1])  # turn k lies in battle k or earlier
    return history(hand_a, hand_b, rules, top=top, battles=limit)


def estimate(situation: Situation | str, rules: Rules | str = STANDARD, *, ranks: int = 13,
             suits: int = 4, tries: int = 1000, seed: int = 0) -> Estimate:
    """The share of ``tries`` random deals (``seed``) where the situation happens.

    >>> e = estimate("A wins", ranks=3, suits=2, tries=200, seed=1)
    >>> e.hits, e.tries, e.low < e.value < e.high
    (77, 200, True)
    """
    s = parse(situation)
    rules = as_rules(rules, "estimate")
    _positive(tries, "tries")
    return _sample(s, rules, ranks, suits, tries, seed)[0]


Best = tuple[int, tuple[int, ...]]


def _sample(s: Situation, rules: Rules, ranks: int, suits: int, tries: int, seed: int
            ) -> tuple[Estimate, tuple[int, ...] | None, Best | None, Best | None]:
    """Play ``tries`` random deals: the estimate, the first deal with the situation, and the
    shortest and longest finished games with it, as ``(battles, deal)``."""
    top = ranks + 1
    reach = horizon(s)
    hits = 0
    first: tuple[int, ...] | None = None
    shortest: Best | None = None
    longest: Best | None = None
    for deal in _deals(ranks, suits, seed, tries):
        h = _judge(s, deal, rules, top, reach)
        if not holds(s, h):
            continue
        hits += 1
        first = first or deal
        if h.winner is not None:
            n: int | None = len(h.wars)
        else:  # the situation was settled before the end: play the game out for its length
            game = play_game(*deal_hands(deal), rules, top=top)
            n = game.battles if game.winner in ("A", "B", "tie") else None
        if n is not None:
            if shortest is None or n < shortest[0]:
                shortest = (n, deal)
            if longest is None or n > longest[0]:
                longest = (n, deal)
    low, high = wilson(hits, tries)
    return Estimate(hits, tries, seed, low, high), first, shortest, longest


def _positive(value: int, name: str) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise InvalidArgument(f"{name} must be an int >= 1, got {value!r}")


# --------------------------------------------------------------------------- find a deal


@dataclass(frozen=True)
class Found:
    """The answer of :func:`find`.

    ``deal``: a deal where the situation happens (dealing order, as ``war replay``
    reads it), or None.  ``method``: ``"exhaustive"`` (a search over every deal of
    the cards that matter) or ``"random"`` (``tries`` random deals, ``seed``).
    ``proved``: what the answer establishes, in words.  ``chance``: the exact chance,
    or None; ``estimate``: the sampled one (when the chance is not exact); ``bounds``: the
    exact bounds of :func:`exact_bounds`, when the exact program could be run.  ``shortest``
    and ``longest``: ``(battles, deal)`` of the shortest and longest finished games where
    the situation happens, among the random deals played (nothing is proved about others).
    """

    situation: Situation
    deal: tuple[int, ...] | None
    method: str
    proved: str
    chance: Fraction | None
    estimate: Estimate | None
    bounds: tuple[Fraction, Fraction] | None = None
    shortest: tuple[int, tuple[int, ...]] | None = None
    longest: tuple[int, tuple[int, ...]] | None = None


def find(situation: Situation | str, rules: Rules | str = STANDARD, *, ranks: int = 13, suits: int = 4,
         tries: int = 1000, seed: int = 0, max_states: int = 1_000_000) -> Found:
    """A deal where the situation happens.  When the situation is decided within its
    :func:`horizon`, the exact program is searched first: a deal, or a proof that none
    exists when the dealt hands decide every deal.  Otherwise ``tries`` random deals
    (``seed``) are played; the answer then gives the sampled chance and the shortest
    and longest games among the hits.

    >>> from games.war.first_turns import first_turns_chance
    >>> f = find("turn 1 tie and turn 2 tie and turn 3 A")
    >>> f.method, f.deal[:6], f.chance
    ('exhaustive', (2, 2, 3, 3, 2, 2), Fraction(1612, 978775))
    >>> f.chance == first_turns_chance('tie tie A')
    True
    >>> find("battle 1 has a war", ranks=4, suits=1).proved
    'no deal of 4 cards has it (every deal was covered)'
    """
    s = parse(situation)
    rules = as_rules(rules, "find")
    _positive(tries, "tries")
    cards = war_deck(ranks, suits)
    top = ranks + 1
    bounds = None
    gave_up = ""
    if horizon(s) is not None and rules.deterministic:
        try:
            bounds = exact_bounds(s, rules, ranks=ranks, suits=suits, max_states=max_states)
        except StateLimitExceeded:
            bounds = None
            gave_up = f" (the exact search stopped at max_states={max_states:,})"
    exact = bounds[0] if bounds is not None and bounds[0] == bounds[1] else None
    if exact == 0:
        return Found(s, None, "exhaustive", f"no deal of {len(cards)} cards has it (every deal was covered)",
                     exact, None, bounds)
    if bounds is not None and bounds[0] > 0:
        hit = witness(situation_spec(s, rules, ranks=ranks, suits=suits), cards, _is_true,
                      max_states=max_states)
        assert hit is not None  # the chance is positive
        spare = Counter(cards.counts())
        spare.subtract(hit.deal)
        deal = tuple(hit.deal) + tuple(sorted(spare.elements()))
        if not holds(s, _judge(s, deal, rules, top, None)):  # pragma: no cover - would be a bug
            raise AssertionError(f"find: the deal {deal} does not have {s!r}")
        if exact is not None:
            return Found(s, deal, "exhaustive", "a deal exists (exact search of the cards that matter)",
                         exact, None, bounds)
        est, _, shortest, longest = _sample(s, rules, ranks, suits, tries, seed)
        return Found(s, deal, "exhaustive", "a deal exists (exact search of the cards that matter)",
                     None, est, bounds, shortest, longest)
    est, first, shortest, longest = _sample(s, rules, ranks, suits, tries, seed)
    proved = (f"found among {tries:,} random deals (seed {seed})" if first else
              f"none found within the limits ({tries:,} random deals, seed {seed}); "
              "no proof that none exists")
    proved += gave_up
    return Found(s, first, "random", proved, None, est, bounds, shortest, longest)


def _is_true(value: object) -> bool:
    return value is True


# --------------------------------------------------------------------------- the command line


def _deal_text(deal: tuple[int, ...]) -> str:
    return " ".join(map(str, deal))


def found_dict(found: Found) -> dict[str, Any]:
    """The answer of :func:`find` as plain data (``war find --json``); fractions as ``"p/q"``."""
    def frac(p: Fraction | None) -> str | None:
        return None if p is None else f"{p.numerator}/{p.denominator}"

    est = found.estimate
    return {
        "situation": repr(found.situation),
        "found": found.deal is not None,
        "deal": None if found.deal is None else list(found.deal),
        "method": found.method,
        "proved": found.proved,
        "probability": frac(found.chance),
        "bounds": None if found.bounds is None else [frac(found.bounds[0]), frac(found.bounds[1])],
        "estimate": None if est is None else {"hits": est.hits, "tries": est.tries, "seed": est.seed,
                                              "value": est.value, "wilson95": [est.low, est.high]},
        "shortest": None if found.shortest is None else {"battles": found.shortest[0],
                                                         "deal": list(found.shortest[1])},
        "longest": None if found.longest is None else {"battles": found.longest[0],
                                                       "deal": list(found.longest[1])},
    }


def found_text(found: Found) -> str:
    """The answer of :func:`find` for people (``war find``).

    >>> print(found_text(find("battle 1 has a war", ranks=4, suits=1)))
    no deal: no deal of 4 cards has it (every deal was covered)
    probability: 0 (exact)
    """
    lines = []
    if found.deal is None:
        lines.append(f"no deal: {found.proved}")
    else:
        lines.append(f"deal: {_deal_text(found.deal)}")
        lines.append(f"  ({found.proved}; replay it with: drawdsl war replay \"{_deal_text(found.deal)}\")")
    if found.chance is not None:
        lines.append(f"probability: {found.chance} (exact)" + (
            f" ~ {float(found.chance):.6g}" if found.chance.denominator != 1 else ""))
    else:
        if found.bounds is not None:
            low, high = found.bounds
            lines.append(f"probability: between {low} and {high} (exact bounds: the dealt hands do not "
                         "decide every deal)")
        if found.estimate is not None:
            e = found.estimate
            lines.append(f"estimate: {e.hits} of {e.tries:,} random deals (seed {e.seed}) = {e.value:.4g}, "
                         f"95% Wilson interval [{e.low:.4g}, {e.high:.4g}]")
    for name, best in (("shortest", found.shortest), ("longest", found.longest)):
        if best is not None:
            searched = found.estimate.tries if found.estimate else 0
            lines.append(f"{name} game that ends with it, among the {searched:,} deals searched: "
                         f"{best[0]} battles: {_deal_text(best[1])}")
    return "\n".join(lines)


def add_find_command(war_sub: Any, add_rule_options: Callable[[Any], None],
                     rules_of: Callable[[Any], Rules]) -> None:
    """Register ``drawdsl war find`` (the rule options and their reading come from the CLI)."""
    from drawdsl.cli.common import bounded_int

    cmd = war_sub.add_parser(
        "find",
        help="a deal where a situation happens, and its chance",
        description="A deal where a situation happens (e.g. 'turn 1 tie and turn 2 A', 'battle 1 has a war "
                    "then A wins', 'A holds >= 40 cards after battle 10', 'the game ends within 50 "
                    "battles'), its exact chance or a sampled estimate, and what was proved.",
        epilog='examples: drawdsl war find "turn 1 tie and turn 2 tie" | '
               'drawdsl war find "battle 1 has a war then A wins" --tries 2000 --seed 1 --json | '
               'drawdsl war find "a war then A wins" --shortest --measure turns',
    )
    cmd.add_argument("situation", help="the situation, in words (see docs/war.md)")
    cmd.add_argument("--ranks", type=bounded_int(1, 1000), default=13, help="number of ranks (default 13)")
    cmd.add_argument("--suits", type=bounded_int(1, 1000), default=4, help="cards of each rank (default 4)")
    cmd.add_argument("--tries", type=bounded_int(1, 10_000_000, "each deal is a whole game"), default=1000,
                     help="random deals to play when the exact search does not decide; with --shortest or "
                     "--longest, the games the local search plays (default 1000)")
    cmd.add_argument("--seed", type=bounded_int(0, 2**63), default=0, help="seed of those deals (default 0)")
    cmd.add_argument("--max-states", type=bounded_int(1, 50_000_000, "each state is kept in memory"),
                     default=None, help="memory bound of each exact search (default 1000000; with --shortest "
                     "or --longest 100000, about half a minute on 52 cards)")
    cmd.add_argument("--json", action="store_true", help="print a JSON object")
    goal = cmd.add_argument_group("optimisation (the shortest or longest game where it happens)")
    goals = goal.add_mutually_exclusive_group()
    goals.add_argument("--shortest", action="store_const", const="shortest", dest="goal",
                       help="the deal of the shortest game that ends with the situation, and what was proved")
    goals.add_argument("--longest", action="store_const", const="longest", dest="goal",
                       help="the deal of the longest game that ends with the situation, and what was proved")
    goal.add_argument("--measure", choices=("battles", "turns"),
                      help="count a game's length in battles (default) or turns (comparisons of face-up "
                      "cards)")
    add_rule_options(cmd)

    def run(args: Any) -> int:
        import json

        rules = rules_of(args)
        if args.ranks * args.suits > 1000:
            raise InvalidArgument(f"war find: {args.ranks} x {args.suits} cards is over the command's "
                                  "1,000; use fewer ranks or suits")
        if args.goal is not None:
            return _run_optimise(args, rules)
        if args.measure is not None:
            raise InvalidArgument("war find: --measure counts the length of the game --shortest or "
                                  "--longest looks for; add one of them")
        found = find(args.situation, rules, ranks=args.ranks, suits=args.suits, tries=args.tries,
                     seed=args.seed, max_states=args.max_states or 1_000_000)
        if args.json:
            data = found_dict(found)
            data.update(ranks=args.ranks, suits=args.suits, rules=rules.describe())
            print(json.dumps(data, indent=2))
            return 0
        print(f"War, {args.ranks} ranks x {args.suits} suits, rules: {rules.describe()}")
        print(f"situation: {args.situation}")
        print(found_text(found))
        return 0

    cmd.set_defaults(run=run)


def _run_optimise(args: Any, rules: Rules) -> int:
    """``war find --shortest|--longest``: the optimiser's answer, in words or as JSON."""
    import json

    from games.war.optimise import optimise, optimum_dict, optimum_text

    best = optimise(args.situation, args.goal, args.measure or "battles", rules, ranks=args.ranks,
                    suits=args.suits, tries=args.tries, seed=args.seed, max_states=args.max_states or 100_000)
    if args.json:
        data = optimum_dict(best)
        data.update(ranks=args.ranks, suits=args.suits, rules=rules.describe())
        print(json.dumps(data, indent=2))
        return 0
    print(f"War, {args.ranks} ranks x {args.suits} suits, rules: {rules.describe()}")
    print(f"situation: {args.situation}")
    print(optimum_text(best))
    return 0
