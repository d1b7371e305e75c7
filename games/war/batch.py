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


def _table(top: int, deuce: bool, stride: int) -> npt.NDArray[np.int8]:
    """``table[x * stride + y]``: 1 if A's x beats B's y, 0 if it loses, 2 on a tie
    (3 when either is the rank 0 put on a finished game)."""
    ranks = np.arange(stride)
    x, y = np.meshgrid(ranks, ranks, indexing="ij")
    table = np.where(x > y, 1, 0)
    table = np.where(x == y, 2, table)
    if deuce and top != 2:
        table[2, top] = 1
        table[top, 2] = 0
    table[0, :] = table[:, 0] = 3  # rank 0 marks a finished game: nobody plays
    return table.ravel().astype(np.int8)


def _reference(deal: npt.NDArray[Any], rules: Rules, top: int, seed: int, trace: bool
               ) -> tuple[int, int, int, int, npt.NDArray[np.uint16] | None]:
    cards = deal.tolist()
    game = play_game(cards[0::2], cards[1::2], rules, seed=seed, top=top, trace=trace)
    tr = np.array(game.trace, dtype=np.uint16) if game.trace is not None else None
    return _CODE[game.winner], game.battles, game.plays, game.wars, tr


class _Batch:
    """The running games of a batch: ring buffers, heads, tails and counters.

    Each pile is a ring of ``width`` bytes (64 for a 52-card deck: one cache line) in
    one flat array, with a head and a tail counter; both only move forward.

    A finished game is made inert rather than removed at once (removing costs a copy
    of every array): a 0 is put on top of its pile, which the comparison tables
    send to "nobody plays", and its counts are set to look non-empty.  The arrays
    are compacted when enough games are inert.
    """

    def __init__(self, deals: IntArray, rules: Rules, top: int, trace: bool,
                 outcome: tuple[npt.NDArray[np.int8], IntArray, IntArray, IntArray],
                 stop_at: int | None, watch: bool, runs_below: int = 2000, span: int = 8) -> None:
        games, n = deals.shape
        half = n // 2
        self.n = n
        self.rules = rules
        self.width = width = 1 << max(6, (n + 2).bit_length())  # ring size, with room to spare
        self.mask = width - 1
        self.trash = games * 2 * width  # one slot past the piles, for writes that do not count
        self.buf = np.zeros(self.trash + 1, dtype=np.uint8)
        rows = np.arange(games, dtype=np.int64)
        self.base_a = rows * (2 * width)
        self.base_b = self.base_a + width
        slots = self.base_a[:, None] + np.arange(half)[None, :]
        self.buf[slots] = deals[:, 0::2]
        self.buf[slots + width] = deals[:, 1::2]
        # Ranks below 16: a pair of cards is one byte, x << 4 | y, and one table look-up.
        self.shift = 4 if top < 16 else 0
        self.stride = 16 if top < 16 else top + 1
        self.battle_table = _table(top, rules.deuce_beats_ace in ("battles", "always"), self.stride)
        self.war_table = _table(top, rules.deuce_beats_ace == "always", self.stride)
        self.face_down = rules.face_down
        self.gid = rows.copy()
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
        self.runs_below = runs_below  # with at most that many games, a step plays runs of battles
        self.offs = np.arange(span)[None, :]
        self.stop_at = stop_at
        self.jumped = False  # some game skipped battles (so a battle count may exceed t)
        self.trace = trace
        self.winner, self.battles, self.plays, self.wars_out = outcome
        self.step_gids: list[IntArray] = []
        self.step_counts: list[npt.NDArray[np.uint16]] = []
        # Games the reference engine continues: (game, A's pile, B's pile, battles, plays, wars).
        self.pending: list[tuple[int, list[int], list[int], int, int, int]] = []
        # Repeated positions: a snapshot of every game, compared with the game at every
        # step, renewed after 128 steps, eight times, then after 256 steps eight times, and
        # so on (as in Brent's algorithm the windows grow, so every period is caught in
        # the end; they grow slowly because periods are short: at most 104 battles in
        # 2,048 rblog deals, and a cycle is usually entered after a few hundred battles).
        self.watch = watch
        self.next_snapshot = self.interval = 128
        self.snapshots = 0
        self.snapshot: dict[str, npt.NDArray[Any]] | None = None

    @property
    def running(self) -> int:
        """How many games are still being played."""
        return int(self.gid.size - self.inert)

    def pile(self, i: int, player: int) -> list[int]:
        base, head, tail = (self.base_a, self.ha, self.ta) if player == 0 else (self.base_b, self.hb, self.tb)
        count = int(tail[i] - head[i])
        return self.buf[base[i] + ((head[i] + np.arange(count)) & self.mask)].tolist()  # type: ignore[no-any-return]

    def position(self, sel: IntArray) -> npt.NDArray[np.uint8]:
        """The games at ``sel`` as rows of cards: A's pile, then B's (tops first)."""
        j = np.arange(self.n)[None, :]
        la = (self.ta[sel] - self.ha[sel])[:, None]
        a_spot = self.base_a[sel][:, None] + ((self.ha[sel][:, None] + j) & self.mask)
        b_spot = self.base_b[sel][:, None] + ((self.hb[sel][:, None] + j - la) & self.mask)
        cards: npt.NDArray[np.uint8] = self.buf[np.where(j < la, a_spot, b_spot)]
        return cards

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
        if self.snapshot is not None:
            self.snapshot = {key: value[keep] for key, value in self.snapshot.items()}
        self.inert = 0

    def take_snapshot(self, pair: npt.NDArray[Any]) -> None:
        everyone = np.arange(self.gid.size)
        self.snapshot = {
            "pair": pair.copy(), "count": self.ta - self.ha, "battles": self.bt.copy(),
            "extra": self.extra.copy(), "wars": self.nwars.copy(), "cards": self.position(everyone),
        }

    def repeats(self, pair: npt.NDArray[Any]) -> bool:
        """Find the games whose position is the one of the snapshot, some battles later:
        they never end.  Under cycle detection the reference engine takes them (to
        report the first repeat); under a cap, whole periods are skipped at once.
        True if a game was handed over (its piles changed)."""
        snap = self.snapshot
        assert snap is not None
        cand = np.flatnonzero((pair == snap["pair"]) & (self.ta - self.ha == snap["count"])
                              & (self.bt != snap["battles"]))
        if not cand.size:
            return False
        cand = cand[(self.position(cand) == snap["cards"][cand]).all(axis=1)]
        if not cand.size:
            return False
        if self.rules.detect_cycles:
            self.hand_over(cand)
            return True
        assert self.stop_at is not None
        period = self.bt[cand] - snap["battles"][cand]
        skip = (self.stop_at - 1 - self.bt[cand]) // period  # at least one battle is left to play
        self.extra[cand] += skip * (self.extra[cand] - snap["extra"][cand])
        self.nwars[cand] += skip * (self.nwars[cand] - snap["wars"][cand])
        self.bt[cand] += skip * period
        self.jumped = True
        return False

    def take(self, sel: IntArray, winner: IntArray, up_a: IntArray, up_b: IntArray,
             order: tuple[IntArray, IntArray] | None, rounds: IntArray) -> None:
        """The games at ``sel`` end their battle: A's cards ``0..up_a`` and B's ``0..up_b``
        (offsets from the heads) go under the winner (0 for A, 1 for B) in the rule's order;
        ``order`` gives it as (player, offset) rows for ``as_played`` when a player laid
        fewer cards than a full war round (otherwise the order is a formula)."""
        if not sel.size:
            return
        mask, buf = self.mask, self.buf
        ta_, tb_ = up_a + 1, up_b + 1
        total = ta_ + tb_
        width = int(total.max())
        spots = np.arange(width)[None, :]
        valid = spots < total[:, None]
        if order is None and self.rules.gather == "as_played":
            # every round: A's face-up card and the cards laid on it, then B's; last, the
            # deciding pair, A's card first
            full = self.face_down + 1
            pot = (2 * full * rounds)[:, None]
            i, w = np.divmod(spots, 2 * full)
            b_half = w >= full
            offset = i * full + w - full * b_half
            last = spots >= pot
            player: IntArray = np.where(last, spots - pot, b_half)
            offset = np.where(last, (full * rounds)[:, None], offset)
        elif order is None:
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

    def compare(self, table: npt.NDArray[np.int8], fa: npt.NDArray[np.uint8], fb: npt.NDArray[np.uint8]
                ) -> tuple[npt.NDArray[Any], npt.NDArray[np.int8]]:
        """The pair of cards as one number, and who wins it (see :func:`_table`)."""
        if self.shift:
            pair: npt.NDArray[Any] = (fa << self.shift) | fb
        else:
            pair = fa.astype(np.int64) * self.stride + fb
        return pair, table[pair]

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
        # the pot, as (player, offset) in the order the cards went in, when it is not a
        # formula (only under "last_card" and "available" can a round be short)
        as_played = rules.gather == "as_played" and short_rule in ("last_card", "available")
        if as_played:
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
            fa = buf[self.base_a[sel] + ((self.ha[sel] + up_a[cur]) & mask)]
            fb = buf[self.base_b[sel] + ((self.hb[sel] + up_b[cur]) & mask)]
            _, code = self.compare(self.war_table, fa, fb)
            decided = code != 2
            settle(cur[decided], 1 - code[decided].astype(np.int64))
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
        self.take(sel, winner, up_a[local], up_b[local], order, rounds[local])

    def tops(self) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint8]]:
        """Every game's two top cards."""
        mask, buf = self.mask, self.buf
        return buf[self.base_a + (self.ha & mask)], buf[self.base_b + (self.hb & mask)]

    def step(self) -> None:
        """One battle in every running game (or a run of them, when few games are left);
        record the games that end."""
        ca, cb = self.tops()
        pair, code = self.compare(self.battle_table, ca, cb)
        if self.watch:
            if self.t == self.next_snapshot:
                self.take_snapshot(pair)
                self.snapshots += 1
                if self.snapshots % 8 == 0:
                    self.interval *= 2
                self.next_snapshot += self.interval
            elif self.snapshot is not None and self.repeats(pair):
                ca, cb = self.tops()  # games were handed over
                pair, code = self.compare(self.battle_table, ca, cb)
        if self.gid.size <= self.runs_below:
            self.runs()
        else:
            self.battles_once(ca, cb, code)
        self.t += 1
        over = np.flatnonzero((self.ta == self.ha) | (self.tb == self.hb))
        if over.size:
            over = over[self.live[over]]  # not those a war just ended
            self.finish(over, np.where(self.ta[over] == self.ha[over], _B, _A), self.bt[over])
        stop = self.stop_at
        if stop is not None and (self.t >= stop or self.jumped or self.gid.size <= self.runs_below):
            stopped = np.flatnonzero(self.live & (self.bt >= stop))
            if stopped.size:
                if self.rules.detect_cycles:
                    self.hand_over(stopped)  # the reference engine decides: a cycle, or capped
                else:
                    self.finish(stopped, _CAPPED, self.bt[stopped])
        self.bury()
        if self.inert * 4 > self.gid.size:
            self.compact()

    def battles_once(self, ca: npt.NDArray[np.uint8], cb: npt.NDArray[np.uint8],
                     code: npt.NDArray[np.int8]) -> None:
        """One plain battle in every game (``ca``, ``cb``: the top cards, ``code``: who
        wins), and on war steps the wars of the tied games."""
        mask, buf = self.mask, self.buf
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
        tail += 1
        buf[dst_base + (tail & mask)] = second
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
        if self.trace:
            played = self.advanced
            self.step_gids.append(self.gid[played])
            self.step_counts.append((self.ta - self.ha)[played].astype(np.uint16))

    def runs(self) -> None:
        """Up to ``span - 1`` plain battles in every game, then the wars of the tied games.

        A run of plain battles only reads cards that were in the piles when it began (at
        most the shorter pile) and only writes under the tails, so all its battles can
        be read, decided and written at once.  With few games a step costs more in calls
        than in work, and a run makes one step do the work of several; with many, the
        battles a run reads but does not play cost more than they save (measured).
        """
        mask, buf, offs = self.mask, self.buf, self.offs
        ha, hb, ta, tb = self.ha, self.hb, self.ta, self.tb
        la = ta - ha
        limit = np.minimum(la, tb - hb)
        if self.stop_at is not None:
            np.minimum(limit, self.stop_at - self.bt, out=limit)
        ca = buf[self.base_a[:, None] + ((ha[:, None] + offs) & mask)]
        cb = buf[self.base_b[:, None] + ((hb[:, None] + offs) & mask)]
        _, code = self.compare(self.battle_table, ca, cb)
        stop = code >= 2  # a tie, or a finished game
        stop |= offs >= limit[:, None]
        stop[:, -1] = True
        run = stop.argmax(axis=1)  # the plain battles of each game's run
        played = offs < run[:, None]
        a_won = (code == 1) & played
        wins_a = np.cumsum(a_won, axis=1)  # A's wins so far in the run, this battle included
        before_a = wins_a - a_won
        # the two cards of a battle go under the winner, after the pairs it won earlier
        spot = np.where(a_won, ta[:, None] + 2 * before_a, tb[:, None] + 2 * (offs - before_a))
        base = np.where(a_won, self.base_a[:, None], self.base_b[:, None])
        gather = self.rules.gather
        if gather == "as_played":
            first, second = ca, cb
        elif gather == "winner_first":
            first, second = np.where(a_won, ca, cb), np.where(a_won, cb, ca)
        else:
            first, second = np.where(a_won, cb, ca), np.where(a_won, ca, cb)
        buf[np.where(played, base + (spot & mask), self.trash)] = first
        buf[np.where(played, base + ((spot + 1) & mask), self.trash)] = second
        total_a = wins_a[:, -1]
        ha += run
        hb += run
        ta += 2 * total_a
        tb += 2 * (run - total_a)
        self.bt += run
        if self.trace:
            counts = la[:, None] - 1 - offs + 2 * wins_a
            self.step_gids.append(np.broadcast_to(self.gid[:, None], played.shape)[played])
            self.step_counts.append(counts[played].astype(np.uint16))
        tie = np.take_along_axis(code, run[:, None], axis=1)[:, 0] == 2
        tied = np.flatnonzero(tie & (run < limit))
        if tied.size:
            self.advanced = np.zeros(self.gid.size, dtype=bool)
            self.wars(tied)
            if self.trace:
                done = self.advanced
                self.step_gids.append(self.gid[done])
                self.step_counts.append((self.ta - self.ha)[done].astype(np.uint16))


def play_batch(
    deals: npt.ArrayLike,
    rules: Rules,
    *,
    top: int | None = None,
    trace: bool = False,
    seeds: npt.ArrayLike | None = None,
    handoff: int | None = None,
    runs_below: int = 2000,
) -> Records:
    """Play every deal (one shuffled deck per row; A gets the even positions).

    ``seeds`` (one per game) are only used by ``gather="shuffled"``.  ``handoff``:
    when fewer games than that are still running, the reference engine finishes
    them (default 16: below that a step costs more per game than the reference engine).
    ``runs_below``: when at most that many games are in the arrays, a step plays a run
    of battles in each game instead of one (see ``_Batch.runs``; for tuning and tests).
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

    # With cycle detection, games that repeat a position or run long go to the reference
    # engine, which reports where an endless game first repeats (and decides between
    # "cycle" and "capped" at a cap).  Under a cap alone, an endless game skips whole
    # periods (not with traces: they would have to be repeated).
    stop_at = rules.max_battles
    if rules.detect_cycles:
        stop_at = max(2000, 40 * n) if stop_at is None else min(stop_at, max(2000, 40 * n))
    watch = not rules.detect_cycles and not trace
    batch = _Batch(deals, rules, top, trace, (winner, battles, plays, wars), stop_at, watch, runs_below)
    hand_limit = 16 if handoff is None else handoff
    while batch.running:
        if batch.running < hand_limit:
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
