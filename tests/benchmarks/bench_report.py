"""Benchmarks of the report: the DuckDB engine at scale (issue 21, acceptance 2), and
the memory engine against one sort (issue 29, item 4).

Run: ``.venv/bin/python tests/benchmarks/bench_report.py [n] [--threads k]
[--memory-limit 2GB] [--memory-n m]`` (default n = 10**8, k = 2, m = 10**7), or
``... bench_report.py --ratio [--memory-n m] [--repeat r]`` for the memory engine alone.

``--ratio``: the report in memory of ``m`` rows (``y = u < 0.3``, the score ``v + 0.2 y``
with ``u, v`` uniform: one score, every value distinct, no weights; made with
``course_lib.report`` from a DataFrame, the page rendered and written) against one
``numpy.sort`` of the same scores, in CPU seconds of the process. The fixed costs
(imports, the page of fixed size, the figures' bounded SVG) are the same report on
10^3 rows; the ratio is ``(total - fixed) / sort`` (goal: at most 4). Each of ``r``
rounds times the small report, one sort, the large report and one sort again, in one
process; the best of each is kept. It runs once under numpy's default dispatch and
once with AVX-512 off (``NPY_DISABLE_CPU_FEATURES``, AVX2 at most: numpy's sort of
float64 is several times faster there on the machines this was written on), each in
a fresh process, and prints the time of each phase of the large report: the engine
(reading, validation, the data's fingerprint), the summary (the one grouping: a sort
of keys), the passes over the groups (each accumulator's share), the calibration by
band, the page. The load average is printed: the machine may be shared.

DuckDB writes ``n`` rows to a Parquet file in a temporary folder: a label ``y``, a score
``s`` of doubles that are all distinct (up to a handful of hash collisions) and the same
score rounded to 1/1600, ``s_tied`` (1,601 distinct values). Each contender then runs in
a fresh subprocess, so that its peak resident memory (``VmHWM`` of the process, DuckDB
included: it runs inside the process) is its own:

* ``report``: the report made with DuckDB from the Parquet file,
  ``course_lib.report(path, engine="duckdb")`` when the package has it, else the
  engine's work for it: :class:`~course_lib.report._duckdb.DuckDBEngine`'s summary and
  one full pass over the groups of each score in chunks (an exact AUC accumulated on
  the way, checked against the in-memory one when both run);
* ``engine``: the engine's part alone, for one score: the summary (validation and
  the grouping, kept sorted) and one pass over the groups (an exact AUC on the way);
* ``group by``: one DuckDB ``GROUP BY score`` of the same file (the count and class sums
  of every distinct score), with the same memory limit and threads: the floor of any
  exact method that keeps the rows in the engine;
* ``memory``: ``course_lib`` in memory on the first ``m`` rows (read into numpy first,
  not timed): the report through the memory engine when the package has it, else
  :class:`~course_lib.report.MemoryEngine`'s summary and groups, and ``roc_auc``.

Goals: the report within 3x of the ``GROUP BY`` and under 4 GiB of peak memory.
Times are wall seconds of one run each, and CPU seconds of the process (every thread,
DuckDB's included: steadier than wall time on a shared machine); repeat to judge.
"""

from __future__ import annotations

import argparse
import functools
import json
import math
import os
import subprocess
import sys
import tempfile
import time
from fractions import Fraction
from pathlib import Path

SCORES = ("s_tied", "s")


def vm_hwm_mib() -> float:
    """Peak resident memory of this process, MiB (Linux ``/proc/self/status``)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def generate(path: Path, n: int, memory_limit: str, threads: int) -> None:
    import duckdb

    con = duckdb.connect()
    con.execute(f"SET memory_limit = '{memory_limit}'")
    con.execute(f"SET threads = {threads}")
    con.execute(f"SET temp_directory = '{(path.parent / 'spill').as_posix()}'")
    con.execute(f"""
        COPY (
            WITH u AS (SELECT hash(2 * i) / 18446744073709551616.0 AS u1,
                              hash(2 * i + 1) / 18446744073709551616.0 AS u2
                       FROM range({n}) t(i))
            SELECT CAST(u2 < 0.05 + 0.3 * u1 AS TINYINT) AS y,
                   u1 AS s,
                   round(u1 * 1600) / 1600 AS s_tied
            FROM u
        ) TO '{path.as_posix()}' (FORMAT parquet)""")


def exact_auc(chunks) -> Fraction:
    """The exact AUC from chunks of groups in decreasing score order:
    ``sum_g neg_g (2 tp_before_g + pos_g) / (2 m1 m0)`` in Python ints.

    Within a chunk every term ``neg_g (2 before_g + pos_g)`` is below ``2 n^2`` (2e16
    for n = 10^8), so blocks of 256 terms add up in int64 without overflow."""
    import numpy as np

    tp_before, num, m1, m0 = 0, 0, 0, 0
    for g in chunks:
        pos, neg = g.pos.astype(np.int64), g.neg.astype(np.int64)
        before = np.cumsum(pos) - pos
        terms = neg * (2 * before + pos)
        num += sum(np.add.reduceat(terms, np.arange(0, terms.size, 256)).tolist())
        chunk_neg = int(neg.sum())
        num += 2 * tp_before * chunk_neg
        tp_before += int(pos.sum())
        m1 += int(pos.sum())
        m0 += chunk_neg
    return Fraction(num, 2 * m1 * m0)


# ------------------------------------------------------------------- the contenders


def _report_function():
    """``course_lib.report.report`` when the package has it, else None."""
    try:
        from course_lib.report import report
    except ImportError:
        return None
    return report


def run_report(path: str, threads: int, memory_limit: str, scores: tuple[str, ...],
               engine_only: bool = False) -> dict:
    from course_lib.report._duckdb import DuckDBEngine

    out: dict = {}
    start = time.perf_counter()
    report = None if engine_only else _report_function()
    if report is not None:
        engine = DuckDBEngine(path, label="y", scores=scores, threads=threads,
                              memory_limit=memory_limit)
        result = report(None, label="y", scores=list(scores), engine=engine)
        engine.close()
        out["via"] = "course_lib.report"
        out["auc"] = {s: result["scores"][s]["auc"]["fraction"] for s in scores}
    else:
        out["via"] = "DuckDBEngine summary + groups"
        with DuckDBEngine(path, label="y", scores=scores, threads=threads,
                          memory_limit=memory_limit) as engine:
            t = time.perf_counter()
            summary = engine.summary()
            out["summary_seconds"] = time.perf_counter() - t
            out["distinct"] = summary.distinct
            out["auc"] = {}
            for s in scores:
                t = time.perf_counter()
                out["auc"][s] = str(exact_auc(engine.groups(s)))
                out[f"groups_seconds_{s}"] = time.perf_counter() - t
    out["seconds"] = time.perf_counter() - start
    return out


def run_group_by(path: str, threads: int, memory_limit: str) -> dict:
    import duckdb

    out: dict = {}
    with tempfile.TemporaryDirectory() as spill:
        con = duckdb.connect()
        con.execute(f"SET memory_limit = '{memory_limit}'")
        con.execute(f"SET threads = {threads}")
        con.execute(f"SET temp_directory = '{spill}'")
        con.execute("SET preserve_insertion_order = false")
        for s in SCORES:
            start, cpu = time.perf_counter(), time.process_time()
            ((groups, pos),) = con.execute(
                f"SELECT COUNT(*), SUM(pos) FROM (SELECT {s}, SUM(y) AS pos, COUNT(*) AS n "
                f"FROM read_parquet('{path}') GROUP BY {s})").fetchall()
            out[f"seconds_{s}"] = time.perf_counter() - start
            out[f"cpu_{s}"] = time.process_time() - cpu
            out[f"groups_{s}"] = int(groups)
    out["seconds"] = sum(out[f"seconds_{s}"] for s in SCORES)
    return out


def run_memory(path: str, n: int, scores: tuple[str, ...]) -> dict:
    import duckdb

    import course_lib
    from course_lib.report import MemoryEngine

    frame = duckdb.sql(f"SELECT y, s, s_tied FROM read_parquet('{path}') LIMIT {n}").df()
    out: dict = {"rows": len(frame)}
    start = time.perf_counter()
    report = _report_function()
    if report is not None:
        report(frame, label="y", scores=list(scores), engine="memory")
        out["via"] = "course_lib.report"
    else:
        out["via"] = "MemoryEngine summary + groups"
        engine = MemoryEngine(frame, label="y", scores=scores)
        engine.summary()
        for s in scores:
            exact_auc(engine.groups(s))
    out["seconds"] = time.perf_counter() - start
    start = time.perf_counter()
    for s in scores:
        course_lib.roc_auc(frame["y"].to_numpy(), frame[s].to_numpy(), exact=True)
    out["roc_auc_seconds"] = time.perf_counter() - start
    return out


def child(args: argparse.Namespace) -> None:
    import duckdb  # noqa: F401  (imports are not timed)

    import course_lib.report  # noqa: F401
    import course_lib.report._duckdb  # noqa: F401

    cpu = time.process_time()  # every thread of the process: DuckDB's too
    kind, _, which = args.child.partition(":")
    scores = SCORES if which == "both" else (which,)
    if kind in ("report", "engine"):
        out = run_report(args.path, args.threads, args.memory_limit, scores,
                         engine_only=kind == "engine")
    elif kind == "group_by":
        out = run_group_by(args.path, args.threads, args.memory_limit)
    else:
        out = run_memory(args.path, args.memory_n, scores)
    out["cpu_seconds"] = time.process_time() - cpu
    out["peak_mib"] = vm_hwm_mib()
    print(json.dumps(out))


def spawn(name: str, path: Path, args: argparse.Namespace) -> dict:
    cmd = [sys.executable, __file__, str(args.n), "--child", name, "--path", str(path),
           "--threads", str(args.threads), "--memory-limit", args.memory_limit,
           "--memory-n", str(args.memory_n)]
    done = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{name} failed:\n{done.stderr}")
    return json.loads(done.stdout.strip().splitlines()[-1])


# ------------------------------------------------------- the memory engine against one sort

#: The dispatches of ``--ratio``: numpy's default, and AVX2 at most (AVX-512 off).
DISPATCHES = {"default": None, "AVX2 only": "X86_V4 AVX512_ICL AVX512_SPR"}

#: Rows of the report that measures the fixed costs.
FIXED_ROWS = 10**3


def ratio_rows(n: int, seed: int = 0):
    """The rows of ``--ratio``: a DataFrame of ``y`` and a distinct score ``s``."""
    import numpy as np
    import pandas as pd

    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.3
    return pd.DataFrame({"y": y, "s": rng.random(n) + 0.2 * y})


def timed_report(frame, out: Path, phases: dict[str, float] | None = None) -> float:
    """CPU seconds of the report of ``frame`` with its page written to ``out``; with
    ``phases``, each stage's CPU seconds (the report's progress stages, the page)."""
    from course_lib.report import report
    from course_lib.report._html import render

    marks: list[tuple[str, float]] = []
    start = time.process_time()
    data = report(frame, label="y", scores="s", run_date="2025-01-01",
                  progress=lambda stage: marks.append((stage, time.process_time()))).data
    marks.append(("page: HTML and SVG, written", time.process_time()))
    out.write_text(render(data), encoding="utf-8")
    end = time.process_time()
    if phases is not None:
        names = {"reading the data": "engine: reading, validation, fingerprint",
                 "summary": "summary: the one grouping (a sort of keys) and a pass",
                 "score s": "the two passes over the groups",
                 "calibration by band of s": "calibration by band (none: not probabilities)"}
        ends = [t for _, t in marks[1:]] + [end]
        for (stage, t0), t1 in zip(marks, ends):
            key = names.get(stage, stage)
            phases[key] = min(phases.get(key, math.inf), t1 - t0)
    return end - start


def accumulator_clocks() -> dict[str, float]:
    """Each accumulator's CPU seconds in its ``update`` (and the running totals'),
    summed over the passes: every ``update`` of :mod:`course_lib._stream` timed."""
    from course_lib import _stream

    clocks: dict[str, float] = {}

    def timed(name, f):
        @functools.wraps(f)
        def call(*args, **kwargs):
            t = time.process_time()
            try:
                return f(*args, **kwargs)
            finally:
                clocks[name] = clocks.get(name, 0.0) + time.process_time() - t
        return call

    for name in dir(_stream):
        cls = getattr(_stream, name)
        if isinstance(cls, type) and name.endswith("Acc") and "update" in vars(cls):
            cls.update = timed(name, cls.update)
    _stream.Cumulator.step = timed("Cumulator (running totals)", _stream.Cumulator.step)
    return clocks


def ratio_child(n: int, repeat: int) -> dict:
    """One dispatch's measures (this process): the best of ``repeat`` rounds."""
    start = time.process_time()
    import numpy as np

    import course_lib.report  # noqa: F401
    from course_lib.report import _html  # noqa: F401

    imports = time.process_time() - start
    small, large = ratio_rows(FIXED_ROWS), ratio_rows(n)
    scores = large["s"].to_numpy()
    best = {"small": math.inf, "large": math.inf, "sort": math.inf}
    phases: dict[str, float] = {}
    clocks: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        page = Path(tmp) / "report.html"
        for i in range(repeat):
            best["small"] = min(best["small"], timed_report(small, page))
            for which in ("sort", "large", "sort"):
                if which == "sort":
                    t = time.process_time()
                    np.sort(scores)
                    best["sort"] = min(best["sort"], time.process_time() - t)
                    continue
                round_clocks = accumulator_clocks() if i == repeat - 1 else None
                best["large"] = min(best["large"], timed_report(large, page, phases))
                if round_clocks is not None:
                    clocks = round_clocks
    return {"imports": imports, **best, "phases": phases, "accumulators": clocks,
            "page_bytes": page.stat().st_size if page.exists() else None}


def ratio(args: argparse.Namespace) -> None:
    """``--ratio``: each dispatch in a fresh process, then the table."""
    load = os.getloadavg()
    results = {}
    for name, disabled in DISPATCHES.items():
        env = dict(os.environ)
        env.pop("NPY_DISABLE_CPU_FEATURES", None)
        if disabled:
            env["NPY_DISABLE_CPU_FEATURES"] = disabled
        cmd = [sys.executable, __file__, "--child", "ratio", "--memory-n",
               str(args.memory_n), "--repeat", str(args.repeat)]
        done = subprocess.run(cmd, capture_output=True, text=True, check=False, env=env)
        if done.returncode != 0:
            raise SystemExit(f"--ratio ({name}) failed:\n{done.stderr}")
        results[name] = json.loads(done.stdout.strip().splitlines()[-1])
    print(f"the report in memory of {args.memory_n:,} distinct rows (one score, no weights) "
          f"against one numpy.sort of its scores; CPU seconds, best of {args.repeat}; load "
          f"average {load[0]:.2f} before, {os.getloadavg()[0]:.2f} after")
    print(f"{'dispatch':<11} {'total':>7} {'fixed':>7} {'sort':>7} {'(total - fixed) / sort':>24}")
    for name, r in results.items():
        total, fixed = r["imports"] + r["large"], r["imports"] + r["small"]
        print(f"{name:<11} {total:7.3f} {fixed:7.3f} {r['sort']:7.3f} "
              f"{(total - fixed) / r['sort']:23.2f}x  (goal <= 4)")
    print("fixed: imports " + ", ".join(f"{name} {r['imports']:.3f} s" for name, r in
                                        results.items())
          + f"; the report of {FIXED_ROWS:,} rows and its page " + ", ".join(
              f"{name} {r['small']:.3f} s" for name, r in results.items()))
    print(f"phases of the large report (CPU s): {' / '.join(results)}")
    first = next(iter(results.values()))
    for phase in first["phases"]:
        print(f"  {phase:<56} " + " / ".join(f"{r['phases'].get(phase, math.nan):.3f}"
                                             for r in results.values()))
    print("  in the passes, each accumulator's update (last round):")
    for acc in sorted(first["accumulators"], key=lambda a: -first["accumulators"][a]):
        print(f"    {acc:<54} " + " / ".join(f"{r['accumulators'].get(acc, math.nan):.3f}"
                                             for r in results.values()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("n", nargs="?", type=int, default=10**8)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--memory-limit", default="2GB")
    parser.add_argument("--memory-n", type=int, default=10**7)
    parser.add_argument("--no-pair", action="store_true",
                        help="skip the report of both scores with their paired DeLong test")
    parser.add_argument("--ratio", action="store_true",
                        help="the memory engine's report of --memory-n rows against one sort")
    parser.add_argument("--repeat", type=int, default=3, help="rounds of --ratio")
    parser.add_argument("--child")
    parser.add_argument("--path")
    args = parser.parse_args()
    if args.child == "ratio":
        print(json.dumps(ratio_child(args.memory_n, args.repeat)))
        return
    if args.child:
        child(args)
        return
    if args.ratio:
        ratio(args)
        return
    with tempfile.TemporaryDirectory(prefix="bench_report_") as tmp:
        path = Path(tmp) / "scores.parquet"
        start = time.perf_counter()
        generate(path, args.n, args.memory_limit, args.threads)
        print(f"{args.n:,} rows written to Parquet in {time.perf_counter() - start:.1f} s "
              f"({path.stat().st_size / 2**20:,.0f} MiB); DuckDB memory_limit "
              f"{args.memory_limit}, {args.threads} threads", flush=True)
        group_by = spawn("group_by", path, args)
        print("one GROUP BY score (the count and positives of each distinct score): "
              + "; ".join(f"{s} {group_by['seconds_' + s]:.1f} s, CPU {group_by['cpu_' + s]:.1f} s "
                          f"({group_by['groups_' + s]:,} groups)" for s in SCORES)
              + f"; peak {group_by['peak_mib']:,.0f} MiB", flush=True)
        for s in SCORES:
            engine = spawn(f"engine:{s}", path, args)
            print(f"the engine's part for {s}: summary (validation, the grouping kept "
                  f"sorted) {engine['summary_seconds']:.1f} s, one pass over the groups "
                  f"{engine['groups_seconds_' + s]:.1f} s; in all {engine['seconds']:.1f} s, "
                  f"CPU {engine['cpu_seconds']:.1f} s = {engine['seconds'] / group_by['seconds_' + s]:.2f}x "
                  f"wall, {engine['cpu_seconds'] / group_by['cpu_' + s]:.2f}x CPU of the GROUP BY; "
                  f"peak {engine['peak_mib']:,.0f} MiB", flush=True)
        runs = [(s, (s,)) for s in SCORES] + ([] if args.no_pair else [("both", SCORES)])
        for name, scores in runs:
            report = spawn(f"report:{name}", path, args)
            memory = spawn(f"memory:{name}", path, args)
            base = sum(group_by["seconds_" + s] for s in scores)
            base_cpu = sum(group_by["cpu_" + s] for s in scores)
            print(f"report of {' and '.join(scores)}"
                  f"{' (with the paired DeLong test)' if len(scores) > 1 else ''} "
                  f"({report['via']}): {report['seconds']:.1f} s, CPU "
                  f"{report['cpu_seconds']:.1f} s, peak {report['peak_mib']:,.0f} MiB "
                  f"({report['peak_mib'] / 1024:.2f} GiB; goal <= 4 GiB)")
            print(f"    / its GROUP BY: {report['seconds'] / base:.2f}x wall, "
                  f"{report['cpu_seconds'] / base_cpu:.2f}x CPU (goal <= 3x); "
                  f"in memory on {memory['rows']:,} rows ({memory['via']}): "
                  f"{memory['seconds']:.1f} s, peak {memory['peak_mib']:,.0f} MiB (exact "
                  f"roc_auc {memory['roc_auc_seconds']:.1f} s); DuckDB on {args.n:,} rows / "
                  f"memory on {memory['rows']:,}: {report['seconds'] / memory['seconds']:.2f}x")
            print(f"    exact AUC: {report['auc']}", flush=True)


if __name__ == "__main__":
    main()
