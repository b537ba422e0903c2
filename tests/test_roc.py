"""Tests of course_lib.roc: the grid walk, the ROC curve and the AUC three ways."""

from fractions import Fraction

import numpy as np
import pytest
from cases import PROFILES, random_case
from hypothesis import assume, given
from hypothesis import strategies as st
from scipy.stats import mannwhitneyu

from course_lib import UndefinedMetricWarning
from course_lib.roc import (
    auc_pairwise,
    pair_matrix,
    roc_auc,
    roc_convex_hull,
    roc_curve,
    roc_point,
    roc_steps,
    trapezoid_area,
)

# ---------------------------------------------------------------- syllabus facts


def test_table2_grid_walk_steps(table1):
    """Ch. 2: the walk over Table 2, one step per group, the tie (3, 5) moving diagonally."""
    y, b = table1
    steps = roc_steps(y, b, ids=range(1, 8))
    assert [(step.score, step.ids, step.k1, step.k0) for step in steps] == [
        (0.6, (4,), 1, 0),
        (0.5, (1,), 0, 1),
        (0.3, (6,), 1, 0),
        (0.2, (3, 5), 1, 1),
        (0.1, (2,), 0, 1),
        (0.0, (7,), 0, 1),
    ]
    F = Fraction
    assert [step.end for step in steps] == [
        (F(0), F(1, 3)),
        (F(1, 4), F(1, 3)),
        (F(1, 4), F(2, 3)),
        (F(1, 2), F(1)),
        (F(3, 4), F(1)),
        (F(1), F(1)),
    ]
    assert steps[0].start == (0, 0)
    assert all(a.end == b.start for a, b in zip(steps, steps[1:]))
    assert steps[3].start_float == (0.25, 2 / 3)
    assert steps[3].end_float == (0.5, 1.0)
    assert all(isinstance(v, float) for step in steps for v in step.end_float)


def test_roc_steps_default_ids_are_positions(table1):
    """Without ids, a step lists 0-based positions in input order."""
    y, b = table1
    assert [step.ids for step in roc_steps(y, b)] == [(3,), (0,), (5,), (2, 4), (1,), (6,)]


def test_roc_steps_constant_scorer_is_the_diagonal():
    """Ch. 2: a constant scorer makes one step from (0, 0) straight to (1, 1)."""
    (step,) = roc_steps([0, 1, 1, 0, 1], [0.3] * 5)
    assert (step.k1, step.k0, step.start, step.end) == (3, 2, (0, 0), (1, 1))
    assert roc_auc([0, 1, 1, 0, 1], [0.3] * 5) == 0.5


def test_F10_threshold_025_gives_point_quarter_two_thirds(table1):
    """F-10: on Table 1 the rule b >= 0.25 is the ROC point (FPR, TPR) = (1/4, 2/3)."""
    y, b = table1
    point = roc_point(y, b, 0.25)
    assert point == (Fraction(1, 4), Fraction(2, 3))
    assert all(isinstance(v, Fraction) for v in point)
    curve = roc_curve(y, b)
    # the same node is the vertex of the curve reached after the scores above 0.25
    k = int(np.flatnonzero(curve.thresholds == 0.3)[0])
    assert (curve.fpr[k], curve.tpr[k]) == (0.25, 2 / 3)


def test_F11_one_class_auc_is_nan_with_warning():
    """F-11: AUC of labels (0,0,0), scores (0.2,0.5,0.6) is NaN with a warning."""
    with pytest.warns(UndefinedMetricWarning, match="no positive samples"):
        assert np.isnan(roc_auc([0, 0, 0], [0.2, 0.5, 0.6]))
    with pytest.warns(UndefinedMetricWarning, match="no positive samples"):
        assert np.isnan(roc_auc([0, 0, 0], [0.2, 0.5, 0.6], exact=True))
    with pytest.warns(UndefinedMetricWarning, match="no negative samples"):
        assert np.isnan(auc_pairwise([1, 1], [0.2, 0.5]))
    with pytest.warns(UndefinedMetricWarning, match="no negative samples"):
        assert np.isnan(roc_auc([1, 0], [0.2, 0.5], sample_weight=[1, 0]))


@pytest.mark.parametrize(
    "func",
    [
        roc_curve,
        roc_steps,
        pair_matrix,
        lambda y, s: roc_point(y, s, 0.5),
    ],
    ids=["roc_curve", "roc_steps", "pair_matrix", "roc_point"],
)
def test_F11_one_class_curve_functions_raise(func):
    """F-11: a one-class sample has no ROC grid; curve functions raise a clear error."""
    with pytest.raises(ValueError, match="no positive samples"):
        func([0, 0, 0], [0.2, 0.5, 0.6])
    with pytest.raises(ValueError, match="no negative samples"):
        func([1, 1, 1], [0.2, 0.5, 0.6])


def test_F11_zero_weight_class_curve_raises():
    """F-11 with weights: a class of zero total weight leaves no curve."""
    with pytest.raises(ValueError, match="no positive samples"):
        roc_curve([0, 1, 0], [0.2, 0.5, 0.6], sample_weight=[1, 0, 2])


def test_F12_auc_table1_is_19_24_three_ways(table1):
    """F-12: AUC(Table 1) = 19/24 by grid area, pairwise counting and Mann-Whitney U."""
    y, b = table1
    area = roc_auc(y, b, exact=True)
    assert area == Fraction(19, 24)
    assert isinstance(area, Fraction)
    assert roc_auc(y, b) == 19 / 24
    assert auc_pairwise(y, b) == 19 / 24
    assert pair_matrix(y, b).matrix.sum() == 9.5  # 9.5 of 12 cells shaded
    u = mannwhitneyu(b[y == 1], b[y == 0]).statistic
    assert u / (3 * 4) == pytest.approx(19 / 24, abs=1e-15)
    # area under the walk, summed step by step as trapezoids
    steps = roc_steps(y, b)
    trapezoids = sum((step.end[0] - step.start[0]) * (step.end[1] + step.start[1]) / 2 for step in steps)
    assert trapezoids == Fraction(19, 24)


def test_table1_pair_matrix_cells(table1):
    """Ch. 2, fig. XA.3: rows 4, 6, 5 and columns 1, 3, 2, 7; the only half-shaded cell is
    the tied pair (5, 3) with b = 0.2 (erratum: source D names the pair (4, 2))."""
    y, b = table1
    pm = pair_matrix(y, b, ids=range(1, 8))
    assert pm.row_ids == (4, 6, 5)
    assert pm.col_ids == (1, 3, 2, 7)
    np.testing.assert_array_equal(
        pm.matrix, [[1, 1, 1, 1], [0, 1, 1, 1], [0, 0.5, 1, 1]]
    )
    assert pm.matrix.dtype == np.float64
    half = [(pm.row_ids[j], pm.col_ids[i]) for j, i in zip(*np.nonzero(pm.matrix == 0.5))]
    assert half == [(5, 3)]


# ---------------------------------------------------------------- curve shape


def test_roc_curve_keeps_every_vertex_and_infinite_first_threshold(table1):
    """Vertices (0,0) at +inf, then one per distinct score, collinear ones kept."""
    y, b = table1
    c = roc_curve(y, b)
    np.testing.assert_array_equal(c.thresholds, [np.inf, 0.6, 0.5, 0.3, 0.2, 0.1, 0.0])
    np.testing.assert_array_equal(c.fpr, [0, 0, 0.25, 0.25, 0.5, 0.75, 1])
    np.testing.assert_allclose(c.tpr, [0, 1 / 3, 1 / 3, 2 / 3, 1, 1, 1], rtol=0, atol=0)
    np.testing.assert_array_equal(
        [(float(step.end[0]), float(step.end[1])) for step in roc_steps(y, b)],
        np.column_stack([c.fpr, c.tpr])[1:],
    )


def test_auc_pairwise_blocks_cover_all_pairs(monkeypatch):
    """Blocking (rows and columns) does not change the count."""
    import course_lib.roc as roc

    rng = np.random.default_rng(3)
    s = rng.integers(0, 7, size=301).astype(float)
    y = rng.random(301) < 0.4
    expected = roc_auc(y, s)
    for block in (1, 5, 64, 1000):
        monkeypatch.setattr(roc, "_PAIR_BLOCK", block)
        assert auc_pairwise(y, s) == expected


def test_F13_binarized_answer_auc_is_balanced_accuracy(table1):
    """F-13: the ROC of a 0/1 answer has at most three points; its area is the
    balanced accuracy (TPR + TNR) / 2 of that answer."""
    y, b = table1
    for threshold in (-1, 0.05, 0.15, 0.25, 0.4, 0.55, 0.7):
        answer = (b >= threshold).astype(int)
        fpr, tpr = roc_point(y, b, threshold)
        curve = roc_curve(y, answer)
        assert len(curve.fpr) <= 3
        assert roc_auc(y, answer, exact=True) == (tpr + 1 - fpr) / 2
    # at 0.25: TPR = 2/3, TNR = 3/4
    assert roc_auc(y, (b >= 0.25).astype(int), exact=True) == Fraction(17, 24)


# ---------------------------------------------------------------- against scikit-learn

@pytest.mark.parametrize("profile", PROFILES)
def test_roc_auc_and_curve_agree_with_sklearn(profile):
    """Differential, 6 x 200 cases: roc_auc and every roc_curve vertex match
    sklearn (roc_auc_score, roc_curve(drop_intermediate=False)) to 1e-12."""
    from sklearn import metrics

    rng = np.random.default_rng(PROFILES.index(profile))
    for _ in range(200):
        y, s, w = random_case(rng, profile)
        expected = metrics.roc_auc_score(y, s, sample_weight=w)
        assert roc_auc(y, s, sample_weight=w) == pytest.approx(expected, abs=1e-12)
        fpr, tpr, thr = metrics.roc_curve(y, s, sample_weight=w, drop_intermediate=False)
        c = roc_curve(y, s, sample_weight=w)
        np.testing.assert_array_equal(c.thresholds, thr)
        np.testing.assert_allclose(c.fpr, fpr, rtol=0, atol=1e-12)
        np.testing.assert_allclose(c.tpr, tpr, rtol=0, atol=1e-12)
        if w is None:
            assert auc_pairwise(y, s) == pytest.approx(expected, abs=1e-12)


def test_roc_auc_on_one_positive_is_its_rank_share():
    """1 positive among 999 negatives, 100 negatives above it and 10 tied with it."""
    s = np.r_[np.full(100, 3.0), np.full(10, 2.0), np.full(889, 1.0), 2.0]
    y = np.r_[np.zeros(999, int), 1]
    assert roc_auc(y, s, exact=True) == Fraction(889 * 2 + 10, 2 * 999)


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
def test_property_three_auc_definitions_agree(data):
    """Grid area, pair counting, the pair matrix and Mann-Whitney U give one AUC."""
    y, s, _ = unpack(data)
    assume(both(y))
    area = roc_auc(y, s, exact=True)
    assert roc_auc(y, s) == float(area)  # exact and float agree (correctly rounded)
    assert auc_pairwise(y, s) == float(area)
    pm = pair_matrix(y, s)
    assert Fraction(pm.matrix.sum()) / pm.matrix.size == area
    u = mannwhitneyu(s[y], s[~y]).statistic
    assert u / pm.matrix.size == pytest.approx(float(area), abs=1e-12)


@given(rows, st.randoms(use_true_random=False))
def test_property_invariant_under_increasing_maps_and_permutation(data, rnd):
    """AUC depends only on the order: strictly increasing maps and shuffling keep it."""
    y, s, _ = unpack(data)
    assume(both(y))
    auc = roc_auc(y, s, exact=True)
    assert roc_auc(y, np.exp(s / 3), exact=True) == auc
    assert roc_auc(y, s**3 + 10 * s, exact=True) == auc
    perm = list(range(y.size))
    rnd.shuffle(perm)
    assert roc_auc(y[perm], s[perm], exact=True) == auc
    c, cp = roc_curve(y, s), roc_curve(y[perm], s[perm])
    np.testing.assert_array_equal(c.fpr, cp.fpr)
    np.testing.assert_array_equal(c.tpr, cp.tpr)


@given(rows)
def test_property_reversed_scores_give_one_minus_auc(data):
    """AUC(y, -b) = 1 - AUC(y, b), exactly, with and without weights."""
    y, s, w = unpack(data)
    assume(both(y, w))
    assert roc_auc(y, -s, exact=True) == 1 - roc_auc(y, s, exact=True)
    assert roc_auc(y, -s, sample_weight=w, exact=True) == 1 - roc_auc(
        y, s, sample_weight=w, exact=True
    )


@given(rows)
def test_property_integer_weights_equal_replicated_rows(data):
    """Weight k equals k copies of the row (weight 0 = the row dropped)."""
    y, s, w = unpack(data)
    assume(both(y, w))
    yr, sr = np.repeat(y, w), np.repeat(s, w)
    exact = roc_auc(y, s, sample_weight=w, exact=True)
    assert exact == roc_auc(yr, sr, exact=True)
    assert roc_auc(y, s, sample_weight=w) == pytest.approx(float(exact), abs=1e-12)
    c, cr = roc_curve(y, s, sample_weight=w), roc_curve(yr, sr)
    np.testing.assert_array_equal(c.thresholds, cr.thresholds)
    np.testing.assert_allclose(c.fpr, cr.fpr, rtol=0, atol=1e-12)
    np.testing.assert_allclose(c.tpr, cr.tpr, rtol=0, atol=1e-12)


@given(rows, st.lists(st.floats(0.01, 10), min_size=40, max_size=40))
def test_property_zero_weight_equals_dropping_the_row(data, fw):
    """A row of weight 0 changes neither the AUC nor a single curve vertex."""
    y, s, w = unpack(data)
    fw = np.array(fw[: y.size]) * (w > 0)  # float weights, zero where w == 0
    keep = fw > 0
    assume(both(y[keep]))
    auc = roc_auc(y, s, sample_weight=fw)
    assert auc == pytest.approx(roc_auc(y[keep], s[keep], sample_weight=fw[keep]), abs=1e-12)
    c = roc_curve(y, s, sample_weight=fw)
    ck = roc_curve(y[keep], s[keep], sample_weight=fw[keep])
    for a, b in zip(c, ck):
        np.testing.assert_allclose(a, b, rtol=0, atol=1e-12)


@given(rows)
def test_property_steps_follow_the_curve(data):
    """The walk's nodes are the curve's vertices; steps add up to m1 and m0."""
    y, s, _ = unpack(data)
    assume(both(y))
    steps = roc_steps(y, s)
    c = roc_curve(y, s)
    assert [step.score for step in steps] == c.thresholds[1:].tolist()
    assert [step.end_float for step in steps] == list(zip(c.fpr[1:].tolist(), c.tpr[1:].tolist()))
    assert sum(step.k1 for step in steps) == y.sum()
    assert sum(step.k0 for step in steps) == (~y).sum()
    assert sorted(i for step in steps for i in step.ids) == list(range(y.size))


@given(rows)
def test_property_hull_is_concave_and_dominates(data):
    """The ROC hull runs (0,0) -> (1,1), turns right only, and has area >= AUC."""
    y, s, _ = unpack(data)
    assume(both(y))
    c = roc_curve(y, s)
    h = roc_convex_hull(c.fpr, c.tpr)
    assert (h.fpr[0], h.tpr[0], h.fpr[-1], h.tpr[-1]) == (0, 0, 1, 1)
    assert h.area >= roc_auc(y, s) - 1e-12
    assert h.area == pytest.approx(trapezoid_area(h.fpr, h.tpr), abs=0)
    # every curve vertex lies on or below the hull
    assert (c.tpr <= np.interp(c.fpr, h.fpr[1:], h.tpr[1:]) + 1e-12).all()
    # strictly decreasing slopes between consecutive hull vertices (no collinear ones)
    dx, dy = np.diff(h.fpr), np.diff(h.tpr)
    cross = dx[:-1] * dy[1:] - dy[:-1] * dx[1:]
    assert (cross < 0).all()


def test_hull_and_trapezoid_on_table1(table1):
    """Table 1: the hull drops (1/4, 1/3) (below) and (1/4, 2/3) (on the chord from
    (0, 1/3) to (1/2, 1)); its area is 1/3 + 1/2 = 5/6."""
    y, b = table1
    c = roc_curve(y, b)
    h = roc_convex_hull(c.fpr, c.tpr)
    np.testing.assert_allclose(h.fpr, [0, 0, 0.5, 1], rtol=0, atol=1e-15)
    np.testing.assert_allclose(h.tpr, [0, 1 / 3, 1, 1], rtol=0, atol=1e-15)
    assert h.area == pytest.approx(5 / 6, abs=1e-15)
    assert trapezoid_area(c.fpr, c.tpr) == pytest.approx(19 / 24, abs=1e-15)


# ---------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    "y, s, w, message",
    [
        ([0, 2, 1], [0.1, 0.2, 0.3], None, "only 0 and 1.*found other values: 2"),
        (["a", "b"], [0.1, 0.2], None, "only 0 and 1"),
        ([0, 1], [0.1, np.nan], None, "NaN or infinite"),
        ([0, 1], [0.1, np.inf], None, "NaN or infinite"),
        ([0, 1, 1], [0.1, 0.2], None, "different lengths: 3 and 2"),
        ([], [], None, "y_true is empty"),
        ([[0, 1]], [[0.1, 0.2]], None, "must be 1-D"),
        ([0, 1], [0.1, 0.2], [1, -1], "non-negative"),
        ([0, 1], [0.1, 0.2], [1, np.nan], "sample_weight contains NaN"),
        ([0, 1], [0.1, 0.2], [1, 1, 1], "sample_weight has length 3"),
    ],
)
def test_bad_input_raises_value_error(y, s, w, message):
    """Every public function names the problem with its input."""
    with pytest.raises(ValueError, match=message):
        roc_auc(y, s, sample_weight=w)
    with pytest.raises(ValueError, match=message):
        roc_curve(y, s, sample_weight=w)
    if w is None:
        for func in (roc_steps, pair_matrix, auc_pairwise):
            with pytest.raises(ValueError, match=message):
                func(y, s)


def test_bad_options_raise_value_error(table1):
    """exact=True with fractional weights, wrong ids, bad curve coordinates."""
    y, b = table1
    with pytest.raises(ValueError, match="integer sample weights; found 0.5"):
        roc_auc(y, b, sample_weight=[1, 1, 1, 0.5, 1, 1, 1], exact=True)
    with pytest.raises(ValueError, match="total sample weight below 2"):
        roc_auc(y, b, sample_weight=np.full(7, 2.0**52), exact=True)
    with pytest.raises(ValueError, match="ids has length 3"):
        roc_steps(y, b, ids="abc")
    with pytest.raises(ValueError, match="ids has length 8"):
        pair_matrix(y, b, ids=range(8))
    with pytest.raises(ValueError, match="threshold must be finite"):
        roc_point(y, b, np.nan)
    with pytest.raises(ValueError, match="x must be non-decreasing"):
        trapezoid_area([0, 1, 0.5], [0, 1, 1])
    with pytest.raises(ValueError, match="x and y have different lengths"):
        trapezoid_area([0, 1], [0, 1, 1])
    with pytest.raises(ValueError, match="fpr and tpr have different lengths"):
        roc_convex_hull([0, 1], [0, 1, 1])
    with pytest.raises(ValueError, match="fpr contains NaN"):
        roc_convex_hull([0, np.nan], [0, 1])


def test_inputs_are_not_modified(table1):
    """No function writes into its arguments (read-only arrays would raise)."""
    y, b = (a.copy() for a in table1)
    w = np.arange(1.0, 8.0)
    for a in (y, b, w):
        a.flags.writeable = False
    roc_auc(y, b, sample_weight=w)
    roc_auc(y, b, sample_weight=w, exact=True)
    roc_curve(y, b, sample_weight=w)
    roc_steps(y, b)
    roc_point(y, b, 0.25)
    pair_matrix(y, b)
    auc_pairwise(y, b)
    c = roc_curve(y, b)
    for a in c:
        a.flags.writeable = False
    roc_convex_hull(c.fpr, c.tpr)
    trapezoid_area(c.fpr, c.tpr)
    np.testing.assert_array_equal(y, table1[0])
    np.testing.assert_array_equal(b, table1[1])
    np.testing.assert_array_equal(w, np.arange(1.0, 8.0))


def test_results_are_python_scalars(table1):
    """Floats and Fractions, never numpy scalars or 0-d arrays."""
    y, b = table1
    assert type(roc_auc(y, b)) is float
    assert type(roc_auc(y, b, sample_weight=np.ones(7))) is float
    assert type(auc_pairwise(y, b)) is float
    assert type(trapezoid_area([0, 1], [0, 1])) is float
    assert type(roc_convex_hull([0, 1], [0, 1]).area) is float
    step = roc_steps(y, b)[0]
    assert type(step.score) is float and type(step.k1) is int and type(step.k0) is int
