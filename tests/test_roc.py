"""Tests of course_lib.roc: the grid walk, the ROC curve and the AUC three ways."""

import warnings
from fractions import Fraction

import numpy as np
import pytest
from scipy.stats import mannwhitneyu

from course_lib import UndefinedMetricWarning
from course_lib.roc import (
    auc_pairwise,
    pair_matrix,
    roc_auc,
    roc_curve,
    roc_point,
    roc_steps,
)

# ---------------------------------------------------------------- syllabus facts


def test_table2_grid_walk_steps(table1):
    """Ch. 2: the walk over Table 2, one step per group, the tie (3, 5) moving diagonally."""
    y, b = table1
    steps = roc_steps(y, b, ids=range(1, 8))
    assert [(st.score, st.ids, st.k1, st.k0) for st in steps] == [
        (0.6, (4,), 1, 0),
        (0.5, (1,), 0, 1),
        (0.3, (6,), 1, 0),
        (0.2, (3, 5), 1, 1),
        (0.1, (2,), 0, 1),
        (0.0, (7,), 0, 1),
    ]
    F = Fraction
    assert [st.end for st in steps] == [
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
    assert all(isinstance(v, float) for st in steps for v in st.end_float)


def test_roc_steps_default_ids_are_positions(table1):
    """Without ids, a step lists 0-based positions in input order."""
    y, b = table1
    assert [st.ids for st in roc_steps(y, b)] == [(3,), (0,), (5,), (2, 4), (1,), (6,)]


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
    trapezoids = sum((st.end[0] - st.start[0]) * (st.end[1] + st.start[1]) / 2 for st in steps)
    assert trapezoids == Fraction(19, 24)


def test_table1_pair_matrix_cells(table1):
    """Ch. 2, fig. XA.3: rows 4, 6, 5 and columns 1, 3, 2, 7; the tie 5-3 is half a cell."""
    y, b = table1
    pm = pair_matrix(y, b, ids=range(1, 8))
    assert pm.row_ids == (4, 6, 5)
    assert pm.col_ids == (1, 3, 2, 7)
    np.testing.assert_array_equal(
        pm.matrix, [[1, 1, 1, 1], [0, 1, 1, 1], [0, 0.5, 1, 1]]
    )
    assert pm.matrix.dtype == np.float64


# ---------------------------------------------------------------- curve shape


def test_roc_curve_keeps_every_vertex_and_infinite_first_threshold(table1):
    """Vertices (0,0) at +inf, then one per distinct score, collinear ones kept."""
    y, b = table1
    c = roc_curve(y, b)
    np.testing.assert_array_equal(c.thresholds, [np.inf, 0.6, 0.5, 0.3, 0.2, 0.1, 0.0])
    np.testing.assert_array_equal(c.fpr, [0, 0, 0.25, 0.25, 0.5, 0.75, 1])
    np.testing.assert_allclose(c.tpr, [0, 1 / 3, 1 / 3, 2 / 3, 1, 1, 1], rtol=0, atol=0)
    np.testing.assert_array_equal(
        [(float(st.end[0]), float(st.end[1])) for st in roc_steps(y, b)],
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
