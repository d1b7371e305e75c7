"""Make the evaluator try to prove its reductions at once, so small decks exercise them.

By default the proofs only run once a frontier grows past ``ESCALATE_AT`` states,
which small test decks never reach.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import drawdsl.exact


@contextmanager
def eager_proofs() -> Iterator[None]:
    """Within the block, every evaluation over a deck proves its reductions first."""
    old = drawdsl.exact.ESCALATE_AT
    drawdsl.exact.ESCALATE_AT = 0
    try:
        yield
    finally:
        drawdsl.exact.ESCALATE_AT = old


@contextmanager
def routes(**values: int) -> Iterator[None]:
    """drawdsl.exact's thresholds set to ``values`` for the block (``LOOP_PROOF_AT=2``:
    the loop proof tried up front on small decks; ``LOOP_PROOF_AT=99, TRACE_AT=1``:
    traced runs at once)."""
    before = {name: getattr(drawdsl.exact, name) for name in values}
    for name, value in values.items():
        setattr(drawdsl.exact, name, value)
    try:
        yield
    finally:
        for name, value in before.items():
            setattr(drawdsl.exact, name, value)
