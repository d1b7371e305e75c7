"""The renaming symmetry tried early by traced runs (drawdsl.exact.TRACE_AT).

Traced runs cost no proof over the state graph, so the evaluator tries them once a
frontier passes TRACE_AT live states, well before the graph proofs (ESCALATE_AT).  A
spec that is not blind to renamings must cost nothing more than before: one traced run
of the evaluation's last transition refuses it, and the evaluation goes on without
starting again.  The answers never change.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from oracle import brute_force

import drawdsl.exact as exact
from drawdsl import Cards, chances, done, loop
from drawdsl.order_blind import MODELLED


def until_repeat(seen: frozenset[Any], card: Any) -> Any:
    if card in seen:
        return done(len(seen) + 1)
    return seen | {card}


def rbr(state: tuple[int, str], colour: str) -> Any:
    seen, last = state
    last = (last + colour)[-3:]
    return done(seen + 1) if last == "RBR" else (seen + 1, last)


def run(spec: Any, deck: Cards[Any]) -> tuple[Any, exact._Log]:
    log = exact._Log()
    result = exact._evaluate_reduced(spec, deck, 10**6, 10**6, True, True, None, log)
    return result, log


@pytest.mark.skipif(not MODELLED, reason="the hashing proof models Python 3.11")
def test_a_frontier_between_the_thresholds_is_traced() -> None:
    # 8 ranks x 4: at most C(8, 4) = 70 sets of ranks seen at one draw, past TRACE_AT and
    # far below ESCALATE_AT.
    assert exact.TRACE_AT < 70 < exact.ESCALATE_AT
    deck = Cards({f"r{i}": 4 for i in range(8)})
    result, log = run(loop(frozenset(), until_repeat), deck)
    assert log.symmetric
    distinct = [Fraction(1), Fraction(1)]
    for k in range(2, 10):
        distinct.append(distinct[-1] * Fraction(32 - 4 * (k - 1), 32 - (k - 1)))
    assert dict(result) == {k: distinct[k - 1] - distinct[k] for k in range(2, 10)}


def test_a_spec_that_tells_cards_apart_is_not_started_again() -> None:
    # R B R on 12 red and 12 black: it compares colours with constants, so the traced run
    # of the last transition refuses the symmetry, and the evaluation that passed
    # TRACE_AT goes on.
    deck = Cards({"R": 12, "B": 12})
    spec = loop((0, ""), rbr)
    result, log = run(spec, deck)
    assert not log.symmetric
    assert max(live for _, live, _ in log.trace) > exact.TRACE_AT
    assert log.restarts == 1  # the lumping of R with B split at the first draw, nothing more
    assert result == chances(spec, deck, symmetric=False, lump=False)


def test_small_decks_agree_with_the_oracle_either_way() -> None:
    small = Cards({"R": 4, "B": 3})
    spec = loop((0, ""), rbr)
    assert run(spec, small)[0] == brute_force(spec, small)
    deck = Cards({f"r{i}": 2 for i in range(4)})
    assert run(loop(frozenset(), until_repeat), deck)[0] == brute_force(loop(frozenset(), until_repeat), deck)
