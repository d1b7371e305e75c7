"""The exceptions drawdsl raises, each a subclass of the built-in type it refines.

Every message says what was wrong, which argument or step it concerns, and what
to do instead, so that catching ``ValueError`` or ``TypeError`` keeps working for
callers who do not know our types.

>>> from drawdsl import Cards
>>> try:
...     Cards({"A": 0})
... except InvalidArgument as err:
...     print(err)  # doctest: +ELLIPSIS
counts: card 'A' has count 0; every count must be a positive integer (leave the card out...)
"""

from __future__ import annotations

__all__ = [
    "DrawdslError",
    "InvalidArgument",
    "NotASpec",
    "StateLimitExceeded",
    "EndlessProcess",
    "MissingExtra",
    "add_note",
]


class DrawdslError(Exception):
    """Base class of every error drawdsl raises on purpose."""


class InvalidArgument(DrawdslError, ValueError):
    """An argument has the right type but an unusable value (a count of 0, a limit of -1)."""


class NotASpec(DrawdslError, TypeError):
    """A continuation, step function or generator produced something that is not a spec."""


class StateLimitExceeded(DrawdslError, RuntimeError):
    """An evaluation reached more states (or draws) than its configured limit."""


class EndlessProcess(DrawdslError, ValueError):
    """A with-replacement process can draw forever with positive probability."""


class MissingExtra(DrawdslError, ImportError):
    """A feature needs an optional dependency (an extra) that is not installed."""


def add_note(err: BaseException, text: str) -> None:
    """``err.add_note(text)`` (Python 3.11+), or the same ``__notes__`` list by hand before.

    Long runs use it to say how far they got when interrupted; the command line prints
    the notes on its one line.

    >>> err = KeyboardInterrupt()
    >>> add_note(err, "drawdsl: 10 of 100 games played")
    >>> err.__notes__
    ['drawdsl: 10 of 100 games played']
    """
    notes = getattr(err, "__notes__", None)
    if notes is None:
        notes = []
        try:
            err.__notes__ = notes  # type: ignore[attr-defined]
        except AttributeError:  # pragma: no cover - an exception type with __slots__
            return
    notes.append(text)
