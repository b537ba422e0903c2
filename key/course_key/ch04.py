"""Chapter 4 exercises: optimizing the AUC (surrogates, pairs, rank averaging)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from course_lib import rank_average, roc_auc, soft_auc
from course_lib.exercises._core import (
    FunctionSpec,
    Mistake,
    approx,
    exact,
    function_exercise,
    judge_number_list,
    value_exercise,
)

from ._hints import HINTS
from .ch03 import TABLE1_B, TABLE1_TEXT, TABLE1_Y

_SOFT = soft_auc(TABLE1_Y, TABLE1_B, beta=1.0)
_M1, _M0 = 20, 380


def _rank_reference(scores):
    return [float(v) for v in rank_average(scores)]


def _ranks_no_ties(scores):
    arr = np.asarray(scores, dtype=float)
    n = arr.shape[1]
    ranks = [np.argsort(np.argsort(row, kind="stable"), kind="stable") + 1 for row in arr]
    return [float(v) for v in np.mean(ranks, axis=0) / n]


def _ranks_unnormalized(scores):
    return [float(v) * len(scores[0]) for v in rank_average(scores)]


def _raw_mean(scores):
    return [float(v) for v in np.mean(np.asarray(scores, dtype=float), axis=0)]


def _rank_cases(seed: int) -> list[dict]:
    rng = np.random.default_rng(seed)
    cases = [[[0.1, 0.4, 0.9], [20.0, -5.0, 300.0]], [[1.0, 1.0], [2.0, 3.0]],
             [[5.0, 5.0, 5.0]], [[1.0, 1.0, 2.0, 3.0], [4.0, 3.0, 2.0, 1.0]]]
    for _ in range(8):
        k, n = int(rng.integers(1, 4)), int(rng.integers(2, 15))
        cases.append([[float(v) for v in np.round(rng.normal(0, 10 ** rng.integers(0, 3), n),
                                                  int(rng.integers(0, 2)))]
                      for _ in range(k)])
    return [{"scores": c} for c in cases]


EXERCISES = [
    value_exercise(
        id="pairs-sample-size", chapter=4, title="The size of the pairs sample",
        question="""
To optimize the AUC, one builds a sample of *pairs*: every (positive, negative) pair of
the training set enters twice, as (positive, negative) with target 1 and as
(negative, positive) with target 0. How many objects does this sample have for 400
training objects of which 5% are positive?
""",
        answer_name="pairs_size",
        solution_code="m1 = round(0.05 * 400)\nm0 = 400 - m1\npairs_size = 2 * m1 * m0",
        solution=2 * _M1 * _M0,
        checker=exact(2 * _M1 * _M0, mistakes=[
            Mistake(_M1 * _M0, "Each (positive, negative) pair enters twice, in both "
                               "orders: 2 m1 m0."),
            Mistake(400 * 399 // 2, "Only pairs of objects from different classes enter, "
                                    "not all pairs of objects."),
            Mistake(2 * 200 * 200, "Only 5% are positive: m1 = 20, m0 = 380, not balanced "
                                   "classes."),
        ]),
        worked="m1 = 20, m0 = 380: 2 x 20 x 380 = 15200 (80000 for balanced classes).",
    ),
    value_exercise(
        id="soft-auc-table1", chapter=4, title="The sigmoid surrogate of the AUC",
        question=f"""
{TABLE1_TEXT}
Compute the sigmoid surrogate
$\\frac{{1}}{{m_1 m_0}}\\sum_{{i: y_i = 1}}\\sum_{{j: y_j = 0}} \\sigma(\\beta(b_i - b_j))$
with $\\sigma(u) = 1/(1 + e^{{-u}})$ and $\\beta = 1$ (a float, within $10^{{-6}}$).
""",
        answer_name="soft_table1",
        solution_code="soft_table1 = cl.soft_auc([0, 0, 0, 1, 1, 1, 0],\n"
                      "                          [0.5, 0.1, 0.2, 0.6, 0.2, 0.3, 0.0], beta=1.0)",
        solution=_SOFT,
        checker=approx(_SOFT, 1e-6, mistakes=[
            Mistake(1 - _SOFT, "The sign is reversed: the positive's score comes first, "
                               "sigma(beta (b_i - b_j)) with i positive."),
            Mistake(12 * _SOFT, HINTS["unnormalized_auc"]),
            Mistake(float(roc_auc(TABLE1_Y, TABLE1_B)), "This is the AUC itself; with "
                    "beta = 1 the surrogate is far smoother (close to 1/2)."),
        ]),
        worked="Twelve pairs with small score differences: each sigma is a little above "
               "1/2, and the mean is about 0.541.",
    ),
    value_exercise(
        id="soft-auc-scale", chapter=4, title="Scaling the scores",
        question="""
The surrogate with $\\beta = 1$ of the scores $2b$ equals the surrogate of the scores
$b$ with which $\\beta$? (A number.)
""",
        answer_name="beta_equiv",
        solution_code="beta_equiv = 2",
        solution=2,
        checker=exact(2, mistakes=[Mistake(Fraction(1, 2), "sigma(beta (2 b_i - 2 b_j)) = "
                                           "sigma(2 beta (b_i - b_j)): the factor multiplies "
                                           "beta.")]),
        worked="The surrogate depends on beta b only: doubling the scores is doubling beta, "
               "which is why the ascent keeps |w| = 1.",
    ),
    value_exercise(
        id="soft-auc-beta-zero", chapter=4, title="The surrogate as beta goes to 0",
        question=f"""
{TABLE1_TEXT}
What is the limit of the sigmoid surrogate
$\\frac{{1}}{{m_1 m_0}}\\sum \\sigma(\\beta(b_i - b_j))$ as $\\beta \\to 0$? (A number.)
""",
        answer_name="soft_limit",
        solution_code="soft_limit = Fraction(1, 2)",
        solution=Fraction(1, 2),
        checker=exact(Fraction(1, 2), mistakes=[
            Mistake(roc_auc(TABLE1_Y, TABLE1_B, exact=True),
                    "That is the limit as beta goes to infinity (the AUC); as beta -> 0 "
                    "every sigma tends to sigma(0)."),
            Mistake(0, "sigma(0) = 1/2, not 0.")]),
        worked="Each term tends to sigma(0) = 1/2, so the surrogate tends to 1/2.",
    ),
    function_exercise(
        id="rank-average-function", chapter=4, title="Write rank averaging",
        question="""
Write `rank_average(scores)`: `scores` is a list of $k$ lists, the scores of $k$
scorers on the same $n$ objects. Replace each scorer's scores by their ranks divided by
$n$ (rank 1 for the smallest score; tied scores share their average rank) and return
the mean over the scorers, a list of $n$ floats.
""",
        answer_name="rank_average_answer",
        solution_code='''
def rank_average_answer(scores):
    import scipy.stats
    arr = np.asarray(scores, dtype=float)
    ranks = [scipy.stats.rankdata(row) / arr.shape[1] for row in arr]
    return np.mean(ranks, axis=0).tolist()
''',
        spec=FunctionSpec(
            reference=_rank_reference, cases=_rank_cases, judge=judge_number_list,
            wrong_versions=(
                (_ranks_no_ties, "Tied scores must share their average rank; the answer "
                                 "breaks ties by position."),
                (_ranks_unnormalized, "Divide each rank by n, so every scorer's ranks run "
                                      "over (0, 1]."),
                (_raw_mean, "This averages the raw scores; average their ranks instead."),
            ),
            signature="scores"),
        worked="scipy.stats.rankdata gives average ranks to ties; divide by n and average "
               "over the scorers.",
    ),
]
