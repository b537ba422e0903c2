"""Mistake detectors: the typical wrong answers, recomputed on an exercise's data.

Each function takes the exercise's data and returns :class:`Mistake` values (a wrong
value with the hint that names the mistake). A checker that receives a wrong answer
compares it with these values, so the hint is chosen by the mistake the student most
likely made. Mistakes whose value equals the right answer are dropped (they could not
be told apart). The functions below are also the "wrong versions" of function answers.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from fractions import Fraction
from typing import Any

import numpy as np

from course_lib.exercises._core import Mistake

__all__ = [
    "HINTS",
    "auc_mistakes",
    "auc_ties",
    "gini_brown_rectangles",
    "gini_mistakes",
    "keep_distinct",
    "ks_over_rate",
    "precision_mistakes",
]

#: The hint texts, one per typical mistake (tests assert on their key words).
HINTS = {
    "ties_zero": "A tie between a positive and a negative counts one half, not 0: "
                 "you counted ties as 0 (or drew the tie group as a step right then up).",
    "ties_one": "A tie between a positive and a negative counts one half, not 1: "
                "you counted ties as 1 (or drew the tie group as a step up then right).",
    "ascending": "This is 1 - AUC: the objects were sorted in ascending instead of "
                 "descending order of score (or TPR and FPR were swapped).",
    "swapped": "TPR and FPR seem to be swapped: TPR is the share of positives called "
               "positive, FPR the share of negatives called positive.",
    "unnormalized_auc": "This is the number of correctly ordered pairs, not normalized: "
                        "the AUC is a share of the (positive, negative) pairs.",
    "gini_not_auc": "This is the Gini coefficient 2 AUC - 1, not the AUC.",
    "auc_not_gini": "This is the AUC, not the Gini coefficient, which rescales the AUC so "
                    "that a random ranking gives 0.",
    "gini_one_minus_auc": "The Gini coefficient is not 1 - AUC: it rescales the AUC so that "
                          "a random ranking gives 0 and a perfect one 1.",
    "unnormalized_gini": "This is the unnormalized Gini (the area between the curve and "
                         "the diagonal); normalize it by the same area for the ideal "
                         "curve.",
    "trapezoid_off_by_one": "The trapezoid sum is off by one step: each trapezoid uses "
                            "the two neighbouring vertices (Y_k + Y_(k-1)), not one of them "
                            "twice.",
    "lorenz_order": "The Lorenz curve accumulates incomes from the poorest up (ascending "
                    "order); sorted from the richest the sign flips.",
    "precision_denominator": "Precision has the wrong denominator: precision is the share "
                             "of positives among the objects called positive; divided by "
                             "all the positives it is the recall.",
    "recall_denominator": "Recall has the wrong denominator: recall is the share of the "
                          "positives that are called positive; divided by the objects "
                          "called positive it is the precision.",
    "micro_not_macro": "This is the micro average (pooled counts, here the accuracy); "
                       "the macro average is the plain mean of the per-class values.",
    "macro_not_micro": "This is the macro average; the micro average pools the counts "
                       "of all classes first.",
    "weighted_not_macro": "This is the support-weighted average; the macro average "
                          "gives every class the same weight.",
    "ks_wrong_axis": "The KS statistic was taken over the wrong axis: it sets the TPR "
                     "against the FPR, not against the rate of positive predictions RPP "
                     "(the gain curve's distance to the diagonal).",
    "ks_sign": "This is the largest FPR - TPR: the sign is reversed.",
    "ties_split": "A group of tied scores must be taken whole (a threshold cannot split "
                  "it); the answer splits tied objects.",
    "percent": "Give the value as a fraction of 1, not in percent.",
    "strict_threshold": "An object is called positive when its score is at least the "
                        "threshold (b >= theta), not strictly above it.",
    "unchanged": "The value does change: recompute it on the changed data.",
    "costs_swapped": "The two costs are swapped: PCF(+) multiplies p(+) by the cost of a "
                     "miss (a false negative), C(-|+).",
}


def keep_distinct(right: Any, mistakes: Iterable[Mistake]) -> tuple[Mistake, ...]:
    """Drop mistakes equal to the right answer or to an earlier mistake."""
    out: list[Mistake] = []
    seen: list[float] = [float(right)]
    for m in mistakes:
        v = float(m.value)
        if not np.isfinite(v):
            continue
        if any(abs(v - s) <= 1e-12 for s in seen):
            continue
        seen.append(v)
        out.append(m)
    return tuple(out)


def _pair_counts(y: Any, b: Any) -> tuple[int, int, int, int]:
    """(correct, tied, m1, m0) over the (positive, negative) pairs."""
    yy = np.asarray(y).astype(bool)
    bb = np.asarray(b, dtype=float)
    pos, neg = bb[yy], bb[~yy]
    diff = pos[:, None] - neg[None, :]
    return int((diff > 0).sum()), int((diff == 0).sum()), pos.size, neg.size


def auc_ties(y: Any, b: Any, tie: Fraction = Fraction(1, 2)) -> Fraction:
    """The AUC by pair counting with a tie counted as ``tie`` (1/2 is right)."""
    correct, tied, m1, m0 = _pair_counts(y, b)
    return (correct + tie * tied) / Fraction(m1 * m0)


def auc_mistakes(y: Any, b: Any) -> tuple[Mistake, ...]:
    """The typical wrong AUCs of a sample (exact), with their hints."""
    right = auc_ties(y, b)
    correct, tied, m1, m0 = _pair_counts(y, b)
    return keep_distinct(right, [
        Mistake(auc_ties(y, b, Fraction(0)), HINTS["ties_zero"]),
        Mistake(auc_ties(y, b, Fraction(1)), HINTS["ties_one"]),
        Mistake(1 - right, HINTS["ascending"]),
        Mistake(correct + Fraction(tied, 2), HINTS["unnormalized_auc"]),
        Mistake(2 * right - 1, HINTS["gini_not_auc"]),
    ])


def gini_mistakes(y: Any, b: Any, *, unnormalized: Any = None) -> tuple[Mistake, ...]:
    """The typical wrong normalized Gini coefficients of a sample, with their hints."""
    auc = auc_ties(y, b)
    right = 2 * auc - 1
    items = [
        Mistake(auc, HINTS["auc_not_gini"]),
        Mistake(1 - auc, HINTS["gini_one_minus_auc"]),
        Mistake(2 * auc_ties(y, b, Fraction(0)) - 1, HINTS["ties_zero"]),
        Mistake(2 * auc_ties(y, b, Fraction(1)) - 1, HINTS["ties_one"]),
        Mistake(-right, HINTS["ascending"]),
    ]
    if unnormalized is not None:
        items.insert(0, Mistake(unnormalized, HINTS["unnormalized_gini"]))
    return keep_distinct(right, items)


def gini_brown_rectangles(values: Any) -> Fraction:
    """Brown's formula off by one step: ``1 - sum (X_k - X_(k-1)) 2 Y_k``."""
    v = sorted(Fraction(int(x)) for x in values)
    total, n = sum(v), len(v)
    cum = list(itertools.accumulate([Fraction(0)] + v))
    return Fraction(1 - sum(Fraction(1, n) * 2 * (cum[k] / total) for k in range(1, n + 1)))


def precision_mistakes(tp: Any, fp: Any, fn: Any) -> tuple[Mistake, ...]:
    """Wrong precisions: the recall's denominator, or FP's share."""
    tp, fp, fn = Fraction(tp), Fraction(fp), Fraction(fn)
    right = tp / (tp + fp)
    items = []
    if tp + fn:
        items.append(Mistake(tp / (tp + fn), HINTS["precision_denominator"]))
    items.append(Mistake(fp / (tp + fp), "This is the share of false positives among "
                                         "the objects called positive, 1 - precision."))
    return keep_distinct(right, items)


def ks_over_rate(y: Any, b: Any) -> float:
    """The wrong KS: max over thresholds of TPR - RPP (the gain curve's gap)."""
    yy = np.asarray(y).astype(bool)
    bb = np.asarray(b, dtype=float)
    best = 0.0
    for t in np.unique(bb):
        sel = bb >= t
        best = max(best, sel[yy].mean() - sel.mean())
    return float(best)


# ----------------------------------------------------------------- wrong versions
def auc_tie_version(tie: float, *, reverse: bool = False):
    """A pair-counting AUC with ties counted as ``tie`` (and the order reversed)."""

    def auc(y_true: Any, y_score: Any, sample_weight: Any = None) -> float:
        y = np.asarray(y_true).astype(bool)
        b = np.asarray(y_score, dtype=float)
        if reverse:
            b = -b
        w = np.ones(y.size) if sample_weight is None else np.asarray(sample_weight, float)
        pos, neg, wp, wn = b[y], b[~y], w[y], w[~y]
        if pos.size == 0 or neg.size == 0:
            return float("nan")
        d = pos[:, None] - neg[None, :]
        ww = wp[:, None] * wn[None, :]
        return float((((d > 0) + tie * (d == 0)) * ww).sum() / ww.sum())

    return auc


def auc_unweighted(y_true: Any, y_score: Any, sample_weight: Any = None) -> float:
    """The AUC ignoring the weights."""
    return auc_tie_version(0.5)(y_true, y_score)
