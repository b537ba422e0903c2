"""Chapter 11 exercises: sampling, the spread of the AUC, paired tests."""

from __future__ import annotations

import math
from fractions import Fraction

import sympy

from course_lib.exercises._core import (
    FunctionSpec,
    Mistake,
    approx,
    function_exercise,
    judge_number_list,
    value_exercise,
    yes_no,
)

from ._cases import uniform_cases

_t = sympy.Symbol("t")
_A = sympy.Rational(5, 6)
_Q1 = sympy.integrate((2 - 2 * _t) * (1 - _t**2) ** 2, (_t, 0, 1))
_Q2 = sympy.integrate(2 * _t * (1 - (1 - _t) ** 2) ** 2, (_t, 0, 1))


def auc_variance(m1: int, m0: int) -> Fraction:
    """Hanley and McNeil's variance of the empirical AUC, exact for the linear model."""
    v = (_A * (1 - _A) + (m1 - 1) * (_Q1 - _A**2) + (m0 - 1) * (_Q2 - _A**2)) / (m1 * m0)
    return Fraction(int(v.p), int(v.q))


_SD300 = math.sqrt(auc_variance(150, 150))
_QA, _QB = _A / (2 - _A), 2 * _A**2 / (1 + _A)
_SD300_APPROX = math.sqrt(float((_A * (1 - _A) + 149 * (_QA - _A**2) + 149 * (_QB - _A**2))
                                / 22500))
_N_001 = next(n for n in range(2, 100000, 2) if auc_variance(n // 2, n // 2) <= Fraction(1, 10**4))


def _sample_positive(u):
    return [math.sqrt(v) for v in u]


EXERCISES = [
    value_exercise(
        id="sd-of-difference", chapter=11, title="Two models on two test sets",
        question="""
Each of two models was scored on its own test set of 300 objects, and each empirical
AUC has a standard deviation of 0.023. What is the standard deviation of the difference
of the two (independent) AUC estimates? (A float, within $10^{-4}$.)
""",
        answer_name="sd_difference",
        solution_code="sd_difference = math.sqrt(2) * 0.023",
        solution=math.sqrt(2) * 0.023,
        checker=approx(math.sqrt(2) * 0.023, 1e-4, mistakes=[
            Mistake(0.046, "Standard deviations do not add; variances of independent "
                           "estimates do: sqrt(0.023^2 + 0.023^2)."),
            Mistake(0.023, "The difference of two noisy estimates is noisier than either."),
            Mistake(2 * 0.023**2, "This is the variance; take its square root."),
        ]),
        worked="sqrt(2) x 0.023 = 0.0325: a difference of 0.02 is only 0.6 of it, not "
               "convincing.",
    ),
    value_exercise(
        id="auc-sd-300", chapter=11, title="The spread of the AUC at 300 objects",
        question="""
In the linear-density model ($p_1(b) = 2b$, $p_0(b) = 2 - 2b$ on $[0, 1]$, AUC $= 5/6$),
Hanley and McNeil's variance of the empirical AUC is
$\\frac{A(1-A) + (m_1 - 1)(Q_1 - A^2) + (m_0 - 1)(Q_2 - A^2)}{m_1 m_0}$, with
$Q_1$ the probability that two random positives both outscore a random negative and
$Q_2$ that a random positive outscores two random negatives. Compute $Q_1$ and $Q_2$
exactly from the model and give the standard deviation for $m_1 = m_0 = 150$ (a float,
within $10^{-6}$).
""",
        answer_name="sd_300",
        solution_code='t = sympy.Symbol("t")\n'
                      "A = sympy.Rational(5, 6)\n"
                      "Q1 = sympy.integrate((2 - 2 * t) * (1 - t**2)**2, (t, 0, 1))\n"
                      "Q2 = sympy.integrate(2 * t * (1 - (1 - t)**2)**2, (t, 0, 1))\n"
                      "m1 = m0 = 150\n"
                      "var = (A * (1 - A) + (m1 - 1) * (Q1 - A**2)\n"
                      "       + (m0 - 1) * (Q2 - A**2)) / (m1 * m0)\n"
                      "sd_300 = float(sympy.sqrt(var))",
        solution=_SD300,
        checker=approx(_SD300, 1e-6, mistakes=[
            Mistake(_SD300_APPROX, "This uses Hanley and McNeil's exponential approximations "
                                   "Q1 = A/(2 - A), Q2 = 2A^2/(1 + A); compute Q1 and Q2 "
                                   "exactly from the densities."),
            Mistake(_SD300**2, "This is the variance; take its square root."),
        ]),
        worked="Q1 = Q2 = 11/15, variance 2111/4050000, standard deviation about 0.0228.",
    ),
    value_exercise(
        id="n-for-sd-001", chapter=11, title="How many objects for a precise AUC",
        question="""
With the variance formula of the previous exercise (linear-density model,
$Q_1 = Q_2 = 11/15$, $A = 5/6$), what is the smallest even number of objects $n$, half
of them positive, for which the standard deviation of the AUC is at most 0.01? (An
integer; within 2 is accepted.)
""",
        answer_name="n_for_sd",
        solution_code="A, Q = Fraction(5, 6), Fraction(11, 15)\n"
                      "def variance(m):\n"
                      "    return (A * (1 - A) + 2 * (m - 1) * (Q - A**2)) / (m * m)\n"
                      "n_for_sd = next(n for n in range(2, 100_000, 2)\n"
                      "                if variance(n // 2) <= Fraction(1, 10**4))",
        solution=_N_001,
        checker=approx(_N_001, 2.5 / _N_001, mistakes=[
            Mistake(_N_001 // 2, "n counts both classes: m1 = m0 = n/2."),
        ], hint="The variance falls like 1/n: solve variance <= 0.01^2."),
        worked="The variance falls like 1/n; solving gives n = 1558.",
    ),
    value_exercise(
        id="overlapping-intervals", chapter=11, title="Overlapping intervals",
        question="""
Two scores of the same 113 patients have overlapping 95% confidence intervals for the
AUC. May we conclude that their AUCs do not differ significantly? Answer `True` or
`False`.
""",
        answer_name="overlap_means_equal",
        solution_code="overlap_means_equal = False",
        solution=False,
        checker=yes_no(False, hint="The two estimates are correlated (same patients): only "
                                   "a paired test, such as DeLong's, answers this."),
        worked="No: on the same patients the estimates are correlated; the paired DeLong "
               "test can find a significant difference although the intervals overlap.",
    ),
    function_exercise(
        id="inverse-cdf-positive", chapter=11, title="Sampling scores by the inverse CDF",
        question="""
In the linear-density model the positives' scores have density $p_1(b) = 2b$ on
$[0, 1]$. Write `sample_positive(u)`: given a list `u` of numbers in $[0, 1]$ (uniform
random numbers), return the list of scores $F_1^{-1}(u)$, where $F_1$ is the
positives' distribution function.
""",
        answer_name="sample_positive",
        solution_code='''
def sample_positive(u):
    return [math.sqrt(v) for v in u]
''',
        spec=FunctionSpec(
            reference=_sample_positive, cases=uniform_cases, judge=judge_number_list,
            wrong_versions=(
                (lambda u: [1 - math.sqrt(1 - v) for v in u],
                 "This is the negatives' inverse CDF (density 2 - 2b); the positives have "
                 "F1(b) = b^2."),
                (lambda u: [v * v for v in u],
                 "This applies F1 itself; sampling needs its inverse, sqrt(u)."),
            ),
            signature="u"),
        worked="F1(b) = b^2, so F1^-1(u) = sqrt(u).",
    ),
]
