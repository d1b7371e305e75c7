"""drawdsl: exact probabilities of card draws, written as small draw programs.

>>> from drawdsl import chance, draw_until, standard_deck
>>> aces = standard_deck().map(lambda card: card.is_ace)
>>> chance(draw_until(lambda ace: ace, limit=3), aces)  # an ace within 3 cards
Fraction(1201, 5525)
"""

from drawdsl.atoms import _own as _collect_own_code
from drawdsl.cards import Cards
from drawdsl.combinators import (
    draw_count,
    draw_groups,
    draw_groups_on,
    draw_many,
    draw_same,
    draw_same_on,
    draw_until,
    draw_where,
    ensure,
    interleave,
    replicate,
    sequence,
)
from drawdsl.distribution import Distribution
from drawdsl.errors import (
    DrawdslError,
    EndlessProcess,
    InvalidArgument,
    MissingExtra,
    NotASpec,
    StateLimitExceeded,
)
from drawdsl.estimates import Estimate
from drawdsl.exact import chance, chances
from drawdsl.explain import Explanation, explain
from drawdsl.playing import JOKER, RANKS, SUITS, Card, rank_name, shoe, standard_deck
from drawdsl.sampling import FAILED, Tally, play, sample, simulate
from drawdsl.scoring import scoring_loop
from drawdsl.sources import Weighted, coin, die
from drawdsl.spec import Spec, done, draw, draw_any, draw_one, fail, keyed, loop
from drawdsl.syntax import generate
from drawdsl.witness import Witness, witness

__version__ = "0.1.0"

__all__ = [
    # the spec language
    "Spec",
    "done",
    "fail",
    "draw",
    "draw_one",
    "draw_any",
    "loop",
    "scoring_loop",
    "keyed",
    "generate",
    # combinators
    "ensure",
    "draw_where",
    "draw_until",
    "draw_count",
    "draw_many",
    "draw_same",
    "draw_same_on",
    "draw_groups",
    "draw_groups_on",
    "interleave",
    "sequence",
    "replicate",
    # sources
    "Cards",
    "Weighted",
    "coin",
    "die",
    "Card",
    "RANKS",
    "SUITS",
    "JOKER",
    "rank_name",
    "standard_deck",
    "shoe",
    # interpreters and results
    "chances",
    "chance",
    "explain",
    "Explanation",
    "Distribution",
    "sample",
    "simulate",
    "play",
    "Tally",
    "Estimate",
    "FAILED",
    "witness",
    "Witness",
    # errors
    "DrawdslError",
    "InvalidArgument",
    "NotASpec",
    "StateLimitExceeded",
    "EndlessProcess",
    "MissingExtra",
    "__version__",
]

# The library's own code objects (drawdsl.own_code), collected now, before code outside
# the library can add names to its modules: a traced run trusts only these frames.
_collect_own_code()
