"""Chapter 8 exercises: gain, lift and KS curves, decile tables and profit."""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from course_lib import ks_statistic
from course_lib.exercises._core import (
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
from ._checkpoints import checkpoint
from ._hints import HINTS, keep_distinct, ks_over_rate
from ._variants import (
    approx_text,
    decimal_text,
    draw_table,
    number_word,
    ratio_code,
    ratio_text,
    redraw,
    table_sentence,
)
from .ch03 import TABLE1, TABLE1_TEXT


@quiet
def _ks_reference(y_true, y_score):
    return float(ks_statistic(y_true, y_score))


def _ks_rate(y_true, y_score):
    if len(set(y_true)) < 2:
        return float("nan")
    return ks_over_rate(y_true, y_score)


def _ks_reversed(y_true, y_score):
    if len(set(y_true)) < 2:
        return float("nan")
    return float(ks_statistic(y_true, [-v for v in y_score]))


def _ks_split_ties(y_true, y_score):
    y = np.asarray(y_true, dtype=bool)
    if y.all() or not y.any():
        return float("nan")
    order = np.argsort(-np.asarray(y_score, dtype=float), kind="stable")
    ys = y[order]
    gap = np.cumsum(ys) / ys.sum() - np.cumsum(~ys) / (~ys).sum()
    return float(max(0.0, gap.max()))


def _auc_from_gain(data: dict) -> Exercise:
    area = Fraction(data["area"])
    m1, m0 = data["positives"], data["negatives"]
    m = m0 + m1
    auc = (area * m - Fraction(m1, 2)) / m0
    return value_exercise(
        id="auc-from-gain-area", chapter=8, title="From the gain curve's area to the AUC",
        question=f"""
A model's gain curve (TPR against the share of objects selected from the top) has area
{decimal_text(area)} on a sample with {m1} positives and {m0} negatives. The area under \
the gain curve is
$(m_0\\,\\mathrm{{AUC}} + m_1/2)/(m_0 + m_1)$. What is the ROC AUC (exactly)?
""",
        answer_name="auc_from_gain",
        solution_code=f"m1, m0, area = {m1}, {m0}, {ratio_code(data['area'])}\n"
                      "auc_from_gain = (area * (m0 + m1) - Fraction(m1, 2)) / m0",
        solution=auc,
        checker=exact(auc, mistakes=keep_distinct(auc, [
            Mistake(area, "The gain curve's area is not the ROC AUC; solve the "
                          "formula for the AUC."),
            Mistake((area * m - Fraction(m0, 2)) / m1,
                    f"m0 and m1 are swapped: m1 = {m1} positives."),
        ])),
        worked=f"{decimal_text(area)} = ({m0} AUC + {Fraction(m1, 2)})/{m}, so AUC = "
               f"{ratio_text(int(area * m - Fraction(m1, 2)), m0)}, {approx_text(auc, 3)}.",
    )


def _draw_gain(rng: np.random.Generator) -> dict:
    """1000 customers, 30 to 300 positives (an even number), an area in hundredths whose
    AUC lies between 0.55 and 0.95."""
    m1 = 10 * int(rng.integers(3, 31))
    m0 = 1000 - m1
    low = int(np.ceil((m0 * 0.55 + m1 / 2) / 10))
    high = int(np.floor((m0 * 0.95 + m1 / 2) / 10))
    return {"area": f"{int(rng.integers(low, high + 1))}/100", "positives": m1,
            "negatives": m0}


def _ks_gaps(y: list, b: list) -> list[tuple[float, int, int]]:
    """(threshold, positives, negatives at or above it) for each distinct score."""
    return [(t, sum(1 for v, c in zip(b, y) if v >= t and c == 1),
             sum(1 for v, c in zip(b, y) if v >= t and c == 0))
            for t in sorted(set(b), reverse=True)]


def _rate_text(k: int, m: int) -> str:
    return "1" if k == m else "0" if k == 0 else f"{k}/{m}"


def _ks_parts(y: list, b: list) -> tuple[Fraction, list[tuple[Fraction, float, int, int]]]:
    """The exact KS and the thresholds by decreasing TPR - FPR (ties: higher first)."""
    m1, m0 = sum(y), len(y) - sum(y)
    gaps = [(Fraction(k1, m1) - Fraction(k0, m0), t, k1, k0) for t, k1, k0 in _ks_gaps(y, b)]
    gaps.sort(key=lambda g: (-g[0], -g[1]))
    return max(Fraction(0), gaps[0][0]), gaps


def _ks_table(data: dict) -> Exercise:
    y, b = list(data["y"]), list(data["b"])
    m1, m0 = sum(y), len(y) - sum(y)
    ks, gaps = _ks_parts(y, b)
    (_, best, k1, k0), (_, second, s1, s0) = gaps[0], gaps[1]
    cross = {v for v, c in zip(b, y) if c == 1} & {v for v, c in zip(b, y) if c == 0}
    untied = max([Fraction(0)] + [g for g, t, _, _ in gaps if t not in cross])
    code = (f"ks_table1 = Fraction(cl.ks_statistic({y},\n"
            f"                                     {b}))")
    if Fraction(float(ks)) != ks:
        code += ".limit_denominator(1000)"  # the float of a third is not a third
    return value_exercise(
        id="ks-table1", chapter=8, title="The KS statistic of Table 1",
        question=f"""
{table_sentence(data, TABLE1, TABLE1_TEXT)}
What is the KS statistic $\\max_\\theta (\\mathrm{{TPR}}(\\theta) - \\mathrm{{FPR}}(\\theta))$,
with "positive when $b \\ge \\theta$"? (Exact.)
""",
        answer_name="ks_table1",
        solution_code=code,
        solution=ks,
        checker=exact(ks, mistakes=keep_distinct(ks, [
            Mistake(Fraction(ks_over_rate(y, b)).limit_denominator(1000),
                    HINTS["ks_wrong_axis"]),
            Mistake(untied, HINTS["ties_split"] + " Here the best threshold is "
                            f"the tie at {best}."),
        ])),
        worked=f"At theta = {best}: TPR = {_rate_text(k1, m1)}, FPR = {_rate_text(k0, m0)}, "
               f"so KS = {ks} (at {second} only {_rate_text(s1, m1)} - "
               f"{_rate_text(s0, m0)}).",
    )


def _draw_ks(rng: np.random.Generator) -> dict:
    """A table whose largest TPR - FPR (positive) is reached only at the tie across the
    classes, as in Table 1."""

    def at_the_tie(table: dict) -> bool:
        y, b = list(table["y"]), list(table["b"])
        ks, gaps = _ks_parts(y, b)
        cross = {v for v, c in zip(b, y) if c == 1} & {v for v, c in zip(b, y) if c == 0}
        return ks > 0 and gaps[0][0] > gaps[1][0] and gaps[0][1] in cross

    return redraw(rng, draw_table, at_the_tie)


def _profit(responders: tuple, depth: int, revenue: int) -> int:
    return revenue * sum(responders[:depth]) - 100 * depth


def _best_depth(responders: tuple, revenue: int) -> int:
    return max(range(1, 11), key=lambda d: _profit(responders, d, revenue))


def _campaign(data: dict) -> Exercise:
    r, rev = tuple(data["responders"]), data["revenue"]
    if len(r) != 10 or any(a <= c for a, c in zip(r, r[1:])) or 100 in (v * rev for v in r):
        raise ValueError("ten decreasing decile counts, none at the break-even 100/revenue, "
                         f"expected; got {r} at revenue {rev}")
    best = _best_depth(r, rev)
    if not 2 <= best <= 8:
        raise ValueError(f"the best depth must be 2..8, got {best}")
    profit = _profit(r, best, rev)
    even = f"{100 / rev:.1f}".removesuffix(".0")
    return value_exercise(
        id="campaign-deciles", chapter=8, title="How many deciles to call",
        question=f"""
A campaign ranks 1000 customers and splits them into deciles of 100; the deciles hold
{", ".join(map(str, r))} responders, from the top. A contact costs 1 and a
response brings {rev}. How many deciles (from the top) should be called to maximize the
profit, and what is that profit? Answer a tuple (deciles, profit).
""",
        answer_name="campaign",
        solution_code=f"responders = {list(r)}\n"
                      f"profits = [{rev} * sum(responders[:d]) - 100 * d for d in range(1, 11)]\n"
                      "campaign = (int(np.argmax(profits)) + 1, max(profits))",
        solution=(best, profit),
        checker=with_whole_mistakes(
            parts(deciles=exact(best), profit=exact(profit)),
            ((best + 1, _profit(r, best + 1, rev)),
             f"A decile pays when its response rate exceeds cost/revenue = 1/{rev}: check "
             "each decile you add against it."),
            ((10, _profit(r, 10, rev)), "Calling everybody does not maximize the profit: stop "
                                        "when a decile's response rate falls below "
                                        "cost/revenue.")),
        worked=f"A decile pays when its responders exceed 100/{rev} = {even}: the first "
               f"{number_word(best)} do ({r[best - 1]} > {even}, then {r[best]} < {even}); "
               f"profit {rev} x {sum(r[:best])} - {100 * best} = {profit}.",
    )


_BOOK_CAMPAIGN = {"responders": (30, 18, 12, 9, 7, 6, 5, 4, 3, 2), "revenue": 15}


def _draw_campaign(rng: np.random.Generator) -> dict:
    """Decile counts falling like a gain curve's steps (a top decile of 20 to 45, each
    next one 60% to 85% of the last, all different) and a revenue of 8 to 30 per
    response; the best depth is 2..8 and neither part of the book's answer is right."""
    book = _campaign(_BOOK_CAMPAIGN).solution

    def draw(rng: np.random.Generator) -> dict:
        top, ratio = int(rng.integers(20, 46)), float(rng.uniform(0.6, 0.85))
        counts = [int(round(top * ratio**k + rng.uniform(-0.5, 0.5))) for k in range(10)]
        return {"responders": tuple(counts), "revenue": int(rng.integers(8, 31))}

    def sound(data: dict) -> bool:
        r, rev = data["responders"], data["revenue"]
        if r[-1] < 1 or any(a <= c for a, c in zip(r, r[1:])) or 100 in (v * rev for v in r):
            return False
        best = _best_depth(r, rev)
        return 2 <= best <= 8 and best != book[0] and _profit(r, best, rev) != book[1]

    return redraw(rng, draw, sound, tries=5000)


def _top_decile_lift_book() -> Exercise:
    """The book's exercise, as printed."""
    return value_exercise(
        id="ideal-top-decile-lift", chapter=8, title="The largest lift of the top decile",
        question="""
A campaign has 1000 customers, of whom 60 respond. What is the largest lift the top
decile (the 100 customers with the highest scores) can have, over all rankings?
""",
        answer_name="max_lift",
        solution_code="max_lift = Fraction(60, 60) / Fraction(100, 1000)",
        solution=10,
        checker=exact(10, mistakes=[
            Mistake(Fraction(1000, 60), "1/pi would need the top decile to hold only "
                                        "responders, but it holds 100 customers and there "
                                        "are only 60 responders."),
            Mistake(Fraction(60, 100), "This is the top decile's response rate; lift divides "
                                       "TPR by the share selected."),
        ]),
        worked="All 60 responders in the top decile: TPR = 1 at 10% of the customers, lift "
               "1/0.1 = 10.",
    )


_BOOK_TOP_DECILE = {"customers": 1000, "responders": 60}


def _top_decile_lift(data: dict) -> Exercise:
    """The largest lift of the top decile when the responders outnumber it: all of the
    top decile responds, TPR = S/R at the share 1/10, lift N/R."""
    if data == _BOOK_TOP_DECILE:
        return _top_decile_lift_book()
    n, r = int(data["customers"]), int(data["responders"])
    s = n // 10
    if n % 10 or not s < r < n:
        raise ValueError("more responders than the top decile holds, whole deciles")
    lift = Fraction(min(r, s), r) / Fraction(s, n)
    return value_exercise(
        id="ideal-top-decile-lift", chapter=8, title="The largest lift of the top decile",
        question=f"""
A campaign has {n} customers, of whom {r} respond. What is the largest lift the top
decile (the {s} customers with the highest scores) can have, over all rankings?
""",
        answer_name="max_lift",
        solution_code=f"max_lift = Fraction({s}, {r}) / Fraction({s}, {n})  "
                      "# the whole top decile responds",
        solution=lift,
        checker=exact(lift, mistakes=keep_distinct(lift, [
            Mistake(10, f"TPR = 1 at 10% would need all {r} responders in the top decile, "
                        f"but it holds only {s} customers: at most TPR = {s}/{r}."),
            Mistake(Fraction(s, r), "This is the top decile's TPR; lift divides TPR by the "
                                    "share selected, 1/10."),
            Mistake(1, "This is the top decile's response rate (all of it responds); lift "
                       f"divides it by the overall response rate {r}/{n}."),
        ])),
        worked=f"The top decile holds only {s} customers, fewer than the {r} responders: "
               f"at best all of them respond, TPR = {s}/{r} at 10% of the customers, lift "
               f"({s}/{r})/0.1 = {n}/{r} = {lift}.",
    )


def _draw_top_decile(rng: np.random.Generator) -> dict:
    """500 to 5000 customers (whole hundreds), more responders than the top decile holds
    (else the answer is the book's 10) and at most half of the customers."""
    n = 100 * int(rng.integers(5, 51))
    return {"customers": n, "responders": int(rng.integers(n // 10 + 1, n // 2 + 1))}


#: The chapter's checkpoint, shown between its summary and its exercises.
_CHECKPOINT = checkpoint(
    8, "ks-balance", "Checkpoint: what the share of positives leaves alone",
    question="""
A scorer's scores have the same distribution within each class in two samples; only the
share of positives differs between them. Which of these is the same in both samples (up
to sampling noise)? Answer a letter.

- (a) the gain curve
- (b) the lift of the top 10%
- (c) the KS statistic
- (d) the area under the gain curve
- (e) the largest lift that any ranking of the sample can reach
""",
    answer="c",
    mistakes={
        "a": "The gain curve is drawn against RPP = pi TPR + (1 - pi) FPR, which mixes "
             "the two classes: it moves with the share of positives pi.",
        "b": "The lift divides TPR by RPP, and RPP mixes the two classes.",
        "d": "The area under the gain curve is (1 - pi) AUC + pi/2: it moves with pi.",
        "e": "No selection is richer in positives than 100%, so the largest lift is "
             "1/pi, which moves with pi.",
    },
    worked="KS = max (TPR - FPR), and TPR and FPR are each computed within one class; "
           "everything drawn against RPP moves with the share of positives.",
)

EXERCISES = [
    _CHECKPOINT,
    with_variants(_auc_from_gain, {"area": "6/10", "positives": 100, "negatives": 900},
                  _draw_gain),
    with_variants(_ks_table, TABLE1, _draw_ks),
    with_variants(_top_decile_lift, _BOOK_TOP_DECILE, _draw_top_decile),
    with_variants(_campaign, _BOOK_CAMPAIGN, _draw_campaign),
    function_exercise(
        id="ks-statistic-function", chapter=8, title="Write the KS statistic",
        question="""
Write `ks_statistic(y_true, y_score)`: the largest $\\mathrm{TPR} - \\mathrm{FPR}$ over
all thresholds "positive when score $\\ge \\theta$" (including selecting nothing, which
gives 0), a float; a group of tied scores is selected whole. Return `float("nan")` when
a class is missing.
""",
        answer_name="ks_answer",
        solution_code='''
def ks_answer(y_true, y_score):
    y = np.asarray(y_true, dtype=bool)
    b = np.asarray(y_score, dtype=float)
    if y.all() or not y.any():
        return float("nan")
    best = 0.0
    for t in np.unique(b):
        called = b >= t
        best = max(best, called[y].mean() - called[~y].mean())
    return float(best)
''',
        spec=FunctionSpec(
            reference=_ks_reference, cases=_cases.binary_cases,
            wrong_versions=(
                (_ks_rate, HINTS["ks_wrong_axis"]),
                (_ks_reversed, HINTS["ks_sign"]),
                (_ks_split_ties, HINTS["ties_split"]),
            ),
            signature="y_true, y_score", public=_cases.BINARY_PUBLIC),
        worked="Try every distinct score as a threshold (groups of ties whole) and keep the "
               "largest TPR - FPR.",
    ),
]
