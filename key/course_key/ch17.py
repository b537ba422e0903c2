"""Chapter 17 exercises: the partial AUC and the H-measure."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from course_lib import partial_roc_auc, roc_auc
from course_lib.exercises._core import Exercise, Mistake, exact, value_exercise, with_variants

from ._checkpoints import checkpoint
from ._hints import HINTS, keep_distinct
from ._variants import decimal_text, draw_ranking_table, fraction_code, wrap_items

# Table 1: the curve holds TPR 1/3 on FPR [0, 1/4], then the tie (3, 5) is the diagonal
# segment (1/4, 2/3) -> (1/2, 1): 1/12 + 1/4 (2/3 + 1) / 2 = 7/24.
_TABLE1 = {"y": (0, 0, 0, 1, 1, 1, 0), "b": (0.5, 0.1, 0.2, 0.6, 0.2, 0.3, 0.0)}
_HALF = Fraction(1, 2)
_MIN_HALF, _MAX_HALF = Fraction(1, 8), Fraction(1, 2)  # the diagonal's area, the strip's


def _is_book(data: dict) -> bool:
    return (tuple(data["y"]), tuple(data["b"])) == (_TABLE1["y"], _TABLE1["b"])


def _yb(data: dict) -> tuple[list[int], list[float]]:
    return [int(v) for v in data["y"]], [float(v) for v in data["b"]]


def _yb_text(data: dict) -> str:
    y, b = _yb(data)
    return f"labels `y = {y}`, scores\n`b = {b}`"


def _yb_code(data: dict) -> str:
    y, b = _yb(data)
    return f"y = {y}\nb = {b}\n"


def _vertices(y: list[int], b: list[float]) -> list[tuple[Fraction, Fraction]]:
    """The ROC vertices (exact), one per distinct score from the highest, from (0, 0)."""
    m1, m0 = sum(y), len(y) - sum(y)
    points = [(Fraction(0), Fraction(0))]
    tp = fp = 0
    for v in sorted(set(b), reverse=True):
        tp += sum(1 for yi, bi in zip(y, b) if bi == v and yi == 1)
        fp += sum(1 for yi, bi in zip(y, b) if bi == v and yi == 0)
        points.append((Fraction(fp, m0), Fraction(tp, m1)))
    return points


def _distinct(right: Fraction, mistakes: list[Mistake], book: bool) -> tuple[Mistake, ...]:
    """The mistakes without repeats or the right answer; the book's list as it was."""
    return tuple(mistakes) if book else keep_distinct(right, mistakes)


def _pauc(y: list[int], b: list[float], tie: str = "half") -> Fraction:
    """The area over FPR 0..1/2; a tie as a straight segment ("half"), as right then up
    ("zero") or as up then right ("one")."""
    if tie != "half":
        eps = 0.01 if tie == "one" else -0.01  # scores are on a 0.1 grid
        b = [v + eps * yi for v, yi in zip(b, y)]
    return Fraction(partial_roc_auc(y, b, max_fpr=_HALF, exact=True))


def _pauc_worked(y: list[int], b: list[float], area: Fraction) -> str:
    pts: list[str] = []
    pieces: list[Fraction] = []
    verts = _vertices(y, b)
    for (f0, t0), (f1, t1) in zip(verts, verts[1:]):
        if f0 >= _HALF:
            break
        if f1 > _HALF:  # cut the segment at FPR = 1/2
            t1 = t0 + (t1 - t0) * (_HALF - f0) / (f1 - f0)
            f1 = _HALF
        if not pts:
            pts.append(f"({f0}, {t0})")
        pts.append(f"({f1}, {t1})")
        if f1 > f0:
            pieces.append((f1 - f0) * (t0 + t1) / 2)
    pieces = [v for v in pieces if v]
    total = (f"its trapezoids add up to {' + '.join(str(v) for v in pieces)} = {area}"
             if len(pieces) > 1 else f"the area under it is {area}")
    return (f"Up to FPR 1/2 the curve runs {' -> '.join(pts)} (a tie as a straight "
            f"segment); {total}.")


def _pauc_half(data: dict) -> Exercise:
    y, b = _yb(data)
    area = _pauc(y, b)
    whole = Fraction(roc_auc(y, b, exact=True))
    book = _is_book(data)
    return value_exercise(
        id="pauc-table1-half", chapter=17, title="A partial area of Table 1",
        question=f"""
{"Table 1 of the book: l" if book else "L"}{_yb_text(data)[1:]}. What is the area under its ROC curve over
false positive rates from 0 to 1/2 (exactly; ties as a straight segment)?
""",
        answer_name="pauc_half",
        solution_code=_yb_code(data)
        + 'pauc_half = cl.partial_roc_auc(y, b, max_fpr=Fraction(1, 2), exact=True)',
        solution=area,
        checker=exact(area, mistakes=keep_distinct(area, [
            Mistake(whole, "That is the whole AUC; stop at FPR = 1/2."),
            Mistake(_pauc(y, b, "zero"), HINTS["ties_zero"]),
            Mistake(_pauc(y, b, "one"), HINTS["ties_one"]),
        ])),
        worked=("TPR is 1/3 up to FPR 1/4 (area 1/12), then the tie runs straight from "
                "(1/4, 2/3) to (1/2, 1) (area 1/4 x 5/6 = 5/24): 7/24." if book else
                _pauc_worked(y, b, area)),
    )


def _mcclish(data: dict) -> Exercise:
    y, b = _yb(data)
    area = _pauc(y, b)
    value = (1 + (area - _MIN_HALF) / (_MAX_HALF - _MIN_HALF)) / 2
    ratio = (area - _MIN_HALF) / (_MAX_HALF - _MIN_HALF)
    den = math.lcm(area.denominator, 8)
    sign = "+" if ratio >= 0 else "-"
    where = ("the previous exercise (Table 1, FPR from 0 to 1/2)" if _is_book(data) else
             f"the ROC curve of {_yb_text(data)} over FPR from 0 to 1/2")
    return value_exercise(
        id="mcclish-table1-half", chapter=17, title="McClish's standardization",
        question=f"""
Standardize the partial area of {where} by
McClish's formula $\\frac12\\left(1 + \\frac{{A - \\min}}{{\\max - \\min}}\\right)$. Give the
exact value.
""",
        answer_name="mcclish_half",
        solution_code=_yb_code(data)
        + 'lo, hi = Fraction(0), Fraction(1, 2)\n'
        'area = cl.partial_roc_auc(y, b, fpr_range=(lo, hi), exact=True)\n'
        'smallest = (hi**2 - lo**2) / 2  # under the diagonal\n'
        'largest = hi - lo  # the whole strip\n'
        'mcclish_half = (1 + (area - smallest) / (largest - smallest)) / 2',
        solution=value,
        checker=exact(value, mistakes=_distinct(value, [
            Mistake(ratio, "That is (A - min)/(max - min), which maps chance to 0; "
                           "McClish's index maps chance to one half."),
            Mistake(area / _MAX_HALF, "Dividing by the width alone does not map chance to "
                                      "one half: the area under the diagonal must go "
                                      "first."),
            Mistake((1 + (area - Fraction(1, 4)) / (_MAX_HALF - Fraction(1, 4))) / 2,
                    "The diagonal's area over FPR 0 to 1/2 is the triangle 1/8, not "
                    "1/4."),
        ], _is_book(data))),
        worked="min = 1/8 (the triangle under the diagonal), max = 1/2 (the strip): "
               f"(1 + ({area * den}/{den} - {den // 8}/{den}) / (3/8)) / 2 = "
               f"(1 {sign} {abs(ratio)}) / 2 = {value}.",
    )


def _beta22(alpha: Fraction, beta: Fraction, lo: Fraction, hi: Fraction) -> Fraction:
    """The integral of (alpha + beta c) 6c(1 - c) over [lo, hi]."""
    def prim(c: Fraction) -> Fraction:
        return 6 * (alpha * (c**2 / 2 - c**3 / 3) + beta * (c**3 / 3 - c**4 / 4))
    return prim(hi) - prim(lo)


def _uniform(alpha: Fraction, beta: Fraction, lo: Fraction, hi: Fraction) -> Fraction:
    """The integral of alpha + beta c over [lo, hi]."""
    return alpha * (hi - lo) + beta * (hi**2 - lo**2) / 2


def _expected_loss(f: Fraction, t: Fraction, integral) -> Fraction:
    """E[L] of the hull (0, 0) -> (f, t) -> (1, 1), balanced classes."""
    low, high = (1 - t) / (2 - f - t), t / (f + t)
    return (integral(Fraction(0), Fraction(1, 2), Fraction(0), low)
            + integral((1 - t) / 2, (f + t - 1) / 2, low, high)
            + integral(Fraction(1, 2), Fraction(-1, 2), high, Fraction(1)))


def _worst(integral) -> Fraction:
    return (integral(Fraction(0), Fraction(1, 2), Fraction(0), _HALF)
            + integral(Fraction(1, 2), Fraction(-1, 2), _HALF, Fraction(1)))


def _rational(v: Fraction) -> str:
    return f"sympy.Rational({v.numerator}, {v.denominator})"


def _h_point(data: dict) -> Exercise:
    f, t = Fraction(data["fpr"]), Fraction(data["tpr"])
    low, high = (1 - t) / (2 - f - t), t / (f + t)
    expected = _expected_loss(f, t, _beta22)
    worst = _worst(_beta22)
    h = 1 - expected / worst
    h_uniform = 1 - _expected_loss(f, t, _uniform) / _worst(_uniform)
    at_half = min(_HALF / 2, (f + 1 - t) / 4)
    point = f"({decimal_text(f)}, {decimal_text(t)})"
    flat = f + t == 1
    middle = (1 - t) / 2  # the loss of the point when it does not depend on c
    mid_line = ""
    if flat:
        mid_code = (f"w / {middle.denominator}" if middle.numerator == 1 else
                    f"{middle.numerator} * w / {middle.denominator}")
        mid_text = str(middle)
    else:
        mid_line = (f"point = (c * {_rational(f)} + (1 - c) * {_rational(1 - t)}) / 2"
                    "  # its loss\n")
        mid_code = "point * w"
        mid_text = f"({decimal_text(f)} c + {decimal_text(1 - t)} (1 - c))/2"
    return value_exercise(
        id="h-one-point", chapter=17, title="The H-measure of one ROC point",
        question=f"""
A classifier with a single operating point $(\\mathrm{{FPR}}, \\mathrm{{TPR}}) = {point}$
(its ROC hull is $(0, 0) \\to {point} \\to (1, 1)$) is used on balanced classes,
$\\pi_0 = \\pi_1 = 1/2$. With Hand's Beta(2, 2) density $6c(1 - c)$ over the cost $c$,
what is its H-measure (exactly)?
""",
        answer_name="h_point",
        solution_code='c = sympy.Symbol("c")\n'
                      'w = 6 * c * (1 - c)  # Beta(2, 2)\n'
                      f'low, high = {_rational(low)}, {_rational(high)}\n'
                      'half = sympy.Rational(1, 2)\n'
                      f'# L(c): the best of (0, 0), {point}, (1, 1)\n'
                      f'{mid_line}'
                      'expected = (sympy.integrate(c / 2 * w, (c, 0, low))\n'
                      f'            + sympy.integrate({mid_code}, (c, low, high))\n'
                      '            + sympy.integrate((1 - c) / 2 * w, (c, high, 1)))\n'
                      'worst = (sympy.integrate(c / 2 * w, (c, 0, half))\n'
                      '         + sympy.integrate((1 - c) / 2 * w, (c, half, 1)))\n'
                      'h_point = 1 - expected / worst',
        solution=h,
        checker=exact(h, mistakes=keep_distinct(h, [
            Mistake(h_uniform, "That is the uniform density; Hand's Beta(2, 2) is "
                               "6c(1 - c)."),
            Mistake(expected, "That is the expected minimum loss E[L]; H compares it with "
                              "the loss of the trivial rules."),
            Mistake(1 - at_half / Fraction(1, 4), "That is the comparison at "
                    "c = 1/2 only; average both losses over the density."),
        ])),
        worked=f"L(c) = c/2 for c < {low}, {mid_text} between {low} and {high}, "
               f"(1 - c)/2 above; E[L] = {expected} and the trivial rules lose {worst} on "
               f"average: H = 1 - ({expected})/({worst}) = {h}.",
    )


def _draw_point(rng: np.random.Generator) -> dict:
    """An operating point above the diagonal: FPR 0.05 to 0.40, TPR 0.60 to 0.95, in
    hundredths."""
    f, t = int(rng.integers(5, 41)), int(rng.integers(60, 96))
    return {"fpr": str(Fraction(f, 100)), "tpr": str(Fraction(t, 100))}


def _severity(data: dict) -> Exercise:
    pi1 = Fraction(data["pi1"])
    pi0 = 1 - pi1
    sr = pi1 / pi0
    beta = 1 + 1 / sr
    return value_exercise(
        id="severity-ratio-beta", chapter=17, title="The R package's default Beta",
        question=f"""
The R package hmeasure uses the cost density Beta$(2, 1 + 1/\\mathrm{{SR}})$ with the
severity ratio $\\mathrm{{SR}} = \\pi_1/\\pi_0$ by default. For positives making up
$\\pi_1 = {decimal_text(pi1)}$ of the data, what is the second Beta parameter?
""",
        answer_name="beta_default",
        solution_code=f'pi1 = {fraction_code(pi1)}\nseverity_ratio = pi1 / (1 - pi1)\n'
                      'beta_default = 1 + 1 / severity_ratio',
        solution=beta,
        checker=exact(beta, mistakes=keep_distinct(beta, [
            Mistake(1 + sr, "SR is pi1 / pi0: check which way round it enters beta."),
            Mistake(1 / sr, "Check the formula for beta again: a term is missing."),
            Mistake(Fraction(2), "Beta(2, 2) is the symmetric case, SR = 1."),
        ])),
        worked=f"SR = {decimal_text(pi1)} / {decimal_text(pi0)} = {sr}, beta = 1 + {1 / sr} = "
               f"{beta}: Beta(2, {beta}), whose mode (2 - 1)/(2 + {beta} - 2) = {1 / beta} "
               "is the positive share.",
    )


def _draw_pi1(rng: np.random.Generator) -> dict:
    """A positive share in hundredths, 0.02 to 0.45."""
    return {"pi1": f"{int(rng.integers(2, 46))}/100"}


def _min_loss(data: dict) -> Exercise:
    y, b = _yb(data)
    pi1 = Fraction(sum(y), len(y))
    pi0 = 1 - pi1
    points = _vertices(y, b)
    ks = max(t - f for f, t in points)
    loss = pi0 * pi1 * (1 - ks)
    listed = wrap_items("points = [", [f"({fraction_code(f)}, {fraction_code(t)})"
                                       for f, t in points], "]  # the ROC vertices",
                        width=80)
    intro = ("Table 1 of the book" if _is_book(data) else
             f"A table with {_yb_text(data)}")
    return value_exercise(
        id="min-loss-at-pi1", chapter=17, title="The minimum loss at c = pi1",
        question=f"""
{intro} ($\\pi_1 = {pi1}$). What is the minimum loss
$L(c) = \\min_\\theta\\, c\\,\\pi_0\\,\\mathrm{{FPR}}(\\theta)
+ (1 - c)\\,\\pi_1\\,(1 - \\mathrm{{TPR}}(\\theta))$
at $c = \\pi_1$, exactly? (Hint: at this cost both terms have the same weight.)
""",
        answer_name="loss_at_pi1",
        solution_code=f'pi1 = {fraction_code(pi1)}\npi0 = 1 - pi1\n'
                      f'{listed}\n'
                      'loss_at_pi1 = min(pi1 * pi0 * f + (1 - pi1) * pi1 * (1 - t)\n'
                      '                  for f, t in points)',
        solution=loss,
        checker=exact(loss, mistakes=_distinct(loss, [
            Mistake(2 * loss, "That is the R package's MWL, a multiple of the loss "
                              "itself."),
            Mistake(ks, f"{ks} is the KS distance, not a loss: the loss also depends on "
                        "the shares of the classes."),
            Mistake(pi0 * pi1, "That is the loss of a trivial rule; the best "
                               "threshold does better."),
        ], _is_book(data))),
        worked=f"At c = pi1 both weights are pi0 pi1 = {pi0 * pi1}, so L = {pi0 * pi1} "
               f"min(FPR + 1 - TPR) = {pi0 * pi1} (1 - KS) = {pi0 * pi1} x {1 - ks} = "
               f"{loss}: the KS distance is 1 - L(pi1) / (pi0 pi1).",
    )


#: The chapter's checkpoint, shown between its summary and its exercises.
_CHECKPOINT = checkpoint(
    17, "auc-against-h", "Checkpoint: the AUC and the H-measure disagree",
    question="""
On the same data, scorer A has the larger ROC AUC and scorer B the larger H-measure
under Hand's Beta(2, 2) cost density. Which statement explains how both can be true?
Answer a letter.

- (a) each AUC (of the ROC hull) averages its scorer's minimum losses over a
  distribution of the cost made from that scorer's own scores, so the two AUCs average
  over different beliefs about the costs
- (b) one of the two numbers is computed wrongly: both average the same minimum losses
  over the costs
- (c) the H-measure, like the partial AUC, looks only at the low false positive rates
- (d) B's ROC curve must lie above A's everywhere, and the AUC misses it
- (e) the H-measure leaves out the tied scores, which the AUC counts one half
""",
    answer="a",
    mistakes={
        "b": "Both are averages of the minimum loss L(c), but the weights over the cost c "
             "need not be the same for the two numbers.",
        "c": "The H-measure averages over the costs, not over a range of false positive "
             "rates, and Beta(2, 2) gives weight to every cost between 0 and 1.",
        "d": "A curve that lies above another everywhere also has the larger area.",
        "e": "Both read a group of tied scores as one straight segment of the curve; ties "
             "are not what separates the two numbers.",
    },
    worked="Hand's identity makes the AUC (of the hull) an expected minimum loss under "
           "the costs c_k with weights p_k, both made of the scorer's own scores; the "
           "H-measure uses one density w(c) for every scorer.",
)

EXERCISES = [
    _CHECKPOINT,
    with_variants(_pauc_half, _TABLE1, draw_ranking_table),
    with_variants(_mcclish, _TABLE1, draw_ranking_table),
    with_variants(_h_point, {"fpr": "1/5", "tpr": "4/5"}, _draw_point),
    with_variants(_severity, {"pi1": "1/5"}, _draw_pi1),
    with_variants(_min_loss, _TABLE1, draw_ranking_table),
]
