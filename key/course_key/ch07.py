"""Chapter 7 exercises: precision, recall, PR curves and average precision."""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from course_lib import average_precision, pr_auc_trapezoid, roc_auc
from course_lib.exercises._core import (
    Exercise,
    FunctionSpec,
    Mistake,
    exact,
    function_exercise,
    parts,
    value_exercise,
    with_variants,
)

from . import _cases
from ._checkpoints import checkpoint
from ._hints import HINTS, auc_mistakes, keep_distinct, precision_mistakes
from ._variants import (
    and_join,
    approx_text,
    decimal_text,
    draw_table,
    number_word,
    ordinal_word,
    ratio_code,
    ratio_text,
    redraw,
    table_sentence,
    tenths_or_hundredths,
)
from .ch03 import TABLE1, TABLE1_TEXT


def precision_at_k(y_true, y_score, k):
    """Precision of the top ``k`` objects, ties at the cut broken at random (expected).

    >>> precision_at_k([1, 0, 1, 0], [0.9, 0.5, 0.5, 0.1], 2)
    0.75
    """
    y = np.asarray(y_true, dtype=bool)
    b = np.asarray(y_score, dtype=float)
    n = y.size
    if not 1 <= k <= n:
        raise ValueError(f"k must be in 1..{n}, got {k}")
    taken, positives = 0, 0.0
    for s in np.unique(b)[::-1]:
        group = b == s
        size = int(group.sum())
        share = min(size, k - taken)
        positives += share * y[group].sum() / size
        taken += share
        if taken == k:
            break
    return float(positives / k)


def _recall_at_k(y_true, y_score, k):
    m1 = sum(y_true)
    return float("nan") if m1 == 0 else precision_at_k(y_true, y_score, k) * k / m1


def _ascending_at_k(y_true, y_score, k):
    return precision_at_k(y_true, [-v for v in y_score], k)


def _stable_at_k(y_true, y_score, k):
    order = np.argsort(-np.asarray(y_score, dtype=float), kind="stable")
    return float(np.asarray(y_true)[order[:k]].mean())


def _whole_group_at_k(y_true, y_score, k):
    b = np.asarray(y_score, dtype=float)
    cut = np.sort(b)[::-1][k - 1]
    return float(np.asarray(y_true)[b >= cut].mean())


def _precision_point(data: dict) -> Exercise:
    tpr, fpr = Fraction(data["tpr"]), Fraction(data["fpr"])
    m1, m0 = data["positives"], data["negatives"]
    tp, fp = tpr * m1, fpr * m0
    if tp.denominator != 1 or fp.denominator != 1:
        raise ValueError(f"TPR x m1 and FPR x m0 must be counts, got {tp} and {fp}")
    precision = tp / (tp + fp)
    swapped = fpr * m1 / (fpr * m1 + tpr * m0)
    return value_exercise(
        id="precision-from-roc-point", chapter=7, title="Precision of a good-looking ROC point",
        question=f"""
A scorer's threshold has the ROC point $(\\mathrm{{FPR}}, \\mathrm{{TPR}}) = \
({decimal_text(fpr)}, {decimal_text(tpr)})$ on a
sample with {m1} positives and {m0} negatives. What is its precision (exactly)?
""",
        answer_name="precision_point",
        solution_code=f"tp, fp = {ratio_code(data['tpr'])} * {m1}, "
                      f"{ratio_code(data['fpr'])} * {m0}\n"
                      "precision_point = tp / (tp + fp)",
        solution=precision,
        checker=exact(precision, mistakes=keep_distinct(precision, [
            *precision_mistakes(tp, fp, m1 - tp),
            Mistake(swapped, HINTS["swapped"]),
        ])),
        worked=f"TP = {decimal_text(tpr)} x {m1} = {tp}, FP = {decimal_text(fpr)} x {m0} = "
               f"{fp}: precision {ratio_text(int(tp), int(tp + fp))}, "
               f"{approx_text(precision)}.",
    )


def _draw_point(rng: np.random.Generator) -> dict:
    return {"fpr": tenths_or_hundredths(int(rng.integers(2, 21))),
            "tpr": f"{int(rng.integers(6, 10))}/10",
            "positives": int(rng.choice([10, 20, 30, 40, 50])),
            "negatives": int(rng.choice([1000, 1500, 2000, 2500, 3000, 4000, 5000]))}


def _groups(y: list, b: list) -> list[tuple[float, list[int]]]:
    """The groups of tied scores, highest first, each with its objects' indices."""
    groups: dict[float, list[int]] = {}
    for i, v in enumerate(b):
        groups.setdefault(v, []).append(i)
    return sorted(groups.items(), reverse=True)


def _found(y: list, b: list) -> list[tuple[Fraction, Fraction, str]]:
    """(rise in recall, precision, which objects) at each threshold that finds positives."""
    m1 = sum(y)
    taken = found = 0
    steps = []
    for score, ids in _groups(y, b):
        taken += len(ids)
        pos = sum(y[i] for i in ids)
        found += pos
        if pos:
            what = f"object {ids[0] + 1}" if len(ids) == 1 else f"the tie at {score}"
            steps.append((Fraction(pos, m1), Fraction(found, taken), what))
    return steps


def _ap_sum_text(y: list, b: list) -> str:
    """``(1 + 2/3 + 3/5)/3`` when each step finds one positive, else the weighted sum."""
    steps = _found(y, b)
    m1 = sum(y)
    if all(rise == Fraction(1, m1) for rise, _, _ in steps):
        return "(" + " + ".join(str(p) for _, p, _ in steps) + f")/{m1}"
    return " + ".join(f"{rise} x {p}" for rise, p, _ in steps)


def _split_ties(b: list, y: list) -> list[list[float]]:
    """The scores with one object of a tie group (positives first) raised by 0.01."""
    out = []
    for _, ids in _groups(y, b):
        if len({y[i] for i in ids}) < 2:
            continue
        for i in sorted(ids, key=lambda i: (-y[i], i)):
            split = list(b)
            split[i] = round(b[i] + 0.01, 2)
            out.append(split)
    return out


def _ap_table(data: dict) -> Exercise:
    y, b = list(data["y"]), list(data["b"])
    ap = average_precision(y, b, exact=True)
    steps = _found(y, b)
    if all(rise == Fraction(1, sum(y)) for rise, _, _ in steps):
        rises = (f"Recall rises by 1/{sum(y)} at precisions "
                 + and_join(f"{p} ({what})" for _, p, what in steps))
    else:
        rises = "Recall rises by " + and_join(f"{rise} at precision {p} ({what})"
                                              for rise, p, what in steps)
    return value_exercise(
        id="ap-table1", chapter=7, title="Average precision of Table 1",
        question=f"""
{table_sentence(data, TABLE1, TABLE1_TEXT)}
What is the average precision $\\sum_k (R_k - R_{{k-1}}) P_k$ over the thresholds (from
the highest score down, a group of tied scores taken whole)? (Exact.)
""",
        answer_name="ap_table1",
        solution_code=f"ap_table1 = cl.average_precision({y},\n"
                      f"                                 {b}, "
                      "exact=True)",
        solution=ap,
        checker=exact(ap, mistakes=keep_distinct(ap, [
            Mistake(pr_auc_trapezoid(y, b), "This is the trapezoid area under "
                    "the PR curve; average precision is the step sum of P_k times the rise "
                    "in recall."),
            *(Mistake(average_precision(y, split, exact=True), HINTS["ties_split"])
              for split in _split_ties(b, y)),
            Mistake(average_precision(y, [-v for v in b], exact=True),
                    "The thresholds go from the highest score down (descending order)."),
        ])),
        worked=f"{rises}: AP = {_ap_sum_text(y, b)} = {ap}.",
    )


def _eighth(data: dict) -> Exercise:
    y, b, extra = list(data["y"]), list(data["b"]), data["extra"]
    if extra <= max(b):
        raise ValueError(f"the new negative must top the list, got {extra} <= {max(b)}")
    y8, b8 = y + [0], b + [extra]
    auc8 = roc_auc(y8, b8, exact=True)
    ap, ap8 = average_precision(y, b, exact=True), average_precision(y8, b8, exact=True)
    m1 = sum(y)
    return value_exercise(
        id="auc-ap-eighth-object", chapter=7, title="An eighth object",
        question=f"""
{table_sentence(data, TABLE1, TABLE1_TEXT)}
Add an {ordinal_word(len(y8))} object, a negative with score {extra}. Give the new ROC AUC \
and average
precision exactly, as a tuple (AUC, AP).
""",
        answer_name="auc_ap_8",
        solution_code=f"y8 = {y8}\n"
                      f"b8 = {b8}\n"
                      "auc_ap_8 = (cl.roc_auc(y8, b8, exact=True),\n"
                      "            cl.average_precision(y8, b8, exact=True))",
        solution=(auc8, ap8),
        checker=parts(auc=exact(auc8, mistakes=auc_mistakes(y8, b8)),
                      ap=exact(ap8, mistakes=keep_distinct(ap8, [
                          Mistake(ap, HINTS["unchanged"])]))),
        worked=f"The new negative tops the list, so its {number_word(m1)} pairs are wrong: "
               f"AUC {auc8}. Each positive is found one place later: "
               f"AP = {_ap_sum_text(y8, b8)} = {ap8}.",
    )


_BOOK_EIGHTH = {**TABLE1, "extra": 0.7}


def _draw_eighth(rng: np.random.Generator) -> dict:
    """A table below 0.9 and a new negative above all its scores; neither the AUC nor
    the AP of the book's answer is right for it."""
    book = _eighth(_BOOK_EIGHTH).solution

    def draw(rng: np.random.Generator) -> dict:
        table = redraw(rng, draw_table, lambda t: max(t["b"]) < 0.9)
        top = round(max(table["b"]) * 10)
        return {**table, "extra": int(rng.integers(top + 1, 10)) / 10}

    def differs(data: dict) -> bool:
        y8, b8 = list(data["y"]) + [0], list(data["b"]) + [data["extra"]]
        return (roc_auc(y8, b8, exact=True) != book[0]
                and average_precision(y8, b8, exact=True) != book[1])

    return redraw(rng, draw, differs)


def _thinned(data: dict) -> Exercise:
    tp, fp, keep = data["tp"], data["fp"], data["keep"]
    if fp % keep:
        raise ValueError(f"{fp} negatives cannot be thinned to one in {keep}")
    kept = fp // keep
    precision = Fraction(tp, tp + kept)
    return value_exercise(
        id="precision-thinned-negatives", chapter=7, title="Thinning the negatives",
        question=f"""
At some threshold {tp} positives and {fp} negatives are called positive. Keep one negative
in {number_word(keep)} at random (and all positives). What precision do we expect at that \
threshold
(exactly)?
""",
        answer_name="precision_thinned",
        solution_code=f"precision_thinned = Fraction({tp}, {tp} + {fp} // {keep})",
        solution=precision,
        checker=exact(precision, mistakes=keep_distinct(precision, [
            Mistake(Fraction(tp, tp + fp), HINTS["unchanged"] + " Precision depends on the "
                                           "balance of the classes."),
            Mistake(Fraction(tp, keep) / (Fraction(tp, keep) + fp),
                    "That thins the positives; here the negatives are thinned."),
        ])),
        worked=f"Recall is unchanged; the false positives shrink to {kept}: "
               f"{ratio_text(tp, tp + kept)}.",
    )


def _draw_thinned(rng: np.random.Generator) -> dict:
    def draw(rng: np.random.Generator) -> dict:
        keep = int(rng.choice([4, 5, 8, 10, 20]))
        return {"tp": int(rng.integers(10, 61)), "fp": keep * int(rng.integers(5, 41)),
                "keep": keep}

    return redraw(rng, draw, lambda d: d["fp"] >= 2 * d["tp"])


_RECALL_WORDS = {"1/2": "Half", "1/3": "A third of", "2/3": "Two thirds of",
                 "1/4": "A quarter of", "3/4": "Three quarters of", "1/5": "A fifth of",
                 "2/5": "Two fifths of", "3/5": "Three fifths of", "4/5": "Four fifths of"}


def _least_precision(data: dict) -> Exercise:
    pi, recall = Fraction(data["pi"]), Fraction(data["recall"])
    if pi.numerator != 1 or str(recall) not in _RECALL_WORDS:
        raise ValueError(f"pi must be 1/k and the recall one of {list(_RECALL_WORDS)}, "
                         f"got {pi} and {recall}")
    found = pi * recall
    least = found / (found + 1 - pi)
    return value_exercise(
        id="min-precision-unachievable", chapter=7, title="The floor of PR space",
        question=f"""
A sample has one positive in {number_word(pi.denominator)} ($\\pi = {pi}$). What is the least \
precision that any
ranking of it can have at recall ${recall}$, the edge of the unachievable region (exactly)?
""",
        answer_name="least_precision",
        solution_code=f"pi, recall = {ratio_code(str(pi))}, {ratio_code(str(recall))}\n"
                      "least_precision = pi * recall / (pi * recall + 1 - pi)",
        solution=least,
        checker=exact(least, mistakes=keep_distinct(least, [
            Mistake(pi, "This is the precision of a scorer that ignores the "
                        "objects; the worst ranking does worse, by putting "
                        "every negative first."),
            Mistake(found, "Precision divides the true positives by all objects "
                           "called positive, not by all objects."),
        ])),
        worked=f"{_RECALL_WORDS[str(recall)]} the positives (pi R = {found} of the sample) "
               f"come after all the negatives ({1 - pi}): precision ({found}) / "
               f"({found} + {1 - pi}) = {least}.",
    )


def _draw_least(rng: np.random.Generator) -> dict:
    return {"pi": f"1/{int(rng.integers(4, 31))}",
            "recall": str(rng.choice(sorted(_RECALL_WORDS)))}


#: The chapter's checkpoint, shown between its summary and its exercises.
_CHECKPOINT = checkpoint(
    7, "balance", "Checkpoint: what the class balance leaves alone",
    question="""
A scorer is tested twice on data from one population: on a sample with all its objects,
and on the same sample with nine negatives in ten removed at random. Which of these
describes the scorer alone, so that it stays the same on both samples (up to sampling
noise)? Answer a letter.

- (a) the PR curve
- (b) average precision
- (c) the ROC curve
- (d) the precision at recall 1/2
- (e) the area of the unachievable region of PR space
""",
    answer="c",
    mistakes={
        "a": "Precision counts the positives above a threshold against all the objects "
             "above it, negatives included: with fewer negatives it rises, and the PR "
             "curve moves up.",
        "b": "Average precision is a mean of precisions, and every precision rises when "
             "negatives are removed.",
        "d": "At a given recall, removing negatives removes false positives but no true "
             "positives, so the precision rises.",
        "e": "The floor pi R / (pi R + 1 - pi) is set by the share of positives pi, which "
             "grows when negatives are removed.",
    },
    worked="TPR and FPR are each computed within one class, so thinning one class at "
           "random leaves them, and the ROC curve, where they were; precision and all "
           "that is built on it move with the balance.",
)

EXERCISES = [
    _CHECKPOINT,
    with_variants(_precision_point, {"fpr": "1/10", "tpr": "8/10", "positives": 20,
                                     "negatives": 2000}, _draw_point),
    with_variants(_ap_table, TABLE1, draw_table),
    with_variants(_eighth, _BOOK_EIGHTH, _draw_eighth),
    with_variants(_thinned, {"tp": 30, "fp": 120, "keep": 10}, _draw_thinned),
    function_exercise(
        id="precision-at-k-function", chapter=7, title="Write precision at k",
        question="""
Write `precision_at_k(y_true, y_score, k)`: the share of positives among the `k`
objects with the highest scores. When tied scores straddle the cut, take the expected
value over a random order of the tied objects (a group of $g$ tied objects with $p$
positives, of which $r$ are needed to reach $k$, contributes $r p / g$ positives).
""",
        answer_name="precision_at_k_answer",
        solution_code='''
def precision_at_k_answer(y_true, y_score, k):
    y = np.asarray(y_true, dtype=float)
    b = np.asarray(y_score, dtype=float)
    above = b > np.sort(b)[::-1][k - 1]          # strictly above the cut score
    at = b == np.sort(b)[::-1][k - 1]            # the group at the cut
    need = k - above.sum()
    return float((y[above].sum() + need * y[at].mean()) / k)
''',
        spec=FunctionSpec(
            reference=precision_at_k, cases=_cases.precision_at_k_cases,
            wrong_versions=(
                (_recall_at_k, "Precision at k has the wrong denominator: it is the "
                               "share of positives among the k objects taken; divided by "
                               "all the positives it is the recall at k."),
                (_ascending_at_k, "The top k are the k highest scores (descending order)."),
                (_whole_group_at_k, HINTS["ties_split"].replace(
                    "must be taken whole (a threshold cannot split it); the answer splits "
                    "tied objects", "at the cut must count in proportion: exactly k objects "
                    "are taken, not the whole group")),
                (_stable_at_k, "Tied scores at the cut are taken in their given order; use "
                               "the expected value over a random order of the tied "
                               "objects."),
            ),
            signature="y_true, y_score, k", public=_cases.PRECISION_AT_K_PUBLIC),
        worked="Count the positives strictly above the cut score and add the needed share "
               "of the tied group at the cut.",
    ),
    with_variants(_least_precision, {"pi": "1/10", "recall": "1/2"}, _draw_least),
]
