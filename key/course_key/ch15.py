"""Chapter 15 exercises: calibration is not ranking."""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from course_lib import isotonic_calibration
from course_lib.exercises._core import Exercise, Mistake, exact, value_exercise, with_variants

from ._checkpoints import checkpoint
from ._hints import auc_ties, keep_distinct
from ._variants import (
    _WORDS,
    decimal_text,
    draw_ranking_table,
    fraction_code,
    share_words,
    transposed_table,
)

# Table 1 of the book: labels and scores.
_TABLE1 = {"y": (0, 0, 0, 1, 1, 1, 0), "b": (0.5, 0.1, 0.2, 0.6, 0.2, 0.3, 0.0)}


def _is_book(data: dict) -> bool:
    return (tuple(data["y"]), tuple(data["b"])) == (_TABLE1["y"], _TABLE1["b"])


def _name(data: dict) -> str:
    return "Table 1" if _is_book(data) else "this table"


def _table(data: dict) -> str:
    return "\n" + transposed_table(data) + "\n"


def _yb(data: dict) -> tuple[tuple[int, ...], tuple[Fraction, ...]]:
    return (tuple(int(v) for v in data["y"]),
            tuple(Fraction(str(v)) for v in data["b"]))


def _tenths(b: tuple[Fraction, ...]) -> str:
    return "(" + ", ".join(str(int(v * 10)) for v in b) + ")"


def _draw_table(rng: np.random.Generator) -> dict:
    """A Table-1-like table (seven objects, three positive, one tie across the classes)
    that ranks better than chance and whose mean score differs from its share of
    positives."""
    while True:
        t = draw_ranking_table(rng)
        if sum(Fraction(str(v)) for v in t["b"]) != sum(t["y"]):
            return t


def _brier(data: dict) -> Exercise:
    y, b = _yb(data)
    n = len(y)
    squares = [(bi - yi) ** 2 for yi, bi in zip(y, b)]
    brier = sum(squares, Fraction(0)) / n
    mean_abs = sum((abs(bi - yi) for yi, bi in zip(y, b)), Fraction(0)) / n
    listed = ", ".join(decimal_text(v) for v in squares[:-1]) + \
        f" and {decimal_text(squares[-1])}"
    return value_exercise(
        id="brier-table1", chapter=15, title="The Brier score of Table 1",
        question=f"""
Read the scores of {_name(data)} as probabilities of class 1:
{_table(data)}
What is their Brier score, the mean of $(b_i - y_i)^2$ (exactly)?
""",
        answer_name="brier_table1",
        solution_code=f"""
y = {list(y)}
b = [Fraction(v, 10) for v in {_tenths(b)}]
brier_table1 = sum((bi - yi) ** 2 for yi, bi in zip(y, b)) / len(y)
""",
        solution=brier,
        checker=exact(brier, mistakes=keep_distinct(brier, [
            Mistake(brier * n, "This is the sum of the squares; the Brier score is their "
                               f"mean (divide by the {n} objects)."),
            Mistake(mean_abs, "This is the mean absolute difference; the Brier score "
                              "squares each difference."),
        ])),
        worked=f"The squared differences are {listed}; "
               f"their sum {decimal_text(brier * n)} divided by {n} is {brier}.",
    )


def _hull_auc(y: tuple[int, ...], b: tuple[Fraction, ...]) -> Fraction:
    """The area under the ROC convex hull: the AUC of the isotonic calibration."""
    m = isotonic_calibration(y, [float(v) for v in b], exact=True)
    value = dict(zip(m.thresholds.tolist(), m.values))
    return auc_ties(y, [value[float(v)] for v in b])


def _tie_text(y: tuple[int, ...], b: tuple[Fraction, ...]) -> str:
    ties = sorted({v for v, c in zip(b, y) if c == 1} & {v for v, c in zip(b, y) if c == 0})
    return " and ".join(str(float(v)) for v in ties)


def _auc_cubed(data: dict) -> Exercise:
    y, b = _yb(data)
    auc = auc_ties(y, b)
    hull = _hull_auc(y, b)
    tie = _tie_text(y, b)
    return value_exercise(
        id="auc-cubed-table1", chapter=15, title="Cubing the scores",
        question=f"""
Replace every score $b$ of {_name(data)} by $b^3$:
{_table(data)}
What is the ROC AUC of the new scores (exactly)?
""",
        answer_name="auc_cubed",
        solution_code=f"""
y = {list(y)}
b = np.array({[float(v) for v in b]})
auc_cubed = cl.roc_auc(y, b**3, exact=True)
""",
        solution=auc,
        checker=exact(auc, mistakes=keep_distinct(auc, [
            Mistake(hull, f"{hull} is the area of the ROC convex hull (the AUC after "
                          "isotonic calibration); b**3 keeps every tie and the "
                          "order."),
            Mistake(auc_ties(y, b, Fraction(0)), f"The tie at {tie} stays a tie after "
                                                  "cubing: it counts one half."),
        ]), hint="b -> b**3 is strictly increasing on [0, 1]: the order of the objects, ties "
                 "included, does not change, and the AUC sees only the order."),
        worked=f"Cubing is strictly increasing on [0, 1], so the order and the tie at {tie} "
               f"stay: the AUC is still {auc}, while the Brier score changes.",
    )


def _ece_one_bin(data: dict) -> Exercise:
    y, b = _yb(data)
    n = len(y)
    share = Fraction(sum(y), n)
    total = sum(b, Fraction(0))
    mean = total / n
    ece = abs(share - mean)
    big, small = sorted([share * 10 * n, total * 10], reverse=True)
    return value_exercise(
        id="ece-one-bin-table1", chapter=15, title="The ECE with a single bin",
        question=f"""
Put all {_WORDS[n]} objects of {_name(data)} in one bin:
{_table(data)}
What is the expected calibration error $\\sum_k (n_k/m)\\,|o_k - f_k|$ with this single
bin (exactly)? Here $o_k$ is the share of positives and $f_k$ the mean score of bin $k$.
""",
        answer_name="ece_one_bin",
        solution_code=f"""
ece_one_bin = abs({fraction_code(share)} - {fraction_code(mean)})
""",
        solution=ece,
        checker=exact(ece, mistakes=keep_distinct(ece, [
            Mistake(0, "One bin is calibrated only when its mean score equals its share "
                       "of positives: compare the two here."),
            Mistake(ece * n, f"Divide the sums by the {n} objects: the ECE compares "
                             "means."),
        ])),
        worked=f"The share of positives is {share} and the mean score "
               f"{decimal_text(total)}/{n} = {mean}, so the "
               f"ECE is {big}/{10 * n} - {small}/{10 * n} = {ece}.",
    )


def _iso_value(data: dict) -> Fraction:
    y, b = _yb(data)
    m = isotonic_calibration(y, [float(v) for v in b], exact=True)
    return Fraction(m.values[m.thresholds.tolist().index(float(data["s"]))])


def _isotonic(data: dict) -> Exercise:
    y, b = _yb(data)
    s = Fraction(str(data["s"]))
    value = _iso_value(data)
    m = isotonic_calibration(y, [float(v) for v in b], exact=True)
    if _is_book(data):
        mistakes = [
            Mistake(1, "The positive at 0.3 is followed by the negative at 0.5: the pair "
                       "violates the order and is pooled."),
            Mistake(Fraction(2, 3), "Pool the block 0.3-0.5 with the tie at 0.2 only if it "
                                    "violates the order: compare their means."),
        ]
        worked = ("By increasing score the labels are 0 (0.0), 0 (0.1), the tie 1/2 (0.2), "
                  "1 (0.3), 0 (0.5), 1 (0.6). The pair 1, 0 at 0.3 and 0.5 violates the "
                  "order and is pooled to 1/2, which does not fall below the tie's 1/2: the "
                  "value at 0.3 is 1/2.")
    else:
        own = next(c for c, v in zip(y, b) if v == s)
        mistakes = list(keep_distinct(value, [
            Mistake(own, "The object's own label is not its calibrated value: its "
                         "neighbours violate the order and are pooled with it."),
            Mistake(Fraction(sum(y), len(y)), "This pools the whole table; pool only "
                                              "adjacent blocks that violate the order."),
        ]))
        groups: dict[Fraction, list[int]] = {}
        for c, v in zip(y, b):
            groups.setdefault(v, []).append(c)
        labels = ", ".join(
            (f"{g[0]} ({float(v)})" if len(g) == 1 else
             f"the tie {Fraction(sum(g), len(g))} ({float(v)})")
            for v, g in sorted(groups.items()))
        blocks: list[tuple[list[str], Fraction]] = []
        for t, v in zip(m.thresholds.tolist(), m.values):
            if blocks and blocks[-1][1] == v:
                blocks[-1][0].append(str(t))
            else:
                blocks.append(([str(t)], Fraction(v)))
        pooled = ", ".join(f"{'-'.join([k[0], k[-1]] if len(k) > 1 else k)}: {v}"
                           for k, v in blocks)
        worked = (f"By increasing score the labels are {labels}. Pooling adjacent "
                  f"violators leaves the blocks {pooled}: the value at "
                  f"{float(s)} is {value}.")
    return value_exercise(
        id="isotonic-table1", chapter=15, title="Isotonic calibration of Table 1",
        question=f"""
Fit the isotonic (non-decreasing) calibration map to {_name(data)} by pooling adjacent
violators, tied scores pooled first:
{_table(data)}
Which probability does it give the object with score {float(s)} (exactly)?
""",
        answer_name="p_iso_03",
        solution_code=f"""
y = {list(y)}
b = {[float(v) for v in b]}
m = cl.isotonic_calibration(y, b, exact=True)
p_iso_03 = m.values[list(m.thresholds).index({float(s)})]
""",
        solution=value,
        checker=exact(value, mistakes=mistakes),
        worked=worked,
    )


def _draw_isotonic(rng: np.random.Generator) -> dict:
    """A table and an untied score whose calibrated value is pooled (strictly between
    0 and 1)."""
    while True:
        t = draw_ranking_table(rng)
        m = isotonic_calibration(t["y"], t["b"], exact=True)
        value = dict(zip(m.thresholds.tolist(), m.values))
        untied = [v for v in t["b"] if t["b"].count(v) == 1 and 0 < value[v] < 1]
        if untied:
            return {**t, "s": float(rng.choice(untied))}


def _plain(value: Fraction) -> Fraction | int:
    """An integral fraction as an int (as the book's mistakes write it)."""
    return int(value) if value.denominator == 1 else value


def _segment(data: dict) -> Exercise:
    pi = Fraction(data["pi"])
    (f0, t0), (f1, t1) = ([Fraction(v) for v in p] for p in (data["start"], data["end"]))
    d_tpr, d_fpr = t1 - t0, f1 - f0
    pos, neg = pi * d_tpr, (1 - pi) * d_fpr
    p = pos / (pos + neg)
    return value_exercise(
        id="hull-segment-probability", chapter=15, title="A hull segment as a probability",
        question=f"""
A segment of a ROC convex hull runs from $(\\mathrm{{FPR}}, \\mathrm{{TPR}}) = ({f0}, {t0})$ to
$({f1}, {t1})$, and {share_words(pi)} of the objects are positive ($\\pi = {pi}$). Which calibrated
probability does isotonic calibration give the objects of this segment (exactly)?
""",
        answer_name="p_segment",
        solution_code=f"""
pi = {fraction_code(pi)}
d_tpr, d_fpr = {fraction_code(d_tpr)}, {fraction_code(d_fpr)}
p_segment = pi * d_tpr / (pi * d_tpr + (1 - pi) * d_fpr)
""",
        solution=p,
        checker=exact(p, mistakes=keep_distinct(p, [
            Mistake(_plain(d_tpr / d_fpr), f"{d_tpr / d_fpr} is the slope dTPR/dFPR, a likelihood "
                                   "ratio, not a probability: the classes' shares matter "
                                   "too."),
            Mistake(d_tpr / (d_tpr + d_fpr), "dTPR/(dTPR + dFPR) ignores the class shares: "
                                             "the two classes are not equally common."),
        ])),
        worked=f"The segment holds pi dTPR = {pos} of the objects as positives and "
               f"(1 - pi) dFPR = {neg} as negatives: the share of positives is "
               f"({pos}) / ({pos + neg}) = {p}.",
    )


def _draw_segment(rng: np.random.Generator) -> dict:
    """A segment that can be a piece of a ROC convex hull from (0, 0) to (1, 1) (not
    steeper than the chord from (0, 0) to its start, not flatter than the chord from
    its end to (1, 1), not on the diagonal), on a grid of quarters, fifths or tenths,
    and a positive share with a short name."""
    pi = str(rng.choice(["1/10", "1/5", "1/4", "3/10", "1/3", "2/5", "1/2"]))
    grid = int(rng.choice([4, 5, 10]))
    while True:
        f0, f1 = sorted(int(v) for v in rng.choice(grid + 1, size=2, replace=False))
        t0, t1 = sorted(int(v) for v in rng.choice(grid + 1, size=2, replace=False))
        d_t, d_f = t1 - t0, f1 - f0
        concave = ((f0 == 0 or t0 * d_f >= d_t * f0)
                   and (grid - t1) * d_f <= d_t * (grid - f1)
                   and (f1 < grid or t1 == grid))
        if t0 >= f0 and t1 >= f1 and d_t != d_f and concave:
            return {"pi": pi, "start": [str(Fraction(f0, grid)), str(Fraction(t0, grid))],
                    "end": [str(Fraction(f1, grid)), str(Fraction(t1, grid))]}


#: The chapter's checkpoint, shown between its summary and its exercises.
_CHECKPOINT = checkpoint(
    15, "repair-keeps-auc", "Checkpoint: a repair that keeps the AUC",
    question="""
A default model has a ROC AUC of 0.80 on new loans, but its predicted probabilities
average 0.20 where 5% of the loans default. Which repair makes its probabilities usable
while keeping its AUC exactly as it is? Answer a letter.

- (a) a strictly increasing calibration map fitted on labelled loans, such as Platt
  scaling with a positive slope
- (b) retraining the model until its AUC reaches 0.90
- (c) none is needed: an AUC of 0.80 already shows that the probabilities are right
- (d) computing the ECE with fewer bins, so that it comes out small
- (e) isotonic regression, since on the loans it is fitted on it raises the AUC
""",
    answer="a",
    mistakes={
        "b": "The AUC judges the order of the scores only; a higher AUC says nothing about "
             "whether a score of 0.2 means a 20% risk.",
        "c": "The AUC cannot see calibration: a strictly increasing map of the scores "
             "keeps it and changes the probabilities as much as it likes.",
        "d": "Fewer bins let errors of opposite sign cancel inside a bin: the number "
             "changes, the probabilities do not.",
        "e": "Isotonic regression is only non-decreasing: it merges scores into ties, "
             "which changes the AUC, and its gain on the data it was fitted on is an "
             "artefact.",
    },
    worked="A strictly increasing map keeps the order of every pair, hence the AUC, and "
           "fitted on labelled data it moves the probabilities to the observed shares.",
)

EXERCISES = [
    _CHECKPOINT,
    with_variants(_brier, _TABLE1, _draw_table),
    with_variants(_auc_cubed, _TABLE1, _draw_table),
    with_variants(_ece_one_bin, _TABLE1, _draw_table),
    with_variants(_isotonic, {**_TABLE1, "s": 0.3}, _draw_isotonic),
    with_variants(_segment, {"pi": "1/5", "start": ["1/4", "1/2"], "end": ["1/2", "1"]},
                  _draw_segment),
]
