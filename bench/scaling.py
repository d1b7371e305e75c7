"""Scaling rows: the War sweep on bigger decks, ours beside two hand-written references.

The reference is the strongest state-by-state method we know, a forward pass over
counts of counts packed in one integer (:func:`bench.reference.war_sweep_packed`);
the closed form (:func:`bench.reference.war_sweep_inclusion_exclusion`) is timed
beside it, since it is the strongest method of all.

Two series, r ranks x 4 suits (r = 13, 26, ..., 65) and 13 ranks x s suits
(s = 6, 8, 10; s = 4 is the first point of the other series, odd s cannot be
dealt into two equal piles).  Each point is one
fresh-interpreter run per side (time) and one more under ``tracemalloc`` (peak
memory, only when the timed run took at most ``MEMORY_RUN_MAX`` seconds).  A run
past the timeout is killed and reported as "> T s"; the larger points of that
side's series are then not run ("> T s" without a run), since they only grow.
Answers must be equal Fractions.
"""

from __future__ import annotations

from dataclasses import dataclass

from bench.cases import Impl
from bench.run import Measurement, _bytes, _progress, _run_worker, _same, _seconds, measure

__all__ = ["POINTS", "Point", "run_scaling", "scaling_markdown"]

#: A timed run at most this long also gets a tracemalloc run for its peak memory.
MEMORY_RUN_MAX = 20.0


@dataclass
class Point:
    series: str
    ranks: int
    suits: int
    ours: Measurement | None = None
    reference: Measurement | None = None
    formula: Measurement | None = None
    skipped_ours: str = ""  # why the point was not run: "timeout" or "failed"
    skipped_reference: str = ""
    skipped_formula: str = ""


POINTS: tuple[tuple[str, int, int], ...] = (
    *(("r x 4", r, 4) for r in (13, 26, 39, 52, 65)),
    # 13 x 4 is the first point of the other series; odd s cannot be dealt into two piles.
    *(("13 x s", 13, s) for s in (6, 8, 10)),
)


def _impl(side: str, ranks: int, suits: int) -> Impl:
    if side == "ours":
        return Impl(f"scaling.ours.{ranks}x{suits}", "ours", "bench.ours:war_sweep_sized", "drawdsl",
                    ("drawdsl", "games.war", "bench.ours"), warmup="bench.warmup:drawdsl_warmup",
                    args=(ranks, suits))
    if side == "formula":
        return Impl(f"scaling.formula.{ranks}x{suits}", "inclusion-exclusion",
                    "bench.reference:war_sweep_inclusion_exclusion", "reference", ("bench.reference",),
                    "formula", args=(ranks, suits))
    return Impl(f"scaling.reference.{ranks}x{suits}", "packed counts of counts",
                "bench.reference:war_sweep_packed", "reference", ("bench.reference",),
                "reference", args=(ranks, suits))


def run_scaling(timeout: float) -> list[Point]:
    """Measure every point; a side that timed out skips the rest of its series."""
    points = []
    given_up: dict[tuple[str, str], str] = {}
    for series, ranks, suits in POINTS:
        point = Point(series, ranks, suits)
        _progress(f"scaling: War sweep {ranks} x {suits}")
        for side in ("ours", "reference", "formula"):
            if (series, side) in given_up:
                setattr(point, f"skipped_{side}", given_up[series, side])
                continue
            impl = _impl(side, ranks, suits)
            m = measure(impl, repeats=1, timeout=timeout, quick=False, trace_memory=False)
            if m.best is not None and m.best <= MEMORY_RUN_MAX:
                traced = _run_worker(impl, max(timeout, 10 * m.best), memory=True)
                if "peak_bytes" in traced:
                    m.peak_bytes = int(traced["peak_bytes"])
                else:
                    m.memory_note = "not measured"
            elif m.best is not None:
                m.memory_note = "not traced (slow)"
            if m.timed_out is not None:
                given_up[series, side] = "timeout"
            elif m.error:
                given_up[series, side] = "failed"
            setattr(point, side, m)
        points.append(point)
    return points


def _time(m: Measurement | None, skipped: str, timeout: float) -> str:
    if skipped == "failed":
        return "not run (a smaller deck of this series failed)"
    if skipped or m is None:
        return f"> {timeout:g} s (not run: a smaller deck timed out)"
    if m.timed_out is not None:
        return f"> {m.timed_out:g} s"
    if m.error:
        return f"error ({m.error[:120]})"
    assert m.best is not None
    return _seconds(m.best)


def _memory(m: Measurement | None) -> str:
    if m is None:
        return "—"
    if m.peak_bytes is not None:
        return _bytes(m.peak_bytes)
    return m.memory_note or "—"


def _ratio(p: Point, other: Measurement | None, skipped_other: str, timeout: float) -> str:
    """ours / other at a point, or a bound when one side timed out."""
    if p.ours and other and p.ours.best is not None and other.best is not None:
        return f"{p.ours.best / other.best:.3g}"
    if p.ours and p.ours.best is not None and (skipped_other == "timeout" or (other and other.timed_out)):
        return f"< {p.ours.best / timeout:.3g}"
    if other and other.best is not None and (p.skipped_ours == "timeout" or (p.ours and p.ours.timed_out)):
        return f"> {timeout / other.best:.3g}"
    return "—"


def scaling_markdown(points: list[Point], timeout: float) -> str:
    header = ["deck", "cards", "ours time", "ours peak mem", "reference time", "reference peak mem",
              "ours/reference", "closed form time", "ours/closed form", "same answer"]
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    for p in points:
        answers = [m.answer for m in (p.ours, p.reference, p.formula) if m and m.answer is not None]
        same = "—"
        if len(answers) > 1:
            same = "yes" if all(_same(answers[0], a, "exact") for a in answers[1:]) else "NO"
        lines.append("| " + " | ".join([
            f"{p.ranks} x {p.suits}", str(p.ranks * p.suits),
            _time(p.ours, p.skipped_ours, timeout), _memory(p.ours),
            _time(p.reference, p.skipped_reference, timeout), _memory(p.reference),
            _ratio(p, p.reference, p.skipped_reference, timeout),
            _time(p.formula, p.skipped_formula, timeout),
            _ratio(p, p.formula, p.skipped_formula, timeout), same,
        ]) + " |")
    return "\n".join(lines)
