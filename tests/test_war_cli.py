"""`drawdsl war simulate | exact | search`: JSON fields, files, and bad arguments (exit 2, one line)."""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction
from typing import Any

import pytest

from drawdsl.cli import main
from games.war import exact_game, simulate


def run_json(argv: list[str], capsys: pytest.CaptureFixture[str]) -> Any:
    assert main(argv) == 0
    return json.loads(capsys.readouterr().out)


def test_simulate_json_has_the_stable_fields(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(["war", "simulate", "--games", "1500", "--seed", "3", "--json"], capsys)
    for key in ("games", "mean_battles", "median_battles", "mean_plays", "p_first_wins", "p_cycle",
                "games_per_second"):
        assert key in data
    summary = simulate(1500, "standard", seed=3).summary()
    assert data["games"] == 1500
    assert data["p_first_wins"] == summary.p_first_wins.value
    assert data["mean_battles"] == summary.mean_battles.value
    assert data["games_per_second"] > 0


def test_simulate_preset_overrides_workers_and_csv(capsys: pytest.CaptureFixture[str], tmp_path: Any) -> None:
    path = tmp_path / "games.csv"
    argv = ["war", "simulate", "--games", "1200", "--seed", "5", "--preset", "rblog", "--json"]
    one = run_json([*argv, "--csv", str(path)], capsys)
    two = run_json([*argv, "--workers", "2"], capsys)
    one.pop("games_per_second"), two.pop("games_per_second"), one.pop("workers"), two.pop("workers")
    assert one == two
    assert "stop after 5000 battles" in one["rules"]
    assert len(path.read_text().splitlines()) == 1201
    changed = run_json([*argv, "--face-down", "1", "--max-battles", "100"], capsys)
    assert "1 face down" in changed["rules"] and "stop after 100 battles" in changed["rules"]
    text_argv = ["war", "simulate", "--games", "100", "--gather", "shuffled", "--max-battles", "500"]
    assert main(text_argv) == 0
    assert "games per second" in capsys.readouterr().out


def test_exact_json(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(["war", "exact", "--ranks", "3", "--suits", "4", "--json"], capsys)
    assert data["p_first_wins"] == "53/110" and data["p_cycle"] == "0/1"
    assert sum(Fraction(p) for p in data["battles"].values()) + Fraction(data["p_cycle"]) == 1
    data = run_json(["war", "exact", "--ranks", "4", "--suits", "2", "--json"], capsys)
    assert Fraction(data["p_cycle"]) == exact_game(4, 2).p_cycle == Fraction(1, 36)
    assert main(["war", "exact", "--ranks", "2", "--suits", "2"]) == 0
    assert "P(A wins)" in capsys.readouterr().out


def test_search_json_and_text(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(["war", "search", "war-then-win", "--json"], capsys)
    assert data["found"] and len(data["hand_a"]) == len(data["hand_b"]) == 26
    data = run_json(["war", "search", "endless", "--ranks", "3", "--suits", "4", "--json"], capsys)
    assert data == {**data, "found": False, "hand_a": None}
    assert main(["war", "search", "within", "--battles", "3", "--ranks", "4", "--suits", "2"]) == 0
    out = capsys.readouterr().out
    assert "A: " in out and "within 3 battles" in out


def test_search_falls_back_to_random_deals(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["war", "search", "endless", "--ranks", "10", "--suits", "2", "--max-states", "20000"]
    data = run_json([*argv, "--seed", "3", "--json"], capsys)
    assert data["found"] and data["method"] == "sampled" and data["winner"] == "cycle"
    assert data["looked_at"] == 20
    assert main([*argv, "--seed", "3"]) == 0
    assert "a random deal, seed 3" in capsys.readouterr().out
    assert run_json(["war", "search", "sweep", "--ranks", "3", "--suits", "2", "--json"], capsys)["method"] \
        == "exhaustive"
    # no deal and no proof: one line that says how rare such deals must be, exit 2
    assert main(["war", "search", "endless", "--ranks", "3", "--suits", "4", "--max-states", "50",
                 "--samples", "2000"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "fewer than 3 in 2,000" in err
    assert main(["war", "search", "endless", "--ranks", "3", "--suits", "4", "--max-states", "50",
                 "--samples", "0"]) == 2
    assert "max_states=50" in capsys.readouterr().err


def test_search_endless_under_capped_rules_says_what_to_do(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["war", "search", "endless", "--preset", "rblog"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "--max-battles 5000 without detecting cycles" in err
    suggested = err.split("cycle detection: ")[1].split()
    data = run_json(["war", "search", "endless", *suggested, "--json"], capsys)  # the advice works
    assert data["found"] and data["winner"] == "cycle" and data["method"] == "exhaustive"


@pytest.mark.parametrize(
    "argv",
    [
        ["war", "simulate", "--games", "0"],
        ["war", "simulate", "--preset", "nope"],
        ["war", "simulate", "--face-down", "-1"],
        ["war", "simulate", "--gather", "shuffled"],
        ["war", "simulate", "--cycles", "off"],
        ["war", "exact", "--ranks", "13"],
        ["war", "exact", "--ranks", "3", "--suits", "1"],
        ["war", "search", "within"],
        ["war", "search", "dance"],
        ["war", "search", "endless", "--samples", "-1"],
        ["war", "search", "endless", "--samples", "100000000"],
        ["war", "search", "endless", "--seed", "x"],
    ],
)
def test_bad_arguments_exit_2_with_one_line(argv: list[str]) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "drawdsl", *argv], capture_output=True, text=True, check=False
    )
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1
