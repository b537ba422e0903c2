"""Uncertainty of the AUC: DeLong's variance and interval, the bootstrap, the paired test.

The empirical AUC is a two-sample U-statistic, and DeLong, DeLong and Clarke-Pearson
(1988) estimate its variance from *placement values*. For a positive ``i`` its placement

    V10[i] = (#negatives scored below s_i + 1/2 #negatives tied with s_i) / m0

is the share of negatives it beats (the specificity at the threshold s_i); for a
negative ``j``

    V01[j] = (#positives scored above s_j + 1/2 #positives tied with s_j) / m1

is the share of positives that beat it. Both average to the AUC, and

    Var(AUC) ~ var(V10) / m1 + var(V01) / m0        (sample variances, ddof = 1).

A placement depends only on the object's score, so :func:`auc_ci_delong` computes one
per group of equal scores, from the same grouping as every curve
(:func:`course_lib._groups.score_groups`): the cost is that of :func:`roc_auc`. The
paired test needs every object's placement in input order; those come from sorting
each class and merging the two sorted runs. Either way no m0 x m1 matrix is ever
formed.

Intervals are Wald intervals ``AUC +- z * SE`` with ``z`` the normal quantile; an AUC
lives in [0, 1], so the interval is clipped to [0, 1] (as pROC does). Near 0 or 1 the
normal approximation is poor and the clipped interval should be read with care.
"""

from __future__ import annotations

import math
import numbers
import warnings
from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np
import pandas as pd
from scipy.special import ndtr, ndtri  # standard normal CDF and quantile

from ._checks import (
    UndefinedMetricWarning,
    check_binary,
    check_flag,
    check_labels,
    check_scores,
    check_seed,
    has_both_classes,
)
from ._groups import score_groups

__all__ = [
    "DeLongCI",
    "BootstrapCI",
    "DeLongTest",
    "auc_ci_delong",
    "auc_ci_bootstrap",
    "delong_test",
    "simulate_intervals",
    "interval_coverage",
]

#: Columns of :func:`simulate_intervals`: the AUC, then DeLong's and the bootstrap's ends.
INTERVAL_COLUMNS = ("auc", "dl_low", "dl_high", "bs_low", "bs_high")


class DeLongCI(NamedTuple):
    """AUC, its DeLong confidence interval (clipped to [0, 1]) and variance."""

    auc: float
    low: float
    high: float
    variance: float


class BootstrapCI(NamedTuple):
    """AUC of the data and the bootstrap percentile interval around it."""

    auc: float
    low: float
    high: float


class DeLongTest(NamedTuple):
    """Paired DeLong test of AUC(a) - AUC(b) = 0 and a confidence interval of the difference."""

    z: float
    p_value: float
    difference: float
    low: float
    high: float


def _check_level(level: float) -> float:
    if not isinstance(level, numbers.Real) or not 0 < level < 1:
        raise ValueError(f"level must be a number strictly between 0 and 1, got {level!r}")
    return float(level)


def _placements(
    y: np.ndarray, s: np.ndarray, *, in_order: bool = False
) -> tuple[np.ndarray, np.ndarray]:
    """Placement values ``(V10, V01)`` of the positives and of the negatives.

    Both classes must be present. Each class is sorted, then the two sorted runs are
    merged by a stable sort (numpy's timsort merges two runs in linear time) twice:
    negatives first, then positives first among equal scores. In a merged order the
    ``j``-th positive at position ``k`` has ``k - j`` negatives before it: those
    scored at most its score when negatives go first among ties, those scored strictly
    below when positives go first; symmetrically for the negatives.

    By default both arrays are in increasing score order (the variance does not depend
    on order); with ``in_order=True`` ``V10[k]`` belongs to the ``k``-th positive of
    the input and ``V01[k]`` to its ``k``-th negative, which pairing two scores needs.
    """
    pos_s, neg_s = s[y], s[~y]
    if in_order:
        pos_order = np.argsort(pos_s, kind="stable")
        neg_order = np.argsort(neg_s, kind="stable")
        pos, neg = pos_s[pos_order], neg_s[neg_order]
    else:
        pos, neg = np.sort(pos_s), np.sort(neg_s)
    m1, m0 = pos.size, neg.size
    is_pos_neg_first = np.argsort(np.concatenate([neg, pos]), kind="stable") >= m0
    is_pos_pos_first = np.argsort(np.concatenate([pos, neg]), kind="stable") < m1
    rank1, rank0 = np.arange(m1), np.arange(m0)
    neg_upto = np.flatnonzero(is_pos_neg_first) - rank1  # negatives <= each positive
    neg_below = np.flatnonzero(is_pos_pos_first) - rank1  # negatives < each positive
    pos_below = np.flatnonzero(~is_pos_neg_first) - rank0  # positives < each negative
    pos_upto = np.flatnonzero(~is_pos_pos_first) - rank0  # positives <= each negative
    v10 = (neg_below + neg_upto) / (2.0 * m0)
    v01 = 1.0 - (pos_below + pos_upto) / (2.0 * m1)
    if in_order:
        v10_input, v01_input = np.empty(m1), np.empty(m0)
        v10_input[pos_order] = v10
        v01_input[neg_order] = v01
        return v10_input, v01_input
    return v10, v01


def _needs_two_per_class(y: np.ndarray, what: str) -> bool:
    """False (with a warning) when a class has fewer than two members: no sample variance."""
    m1 = int(np.count_nonzero(y))
    if min(m1, y.size - m1) >= 2:
        return True
    warnings.warn(
        f"{what} is undefined: the DeLong variance needs at least two samples of each "
        f"class (got {m1} positive and {y.size - m1} negative)",
        UndefinedMetricWarning,
        stacklevel=3,
    )
    return False


def _delong_moments(y: np.ndarray, s: np.ndarray) -> tuple[float, float, float]:
    """``(AUC, var(V10), var(V01))`` from the groups of equal scores (both classes
    present; the variances ``nan`` for a class of one).

    A placement depends only on the object's score, so everything is a sum over the
    groups of :func:`~course_lib._groups.score_groups` (the sort every curve uses),
    weighted by the group's count of each class; no per-object array is formed. With
    ``a_g = 2 (negatives below) + (negatives tied)`` a positive of group ``g`` has
    ``V10 = a_g / (2 m0)``, and ``2U = sum_g pos_g a_g``, so the AUC is the exact
    ``2U / (2 m0 m1)`` correctly rounded (as :func:`course_lib.roc_auc` gives it), and

        var(V10) = sum_g pos_g (m1 a_g - 2U)**2 / ((2 m0 m1)**2 (m1 - 1)),

    where every ``m1 a_g - 2U`` is an exact integer (so there is no cancellation);
    symmetrically for the negatives.
    """
    g = score_groups(y, s)  # decreasing scores; int64 counts per group
    pos, neg = g.pos[::-1], g.neg[::-1]  # increasing scores
    m1, m0 = int(pos.sum()), int(neg.sum())
    if m1 + m0 >= 2**31:  # m1 * a_g could leave int64: Python integers
        pos, neg = pos.astype(object), neg.astype(object)
    a = np.cumsum(neg)  # then 2 (negatives below) + (negatives tied) for each group
    a *= 2
    a -= neg
    b = np.cumsum(pos)  # the same for the positives
    b *= 2
    b -= pos
    twice_u = int(np.dot(pos, a))  # 2U: sum over the positives of a_g
    twice_v = 2 * m0 * m1 - twice_u  # sum over the negatives of b_g
    scale = (2.0 * m0 * m1) ** 2

    def variance(count: np.ndarray, c: np.ndarray, m: int, total: int) -> float:
        """``sum count (m c - total)**2 / (scale (m - 1))``; nan for a class of one."""
        if m < 2:
            return math.nan
        c *= m
        c -= total  # exact integers
        d = c.astype(np.float64)
        d *= d
        return float(np.dot(count.astype(np.float64), d)) / (scale * (m - 1))

    # V01 = 1 - b_g / (2 m1) deviates from its mean as b_g / (2 m1) does
    return twice_u / (2 * m0 * m1), variance(pos, a, m1, twice_u), variance(neg, b, m0, twice_v)


def auc_ci_delong(y_true: Any, y_score: Any, *, level: float = 0.95) -> DeLongCI:
    """ROC AUC with DeLong's variance and normal confidence interval.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Labels 0/1 (or bool); 1 is the positive class.
    y_score : array-like of shape (n,)
        Scores; higher means "more positive". Tied scores count 1/2.
    level : float, default 0.95
        Confidence level of the interval, strictly between 0 and 1.

    Returns
    -------
    DeLongCI
        ``(auc, low, high, variance)`` as Python floats. ``low`` and ``high`` are
        ``auc -+ z * sqrt(variance)`` clipped to [0, 1], with ``z`` the
        ``(1 + level) / 2`` normal quantile. With one class only everything is ``nan``;
        with a single member of a class the variance and interval are ``nan``
        (both cases warn with :class:`~course_lib.UndefinedMetricWarning`).

    Notes
    -----
    O(n log n): a sort of each class and two linear merges (see ``_placements``).

    Examples
    --------
    Positives scored 0.8 and 0.3, negatives 0.4 and 0.1: three of the four pairs are
    ordered correctly, AUC = 3/4. The positives beat shares (1, 1/2) of the negatives,
    the negatives are beaten by shares (1/2, 1) of the positives; each pair of
    placements has sample variance 1/8, so Var = (1/8)/2 + (1/8)/2 = 1/8, and the
    interval 3/4 -+ 1.96 * sqrt(1/8) is clipped at 1.

    >>> r = auc_ci_delong([1, 1, 0, 0], [0.8, 0.3, 0.4, 0.1])
    >>> r.auc, r.variance
    (0.75, 0.125)
    >>> round(r.low, 4), r.high
    (0.057, 1.0)
    """
    level = _check_level(level)
    y, s, _ = check_binary(y_true, y_score)
    if not has_both_classes(y, None, "ROC AUC"):
        return DeLongCI(math.nan, math.nan, math.nan, math.nan)
    if not _needs_two_per_class(y, "The DeLong interval"):
        return DeLongCI(_delong_moments(y, s)[0], math.nan, math.nan, math.nan)
    auc, var10, var01 = _delong_moments(y, s)
    m1 = int(np.count_nonzero(y))
    variance = var10 / m1 + var01 / (y.size - m1)
    half = float(ndtri((1 + level) / 2)) * math.sqrt(variance)
    return DeLongCI(auc, max(0.0, auc - half), min(1.0, auc + half), variance)


def _bootstrap_aucs(
    y: np.ndarray, groups: np.ndarray, n_groups: int, idx: np.ndarray
) -> np.ndarray:
    """AUC of each resample; ``idx`` is a (B, n) matrix of indices into the data.

    ``groups`` are dense ranks of the scores (equal scores share a rank), so within a
    resample the AUC is a sum over positives of "negatives in lower ranks + half the
    negatives in the same rank", obtained from per-rank counts with one ``bincount``.
    Resamples without both classes give ``nan``.
    """
    n_boot, n = idx.shape
    g = groups[idx]
    is_pos = y[idx]
    offsets = (np.arange(n_boot) * n_groups)[:, None]
    neg_counts = np.bincount(
        (g + offsets).ravel(), weights=(~is_pos).ravel(), minlength=n_boot * n_groups
    ).reshape(n_boot, n_groups)
    below = np.cumsum(neg_counts, axis=1) - neg_counts
    beaten = np.take_along_axis(below + 0.5 * neg_counts, g, axis=1)
    m1 = is_pos.sum(axis=1)
    m0 = n - m1
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(is_pos, beaten, 0.0).sum(axis=1) / (m1 * m0)


def auc_ci_bootstrap(
    y_true: Any,
    y_score: Any,
    *,
    n_boot: int = 2000,
    level: float = 0.95,
    seed: int | np.random.Generator | None = None,
    stratified: bool = True,
) -> BootstrapCI:
    """ROC AUC with a bootstrap percentile confidence interval.

    Parameters
    ----------
    y_true, y_score : array-like of shape (n,)
        Labels 0/1 (or bool) and scores, as in :func:`auc_ci_delong`.
    n_boot : int, default 2000
        Number of resamples.
    level : float, default 0.95
        Confidence level, strictly between 0 and 1.
    seed : int, numpy Generator or None
        Seed of :func:`numpy.random.default_rng`; the same seed gives the same interval.
    stratified : bool, default True
        Resample the positives and the negatives separately, keeping ``m1`` and ``m0``
        fixed (as pROC does by default). With ``False`` the n objects are resampled
        together; resamples that miss a class are dropped.

    Returns
    -------
    BootstrapCI
        ``(auc, low, high)``: the AUC of the data and the ``(1 - level) / 2`` and
        ``(1 + level) / 2`` quantiles (numpy's default linear interpolation) of the
        resampled AUCs: the *percentile* interval, which stays inside [0, 1] by itself.
        One class only: all ``nan``, with a warning.

    Notes
    -----
    Vectorised: each block of resamples is one index matrix, and its AUCs come from
    per-score-rank counts (see ``_bootstrap_aucs``), in blocks of bounded memory.

    Examples
    --------
    With perfectly separated classes every resample is separated too:

    >>> auc_ci_bootstrap([0, 0, 1, 1], [0.1, 0.2, 0.7, 0.9], n_boot=50, seed=0)
    BootstrapCI(auc=1.0, low=1.0, high=1.0)
    """
    level = _check_level(level)
    if isinstance(n_boot, bool) or not isinstance(n_boot, (int, np.integer)) or n_boot < 1:
        raise ValueError(f"n_boot must be a positive integer, got {n_boot!r}")
    y, s, _ = check_binary(y_true, y_score)
    if not has_both_classes(y, None, "ROC AUC"):
        return BootstrapCI(math.nan, math.nan, math.nan)
    stratified = check_flag(stratified, "stratified")
    rng = check_seed(seed)
    distinct, groups = np.unique(s, return_inverse=True)
    positives, negatives = np.flatnonzero(y), np.flatnonzero(~y)
    n = y.size
    auc = _delong_moments(y, s)[0]
    block = max(1, 1_000_000 // n)
    aucs = []
    for start in range(0, n_boot, block):
        size = min(block, n_boot - start)
        if stratified:
            idx = np.concatenate(
                [
                    positives[rng.integers(0, positives.size, (size, positives.size))],
                    negatives[rng.integers(0, negatives.size, (size, negatives.size))],
                ],
                axis=1,
            )
        else:
            idx = rng.integers(0, n, (size, n))
        aucs.append(_bootstrap_aucs(y, groups, distinct.size, idx))
    values = np.concatenate(aucs)
    values = values[~np.isnan(values)]
    if values.size == 0:
        raise ValueError("every bootstrap resample missed a class; use stratified=True")
    low, high = np.quantile(values, [(1 - level) / 2, (1 + level) / 2])
    return BootstrapCI(auc, float(low), float(high))


def delong_test(
    y_true: Any, score_a: Any, score_b: Any, *, level: float = 0.95
) -> DeLongTest:
    """Paired DeLong test of two scores of the same objects: is AUC(a) = AUC(b)?

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Labels 0/1 (or bool).
    score_a, score_b : array-like of shape (n,)
        Two scores of the same n objects.
    level : float, default 0.95
        Confidence level of the interval of the difference.

    Returns
    -------
    DeLongTest
        ``(z, p_value, difference, low, high)``: ``difference = AUC(a) - AUC(b)``,
        ``z = difference / SE`` with
        ``SE^2 = Var(AUC_a) + Var(AUC_b) - 2 Cov(AUC_a, AUC_b)`` from the covariance
        matrices of the two scores' placement values, the two-sided normal p-value, and
        the Wald interval ``difference -+ z_level * SE`` (not clipped). When the two
        scores rank every object alike (SE = 0 and no difference) the result is
        ``z = 0, p = 1``, as in pROC; SE = 0 with a difference gives ``z = +-inf,
        p = 0``. With one class, or a single member of a class, the results that need
        the variance are ``nan`` (with a warning).

    Examples
    --------
    A score tested against itself shows no difference:

    >>> delong_test([0, 1, 0, 1], [0.1, 0.4, 0.35, 0.8], [0.1, 0.4, 0.35, 0.8])
    DeLongTest(z=0.0, p_value=1.0, difference=0.0, low=0.0, high=0.0)
    """
    level = _check_level(level)
    y = check_labels(y_true)
    a = check_scores(score_a, name="score_a", on_inexact="keep")
    b = check_scores(score_b, name="score_b", on_inexact="keep")
    if not y.size == a.size == b.size:
        raise ValueError(
            f"y_true, score_a and score_b have different lengths: {y.size}, {a.size} and {b.size}"
        )
    nan = DeLongTest(math.nan, math.nan, math.nan, math.nan, math.nan)
    if not has_both_classes(y, None, "The DeLong test"):
        return nan
    v10_a, v01_a = _placements(y, a, in_order=True)
    v10_b, v01_b = _placements(y, b, in_order=True)
    difference = float(v10_a.mean() - v10_b.mean())
    if not _needs_two_per_class(y, "The DeLong test"):
        return nan._replace(difference=difference)
    # Var(A - B) from the placements of the difference: var(x - y) = vx + vy - 2 cov.
    d10 = v10_a - v10_b
    d01 = v01_a - v01_b
    variance = float(d10.var(ddof=1) / d10.size + d01.var(ddof=1) / d01.size)
    if variance == 0.0 and difference == 0.0:
        return DeLongTest(0.0, 1.0, 0.0, 0.0, 0.0)
    se = math.sqrt(variance)
    half = float(ndtri((1 + level) / 2)) * se
    z = difference / se if se > 0 else math.copysign(math.inf, difference)
    p_value = float(2 * ndtr(-abs(z)))
    return DeLongTest(z, p_value, difference, difference - half, difference + half)


def simulate_intervals(
    sample: Callable[..., tuple[Any, Any]],
    n: int,
    *,
    runs: int,
    seed: int | np.random.Generator | None = None,
    pi: float = 0.5,
    n_boot: int = 300,
    level: float = 0.95,
) -> pd.DataFrame:
    """DeLong and bootstrap intervals of the AUC on ``runs`` fresh samples of ``n`` objects.

    The coverage experiment of chapter 11: draw a sample, compute both intervals, and
    repeat; :func:`interval_coverage` then counts how often each covered the true AUC.
    One generator drives everything, in this order per run: the sample, then the
    bootstrap's resamples, so a seed gives the same table everywhere.

    Parameters
    ----------
    sample : callable
        ``sample(n, pi, seed=rng)`` returns ``(y_true, y_score)``, e.g. the
        :meth:`~course_lib.ScoreModel.sample` method of a score model.
    n : int
        Objects per sample.
    runs : int
        Number of samples.
    seed : int, numpy Generator or None
        Seed of the one generator.
    pi : float, default 0.5
        Share of positives, passed to ``sample``.
    n_boot : int, default 300
        Resamples of each bootstrap interval.
    level : float, default 0.95
        Confidence level of both intervals.

    Returns
    -------
    pandas.DataFrame
        One row per run, columns ``auc, dl_low, dl_high, bs_low, bs_high``.

    Examples
    --------
    >>> from course_lib import LINEAR_DENSITIES
    >>> table = simulate_intervals(LINEAR_DENSITIES.sample, 60, runs=3, seed=1, n_boot=50)
    >>> list(table.columns), len(table)
    (['auc', 'dl_low', 'dl_high', 'bs_low', 'bs_high'], 3)
    >>> bool((table["dl_low"] <= table["auc"]).all())
    True
    """
    level = _check_level(level)
    for name, value in (("n", n), ("runs", runs), ("n_boot", n_boot)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
            raise ValueError(f"{name} must be a positive integer, got {value!r}")
    if not callable(sample):
        raise ValueError(f"sample must be callable as sample(n, pi, seed=rng), got {sample!r}")
    rng = check_seed(seed)
    rows = []
    for _ in range(int(runs)):
        y, s = sample(n, pi, seed=rng)
        d = auc_ci_delong(y, s, level=level)
        b = auc_ci_bootstrap(y, s, n_boot=n_boot, level=level, seed=rng)
        rows.append([d.auc, d.low, d.high, b.low, b.high])
    return pd.DataFrame(rows, columns=list(INTERVAL_COLUMNS))


def interval_coverage(intervals: pd.DataFrame, truth: float) -> pd.Series:
    """Share of the intervals covering ``truth`` and their mean width, per method.

    Parameters
    ----------
    intervals : pandas.DataFrame
        A table of :func:`simulate_intervals`.
    truth : float
        The true AUC of the model the samples came from.

    Returns
    -------
    pandas.Series
        Indexed by ``(method, quantity)``: ``("DeLong", "coverage")``,
        ``("DeLong", "mean width")``, ``("bootstrap", "coverage")``,
        ``("bootstrap", "mean width")``.

    Raises
    ------
    TypeError
        If ``intervals`` is not a DataFrame or ``truth`` not a number.
    ValueError
        If ``intervals`` lacks a column of :func:`simulate_intervals`.

    Examples
    --------
    >>> t = pd.DataFrame([[0.7, 0.6, 0.8, 0.65, 0.75], [0.9, 0.85, 0.95, 0.8, 1.0]],
    ...                  columns=list(INTERVAL_COLUMNS))
    >>> interval_coverage(t, 0.72).round(3).tolist()
    [0.5, 0.15, 0.5, 0.15]
    """
    if not isinstance(intervals, pd.DataFrame):
        raise TypeError(
            "intervals must be a pandas DataFrame (a table of simulate_intervals), got "
            f"{type(intervals).__name__}"
        )
    if isinstance(truth, bool) or not isinstance(truth, (int, float, np.integer, np.floating)):
        raise TypeError(f"truth must be a number, got {truth!r}")
    missing = [c for c in INTERVAL_COLUMNS[1:] if c not in intervals.columns]
    if missing:
        raise ValueError(f"intervals lacks the columns {missing}; use simulate_intervals")
    t = float(truth)
    out = {}
    for method, key in (("DeLong", "dl"), ("bootstrap", "bs")):
        low, high = intervals[f"{key}_low"], intervals[f"{key}_high"]
        out[method, "coverage"] = float(((low <= t) & (t <= high)).mean())
        out[method, "mean width"] = float((high - low).mean())
    return pd.Series(out)
