"""The benchmark cases: each question, our formulations, the peers', and the known answer.

A table row pairs one of OUR formulations with one PEER formulation of the same
question.  Every formulation is named by ``"module:function"`` and run by
:mod:`bench.worker` in a fresh interpreter.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Literal

__all__ = ["Answer", "Impl", "Case", "CASES"]

#: A canonical answer: an exact probability, a distribution (``"never"`` for failure), or a float.
Answer = Fraction | float | dict[str, Fraction]

Kind = Literal["ordered", "unordered", "stateful", "reference", "formula", ""]


@dataclass(frozen=True)
class Impl:
    """One way to answer a case.

    ``kind`` says how a peer asks the question (ordered draws, an unordered deal, a
    stateful process, a hand-written reference, or a hand-written closed form that
    counts without visiting any state); the targets use it.
    ``unavailable`` is the reason a peer cannot ask it (the row then reads "n/a").
    ``slow`` formulations are skipped by ``--quick``; ``target=False`` keeps an
    informative formulation out of the targets.  ``warmup`` ("module:function") runs
    before the clock starts, to pay the library's one-time costs.  ``args`` are
    integers the function is called with (the scaling points).
    """

    key: str
    label: str
    func: str = ""
    library: str = "drawdsl"
    needs: tuple[str, ...] = ()
    kind: Kind = ""
    unavailable: str = ""
    slow: bool = False
    target: bool = True
    warmup: str = ""
    args: tuple[int, ...] = ()


@dataclass(frozen=True)
class Case:
    """A question; ``compare`` is "exact" (Fractions must be equal) or "float" (relative 1e-9)."""

    key: str
    title: str
    ours: tuple[Impl, ...] = ()
    peers: tuple[Impl, ...] = ()
    compare: Literal["exact", "float"] = "exact"
    known: Answer | None = None
    pending: str = ""
    notes: tuple[str, ...] = field(default=())


def _ours(key: str, label: str, func: str, *, slow: bool = False, target: bool = True) -> Impl:
    return Impl(key, label, func, "drawdsl", ("drawdsl", "games.war", "bench.ours"),
                warmup="bench.warmup:drawdsl_warmup", slow=slow, target=target)


def _icepool(key: str, label: str, func: str, kind: Kind) -> Impl:
    return Impl(key, label, func, "icepool", ("icepool", "bench.peers"), kind,
                warmup="bench.warmup:icepool_warmup")


def _lea(key: str, label: str, func: str, kind: Kind, *, slow: bool = False) -> Impl:
    return Impl(key, label, func, "lea", ("lea", "bench.peers"), kind,
                warmup="bench.warmup:lea_warmup", slow=slow)


def _reference(key: str, label: str, func: str, *args: int) -> Impl:
    return Impl(key, label, func, "reference", ("bench.reference",), "reference", args=args)


def _formula(key: str, label: str, func: str, *args: int) -> Impl:
    """A hand-written closed form: the strongest method where one exists, but no state evaluation."""
    return Impl(key, label, func, "reference", ("bench.reference",), "formula", args=args)


_N = 2_598_960
POKER_COUNTS = {
    "royal flush": 4,
    "straight flush": 36,
    "four of a kind": 624,
    "full house": 3744,
    "flush": 5108,
    "straight": 10200,
    "three of a kind": 54912,
    "two pair": 123552,
    "one pair": 1098240,
    "high card": 1302540,
}

CASES: tuple[Case, ...] = (
    Case(
        key="ace",
        title="An ace within the first 3 cards of 52 (ordered draws)",
        ours=(
            _ours("ace.ours", "`draw_until(is_ace, limit=3)` on `deck.map(is_ace)`",
                  "bench.ours:ace_within_3"),
        ),
        peers=(
            _icepool("ace.icepool.sequence", "icepool `Deck.sequence(3)`",
                     "bench.peers:icepool_ace_sequence", "ordered"),
            _icepool("ace.icepool.deal", "icepool `Deck.deal(3).sum() >= 1`",
                     "bench.peers:icepool_ace_deal", "unordered"),
            _lea("ace.lea.ordered", "lea `drawing(*cards, n=3)`",
                 "bench.peers:lea_ace_ordered", "ordered", slow=True),
            _lea("ace.lea.sorted", "lea `drawing(*cards, n=3, sorted=True)`",
                 "bench.peers:lea_ace_sorted", "unordered"),
            _formula("ace.formula", "1 - C(48, 3) / C(52, 3) (closed form)",
                     "bench.reference:ace_within_formula"),
        ),
        known=Fraction(1201, 5525),
    ),
    Case(
        key="flush",
        title="A 5-card flush (straight flushes included)",
        ours=(
            _ours("flush.ours.suits", "`examples.flush()` loop on `deck.map(suit)`",
                  "bench.ours:flush_on_suits"),
            _ours("flush.ours.cards", "the same loop on the unmapped 52-card deck (informative)",
                  "bench.ours:flush_on_52_cards", target=False),
        ),
        peers=(
            _icepool("flush.icepool.deal", "icepool `Deck(4 suits x 13).deal(5).largest_count() == 5`",
                     "bench.peers:icepool_flush_deal", "unordered"),
            _lea("flush.lea.sorted", "lea `drawing(*suits, n=5, sorted=True)`",
                 "bench.peers:lea_flush_sorted", "unordered", slow=True),
            _formula("flush.formula", "4 C(13, 5) / C(52, 5) (closed form)", "bench.reference:flush_formula"),
        ),
        known=Fraction(33, 16660),
    ),
    Case(
        key="poker",
        title="The 10 poker hand categories (counts out of 2,598,960)",
        ours=(
            _ours("poker.ours.split", "4 loops (rank pattern / straights / one suit's straights / suits) "
                  "+ set identities",
                  "bench.ours:poker_categories"),
            _ours("poker.ours.one", "one loop on the unmapped 52-card deck (informative)",
                  "bench.ours:poker_categories_one_spec", slow=True, target=False),
        ),
        peers=(
            _icepool("poker.icepool.split", "icepool split like ours: small-state rank evaluator on 13 ranks "
                     "x 4, suit deal, straights of 5 distinct ranks x 4",
                     "bench.peers:icepool_poker_split", "unordered"),
            _icepool("poker.icepool", "icepool `MultisetEvaluator` on `Deck(52 cards).deal(5)`",
                     "bench.peers:icepool_poker", "unordered"),
            _reference("poker.brute", "brute force over `itertools.combinations(range(52), 5)`",
                       "bench.reference:poker_brute_force"),
            _formula("poker.formula", "the textbook counts from binomial coefficients (closed form)",
                     "bench.reference:poker_formula"),
        ),
        known={category: Fraction(count, _N) for category, count in POKER_COUNTS.items()},
    ),
    Case(
        key="rbr",
        title="Where R B R first completes in a 26 red / 26 black deck (or never)",
        ours=(
            _ours("rbr.ours", "`loop((seen, matched), step)` on `deck.map(colour)`",
                  "bench.ours:rbr_first_position"),
        ),
        peers=(
            _icepool("rbr.icepool", "icepool `map(step, state, repeat=52)`, the state carries the counts",
                     "bench.peers:icepool_rbr_markov", "stateful"),
            _reference("rbr.reference", "memoized recursion over (reds, blacks, matched), Fractions",
                       "bench.reference:rbr_recursion"),
            _reference("rbr.forward", "forward pass over (reds turned, matched), integer counts",
                       "bench.reference:rbr_forward"),
            Impl("rbr.lea", "lea", library="lea", kind="stateful",
                 unavailable="lea has no ordered process without replacement short of enumerating "
                             "`drawing(*colours, n=52)`, i.e. C(52,26) = 4.96e14 colour sequences"),
        ),
    ),
    Case(
        key="war",
        title="War: P(A wins all 26 turns) on 52 cards (13 ranks x 4)",
        ours=(
            _ours("war.ours", "`games.war.sweep_probability()` (exact, symmetric mode)",
                  "bench.ours:war_sweep"),
        ),
        peers=(
            _formula("war.formula", "inclusion-exclusion over the tied turns (closed form)",
                       "bench.reference:war_sweep_inclusion_exclusion"),
            _reference("war.packed", "forward pass over counts of counts packed in one integer",
                       "bench.reference:war_sweep_packed"),
            _reference("war.counts", "forward pass over counts of counts, integer path counts",
                       "bench.reference:war_sweep_counts_of_counts"),
        ),
    ),
    Case(
        key="war26x4",
        title="War sweep, 26 ranks x 4 (104 cards)",
        ours=(
            _ours("war26x4.ours", "`games.war.sweep_probability(26, 4)`", "bench.ours:war_sweep_26x4"),
        ),
        peers=(
            _formula("war26x4.formula", "inclusion-exclusion over the tied turns (closed form)",
                       "bench.reference:war_sweep_inclusion_exclusion", 26, 4),
            _reference("war26x4.packed", "forward pass over counts of counts packed in one integer",
                       "bench.reference:war_sweep_packed", 26, 4),
            _reference("war26x4.counts", "forward pass over counts of counts, integer path counts",
                       "bench.reference:war_sweep_counts_of_counts", 26, 4),
        ),
    ),
    Case(
        key="war13x8",
        title="War sweep, 13 ranks x 8 (104 cards)",
        ours=(
            _ours("war13x8.ours", "`games.war.sweep_probability(13, 8)`", "bench.ours:war_sweep_13x8"),
        ),
        peers=(
            _formula("war13x8.formula", "inclusion-exclusion over the tied turns (closed form)",
                       "bench.reference:war_sweep_inclusion_exclusion", 13, 8),
            _reference("war13x8.packed", "forward pass over counts of counts packed in one integer",
                       "bench.reference:war_sweep_packed", 13, 8),
            _reference("war13x8.counts", "forward pass over counts of counts, integer path counts",
                       "bench.reference:war_sweep_counts_of_counts", 13, 8),
        ),
    ),
    Case(
        key="noadj",
        title="No two neighbouring cards share a rank (52 cards)",
        ours=(
            _ours("noadj.ours", "`loop((cards left, last rank), step)` on `deck.map(rank name)`",
                  "bench.ours:no_adjacent_rank"),
        ),
        peers=(
            _formula("noadj.formula", "inclusion-exclusion over blocks of equal neighbours (closed form)",
                       "bench.reference:no_adjacent_rank_inclusion_exclusion"),
            _reference("noadj.packed", "forward pass over (packed counts of counts, the last rank's count)",
                       "bench.reference:no_adjacent_rank_packed"),
            _reference("noadj.counts", "memoized recursion over counts of counts and the last rank's count",
                       "bench.reference:no_adjacent_rank_counts_of_counts"),
        ),
    ),
    Case(
        key="shared13",
        title="Cards drawn until two share a rank, 13 ranks x 4",
        ours=(
            _ours("shared13.ours", "`loop(frozenset(), step)` (the ranks seen) on `deck.map(rank name)`",
                  "bench.ours:shared_rank_13"),
        ),
        peers=(
            _icepool("shared13.icepool",
                     "icepool `Deck(13 ranks x 4).deal(k).largest_count() == 1`, k = 1..13",
                     "bench.peers:icepool_shared_rank_13", "unordered"),
            _formula("shared13.product", "product formula in Fractions",
                     "bench.reference:shared_rank_product"),
        ),
    ),
    Case(
        key="shared52",
        title="Cards drawn until two share a rank, 52 ranks x 4 (208 cards)",
        ours=(
            _ours("shared52.ours", "the same loop on 52 ranks x 4", "bench.ours:shared_rank_52"),
        ),
        peers=(
            _icepool("shared52.icepool",
                     "icepool `Deck(52 ranks x 4).deal(k).largest_count() == 1`, k = 1..52",
                     "bench.peers:icepool_shared_rank_52", "unordered"),
            _formula("shared52.product", "product formula in Fractions",
                     "bench.reference:shared_rank_product", 52, 4),
        ),
    ),
    Case(
        key="suitrun",
        title="The longest run of one suit in the first 13 cards",
        ours=(
            _ours("suitrun.ours", "`loop((drawn, last suit, run, best), step)` on `deck.map(suit)`",
                  "bench.ours:longest_suit_run"),
        ),
        peers=(
            _reference("suitrun.packed", "the same pass, the other suits' counts as packed counts of counts",
                       "bench.reference:longest_suit_run_packed"),
            _reference("suitrun.forward",
                       "forward pass over (last suit's count, sorted other counts, run, best)",
                       "bench.reference:longest_suit_run_forward"),
        ),
    ),
    Case(
        key="penney",
        title="Penney races on a coin (cyclic): P(first wins), all 56 ordered length-3 pairs",
        ours=(
            _ours("penney.ours", "`loop` race solved as an absorbing chain (`chances` on `coin()`)",
                  "bench.ours:penney_all_pairs"),
        ),
        peers=(
            _icepool("penney.icepool.automaton",
                     'icepool `Die.map(step, repeat="inf")` over the minimal pattern automaton',
                     "bench.peers:icepool_penney_automaton", "stateful"),
            _icepool("penney.icepool", 'icepool `map(step, state, flip, repeat="inf")`, state = last 3 flips',
                     "bench.peers:icepool_penney_all_pairs", "stateful"),
            _formula("penney.conway", "Conway's leading numbers in Fractions (closed form)",
                     "bench.reference:penney_conway"),
        ),
    ),
)
