"""Command plug-ins: other packages add ``drawdsl NAME ...`` through an entry-point group.

A package declares, in its ``pyproject.toml``::

    [project.entry-points."drawdsl.commands"]
    mygame = "mygame.cli:add_commands"

and ``mygame.cli.add_commands(commands)`` receives the ``drawdsl`` command's sub-parsers
(what :meth:`argparse.ArgumentParser.add_subparsers` returns): it adds its parser with
``commands.add_parser("mygame", ...)`` and sets ``run=`` to a function
``(argparse.Namespace) -> int`` (the exit code).  The games shipped beside drawdsl,
``war`` and ``penney``, plug in this very way.  A plug-in that fails to load, or whose
function raises, costs one warning line on stderr; the rest of the command line works.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable
from importlib.metadata import EntryPoint, entry_points
from typing import Any, TextIO

from drawdsl.cli.common import one_line

__all__ = ["GROUP", "add_plugin_commands", "plugin_entry_points"]

#: The entry-point group a package declares its ``drawdsl`` commands in.
GROUP = "drawdsl.commands"


def plugin_entry_points() -> list[EntryPoint]:
    """The installed command plug-ins, sorted by name (so ``--help`` lists them in a fixed order).

    >>> [ep.name for ep in plugin_entry_points() if ep.value.startswith("games.")]
    ['penney', 'war']
    """
    found: Iterable[EntryPoint] = entry_points(group=GROUP)
    return sorted(found, key=lambda ep: (ep.name, ep.value))


def add_plugin_commands(commands: Any, *, warnings: TextIO | None = None) -> list[str]:
    """Let every plug-in add its commands to ``commands`` (the sub-parsers); returns those loaded.

    A plug-in that cannot be imported, whose function raises, or that would replace a
    command already there is left out with one line on ``warnings`` (stderr by default),
    and whatever it had added is taken back out.
    """
    loaded = []
    for entry in plugin_entry_points():
        before = dict(commands.choices)
        listed = list(commands._choices_actions)  # the lines of --help (argparse keeps no public handle)
        try:
            register: Callable[[Any], object] = entry.load()
            register(commands)
            replaced = [name for name, parser in before.items() if commands.choices.get(name) is not parser]
            if replaced:
                raise ValueError(f"it would replace the command {replaced[0]!r}")
        except Exception as err:
            commands.choices.clear()
            commands.choices.update(before)
            commands._choices_actions[:] = listed
            print(f"drawdsl: warning: skipped the plug-in {entry.name!r} ({entry.value}) of the "
                  f"{GROUP!r} entry points: {one_line(err)}", file=warnings or sys.stderr)
            continue
        loaded.append(entry.name)
    return loaded
