"""A pocket pair: the first two cards have the same rank (run with --deck ranks)."""

from drawdsl import draw, fail, generate


@generate
def pocket_pair():
    first = yield draw()
    second = yield draw()
    if first != second:
        yield fail()
    return first
