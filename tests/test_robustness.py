"""Resource limits, deep processes, determinism and thread safety of the core interpreters."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import tracemalloc
from concurrent.futures import ThreadPoolExecutor
from fractions import Fraction
from math import comb
from typing import Any

import pytest

from drawdsl import (
    FAILED,
    Cards,
    StateLimitExceeded,
    chances,
    coin,
    done,
    draw_many,
    loop,
    sample,
    simulate,
    standard_deck,
    witness,
)
from drawdsl.examples import blackjack_natural, flush


class Parity:
    """Flip ``n`` coins; finish with the parity of the number of heads."""

    def __init__(self, n: int) -> None:
        self.n = n

    def __call__(self, state: tuple[int, int], side: str) -> Any:
        drawn, parity = state
        drawn += 1
        parity ^= side == "H"
        return done(parity) if drawn == self.n else (drawn, parity)


def test_ten_thousand_draws_deep_with_replacement() -> None:
    dist = chances(loop((0, 0), Parity(10_000)), coin(Fraction(1, 3)), max_draws=10_000)
    # P(even number of heads in n flips) = (1 + (1 - 2p)^n) / 2
    assert dist[0] == (1 + Fraction(1, 3) ** 10_000) / 2
    assert dist.expected_draws == 10_000


def test_ten_thousand_draws_deep_sampled_and_witnessed() -> None:
    spec = loop((0, 0), Parity(10_000))
    assert sample(spec, coin(), rng=1) in (0, 1)
    found = witness(spec, coin(), lambda parity: parity == 1)
    assert found is not None and len(found.deal) == 10_000


def test_exploding_state_space_stops_at_the_limit_in_bounded_memory() -> None:
    """draw_many(20) on 20 distinct cards would need 20!/(20-d)! states at depth d
    (over 10^8 by depth 7); the limit stops it early, with a message saying how far it got."""
    tracemalloc.start()
    try:
        with pytest.raises(
            StateLimitExceeded,
            match=r"(reached|would reach about) [\d,]+ live states at draw \d+.* over max_states=20000",
        ):
            chances(draw_many(20), Cards(range(20)), max_states=20_000)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 400 * 2**20  # bytes


def test_threads_get_the_same_answers() -> None:
    suits = standard_deck().map(lambda card: card.suit)
    values = standard_deck().map(lambda card: 11 if card.rank == 14 else min(card.rank, 10))
    jobs = [(flush(), suits), (blackjack_natural(), values)] * 4
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(lambda job: chances(*job), jobs))
    assert all(r.success == Fraction(33, 16660) for r in results[0::2])
    assert all(r.success == Fraction(32, 663) for r in results[1::2])


def test_threads_sampling_with_own_seeds_is_deterministic() -> None:
    spec = draw_many(3)
    deck = Cards("aabbc")
    with ThreadPoolExecutor(max_workers=4) as pool:
        tallies = list(pool.map(lambda seed: simulate(spec, deck, n=300, seed=seed), [7, 7, 7, 7]))
    assert all(t == tallies[0] for t in tallies)


_PROGRAM = textwrap.dedent(
    """
    from drawdsl import Cards, chances, draw_groups, simulate, draw_many
    deck = Cards({"x": 3, "y": 2, "z": 2, ("t", 1): 1, frozenset({1}): 1})
    print(chances(draw_groups([2, 1]), deck))
    print(simulate(draw_many(2), deck, n=200, seed=5))
    """
)


def test_results_do_not_depend_on_the_hash_seed() -> None:
    outputs = {
        subprocess.run(
            [sys.executable, "-c", _PROGRAM],
            env={"PYTHONHASHSEED": seed, "PATH": ""},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for seed in ("0", "1", "12345")
    }
    assert len(outputs) == 1


def test_comb_sanity_of_a_limit_free_big_case() -> None:
    """A 26-card hand's colour count over the full deck: merged states keep it small."""
    from drawdsl import draw_count

    colours = standard_deck().map(lambda card: card.color)
    dist = chances(draw_count(lambda c: c == "red", 26), colours)
    assert dist[13] == Fraction(comb(26, 13) ** 2, comb(52, 26))


def test_simulate_gives_the_same_tally_for_1_2_and_4_workers() -> None:
    """Seeded blocks: the tally depends on the seed, n and chunk only, never on the workers."""
    from concurrent.futures import ProcessPoolExecutor

    suits = standard_deck().map(lambda card: card.suit)
    alone = simulate(flush(), suits, n=400, seed=11, chunk=50)
    assert alone.n == 400
    for workers in (1, 2, 4):
        with ProcessPoolExecutor(max_workers=workers) as pool:
            assert simulate(flush(), suits, n=400, seed=11, chunk=50, executor=pool) == alone
    # Block 0 is plain random.Random(seed): a run shorter than one block is unchanged by chunking.
    import random
    from collections import Counter

    rng = random.Random(11)
    by_hand = Counter(sample(flush(), suits, rng) for _ in range(40))
    assert dict(simulate(flush(), suits, n=40, seed=11, chunk=50)) == {
        k: v for k, v in by_hand.items() if k is not FAILED
    }


def test_a_sampled_run_that_never_ends_stops_at_max_draws() -> None:
    """Heads forever is never reached on a fair coin's typical path: the cap stops the run."""

    def step(heads: int, side: str) -> Any:
        return heads + (side == "H") if heads < 10**9 else done(heads)

    with pytest.raises(StateLimitExceeded, match=r"max_draws=1000 cards; pass a larger max_draws"):
        sample(loop(0, step), coin(), rng=3, max_draws=1000)
    with pytest.raises(StateLimitExceeded, match="max_draws"):
        simulate(loop(0, step), coin(), n=2, seed=3, max_draws=500)
