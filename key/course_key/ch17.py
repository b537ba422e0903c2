"""Chapter 17 exercises: the partial AUC and the H-measure."""

from __future__ import annotations

from fractions import Fraction

from course_lib.exercises._core import Mistake, exact, value_exercise

from ._hints import HINTS

# Table 1: the curve holds TPR 1/3 on FPR [0, 1/4], then the tie (3, 5) is the diagonal
# segment (1/4, 2/3) -> (1/2, 1): 1/12 + 1/4 (2/3 + 1) / 2 = 7/24.
_PAUC_HALF = Fraction(1, 12) + Fraction(1, 4) * (Fraction(2, 3) + 1) / 2
_MIN_HALF, _MAX_HALF = Fraction(1, 8), Fraction(1, 2)
_MCCLISH_HALF = (1 + (_PAUC_HALF - _MIN_HALF) / (_MAX_HALF - _MIN_HALF)) / 2

# One ROC point (0.2, 0.8), balanced classes, Beta(2, 2) density 6c(1 - c):
# L(c) = c/2 below c = 1/5, 1/10 between 1/5 and 4/5, (1 - c)/2 above.
_P_LOW = 3 * Fraction(1, 5) ** 2 - 2 * Fraction(1, 5) ** 3  # P(c < 1/5)
_LOSS_LOW = Fraction(1, 5) ** 3 - Fraction(3, 4) * Fraction(1, 5) ** 4  # int_0^{1/5} 3c^2(1-c)
_EXPECTED = 2 * _LOSS_LOW + Fraction(1, 10) * (1 - 2 * _P_LOW)
_WORST = 2 * (Fraction(1, 2) ** 3 - Fraction(3, 4) * Fraction(1, 2) ** 4)
_H_POINT = 1 - _EXPECTED / _WORST
# the same with a uniform density (a typical slip: Beta(1, 1) instead of Beta(2, 2))
_H_UNIFORM = 1 - (2 * Fraction(1, 100) + Fraction(1, 10) * Fraction(3, 5)) / Fraction(1, 8)

# Table 1 at c = pi1 = 3/7: c pi0 = (1 - c) pi1 = 12/49, so L = 12/49 min(FPR + 1 - TPR)
_L_AT_PI1 = Fraction(12, 49) * (1 - Fraction(1, 2))


EXERCISES = [
    value_exercise(
        id="pauc-table1-half", chapter=17, title="A partial area of Table 1",
        question="""
Table 1 of the book: labels `y = [0, 0, 0, 1, 1, 1, 0]`, scores
`b = [0.5, 0.1, 0.2, 0.6, 0.2, 0.3, 0.0]`. What is the area under its ROC curve over
false positive rates from 0 to 1/2 (exactly; ties as a straight segment)?
""",
        answer_name="pauc_half",
        solution_code='y = [0, 0, 0, 1, 1, 1, 0]\nb = [0.5, 0.1, 0.2, 0.6, 0.2, 0.3, 0.0]\n'
                      'pauc_half = cl.partial_roc_auc(y, b, max_fpr=Fraction(1, 2), '
                      'exact=True)',
        solution=_PAUC_HALF,
        checker=exact(_PAUC_HALF, mistakes=[
            Mistake(Fraction(19, 24), "That is the whole AUC; stop at FPR = 1/2."),
            Mistake(Fraction(1, 12) + Fraction(1, 4) * Fraction(2, 3), HINTS["ties_zero"]),
            Mistake(Fraction(1, 12) + Fraction(1, 4), HINTS["ties_one"]),
        ]),
        worked="TPR is 1/3 up to FPR 1/4 (area 1/12), then the tie runs straight from "
               "(1/4, 2/3) to (1/2, 1) (area 1/4 x 5/6 = 5/24): 7/24.",
    ),
    value_exercise(
        id="mcclish-table1-half", chapter=17, title="McClish's standardization",
        question="""
Standardize the partial area of the previous exercise (Table 1, FPR from 0 to 1/2) by
McClish's formula $\\frac12\\left(1 + \\frac{A - \\min}{\\max - \\min}\\right)$. Give the
exact value.
""",
        answer_name="mcclish_half",
        solution_code='y = [0, 0, 0, 1, 1, 1, 0]\nb = [0.5, 0.1, 0.2, 0.6, 0.2, 0.3, 0.0]\n'
                      'lo, hi = Fraction(0), Fraction(1, 2)\n'
                      'area = cl.partial_roc_auc(y, b, fpr_range=(lo, hi), exact=True)\n'
                      'smallest = (hi**2 - lo**2) / 2  # under the diagonal\n'
                      'largest = hi - lo  # the whole strip\n'
                      'mcclish_half = (1 + (area - smallest) / (largest - smallest)) / 2',
        solution=_MCCLISH_HALF,
        checker=exact(_MCCLISH_HALF, mistakes=[
            Mistake((_PAUC_HALF - _MIN_HALF) / (_MAX_HALF - _MIN_HALF),
                    "That is (A - min)/(max - min), which maps chance to 0; McClish's "
                    "index maps it to 1/2: take (1 + that) / 2."),
            Mistake(_PAUC_HALF / _MAX_HALF, "Dividing by the width alone maps chance to "
                                            "1/4 here, not 1/2: subtract the area under "
                                            "the diagonal, 1/8."),
            Mistake((1 + (_PAUC_HALF - Fraction(1, 4)) / (_MAX_HALF - Fraction(1, 4))) / 2,
                    "The diagonal's area over FPR 0 to 1/2 is the triangle 1/8, not "
                    "1/4."),
        ]),
        worked="min = 1/8 (the triangle under the diagonal), max = 1/2 (the strip): "
               "(1 + (7/24 - 3/24) / (3/8)) / 2 = (1 + 4/9) / 2 = 13/18.",
    ),
    value_exercise(
        id="h-one-point", chapter=17, title="The H-measure of one ROC point",
        question="""
A classifier with a single operating point $(\\mathrm{FPR}, \\mathrm{TPR}) = (0.2, 0.8)$
(its ROC hull is $(0, 0) \\to (0.2, 0.8) \\to (1, 1)$) is used on balanced classes,
$\\pi_0 = \\pi_1 = 1/2$. With Hand's Beta(2, 2) density $6c(1 - c)$ over the cost $c$,
what is its H-measure (exactly)?
""",
        answer_name="h_point",
        solution_code='c = sympy.Symbol("c")\n'
                      'w = 6 * c * (1 - c)  # Beta(2, 2)\n'
                      'low, high = sympy.Rational(1, 5), sympy.Rational(4, 5)\n'
                      'half = sympy.Rational(1, 2)\n'
                      '# L(c): the best of (0, 0), (0.2, 0.8), (1, 1)\n'
                      'expected = (sympy.integrate(c / 2 * w, (c, 0, low))\n'
                      '            + sympy.integrate(w / 10, (c, low, high))\n'
                      '            + sympy.integrate((1 - c) / 2 * w, (c, high, 1)))\n'
                      'worst = (sympy.integrate(c / 2 * w, (c, 0, half))\n'
                      '         + sympy.integrate((1 - c) / 2 * w, (c, half, 1)))\n'
                      'h_point = 1 - expected / worst',
        solution=_H_POINT,
        checker=exact(_H_POINT, mistakes=[
            Mistake(_H_UNIFORM, "That is the uniform density; Hand's Beta(2, 2) is "
                                "6c(1 - c)."),
            Mistake(_EXPECTED, "That is the expected minimum loss E[L]; H compares it with "
                               "the trivial rules' loss: 1 - E[L] / E[L_max]."),
            Mistake(1 - Fraction(1, 10) / Fraction(1, 4), "That is the comparison at "
                    "c = 1/2 only; average both losses over the density."),
        ]),
        worked="L(c) = c/2 for c < 1/5, 1/10 between 1/5 and 4/5, (1 - c)/2 above; "
               "E[L] = 58/625 and the trivial rules lose 5/32 on average: "
               "H = 1 - (58/625)/(5/32) = 1269/3125.",
    ),
    value_exercise(
        id="severity-ratio-beta", chapter=17, title="The R package's default Beta",
        question="""
The R package hmeasure uses the cost density Beta$(2, 1 + 1/\\mathrm{SR})$ with the
severity ratio $\\mathrm{SR} = \\pi_1/\\pi_0$ by default. For positives making up
$\\pi_1 = 0.2$ of the data, what is the second Beta parameter?
""",
        answer_name="beta_default",
        solution_code='pi1 = Fraction(1, 5)\nseverity_ratio = pi1 / (1 - pi1)\n'
                      'beta_default = 1 + 1 / severity_ratio',
        solution=Fraction(5),
        checker=exact(5, mistakes=[
            Mistake(Fraction(5, 4), "SR is pi1 / pi0 = 1/4, so 1/SR = 4 and "
                                    "beta = 1 + 4."),
            Mistake(Fraction(4), "beta = 1 + 1/SR: add the 1."),
            Mistake(Fraction(2), "Beta(2, 2) is the symmetric case, SR = 1."),
        ]),
        worked="SR = 0.2 / 0.8 = 1/4, beta = 1 + 4 = 5: Beta(2, 5), whose mode "
               "(2 - 1)/(2 + 5 - 2) = 1/5 is the positive share.",
    ),
    value_exercise(
        id="min-loss-at-pi1", chapter=17, title="The minimum loss at c = pi1",
        question="""
Table 1 of the book ($\\pi_1 = 3/7$). What is the minimum loss
$L(c) = \\min_t\\, c\\,\\pi_0\\,\\mathrm{FPR}(t) + (1 - c)\\,\\pi_1\\,(1 - \\mathrm{TPR}(t))$
at $c = \\pi_1$, exactly? (Hint: at this cost both terms have the same weight.)
""",
        answer_name="loss_at_pi1",
        solution_code='pi1 = Fraction(3, 7)\npi0 = 1 - pi1\n'
                      'points = [(0, 0), (0, Fraction(1, 3)), (Fraction(1, 4), Fraction(1, 3)),\n'
                      '          (Fraction(1, 4), Fraction(2, 3)), (Fraction(1, 2), 1),\n'
                      '          (Fraction(3, 4), 1), (1, 1)]  # the ROC vertices\n'
                      'loss_at_pi1 = min(pi1 * pi0 * f + (1 - pi1) * pi1 * (1 - t)\n'
                      '                  for f, t in points)',
        solution=_L_AT_PI1,
        checker=exact(_L_AT_PI1, mistakes=[
            Mistake(2 * _L_AT_PI1, "The R package reports twice this (its MWL); "
                                   "the loss itself is c pi0 FPR + (1 - c) pi1 FNR."),
            Mistake(Fraction(1, 2), "1/2 is the KS distance; the loss is "
                                    "pi0 pi1 (1 - KS) at c = pi1."),
            Mistake(Fraction(12, 49), "That is the loss of a trivial rule; the best "
                                      "threshold does better."),
        ]),
        worked="At c = pi1 both weights are pi0 pi1 = 12/49, so L = 12/49 min(FPR + 1 - "
               "TPR) = 12/49 (1 - KS) = 12/49 x 1/2 = 6/49: the KS distance is "
               "1 - L(pi1) / (pi0 pi1).",
    ),
]
