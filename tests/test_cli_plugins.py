"""Command plug-ins: the `drawdsl.commands` entry points, for the shipped games and a third party.

A third-party plug-in is installed the way pip leaves one: a ``*.dist-info`` folder with an
``entry_points.txt`` beside its module, on ``sys.path`` (no pip run needed).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import re
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from drawdsl.cli import main
from drawdsl.cli.plugins import GROUP, add_plugin_commands, plugin_entry_points

ROOT = Path(__file__).resolve().parent.parent

#: A third-party game library's command module, as docs/embedding.md shows it: ``drawdsl dice``.
DICE = (ROOT / "docs" / "examples" / "dice_game.py").read_text()

BROKEN = {
    "missing": ("nothing_here_at_all.cli:add_commands", None),
    "raising": ("raising_plugin:add_commands", '''
def add_commands(commands):
    commands.add_parser("raising", help="half added, then a crash")
    raise RuntimeError("the register function fell over")
'''),
    "clash": ("clash_plugin:add_commands", '''
def add_commands(commands):
    commands.add_parser("chance", help="tries to take over a core command")
'''),
    "syntax": ("syntax_plugin:add_commands", "def add_commands(:\n"),
}


def install(folder: Path, dist: str, entries: dict[str, str], modules: dict[str, str]) -> None:
    """Lay out what pip leaves for a distribution ``dist``: its modules and its dist-info."""
    info = folder / f"{dist}-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 0.1\n")
    lines = "".join(f"{name} = {value}\n" for name, value in entries.items())
    (info / "entry_points.txt").write_text(f"[{GROUP}]\n{lines}")
    for name, text in modules.items():
        (folder / f"{name}.py").write_text(textwrap.dedent(text))


@contextlib.contextmanager
def on_path(folder: Path, monkeypatch: pytest.MonkeyPatch, modules: list[str]) -> Iterator[None]:
    monkeypatch.syspath_prepend(str(folder))
    try:
        yield
    finally:
        for name in modules:
            sys.modules.pop(name, None)


def run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as stop:
            code = int(stop.code or 0)
    return code, out.getvalue(), err.getvalue()


def test_the_shipped_games_are_plugins_and_the_core_imports_no_game() -> None:
    names = {ep.name: ep.value for ep in plugin_entry_points()}
    assert names["war"] == "games.war.cli:add_commands"
    assert names["penney"] == "games.penney.cli:add_commands"
    # The core command line, loaded in a fresh interpreter, imports no game module.
    code = "import sys, drawdsl.cli; print(sorted(m for m in sys.modules if m.startswith('games')))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
    upward = re.compile(r"^\s*(from|import) games\b", re.MULTILINE)
    assert not [path for path in (ROOT / "drawdsl").rglob("*.py") if upward.search(path.read_text())]


def test_a_third_party_plugin_appears_in_help_and_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    install(tmp_path, "dice_game", {"dice": "dice_cli:add_commands"}, {"dice_cli": DICE})
    with on_path(tmp_path, monkeypatch, ["dice_cli"]):
        code, out, err = run(["--help"])
        assert code == 0 and err == ""
        assert "dice" in out and "a third-party game: doubles with two dice" in out
        assert "war" in out and "penney" in out
        assert run(["dice"]) == (0, "P(double) = 1/6\n", "")
        assert run(["dice", "--sides", "4"]) == (0, "P(double) = 1/4\n", "")
        code, out, err = run(["dice", "--sides", "0"])  # the plug-in's own bad input: exit 2, one line
        assert code == 2 and out == "" and err.count("\n") == 1 and err.startswith("drawdsl: error: ")


def test_a_third_party_plugin_end_to_end(tmp_path: Path) -> None:
    install(tmp_path, "dice_game", {"dice": "dice_cli:add_commands"}, {"dice_cli": DICE})
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, "-m", "drawdsl", "dice", "--sides", "3"],
                          capture_output=True, text=True, env=env, check=False)
    assert (done.returncode, done.stdout, done.stderr) == (0, "P(double) = 1/3\n", "")


@pytest.mark.parametrize("kind", sorted(BROKEN))
def test_a_broken_plugin_costs_one_warning_line(
    kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    value, source = BROKEN[kind]
    module = value.split(":")[0]
    modules = {module: source} if source is not None else {}
    install(tmp_path, f"broken_{kind}", {kind: value}, modules)
    install(tmp_path, "dice_game", {"dice": "dice_cli:add_commands"}, {"dice_cli": DICE})
    with on_path(tmp_path, monkeypatch, [module, "dice_cli"]):
        code, out, err = run(["--help"])
        assert code == 0
        assert err.count("\n") == 1 and "Traceback" not in err, err
        assert err.startswith(f"drawdsl: warning: skipped the plug-in {kind!r} ({value})")
        if kind != "clash":
            assert f"    {kind} " not in out  # nothing it added is left behind
        # The rest of the command line works: the core, the shipped games, other plug-ins.
        assert "dice" in out and "war" in out and "chance" in out
        code, out, err = run(["examples", "--json"])
        assert code == 0 and json.loads(out)["mean position of the first ace"] == "53/5"
        code, out, _ = run(["dice"])
        assert (code, out) == (0, "P(double) = 1/6\n")
        code, out, _ = run(["penney", "odds", "HHH", "THH", "--json"])
        assert code == 0 and json.loads(out)["THH"] == "7/8"
        code, out, _ = run(["chance", "--help"])
        assert code == 0 and "drawdsl chance" in out


def test_a_clashing_plugin_leaves_the_core_command_in_place(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    value, source = BROKEN["clash"]
    install(tmp_path, "broken_clash", {"clash": value}, {"clash_plugin": source or ""})
    with on_path(tmp_path, monkeypatch, ["clash_plugin"]):
        parser = argparse.ArgumentParser()
        commands = parser.add_subparsers()
        core = commands.add_parser("chance", help="the core command")
        warnings = io.StringIO()
        loaded = add_plugin_commands(commands, warnings=warnings)
        assert "clash" not in loaded and {"war", "penney"} <= set(loaded)
        assert commands.choices["chance"] is core
        assert [action.dest for action in commands._choices_actions].count("chance") == 1
        assert "tries to take over" not in parser.format_help()
        # Python 3.11 argparse refuses the clash itself; on 3.10 drawdsl's own check does.
        assert warnings.getvalue().count("\n") == 1 and "'clash'" in warnings.getvalue()
        assert "chance" in warnings.getvalue().split("entry points: ")[1]
