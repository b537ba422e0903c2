"""Benchmark of course_lib.inference: DeLong's interval against one numpy.sort.

Run: ``python tests/benchmarks/bench_inference.py``. Times are the best of several
repeats on the same data, in one run; the target is ``auc_ci_delong`` on 10^6 scores
in at most 10 times one ``numpy.sort`` of them. scikit-learn's ``roc_auc_score``
(AUC only, no variance) is printed as a reference, and the bootstrap for scale.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np
from sklearn.metrics import roc_auc_score

from course_lib.inference import auc_ci_bootstrap, auc_ci_delong


def best_time(func: Callable[[], object], repeat: int = 7) -> float:
    """Best wall time of ``repeat`` calls, in seconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        func()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    rng = np.random.default_rng(20240601)
    n = 1_000_000
    y = rng.random(n) < 0.3
    continuous = rng.normal(size=n) + y
    cases = {
        "continuous scores": continuous,
        "scores rounded to 2 decimals (heavy ties)": np.round(continuous, 2),
    }
    for name, s in cases.items():
        t_sort = best_time(lambda s=s: np.sort(s))
        t_delong = best_time(lambda s=s: auc_ci_delong(y, s))
        t_sklearn = best_time(lambda s=s: roc_auc_score(y, s))
        print(f"n = {n:,}, {name}, {y.mean():.0%} positives")
        print(f"  numpy.sort          {t_sort * 1e3:8.1f} ms   1.0 x sort")
        print(
            f"  auc_ci_delong       {t_delong * 1e3:8.1f} ms {t_delong / t_sort:5.1f} x sort"
            f"   {t_delong / t_sklearn:5.2f} x sklearn"
        )
        print(f"  sklearn roc_auc     {t_sklearn * 1e3:8.1f} ms {t_sklearn / t_sort:5.1f} x sort")
    n_small = 1_000
    y_small, s_small = y[:n_small], continuous[:n_small]
    t_boot = best_time(lambda: auc_ci_bootstrap(y_small, s_small, seed=0), repeat=3)
    print(f"n = {n_small:,}: auc_ci_bootstrap (2000 resamples) {t_boot * 1e3:.1f} ms")


if __name__ == "__main__":
    main()
