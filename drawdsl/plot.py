"""Plots in one call: a Distribution (or a simulated Tally) as a bar chart, with matplotlib.

matplotlib is optional and imported only when :func:`plot` runs; install it with
``pip install "drawdsl[plot]"`` (or ``pip install matplotlib``).  :func:`bars` gives
the same bars as data, without matplotlib.

>>> from drawdsl import Cards, chances, draw
>>> bars(chances(draw().where(lambda c: c != "c"), Cards("aabc")))
[('a', 0.5, 'outcome'), ('b', 0.25, 'outcome'), ('(fails)', 0.25, 'failure')]
"""

from __future__ import annotations

from contextlib import suppress
from typing import Any

from drawdsl.distribution import Distribution
from drawdsl.extras import require
from drawdsl.sampling import Tally

__all__ = ["plot", "bars"]

_OUTCOME_COLOR = "#4c78a8"
_FAILURE_COLOR = "#bab0ac"


def bars(result: Distribution[Any] | Tally[Any], *, failure: bool = True) -> list[tuple[str, float, str]]:
    """The bars of :func:`plot`: ``(label, height, kind)``, kind ``"outcome"`` or ``"failure"``.

    Outcomes come in their own order when they compare (1, 2, 3...), else most likely
    first; heights are probabilities, or observed frequencies for a Tally.  The failure
    mass is a last bar labelled ``(fails)`` when it is not zero and ``failure`` is true.

    >>> from drawdsl import Tally
    >>> bars(Tally({2: 1, 1: 3}))
    [('1', 0.75, 'outcome'), ('2', 0.25, 'outcome')]
    """
    if isinstance(result, Distribution):
        items = [(v, float(p)) for v, p in result.items()]
        failed = float(result.failure)
    elif isinstance(result, Tally):
        n = result.n or 1
        items = [(v, c / n) for v, c in result.items()]
        failed = result.failures / n
    else:
        raise TypeError(
            f"plot: expected a Distribution (from chances) or a Tally (from simulate), "
            f"got {result!r} ({type(result).__name__})"
        )
    items.sort(key=lambda item: -item[1])
    with suppress(TypeError):
        items.sort(key=lambda item: item[0])
    out = [(str(v), h, "outcome") for v, h in items]
    if failure and failed:
        out.append(("(fails)", failed, "failure"))
    return out


def _pyplot() -> Any:
    return require("matplotlib.pyplot", "plot", "drawdsl.plot")


def plot(
    result: Distribution[Any] | Tally[Any],
    ax: Any = None,
    *,
    failure: bool = True,
    title: str | None = None,
) -> Any:
    """Draw ``result`` as a bar chart on ``ax`` (a new figure when None); returns the Axes.

    Outcome bars are blue, the failure mass (when ``failure``) grey.  Example, in a
    notebook: ``plot(chances(spec, deck))``.
    """
    data = bars(result, failure=failure)
    plt = _pyplot()  # imported even with an ax: a clear error beats a late AttributeError
    if ax is None:
        _, ax = plt.subplots()
    labels = [label for label, _, _ in data]
    heights = [height for _, height, _ in data]
    colors = [_OUTCOME_COLOR if kind == "outcome" else _FAILURE_COLOR for _, _, kind in data]
    ax.bar(range(len(data)), heights, color=colors)
    ax.set_xticks(range(len(data)))
    ax.set_xticklabels(labels, rotation=90 if len(data) > 12 or max(map(len, labels), default=0) > 6 else 0)
    ax.set_ylabel("probability" if isinstance(result, Distribution) else "frequency")
    if title is not None:
        ax.set_title(title)
    return ax
