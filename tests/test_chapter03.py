"""Chapter 3 as the reader sees it: the syllabus facts in the stored notebook's glue,
and the chapter's figures (course_lib/plotting/auc.py) against the curves they draw."""

import re
from fractions import Fraction

import matplotlib.pyplot as plt
import numpy as np
import pytest
from notebook_tools import ROOT, cell_text, chapter, glued, load, stored

import course_lib as cl
from course_lib import plotting

CH3 = chapter("03_auc_pairs")
Y = np.array([0, 0, 0, 1, 1, 1, 0])
B = np.array([0.5, 0.1, 0.2, 0.6, 0.2, 0.3, 0.0])


def test_F12_chapter3_auc_is_19_24_three_ways():
    """F-12: AUC(Table 1) = 19/24 = 9.5/12 ~ 0.7917 by the area, the pairs and U."""
    g = glued(CH3)
    assert g["auc_exact"] == "'19/24'"
    assert float(g["auc_float"]) == stored(19 / 24)
    assert float(g["auc_pairs_num"]) == 9.5 and g["n_pairs"] == "12"
    assert float(g["u_stat"]) == 9.5
    text = cell_text(CH3)
    for label in ("area of the grid path", "pairs, ties count 1/2", "Mann-Whitney U/(m1 m0)"):
        assert re.search(rf"{re.escape(label)}\s+0\.791667\s+19/24", text), label
    assert "sum of the trapezoids: 19/24" in text


def test_F13_chapter3_binarized_auc_is_balanced_accuracy():
    """F-13: the answers [b >= 0.25] on Table 1 have ROC AUC 17/24 = their balanced
    accuracy; on random data the curve has at most 3 vertices and the two agree."""
    g = glued(CH3)
    assert g["theta"] == "0.25"
    assert (g["fpr_theta"], g["tpr_theta"]) == ("'1/4'", "'2/3'")
    assert g["auc_binary"] == "'17/24'"
    assert float(g["bal_acc"]) == stored(17 / 24)
    assert g["max_vertices"] == "3"
    assert float(g["largest_gap"]) < 1e-12


def test_chapter3_c_statistic_is_the_auc():
    """The c-statistic of medicine, counted over all 21 pairs of Table 1's objects (12
    usable, one tie counting 1/2), is the AUC 19/24; the binarized answer's section is
    the target the later chapters refer to."""
    g = glued(CH3)
    assert (g["c_pairs"], g["c_usable"]) == ("21", "12")
    assert g["c_statistic"] == "'19/24'" == g["auc_exact"]
    assert "21 pairs, 12 usable, 19/2 concordant: c = 19/24" in cell_text(CH3)
    markdown = "\n".join("".join(c["source"]) for c in load(CH3)["cells"]
                          if c["cell_type"] == "markdown")
    assert "(sec-binarized-auc)=\n## The binarized answer" in markdown


def test_chapter3_probability_and_source_g_slips():
    """AUC = P(>) + P(=)/2; G's P(>=) reading gives 5/6; its formula (6), read with its
    own F, gives 1 - AUC = 5/24, a number the chapter no longer prints (it is the answer
    of auc-negated-scores): the Errata page computes it, the chapter's folded box says
    so in words."""
    g = glued(CH3)
    assert g["p_at_least"] == "'5/6'"
    assert "one_minus_auc" not in g and "g6_literal" not in g
    assert glued(ROOT / "book" / "errata.ipynb")["g6_up"] == "'5/24'"
    assert float(g["sim_estimate"]) == pytest.approx(19 / 24, abs=0.005)


def test_chapter3_maps_of_the_scores():
    """Strictly increasing maps keep 19/24; maps that merge scores move it both ways."""
    g = glued(CH3)
    assert (g["auc_round"], g["auc_clip"], g["auc_flat"]) == ("'17/24'", "'2/3'", "'5/6'")
    assert g["n_new_ties_clip"] == "7"
    assert g["auc_negated"] == "'5/24'"


def test_chapter3_weights_equal_replication():
    g = glued(CH3)
    assert g["auc_weighted"] == g["auc_repeated"] == "'37/60'"
    assert (g["W1"], g["W0"]) == ("6", "5")
    assert g["auc_q3"] == "'19/24'"


def test_chapter3_thinning_keeps_the_mean():
    g = glued(CH3)
    assert (g["one_neg_min"], g["one_neg_max"]) == ("'1/3'", "'1'")
    assert float(g["max_mean_shift"]) < 0.01
    assert float(g["sd_half"]) < float(g["sd_smallest"])
    assert float(g["ap_smallest"]) > float(g["ap_full"]) + 0.1


def _segments(ax):
    """Start and end points of the two-point lines of an Axes."""
    return [tuple(map(tuple, line.get_xydata())) for line in ax.lines if len(line.get_xdata()) == 2]


def test_weighted_grid_path_is_the_weighted_curve():
    w = np.array([2, 1, 1, 1, 3, 2, 1])
    ax = plotting.plot_weighted_grid(Y, B, w)
    curve = cl.roc_curve(Y, B, sample_weight=w)
    markers = [ln for ln in ax.lines if ln.get_marker() == "o"]
    assert len(markers) == 1
    np.testing.assert_array_equal(markers[0].get_xdata(), curve.fpr)
    np.testing.assert_array_equal(markers[0].get_ydata(), curve.tpr)
    # column edges: negatives 1, 3, 2, 7 with weights 2, 1, 1, 1 of 5
    verticals = sorted({x0 for (x0, y0), (x1, y1) in _segments(ax) if x0 == x1 and (y0, y1) == (0, 1)})
    assert verticals == pytest.approx([0, 0.4, 0.6, 0.8, 1.0])
    cell_texts = sorted(t.get_text() for t in ax.texts)
    assert len(cell_texts) == 12 and cell_texts.count("6") == 1  # w5 * w1 = 3 * 2
    plt.close(ax.get_figure())


def test_roc_overlay_draws_each_curve():
    ax = plotting.plot_roc_overlay(Y, {"b": B, "b³": B**3})
    curves = ax.lines[1:]
    c = cl.roc_curve(Y, B)
    for line in curves:
        np.testing.assert_array_equal(line.get_xdata(), c.fpr)
        np.testing.assert_array_equal(line.get_ydata(), c.tpr)
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["b (AUC 0.792)", "b³ (AUC 0.792)"]
    plt.close(ax.get_figure())
    with pytest.raises(ValueError, match="at most"):
        plotting.plot_roc_overlay(Y, {str(k): B for k in range(5)})


def test_score_scales_lines_join_the_two_scales():
    ax = plotting.plot_score_scales(Y, B, np.maximum(B, 0.5))
    joins = [ln for ln in ax.lines if tuple(ln.get_xdata()) == (0, 1)]
    assert len(joins) == len(Y)
    right_ends = sorted(round(float(ln.get_ydata()[1]), 12) for ln in joins)
    assert right_ends == [0.0] * 6 + [1.0]  # six scores clipped to the minimum 0.5
    plt.close(ax.get_figure())
    with pytest.raises(ValueError):
        plotting.plot_score_scales(Y, B, B[:3])


def test_thinning_plot_mean_and_band():
    runs = np.array([[0.7, 0.7, 0.7], [0.6, 0.7, 0.8]])
    ax = plotting.plot_thinning([1.0, 0.5], {"neg": runs}, reference=0.7, band=(0, 100))
    assert ax.lines[0].get_ydata().tolist() == pytest.approx([0.7, 0.7])
    band = ax.collections[0].get_paths()[0].vertices
    assert band[:, 1].min() == pytest.approx(0.6) and band[:, 1].max() == pytest.approx(0.8)
    assert ax.get_xscale() == "log"
    plt.close(ax.get_figure())
    with pytest.raises(ValueError, match="shape"):
        plotting.plot_thinning([1.0, 0.5, 0.2], {"neg": runs})


def test_exact_thinning_mean_is_the_full_auc():
    """The identity behind the thinning section, for every subset size of Table 1."""
    from itertools import combinations

    full = cl.roc_auc(Y, B, exact=True)
    idx = np.arange(Y.size)
    for pool, whole in ((idx[Y == 0], idx[Y == 1]), (idx[Y == 1], idx[Y == 0])):
        for k in range(1, pool.size):
            vals = [cl.roc_auc(Y[np.r_[whole, s]], B[np.r_[whole, s]], exact=True)
                    for s in combinations(pool, k)]
            assert sum(vals, Fraction(0)) / len(vals) == full


def test_chapter3_exercise_solutions_read_their_numbers_from_glue():
    """The binarized answer (TPR 0.9, FPR 0.3) has AUC 4/5, by trapezoids and by a sample."""
    g = glued(CH3)
    assert g["auc_q2"] == g["auc_q2_sample"] == "'4/5'"
    assert (g["q2_tp"], g["q2_m1"], g["q2_fp"], g["q2_m0"]) == ("9", "10", "3", "10")
