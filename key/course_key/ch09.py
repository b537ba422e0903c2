"""Chapter 9 exercises: cost curves, operating ranges, normalized expected cost."""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from course_lib import normalized_expected_cost
from course_lib.exercises._core import (
    Exercise,
    FunctionSpec,
    Mistake,
    exact,
    function_exercise,
    parts,
    value_exercise,
    with_variants,
    with_whole_mistakes,
)

from ._checkpoints import checkpoint
from ._hints import HINTS, keep_distinct
from ._variants import (
    decimal_text,
    number_word,
    ratio_code,
    redraw,
    tenths_or_hundredths,
)


def _range(fpr: Fraction, tpr: Fraction) -> tuple[Fraction, Fraction]:
    return fpr / (fpr + tpr), (1 - fpr) / (2 - tpr - fpr)


def _nec_reference(fpr, tpr, pcf):
    return float(normalized_expected_cost(fpr, tpr, pcf))


def _nec_swapped(fpr, tpr, pcf):
    return _nec_reference(tpr, fpr, pcf)


def _nec_other_side(fpr, tpr, pcf):
    return _nec_reference(fpr, tpr, 1 - pcf)


#: The perfect point, the two trivial rules, PCF(+) = 1, and an inner point.
_NEC_PUBLIC = ({"fpr": 0.0, "tpr": 1.0, "pcf": 0.5}, {"fpr": 0.0, "tpr": 0.0, "pcf": 0.3},
               {"fpr": 1.0, "tpr": 1.0, "pcf": 0.3}, {"fpr": 0.5, "tpr": 0.5, "pcf": 1.0},
               {"fpr": 0.2, "tpr": 0.7, "pcf": 0.4})


def _nec_cases(seed: int) -> list[dict]:
    rng = np.random.default_rng(seed)
    cases = [dict(c) for c in _NEC_PUBLIC[:4]]
    for _ in range(12):
        f, t, p = (float(v) for v in np.round(rng.random(3), 3))
        cases.append({"fpr": f, "tpr": t, "pcf": p})
    return cases


def _pcf(data: dict) -> Exercise:
    p, c_miss = Fraction(data["p_pos"]), data["c_miss"]
    pcf = p * c_miss / (p * c_miss + (1 - p) * 1)
    return value_exercise(
        id="pcf-value", chapter=9, title="The probability-cost function",
        question=f"""
Positives are {round(100 * p)}% of the population, and a miss (a false negative) costs \
{number_word(c_miss)} times a
false alarm. What is
$\\mathrm{{PCF}}(+) = p(+)C(-|+) / (p(+)C(-|+) + p(-)C(+|-))$ (exactly)?
""",
        answer_name="pcf",
        solution_code=f"p_pos, c_miss, c_alarm = {ratio_code(str(p))}, {c_miss}, 1\n"
                      "pcf = p_pos * c_miss / (p_pos * c_miss + (1 - p_pos) * c_alarm)",
        solution=pcf,
        checker=exact(pcf, mistakes=keep_distinct(pcf, [
            Mistake(p / (p + (1 - p) * c_miss), HINTS["costs_swapped"])])),
        worked=f"{decimal_text(p)} x {c_miss} / ({decimal_text(p)} x {c_miss} + "
               f"{decimal_text(1 - p)} x 1) = {pcf}.",
    )


def _draw_pcf(rng: np.random.Generator) -> dict:
    return {"p_pos": f"{int(rng.integers(5, 46))}/100", "c_miss": int(rng.integers(2, 11))}


def _nec_point(data: dict) -> Exercise:
    pcf, fpr, tpr = (Fraction(data[k]) for k in ("pcf", "fpr", "tpr"))
    nec = (1 - tpr - fpr) * pcf + fpr
    trivial = min(pcf, 1 - pcf)
    verdict = ("less than half the" if nec < trivial / 2 else
               "below the" if nec < trivial else "no better than the")
    return value_exercise(
        id="nec-roc-point", chapter=9, title="The cost of a ROC point",
        question=f"""
At $\\mathrm{{PCF}}(+) = {pcf}$, what is the normalized expected cost
$\\mathrm{{NEC}} = (1 - \\mathrm{{TPR}} - \\mathrm{{FPR}})\\,\\mathrm{{PCF}}(+) + \
\\mathrm{{FPR}}$ of
the ROC point $(\\mathrm{{FPR}}, \\mathrm{{TPR}}) = ({decimal_text(fpr)}, \
{decimal_text(tpr)})$ (exactly)?
""",
        answer_name="nec_point",
        solution_code=f"fpr, tpr = {ratio_code(data['fpr'])}, {ratio_code(data['tpr'])}\n"
                      f"nec_point = (1 - tpr - fpr) * {ratio_code(str(pcf))} + fpr",
        solution=nec,
        checker=exact(nec, mistakes=keep_distinct(nec, [
            Mistake((1 - tpr - fpr) * pcf + tpr, HINTS["swapped"])])),
        worked=f"(1 - {decimal_text(tpr)} - {decimal_text(fpr)}) x {decimal_text(pcf)} + "
               f"{decimal_text(fpr)} = {decimal_text(nec)}, {verdict} "
               f"{decimal_text(trivial)} of the best trivial classifier.",
    )


def _draw_nec(rng: np.random.Generator) -> dict:
    """A PCF with a short decimal and a ROC point (in hundredths) that beats both
    trivial classifiers there."""

    def draw(rng: np.random.Generator) -> dict:
        return {"pcf": str(rng.choice(["1/5", "1/4", "2/5", "1/2", "3/5", "3/4", "4/5"])),
                "fpr": tenths_or_hundredths(int(rng.integers(5, 31))),
                "tpr": tenths_or_hundredths(int(rng.integers(50, 96)))}

    def useful(data: dict) -> bool:
        pcf, fpr, tpr = (Fraction(data[k]) for k in ("pcf", "fpr", "tpr"))
        return (1 - tpr - fpr) * pcf + fpr < min(pcf, 1 - pcf)

    return redraw(rng, draw, useful)


def _range_text(fpr: Fraction, tpr: Fraction) -> str:
    """``from 0.3/1.2 = 1/4 to 0.7/0.8 = 7/8``."""
    low, high = _range(fpr, tpr)
    return (f"from {decimal_text(fpr)}/{decimal_text(fpr + tpr)} = {low} to "
            f"{decimal_text(1 - fpr)}/{decimal_text(2 - tpr - fpr)} = {high}")


def _operating_range(data: dict) -> Exercise:
    fpr, tpr = Fraction(data["fpr"]), Fraction(data["tpr"])
    if tpr <= fpr:
        raise ValueError(f"the ROC point must lie above the diagonal, got ({fpr}, {tpr})")
    low, high = _range(fpr, tpr)
    return value_exercise(
        id="operating-range", chapter=9, title="An operating range",
        question=f"""
A classifier is useful where its cost line lies below both trivial classifiers'. For the
ROC point $(\\mathrm{{FPR}}, \\mathrm{{TPR}}) = ({decimal_text(fpr)}, {decimal_text(tpr)})$ \
this is the range of
$\\mathrm{{PCF}}(+)$ from $\\mathrm{{FPR}}/(\\mathrm{{FPR}} + \\mathrm{{TPR}})$ to
$(1 - \\mathrm{{FPR}})/(2 - \\mathrm{{TPR}} - \\mathrm{{FPR}})$. Give the two ends exactly, as
a tuple (from, to).
""",
        answer_name="operating_range",
        solution_code=f"fpr, tpr = {ratio_code(data['fpr'])}, {ratio_code(data['tpr'])}\n"
                      "operating_range = (fpr / (fpr + tpr), (1 - fpr) / (2 - tpr - fpr))",
        solution=(low, high),
        checker=with_whole_mistakes(
            parts(low=exact(low), high=exact(high)),
            ((high, low), "The ends are swapped: the range runs from the smaller."),
            (_range(tpr, fpr), HINTS["swapped"])),
        worked="F" + _range_text(fpr, tpr)[1:] + ".",
    )


def _draw_range(rng: np.random.Generator) -> dict:
    book = _range(Fraction(3, 10), Fraction(9, 10))

    def draw(rng: np.random.Generator) -> dict:
        return {"fpr": tenths_or_hundredths(int(rng.integers(5, 46))),
                "tpr": tenths_or_hundredths(int(rng.integers(55, 99)))}

    def differs(data: dict) -> bool:
        low, high = _range(Fraction(data["fpr"]), Fraction(data["tpr"]))
        return low != book[0] and high != book[1]

    return redraw(rng, draw, differs)


def _flipped_range(data: dict) -> Exercise:
    fpr, tpr = Fraction(data["fpr"]), Fraction(data["tpr"])
    if tpr >= fpr:
        raise ValueError(f"the ROC point must lie under the diagonal, got ({fpr}, {tpr})")
    flip_f, flip_t = 1 - fpr, 1 - tpr
    low, high = _range(flip_f, flip_t)
    return value_exercise(
        id="operating-range-reversed", chapter=9, title="Below the diagonal",
        question=f"""
The ROC point $({decimal_text(fpr)}, {decimal_text(tpr)})$ lies under the diagonal, so its \
operating range is empty.
The classifier that always gives the opposite answer has the ROC point
$(1 - \\mathrm{{FPR}}, 1 - \\mathrm{{TPR}})$. What is *its* operating range (exact ends, as a
tuple (from, to))?
""",
        answer_name="flipped_range",
        solution_code=f"fpr, tpr = 1 - {ratio_code(data['fpr'])}, "
                      f"1 - {ratio_code(data['tpr'])}\n"
                      "flipped_range = (fpr / (fpr + tpr), (1 - fpr) / (2 - tpr - fpr))",
        solution=(low, high),
        checker=with_whole_mistakes(
            parts(low=exact(low), high=exact(high)),
            (_range(fpr, tpr),
             "That is the range of the original point, which is empty (from > to); reverse "
             f"the answers first: ({decimal_text(flip_f)}, {decimal_text(flip_t)})."),
            (_range(flip_t, flip_f), HINTS["swapped"])),
        worked=f"The reversed point is ({decimal_text(flip_f)}, {decimal_text(flip_t)}): "
               f"{_range_text(flip_f, flip_t)}.",
    )


def _draw_flipped(rng: np.random.Generator) -> dict:
    book = _range(Fraction(8, 10), Fraction(9, 10))

    def draw(rng: np.random.Generator) -> dict:
        fpr = int(rng.integers(20, 71))
        return {"fpr": tenths_or_hundredths(fpr),
                "tpr": tenths_or_hundredths(int(rng.integers(5, fpr - 9)))}

    def differs(data: dict) -> bool:
        low, high = _range(1 - Fraction(data["fpr"]), 1 - Fraction(data["tpr"]))
        return low != book[0] and high != book[1]

    return redraw(rng, draw, differs)


#: The chapter's checkpoint, shown between its summary and its exercises.
_CHECKPOINT = checkpoint(
    9, "under-the-hull", "Checkpoint: a threshold under the hull",
    question="""
One threshold of a scorer has its ROC point $P$ strictly below the scorer's ROC convex
hull. What becomes of $P$'s line in cost space, where the scorer's cost curve is the
lower envelope of all its lines and of the two trivial ones? Answer a letter.

- (a) it makes a piece of the cost curve over some range of $\\mathrm{PCF}(+)$: every
  threshold is the best one somewhere
- (b) dropping it leaves the cost curve as it was: at every $\\mathrm{PCF}(+)$ a vertex
  of the hull or a trivial classifier costs no more
- (c) it makes the piece of the cost curve around $\\mathrm{PCF}(+) = 1/2$, where the
  two errors weigh the same
- (d) it makes the piece of the cost curve over its operating range, where it beats
  both trivial classifiers
- (e) that depends on the class shares and the costs, which ROC space does not show
""",
    answer="b",
    mistakes={
        "a": "Being a threshold of the scorer does not make a point the cheapest choice "
             "anywhere; recall which ROC points the lower envelope is made of.",
        "c": "PCF(+) = 1/2 is not special for the envelope: at any PCF(+), compare P with "
             "the point of the hull straight above it.",
        "d": "Beating both trivial classifiers is not enough to be the cheapest: the "
             "lines of the other thresholds are in cost space too.",
        "e": "The class shares and the costs enter only through PCF(+), the horizontal "
             "axis of cost space, and the comparison with the hull holds at every "
             "PCF(+).",
    },
    worked="At a fixed PCF(+) the normalized expected cost is linear in (FPR, TPR) and "
           "falls as TPR rises: the hull point above P costs no more than P, and as a mix "
           "of two hull vertices no less than the cheaper of them. Only the hull's "
           "vertices (and the trivial classifiers) make the cost curve.",
)

EXERCISES = [
    _CHECKPOINT,
    with_variants(_pcf, {"p_pos": "1/5", "c_miss": 4}, _draw_pcf),
    with_variants(_nec_point, {"pcf": "1/2", "fpr": "15/100", "tpr": "7/10"}, _draw_nec),
    with_variants(_operating_range, {"fpr": "3/10", "tpr": "9/10"}, _draw_range),
    with_variants(_flipped_range, {"fpr": "2/10", "tpr": "1/10"}, _draw_flipped),
    function_exercise(
        id="nec-function", chapter=9, title="Write the normalized expected cost",
        question="""
Write `nec(fpr, tpr, pcf)`: the normalized expected cost (a float) of the ROC point
$(\\mathrm{FPR}, \\mathrm{TPR})$ at the operating condition $\\mathrm{PCF}(+)$ = `pcf`.
""",
        answer_name="nec",
        solution_code='''
def nec(fpr, tpr, pcf):
    return (1 - tpr - fpr) * pcf + fpr
''',
        spec=FunctionSpec(
            reference=_nec_reference, cases=_nec_cases,
            wrong_versions=((_nec_swapped, HINTS["swapped"]),
                            (_nec_other_side, "PCF(+) multiplies the miss rate 1 - TPR; "
                                              "the false alarms get 1 - PCF(+).")),
            signature="fpr, tpr, pcf", public=_NEC_PUBLIC),
        worked="NEC = (1 - TPR) PCF(+) + FPR (1 - PCF(+)), the same as "
               "(1 - TPR - FPR) PCF(+) + FPR.",
    ),
]
