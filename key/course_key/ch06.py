"""Chapter 6 exercises: the Gini coefficient of a classifier, CAP curves, inversions."""

from __future__ import annotations

from fractions import Fraction

from course_lib import gini_normalized, gini_unnormalized, roc_auc
from course_lib.exercises._core import (
    FunctionSpec,
    Mistake,
    exact,
    function_exercise,
    parts,
    quiet,
    value_exercise,
    with_whole_mistakes,
)

from . import _cases
from ._hints import HINTS, auc_tie_version, gini_mistakes
from .ch03 import TABLE1_B, TABLE1_TEXT, TABLE1_Y

_G_T1 = gini_normalized(TABLE1_Y, TABLE1_B, exact=True)
_S_T1 = gini_unnormalized(TABLE1_Y, TABLE1_B, exact=True)
_Y2 = list(TABLE1_Y) + [0, 0, 0, 0]
_B2 = list(TABLE1_B) + [v for v, y in zip(TABLE1_B, TABLE1_Y) if y == 0]
_AUC2 = roc_auc(_Y2, _B2, exact=True)
_G2 = gini_normalized(_Y2, _B2, exact=True)
_S2 = gini_unnormalized(_Y2, _B2, exact=True)


@quiet
def _gini_reference(y_true, y_score):
    return 2 * float(roc_auc(y_true, y_score)) - 1


def _wrong_gini(tie=0.5, form="2a-1"):
    auc = auc_tie_version(tie)

    def gini(y_true, y_score):
        a = auc(y_true, y_score)
        return {"2a-1": 2 * a - 1, "a": a, "1-a": 1 - a}[form]

    return gini


def _gini_unnorm(y_true, y_score):
    return float(gini_unnormalized(y_true, y_score))


EXERCISES = [
    value_exercise(
        id="auc-from-gini", chapter=6, title="From Gini to AUC",
        question="""
A credit model has a normalized Gini coefficient of 0.4. What is its ROC AUC?
""",
        answer_name="auc_from_gini",
        solution_code="auc_from_gini = (1 + Fraction(2, 5)) / 2",
        solution=Fraction(7, 10),
        checker=exact(Fraction(7, 10), mistakes=[
            Mistake(Fraction(2, 5), HINTS["auc_not_gini"]),
            Mistake(Fraction(3, 5), HINTS["gini_one_minus_auc"]),
            Mistake(Fraction(1, 5), "Gini = 2 AUC - 1, so AUC = (1 + Gini)/2."),
        ]),
        worked="AUC = (1 + Gini)/2 = 0.7.",
    ),
    value_exercise(
        id="gini-normalized-table1", chapter=6, title="The Gini coefficient of Table 1",
        question=f"""
{TABLE1_TEXT}
What is the normalized Gini coefficient of these scores: the area between the CAP
curve and the diagonal divided by the same area for the ideal ranking? (Exact.)
""",
        answer_name="gini_table1",
        solution_code="gini_table1 = cl.gini_normalized([0, 0, 0, 1, 1, 1, 0],\n"
                      "                                [0.5, 0.1, 0.2, 0.6, 0.2, 0.3, 0.0], "
                      "exact=True)",
        solution=_G_T1,
        checker=exact(_G_T1, mistakes=gini_mistakes(TABLE1_Y, TABLE1_B, unnormalized=_S_T1)),
        worked="It equals 2 AUC - 1 = 2 x 19/24 - 1 = 7/12.",
    ),
    value_exercise(
        id="gini-duplicated-negatives", chapter=6, title="Repeat every negative",
        question=f"""
{TABLE1_TEXT}
Repeat every negative once more (eight negatives, three positives). Give, exactly, the
ROC AUC, the normalized Gini and the unnormalized Gini (the area between the CAP curve
and the diagonal) of the new sample, as a tuple in this order.
""",
        answer_name="duplicated",
        solution_code="y2 = [0, 0, 0, 1, 1, 1, 0] + [0, 0, 0, 0]\n"
                      "b2 = [0.5, 0.1, 0.2, 0.6, 0.2, 0.3, 0.0] + [0.5, 0.1, 0.2, 0.0]\n"
                      "duplicated = (cl.roc_auc(y2, b2, exact=True),\n"
                      "              cl.gini_normalized(y2, b2, exact=True),\n"
                      "              cl.gini_unnormalized(y2, b2, exact=True))",
        solution=(_AUC2, _G2, _S2),
        checker=parts(
            auc=exact(_AUC2), gini_normalized=exact(_G2),
            gini_unnormalized=exact(_S2, mistakes=[
                Mistake(_S_T1, "The unnormalized area changes with the class balance: the "
                               "ideal area m0/(2m) grows with the share of negatives."),
                Mistake(_G2, HINTS["unnormalized_gini"])])),
        worked="Every pair counts twice: AUC 19/24 and Gini 7/12 stay; the unnormalized "
               "area grows from 1/6 to 7/33.",
    ),
    value_exercise(
        id="bubble-swaps", chapter=6, title="Bubble-sort swaps",
        question="""
Fifteen objects, 6 positive and 9 negative, are listed by increasing score. Bubble sort
puts the labels in increasing order (negatives first); each swap of neighbours fixes one
wrongly ordered (positive, negative) pair. How many swaps does the ideal model (all
negatives scored below all positives) need, and how many the worst (all positives
below)? Answer a tuple (ideal, worst).
""",
        answer_name="swaps",
        solution_code="swaps = (cl.count_inversions([0] * 9 + [1] * 6),\n"
                      "         cl.count_inversions([1] * 6 + [0] * 9))",
        solution=(0, 54),
        checker=with_whole_mistakes(
            parts(ideal=exact(0), worst=exact(54, mistakes=[
                Mistake(105, "Only (positive, negative) pairs can be out of order, not all "
                             "15 x 14 / 2 pairs of objects: 6 x 9.")])),
            ((54, 0), "The ideal model lists the negatives first by increasing score, so "
                      "it needs no swap.")),
        worked="The ideal needs 0 swaps, the worst all 6 x 9 = 54; Gini is 1 and -1.",
    ),
    function_exercise(
        id="gini-normalized-function", chapter=6, title="Write the normalized Gini",
        question="""
Write `gini_normalized(y_true, y_score)`: the normalized Gini coefficient (a float) of
labels and scores, ties between a positive and a negative counting one half; return
`float("nan")` when a class is missing.
""",
        answer_name="gini_normalized_answer",
        solution_code='''
def gini_normalized_answer(y_true, y_score):
    y = np.asarray(y_true, dtype=bool)
    b = np.asarray(y_score, dtype=float)
    if y.all() or not y.any():
        return float("nan")
    d = b[y][:, None] - b[~y][None, :]
    auc = ((d > 0) + 0.5 * (d == 0)).mean()
    return float(2 * auc - 1)
''',
        spec=FunctionSpec(
            reference=_gini_reference, cases=_cases.binary_cases,
            wrong_versions=(
                (_wrong_gini(form="a"), HINTS["auc_not_gini"]),
                (_wrong_gini(form="1-a"), HINTS["gini_one_minus_auc"]),
                (_gini_unnorm, HINTS["unnormalized_gini"]),
                (_wrong_gini(tie=0.0), HINTS["ties_zero"]),
                (_wrong_gini(tie=1.0), HINTS["ties_one"]),
            ),
            signature="y_true, y_score"),
        worked="The normalized Gini is 2 AUC - 1, ties included.",
    ),
]
