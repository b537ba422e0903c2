"""Chapter 14 exercises: curves on a data warehouse, from grouped counts."""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from course_lib import roc_auc
from course_lib.exercises._core import (
    Exercise,
    FunctionSpec,
    Mistake,
    exact,
    function_exercise,
    quiet,
    value_exercise,
    with_variants,
)

from ._checkpoints import checkpoint
from ._hints import HINTS, keep_distinct
from ._variants import count_table, draw_count_groups

# A small grouped table: (score, positives, negatives), highest score first.
_GROUPS = ((3, 2, 1), (2, 1, 2), (1, 1, 3))


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


# Spark's binned AUC: six distinct scores (highest first) as (pos, neg), numBins = 3.
_SPARK = ((1, 0), (0, 1), (1, 0), (1, 1), (0, 1), (0, 1))
_SPARK_SCORES = (0.9, 0.8, 0.7, 0.6, 0.5, 0.4)
_SPARK_BINS = 3


def _chunks(rows, num_bins: int) -> list[tuple[int, int]]:
    """Spark's merge of consecutive (pos, neg) rows into chunks of len // num_bins."""
    chunk = len(rows) // num_bins
    chunk = chunk if chunk >= 2 else 1
    return [(sum(p for p, _ in rows[i:i + chunk]), sum(q for _, q in rows[i:i + chunk]))
            for i in range(0, len(rows), chunk)]


def _binned(groups, num_bins: int) -> Fraction:
    merged = _chunks(groups, num_bins)
    m1 = sum(p for p, _ in groups)
    m0 = sum(q for _, q in groups)
    tp = 0
    area = 0
    for p, q in merged:
        tp += p
        area += q * (2 * tp - p)
    return Fraction(area, 2 * m1 * m0)


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


#: One tied group, a reversed pair, one class, groups in decreasing order and unsorted.
_GROUP_PUBLIC = (
    {"scores": [0.5], "positives": [1], "negatives": [1]},
    {"scores": [0.1, 0.9], "positives": [1, 0], "negatives": [0, 1]},
    {"scores": [0.2, 0.7], "positives": [0, 0], "negatives": [2, 3]},
    {"scores": [3.0, 2.0, 1.0], "positives": [2, 1, 1], "negatives": [1, 2, 3]},
    {"scores": [0.3, 0.6, 0.45], "positives": [4, 0, 2], "negatives": [0, 5, 2]},
)


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


_GROUPS_BOOK = {"groups": [list(g) for g in _GROUPS]}


def _groups_text(groups) -> str:
    return "\n" + count_table(("score", "positives", "negatives"), groups) + "\n"


def _groups_of(data: dict) -> tuple[tuple[int, int, int], ...]:
    return tuple((int(v), int(p), int(q)) for v, p, q in data["groups"])


def _auc_groups(data: dict) -> Exercise:
    groups = _groups_of(data)
    auc = _grouped_auc(groups)
    m1 = sum(p for _, p, _ in groups)
    m0 = sum(q for _, _, q in groups)
    terms, above, twice = [], 0, 0
    for _, p, q in groups:
        terms.append(f"{q} \\cdot ({2 * above} + {p})")
        twice += q * (2 * above + p)
        above += p
    ratio = f"{twice}/{2 * m1 * m0}"
    return value_exercise(
        id="warehouse-auc-groups", chapter=14, title="The AUC from grouped counts",
        question=f"""
A `GROUP BY score` query returned this table of a model's scores, with the number of
positives and negatives at each score:
{_groups_text(groups)}
What is the exact AUC (a tied positive-negative pair counts one half)?
""",
        answer_name="auc_groups",
        solution_code=f"groups = {list(groups)}  # highest first\n"
                      "m1 = sum(p for _, p, _ in groups)\n"
                      "m0 = sum(q for _, _, q in groups)\n"
                      "above, twice = 0, 0\n"
                      "for _, p, q in groups:\n"
                      "    twice += q * (2 * above + p)\n"
                      "    above += p\n"
                      "auc_groups = Fraction(twice, 2 * m1 * m0)",
        solution=auc,
        checker=exact(auc, mistakes=keep_distinct(auc, [
            Mistake(_grouped_auc(groups, Fraction(0)), HINTS["ties_zero"]),
            Mistake(_grouped_auc(groups, Fraction(1)), HINTS["ties_one"]),
            Mistake(1 - auc, HINTS["ascending"]),
        ])),
        worked=f"With $m_1 = {m1}$, $m_0 = {m0}$ the doubled pair count is "
               f"${' + '.join(terms)} = {twice}$, so "
               f"AUC = {ratio}" + ("" if ratio == str(auc) else f" = {auc}") + ".",
    )


def _draw_groups(rng: np.random.Generator) -> dict:
    """Three scores 3, 2, 1, each with 1 to 4 positives and 1 to 4 negatives (a tie
    across the classes at every score, as in the book's table), AUC above 1/2."""
    while True:
        groups = [[3 - i, p, q] for i, (p, q) in enumerate(draw_count_groups(rng))]
        if _grouped_auc(groups) > Fraction(1, 2):  # a model that ranks, as the book's
            return {"groups": groups}


def _tied_pairs(data: dict) -> Exercise:
    groups = _groups_of(data)
    tied = sum(p * q for _, p, q in groups)
    same_score = sum((p + q) * (p + q - 1) // 2 for _, p, q in groups)
    m1 = sum(p for _, p, _ in groups)
    m0 = sum(q for _, _, q in groups)
    products = " + ".join(f"{p} * {q}" for _, p, q in groups)
    return value_exercise(
        id="warehouse-tied-pairs", chapter=14, title="Tied pairs in a grouped table",
        question=f"""
A `GROUP BY score` query returned this table:
{_groups_text(groups)}
How many (positive, negative) pairs have tied scores?
""",
        answer_name="tied_pairs",
        solution_code=f"tied_pairs = {products}",
        solution=tied,
        checker=exact(tied, mistakes=keep_distinct(tied, [
            Mistake(same_score, "This counts every pair of objects with the same score; "
                                "only a positive with a negative makes a pair of the "
                                "AUC: pos x neg in each group."),
            Mistake(m1 * m0, "This is every (positive, negative) pair, m1 x m0; only "
                             "those in the same group are tied."),
        ])),
        worked="A group ties each of its positives with each of its negatives: "
               f"{products.replace('*', 'x')} = {tied} of the {m1 * m0} pairs.",
    )


_DECILE_BOOK = {"n": 1000, "above": 295, "size": 20}


def _tie_decile(data: dict) -> Exercise:
    n, above, size = int(data["n"]), int(data["above"]), int(data["size"])
    first = above * 10 // n + 1
    last = (above + size - 1) * 10 // n + 1
    split = (f"between bins {first} and {last}" if last == first + 1 else
             f"among bins {first} to {last}")
    return value_exercise(
        id="warehouse-tie-decile", chapter=14, title="The decile of a group of ties",
        question=f"""
A decile table of {n} loans sorted by decreasing score puts a whole group of tied
scores into one bin: a group with `above` loans scoring higher goes to bin
$\\lfloor \\mathit{{above}} \\cdot 10 / m \\rfloor + 1$. A group of {size} loans tied
at one score has {above} loans scoring higher. Which bin (1 to 10) does it go to?
""",
        answer_name="tie_bin",
        solution_code=f"tie_bin = {above} * 10 // {n} + 1",
        solution=first,
        checker=exact(first, mistakes=keep_distinct(first, [
            Mistake(last, "This is the bin of the group's last loan; the whole "
                          "group goes to the bin of its first member."),
            Mistake(first - 1, "The bins are numbered from 1: add 1 to the floor."),
        ])),
        worked=f"$\\lfloor {above} \\cdot 10 / {n} \\rfloor + 1 = {first - 1} + 1 = {first}$; "
               f"`NTILE(10)` would have split the group {split}.",
    )


def _draw_decile(rng: np.random.Generator) -> dict:
    """A tie group that straddles a decile boundary (so NTILE(10) would split it)."""
    n = int(rng.choice([500, 800, 1000, 1200, 1500, 2000, 2500, 3000, 4000, 5000]))
    size = int(rng.integers(5, min(n // 10, 60)))
    boundary = int(rng.integers(1, 10)) * n // 10
    above = int(rng.integers(boundary - size + 1, boundary))
    return {"n": n, "above": above, "size": size}


_SPARK_BOOK = {"rows": [list(r) for r in _SPARK]}


def _spark_auc(data: dict) -> Exercise:
    rows = tuple((int(p), int(q)) for p, q in data["rows"])
    binned, exact_auc = _binned(rows, _SPARK_BINS), _binned(rows, len(rows))
    m1 = sum(p for p, _ in rows)
    m0 = sum(q for _, q in rows)
    chunks = _chunks(rows, _SPARK_BINS)
    table = "\n".join(f"| {v} | {p} | {q} |" for v, (p, q) in zip(_SPARK_SCORES, rows))
    tps, terms, tp, twice = [], [], 0, 0
    for p, q in chunks:
        tp += p
        tps.append(str(tp))
        terms.append(f"{q} x {2 * tp - p}")
        twice += q * (2 * tp - p)
    return value_exercise(
        id="spark-binned-auc-tiny", chapter=14, title="Spark's binned AUC on six scores",
        question=f"""
Six distinct scores hold these numbers of positives and negatives:

| score | positives | negatives |
|------:|----------:|----------:|
{table}

So $m_1 = {m1}$ and $m_0 = {m0}$. Spark's `BinaryClassificationEvaluator` with
`numBins` = {_SPARK_BINS} merges consecutive distinct scores into chunks of
$\\lfloor D / \\mathit{{numBins}} \\rfloor$ when that is at least 2 ($D$ = the number of
distinct scores), and takes the trapezoid area through $(0, 0)$ and one ROC point per
chunk. What AUC does it report (exactly)?
""",
        answer_name="spark_auc",
        solution_code=f"chunks = {chunks}  # (pos, neg) of 2 scores each\n"
                      f"m1, m0, tp, twice = {m1}, {m0}, 0, 0\n"
                      "for p, q in chunks:\n"
                      "    tp += p\n"
                      "    twice += q * (2 * tp - p)\n"
                      "spark_auc = Fraction(twice, 2 * m1 * m0)",
        solution=binned,
        checker=exact(binned, mistakes=keep_distinct(binned, [
            Mistake(exact_auc, "This is the exact AUC. With D = 6 and numBins = 3 "
                               "Spark merges pairs of neighbouring scores, and a "
                               "chunk counts its pairs one half, like a tie."),
            Mistake(1 - binned, HINTS["ascending"]),
        ])),
        worked=f"Chunks of 2: {', '.join(str(c) for c in chunks)}; cumulative tp "
               f"{', '.join(tps)}, so the "
               f"doubled area is {' + '.join(terms)} = {twice} and the AUC {binned}, "
               f"against the exact {exact_auc}.",
    )


def _draw_spark(rng: np.random.Generator) -> dict:
    """Six distinct scores with 0 to 2 positives and negatives each (at least one
    object per score, at least two of each class), exact AUC above 1/2 and not
    equal to the binned one."""
    while True:
        rows = [[int(v) for v in rng.integers(0, 3, size=2)] for _ in range(6)]
        if any(p + q == 0 for p, q in rows):
            continue
        pos = sum(p for p, _ in rows)
        neg = sum(q for _, q in rows)
        if (pos >= 2 and neg >= 2 and _binned(rows, 6) > Fraction(1, 2)
                and _binned(rows, 3) != _binned(rows, 6)):
            return {"rows": rows}


#: The chapter's checkpoint, shown between its summary and its exercises.
_CHECKPOINT = checkpoint(
    14, "what-moves-the-auc", "Checkpoint: what moves the exact AUC",
    question="""
The chapter's SQL returns the exact AUC of a score column, ties counting one half. Which
of these changes the number it returns for a table? Answer a letter.

- (a) reading the same rows in another order, or split into other partitions
- (b) rounding the scores to fewer decimals, so that more of them tie
- (c) running the same statement on Spark instead of DuckDB
- (d) adding 0 to every score and casting the pair counts to a 128-bit integer
- (e) multiplying every score by 100
""",
    answer="b",
    mistakes={
        "a": "The statement groups the rows by score before anything else, so their order "
             "and partitioning never reach the sums.",
        "c": "The statements are the same on both engines, and the sums are exact "
             "integers on both.",
        "d": "Adding 0 changes no score's order, and a wider integer type changes no "
             "integer.",
        "e": "A strictly increasing map keeps the order of the scores, and the AUC depends "
             "on nothing else.",
    },
    worked="Only the order of the scores, with its ties, enters the AUC. Rounding merges "
           "scores into ties, and a tied (positive, negative) pair counts one half "
           "whichever way the finer scores ordered it.",
)

EXERCISES = [
    _CHECKPOINT,
    with_variants(_auc_groups, _GROUPS_BOOK, _draw_groups),
    with_variants(_tied_pairs, _GROUPS_BOOK, _draw_groups),
    with_variants(_tie_decile, _DECILE_BOOK, _draw_decile),
    with_variants(_spark_auc, _SPARK_BOOK, _draw_spark),
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
            signature="scores, positives, negatives", public=_GROUP_PUBLIC),
        worked="Sort the groups by decreasing score and keep the number of positives "
               "above; each negative of a group beats none of them, loses to `above` "
               "and ties with the group's `pos`.",
    ),
]
