"""Gain, lift and Kolmogorov-Smirnov curves, the gains table and profit (syllabus ch. 8).

Every curve here is read against the *rate of positive predictions* ``RPP``: the share
of objects called positive by the rule ``score >= threshold``. Walking the distinct
scores in decreasing order, a group of equal scores with ``k1`` positives and ``k0``
negatives moves

* the gain curve (also called the Lorenz or CAP curve) from ``(RPP, TPR)`` to
  ``(RPP + (k1 + k0)/n, TPR + k1/m1)``;
* the KS chart's two curves ``TPR(RPP)`` and ``FPR(RPP)`` by ``k1/m1`` and ``k0/m0``.

Tied scores always move together, so a group of ties is one straight (diagonal) step,
as on the ROC grid. Reading a curve *between* its vertices (:func:`gain_at`,
:func:`lift_at`) interpolates linearly along such a step, which is the expected value
when the ties are broken at random.

The gains table (:func:`gains_table`) cuts the objects, sorted by decreasing score,
into ``n_bins`` near-equal bins (deciles for ``n_bins=10``) without ever splitting a
group of ties; :func:`profit_curve` and :func:`campaign_profit` turn counts of contacts
and responses into money.
"""

from __future__ import annotations

import numbers
from fractions import Fraction
from typing import Any, NamedTuple

import numpy as np
import pandas as pd

from ._checks import (
    check_binary,
    check_flag,
    check_integer,
    check_scores,
    integer_weights,
    need_classes,
    undefined,
)
from ._curves import CurveView
from ._groups import group_chunks
from ._stream import (
    CurveAcc,
    GainsAcc,
    KsAcc,
    Step,
    Totals,
    _need_class,
    decile_lows,
    gains_table_from_counts,
    in_memory,
    psi,
    psi_value,
    run,
)

__all__ = [
    "GainCurve",
    "LiftCurve",
    "KsCurve",
    "ProfitCurve",
    "CampaignProfit",
    "gain_curve",
    "lift_curve",
    "ks_curve",
    "ks_statistic",
    "KsTwoSided",
    "ks_two_sided",
    "gain_at",
    "lift_at",
    "lift_of_gain",
    "gain_auc",
    "gains_table",
    "gains_table_from_counts",
    "population_stability_index",
    "profit_curve",
    "campaign_profit",
]

GAINS_TABLE_COLUMNS = (
    "N", "%", "cum_%", "Prob", "N_1", "%_1", "cum_N1", "cum_%1",
    "N_0", "%_0", "cum_N0", "cum_%0", "K-S", "Lift",
)  # fmt: skip


class _GainFields(NamedTuple):
    rate: np.ndarray
    tpr: np.ndarray
    thresholds: np.ndarray


class GainCurve(CurveView, _GainFields):
    """Gain curve vertices: ``rate[k]``, ``tpr[k]`` for the rule ``score >= thresholds[k]``.

    ``c.xy`` is ``(rate, tpr)`` and ``c.at(rate)`` the gain at a rate of positive predictions
    (linear along a step, as :func:`gain_at`).
    """

    __slots__ = ()
    _x, _y = "rate", "tpr"


class _LiftFields(NamedTuple):
    rate: np.ndarray
    lift: np.ndarray
    thresholds: np.ndarray


class LiftCurve(CurveView, _LiftFields):
    """Lift curve vertices: ``lift[k] = tpr[k] / rate[k]`` at ``rate[k]``.

    ``c.xy`` is ``(rate, lift)``. ``c.at(rate)`` reads the broken line through the
    vertices; the lift *of a selection* between two vertices is :func:`lift_at`.
    """

    __slots__ = ()
    _x, _y = "rate", "lift"


class _KsFields(NamedTuple):
    rate: np.ndarray
    tpr: np.ndarray
    fpr: np.ndarray
    thresholds: np.ndarray
    ks: float
    ks_rate: float
    ks_threshold: float


class KsCurve(CurveView, _KsFields):
    """The KS chart: ``tpr`` and ``fpr`` against ``rate``, and their largest gap.

    ``ks = tpr[k] - fpr[k]`` at the first vertex ``k`` where the gap is largest;
    ``ks_rate`` and ``ks_threshold`` are that vertex's rate and threshold.
    ``c.xy`` is the gap curve ``(rate, tpr - fpr)``.
    """

    __slots__ = ()
    _x, _y = "rate", "gap"

    @property
    def gap(self) -> np.ndarray:
        """``tpr - fpr`` at every vertex."""
        return self.tpr - self.fpr


class _ProfitFields(NamedTuple):
    rate: np.ndarray
    profit: np.ndarray
    thresholds: np.ndarray
    best_profit: float
    best_rate: float
    best_threshold: float


class ProfitCurve(CurveView, _ProfitFields):
    """Profit of contacting the objects with ``score >= thresholds[k]``, and the best cut-off.

    ``c.xy`` is ``(rate, profit)``.
    """

    __slots__ = ()
    _x, _y = "rate", "profit"


class CampaignProfit(NamedTuple):
    """Money of one campaign: what the contacts cost, what the responses bring, the difference."""

    cost: float
    income: float
    profit: float


# ----------------------------------------------------------------------------- helpers



def _threshold(value: Any) -> float | int:
    """One threshold of a curve: an int stays an int (integer scores beyond ``2**53``
    are thresholds of their own, see :func:`course_lib._groups.with_origin`)."""
    return value if isinstance(value, int) else float(value)

def _cumulative(
    y_true: Any,
    y_score: Any,
    sample_weight: Any,
    what: str,
    *,
    need_negatives: bool,
    scale: bool = True,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Validate, group equal scores and return cumulative ``(tp, fp, thresholds)``.

    The arrays start with the empty selection (``tp = fp = 0``, threshold ``inf``) and
    have one more entry per distinct score (see :func:`course_lib._groups.with_origin`).
    Weights are rescaled exactly (every curve here is a ratio of them) unless
    ``scale=False`` (exact counts); see :func:`course_lib._checks.check_weights`.
    """
    y, s, w = check_binary(y_true, y_score, sample_weight, scale=scale)
    return curve_counts(*in_memory(y, s, w), y.size, what, need_negatives=need_negatives)


def curve_counts(
    chunks: Any, totals: Totals, size: int, what: str, *, need_negatives: bool
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Cumulative ``(tp, fp, thresholds)`` with the origin first, from the engine's
    chunks (at most ``size`` groups); a missing class raises, as ``what`` needs."""
    need_classes(totals.m1, totals.m0, f"the {what}", warn=False, negatives=need_negatives)
    curve = CurveAcc(totals, size)
    run(chunks, totals, curve)
    return curve.counts()


def _as_rates(rate: Any) -> np.ndarray:
    r = np.asarray(rate, dtype=np.float64)
    if not np.isfinite(r).all() or (r < 0).any() or (r > 1).any():
        raise ValueError(f"rate must lie in [0, 1]; got {rate!r}")
    return r


def _scalar_or_array(values: np.ndarray) -> float | np.ndarray:
    return float(values) if values.ndim == 0 else values


def _non_negative(value: Any, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ValueError(f"{name} must be a real number, got {value!r}")
    v = float(value)
    if not np.isfinite(v) or v < 0:
        raise ValueError(f"{name} must be finite and non-negative, got {value!r}")
    return v


# ------------------------------------------------------------------------------ curves


def gain_curve(y_true: Any, y_score: Any, *, sample_weight: Any = None) -> GainCurve:
    """The gain curve ``TPR(RPP)``, one vertex per distinct score.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Labels 0/1 or bool; there must be positives (with positive weight).
    y_score : array-like of shape (n,)
        Scores; a larger score means "more likely positive".
    sample_weight : array-like of shape (n,), optional
        Non-negative weights; the rate is then the share of the total weight.
        Objects of zero weight add no vertex.

    Returns
    -------
    GainCurve
        ``(rate, tpr, thresholds)``: ``thresholds[0] = inf`` gives the vertex (0, 0),
        then each distinct score in decreasing order; the last vertex is (1, 1).

    Raises
    ------
    ValueError
        If there are no positives, or the input is invalid.

    Examples
    --------
    Table 1 of the book: 2 of 7 objects score at least 0.5 and one of them is among
    the 3 positives; the tie at 0.2 moves two objects at once:

    >>> c = gain_curve([0, 0, 0, 1, 1, 1, 0], [0.5, 0.1, 0.2, 0.6, 0.2, 0.3, 0.0])
    >>> [f"{r * 7:.0f}/7" for r in c.rate]
    ['0/7', '1/7', '2/7', '3/7', '5/7', '6/7', '7/7']
    >>> [f"{t * 3:.0f}/3" for t in c.tpr]
    ['0/3', '1/3', '1/3', '2/3', '3/3', '3/3', '3/3']
    >>> c.thresholds.tolist()
    [inf, 0.6, 0.5, 0.3, 0.2, 0.1, 0.0]
    """
    return _gain_of(
        *_cumulative(y_true, y_score, sample_weight, "gain curve", need_negatives=False)
    )


def _gain_of(tp: np.ndarray, fp: np.ndarray, thresholds: np.ndarray) -> GainCurve:
    """The gain curve of cumulative counts from :func:`with_origin` (positives present)."""
    selected = tp + fp
    return GainCurve(selected / selected[-1], tp / tp[-1], thresholds)


def lift_curve(y_true: Any, y_score: Any, *, sample_weight: Any = None) -> LiftCurve:
    """The lift curve ``TPR / RPP`` against ``RPP``, one vertex per distinct score.

    The lift says how many times more positives a selection catches than a random
    selection of the same size. At ``RPP = 0`` the ratio is 0/0; it is defined as its
    limit from the right, which is the lift of the top group of equal scores (on the
    first step of the gain curve ``TPR / RPP`` is constant, the slope of that step).

    Parameters
    ----------
    y_true, y_score, sample_weight
        As in :func:`gain_curve`.

    Returns
    -------
    LiftCurve
        ``(rate, lift, thresholds)``; ``lift[0] == lift[1]`` by the definition above,
        and the last lift is 1 (everybody selected).

    Examples
    --------
    Table 1: the top object is a positive, so the top 1/7 catch 1/3 of the positives,
    a lift of 7/3:

    >>> c = lift_curve([0, 0, 0, 1, 1, 1, 0], [0.5, 0.1, 0.2, 0.6, 0.2, 0.3, 0.0])
    >>> c.lift.round(4).tolist()
    [2.3333, 2.3333, 1.1667, 1.5556, 1.4, 1.1667, 1.0]
    """
    return _lift_from_gain(gain_curve(y_true, y_score, sample_weight=sample_weight))


def _lift_from_gain(g: GainCurve) -> LiftCurve:
    """The lift curve of a computed gain curve (``lift[0]`` is the limit at RPP = 0)."""
    lift = np.empty_like(g.tpr)
    lift[1:] = g.tpr[1:] / g.rate[1:]
    lift[0] = lift[1]
    return LiftCurve(g.rate, lift, g.thresholds)


def ks_curve(y_true: Any, y_score: Any, *, sample_weight: Any = None) -> KsCurve:
    """The Kolmogorov-Smirnov chart: ``TPR(RPP)`` and ``FPR(RPP)`` and their largest gap.

    The KS distance is ``max(TPR - FPR)`` over the thresholds, as in source D (not the
    absolute value: a scorer that ranks negatives first has KS 0). The gap is linear
    along each step, so its maximum over the whole chart is reached at a vertex.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Labels 0/1 or bool; both classes must be present (with positive weight).
    y_score, sample_weight
        As in :func:`gain_curve`.

    Returns
    -------
    KsCurve
        ``(rate, tpr, fpr, thresholds, ks, ks_rate, ks_threshold)``; the ``ks_*``
        fields are floats, taken at the first (highest-threshold) vertex of largest gap.

    Raises
    ------
    ValueError
        If one class is missing, or the input is invalid.

    Examples
    --------
    Table 1: at 0.2 and above are all 3 positives and 2 of the 4 negatives; the gap
    1 - 2/4 = 1/2 is the largest, reached when 5 of the 7 objects are selected:

    >>> c = ks_curve([0, 0, 0, 1, 1, 1, 0], [0.5, 0.1, 0.2, 0.6, 0.2, 0.3, 0.0])
    >>> (c.tpr - c.fpr).round(4).tolist()
    [0.0, 0.3333, 0.0833, 0.4167, 0.5, 0.25, 0.0]
    >>> c.ks, round(c.ks_rate * 7, 10), c.ks_threshold
    (0.5, 5.0, 0.2)
    """
    return _ks_of(
        *_cumulative(y_true, y_score, sample_weight, "KS chart", need_negatives=True)
    )


def _ks_of(tp: np.ndarray, fp: np.ndarray, thresholds: np.ndarray) -> KsCurve:
    """The KS chart of cumulative counts from :func:`with_origin` (both classes present);
    its largest gap is :class:`~course_lib._stream.KsAcc`'s, fed the vertices as one step."""
    selected = tp + fp
    m1, m0 = tp[-1], fp[-1]
    integral = tp.dtype.kind in "iu"
    acc = KsAcc(Totals(int(m1), int(m0), True) if integral else Totals(m1, m0, False))
    acc.update(Step(thresholds[1:], tp[1:] - tp[:-1], fp[1:] - fp[:-1], tp[:-1], fp[:-1],
                    tp[1:], fp[1:]))
    n = selected[-1]
    return KsCurve(
        selected / n,
        tp / m1,
        fp / m0,
        thresholds,
        float(acc.result()),
        float((acc.tp + acc.fp) / n),
        np.inf if acc.score is None else _threshold(acc.score),
    )


def ks_statistic(y_true: Any, y_score: Any, *, sample_weight: Any = None) -> float:
    """The KS distance ``max(TPR - FPR)`` over all thresholds.

    Parameters
    ----------
    y_true, y_score, sample_weight
        As in :func:`ks_curve`.

    Returns
    -------
    float
        The largest gap between the share of positives and the share of negatives
        scoring at or above a threshold, in [0, 1]; ``nan`` with an
        :class:`UndefinedMetricWarning` if one class is missing. Without weights the
        result is computed in integers and correctly rounded.

    Examples
    --------
    Table 1: the gap is largest at the threshold 0.2, with all 3 positives and 2 of
    the 4 negatives selected: 1 - 2/4:

    >>> ks_statistic([0, 0, 0, 1, 1, 1, 0], [0.5, 0.1, 0.2, 0.6, 0.2, 0.3, 0.0])
    0.5
    """
    y, s, w = check_binary(y_true, y_score, sample_weight)
    return ks_of(*in_memory(y, s, w), stacklevel=3)


def ks_of(chunks: Any, totals: Totals, *, stacklevel: int = 2) -> float:
    """:func:`ks_statistic` of the engine's chunks."""
    if not need_classes(totals.m1, totals.m0, "the KS statistic", warn=True,
                        stacklevel=stacklevel + 1):
        return float("nan")
    ks = KsAcc(totals)
    run(chunks, totals, ks)
    return float(ks.result())


class KsTwoSided(NamedTuple):
    """The two-sided KS of :func:`ks_two_sided`.

    ``statistic`` is ``max |F1 - F0|``; ``one_sided`` is ``max(TPR - FPR)`` (what
    :func:`ks_statistic` returns); ``direction`` says which class's CDF lies above
    where the gap is largest: ``"F0 above F1"`` (the positives score higher, the
    model's own direction) or ``"F1 above F0"`` (the positives score lower: the score
    runs the wrong way there); ``threshold`` is the score ``s`` of the selection
    ``score >= s`` where the gap is reached (None when there is no gap).
    """

    statistic: float
    one_sided: float
    direction: str
    threshold: int | float | None


def ks_two_sided(y_true: Any, y_score: Any, *, sample_weight: Any = None) -> KsTwoSided:
    """The two-sided Kolmogorov-Smirnov distance ``max |F1 - F0|`` of the class CDFs.

    :func:`ks_statistic` is one-sided: ``max(TPR - FPR) = max(F0 - F1)``, the gap in the
    direction "positives score higher"; a score that ranks backwards has a one-sided
    KS near 0 however well it separates. The two-sided distance is the two-sample KS
    statistic of the positives' and the negatives' scores
    (``scipy.stats.ks_2samp(pos, neg).statistic``), with weights the distance of the
    weighted CDFs.

    Parameters
    ----------
    y_true, y_score, sample_weight
        As in :func:`ks_curve`.

    Returns
    -------
    KsTwoSided
        ``(statistic, one_sided, direction, threshold)``; the statistics are ``nan``
        (direction ``""``, threshold None) with an :class:`UndefinedMetricWarning` if
        one class is missing. Without weights both are computed in integers and
        correctly rounded.

    Examples
    --------
    Table 1 ranks the right way: both distances are 1/2, reached at the score 0.2:

    >>> y = [0, 0, 0, 1, 1, 1, 0]
    >>> b = [0.5, 0.1, 0.2, 0.6, 0.2, 0.3, 0.0]
    >>> ks_two_sided(y, b)
    KsTwoSided(statistic=0.5, one_sided=0.5, direction='F0 above F1', threshold=0.2)

    The same scores turned around: the one-sided KS sees no gap, the two-sided one
    does, with the positives' CDF above:

    >>> ks_two_sided(y, [-v for v in b])
    KsTwoSided(statistic=0.5, one_sided=0.0, direction='F1 above F0', threshold=-0.1)
    """
    y, s, w = check_binary(y_true, y_score, sample_weight)
    chunks, totals = in_memory(y, s, w)
    if not need_classes(totals.m1, totals.m0, "the KS statistic", warn=True, stacklevel=2):
        return KsTwoSided(float("nan"), float("nan"), "", None)
    ks = KsAcc(totals)
    run(chunks, totals, ks)
    value, direction, threshold = ks.two_sided()
    return KsTwoSided(float(value), float(ks.result()), direction, threshold)


def gain_at(
    y_true: Any, y_score: Any, rate: Any, *, sample_weight: Any = None
) -> float | np.ndarray:
    """Read the gain curve at given rates of positive predictions (Gain-Top-10%: ``rate=0.1``).

    Between two vertices the curve is a straight line, so the value is interpolated
    linearly; inside a group of tied scores this is the share of positives caught on
    average when the ties are broken at random.

    Parameters
    ----------
    y_true, y_score, sample_weight
        As in :func:`gain_curve`.
    rate : float or array-like of floats in [0, 1]
        Share of objects (of the total weight) selected from the top.

    Returns
    -------
    float or numpy.ndarray
        TPR at each rate: a float for a scalar ``rate``, an array otherwise.

    Examples
    --------
    Table 1 at RPP = 0, 0.1, ..., 1 (7 objects: the top 10% is 0.7 of the top object):

    >>> y = [0, 0, 0, 1, 1, 1, 0]
    >>> b = [0.5, 0.1, 0.2, 0.6, 0.2, 0.3, 0.0]
    >>> round(gain_at(y, b, 0.1), 4), round(0.7 / 3, 4)
    (0.2333, 0.2333)
    >>> gain_at(y, b, np.linspace(0, 1, 11)).round(4).tolist()
    [0.0, 0.2333, 0.3333, 0.3667, 0.6, 0.75, 0.8667, 0.9833, 1.0, 1.0, 1.0]

    At RPP = 0.5 (3.5 objects) the tie at 0.2 (one positive, one negative, rates 3/7 to
    5/7) is a quarter of the way along: 2/3 + (1/4)(1/3) = 3/4.
    """
    r = _as_rates(rate)
    return gain_curve(y_true, y_score, sample_weight=sample_weight).at(r)


def lift_at(
    y_true: Any, y_score: Any, rate: Any, *, sample_weight: Any = None
) -> float | np.ndarray:
    """Read the lift ``TPR / RPP`` at given rates of positive predictions (e.g. Lift-Top-10%).

    ``TPR`` is read as in :func:`gain_at`; at ``rate = 0`` the lift is its limit, the
    lift of the top group of equal scores (see :func:`lift_curve`).

    Parameters
    ----------
    y_true, y_score, rate, sample_weight
        As in :func:`gain_at`.

    Returns
    -------
    float or numpy.ndarray
        The lift at each rate: a float for a scalar ``rate``, an array otherwise.

    Examples
    --------
    Table 1: the top 10% lie inside the top object, a positive, so the lift is
    (1/3) / (1/7) = 7/3; selecting everybody gives lift 1:

    >>> y = [0, 0, 0, 1, 1, 1, 0]
    >>> b = [0.5, 0.1, 0.2, 0.6, 0.2, 0.3, 0.0]
    >>> round(lift_at(y, b, 0.1), 4), round(7 / 3, 4)
    (2.3333, 2.3333)
    >>> lift_at(y, b, [0, 1]).round(4).tolist()
    [2.3333, 1.0]
    """
    return lift_of_gain(gain_curve(y_true, y_score, sample_weight=sample_weight), rate)


def lift_of_gain(curve: GainCurve, rate: Any) -> float | np.ndarray:
    """The lift ``TPR / RPP`` at given rates of positive predictions, read off a gain curve.

    As :func:`lift_at`, without recomputing the curve (for plotting several rates).

    >>> c = gain_curve([0, 0, 0, 1, 1, 1, 0], [0.5, 0.1, 0.2, 0.6, 0.2, 0.3, 0.0])
    >>> round(lift_of_gain(c, 0.1), 4)
    2.3333
    """
    r = _as_rates(rate)
    first_lift = curve.tpr[1] / curve.rate[1]
    positive = r > 0
    lift = np.where(positive, curve.at(r) / np.where(positive, r, 1.0), first_lift)
    return _scalar_or_array(lift)


def gain_auc(
    y_true: Any, y_score: Any, *, sample_weight: Any = None, exact: bool = False
) -> float | Fraction:
    """Area under the gain curve (the trapezoid area of its vertices).

    It equals ``(m0 AUC + m1 / 2) / (m0 + m1)`` with ``AUC`` the ROC AUC (fact F-40):
    the chance that a random positive scores above a random object (ties count 1/2).

    Parameters
    ----------
    y_true, y_score, sample_weight
        As in :func:`gain_curve`.
    exact : bool, default False
        Return a :class:`fractions.Fraction`; needs no weights or integer weights.

    Returns
    -------
    float or Fraction

    Examples
    --------
    Table 1 (m0 = 4, m1 = 3, AUC = 19/24): (4 * 19/24 + 3/2) / 7 = 2/3:

    >>> gain_auc([0, 0, 0, 1, 1, 1, 0], [0.5, 0.1, 0.2, 0.6, 0.2, 0.3, 0.0], exact=True)
    Fraction(2, 3)
    """
    if check_flag(exact, "exact"):
        y, s, w = check_binary(y_true, y_score, sample_weight, scale=False)
        w = integer_weights(w)
        tp, fp, _ = _cumulative(y, s, w, "gain curve", need_negatives=False, scale=False)
        tp, fp = tp.astype(np.int64).astype(object), fp.astype(np.int64).astype(object)
        selected = tp + fp
        # sum over steps of width (selected_k - selected_{k-1}) and mean height of tp
        twice = int(np.dot(np.diff(selected), tp[1:] + tp[:-1]))
        return Fraction(twice, 2 * int(selected[-1]) * int(tp[-1]))
    return gain_area(gain_curve(y_true, y_score, sample_weight=sample_weight))


def gain_area(g: GainCurve) -> float:
    """:func:`gain_auc` (the float) of a gain curve: the trapezoids of its vertices."""
    return float(np.dot(np.diff(g.rate), g.tpr[1:] + g.tpr[:-1]) / 2)


# -------------------------------------------------------------------------- the table


def gains_table(y_true: Any, y_score: Any, *, n_bins: int = 10) -> pd.DataFrame:
    """The gains table: objects sorted by decreasing score, cut into ``n_bins`` bins.

    Rule for the bins. Sorted by decreasing score, object ``i`` (0-based) would go to
    bin ``floor(i * n_bins / n)`` (counting bins from 0), so bins have ``n // n_bins``
    or ``n // n_bins + 1`` objects. Tied scores are never split: a group of equal
    scores goes, as a whole, into the bin of its first (highest-placed) member. Bins
    may then be unequal, and a bin whose objects were all taken by a tied group above
    it is empty; empty bins are left out of the table (the index keeps the bin
    numbers, so a gap shows where). Every bin boundary is thus a real threshold: the
    cumulative columns describe the rule ``score >= lowest score in the bin``.

    Parameters
    ----------
    y_true, y_score : array-like of shape (n,)
        Labels 0/1 or bool (both classes must be present), and scores.
    n_bins : int, default 10
        Number of bins, from 1 to n.

    Returns
    -------
    pandas.DataFrame
        Columns ``N, %, cum_%, Prob, N_1, %_1, cum_N1, cum_%1, N_0, %_0, cum_N0,
        cum_%0, K-S, Lift``, one row per non-empty bin, indexed by bin number from 1;
        see :func:`gains_table_from_counts` for the meaning of each column.

    Raises
    ------
    ValueError
        If ``n_bins`` is not an integer from 1 to n, one class is missing, or the
        input is invalid.

    Examples
    --------
    Table 1 in 3 bins of 3, 2 and 2 objects; sorted by decreasing score the labels
    are 1, 0, 1 | 0, 1 (the tie at 0.2) | 0, 0:

    >>> y = [0, 0, 0, 1, 1, 1, 0]
    >>> b = [0.5, 0.1, 0.2, 0.6, 0.2, 0.3, 0.0]
    >>> t = gains_table(y, b, n_bins=3)
    >>> t[["N", "N_1", "N_0", "cum_N1", "cum_N0", "Prob", "K-S"]].round(2)
    ... # doctest: +NORMALIZE_WHITESPACE
         N  N_1  N_0  cum_N1  cum_N0  Prob    K-S
    bin
    1    3    2    1       2       1  0.67  41.67
    2    2    1    1       3       2  0.50  50.00
    3    2    0    2       3       4  0.00   0.00

    With 4 bins (2, 2, 2 and 1 objects) the tie occupies positions 3 and 4, across
    the border of bins 2 and 3; its first member is in bin 2, which takes both:

    >>> gains_table(y, b, n_bins=4)["N"].tolist()
    [2, 3, 1, 1]
    """
    y, s, _ = check_binary(y_true, y_score)
    n = s.size
    return gains_table_of(*in_memory(y, s), _gains_bins(n_bins, n))


def _gains_bins(n_bins: Any, n: int) -> int:
    """``n_bins`` of a gains table of ``n`` objects, checked."""
    return check_integer(n_bins, "n_bins", low=1, high=n,
                         high_name=f"the number of samples {n}")


def gains_table_of(chunks: Any, totals: Totals, n_bins: int) -> pd.DataFrame:
    """:func:`gains_table` of the engine's chunks (``n_bins`` checked)."""
    _need_class(totals.m1, "positive", "gains table")
    _need_class(totals.m0, "negative", "gains table")
    gains = GainsAcc(totals, n_bins)
    run(chunks, totals, gains)
    return gains.table()


def population_stability_index(
    expected: Any, actual: Any, *, n_bins: int = 10, eps: float = 1e-4
) -> float:
    """Population stability index of the scores ``actual`` against a baseline ``expected``.

    The bins are the baseline's, cut as :func:`gains_table` cuts it (sorted by
    decreasing score, ``n_bins`` near-equal bins, a group of tied scores whole in the
    bin where it starts); bin ``j`` holds the scores from its lowest baseline score up
    to the next bin's, the top bin everything above and the last bin everything
    below, so every score has a bin. With ``e_j`` and ``a_j`` the shares of the
    baseline and of the data in bin ``j``,

        PSI = sum_j (a_j - e_j) ln(a_j / e_j),

    a share of 0 counted as ``eps``. The report's PSI (``stability``) is this number.

    Parameters
    ----------
    expected : array-like of shape (n,)
        The baseline's scores (e.g. of the development sample).
    actual : array-like of shape (m,)
        The scores to compare with it.
    n_bins : int, default 10
        Number of bins of the baseline (deciles), from 1 to n.
    eps : float, default 1e-4
        The share an empty bin counts, positive.

    Returns
    -------
    float
        The PSI, 0 for equal shares; below 0.1 is read as stable, above 0.25 as a
        large shift.

    Examples
    --------
    Ten baseline scores in five bins of two; the new sample has moved up:

    >>> base = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
    >>> population_stability_index(base, base, n_bins=5)
    0.0
    >>> round(population_stability_index(base, [5, 6, 7, 8, 9, 10, 11, 12], n_bins=5), 4)
    3.336
    """
    e = check_scores(expected, name="expected")
    a = check_scores(actual, name="actual")
    n_bins = check_integer(n_bins, "n_bins", low=1, high=e.size,
                           high_name=f"the number of baseline scores {e.size}")
    if isinstance(eps, bool) or not isinstance(eps, numbers.Real) or not 0 < eps < 1:
        raise ValueError(f"eps must be a number in (0, 1), got {eps!r}")

    def groups(s: np.ndarray) -> Any:
        return group_chunks(np.zeros(s.size, dtype=bool), s)

    lows = decile_lows(groups(e), e.size, int(n_bins))
    return psi_value(psi(groups(a), lows)["counts"], psi(groups(e), lows)["counts"],
                     float(eps))


# ---------------------------------------------------------------------------- profit


def profit_curve(
    y_true: Any, y_score: Any, *, cost: float, revenue: float, sample_weight: Any = None
) -> ProfitCurve:
    """Profit of contacting everybody with ``score >= threshold``, for every threshold.

    Contacting an object costs ``cost``; a contacted positive (a response) brings
    ``revenue``. The profit of a selection is ``revenue * TP - cost * (TP + FP)`` in
    the units of the counts (or of the total weight). It is linear along each step, so
    the best cut-off is a vertex; on a tie of profits the smaller selection wins.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Labels 0/1 or bool (1 = responds).
    y_score : array-like of shape (n,)
        Scores.
    cost : float
        Cost of one contact, non-negative.
    revenue : float
        Income from one response, non-negative.
    sample_weight : array-like of shape (n,), optional
        Non-negative weights (e.g. how many customers an object stands for).

    Returns
    -------
    ProfitCurve
        ``(rate, profit, thresholds, best_profit, best_rate, best_threshold)``; the
        first vertex (threshold ``inf``) is "contact nobody", with profit 0.

    Examples
    --------
    Table 1 with cost 1 and revenue 3: contacting the top object earns 3 - 1 = 2, the
    top three earn 2 * 3 - 3 = 3, everybody 3 * 3 - 7 = 2:

    >>> c = profit_curve([0, 0, 0, 1, 1, 1, 0], [0.5, 0.1, 0.2, 0.6, 0.2, 0.3, 0.0],
    ...                  cost=1, revenue=3)
    >>> c.profit.tolist()
    [0.0, 2.0, 1.0, 3.0, 4.0, 3.0, 2.0]
    >>> c.best_profit, round(c.best_rate * 7, 10), c.best_threshold
    (4.0, 5.0, 0.2)
    """
    c = _non_negative(cost, "cost")
    r = _non_negative(revenue, "revenue")
    # money, in units of the weights: not rescaled
    y, s, w = check_binary(y_true, y_score, sample_weight, scale=False)
    chunks, totals = in_memory(y, s, w)
    curve = CurveAcc(totals, y.size)
    run(chunks, totals, curve)
    tp, fp, thresholds = curve.counts()
    if tp.size == 1:  # every weight zero: no object to contact
        undefined("the profit curve", None, warn=False)
    return _profit_of(tp, fp, thresholds, c, r)


def _profit_of(
    tp: np.ndarray, fp: np.ndarray, thresholds: np.ndarray, cost: float, revenue: float
) -> ProfitCurve:
    """The profit curve of cumulative counts from :func:`with_origin` (some weight)."""
    selected = tp + fp
    profit = revenue * tp - cost * selected
    rate = selected / selected[-1]
    k = int(np.argmax(profit))
    return ProfitCurve(
        rate, profit, thresholds, float(profit[k]), float(rate[k]), _threshold(thresholds[k])
    )


def campaign_profit(
    contacts: float, responses: float, *, cost: float, revenue: float
) -> CampaignProfit:
    """Cost, income and profit of a campaign from its counts (e.g. read off a gains table).

    Parameters
    ----------
    contacts : float
        Number of people contacted, non-negative.
    responses : float
        Number of them who respond, from 0 to ``contacts``.
    cost : float
        Cost of one contact, non-negative.
    revenue : float
        Income from one response, non-negative.

    Returns
    -------
    CampaignProfit
        ``(cost, income, profit)`` = ``(contacts * cost, responses * revenue,
        income - cost)`` as floats.

    Examples
    --------
    Source G: 100 users of whom 30 return; a contact costs 2, a return brings 5.
    Contacting all loses money; the top half, holding 90% of the returners, earns:

    >>> campaign_profit(100, 30, cost=2, revenue=5)
    CampaignProfit(cost=200.0, income=150.0, profit=-50.0)
    >>> campaign_profit(50, 0.9 * 30, cost=2, revenue=5)
    CampaignProfit(cost=100.0, income=135.0, profit=35.0)
    """
    n = _non_negative(contacts, "contacts")
    k = _non_negative(responses, "responses")
    if k > n:
        raise ValueError(f"responses ({k}) cannot exceed contacts ({n})")
    spent = n * _non_negative(cost, "cost")
    income = k * _non_negative(revenue, "revenue")
    return CampaignProfit(spent, income, income - spent)
