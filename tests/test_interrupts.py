"""Ctrl-C: long runs stop cleanly, say how far they got, and leave no half-written file.

The command-line cases send a real SIGINT to a ``drawdsl`` subprocess once it is
provably busy (a spec file writes a marker when its continuation first runs; a War
simulation has used seconds of CPU, more than its imports ever take), then check the
contract: exit code 130, one line on stderr with the progress, no traceback, and no
output or temporary file left behind.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from drawdsl import Cards, coin, done, draw, loop, simulate
from drawdsl.files import atomic_text
from games.war import simulate as war_simulate

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a subprocess is POSIX-only here")

#: How long to wait for the subprocess to be busy before giving up (never reached when healthy).
PATIENCE = 120.0


def _drawdsl(args: list[str], cwd: Path) -> subprocess.Popen[str]:
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    return subprocess.Popen(
        [sys.executable, "-m", "drawdsl", *args],
        cwd=cwd,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _wait_for(condition: object, process: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + PATIENCE
    while not condition():  # type: ignore[operator]
        if process.poll() is not None:
            _, err = process.communicate()
            pytest.fail(f"the command ended before it was interrupted: {process.returncode} {err!r}")
        if time.monotonic() > deadline:
            process.kill()
            pytest.fail("the command never got busy")
        time.sleep(0.05)


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _interrupt(process: subprocess.Popen[str]) -> tuple[int, str, str]:
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=PATIENCE)
    return process.returncode, out, err


def _one_line(err: str) -> str:
    assert "Traceback" not in err, err
    assert err.count("\n") == 1 and err.startswith("drawdsl: interrupted"), err
    return err


# A spec that runs for hours: 60 coin flips, every path kept apart by its full history
# (no merging), and a marker file written the first time a continuation runs.
_SLOW_SPEC = textwrap.dedent(
    """
    from pathlib import Path

    from drawdsl import done, loop

    MARKER = Path(__file__).with_name("busy")


    def step(history, card):
        if not MARKER.exists():
            MARKER.write_text("yes")
        history = history + (card,)
        return done(history.count("H")) if len(history) == 60 else history


    slow = loop((), step)
    """
)


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")
def test_ctrl_c_during_war_simulate_reports_games_and_writes_no_csv(tmp_path: Path) -> None:
    process = _drawdsl(["war", "simulate", "--games", "5000000", "--seed", "1", "--csv", "out.csv"], tmp_path)
    _wait_for(lambda: _cpu_seconds(process.pid) > 4.0, process)
    code, out, err = _interrupt(process)
    assert code == 130, err
    line = _one_line(err)
    assert "war simulate had played" in line and "of 5,000,000 games" in line, line
    assert out == ""
    assert sorted(os.listdir(tmp_path)) == []  # no table, no temporary file


def test_ctrl_c_during_exact_evaluation_reports_the_depth(tmp_path: Path) -> None:
    (tmp_path / "slow.py").write_text(_SLOW_SPEC)
    process = _drawdsl(["chance", "slow.py:slow", "--deck", "colors", "--max-states", "10000000"], tmp_path)
    _wait_for((tmp_path / "busy").exists, process)
    time.sleep(0.5)  # let it get a few draws deep
    code, out, err = _interrupt(process)
    assert code == 130, err
    assert "exact evaluation had reached draw" in _one_line(err)
    assert out == ""


def test_ctrl_c_during_sample_reports_the_deals_done(tmp_path: Path) -> None:
    (tmp_path / "slow.py").write_text(_SLOW_SPEC)
    process = _drawdsl(["sample", "slow.py:slow", "--deck", "A:100,B:100", "-n", "10000000"], tmp_path)
    _wait_for((tmp_path / "busy").exists, process)
    code, out, err = _interrupt(process)
    assert code == 130, err
    line = _one_line(err)
    assert "simulate had finished" in line and "of 10,000,000 deals" in line, line
    assert out == ""


# --------------------------------------------------------------------------- in-process


class _Bomb:
    """A loop step that raises KeyboardInterrupt at its ``after``-th call (a simulated Ctrl-C)."""

    def __init__(self, after: int) -> None:
        self.calls = 0
        self.after = after

    def __call__(self, state: int, card: str) -> object:
        self.calls += 1
        if self.calls == self.after:
            raise KeyboardInterrupt
        return done(card) if state == 2 else state + 1  # three draws per run


def test_library_simulate_interrupt_note_counts_finished_deals() -> None:
    bomb = _Bomb(after=3 * 40 + 2)  # 40 whole runs, then the second draw of the 41st
    with pytest.raises(KeyboardInterrupt) as caught:
        simulate(loop(0, bomb), coin(), n=1000, seed=1)
    notes = getattr(caught.value, "__notes__", [])
    assert "drawdsl: simulate had finished 40 of 1,000 deals" in notes, notes


def test_library_simulate_without_interrupt_is_unchanged_by_the_bookkeeping() -> None:
    spec = draw()
    deck = Cards("aab")
    assert simulate(spec, deck, n=300, seed=2) == simulate(spec, deck, n=300, seed=2)


def test_interrupted_csv_leaves_the_old_file_and_no_temporary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = war_simulate(40, "standard", seed=3)
    target = tmp_path / "games.csv"
    target.write_text("the previous table\n")

    rows = type(table).rows

    def rows_then_interrupt(self: object) -> object:
        for i, row in enumerate(rows(self)):  # type: ignore[arg-type]
            if i == 20:
                raise KeyboardInterrupt
            yield row

    monkeypatch.setattr(type(table), "rows", rows_then_interrupt)
    with pytest.raises(KeyboardInterrupt):
        table.to_csv(target)
    assert target.read_text() == "the previous table\n"
    assert sorted(os.listdir(tmp_path)) == ["games.csv"]

    monkeypatch.undo()
    table.to_csv(target)
    assert target.read_text().count("\n") == 41  # header + 40 games, written whole


def test_atomic_text_error_mid_write_leaves_nothing_new(tmp_path: Path) -> None:
    target = tmp_path / "new.txt"
    with pytest.raises(OSError), atomic_text(target) as handle:
        handle.write("partial")
        raise OSError("disk full")
    assert list(tmp_path.iterdir()) == []


def test_a_closed_pipe_ends_the_command_quietly(tmp_path: Path) -> None:
    """``drawdsl chance three.py:three --deck ranks | head -1``: 2,197 outcome lines (over
    100 kB, more than a pipe holds), and the reader leaves after the first."""
    (tmp_path / "three.py").write_text("from drawdsl import draw_many\nthree = draw_many(3)\n")
    process = _drawdsl(["chance", "three.py:three", "--deck", "ranks"], tmp_path)
    assert process.stdout is not None and process.stderr is not None
    first = process.stdout.readline()
    process.stdout.close()
    err = process.stderr.read()
    assert process.wait(timeout=PATIENCE) == 0, err
    assert first.strip() and err == ""
