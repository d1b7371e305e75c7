"""The witness interpreter: find one concrete deal that reaches a wanted outcome.

The search walks the spec depth first, card by card, and remembers the states
(remaining deck, pending discards, spec) from which nothing wanted can be reached,
so equal states met again along other paths are not explored twice.  When it
returns None, no deal at all reaches a wanted outcome: the search was exhaustive.
Over a deck, when :func:`~drawdsl.reductions.prove_symmetry` shows that the spec
cannot see a renaming of the cards, a dead state also stands for every state that
differs from it by a renaming of the cards its spec does not hold (see
:func:`witness`), so a whole class of dead states is explored once.

>>> from drawdsl import Cards, draw_many
>>> found = witness(draw_many(2), Cards("aab"), lambda cards: cards[1] == "b")
>>> found
Witness(deal=('a', 'b'), value=('a', 'b'), probability=Fraction(1, 3))
>>> witness(draw_many(2), Cards("aab"), lambda cards: cards == ("b", "b")) is None
True
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Generic, TypeVar

from drawdsl.cards import Cards
from drawdsl.errors import StateLimitExceeded
from drawdsl.exact import DEFAULT_MAX_STATES, _canonical, _check_limit, _Layout
from drawdsl.reductions import CardIndex, StateGraph, head_support, proof_budget, prove_symmetry
from drawdsl.renaming_blind import forget_sets
from drawdsl.sources import Weighted
from drawdsl.spec import Spec, _Any, _Done, _Draw, _spec_or_raise, reads_rest, whnf

__all__ = ["Witness", "witness"]

V = TypeVar("V", bound=Hashable)
_INF = float("inf")


@dataclass(frozen=True)
class Witness(Generic[V]):
    """A deal reaching a wanted outcome: ``play(spec, deal) == value``.

    ``deal`` lists every card the spec reads, in order, including the cards it
    discards unseen (any cards left in the deck serve for those).  ``probability``
    is the chance that a random deal starts with exactly the cards this path *looked
    at* (the discarded positions may hold anything).
    """

    deal: tuple[Any, ...]
    value: V
    probability: Fraction


def _always(value: Any) -> bool:
    return True


#: Dead states remembered before the search first tries to prove the renaming symmetry
#: (an easy search finds its deal sooner, and pays for no proof).
PROVE_AT = 1_000
#: The fewest calls of the spec a proof may spend (a proof before the search, or over
#: a small search, still explores small state graphs).
_LEAST_BUDGET = 1_000


@dataclass
class _Stats:
    """What one search did (for tests and measurements): the states it entered, the
    dead states it remembered, and the symmetry it used (``proof``: why not, if not)."""

    entered: int = 0
    dead: int = 0
    symmetric: bool = False
    proof: str | None = "not tried"


class _Renamings:
    """Dead-state keys up to the renamings a proof showed the spec cannot see.

    A renaming that fixes the cards a head visibly holds (its *pinned* cards,
    :func:`~drawdsl.reductions.head_support`) leaves the head as it is, so it maps a
    state ``(deck, discards, head)`` to ``(renamed deck, discards, head)``; under a
    proven symmetry both have renamed futures and equal values, so one is dead exactly
    when the other is.  The key keeps the deck's representative
    (:func:`~drawdsl.exact._canonical`): the pinned cards' counts as they are, the free
    cards' counts sorted.
    """

    __slots__ = ("index", "size", "layouts")

    def __init__(self, cards: tuple[Any, ...]) -> None:
        self.index = CardIndex(cards)
        self.size = len(cards)
        self.layouts: dict[Spec[Any], _Layout] = {}

    def layout(self, head: Spec[Any]) -> _Layout:
        found = self.layouts.get(head)
        if found is None:
            found = self.layouts[head] = _Layout(tuple(sorted(head_support(head, self.index))), self.size)
        return found

    def key(self, key: tuple[Any, ...]) -> tuple[Any, ...]:
        counts, anys, head = key
        return (_canonical(counts, self.layout(head).free), anys, head)


def witness(
    spec: Spec[V],
    source: Cards[Any] | Weighted[Any],
    wanted: Callable[[V], bool] | None = None,
    *,
    max_states: int = DEFAULT_MAX_STATES,
    symmetric: bool = True,
) -> Witness[V] | None:
    """A concrete deal on which ``spec`` finishes with a value satisfying ``wanted``, or None.

    ``wanted=None`` accepts any value (the spec just must not fail).  None means a
    proof: no deal reaches such a value.  ``max_states`` bounds the remembered states.

    Over a deck (:class:`~drawdsl.Cards`), once the search has remembered ``PROVE_AT``
    (1,000) dead states, or half of ``max_states`` if that is fewer, it tries to prove
    that the spec cannot see a renaming of the cards
    (:func:`~drawdsl.reductions.prove_symmetry`), spending at most a quarter of the
    calls of the spec made so far (never more than
    :func:`~drawdsl.reductions.proof_budget` of ``max_states``), and tries again each
    time the dead states double.  When it holds, a dead state stands for every state
    that differs from it by a renaming of the cards its spec does not hold, and of the
    cards with equal counts that a state could draw and its spec does not hold, only the
    first is tried.  Only dead branches are skipped, so the deal found is the same;
    ``symmetric=False`` turns this off (for testing).

    >>> from drawdsl import Cards, draw_where
    >>> witness(draw_where(lambda c: c == "x"), Cards("ab")) is None
    True
    """
    forget_sets()  # (a global rebound since the last search or evaluation is looked at again)
    return _search(spec, source, wanted, max_states, symmetric, None)


def _search(
    spec: Spec[V],
    source: Cards[Any] | Weighted[Any],
    wanted: Callable[[V], bool] | None,
    max_states: int,
    symmetric: bool,
    prove_at: int | None,
    stats: _Stats | None = None,
) -> Witness[V] | None:
    """:func:`witness`, trying the symmetry proof once ``prove_at`` dead states are
    remembered (0: before the search; None: the default), and recording what it did
    in ``stats``."""
    if not isinstance(spec, Spec):
        raise TypeError(f"witness: spec must be a Spec, got {spec!r} ({type(spec).__name__})")
    if wanted is not None and not callable(wanted):
        raise TypeError(f"witness: wanted must be a predicate on outcomes, got {wanted!r}")
    if not isinstance(symmetric, bool):
        raise TypeError(f"witness: symmetric must be True or False, got {symmetric!r}")
    accept = wanted if wanted is not None else _always
    max_states = _check_limit("max_states", max_states)
    if prove_at is None:
        prove_at = min(PROVE_AT, max(1, max_states // 2))
    stats = stats if stats is not None else _Stats()
    if isinstance(source, Cards):
        cards = source.distinct()
        start: tuple[int, ...] = tuple(source.count(c) for c in cards)
        finite = True
        weights: tuple[int, ...] = ()
        total = len(source)
    elif isinstance(source, Weighted):
        cards = source.distinct()
        start = ()
        finite = False
        weights = tuple(source.weight(c) for c in cards)
        total = source.total
    else:
        raise TypeError(f"witness: source must be Cards or Weighted, got {source!r}")

    def settle(child: Spec[Any], counts: tuple[int, ...], anys: int) -> tuple[Spec[Any], int]:
        avail = (sum(counts) if finite else _INF) - anys
        head = whnf(child, avail)
        while type(head) is _Any:
            anys += 1
            avail -= 1
            head = whnf(head.next, avail)  # type: ignore[attr-defined]
        return head, anys

    # The proven symmetry (None until proven), and when to try the proof next.
    sym: _Renamings | None = None
    prove_next: int | None = prove_at if symmetric and finite and len(cards) > 1 else None
    most = proof_budget(max_states)
    calls = 0  # continuations the search has asked for
    graphs: list[StateGraph] = []  # made at the first proof, its rows kept for the next

    def prove() -> None:
        """Try to prove the symmetry, spending at most a quarter of the calls the search has
        made so far (the proof costs a share of the search, whether it holds or not),
        and never more than ``proof_budget(max_states)``; set ``sym`` when it holds,
        else when to try again."""
        nonlocal sym, prove_next
        budget = min(most, max(calls // 4, _LEAST_BUDGET))
        try:
            if not graphs:
                graphs.append(StateGraph(spec, cards, total, budget))
            graph = graphs[0]
            graph.budget, graph.over_budget = budget, False
            proof = prove_symmetry(spec, cards, total, graph=graph)
        except Exception:  # the spec raised: the search raises it where it is real
            stats.proof = "the spec raised an error on a state the proof explored"
            prove_next = None
            return
        stats.proof = proof.reason
        if proof.proven:
            sym = _Renamings(cards)
            stats.symmetric = True
            prove_next = None
        elif graph.over_budget and budget < most:
            # Tried again once the search has remembered twice as many dead states
            # (and made more calls); the rows explored so far are kept, so all the
            # tries together cost the calls of the last.
            prove_next = 2 * prove_next if prove_next else PROVE_AT
        else:
            prove_next = None

    def moves(counts: tuple[int, ...], head: Spec[Any]) -> Iterator[int]:
        if not finite:
            yield from range(len(weights))
            return
        # Under the symmetry, two cards the head does not hold and with equal counts
        # lead to renamed states: once the first is dead, so is the other.
        tried: set[int] = set()
        for i, c in enumerate(counts):
            if not c:
                continue
            if sym is not None and i not in sym.layout(head).pinned_set:
                if c in tried:
                    continue
                tried.add(c)
            yield i

    def found(path: list[int], discards: list[int], counts: tuple[int, ...], value: Any) -> Witness[Any]:
        # discards[j]: unseen discards so far after j seen cards; they come before card j.
        # Any card still in the deck at the end can stand in an unseen position.
        if finite:
            spare = iter([cards[i] for i, c in enumerate(counts) for _ in range(c)])
        else:
            spare = iter(cards[0] for _ in range(discards[-1]))
        deal: list[Any] = []
        before = 0
        for j, total_discards in enumerate(discards):
            deal.extend(next(spare) for _ in range(total_discards - before))
            before = total_discards
            if j < len(path):
                deal.append(cards[path[j]])
        stats.dead = len(dead)
        return Witness(tuple(deal), value, _path_probability(path))

    def _path_probability(path: list[int]) -> Fraction:
        p = Fraction(1)
        if finite:
            counts = list(start)
            left = total
            for i in path:
                p *= Fraction(counts[i], left)
                counts[i] -= 1
                left -= 1
        else:
            for i in path:
                p *= Fraction(weights[i], total)
        return p

    dead: set[tuple[Any, ...]] = set()
    head, anys = settle(spec, start, 0)
    if type(head) is _Done:
        value = head.value  # type: ignore[attr-defined]
        return found([], [anys], start, value) if accept(value) else None
    if type(head) is not _Draw or reads_rest(head):
        return None
    if prove_next == 0:
        prove()
    # A state's key; with replacement, unseen discards change nothing and are left out.
    # Frames and on_path hold the plain keys; ``dead`` holds them up to the symmetry.
    root = (start, anys if finite else 0, head)
    on_path = {root}
    # Each frame: (state key, its move iterator, discards so far); path[j] is the card
    # drawn into frame j+1.
    stack: list[tuple[tuple[Any, ...], Iterator[int], int]] = [(root, moves(start, head), anys)]
    stats.entered = 1
    path: list[int] = []
    while stack:
        key, options, anys = stack[-1]
        counts, _, head = key
        i = next(options, None)
        if i is None:
            stack.pop()
            on_path.discard(key)
            dead.add(sym.key(key) if sym is not None else key)
            if len(dead) > max_states:
                stats.dead = len(dead)
                raise StateLimitExceeded(
                    f"witness search remembered more than max_states={max_states} dead states; "
                    "map the deck to the aspect the spec looks at, or pass a larger max_states"
                )
            if prove_next is not None and len(dead) >= prove_next:
                prove()
                if sym is not None:
                    dead = {sym.key(k) for k in dead}
            if path:
                path.pop()
            continue
        k = head.k  # type: ignore[attr-defined]
        calls += 1
        child = _spec_or_raise(k(cards[i]), k, "the continuation")
        next_counts = counts[:i] + (counts[i] - 1,) + counts[i + 1:] if finite else counts
        next_head, next_anys = settle(child, next_counts, anys)
        if type(next_head) is _Done:
            value = next_head.value  # type: ignore[attr-defined]
            if accept(value):
                discards = [frame[2] for frame in stack] + [next_anys]
                return found([*path, i], discards, next_counts, value)
            continue
        if type(next_head) is not _Draw or reads_rest(next_head):
            continue  # a dead end (READ_REST only reads on and fails)
        next_key = (next_counts, next_anys if finite else 0, next_head)
        if (sym.key(next_key) if sym is not None else next_key) in dead or next_key in on_path:
            continue
        path.append(i)
        on_path.add(next_key)
        stack.append((next_key, moves(next_counts, next_head), next_anys))
        stats.entered += 1
    stats.dead = len(dead)
    return None
