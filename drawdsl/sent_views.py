"""What a ``@generate`` spec looks at in the card it is sent: views that let a class skip replays.

A newcomer counts aces in a generator::

    @generate
    def aces():
        count = 0
        for _ in range(5):
            card = yield draw()
            count += card.rank == 14
        return count

The evaluator lumps the twelve other ranks into one class (:mod:`drawdsl.probes`,
:mod:`drawdsl.exact`), and checks at every state that each card of the class
continues like the first.  For a loop that check runs the step once per card; for a
generator it *replays the whole history* once per card (a generator cannot be
copied), which made this five-card hand twelve times slower than the counter written
with ``draw_count`` on a mapped deck.

:func:`sent_views` reads the generator's bytecode instead.  At the suspension where
the card is sent, the value must go straight into one local (``card = yield
draw()``) or be dropped (``yield draw()``), and *every* read of that local, anywhere
in the code, must be a *view*: the card, or one of its fields, compared with a
constant (``card.rank == 14``, ``card.suit != "H"``, ``14 <= card.rank``, ``card.suit
in "HD"``, ``card == 6``).  Then everything the generator ever learns of the card is
the list of those comparisons' answers.  :func:`view_groups` computes them for every
card of the class (the same operators on the same plain values, so the same answers
the generator would get); when every card gives the representative's answers, the
generator runs alike for each of them, whatever its state, and no replay is needed;
when they do not, the class splits along the answers (:func:`view_groups`).

The proof is the one of :mod:`drawdsl.order_blind` for what may reach the frame:

* the code (and code nested in it) has no cells and no free variables (a closure
  could read the card), catches no exception (a traceback holds the frame), imports
  nothing, rebinds no module name and names nothing that reaches a frame
  (``locals``, ``sys._getframe``, ``f_locals``, ...), and uses no ``EXTENDED_ARG``;
* when an evaluation first uses the proof for a function and suspension (plain
  arguments: once; others: at every use), every global name the code loads, every
  argument the generator was called with, and its function's defaults and
  attributes hold only what is shown to reach no frame (plain values and containers
  of them, safe builtins, drawdsl's functions, Python functions passing the same
  checks); a spec that rebinds them while it runs is not pure, and outside the proof;
* the values compared are plain (``int``, ``str``, ``bytes``, ``float``, ``bool``,
  ``None``, ``complex``): a probe card's shown field read through the probe's own
  accessor, or a card that is itself a plain value; the constants are plain values or
  tuples and frozensets of them; every answer is a ``bool`` (a comparison that
  raises is no proof).

Anything else (the card stored in another local, passed to a function, compared with
another card, a chained comparison, another Python than the one the bytecode is
modelled on) is no proof, and the class is checked by replays as before: slower,
never wrong.

>>> def aces():
...     count = 0
...     for _ in range(5):
...         card = yield
...         count += card.rank == 14
...     return count
>>> gen = aces(); gen.send(None)
>>> found = sent_views(gen.gi_frame.f_code, gen.gi_frame.f_lasti)
>>> found.name, found.views
('card', (('rank', '==', 14, False),))
>>> def keeps():
...     card = yield
...     last = card
...     return last.rank == 14
>>> gen = keeps(); gen.send(None)
>>> sent_views(gen.gi_frame.f_code, gen.gi_frame.f_lasti) is None
True
"""

from __future__ import annotations

import dis
import operator
import types
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from drawdsl.order_blind import MODELLED, _code_ok, code_instructions, reaches_no_frame
from drawdsl.probes import field_values

#: The plain types whose comparisons run no code of the spec's.
PLAIN = frozenset({int, str, bytes, float, bool, type(None), complex})

_COMPARE: dict[str, Callable[[Any, Any], Any]] = {
    "==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
    ">": operator.gt, ">=": operator.ge,
}
#: Instructions a suspension resumes through before the sent value is used.
_RESUMING = frozenset({"RESUME", "NOP", "CACHE"})


@dataclass(frozen=True)
class Views:
    """The views a generator takes of the value sent at one suspension.

    ``name``: the local the value is stored in (None: it is dropped); ``views``: each
    ``(field, op, constant, constant_first)``, field None for the value itself, op a
    comparison (``"=="``...) or ``"in"``/``"not in"``.
    """

    name: str | None
    views: tuple[tuple[str | None, str, Any, bool], ...]


_CACHE: dict[tuple[types.CodeType, int], Views | None] = {}


def sent_views(code: types.CodeType, lasti: int) -> Views | None:
    """The views the generator of ``code``, suspended at offset ``lasti``, takes of the
    value it is sent there; None when that is not shown (see the module docstring)."""
    key = (code, lasti)
    if key in _CACHE:
        return _CACHE[key]
    found = _CACHE[key] = _prove(code, lasti)
    return found


def _plain_constant(value: Any) -> bool:
    if type(value) in PLAIN:
        return True
    return type(value) in (tuple, frozenset) and all(type(item) in PLAIN for item in value)


def _prove(code: types.CodeType, lasti: int) -> Views | None:
    if not MODELLED or code.co_cellvars or code.co_freevars or not _code_ok(code):
        return None
    instructions = code_instructions(code)
    if any(ins.opname == "EXTENDED_ARG" for ins in instructions):
        return None
    at = next((i for i, ins in enumerate(instructions) if ins.offset == lasti), None)
    if at is None or instructions[at].opname != "YIELD_VALUE":
        return None
    i = at + 1
    while i < len(instructions) and instructions[i].opname in _RESUMING:
        i += 1
    if i == len(instructions):
        return None
    sent = instructions[i]
    if sent.opname == "POP_TOP":
        return Views(None, ())
    if sent.opname != "STORE_FAST" or not isinstance(sent.argval, str):
        return None
    name = sent.argval
    views: list[tuple[str | None, str, Any, bool]] = []
    for j, ins in enumerate(instructions):
        if ins.argval != name or ins.opcode not in _LOCAL:
            continue
        if ins.opname in ("STORE_FAST", "DELETE_FAST"):
            continue
        if ins.opname != "LOAD_FAST":
            return None
        view = _view(instructions, j)
        if view is None:
            return None
        if view not in views:
            views.append(view)
    return Views(name, tuple(views))


_LOCAL = frozenset(dis.haslocal) | frozenset(dis.hasfree)


def _view(instructions: list[dis.Instruction], j: int) -> tuple[str | None, str, Any, bool] | None:
    """The view the read of the card's local at ``j`` is part of, or None."""

    def at(k: int) -> dis.Instruction | None:
        return instructions[k] if 0 <= k < len(instructions) else None

    k = j + 1
    field: str | None = None
    nxt = at(k)
    if nxt is not None and nxt.opname == "LOAD_ATTR" and isinstance(nxt.argval, str):
        field = nxt.argval
        k += 1
    nxt = at(k)
    if nxt is not None and nxt.opname == "LOAD_CONST":
        # value OP constant: the constant is pushed on this path, right after the value.
        op = _operator(at(k + 1))
        if op is None or not _plain_constant(nxt.argval):
            return None
        return (field, op, nxt.argval, False)
    before = at(j - 1)
    if before is not None and before.opname == "LOAD_CONST" and not instructions[j].is_jump_target:
        # constant OP value: nothing jumps to the read, so the constant below it is the
        # one pushed just before.
        op = _operator(nxt)
        if op is None or not _plain_constant(before.argval):
            return None
        return (field, op, before.argval, True)
    return None


def _operator(ins: dis.Instruction | None) -> str | None:
    if ins is None:
        return None
    if ins.opname == "COMPARE_OP" and ins.argval in _COMPARE:
        return str(ins.argval)
    if ins.opname == "CONTAINS_OP" and ins.argval in (0, 1):
        return "not in" if ins.argval else "in"
    return None


def _answer(op: str, left: Any, right: Any) -> Any:
    if op == "in":
        return operator.contains(right, left)
    if op == "not in":
        return not operator.contains(right, left)
    return _COMPARE[op](left, right)


def view_groups(
    func: Any, args: tuple[Any, ...], kwargs: tuple[tuple[str, Any], ...], where: tuple[types.CodeType, int],
    members: tuple[Any, ...],
) -> list[list[Any]] | None:
    """The cards of ``members`` (deck cards: :class:`~drawdsl.probes.Token` or plain
    values) grouped by their answers to every view the generator ``func(*args,
    **kwargs)``, suspended at ``where`` (its code and offset), takes of the card it is
    sent there, first found first: the cards of a group resume it alike.  None when
    that is not shown (see the module docstring).
    """
    code, lasti = where
    if type(func) is not types.FunctionType or func.__code__ is not code or func.__closure__:
        return None
    found = sent_views(code, lasti)
    if found is None:
        return None
    # Defaults fill the parameters not passed; the function's attributes are its own.
    given = (*args, *(value for _, value in kwargs), *(func.__defaults__ or ()),
             *(func.__kwdefaults__ or {}).values(), *func.__dict__.values())
    if not reaches_no_frame(code, func.__globals__, getattr(func, "__builtins__", None), given):
        return None
    columns = {field: field_values(members, field) for field, _, _, _ in found.views if field is not None}
    answers = []  # per view, every card's answer
    for field, op, constant, constant_first in found.views:
        column = []
        for value in (members if field is None else columns[field]):
            if type(value) not in PLAIN:
                return None
            try:
                answer = _answer(op, constant, value) if constant_first else _answer(op, value, constant)
            except Exception:
                return None
            if type(answer) is not bool:
                return None
            column.append(answer)
        answers.append(column)
    keys: list[tuple[bool, ...]] = list(zip(*answers, strict=True)) if answers else [()] * len(members)
    groups: dict[tuple[bool, ...], list[Any]] = {}
    for card, key in zip(members, keys, strict=True):
        groups.setdefault(key, []).append(card)
    return list(groups.values())
