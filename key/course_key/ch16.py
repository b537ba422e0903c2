"""Chapter 16 exercises: more than two classes (one-vs-rest, one-vs-one, Hand and Till's M)."""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations

import numpy as np

from course_lib.exercises._core import (
    FunctionSpec,
    Mistake,
    exact,
    function_exercise,
    numbers_close,
    value_exercise,
)
from course_lib.multiclass import ovo_auc, ovr_auc
from course_lib.roc import roc_auc

# The small table of the first exercises: classes a, b, c; the scores of class a.
_Y = ["a", "a", "b", "b", "b", "c"]
_P = [[0.6, 0.3, 0.1], [0.3, 0.3, 0.4], [0.3, 0.5, 0.2],
      [0.2, 0.6, 0.2], [0.1, 0.8, 0.1], [0.4, 0.2, 0.4]]

_OVR_A = Fraction(ovr_auc(_Y, _P, average=None, exact=True)[0])  # 13/16
_M = Fraction(ovo_auc(_Y, _P, exact=True))
_MACRO = Fraction(ovr_auc(_Y, _P, exact=True))

# A(a|b) = 9/10 and A(a|c) = 3/5 with 30 objects of b and 10 of c.
_FROM_PAIRS = (30 * Fraction(9, 10) + 10 * Fraction(3, 5)) / 40
_MORE_C = (30 * Fraction(9, 10) + 90 * Fraction(3, 5)) / 120


def _hand_till_m(y, P):
    """Reference: Hand and Till's M of labels 0..c-1 and a score matrix."""
    return float(ovo_auc(np.asarray(y), np.asarray(P, dtype=float), probabilities=False))


def _ovr_macro(y, P):
    return float(ovr_auc(np.asarray(y), np.asarray(P, dtype=float), probabilities=False))


def _one_direction(y, P):
    y, P = np.asarray(y), np.asarray(P, dtype=float)
    c = P.shape[1]
    vals = []
    for i, j in combinations(range(c), 2):
        m = (y == i) | (y == j)
        vals.append(roc_auc(y[m] == i, P[m, i]))
    return float(np.mean(vals))


def _m_cases(seed: int) -> list[dict]:
    """Labels 0..c-1 with every class present; probability rows on a coarse grid
    (many ties), so a solution that breaks ties differently fails."""
    rng = np.random.default_rng(seed)
    cases = [{"y": [0, 1, 2], "P": [[0.5, 0.25, 0.25], [0.25, 0.5, 0.25],
                                    [0.25, 0.25, 0.5]]},
             {"y": [0, 0, 1, 2], "P": [[0.5, 0.5, 0.0], [0.2, 0.4, 0.4],
                                       [0.2, 0.4, 0.4], [0.5, 0.0, 0.5]]}]
    for _ in range(10):
        c = int(rng.integers(3, 6))
        n = int(rng.integers(c + 1, 30))
        y = np.concatenate([np.arange(c), rng.integers(0, c, n - c)])
        k = rng.integers(0, 4, size=(n, c)).astype(float)
        k[k.sum(axis=1) == 0, 0] = 1.0
        P = np.round(k / k.sum(axis=1, keepdims=True), 6)
        cases.append({"y": [int(v) for v in y], "P": P.tolist()})
    return cases


def _judge_m(case, expected, given):
    return numbers_close(expected, given, 1e-9)


EXERCISES = [
    value_exercise(
        id="ovr-auc-one-class", chapter=16, title="One class against the rest",
        question="""
Six objects of three classes a, b, c (labels `["a", "a", "b", "b", "b", "c"]`) get the
probability rows `[[0.6, 0.3, 0.1], [0.3, 0.3, 0.4], [0.3, 0.5, 0.2], [0.2, 0.6, 0.2],
[0.1, 0.8, 0.1], [0.4, 0.2, 0.4]]` (columns a, b, c). What is the one-vs-rest AUC of
class a (exactly; ties count 1/2)?
""",
        answer_name="auc_a_rest",
        solution_code=(
            'y = np.array(["a", "a", "b", "b", "b", "c"])\n'
            "P = np.array([[0.6, 0.3, 0.1], [0.3, 0.3, 0.4], [0.3, 0.5, 0.2],\n"
            "              [0.2, 0.6, 0.2], [0.1, 0.8, 0.1], [0.4, 0.2, 0.4]])\n"
            'auc_a_rest = cl.roc_auc(y == "a", P[:, 0], exact=True)'),
        solution=_OVR_A,
        checker=exact(_OVR_A, mistakes=[
            Mistake(Fraction(3, 4), "A tie counts 1/2, not 0: the 0.3 of class a ties with "
                                    "the 0.3 of a class-b object."),
            Mistake(Fraction(7, 8), "A tie counts 1/2, not 1."),
        ]),
        worked="Class a scores 0.6 and 0.3; the rest score 0.3, 0.2, 0.1, 0.4. Of the 8 "
               "pairs, 0.6 wins 4, 0.3 wins 2 and ties 1: 6.5/8 = 13/16.",
    ),
    value_exercise(
        id="hand-till-m-small", chapter=16, title="Hand and Till's M of the small table",
        question="""
The same six objects and probability rows. Compute Hand and Till's $M$: for every pair
of classes $(i, j)$ the mean of $A(i|j)$ and $A(j|i)$ (each computed on the objects of
the two classes only, with the column of the positive class), then the mean over the
three pairs. Give it exactly.
""",
        answer_name="m_small",
        solution_code=(
            'y = np.array(["a", "a", "b", "b", "b", "c"])\n'
            "P = np.array([[0.6, 0.3, 0.1], [0.3, 0.3, 0.4], [0.3, 0.5, 0.2],\n"
            "              [0.2, 0.6, 0.2], [0.1, 0.8, 0.1], [0.4, 0.2, 0.4]])\n"
            "pair_areas = []\n"
            'for i, j in [("a", "b"), ("a", "c"), ("b", "c")]:\n'
            "    both = (y == i) | (y == j)\n"
            '    col_i, col_j = "abc".index(i), "abc".index(j)\n'
            "    a_ij = cl.roc_auc(y[both] == i, P[both, col_i], exact=True)\n"
            "    a_ji = cl.roc_auc(y[both] == j, P[both, col_j], exact=True)\n"
            "    pair_areas.append((a_ij + a_ji) / 2)\n"
            "m_small = sum(pair_areas) / 3"),
        solution=_M,
        checker=exact(_M, mistakes=[
            Mistake(_MACRO, "That is the macro one-vs-rest average; M compares the "
                            "classes two at a time, on the objects of the pair only."),
        ]),
        worked="A(a, b) = (11/12 + 1)/2 = 23/24, A(a, c) = (1/2 + 3/4)/2 = 5/8, "
               "A(b, c) = (1 + 1)/2 = 1; their mean is M = 31/36.",
    ),
    value_exercise(
        id="ovr-from-pairwise", chapter=16, title="One-vs-rest from the pairs",
        question="""
In a test set, class a is separated from class b with $A(a|b) = 0.9$ and from class c
with $A(a|c) = 0.6$ (both with the scores of class a). The test set holds 30 objects of
class b and 10 of class c. What is the one-vs-rest AUC of class a (exactly)?
""",
        answer_name="auc_a_ovr",
        solution_code="auc_a_ovr = (30 * Fraction(9, 10) + 10 * Fraction(3, 5)) / 40",
        solution=_FROM_PAIRS,
        checker=exact(_FROM_PAIRS, mistakes=[
            Mistake(Fraction(3, 4), "The rest is not an even mix: weigh each class by its "
                                    "number of objects, 30 and 10."),
            Mistake((10 * Fraction(9, 10) + 30 * Fraction(3, 5)) / 40,
                    "The weights are swapped: class b has 30 objects, class c 10."),
        ]),
        worked="The negatives of class a are the 40 objects of b and c; the pairs with b "
               "make 30/40 of them: (30 * 0.9 + 10 * 0.6)/40 = 0.825.",
    ),
    value_exercise(
        id="ovr-more-of-c", chapter=16, title="The same model, more of class c",
        question="""
The same model is used where class c is nine times as common: 30 objects of class b
and 90 of class c, each class scored as before (so $A(a|b) = 0.9$ and $A(a|c) = 0.6$
do not change). What is the one-vs-rest AUC of class a now (exactly)?
""",
        answer_name="auc_a_more_c",
        solution_code="auc_a_more_c = (30 * Fraction(9, 10) + 90 * Fraction(3, 5)) / 120",
        solution=_MORE_C,
        checker=exact(_MORE_C, mistakes=[
            Mistake(_FROM_PAIRS, "The pairwise areas stay, but the mix of the rest "
                                 "changed: class c now makes 90/120 of it."),
        ]),
        worked="(30 * 0.9 + 90 * 0.6)/120 = 0.675: the one-vs-rest area of class a fell "
               "although nothing about how the model separates a from b or from c changed; "
               "A(a, b), A(a, c) and so M are unchanged.",
    ),
    function_exercise(
        id="hand-till-m-function", chapter=16, title="Write Hand and Till's M",
        question="""
Write `hand_till_m(y, P)`: given labels `y` (the integers $0, \\dots, c-1$, every class
present) and an $n \\times c$ list of probability rows `P` (column $j$ for class $j$),
return Hand and Till's $M$ as a float. Ties count 1/2. You may use `cl.roc_auc` for the
binary areas, but not `cl.ovo_auc`.
""",
        answer_name="hand_till_m",
        solution_code='''
def hand_till_m(y, P):
    y, P = np.asarray(y), np.asarray(P, dtype=float)
    c = P.shape[1]
    pairs = []
    for i in range(c):
        for j in range(i + 1, c):
            both = (y == i) | (y == j)
            a_ij = cl.roc_auc(y[both] == i, P[both, i])
            a_ji = cl.roc_auc(y[both] == j, P[both, j])
            pairs.append((a_ij + a_ji) / 2)
    return float(np.mean(pairs))
''',
        spec=FunctionSpec(
            reference=_hand_till_m, cases=_m_cases, judge=_judge_m,
            wrong_versions=(
                (_ovr_macro, "That is the macro one-vs-rest average: M uses only the "
                             "objects of the two classes of each pair."),
                (_one_direction, "Average both directions of each pair: A(i|j) with "
                                 "column i and A(j|i) with column j."),
            ),
            signature="y, P"),
        worked="Loop over the pairs i < j, keep the objects of the two classes, average "
               "the two binary areas, then average over the pairs.",
    ),
]
