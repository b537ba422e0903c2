"""Chapter 4 exercises: optimizing the AUC (surrogates, pairs, rank averaging).

The size of a pairs sample, the surrogate of a table and the scaling of the scores have
per-student variants. The limit of the surrogate as beta goes to 0 is 1/2 for every
table, so its variants ask instead how fast the surrogate leaves 1/2 on a drawn table:
the limit of (S(beta) - 1/2)/beta, a quarter of the difference of the class means.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from course_lib import rank_average, roc_auc, soft_auc
from course_lib.exercises._core import (
    Exercise,
    FunctionSpec,
    Mistake,
    approx,
    exact,
    function_exercise,
    judge_number_list,
    value_exercise,
    with_variants,
)

from ._checkpoints import checkpoint
from ._hints import HINTS, keep_distinct
from ._variants import book_or_table_text, draw_table, small_number_word
from .ch03 import TABLE1, TABLE1_B, TABLE1_TEXT, TABLE1_Y


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


#: All tied; two scorers on other scales; ties in one scorer; ties and a reversed scorer.
_RANK_PUBLIC = ({"scores": [[5.0, 5.0, 5.0]]},
                {"scores": [[0.1, 0.4, 0.9], [20.0, -5.0, 300.0]]},
                {"scores": [[1.0, 1.0], [2.0, 3.0]]},
                {"scores": [[1.0, 1.0, 2.0, 3.0], [4.0, 3.0, 2.0, 1.0]]})


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


def _pairs_sample_size(data: dict) -> Exercise:
    n, percent = data["n"], data["percent"]
    if (n * percent) % 100 or not 0 < percent < 50 or n % 2:
        raise ValueError("an even n whose percent of positives is a whole minority")
    m1 = n * percent // 100
    m0 = n - m1
    size = 2 * m1 * m0
    balanced = 2 * (n // 2) ** 2
    return value_exercise(
        id="pairs-sample-size", chapter=4, title="The size of the pairs sample",
        question=f"""
To optimize the AUC, one builds a sample of *pairs*: every (positive, negative) pair of
the training set enters twice, as (positive, negative) with target 1 and as
(negative, positive) with target 0. How many objects does this sample have for {n}
training objects of which {percent}% are positive?
""",
        answer_name="pairs_size",
        solution_code=f"m1 = round({percent / 100:g} * {n})\nm0 = {n} - m1\n"
                      "pairs_size = 2 * m1 * m0",
        solution=size,
        checker=exact(size, mistakes=keep_distinct(size, [
            Mistake(m1 * m0, "Each (positive, negative) pair enters twice, once in "
                             "each order."),
            Mistake(n * (n - 1) // 2, "Only pairs of objects from different classes enter, "
                                      "not all pairs of objects."),
            Mistake(balanced, f"Only {percent}% are positive: the classes are not "
                              "balanced."),
        ])),
        worked=f"m1 = {m1}, m0 = {m0}: 2 x {m1} x {m0} = {size} ({balanced} for balanced "
               "classes).",
    )


def _draw_pairs_size(rng: np.random.Generator) -> dict:
    """100 to 2000 training objects (multiples of 20), 5% to 25% of them positive in
    whole percents that give a whole number of positives."""
    while True:
        n = 20 * int(rng.integers(5, 101))
        percent = int(rng.integers(2, 26))
        if (n * percent) % 100 == 0:
            return {"n": n, "percent": percent}


def _soft_auc_table(data: dict) -> Exercise:
    y, b = data["y"], data["b"]
    soft = soft_auc(y, b, beta=1.0)
    pairs = sum(y) * (len(y) - sum(y))
    same = (tuple(y), tuple(b)) == (TABLE1_Y, TABLE1_B)
    if same:
        worked = ("Twelve pairs with small score differences: each sigma is a little above "
                  "1/2, and the mean is about 0.541.")
    else:
        pos = [s for s, v in zip(b, y) if v == 1]
        neg = [s for s, v in zip(b, y) if v == 0]
        widest = max(abs(p - q) for p in pos for q in neg)
        worked = (f"{small_number_word(pairs).capitalize()} pairs with score differences of at most "
                  f"{widest:.1f}: each sigma is near 1/2 (above it for a correctly ordered "
                  f"pair), and the mean is about {soft:.3f}.")
    return value_exercise(
        id="soft-auc-table1", chapter=4, title="The sigmoid surrogate of the AUC",
        question=f"""
{book_or_table_text(data, TABLE1, TABLE1_TEXT)}
Compute the sigmoid surrogate
$\\frac{{1}}{{m_1 m_0}}\\sum_{{i: y_i = 1}}\\sum_{{j: y_j = 0}} \\sigma(\\beta(b_i - b_j))$
with $\\sigma(u) = 1/(1 + e^{{-u}})$ and $\\beta = 1$ (a float, within $10^{{-6}}$).
""",
        answer_name="soft_table1",
        solution_code=f"soft_table1 = cl.soft_auc({list(y)},\n"
                      f"                          {list(b)}, beta=1.0)",
        solution=soft,
        checker=approx(soft, 1e-6, mistakes=keep_distinct(soft, [
            Mistake(1 - soft, "The sign is reversed: the positive's score comes first, "
                              "sigma(beta (b_i - b_j)) with i positive."),
            Mistake(pairs * soft, HINTS["unnormalized_auc"]),
            Mistake(float(roc_auc(y, b)), "This is the AUC itself; with "
                    "beta = 1 the surrogate is far smoother (close to 1/2)."),
        ])),
        worked=worked,
    )


def _soft_auc_scale(data: dict) -> Exercise:
    factor, beta = data["factor"], data["beta"]
    if factor < 2 or beta < 1:
        raise ValueError("a factor of at least 2 and a beta of at least 1")
    answer = factor * beta
    verb = {2: "doubling", 3: "tripling"}.get(factor)
    same = (f"{verb} the scores is {verb} beta" if verb else
            f"multiplying the scores by {factor} is multiplying beta by {factor}")
    here = "" if beta == 1 else f" (here {beta} x {factor} = {answer})"
    return value_exercise(
        id="soft-auc-scale", chapter=4, title="Scaling the scores",
        question=f"""
The surrogate with $\\beta = {beta}$ of the scores ${factor}b$ equals the surrogate of the scores
$b$ with which $\\beta$? (A number.)
""",
        answer_name="beta_equiv",
        solution_code=f"beta_equiv = {factor}" + ("" if beta == 1 else f" * {beta}"),
        solution=answer,
        checker=exact(answer, mistakes=keep_distinct(answer, [
            Mistake(Fraction(beta, factor), f"The factor {factor} scales the differences "
                                            "b_i - b_j inside sigma: does that ask for a "
                                            "larger or a smaller beta?"),
            Mistake(factor, f"The surrogate had beta = {beta} already: start from that "
                            "beta, not from 1."),
        ])),
        worked=f"The surrogate depends on beta b only: {same}{here}, "
               "which is why the ascent keeps |w| = 1.",
    )


def _draw_scale(rng: np.random.Generator) -> dict:
    return {"factor": int(rng.integers(2, 21)), "beta": int(rng.integers(1, 10))}


def _soft_limit_book() -> Exercise:
    """The book's exercise, as printed."""
    return value_exercise(
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
            Mistake(0, "sigma(0) is not 0: evaluate the logistic function at 0.")]),
        worked="Each term tends to sigma(0) = 1/2, so the surrogate tends to 1/2.",
    )


def _soft_slope(data: dict) -> Exercise:
    """A variant asks how fast the surrogate leaves 1/2: sigma(u) = 1/2 + u/4 + O(u^3),
    so (S(beta) - 1/2)/beta tends to (mean positive score - mean negative score)/4
    (its limit, 1/2, is the same for every table)."""
    if (tuple(data["y"]), tuple(data["b"])) == (TABLE1_Y, TABLE1_B):
        return _soft_limit_book()
    y, b = data["y"], data["b"]
    pos = [Fraction(str(s)) for s, v in zip(b, y) if v == 1]
    neg = [Fraction(str(s)) for s, v in zip(b, y) if v == 0]
    mean_pos, mean_neg = sum(pos) / len(pos), sum(neg) / len(neg)
    diff = mean_pos - mean_neg
    slope = diff / 4
    return value_exercise(
        id="soft-auc-beta-zero", chapter=4, title="The surrogate as beta goes to 0",
        question=f"""
{book_or_table_text(data, TABLE1, TABLE1_TEXT)}
As $\\beta \\to 0$ the sigmoid surrogate
$S(\\beta) = \\frac{{1}}{{m_1 m_0}}\\sum \\sigma(\\beta(b_i - b_j))$ tends to $1/2$ for every
table. How fast: what is the limit of $(S(\\beta) - 1/2)/\\beta$ as $\\beta \\to 0$?
(A number, exact.)
""",
        answer_name="soft_limit",
        solution_code=f"y = {list(y)}\nb = {list(b)}\n"
                      "pos = [Fraction(str(s)) for s, v in zip(b, y) if v == 1]\n"
                      "neg = [Fraction(str(s)) for s, v in zip(b, y) if v == 0]\n"
                      "# sigma(u) = 1/2 + u/4 + O(u^3): the slope is the mean of b_i - b_j\n"
                      "# over the pairs, the difference of the class means, times 1/4\n"
                      "soft_limit = (sum(pos) / len(pos) - sum(neg) / len(neg)) / 4",
        solution=slope,
        checker=exact(slope, mistakes=keep_distinct(slope, [
            Mistake(Fraction(1, 2), "1/2 is the limit of the surrogate itself; the question "
                                    "asks how fast it leaves 1/2, its slope at beta = 0."),
            Mistake(diff, "That is the mean difference of the scores; the slope of the "
                          "surrogate at beta = 0 needs the slope of sigma at 0 too."),
            Mistake(diff / 2, "The slope of sigma at 0 is not 1/2: differentiate "
                              "sigma(u) = 1/(1 + e^(-u)) at 0."),
            Mistake(roc_auc(y, b, exact=True), "That is the limit of the surrogate as beta "
                                               "goes to infinity (the AUC)."),
        ])),
        worked=f"sigma(u) = 1/2 + u/4 + O(u^3), so S(beta) = 1/2 + beta/4 x mean(b_i - b_j) "
               "+ O(beta^3); the mean of b_i - b_j over the pairs is the positives' mean "
               f"score minus the negatives': {mean_pos} - {mean_neg} = {diff}, and the "
               f"limit is ({diff})/4 = {slope}.",
    )


def _draw_slope_table(rng: np.random.Generator) -> dict:
    """A table like Table 1 whose positives score higher on average."""
    while True:
        table = draw_table(rng)
        pos = [Fraction(str(s)) for s, v in zip(table["b"], table["y"]) if v == 1]
        neg = [Fraction(str(s)) for s, v in zip(table["b"], table["y"]) if v == 0]
        if sum(pos) / len(pos) > sum(neg) / len(neg):
            return table


#: The chapter's checkpoint, shown between its summary and its exercises.
_CHECKPOINT = checkpoint(
    4, "steep-surrogate", "Checkpoint: a steep surrogate",
    question="""
A linear scorer of unit length is trained by gradient ascent on the sigmoid surrogate
of the AUC with $\\beta = 100$. From a poor starting direction the ascent stops after a
few steps, still close to where it started, while $\\beta = 10$ from the same start
reaches a good direction. Why? Answer a letter.

- (a) a steep sigmoid makes the surrogate follow the AUC's staircase closely, small bumps
  included, and the ascent stops at the nearest local maximum
- (b) the surrogate's gradient is zero wherever it exists, like the AUC's
- (c) with a large $\\beta$ the surrogate tends to the difference of the class means,
  which a few far points drag away
- (d) the sample of (positive, negative) pairs is too large for the ascent to finish
- (e) with $\\beta = 100$ the surrogate is farther from the AUC than with $\\beta = 10$,
  so its maximum lies elsewhere
""",
    answer="a",
    mistakes={
        "b": "Unlike the AUC, the surrogate is smooth for every beta > 0: its gradient "
             "vanishes only where the surrogate is flat.",
        "c": "That is the other end: the class means take over as beta goes to 0.",
        "d": "The number of pairs sets the cost of a step, not where the ascent stops.",
        "e": "A larger beta brings the surrogate closer to the AUC, not farther from it.",
    },
    worked="The closer the surrogate is to the AUC, the more of the AUC's flat steps and "
           "small bumps it inherits; a gradient ascent creeps to the nearest bump.",
)

EXERCISES = [
    _CHECKPOINT,
    with_variants(_pairs_sample_size, {"n": 400, "percent": 5}, _draw_pairs_size),
    with_variants(_soft_auc_table, TABLE1, draw_table),
    with_variants(_soft_auc_scale, {"factor": 2, "beta": 1}, _draw_scale),
    with_variants(_soft_slope, TABLE1, _draw_slope_table),
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
            signature="scores", public=_RANK_PUBLIC),
        worked="scipy.stats.rankdata gives average ranks to ties; divide by n and average "
               "over the scorers.",
    ),
]
