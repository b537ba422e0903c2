"""Chapter 10 exercises: closed forms on the linear-density model."""

from __future__ import annotations

from fractions import Fraction

import sympy

from course_lib.exercises._core import (
    Mistake,
    exact,
    parts,
    sympy_checker,
    value_exercise,
    with_whole_mistakes,
)
from course_lib.models import LINEAR_DENSITIES, ScoreModel

from ._hints import HINTS

_T = sympy.Symbol("theta", real=True)
_MODEL = LINEAR_DENSITIES
_BEST = _MODEL.best_accuracy(sympy.Rational(1, 10))
_SWAPPED = ScoreModel(2 * _MODEL.symbol, 2 - 2 * _MODEL.symbol)


def _fr(x) -> Fraction:
    x = sympy.nsimplify(x)
    return Fraction(int(x.p), int(x.q))


_MODEL_TEXT = ("In the linear-density model the scores lie in $[0, 1]$ with densities "
               "$p_1(b) = 2b$ for positives and $p_0(b) = 2 - 2b$ for negatives; the rule "
               "calls an object positive when $b \\ge \\theta$.")

EXERCISES = [
    value_exercise(
        id="linear-tpr-formula", chapter=10, title="TPR as a formula",
        question=f"""
{_MODEL_TEXT}
Give $\\mathrm{{TPR}}(\\theta)$ for $0 \\le \\theta \\le 1$ as a sympy expression in the
symbol `theta` (or a string such as `"1 - theta**2"`).
""",
        answer_name="tpr_formula",
        solution_code='theta = sympy.Symbol("theta", real=True)\n'
                      "tpr_formula = sympy.integrate(2 * theta, (theta, theta, 1))",
        solution=_MODEL.tpr(),
        checker=sympy_checker(1 - _T**2, _T, mistakes=[
            Mistake((1 - _T) ** 2, HINTS["swapped"] + " (1 - theta)^2 is the FPR."),
            Mistake(_T**2, "theta^2 is the share of positives *below* the threshold (the "
                           "CDF); TPR is the share at or above it."),
        ], hint="TPR(theta) is the integral of p1 from theta to 1."),
        worked="The integral of 2b from theta to 1: 1 - theta^2.",
    ),
    value_exercise(
        id="uniform-auc-pr", chapter=10, title="Scores that ignore the class",
        question="""
Scores that ignore the class have $p_0 = p_1 = 1$ on $[0, 1]$. What are their ROC AUC
and their area under the PR curve when positives are a share $\\pi = 0.1$ of the
population? Answer a tuple (AUC, AUC_PR), exactly.
""",
        answer_name="uniform_areas",
        solution_code="uniform_areas = (Fraction(1, 2), Fraction(1, 10))",
        solution=(Fraction(1, 2), Fraction(1, 10)),
        checker=parts(auc=exact(Fraction(1, 2)), auc_pr=exact(Fraction(1, 10), mistakes=[
            Mistake(Fraction(1, 2), "That is the ROC AUC; the precision of such scores is "
                                    "the share of positives at every threshold.")])),
        worked="The ROC curve is the diagonal (1/2) and the precision is pi everywhere, so "
               "AUC_PR = 0.1.",
    ),
    value_exercise(
        id="best-accuracy-rare", chapter=10, title="The best accuracy with rare positives",
        question=f"""
{_MODEL_TEXT}
Positives are a share $\\pi = 0.1$ of the population. Which threshold maximizes the
accuracy, and what is the best accuracy? Answer a tuple (threshold, accuracy), exactly.
""",
        answer_name="best_rare",
        solution_code="best = cl.LINEAR_DENSITIES.best_accuracy(sympy.Rational(1, 10))\n"
                      "best_rare = (best.threshold, best.value)",
        solution=(_BEST.threshold, _BEST.value),
        checker=with_whole_mistakes(
            parts(threshold=exact(_fr(_BEST.threshold)), accuracy=exact(_fr(_BEST.value))),
            ((Fraction(1, 2), Fraction(1, 10) * Fraction(3, 4) + Fraction(9, 10) *
              Fraction(3, 4)),
             "The densities cross at 1/2, but with pi = 0.1 the optimum is where "
             "pi p1(theta) = (1 - pi) p0(theta).")),
        worked="0.1 x 2 theta = 0.9 x (2 - 2 theta) gives theta = 9/10, accuracy "
               "0.1 x 0.19 + 0.9 x 0.99 = 91/100, barely above the 9/10 of answering 0 to "
               "everybody.",
    ),
    value_exercise(
        id="swapped-densities", chapter=10, title="Swapped densities",
        question="""
Swap the densities of the linear model: $p_0(b) = 2b$, $p_1(b) = 2 - 2b$. What are the
ROC AUC and the Gini coefficient now? Answer a tuple (AUC, Gini), exactly.
""",
        answer_name="swapped_model",
        solution_code="b = sympy.Symbol('b')\n"
                      "swapped = cl.ScoreModel(2 * b, 2 - 2 * b)\n"
                      "swapped_model = (swapped.auc(), swapped.gini())",
        solution=(_SWAPPED.auc(), _SWAPPED.gini()),
        checker=parts(
            auc=exact(Fraction(1, 6), mistakes=[
                Mistake(Fraction(5, 6), "Swapping the densities reverses the order: the AUC "
                                        "becomes 1 - AUC.")]),
            gini=exact(Fraction(-2, 3), mistakes=[
                Mistake(Fraction(5, 6), HINTS["gini_one_minus_auc"]),
                Mistake(Fraction(1, 6), HINTS["auc_not_gini"]),
                Mistake(Fraction(2, 3), "Gini = 2 AUC - 1 is negative when AUC < 1/2.")])),
        worked="AUC = 1 - 5/6 = 1/6 and Gini = 2/6 - 1 = -2/3.",
    ),
    value_exercise(
        id="linear-ks", chapter=10, title="The KS distance of the linear model",
        question=f"""
{_MODEL_TEXT}
What is the KS distance $\\max_\\theta(\\mathrm{{TPR}} - \\mathrm{{FPR}})$, and at which
threshold is it reached? Answer a tuple (KS, threshold), exactly.
""",
        answer_name="linear_ks",
        solution_code="ks = cl.LINEAR_DENSITIES.ks()\nlinear_ks = (ks.value, ks.threshold)",
        solution=(_MODEL.ks().value, _MODEL.ks().threshold),
        checker=parts(ks=exact(Fraction(1, 2)), threshold=exact(Fraction(1, 2))),
        worked="TPR - FPR = (1 - theta^2) - (1 - theta)^2 = 2 theta (1 - theta), largest "
               "at theta = 1/2 with value 1/2.",
    ),
]
