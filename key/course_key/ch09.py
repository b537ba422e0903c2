"""Chapter 9 exercises: cost curves, operating ranges, normalized expected cost."""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from course_lib import normalized_expected_cost
from course_lib.exercises._core import (
    FunctionSpec,
    Mistake,
    exact,
    function_exercise,
    parts,
    value_exercise,
    with_whole_mistakes,
)

from ._hints import HINTS

_PCF = Fraction(2, 10) * 4 / (Fraction(2, 10) * 4 + Fraction(8, 10) * 1)
_NEC = (1 - Fraction(7, 10) - Fraction(15, 100)) * _PCF + Fraction(15, 100)


def _range(fpr: Fraction, tpr: Fraction) -> tuple[Fraction, Fraction]:
    return fpr / (fpr + tpr), (1 - fpr) / (2 - tpr - fpr)


def _nec_reference(fpr, tpr, pcf):
    return float(normalized_expected_cost(fpr, tpr, pcf))


def _nec_swapped(fpr, tpr, pcf):
    return _nec_reference(tpr, fpr, pcf)


def _nec_other_side(fpr, tpr, pcf):
    return _nec_reference(fpr, tpr, 1 - pcf)


def _nec_cases(seed: int) -> list[dict]:
    rng = np.random.default_rng(seed)
    cases = [{"fpr": 0.0, "tpr": 1.0, "pcf": 0.5}, {"fpr": 0.0, "tpr": 0.0, "pcf": 0.3},
             {"fpr": 1.0, "tpr": 1.0, "pcf": 0.3}, {"fpr": 0.5, "tpr": 0.5, "pcf": 1.0}]
    for _ in range(12):
        f, t, p = (float(v) for v in np.round(rng.random(3), 3))
        cases.append({"fpr": f, "tpr": t, "pcf": p})
    return cases


_R09 = _range(Fraction(3, 10), Fraction(9, 10))
_R_FLIP = _range(Fraction(8, 10), Fraction(9, 10))

EXERCISES = [
    value_exercise(
        id="pcf-value", chapter=9, title="The probability-cost function",
        question="""
Positives are 20% of the population, and a miss (a false negative) costs four times a
false alarm. What is
$\\mathrm{PCF}(+) = p(+)C(-|+) / (p(+)C(-|+) + p(-)C(+|-))$ (exactly)?
""",
        answer_name="pcf",
        solution_code="p_pos, c_miss, c_alarm = Fraction(1, 5), 4, 1\n"
                      "pcf = p_pos * c_miss / (p_pos * c_miss + (1 - p_pos) * c_alarm)",
        solution=_PCF,
        checker=exact(_PCF, mistakes=[Mistake(Fraction(1, 17), HINTS["costs_swapped"])]),
        worked="0.2 x 4 / (0.2 x 4 + 0.8 x 1) = 1/2.",
    ),
    value_exercise(
        id="nec-roc-point", chapter=9, title="The cost of a ROC point",
        question="""
At $\\mathrm{PCF}(+) = 1/2$, what is the normalized expected cost
$\\mathrm{NEC} = (1 - \\mathrm{TPR} - \\mathrm{FPR})\\,\\mathrm{PCF}(+) + \\mathrm{FPR}$ of
the ROC point $(\\mathrm{FPR}, \\mathrm{TPR}) = (0.15, 0.7)$ (exactly)?
""",
        answer_name="nec_point",
        solution_code="fpr, tpr = Fraction(15, 100), Fraction(7, 10)\n"
                      "nec_point = (1 - tpr - fpr) * Fraction(1, 2) + fpr",
        solution=_NEC,
        checker=exact(_NEC, mistakes=[
            Mistake((1 - Fraction(7, 10) - Fraction(15, 100)) / 2 + Fraction(7, 10),
                    HINTS["swapped"])]),
        worked="(1 - 0.7 - 0.15) x 0.5 + 0.15 = 0.225, less than half the 0.5 of the best "
               "trivial classifier.",
    ),
    value_exercise(
        id="operating-range", chapter=9, title="An operating range",
        question="""
A classifier is useful where its cost line lies below both trivial classifiers'. For the
ROC point $(\\mathrm{FPR}, \\mathrm{TPR}) = (0.3, 0.9)$ this is the range of
$\\mathrm{PCF}(+)$ from $\\mathrm{FPR}/(\\mathrm{FPR} + \\mathrm{TPR})$ to
$(1 - \\mathrm{FPR})/(2 - \\mathrm{TPR} - \\mathrm{FPR})$. Give the two ends exactly, as
a tuple (from, to).
""",
        answer_name="operating_range",
        solution_code="fpr, tpr = Fraction(3, 10), Fraction(9, 10)\n"
                      "operating_range = (fpr / (fpr + tpr), (1 - fpr) / (2 - tpr - fpr))",
        solution=_R09,
        checker=with_whole_mistakes(
            parts(low=exact(_R09[0]), high=exact(_R09[1])),
            ((_R09[1], _R09[0]), "The ends are swapped: the range runs from the smaller."),
            (_range(Fraction(9, 10), Fraction(3, 10)), HINTS["swapped"])),
        worked="From 0.3/1.2 = 1/4 to 0.7/0.8 = 7/8.",
    ),
    value_exercise(
        id="operating-range-reversed", chapter=9, title="Below the diagonal",
        question="""
The ROC point $(0.2, 0.1)$ lies under the diagonal, so its operating range is empty.
The classifier that always gives the opposite answer has the ROC point
$(1 - \\mathrm{FPR}, 1 - \\mathrm{TPR})$. What is *its* operating range (exact ends, as a
tuple (from, to))?
""",
        answer_name="flipped_range",
        solution_code="fpr, tpr = 1 - Fraction(2, 10), 1 - Fraction(1, 10)\n"
                      "flipped_range = (fpr / (fpr + tpr), (1 - fpr) / (2 - tpr - fpr))",
        solution=_R_FLIP,
        checker=with_whole_mistakes(
            parts(low=exact(_R_FLIP[0]), high=exact(_R_FLIP[1])),
            (_range(Fraction(2, 10), Fraction(1, 10)),
             "That is the range of the original point, which is empty (from > to); reverse "
             "the answers first: (0.8, 0.9)."),
            (_range(Fraction(9, 10), Fraction(8, 10)), HINTS["swapped"])),
        worked="The reversed point is (0.8, 0.9): from 0.8/1.7 = 8/17 to 0.2/0.3 = 2/3.",
    ),
    function_exercise(
        id="nec-function", chapter=9, title="Write the normalized expected cost",
        question="""
Write `nec(fpr, tpr, pcf)`: the normalized expected cost (a float) of the ROC point
$(\\mathrm{FPR}, \\mathrm{TPR})$ at the operating condition $\\mathrm{PCF}(+)$ = `pcf`.
""",
        answer_name="nec",
        solution_code='''
def nec(fpr, tpr, pcf):
    return (1 - tpr - fpr) * pcf + fpr
''',
        spec=FunctionSpec(
            reference=_nec_reference, cases=_nec_cases,
            wrong_versions=((_nec_swapped, HINTS["swapped"]),
                            (_nec_other_side, "PCF(+) multiplies the miss rate 1 - TPR; "
                                              "the false alarms get 1 - PCF(+).")),
            signature="fpr, tpr, pcf"),
        worked="NEC = (1 - TPR) PCF(+) + FPR (1 - PCF(+)), the same as "
               "(1 - TPR - FPR) PCF(+) + FPR.",
    ),
]
