"""Chapter 10 exercises: closed forms on the linear-density model.

A variant draws another pair of linear densities on [0, 1], ``p1(b) = 1 + s1 (b - 1/2)``
for the positives and ``p0(b) = 1 - s0 (b - 1/2)`` for the negatives, with slopes
``s1, s0`` in (0, 2] (the book's model has ``s1 = s0 = 2``: ``2b`` and ``2 - 2b``). Every
linear density on [0, 1] equals 1 at b = 1/2, so the two cross there whatever the
slopes, and the KS distance (s1 + s0)/8 is always reached at theta = 1/2. The book's
own instances of "TPR as a formula" and "The KS distance of the linear model" use the
warm-up model ``s1 = s0 = 1`` (``1/2 + b`` and ``3/2 - b``): the chapter derives the TPR
and the KS distance of the book's model in its text, above the exercises (issue 28,
item 2). The best accuracy with rare positives keeps the book's model and draws the
share of positives (the optimum 1 - pi then stays inside (1/2, 1) with short decimals).
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import sympy

from course_lib.exercises._core import (
    Exercise,
    Mistake,
    exact,
    parts,
    sympy_checker,
    value_exercise,
    with_variants,
    with_whole_mistakes,
)
from course_lib.models import LINEAR_DENSITIES, ScoreModel

from ._checkpoints import checkpoint
from ._hints import HINTS, keep_distinct
from ._variants import decimal_text, ratio_code

_T = sympy.Symbol("theta", real=True)
_B = sympy.Symbol("b")
_BOOK = {"s1": "2", "s0": "2"}
_WARM_UP = {"s1": "1", "s0": "1"}  # exercises whose book answer the chapter derives


def _fr(x) -> Fraction:
    """A sympy rational as a Fraction (never through nsimplify, which turns some
    rationals, e.g. 45471/1000000, into products of powers)."""
    x = sympy.sympify(x)
    if not x.is_Rational:
        raise ValueError(f"expected a rational number, got {x}")
    return Fraction(int(x.p), int(x.q))


def _is_book(data: dict) -> bool:
    return (Fraction(data["s1"]), Fraction(data["s0"])) == (2, 2)


def _coefficients(data: dict) -> tuple[Fraction, Fraction, Fraction, Fraction]:
    """(c1, s1, c0, s0) of p1(b) = c1 + s1 b and p0(b) = c0 - s0 b."""
    s1, s0 = Fraction(data["s1"]), Fraction(data["s0"])
    if not (0 < s1 <= 2 and 0 < s0 <= 2):
        raise ValueError(f"the slopes must lie in (0, 2], got {s1} and {s0}")
    return 1 - s1 / 2, s1, 1 + s0 / 2, s0


def _model(data: dict) -> ScoreModel:
    if _is_book(data):
        return LINEAR_DENSITIES
    c1, s1, c0, s0 = (_rational(v) for v in _coefficients(data))
    return ScoreModel(c0 - s0 * _B, c1 + s1 * _B, symbol=_B)


def _rational(v: Fraction) -> sympy.Rational:
    return sympy.Rational(v.numerator, v.denominator)


def _term(coefficient: Fraction, var: str, sep: str) -> str:
    return var if coefficient == 1 else f"{decimal_text(coefficient)}{sep}{var}"


def _linear_text(c: Fraction, s: Fraction, sign: str, var: str, sep: str = "") -> str:
    """``2b``, ``2 - 2b``, ``0.37 + 1.26b`` (``sep=" "``: ``2 - 2 theta``)."""
    slope = _term(s, var, sep)
    return slope if c == 0 and sign == "+" else f"{decimal_text(c)} {sign} {slope}"


def _number_code(v: Fraction) -> str:
    return str(v.numerator) if v.denominator == 1 else \
        f"sympy.Rational({v.numerator}, {v.denominator})"


def _linear_code(c: Fraction, s: Fraction, sign: str, var: str) -> str:
    """``2 * b``, ``2 - 2 * b``, ``sympy.Rational(37, 100) + sympy.Rational(63, 50) * b``."""
    slope = f"{_number_code(s)} * {var}"
    return slope if c == 0 and sign == "+" else f"{_number_code(c)} {sign} {slope}"


def _poly_text(expr) -> str:
    """A polynomial in theta as the book writes it: ``1 - theta^2``, ``0.37 - 0.2 theta``."""
    coefficients = sympy.Poly(sympy.expand(expr), _T).all_coeffs()[::-1]
    out = ""
    for power, a in enumerate(coefficients):
        a = _fr(a)
        if a == 0:
            continue
        var = "" if power == 0 else "theta" if power == 1 else f"theta^{power}"
        body = decimal_text(abs(a)) if power == 0 else _term(abs(a), var, " ")
        out += (("-" if a < 0 else "") + body) if not out else \
            f" {'-' if a < 0 else '+'} {body}"
    return out or "0"


def _model_text(data: dict) -> str:
    c1, s1, c0, s0 = _coefficients(data)
    article = "the" if _is_book(data) else "a"
    return (f"In {article} linear-density model the scores lie in $[0, 1]$ with densities "
            f"$p_1(b) = {_linear_text(c1, s1, '+', 'b')}$ for positives and "
            f"$p_0(b) = {_linear_text(c0, s0, '-', 'b')}$ for negatives; the rule "
            "calls an object positive when $b \\ge \\theta$.")


def _model_code(data: dict) -> tuple[str, str]:
    """(lines that build the model, its name) for a worked solution."""
    if _is_book(data):
        return "", "cl.LINEAR_DENSITIES"
    c1, s1, c0, s0 = _coefficients(data)
    return ("b = sympy.Symbol('b')\n"
            f"model = cl.ScoreModel({_linear_code(c0, s0, '-', 'b')},\n"
            f"                      {_linear_code(c1, s1, '+', 'b')})\n", "model")


def _fpr_text(data: dict, fpr) -> str:
    return "(1 - theta)^2" if _is_book(data) else _poly_text(fpr)


def _draw_slopes(rng: np.random.Generator) -> dict:
    """Two slopes in 0.2 .. 2 (steps of 0.02, so that the densities have two decimals)."""
    return {"s1": str(Fraction(int(rng.integers(10, 101)), 50)),
            "s0": str(Fraction(int(rng.integers(10, 101)), 50))}


def _tpr_formula(data: dict) -> Exercise:
    c1, s1, _, _ = _coefficients(data)
    model = _model(data)
    tpr, fpr = model.tpr(), model.fpr()
    integral = f"tpr_formula = sympy.integrate({_linear_code(c1, s1, '+', 'theta')}, " \
               "(theta, theta, 1))"
    if len(integral) > 88:  # the limits on a line of their own
        integral = integral.replace(", (theta", f",\n{' ' * 30}(theta")
    return value_exercise(
        id="linear-tpr-formula", chapter=10, title="TPR as a formula",
        question=f"""
{_model_text(data)}
Give $\\mathrm{{TPR}}(\\theta)$ for $0 \\le \\theta \\le 1$ as a sympy expression in the
symbol `theta` (or a string such as `"1 - theta**2"`).
""",
        answer_name="tpr_formula",
        solution_code='theta = sympy.Symbol("theta", real=True)\n' + integral,
        solution=tpr,
        checker=sympy_checker(tpr, _T, mistakes=[
            Mistake(fpr, HINTS["swapped"] + f" {_fpr_text(data, fpr)} is the FPR."),
            Mistake(1 - tpr, f"{_poly_text(1 - tpr)} is the share of positives *below* the "
                             "threshold (the CDF); TPR is the share at or above it."),
        ], hint="TPR(theta) is the integral of p1 from theta to 1."),
        worked=f"The integral of {_linear_text(c1, s1, '+', 'b')} from theta to 1: "
               f"{_poly_text(tpr)}.",
    )


def _uniform(data: dict) -> Exercise:
    pi = Fraction(data["pi"])
    return value_exercise(
        id="uniform-auc-pr", chapter=10, title="Scores that ignore the class",
        question=f"""
Scores that ignore the class have $p_0 = p_1 = 1$ on $[0, 1]$. What are their ROC AUC
and their area under the PR curve when positives are a share $\\pi = {decimal_text(pi)}$ \
of the
population? Answer a tuple (AUC, AUC_PR), exactly.
""",
        answer_name="uniform_areas",
        solution_code=f"uniform_areas = (Fraction(1, 2), {ratio_code(str(pi))})",
        solution=(Fraction(1, 2), pi),
        checker=parts(auc=exact(Fraction(1, 2)), auc_pr=exact(pi, mistakes=keep_distinct(pi, [
            Mistake(Fraction(1, 2), "That is the ROC AUC; the precision of such scores is "
                                    "the share of positives at every threshold.")]))),
        worked="The ROC curve is the diagonal (1/2) and the precision is pi everywhere, so "
               f"AUC_PR = {decimal_text(pi)}.",
    )


def _parenthesized(text: str) -> str:
    return f"({text})" if " + " in text or " - " in text else text


def _best_rare(data: dict) -> Exercise:
    """The book's model; a variant changes the share of positives (on the book's model
    the best threshold is 1 - pi, inside (1/2, 1) for every pi < 1/2)."""
    c1, s1, c0, s0 = _coefficients(_BOOK)
    pi = Fraction(data["pi"])
    if not 0 < pi < Fraction(1, 2):
        raise ValueError(f"pi must lie in (0, 1/2), got {pi}")
    model = _model(_BOOK)
    best = model.best_accuracy(sympy.Rational(pi.numerator, pi.denominator))
    theta, accuracy = _fr(best.threshold), _fr(best.value)
    tpr_t, fpr_t = _fr(model.tpr(best.threshold)), _fr(model.fpr(best.threshold))
    half = pi * _fr(model.tpr(sympy.Rational(1, 2))) + \
        (1 - pi) * (1 - _fr(model.fpr(sympy.Rational(1, 2))))
    p1 = _parenthesized(_linear_text(c1, s1, "+", "theta", " "))
    p0 = _parenthesized(_linear_text(c0, s0, "-", "theta", " "))
    margin = "barely above" if accuracy - (1 - pi) < Fraction(1, 20) else "above"
    return value_exercise(
        id="best-accuracy-rare", chapter=10, title="The best accuracy with rare positives",
        question=f"""
{_model_text(_BOOK)}
Positives are a share $\\pi = {decimal_text(pi)}$ of the population. Which threshold \
maximizes the
accuracy, and what is the best accuracy? Answer a tuple (threshold, accuracy), exactly.
""",
        answer_name="best_rare",
        solution_code=f"best = cl.LINEAR_DENSITIES.best_accuracy(sympy.Rational({pi.numerator}, "
                      f"{pi.denominator}))\n"
                      "best_rare = (best.threshold, best.value)",
        solution=(best.threshold, best.value),
        checker=with_whole_mistakes(
            parts(threshold=exact(theta), accuracy=exact(accuracy)),
            ((Fraction(1, 2), half),
             f"The densities cross at 1/2, but with pi = {decimal_text(pi)} the classes are "
             "not equally common: the best threshold takes their shares into account.")),
        worked=f"{decimal_text(pi)} x {p1} = {decimal_text(1 - pi)} x {p0} gives theta = "
               f"{theta}, accuracy {decimal_text(pi)} x {decimal_text(tpr_t)} + "
               f"{decimal_text(1 - pi)} x {decimal_text(1 - fpr_t)} = {accuracy}, {margin} the "
               f"{1 - pi} of answering 0 to everybody.",
    )


def _draw_rare(rng: np.random.Generator) -> dict:
    """A share of positives of 2% to 20%, in thousandths."""
    return {"pi": str(Fraction(int(rng.integers(20, 201)), 1000))}


def _swapped(data: dict) -> Exercise:
    c1, s1, c0, s0 = _coefficients(data)
    auc = _fr(_model(data).auc())
    swapped = ScoreModel(_rational(c1) + _rational(s1) * _B, _rational(c0) - _rational(s0) * _B,
                         symbol=_B)
    auc_sw, gini_sw = _fr(swapped.auc()), _fr(swapped.gini())
    article = "the" if _is_book(data) else "a"
    p0, p1 = _linear_code(c1, s1, "+", "b"), _linear_code(c0, s0, "-", "b")
    arguments = f"cl.ScoreModel({p0}, {p1})"
    if len(arguments) > 80:  # one density a line
        arguments = f"cl.ScoreModel({p0},\n{' ' * 24}{p1})"
    return value_exercise(
        id="swapped-densities", chapter=10, title="Swapped densities",
        question=f"""
Swap the densities of {article} linear model: $p_0(b) = {_linear_text(c1, s1, '+', 'b')}$, \
$p_1(b) = {_linear_text(c0, s0, '-', 'b')}$. What are the
ROC AUC and the Gini coefficient now? Answer a tuple (AUC, Gini), exactly.
""",
        answer_name="swapped_model",
        solution_code="b = sympy.Symbol('b')\n"
                      f"swapped = {arguments}\n"
                      "swapped_model = (swapped.auc(), swapped.gini())",
        solution=(swapped.auc(), swapped.gini()),
        checker=parts(
            auc=exact(auc_sw, mistakes=keep_distinct(auc_sw, [
                Mistake(1 - auc_sw, "Swapping the densities reverses the order: the AUC "
                                    "becomes 1 - AUC.")])),
            gini=exact(gini_sw, mistakes=keep_distinct(gini_sw, [
                Mistake(1 - auc_sw, HINTS["gini_one_minus_auc"]),
                Mistake(auc_sw, HINTS["auc_not_gini"]),
                Mistake(-gini_sw, "Gini = 2 AUC - 1 is negative when AUC < 1/2.")]))),
        worked=f"AUC = 1 - {auc} = {auc_sw} and Gini = {2 * auc_sw.numerator}/"
               f"{auc_sw.denominator} - 1 = {gini_sw}.",
    )


def _linear_ks(data: dict) -> Exercise:
    _, s1, _, s0 = _coefficients(data)
    model = _model(data)
    ks = model.ks()
    value, threshold = _fr(ks.value), _fr(ks.threshold)
    build, name = _model_code(data)
    fpr = _fpr_text(data, model.fpr()) if _is_book(data) else f"({_poly_text(model.fpr())})"
    return value_exercise(
        id="linear-ks", chapter=10, title="The KS distance of the linear model",
        question=f"""
{_model_text(data)}
What is the KS distance $\\max_\\theta(\\mathrm{{TPR}} - \\mathrm{{FPR}})$, and at which
threshold is it reached? Answer a tuple (KS, threshold), exactly.
""",
        answer_name="linear_ks",
        solution_code=f"{build}ks = {name}.ks()\nlinear_ks = (ks.value, ks.threshold)",
        solution=(ks.value, ks.threshold),
        checker=parts(ks=exact(value), threshold=exact(threshold)),
        worked=f"TPR - FPR = ({_poly_text(model.tpr())}) - {fpr} = "
               f"{_term((s1 + s0) / 2, 'theta', ' ')} (1 - theta), largest "
               f"at theta = {threshold} with value {value}.",
    )


#: The chapter's checkpoint, shown between its summary and its exercises.
_CHECKPOINT = checkpoint(
    10, "model", "Checkpoint: what moves with the share of positives",
    question="""
Which of these statements about the linear-density model ($p_1(b) = 2b$,
$p_0(b) = 2 - 2b$) is true? Answer a letter.

- (a) Since both densities are linear, the ROC curve is a straight line.
- (b) When positives become rarer, the threshold with the largest $\\mathrm{TPR} - \\mathrm{FPR}$ moves.
- (c) When positives become rarer, the threshold with the best accuracy moves.
- (d) Making positives rarer raises the area under the PR curve.
- (e) The normalized Gini coefficient changes with the share of positives.
""",
    answer="c",
    mistakes={
        "a": "Linear densities give quadratic tails, TPR and FPR; eliminating the threshold "
             "between them leaves a square root: the ROC curve bends.",
        "b": "TPR and FPR are each computed within one class, so TPR - FPR, its maximum "
             "and the threshold where it is reached do not depend on the share of "
             "positives.",
        "d": "The area under the PR curve grows with the share of positives: rarer "
             "positives give a lower area.",
        "e": "The normalized Gini coefficient is 2 AUC - 1, and the AUC does not depend on "
             "the share of positives.",
    },
    worked="The accuracy pi TPR + (1 - pi)(1 - FPR) weighs the classes by their shares, so "
           "its best threshold moves with pi; the KS threshold stays where the densities "
           "cross.",
)

EXERCISES = [
    _CHECKPOINT,
    with_variants(_tpr_formula, _WARM_UP, _draw_slopes),
    with_variants(_uniform, {"pi": "1/10"},
                  lambda rng: {"pi": f"{int(rng.integers(1, 50))}/100"}),
    with_variants(_best_rare, {"pi": "1/10"}, _draw_rare),
    with_variants(_swapped, _BOOK, _draw_slopes),
    with_variants(_linear_ks, _WARM_UP, _draw_slopes),
]
