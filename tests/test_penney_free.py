"""Best replies with free players: max-min and max-max against a search over the automaton route."""

from __future__ import annotations

import itertools
import json
from fractions import Fraction

import pytest

from drawdsl import InvalidArgument
from drawdsl.cli import main
from games import penney


def by_search(
    given: tuple[str, ...],
    players: int,
    others: str,
    length: int,
    alphabet: str,
    weights: list[int] | None = None,
) -> tuple[Fraction, dict[str, list[tuple[str, ...]]]]:
    """Every candidate, every choice of the free players (in every order), raced on the automaton."""
    words = [w for w in penney.all_patterns(length, alphabet) if w not in given]
    free = players - len(given) - 1
    score: dict[str, Fraction] = {}
    reached: dict[str, set[tuple[str, ...]]] = {}
    for candidate in words:
        results: dict[tuple[str, ...], Fraction] = {}
        for choice in itertools.permutations([w for w in words if w != candidate], free):
            race = penney.odds(*given, *choice, candidate, alphabet=alphabet, weights=weights,
                               method="automaton")
            results[tuple(sorted(choice))] = race.wins[candidate]
        pick = min if others == "worst" else max
        score[candidate] = pick(results.values())
        reached[candidate] = {c for c, p in results.items() if p == score[candidate]}
    top = max(score.values())
    return top, {c: sorted(reached[c]) for c in words if score[c] == top}


@pytest.mark.parametrize("others", ["worst", "best"])
@pytest.mark.parametrize(
    ("given", "players", "length", "alphabet", "weights"),
    [
        (("HHT",), 3, 3, "HT", None),
        (("HTH",), 3, 3, "HT", [2, 1]),
        (("HH",), 4, 2, "HT", None),
        (("HHT", "TTH"), 4, 3, "HT", None),
        (("012",), 3, 3, "012", None),
        (("01",), 4, 2, "012", [1, 1, 2]),
        (("H",), 3, 3, "HT", None),  # a given pattern inside the candidates: they never win
    ],
)
def test_free_players_match_a_search_over_the_automaton(
    given: tuple[str, ...], players: int, length: int, alphabet: str, weights: list[int] | None, others: str
) -> None:
    reply = penney.best_replies_with_free(
        *given, players=players, others=others, length=length, alphabet=alphabet, weights=weights
    )
    top, reached = by_search(given, players, others, length, alphabet, weights)
    assert reply.probability == top
    assert reply.patterns == tuple(reached)
    assert {p: sorted(c) for p, c in reply.others.items()} == reached


@pytest.mark.parametrize("first", penney.all_patterns(3))
def test_no_free_player_is_the_plain_best_reply(first: str) -> None:
    plain = penney.best_replies(first)
    for others in ("worst", "best"):
        reply = penney.best_replies_with_free(first, players=2, others=others)
        assert (reply.patterns, reply.probability) == (plain.patterns, plain.probability)
        assert all(choice == () for p in reply.patterns for choice in reply.others[p])


@pytest.mark.parametrize("first", penney.all_patterns(3))
def test_the_worst_case_is_never_above_the_best_case(first: str) -> None:
    worst = penney.best_replies_with_free(first, players=3, others="worst")
    best = penney.best_replies_with_free(first, players=3, others="best")
    assert worst.probability <= best.probability
    # Each reached answer really gives the reported chance.
    for reply in (worst, best):
        for pattern in reply.patterns:
            for choice in reply.others[pattern]:
                assert penney.odds(first, *choice, pattern).wins[pattern] == reply.probability


def test_bad_input_is_refused_with_a_clear_message() -> None:
    with pytest.raises(InvalidArgument, match="players=2 leaves no place for us"):
        penney.best_replies_with_free("HH", "TT", players=2)
    with pytest.raises(InvalidArgument, match="others must be 'worst'"):
        penney.best_replies_with_free("HH", players=3, others="average")
    with pytest.raises(InvalidArgument, match="only 2 pattern"):
        penney.best_replies_with_free("HH", "TT", players=5)
    with pytest.raises(InvalidArgument, match="named twice"):
        penney.best_replies_with_free("HH", "HH", players=4)
    with pytest.raises(InvalidArgument, match="not in the alphabet"):
        penney.best_replies_with_free("HX", players=3)


def test_cli_best_with_free_players(capsys: pytest.CaptureFixture[str]) -> None:
    for others in ("worst", "best"):
        assert main(["penney", "best", "012", "--players", "3", "--alphabet", "012", "--others", others,
                     "--json"]) == 0
        data = json.loads(capsys.readouterr().out)
        reply = penney.best_replies_with_free("012", players=3, alphabet="012", others=others)
        assert data["best"] == list(reply.patterns)
        assert Fraction(data["probability"]) == reply.probability
        assert data["answers"] == {p: [list(c) for c in reply.others[p]] for p in reply.patterns}
    assert main(["penney", "best", "012", "--players", "3", "--alphabet", "012"]) == 0
    out = capsys.readouterr().out
    assert "with 1 free player (the worst case for the reply): 010, 011" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["012", "021", "--players", "2", "--alphabet", "012"], "leaves no place for the reply"),
        (["01234", "--players", "4", "--alphabet", "012"], "over the command's 200,000"),
        (["012", "--players", "3", "--others", "mean", "--alphabet", "012"], "invalid choice"),
    ],
)
def test_cli_best_with_free_players_refuses_bad_input(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    with pytest.raises(SystemExit) as stop:  # argparse's own errors exit; ours return 2
        raise SystemExit(main(["penney", "best", *argv]))
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert message in err
    assert len(err.strip().splitlines()) == 1
