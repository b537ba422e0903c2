"""Chapter 13 exercises: Dyakonov's eight questions ("Problems")."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np

from course_lib import roc_auc, roc_curve
from course_lib.exercises._core import (
    ChoiceChecker,
    Exercise,
    FunctionSpec,
    Mistake,
    PredicateChecker,
    Reject,
    as_number,
    describe,
    exact,
    function_exercise,
    numbers_close,
    order_reason,
    parts,
    value_exercise,
    with_variants,
    with_whole_mistakes,
    yes_no,
)

from ._checkpoints import checkpoint
from ._hints import HINTS, keep_distinct
from ._variants import and_join, decimal_text, fraction_code, wrap_items

_MODEL_TEXT = ("In the linear-density model the scores lie in $[0, 1]$ with densities "
               "$p_1(b) = 2b$ for positives and $p_0(b) = 2 - 2b$ for negatives; the rule "
               "calls an object positive when $b \\ge \\theta$.")

_EFFECT = {
    "either": "either", "both": "either", "increase or decrease": "either",
    "up or down": "either", "may increase or decrease": "either", "any": "either",
    "none": "none", "unchanged": "none", "no change": "none", "same": "none",
    "increase": "increase", "up": "increase", "decrease": "decrease", "down": "decrease",
}


# A merge makes ties and nothing else (d-q6's book and variants).
_MERGE_ONLY_TIES = "Merging only creates ties: can a pair go from wrong to right?"

# The hints of d-q1's rate of positive predictions (the book's and the variants').
_RPP_NOT_THRESHOLD = ("That is the threshold; the RPP is the share of all objects called "
                      "positive, of both classes.")
_RPP_NOT_TPR = ("That is the TPR, the share of the positives called positive; the RPP "
                "counts the negatives called positive too.")
_RPP_NEGATIVES_SHARE = ("The negatives' part of the RPP counts in proportion to their "
                        "share of the population.")


def _effect(expected: str) -> ChoiceChecker:
    return ChoiceChecker(expected, _EFFECT, mistakes={
        "none": "Merging scores creates ties, and a tie counts one half whatever the pair "
                "was before.",
        "increase": "New ties pull correctly ordered pairs down to one half and wrongly "
                    "ordered pairs up to one half: which pairs does a merge tie?",
        "decrease": "New ties pull correctly ordered pairs down to one half and wrongly "
                    "ordered pairs up to one half: which pairs does a merge tie?",
        "either": "What does a strictly increasing map do to the order of the scores, the "
                  "only thing the AUC sees?",
    })


# ------------------------------------------------------------------ question 2
def _sigmoid(u: float) -> float:
    return 1 / (1 + math.exp(-u)) if u >= 0 else math.exp(u) / (1 + math.exp(u))


def _object_scores(w, reference, objects):
    wv = np.asarray(w, dtype=float)
    ref = np.asarray(reference, dtype=float) @ wv
    return [float(np.mean([_sigmoid(float(v) - r) for r in ref]))
            for v in np.asarray(objects, dtype=float) @ wv]


def _object_scores_reversed(w, reference, objects):
    return [-v for v in _object_scores(w, reference, objects)]


def _judge_order(case: dict, expected: Any, given: Any) -> str | None:
    why = order_reason(expected, given)
    if why is None or not why.endswith("in the wrong order"):
        return why
    return why.replace("are in the wrong order",
                       "are ordered differently from the averaged pair probabilities")


#: One feature; two features and two reference objects; negative weights with a tie.
_PAIR_PUBLIC = (
    {"w": [1.0], "reference": [[0.0]], "objects": [[1.0], [-1.0]]},
    {"w": [1.0, -2.0], "reference": [[0.0, 0.0], [1.0, 1.0]],
     "objects": [[0.5, 0.1], [0.2, 0.9], [-1.0, 0.0]]},
    {"w": [-1.0, 0.5], "reference": [[0.0, 1.0], [1.0, 0.0], [0.5, 0.5]],
     "objects": [[1.0, 2.0], [0.0, 0.0], [2.0, -1.0], [-1.0, 1.0]]},
)


def _pair_cases(seed: int) -> list[dict]:
    rng = np.random.default_rng(seed)
    cases = [{"w": [1.0], "reference": [[0.0]], "objects": [[1.0], [-1.0]]},
             {"w": [1.0, -2.0], "reference": [[0.0, 0.0], [1.0, 1.0]],
              "objects": [[0.5, 0.1], [0.2, 0.9], [-1.0, 0.0]]}]
    for _ in range(6):
        d = int(rng.integers(1, 4))
        cases.append({
            "w": [float(v) for v in np.round(rng.normal(size=d), 3)],
            "reference": [[float(v) for v in np.round(row, 3)]
                          for row in rng.normal(size=(int(rng.integers(1, 15)), d))],
            "objects": [[float(v) for v in np.round(row, 3)]
                        for row in rng.normal(size=(int(rng.integers(2, 12)), d))]})
    return cases


# ------------------------------------------------------------------ question 4
def max_auc_below_one(m: int) -> Fraction:
    """The largest AUC below 1 on ``m >= 2`` objects: one tied pair, balanced classes.

    >>> max_auc_below_one(2), max_auc_below_one(7)
    (Fraction(1, 2), Fraction(23, 24))
    """
    if m < 2:
        raise ValueError(f"m must be at least 2, got {m}")
    return 1 - Fraction(1, 2 * (m // 2) * (m - m // 2))


def _max_auc_reference(m):
    return max_auc_below_one(m)


def _max_auc_no_ties(m):
    return 1 - Fraction(1, (m // 2) * (m - m // 2))


def _max_auc_one_positive(m):
    return 1 - Fraction(1, 2 * (m - 1))


def _max_auc_one_positive_no_ties(m):
    return 1 - Fraction(1, m - 1)


def _judge_exact(case, expected, given):
    return numbers_close(expected, given, 1e-13)


def _m_cases(seed: int) -> list[dict]:
    rng = np.random.default_rng(seed)
    ms = {2, 3, 4, 5, 7, 10} | {int(v) for v in rng.integers(2, 2000, 8)}
    return [{"m": m} for m in sorted(ms)]


# ------------------------------------------------------------------ question 5
def _judge_example_for(a1: Fraction, a2: Fraction):
    """The judge of an example whose two scores have AUCs ``a1`` and ``a2`` and whose
    average has AUC 1 (the book asks for 1/2 and 1/2)."""
    def judge(answer: Any) -> str | None:
        if not isinstance(answer, dict) or not {"y", "b1", "b2"} <= set(answer):
            return "give a dict with the keys 'y', 'b1' and 'b2'"
        try:
            y = [int(as_number(v)) for v in answer["y"]]
            b1 = np.asarray([float(as_number(v)) for v in answer["b1"]])
            b2 = np.asarray([float(as_number(v)) for v in answer["b2"]])
        except (Reject, TypeError, ValueError) as exc:
            return f"could not read the example: {exc}"
        if not (len(y) == b1.size == b2.size):
            return "y, b1 and b2 must have the same length"
        if set(y) != {0, 1}:
            return "the labels must be 0 and 1, with both classes present"
        g1, g2 = roc_auc(y, b1, exact=True), roc_auc(y, b2, exact=True)
        avg = roc_auc(y, (b1 + b2) / 2, exact=True)
        if g1 != a1 or g2 != a2:
            wanted = ("both 1/2" if a1 == a2 == Fraction(1, 2)
                      else f"{describe(a1)} and {describe(a2)}")
            return f"the AUCs of b1 and b2 are {describe(g1)} and {describe(g2)}, not {wanted}"
        if avg != 1:
            return f"the AUC of (b1 + b2)/2 is {describe(avg)}, not 1"
        return None

    return judge


_judge_example = _judge_example_for(Fraction(1, 2), Fraction(1, 2))


# ------------------------------------------------------------------ question 7
def _thinned_precision(precision, keep_pos, keep_neg):
    tp, fp = precision * keep_pos, (1 - precision) * keep_neg
    return tp / (tp + fp)


#: Balanced precision, precision 1 and 0, and a low precision with the negatives kept.
_PRECISION_PUBLIC = (
    {"precision": 0.5, "keep_pos": 1.0, "keep_neg": 0.1},
    {"precision": 1.0, "keep_pos": 0.5, "keep_neg": 0.5},
    {"precision": 0.0, "keep_pos": 0.3, "keep_neg": 0.7},
    {"precision": 0.2, "keep_pos": 0.1, "keep_neg": 1.0},
)


def _precision_cases(seed: int) -> list[dict]:
    rng = np.random.default_rng(seed)
    cases = [dict(c) for c in _PRECISION_PUBLIC]
    for _ in range(10):
        p, k1, k0 = (float(v) for v in np.round(rng.uniform(0.01, 1, 3), 3))
        cases.append({"precision": p, "keep_pos": k1, "keep_neg": k0})
    return cases


# ------------------------------------------------------------------ question 8
def _parse(coordinate: Any):
    import sympy

    return sympy.sympify(str(coordinate))


def _collinear(p, q, r) -> bool:
    import sympy

    return sympy.simplify((q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])) == 0


def is_roc_curve(points: list) -> bool:
    """Whether the broken line through ``points`` is the ROC curve of a finite sample.

    Necessary and sufficient: it starts at (0, 0), ends at (1, 1), never goes left or
    down, and every corner (a vertex where the direction changes) has rational
    coordinates. Then with ``m0`` and ``m1`` the common denominators of the FPR and TPR
    of the corners, each straight piece is a group of tied scores with
    ``m1 * dTPR`` positives and ``m0 * dFPR`` negatives.

    >>> is_roc_curve([["0", "0"], ["1/3", "1/2"], ["1", "1"]])
    True
    >>> is_roc_curve([["0", "0"], ["sqrt(2)/2", "1/2"], ["1", "1"]])
    False
    """
    if len(points) < 2:
        return False
    pts = [(_parse(x), _parse(y)) for x, y in points]
    if any(not (c.is_real and c.is_number) for p in pts for c in p):
        return False
    if pts[0] != (0, 0) or pts[-1] != (1, 1):
        return False
    for p, q in zip(pts, pts[1:]):
        if bool(q[0] < p[0]) or bool(q[1] < p[1]):
            return False
    distinct = [pts[0]]
    for p in pts[1:]:
        if p != distinct[-1]:
            distinct.append(p)
    corners = [distinct[0]]
    for k in range(1, len(distinct) - 1):
        if not _collinear(corners[-1], distinct[k], distinct[k + 1]):
            corners.append(distinct[k])
    corners.append(distinct[-1])
    return all(bool(getattr(c, "is_rational", False)) for p in corners for c in p)


def _roc_monotone_only(points):
    if len(points) < 2:
        return False
    pts = [(float(_parse(x)), float(_parse(y))) for x, y in points]
    if pts[0] != (0, 0) or pts[-1] != (1, 1):
        return False
    return all(q[0] >= p[0] and q[1] >= p[1] for p, q in zip(pts, pts[1:]))


def _roc_no_diagonals(points):
    if not is_roc_curve(points):
        return False
    pts = [(_parse(x), _parse(y)) for x, y in points]
    return all(p[0] == q[0] or p[1] == q[1] for p, q in zip(pts, pts[1:]))


def _roc_every_point_rational(points):
    if not is_roc_curve(points):
        return False
    return all(_parse(c).is_rational for p in points for c in p)


def _judge_bool(case, expected, given):
    if isinstance(given, dict) and "__error__" in given:
        return f"raised {given['__error__']}"
    if not isinstance(given, (bool, np.bool_)):
        return f"expected True or False, got {describe(given)}"
    if bool(given) == expected:
        return None
    return f"expected {expected}, got {bool(given)}"


def _curve_strings(y, b) -> list[list[str]]:
    c = roc_curve(y, b)
    return [[str(Fraction(f).limit_denominator(1000)), str(Fraction(t).limit_denominator(1000))]
            for f, t in zip(c.fpr, c.tpr)]


#: A single point, the diagonal, a wrong start, an irrational corner, a step to the left.
_CURVE_PUBLIC = (
    {"points": [["0", "0"]]},
    {"points": [["0", "0"], ["1", "1"]]},
    {"points": [["0", "1/2"], ["1", "1"]]},
    {"points": [["0", "0"], ["sqrt(2)/2", "1/2"], ["1", "1"]]},
    {"points": [["0", "0"], ["1/2", "1/3"], ["1/3", "2/3"], ["1", "1"]]},
)


def _curve_cases(seed: int) -> list[dict]:
    rng = np.random.default_rng(seed)
    cases: list[list[list[str]]] = [
        [["0", "0"], ["1", "1"]],
        [["0", "0"]],
        [["0", "0"], ["0", "1"], ["1", "1"]],
        [["0", "0"], ["1/2", "1/2"], ["1", "1"]],
        [["0", "0"], ["sqrt(2)/2", "sqrt(2)/2"], ["1", "1"]],   # the diagonal: valid
        [["0", "0"], ["sqrt(2)/2", "1/2"], ["1", "1"]],          # irrational corner
        [["0", "0"], ["1/4", "pi/4"], ["1", "1"]],               # irrational corner
        [["0", "0"], ["1/2", "1/3"], ["1/3", "2/3"], ["1", "1"]],  # goes left
        [["0", "0"], ["1/2", "2/3"], ["3/4", "1/2"], ["1", "1"]],  # goes down
        [["0", "1/2"], ["1", "1"]],                              # wrong start
        [["0", "0"], ["1", "9/10"]],                             # wrong end
        [["0", "0"], ["6/5", "1"], ["1", "1"]],                  # outside the square
        [["0", "0"], ["1/3", "1/3"], ["1/3", "1/3"], ["1", "1"]],  # repeated point
        [["0", "0"], ["0.25", "0.5"], ["1", "1"]],               # decimals are rational
    ]
    for _ in range(6):
        n = int(rng.integers(3, 12))
        y = (rng.random(n) < 0.5).astype(int)
        y[0], y[1] = 1, 0
        b = np.round(rng.random(n), 1)
        pts = _curve_strings(y, b)
        cases.append(pts)
        if len(pts) > 2:
            broken = [list(p) for p in pts]
            k = int(rng.integers(1, len(pts) - 1))
            broken[k] = [f"{broken[k][0]} + sqrt(2)/1000", broken[k][1]]
            cases.append(broken)
    return [{"points": c} for c in cases]


# ------------------------------------------------------------------ question 4: variants
_BOOK_Q4: dict = {"positives": None}


def _max_auc_book() -> Exercise:
    """The book's exercise, as printed."""
    return function_exercise(
        id="d-q4-max-auc", chapter=13, title="The largest AUC below 1",
        question="""
On a sample of $m \\ge 2$ objects (both classes present, ties allowed and counting one
half), the ROC AUC is known to be below 1. What is the largest value it can have? Write
`max_auc(m)` returning it, exactly (a `Fraction`) or as a float.
""",
        answer_name="max_auc",
        solution_code='''
def max_auc(m):
    m1 = m // 2          # the most pairs: balanced classes
    m0 = m - m1
    return 1 - Fraction(1, 2 * m1 * m0)  # one tied pair, all others right
''',
        spec=FunctionSpec(
            reference=_max_auc_reference, cases=_m_cases, judge=_judge_exact,
            public=tuple({"m": m} for m in (2, 3, 4, 5, 10)),
            wrong_versions=(
                (_max_auc_no_ties, _TIES_ALLOWED),
                (_max_auc_one_positive, _FEW_PAIRS),
                (_max_auc_one_positive_no_ties, f"{_TIES_ALLOWED} {_FEW_PAIRS}"),
            ),
            signature="m"),
        worked=(
            'The AUC is a multiple of 1/(2 m1 m0); below 1 it is at most 1 - 1/(2 m1 '
            'm0) (one tied pair), largest for balanced classes: 1 - 1/(2 floor(m/2) '
            'ceil(m/2)).'
        ),
    )


# The hints of d-q4's wrong answers (the book's and the variants'): the ideas, no formula.
_TIES_ALLOWED = ("Ties are allowed, and a tied pair counts one half: how close to 1 can the "
                 "AUC then come?")
_FEW_PAIRS = ("The AUC moves in steps that shrink as the number of (positive, negative) "
              "pairs grows: one positive makes few pairs.")


def _max_auc_limited(k: int) -> Any:
    """The largest AUC below 1 on ``m`` objects of which at most ``k`` are positive."""
    def max_auc(m):
        if m < 2:
            raise ValueError(f"m must be at least 2, got {m}")
        m1 = min(k, m // 2)
        return 1 - Fraction(1, 2 * m1 * (m - m1))
    return max_auc


def _max_auc_limited_no_ties(k: int) -> Any:
    def max_auc(m):
        m1 = min(k, m // 2)
        return 1 - Fraction(1, m1 * (m - m1))
    return max_auc


def _max_auc_cases(k: int) -> Any:
    """The book's cases, after two sizes where the limit of ``k`` positives binds."""
    def cases(seed: int) -> list[dict]:
        first = [{"m": 2 * k + 2}, {"m": 4 * k + 3}]
        return first + [c for c in _m_cases(seed) if c not in first]
    return cases


def _max_auc(data: dict) -> Exercise:
    if data == _BOOK_Q4:
        return _max_auc_book()
    k = int(data["positives"])
    at_most = "at most one positive" if k == 1 else f"at most {k} positives"
    wrong: list[tuple[Any, str]] = [
        (_max_auc_limited_no_ties(k), _TIES_ALLOWED),
        (_max_auc_reference,
         f"The sample has {at_most}: for larger m the classes cannot be balanced."),
    ]
    if k > 1:
        wrong += [
            (_max_auc_one_positive, _FEW_PAIRS),
            (_max_auc_one_positive_no_ties, f"{_TIES_ALLOWED} {_FEW_PAIRS}"),
        ]
    return function_exercise(
        id="d-q4-max-auc", chapter=13, title="The largest AUC below 1",
        question=f"""
On a sample of $m \\ge 2$ objects with {at_most} (both classes present, ties allowed
and counting one half), the ROC AUC is known to be below 1. What is the largest value it
can have? Write `max_auc(m)` returning it, exactly (a `Fraction`) or as a float.
""",
        answer_name="max_auc",
        solution_code=f'''
def max_auc(m):
    m1 = min({k}, m // 2)  # the most pairs with {at_most}
    m0 = m - m1
    return 1 - Fraction(1, 2 * m1 * m0)  # one tied pair, all others right
''',
        spec=FunctionSpec(
            reference=_max_auc_limited(k), cases=_max_auc_cases(k), judge=_judge_exact,
            wrong_versions=tuple(wrong), signature="m",
            # k may exceed m/2 (m = k + 2); the limit binds from m = 2k + 2 on
            public=tuple({"m": m} for m in sorted({2, 3, 4, k + 2, 2 * k + 2, 4 * k + 3}))),
        worked=(
            f"The AUC is a multiple of 1/(2 m1 m0); below 1 it is at most 1 - 1/(2 m1 "
            f"m0) (one tied pair). m1 m0 = m1 (m - m1) grows with m1 up to m/2, and "
            f"there are at most {k} positives, so m1 = min({k}, floor(m/2)): "
            f"1 - 1/(2 m1 (m - m1)). For m > {2 * k + 1} the limit binds and the classes "
            "cannot be balanced."
        ),
    )


def _draw_max_auc(rng: np.random.Generator) -> dict:
    """A limit of 1 to 60 positives (the book's answer is wrong once m > 2k + 1)."""
    return {"positives": int(rng.integers(1, 61))}


# ------------------------------------------------------------------ question 7: variants
_BOOK_Q7: dict = {"copies": None}


def _thinning_book() -> Exercise:
    """The book's exercise, as printed."""
    return function_exercise(
        id="d-q7-thinning-precision", chapter=13, title="Precision after thinning",
        question="""
At a fixed threshold a classifier has precision `precision`. We keep each positive with
probability `keep_pos` and each negative with probability `keep_neg` (both in $(0, 1]$).
Write `thinned_precision(precision, keep_pos, keep_neg)`: the precision we expect at
the same threshold afterwards (with the expected counts). (Dyakonov's word is
*точность*, which also reads as accuracy; the solution treats that reading too.)
""",
        answer_name="thinned_precision",
        solution_code='''
def thinned_precision(precision, keep_pos, keep_neg):
    # expected true positives, per object called positive
    tp = precision * keep_pos
    fp = (1 - precision) * keep_neg
    return tp / (tp + fp)
''',
        spec=FunctionSpec(
            reference=_thinned_precision, cases=_precision_cases, public=_PRECISION_PUBLIC,
            wrong_versions=(
                (lambda precision, keep_pos, keep_neg: precision,
                 HINTS["unchanged"] + " Precision depends on the balance of the classes."),
                (lambda precision, keep_pos, keep_neg:
                 _thinned_precision(precision, keep_neg, keep_pos),
                 "keep_pos thins the true positives and keep_neg the false positives; they "
                 "are swapped."),
            ),
            signature="precision, keep_pos, keep_neg"),
        worked=(
            'Per object called positive, P k1 positives and (1 - P) k0 negatives '
            'remain: P k1 / (P k1 + (1 - P) k0).'
        ),
    )


def _copied_precision(side: str, r: int, swap: bool = False) -> Any:
    """Precision after thinning, the kept objects of one class copied ``r`` times."""
    a, b = (r, 1) if side == "positives" else (1, r)

    def thinned_precision(precision, keep_pos, keep_neg):
        k1, k0 = (keep_neg, keep_pos) if swap else (keep_pos, keep_neg)
        tp, fp = precision * k1 * a, (1 - precision) * k0 * b
        return tp / (tp + fp)
    return thinned_precision


def _thinning(data: dict) -> Exercise:
    if data == _BOOK_Q7:
        return _thinning_book()
    side, r = str(data["side"]), int(data["copies"])
    other = "negatives" if side == "positives" else "positives"
    one = side[:-1]
    tp_factor, fp_factor = (f" * {r}", "") if side == "positives" else ("", f" * {r}")
    tp_word, fp_word = (f"{r} ", "") if side == "positives" else ("", f"{r} ")
    return function_exercise(
        id="d-q7-thinning-precision", chapter=13, title="Precision after thinning",
        question=f"""
At a fixed threshold a classifier has precision `precision`. We keep each positive with
probability `keep_pos` and each negative with probability `keep_neg` (both in $(0, 1]$),
and then oversample the {side}: every kept {one} is copied so that it appears {r} times.
Write `thinned_precision(precision, keep_pos, keep_neg)`: the precision we expect at the
same threshold afterwards (with the expected counts). (Dyakonov's word is *точность*,
which also reads as accuracy; the solution treats that reading too.)
""",
        answer_name="thinned_precision",
        solution_code=f'''
def thinned_precision(precision, keep_pos, keep_neg):
    # expected true positives, per object called positive; each kept {one} counts {r} times
    tp = precision * keep_pos{tp_factor}
    fp = (1 - precision) * keep_neg{fp_factor}
    return tp / (tp + fp)
''',
        spec=FunctionSpec(
            reference=_copied_precision(side, r), cases=_precision_cases,
            public=_PRECISION_PUBLIC,
            wrong_versions=(
                (lambda precision, keep_pos, keep_neg: precision,
                 HINTS["unchanged"] + " Precision depends on the balance of the classes."),
                (_copied_precision(side, r, swap=True),
                 "keep_pos thins the true positives and keep_neg the false positives; they "
                 "are swapped."),
                (_thinned_precision,
                 f"The kept {side} are oversampled: each appears {r} times, so their "
                 f"expected count is multiplied by {r}."),
                (_copied_precision(other, r),
                 f"It is the {side} that are copied {r} times, not the {other}."),
            ),
            signature="precision, keep_pos, keep_neg"),
        worked=(
            f"Per object called positive, {tp_word}P k1 positives and {fp_word}(1 - P) k0 "
            f"negatives remain (each kept {one} appears {r} times): "
            f"{tp_word}P k1 / ({tp_word}P k1 + {fp_word}(1 - P) k0)."
        ),
    )


def _draw_thinning(rng: np.random.Generator) -> dict:
    """Positives or negatives copied 2 to 30 times after the thinning."""
    side = ("negatives", "positives")[int(rng.integers(2))]
    return {"side": side, "copies": int(rng.integers(2, 31))}


# ------------------------------------------------------------------ the book's value exercises
def _ks_rare_book() -> Exercise:
    """The book's exercise, as printed."""
    return value_exercise(
        id="d-q1-ks-rare", chapter=13, title="The KS distance with rare positives",
        question=f"""
{_MODEL_TEXT}
Positives are a share $\\pi = 0.1$ of the population. Find the largest value of
$\\mathrm{{TPR}} - \\mathrm{{FPR}}$ over the thresholds, the threshold where it is reached,
and the rate of positive predictions $\\mathrm{{RPP}}$ there (the share of all objects
called positive; Dyakonov writes PR).
Does the largest $\\mathrm{{TPR}} - \\mathrm{{FPR}}$ depend on the balance of the classes?
Answer a tuple (KS, threshold, RPP, depends on the balance: `True`/`False`).
(Dyakonov also asks whether the K-S chart of his figure, drawn for the model with
imbalanced classes, shows this case; the solution says what a K-S chart of this case
looks like.)
""",
        answer_name="ks_rare",
        solution_code="theta = sympy.Symbol('theta')\n"
                      "gap = (1 - theta**2) - (1 - theta)**2\n"
                      "best = sympy.solve(sympy.diff(gap, theta), theta)[0]\n"
                      "tpr, fpr = 1 - best**2, (1 - best)**2\n"
                      "pi = sympy.Rational(1, 10)\n"
                      "positive_rate = pi * tpr + (1 - pi) * fpr\n"
                      "ks_rare = (gap.subs(theta, best), best, positive_rate, False)",
        solution=(Fraction(1, 2), Fraction(1, 2), Fraction(3, 10), False),
        checker=parts(
            ks=exact(Fraction(1, 2)),
            threshold=exact(Fraction(1, 2)),
            positive_rate=exact(Fraction(3, 10), mistakes=[
                Mistake(Fraction(1, 2), _RPP_NOT_THRESHOLD),
                Mistake(Fraction(3, 4), _RPP_NOT_TPR),
                Mistake(Fraction(1, 10) * Fraction(3, 4) + Fraction(1, 4),
                        _RPP_NEGATIVES_SHARE)]),
            depends_on_balance=yes_no(False, hint="TPR and FPR are each computed within "
                                                  "one class, so their difference ignores "
                                                  "the balance.")),
        worked=(
            'TPR - FPR = 2 theta (1 - theta) is largest at theta = 1/2 (where the '
            'densities cross), with value 1/2; there TPR = 3/4, FPR = 1/4 and RPP = '
            '0.1 x 3/4 + 0.9 x 1/4 = 3/10. TPR and FPR are computed within one class '
            'each, so the maximum does not depend on the balance.'
        ),
    )


def _gain_above_book() -> Exercise:
    """The book's exercise, as printed."""
    return value_exercise(
        id="d-q3-gain-above", chapter=13, title="Empirical gain curves above the exact one",
        question=f"""
{_MODEL_TEXT}
Positives are a share $\\pi = 0.1$, and samples of 300 objects are drawn from the model.
Can the empirical gain curves (TPR against the share of objects selected) lie mostly
above the exact one, and the empirical lift curves above the exact lift curve? The
area under a gain curve is
$\\pi/2 + (1 - \\pi)\\,\\mathrm{{AUC}}$; a sample's gain curve encloses more area than
the exact one exactly when the sample's AUC exceeds some value. Answer a tuple
(can they: `True`/`False`, that AUC value exactly).
""",
        answer_name="gain_above",
        solution_code="gain_above = (True, cl.LINEAR_DENSITIES.auc())",
        solution=(True, Fraction(5, 6)),
        checker=parts(
            possible=yes_no(True, hint="A sample's AUC is above the model's about half the "
                                       "time."),
            auc_threshold=exact(Fraction(5, 6), mistakes=[
                Mistake(Fraction(1, 2), "The comparison is with the model's exact curve, "
                                        "not with a random ranking.")])),
        worked=(
            "Yes: with about 30 positives a sample's gain curve is a coarse staircase "
            "that lies above the exact curve at most rates in more than half of the "
            "samples, and its lift curve (the gain divided by the same rate) lies above "
            "the exact lift curve at the same rates. The area is another criterion: the "
            "gain area pi/2 + (1 - pi) AUC grows with the AUC, so a sample's curve "
            "encloses more area exactly when its AUC exceeds the model's 5/6, which "
            'happens for about half of the samples.'
        ),
    )


def _averaging_book() -> Exercise:
    """The book's exercise, as printed."""
    return value_exercise(
        id="d-q5-averaging", chapter=13, title="Averaging two scorers",
        question="""
On a fixed sample, can the average $(b_1 + b_2)/2$ of two scorers with ROC AUC 1 each
have an AUC below 1? Can the average of two scorers with ROC AUC $1/2$ each have AUC 1?
Answer a tuple of two truth values.
""",
        answer_name="averaging",
        solution_code="averaging = (False, True)",
        solution=(False, True),
        checker=parts(
            perfect_average_below_one=yes_no(False, hint="If every positive outscores every "
                                                         "negative in b1 and in b2, it does "
                                                         "in their sum."),
            half_average_perfect=yes_no(True, hint="Each scorer can be right on half of "
                                                   "the pairs, and the two halves "
                                                   "complement each other.")),
        worked=(
            'No: b1(i) > b1(j) and b2(i) > b2(j) add up. Yes: two scorers each right '
            'on half of the pairs can complement each other.'
        ),
    )


def _example_book() -> Exercise:
    """The book's exercise, as printed."""
    return value_exercise(
        id="d-q5-example", chapter=13, title="Two AUCs of 1/2 that average to 1",
        question="""
Give an example: labels `y` and two scorers `b1`, `b2` on the same objects, each with ROC
AUC exactly $1/2$, whose average $(b_1 + b_2)/2$ has ROC AUC 1. Answer a dict with the
keys `"y"`, `"b1"`, `"b2"` (lists of equal length).
""",
        answer_name="example",
        solution_code='example = {"y": [1, 1, 0, 0], "b1": [4, 0, 1, 2], "b2": [0, 4, 2, 1]}',
        solution={"y": [1, 1, 0, 0], "b1": [4, 0, 1, 2], "b2": [0, 4, 2, 1]},
        checker=PredicateChecker(_judge_example, success="correct: both AUCs are 1/2 and "
                                                         "their average separates the "
                                                         "classes"),
        worked=(
            'y = (1, 1, 0, 0), b1 = (4, 0, 1, 2), b2 = (0, 4, 2, 1): each AUC is 1/2,'
            ' the sums (4, 4, 3, 3) separate the classes.'
        ),
    )


def _transformations_book() -> Exercise:
    """The book's exercise, as printed."""
    return value_exercise(
        id="d-q6-transformations", chapter=13, title="Rounding, clipping and shifting scores",
        question="""
The scores $b$ of a classifier (in $[0, 1]$) are transformed in three ways:
$\\operatorname{round}(b, 2)$ (two decimals), $\\max(b, 0.5)$ and $(b + 1)/2$. For each,
how can the ROC AUC change (`"increase"`, `"decrease"`, `"either"` or `"none"`), and by
at most how much in absolute value (over all samples)? Answer a tuple of six entries:
(effect of round, largest change, effect of max, largest change, effect of the shift,
largest change).
""",
        answer_name="transformations",
        solution_code='transformations = ("either", Fraction(1, 2), "either", Fraction(1, 2),\n'
                      '                   "none", 0)',
        solution=("either", Fraction(1, 2), "either", Fraction(1, 2), "none", 0),
        checker=with_whole_mistakes(
            parts(round_effect=_effect("either"),
                  round_largest=exact(Fraction(1, 2), mistakes=[
                      Mistake(Fraction(1, 100), "The change of the scores is small, but the "
                                                "AUC sees only the order: if all scores fall "
                                                "in one rounding bin they all tie.")]),
                  max_effect=_effect("either"),
                  max_largest=exact(Fraction(1, 2), mistakes=[
                      Mistake(1, _MERGE_ONLY_TIES)]),
                  shift_effect=_effect("none"), shift_largest=exact(0)),
            (("none", 0, "none", 0, "none", 0),
             "round and max merge distinct scores into ties, which changes the AUC.")),
        worked=(
            '(b + 1)/2 is strictly increasing: no change. round and max merge scores '
            'into ties, which count 1/2: the AUC moves either way, by at most 1/2 '
            '(all scores in one group).'
        ),
    )


# ------------------------------------------------------------------ variants
# Questions 1 and 3 get other score densities on [0, 1] whose difference changes sign at
# a rational threshold, so that every answer stays exact:
#   ("rise", j): p1(b) = (j+2) b^(j+1) and p0(b) = (j+1) b^j, crossing at (j+1)/(j+2);
#   ("fall", j): their mirror image p1(b) = (j+1)(1-b)^j, p0(b) = (j+2)(1-b)^(j+1);
#   ("sym", k): p1(b) = (k+1) b^k and p0(b) = (k+1)(1-b)^k, crossing at 1/2 (k = 1 is the
#   book's linear-density model, which the variants never draw).
_Poly = tuple[Fraction, ...]  # the coefficients of 1, b, b^2, ...

_BOOK_MODEL = ("sym", 1)
_VARIANT_MODELS = tuple([("rise", j) for j in range(4)] + [("fall", j) for j in range(4)]
                        + [("sym", k) for k in (2, 3)])


def _power(base: _Poly, e: int) -> _Poly:
    out: _Poly = (Fraction(1),)
    for _ in range(e):
        new = [Fraction(0)] * (len(out) + len(base) - 1)
        for i, a in enumerate(out):
            for j, c in enumerate(base):
                new[i + j] += a * c
        out = tuple(new)
    return out


def _scaled(p: _Poly, c: int) -> _Poly:
    return tuple(c * v for v in p)


def _antiderivative(p: _Poly) -> _Poly:
    return (Fraction(0),) + tuple(v / (i + 1) for i, v in enumerate(p))


def _at(p: _Poly, x: Fraction) -> Fraction:
    return sum((v * x ** i for i, v in enumerate(p)), Fraction(0))


def _product(p: _Poly, q: _Poly) -> _Poly:
    new = [Fraction(0)] * (len(p) + len(q) - 1)
    for i, a in enumerate(p):
        for j, c in enumerate(q):
            new[i + j] += a * c
    return tuple(new)


_B: _Poly = (Fraction(0), Fraction(1))
_ONE_MINUS_B: _Poly = (Fraction(1), Fraction(-1))


def _term_text(coef: int, base: str, e: int, *, code: bool = False) -> str:
    """``3b^2``, ``2(1 - b)``, ``1`` (or as code ``3*b**2``, ``2*(1 - b)``)."""
    if e == 0:
        return "sympy.Integer(1)" if code else str(coef)
    paren = base if base == "b" else "(1 - b)"
    power = paren if e == 1 else (f"{paren}**{e}" if code else f"{paren}^{e}")
    if coef == 1:
        return power
    return f"{coef}*{power}" if code else f"{coef}{power}"


def _model_facts(model: Any) -> dict[str, Any]:
    """Densities (as text and code), the best threshold, TPR, FPR, KS and AUC."""
    kind, j = model[0], int(model[1])
    if kind == "rise":
        parts1, parts0 = (j + 2, "b", j + 1), (j + 1, "b", j)
        theta = Fraction(j + 1, j + 2)
    elif kind == "fall":
        parts1, parts0 = (j + 1, "1-b", j), (j + 2, "1-b", j + 1)
        theta = Fraction(1, j + 2)
    elif kind == "sym":
        parts1, parts0 = (j + 1, "b", j), (j + 1, "1-b", j)
        theta = Fraction(1, 2)
    else:
        raise ValueError(f"unknown model {model!r}")

    def poly(coef: int, base: str, e: int) -> _Poly:
        return _scaled(_power(_B if base == "b" else _ONE_MINUS_B, e), coef)

    p1, p0 = poly(*parts1), poly(*parts0)
    big1, big0 = _antiderivative(p1), _antiderivative(p0)  # the distribution functions
    tpr, fpr = 1 - _at(big1, theta), 1 - _at(big0, theta)
    auc = _at(_antiderivative(_product(big0, p1)), Fraction(1))
    if not (0 < theta < 1 and 0 < fpr < tpr < 1):
        raise ValueError(f"a degenerate model {model!r}")

    def cdf_text(coef: int, base: str, e: int) -> str:
        # 1 - F(theta): the share of the class at or above theta
        if base == "b":
            return "1 - theta" if e + 1 == 1 else f"1 - theta^{e + 1}"
        return "(1 - theta)" if e + 1 == 1 else f"(1 - theta)^{e + 1}"

    return {"theta": theta, "tpr": tpr, "fpr": fpr, "ks": tpr - fpr, "auc": auc,
            "p1": _term_text(*parts1), "p0": _term_text(*parts0),
            "p1_code": _term_text(*parts1, code=True),
            "p0_code": _term_text(*parts0, code=True),
            "tpr_text": cdf_text(*parts1), "fpr_text": cdf_text(*parts0)}


def _model_text(facts: dict[str, Any]) -> str:
    return (f"In the model of this question the scores lie in $[0, 1]$ with densities "
            f"$p_1(b) = {facts['p1']}$ for positives and $p_0(b) = {facts['p0']}$ for "
            "negatives; the rule calls an object positive when $b \\ge \\theta$.")


def _draw_model(rng: np.random.Generator) -> list:
    kind, j = _VARIANT_MODELS[int(rng.integers(len(_VARIANT_MODELS)))]
    return [kind, j]


def _draw_share(rng: np.random.Generator) -> str:
    """A share of positives in hundredths, 2% to 30%, not the book's 10%."""
    while True:
        k = int(rng.integers(2, 31))
        if k != 10:
            return f"{k}/100"


# ------------------------------------------------------------------ question 1
_BOOK_Q1 = {"model": list(_BOOK_MODEL), "pi": "1/10"}


def _ks_rare(data: dict) -> Exercise:
    if data == _BOOK_Q1:
        return _ks_rare_book()
    facts = _model_facts(data["model"])
    pi = Fraction(data["pi"])
    theta, tpr, fpr, ks = facts["theta"], facts["tpr"], facts["fpr"], facts["ks"]
    rpp = pi * tpr + (1 - pi) * fpr
    pi_text = decimal_text(pi)
    return value_exercise(
        id="d-q1-ks-rare", chapter=13, title="The KS distance with rare positives",
        question=f"""
{_model_text(facts)}
Positives are a share $\\pi = {pi_text}$ of the population. Find the largest value of
$\\mathrm{{TPR}} - \\mathrm{{FPR}}$ over the thresholds, the threshold where it is reached,
and the rate of positive predictions $\\mathrm{{RPP}}$ there (the share of all objects
called positive; Dyakonov writes PR).
Does the largest $\\mathrm{{TPR}} - \\mathrm{{FPR}}$ depend on the balance of the classes?
Answer a tuple (KS, threshold, RPP, depends on the balance: `True`/`False`), the numbers
exact.
""",
        answer_name="ks_rare",
        solution_code="theta, b = sympy.symbols('theta b')\n"
                      f"p1, p0 = {facts['p1_code']}, {facts['p0_code']}\n"
                      "tpr = sympy.integrate(p1, (b, theta, 1))\n"
                      "fpr = sympy.integrate(p0, (b, theta, 1))\n"
                      "gap = sympy.expand(tpr - fpr)\n"
                      "best = [t for t in sympy.solve(sympy.diff(gap, theta), theta)\n"
                      "        if t.is_real and 0 < t < 1][0]\n"
                      f"pi = sympy.Rational({pi.numerator}, {pi.denominator})\n"
                      "positive_rate = pi * tpr.subs(theta, best) + "
                      "(1 - pi) * fpr.subs(theta, best)\n"
                      "ks_rare = (gap.subs(theta, best), best, positive_rate, False)",
        solution=(ks, theta, rpp, False),
        checker=parts(
            ks=exact(ks),
            threshold=exact(theta),
            positive_rate=exact(rpp, mistakes=keep_distinct(rpp, [
                Mistake(theta, _RPP_NOT_THRESHOLD),
                Mistake(tpr, _RPP_NOT_TPR),
                Mistake(pi * tpr + fpr, _RPP_NEGATIVES_SHARE)])),
            depends_on_balance=yes_no(False, hint="TPR and FPR are each computed within "
                                                  "one class, so their difference ignores "
                                                  "the balance.")),
        worked=(
            f"TPR = {facts['tpr_text']} and FPR = {facts['fpr_text']}; their difference "
            f"grows while p0(theta) > p1(theta) and falls after, so it is largest where "
            f"the densities cross, at theta = {theta}, with value {ks}; there TPR = {tpr}, "
            f"FPR = {fpr} and RPP = {pi_text} x {tpr} + {decimal_text(1 - pi)} x {fpr} = "
            f"{rpp}. TPR and FPR are computed within one class each, so the maximum does "
            "not depend on the balance."
        ),
    )


def _draw_ks_rare(rng: np.random.Generator) -> dict:
    """A model and a share of positives whose RPP is not the book's 3/10 (so that only
    the threshold, when it is 1/2, and the balance part of the book's tuple are right)."""
    while True:
        model, share = _draw_model(rng), _draw_share(rng)
        data = {"model": model, "pi": share}
        facts = _model_facts(model)
        pi = Fraction(share)
        if pi * facts["tpr"] + (1 - pi) * facts["fpr"] != Fraction(3, 10):
            return data


# ------------------------------------------------------------------ question 3
_BOOK_Q3 = {"model": list(_BOOK_MODEL), "pi": "1/10", "n": 300}


def _gain_above(data: dict) -> Exercise:
    if data == _BOOK_Q3:
        return _gain_above_book()
    facts = _model_facts(data["model"])
    pi, n, auc = Fraction(data["pi"]), int(data["n"]), facts["auc"]
    area = pi / 2 + (1 - pi) * auc
    expected_positives = pi * n
    return value_exercise(
        id="d-q3-gain-above", chapter=13, title="Empirical gain curves above the exact one",
        question=f"""
{_model_text(facts)}
Positives are a share $\\pi = {decimal_text(pi)}$, and samples of {n} objects are drawn from
the model. Can the empirical gain curves (TPR against the share of objects selected) lie
mostly above the exact one, and the empirical lift curves above the exact lift curve? The
area under a gain curve is
$\\pi/2 + (1 - \\pi)\\,\\mathrm{{AUC}}$; a sample's gain curve encloses more area than
the exact one exactly when the sample's AUC exceeds some value. Answer a tuple
(can they: `True`/`False`, that AUC value exactly).
""",
        answer_name="gain_above",
        solution_code="b, x = sympy.symbols('b x')\n"
                      f"p1, p0 = {facts['p1_code']}, {facts['p0_code']}\n"
                      "F0 = sympy.integrate(p0, (b, 0, x))    # negatives below x\n"
                      "auc = sympy.integrate(F0 * p1.subs(b, x), (x, 0, 1))\n"
                      "gain_above = (True, auc)",
        solution=(True, auc),
        checker=parts(
            possible=yes_no(True, hint="A sample's AUC is above the model's about half the "
                                       "time."),
            auc_threshold=exact(auc, mistakes=keep_distinct(auc, [
                Mistake(Fraction(1, 2), "The comparison is with the model's exact curve, "
                                        "not with a random ranking."),
                Mistake(area, "That is the area under the exact gain curve; the question "
                              "asks for the AUC a sample must exceed."),
                Mistake(Fraction(5, 6), "5/6 is the AUC of the linear-density model; "
                                        "compute the AUC of this question's densities, "
                                        "the integral of F0(x) p1(x)."),
            ]))),
        worked=(
            f"Yes: with about {decimal_text(expected_positives)} positives a sample's gain "
            "curve is a coarse staircase that lies above the exact curve at most rates in "
            "a good share of the samples, and its lift curve (the gain divided by the same "
            "rate) lies above the exact lift curve at the same rates. The area is another "
            "criterion: the gain area pi/2 + (1 - pi) AUC grows with the AUC, so a sample's "
            "curve encloses more area exactly when its AUC exceeds the model's, the "
            f"integral of F0(x) p1(x) over [0, 1], {auc}, which happens for about half of "
            "the samples."
        ),
    )


def _draw_gain_above(rng: np.random.Generator) -> dict:
    return {"model": _draw_model(rng), "pi": _draw_share(rng),
            "n": 50 * int(rng.integers(2, 21))}


# ------------------------------------------------------------------ question 5
_BOOK_Q5A = {"a": ["1", "1"], "c": ["1/2", "1/2"]}


def _averaging(data: dict) -> Exercise:
    if data == _BOOK_Q5A:
        return _averaging_book()
    a1, a2 = (Fraction(v) for v in data["a"])
    c1, c2 = (Fraction(v) for v in data["c"])
    zero, one = a1 + a2 <= 1, c1 + c2 >= 1
    t = decimal_text
    return value_exercise(
        id="d-q5-averaging", chapter=13, title="Averaging two scorers",
        question=f"""
On a fixed sample, can the average $(b_1 + b_2)/2$ of two scorers with ROC AUC {t(a1)} and
{t(a2)} have ROC AUC 0? Can the average of two scorers with ROC AUC {t(c1)} and {t(c2)}
have AUC 1? Answer a tuple of two truth values.
""",
        answer_name="averaging",
        solution_code=f"a1, a2 = {fraction_code(a1)}, {fraction_code(a2)}\n"
                      f"c1, c2 = {fraction_code(c1)}, {fraction_code(c2)}\n"
                      "# AUC 1 is possible exactly when AUC(b1) + AUC(b2) >= 1, and AUC 0\n"
                      "# (negate the scores) exactly when AUC(b1) + AUC(b2) <= 1\n"
                      "averaging = (a1 + a2 <= 1, c1 + c2 >= 1)",
        solution=(zero, one),
        checker=parts(
            average_auc_zero=yes_no(zero, hint=(
                "A pair the average orders wrongly is ordered wrongly by b1 or by b2, so "
                "AUC 0 needs (1 - AUC(b1)) + (1 - AUC(b2)) >= 1, and that is enough: "
                f"here AUC(b1) + AUC(b2) = {t(a1 + a2)}.")),
            average_auc_one=yes_no(one, hint=(
                "A pair the average orders rightly is ordered rightly by b1 or by b2, so "
                "AUC 1 needs AUC(b1) + AUC(b2) >= 1, and that is enough: here "
                f"AUC(b1) + AUC(b2) = {t(c1 + c2)}."))),
        worked=(
            "If b1(i) + b2(i) > b1(j) + b2(j), then b1 or b2 orders the pair (i, j) "
            "rightly, so AUC((b1 + b2)/2) = 1 needs AUC(b1) + AUC(b2) >= 1; it is enough "
            "(one positive; negatives that only b1 beats, only b2 beats, or both), and "
            "negating the scores, AUC 0 is possible exactly when AUC(b1) + AUC(b2) <= 1. "
            f"{'Yes' if zero else 'No'} ({t(a1)} + {t(a2)} = {t(a1 + a2)}), "
            f"{'yes' if one else 'no'} ({t(c1)} + {t(c2)} = {t(c1 + c2)})."
        ),
    )


def _draw_averaging(rng: np.random.Generator) -> dict:
    """Four AUCs in tenths; no sum of a pair equal to 1, and not the book's answer."""
    while True:
        a1, a2, c1, c2 = (int(v) for v in rng.integers(1, 11, size=4))
        if a1 + a2 == 10 or c1 + c2 == 10 or (a1 + a2 > 10 and c1 + c2 > 10):
            continue
        return {"a": [f"{a1}/10", f"{a2}/10"], "c": [f"{c1}/10", f"{c2}/10"]}


_BOOK_Q5E = {"a1": "1/2", "a2": "1/2"}


def _example(data: dict) -> Exercise:
    if data == _BOOK_Q5E:
        return _example_book()
    a1, a2 = Fraction(data["a1"]), Fraction(data["a2"])
    q = math.lcm(a1.denominator, a2.denominator)
    p, r = int(a1 * q), int(a2 * q)
    only1, only2, both = q - r, q - p, p + r - q  # negatives that b1 only, b2 only, both beat
    y = [1] + [0] * q
    b1 = [0] + [-2] * only1 + [1] * only2 + [-1] * both
    b2 = [2] + [3] * only1 + [0] * only2 + [1] * both
    example = {"y": y, "b1": b1, "b2": b2}
    kinds = []
    for count, what in ((only1, "only b1 beats"), (only2, "only b2 beats"),
                        (both, "both beat")):
        if count:
            kinds.append(f"{count} that {what}")
    return value_exercise(
        id="d-q5-example", chapter=13, title="Two AUCs of 1/2 that average to 1",
        question=f"""
Give an example: labels `y` and two scorers `b1`, `b2` on the same objects, `b1` with ROC
AUC exactly ${a1}$ and `b2` with ROC AUC exactly ${a2}$, whose average $(b_1 + b_2)/2$
has ROC AUC 1. Answer a dict with the keys `"y"`, `"b1"`, `"b2"` (lists of equal length).
""",
        answer_name="example",
        solution_code=wrap_items('example = {"y": [', [str(v) for v in y], "],") + "\n"
                      + wrap_items('           "b1": [', [str(v) for v in b1], "],") + "\n"
                      + wrap_items('           "b2": [', [str(v) for v in b2], "]}"),
        solution=example,
        checker=PredicateChecker(_judge_example_for(a1, a2),
                                 success=f"correct: the AUCs are {a1} and {a2} and their "
                                         "average separates the classes"),
        worked=(
            f"One positive, scored (0, 2), and {q} negatives: {and_join(kinds)}, scored "
            "(-2, 3), (1, 0) and (-1, 1). b1 beats "
            f"{only1 + both} of {q} negatives (AUC {a1}), b2 beats {only2 + both} (AUC "
            f"{a2}), and the sums, 2 for the positive and at most 1 for each negative, "
            "separate the classes."
        ),
    )


def _draw_example(rng: np.random.Generator) -> dict:
    """Two AUCs p/q and r/q below 1 with p + r >= q (else no example exists)."""
    while True:
        q = int(rng.choice([3, 4, 5, 6, 8, 10]))
        p, r = (int(v) for v in rng.integers(1, q, size=2))
        if p + r >= q and not 2 * p == 2 * r == q:
            return {"a1": str(Fraction(p, q)), "a2": str(Fraction(r, q))}


# ------------------------------------------------------------------ question 6
_BOOK_Q6 = {"maps": [["round", 2], ["max", 5], ["shift", 1]]}

_MERGES, _REVERSALS, _INCREASING = ("round", "max", "min"), ("flip", "abs", "square",
                                                             "inverse"), (
    "shift", "power", "sqrt", "exp", "log", "linear")


def _map_text(name: str, k: int) -> str:
    c = f"0.{k}"
    return {
        "round": f"$\\operatorname{{round}}(b, {k})$", "max": f"$\\max(b, {c})$",
        "min": f"$\\min(b, {c})$", "flip": "$1 - b$", "abs": f"$|b - {c}|$",
        "square": f"$(b - {c})^2$", "inverse": "$1/(1 + b)$",
        "shift": f"$(b + {k})/{k + 1}$", "power": f"$b^{k}$", "sqrt": "$\\sqrt{b}$",
        "exp": "$e^b$", "log": "$\\log(1 + b)$", "linear": f"${k}b - 1$",
    }[name]


def _map_kind(name: str) -> str:
    return "merge" if name in _MERGES else "reverse" if name in _REVERSALS else "increasing"


_EXPECTED = {"merge": ("either", Fraction(1, 2)), "reverse": ("either", Fraction(1)),
             "increasing": ("none", Fraction(0))}
_BOOK_Q6_ANSWER = ("either", Fraction(1, 2), "either", Fraction(1, 2), "none", Fraction(0))


def _map_checkers(name: str, k: int) -> tuple[ChoiceChecker, Any]:
    kind = _map_kind(name)
    if kind == "merge":
        small = (Mistake(Fraction(1, 10 ** k), "The change of the scores is small, but the "
                                               "AUC sees only the order: if all scores fall "
                                               "in one rounding bin they all tie.")
                 if name == "round" else
                 Mistake(1, _MERGE_ONLY_TIES))
        return _effect("either"), exact(Fraction(1, 2), mistakes=[small])
    if kind == "reverse":
        effect = ChoiceChecker("either", _EFFECT, mistakes={
            "none": "This map is not increasing: it reverses the order of some pairs of "
                    "scores, so the AUC moves.",
            "increase": "Reversing pairs turns right into wrong and wrong into right: can "
                        "it do only one of the two?",
            "decrease": "Reversing pairs turns right into wrong and wrong into right: can "
                        "it do only one of the two?"})
        return effect, exact(1, mistakes=[
            Mistake(Fraction(1, 2), "This map creates no ties: a pair can go from right to "
                                    "wrong, not only to a tie.")])
    keeps = ("What does a strictly increasing map do to the order of the scores, the only "
             "thing the AUC sees?")
    effect = ChoiceChecker("none", _EFFECT, mistakes={
        "either": keeps, "increase": keeps, "decrease": keeps})
    return effect, exact(0)


def _map_worked(name: str, k: int) -> str:
    text = _map_text(name, k).strip("$").replace("\\operatorname{round}", "round").replace(
        "\\max", "max").replace("\\min", "min").replace("\\sqrt{b}", "sqrt(b)")
    c = f"0.{k}"
    return {
        "round": f"{text} merges scores into ties, which count 1/2: the AUC moves either "
                 "way, by at most 1/2 (all scores in one rounding bin)",
        "max": f"{text} merges all scores below {c} into one tie: either way, by at most "
               f"1/2 (all scores below {c})",
        "min": f"{text} merges all scores above {c} into one tie: either way, by at most "
               f"1/2 (all scores above {c})",
        "flip": f"{text} is strictly decreasing: the AUC becomes 1 - AUC, either way, by "
                "at most 1 (from 1 to 0)",
        "inverse": f"{text} is strictly decreasing: the AUC becomes 1 - AUC, either way, "
                   "by at most 1 (from 1 to 0)",
        "abs": f"{text} reverses the order of the scores below {c}: either way, by at "
               f"most 1 (positives near 0 and negatives just below {c} go from AUC 0 to 1)",
        "square": f"{text} reverses the order of the scores below {c}: either way, by at "
                  f"most 1 (positives near 0 and negatives just below {c} go from AUC 0 "
                  "to 1)",
    }.get(name, f"{text} is strictly increasing on [0, 1]: no change")


def _transformations(data: dict) -> Exercise:
    if data == _BOOK_Q6:
        return _transformations_book()
    maps = [(str(name), int(k)) for name, k in data["maps"]]
    answer: list[Any] = []
    for name, _k in maps:
        answer += list(_EXPECTED[_map_kind(name)])
    names = ("first", "second", "third")
    named: dict[str, Any] = {}
    for word, (name, k) in zip(names, maps):
        effect, largest = _map_checkers(name, k)
        named[f"{word}_effect"], named[f"{word}_largest"] = effect, largest
    texts = [_map_text(name, k) for name, k in maps]
    code_items = [f'"{v}"' if isinstance(v, str) else fraction_code(v) for v in answer]
    return value_exercise(
        id="d-q6-transformations", chapter=13, title="Rounding, clipping and shifting scores",
        question=f"""
The scores $b$ of a classifier (in $[0, 1]$) are transformed in three ways:
{texts[0]}, {texts[1]} and {texts[2]}. For each, how can the ROC AUC change (`"increase"`,
`"decrease"`, `"either"` or `"none"`), and by at most how much in absolute value (over all
samples)? Answer a tuple of six entries: (effect of the first, largest change, effect of
the second, largest change, effect of the third, largest change).
""",
        answer_name="transformations",
        solution_code=wrap_items("transformations = (", code_items, ")"),
        solution=tuple(answer),
        checker=with_whole_mistakes(
            parts(**named),
            (("none", 0, "none", 0, "none", 0),
             "Only a strictly increasing map surely keeps the AUC; merging scores into "
             "ties or reversing their order changes it.")),
        worked="; ".join(_map_worked(name, k) for name, k in maps) + ".",
    )


def _book_parts_right(maps: list) -> int:
    right = 0
    for i, (name, _k) in enumerate(maps):
        effect, largest = _EXPECTED[_map_kind(name)]
        right += (effect == _BOOK_Q6_ANSWER[2 * i]) + (largest == _BOOK_Q6_ANSWER[2 * i + 1])
    return right


def _draw_map(rng: np.random.Generator, kind: str) -> list:
    pool = {"merge": _MERGES, "reverse": _REVERSALS, "increasing": _INCREASING}[kind]
    name = str(pool[int(rng.integers(len(pool)))])
    k = {"round": int(rng.integers(1, 4)), "max": int(rng.integers(1, 10)),
         "min": int(rng.integers(1, 10)), "abs": int(rng.integers(1, 10)),
         "square": int(rng.integers(1, 10)), "shift": int(rng.integers(1, 6)),
         "power": int(rng.integers(2, 5)), "linear": int(rng.integers(2, 10))}.get(name, 0)
    return [name, k]


def _draw_transformations(rng: np.random.Generator) -> dict:
    """Three maps (merging, reversing or increasing), of which the book's tuple gets at
    most half of the six entries right."""
    kinds = ("merge", "reverse", "increasing")
    while True:
        maps = [_draw_map(rng, kinds[int(rng.integers(3))]) for _ in range(3)]
        if len({_map_text(n, k) for n, k in maps}) == 3 and _book_parts_right(maps) <= 3:
            return {"maps": maps}


#: The chapter's checkpoint, shown after its summary.
_CHECKPOINT = checkpoint(
    13, "recap", "Checkpoint: the eight questions in one",
    question="""
Which of these statements is true? Answer a letter.

- (a) The AUC of the average of two scorers lies between the AUCs of the two.
- (b) A strictly increasing change of the scores, such as $\\sqrt{b}$, can change the AUC.
- (c) Removing negatives at random changes the precision we expect at a fixed threshold,
  but not the recall.
- (d) The KS distance of the linear-density model depends on the share of positives.
- (e) Every curve from $(0, 0)$ to $(1, 1)$ that never goes left or down is the ROC curve
  of some finite sample.
""",
    answer="c",
    mistakes={
        "a": "Two scorers at chance level can average to a perfect one: the average's AUC "
             "can leave both behind.",
        "b": "The AUC depends only on the order of the scores, and a strictly increasing "
             "change keeps the order.",
        "d": "TPR and FPR are each computed within one class, so neither their largest "
             "difference nor its threshold moves with the share of positives.",
        "e": "The corners of the ROC curve of a finite sample are fractions k/m1 and j/m0: "
             "a smooth curve, or an irrational corner, is only a limit of such curves.",
    },
    worked="Recall is computed within the positives and does not move; precision counts "
           "the false positives, which fall, so it rises.",
)

EXERCISES = [
    with_variants(_ks_rare, _BOOK_Q1, _draw_ks_rare),
    function_exercise(
        id="d-q2-pair-scores", chapter=13, title="Scores of objects from a classifier of pairs",
        question="""
To optimize the AUC, a linear classifier was trained on *pairs*: it estimates the
probability that the object $x$ should be ranked above the object $x'$ as
$\\sigma(\\langle w, x - x' \\rangle)$, with $\\sigma(u) = 1/(1 + e^{-u})$. How do we get
scores of single objects? Write `object_scores(w, reference, objects)`: `w` is a list of
$d$ weights, `reference` a list of reference objects (lists of $d$ numbers, e.g. the
training set), `objects` the objects to score; return one score per object, ordering the
objects as the average, over the reference objects $x_r$, of the probability that the
object beats $x_r$. (Any scores that order the objects that way pass.)
""",
        answer_name="object_scores",
        solution_code='''
def object_scores(w, reference, objects):
    w = np.asarray(w, dtype=float)
    ref = np.asarray(reference, dtype=float) @ w
    obj = np.asarray(objects, dtype=float) @ w
    return [float(np.mean(1 / (1 + np.exp(-(v - ref))))) for v in obj]
''',
        spec=FunctionSpec(
            reference=_object_scores, cases=_pair_cases, judge=_judge_order,
            wrong_versions=((_object_scores_reversed,
                             "The order is reversed: the object must come first in the "
                             "pair it is to win."),),
            signature="w, reference, objects", public=_PAIR_PUBLIC,
            order=_object_scores),
        worked=(
            "Average the pair classifier's verdicts against reference objects: b(x) ="
            ' mean_r sigma(<w, x - x_r>), an increasing function of <w, x> for a '
            'linear classifier, so <w, x> itself gives the same order.'
        ),
    ),
    with_variants(_gain_above, _BOOK_Q3, _draw_gain_above),
    with_variants(_max_auc, _BOOK_Q4, _draw_max_auc),
    with_variants(_averaging, _BOOK_Q5A, _draw_averaging),
    with_variants(_example, _BOOK_Q5E, _draw_example),
    with_variants(_transformations, _BOOK_Q6, _draw_transformations),
    with_variants(_thinning, _BOOK_Q7, _draw_thinning),
    function_exercise(
        id="d-q8-roc-condition", chapter=13, title="Which curves are ROC curves",
        question="""
Find a necessary and sufficient condition for a curve to be the ROC curve of some finite
labelled sample with scores (ties allowed). Then write `is_roc_curve(points)`: `points`
is a list of vertices `[fpr, tpr]` of a broken line, in order, each coordinate a string
that `sympy.sympify` reads (such as `"1/3"`, `"0.25"` or `"sqrt(2)/2"`); the curve is the
set of points of that broken line (a listed point may lie in the middle of a straight
piece). Return `True` exactly when it is a ROC curve.
""",
        answer_name="is_roc_curve",
        solution_code='''
def is_roc_curve(points):
    pts = [tuple(sympy.sympify(c) for c in p) for p in points]
    if len(pts) < 2 or pts[0] != (0, 0) or pts[-1] != (1, 1):
        return False
    if not all(c.is_real for p in pts for c in p):
        return False
    if any(q[0] < p[0] or q[1] < p[1] for p, q in zip(pts, pts[1:])):
        return False                    # it goes left or down

    def straight(a, b, c):              # b lies on the segment from a to c
        cross = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
        return sympy.simplify(cross) == 0

    corners = [pts[0]]
    for b, c in zip(pts[1:-1], pts[2:]):
        if b != corners[-1] and not straight(corners[-1], b, c):
            corners.append(b)
    corners.append(pts[-1])
    return all(c.is_rational for p in corners for c in p)
''',
        spec=FunctionSpec(
            reference=is_roc_curve, cases=_curve_cases, judge=_judge_bool,
            public=_CURVE_PUBLIC,
            wrong_versions=(
                (_roc_monotone_only, "Monotone from (0, 0) to (1, 1) is not enough: which "
                                     "values can TPR and FPR take on a finite sample?"),
                (_roc_no_diagonals, "Diagonal pieces are allowed: they come from groups of "
                                    "tied scores holding both classes."),
                (_roc_every_point_rational, "A listed point in the middle of a straight "
                                            "piece is no corner of the curve: it need not "
                                            "be what a corner must be."),
            ),
            signature="points"),
        worked=(
            'A broken line from (0, 0) to (1, 1), never going left or down, with '
            'finitely many corners, all rational. Necessary: vertices are (j/m0, '
            'k/m1). Sufficient: with common denominators m0, m1 each piece becomes a '
            'group of tied objects with m1 dTPR positives and m0 dFPR negatives.'
        ),
    ),
    _CHECKPOINT,
]
