"""Precision-recall (PR) curves and the areas under them (syllabus ch. 7).

Thresholding the scores at each distinct score ``t`` (rule ``score >= t``) gives a point
``(recall, precision) = (TP / m1, TP / (TP + FP))``. Two areas summarise the curve:

* average precision, the step sum ``sum_n (R_n - R_{n-1}) P_n`` with ``R_0 = 0``
  (equal to scikit-learn's ``average_precision_score``);
* the trapezoid area: straight lines between the points, starting at recall 0 with the
  precision of the first point. Straight lines overstate what can be achieved between two
  points; :func:`achievable_pr` gives the true interpolation (Davis & Goadrich, 2006).
"""

from __future__ import annotations

import warnings
from fractions import Fraction
from typing import Any, NamedTuple

import numpy as np

from ._checks import UndefinedMetricWarning, check_binary, integer_weights
from ._groups import ScoreGroups, score_groups
from .roc import trapezoid_area

__all__ = [
    "PrCurve",
    "AchievablePr",
    "pr_curve",
    "average_precision",
    "pr_auc_trapezoid",
    "achievable_pr",
]


class PrCurve(NamedTuple):
    """PR points: ``recall[k]``, ``precision[k]`` for the rule ``score >= thresholds[k]``."""

    recall: np.ndarray
    precision: np.ndarray
    thresholds: np.ndarray


class AchievablePr(NamedTuple):
    """Points of the achievable PR curve between two ROC points (counts and rates)."""

    tp: np.ndarray
    fp: np.ndarray
    recall: np.ndarray
    precision: np.ndarray


def _cumulative(
    y: np.ndarray, s: np.ndarray, w: np.ndarray | None
) -> tuple[ScoreGroups, np.ndarray, np.ndarray] | None:
    """Score groups with cumulative TP and FP, or None when there is no positive.

    Inputs are validated. Groups of only zero-weight objects are dropped (they add no
    point), so every cumulative ``TP + FP`` is positive.
    """
    g = score_groups(y, s, w)
    if w is not None:
        keep = (g.pos + g.neg) > 0
        g = ScoreGroups(g.scores[keep], g.pos[keep], g.neg[keep])
    tp = np.cumsum(g.pos)
    fp = np.cumsum(g.neg)
    if tp[-1] == 0:
        return None
    return g, tp, fp


def _warn_no_positives(what: str) -> float:
    warnings.warn(
        f"{what} is undefined: there are no positive samples (recall has no denominator)",
        UndefinedMetricWarning,
        stacklevel=3,
    )
    return float("nan")


def pr_curve(y_true: Any, y_score: Any, *, sample_weight: Any = None) -> PrCurve:
    """Recall and precision at every distinct score, in decreasing score order.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Labels 0/1 or bool; at least one positive (with positive weight).
    y_score : array-like of shape (n,)
        Scores.
    sample_weight : array-like of shape (n,), optional
        Non-negative weights. Objects of zero weight add no point.

    Returns
    -------
    PrCurve
        ``(recall, precision, thresholds)``: one point per distinct score (no point
        is added at recall 0, where precision is 0/0); recall ends at 1.

    Raises
    ------
    ValueError
        If there is no positive, or the input is invalid.

    Examples
    --------
    Table 1: the rule ``b >= 0.5`` (threshold 0.4 in the book) calls objects 4 and 1
    positive, one of them truly is: R = 1/3, P = 1/2.

    >>> c = pr_curve([0, 0, 0, 1, 1, 1, 0], [0.5, 0.1, 0.2, 0.6, 0.2, 0.3, 0.0])
    >>> c.thresholds.tolist()
    [0.6, 0.5, 0.3, 0.2, 0.1, 0.0]
    >>> c.recall.round(3).tolist(), c.precision.round(3).tolist()
    ([0.333, 0.333, 0.667, 1.0, 1.0, 1.0], [1.0, 0.5, 0.667, 0.6, 0.5, 0.429])
    """
    cum = _cumulative(*check_binary(y_true, y_score, sample_weight))
    if cum is None:
        raise ValueError(
            "the PR curve is undefined: there are no positive samples "
            "(recall has no denominator)"
        )
    g, tp, fp = cum
    return PrCurve(tp / tp[-1], tp / (tp + fp), g.scores)


def average_precision(
    y_true: Any, y_score: Any, *, sample_weight: Any = None, exact: bool = False
) -> float | Fraction:
    """Average precision: ``sum_n (R_n - R_{n-1}) P_n`` over the PR points, ``R_0 = 0``.

    Equal to scikit-learn's ``average_precision_score``: the area under the PR curve
    drawn as a step function (each rise in recall at the precision reached there).

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Labels 0/1 or bool.
    y_score : array-like of shape (n,)
        Scores.
    sample_weight : array-like of shape (n,), optional
        Non-negative weights.
    exact : bool, default False
        Return a :class:`fractions.Fraction` (no weights or integer weights).

    Returns
    -------
    float or Fraction
        ``nan`` with an :class:`UndefinedMetricWarning` if there is no positive.

    Examples
    --------
    Table 1: recall rises by 1/3 at precisions 1 (object 4), 2/3 (object 6) and
    3/5 (objects 3 and 5 tie), so AP = (1 + 2/3 + 3/5) / 3 = 34/45:

    >>> y = [0, 0, 0, 1, 1, 1, 0]
    >>> b = [0.5, 0.1, 0.2, 0.6, 0.2, 0.3, 0.0]
    >>> average_precision(y, b, exact=True)
    Fraction(34, 45)
    >>> round(average_precision(y, b), 4)
    0.7556
    """
    y, s, w = check_binary(y_true, y_score, sample_weight)
    if exact:
        integer_weights(w)  # raises on fractional weights or too large a total
    cum = _cumulative(y, s, w)
    if cum is None:
        return _warn_no_positives("average precision")
    g, tp, fp = cum
    rises = g.pos > 0
    if exact:
        m1 = int(tp[-1])
        return sum(
            (Fraction(int(d), m1) * Fraction(int(t), int(t) + int(f))
             for d, t, f in zip(g.pos[rises], tp[rises], fp[rises])),
            Fraction(0),
        )
    precision = tp[rises] / (tp[rises] + fp[rises])
    return float(np.dot(g.pos[rises], precision) / tp[-1])


def pr_auc_trapezoid(y_true: Any, y_score: Any, *, sample_weight: Any = None) -> float:
    """Area under the PR points joined by straight lines (trapezoids).

    The line starts at recall 0 with the precision of the first point. Straight lines
    are not achievable in PR space (see :func:`achievable_pr`), so this area usually
    differs from :func:`average_precision`.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Labels 0/1 or bool.
    y_score : array-like of shape (n,)
        Scores.
    sample_weight : array-like of shape (n,), optional
        Non-negative weights.

    Returns
    -------
    float
        ``nan`` with an :class:`UndefinedMetricWarning` if there is no positive.

    Examples
    --------
    Scores 0.9 (positive), 0.8 (negative), 0.7 (positive): points (1/2, 1), (1/2, 1/2),
    (1, 2/3); area 1/2 * 1 + 0 + 1/2 * (1/2 + 2/3) / 2 = 19/24, while the average
    precision is 1/2 * 1 + 1/2 * 2/3 = 5/6:

    >>> round(pr_auc_trapezoid([1, 0, 1], [0.9, 0.8, 0.7]), 4)
    0.7917
    """
    cum = _cumulative(*check_binary(y_true, y_score, sample_weight))
    if cum is None:
        return _warn_no_positives("the PR AUC")
    _, tp, fp = cum
    recall = tp / tp[-1]
    precision = tp / (tp + fp)
    return trapezoid_area(np.r_[0.0, recall], np.r_[precision[0], precision])


def achievable_pr(tp_a: int, fp_a: int, tp_b: int, fp_b: int, n_pos: int) -> AchievablePr:
    """The achievable PR curve between ROC points A and B (Davis & Goadrich, 2006).

    Moving from A to B along the ROC segment, each extra true positive costs
    ``(fp_b - fp_a) / (tp_b - tp_a)`` false positives. For ``x = 1, ..., tp_b - tp_a``:
    ``TP = tp_a + x``, ``FP = fp_a + x (fp_b - fp_a) / (tp_b - tp_a)``,
    recall ``TP / n_pos`` and precision ``TP / (TP + FP)``; the last point is B.

    Parameters
    ----------
    tp_a, fp_a : int
        True and false positives at A.
    tp_b, fp_b : int
        True and false positives at B, with ``tp_b > tp_a`` and ``fp_b >= fp_a``.
    n_pos : int
        Number of positives in the data (``n_pos >= tp_b``).

    Returns
    -------
    AchievablePr
        ``(tp, fp, recall, precision)`` as float arrays of length ``tp_b - tp_a``.

    Examples
    --------
    From A = (TP 5, FP 5) to B = (TP 10, FP 30) with 20 positives (source C): five more
    false positives per true positive.

    >>> c = achievable_pr(5, 5, 10, 30, 20)
    >>> c.tp.tolist(), c.fp.tolist()
    ([6.0, 7.0, 8.0, 9.0, 10.0], [10.0, 15.0, 20.0, 25.0, 30.0])
    >>> c.precision.round(3).tolist()
    [0.375, 0.318, 0.286, 0.265, 0.25]
    """
    values = {"tp_a": tp_a, "fp_a": fp_a, "tp_b": tp_b, "fp_b": fp_b, "n_pos": n_pos}
    for name, v in values.items():
        if isinstance(v, bool) or not float(v).is_integer() or v < 0:
            raise ValueError(f"{name} must be a non-negative integer count, got {v!r}")
    if tp_b <= tp_a:
        raise ValueError(f"B must have more true positives than A: tp_b={tp_b}, tp_a={tp_a}")
    if fp_b < fp_a:
        raise ValueError(
            f"B must have at least as many false positives as A: fp_b={fp_b}, fp_a={fp_a}"
        )
    if n_pos < tp_b:
        raise ValueError(f"n_pos={n_pos} is smaller than tp_b={tp_b}")
    x = np.arange(1, int(tp_b) - int(tp_a) + 1, dtype=np.float64)
    tp = tp_a + x
    fp = fp_a + x * ((fp_b - fp_a) / (tp_b - tp_a))
    return AchievablePr(tp, fp, tp / n_pos, tp / (tp + fp))
