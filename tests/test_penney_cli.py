"""``drawdsl penney ...``: the stable command line (JSON shapes, exit codes, one-line errors)."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from drawdsl.cli import main
from games import penney


def run_json(capsys: pytest.CaptureFixture[str], argv: list[str]) -> dict[str, object]:
    assert main(argv) == 0
    data = json.loads(capsys.readouterr().out)
    assert isinstance(data, dict)
    return data


def test_odds_json(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, ["penney", "odds", "HHH", "THH", "--json"])
    assert data == {"HHH": "1/8", "THH": "7/8", "expected_length": "7/1"}


def test_odds_json_with_weights_and_three_players(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, ["penney", "odds", "12", "21", "33", "--alphabet", "123",
                             "--weights", "1,2/3,1/3", "--json"])
    expected = penney.odds("12", "21", "33", alphabet="123",
                           weights=[Fraction(1), Fraction(2, 3), Fraction(1, 3)])
    assert {k: Fraction(str(v)) for k, v in data.items()} == {
        **expected.wins, "expected_length": expected.expected_length
    }


def test_odds_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["penney", "odds", "HTH", "HHT"]) == 0
    out = capsys.readouterr().out
    assert "HHT  wins          2/3" in out
    assert "expected length: 6 flips" in out


def test_best_json(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, ["penney", "best", "HHH", "--json"])
    assert data == {"opponents": ["HHH"], "best": ["THH"], "probability": "7/8", "odds": "7:1"}
    data = run_json(capsys, ["penney", "best", "HTH", "HHT", "--length", "3", "--json"])
    assert data["best"] == ["TTH"]


def test_best_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["penney", "best", "HTH"]) == 0
    assert "HHT" in capsys.readouterr().out


def test_table_prints_best_replies_and_the_cycle(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    csv_path = tmp_path / "t.csv"
    assert main(["penney", "table", "--length", "3", "--csv", str(csv_path)]) == 0
    out = capsys.readouterr().out
    assert "HHH -> THH  wins 7/8 (odds 7:1)" in out
    assert "non-transitive cycle: HHT -> THH -> TTH -> HTT -> HHT" in out
    assert len(csv_path.read_text().splitlines()) == 57


def test_cards_json(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, ["penney", "cards", "RRB", "BRR", "--red", "4", "--black", "4", "--json"])
    expected = penney.card_odds("RRB", "BRR", red=4, black=4)
    assert (data["first"], data["second"], data["draw"]) == ("6/35", "47/70", "11/70")
    assert Fraction(str(data["first"])) == expected.first
    data = run_json(capsys, ["penney", "cards", "RRB", "BRR", "--count", "first", "--json"])
    assert data["first"] == "25/102"


def test_cards_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["penney", "cards", "RRB", "BRR", "--red", "3", "--black", "3", "--count", "cards"]) == 0
    out = capsys.readouterr().out
    assert "RRB wins" in out and "draw" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["penney", "odds", "HXT", "HHT"], "not in the alphabet"),
        (["penney", "odds", "", "HHT"], "empty"),
        (["penney", "odds", "HHT"], "at least 2"),
        (["penney", "odds", "HHT", "HHT"], "named twice"),
        (["penney", "odds", "HT", "TH", "--weights", "1,x"], "--weights"),
        (["penney", "odds", "HT", "TH", "--weights", "1,2,3"], "one weight per symbol"),
        (["penney", "odds", "12", "21", "--alphabet", "1"], "at least 2"),
        (["penney", "best", "HXH"], "not in the alphabet"),
        (["penney", "best", "H", "T", "--length", "1"], "no pattern of length 1"),
        (["penney", "table", "--length", "0"], "positive integer"),
        (["penney", "cards", "RRB"], "at least 2"),
        (["penney", "cards", "RRB", "HTH"], "not in the alphabet"),
        (["penney", "cards", "RRB", "BRR", "--red", "-2"], ">= 0"),
        (["penney", "cards", "RRB", "BRR", "--count", "points"], "invalid choice"),
        (["penney", "cards", "RRB", "BRR", "--red", "0", "--black", "0"], "empty"),
    ],
)
def test_bad_arguments_give_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    with pytest.raises(SystemExit) as stop:
        code = main(argv)
        raise SystemExit(code)
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("drawdsl: error:")
    assert message in err


def test_penney_without_a_question_prints_help_and_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["penney"]) == 2
    assert "odds" in capsys.readouterr().err


def test_table_json_has_pairs_best_replies_and_cycles(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, ["penney", "table", "--length", "3", "--json"])
    pairs = data["pairs"]
    assert isinstance(pairs, list) and len(pairs) == 56
    rows = {(row.first, row.second): row.second_wins for row in penney.pair_table(3)}
    assert {(p["first"], p["second"]): Fraction(p["second_wins"]) for p in pairs} == rows
    assert data["best_replies"]["HHH"] == {"replies": ["THH"], "wins": "7/8"}  # type: ignore[index]
    assert data["cycles"] == [["HHT", "THH", "TTH", "HTT"]]
