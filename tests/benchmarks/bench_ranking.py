"""Benchmark of the ranking core (course_lib.roc, course_lib.pr, DeLong) against one
``numpy.sort`` of the same scores, and of ``platt_scaling`` against scikit-learn.

Run: ``.venv/bin/python tests/benchmarks/bench_ranking.py [n] [--cpus] [--extended]
[--sort-path]`` (default n = 10**7 scores with ties: 1,001 distinct values).

With many objects and few distinct scores (the data here) the groups of equal scores
are counted through a hash table, no sort of the objects; ``--sort-path`` turns that
off, so the table shows the path every other input takes (one sort of int64 keys that
hold each score's order and label; without weights) and, with weights, the older
``pandas.factorize`` path.

Targets (issue 20, item 6), each a ratio to one ``numpy.sort`` of the scores measured
in the same run on the same data: ``roc_auc`` at most 1.5x; ``roc_curve``,
``average_precision``, ``roc_auc(sample_weight=...)`` and ``auc_ci_delong`` at most 2x;
``platt_scaling`` on 10**6 scores at most 3x scikit-learn's ``LogisticRegression`` fit.
They must hold both where numpy sorts with SIMD instructions and where it does not.

Timing: ``ROUNDS`` rounds, each timing ``numpy.sort`` and then every function once;
each time reported is the best of its rounds, as wall time and as the process's CPU
time (``time.process_time``: user and system, page faults included, but not the time
the process waits for a core). Interleaving keeps the ratios sound on a shared machine
whose load changes during the run; the CPU-time ratio is the steadier one there (the
wall-time ratio of a memory-bound pass and of a sort move apart with the load). The
load average is printed with the table. The targets are judged on the CPU-time ratio;
both are printed.

CPU features (``--cpus``): the script runs itself once per line of ``CONFIGS``, each in
a fresh interpreter with ``NPY_DISABLE_CPU_FEATURES`` set, which makes numpy dispatch
as on a processor without those features (numpy 2.4 names its x86 levels ``X86_V2``
(baseline), ``X86_V3`` (AVX2), ``X86_V4`` (AVX-512 F/CD/BW/DQ/VL), ``AVX512_ICL``,
``AVX512_SPR``; ``numpy.show_runtime()`` lists them). numpy sorts float64 and int64
with x86-simd-sort's AVX-512 kernels when ``X86_V4`` is there, with its AVX2 kernels
when only ``X86_V3`` is, and with its scalar introsort below. Each table says which
kernels numpy used and how long one sort took.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np

ROUNDS = 5

#: (name, NPY_DISABLE_CPU_FEATURES) for ``--cpus``.
CONFIGS = (
    ("all features of this processor", ""),
    ("no AVX-512 (numpy sorts with AVX2)", "X86_V4 AVX512_ICL AVX512_SPR"),
    ("no AVX-512, no AVX2 (scalar sort)", "X86_V3 X86_V4 AVX512_ICL AVX512_SPR"),
)

#: The targets of issue 20, as ratios to one numpy.sort.
TARGETS = {
    "roc_auc": 1.5,
    "roc_curve": 2.0,
    "average_precision": 2.0,
    "roc_auc(sample_weight)": 2.0,
    "auc_ci_delong": 2.0,
}


def sort_kernel() -> str:
    """Which x86-simd-sort kernels numpy dispatches ``numpy.sort`` of float64 to."""
    from numpy._core._multiarray_umath import __cpu_features__ as cpu

    if cpu.get("X86_V4"):  # the levels, not the single flags, say what numpy dispatches to
        return "AVX-512 (X86_V4)"
    if cpu.get("X86_V3"):
        return "AVX2 (X86_V3)"
    return "scalar introsort"


def interleaved(
    funcs: dict[str, Callable[[], object]], rounds: int = ROUNDS
) -> tuple[dict[str, float], dict[str, float]]:
    """Best wall time and best CPU time of each function over ``rounds`` rounds that
    time them in turn."""
    wall = dict.fromkeys(funcs, float("inf"))
    cpu = dict.fromkeys(funcs, float("inf"))
    for _ in range(rounds):
        for name, func in funcs.items():
            start, start_cpu = time.perf_counter(), time.process_time()
            func()
            cpu[name] = min(cpu[name], time.process_time() - start_cpu)
            wall[name] = min(wall[name], time.perf_counter() - start)
    return wall, cpu


def data(n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(20240101)
    scores = np.round(rng.random(n), 3)  # 1001 distinct values: heavy ties
    labels = rng.random(n) < 0.3 + 0.4 * scores
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


def ranking_table(n: int, check: bool = True) -> bool:
    """Print the ratio table of the five ranking functions; True when all meet their target."""
    from course_lib import auc_ci_delong, average_precision, roc_auc, roc_curve

    labels, scores, weights = data(n)
    if check:
        check_against_sklearn(labels, scores, weights)
    times, cpu = interleaved(
        {
            "numpy.sort": lambda: np.sort(scores),
            "roc_auc": lambda: roc_auc(labels, scores),
            "roc_curve": lambda: roc_curve(labels, scores),
            "average_precision": lambda: average_precision(labels, scores),
            "roc_auc(sample_weight)": lambda: roc_auc(labels, scores, sample_weight=weights),
            "auc_ci_delong": lambda: auc_ci_delong(labels, scores),
        }
    )
    sort, sort_cpu = times.pop("numpy.sort"), cpu.pop("numpy.sort")
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"n = {n:,} scores, {np.unique(scores).size:,} distinct, "
          f"{labels.mean():.3f} positive; best of {ROUNDS} interleaved rounds")
    print(f"numpy.sort kernels: {sort_kernel()}; "
          f"NPY_DISABLE_CPU_FEATURES={os.environ.get('NPY_DISABLE_CPU_FEATURES', '')!r}; "
          f"load average (1, 5, 15 min): {load} on {os.cpu_count()} cores")
    print(f"{'function':<26s} {'CPU time':>9s} {'x one sort':>11s} {'target':>7s}"
          f" {'wall time':>10s} {'x one sort':>11s}")
    print(f"{'numpy.sort (reference)':<26s} {sort_cpu:8.3f}s {1:10.2f}x {'':>7s}"
          f" {sort:9.3f}s {1:10.2f}x")
    ok = True
    for name, t in times.items():
        ratio = cpu[name] / sort_cpu
        met = ratio <= TARGETS[name]
        ok &= met
        print(f"{name:<26s} {cpu[name]:8.3f}s {ratio:10.2f}x {TARGETS[name]:6.1f}x"
              f" {t:9.3f}s {t / sort:10.2f}x{'' if met else '  MISSED'}")
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

    times, cpu = interleaved({"platt_scaling": ours, "LogisticRegression.fit": theirs})
    a, lr = fitted["ours"].a, fitted["sklearn"]
    assert abs(a - lr.coef_[0, 0]) < 1e-3 * abs(a)  # lbfgs stops at tol=1e-4
    t_ours, t_sk = times["platt_scaling"], times["LogisticRegression.fit"]
    c_ours, c_sk = cpu["platt_scaling"], cpu["LogisticRegression.fit"]
    label = f"platt_scaling, n = {n:.0e}"
    print(f"{label:<26s} {c_ours:8.3f}s {c_ours / c_sk:10.2f}x {3.0:6.1f}x"
          f" {t_ours:9.3f}s {t_ours / t_sk:10.2f}x  (ratio to LogisticRegression(C=inf).fit:"
          f" {c_sk:.3f}s CPU, {t_sk:.3f}s wall; both may use the 2 cores)")


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

    labels, scores, weights = data(n)
    times, _ = interleaved(
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
    t_pairs = interleaved({"pairs": lambda: auc_pairwise(y_pairs, s_pairs)}, rounds=3)[0]["pairs"]
    assert auc_pairwise(y_pairs, s_pairs) == roc_auc(y_pairs, s_pairs)
    tracemalloc.start()
    auc_pairwise(y_pairs, s_pairs)
    peak = tracemalloc.get_traced_memory()[1] / 2**20
    tracemalloc.stop()
    print(f"auc_pairwise, {m:,} x {m:,} pairs  {t_pairs:8.3f}s  peak {peak:.1f} MiB")


def main(argv: list[str]) -> int:
    args = [a for a in argv if not a.startswith("--")]
    n = int(float(args[0])) if args else 10**7
    if "--cpus" in argv:
        ok = True
        rest = [a for a in argv if a in ("--sort-path", "--extended")]
        for name, disabled in CONFIGS:
            print(f"\n== {name} ==", flush=True)
            env = dict(os.environ, NPY_DISABLE_CPU_FEATURES=disabled)
            run = subprocess.run([sys.executable, __file__, str(n), *rest], env=env)
            ok &= run.returncode == 0
        return 0 if ok else 1
    if "--sort-path" in argv:
        from course_lib import _groups

        _groups._hashed_groups = lambda y, s, w: None
        print("(--sort-path: the hash table is off)")
    ok = ranking_table(n)
    platt()
    if "--extended" in argv:
        extended(n)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
