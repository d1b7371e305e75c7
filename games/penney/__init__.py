"""Penney's game as draw programs: exact odds for coins, dice and the 52-card version.

Each player names a pattern; symbols are drawn until one pattern appears.  The race
is a :func:`~drawdsl.loop` over the pattern automaton on a with-replacement source,
solved exactly as an absorbing Markov chain; the card version (Humble-Nishiyama) is
the same automaton over a finite red/black deck.  See docs/penney.md.

>>> from games import penney
>>> penney.odds("HHH", "THH")
Odds({'HHH': 1/8, 'THH': 7/8}, expected_length=7)
>>> penney.best_replies("HTH")
Reply(('HHT',), 2/3)
>>> penney.card_odds("RRB", "BRR", red=4, black=4).second
Fraction(47, 70)
"""

from games.penney.best import Reply, best_replies, best_reply_table, second_player_edge
from games.penney.cards import (
    COUNTS,
    CardMatchup,
    CardOdds,
    card_best_replies,
    card_best_reply_table,
    card_deck,
    card_odds,
    card_spec,
    card_step,
    card_table,
    play_cards,
    simulate_cards,
)
from games.penney.correlation import Correlations, pair_chances, race_odds
from games.penney.equilibria import Equilibria, ZeroSum, payoff_matrix, pure_equilibria, zero_sum
from games.penney.free import FreeReply, best_replies_with_free
from games.penney.markov import Chain, markov_chain
from games.penney.memo import memo_loop
from games.penney.patterns import Automaton, all_patterns, check_alphabet, check_patterns, source
from games.penney.race import (
    METHODS,
    Odds,
    Races,
    length_distribution,
    odds,
    odds_text,
    race_spec,
    timed_race_spec,
)
from games.penney.table import Matchup, best_reply_cycles, best_reply_graph, pair_table, write_csv

__all__ = [
    # patterns
    "Automaton",
    "all_patterns",
    "check_alphabet",
    "check_patterns",
    "source",
    # coin and dice races
    "race_spec",
    "timed_race_spec",
    "odds",
    "Odds",
    "Races",
    "length_distribution",
    "odds_text",
    "METHODS",
    # correlations and the Markov-chain view
    "Correlations",
    "race_odds",
    "pair_chances",
    "Chain",
    "markov_chain",
    # equilibria
    "Equilibria",
    "pure_equilibria",
    "ZeroSum",
    "zero_sum",
    "payoff_matrix",
    # best replies and tables
    "Reply",
    "best_replies",
    "best_reply_table",
    "second_player_edge",
    "FreeReply",
    "best_replies_with_free",
    "Matchup",
    "pair_table",
    "write_csv",
    "best_reply_graph",
    "best_reply_cycles",
    # the card version
    "COUNTS",
    "card_deck",
    "card_step",
    "card_spec",
    "CardOdds",
    "card_odds",
    "CardMatchup",
    "card_table",
    "card_best_replies",
    "card_best_reply_table",
    "play_cards",
    "simulate_cards",
    "memo_loop",
]
