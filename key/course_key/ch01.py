"""Chapter 1 exercises: thresholds, confusion matrices, precision, recall, F-beta."""

from __future__ import annotations

from fractions import Fraction

from course_lib.exercises._core import (
    ChoiceChecker,
    Mistake,
    exact,
    parts,
    value_exercise,
    with_whole_mistakes,
)

from ._hints import HINTS, keep_distinct, precision_mistakes

_PREF = {"0": "tie", "tie": "tie", "1": "1", "2": "2", "system 1": "1", "system 2": "2"}


def _pref(expected: str) -> ChoiceChecker:
    return ChoiceChecker(expected, _PREF, hint="Compute both systems' values and compare.")


_F1_SYS1 = Fraction(2 * 7 * 6, 10 * (7 + 6))  # 2PR/(P+R) with P = 7/10, R = 6/10

# The patients' example after thinning the healthy to a tenth.
_TP, _FP, _FN, _TN = 20, 5, 5, 100
_ACC = Fraction(_TP + _TN, _TP + _FP + _FN + _TN)
_PREC = Fraction(_TP, _TP + _FP)
_REC = Fraction(_TP, _TP + _FN)
_BA = (_REC + Fraction(_TN, _TN + _FP)) / 2

_MATRIX3 = ((50, 10, 0), (5, 20, 5), (0, 5, 5))
_recalls = [Fraction(r[i], sum(r)) for i, r in enumerate(_MATRIX3)]
_MACRO_RECALL = sum(_recalls) / 3
_MICRO = Fraction(sum(_MATRIX3[i][i] for i in range(3)), sum(map(sum, _MATRIX3)))
_cols = [sum(r[j] for r in _MATRIX3) for j in range(3)]
_MACRO_PREC = sum(Fraction(_MATRIX3[j][j], _cols[j]) for j in range(3)) / 3

EXERCISES = [
    value_exercise(
        id="fbeta-two-systems", chapter=1, title="Which system is better?",
        question="""
System 1 has precision $P = 0.7$ and recall $R = 0.6$; system 2 has $P = 0.8$ and
$R = 0.5$. Which one is better by the arithmetic mean of $P$ and $R$, by $F_1$, by $F_2$
and by $F_{0.5}$? Answer with a tuple of four entries, each `1`, `2` or `"tie"`, in
this order.
""",
        answer_name="better_system",
        solution_code='better_system = ("tie", 1, 1, 2)',
        solution=("tie", 1, 1, 2),
        checker=with_whole_mistakes(
            parts(mean=_pref("tie"), f1=_pref("1"), f2=_pref("1"), f05=_pref("2")),
            (("tie", "1", "2", "1"), "F_beta with beta > 1 weighs recall more, beta < 1 "
                                     "weighs precision more: F2 and F0.5 look swapped.")),
        worked="Means 0.65 and 0.65; F1 0.646 and 0.615; F2 0.618 and 0.541; F0.5 0.677 "
               "and 0.714.",
    ),
    value_exercise(
        id="f1-system1", chapter=1, title="F1 of a system",
        question="""
A system has precision $P = 0.7$ and recall $R = 0.6$. What is its $F_1$ score
(exactly)?
""",
        answer_name="f1_system1",
        solution_code="P, R = Fraction(7, 10), Fraction(6, 10)\nf1_system1 = 2 * P * R / (P + R)",
        solution=_F1_SYS1,
        checker=exact(_F1_SYS1, mistakes=[
            Mistake(Fraction(13, 20), "This is the arithmetic mean; F1 is the harmonic mean "
                                      "2PR/(P + R)."),
            Mistake(Fraction(21, 50), "This is P x R; F1 = 2PR/(P + R)."),
        ], hint="F1 is the harmonic mean of precision and recall."),
        worked="2 x 0.7 x 0.6 / 1.3 = 42/65.",
    ),
    value_exercise(
        id="thinned-patients", chapter=1, title="Thinning the healthy patients",
        question="""
A test on 1075 patients gives TP = 20, FN = 5 among the 25 ill and FP = 50, TN = 1000
among the 1050 healthy. Remove 90% of the healthy patients so that TP = 20, FN = 5,
FP = 5, TN = 100 remain. Give, exactly, the accuracy, precision, recall and balanced
accuracy after thinning, as a tuple in this order.
""",
        answer_name="thinned_metrics",
        solution_code="tp, fp, fn, tn = 20, 5, 5, 100\n"
                      "thinned_metrics = (Fraction(tp + tn, tp + fp + fn + tn),\n"
                      "                   Fraction(tp, tp + fp), Fraction(tp, tp + fn),\n"
                      "                   (Fraction(tp, tp + fn) + Fraction(tn, tn + fp)) / 2)",
        solution=(_ACC, _PREC, _REC, _BA),
        checker=parts(
            accuracy=exact(_ACC, mistakes=[Mistake(Fraction(1020, 1075), HINTS["unchanged"])]),
            precision=exact(_PREC, mistakes=[
                Mistake(Fraction(20, 70), HINTS["unchanged"])]),
            recall=exact(_REC, mistakes=[
                Mistake(Fraction(20, 25 + 5), HINTS["recall_denominator"])]),
            balanced_accuracy=exact(_BA)),
        worked="Accuracy 120/130 = 12/13, precision 20/25 = 4/5, recall 4/5 (unchanged), "
               "balanced accuracy (4/5 + 20/21)/2 = 92/105 (unchanged).",
    ),
    value_exercise(
        id="spam-flag-all", chapter=1, title="Flag every letter",
        question="""
Among a million letters, 100 are spam. A filter flags every letter as spam. Give its
recall, precision and $F_1$ exactly, as a tuple in this order.
""",
        answer_name="flag_all",
        solution_code="tp, fp, fn = 100, 999_900, 0\n"
                      "p, r = Fraction(tp, tp + fp), Fraction(tp, tp + fn)\n"
                      "flag_all = (r, p, 2 * p * r / (p + r))",
        solution=(Fraction(1), Fraction(1, 10000), Fraction(2, 10001)),
        checker=parts(
            recall=exact(1),
            precision=exact(Fraction(1, 10000), mistakes=precision_mistakes(100, 999900, 0)),
            f1=exact(Fraction(2, 10001))),
        worked="Recall 1, precision 100/1 000 000 = 1/10000 (the share of spam), "
               "F1 = 2/10001.",
    ),
    value_exercise(
        id="macro-recall-3class", chapter=1, title="Macro recall of three classes",
        question="""
A three-class confusion matrix has rows = true classes and columns = predicted
classes: $\\begin{pmatrix} 50 & 10 & 0 \\\\ 5 & 20 & 5 \\\\ 0 & 5 & 5 \\end{pmatrix}$.
What is the macro-averaged recall (exactly)?
""",
        answer_name="macro_recall",
        solution_code="m = np.array([[50, 10, 0], [5, 20, 5], [0, 5, 5]])\n"
                      "macro_recall = sum(Fraction(int(m[i, i]), int(m[i].sum())) "
                      "for i in range(3)) / 3",
        solution=_MACRO_RECALL,
        checker=exact(_MACRO_RECALL, mistakes=keep_distinct(_MACRO_RECALL, [
            Mistake(_MICRO, HINTS["micro_not_macro"]),
            Mistake(_MACRO_PREC, "This is the macro precision (columns); recall divides by "
                                 "the row sums, the true classes."),
        ])),
        worked="Recalls 50/60, 20/30, 5/10; their mean is 2/3 (the micro recall, i.e. the "
               "accuracy, would be 75/100).",
    ),
]
