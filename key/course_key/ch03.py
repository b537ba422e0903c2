"""Chapter 3 exercises: the AUC as a share of correctly ordered pairs."""

from __future__ import annotations

from fractions import Fraction

from course_lib import roc_auc
from course_lib.exercises._core import FunctionSpec, Mistake, exact, function_exercise, quiet, value_exercise

from . import _cases
from ._hints import HINTS, auc_mistakes, auc_tie_version, auc_unweighted, keep_distinct

TABLE1_Y = (0, 0, 0, 1, 1, 1, 0)
TABLE1_B = (0.5, 0.1, 0.2, 0.6, 0.2, 0.3, 0.0)

TABLE1_TEXT = (
    "Table 1 has seven objects with ids 1..7, scores "
    "$b = (0.5, 0.1, 0.2, 0.6, 0.2, 0.3, 0.0)$ and labels $y = (0, 0, 0, 1, 1, 1, 0)$: "
    "objects 4, 5, 6 are positive, objects 5 and 3 tie at 0.2."
)

_auc_t1 = roc_auc(TABLE1_Y, TABLE1_B, exact=True)
_auc_neg = roc_auc(TABLE1_Y, [-v for v in TABLE1_B], exact=True)
_w = [2 if v == 0 else 1 for v in TABLE1_Y]
_auc_w = roc_auc(TABLE1_Y, TABLE1_B, sample_weight=_w, exact=True)


@quiet
def _auc_reference(y_true, y_score):
    return float(roc_auc(y_true, y_score))


@quiet
def _auc_weighted_reference(y_true, y_score, sample_weight):
    return float(roc_auc(y_true, y_score, sample_weight=sample_weight))


EXERCISES = [
    value_exercise(
        id="auc-pairs-table1", chapter=3, title="The AUC of Table 1 by counting pairs",
        question=f"""
{TABLE1_TEXT}
Count the (positive, negative) pairs ordered correctly, a tie counting one half, and
give the ROC AUC as an exact fraction (e.g. `Fraction(p, q)` or the string `"p/q"`).
""",
        answer_name="auc_table1",
        solution_code='auc_table1 = cl.roc_auc([0, 0, 0, 1, 1, 1, 0],\n'
                      '                        [0.5, 0.1, 0.2, 0.6, 0.2, 0.3, 0.0], '
                      'exact=True)',
        solution=_auc_t1,
        checker=exact(_auc_t1, mistakes=auc_mistakes(TABLE1_Y, TABLE1_B)),
        worked="Of the 3 x 4 = 12 pairs, 9 are ordered correctly and the pair (5, 3) is "
               "tied: (9 + 1/2)/12 = 19/24.",
    ),
    value_exercise(
        id="auc-negated-scores", chapter=3, title="Negated scores",
        question=f"""
{TABLE1_TEXT}
Replace every score by its negative, $b \\mapsto -b$. What is the ROC AUC now (exact)?
""",
        answer_name="auc_negated",
        solution_code="auc_negated = 1 - cl.roc_auc([0, 0, 0, 1, 1, 1, 0],\n"
                      "                             [0.5, 0.1, 0.2, 0.6, 0.2, 0.3, 0.0], "
                      "exact=True)",
        solution=_auc_neg,
        checker=exact(_auc_neg, mistakes=keep_distinct(_auc_neg, [
            Mistake(_auc_t1, "A strictly decreasing map reverses the order of the scores: "
                             "correctly ordered pairs become wrongly ordered, so the AUC "
                             "becomes 1 - AUC (ties stay ties)."),
            Mistake(Fraction(1, 2) - (_auc_t1 - Fraction(1, 2)) - Fraction(1, 24),
                    HINTS["ties_zero"]),
        ])),
        worked="Every correctly ordered pair becomes wrongly ordered and the tie stays a "
               "tie: 1 - 19/24 = 5/24.",
    ),
    value_exercise(
        id="auc-binarized-answer", chapter=3, title="The AUC of a binarized answer",
        question="""
A classifier answers 0 or 1 (no scores). It has $\\mathrm{TPR} = 0.9$ and
$\\mathrm{FPR} = 0.3$. What is the area under its ROC curve (a number)?
""",
        answer_name="auc_binary",
        solution_code="auc_binary = (1 + Fraction(9, 10) - Fraction(3, 10)) / 2",
        solution=Fraction(4, 5),
        checker=exact(Fraction(4, 5), mistakes=[
            Mistake(Fraction(3, 5), "This is TPR - FPR (the KS or Youden value); the ROC "
                                    "curve of a binarized answer goes (0,0) -> (FPR, TPR) -> "
                                    "(1,1) and its area is (1 + TPR - FPR)/2."),
            Mistake(Fraction(63, 100), "TPR x (1 - FPR) leaves out the two triangles: the "
                                       "curve is a broken line, sum its trapezoids."),
            Mistake(Fraction(1, 5), HINTS["swapped"]),
            Mistake(Fraction(9, 10), "The area is not the TPR: the curve goes through "
                                     "(FPR, TPR), sum its two trapezoids."),
        ], hint="The curve goes (0,0) -> (FPR, TPR) -> (1,1); add the two trapezoids."),
        worked="Two trapezoids: 0.3 x 0.9 / 2 + 0.7 x (0.9 + 1)/2 = 0.8 = (1 + TPR - FPR)/2, "
               "the balanced accuracy of the answer.",
    ),
    value_exercise(
        id="auc-weighted-negatives", chapter=3, title="Weights on one class",
        question=f"""
{TABLE1_TEXT}
Give every negative the weight 2 and every positive the weight 1 (a pair weighs the
product of its objects' weights). What is the weighted ROC AUC (exact)?
""",
        answer_name="auc_weighted",
        solution_code="auc_weighted = cl.roc_auc([0, 0, 0, 1, 1, 1, 0],\n"
                      "                          [0.5, 0.1, 0.2, 0.6, 0.2, 0.3, 0.0],\n"
                      "                          sample_weight=[2, 2, 2, 1, 1, 1, 2], "
                      "exact=True)",
        solution=_auc_w,
        checker=exact(_auc_w, mistakes=[
            Mistake(2 * _auc_t1, "The weighted count of correct pairs is divided by the "
                                 "total weight of all pairs, which doubled too."),
        ] + list(auc_mistakes(TABLE1_Y, TABLE1_B))),
        worked="Every pair weighs 2, so numerator and denominator double: the AUC stays "
               "19/24. Only relative weights within each class matter.",
    ),
    function_exercise(
        id="auc-pairs-function", chapter=3, title="Write the AUC by pair counting",
        question="""
Write a function `auc_pairs(y_true, y_score)` that returns the ROC AUC (a float) of
labels `y_true` (0/1) and scores `y_score` (lists of equal length) by counting
(positive, negative) pairs: a pair counts 1 when the positive scores higher, 1/2 on a
tie. When one class is missing return `float("nan")` (raising a `ValueError` is also
accepted). It is checked on hidden cases with ties, one class, all scores tied and rare
positives.
""",
        answer_name="auc_pairs",
        solution_code='''
def auc_pairs(y_true, y_score):
    y = np.asarray(y_true, dtype=bool)
    b = np.asarray(y_score, dtype=float)
    pos, neg = b[y], b[~y]
    if pos.size == 0 or neg.size == 0:
        return float("nan")
    diff = pos[:, None] - neg[None, :]
    return float(((diff > 0) + 0.5 * (diff == 0)).mean())
''',
        spec=FunctionSpec(
            reference=_auc_reference, cases=_cases.binary_cases,
            wrong_versions=(
                (auc_tie_version(0.0), HINTS["ties_zero"]),
                (auc_tie_version(1.0), HINTS["ties_one"]),
                (auc_tie_version(0.5, reverse=True), HINTS["ascending"]),
            ),
            signature="y_true, y_score"),
        worked="Broadcast the positives' scores against the negatives': the mean of "
               "[b+ > b-] + 1/2 [b+ = b-] over the m1 x m0 pairs.",
    ),
    function_exercise(
        id="auc-weighted-function", chapter=3, title="Write the weighted AUC",
        question="""
Write `weighted_auc(y_true, y_score, sample_weight)`: the ROC AUC when object $i$ has the
weight $w_i > 0$ and a (positive, negative) pair weighs $w_i w_j$: the weighted share of
correctly ordered pairs, a tie counting one half. Return `float("nan")` when a class is
missing.
""",
        answer_name="weighted_auc",
        solution_code='''
def weighted_auc(y_true, y_score, sample_weight):
    y = np.asarray(y_true, dtype=bool)
    b = np.asarray(y_score, dtype=float)
    w = np.asarray(sample_weight, dtype=float)
    if y.all() or not y.any():
        return float("nan")
    diff = b[y][:, None] - b[~y][None, :]
    pair_w = w[y][:, None] * w[~y][None, :]
    won = (diff > 0) + 0.5 * (diff == 0)
    return float((won * pair_w).sum() / pair_w.sum())
''',
        spec=FunctionSpec(
            reference=_auc_weighted_reference,
            cases=lambda seed: _cases.binary_cases(seed, weights=True),
            wrong_versions=(
                (auc_unweighted, "The weights are ignored: a pair weighs w_i * w_j."),
                (auc_tie_version(0.0), HINTS["ties_zero"]),
                (auc_tie_version(1.0), HINTS["ties_one"]),
            ),
            signature="y_true, y_score, sample_weight"),
        worked="The same pair matrix as without weights, each cell weighted by "
               "w_i w_j, divided by the total pair weight.",
    ),
]
