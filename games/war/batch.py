"""Many games at once with NumPy: the same game as :func:`~games.war.engine.play_game`, faster.

All games of a batch advance one battle per step.  Each pile is a ring buffer in one
flat array (a head and a tail counter per pile), so a plain battle is a few
whole-array operations: read both top cards, look the pair up in a table of who
wins, write the two cards under the winner's pile.  Each game counts its own battles.
A tied game waits (its piles untouched) until the next war step, every fourth step:
the wars of the waiting games are then played together, round by round (short wars
included, under every ``short_war`` rule), and the cards on the table of every
decided war move in one gather/scatter, in the rule's order.  Waiting changes
nothing in a game, and playing the wars of four steps at once costs one set of
array calls instead of four (measured: 25,000 -> 33,000 standard games/s).  A
finished game is made inert (a rank 0 on its pile, which nobody plays) and the
arrays are compacted in bulk.

The reference engine finishes, from the position reached, the last games of a batch
(when few are left, a step costs more per game than Python does) and, under cycle
detection, games that run long: it detects the cycle exactly and replays the deal
to report where the position first repeats.  ``gather="shuffled"`` is played by the
reference engine throughout.  So every game's record equals
``play_game(hand_a, hand_b, rules)``: the tests check it game by game.

>>> import numpy as np
>>> deals = np.array([[5, 3, 2, 7, 9, 4, 6, 8], [5, 2, 3, 3, 4, 5, 2, 4]])
>>> records = play_batch(deals, Rules())
>>> [OUTCOMES[w] for w in records.winner], records.battles.tolist()
(['A', 'cycle'], [16, 9])
"""

from __future__ import annotations

import random
from collections import deque
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from games.war.engine import _run, play_game
from games.war.rules import OUTCOMES, Rules

__all__ = ["Records", "play_batch", "OUTCOMES"]

IntArray = npt.NDArray[np.int64]

_A, _B, _TIE, _CYCLE, _CAPPED = range(5)
_CODE = {name: i for i, name in enumerate(OUTCOMES)}


@dataclass
class Records:
    """Per-game records of a batch: outcome codes (indices into ``OUTCOMES``),
    battles, plays, wars, and optionally A's pile size after every battle."""

    winner: npt.NDArray[np.int8]
    battles: IntArray
    plays: IntArray
    wars: IntArray
    traces: list[npt.NDArray[np.uint16]] | None = None


def _table(top: int, deuce: bool) -> IntArray:
    """``table[x * (top + 1) + y]``: 1 if A's x beats B's y, 0 if it loses, 2 on a tie
    (3 when either is the rank 0 put on a finished game)."""
    ranks = np.arange(top + 1)
    x, y = np.meshgrid(ranks, ranks, indexing="ij")
    table = np.where(x > y, 1, 0)
    table = np.where(x == y, 2, table)
    if deuce and top != 2:
        table[2, top] = 1
        table[top, 2] = 0
    table[0, :] = table[:, 0] = 3  # rank 0 marks a finished game: nobody plays
    return table.ravel().astype(np.int64)


def _reference(deal: npt.NDArray[Any], rules: Rules, top: int, seed: int, trace: bool
               ) -> tuple[int, int, int, int, npt.NDArray[np.uint16] | None]:
    cards = deal.tolist()
    game = play_game(cards[0::2], cards[1::2], rules, seed=seed, top=top, trace=trace)
    tr = np.array(game.trace, dtype=np.uint16) if game.trace is not None else None
    return _CODE[game.winner], game.battles, game.plays, game.wars, tr


class _Batch:
    """The running games of a batch: ring buffers, heads, tails and counters.

    A finished game is made inert rather than removed at once (removing costs a copy
    of every array): a 0 is put on top of its pile, which the comparison tables
    send to "nobody plays", and its counts are set to look non-empty.  The arrays
    are compacted when enough games are inert.
    """

    def __init__(self, deals: IntArray, rules: Rules, top: int, trace: bool,
                 outcome: tuple[npt.NDArray[np.int8], IntArray, IntArray, IntArray]) -> None:
        games, n = deals.shape
        half = n // 2
        self.n = n
        self.rules = rules
        self.width = width = 1 << max(6, (n + 2).bit_length())  # ring size, with room to spare
        self.mask = width - 1
        self.buf = np.zeros(games * 2 * width, dtype=np.int8)
        rows = np.arange(games, dtype=np.int64)
        slots = rows[:, None] * (2 * width) + np.arange(half)[None, :]
        self.buf[slots] = deals[:, 0::2]
        self.buf[slots + width] = deals[:, 1::2]
        self.stride = top + 1
        self.battle_table = _table(top, rules.deuce_beats_ace in ("battles", "always"))
        self.war_table = _table(top, rules.deuce_beats_ace == "always")
        self.face_down = rules.face_down
        self.gid = rows.copy()
        self.base_a = rows * (2 * width)
        self.base_b = self.base_a + width
        self.ha = np.zeros(games, dtype=np.int64)
        self.hb = np.zeros(games, dtype=np.int64)
        self.ta = np.full(games, half, dtype=np.int64)
        self.tb = np.full(games, half, dtype=np.int64)
        self.extra = np.zeros(games, dtype=np.int64)  # plays beyond one per battle
        self.nwars = np.zeros(games, dtype=np.int64)
        self.live = np.ones(games, dtype=bool)
        self.inert = 0
        self.dying: list[IntArray] = []
        self.t = 0  # steps so far
        self.bt = np.zeros(games, dtype=np.int64)  # battles so far, per game
        self.advanced = np.zeros(games, dtype=bool)  # finished a battle in this step
        self.war_every = 4
        self.trace = trace
        self.winner, self.battles, self.plays, self.wars_out = outcome
        self.step_gids: list[IntArray] = []
        self.step_counts: list[npt.NDArray[np.uint16]] = []
        # Games the reference engine continues: (game, A's pile, B's pile, battles, plays, wars).
        self.pending: list[tuple[int, list[int], list[int], int, int, int]] = []

    @property
    def running(self) -> int:
        """How many games are still being played."""
        return int(self.gid.size - self.inert)

    def pile(self, i: int, player: int) -> list[int]:
        base, head, tail = (self.base_a, self.ha, self.ta) if player == 0 else (self.base_b, self.hb, self.tb)
        count = int(tail[i] - head[i])
        return self.buf[base[i] + ((head[i] + np.arange(count)) & self.mask)].tolist()  # type: ignore[no-any-return]

    def finish(self, sel: IntArray, codes: npt.ArrayLike, battles: IntArray | int) -> None:
        """Record the games at positions ``sel`` as over, and make them inert."""
        if not sel.size:
            return
        g = self.gid[sel]
        self.winner[g] = codes
        self.battles[g] = battles
        self.plays[g] = battles + self.extra[sel]
        self.wars_out[g] = self.nwars[sel]
        self.live[sel] = False
        self.dying.append(sel)

    def bury(self) -> None:
        """Make the games finished since the last call inert (after the trace saw them)."""
        for sel in self.dying:
            self.inert += sel.size
            self.buf[self.base_a[sel] + (self.ha[sel] & self.mask)] = 0
            self.ta[sel] = self.ha[sel] + 1
            self.tb[sel] = self.hb[sel] + 1
        self.dying = []

    def hand_over(self, sel: IntArray) -> None:
        """Hand the games at positions ``sel`` to the reference engine, as they stand."""
        for i in sel.tolist():
            if self.live[i]:
                self.pending.append((int(self.gid[i]), self.pile(i, 0), self.pile(i, 1),
                                     int(self.bt[i]), int(self.bt[i] + self.extra[i]), int(self.nwars[i])))
        live = sel[self.live[sel]]
        self.finish(live, -1, self.bt[live])
        self.bury()

    def compact(self) -> None:
        keep = self.live
        self.gid, self.base_a, self.base_b = self.gid[keep], self.base_a[keep], self.base_b[keep]
        self.ha, self.hb, self.ta, self.tb = self.ha[keep], self.hb[keep], self.ta[keep], self.tb[keep]
        self.extra, self.nwars = self.extra[keep], self.nwars[keep]
        self.bt = self.bt[keep]
        self.live = self.live[keep]
        self.inert = 0

    def take(self, sel: IntArray, winner: IntArray, up_a: IntArray, up_b: IntArray,
             order: tuple[IntArray, IntArray] | None) -> None:
        """The games at ``sel`` end their battle: A's cards ``0..up_a`` and B's ``0..up_b``
        (offsets from the heads) go under the winner (0 for A, 1 for B) in the rule's order;
        ``order`` gives it as (player, offset) rows for ``as_played``."""
        if not sel.size:
            return
        mask, buf = self.mask, self.buf
        ta_, tb_ = up_a + 1, up_b + 1
        total = ta_ + tb_
        width = int(total.max())
        spots = np.arange(width)[None, :]
        valid = spots < total[:, None]
        if order is None:
            a_first = (winner == 0) == (self.rules.gather == "winner_first")
            first_len = np.where(a_first, ta_, tb_)[:, None]
            from_first = spots < first_len
            player = np.where(from_first, np.where(a_first, 0, 1)[:, None], np.where(a_first, 1, 0)[:, None])
            offset = np.where(from_first, spots, spots - first_len)
        else:
            player, offset = order[0][:, :width], order[1][:, :width]
        is_a = player == 0
        src = np.where(is_a, self.base_a[sel][:, None], self.base_b[sel][:, None]) + (
            (np.where(is_a, self.ha[sel][:, None], self.hb[sel][:, None]) + offset) & mask)
        values = buf[src[valid]]
        won_a = winner == 0
        dst_base = np.where(won_a, self.base_a[sel], self.base_b[sel])
        tails = np.where(won_a, self.ta[sel], self.tb[sel])
        buf[(dst_base[:, None] + ((tails[:, None] + spots) & mask))[valid]] = values
        self.ha[sel] += ta_
        self.hb[sel] += tb_
        self.ta[sel] += np.where(won_a, total, 0)
        self.tb[sel] += np.where(won_a, 0, total)

    def wars(self, tied: IntArray) -> None:
        """Play the wars of the tied games (positions ``tied``), round by round."""
        mask, buf = self.mask, self.buf
        rules = self.rules
        short_rule = rules.short_war
        down = self.face_down
        full = down + 1
        m = tied.size
        up_a = np.zeros(m, dtype=np.int64)  # offset of each player's face-up card
        up_b = np.zeros(m, dtype=np.int64)
        extra = np.zeros(m, dtype=np.int64)
        rounds = np.zeros(m, dtype=np.int64)
        as_played = rules.gather == "as_played"
        if as_played:  # the pot, as (player, offset) in the order the cards went in
            order_p = np.zeros((m, self.n + 2), dtype=np.int64)
            order_o = np.zeros((m, self.n + 2), dtype=np.int64)
            filled = np.zeros(m, dtype=np.int64)
        cur = np.arange(m)

        settled: list[tuple[IntArray, IntArray]] = []

        def settle(local: IntArray, winner: IntArray) -> None:
            if local.size:
                settled.append((local, winner))

        def game_over(local: IntArray, a_out: npt.NDArray[np.bool_], b_out: npt.NDArray[np.bool_]) -> None:
            if not local.size:
                return
            sel = tied[local]
            self.extra[sel] += extra[local]
            self.nwars[sel] += rounds[local]
            # the cards on the table leave both piles, as in the reference engine
            self.ha[sel] += up_a[local] + 1
            self.hb[sel] += up_b[local] + 1
            self.bt[sel] += 1
            self.advanced[sel] = True
            self.finish(sel, np.where(a_out & b_out, _TIE, np.where(a_out, _B, _A)), self.bt[sel])

        while cur.size:
            sel = tied[cur]
            left_a = self.ta[sel] - self.ha[sel] - up_a[cur] - 1  # cards left after the table
            left_b = self.tb[sel] - self.hb[sel] - up_b[cur] - 1
            if short_rule in ("lose", "b_takes"):
                a_short, b_short = left_a < full, left_b < full
                short = a_short | b_short
                if short.any():
                    if short_rule == "b_takes":
                        settle(cur[short], np.ones(int(short.sum()), dtype=np.int64))
                    else:
                        game_over(cur[short], a_short[short], b_short[short])
                    keep = ~short
                    cur, left_a, left_b = cur[keep], left_a[keep], left_b[keep]
            else:
                a_out, b_out = left_a == 0, left_b == 0
                over = (a_out | b_out) if short_rule == "last_card" else (a_out & b_out)
                if over.any():
                    game_over(cur[over], a_out[over], b_out[over])
                    keep = ~over
                    cur, left_a, left_b = cur[keep], left_a[keep], left_b[keep]
            if not cur.size:
                break
            put_a = np.where(left_a > 0, np.minimum(down, left_a - 1) + 1, 0)
            put_b = np.where(left_b > 0, np.minimum(down, left_b - 1) + 1, 0)
            if as_played:
                # each player's previous face-up card and the face-down cards laid on it
                for player, up, put in ((0, up_a, put_a), (1, up_b, put_b)):
                    width = int(put.max())
                    if width:
                        j = np.arange(width)[None, :]
                        ok = j < put[:, None]
                        rows = np.broadcast_to(cur[:, None], ok.shape)[ok]
                        cols = (filled[cur][:, None] + j)[ok]
                        order_p[rows, cols] = player
                        order_o[rows, cols] = (up[cur][:, None] + j)[ok]
                        filled[cur] += put
            up_a[cur] += put_a
            up_b[cur] += put_b
            extra[cur] += np.maximum(put_a, put_b)
            rounds[cur] += 1
            sel = tied[cur]
            fa = buf[self.base_a[sel] + ((self.ha[sel] + up_a[cur]) & mask)].astype(np.int64)
            fb = buf[self.base_b[sel] + ((self.hb[sel] + up_b[cur]) & mask)].astype(np.int64)
            code = self.war_table[fa * self.stride + fb]
            decided = code != 2
            settle(cur[decided], 1 - code[decided])
            cur = cur[~decided]
        self._settle(tied, settled, up_a, up_b, extra, rounds,
                     (order_p, order_o, filled) if as_played else None)

    def _settle(self, tied: IntArray, settled: list[tuple[IntArray, IntArray]], up_a: IntArray,
                up_b: IntArray, extra: IntArray, rounds: IntArray,
                pot: tuple[IntArray, IntArray, IntArray] | None) -> None:
        """One move of the table for every war of this step that was decided."""
        if not settled:
            return
        local = np.concatenate([loc for loc, _ in settled])
        winner = np.concatenate([w for _, w in settled])
        sel = tied[local]
        self.extra[sel] += extra[local]
        self.nwars[sel] += rounds[local]
        self.bt[sel] += 1
        self.advanced[sel] = True
        order = None
        if pot is not None:
            order_p, order_o, filled = pot
            # the deciding pair goes last, A's card first
            k = filled[local]
            order_p[local, k] = 0
            order_o[local, k] = up_a[local]
            order_p[local, k + 1] = 1
            order_o[local, k + 1] = up_b[local]
            order = (order_p[local], order_o[local])
        self.take(sel, winner, up_a[local], up_b[local], order)

    def step(self) -> None:
        """One battle in every running game; record the games that end."""
        mask, buf = self.mask, self.buf
        ca = buf[self.base_a + (self.ha & mask)].astype(np.int64)
        cb = buf[self.base_b + (self.hb & mask)].astype(np.int64)
        code = self.battle_table[ca * self.stride + cb]
        a_won = code == 1
        b_won = code == 0
        # Plain battles: both cards go under the winner.  Tied and inert games write
        # into free slots without moving a tail, which changes nothing.
        gather = self.rules.gather
        if gather == "as_played":
            first, second = ca, cb
        elif gather == "winner_first":
            first, second = np.where(a_won, ca, cb), np.where(a_won, cb, ca)
        else:
            first, second = np.where(a_won, cb, ca), np.where(a_won, ca, cb)
        dst_base = np.where(a_won, self.base_a, self.base_b)
        tail = np.where(a_won, self.ta, self.tb)
        buf[dst_base + (tail & mask)] = first
        buf[dst_base + ((tail + 1) & mask)] = second
        self.ta += a_won * 2
        self.tb += b_won * 2
        plain = a_won | b_won
        self.ha += plain
        self.hb += plain
        self.bt += plain
        self.advanced = plain
        # A tied game waits (its piles do not move) until the next war step: playing the
        # wars of several steps together costs one set of array calls instead of several.
        if self.t % self.war_every == 0:
            tied = np.flatnonzero(code == 2)
            if tied.size:
                self.wars(tied)
        self.t += 1
        over = np.flatnonzero((self.ta == self.ha) | (self.tb == self.hb))
        if over.size:
            over = over[self.live[over]]  # not those a war just ended
            self.finish(over, np.where(self.ta[over] == self.ha[over], _B, _A), self.bt[over])
        cap = self.rules.max_battles
        if cap is not None and self.t >= cap and not self.rules.detect_cycles:
            at_cap = np.flatnonzero(self.live & (self.bt >= cap))
            if at_cap.size:
                self.finish(at_cap, _CAPPED, self.bt[at_cap])
        if self.trace:
            played = self.advanced
            self.step_gids.append(self.gid[played])
            self.step_counts.append((self.ta - self.ha)[played].astype(np.uint16))
        self.bury()
        if self.inert * 4 > self.gid.size:
            self.compact()


def play_batch(
    deals: npt.ArrayLike,
    rules: Rules,
    *,
    top: int | None = None,
    trace: bool = False,
    seeds: npt.ArrayLike | None = None,
    handoff: int | None = None,
) -> Records:
    """Play every deal (one shuffled deck per row; A gets the even positions).

    ``seeds`` (one per game) are only used by ``gather="shuffled"``.  ``handoff``:
    when fewer games than that are still running, the reference engine finishes
    them (default 16: below that a step costs more per game than the reference engine).
    """
    deals = np.asarray(deals, dtype=np.int64)
    if deals.ndim != 2 or deals.shape[1] % 2:
        raise ValueError(
            f"play_batch: deals must be a 2-d array with an even number of columns, got {deals.shape}"
        )
    games, n = deals.shape
    if top is None:
        top = int(deals.max()) if deals.size else 2
    if top > 127 or n > 60_000:
        raise ValueError(f"play_batch: ranks up to 127 and up to 60,000 cards; got top {top}, {n} cards")
    seed_list = [0] * games if seeds is None else [int(s) for s in np.asarray(seeds).ravel()]
    winner = np.full(games, -1, dtype=np.int8)
    battles = np.zeros(games, dtype=np.int64)
    plays = np.zeros(games, dtype=np.int64)
    wars = np.zeros(games, dtype=np.int64)
    traces: list[npt.NDArray[np.uint16]] | None = [np.zeros(0, np.uint16)] * games if trace else None
    if not rules.deterministic or games == 0 or n == 0:
        for g in range(games):
            w, b, p, wr, tr = _reference(deals[g], rules, top, seed_list[g], trace)
            winner[g], battles[g], plays[g], wars[g] = w, b, p, wr
            if traces is not None and tr is not None:
                traces[g] = tr
        return Records(winner, battles, plays, wars, traces)

    batch = _Batch(deals, rules, top, trace, (winner, battles, plays, wars))
    hand_limit = 16 if handoff is None else handoff
    # With cycle detection, long games go to the reference engine, which recognises
    # endless ones exactly (and decides between "cycle" and "capped" at a cap).
    long_limit = None
    if rules.detect_cycles:
        long_limit = max(2000, 40 * n)
        if rules.max_battles is not None:
            long_limit = min(long_limit, rules.max_battles)
    while batch.running:
        if batch.running < hand_limit or (long_limit is not None and batch.t >= long_limit):
            batch.hand_over(np.flatnonzero(batch.live))
            break
        batch.step()

    continued: dict[int, list[int]] = {}
    replayed: set[int] = set()
    for g, a_cards, b_cards, t0, p0, w0 in batch.pending:
        rest: list[int] | None = [] if trace else None
        outcome, b, p, wr = _run(deque(a_cards), deque(b_cards), rules, top, random.Random(seed_list[g]),
                                 battles=t0, plays=p0, wars=w0, trace=rest)
        if outcome == "cycle" or (outcome == "capped" and rules.detect_cycles):
            # replay the deal to report where the position first repeats
            cards = deals[g].tolist()
            game = play_game(cards[0::2], cards[1::2], rules, top=top, trace=trace)
            outcome, b, p, wr = game.winner, game.battles, game.plays, game.wars
            rest = None
            replayed.add(g)
            if traces is not None and game.trace is not None:
                traces[g] = np.array(game.trace, dtype=np.uint16)
        winner[g], battles[g], plays[g], wars[g] = _CODE[outcome], b, p, wr
        if rest is not None:
            continued[g] = rest
    if traces is not None:
        _join_traces(traces, batch.step_gids, batch.step_counts, continued, replayed)
    return Records(winner, battles, plays, wars, traces)


def _join_traces(
    traces: list[npt.NDArray[np.uint16]],
    step_gids: list[IntArray],
    step_counts: list[npt.NDArray[np.uint16]],
    continued: dict[int, list[int]],
    replayed: set[int],
) -> None:
    """Each game's trace: its steps in the batch, then the reference engine's continuation."""
    if not step_gids:
        for g, rest in continued.items():
            traces[g] = np.array(rest, dtype=np.uint16)
        return
    gids = np.concatenate(step_gids)
    counts = np.concatenate(step_counts)
    order = np.argsort(gids, kind="stable")
    gids, counts = gids[order], counts[order]
    bounds = np.searchsorted(gids, np.arange(len(traces) + 1))
    for g in range(len(traces)):
        if g in replayed:
            continue  # replayed in full by the reference engine
        head = counts[bounds[g]:bounds[g + 1]]
        tail = continued.get(g)
        traces[g] = head if tail is None else np.concatenate([head, np.array(tail, dtype=np.uint16)])
