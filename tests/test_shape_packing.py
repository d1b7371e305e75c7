"""Shapes packed into one int (drawdsl.shapes.Packing): each child-shape function
(`_build`'s special cases are integer operations) against the plain list algorithm."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from drawdsl.shapes import Packing, _build, child_shape


def _child(
    shape: list[int], p: int, released: tuple[int, ...], drawn: int, insert_at: int, k: int,
) -> list[int]:
    """The child shape as a list (pinned counts, then counts of counts), step by step."""
    s = list(shape)
    keep = insert_at >= 0
    if drawn >= 0:
        s[drawn] -= 1  # a pinned card drawn
    else:
        s[p + k - 1] -= 1  # a free card of class k drawn: the class loses it
        if k > 1 and not keep:
            s[p + k - 2] += 1  # and the class below gains it, unless it is pinned now
    for r in released:
        if s[r]:
            s[p + s[r] - 1] += 1  # a pinned card let go joins the free class of its count
    for r in sorted(released, reverse=True):
        del s[r]
    if keep:
        s.insert(insert_at, k - 1)
    return s


@st.composite
def moves(draw: Any) -> tuple[Any, ...]:
    top = draw(st.integers(1, 4))
    p = draw(st.integers(0, 4))
    pinned = draw(st.lists(st.integers(0, top), min_size=p, max_size=p))
    free = draw(st.lists(st.integers(0, 6), min_size=top, max_size=top))
    drawable = [i for i in range(p) if pinned[i]] + [p + k - 1 for k in range(1, top + 1) if free[k - 1]]
    at = draw(st.sampled_from(drawable)) if drawable else None
    if at is None:
        return ()
    released = tuple(sorted(draw(st.sets(st.integers(0, p - 1), max_size=p)))) if p else ()
    if at < p:
        drawn, k, insert_at = at, 0, -1
        if at in released:
            released = tuple(r for r in released if r != at)
    else:
        drawn, k = -1, at - p + 1
        kept_p = p - len(released)
        insert_at = draw(st.integers(-1, kept_p))
    return top, p, (*pinned, *free), released, drawn, insert_at, k


@settings(max_examples=500, deadline=None)
@given(moves())
def test_every_child_shape_function_agrees_with_the_list_algorithm(move: tuple[Any, ...]) -> None:
    if not move:
        return
    top, p, shape, released, drawn, insert_at, k = move
    pack = Packing(top, 6 + p + top)
    x = pack.pack(shape[:p], shape[p:])
    assert pack.unpack(x, p) == shape
    child_p = p - len(released) + (insert_at >= 0)
    expected = _child(list(shape), p, released, drawn, insert_at, k)
    got = child_shape(_build(released, drawn, insert_at, p, pack), x, k)
    assert pack.unpack(got, child_p) == tuple(expected)
    assert got == pack.pack(tuple(expected[:child_p]), tuple(expected[child_p:]))
