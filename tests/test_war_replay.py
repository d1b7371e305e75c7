"""Replaying a deal: full hands per battle (play_game(hands=True)), the replay command, deals from
text or from a simulation's (seed, game), and the long (one row per battle) CSV formats."""

from __future__ import annotations

import csv
import io
import json
import random
from collections import Counter
from pathlib import Path

import pytest

from drawdsl import InvalidArgument
from drawdsl.cli import main
from games.war import Rules, play_game, preset, simulate
from games.war.engine import deal_hands
from games.war.replay import (
    parse_deal,
    replay,
    replay_csv,
    replay_rows,
    simulated_deal,
    write_long_csv,
)


@pytest.mark.parametrize("rules", [Rules(), preset("rblog"), Rules(face_down=0, gather="as_played"),
                                   Rules(short_war="lose", max_battles=50)])
def test_hands_agree_with_the_trace_and_keep_the_cards(rules: Rules) -> None:
    rnd = random.Random(7)
    deck = [r for r in range(2, 8) for _ in range(4)]
    for _ in range(30):
        rnd.shuffle(deck)
        a, b = deal_hands(deck)
        game = play_game(a, b, rules, hands=True, trace=True, log=True)
        assert game.hands is not None and game.trace is not None and game.log is not None
        assert game.hands[0] == (a, b)
        assert len(game.hands) == game.battles + 1
        assert [len(h[0]) for h in game.hands[1:]] == list(game.trace)
        for (ha, hb), (took, _) in zip(game.hands[1:], game.log, strict=True):
            if len(took) == 1:  # the battle did not end the game: every card is in a hand
                assert Counter(ha + hb) == Counter(deck)
        # the counts are those of the game played without hands
        plain = play_game(a, b, rules)
        assert (plain.winner, plain.battles, plain.plays, plain.wars) == (
            game.winner, game.battles, game.plays, game.wars)


def test_a_cycle_is_replayed_up_to_its_first_repeat() -> None:
    game = play_game((5, 3, 4, 2), (2, 3, 5, 4), hands=True)
    assert game.winner == "cycle" and game.hands is not None
    assert len(game.hands) == game.battles + 1
    assert game.hands[-1] in game.hands[:-1]  # the last position came before
    assert len(set(game.hands[:-1])) == len(game.hands) - 1  # and is the first one to come back


def test_parse_deal() -> None:
    assert parse_deal("2 3,3 2") == (2, 3, 3, 2)
    assert parse_deal("2 2") == (2, 2)
    full = " ".join(["2 3 4 5 6 7 8 9 T J Q K A"] * 4)
    assert sorted(parse_deal(full)) == sorted(list(range(2, 15)) * 4)
    assert parse_deal("t j q k a 2 3 4 5 6 7 8 9 " * 2)[:5] == (10, 11, 12, 13, 14)
    for bad in ("", "2 3 4", "2 2 3", "1 2", "2 two", "2 4"):
        with pytest.raises(InvalidArgument, match="deal"):
            parse_deal(bad)


def test_simulated_deal_is_the_row_of_the_table() -> None:
    table = simulate(1100, "rblog", seed=4)
    for g in (0, 5, 1030):
        game = replay(simulated_deal(4, g), "rblog")
        assert (game.winner, game.battles) == (table.winner[g], int(table.battles[g]))


def test_long_rows_and_csv(tmp_path: Path) -> None:
    game = replay((4, 2, 3, 3, 2, 4))
    rows = replay_rows(game, number=3)
    assert [r["battle"] for r in rows] == [0, 1, 2]
    assert rows[2]["took"] == "A wins" and rows[2]["wars"] == 1 and rows[2]["b_hand"] == ""
    out = tmp_path / "g.csv"
    replay_csv(game, out)
    with open(out) as handle:
        assert list(csv.DictReader(handle))[1]["a_hand"] == "3 2 4 2"
    table = simulate(20, "standard", seed=2, trace=True)
    buffer = io.StringIO()
    assert table.traces is not None
    write_long_csv(table.traces, buffer)
    lines = buffer.getvalue().splitlines()
    assert lines[0] == "game,battle,a_cards"
    assert len(lines) == 1 + int(table.battles.sum())


def test_cli_replay(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["war", "replay", "4 2 3 3 2 4"]) == 0
    out = capsys.readouterr().out
    assert "A wins after 2 battles" in out and "A: 3 2 4 2  |  B: 3 4" in out
    assert main(["war", "replay", "--seed", "4", "--game", "5", "--preset", "rblog", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    table = simulate(6, "rblog", seed=4)
    assert data["battles"] == int(table.battles[5]) and len(data["turns"]) == data["battles"] + 1
    trace_csv = tmp_path / "t.csv"
    assert main(["war", "simulate", "--games", "30", "--trace-csv", str(trace_csv)]) == 0
    capsys.readouterr()
    assert trace_csv.read_text().startswith("game,battle,a_cards\n0,1,")


@pytest.mark.parametrize("argv", [["war", "replay", "2 3 3"], ["war", "replay", "2 x"], ["war", "replay"],
                                  ["war", "replay", "2 2", "--seed", "1"], ["war", "replay", "--seed", "1"],
                                  ["war", "replay", "--seed", "1", "--game", "-2"]])
def test_cli_replay_bad_input(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("drawdsl: error:") and len(err.strip().splitlines()) == 1
