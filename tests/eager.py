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
