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

from fractions import Fraction
from typing import Any, NamedTuple

import numpy as np

from ._checks import (
    check_binary,
    check_binary_exact,
    need_classes,
)
from ._curves import CurveView
from ._groups import Cumulative, cumulative_counts
from ._stream import ApAcc, CurveAcc, Totals, in_memory, run
from .roc import roc_convex_hull, roc_curve, trapezoid_area

__all__ = [
    "EXACT_AP_LIMIT",
    "PrCurve",
    "AchievablePr",
    "pr_curve",
    "average_precision",
    "pr_auc_trapezoid",
    "achievable_pr",
    "HullPr",
    "hull_pr",
    "pr_dominates",
    "min_precision",
    "min_pr_auc",
    "PrgCurve",
    "precision_recall_gain_curve",
    "prg_auc",
]


class _PrFields(NamedTuple):
    recall: np.ndarray
    precision: np.ndarray
    thresholds: np.ndarray


class PrCurve(CurveView, _PrFields):
    """PR points: ``recall[k]``, ``precision[k]`` for the rule ``score >= thresholds[k]``.

    ``c.xy`` is ``(recall, precision)``; ``c.at_threshold(t)`` the point of
    ``score >= t``. (``c.at(recall)`` reads the straight segments between the points,
    which are not achievable: see :func:`achievable_pr`.)
    """

    __slots__ = ()
    _x, _y = "recall", "precision"


#: Most distinct scores for ``average_precision(..., exact=True)`` (see its docstring).
EXACT_AP_LIMIT = 20_000


class HullPr(NamedTuple):
    """PR points of the ROC convex hull's vertices and the achievable curve through them."""

    recall: np.ndarray
    precision: np.ndarray
    achievable_recall: np.ndarray
    achievable_precision: np.ndarray


class AchievablePr(NamedTuple):
    """Points of the achievable PR curve between two ROC points (counts and rates)."""

    tp: np.ndarray
    fp: np.ndarray
    recall: np.ndarray
    precision: np.ndarray




def _cumulative(
    y: np.ndarray, s: np.ndarray, w: np.ndarray | None, what: str, *, warn: bool
) -> Cumulative | None:
    """Running TP and FP per distinct score, or None (after a warning) when there is no
    positive weight; ``warn=False`` raises instead.

    Inputs are validated. Groups of only zero-weight objects are dropped (they add no
    point), so every cumulative ``TP + FP`` is positive. Weights come rescaled (exactly,
    by a power of two: :func:`course_lib._checks.check_weights`), as every PR quantity
    is a ratio of them.
    """
    c = cumulative_counts(y, s, w)
    if not need_classes(c.m1, c.m0, what, warn=warn, negatives=False, stacklevel=3):
        return None
    return c


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
    y, s, w = check_binary(y_true, y_score, sample_weight)
    return pr_of(*in_memory(y, s, w), y.size)


def pr_of(chunks: Any, totals: Totals, size: int) -> PrCurve:
    """:func:`pr_curve` of the engine's chunks (at most ``size`` groups)."""
    need_classes(totals.m1, totals.m0, "the PR curve", warn=False, negatives=False)
    curve = CurveAcc(totals, size, origin=False)
    run(chunks, totals, curve)
    tp, fp, thresholds = curve.counts()
    return PrCurve(tp / tp[-1], tp / (tp + fp), thresholds)


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
        Return a :class:`fractions.Fraction` (no weights or integer weights). Its
        denominator is the least common multiple of the ``TP + FP`` of every point,
        which grows with n (about 0.19 n decimal digits on random data: 0.8 s at
        n = 10**5, minutes at 10**6), so ``exact=True`` is limited to
        ``EXACT_AP_LIMIT`` = 20,000 distinct scores; use floats beyond.

    Returns
    -------
    float or Fraction
        ``nan`` with an :class:`UndefinedMetricWarning` if there is no positive.

    Raises
    ------
    ValueError
        If ``exact=True`` and there are more than ``EXACT_AP_LIMIT`` distinct scores,
        or the weights are not integers, or the input is invalid.

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
    exact, y, s, w = check_binary_exact(y_true, y_score, sample_weight, exact)
    chunks, totals = in_memory(y, s, w, integral=w is None or exact, scores=False)
    if exact:
        distinct = sum(g[0].size for g in chunks)
        if distinct > EXACT_AP_LIMIT:
            raise ValueError(
                f"exact=True is limited to {EXACT_AP_LIMIT:,} distinct scores (got "
                f"{distinct:,}): the exact fraction's denominator grows with "
                "every point; use exact=False"
            )
    return ap_of(chunks, totals, exact=exact, stacklevel=3)


def ap_of(chunks: Any, totals: Totals, *, exact: bool = False, stacklevel: int = 2) -> Any:
    """:func:`average_precision` of the engine's chunks (a Fraction with ``exact``)."""
    if not need_classes(totals.m1, totals.m0, "average precision", warn=True,
                        negatives=False, stacklevel=stacklevel + 1):
        return float("nan")
    ap = ApAcc(totals, exact=exact)
    run(chunks, totals, ap)
    return ap.result()


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
    y, s, w = check_binary(y_true, y_score, sample_weight)
    c = _cumulative(y, s, w, "the PR AUC", warn=True)
    if c is None:
        return float("nan")
    recall = c.tp / c.m1
    precision = c.tp / (c.tp + c.fp)
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


def hull_pr(y_true: Any, y_score: Any) -> HullPr:
    """The PR curve of the ROC convex hull: the best PR points any mix of thresholds reaches.

    Every point of the ROC convex hull is achievable (by randomising between two
    thresholds), and a point below it never is the best. In PR space the hull's
    vertices become PR points and the hull's straight edges become the *achievable*
    curves between them (:func:`achievable_pr`, one point per extra true positive),
    not straight lines (Davis & Goadrich, 2006).

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Labels 0/1 or bool; both classes present.
    y_score : array-like of shape (n,)
        Scores.

    Returns
    -------
    HullPr
        ``(recall, precision)`` of the hull's vertices with TP > 0, by increasing
        recall (the flat end at TPR = 1 left out), and ``(achievable_recall,
        achievable_precision)``, the achievable curve from the first vertex on.

    Examples
    --------
    Labels 1, 0, 1, 1, 0, 0 by decreasing score: the hull joins (0, 0), (0, 1/3),
    (1/3, 1) and (1, 1) in ROC space, so between its PR vertices (1/3, 1) and (1, 3/4)
    the two extra positives cost one negative, half a negative each:

    >>> h = hull_pr([1, 0, 1, 1, 0, 0], [6, 5, 4, 3, 2, 1])
    >>> h.recall.round(4).tolist(), h.precision.round(4).tolist()
    ([0.3333, 1.0], [1.0, 0.75])
    >>> h.achievable_recall.round(4).tolist(), h.achievable_precision.round(4).tolist()
    ([0.3333, 0.6667, 1.0], [1.0, 0.8, 0.75])
    """
    y, s, _ = check_binary(y_true, y_score)
    m1 = int(np.count_nonzero(y))
    m0 = y.size - m1
    roc = roc_curve(y, s)
    hull = roc_convex_hull(roc.fpr, roc.tpr)
    tp = np.rint(hull.tpr * m1).astype(np.int64)
    fp = np.rint(hull.fpr * m0).astype(np.int64)
    keep = np.r_[True, np.diff(tp) > 0]  # drop the flat end at TPR = 1
    tp, fp = tp[keep], fp[keep]
    parts = [achievable_pr(tp[k - 1], fp[k - 1], tp[k], fp[k], m1) for k in range(1, tp.size)]
    return HullPr(
        tp[1:] / m1,
        tp[1:] / (tp[1:] + fp[1:]),
        np.concatenate([p.recall for p in parts]),
        np.concatenate([p.precision for p in parts]),
    )


def _fp_span(tp: np.ndarray, fp: np.ndarray, k: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Least and most false positives of a ROC path (``tp``, ``fp`` from the origin)
    where it has ``k`` true positives: the ends of a run of negatives at ``TP = k``, or
    the point on a tie step that crosses ``TP = k`` (linear, as ties broken at random).
    """

    def along(j: np.ndarray) -> np.ndarray:  # FP where segment (j - 1, j) reaches TP = k
        a = np.maximum(j - 1, 0)
        rise = np.where(tp[j] > tp[a], tp[j] - tp[a], 1)
        return fp[a] + (k - tp[a]) * (fp[j] - fp[a]) / rise

    first = np.searchsorted(tp, k, side="left")
    last = np.searchsorted(tp, k, side="right") - 1
    low = np.where(tp[first] == k, fp[first], along(first))
    high = np.where(tp[last] == k, fp[last], along(np.minimum(last + 1, tp.size - 1)))
    return low.astype(np.float64), high.astype(np.float64)


def pr_dominates(y_true: Any, score_a: Any, score_b: Any) -> bool:
    """True when the PR curve of ``score_a`` is nowhere below that of ``score_b``.

    At a given recall (``TP`` true positives) a higher precision means fewer false
    positives, so ``a`` dominates ``b`` when, at every ``TP``, ``a``'s path needs no
    more false positives than ``b``'s. Both paths are linear between the integer
    ``TP = 0, 1, ..., m1`` (a tie of several positives is crossed along its achievable
    curve, as ties broken at random), so comparing there the least and the most false
    positives of each path (the top and the bottom of a drop in precision) decides it;
    ``TP = 0`` stands for the limit at recall 0+. For the same labels this holds
    exactly when :func:`~course_lib.roc_dominates` does (Davis & Goadrich, 2006).

    Parameters
    ----------
    y_true, score_a, score_b
        As in :func:`~course_lib.roc_dominates` (at least one positive is needed).

    Returns
    -------
    bool

    Examples
    --------
    Tying the top positive with a negative is worse than ranking the positive first,
    and better than ranking it second:

    >>> labels = [1, 0, 1, 0]
    >>> pr_dominates(labels, [4, 3, 2, 1], [4, 4, 2, 1])
    True
    >>> pr_dominates(labels, [4, 4, 2, 1], [3, 4, 2, 1])
    True
    >>> pr_dominates(labels, [4, 4, 2, 1], [4, 3, 2, 1])
    False
    """
    ends = []
    for score in (score_a, score_b):
        y, s, _ = check_binary(y_true, score)
        c = _cumulative(y, s, None, "the PR curve", warn=False)
        assert c is not None
        tp = np.r_[0, c.tp]
        fp = np.r_[0, c.fp]
        ends.append(_fp_span(tp, fp, np.arange(0, int(c.m1) + 1)))
    (low_a, high_a), (low_b, high_b) = ends
    tol = 1e-9  # false positives are multiples of 1/(the largest tie's positives)
    return bool(np.all(low_a <= low_b + tol) and np.all(high_a <= high_b + tol))


# --------------------------------------------------------------------------------------
# PR space under class imbalance: the unachievable region and precision-recall-gain


def _share(positive_share: Any) -> float:
    """The positive share ``pi`` as a float strictly between 0 and 1."""
    if isinstance(positive_share, (bool, np.bool_)):
        raise ValueError(f"positive_share must be a number in (0, 1), got {positive_share!r}")
    try:
        pi = float(positive_share)
    except (TypeError, ValueError):
        raise ValueError(
            f"positive_share must be a number in (0, 1), got {positive_share!r}"
        ) from None
    if not 0 < pi < 1:
        raise ValueError(f"positive_share must lie strictly between 0 and 1, got {pi!r}")
    return pi


def min_precision(recall: Any, *, positive_share: Any) -> float | np.ndarray:
    """The least precision any ranking can have at a given recall (Boyd et al., 2012).

    With a share ``pi`` of positives, reaching recall ``r`` takes ``r m1`` true
    positives; the worst case ranks every negative above them, so precision is at least
    ``r m1 / (r m1 + m0) = pi r / (pi r + 1 - pi)``. Below that curve lies the
    *unachievable region* of PR space.

    Parameters
    ----------
    recall : float or array-like in [0, 1]
        Recall values.
    positive_share : float in (0, 1)
        The share of positives ``pi = m1 / (m0 + m1)``.

    Returns
    -------
    float or numpy.ndarray
        The least precision at each recall (0 at recall 0, ``pi`` at recall 1).

    Examples
    --------
    >>> min_precision([0.0, 0.5, 1.0], positive_share=0.5).tolist()
    [0.0, 0.3333333333333333, 0.5]
    """
    pi = _share(positive_share)
    r = np.asarray(recall, dtype=np.float64)
    if not np.isfinite(r).all() or ((r < 0) | (r > 1)).any():
        raise ValueError("recall must lie in [0, 1]")
    out = pi * r / (pi * r + 1 - pi)
    return float(out) if out.ndim == 0 else out


def min_pr_auc(*, positive_share: Any) -> float:
    """Area of the unachievable region: ``1 + (1 - pi) ln(1 - pi) / pi`` (Boyd et al., 2012).

    The integral of :func:`min_precision` over recall from 0 to 1; no PR curve drawn
    through achievable points has less area under it. It tends to ``pi / 2`` as
    ``pi -> 0`` and to 1 as ``pi -> 1``.

    Parameters
    ----------
    positive_share : float in (0, 1)
        The share of positives ``pi``.

    Returns
    -------
    float

    Examples
    --------
    >>> round(min_pr_auc(positive_share=0.5), 6)
    0.306853
    >>> round(min_pr_auc(positive_share=0.01), 6)
    0.005017
    """
    pi = _share(positive_share)
    return float(1 + (1 - pi) * np.log1p(-pi) / pi)


class _PrgFields(NamedTuple):
    recall_gain: np.ndarray
    precision_gain: np.ndarray
    thresholds: np.ndarray


class PrgCurve(CurveView, _PrgFields):
    """Points of a precision-recall-gain curve: ``recall_gain[k]``, ``precision_gain[k]``.

    ``thresholds[k]`` is the rule ``score >= thresholds[k]``; ``nan`` marks the point
    added where the curve crosses recall gain 0 (a randomized mix of two thresholds).
    """

    __slots__ = ()
    _x, _y = "recall_gain", "precision_gain"


def precision_recall_gain_curve(
    y_true: Any, y_score: Any, *, sample_weight: Any = None
) -> PrgCurve:
    """The precision-recall-gain (PRG) curve of Flach & Kull (2015).

    With ``pi`` the share of positives, every threshold's recall and precision become

    ``recG = (R - pi) / ((1 - pi) R) = 1 - (m1/m0) FN/TP`` and
    ``precG = (P - pi) / ((1 - pi) P) = 1 - (m1/m0) FP/TP``.

    Both are projective in the counts, so the straight segment between two ROC points
    (a randomized rule) is a straight segment in PRG space too. The curve keeps the
    points with ``recG >= 0`` (recall at least ``pi``) and starts with the point where
    the path crosses ``recG = 0``, found on the ROC segment that crosses recall
    ``pi``, as the reference implementation of the authors does. Precision gain is
    negative where precision is below ``pi``; it is not clipped.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Labels 0/1 or bool; both classes present (with positive weight).
    y_score : array-like of shape (n,)
        Scores.
    sample_weight : array-like of shape (n,), optional
        Non-negative weights.

    Returns
    -------
    PrgCurve
        ``(recall_gain, precision_gain, thresholds)`` by decreasing threshold,
        recall gain from 0 to 1; the curve ends at ``(1, 0)``, the rule that calls
        everyone positive.

    Raises
    ------
    ValueError
        If a class is missing, or the input is invalid.

    Examples
    --------
    The example of the authors' package: labels 1, 1, 0, 0, 1, 0 with scores 0.8, 0.8,
    0.6, 0.4, 0.4, 0.2:

    >>> c = precision_recall_gain_curve([1, 1, 0, 0, 1, 0], [0.8, 0.8, 0.6, 0.4, 0.4, 0.2])
    >>> c.recall_gain.tolist()
    [0.0, 0.5, 0.5, 1.0, 1.0]
    >>> c.precision_gain.round(4).tolist()
    [1.0, 1.0, 0.5, 0.3333, 0.0]
    """
    y, s, w = check_binary(y_true, y_score, sample_weight)
    c = cumulative_counts(y, s, w)
    m1, m0 = float(c.m1), float(c.m0)
    need_classes(m1, m0, "the PRG curve", warn=False)
    tp = np.r_[0.0, c.tp]
    fp = np.r_[0.0, c.fp]
    thresholds = np.r_[np.nan, c.thresholds]
    pi = m1 / (m1 + m0)
    target = m1 * pi  # the true positives at recall pi (recall gain 0)
    first = int(np.flatnonzero(tp >= target * (1 - 1e-12))[0])
    keep = np.arange(first, tp.size)
    if not tp[first] <= target * (1 + 1e-12):  # crosses inside the segment before
        a, b = first - 1, first
        fp_cross = fp[a] + (target - tp[a]) * (fp[b] - fp[a]) / (tp[b] - tp[a])
        tp_k = np.r_[target, tp[keep]]
        fp_k = np.r_[fp_cross, fp[keep]]
        th_k = np.r_[np.nan, thresholds[keep]]
    else:
        tp_k, fp_k, th_k = tp[keep], fp[keep], thresholds[keep]
    ratio = m1 / m0
    recall_gain = 1 - ratio * (m1 - tp_k) / tp_k
    precision_gain = 1 - ratio * fp_k / tp_k
    recall_gain[np.abs(recall_gain) < 1e-12] = 0.0
    return PrgCurve(recall_gain, precision_gain, th_k)


def prg_auc(y_true: Any, y_score: Any, *, sample_weight: Any = None) -> float:
    """Area under the precision-recall-gain curve (AUPRG, Flach & Kull, 2015).

    The trapezoid area under :func:`precision_recall_gain_curve` for recall gain
    from 0 to 1 (linear interpolation is achievable in PRG space); parts with negative
    precision gain count negatively, as in the authors' ``calc_auprg``. Because the
    F1-gain of a point is ``(precG + recG) / 2``, AUPRG is linear in the expected
    F1-gain of operating points spread uniformly over recall gain:
    ``E[FG1] = AUPRG / 2 + 1/4``.

    Parameters
    ----------
    y_true, y_score, sample_weight
        As in :func:`precision_recall_gain_curve`.

    Returns
    -------
    float
        1 for a perfect ranking, 0 when every score is tied.

    Examples
    --------
    The authors' example (their package prints 0.7083 = 17/24):

    >>> round(prg_auc([1, 1, 0, 0, 1, 0], [0.8, 0.8, 0.6, 0.4, 0.4, 0.2]), 4)
    0.7083
    """
    c = precision_recall_gain_curve(y_true, y_score, sample_weight=sample_weight)
    return trapezoid_area(c.recall_gain, c.precision_gain)
