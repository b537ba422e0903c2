"""Tests of course_lib.pr: PR curves, average precision, trapezoid area, achievable PR."""

from fractions import Fraction

import numpy as np
import pytest
from cases import PROFILES, random_case
from hypothesis import assume, given
from hypothesis import strategies as st

from course_lib import UndefinedMetricWarning
from course_lib.pr import achievable_pr, average_precision, pr_auc_trapezoid, pr_curve
from course_lib.roc import roc_curve, trapezoid_area

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
