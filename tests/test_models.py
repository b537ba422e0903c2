"""Tests of course_lib.models: facts F-50..F-54, the book's identities, other models.

Symbolic results are compared symbolically: ``sympy.simplify(a - b) == 0``.
"""

import numpy as np
import pytest
import sympy
from scipy import integrate, stats
from scipy.optimize import minimize_scalar

from course_lib.inference import auc_ci_delong
from course_lib.models import LINEAR_DENSITIES, PI, THETA, ModelKS, ModelOptimum, ScoreModel, U

M = LINEAR_DENSITIES
half, tenth = sympy.Rational(1, 2), sympy.Rational(1, 10)
x = sympy.Symbol("x")


def same(a, b):
    return sympy.simplify(sympy.sympify(a) - sympy.sympify(b)) == 0


# Other models: every formula is checked against scipy's numerical integration.
EXPONENTIAL = ScoreModel(sympy.exp(-x), sympy.exp(-x / 2) / 2, support=(0, sympy.oo))
BETA = ScoreModel(30 * x * (1 - x) ** 4, 30 * x**4 * (1 - x))  # Beta(2, 5) vs Beta(5, 2)
SINE = ScoreModel(2 - 2 * x, sympy.pi / 2 * sympy.sin(sympy.pi * x))
MODELS = {"linear": M, "exponential": EXPONENTIAL, "beta": BETA, "sine": SINE}
SCIPY_DENSITIES = {  # (p0, p1, lo, hi) as numpy functions
    "exponential": (lambda t: np.exp(-t), lambda t: np.exp(-t / 2) / 2, 0, np.inf),
    "beta": (stats.beta(2, 5).pdf, stats.beta(5, 2).pdf, 0, 1),
    "sine": (lambda t: 2 - 2 * t, lambda t: np.pi / 2 * np.sin(np.pi * t), 0, 1),
}


def scipy_rates(name):
    p0, p1, lo, hi = SCIPY_DENSITIES[name]
    tpr = lambda t: integrate.quad(p1, t, hi)[0]  # noqa: E731
    fpr = lambda t: integrate.quad(p0, t, hi)[0]  # noqa: E731
    return p0, p1, lo, hi, tpr, fpr


# ------------------------------------------------------------------- F-50..F-54
def test_F50_linear_densities_tpr_fpr_roc_auc_5_6():
    """F-50: TPR = 1 - theta^2, FPR = (1 - theta)^2, ROC TPR = 2 sqrt(FPR) - FPR, AUC = 5/6."""
    assert same(M.tpr(), 1 - THETA**2)
    assert same(M.fpr(), (1 - THETA) ** 2)
    roc = M.roc()
    assert same(roc.explicit, 2 * sympy.sqrt(U) - U)
    assert (roc.x, roc.y) == (M.fpr(), M.tpr())
    assert M.auc() == sympy.Rational(5, 6)
    assert same(sympy.integrate(roc.explicit, (U, 0, 1)), sympy.Rational(5, 6))


def test_F51_best_accuracy_3_4_at_half_equals_binarized_auc():
    """F-51: balanced classes, best accuracy 3/4 at theta = 1/2; the binarized answer at
    1/2 has ROC AUC 3/4, its balanced accuracy (an identity for every theta)."""
    assert M.best_accuracy(half) == ModelOptimum(sympy.Rational(3, 4), half)
    assert M.binarized_auc(half) == sympy.Rational(3, 4)
    assert same(M.binarized_auc(), (M.tpr() + 1 - M.fpr()) / 2)
    assert same(M.accuracy(THETA, half), (M.tpr() + 1 - M.fpr()) / 2)


def test_F52_pr_curve_of_linear_densities():
    """F-52: R = 1 - theta^2, P = (1 + theta)/2, P = (1 + sqrt(1 - R))/2, AUC_PR = 5/6."""
    assert same(M.recall(), 1 - THETA**2)
    assert same(M.precision(THETA, half), (1 + THETA) / 2)
    pr = M.pr(half)
    assert same(pr.explicit, (1 + sympy.sqrt(1 - U)) / 2)
    assert M.auc_pr(half) == sympy.Rational(5, 6)
    assert M.auc_pr(0.5) == sympy.Rational(5, 6)


def hand_auc_pr(pi):
    """F-53 by hand: with c = 2 pi - 1 the integrand 2 pi theta (1 + theta)/(1 + c theta)
    splits as 2 pi [theta/c + (c - 1)/c^2 - (c - 1)/c^2 / (1 + c theta)], so
    AUC_PR = pi/c + 4 pi (pi - 1)/c^2 - 4 pi (pi - 1) log(2 pi)/c^3."""
    c = 2 * pi - 1
    return pi / c + 4 * pi * (pi - 1) / c**2 - 4 * pi * (pi - 1) * sympy.log(2 * pi) / c**3


def test_F53_auc_pr_closed_form_with_removable_singularity():
    """F-53: AUC_PR(pi) in closed form; at pi = 1/2 the formula reads 0/0 and the model
    returns its limit 5/6; ~0.4441 at pi = 0.1 and ~0.9758 at pi = 0.9."""
    closed = M.auc_pr()
    assert isinstance(closed, sympy.Piecewise)
    (special, condition), (general, _) = closed.args
    assert condition == sympy.Eq(PI, half) and special == sympy.Rational(5, 6)
    assert same(general, hand_auc_pr(PI))
    assert general.subs(PI, half) is sympy.nan
    assert sympy.limit(hand_auc_pr(PI), PI, half) == sympy.Rational(5, 6)
    assert closed.subs(PI, half) == sympy.Rational(5, 6)
    assert same(M.auc_pr(0.1), sympy.Rational(-11, 16) + 45 * sympy.log(5) / 64)
    assert same(M.auc_pr(0.1), closed.subs(PI, tenth))  # direct integral = closed form
    assert round(float(M.auc_pr(0.1)), 4) == 0.4441
    assert round(float(M.auc_pr(0.9)), 4) == 0.9758


def test_F53_errata_area_falls_when_positives_are_rarer():
    """F-53 errata: D says AUC_PR fell when positives were nine times MORE common than
    negatives; the closed form rises with pi, so it falls when they are nine times rarer."""
    assert M.auc_pr(0.9) > M.auc_pr(0.5) > M.auc_pr(0.1)
    derivative = sympy.diff(M.auc_pr().args[1][0], PI)
    assert all(derivative.subs(PI, p) > 0 for p in (0.01, 0.1, 0.3, 0.49, 0.51, 0.7, 0.9, 0.99))


def test_F54_ks_is_half_at_theta_half_positive_rate_3_10():
    """F-54 (exercise 1 of D): pi = 0.1, max(TPR - FPR) = 1/2 at theta = 1/2, where the
    positive rate is 3/10; the distance does not depend on the class balance."""
    assert M.ks(0.1) == ModelKS(half, half, sympy.Rational(3, 10))
    general = M.ks()
    assert (general.value, general.threshold) == (half, half)
    assert same(general.positive_rate, sympy.Rational(1, 4) + PI / 2)
    chart = M.ks_curve(0.1).explicit  # the KS chart's distance against the positive rate
    assert same(chart.subs(U, sympy.Rational(3, 10)), half)
    assert same(sympy.diff(chart, U).subs(U, sympy.Rational(3, 10)), 0)


# ------------------------------------------------------------------ identities
@pytest.mark.parametrize("name", MODELS)
def test_F24_gini_from_gain_curve_equals_2auc_minus_1(name):
    """F-24 on a model: the normalised Gini of the gain curve is 2 AUC - 1 for every pi."""
    model = MODELS[name]
    assert same(model.gini(), 2 * model.auc() - 1)


@pytest.mark.parametrize("name", MODELS)
def test_F40_gain_area_population_form(name):
    """F-40 with shares instead of counts: area under the gain curve = (1 - pi) AUC + pi/2."""
    model = MODELS[name]
    assert same(model.gain_area(), (1 - PI) * model.auc() + PI / 2)


@pytest.mark.parametrize("name", MODELS)
def test_auc_is_probability_positive_scores_higher(name):
    """AUC = P(score of a positive > score of a negative), a double integral of p0 p1."""
    model = MODELS[name]
    assert same(model.auc_probability(), model.auc())


def test_linear_gain_lift_curves():
    gain = M.gain(half)
    assert same(gain.explicit, 1 - (1 - U) ** 2)
    assert same(M.lift(half).explicit, 2 - U)
    assert M.gain().explicit is None  # the root's denominator 2 pi - 1 vanishes at pi = 1/2
    assert same(M.gain(0.1).explicit, 1 - (9 - sympy.sqrt(1 + 80 * U)) ** 2 / 64)


# ----------------------------------------------------------- other models
def test_exponential_model_closed_forms():
    """p0 = e^-x, p1 = e^(-x/2)/2 on [0, oo): TPR = sqrt(FPR), AUC = 2/3,
    KS = 1/4 at theta = log 4, AUC_PR(pi) = pi log(pi)/(pi - 1)."""
    e = EXPONENTIAL
    assert same(e.roc().explicit, sympy.sqrt(U))
    assert e.auc() == sympy.Rational(2, 3)
    ks = e.ks(0.1)
    assert ks.value == sympy.Rational(1, 4) and same(ks.threshold, sympy.log(4))
    assert same(e.auc_pr(), PI * sympy.log(PI) / (PI - 1))
    assert same(e.auc_pr(0.1), sympy.log(10) / 9)


@pytest.mark.parametrize("name", SCIPY_DENSITIES)
def test_models_agree_with_scipy_integration(name):
    model = MODELS[name]
    p0, p1, lo, hi, tpr, fpr = scipy_rates(name)
    for t in (0.1, 0.37, 0.8):
        assert float(model.tpr(t)) == pytest.approx(tpr(t), abs=1e-10)
        assert float(model.fpr(t)) == pytest.approx(fpr(t), abs=1e-10)
    auc = integrate.dblquad(lambda s1, s0: p0(s0) * p1(s1), lo, hi, lambda s0: s0, hi)[0]
    assert float(model.auc()) == pytest.approx(auc, abs=1e-8)
    area = integrate.quad(lambda t: p0(t) * tpr(t), lo, hi)[0]  # integral of TPR dFPR
    assert float(model.auc()) == pytest.approx(area, abs=1e-8)
    ks = minimize_scalar(lambda t: fpr(t) - tpr(t), bounds=(lo, min(hi, 20)), method="bounded")
    assert float(model.ks(0.3).value) == pytest.approx(-ks.fun, abs=1e-8)
    assert float(model.ks(0.3).threshold) == pytest.approx(ks.x, abs=1e-4)


def test_exponential_auc_pr_agrees_with_scipy():
    pi = 0.3
    precision = lambda t: pi / (pi + (1 - pi) * np.exp(-t / 2))  # noqa: E731
    area = integrate.quad(lambda t: precision(t) * np.exp(-t / 2) / 2, 0, np.inf)[0]
    assert float(EXPONENTIAL.auc_pr(pi)) == pytest.approx(area, abs=1e-10)


def test_beta_model_exact_values():
    """Beta(2, 5) against Beta(5, 2): AUC 887/924, KS 25/32 at the crossing 1/2,
    best accuracy for pi = 0.3 at the root of 0.7 p0 = 0.3 p1 (checked numerically)."""
    assert BETA.auc() == sympy.Rational(887, 924)
    assert BETA.ks(0.5) == ModelKS(sympy.Rational(25, 32), half, half)
    assert BETA.roc().explicit is None  # FPR is a sextic in theta: no closed inverse
    best = BETA.best_accuracy(0.3)
    p0, p1, _, _, tpr, fpr = scipy_rates("beta")
    accuracy = lambda t: 0.3 * tpr(t) + 0.7 * (1 - fpr(t))  # noqa: E731
    found = minimize_scalar(lambda t: -accuracy(t), bounds=(0, 1), method="bounded")
    assert float(best.threshold) == pytest.approx(found.x, abs=1e-5)
    assert float(best.value) == pytest.approx(-found.fun, abs=1e-10)
    assert 0.7 * p0(float(best.threshold)) == pytest.approx(0.3 * p1(float(best.threshold)))


def test_sine_model_ks_falls_back_to_numerical_maximum():
    """2 - 2t = (pi/2) sin(pi t) has no closed-form root: the KS threshold is a Float."""
    assert same(SINE.auc(), half + 2 / sympy.pi**2)
    ks = SINE.ks(0.5)
    assert isinstance(ks.threshold, sympy.Float)
    t = float(ks.threshold)
    assert 2 - 2 * t == pytest.approx(np.pi / 2 * np.sin(np.pi * t))  # p0 = p1 there
    assert float(ks.value) == pytest.approx(float(SINE.tpr(t) - SINE.fpr(t)))


# ------------------------------------------------------------------ numeric side
def test_points_of_linear_curves_lie_on_the_explicit_curves():
    roc = M.points(M.roc(), n=11)
    np.testing.assert_allclose(roc.y, 2 * np.sqrt(roc.x) - roc.x, atol=1e-12)
    np.testing.assert_allclose(roc.theta, np.linspace(1, 0, 11), atol=1e-12)  # mixture is uniform
    pr = M.points(M.pr(0.1), n=11)
    assert pr.y[0] == 1.0  # precision at the top: the limit of 0/0
    lift = M.points(M.lift(0.1), n=11)
    assert lift.y[0] == pytest.approx(10.0)  # lift at rate 0: 1/pi
    assert np.all(np.diff(lift.x) > 0)


def test_points_on_an_infinite_support():
    pts = EXPONENTIAL.points(EXPONENTIAL.roc(), n=5)
    assert pts.theta[0] == np.inf and pts.theta[-1] == 0.0
    np.testing.assert_allclose(pts.y, np.sqrt(pts.x), atol=1e-12)


@pytest.mark.parametrize("name", ["linear", "beta", "exponential"])
def test_sample_follows_the_class_distributions(name):
    """Inverse-CDF sampling: symbolic (linear, exponential) and by bisection (beta)."""
    model = MODELS[name]
    y, s = model.sample(4000, 0.25, seed=11)
    assert y.sum() == 1000 and y.dtype == np.int64
    cdf1 = sympy.lambdify(THETA, 1 - model.tpr(), "numpy")
    cdf0 = sympy.lambdify(THETA, 1 - model.fpr(), "numpy")
    assert stats.kstest(s[y == 1], cdf1).pvalue > 0.01
    assert stats.kstest(s[y == 0], cdf0).pvalue > 0.01
    assert stats.kstest(s[y == 1], cdf0).pvalue < 1e-6  # and the classes are told apart


@pytest.mark.parametrize("name", ["linear", "beta", "sine"])
def test_empirical_auc_converges_to_the_model_auc(name):
    """Large samples: |empirical AUC - AUC| < 4 DeLong standard errors."""
    model = MODELS[name]
    y, s = model.sample(20_000, 0.5, seed=2024)
    r = auc_ci_delong(y, s)
    assert abs(r.auc - float(model.auc())) < 4 * np.sqrt(r.variance)
    assert np.sqrt(r.variance) < 0.005


def test_sample_is_reproducible_and_in_random_order():
    y1, s1 = M.sample(50, 0.5, seed=3)
    y2, s2 = M.sample(50, 0.5, seed=3)
    np.testing.assert_array_equal(y1, y2)
    np.testing.assert_array_equal(s1, s2)
    assert y1[:25].sum() not in (0, 25)


def test_derived_quantities_are_cached():
    assert M.roc() is M.roc()
    assert M.pr(0.1) is M.pr(tenth)


def test_user_symbol_named_theta_does_not_clash():
    t = sympy.Symbol("theta", real=True)
    model = ScoreModel(2 - 2 * t, 2 * t)
    assert same(model.tpr(), 1 - THETA**2) and model.auc() == sympy.Rational(5, 6)


# ------------------------------------------------------------------ bad input
@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: ScoreModel(1 - 2 * x, 2 * x), "p0 must be non-negative"),
        (lambda: ScoreModel(2 - 2 * x, x), "p1 must integrate to 1"),
        (lambda: ScoreModel(x * sympy.Symbol("a"), 2 * x), "one symbol only"),
        (lambda: ScoreModel(2 - 2 * x, 2 * x, symbol="x"), "must be a sympy Symbol"),
        (lambda: ScoreModel(1, 1, support=(1, 0)), "lo < hi"),
        (lambda: M.tpr(2), "theta must lie in the support"),
        (lambda: M.precision(0.5, 1.5), "strictly between 0 and 1"),
        (lambda: M.best_accuracy(PI), "numeric pi"),
        (lambda: M.points(M.pr()), "depends on the symbol pi"),
        (lambda: M.points(M.roc(), n=1), "n must be an integer"),
        (lambda: M.sample(0, 0.5), "n must be a positive integer"),
        (lambda: M.sample(10, 2), r"pi \(the share of positives\)"),
    ],
)
def test_bad_input_raises(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_polynomials_are_integrated_to_sympys_exact_numbers():
    """The term-by-term integral of a polynomial density (course_lib.models.core._definite)
    against sympy.integrate, the oracle: the same exact number, of the same sympy type;
    anything else (another symbol, an infinite limit, float coefficients) goes to
    sympy.integrate itself."""
    import random

    from course_lib.models.core import THETA, _definite

    rng = random.Random(29)
    for _ in range(60):
        expr = sum(sympy.Rational(rng.randint(-20, 20), rng.randint(1, 9)) * THETA**i
                   for i in range(rng.randint(0, 4)))
        lo = sympy.Rational(rng.randint(-5, 5), rng.randint(1, 5))
        hi = lo + sympy.Rational(rng.randint(1, 9), rng.randint(1, 4))
        ours, oracle = _definite(sympy.sympify(expr), THETA, lo, hi), sympy.integrate(
            expr, (THETA, lo, hi))
        assert sympy.srepr(ours) == sympy.srepr(oracle), (expr, lo, hi)
    pi = sympy.Symbol("pi_", positive=True)
    for expr, lo, hi in ((pi * THETA, 0, 1), (THETA, 0, sympy.oo),
                         (sympy.Float(0.5) * THETA, 0, 1), (sympy.exp(-THETA), 0, 1)):
        lo, hi = sympy.sympify(lo), sympy.sympify(hi)
        assert _definite(expr, THETA, lo, hi) == sympy.integrate(expr, (THETA, lo, hi))
