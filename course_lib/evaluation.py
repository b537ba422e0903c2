"""One grouping, many views: :func:`evaluate`.

A figure that shows several views of one score (the ROC curve beside the gain chart,
the KS chart under the gains table) would validate and group the same scores once per
view if it called :func:`course_lib.roc_curve`, :func:`course_lib.gain_curve`, ...
one after the other. :func:`evaluate` validates the data and groups the scores once
(one sort), and each view of the returned :class:`Evaluation` reads those groups
through the same accumulators of :mod:`course_lib._stream` as the function of the
same name: the results are those functions' results, bit for bit.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from ._checks import check_binary, need_classes
from ._stream import HullAcc, in_memory, run
from .gains import (
    GainCurve,
    KsCurve,
    LiftCurve,
    _gain_of,
    _gains_bins,
    _ks_of,
    _lift_from_gain,
    curve_counts,
    gains_table_of,
    ks_of,
)
from .inference import DeLongCI, _check_level, delong_of, sample_auc
from .pr import PrCurve, ap_of, pr_of
from .roc import RocCurve, RocHull, auc_of, roc_of

__all__ = ["Evaluation", "evaluate"]


class Evaluation:
    """Scores validated and grouped once, with every curve and area of the book.

    Made by :func:`evaluate`; each method gives what the library function of the
    same name gives for the same data (and raises or warns as it does).
    """

    def __init__(self, y: Any, s: Any, w: Any) -> None:
        self.size = int(y.size)
        self.weighted = w is not None
        self.chunks, self.totals = in_memory(y, s, w)
        self.estimate = sample_auc(y, s) if w is None else 0.5  # DeLong's centre

    def roc_curve(self) -> RocCurve:
        """:func:`course_lib.roc_curve`."""
        return roc_of(self.chunks, self.totals, self.size)

    def pr_curve(self) -> PrCurve:
        """:func:`course_lib.pr_curve`."""
        return pr_of(self.chunks, self.totals, self.size)

    def gain_curve(self) -> GainCurve:
        """:func:`course_lib.gain_curve`."""
        return _gain_of(*curve_counts(self.chunks, self.totals, self.size, "gain curve",
                                      need_negatives=False))

    def lift_curve(self) -> LiftCurve:
        """:func:`course_lib.lift_curve`."""
        return _lift_from_gain(self.gain_curve())

    def ks_curve(self) -> KsCurve:
        """:func:`course_lib.ks_curve`."""
        return _ks_of(*curve_counts(self.chunks, self.totals, self.size, "KS chart",
                                    need_negatives=True))

    def roc_auc(self) -> float:
        """:func:`course_lib.roc_auc` (a float)."""
        return float(auc_of(self.chunks, self.totals))

    def gini(self) -> float:
        """The Gini coefficient ``2 AUC - 1`` (:func:`course_lib.gini_normalized`)."""
        return 2 * self.roc_auc() - 1

    def ks_statistic(self) -> float:
        """:func:`course_lib.ks_statistic`."""
        return ks_of(self.chunks, self.totals)

    def average_precision(self) -> float:
        """:func:`course_lib.average_precision` (a float)."""
        return float(ap_of(self.chunks, self.totals))

    def roc_convex_hull(self) -> RocHull:
        """The ROC convex hull of the data: :func:`course_lib.roc_convex_hull` of
        :meth:`roc_curve`'s points."""
        need_classes(self.totals.m1, self.totals.m0, "the ROC curve", warn=False)
        hull = HullAcc(self.totals)
        run(self.chunks, self.totals, hull)
        fpr, tpr, area = hull.result()
        return RocHull(fpr, tpr, area)

    def gains_table(self, *, n_bins: int = 10) -> pd.DataFrame:
        """:func:`course_lib.gains_table` (unweighted data)."""
        if self.weighted:
            raise ValueError("the gains table counts objects: evaluate without sample_weight")
        return gains_table_of(self.chunks, self.totals, _gains_bins(n_bins, self.size))

    def auc_ci_delong(self, *, level: float = 0.95) -> DeLongCI:
        """:func:`course_lib.auc_ci_delong` (unweighted data)."""
        if self.weighted:
            raise ValueError("DeLong's interval counts objects: evaluate without sample_weight")
        return delong_of(self.chunks, self.totals, _check_level(level), self.estimate)


def evaluate(y_true: Any, y_score: Any, *, sample_weight: Any = None) -> Evaluation:
    """Validate the data and group the scores once, for every view of them.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Labels 0/1 or bool.
    y_score : array-like of shape (n,)
        Scores.
    sample_weight : array-like of shape (n,), optional
        Non-negative weights (the gains table and DeLong's interval need none).

    Returns
    -------
    Evaluation
        Its methods ``roc_curve``, ``pr_curve``, ``gain_curve``, ``lift_curve``,
        ``ks_curve``, ``roc_auc``, ``gini``, ``ks_statistic``, ``average_precision``,
        ``roc_convex_hull``, ``gains_table`` and ``auc_ci_delong`` give what the
        functions of the same names give, from one sort of the scores.

    Examples
    --------
    Table 1 of the book:

    >>> e = evaluate([0, 0, 0, 1, 1, 1, 0], [0.5, 0.1, 0.2, 0.6, 0.2, 0.3, 0.0])
    >>> round(e.roc_auc(), 4), e.ks_statistic(), e.roc_curve().thresholds.tolist()
    (0.7917, 0.5, [inf, 0.6, 0.5, 0.3, 0.2, 0.1, 0.0])
    >>> e.gains_table(n_bins=4)["N"].tolist()
    [2, 3, 1, 1]
    """
    y, s, w = check_binary(y_true, y_score, sample_weight)
    return Evaluation(y, s, w)
