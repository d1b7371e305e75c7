"""The position of the first ace (run with --deck A:4,x:48: explicit counts give string cards)."""

from drawdsl import draw_until


def is_ace(card):
    return card == "A"


first_ace = draw_until(is_ace).map(len)
