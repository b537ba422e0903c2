"""Calibration: do the scores mean what they say, as probabilities?

A score is *calibrated* when, among the objects scored ``p``, a share ``p`` is positive.
Ranking measures (the ROC curve, the AUC) look only at the order of the scores, so they
cannot see calibration; the functions here can:

* :func:`calibration_curve` -- the reliability diagram: mean label against mean
  probability per bin (as :func:`sklearn.calibration.calibration_curve`, plus weights);
* :func:`brier_score` -- the mean squared difference between probability and label
  (Brier 1950), and :func:`brier_decomposition` -- Murphy's (1973) reliability,
  resolution and uncertainty on bins;
* :func:`log_loss` -- the mean negative log-likelihood of the true classes
  (cross-entropy), for two classes or many;
* :func:`expected_calibration_error` -- the weighted mean gap between the mean label
  and the mean probability per bin (Naeini et al. 2015; Guo et al. 2017);
* :func:`platt_scaling` and :func:`isotonic_calibration` -- two calibration maps fitted
  on labelled scores (Platt 1999; Zadrozny & Elkan 2002), each returned as a small
  named tuple that is also a function of new scores.

Binning rule (every binned function)
------------------------------------
``strategy="uniform"`` cuts [0, 1] into ``n_bins`` equal intervals; ``"quantile"``
puts the edges at the quantiles of the probabilities (with weights: the quantiles of
the data with each row repeated as often as its integer weight says, numpy's default
"linear" interpolation, the weights counted in units of the smallest positive weight,
so that scaling them changes nothing); ``"unique"`` makes one bin per distinct probability. The bins
are closed on the right: a probability equal to an inner edge belongs to the bin
*below* it, the first bin is ``[e0, e1]`` and bin ``k`` is ``(e_k, e_{k+1}]``
(``numpy.searchsorted`` on the inner edges, as scikit-learn 1.9 does). Bins without
weight are dropped.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any, Literal, NamedTuple

import numpy as np
import pandas as pd
from scipy.special import ndtri

from ._checks import (
    are_counts,
    check_binary,
    check_binary_exact,
    check_integer,
    check_labels,
    check_scores,
    check_weights,
    class_totals,
    need_classes,
    need_weight,
    scale_weights,
    undefined,
    weight_exponent,
)
from ._groups import score_groups
from ._labels import check_classes, check_label_list, encode_labels
from ._stream import (
    CLIP,
    BandAcc,
    BandCounts,
    CalibrationAcc,
    Cumulator,
    Totals,
    band_tests,
    citl_counts,
    hosmer_lemeshow_counts,
    in_memory,
    logistic_recalibration,
    run,
)

__all__ = [
    "BinomialInterval",
    "ReliabilityCurve",
    "BrierDecomposition",
    "PlattMap",
    "IsotonicMap",
    "calibration_curve",
    "brier_score",
    "log_loss",
    "brier_decomposition",
    "expected_calibration_error",
    "platt_scaling",
    "isotonic_calibration",
    "binomial_interval",
    "HosmerLemeshow",
    "CalibrationInTheLarge",
    "Recalibration",
    "calibration_bands",
    "hosmer_lemeshow",
    "calibration_in_the_large",
    "calibration_slope",
]

Strategy = Literal["uniform", "quantile", "unique"]
_STRATEGIES = ("uniform", "quantile", "unique")


class ReliabilityCurve(NamedTuple):
    """Points of a reliability diagram, one per non-empty bin, by increasing bin.

    ``prob_true`` is the (weighted) share of positives in the bin, ``prob_pred`` the
    (weighted) mean probability, ``counts`` the number of objects (int) or, with
    weights, the total weight (float) of the bin.
    """

    prob_true: np.ndarray
    prob_pred: np.ndarray
    counts: np.ndarray


class BrierDecomposition(NamedTuple):
    """Murphy's decomposition of the Brier score on bins.

    ``brier = reliability - resolution + uncertainty + within_bin``; ``within_bin``
    is zero when the probabilities are constant within each bin.
    """

    reliability: float
    resolution: float
    uncertainty: float
    within_bin: float


def _sigmoid(z: np.ndarray) -> np.ndarray:
    """``1 / (1 + exp(-z))`` without overflow for large ``|z|``."""
    e = np.exp(-np.abs(z))
    return np.where(z >= 0, 1.0 / (1.0 + e), e / (1.0 + e))


class PlattMap(NamedTuple):
    """The map ``p = 1 / (1 + exp(-(a s + b)))`` fitted by :func:`platt_scaling`.

    Call it on scores to get probabilities: ``PlattMap(a, b)(scores)``.
    """

    a: float
    b: float

    def __call__(self, y_score: Any) -> np.ndarray:
        s = _check_values(y_score, "y_score")
        return _sigmoid(self.a * s + self.b)


class IsotonicMap(NamedTuple):
    """The step map fitted by :func:`isotonic_calibration`.

    ``thresholds`` are the distinct training scores (with positive weight), increasing
    (integers that float64 cannot hold keep their dtype, so their order is exact);
    ``values`` the calibrated probability of each (non-decreasing; Fractions in an
    object array when fitted with ``exact=True``). Called on scores it interpolates
    linearly between thresholds and clips outside them, as
    ``IsotonicRegression(out_of_bounds="clip").predict`` does; on a training score it
    returns that score's value.
    """

    thresholds: np.ndarray
    values: np.ndarray

    def __call__(self, y_score: Any) -> np.ndarray:
        values = np.asarray(self.values, dtype=np.float64)
        if self.thresholds.dtype.kind not in "iu":
            s = _check_values(y_score, "y_score")
            return np.interp(s, self.thresholds, values)
        # integer thresholds (kept exact, see check_scores): locate the scores among
        # them exactly, interpolate with the exact integer distances
        s = check_scores(y_score, on_inexact="keep")
        if s.dtype.kind not in "iu":
            raise ValueError(
                "this map was fitted on integer scores beyond 2**53; call it on integer "
                f"scores too (float64 would round them), got dtype {s.dtype}"
            )
        t = self.thresholds
        k = np.clip(np.searchsorted(t, s, side="right") - 1, 0, t.size - 1)
        out = values[k].copy()
        inner = (k < t.size - 1) & (s > t[k]) & (s >= t[0])
        for i in np.flatnonzero(inner).tolist():
            j = int(k[i])
            share = (int(s[i]) - int(t[j])) / (int(t[j + 1]) - int(t[j]))
            out[i] = values[j] + share * (values[j + 1] - values[j])
        return out


# ----------------------------------------------------------------------- validation
def _check_values(values: Any, name: str) -> np.ndarray:
    return check_scores(values, name=name)


def _need_unit(p: np.ndarray) -> None:
    """Raise a ValueError unless every value of the float array ``p`` is in [0, 1]."""
    if p.size and (p.min() < 0 or p.max() > 1):
        bad = p.min() if p.min() < 0 else p.max()
        raise ValueError(f"y_prob must hold probabilities in [0, 1]; found {float(bad)!r}")


def _check_prob(
    y_true: Any, y_prob: Any, sample_weight: Any, what: str, *, scale: bool = True
) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """Labels, probabilities in [0, 1] and weights (None or float64), validated; the
    weights rescaled unless ``scale=False`` (see :func:`course_lib._checks.check_weights`)."""
    y, p, w = check_binary(y_true, y_prob, sample_weight, on_inexact="convert", scale=scale)
    p = p.astype(np.float64, copy=False)
    _need_unit(p)
    need_weight(w, what)
    return y, p, w


def _check_bins(n_bins: Any, strategy: Any) -> int:
    if isinstance(n_bins, bool) or not isinstance(n_bins, (int, np.integer)) or n_bins < 1:
        raise ValueError(f"n_bins must be a positive int, got {n_bins!r}")
    if strategy not in _STRATEGIES:
        raise ValueError(
            f"strategy must be 'uniform', 'quantile' or 'unique', got {strategy!r}"
        )
    return int(n_bins)


# ------------------------------------------------------------------------- binning
def _repeated_quantiles(p: np.ndarray, w: np.ndarray | None, n_bins: int) -> np.ndarray:
    """``numpy.percentile`` edges of ``p`` with each row repeated ``w`` times.

    The weights are first divided by the smallest positive one (the edges do not
    depend on the weights' scale). The arithmetic is numpy's "linear" method step by step (virtual index
    ``(n - 1) q``, its floor, and numpy's two-sided lerp), so with integer weights the
    edges are bit for bit those of the repeated data; fractional weights enter the same
    formula through their cumulative sums.
    """
    q = np.linspace(0.0, 1.0, n_bins + 1) * 100 / 100  # as np.percentile(q * 100)
    order = np.argsort(p, kind="stable")
    v = p[order]
    if w is None:
        return np.percentile(p, np.linspace(0.0, 1.0, n_bins + 1) * 100)
    # in units of the smallest positive weight: the same edges for the weights times
    # any factor (w / w.sum() included), and integer weights with a weight 1 among
    # them are the repeated rows themselves
    cum = np.cumsum(w[order] / w[w > 0].min())
    total = cum[-1]
    virtual = (total - 1) * q
    prev = np.floor(virtual)
    gamma = virtual - prev
    last = total - 1

    def element(j: np.ndarray) -> np.ndarray:
        k = np.searchsorted(cum, np.clip(j, 0, None), side="right")
        return v[np.minimum(k, v.size - 1)]

    a = np.where(virtual >= last, v[-1], element(prev))
    b = np.where(virtual >= last, v[-1], element(prev + 1))
    diff = b - a
    return np.where(gamma >= 0.5, b - diff * (1 - gamma), a + diff * gamma)


def _edges(p: np.ndarray, w: np.ndarray | None, n_bins: int, strategy: str) -> np.ndarray | None:
    """The bins' edges (None: ``n_bins`` equal-width bins); "unique" puts an inner edge
    at every distinct probability but the largest, so each has a bin of its own."""
    if strategy == "uniform":
        return None
    if strategy == "quantile":
        return _repeated_quantiles(p, w, n_bins)
    distinct = np.unique(p)
    return np.concatenate((distinct[:1], distinct))


class _Binned(NamedTuple):
    y: np.ndarray
    p: np.ndarray
    w: np.ndarray | None
    acc: CalibrationAcc


def _binned(
    y_true: Any, y_prob: Any, sample_weight: Any, n_bins: Any, strategy: Any, what: str,
    *, scale: bool = True,
) -> _Binned:
    """The opening of every binned function: the options and the input validated
    (weights rescaled unless ``scale=False``, as in :func:`_check_prob`), then the
    bins summed by :class:`~course_lib._stream.CalibrationAcc` over the groups of
    equal probabilities."""
    n_bins = _check_bins(n_bins, strategy)
    y, p, w = _check_prob(y_true, y_prob, sample_weight, what, scale=scale)
    chunks, totals = in_memory(y, p, w)
    acc = CalibrationAcc(totals, n_bins, _edges(p, w, n_bins, strategy))
    run(chunks, totals, acc)
    return _Binned(y, p, w, acc)


# ------------------------------------------------------------------------- metrics
def calibration_curve(
    y_true: Any,
    y_prob: Any,
    *,
    n_bins: int = 10,
    strategy: Strategy = "uniform",
    sample_weight: Any = None,
) -> ReliabilityCurve:
    """The reliability diagram: share of positives against mean probability, per bin.

    Without weights, ``prob_true`` and ``prob_pred`` equal those of
    :func:`sklearn.calibration.calibration_curve` with the same ``n_bins`` and
    ``strategy`` (scikit-learn's default ``n_bins`` is 5, this one's is 10). With
    integer weights they equal scikit-learn's on the data with each row repeated.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Labels 0/1 or bool.
    y_prob : array-like of shape (n,)
        Probabilities of class 1, in [0, 1].
    n_bins : int, default 10
        Number of bins (ignored by ``strategy="unique"``).
    strategy : {"uniform", "quantile", "unique"}, default "uniform"
        Equal-width bins on [0, 1], bins at the quantiles of ``y_prob``, or one bin
        per distinct probability. A probability on an inner edge belongs to the bin
        below the edge (see the module's docstring).
    sample_weight : array-like of shape (n,), optional
        Non-negative weights, not all zero.

    Returns
    -------
    ReliabilityCurve
        ``(prob_true, prob_pred, counts)`` for the non-empty bins, in bin order.

    Raises
    ------
    ValueError
        If a probability is outside [0, 1], ``n_bins`` is not a positive int, the
        strategy is unknown, or the input is otherwise invalid.

    Examples
    --------
    Table 1 with two bins: [0, 0.5] holds six objects with two positives, (0.5, 1]
    holds the object scored 0.6, a positive:

    >>> y = [0, 0, 0, 1, 1, 1, 0]
    >>> b = [0.5, 0.1, 0.2, 0.6, 0.2, 0.3, 0.0]
    >>> c = calibration_curve(y, b, n_bins=2)
    >>> c.prob_true.round(4).tolist(), c.prob_pred.round(4).tolist(), c.counts.tolist()
    ([0.3333, 1.0], [0.2167, 0.6], [6, 1])
    """
    # the counts are sums of the weights as given
    b = _binned(y_true, y_prob, sample_weight, n_bins, strategy, "the reliability curve",
                scale=False)
    _, weight, prob_true, prob_pred = b.acc.bins()
    return ReliabilityCurve(prob_true, prob_pred, weight)


def brier_score(y_true: Any, y_prob: Any, *, sample_weight: Any = None) -> float:
    """The Brier score: the (weighted) mean of ``(p_i - y_i)**2``.

    Equal to :func:`sklearn.metrics.brier_score_loss` for binary labels. It is 0 for
    sure and right answers, 1 for sure and wrong ones, 0.25 for the constant 1/2.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Labels 0/1 or bool.
    y_prob : array-like of shape (n,)
        Probabilities of class 1, in [0, 1].
    sample_weight : array-like of shape (n,), optional
        Non-negative weights, not all zero.

    Returns
    -------
    float
        The Brier score, in [0, 1].

    Raises
    ------
    ValueError
        If a probability is outside [0, 1] or the input is otherwise invalid.

    Examples
    --------
    >>> round(brier_score([1, 0], [0.9, 0.2]), 4)   # (0.1**2 + 0.2**2) / 2
    0.025
    """
    y, p, w = _check_prob(y_true, y_prob, sample_weight, "the Brier score")
    chunks, totals = in_memory(y, p, w)
    acc = CalibrationAcc(totals, 1)
    run(chunks, totals, acc)
    return acc.brier()


def log_loss(
    y_true: Any,
    y_prob: Any,
    *,
    labels: Any = None,
    eps: float = float(np.finfo(np.float64).eps),
    sample_weight: Any = None,
) -> float:
    """Mean negative log-likelihood of the true classes (cross-entropy, natural log).

    ``-mean_i log p_i(y_i)``, where ``p_i(y_i)`` is the probability given to the true
    class of object ``i``. Each such probability is first clipped to
    ``[eps, 1 - eps]``, so that a sure and wrong answer (probability 0 for the true
    class) costs ``-log(eps)`` (about 36.04 for the default ``eps``, the float64
    machine epsilon, as in scikit-learn) instead of infinity. With ``eps=0`` it may
    return ``inf``.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Labels: 0/1 (or bool) when ``y_prob`` is 1-D; any class labels when 2-D.
    y_prob : array-like of shape (n,) or (n, k)
        1-D: the probability of class 1. 2-D: one column per class, in the order of
        ``labels`` (default: the sorted classes of ``y_true``); rows must sum to 1.
    labels : array-like of shape (k,), optional
        The classes of the columns (only with a 2-D ``y_prob``).
    eps : float, default numpy.finfo(float).eps
        Clipping margin, in [0, 0.5).
    sample_weight : array-like of shape (n,), optional
        Non-negative weights, not all zero.

    Returns
    -------
    float
        The mean log-loss, >= 0.

    Raises
    ------
    ValueError
        If a probability is outside [0, 1] or NaN, rows do not sum to 1, the number of
        columns does not match the classes, or the input is otherwise invalid.

    Examples
    --------
    A confident mistake dominates: probabilities 0.9 and 0.8 for the truth, then 0.01:

    >>> round(log_loss([1, 0], [0.9, 0.2]), 4)   # (-ln 0.9 - ln 0.8) / 2
    0.1643
    >>> round(log_loss([1, 0, 1], [0.9, 0.2, 0.01]), 4)
    1.6446
    """
    eps = float(eps)
    if not 0 <= eps < 0.5:
        raise ValueError(f"eps must be in [0, 0.5), got {eps!r}")
    prob = np.asarray(y_prob)
    if prob.dtype.kind not in "biuf":
        raise ValueError(f"y_prob must be numeric, got dtype {prob.dtype}")
    prob = prob.astype(np.float64)
    if prob.size and np.isnan(prob).any():
        raise ValueError("y_prob contains NaN values")
    _need_unit(prob)
    if prob.ndim == 1:
        if labels is not None:
            raise ValueError("labels applies to a 2-D y_prob (one column per class) only")
        y = check_labels(y_true)
        if y.size != prob.size:
            raise ValueError(f"y_true and y_prob have different lengths: {y.size} and {prob.size}")
        p_true = np.where(y, prob, 1.0 - prob)
    elif prob.ndim == 2:
        yt = check_classes(y_true, "y_true")
        if yt.size != prob.shape[0]:
            raise ValueError(
                f"y_true and y_prob have different lengths: {yt.size} and {prob.shape[0]}"
            )
        lab = np.unique(yt) if labels is None else check_label_list(labels)
        if lab.size != prob.shape[1] or lab.size < 2:
            raise ValueError(
                f"y_prob has {prob.shape[1]} columns but there are {lab.size} classes "
                f"{lab.tolist()[:10]}; pass labels= to name the columns (at least 2)"
            )
        sums = prob.sum(axis=1)
        if not np.allclose(sums, 1.0, rtol=0, atol=np.sqrt(np.finfo(np.float64).eps)):
            row = int(np.argmax(np.abs(sums - 1.0)))
            raise ValueError(f"rows of y_prob must sum to 1; row {row} sums to {sums[row]!r}")
        p_true = prob[np.arange(yt.size), encode_labels(yt, lab, "y_true")]
    else:
        raise ValueError(f"y_prob must be 1-D or 2-D, got an array of shape {prob.shape}")
    w = check_weights(sample_weight, p_true.size)
    if w is not None and w.sum() == 0:
        undefined("the mean log-loss", None, warn=False)
    with np.errstate(divide="ignore"):
        loss = -np.log(np.clip(p_true, eps, 1.0 - eps))
    return float(np.average(loss, weights=w))


def brier_decomposition(
    y_true: Any,
    y_prob: Any,
    *,
    n_bins: int = 10,
    strategy: Strategy = "uniform",
    sample_weight: Any = None,
) -> BrierDecomposition:
    """Murphy's (1973) decomposition of the Brier score on bins.

    With bins ``k`` of weight share ``n_k / n``, mean probability ``f_k``, share of
    positives ``o_k`` and overall share of positives ``o``:

    * reliability ``= sum_k (n_k / n) (f_k - o_k)**2`` (0 for calibrated bins; lower
      is better),
    * resolution ``= sum_k (n_k / n) (o_k - o)**2`` (how far the bins' outcomes are
      from the base rate; higher is better),
    * uncertainty ``= o (1 - o)`` (the Brier score of the constant ``o``: a property
      of the data, not of the scores),

    and ``brier = reliability - resolution + uncertainty + within_bin``. The identity
    without ``within_bin`` is Murphy's, exact when the probabilities are constant
    within each bin (``strategy="unique"`` always). Otherwise the bins hide a part of
    the score: ``within_bin = (1/n) sum_i [(p_i - f_k)**2 - 2 (p_i - f_k)(y_i - o_k)]``,
    the within-bin variance minus twice the within-bin covariance of Stephenson,
    Coelho & Jolliffe (2008), and the binned reliability and resolution depend on
    the bins chosen.

    Parameters
    ----------
    y_true, y_prob, n_bins, strategy, sample_weight
        As in :func:`calibration_curve`.

    Returns
    -------
    BrierDecomposition
        ``(reliability, resolution, uncertainty, within_bin)``.

    Raises
    ------
    ValueError
        As :func:`calibration_curve`.

    Examples
    --------
    Probabilities constant within bins: the identity is exact.

    >>> y = [1, 0, 0, 1, 1, 0]
    >>> p = [0.2, 0.2, 0.2, 0.8, 0.8, 0.8]
    >>> d = brier_decomposition(y, p, strategy="unique")
    >>> [round(v, 4) for v in d]
    [0.0178, 0.0278, 0.25, 0.0]
    >>> round(d.reliability - d.resolution + d.uncertainty, 4), round(brier_score(y, p), 4)
    (0.24, 0.24)
    """
    y, p, w, acc = _binned(
        y_true, y_prob, sample_weight, n_bins, strategy, "the Brier decomposition"
    )
    keep, total, o, f = acc.bins()
    weight = float(total.sum())
    base = float(acc.sum_y.sum()) / float(acc.total.sum())
    reliability = float(np.dot(total, (f - o) ** 2)) / weight
    resolution = float(np.dot(total, (o - base) ** 2)) / weight
    ids = (np.cumsum(keep) - 1)[acc.bin_ids(p)]  # each object's bin among the kept ones
    dp = p - f[ids]
    within = np.average(dp**2 - 2 * dp * (y - o[ids]), weights=w)
    return BrierDecomposition(reliability, resolution, base * (1 - base), float(within))


def expected_calibration_error(
    y_true: Any,
    y_prob: Any,
    *,
    n_bins: int = 10,
    strategy: Strategy = "uniform",
    sample_weight: Any = None,
) -> float:
    """The expected calibration error: ``sum_k (n_k / n) |o_k - f_k|`` over bins.

    ``o_k`` is the share of positives and ``f_k`` the mean probability of bin ``k``
    (the points of :func:`calibration_curve`), weighted by the bin's share of the
    objects: the definition of Naeini, Cooper & Hauskrecht (2015) and of Guo et al.
    (2017), applied to the probability of class 1. (Guo et al. bin the *confidence*
    ``max(p, 1 - p)`` of the predicted class instead; for two classes that folds the
    diagram at 1/2 and gives another number; they also use 15 bins, where the
    default here is 10.) The value depends on the bins: more
    bins show more of the sampling noise, fewer bins let errors of opposite sign in
    one bin cancel.

    Parameters
    ----------
    y_true, y_prob, n_bins, strategy, sample_weight
        As in :func:`calibration_curve`.

    Returns
    -------
    float
        The ECE, in [0, 1].

    Raises
    ------
    ValueError
        As :func:`calibration_curve`.

    Examples
    --------
    One bin of probability 0.8 holding two positives of three: |2/3 - 0.8|.

    >>> round(expected_calibration_error([1, 1, 0], [0.8, 0.8, 0.8]), 4)
    0.1333
    """
    return _binned(y_true, y_prob, sample_weight, n_bins, strategy,
                   "the expected calibration error").acc.ece()


# ---------------------------------------------------------------------- the maps
def _need_two_values(s: np.ndarray, w: np.ndarray | None) -> None:
    live = s if w is None else s[w > 0]
    if live.min() == live.max():
        raise ValueError("y_score must take at least two distinct values (with positive weight)")


def platt_scaling(
    y_true: Any,
    y_score: Any,
    *,
    sample_weight: Any = None,
    targets: Literal["platt", "labels"] = "platt",
) -> PlattMap:
    """Fit ``p = 1 / (1 + exp(-(a s + b)))`` to labelled scores by maximum likelihood.

    Platt (1999) fits the sigmoid to *smoothed targets*: a positive counts as
    ``(m1 + 1) / (m1 + 2)`` and a negative as ``1 / (m0 + 2)`` (``m1``, ``m0`` the
    class totals, weighted if there are weights), so that the fit never reaches a
    probability of exactly 0 or 1 and always exists. That is ``targets="platt"``,
    the default, and what ``CalibratedClassifierCV(method="sigmoid")`` of
    scikit-learn 1.9 does (its ``_sigmoid_calibration`` returns ``(-a, -b)``).
    ``targets="labels"`` fits the labels themselves: plain logistic regression of
    the label on the score, as ``LogisticRegression`` without penalty; it exists
    only when the classes overlap in score.

    The cross-entropy is convex in ``(a, b)``; it is minimised by Newton's method with
    step halving (as Lin, Lin & Weng 2007 recommend for Platt's fit) on standardized
    scores, until the step no longer changes the parameters.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Labels 0/1 or bool; both classes present (with positive weight).
    y_score : array-like of shape (n,)
        Scores (any real numbers), at least two distinct values.
    sample_weight : array-like of shape (n,), optional
        Non-negative weights.
    targets : {"platt", "labels"}, default "platt"
        Platt's smoothed targets, or the 0/1 labels.

    Returns
    -------
    PlattMap
        ``(a, b)``; call it on scores to get calibrated probabilities.

    Raises
    ------
    ValueError
        If one class is missing, the scores are constant, ``targets="labels"`` and the
        scores separate the classes (no finite maximum exists), or the input is
        otherwise invalid.

    Examples
    --------
    >>> y = [0, 0, 1, 0, 1, 1, 1]
    >>> s = [-2.0, -1.0, -0.5, 0.5, 1.0, 2.0, 0.3]
    >>> m = platt_scaling(y, s, targets="labels")
    >>> round(m.a, 4), round(m.b, 4)
    (1.4957, 0.3706)
    >>> m([0.0, 1.0]).round(4).tolist()
    [0.5916, 0.866]
    >>> round(platt_scaling(y, s).a, 4)   # Platt's targets pull towards 1/2
    0.7197
    """
    if targets not in ("platt", "labels"):
        raise ValueError(f"targets must be 'platt' or 'labels', got {targets!r}")
    # the sigmoid computes with the scores: integers float64 cannot hold are refused;
    # Platt's targets count the classes in the weights' own units (_checks.SCALE_DEPENDENT)
    y, s, w = check_binary(y_true, y_score, sample_weight, on_inexact="raise", scale=False)
    s = s.astype(np.float64, copy=False)
    m1, m0 = class_totals(y, w)
    need_classes(m1, m0, "Platt scaling", warn=False)
    _need_two_values(s, w)
    if targets == "platt":
        t = np.where(y, (m1 + 1.0) / (m1 + 2.0), 1.0 / (m0 + 2.0))
    else:
        live = np.ones(y.size, dtype=bool) if w is None else w > 0
        pos, neg = s[y & live], s[~y & live]
        if not (neg.max() > pos.min() and pos.max() > neg.min()):
            raise ValueError(
                "the scores separate the classes, so the sigmoid of maximum likelihood "
                "has an infinite slope; use targets='platt'"
            )
        t = y.astype(np.float64)
    ww = np.ones(y.size) if w is None else w
    ww = ww / ww.sum()
    centre = float(np.dot(ww, s))
    scale = float(np.sqrt(np.dot(ww, (s - centre) ** 2)))
    x = (s - centre) / scale

    def loss(theta: np.ndarray) -> float:
        z = theta[0] * x + theta[1]
        # -t log sigmoid(z) - (1 - t) log(1 - sigmoid(z))
        return float(np.dot(ww, np.logaddexp(0.0, z) - t * z))

    theta = np.array([0.0, np.log((m1 + 1.0) / (m0 + 1.0))])
    current = loss(theta)
    for _ in range(200):
        q = _sigmoid(theta[0] * x + theta[1])
        g = np.array([np.dot(ww, (q - t) * x), np.dot(ww, q - t)])
        h = ww * q * (1 - q)
        hess = np.array([[np.dot(h, x * x), np.dot(h, x)], [np.dot(h, x), h.sum()]])
        step = np.linalg.solve(hess, g)
        # the Newton decrement g' H^-1 g is twice the decrease the step promises: once
        # it is below the rounding of the loss, the loss can no longer judge a step
        # (step halving would try ~34 smaller ones, each a pass over the data), but
        # the gradient still can: full Newton steps, which converge quadratically here
        if float(np.dot(g, step)) <= 64 * np.finfo(np.float64).eps * abs(current):
            moved = np.abs(step).max()
            theta = theta - step
            if moved <= 1e-15 * max(1.0, np.abs(theta).max()):
                break
            continue
        size = 1.0
        while True:
            trial = theta - size * step
            value = loss(trial)
            if value <= current or size < 1e-10:
                break
            size /= 2
        moved = np.abs(trial - theta).max()
        if value > current:
            break
        theta, current = trial, value
        if moved <= 1e-15 * max(1.0, np.abs(theta).max()):
            break
    a = float(theta[0] / scale)
    return PlattMap(a, float(theta[1] - a * centre))


def isotonic_calibration(
    y_true: Any,
    y_score: Any,
    *,
    sample_weight: Any = None,
    exact: bool = False,
) -> IsotonicMap:
    """The non-decreasing map of the scores closest to the labels: pool adjacent violators.

    Among all non-decreasing functions ``g``, the one that minimises the (weighted)
    Brier score ``sum_i w_i (g(s_i) - y_i)**2`` (Zadrozny & Elkan 2002). Objects with
    equal scores get one value (scikit-learn's ties: the labels of a tie are averaged
    first), and objects of zero weight are dropped, so the values equal those of
    :class:`sklearn.isotonic.IsotonicRegression` (which, unlike this function, also
    merges scores closer than about 1e-15). Each value is the share of positives of a
    block of consecutive scores; the blocks are the segments of the ROC convex hull
    (Fawcett & Niculescu-Mizil 2007).

    Pool adjacent violators: walk the distinct scores upwards keeping a stack of blocks
    (weight of positives, total weight); while the last block's share is not above the
    one before it, merge the two. Shares are compared by cross-multiplying the sums,
    and each value is one division of the block's two sums at the end, so with integer
    weights every value is the correctly rounded share.

    Parameters
    ----------
    y_true, y_score : array-like of shape (n,)
        Labels 0/1 or bool, and scores.
    sample_weight : array-like of shape (n,), optional
        Non-negative weights, not all zero.
    exact : bool, default False
        Values as :class:`fractions.Fraction` (needs no weights or integer weights).

    Returns
    -------
    IsotonicMap
        ``(thresholds, values)``; call it on scores to get calibrated probabilities.

    Raises
    ------
    ValueError
        If the weights are all zero, ``exact=True`` with fractional weights, or the
        input is otherwise invalid.

    Examples
    --------
    Table 1: the tie at 0.2 (one positive, one negative) is pooled first, then the
    scores 0.3 and 0.5 join it:

    >>> y = [0, 0, 0, 1, 1, 1, 0]
    >>> b = [0.5, 0.1, 0.2, 0.6, 0.2, 0.3, 0.0]
    >>> m = isotonic_calibration(y, b, exact=True)
    >>> m.thresholds.tolist()
    [0.0, 0.1, 0.2, 0.3, 0.5, 0.6]
    >>> [str(v) for v in m.values]
    ['0', '0', '1/2', '1/2', '1/2', '1']
    >>> m([0.25, 0.55, 0.9]).round(4).tolist()
    [0.5, 0.75, 1.0]
    """
    # the map only ranks the scores: integers float64 cannot hold keep their exact order
    exact, y, s, w = check_binary_exact(y_true, y_score, sample_weight, exact)
    need_weight(w, "the isotonic calibration map")
    g = score_groups(y, s, w)
    live = (g.pos + g.neg) > 0
    scores = g.scores[live][::-1]
    pos = g.pos[live][::-1]
    tot = (g.pos + g.neg)[live][::-1]
    # the stack of blocks: (positives, total, number of distinct scores)
    bp: list = []
    bt: list = []
    bn: list[int] = []
    for p_k, t_k in zip(pos.tolist(), tot.tolist()):
        bp.append(p_k)
        bt.append(t_k)
        bn.append(1)
        while len(bp) > 1 and bp[-1] * bt[-2] <= bp[-2] * bt[-1]:
            p_k, t_k, n_k = bp.pop(), bt.pop(), bn.pop()
            bp[-1] += p_k
            bt[-1] += t_k
            bn[-1] += n_k
    if exact:
        block = [Fraction(int(p_k), int(t_k)) for p_k, t_k in zip(bp, bt)]
        values = np.empty(scores.size, dtype=object)
        values[:] = [v for v, n_k in zip(block, bn) for _ in range(n_k)]
    else:
        shares = np.array(bp, dtype=np.float64) / np.array(bt, dtype=np.float64)
        values = np.repeat(shares, bn)
    return IsotonicMap(scores if scores.dtype.kind in "iu" else scores.astype(np.float64),
                       values)


# ------------------------------------------------------------- binomial intervals
class BinomialInterval(NamedTuple):
    """An interval ``[low, high]`` for the positive rate of a bin (floats, or arrays of
    the shape of the counts)."""

    low: Any
    high: Any


_INTERVAL_METHODS = ("jeffreys", "wilson")


def _check_counts(values: Any, name: str) -> np.ndarray:
    """Non-negative whole counts (ints, or floats that are whole) as float64."""
    arr = np.asarray(values)
    if arr.dtype == object or arr.dtype.kind not in "iuf":
        raise ValueError(f"{name} must be whole numbers (counts), got {values!r}")
    out = arr.astype(np.float64)
    if not np.all(np.isfinite(out)) or np.any(out < 0) or np.any(out != np.floor(out)):
        raise ValueError(f"{name} must be non-negative whole numbers (counts), got {values!r}")
    return out


def binomial_interval(
    positives: Any, total: Any, *, level: float = 0.95, method: str = "jeffreys"
) -> BinomialInterval:
    """A confidence interval for a positive rate: ``positives`` out of ``total`` objects.

    Parameters
    ----------
    positives : int or array-like of int
        The positives of each bin (whole counts, not weight sums).
    total : int or array-like of int
        The objects of each bin, each at least 1 and at least its ``positives``.
    level : float, default 0.95
        Confidence level, strictly between 0 and 1.
    method : {"jeffreys", "wilson"}, keyword-only
        ``"jeffreys"``: the equal-tailed interval of the Beta(k + 1/2, n - k + 1/2)
        posterior (Brown, Cai and DasGupta 2001), with the lower end 0 when k = 0 and
        the upper end 1 when k = n; the interval of the ECB's Jeffreys test of a
        grade's default rate. ``"wilson"``: Wilson's (1927) score interval.

    Returns
    -------
    BinomialInterval
        ``(low, high)``: floats for scalar counts, arrays for arrays.

    Raises
    ------
    ValueError
        For counts that are negative, not whole or not finite, a total of 0, more
        positives than objects, a level outside (0, 1) or an unknown method.

    Notes
    -----
    Both intervals stay inside [0, 1] and are not degenerate at k = 0 or k = n, where
    the Wald interval ``p +- z sqrt(p (1 - p) / n)`` collapses to a point. Weight sums
    are not counts: with sampling weights the rate needs an interval of its own
    (a bootstrap).

    Examples
    --------
    >>> low, high = binomial_interval(3, 10)
    >>> round(low, 4), round(high, 4)
    (0.0927, 0.6058)
    >>> [round(v, 4) for v in binomial_interval(3, 10, method="wilson")]
    [0.1078, 0.6032]
    >>> lows, highs = binomial_interval([0, 5], [5, 5])  # 0 of 5, 5 of 5
    >>> lows.round(4).tolist(), highs.round(4).tolist()
    ([0.0, 0.6206], [0.3794, 1.0])
    """
    from scipy.stats import beta, norm

    if isinstance(level, bool) or not isinstance(level, (int, float, np.floating)) or not 0 < level < 1:
        raise ValueError(f"level must be a number strictly between 0 and 1, got {level!r}")
    if method not in _INTERVAL_METHODS:
        raise ValueError(f"method must be 'jeffreys' or 'wilson', got {method!r}")
    k = _check_counts(positives, "positives")
    n = _check_counts(total, "total")
    try:
        k, n = np.broadcast_arrays(k, n)
    except ValueError:
        raise ValueError(
            f"positives and total must have the same shape, got {np.shape(k)} and {np.shape(n)}"
        ) from None
    if np.any(n < 1):
        raise ValueError("total must be at least 1 in every bin: an empty bin has no rate")
    if np.any(k > n):
        raise ValueError("positives must not exceed total in any bin")
    alpha = 1.0 - float(level)
    if method == "jeffreys":
        low = np.where(k > 0, beta.ppf(alpha / 2, k + 0.5, n - k + 0.5), 0.0)
        high = np.where(k < n, beta.ppf(1 - alpha / 2, k + 0.5, n - k + 0.5), 1.0)
    else:
        z = float(norm.ppf(1 - alpha / 2))
        p = k / n
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z / (1 + z * z / n) * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
        low = np.where(k > 0, np.clip(centre - half, 0.0, 1.0), 0.0)
        high = np.where(k < n, np.clip(centre + half, 0.0, 1.0), 1.0)
    if low.ndim == 0:
        return BinomialInterval(float(low), float(high))
    return BinomialInterval(low.astype(np.float64), high.astype(np.float64))


# ------------------------------------------------------------ calibration by band
class HosmerLemeshow(NamedTuple):
    """The Hosmer-Lemeshow test over bands: the statistic, its degrees of freedom
    (bands - 2) and the chi-squared p-value (nan without counts or with fewer than
    three bands)."""

    statistic: float
    df: int
    p_value: float


class CalibrationInTheLarge(NamedTuple):
    """The observed rate against the mean probability, their difference, and the
    two-sided normal test of ``sum y = sum p`` (variance ``sum p (1 - p)``)."""

    observed: float
    expected: float
    difference: float
    z: float
    p_value: float


class Recalibration(NamedTuple):
    """Logistic recalibration ``logit P(y = 1) = intercept + slope * logit(p)`` (a
    calibrated score has intercept 0 and slope 1), with Wald intervals from the observed
    information; ``clipped`` counts the scores outside ``[clip, 1 - clip]``."""

    intercept: float
    slope: float
    intercept_low: float
    intercept_high: float
    slope_low: float
    slope_high: float
    converged: bool
    clipped: float


def band_rule(distinct: int, *, given: bool = False, max_grades: int = 20) -> str:
    """The band rule of :func:`calibration_bands`: ``"given"`` for bands given,
    ``"grades"`` (one band per distinct score) for at most ``max_grades`` distinct
    scores, else ``"deciles"``.

    >>> band_rule(7), band_rule(5000), band_rule(7, given=True)
    ('grades', 'deciles', 'given')
    """
    if given:
        return "given"
    return "grades" if distinct <= max_grades else "deciles"


def bands_frame(counts: BandCounts, integral: bool) -> pd.DataFrame:
    """The table of :func:`calibration_bands` from the bands' sums (one row per band):
    the mean score, the observed rate and the one-sided binomial and Jeffreys tests
    (:func:`course_lib._stream.band_tests`; nan unless the obligors are counts)."""
    n, d = counts.obligors, counts.positives
    mean = counts.sum_p / n
    if integral:
        binom, jeffreys = band_tests(n, d, mean)
    else:
        binom = jeffreys = np.full(len(counts.keys), np.nan)
    return pd.DataFrame({
        "band": counts.keys,
        "max_score": counts.high,
        "min_score": counts.low,
        "obligors": n,
        "positives": d,
        "mean_score": mean,
        "observed_rate": d / n,
        "binomial_p": binom,
        "jeffreys_p": jeffreys,
    })


def _counted(w: np.ndarray | None) -> tuple[np.ndarray | None, bool, int]:
    """``(w, integral, exponent)`` of the weights as given: counts (none, or whole
    numbers below ``2**53`` in all) stay as they are (``exponent`` 0); other weights
    are scaled by :func:`~course_lib._checks.scale_weights` (exact), so that no sum or
    product of them overflows or underflows, and a sum ``v`` of them is
    ``numpy.ldexp(v, exponent)`` in the weights' own units."""
    if are_counts(w):
        return w, True, 0
    return scale_weights(w), False, weight_exponent(w)


def _band_counts(
    y_true: Any, y_prob: Any, bands: Any, n_bins: Any, max_grades: Any, sample_weight: Any,
    what: str,
) -> tuple[BandCounts, str, bool, int]:
    """Validated input summed by :class:`~course_lib._stream.BandAcc`: the counts, the
    rule, whether they are counts (no weights or integer weights) and the power of two
    of their units (:func:`_counted`: the sums of fractional weights are those of the
    scaled weights)."""
    n_bins = check_integer(n_bins, "n_bins", low=1)
    max_grades = check_integer(max_grades, "max_grades", low=0)
    y, p, given = _check_prob(y_true, y_prob, sample_weight, what, scale=False)
    w, integral, exponent = _counted(given)
    m1, m0 = class_totals(y, w)
    totals = Totals.of(m1, m0, integral)
    if bands is None:
        live = p if w is None else p[w > 0]
        rule = band_rule(np.unique(live).size, max_grades=max_grades)
        acc = BandAcc(totals, rule, n_bins)
        run(in_memory(y, p, w, integral=integral)[0], totals, acc)
        return acc.result(), rule, integral, exponent
    values = np.asarray(bands, dtype=object)
    if values.ndim != 1 or values.size != y.size:
        raise ValueError(f"bands must hold one band per object ({y.size}), got shape {values.shape}")
    missing = np.asarray(pd.isna(values), dtype=bool)
    present = list(dict.fromkeys(values[~missing].tolist()))
    try:
        present = sorted(present)
    except TypeError:
        pass
    acc = BandAcc(totals, "given")
    for key in present + ([None] if missing.any() else []):
        rows = missing if key is None else (~missing & (values == key))
        cum = Cumulator(totals)
        chunks = in_memory(y[rows], p[rows], None if w is None else w[rows],
                           integral=integral)[0]
        for ch in chunks:
            acc.update(cum.step(ch), key)
    return acc.result(), "given", integral, exponent


def calibration_bands(
    y_true: Any,
    y_prob: Any,
    *,
    bands: Any = None,
    n_bins: int = 10,
    max_grades: int = 20,
    sample_weight: Any = None,
) -> pd.DataFrame:
    """Calibration by band: obligors, positives, mean PD, observed rate and the
    one-sided binomial and Jeffreys tests of each band (the Jeffreys test as the ECB's
    instructions for reporting IRB validation results define it).

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Labels 0/1 (or bool); 1 is the default (positive) class.
    y_prob : array-like of shape (n,)
        Probabilities (PDs) in [0, 1].
    bands : array-like of shape (n,), optional
        The band (grade, pool) of each object; bands in increasing order of their
        values, a missing band last. Default: the grades when the scores take at most
        ``max_grades`` distinct values (one band each, highest score first), else the
        score deciles cut as :func:`course_lib.gains_table` cuts them (sorted by
        decreasing score, ties kept whole in the band of their first member).
    n_bins : int, default 10
        Bands of the decile rule.
    max_grades : int, default 20
        At most this many distinct scores are grades.
    sample_weight : array-like of shape (n,), optional
        Frequency weights (an object of weight 3 counts as three obligors); the tests
        need counts, so fractional weights give nan p-values.

    Returns
    -------
    pandas.DataFrame
        One row per band: ``band`` (the decile's number from the top, the grade's
        score, or the given value), ``max_score``, ``min_score``, ``obligors``,
        ``positives``, ``mean_score``, ``observed_rate``, ``binomial_p`` (``P(X >= d)``
        for ``X ~ Binomial(n, mean_score)``) and ``jeffreys_p`` (the CDF of ``Beta(d +
        1/2, n - d + 1/2)`` at ``mean_score``): both one-sided, small when the band
        defaults more than its PD says. ``attrs["rule"]`` names the rule used.

    Examples
    --------
    Two grades of PD 0.1 and 0.5:

    >>> t = calibration_bands([0, 0, 1, 1, 0, 1], [0.1, 0.1, 0.1, 0.5, 0.5, 0.5])
    >>> t["band"].tolist(), t["obligors"].tolist(), t["positives"].tolist()
    ([0.5, 0.1], [3, 3], [2, 1])
    >>> round(float(t["binomial_p"].iloc[1]), 4)  # P(X >= 1), X ~ Binomial(3, 0.1)
    0.271
    """
    counts, rule, integral, exponent = _band_counts(
        y_true, y_prob, bands, n_bins, max_grades, sample_weight, "calibration by band")
    frame = bands_frame(counts, integral)
    if exponent:  # the sums of weights in the weights' units (the rates are ratios)
        for column in ("obligors", "positives"):
            frame[column] = np.ldexp(frame[column].to_numpy(), exponent)
    frame.attrs["rule"] = rule
    return frame


def hosmer_lemeshow(
    y_true: Any,
    y_prob: Any,
    *,
    bands: Any = None,
    n_bins: int = 10,
    max_grades: int = 20,
    sample_weight: Any = None,
) -> HosmerLemeshow:
    """The Hosmer-Lemeshow test over the bands of :func:`calibration_bands`.

    ``C = sum_g (O_g - E_g)^2 / (E_g (1 - E_g / n_g))``, with ``O_g`` the positives,
    ``E_g`` the sum of the probabilities and ``n_g`` the obligors of band ``g``,
    referred to chi-squared with ``G - 2`` degrees of freedom (``G`` bands). The
    default bands are the score deciles (ties kept whole), Hosmer and Lemeshow's
    "deciles of risk".

    Parameters
    ----------
    y_true, y_prob, bands, n_bins, max_grades, sample_weight
        As in :func:`calibration_bands`.

    Returns
    -------
    HosmerLemeshow
        ``(statistic, df, p_value)``; the p-value is nan with fewer than three bands
        or fractional weights. The statistic is linear in the weights (weights times
        ``k`` give ``k`` times it): with weights that are not counts it is in their
        units, not a chi-squared variable.

    Examples
    --------
    >>> r = hosmer_lemeshow([0, 0, 1, 1, 0, 1], [0.1, 0.1, 0.1, 0.5, 0.5, 0.5],
    ...                     bands=[1, 1, 1, 2, 2, 3])
    >>> round(r.statistic, 4), r.df
    (2.8148, 1)
    """
    counts, _, integral, exponent = _band_counts(
        y_true, y_prob, bands, n_bins, max_grades, sample_weight, "the Hosmer-Lemeshow test")
    stat, df, p = hosmer_lemeshow_counts(counts.obligors, counts.positives, counts.sum_p)
    if exponent and math.isfinite(stat):  # linear in the weights: in their units
        try:
            stat = math.ldexp(stat, exponent)
        except OverflowError:
            stat = math.inf
    return HosmerLemeshow(stat, df, p if integral else math.nan)


def calibration_in_the_large(
    y_true: Any, y_prob: Any, *, sample_weight: Any = None
) -> CalibrationInTheLarge:
    """Calibration-in-the-large: is the observed rate the mean probability?

    ``z = (sum y - sum p) / sqrt(sum p (1 - p))``: under the hypothesis that every
    probability is right, the number of positives has mean ``sum p`` and variance
    ``sum p (1 - p)``; two-sided normal p-value.

    Parameters
    ----------
    y_true, y_prob, sample_weight
        As in :func:`calibration_bands` (frequency weights; fractional weights give
        nan for ``z`` and the p-value).

    Returns
    -------
    CalibrationInTheLarge
        ``(observed, expected, difference, z, p_value)``.

    Examples
    --------
    >>> r = calibration_in_the_large([1, 0, 0, 0], [0.5, 0.5, 0.5, 0.5])
    >>> r.observed, r.expected, r.z
    (0.25, 0.5, -1.0)
    """
    y, p, given = _check_prob(y_true, y_prob, sample_weight, "calibration-in-the-large",
                              scale=False)
    w, integral, _ = _counted(given)  # every number a ratio of the (scaled) sums
    m1, m0 = class_totals(y, w)
    totals = Totals.of(m1, m0, integral)
    acc = BandAcc(totals, "given")
    run(in_memory(y, p, w, integral=integral)[0], totals, acc)
    c = acc.result()
    r = citl_counts(c.obligors.sum(), c.positives.sum(), c.sum_p.sum(), c.sum_pq.sum())
    if not integral:
        r.update(z=float("nan"), p_value=float("nan"))
    return CalibrationInTheLarge(r["observed"], r["expected"], r["difference"], r["z"],
                                 r["p_value"])


def recalibration(fit: dict[str, Any], level: float, counts: bool) -> Recalibration:
    """A :func:`course_lib._stream.logistic_recalibration` fit as a
    :class:`Recalibration` with Wald intervals at ``level`` (nan unless ``counts``)."""
    a, b = fit["intercept"], fit["slope"]
    half_a = half_b = float("nan")
    if counts and fit["converged"]:
        z = float(ndtri((1 + level) / 2))
        half_a = z * float(np.sqrt(fit["cov"][0, 0]))
        half_b = z * float(np.sqrt(fit["cov"][1, 1]))
    return Recalibration(a, b, a - half_a, a + half_a, b - half_b, b + half_b,
                         bool(fit["converged"]), fit["clipped"])


def calibration_slope(
    y_true: Any,
    y_prob: Any,
    *,
    sample_weight: Any = None,
    level: float = 0.95,
    clip: float = CLIP,
) -> Recalibration:
    """Logistic recalibration: the calibration intercept and slope with intervals.

    Fits ``logit P(y = 1) = a + b logit(p)`` by maximum likelihood (Newton's method on
    the groups of equal probabilities, each counted with its weight; Cox 1958). A
    calibrated score has ``a = 0, b = 1``; ``b < 1`` says the probabilities are too
    extreme (over-fitting), ``b > 1`` too timid. Intervals are Wald intervals from the
    observed information.

    Parameters
    ----------
    y_true, y_prob, sample_weight
        As in :func:`calibration_bands` (frequency weights; fractional weights give
        the estimates without intervals).
    level : float, default 0.95
        Confidence level of the intervals.
    clip : float, default 1e-12
        Probabilities of exactly 0 or 1 have an infinite logit: every probability is
        clipped to ``[clip, 1 - clip]`` first (``clipped`` counts them).

    Returns
    -------
    Recalibration
        ``(intercept, slope, intercept_low, intercept_high, slope_low, slope_high,
        converged, clipped)``; a constant probability, or probabilities that separate
        the classes (no maximum of the likelihood), give nan with ``converged=False``.

    Examples
    --------
    >>> r = calibration_slope([0, 1, 0, 1, 1, 0, 0, 1], [0.2, 0.3, 0.4, 0.6, 0.7, 0.5, 0.1, 0.4])
    >>> round(r.intercept, 4), round(r.slope, 4), r.converged
    (0.7496, 1.6384, True)
    """
    if isinstance(level, bool) or not isinstance(level, (int, float)) or not 0 < level < 1:
        raise ValueError(f"level must be a number strictly between 0 and 1, got {level!r}")
    if isinstance(clip, bool) or not isinstance(clip, (int, float)) or not 0 < clip < 0.5:
        raise ValueError(f"clip must be a number in (0, 0.5), got {clip!r}")
    y, p, given = _check_prob(y_true, y_prob, sample_weight, "the calibration slope",
                              scale=False)
    w, integral, exponent = _counted(given)
    chunks, totals = in_memory(y, p, w, integral=integral)
    fit = logistic_recalibration(lambda: chunks, totals, clip=float(clip))
    if exponent:  # the weight of the clipped scores in the weights' units
        fit["clipped"] = float(np.ldexp(fit["clipped"], exponent))
    return recalibration(fit, float(level), integral)
