"""What `drawdsl war simulate` and `war exact` print for people: plain words, bounds, the length law."""

from __future__ import annotations

import contextlib
import io
import itertools
import json
import re
from fractions import Fraction
from pathlib import Path

import pytest

from drawdsl.cli import main
from games.war import exact_game, preset, simulate
from games.war.rules import DEUCE_RULES, GATHER_ORDERS, SHORT_WAR_RULES, Rules


def run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as stop:
            code = int(stop.code or 0)
    return code, out.getvalue(), err.getvalue()


def test_simulate_prints_never_seen_outcomes_as_bounds_and_explains_the_columns() -> None:
    code, out, _ = run(["war", "simulate", "--games", "2000", "--seed", "1"])
    assert code == 0
    table = simulate(2000, "standard", seed=1)
    assert table.count("tie") == table.count("cycle") == 0  # the case the output must show well
    assert "e-1" not in out and "e-2" not in out  # no 1.084e-19 left at a zero count
    z2 = 1.959963984540054**2
    bound = z2 / (2000 + z2)  # Wilson's upper end at k = 0
    for name in ("p_tie", "p_cycle", "p_capped"):
        assert re.search(rf"^  {name}\s+0 \(≤ {bound:.4g} at 95%\)$", out, re.M), out
    assert "battles: rounds in which both players turn a card up" in out
    assert "plays: pairs of cards turned, face-down cards included" in out
    assert "rules: equal cards start a war: each player lays 1 card face down and 1 face up" in out


def test_simulate_json_keeps_the_short_rules_and_adds_words() -> None:
    code, out, _ = run(["war", "simulate", "--games", "300", "--preset", "rblog", "--json"])
    data = json.loads(out)
    rblog = preset("rblog")
    assert code == 0 and data["rules"] == rblog.describe() and data["rules_in_words"] == rblog.in_words()
    assert data["p_tie_ci"][0] == 0.0  # exactly 0 at a zero count


def test_rules_in_words_tell_every_rule_set_apart() -> None:
    texts = set()
    for face_down, deuce, gather, short in itertools.product((0, 1, 3), DEUCE_RULES, GATHER_ORDERS,
                                                             SHORT_WAR_RULES):
        detect = gather != "shuffled"
        rules = Rules(face_down=face_down, deuce_beats_ace=deuce, gather=gather, short_war=short,
                      detect_cycles=detect, max_battles=None if detect else 500)
        words = rules.in_words()
        assert "_" not in words  # no identifiers: plain words
        texts.add(words)
    assert len(texts) == 3 * len(DEUCE_RULES) * len(GATHER_ORDERS) * len(SHORT_WAR_RULES)


@pytest.mark.parametrize(("ranks", "suits"), [(2, 2), (3, 4), (4, 2)])
def test_exact_text_summary_and_histogram_agree_with_the_law(ranks: int, suits: int) -> None:
    code, out, _ = run(["war", "exact", "--ranks", str(ranks), "--suits", str(suits), "--no-progress"])
    assert code == 0
    result = exact_game(ranks, suits)
    law = result.battles
    assert "0/1" not in out
    assert re.search(rf"^  P\(endless\) = +{result.p_cycle}  ~ ", out, re.M)
    # The median and the 90% point, recomputed from the law by brute force over the lengths.
    ends = sum(law.values(), Fraction(0))
    lengths = sorted(law)
    median = next(k for k in lengths if sum(law[j] for j in lengths if j <= k) >= ends / 2)
    ninety = next(k for k in lengths if sum(law[j] for j in lengths if j <= k) >= ends * Fraction(9, 10))
    assert result.battles_quantile(Fraction(1, 2)) == median
    assert f"mean {result.mean_battles} ~ " in out
    assert f"median {median}, 90% within {ninety}, shortest {min(law)}, longest {max(law)}" in out
    bars = re.findall(r"^ +(\d+)(?:-(\d+))? +([\d.]+)%", out, re.M)
    assert 1 <= len(bars) <= 16
    covered = [k for low, high, _ in bars for k in range(int(low), int(high or low) + 1)]
    assert covered == list(range(min(law), max(law) + 1))
    for low, high, percent in bars:
        share = sum((p for k, p in law.items() if int(low) <= k <= int(high or low)), Fraction(0)) / ends
        assert float(percent) == pytest.approx(float(share) * 100, abs=0.05)


def test_exact_json_has_the_whole_law_and_the_median() -> None:
    code, out, _ = run(["war", "exact", "--ranks", "4", "--suits", "2", "--json"])
    assert code == 0
    data = json.loads(out)
    result = exact_game(4, 2)
    assert {int(k): Fraction(v) for k, v in data["battles"].items()} == result.battles
    assert data["median_battles"] == result.battles_quantile(Fraction(1, 2))
    assert data["p_cycle"] == "1/36"
    code, out, _ = run(["war", "exact", "--ranks", "4", "--suits", "2"])
    assert code == 0
    assert re.search(r"^  P\(endless\) = +1/36  ~ 0.027778$", out, re.M)
    assert "battles of a game that ends (P = 0.972222)" in out


def test_exact_progress_goes_to_stderr_only_when_asked() -> None:
    code, out, err = run(["war", "exact", "--ranks", "2", "--suits", "4", "--progress"])
    assert code == 0 and "draws" in err
    code, out_quiet, err = run(["war", "exact", "--ranks", "2", "--suits", "4", "--no-progress"])
    assert code == 0 and err == "" and out_quiet == out
    code, _, err = run(["war", "exact", "--ranks", "2", "--suits", "4"])  # stderr is not a terminal here
    assert err == ""


def test_exact_plot_writes_an_image(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    path = tmp_path / "law.png"
    code, out, _ = run(["war", "exact", "--ranks", "3", "--suits", "2", "--plot", str(path)])
    assert code == 0 and f"wrote {path}" in out
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    from games.war.plot import plot_battles_law

    ax = plot_battles_law(exact_game(3, 2))
    heights = [patch.get_height() for patch in ax.patches]
    assert heights == [float(p) for p in exact_game(3, 2).battles.values()]
