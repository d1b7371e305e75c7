"""Sampled runs spread over workers give the same tallies: processes, and a local Dask cluster."""

from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor

import pytest

from drawdsl import Cards, draw_many, loop, simulate, standard_deck
from games import penney


def flush_of(hand: tuple[str, ...]) -> bool:
    return len(set(hand)) == 1


def test_penney_card_simulation_is_the_same_for_1_and_2_processes() -> None:
    alone = penney.simulate_cards("RRB", "BRR", red=8, black=8, n=3000, seed=2, chunk=500)
    assert alone.n == 3000
    for workers in (1, 2):
        with ProcessPoolExecutor(max_workers=workers) as pool:
            again = penney.simulate_cards("RRB", "BRR", red=8, black=8, n=3000, seed=2, chunk=500,
                                          executor=pool)
        assert again == alone
    # The chunk is part of the seeding, the executor is not: a short run is plain simulate.
    assert penney.simulate_cards("RRB", "BRR", red=8, black=8, n=400, seed=2) == simulate(
        loop(*penney.card_step(("RRB", "BRR"), 8, 8, "tricks")), penney.card_deck(8, 8), n=400, seed=2
    )


def test_a_local_dask_cluster_gives_the_same_tallies() -> None:
    """The example of docs/embedding.md: any spec (lambdas too: Dask pickles them with
    cloudpickle) and the Penney card game, on a cluster of two worker processes."""
    distributed = pytest.importorskip("dask.distributed")
    suits = standard_deck().map(lambda card: card.suit)
    flush = draw_many(5).map(flush_of)
    two_aces = draw_many(2).map(lambda hand: hand.count("A"))
    aces = Cards({"A": 4, "x": 48})
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        pool = client.get_executor()
        on_dask = simulate(flush, suits, n=6000, seed=5, chunk=1000, executor=pool)
        lambdas = simulate(two_aces, aces, n=3000, seed=1, chunk=700, executor=pool)
        cards = penney.simulate_cards("RRB", "BRR", red=6, black=6, n=2000, seed=3, chunk=300,
                                      executor=pool)
    assert on_dask == simulate(flush, suits, n=6000, seed=5, chunk=1000)
    assert lambdas == simulate(two_aces, aces, n=3000, seed=1, chunk=700)
    assert cards == penney.simulate_cards("RRB", "BRR", red=6, black=6, n=2000, seed=3, chunk=300)
