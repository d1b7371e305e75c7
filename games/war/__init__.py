"""War, the card game, as draw programs: the chance of a 26-0 sweep (more to come).

>>> from games import war
>>> war.sweep_probability(ranks=2, suits=2)
Fraction(1, 6)
"""

from games.war.sweep import (
    deck,
    games_per_sweep,
    no_tie_probability,
    sweep_probability,
    sweep_spec,
    tie_free_spec,
)

__all__ = [
    "deck",
    "sweep_spec",
    "tie_free_spec",
    "sweep_probability",
    "no_tie_probability",
    "games_per_sweep",
]
