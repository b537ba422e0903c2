"""evaluate(): one validation and one grouping for every view (issue 29, item 2)."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn import metrics

import course_lib as cl
from course_lib import _groups, evaluation

VIEWS = ("roc_curve", "pr_curve", "gain_curve", "lift_curve", "ks_curve", "roc_auc", "gini",
         "ks_statistic", "average_precision", "roc_convex_hull", "gains_table", "auc_ci_delong")


def _data(seed: int, n: int = 500, tied: bool = True):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.35
    s = rng.random(n) + 0.3 * y
    return y, (np.round(s, 2) if tied else s), rng.integers(1, 5, n).astype(float)


@pytest.fixture
def counted(monkeypatch):
    """Counts of validations and of groupings (a sort of keys, or score_groups)."""
    calls = {"validate": 0, "group": 0}

    def counting(name, module, attr):
        original = getattr(module, attr)

        def wrapper(*args, **kwargs):
            calls[name] += 1
            return original(*args, **kwargs)
        monkeypatch.setattr(module, attr, wrapper)

    counting("validate", evaluation, "check_binary")
    counting("group", _groups.group_chunks, "_group")
    return calls


@pytest.mark.parametrize("tied", [True, False])
@pytest.mark.parametrize("n", [50, 200_000])
def test_every_view_from_one_validation_and_one_grouping(counted, tied, n):
    y, s, _ = _data(1, n, tied)
    e = cl.evaluate(y, s)
    for view in VIEWS:
        getattr(e, view)()
    assert counted == {"validate": 1, "group": 1}


def test_weighted_views_from_one_grouping(counted):
    y, s, w = _data(2)
    e = cl.evaluate(y, s, sample_weight=w)
    for view in VIEWS[:-2]:
        getattr(e, view)()
    assert counted == {"validate": 1, "group": 1}
    with pytest.raises(ValueError, match="without sample_weight"):
        e.gains_table()
    with pytest.raises(ValueError, match="without sample_weight"):
        e.auc_ci_delong()


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("weighted", [False, True])
def test_views_are_the_library_functions_and_agree_with_sklearn(seed, weighted):
    """Each view is the function of the same name (one code path, so equal to the
    bit); the numbers against scikit-learn as the oracle."""
    y, s, w = _data(seed)
    kw = {"sample_weight": w} if weighted else {}
    e = cl.evaluate(y, s, **kw)
    for view in VIEWS[:6] + VIEWS[7:9]:
        got, want = getattr(e, view)(), getattr(cl, view)(y, s, **kw)
        if isinstance(got, tuple):
            assert type(got) is type(want)
            for a, b in zip(got, want):
                np.testing.assert_array_equal(a, b)
        else:
            assert got == want
    assert e.gini() == 2 * cl.roc_auc(y, s, **kw) - 1
    sw = w if weighted else None
    assert e.roc_auc() == pytest.approx(metrics.roc_auc_score(y, s, sample_weight=sw), abs=1e-13)
    assert e.average_precision() == pytest.approx(
        metrics.average_precision_score(y, s, sample_weight=sw), abs=1e-13)
    fpr, tpr, _ = metrics.roc_curve(y, s, sample_weight=sw, drop_intermediate=False)
    np.testing.assert_allclose(e.roc_curve().fpr, fpr, atol=1e-13)
    np.testing.assert_allclose(e.roc_curve().tpr, tpr, atol=1e-13)
    hull = e.roc_convex_hull()
    ref = cl.roc_convex_hull(e.roc_curve().fpr, e.roc_curve().tpr)
    np.testing.assert_allclose(hull.fpr, ref.fpr, atol=1e-12)
    assert hull.area == pytest.approx(ref.area, abs=1e-12)
    if not weighted:
        pd_equal = e.gains_table(n_bins=7).equals(cl.gains_table(y, s, n_bins=7))
        assert pd_equal
        assert e.auc_ci_delong() == cl.auc_ci_delong(y, s)


def test_refusals_are_the_functions():
    e = cl.evaluate([1, 1, 1], [0.1, 0.2, 0.3])
    with pytest.raises(ValueError, match="no negative samples"):
        e.roc_curve()
    with pytest.warns(cl.UndefinedMetricWarning):
        assert np.isnan(e.roc_auc())
    with pytest.raises(ValueError, match="y_true and y_score have different lengths"):
        cl.evaluate([0, 1], [0.1])


# ------------------------------------------------ figures of several views of one score
# Each figure that draws several views of one score (a curve and its area, two curves)
# takes them from one evaluate() of that score: one validation and one grouping per
# score. Before, plot_gain_vs_roc validated and grouped its score 4 times (ROC curve,
# gain curve, AUC, gain area); the ROC and PR figures twice per score (curve and area);
# plot_ovr_roc twice per class.


def _figure_data():
    rng = np.random.default_rng(7)
    y = rng.random(300) < 0.3
    tied = np.round(rng.random(300) + 0.3 * y, 2)
    distinct = rng.random(300) + 0.2 * y
    w = rng.integers(1, 4, 300).astype(float)
    classes = rng.integers(0, 3, 300)
    probs = rng.dirichlet([1, 1, 1], 300)
    return y, tied, distinct, w, classes, probs


def _figures():
    """name -> (draw(plotting, data) -> Axes, number of scores it draws)."""
    return {
        "plot_gain_vs_roc": (lambda p, d: p.plot_gain_vs_roc(d[0], d[1]), 1),
        "plot_roc_shape": (lambda p, d: p.plot_roc_shape(d[0], d[2]), 1),
        "plot_roc_overlay": (lambda p, d: p.plot_roc_overlay(
            d[0], {"a": d[1], "b": d[2]}, sample_weights={"b": d[3]}), 2),
        "plot_roc_curves": (lambda p, d: p.plot_roc_curves({"a": d[:2], "b": (d[0], d[2])}), 2),
        "plot_pr_curves": (lambda p, d: p.plot_pr_curves({"a": d[:2], "b": (d[0], d[2])}), 2),
        "plot_pr_unachievable": (lambda p, d: p.plot_pr_unachievable(
            0.3, {"a": d[:2], "b": (d[0], d[2])}), 2),
        "plot_pr_areas": (lambda p, d: p.plot_pr_areas(d[0], d[1]), 1),
        "plot_ovr_roc": (lambda p, d: p.plot_ovr_roc(d[4], d[5]), 3),
    }


@pytest.fixture
def plotting(monkeypatch, counted):
    """course_lib.plotting on the Agg backend; every check_binary (or check_binary_exact)
    of the library's curve and area functions counted as a validation too (a figure that
    bypassed evaluate() would show there)."""
    import importlib

    import matplotlib

    matplotlib.use("Agg")
    for name in ("roc", "pr", "gains"):
        module = importlib.import_module(f"course_lib.{name}")
        for attr in ("check_binary", "check_binary_exact"):
            if not hasattr(module, attr):
                continue
            original = getattr(module, attr)

            def wrapper(*args, _original=original, **kwargs):
                counted["validate"] += 1
                return _original(*args, **kwargs)
            monkeypatch.setattr(module, attr, wrapper)
    from course_lib import plotting

    return plotting


@pytest.mark.parametrize("name", list(_figures()))
def test_figures_of_several_views_group_each_score_once(plotting, counted, name):
    import matplotlib.pyplot as plt

    draw, scores = _figures()[name]
    ax = draw(plotting, _figure_data())
    plt.close(ax.get_figure())
    assert counted == {"validate": scores, "group": scores}


def test_gain_vs_roc_draws_the_library_functions(plotting):
    """The figure's lines and legend areas are those of roc_curve, gain_curve, roc_auc and
    gain_auc, to the bit."""
    import matplotlib.pyplot as plt

    for seed in range(3):
        y, s, _ = _data(seed, 400, tied=seed != 1)
        ax = plotting.plot_gain_vs_roc(y, s)
        roc_line, gain_line = ax.get_lines()[-2:]
        roc, gain = cl.roc_curve(y, s), cl.gain_curve(y, s)
        np.testing.assert_array_equal(roc_line.get_xdata(), roc.fpr)
        np.testing.assert_array_equal(roc_line.get_ydata(), roc.tpr)
        np.testing.assert_array_equal(gain_line.get_xdata(), gain.rate)
        np.testing.assert_array_equal(gain_line.get_ydata(), gain.tpr)
        assert [t.get_text() for t in ax.get_legend().get_texts()] == [
            f"ROC: TPR(FPR), area {cl.roc_auc(y, s):.3f}",
            f"gain: TPR(RPP), area {cl.gain_auc(y, s):.3f}",
        ]
        plt.close(ax.get_figure())
