"""`drawdsl war simulate|exact --players M`: the numbers are the library's, bad input exits 2 in one line."""

from __future__ import annotations

import json
from typing import Any

import pytest

from drawdsl.cli import main
from drawdsl.cli.common import fraction_text
from games.war.multi_exact import exact_multi
from games.war.multi_simulate import simulate_multi
from games.war.rules import preset


def run_json(argv: list[str], capsys: pytest.CaptureFixture[str]) -> Any:
    assert main(argv) == 0
    return json.loads(capsys.readouterr().out)


def test_exact_players_json_is_exact_multi(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(["war", "exact", "--players", "3", "--ranks", "3", "--suits", "2", "--json"], capsys)
    result = exact_multi(3, 2, 3)
    assert data["winners"] == {name: fraction_text(p) for name, p in result.winners.items()}
    assert data["players"] == 3 and list(data["winners"])[:3] == ["A", "B", "C"]
    assert main(["war", "exact", "--players", "4", "--ranks", "3", "--suits", "2"]) == 0
    assert "P(D wins)" in capsys.readouterr().out


def test_exact_players_text_shows_zero_as_0_like_two_players(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["war", "exact", "--players", "3", "--ranks", "2", "--suits", "3"]) == 0
    out = capsys.readouterr().out
    assert "0/1" not in out
    assert "P(endless)    =                    0  ~ 0.000000" in out
    assert f"P(A wins)     = {exact_multi(2, 3, 3).winners['A']!s:>20}" in out


def test_simulate_players_json_is_simulate_multi_for_any_workers(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["war", "simulate", "--players", "3", "--games", "1100", "--seed", "2", "--preset", "rblog",
            "--ranks", "6", "--json"]
    one = run_json(argv, capsys)
    two = run_json([*argv, "--workers", "2"], capsys)
    tally = simulate_multi(1100, preset("rblog"), 2, players=3, ranks=6)
    assert one["counts"] == two["counts"] == {name: tally.counts.get(name, 0) for name in tally.outcomes()}
    assert one["mean_battles"] == two["mean_battles"] == float(tally.mean_battles or 0)
    assert main(["war", "simulate", "--players", "4", "--games", "50", "--ranks", "5"]) == 0
    assert "D wins" in capsys.readouterr().out


@pytest.mark.parametrize(("argv", "message"), [
    (["war", "exact", "--players", "1"], "--players: expected an integer >= 2, got 1"),
    (["war", "exact", "--players", "7", "--ranks", "3", "--suits", "2"], "7 players need at least 7 cards"),
    (["war", "simulate", "--players", "53"], "53 players need at least 53 cards, but the deck has 52"),
    (["war", "simulate", "--players", "x"], "--players"),
    (["war", "simulate", "--players", "3", "--engine", "numpy"], "--engine numpy plays two players only"),
    (["war", "simulate", "--players", "3", "--plot", "p.png"], "--plot is for two players"),
    (["war", "exact", "--players", "3", "--ranks", "4", "--suits", "4"], "deals, over the command's"),
])
def test_bad_players_exit_2_in_one_line(argv: list[str], message: str, capsys: pytest.CaptureFixture[str],
                                        tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as exit_info:
        code = main(argv)
        raise SystemExit(code)
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and "Traceback" not in err
