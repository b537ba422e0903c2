"""Chapter 5 exercises: the Lorenz curve and the Gini coefficient of incomes."""

from __future__ import annotations

from fractions import Fraction

from course_lib import gini_brown
from course_lib.exercises._core import FunctionSpec, Mistake, exact, function_exercise, parts, value_exercise

from . import _cases
from ._hints import HINTS, gini_brown_rectangles, keep_distinct

_INC = (0, 10, 20, 30, 40)
_G = gini_brown(list(_INC), exact=True)
_V = (10, 20, 30, 40, 100)
_GV = gini_brown(list(_V), exact=True)
_GV10 = gini_brown([v + 10 for v in _V], exact=True)


def _gini_reference(incomes):
    return float(gini_brown(incomes))


def _gini_rectangles(incomes):
    return float(gini_brown_rectangles(incomes))


def _gini_half(incomes):
    return float(gini_brown(incomes)) / 2


def _gini_unsorted(incomes):
    n, total = len(incomes), sum(incomes)
    y_prev, area, cum = 0.0, 0.0, 0.0
    for v in incomes:
        cum += v
        area += (y_prev + cum / total) / n
        y_prev = cum / total
    return 1 - area


def _gini_descending(incomes):
    return _gini_unsorted(sorted(incomes, reverse=True))


EXERCISES = [
    value_exercise(
        id="gini-max-ten", chapter=5, title="The most unequal village of ten",
        question="""
What is the largest Gini coefficient (Brown's formula, twice the area between the
diagonal and the Lorenz curve) that ten people's non-negative incomes can have? (Exact.)
""",
        answer_name="gini_max10",
        solution_code="gini_max10 = cl.gini_brown([0] * 9 + [1], exact=True)",
        solution=Fraction(9, 10),
        checker=exact(Fraction(9, 10), mistakes=[
            Mistake(1, "For n people the Gini coefficient is at most 1 - 1/n: the Lorenz "
                       "curve's last piece is a straight line over the last person."),
            Mistake(Fraction(9, 20), "This is the area between the diagonal and the curve; "
                                     "the Gini coefficient is twice that area."),
        ]),
        worked="One person holds everything: 1 - 1/10 = 9/10.",
    ),
    value_exercise(
        id="gini-brown-incomes", chapter=5, title="Brown's formula",
        question="""
Five people earn 0, 10, 20, 30 and 40. What is their Gini coefficient by Brown's
formula $G = 1 - \\sum_k (X_k - X_{k-1})(Y_k + Y_{k-1})$ over the vertices of the
Lorenz curve? (Exact.)
""",
        answer_name="gini_five",
        solution_code="gini_five = cl.gini_brown([0, 10, 20, 30, 40], exact=True)",
        solution=_G,
        checker=exact(_G, mistakes=keep_distinct(_G, [
            Mistake(gini_brown_rectangles(_INC), HINTS["trapezoid_off_by_one"]),
            Mistake(_G / 2, "This is the area between the diagonal and the curve; the Gini "
                            "coefficient is twice that area."),
            Mistake(-_G, HINTS["lorenz_order"]),
            Mistake((1 - _G) / 2, "This is the area under the Lorenz curve; G = 1 - 2 x "
                                  "that area."),
        ])),
        worked="Lorenz vertices (k/5, cumulative share): Y = 0, 0, 1/10, 3/10, 6/10, 1; the "
               "sum of (1/5)(Y_k + Y_(k-1)) is 3/5, so G = 2/5.",
    ),
    value_exercise(
        id="gini-scaled-shifted", chapter=5, title="Doubling and adding",
        question="""
Five people earn 10, 20, 30, 40 and 100 (Gini coefficient 2/5). Give, exactly, the Gini
coefficient when every income doubles, and when instead everybody gets 10 more, as a
tuple in this order.
""",
        answer_name="gini_changes",
        solution_code="v = np.array([10, 20, 30, 40, 100])\n"
                      "gini_changes = (cl.gini_brown(2 * v, exact=True),\n"
                      "                cl.gini_brown(v + 10, exact=True))",
        solution=(_GV, _GV10),
        checker=parts(
            doubled=exact(_GV, mistakes=[Mistake(2 * _GV, "Doubling every income leaves "
                                                           "every share unchanged.")]),
            plus_10=exact(_GV10, mistakes=[Mistake(_GV, "Adding the same amount to "
                                                        "everybody makes incomes more "
                                                        "equal: the coefficient falls.")])),
        worked="Doubling keeps every share: 2/5. Adding 10 gives incomes 20..110 with "
               "G = 8/25.",
    ),
    value_exercise(
        id="gini-one-vs-two-rich", chapter=5, title="One rich person or two",
        question="""
In a village of ten, either one person earns 100 and the others 0, or two people earn
100 each and the others 0. Give both Gini coefficients exactly, as a tuple (one rich,
two rich).
""",
        answer_name="gini_rich",
        solution_code="gini_rich = (cl.gini_brown([0] * 9 + [100], exact=True),\n"
                      "             cl.gini_brown([0] * 8 + [100, 100], exact=True))",
        solution=(Fraction(9, 10), Fraction(4, 5)),
        checker=parts(one_rich=exact(Fraction(9, 10)), two_rich=exact(Fraction(4, 5))),
        worked="1 - 1/10 = 9/10 with one rich person; with two, 80% hold nothing: 4/5.",
    ),
    function_exercise(
        id="gini-lorenz-function", chapter=5, title="Write the Gini from a Lorenz curve",
        question="""
Write `gini(incomes)`: the Gini coefficient (a float) of a list of non-negative incomes
with a positive total, by Brown's formula over the Lorenz curve (incomes sorted from the
poorest up; $X_k = k/n$, $Y_k$ the share of the total held by the $k$ poorest).
""",
        answer_name="gini",
        solution_code='''
def gini(incomes):
    v = np.sort(np.asarray(incomes, dtype=float))
    n = v.size
    y = np.concatenate([[0.0], np.cumsum(v) / v.sum()])
    return float(1 - np.sum((y[1:] + y[:-1]) / n))
''',
        spec=FunctionSpec(
            reference=_gini_reference, cases=_cases.income_cases,
            wrong_versions=(
                (_gini_rectangles, HINTS["trapezoid_off_by_one"]),
                (_gini_half, "This is the area between the diagonal and the curve; the "
                             "Gini coefficient is twice it."),
                (_gini_descending, HINTS["lorenz_order"]),
                (_gini_unsorted, "Sort the incomes from the poorest up before building the "
                                 "Lorenz curve."),
            ),
            signature="incomes"),
        worked="Sort, take cumulative shares with a leading 0, and subtract the trapezoid "
               "sum from 1.",
    ),
]
