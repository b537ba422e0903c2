"""Tests of the ROC convex hull tools: randomized rules, iso-performance lines, optimum.

Facts of chapter 2's hull section (Fawcett 2006, section 6): mixing two thresholds at
random with probability q gives, in expectation, the point q A + (1 - q) B exactly; the
iso-performance slope is (1 - pi) c_FP / (pi c_FN) = 1 / PCF(+) - 1; the point where the
highest iso-performance line touches the ROC curve is a hull vertex and minimises the
expected cost among all ROC points.
"""

from fractions import Fraction

import numpy as np
import pytest
from cases import PROFILES, random_case
from hypothesis import assume, given
from hypothesis import strategies as st

import course_lib as cl

Y1 = [0, 0, 0, 1, 1, 1, 0]
B1 = [0.5, 0.1, 0.2, 0.6, 0.2, 0.3, 0.0]


def test_table1_mixture_of_06_and_03_is_the_midpoint():
    a = cl.roc_point(Y1, B1, 0.6)
    b = cl.roc_point(Y1, B1, 0.3)
    assert (a, b) == ((0, Fraction(1, 3)), (Fraction(1, 4), Fraction(2, 3)))
    for q in (Fraction(0), Fraction(1, 3), Fraction(1, 2), Fraction(1)):
        got = cl.randomized_roc_point(Y1, B1, 0.6, 0.3, q=q)
        assert got == (q * a[0] + (1 - q) * b[0], q * a[1] + (1 - q) * b[1])


def test_table1_hull_and_its_area():
    """Table 1: the hull cuts the corner at (1/4, 1/3); area 5/6 against AUC 19/24."""
    c = cl.roc_curve(Y1, B1)
    h = cl.roc_convex_hull(c.fpr, c.tpr)
    assert h.fpr.tolist() == [0.0, 0.0, 0.5, 1.0]
    np.testing.assert_allclose(h.tpr, [0, 1 / 3, 1, 1])
    assert h.area == pytest.approx(5 / 6, abs=1e-15)
    assert cl.roc_auc(Y1, B1, exact=True) + Fraction(1, 24) == Fraction(5, 6)


@given(
    st.lists(st.tuples(st.booleans(), st.integers(-4, 4)), min_size=2, max_size=30),
    st.integers(-5, 5), st.integers(-5, 5), st.fractions(0, 1),
)
def test_property_mixture_is_exactly_the_convex_combination(rows, ta, tb, q):
    y = np.array([r[0] for r in rows])
    s = np.array([float(r[1]) for r in rows])
    assume(y.any() and not y.all())
    a = cl.roc_point(y, s, ta)
    b = cl.roc_point(y, s, tb)
    got = cl.randomized_roc_point(y, s, ta, tb, q=q)
    assert got == (q * a[0] + (1 - q) * b[0], q * a[1] + (1 - q) * b[1])


def test_simulated_mixture_mean_converges_to_the_segment():
    """The mean of many draws is within a few standard errors of q A + (1 - q) B."""
    rng = np.random.default_rng(3)
    y = np.r_[np.ones(40, dtype=int), np.zeros(60, dtype=int)]
    s = rng.normal(size=100) + y
    exact = cl.randomized_roc_point(y, s, 1.0, 0.0, q=0.3)
    draws = np.array([
        [(a & (y == 0)).sum() / 60, (a & (y == 1)).sum() / 40]
        for a in (cl.randomized_rule(s, 1.0, 0.0, q=0.3, rng=rng) for _ in range(4000))
    ])
    se = draws.std(axis=0) / np.sqrt(len(draws))
    assert np.all(np.abs(draws.mean(axis=0) - np.array(exact, dtype=float)) < 5 * se)


def test_randomized_rule_extremes_and_seed():
    s = np.array([0.9, 0.5, 0.1])
    assert cl.randomized_rule(s, 0.6, 0.0, q=1.0, rng=1).tolist() == [True, False, False]
    assert cl.randomized_rule(s, 0.6, 0.0, q=0.0, rng=1).tolist() == [True, True, True]
    a = cl.randomized_rule(np.linspace(0, 1, 50), 0.7, 0.2, q=0.5, rng=7)
    b = cl.randomized_rule(np.linspace(0, 1, 50), 0.7, 0.2, q=0.5, rng=7)
    assert a.tolist() == b.tolist()


@pytest.mark.parametrize("bad", [-0.1, 1.5, "x", True, float("nan")])
def test_bad_probability_raises(bad):
    with pytest.raises(ValueError, match="q must"):
        cl.randomized_roc_point(Y1, B1, 0.6, 0.3, q=bad)


def test_bad_thresholds_raise():
    with pytest.raises(ValueError, match="threshold_a must be finite"):
        cl.randomized_roc_point(Y1, B1, float("inf"), 0.3, q=0.5)
    with pytest.raises(ValueError, match="threshold_b must be finite"):
        cl.randomized_rule(B1, 0.6, float("nan"), q=0.5, rng=0)
    with pytest.raises(ValueError, match="rng"):
        cl.randomized_rule(B1, 0.6, 0.3, q=0.5, rng="seed")


def test_iso_performance_slope_values_and_duality_with_pcf():
    assert cl.iso_performance_slope(0.5, 1, 1) == 1.0
    assert cl.iso_performance_slope(0.25, 1, 1) == pytest.approx(3.0)
    # a sample: m0 c_FP / (m1 c_FN)
    assert cl.iso_performance_slope(3 / 7, 1, 1) == pytest.approx(4 / 3)
    p, fn, fp = np.array([0.1, 0.3, 0.8]), np.array([9, 1, 2]), np.array([1, 4, 1])
    slope = cl.iso_performance_slope(p, fn, fp)
    np.testing.assert_allclose(slope, 1 / cl.probability_cost(p, fn, fp) - 1)
    with pytest.raises(ValueError, match="strictly between 0 and 1"):
        cl.iso_performance_slope(0.0, 1, 1)
    with pytest.raises(ValueError, match="c_fn must be positive"):
        cl.iso_performance_slope(0.5, 0, 1)


@pytest.mark.parametrize("profile", PROFILES)
def test_optimum_is_the_cheapest_roc_point_and_a_hull_vertex(profile):
    """At PCF = 1/(1 + S), the optimum's NEC is the least over all ROC points and equals
    the cost curve; the point is a vertex of the hull."""
    rng = np.random.default_rng(PROFILES.index(profile))
    for _ in range(20):
        y, s, w = random_case(rng, profile)
        c = cl.roc_curve(y, s, sample_weight=w)
        h = cl.roc_convex_hull(c.fpr, c.tpr)
        for slope in (0.0, 0.2, 1.0, 2.5, 10.0):
            opt = cl.iso_performance_optimum(c.fpr, c.tpr, slope=slope)
            assert (opt.fpr, opt.tpr) in set(zip(h.fpr.tolist(), h.tpr.tolist()))
            assert opt.intercept == pytest.approx(opt.tpr - slope * opt.fpr)
            values = c.tpr - slope * c.fpr
            assert opt.intercept == pytest.approx(values.max(), abs=1e-12)
            pcf = 1 / (1 + slope)
            nec = cl.normalized_expected_cost(opt.fpr, opt.tpr, pcf)
            assert nec == pytest.approx(
                cl.normalized_expected_cost(c.fpr, c.tpr, pcf).min(), abs=1e-12)
            assert nec == pytest.approx(cl.cost_curve(c.fpr, c.tpr, pcf), abs=1e-12)


def test_optimum_on_a_hull_edge_returns_its_left_end():
    """Table 1 at equal costs (slope m0/m1 = 4/3): the line lies along the hull edge
    from (0, 1/3) to (1/2, 1), through (1/4, 2/3): all three have accuracy 5/7."""
    c = cl.roc_curve(Y1, B1)
    opt = cl.iso_performance_optimum(c.fpr, c.tpr, slope=4 / 3)
    assert (opt.fpr, opt.tpr) == (0.0, pytest.approx(1 / 3))
    for t in (0.6, 0.3, 0.2):
        a = (np.array(B1) >= t).astype(int)
        assert cl.accuracy(Y1, a) == pytest.approx(5 / 7)
    assert cl.iso_performance_optimum(c.fpr, c.tpr, slope=1.0) == (0.5, 1.0, 0.5)


def test_optimum_bad_input():
    with pytest.raises(ValueError, match="slope"):
        cl.iso_performance_optimum([0, 1], [0, 1], slope=-1)
    with pytest.raises(ValueError, match="slope"):
        cl.iso_performance_optimum([0, 1], [0, 1], slope=float("inf"))
    with pytest.raises(ValueError, match="length"):
        cl.iso_performance_optimum([0, 1], [0], slope=1)


def test_inputs_not_modified():
    y = np.array(Y1)
    s = np.array(B1)
    y0, s0 = y.copy(), s.copy()
    cl.randomized_roc_point(y, s, 0.6, 0.3, q=0.5)
    cl.randomized_rule(s, 0.6, 0.3, q=0.5, rng=0)
    c = cl.roc_curve(y, s)
    f0 = c.fpr.copy()
    cl.iso_performance_optimum(c.fpr, c.tpr, slope=1.0)
    assert (y == y0).all() and (s == s0).all() and (c.fpr == f0).all()
