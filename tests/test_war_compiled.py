"""The compiled War engine (games.war.compiled): its records equal the reference engine's game by
game for every deterministic rule set, traces included; simulate gives the same table with every
engine, any number of workers and Dask.  The kernel runs in plain Python when numba is missing, so
the equality tests run either way (on small decks); the full-deck ones need the numba extra."""

from __future__ import annotations

import dataclasses
import sys
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from drawdsl.errors import MissingExtra
from games.war import Rules, play_game, simulate
from games.war import preset as war_preset
from games.war.compiled import available, play_deals
from games.war.rules import OUTCOMES, PRESETS
from games.war.simulate import BLOCK, deal_block

needs_numba = pytest.mark.skipif(
    not available(), reason='needs numba: the "numba" extra (pip install "drawdsl[numba]")'
)


@st.composite
def rule_sets(draw: Any) -> Rules:
    """Every deterministic rule set: cycles detected, with or without a cap, or a cap alone."""
    cap = draw(st.sampled_from([None, 7, 60, 400]))
    detect = True if cap is None else draw(st.booleans())
    return Rules(
        face_down=draw(st.integers(0, 3)),
        deuce_beats_ace=draw(st.sampled_from(["never", "battles", "always"])),
        gather=draw(st.sampled_from(["winner_first", "loser_first", "as_played"])),
        short_war=draw(st.sampled_from(["lose", "last_card", "available", "b_takes"])),
        max_battles=cap,
        detect_cycles=detect,
    )


def reference(deals: np.ndarray, rules: Rules, top: int, trace: bool) -> list[tuple[Any, ...]]:
    out = []
    for row in deals.tolist():
        game = play_game(row[0::2], row[1::2], rules, top=top, trace=trace)
        out.append((game.winner, game.battles, game.plays, game.wars, game.trace))
    return out


def compiled(deals: np.ndarray, rules: Rules, top: int, trace: bool, jit: bool,
             watch_from: int | None = None, watch_every: int = 16) -> list[tuple[Any, ...]]:
    rec = play_deals(deals, rules, top=top, trace=trace, jit=jit, watch_from=watch_from,
                     watch_every=watch_every)
    traces = [tuple(t.tolist()) for t in rec.traces] if rec.traces is not None else [None] * len(deals)
    columns = (rec.winner.tolist(), rec.battles.tolist(), rec.plays.tolist(), rec.wars.tolist(), traces)
    return [(OUTCOMES[w], b, p, wr, t) for w, b, p, wr, t in zip(*columns, strict=True)]


@settings(max_examples=30, deadline=None)
@given(rule_sets(), st.sampled_from([(2, 2), (3, 2), (4, 2), (3, 4), (5, 2)]), st.integers(0, 2**32 - 1),
       st.booleans(), st.sampled_from([None, 0, 1, 13]), st.sampled_from([1, 2, 3, 16]))
def test_small_decks_equal_the_reference_engine(rules: Rules, shape: tuple[int, int], seed: int, trace: bool,
                                                watch_from: int | None, watch_every: int) -> None:
    ranks, suits = shape
    deals, _ = deal_block(seed, 0, ranks, suits)
    deals = deals[:25]
    assert (compiled(deals, rules, ranks + 1, trace, jit=False, watch_from=watch_from,
                     watch_every=watch_every)
            == reference(deals, rules, ranks + 1, trace))


def test_endless_games_report_the_first_repeat() -> None:
    """A deal whose game cycles: the battle where the position first came back, with its plays
    and wars, under cycle detection with and without a cap (the cap decides between endless
    and capped), and under a cap alone (whole periods skipped, same counts)."""
    deal = np.array([[5, 2, 3, 3, 4, 5, 2, 4]])
    for rules in (Rules(), Rules(max_battles=9), Rules(max_battles=8),
                  Rules(detect_cycles=False, max_battles=1001), Rules(gather="as_played", max_battles=50)):
        for watch_from in (0, 3, 30, None):
            for watch_every in (1, 2, 4, 7, 16):
                assert (compiled(deal, rules, 5, False, jit=False, watch_from=watch_from,
                                 watch_every=watch_every)
                        == reference(deal, rules, 5, False)), (rules, watch_from, watch_every)
    assert compiled(deal, Rules(), 5, False, jit=False)[0][:2] == ("cycle", 9)
    assert compiled(deal, Rules(max_battles=8), 5, False, jit=False)[0][:2] == ("capped", 8)


def test_shuffled_returns_go_to_the_reference_engine() -> None:
    rules = Rules(gather="shuffled", detect_cycles=False, max_battles=300)
    deals, seeds = deal_block(3, 0, 4, 2)
    rec = play_deals(deals[:20], rules, seeds=seeds[:20], trace=True, jit=False)
    for row, s, w, b in zip(deals[:20].tolist(), seeds[:20].tolist(), rec.winner, rec.battles, strict=True):
        game = play_game(row[0::2], row[1::2], rules, seed=s)
        assert (OUTCOMES[w], int(b)) == (game.winner, game.battles)


def test_bad_deals() -> None:
    with pytest.raises(ValueError, match="even number of columns"):
        play_deals(np.array([[2, 3, 4]]), Rules(), jit=False)
    with pytest.raises(ValueError, match="ranks up to 127"):
        play_deals(np.array([[2, 300]]), Rules(), jit=False)
    with pytest.raises(ValueError, match="ranks up to 127, none negative"):
        play_deals(np.array([[2, -3]]), Rules(), jit=False)
    with pytest.raises(ValueError, match="ranks up to 127"):
        play_deals(np.array([[2, 200]]), Rules(), top=14, jit=False)  # a card above top
    with pytest.raises(ValueError, match="watch_every must be at least 1"):
        play_deals(np.array([[2, 3]]), Rules(), watch_every=0, jit=False)


@pytest.mark.parametrize("deuce", ["never", "battles", "always"])
@pytest.mark.parametrize("gather", ["winner_first", "loser_first", "as_played"])
def test_the_comparison_table_is_the_reference_comparison(deuce: str, gather: str) -> None:
    """Every pair of ranks, in a battle and in a war: the table's winner is the reference
    engine's, and a plain battle's two cards go under the winner in the order
    engine.battle puts them."""
    from collections import deque

    from games.war.compiled import _WAR, _tables
    from games.war.engine import battle

    top = 6
    table = _tables(deuce, gather, top, top + 1)
    rules = Rules(deuce_beats_ace=deuce, gather=gather)
    for x in range(2, top + 1):
        for y in range(2, top + 1):
            a, b = deque([x]), deque([y])
            result, _, _ = battle(a, b, rules, top)
            code = int(table[x << 7 | y])
            if x == y:
                assert code == 4
                continue
            assert result == ("B" if code >> 1 else "A")
            pile = list(b if code >> 1 else a)
            assert pile == ([y, x] if code & 1 else [x, y])
            # in a war a 2 beats the ace only under "always"
            war_code = int(table[_WAR + (x << 7 | y)])
            a, b = deque([5, 9, x]), deque([5, 9, y])
            result, _, wars = battle(a, b, Rules(deuce_beats_ace=deuce, gather=gather, face_down=1), top)
            assert wars == 1 and result == ("B" if war_code >> 1 else "A")


def test_without_numba_the_compiled_engine_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "numba", None)  # as if numba were not installed
    with pytest.raises(MissingExtra, match=r"drawdsl\[numba\]"):
        simulate(10, "standard", engine="compiled")
    with pytest.raises(MissingExtra, match=r"drawdsl\[numba\]"):
        play_deals(np.array([[2, 3]]), Rules())
    # "fast" falls back to the batched NumPy engine: the same table
    assert simulate(50, "standard", seed=2) == simulate(50, "standard", seed=2, engine="reference")


@needs_numba
@pytest.mark.parametrize("name", sorted(PRESETS))
def test_full_deck_presets_equal_the_reference_engine(name: str) -> None:
    deals, _ = deal_block(11, 0)
    deals = deals[:300]
    rules = war_preset(name)
    assert compiled(deals, rules, 14, True, jit=True) == reference(deals, rules, 14, True)


@needs_numba
@settings(max_examples=15, deadline=None)
@given(rule_sets(), st.integers(0, 2**32 - 1), st.sampled_from([None, 0, 100]))
def test_full_deck_rule_sets_equal_the_reference_engine(rules: Rules, seed: int,
                                                       watch_from: int | None) -> None:
    if rules.max_battles is None:
        # Uncapped, a game of 52 cards can run for hundreds of millions of battles before
        # its position repeats (the reference engine's side of it): a cap far past the
        # usual few hundred battles keeps the comparison bounded.
        rules = dataclasses.replace(rules, max_battles=100_000)
    deals, _ = deal_block(seed, 0)
    deals = deals[:40]
    assert (compiled(deals, rules, 14, False, jit=True, watch_from=watch_from)
            == reference(deals, rules, 14, False))


@needs_numba
def test_every_engine_gives_the_same_table() -> None:
    for name in ("standard", "rblog"):
        table = simulate(1500, name, seed=5, engine="compiled", trace=True)
        assert table == simulate(1500, name, seed=5, engine="numpy", trace=True)
        assert table == simulate(1500, name, seed=5, engine="fast", trace=True)
    assert simulate(300, "three-down", seed=6, engine="compiled") == simulate(
        300, "three-down", seed=6, engine="reference")


@needs_numba
def test_same_table_through_workers_and_dask() -> None:
    one = simulate(2500, "rblog", seed=21, chunk=BLOCK, engine="compiled")
    with ProcessPoolExecutor(max_workers=2) as pool:
        assert simulate(2500, "rblog", seed=21, chunk=BLOCK, engine="compiled", executor=pool) == one
    distributed = pytest.importorskip("dask.distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        table = simulate(2500, "rblog", seed=21, chunk=BLOCK, engine="compiled",
                         executor=client.get_executor())
    assert table == one
    assert one == simulate(2500, "rblog", seed=21, engine="numpy")


@needs_numba
@pytest.mark.parametrize("shape", [(6, 4), (8, 4)])
def test_endless_games_on_bigger_decks_equal_the_reference_engine(shape: tuple[int, int]) -> None:
    """Cards gathered as played: most of these games never end, some repeat only after
    thousands of battles.  Cycle detection with and without a cap, and a cap alone (whole
    periods skipped), for several watch starts and spacings: the reference engine's
    records, game by game."""
    ranks, suits = shape
    deals, _ = deal_block(8, 0, ranks, suits)
    deals = deals[:120]
    for rules in (Rules(face_down=0, gather="as_played"), Rules(gather="as_played", max_battles=700),
                  Rules(gather="as_played", detect_cycles=False, max_battles=5000)):
        expected = reference(deals, rules, ranks + 1, False)
        endless = sum(game[0] in ("cycle", "capped") for game in expected)
        assert endless >= 40, (rules, endless)
        for watch_from, watch_every in ((None, 16), (0, 1), (0, 5), (50, 3), (None, 64)):
            assert compiled(deals, rules, ranks + 1, False, jit=True, watch_from=watch_from,
                            watch_every=watch_every) == expected, (rules, watch_from, watch_every)


@needs_numba
@pytest.mark.parametrize("name", ["standard", "no-face-down"])
def test_long_full_deck_games_equal_the_reference_engine(name: str) -> None:
    """The games that outlast the default watch start (20 battles per card), where the
    kernel compares positions: the reference engine's records, traces included."""
    rules = war_preset(name)
    deals, _ = deal_block(13, 0)
    lengths = play_deals(deals, rules, top=14).battles
    long_deals = deals[lengths > 20 * 52]
    assert len(long_deals) >= 5
    expected = reference(long_deals, rules, 14, True)
    for watch_every in (1, 7, 16):
        assert compiled(long_deals, rules, 14, True, jit=True, watch_every=watch_every) == expected
