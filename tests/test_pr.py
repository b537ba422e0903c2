"""Tests of course_lib.pr: PR curves, average precision, trapezoid area, achievable PR."""

from fractions import Fraction

import numpy as np
import pytest
from cases import PROFILES, random_case
from hypothesis import assume, given
from hypothesis import strategies as st

from course_lib import UndefinedMetricWarning
from course_lib.pr import achievable_pr, average_precision, pr_auc_trapezoid, pr_curve
from course_lib.roc import roc_convex_hull, roc_curve, trapezoid_area

# ---------------------------------------------------------------- syllabus facts


def test_F30_table1_threshold_04_is_recall_third_precision_half(table1):
    """F-30: on Table 1 the rule b >= 0.4 gives the PR point (R, P) = (1/3, 1/2)."""
    y, b = table1
    c = pr_curve(y, b)
    # b >= 0.4 selects the scores 0.6 and 0.5: the point of threshold 0.5
    k = int(np.flatnonzero(c.thresholds == 0.5)[0])
    assert c.thresholds[c.thresholds >= 0.4].tolist() == [0.6, 0.5]
    assert c.recall[k] == pytest.approx(1 / 3, abs=1e-15)
    assert c.precision[k] == 0.5


def test_S_six_objects_pr_curve_ends_at_recall_1_precision_half():
    """Ch. 7, source S: b = [0.14, 0.23, 0.39, 0.52, 0.73, 0.90], y = [0,1,0,0,1,1]:
    the curve ends at (1, 1/2); the points follow the sorted labels 1, 1, 0, 0, 1, 0."""
    b = [0.14, 0.23, 0.39, 0.52, 0.73, 0.90]
    y = [0, 1, 0, 0, 1, 1]
    c = pr_curve(y, b)
    assert (c.recall[-1], c.precision[-1]) == (1.0, 0.5)
    np.testing.assert_allclose(c.recall, [1 / 3, 2 / 3, 2 / 3, 2 / 3, 1, 1], atol=1e-15)
    np.testing.assert_allclose(c.precision, [1, 1, 2 / 3, 1 / 2, 3 / 5, 1 / 2], atol=1e-15)
    assert average_precision(y, b, exact=True) == Fraction(1, 3) * (1 + 1 + Fraction(3, 5))


def test_F31_achievable_pr_table_of_source_C():
    """F-31: from A (TP 5, FP 5) to B (TP 10, FP 30) with 20 positives, C's rows."""
    c = achievable_pr(5, 5, 10, 30, 20)
    rows = list(zip(c.tp, c.fp, c.recall, c.precision.round(3)))
    assert rows == [
        (6, 10, 0.30, 0.375),
        (7, 15, 0.35, 0.318),
        (8, 20, 0.40, 0.286),
        (9, 25, 0.45, 0.265),
        (10, 30, 0.50, 0.250),
    ]
    np.testing.assert_allclose(c.precision, [6 / 16, 7 / 22, 8 / 28, 9 / 34, 10 / 40], rtol=1e-15)


def test_F31_straight_line_in_pr_space_overstates_the_area():
    """F-31: the straight PR segment from A to B lies above the achievable curve."""
    c = achievable_pr(5, 5, 10, 30, 20)
    recall = np.r_[0.25, c.recall]  # A = (0.25, 0.5) then the achievable points
    precision = np.r_[0.5, c.precision]
    achievable = trapezoid_area(recall, precision)
    straight = (0.5 - 0.25) * (0.5 + 0.25) / 2
    assert straight > achievable
    line = np.interp(c.recall, [0.25, 0.5], [0.5, 0.25])
    assert (line[:-1] > c.precision[:-1]).all()
    inner = 6 / 16 + 7 / 22 + 8 / 28 + 9 / 34
    assert achievable == pytest.approx(0.05 * (0.5 / 2 + inner + 0.25 / 2), abs=1e-15)


def test_ap_and_trapezoid_on_table1(table1):
    """Table 1: AP = (1 + 2/3 + 3/5)/3 = 34/45; trapezoids from (0, 1) give 109/135."""
    y, b = table1
    assert average_precision(y, b, exact=True) == Fraction(34, 45)
    assert average_precision(y, b) == pytest.approx(34 / 45, abs=1e-15)
    # (0,1)-(1/3,1): 1/3; (1/3,1/2)-(2/3,2/3): 7/36; (2/3,2/3)-(1,3/5): 19/90
    expected = Fraction(1, 3) + Fraction(7, 36) + Fraction(19, 90)
    assert pr_auc_trapezoid(y, b) == pytest.approx(float(expected), abs=1e-15)


# ---------------------------------------------------------------- against scikit-learn

@pytest.mark.parametrize("profile", PROFILES)
def test_average_precision_and_pr_curve_agree_with_sklearn(profile):
    """Differential, 6 x 200 cases: average_precision matches average_precision_score
    and every PR point matches precision_recall_curve, to 1e-12."""
    from sklearn import metrics

    rng = np.random.default_rng(100 + PROFILES.index(profile))
    for _ in range(200):
        y, s, w = random_case(rng, profile)
        expected = metrics.average_precision_score(y, s, sample_weight=w)
        assert average_precision(y, s, sample_weight=w) == pytest.approx(expected, abs=1e-12)
        precision, recall, thr = metrics.precision_recall_curve(y, s, sample_weight=w)
        c = pr_curve(y, s, sample_weight=w)
        # sklearn: increasing thresholds, plus a final point (recall 0, precision 1)
        np.testing.assert_array_equal(c.thresholds, thr[::-1])
        np.testing.assert_allclose(c.recall, recall[-2::-1], rtol=0, atol=1e-12)
        np.testing.assert_allclose(c.precision, precision[-2::-1], rtol=0, atol=1e-12)


# ---------------------------------------------------------------- properties

rows = st.lists(
    st.tuples(st.booleans(), st.integers(-6, 6), st.integers(0, 4)), min_size=1, max_size=40
)


def unpack(data):
    y = np.array([r[0] for r in data])
    s = np.array([float(r[1]) for r in data])
    w = np.array([r[2] for r in data])
    return y, s, w


@given(rows)
def test_property_ap_is_the_step_sum_over_the_curve(data):
    """AP = sum (R_n - R_{n-1}) P_n over pr_curve's points; exact equals the float."""
    y, s, _ = unpack(data)
    assume(y.any())
    c = pr_curve(y, s)
    step_sum = float(np.dot(np.diff(c.recall, prepend=0.0), c.precision))
    ap = average_precision(y, s)
    assert ap == pytest.approx(step_sum, abs=1e-12)
    assert ap == pytest.approx(float(average_precision(y, s, exact=True)), abs=1e-15)
    assert 0 < ap <= 1


@given(rows)
def test_property_integer_weights_equal_replicated_rows(data):
    """Weight k equals k copies of the row (weight 0 = the row dropped)."""
    y, s, w = unpack(data)
    assume((w * y).sum() > 0)
    yr, sr = np.repeat(y, w), np.repeat(s, w)
    assert average_precision(y, s, sample_weight=w, exact=True) == average_precision(
        yr, sr, exact=True
    )
    c, cr = pr_curve(y, s, sample_weight=w), pr_curve(yr, sr)
    for a, b in zip(c, cr):
        np.testing.assert_allclose(a, b, rtol=0, atol=1e-12)
    assert pr_auc_trapezoid(y, s, sample_weight=w) == pytest.approx(
        pr_auc_trapezoid(yr, sr), abs=1e-12
    )


@given(rows)
def test_property_pr_points_match_roc_points(data):
    """On fixed data each ROC vertex maps to one PR point: P = TP / (TP + FP)."""
    y, s, _ = unpack(data)
    assume(y.any() and not y.all())
    r, c = roc_curve(y, s), pr_curve(y, s)
    tp, fp = r.tpr[1:] * y.sum(), r.fpr[1:] * (~y).sum()
    np.testing.assert_allclose(c.recall, r.tpr[1:], rtol=0, atol=1e-12)
    np.testing.assert_allclose(c.precision, tp / (tp + fp), rtol=0, atol=1e-12)


@given(
    st.integers(0, 20), st.integers(0, 20), st.integers(1, 20), st.integers(0, 40),
    st.integers(0, 10),
)
def test_property_achievable_pr_ends_at_b_and_precision_is_monotone(tp_a, fp_a, dtp, dfp, extra):
    """The achievable curve ends at B; precision moves monotonically from A to B."""
    tp_b, fp_b = tp_a + dtp, fp_a + dfp
    c = achievable_pr(tp_a, fp_a, tp_b, fp_b, tp_b + extra)
    assert (c.tp[-1], c.fp[-1]) == (tp_b, fp_b)
    assert c.recall[-1] == tp_b / (tp_b + extra)
    assert len(c.tp) == dtp
    p = np.r_[tp_a / (tp_a + fp_a) if tp_a + fp_a else c.precision[0], c.precision]
    d = np.diff(p)
    assert (d <= 1e-15).all() or (d >= -1e-15).all()


# ---------------------------------------------------------------- degenerate and bad input


def test_no_positive_is_undefined():
    """Recall has no denominator: the curve raises, the areas warn and give nan."""
    with pytest.raises(ValueError, match="no positive samples"):
        pr_curve([0, 0], [0.1, 0.2])
    with pytest.raises(ValueError, match="no positive samples"):
        pr_curve([0, 1], [0.1, 0.2], sample_weight=[1, 0])
    with pytest.warns(UndefinedMetricWarning, match="no positive samples"):
        assert np.isnan(average_precision([0, 0], [0.1, 0.2]))
    with pytest.warns(UndefinedMetricWarning, match="no positive samples"):
        assert np.isnan(average_precision([0, 0], [0.1, 0.2], exact=True))
    with pytest.warns(UndefinedMetricWarning, match="no positive samples"):
        assert np.isnan(pr_auc_trapezoid([0, 0], [0.1, 0.2]))


def test_no_negative_is_perfect():
    """Only positives: precision is 1 everywhere, both areas are 1."""
    assert average_precision([1, 1], [0.1, 0.2]) == 1.0
    assert pr_auc_trapezoid([1, 1], [0.1, 0.2]) == 1.0
    assert pr_curve([1, 1], [0.1, 0.2]).precision.tolist() == [1.0, 1.0]


@pytest.mark.parametrize(
    "y, s, w, message",
    [
        ([0, 2, 1], [0.1, 0.2, 0.3], None, "found other values: 2"),
        ([0, 1], [0.1, np.nan], None, "NaN or infinite"),
        ([0, 1, 1], [0.1, 0.2], None, "different lengths: 3 and 2"),
        ([], [], None, "y_true is empty"),
        ([[0, 1]], [[0.1, 0.2]], None, "must be 1-D"),
        ([0, 1], [0.1, 0.2], [1, -1], "non-negative"),
        ([0, 1], [0.1, 0.2], [1, np.inf], "sample_weight contains NaN or infinite"),
    ],
)
def test_bad_input_raises_value_error(y, s, w, message):
    """Every public function names the problem with its input."""
    for func in (pr_curve, average_precision, pr_auc_trapezoid):
        with pytest.raises(ValueError, match=message):
            func(y, s, sample_weight=w)


def test_bad_options_raise_value_error():
    """Fractional weights with exact=True; impossible ROC points for achievable_pr."""
    with pytest.raises(ValueError, match="integer sample weights; found 0.5"):
        average_precision([0, 1], [0.1, 0.2], sample_weight=[1, 0.5], exact=True)
    with pytest.raises(ValueError, match="more true positives than A"):
        achievable_pr(5, 5, 5, 30, 20)
    with pytest.raises(ValueError, match="at least as many false positives"):
        achievable_pr(5, 30, 10, 5, 20)
    with pytest.raises(ValueError, match="n_pos=8 is smaller than tp_b=10"):
        achievable_pr(5, 5, 10, 30, 8)
    with pytest.raises(ValueError, match="fp_a must be a non-negative integer"):
        achievable_pr(5, -1, 10, 30, 20)
    with pytest.raises(ValueError, match="tp_b must be a non-negative integer"):
        achievable_pr(5, 5, 10.5, 30, 20)


def test_inputs_are_not_modified_and_results_are_python_scalars(table1):
    """Read-only inputs are accepted; areas are Python floats."""
    y, b = (a.copy() for a in table1)
    w = np.arange(1.0, 8.0)
    for a in (y, b, w):
        a.flags.writeable = False
    assert type(average_precision(y, b, sample_weight=w)) is float
    assert type(pr_auc_trapezoid(y, b, sample_weight=w)) is float
    pr_curve(y, b, sample_weight=w)
    np.testing.assert_array_equal(y, table1[0])
    np.testing.assert_array_equal(b, table1[1])


# ---------------------------------------------------------------- PR under imbalance
# The unachievable region (Boyd, Costa, Davis & Page, ICML 2012), the AP of a random
# scorer, and precision-recall-gain curves (Flach & Kull, NeurIPS 2015).

from itertools import combinations  # noqa: E402
from math import log  # noqa: E402

from scipy import integrate  # noqa: E402

from course_lib.pr import (  # noqa: E402
    min_pr_auc,
    min_precision,
    precision_recall_gain_curve,
    prg_auc,
)


def test_min_precision_is_the_worst_ranking():
    """The worst ranking (every negative first) has exactly the least precision."""
    for m1, m0 in [(3, 4), (1, 9), (20, 180), (7, 2)]:
        pi = m1 / (m1 + m0)
        y = np.r_[np.zeros(m0, dtype=int), np.ones(m1, dtype=int)]
        s = -np.arange(m1 + m0, dtype=float)  # negatives on top
        c = pr_curve(y, s)
        rises = np.diff(c.recall, prepend=0.0) > 0
        np.testing.assert_allclose(c.precision[rises],
                                   min_precision(c.recall[rises], positive_share=pi),
                                   rtol=1e-14)


@pytest.mark.parametrize("pi", [0.001, 0.01, 0.1, 0.5, 0.9, 0.999])
def test_min_pr_auc_is_the_integral_of_min_precision(pi):
    area, err = integrate.quad(lambda r: min_precision(r, positive_share=pi), 0, 1,
                               epsabs=1e-13)
    assert min_pr_auc(positive_share=pi) == pytest.approx(area, abs=1e-11)
    assert min_pr_auc(positive_share=pi) == pytest.approx(1 + (1 - pi) * log(1 - pi) / pi)


def test_worst_ap_tends_to_min_pr_auc():
    """AP of the worst ranking, (1/m1) sum_k k/(k + m0), tends to the area as n grows."""
    pi = 0.1
    gaps = []
    for m1 in (10, 100, 1000):
        m0 = 9 * m1
        y = np.r_[np.zeros(m0, dtype=int), np.ones(m1, dtype=int)]
        ap = average_precision(y, -np.arange(y.size, dtype=float))
        k = np.arange(1, m1 + 1)
        assert ap == pytest.approx(float(np.mean(k / (k + m0))), rel=1e-12)
        gaps.append(abs(ap - min_pr_auc(positive_share=pi)))
    assert gaps[0] > gaps[1] > gaps[2] and gaps[2] < 1e-3


def test_min_precision_bad_input():
    for bad in (0, 1, -0.2, "a", True):
        with pytest.raises(ValueError, match="positive_share"):
            min_precision(0.5, positive_share=bad)
    with pytest.raises(ValueError, match="recall"):
        min_precision([0.5, 1.2], positive_share=0.5)
    with pytest.raises(ValueError, match="positive_share"):
        min_pr_auc(positive_share=1.0)


def _expected_random_ap(m1, m0):
    """E[AP] over all orderings, by enumerating the positions of the positives."""
    n = m1 + m0
    total, count = Fraction(0), 0
    for pos in combinations(range(n), m1):
        y = np.zeros(n, dtype=int)
        y[list(pos)] = 1
        total += average_precision(y, -np.arange(n, dtype=float), exact=True)
        count += 1
    return total / count


@pytest.mark.parametrize("m1,m0", [(1, 1), (1, 4), (2, 3), (3, 4), (4, 4), (2, 6)])
def test_random_ranking_ap_formula_is_exact(m1, m0):
    """E[AP] of a random ordering = pi + (1 - pi)(H_n - 1)/(n - 1), above pi."""
    n = m1 + m0
    pi = Fraction(m1, n)
    harmonic = sum(Fraction(1, k) for k in range(1, n + 1))
    formula = pi + (1 - pi) * (harmonic - 1) / (n - 1)
    assert _expected_random_ap(m1, m0) == formula
    assert formula > pi


def test_all_tied_scorer_ap_is_the_positive_share():
    for m1, m0 in [(1, 1), (3, 4), (20, 1980)]:
        y = np.r_[np.ones(m1, dtype=int), np.zeros(m0, dtype=int)]
        assert average_precision(y, np.zeros(y.size), exact=True) == Fraction(m1, m1 + m0)


def test_prg_published_example():
    """The authors' package example: AUPRG 0.7083 (= 17/24), the points of its table."""
    y, s = [1, 1, 0, 0, 1, 0], [0.8, 0.8, 0.6, 0.4, 0.4, 0.2]
    c = precision_recall_gain_curve(y, s)
    np.testing.assert_allclose(c.recall_gain, [0, 0.5, 0.5, 1, 1], atol=1e-15)
    np.testing.assert_allclose(c.precision_gain, [1, 1, 0.5, 1 / 3, 0], atol=1e-15)
    assert np.isnan(c.thresholds[0]) and c.thresholds[1:].tolist() == [0.8, 0.6, 0.4, 0.2]
    assert prg_auc(y, s) == pytest.approx(17 / 24, abs=1e-15)
    assert round(prg_auc(y, s), 4) == 0.7083


def _prg_auc_by_integration(y, s):
    """AUPRG = integral of precG d(recG) along the ROC path, parametrised by TP."""
    roc = roc_curve(y, s)
    m1 = float(np.sum(y))
    m0 = y.size - m1
    tp, fp = roc.tpr * m1, roc.fpr * m0
    target = m1 * m1 / (m1 + m0)
    area = 0.0
    for k in range(1, tp.size):
        a, b = tp[k - 1], tp[k]
        if b <= a or b <= target:
            continue
        lo = max(a, target)

        def integrand(t, k=k, a=a, b=b):
            f = fp[k - 1] + (t - a) * (fp[k] - fp[k - 1]) / (b - a)
            return (1 - (m1 / m0) * f / t) * (m1 / m0) * m1 / t**2

        area += integrate.quad(integrand, lo, b, epsabs=1e-13, epsrel=1e-12)[0]
    return area


@pytest.mark.parametrize("profile", ["ties", "continuous", "one_positive"])
def test_prg_auc_equals_the_integral_along_the_roc_path(profile):
    """Linear interpolation in PRG space is the ROC segment (a randomized rule): the
    trapezoid area equals the integral taken along the ROC path in the counts."""
    rng = np.random.default_rng(17)
    for _ in range(15):
        y, s, _ = random_case(rng, profile)
        assert prg_auc(y, s) == pytest.approx(_prg_auc_by_integration(y, s), abs=1e-9)


@given(rows)
def test_property_prg_transform_and_bounds(data):
    y, s, w = unpack(data)
    assume(y.any() and not y.all())
    c = precision_recall_gain_curve(y, s)
    pi = y.mean()
    assert c.recall_gain[0] == 0 and c.recall_gain[-1] == 1
    assert c.precision_gain[-1] == pytest.approx(0, abs=1e-12)
    assert np.all(np.diff(c.recall_gain) >= 0) and np.all(c.precision_gain <= 1)
    # the real points are the gains of pr_curve's points with recall >= pi
    pr = pr_curve(y, s)
    keep = pr.recall >= pi * (1 - 1e-12)
    real = ~np.isnan(c.thresholds)
    rec, prec = pr.recall[keep], pr.precision[keep]
    np.testing.assert_allclose(c.recall_gain[real], (rec - pi) / ((1 - pi) * rec),
                               atol=1e-12)
    np.testing.assert_allclose(c.precision_gain[real], (prec - pi) / ((1 - pi) * prec),
                               atol=1e-12)
    # integer weights are replicated rows
    assume(w.sum() > 0 and (w * y).sum() > 0 and (w * ~y).sum() > 0)
    rep = np.repeat(np.arange(y.size), w)
    assert prg_auc(y, s, sample_weight=w) == pytest.approx(prg_auc(y[rep], s[rep]),
                                                            abs=1e-12)


def test_prg_auc_perfect_tied_and_monotone_invariance():
    y = np.r_[np.ones(5, dtype=int), np.zeros(15, dtype=int)]
    assert prg_auc(y, y + 0.0) == pytest.approx(1.0)
    assert prg_auc(y, np.zeros(y.size)) == pytest.approx(0.0, abs=1e-15)
    s = np.random.default_rng(0).normal(size=y.size) + y
    assert prg_auc(y, s) == pytest.approx(prg_auc(y, np.exp(s)), abs=1e-15)


def test_expected_f1_gain_is_linear_in_auprg():
    """F1-gain = (precG + recG)/2 exactly, so with operating points spread uniformly over
    recall gain, E[FG1] = AUPRG/2 + 1/4 (checked by sampling the curve densely)."""
    rng = np.random.default_rng(5)
    y = np.r_[np.ones(30, dtype=int), np.zeros(170, dtype=int)]
    s = rng.normal(size=y.size) + 1.2 * y
    c = precision_recall_gain_curve(y, s)
    pi = y.mean()
    # F1-gain of every real point equals the mean of its two gains
    pr = pr_curve(y, s)
    keep = pr.recall >= pi
    f1 = 2 * pr.precision[keep] * pr.recall[keep] / (pr.precision[keep] + pr.recall[keep])
    real = ~np.isnan(c.thresholds)
    np.testing.assert_allclose((f1 - pi) / ((1 - pi) * f1),
                               (c.precision_gain[real] + c.recall_gain[real]) / 2,
                               atol=1e-12)
    grid = (np.arange(200_000) + 0.5) / 200_000
    prec_gain = cl_read(c, grid)
    assert np.mean((prec_gain + grid) / 2) == pytest.approx(prg_auc(y, s) / 2 + 0.25,
                                                            abs=1e-5)


def cl_read(c, x):
    """precG read along the PRG polyline at recall gains x (first of equal vertices)."""
    rg, pg = c.recall_gain, c.precision_gain
    return np.interp(x, rg, pg)


def test_prg_one_class_raises():
    with pytest.raises(ValueError, match="negative"):
        precision_recall_gain_curve([1, 1], [0.2, 0.4])
    with pytest.raises(ValueError, match="positive"):
        prg_auc([0, 0], [0.2, 0.4])


def roc_hull_vertices_in_prg(y, s):
    """ROC hull vertices (TP, FP) with recall >= pi, without the (1, 1) end when the hull
    reaches TPR = 1 earlier, and the PRG hull vertices mapped back to counts."""
    m1 = int(np.sum(y))
    m0 = y.size - m1
    c = precision_recall_gain_curve(y, s)
    real = ~np.isnan(c.thresholds)
    h = roc_convex_hull(c.recall_gain[real], c.precision_gain[real])
    tp = m1 / (1 + (1 - h.fpr) * m0 / m1)
    fp = (1 - h.tpr) * tp * m0 / m1
    prg = set(zip(np.rint(tp).astype(int).tolist(), np.rint(fp).astype(int).tolist()))
    roc = roc_curve(y, s)
    rh = roc_convex_hull(roc.fpr, roc.tpr)
    tp_r = np.rint(rh.tpr * m1).astype(int)
    fp_r = np.rint(rh.fpr * m0).astype(int)
    first_full = int(np.flatnonzero(tp_r == m1)[0])
    keep = (tp_r * (m1 + m0) >= m1 * m1) & (np.arange(tp_r.size) <= first_full)
    return set(zip(tp_r[keep].tolist(), fp_r[keep].tolist())), prg


@pytest.mark.parametrize("seed", range(8))
def test_roc_hull_vertices_above_recall_pi_are_prg_hull_vertices(seed):
    """Flach & Kull (2015): the PRG hull is the ROC hull seen in gain space; every
    vertex of the ROC hull with recall at least pi is a vertex of the PRG hull."""
    rng = np.random.default_rng(seed)
    m1, m0 = int(rng.integers(5, 40)), int(rng.integers(5, 120))
    y = np.r_[np.ones(m1, dtype=int), np.zeros(m0, dtype=int)]
    s = np.round(rng.normal(size=y.size) + y, 1)  # some ties
    roc_vertices, prg_vertices = roc_hull_vertices_in_prg(y, s)
    assert roc_vertices and roc_vertices <= prg_vertices
