"""The ROC curve and the area under it (AUC), built on the grid of syllabus ch. 2-3.

The unit square is cut into ``m1`` rows (one per positive) and ``m0`` columns (one per
negative). Walking the objects in non-increasing score order, a group of equal scores
with ``k1`` positives and ``k0`` negatives moves the path from the node
``(i/m0, j/m1)`` to ``((i + k0)/m0, (j + k1)/m1)``; ties make diagonal moves. The path
is the ROC curve, points are ``(FPR, TPR)``.

The AUC is computed three ways that agree exactly:

* the area under the path (:func:`roc_auc`, from the groups of equal scores, O(n log n));
* the share of correctly ordered (positive, negative) pairs, ties counting 1/2
  (:func:`auc_pairwise`, the counting formula itself, O(m0 m1) in bounded memory);
* the Mann-Whitney rank statistic ``U / (m0 m1)`` (used in the tests, via scipy).

Fast path: without weights the AUC is ``sum_g neg_g (2 pos_above_g + pos_g) / (2 m0 m1)``
summed in ``int64`` (exact: the sum is at most ``n**2 / 2``, below ``2**63`` for any
``n < 4e9``) and divided as Python integers, so even the float result is correctly
rounded. With float weights the same sum is taken in float64.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, NamedTuple

import numpy as np

from ._checks import (
    at_or_above,
    check_binary,
    check_binary_exact,
    check_scores,
    check_seed,
    check_threshold,
    class_totals,
    has_both_classes,
    need_classes,
)
from ._curves import CurveView
from ._groups import group_chunks
from ._stream import (
    COLLINEAR_TOL,
    AucAcc,
    CurveAcc,
    Totals,
    in_memory,
    run,
    trapezoid_area,
    upper_chain,
)

__all__ = [
    "RocStep",
    "RocCurve",
    "PairMatrix",
    "RocHull",
    "roc_steps",
    "roc_point",
    "roc_curve",
    "roc_auc",
    "auc_pairwise",
    "pair_matrix",
    "trapezoid_area",
    "roc_convex_hull",
    "roc_dominates",
    "RocOptimum",
    "randomized_roc_point",
    "randomized_rule",
    "iso_performance_optimum",
]

# Pairs compared at once by auc_pairwise: 2**22 pairs use 4 MiB per boolean block.
_PAIR_BLOCK = 2**22


class RocStep(NamedTuple):
    """One step of the grid walk: a group of objects with equal score.

    ``start`` and ``end`` are grid nodes ``(FPR, TPR)`` as exact fractions;
    ``start_float`` and ``end_float`` are the same nodes as floats (for plotting).
    """

    score: float
    k1: int
    k0: int
    ids: tuple
    start: tuple[Fraction, Fraction]
    end: tuple[Fraction, Fraction]
    start_float: tuple[float, float]
    end_float: tuple[float, float]


class _RocFields(NamedTuple):
    fpr: np.ndarray
    tpr: np.ndarray
    thresholds: np.ndarray


class RocCurve(CurveView, _RocFields):
    """Vertices of a ROC curve: ``fpr[k]``, ``tpr[k]`` for the rule ``score >= thresholds[k]``.

    ``c.xy`` is ``(fpr, tpr)``; ``c.at(fpr)`` reads the TPR (the top of a vertical
    step); ``c.at_threshold(t)`` the vertex of ``score >= t``.
    """

    __slots__ = ()
    _x, _y = "fpr", "tpr"


class PairMatrix(NamedTuple):
    """The ``m1 x m0`` matrix of pair outcomes with the ids of its rows and columns."""

    matrix: np.ndarray
    row_ids: tuple
    col_ids: tuple


class RocHull(NamedTuple):
    """Vertices of the upper convex hull of ROC points and the area under it."""

    fpr: np.ndarray
    tpr: np.ndarray
    area: float



def _counted(
    y_true: Any, y_score: Any, ids: Any = None, *, named: bool = False
) -> tuple[np.ndarray, np.ndarray, list, int, int]:
    """The opening of the unweighted, exact functions: ``(y, s, names, m1, m0)``.

    The data are checked, then the ids (only when ``named``; ``names`` is empty
    otherwise), then a ValueError is raised when one class is missing.
    """
    y, s, _ = check_binary(y_true, y_score)
    names = _check_ids(ids, y.size) if named else []
    m1, m0 = class_totals(y, None)
    need_classes(m1, m0, "the ROC curve", warn=False)
    return y, s, names, int(m1), int(m0)


def _check_ids(ids: Any, n: int) -> list:
    """Return object ids as a list of Python objects (default: 0-based positions)."""
    if ids is None:
        return list(range(n))
    out = [v.item() if isinstance(v, np.generic) else v for v in ids]
    if len(out) != n:
        raise ValueError(f"ids has length {len(out)}, but there are {n} samples")
    return out


def _descending_order(s: np.ndarray) -> np.ndarray:
    """Positions sorted by non-increasing score, ties in input order.

    The stable ascending order of the reversed scores, reversed: no negation, which
    would wrap around for unsigned integer scores.
    """
    return s.size - 1 - np.argsort(s[::-1], kind="stable")[::-1]


def roc_steps(y_true: Any, y_score: Any, *, ids: Any = None) -> list[RocStep]:
    """Walk the ROC grid one group of equal scores at a time.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Labels 0/1 or bool; both classes must be present.
    y_score : array-like of shape (n,)
        Scores; a larger score means "more likely positive".
    ids : sequence of length n, optional
        Names of the objects (default: 0-based positions).

    Returns
    -------
    list of RocStep
        One step per distinct score, in decreasing score order; ``ids`` of a step
        lists its objects in input order.

    Raises
    ------
    ValueError
        If only one class is present (there is no grid), or the input is invalid.

    Examples
    --------
    Table 1 of the book (ids 1..7); objects 3 and 5 tie at 0.2 and move diagonally:

    >>> y = [0, 0, 0, 1, 1, 1, 0]
    >>> b = [0.5, 0.1, 0.2, 0.6, 0.2, 0.3, 0.0]
    >>> for st in roc_steps(y, b, ids=range(1, 8)):
    ...     print(st.score, st.ids, st.k1, st.k0, *st.end)
    0.6 (4,) 1 0 0 1/3
    0.5 (1,) 0 1 1/4 1/3
    0.3 (6,) 1 0 1/4 2/3
    0.2 (3, 5) 1 1 1/2 1
    0.1 (2,) 0 1 3/4 1
    0.0 (7,) 0 1 1 1
    """
    y, s, names, m1, m0 = _counted(y_true, y_score, ids, named=True)
    order = _descending_order(s)
    s_sorted = s[order]
    starts = np.flatnonzero(np.r_[True, s_sorted[1:] != s_sorted[:-1]])
    bounds = np.r_[starts, s.size]
    steps = []
    i = j = 0
    for a, b in zip(bounds[:-1], bounds[1:]):
        members = np.sort(order[a:b])  # input order within the tie
        k1 = int(np.count_nonzero(y[members]))
        k0 = members.size - k1
        start = (Fraction(i, m0), Fraction(j, m1))
        i, j = i + k0, j + k1
        end = (Fraction(i, m0), Fraction(j, m1))
        steps.append(
            RocStep(
                score=float(s_sorted[a]),
                k1=k1,
                k0=k0,
                ids=tuple(names[p] for p in members),
                start=start,
                end=end,
                start_float=(float(start[0]), float(start[1])),
                end_float=(float(end[0]), float(end[1])),
            )
        )
    return steps


def roc_point(y_true: Any, y_score: Any, threshold: float) -> tuple[Fraction, Fraction]:
    """Exact ``(FPR, TPR)`` of the thresholding rule ``a(x) = [b(x) >= threshold]``.

    Parameters
    ----------
    y_true, y_score : array-like of shape (n,)
        Labels 0/1 or bool (both classes present) and scores.
    threshold : float
        The cut-off; objects with a score at or above it are called positive.

    Returns
    -------
    tuple of Fraction
        ``(FP / m0, TP / m1)``, a node of the ROC grid.

    Examples
    --------
    Table 1 with threshold 0.25: objects 4, 1, 6 are called positive; 1 of 4 negatives
    and 2 of 3 positives:

    >>> fpr, tpr = roc_point([0, 0, 0, 1, 1, 1, 0], [0.5, 0.1, 0.2, 0.6, 0.2, 0.3, 0.0], 0.25)
    >>> print(fpr, tpr)
    1/4 2/3
    """
    y, s, _, m1, m0 = _counted(y_true, y_score)
    called = at_or_above(s, check_threshold(threshold))
    tp = int(np.count_nonzero(called & y))
    fp = int(np.count_nonzero(called & ~y))
    return Fraction(fp, m0), Fraction(tp, m1)


def roc_curve(y_true: Any, y_score: Any, *, sample_weight: Any = None) -> RocCurve:
    """Every vertex of the ROC curve, one per distinct score.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Labels 0/1 or bool; both classes must be present (with positive weight).
    y_score : array-like of shape (n,)
        Scores.
    sample_weight : array-like of shape (n,), optional
        Non-negative weights. Objects of zero weight add no vertex.

    Returns
    -------
    RocCurve
        ``(fpr, tpr, thresholds)`` as float arrays; ``thresholds[0] = inf`` gives the
        vertex (0, 0), then each distinct score in decreasing order; the last vertex
        is (1, 1). No vertex is dropped, collinear ones included.

    Raises
    ------
    ValueError
        If only one class is present, or the input is invalid.

    Examples
    --------
    >>> c = roc_curve([0, 1, 1, 0], [0.1, 0.4, 0.35, 0.8])
    >>> c.fpr.tolist(), c.tpr.tolist(), c.thresholds.tolist()
    ([0.0, 0.5, 0.5, 0.5, 1.0], [0.0, 0.0, 0.5, 1.0, 1.0], [inf, 0.8, 0.4, 0.35, 0.1])
    """
    y, s, w = check_binary(y_true, y_score, sample_weight)
    return roc_of(*in_memory(y, s, w), y.size)


def roc_of(chunks: Any, totals: Totals, size: int) -> RocCurve:
    """:func:`roc_curve` of the engine's chunks (at most ``size`` groups)."""
    need_classes(totals.m1, totals.m0, "the ROC curve", warn=False)
    curve = CurveAcc(totals, size, rates=True)
    run(chunks, totals, curve)
    tpr, fpr, thresholds = curve.rates()
    return RocCurve(fpr, tpr, thresholds)


def roc_auc(
    y_true: Any, y_score: Any, *, sample_weight: Any = None, exact: bool = False
) -> float | Fraction:
    """Area under the ROC curve; ties count 1/2.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Labels 0/1 or bool.
    y_score : array-like of shape (n,)
        Scores.
    sample_weight : array-like of shape (n,), optional
        Non-negative weights (a pair weighs ``w_i w_j``).
    exact : bool, default False
        Return a :class:`fractions.Fraction`; needs no weights or integer weights
        (with a total below ``2**53``).

    Returns
    -------
    float or Fraction
        The AUC; ``nan`` with an :class:`UndefinedMetricWarning` if one class is
        missing. Scores are only compared, so integer scores that float64 cannot
        hold (int64 beyond ``2**53``) are ranked exactly; weights of any scale give
        the same result (they are rescaled by a power of two first).

    Examples
    --------
    Table 1: 9.5 of the 12 (positive, negative) pairs are ordered correctly:

    >>> y = [0, 0, 0, 1, 1, 1, 0]
    >>> b = [0.5, 0.1, 0.2, 0.6, 0.2, 0.3, 0.0]
    >>> roc_auc(y, b, exact=True)
    Fraction(19, 24)
    >>> round(roc_auc(y, b), 4)
    0.7917
    """
    # only ratios of weights: the grouping scales them, or takes their integer units
    exact, y, s, w = check_binary_exact(y_true, y_score, sample_weight, exact, scale=False)
    chunks = group_chunks(y, s, w, scores=False, units=not exact)
    m1, m0 = chunks.class_totals()  # ints for counts and integer units of the weights
    totals = Totals.of(m1, m0, exact or isinstance(m1, int))
    return auc_of(chunks, totals, exact=exact, stacklevel=3)


def auc_of(chunks: Any, totals: Totals, *, exact: bool = False, stacklevel: int = 2) -> Any:
    """:func:`roc_auc` of the engine's chunks (a Fraction with ``exact``)."""
    if not need_classes(totals.m1, totals.m0, "ROC AUC", warn=True, stacklevel=stacklevel + 1):
        return float("nan")
    auc = AucAcc(totals)
    run(chunks, totals, auc)
    area = auc.result()
    return area if exact else float(area)


def auc_pairwise(y_true: Any, y_score: Any) -> float:
    """AUC by the counting formula: the mean over (positive, negative) pairs of
    1 if the positive scores higher, 1/2 if equal, 0 otherwise.

    All ``m1 * m0`` pairs are compared, in blocks of about ``2**22`` pairs, so memory
    stays bounded (a few MiB) whatever the size; time is O(m1 m0).

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Labels 0/1 or bool.
    y_score : array-like of shape (n,)
        Scores.

    Returns
    -------
    float
        The AUC; ``nan`` with an :class:`UndefinedMetricWarning` if one class is
        missing.

    Examples
    --------
    Positives score 0.9 and 0.2, negatives 0.2 and 0.1: pairs give 1, 1, 1/2, 1:

    >>> auc_pairwise([1, 1, 0, 0], [0.9, 0.2, 0.2, 0.1])
    0.875
    """
    y, s, _ = check_binary(y_true, y_score)
    if not has_both_classes(y, None, "ROC AUC"):
        return float("nan")
    pos, neg = s[y], s[~y]
    col_block = min(neg.size, _PAIR_BLOCK)
    row_block = max(1, _PAIR_BLOCK // col_block)
    greater = ties = 0
    for r in range(0, pos.size, row_block):
        p = pos[r : r + row_block, None]
        for c in range(0, neg.size, col_block):
            q = neg[None, c : c + col_block]
            greater += int(np.count_nonzero(p > q))
            ties += int(np.count_nonzero(p == q))
    return (2 * greater + ties) / (2 * pos.size * neg.size)


def pair_matrix(y_true: Any, y_score: Any, *, ids: Any = None) -> PairMatrix:
    """The pairs of the ROC grid: 1 if ordered correctly, 1/2 if tied, 0 if not.

    Row ``j`` is the ``j``-th positive and column ``i`` the ``i``-th negative, both in
    decreasing score order (ties in input order), so entry ``[j, i]`` is the share of
    the grid cell ``[i/m0, (i+1)/m0] x [j/m1, (j+1)/m1]`` lying under the ROC path.
    The mean of the matrix is the AUC.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Labels 0/1 or bool; both classes must be present.
    y_score : array-like of shape (n,)
        Scores.
    ids : sequence of length n, optional
        Names of the objects (default: 0-based positions).

    Returns
    -------
    PairMatrix
        ``matrix`` (float array of shape (m1, m0)), ``row_ids`` and ``col_ids``.

    Raises
    ------
    ValueError
        If only one class is present, or the input is invalid.

    Examples
    --------
    Table 1: positives 4, 6, 5 (rows), negatives 1, 3, 2, 7 (columns); objects 5 and 3
    tie at 0.2:

    >>> pm = pair_matrix([0, 0, 0, 1, 1, 1, 0], [0.5, 0.1, 0.2, 0.6, 0.2, 0.3, 0.0],
    ...                  ids=range(1, 8))
    >>> pm.row_ids, pm.col_ids
    ((4, 6, 5), (1, 3, 2, 7))
    >>> pm.matrix.tolist()
    [[1.0, 1.0, 1.0, 1.0], [0.0, 1.0, 1.0, 1.0], [0.0, 0.5, 1.0, 1.0]]
    """
    y, s, names, _, _ = _counted(y_true, y_score, ids, named=True)
    order = _descending_order(s)
    rows = order[y[order]]
    cols = order[~y[order]]
    p, q = s[rows, None], s[None, cols]
    matrix = (p > q) + 0.5 * (p == q)
    return PairMatrix(matrix, tuple(names[k] for k in rows), tuple(names[k] for k in cols))


def roc_convex_hull(fpr: Any, tpr: Any) -> RocHull:
    """Upper convex hull of ROC points, from the leftmost to the rightmost point.

    Every point on the hull is achievable by randomising between two thresholds;
    points below it are never optimal for any costs (syllabus ch. 7 and 9).

    Parameters
    ----------
    fpr, tpr : array-like of shape (n,)
        Coordinates of the points (e.g. a :class:`RocCurve`'s vertices).

    Returns
    -------
    RocHull
        ``(fpr, tpr, area)``: the hull's vertices by increasing FPR (collinear and
        duplicate points removed; a point counts as on a chord when it is within
        ``COLLINEAR_TOL`` = 1e-14 of it, so that the float rates of a sample, multiples of
        1/m0 and 1/m1, are judged as exact fractions would be whenever
        ``m0 * m1 < 1e13``) and the area under it. It starts with the lowest
        point of the smallest FPR (so a ROC curve's hull keeps its vertex (0, 0)) and
        ends with the highest point of the largest FPR.

    Examples
    --------
    The point (0.5, 0.25) lies below the chord from (0, 0.5) to (1, 1):

    >>> h = roc_convex_hull([0, 0, 0.5, 1], [0, 0.5, 0.25, 1])
    >>> h.fpr.tolist(), h.tpr.tolist(), h.area
    ([0.0, 0.0, 1.0], [0.0, 0.5, 1.0], 0.75)

    (0.15, 0.65) lies on the chord from (0.1, 0.5) to (0.2, 0.8), although float
    rounding puts it a hair above:

    >>> roc_convex_hull([0, 0.1, 0.15, 0.2, 1], [0, 0.5, 0.65, 0.8, 1]).fpr.tolist()
    [0.0, 0.1, 0.2, 1.0]
    """
    xs = check_scores(fpr, name="fpr")
    ys = check_scores(tpr, name="tpr")
    if xs.size != ys.size:
        raise ValueError(f"fpr and tpr have different lengths: {xs.size} and {ys.size}")
    order = np.lexsort((ys, xs))  # by x, then by y
    hull: list[tuple[float, float]] = []
    upper_chain(hull, xs[order].tolist(), ys[order].tolist())
    hx = np.array([p[0] for p in hull])
    hy = np.array([p[1] for p in hull])
    return RocHull(hx, hy, trapezoid_area(hx, hy))


def _path_ends(fpr: np.ndarray, tpr: np.ndarray, xs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """TPR of a ROC path at ``xs``: the bottom and the top of its vertical span there.

    The path is linear between vertices (diagonal on ties); at an FPR shared by several
    vertices (a vertical step) it spans from the first of them to the last.
    """
    top = np.asarray(RocCurve(fpr, tpr, fpr).at(xs))
    first = np.searchsorted(fpr, xs, side="left")
    on_vertex = fpr[np.minimum(first, fpr.size - 1)] == xs
    bottom = np.where(on_vertex, tpr[np.minimum(first, tpr.size - 1)], top)
    return bottom, top


def roc_dominates(y_true: Any, score_a: Any, score_b: Any) -> bool:
    """True when the ROC curve of ``score_a`` is nowhere below that of ``score_b``.

    Both curves are the full paths (ties as diagonal steps) on the same labels; ``a``
    dominates ``b`` when every point of ``b``'s path lies on or under ``a``'s. Both
    paths are linear between the FPRs of their vertices, so comparing them there (the
    bottom and the top of any vertical step) decides it exactly. A curve dominates
    itself.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Labels 0/1 or bool; both classes present.
    score_a, score_b : array-like of shape (n,)
        Two scores of the same objects.

    Returns
    -------
    bool

    Examples
    --------
    >>> y = [0, 0, 1, 1]
    >>> roc_dominates(y, [0.1, 0.2, 0.8, 0.9], [0.1, 0.8, 0.2, 0.9])
    True
    >>> roc_dominates(y, [0.1, 0.8, 0.2, 0.9], [0.1, 0.2, 0.8, 0.9])
    False
    """
    a = roc_curve(y_true, score_a)
    b = roc_curve(y_true, score_b)
    xs = np.union1d(a.fpr, b.fpr)
    bottom_a, top_a = _path_ends(a.fpr, a.tpr, xs)
    bottom_b, top_b = _path_ends(b.fpr, b.tpr, xs)
    # rates are multiples of 1/m1: a tolerance far below that absorbs float rounding
    tol = 1e-12
    return bool(np.all(top_b <= top_a + tol) and np.all(bottom_b <= bottom_a + tol))


class RocOptimum(NamedTuple):
    """The ROC point where an iso-performance line of a given slope touches the hull.

    ``intercept`` is ``TPR - slope * FPR`` there: the highest iso-performance line of
    that slope that still meets a ROC point.
    """

    fpr: float
    tpr: float
    intercept: float


def _as_probability(q: Any) -> Fraction:
    """``q`` as an exact Fraction in [0, 1] (floats are taken at their exact value)."""
    if isinstance(q, (bool, np.bool_)):
        raise ValueError(f"q must be a probability in [0, 1], got {q!r}")
    try:
        value = Fraction(q) if not isinstance(q, (float, np.floating)) else Fraction(float(q))
    except (TypeError, ValueError):
        raise ValueError(f"q must be a probability in [0, 1], got {q!r}") from None
    if not 0 <= value <= 1:
        raise ValueError(f"q must be a probability in [0, 1], got {q!r}")
    return value


def _two_thresholds(threshold_a: Any, threshold_b: Any) -> list[float | int]:
    """The two thresholds of a randomized rule (see :func:`check_threshold`)."""
    return [check_threshold(threshold_a, "threshold_a"),
            check_threshold(threshold_b, "threshold_b")]


def randomized_roc_point(
    y_true: Any, y_score: Any, threshold_a: float, threshold_b: float, *, q: Any
) -> tuple[Fraction, Fraction]:
    """Expected ``(FPR, TPR)`` of the rule that mixes two thresholds at random.

    For each object independently, the rule uses ``threshold_a`` with probability
    ``q`` and ``threshold_b`` otherwise (Fawcett, 2006, section 6). The expectation is
    computed object by object, from the chance ``q [b >= a] + (1 - q) [b >= b']`` that
    each object is called positive, so that its agreement with
    ``q * A + (1 - q) * B`` (``A``, ``B`` the points of the two thresholds) is a check,
    not a definition.

    Parameters
    ----------
    y_true, y_score : array-like of shape (n,)
        Labels 0/1 or bool (both classes present) and scores.
    threshold_a, threshold_b : float
        The two cut-offs (finite).
    q : float, int, Fraction or str
        Probability of using ``threshold_a``, in [0, 1]; a float counts at its exact
        binary value.

    Returns
    -------
    tuple of Fraction
        The expected ``(FPR, TPR)``.

    Examples
    --------
    Table 1: threshold 0.6 gives (0, 1/3), threshold 0.3 gives (1/4, 2/3); a fair coin
    between them lands, on average, half way:

    >>> y = [0, 0, 0, 1, 1, 1, 0]
    >>> b = [0.5, 0.1, 0.2, 0.6, 0.2, 0.3, 0.0]
    >>> print(*randomized_roc_point(y, b, 0.6, 0.3, q="1/2"))
    1/8 1/2
    """
    y, s, _, m1, m0 = _counted(y_true, y_score)
    cuts = _two_thresholds(threshold_a, threshold_b)
    p = _as_probability(q)
    called_a = at_or_above(s, cuts[0])
    called_b = at_or_above(s, cuts[1])
    # per object: chance of being called positive is p (a only), 1 - p (b only), 1, 0
    only_a = called_a & ~called_b
    only_b = called_b & ~called_a
    both = called_a & called_b

    def expected(mask: np.ndarray) -> Fraction:
        return (int(np.count_nonzero(both & mask)) + p * int(np.count_nonzero(only_a & mask))
                + (1 - p) * int(np.count_nonzero(only_b & mask)))

    return expected(~y) / m0, expected(y) / m1


def randomized_rule(
    y_score: Any, threshold_a: float, threshold_b: float, *, q: float, rng: Any = None
) -> np.ndarray:
    """One draw of the answers of the rule that mixes two thresholds at random.

    Each object independently uses ``threshold_a`` with probability ``q`` and
    ``threshold_b`` otherwise; the answer is ``score >= threshold``. Averaged over
    draws, its ``(FPR, TPR)`` is :func:`randomized_roc_point`.

    Parameters
    ----------
    y_score : array-like of shape (n,)
        Scores.
    threshold_a, threshold_b : float
        The two cut-offs (finite).
    q : float
        Probability of using ``threshold_a``, in [0, 1].
    rng : int, numpy Generator or None
        The source of randomness (an int is a seed).

    Returns
    -------
    numpy.ndarray of bool, shape (n,)
        True where the object is called positive.

    Examples
    --------
    With ``q = 1`` the rule is threshold A itself:

    >>> randomized_rule([0.6, 0.5, 0.3], 0.55, 0.2, q=1.0, rng=0).tolist()
    [True, False, False]
    """
    s = check_scores(y_score, on_inexact="keep")
    cuts = _two_thresholds(threshold_a, threshold_b)
    p = float(_as_probability(q))
    generator = check_seed(rng, "rng")
    use_a = generator.random(s.size) < p
    return np.where(use_a, at_or_above(s, cuts[0]), at_or_above(s, cuts[1]))


def iso_performance_optimum(fpr: Any, tpr: Any, *, slope: float) -> RocOptimum:
    """The ROC point that an iso-performance line of slope ``slope`` touches last.

    All points on a line ``TPR = slope * FPR + c`` have the same expected cost when
    ``slope = (1 - pi) c_FP / (pi c_FN)`` (Fawcett, 2006; see
    :func:`course_lib.iso_performance_slope`); sliding the line up until it last meets
    a point finds the cheapest point, always a vertex of the ROC convex hull. When the
    line lies along a hull edge, both ends (and the randomized rules between them) are
    optimal; the one with the smaller FPR is returned.

    Parameters
    ----------
    fpr, tpr : array-like of shape (n,)
        ROC points (e.g. a :class:`RocCurve`'s vertices).
    slope : float
        Non-negative slope of the iso-performance lines.

    Returns
    -------
    RocOptimum
        ``(fpr, tpr, intercept)`` with ``intercept = tpr - slope * fpr``.

    Examples
    --------
    Table 1's ROC vertices: with equal costs and classes as in the sample (slope
    4/3), the line touches the hull edge from (0, 1/3) to (1/2, 1):

    >>> c = roc_curve([0, 0, 0, 1, 1, 1, 0], [0.5, 0.1, 0.2, 0.6, 0.2, 0.3, 0.0])
    >>> iso_performance_optimum(c.fpr, c.tpr, slope=4 / 3).fpr
    0.0
    >>> iso_performance_optimum(c.fpr, c.tpr, slope=1.0)
    RocOptimum(fpr=0.5, tpr=1.0, intercept=0.5)
    """
    xs = check_scores(fpr, name="fpr")
    ys = check_scores(tpr, name="tpr")
    if xs.size != ys.size or xs.size == 0:
        raise ValueError(f"fpr and tpr must have one non-zero length: {xs.size} and {ys.size}")
    s = float(slope)
    if not np.isfinite(s) or s < 0:
        raise ValueError(f"slope must be a finite non-negative number, got {slope!r}")
    hull = roc_convex_hull(xs, ys)
    values = hull.tpr - s * hull.fpr
    best = float(values.max())
    k = int(np.flatnonzero(values >= best - COLLINEAR_TOL)[0])
    return RocOptimum(float(hull.fpr[k]), float(hull.tpr[k]), float(values[k]))
