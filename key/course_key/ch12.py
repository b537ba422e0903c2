"""Chapter 12 exercises: pitfalls of the AUC."""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from course_lib import roc_auc
from course_lib.exercises._core import (
    Exercise,
    FunctionSpec,
    Mistake,
    Reject,
    approx,
    describe,
    exact,
    function_exercise,
    number_list,
    value_exercise,
    with_variants,
)

from ._checkpoints import checkpoint
from ._hints import HINTS, keep_distinct
from ._variants import decimal_text, fraction_code


def _distance_score(x):
    return [abs(v - 5) for v in x]


#: Two, three and four values, and positives on both sides at unequal distances.
_X_PUBLIC = ({"x": [1.0, 5.0]}, {"x": [9.0, 5.0, 2.0]}, {"x": [0.0, 10.0, 4.0, 6.0]},
             {"x": [1.0, 5.0, 7.5, 8.5, 0.5, 2.5]})


def _far_from_centre(x):
    """1 for a positive, 0 for a negative: a right score keeps this order."""
    return [float(abs(v - 5) > 3) for v in x]


def _x_cases(seed: int) -> list[dict]:
    rng = np.random.default_rng(seed)
    cases = [[1.0, 5.0], [9.0, 5.0, 2.0], [0.0, 10.0, 4.0, 6.0]]
    for _ in range(8):
        x = np.round(rng.uniform(0, 10, int(rng.integers(4, 40))), 2)
        x[0], x[1] = 1.0, 5.0  # both classes
        cases.append([float(v) for v in x])
    return [{"x": c} for c in cases]


def _judge_auc_one(case, expected, given):
    x = np.asarray(case["x"], dtype=float)
    try:
        s = number_list(given, x.size, "scores")
    except Reject as exc:
        return str(exc)
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


# The ranking of the first two exercises: n objects, p positives after k negatives.
_SEARCH = {"n": 1000, "p": 5, "k": 20}


def _auc_search(data: dict) -> Exercise:
    n, p, k = int(data["n"]), int(data["p"]), int(data["k"])
    neg = n - p
    auc = 1 - Fraction(k, neg)
    return value_exercise(
        id="auc-search-ranking", chapter=12, title="A high AUC, a useless top",
        question=f"""
A ranking of {n} objects with {p} positives puts {k} negatives first, then the {p}
positives, then the other {neg - k} negatives. What is its ROC AUC (exactly)?
""",
        answer_name="auc_search",
        solution_code=f"auc_search = 1 - Fraction({k}, {neg})",
        solution=auc,
        checker=exact(auc, mistakes=keep_distinct(auc, [
            Mistake(Fraction(k, neg), HINTS["ascending"]),
            Mistake(1 - Fraction(k, n), "The AUC counts (positive, negative) pairs: each "
                                        "positive is compared with the negatives only, "
                                        "not with all objects."),
            Mistake(1 - Fraction(p * k, neg), "The lost pairs and all the (positive, "
                                              "negative) pairs both grow with the number "
                                              "of positives."),
        ])),
        worked=f"Each positive loses to {k} of the {neg} negatives: AUC = 1 - {k}/{neg} = "
               f"{auc}, about {float(auc):.3f}, while the top ten results hold "
               + ("no positive." if k >= 10 else
                  f"{min(p, 10 - k)} positive{'s' if min(p, 10 - k) > 1 else ''}."),
    )


def _draw_search(rng: np.random.Generator) -> dict:
    """A large ranking whose few positives come after 11 to 60 negatives."""
    return {"n": int(rng.integers(4, 51)) * 100, "p": int(rng.integers(2, 13)),
            "k": int(rng.integers(11, 61))}


def _p_at_10(data: dict) -> Exercise:
    n, p, k = int(data["n"]), int(data["p"]), int(data["k"])
    hits = max(0, min(p, 10 - k))
    value = Fraction(hits, 10)
    if data == _SEARCH:
        question = f"""
The same ranking: {n} objects, {p} positives at places {k + 1} to {k + p}. What is its precision
at 10 (the share of positives among the first ten)?
"""
    else:
        question = f"""
A ranking of {n} objects has its {p} positives at places {k + 1} to {k + p} (all other
places hold negatives). What is its precision at 10 (the share of positives among the
first ten)?
"""
    if hits == 0:
        mistakes = [Mistake(Fraction(p, 10), f"The positives come after {k} negatives: "
                                             "which of them are among the first ten?")]
        worked = "The first ten are negatives: 0."
    else:
        places = f"places {k + 1} to {k + hits}" if hits > 1 else f"place {k + 1}"
        mistakes = list(keep_distinct(value, [
            Mistake(Fraction(hits, p), "This is the recall at 10 (the share of the "
                                       "positives found in the first ten); precision "
                                       "divides by the ten results."),
            *(Mistake(Fraction(v, 10), f"Count again: the first ten are places 1 to "
                                       f"10, and {hits} of them hold positives.")
              for v in (hits - 1, hits + 1) if 0 <= v <= 10),
            Mistake(Fraction(p, 10), f"Only {hits} of the {p} positives are among the "
                                     f"first ten; the others come after place 10."),
        ]))
        worked = (f"Places 1 to 10 hold {hits} positive{'s' if hits > 1 else ''} "
                  f"({places}) and {10 - hits} negative{'' if hits == 9 else 's'}: "
                  f"{hits}/10 = {value}.")
    return value_exercise(
        id="precision-at-10-search", chapter=12, title="Precision at 10 of that ranking",
        question=question,
        answer_name="p_at_10",
        solution_code=f"p_at_10 = Fraction({hits}, 10)",
        solution=value,
        checker=exact(value, mistakes=mistakes),
        worked=worked,
    )


def _draw_search_top(rng: np.random.Generator) -> dict:
    """A ranking whose first positives reach the top ten (else the answer is 0)."""
    return {"n": int(rng.integers(4, 51)) * 100, "p": int(rng.integers(2, 13)),
            "k": int(rng.integers(1, 10))}


def _auc_sure_group(data: dict) -> Exercise:
    f = Fraction(data["f"])
    auc = (1 + f) / 2
    return value_exercise(
        id="credit-share-auc", chapter=12, title="A sure group at the bottom",
        question=f"""
A credit model places a share $f = {decimal_text(f)}$ of the negatives at the very bottom with no
positive among them, and gives all other objects the same score. What is its ROC AUC
(exactly)?
""",
        answer_name="auc_sure_group",
        solution_code=f"f = {fraction_code(f)}\nauc_sure_group = (1 + f) / 2",
        solution=auc,
        checker=exact(auc, mistakes=keep_distinct(auc, [
            Mistake(Fraction(1, 2), "The sure group is ordered correctly against every "
                                    "positive; only the rest is tied."),
            Mistake(f, "Only the pairs with a negative of the sure group were counted; "
                       "the other pairs are ties, and a tie counts one half."),
            Mistake(1 - f, HINTS["ties_one"]),
        ])),
        worked="A share f of pairs is ordered correctly, the rest are ties: "
               f"f + (1 - f)/2 = (1 + f)/2 = {auc}.",
    )


def _draw_share(rng: np.random.Generator) -> dict:
    """A share of sure negatives in hundredths, 0.05 to 0.60."""
    return {"f": f"{int(rng.integers(5, 61))}/100"}


_SCREEN = "$2\\,|\\mathrm{AUC} - 1/2|$"


def _screen(data: dict) -> Exercise:
    c, d = Fraction(data["c"]), Fraction(data["d"])
    below, above = c - d, 10 - c - d  # lengths of the two positive ends
    auc = above / (below + above)
    value = abs(2 * auc - 1)
    mistakes = [Mistake(1.0, "The positives lie at both ends in equal measure, so x does "
                             "not order them above the negatives: the AUC of x is 1/2.")]
    worked = ("By symmetry the AUC of x is 1/2 and the screen 0, although the label is a "
              "function of x.")
    if c != 5:
        mistakes = list(keep_distinct(value, [
            Mistake(1.0, "The label is a function of x, but x puts positives at both "
                         "ends: those at the low end lose to every negative, so the AUC "
                         "of x is not 1."),
            Mistake(float(auc), "This is the AUC of x; the screen is 2 |AUC - 1/2|."),
            Mistake(float(1 - value), "The screen is 2 |AUC - 1/2|, not 1 minus it."),
        ]))
        worked = (f"The positives below {decimal_text(below)} lose to every negative, "
                  f"those above {decimal_text(c + d)} beat every negative: the AUC of x "
                  f"is {decimal_text(above)}/{decimal_text(below + above)} = {auc} and the "
                  f"screen 2 |{auc} - 1/2| = {value} (about {float(value):.3f}), although "
                  "the label is a function of x.")
    return value_exercise(
        id="unimodal-screen", chapter=12, title="Screening a feature by its AUC",
        question=f"""
A feature $x$ is uniform on $[0, 10]$ and an object is positive exactly when $x$ is more
than {decimal_text(d)} away from {decimal_text(c)}. What is the screen {_SCREEN} of the feature $x$
itself, in the population (within 0.01)?
""",
        answer_name="screen_value",
        solution_code=("screen_value = 0.0" if value == 0 else
                       f"below, above = {decimal_text(below)}, {decimal_text(above)}"
                       "  # lengths of the positive ends\n"
                       "screen_value = abs(2 * above / (below + above) - 1)"),
        solution=float(value),
        checker=approx(float(value), 0.01, mistakes=mistakes),
        worked=worked,
    )


def _draw_screen(rng: np.random.Generator) -> dict:
    """A centre c != 5 and a half-width d (steps of 0.5), both ends inside [0, 10]."""
    while True:
        c = int(rng.integers(5, 16)) / 2  # 2.5 .. 7.5
        d = int(rng.integers(1, 10)) / 2  # 0.5 .. 4.5
        if c != 5 and c - d >= 0.5 and c + d <= 9.5:
            return {"c": c, "d": d}


#: The chapter's checkpoint, shown between its summary and its exercises.
_CHECKPOINT = checkpoint(
    12, "modest-auc", "Checkpoint: a modest AUC",
    question="""
A churn model (class 1 = "will leave") has a ROC AUC of 0.56. Its ROC curve climbs
straight up the left edge, $\\mathrm{FPR} = 0$, to $\\mathrm{TPR} = 0.12$, and from there
runs along a straight line to $(1, 1)$. What does this say about the model? Answer a
letter.

- (a) it is of no use: an AUC this close to 1/2 means that its ranking is nearly random
  everywhere
- (b) the customers it scores highest are all churners, so retention offers to that top
  group are well spent
- (c) the customers it scores lowest are all loyal, so they can be left out of every
  campaign
- (d) its precision is high at every depth of the ranking, since the curve starts up the
  left edge
- (e) a model with the same AUC whose curve lies evenly a little above the diagonal would
  serve the retention campaign as well
""",
    answer="b",
    mistakes={
        "a": "The AUC averages over the whole curve: a steep piece at one end can hold "
             "the model's value while the rest of the ranking is a coin.",
        "c": "The left edge, FPR = 0, is the top of the ranking, where no negative has "
             "been passed yet; the bottom of the ranking is the other end of the curve.",
        "d": "Past its first group the curve runs straight to (1, 1): deeper in the "
             "ranking, churners and loyal customers come in a fixed proportion.",
        "e": "Equal areas can hide different shapes. A curve that is evenly weak has no "
             "sure group at either end, and a campaign uses only one end of the ranking.",
    },
    worked="FPR = 0 while TPR rises means that the top-scored customers are churners "
           "only: 12% of the churners come before the first loyal customer. The rest of "
           "the curve is a straight line, a random order, so the area is "
           "(1 + 0.12)/2 = 0.56, the mirror image of the credit model's (1 + f)/2.",
)

EXERCISES = [
    _CHECKPOINT,
    with_variants(_auc_search, _SEARCH, _draw_search),
    with_variants(_p_at_10, _SEARCH, _draw_search_top),
    with_variants(_auc_sure_group, {"f": "1/5"}, _draw_share),
    with_variants(_screen, {"c": 5, "d": 3}, _draw_screen),
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
                (lambda x: list(x), "The feature itself puts positives at both ends; a "
                                    "score must put both ends above the middle."),
                (lambda x: [-abs(v - 5) for v in x], "Far from the centre means positive: "
                                                     "the sign is reversed."),
            ),
            signature="x",
            same=lambda case, a, b: _judge_list(case, a, b) is None,
            # many scores are right: those that put every positive above every negative
            unique_output=False, order=_far_from_centre, public=_X_PUBLIC),
        worked="The distance |x - 5| puts every positive (distance > 3) above every "
               "negative.",
    ),
]
