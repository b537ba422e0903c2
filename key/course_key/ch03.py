"""Chapter 3 exercises: the AUC as a share of correctly ordered pairs."""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from course_lib import roc_auc
from course_lib.exercises._core import (
    ChoiceChecker,
    Exercise,
    FunctionSpec,
    Mistake,
    exact,
    function_exercise,
    quiet,
    value_exercise,
    with_variants,
)

from . import _cases
from ._hints import HINTS, auc_mistakes, auc_tie_version, auc_unweighted, keep_distinct
from ._variants import draw_table, table_text

TABLE1_Y = (0, 0, 0, 1, 1, 1, 0)
TABLE1_B = (0.5, 0.1, 0.2, 0.6, 0.2, 0.3, 0.0)

TABLE1_TEXT = (
    "Table 1 has seven objects with ids 1..7, scores "
    "$b = (0.5, 0.1, 0.2, 0.6, 0.2, 0.3, 0.0)$ and labels $y = (0, 0, 0, 1, 1, 1, 0)$: "
    "objects 4, 5, 6 are positive, objects 5 and 3 tie at 0.2."
)

TABLE1 = {"y": TABLE1_Y, "b": TABLE1_B}


@quiet
def _auc_reference(y_true, y_score):
    return float(roc_auc(y_true, y_score))


@quiet
def _auc_weighted_reference(y_true, y_score, sample_weight):
    return float(roc_auc(y_true, y_score, sample_weight=sample_weight))


def _text(data: dict) -> str:
    """The book's sentence for Table 1, the same kind of sentence for a variant's table."""
    same = (tuple(data["y"]), tuple(data["b"])) == (TABLE1_Y, TABLE1_B)
    return TABLE1_TEXT if same else table_text(data)


def _pairs_worked(y: tuple, b: tuple) -> str:
    pos = [i for i, v in enumerate(y) if v == 1]
    neg = [i for i, v in enumerate(y) if v == 0]
    correct = sum(b[i] > b[j] for i in pos for j in neg)
    ties = [(i + 1, j + 1) for i in pos for j in neg if b[i] == b[j]]
    total = len(pos) * len(neg)
    auc = roc_auc(y, b, exact=True)
    tied = ("no pair is tied" if not ties else
            "the pair " + ", ".join(f"({i}, {j})" for i, j in ties) +
            (" is" if len(ties) == 1 else " are") + " tied")
    half = "" if not ties else (" + 1/2" if len(ties) == 1 else f" + {len(ties)}/2")
    return (f"Of the {len(pos)} x {len(neg)} = {total} pairs, {correct} are ordered "
            f"correctly and {tied}: ({correct}{half})/{total} = {auc}.")


def _auc_pairs_table(data: dict) -> Exercise:
    y, b = data["y"], data["b"]
    auc = roc_auc(y, b, exact=True)
    return value_exercise(
        id="auc-pairs-table1", chapter=3, title="The AUC of Table 1 by counting pairs",
        question=f"""
{_text(data)}
Count the (positive, negative) pairs ordered correctly, a tie counting one half, and
give the ROC AUC as an exact fraction (e.g. `Fraction(p, q)` or the string `"p/q"`).
""",
        answer_name="auc_table1",
        solution_code=f'auc_table1 = cl.roc_auc({list(y)},\n'
                      f'                        {list(b)}, '
                      'exact=True)',
        solution=auc,
        checker=exact(auc, mistakes=auc_mistakes(y, b)),
        worked=_pairs_worked(y, b),
    )


def _auc_negated(data: dict) -> Exercise:
    y, b = data["y"], data["b"]
    auc = roc_auc(y, b, exact=True)
    negated = roc_auc(y, [-v for v in b], exact=True)
    ties = sum(b[i] == b[j] for i in range(len(y)) for j in range(len(y))
               if y[i] == 1 and y[j] == 0)
    pairs = sum(y) * (len(y) - sum(y))
    return value_exercise(
        id="auc-negated-scores", chapter=3, title="Negated scores",
        question=f"""
{_text(data)}
Replace every score by its negative, $b \\mapsto -b$. What is the ROC AUC now (exact)?
""",
        answer_name="auc_negated",
        solution_code=f"auc_negated = 1 - cl.roc_auc({list(y)},\n"
                      f"                             {list(b)}, "
                      "exact=True)",
        solution=negated,
        checker=exact(negated, mistakes=keep_distinct(negated, [
            Mistake(auc, "A strictly decreasing map reverses the order of the scores: "
                         "correctly ordered pairs become wrongly ordered, so the AUC "
                         "becomes 1 - AUC (ties stay ties)."),
            Mistake(negated - Fraction(ties, 2 * pairs), HINTS["ties_zero"]),
        ])),
        worked="Every correctly ordered pair becomes wrongly ordered and the tie stays a "
               f"tie: 1 - {auc} = {negated}." if ties == 1 else
               "Every correctly ordered pair becomes wrongly ordered and the ties stay "
               f"ties: 1 - {auc} = {negated}.",
    )


def _auc_binarized(data: dict) -> Exercise:
    tpr, fpr = Fraction(data["tpr"]), Fraction(data["fpr"])
    auc = (1 + tpr - fpr) / 2

    def dec(v: Fraction) -> str:
        return f"{float(v):g}"

    return value_exercise(
        id="auc-binarized-answer", chapter=3, title="The AUC of a binarized answer",
        question=f"""
A classifier answers 0 or 1 (no scores). It has $\\mathrm{{TPR}} = {dec(tpr)}$ and
$\\mathrm{{FPR}} = {dec(fpr)}$. What is the area under its ROC curve (a number)?
""",
        answer_name="auc_binary",
        solution_code=f"auc_binary = (1 + Fraction({tpr.numerator}, {tpr.denominator}) - "
                      f"Fraction({fpr.numerator}, {fpr.denominator})) / 2",
        solution=auc,
        checker=exact(auc, mistakes=keep_distinct(auc, [
            Mistake(tpr - fpr, "This is TPR - FPR (the KS or Youden value), not an area: "
                               "the ROC curve of a binarized answer is a broken line; "
                               "add the areas under its two pieces."),
            Mistake(tpr * (1 - fpr), "TPR x (1 - FPR) leaves out the two triangles: the "
                                     "curve is a broken line, sum its trapezoids."),
            Mistake((1 + fpr - tpr) / 2, HINTS["swapped"]),
            Mistake(tpr, "The area is not the TPR: the curve goes through "
                         "(FPR, TPR), sum its two trapezoids."),
        ]), hint="The curve goes (0,0) -> (FPR, TPR) -> (1,1); add the two trapezoids."),
        worked=f"Two trapezoids: {dec(fpr)} x {dec(tpr)} / 2 + {dec(1 - fpr)} x "
               f"({dec(tpr)} + 1)/2 = {dec(auc)} = (1 + TPR - FPR)/2, "
               "the balanced accuracy of the answer.",
    )


def _draw_rates(rng: np.random.Generator) -> dict:
    tpr, fpr = int(rng.integers(55, 100)), int(rng.integers(1, 46))
    return {"tpr": f"{tpr}/100", "fpr": f"{fpr}/100"}


def _auc_weighted(data: dict) -> Exercise:
    y, b, w_neg = data["y"], data["b"], data["w_neg"]
    w = [w_neg if v == 0 else 1 for v in y]
    auc = roc_auc(y, b, exact=True)
    weighted = roc_auc(y, b, sample_weight=w, exact=True)
    return value_exercise(
        id="auc-weighted-negatives", chapter=3, title="Weights on one class",
        question=f"""
{_text(data)}
Give every negative the weight {w_neg} and every positive the weight 1 (a pair weighs the
product of its objects' weights). What is the weighted ROC AUC (exact)?
""",
        answer_name="auc_weighted",
        solution_code=f"auc_weighted = cl.roc_auc({list(y)},\n"
                      f"                          {list(b)},\n"
                      f"                          sample_weight={w}, "
                      "exact=True)",
        solution=weighted,
        checker=exact(weighted, mistakes=keep_distinct(weighted, [
            Mistake(w_neg * auc, "The weighted count of correct pairs is divided by the "
                                 "total weight of all pairs, which grew by the same "
                                 "factor."),
        ] + list(auc_mistakes(y, b)))),
        worked=(f"Every pair weighs {w_neg}, so numerator and denominator "
                + ("double" if w_neg == 2 else f"are multiplied by {w_neg}")
                + f": the AUC stays {auc}. Only relative weights within each class "
                "matter."),
    )


def _draw_weighted(rng: np.random.Generator) -> dict:
    return {**draw_table(rng), "w_neg": int(rng.integers(2, 6))}


EXERCISES = [
    with_variants(_auc_pairs_table, TABLE1, draw_table),
    with_variants(_auc_negated, TABLE1, draw_table),
    with_variants(_auc_binarized, {"tpr": "9/10", "fpr": "3/10"}, _draw_rates),
    with_variants(_auc_weighted, {**TABLE1, "w_neg": 2}, _draw_weighted),
    function_exercise(
        id="auc-pairs-function", chapter=3, title="Write the AUC by pair counting",
        question="""
Write a function `auc_pairs(y_true, y_score)` that returns the ROC AUC (a float) of
labels `y_true` (0/1) and scores `y_score` (lists of equal length) by counting
(positive, negative) pairs: a pair counts 1 when the positive scores higher, 1/2 on a
tie. When one class is missing return `float("nan")` (raising a `ValueError` is also
accepted). It is checked on hidden cases with ties, one class, all scores tied and rare
positives.
""",
        answer_name="auc_pairs",
        solution_code='''
def auc_pairs(y_true, y_score):
    y = np.asarray(y_true, dtype=bool)
    b = np.asarray(y_score, dtype=float)
    pos, neg = b[y], b[~y]
    if pos.size == 0 or neg.size == 0:
        return float("nan")
    diff = pos[:, None] - neg[None, :]
    return float(((diff > 0) + 0.5 * (diff == 0)).mean())
''',
        spec=FunctionSpec(
            reference=_auc_reference, cases=_cases.binary_cases,
            wrong_versions=(
                (auc_tie_version(0.0), HINTS["ties_zero"]),
                (auc_tie_version(1.0), HINTS["ties_one"]),
                (auc_tie_version(0.5, reverse=True), HINTS["ascending"]),
            ),
            signature="y_true, y_score", public=_cases.BINARY_PUBLIC),
        worked="Broadcast the positives' scores against the negatives': the mean of "
               "[b+ > b-] + 1/2 [b+ = b-] over the m1 x m0 pairs.",
    ),
    function_exercise(
        id="auc-weighted-function", chapter=3, title="Write the weighted AUC",
        question="""
Write `weighted_auc(y_true, y_score, sample_weight)`: the ROC AUC when object $i$ has the
weight $w_i > 0$ and a (positive, negative) pair weighs $w_i w_j$: the weighted share of
correctly ordered pairs, a tie counting one half. Return `float("nan")` when a class is
missing.
""",
        answer_name="weighted_auc",
        solution_code='''
def weighted_auc(y_true, y_score, sample_weight):
    y = np.asarray(y_true, dtype=bool)
    b = np.asarray(y_score, dtype=float)
    w = np.asarray(sample_weight, dtype=float)
    if y.all() or not y.any():
        return float("nan")
    diff = b[y][:, None] - b[~y][None, :]
    pair_w = w[y][:, None] * w[~y][None, :]
    won = (diff > 0) + 0.5 * (diff == 0)
    return float((won * pair_w).sum() / pair_w.sum())
''',
        spec=FunctionSpec(
            reference=_auc_weighted_reference,
            cases=lambda seed: _cases.binary_cases(seed, weights=True),
            wrong_versions=(
                (auc_unweighted, "The weights are ignored: a pair weighs w_i * w_j."),
                (auc_tie_version(0.0), HINTS["ties_zero"]),
                (auc_tie_version(1.0), HINTS["ties_one"]),
            ),
            signature="y_true, y_score, sample_weight", public=_cases.WEIGHTED_PUBLIC),
        worked="The same pair matrix as without weights, each cell weighted by "
               "w_i w_j, divided by the total pair weight.",
    ),
]


# --------------------------------------------------------------------- checkpoint
#: The answers of a checkpoint: one letter, with or without its parentheses.
_LETTERS = {c: c for c in "abcde"} | {f"({c})": c for c in "abcde"}

#: The chapter's checkpoint (issue 28, item 3): a conceptual question after the summary,
#: the same for every student (no variants). In the chapter it follows the warm-up on
#: Table 1's pairs (which stands before the chapter counts them) and precedes the other
#: exercises; sphinx-exercise numbers the exercises in page order, so it is second here.
EXERCISES.insert(1, value_exercise(
    id="checkpoint-03-order", chapter=3, title="What keeps the AUC",
    question="""
Which of these changes of a sample's scores leaves its ROC AUC the same, whatever the
sample?

- (a) rounding every score to two decimals
- (b) replacing every score $b$ by $-b$
- (c) replacing every score by its rank among all the scores, tied scores sharing their
  average rank
- (d) raising every score below the median score to the median
- (e) removing the positive with the highest score

Answer with one letter as a string, `"a"` to `"e"`.
""",
    answer_name="checkpoint_3",
    solution_code='checkpoint_3 = "c"',
    solution="c",
    checker=ChoiceChecker("c", _LETTERS, mistakes={
        "a": "Rounding can send two different scores to one value: a positive and a "
             "negative that were ordered become a tie, which counts one half.",
        "b": "Negating reverses every comparison: each correctly ordered pair becomes a "
             "wrongly ordered one.",
        "d": "Raising the low scores to the median merges them into one value: pairs of a "
             "positive and a negative among them become ties.",
        "e": "Removing a positive removes a row of the grid, and with it a row of pairs "
             "that need not be ordered like the others: the share can change.",
    }),
    worked="Ranks keep every comparison, ties included; rounding and raising to the "
           "median can create ties, negating reverses the order, removing a positive "
           "changes the pairs.",
))
