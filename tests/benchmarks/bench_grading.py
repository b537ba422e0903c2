"""Benchmark of the grading command: submissions per minute, overhead, parallel speed-up.

    python tests/benchmarks/bench_grading.py [--copies 40] [--chapter NN]

Makes ``--copies`` copies of one chapter notebook with its solutions (the stored chapter
13 if it has exercise cells, else the first stored chapter that has them, else a notebook
built from the registry's chapter with the most exercises, as in the grader's tests) and
times, in one run on the same files:

1. ``jupyter execute`` of every copy, one after another (the baseline: the same kernels
   executing the same cells, with the grader's kernel environment: one BLAS thread,
   the Agg backend of matplotlib; no sandbox);
2. ``python -m course_lib.exercises.grade --jobs 1`` and ``--jobs 2``, each kernel in
   the bubblewrap sandbox (the default);
3. the same two with ``--sandbox none``, for comparison.

It prints submissions per minute for each, the grader's overhead over the baseline
(goal: under 20%) and the speed-up of two jobs over one (goal: at least 1.7x on two
cores), with the sandbox and without. The machine's load average is printed before each
step: the figures mean little on a busy machine. Without bwrap (or user namespaces) the
sandboxed runs are skipped with the reason.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "fixtures" / "submissions"))
sys.path[:0] = [str(ROOT), str(ROOT / "key")]  # this checkout's course_lib and key
# ... and its answer key, for the grader and the baseline kernels (the sandboxed kernels
# never see it)
PYTHONPATH = os.pathsep.join([str(ROOT), str(ROOT / "key"), os.environ.get("PYTHONPATH", "")])


def _chapter_notebook(chapter: int | None) -> tuple[object, str]:
    from course_lib.exercises import REGISTRY
    from course_lib.exercises.student import SOLUTION_START

    stored = sorted((ROOT / "notebooks").glob("*.ipynb"), key=lambda p: not p.name.startswith("13_"))
    for path in stored:
        if chapter is not None and not path.name.startswith(f"{chapter:02d}_"):
            continue
        nb = nbformat.read(path, as_version=4)
        if any(c.cell_type == "markdown" and SOLUTION_START.match("".join(c.source))
               for c in nb.cells):
            return nb, f"stored {path.name}"
    import fixture_notebooks

    counts: dict[int, int] = {}
    for ex in REGISTRY.values():
        counts[ex.chapter] = counts.get(ex.chapter, 0) + 1
    chosen = chapter if chapter is not None else max(counts, key=lambda c: (counts[c], -c))
    return fixture_notebooks.chapter_notebook(chosen), f"fixture of chapter {chosen}"


def _load() -> str:
    one, five, _ = os.getloadavg()
    return f"load average {one:.1f} (1 min), {five:.1f} (5 min)"


def _timed(cmd: list[str], *, cwd: Path, env: dict[str, str]) -> float:
    start = time.perf_counter()
    proc = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd[:4])} failed:\n{proc.stdout[-2000:]}\n{proc.stderr[-2000:]}")
    return elapsed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--copies", type=int, default=40)
    parser.add_argument("--chapter", type=int, default=None)
    args = parser.parse_args(argv)

    from course_lib.exercises._sandbox import probe_bwrap
    from course_lib.exercises.grade import _kernel_env

    no_bwrap = probe_bwrap()
    modes = ["bwrap", "none"] if no_bwrap is None else ["none"]
    if no_bwrap is not None:
        print(f"sandboxed runs skipped: {no_bwrap}")
    nb, source = _chapter_notebook(args.chapter)
    bin_dir = Path(sys.executable).parent
    env = {**_kernel_env(), "PYTHONPATH": PYTHONPATH}
    with tempfile.TemporaryDirectory(prefix="bench-grading-") as tmp:
        subs = Path(tmp) / "notebooks"
        subs.mkdir()
        (Path(tmp) / "out").mkdir()
        (Path(tmp) / "data").symlink_to(ROOT / "data")
        paths = []
        for i in range(args.copies):
            path = subs / f"student{i:03d}.ipynb"
            nbformat.write(nb, path)
            paths.append(path)
        n = len(paths)
        print(f"{n} copies of the {source}; {os.cpu_count()} cores")

        print(_load())
        t_exec = _timed([str(bin_dir / "jupyter"), "execute", *[p.name for p in paths]],
                        cwd=subs, env=env)
        results = {"jupyter execute (sequential)": t_exec}
        for mode in modes:
            for jobs in (1, 2):
                print(_load())
                results[f"grade --jobs {jobs} --sandbox {mode}"] = _timed(
                    [sys.executable, "-m", "course_lib.exercises.grade", str(subs),
                     "--out", str(Path(tmp) / "out" / f"grades-{mode}{jobs}.csv"),
                     "--jobs", str(jobs), "--sandbox", mode, "--no-progress"],
                    cwd=Path(tmp), env={**os.environ, "PYTHONPATH": PYTHONPATH})
        print(_load())

    print()
    print(f"{'run':<34} {'seconds':>8} {'per minute':>11}")
    for name, seconds in results.items():
        print(f"{name:<34} {seconds:8.1f} {n / seconds * 60:11.1f}")
    print()
    for mode in modes:
        t1 = results[f"grade --jobs 1 --sandbox {mode}"]
        t2 = results[f"grade --jobs 2 --sandbox {mode}"]
        print(f"--sandbox {mode}:")
        print(f"  overhead of grading over jupyter execute: {t1 / t_exec - 1:+.1%} "
              "(goal: under 20%)")
        print(f"  speed-up of --jobs 2 over --jobs 1:       {t1 / t2:.2f}x "
              "(goal: at least 1.7x)")
    if len(modes) == 2:
        cost = (results["grade --jobs 1 --sandbox bwrap"]
                / results["grade --jobs 1 --sandbox none"] - 1)
        print(f"cost of the sandbox (--jobs 1):             {cost:+.1%}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
