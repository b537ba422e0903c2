"""Chapter 14 exercises: curves on a data warehouse, from grouped counts."""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from course_lib import roc_auc
from course_lib.exercises._core import (
    FunctionSpec,
    Mistake,
    exact,
    function_exercise,
    quiet,
    value_exercise,
)

from ._hints import HINTS

# A small grouped table: (score, positives, negatives), highest score first.
_GROUPS = ((3, 2, 1), (2, 1, 2), (1, 1, 3))
_GROUPS_TEXT = """
| score | positives | negatives |
|------:|----------:|----------:|
| 3 | 2 | 1 |
| 2 | 1 | 2 |
| 1 | 1 | 3 |
"""


def _grouped_auc(groups, tie: Fraction = Fraction(1, 2)) -> Fraction:
    """The AUC from (score, pos, neg) groups, a tied pair counting ``tie``."""
    m1 = sum(p for _, p, _ in groups)
    m0 = sum(q for _, _, q in groups)
    above = 0
    total = Fraction(0)
    for _, p, q in sorted(groups, key=lambda g: -g[0]):
        total += q * (above + tie * p)
        above += p
    return total / (m1 * m0)


_AUC = _grouped_auc(_GROUPS)
_TIED = sum(p * q for _, p, q in _GROUPS)
_SAME_SCORE = sum((p + q) * (p + q - 1) // 2 for _, p, q in _GROUPS)

# The decile of a tie group: n loans, `above` scoring higher, `size` tied.
_N, _ABOVE, _SIZE = 1000, 295, 20
_BIN = _ABOVE * 10 // _N + 1
_BIN_LAST = (_ABOVE + _SIZE - 1) * 10 // _N + 1

# Spark's binned AUC: six distinct scores (highest first) as (pos, neg), numBins = 3.
_SPARK = ((1, 0), (0, 1), (1, 0), (1, 1), (0, 1), (0, 1))
_SPARK_SCORES = (0.9, 0.8, 0.7, 0.6, 0.5, 0.4)
_SPARK_BINS = 3
_SPARK_TABLE = "\n".join(f"| {v} | {p} | {q} |" for v, (p, q) in zip(_SPARK_SCORES, _SPARK))


def _binned(groups, num_bins: int) -> Fraction:
    chunk = len(groups) // num_bins
    chunk = chunk if chunk >= 2 else 1
    merged = [tuple(map(sum, zip(*groups[i:i + chunk])))
              for i in range(0, len(groups), chunk)]
    m1 = sum(p for p, _ in groups)
    m0 = sum(q for _, q in groups)
    tp = 0
    area = 0
    for p, q in merged:
        tp += p
        area += q * (2 * tp - p)
    return Fraction(area, 2 * m1 * m0)


_SPARK_BINNED = _binned(_SPARK, _SPARK_BINS)
_SPARK_EXACT = _binned(_SPARK, len(_SPARK))


def _expand(scores, positives, negatives):
    y: list[int] = []
    s: list[float] = []
    for v, p, q in zip(scores, positives, negatives):
        y += [1] * int(p) + [0] * int(q)
        s += [float(v)] * (int(p) + int(q))
    return y, s


@quiet
def _auc_reference(scores, positives, negatives):
    y, s = _expand(scores, positives, negatives)
    if len(set(y)) < 2:
        return float("nan")
    return float(roc_auc(y, s))


def _auc_tie(tie):
    def wrong(scores, positives, negatives):
        if sum(positives) == 0 or sum(negatives) == 0:
            return float("nan")
        groups = list(zip(scores, positives, negatives))
        return float(_grouped_auc(groups, tie))
    return wrong


def _auc_ascending(scores, positives, negatives):
    if sum(positives) == 0 or sum(negatives) == 0:
        return float("nan")
    groups = [(-v, p, q) for v, p, q in zip(scores, positives, negatives)]
    return float(_grouped_auc(groups))


def _group_cases(seed: int) -> list[dict]:
    """Grouped tables (distinct scores, in any order): edge cases and random ones."""
    rng = np.random.default_rng(seed)
    cases = [
        ([0.9, 0.1], [1, 0], [0, 1]),
        ([0.5], [1], [1]),
        ([0.1, 0.9], [1, 0], [0, 1]),
        ([3.0, 2.0, 1.0], [2, 1, 1], [1, 2, 3]),
        ([0.2, 0.7], [0, 0], [2, 3]),
        ([0.3, 0.6, 0.45], [4, 0, 2], [0, 5, 2]),
    ]
    for _ in range(10):
        d = int(rng.integers(1, 12))
        scores = rng.choice(np.arange(100), size=d, replace=False) / 10
        pos = rng.integers(0, 6, d)
        neg = rng.integers(0, 6, d)
        pos[0] += 1
        neg[-1] += 1
        cases.append(([float(v) for v in scores], [int(v) for v in pos],
                      [int(v) for v in neg]))
    return [{"scores": s, "positives": p, "negatives": q} for s, p, q in cases]


EXERCISES = [
    value_exercise(
        id="warehouse-auc-groups", chapter=14, title="The AUC from grouped counts",
        question=f"""
A `GROUP BY score` query returned this table of a model's scores, with the number of
positives and negatives at each score:
{_GROUPS_TEXT}
What is the exact AUC (a tied positive-negative pair counts one half)?
""",
        answer_name="auc_groups",
        solution_code="groups = [(3, 2, 1), (2, 1, 2), (1, 1, 3)]  # highest first\n"
                      "m1 = sum(p for _, p, _ in groups)\n"
                      "m0 = sum(q for _, _, q in groups)\n"
                      "above, twice = 0, 0\n"
                      "for _, p, q in groups:\n"
                      "    twice += q * (2 * above + p)\n"
                      "    above += p\n"
                      "auc_groups = Fraction(twice, 2 * m1 * m0)",
        solution=_AUC,
        checker=exact(_AUC, mistakes=[
            Mistake(_grouped_auc(_GROUPS, Fraction(0)), HINTS["ties_zero"]),
            Mistake(_grouped_auc(_GROUPS, Fraction(1)), HINTS["ties_one"]),
            Mistake(1 - _AUC, HINTS["ascending"]),
        ]),
        worked="With $m_1 = 4$, $m_0 = 6$ the doubled pair count is "
               "$1 \\cdot (0 + 2) + 2 \\cdot (4 + 1) + 3 \\cdot (6 + 1) = 33$, so "
               "AUC = 33/48 = 11/16.",
    ),
    value_exercise(
        id="warehouse-tied-pairs", chapter=14, title="Tied pairs in a grouped table",
        question=f"""
A `GROUP BY score` query returned this table:
{_GROUPS_TEXT}
How many (positive, negative) pairs have tied scores?
""",
        answer_name="tied_pairs",
        solution_code="tied_pairs = 2 * 1 + 1 * 2 + 1 * 3",
        solution=_TIED,
        checker=exact(_TIED, mistakes=[
            Mistake(_SAME_SCORE, "This counts every pair of objects with the same score; "
                                 "only a positive with a negative makes a pair of the "
                                 "AUC: pos x neg in each group."),
            Mistake(4 * 6, "This is every (positive, negative) pair, m1 x m0; only those "
                           "in the same group are tied."),
        ]),
        worked="A group ties each of its positives with each of its negatives: "
               "2 x 1 + 1 x 2 + 1 x 3 = 7 of the 24 pairs.",
    ),
    value_exercise(
        id="warehouse-tie-decile", chapter=14, title="The decile of a group of ties",
        question=f"""
A decile table of {_N} loans sorted by decreasing score puts a whole group of tied
scores into one bin: a group with `above` loans scoring higher goes to bin
$\\lfloor \\mathit{{above}} \\cdot 10 / n \\rfloor + 1$. A group of {_SIZE} loans tied
at one score has {_ABOVE} loans scoring higher. Which bin (1 to 10) does it go to?
""",
        answer_name="tie_bin",
        solution_code=f"tie_bin = {_ABOVE} * 10 // {_N} + 1",
        solution=_BIN,
        checker=exact(_BIN, mistakes=[
            Mistake(_BIN_LAST, "This is the bin of the group's last loan; the whole "
                               "group goes to the bin of its first member."),
            Mistake(_BIN - 1, "The bins are numbered from 1: add 1 to the floor."),
        ]),
        worked=f"$\\lfloor {_ABOVE} \\cdot 10 / {_N} \\rfloor + 1 = 2 + 1 = {_BIN}$; "
               "`NTILE(10)` would have split the group between bins 3 and 4.",
    ),
    value_exercise(
        id="spark-binned-auc-tiny", chapter=14, title="Spark's binned AUC on six scores",
        question=f"""
Six distinct scores hold these numbers of positives and negatives:

| score | positives | negatives |
|------:|----------:|----------:|
{_SPARK_TABLE}

So $m_1 = 3$ and $m_0 = 4$. Spark's `BinaryClassificationEvaluator` with
`numBins` = {_SPARK_BINS} merges consecutive distinct scores into chunks of
$\\lfloor D / \\mathit{{numBins}} \\rfloor$ when that is at least 2 ($D$ = the number of
distinct scores), and takes the trapezoid area through $(0, 0)$ and one ROC point per
chunk. What AUC does it report (exactly)?
""",
        answer_name="spark_auc",
        solution_code="chunks = [(1, 1), (2, 1), (0, 2)]  # (pos, neg) of 2 scores each\n"
                      "m1, m0, tp, twice = 3, 4, 0, 0\n"
                      "for p, q in chunks:\n"
                      "    tp += p\n"
                      "    twice += q * (2 * tp - p)\n"
                      "spark_auc = Fraction(twice, 2 * m1 * m0)",
        solution=_SPARK_BINNED,
        checker=exact(_SPARK_BINNED, mistakes=[
            Mistake(_SPARK_EXACT, "This is the exact AUC. With D = 6 and numBins = 3 "
                                  "Spark merges pairs of neighbouring scores, and a "
                                  "chunk counts its pairs one half, like a tie."),
            Mistake(1 - _SPARK_BINNED, HINTS["ascending"]),
        ]),
        worked="Chunks of 2: (1, 1), (2, 1), (0, 2); cumulative tp 1, 3, 3, so the "
               "doubled area is 1 x 1 + 1 x 4 + 2 x 6 = 17 and the AUC 17/24, "
               "against the exact 19/24.",
    ),
    function_exercise(
        id="warehouse-auc-function", chapter=14, title="Write the AUC from grouped counts",
        question="""
Write `auc_from_groups(scores, positives, negatives)`: the three lists are what a
`GROUP BY score` query returns, one entry per distinct score (in any order), with the
number of positives and negatives at that score. Return the AUC as a float, a tied
(positive, negative) pair counting one half, without expanding the groups into rows.
Return `float("nan")` when there are no positives or no negatives.
""",
        answer_name="auc_from_groups",
        solution_code='''
def auc_from_groups(scores, positives, negatives):
    groups = sorted(zip(scores, positives, negatives), reverse=True)
    m1, m0 = sum(positives), sum(negatives)
    if m1 == 0 or m0 == 0:
        return float("nan")
    above, twice = 0, 0
    for _, p, q in groups:
        twice += q * (2 * above + p)
        above += p
    return twice / (2 * m1 * m0)
''',
        spec=FunctionSpec(
            reference=_auc_reference, cases=_group_cases,
            wrong_versions=(
                (_auc_tie(Fraction(0)), HINTS["ties_zero"]),
                (_auc_tie(Fraction(1)), HINTS["ties_one"]),
                (_auc_ascending, HINTS["ascending"]),
            ),
            signature="scores, positives, negatives"),
        worked="Sort the groups by decreasing score and keep the number of positives "
               "above; each negative of a group beats none of them, loses to `above` "
               "and ties with the group's `pos`.",
    ),
]
