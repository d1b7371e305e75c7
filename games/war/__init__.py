"""War, the card game, as draw programs: the chance of a 26-0 sweep, whole games exactly on
small decks, deal search, and fast simulation of the real deck.

>>> from games import war
>>> war.sweep_probability(ranks=2, suits=2)
Fraction(1, 6)
>>> war.exact_game(ranks=3, suits=4).p_first_wins
Fraction(53, 110)
>>> war.play_game([14, 9, 3], [2, 9, 5], war.preset("rblog")).winner
'B'

Modules: :mod:`~games.war.rules` (rules as data, presets), :mod:`~games.war.engine`
(the rules engine), :mod:`~games.war.exact_game` (exact results), :mod:`~games.war.search`
(deal search), :mod:`~games.war.simulate` and :mod:`~games.war.batch` (Monte Carlo,
NumPy), :mod:`~games.war.plot` (matplotlib), :mod:`~games.war.sweep` (the sweep);
:mod:`~games.war.multi`, :mod:`~games.war.multi_exact` and :mod:`~games.war.multi_simulate`
(three or more players).
"""

from games.war.engine import Game, deal_hands, hand_features, play_game
from games.war.exact_game import ExactGame, exact_game, exact_outcomes, game_spec, literal_spec
from games.war.rules import PRESETS, Rules, preset
from games.war.search import QUESTIONS, Found, SearchGaveUp, question_spec, search
from games.war.simulate import GameTable, Summary, simulate
from games.war.sweep import (
    deck,
    games_per_sweep,
    no_tie_probability,
    sweep_probability,
    sweep_spec,
    tie_free_spec,
)

__all__ = [
    # the sweep
    "deck",
    "sweep_spec",
    "tie_free_spec",
    "sweep_probability",
    "no_tie_probability",
    "games_per_sweep",
    # rules and the engine
    "Rules",
    "PRESETS",
    "preset",
    "Game",
    "play_game",
    "deal_hands",
    "hand_features",
    # exact results on small decks
    "game_spec",
    "literal_spec",
    "exact_outcomes",
    "exact_game",
    "ExactGame",
    # deal search
    "QUESTIONS",
    "Found",
    "SearchGaveUp",
    "search",
    "question_spec",
    # simulation
    "simulate",
    "GameTable",
    "Summary",
]
