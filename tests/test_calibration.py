"""Tests of course_lib.calibration: scikit-learn as the oracle, properties, validation."""

import warnings
from fractions import Fraction

import numpy as np
import pytest
from cases import PROFILES, random_case
from hypothesis import assume, given
from hypothesis import strategies as st
from sklearn.calibration import _sigmoid_calibration
from sklearn.calibration import calibration_curve as sk_calibration_curve
from sklearn.isotonic import IsotonicRegression
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import brier_score_loss
from sklearn.metrics import log_loss as sk_log_loss

from course_lib import (
    brier_decomposition,
    brier_score,
    calibration_curve,
    expected_calibration_error,
    isotonic_calibration,
    log_loss,
    platt_scaling,
    roc_auc,
    roc_convex_hull,
    roc_curve,
)
from course_lib.calibration import _repeated_quantiles

N_CASES = 240
STRATEGIES = ["uniform", "quantile"]


def prob_case(rng, profile):
    """A random problem with probabilities in [0, 1]: many ties, values on bin edges."""
    y, s, w = random_case(rng, profile)
    kind = rng.integers(3)
    if kind == 0:  # a grid of twentieths: many values on the edges of 10 or 5 bins
        span = s.max() - s.min()
        p = np.round((s - s.min()) / (span + (span == 0)) * 20) / 20
    elif kind == 1:  # a smooth map of the scores
        p = 1 / (1 + np.exp(-(s - s.mean())))
    else:  # tenths from linspace, the uniform edges themselves
        p = np.linspace(0, 1, 11)[rng.integers(0, 11, size=y.size)]
    return y, p, w


def cases(profiles=PROFILES):
    rng = np.random.default_rng(20261123)
    for k in range(N_CASES):
        yield prob_case(rng, profiles[k % len(profiles)])


def repeat_rows(y, p, w):
    w = np.asarray(w, dtype=np.int64)
    return np.repeat(y, w), np.repeat(p, w)


# ------------------------------------------------------- reliability curve vs sklearn
@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("n_bins", [1, 3, 5, 10])
def test_calibration_curve_equals_sklearn_unweighted(strategy, n_bins):
    """Same bins, same points: sklearn.calibration.calibration_curve. The shares of
    positives bit for bit (integer counts); the mean probabilities to 1e-12 relative
    (each bin's sum of probabilities is added in decreasing order of them, sklearn's in
    the order of the rows)."""
    for y, p, _ in cases():
        ours = calibration_curve(y, p, n_bins=n_bins, strategy=strategy)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            true, pred = sk_calibration_curve(y, p, n_bins=n_bins, strategy=strategy)
        np.testing.assert_array_equal(ours.prob_true, true)
        np.testing.assert_allclose(ours.prob_pred, pred, rtol=1e-12, atol=0)
        assert ours.counts.sum() == y.size and ours.counts.dtype.kind == "i"


@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("n_bins", [2, 5, 10])
def test_calibration_curve_with_integer_weights_equals_repeated_rows(strategy, n_bins):
    """Integer weights = each row repeated: sklearn on the repeated data (within 1e-12).

    The quantile edges count the weights in units of the smallest positive one (so that
    they do not depend on the weights' scale): integer weights with a 1 among them are
    the repeated rows; others are first divided by their smallest positive weight."""
    for y, p, w in cases(["int_weights"]):
        if strategy == "quantile" and w[w > 0].min() != 1:
            w = w.copy()
            w[w > 0] = np.maximum(1, w[w > 0] - (w[w > 0].min() - 1))
            if not (w[y == 1].sum() > 0 and w[y == 0].sum() > 0):
                continue
        yr, pr = repeat_rows(y, p, w)
        ours = calibration_curve(y, p, n_bins=n_bins, strategy=strategy, sample_weight=w)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            true, pred = sk_calibration_curve(yr, pr, n_bins=n_bins, strategy=strategy)
        np.testing.assert_allclose(ours.prob_true, true, rtol=0, atol=1e-12)
        np.testing.assert_allclose(ours.prob_pred, pred, rtol=0, atol=1e-12)
        assert ours.counts.sum() == w.sum()


def test_weighted_quantile_edges_with_unit_weights_are_numpy_percentile():
    rng = np.random.default_rng(5)
    for _ in range(200):
        p = np.round(rng.random(int(rng.integers(1, 60))), int(rng.integers(1, 4)))
        for n_bins in (1, 3, 7, 10):
            expected = np.percentile(p, np.linspace(0, 1, n_bins + 1) * 100)
            got = _repeated_quantiles(p, np.ones(p.size), n_bins)
            np.testing.assert_array_equal(got, expected)


def test_binning_rule_on_edges():
    """A probability on an inner edge belongs to the bin below it; 0 and 1 to the ends."""
    y = [0, 1, 0, 1, 1]
    p = [0.0, 0.5, 0.5, 0.75, 1.0]
    c = calibration_curve(y, p, n_bins=2)
    assert c.counts.tolist() == [3, 2]  # [0, 0.5] and (0.5, 1]
    assert c.prob_true.tolist() == [1 / 3, 1.0]


def test_unique_strategy_one_bin_per_value():
    c = calibration_curve([0, 1, 1, 0], [0.3, 0.3, 0.9, 0.1], strategy="unique", n_bins=1)
    assert c.prob_pred.tolist() == [0.1, 0.3, 0.9]
    assert c.prob_true.tolist() == [0.0, 0.5, 1.0]
    assert c.counts.tolist() == [1, 2, 1]


# ----------------------------------------------------------------------- Brier score
def test_brier_score_equals_sklearn():
    """sklearn.metrics.brier_score_loss within 1e-12, with and without weights."""
    for y, p, w in cases():
        expected = brier_score_loss(y, p, sample_weight=w)
        assert brier_score(y, p, sample_weight=w) == pytest.approx(expected, abs=1e-12)


def _decomposition_reference(y, p, w, n_bins, strategy):
    """Murphy's three terms from sklearn's reliability points on the repeated data."""
    yr, pr = (y, p) if w is None else repeat_rows(y, p, w)
    edges = (np.linspace(0, 1, n_bins + 1) if strategy == "uniform"
             else np.percentile(pr, np.linspace(0, 1, n_bins + 1) * 100))
    ids = np.searchsorted(edges[1:-1], pr)
    counts = np.bincount(ids, minlength=n_bins)
    counts = counts[counts > 0]
    true, pred = sk_calibration_curve(yr, pr, n_bins=n_bins, strategy=strategy)
    base = yr.mean()
    rel = np.dot(counts, (pred - true) ** 2) / yr.size
    res = np.dot(counts, (true - base) ** 2) / yr.size
    return rel, res, base * (1 - base)


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_brier_decomposition_against_sklearn_bins(strategy):
    """Reliability, resolution, uncertainty from sklearn's bins (weights: repeated rows)."""
    for y, p, w in cases(["ties", "continuous", "int_weights"]):
        d = brier_decomposition(y, p, n_bins=5, strategy=strategy, sample_weight=w)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            rel, res, unc = _decomposition_reference(y, p, w, 5, strategy)
        assert d.reliability == pytest.approx(rel, abs=1e-12)
        assert d.resolution == pytest.approx(res, abs=1e-12)
        assert d.uncertainty == pytest.approx(unc, abs=1e-12)


@given(st.data())
def test_brier_decomposition_identity(data):
    """brier = rel - res + unc + within_bin always; within_bin = 0 for constant bins."""
    n = data.draw(st.integers(2, 60))
    y = np.array(data.draw(st.lists(st.integers(0, 1), min_size=n, max_size=n)))
    levels = data.draw(st.lists(st.sampled_from([0.05, 0.15, 0.25, 0.35, 0.55, 0.65,
                                                 0.85, 0.95]), min_size=n, max_size=n))
    p = np.array(levels)
    w = data.draw(st.one_of(st.none(), st.lists(st.floats(0.1, 5), min_size=n, max_size=n)))
    d = brier_decomposition(y, p, n_bins=10, sample_weight=w)  # one level per bin
    b = brier_score(y, p, sample_weight=w)
    assert abs(d.within_bin) <= 1e-12
    assert b == pytest.approx(d.reliability - d.resolution + d.uncertainty, abs=1e-12)
    jitter = np.array(data.draw(st.lists(st.floats(-0.04, 0.04), min_size=n, max_size=n)))
    q = p + jitter  # no longer constant in the bins of width 0.1
    for strategy in ("uniform", "quantile", "unique"):
        d = brier_decomposition(y, q, n_bins=4, strategy=strategy, sample_weight=w)
        total = d.reliability - d.resolution + d.uncertainty + d.within_bin
        assert brier_score(y, q, sample_weight=w) == pytest.approx(total, abs=1e-12)
        assert d.reliability >= 0 and d.resolution >= 0


def test_brier_decomposition_unique_is_exact_and_isotonic_has_zero_reliability():
    """The isotonic fit is calibrated in sample: reliability 0 on its own values."""
    for y, p, w in cases(["ties", "int_weights", "float_weights"]):
        d = brier_decomposition(y, p, strategy="unique", sample_weight=w)
        assert abs(d.within_bin) <= 1e-12
        iso = isotonic_calibration(y, p, sample_weight=w)(p)
        di = brier_decomposition(y, iso, strategy="unique", sample_weight=w)
        assert di.reliability <= 1e-15
        # Pooling can only lose resolution: the fit is a coarsening plus calibration.
        assert brier_score(y, iso, sample_weight=w) == pytest.approx(
            di.uncertainty - di.resolution, abs=1e-12)


# ------------------------------------------------------------------------------ ECE
def _ece_reference(y, p, w, n_bins):
    """Guo et al.'s formula with explicit intervals [0, e1], (e1, e2], ..., (e_{k-1}, 1]."""
    w = np.ones(y.size) if w is None else np.asarray(w, dtype=float)
    edges = np.linspace(0, 1, n_bins + 1)
    total, ece = w.sum(), 0.0
    for k in range(n_bins):
        inside = (p <= edges[k + 1]) & ((p > edges[k]) if k else (p >= 0))
        if k == n_bins - 1:
            inside = p > edges[k] if k else np.ones(p.size, dtype=bool)
        wk = w[inside].sum()
        if wk > 0:
            acc = np.dot(w[inside], y[inside]) / wk
            conf = np.dot(w[inside], p[inside]) / wk
            ece += wk / total * abs(acc - conf)
    return ece


@pytest.mark.parametrize("n_bins", [1, 4, 10, 15])
def test_expected_calibration_error_against_the_definition(n_bins):
    for y, p, w in cases():
        got = expected_calibration_error(y, p, n_bins=n_bins, sample_weight=w)
        assert got == pytest.approx(_ece_reference(y, p, w, n_bins), abs=1e-12)


def test_ece_depends_on_the_bins():
    """Same probabilities, different bins, different ECE (the chapter's caveat)."""
    rng = np.random.default_rng(1)
    p = rng.uniform(size=400)
    y = (rng.uniform(size=400) < p).astype(int)  # calibrated by construction
    values = {k: expected_calibration_error(y, p, n_bins=k) for k in (1, 5, 10, 50)}
    assert values[1] < values[5] < values[50]
    assert expected_calibration_error(y, p, strategy="unique") > values[50]


# ------------------------------------------------------------------------- Platt
def _platt_loss(y, s, w, a, b, t):
    z = a * s + b
    ww = np.ones(y.size) if w is None else w
    return np.dot(ww, np.logaddexp(0, z) - t * z)


def test_platt_scaling_equals_sklearn_sigmoid_calibration():
    """Platt's targets: sklearn's _sigmoid_calibration (A = -a, B = -b); our likelihood is
    at least as high (sklearn stops its L-BFGS earlier) and the parameters agree."""
    for y, p, w in cases():
        s = np.asarray(p) * 4 - 2
        live = slice(None) if w is None else np.asarray(w) > 0
        if np.unique(s[live]).size < 2:
            continue
        ours = platt_scaling(y, s, sample_weight=w)
        big_a, big_b = _sigmoid_calibration(s, y, None if w is None else np.asarray(w, float))
        ww = np.ones(y.size) if w is None else np.asarray(w, float)
        m1, m0 = ww[y == 1].sum(), ww[y == 0].sum()
        t = np.where(y == 1, (m1 + 1) / (m1 + 2), 1 / (m0 + 2))
        ours_loss = _platt_loss(y, s, ww, ours.a, ours.b, t)
        sk_loss = _platt_loss(y, s, ww, -big_a, -big_b, t)
        assert ours_loss <= sk_loss + 1e-12 * max(1.0, sk_loss)
        assert ours.a == pytest.approx(-big_a, abs=1e-4, rel=1e-4)
        assert ours.b == pytest.approx(-big_b, abs=1e-4, rel=1e-4)


def test_platt_scaling_labels_equals_unpenalized_logistic_regression():
    for y, p, w in cases(["continuous", "int_weights", "float_weights"]):
        s = np.asarray(p) * 6 - 3
        live = np.ones(y.size, bool) if w is None else np.asarray(w) > 0
        pos, neg = s[(y == 1) & live], s[(y == 0) & live]
        if not (neg.max() > pos.min() and pos.max() > neg.min()):
            with pytest.raises(ValueError, match="separate the classes"):
                platt_scaling(y, s, sample_weight=w, targets="labels")
            continue
        ours = platt_scaling(y, s, sample_weight=w, targets="labels")
        lr = LogisticRegression(C=1e12, tol=1e-12, max_iter=10_000)
        lr.fit(s[:, None], y, sample_weight=w)
        ww = np.ones(y.size) if w is None else np.asarray(w, float)
        ours_loss = _platt_loss(y, s, ww, ours.a, ours.b, y)
        lr_loss = _platt_loss(y, s, ww, lr.coef_[0, 0], lr.intercept_[0], y)
        assert ours_loss <= lr_loss + 1e-9 * max(1.0, lr_loss)
        assert ours.a == pytest.approx(lr.coef_[0, 0], abs=1e-5, rel=1e-5)
        assert ours.b == pytest.approx(lr.intercept_[0], abs=1e-5, rel=1e-5)


def test_platt_map_is_the_sigmoid():
    m = platt_scaling([0, 1, 0, 1], [0.0, 1.0, 2.0, 3.0])
    s = np.array([-1e6, 0.5, 1e6])
    expected = 1 / (1 + np.exp(-(m.a * s[1] + m.b)))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no overflow in exp
        out = m(s)
    assert out[1] == pytest.approx(expected) and out[0] == 0.0 and out[2] == 1.0


# ------------------------------------------------------------------------ isotonic
def test_isotonic_calibration_equals_sklearn():
    """sklearn.isotonic.IsotonicRegression (clip) on ties and weights, within 1e-12."""
    rng = np.random.default_rng(3)
    for y, p, w in cases():
        s = np.asarray(p) * 10 - 3  # scores need not be probabilities
        ours = isotonic_calibration(y, s, sample_weight=w)
        iso = IsotonicRegression(out_of_bounds="clip").fit(s, y, sample_weight=w)
        grid = np.r_[s, rng.uniform(s.min() - 1, s.max() + 1, 50)]
        np.testing.assert_allclose(ours(grid), iso.predict(grid), rtol=0, atol=1e-12)
        assert np.all(np.diff(ours.values) >= 0)


def test_isotonic_exact_values_are_the_floats_correctly_rounded():
    for y, p, w in cases(["ties", "int_weights", "one_positive"]):
        fl = isotonic_calibration(y, p, sample_weight=w)
        ex = isotonic_calibration(y, p, sample_weight=w, exact=True)
        assert all(isinstance(v, Fraction) for v in ex.values)
        assert [float(v) for v in ex.values] == fl.values.tolist()


def _exact_hull_segments(y, s, w):
    """Hull of the ROC curve (course_lib.roc_convex_hull) as exact count increments."""
    ww = np.ones(y.size, dtype=np.int64) if w is None else np.asarray(w, dtype=np.int64)
    m1, m0 = int(ww[y == 1].sum()), int(ww[y == 0].sum())
    curve = roc_curve(y, s, sample_weight=w)
    hull = roc_convex_hull(curve.fpr, curve.tpr)
    fp = [round(v * m0) for v in hull.fpr.tolist()]
    tp = [round(v * m1) for v in hull.tpr.tolist()]
    return m1, m0, fp, tp


def test_isotonic_values_are_the_slopes_of_the_roc_convex_hull():
    """Fawcett & Niculescu-Mizil (2007): on each hull segment the isotonic value is
    pi dTPR / (pi dTPR + (1 - pi) dFPR), exactly (Fractions)."""
    for y, p, w in cases(["ties", "continuous", "int_weights", "one_positive"]):
        ww = np.ones(y.size, dtype=np.int64) if w is None else np.asarray(w, dtype=np.int64)
        if ww[y == 1].sum() == 0 or ww[y == 0].sum() == 0:
            continue
        m1, m0, fp, tp = _exact_hull_segments(y, p, w)
        pi = Fraction(m1, m1 + m0)
        slopes = []
        for k in range(1, len(fp)):
            d_tpr, d_fpr = Fraction(tp[k] - tp[k - 1], m1), Fraction(fp[k] - fp[k - 1], m0)
            slopes.append((fp[k] + tp[k], pi * d_tpr / (pi * d_tpr + (1 - pi) * d_fpr)))
        iso = isotonic_calibration(y, p, sample_weight=w, exact=True)
        # Walk the distinct scores downwards; each ends at a cumulative count, which
        # falls in exactly one hull segment (the segments end at the hull's vertices).
        order = np.argsort(-iso.thresholds)
        above = 0
        for j in order:
            at = np.asarray(p) == iso.thresholds[j]
            above += int(ww[at].sum())
            segment_value = next(v for end, v in slopes if end >= above)
            assert iso.values[j] == segment_value
        # one distinct calibrated value per hull segment
        assert len(set(iso.values.tolist())) == len(slopes)


def test_isotonic_auc_equals_the_hull_area():
    """In sample the calibrated scores' ROC curve (ties 1/2) is the hull: AUC = hull area,
    never below the raw AUC."""
    for y, p, w in cases(["ties", "continuous", "int_weights"]):
        iso = isotonic_calibration(y, p, sample_weight=w, exact=True)
        calibrated = iso(p)
        m1, m0, fp, tp = _exact_hull_segments(y, p, w)
        area = sum(Fraction((fp[k] - fp[k - 1]) * (tp[k] + tp[k - 1]), 2 * m1 * m0)
                   for k in range(1, len(fp)))
        wi = None if w is None else np.asarray(w, dtype=np.int64)
        auc_iso = roc_auc(y, calibrated, sample_weight=wi, exact=True)
        assert auc_iso == area
        assert auc_iso >= roc_auc(y, p, sample_weight=wi, exact=True)


def test_isotonic_minimises_brier_among_monotone_maps():
    for y, p, w in cases(["ties", "continuous", "float_weights"]):
        fit = isotonic_calibration(y, p, sample_weight=w)(p)
        b = brier_score(y, fit, sample_weight=w)
        assert b <= brier_score(y, p, sample_weight=w) + 1e-12
        assert b <= brier_score(y, np.asarray(p) ** 2, sample_weight=w) + 1e-12


# ------------------------------------------------ AUC ignores calibration: properties
@given(st.data())
def test_strictly_increasing_map_keeps_auc_changes_brier_and_log_loss(data):
    n = data.draw(st.integers(2, 40))
    y = np.array(data.draw(st.lists(st.integers(0, 1), min_size=n, max_size=n)))
    assume(0 < y.sum() < n)
    p = np.array(data.draw(st.lists(st.integers(1, 19), min_size=n, max_size=n))) / 20
    power = data.draw(st.sampled_from([0.5, 2.0, 3.0]))
    q = p**power  # strictly increasing on [0, 1]
    assert roc_auc(y, q, exact=True) == roc_auc(y, p, exact=True)
    # Every object's Brier term and log-loss term moves: (q - y)**2 = (p - y)**2 would
    # need q = p or q = 2y - p, outside (0, 1). (Their means could still coincide.)
    assert np.all((q - y) ** 2 != (p - y) ** 2)
    assert np.all(np.log(np.where(y, q, 1 - q)) != np.log(np.where(y, p, 1 - p)))
    assert log_loss(y, q) == pytest.approx(sk_log_loss(y, q), abs=1e-12)


def test_power_map_example_changes_brier_not_auc():
    """The chapter's example: p -> p**3 on Table 1's scores."""
    y = np.array([0, 0, 0, 1, 1, 1, 0])
    b = np.array([0.5, 0.1, 0.2, 0.6, 0.2, 0.3, 0.0])
    assert roc_auc(y, b**3, exact=True) == roc_auc(y, b, exact=True) == Fraction(19, 24)
    assert brier_score(y, b**3) != pytest.approx(brier_score(y, b))
    assert log_loss(y, b**3) != pytest.approx(log_loss(y, b))


# ---------------------------------------------------------------------- validation
@pytest.mark.parametrize("func", [calibration_curve, brier_decomposition,
                                  expected_calibration_error])
def test_binned_validation(func):
    with pytest.raises(ValueError, match=r"y_prob must hold probabilities in \[0, 1\]"):
        func([0, 1], [0.5, 1.5])
    with pytest.raises(ValueError, match="n_bins must be a positive int"):
        func([0, 1], [0.5, 0.5], n_bins=0)
    with pytest.raises(ValueError, match="n_bins must be a positive int"):
        func([0, 1], [0.5, 0.5], n_bins=2.0)
    with pytest.raises(ValueError, match="strategy must be 'uniform', 'quantile' or 'unique'"):
        func([0, 1], [0.5, 0.5], strategy="equal")
    with pytest.raises(ValueError, match="is undefined: every sample weight is zero"):
        func([0, 1], [0.5, 0.5], sample_weight=[0, 0])
    with pytest.raises(ValueError, match="y_true must contain only 0 and 1"):
        func([0, 2], [0.5, 0.5])
    with pytest.raises(ValueError, match="different lengths"):
        func([0, 1, 1], [0.5, 0.5])
    with pytest.raises(ValueError, match="NaN or infinite"):
        func([0, 1], [0.5, np.nan])


def test_brier_validation():
    with pytest.raises(ValueError, match=r"found -0.1"):
        brier_score([0, 1], [-0.1, 0.5])
    with pytest.raises(ValueError, match="sample_weight must be non-negative"):
        brier_score([0, 1], [0.1, 0.5], sample_weight=[1, -1])


def test_platt_validation():
    with pytest.raises(ValueError, match="targets must be 'platt' or 'labels'"):
        platt_scaling([0, 1], [0.0, 1.0], targets="smooth")
    with pytest.raises(ValueError, match="no negative samples"):
        platt_scaling([1, 1], [0.0, 1.0])
    with pytest.raises(ValueError, match="at least two distinct values"):
        platt_scaling([0, 1, 0], [0.5, 0.5, 0.5])
    with pytest.raises(ValueError, match="at least two distinct values"):
        platt_scaling([0, 1, 0], [0.5, 0.5, 0.7], sample_weight=[1, 1, 0])
    with pytest.raises(ValueError, match="separate the classes"):
        platt_scaling([0, 0, 1], [0.1, 0.2, 0.3], targets="labels")
    with pytest.raises(ValueError, match="separate the classes"):  # touching at 0.2
        platt_scaling([0, 0, 1, 1], [0.1, 0.2, 0.2, 0.3], targets="labels")


def test_isotonic_validation():
    with pytest.raises(ValueError, match="exact=True needs integer sample weights"):
        isotonic_calibration([0, 1], [0.1, 0.2], sample_weight=[0.5, 1], exact=True)
    with pytest.raises(ValueError, match="exact must be True or False"):
        isotonic_calibration([0, 1], [0.1, 0.2], exact="yes")
    with pytest.raises(ValueError, match="is undefined: every sample weight is zero"):
        isotonic_calibration([0, 1], [0.1, 0.2], sample_weight=[0, 0])
    m = isotonic_calibration([0, 1], [0.1, 0.2])
    with pytest.raises(ValueError, match="y_score contains NaN"):
        m([np.nan])


def test_inputs_not_modified():
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 50)
    y[:2] = [0, 1]
    p = np.round(rng.random(50), 1)
    w = rng.integers(1, 4, 50).astype(float)
    copies = [a.copy() for a in (y, p, w)]
    calibration_curve(y, p, sample_weight=w, strategy="quantile")
    brier_score(y, p, sample_weight=w)
    brier_decomposition(y, p, sample_weight=w)
    expected_calibration_error(y, p, sample_weight=w)
    platt_scaling(y, p, sample_weight=w)
    m = isotonic_calibration(y, p, sample_weight=w)
    m(p)
    for a, b in zip((y, p, w), copies):
        np.testing.assert_array_equal(a, b)


def test_log_loss_lives_beside_the_brier_score_and_keeps_its_old_paths():
    import course_lib
    import course_lib.calibration as calibration
    import course_lib.confusion as confusion

    assert calibration.log_loss.__module__ == "course_lib.calibration"
    assert "log_loss" in calibration.__all__ and "log_loss" in confusion.__all__
    assert course_lib.log_loss is calibration.log_loss is confusion.log_loss
    # the two probability scores of one object scored 0.9 with label 1, and 0.2 with 0
    assert calibration.brier_score([1, 0], [0.9, 0.2]) == pytest.approx(0.025, abs=1e-15)
    assert calibration.log_loss([1, 0], [0.9, 0.2]) == pytest.approx(
        -(np.log(0.9) + np.log(0.8)) / 2, rel=1e-15)
