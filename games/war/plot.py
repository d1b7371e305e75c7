"""Pictures of a simulation (matplotlib, an optional extra): how long games last, how A's
pile rises and falls, and whether a stronger starting hand wins more often.

Each function draws on a matplotlib ``Axes`` (a new figure when none is given) and
returns it; :func:`save_report` puts the three side by side in one file.  Without
matplotlib installed they raise a ``MissingExtra`` that says what to install.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from drawdsl import InvalidArgument
from drawdsl.extras import require
from games.war.exact_game import ExactGame
from games.war.simulate import GameTable

__all__ = ["plot_lengths", "plot_traces", "plot_win_rate", "save_report", "plot_battles_law",
           "save_battles_law"]


def _pyplot() -> Any:
    matplotlib = require("matplotlib", "plot", "War plots")
    matplotlib.use("Agg", force=False)
    return require("matplotlib.pyplot", "plot", "War plots")


def _axes(ax: Any) -> Any:
    if ax is not None:
        return ax
    _, new = _pyplot().subplots()
    return new


def plot_lengths(table: GameTable, ax: Any = None, bins: int = 50) -> Any:
    """A histogram of the number of battles of the games that end."""
    ax = _axes(ax)
    lengths = table.battles[table.winner_code <= 2]
    ax.hist(lengths, bins=bins, color="tab:blue")
    ax.set_xlabel("battles")
    ax.set_ylabel("games")
    ax.set_title(f"Game length ({len(lengths)} games that end)")
    return ax


def plot_traces(table: GameTable, ax: Any = None, games: int = 10) -> Any:
    """A's pile size after every battle, for the first ``games`` games (needs ``trace=True``)."""
    if table.traces is None:
        raise InvalidArgument("plot_traces: the table has no traces; simulate(..., trace=True)")
    ax = _axes(ax)
    for i, trace in enumerate(table.traces[:games]):
        ax.plot(range(1, len(trace) + 1), trace, linewidth=0.8, label=f"game {i}")
    ax.axhline(table.ranks * table.suits / 2, color="grey", linewidth=0.5)
    ax.set_xlabel("battle")
    ax.set_ylabel("cards held by A")
    ax.set_title(f"A's pile, {min(games, len(table.traces))} games")
    return ax


def plot_win_rate(table: GameTable, ax: Any = None, by: str = "strength", bins: int = 8) -> Any:
    """P(A wins) with its confidence interval, by groups of a starting-hand column."""
    ax = _axes(ax)
    groups = table.grouped(by, bins=bins if by == "strength" else None)
    centres = [(g.low + g.high) / 2 for g in groups]
    values = [g.p_first_wins.value for g in groups]
    errors = [[g.p_first_wins.value - g.p_first_wins.low for g in groups],
              [g.p_first_wins.high - g.p_first_wins.value for g in groups]]
    ax.errorbar(centres, values, yerr=errors, fmt="o-", capsize=3)
    ax.set_xlabel(f"A's starting {by}")
    ax.set_ylabel("P(A wins)")
    ax.set_title(f"Win rate by starting {by}")
    return ax


def save_report(table: GameTable, path: str | Path) -> Path:
    """Lengths, traces (when the table has them) and win rate by strength, in one image."""
    plt = _pyplot()
    panels = 3 if table.traces is not None else 2
    fig, axes = plt.subplots(1, panels, figsize=(5 * panels, 4), constrained_layout=True)
    plot_lengths(table, axes[0])
    if table.traces is not None:
        plot_traces(table, axes[1])
    plot_win_rate(table, axes[-1])
    out = Path(path)
    fig.savefig(out)
    plt.close(fig)
    return out


def plot_battles_law(result: ExactGame, ax: Any = None) -> Any:
    """The exact law of the number of battles of the games that end, one bar per length."""
    ax = _axes(ax)
    law = result.battles
    ax.bar(list(law), [float(p) for p in law.values()], color="tab:blue", width=0.9)
    ax.set_xlabel("battles")
    ax.set_ylabel("probability")
    ax.set_title(f"Battles of a game that ends, every deal of {result.ranks} x {result.suits} (exact)")
    return ax


def save_battles_law(result: ExactGame, path: str | Path) -> Path:
    """:func:`plot_battles_law` in an image file."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(8, 4), constrained_layout=True)
    plot_battles_law(result, ax)
    out = Path(path)
    fig.savefig(out)
    plt.close(fig)
    return out
