"""Chapter 8 exercises: gain, lift and KS curves, decile tables and profit."""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from course_lib import ks_statistic
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
from ._hints import HINTS, keep_distinct, ks_over_rate
from .ch03 import TABLE1_B, TABLE1_TEXT, TABLE1_Y

_KS = Fraction(ks_statistic(TABLE1_Y, TABLE1_B)).limit_denominator(1000)
_KS_RATE = Fraction(ks_over_rate(TABLE1_Y, TABLE1_B)).limit_denominator(1000)

_RESPONDERS = (30, 18, 12, 9, 7, 6, 5, 4, 3, 2)


def _profit(depth: int, revenue: int = 15, cost: int = 1) -> int:
    return revenue * sum(_RESPONDERS[:depth]) - cost * 100 * depth


_BEST_DEPTH = max(range(1, 11), key=_profit)


@quiet
def _ks_reference(y_true, y_score):
    return float(ks_statistic(y_true, y_score))


def _ks_rate(y_true, y_score):
    if len(set(y_true)) < 2:
        return float("nan")
    return ks_over_rate(y_true, y_score)


def _ks_reversed(y_true, y_score):
    if len(set(y_true)) < 2:
        return float("nan")
    return float(ks_statistic(y_true, [-v for v in y_score]))


def _ks_split_ties(y_true, y_score):
    y = np.asarray(y_true, dtype=bool)
    if y.all() or not y.any():
        return float("nan")
    order = np.argsort(-np.asarray(y_score, dtype=float), kind="stable")
    ys = y[order]
    gap = np.cumsum(ys) / ys.sum() - np.cumsum(~ys) / (~ys).sum()
    return float(max(0.0, gap.max()))


EXERCISES = [
    value_exercise(
        id="auc-from-gain-area", chapter=8, title="From the gain curve's area to the AUC",
        question="""
A model's gain curve (TPR against the share of objects selected from the top) has area
0.6 on a sample with 100 positives and 900 negatives. The area under the gain curve is
$(m_0\\,\\mathrm{AUC} + m_1/2)/(m_0 + m_1)$. What is the ROC AUC (exactly)?
""",
        answer_name="auc_from_gain",
        solution_code="m1, m0, area = 100, 900, Fraction(6, 10)\n"
                      "auc_from_gain = (area * (m0 + m1) - Fraction(m1, 2)) / m0",
        solution=Fraction(11, 18),
        checker=exact(Fraction(11, 18), mistakes=[
            Mistake(Fraction(3, 5), "The gain curve's area is not the ROC AUC; solve the "
                                    "formula for the AUC."),
            Mistake(Fraction(3, 2), "m0 and m1 are swapped: m1 = 100 positives."),
        ]),
        worked="0.6 = (900 AUC + 50)/1000, so AUC = 550/900 = 11/18, about 0.611.",
    ),
    value_exercise(
        id="ks-table1", chapter=8, title="The KS statistic of Table 1",
        question=f"""
{TABLE1_TEXT}
What is the KS statistic $\\max_\\theta (\\mathrm{{TPR}}(\\theta) - \\mathrm{{FPR}}(\\theta))$,
with "positive when $b \\ge \\theta$"? (Exact.)
""",
        answer_name="ks_table1",
        solution_code="ks_table1 = Fraction(cl.ks_statistic([0, 0, 0, 1, 1, 1, 0],\n"
                      "                                     [0.5, 0.1, 0.2, 0.6, 0.2, 0.3, "
                      "0.0]))",
        solution=_KS,
        checker=exact(_KS, mistakes=keep_distinct(_KS, [
            Mistake(_KS_RATE, HINTS["ks_wrong_axis"]),
            Mistake(Fraction(5, 12), HINTS["ties_split"] + " Here the best threshold is "
                                     "the tie at 0.2."),
        ])),
        worked="At theta = 0.2: TPR = 1, FPR = 2/4, so KS = 1/2 (at 0.3 only 2/3 - 1/4).",
    ),
    value_exercise(
        id="ideal-top-decile-lift", chapter=8, title="The largest lift of the top decile",
        question="""
A campaign has 1000 customers, of whom 60 respond. What is the largest lift the top
decile (the 100 customers with the highest scores) can have, over all rankings?
""",
        answer_name="max_lift",
        solution_code="max_lift = Fraction(60, 60) / Fraction(100, 1000)",
        solution=10,
        checker=exact(10, mistakes=[
            Mistake(Fraction(1000, 60), "1/pi would need the top decile to hold only "
                                        "responders, but it holds 100 customers and there "
                                        "are only 60 responders: at most TPR = 1 at 10%."),
            Mistake(Fraction(60, 100), "This is the top decile's response rate; lift divides "
                                       "TPR by the share selected."),
        ]),
        worked="All 60 responders in the top decile: TPR = 1 at 10% of the customers, lift "
               "1/0.1 = 10.",
    ),
    value_exercise(
        id="campaign-deciles", chapter=8, title="How many deciles to call",
        question=f"""
A campaign ranks 1000 customers and splits them into deciles of 100; the deciles hold
{", ".join(map(str, _RESPONDERS))} responders, from the top. A contact costs 1 and a
response brings 15. How many deciles (from the top) should be called to maximize the
profit, and what is that profit? Answer a tuple (deciles, profit).
""",
        answer_name="campaign",
        solution_code="responders = [30, 18, 12, 9, 7, 6, 5, 4, 3, 2]\n"
                      "profits = [15 * sum(responders[:d]) - 100 * d for d in range(1, 11)]\n"
                      "campaign = (int(np.argmax(profits)) + 1, max(profits))",
        solution=(_BEST_DEPTH, _profit(_BEST_DEPTH)),
        checker=with_whole_mistakes(
            parts(deciles=exact(_BEST_DEPTH), profit=exact(_profit(_BEST_DEPTH))),
            ((_BEST_DEPTH + 1, _profit(_BEST_DEPTH + 1)),
             "A decile pays when its response rate exceeds cost/revenue = 1/15; the next "
             "decile's 6% is below that."),
            ((10, _profit(10)), "Calling everybody does not maximize the profit: stop "
                                "when a decile's response rate falls below cost/revenue.")),
        worked="A decile pays when its responders exceed 100/15 = 6.7: the first five do "
               "(7 > 6.7, then 6 < 6.7); profit 15 x 76 - 500 = 640.",
    ),
    function_exercise(
        id="ks-statistic-function", chapter=8, title="Write the KS statistic",
        question="""
Write `ks_statistic(y_true, y_score)`: the largest $\\mathrm{TPR} - \\mathrm{FPR}$ over
all thresholds "positive when score $\\ge \\theta$" (including selecting nothing, which
gives 0), a float; a group of tied scores is selected whole. Return `float("nan")` when
a class is missing.
""",
        answer_name="ks_answer",
        solution_code='''
def ks_answer(y_true, y_score):
    y = np.asarray(y_true, dtype=bool)
    b = np.asarray(y_score, dtype=float)
    if y.all() or not y.any():
        return float("nan")
    best = 0.0
    for t in np.unique(b):
        called = b >= t
        best = max(best, called[y].mean() - called[~y].mean())
    return float(best)
''',
        spec=FunctionSpec(
            reference=_ks_reference, cases=_cases.binary_cases,
            wrong_versions=(
                (_ks_rate, HINTS["ks_wrong_axis"]),
                (_ks_reversed, HINTS["ks_sign"]),
                (_ks_split_ties, HINTS["ties_split"]),
            ),
            signature="y_true, y_score"),
        worked="Try every distinct score as a threshold (groups of ties whole) and keep the "
               "largest TPR - FPR.",
    ),
]
