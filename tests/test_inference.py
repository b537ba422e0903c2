"""Tests of course_lib.inference: DeLong's interval, the bootstrap and the paired test."""

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from scipy.stats import norm
from sklearn.metrics import roc_auc_score

from course_lib import UndefinedMetricWarning
from course_lib.inference import (
    _bootstrap_aucs,
    auc_ci_bootstrap,
    auc_ci_delong,
    delong_test,
)
from course_lib.models import LINEAR_DENSITIES

ASAH = pd.read_csv(Path(__file__).resolve().parents[1] / "data" / "asah.csv")
POOR = (ASAH["outcome"] == "Poor").to_numpy().astype(int)


# ----------------------------------------------------------------- brute force
def brute_placements(y, scores):
    """DeLong's placement values from the full m1 x m0 matrix of pair kernels."""
    y = np.asarray(y, bool)
    s = np.asarray(scores, float)
    pairs = (s[y][:, None] > s[~y][None, :]) + 0.5 * (s[y][:, None] == s[~y][None, :])
    return pairs.mean(axis=1), pairs.mean(axis=0)


def brute_delong(y, score, level=0.95):
    v10, v01 = brute_placements(y, score)
    auc = v10.mean()
    var = v10.var(ddof=1) / v10.size + v01.var(ddof=1) / v01.size
    half = norm.ppf((1 + level) / 2) * np.sqrt(var)
    return auc, max(0.0, auc - half), min(1.0, auc + half), var


def brute_delong_test(y, a, b):
    """The paired test as DeLong et al. write it: 2 x 2 covariance matrices S10, S01."""
    a10, a01 = brute_placements(y, a)
    b10, b01 = brute_placements(y, b)
    s10 = np.cov(np.vstack([a10, b10]))
    s01 = np.cov(np.vstack([a01, b01]))
    s = s10 / a10.size + s01 / a01.size
    contrast = np.array([1.0, -1.0])
    diff = a10.mean() - b10.mean()
    se = np.sqrt(contrast @ s @ contrast)
    return diff / se, diff, se


def tied_data(seed, n=40, levels=5):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    y[:2], y[2:4] = 0, 1
    a = rng.integers(0, levels, n) + y
    b = rng.integers(0, levels, n) + rng.integers(0, 2, n) * y
    return y, a.astype(float), b.astype(float)


@pytest.mark.parametrize("seed", range(20))
def test_delong_matches_brute_force_with_ties(seed):
    """O(n log n) placements give the same AUC, variance and CI as the pair matrix."""
    y, a, _ = tied_data(seed)
    got = auc_ci_delong(y, a, level=0.9)
    assert got == pytest.approx(brute_delong(y, a, level=0.9), rel=1e-12, abs=1e-15)


@pytest.mark.parametrize("seed", range(20))
def test_delong_test_matches_brute_force_covariance(seed):
    y, a, b = tied_data(seed)
    z, diff, se = brute_delong_test(y, a, b)
    got = delong_test(y, a, b)
    assert got.z == pytest.approx(z, rel=1e-10)
    assert got.difference == pytest.approx(diff, abs=1e-15)
    assert got.p_value == pytest.approx(2 * norm.sf(abs(z)), rel=1e-10)
    assert (got.high - got.low) / 2 == pytest.approx(norm.ppf(0.975) * se, rel=1e-10)


def test_delong_auc_matches_sklearn_on_large_tied_data():
    rng = np.random.default_rng(7)
    y = rng.integers(0, 2, 20_000)
    s = np.round(rng.normal(size=y.size) + 0.7 * y, 1)
    assert auc_ci_delong(y, s).auc == pytest.approx(roc_auc_score(y, s), abs=1e-12)


# ------------------------------------------------------------- published values
def test_asah_s100b_matches_pROC_printout():
    """pROC (Robin et al. 2011; its README and print output for ``roc(aSAH$outcome,
    aSAH$s100b)``): AUC 0.7314, 95% CI 0.6301-0.8326 (DeLong), printed to 4 digits."""
    r = auc_ci_delong(POOR, ASAH["s100b"])
    assert (round(r.auc, 4), round(r.low, 4), round(r.high, 4)) == (0.7314, 0.6301, 0.8326)


def test_asah_ndka_matches_pROC_test_suite():
    """pROC's tests/testthat/test-ci.auc.R: ``ci.auc(r.ndka)`` = (0.501244999271703,
    0.611957994579946, 0.722670989888189)."""
    r = auc_ci_delong(POOR, ASAH["ndka"])
    assert (r.low, r.auc, r.high) == pytest.approx(
        (0.501244999271703, 0.611957994579946, 0.722670989888189), abs=1e-12
    )


@pytest.mark.parametrize(
    "a, b, z, p, low, high",
    [
        ("wfns", "s100b", 2.20898359144091, 0.0271757822291882,
         0.0104061769564846, 0.174214419249478),
        ("wfns", "ndka", 2.79777591868904, 0.00514557970691098,
         0.0634011709339876, 0.3600405634833566),
        ("ndka", "s100b", -1.39077002573558, 0.164295175223054,
         -0.2876917446341914, 0.0488706064228094),
    ],
)
def test_asah_paired_delong_matches_pROC_test_suite(a, b, z, p, low, high):
    """pROC's tests/testthat/test-roc.test.R: ``roc.test(r.a, r.b)`` (paired DeLong),
    Z, p-value and the 95% interval of AUC(a) - AUC(b)."""
    got = delong_test(POOR, ASAH[a], ASAH[b])
    assert (got.z, got.p_value, got.low, got.high) == pytest.approx((z, p, low, high), rel=1e-9)
    assert got.difference == pytest.approx((low + high) / 2, rel=1e-12)


def test_bootstrap_close_to_delong_on_asah():
    delong = auc_ci_delong(POOR, ASAH["s100b"])
    boot = auc_ci_bootstrap(POOR, ASAH["s100b"], seed=2011)
    assert boot.auc == delong.auc
    assert boot.low == pytest.approx(delong.low, abs=0.02)
    assert boot.high == pytest.approx(delong.high, abs=0.02)


# ------------------------------------------------------------------ bootstrap
@pytest.mark.parametrize("seed", range(5))
def test_bootstrap_resample_aucs_match_sklearn(seed):
    """Each row of the vectorised computation is the AUC of that resample."""
    y, a, _ = tied_data(seed, n=30)
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, y.size, (50, y.size))
    _, groups = np.unique(a, return_inverse=True)
    got = _bootstrap_aucs(y.astype(bool), groups, groups.max() + 1, idx)
    for row, value in zip(idx, got):
        if len(set(y[row])) == 2:
            assert value == pytest.approx(roc_auc_score(y[row], a[row]), abs=1e-12)
        else:
            assert np.isnan(value)


def test_bootstrap_is_reproducible_and_nested_in_level():
    y, a, _ = tied_data(3, n=60)
    r90 = auc_ci_bootstrap(y, a, n_boot=300, level=0.9, seed=5)
    r99 = auc_ci_bootstrap(y, a, n_boot=300, level=0.99, seed=5)
    assert r90 == auc_ci_bootstrap(y, a, n_boot=300, level=0.9, seed=5)
    assert r99.low < r90.low < r90.auc < r90.high < r99.high


def test_bootstrap_unstratified_drops_one_class_resamples():
    y = [0, 0, 0, 0, 0, 0, 1, 1]
    s = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8]
    r = auc_ci_bootstrap(y, s, n_boot=400, seed=0, stratified=False)
    assert r == (1.0, 1.0, 1.0)


def test_bootstrap_is_blocked_consistently():
    """Many resamples are drawn in blocks; the answer stays a proper percentile interval."""
    y, a, _ = tied_data(1, n=3000, levels=50)
    r = auc_ci_bootstrap(y, a, n_boot=700, seed=1)
    d = auc_ci_delong(y, a)
    assert r.low == pytest.approx(d.low, abs=0.01)
    assert r.high == pytest.approx(d.high, abs=0.01)


# ------------------------------------------------------------------- coverage
def test_coverage_of_delong_and_bootstrap_on_linear_densities():
    """Chapter 11: n = 300, pi = 1/2, true AUC 5/6, 1000 samples (seeds 0..999).
    The 95% DeLong interval covers 5/6 in 92-98% of them (measured: 93.6%); the
    percentile bootstrap with 200 resamples covers it in 92.6% (93.7% with 1000
    resamples, too slow for a test): both slightly below the nominal 95%."""
    true_auc = 5 / 6
    delong_hits = boot_hits = 0
    for k in range(1000):
        y, s = LINEAR_DENSITIES.sample(300, 0.5, seed=k)
        d = auc_ci_delong(y, s)
        b = auc_ci_bootstrap(y, s, n_boot=200, seed=k)
        delong_hits += d.low <= true_auc <= d.high
        boot_hits += b.low <= true_auc <= b.high
    assert 0.92 <= delong_hits / 1000 <= 0.98
    assert 0.90 <= boot_hits / 1000 <= 0.98


# ------------------------------------------------------------ edge cases, input
def test_one_class_gives_nan_with_warning():
    with pytest.warns(UndefinedMetricWarning, match="no positive samples"):
        r = auc_ci_delong([0, 0, 0], [0.2, 0.5, 0.6])
    assert all(np.isnan(r))
    with pytest.warns(UndefinedMetricWarning, match="no negative samples"):
        assert all(np.isnan(auc_ci_bootstrap([1, 1], [0.2, 0.5])))
    with pytest.warns(UndefinedMetricWarning):
        assert all(np.isnan(delong_test([1, 1], [0.2, 0.5], [0.3, 0.1])))


def test_single_member_of_a_class_has_no_variance():
    with pytest.warns(UndefinedMetricWarning, match="at least two samples of each class"):
        r = auc_ci_delong([0, 1, 1], [0.2, 0.5, 0.1])
    assert r.auc == 0.5 and np.isnan(r.variance) and np.isnan(r.low)
    with pytest.warns(UndefinedMetricWarning, match="at least two"):
        t = delong_test([0, 1, 1], [0.2, 0.5, 0.1], [0.2, 0.5, 0.6])
    assert t.difference == -0.5 and np.isnan(t.z)


def test_identical_and_perfectly_separated_scores():
    y = [0, 0, 1, 1]
    assert delong_test(y, [1, 2, 3, 4], [0, 1, 5, 9]) == (0.0, 1.0, 0.0, 0.0, 0.0)
    r = auc_ci_delong(y, [1, 2, 3, 4])
    assert r == (1.0, 1.0, 1.0, 0.0)
    # Every placement differs by exactly 1/2: zero variance, a sure difference.
    assert delong_test(y, [1, 2, 3, 4], [1, 1, 1, 1]) == (np.inf, 0.0, 0.5, 0.5, 0.5)


def test_delong_interval_is_clipped_to_unit_interval():
    r = auc_ci_delong([0, 0, 1, 1, 0, 1], [0.1, 0.2, 0.9, 0.8, 0.3, 0.25])
    assert r.high == 1.0 and r.auc + np.sqrt(r.variance) * norm.ppf(0.975) > 1


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: auc_ci_delong([0, 1], [0.1, 0.2], level=1.0), "level must be"),
        (lambda: auc_ci_delong([0, 2], [0.1, 0.2]), "only 0 and 1"),
        (lambda: auc_ci_delong([0, 1, 1], [0.1, 0.2]), "different lengths"),
        (lambda: auc_ci_delong([0, 1], [0.1, np.nan]), "NaN"),
        (lambda: auc_ci_bootstrap([0, 1], [0.1, 0.2], n_boot=0), "n_boot must be"),
        (lambda: auc_ci_bootstrap([0, 1], [0.1, 0.2], level=0), "level must be"),
        (lambda: delong_test([0, 1], [0.1, 0.2], [0.1]), "different lengths"),
        (lambda: delong_test([0, 1], [0.1, 0.2], ["a", "b"]), "score_b must be numeric"),
    ],
)
def test_bad_input_raises(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_inputs_are_not_modified():
    y, a, b = tied_data(0)
    copies = y.copy(), a.copy(), b.copy()
    auc_ci_delong(y, a)
    auc_ci_bootstrap(y, a, n_boot=20, seed=0)
    delong_test(y, a, b)
    for original, copy in zip((y, a, b), copies):
        np.testing.assert_array_equal(original, copy)


def test_results_are_python_floats():
    y, a, b = tied_data(0)
    results = auc_ci_delong(y, a), auc_ci_bootstrap(y, a, n_boot=20, seed=0), delong_test(y, a, b)
    for result in results:
        assert all(type(v) is float for v in result)


# ------------------------------------------------------------------ properties
labelled_scores = st.lists(st.tuples(st.booleans(), st.integers(-6, 6)), min_size=4, max_size=40)


@given(labelled_scores)
def test_property_delong_equals_brute_force(data):
    y = np.array([d[0] for d in data])
    s = np.array([d[1] for d in data], float)
    assume(2 <= y.sum() <= y.size - 2)
    assert auc_ci_delong(y, s) == pytest.approx(brute_delong(y, s), rel=1e-12, abs=1e-15)


@given(labelled_scores)
def test_property_invariant_under_increasing_map_and_symmetric_in_classes(data):
    """A strictly increasing map of the scores changes nothing; swapping the classes and
    negating the scores leaves AUC and variance unchanged."""
    y = np.array([d[0] for d in data])
    s = np.array([d[1] for d in data], float)
    assume(2 <= y.sum() <= y.size - 2)
    base = auc_ci_delong(y, s)
    assert auc_ci_delong(y, s**3 + 7) == base
    flipped = auc_ci_delong(~y, -s)
    assert flipped.auc == pytest.approx(base.auc, abs=1e-12)
    assert flipped.variance == pytest.approx(base.variance, abs=1e-12)


@given(labelled_scores, st.lists(st.integers(-6, 6), min_size=40, max_size=40))
def test_property_delong_test_is_antisymmetric(data, other):
    y = np.array([d[0] for d in data])
    a = np.array([d[1] for d in data], float)
    b = np.array(other[: y.size], float)
    assume(2 <= y.sum() <= y.size - 2)
    ab, ba = delong_test(y, a, b), delong_test(y, b, a)
    assert ab.z == pytest.approx(-ba.z, abs=1e-9)
    assert ab.p_value == pytest.approx(ba.p_value, abs=1e-12)
    assert (ab.low, ab.high) == pytest.approx((-ba.high, -ba.low), abs=1e-12)


@pytest.mark.parametrize("seed", range(20))
def test_delong_auc_is_roc_auc_and_variance_the_exact_rational(seed):
    """The interval is built from the score groups: its AUC is the correctly rounded
    U / (m0 m1), bit for bit roc_auc's, and its variance is within a few units in the
    last place of the exact rational value of DeLong's formula."""
    from fractions import Fraction

    from course_lib import roc_auc

    rng = np.random.default_rng(seed)
    n = int(rng.integers(4, 80))
    y = rng.random(n) < 0.5
    y[:2], y[2:4] = True, False
    s = np.round(rng.normal(size=n), 1)
    pairs = [[Fraction(int(a > b) * 2 + int(a == b), 2) for b in s[~y]] for a in s[y]]
    v10 = [sum(row, Fraction(0)) / len(row) for row in pairs]
    v01 = [sum(col, Fraction(0)) / len(col) for col in zip(*pairs)]

    def var(v):
        mean = sum(v, Fraction(0)) / len(v)
        return sum(((x - mean) ** 2 for x in v), Fraction(0)) / (len(v) - 1)

    got = auc_ci_delong(y, s)
    assert got.auc == float(sum(v10, Fraction(0)) / len(v10)) == roc_auc(y, s)
    exact = float(var(v10) / len(v10) + var(v01) / len(v01))
    assert got.variance == pytest.approx(exact, rel=4e-16, abs=0)
