"""The benchmark runner: ``python -m bench`` prints a Markdown table (reported, never asserted).

Each formulation (ours or a peer's) runs in a fresh interpreter per repeat
(:mod:`bench.worker`), so no library cache carries over from one repeat to the
next, and a hopeless one is killed at the timeout and reported as "> T s".  The
formulations of a question run in turns (the first run of each, then the second of
each...), so that the machine's speed, which moves within minutes, reaches them
alike.  The time is the best of the repeats (``time.perf_counter`` around the call,
imports excluded); ours also gets one extra run under ``tracemalloc`` for its peak
memory.
"""

from __future__ import annotations

import argparse
import datetime
import importlib.util
import json
import math
import os
import platform
import resource
import subprocess
import sys
import tempfile
from dataclasses import asdict, dataclass, field
from fractions import Fraction
from importlib import metadata
from pathlib import Path
from typing import Any

from bench.cases import CASES, Answer, Case, Impl
from bench.worker import decode, encode

__all__ = ["Measurement", "Row", "main"]

ROOT = Path(__file__).resolve().parent.parent
#: After a run this slow, the remaining repeats are skipped.
SLOW_RUN = 10.0
#: Ours is traced for memory only when a timed run took at most this long.
MEMORY_RUN_MAX = 30.0
#: Address-space cap of a worker (a runaway peer fails with MemoryError instead of swapping).
WORKER_MEMORY_LIMIT = 8 * 2**30
FLOAT_REL_TOL = 1e-9


@dataclass
class Measurement:
    """What happened when one formulation ran: best time, answer, or why there is none."""

    key: str
    times: list[float] = field(default_factory=list)
    answer: Answer | None = None
    error: str = ""
    timed_out: float | None = None  # the timeout, if the first run hit it
    skipped: str = ""
    peak_bytes: int | None = None
    memory_note: str = ""

    @property
    def best(self) -> float | None:
        return min(self.times) if self.times else None


@dataclass
class Row:
    number: int
    case: str
    title: str
    ours_key: str
    peer_key: str
    ours: str
    peer: str
    peer_library: str
    peer_kind: str
    target: bool
    answer: str = ""
    known: str = "—"
    agree: str = "—"
    ours_seconds: float | None = None
    peer_seconds: float | None = None
    ours_text: str = ""
    peer_text: str = ""
    ratio: float | None = None
    ratio_text: str = ""
    ours_peak_bytes: int | None = None
    memory_text: str = ""
    note: str = ""
    strongest: bool = False


# --------------------------------------------------------------------------- running


def _limit_memory() -> None:  # pragma: no cover - runs in the child
    resource.setrlimit(resource.RLIMIT_AS, (WORKER_MEMORY_LIMIT, WORKER_MEMORY_LIMIT))


def _run_worker(impl: Impl, timeout: float, memory: bool) -> dict[str, Any]:
    """One fresh-interpreter run; ``{"timeout": T}`` or ``{"error": ...}`` when it went wrong."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH", "")]))
    with tempfile.TemporaryDirectory(prefix="drawdsl-bench-") as tmp:
        out = Path(tmp) / "result.json"
        command = [sys.executable, "-m", "bench.worker", impl.func, str(out), "--needs", ",".join(impl.needs)]
        if impl.warmup:
            command += ["--warmup", impl.warmup]
        if memory:
            command.append("--memory")
        if impl.args:
            command += ["--args", ",".join(map(str, impl.args))]
        try:
            done = subprocess.run(
                command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout,
                preexec_fn=_limit_memory,
            )
        except subprocess.TimeoutExpired:
            return {"timeout": timeout}
        if out.exists():
            result: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
            return result
        tail = (done.stderr.strip().splitlines() or [f"exit status {done.returncode}"])[-1]
        return {"error": tail}


def _progress(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def _prepared(impl: Impl, quick: bool) -> Measurement:
    """A measurement to fill, already marked skipped when ``impl`` cannot run here."""
    m = Measurement(impl.key)
    if impl.unavailable:
        m.skipped = "n/a"
    elif quick and impl.slow:
        m.skipped = "skipped (--quick)"
    else:
        missing = [name for name in impl.needs if "." not in name and importlib.util.find_spec(name) is None]
        if missing:
            m.skipped = f"not installed: {', '.join(missing)} (pip install -e '.[bench]')"
    return m


def _run_once(impl: Impl, m: Measurement, i: int, timeout: float) -> bool:
    """Run ``impl`` once more into ``m``; whether it may run again (not killed, failed or slow)."""
    result = _run_worker(impl, timeout, memory=False)
    if "timeout" in result:
        _progress(f"  {impl.key}: run {i + 1}: > {timeout:g} s (killed)")
        if not m.times:
            m.timed_out = timeout
        return False
    if "error" in result:
        _progress(f"  {impl.key}: run {i + 1}: error: {result['error']}")
        m.error = result["error"]
        return False
    seconds = float(result["seconds"])
    m.times.append(seconds)
    answer = decode(result["answer"])
    if m.answer is not None and answer != m.answer:
        m.error = "answers differ between runs"
    m.answer = answer
    _progress(f"  {impl.key}: run {i + 1}: {_seconds(seconds)}")
    return seconds <= SLOW_RUN


def _trace(impl: Impl, m: Measurement, timeout: float) -> None:
    """The tracemalloc peak of one more run, when a timed run was fast enough."""
    if m.best is None:
        return
    if m.best <= MEMORY_RUN_MAX:
        result = _run_worker(impl, max(timeout, 10 * m.best), memory=True)
        if "peak_bytes" in result:
            m.peak_bytes = int(result["peak_bytes"])
        else:
            m.memory_note = "not measured"
    else:
        m.memory_note = "not traced (slow)"


def measure(impl: Impl, *, repeats: int, timeout: float, quick: bool, trace_memory: bool) -> Measurement:
    """Best-of-``repeats`` timing of one formulation (and its tracemalloc peak if asked)."""
    m = _prepared(impl, quick)
    if not m.skipped:
        for i in range(repeats):
            if not _run_once(impl, m, i, timeout):
                break
        if trace_memory:
            _trace(impl, m, timeout)
    return m


def measure_case(case: Case, *, repeats: int, timeout: float, ours_timeout: float,
                 quick: bool) -> dict[str, Measurement]:
    """Best-of-``repeats`` timings of every formulation of ``case``, taken in turns (the
    first run of each, then the second of each, ...): the machine's speed, which can
    move by more than the ratios measured within minutes, then reaches ours and the
    peers alike.  Ours is also traced for memory."""
    impls = [(impl, ours_timeout, True) for impl in case.ours]
    impls += [(impl, timeout, False) for impl in case.peers]
    found = {impl.key: _prepared(impl, quick) for impl, _, _ in impls}
    going = {impl.key for impl, _, _ in impls if not found[impl.key].skipped}
    for i in range(repeats):
        for impl, limit, _ in impls:
            if impl.key in going and not _run_once(impl, found[impl.key], i, limit):
                going.discard(impl.key)
    for impl, limit, traced in impls:
        if traced and not found[impl.key].skipped:
            _trace(impl, found[impl.key], limit)
    return found


# --------------------------------------------------------------------------- comparing and formatting


def _same(ours: Answer, peer: Answer, compare: str) -> bool:
    if compare == "float":
        a = float(ours) if not isinstance(ours, dict) else math.nan
        b = float(peer) if not isinstance(peer, dict) else math.nan
        return math.isclose(a, b, rel_tol=FLOAT_REL_TOL)
    if isinstance(ours, dict) and isinstance(peer, dict):
        keys = set(ours) | set(peer)
        return all(ours.get(k, Fraction(0)) == peer.get(k, Fraction(0)) for k in keys)
    if isinstance(ours, dict) or isinstance(peer, dict):
        return False
    return Fraction(ours) == Fraction(peer)


def _seconds(seconds: float) -> str:
    if seconds < 1e-3:
        return f"{seconds * 1e6:.0f} µs"
    if seconds < 1:
        return f"{seconds * 1e3:.3g} ms"
    return f"{seconds:.3g} s"


def _bytes(n: int) -> str:
    if n < 2**20:
        return f"{n / 2**10:.0f} KiB"
    return f"{n / 2**20:.1f} MiB"


def _time_text(m: Measurement) -> str:
    if m.skipped:
        return m.skipped
    if m.timed_out is not None:
        return f"> {m.timed_out:g} s"
    if m.error:
        text = m.error if len(m.error) <= 100 else m.error[:100].rsplit(" ", 1)[0] + " ..."
        return f"error ({text})"
    best = m.best
    assert best is not None
    runs = len(m.times)
    return _seconds(best) + ("" if runs > 1 else " (1 run)")


def _answer_text(case: Case, answer: Answer | None) -> str:
    if answer is None:
        return "—"
    if case.key == "poker" and isinstance(answer, dict):
        total = 2_598_960
        return "counts " + " / ".join(str(answer.get(k, Fraction(0)) * total) for k in _poker_order())
    if case.key == "rbr" and isinstance(answer, dict):
        never = answer.get("never", Fraction(0))
        return f"P(never) = {never} ≈ {float(never):.4g}"
    if case.key.startswith("war") and isinstance(answer, Fraction):
        return f"≈ {float(answer):.10g} = 1 in {1 / float(answer):,.1f} (exact Fraction in --json)"
    if case.key == "penney" and isinstance(answer, dict):
        shown = ", ".join(f"{k} {answer[k]}" for k in list(answer)[:3])
        return f"{len(answer)} exact fractions: {shown}, ... (all in --json)"
    if isinstance(answer, dict) and len(answer) > 4:
        items = sorted(answer.items(), key=lambda kv: int(kv[0]) if kv[0].isdigit() else 0)
        mean = sum((int(k) * p for k, p in items if k.isdigit()), Fraction(0))
        return f"{len(answer)} exact fractions, mean {float(mean):.6g} (all in --json)"
    if isinstance(answer, Fraction) and answer.denominator > 10**12:
        return f"≈ {float(answer):.10g} (exact Fraction in --json)"
    return str(answer)


def _poker_order() -> list[str]:
    from bench.cases import POKER_COUNTS

    return list(POKER_COUNTS)


def _ratio(ours: Measurement, peer: Measurement) -> tuple[float | None, str]:
    """ours/peer, or a bound when one side hit its timeout."""
    a, b = ours.best, peer.best
    if a is not None and b is not None:
        return a / b, f"{a / b:.3g}"
    if a is not None and peer.timed_out is not None:
        bound = a / peer.timed_out
        return bound, f"< {bound:.3g}"
    if b is not None and ours.timed_out is not None:
        bound = ours.timed_out / b
        return bound, f"> {bound:.3g}"
    return None, "—"


def make_rows(case: Case, results: dict[str, Measurement]) -> list[Row]:
    number = CASES.index(case) + 1
    rows: list[Row] = []
    if case.pending:
        rows.append(Row(number, case.key, case.title, "", "", "—", "—", "", "", False, answer=case.pending,
                        ours_text="—", peer_text="—", ratio_text="—", memory_text="—"))
        return rows
    for ours_impl in case.ours:
        ours = results[ours_impl.key]
        for peer_impl in case.peers:
            peer = results[peer_impl.key]
            row = Row(number, case.key, case.title, ours_impl.key, peer_impl.key, ours_impl.label,
                      peer_impl.label, peer_impl.library, peer_impl.kind, ours_impl.target)
            row.answer = _answer_text(case, ours.answer)
            if case.known is not None and ours.answer is not None:
                row.known = "yes" if _same(ours.answer, case.known, "exact") else "NO"
            if ours.answer is not None and peer.answer is not None:
                row.agree = "yes" if _same(ours.answer, peer.answer, case.compare) else "no"
            elif peer_impl.unavailable:
                row.note = peer_impl.unavailable
            row.ours_seconds, row.peer_seconds = ours.best, peer.best
            row.ours_text, row.peer_text = _time_text(ours), _time_text(peer)
            if peer_impl.unavailable:
                row.peer_text = "n/a (see below)"
            row.ratio, row.ratio_text = _ratio(ours, peer)
            row.ours_peak_bytes = ours.peak_bytes
            if ours.peak_bytes is not None:
                row.memory_text = _bytes(ours.peak_bytes)
            else:
                row.memory_text = ours.memory_note or "—"
            rows.append(row)
    return rows


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def markdown(rows: list[Row]) -> str:
    header = ["#", "question", "ours", "peer", "answer (ours)", "known", "agree",
              "ours time", "peer time", "ours/peer", "ours peak mem"]
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    seen: set[str] = set()
    previous: tuple[str, str] | None = None
    for row in rows:
        first_of_case = row.case not in seen
        seen.add(row.case)
        # Say the question, and our formulation with its answer and cost, once.
        same_ours = previous == (row.case, row.ours_key)
        previous = (row.case, row.ours_key)
        cells = [str(row.number) if first_of_case else "", row.title if first_of_case else "",
                 "" if same_ours else row.ours, row.peer,
                 "" if same_ours else row.answer, "" if same_ours else row.known, row.agree,
                 "" if same_ours else row.ours_text, row.peer_text,
                 f"**{row.ratio_text}**" if row.strongest else row.ratio_text,
                 "" if same_ours else row.memory_text]
        lines.append("| " + " | ".join(_cell(c) for c in cells) + " |")
    return "\n".join(lines)


# --------------------------------------------------------------------------- targets


@dataclass
class Target:
    name: str
    met: bool | None
    detail: str


def _check(name: str, rows: list[Row], limit: float, *, strict: bool = False) -> Target:
    """Every row's ours/peer must be at most ``limit`` (below it when ``strict``).

    A "< x" ratio (the peer timed out) is an upper bound and counts when x is within
    the limit; a "> x" ratio (ours timed out) is a miss.  Rows without a ratio
    (skipped, failed) leave the target undecided unless another row missed it.
    """
    rows = [r for r in rows if r.target and not r.note]
    measured = [r for r in rows if r.ratio is not None]
    unmeasured = [r for r in rows if r.ratio is None]

    def missed(r: Row) -> bool:
        assert r.ratio is not None
        return r.ratio_text.startswith(">") or r.ratio > limit or (strict and r.ratio >= limit)

    parts = [f"#{r.number} {r.peer}: {r.ratio_text}" + (" (missed)" if missed(r) else "") for r in measured]
    parts += [f"#{r.number} {r.peer}: not measured" for r in unmeasured]
    met: bool | None = True
    if any(missed(r) for r in measured):
        met = False
    elif unmeasured or not rows:
        met = None
    return Target(name, met, "; ".join(parts) or "no rows")


def strongest(case: Case, results: dict[str, Measurement], *, formulas: bool = True) -> Impl | None:
    """The case's fastest peer among those that answered, and answered like ours
    (``formulas=False``: leaving out the closed forms)."""
    best: Impl | None = None
    ours_answers = [results[o.key].answer for o in case.ours if o.target and o.key in results]
    ours_answers = [a for a in ours_answers if a is not None]
    for peer in case.peers:
        if not formulas and peer.kind == "formula":
            continue
        m = results.get(peer.key)
        if m is None or m.best is None or m.answer is None:
            continue
        if ours_answers and not any(a is not None and _same(a, m.answer, case.compare) for a in ours_answers):
            continue
        if best is None or m.best < (results[best.key].best or math.inf):
            best = peer
    return best


def targets(
    rows: list[Row], strongest_peers: dict[str, str] | None = None,
    strongest_other_peers: dict[str, str] | None = None,
) -> list[Target]:
    """The target, ours faster than the strongest peer on every question; and, where a
    closed form is the strongest, the same against the strongest peer that is not one
    (a library or a hand-written pass over states: an engine against an engine, what a
    faster evaluator can still change)."""
    strongest_peers = strongest_peers or {}
    chosen = [r for r in rows if r.case in strongest_peers and r.peer_key == strongest_peers[r.case]]
    chosen += [r for r in rows if r.case not in strongest_peers and r.ours_key]
    chosen.sort(key=lambda r: r.number)
    found = [
        _check("faster than the strongest peer on every question (ours/strongest peer < 1)", chosen, 1.0,
               strict=True),
    ]
    others = strongest_other_peers or {}
    formula_cases = {r.case for r in rows if r.peer_kind == "formula"}
    by_others = [r for r in rows if r.case in formula_cases and r.peer_key == others.get(r.case)]
    if by_others:
        found.append(_check(
            "where a closed form is the strongest peer: faster than the strongest peer that is not a "
            "closed form (ours/that peer < 1)", sorted(by_others, key=lambda r: r.number), 1.0, strict=True))
    return found


def targets_text(found: list[Target], rows: list[Row]) -> str:
    lines = ["Targets (reported, not asserted):", ""]
    for t in found:
        mark = {True: "met", False: "MISSED", None: "not fully measured"}[t.met]
        lines.append(f"- {t.name}: **{mark}** — {t.detail}")
    informative = [r for r in rows if not r.target and r.ours_key]
    if informative:
        lines.append("- not counted (informative formulations): " + "; ".join(
            f"#{r.number} {r.ours} vs {r.peer}: {r.ratio_text}" for r in informative))
    return "\n".join(lines)


# --------------------------------------------------------------------------- main


def _version(package: str) -> str:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return "not installed"


def meta(repeats: int, timeout: float, ours_timeout: float, quick: bool) -> dict[str, Any]:
    return {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "python": platform.python_version(),
        "platform": platform.platform(),
        "cpus": os.cpu_count(),
        "versions": {p: _version(p) for p in ("drawdsl", "icepool", "lea", "sympy")},
        "repeats": repeats,
        "timeout_seconds": timeout,
        "ours_timeout_seconds": ours_timeout,
        "quick": quick,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench",
        description="drawdsl against icepool, lea and reference methods: a Markdown table on stdout.",
    )
    parser.add_argument("--json", metavar="FILE", help="also write the rows (and raw timings) to FILE")
    parser.add_argument("--repeats", type=int, default=3,
                        help="fresh-interpreter runs per formulation, best kept (default 3)")
    parser.add_argument("--timeout", type=float, default=120.0,
                        help="seconds before a peer run is killed (default 120)")
    parser.add_argument("--ours-timeout", type=float, default=300.0,
                        help="seconds before one of our runs is killed (default 300)")
    parser.add_argument("--quick", action="store_true",
                        help="skip the formulations known to take a minute or more")
    parser.add_argument("--only", metavar="CASE", action="append",
                        choices=[c.key for c in CASES] + ["scaling"],
                        help="run only this case, or 'scaling' (repeatable)")
    parser.add_argument("--scaling-timeout", type=float, default=60.0,
                        help="seconds before a scaling run is killed (default 60)")
    parser.add_argument("--no-scaling", action="store_true", help="skip the War scaling rows")
    args = parser.parse_args(argv)
    if args.repeats < 1:
        parser.error("--repeats must be >= 1")

    info = meta(args.repeats, args.timeout, args.ours_timeout, args.quick)
    cases = [c for c in CASES if not args.only or c.key in args.only]
    with_scaling = not args.no_scaling and (not args.only or "scaling" in args.only)
    results: dict[str, Measurement] = {}
    rows: list[Row] = []
    for case in cases:
        _progress(f"{case.key}: {case.title}")
        results.update(measure_case(case, repeats=args.repeats, timeout=args.timeout,
                                    ours_timeout=args.ours_timeout, quick=args.quick))
        rows.extend(make_rows(case, results))

    strongest_peers = {}
    for case in cases:
        peer = strongest(case, results)
        if peer is not None:
            strongest_peers[case.key] = peer.key
    for row in rows:
        row.strongest = strongest_peers.get(row.case) == row.peer_key

    versions = info["versions"]
    print(
        f"drawdsl {versions['drawdsl']} vs icepool {versions['icepool']}, lea {versions['lea']} — "
        f"Python {info['python']}, {info['platform']}, {info['cpus']} CPUs, {info['date']}.  "
        f"Time: best of {args.repeats} runs, each in a fresh interpreter (imports excluded), "
        f"the formulations of a question taken in turns; "
        f"a peer run is killed after {args.timeout:g} s, ours after {args.ours_timeout:g} s.  "
        "Peak memory: tracemalloc, one extra run of ours.\n"
    )
    print(markdown(rows))
    print()
    notes = [f"- #{r.number} {r.peer}: n/a — {r.note}" for r in rows if r.note]
    disagreements = [r for r in rows if r.agree == "no" or r.known == "NO"]
    for r in disagreements:
        mine, theirs = results[r.ours_key].answer, results[r.peer_key].answer
        notes.append(f"- **DISAGREEMENT** #{r.number}: ours ({r.ours}) {mine!r}, {r.peer} {theirs!r}")
    if notes:
        print("\n".join(notes))
        print()
    strongest_other_peers = {}
    for case in cases:
        peer = strongest(case, results, formulas=False)
        if peer is not None:
            strongest_other_peers[case.key] = peer.key
    found = targets(rows, strongest_peers, strongest_other_peers)
    print(targets_text(found, rows))

    points = []
    if with_scaling:
        from bench.scaling import run_scaling, scaling_markdown

        points = run_scaling(args.scaling_timeout)
        print()
        print("War sweep scaling (one run per point, each side in a fresh interpreter; peak memory by "
              f"tracemalloc in one more run; killed after {args.scaling_timeout:g} s):")
        print()
        print(scaling_markdown(points, args.scaling_timeout))

    if args.json:
        payload = {
            "meta": info,
            "rows": [asdict(r) for r in rows],
            "measurements": {
                k: {**asdict(m), "answer": encode(m.answer) if m.answer is not None else None}
                for k, m in results.items()
            },
            "targets": [asdict(t) for t in found],
            "scaling": [
                {"ranks": p.ranks, "suits": p.suits, "series": p.series,
                 **{side: ({**asdict(m), "answer": encode(m.answer) if m.answer is not None else None}
                           if m is not None else None)
                    for side, m in (("ours", p.ours), ("reference", p.reference), ("formula", p.formula))}}
                for p in points
            ],
        }
        Path(args.json).write_text(json.dumps(payload, indent=2, default=str) + "\n", encoding="utf-8")
        _progress(f"wrote {args.json}")
    return 0
