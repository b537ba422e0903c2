"""Benchmark of the ranking core against one ``numpy.sort`` of the same scores (issue
29, item 4), with scikit-learn on the same data, and of ``platt_scaling``.

Run: ``.venv/bin/python tests/benchmarks/bench_ranking.py [n] [--quick] [--extended]``
(default n = 10**7). It prints one table with four columns, each a ratio of CPU time
to one ``numpy.sort`` of the same scores measured in the same run:

* scores **tied**, ``np.round(rng.random(n) + 0.2 * y, 4)`` (12,001 distinct values),
  and **distinct**, ``rng.random(n) + 0.2 * y`` (continuous probabilities);
* numpy's **default** dispatch (on an AVX-512 processor its AVX-512 sort, which on some
  of them is 5x slower than its AVX2 sort) and **AVX2** only
  (``NPY_DISABLE_CPU_FEATURES="X86_V4 AVX512_ICL AVX512_SPR"``: the fastest sort
  such a machine has).

Each column runs in a fresh interpreter with its own ``NPY_DISABLE_CPU_FEATURES``.
Labels ``y = rng.random(n) < 0.3``; weights ``rng.integers(1, 5, n)`` (as floats).

Targets (issue 29): ``roc_auc`` at most 1.5x; ``roc_curve``, ``average_precision``,
``auc_ci_delong`` and ``roc_auc(sample_weight=...)`` at most 2x, in all four columns.
Rows below the line are for comparison (scikit-learn's ``roc_auc_score`` and
``roc_curve``; ``evaluate`` with all its views).

Timing: ``ROUNDS`` rounds, each timing ``numpy.sort`` and then every function once;
each time reported is the best of its rounds as the process's CPU time
(``time.process_time``: user and system, page faults included, but not the time the
process waits for a core). Interleaving keeps the ratios sound on a shared machine
whose load changes during the run. The load average is printed with the table. Every
timed result is first checked against scikit-learn (not timed).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np

ROUNDS = 5

#: The columns: (data, dispatch name, NPY_DISABLE_CPU_FEATURES).
COLUMNS = (
    ("tied", "default", ""),
    ("tied", "AVX2", "X86_V4 AVX512_ICL AVX512_SPR"),
    ("distinct", "default", ""),
    ("distinct", "AVX2", "X86_V4 AVX512_ICL AVX512_SPR"),
)

#: The targets of issue 29, as ratios to one numpy.sort.
TARGETS = {
    "roc_auc": 1.5,
    "roc_curve": 2.0,
    "average_precision": 2.0,
    "auc_ci_delong": 2.0,
    "roc_auc(sample_weight)": 2.0,
}


def sort_kernel() -> str:
    """Which x86-simd-sort kernels numpy dispatches ``numpy.sort`` of float64 to."""
    from numpy._core._multiarray_umath import __cpu_features__ as cpu

    if cpu.get("X86_V4"):  # the levels, not the single flags, say what numpy dispatches to
        return "AVX-512"
    if cpu.get("X86_V3"):
        return "AVX2"
    return "scalar"


def interleaved(
    funcs: dict[str, Callable[[], object]], rounds: int = ROUNDS
) -> dict[str, float]:
    """Best CPU time of each function over ``rounds`` rounds that time them in turn."""
    cpu = dict.fromkeys(funcs, float("inf"))
    for _ in range(rounds):
        for name, func in funcs.items():
            start = time.process_time()
            func()
            cpu[name] = min(cpu[name], time.process_time() - start)
    return cpu


def data(n: int, kind: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The issue's data: labels, scores (``tied`` or ``distinct``) and weights."""
    rng = np.random.default_rng(20240101)
    labels = rng.random(n) < 0.3
    scores = rng.random(n) + 0.2 * labels
    if kind == "tied":
        scores = np.round(scores, 4)
    weights = rng.integers(1, 5, size=n).astype(float)
    return labels, scores, weights


def check_against_sklearn(labels: np.ndarray, scores: np.ndarray, weights: np.ndarray) -> None:
    """The timed results are scikit-learn's (once each, not timed)."""
    from sklearn import metrics

    from course_lib import auc_ci_delong, average_precision, roc_auc, roc_curve

    auc = metrics.roc_auc_score(labels, scores)
    assert abs(roc_auc(labels, scores) - auc) < 1e-12
    assert abs(auc_ci_delong(labels, scores).auc - auc) < 1e-12
    assert abs(
        roc_auc(labels, scores, sample_weight=weights)
        - metrics.roc_auc_score(labels, scores, sample_weight=weights)
    ) < 1e-12
    ap = metrics.average_precision_score(labels, scores)
    assert abs(average_precision(labels, scores) - ap) < 1e-12
    _, tpr, _ = metrics.roc_curve(labels, scores, drop_intermediate=False)
    assert np.allclose(roc_curve(labels, scores).tpr, tpr, rtol=0, atol=1e-12)


def column(n: int, kind: str, check: bool = True) -> dict[str, float]:
    """Ratios to one numpy.sort for one column (this process's dispatch)."""
    from sklearn import metrics

    from course_lib import auc_ci_delong, average_precision, evaluate, roc_auc, roc_curve

    labels, scores, weights = data(n, kind)
    if check:
        check_against_sklearn(labels, scores, weights)

    def every_view() -> None:
        e = evaluate(labels, scores)
        for view in ("roc_curve", "pr_curve", "gain_curve", "ks_curve", "roc_auc",
                     "average_precision", "gains_table", "auc_ci_delong"):
            getattr(e, view)()

    cpu = interleaved({
        "numpy.sort": lambda: np.sort(scores),
        "roc_auc": lambda: roc_auc(labels, scores),
        "roc_curve": lambda: roc_curve(labels, scores),
        "average_precision": lambda: average_precision(labels, scores),
        "auc_ci_delong": lambda: auc_ci_delong(labels, scores),
        "roc_auc(sample_weight)": lambda: roc_auc(labels, scores, sample_weight=weights),
        "sklearn roc_auc_score": lambda: metrics.roc_auc_score(labels, scores),
        "sklearn roc_curve": lambda: metrics.roc_curve(labels, scores, drop_intermediate=False),
        "evaluate, 8 views": every_view,
    })
    sort = cpu.pop("numpy.sort")
    out = {name: t / sort for name, t in cpu.items()}
    out["numpy.sort seconds"] = sort
    return out


def ranking_table(n: int, check: bool = True) -> bool:
    """Run the four columns (one subprocess each) and print the table; True when every
    target is met."""
    results = []
    for kind, dispatch, disabled in COLUMNS:
        env = dict(os.environ, NPY_DISABLE_CPU_FEATURES=disabled)
        args = [sys.executable, __file__, str(n), "--column", kind]
        if not check:
            args.append("--quick")
        run = subprocess.run(args, env=env, capture_output=True, text=True, check=True)
        line = run.stdout.strip().splitlines()[-1]
        results.append((kind, dispatch, json.loads(line)))
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"n = {n:,} scores, CPU time as a ratio to one numpy.sort of the same scores, best "
          f"of {ROUNDS} interleaved rounds; load average {load} on {os.cpu_count()} cores")
    head = [f"{k}, {d} ({r['kernel']})" for k, d, r in results]
    width = max(len(h) for h in head) + 1
    print(f"{'':<26s}" + "".join(f"{h:>{width}s}" for h in head) + "  target")
    print(f"{'numpy.sort (seconds)':<26s}"
          + "".join(f"{r['numpy.sort seconds']:>{width}.3f}" for _, _, r in results))
    ok = True
    names = [k for k in results[0][2] if k not in ("numpy.sort seconds", "kernel")]
    for name in names:
        if name == "sklearn roc_auc_score":
            print("-" * (26 + width * len(results)))
        target = TARGETS.get(name)
        cells = []
        for _, _, r in results:
            met = target is None or r[name] <= target
            ok &= met
            cells.append(f"{r[name]:.2f}x{'' if met else '!'}")
        print(f"{name:<26s}" + "".join(f"{c:>{width}s}" for c in cells)
              + (f"  {target:.1f}x" if target else ""))
    print("(! marks a ratio above its target)")
    return ok


def platt(n: int = 10**6) -> None:
    """platt_scaling against scikit-learn's unpenalized LogisticRegression fit
    (target of issue 20: at most 3x), on n scores of a logistic model."""
    from sklearn.linear_model import LogisticRegression

    from course_lib import platt_scaling

    rng = np.random.default_rng(20)
    s = rng.normal(size=n)
    y = rng.random(n) < 1 / (1 + np.exp(-2 * s))
    fitted: dict[str, Any] = {}

    def ours() -> None:
        fitted["ours"] = platt_scaling(y, s, targets="labels")

    def theirs() -> None:
        fitted["sklearn"] = LogisticRegression(C=np.inf).fit(s[:, None], y)

    cpu = interleaved({"platt_scaling": ours, "LogisticRegression.fit": theirs})
    a, lr = fitted["ours"].a, fitted["sklearn"]
    assert abs(a - lr.coef_[0, 0]) < 1e-3 * abs(a)  # lbfgs stops at tol=1e-4
    c_ours, c_sk = cpu["platt_scaling"], cpu["LogisticRegression.fit"]
    print(f"platt_scaling, n = {n:.0e}: {c_ours:.3f}s CPU, {c_ours / c_sk:.2f}x scikit-learn's "
          f"LogisticRegression(C=inf).fit ({c_sk:.3f}s; target 3.0x; both may use the 2 cores)")


def extended(n: int) -> None:
    """The rows of earlier issues: speed-ups over scikit-learn, the other curves,
    ``exact=True`` and ``auc_pairwise`` (issue 3: 10**4 x 10**4 pairs in <= 3 s)."""
    import tracemalloc

    from sklearn import metrics

    from course_lib import (
        auc_pairwise,
        gain_curve,
        ks_statistic,
        pr_curve,
        roc_auc,
        roc_curve,
    )

    labels, scores, weights = data(n, "tied")
    times = interleaved(
        {
            "numpy.sort": lambda: np.sort(scores),
            "roc_auc(exact=True)": lambda: roc_auc(labels, scores, exact=True),
            "roc_curve(sample_weight)": lambda: roc_curve(labels, scores, sample_weight=weights),
            "pr_curve": lambda: pr_curve(labels, scores),
            "pr_curve(sample_weight)": lambda: pr_curve(labels, scores, sample_weight=weights),
            "gain_curve(sample_weight)": lambda: gain_curve(labels, scores, sample_weight=weights),
            "ks_statistic(sample_weight)": lambda: ks_statistic(labels, scores,
                                                                sample_weight=weights),
            "sklearn roc_auc_score": lambda: metrics.roc_auc_score(labels, scores),
            "sklearn roc_curve": lambda: metrics.roc_curve(labels, scores,
                                                           drop_intermediate=False),
        },
        rounds=3,
    )
    sort = times.pop("numpy.sort")
    for name, t in times.items():
        print(f"{name:<28s} {t:8.3f}s {t / sort:8.2f}x one sort")
    m = 10**4
    rng = np.random.default_rng(3)
    y_pairs = np.r_[np.ones(m, bool), np.zeros(m, bool)]
    s_pairs = np.round(rng.normal(size=2 * m) + y_pairs, 2)
    t_pairs = interleaved({"pairs": lambda: auc_pairwise(y_pairs, s_pairs)}, rounds=3)["pairs"]
    assert auc_pairwise(y_pairs, s_pairs) == roc_auc(y_pairs, s_pairs)
    tracemalloc.start()
    auc_pairwise(y_pairs, s_pairs)
    peak = tracemalloc.get_traced_memory()[1] / 2**20
    tracemalloc.stop()
    print(f"auc_pairwise, {m:,} x {m:,} pairs  {t_pairs:8.3f}s  peak {peak:.1f} MiB")


def main(argv: list[str]) -> int:
    args = [a for a in argv if not a.startswith("--")]
    n = int(float(args[0])) if args else 10**7
    if "--column" in argv:  # one column, in this process's dispatch: JSON on stdout
        kind = argv[argv.index("--column") + 1]
        out = column(n, kind, check="--quick" not in argv)
        out["kernel"] = sort_kernel()  # type: ignore[assignment]
        print(json.dumps(out))
        return 0
    ok = ranking_table(n, check="--quick" not in argv)
    platt()
    if "--extended" in argv:
        extended(n)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
