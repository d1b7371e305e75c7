"""Generated adversarial specs: every automatic reduction still gives the brute-force answer.

Each leaf (tests/adversarial.py) is built to trip a reduction that trusted too much:
cards hidden where the renaming cannot see them (a str, a dataclass, a ``Cards``),
order comparisons, comparisons with a named card, specs finishing with a card, values
equal in Python but of different types (1, True, 1.0; 0, False, 0.0, -0.0) whose
futures differ, and the same in ``@generate`` specs.  Hypothesis composes them with
every combinator, and the evaluator (proving its reductions at once, see
tests/eager.py) must agree with brute force and with plain evaluation.
"""

from __future__ import annotations

from typing import Any

from adversarial import (
    Hider,
    Named,
    Ordered,
    Twins,
    finish_with_card,
    gen_dict,
    gen_in_str,
    gen_keeps,
    gen_named,
    gen_ordered,
    gen_twins,
)
from eager import eager_proofs
from hypothesis import given, settings
from hypothesis import strategies as st
from oracle import brute_force
from strategies import ALPHABET, _extend, decks, leaves

from drawdsl import Cards, Spec, chances, loop

twin_sets = st.sampled_from([(1, True), (1, True, 1.0), (0, False), (0.0, -0.0), (0, False, 0.0)])

adversarial_leaves: st.SearchStrategy[Spec[Any]] = st.one_of(
    st.builds(lambda kind, n: (lambda h: loop(h.start(), h))(Hider(kind, n)),
              st.sampled_from(Hider.KINDS), st.integers(1, 3)),
    st.sampled_from(["<", ">", "<="]).map(lambda op: loop(None, Ordered(op))),
    st.sampled_from(ALPHABET).map(lambda name: loop(None, Named(name))),
    st.just(loop(None, finish_with_card)),
    twin_sets.map(lambda values: loop(None, Twins(values))),
    st.sampled_from(ALPHABET).map(gen_named),
    st.just(gen_ordered()),
    st.just(gen_keeps()),
    st.integers(1, 3).map(gen_in_str),
    twin_sets.map(gen_twins),
    st.builds(gen_dict, st.integers(0, 4), st.sampled_from(ALPHABET)),
)

adversarial_specs: st.SearchStrategy[Spec[Any]] = st.recursive(
    st.one_of(adversarial_leaves, adversarial_leaves, leaves), _extend, max_leaves=4
)


@settings(max_examples=150)
@given(adversarial_specs, decks)
def test_reductions_agree_with_brute_force_on_adversarial_specs(spec: Spec[Any], deck: Cards[str]) -> None:
    with eager_proofs():
        reduced = chances(spec, deck)
    assert reduced == brute_force(spec, deck)
    assert reduced == chances(spec, deck, merge=False)
    assert chances(spec, deck) == reduced  # the default (proofs only past ESCALATE_AT states)
