"""Benchmark of course_lib.gains: the KS statistic and the gains table on many scores.

Run: ``.venv/bin/python tests/benchmarks/bench_gains.py [n]`` (default n = 10**7).

All timings come from one run on the same data: each function is timed ``REPEAT`` times
and the best time is kept. Ratios are printed against one ``numpy.sort`` of the scores
and, for the KS statistic, against the usual scikit-learn recipe
``max(tpr - fpr)`` of ``sklearn.metrics.roc_curve``. Target (issue 4): ``gains_table``
and ``ks_statistic`` at most 5x one sort. Three data sets: heavy ties (1001 distinct
scores), distinct scores, and distinct scores with 3% positives (source G's setting).
"""

from __future__ import annotations

import sys
import time

import numpy as np
from sklearn import metrics

from course_lib import gain_curve, gains_table, ks_curve, ks_statistic

REPEAT = 3


def best_time(func, *args, **kwargs) -> tuple[float, object]:
    """Best wall time of REPEAT calls, and the last result."""
    times = []
    for _ in range(REPEAT):
        start = time.perf_counter()
        result = func(*args, **kwargs)
        times.append(time.perf_counter() - start)
    return min(times), result


def row(name: str, ours: float, sort: float, theirs: float | None = None) -> None:
    vs = f"{theirs / ours:7.1f}x faster" if theirs is not None else " " * 14
    print(f"{name:<30s} {ours:8.3f} s  {ours / sort:6.2f} x one sort  {vs}")


def sklearn_ks(labels: np.ndarray, scores: np.ndarray) -> float:
    fpr, tpr, _ = metrics.roc_curve(labels, scores)
    return float(np.max(tpr - fpr))


def bench(title: str, labels: np.ndarray, scores: np.ndarray) -> None:
    print(
        f"\n{title}: n = {scores.size:,}, {np.unique(scores).size:,} distinct scores, "
        f"{labels.mean():.3f} positive"
    )
    print(f"{'function':<30s} {'time':>10s}  {'vs np.sort':>16s}  {'vs sklearn':>14s}")
    t_sort, _ = best_time(np.sort, scores)
    print(f"{'numpy.sort (reference)':<30s} {t_sort:8.3f} s")

    t_ks, ks = best_time(ks_statistic, labels, scores)
    t_sk, ks_sk = best_time(sklearn_ks, labels, scores)
    assert abs(ks - ks_sk) < 1e-12
    row("ks_statistic", t_ks, t_sort, t_sk)
    print(f"{'  sklearn max(tpr - fpr)':<30s} {t_sk:8.3f} s")

    t_table, table = best_time(gains_table, labels, scores, n_bins=10)
    assert int(table["N"].sum()) == scores.size
    row("gains_table(n_bins=10)", t_table, t_sort)
    t_table, _ = best_time(gains_table, labels, scores, n_bins=1000)
    row("gains_table(n_bins=1000)", t_table, t_sort)

    t_curve, curve = best_time(ks_curve, labels, scores)
    assert abs(curve.ks - ks) < 1e-12
    row("ks_curve (all vertices)", t_curve, t_sort)
    t_curve, _ = best_time(gain_curve, labels, scores)
    row("gain_curve (all vertices)", t_curve, t_sort)


def main(n: int) -> None:
    rng = np.random.default_rng(20240104)
    scores = np.round(rng.random(n), 3)
    bench("heavy ties", rng.random(n) < 0.3 + 0.4 * scores, scores)
    scores = rng.random(n)
    bench("distinct scores", rng.random(n) < 0.3 + 0.4 * scores, scores)
    bench("distinct scores, 3% positive", rng.random(n) < 0.06 * scores, scores)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 10**7)
