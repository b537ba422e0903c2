"""Chapter 6 exercises: the Gini coefficient of a classifier, CAP curves, inversions."""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from course_lib import gini_normalized, gini_unnormalized, roc_auc
from course_lib.exercises._core import (
    ChoiceChecker,
    Exercise,
    FunctionSpec,
    Mistake,
    exact,
    function_exercise,
    parts,
    quiet,
    value_exercise,
    with_variants,
    with_whole_mistakes,
)

from . import _cases
from ._hints import HINTS, auc_tie_version, gini_mistakes, keep_distinct
from ._variants import decimal_text, draw_table, number_word, redraw, table_sentence
from .ch03 import TABLE1, TABLE1_TEXT


@quiet
def _gini_reference(y_true, y_score):
    return 2 * float(roc_auc(y_true, y_score)) - 1


def _wrong_gini(tie=0.5, form="2a-1"):
    auc = auc_tie_version(tie)

    def gini(y_true, y_score):
        a = auc(y_true, y_score)
        return {"2a-1": 2 * a - 1, "a": a, "1-a": 1 - a}[form]

    return gini


def _gini_unnorm(y_true, y_score):
    return float(gini_unnormalized(y_true, y_score))


def _auc_from_gini(data: dict) -> Exercise:
    gini = Fraction(data["gini"])
    auc = (1 + gini) / 2
    return value_exercise(
        id="auc-from-gini", chapter=6, title="From Gini to AUC",
        question=f"""
A credit model has a normalized Gini coefficient of {decimal_text(gini)}. What is its ROC AUC?
""",
        answer_name="auc_from_gini",
        solution_code=f"auc_from_gini = (1 + Fraction({gini.numerator}, {gini.denominator})) / 2",
        solution=auc,
        checker=exact(auc, mistakes=keep_distinct(auc, [
            Mistake(gini, "This is the Gini coefficient itself; the question asks for "
                          "the AUC."),
            Mistake(1 - gini, "The Gini coefficient is not 1 - AUC: it rescales the AUC so "
                              "that a random ranking gives 0."),
            Mistake(gini / 2, "Halving the Gini coefficient is not enough: a random ranking "
                              "has Gini 0 but AUC one half."),
        ])),
        worked=f"AUC = (1 + Gini)/2 = {decimal_text(auc)}.",
    )


def _draw_gini(rng: np.random.Generator) -> dict:
    return {"gini": f"{int(rng.integers(15, 86))}/100"}


def _gini_table(data: dict) -> Exercise:
    y, b = data["y"], data["b"]
    gini = gini_normalized(y, b, exact=True)
    auc = roc_auc(y, b, exact=True)
    return value_exercise(
        id="gini-normalized-table1", chapter=6, title="The Gini coefficient of Table 1",
        question=f"""
{table_sentence(data, TABLE1, TABLE1_TEXT)}
What is the normalized Gini coefficient of these scores: the area between the CAP
curve and the diagonal divided by the same area for the ideal ranking? (Exact.)
""",
        answer_name="gini_table1",
        solution_code=f"gini_table1 = cl.gini_normalized({list(y)},\n"
                      f"                                {list(b)}, "
                      "exact=True)",
        solution=gini,
        checker=exact(gini, mistakes=gini_mistakes(
            y, b, unnormalized=gini_unnormalized(y, b, exact=True))),
        worked=f"It equals 2 AUC - 1 = 2 x {auc} - 1 = {gini}.",
    )


def _duplicated(data: dict) -> Exercise:
    y, b = list(data["y"]), list(data["b"])
    extra_y = [0] * (len(y) - sum(y))
    extra_b = [v for v, c in zip(b, y) if c == 0]
    y2, b2 = y + extra_y, b + extra_b
    auc2 = roc_auc(y2, b2, exact=True)
    g2 = gini_normalized(y2, b2, exact=True)
    s1 = gini_unnormalized(y, b, exact=True)
    s2 = gini_unnormalized(y2, b2, exact=True)
    return value_exercise(
        id="gini-duplicated-negatives", chapter=6, title="Repeat every negative",
        question=f"""
{table_sentence(data, TABLE1, TABLE1_TEXT)}
Repeat every negative once more ({number_word(2 * len(extra_y))} negatives, \
{number_word(sum(y))} positives). Give, exactly, the
ROC AUC, the normalized Gini and the unnormalized Gini (the area between the CAP curve
and the diagonal) of the new sample, as a tuple in this order.
""",
        answer_name="duplicated",
        solution_code=f"y2 = {y} + {extra_y}\n"
                      f"b2 = {b} + {extra_b}\n"
                      "duplicated = (cl.roc_auc(y2, b2, exact=True),\n"
                      "              cl.gini_normalized(y2, b2, exact=True),\n"
                      "              cl.gini_unnormalized(y2, b2, exact=True))",
        solution=(auc2, g2, s2),
        checker=parts(
            auc=exact(auc2), gini_normalized=exact(g2),
            gini_unnormalized=exact(s2, mistakes=keep_distinct(s2, [
                Mistake(s1, "The unnormalized area changes with the class balance: the "
                            "ideal area m0/(2m) grows with the share of negatives."),
                Mistake(g2, HINTS["unnormalized_gini"])]))),
        worked=f"Every pair counts twice: AUC {auc2} and Gini {g2} stay; the unnormalized "
               f"area {'grows' if s2 > s1 else 'changes'} from {s1} to {s2}.",
    )


def _draw_duplicated(rng: np.random.Generator) -> dict:
    """A table whose AUC differs from Table 1's, so that no part of the book's answer
    is right."""
    book = roc_auc(TABLE1["y"], TABLE1["b"], exact=True)
    return redraw(rng, draw_table, lambda t: roc_auc(t["y"], t["b"], exact=True) != book)


def _bubble_swaps(data: dict) -> Exercise:
    m1, m0 = data["positives"], data["negatives"]
    n = m1 + m0
    worst = m1 * m0
    return value_exercise(
        id="bubble-swaps", chapter=6, title="Bubble-sort swaps",
        question=f"""
{number_word(n, capital=True)} objects, {m1} positive and {m0} negative, are listed by \
increasing score. Bubble sort
puts the labels in increasing order (negatives first); each swap of neighbours fixes one
wrongly ordered (positive, negative) pair. How many swaps does the ideal model (all
negatives scored below all positives) need, and how many the worst (all positives
below)? Answer a tuple (ideal, worst).
""",
        answer_name="swaps",
        solution_code=f"swaps = (cl.count_inversions([0] * {m0} + [1] * {m1}),\n"
                      f"         cl.count_inversions([1] * {m1} + [0] * {m0}))",
        solution=(0, worst),
        checker=with_whole_mistakes(
            parts(ideal=exact(0), worst=exact(worst, mistakes=[
                Mistake(n * (n - 1) // 2, "Only (positive, negative) pairs can be out of "
                        f"order, not all {n} x {n - 1} / 2 pairs of objects.")])),
            ((worst, 0), "The ideal model lists the negatives first by increasing score, so "
                         "it needs no swap.")),
        worked=f"The ideal needs 0 swaps, the worst all {m1} x {m0} = {worst}; Gini is 1 "
               "and -1.",
    )


def _draw_swaps(rng: np.random.Generator) -> dict:
    m1 = int(rng.integers(3, 13))
    return {"positives": m1, "negatives": int(rng.integers(m1 + 2, 26))}


EXERCISES = [
    # Table 1's Gini is a predict-then-run warm-up before the chapter computes it
    # (issue 28, item 2), so it comes first in the page and here
    with_variants(_gini_table, TABLE1, draw_table),
    with_variants(_auc_from_gini, {"gini": "2/5"}, _draw_gini),
    with_variants(_duplicated, TABLE1, _draw_duplicated),
    with_variants(_bubble_swaps, {"positives": 6, "negatives": 9}, _draw_swaps),
    function_exercise(
        id="gini-normalized-function", chapter=6, title="Write the normalized Gini",
        question="""
Write `gini_normalized(y_true, y_score)`: the normalized Gini coefficient (a float) of
labels and scores, ties between a positive and a negative counting one half; return
`float("nan")` when a class is missing.
""",
        answer_name="gini_normalized_answer",
        solution_code='''
def gini_normalized_answer(y_true, y_score):
    y = np.asarray(y_true, dtype=bool)
    b = np.asarray(y_score, dtype=float)
    if y.all() or not y.any():
        return float("nan")
    d = b[y][:, None] - b[~y][None, :]
    auc = ((d > 0) + 0.5 * (d == 0)).mean()
    return float(2 * auc - 1)
''',
        spec=FunctionSpec(
            reference=_gini_reference, cases=_cases.binary_cases,
            wrong_versions=(
                (_wrong_gini(form="a"), HINTS["auc_not_gini"]),
                (_wrong_gini(form="1-a"), HINTS["gini_one_minus_auc"]),
                (_gini_unnorm, HINTS["unnormalized_gini"]),
                (_wrong_gini(tie=0.0), HINTS["ties_zero"]),
                (_wrong_gini(tie=1.0), HINTS["ties_one"]),
            ),
            signature="y_true, y_score", public=_cases.BINARY_PUBLIC),
        worked="The normalized Gini is 2 AUC - 1, ties included.",
    ),
]


# --------------------------------------------------------------------- checkpoint
#: The answers of a checkpoint: one letter, with or without its parentheses.
_LETTERS = {c: c for c in "abcde"} | {f"({c})": c for c in "abcde"}

#: The chapter's checkpoint (issue 28, item 3): a conceptual question after the summary,
#: the same for every student (no variants). In the chapter it follows the warm-up on
#: Table 1's Gini and precedes the other exercises; sphinx-exercise numbers the
#: exercises in page order, so it is second here.
EXERCISES.insert(1, value_exercise(
    id="checkpoint-06-same-number", chapter=6, title="Which number is not the Gini?",
    question="""
A scorer is judged on a labelled sample in which some positives and negatives share a
score. Which of these numbers is, in general, not its normalized Gini coefficient?

- (a) $2\\,\\mathrm{AUC} - 1$
- (b) the accuracy ratio read off its CAP curve
- (c) Somers' $D$ of the score with respect to the label,
  `scipy.stats.somersd(y_true, y_score)`
- (d) Somers' $D$ of the label with respect to the score,
  `scipy.stats.somersd(y_score, y_true)`
- (e) 1 minus twice the share of wrongly ordered (positive, negative) pairs, a tie
  counting one half

Answer with one letter as a string, `"a"` to `"e"`.
""",
    answer_name="checkpoint_6",
    solution_code='checkpoint_6 = "d"',
    solution="d",
    checker=ChoiceChecker("d", _LETTERS, mistakes={
        "a": "The chapter proves this identity twice, ties included.",
        "b": "Credit scoring's accuracy ratio is the same ratio of two areas under the CAP "
             "curve.",
        "c": "With the label first, Somers' D counts concordant minus discordant pairs over "
             "the pairs not tied in the label: the m1 m0 (positive, negative) pairs.",
        "e": "The share of wrongly ordered pairs, a tie counting one half, is 1 - AUC.",
    }),
    worked="Somers' D of the label given the score divides by all pairs with different "
           "scores, pairs within a class included: another number.",
))
