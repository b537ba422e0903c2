"""Uncertainty of the AUC: DeLong's variance and interval, the bootstrap, the paired test.

The empirical AUC is a two-sample U-statistic, and DeLong, DeLong and Clarke-Pearson
(1988) estimate its variance from *placement values*. For a positive ``i`` its placement

    V10[i] = (#negatives scored below s_i + 1/2 #negatives tied with s_i) / m0

is the share of negatives it beats (the specificity at the threshold s_i); for a
negative ``j``

    V01[j] = (#positives scored above s_j + 1/2 #positives tied with s_j) / m1

is the share of positives that beat it. Both average to the AUC, and

    Var(AUC) ~ var(V10) / m1 + var(V01) / m0        (sample variances, ddof = 1).

A placement depends only on the object's score, so both functions compute it once per
group of equal scores, in the library's one engine (:mod:`course_lib._stream`, as the
report does): :func:`auc_ci_delong` is :class:`~course_lib._stream.DeLongAcc` after
the AUC, :func:`delong_test` is :func:`~course_lib._stream.paired_delong` over the
objects by decreasing ``score_a``. Every deviation of a placement from its mean is an
exact integer before it is rounded and squared, and no m0 x m1 matrix is ever formed.

Intervals are Wald intervals ``AUC +- z * SE`` with ``z`` the normal quantile; an AUC
lives in [0, 1], so the interval is clipped to [0, 1] (as pROC does). Near 0 or 1 the
normal approximation is poor and the clipped interval should be read with care.
"""

from __future__ import annotations

import math
import numbers
import warnings
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any, NamedTuple

import numpy as np
import pandas as pd

from ._checks import (
    UndefinedMetricWarning,
    check_binary,
    check_flag,
    check_labels,
    check_scores,
    check_seed,
    check_weights,
    has_both_classes,
)
from ._groups import ScoreGroups
from ._stream import (
    AucAcc,
    DeLongAcc,
    KsAcc,
    Totals,
    delong_interval,
    in_memory,
    paired_delong,
    run,
    stream_rows,
    unpaired_delong,
)

__all__ = [
    "DeLongCI",
    "BootstrapCI",
    "DeLongTest",
    "auc_ci_delong",
    "auc_ci_bootstrap",
    "bootstrap_intervals",
    "delong_test",
    "delong_test_unpaired",
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


def _needs_two_per_class(m1: int, m0: int, what: str) -> bool:
    """False (with a warning) when a class has fewer than two members: no sample variance."""
    if min(m1, m0) >= 2:
        return True
    warnings.warn(
        f"{what} is undefined: the DeLong variance needs at least two samples of each "
        f"class (got {m1} positive and {m0} negative)",
        UndefinedMetricWarning,
        stacklevel=4,
    )
    return False


def _auc_chunks(
    y: np.ndarray, s: np.ndarray, scores: bool = True
) -> tuple[Iterable[Any], Totals, AucAcc]:
    """The score groups (kept for a second pass), the totals and the exact AUC."""
    chunks, totals = in_memory(y, s, scores=scores)  # sorted once, read twice
    auc = AucAcc(totals)
    run(chunks, totals, auc)
    return chunks, totals, auc


class _PairRows(NamedTuple):
    """The objects by decreasing ``score_a`` as pair groups of one object each."""

    score_a: np.ndarray
    score_b: np.ndarray
    pos: np.ndarray
    neg: np.ndarray


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
    O(n log n): one sort, then two passes over the groups of equal scores (the AUC,
    then the placements' deviations from it, see :class:`~course_lib._stream.DeLongAcc`).

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
    return delong_of(*in_memory(y, s, scores=False), level, sample_auc(y, s))


def sample_auc(y: np.ndarray, s: np.ndarray, size: int = 2**12) -> float:
    """A rough AUC (ties broken arbitrarily) of about ``size`` objects taken at even
    steps, 1/2 when the sample lacks a class: only the centre of
    :class:`~course_lib._stream.DeLongAcc`'s one pass, where any estimate is exact in
    the end and a closer one keeps more digits."""
    step = max(1, y.size // size)
    ys, ss = y[::step], s[::step]
    m1 = int(np.count_nonzero(ys))
    m0 = ys.size - m1
    if m1 == 0 or m0 == 0:
        return 0.5
    ranks = np.empty(ys.size)
    ranks[np.argsort(ss, kind="stable")] = np.arange(1, ys.size + 1)
    return float((ranks[ys].sum() - m1 * (m1 + 1) / 2) / (m1 * m0))


def delong_of(chunks: Any, totals: Totals, level: float, estimate: float = 0.5) -> DeLongCI:
    """:func:`auc_ci_delong` of the engine's chunks (counts, both classes present):
    the AUC and DeLong's variance in one pass, centred at ``estimate``."""
    acc, delong = AucAcc(totals), DeLongAcc(totals, estimate=estimate)
    run(chunks, totals, acc, delong)
    auc = float(acc.result())
    if not _needs_two_per_class(int(totals.m1), int(totals.m0), "The DeLong interval"):
        return DeLongCI(auc, math.nan, math.nan, math.nan)
    variance = delong.variance(int(acc.num))
    return DeLongCI(auc, *delong_interval(auc, variance, level), variance)


def _resamples(
    rng: np.random.Generator, y: np.ndarray, n_boot: int, stratified: bool
) -> Iterator[np.ndarray]:
    """The bootstrap's draws: (size, n) matrices of row indices, ``n_boot`` rows in all.

    The one scheme of every bootstrap of this module (and of the report): blocks of
    ``max(1, 10**6 // n)`` resamples; within a block, with ``stratified``, first the
    positives' indices (``rng.integers(0, m1, (size, m1))`` into the positives in row
    order), then the negatives' (the same with ``m0``), so every resample keeps ``m1``
    positive and ``m0`` negative rows; without, ``rng.integers(0, n, (size, n))``.
    """
    n = y.size
    positives, negatives = np.flatnonzero(y), np.flatnonzero(~y)
    block = max(1, 1_000_000 // n)
    for start in range(0, n_boot, block):
        size = min(block, n_boot - start)
        if stratified:
            yield np.concatenate(
                [
                    positives[rng.integers(0, positives.size, (size, positives.size))],
                    negatives[rng.integers(0, negatives.size, (size, negatives.size))],
                ],
                axis=1,
            )
        else:
            yield rng.integers(0, n, (size, n))


class _Ranked(NamedTuple):
    """One score's rows in increasing score order: the permutation of the rows, their
    labels and weights in that order, and where each group of equal scores starts."""

    order: np.ndarray
    y: np.ndarray
    w: np.ndarray | None
    starts: np.ndarray


def _ranked(y: np.ndarray, groups: np.ndarray, w: np.ndarray | None) -> _Ranked:
    """:class:`_Ranked` of the dense score ranks ``groups`` (equal scores, equal rank)."""
    order = np.argsort(groups, kind="stable")
    g = groups[order]
    starts = np.flatnonzero(np.concatenate(([True], g[1:] != g[:-1]))) if g.size else g
    return _Ranked(order, y[order], None if w is None else w[order], starts)


def _multiplicities(idx: np.ndarray, n: int) -> np.ndarray:
    """How often each of the ``n`` rows is drawn in each resample: (B, n) counts."""
    size = idx.shape[0]
    flat = (idx + (np.arange(size) * n)[:, None]).ravel()
    return np.bincount(flat, minlength=size * n).reshape(size, n)


def _replicate_stats(
    ranked: _Ranked, counts: np.ndarray, ks: bool = True
) -> tuple[np.ndarray, np.ndarray | None, np.ndarray | None]:
    """AUC, one-sided KS ``max(TPR - FPR)`` and two-sided KS ``max|F1 - F0|`` of each
    resample; ``counts`` is the (B, n) matrix of :func:`_multiplicities`.

    A row drawn ``k`` times weighs ``k * w``. With the rows in increasing score order,
    one ``add.reduceat`` per class gives each resample's weight ``P_r``, ``N_r`` of
    each group of equal scores (sequential, no random access); then each resample's
    groups, in decreasing score order, go through the one engine: counts (``w`` None,
    exact integers) all resamples at once (:func:`~course_lib._stream.stream_rows`),
    weights one resample at a time (:class:`~course_lib._stream.AucAcc` and
    :class:`~course_lib._stream.KsAcc`), as :func:`course_lib.roc_auc`,
    :func:`course_lib.ks_statistic` and :func:`course_lib.ks_two_sided` compute them.
    Weights come scaled by :func:`~course_lib._checks.scale_weights`, so no
    product overflows or underflows. A resample that drew no row of positive weight of
    a class (rows counted, whatever the weights' scale) gives ``nan``; ``ks=False``
    skips the two KS (None).
    """
    k = counts[:, ranked.order].astype(np.float64)
    kept = np.ones(ranked.y.size, dtype=bool) if ranked.w is None else ranked.w > 0
    # each resample's draws of rows of each class with weight (exact integers)
    rows1 = k @ (ranked.y & kept).astype(np.float64)
    rows0 = k @ (~ranked.y & kept).astype(np.float64)
    undefined = (rows1 == 0) | (rows0 == 0)
    if ranked.w is not None:
        k *= ranked.w
    pos_rows = np.where(ranked.y, k, 0.0)
    neg_rows = k - pos_rows  # exactly k or 0
    # each group's weight per resample, highest score first (contiguous rows)
    pos = np.add.reduceat(pos_rows, ranked.starts, axis=1)[:, ::-1].copy()
    neg = np.add.reduceat(neg_rows, ranked.starts, axis=1)[:, ::-1].copy()
    integral = ranked.w is None
    if integral:  # the draws' counts: exact integers
        pos, neg = pos.astype(np.int64), neg.astype(np.int64)
    if integral and ranked.y.size <= 2**31:  # exact counts: every resample at once
        return stream_rows(pos, neg, ks=ks)
    rank = np.arange(pos.shape[1] - 1, -1, -1, dtype=np.float64)  # stands for the score
    auc, one, two = (np.full(pos.shape[0], np.nan) for _ in range(3))
    for r in np.flatnonzero(~undefined).tolist():
        totals = Totals.of(pos[r].sum(), neg[r].sum(), integral)
        area, gaps = AucAcc(totals), KsAcc(totals)
        run([ScoreGroups(rank, pos[r], neg[r])], totals, *((area, gaps) if ks else (area,)))
        auc[r] = float(area.result())
        if ks:
            one[r], two[r] = float(gaps.result()), float(gaps.two_sided()[0])
    return (auc, one, two) if ks else (auc, None, None)


def _bootstrap_aucs(
    y: np.ndarray, groups: np.ndarray, n_groups: int, idx: np.ndarray
) -> np.ndarray:
    """AUC of each resample (``idx`` a (B, n) matrix of indices into the data), from
    :func:`_replicate_stats`; resamples without both classes give ``nan``."""
    ranked = _ranked(y, groups, None)
    return _replicate_stats(ranked, _multiplicities(idx, y.size), ks=False)[0]


def _check_n_boot(n_boot: Any, name: str = "n_boot") -> int:
    if isinstance(n_boot, bool) or not isinstance(n_boot, (int, np.integer)) or n_boot < 1:
        raise ValueError(f"{name} must be a positive integer, got {n_boot!r}")
    return int(n_boot)


def auc_ci_bootstrap(
    y_true: Any,
    y_score: Any,
    *,
    sample_weight: Any = None,
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
    sample_weight : array-like of shape (n,), optional
        Sampling weights: each resample draws *rows* and weighs each drawn row by its
        weight (a row drawn twice counts twice), so the interval reflects the number of
        rows, not the sum of the weights (see :func:`bootstrap_intervals`).
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
    per-score-rank sums (see ``_replicate_stats``), in blocks of bounded memory. The
    draws are those of :func:`bootstrap_intervals` (the same seed gives the same
    resamples), so with weights the interval is that function's ``auc`` interval.

    Examples
    --------
    With perfectly separated classes every resample is separated too:

    >>> auc_ci_bootstrap([0, 0, 1, 1], [0.1, 0.2, 0.7, 0.9], n_boot=50, seed=0)
    BootstrapCI(auc=1.0, low=1.0, high=1.0)
    >>> auc_ci_bootstrap([0, 0, 1, 1], [0.1, 0.2, 0.7, 0.9], sample_weight=[1, 2, 0.5, 1],
    ...                  n_boot=50, seed=0)
    BootstrapCI(auc=1.0, low=1.0, high=1.0)
    """
    level = _check_level(level)
    n_boot = _check_n_boot(n_boot)
    # the weights scaled (exact): the AUC and every resample's are ratios of them
    y, s, w = check_binary(y_true, y_score, sample_weight)
    if not has_both_classes(y, w, "ROC AUC"):
        return BootstrapCI(math.nan, math.nan, math.nan)
    stratified = check_flag(stratified, "stratified")
    rng = check_seed(seed)
    groups = np.unique(s, return_inverse=True)[1]
    if w is None:
        auc = float(_auc_chunks(y, s, scores=False)[2].result())
    else:
        chunks, totals = in_memory(y, s, w, integral=False, scores=False)
        acc = AucAcc(totals)
        run(chunks, totals, acc)
        auc = float(acc.result())
    ranked = _ranked(y, groups, w)
    values = np.concatenate([
        _replicate_stats(ranked, _multiplicities(idx, y.size), ks=False)[0]
        for idx in _resamples(rng, y, n_boot, stratified)
    ])
    values = values[~np.isnan(values)]
    if values.size == 0:
        raise ValueError("every bootstrap resample missed a class; use stratified=True")
    low, high = np.quantile(values, [(1 - level) / 2, (1 + level) / 2])
    return BootstrapCI(auc, float(low), float(high))


def _pair_names(names: Sequence[str]) -> list[tuple[str, str]]:
    return [(a, b) for i, a in enumerate(names) for b in names[i + 1:]]


def bootstrap_intervals(
    y_true: Any,
    y_scores: Any,
    *,
    sample_weight: Any = None,
    n_boot: int = 1000,
    level: float = 0.95,
    seed: int | np.random.Generator | None = 0,
    stratified: bool = True,
    return_replicates: bool = False,
) -> dict[str, Any]:
    """Bootstrap percentile intervals of the AUC, Gini and KS of one or more scores of
    the same rows, and of the paired AUC differences: the intervals of sampling weights.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Labels 0/1 (or bool).
    y_scores : array-like of shape (n,), or a mapping of names to such arrays
        One score (named ``"score"``) or several, each row scored by each.
    sample_weight : array-like of shape (n,), optional
        Sampling (survey, inverse-probability) weights. A resample draws rows, and a
        row drawn ``k`` times counts with weight ``k * w``: the randomness is that of
        the rows, whatever the weights sum to.
    n_boot : int, default 1000
        Number of resamples.
    level : float, default 0.95
        Confidence level, strictly between 0 and 1.
    seed : int, numpy Generator or None, default 0
        Seed of :func:`numpy.random.default_rng`. The draws depend only on the seed
        and the labels' order (see Notes): the same rows in the same order give the
        same intervals bit for bit.
    stratified : bool, default True
        Resample positives and negatives separately (each resample keeps the number of
        positive and of negative rows), as :func:`auc_ci_bootstrap`.
    return_replicates : bool, default False
        Also return every resample's values (key ``"replicates"``).

    Returns
    -------
    dict
        ``{"method": "bootstrap", "interval": "percentile", "n_boot", "used", "level",
        "stratified", "rows", "positive_rows", "negative_rows", "scores", "differences"}``:
        ``used`` counts the resamples with weight in both classes (the others are
        dropped); ``rows`` and ``*_rows`` count rows, not weights; ``scores[name]``
        holds ``"auc"``, ``"gini"``, ``"ks"`` (one-sided, ``max(TPR - FPR)`` as
        :func:`course_lib.ks_statistic`) and ``"ks_two_sided"`` (``max |F1 - F0|``),
        each a ``[low, high]`` pair of floats; ``differences`` a list of
        ``{"a", "b", "ci"}``, the interval of ``AUC(a) - AUC(b)`` over the same
        resamples, for each pair in the order given. The percentile interval takes the
        ``(1 -+ level) / 2`` quantiles of the resampled values (numpy's linear
        interpolation); the Gini interval is ``2 * AUC interval - 1``.

    Notes
    -----
    The draws are :func:`auc_ci_bootstrap`'s: blocks of ``max(1, 10**6 // n)``
    resamples, per block ``rng.integers(0, m1, (size, m1))`` positions among the
    positive rows (in row order) then ``rng.integers(0, m0, (size, m0))`` among the
    negative ones. Each resample's numbers come from per-score-rank weight sums (one
    ``bincount``), O(n) per resample and score, with no Python loop over resamples
    beyond the blocks.

    Examples
    --------
    >>> y = [0, 0, 1, 0, 1, 1]
    >>> r = bootstrap_intervals(y, {"a": [1, 2, 3, 4, 5, 6], "b": [6, 5, 4, 3, 2, 1]},
    ...                         sample_weight=[1, 2, 1, 0.5, 1, 3], n_boot=200, seed=0)
    >>> r["rows"], r["positive_rows"], r["used"]
    (6, 3, 200)
    >>> lo, hi = r["scores"]["a"]["auc"]
    >>> bool(0 <= lo <= hi <= 1), r["differences"][0]["a"]
    (True, 'a')
    """
    level = _check_level(level)
    n_boot = _check_n_boot(n_boot)
    stratified = check_flag(stratified, "stratified")
    return_replicates = check_flag(return_replicates, "return_replicates")
    y = check_labels(y_true)
    if isinstance(y_scores, Mapping):
        if not y_scores:
            raise ValueError("y_scores must hold at least one score")
        named = {str(k): v for k, v in y_scores.items()}
    else:
        named = {"score": y_scores}
    scores = {}
    for name, values in named.items():
        s = check_scores(values, name=f"the score {name!r}", on_inexact="keep")
        if s.size != y.size:
            raise ValueError(
                f"y_true and the score {name!r} have different lengths: {y.size} and {s.size}")
        scores[name] = s
    # the weights scaled (exact): every number is a ratio of them
    w = check_weights(sample_weight, y.size)
    m1 = int(np.count_nonzero(y))
    if w is None:
        both = 0 < m1 < y.size
    else:  # rows of each class with weight
        both = bool((w[y] > 0).any() and (w[~y] > 0).any())
    if not both:
        raise ValueError("the bootstrap needs rows of both classes (with positive weight)")
    rng = check_seed(seed)
    ranks = {name: _ranked(y, np.unique(s, return_inverse=True)[1], w)
             for name, s in scores.items()}
    stats: dict[str, list[list[np.ndarray]]] = {name: [[], [], []] for name in scores}
    for idx in _resamples(rng, y, n_boot, stratified):
        counts = _multiplicities(idx, y.size)
        for name, ranked in ranks.items():
            for store, part in zip(stats[name], _replicate_stats(ranked, counts)):
                assert part is not None
                store.append(part)
    values = {name: [np.concatenate(v) for v in three] for name, three in stats.items()}
    ok = np.ones(n_boot, dtype=bool)
    for three in values.values():
        ok &= ~np.isnan(three[0])
    if not ok.any():
        raise ValueError("every bootstrap resample missed the weight of a class")
    q = [(1 - level) / 2, (1 + level) / 2]

    def interval(v: np.ndarray) -> list[float]:
        lo, hi = np.quantile(v[ok], q)
        return [float(lo), float(hi)]

    out_scores = {}
    for name, (auc, ks, ks2) in values.items():
        a = interval(auc)
        out_scores[name] = {"auc": a, "gini": [2 * a[0] - 1, 2 * a[1] - 1],
                            "ks": interval(ks), "ks_two_sided": interval(ks2)}
    differences = [
        {"a": a, "b": b, "ci": interval(values[a][0] - values[b][0])}
        for a, b in _pair_names(list(scores))
    ]
    result: dict[str, Any] = {
        "method": "bootstrap",
        "interval": "percentile",
        "n_boot": n_boot,
        "used": int(ok.sum()),
        "level": level,
        "stratified": stratified,
        "rows": int(y.size),
        "positive_rows": m1,
        "negative_rows": int(y.size) - m1,
        "scores": out_scores,
        "differences": differences,
    }
    if return_replicates:
        result["replicates"] = {
            name: {"auc": auc, "ks": ks, "ks_two_sided": ks2, "used": ok}
            for name, (auc, ks, ks2) in values.items()
        }
    return result


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
    chunks_a, totals, auc_a = _auc_chunks(y, a)
    chunks_b, _, auc_b = _auc_chunks(y, b)
    table_b = DeLongAcc(totals, 0, keep=True)  # b's placements per distinct score
    run(chunks_b, totals, table_b)
    order = np.argsort(a, kind="stable")[::-1]
    rows = _PairRows(a[order], b[order], y[order].astype(np.int64), (~y[order]).astype(np.int64))
    r = paired_delong([rows], chunks_a, table_b.table(), totals, int(auc_a.num),
                      int(auc_b.num), level)
    if not _needs_two_per_class(int(totals.m1), int(totals.m0), "The DeLong test"):
        return nan._replace(difference=r["difference"])
    return DeLongTest(r["z"], r["p_value"], r["difference"], r["low"], r["high"])


def delong_test_unpaired(
    y_a: Any, score_a: Any, y_b: Any, score_b: Any, *, level: float = 0.95
) -> DeLongTest:
    """DeLong's test of the AUCs of two *independent* samples: is AUC(a) = AUC(b)?

    For a model's AUC on a validation sample against its AUC on the development
    sample (other objects), as pROC's ``roc.test(paired = FALSE, method = "delong")``.

    Parameters
    ----------
    y_a, score_a : array-like of shape (n_a,)
        Labels 0/1 (or bool) and scores of the first sample.
    y_b, score_b : array-like of shape (n_b,)
        Labels and scores of the second sample.
    level : float, default 0.95
        Confidence level of the interval of the difference.

    Returns
    -------
    DeLongTest
        ``(z, p_value, difference, low, high)``: ``difference = AUC(a) - AUC(b)``,
        ``z = difference / sqrt(V_a + V_b)`` with each sample's DeLong variance (as
        :func:`auc_ci_delong`), the two-sided normal p-value and the Wald interval
        ``difference -+ z_level * SE`` (not clipped). Both variances 0 and no
        difference: ``z = 0, p = 1``. A sample with one class, or a single member of a
        class, gives nan (with a warning).

    Examples
    --------
    >>> r = delong_test_unpaired([1, 1, 0, 0], [0.8, 0.3, 0.4, 0.1],
    ...                          [1, 1, 0, 0, 0], [0.9, 0.7, 0.6, 0.2, 0.1])
    >>> r.difference, round(r.z, 4)
    (-0.25, -0.7071)
    """
    level = _check_level(level)
    parts = []
    for name, (y_true, y_score) in (("a", (y_a, score_a)), ("b", (y_b, score_b))):
        y, s, _ = check_binary(y_true, y_score)
        nan = DeLongTest(math.nan, math.nan, math.nan, math.nan, math.nan)
        if not has_both_classes(y, None, f"The DeLong test (sample {name})"):
            return nan
        m1 = int(np.count_nonzero(y))
        if not _needs_two_per_class(m1, y.size - m1, f"The DeLong test (sample {name})"):
            return nan
        parts.append(delong_of(*in_memory(y, s, scores=False), level, sample_auc(y, s)))
    (auc_a, _, _, var_a), (auc_b, _, _, var_b) = parts
    r = unpaired_delong(auc_a, var_a, auc_b, var_b, level)
    return DeLongTest(r["z"], r["p_value"], r["difference"], r["low"], r["high"])


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
