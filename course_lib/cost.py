"""Cost curves (Drummond & Holte 2006; source C; syllabus ch. 9).

Cost space has the *probability cost* ``PCF(+)`` on the x-axis (the operating
condition: class balance and misclassification costs folded into one number in [0, 1])
and the *normalized expected cost* ``NEC`` on the y-axis:

* ``PCF(+) = p(+) C(-|+) / (p(+) C(-|+) + p(-) C(+|-))``, where ``C(-|+)`` is the cost of
  a false negative and ``C(+|-)`` the cost of a false positive;
* a classifier with ROC point ``(FPR, TPR)`` has ``NEC = (1 - TPR - FPR) PCF + FPR``, a
  straight line from ``(0, FPR)`` to ``(1, 1 - TPR)``; with equal costs the x-axis is
  ``p(+)`` and ``NEC`` is the error rate.

ROC space and cost space are dual: a point in one is a line in the other and back
(:func:`roc_point_to_cost_line`, :func:`cost_line_to_roc_point`,
:func:`roc_line_to_cost_point`, :func:`cost_point_to_roc_line`). The trivial classifiers
are the diagonals: "always negative", ROC point (0, 0), costs ``NEC = PCF``; "always
positive", ROC point (1, 1), costs ``NEC = 1 - PCF``.

The cost curve of a scorer is the lower envelope of the lines of its ROC points (one
per threshold) and of the two trivial classifiers: at each operating condition the best
threshold. The lines on the envelope are exactly the vertices of the ROC convex hull
(:func:`cost_lower_envelope`). Cost curves of several models (for example
cross-validation folds) are averaged vertically, at equal ``PCF``
(:func:`vertical_average`); two models are compared by the difference of their curves
at the operating conditions of interest (:func:`cost_difference`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

from .roc import COLLINEAR_TOL

__all__ = [
    "CostLine",
    "CostPoint",
    "RocPoint",
    "RocLine",
    "CostEnvelope",
    "CostCurve",
    "probability_cost",
    "normalized_expected_cost",
    "trivial_cost",
    "roc_point_to_cost_line",
    "cost_line_to_roc_point",
    "roc_line_to_cost_point",
    "cost_point_to_roc_line",
    "cost_lower_envelope",
    "cost_curve",
    "vertical_average",
    "cost_difference",
    "iso_performance_slope",
]


class CostLine(NamedTuple):
    """The line ``NEC = slope * PCF + intercept`` in cost space."""

    slope: float
    intercept: float


class CostPoint(NamedTuple):
    """A point ``(PCF, NEC)`` of cost space."""

    pcf: float
    nec: float


class RocPoint(NamedTuple):
    """A point ``(FPR, TPR)`` of ROC space."""

    fpr: float
    tpr: float


class RocLine(NamedTuple):
    """The line ``TPR = slope * FPR + intercept`` in ROC space."""

    slope: float
    intercept: float


class CostEnvelope(NamedTuple):
    """The lower envelope in cost space and the ROC points whose lines form it.

    Point ``k`` (``fpr[k]``, ``tpr[k]``) is the best classifier for ``PCF`` between
    ``pcf[k]`` and ``pcf[k + 1]``; ``nec`` is the envelope at the ``pcf`` breakpoints
    (so ``(pcf, nec)`` is the cost curve as a polyline, from ``PCF = 0`` to ``1``).
    """

    fpr: np.ndarray
    tpr: np.ndarray
    pcf: np.ndarray
    nec: np.ndarray


class CostCurve(NamedTuple):
    """Values ``nec`` of a cost curve at the operating conditions ``pcf``."""

    pcf: np.ndarray
    nec: np.ndarray


# ----------------------------------------------------------------------------- helpers


def _real(values: Any, name: str) -> np.ndarray:
    arr = np.asarray(values)
    if arr.dtype.kind not in "biuf":
        raise ValueError(f"{name} must be numeric, got dtype {arr.dtype}")
    arr = arr.astype(np.float64)
    if not np.isfinite(arr).all():
        raise ValueError(f"{name} contains NaN or infinite values")
    return arr


def _unit(values: Any, name: str) -> np.ndarray:
    arr = _real(values, name)
    if ((arr < 0) | (arr > 1)).any():
        bad = arr[(arr < 0) | (arr > 1)].flat[0]
        raise ValueError(f"{name} must lie in [0, 1]; found {float(bad)!r}")
    return arr


def _positive(values: Any, name: str) -> np.ndarray:
    arr = _real(values, name)
    if (arr <= 0).any():
        raise ValueError(f"{name} must be positive; found {float(arr[arr <= 0].flat[0])!r}")
    return arr


def _scalar_or_array(values: np.ndarray) -> float | np.ndarray:
    return float(values) if values.ndim == 0 else values


def _roc_points(fpr: Any, tpr: Any) -> tuple[np.ndarray, np.ndarray]:
    f = _unit(fpr, "fpr")
    t = _unit(tpr, "tpr")
    if f.ndim != 1 or f.shape != t.shape:
        raise ValueError(
            f"fpr and tpr must be 1-D arrays of the same length, got shapes {f.shape} and "
            f"{t.shape}"
        )
    return f, t


# ------------------------------------------------------------------ the two axes


def probability_cost(p_pos: Any, c_fn: Any, c_fp: Any) -> float | np.ndarray:
    """The probability cost ``PCF(+) = p(+) C(-|+) / (p(+) C(-|+) + p(-) C(+|-))``.

    Parameters
    ----------
    p_pos : float or array-like in [0, 1]
        Share of positives ``p(+)`` in the population the classifier will meet.
    c_fn : float or array-like, positive
        Cost ``C(-|+)`` of calling a positive negative (a false negative).
    c_fp : float or array-like, positive
        Cost ``C(+|-)`` of calling a negative positive (a false positive).

    Returns
    -------
    float or numpy.ndarray
        ``PCF(+)`` in [0, 1]: a float when all inputs are scalars (arrays broadcast).

    Examples
    --------
    With equal costs ``PCF(+)`` is the share of positives; 10% positives whose
    misses cost 9 times a false alarm weigh as much as 50% positives at equal costs:

    >>> probability_cost(0.3, 1, 1)
    0.3
    >>> probability_cost(0.1, 9, 1)
    0.5
    """
    p = _unit(p_pos, "p_pos")
    fn = _positive(c_fn, "c_fn")
    fp = _positive(c_fp, "c_fp")
    weighted = p * fn
    return _scalar_or_array(weighted / (weighted + (1 - p) * fp))


def normalized_expected_cost(fpr: Any, tpr: Any, pcf: Any) -> float | np.ndarray:
    """Normalized expected cost ``NEC = (1 - TPR - FPR) PCF + FPR`` of a ROC point.

    ``NEC = FNR PCF + FPR (1 - PCF)``: the expected cost divided by the largest expected
    cost of a classifier (the worse trivial one), so it lies in [0, 1].

    Parameters
    ----------
    fpr, tpr : float or array-like in [0, 1]
        The ROC point(s).
    pcf : float or array-like in [0, 1]
        Operating condition(s), see :func:`probability_cost`. Arrays broadcast.

    Returns
    -------
    float or numpy.ndarray
        A float when all inputs are scalars.

    Examples
    --------
    The ROC point (0.2, 0.7) is the line from (0, 0.2) to (1, 0.3):

    >>> normalized_expected_cost(0.2, 0.7, [0, 0.5, 1]).round(4).tolist()
    [0.2, 0.25, 0.3]
    """
    f = _unit(fpr, "fpr")
    t = _unit(tpr, "tpr")
    x = _unit(pcf, "pcf")
    return _scalar_or_array((1 - t - f) * x + f)


def trivial_cost(pcf: Any) -> float | np.ndarray:
    """Cost of the better trivial classifier, ``min(PCF, 1 - PCF)``.

    "Always negative" (ROC point (0, 0)) costs ``PCF``, "always positive" (1, 1) costs
    ``1 - PCF``; a classifier is useful at ``PCF`` only if its cost is lower.

    Examples
    --------
    >>> trivial_cost([0, 0.2, 0.5, 0.9]).round(4).tolist()
    [0.0, 0.2, 0.5, 0.1]
    """
    x = _unit(pcf, "pcf")
    return _scalar_or_array(np.minimum(x, 1 - x))


# ------------------------------------------------------------------------- duality


def roc_point_to_cost_line(fpr: float, tpr: float) -> CostLine:
    """The cost line of a ROC point: ``NEC = (1 - TPR - FPR) PCF + FPR``.

    Examples
    --------
    >>> roc_point_to_cost_line(0.25, 0.5)
    CostLine(slope=0.25, intercept=0.25)
    """
    f, t = float(_unit(fpr, "fpr")), float(_unit(tpr, "tpr"))
    return CostLine(1 - t - f, f)


def cost_line_to_roc_point(slope: float, intercept: float) -> RocPoint:
    """The ROC point of a cost line ``NEC = a PCF + b``: ``FPR = b``, ``TPR = 1 - (a + b)``.

    Raises
    ------
    ValueError
        If the point falls outside the unit square (the line is no classifier's).

    Examples
    --------
    >>> cost_line_to_roc_point(0.25, 0.25)
    RocPoint(fpr=0.25, tpr=0.5)
    """
    a, b = float(_real(slope, "slope")), float(_real(intercept, "intercept"))
    f, t = b, 1 - (a + b)
    if not (0 <= f <= 1 and 0 <= t <= 1):
        raise ValueError(
            f"the cost line NEC = {a!r} PCF + {b!r} is no classifier's: its ROC point "
            f"({f!r}, {t!r}) is outside the unit square"
        )
    return RocPoint(f, t)


def roc_line_to_cost_point(slope: float, intercept: float) -> CostPoint:
    """The cost point of a ROC line ``TPR = S FPR + TP0``.

    It is ``PCF = 1 / (1 + S)``, ``NEC = (1 - TP0) PCF``: the ROC points on the line
    all cost the same at the operating condition ``PCF = 1 / (1 + S)`` (it is an
    iso-performance line there), so their cost lines meet at this point.

    Parameters
    ----------
    slope : float
        Non-negative slope ``S``.
    intercept : float
        The line's value ``TP0`` at ``FPR = 0``.

    Examples
    --------
    The ROC diagonal (S = 1, TP0 = 0) is the point (1/2, 1/2), where both trivial
    classifiers cost 1/2:

    >>> roc_line_to_cost_point(1, 0)
    CostPoint(pcf=0.5, nec=0.5)
    """
    s = float(_real(slope, "slope"))
    if s < 0:
        raise ValueError(f"slope must be non-negative, got {s!r}")
    tp0 = float(_real(intercept, "intercept"))
    x = 1 / (1 + s)
    return CostPoint(x, (1 - tp0) * x)


def cost_point_to_roc_line(pcf: float, nec: float) -> RocLine:
    """The ROC line of a cost point: ``TPR = (1/PCF - 1) FPR + (1 - NEC/PCF)``.

    Parameters
    ----------
    pcf : float
        In (0, 1]; at ``PCF = 0`` the ROC line would be vertical.
    nec : float
        The cost.

    Examples
    --------
    >>> cost_point_to_roc_line(0.5, 0.5)
    RocLine(slope=1.0, intercept=0.0)
    """
    x = float(_unit(pcf, "pcf"))
    if x == 0:
        raise ValueError("pcf must be positive: at PCF = 0 the ROC line is vertical")
    y = float(_real(nec, "nec"))
    return RocLine(1 / x - 1, 1 - y / x)


# ------------------------------------------------------------------------ envelope


def cost_lower_envelope(fpr: Any, tpr: Any) -> CostEnvelope:
    """Lower envelope of the cost lines of ROC points and of the trivial classifiers.

    A point belongs to the envelope when its line is the lowest on an interval of
    ``PCF`` of positive length (a line that only touches the envelope at one
    ``PCF``, like a point in the middle of a ROC hull edge, does not count). These
    points are the vertices of the ROC convex hull of the points and of (0, 0) and
    (1, 1), without the hull's dominated ends: (0, 0) drops out when a point has
    ``FPR = 0 < TPR`` (it is only optimal at ``PCF = 0``), and (1, 1) when a point
    has ``TPR = 1 > FPR``.

    Sorted by slope ``1 - TPR - FPR`` (decreasing), the lines are kept on a stack,
    and a line is dropped when the next one meets the line before it at or below
    it; the test is the sign of a 2x2 determinant of ROC coordinates, with the
    tolerance ``course_lib.roc.COLLINEAR_TOL`` (1e-14) so that float rates of a sample
    are judged as their exact fractions would be.

    Parameters
    ----------
    fpr, tpr : array-like of shape (k,) in [0, 1]
        ROC points, for example the vertices of a ROC curve.

    Returns
    -------
    CostEnvelope
        ``(fpr, tpr, pcf, nec)``: the envelope's points by increasing ``PCF`` of
        optimality (which is increasing FPR), and its ``k + 1`` breakpoints
        ``pcf[0] = 0 < ... < pcf[k] = 1`` with the envelope's values ``nec``.

    Examples
    --------
    The point (0.5, 0.25) is below the ROC diagonal and never helps; (0.25, 0.75)
    is best for ``PCF`` between 1/4 and 3/4, where it costs 1/4:

    >>> e = cost_lower_envelope([0.25, 0.5], [0.75, 0.25])
    >>> e.fpr.tolist(), e.tpr.tolist()
    ([0.0, 0.25, 1.0], [0.0, 0.75, 1.0])
    >>> e.pcf.tolist(), e.nec.tolist()
    ([0.0, 0.25, 0.75, 1.0], [0.0, 0.25, 0.25, 0.0])

    A point in the middle of a hull edge (here 0.15, 0.65, on the chord of its
    neighbours up to float rounding) is optimal at one PCF only and is left out:

    >>> cost_lower_envelope([0.1, 0.15, 0.2], [0.5, 0.65, 0.8]).fpr.tolist()
    [0.0, 0.1, 0.2, 1.0]
    """
    f, t = _roc_points(fpr, tpr)
    f = np.concatenate(([0.0, 1.0], f))
    t = np.concatenate(([0.0, 1.0], t))
    # by slope 1 - t - f decreasing (t + f increasing); equal slopes: lowest line first
    # (slopes rounded, so that float sums like 0.35 + 0.7 and 0.15 + 0.9 tie as they
    # should and the lower line, the one with the smaller FPR, comes first)
    order = np.lexsort((f, np.round(t + f, 12)))
    points: list[tuple[float, float]] = []
    for x, y in zip(f[order].tolist(), t[order].tolist()):
        if points and abs(points[-1][0] + points[-1][1] - (x + y)) <= COLLINEAR_TOL:
            continue  # parallel to the line before and not lower (higher FPR)
        while len(points) >= 2:
            (x1, y1), (x2, y2) = points[-2], points[-1]
            # the middle line is useless when the middle point is on or below the
            # chord of its neighbours in ROC space
            if (x2 - x1) * (y - y1) - (y2 - y1) * (x - x1) >= -COLLINEAR_TOL:
                points.pop()
            else:
                break
        points.append((x, y))
    ef = np.array([p[0] for p in points])
    et = np.array([p[1] for p in points])
    # consecutive lines meet at PCF = dFPR / (dFPR + dTPR)
    df, dt = np.diff(ef), np.diff(et)
    meet = df / (df + dt)
    # keep the lines that are lowest on a piece of (0, 1) of positive length
    left = np.concatenate(([-np.inf], meet))
    right = np.concatenate((meet, [np.inf]))
    keep = (left < 1) & (right > 0)
    ef, et = ef[keep], et[keep]
    pcf = np.concatenate(([0.0], meet[keep[:-1] & keep[1:]], [1.0]))
    nec = np.concatenate(([ef[0]], (1 - et - ef)[:-1] * pcf[1:-1] + ef[:-1], [1 - et[-1]]))
    return CostEnvelope(ef, et, pcf, nec)


def cost_curve(fpr: Any, tpr: Any, pcf: Any) -> float | np.ndarray:
    """The cost curve of a set of ROC points at given operating conditions.

    The value at ``PCF`` is the lowest normalized expected cost among the points
    and the two trivial classifiers: the cost of the best threshold.

    Parameters
    ----------
    fpr, tpr : array-like of shape (k,) in [0, 1]
        ROC points (for example a ROC curve's vertices).
    pcf : float or array-like in [0, 1]
        Operating conditions.

    Returns
    -------
    float or numpy.ndarray
        A float for a scalar ``pcf``.

    Examples
    --------
    >>> cost_curve([0.25, 0.5], [0.75, 0.25], [0.1, 0.5, 0.9]).round(4).tolist()
    [0.1, 0.25, 0.1]
    """
    x = _unit(pcf, "pcf")
    e = cost_lower_envelope(fpr, tpr)
    return _scalar_or_array(np.interp(x, e.pcf, e.nec))


def _curve_points(curve: Any, name: str) -> tuple[Any, Any]:
    try:
        fpr, tpr = curve[0], curve[1]
    except (TypeError, IndexError, KeyError):
        raise ValueError(
            f"{name} must be a sequence whose first two items are the FPR and TPR arrays, "
            f"such as a (fpr, tpr) pair or a ROC curve"
        ) from None
    return fpr, tpr


def vertical_average(curves: Sequence[Any], pcf: Any) -> CostCurve:
    """Average the cost curves of several models at equal ``PCF`` (vertically).

    Unlike averaging ROC curves, which must pair up points of different curves, the
    vertical average of cost curves is itself the expected cost, at each operating
    condition, of a model drawn at random from the group (e.g. the folds of a
    cross-validation).

    Parameters
    ----------
    curves : sequence of ROC curves
        Each curve is a sequence whose first two items are its FPR and TPR arrays: a
        ``(fpr, tpr)`` pair, a :class:`course_lib.RocCurve`, or the result of
        ``sklearn.metrics.roc_curve``.
    pcf : array-like in [0, 1]
        Operating conditions.

    Returns
    -------
    CostCurve
        ``(pcf, nec)``: the mean of the curves' values at each ``pcf``.

    Examples
    --------
    Two folds: one ROC point each, (0, 0.5) and (0.5, 1); at PCF = 1/2 both cost 1/4:

    >>> avg = vertical_average([([0.0], [0.5]), ([0.5], [1.0])], [0, 0.5, 1])
    >>> avg.nec.tolist()
    [0.0, 0.25, 0.0]
    """
    if len(curves) == 0:
        raise ValueError("curves is empty: give at least one ROC curve")
    x = _unit(pcf, "pcf")
    if x.ndim != 1:
        raise ValueError(f"pcf must be 1-D, got shape {x.shape}")
    values = [cost_curve(*_curve_points(c, f"curves[{i}]"), x) for i, c in enumerate(curves)]
    return CostCurve(x, np.mean(np.asarray(values, dtype=np.float64), axis=0))


def cost_difference(curve_a: Any, curve_b: Any, pcf: Any) -> float | np.ndarray:
    """Cost of model A minus cost of model B at given operating conditions.

    Negative where A is better. An operating condition ``(p(+), C(-|+), C(+|-))``
    becomes a ``PCF`` with :func:`probability_cost`.

    Parameters
    ----------
    curve_a, curve_b : ROC curves
        As in :func:`vertical_average`.
    pcf : float or array-like in [0, 1]
        Operating conditions; a float ``pcf`` gives a float, as in :func:`cost_curve`.

    Examples
    --------
    A catches more positives (TPR 0.9 against 0.6) at more false alarms (FPR 0.3
    against 0.1). With 10% positives whose misses cost 5 times a false alarm,
    ``PCF = 0.5 / 1.4 = 5/14``; A costs ``0.3 - 0.2 * 5/14 = 0.2286``, B costs
    ``0.1 + 0.3 * 5/14 = 0.2071``, so B is better:

    >>> a, b = ([0.3], [0.9]), ([0.1], [0.6])
    >>> x = probability_cost(0.1, 5, 1)
    >>> round(x * 14, 10), round(cost_difference(a, b, x), 4)
    (5.0, 0.0214)
    """
    x = _unit(pcf, "pcf")
    nec_a = cost_curve(*_curve_points(curve_a, "curve_a"), x)
    nec_b = cost_curve(*_curve_points(curve_b, "curve_b"), x)
    return _scalar_or_array(np.asarray(nec_a - nec_b))


def iso_performance_slope(p_pos: Any, c_fn: Any, c_fp: Any) -> float | np.ndarray:
    """Slope ``S = p(-) C(+|-) / (p(+) C(-|+))`` of the iso-performance lines in ROC space.

    All ROC points on a line ``TPR = S FPR + c`` have the same expected cost
    (Fawcett, 2006); for a sample, ``S = m0 C(+|-) / (m1 C(-|+))``. The line of this
    slope through a ROC point is the point of cost space at
    ``PCF(+) = 1 / (1 + S)`` (:func:`roc_line_to_cost_point`), so
    ``S = 1 / PCF(+) - 1``.

    Parameters
    ----------
    p_pos : float or array-like in (0, 1)
        Share of positives ``p(+)`` (both classes must occur).
    c_fn : float or array-like, positive
        Cost ``C(-|+)`` of a false negative.
    c_fp : float or array-like, positive
        Cost ``C(+|-)`` of a false positive.

    Returns
    -------
    float or numpy.ndarray
        ``S >= 0``: a float when all inputs are scalars (arrays broadcast).

    Examples
    --------
    Balanced classes at equal costs: slope 1. Ten per cent positives whose misses cost
    nine false alarms: slope 1 as well (``PCF(+) = 1/2``).

    >>> iso_performance_slope(0.5, 1, 1)
    1.0
    >>> iso_performance_slope(0.1, 9, 1)
    1.0
    >>> iso_performance_slope(0.25, 1, 1)
    3.0
    """
    p = _unit(p_pos, "p_pos")
    if ((p <= 0) | (p >= 1)).any():
        raise ValueError(f"p_pos must lie strictly between 0 and 1; found "
                         f"{float(p[(p <= 0) | (p >= 1)].flat[0])!r}")
    fn = _positive(c_fn, "c_fn")
    fp = _positive(c_fp, "c_fp")
    return _scalar_or_array((1 - p) * fp / (p * fn))
