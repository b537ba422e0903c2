"""Chapter 2 exercises: the ROC curve as a walk on a grid.

The value exercises on Table 1 have per-student variants on tables drawn like it (seven
objects, three positives, one tie across the classes, see :mod:`course_key._variants`);
the question whether a node next to the path is reachable (the book's answer, no, cannot
change) asks in its variants about two nodes of a drawn table, one beside the tie's
diagonal and one on the path, in a drawn order.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np

from course_lib import randomized_roc_point, roc_auc, roc_curve, roc_point
from course_lib.exercises._core import (
    ChoiceChecker,
    Exercise,
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
    with_variants,
    with_whole_mistakes,
    yes_no,
)

from . import _cases
from ._hints import HINTS, auc_mistakes, keep_distinct
from ._variants import (
    book_or_table_text,
    cross_tie,
    decimal_text,
    draw_table,
    fraction_code,
    ids_text,
    parse_ratio,
    points_text,
    small_number_word,
)
from .ch03 import TABLE1, TABLE1_TEXT


def _text(data: dict) -> str:
    return book_or_table_text(data, TABLE1, TABLE1_TEXT)


def _exact_curve(y: Any, b: Any) -> list[tuple[Fraction, Fraction]]:
    c = roc_curve(y, b)
    return [(Fraction(f).limit_denominator(1000), Fraction(t).limit_denominator(1000))
            for f, t in zip(c.fpr, c.tpr)]


def _whole_mistakes(right: tuple, mistakes: list[tuple[tuple, str]]) -> list[tuple[tuple, str]]:
    """Drop whole-answer mistakes equal to the right answer or to an earlier one."""
    out: list[tuple[tuple, str]] = []
    seen = [tuple(right)]
    for value, hint in mistakes:
        if tuple(value) not in seen:
            seen.append(tuple(value))
            out.append((value, hint))
    return out


def _plain(point: tuple) -> tuple:
    """A point with its whole coordinates as ints, as the book writes them: (1, 1/2)."""
    return tuple(int(v) if Fraction(v).denominator == 1 else v for v in point)


def _count_text(k: int, total: int, word: str) -> str:
    if k == total:
        return f"all {total} {word}s"
    if k == 0:
        return f"none of the {total} {word}s"
    return f"{k} of the {total} {word}s"


def _roc_point_table(data: dict) -> Exercise:
    y, b, theta = data["y"], data["b"], data["theta"]
    fpr, tpr = roc_point(y, b, theta)
    strict = (Fraction(sum(s > theta for s, v in zip(b, y) if v == 0), len(y) - sum(y)),
              Fraction(sum(s > theta for s, v in zip(b, y) if v == 1), sum(y)))
    called = sorted((i for i in range(len(y)) if b[i] >= theta), key=lambda i: (-b[i], i))
    tp = sum(y[i] for i in called)
    m1 = sum(y)
    return value_exercise(
        id="roc-point-table1", chapter=2, title="The ROC point of one threshold",
        question=f"""
{_text(data)}
The rule calls an object positive when $b \\ge \\theta$. Give the point
$(\\mathrm{{FPR}}, \\mathrm{{TPR}})$ of the threshold $\\theta = {theta}$ as a tuple of two
exact numbers.
""",
        answer_name="point_02",
        solution_code=f"point_02 = cl.roc_point({list(y)},\n"
                      f"                        {list(b)}, {theta})",
        solution=(fpr, tpr),
        checker=with_whole_mistakes(
            parts(fpr=exact(fpr), tpr=exact(tpr)),
            *_whole_mistakes((fpr, tpr), [(_plain((tpr, fpr)), HINTS["swapped"]),
                                          (_plain(strict), HINTS["strict_threshold"])])),
        worked=f"At b >= {theta} the objects {ids_text([i + 1 for i in called], last=', ')} "
               f"are called positive: {_count_text(tp, m1, 'positive')} and "
               f"{_count_text(len(called) - tp, len(y) - m1, 'negative')}, so ({fpr}, {tpr}).",
    )


def _draw_tie_threshold(rng: np.random.Generator) -> dict:
    """A table like Table 1 and, as in the book, the threshold at its tied score (not
    the lowest score, whose point would be (1, 1))."""
    while True:
        table = draw_table(rng)
        score = cross_tie(table)[2]
        if score > min(table["b"]):
            return {**table, "theta": score}


def _split_curves(y: Any, b: Any) -> list[list[tuple[Fraction, Fraction]]]:
    """The walks that split the tied pair: its positive first, then its negative first."""
    pos, neg, _ = cross_tie({"y": y, "b": b})
    out = []
    for first in (pos, neg):
        nudged = list(b)
        nudged[first] = round(b[first] + 0.01, 3)
        out.append(_exact_curve(y, nudged))
    return out


def _walk_text(y: Any, b: Any) -> str:
    """The walk from the highest score down, runs of single objects of one class merged:
    "Scores 0.6 (positive): up; ... 0.1 and 0.0 (negatives): right, right."."""
    groups = []
    for s in sorted(set(b), reverse=True):
        pos = sum(1 for v, t in zip(y, b) if t == s and v == 1)
        neg = sum(1 for v, t in zip(y, b) if t == s and v == 0)
        groups.append((s, pos, neg))
    runs: list[list[tuple]] = []
    for g in groups:
        single = g[1] + g[2] == 1
        if (runs and single and runs[-1][-1][1] + runs[-1][-1][2] == 1
                and runs[-1][-1][1] == g[1]):
            runs[-1].append(g)
        else:
            runs.append([g])
    items = []
    for run in runs:
        s, pos, neg = run[0]
        scores = ids_text([g[0] for g in run])
        if pos and neg:
            kind = ("one of each" if (pos, neg) == (1, 1) else
                    f"{pos} positive{'s' * (pos > 1)} and {neg} negative{'s' * (neg > 1)}")
            items.append(f"{scores} ({kind}): diagonal")
            continue
        word = "positive" if pos else "negative"
        count = pos + neg
        if len(run) > 1:
            kind = f"{word}s"
        else:
            kind = word if count == 1 else f"{small_number_word(count)} {word}s"
        move = ", ".join(["up" if pos else "right"] * len(run))
        items.append(f"{scores} ({kind}): {move}")
    return "Scores " + "; ".join(items) + "."


def _roc_vertices(data: dict) -> Exercise:
    y, b = data["y"], data["b"]
    vertices = _exact_curve(y, b)
    ascending = _exact_curve(y, [-v for v in b])
    split = _split_curves(y, b)
    pos, neg, _ = cross_tie(data)

    def judge(answer: Any) -> str | None:
        try:
            pts = as_points(answer)
        except Reject as exc:
            return str(exc)
        if same_points(pts, vertices):
            return None
        if same_points([(q, p) for p, q in pts], vertices):
            return HINTS["swapped"]
        if same_points(pts, ascending) or same_points(pts[::-1], vertices):
            return ("The walk goes from the highest score down (descending order), "
                    "starting at (0, 0).")
        if any(same_points(pts, c) for c in split):
            return (HINTS["ties_split"] + f" The tied objects {pos + 1} and {neg + 1} form "
                    "one diagonal step.")
        if pts and not same_points(pts[:1], [(0, 0)]):
            return "The curve starts at (0, 0): nothing is called positive."
        return (f"{describe(answer)} are not the vertices: list the node reached after each "
                "group of equal scores, from (0, 0) to (1, 1).")

    return value_exercise(
        id="roc-vertices-table1", chapter=2, title="The vertices of the ROC curve",
        question=f"""
{_text(data)}
List the vertices of the ROC curve, from $(0, 0)$ to $(1, 1)$, as a list of
$(\\mathrm{{FPR}}, \\mathrm{{TPR}})$ pairs: one node per group of equal scores, taken
from the highest score down.
""",
        answer_name="roc_vertices",
        solution_code=f"curve = cl.roc_curve({list(y)},\n"
                      f"                     {list(b)})\n"
                      "roc_vertices = list(zip(curve.fpr.tolist(), curve.tpr.tolist()))",
        solution=vertices,
        checker=PredicateChecker(
            judge, success=f"correct: the {small_number_word(len(vertices))} vertices"),
        worked=_walk_text(y, b),
    )


def _auc_moved(data: dict) -> Exercise:
    y, b, to = data["y"], data["b"], data["to"]
    pos, neg, score = cross_tie(data)
    if not 0 < abs(to - score) < 0.1 or to < 0:
        raise ValueError("the tied positive moves by less than one step of the grid")
    moved = list(b)
    moved[pos] = to
    before = roc_auc(y, b, exact=True)
    after = roc_auc(y, moved, exact=True)
    up = to > score
    half_pair = Fraction(1, 2 * sum(y) * (len(y) - sum(y)))
    return value_exercise(
        id="auc-moved-object5", chapter=2, title="Move one object",
        question=f"""
{_text(data)}
Move object {pos + 1} (a positive) from the score {score} to {to}. What is the new ROC AUC
(exactly)?
""",
        answer_name="auc_moved",
        solution_code=f"auc_moved = cl.roc_auc({list(y)},\n"
                      f"                       {moved}, exact=True)",
        solution=after,
        checker=exact(after, mistakes=keep_distinct(after, [
            Mistake(before, f"The tie between objects {pos + 1} and {neg + 1} is broken, so "
                            f"that pair now counts {1 if up else 0} instead of one half: the value "
                            "changes.")]
            + list(auc_mistakes(y, moved)))),
        worked=f"The tied pair ({pos + 1}, {neg + 1}) becomes "
               f"{'correctly' if up else 'wrongly'} ordered: {before} "
               f"{'+' if up else '-'} {half_pair} = {after}.",
    )


def _draw_moved(rng: np.random.Generator) -> dict:
    """A table like Table 1 whose tied positive moves up or down by half a step of the
    grid (breaking the tie, crossing no other score)."""
    table = draw_table(rng)
    score = cross_tie(table)[2]
    down = score > 0 and rng.random() < 0.5
    return {**table, "to": round(score - 0.05 if down else score + 0.05, 2)}


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


#: The public cases: a threshold between the classes, on a tie across them and below
#: every score, with one class missing, and a reversed pair.
_POINT_PUBLIC = (
    {"y_true": [1, 0], "y_score": [0.9, 0.1], "threshold": 0.5},
    {"y_true": [0, 1], "y_score": [0.9, 0.1], "threshold": 0.9},
    {"y_true": [1, 0, 1, 0], "y_score": [0.3, 0.3, 0.3, 0.3], "threshold": 0.3},
    {"y_true": [1, 1, 1], "y_score": [0.2, 0.5, 0.7], "threshold": 0.5},
    {"y_true": [0, 1, 0, 0, 1], "y_score": [0.4, 0.4, 0.1, 0.4, 0.8], "threshold": 0.4},
)


def _point_cases(seed: int) -> list[dict]:
    out = []
    for i, case in enumerate(_cases.binary_cases(seed)):
        scores = sorted(set(case["y_score"]))
        out.append({**case, "threshold": scores[i % len(scores)]})
    return out


def _mixed_thresholds(data: dict) -> Exercise:
    y, b = data["y"], data["b"]
    theta_a, theta_b = data["theta_a"], data["theta_b"]
    qp, qq = parse_ratio(data["q"])
    q = Fraction(qp, qq)
    if not 0 < q < 1 or q == Fraction(1, 2) or theta_a == theta_b:
        raise ValueError("two thresholds and a probability in (0, 1) other than 1/2")
    point = randomized_roc_point(y, b, theta_a, theta_b, q=q)
    swapped_q = randomized_roc_point(y, b, theta_a, theta_b, q=1 - q)
    a, bb = roc_point(y, b, theta_a), roc_point(y, b, theta_b)
    # the node of the mixed threshold q theta_a + (1 - q) theta_b (mixing the thresholds
    # instead of the points)
    t = q * Fraction(str(theta_a)) + (1 - q) * Fraction(str(theta_b))
    m1, m0 = sum(y), len(y) - sum(y)
    node = (Fraction(sum(Fraction(str(s)) >= t for s, v in zip(b, y) if v == 0), m0),
            Fraction(sum(Fraction(str(s)) >= t for s, v in zip(b, y) if v == 1), m1))
    on_segment = (node[0] - a[0]) * (bb[1] - a[1]) == (node[1] - a[1]) * (bb[0] - a[0])
    if node in (a, bb):
        same = theta_a if node == a else theta_b
        node_hint = (f"That is the node of threshold {decimal_text(t)} (the node of "
                     f"{same} too): mix the two points, not the thresholds.")
    else:
        node_hint = (f"That is the node of threshold {decimal_text(t)}, "
                     + ("on the segment but not the expected point." if on_segment else
                        "not the expected point: mix the two points, not the thresholds."))
    return value_exercise(
        id="roc-mixed-thresholds", chapter=2, title="Mixing two thresholds",
        question=f"""
{_text(data)}
For each object independently, a rule uses the threshold $\\theta = {theta_a}$ with
probability ${q}$ and the threshold $\\theta = {theta_b}$ otherwise. Give its expected point
$(\\mathrm{{FPR}}, \\mathrm{{TPR}})$ as a tuple of two exact numbers.
""",
        answer_name="mix_point",
        solution_code="mix_point = cl.randomized_roc_point(\n"
                      f"    {list(y)}, {list(b)},\n"
                      f"    {theta_a}, {theta_b}, q=Fraction({qp}, {qq}))",
        solution=point,
        checker=with_whole_mistakes(
            parts(fpr=exact(point[0]), tpr=exact(point[1])),
            *_whole_mistakes(point, [
                ((point[1], point[0]), HINTS["swapped"]),
                (swapped_q, f"The probability {q} belongs to the threshold {theta_a}, not "
                            "to the other one."),
                (node, node_hint)])),
        worked=f"A = {points_text([a])} for {theta_a}, B = {points_text([bb])} for "
               f"{theta_b}: {q} A + {1 - q} B = {points_text([point])}.",
    )


def _draw_mixed(rng: np.random.Generator) -> dict:
    """A table like Table 1, two of its scores (not the lowest) as the thresholds, the
    first used with a probability in fourths or fifths (so that the mixed threshold of
    the typical mistake is a short decimal), not 1/2."""
    table = draw_table(rng)
    levels = sorted(set(table["b"]))[1:]
    ta, tb = (float(v) for v in rng.choice(levels, size=2, replace=False))
    q = str(rng.choice(["1/4", "3/4", "1/5", "2/5", "3/5", "4/5"]))
    return {**table, "theta_a": ta, "theta_b": tb, "q": q}


def _node_reachable_book() -> Exercise:
    """The book's exercise, as printed."""
    return value_exercise(
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
    )


_BOOK_NODE = {**TABLE1, "nodes": [["1/2", "2/3"]]}


def _reached(y: Any, b: Any) -> set[tuple[Fraction, Fraction]]:
    """The grid nodes (FPR, TPR) some threshold gives (selecting nothing included)."""
    out = {(Fraction(0), Fraction(0))}
    for theta in set(b):
        fpr, tpr = roc_point(y, b, theta)
        out.add((Fraction(fpr), Fraction(tpr)))
    return out


def _node_reachable(data: dict) -> Exercise:
    """A variant asks about two grid nodes, one on the path and one beside the tie's
    diagonal (which no threshold gives), in a drawn order."""
    if data == _BOOK_NODE:
        return _node_reachable_book()
    y, b = data["y"], data["b"]
    nodes = [(Fraction(f), Fraction(t)) for f, t in data["nodes"]]
    reached = _reached(y, b)
    answer = tuple(node in reached for node in nodes)
    i, j, score = cross_tie(data)
    shown = [f"({f}, {t})" for f, t in nodes]

    def hint(node: tuple[Fraction, Fraction], ok: bool) -> str:
        if ok:
            theta = min(s for s in set(b) if roc_point(y, b, s) == node) \
                if node != (0, 0) else None
            how = ("selecting nothing gives it" if theta is None else
                   f"the threshold {theta} gives it")
            return f"It is on the path: {how}."
        return (f"Objects {i + 1} and {j + 1} tie at {score}: a threshold calls both "
                "positive or neither, so the path runs diagonally past this node.")

    names = ("first_node", "second_node")
    checker = parts(**{name: yes_no(ok, hint=hint(node, ok))
                       for name, node, ok in zip(names, nodes, answer)})
    worked = []
    for text, node, ok in zip(shown, nodes, answer):
        worked.append(f"{text}: {'yes' if ok else 'no'}, " + hint(node, ok)[0].lower()
                      + hint(node, ok)[1:])
    return value_exercise(
        id="roc-node-reachable", chapter=2, title="A node next to the path",
        question=f"""
{_text(data)}
Can any threshold give the grid node $(\\mathrm{{FPR}}, \\mathrm{{TPR}}) = {shown[0]}$? Can any
threshold give the node ${shown[1]}$? Answer a tuple of two truth values (`True` for yes).
""",
        answer_name="node_reachable",
        solution_code=f"y = {list(y)}\nb = {list(b)}\n"
                      "reached = {(0, 0)} | {cl.roc_point(y, b, theta) for theta in set(b)}\n"
                      "node_reachable = ("
                      + ", ".join(f"({fraction_code(f)}, {fraction_code(t)}) in reached"
                                  for f, t in nodes) + ")",
        solution=answer,
        checker=checker,
        worked=" ".join(worked),
    )


def _draw_node(rng: np.random.Generator) -> dict:
    """A table like Table 1, a corner beside its tie's diagonal and a node on its path
    (neither (0, 0) nor (1, 1)), in a random order."""
    table = draw_table(rng)
    y, b = table["y"], table["b"]
    m1 = sum(y)
    m0 = len(y) - m1
    _i, _j, score = cross_tie(table)
    f = Fraction(sum(1 for s, v in zip(b, y) if v == 0 and s > score), m0)
    t = Fraction(sum(1 for s, v in zip(b, y) if v == 1 and s > score), m1)
    corners = [(f + Fraction(1, m0), t), (f, t + Fraction(1, m1))]
    off = corners[int(rng.integers(2))]
    path = sorted(p for p in _reached(y, b) if p not in ((0, 0), (1, 1)))
    on = path[int(rng.integers(len(path)))]
    nodes = [off, on] if rng.integers(2) else [on, off]
    return {**table, "nodes": [[str(p[0]), str(p[1])] for p in nodes]}


EXERCISES = [
    with_variants(_roc_point_table, {**TABLE1, "theta": 0.2}, _draw_tie_threshold),
    with_variants(_roc_vertices, TABLE1, draw_table),
    with_variants(_auc_moved, {**TABLE1, "to": 0.25}, _draw_moved),
    with_variants(_node_reachable, _BOOK_NODE, _draw_node),
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
            signature="y_true, y_score, threshold", public=_POINT_PUBLIC),
        worked="FPR is the share of negatives at or above the threshold, TPR the share of "
               "positives.",
    ),
    with_variants(_mixed_thresholds,
                  {**TABLE1, "theta_a": 0.6, "theta_b": 0.2, "q": "1/4"}, _draw_mixed),
]


# --------------------------------------------------------------------- checkpoint
#: The answers of a checkpoint: one letter, with or without its parentheses.
_LETTERS = {c: c for c in "abcde"} | {f"({c})": c for c in "abcde"}

#: The chapter's checkpoint (issue 28, item 3): a conceptual question after the summary,
#: the same for every student (no variants). In the chapter it follows the two warm-ups
#: on Table 1 (which stand before the walk) and precedes the other exercises;
#: sphinx-exercise numbers the exercises in page order, so it is third here too.
EXERCISES.insert(2, value_exercise(
    id="checkpoint-02-dent", chapter=2, title="A node under the hull",
    question="""
On a sample's ROC curve, the node of a threshold $\\theta$ lies strictly below the ROC
convex hull: the path has a dent there. Which statement is true?

- (a) No costs and no shares of the classes make $\\theta$ the cheapest threshold.
- (b) $\\theta$ is the cheapest threshold when a miss and a false alarm cost the same.
- (c) The AUC of the sample equals the area under its ROC convex hull.
- (d) Tossing a coin between two other thresholds reaches only points below the path.
- (e) Giving up $\\theta$ (never using it as a threshold) lowers the AUC.

Answer with one letter as a string, `"a"` to `"e"`.
""",
    answer_name="checkpoint_2",
    solution_code='checkpoint_2 = "a"',
    solution="a",
    checker=ChoiceChecker("a", _LETTERS, mistakes={
        "b": "Equal costs give one slope S of the iso-performance lines; the cheapest point "
             "is where the highest line of that slope still meets the curve. Can a line "
             "stop at a point below the hull?",
        "c": "The hull bridges the dent: the area under it adds the triangle between the "
             "dent and the hull's edge.",
        "d": "A coin tossed between two thresholds reaches every point of the segment "
             "between their nodes, and such segments make up the hull.",
        "e": "The AUC is a property of the scores and their order, whatever thresholds one "
             "decides to use.",
    }),
    worked="A line of any slope last touches the curve at a point of the hull; a node "
           "strictly below it is never the cheapest.",
))
