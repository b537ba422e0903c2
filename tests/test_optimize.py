"""Tests of course_lib.optimize: the sigmoid surrogate of the AUC, its gradient, and the
rank average of several scorers."""

import math
import warnings

import numpy as np
import pandas as pd
import pytest
from cases import PROFILES, random_case
from hypothesis import assume, given
from hypothesis import strategies as st
from scipy.special import expit
from scipy.stats import rankdata

from course_lib import (
    UndefinedMetricWarning,
    optimize,
    rank_average,
    roc_auc,
    soft_auc,
    soft_auc_gradient,
)


def brute_soft_auc(y, s, beta, w=None):
    """The definition, with the full pair matrix and scipy's sigmoid."""
    y = np.asarray(y, bool)
    s = np.asarray(s, float)
    w = np.ones(y.size) if w is None else np.asarray(w, float)
    m = expit(beta * (s[y][:, None] - s[~y][None, :]))
    wp, wn = w[y], w[~y]
    return float(wp @ m @ wn / (wp.sum() * wn.sum()))


# ---------------------------------------------------------------- values by hand


def test_one_pair_by_hand():
    """sigma(ln 3) = 3/4 and sigma'(ln 3) = 3/16; a tie gives 1/2 and slope beta/4."""
    assert soft_auc([0, 1], [0.0, math.log(3)]) == pytest.approx(0.75, abs=1e-15)
    np.testing.assert_allclose(soft_auc_gradient([0, 1], [0.0, math.log(3)]),
                               [-0.1875, 0.1875], rtol=0, atol=1e-15)
    for beta in (0.01, 1.0, 1e6):
        assert soft_auc([1, 0], [0.3, 0.3], beta=beta) == 0.5
        np.testing.assert_allclose(soft_auc_gradient([1, 0], [0.3, 0.3], beta=beta),
                                   [beta / 4, -beta / 4], rtol=1e-15)


def test_table1_tends_to_19_24(table1):
    """Table 1: the smallest nonzero difference between a positive and a negative is 0.1,
    so at beta = 1000 every untied pair is within exp(-100) of 0 or 1; the tied pair
    (5, 3) counts 1/2 for every beta."""
    y, b = table1
    assert soft_auc(y, b, beta=1000.0) == pytest.approx(19 / 24, abs=1e-15)
    values = [soft_auc(y, b, beta=beta) for beta in (1, 10, 100, 1000)]
    gaps = [abs(v - 19 / 24) for v in values]
    assert gaps == sorted(gaps, reverse=True)


def test_agrees_with_the_definition_on_random_cases():
    """Differential: the blocked sums equal the full pair matrix (scipy's expit), with
    and without weights, for several beta."""
    for k, profile in enumerate(PROFILES[:5]):
        rng = np.random.default_rng(k)
        for _ in range(40):
            y, s, w = random_case(rng, profile)
            for beta in (0.1, 3.0, 50.0):
                expected = brute_soft_auc(y, s, beta, w)
                assert soft_auc(y, s, beta=beta, sample_weight=w) == pytest.approx(
                    expected, abs=1e-12
                )


def test_blocks_cover_all_pairs(monkeypatch):
    """Blocking (by rows and by columns) changes neither the value nor the gradient."""
    rng = np.random.default_rng(5)
    y = rng.random(301) < 0.3
    s = rng.normal(size=301) + y
    w = rng.exponential(size=301)
    value = soft_auc(y, s, beta=2.0, sample_weight=w)
    grad = soft_auc_gradient(y, s, beta=2.0, sample_weight=w)
    for block in (1, 7, 64, 1000):
        monkeypatch.setattr(optimize, "_PAIR_BLOCK", block)
        assert soft_auc(y, s, beta=2.0, sample_weight=w) == pytest.approx(value, abs=1e-13)
        np.testing.assert_allclose(
            soft_auc_gradient(y, s, beta=2.0, sample_weight=w), grad, rtol=0, atol=1e-15
        )


def test_no_overflow_for_huge_differences():
    """Differences of 1e6 times beta = 100 give exactly 0 and 1 without a warning."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert soft_auc([1, 0, 1], [1e6, 0.0, -1e6], beta=100.0) == 0.5
        np.testing.assert_array_equal(
            soft_auc_gradient([1, 0, 1], [1e6, 0.0, -1e6], beta=100.0), [0.0, 0.0, 0.0]
        )


def test_small_beta_is_linear_in_the_class_means():
    """beta -> 0: sigma(u) = 1/2 + u/4 + O(u^3), so the surrogate is
    1/2 + beta (mean of positives - mean of negatives)/4."""
    rng = np.random.default_rng(2)
    y = rng.random(200) < 0.4
    s = rng.normal(size=200) + y
    beta = 1e-4
    slope = (soft_auc(y, s, beta=beta) - 0.5) / beta
    assert slope == pytest.approx((s[y].mean() - s[~y].mean()) / 4, rel=1e-6)


# ---------------------------------------------------------------- the gradient


def finite_differences(y, s, beta, w=None, h=1e-6):
    out = np.empty(s.size)
    for k in range(s.size):
        up, down = s.copy(), s.copy()
        up[k] += h
        down[k] -= h
        out[k] = (soft_auc(y, up, beta=beta, sample_weight=w)
                  - soft_auc(y, down, beta=beta, sample_weight=w)) / (2 * h)
    return out


@pytest.mark.parametrize("beta", [0.5, 2.0, 10.0])
@pytest.mark.parametrize("weighted", [False, True])
def test_gradient_matches_finite_differences(beta, weighted):
    """Central differences with h = 1e-6 agree with the exact gradient to 1e-8."""
    rng = np.random.default_rng(int(beta * 10) + weighted)
    y = np.r_[1, 0, rng.random(28) < 0.5]
    s = rng.normal(size=30) * 0.5 + 0.3 * y
    s[3] = s[4]  # a tie
    w = rng.exponential(size=30) if weighted else None
    exact = soft_auc_gradient(y, s, beta=beta, sample_weight=w)
    np.testing.assert_allclose(exact, finite_differences(y, s, beta, w), rtol=0, atol=1e-8)


def test_gradient_of_table1(table1):
    """Table 1 at beta = 5: positives are pushed up and negatives down; the tied
    objects 3 and 5 get the largest push of their class."""
    y, b = table1
    g = soft_auc_gradient(y, b, beta=5.0)
    assert (g[y == 1] > 0).all() and (g[y == 0] < 0).all()
    assert g.sum() == pytest.approx(0, abs=1e-15)
    assert int(np.argmax(g)) == 4  # object 5
    assert int(np.argmin(g)) == 2  # object 3


# ---------------------------------------------------------------- properties

rows = st.lists(
    st.tuples(st.booleans(), st.integers(-6, 6), st.integers(0, 4)), min_size=2, max_size=40
)


def unpack(data):
    y = np.array([r[0] for r in data])
    s = np.array([float(r[1]) for r in data])
    w = np.array([r[2] for r in data])
    return y, s, w


def both(y, w=None):
    wy = np.ones(y.size) if w is None else w
    return wy[y].sum() > 0 and wy[~y].sum() > 0


@given(rows)
def test_property_tends_to_the_auc_with_ties_as_one_half(data):
    """Integer scores: untied pairs differ by at least 1, so at beta = 1000 the
    surrogate is the AUC to 1e-15, ties counting sigma(0) = 1/2."""
    y, s, _ = unpack(data)
    assume(both(y))
    assert soft_auc(y, s, beta=1000.0) == pytest.approx(roc_auc(y, s), abs=1e-14)


@given(rows, st.floats(0.05, 20), st.floats(-50, 50))
def test_property_symmetries(data, beta, shift):
    """The surrogate lies in [0, 1]; a shift changes nothing, scaling the scores is
    scaling beta, and reversing the scores or the labels gives 1 - soft AUC."""
    y, s, _ = unpack(data)
    assume(both(y))
    v = soft_auc(y, s, beta=beta)
    assert 0 <= v <= 1
    assert soft_auc(y, s + shift, beta=beta) == pytest.approx(v, abs=1e-12)
    assert soft_auc(y, 2 * s, beta=beta) == pytest.approx(soft_auc(y, s, beta=2 * beta), abs=1e-12)
    assert soft_auc(y, -s, beta=beta) == pytest.approx(1 - v, abs=1e-12)
    assert soft_auc(~y, s, beta=beta) == pytest.approx(1 - v, abs=1e-12)


@given(rows, st.floats(0.05, 20))
def test_property_gradient_signs_and_sum(data, beta):
    """Positives have a positive partial derivative, negatives a negative one, and the
    entries add up to zero (a common shift of the scores changes nothing)."""
    y, s, _ = unpack(data)
    assume(both(y))
    g = soft_auc_gradient(y, s, beta=beta)
    assert g.shape == s.shape and g.dtype == np.float64
    assert (g[y] >= 0).all() and (g[~y] <= 0).all()
    assert g.sum() == pytest.approx(0, abs=1e-12)


@given(rows, st.floats(0.05, 20))
def test_property_integer_weights_equal_replicated_rows(data, beta):
    """Weight k equals k copies of the object; the gradient of a copy is shared."""
    y, s, w = unpack(data)
    assume(both(y, w))
    yr, sr = np.repeat(y, w), np.repeat(s, w)
    assert soft_auc(y, s, beta=beta, sample_weight=w) == pytest.approx(
        soft_auc(yr, sr, beta=beta), abs=1e-12
    )
    g = soft_auc_gradient(y, s, beta=beta, sample_weight=w)
    gr = soft_auc_gradient(yr, sr, beta=beta)
    summed = np.bincount(np.repeat(np.arange(y.size), w), weights=gr, minlength=y.size)
    np.testing.assert_allclose(g, summed, rtol=0, atol=1e-12)


def test_separated_sample_climbs_to_one_as_beta_grows():
    """When every pair is ordered correctly, the surrogate increases with beta to 1."""
    y = [0, 0, 1, 1]
    s = [0.0, 0.5, 1.0, 2.0]
    values = [soft_auc(y, s, beta=beta) for beta in (0.1, 1, 10, 100)]
    assert values == sorted(values) and values[-1] == pytest.approx(1.0, abs=1e-15)
    assert roc_auc(y, s) == 1.0


# ---------------------------------------------------------------- bad input


def test_one_class_is_nan_with_a_warning():
    with pytest.warns(UndefinedMetricWarning, match="soft AUC is undefined.*no positive"):
        assert math.isnan(soft_auc([0, 0], [0.1, 0.2]))
    with pytest.warns(UndefinedMetricWarning, match="no negative samples"):
        g = soft_auc_gradient([1, 1, 1], [0.1, 0.2, 0.3])
    assert g.shape == (3,) and np.isnan(g).all()
    with pytest.warns(UndefinedMetricWarning, match="no negative samples"):
        assert math.isnan(soft_auc([1, 0], [0.1, 0.2], sample_weight=[1, 0]))


@pytest.mark.parametrize("beta", [0, -1.0, float("inf"), float("nan"), "a", None])
def test_bad_beta(beta):
    for func in (soft_auc, soft_auc_gradient):
        with pytest.raises(ValueError, match="beta must be"):
            func([0, 1], [0.1, 0.2], beta=beta)


@pytest.mark.parametrize(
    "y, s, w, message",
    [
        ([0, 2, 1], [0.1, 0.2, 0.3], None, "only 0 and 1"),
        ([0, 1], [0.1, np.nan], None, "NaN or infinite"),
        ([0, 1, 1], [0.1, 0.2], None, "different lengths: 3 and 2"),
        ([], [], None, "y_true is empty"),
        ([0, 1], [0.1, 0.2], [1, -1], "non-negative"),
        ([0, 1], [0.1, 0.2], [1, 1, 1], "sample_weight has length 3"),
    ],
)
def test_bad_input(y, s, w, message):
    for func in (soft_auc, soft_auc_gradient):
        with pytest.raises(ValueError, match=message):
            func(y, s, sample_weight=w)


# ---------------------------------------------------------------- rank_average


def test_rank_average_is_pandas_rank_pct_mean():
    """Source D's footnote: pandas' DataFrame.rank; pct=True divides by n."""
    rng = np.random.default_rng(0)
    scores = [rng.integers(0, 5, 50), rng.normal(size=50) * 100, rng.exponential(size=50)]
    frame = pd.DataFrame({f"m{k}": s for k, s in enumerate(scores)})
    expected = frame.rank(pct=True).mean(axis=1).to_numpy()
    np.testing.assert_allclose(rank_average(scores), expected, rtol=0, atol=1e-15)
    np.testing.assert_allclose(rank_average(np.array(scores, dtype=float)), expected,
                               rtol=0, atol=1e-15)
    weighted = (frame.rank(pct=True) * [1, 2, 5]).sum(axis=1).to_numpy() / 8
    np.testing.assert_allclose(rank_average(scores, weights=[1, 2, 5]), weighted,
                               rtol=0, atol=1e-15)


def test_rank_average_of_one_scorer_keeps_its_auc(table1):
    y, b = table1
    r = rank_average([b])
    np.testing.assert_array_equal(r, rankdata(b) / b.size)
    assert roc_auc(y, r, exact=True) == roc_auc(y, b, exact=True)


def test_zero_weight_drops_a_scorer():
    a, b = [0.1, 0.5, 0.3], [3.0, 1.0, 2.0]
    np.testing.assert_array_equal(rank_average([a, b], weights=[1, 0]), rank_average([a]))


@given(
    st.lists(st.tuples(st.integers(-5, 5), st.integers(-1000, 1000), st.integers(0, 3)),
             min_size=1, max_size=30),
    st.lists(st.floats(0, 5), min_size=3, max_size=3).filter(lambda w: sum(w) > 0),
)
def test_property_rank_average_ignores_increasing_maps(data, weights):
    """A strictly increasing map of any one scorer leaves the rank average unchanged,
    exactly; the result lies in (0, 1]. (Integer scores keep the maps exact in floats:
    a rounded map could merge two scores into a tie.)"""
    a = np.array([r[0] for r in data], float)
    b = np.array([r[1] for r in data], float)
    c = np.array([r[2] for r in data], float)
    ref = rank_average([a, b, c], weights=weights)
    mapped = rank_average([np.exp(a), b**3 + b, 10 * c - 7], weights=weights)
    np.testing.assert_array_equal(ref, mapped)
    assert (ref > 0).all() and (ref <= 1 + 1e-15).all()


@pytest.mark.parametrize(
    "scores, weights, message",
    [
        ([], None, "scores is empty"),
        ([[0.1, 0.2], [0.3]], None, r"scores\[0\] has 2, scores\[1\] has 1"),
        (np.array([0.1, 0.2]), None, "got an array of shape \\(2,\\)"),
        ([[0.1, np.nan]], None, r"scores\[0\] contains NaN"),
        ([[0.1, 0.2], [0.2, 0.1]], [1], "one entry per scorer \\(2\\)"),
        ([[0.1, 0.2], [0.2, 0.1]], [1, -1], "non-negative"),
        ([[0.1, 0.2], [0.2, 0.1]], [0, 0], "must not all be zero"),
        ([[0.1, 0.2], [0.2, 0.1]], [1, np.inf], "NaN or infinite"),
        ([[0.1, 0.2], [0.2, 0.1]], ["a", "b"], "must be numeric"),
    ],
)
def test_rank_average_bad_input(scores, weights, message):
    with pytest.raises(ValueError, match=message):
        rank_average(scores, weights=weights)
