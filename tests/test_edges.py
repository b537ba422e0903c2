"""The edges of issue 11, where the library used to be silently wrong (or crash).

Each test failed before the fix (see the issue's list, numbered here as there).
"""

from __future__ import annotations

import warnings
from fractions import Fraction

import numpy as np
import pytest
from sklearn import metrics

import course_lib as cl
from course_lib import UndefinedMetricWarning

# ------------------------------------------------- 1. scores float64 cannot hold


def _huge_int_case(dtype):
    """Scores 2**62 + k: distinct as integers, all equal once rounded to float64."""
    k = np.array([0, 1, 2, 3, 4, 5, 6, 7, 8])
    y = np.array([0, 0, 1, 0, 1, 1, 0, 1, 1])
    return y, np.array(2**62, dtype=dtype) + k.astype(dtype), y, k


@pytest.mark.parametrize("dtype", [np.int64, np.uint64])
def test_1_huge_integer_scores_are_ranked_exactly(dtype):
    y, s, _, k = _huge_int_case(dtype)
    assert np.unique(s.astype(np.float64)).size == 1  # float64 would see one tie
    truth = metrics.roc_auc_score(y, k)
    assert truth == pytest.approx(0.85, abs=0.1) and truth != 0.5
    assert cl.roc_auc(y, s) == truth
    assert cl.roc_auc(y, s, exact=True) == cl.roc_auc(y, k, exact=True)
    assert cl.average_precision(y, s) == cl.average_precision(y, k)
    assert cl.ks_statistic(y, s) == cl.ks_statistic(y, k)
    assert cl.gini_normalized(y, s) == pytest.approx(2 * truth - 1, abs=1e-15)
    assert cl.auc_ci_delong(y, s) == cl.auc_ci_delong(y, k)
    assert cl.delong_test(y, s, k).difference == 0.0
    for curve in (cl.roc_curve, cl.pr_curve, cl.gain_curve, cl.ks_curve):
        a, b = curve(y, s), curve(y, k)
        np.testing.assert_array_equal(a.xy[0], b.xy[0])
        np.testing.assert_array_equal(a.xy[1], b.xy[1])


@pytest.mark.parametrize("dtype", [np.int64, np.uint64])
def test_1_huge_integer_scores_in_the_grid_walk(dtype):
    y, s, _, k = _huge_int_case(dtype)
    for a, b in zip(cl.roc_steps(y, s), cl.roc_steps(y, k)):
        assert (a.ids, a.k1, a.k0, a.end) == (b.ids, b.k1, b.k0, b.end)
    np.testing.assert_array_equal(cl.pair_matrix(y, s).matrix, cl.pair_matrix(y, k).matrix)


def test_1_huge_integer_thresholds_are_not_rounded():
    y, s, _, _ = _huge_int_case(np.int64)
    c = cl.roc_curve(y, s)
    assert c.thresholds[1] == 2**62 + 8 and c.thresholds[-1] == 2**62
    assert cl.pr_curve(y, s).thresholds.tolist() == sorted(s.tolist(), reverse=True)


def test_1_long_double_scores_are_ranked_exactly():
    if np.finfo(np.longdouble).nmant <= np.finfo(np.float64).nmant:
        pytest.skip("long double is float64 on this platform")
    y = np.array([0, 1, 0, 1])
    s = np.longdouble(1) + np.arange(4, dtype=np.longdouble) * np.longdouble(2.0**-60)
    assert np.unique(s.astype(np.float64)).size == 1
    assert cl.roc_auc(y, s) == 0.75


def test_1_arithmetic_on_huge_integers_is_refused_clearly():
    y, s, _, _ = _huge_int_case(np.int64)
    with pytest.raises(ValueError, match="float64 cannot represent exactly"):
        cl.soft_auc(y, s)


# --------------------------------------------------------- 2. all-zero weights


def test_2_all_zero_weights_in_pr_functions():
    y, s, w = [0, 1, 1], [0.2, 0.5, 0.7], [0.0, 0.0, 0.0]
    with pytest.raises(ValueError, match="PR curve is undefined: every sample weight is zero"):
        cl.pr_curve(y, s, sample_weight=w)
    with pytest.warns(UndefinedMetricWarning, match="every sample weight is zero"):
        assert np.isnan(cl.average_precision(y, s, sample_weight=w))
    with pytest.warns(UndefinedMetricWarning, match="every sample weight is zero"):
        assert np.isnan(cl.average_precision(y, s, sample_weight=w, exact=True))
    with pytest.warns(UndefinedMetricWarning, match="every sample weight is zero"):
        assert np.isnan(cl.pr_auc_trapezoid(y, s, sample_weight=w))


# ------------------------------------------------------- 3. scale of the weights


@pytest.mark.parametrize("factor", [1e-170, 1e-100, 1e100, 1e160])
def test_3_weighted_results_do_not_depend_on_the_scale_of_the_weights(factor):
    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 60)
    s = np.round(rng.normal(size=60) + y, 1)
    w = rng.uniform(0.5, 2.0, 60)
    for f in (cl.roc_auc, cl.soft_auc, cl.ks_statistic, cl.gini_normalized,
              cl.gini_unnormalized, cl.average_precision, cl.pr_auc_trapezoid, cl.gain_auc):
        expected = f(y, s, sample_weight=w)
        assert f(y, s, sample_weight=w * factor) == pytest.approx(expected, rel=1e-12), f
    expected = metrics.roc_auc_score(y, s, sample_weight=w)
    assert cl.roc_auc(y, s, sample_weight=w * factor) == pytest.approx(expected, abs=1e-12)
    for curve in (cl.roc_curve, cl.pr_curve, cl.gain_curve, cl.ks_curve, cl.cap_curve):
        a, b = curve(y, s, sample_weight=w), curve(y, s, sample_weight=w * factor)
        np.testing.assert_allclose(b.xy[1], a.xy[1], rtol=1e-12)
    np.testing.assert_allclose(
        cl.soft_auc_gradient(y, s, sample_weight=w * factor),
        cl.soft_auc_gradient(y, s, sample_weight=w), rtol=1e-12)


# ------------------------------------------------- 4. labels {1, 2} in the CAP/Gini


def test_4_labels_one_two_are_not_read_as_a_target_silently():
    y12 = [1, 2, 2, 1, 2, 1]
    s = [0.1, 0.8, 0.6, 0.4, 0.3, 0.2]
    for f in (cl.cap_curve, cl.gini_unnormalized, cl.gini_normalized):
        with pytest.warns(UserWarning, match="regression=True"):
            f(y12, s)
        with pytest.raises(ValueError, match="only 0 and 1"):
            f(y12, s, regression=False)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            f(y12, s, regression=True)  # the explicit reading: no warning
    y01 = np.array(y12) - 1
    assert cl.gini_normalized(y01, s, regression=False) == pytest.approx(
        2 * cl.roc_auc(y01, s) - 1, abs=1e-15)
    with pytest.raises(ValueError, match="regression must be True or False"):
        cl.cap_curve(y01, s, regression="yes")


def test_4_a_regression_target_keeps_its_reading_and_value():
    payout = [5, 2, 10, 3, 0, 5, 0, 0]
    score = [8, 7, 6, 5, 4, 3, 2, 1]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert cl.gini_normalized(payout, score, exact=True) == Fraction(21, 37)
    assert cl.gini_normalized(payout, score, exact=True, regression=True) == Fraction(21, 37)


# ------------------------------------------------------ 5. exact average precision


def test_5_exact_average_precision_is_capped_with_a_clear_error():
    rng = np.random.default_rng(5)
    n = cl.pr.EXACT_AP_LIMIT + 1
    y, s = rng.integers(0, 2, n), rng.permutation(n)
    with pytest.raises(ValueError, match="exact=True is limited to 20,000 distinct scores"):
        cl.average_precision(y, s, exact=True)


def test_5_exact_average_precision_below_the_cap_is_exact_and_printable():
    rng = np.random.default_rng(6)
    n = 3000
    y, s = rng.integers(0, 2, n), rng.permutation(n)
    ap = cl.average_precision(y, s, exact=True)
    assert float(ap) == pytest.approx(metrics.average_precision_score(y, s), abs=1e-12)
    c = cl.pr_curve(y, s)
    tp = np.rint(c.recall * y.sum()).astype(int)
    fp = np.rint(tp / c.precision).astype(int) - tp
    brute = sum(Fraction(int(d), int(y.sum())) * Fraction(int(t), int(t + f))
                for d, t, f in zip(np.diff(tp, prepend=0), tp, fp) if d)
    assert ap == brute
    assert len(str(ap)) > 100  # str() works


# --------------------------------------------------------------- 6. label policy


@pytest.mark.parametrize(
    "f", [cl.precision, cl.recall, cl.f_beta, cl.accuracy, cl.mcc, cl.cohen_kappa,
          cl.specificity, cl.balanced_accuracy])
def test_6_object_dtype_zero_one_labels_are_accepted_everywhere(f):
    y = np.array([0, 1, 1, 0, 1], dtype=object)
    p = np.array([0, 1, 0, 0, 1], dtype=object)
    assert f(y, p) == pytest.approx(f(y.astype(int), p.astype(int)), abs=1e-15)


def test_6_scores_functions_accept_object_zero_one_labels():
    y = np.array([0, 1, 1, 0], dtype=object)
    s = [0.1, 0.9, 0.4, 0.5]
    assert cl.roc_auc(y, s) == cl.roc_auc([0, 1, 1, 0], s)


def test_6_string_labels_are_refused_with_their_type():
    with pytest.raises(ValueError, match="found values of type str: '0', '1'"):
        cl.precision(np.array(["0", "1"], dtype=object), [0, 1])


# ----------------------------------------------------------------- 7. the others


def test_7_count_inversions_refuses_nan_in_object_arrays():
    with pytest.raises(ValueError, match="NaN"):
        cl.count_inversions(np.array([3, np.nan, 1], dtype=object))
    with pytest.raises(ValueError, match="NaN"):
        cl.bubble_sort_swaps(np.array([3, float("nan"), 1], dtype=object))
    assert cl.count_inversions(np.array([3, 2, 1], dtype=object)) == 3


def test_7_gini_brown_near_the_float_limit():
    big = np.array([1e308, 1.5e308, 1.7e308])
    assert cl.gini_brown(big) == pytest.approx(cl.gini_brown(big / 1e300), rel=1e-12)
    np.testing.assert_allclose(cl.lorenz_curve(big).share, cl.lorenz_curve(big / 1e300).share)


@pytest.mark.parametrize(
    "call",
    [
        lambda e: cl.roc_auc([0, 1], [0.1, 0.9], exact=e),
        lambda e: cl.average_precision([0, 1], [0.1, 0.9], exact=e),
        lambda e: cl.gain_auc([0, 1], [0.1, 0.9], exact=e),
        lambda e: cl.gini_brown([1, 2], exact=e),
        lambda e: cl.gini_normalized([0, 1], [0.1, 0.9], exact=e),
        lambda e: cl.gini_unnormalized([0, 1], [0.1, 0.9], exact=e),
    ],
)
@pytest.mark.parametrize("value", ["no", 1, 0, None])
def test_7_exact_must_be_a_real_bool(call, value):
    with pytest.raises(ValueError, match="exact must be True or False"):
        call(value)


@pytest.mark.parametrize("seed", ["abc", 1.5, -1, [1, 2]])
def test_7_bad_seed_is_a_value_error(seed):
    with pytest.raises(ValueError, match="seed"):
        cl.auc_ci_bootstrap([0, 1, 0, 1], [0.1, 0.9, 0.3, 0.5], n_boot=10, seed=seed)
