"""Benchmark of the ranking core (course_lib.roc, course_lib.pr) against scikit-learn.

Run: ``.venv/bin/python tests/benchmarks/bench_ranking.py [n]`` (default n = 10**7).

All timings come from one run on the same data: each function is timed ``REPEAT`` times
and the best time is kept. Ratios are printed against ``sklearn.metrics`` and against one
``numpy.sort`` of the scores (the floor: any exact AUC must at least sort the scores).
Targets (issue 3): roc_auc >= 8x faster than roc_auc_score and <= 5x one sort;
roc_curve >= 3x faster than roc_curve(drop_intermediate=False); auc_pairwise on
10**4 x 10**4 pairs <= 3 s and <= 256 MiB peak.
"""

from __future__ import annotations

import sys
import time
import tracemalloc

import numpy as np
from sklearn import metrics

from course_lib import (
    auc_ci_delong,
    auc_pairwise,
    average_precision,
    gain_curve,
    ks_statistic,
    platt_scaling,
    pr_curve,
    roc_auc,
    roc_curve,
)

REPEAT = 3


def best_time(func, *args, **kwargs) -> tuple[float, object]:
    """Best wall time of REPEAT calls, and the last result."""
    times = []
    for _ in range(REPEAT):
        start = time.perf_counter()
        result = func(*args, **kwargs)
        times.append(time.perf_counter() - start)
    return min(times), result


def row(name: str, ours: float, theirs: float | None, sort: float) -> None:
    vs = f"{theirs / ours:7.1f}x faster" if theirs is not None else " " * 14
    print(f"{name:<34s} {ours:8.3f} s  {vs}  {ours / sort:6.2f} x one sort")


def main(n: int) -> None:
    rng = np.random.default_rng(20240101)
    scores = np.round(rng.random(n), 3)  # 1001 distinct values: heavy ties
    labels = rng.random(n) < 0.3 + 0.4 * scores
    weights = rng.integers(1, 5, size=n).astype(float)
    print(f"n = {n:,} scores, {np.unique(scores).size} distinct, {labels.mean():.3f} positive")
    print(f"{'function':<34s} {'time':>10s}  {'vs sklearn':>14s}  {'vs np.sort':>16s}")

    t_sort, _ = best_time(np.sort, scores)
    print(f"{'numpy.sort (reference)':<34s} {t_sort:8.3f} s")

    t_ours, auc = best_time(roc_auc, labels, scores)
    t_sk, auc_sk = best_time(metrics.roc_auc_score, labels, scores)
    assert abs(auc - auc_sk) < 1e-12
    row("roc_auc", t_ours, t_sk, t_sort)
    print(f"{'  sklearn roc_auc_score':<34s} {t_sk:8.3f} s")

    t_ours, _ = best_time(roc_auc, labels, scores, exact=True)
    row("roc_auc(exact=True)", t_ours, t_sk, t_sort)

    t_ours, auc = best_time(roc_auc, labels, scores, sample_weight=weights)
    t_sk, auc_sk = best_time(metrics.roc_auc_score, labels, scores, sample_weight=weights)
    assert abs(auc - auc_sk) < 1e-12
    row("roc_auc(sample_weight)", t_ours, t_sk, t_sort)

    t_ours, curve = best_time(roc_curve, labels, scores)
    t_sk, curve_sk = best_time(metrics.roc_curve, labels, scores, drop_intermediate=False)
    assert np.allclose(curve.tpr, curve_sk[1], rtol=0, atol=1e-12)
    row("roc_curve", t_ours, t_sk, t_sort)
    print(f"{'  sklearn roc_curve(no drop)':<34s} {t_sk:8.3f} s")

    t_ours, ap = best_time(average_precision, labels, scores)
    t_sk, ap_sk = best_time(metrics.average_precision_score, labels, scores)
    assert abs(ap - ap_sk) < 1e-12
    row("average_precision", t_ours, t_sk, t_sort)

    # issue 11: every curve and area, weighted or not, and DeLong, against one sort
    t_ours, ap = best_time(average_precision, labels, scores, sample_weight=weights)
    t_sk, ap_sk = best_time(
        metrics.average_precision_score, labels, scores, sample_weight=weights
    )
    assert abs(ap - ap_sk) < 1e-12
    row("average_precision(sample_weight)", t_ours, t_sk, t_sort)
    t_ours, curve = best_time(roc_curve, labels, scores, sample_weight=weights)
    t_sk, curve_sk = best_time(
        metrics.roc_curve, labels, scores, sample_weight=weights, drop_intermediate=False
    )
    assert np.allclose(curve.tpr, curve_sk[1], rtol=0, atol=1e-12)
    row("roc_curve(sample_weight)", t_ours, t_sk, t_sort)
    t_ours, _ = best_time(pr_curve, labels, scores)
    row("pr_curve", t_ours, None, t_sort)
    t_ours, _ = best_time(pr_curve, labels, scores, sample_weight=weights)
    row("pr_curve(sample_weight)", t_ours, None, t_sort)
    t_ours, _ = best_time(gain_curve, labels, scores, sample_weight=weights)
    row("gain_curve(sample_weight)", t_ours, None, t_sort)
    t_ours, _ = best_time(ks_statistic, labels, scores, sample_weight=weights)
    row("ks_statistic(sample_weight)", t_ours, None, t_sort)
    t_ours, ci = best_time(auc_ci_delong, labels, scores)
    assert abs(ci.auc - roc_auc(labels, scores)) < 1e-12
    row("auc_ci_delong", t_ours, None, t_sort)

    m = 10**4
    y_pairs = np.r_[np.ones(m, bool), np.zeros(m, bool)]
    s_pairs = np.round(rng.normal(size=2 * m) + y_pairs, 2)
    t_pairs, auc = best_time(auc_pairwise, y_pairs, s_pairs)
    assert auc == roc_auc(y_pairs, s_pairs)
    tracemalloc.start()
    auc_pairwise(y_pairs, s_pairs)
    peak = tracemalloc.get_traced_memory()[1] / 2**20
    tracemalloc.stop()
    print(f"auc_pairwise, {m:,} x {m:,} pairs      {t_pairs:8.3f} s  peak {peak:.1f} MiB")
    platt(10**6)


def platt(n: int) -> None:
    """platt_scaling against scikit-learn's unpenalized LogisticRegression fit
    (target of issue 20: at most 3x), on n scores of a logistic model."""
    from sklearn.linear_model import LogisticRegression

    rng = np.random.default_rng(20)
    s = rng.normal(size=n)
    y = rng.random(n) < 1 / (1 + np.exp(-2 * s))
    t_ours, m = best_time(platt_scaling, y, s, targets="labels")
    t_sk, lr = best_time(LogisticRegression(C=np.inf).fit, s[:, None], y)
    assert abs(m.a - lr.coef_[0, 0]) < 1e-3 * abs(m.a)  # lbfgs stops at tol=1e-4
    print(f"{'platt_scaling (n = ' + f'{n:,})':<34s} {t_ours:8.3f} s  "
          f"{t_ours / t_sk:5.2f} x LogisticRegression ({t_sk:.3f} s)")


if __name__ == "__main__":
    main(int(float(sys.argv[1])) if len(sys.argv) > 1 else 10**7)
