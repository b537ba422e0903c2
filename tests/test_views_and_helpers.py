"""The common curve view (.xy, .at, .at_threshold) and the helpers moved out of the
notebooks: hull_pr, roc_dominates, pr_dominates, simulate_intervals, interval_coverage.

The notebooks' own versions (chapters 7 and 11) are copied here as oracles.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import course_lib as cl

# ------------------------------------------------------------------ the oracles


def notebook_roc_dominates(y_true, s1, s2):
    c1, c2 = cl.roc_curve(y_true, s1), cl.roc_curve(y_true, s2)
    xs = np.union1d(c1.fpr, c2.fpr)

    def height(c):
        return c.tpr[np.searchsorted(c.fpr, xs, side="right") - 1]

    return bool(np.all(height(c1) >= height(c2)))


def notebook_pr_dominates(y_true, s1, s2):
    c1, c2 = cl.pr_curve(y_true, s1), cl.pr_curve(y_true, s2)
    levels = np.unique(c1.recall[c1.recall > 0])
    assert np.array_equal(levels, np.unique(c2.recall[c2.recall > 0]))

    def ends(c):
        return np.array([(c.precision[c.recall == r].max(),
                          c.precision[c.recall == r].min()) for r in levels])

    return bool(np.all(ends(c1) >= ends(c2)))


def notebook_hull_pr(y_true, y_score):
    m1 = int(np.sum(y_true))
    m0 = len(y_true) - m1
    roc = cl.roc_curve(y_true, y_score)
    hull = cl.roc_convex_hull(roc.fpr, roc.tpr)
    tp = np.rint(hull.tpr * m1).astype(int)
    fp = np.rint(hull.fpr * m0).astype(int)
    keep = np.r_[True, np.diff(tp) > 0]
    tp, fp = tp[keep], fp[keep]
    rec, prec = [], []
    for k in range(1, len(tp)):
        part = cl.achievable_pr(tp[k - 1], fp[k - 1], tp[k], fp[k], m1)
        rec.append(part.recall)
        prec.append(part.precision)
    vertices = (tp[1:] / m1, tp[1:] / (tp[1:] + fp[1:]))
    return vertices, (np.concatenate(rec), np.concatenate(prec))


@st.composite
def two_scorers(draw, ties=True):
    n = draw(st.integers(2, 30))
    y = np.array(draw(st.lists(st.integers(0, 1), min_size=n, max_size=n)))
    if y.min() == y.max():
        y[0] = 1 - y[0]
    if ties:
        a = np.array(draw(st.lists(st.integers(0, 6), min_size=n, max_size=n)), float)
        b = np.array(draw(st.lists(st.integers(0, 6), min_size=n, max_size=n)), float)
    else:
        a = np.array(draw(st.permutations(range(n))), float)
        b = np.array(draw(st.permutations(range(n))), float)
    return y, a, b


# ------------------------------------------------------------------- dominance


@given(two_scorers(ties=False))
def test_dominance_equals_the_notebooks_without_ties(case):
    y, a, b = case
    assert cl.roc_dominates(y, a, b) == notebook_roc_dominates(y, a, b)
    assert cl.pr_dominates(y, a, b) == notebook_pr_dominates(y, a, b)


@given(two_scorers())
def test_roc_dominance_iff_pr_dominance_with_ties(case):
    """Davis & Goadrich (2006), theorem 3.2, ties broken at random on both sides."""
    y, a, b = case
    assert cl.roc_dominates(y, a, b) == cl.pr_dominates(y, a, b)
    assert cl.roc_dominates(y, a, a) and cl.pr_dominates(y, a, a)
    assert cl.roc_dominates(y, y.astype(float), a)  # the perfect ranking beats all


@given(two_scorers())
def test_roc_dominance_means_every_pointwise_comparison(case):
    y, a, b = case
    ca, cb = cl.roc_curve(y, a), cl.roc_curve(y, b)
    grid = np.linspace(0, 1, 97)
    if cl.roc_dominates(y, a, b):
        assert np.all(cb.at(grid) <= ca.at(grid) + 1e-12)
        assert cl.roc_auc(y, a) >= cl.roc_auc(y, b) - 1e-12


def test_a_tie_is_compared_along_its_diagonal():
    y = [1, 0, 1, 0]
    tied = [1.0, 1.0, 0.0, 0.0]  # (0,0) -> (1/2, 1/2) -> (1, 1)
    split = [1.0, 0.9, 0.8, 0.0]  # (0,1/2), (1/2,1/2), (1/2,1), (1,1)
    assert cl.roc_dominates(y, split, tied) and not cl.roc_dominates(y, tied, split)
    assert cl.pr_dominates(y, split, tied) and not cl.pr_dominates(y, tied, split)


# ---------------------------------------------------------------------- hull_pr


@pytest.mark.parametrize("seed", range(8))
def test_hull_pr_equals_the_notebooks(seed):
    rng = np.random.default_rng(seed)
    n = 60
    y = rng.integers(0, 2, n)
    s = np.round(rng.normal(size=n) + y, 1)
    (vr, vp), (ar, ap) = notebook_hull_pr(y, s)
    h = cl.hull_pr(y, s)
    for got, want in zip(h, (vr, vp, ar, ap)):
        np.testing.assert_array_equal(got, want)


def test_hull_pr_lies_on_or_above_the_pr_points_at_their_recalls():
    rng = np.random.default_rng(11)
    y = rng.integers(0, 2, 200)
    s = rng.normal(size=200) + y
    h, c = cl.hull_pr(y, s), cl.pr_curve(y, s)
    best = pd.Series(h.achievable_precision).groupby(h.achievable_recall).max()
    for r, p in zip(c.recall, c.precision):
        assert p <= best[r] + 1e-12


def test_hull_pr_and_dominance_validate_their_input():
    with pytest.raises(ValueError, match="only one class"):
        cl.hull_pr([1, 1], [0.2, 0.3])
    with pytest.raises(ValueError, match="different lengths"):
        cl.roc_dominates([0, 1], [0.2, 0.3], [0.1])
    with pytest.raises(ValueError, match="no positive samples"):
        cl.pr_dominates([0, 0], [0.2, 0.3], [0.1, 0.2])


# ------------------------------------------------------------------ coverage


def test_simulate_intervals_reproduces_the_chapter_11_loop():
    model = cl.LINEAR_DENSITIES

    def intervals(n, runs, seed, n_boot=300):  # chapter 11's code
        rng = np.random.default_rng(seed)
        rows = []
        for _ in range(runs):
            y, s = model.sample(n, 0.5, seed=rng)
            d = cl.auc_ci_delong(y, s)
            b = cl.auc_ci_bootstrap(y, s, n_boot=n_boot, seed=rng)
            rows.append([d.auc, d.low, d.high, b.low, b.high])
        return pd.DataFrame(rows, columns=["auc", "dl_low", "dl_high", "bs_low", "bs_high"])

    want = intervals(40, 6, seed=40, n_boot=80)
    got = cl.simulate_intervals(model.sample, 40, runs=6, seed=40, n_boot=80)
    pd.testing.assert_frame_equal(got, want)
    truth = float(model.auc())
    cov = cl.interval_coverage(got, truth)
    for method, key in (("DeLong", "dl"), ("bootstrap", "bs")):
        low, high = want[f"{key}_low"], want[f"{key}_high"]
        assert cov[method, "coverage"] == ((low <= truth) & (truth <= high)).mean()
        assert cov[method, "mean width"] == (high - low).mean()


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 10**6))
def test_coverage_is_a_share_and_widths_are_positive(seed):
    t = cl.simulate_intervals(cl.LINEAR_DENSITIES.sample, 30, runs=4, seed=seed, n_boot=40)
    cov = cl.interval_coverage(t, 0.75)
    assert all(0 <= cov[m, "coverage"] <= 1 for m in ("DeLong", "bootstrap"))
    assert all(cov[m, "mean width"] > 0 for m in ("DeLong", "bootstrap"))


@pytest.mark.parametrize("kwargs, message", [
    ({"runs": 0}, "runs must be a positive integer"),
    ({"runs": 2, "n_boot": 1.5}, "n_boot must be a positive integer"),
    ({"runs": 2, "seed": "x"}, "seed must be"),
    ({"runs": 2, "level": 1.0}, "level must be"),
])
def test_simulate_intervals_validates(kwargs, message):
    with pytest.raises(ValueError, match=message):
        cl.simulate_intervals(cl.LINEAR_DENSITIES.sample, 20, **kwargs)


# ---------------------------------------------------------------- curve views


@given(two_scorers())
@settings(max_examples=50)
def test_every_curve_has_xy_at_and_at_threshold(case):
    y, s, _ = case
    curves = {
        cl.roc_curve: ("fpr", "tpr"), cl.pr_curve: ("recall", "precision"),
        cl.gain_curve: ("rate", "tpr"), cl.lift_curve: ("rate", "lift"),
        cl.cap_curve: ("rate", "share"),
    }
    for f, (xname, yname) in curves.items():
        c = f(y, s)
        x, v = c.xy
        assert x is getattr(c, xname) and v is getattr(c, yname)
        np.testing.assert_array_equal(c.at(x[-1:]), v[-1:])
        for t in c.thresholds:
            if np.isfinite(t):
                last = int(np.flatnonzero(c.thresholds == t)[-1])
                assert c.at_threshold(t) == (x[last], v[last])
    ks = cl.ks_curve(y, s)
    np.testing.assert_array_equal(ks.xy[1], ks.tpr - ks.fpr)
    g = cl.gain_curve(y, s)
    grid = np.linspace(0, 1, 23)
    np.testing.assert_array_equal(g.at(grid), cl.gain_at(y, s, grid))
    np.testing.assert_array_equal(cl.lift_of_gain(g, grid), cl.lift_at(y, s, grid))


def test_roc_at_reads_the_top_of_a_vertical_step():
    c = cl.roc_curve([1, 1, 0, 0], [0.9, 0.8, 0.7, 0.1])
    assert c.at(0.0) == 1.0
    assert c.at([0.25, 0.5]).tolist() == [1.0, 1.0]
    with pytest.raises(ValueError, match=r"x must lie in \[0, 1\]"):
        c.at(1.5)
    assert c.at_threshold(2) == (0.0, 0.0)  # nobody called positive
    with pytest.raises(ValueError, match="no object has a score >= 2"):
        cl.pr_curve([1, 1, 0, 0], [0.9, 0.8, 0.7, 0.1]).at_threshold(2)


def test_curves_are_still_plain_named_tuples():
    c = cl.roc_curve([0, 1], [0.2, 0.8])
    fpr, tpr, thresholds = c
    assert c._fields == ("fpr", "tpr", "thresholds")
    assert type(c._replace(fpr=fpr)) is cl.RocCurve
    assert repr(c).startswith("RocCurve(fpr=")
    assert isinstance(c, tuple) and not hasattr(c, "__dict__")
