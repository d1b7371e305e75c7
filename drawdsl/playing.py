"""Playing cards: the standard 52-card deck, multi-deck shoes and jokers.

Ranks are integers 2..14 with the ace high (14); ``rank_name`` gives ``"A"``,
``"K"``..``"2"``.  Suits are ``"S"``, ``"H"``, ``"D"``, ``"C"``.

>>> deck = standard_deck()
>>> len(deck), Card(14, "S") in deck
(52, True)
>>> str(Card(10, "H")), Card.parse("QD")
('TH', Card(rank=12, suit='D'))
>>> deck.map(lambda card: card.suit)
Cards({'S': 13, 'H': 13, 'D': 13, 'C': 13})
"""

from __future__ import annotations

from typing import NamedTuple

from drawdsl.cards import MAX_CARDS, Cards
from drawdsl.errors import InvalidArgument

__all__ = ["Card", "RANKS", "SUITS", "JOKER", "standard_deck", "shoe", "rank_name"]

RANKS: tuple[int, ...] = tuple(range(2, 15))
SUITS: tuple[str, ...] = ("S", "H", "D", "C")
_RANK_NAMES = {10: "T", 11: "J", 12: "Q", 13: "K", 14: "A", 0: "*"}
_NAME_RANKS = {name: rank for rank, name in _RANK_NAMES.items()} | {str(r): r for r in range(2, 10)}


def rank_name(rank: int) -> str:
    """The one-letter name of a rank: 14 -> ``"A"``, 10 -> ``"T"``, 7 -> ``"7"``.

    >>> rank_name(14)
    'A'
    """
    return _RANK_NAMES.get(rank, str(rank))


class Card(NamedTuple):
    """A playing card: ``rank`` 2..14 (ace high) and ``suit`` in ``SUITS``; the joker is rank 0.

    >>> Card(14, "H").color
    'red'
    """

    rank: int
    suit: str

    @property
    def color(self) -> str:
        """``"red"`` for hearts and diamonds, ``"black"`` for spades and clubs."""
        return "red" if self.suit in ("H", "D") else "black"

    @property
    def is_ace(self) -> bool:
        """True for the four aces."""
        return self.rank == 14

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read ``"AS"``, ``"TH"``, ``"10H"`` or ``"**"`` (the joker).

        >>> Card.parse("10H") == Card.parse("TH")
        True
        """
        if not isinstance(text, str):
            raise TypeError(f"Card.parse: text must be a str such as 'AS', got {text!r}")
        text = text.strip().upper()
        rank_text, suit = text[:-1], text[-1:]
        if rank_text == "10":
            rank_text = "T"
        if text == "**":
            return JOKER
        if rank_text not in _NAME_RANKS or rank_text == "*" or suit not in SUITS:
            raise InvalidArgument(
                f"Card.parse: cannot read {text!r}; write a rank (2-9, T, J, Q, K, A) "
                "then a suit (S, H, D, C), for example 'AS' or 'TH'"
            )
        return cls(_NAME_RANKS[rank_text], suit)

    def __str__(self) -> str:
        return "**" if self == JOKER else rank_name(self.rank) + self.suit


#: The joker (rank 0, suit "*").
JOKER = Card(0, "*")


def standard_deck(jokers: int = 0) -> Cards[Card]:
    """The 52-card deck, plus ``jokers`` jokers.

    >>> len(standard_deck(jokers=2))
    54
    """
    return shoe(1, jokers=jokers)


def shoe(decks: int, jokers: int = 0) -> Cards[Card]:
    """``decks`` standard decks shuffled together (a blackjack shoe), plus jokers.

    >>> shoe(6).count(Card(14, "S"))
    6
    """
    for name, value, least in (("decks", decks, 1), ("jokers", jokers, 0)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"shoe: {name} must be an int, got {value!r} ({type(value).__name__})")
        if value < least:
            kind = "a positive" if least else "a non-negative"
            raise InvalidArgument(f"shoe: {name} must be {kind} int, got {value!r}")
    if decks * len(SUITS) * len(RANKS) + jokers > MAX_CARDS:
        raise InvalidArgument(
            f"shoe: decks={decks} and jokers={jokers} make more than {MAX_CARDS} cards (2**63 - 1, "
            "the most a deck can hold); a shoe that size behaves as draws with replacement: "
            "use a Weighted source"
        )
    counts = {Card(rank, suit): decks for suit in SUITS for rank in RANKS}
    if jokers:
        counts[JOKER] = jokers
    return Cards(counts)
