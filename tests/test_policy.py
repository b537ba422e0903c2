"""One policy for scores, weights and undefined cases (issue 20).

Each row of the issue's table is a test here (the SQL rows, on DuckDB and on Spark,
are in ``tests/test_sql.py``), with the right answer.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sklearn.isotonic import IsotonicRegression

import course_lib as cl
from course_lib.inference import INTERVAL_COLUMNS

BIG = 2**62

# ------------------------------------------------------------------------ item 1: scores


def _multiclass_case():
    rng = np.random.default_rng(20)
    y = np.tile([0, 1, 2], 8)
    small = rng.integers(0, 12, size=(y.size, 3)).astype(np.int64)
    return y, small, small + BIG


def test_multiclass_auc_ranks_integers_beyond_2_53_exactly():
    """ovr_auc / ovo_auc with probabilities=False: the order of int64 scores 2**62 + k
    is their order (float64 would make every score of a column one tie: 0.5)."""
    y, small, big = _multiclass_case()
    per_class = cl.ovr_auc(y, big, probabilities=False, average=None)
    np.testing.assert_array_equal(per_class,
                                  cl.ovr_auc(y, small, probabilities=False, average=None))
    assert not np.any(per_class == 0.5)
    for j in range(3):  # each class against the rest, as the binary AUC of the column
        assert per_class[j] == cl.roc_auc(y == j, small[:, j])
    assert cl.ovo_auc(y, big, probabilities=False) == cl.ovo_auc(y, small, probabilities=False)
    assert cl.ovo_auc(y, big, probabilities=False) != 0.5
    exact = cl.ovr_auc(y, big, probabilities=False, exact=True)
    assert exact == cl.ovr_auc(y, small, probabilities=False, exact=True)
    curves = cl.ovr_roc_curves(y, big, probabilities=False)
    assert curves[0].thresholds[1] == int(big[:, 0].max())


def test_isotonic_calibration_keeps_the_exact_order_of_big_integers():
    """As scikit-learn's IsotonicRegression on the same order (scores shifted by 2**62,
    which float64 holds exactly): not one pooled value."""
    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 40)
    k = 2 * rng.integers(0, 25, 40).astype(np.int64)  # even: midpoints are integers
    m = cl.isotonic_calibration(y, k + BIG)
    sk = IsotonicRegression(out_of_bounds="clip").fit(k.astype(float), y)
    np.testing.assert_allclose(m.values, sk.predict(np.unique(k).astype(float)),
                               rtol=0, atol=1e-15)
    assert np.unique(m.values).size > 1
    assert m.thresholds.dtype == np.int64 and m.thresholds[0] == BIG + k.min()
    probe = np.arange(-2, 52, dtype=np.int64)
    np.testing.assert_allclose(m(probe + BIG), sk.predict(probe.astype(float)),
                               rtol=0, atol=1e-15)
    with pytest.raises(ValueError, match="call it on integer scores too"):
        m([0.5])


def test_functions_that_compute_with_the_scores_say_so():
    y = [0, 1, 0, 1]
    big = np.array([BIG, BIG + 3, BIG + 1, BIG + 2], dtype=np.int64)
    for f in (cl.platt_scaling, cl.soft_auc):
        with pytest.raises(ValueError, match="float64 cannot represent exactly"):
            f(y, big)


def test_thresholds_compare_exactly_with_big_integer_scores():
    y = [0, 1, 0, 1]
    big = np.array([BIG, BIG + 3, BIG + 1, BIG + 2], dtype=np.int64)
    small = big - BIG
    assert cl.roc_point(y, big, BIG + 2) == cl.roc_point(y, small, 2)
    assert cl.roc_point(y, big, float(BIG)) == cl.roc_point(y, small, 0)
    assert cl.roc_point(y, big, float(BIG + 2**11)) == (0, 0)
    assert cl.randomized_roc_point(y, big, BIG + 3, BIG + 1, q=0.5) == (
        cl.randomized_roc_point(y, small, 3, 1, q=0.5))
    np.testing.assert_array_equal(cl.randomized_rule(big, BIG + 3, BIG + 1, q=0.5, rng=1),
                                  cl.randomized_rule(small, 3, 1, q=0.5, rng=1))
    np.testing.assert_array_equal(cl.rank_average([big, big[::-1]]),
                                  cl.rank_average([small, small[::-1]]))
    assert cl.ks_curve(y, big).ks_threshold == BIG + 2


def test_calibration_curve_quantile_bins_do_not_depend_on_the_weights_scale():
    """w / w.sum() (weights summing to 1) gives the bins of w, not a single bin."""
    rng = np.random.default_rng(7)
    p = np.round(rng.random(60), 2)
    y = (rng.random(60) < p).astype(int)
    w = rng.integers(1, 5, 60).astype(float)
    ref = cl.calibration_curve(y, p, strategy="quantile", n_bins=5, sample_weight=w)
    assert ref.prob_true.size == 5
    for scaled in (w / w.sum(), w * 1e-170, w * 1e160):
        got = cl.calibration_curve(y, p, strategy="quantile", n_bins=5, sample_weight=scaled)
        np.testing.assert_allclose(got.prob_true, ref.prob_true, rtol=1e-12)
        np.testing.assert_allclose(got.prob_pred, ref.prob_pred, rtol=1e-12)


def test_prg_with_all_zero_weights_is_the_clear_error_of_pr_curve():
    y, s, w = [0, 1, 1, 0], [0.1, 0.4, 0.35, 0.8], np.zeros(4)
    with pytest.raises(ValueError) as pr_error:
        cl.pr_curve(y, s, sample_weight=w)
    for f in (cl.prg_auc, cl.precision_recall_gain_curve):
        with pytest.raises(ValueError) as error:
            f(y, s, sample_weight=w)
        assert "is undefined: there are no positive samples" in str(error.value)
    assert "is undefined: there are no positive samples" in str(pr_error.value)


def test_interval_coverage_refuses_what_is_not_a_table():
    with pytest.raises(TypeError, match="intervals must be a pandas DataFrame"):
        cl.interval_coverage(None, 0.7)
    table = pd.DataFrame([[0.7, 0.6, 0.8, 0.65, 0.75]], columns=list(INTERVAL_COLUMNS))
    with pytest.raises(TypeError, match="truth must be a number"):
        cl.interval_coverage(table, None)
    assert cl.interval_coverage(table, 0.7).tolist() == pytest.approx([1.0, 0.2, 1.0, 0.1])
