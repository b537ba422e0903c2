"""The partial AUC and the H-measure: two repairs of the AUC (book chapter 17).

Partial AUC
-----------
:func:`partial_roc_auc` is the area under the ROC curve (ties as the straight segment
between the corners of their group, as in :func:`course_lib.roc.roc_curve`) over a
range of false positive rates ``[a, b]``, the curve interpolated linearly at the two
ends. McClish (1989) standardization maps it to ``1/2 (1 + (pAUC - min) / (max -
min))``, where ``min = (b**2 - a**2) / 2`` is the area under the diagonal over the
range and ``max = b - a`` the range's width: a scorer no better than chance gets 1/2,
a perfect one 1, whatever the range. With ``max_fpr=m`` (the range ``[0, m]``) and
``standardized="mcclish"`` this is ``sklearn.metrics.roc_auc_score(..., max_fpr=m)``.
A range of true positive rates (pROC's ``partial.auc.focus="sensitivity"``) is the
area under the curve inside a horizontal band ``a <= TPR <= b``.

H-measure
---------
Hand (2009) writes the loss of the rule "positive when ``score >= t``" with the
normalized cost ``c`` of a false positive (``1 - c`` of a false negative) as
``Q(t; c) = c pi0 FPR(t) + (1 - c) pi1 (1 - TPR(t))``, where ``pi1`` is the positive
share. Its minimum over ``t``, ``L(c)``, is reached at a vertex of the ROC convex hull,
and vertex ``k`` is optimal for ``c`` between the slopes' break points
``c_k = pi1 dTPR_k / (pi0 dFPR_k + pi1 dTPR_k)``. :func:`h_measure` averages ``L(c)``
over a Beta(alpha, beta) density of ``c`` exactly, segment by segment, with
regularized incomplete beta functions, and compares it with the loss of the best
trivial rule: ``H = 1 - E[L] / E[min(c pi0, (1 - c) pi1)]``. The defaults are those of
the R package hmeasure (Anagnostopoulos & Hand): ``alpha = 2`` and
``beta = 1 + (alpha - 1) / SR``, which puts the mode of the density at
``c = SR / (1 + SR)``, with the severity ratio ``SR = pi1 / pi0`` unless given (so the
mode is at ``c = pi1``); ``SR = 1`` gives Hand's (2009) Beta(2, 2).

:func:`auc_cost_weights` is Hand's argument in its exact empirical form: the area
under the ROC convex hull equals ``1 - E_w[L(c)] / (2 pi0 pi1)`` when ``c`` takes the
value ``c_k`` with probability ``pi0 dFPR_k + pi1 dTPR_k`` (the share of all objects
on hull segment ``k``): the AUC is an expected minimum loss, but under a cost
distribution that the scorer itself chooses.
"""

from __future__ import annotations

import numbers
from fractions import Fraction
from typing import Any, NamedTuple

import numpy as np
from scipy import special

from ._checks import (
    check_binary,
    check_binary_exact,
    class_totals,
    has_both_classes,
    need_classes,
)
from ._stream import HullAcc, PartialAcc, in_memory, run

__all__ = [
    "CostWeights",
    "partial_roc_auc",
    "h_measure",
    "minimum_loss",
    "auc_cost_weights",
]


class CostWeights(NamedTuple):
    """The cost distribution implied by the AUC: ``cost[k]`` with probability ``weight[k]``."""

    cost: np.ndarray
    weight: np.ndarray


# ----------------------------------------------------------------------------- partial AUC


def range_end(value: Any, name: str) -> float | Fraction:
    """A range end as a number in [0, 1]: Fraction for ints and Fractions, else float
    (a ValueError naming ``name`` otherwise). Shared with the report's options."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (numbers.Real, np.number)):
        raise ValueError(f"{name} must be a number in [0, 1], got {value!r}")
    if isinstance(value, numbers.Rational) and not isinstance(value, np.number):
        out: float | Fraction = Fraction(value)
    elif isinstance(value, np.integer):
        out = Fraction(int(value))
    else:
        out = float(value)
        if not np.isfinite(out):
            raise ValueError(f"{name} must be a number in [0, 1], got {value!r}")
    if not 0 <= out <= 1:
        raise ValueError(f"{name} must be a number in [0, 1], got {value!r}")
    return out


def _check_range(
    max_fpr: Any, fpr_range: Any, tpr_range: Any
) -> tuple[str, float | Fraction, float | Fraction]:
    """``(axis, a, b)`` from the one range option given; axis is "fpr" or "tpr"."""
    given = [n for n, v in (("max_fpr", max_fpr), ("fpr_range", fpr_range),
                            ("tpr_range", tpr_range)) if v is not None]
    if len(given) != 1:
        shown = ", ".join(given) if given else "none"
        raise ValueError(
            f"give exactly one of max_fpr, fpr_range, tpr_range (got {shown})"
        )
    if max_fpr is not None:
        b = range_end(max_fpr, "max_fpr")
        if b == 0:
            raise ValueError(f"max_fpr must be in (0, 1], got {max_fpr!r}")
        return "fpr", Fraction(0), b
    name = given[0]
    pair = fpr_range if fpr_range is not None else tpr_range
    if isinstance(pair, (str, bytes)) or not hasattr(pair, "__len__") or len(pair) != 2:
        raise ValueError(f"{name} must be a pair (a, b) with 0 <= a < b <= 1, got {pair!r}")
    a = range_end(pair[0], name)
    b = range_end(pair[1], name)
    if not a < b:
        raise ValueError(f"{name} must be a pair (a, b) with 0 <= a < b <= 1, got {pair!r}")
    return ("fpr" if name == "fpr_range" else "tpr"), a, b


def _check_standardized(standardized: Any) -> bool:
    if standardized is False or (isinstance(standardized, np.bool_) and not standardized):
        return False
    if isinstance(standardized, str) and standardized == "mcclish":
        return True
    raise ValueError(f'standardized must be False or "mcclish", got {standardized!r}')


def partial_roc_auc(
    y_true: Any,
    y_score: Any,
    *,
    max_fpr: Any = None,
    fpr_range: Any = None,
    tpr_range: Any = None,
    standardized: Any = False,
    sample_weight: Any = None,
    exact: bool = False,
) -> float | Fraction:
    """Area under the ROC curve over a range of FPR (or a band of TPR).

    Parameters
    ----------
    y_true, y_score : array-like of shape (n,)
        Labels 0/1 or bool, and scores (a larger score means "more likely positive").
    max_fpr : number in (0, 1], optional
        The range ``[0, max_fpr]`` of false positive rates (scikit-learn's name).
    fpr_range : pair (a, b), optional
        The range ``a <= FPR <= b``, ``0 <= a < b <= 1`` (pROC's
        ``partial.auc=c(1 - a, 1 - b)``, a range of specificity).
    tpr_range : pair (a, b), optional
        Instead, the area under the curve inside the band ``a <= TPR <= b`` (the
        region right of the curve, as pROC's ``partial.auc.focus="sensitivity"``).
        Exactly one of ``max_fpr``, ``fpr_range``, ``tpr_range`` is given.
    standardized : {False, "mcclish"}, default False
        ``"mcclish"``: McClish's (1989) ``1/2 (1 + (pAUC - min) / (max - min))``,
        ``min`` the area under the diagonal in the region and ``max`` its width, so
        that chance gives 1/2 and a perfect scorer 1. No value is refused: a curve
        below the diagonal gives less than 1/2 (pROC returns NA there).
    sample_weight : array-like of shape (n,), optional
        Non-negative weights.
    exact : bool, default False
        Return a :class:`fractions.Fraction`; needs no weights or integer weights.
        Without weights the area is exact anyway, and the float is the Fraction
        correctly rounded. A float range end is then read as the decimal it prints
        as (``0.1`` is 1/10); ints and Fractions are taken as they are.

    Returns
    -------
    float or Fraction
        The partial area (standardized if asked); ``nan`` with an
        :class:`UndefinedMetricWarning` if one class is missing.

    Raises
    ------
    ValueError
        If not exactly one range is given, a range is not ``0 <= a < b <= 1``,
        ``standardized`` is not False or "mcclish", or the input is invalid.

    Examples
    --------
    Table 1 of the book: the ROC curve rises to TPR 1/3 at FPR 0, then runs flat to
    FPR 1/4. Over FPR 0 to 1/4 the area is 1/4 x 1/3:

    >>> y = [0, 0, 0, 1, 1, 1, 0]
    >>> b = [0.5, 0.1, 0.2, 0.6, 0.2, 0.3, 0.0]
    >>> partial_roc_auc(y, b, max_fpr=0.25, exact=True)
    Fraction(1, 12)
    >>> partial_roc_auc(y, b, max_fpr=0.25, standardized="mcclish", exact=True)
    Fraction(13, 21)
    >>> round(partial_roc_auc(y, b, fpr_range=(0.25, 0.5)), 6)
    0.208333
    """
    axis, a, b = _check_range(max_fpr, fpr_range, tpr_range)
    std = _check_standardized(standardized)
    exact, y, s, w = check_binary_exact(y_true, y_score, sample_weight, exact,
                                        int_weights=True)
    if not has_both_classes(y, w, "the partial ROC AUC"):
        return float("nan")
    chunks, totals = in_memory(y, s, w, integral=w is None or exact)
    part = PartialAcc(totals, b, a, axis)
    run(chunks, totals, part)
    area = part.result()[1 if std else 0]
    return area if exact else float(area)


# ----------------------------------------------------------------------------- H-measure


class _Hull(NamedTuple):
    fpr: np.ndarray
    tpr: np.ndarray
    breaks: np.ndarray  # c_k between vertex k-1 and k, k = 1..K (non-increasing)
    pi1: float


def _hull_and_breaks(y: np.ndarray, s: np.ndarray, w: np.ndarray | None) -> _Hull:
    """The ROC convex hull (:class:`~course_lib._stream.HullAcc`), the costs where its
    vertices take turns, and ``pi1``."""
    chunks, totals = in_memory(y, s, w)
    pi1 = float(totals.m1) / float(totals.n)
    acc = HullAcc(totals)
    run(chunks, totals, acc)
    fpr, tpr, _ = acc.result()
    return _Hull(fpr, tpr, _breaks(fpr, tpr, pi1), pi1)


def _breaks(fpr: np.ndarray, tpr: np.ndarray, pi1: float) -> np.ndarray:
    """The costs ``c_k`` where the hull's vertices ``k - 1`` and ``k`` take turns."""
    df, dt = np.diff(fpr), np.diff(tpr)
    return pi1 * dt / ((1 - pi1) * df + pi1 * dt)


def _check_positive(value: Any, name: str) -> float:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (numbers.Real, np.number)):
        raise ValueError(f"{name} must be a positive number, got {value!r}")
    out = float(value)
    if not (np.isfinite(out) and out > 0):
        raise ValueError(f"{name} must be a positive number, got {value!r}")
    return out


def _shape(severity_ratio: Any, alpha: Any, beta: Any, pi1: float) -> tuple[float, float]:
    """The Beta parameters of the cost density (validated)."""
    a = _check_positive(alpha, "alpha")
    if beta is not None:
        if severity_ratio is not None:
            raise ValueError(
                "give severity_ratio or beta, not both: beta = 1 + (alpha - 1) / "
                "severity_ratio places the mode of the cost density"
            )
        return a, _check_positive(beta, "beta")
    sr = pi1 / (1 - pi1) if severity_ratio is None else _check_positive(
        severity_ratio, "severity_ratio")
    b = 1 + (a - 1) / sr
    if not b > 0:
        raise ValueError(
            f"beta = 1 + (alpha - 1) / severity_ratio = {b!r} is not positive; "
            "choose alpha >= 1 or give beta"
        )
    return a, b


def h_measure(
    y_true: Any,
    y_score: Any,
    *,
    severity_ratio: Any = None,
    alpha: Any = 2,
    beta: Any = None,
    sample_weight: Any = None,
) -> float:
    """Hand's H-measure: 1 minus the expected minimum loss over a Beta cost density,
    relative to the best trivial rule.

    Parameters
    ----------
    y_true, y_score : array-like of shape (n,)
        Labels 0/1 or bool, and scores (a larger score means "more likely positive").
    severity_ratio : positive number, optional
        ``SR = c / (1 - c)``: how much worse a false positive is than a false negative
        at the mode of the cost density. Default ``pi1 / pi0`` (the positives' share
        over the negatives'), as in the R package hmeasure.
    alpha : positive number, default 2
        First Beta parameter.
    beta : positive number, optional
        Second Beta parameter; default ``1 + (alpha - 1) / severity_ratio`` (the R
        package's choice, mode at ``c = SR / (1 + SR)``). Give ``beta=2`` (and no
        severity ratio) for Hand's (2009) Beta(2, 2).
    sample_weight : array-like of shape (n,), optional
        Non-negative weights; ``pi1`` is then the positives' share of the weight.

    Returns
    -------
    float
        H in [0, 1]; ``nan`` with an :class:`UndefinedMetricWarning` if one class is
        missing. Scores are used as given: the R package reverses scores whose AUC is
        below 1/2 (with a warning), this function does not (their hull is the
        diagonal's, so such scores get H = 0 or close to it).

    Raises
    ------
    ValueError
        If alpha, beta or severity_ratio is not a positive number, both
        severity_ratio and beta are given, or the input is invalid.

    Examples
    --------
    A perfect ranking has H = 1 and a constant score H = 0:

    >>> y = [0, 0, 0, 1, 1, 1, 0]
    >>> h_measure(y, [1, 2, 3, 5, 6, 7, 4])
    1.0
    >>> h_measure(y, [0.5] * 7)
    0.0

    Table 1 of the book, with Hand's Beta(2, 2) and with the R package's default:

    >>> b = [0.5, 0.1, 0.2, 0.6, 0.2, 0.3, 0.0]
    >>> round(h_measure(y, b, beta=2), 6), round(h_measure(y, b), 6)
    (0.414276, 0.422271)
    """
    y, s, w = check_binary(y_true, y_score, sample_weight)
    if not has_both_classes(y, w, "the H-measure"):
        _shape(severity_ratio, alpha, beta, 0.5)  # still validate the options
        return float("nan")
    hull = _hull_and_breaks(y, s, w)
    return h_measure_from_hull(hull.fpr, hull.tpr, hull.pi1, severity_ratio=severity_ratio,
                               alpha=alpha, beta=beta)


def h_measure_from_hull(
    fpr: np.ndarray,
    tpr: np.ndarray,
    pi1: float,
    *,
    severity_ratio: Any = None,
    alpha: Any = 2,
    beta: Any = None,
) -> float:
    """The H-measure from the vertices of the ROC convex hull (increasing FPR, from
    (0, 0) to (1, 1)) and the positives' share ``pi1``: the one formula, used by
    :func:`h_measure` and by the report, which builds the hull from streamed counts.
    ``severity_ratio``, ``alpha`` and ``beta`` as in :func:`h_measure`.

    >>> h_measure_from_hull(np.array([0.0, 0.0, 1.0]), np.array([0.0, 1.0, 1.0]), 0.5)
    1.0
    """
    a, b = _shape(severity_ratio, alpha, beta, pi1)
    if fpr.size == 2:  # the hull is the diagonal: no better than a trivial rule
        return 0.0
    pi0 = 1 - pi1
    breaks = _breaks(fpr, tpr, pi1)
    # M(x) = int_0^x c u(c) dc and N(x) = int_0^x (1 - c) u(c) dc for u = Beta(a, b)
    edges = np.concatenate(([1.0], breaks, [0.0]))  # vertex k: [edges[k+1], edges[k]]
    m = a / (a + b) * special.betainc(a + 1, b, edges)
    n = b / (a + b) * special.betainc(a, b + 1, edges)
    dm = m[:-1] - m[1:]
    dn = n[:-1] - n[1:]
    loss = float(np.dot(pi0 * fpr, dm) + np.dot(pi1 * (1 - tpr), dn))
    # the best trivial rule: all positive (loss c pi0) below c = pi1, all negative above
    worst = (pi0 * a / (a + b) * float(special.betainc(a + 1, b, pi1))
             + pi1 * b / (a + b) * float(special.betainc(b + 1, a, 1 - pi1)))
    h = 1 - loss / worst
    return float(min(max(h, 0.0), 1.0))


def minimum_loss(
    y_true: Any, y_score: Any, cost: Any, *, sample_weight: Any = None
) -> float | np.ndarray:
    """Hand's minimum loss ``L(c) = min_t c pi0 FPR(t) + (1 - c) pi1 (1 - TPR(t))``.

    The minimum over thresholds is taken over the vertices of the ROC convex hull
    (randomizing between two thresholds reaches the hull's edges, never beyond), so
    ``L`` is the lower envelope of straight lines in ``c``, concave, zero at both ends.

    Parameters
    ----------
    y_true, y_score : array-like of shape (n,)
        Labels 0/1 or bool (both classes present) and scores.
    cost : float or array-like in [0, 1]
        The normalized cost ``c`` of a false positive (``1 - c`` of a false negative).
    sample_weight : array-like of shape (n,), optional
        Non-negative weights.

    Returns
    -------
    float or ndarray
        ``L(c)``, of the shape of ``cost``.

    Raises
    ------
    ValueError
        If a cost is outside [0, 1], one class is missing, or the input is invalid.

    Examples
    --------
    >>> y = [0, 0, 0, 1, 1, 1, 0]
    >>> b = [0.5, 0.1, 0.2, 0.6, 0.2, 0.3, 0.0]
    >>> [round(float(v), 6) for v in minimum_loss(y, b, [0.0, 0.5, 1.0])]
    [0.0, 0.142857, 0.0]
    """
    y, s, w = check_binary(y_true, y_score, sample_weight)
    c = np.asarray(cost, dtype=np.float64)
    if not (np.isfinite(c).all() and (c >= 0).all() and (c <= 1).all()):
        raise ValueError(f"cost must lie in [0, 1], got {cost!r}")
    need_classes(*class_totals(y, w), "the minimum loss", warn=False, stacklevel=2)
    hull = _hull_and_breaks(y, s, w)
    # vertex k is optimal where breaks[k] <= c <= breaks[k - 1]: k = #{breaks > c}
    k = np.searchsorted(-hull.breaks, -c, side="left")
    pi1 = hull.pi1
    out = c * (1 - pi1) * hull.fpr[k] + (1 - c) * pi1 * (1 - hull.tpr[k])
    return float(out) if out.ndim == 0 else out


def auc_cost_weights(y_true: Any, y_score: Any, *, sample_weight: Any = None) -> CostWeights:
    """The cost distribution under which the AUC of the ROC hull is an expected loss.

    Hand (2009): with ``c = cost[k]`` drawn with probability ``weight[k]``,
    ``AUC_hull = 1 - E[L(c)] / (2 pi0 pi1)`` (:func:`minimum_loss`). ``cost[k]`` is
    the cost at which hull vertices ``k - 1`` and ``k`` are equally good (the
    calibrated score of the objects on segment ``k``), and ``weight[k]`` is the share
    of all objects on that segment, ``pi0 dFPR_k + pi1 dTPR_k``: the distribution
    depends on the scorer's own score distribution.

    Parameters
    ----------
    y_true, y_score : array-like of shape (n,)
        Labels 0/1 or bool (both classes present) and scores.
    sample_weight : array-like of shape (n,), optional
        Non-negative weights.

    Returns
    -------
    CostWeights
        ``(cost, weight)``, costs decreasing, weights adding up to 1.

    Raises
    ------
    ValueError
        If one class is missing or the input is invalid.

    Examples
    --------
    Table 1: the hull (0, 0), (0, 1/3), (1/2, 1), (1, 1) has three segments, holding
    1, 4 and 2 of the 7 objects; its area is 5/6, and ``1 - E[L] / (2 pi0 pi1)``
    gives it back:

    >>> y = [0, 0, 0, 1, 1, 1, 0]
    >>> b = [0.5, 0.1, 0.2, 0.6, 0.2, 0.3, 0.0]
    >>> cw = auc_cost_weights(y, b)
    >>> [round(float(v), 12) for v in cw.cost], [round(float(7 * v), 12) for v in cw.weight]
    ([1.0, 0.5, 0.0], [1.0, 4.0, 2.0])
    >>> expected = float(np.dot(cw.weight, minimum_loss(y, b, cw.cost)))
    >>> round(1 - expected / (2 * 4 / 7 * 3 / 7), 12)
    0.833333333333
    """
    y, s, w = check_binary(y_true, y_score, sample_weight)
    need_classes(*class_totals(y, w), "the AUC's cost weighting", warn=False, stacklevel=2)
    hull = _hull_and_breaks(y, s, w)
    pi1 = hull.pi1
    weight = (1 - pi1) * np.diff(hull.fpr) + pi1 * np.diff(hull.tpr)
    return CostWeights(hull.breaks, weight)
