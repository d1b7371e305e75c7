"""@generate specs shown blind to renamings by their bytecode (drawdsl.renaming_blind).

A generator that uses a card's rank only as a key of a dict whose keys it never reads
back (and compares ranks only with each other) cannot see a renaming of the ranks, and
is evaluated with the renaming symmetry from the start.  Every answer here is checked
against the brute-force oracle and against the evaluation with no reduction; the
generators that could see a renaming (a constant compared, keys read back, a frame
reader within reach, a rebound ``draw`` or ``len``) must get no proof and still the
right answer.
"""

from __future__ import annotations

import sys
import types
from collections import Counter, defaultdict
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from oracle import brute_force

import drawdsl
from drawdsl import Card, Cards, chances, draw, explain, generate, standard_deck
from drawdsl.order_blind import MODELLED
from drawdsl.renaming_blind import blind_generator, renaming_blind

needs_model = pytest.mark.skipif(not MODELLED, reason="the bytecode proofs model Python 3.11 only")

SMALL = Cards([
    Card(2, "S"), Card(2, "H"), Card(3, "S"), Card(3, "H"), Card(4, "D"), Card(5, "S"), Card(5, "D"),
])
PLAIN = Cards([1, 1, 2, 2, 3, 4, 4])


@generate
def pattern() -> Any:
    counts: dict[int, int] = {}
    for _ in range(4):
        card = yield draw()
        counts[card.rank] = counts.get(card.rank, 0) + 1
    return tuple(sorted(counts.values()))


@generate
def counter_pattern() -> Any:
    counts: Counter[int] = Counter()
    for _ in range(3):
        card = yield draw()
        counts[card.rank] += 1
    return max(counts.values()), len(counts)


@generate
def default_pattern() -> Any:
    counts: defaultdict[int, int] = defaultdict(int)
    first = yield draw()
    counts[first.rank] += 1
    for _ in range(2):
        card = yield draw()
        if card.rank in counts:
            counts[card.rank] += 10
        else:
            counts[card.rank] = 1
    return tuple(counts.values())


@generate
def same_suit_run() -> Any:
    first = yield draw()
    for n in range(3):
        card = yield draw()
        if card.suit != first.suit:
            return n
    return 3


@generate
def kept_rank() -> Any:
    seen: dict[int, int] = {}
    for _ in range(3):
        card = yield draw()
        rank = card.rank
        if seen.pop(rank, None) is not None:
            return "pair"
        seen.setdefault(rank, 1)
    return "none"


@generate
def plain_cards() -> Any:
    counts: dict[int, int] = {}
    for _ in range(3):
        card = yield draw()
        counts[card] = counts.get(card, 0) + 1
    return tuple(sorted(counts.values()))


@generate
def reads_values() -> Any:
    counts: dict[int, int] = {}
    for _ in range(3):
        card = yield draw()
        counts[card.rank] = counts.get(card.rank, 0) + 1
    total = 0
    for value in counts.values():
        total += value * value
    return total, 2 in counts.values(), max(counts.values(), default=0)


# Generators that can see a renaming: no proof, and the right answer all the same.


@generate
def keys_through_values() -> Any:
    counts: dict[int, int] = {}
    for _ in range(2):
        card = yield draw()
        counts[card.rank] = 1
    return int(min(counts.values().mapping))  # a review: the view's mapping is the dict


@generate
def keyword_defaultdict() -> Any:
    # A review: a dict holding the key "default_factory", no default: not defaultdict(int).
    counts = defaultdict(default_factory=int)  # noqa: RUF026 - on purpose
    card = yield draw()
    return card in counts


@generate
def compares_a_constant() -> Any:
    counts: dict[int, int] = {}
    for _ in range(3):
        card = yield draw()
        counts[card.rank] = counts.get(card.rank, 0) + (card.rank == 2)
    return tuple(sorted(counts.values()))


@generate
def reads_keys() -> Any:
    counts: dict[int, int] = {}
    for _ in range(3):
        card = yield draw()
        counts[card.rank] = counts.get(card.rank, 0) + 1
    return sorted(counts)[0]


@generate
def first_key_by_max() -> Any:
    counts: dict[int, int] = {}
    for _ in range(3):
        card = yield draw()
        counts[card.rank] = 1
    return max(counts)


@generate
def orders_ranks() -> Any:
    first = yield draw()
    card = yield draw()
    return card.rank < first.rank


@generate
def seeded_dict() -> Any:
    counts = {2: 0}
    card = yield draw()
    counts[card.rank] = counts.get(card.rank, 0) + 1
    return len(counts)


def _keys_of_caller() -> Any:
    return tuple(int(key) for key in sorted(sys._getframe(1).f_locals["counts"]))  # plain ints, not names


@generate
def frame_reader() -> Any:
    counts: dict[int, int] = {}
    for _ in range(2):
        card = yield draw()
        counts[card.rank] = 1
    return _keys_of_caller()


@generate
def frame_reader_default(keys: Any = _keys_of_caller) -> Any:
    counts: dict[int, int] = {}
    for _ in range(2):
        card = yield draw()
        counts[card.rank] = 1
    return keys()


@generate
def two_fields() -> Any:
    counts: dict[Any, int] = {}
    for _ in range(2):
        card = yield draw()
        counts[card.rank] = 1
        counts[card.suit] = 2
    return tuple(sorted(counts.values()))


BLIND = {
    "pattern": pattern, "counter": counter_pattern, "default": default_pattern,
    "suit run": same_suit_run, "kept rank": kept_rank, "values": reads_values,
}
NOT_BLIND = {
    "constant": compares_a_constant, "keys": reads_keys, "max key": first_key_by_max,
    "order": orders_ranks, "seeded": seeded_dict, "mapping": keys_through_values,
}


def _evaluations(spec: Any, deck: Cards[Any]) -> None:
    truth = brute_force(spec, deck)
    assert chances(spec, deck) == truth
    assert chances(spec, deck, merge=False, lump=False, symmetric=False, probe=False) == truth


OTHERS = {"frame reader": frame_reader, "frame default": frame_reader_default, "two fields": two_fields}


@pytest.mark.parametrize("name", [*BLIND, *NOT_BLIND, *OTHERS])
def test_answers_equal_brute_force(name: str) -> None:
    make = {**BLIND, **NOT_BLIND, **OTHERS}[name]
    _evaluations(make(), SMALL)


def test_plain_cards_equal_brute_force() -> None:
    _evaluations(plain_cards(), PLAIN)
    strings = Cards(["a", "default_factory", "b"])
    _evaluations(keyword_defaultdict(), strings)
    if MODELLED:
        assert not explain(keyword_defaultdict(), strings).symmetric
    # Cards of two types (1 and "1"): not all told apart by one kind of value: no proof.
    _evaluations(plain_cards(), Cards([1, "1", 2, 2, 3]))


@needs_model
@pytest.mark.parametrize("name", list(BLIND))
def test_blind_generators_are_proven(name: str) -> None:
    spec = BLIND[name]()
    assert blind_generator(spec.func, spec.args, spec.kwargs) is not None
    assert explain(spec, SMALL).symmetric


@needs_model
@pytest.mark.parametrize("name", list(NOT_BLIND))
def test_generators_that_see_a_renaming_are_not(name: str) -> None:
    assert renaming_blind(NOT_BLIND[name]().func.__code__) is None


@needs_model
def test_frame_readers_and_two_fields_are_refused_when_used() -> None:
    for spec in (frame_reader(), frame_reader_default()):
        assert renaming_blind(spec.func.__code__) is not None  # the code alone is blind...
        assert blind_generator(spec.func, spec.args, spec.kwargs) is None  # ...what it calls is not
    proof = renaming_blind(two_fields().func.__code__)
    assert proof is not None and proof.fields == {"rank", "suit"}
    assert not explain(two_fields(), SMALL).symmetric


_REBOUND = """
def hand():
    counts = {}
    for _ in range(3):
        card = yield draw()
        counts[card.rank] = counts.get(card.rank, 0) + 1
    return len(counts)
"""


@needs_model
def test_a_rebound_draw_or_len_is_refused() -> None:
    # ``draw`` rebound to a spec that looks at the rank, ``len`` to one that reads keys.
    for namespace in (
        {"draw": lambda: drawdsl.draw_until(lambda c: c.rank == 3).map(lambda cards: cards[0]), "len": len},
        {"draw": drawdsl.draw, "len": lambda d: int(min(d))},
    ):
        exec(_REBOUND, namespace)
        spec = generate(namespace["hand"])()
        _evaluations(spec, SMALL)
        assert blind_generator(spec.func, spec.args, spec.kwargs) is None


def test_a_bigger_hand_takes_the_symmetry() -> None:
    @generate
    def hand() -> Any:
        counts: dict[int, int] = {}
        for _ in range(7):
            card = yield draw()
            counts[card.rank] = counts.get(card.rank, 0) + 1
        return max(counts.values())

    got = chances(hand(), standard_deck())
    # Four of a kind in 7 cards: 13 ranks times C(48, 3) hands of the other three, over C(52, 7).
    from math import comb

    assert got[4] == Fraction(13 * comb(48, 3), comb(52, 7))
    assert sum(got.values()) == 1
    if MODELLED:
        assert explain(hand(), standard_deck()).symmetric


_STATEMENTS = [
    "counts[card.rank] = counts.get(card.rank, 0) + 1",
    "counts[card.rank] = counts.setdefault(card.rank, 0) + 2",
    "score += card.rank == first.rank",
    "score += card.rank != first.rank",
    "score += len(counts)",
    "score += sum(counts.values())",
    "score += card.rank in counts",
    "counts.pop(card.rank, None)",
    "score += max(counts.values(), default=0)",
    # These can see a renaming (no proof), and are here to be evaluated right all the same.
    "score += card.rank == 3",
    "score += sorted(counts)[0] if counts else 0",
    "score += card.rank > first.rank",
    "counts[first.rank] = 7",
]


@settings(max_examples=60, deadline=None)
@given(
    body=st.lists(st.sampled_from(_STATEMENTS), min_size=1, max_size=3),
    draws=st.integers(1, 3),
    deck_size=st.integers(3, 6),
)
def test_generated_generators_equal_brute_force(body: list[str], draws: int, deck_size: int) -> None:
    source = "def hand():\n    counts = {}\n    score = 0\n    first = yield draw()\n"
    source += f"    for _ in range({draws}):\n        card = yield draw()\n"
    source += "".join(f"        {line}\n" for line in body)
    source += "    return score, tuple(sorted(counts.values()))\n"
    namespace: dict[str, Any] = {"draw": draw}
    exec(source, namespace)
    spec = generate(namespace["hand"])()
    deck = Cards(list(SMALL)[:deck_size])
    truth = brute_force(spec, deck)
    assert chances(spec, deck) == truth


# Sets of class values: never iterated, so also keyed by their items (drawdsl.frames).


@generate
def until_a_rank_repeats() -> Any:
    seen = set()
    drawn = 0
    while True:
        card = yield draw()
        drawn += 1
        if card.rank in seen:
            return drawn
        seen.add(card.rank)


@generate
def shared_or_separate_sets() -> Any:
    first = yield draw()
    second = yield draw()
    a = set()
    b = set()
    if first.rank == second.rank:
        b = a  # one set under two names on this path, two sets on the other
    for _ in range(2):
        card = yield draw()
        a.add(card.rank)
    return len(b)


@generate
def iterates_a_set() -> Any:
    seen = set()
    for _ in range(3):
        card = yield draw()
        seen.add(card.rank)
    return int(min(seen))


@generate
def a_set_handed_in(seen: Any = None) -> Any:
    seen = set()
    card = yield draw()
    seen.add(card.rank)
    return len(seen)


def _set_order_of_caller() -> Any:
    return tuple(int(rank) for rank in sys._getframe(1).f_locals["seen"])


@generate
def set_order_by_default(peek: Any = _set_order_of_caller) -> Any:
    seen = set()
    for _ in range(3):
        card = yield draw()
        seen.add(card.rank)
    return peek()


@pytest.mark.parametrize("make", [until_a_rank_repeats, shared_or_separate_sets, iterates_a_set,
                                  a_set_handed_in, set_order_by_default])
@pytest.mark.parametrize("deck", [
    SMALL,
    # Ranks of one hash slot in a small set (1, 9, 17): a set's order follows its insertions.
    Cards([Card(1, "S"), Card(9, "S"), Card(17, "S"), Card(9, "H"), Card(1, "H"), Card(25, "D")]),
])
def test_sets_equal_brute_force(make: Any, deck: Cards[Any]) -> None:
    spec = make()
    truth = brute_force(spec, deck)
    assert chances(spec, deck) == truth
    assert chances(spec, deck, symmetric=False) == truth
    assert chances(spec, deck, merge=False, lump=False, symmetric=False, probe=False) == truth


@needs_model
def test_a_set_of_ranks_merges_and_takes_the_symmetry() -> None:
    proof = renaming_blind(until_a_rank_repeats().func.__code__)
    assert proof is not None and proof.sets == {"seen"}
    for make in (iterates_a_set, a_set_handed_in):
        assert renaming_blind(make().func.__code__) is None
    deck = standard_deck()
    widths: list[int] = []
    got = chances(until_a_rank_repeats(), deck, progress=lambda draws, states: widths.append(states))
    assert max(widths) <= 2  # one state per depth: the ranks seen are all alike
    # The same question as a loop over ranks kept in a frozenset (the tuned form).
    def step(seen: frozenset[int], rank: int) -> Any:
        return drawdsl.done(len(seen) + 1) if rank in seen else seen | {rank}

    tuned = chances(drawdsl.loop(frozenset(), step), deck.map(lambda card: card.rank))
    assert got == tuned


# A review: a frame reader carried in a global class's data or as another type's descriptor.


def _set_of_caller() -> Any:
    return tuple(sys._getframe(1).f_locals["seen"])


def _rank_of_caller() -> Any:
    return int(sys._getframe(1).f_locals["card"].rank)


def _nothing() -> int:
    return 0


class _InDoc:
    __doc__ = _set_of_caller  # type: ignore[assignment]


class _InAnnotations:
    __annotations__ = {"peek": _rank_of_caller}


class _Descriptor:
    read = types.FunctionType.__globals__  # type: ignore[attr-defined]


@generate
def set_read_through_doc() -> Any:
    seen = set()
    for _ in range(3):
        card = yield draw()
        seen.add(card)
    return _InDoc.__doc__()  # type: ignore[misc]


@generate
def rank_read_through_annotations() -> Any:
    counts: dict[int, int] = {}
    card = yield draw()
    counts[card.rank] = 1
    return _InAnnotations.__annotations__["peek"]()


@generate
def set_read_through_descriptor() -> Any:
    seen = set()
    for _ in range(3):
        card = yield draw()
        seen.add(card)
    return _Descriptor.read.__get__(_nothing)["_set_of_caller"]()


@generate
def dict_read_through_doc() -> Any:
    seen: dict[int, int] = {}
    for _ in range(3):
        card = yield draw()
        seen[card] = 1
    return _InDoc.__doc__()  # type: ignore[misc]


@pytest.mark.parametrize("make, deck", [
    (set_read_through_doc, Cards([1, 9, 17, 25])),
    (set_read_through_descriptor, Cards([1, 9, 17, 25])),
    (dict_read_through_doc, Cards([1, 9, 17, 25])),
    (rank_read_through_annotations, Cards([Card(2, "S"), Card(3, "S"), Card(3, "H")])),
])
def test_a_frame_reader_in_a_class_is_found(make: Any, deck: Cards[Any]) -> None:
    spec = make()
    truth = brute_force(spec, deck)
    assert chances(spec, deck) == truth
    assert chances(spec, deck, symmetric=False) == truth


# draw_many(n) mapped by a function that cannot see a renaming of the cards it is handed.


def _distinct_ranks(cards: Any) -> int:
    return len({card.rank for card in cards})


def _first_two_pair(cards: Any) -> bool:
    first, second, *rest = cards
    return first.rank == second.rank and len(rest) == len(cards) - 2


def _ends_match(cards: Any) -> bool:
    return cards[0].rank == cards[-1].rank and len(cards[1:]) == 2


def _sorted_ranks(cards: Any) -> tuple[int, ...]:
    return tuple(sorted(card.rank for card in cards))


def _has_a_two(cards: Any) -> bool:
    return any(card.rank == 2 for card in cards)


def _set_compared(cards: Any) -> bool:
    return {card.rank for card in cards} == {2, 3}


def _smallest(cards: Any) -> int:
    return int(min({card.rank for card in cards}))


def _ranks_by_default(cards: Any, peek: Any = _rank_of_caller) -> int:
    return len({card.rank for card in cards}) + peek()


MAPPED_BLIND = {"distinct": _distinct_ranks, "pair": _first_two_pair, "ends": _ends_match}
MAPPED_NOT = {"sorted": _sorted_ranks, "a two": _has_a_two, "set ==": _set_compared, "min": _smallest}


@pytest.mark.parametrize("name", [*MAPPED_BLIND, *MAPPED_NOT])
def test_mapped_draw_many_equals_brute_force(name: str) -> None:
    func = {**MAPPED_BLIND, **MAPPED_NOT}[name]
    spec = drawdsl.draw_many(3).map(func)
    _evaluations(spec, SMALL)
    _evaluations(spec.map(str).where(lambda text: text != "0"), SMALL)
    if MODELLED:
        assert explain(spec, SMALL).symmetric is (name in MAPPED_BLIND)


def test_a_filter_on_the_cards_is_not_trusted() -> None:
    spec = drawdsl.draw_many(3).where(lambda cards: cards[0].rank == 2).map(_distinct_ranks)
    _evaluations(spec, SMALL)


def test_a_mapped_function_reaching_a_frame_is_refused() -> None:
    from drawdsl.renaming_blind import blind_map

    assert blind_map(_distinct_ranks) is not None
    assert blind_map(_ranks_by_default) is None


def test_distinct_ranks_of_a_five_card_hand() -> None:
    got = chances(drawdsl.draw_many(5).map(_distinct_ranks), standard_deck())
    from math import comb

    # Five distinct ranks: C(13, 5) rank sets times 4^5 suits, over C(52, 5) hands.
    assert got[5] == Fraction(comb(13, 5) * 4**5, comb(52, 5))
    assert sum(got.values()) == 1


_MAP_BODIES = [
    "len({c.rank for c in cards})",
    "len({c.suit for c in cards}) == 1",
    "cards[0].rank == cards[1].rank",
    "cards[0].rank != cards[-1].rank",
    "len(cards)",
    "max(Counter(c.rank for c in cards).values())",
    "len(set(c.suit for c in cards))",
    "sum(1 for c in cards)",
    # Not blind: evaluated right all the same.
    "any(c.rank == 3 for c in cards)",
    "sorted(Counter(c.rank for c in cards))[0]",
    "cards[0].rank == 3",
    "max(c.rank for c in cards)",
    "len({c.rank for c in cards if c.rank > 2})",
    "sorted({c.rank for c in cards})[0]",
]


@settings(max_examples=60, deadline=None)
@given(
    body=st.sampled_from(_MAP_BODIES), n=st.integers(2, 3), deck_size=st.integers(3, 6), plain=st.booleans(),
)
def test_generated_maps_equal_brute_force(body: str, n: int, deck_size: int, plain: bool) -> None:
    if plain:  # the cards themselves are the class values (a deck of ints)
        body = body.replace(".rank", "").replace(".suit", "")
    namespace: dict[str, Any] = {"Counter": Counter}
    exec(f"def view(cards):\n    return {body}\n", namespace)
    spec = drawdsl.draw_many(n).map(namespace["view"])
    deck = Cards(list(PLAIN if plain else SMALL)[:deck_size])
    assert chances(spec, deck) == brute_force(spec, deck)


# A review: the builtins module through ``len.__self__``, and frame readers in the
# functions mapped after a proven spec.


def _first_through_import(cards: Any) -> Any:
    loaded = len.__self__.__loader__.load_module("sys")  # type: ignore[attr-defined]
    found = None
    for finder in loaded.meta_path:
        found = finder.find_spec("pkgutil", None)
        if found is not None:
            break
    pkgutil = found.loader.load_module("pkgutil")  # type: ignore[union-attr]
    read = pkgutil.resolve_name("builtins.getattr")
    frame = pkgutil.resolve_name("sys._getframe")(0)
    half = "f_loc"
    return read(frame, half + "als")["cards"][0]


def _card_of_the_evaluator(value: Any) -> Any:
    frame = sys._getframe(1)
    while frame is not None:
        card = frame.f_locals.get("card")
        if type(card) is int:
            return card
        frame = frame.f_back  # type: ignore[assignment]
    return None


@generate
def two_equal() -> Any:
    first = yield draw()
    second = yield draw()
    return first == second


def test_special_names_and_later_frame_readers_are_refused() -> None:
    import warnings

    deck = Cards([1, 2, 3])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # load_module is deprecated
        spec = drawdsl.draw_many(2).map(_first_through_import)
        assert chances(spec, deck) == brute_force(spec, deck)
    counted = drawdsl.draw_many(2).map(_count_cards)
    assert explain(counted, deck).symmetric is MODELLED
    for spec in (counted.map(_card_of_the_evaluator), two_equal().map(_card_of_the_evaluator)):
        # What the reader finds is the evaluator's business; the symmetry must not be taken.
        assert not explain(spec, deck).symmetric


def _count_cards(cards: Any) -> int:
    return len(cards)


def test_the_largest_rank_count_of_five_cards_by_counter() -> None:
    spec = drawdsl.draw_many(5).map(lambda cards: max(Counter(card.rank for card in cards).values()))
    got = chances(spec, standard_deck())
    # Four of a kind: 13 ranks times 48 fifth cards, over C(52, 5) hands; three of a kind
    # or a full house: 13 * C(4, 3) * (C(12, 2) * 16 + 12 * C(4, 2)) hands.
    from math import comb

    assert got[4] == Fraction(13 * 48, comb(52, 5))
    assert got[3] == Fraction(13 * comb(4, 3) * (comb(12, 2) * 16 + 12 * comb(4, 2)), comb(52, 5))
    assert sum(got.values()) == 1
    if MODELLED:
        assert explain(spec, standard_deck()).symmetric


# A review: the code reaches its own module's dict as a value, and rebinds ``len`` while
# it runs (to ``tuple``: the order of a dict or a set; to ``min``: which card).

_REBINDS = {
    "dict": ("""
def hand():
    d = {}
    for _ in range(3):
        card = yield draw()
        d[card % 2] = d.get(card % 2, 0) + 1
    G["len"] = tuple
    n = len(d)
    del G["len"]
    return n
""", Cards([1, 2, 3, 4])),
    "set": ("""
def hand():
    s = set()
    for _ in range(3):
        card = yield draw()
        s.add(card)
        if _ == 1:
            yield draw()
    G["len"] = tuple
    n = len(s)
    del G["len"]
    return n
""", Cards([1, 9, 17, 25])),
    "symmetry": ("""
def hand():
    s = set()
    for _ in range(2):
        card = yield draw()
        s.add(card)
    G["len"] = min
    n = len(s)
    del G["len"]
    return n
""", Cards([1, 2, 3, 3, 4])),
}


@pytest.mark.parametrize("name", list(_REBINDS))
def test_a_module_rebinding_its_own_names_is_refused(name: str) -> None:
    source, deck = _REBINDS[name]
    module = types.ModuleType("rebinding")
    exec(source, module.__dict__)
    namespace = module.__dict__
    del namespace["__builtins__"]  # the function keeps the builtins it was made with
    namespace["G"] = namespace
    namespace["draw"] = draw
    spec = generate(namespace["hand"])()
    truth = brute_force(spec, deck)
    assert chances(spec, deck) == truth
    assert chances(spec, deck, symmetric=False) == truth
