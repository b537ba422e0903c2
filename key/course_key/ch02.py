"""Chapter 2 exercises: the ROC curve as a walk on a grid."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from course_lib import randomized_roc_point, roc_auc, roc_curve, roc_point
from course_lib.exercises._core import (
    FunctionSpec,
    Mistake,
    PredicateChecker,
    Reject,
    as_points,
    describe,
    exact,
    function_exercise,
    parts,
    same_number,
    same_points,
    value_exercise,
    with_whole_mistakes,
    yes_no,
)

from . import _cases
from ._hints import HINTS, auc_mistakes
from .ch03 import TABLE1_B, TABLE1_TEXT, TABLE1_Y

_moved = list(TABLE1_B)
_moved[4] = 0.25
_AUC_MOVED = roc_auc(TABLE1_Y, _moved, exact=True)
_AUC_T1 = roc_auc(TABLE1_Y, TABLE1_B, exact=True)
_MIX = randomized_roc_point(TABLE1_Y, TABLE1_B, 0.6, 0.2, q=Fraction(1, 4))
_MIX_SWAPPED_Q = randomized_roc_point(TABLE1_Y, TABLE1_B, 0.6, 0.2, q=Fraction(3, 4))


def _exact_curve(y: Any, b: Any) -> list[tuple[Fraction, Fraction]]:
    c = roc_curve(y, b)
    return [(Fraction(f).limit_denominator(1000), Fraction(t).limit_denominator(1000))
            for f, t in zip(c.fpr, c.tpr)]


_VERTICES = _exact_curve(TABLE1_Y, TABLE1_B)
_SPLIT_POS_FIRST = _exact_curve(TABLE1_Y, [0.5, 0.1, 0.2, 0.6, 0.21, 0.3, 0.0])
_SPLIT_NEG_FIRST = _exact_curve(TABLE1_Y, [0.5, 0.1, 0.21, 0.6, 0.2, 0.3, 0.0])
_ASCENDING = _exact_curve(TABLE1_Y, [-v for v in TABLE1_B])


def _judge_vertices(answer: Any) -> str | None:
    try:
        pts = as_points(answer)
    except Reject as exc:
        return str(exc)
    if same_points(pts, _VERTICES):
        return None
    if same_points([(q, p) for p, q in pts], _VERTICES):
        return HINTS["swapped"]
    if same_points(pts, _ASCENDING) or same_points(pts[::-1], _VERTICES):
        return ("The walk goes from the highest score down (descending order), starting "
                "at (0, 0).")
    if same_points(pts, _SPLIT_POS_FIRST) or same_points(pts, _SPLIT_NEG_FIRST):
        return (HINTS["ties_split"] + " The tied objects 5 and 3 form one diagonal "
                "step.")
    if pts and not same_points(pts[:1], [(0, 0)]):
        return "The curve starts at (0, 0): nothing is called positive."
    return (f"{describe(answer)} are not the vertices: list the node reached after each "
            "group of equal scores, from (0, 0) to (1, 1).")


def _roc_point_reference(y_true, y_score, threshold):
    try:
        fpr, tpr = roc_point(y_true, y_score, threshold)
    except ValueError:
        return float("nan")
    return (float(fpr), float(tpr))


def _roc_point_strict(y_true, y_score, threshold):
    pos = [s for s, y in zip(y_score, y_true) if y]
    neg = [s for s, y in zip(y_score, y_true) if not y]
    if not pos or not neg:
        return float("nan")
    return (sum(s > threshold for s in neg) / len(neg), sum(s > threshold for s in pos) / len(pos))


def _roc_point_swapped(y_true, y_score, threshold):
    out = _roc_point_reference(y_true, y_score, threshold)
    return out if isinstance(out, float) else (out[1], out[0])


def _judge_pair(case: dict, expected: Any, given: Any) -> str | None:
    if isinstance(expected, float) and math.isnan(expected):
        if isinstance(given, dict) and "__error__" in given:
            return None
        try:
            if all(math.isnan(float(v)) for v in (given if isinstance(given, (list, tuple))
                                                     else [given])):
                return None
        except (TypeError, ValueError):
            pass
        return f"expected nan (one class is missing) or an error, got {describe(given)}"
    if isinstance(given, dict) and "__error__" in given:
        return f"raised {given['__error__']}"
    try:
        pts = as_points([given])
    except Reject as exc:
        return str(exc)
    if same_number(float(pts[0][0]), expected[0], 1e-9) and same_number(
            float(pts[0][1]), expected[1], 1e-9):
        return None
    return f"expected {describe(expected)}, got {describe(given)}"


def _point_cases(seed: int) -> list[dict]:
    out = []
    for i, case in enumerate(_cases.binary_cases(seed)):
        scores = sorted(set(case["y_score"]))
        out.append({**case, "threshold": scores[i % len(scores)]})
    return out


EXERCISES = [
    value_exercise(
        id="roc-point-table1", chapter=2, title="The ROC point of one threshold",
        question=f"""
{TABLE1_TEXT}
The rule calls an object positive when $b \\ge \\theta$. Give the point
$(\\mathrm{{FPR}}, \\mathrm{{TPR}})$ of the threshold $\\theta = 0.2$ as a tuple of two
exact numbers.
""",
        answer_name="point_02",
        solution_code="point_02 = cl.roc_point([0, 0, 0, 1, 1, 1, 0],\n"
                      "                        [0.5, 0.1, 0.2, 0.6, 0.2, 0.3, 0.0], 0.2)",
        solution=roc_point(TABLE1_Y, TABLE1_B, 0.2),
        checker=with_whole_mistakes(
            parts(fpr=exact(Fraction(1, 2)), tpr=exact(1)),
            ((1, Fraction(1, 2)), HINTS["swapped"]),
            ((Fraction(1, 4), Fraction(2, 3)), HINTS["strict_threshold"])),
        worked="At b >= 0.2 the objects 4, 1, 6, 3, 5 are called positive: all 3 positives "
               "and 2 of the 4 negatives, so (1/2, 1).",
    ),
    value_exercise(
        id="roc-vertices-table1", chapter=2, title="The vertices of the ROC curve",
        question=f"""
{TABLE1_TEXT}
List the vertices of the ROC curve, from $(0, 0)$ to $(1, 1)$, as a list of
$(\\mathrm{{FPR}}, \\mathrm{{TPR}})$ pairs: one node per group of equal scores, taken
from the highest score down.
""",
        answer_name="roc_vertices",
        solution_code="curve = cl.roc_curve([0, 0, 0, 1, 1, 1, 0],\n"
                      "                     [0.5, 0.1, 0.2, 0.6, 0.2, 0.3, 0.0])\n"
                      "roc_vertices = list(zip(curve.fpr.tolist(), curve.tpr.tolist()))",
        solution=_VERTICES,
        checker=PredicateChecker(_judge_vertices, success="correct: the seven vertices"),
        worked="Scores 0.6 (positive): up; 0.5 (negative): right; 0.3 (positive): up; 0.2 "
               "(one of each): diagonal; 0.1 and 0.0 (negatives): right, right.",
    ),
    value_exercise(
        id="auc-moved-object5", chapter=2, title="Move one object",
        question=f"""
{TABLE1_TEXT}
Move object 5 (a positive) from the score 0.2 to 0.25. What is the new ROC AUC
(exactly)?
""",
        answer_name="auc_moved",
        solution_code="auc_moved = cl.roc_auc([0, 0, 0, 1, 1, 1, 0],\n"
                      "                       [0.5, 0.1, 0.2, 0.6, 0.25, 0.3, 0.0], exact=True)",
        solution=_AUC_MOVED,
        checker=exact(_AUC_MOVED, mistakes=[
            Mistake(_AUC_T1, "The tie between objects 5 and 3 is broken, so that pair now "
                             "counts 1 instead of 1/2: the value changes.")]
            + list(auc_mistakes(TABLE1_Y, _moved))),
        worked="The tied pair (5, 3) becomes correctly ordered: 19/24 + 1/24 = 5/6.",
    ),
    value_exercise(
        id="roc-node-reachable", chapter=2, title="A node next to the path",
        question=f"""
{TABLE1_TEXT}
Can any threshold give the grid node $(\\mathrm{{FPR}}, \\mathrm{{TPR}}) = (1/2, 2/3)$?
Answer `True` (yes) or `False` (no).
""",
        answer_name="node_reachable",
        solution_code="node_reachable = False",
        solution=False,
        checker=yes_no(False, hint="A threshold cannot separate two objects with equal "
                                   "scores: it reaches only nodes on the path."),
        worked="No: it would need object 3 called positive and object 5 not, but their "
               "scores are equal.",
    ),
    function_exercise(
        id="roc-point-function", chapter=2, title="Write the ROC point of a threshold",
        question="""
Write `roc_point(y_true, y_score, threshold)` returning the pair `(fpr, tpr)` (two
floats) of the rule "positive when `score >= threshold`". When a class is missing
return `float("nan")` (or raise a `ValueError`).
""",
        answer_name="roc_point_answer",
        solution_code='''
def roc_point_answer(y_true, y_score, threshold):
    y = np.asarray(y_true, dtype=bool)
    called = np.asarray(y_score, dtype=float) >= threshold
    if y.all() or not y.any():
        return float("nan")
    return (float(called[~y].mean()), float(called[y].mean()))
''',
        spec=FunctionSpec(
            reference=_roc_point_reference, cases=_point_cases, judge=_judge_pair,
            wrong_versions=((_roc_point_strict, HINTS["strict_threshold"]),
                            (_roc_point_swapped, HINTS["swapped"])),
            signature="y_true, y_score, threshold"),
        worked="FPR is the share of negatives at or above the threshold, TPR the share of "
               "positives.",
    ),
    value_exercise(
        id="roc-mixed-thresholds", chapter=2, title="Mixing two thresholds",
        question=f"""
{TABLE1_TEXT}
For each object independently, a rule uses the threshold $\\theta = 0.6$ with
probability $1/4$ and the threshold $\\theta = 0.2$ otherwise. Give its expected point
$(\\mathrm{{FPR}}, \\mathrm{{TPR}})$ as a tuple of two exact numbers.
""",
        answer_name="mix_point",
        solution_code="mix_point = cl.randomized_roc_point(\n"
                      "    [0, 0, 0, 1, 1, 1, 0], [0.5, 0.1, 0.2, 0.6, 0.2, 0.3, 0.0],\n"
                      "    0.6, 0.2, q=Fraction(1, 4))",
        solution=_MIX,
        checker=with_whole_mistakes(
            parts(fpr=exact(_MIX[0]), tpr=exact(_MIX[1])),
            ((_MIX[1], _MIX[0]), HINTS["swapped"]),
            (_MIX_SWAPPED_Q, "The probability 1/4 belongs to the threshold 0.6: the point "
                             "is 1/4 A + 3/4 B, nearer to B."),
            ((Fraction(1, 4), Fraction(2, 3)), "That is the node of threshold 0.3, on the "
                                               "segment but not the expected point.")),
        worked="A = (0, 1/3) for 0.6, B = (1/2, 1) for 0.2: 1/4 A + 3/4 B = (3/8, 5/6).",
    ),
]
