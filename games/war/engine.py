"""The rules engine: one battle, and a whole game, played from a deal under a :class:`Rules`.

This is the definition of the game.  The exact small-deck evaluation and the deal
search run :func:`battle` on piles whose unseen cards are :class:`Hidden`; the batched
simulator is checked game by game against :func:`play_game`.

A deal is dealt one card at a time, A first, as at a table: A holds the cards in
even positions of the shuffled deck, B the odd ones (:func:`deal_hands`).  The top of
a pile is its first card.

>>> game = play_game((5, 2, 9), (3, 7, 4))
>>> game.winner, game.battles, game.plays, game.wars
('A', 13, 13, 0)
>>> game = play_game((5, 3, 4, 2), (2, 3, 5, 4))  # the position after battle 9 came before
>>> game.winner, game.battles
('cycle', 9)
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from drawdsl import InvalidArgument
from games.war.rules import Rules, as_rules

__all__ = [
    "Game",
    "Hidden",
    "NeedCard",
    "battle",
    "play_game",
    "deal_hands",
    "hand_features",
    "STANDARD",
]

#: The default rule set (the ``standard`` preset).
STANDARD = Rules()

Pile = deque[Any]


class Hidden:
    """A card nobody has looked at yet (exact evaluation and deal search).

    ``tag`` names its place in the deal, or is None when any unseen card will do
    (then all hidden cards are equal, which lets equal positions merge).

    >>> Hidden() == Hidden(), Hidden(("A", 0)) == Hidden(("A", 1))
    (True, False)
    """

    __slots__ = ("tag",)

    def __init__(self, tag: Hashable = None) -> None:
        self.tag = tag

    def __eq__(self, other: object) -> bool:
        return type(other) is Hidden and other.tag == self.tag

    def __hash__(self) -> int:
        return hash(("hidden", self.tag))

    def __repr__(self) -> str:
        return "?" if self.tag is None else f"?{self.tag!r}"


class NeedCard(Exception):
    """Raised by :func:`battle` when it must compare a :class:`Hidden` card.

    ``player`` is ``"A"`` or ``"B"``; ``index`` is the card's place in that player's
    pile as it was when the battle started.
    """

    def __init__(self, player: str, index: int) -> None:
        super().__init__(player, index)
        self.player = player
        self.index = index


def _beats(x: Any, y: Any, deuce: bool, top: int, na: int, nb: int) -> int:
    """+1 if A's ``x`` beats B's ``y``, -1 if it loses, 0 on a tie."""
    if type(x) is Hidden:
        raise NeedCard("A", na - 1)
    if type(y) is Hidden:
        raise NeedCard("B", nb - 1)
    if x == y:
        return 0
    if deuce:
        if x == 2 and y == top:
            return 1
        if y == 2 and x == top:
            return -1
    return 1 if x > y else -1


def battle(
    a: Pile, b: Pile, rules: Rules, top: int, rng: random.Random | None = None,
    turns: list[str] | None = None,
) -> tuple[str, int, int]:
    """Play one battle on the two piles (changed in place).

    Returns ``(result, plays, wars)``: ``result`` is ``"A"`` or ``"B"`` for the player
    who took the cards, or ``"A wins"``, ``"B wins"``, ``"tie"`` when the battle ended
    the game in the middle of a war (a short war under ``"lose"``, ``"last_card"`` or
    ``"available"``).  ``plays`` counts the pairs of cards turned, face down included;
    ``wars`` the war rounds.  ``top`` is the highest rank (the ace); ``rng`` shuffles
    the won cards under ``gather="shuffled"``.  ``turns``, when given, gets the result
    of every comparison of face-up cards (a *turn*): ``"A"``, ``"B"`` or ``"tie"``.

    >>> a, b = deque([7, 3, 9, 5]), deque([7, 4, 2, 6])
    >>> battle(a, b, Rules(), top=14)  # 7 = 7: war, 3 and 4 face down, 9 beats 2
    ('A', 3, 1)
    >>> list(a), list(b)
    ([5, 7, 3, 9, 7, 4, 2], [6])
    """
    fa = a.popleft()
    fb = b.popleft()
    na = nb = 1  # cards taken from each pile so far (for NeedCard positions)
    took_a = [fa]
    took_b = [fb]
    pot: list[Any] = []  # "as_played" order, without the current face-up pair
    plays = 1
    wars = 0
    deuce_rule = rules.deuce_beats_ace
    face_down = rules.face_down
    need = face_down + 1
    in_war = False
    while True:
        deuce = deuce_rule == "always" or (deuce_rule == "battles" and not in_war)
        c = _beats(fa, fb, deuce, top, na, nb)
        if turns is not None:
            turns.append("A" if c > 0 else "B" if c < 0 else "tie")
        if c:
            winner = "A" if c > 0 else "B"
            break
        ra, rb = len(a), len(b)
        if ra < need or rb < need:
            short = rules.short_war
            if short == "b_takes":
                winner = "B"
                break
            if short == "lose" or ra == 0 or rb == 0:
                # "lose": whoever is short loses; otherwise only a player with no card at
                # all cannot go on (under "available" they keep their face-up card).
                a_out = ra < need if short == "lose" else ra == 0
                b_out = rb < need if short == "lose" else rb == 0
                if short != "available" or (a_out and b_out):
                    if a_out and b_out:
                        return "tie", plays, wars
                    return ("B wins" if a_out else "A wins"), plays, wars
        wars += 1
        placed = 0
        if ra:
            k = min(face_down, ra - 1)
            pot.append(fa)
            for _ in range(k):
                card = a.popleft()
                pot.append(card)
                took_a.append(card)
            fa = a.popleft()
            took_a.append(fa)
            na += k + 1
            placed = k + 1
        if rb:
            k = min(face_down, rb - 1)
            pot.append(fb)
            for _ in range(k):
                card = b.popleft()
                pot.append(card)
                took_b.append(card)
            fb = b.popleft()
            took_b.append(fb)
            nb += k + 1
            placed = max(placed, k + 1)
        plays += placed
        in_war = True
    gather = rules.gather
    if gather == "winner_first":
        won = took_a + took_b if winner == "A" else took_b + took_a
    elif gather == "loser_first":
        won = took_b + took_a if winner == "A" else took_a + took_b
    elif gather == "as_played":
        pot.append(fa)
        pot.append(fb)
        won = pot
    else:
        won = took_a + took_b
        if rng is None:
            raise InvalidArgument("battle: gather='shuffled' needs an rng")
        rng.shuffle(won)
    (a if winner == "A" else b).extend(won)
    return winner, plays, wars


@dataclass(frozen=True)
class Game:
    """The record of one game.

    ``winner``: ``"A"``, ``"B"``, ``"tie"`` (both ran out), ``"cycle"`` (a position came
    back: the game never ends) or ``"capped"`` (stopped by ``max_battles``).
    ``battles``: battles played; for a cycle, the battles until the position first
    repeated.  ``plays``: pairs of cards turned, face down included.  ``wars``: war
    rounds.  ``trace``: A's pile size after every battle (when asked for).  ``log``:
    for every battle, who took the cards (``"A"``/``"B"``, or the game's end) and
    how many war rounds it had (when asked for).  ``hands``: both piles (tops first)
    before the first battle and after every battle (when asked for).
    """

    winner: str
    battles: int
    plays: int
    wars: int
    trace: tuple[int, ...] | None = None
    log: tuple[tuple[str, int], ...] | None = None
    hands: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...] | None = None


def _end(a: Pile, b: Pile) -> str | None:
    if a and b:
        return None
    if not a and not b:
        return "tie"
    return "A" if a else "B"


def _run(
    a: Pile,
    b: Pile,
    rules: Rules,
    top: int,
    rng: random.Random | None,
    battles: int = 0,
    plays: int = 0,
    wars: int = 0,
    trace: list[int] | None = None,
    log: list[tuple[str, int]] | None = None,
    stop_at: int | None = None,
    hands: list[tuple[tuple[int, ...], tuple[int, ...]]] | None = None,
) -> tuple[str, int, int, int]:
    """Play on from the piles; returns ``(winner, battles, plays, wars)``.

    With cycle detection (Brent's algorithm: the position is compared with one saved
    at battles 1, 2, 4, 8, ... after the start, so it costs next to nothing), a
    cycle returns ``("cycle", battles, ...)`` at the battle where it was *noticed*;
    :func:`play_game` turns that into the first repeat.  ``stop_at`` stops at that
    battle count (with winner ``"cycle"``), for replaying a cycle.

    Without cycle detection but with a cap (the rblog preset), an endless game is
    played until the cap; once a position repeats, the whole periods before the cap
    are skipped, counts included, unless a trace or log is kept.  The record is the
    same (``tests/test_war_engine.py`` checks it against playing every battle).
    """
    detect = rules.detect_cycles and stop_at is None
    cap = rules.max_battles
    jump = (not rules.detect_cycles and cap is not None and rules.deterministic and stop_at is None
            and trace is None and log is None and hands is None)
    watch = detect or jump
    saved_a: Pile = a.copy() if watch else deque()
    saved_b: Pile = b.copy() if watch else deque()
    saved_plays, saved_wars = plays, wars
    power = lam = 1
    while True:
        end = _end(a, b)
        if end is not None:
            return end, battles, plays, wars
        if stop_at is not None and battles >= stop_at:
            return "cycle", battles, plays, wars
        if cap is not None and battles >= cap:
            return "capped", battles, plays, wars
        result, p, w = battle(a, b, rules, top, rng)
        battles += 1
        plays += p
        wars += w
        if trace is not None:
            trace.append(len(a))
        if log is not None:
            log.append((result, w))
        if hands is not None:
            hands.append((tuple(a), tuple(b)))
        if len(result) > 1:  # the battle ended the game ("A wins", "B wins", "tie")
            return result[0] if result != "tie" else "tie", battles, plays, wars
        if watch:
            if len(a) == len(saved_a) and a == saved_a and b == saved_b:
                if detect:
                    return "cycle", battles, plays, wars
                assert cap is not None
                periods = (cap - battles) // lam  # the position comes back every lam battles
                battles += periods * lam
                plays += periods * (plays - saved_plays)
                wars += periods * (wars - saved_wars)
                watch = False
            if power == lam:
                saved_a = a.copy()
                saved_b = b.copy()
                saved_plays, saved_wars = plays, wars
                power *= 2
                lam = 0
            lam += 1


def _first_repeat(hand_a: Sequence[int], hand_b: Sequence[int], rules: Rules, top: int, period: int) -> int:
    """The battle at which an endless game first returns to an earlier position."""
    ta, tb = deque(hand_a), deque(hand_b)
    ha, hb = deque(hand_a), deque(hand_b)
    for _ in range(period):
        battle(ha, hb, rules, top)
    mu = 0
    while ta != ha or tb != hb:
        battle(ta, tb, rules, top)
        battle(ha, hb, rules, top)
        mu += 1
    return mu + period


def _cycle_period(a: Pile, b: Pile, rules: Rules, top: int, limit: int | None = None) -> int | None:
    """The period of the cycle the position (a, b) lies on, or None if the position does
    not come back within ``limit`` battles (or the game ends)."""
    start_a, start_b = a.copy(), b.copy()
    period = 0
    while limit is None or period < limit:
        result, _, _ = battle(a, b, rules, top)
        period += 1
        if len(result) > 1 or not a or not b:
            return None
        if a == start_a and b == start_b:
            return period
    return None


def _hand(hand: Iterable[Any], name: str) -> tuple[int, ...]:
    try:
        cards = tuple(hand)
    except TypeError:
        raise TypeError(f"play_game: {name} must be a sequence of ranks, got {hand!r}") from None
    for card in cards:
        if isinstance(card, bool) or not isinstance(card, int):
            try:
                ok = int(card) == card
            except (TypeError, ValueError):
                ok = False
            if not ok:
                raise TypeError(f"play_game: {name} holds {card!r}; cards are integer ranks such as 2..14")
    return tuple(int(card) for card in cards)


def play_game(
    hand_a: Iterable[int],
    hand_b: Iterable[int],
    rules: Rules | str = STANDARD,
    *,
    seed: int = 0,
    top: int | None = None,
    trace: bool = False,
    log: bool = False,
    hands: bool = False,
) -> Game:
    """Play a whole game from the two hands (tops first): a function of the deal, the
    rules and, for shuffled returns only, the seed.

    ``top`` is the ace's rank (default: the highest card dealt).  ``trace=True``
    records A's pile size after every battle; ``log=True`` who took each battle;
    ``hands=True`` both whole piles, at the start and after every battle.

    >>> play_game([5, 9], [7, 3], hands=True).hands  # 7 beats 5, then 9 beats 3, ...
    (((5, 9), (7, 3)), ((9,), (3, 7, 5)), ((9, 3), (7, 5)), ((3, 9, 7), (5,)), ((9, 7), (5, 3)),
     ((7, 9, 5), (3,)), ((9, 5, 7, 3), ()))

    >>> play_game([14, 9], [2, 8], Rules(deuce_beats_ace="battles"), log=True).log
    (('B', 0), ('A', 0), ('A', 0), ('B', 0), ('B', 0), ('B', 0))
    >>> from games.war.rules import preset
    >>> g = play_game([3, 4, 5, 9, 8, 2], [3, 2, 2, 6, 7, 2], preset("rblog"), log=True)
    >>> g.winner, g.log[0]  # 3 = 3: a war (the tied card and three more each); 8 beats 7
    ('A', ('A', 1))
    """
    rules = as_rules(rules, "play_game")
    a_cards = _hand(hand_a, "hand_a")
    b_cards = _hand(hand_b, "hand_b")
    if top is None:
        top = max(a_cards + b_cards, default=2)
    rng = random.Random(seed) if rules.gather == "shuffled" else None
    a, b = deque(a_cards), deque(b_cards)
    trace_list: list[int] | None = [] if trace else None
    log_list: list[tuple[str, int]] | None = [] if log else None
    start = (a_cards, b_cards)
    hand_list: list[tuple[tuple[int, ...], tuple[int, ...]]] | None = [start] if hands else None
    winner, battles, plays, wars = _run(a, b, rules, top, rng, trace=trace_list, log=log_list,
                                        hands=hand_list)
    first = None
    if winner == "cycle" or (winner == "capped" and rules.detect_cycles):
        # A cycle is a position that repeats (within the cap, if there is one): find the
        # period from where the game stands, then where the position first came back.
        period = _cycle_period(a, b, rules, top, rules.max_battles)
        if period is not None:
            first = _first_repeat(a_cards, b_cards, rules, top, period)
            if rules.max_battles is not None and first > rules.max_battles:
                first = None
    if first is not None:
        trace_list = [] if trace else None
        log_list = [] if log else None
        hand_list = [start] if hands else None
        a, b = deque(a_cards), deque(b_cards)
        winner, battles, plays, wars = _run(
            a, b, rules, top, None, trace=trace_list, log=log_list, stop_at=first, hands=hand_list
        )
    return Game(
        winner,
        battles,
        plays,
        wars,
        tuple(trace_list) if trace_list is not None else None,
        tuple(log_list) if log_list is not None else None,
        tuple(hand_list) if hand_list is not None else None,
    )


def deal_hands(cards: Sequence[Any]) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """Deal the cards one at a time, A first: A gets the even positions, B the odd ones.

    >>> deal_hands([5, 6, 7, 8, 9, 10])
    ((5, 7, 9), (6, 8, 10))
    """
    cards = tuple(cards)
    if len(cards) % 2:
        raise InvalidArgument(f"deal_hands: {len(cards)} cards cannot be dealt into two equal hands")
    return cards[0::2], cards[1::2]


def hand_features(hand: Sequence[int], top: int) -> tuple[int, int, int]:
    """A starting hand's ``(strength, aces, deuces)``: the sum of ranks, the number of
    top cards, the number of 2s (the R-bloggers columns).

    >>> hand_features((14, 2, 9, 14), top=14)
    (39, 2, 1)
    """
    return sum(hand), sum(1 for card in hand if card == top), sum(1 for card in hand if card == 2)
