"""A heatmap of a table of pairwise odds (needs matplotlib: ``pip install "drawdsl[plot]"``).

Rows are the first player's pattern, columns the second player's, and each cell the
chance that the second pattern wins; the diagonal is empty.

>>> from games.penney.table import pair_table
>>> matrix(pair_table(2))[0]
[None, 0.5, 0.75, 0.5]
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from typing import Any, Protocol

from drawdsl import MissingExtra
from drawdsl.extras import require

__all__ = ["MissingExtra", "matrix", "heatmap"]


class _Row(Protocol):
    @property
    def first(self) -> str: ...

    @property
    def second(self) -> str: ...

    @property
    def second_wins(self) -> Any: ...


def _labels(rows: Sequence[_Row]) -> list[str]:
    return sorted({row.first for row in rows} | {row.second for row in rows})


def matrix(rows: Iterable[_Row]) -> list[list[float | None]]:
    """The chances that the column pattern beats the row pattern, as floats (None on the diagonal)."""
    rows = list(rows)
    labels = _labels(rows)
    where = {label: i for i, label in enumerate(labels)}
    grid: list[list[float | None]] = [[None] * len(labels) for _ in labels]
    for row in rows:
        grid[where[row.first]][where[row.second]] = float(row.second_wins)
    return grid


def _pyplot() -> Any:
    matplotlib = require("matplotlib", "plot", "the heatmap")
    matplotlib.use("Agg")
    return require("matplotlib.pyplot", "plot", "the heatmap")


def heatmap(rows: Iterable[_Row], path: str | os.PathLike[str], title: str | None = None) -> None:
    """Draw the table as a heatmap and save it to ``path`` (the format follows the suffix)."""
    rows = list(rows)
    plt = _pyplot()
    labels = _labels(rows)
    grid = [[float("nan") if v is None else v for v in line] for line in matrix(rows)]
    size = max(4.0, 0.45 * len(labels) + 2)
    fig, ax = plt.subplots(figsize=(size + 1, size))
    image = ax.imshow(grid, cmap="RdBu_r", vmin=0.0, vmax=1.0)
    ax.set_xticks(range(len(labels)), labels, rotation=90, fontfamily="monospace")
    ax.set_yticks(range(len(labels)), labels, fontfamily="monospace")
    ax.set_xlabel("second player's pattern")
    ax.set_ylabel("first player's pattern")
    ax.set_title(title or "P(second player's pattern appears first)")
    if len(labels) <= 16:
        for i, line in enumerate(grid):
            for j, value in enumerate(line):
                if value == value:  # not NaN
                    ax.text(j, i, f"{value:.2f}", ha="center", va="center", fontsize=7)
    fig.colorbar(image, ax=ax)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
