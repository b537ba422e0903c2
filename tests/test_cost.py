"""Tests of course_lib.cost: Drummond & Holte cost curves (source C, syllabus ch. 9)."""

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sklearn.metrics import roc_curve as sk_roc_curve

from course_lib.cost import (
    cost_curve,
    cost_difference,
    cost_line_to_roc_point,
    cost_lower_envelope,
    cost_point_to_roc_line,
    normalized_expected_cost,
    probability_cost,
    roc_line_to_cost_point,
    roc_point_to_cost_line,
    trivial_cost,
    vertical_average,
)

# ------------------------------------------------------------------ oracles


def cross(o, a, b):
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def hull_points(points):
    """Independent exact oracle: vertices of the upper ROC convex hull (monotone chain, in
    Fractions) of the non-dominated points among the given ones and (0, 0), (1, 1)."""
    pts = {(Fraction(f), Fraction(t)) for f, t in points} | {(Fraction(0), Fraction(0)),
                                                             (Fraction(1), Fraction(1))}
    front = sorted(
        p for p in pts if not any(q != p and q[0] <= p[0] and q[1] >= p[1] for q in pts)
    )
    hull = []
    for p in front:
        while len(hull) >= 2 and cross(hull[-2], hull[-1], p) >= 0:
            hull.pop()
        hull.append(p)
    return hull


def brute_envelope(points):
    """Independent exact oracle in cost space: the lowest line on each piece of [0, 1]
    between consecutive crossings; returns the winners in order and the breakpoints."""
    pts = sorted({(Fraction(f), Fraction(t)) for f, t in points} | {(Fraction(0), Fraction(0)),
                                                                    (Fraction(1), Fraction(1))})
    lines = [(1 - t - f, f) for f, t in pts]
    xs = {Fraction(0), Fraction(1)}
    for i, (a1, b1) in enumerate(lines):
        for a2, b2 in lines[i + 1:]:
            if a1 != a2 and 0 < (b2 - b1) / (a1 - a2) < 1:
                xs.add((b2 - b1) / (a1 - a2))
    xs = sorted(xs)
    winners, breaks = [], [Fraction(0)]
    for lo, hi in zip(xs, xs[1:]):
        mid = (lo + hi) / 2
        best = min(range(len(lines)), key=lambda k: lines[k][0] * mid + lines[k][1])
        if not winners or winners[-1] != pts[best]:
            if winners:
                breaks.append(lo)
            winners.append(pts[best])
    return winners, breaks + [Fraction(1)]


def as_fractions(e):
    return [(Fraction(f), Fraction(t)) for f, t in zip(e.fpr.tolist(), e.tpr.tolist())]


# points on the grid i/16: exact in floating point, many collinear and dominated cases
grid_points = st.lists(
    st.tuples(st.integers(0, 16), st.integers(0, 16)), min_size=1, max_size=12
).map(lambda pts: [(f / 16, t / 16) for f, t in pts])


# --------------------------------------------------------------- the two axes


def test_probability_cost_formula_and_equal_costs():
    """Ch. 9: PCF(+) = p C(-|+) / (p C(-|+) + (1 - p) C(+|-)); equal costs give p(+)."""
    assert probability_cost(0.3, 1, 1) == pytest.approx(0.3, abs=1e-15)
    assert probability_cost(0.3, 7, 7) == pytest.approx(0.3, abs=1e-15)
    assert probability_cost(0.2, 3, 2) == pytest.approx(0.6 / (0.6 + 1.6), abs=1e-15)
    assert probability_cost(0.1, 9, 1) == 0.5
    assert (probability_cost(0, 5, 1), probability_cost(1, 5, 1)) == (0.0, 1.0)
    np.testing.assert_allclose(probability_cost([0.1, 0.5], 1, [1, 3]), [0.1, 0.25])
    assert type(probability_cost(0.3, 1, 1)) is float


@given(
    st.floats(0, 1), st.floats(0.01, 100), st.floats(0.01, 100),
    st.integers(0, 20), st.integers(1, 20), st.integers(0, 20), st.integers(1, 20),
)  # fmt: skip
def test_nec_is_expected_cost_over_its_maximum(p, c_fn, c_fp, tp, m1_extra, fp, m0_extra):
    """NEC(PCF) = expected cost / the largest expected cost p C(-|+) + (1 - p) C(+|-)."""
    m1, m0 = tp + m1_extra, fp + m0_extra
    tpr, fpr = tp / m1, fp / m0
    expected_cost = p * c_fn * (1 - tpr) + (1 - p) * c_fp * fpr
    worst = p * c_fn + (1 - p) * c_fp
    nec = normalized_expected_cost(fpr, tpr, probability_cost(p, c_fn, c_fp))
    assert nec == pytest.approx(expected_cost / worst, abs=1e-12)
    assert 0 <= nec <= 1 + 1e-15


def test_nec_with_equal_costs_is_the_error_rate():
    """Ch. 9 (C): with C(-|+) = C(+|-) the x-axis is p(+) and NEC is the error rate."""
    y = np.array([1, 1, 1, 0, 0, 0, 0, 0, 0, 0])
    pred = np.array([1, 1, 0, 1, 0, 0, 0, 0, 0, 0])
    tpr = (pred[y == 1] == 1).mean()
    fpr = (pred[y == 0] == 1).mean()
    x = probability_cost(y.mean(), 4, 4)
    assert normalized_expected_cost(fpr, tpr, x) == pytest.approx((pred != y).mean(), abs=1e-15)


# -------------------------------------------------------------------- duality


def test_roc_point_is_a_line_through_0_fpr_and_1_fnr():
    """C: the ROC point (FP, TP) is the cost line through (0, FP) and (1, 1 - TP), i.e.
    Y = (FN - FP) p(+) + FP."""
    fpr, tpr = 0.2, 0.7
    assert normalized_expected_cost(fpr, tpr, 0.0) == pytest.approx(0.2, abs=1e-15)
    assert normalized_expected_cost(fpr, tpr, 1.0) == pytest.approx(0.3, abs=1e-15)
    line = roc_point_to_cost_line(fpr, tpr)
    assert line.slope == pytest.approx((1 - tpr) - fpr, abs=1e-15)
    assert line.intercept == fpr


def test_trivial_classifiers_are_the_diagonals():
    """C: constant predictions are the diagonals of the unit square in cost space."""
    assert roc_point_to_cost_line(0, 0) == (1.0, 0.0)  # always negative: NEC = PCF
    assert roc_point_to_cost_line(1, 1) == (-1.0, 1.0)  # always positive: NEC = 1 - PCF
    x = np.linspace(0, 1, 9)
    np.testing.assert_allclose(normalized_expected_cost(0, 0, x), x)
    np.testing.assert_allclose(normalized_expected_cost(1, 1, x), 1 - x)
    np.testing.assert_allclose(trivial_cost(x), np.minimum(x, 1 - x))
    np.testing.assert_allclose(cost_curve([0.0], [0.0], x), np.minimum(x, 1 - x))


@given(st.floats(0, 1), st.floats(0, 1))
def test_point_line_round_trip(fpr, tpr):
    """C: a cost line a X + b is the ROC point FP = b, TP = 1 - (b + a), and back."""
    line = roc_point_to_cost_line(fpr, tpr)
    back = cost_line_to_roc_point(*line)
    assert back.fpr == fpr
    assert back.tpr == pytest.approx(tpr, abs=1e-15)


@given(st.floats(0, 50), st.floats(-5, 1), st.floats(0, 1))
def test_roc_line_is_a_cost_point(slope, intercept, fpr):
    """C: a ROC line of slope S and intercept TP0 is the cost point X = 1/(1 + S),
    Y = (1 - TP0) X: the cost lines of all its points pass through it; and back."""
    x, y = roc_line_to_cost_point(slope, intercept)
    tpr = slope * fpr + intercept
    a, b = 1 - tpr - fpr, fpr  # the cost line of a point of the ROC line (any real TPR)
    assert a * x + b == pytest.approx(y, abs=1e-9 * (1 + abs(slope)))
    line = cost_point_to_roc_line(x, y)
    assert line.slope == pytest.approx(slope, rel=1e-9, abs=1e-9)
    assert line.intercept == pytest.approx(intercept, rel=1e-9, abs=1e-9)


def test_source_C_duality_formulas_on_numbers():
    """C's formulas on one example: TP = (1/X - 1) FP + (1 - Y/X) at (X, Y) = (1/4, 1/8)."""
    slope, intercept = cost_point_to_roc_line(0.25, 0.125)
    assert (slope, intercept) == (3.0, 0.5)
    assert roc_line_to_cost_point(3, 0.5) == (0.25, 0.125)
    assert cost_line_to_roc_point(0.25, 0.25) == (0.25, 0.5)


# ---------------------------------------------------------------- the envelope


def test_envelope_small_example():
    """Ch. 9: the ROC points (0.25, 0.75) and (0.5, 0.25): the second is below the ROC
    diagonal and never best; the first is best for PCF in [1/4, 3/4]."""
    e = cost_lower_envelope([0.25, 0.5], [0.75, 0.25])
    assert as_fractions(e) == [(0, 0), (Fraction(1, 4), Fraction(3, 4)), (1, 1)]
    assert e.pcf.tolist() == [0.0, 0.25, 0.75, 1.0]
    assert e.nec.tolist() == [0.0, 0.25, 0.25, 0.0]


def test_envelope_drops_dominated_ends_and_collinear_points():
    """A point with FPR = 0 < TPR removes 'always negative' (it ties only at PCF = 0);
    a point with TPR = 1 > FPR removes 'always positive'; a point in the middle of a
    hull edge touches the envelope at one PCF only and is left out."""
    e = cost_lower_envelope([0.0, 0.5], [0.5, 1.0])
    assert as_fractions(e) == [(0, Fraction(1, 2)), (Fraction(1, 2), 1)]
    assert e.pcf.tolist() == [0.0, 0.5, 1.0]
    e = cost_lower_envelope([0.25, 0.5, 0.75], [0.5, 0.75, 1.0])  # collinear on y = x + 1/4
    assert as_fractions(e) == [(0, 0), (Fraction(1, 4), Fraction(1, 2)), (Fraction(3, 4), 1)]
    perfect = cost_lower_envelope([0.0, 0.3], [1.0, 0.9])
    assert as_fractions(perfect) == [(0, 1)]
    assert perfect.pcf.tolist() == [0.0, 1.0] and perfect.nec.tolist() == [0.0, 0.0]


@given(grid_points)
def test_envelope_uses_exactly_the_roc_convex_hull(points):
    """Ch. 9: the lower envelope in cost space consists of the lines of exactly the
    vertices of the ROC convex hull (non-dominated points with (0, 0) and (1, 1));
    and it agrees, breakpoint by breakpoint, with a brute-force search in cost space."""
    f, t = zip(*points)
    e = cost_lower_envelope(f, t)
    assert as_fractions(e) == hull_points(points)
    winners, breaks = brute_envelope(points)
    assert as_fractions(e) == winners
    np.testing.assert_allclose(e.pcf, [float(b) for b in breaks], atol=1e-15)
    lines = [(1 - tt - ff, ff) for ff, tt in points] + [(1, 0), (-1, 1)]
    lowest = [min(a * x + b for a, b in lines) for x in e.pcf]
    np.testing.assert_allclose(e.nec, lowest, atol=1e-15)


@given(grid_points)
def test_envelope_matches_course_lib_roc_convex_hull_inside_the_square(points):
    """For points strictly inside the square, the envelope's points are the vertices of
    course_lib.roc_convex_hull of the points with (0, 0) and (1, 1)."""
    from course_lib.roc import roc_convex_hull

    inner = [(f, t) for f, t in points if 0 < f < 1 and 0 < t < 1]
    if not inner:
        inner = [(0.5, 0.5)]
    f, t = zip(*inner)
    hull = roc_convex_hull([0.0, *f, 1.0], [0.0, *t, 1.0])
    e = cost_lower_envelope(f, t)
    np.testing.assert_array_equal(e.fpr, hull.fpr)
    np.testing.assert_array_equal(e.tpr, hull.tpr)


@given(
    st.lists(st.tuples(st.floats(0, 1), st.floats(0, 1)), min_size=1, max_size=15),
    st.lists(st.floats(0, 1), min_size=1, max_size=10),
)
def test_cost_curve_is_the_lowest_line(points, xs):
    """The cost curve at any PCF is the lowest cost line (trivial classifiers included)."""
    f, t = zip(*points)
    got = cost_curve(f, t, xs)
    lines = [(1 - tt - ff, ff) for ff, tt in points] + [(1, 0), (-1, 1)]
    expected = [min(a * x + b for a, b in lines) for x in xs]
    np.testing.assert_allclose(got, expected, atol=1e-12)
    assert (got <= trivial_cost(xs) + 1e-15).all()


def test_cost_curve_of_a_scorer_is_its_best_threshold():
    """On a scored sample the cost curve at PCF is the lowest NEC over all thresholds."""
    rng = np.random.default_rng(9)
    y = rng.random(200) < 0.3
    s = np.round(rng.normal(size=200) + y, 1)
    fpr, tpr, thr = sk_roc_curve(y, s, drop_intermediate=False)
    for x in np.linspace(0, 1, 21):
        best = min(normalized_expected_cost(f, t, x) for f, t in zip(fpr, tpr))
        assert cost_curve(fpr, tpr, x) == pytest.approx(best, abs=1e-12)


# --------------------------------------------------- averaging and comparison


def test_vertical_average_of_folds():
    """Ch. 9 (C): five cross-validation folds, averaged vertically at equal PCF; each fold's
    curve is computed independently here by a direct minimum over its thresholds."""
    rng = np.random.default_rng(11)
    y = rng.random(500) < 0.4
    s = np.round(rng.normal(size=500) + 1.2 * y, 1)
    folds = np.array_split(rng.permutation(500), 5)
    curves = [sk_roc_curve(y[i], s[i]) for i in folds]
    grid = np.linspace(0, 1, 41)
    avg = vertical_average(curves, grid)
    direct = [
        [min([x, 1 - x] + [(1 - t - f) * x + f for f, t in zip(c[0], c[1])]) for x in grid]
        for c in curves
    ]
    np.testing.assert_allclose(avg.nec, np.mean(direct, axis=0), atol=1e-12)
    np.testing.assert_array_equal(avg.pcf, grid)
    # one curve averages to itself
    np.testing.assert_allclose(vertical_average(curves[:1], grid).nec, direct[0], atol=1e-12)


def test_vertical_average_small_example():
    """Two folds with one point each, (0, 0.5) and (0.5, 1): both cost 1/4 at PCF = 1/2,
    and at PCF = 1/4 they cost 1/8 and 1/4."""
    avg = vertical_average([([0.0], [0.5]), ([0.5], [1.0])], [0, 0.25, 0.5, 1])
    np.testing.assert_allclose(avg.nec, [0.0, (0.125 + 0.25) / 2, 0.25, 0.0])


def test_cost_difference_compares_models_at_operating_conditions():
    """Ch. 9: A - B at given conditions: negative where A is better; antisymmetric."""
    a, b = ([0.3], [0.9]), ([0.1], [0.6])
    x = probability_cost(0.1, 5, 1)  # 5/14
    assert x == pytest.approx(5 / 14, abs=1e-15)
    assert cost_difference(a, b, x) == pytest.approx((0.3 - 0.2 * x) - (0.1 + 0.3 * x), abs=1e-15)
    # at PCF = 0.8 A is better: 0.3 - 0.16 = 0.14 against min(0.1 + 0.24, 1 - 0.8) = 0.2
    assert cost_difference(a, b, 0.8) == pytest.approx(0.14 - 0.2, abs=1e-15)
    xs = np.linspace(0, 1, 11)
    np.testing.assert_allclose(cost_difference(a, b, xs), -cost_difference(b, a, xs))
    assert cost_difference(a, a, xs).tolist() == [0.0] * 11


# ------------------------------------------------------------------ bad inputs


def test_bad_inputs():
    """PCF, probabilities and rates outside [0, 1], non-positive costs, bad shapes."""
    with pytest.raises(ValueError, match=r"p_pos must lie in \[0, 1\]; found 1.2"):
        probability_cost(1.2, 1, 1)
    with pytest.raises(ValueError, match="c_fn must be positive; found 0.0"):
        probability_cost(0.5, 0, 1)
    with pytest.raises(ValueError, match="c_fp must be positive; found -1.0"):
        probability_cost(0.5, 1, -1)
    with pytest.raises(ValueError, match="c_fp contains NaN"):
        probability_cost(0.5, 1, np.nan)
    with pytest.raises(ValueError, match=r"pcf must lie in \[0, 1\]"):
        normalized_expected_cost(0.1, 0.5, 1.5)
    with pytest.raises(ValueError, match=r"tpr must lie in \[0, 1\]"):
        normalized_expected_cost(0.1, -0.5, 0.5)
    with pytest.raises(ValueError, match="fpr must be numeric"):
        roc_point_to_cost_line("a", 0.5)
    with pytest.raises(ValueError, match="is no classifier's"):
        cost_line_to_roc_point(0.5, 0.8)
    with pytest.raises(ValueError, match="slope must be non-negative"):
        roc_line_to_cost_point(-1, 0)
    with pytest.raises(ValueError, match="pcf must be positive"):
        cost_point_to_roc_line(0, 0.5)
    with pytest.raises(ValueError, match=r"fpr must lie in \[0, 1\]; found 1.5"):
        cost_lower_envelope([0.5, 1.5], [0.5, 0.5])
    with pytest.raises(ValueError, match="same length"):
        cost_lower_envelope([0.5, 0.2], [0.5])
    with pytest.raises(ValueError, match="curves is empty"):
        vertical_average([], [0.5])
    with pytest.raises(ValueError, match="first two items are the FPR and TPR"):
        vertical_average([0.5], [0.5])
    with pytest.raises(ValueError, match="pcf must be 1-D"):
        vertical_average([([0.1], [0.5])], 0.5)
    with pytest.raises(ValueError, match="curve_b must be a sequence"):
        cost_difference(([0.1], [0.5]), None, 0.5)


def test_inputs_are_not_modified():
    """No function changes its arguments."""
    f = np.array([0.5, 0.1, 0.3])
    t = np.array([0.9, 0.4, 0.6])
    x = np.array([0.2, 0.7])
    copies = f.copy(), t.copy(), x.copy()
    cost_lower_envelope(f, t)
    cost_curve(f, t, x)
    normalized_expected_cost(f[0], t[0], x)
    vertical_average([(f, t), (t * 0 + 0.2, t)], x)
    cost_difference((f, t), (f * 0.5, t), x)
    for a, b in zip((f, t, x), copies):
        np.testing.assert_array_equal(a, b)


def test_scalars_are_python_floats():
    """Scalar inputs give Python floats; array inputs give arrays."""
    for value in (
        probability_cost(0.2, 1, 2),
        normalized_expected_cost(0.1, 0.5, 0.3),
        trivial_cost(0.3),
        cost_curve([0.1], [0.5], 0.3),
        cost_difference(([0.1], [0.5]), ([0.2], [0.7]), 0.3),
        *roc_point_to_cost_line(0.1, 0.5),
        *cost_line_to_roc_point(0.4, 0.1),
        *roc_line_to_cost_point(2, 0.1),
        *cost_point_to_roc_line(0.5, 0.2),
    ):
        assert type(value) is float
    assert isinstance(cost_curve([0.1], [0.5], [0.3]), np.ndarray)


def test_hull_and_envelope_drop_a_midpoint_of_an_edge_despite_float_rounding():
    """(0.15, 0.65) is on the chord (0.1, 0.5)-(0.2, 0.8) exactly, but its float cross
    product is a hair positive; both the ROC hull and the cost envelope must drop it,
    and no envelope piece may have zero length."""
    from course_lib import cost_lower_envelope, roc_convex_hull

    hull = roc_convex_hull([0, 0.1, 0.15, 0.2, 1], [0, 0.5, 0.65, 0.8, 1])
    assert hull.fpr.tolist() == [0.0, 0.1, 0.2, 1.0]
    env = cost_lower_envelope([0.1, 0.15, 0.2], [0.5, 0.65, 0.8])
    assert env.fpr.tolist() == [0.0, 0.1, 0.2, 1.0]
    assert (np.diff(env.pcf) > 0).all()


def test_envelope_is_the_hull_on_decimal_grids():
    """Rates that are multiples of 1/20 and 1/30 (not binary fractions)."""
    from course_lib import cost_lower_envelope, roc_convex_hull

    rng = np.random.default_rng(20)
    for _ in range(300):
        k = int(rng.integers(1, 12))
        f = rng.integers(0, 21, k) / 20
        t = rng.integers(0, 31, k) / 30
        hull = roc_convex_hull(np.r_[0, f, 1], np.r_[0, t, 1])
        env = cost_lower_envelope(f, t)
        assert (np.diff(env.pcf) > 0).all()
        on_hull = set(zip(hull.fpr.tolist(), hull.tpr.tolist()))
        assert set(zip(env.fpr.tolist(), env.tpr.tolist())) <= on_hull
