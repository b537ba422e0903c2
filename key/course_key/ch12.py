"""Chapter 12 exercises: pitfalls of the AUC."""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from course_lib import roc_auc
from course_lib.exercises._core import (
    FunctionSpec,
    Mistake,
    approx,
    describe,
    exact,
    function_exercise,
    value_exercise,
)

from ._hints import HINTS

_AUC_SEARCH = 1 - Fraction(20, 995)


def _distance_score(x):
    return [abs(v - 5) for v in x]


def _x_cases(seed: int) -> list[dict]:
    rng = np.random.default_rng(seed)
    cases = [[1.0, 5.0], [9.0, 5.0, 2.0], [0.0, 10.0, 4.0, 6.0]]
    for _ in range(8):
        x = np.round(rng.uniform(0, 10, int(rng.integers(4, 40))), 2)
        x[0], x[1] = 1.0, 5.0  # both classes
        cases.append([float(v) for v in x])
    return [{"x": c} for c in cases]


def _judge_auc_one(case, expected, given):
    if isinstance(given, dict) and "__error__" in given:
        return f"raised {given['__error__']}"
    try:
        s = np.asarray(given, dtype=float).ravel()
    except (TypeError, ValueError):
        return f"expected a list of numbers, got {describe(given)}"
    x = np.asarray(case["x"], dtype=float)
    if s.size != x.size:
        return f"expected {x.size} scores, got {s.size}"
    y = (np.abs(x - 5) > 3).astype(int)
    auc = roc_auc(y, s, exact=True)
    if auc == 1:
        return None
    return f"the AUC of these scores is {describe(auc)}, not 1"


def _judge_list(case, expected, given):
    try:
        a = np.asarray(expected, dtype=float).ravel()
        g = np.asarray(given, dtype=float).ravel()
    except (TypeError, ValueError):
        return "not a list of numbers"
    return None if a.shape == g.shape and np.allclose(a, g, rtol=0, atol=1e-9) else "differs"


EXERCISES = [
    value_exercise(
        id="auc-search-ranking", chapter=12, title="A high AUC, a useless top",
        question="""
A ranking of 1000 objects with 5 positives puts 20 negatives first, then the 5
positives, then the other 975 negatives. What is its ROC AUC (exactly)?
""",
        answer_name="auc_search",
        solution_code="auc_search = 1 - Fraction(20, 995)",
        solution=_AUC_SEARCH,
        checker=exact(_AUC_SEARCH, mistakes=[
            Mistake(Fraction(20, 995), HINTS["ascending"]),
            Mistake(1 - Fraction(20, 1000), "Divide by the 995 negatives: each positive "
                                            "loses to 20 of the 995."),
            Mistake(1 - Fraction(100, 995), "Each positive loses to the same 20 negatives: "
                                            "5 x 20 lost pairs of 5 x 995."),
        ]),
        worked="Each positive loses to 20 of the 995 negatives: AUC = 1 - 20/995 = 195/199, "
               "about 0.980, while the top ten results hold no positive.",
    ),
    value_exercise(
        id="precision-at-10-search", chapter=12, title="Precision at 10 of that ranking",
        question="""
The same ranking: 1000 objects, 5 positives at places 21 to 25. What is its precision
at 10 (the share of positives among the first ten)?
""",
        answer_name="p_at_10",
        solution_code="p_at_10 = Fraction(0, 10)",
        solution=Fraction(0),
        checker=exact(0, mistakes=[Mistake(Fraction(1, 2), "The first ten results are all "
                                                           "negatives (the positives come "
                                                           "after 20 negatives).")]),
        worked="The first ten are negatives: 0.",
    ),
    value_exercise(
        id="credit-share-auc", chapter=12, title="A sure group at the bottom",
        question="""
A credit model places a share $f = 0.2$ of the negatives at the very bottom with no
positive among them, and gives all other objects the same score. What is its ROC AUC
(exactly)?
""",
        answer_name="auc_sure_group",
        solution_code="f = Fraction(1, 5)\nauc_sure_group = (1 + f) / 2",
        solution=Fraction(3, 5),
        checker=exact(Fraction(3, 5), mistakes=[
            Mistake(Fraction(1, 2), "The sure group is ordered correctly against every "
                                    "positive; only the rest is tied."),
            Mistake(Fraction(1, 5), "f of the pairs are correct and the other 1 - f are "
                                    "ties counting 1/2: f + (1 - f)/2."),
            Mistake(Fraction(4, 5), HINTS["ties_one"]),
        ]),
        worked="A share f of pairs is ordered correctly, the rest are ties: "
               "f + (1 - f)/2 = (1 + f)/2 = 3/5.",
    ),
    value_exercise(
        id="unimodal-screen", chapter=12, title="Screening a feature by its AUC",
        question="""
A feature $x$ is uniform on $[0, 10]$ and an object is positive exactly when $x$ is more
than 3 away from 5. What is the screen $2\\,|\\mathrm{AUC} - 1/2|$ of the feature $x$
itself, in the population (within 0.01)?
""",
        answer_name="screen_value",
        solution_code="screen_value = 0.0",
        solution=0.0,
        checker=approx(0.0, 0.01, mistakes=[
            Mistake(1.0, "The positives lie at both ends in equal measure, so x does not "
                         "order them above the negatives: the AUC of x is 1/2."),
        ]),
        worked="By symmetry the AUC of x is 1/2 and the screen 0, although the label is a "
               "function of x.",
    ),
    function_exercise(
        id="unimodal-score-function", chapter=12, title="A score that separates",
        question="""
Same feature: an object is positive exactly when $|x - 5| > 3$. Write `score(x)`: given
a list of feature values, return a list of scores (one per value) whose ROC AUC is 1 on
every sample.
""",
        answer_name="score",
        solution_code='''
def score(x):
    return [abs(v - 5) for v in x]
''',
        spec=FunctionSpec(
            reference=_distance_score, cases=_x_cases, judge=_judge_auc_one,
            wrong_versions=(
                (lambda x: list(x), "The feature itself puts positives at both ends; score "
                                    "by the distance from the centre."),
                (lambda x: [-abs(v - 5) for v in x], "Far from the centre means positive: "
                                                     "the sign is reversed."),
            ),
            signature="x",
            same=lambda case, a, b: _judge_list(case, a, b) is None),
        worked="The distance |x - 5| puts every positive (distance > 3) above every "
               "negative.",
    ),
]
