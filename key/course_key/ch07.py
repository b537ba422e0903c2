"""Chapter 7 exercises: precision, recall, PR curves and average precision."""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from course_lib import average_precision, pr_auc_trapezoid, roc_auc
from course_lib.exercises._core import FunctionSpec, Mistake, exact, function_exercise, parts, value_exercise

from . import _cases
from ._hints import HINTS, auc_mistakes, keep_distinct, precision_mistakes
from .ch03 import TABLE1_B, TABLE1_TEXT, TABLE1_Y

_AP = average_precision(TABLE1_Y, TABLE1_B, exact=True)
_Y8, _B8 = list(TABLE1_Y) + [0], list(TABLE1_B) + [0.7]
_AUC8 = roc_auc(_Y8, _B8, exact=True)
_AP8 = average_precision(_Y8, _B8, exact=True)


def precision_at_k(y_true, y_score, k):
    """Precision of the top ``k`` objects, ties at the cut broken at random (expected).

    >>> precision_at_k([1, 0, 1, 0], [0.9, 0.5, 0.5, 0.1], 2)
    0.75
    """
    y = np.asarray(y_true, dtype=bool)
    b = np.asarray(y_score, dtype=float)
    n = y.size
    if not 1 <= k <= n:
        raise ValueError(f"k must be in 1..{n}, got {k}")
    taken, positives = 0, 0.0
    for s in np.unique(b)[::-1]:
        group = b == s
        size = int(group.sum())
        share = min(size, k - taken)
        positives += share * y[group].sum() / size
        taken += share
        if taken == k:
            break
    return float(positives / k)


def _recall_at_k(y_true, y_score, k):
    m1 = sum(y_true)
    return float("nan") if m1 == 0 else precision_at_k(y_true, y_score, k) * k / m1


def _ascending_at_k(y_true, y_score, k):
    return precision_at_k(y_true, [-v for v in y_score], k)


def _stable_at_k(y_true, y_score, k):
    order = np.argsort(-np.asarray(y_score, dtype=float), kind="stable")
    return float(np.asarray(y_true)[order[:k]].mean())


def _whole_group_at_k(y_true, y_score, k):
    b = np.asarray(y_score, dtype=float)
    cut = np.sort(b)[::-1][k - 1]
    return float(np.asarray(y_true)[b >= cut].mean())


EXERCISES = [
    value_exercise(
        id="precision-from-roc-point", chapter=7, title="Precision of a good-looking ROC point",
        question="""
A scorer's threshold has the ROC point $(\\mathrm{FPR}, \\mathrm{TPR}) = (0.1, 0.8)$ on a
sample with 20 positives and 2000 negatives. What is its precision (exactly)?
""",
        answer_name="precision_point",
        solution_code="tp, fp = Fraction(8, 10) * 20, Fraction(1, 10) * 2000\n"
                      "precision_point = tp / (tp + fp)",
        solution=Fraction(16, 216),
        checker=exact(Fraction(16, 216), mistakes=keep_distinct(Fraction(16, 216), [
            *precision_mistakes(16, 200, 4),
            Mistake(Fraction(2, 1602), HINTS["swapped"]),
        ])),
        worked="TP = 0.8 x 20 = 16, FP = 0.1 x 2000 = 200: precision 16/216 = 2/27, about "
               "0.074.",
    ),
    value_exercise(
        id="ap-table1", chapter=7, title="Average precision of Table 1",
        question=f"""
{TABLE1_TEXT}
What is the average precision $\\sum_k (R_k - R_{{k-1}}) P_k$ over the thresholds (from
the highest score down, a group of tied scores taken whole)? (Exact.)
""",
        answer_name="ap_table1",
        solution_code="ap_table1 = cl.average_precision([0, 0, 0, 1, 1, 1, 0],\n"
                      "                                 [0.5, 0.1, 0.2, 0.6, 0.2, 0.3, 0.0], "
                      "exact=True)",
        solution=_AP,
        checker=exact(_AP, mistakes=keep_distinct(_AP, [
            Mistake(pr_auc_trapezoid(TABLE1_Y, TABLE1_B), "This is the trapezoid area under "
                    "the PR curve; average precision is the step sum of P_k times the rise "
                    "in recall."),
            Mistake(average_precision(TABLE1_Y, [0.5, 0.1, 0.2, 0.6, 0.21, 0.3, 0.0],
                                      exact=True), HINTS["ties_split"]),
            Mistake(average_precision(TABLE1_Y, [0.5, 0.1, 0.21, 0.6, 0.2, 0.3, 0.0],
                                      exact=True), HINTS["ties_split"]),
            Mistake(average_precision(TABLE1_Y, [-v for v in TABLE1_B], exact=True),
                    "The thresholds go from the highest score down (descending order)."),
        ])),
        worked="Recall rises by 1/3 at precisions 1 (object 4), 2/3 (object 6) and 3/5 "
               "(the tie at 0.2): AP = (1 + 2/3 + 3/5)/3 = 34/45.",
    ),
    value_exercise(
        id="auc-ap-eighth-object", chapter=7, title="An eighth object",
        question=f"""
{TABLE1_TEXT}
Add an eighth object, a negative with score 0.7. Give the new ROC AUC and average
precision exactly, as a tuple (AUC, AP).
""",
        answer_name="auc_ap_8",
        solution_code="y8 = [0, 0, 0, 1, 1, 1, 0, 0]\n"
                      "b8 = [0.5, 0.1, 0.2, 0.6, 0.2, 0.3, 0.0, 0.7]\n"
                      "auc_ap_8 = (cl.roc_auc(y8, b8, exact=True),\n"
                      "            cl.average_precision(y8, b8, exact=True))",
        solution=(_AUC8, _AP8),
        checker=parts(auc=exact(_AUC8, mistakes=auc_mistakes(_Y8, _B8)),
                      ap=exact(_AP8, mistakes=[Mistake(_AP, HINTS["unchanged"])])),
        worked="The new negative tops the list, so its three pairs are wrong: AUC 19/30. "
               "Each positive is found one place later: AP = (1/2 + 1/2 + 1/2)/3 = 1/2.",
    ),
    value_exercise(
        id="precision-thinned-negatives", chapter=7, title="Thinning the negatives",
        question="""
At some threshold 30 positives and 120 negatives are called positive. Keep one negative
in ten at random (and all positives). What precision do we expect at that threshold
(exactly)?
""",
        answer_name="precision_thinned",
        solution_code="precision_thinned = Fraction(30, 30 + 120 // 10)",
        solution=Fraction(5, 7),
        checker=exact(Fraction(5, 7), mistakes=[
            Mistake(Fraction(1, 5), HINTS["unchanged"] + " Precision depends on the "
                                    "balance of the classes."),
            Mistake(Fraction(3, 123), "That thins the positives; here the negatives are "
                                      "thinned."),
        ]),
        worked="Recall is unchanged; the false positives shrink to 12: 30/42 = 5/7.",
    ),
    function_exercise(
        id="precision-at-k-function", chapter=7, title="Write precision at k",
        question="""
Write `precision_at_k(y_true, y_score, k)`: the share of positives among the `k`
objects with the highest scores. When tied scores straddle the cut, take the expected
value over a random order of the tied objects (a group of $g$ tied objects with $p$
positives, of which $r$ are needed to reach $k$, contributes $r p / g$ positives).
""",
        answer_name="precision_at_k_answer",
        solution_code='''
def precision_at_k_answer(y_true, y_score, k):
    y = np.asarray(y_true, dtype=float)
    b = np.asarray(y_score, dtype=float)
    above = b > np.sort(b)[::-1][k - 1]          # strictly above the cut score
    at = b == np.sort(b)[::-1][k - 1]            # the group at the cut
    need = k - above.sum()
    return float((y[above].sum() + need * y[at].mean()) / k)
''',
        spec=FunctionSpec(
            reference=precision_at_k, cases=_cases.precision_at_k_cases,
            wrong_versions=(
                (_recall_at_k, HINTS["precision_denominator"].replace(
                    "TP / (TP + FN) is the recall", "dividing by the number of positives "
                    "gives the recall at k")),
                (_ascending_at_k, "The top k are the k highest scores (descending order)."),
                (_whole_group_at_k, HINTS["ties_split"].replace(
                    "must be taken whole (a threshold cannot split it); the answer splits "
                    "tied objects", "at the cut must count in proportion: exactly k objects "
                    "are taken, not the whole group")),
                (_stable_at_k, "Tied scores at the cut are taken in their given order; use "
                               "the expected value over a random order of the tied "
                               "objects."),
            ),
            signature="y_true, y_score, k"),
        worked="Count the positives strictly above the cut score and add the needed share "
               "of the tied group at the cut.",
    ),
    value_exercise(
        id="min-precision-unachievable", chapter=7, title="The floor of PR space",
        question="""
A sample has one positive in ten ($\\pi = 1/10$). What is the least precision that any
ranking of it can have at recall $1/2$, the edge of the unachievable region (exactly)?
""",
        answer_name="least_precision",
        solution_code="pi, recall = Fraction(1, 10), Fraction(1, 2)\n"
                      "least_precision = pi * recall / (pi * recall + 1 - pi)",
        solution=Fraction(1, 19),
        checker=exact(Fraction(1, 19), mistakes=[
            Mistake(Fraction(1, 10), "This is the precision of a scorer that ignores the "
                                     "objects; the worst ranking does worse, by putting "
                                     "every negative first."),
            Mistake(Fraction(1, 20), "Precision divides the true positives by all objects "
                                     "called positive, pi R + (1 - pi), not by 1."),
        ]),
        worked="Half the positives (pi R = 1/20 of the sample) come after all the "
               "negatives (9/10): precision (1/20) / (1/20 + 9/10) = 1/19.",
    ),
]
