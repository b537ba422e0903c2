"""Chapter 5 exercises: the Lorenz curve and the Gini coefficient of incomes.

Brown's formula on five incomes, doubling and adding to five incomes, one or two rich
people in a village and the largest Gini coefficient of a village have per-student
variants (the last one asks about another number of people than the book's ten, whose
bound is 9/10 whatever the incomes; its title still says ten).
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from course_lib import gini_brown
from course_lib.exercises._core import (
    ChoiceChecker,
    Exercise,
    FunctionSpec,
    Mistake,
    exact,
    function_exercise,
    parts,
    value_exercise,
    with_variants,
)

from . import _cases
from ._hints import HINTS, gini_brown_rectangles, keep_distinct
from ._variants import ids_text, small_number_word


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


def _shares_text(incomes: tuple) -> str:
    """The Lorenz curve's heights over one common denominator: 0, 0, 1/10, 3/10, 6/10, 1."""
    v = sorted(incomes)
    cums = [0] + [sum(v[:k]) for k in range(1, len(v) + 1)]
    total = cums[-1]
    g = math.gcd(*cums)
    den = total // g
    return ", ".join("0" if c == 0 else "1" if c == total else f"{c // g}/{den}"
                     for c in cums)


def _gini_brown_incomes(data: dict) -> Exercise:
    incomes = tuple(int(v) for v in data["incomes"])
    if min(incomes) < 0 or sum(incomes) <= 0:
        raise ValueError("non-negative incomes with a positive total")
    g = gini_brown(list(incomes), exact=True)
    n = len(incomes)
    return value_exercise(
        id="gini-brown-incomes", chapter=5, title="Brown's formula",
        question=f"""
{small_number_word(n).capitalize()} people earn {ids_text(incomes)}. What is their Gini coefficient by Brown's
formula $G = 1 - \\sum_k (X_k - X_{{k-1}})(Y_k + Y_{{k-1}})$ over the vertices of the
Lorenz curve? (Exact.)
""",
        answer_name="gini_five",
        solution_code=f"gini_five = cl.gini_brown({list(incomes)}, exact=True)",
        solution=g,
        checker=exact(g, mistakes=keep_distinct(g, [
            Mistake(gini_brown_rectangles(incomes), HINTS["trapezoid_off_by_one"]),
            Mistake(g / 2, "This is the area between the diagonal and the curve; the Gini "
                           "coefficient divides it by the area under the diagonal."),
            Mistake(-g, HINTS["lorenz_order"]),
            Mistake((1 - g) / 2, "This is the area under the Lorenz curve; the Gini "
                                 "coefficient measures the area between the curve and "
                                 "the diagonal."),
        ])),
        worked=f"Lorenz vertices (k/{n}, cumulative share): Y = {_shares_text(incomes)}; the "
               f"sum of (1/{n})(Y_k + Y_(k-1)) is {1 - g}, so G = {g}.",
    )


def _draw_five_incomes(rng: np.random.Generator) -> dict:
    """Five different incomes in fives from 0 to 100, from the poorest up (as the book
    lists them)."""
    values = sorted(int(v) for v in 5 * rng.choice(21, size=5, replace=False))
    return {"incomes": tuple(values)}


def _gini_scaled_shifted(data: dict) -> Exercise:
    v = tuple(int(x) for x in data["incomes"])
    if min(v) <= 0 or len(set(v)) == 1:
        raise ValueError("positive incomes, not all equal")
    g = gini_brown(list(v), exact=True)
    g10 = gini_brown([x + 10 for x in v], exact=True)
    people = small_number_word(len(v)).capitalize()
    return value_exercise(
        id="gini-scaled-shifted", chapter=5, title="Doubling and adding",
        question=f"""
{people} people earn {ids_text(v)} (Gini coefficient {g}). Give, exactly, the Gini
coefficient when every income doubles, and when instead everybody gets 10 more, as a
tuple in this order.
""",
        answer_name="gini_changes",
        solution_code=f"v = np.array({list(v)})\n"
                      "gini_changes = (cl.gini_brown(2 * v, exact=True),\n"
                      "                cl.gini_brown(v + 10, exact=True))",
        solution=(g, g10),
        checker=parts(
            doubled=exact(g, mistakes=keep_distinct(g, [
                Mistake(2 * g, "Doubling every income leaves every share unchanged.")])),
            plus_10=exact(g10, mistakes=keep_distinct(g10, [
                Mistake(g, "Adding the same amount to everybody makes incomes more equal: "
                           "the coefficient falls.")]))),
        worked=f"Doubling keeps every share: {g}. Adding 10 gives incomes "
               f"{min(v) + 10}..{max(v) + 10} with G = {g10}.",
    )


def _draw_shifted(rng: np.random.Generator) -> dict:
    """Five different incomes in tens from 10 to 200, from the poorest up."""
    values = sorted(int(v) for v in 10 * (1 + rng.choice(20, size=5, replace=False)))
    return {"incomes": tuple(values)}


def _gini_rich(data: dict) -> Exercise:
    n, income = data["n"], data["income"]
    if n < 3 or income <= 0:
        raise ValueError("a village of at least three and a positive income")
    one = gini_brown([0] * (n - 1) + [income], exact=True)
    two = gini_brown([0] * (n - 2) + [income, income], exact=True)
    share = Fraction(100 * (n - 2), n)
    nothing = f"{share}%" if share.denominator == 1 else f"{n - 2} of the {n}"
    return value_exercise(
        id="gini-one-vs-two-rich", chapter=5, title="One rich person or two",
        question=f"""
In a village of {small_number_word(n)}, either one person earns {income} and the others 0, or two people earn
{income} each and the others 0. Give both Gini coefficients exactly, as a tuple (one rich,
two rich).
""",
        answer_name="gini_rich",
        solution_code=f"gini_rich = (cl.gini_brown([0] * {n - 1} + [{income}], exact=True),\n"
                      f"             cl.gini_brown([0] * {n - 2} + [{income}, {income}], "
                      "exact=True))",
        solution=(one, two),
        checker=parts(one_rich=exact(one), two_rich=exact(two)),
        worked=f"1 - 1/{n} = {one} with one rich person; with two, {nothing} hold nothing: "
               f"{two}.",
    )


def _draw_rich(rng: np.random.Generator) -> dict:
    """A village of 4 to 50 people; the rich earn 50 to 1000 (in tens)."""
    return {"n": int(rng.integers(4, 51)), "income": 10 * int(rng.integers(5, 101))}


def _gini_max_book() -> Exercise:
    """The book's exercise, as printed."""
    return value_exercise(
        id="gini-max-ten", chapter=5, title="The most unequal village of ten",
        question="""
What is the largest Gini coefficient (Brown's formula, twice the area between the
diagonal and the Lorenz curve) that ten people's non-negative incomes can have? (Exact.)
""",
        answer_name="gini_max10",
        solution_code="gini_max10 = cl.gini_brown([0] * 9 + [1], exact=True)",
        solution=Fraction(9, 10),
        checker=exact(Fraction(9, 10), mistakes=[
            Mistake(1, "With n people the Gini coefficient cannot reach 1: the Lorenz "
                       "curve's last piece is a straight line over the last person."),
            Mistake(Fraction(9, 20), "This is the area between the diagonal and the curve; "
                                     "the Gini coefficient divides it by the area under "
                           "the diagonal."),
        ]),
        worked="One person holds everything: 1 - 1/10 = 9/10.",
    )


_BOOK_GINI_MAX = {"n": 10}


def _gini_max(data: dict) -> Exercise:
    """The largest Gini coefficient of ``n`` people: 1 - 1/n (one person holds all)."""
    if data == _BOOK_GINI_MAX:
        return _gini_max_book()
    n = int(data["n"])
    g = 1 - Fraction(1, n)
    return value_exercise(
        id="gini-max-ten", chapter=5, title="The most unequal village of ten",
        question=f"""
What is the largest Gini coefficient (Brown's formula, twice the area between the
diagonal and the Lorenz curve) that {n} people's non-negative incomes can have? (Exact.)
""",
        answer_name="gini_max10",
        solution_code=f"gini_max10 = cl.gini_brown([0] * {n - 1} + [1], exact=True)",
        solution=g,
        checker=exact(g, mistakes=keep_distinct(g, [
            Mistake(1, "With n people the Gini coefficient cannot reach 1: the Lorenz "
                       "curve's last piece is a straight line over the last person."),
            Mistake(g / 2, "This is the area between the diagonal and the curve; "
                           "the Gini coefficient divides it by the area under "
                           "the diagonal."),
            Mistake(Fraction(9, 10), f"9/10 is the bound for ten people; here there are "
                                     f"{n}."),
        ])),
        worked=f"One person holds everything: 1 - 1/{n} = {g}.",
    )


def _draw_gini_max(rng: np.random.Generator) -> dict:
    """A village of 3 to 60 people, not the book's ten."""
    while True:
        n = int(rng.integers(3, 61))
        if n != 10:
            return {"n": n}


EXERCISES = [
    with_variants(_gini_max, _BOOK_GINI_MAX, _draw_gini_max),
    with_variants(_gini_brown_incomes, {"incomes": (0, 10, 20, 30, 40)},
                  _draw_five_incomes),
    with_variants(_gini_scaled_shifted, {"incomes": (10, 20, 30, 40, 100)}, _draw_shifted),
    with_variants(_gini_rich, {"n": 10, "income": 100}, _draw_rich),
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
                             "Gini coefficient divides it by the area under the "
                             "diagonal."),
                (_gini_descending, HINTS["lorenz_order"]),
                (_gini_unsorted, "Sort the incomes from the poorest up before building the "
                                 "Lorenz curve."),
            ),
            signature="incomes", public=_cases.INCOME_PUBLIC),
        worked="Sort, take cumulative shares with a leading 0, and subtract the trapezoid "
               "sum from 1.",
    ),
]


# --------------------------------------------------------------------- checkpoint
#: The answers of a checkpoint: one letter, with or without its parentheses.
_LETTERS = {c: c for c in "abcde"} | {f"({c})": c for c in "abcde"}

#: The chapter's checkpoint (issue 28, item 3): a conceptual question after the summary,
#: the same for every student (no variants). It stands before the exercises in the
#: chapter, and sphinx-exercise numbers the exercises in page order, so it comes first.
EXERCISES.insert(0, value_exercise(
    id="checkpoint-05-same-gini", chapter=5, title="Two societies, one coefficient",
    question="""
Two societies have the same Gini coefficient. Which of these must then be true?

- (a) Their Lorenz curves are the same.
- (b) Their poorest 10% hold the same share of the income.
- (c) The areas between the diagonal and their Lorenz curves are equal.
- (d) Their richest person holds the same share of the income.
- (e) They have the same number of people.

Answer with one letter as a string, `"a"` to `"e"`.
""",
    answer_name="checkpoint_5",
    solution_code='checkpoint_5 = "c"',
    solution="c",
    checker=ChoiceChecker("c", _LETTERS, mistakes={
        "a": "One number cannot fix a whole curve: the chapter shows two societies of ten "
             "with one coefficient whose Lorenz curves cross.",
        "b": "The share of the poorest 10% is one point of the Lorenz curve, and curves "
             "with the same area can cross.",
        "d": "The richest person's share is the last step of the Lorenz curve; curves can "
             "differ there and still enclose the same area.",
        "e": "The coefficient compares shares of people with shares of income: two people "
             "with 0 and 1 have the same coefficient as four with 0, 0, 1, 1.",
    }),
    worked="G is twice the area between the diagonal and the Lorenz curve: equal "
           "coefficients mean equal areas, nothing more.",
))
