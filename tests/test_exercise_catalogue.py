"""The catalogue of typical wrong solutions: each one, written as a student would,
fails its exercise with a message that names the mistake."""

from fractions import Fraction

import numpy as np
import pytest
import sympy

from course_lib.exercises import check


# ----------------------------------------------------------------- wrong functions
def auc_ties_as_zero(y_true, y_score):
    y, b = np.asarray(y_true, bool), np.asarray(y_score, float)
    if y.all() or not y.any():
        return float("nan")
    return float(np.mean([[p > n for n in b[~y]] for p in b[y]]))


def auc_ties_as_one(y_true, y_score):
    y, b = np.asarray(y_true, bool), np.asarray(y_score, float)
    if y.all() or not y.any():
        return float("nan")
    return float(np.mean([[p >= n for n in b[~y]] for p in b[y]]))


def auc_ascending_walk(y_true, y_score):
    """Walks the grid from the lowest score up (ascending order)."""
    y, b = np.asarray(y_true, bool), np.asarray(y_score, float)
    m1, m0 = y.sum(), (~y).sum()
    if m1 == 0 or m0 == 0:
        return float("nan")
    area, tpr, fpr = 0.0, 0.0, 0.0
    for s in np.unique(b):  # ascending
        k1, k0 = (y & (b == s)).sum() / m1, (~y & (b == s)).sum() / m0
        area += k0 * (tpr + tpr + k1) / 2
        tpr, fpr = tpr + k1, fpr + k0
    return float(area)


def weighted_auc_ignoring_weights(y_true, y_score, sample_weight):
    y, b = np.asarray(y_true, bool), np.asarray(y_score, float)
    if y.all() or not y.any():
        return float("nan")
    d = b[y][:, None] - b[~y][None, :]
    return float(((d > 0) + 0.5 * (d == 0)).mean())


def gini_unnormalized_cap(y_true, y_score):
    """The area between the CAP curve and the diagonal, not divided by the ideal's."""
    y, b = np.asarray(y_true, float), np.asarray(y_score, float)
    if y.sum() == 0 or y.sum() == y.size:
        return float("nan")
    n = y.size
    xs, ys = [0.0], [0.0]
    for s in np.unique(b)[::-1]:
        sel = b >= s
        xs.append(sel.mean())
        ys.append(y[sel].sum() / y.sum())
    return float(np.trapezoid(ys, xs) - 0.5) if n else 0.0


def gini_as_one_minus_auc(y_true, y_score):
    y, b = np.asarray(y_true, bool), np.asarray(y_score, float)
    if y.all() or not y.any():
        return float("nan")
    d = b[y][:, None] - b[~y][None, :]
    return float(1 - ((d > 0) + 0.5 * (d == 0)).mean())


def gini_rectangles(incomes):
    """Brown's formula with 2 Y_k instead of Y_k + Y_(k-1): off by one step."""
    v = np.sort(np.asarray(incomes, float))
    y = np.cumsum(v) / v.sum()
    return float(1 - np.sum(2 * y / v.size))


def gini_unsorted(incomes):
    v = np.asarray(incomes, float)
    y = np.concatenate([[0.0], np.cumsum(v) / v.sum()])
    return float(1 - np.sum((y[1:] + y[:-1]) / v.size))


def precision_at_k_over_positives(y_true, y_score, k):
    """Divides by the number of positives (the recall at k)."""
    y, b = np.asarray(y_true, float), np.asarray(y_score, float)
    order = np.argsort(-b, kind="stable")
    return float(y[order[:k]].sum() / max(y.sum(), 1))


def precision_at_k_sorted_stably(y_true, y_score, k):
    y, b = np.asarray(y_true, float), np.asarray(y_score, float)
    return float(y[np.argsort(-b, kind="stable")[:k]].mean())


def ks_against_positive_rate(y_true, y_score):
    y, b = np.asarray(y_true, bool), np.asarray(y_score, float)
    if y.all() or not y.any():
        return float("nan")
    return float(max([0.0] + [(b >= t)[y].mean() - (b >= t).mean() for t in np.unique(b)]))


def ks_object_by_object(y_true, y_score):
    y, b = np.asarray(y_true, bool), np.asarray(y_score, float)
    if y.all() or not y.any():
        return float("nan")
    ys = y[np.argsort(-b, kind="stable")]
    return float(max(0.0, (np.cumsum(ys) / ys.sum() - np.cumsum(~ys) / (~ys).sum()).max()))


def roc_point_strict(y_true, y_score, threshold):
    y, called = np.asarray(y_true, bool), np.asarray(y_score, float) > threshold
    if y.all() or not y.any():
        return float("nan")
    return (float(called[~y].mean()), float(called[y].mean()))


def nec_swapped(fpr, tpr, pcf):
    return (1 - fpr - tpr) * pcf + tpr


def max_auc_no_ties(m):
    return 1 - Fraction(1, (m // 2) * (m - m // 2))


def is_roc_curve_monotone_only(points):
    pts = [tuple(float(sympy.sympify(c)) for c in p) for p in points]
    return (len(pts) >= 2 and pts[0] == (0, 0) and pts[-1] == (1, 1)
            and all(q[0] >= p[0] and q[1] >= p[1] for p, q in zip(pts, pts[1:])))


def sample_positive_negatives_cdf(u):
    return [1 - (1 - v) ** 0.5 for v in u]


def rank_average_ordinal(scores):
    arr = np.asarray(scores, float)
    ranks = [np.argsort(np.argsort(r, kind="stable")) + 1 for r in arr]
    return (np.mean(ranks, axis=0) / arr.shape[1]).tolist()


# ----------------------------------------------------------------- the catalogue
THETA = sympy.Symbol("theta")

CATALOGUE = [
    # (name of the mistake, exercise id, wrong answer, key words of the hint)
    ("AUC: ties counted as 0", "auc-pairs-function", auc_ties_as_zero,
     ["one half", "ties as 0"]),
    ("AUC: ties counted as 1", "auc-pairs-function", auc_ties_as_one,
     ["one half", "ties as 1"]),
    ("AUC: ascending instead of descending order", "auc-pairs-function",
     auc_ascending_walk, ["ascending", "descending"]),
    ("weighted AUC: weights ignored", "auc-weighted-function",
     weighted_auc_ignoring_weights, ["weights are ignored"]),
    ("Gini: unnormalized", "gini-normalized-function", gini_unnormalized_cap,
     ["unnormalized"]),
    ("Gini computed as 1 - AUC", "gini-normalized-function", gini_as_one_minus_auc,
     ["not 1 - AUC"]),
    ("Lorenz Gini: trapezoid off by one step", "gini-lorenz-function", gini_rectangles,
     ["off by one step"]),
    ("Lorenz Gini: incomes not sorted", "gini-lorenz-function", gini_unsorted,
     ["sort", "poorest"]),
    ("precision at k: wrong denominator", "precision-at-k-function",
     precision_at_k_over_positives, ["wrong denominator", "recall"]),
    ("precision at k: ties taken in the given order", "precision-at-k-function",
     precision_at_k_sorted_stably, ["random order"]),
    ("KS over the wrong axis", "ks-statistic-function", ks_against_positive_rate,
     ["wrong axis"]),
    ("KS splitting tied scores", "ks-statistic-function", ks_object_by_object,
     ["tied", "whole"]),
    ("ROC point: strict threshold", "roc-point-function", roc_point_strict,
     ["at least the threshold"]),
    ("NEC: TPR and FPR swapped", "nec-function", nec_swapped, ["swapped"]),
    ("largest AUC below 1 without ties", "d-q4-max-auc", max_auc_no_ties,
     ["ties are allowed"]),
    ("ROC curve: rationality forgotten", "d-q8-roc-condition",
     is_roc_curve_monotone_only, ["not enough", "finite sample"]),
    ("sampling with the other class's inverse CDF", "inverse-cdf-positive",
     sample_positive_negatives_cdf, ["negatives' inverse cdf"]),
    ("rank averaging without average ranks for ties", "rank-average-function",
     rank_average_ordinal, ["average rank"]),
    # wrong values
    ("AUC of Table 1, ties counted as 0", "auc-pairs-table1", 0.75, ["one half", "as 0"]),
    ("AUC of Table 1, ascending order", "auc-pairs-table1", "5/24", ["ascending"]),
    ("AUC of Table 1, not normalized", "auc-pairs-table1", 9.5, ["not normalized"]),
    ("AUC of Table 1 in percent", "auc-pairs-table1", 79.16666666666667, ["percent"]),
    ("Gini of Table 1, unnormalized", "gini-normalized-table1", Fraction(1, 6),
     ["unnormalized"]),
    ("Gini of Table 1 given as the AUC", "gini-normalized-table1", "19/24",
     ["not the gini"]),
    ("AUC from Gini with Gini = 1 - AUC", "auc-from-gini", 0.6, ["not 1 - AUC"]),
    ("precision with the recall's denominator", "precision-from-roc-point", 0.8,
     ["wrong denominator"]),
    ("micro average instead of macro", "macro-recall-3class", 0.75, ["micro average"]),
    ("KS of Table 1 over the positive rate", "ks-table1", Fraction(2, 7), ["wrong axis"]),
    ("ROC vertices with TPR and FPR swapped", "roc-vertices-table1",
     [(0, 0), (1 / 3, 0), (1 / 3, 1 / 4), (2 / 3, 1 / 4), (1, 1 / 2), (1, 3 / 4), (1, 1)],
     ["swapped"]),
    ("ROC point with a strict threshold", "roc-point-table1", (0.25, Fraction(2, 3)),
     ["at least the threshold"]),
    ("PCF with the costs swapped", "pcf-value", Fraction(1, 17), ["costs are swapped"]),
    ("Brown's formula off by one step", "gini-brown-incomes", Fraction(1, 5),
     ["off by one step"]),
    ("precision unchanged after thinning", "precision-thinned-negatives", 0.2,
     ["does change", "balance"]),
    # the warm-up model of chapter 10's exercise: p1 = 1/2 + b, p0 = 3/2 - b
    ("the FPR formula given for the TPR", "linear-tpr-formula",
     1 - sympy.Rational(3, 2) * THETA + THETA**2 / 2, ["swapped"]),
    ("the AUC unchanged by rounding", "d-q6-transformations",
     ("none", 0, "none", 0, "none", 0), ["ties"]),
    ("F2 and F0.5 swapped", "fbeta-two-systems", ("tie", 1, 2, 1), ["swapped"]),
    ("pairs sample counted once", "pairs-sample-size", 7600, ["twice"]),
]


def test_catalogue_is_large_enough():
    assert len(CATALOGUE) >= 15
    assert len({name for name, *_ in CATALOGUE}) == len(CATALOGUE)
    assert sum(callable(answer) for _, _, answer, _ in CATALOGUE) >= 15


@pytest.mark.parametrize("name, exercise_id, answer, words", CATALOGUE,
                         ids=[c[0] for c in CATALOGUE])
def test_wrong_solution_fails_naming_the_mistake(name, exercise_id, answer, words):
    fb = check(exercise_id, answer)
    assert not fb.passed, name
    assert fb.points < fb.max_points
    message = fb.message.lower()
    for word in words:
        assert word.lower() in message, (name, fb.message)
