"""War for any number of players: the 2-player rules of :mod:`games.war.rules`, generalised.

Each battle every player still holding cards turns their top card; the highest card
takes the turn.  Players tied for the highest card fight a war among themselves
(the others only lose their card): each lays ``face_down`` cards face down and one
face up, and the highest of those face-up cards decides; wars repeat among the
players tied again.  A player who runs out of cards leaves; the last player holding
cards wins.  With two players this is exactly :func:`~games.war.engine.play_game`
(``tests/test_war_multi.py`` checks it game by game for every preset).

The decisions where the two-player rules say nothing:

* **The deal** (:func:`deal_round_robin`): one card at a time round the table, seat A
  first, until the deck is used up; when the deck does not divide evenly the first
  seats hold one card more (as at a real table: no card is set aside).
* **Who beats whom** with ``deuce_beats_ace``: when the rule applies to a comparison
  and a 2 is among its face-up cards, every ace (the ``top`` rank) there counts lowest.
  A 2 then beats an ace, but not a 9 (with two players: the two-player rule).
* **The order of the won cards** under the winner's pile, for each ``gather`` option:
  ``"winner_first"``: the winner's cards (in the order they left the pile), then every
  other player's, in seat order; ``"loser_first"``: the others in seat order, then the
  winner's; ``"as_played"``: the order the cards reached the table: for each turn that
  led to a war, the face-up cards of the players left out of it (seat order), then each
  warring player's face-up card followed by the face-down cards laid on it (seat
  order; a player leaving adds the rest of their pile), then the deciding face-up
  cards in seat order; ``"shuffled"``:
  all cards in seat order, shuffled by the game's random generator.
* **A short war** (a tied player holds fewer than ``face_down + 1`` cards):
  ``"lose"``: every short tied player leaves the game at once, their remaining cards
  going into the pot; ``"last_card"``: a tied player with no card left leaves, the
  others lay what they can face down and their last card face up; ``"available"``: a
  tied player with no card left keeps their face-up card for the next comparison,
  unless no tied player has a card left: then they all leave; ``"b_takes"``: the war is
  not fought, and the *last* tied player in seat order takes the pot (B with two
  players).  When one tied player is left, they take the pot; when none is, the pot is
  set aside (out of the game) and play goes on among the others.
* **The end**: the last player holding cards wins; when the last players leave
  together the game is a ``"tie"``.  A position (every player's pile, between battles)
  seen before means an endless game: ``"cycle"``, with ``battles`` the battle at which
  it first came back (as in the two-player engine).  ``max_battles`` caps the game
  (``"capped"``).

>>> deal_round_robin([9, 5, 3, 7, 4, 6], 3)
((9, 7), (5, 4), (3, 6))
>>> game = play_multi(deal_round_robin([9, 5, 3, 7, 4, 6], 3), "standard")
>>> game.winner, game.battles
('A', 2)
>>> play_multi([(5, 3, 4, 2), (2, 3, 5, 4)]).battles  # two players: the position after 9 came before
9
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from string import ascii_uppercase

from drawdsl import InvalidArgument
from games.war.rules import Rules, as_rules

__all__ = ["MultiGame", "deal_round_robin", "multi_battle", "play_multi", "seat_name"]

Pile = deque[int]


def seat_name(seat: int) -> str:
    """The name of seat ``seat`` (0-based): ``"A"``, ``"B"``, ... then ``"P27"``, ``"P28"``, ...

    >>> seat_name(0), seat_name(2), seat_name(26)
    ('A', 'C', 'P27')
    """
    return ascii_uppercase[seat] if seat < len(ascii_uppercase) else f"P{seat + 1}"


def deal_round_robin(cards: Sequence[int], players: int) -> tuple[tuple[int, ...], ...]:
    """Deal the cards one at a time round the table, seat A first; the first seats get
    the odd cards when the deck does not divide evenly.

    >>> deal_round_robin([5, 6, 7, 8, 9, 10, 11], 3)
    ((5, 8, 11), (6, 9), (7, 10))
    """
    players = check_players(players, len(cards), "deal_round_robin")
    cards = tuple(cards)
    return tuple(cards[seat::players] for seat in range(players))


def check_players(players: object, cards: int, what: str) -> int:
    """``players`` itself, if it is an int from 2 to ``cards``; else a clear error.

    >>> check_players(1, 8, "exact_multi")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    drawdsl.errors.InvalidArgument: exact_multi: players must be at least 2, got 1
    """
    if isinstance(players, bool) or not isinstance(players, int):
        raise TypeError(f"{what}: players must be an int (2 or more), got {players!r}")
    if players < 2:
        raise InvalidArgument(f"{what}: players must be at least 2, got {players}")
    if players > cards:
        raise InvalidArgument(
            f"{what}: {players} players need at least {players} cards, but the deck has {cards}; "
            "use fewer players or a bigger deck"
        )
    return players


def _ranks(cards: Sequence[int], deuce: bool, top: int) -> list[int]:
    """The comparison values of face-up cards: aces count lowest when a 2 is there too."""
    if deuce and 2 in cards and top != 2:
        return [0 if card == top else card for card in cards]
    return list(cards)


def multi_battle(piles: list[Pile], rules: Rules, top: int,
                 rng: random.Random | None = None) -> tuple[int | None, int, int]:
    """Play one battle among the players holding cards (``piles`` changed in place).

    Returns ``(taker, plays, wars)``: the seat that took the cards (None when every
    player of the last war left and the pot was set aside), the cards each player turned
    at most (face down included), and the war rounds.  A player who leaves during a war
    has their pile emptied.

    >>> piles = [deque([7, 3, 9]), deque([7, 4, 2]), deque([5, 8])]
    >>> multi_battle(piles, Rules(), top=14)  # A and B tie on 7: war; 9 beats 2
    (0, 3, 1)
    >>> [list(p) for p in piles]
    [[7, 3, 9, 7, 4, 2, 5], [], [8]]
    """
    active = [seat for seat, pile in enumerate(piles) if pile]
    took: dict[int, list[int]] = {seat: [] for seat in active}
    face: dict[int, int] = {}
    pot: list[int] = []  # "as_played" order, without the current face-up cards
    for seat in active:
        card = piles[seat].popleft()
        face[seat] = card
        took[seat].append(card)
    in_play = active
    plays = 1
    wars = 0
    face_down = rules.face_down
    need = face_down + 1
    deuce_rule = rules.deuce_beats_ace
    in_war = False
    taker: int | None
    while True:
        deuce = deuce_rule == "always" or (deuce_rule == "battles" and not in_war)
        values = _ranks([face[seat] for seat in in_play], deuce, top)
        best = max(values)
        tied = [seat for seat, value in zip(in_play, values, strict=True) if value == best]
        if len(tied) == 1:
            taker = tied[0]
            break
        # Cards of players who are not in the war stay on the table, face up.
        for seat in in_play:
            if seat not in tied:
                pot.append(face.pop(seat))
        short = rules.short_war
        shorts = [seat for seat in tied if len(piles[seat]) < need]
        if shorts and short == "b_takes":
            taker = tied[-1]
            break
        if short == "lose":
            leaving = shorts
        elif short == "last_card" or all(not piles[seat] for seat in tied):
            leaving = [seat for seat in tied if not piles[seat]]
        else:  # "available" with a tied player still holding cards: nobody leaves
            leaving = []
        for seat in leaving:
            pot.append(face.pop(seat))
            rest = list(piles[seat])
            piles[seat].clear()
            pot.extend(rest)
            took[seat].extend(rest)
        tied = [seat for seat in tied if seat not in leaving]
        if len(tied) <= 1:
            taker = tied[0] if tied else None
            break
        wars += 1
        placed = 0
        for seat in tied:
            pile = piles[seat]
            if not pile:  # "available": the face-up card stays for the next comparison
                continue
            k = min(face_down, len(pile) - 1)
            pot.append(face[seat])
            for _ in range(k):
                card = pile.popleft()
                pot.append(card)
                took[seat].append(card)
            face[seat] = pile.popleft()
            took[seat].append(face[seat])
            placed = max(placed, k + 1)
        plays += placed
        in_play = tied
        in_war = True
    if taker is None:  # everyone in the war left: the pot is out of the game
        return None, plays, wars
    gather = rules.gather
    others = [card for seat in active if seat != taker for card in took[seat]]
    if gather == "winner_first":
        won = took[taker] + others
    elif gather == "loser_first":
        won = others + took[taker]
    elif gather == "as_played":
        won = pot + [face[seat] for seat in sorted(face)]
    else:
        won = [card for seat in active for card in took[seat]]
        if rng is None:
            raise InvalidArgument("multi_battle: gather='shuffled' needs an rng")
        rng.shuffle(won)
    piles[taker].extend(won)
    return taker, plays, wars


@dataclass(frozen=True)
class MultiGame:
    """The record of one game with any number of players.

    ``winner``: a seat name (``"A"``, ``"B"``, ``"C"``, ...), ``"tie"`` (the last
    players ran out together), ``"cycle"`` (a position came back: the game never ends)
    or ``"capped"`` (stopped by ``max_battles``).  ``battles``: battles played (for a
    cycle: up to the first repeat).  ``plays``, ``wars``: as in
    :class:`~games.war.engine.Game`.  ``trace``: every player's pile size after every
    battle (when asked for).
    """

    winner: str
    battles: int
    plays: int
    wars: int
    trace: tuple[tuple[int, ...], ...] | None = None


def _hands(hands: Iterable[Iterable[int]]) -> list[tuple[int, ...]]:
    try:
        out = [tuple(hand) for hand in hands]
    except TypeError:
        raise TypeError(f"play_multi: hands must be a sequence of hands of ranks, got {hands!r}") from None
    for seat, hand in enumerate(out):
        for card in hand:
            if isinstance(card, bool) or not isinstance(card, int):
                raise TypeError(
                    f"play_multi: hand {seat_name(seat)} holds {card!r}; cards are integer ranks "
                    "such as 2..14"
                )
    if len(out) < 2:
        raise InvalidArgument(f"play_multi: War needs at least 2 hands, got {len(out)}")
    return out


def play_multi(
    hands: Iterable[Iterable[int]],
    rules: Rules | str = "standard",
    *,
    seed: int = 0,
    top: int | None = None,
    trace: bool = False,
) -> MultiGame:
    """Play a whole game from the players' hands (tops first, seat A first).

    ``top`` is the ace's rank (default: the highest card dealt); ``seed`` seeds the
    shuffled gather order only; ``trace=True`` records every pile size after every battle.

    >>> play_multi([[9, 2], [9, 3], [4, 5]], trace=True)  # A and B tie: war; B's 3 beats A's 2
    MultiGame(winner='B', battles=2, plays=3, wars=1, trace=((0, 5, 1), (0, 6, 0)))
    >>> play_multi([[14, 5], [2, 3], [9, 4]], Rules(deuce_beats_ace="always")).battles  # 9 wins first
    7
    """
    rules = as_rules(rules, "play_multi")
    start = _hands(hands)
    if top is None:
        top = max((card for hand in start for card in hand), default=2)
    rng = random.Random(seed) if rules.gather == "shuffled" else None
    piles = [deque(hand) for hand in start]
    seen: dict[tuple[tuple[int, ...], ...], int] = {}
    detect = rules.detect_cycles
    cap = rules.max_battles
    trace_list: list[tuple[int, ...]] | None = [] if trace else None
    battles = plays = wars = 0
    if detect:
        seen[tuple(start)] = 0
    while True:
        holding = [seat for seat, pile in enumerate(piles) if pile]
        if len(holding) <= 1:
            winner = seat_name(holding[0]) if holding else "tie"
            break
        if cap is not None and battles >= cap:
            winner = "capped"
            break
        _, p, w = multi_battle(piles, rules, top, rng)
        battles += 1
        plays += p
        wars += w
        if trace_list is not None:
            trace_list.append(tuple(len(pile) for pile in piles))
        if detect:
            position = tuple(tuple(pile) for pile in piles)
            if position in seen:
                winner = "cycle"
                break
            seen[position] = battles
    return MultiGame(winner, battles, plays, wars, tuple(trace_list) if trace_list is not None else None)
