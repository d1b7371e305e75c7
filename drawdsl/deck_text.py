"""Decks written as text (the command line's ``--deck``): a small grammar, never evaluated as code.

The grammar, one form per line:

- ``standard``: the 52 playing cards (:func:`~drawdsl.standard_deck`), as :class:`~drawdsl.Card`
- ``ranks``: the 52 cards seen as ranks, ints ``2`` .. ``14`` (ace high), 4 of each
- ``suits``: the 52 cards seen as suits, ``"S"``, ``"H"``, ``"D"``, ``"C"``, 13 of each
- ``colors``: the 52 cards seen as colours, ``"red"`` and ``"black"``, 26 of each
- ``shoe:N``: ``N`` standard decks shuffled together (:func:`~drawdsl.shoe`), as Card
- ``LABEL:COUNT,LABEL:COUNT,...``: explicit counts, such as ``A:4,x:48``

Explicit counts give **string** cards, always: ``2:4`` is four copies of the string
``"2"``, never the number 2, so a spec run on such a deck compares with strings.
Names (``standard``, ``shoe``...) are case-insensitive; labels are kept as written,
spaces around them dropped.  A label may hold any characters except ``,`` and ``:``.

>>> parse_deck("A:4,x:48")
Cards({'A': 4, 'x': 48})
>>> parse_deck("colors")
Cards({'black': 26, 'red': 26})
>>> len(parse_deck("shoe:6"))
312

An **aspect** is what a spec sees of each playing card of ``standard`` or ``shoe:N``
(the command line's ``--aspect``): ``rank`` (ints 2..14), ``suit``, ``colour`` (``color``),
``value`` (ace 1, pips 2..10, J/Q/K 10, as in blackjack's hard count and cribbage),
``face`` (True for J, Q, K), or ``is:X`` (True for the cards X names: a rank such as
``K`` or ``10``, a suit such as ``H``, a colour ``red``/``black``, or one card such as ``AS``).

>>> parse_deck("standard", aspect="is:K")
Cards({False: 48, True: 4})
>>> parse_deck("shoe:2", aspect="value").count(10)
32
"""

from __future__ import annotations

import difflib
from collections.abc import Callable
from typing import Any

from drawdsl.cards import Cards
from drawdsl.errors import InvalidArgument
from drawdsl.playing import RANKS, SUITS, Card, rank_name, shoe, standard_deck

__all__ = ["parse_deck", "aspect", "with_aspect", "DECK_NAMES", "DECK_HELP", "ASPECT_NAMES", "ASPECT_HELP"]


def _rank(card: Card) -> int:
    return card.rank


def _suit(card: Card) -> str:
    return card.suit


def _color(card: Card) -> str:
    return card.color


#: The named decks: each is the standard deck seen through one aspect (or not at all).
_VIEWS: dict[str, Callable[[Card], Any] | None] = {
    "standard": None,
    "ranks": _rank,
    "suits": _suit,
    "colors": _color,
}

DECK_NAMES: tuple[str, ...] = (*_VIEWS, "shoe:N")

#: One line describing the grammar, for ``--help`` texts and error messages.
DECK_HELP = "standard, ranks, suits, colors, shoe:N (N standard decks), or counts such as A:4,x:48"


def _value(card: Card) -> int:
    return 1 if card.rank == 14 else min(card.rank, 10)


def _face(card: Card) -> bool:
    return card.rank in (11, 12, 13)


_ASPECTS: dict[str, Callable[[Card], Any]] = {
    "rank": _rank,
    "suit": _suit,
    "colour": _color,
    "color": _color,
    "value": _value,
    "face": _face,
}

ASPECT_NAMES: tuple[str, ...] = (*_ASPECTS, "is:X")

#: One line describing the aspects, for ``--help`` texts and error messages.
ASPECT_HELP = (
    "rank (2..14), suit, colour, value (A=1, J/Q/K=10), face (J, Q, K), or is:X (True for X: "
    "a rank such as K, a suit such as H, red or black, or a card such as AS)"
)


def _is(text: str) -> Callable[[Card], bool]:
    """The test ``is:X`` names: of a rank, a suit, a colour or one card."""
    word = text.strip().upper()
    if word in ("RED", "BLACK"):
        colour = word.lower()
        return lambda card: card.color == colour
    if word in SUITS:
        return lambda card: card.suit == word
    rank = _RANK_WORDS.get(word)
    if rank is not None:
        return lambda card: card.rank == rank
    try:
        one = Card.parse(word)
    except InvalidArgument:
        raise InvalidArgument(
            f"aspect: cannot read {text.strip()!r} in is:X; write a rank (2-10, J, Q, K, A), a suit "
            "(S, H, D, C), red or black, or a card such as AS"
        ) from None
    return lambda card: card == one


_RANK_WORDS = {rank_name(rank): rank for rank in RANKS} | {"10": 10}


def aspect(name: str) -> Callable[[Card], Any]:
    """The function that an aspect's name stands for (see the module doc).

    >>> aspect("value")(Card(12, "H")), aspect("is:A")(Card(14, "C"))
    (10, True)
    """
    if not isinstance(name, str):
        raise TypeError(f"aspect: name must be a str such as 'rank' or 'is:K', got {name!r}")
    word = name.strip().lower()
    if word in _ASPECTS:
        return _ASPECTS[word]
    head, colon, rest = name.strip().partition(":")
    if colon and head.strip().lower() == "is":
        return _is(rest)
    close = difflib.get_close_matches(word, [*_ASPECTS, "is:"], n=1)
    hint = f"did you mean {close[0]!r}? " if close else ""
    raise InvalidArgument(f"aspect: unknown aspect {name.strip()!r}; {hint}write one of {ASPECT_HELP}")


def with_aspect(deck: Cards[Any], name: str, deck_text: str = "the deck") -> Cards[Any]:
    """``deck`` (of playing cards) seen through the aspect ``name``.

    >>> with_aspect(standard_deck(), "face")
    Cards({False: 40, True: 12})
    """
    view = aspect(name)
    strangers = [card for card in deck.distinct() if not isinstance(card, Card)]
    if strangers:
        raise InvalidArgument(
            f"aspect: {name.strip()!r} looks at playing cards, but {deck_text} holds "
            f"{strangers[0]!r} ({type(strangers[0]).__name__}); use it with the standard or shoe:N deck"
        )
    return deck.map(view)


def _count(text: str, token: str, what: str) -> int:
    """A positive decimal count; ``token`` is the whole item, for the message."""
    digits = text.strip()
    if not digits.isdecimal() or not digits.isascii():
        raise InvalidArgument(
            f"deck: {what} in {token!r} must be a positive whole number, got {digits!r}"
        )
    value = int(digits)
    if value < 1:
        raise InvalidArgument(
            f"deck: {what} in {token!r} must be at least 1, got {value} "
            "(leave the card out instead of giving it count 0)"
        )
    return value


def _named(word: str) -> Cards[Any]:
    view = _VIEWS[word]
    deck = standard_deck()
    return deck if view is None else deck.map(view)


def _counts(text: str) -> Cards[str]:
    counts: dict[str, int] = {}
    for item in text.split(","):
        token = item.strip()
        if not token:
            raise InvalidArgument(
                f"deck: empty item in {text!r}; write LABEL:COUNT items separated by single commas"
            )
        label, colon, count = token.partition(":")
        label = label.strip()
        if not colon:
            raise InvalidArgument(
                f"deck: cannot read {token!r}; write LABEL:COUNT such as A:4 "
                f"(or one of {DECK_HELP})"
            )
        if not label:
            raise InvalidArgument(
                f"deck: {token!r} has no label before the ':'; write LABEL:COUNT such as A:4"
            )
        if ":" in count:
            raise InvalidArgument(
                f"deck: {token!r} has more than one ':'; write LABEL:COUNT such as A:4"
            )
        if label in counts:
            raise InvalidArgument(
                f"deck: the label {label!r} appears twice; give each label once with its total count"
            )
        counts[label] = _count(count, token, "the count")
    return Cards(counts)


def parse_deck(text: str, aspect: str | None = None) -> Cards[Any]:
    """The deck that ``text`` describes (see the module doc for the grammar), seen through
    ``aspect`` when given (for ``standard`` and ``shoe:N``, whose cards are playing cards).

    Errors are :class:`~drawdsl.InvalidArgument` naming the token at fault.

    >>> parse_deck("ranks").count(14)
    4
    >>> parse_deck("shoe:2").count(Card(14, "S"))
    2
    >>> parse_deck("A:4, x:0")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    drawdsl.errors.InvalidArgument: deck: the count in 'x:0' must be at least 1, got 0 (leave the card out...)
    """
    if not isinstance(text, str):
        raise TypeError(f"parse_deck: text must be a str such as 'ranks' or 'A:4,x:48', got {text!r}")
    deck = _parse(text)
    return deck if aspect is None else with_aspect(deck, aspect, f"--deck {text.strip()}")


def _parse(text: str) -> Cards[Any]:
    stripped = text.strip()
    if not stripped:
        raise InvalidArgument(f"deck: empty deck text; write one of {DECK_HELP}")
    word = stripped.lower()
    if word in _VIEWS:
        return _named(word)
    head, colon, rest = word.partition(":")
    if head.strip() == "shoe" and "," not in word:
        if not colon:
            raise InvalidArgument("deck: 'shoe' needs a number of decks; write shoe:N such as shoe:6")
        return shoe(_count(rest, stripped, "the number of decks"))
    if "," in stripped or ":" in stripped:
        return _counts(stripped)
    close = difflib.get_close_matches(word, [*_VIEWS, "shoe"], n=1)
    hint = f"did you mean {close[0]!r}? " if close else ""
    raise InvalidArgument(f"deck: unknown deck {stripped!r}; {hint}write one of {DECK_HELP}")
