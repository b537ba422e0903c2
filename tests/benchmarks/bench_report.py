"""Benchmark of the report's DuckDB engine at scale (issue 21, acceptance 2).

Run: ``.venv/bin/python tests/benchmarks/bench_report.py [n] [--threads k]
[--memory-limit 2GB] [--memory-n m]`` (default n = 10**8, k = 2, m = 10**7).

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
import json
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("n", nargs="?", type=int, default=10**8)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--memory-limit", default="2GB")
    parser.add_argument("--memory-n", type=int, default=10**7)
    parser.add_argument("--no-pair", action="store_true",
                        help="skip the report of both scores with their paired DeLong test")
    parser.add_argument("--child")
    parser.add_argument("--path")
    args = parser.parse_args()
    if args.child:
        child(args)
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
